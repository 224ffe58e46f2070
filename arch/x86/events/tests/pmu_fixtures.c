// SPDX-License-Identifier: GPL-2.0
/*
 * CPUID fixtures for the KUnit model of the x86 core PMU: for each part,
 * the CPUID leaves detection reads (the values the part reports, trimmed to
 * those leaves), its IA32_PERF_CAPABILITIES, and the PMU it has, which is
 * both the model's layout and what detection must find.  Constant data,
 * no locking.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>

#include "pmu_model.h"

/* CPUID 0 EBX, EDX, ECX: the vendor string */
#define INTEL_ID	.ebx = 0x756e6547, .edx = 0x49656e69, .ecx = 0x6c65746e
#define AMD_ID		.ebx = 0x68747541, .edx = 0x69746e65, .ecx = 0x444d4163

#define LEAF(l, ...)	{ .leaf = (l), .r = { __VA_ARGS__ } }

#define INTEL_CYCLES	{ .select = 0x003c, .fixed = 1 }
#define AMD_CYCLES	{ .select = 0x0076, .fixed = -1 }

#define INTEL_LAYOUT(fw)						\
	.evtsel_base = MSR_ARCH_PERFMON_EVENTSEL0,			\
	.ctr_base = (fw) ? MSR_IA32_PMC0 : MSR_ARCH_PERFMON_PERFCTR0,	\
	.msr_stride = 1

/* Core 2 (Penryn): version 2, two 40-bit counters, no full-width writes */
static const struct x86_pmu_model_leaf core2_leaves[] = {
	LEAF(0x0, .eax = 0xd, INTEL_ID),
	LEAF(0x1, .eax = 0x0001067a, .ecx = 0x0408e3fd),
	LEAF(0xa, .eax = 0x07280202, .edx = 0x00000503),
};

const struct x86_pmu_model_fixture x86_pmu_fixture_intel_core2 = {
	.name = "intel-core2-v2",
	.leaves = core2_leaves,
	.nr_leaves = ARRAY_SIZE(core2_leaves),
	.perf_capabilities = 0xc2,
	.pmu = {
		.vendor = X86_CORE_INTEL, .family = 6, .model = 0x17, .version = 2,
		.num_gp = 2, .gp_width = 40,
		.num_fixed = 3, .fixed_mask = 0x7, .fixed_width = 40,
		.events_mask_len = 7, .events_unavailable = 0xffffff80,
		.perf_capabilities = 0xc2,
		INTEL_LAYOUT(false),
	},
	.cycles = INTEL_CYCLES,
};

/* Skylake client (Core i7-6700K): version 4, full-width writes, TSX */
static const struct x86_pmu_model_leaf skl_leaves[] = {
	LEAF(0x0, .eax = 0x16, INTEL_ID),
	LEAF(0x1, .eax = 0x000506e3, .ecx = 0x7ffafbff),
	LEAF(0xa, .eax = 0x07300404, .edx = 0x00000603),
};

const struct x86_pmu_model_fixture x86_pmu_fixture_intel_skl = {
	.name = "intel-skylake-client-v4",
	.leaves = skl_leaves,
	.nr_leaves = ARRAY_SIZE(skl_leaves),
	.perf_capabilities = 0x33c4,
	.pmu = {
		.vendor = X86_CORE_INTEL, .family = 6, .model = 0x5e, .version = 4,
		.num_gp = 4, .gp_width = 48,
		.num_fixed = 3, .fixed_mask = 0x7, .fixed_width = 48,
		.events_mask_len = 7, .events_unavailable = 0xffffff80,
		.perf_capabilities = 0x33c4, .full_width_write = true,
		INTEL_LAYOUT(true),
	},
	.evtsel_extra = HSW_IN_TX | HSW_IN_TX_CHECKPOINTED,
	.cycles = INTEL_CYCLES,
};

/*
 * Sapphire Rapids (Xeon): version 5, eight counters, four fixed counters
 * also listed in the bitmap of CPUID 0xA ECX, AnyThread deprecated.
 */
static const struct x86_pmu_model_leaf spr_leaves[] = {
	LEAF(0x0, .eax = 0x20, INTEL_ID),
	LEAF(0x1, .eax = 0x000806f8, .ecx = 0x7ffefbff),
	LEAF(0xa, .eax = 0x08300805, .ecx = 0x0000000f, .edx = 0x00008604),
};

