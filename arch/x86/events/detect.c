// SPDX-License-Identifier: GPL-2.0
/*
 * Detection of the x86 core PMU: x86_core_detect() reads CPUID (and, where
 * CPUID announces it, IA32_PERF_CAPABILITIES) through an x86_hw and fills
 * a struct x86_core_desc.  Intel parts are described by the architectural
 * performance monitoring leaf 0xA (SDM vol. 3B, "Architectural Performance
 * Monitoring", versions 1 to 5); AMD and Hygon parts by the family, the
 * core-counter extension (CPUID 0x80000001 ECX[23]) and PerfMonV2 (CPUID
 * 0x80000022, APM vol. 2, "Performance Monitoring Counters").  A CPU whose
 * counters do not keep a value written to them (QEMU TCG, a hypervisor
 * that hides the PMU) has none.
 *
 * No locking: detection reads the hardware of the CPU it runs on, with
 * preemption disabled around the one probe that writes an MSR, and writes
 * only the caller's description.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/preempt.h>
#include <linux/string.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>

#include "detect.h"
#include "hw.h"

#define CPUID_LEAF_EXT_FEATURES_7	0x7
#define CPUID_LEAF_ARCH_PERFMON		0xa
#define CPUID_LEAF_HYBRID		0x1a
/* CPUID 7 EDX: a hybrid part (CPUID 0x1A gives each CPU's core type) */
#define CPUID7_EDX_HYBRID		BIT(15)
#define CPUID_LEAF_EXT_MAX		0x80000000
#define CPUID_LEAF_EXT_FEATURES		0x80000001
#define CPUID_LEAF_AMD_PERFMON		0x80000022

/* architectural width of the AMD core counters (APM vol. 2) */
#define AMD_COUNTER_WIDTH		48

/* a value with bit 31 clear: legacy 32-bit counter writes keep it as is */
#define PROBE_VALUE			0x5a5a1234ULL

static int no_pmu(struct x86_core_desc *desc, const char *why)
{
	bool hypervisor = desc->hypervisor;

	memset(desc, 0, sizeof(*desc));
	desc->vendor = X86_CORE_NONE;
	desc->hypervisor = hypervisor;
	desc->why_none = why;
	return -ENODEV;
}

/* CPUID 0xA version 2 and later: the fixed-function counters */
static void intel_fixed_counters(struct x86_core_desc *desc, u32 ecx, u32 edx)
{
	union cpuid10_edx fixed = { .full = edx };
	u32 mask = 0;

	if (fixed.split.num_counters_fixed)
		mask = GENMASK(fixed.split.num_counters_fixed - 1, 0);
	/* version 5: counter i exists if ECX[i] is set or i < EDX[4:0] */
	if (desc->version >= 5)
		mask |= ecx;
	desc->fixed_mask = mask & GENMASK(INTEL_PMC_MAX_FIXED - 1, 0);
	desc->num_fixed = hweight32(desc->fixed_mask);
	desc->fixed_width = fixed.split.bit_width_fixed;
	/* AnyThread came with version 3: only then can it be deprecated */
	desc->anythread_deprecated = desc->version >= 3 &&
				     fixed.split.anythread_deprecated;
}

static int intel_detect(const struct x86_hw *hw, struct x86_core_desc *desc,
			u32 max_leaf, u32 leaf1_ecx)
{
	union cpuid10_eax gp;
	struct x86_hw_cpuid r;

	if (max_leaf < CPUID_LEAF_ARCH_PERFMON)
		return no_pmu(desc, "no architectural perfmon leaf");
	x86_hw_cpuid(hw, CPUID_LEAF_ARCH_PERFMON, 0, &r);
	gp.full = r.eax;
	if (!gp.split.version_id)
		return no_pmu(desc, "architectural perfmon version 0");

	desc->vendor = X86_CORE_INTEL;
	desc->version = gp.split.version_id;
	desc->num_gp = min_t(u8, gp.split.num_counters, INTEL_PMC_MAX_GENERIC);
	desc->gp_width = gp.split.bit_width;
	desc->events_mask_len = gp.split.mask_length;
	desc->events_unavailable = r.ebx;
	if (desc->events_mask_len < 32)
		desc->events_unavailable |= ~0U << desc->events_mask_len;
	if (desc->version >= 2)
		intel_fixed_counters(desc, r.ecx, r.edx);
	if (!desc->num_gp && !desc->num_fixed)
		return no_pmu(desc, "architectural perfmon without counters");
	desc->cpuid_gp = desc->num_gp;
	desc->cpuid_fixed = desc->fixed_mask;

	if ((leaf1_ecx & X86_HW_CPUID1_ECX_PDCM) &&
	    x86_hw_rdmsr(hw, MSR_IA32_PERF_CAPABILITIES, &desc->perf_capabilities))
		desc->perf_capabilities = 0;
	desc->full_width_write = desc->perf_capabilities & X86_HW_PERF_CAP_FW_WRITE;

	desc->evtsel_base = MSR_ARCH_PERFMON_EVENTSEL0;
	desc->ctr_base = desc->full_width_write ? MSR_IA32_PMC0 :
						  MSR_ARCH_PERFMON_PERFCTR0;
	desc->msr_stride = 1;
	if (max_leaf >= CPUID_LEAF_HYBRID) {
		x86_hw_cpuid(hw, CPUID_LEAF_EXT_FEATURES_7, 0, &r);
		desc->hybrid = r.edx & CPUID7_EDX_HYBRID;
	}
	return 0;
}

