// SPDX-License-Identifier: GPL-2.0
/*
 * Event mapping of the x86 core PMU: PERF_TYPE_HARDWARE and
 * PERF_TYPE_HW_CACHE events to the PERFEVTSEL (Intel) or PERF_CTL (AMD)
 * value that counts them, the check of raw configs, the exclusion bits,
 * and event_init, which puts these together.
 *
 * Intel: the architectural events of CPUID 0xA (SDM vol. 3B, "Pre-defined
 * Architectural Performance Events"), each available unless EBX marks it
 * not, and the fixed counters (instructions, core cycles, reference cycles
 * at the TSC rate, topdown slots).  AMD: the core events documented for
 * every part of a family range (BKDGs of families 0Fh to 16h, PPRs of
 * families 17h and later).  A generic event the CPU cannot count is
 * -ENOENT; a cache config whose type, op or result is out of range is
 * -EINVAL, a valid combination that no documented event expresses is
 * -ENOENT; a raw config with a bit that is not the user's to set is
 * -EINVAL.
 *
 * Pure functions of their arguments: no locking.  event_init writes only
 * the event it is given, which the core does not share yet.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/nospec.h>
#include <linux/perf_event.h>
#include <linux/perf_regs.h>
#include <asm/perf_event.h>

#include "cpu_pmu.h"

/* an event select (bits 7:0; AMD: all events used here fit) and unit mask */
#define EVSEL(event, umask)	((u64)(event) | (u64)(umask) << 8)

/* no documented event counts this */
#define NONE			(~0ULL)

/* the encoding of each architectural event (SDM), by CPUID 0xA EBX bit */
static const u64 intel_arch_events[X86_ARCH_NR_EVENTS] = {
	[X86_ARCH_CORE_CYCLES]		= EVSEL(0x3c, 0x00),
	[X86_ARCH_INSTRUCTIONS]		= EVSEL(0xc0, 0x00),
	[X86_ARCH_REF_CYCLES]		= EVSEL(0x3c, 0x01),
	[X86_ARCH_LLC_REFERENCES]	= EVSEL(0x2e, 0x4f),
	[X86_ARCH_LLC_MISSES]		= EVSEL(0x2e, 0x41),
	[X86_ARCH_BRANCHES]		= EVSEL(0xc4, 0x00),
	[X86_ARCH_BRANCH_MISSES]	= EVSEL(0xc5, 0x00),
	[X86_ARCH_TOPDOWN_SLOTS]	= EVSEL(0xa4, 0x01),
};

/*
 * A generic Intel event: the architectural event that counts it (-1:
 * none) and the fixed counter that counts it too (-1: none).  Reference
 * cycles at the TSC rate are the fixed counter's only: the architectural
 * event 0x013c counts at the bus clock, which is what bus-cycles is.
 */
struct intel_generic {
	s8 arch;
	s8 fixed;
};

static const struct intel_generic intel_hw_map[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]	= { X86_ARCH_CORE_CYCLES, 1 },
	[PERF_COUNT_HW_INSTRUCTIONS]	= { X86_ARCH_INSTRUCTIONS, 0 },
	[PERF_COUNT_HW_CACHE_REFERENCES] = { X86_ARCH_LLC_REFERENCES, -1 },
	[PERF_COUNT_HW_CACHE_MISSES]	= { X86_ARCH_LLC_MISSES, -1 },
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] = { X86_ARCH_BRANCHES, -1 },
	[PERF_COUNT_HW_BRANCH_MISSES]	= { X86_ARCH_BRANCH_MISSES, -1 },
	[PERF_COUNT_HW_BUS_CYCLES]	= { X86_ARCH_REF_CYCLES, -1 },
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND] = { -1, -1 },
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND] = { -1, -1 },
	[PERF_COUNT_HW_REF_CPU_CYCLES]	= { -1, 2 },
};

