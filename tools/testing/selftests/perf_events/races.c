// SPDX-License-Identifier: GPL-2.0
/*
 * Race stress for the classic windows of the perf_event core, one test per
 * window, each repeating its race for a bounded time (a few seconds, also
 * on a slow emulated guest) with the two sides lined up by shared spin
 * flags and moved against each other by a varying delay:
 *
 *  - close of an event fd racing the exit of the task it monitors;
 *  - ENABLE/DISABLE of a task's events racing its execve();
 *  - PERF_EVENT_IOC_SET_OUTPUT racing munmap() of the target's ring;
 *  - close of a group leader racing reads of its siblings and of itself;
 *  - close of a group leader racing group ENABLE/DISABLE/RESET ioctls on
 *    a sibling;
 *  - fork() of children inheriting events racing the close of the events;
 *  - fork() of a grandchild copying a child's inherited events racing the
 *    close of their parents;
 *  - CPU 1 going offline and online under a per-CPU event and a task event
 *    bound to it, both being read, and opens on CPU 1 meanwhile;
 *  - overflows of sampling events racing PERF_EVENT_IOC_PERIOD, _REFRESH
 *    and _RESET from another thread;
 *  - the open of a group member (whose PMU validates the group in its
 *    event_init) racing the close of other members and of the leader;
 *  - the open of a software group member racing a hardware member that
 *    takes the group to its PMU's context;
 *  - mmap() of an executable file racing the unregister of its uprobes.
 *
 * Only what does not depend on the interleaving is asserted: the calls
 * succeed (or fail with the errno stock gives), reads have their full size,
 * counts are sane, ring records are well formed, children exit cleanly and
 * nothing is left behind.  What the kernel log says (lockdep, KASAN) is the
 * other half of the verdict.  Software events and uprobes, and hardware
 * group members where a PMU exists: runs without one.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"
#include "perf_records.h"

#define NS_PER_MS	1000000ULL
/* how long one test repeats its race, and its cap on rounds */
#define RACE_NS		(2500 * NS_PER_MS)
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"
/* in the environment of an exec'd copy of this program: exit at once */
#define EXIT_AT_ONCE	"PERF_RACES_EXIT_AT_ONCE"

/*
 * The exec side of enable_disable_vs_exec runs this program again with
 * EXIT_AT_ONCE set: leave before the harness starts.
 */
__attribute__((constructor)) static void exit_if_asked(void)
{
	if (getenv(EXIT_AT_ONCE))
		_exit(0);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static unsigned long long ms_since(uint64_t start)
{
	return (now_ns() - start) / NS_PER_MS;
}

/* Whether a race begun at @start has run long enough, or @max rounds. */
static bool race_over(uint64_t start, int round, int max)
{
	return round >= max || now_ns() - start >= RACE_NS;
}

/* Busy-wait @loops iterations: the delay that slides one side of a race. */
static void spin(unsigned int loops)
{
	for (unsigned int i = 0; i < loops; i++)
		__asm__ __volatile__("" : : : "memory");
}

/* A delay of 0 to 2047 loops that varies from round to round. */
static unsigned int jitter(unsigned int round)
{
	return (round * 2654435761u >> 16) % 2048;
}

static int flag_get(int *flag)
{
	return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}

static void flag_set(int *flag, int val)
{
	__atomic_store_n(flag, val, __ATOMIC_RELEASE);
}

/* Wait until *@flag is @val, yielding the CPU to the other side. */
static void flag_wait(int *flag, int val)
{
	while (flag_get(flag) != val)
		sched_yield();
}

/* A zeroed page shared with the children forked after it. */
static int *shared_flags(void)
{
	void *p = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * The first thing a helper thread found wrong: the line of the check, the
 * value it looked at and errno then.  The test asserts that it is empty.
 */
struct race_err {
	int line;
	long val;
	int err;
};

static void race_check(struct race_err *e, bool ok, long val, int line)
{
	if (ok || e->line)
		return;
	e->err = errno;
	e->val = val;
	e->line = line;
}

#define RACE_CHECK(e, cond, v)	race_check(e, cond, (long)(v), __LINE__)

/* What went wrong, for TH_LOG() */
static const char *race_err_str(const struct race_err *e)
{
	static char buf[96];

	snprintf(buf, sizeof(buf), "check at line %d failed: value %ld, %s",
		 e->line, e->val, strerror(e->err));
	return buf;
}

/* A software event; @pid/@cpu/@group as for perf_event_open; fd or -errno. */
static int open_ev(__u64 config, pid_t pid, int cpu, int group, int inherit,
		   __u64 read_format)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, config);
	attr.inherit = inherit;
	attr.read_format = read_format;
	fd = sys_perf_event_open(&attr, pid, cpu, group, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* A sampling event on the calling thread: @period, or @freq per second. */
static int open_sampling(__u64 config, __u64 period, int freq)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, config);
	attr.freq = freq;
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_PERIOD;
	attr.wakeup_events = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* PERF_FORMAT_GROUP | PERF_FORMAT_ID: nr, then {value, id} per member. */
struct group_read {
	uint64_t nr;
	struct {
		uint64_t value, id;
	} v[4];
};

static uint64_t event_id(int fd)
{
	uint64_t id = 0;

	if (ioctl(fd, PERF_EVENT_IOC_ID, &id))
		return 0;
	return id;
}

/*
 * 1. The monitored task exits while the owner of its events reads and
 * closes them: the child is released and the parent closes after a delay
 * that moves, so that the close lands before, during and after the exit.
 */
TEST(close_vs_owner_exit)
{
	const __u64 fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	int *go = shared_flags();
	uint64_t start = now_ns();
	struct group_read g;
	int round, fd[3], i, status;
	ssize_t n;
	pid_t pid;

	ASSERT_NE(NULL, go);
	for (round = 0; !race_over(start, round, 3000); round++) {
		flag_set(go, 0);
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			flag_wait(go, 1);
			spin(jitter(round));
			_exit(0);
		}
		fd[0] = open_ev(PERF_COUNT_SW_TASK_CLOCK, pid, -1, -1, 0, fmt);
		if (fd[0] == -EACCES) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			SKIP(return, "perf_event_open not permitted");
		}
		ASSERT_LE(0, fd[0]) TH_LOG("%s", strerror(-fd[0]));
		fd[1] = open_ev(PERF_COUNT_SW_CONTEXT_SWITCHES, pid, -1, fd[0],
				0, fmt);
		ASSERT_LE(0, fd[1]) TH_LOG("%s", strerror(-fd[1]));
		fd[2] = open_ev(PERF_COUNT_SW_PAGE_FAULTS, pid, -1, -1, 1, 0);
		ASSERT_LE(0, fd[2]) TH_LOG("%s", strerror(-fd[2]));

		flag_set(go, 1);
		spin(jitter(round * 7 + 3));
		if (round % 3 == 0) {
			n = read(fd[0], &g, sizeof(g));
			ASSERT_EQ(8 * (1 + 2 * 2), n);
			ASSERT_EQ(2, g.nr);
			ASSERT_EQ(8, read(fd[2], &g, sizeof(g)));
		}
		/* leader first or last, the inherited event in between */
		for (i = 0; i < 3; i++)
			ASSERT_EQ(0, close(fd[round & 1 ? i : 2 - i]));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		ASSERT_EQ(0, WEXITSTATUS(status));
	}
	TH_LOG("%d rounds in %llu ms", round, ms_since(start));
	munmap(go, sysconf(_SC_PAGESIZE));
}

