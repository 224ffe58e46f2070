// SPDX-License-Identifier: GPL-2.0
/*
 * Counter pressure on the arm64 PMUv3: a group larger than the PMU's
 * counters fails at open with EINVAL (the cycle counter taking one more
 * CPU_CYCLES event than the event counters alone hold), and more events
 * than counters are multiplexed with sane enabled/running times and
 * scaled counts.
 */
#include "pmuv3_helpers.h"
#include "../kselftest_harness.h"

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
	pin_to_cpu(0);
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
 * Twice as many instruction counters as the PMU holds, each alone: they
 * take turns, each runs part of the time, and each scaled count is the
 * loop's count within 10%.
 */
TEST_F(pmuv3, multiplexing)
{
	const unsigned long loop = 20000000;
	struct perf_event_attr attr;
	int capacity, err, i, fd;
	uint64_t v[3], scaled;
	int partial = 0;

	capacity = fill_group(self->pmu.type, EV_INST_RETIRED, self->fds,
			      &self->nr, &err);
	close_all(self->fds, &self->nr);
	ASSERT_LE(1, capacity);
	for (i = 0; i < 2 * capacity; i++) {
		hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
		attr.exclude_kernel = 1;
		attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				   PERF_FORMAT_TOTAL_TIME_RUNNING;
		fd = open_attr(&attr, -1);
		ASSERT_LE(0, fd);
		self->fds[self->nr++] = fd;
	}
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

TEST_HARNESS_MAIN
