/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the x86 core PMU is, as CPUID (and PERF_CAPABILITIES) describe it:
 * struct x86_core_desc, filled by x86_core_detect() (detect.c), and where
 * each counter's MSRs are.  A description is made once and only read
 * afterwards; it needs no lock.
 */
#ifndef _ARCH_X86_EVENTS_DETECT_H
#define _ARCH_X86_EVENTS_DETECT_H

#include <linux/types.h>

struct x86_hw;
struct x86_intel_model;
struct x86_intel_hybrid;
struct x86_counter_rules;

enum x86_core_vendor {
	X86_CORE_NONE,		/* no usable core PMU */
	X86_CORE_INTEL,		/* Intel architectural performance monitoring */
	X86_CORE_AMD,		/* AMD (and Hygon) core performance counters */
};

/*
 * struct x86_core_desc - the core PMU of a CPU
 *
 * @vendor: which programming model, or X86_CORE_NONE.
 * @family: the CPU family (CPUID 1 EAX, with the extended family).
 * @model: the CPU model (CPUID 1 EAX, with the extended model where the
 *	family is 6 or 0Fh and above).
 * @version: Intel: the architectural perfmon version (CPUID 0xA EAX[7:0]);
 *	AMD: 2 with PerfMonV2, else 0.
 * @num_gp: general-purpose counters.
 * @gp_width: their width in bits.
 * @num_fixed: Intel: fixed-function counters present (bits in @fixed_mask).
 * @fixed_mask: which fixed counters exist (bit i: IA32_FIXED_CTRi); on
 *	version 5 from the bitmap of CPUID 0xA ECX as well as the count.
 * @fixed_width: their width in bits.
 * @cpuid_gp: Intel: the general-purpose counters CPUID 0xA gives (a
 *	hybrid model's core type may have more, @num_gp).
 * @cpuid_fixed: Intel: the fixed counters it gives (the same way).
 * @events_mask_len: Intel: how many architectural events CPUID 0xA EBX
 *	describes (EAX[31:24]).
 * @events_unavailable: Intel: bit i set when architectural event i is not
 *	available (CPUID 0xA EBX, and every event past @events_mask_len).
 * @anythread_deprecated: Intel: CPUID 0xA EDX[15], AnyThread is reserved.
 * @perf_capabilities: Intel: IA32_PERF_CAPABILITIES, 0 without PDCM.
 * @full_width_write: Intel: the counters are written at full width through
 *	the IA32_A_PMCx aliases (PERF_CAPABILITIES.FW_WRITE).
 * @core_ext: AMD: the core-counter extension (CPUID 0x80000001 ECX[23]):
 *	six counters at the MSR_F15H_PERF_CTL/CTR pairs.
 * @perfmon_v2: AMD: PerfMonV2 (CPUID 0x80000022 EAX[0]): global control
 *	and status MSRs, @num_gp from CPUID 0x80000022 EBX[3:0].
 * @merge_pairs: AMD family 17h on (Zen): a large-increment event (event
 *	select 0x003, the retired FLOPs) takes an even counter and the odd one
 *	after it, which runs the Merge event and holds the count's upper
 *	bits (AMD's PPR, "Large Increment per Cycle Events").
 * @hypervisor: CPUID says a hypervisor runs us.
 * @hybrid: Intel: CPUID 7 EDX[15], the part has two core types (CPUID
 *	0x1A), and CPUID 0xA gives the counters both have.
 * @hybrid_type: Intel: the core type (CPUID 0x1A EAX[31:24]) of the CPUs
 *	this PMU drives, on a hybrid model the model layer knows (models.c);
 *	0 where every CPU is driven alike.
 * @intel_hybrid: Intel: what the model layer knows of a hybrid model, as
 *	detected on the boot CPU (NULL for any other part); each core type's
 *	description comes from it (x86_intel_hybrid_desc()).
 * @intel_model: Intel: what the driver knows of the model beyond CPUID
 *	(models.c), NULL for a model it has no table of.
 * @counter_rules: Intel: the general-purpose counters the model's events
 *	may use, NULL where every event may use every counter.
 * @metrics: Intel: the topdown metrics this PMU has (fields of
 *	PERF_METRICS: the model's, where fixed counter 3 exists and
 *	PERF_CAPABILITIES says PERF_METRICS), else 0.
 * @extra_regs: Intel: the model has extra registers (offcore response,
 *	load latency, front end), and they hold a value (a hypervisor may not
 *	offer them).
 * @snoop_regs: Intel: the model has the snoop response registers
 *	(Crestmont), and they hold a value.
 * @lbr_nr: the last branch records (intel_lbr.c): Intel: the model's,
 *	where PERF_CAPABILITIES gives their format and they hold what is
 *	written; AMD: the LbrExtV2 stack's entries (amd_lbr.c); else 0.
 * @lbr_freeze: AMD: a PMI can freeze the LBR stack (LbrAndPmcFreeze).
 * @pebs_fmt: Intel: the PEBS record format the driver uses (intel_pebs.c:
 *	3, or 4 for adaptive PEBS), 0 without PEBS; found by the registered
 *	driver only.
 * @pebs_ept: Intel: PEBS works in guests, the records written through the
 *	guest's own DS area (EPT-friendly PEBS: Ice Lake server and later),
 *	which KVM may offer them (intel_pebs.c, virt.c).
 * @max_precise: the highest precise_ip its events may ask for.
 * @evtsel_base: the control MSR of counter 0.
 * @ctr_base: the counter MSR of counter 0 (IA32_A_PMC0 with full-width
 *	writes).
 * @msr_stride: the distance between the MSRs of two counters.
 * @why_none: for X86_CORE_NONE, a few words on why, for the boot log.
 */