/*
 * AMD generic events.  Before family 17h (BKDGs): CPU clocks not halted,
 * retired instructions, L2 requests and misses of every kind (IC, DC, TLB
 * fill: the L2 is the last cache of the core), retired branches and
 * mispredicted branches, decoder empty and dispatch stalls.  From family
 * 17h (PPRs): the same cycles, instructions and branches; every L2 request
 * (L2RequestG1), and the L2 misses of instruction and data fills
 * (L2CacheReqStat IcFillMiss | LsRdBlkC); front-end stalls as the cycles
 * the micro-op queue is empty (0xa9), where user space finds them (the
 * events/ directory); no back-end stall event.  Zen 1 has its own stall
 * events (0x87, dispatch stalls: unit mask 2 front end, 1 back end), and
 * Zen 4 and later count reference cycles at the P0 frequency (0x120).
 * Family 17h and 18h models that are neither Zen 1 nor Zen 2 keep the
 * older generic events.
 */
static const u64 amd_legacy_hw_map[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= EVSEL(0x76, 0x00),
	[PERF_COUNT_HW_INSTRUCTIONS]		= EVSEL(0xc0, 0x00),
	[PERF_COUNT_HW_CACHE_REFERENCES]	= EVSEL(0x7d, 0x07),
	[PERF_COUNT_HW_CACHE_MISSES]		= EVSEL(0x7e, 0x07),
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= EVSEL(0xc2, 0x00),
	[PERF_COUNT_HW_BRANCH_MISSES]		= EVSEL(0xc3, 0x00),
	[PERF_COUNT_HW_BUS_CYCLES]		= NONE,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= EVSEL(0xd0, 0x00),
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= EVSEL(0xd1, 0x00),
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= NONE,
};

static const u64 amd_zen_hw_map[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= EVSEL(0x76, 0x00),
	[PERF_COUNT_HW_INSTRUCTIONS]		= EVSEL(0xc0, 0x00),
	[PERF_COUNT_HW_CACHE_REFERENCES]	= EVSEL(0x60, 0xff),
	[PERF_COUNT_HW_CACHE_MISSES]		= EVSEL(0x64, 0x09),
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= EVSEL(0xc2, 0x00),
	[PERF_COUNT_HW_BRANCH_MISSES]		= EVSEL(0xc3, 0x00),
	[PERF_COUNT_HW_BUS_CYCLES]		= NONE,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= EVSEL(0xa9, 0x00),
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= NONE,
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= NONE,
};

/* AMD families 17h and later: the PPR event set */
#define AMD_FAMILY_ZEN		0x17

/*
 * The models of families 17h and 19h whose generic events differ from the
 * rest of their family, by the ranges the kernel sets X86_FEATURE_ZEN1,
 * ZEN2 and ZEN4 on (arch/x86/kernel/cpu/amd.c); Zen 3 and family 19h
 * models outside the list have Zen's plain events, and from family 1Ah on
 * every model has Zen 4's.
 */
struct zen_models {
	u8 family;
	u8 first;
	u8 last;
	u8 zen;
};

static const struct zen_models zen_models[] = {
	{ 0x17, 0x00, 0x2f, 1 }, { 0x17, 0x50, 0x5f, 1 },
	{ 0x17, 0x30, 0x4f, 2 }, { 0x17, 0x60, 0x7f, 2 },
	{ 0x17, 0x90, 0x91, 2 }, { 0x17, 0xa0, 0xaf, 2 },
	{ 0x19, 0x10, 0x1f, 4 }, { 0x19, 0x60, 0xaf, 4 },
};

/* 1, 2 or 4; 0 before family 17h and for models outside the list */
static unsigned int zen_generation(const struct x86_core_desc *desc)
{
	unsigned int i;

	if (desc->family >= 0x1a)
		return 4;
	for (i = 0; i < ARRAY_SIZE(zen_models); i++)
		if (zen_models[i].family == desc->family &&
		    desc->model >= zen_models[i].first &&
		    desc->model <= zen_models[i].last)
			return zen_models[i].zen;
	return 0;
}

static bool arch_event_available(const struct x86_core_desc *desc, int arch)
{
	return arch >= 0 && arch < X86_ARCH_NR_EVENTS &&
	       !(desc->events_unavailable & BIT(arch));
}

static bool has_fixed(const struct x86_core_desc *desc, int fixed)
{
	return fixed >= 0 && (desc->fixed_mask & BIT(fixed));
}