const struct x86_pmu_model_fixture x86_pmu_fixture_intel_spr = {
	.name = "intel-sapphire-rapids-v5",
	.leaves = spr_leaves,
	.nr_leaves = ARRAY_SIZE(spr_leaves),
	.perf_capabilities = 0xf3e4,
	.pmu = {
		.vendor = X86_CORE_INTEL, .family = 6, .model = 0x8f, .version = 5,
		.num_gp = 8, .gp_width = 48,
		.num_fixed = 4, .fixed_mask = 0xf, .fixed_width = 48,
		.events_mask_len = 8, .events_unavailable = 0xffffff00,
		.anythread_deprecated = true,
		.perf_capabilities = 0xf3e4, .full_width_write = true,
		INTEL_LAYOUT(true),
	},
	.evtsel_extra = HSW_IN_TX | HSW_IN_TX_CHECKPOINTED | ICL_EVENTSEL_ADAPTIVE,
	.cycles = INTEL_CYCLES,
};

/*
 * Alder Lake (hybrid): CPUID 0xA gives what both core types have, six
 * counters and fixed counters 0-2, on every CPU; CPUID 7 EDX[15] says
 * hybrid, CPUID 0x1A the core type: a P-core (Golden Cove) and an E-core
 * (Gracemont).  The P-core's two more counters and fixed counter 3 are
 * the model layer's to know (models.c); the model has the common ones.
 */
static const struct x86_pmu_model_leaf adl_p_leaves[] = {
	LEAF(0x0, .eax = 0x20, INTEL_ID),
	LEAF(0x1, .eax = 0x00090672, .ecx = 0x7ffafbff),
	LEAF(0x7, .edx = 0x00008000),
	LEAF(0xa, .eax = 0x08300605, .ecx = 0x7, .edx = 0x00008603),
	LEAF(0x1a, .eax = X86_HYBRID_CORE << 24),
};

static const struct x86_pmu_model_leaf adl_e_leaves[] = {
	LEAF(0x0, .eax = 0x20, INTEL_ID),
	LEAF(0x1, .eax = 0x00090672, .ecx = 0x7ffafbff),
	LEAF(0x7, .edx = 0x00008000),
	LEAF(0xa, .eax = 0x07300605, .ecx = 0x7, .edx = 0x00008603),
	LEAF(0x1a, .eax = X86_HYBRID_ATOM << 24),
};

/* what both find: CPUID's counters (the length of EBX aside) */
#define ADL_PMU								\
	.vendor = X86_CORE_INTEL, .family = 6, .model = 0x97, .version = 5, \
	.num_gp = 6, .gp_width = 48,					\
	.num_fixed = 3, .fixed_mask = 0x7, .fixed_width = 48,		\
	.anythread_deprecated = true,					\
	.perf_capabilities = 0xf3e4, .full_width_write = true,		\
	INTEL_LAYOUT(true)

const struct x86_pmu_model_fixture x86_pmu_fixture_intel_adl_p = {
	.name = "intel-alderlake-p-core",
	.leaves = adl_p_leaves,
	.nr_leaves = ARRAY_SIZE(adl_p_leaves),
	.perf_capabilities = 0xf3e4,
	.pmu = {
		ADL_PMU,
		.events_mask_len = 8, .events_unavailable = 0xffffff00,
	},
	.evtsel_extra = HSW_IN_TX | HSW_IN_TX_CHECKPOINTED | ICL_EVENTSEL_ADAPTIVE,
	.cycles = INTEL_CYCLES,
};

const struct x86_pmu_model_fixture x86_pmu_fixture_intel_adl_e = {
	.name = "intel-alderlake-e-core",
	.leaves = adl_e_leaves,
	.nr_leaves = ARRAY_SIZE(adl_e_leaves),
	.perf_capabilities = 0xf3e4,
	.pmu = {
		ADL_PMU,
		.events_mask_len = 7, .events_unavailable = 0xffffff80,
	},
	.evtsel_extra = HSW_IN_TX | HSW_IN_TX_CHECKPOINTED | ICL_EVENTSEL_ADAPTIVE,
	.cycles = INTEL_CYCLES,
};

/*
 * Meteor Lake (hybrid), a P-core: CPUID 0xA gives what both types have,
 * eight counters and fixed counters 0-2, which each type takes as it is
 */
static const struct x86_pmu_model_leaf mtl_p_leaves[] = {
	LEAF(0x0, .eax = 0x23, INTEL_ID),
	LEAF(0x1, .eax = 0x000a06a4, .ecx = 0x7ffafbff),
	LEAF(0x7, .edx = 0x00008000),
	LEAF(0xa, .eax = 0x08300805, .ecx = 0x7, .edx = 0x00008603),
	LEAF(0x1a, .eax = X86_HYBRID_CORE << 24),
};

