// SPDX-License-Identifier: GPL-2.0
/*
 * Turning counting on and off: enable_on_exec, remove_on_exec,
 * prctl(PR_TASK_PERF_EVENTS_DISABLE/ENABLE) on the events a task created
 * (wherever they are attached, siblings and inherited copies included), the
 * group flag of the ENABLE/DISABLE/RESET ioctls, the enabled time of a
 * member, which follows its leader's, a group's members stopping
 * together when their task exits, and on Intel an event that excludes
 * the host, which counts in guests only.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>

#ifdef __x86_64__
#include <cpuid.h>
#endif

#include "../kselftest_harness.h"
#include "perf_helpers.h"

static int open_clock(pid_t pid, int group, int disabled, int on_exec)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = !!disabled;
	attr.enable_on_exec = !!on_exec;
	fd = sys_perf_event_open(&attr, pid, -1, group, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* The child re-executes this program with "burn" to spin after exec. */
static const char *self_exe = "/proc/self/exe";

/*
 * An event with enable_on_exec starts at exec: against a companion event
 * that counted from the start, it misses the 50 ms burnt before exec.  Only
 * CPU time burnt by the child is compared, never a wall-clock bound, so a
 * slow (debug) kernel's long exec does not matter.
 */
TEST(enable_on_exec_counts_from_exec)
{
	int go, fd, all;
	pid_t pid;

	pid = fork_held(&go);
	ASSERT_LE(0, pid);
	if (pid == 0) {
		burn(50);	/* before exec: must not count */
		execl(self_exe, self_exe, "burn", NULL);
		_exit(127);
	}
	fd = open_clock(pid, -1, 1, 1);
	if (fd == -EACCES) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		SKIP(return, "perf_event_open not permitted");
	}
	ASSERT_LE(0, fd);
	all = open_clock(pid, -1, 0, 0);
	ASSERT_LE(0, all);
	EXPECT_EQ(0, read_count(fd));
	ASSERT_EQ(0, release_child(go));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	/* the 50 ms after exec count, the 50 ms before do not */
	EXPECT_LE(45 * 1000000LL, read_count(fd));
	EXPECT_LE(45 * 1000000LL, read_count(all) - read_count(fd));
	close(all);
	close(fd);
}

/*
 * An event with remove_on_exec stops at exec: against a companion event
 * that counts to the end, it misses the 50 ms burnt after exec.
 */
TEST(remove_on_exec_stops_at_exec)
{
	struct perf_event_attr attr;
	int go, fd, all;
	pid_t pid;

	pid = fork_held(&go);
	ASSERT_LE(0, pid);
	if (pid == 0) {
		burn(30);	/* before exec: counts */
		execl(self_exe, self_exe, "burn", NULL);
		_exit(127);
	}
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.remove_on_exec = 1;
	fd = sys_perf_event_open(&attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EACCES) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		SKIP(return, "perf_event_open not permitted");
	}
	ASSERT_LE(0, fd);
	all = open_clock(pid, -1, 0, 0);
	ASSERT_LE(0, all);
	ASSERT_EQ(0, release_child(go));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	/* the 30 ms before exec count, the 50 ms after do not */
	EXPECT_LE(27 * 1000000LL, read_count(fd));
	EXPECT_LE(45 * 1000000LL, read_count(all) - read_count(fd));
	close(all);
	close(fd);
}

/*
 * prctl acts on the events the caller created (its owner list), not on
 * events another task attached to the caller: stock behaves so, although
 * the 2009 design document describes the opposite.
 */
TEST(prctl_leaves_events_others_attached)
{
	int go, done, fd;
	pid_t pid;

	pid = fork_held_done(&go, &done);
	ASSERT_LE(0, pid);
	if (pid == 0) {
		prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
		burn(40);
		child_done(done);
		child_wait(go);
		_exit(0);
	}
	fd = open_clock(pid, -1, 0, 0);
	if (fd == -EACCES) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		SKIP(return, "perf_event_open not permitted");
	}
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, step_child(go));
	ASSERT_EQ(0, await_child(done));
	EXPECT_LT(30 * 1000000LL, read_count(fd));
	ASSERT_EQ(0, release_child(go));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	close(done);
	close(fd);
}

/*
 * prctl reaches the events the caller created on another task: stock walks
 * the caller's owner list, whatever task or CPU the events count.
 */