/*
 * An Intel generic event: the architectural encoding where EBX offers it
 * (a general-purpose counter or the fixed counter will count it), else the
 * fixed counter's pseudo-encoding where the counter exists.
 */
static int intel_generic(const struct x86_core_desc *desc,
			 const struct intel_generic *g, u64 *evsel)
{
	if (arch_event_available(desc, g->arch)) {
		*evsel = intel_arch_events[g->arch];
		return 0;
	}
	if (has_fixed(desc, g->fixed)) {
		*evsel = X86_CORE_FIXED_PSEUDO(g->fixed);
		return 0;
	}
	return -ENOENT;
}

/* an AMD generic event's encoding, or NONE */
static u64 amd_generic(const struct x86_core_desc *desc, u64 config)
{
	unsigned int zen = zen_generation(desc);

	if (!zen && desc->family < 0x19)
		return amd_legacy_hw_map[config];
	if (zen == 1 && config == PERF_COUNT_HW_STALLED_CYCLES_FRONTEND)
		return EVSEL(0x87, 0x02);
	if (zen == 1 && config == PERF_COUNT_HW_STALLED_CYCLES_BACKEND)
		return EVSEL(0x87, 0x01);
	if (zen >= 4 && config == PERF_COUNT_HW_REF_CPU_CYCLES)
		return EVSEL(0x20, 0x01) | BIT_ULL(32);	/* event 0x120 */
	return amd_zen_hw_map[config];
}

/**
 * x86_core_map_hw_event - the counter control value of a generic event
 * @desc: the PMU
 * @config: the PERF_TYPE_HARDWARE config, extended type stripped
 * @evsel: the event select and unit mask bits, on success
 *
 * Return: 0; -EINVAL for no generic event; -ENOENT where the CPU cannot
 * count it.
 */
int x86_core_map_hw_event(const struct x86_core_desc *desc, u64 config,
			  u64 *evsel)
{
	u64 val;

	if (config >= PERF_COUNT_HW_MAX)
		return -EINVAL;
	/* a user's config: no speculative read past the tables either */
	config = array_index_nospec(config, PERF_COUNT_HW_MAX);
	switch (desc->vendor) {
	case X86_CORE_INTEL:
		/* where 0x013c counts at the TSC rate, it is ref-cycles */
		if (config == PERF_COUNT_HW_REF_CPU_CYCLES && desc->intel_model &&
		    desc->intel_model->ref_cycles_p &&
		    arch_event_available(desc, X86_ARCH_REF_CYCLES)) {
			*evsel = intel_arch_events[X86_ARCH_REF_CYCLES];
			return 0;
		}
		return intel_generic(desc, &intel_hw_map[config], evsel);
	case X86_CORE_AMD:
		val = amd_generic(desc, config);
		if (val == NONE)
			return -ENOENT;
		*evsel = val;
		return 0;
	default:
		return -ENOENT;
	}
}

/*
 * Cache events on Intel.  Of the architectural events only the last-level
 * cache references and misses (core requests that look the line up in the
 * LLC) and retired (mispredicted) branches can stand for a cache event:
 * they are taken as reads of the LL cache and of the branch predictor.
 */
struct cache_read {
	u64 access;
	u64 miss;
};

static const struct cache_read intel_cache_read[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D]  = { NONE, NONE },
	[PERF_COUNT_HW_CACHE_L1I]  = { NONE, NONE },
	[PERF_COUNT_HW_CACHE_LL]   = { X86_ARCH_LLC_REFERENCES, X86_ARCH_LLC_MISSES },
	[PERF_COUNT_HW_CACHE_DTLB] = { NONE, NONE },
	[PERF_COUNT_HW_CACHE_ITLB] = { NONE, NONE },
	[PERF_COUNT_HW_CACHE_BPU]  = { X86_ARCH_BRANCHES, X86_ARCH_BRANCH_MISSES },
	[PERF_COUNT_HW_CACHE_NODE] = { NONE, NONE },
};

static_assert(ARRAY_SIZE(intel_hw_map) == PERF_COUNT_HW_MAX);
static_assert(ARRAY_SIZE(intel_cache_read) == PERF_COUNT_HW_CACHE_MAX);

