// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup events: PERF_FLAG_PID_CGROUP CPU events count only while a task
 * of their cgroup (or of a descendant) runs on their CPU, and their
 * time_enabled/time_running are that cgroup's time there;
 * PERF_SAMPLE_CGROUP names the cgroup of the sampled task, and attr.cgroup
 * asks for a PERF_RECORD_CGROUP when a cgroup is created.  On cgroup v2
 * (mounted on /sys/fs/cgroup where nothing is; the perf_event controller
 * is implicit there, and reaches new cgroups once the root's
 * subtree_control has been written: "+pids"), then on a v1 hierarchy of
 * the perf_event controller alone.  Needs root.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define ROOT	"/sys/fs/cgroup"
#define V1ROOT	"/tmp/perf_event-v1"
#define BUSY_MS	100

static const char *root = ROOT;

static int cgroup_root(void)
{
	int fd;

	if (access(ROOT "/cgroup.procs", F_OK)) {
		mkdir(ROOT, 0755);
		if (mount("cgroup2", ROOT, "cgroup2", 0, NULL))
			return -errno;
	}
	fd = open(ROOT "/cgroup.subtree_control", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "+pids", 5) < 0)
			perror("+pids");
		close(fd);
	}
	return 0;
}

/* Make (or reuse) the cgroup @name; its directory fd, or -errno. */
static int cgroup_make(const char *name)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int cgroup_enter(const char *name, pid_t pid)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s/cgroup.procs", root, name);
	return write_int_file(path, pid);
}

/*
 * The cgroup id user space sees: on 64-bit kernels the inode number of its
 * directory (what the file handle of name_to_handle_at() carries).
 */
static uint64_t cgroup_id(const char *name)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	if (stat(path, &st))
		return 0;
	return st.st_ino;
}

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/*
 * A child in cgroup @name, on CPU 0, that names itself @comm if given,
 * then burns BUSY_MS ms; reaped.  Its exit status, or -errno.
 */
static int run_named_in(const char *name, const char *comm)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		pin_cpu0();
		if (cgroup_enter(name, 0))
			_exit(2);
		if (comm && prctl(PR_SET_NAME, comm, 0, 0, 0))
			_exit(3);
		burn(BUSY_MS);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int run_in(const char *name)
{
	return run_named_in(name, NULL);
}

/* cpu-clock of cgroup @cgfd on CPU 0, with its times. */
static int open_cg(int cgfd, __u64 config)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = config;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	return sys_perf_event_open(&attr, cgfd, 0, -1,
				   PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
}

struct reading {
	uint64_t value, enabled, running;
};

FIXTURE(cg) {
	int a, b, parent, child;
};

FIXTURE_SETUP(cg)
{
	self->a = -1;
	self->b = -1;
	self->parent = -1;
	self->child = -1;
	if (getuid() != 0)
		SKIP(return, "needs root");
	if (cgroup_root())
		SKIP(return, "no cgroup2");
	self->a = cgroup_make("perf-a");
	self->b = cgroup_make("perf-b");
	self->parent = cgroup_make("perf-p");
	self->child = cgroup_make("perf-p/c");
	ASSERT_LE(0, self->a);
	ASSERT_LE(0, self->b);
	ASSERT_LE(0, self->parent);
	ASSERT_LE(0, self->child);
}

FIXTURE_TEARDOWN(cg)
{
	close(self->a);
	close(self->b);
	close(self->parent);
	close(self->child);
}

/*
 * A task of A runs on CPU 0: the event of A counts its time, and has as
 * much cgroup time; B's event, whose cgroup never ran, has nothing.
 */
TEST_F(cg, counts_only_its_cgroup)
{
	struct reading ra, rb;
	int fa, fb;

	fa = open_cg(self->a, PERF_COUNT_SW_CPU_CLOCK);
	ASSERT_LE(0, fa) TH_LOG("open: %s", strerror(errno));
	fb = open_cg(self->b, PERF_COUNT_SW_CPU_CLOCK);
	ASSERT_LE(0, fb);

	ASSERT_EQ(0, run_in("perf-a"));
	ASSERT_EQ(sizeof(ra), read(fa, &ra, sizeof(ra)));
	ASSERT_EQ(sizeof(rb), read(fb, &rb, sizeof(rb)));
	TH_LOG("A: %llu ns, enabled %llu, running %llu; B: %llu, %llu, %llu",
	       (unsigned long long)ra.value, (unsigned long long)ra.enabled,
	       (unsigned long long)ra.running, (unsigned long long)rb.value,
	       (unsigned long long)rb.enabled, (unsigned long long)rb.running);
	/* the child burned BUSY_MS of CPU time on CPU 0, in A */
	EXPECT_LE(BUSY_MS * 900000ULL, ra.value);
	EXPECT_GE(BUSY_MS * 4000000ULL, ra.value);
	/* cgroup time: about what A ran, not the wall time since open */
	EXPECT_LE(ra.value, ra.enabled + 1000000);
	EXPECT_GE(ra.value + BUSY_MS * 1000000ULL, ra.enabled);
	EXPECT_EQ(ra.enabled, ra.running);
	EXPECT_EQ(0, rb.value);
	EXPECT_EQ(0, rb.enabled);
	close(fa);
	close(fb);
}

