// SPDX-License-Identifier: GPL-2.0
/*
 * Precise sampling (precise_ip) of the cpu PMU, where caps/max_precise
 * says it has it (Intel's PEBS): each level up to max_precise samples a
 * loop of this task; a precise event must sample (a counting one is
 * EINVAL), a level beyond max_precise is EOPNOTSUPP; the samples' periods
 * add up to what the event counted, also when records wait in a buffer
 * until the event is disabled (a fixed period and only what records
 * give); levels 2 and up give the exact IP (PERF_RECORD_MISC_EXACT_IP),
 * level 1 does not; the registers of a sample are the record's; and a task
 * never finds another task's samples in its ring, however often the two
 * switch on one CPU.  (A user-only event's record may hold the kernel's
 * entry for its IP: the instruction that overflowed the counter was a
 * system call, and the record is written after it, on stock as well.)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"
#include "perf_records.h"

#define PERIOD		10007
#define TURNS		200000

/* the sample registers of the ABI (asm/perf_regs.h): the IP is bit 8 */
#define REG_IP		8
#define REGS_GENERAL	0xff01ffULL	/* AX..SP, IP, R8..R15 */

/* a sampling event of this task's user instructions at @precise */
static void pebs_attr(struct perf_event_attr *attr, int precise)
{
	user_insns_attr(attr, PERIOD);
	attr->precise_ip = precise;
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			    PERF_SAMPLE_PERIOD;
}

static void pebs_work(unsigned long turns)
{
	unsigned long i, acc = 1;

	for (i = 0; i < turns; i++) {
		acc = acc * 6364136223846793005UL + 1442695040888963407UL;
		__asm__ ("" : "+r" (acc));
		if (acc & 0x100)
			acc ^= i;
	}
	__asm__ __volatile__ ("" : : "r" (acc) : "memory");
}

struct pebs_run {
	long samples;
	long exact;		/* with PERF_RECORD_MISC_EXACT_IP */
	long foreign;		/* of another pid or tid */
	long in_range;		/* with an IP in [lo, hi) */
	long bad_regs;		/* whose registers' IP is not the sample's */
	unsigned long long periods;
	unsigned long long count;	/* what the event counted */
};

static void pebs_scan(struct perf_map *m, const struct perf_event_attr *attr,
		      __u64 lo, __u64 hi, struct pebs_run *r)
{
	static uint64_t buf[8192];
	struct perf_event_header *h;
	struct perf_sample s;
	pid_t pid = getpid();

	while ((h = perf_map_next_type(m, buf, sizeof(buf),
				       PERF_RECORD_SAMPLE))) {
		perf_sample_parse(h, attr->sample_type, 0, 0, &s);
		r->samples++;
		r->periods += s.period;
		if (h->misc & PERF_RECORD_MISC_EXACT_IP)
			r->exact++;
		if (s.pid != (uint32_t)pid || s.tid != (uint32_t)pid)
			r->foreign++;
		if (s.ip >= lo && s.ip < hi)
			r->in_range++;
		if (attr->sample_type & PERF_SAMPLE_REGS_INTR) {
			const uint64_t *p = s.end;

			/* abi, then the registers in bit order */
			if (!p[0] || p[1 + REG_IP] != s.ip)
				r->bad_regs++;
		}
	}
}