TEST(prctl_reaches_events_on_other_tasks)
{
	int go, done, fd;
	int64_t before;
	pid_t pid;

	pid = fork_held_done(&go, &done);
	ASSERT_LE(0, pid);
	if (pid == 0) {
		burn(40);
		child_done(done);
		_exit(0);
	}
	fd = open_clock(pid, -1, 0, 0);
	if (fd == -EACCES) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		SKIP(return, "perf_event_open not permitted");
	}
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	before = read_count(fd);
	ASSERT_EQ(0, release_child(go));
	ASSERT_EQ(0, await_child(done));
	EXPECT_EQ(before, read_count(fd));
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	close(done);
	close(fd);
}

/* A CPU-wide event the caller created is on its owner list too. */
TEST(prctl_reaches_cpu_events)
{
	int64_t a;
	int fd;

	fd = open_sw(PERF_COUNT_SW_CPU_CLOCK, -1, 0, 0);
	if (fd == -EACCES)
		SKIP(return, "CPU-wide events not permitted");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	a = read_count(fd);
	usleep(20000);
	EXPECT_EQ(a, read_count(fd));
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	usleep(20000);
	EXPECT_LT(a, read_count(fd));
	close(fd);
}

/*
 * Inherited copies of the caller's events follow their parent; a child
 * that calls prctl reaches nothing, for it created none of them.
 */
TEST(prctl_reaches_inherited_copies)
{
	struct perf_event_attr attr;
	int go, done, fd;
	int64_t a, b;
	pid_t pid;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, fd);
	pid = fork_held_done(&go, &done);
	ASSERT_LE(0, pid);
	if (pid == 0) {
		burn(40);
		child_done(done);
		child_wait(go);
		prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
		burn(40);
		_exit(0);
	}
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	a = read_count(fd);
	ASSERT_EQ(0, step_child(go));
	ASSERT_EQ(0, await_child(done));
	b = read_count(fd);
	EXPECT_EQ(a, b);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	ASSERT_EQ(0, release_child(go));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	EXPECT_LT(b + 30 * 1000000LL, read_count(fd));
	close(done);
	close(fd);
}

/*
 * Whether the PMU starts and stops all its counters at once (a global
 * enable the driver turns off around a group's changes): Intel's
 * architectural PMU, and AMD's with PerfMonV2 (CPUID 0x80000022 EAX[0]).
 * Not arm64's PMUv3, whose counters stock's driver, like the series',
 * enables one at a time (the counts of a group of three instructions
 * events on the emulated PMUv3 step down by some 15,000 on both kernels).
 */
static bool pmu_stops_at_once(void)
{
#ifdef __x86_64__
	unsigned int a, b, c, d;

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return false;
	if (b == 0x756e6547)		/* "Genu"ineIntel */
		return true;
	if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000022)
		return false;
	__cpuid_count(0x80000022, 0, a, b, c, d);
	return a & 1;
#else
	return false;
#endif
}

/*
 * A group's members start and stop at one instant: three events counting
 * the same hardware event (instructions, user and kernel) on a child give
 * the same count once it has exited, the last of them not having counted
 * on while the first were taken off (the exit path used to take them off
 * one at a time, the PMU running in between: each later member counted
 * some hundred instructions more).  Skips without a hardware PMU, one
 * with fewer than three counters for instructions, or one without a
 * global enable (pmu_stops_at_once()).
 */
TEST(group_members_stop_together_at_exit)
{
	struct perf_event_attr attr;
	__u64 v[3], running[3];
	int fd[3], go, i;
	pid_t pid;

	if (!pmu_stops_at_once())
		SKIP(return, "the PMU's counters start and stop one by one");
	pid = fork_held(&go);
	ASSERT_LE(0, pid);
	if (pid == 0) {
		burn(20);
		_exit(0);
	}
	for (i = 0; i < 3; i++) {
		pmu_counting_attr(&attr, PERF_TYPE_HARDWARE,
				  PERF_COUNT_HW_INSTRUCTIONS);
		fd[i] = sys_perf_event_open(&attr, pid, -1, i ? fd[0] : -1,
					    PERF_FLAG_FD_CLOEXEC);
		if (fd[i] < 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			SKIP(return, "no hardware instructions event: errno %d",
			     errno);
		}
	}
	ASSERT_EQ(0, release_child(go));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	for (i = 0; i < 3; i++) {
		__u64 buf[3];

		ASSERT_EQ(sizeof(buf), read(fd[i], buf, sizeof(buf)));
		v[i] = buf[0];
		running[i] = buf[2];
	}
	if (!running[0])
		SKIP(return, "the group never went on the PMU");
	EXPECT_EQ(v[0], v[1]);
	EXPECT_EQ(v[0], v[2]) TH_LOG("counts %llu %llu %llu",
				     (unsigned long long)v[0],
				     (unsigned long long)v[1],
				     (unsigned long long)v[2]);
	for (i = 0; i < 3; i++)
		close(fd[i]);
}

