// SPDX-License-Identifier: GPL-2.0
/*
 * The Intel model layer of the cpu driver: what it knows of a model beyond
 * what CPUID says.  A model is found by its family 6 model number (CPUID 1
 * EAX); the models of one microarchitecture share a table.  Each table
 * gives the name the boot log and caps/pmu_name use, and the model's cache
 * events (SDM vol. 3B and the model's perfmon event list, which name and
 * describe the events; the encodings, event select and unit mask, are
 * theirs).  The counters each event may use come from intel_counters.c,
 * generated from the same event lists.
 *
 * A model without a table is driven as CPUID describes it, as before
 * (generic architected perfmon).  A hybrid model (struct x86_intel_hybrid)
 * has a table for each of its core types, and each type a PMU of its own
 * (pmu.c): CPUID 0xA gives the counters both types have, the model says
 * what each type has beyond them.
 *
 * Constant tables, pure functions: no locking.
 */
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>

#include "cpu_pmu.h"

#define CE(c, o, r, e)							\
	{ PERF_COUNT_HW_CACHE_##c, PERF_COUNT_HW_CACHE_OP_##o,		\
	  PERF_COUNT_HW_CACHE_RESULT_##r, e }
#define OCR(c, o, r, e, mask)						\
	{ PERF_COUNT_HW_CACHE_##c, PERF_COUNT_HW_CACHE_OP_##o,		\
	  PERF_COUNT_HW_CACHE_RESULT_##r, e, mask }
#define BAD		X86_CACHE_INVALID

/*
 * Skylake (client and server), and the Kaby, Coffee and Comet Lake parts
 * of its core; Ice Lake, Tiger Lake and Rocket Lake share them.  L1D:
 * loads and stores retired (MEM_INST_RETIRED.ALL_LOADS, _STORES), lines
 * brought in (L1D.REPLACEMENT) for load misses; L1I:
 * ICACHE_64B.IFTAG_MISS; LL and node: offcore responses (OCR event 0xb7
 * with OFFCORE_RSP_0) of demand data reads and RFOs that the L3 supplied
 * or that missed it, and that a local or a remote DRAM supplied; DTLB:
 * loads and stores retired, and completed page walks of loads
 * (DTLB_LOAD_MISSES.WALK_COMPLETED) and of stores; ITLB: walks completed
 * for misses; BPU: branches retired and mispredicted.  Instruction cache
 * writes, ITLB and branch predictor writes and prefetches make no sense.
 */
static const struct x86_cache_event skylake_cache_base[] = {
	CE(L1D, READ, ACCESS, 0x81d0),
	CE(L1D, READ, MISS, 0x0151),
	CE(L1D, WRITE, ACCESS, 0x82d0),
	CE(L1I, READ, MISS, 0x0283),
	CE(L1I, WRITE, ACCESS, BAD),
	CE(L1I, WRITE, MISS, BAD),
	OCR(LL, READ, ACCESS, 0x01b7, 0x3fc0010001ULL),
	OCR(LL, READ, MISS, 0x01b7, 0x3ffc020001ULL),
	OCR(LL, WRITE, ACCESS, 0x01b7, 0x3fc0010002ULL),
	OCR(LL, WRITE, MISS, 0x01b7, 0x3ffc020002ULL),
	CE(DTLB, READ, ACCESS, 0x81d0),
	CE(DTLB, READ, MISS, 0x0e08),
	CE(DTLB, WRITE, ACCESS, 0x82d0),
	CE(DTLB, WRITE, MISS, 0x0e49),
	CE(ITLB, READ, MISS, 0x0e85),
	CE(ITLB, WRITE, ACCESS, BAD),
	CE(ITLB, WRITE, MISS, BAD),
	CE(ITLB, PREFETCH, ACCESS, BAD),
	CE(ITLB, PREFETCH, MISS, BAD),
	CE(BPU, READ, ACCESS, 0x00c4),
	CE(BPU, READ, MISS, 0x00c5),
	CE(BPU, WRITE, ACCESS, BAD),
	CE(BPU, WRITE, MISS, BAD),
	CE(BPU, PREFETCH, ACCESS, BAD),
	CE(BPU, PREFETCH, MISS, BAD),
	OCR(NODE, READ, ACCESS, 0x01b7, 0x1fc4000001ULL),
	OCR(NODE, READ, MISS, 0x01b7, 0x1ff8000001ULL),
	OCR(NODE, WRITE, ACCESS, 0x01b7, 0x1fc4000002ULL),
	OCR(NODE, WRITE, MISS, 0x01b7, 0x1ff8000002ULL),
};

/* Skylake: ITLB accesses as ITLB_MISSES.STLB_HIT's unit mask 0x20 */
static const struct x86_cache_event skylake_cache[] = {
	CE(ITLB, READ, ACCESS, 0x2085),
};

/* Ice Lake: no event for ITLB accesses, and none can stand for them */
static const struct x86_cache_event icelake_cache[] = {
	CE(ITLB, READ, ACCESS, BAD),
};

/*
 * Sapphire Rapids and Emerald Rapids (Golden Cove cores): L1D load
 * misses as demand data reads of the L2 (L2_RQSTS.ALL_DEMAND_DATA_RD),
 * L1I misses as its code reads (L2_RQSTS.ALL_CODE_RD); LL and node
 * through OCR event 0x2a and OFFCORE_RSP_0, with this part's supplier
 * bits, and no node write events; the TLBs' completed walks at their
 * new unit masks; the branch predictor as conditional branches retired
 * and mispredicted (unit mask 4 of events 0xc4 and 0xc5).
 */
static const struct x86_cache_event sapphire_rapids_cache[] = {
	CE(L1D, READ, ACCESS, 0x81d0),
	CE(L1D, READ, MISS, 0xe124),
	CE(L1D, WRITE, ACCESS, 0x82d0),
	CE(L1I, READ, MISS, 0xe424),
	CE(L1I, WRITE, ACCESS, BAD),
	CE(L1I, WRITE, MISS, BAD),
	OCR(LL, READ, ACCESS, 0x012a, 0x10001ULL),
	OCR(LL, READ, MISS, 0x012a, 0x3fbfc00001ULL),
	OCR(LL, WRITE, ACCESS, 0x012a, 0x3f3ffc0002ULL),
	OCR(LL, WRITE, MISS, 0x012a, 0x3f3fc00002ULL),
	CE(DTLB, READ, ACCESS, 0x81d0),
	CE(DTLB, READ, MISS, 0x0e12),
	CE(DTLB, WRITE, ACCESS, 0x82d0),
	CE(DTLB, WRITE, MISS, 0x0e13),
	CE(ITLB, READ, ACCESS, BAD),
	CE(ITLB, READ, MISS, 0x0e11),
	CE(ITLB, WRITE, ACCESS, BAD),
	CE(ITLB, WRITE, MISS, BAD),
	CE(ITLB, PREFETCH, ACCESS, BAD),
	CE(ITLB, PREFETCH, MISS, BAD),
	CE(BPU, READ, ACCESS, 0x04c4),
	CE(BPU, READ, MISS, 0x04c5),
	CE(BPU, WRITE, ACCESS, BAD),
	CE(BPU, WRITE, MISS, BAD),
	CE(BPU, PREFETCH, ACCESS, BAD),
	CE(BPU, PREFETCH, MISS, BAD),
	OCR(NODE, READ, ACCESS, 0x012a, 0x10c000001ULL),
	OCR(NODE, READ, MISS, 0x012a, 0x3fb3000001ULL),
};

/*
 * The events of each model that take a value from an extra register, and
 * the bits of it each takes: as stock's driver answers on the emulated
 * models (make encodings: every config1 bit of each front-end event).
 */
#define XE(c, r, v)	{ .code = (c), .reg = X86_XREG_##r, .valid = (v) }
#define RSP_VALID	GENMASK_ULL(37, 0)
#define LDLAT_VALID	GENMASK_ULL(15, 0)

static const struct x86_extra_event skylake_extra[] = {
	XE(0x01b7, RSP_0, RSP_VALID),
	XE(0x01bb, RSP_1, RSP_VALID),
	XE(0x01cd, LDLAT, LDLAT_VALID),
	XE(0x01c6, FRONTEND, 0x7fff17),
};

static const struct x86_extra_event sapphire_rapids_extra[] = {
	XE(0x012a, RSP_0, RSP_VALID),
	XE(0x012b, RSP_1, RSP_VALID),
	XE(0x01cd, LDLAT, LDLAT_VALID),
	XE(0x01c6, FRONTEND, 0x7fff1f),
	XE(0x40ad, FRONTEND, 0x07),
	XE(0x04c2, FRONTEND, 0x08),
};

/* Redwood Cove: FRONTEND_RETIRED is 0x03c6, 0x02c6 reads the register too */
static const struct x86_extra_event granite_rapids_extra[] = {
	XE(0x012a, RSP_0, RSP_VALID),
	XE(0x012b, RSP_1, RSP_VALID),
	XE(0x01cd, LDLAT, LDLAT_VALID),
	XE(0x02c6, FRONTEND, 0x09),
	XE(0x03c6, FRONTEND, 0x7fff1f),
	XE(0x40ad, FRONTEND, 0x07),
	XE(0x04c2, FRONTEND, 0x08),
};

static const struct x86_intel_model skylake = {
	.name = "Skylake", .pmu_name = "skylake",
	.cache = skylake_cache, .nr_cache = ARRAY_SIZE(skylake_cache),
	.cache_base = skylake_cache_base,
	.nr_cache_base = ARRAY_SIZE(skylake_cache_base),
	.extra = skylake_extra, .nr_extra = ARRAY_SIZE(skylake_extra),
	.topdown_events = true,
	.lbr_nr = 32,
	.pebs = 3,
};

static const struct x86_intel_model icelake = {
	.name = "Icelake", .pmu_name = "icelake",
	.cache = icelake_cache, .nr_cache = ARRAY_SIZE(icelake_cache),
	.cache_base = skylake_cache_base,
	.nr_cache_base = ARRAY_SIZE(skylake_cache_base),
	.extra = skylake_extra, .nr_extra = ARRAY_SIZE(skylake_extra),
	.metrics = 4,
	.prec_dist_fixed = true,
	.lbr_nr = 32,
	.pebs = 4,
};

static const struct x86_intel_model sapphire_rapids = {
	.name = "Sapphire Rapids", .pmu_name = "sapphire_rapids",
	.cache = sapphire_rapids_cache,
	.nr_cache = ARRAY_SIZE(sapphire_rapids_cache),
	.extra = sapphire_rapids_extra,
	.nr_extra = ARRAY_SIZE(sapphire_rapids_extra),
	.metrics = 8, .ref_cycles_p = true, .mem_loads_aux = true,
	.pebs = 4, .pebs_pdist_gp0 = true,
	.mem_stores = "event=0xcd,umask=0x2",
};

/*
 * Granite Rapids (Redwood Cove cores): Sapphire Rapids' events, but for
 * the front-end ones (stock's driver on the emulated part writes nothing
 * to PEBS_FRONTEND for 0x01c6 with a config1, and the value for 0x03c6).
 */
static const struct x86_intel_model granite_rapids = {
	.name = "Granite Rapids", .pmu_name = "granite_rapids",
	.cache = sapphire_rapids_cache,
	.nr_cache = ARRAY_SIZE(sapphire_rapids_cache),
	.extra = granite_rapids_extra,
	.nr_extra = ARRAY_SIZE(granite_rapids_extra),
	.metrics = 8, .ref_cycles_p = true,
};

/*
 * Gracemont, the E-cores of Alder Lake and Raptor Lake.  L1D: loads and
 * stores retired (MEM_UOPS_RETIRED.ALL_LOADS, _STORES), no event for
 * misses; L1I: instruction cache accesses and misses (ICACHE.ACCESSES,
 * .MISSES); LL: offcore responses (event 0xb7) of demand data reads and
 * RFOs, any supplier or an L3 miss; DTLB: loads and stores retired, and
 * completed walks of loads and of stores; ITLB: completed walks; BPU:
 * branches retired and mispredicted.  No node events.
 */
static const struct x86_cache_event gracemont_cache[] = {
	CE(L1D, READ, ACCESS, 0x81d0),
	CE(L1D, WRITE, ACCESS, 0x82d0),
	CE(L1I, READ, ACCESS, 0x0380),
	CE(L1I, READ, MISS, 0x0280),
	CE(L1I, WRITE, ACCESS, BAD),
	CE(L1I, WRITE, MISS, BAD),
	OCR(LL, READ, ACCESS, 0x01b7, 0x10001ULL),
	OCR(LL, READ, MISS, 0x01b7, 0x3f04000001ULL),
	OCR(LL, WRITE, ACCESS, 0x01b7, 0x10002ULL),
	OCR(LL, WRITE, MISS, 0x01b7, 0x3f04000002ULL),
	CE(DTLB, READ, ACCESS, 0x81d0),
	CE(DTLB, READ, MISS, 0x0e08),
	CE(DTLB, WRITE, ACCESS, 0x82d0),
	CE(DTLB, WRITE, MISS, 0x0e49),
	CE(ITLB, READ, ACCESS, BAD),
	CE(ITLB, READ, MISS, 0x0481),
	CE(ITLB, WRITE, ACCESS, BAD),
	CE(ITLB, WRITE, MISS, BAD),
	CE(ITLB, PREFETCH, ACCESS, BAD),
	CE(ITLB, PREFETCH, MISS, BAD),
	CE(BPU, READ, ACCESS, 0x00c4),
	CE(BPU, READ, MISS, 0x00c5),
	CE(BPU, WRITE, ACCESS, BAD),
	CE(BPU, WRITE, MISS, BAD),
	CE(BPU, PREFETCH, ACCESS, BAD),
	CE(BPU, PREFETCH, MISS, BAD),
};

/* Gracemont: the offcore responses at 0x01b7 and 0x02b7, load latency */
static const struct x86_extra_event gracemont_extra[] = {
	XE(0x01b7, RSP_0, RSP_VALID),
	XE(0x02b7, RSP_1, RSP_VALID),
	XE(0x05d0, LDLAT, LDLAT_VALID),
};

/*
 * Alder Lake's and Raptor Lake's P-cores (Golden Cove, as Sapphire
 * Rapids' cores): its events, its topdown with the level-2 metrics
 */
static const struct x86_intel_model alderlake_core = {
	.name = "Alderlake Hybrid", .pmu_name = "alderlake_hybrid",
	.cache = sapphire_rapids_cache,
	.nr_cache = ARRAY_SIZE(sapphire_rapids_cache),
	.extra = sapphire_rapids_extra,
	.nr_extra = ARRAY_SIZE(sapphire_rapids_extra),
	.metrics = 8, .ref_cycles_p = true, .mem_loads_aux = true,
	.mem_stores = "event=0xcd,umask=0x2",
};

/* ... and their E-cores: topdown's level 1 from general events */
static const struct x86_intel_model alderlake_atom = {
	.name = "Alderlake Hybrid", .pmu_name = "alderlake_hybrid",
	.cache = gracemont_cache, .nr_cache = ARRAY_SIZE(gracemont_cache),
	.extra = gracemont_extra, .nr_extra = ARRAY_SIZE(gracemont_extra),
	.ref_cycles_p = true, .atom_topdown = true,
	.mem_loads = "event=0xd0,umask=0x5,ldlat=3",
	.mem_stores = "event=0xd0,umask=0x6",
};

/*
 * struct x86_hybrid_type - one core type of a hybrid model
 * @core_type: its CPUs' CPUID 0x1A EAX[31:24]
 * @pmu: the name of its PMU
 * @model: its table
 * @more_gp: its general-purpose counters beyond CPUID 0xA's
 * @more_fixed: its fixed counters beyond CPUID 0xA's
 */
struct x86_hybrid_type {
	u8 core_type;
	const char *pmu;
	const struct x86_intel_model *model;
	u8 more_gp;
	u32 more_fixed;
};

/*
 * struct x86_intel_hybrid - a hybrid model: its core types, the first
 * the one whose PMU takes PERF_TYPE_RAW (as stock registers them)
 */
struct x86_intel_hybrid {
	struct x86_hybrid_type types[X86_HYBRID_TYPES];
};

/*
 * Crestmont: Gracemont's, the offcore responses taking every bit, and the
 * snoop responses of events 0x0127 and 0x0227
 */
static const struct x86_extra_event crestmont_extra[] = {
	XE(0x01b7, RSP_0, ~0ULL),
	XE(0x02b7, RSP_1, ~0ULL),
	XE(0x05d0, LDLAT, LDLAT_VALID),
	XE(0x0127, SNOOP_0, ~0ULL),
	XE(0x0227, SNOOP_1, ~0ULL),
};

/*
 * Meteor Lake's P-cores (Redwood Cove: Granite Rapids' front-end events,
 * no mem-loads-aux) and E-cores (Crestmont): otherwise Alder Lake's
 * events and topdown;
 * Crestmont's extra registers show a snoop response format too (sysfs.c)
 */
static const struct x86_intel_model meteorlake_core = {
	.name = "Meteorlake Hybrid", .pmu_name = "meteorlake_hybrid",
	.cache = sapphire_rapids_cache,
	.nr_cache = ARRAY_SIZE(sapphire_rapids_cache),
	.extra = granite_rapids_extra,
	.nr_extra = ARRAY_SIZE(granite_rapids_extra),
	.metrics = 8, .ref_cycles_p = true,
	.mem_stores = "event=0xcd,umask=0x2",
};

static const struct x86_intel_model meteorlake_atom = {
	.name = "Meteorlake Hybrid", .pmu_name = "meteorlake_hybrid",
	.cache = gracemont_cache, .nr_cache = ARRAY_SIZE(gracemont_cache),
	.extra = crestmont_extra, .nr_extra = ARRAY_SIZE(crestmont_extra),
	.ref_cycles_p = true, .atom_topdown = true, .snoop_rsp = true,
	.mem_loads = "event=0xd0,umask=0x5,ldlat=3",
	.mem_stores = "event=0xd0,umask=0x6",
};

/* Alder Lake, Raptor Lake: P-cores 8 + 4 counters, E-cores CPUID's 6 + 3 */
static const struct x86_intel_hybrid alderlake_hybrid = {
	.types = {
		{ X86_HYBRID_CORE, "cpu_core", &alderlake_core, 2, BIT(3) },
		{ X86_HYBRID_ATOM, "cpu_atom", &alderlake_atom, 0, 0 },
	},
};

/*
 * Meteor Lake: each type has CPUID 0xA's counters, as stock takes them
 * (not CPUID 0x23's: on the emulated part, where CPUID 0xA gives what both
 * types have, the P-cores' fixed counter 3 is not used, nor slots)
 */
static const struct x86_intel_hybrid meteorlake_hybrid = {
	.types = {
		{ X86_HYBRID_CORE, "cpu_core", &meteorlake_core, 0, 0 },
		{ X86_HYBRID_ATOM, "cpu_atom", &meteorlake_atom, 0, 0 },
	},
};

static const struct {
	u8 model;
	const struct x86_intel_hybrid *table;
} intel_hybrids[] = {
	{ VFM_MODEL(INTEL_ALDERLAKE),		&alderlake_hybrid },
	{ VFM_MODEL(INTEL_ALDERLAKE_L),		&alderlake_hybrid },
	{ VFM_MODEL(INTEL_RAPTORLAKE),		&alderlake_hybrid },
	{ VFM_MODEL(INTEL_RAPTORLAKE_P),	&alderlake_hybrid },
	{ VFM_MODEL(INTEL_RAPTORLAKE_S),	&alderlake_hybrid },
	{ VFM_MODEL(INTEL_METEORLAKE),		&meteorlake_hybrid },
	{ VFM_MODEL(INTEL_METEORLAKE_L),	&meteorlake_hybrid },
};

static const struct {
	u8 model;
	const struct x86_intel_model *table;
} intel_models[] = {
	{ VFM_MODEL(INTEL_SKYLAKE_L),		&skylake },
	{ VFM_MODEL(INTEL_SKYLAKE),		&skylake },
	{ VFM_MODEL(INTEL_SKYLAKE_X),		&skylake },
	{ VFM_MODEL(INTEL_KABYLAKE_L),		&skylake },
	{ VFM_MODEL(INTEL_KABYLAKE),		&skylake },
	{ VFM_MODEL(INTEL_COMETLAKE),		&skylake },
	{ VFM_MODEL(INTEL_COMETLAKE_L),		&skylake },
	{ VFM_MODEL(INTEL_ICELAKE_X),		&icelake },
	{ VFM_MODEL(INTEL_ICELAKE_D),		&icelake },
	{ VFM_MODEL(INTEL_ICELAKE),		&icelake },
	{ VFM_MODEL(INTEL_ICELAKE_L),		&icelake },
	{ VFM_MODEL(INTEL_TIGERLAKE_L),		&icelake },
	{ VFM_MODEL(INTEL_TIGERLAKE),		&icelake },
	{ VFM_MODEL(INTEL_ROCKETLAKE),		&icelake },
	{ VFM_MODEL(INTEL_SAPPHIRERAPIDS_X),	&sapphire_rapids },
	{ VFM_MODEL(INTEL_EMERALDRAPIDS_X),	&sapphire_rapids },
	{ VFM_MODEL(INTEL_GRANITERAPIDS_X),	&granite_rapids },
	{ VFM_MODEL(INTEL_GRANITERAPIDS_D),	&granite_rapids },
};

static const struct x86_intel_model *model_find(u8 model)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(intel_models); i++)
		if (intel_models[i].model == model)
			return intel_models[i].table;
	return NULL;
}

