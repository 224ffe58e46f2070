// SPDX-License-Identifier: GPL-2.0
/*
 * Counting with the software PMU: each generic software event counts its
 * own workload on the caller, the clocks agree with time_running, and the
 * read formats, ENABLE/DISABLE/RESET, other tasks, exit and close behave.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "perf_helpers.h"
#include "../kselftest_harness.h"

#define NPAGES		64
#define NSLEEPS		20

static void touch_fresh_pages(int n)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, n * psz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i;

	if (p == MAP_FAILED)
		return;
	for (i = 0; i < n; i++) {
		p[i * psz] = 1;
		compiler_barrier();
	}
	munmap(p, n * psz);
}

static void short_sleeps(int n)
{
	struct timespec ts = { 0, 100 * 1000 };

	while (n--)
		nanosleep(&ts, NULL);
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Burn at least @ns of this thread's CPU time. */
static void spin_ns(uint64_t ns)
{
	uint64_t end = thread_cpu_ns() + ns;

	while (thread_cpu_ns() < end)
		;
}

/* Move to each allowed CPU in turn; returns the number of moves. */
static int hop_cpus(void)
{
	cpu_set_t allowed, one;
	int cpu, moves = 0;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return 0;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &allowed))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one) == 0) {
			spin_ns(1000000);
			moves++;
		}
	}
	sched_setaffinity(0, sizeof(allowed), &allowed);
	return moves - 1;
}

/* Unaligned loads and stores: never a fault on x86 or arm64. */
static void unaligned_accesses(void)
{
	static char buf[64];
	uint64_t *p = (uint64_t *)(buf + 3);
	int i;

	for (i = 0; i < 1000; i++) {
		*p += i;
		compiler_barrier();
	}
}

enum expect {
	AT_LEAST,	/* count >= min after the workload */
	ZERO,		/* count == 0 after the workload */
};

FIXTURE(sw) {
	int fd;
};

FIXTURE_VARIANT(sw) {
	__u64 config;
	int kernel;		/* count kernel mode too */
	void (*work)(void);
	enum expect expect;
	uint64_t min;
	int need_cpus;		/* SKIP below this many allowed CPUs */
};

static void work_pages(void) { touch_fresh_pages(NPAGES); }
static void work_sleeps(void) { short_sleeps(NSLEEPS); }
static void work_spin(void) { spin_ns(20 * 1000 * 1000); }
static void work_hops(void) { hop_cpus(); }
static void work_everything(void)
{
	touch_fresh_pages(NPAGES);
	short_sleeps(NSLEEPS);
	unaligned_accesses();
	spin_ns(1000000);
}

FIXTURE_VARIANT_ADD(sw, cpu_clock) {
	.config = PERF_COUNT_SW_CPU_CLOCK, .work = work_spin,
	.expect = AT_LEAST, .min = 10 * 1000 * 1000,
};

FIXTURE_VARIANT_ADD(sw, task_clock) {
	.config = PERF_COUNT_SW_TASK_CLOCK, .work = work_spin,
	.expect = AT_LEAST, .min = 10 * 1000 * 1000,
};

FIXTURE_VARIANT_ADD(sw, page_faults) {
	.config = PERF_COUNT_SW_PAGE_FAULTS, .work = work_pages,
	.expect = AT_LEAST, .min = NPAGES,
};

FIXTURE_VARIANT_ADD(sw, page_faults_min) {
	.config = PERF_COUNT_SW_PAGE_FAULTS_MIN, .work = work_pages,
	.expect = AT_LEAST, .min = NPAGES,
};

/* switches happen in the kernel: user-only counting sees none */
FIXTURE_VARIANT_ADD(sw, context_switches) {
	.config = PERF_COUNT_SW_CONTEXT_SWITCHES, .kernel = 1,
	.work = work_sleeps, .expect = AT_LEAST, .min = NSLEEPS / 2,
};

FIXTURE_VARIANT_ADD(sw, context_switches_user_only) {
	.config = PERF_COUNT_SW_CONTEXT_SWITCHES,
	.work = work_sleeps, .expect = ZERO,
};