/* The event of a cgroup counts the tasks of its descendants too. */
TEST_F(cg, counts_descendants)
{
	struct reading rp, rc;
	int fp, fc;

	fp = open_cg(self->parent, PERF_COUNT_SW_CPU_CLOCK);
	ASSERT_LE(0, fp);
	fc = open_cg(self->child, PERF_COUNT_SW_CPU_CLOCK);
	ASSERT_LE(0, fc);
	ASSERT_EQ(0, run_in("perf-p/c"));
	ASSERT_EQ(sizeof(rp), read(fp, &rp, sizeof(rp)));
	ASSERT_EQ(sizeof(rc), read(fc, &rc, sizeof(rc)));
	EXPECT_LE(BUSY_MS * 900000ULL, rc.value);
	/* the two go on and off one after the other: allow 1 ms */
	EXPECT_LE(rc.value, rp.value + 1000000);
	EXPECT_LE(rc.enabled, rp.enabled + 1000000);
	close(fp);
	close(fc);
}

/* Samples of a cgroup event carry the id of the sampled task's cgroup. */
TEST_F(cg, sample_cgroup_id)
{
	struct perf_event_attr attr;
	uint64_t id = cgroup_id("perf-a"), want, got;
	struct perf_event_mmap_page *up;
	size_t len = 9 * getpagesize();
	int fd, n = 0, bad = 0;
	uint64_t head, off;
	char *data;

	ASSERT_NE(0, id);
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = 1000000;
	attr.sample_type = PERF_SAMPLE_CGROUP;
	fd = sys_perf_event_open(&attr, self->a, 0, -1,
				 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, fd);
	up = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, up);
	ASSERT_EQ(0, run_in("perf-a"));

	data = (char *)up + getpagesize();
	head = __atomic_load_n(&up->data_head, __ATOMIC_ACQUIRE);
	want = id;
	for (off = up->data_tail; off < head;) {
		struct perf_event_header *h = (void *)(data + off % (8 * getpagesize()));

		if (h->type == PERF_RECORD_SAMPLE) {
			memcpy(&got, h + 1, sizeof(got));
			n++;
			bad += got != want;
		}
		off += h->size;
	}
	TH_LOG("%d samples, %d with another cgroup id than %llu", n, bad,
	       (unsigned long long)want);
	EXPECT_LT(10, n);
	EXPECT_EQ(0, bad);
	munmap(up, len);
	close(fd);
}

/* attr.cgroup: a new cgroup is told with its id and path. */
TEST_F(cg, record_cgroup)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *up;
	size_t len = 2 * getpagesize();
	uint64_t head, off, id;
	int fd, found = 0;
	char *data;

	sw_attr(&attr, PERF_COUNT_SW_DUMMY);
	attr.cgroup = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, fd);
	up = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, up);
	rmdir(ROOT "/perf-new");
	ASSERT_EQ(0, mkdir(ROOT "/perf-new", 0755));
	id = cgroup_id("perf-new");

	data = (char *)up + getpagesize();
	head = __atomic_load_n(&up->data_head, __ATOMIC_ACQUIRE);
	for (off = 0; off < head;) {
		struct perf_event_header *h = (void *)(data + off % getpagesize());

		if (h->type == PERF_RECORD_CGROUP) {
			uint64_t rid;

			memcpy(&rid, h + 1, sizeof(rid));
			TH_LOG("CGROUP id %llu path %s size %u",
			       (unsigned long long)rid, (char *)(h + 1) + 8,
			       h->size);
			if (rid == id &&
			    !strcmp((char *)(h + 1) + 8, "/perf-new"))
				found++;
		}
		off += h->size;
	}
	EXPECT_EQ(1, found);
	rmdir(ROOT "/perf-new");
	munmap(up, len);
	close(fd);
}

/*
 * Side-band records of a cgroup event are of its cgroup's tasks only: a
 * task of B renaming itself on the event's CPU is not told to A's event.
 */