/* @model's rules (of core type @core_type on a hybrid model), or NULL */
static const struct x86_counter_rules *
counter_rules_find(u8 model, u8 core_type)
{
	const struct x86_counter_rules *r;

	for (r = x86_intel_counter_rules; r->rules; r++)
		if (r->model == model && r->core_type == core_type)
			return r;
	return NULL;
}

static const struct x86_intel_hybrid *hybrid_find(u8 model)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(intel_hybrids); i++)
		if (intel_hybrids[i].model == model)
			return intel_hybrids[i].table;
	return NULL;
}

/*
 * the topdown metrics of @desc: its model's, where PERF_CAPABILITIES says
 * PERF_METRICS (without fixed counter 3 no slots leader can be placed, so
 * no metric either: as stock, on the emulated Meteor Lake, lists and
 * enables them there)
 */
static u8 model_metrics(const struct x86_core_desc *desc)
{
	if (desc->intel_model &&
	    (desc->perf_capabilities & BIT_ULL(PERF_CAP_METRICS_IDX)))
		return desc->intel_model->metrics;
	return 0;
}

/**
 * x86_intel_model_detect - what the model layer knows of an Intel PMU
 * @hw: the hardware, to probe the extra registers
 * @desc: the PMU as CPUID describes it, family and model filled in;
 *	@intel_model, @counter_rules, @lbr_nr, @extra_regs and @metrics are
 *	set (NULL, NULL, 0, false and 0 for a model without a table); on a
 *	hybrid model it knows, @intel_hybrid, and the rest as for its first
 *	core type (x86_intel_hybrid_desc() gives each type's)
 */
