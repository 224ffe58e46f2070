// SPDX-License-Identifier: GPL-2.0
/*
 * Events bound to a CPU: per-CPU events (pid == -1) count whatever runs
 * there, and a task event bound to a CPU counts only while its task runs
 * on that CPU (it stays enabled, not running, elsewhere).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define MS	1000000LL

static int open_on(__u64 config, pid_t pid, int cpu, int user_only)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, config);
	attr.exclude_kernel = user_only;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = sys_perf_event_open(&attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

struct reading {
	uint64_t value;
	uint64_t enabled;
	uint64_t running;
};

static struct reading read3(int fd)
{
	struct reading r = { 0 };
	struct reading bad = { ~0ULL, ~0ULL, ~0ULL };

	if (read(fd, &r, sizeof(r)) != sizeof(r))
		return bad;
	return r;
}

FIXTURE(two_cpus) {
	int fd;
};

FIXTURE_SETUP(two_cpus)
{
	self->fd = -1;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two online CPUs");
	ASSERT_EQ(0, pin_to(0));
}

FIXTURE_TEARDOWN(two_cpus)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* A CPU's clock runs whatever the CPU does, idle included. */
TEST_F(two_cpus, cpu_clock_runs_on_idle_cpu)
{
	struct reading r;

	self->fd = open_on(PERF_COUNT_SW_CPU_CLOCK, -1, 1, 0);
	if (self->fd == -EACCES)
		SKIP(return, "CPU-wide events not permitted");
	ASSERT_LE(0, self->fd);
	usleep(50 * 1000);
	r = read3(self->fd);
	EXPECT_LT(40 * MS, (int64_t)r.value);
	EXPECT_EQ(r.enabled, r.running);
}

/* Page faults of another task on the CPU are counted there. */
TEST_F(two_cpus, counts_other_tasks_on_the_cpu)
{
	long psz = sysconf(_SC_PAGESIZE);
	struct reading r;
	pid_t pid;

	self->fd = open_on(PERF_COUNT_SW_PAGE_FAULTS, -1, 1, 0);
	if (self->fd == -EACCES)
		SKIP(return, "CPU-wide events not permitted");
	ASSERT_LE(0, self->fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char *p;
		int i;

		if (pin_to(1))
			_exit(1);
		p = mmap(NULL, 64 * psz, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(1);
		for (i = 0; i < 64; i++) {
			p[i * psz] = 1;
			compiler_barrier();
		}
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	r = read3(self->fd);
	EXPECT_LE(64, (int64_t)r.value);
}

/* A task event bound to CPU 1 waits, enabled, while its task is on CPU 0. */
TEST_F(two_cpus, task_event_bound_to_a_cpu)
{
	struct reading r;

	self->fd = open_on(PERF_COUNT_SW_TASK_CLOCK, 0, 1, 1);
	if (self->fd == -EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, self->fd);
	burn(30);
	r = read3(self->fd);
	EXPECT_EQ(0, r.value);
	EXPECT_EQ(0, r.running);
	EXPECT_LT(20 * MS, (int64_t)r.enabled);
	ASSERT_EQ(0, pin_to(1));
	burn(30);
	r = read3(self->fd);
	EXPECT_LT(20 * MS, (int64_t)r.value);
	EXPECT_LT(20 * MS, (int64_t)r.running);
	EXPECT_GT(r.enabled, r.running);
}

/*
 * Flexible groups that cannot share the PMU take turns on an idle CPU as
 * on a busy one: two exclusive groups of CPU 1, which stays idle, each
 * run for part of the time and between them for nearly all of it.
 */
TEST_F(two_cpus, exclusive_groups_take_turns_on_idle_cpu)
{
	struct perf_event_attr attr;
	struct reading r[2];
	int fd[2], i;

	for (i = 0; i < 2; i++) {
		pmu_counting_attr(&attr, PERF_TYPE_HARDWARE,
				  PERF_COUNT_HW_CPU_CYCLES);
		attr.exclusive = 1;
		fd[i] = sys_perf_event_open(&attr, -1, 1, -1,
					    PERF_FLAG_FD_CLOEXEC);
		if (fd[i] < 0 && (errno == ENOENT || errno == EOPNOTSUPP ||
				  errno == EACCES)) {
			if (i)
				close(fd[0]);
			SKIP(return, "no CPU-wide cycles (%s)",
			     strerror(errno));
		}
		ASSERT_LE(0, fd[i]);
	}
	usleep(500 * 1000);
	for (i = 0; i < 2; i++) {
		r[i] = read3(fd[i]);
		close(fd[i]);
	}
	for (i = 0; i < 2; i++) {
		ASSERT_NE(~0ULL, r[i].enabled);
		/* each had turns, neither had them all */
		EXPECT_LT(r[i].enabled * 15 / 100, r[i].running);
		EXPECT_GT(r[i].enabled * 85 / 100, r[i].running);
	}
	/* one of them was on the PMU nearly all the time */
	EXPECT_LT(r[0].enabled * 9 / 10, r[0].running + r[1].running);
	EXPECT_GE(r[0].enabled + r[1].enabled, r[0].running + r[1].running);
}

TEST_HARNESS_MAIN