const struct x86_pmu_model_fixture x86_pmu_fixture_intel_mtl_p = {
	.name = "intel-meteorlake-p-core",
	.leaves = mtl_p_leaves,
	.nr_leaves = ARRAY_SIZE(mtl_p_leaves),
	.perf_capabilities = 0xf3e4,
	.pmu = {
		.vendor = X86_CORE_INTEL, .family = 6, .model = 0xaa,
		.version = 5, .num_gp = 8, .gp_width = 48,
		.num_fixed = 3, .fixed_mask = 0x7, .fixed_width = 48,
		.events_mask_len = 8, .events_unavailable = 0xffffff00,
		.anythread_deprecated = true,
		.perf_capabilities = 0xf3e4, .full_width_write = true,
		INTEL_LAYOUT(true),
	},
	.evtsel_extra = HSW_IN_TX | HSW_IN_TX_CHECKPOINTED | ICL_EVENTSEL_ADAPTIVE,
	.cycles = INTEL_CYCLES,
};

/*
 * Made up, as a hypervisor may hand it to a guest: version 5 whose fixed
 * counters are only in the bitmap (0, 1 and 3: no reference cycles, which
 * EBX says are unavailable), without PDCM.
 */
static const struct x86_pmu_model_leaf v5_holes_leaves[] = {
	LEAF(0x0, .eax = 0x1f, INTEL_ID),
	LEAF(0x1, .eax = 0x000806f8, .ecx = 0xfffa3203),
	LEAF(0xa, .eax = 0x07300405, .ebx = 0x4, .ecx = 0x0000000b,
	     .edx = 0x00008600),
};

const struct x86_pmu_model_fixture x86_pmu_fixture_intel_v5_holes = {
	.name = "intel-v5-fixed-bitmap-with-holes",
	.leaves = v5_holes_leaves,
	.nr_leaves = ARRAY_SIZE(v5_holes_leaves),
	.pmu = {
		.vendor = X86_CORE_INTEL, .family = 6, .model = 0x8f, .version = 5,
		.num_gp = 4, .gp_width = 48,
		.num_fixed = 3, .fixed_mask = 0xb, .fixed_width = 48,
		.events_mask_len = 7, .events_unavailable = 0xffffff84,
		.anythread_deprecated = true, .hypervisor = true,
		INTEL_LAYOUT(false),
	},
	.cycles = INTEL_CYCLES,
};

/* Athlon 64 (K8, family 0Fh): the four legacy counters */
static const struct x86_pmu_model_leaf k8_leaves[] = {
	LEAF(0x0, .eax = 0x1, AMD_ID),
	LEAF(0x1, .eax = 0x00020fb1, .ecx = 0x00000001),
	LEAF(0x80000000, .eax = 0x80000018),
	LEAF(0x80000001, .ecx = 0x0000001f),
};

const struct x86_pmu_model_fixture x86_pmu_fixture_amd_k8 = {
	.name = "amd-k8-legacy",
	.leaves = k8_leaves,
	.nr_leaves = ARRAY_SIZE(k8_leaves),
	.pmu = {
		.vendor = X86_CORE_AMD, .family = 0xf, .model = 0x2b,
		.num_gp = 4, .gp_width = 48,
		.evtsel_base = MSR_K7_EVNTSEL0, .ctr_base = MSR_K7_PERFCTR0,
		.msr_stride = 1,
	},
	.cycles = AMD_CYCLES,
};

/* Zen 2 (Ryzen 7 3700X, family 17h): six core counters, no PerfMonV2 */
static const struct x86_pmu_model_leaf zen2_leaves[] = {
	LEAF(0x0, .eax = 0x10, AMD_ID),
	LEAF(0x1, .eax = 0x00870f10, .ecx = 0x7ed8320b),
	LEAF(0x80000000, .eax = 0x8000001f),
	LEAF(0x80000001, .ecx = 0x75c237ff),
};

const struct x86_pmu_model_fixture x86_pmu_fixture_amd_zen2 = {
	.name = "amd-zen2",
	.leaves = zen2_leaves,
	.nr_leaves = ARRAY_SIZE(zen2_leaves),
	.pmu = {
		.vendor = X86_CORE_AMD, .family = 0x17, .model = 0x71,
		.num_gp = 6, .gp_width = 48,
		.core_ext = true, .merge_pairs = true,
		.evtsel_base = MSR_F15H_PERF_CTL, .ctr_base = MSR_F15H_PERF_CTR,
		.msr_stride = 2,
	},
	.cycles = AMD_CYCLES,
};

/* Zen 4 (Ryzen 9 7950X, family 19h): PerfMonV2, six core counters */
static const struct x86_pmu_model_leaf zen4_leaves[] = {
	LEAF(0x0, .eax = 0x10, AMD_ID),
	LEAF(0x1, .eax = 0x00a60f12, .ecx = 0x7ef8320b),
	LEAF(0x80000000, .eax = 0x80000028),
	LEAF(0x80000001, .ecx = 0x75c237ff),
	LEAF(0x80000022, .eax = 0x00000007, .ebx = 0x00004106),
};