FIXTURE_VARIANT_ADD(sw, cpu_migrations) {
	.config = PERF_COUNT_SW_CPU_MIGRATIONS, .kernel = 1,
	.work = work_hops, .expect = AT_LEAST, .min = 1, .need_cpus = 2,
};

FIXTURE_VARIANT_ADD(sw, alignment_faults) {
	.config = PERF_COUNT_SW_ALIGNMENT_FAULTS, .kernel = 1,
	.work = work_everything, .expect = ZERO,
};

FIXTURE_VARIANT_ADD(sw, emulation_faults) {
	.config = PERF_COUNT_SW_EMULATION_FAULTS, .kernel = 1,
	.work = work_everything, .expect = ZERO,
};

FIXTURE_VARIANT_ADD(sw, dummy) {
	.config = PERF_COUNT_SW_DUMMY, .kernel = 1,
	.work = work_everything, .expect = ZERO,
};

FIXTURE_SETUP(sw)
{
	struct perf_event_attr attr;
	cpu_set_t allowed;

#if !defined(__x86_64__) && !defined(__i386) && !defined(__aarch64__)
	if (variant->config == PERF_COUNT_SW_ALIGNMENT_FAULTS ||
	    variant->config == PERF_COUNT_SW_EMULATION_FAULTS)
		SKIP(return, "fault counts are only known on x86 and arm64");
#endif
	if (variant->need_cpus) {
		sched_getaffinity(0, sizeof(allowed), &allowed);
		if (CPU_COUNT(&allowed) < variant->need_cpus)
			SKIP(return, "needs %d CPUs", variant->need_cpus);
	}
	sw_attr(&attr, variant->config);
	attr.exclude_kernel = !variant->kernel;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	self->fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (self->fd < 0 && errno == EACCES)
		SKIP(return, "not permitted (kernel counting needs privilege)");
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(errno));
}

FIXTURE_TEARDOWN(sw)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(sw, counts_own_work)
{
	uint64_t v[3];

	variant->work();
	ASSERT_EQ(sizeof(v), read(self->fd, v, sizeof(v)));
	switch (variant->expect) {
	case ZERO:
		EXPECT_EQ(0, v[0]);
		break;
	case AT_LEAST:
		EXPECT_LE(variant->min, v[0]);
		break;
	}
	/* a software event is never multiplexed */
	EXPECT_LT(0, v[1]);
	EXPECT_EQ(v[1], v[2]);
}

/* task-clock is the time the task ran, so it tracks time_running. */
TEST(task_clock_matches_time_running)
{
	uint64_t v[3], before, used;
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	before = thread_cpu_ns();
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && errno == EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, fd);
	spin_ns(50 * 1000 * 1000);
	ASSERT_EQ(sizeof(v), read(fd, v, sizeof(v)));
	used = thread_cpu_ns() - before;
	/* count and time_running are sampled a moment apart */
	EXPECT_GE(v[0] + 1000000, v[2]);
	EXPECT_LE(v[0], v[2] + 1000000);
	/*
	 * and both agree with the thread's own CPU clock, which ticks a
	 * little differently: at least the 50 ms spun, at most the CPU
	 * time from before the open to after the read
	 */
	EXPECT_LE(45 * 1000000ULL, v[0]);
	EXPECT_GE(used * 11 / 10 + 1000000, v[0]);
	close(fd);
}

/* Minor faults seen by perf agree with getrusage(). */
TEST(page_faults_match_rusage)
{
	struct rusage r0, r1;
	int64_t count;
	long delta;
	int fd;

	fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS_MIN, 0, -1, 0);
	if (fd == -EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, fd);
	getrusage(RUSAGE_THREAD, &r0);
	touch_fresh_pages(NPAGES);
	getrusage(RUSAGE_THREAD, &r1);
	count = read_count(fd);
	delta = r1.ru_minflt - r0.ru_minflt;
	EXPECT_LE(NPAGES, delta);
	EXPECT_LE(NPAGES, count);
	/* perf saw at most what the rusage window saw, plus the read */
	EXPECT_GE(delta + 4, count);
	close(fd);
}