void x86_intel_model_detect(const struct x86_hw *hw,
			    struct x86_core_desc *desc)
{
	if (desc->family != 6)
		return;
	if (desc->hybrid)
		desc->intel_hybrid = hybrid_find(desc->model);
	if (desc->intel_hybrid) {
		desc->intel_model = desc->intel_hybrid->types[0].model;
	} else {
		desc->intel_model = model_find(desc->model);
		desc->counter_rules = counter_rules_find(desc->model, 0);
	}
	x86_lbr_probe(hw, desc);
	desc->extra_regs = desc->intel_model && desc->intel_model->nr_extra &&
			   x86_extra_probe(hw, X86_XREGS_BASE);
	desc->snoop_regs = desc->intel_model &&
			   desc->intel_model->snoop_rsp &&
			   x86_extra_probe(hw, X86_XREGS_SNOOP);
	desc->metrics = model_metrics(desc);
}

/**
 * x86_intel_hybrid_types - how many core types a PMU description has
 * @boot: the boot CPU's description
 *
 * Return: X86_HYBRID_TYPES on a hybrid model the model layer knows, 1
 * on any other part (a PMU for every CPU).
 */
unsigned int x86_intel_hybrid_types(const struct x86_core_desc *boot)
{
	return boot->intel_hybrid ? X86_HYBRID_TYPES : 1;
}