/* the counters CPUID 0xA of this CPU gives: general-purpose, fixed mask */
static void intel_cpuid_counters(const struct x86_hw *hw, u8 *num_gp,
				 u32 *fixed_mask)
{
	struct x86_core_desc d = { };
	struct x86_hw_cpuid r;
	union cpuid10_eax gp;

	x86_hw_cpuid(hw, CPUID_LEAF_ARCH_PERFMON, 0, &r);
	gp.full = r.eax;
	d.version = gp.split.version_id;
	if (d.version >= 2)
		intel_fixed_counters(&d, r.ecx, r.edx);
	*num_gp = min_t(u8, gp.split.num_counters, INTEL_PMC_MAX_GENERIC);
	*fixed_mask = d.fixed_mask;
}

/**
 * x86_core_hybrid_type - the core type of the CPU behind @hw
 * @hw: the hardware, on the CPU asked about
 *
 * Return: CPUID 0x1A EAX[31:24] (X86_HYBRID_CORE, X86_HYBRID_ATOM), 0 on
 * a part that is not hybrid.
 */
u8 x86_core_hybrid_type(const struct x86_hw *hw)
{
	struct x86_hw_cpuid r;

	x86_hw_cpuid(hw, 0, 0, &r);
	if (r.eax < CPUID_LEAF_HYBRID)
		return 0;
	x86_hw_cpuid(hw, CPUID_LEAF_EXT_FEATURES_7, 0, &r);
	if (!(r.edx & CPUID7_EDX_HYBRID))
		return 0;
	x86_hw_cpuid(hw, CPUID_LEAF_HYBRID, 0, &r);
	return r.eax >> 24;
}

/**
 * x86_core_cpuid_covers - does this CPU have the boot CPU's counters?
 * @hw: the hardware, on the CPU asked about
 * @boot: the boot CPU's description
 *
 * A CPU whose CPUID 0xA gives fewer general-purpose counters, or lacks a
 * fixed counter, than the boot CPU's (a hypervisor that sizes each vCPU
 * differently) must not be driven as the boot CPU is: the counters it
 * lacks fault.  AMD's CPUs are alike.
 *
 * Return: true when it has every counter @boot's CPUID gave.
 */
bool x86_core_cpuid_covers(const struct x86_hw *hw,
			   const struct x86_core_desc *boot)
{
	u32 fixed_mask;
	u8 num_gp;

	if (boot->vendor != X86_CORE_INTEL)
		return true;
	intel_cpuid_counters(hw, &num_gp, &fixed_mask);
	return num_gp >= boot->cpuid_gp && !(boot->cpuid_fixed & ~fixed_mask);
}

/* the family of CPUID 1 EAX, with the extended family where it applies */
static unsigned int cpuid_family(u32 eax)
{
	unsigned int family = (eax >> 8) & 0xf;

	if (family == 0xf)
		family += (eax >> 20) & 0xff;
	return family;
}

/* the model of CPUID 1 EAX, with the extended model where it applies */
static unsigned int cpuid_model(u32 eax)
{
	unsigned int base_family = (eax >> 8) & 0xf;
	unsigned int model = (eax >> 4) & 0xf;

	if (base_family == 6 || base_family == 0xf)
		model |= ((eax >> 16) & 0xf) << 4;
	return model;
}