/* Intel's architectural PMU with a global enable (version 2 and later) */
static bool intel_global_enable(void)
{
#ifdef __x86_64__
	unsigned int a, b, c, d;

	if (!__get_cpuid(0, &a, &b, &c, &d) || b != 0x756e6547 || a < 0xa)
		return false;
	__cpuid_count(0xa, 0, a, b, c, d);
	return (a & 0xff) >= 2;
#else
	return false;
#endif
}

/*
 * Intel: an event that excludes the host counts only while a guest runs
 * (KVM switches the global enable at VM entry), so on a host that runs
 * none it counts nothing, beside the same event that counts.  Stock's
 * driver leaves its counter out of the host's global enable.
 */
TEST(exclude_host_counts_in_guests_only)
{
	struct perf_event_attr attr;
	__u64 host[3], guest[3];
	int fd[2];

	if (!intel_global_enable())
		SKIP(return, "not Intel's PMU with a global enable");
	pmu_counting_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	fd[0] = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd[0] < 0)
		SKIP(return, "no hardware instructions event: errno %d", errno);
	attr.exclude_host = 1;
	fd[1] = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, fd[1]) TH_LOG("exclude_host: errno %d", errno);
	burn(10);
	ASSERT_EQ(sizeof(host), read(fd[0], host, sizeof(host)));
	ASSERT_EQ(sizeof(guest), read(fd[1], guest, sizeof(guest)));
	if (!host[2] || !guest[2])
		SKIP(return, "the events never went on the PMU");
	EXPECT_LT(0, host[0]);
	EXPECT_EQ(0, guest[0]);
	close(fd[0]);
	close(fd[1]);
}

FIXTURE(group) {
	int leader;
	int sibling;
};

FIXTURE_SETUP(group)
{
	self->leader = open_clock(0, -1, 0, 0);
	if (self->leader == -EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, self->leader);
	self->sibling = open_clock(0, self->leader, 0, 0);
	ASSERT_LE(0, self->sibling);
}

FIXTURE_TEARDOWN(group)
{
	if (self->sibling >= 0)
		close(self->sibling);
	if (self->leader >= 0)
		close(self->leader);
}

TEST_F(group, disable_group_stops_siblings)
{
	int64_t s1, s2;

	burn(10);
	ASSERT_EQ(0, ioctl(self->leader, PERF_EVENT_IOC_DISABLE,
			   PERF_IOC_FLAG_GROUP));
	s1 = read_count(self->sibling);
	burn(20);
	s2 = read_count(self->sibling);
	EXPECT_EQ(s1, s2);
	EXPECT_LT(0, s1);
}

TEST_F(group, disable_leader_alone_stops_group)
{
	int64_t s1, s2;

	/* a sibling only counts while its leader is on the PMU */
	ASSERT_EQ(0, ioctl(self->leader, PERF_EVENT_IOC_DISABLE, 0));
	s1 = read_count(self->sibling);
	burn(20);
	s2 = read_count(self->sibling);
	EXPECT_EQ(s1, s2);
	ASSERT_EQ(0, ioctl(self->leader, PERF_EVENT_IOC_ENABLE, 0));
	burn(20);
	EXPECT_LT(s2 + 10 * 1000000LL, read_count(self->sibling));
}

