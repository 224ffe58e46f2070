// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "perf_pmuv3": the pure logic of the PMUv3 driver.  Generic
 * and cache events are mapped against two CPUs (one implementing every
 * common event, one like QEMU's, which implements few); counters are picked
 * from bitmaps standing for a CPU's PMU.  No hardware is touched.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>

#include "../pmuv3.h"

/* every event 0x00..0x3f and 0x4000..0x403f */
static const u64 all_pmceid0 = ~0ULL, all_pmceid1 = ~0ULL;
/* SW_INCR, INST_RETIRED, CPU_CYCLES; STALL_FRONTEND/BACKEND, STALL */
static const u64 qemu_pmceid0 = BIT(0x00) | BIT(0x08) | BIT(0x11);
static const u64 qemu_pmceid1 = BIT(0x23 - 32) | BIT(0x24 - 32) |
				BIT(0x3c - 32);

struct map_case {
	const char *name;
	u32 type;
	u64 config;
	int full;	/* expected on a CPU with every event */
	int qemu;	/* expected on the QEMU CPU */
};

#define CACHE(c, o, r) \
	(PERF_COUNT_HW_CACHE_##c | PERF_COUNT_HW_CACHE_OP_##o << 8 | \
	 PERF_COUNT_HW_CACHE_RESULT_##r << 16)

static const struct map_case map_cases[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0x11, 0x11 },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0x08, 0x08 },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, 0x04, -ENOENT },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, 0x03, -ENOENT },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0x21, -ENOENT },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, 0x10, -ENOENT },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, 0x1d, -ENOENT },
	{ "stalled-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 0x23, 0x23 },
	{ "stalled-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 0x24, 0x24 },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, -ENOENT, -ENOENT },
	{ "hw-out-of-range", PERF_TYPE_HARDWARE, PERF_COUNT_HW_MAX, -EINVAL, -EINVAL },
	{ "l1d-read", PERF_TYPE_HW_CACHE, CACHE(L1D, READ, ACCESS), 0x04, -ENOENT },
	{ "l1d-read-miss", PERF_TYPE_HW_CACHE, CACHE(L1D, READ, MISS), 0x03, -ENOENT },
	{ "l1i-read-miss", PERF_TYPE_HW_CACHE, CACHE(L1I, READ, MISS), 0x01, -ENOENT },
	{ "ll-read", PERF_TYPE_HW_CACHE, CACHE(LL, READ, ACCESS), 0x36, -ENOENT },
	{ "dtlb-read-miss", PERF_TYPE_HW_CACHE, CACHE(DTLB, READ, MISS), 0x05, -ENOENT },
	{ "itlb-read", PERF_TYPE_HW_CACHE, CACHE(ITLB, READ, ACCESS), 0x26, -ENOENT },
	{ "bpu-read-miss", PERF_TYPE_HW_CACHE, CACHE(BPU, READ, MISS), 0x10, -ENOENT },
	{ "l1d-write", PERF_TYPE_HW_CACHE, CACHE(L1D, WRITE, ACCESS), -ENOENT, -ENOENT },
	{ "node-read", PERF_TYPE_HW_CACHE, CACHE(NODE, READ, ACCESS), -ENOENT, -ENOENT },
	{ "cache-bad-cache", PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_MAX, -EINVAL, -EINVAL },
	{ "cache-bad-op", PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_OP_MAX << 8, -EINVAL, -EINVAL },
	{ "cache-bad-result", PERF_TYPE_HW_CACHE,
	  PERF_COUNT_HW_CACHE_RESULT_MAX << 16, -EINVAL, -EINVAL },
};

static void map_case_desc(const struct map_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(map, map_cases, map_case_desc);

static int map(const struct map_case *c, u64 pmceid0, u64 pmceid1)
{
	DECLARE_BITMAP(implemented, PMUV3_NR_COMMON);

	pmuv3_read_implemented(pmceid0, pmceid1, implemented);
	if (c->type == PERF_TYPE_HARDWARE)
		return pmuv3_map_hw_event(c->config, implemented);
	return pmuv3_map_cache_event(c->config, implemented);
}

static void pmuv3_map_test(struct kunit *test)
{
	const struct map_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, c->full, map(c, all_pmceid0, all_pmceid1));
	KUNIT_EXPECT_EQ(test, c->qemu, map(c, qemu_pmceid0, qemu_pmceid1));
}

/* PMCEID0/1 bits land on the event numbers they stand for. */
static void pmuv3_implemented_test(struct kunit *test)
{
	DECLARE_BITMAP(implemented, PMUV3_NR_COMMON);

	pmuv3_read_implemented(BIT_ULL(3) | BIT_ULL(32 + 4), BIT_ULL(0x3c - 32) |
			       BIT_ULL(32 + 0x26 - 0x20), implemented);
	KUNIT_EXPECT_TRUE(test, pmuv3_event_implemented(0x03, implemented));
	KUNIT_EXPECT_TRUE(test, pmuv3_event_implemented(0x4004, implemented));
	KUNIT_EXPECT_TRUE(test, pmuv3_event_implemented(0x3c, implemented));
	KUNIT_EXPECT_TRUE(test, pmuv3_event_implemented(0x4026, implemented));
	KUNIT_EXPECT_FALSE(test, pmuv3_event_implemented(0x04, implemented));
	KUNIT_EXPECT_FALSE(test, pmuv3_event_implemented(0x4003, implemented));
	KUNIT_EXPECT_FALSE(test, pmuv3_event_implemented(0x40, implemented));
	KUNIT_EXPECT_FALSE(test, pmuv3_event_implemented(0x4040, implemented));
}

static const struct pmuv3_counter_req cycles_req = {
	.evnum = PMUV3_EV_CPU_CYCLES, .may_use_cycles = true,
};

/* on a PMU with 64-bit event counters, and on one with 32-bit counters */
static const struct pmuv3_counter_req inst_req = {
	.evnum = PMUV3_EV_INST_RETIRED,
};

static const struct pmuv3_counter_req inst32_req = {
	.evnum = PMUV3_EV_INST_RETIRED, .keep_pairs = true,
};

static const struct pmuv3_counter_req long_req = {
	.evnum = PMUV3_EV_INST_RETIRED, .chained = true, .keep_pairs = true,
};

/* CPU_CYCLES takes the cycle counter, then event counters like any other. */
static void pmuv3_cycles_test(struct kunit *test)
{
	DECLARE_BITMAP(used, PMUV3_NR_IDX) = { 0 };

	KUNIT_EXPECT_EQ(test, PMUV3_IDX_CYCLES,
			pmuv3_pick_counter(&cycles_req, used, 6));
	KUNIT_EXPECT_EQ(test, 0, pmuv3_pick_counter(&cycles_req, used, 6));
	KUNIT_EXPECT_EQ(test, 2, bitmap_weight(used, PMUV3_NR_IDX));
}

/* Single counters: the lowest free one; -EAGAIN when all are taken. */
static void pmuv3_single_test(struct kunit *test)
{
	DECLARE_BITMAP(used, PMUV3_NR_IDX) = { 0 };
	int i;

	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ(test, i, pmuv3_pick_counter(&inst_req, used, 6));
	KUNIT_EXPECT_EQ(test, -EAGAIN, pmuv3_pick_counter(&inst_req, used, 6));
	KUNIT_EXPECT_FALSE(test, test_bit(PMUV3_IDX_CYCLES, used));
	pmuv3_release_counter(&inst_req, 3, used);
	KUNIT_EXPECT_EQ(test, 3, pmuv3_pick_counter(&inst_req, used, 6));
}

/* With 32-bit counters, singles take odd counters first to keep pairs. */
static void pmuv3_single_32bit_test(struct kunit *test)
{
	DECLARE_BITMAP(used, PMUV3_NR_IDX) = { 0 };
	static const int order[] = { 1, 3, 5, 0, 2, 4 };
	int i;

	for (i = 0; i < ARRAY_SIZE(order); i++)
		KUNIT_EXPECT_EQ(test, order[i],
				pmuv3_pick_counter(&inst32_req, used, 6));
	KUNIT_EXPECT_EQ(test, -EAGAIN,
			pmuv3_pick_counter(&inst32_req, used, 6));
}

/* Chained counts take a free even/odd pair and give both halves back. */
static void pmuv3_chain_test(struct kunit *test)
{
	DECLARE_BITMAP(used, PMUV3_NR_IDX) = { 0 };

	KUNIT_EXPECT_EQ(test, 1, pmuv3_pick_counter(&inst32_req, used, 5));
	KUNIT_EXPECT_EQ(test, 2, pmuv3_pick_counter(&long_req, used, 5));
	KUNIT_EXPECT_TRUE(test, test_bit(3, used));
	/* counter 4 has no partner when the PMU has five */
	KUNIT_EXPECT_EQ(test, -EAGAIN, pmuv3_pick_counter(&long_req, used, 5));
	KUNIT_EXPECT_EQ(test, 3, bitmap_weight(used, PMUV3_NR_IDX));
	pmuv3_release_counter(&long_req, 2, used);
	KUNIT_EXPECT_FALSE(test, test_bit(2, used));
	KUNIT_EXPECT_FALSE(test, test_bit(3, used));
	KUNIT_EXPECT_EQ(test, 2, pmuv3_pick_counter(&long_req, used, 5));
}

/* A long CPU_CYCLES needs no pair while the cycle counter is free. */
static void pmuv3_long_cycles_test(struct kunit *test)
{
	struct pmuv3_counter_req req = cycles_req;
	DECLARE_BITMAP(used, PMUV3_NR_IDX) = { 0 };

	req.chained = true;
	KUNIT_EXPECT_EQ(test, PMUV3_IDX_CYCLES,
			pmuv3_pick_counter(&req, used, 6));
	KUNIT_EXPECT_EQ(test, 0, pmuv3_pick_counter(&req, used, 6));
	KUNIT_EXPECT_TRUE(test, test_bit(1, used));
	pmuv3_release_counter(&req, PMUV3_IDX_CYCLES, used);
	KUNIT_EXPECT_EQ(test, 2, bitmap_weight(used, PMUV3_NR_IDX));
}

static struct kunit_case pmuv3_cases[] = {
	KUNIT_CASE_PARAM(pmuv3_map_test, map_gen_params),
	KUNIT_CASE(pmuv3_implemented_test),
	KUNIT_CASE(pmuv3_cycles_test),
	KUNIT_CASE(pmuv3_single_test),
	KUNIT_CASE(pmuv3_single_32bit_test),
	KUNIT_CASE(pmuv3_chain_test),
	KUNIT_CASE(pmuv3_long_cycles_test),
	{}
};

static struct kunit_suite pmuv3_suite = {
	.name = "perf_pmuv3",
	.test_cases = pmuv3_cases,
};

kunit_test_suite(pmuv3_suite);