/* open @attr on this task, run the loop, disable, scan */
static int pebs_record(struct perf_event_attr *attr, struct pebs_run *r)
{
	struct perf_map m;
	int fd;

	memset(r, 0, sizeof(*r));
	fd = sys_perf_event_open(attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (perf_map_open(&m, fd, 128, PROT_READ | PROT_WRITE)) {
		close(fd);
		return -errno;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	pebs_work(TURNS);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	r->count = read_count(fd);
	pebs_scan(&m, attr, 0, 0, r);
	perf_map_close(&m);
	close(fd);
	return 0;
}

FIXTURE(pebs) {
	long max;
};

FIXTURE_SETUP(pebs)
{
	self->max = cpu_pmu_cap("max_precise");
}

FIXTURE_TEARDOWN(pebs)
{
}

/* A level beyond caps/max_precise: EOPNOTSUPP. */
TEST_F(pebs, beyond_max_precise)
{
	struct perf_event_attr attr;

	if (access("/sys/bus/event_source/devices/cpu/caps/max_precise",
		   F_OK))
		SKIP(return, "no cpu PMU that says its levels (caps/max_precise)");
	if (self->max >= 3)
		SKIP(return, "every level is there");
	pebs_attr(&attr, 0);
	if (open_event_errno(&attr, 0, -1))
		SKIP(return, "no instructions event (%s)", strerror(errno));
	pebs_attr(&attr, self->max + 1);
	EXPECT_EQ(open_event_errno(&attr, 0, -1), EOPNOTSUPP);
}

/* A precise event that does not sample: EINVAL. */
TEST_F(pebs, must_sample)
{
	struct perf_event_attr attr;

	if (!self->max)
		SKIP(return, "no precise sampling");
	pebs_attr(&attr, 1);
	attr.sample_period = 0;
	attr.sample_type = 0;
	EXPECT_EQ(open_event_errno(&attr, 0, -1), EINVAL);
}

/*
 * Each level samples the loop; a fixed period and only what the records
 * give (the buffered path): the periods add up to the count, within one
 * period, once the event is disabled.  Levels 2 and up are exact.
 */
TEST_F(pebs, each_level_accounts_its_periods)
{
	struct perf_event_attr attr;
	struct pebs_run r;
	int precise;

	if (!self->max)
		SKIP(return, "no precise sampling");
	for (precise = 1; precise <= self->max; precise++) {
		pebs_attr(&attr, precise);
		ASSERT_EQ(pebs_record(&attr, &r), 0)
			TH_LOG("precise_ip %d: %s", precise, strerror(errno));
		EXPECT_GT(r.samples, (long)(TURNS / PERIOD))
			TH_LOG("precise_ip %d", precise);
		EXPECT_LE(r.periods, r.count) TH_LOG("precise_ip %d", precise);
		EXPECT_LT(r.count - r.periods, 2ULL * PERIOD)
			TH_LOG("precise_ip %d: %llu counted, %llu sampled",
			       precise, r.count, r.periods);
		EXPECT_EQ(r.foreign, 0) TH_LOG("precise_ip %d", precise);
		EXPECT_EQ(r.exact, precise >= 2 ? r.samples : 0)
			TH_LOG("precise_ip %d", precise);
	}
}

/* A sample at every record (the call chain is not in records): the same. */
TEST_F(pebs, record_by_record)
{
	struct perf_event_attr attr;
	struct pebs_run r;

	if (!self->max)
		SKIP(return, "no precise sampling");
	pebs_attr(&attr, 1);
	attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	attr.exclude_callchain_kernel = 1;
	ASSERT_EQ(pebs_record(&attr, &r), 0);
	EXPECT_GT(r.samples, (long)(TURNS / PERIOD));
	EXPECT_LE(r.periods, r.count);
	EXPECT_LT(r.count - r.periods, 2ULL * PERIOD);
}

/* The interrupted registers of a sample are the record's: its IP. */
TEST_F(pebs, registers_are_the_records)
{
	struct perf_event_attr attr;
	struct pebs_run r;

	if (self->max < 2)
		SKIP(return, "no exact precise sampling");
	pebs_attr(&attr, 2);
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_REGS_INTR;
	attr.sample_regs_intr = REGS_GENERAL;
	ASSERT_EQ(pebs_record(&attr, &r), 0);
	EXPECT_GT(r.samples, (long)(TURNS / PERIOD));
	EXPECT_EQ(r.bad_regs, 0);
}

/* precise cycles, which the driver counts by another event, samples too */
TEST_F(pebs, precise_cycles)
{
	struct perf_event_attr attr;
	struct pebs_run r;
	int precise;

	if (!self->max)
		SKIP(return, "no precise sampling");
	for (precise = 1; precise <= self->max; precise++) {
		pebs_attr(&attr, precise);
		attr.config = PERF_COUNT_HW_CPU_CYCLES;
		ASSERT_EQ(pebs_record(&attr, &r), 0)
			TH_LOG("precise_ip %d: %s", precise, strerror(errno));
		EXPECT_GT(r.samples, 0) TH_LOG("precise_ip %d", precise);
	}
}

/*
 * A precise event's branch stack (where the PMU has both), from the
 * records' own LBR group on adaptive PEBS: every sample has one, of at
 * most caps/branches entries, none of them the kernel's or empty, and
 * its hardware index is the top of the stack or -1.
 */
TEST_F(pebs, precise_branch_stacks)
{
	long depth = cpu_pmu_cap("branches");
	struct perf_event_attr attr;
	static uint64_t buf[8192];
	struct perf_event_header *h;
	struct perf_sample s;
	struct perf_map m;
	long samples = 0, empty = 0, bad = 0;
	int fd;

	if (!self->max)
		SKIP(return, "no precise sampling");
	if (depth <= 0)
		SKIP(return, "no branch stack");
	pebs_attr(&attr, 1);
	attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				  PERF_SAMPLE_BRANCH_USER |
				  PERF_SAMPLE_BRANCH_HW_INDEX;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(perf_map_open(&m, fd, 128, PROT_READ | PROT_WRITE), 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	pebs_work(TURNS);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	while ((h = perf_map_next_type(&m, buf, sizeof(buf),
				       PERF_RECORD_SAMPLE))) {
		const struct perf_branch_entry *e;
		const uint64_t *p;
		uint64_t nr, idx;

		perf_sample_parse(h, attr.sample_type & ~PERF_SAMPLE_BRANCH_STACK,
				  0, 0, &s);
		p = s.end;
		nr = *p++;
		idx = *p++;
		e = (const struct perf_branch_entry *)p;
		samples++;
		if (!nr)
			empty++;
		if (nr > (uint64_t)depth ||
		    (idx != -1ULL && idx >= (uint64_t)depth))
			bad++;
		for (uint64_t i = 0; i < nr && i < 64; i++)
			if (!e[i].from || !e[i].to ||
			    e[i].from >= 0x800000000000ULL ||
			    e[i].to >= 0x800000000000ULL)
				bad++;
	}
	perf_map_close(&m);
	close(fd);
	EXPECT_GT(samples, (long)(TURNS / PERIOD));
	EXPECT_EQ(empty, 0);
	EXPECT_EQ(bad, 0);
}

#if defined(__x86_64__)
/*
 * Another task loops in code at OTHER_CODE on this task's CPU, sampled by
 * a precise event of its own that buffers its records: none of its
 * samples may land in this task's ring (a task's records are drained
 * into its own events before another task runs).  This task yields the
 * CPU to it thousands of times.
 */
TEST_F(pebs, no_other_task_samples)
{
	struct perf_event_attr attr;
	struct pebs_run r;
	struct perf_map m;
	int fd, go[2];
	pid_t child;

	if (!self->max)
		SKIP(return, "no precise sampling");
	ASSERT_EQ(pin_to(0), 0);
	ASSERT_EQ(pipe(go), 0);
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		void (*loop)(unsigned int n) = other_code_loop();
		char c;

		if (!loop)
			_exit(1);
		pebs_attr(&attr, 1);
		attr.sample_period = 1009;
		attr.disabled = 0;
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		if (fd < 0 || perf_map_open(&m, fd, 8, PROT_READ))
			_exit(2);
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		for (;;)
			loop(1000000);
	}
	pebs_attr(&attr, 1);
	attr.sample_period = 997;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 512, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(write(go[1], "g", 1), 1);
	memset(&r, 0, sizeof(r));
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	/* both on CPU 0: each yield lets the other run */
	for (int i = 0; i < 3000; i++) {
		pebs_work(40);
		sched_yield();
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	pebs_scan(&m, &attr, OTHER_CODE, OTHER_CODE + 4096, &r);
	perf_map_close(&m);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	close(fd);
	EXPECT_GT(r.samples, 5);
	EXPECT_EQ(r.in_range, 0);
	EXPECT_EQ(r.foreign, 0);
}
#endif

/*
 * A precise event that excludes the host (perf's :Gp) counts in guests
 * only: on a host that runs none it counts nothing and samples nothing,
 * whether or not the part lets guests have PEBS.
 */
TEST_F(pebs, excluding_the_host)
{
	struct perf_event_attr attr;
	struct pebs_run r;

	if (!self->max)
		SKIP(return, "no precise sampling");
	pebs_attr(&attr, 1);
	attr.exclude_host = 1;
	ASSERT_EQ(pebs_record(&attr, &r), 0);
	EXPECT_EQ(r.count, 0);
	EXPECT_EQ(r.samples, 0);
}

/*
 * Load latency (0x1cd with a threshold in config1) at level 2 on the
 * first general counter, and beside it an ordinary sampling event of this
 * task's instructions, on the first fixed counter where there is one:
 * the latter samples on as alone (on Skylake, PEBS_ENABLE's load latency
 * bit of general counter 0 is bit 32, the first fixed counter's number in
 * the global status).  Skipped where the part refuses load latency alone
 * (Sapphire Rapids wants its auxiliary event as leader).
 */
TEST_F(pebs, sampling_beside_load_latency)
{
	struct perf_event_attr ldlat, attr;
	struct pebs_run r;
	struct perf_map m;
	int lfd, fd;

	if (self->max < 2)
		SKIP(return, "no precise level 2");
	memset(&ldlat, 0, sizeof(ldlat));
	ldlat.size = sizeof(ldlat);
	ldlat.type = PERF_TYPE_RAW;
	ldlat.config = 0x1cd;
	ldlat.config1 = 3;
	ldlat.precise_ip = 2;
	ldlat.sample_period = 10007;
	ldlat.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |
			    PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC;
	ldlat.exclude_kernel = 1;
	ldlat.exclude_hv = 1;
	lfd = sys_perf_event_open(&ldlat, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (lfd < 0)
		SKIP(return, "no load latency alone: %s", strerror(errno));
	pebs_attr(&attr, 0);
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 128, PROT_READ | PROT_WRITE), 0);
	memset(&r, 0, sizeof(r));
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	pebs_work(TURNS);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	r.count = read_count(fd);
	pebs_scan(&m, &attr, 0, 0, &r);
	perf_map_close(&m);
	close(fd);
	close(lfd);
	EXPECT_GT(r.count, 20 * PERIOD);
	EXPECT_GE(r.samples, r.count / PERIOD - 2)
		TH_LOG("%ld samples of %llu instructions", r.samples, r.count);
}

TEST_HARNESS_MAIN