/* the most last branch records a PMU has */
#define X86_LBR_MAX	32

struct x86_core_desc {
	enum x86_core_vendor vendor;
	u8 family;
	u8 model;
	u8 version;
	u8 num_gp;
	u8 gp_width;
	u8 num_fixed;
	u32 fixed_mask;
	u8 fixed_width;
	u8 cpuid_gp;
	u32 cpuid_fixed;
	u8 events_mask_len;
	u32 events_unavailable;
	bool anythread_deprecated;
	u64 perf_capabilities;
	bool full_width_write;
	bool core_ext;
	bool perfmon_v2;
	bool merge_pairs;
	bool hypervisor;
	bool hybrid;
	u8 hybrid_type;
	const struct x86_intel_hybrid *intel_hybrid;
	const struct x86_intel_model *intel_model;
	const struct x86_counter_rules *counter_rules;
	bool extra_regs;
	bool snoop_regs;
	u8 metrics;
	u8 lbr_nr;
	bool lbr_freeze;
	u8 pebs_fmt;
	bool pebs_ept;
	u8 max_precise;
	u32 evtsel_base;
	u32 ctr_base;
	u32 msr_stride;
	const char *why_none;
};

/* CPUID 0x1A EAX[31:24]: the core types of Intel's hybrid parts */
#define X86_HYBRID_ATOM		0x20
#define X86_HYBRID_CORE		0x40
/* the core types of a hybrid model, each a PMU */
#define X86_HYBRID_TYPES	2

int x86_core_detect(const struct x86_hw *hw, struct x86_core_desc *desc);
u8 x86_core_hybrid_type(const struct x86_hw *hw);
bool x86_core_cpuid_covers(const struct x86_hw *hw,
			   const struct x86_core_desc *boot);

/* models.c: what the Intel model layer knows of @desc's family and model */
void x86_intel_model_detect(const struct x86_hw *hw,
			    struct x86_core_desc *desc);
unsigned int x86_intel_hybrid_types(const struct x86_core_desc *boot);
const char *x86_intel_hybrid_pmu(const struct x86_core_desc *boot,
				 unsigned int i);
const struct x86_intel_model *
x86_intel_hybrid_model(const struct x86_core_desc *boot, unsigned int i);
void x86_intel_hybrid_desc(const struct x86_core_desc *boot, unsigned int i,
			   struct x86_core_desc *desc);

/* the control MSR of general-purpose counter @i */
static inline u32 x86_core_evtsel_msr(const struct x86_core_desc *desc,
				      unsigned int i)
{
	return desc->evtsel_base + i * desc->msr_stride;
}

/* the counter MSR of general-purpose counter @i */
static inline u32 x86_core_ctr_msr(const struct x86_core_desc *desc,
				   unsigned int i)
{
	return desc->ctr_base + i * desc->msr_stride;
}

/* the bits a general-purpose counter holds */
static inline u64 x86_core_gp_mask(const struct x86_core_desc *desc)
{
	return desc->gp_width >= 64 ? ~0ULL : (1ULL << desc->gp_width) - 1;
}

#endif /* _ARCH_X86_EVENTS_DETECT_H */