/*
 * 2. A child execs this program again (which exits at once) while the
 * parent enables and disables its events, two of them enable_on_exec: every
 * ioctl succeeds, whatever the task is doing, and the counts stay within
 * what the child can have spent.
 */
TEST(enable_disable_vs_exec)
{
	char *const argv[] = { "races", NULL };
	char *const envp[] = { EXIT_AT_ONCE "=1", NULL };
	struct perf_event_attr attr;
	int *go = shared_flags();
	uint64_t start = now_ns(), t0, t1;
	int round, fd[3], i, status;
	int64_t c[3];
	pid_t pid;

	ASSERT_NE(NULL, go);
	if (access("/proc/self/exe", X_OK))
		SKIP(return, "no /proc/self/exe");
	for (round = 0; !race_over(start, round, 500); round++) {
		flag_set(go, 0);
		t0 = now_ns();
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			flag_wait(go, 1);
			spin(jitter(round));
			execve("/proc/self/exe", argv, envp);
			_exit(2);
		}
		/* enabled now; and two that wait for the exec */
		fd[0] = open_ev(PERF_COUNT_SW_TASK_CLOCK, pid, -1, -1, 0, 0);
		if (fd[0] == -EACCES) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			SKIP(return, "perf_event_open not permitted");
		}
		ASSERT_LE(0, fd[0]) TH_LOG("%s", strerror(-fd[0]));
		sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
		attr.disabled = 1;
		attr.enable_on_exec = 1;
		fd[1] = sys_perf_event_open(&attr, pid, -1, -1,
					    PERF_FLAG_FD_CLOEXEC);
		ASSERT_LE(0, fd[1]);
		attr.config = PERF_COUNT_SW_PAGE_FAULTS;
		fd[2] = sys_perf_event_open(&attr, pid, -1, -1,
					    PERF_FLAG_FD_CLOEXEC);
		ASSERT_LE(0, fd[2]);

		flag_set(go, 1);
		/* fd[2] is left to enable_on_exec */
		for (i = 0; waitpid(pid, &status, WNOHANG) == 0; i++) {
			int on = fd[!(i & 1)], off = fd[i & 1];

			ASSERT_EQ(0, ioctl(off, PERF_EVENT_IOC_DISABLE, 0));
			ASSERT_EQ(0, ioctl(on, PERF_EVENT_IOC_ENABLE, 0));
			if (i % 4 == 3)
				ASSERT_FALSE(ioctl(on, PERF_EVENT_IOC_RESET, 0));
		}
		t1 = now_ns();
		ASSERT_TRUE(WIFEXITED(status));
		ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("exec failed");
		for (i = 0; i < 3; i++) {
			c[i] = read_count(fd[i]);
			ASSERT_LE(0, c[i]);
			/* a clock of one task: no more than the wall time */
			if (i < 2)
				ASSERT_GE((t1 - t0) * 11 / 10 + 2 * NS_PER_MS,
					  (uint64_t)c[i]);
			ASSERT_EQ(0, close(fd[i]));
		}
		/* the new image faulted in at least one page of its own */
		ASSERT_LT(0, c[2]);
	}
	TH_LOG("%d rounds in %llu ms", round, ms_since(start));
	munmap(go, sysconf(_SC_PAGESIZE));
}

/* 3. SET_OUTPUT onto an event whose ring another thread maps and unmaps */
struct output_race {
	int target;
	int stop;
	long maps;
	struct race_err err;
};

static void *map_unmap_loop(void *arg)
{
	struct output_race *r = arg;
	size_t len = 3 * sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;

	while (!flag_get(&r->stop)) {
		pg = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
			  r->target, 0);
		RACE_CHECK(&r->err, pg != MAP_FAILED, r->maps);
		if (pg == MAP_FAILED)
			break;
		/* the header describes this ring, whoever writes to it */
		RACE_CHECK(&r->err, pg->data_size == len / 3 * 2,
			   pg->data_size);
		/* mapped for a while: unmapping takes a grace period */
		usleep(20 + jitter(r->maps) / 4);
		RACE_CHECK(&r->err, munmap(pg, len) == 0, r->maps);
		r->maps++;
	}
	return NULL;
}