TEST(disabled_then_enabled)
{
	uint64_t v[3];
	struct perf_event_attr attr;
	uint64_t a, b;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.disabled = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && errno == EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, fd);

	touch_fresh_pages(NPAGES);
	ASSERT_EQ(sizeof(v), read(fd, v, sizeof(v)));
	EXPECT_EQ(0, v[0]);
	EXPECT_EQ(0, v[1]);		/* never enabled: no time either */
	EXPECT_EQ(0, v[2]);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_fresh_pages(NPAGES);
	/*
	 * enabled long enough for perf's clock to move: where it runs on
	 * jiffies (an x86 guest whose TSC was found unstable) a short
	 * window can read 0 ns enabled with a count
	 */
	spin_ns(20 * 1000 * 1000);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(sizeof(v), read(fd, v, sizeof(v)));
	a = v[0];
	EXPECT_LE(NPAGES, a);
	EXPECT_LT(0, v[1]);

	/* disabled: the count and the times stand still */
	b = v[1];
	touch_fresh_pages(NPAGES);
	ASSERT_EQ(sizeof(v), read(fd, v, sizeof(v)));
	EXPECT_EQ(a, v[0]);
	EXPECT_EQ(b, v[1]);

	/* RESET zeroes the count, not the times */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(sizeof(v), read(fd, v, sizeof(v)));
	EXPECT_EQ(0, v[0]);
	EXPECT_LT(0, v[1]);
	close(fd);
}

/* value, time_enabled, time_running, id; id matches PERF_EVENT_IOC_ID. */
TEST(read_format_times_and_id)
{
	uint64_t v[4], id = 0, small[3], big[5];
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && errno == EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, fd);
	spin_ns(5 * 1000 * 1000);
	ASSERT_EQ(sizeof(v), read(fd, v, sizeof(v)));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	EXPECT_NE(0, id);
	EXPECT_EQ(id, v[3]);
	/* two clocks, read a moment apart: allow 10% */
	EXPECT_LE(4500 * 1000, v[1]);
	EXPECT_EQ(v[1], v[2]);

	/* a buffer smaller than the format is ENOSPC, not a short read */
	EXPECT_EQ(-1, read(fd, small, sizeof(small)));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(-1, read(fd, small, 0));
	EXPECT_EQ(ENOSPC, errno);
	/* a bigger buffer is fine: the format's size comes back */
	EXPECT_EQ(sizeof(v), read(fd, big, sizeof(big)));
	close(fd);
}

/* PERF_FORMAT_GROUP: nr, then value and id of leader and member. */
TEST(group_read)
{
	struct perf_event_attr attr;
	uint64_t v[5], id0, id1;
	int lead, memb;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	attr.disabled = 1;
	lead = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (lead < 0 && errno == EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, lead);
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	memb = sys_perf_event_open(&attr, 0, -1, lead, 0);
	ASSERT_LE(0, memb);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ID, &id0));
	ASSERT_EQ(0, ioctl(memb, PERF_EVENT_IOC_ID, &id1));

	/* disabled leader: the member does not count either */
	touch_fresh_pages(NPAGES);
	ASSERT_EQ(sizeof(v), read(lead, v, sizeof(v)));
	EXPECT_EQ(2, v[0]);
	EXPECT_EQ(0, v[3]);

	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	touch_fresh_pages(NPAGES);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(sizeof(v), read(lead, v, sizeof(v)));
	EXPECT_EQ(2, v[0]);
	EXPECT_LT(0, v[1]);
	EXPECT_EQ(id0, v[2]);
	EXPECT_LE(NPAGES, v[3]);
	EXPECT_EQ(id1, v[4]);
	/* too small for the whole group */
	EXPECT_EQ(-1, read(lead, v, sizeof(v) - 8));
	EXPECT_EQ(ENOSPC, errno);
	close(memb);
	close(lead);
}

