// SPDX-License-Identifier: GPL-2.0
/*
 * Event mapping: the generic PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE
 * events onto PMUv3 common event numbers, and which common events a CPU
 * implements (PMCEID0/1_EL0).  Pure functions of their arguments, with no
 * locking; the KUnit suite (tests/pmuv3_kunit.c) drives them directly.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/nospec.h>

#include "pmuv3.h"

/* no PMUv3 common event counts this */
#define NONE	-1

/* PERF_COUNT_HW_* to the PMUv3 common event with the same meaning */
static const int hw_map[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= 0x11,	/* CPU_CYCLES */
	[PERF_COUNT_HW_INSTRUCTIONS]		= 0x08,	/* INST_RETIRED */
	[PERF_COUNT_HW_CACHE_REFERENCES]	= 0x04,	/* L1D_CACHE */
	[PERF_COUNT_HW_CACHE_MISSES]		= 0x03,	/* L1D_CACHE_REFILL */
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= 0x21,	/* BR_RETIRED */
	[PERF_COUNT_HW_BRANCH_MISSES]		= 0x10,	/* BR_MIS_PRED */
	[PERF_COUNT_HW_BUS_CYCLES]		= 0x1d,	/* BUS_CYCLES */
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= 0x23,	/* STALL_FRONTEND */
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= 0x24,	/* STALL_BACKEND */
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= NONE,
};

/*
 * Cache events: the architecture names read accesses and refills of each
 * cache and TLB; writes and prefetches have no common event.
 */
struct cache_pair {
	int access;
	int miss;
};

static const struct cache_pair cache_read_map[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D]  = { 0x04, 0x03 },	/* L1D_CACHE(_REFILL) */
	[PERF_COUNT_HW_CACHE_L1I]  = { 0x14, 0x01 },	/* L1I_CACHE(_REFILL) */
	[PERF_COUNT_HW_CACHE_LL]   = { 0x36, 0x37 },	/* LL_CACHE(_MISS)_RD */
	[PERF_COUNT_HW_CACHE_DTLB] = { 0x25, 0x05 },	/* L1D_TLB(_REFILL) */
	[PERF_COUNT_HW_CACHE_ITLB] = { 0x26, 0x02 },	/* L1I_TLB(_REFILL) */
	[PERF_COUNT_HW_CACHE_BPU]  = { 0x12, 0x10 },	/* BR_PRED, BR_MIS_PRED */
	[PERF_COUNT_HW_CACHE_NODE] = { NONE, NONE },
};

static_assert(ARRAY_SIZE(hw_map) == PERF_COUNT_HW_MAX);
static_assert(ARRAY_SIZE(cache_read_map) == PERF_COUNT_HW_CACHE_MAX);

/* Learn the implemented common events from PMCEID0_EL0 and PMCEID1_EL0. */
void pmuv3_read_implemented(u64 pmceid0, u64 pmceid1,
			    unsigned long *implemented)
{
	u64 low = (pmceid0 & 0xffffffff) | (pmceid1 & 0xffffffff) << 32;
	u64 high = (pmceid0 >> 32) | (pmceid1 >> 32) << 32;

	bitmap_from_u64(implemented, low);
	bitmap_from_u64(implemented + BITS_TO_LONGS(64), high);
}

/*
 * Whether the CPU says it counts @evnum.  Events outside the two ranges
 * PMCEID describes are IMPLEMENTATION DEFINED: nothing tells, say no.
 */
bool pmuv3_event_implemented(u16 evnum, const unsigned long *implemented)
{
	if (evnum < 0x40)
		return test_bit(evnum, implemented);
	if (evnum >= 0x4000 && evnum < 0x4040)
		return test_bit(64 + evnum - 0x4000, implemented);
	return false;
}

static int implemented_or_enoent(int evnum, const unsigned long *implemented)
{
	if (evnum == NONE || !pmuv3_event_implemented(evnum, implemented))
		return -ENOENT;
	return evnum;
}

/*
 * The PMUv3 event for a PERF_TYPE_HARDWARE config (the PMU type in the top
 * half already stripped): the event number, -ENOENT where the CPU has no
 * such event, -EINVAL for no generic event at all.
 */
int pmuv3_map_hw_event(u64 config, const unsigned long *implemented)
{
	if (config >= PERF_COUNT_HW_MAX)
		return -EINVAL;
	/* a user's config: no speculative read past the table either */
	config = array_index_nospec(config, PERF_COUNT_HW_MAX);
	return implemented_or_enoent(hw_map[config], implemented);
}

/*
 * The PMUv3 event for a PERF_TYPE_HW_CACHE config (cache | op << 8 |
 * result << 16): -EINVAL for a field out of range, -ENOENT for a valid
 * combination the CPU cannot count.
 */
int pmuv3_map_cache_event(u64 config, const unsigned long *implemented)
{
	unsigned int cache = config & 0xff;
	unsigned int op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff;
	const struct cache_pair *pair;

	if (cache >= PERF_COUNT_HW_CACHE_MAX ||
	    op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		return -EINVAL;
	if (op != PERF_COUNT_HW_CACHE_OP_READ)
		return -ENOENT;
	cache = array_index_nospec(cache, PERF_COUNT_HW_CACHE_MAX);
	pair = &cache_read_map[cache];
	return implemented_or_enoent(result == PERF_COUNT_HW_CACHE_RESULT_ACCESS ?
				     pair->access : pair->miss, implemented);
}