TEST_F(group, reset_group_zeroes_all)
{
	burn(10);
	ASSERT_EQ(0, ioctl(self->leader, PERF_EVENT_IOC_DISABLE,
			   PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, ioctl(self->sibling, PERF_EVENT_IOC_RESET,
			   PERF_IOC_FLAG_GROUP));
	EXPECT_EQ(0, read_count(self->leader));
	EXPECT_EQ(0, read_count(self->sibling));
}

/*
 * Not only the leaders: prctl reaches every event the caller created, so
 * it enables a sibling disabled on its own, and disables a sibling that
 * then stays off when its leader alone is enabled again.
 */
TEST_F(group, prctl_enables_disabled_sibling)
{
	int64_t s1;

	ASSERT_EQ(0, ioctl(self->sibling, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	s1 = read_count(self->sibling);
	burn(20);
	EXPECT_LT(s1 + 10 * 1000000LL, read_count(self->sibling));
}

TEST_F(group, prctl_disables_siblings)
{
	int64_t s1, l1;

	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	ASSERT_EQ(0, ioctl(self->leader, PERF_EVENT_IOC_ENABLE, 0));
	s1 = read_count(self->sibling);
	l1 = read_count(self->leader);
	burn(20);
	EXPECT_EQ(s1, read_count(self->sibling));
	EXPECT_LT(l1 + 10 * 1000000LL, read_count(self->leader));
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
}

/* a task-clock event reading its enabled and running times */
static int open_timed(int group, int disabled)
{
	struct perf_event_attr attr;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = !!disabled;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	return sys_perf_event_open(&attr, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
}

/* a disabled task-clock leader and an enabled member */
FIXTURE(timed) {
	int leader;
	int member;
	uint64_t lead[3];	/* value, enabled, running */
	uint64_t memb[3];
};

FIXTURE_SETUP(timed)
{
	self->member = -1;
	self->leader = open_timed(-1, 1);
	if (self->leader < 0 && errno == EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, self->leader);
	self->member = open_timed(self->leader, 0);
	ASSERT_LE(0, self->member);
}

FIXTURE_TEARDOWN(timed)
{
	if (self->member >= 0)
		close(self->member);
	if (self->leader >= 0)
		close(self->leader);
}

static int read_times(int fd, uint64_t v[3])
{
	return read(fd, v, 3 * sizeof(*v)) == 3 * sizeof(*v) ? 0 : -1;
}

/*
 * A member enabled on its own counts as enabled only while its leader is:
 * off at open, on, then off alone, the member's enabled time is its
 * leader's to the nanosecond, and its running time too.
 */
TEST_F(timed, member_enabled_only_with_its_leader)
{
	burn(10);
	ASSERT_EQ(0, ioctl(self->leader, PERF_EVENT_IOC_ENABLE, 0));
	burn(10);
	ASSERT_EQ(0, ioctl(self->leader, PERF_EVENT_IOC_DISABLE, 0));
	burn(10);
	ASSERT_EQ(0, read_times(self->leader, self->lead));
	ASSERT_EQ(0, read_times(self->member, self->memb));
	EXPECT_LT(5 * 1000000ULL, self->lead[1]);
	EXPECT_EQ(self->lead[1], self->lead[2]);
	EXPECT_EQ(self->lead[1], self->memb[1]);
	EXPECT_EQ(self->lead[2], self->memb[2]);
}

/*
 * The member of a disabled leader that is closed carries on as a group of
 * its own, and then counts as enabled since its open.  When it first runs
 * is not asserted: at the next context switch, or at once.
 */
TEST_F(timed, member_of_closed_leader)
{
	burn(10);
	close(self->leader);
	self->leader = -1;
	burn(10);
	ASSERT_EQ(0, read_times(self->member, self->memb));
	EXPECT_LT(15 * 1000000ULL, self->memb[1]);
}

/*
 * Disabled and enabled whole (PERF_IOC_FLAG_GROUP, which takes the
 * members one after the other), a group's members read the same times.
 */
TEST_F(timed, group_flag_times_alike)
{
	ASSERT_EQ(0, ioctl(self->member, PERF_EVENT_IOC_DISABLE, 0));
	burn(5);
	ASSERT_EQ(0, ioctl(self->leader, PERF_EVENT_IOC_ENABLE,
			   PERF_IOC_FLAG_GROUP));
	burn(10);
	ASSERT_EQ(0, ioctl(self->leader, PERF_EVENT_IOC_DISABLE,
			   PERF_IOC_FLAG_GROUP));
	burn(5);
	ASSERT_EQ(0, read_times(self->leader, self->lead));
	ASSERT_EQ(0, read_times(self->member, self->memb));
	EXPECT_LT(5 * 1000000ULL, self->lead[1]);
	EXPECT_EQ(self->lead[1], self->lead[2]);
	EXPECT_EQ(self->memb[1], self->memb[2]);
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "burn")) {
		burn(50);
		return 0;
	}
	return test_harness_run(argc, argv);
}
