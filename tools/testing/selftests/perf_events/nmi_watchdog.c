// SPDX-License-Identifier: GPL-2.0
/*
 * The NMI watchdog, the hardware PMU's in-kernel user.  The hard-lockup
 * detector (CONFIG_HARDLOCKUP_DETECTOR_PERF) holds a pinned CPU-wide
 * cycles counter on every CPU, made by perf_event_create_kernel_counter()
 * and overflowing into the PMU's NMI handler.  With a hardware PMU that
 * interrupts by NMI (x86) the detector must be available, its NMIs must
 * arrive on every busy CPU, and turning it off must hand its counters
 * back (one more pinned cycles event of a task runs) and stop its NMIs.
 *
 * The tests turn the watchdog on through /proc/sys/kernel/nmi_watchdog,
 * with a threshold of one second, and put both settings back.  They need
 * root, and skip where the kernel has no hard-lockup detector, no
 * hardware PMU, or (outside x86) a detector that takes no NMIs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define NMI_WATCHDOG	"/proc/sys/kernel/nmi_watchdog"
#define WATCHDOG_THRESH	"/proc/sys/kernel/watchdog_thresh"
#define MAX_CPUS	64

/* NMIs taken so far, by CPU, from the "NMI:" line of /proc/interrupts */
static int nmi_counts(unsigned long *counts, int max)
{
	char line[4096], *p, *end;
	FILE *f = fopen("/proc/interrupts", "r");
	int n = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = line + strspn(line, " ");
		if (strncmp(p, "NMI:", 4))
			continue;
		p += 4;
		for (n = 0; n < max; n++) {
			counts[n] = strtoul(p, &end, 10);
			if (end == p)
				break;
			p = end;
		}
		break;
	}
	fclose(f);
	return n;
}

/* keep @cpu busy for @ms of its own time: cycles count only while busy */
static pid_t busy_on(int cpu, int ms)
{
	pid_t pid = fork();
	cpu_set_t set;

	if (pid)
		return pid;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	burn(ms);
	_exit(0);
}

/* every CPU busy for @ms; the NMIs each took meanwhile into @delta */
static int nmis_while_busy(unsigned long *delta, int ms)
{
	unsigned long before[MAX_CPUS], after[MAX_CPUS];
	pid_t pids[MAX_CPUS];
	int n, i;

	n = nmi_counts(before, MAX_CPUS);
	if (n <= 0)
		return -1;
	for (i = 0; i < n; i++)
		pids[i] = busy_on(i, ms);
	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
	if (nmi_counts(after, MAX_CPUS) != n)
		return -1;
	for (i = 0; i < n; i++)
		delta[i] = after[i] - before[i];
	return n;
}

static void cycles_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_HARDWARE;
	a->config = PERF_COUNT_HW_CPU_CYCLES;
}

/*
 * How many of sixteen pinned cycles events on this task run (the others
 * cannot be placed and read as end of file).  Sixteen: more than the
 * counters that count cycles on any PMU the tests meet (Ice Lake's eight
 * general-purpose and fixed counter 1 are nine).
 */
#define PINNED_TRIES	16

static int pinned_cycles_that_run(void)
{
	struct perf_event_attr a;
	int fds[PINNED_TRIES], i, ran = 0;
	__u64 v;

	cycles_attr(&a);
	a.pinned = 1;
	for (i = 0; i < PINNED_TRIES; i++)
		fds[i] = sys_perf_event_open(&a, 0, -1, -1, 0);
	burn(20);
	for (i = 0; i < PINNED_TRIES; i++) {
		if (fds[i] < 0)
			continue;
		if (read(fds[i], &v, sizeof(v)) == sizeof(v))
			ran++;
		close(fds[i]);
	}
	return ran;
}

FIXTURE(watchdog) {
	long enabled;
	long thresh;
	unsigned long counts[MAX_CPUS];
};

FIXTURE_SETUP(watchdog)
{
	struct perf_event_attr a;
	int fd, ret;

	if (geteuid())
		SKIP(return, "needs root");
	if (read_int_file(NMI_WATCHDOG, &self->enabled))
		SKIP(return, "no lockup detector (CONFIG_LOCKUP_DETECTOR)");
	if (read_int_file(WATCHDOG_THRESH, &self->thresh))
		self->thresh = -1;
	cycles_attr(&a);
	a.sample_period = 1000000;
	fd = sys_perf_event_open(&a, 0, -1, -1, 0);
	if (fd < 0)
		SKIP(return, "no sampling hardware cycles event: %s",
		     strerror(errno));
	close(fd);
#ifndef __x86_64__
	/*
	 * Elsewhere the hard-lockup detector may be the buddy one (arm64
	 * without pseudo-NMIs): each CPU watches the next one's timer, with
	 * no counter and no NMI to count.
	 */
	if (nmi_counts(self->counts, MAX_CPUS) <= 0)
		SKIP(return, "the hard-lockup detector takes no NMIs here");
#endif
	/*
	 * Refused (ENOTSUPP) when the boot's probe made no counter; on x86
	 * the PMU interrupts by NMI, so a probe that failed is a bug.
	 */
	ret = write_int_file(NMI_WATCHDOG, 1);
	if (ret) {
#ifdef __x86_64__
		ASSERT_EQ(0, ret) TH_LOG("nmi_watchdog=1: %s", strerror(-ret));
#else
		SKIP(return, "no perf NMI watchdog on this PMU: %s",
		     strerror(-ret));
#endif
	}
	if (self->thresh > 0)
		ASSERT_EQ(0, write_int_file(WATCHDOG_THRESH, 1));
}

FIXTURE_TEARDOWN(watchdog)
{
	if (self->thresh > 0)
		write_int_file(WATCHDOG_THRESH, self->thresh);
	write_int_file(NMI_WATCHDOG, self->enabled);
}

/* the watchdog's NMIs arrive on every CPU that runs */
TEST_F(watchdog, nmis_arrive)
{
	unsigned long delta[MAX_CPUS];
	long on;
	int n, i;

	ASSERT_EQ(0, read_int_file(NMI_WATCHDOG, &on));
	ASSERT_EQ(1, on);
	n = nmis_while_busy(delta, 5000);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++)
		EXPECT_GE(delta[i], 1UL) TH_LOG("CPU %d took no NMI", i);
}

/* off, the watchdog gives its counter back and its NMIs stop */
TEST_F(watchdog, off_gives_counter_back)
{
	unsigned long delta[MAX_CPUS];
	int with, without, n, i;

	with = pinned_cycles_that_run();
	ASSERT_EQ(0, write_int_file(NMI_WATCHDOG, 0));
	without = pinned_cycles_that_run();
	EXPECT_EQ(with + 1, without)
		TH_LOG("%d pinned cycles events ran beside the watchdog, %d without",
		       with, without);
	n = nmis_while_busy(delta, 3000);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++)
		EXPECT_EQ(0UL, delta[i])
			TH_LOG("CPU %d took %lu NMIs", i, delta[i]);
	/* and on again: the counter is taken back, the NMIs return */
	ASSERT_EQ(0, write_int_file(NMI_WATCHDOG, 1));
	EXPECT_EQ(with, pinned_cycles_that_run());
	n = nmis_while_busy(delta, 5000);
	ASSERT_GT(n, 0);
	for (i = 0; i < n; i++)
		EXPECT_GE(delta[i], 1UL) TH_LOG("CPU %d took no NMI", i);
}

TEST_HARNESS_MAIN
