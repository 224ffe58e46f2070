// SPDX-License-Identifier: GPL-2.0
/*
 * Counter pressure on the arm64 PMUv3: a group larger than the PMU's
 * counters fails at open with EINVAL (the cycle counter taking one more
 * CPU_CYCLES event than the event counters alone hold), and more events
 * than counters are multiplexed with sane enabled/running times and
 * scaled counts, at the pace of the PMU's perf_event_mux_interval_ms.
 */
#include <linux/hw_breakpoint.h>

#include "pmuv3_helpers.h"
#include "../../kselftest_harness.h"

#define MAX_FDS	64

FIXTURE(pmuv3) {
	struct pmuv3_info pmu;
	int fds[MAX_FDS];
	int nr;
};

FIXTURE_SETUP(pmuv3)
{
	self->nr = 0;
	if (pmuv3_find(&self->pmu))
		SKIP(return, "no PMUv3 PMU");
	pin_to_cpu(test_cpu());
}

static void close_all(int *fds, int *nr)
{
	while (*nr)
		close(fds[--*nr]);
}

FIXTURE_TEARDOWN(pmuv3)
{
	close_all(self->fds, &self->nr);
}

/*
 * Add @config events to one group until the open fails; returns how many
 * fit and leaves the failing open's -errno in *@err.  The fds go to
 * @fds[*@nr...].
 */
static int fill_group(long type, __u64 config, int *fds, int *nr, int *err)
{
	struct perf_event_attr attr;
	int lead = -1, n = 0, fd;

	*err = 0;
	while (*nr < MAX_FDS) {
		hw_attr(&attr, type, config);
		attr.exclude_kernel = 1;
		fd = open_attr(&attr, lead);
		if (fd < 0) {
			*err = fd;
			break;
		}
		fds[(*nr)++] = fd;
		if (lead < 0)
			lead = fd;
		n++;
	}
	return n;
}

TEST_F(pmuv3, group_cannot_fit)
{
	int insns, cycles, again, err;

	insns = fill_group(self->pmu.type, EV_INST_RETIRED, self->fds,
			   &self->nr, &err);
	EXPECT_EQ(-EINVAL, err);
	close_all(self->fds, &self->nr);
	cycles = fill_group(self->pmu.type, EV_CPU_CYCLES, self->fds,
			    &self->nr, &err);
	EXPECT_EQ(-EINVAL, err);
	close_all(self->fds, &self->nr);
	TH_LOG("a group holds %d INST_RETIRED, %d CPU_CYCLES", insns, cycles);
	ASSERT_LE(1, insns);
	EXPECT_EQ(insns + 1, cycles);
	/* an impossible group does not stop a smaller one from opening */
	again = fill_group(self->pmu.type, EV_INST_RETIRED, self->fds,
			   &self->nr, &err);
	EXPECT_EQ(insns, again);
}

/*
 * Open @n lone user-space instruction counters of the thread, with their
 * enabled and running times, at @fds[*@nr] on; 0, or -1 and errno.
 */
static int open_lone_counters(int *fds, int *nr, int n)
{
	struct perf_event_attr attr;
	int fd;

	while (n--) {
		hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
		attr.exclude_kernel = 1;
		attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				   PERF_FORMAT_TOTAL_TIME_RUNNING;
		fd = open_attr(&attr, -1);
		if (fd < 0)
			return -1;
		fds[(*nr)++] = fd;
	}
	return 0;
}

/*
 * Twice as many instruction counters as the PMU holds, each alone: they
 * take turns, each runs part of the time, and each scaled count is the
 * loop's count within 10%.
 */
TEST_F(pmuv3, multiplexing)
{
	const unsigned long loop = 20000000;
	int capacity, err, i;
	uint64_t v[3], scaled;
	int partial = 0;

	capacity = fill_group(self->pmu.type, EV_INST_RETIRED, self->fds,
			      &self->nr, &err);
	close_all(self->fds, &self->nr);
	ASSERT_LE(1, capacity);
	ASSERT_EQ(0, open_lone_counters(self->fds, &self->nr, 2 * capacity));
	insn_loop(loop);
	for (i = 0; i < self->nr; i++) {
		ASSERT_EQ(sizeof(v), read(self->fds[i], v, sizeof(v)));
		ASSERT_LT(0, v[2]) TH_LOG("event %d never ran", i);
		EXPECT_LE(v[2], v[1]);
		if (v[2] < v[1])
			partial++;
		scaled = (uint64_t)((double)v[0] * v[1] / v[2]);
		TH_LOG("event %d: %llu enabled %llu running %llu scaled %llu", i,
		       (unsigned long long)v[0], (unsigned long long)v[1],
		       (unsigned long long)v[2], (unsigned long long)scaled);
		EXPECT_GT(2 * loop / 10, llabs((long long)(scaled - 2 * loop)));
	}
	EXPECT_LE(capacity, partial);
}

/*
 * Open 2 * @capacity lone instruction counters of the thread, count
 * insn_loop(@loop), and sort them by their share of the PMU: how many ran
 * all the time they were enabled and how many never ran.
 */
static void mux_shares(struct __test_metadata *_metadata, int *fds, int *nr,
		       int capacity, unsigned long loop, int *full, int *none)
{
	uint64_t v[3];
	int i;

	ASSERT_EQ(0, open_lone_counters(fds, nr, 2 * capacity));
	insn_loop(loop);
	*full = *none = 0;
	for (i = 0; i < *nr; i++) {
		ASSERT_EQ(sizeof(v), read(fds[i], v, sizeof(v)));
		*full += v[2] == v[1];
		*none += v[2] == 0;
	}
	close_all(fds, nr);
}