/**
 * x86_cache_find - the entry of a table of cache events for a triple
 * @ev: the table
 * @n: its entries
 * @cache: PERF_COUNT_HW_CACHE_*
 * @op: PERF_COUNT_HW_CACHE_OP_*
 * @result: PERF_COUNT_HW_CACHE_RESULT_*
 *
 * Return: the entry, or NULL where the table lists none.
 */
const struct x86_cache_event *x86_cache_find(const struct x86_cache_event *ev,
					     unsigned int n, unsigned int cache,
					     unsigned int op,
					     unsigned int result)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (ev[i].cache == cache && ev[i].op == op &&
		    ev[i].result == result)
			return &ev[i];
	return NULL;
}

/*
 * Cache events on AMD: the (cache, op, result) triples that have an event,
 * each with its encoding; a triple not listed has none.
 */
#define CE(c, o, r, evsel)						\
	{ PERF_COUNT_HW_CACHE_##c, PERF_COUNT_HW_CACHE_OP_##o,		\
	  PERF_COUNT_HW_CACHE_RESULT_##r, evsel }

/*
 * Families 0Fh to 16h (BKDGs): data cache accesses and misses, and the
 * data prefetcher's attempts and cancels; instruction cache fetches and
 * misses, and load prefetch instructions dispatched; L2 requests and
 * misses of instruction and data fills, and L2 fills with writebacks;
 * the DTLB as data cache accesses against misses of both TLB levels (all
 * page sizes), the ITLB as instruction fetches against misses of both
 * levels; retired and mispredicted branches; memory requests of the
 * local node (to local memory, and the part of them that are not
 * cache-coherent reads).
 */
static const struct x86_cache_event amd_legacy_cache[] = {
	CE(L1D, READ, ACCESS, EVSEL(0x40, 0x00)),
	CE(L1D, READ, MISS, EVSEL(0x41, 0x01)),
	CE(L1D, PREFETCH, ACCESS, EVSEL(0x67, 0x02)),
	CE(L1D, PREFETCH, MISS, EVSEL(0x67, 0x01)),
	CE(L1I, READ, ACCESS, EVSEL(0x80, 0x00)),
	CE(L1I, READ, MISS, EVSEL(0x81, 0x00)),
	CE(L1I, PREFETCH, ACCESS, EVSEL(0x4b, 0x01)),
	CE(LL, READ, ACCESS, EVSEL(0x7d, 0x03)),
	CE(LL, READ, MISS, EVSEL(0x7e, 0x03)),
	CE(LL, WRITE, ACCESS, EVSEL(0x7f, 0x01)),
	CE(DTLB, READ, ACCESS, EVSEL(0x40, 0x00)),
	CE(DTLB, READ, MISS, EVSEL(0x46, 0x07)),
	CE(ITLB, READ, ACCESS, EVSEL(0x80, 0x00)),
	CE(ITLB, READ, MISS, EVSEL(0x85, 0x03)),
	CE(BPU, READ, ACCESS, EVSEL(0xc2, 0x00)),
	CE(BPU, READ, MISS, EVSEL(0xc3, 0x00)),
	CE(NODE, READ, ACCESS, EVSEL(0xe9, 0xb8)),
	CE(NODE, READ, MISS, EVSEL(0xe9, 0x98)),
};

/*
 * Family 17h and later (PPRs): data cache accesses, and the L2 requests
 * of data cache misses (L2RequestG1: reads, stores and changes to
 * writable); software prefetches dispatched; instruction cache fetches
 * and misses (32-byte windows); the L1 DTLB misses, of every page size
 * and of those the L2 TLB also missed; the L1 ITLB misses that hit and
 * that missed the L2 TLB; retired and mispredicted branches.  The L2 and
 * the node have no core event here.
 */
static const struct x86_cache_event amd_zen_cache[] = {
	CE(L1D, READ, ACCESS, EVSEL(0x40, 0x00)),
	CE(L1D, READ, MISS, EVSEL(0x60, 0xc8)),
	CE(L1D, PREFETCH, ACCESS, EVSEL(0x5a, 0xff)),
	CE(L1I, READ, ACCESS, EVSEL(0x80, 0x00)),
	CE(L1I, READ, MISS, EVSEL(0x81, 0x00)),
	CE(DTLB, READ, ACCESS, EVSEL(0x45, 0xff)),
	CE(DTLB, READ, MISS, EVSEL(0x45, 0xf0)),
	CE(ITLB, READ, ACCESS, EVSEL(0x84, 0x00)),
	CE(ITLB, READ, MISS, EVSEL(0x85, 0xff)),
	CE(BPU, READ, ACCESS, EVSEL(0xc2, 0x00)),
	CE(BPU, READ, MISS, EVSEL(0xc3, 0x00)),
};

/*
 * AMD's cache ops that no event can ever count, on every family: the
 * instruction cache is not written, the instruction TLB and the branch
 * predictor are neither written nor prefetched, and the node's memory
 * requests are counted as reads only.  These are invalid (-EINVAL), where
 * a combination without an event is -ENOENT.
 */
static bool amd_no_op(unsigned int cache, unsigned int op)
{
	switch (cache) {
	case PERF_COUNT_HW_CACHE_L1I:
		return op == PERF_COUNT_HW_CACHE_OP_WRITE;
	case PERF_COUNT_HW_CACHE_ITLB:
	case PERF_COUNT_HW_CACHE_BPU:
	case PERF_COUNT_HW_CACHE_NODE:
		return op != PERF_COUNT_HW_CACHE_OP_READ;
	default:
		return false;
	}
}

static int amd_cache(const struct x86_core_desc *desc, unsigned int cache,
		     unsigned int op, unsigned int result, u64 *evsel)
{
	const struct x86_cache_event *ev;

	if (amd_no_op(cache, op))
		return -EINVAL;
	if (desc->family >= AMD_FAMILY_ZEN)
		ev = x86_cache_find(amd_zen_cache, ARRAY_SIZE(amd_zen_cache),
				    cache, op, result);
	else
		ev = x86_cache_find(amd_legacy_cache,
				    ARRAY_SIZE(amd_legacy_cache), cache, op,
				    result);
	if (!ev)
		return -ENOENT;
	*evsel = ev->evsel;
	return 0;
}

/* a cache event of an Intel model's table */
static int intel_model_cache(const struct x86_core_desc *desc,
			     unsigned int cache, unsigned int op,
			     unsigned int result, u64 *evsel, u64 *extra)
{
	const struct x86_cache_event *ev =
		x86_intel_model_cache(desc->intel_model, cache, op, result);

	if (!ev)
		return -ENOENT;
	if (ev->evsel == X86_CACHE_INVALID)
		return -EINVAL;
	*evsel = ev->evsel;
	if (extra)
		*extra = ev->extra;
	return 0;
}

/**
 * x86_core_map_cache_event - the counter control value of a cache event
 * @desc: the PMU
 * @config: cache | op << 8 | result << 16, extended type stripped
 * @evsel: the event select and unit mask bits, on success
 * @extra: where not NULL, the value the event takes from an extra register
 *	(the offcore response mask of an LL or node event), else 0, on
 *	success
 *
 * Return: 0; -EINVAL for a type, op or result out of range, or an op that
 * makes no sense for the cache (AMD, and the Intel models with a table);
 * -ENOENT for a combination the CPU has no event for.
 */
int x86_core_map_cache_event(const struct x86_core_desc *desc, u64 config,
			     u64 *evsel, u64 *extra)
{
	unsigned int cache = config & 0xff;
	unsigned int op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff;
	const struct cache_read *row;
	u64 val;

	if (cache >= PERF_COUNT_HW_CACHE_MAX ||
	    op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		return -EINVAL;
	cache = array_index_nospec(cache, PERF_COUNT_HW_CACHE_MAX);
	op = array_index_nospec(op, PERF_COUNT_HW_CACHE_OP_MAX);
	result = array_index_nospec(result, PERF_COUNT_HW_CACHE_RESULT_MAX);
	if (extra)
		*extra = 0;
	switch (desc->vendor) {
	case X86_CORE_INTEL:
		if (desc->intel_model)
			return intel_model_cache(desc, cache, op, result, evsel,
						 extra);
		if (op != PERF_COUNT_HW_CACHE_OP_READ)
			return -ENOENT;
		row = &intel_cache_read[cache];
		val = result == PERF_COUNT_HW_CACHE_RESULT_ACCESS ? row->access :
								    row->miss;
		if (val == NONE || !arch_event_available(desc, (int)val))
			return -ENOENT;
		*evsel = intel_arch_events[val];
		return 0;
	case X86_CORE_AMD:
		return amd_cache(desc, cache, op, result, evsel);
	default:
		return -ENOENT;
	}
}

/*
 * The counter control bits that the driver owns: it sets them from the
 * exclusion attributes and from sampling, whatever a raw config says.
 */
#define DRIVER_BITS	(ARCH_PERFMON_EVENTSEL_USR | ARCH_PERFMON_EVENTSEL_OS | \
			 ARCH_PERFMON_EVENTSEL_INT | ARCH_PERFMON_EVENTSEL_ENABLE)

/*
 * The raw bits that reach the counter control (SDM PERFEVTSEL, APM
 * PERF_CTL); a raw config's other bits are ignored, as Linux always has.
 * Not PIN_CONTROL: the PMi pins are the platform's, not a counting
 * event's.  Not AMD's HostOnly and GuestOnly: the driver sets them from
 * the exclusion attributes.
 */
static u64 raw_valid(const struct x86_core_desc *desc)
{
	u64 valid = X86_RAW_EVENT_MASK | DRIVER_BITS;

	if (desc->vendor == X86_CORE_AMD)
		return valid | AMD64_EVENTSEL_EVENT;
	/*
	 * AnyThread: versions 3 and later, and still passed on once CPUID
	 * 0xA EDX[15] deprecates it (stock programs it on the emulated Ice
	 * Lake-SP and Sapphire Rapids, where format/any is hidden)
	 */
	if (desc->version >= 3)
		valid |= ARCH_PERFMON_EVENTSEL_ANY;
	return valid;
}

/**
 * x86_core_check_raw - check a raw config
 * @desc: the PMU
 * @config: attr.config of a PERF_TYPE_RAW (or the PMU's own type) event
 * @evsel: the config without the driver's bits, on success
 *
 * Bits that do not reach the counter control are dropped, as Linux drops
 * them; AnyThread (bit 21) on Intel is not one of those: it is refused
 * where the CPU has none.
 *
 * Return: 0, or -EINVAL for AnyThread where the CPU has none, a fixed
 * counter's pseudo-encoding that names no fixed counter or carries bits
 * a fixed counter cannot apply, a topdown event the PMU does not have
 * (topdown.c), or no PMU.
 */
int x86_core_check_raw(const struct x86_core_desc *desc, u64 config, u64 *evsel)
{
	u64 code = config & INTEL_ARCH_EVENT_MASK, valid;
	unsigned int fixed;

	if (desc->vendor == X86_CORE_NONE)
		return -EINVAL;
	valid = raw_valid(desc);
	if (desc->vendor == X86_CORE_INTEL &&
	    (config & ~valid & ARCH_PERFMON_EVENTSEL_ANY))
		return -EINVAL;
	config &= valid;
	switch (desc->vendor == X86_CORE_INTEL ? x86_topdown_code(desc, code) :
						 X86_TD_NONE) {
	case X86_TD_FIXED:
		fixed = (code >> 8) - 1;
		if (!has_fixed(desc, fixed) || (config & X86_CORE_FIXED_CANNOT))
			return -EINVAL;
		break;
	case X86_TD_METRIC:
		/* a share of the slots: no control bits of its own */
		if (config & X86_CORE_FIXED_CANNOT)
			return -EINVAL;
		break;
	case X86_TD_INVALID:
		return -EINVAL;
	default:
		break;
	}
	*evsel = config & ~DRIVER_BITS;
	return 0;
}

/**
 * x86_core_filter_bits - the control bits for @attr's exclusions
 * @desc: the PMU
 * @attr: the event's attributes
 *
 * USR and OS count the rings the event does not exclude.  On AMD, an
 * event that excludes the guest counts in the host only (HostOnly), one
 * that excludes the host in guests only (GuestOnly).  Intel leaves guests
 * to KVM, which switches the counters at VM entry.
 */
u64 x86_core_filter_bits(const struct x86_core_desc *desc,
			 const struct perf_event_attr *attr)
{
	u64 bits = 0;

	if (!attr->exclude_user)
		bits |= ARCH_PERFMON_EVENTSEL_USR;
	if (!attr->exclude_kernel)
		bits |= ARCH_PERFMON_EVENTSEL_OS;
	if (desc->vendor == X86_CORE_AMD) {
		if (attr->exclude_guest && !attr->exclude_host)
			bits |= AMD64_EVENTSEL_HOSTONLY;
		if (attr->exclude_host && !attr->exclude_guest)
			bits |= AMD64_EVENTSEL_GUESTONLY;
	}
	return bits;
}

/*
 * The event select of @event, from its type and config, and the mask an
 * event takes from an extra register (a raw event's is its config1).
 */
static int event_evsel(struct x86_core_pmu *core, struct perf_event *event,
		       u64 *evsel, u64 *extra)
{
	const struct perf_event_attr *attr = &event->attr;

	*extra = 0;
	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
		return x86_core_map_hw_event(&core->desc,
					     attr->config & PERF_HW_EVENT_MASK,
					     evsel);
	case PERF_TYPE_HW_CACHE:
		return x86_core_map_cache_event(&core->desc,
						attr->config & PERF_HW_EVENT_MASK,
						evsel, extra);
	default:
		*extra = attr->config1;
		return x86_core_check_raw(&core->desc, attr->config, evsel);
	}
}

