// SPDX-License-Identifier: GPL-2.0
/*
 * Events opened the way perf stat and perf record open them: on a forked
 * workload that waits for a go signal, disabled, with enable_on_exec and
 * inherit.  Whatever the workload's own children do after its exec must
 * reach the events the tool holds: their counts, and their side-band
 * records (FORK, COMM with COMM_EXEC, MMAP2, EXIT) in the tool's ring.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"
#include "perf_records.h"

#define WORKLOAD_ENV	"PERF_SELFTEST_WORKLOAD"
#define CHILD_PAGES	2000

static const char *self_exe = "/proc/self/exe";

static void exec_self(const char *mode)
{
	static char env[64];
	static char *const envp[] = { env, NULL };
	static char *const argv[] = { "workload", NULL };

	snprintf(env, sizeof(env), "%s=%s", WORKLOAD_ENV, mode);
	execve(self_exe, argv, envp);
	_exit(127);
}

/* Fork a child that runs @fn, wait for it; the exit status of the wait. */
static int run_child(void (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		fn();
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static void touch_child_pages(void)
{
	touch_pages(CHILD_PAGES);
}

static void exec_leaf(void)
{
	exec_self("leaf");
}

/*
 * The exec'd workloads: "fork-touch" runs a child that faults in
 * CHILD_PAGES pages, "fork-exec" a child that execs "leaf", which exits.
 */
__attribute__((constructor)) static void workload(void)
{
	const char *mode = getenv(WORKLOAD_ENV);

	if (!mode)
		return;
	if (!strcmp(mode, "fork-touch"))
		_exit(run_child(touch_child_pages));
	if (!strcmp(mode, "fork-exec"))
		_exit(run_child(exec_leaf));
	_exit(0);
}

/* Fork a workload held until release_child(), then exec'ing @mode. */
static pid_t held_workload(int *go, const char *mode)
{
	pid_t pid = fork_held(go);

	if (pid == 0)
		exec_self(mode);
	return pid;
}

/* A software event with the flags perf stat and perf record set. */
static void tool_attr(struct perf_event_attr *attr, __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_SOFTWARE;
	attr->size = sizeof(*attr);
	attr->config = config;
	attr->exclude_guest = 1;
	attr->disabled = 1;
	attr->enable_on_exec = 1;
	attr->inherit = 1;
}

static int open_tool_event(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	int fd = sys_perf_event_open(attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static void kill_workload(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* perf stat -e page-faults -- <workload that forks>: the child counts. */
TEST(stat_counts_the_workloads_children)
{
	struct perf_event_attr attr;
	uint64_t v[3];
	int go, fd, status;
	pid_t pid;

	pid = held_workload(&go, "fork-touch");
	ASSERT_LT(0, pid);
	tool_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.sample_type = PERF_SAMPLE_IDENTIFIER;
	fd = open_tool_event(&attr, pid, -1);
	if (fd == -EACCES) {
		kill_workload(pid);
		SKIP(return, "perf_event_open not permitted");
	}
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, release_child(go));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(sizeof(v), read(fd, v, sizeof(v)));
	/* the grandchild's faults, on top of the workload's own */
	EXPECT_LE(CHILD_PAGES, v[0]);
	EXPECT_LT(0, v[1]);
	EXPECT_EQ(v[1], v[2]);
	close(fd);
}

/*
 * An inherited event enabled by ioctl, after being opened disabled, is
 * enabled in the children forked afterwards.
 */
TEST(enabled_by_ioctl_reaches_new_children)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.exclude_kernel = 0;
	attr.disabled = 1;
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, run_child(touch_child_pages));
	EXPECT_LE(CHILD_PAGES, read_count(fd));
	close(fd);
}

/* What the ring of the tool's tracking event said about one task. */
struct task_records {
	int fork, comm_exec, mmap2, exit;
};

/*
 * Count the records about the workload's child: every task in them that
 * is not the workload itself (@workload) is that child.
 */
static void scan_records(struct perf_map *m, uint32_t workload,
			 struct task_records *seen)
{
	char buf[4096];
	struct perf_event_header *h;

	while ((h = perf_map_next(m, buf, sizeof(buf)))) {
		/* FORK and EXIT: pid, ppid, ...; COMM and MMAP2: pid, tid */
		const uint32_t *p = (const uint32_t *)(h + 1);

		if (p[0] == workload)
			continue;
		switch (h->type) {
		case PERF_RECORD_FORK:
			seen->fork += p[1] == workload;
			break;
		case PERF_RECORD_COMM:
			seen->comm_exec +=
				!!(h->misc & PERF_RECORD_MISC_COMM_EXEC);
			break;
		case PERF_RECORD_MMAP2:
			seen->mmap2++;
			break;
		case PERF_RECORD_EXIT:
			seen->exit++;
			break;
		}
	}
}

/*
 * perf record's tracking event (a dummy event with comm, comm_exec, mmap,
 * mmap2 and task, sample_id_all; one per CPU, since an inherited per-task
 * event cannot be mapped) on a workload that forks a child which execs:
 * the child's FORK, COMM (exec), MMAP2 and EXIT records land in the rings
 * of the events the tool opened.
 */
#define MAX_CPUS	64

TEST(record_tracks_the_workloads_children)
{
	struct perf_event_attr attr;
	struct task_records seen = { 0 };
	struct perf_map m[MAX_CPUS];
	int fd[MAX_CPUS], go, status, cpu, ncpus;
	pid_t pid;

	ncpus = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpus > MAX_CPUS)
		ncpus = MAX_CPUS;
	pid = held_workload(&go, "fork-exec");
	ASSERT_LT(0, pid);
	tool_attr(&attr, PERF_COUNT_SW_DUMMY);
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_IDENTIFIER;
	attr.comm = 1;
	attr.comm_exec = 1;
	attr.mmap = 1;
	attr.mmap2 = 1;
	attr.task = 1;
	attr.sample_id_all = 1;
	for (cpu = 0; cpu < ncpus; cpu++) {
		fd[cpu] = open_tool_event(&attr, pid, cpu);
		if (fd[cpu] == -EACCES) {
			kill_workload(pid);
			SKIP(return, "perf_event_open not permitted");
		}
		if (fd[cpu] == -ENODEV) {
			m[cpu].page = NULL;	/* an offline CPU */
			continue;
		}
		ASSERT_LE(0, fd[cpu]);
		ASSERT_EQ(0, perf_map_open(&m[cpu], fd[cpu], 16,
					   PROT_READ | PROT_WRITE));
	}
	ASSERT_EQ(0, release_child(go));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	for (cpu = 0; cpu < ncpus; cpu++) {
		if (!m[cpu].page)
			continue;
		scan_records(&m[cpu], pid, &seen);
		perf_map_close(&m[cpu]);
		close(fd[cpu]);
	}
	EXPECT_EQ(1, seen.fork);
	EXPECT_EQ(1, seen.comm_exec);
	EXPECT_LE(1, seen.mmap2);
	EXPECT_EQ(1, seen.exit);
}

TEST_HARNESS_MAIN