TEST(set_output_vs_munmap)
{
	size_t len = 3 * sysconf(_SC_PAGESIZE);
	struct output_race r = { 0 };
	uint64_t start = now_ns();
	long redirects = 0, tries;
	pthread_t thread;
	void *ring;
	int src;

	r.target = open_sampling(PERF_COUNT_SW_TASK_CLOCK, 100000, 0);
	if (r.target == -EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, r.target) TH_LOG("%s", strerror(-r.target));
	src = open_sampling(PERF_COUNT_SW_TASK_CLOCK, 50000, 0);
	ASSERT_LE(0, src);

	ASSERT_EQ(0, pthread_create(&thread, NULL, map_unmap_loop, &r));
	for (tries = 0; !race_over(start, 0, 1); tries++) {
		/* a target without a ring (unmapped just now) is EINVAL */
		if (ioctl(src, PERF_EVENT_IOC_SET_OUTPUT, r.target)) {
			ASSERT_EQ(EINVAL, errno);
			continue;
		}
		redirects++;
		/* samples of src go to whatever ring the target has now */
		spin(jitter(tries));
		ASSERT_EQ(0, ioctl(src, PERF_EVENT_IOC_SET_OUTPUT, -1L));
	}
	flag_set(&r.stop, 1);
	ASSERT_EQ(0, pthread_join(thread, NULL));
	ASSERT_EQ(0, r.err.line) TH_LOG("%s", race_err_str(&r.err));
	ASSERT_LT(0, r.maps);
	TH_LOG("%ld redirects in %ld tries, %ld maps, %llu ms", redirects,
	       tries, r.maps, ms_since(start));

	/* both still count, and redirect as usual once the race is over */
	ASSERT_LT(0, read_count(src));
	ASSERT_LT(0, read_count(r.target));
	ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, r.target,
		    0);
	ASSERT_NE(MAP_FAILED, ring);
	ASSERT_EQ(0, ioctl(src, PERF_EVENT_IOC_SET_OUTPUT, r.target));
	ASSERT_EQ(0, munmap(ring, len));
	ASSERT_EQ(0, close(r.target));
	ASSERT_EQ(0, close(src));
}

/*
 * 4. The leader of a group is closed while another thread reads it (with
 * PERF_FORMAT_GROUP) and reads its siblings: the leader reads its whole
 * group until its fd is gone (EBADF after), a sibling reads the group or,
 * once the leader is released, itself alone; its count never goes back.
 */
struct leader_race {
	int leader, sib, plain;
	uint64_t sib_id;
	int stop;
	long reads;
	struct race_err err;
};