/*
 * Closing a group's leader leaves its members counting, each a group of
 * its own; closing a member shrinks the group that read() reports.
 */
TEST(leader_closed_members_go_on)
{
	struct perf_event_attr attr;
	uint64_t v[5], id1, id2;
	int lead, memb, memb2;

	/*
	 * Members that join a running group, or a promoted member, may wait
	 * for the task's next switch to go on the PMU (they do on stock): the
	 * group starts disabled, and the test sleeps after closing the leader.
	 */
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	attr.disabled = 1;
	lead = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (lead < 0 && errno == EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, lead);
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	memb = sys_perf_event_open(&attr, 0, -1, lead, 0);
	ASSERT_LE(0, memb);
	memb2 = sys_perf_event_open(&attr, 0, -1, lead, 0);
	ASSERT_LE(0, memb2);
	ASSERT_EQ(0, ioctl(memb, PERF_EVENT_IOC_ID, &id1));
	ASSERT_EQ(0, ioctl(memb2, PERF_EVENT_IOC_ID, &id2));
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));

	/* a member goes: the group reads as two */
	close(memb2);
	ASSERT_EQ(5 * 8, read(lead, v, sizeof(v)));
	EXPECT_EQ(2, v[0]);
	EXPECT_EQ(id1, v[4]);

	touch_fresh_pages(NPAGES);
	close(lead);
	usleep(20000);
	touch_fresh_pages(NPAGES);
	/* the member counted on, alone now: nr, value, id */
	ASSERT_EQ(3 * 8, read(memb, v, sizeof(v)));
	EXPECT_EQ(1, v[0]);
	EXPECT_LE(2 * NPAGES, v[1]);
	EXPECT_EQ(id1, v[2]);
	close(memb);
}

/*
 * An event on a forked child counts the child only, stays readable after
 * the child exits, with its final count.
 */
TEST(other_task_and_its_exit)
{
	int go, done, fd;
	int64_t live, final;
	pid_t pid;

	pid = fork_held_done(&go, &done);
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* ready, wait, fault NPAGES pages, report, wait, more, exit */
		child_done(done);
		child_wait(go);
		touch_fresh_pages(NPAGES);
		child_done(done);
		child_wait(go);
		touch_fresh_pages(NPAGES);
		_exit(0);
	}
	/* open once the child is blocked: its start-up faults are done */
	ASSERT_EQ(0, step_child(go));
	ASSERT_EQ(0, await_child(done));
	fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS_MIN, pid, -1, 0);
	if (fd == -EACCES) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		SKIP(return, "perf_event_open not permitted");
	}
	ASSERT_LE(0, fd);

	/* our own faults are not the child's */
	touch_fresh_pages(4 * NPAGES);
	EXPECT_EQ(0, read_count(fd));

	ASSERT_EQ(0, step_child(go));
	ASSERT_EQ(0, await_child(done));
	live = read_count(fd);
	EXPECT_LE(NPAGES, live);
	EXPECT_GT(4 * NPAGES, live);

	ASSERT_EQ(0, release_child(go));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	final = read_count(fd);
	EXPECT_LE(live + NPAGES, final);
	/* nothing counts any more */
	touch_fresh_pages(NPAGES);
	EXPECT_EQ(final, read_count(fd));
	close(done);
	close(fd);
}

/*
 * Opening and closing many events leaks no descriptors (2000 of them: a
 * debug kernel under TCG takes minutes for more).
 */
TEST(open_close_many)
{
	int i, fd, first = -1;

	for (i = 0; i < 2000; i++) {
		fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1, i & 1);
		if (fd == -EACCES)
			SKIP(return, "perf_event_open not permitted");
		ASSERT_LE(0, fd) TH_LOG("iteration %d: %s", i, strerror(-fd));
		if (first < 0)
			first = fd;
		ASSERT_EQ(first, fd);
		ASSERT_EQ(0, close(fd));
	}
}

TEST_HARNESS_MAIN