/* Is @attr's type one the core PMU answers for? */
static bool event_is_ours(const struct x86_core_pmu *core,
			  const struct perf_event_attr *attr)
{
	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
	case PERF_TYPE_RAW:
		return true;
	default:
		return core->pmu && attr->type == core->pmu->type;
	}
}

/*
 * A frequency event starts at period 1 and the core raises the period as
 * it measures the rate.  On Intel, where the PMI is an NMI and a counter
 * armed at 1 overflows again as soon as the handler re-enables it, the
 * event starts instead half way to the period of an event counting one
 * per nanosecond (5e8 / freq: the first samples Linux's Intel driver
 * takes), and the core corrects it from there.  AMD's start at 1.
 */
static void start_freq_period(const struct x86_core_pmu *core,
			      struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 freq = event->attr.sample_freq;

	if (core->desc.vendor != X86_CORE_INTEL || !event->attr.freq || !freq ||
	    hwc->sample_period != 1)
		return;
	hwc->sample_period = max_t(u64, 1, div64_u64(NSEC_PER_SEC / 2, freq));
	hwc->last_period = hwc->sample_period;
	local64_set(&hwc->period_left, hwc->sample_period);
}

/* Sapphire Rapids' load latency and the event it is grouped behind */
#define LD_LAT_EVENT		0x01cdULL
#define MEM_LOADS_AUX_EVENT	0x8203ULL