static int amd_detect(const struct x86_hw *hw, struct x86_core_desc *desc,
		      u32 leaf1_eax)
{
	union cpuid_0x80000022_ebx v2;
	struct x86_hw_cpuid r;
	u32 max_ext;

	/* the counters at MSR_K7_* came with the K7, family 6 */
	if (cpuid_family(leaf1_eax) < 6)
		return no_pmu(desc, "AMD family before K7");

	desc->vendor = X86_CORE_AMD;
	desc->gp_width = AMD_COUNTER_WIDTH;
	x86_hw_cpuid(hw, CPUID_LEAF_EXT_MAX, 0, &r);
	max_ext = r.eax;
	if (max_ext >= CPUID_LEAF_EXT_FEATURES) {
		x86_hw_cpuid(hw, CPUID_LEAF_EXT_FEATURES, 0, &r);
		desc->core_ext = r.ecx & X86_HW_AMD_ECX_PERFCTR_CORE;
	}
	if (desc->core_ext) {
		desc->num_gp = AMD64_NUM_COUNTERS_CORE;
		desc->evtsel_base = MSR_F15H_PERF_CTL;
		desc->ctr_base = MSR_F15H_PERF_CTR;
		desc->msr_stride = 2;
	} else {
		desc->num_gp = AMD64_NUM_COUNTERS;
		desc->evtsel_base = MSR_K7_EVNTSEL0;
		desc->ctr_base = MSR_K7_PERFCTR0;
		desc->msr_stride = 1;
	}

	if (max_ext < CPUID_LEAF_AMD_PERFMON)
		return 0;
	x86_hw_cpuid(hw, CPUID_LEAF_AMD_PERFMON, 0, &r);
	if (!(r.eax & X86_HW_AMD_EAX_PERFMON_V2))
		return 0;
	desc->perfmon_v2 = true;
	desc->version = 2;
	v2.full = r.ebx;
	/* the legacy MSR layout has room for four counters only */
	if (v2.split.num_core_pmc)
		desc->num_gp = desc->core_ext ?
			min_t(u8, v2.split.num_core_pmc, INTEL_PMC_MAX_GENERIC) :
			min_t(u8, v2.split.num_core_pmc, AMD64_NUM_COUNTERS);
	/* the LBR stack (amd_lbr.c), and whether a PMI freezes it */
	if (r.eax & X86_HW_AMD_EAX_LBR_V2) {
		desc->lbr_nr = min_t(u8, v2.split.lbr_v2_stack_sz, X86_LBR_MAX);
		desc->lbr_freeze = r.eax & X86_HW_AMD_EAX_LBR_PMC_FREEZE;
	}
	return 0;
}

/*
 * Whether the first counter keeps a value written to it.  Under QEMU TCG
 * the PMU MSRs read as zero; a hypervisor that hides the PMU may raise #GP
 * instead.  Either way there is nothing to drive.  The counter is put back
 * as it was.
 */
static bool counter_holds_value(const struct x86_hw *hw,
				const struct x86_core_desc *desc)
{
	u64 old, val;
	u32 msr;
	bool ok;

	if (desc->num_gp)
		msr = x86_core_ctr_msr(desc, 0);
	else
		msr = MSR_CORE_PERF_FIXED_CTR0 + __ffs(desc->fixed_mask);

	guard(preempt)();
	if (x86_hw_rdmsr(hw, msr, &old) || x86_hw_wrmsr(hw, msr, PROBE_VALUE))
		return false;
	ok = !x86_hw_rdmsr(hw, msr, &val) && val == PROBE_VALUE;
	x86_hw_wrmsr(hw, msr, old);
	return ok;
}

static bool vendor_is(const struct x86_hw_cpuid *leaf0, const char *name)
{
	char id[12];

	memcpy(id, &leaf0->ebx, 4);
	memcpy(id + 4, &leaf0->edx, 4);
	memcpy(id + 8, &leaf0->ecx, 4);
	return !memcmp(id, name, sizeof(id));
}

/**
 * x86_core_detect - describe the core PMU of the CPU behind @hw
 * @hw: the hardware to ask (x86_hw_native, or a model under KUnit)
 * @desc: filled in; on failure it says X86_CORE_NONE and why
 *
 * Return: 0 when there is a core PMU to drive, -ENODEV when there is none.
 */
int x86_core_detect(const struct x86_hw *hw, struct x86_core_desc *desc)
{
	struct x86_hw_cpuid leaf0, leaf1 = { };
	int ret;

	memset(desc, 0, sizeof(*desc));
	x86_hw_cpuid(hw, 0, 0, &leaf0);
	if (leaf0.eax >= 1)
		x86_hw_cpuid(hw, 1, 0, &leaf1);
	desc->hypervisor = leaf1.ecx & X86_HW_CPUID1_ECX_HYPERVISOR;

	if (vendor_is(&leaf0, "GenuineIntel"))
		ret = intel_detect(hw, desc, leaf0.eax, leaf1.ecx);
	else if (vendor_is(&leaf0, "AuthenticAMD") ||
		 vendor_is(&leaf0, "HygonGenuine"))
		ret = amd_detect(hw, desc, leaf1.eax);
	else
		ret = no_pmu(desc, "no supported vendor");
	if (ret)
		return ret;
	if (!counter_holds_value(hw, desc))
		return no_pmu(desc, "counters do not hold a value");
	desc->family = cpuid_family(leaf1.eax);
	desc->model = cpuid_model(leaf1.eax);
	if (desc->vendor == X86_CORE_INTEL)
		x86_intel_model_detect(hw, desc);
	else
		desc->merge_pairs = desc->family >= 0x17 && desc->core_ext;
	return 0;
}