const struct x86_pmu_model_fixture x86_pmu_fixture_amd_zen4 = {
	.name = "amd-zen4-perfmonv2",
	.leaves = zen4_leaves,
	.nr_leaves = ARRAY_SIZE(zen4_leaves),
	.pmu = {
		.vendor = X86_CORE_AMD, .family = 0x19, .model = 0x61,
		.version = 2,
		.num_gp = 6, .gp_width = 48,
		.core_ext = true, .perfmon_v2 = true, .merge_pairs = true,
		.lbr_nr = 16, .lbr_freeze = true,
		.evtsel_base = MSR_F15H_PERF_CTL, .ctr_base = MSR_F15H_PERF_CTR,
		.msr_stride = 2,
	},
	.cycles = AMD_CYCLES,
};

/* an Intel guest whose hypervisor hides the PMU: CPUID 0xA is all zeros */
static const struct x86_pmu_model_leaf intel_hidden_leaves[] = {
	LEAF(0x0, .eax = 0xd, INTEL_ID),
	LEAF(0x1, .eax = 0x000506e3, .ecx = 0xfffa3203),
};

const struct x86_pmu_model_fixture x86_pmu_fixture_intel_hidden = {
	.name = "intel-guest-pmu-hidden",
	.leaves = intel_hidden_leaves,
	.nr_leaves = ARRAY_SIZE(intel_hidden_leaves),
	.pmu = {
		.vendor = X86_CORE_NONE, .hypervisor = true,
		.why_none = "architectural perfmon version 0",
	},
	.cycles = INTEL_CYCLES,
};

/* an AMD guest without the core extension whose PMU MSRs raise #GP */
static const struct x86_pmu_model_leaf amd_gp_leaves[] = {
	LEAF(0x0, .eax = 0x10, AMD_ID),
	LEAF(0x1, .eax = 0x00870f10, .ecx = 0xfed83203),
	LEAF(0x80000000, .eax = 0x8000001f),
	LEAF(0x80000001, .ecx = 0x004001f3),
};

const struct x86_pmu_model_fixture x86_pmu_fixture_amd_gp = {
	.name = "amd-guest-pmu-msrs-fault",
	.leaves = amd_gp_leaves,
	.nr_leaves = ARRAY_SIZE(amd_gp_leaves),
	.pmu = {
		.vendor = X86_CORE_NONE, .hypervisor = true,
		.why_none = "counters do not hold a value",
	},
	.cycles = AMD_CYCLES,
};

/*
 * QEMU's TCG "max" CPU, as the project's x86_64 guest runs: AMD's vendor
 * string, no core extension, and PMU MSRs that read as zero.
 */
static const struct x86_pmu_model_leaf tcg_leaves[] = {
	LEAF(0x0, .eax = 0xd, AMD_ID),
	LEAF(0x1, .eax = 0x00060fb1, .ecx = 0x80802001),
	LEAF(0x80000000, .eax = 0x80000008),
	LEAF(0x80000001, .ecx = 0x00000121),
};

const struct x86_pmu_model_fixture x86_pmu_fixture_qemu_tcg = {
	.name = "qemu-tcg-max",
	.leaves = tcg_leaves,
	.nr_leaves = ARRAY_SIZE(tcg_leaves),
	.pmu = {
		.vendor = X86_CORE_NONE, .hypervisor = true,
		.why_none = "counters do not hold a value",
	},
	.msrs_read_zero = true,
	.cycles = AMD_CYCLES,
};

const struct x86_pmu_model_fixture *const x86_pmu_fixtures[] = {
	&x86_pmu_fixture_intel_core2,
	&x86_pmu_fixture_intel_skl,
	&x86_pmu_fixture_intel_spr,
	&x86_pmu_fixture_intel_v5_holes,
	&x86_pmu_fixture_amd_k8,
	&x86_pmu_fixture_amd_zen2,
	&x86_pmu_fixture_amd_zen4,
	&x86_pmu_fixture_intel_hidden,
	&x86_pmu_fixture_amd_gp,
	&x86_pmu_fixture_qemu_tcg,
};

/* KUnit parameters: each fixture in turn, named after it */
const void *x86_pmu_fixture_gen_params(const void *prev, char *desc)
{
	const struct x86_pmu_model_fixture *const *fx = prev;

	fx = fx ? fx + 1 : x86_pmu_fixtures;
	if (fx == x86_pmu_fixtures + ARRAY_SIZE(x86_pmu_fixtures))
		return NULL;
	strscpy(desc, (*fx)->name, KUNIT_PARAM_DESC_SIZE);
	return fx;
}