/*
 * On a model with mem-loads-aux, load latency's data source comes only
 * with that event as the group's leader: ENODATA otherwise, as stock.
 */
static int check_mem_loads_aux(const struct x86_core_pmu *core,
			       struct perf_event *event, u64 evsel)
{
	const struct x86_intel_model *model = core->desc.intel_model;
	struct perf_event *leader = event->group_leader;

	if (!model || !model->mem_loads_aux ||
	    (evsel & INTEL_ARCH_EVENT_MASK) != LD_LAT_EVENT ||
	    !(event->attr.sample_type & PERF_SAMPLE_DATA_SRC))
		return 0;
	if (leader != event && leader->pmu == event->pmu &&
	    (leader->hw.config & INTEL_ARCH_EVENT_MASK) == MEM_LOADS_AUX_EVENT)
		return 0;
	return -ENODATA;
}

/**
 * x86_core_event_init - accept an event for the core PMU
 * @core: the PMU
 * @event: the event, not yet visible to anyone else
 *
 * Fills hw.config (the counter control value without EN and INT), hw.idx
 * (-1, no counter yet) and the period, and checks that the event's group
 * can ever be on the counters at once.
 *
 * Return: 0; -ENOENT for an event that is not the core PMU's or that the
 * CPU cannot count; -EOPNOTSUPP for a precise_ip beyond the PMU's (none
 * without PEBS or IBS), checked first, or a branch stack the CPU cannot
 * record (no LBR: on AMD without LbrExtV2 before the config is decoded,
 * else after); -EINVAL for a bad config, both host and guest excluded on AMD,
 * XMM registers to sample, Intel's branch counters, a precise event that
 * does not sample, or a group that can never fit; -EACCES for AnyThread
 * without the right to watch the whole CPU; -ENODATA for load latency's
 * data source without mem-loads-aux leading its group (Sapphire Rapids);
 * -ENOMEM.
 */