/**
 * x86_intel_hybrid_pmu - the name of core type @i's PMU
 * @boot: the boot CPU's description, of a hybrid model
 * @i: the type, below x86_intel_hybrid_types()
 *
 * Return: its name ("cpu_core").
 */
const char *x86_intel_hybrid_pmu(const struct x86_core_desc *boot,
				 unsigned int i)
{
	return boot->intel_hybrid->types[i].pmu;
}

/**
 * x86_intel_hybrid_model - the table of core type @i of a hybrid model
 * @boot: a description of the hybrid model (the boot CPU's, or a type's)
 * @i: the type, below x86_intel_hybrid_types()
 *
 * Return: the type's table.
 */
const struct x86_intel_model *
x86_intel_hybrid_model(const struct x86_core_desc *boot, unsigned int i)
{
	return boot->intel_hybrid->types[i].model;
}

/**
 * x86_intel_hybrid_desc - the description of a hybrid model's core type
 * @boot: the boot CPU's description, of a hybrid model
 * @i: the type, below x86_intel_hybrid_types()
 * @desc: filled in: @boot, with the counters, the table, the counter
 *	rules and the topdown metrics of the type, and the type's CPUID 0x1A
 *	value
 */
void x86_intel_hybrid_desc(const struct x86_core_desc *boot, unsigned int i,
			   struct x86_core_desc *desc)
{
	const struct x86_hybrid_type *type = &boot->intel_hybrid->types[i];