/*
 * The PMU rotates at its own perf_event_mux_interval_ms, from a timer of
 * its own: at 1 ms every event of twice the capacity gets its turn within
 * 40 ms (under icount) of instructions; at 1000 ms the rotation has not
 * come yet (or once, for a timer armed before), so some never ran.
 */
TEST_F(pmuv3, mux_interval_of_the_pmu)
{
	int capacity, err, full, none;
	char path[512];
	long saved;

	snprintf(path, sizeof(path),
		 PMU_DEVICES "/%s/perf_event_mux_interval_ms", self->pmu.name);
	ASSERT_EQ(0, read_int_file(path, &saved));
	if (write_int_file(path, saved))
		SKIP(return, "%s is not writable", path);
	capacity = fill_group(self->pmu.type, EV_INST_RETIRED, self->fds,
			      &self->nr, &err);
	close_all(self->fds, &self->nr);
	ASSERT_LE(2, capacity);

	ASSERT_EQ(0, write_int_file(path, 1));
	mux_shares(_metadata, self->fds, &self->nr, capacity, 20000000,
		   &full, &none);
	EXPECT_EQ(0, none);

	ASSERT_EQ(0, write_int_file(path, 1000));
	mux_shares(_metadata, self->fds, &self->nr, capacity, 20000000,
		   &full, &none);
	ASSERT_EQ(0, write_int_file(path, saved));
	EXPECT_LE(1, none) TH_LOG("%d of %d ran all the time", full,
				  2 * capacity);
	EXPECT_LE(1, full);
}

/*
 * A hardware event may join a group of software events: the group then
 * goes on the PMU with it, and counts as one unit.  Once there, only
 * events of that PMU (or software ones) may join.
 */
TEST_F(pmuv3, hardware_joins_software_group)
{
	struct perf_event_attr attr;
	uint64_t v[1 + 2 * 3];
	int lead, fd, i;

	hw_attr(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	lead = open_attr(&attr, -1);
	ASSERT_LE(0, lead);
	self->fds[self->nr++] = lead;
	hw_attr(&attr, self->pmu.type, EV_INST_RETIRED);
	attr.exclude_kernel = 1;
	fd = open_attr(&attr, lead);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
	self->fds[self->nr++] = fd;
	hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	attr.exclude_kernel = 1;
	fd = open_attr(&attr, lead);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
	self->fds[self->nr++] = fd;

	/* stock puts members that join a running group on at the next switch */
	usleep(10000);
	insn_loop(100000);
	ASSERT_EQ(sizeof(v), read(lead, v, sizeof(v)));
	ASSERT_EQ(3, v[0]);
	EXPECT_LT(0, v[1]);
	EXPECT_LE(200000, v[3]);
	EXPECT_LT(0, v[5]);
	for (i = 0; i < 3; i++)
		TH_LOG("member %d: %llu", i, (unsigned long long)v[1 + 2 * i]);

	/* a software event still joins */
	hw_attr(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	fd = open_attr(&attr, lead);
	ASSERT_LE(0, fd);
	self->fds[self->nr++] = fd;
}

/*
 * A group of more events than counters fails to fit even if a software
 * event leads it.
 */
TEST_F(pmuv3, software_led_group_cannot_fit)
{
	struct perf_event_attr attr;
	int insns, lead, fd, n = 0, err;

	insns = fill_group(self->pmu.type, EV_INST_RETIRED, self->fds,
			   &self->nr, &err);
	close_all(self->fds, &self->nr);
	hw_attr(&attr, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	lead = open_attr(&attr, -1);
	ASSERT_LE(0, lead);
	self->fds[self->nr++] = lead;
	for (;;) {
		hw_attr(&attr, self->pmu.type, EV_INST_RETIRED);
		attr.exclude_kernel = 1;
		fd = open_attr(&attr, lead);
		if (fd < 0)
			break;
		self->fds[self->nr++] = fd;
		n++;
		ASSERT_GT(MAX_FDS - 1, self->nr);
	}
	EXPECT_EQ(-EINVAL, fd);
	EXPECT_EQ(insns, n);
}

/*
 * A breakpoint is a software event as far as groups go: it joins a
 * hardware group, and a hardware event joins a group it leads.
 */
TEST_F(pmuv3, breakpoints_mix_with_hardware)
{
	static long watched;
	struct perf_event_attr bp, hw;
	int leader, member;

	memset(&bp, 0, sizeof(bp));
	bp.size = sizeof(bp);
	bp.type = PERF_TYPE_BREAKPOINT;
	bp.bp_type = HW_BREAKPOINT_W;
	bp.bp_addr = (unsigned long)&watched;
	bp.bp_len = HW_BREAKPOINT_LEN_8;
	bp.exclude_kernel = 1;
	hw_attr(&hw, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	hw.exclude_kernel = 1;

	leader = open_attr(&hw, -1);
	ASSERT_LE(0, leader);
	member = open_attr(&bp, leader);
	EXPECT_LE(0, member) TH_LOG("breakpoint member: %s", strerror(-member));
	if (member >= 0) {
		watched = 1;
		compiler_barrier();
		EXPECT_EQ(1, read_count(member));
		close(member);
	}
	close(leader);

	leader = open_attr(&bp, -1);
	ASSERT_LE(0, leader);
	member = open_attr(&hw, leader);
	EXPECT_LE(0, member) TH_LOG("hardware member: %s", strerror(-member));
	if (member >= 0) {
		watched = 2;
		compiler_barrier();
		EXPECT_EQ(1, read_count(leader));
		EXPECT_LT(0, read_count(member));
		close(member);
	}
	close(leader);
}

TEST_HARNESS_MAIN