int x86_core_event_init(struct x86_core_pmu *core, struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;
	u64 evsel, extra;
	int ret;

	if (!event_is_ours(core, attr))
		return -ENOENT;
	/*
	 * What the hardware lacks is refused before the event is decoded:
	 * a skid level beyond what PEBS gives (none without PEBS), and on
	 * AMD a branch stack without LbrExtV2, whatever the config.
	 */
	if (attr->precise_ip > core->desc.max_precise)
		return -EOPNOTSUPP;
	if (core->desc.vendor == X86_CORE_AMD && !core->desc.lbr_nr &&
	    has_branch_stack(event))
		return -EOPNOTSUPP;
	ret = event_evsel(core, event, &evsel, &extra) ?:
	      x86_extra_event_init(&core->desc, event, evsel, extra);
	if (ret)
		return ret;
	/*
	 * AnyThread counts the sibling hyperthread too, whoever runs there:
	 * what a CPU-wide event may see, so it takes the same right.
	 */
	if (evsel & ARCH_PERFMON_EVENTSEL_ANY) {
		ret = perf_allow_cpu();
		if (ret)
			return ret;
	}
	/*
	 * A branch stack from the last branch records (intel_lbr.c), where
	 * the model has them; Intel's branch counters (the counts of the
	 * events of the group beside each branch record) come with
	 * architectural LBR on CPUs no model of ours drives: asking for them
	 * is a bad request, whereas any other branch stack is merely one
	 * this PMU cannot take.
	 */
	hwc->branch_reg.reg = 0;
	if (has_branch_stack(event)) {
		ret = x86_lbr_event_init(&core->desc, event);
		if (ret)
			goto fail;
	}
	/* the XMM registers come only in adaptive PEBS records (format 4) */
	ret = -EINVAL;
	if ((attr->sample_regs_user | attr->sample_regs_intr) &
	    PERF_REG_EXTENDED_MASK)
		goto fail;
	if (core->desc.vendor == X86_CORE_AMD && attr->exclude_host &&
	    attr->exclude_guest)
		goto fail;
	ret = check_mem_loads_aux(core, event, evsel);
	if (ret)
		goto fail;
	hwc->config = evsel | x86_core_filter_bits(&core->desc, attr);
	hwc->idx = -1;
	hwc->flags = 0;
	/*
	 * KVM's guest LBR event: the LBRs for the guest, whose own filter
	 * LBR_SELECT holds (0 from the host); it counts nothing.
	 */
	if (core->desc.vendor == X86_CORE_INTEL && core->desc.lbr_nr &&
	    (evsel & INTEL_ARCH_EVENT_MASK) == INTEL_FIXED_VLBR_EVENT) {
		hwc->flags |= X86_CORE_FLAG_VLBR;
		hwc->branch_reg.config = 0;
	}
	ret = x86_topdown_event_init(core, event);
	if (!ret && attr->precise_ip)
		ret = x86_pebs_event_init(core, event);
	if (ret)
		goto fail;
	start_freq_period(core, event);
	perf_counter_init_period(event, core->max_period);
	ret = x86_core_validate_group(core, event);
	if (ret)
		goto fail;
	return 0;

fail:
	/* what the LBR or PEBS took for the event: the core calls no destroy */
	if (event->destroy) {
		event->destroy(event);
		event->destroy = NULL;
	}
	return ret;
}