	*desc = *boot;
	desc->hybrid_type = type->core_type;
	desc->intel_model = type->model;
	desc->counter_rules = counter_rules_find(boot->model, type->core_type);
	desc->num_gp = min_t(unsigned int, boot->num_gp + type->more_gp,
			     INTEL_PMC_MAX_GENERIC);
	desc->fixed_mask |= type->more_fixed;
	desc->num_fixed = hweight32(desc->fixed_mask);
	desc->metrics = model_metrics(desc);
}

/**
 * x86_intel_model_cache - a cache event of an Intel model
 * @model: the model's table
 * @cache: PERF_COUNT_HW_CACHE_*, in range
 * @op: PERF_COUNT_HW_CACHE_OP_*, in range
 * @result: PERF_COUNT_HW_CACHE_RESULT_*, in range
 *
 * Return: the model's entry, or NULL where it has no event for it.
 */
const struct x86_cache_event *
x86_intel_model_cache(const struct x86_intel_model *model, unsigned int cache,
		      unsigned int op, unsigned int result)
{
	return x86_cache_find(model->cache, model->nr_cache, cache, op,
			      result) ?:
	       x86_cache_find(model->cache_base, model->nr_cache_base, cache,
			      op, result);
}

/**
 * x86_intel_rule_counters - the general-purpose counters that may count
 * an event, by its model's rules
 * @desc: the PMU
 * @evsel: the event's control value
 *
 * The first rule of the event that is for its unit mask or for every unit
 * mask decides (cpu_pmu.h: those for one unit mask come first).
 *
 * Return: a mask of general-purpose counter indices; every counter where
 * no rule narrows them.
 */
u64 x86_intel_rule_counters(const struct x86_core_desc *desc, u64 evsel)
{
	const struct x86_counter_rules *r = desc->counter_rules;
	u8 event = evsel & ARCH_PERFMON_EVENTSEL_EVENT;
	u8 umask = (evsel & ARCH_PERFMON_EVENTSEL_UMASK) >> 8;
	unsigned int lo = 0, hi, mid;

	if (!r)
		return ~0ULL;
	/* the first rule of @event, by bisection */
	hi = r->nr;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->rules[mid].event < event)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < r->nr && r->rules[lo].event == event; lo++)
		if (r->rules[lo].every_umask || r->rules[lo].umask == umask)
			return r->rules[lo].counters;
	return ~0ULL;
}