static void *group_reader(void *arg)
{
	struct leader_race *r = arg;
	uint64_t last = 0, val;
	struct group_read g;
	uint64_t plain[2];
	ssize_t n;
	int i;

	while (!flag_get(&r->stop)) {
		n = read(r->sib, &g, sizeof(g));
		RACE_CHECK(&r->err, n > 0, n);
		if (n <= 0)
			break;
		RACE_CHECK(&r->err, g.nr == 3 || g.nr == 1, g.nr);
		RACE_CHECK(&r->err, n == (ssize_t)(8 * (1 + 2 * g.nr)), n);
		val = UINT64_MAX;
		for (i = 0; i < (int)g.nr && i < 4; i++)
			if (g.v[i].id == r->sib_id)
				val = g.v[i].value;
		RACE_CHECK(&r->err, val != UINT64_MAX, g.nr);
		RACE_CHECK(&r->err, val >= last, val - last);
		last = val;

		n = read(r->plain, plain, sizeof(plain));
		RACE_CHECK(&r->err, n == sizeof(plain), n);

		n = read(r->leader, &g, sizeof(g));
		RACE_CHECK(&r->err, n == 8 * (1 + 2 * 3) ||
			   (n < 0 && errno == EBADF), n);
		RACE_CHECK(&r->err, n < 0 || g.nr == 3, g.nr);
		__atomic_add_fetch(&r->reads, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

TEST(leader_close_vs_sibling_read)
{
	const __u64 fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	uint64_t start = now_ns();
	struct leader_race r;
	struct group_read g;
	pthread_t thread;
	long seen;
	int round;

	for (round = 0; !race_over(start, round, 2000); round++) {
		memset(&r, 0, sizeof(r));
		r.leader = open_ev(PERF_COUNT_SW_TASK_CLOCK, 0, -1, -1, 0, fmt);
		if (r.leader == -EACCES)
			SKIP(return, "perf_event_open not permitted");
		ASSERT_LE(0, r.leader) TH_LOG("%s", strerror(-r.leader));
		r.sib = open_ev(PERF_COUNT_SW_TASK_CLOCK, 0, -1, r.leader, 0,
				fmt);
		ASSERT_LE(0, r.sib);
		r.plain = open_ev(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, r.leader,
				  0, PERF_FORMAT_ID);
		ASSERT_LE(0, r.plain);
		r.sib_id = event_id(r.sib);
		ASSERT_NE(0, r.sib_id);

		ASSERT_EQ(0, pthread_create(&thread, NULL, group_reader, &r));
		spin(jitter(round));
		ASSERT_EQ(0, close(r.leader));
		/*
		 * Let the reader go round twice more with the leader gone; no
		 * fd is opened meanwhile, so its number stays free.
		 */
		seen = __atomic_load_n(&r.reads, __ATOMIC_ACQUIRE);
		while (__atomic_load_n(&r.reads, __ATOMIC_ACQUIRE) < seen + 2 &&
		       !r.err.line)
			sched_yield();
		flag_set(&r.stop, 1);
		ASSERT_EQ(0, pthread_join(thread, NULL));
		ASSERT_EQ(0, r.err.line) TH_LOG("%s", race_err_str(&r.err));

		/* the leader released: the sibling is a group of its own */
		ASSERT_EQ(8 * (1 + 2), read(r.sib, &g, sizeof(g)));
		ASSERT_EQ(1, g.nr);
		ASSERT_EQ(r.sib_id, g.v[0].id);
		ASSERT_EQ(0, close(r.sib));
		ASSERT_EQ(0, close(r.plain));
	}
	TH_LOG("%d rounds in %llu ms", round, ms_since(start));
}

/*
 * 4b. ENABLE, DISABLE and RESET with PERF_IOC_FLAG_GROUP on a sibling
 * racing the close of its leader: the ioctl walks the group (and the
 * clones of each member) while the leader's release takes it apart.  Every
 * ioctl succeeds; once the leader is gone the sibling is a group of its
 * own and still answers.  On a kernel that used the leader after dropping
 * the context's lock, KASAN reports a use-after-free here.
 */
struct group_ioctl_race {
	int sib;
	int stop;
	long calls;
	struct race_err err;
};

static void *group_ioctler(void *arg)
{
	static const unsigned long cmds[] = {
		PERF_EVENT_IOC_DISABLE, PERF_EVENT_IOC_ENABLE,
		PERF_EVENT_IOC_RESET,
	};
	struct group_ioctl_race *r = arg;
	unsigned int i = 0;
	int ret;

	while (!flag_get(&r->stop)) {
		ret = ioctl(r->sib, cmds[i++ % 3], PERF_IOC_FLAG_GROUP);
		RACE_CHECK(&r->err, ret == 0, ret);
		__atomic_add_fetch(&r->calls, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

TEST(leader_close_vs_group_ioctl)
{
	uint64_t start = now_ns();
	struct group_ioctl_race r;
	pthread_t thread;
	int leader, other, round;
	long seen;

	for (round = 0; !race_over(start, round, 2000); round++) {
		memset(&r, 0, sizeof(r));
		/* inherited, so that the walk reaches clones in a child too */
		leader = open_ev(PERF_COUNT_SW_TASK_CLOCK, 0, -1, -1, 1, 0);
		if (leader == -EACCES)
			SKIP(return, "perf_event_open not permitted");
		ASSERT_LE(0, leader) TH_LOG("%s", strerror(-leader));
		r.sib = open_ev(PERF_COUNT_SW_CPU_CLOCK, 0, -1, leader, 1, 0);
		ASSERT_LE(0, r.sib);
		other = open_ev(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, leader, 1, 0);
		ASSERT_LE(0, other);

		ASSERT_EQ(0, pthread_create(&thread, NULL, group_ioctler, &r));
		spin(jitter(round));
		ASSERT_EQ(0, close(leader));
		spin(jitter(round + 1));
		ASSERT_EQ(0, close(other));
		seen = __atomic_load_n(&r.calls, __ATOMIC_ACQUIRE);
		while (__atomic_load_n(&r.calls, __ATOMIC_ACQUIRE) < seen + 2 &&
		       !r.err.line)
			sched_yield();
		flag_set(&r.stop, 1);
		ASSERT_EQ(0, pthread_join(thread, NULL));
		ASSERT_EQ(0, r.err.line) TH_LOG("%s", race_err_str(&r.err));

		/* alone now: the group flag acts on the sibling itself */
		ASSERT_EQ(0, ioctl(r.sib, PERF_EVENT_IOC_ENABLE,
				   PERF_IOC_FLAG_GROUP));
		ASSERT_LE(0, read_count(r.sib));
		ASSERT_EQ(0, close(r.sib));
	}
	TH_LOG("%d rounds in %llu ms", round, ms_since(start));
}

/*
 * 5. The parent forks children, and starts a thread, that inherit its
 * events while another thread closes those events, a group's leader
 * first: every fork and close succeeds and every child exits cleanly.
 * (A fork clones a group's members after its leader: a close of the
 * leader's parent in between must not leave members joined to a leader
 * that is gone.)
 */
#define INHERIT_MEMBERS		6
#define INHERIT_FDS		(INHERIT_MEMBERS + 2)

struct inherit_race {
	int fd[INHERIT_FDS];
	int go;
	int delay;
	struct race_err err;
};

static void *event_closer(void *arg)
{
	struct inherit_race *r = arg;
	int i;

	flag_wait(&r->go, 1);
	spin(r->delay);
	for (i = 0; i < INHERIT_FDS; i++)
		RACE_CHECK(&r->err, close(r->fd[i]) == 0, i);
	return NULL;
}

static void *short_thread(void *arg)
{
	touch_pages(2);
	return NULL;
}

#define INHERIT_CHILDREN	4

/* An inherited instructions counter in @group; fd or -errno. */
static int open_hw_member(int group)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, PERF_COUNT_HW_INSTRUCTIONS);
	attr.type = PERF_TYPE_HARDWARE;
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

TEST(inherit_vs_close)
{
	uint64_t start = now_ns();
	struct inherit_race r;
	pthread_t closer, thread;
	pid_t pid[INHERIT_CHILDREN];
	int round, i, j, status;

	for (round = 0; !race_over(start, round, 1000); round++) {
		memset(&r, 0, sizeof(r));
		r.fd[0] = open_ev(PERF_COUNT_SW_TASK_CLOCK, 0, -1, -1, 1, 0);
		if (r.fd[0] == -EACCES)
			SKIP(return, "perf_event_open not permitted");
		ASSERT_LE(0, r.fd[0]) TH_LOG("%s", strerror(-r.fd[0]));
		for (j = 1; j <= INHERIT_MEMBERS; j++) {
			/*
			 * Two hardware members where a PMU exists: their
			 * clones' PMU walks the leader's clone's siblings
			 * while the closer's releases unlink them.
			 */
			r.fd[j] = -1;
			if (j == 2 || j == 4)
				r.fd[j] = open_hw_member(r.fd[0]);
			if (r.fd[j] < 0)
				r.fd[j] = open_ev(PERF_COUNT_SW_PAGE_FAULTS, 0,
						  -1, r.fd[0], 1, 0);
			ASSERT_LE(0, r.fd[j]);
		}
		r.fd[j] = open_ev(PERF_COUNT_SW_CONTEXT_SWITCHES, 0, -1, -1, 1,
				  0);
		ASSERT_LE(0, r.fd[j]);
		r.delay = jitter(round) * 8;

		ASSERT_EQ(0, pthread_create(&closer, NULL, event_closer, &r));
		flag_set(&r.go, 1);
		for (i = 0; i < INHERIT_CHILDREN; i++) {
			pid[i] = fork();
			ASSERT_LE(0, pid[i]);
			if (pid[i] == 0) {
				/* half drop their copies before they run */
				if ((round + i) & 1)
					for (j = 0; j < INHERIT_FDS; j++)
						close(r.fd[j]);
				touch_pages(1 + i);
				_exit(0);
			}
			if (i == 1) {
				ASSERT_EQ(0, pthread_create(&thread, NULL,
							    short_thread,
							    NULL));
				ASSERT_EQ(0, pthread_join(thread, NULL));
			}
		}
		for (i = 0; i < INHERIT_CHILDREN; i++) {
			ASSERT_EQ(pid[i], waitpid(pid[i], &status, 0));
			ASSERT_TRUE(WIFEXITED(status));
			ASSERT_EQ(0, WEXITSTATUS(status));
		}
		ASSERT_EQ(0, pthread_join(closer, NULL));
		ASSERT_EQ(0, r.err.line) TH_LOG("%s", race_err_str(&r.err));
	}
	/* no child left behind */
	ASSERT_EQ(-1, waitpid(-1, NULL, WNOHANG));
	ASSERT_EQ(ECHILD, errno);
	TH_LOG("%d rounds in %llu ms", round, ms_since(start));
}

/*
 * 5b. A child, which inherited many events and dropped its copies of their
 * fds, forks a grandchild while the parent closes the events from the last
 * to the first: the fork copies the child's clones one after the other,
 * and the close of each one's parent takes the clone out of the child and
 * frees it meanwhile.  The fork must hold what it copies: every fork and
 * close succeeds and every child and grandchild exits cleanly.
 */
#define NESTED_EVENTS		128

TEST(inherit_nested_vs_close)
{
	uint64_t start = now_ns();
	int *ready = shared_flags();
	int fd[NESTED_EVENTS];
	int round, i, status;
	pid_t pid;

	ASSERT_NE(NULL, ready);
	for (round = 0; !race_over(start, round, 200); round++) {
		flag_set(ready, 0);
		for (i = 0; i < NESTED_EVENTS; i++) {
			fd[i] = open_ev(PERF_COUNT_SW_CONTEXT_SWITCHES, 0, -1,
					-1, 1, 0);
			if (fd[i] == -EACCES)
				SKIP(return, "perf_event_open not permitted");
			ASSERT_LE(0, fd[i]) TH_LOG("%s", strerror(-fd[i]));
		}
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			pid_t grandchild;

			for (i = 0; i < NESTED_EVENTS; i++)
				close(fd[i]);
			flag_set(ready, 1);
			grandchild = fork();
			if (grandchild < 0)
				_exit(1);
			if (grandchild == 0)
				_exit(0);
			if (waitpid(grandchild, &status, 0) != grandchild)
				_exit(2);
			_exit(WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 3);
		}
		flag_wait(ready, 1);
		spin(jitter(round));
		for (i = NESTED_EVENTS - 1; i >= 0; i--)
			ASSERT_EQ(0, close(fd[i]));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		ASSERT_EQ(0, WEXITSTATUS(status));
	}
	ASSERT_EQ(-1, waitpid(-1, NULL, WNOHANG));
	ASSERT_EQ(ECHILD, errno);
	munmap(ready, sysconf(_SC_PAGESIZE));
	TH_LOG("%d rounds in %llu ms", round, ms_since(start));
}

/*
 * 6. CPU 1 goes offline and online again under a per-CPU event on it and a
 * task event bound to it (of a child pinned there), while another thread
 * reads both and opens events on CPU 1: reads keep their size and their
 * counts never go back; opens succeed or fail with ENODEV.
 */
struct hotplug_race {
	int cpu_fd, task_fd;
	int stop;
	long reads, opens, offline_opens;
	struct race_err err;
};

static void *hotplug_reader(void *arg)
{
	struct hotplug_race *r = arg;
	int64_t cpu_last = 0, task_last = 0, v;
	int fd;

	while (!flag_get(&r->stop)) {
		v = read_count(r->cpu_fd);
		RACE_CHECK(&r->err, v >= cpu_last, v);
		cpu_last = v;
		v = read_count(r->task_fd);
		RACE_CHECK(&r->err, v >= task_last, v);
		task_last = v;
		r->reads++;

		fd = open_ev(PERF_COUNT_SW_CPU_CLOCK, -1, 1, -1, 0, 0);
		RACE_CHECK(&r->err, fd >= 0 || fd == -ENODEV, fd);
		if (fd >= 0) {
			RACE_CHECK(&r->err, read_count(fd) >= 0, fd);
			close(fd);
			r->opens++;
		} else {
			r->offline_opens++;
		}
	}
	return NULL;
}

static int set_cpu1(int on)
{
	return write_int_file(CPU1_ONLINE, on);
}

static int pin_cpu1(pid_t pid)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(1, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

FIXTURE(hotplug) {
	pid_t child;
};

FIXTURE_SETUP(hotplug)
{
	long on;

	self->child = -1;
	if (getuid() != 0)
		SKIP(return, "needs root to take CPU 1 offline");
	if (read_int_file(CPU1_ONLINE, &on) || on != 1)
		SKIP(return, "no CPU 1 that can go offline");
	if (set_cpu1(0))
		SKIP(return, "CPU 1 cannot go offline");
	ASSERT_EQ(0, set_cpu1(1));
}

FIXTURE_TEARDOWN(hotplug)
{
	if (self->child > 0) {
		kill(self->child, SIGKILL);
		waitpid(self->child, NULL, 0);
	}
	set_cpu1(1);
}

TEST_F(hotplug, cpu1_offline_online)
{
	uint64_t start = now_ns();
	struct hotplug_race r;
	struct perf_event_attr attr;
	pthread_t thread;
	long opens = 0, offline_opens = 0;
	int round;

	self->child = fork();
	ASSERT_LE(0, self->child);
	if (self->child == 0) {
		for (;;)
			spin(100000);
	}
	for (round = 0; !race_over(start, round, 50); round++) {
		memset(&r, 0, sizeof(r));
		ASSERT_EQ(0, pin_cpu1(self->child));
		sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
		attr.exclude_kernel = 0;
		r.cpu_fd = sys_perf_event_open(&attr, -1, 1, -1,
					       PERF_FLAG_FD_CLOEXEC);
		ASSERT_LE(0, r.cpu_fd) TH_LOG("%s", strerror(errno));
		r.task_fd = open_ev(PERF_COUNT_SW_TASK_CLOCK, self->child, 1,
				    -1, 0, 0);
		ASSERT_LE(0, r.task_fd) TH_LOG("%s", strerror(-r.task_fd));

		ASSERT_EQ(0, pthread_create(&thread, NULL, hotplug_reader, &r));
		usleep(jitter(round));
		ASSERT_EQ(0, set_cpu1(0));
		usleep(jitter(round + 1));
		ASSERT_EQ(0, set_cpu1(1));
		flag_set(&r.stop, 1);
		ASSERT_EQ(0, pthread_join(thread, NULL));
		ASSERT_EQ(0, r.err.line) TH_LOG("%s", race_err_str(&r.err));
		ASSERT_LT(0, r.reads);
		opens += r.opens;
		offline_opens += r.offline_opens;
		ASSERT_EQ(0, close(r.cpu_fd));
		ASSERT_EQ(0, close(r.task_fd));
	}
	TH_LOG("%d rounds, %ld opens, %ld ENODEV, %llu ms", round, opens,
	       offline_opens, ms_since(start));
}

/*
 * 7. Sampling events overflow (task-clock by time, page-faults on every
 * few faults, cpu-clock by frequency) while another thread changes their
 * period and frequency, refreshes their overflow limit and resets them:
 * the ioctls succeed and each ring holds only whole, well-formed records.
 */
struct period_race {
	int clock, faults, freq;
	long max_freq;
	int stop;
	long calls;
	struct race_err err;
};

static void *period_hammer(void *arg)
{
	struct period_race *r = arg;
	uint64_t v;
	long i;
	int ret;

	for (i = 0; !flag_get(&r->stop); i++) {
		v = 20000 + (i * 7919) % 200000;
		RACE_CHECK(&r->err,
			   !ioctl(r->clock, PERF_EVENT_IOC_PERIOD, &v), v);
		v = 1 + i % 4;
		RACE_CHECK(&r->err,
			   !ioctl(r->faults, PERF_EVENT_IOC_PERIOD, &v), v);
		v = 100 + (i * 131) % (r->max_freq - 100);
		RACE_CHECK(&r->err,
			   !ioctl(r->freq, PERF_EVENT_IOC_PERIOD, &v), v);
		RACE_CHECK(&r->err, !ioctl(r->clock, PERF_EVENT_IOC_REFRESH,
					   1 + i % 3), i);
		RACE_CHECK(&r->err, !ioctl(r->faults, PERF_EVENT_IOC_REFRESH,
					   1 + i % 3), i);
		if (i % 8 == 0) {
			ret = ioctl(r->freq, PERF_EVENT_IOC_RESET, 0);
			RACE_CHECK(&r->err, !ret, i);
		}
		if (i % 16 == 0) {
			ret = ioctl(r->freq, PERF_EVENT_IOC_ENABLE, 0);
			RACE_CHECK(&r->err, !ret, i);
		}
		spin(jitter(i) / 4);
		r->calls++;
	}
	return NULL;
}

/*
 * Walk the new records of @m: each is whole and of a kind a sampling event
 * writes; samples (IP, TID, PERIOD) are ours.  Returns the samples or -1.
 */
static long check_ring(struct perf_map *m)
{
	union {
		struct perf_event_header h;
		uint64_t w[64];
	} buf;
	struct perf_event_header *h;
	uint64_t head = perf_map_head(m);
	long samples = 0;

	while (m->tail < head) {
		h = perf_map_next(m, &buf, sizeof(buf));
		if (!h || h->size < sizeof(*h) || h->size % 8)
			return -1;
		switch (h->type) {
		case PERF_RECORD_SAMPLE:
			if (h->size != sizeof(*h) + 3 * 8 ||
			    (uint32_t)buf.w[2] != (uint32_t)getpid() ||
			    !buf.w[3])
				return -1;
			samples++;
			break;
		case PERF_RECORD_LOST:
		case PERF_RECORD_THROTTLE:
		case PERF_RECORD_UNTHROTTLE:
			break;
		default:
			return -1;
		}
	}
	perf_map_consume(m);
	return samples;
}

TEST(period_refresh_vs_overflow)
{
	struct period_race r = { 0 };
	struct perf_map map[3];
	uint64_t start = now_ns();
	long samples[3] = { 0 }, n;
	pthread_t thread;
	int i, fds[3];

	r.clock = open_sampling(PERF_COUNT_SW_TASK_CLOCK, 50000, 0);
	if (r.clock == -EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, r.clock) TH_LOG("%s", strerror(-r.clock));
	r.faults = open_sampling(PERF_COUNT_SW_PAGE_FAULTS, 2, 0);
	ASSERT_LE(0, r.faults);
	/* frequencies up to 5000 Hz, within perf_event_max_sample_rate */
	if (read_int_file("/proc/sys/kernel/perf_event_max_sample_rate",
			  &r.max_freq))
		r.max_freq = 5000;
	if (r.max_freq > 5000)
		r.max_freq = 5000;
	if (r.max_freq < 200)
		SKIP(return, "perf_event_max_sample_rate below 200");
	r.freq = open_sampling(PERF_COUNT_SW_CPU_CLOCK, 100, 1);
	ASSERT_LE(0, r.freq);
	fds[0] = r.clock;
	fds[1] = r.faults;
	fds[2] = r.freq;
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, perf_map_open(&map[i], fds[i], 4,
					   PROT_READ | PROT_WRITE));

	ASSERT_EQ(0, pthread_create(&thread, NULL, period_hammer, &r));
	while (!race_over(start, 0, 1)) {
		burn(2);
		touch_pages(8);
		for (i = 0; i < 3; i++) {
			n = check_ring(&map[i]);
			ASSERT_LE(0, n) TH_LOG("bad record in ring %d", i);
			samples[i] += n;
		}
	}
	flag_set(&r.stop, 1);
	ASSERT_EQ(0, pthread_join(thread, NULL));
	ASSERT_EQ(0, r.err.line) TH_LOG("%s", race_err_str(&r.err));
	ASSERT_LT(0, r.calls);
	for (i = 0; i < 3; i++) {
		n = check_ring(&map[i]);
		ASSERT_LE(0, n) TH_LOG("bad record in ring %d", i);
		samples[i] += n;
		ASSERT_LE(0, read_count(fds[i]));
		perf_map_close(&map[i]);
		ASSERT_EQ(0, close(fds[i]));
	}
	/* the hammer refreshes faster than the limits run out */
	ASSERT_LT(0, samples[0]);
	TH_LOG("%ld ioctl rounds; samples %ld %ld %ld; %llu ms", r.calls,
	       samples[0], samples[1], samples[2], ms_since(start));
}

/*
 * 9. One thread opens members into a group while another closes members
 * and, now and then, the leader.  A member's PMU may walk the group in
 * its event_init (a hardware PMU checks that the group fits its
 * counters): that runs under the leader's context mutex, so a member
 * freed meanwhile is never seen.  The leader is a software event and,
 * where a PMU exists, every other member a hardware one: the group moves
 * to the hardware PMU's context while members go (the class of
 * CVE-2016-6786, CVE-2016-6787, CVE-2017-6001 and CVE-2022-1729).
 */
#define MEMBER_SLOTS	8

struct member_race {
	int leader;
	int slot[MEMBER_SLOTS];
	int stop;
	long closes;
};

static void *member_closer(void *arg)
{
	struct member_race *r = arg;
	unsigned int i = 0;
	int fd;

	while (!flag_get(&r->stop)) {
		fd = __atomic_exchange_n(&r->slot[i++ % MEMBER_SLOTS], -1,
					 __ATOMIC_ACQ_REL);
		if (fd >= 0) {
			close(fd);
			r->closes++;
		}
		spin(jitter(i) / 4);
	}
	return NULL;
}

static int open_member(int group, bool hw)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	if (hw) {
		attr.type = PERF_TYPE_HARDWARE;
		attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	}
	fd = sys_perf_event_open(&attr, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

TEST(member_open_vs_close)
{
	uint64_t start = now_ns();
	struct member_race r;
	pthread_t thread;
	int round, fd, i, opened = 0;
	bool hw;

	memset(&r, 0, sizeof(r));
	for (i = 0; i < MEMBER_SLOTS; i++)
		r.slot[i] = -1;
	fd = open_member(-1, true);
	hw = fd >= 0;
	if (fd >= 0)
		close(fd);
	r.leader = open_member(-1, false);
	if (r.leader == -EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, r.leader);
	ASSERT_EQ(0, pthread_create(&thread, NULL, member_closer, &r));
	for (round = 0; !race_over(start, round, 20000); round++) {
		if (round % 64 == 63) {
			close(r.leader);
			r.leader = open_member(-1, false);
			ASSERT_LE(0, r.leader);
		}
		fd = open_member(r.leader, hw && (round & 1));
		/* ENOSPC: a hardware group past the counters */
		if (fd == -ENOSPC || fd == -EINVAL)
			continue;
		ASSERT_TRUE(fd >= 0 || fd == -ESRCH || fd == -EBADF)
			TH_LOG("open: %s", strerror(-fd));
		if (fd < 0)
			continue;
		opened++;
		fd = __atomic_exchange_n(&r.slot[round % MEMBER_SLOTS], fd,
					 __ATOMIC_ACQ_REL);
		if (fd >= 0)
			close(fd);
	}
	flag_set(&r.stop, 1);
	ASSERT_EQ(0, pthread_join(thread, NULL));
	for (i = 0; i < MEMBER_SLOTS; i++)
		if (r.slot[i] >= 0)
			close(r.slot[i]);
	close(r.leader);
	TH_LOG("%d rounds, %d members opened, %ld closed by the other thread",
	       round, opened, r.closes);
	TH_LOG("%s members, %llu ms", hw ? "hardware" : "software",
	       ms_since(start));
	ASSERT_LT(0, opened);
}

/*
 * 9b. Two members join a fresh software group at once: a hardware one,
 * which takes the group to its PMU's context, and a software one, which
 * takes a reference on whatever context the group has.  Both opens
 * succeed, every time; a member that took the group's old context
 * without a reference would free it under the other events (KASAN).  The
 * hardware member is an instructions counter, or on x86 without a PMU the
 * msr PMU's tsc.
 */
struct adopt_race {
	struct perf_event_attr attr;
	pthread_barrier_t go;
	int leader, fd, rounds;
	pid_t tid;		/* the main thread, whose context the group is in */
};

static void *adopt_opener(void *arg)
{
	struct adopt_race *r = arg;
	int i;

	for (i = 0; i < r->rounds; i++) {
		pthread_barrier_wait(&r->go);
		spin(jitter(i) / 8);
		r->fd = sys_perf_event_open(&r->attr, r->tid, -1, r->leader,
					    PERF_FLAG_FD_CLOEXEC);
		if (r->fd < 0)
			r->fd = -errno;
		pthread_barrier_wait(&r->go);
	}
	return NULL;
}

TEST(member_attach_vs_adopt)
{
	uint64_t start = now_ns();
	struct adopt_race r;
	pthread_t thread;
	int round, sw, fd;
	long type;

	memset(&r, 0, sizeof(r));
	sw_attr(&r.attr, 0);
	r.attr.type = PERF_TYPE_HARDWARE;
	r.attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	fd = sys_perf_event_open(&r.attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && !read_pmu_type("msr", &type)) {
		r.attr.type = type;
		r.attr.config = 0;	/* tsc */
		fd = sys_perf_event_open(&r.attr, 0, -1, -1,
					 PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
		SKIP(return, "no hardware-like PMU to open");
	close(fd);
	/* a software event elsewhere keeps the software PMU context in use */
	sw = open_ev(PERF_COUNT_SW_CONTEXT_SWITCHES, 0, -1, -1, 0, 0);
	ASSERT_LE(0, sw);
	r.rounds = 400;
	r.tid = gettid();
	ASSERT_EQ(0, pthread_barrier_init(&r.go, NULL, 2));
	r.leader = open_ev(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, -1, 0, 0);
	ASSERT_LE(0, r.leader);
	ASSERT_EQ(0, pthread_create(&thread, NULL, adopt_opener, &r));
	for (round = 0; round < r.rounds; round++) {
		pthread_barrier_wait(&r.go);
		spin(jitter(round + 7) / 8);
		fd = open_ev(PERF_COUNT_SW_CPU_MIGRATIONS, 0, -1, r.leader, 0,
			     0);
		pthread_barrier_wait(&r.go);
		EXPECT_LE(0, fd) TH_LOG("software member: %s", strerror(-fd));
		EXPECT_LE(0, r.fd) TH_LOG("hardware member: %s",
					  strerror(-r.fd));
		if (fd >= 0)
			close(fd);
		if (r.fd >= 0)
			close(r.fd);
		close(r.leader);
		r.leader = open_ev(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, -1, 0, 0);
		ASSERT_LE(0, r.leader);
	}
	ASSERT_EQ(0, pthread_join(thread, NULL));
	close(r.leader);
	close(sw);
	TH_LOG("%d rounds in %llu ms", round, ms_since(start));
}

/*
 * 10. A file is mapped executable (the kernel puts the breakpoints of the
 * file's uprobes into the new mapping) and unmapped over and over by one
 * thread, calling its code now and then, while the main thread opens and
 * closes uprobe events at a few offsets of that code (the close of the only
 * event at an offset unregisters its uprobe).  The main thread also calls
 * the code through a mapping of its own that stays: each of its events
 * counts exactly the calls made while it was enabled.  The other thread's
 * calls always return what the code returns, and its mappings read, at a
 * probed offset, either the instruction of the file or the breakpoint.
 */
#define UP_SYSFS_TYPE	"/sys/bus/event_source/devices/uprobe/type"
#define UP_PROBES	4	/* offsets probed, 16 bytes apart */
#define UP_NOPS		(UP_PROBES * 16)

#if defined(__x86_64__)
static const unsigned char up_nop[] = { 0x90 };
static const unsigned char up_ret42[] = {
	0xb8, 0x2a, 0x00, 0x00, 0x00,	/* mov $42, %eax */
	0xc3,				/* ret */
};

static const unsigned char up_swbp[] = { 0xcc };	/* int3 */
#elif defined(__aarch64__)
static const unsigned char up_nop[] = { 0x1f, 0x20, 0x03, 0xd5 };
static const unsigned char up_ret42[] = {
	0x40, 0x05, 0x80, 0x52,		/* mov w0, #42 */
	0xc0, 0x03, 0x5f, 0xd6,		/* ret */
};

static const unsigned char up_swbp[] = { 0xa0, 0x00, 0x20, 0xd4 }; /* brk #5 */
#else
#define UP_NO_CODE
static const unsigned char up_nop[1], up_ret42[1], up_swbp[1];
#endif

struct uprobe_race {
	int file;
	int stop;
	long maps, calls;
	struct race_err err;
};

typedef int (*up_code)(void);

/* One page: nops (the probed instructions), then "return 42". */
static int up_code_file(char *path, size_t len)
{
	size_t page = sysconf(_SC_PAGESIZE), at;
	unsigned char *buf = calloc(1, page);
	int fd = -1;

	if (!buf)
		return -1;
	for (at = 0; at < UP_NOPS; at += sizeof(up_nop))
		memcpy(buf + at, up_nop, sizeof(up_nop));
	memcpy(buf + at, up_ret42, sizeof(up_ret42));
	snprintf(path, len, "/tmp/races_uprobe.XXXXXX");
	fd = mkstemp(path);
	if (fd >= 0 && write(fd, buf, page) != (ssize_t)page) {
		close(fd);
		unlink(path);
		fd = -1;
	}
	free(buf);
	return fd;
}

static void *up_map_loop(void *arg)
{
	struct uprobe_race *r = arg;
	size_t page = sysconf(_SC_PAGESIZE);
	unsigned char *p;
	int i;

	while (!flag_get(&r->stop)) {
		p = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_PRIVATE,
			 r->file, 0);
		RACE_CHECK(&r->err, p != MAP_FAILED, r->maps);
		if (p == MAP_FAILED)
			break;
		for (i = 0; i < UP_PROBES; i++)
			RACE_CHECK(&r->err,
				   !memcmp(p + 16 * i, up_nop, sizeof(up_nop)) ||
				   !memcmp(p + 16 * i, up_swbp, sizeof(up_swbp)),
				   i);
		if (r->maps & 1) {
			RACE_CHECK(&r->err, ((up_code)p)() == 42, r->maps);
			r->calls++;
		}
		spin(jitter(r->maps) / 4);
		RACE_CHECK(&r->err, munmap(p, page) == 0, r->maps);
		r->maps++;
	}
	return NULL;
}

/* A uprobe event on the calling thread, enabled; the fd or -errno. */
static int up_open(long type, const char *path, uint64_t off)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.type = type;
	attr.size = sizeof(attr);
	attr.config1 = (uintptr_t)path;		/* uprobe_path */
	attr.config2 = off;			/* probe_offset */
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

TEST(uprobe_mmap_vs_unregister)
{
	size_t page = sysconf(_SC_PAGESIZE);
	struct uprobe_race r = { 0 };
	uint64_t start = now_ns();
	long type, calls[UP_PROBES] = { 0 }, opens = 0, mine = 0;
	int ev[UP_PROBES], round, i, slot;
	pthread_t thread;
	char path[64];
	up_code fn;
	void *stay;

#ifdef UP_NO_CODE
	SKIP(return, "no code for this architecture");
#endif
	if (geteuid() != 0)
		SKIP(return, "needs root");
	if (read_int_file(UP_SYSFS_TYPE, &type))
		SKIP(return, "no uprobe PMU");
	r.file = up_code_file(path, sizeof(path));
	ASSERT_LE(0, r.file);
	stay = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_PRIVATE, r.file, 0);
	ASSERT_NE(MAP_FAILED, stay);
	fn = (up_code)stay;
	for (i = 0; i < UP_PROBES; i++)
		ev[i] = -1;

	ASSERT_EQ(0, pthread_create(&thread, NULL, up_map_loop, &r));
	for (round = 0; !race_over(start, round, 5000); round++) {
		slot = round % UP_PROBES;
		if (ev[slot] >= 0) {
			ASSERT_EQ(calls[slot], read_count(ev[slot]))
				TH_LOG("round %d, offset %d", round, 16 * slot);
			ASSERT_EQ(0, close(ev[slot]));
		}
		ev[slot] = up_open(type, path, 16 * slot);
		ASSERT_LE(0, ev[slot]) TH_LOG("open: %s", strerror(-ev[slot]));
		opens++;
		calls[slot] = 0;
		spin(jitter(round));
		if (round & 1) {
			ASSERT_EQ(42, fn());
			mine++;
			for (i = 0; i < UP_PROBES; i++)
				calls[i]++;
		}
	}
	flag_set(&r.stop, 1);
	ASSERT_EQ(0, pthread_join(thread, NULL));
	ASSERT_EQ(0, r.err.line) TH_LOG("%s", race_err_str(&r.err));
	for (i = 0; i < UP_PROBES; i++) {
		if (ev[i] < 0)
			continue;
		ASSERT_EQ(calls[i], read_count(ev[i]));
		ASSERT_EQ(0, close(ev[i]));
	}
	/* no probe left: the code reads as the file again */
	ASSERT_EQ(0, memcmp(stay, up_nop, sizeof(up_nop)));
	ASSERT_EQ(42, fn());
	ASSERT_LT(0, r.maps);
	TH_LOG("%d rounds, %ld opens, %ld calls, %ld maps, %ld calls there",
	       round, opens, mine, r.maps, r.calls);
	TH_LOG("%llu ms", ms_since(start));
	ASSERT_EQ(0, munmap(stay, page));
	close(r.file);
	unlink(path);
}

TEST_HARNESS_MAIN