TEST_F(cg, sideband_only_its_cgroup)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *up;
	size_t len = 9 * getpagesize();
	size_t size = len - getpagesize();
	int fd, mine = 0, others = 0;
	uint64_t head, off;
	char *data;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.comm = 1;
	fd = sys_perf_event_open(&attr, self->a, 0, -1,
				 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	up = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, up);
	ASSERT_EQ(0, run_named_in("perf-b", "perf-sb-other"));
	ASSERT_EQ(0, run_named_in("perf-a", "perf-sb-mine"));

	data = (char *)up + getpagesize();
	head = __atomic_load_n(&up->data_head, __ATOMIC_ACQUIRE);
	ASSERT_GE(size, head);
	for (off = 0; off < head;) {
		struct perf_event_header *h = (void *)(data + off);

		if (!h->size)
			break;
		/* pid, tid, then the name */
		if (h->type == PERF_RECORD_COMM) {
			const char *comm = (char *)(h + 1) + 8;

			mine += !strcmp(comm, "perf-sb-mine");
			others += !strcmp(comm, "perf-sb-other");
		}
		off += h->size;
	}
	EXPECT_EQ(1, mine);
	EXPECT_EQ(0, others);
	munmap(up, len);
	close(fd);
}

/* What a cgroup event refuses. */
TEST_F(cg, errors)
{
	struct perf_event_attr attr;
	int fd, dir;

	sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
	/* on every CPU */
	fd = sys_perf_event_open(&attr, self->a, -1, -1, PERF_FLAG_PID_CGROUP);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	/* not a file */
	fd = sys_perf_event_open(&attr, 9999, 0, -1, PERF_FLAG_PID_CGROUP);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EBADF, errno);
	/* a directory, but not of the cgroup filesystem */
	dir = open("/", O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, dir);
	fd = sys_perf_event_open(&attr, dir, 0, -1, PERF_FLAG_PID_CGROUP);
	EXPECT_EQ(-1, fd);
	TH_LOG("a directory of another filesystem: %s", strerror(errno));
	EXPECT_EQ(EBADF, errno);
	close(dir);
	/* the root cgroup is a cgroup too */
	dir = open(ROOT, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, dir);
	fd = sys_perf_event_open(&attr, dir, 0, -1, PERF_FLAG_PID_CGROUP);
	EXPECT_LE(0, fd) TH_LOG("the root cgroup: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
	close(dir);
}

/*
 * cgroup v1: a hierarchy of the perf_event controller alone (it leaves
 * v2 for it).  Registered after the v2 fixture, so it runs after it.
 */
FIXTURE(v1) {
	int a;
};

FIXTURE_SETUP(v1)
{
	self->a = -1;
	if (getuid() != 0)
		SKIP(return, "needs root");
	mkdir(V1ROOT, 0755);
	if (mount("perf_event", V1ROOT, "cgroup", 0, "perf_event"))
		SKIP(return, "no cgroup v1 perf_event hierarchy: %s",
		     strerror(errno));
	root = V1ROOT;
	self->a = cgroup_make("perf-a");
	ASSERT_LE(0, self->a);
}

FIXTURE_TEARDOWN(v1)
{
	if (self->a < 0)
		return;
	close(self->a);
	/*
	 * Leave no cgroup behind, so that the hierarchy goes away with the
	 * mount and perf_event returns to v2 (perf_smoke uses it there):
	 * the exited child's cgroup may take a moment to be released.
	 */
	for (int i = 0; i < 100; i++) {
		if (!rmdir(V1ROOT "/perf-a") || errno != EBUSY)
			break;
		usleep(50000);
	}
	umount(V1ROOT);
	root = ROOT;
}

TEST_F(v1, counts_only_its_cgroup)
{
	struct reading ra, rr;
	int fa, fr, dir;

	fa = open_cg(self->a, PERF_COUNT_SW_CPU_CLOCK);
	ASSERT_LE(0, fa) TH_LOG("open: %s", strerror(errno));
	dir = open(V1ROOT, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, dir);
	fr = open_cg(dir, PERF_COUNT_SW_CPU_CLOCK);
	ASSERT_LE(0, fr);
	close(dir);

	ASSERT_EQ(0, run_in("perf-a"));
	ASSERT_EQ(sizeof(ra), read(fa, &ra, sizeof(ra)));
	ASSERT_EQ(sizeof(rr), read(fr, &rr, sizeof(rr)));
	TH_LOG("A: %llu ns, enabled %llu; root: %llu, enabled %llu",
	       (unsigned long long)ra.value, (unsigned long long)ra.enabled,
	       (unsigned long long)rr.value, (unsigned long long)rr.enabled);
	EXPECT_LE(BUSY_MS * 900000ULL, ra.value);
	EXPECT_GE(BUSY_MS * 4000000ULL, ra.value);
	EXPECT_EQ(ra.enabled, ra.running);
	/* the root cgroup holds every task: it counted at least as much */
	EXPECT_LE(ra.value, rr.value + 1000000);
	close(fa);
	close(fr);
}

TEST_HARNESS_MAIN
