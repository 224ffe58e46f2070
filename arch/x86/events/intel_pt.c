// SPDX-License-Identifier: GPL-2.0
/*
 * Intel Processor Trace, as the rest of the kernel sees it.  There is no
 * PT driver yet: the host traces nothing, so every capability of the
 * host reads 0 (KVM then offers its guests no PT), a crash has no trace to
 * stop and VMX on or off changes nothing.  intel_pt_validate_cap() decodes
 * the capabilities out of a copy of CPUID leaf 0x14 (KVM keeps one per
 * vCPU), per the Intel SDM, "Intel Processor Trace Enumeration".
 */
#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/cpufeature.h>
#include <linux/export.h>
#include <linux/perf_event.h>
#include <asm/intel_pt.h>

/*
 * Where a capability lives in CPUID.(0x14, subleaf): the index of its
 * register in the caps[] copy (subleaf * 4 + CPUID_EAX..EDX) and its bits.
 * Subleaf 0 EBX holds single-bit features in enum order, with bit 6 (PSB
 * and PMI preservation) not named; ECX the output schemes, and bit 31 the
 * IP payload format; subleaf 1 the counts and the period bitmaps.
 */
static bool pt_cap_where(enum pt_capabilities cap, unsigned int *idx,
			 u32 *mask)
{
	unsigned int sub1 = PT_CPUID_REGS_NUM;

	if (cap == PT_CAP_max_subleaf) {
		*idx = CPUID_EAX;
		*mask = ~0U;
	} else if (cap <= PT_CAP_power_event_trace) {
		*idx = CPUID_EBX;
		*mask = BIT(cap - PT_CAP_cr3_filtering);
	} else if (cap <= PT_CAP_tnt_disable) {
		*idx = CPUID_EBX;
		*mask = BIT(cap - PT_CAP_event_trace + 7);
	} else if (cap <= PT_CAP_output_subsys) {
		*idx = CPUID_ECX;
		*mask = BIT(cap - PT_CAP_topa_output);
	} else if (cap == PT_CAP_payloads_lip) {
		*idx = CPUID_ECX;
		*mask = BIT(31);
	} else if (cap == PT_CAP_num_address_ranges) {
		*idx = sub1 + CPUID_EAX;
		*mask = GENMASK(2, 0);
	} else if (cap == PT_CAP_mtc_periods) {
		*idx = sub1 + CPUID_EAX;
		*mask = GENMASK(31, 16);
	} else if (cap == PT_CAP_cycle_thresholds) {
		*idx = sub1 + CPUID_EBX;
		*mask = GENMASK(15, 0);
	} else if (cap == PT_CAP_psb_periods) {
		*idx = sub1 + CPUID_EBX;
		*mask = GENMASK(31, 16);
	} else {
		return false;
	}
	return true;
}

/**
 * intel_pt_validate_cap - read a PT capability out of a copy of CPUID 0x14
 * @caps: the registers of CPUID.(0x14, 0) then of CPUID.(0x14, 1), each
 *	subleaf as EAX, EBX, ECX, EDX
 * @cap: the capability
 *
 * Context: any.
 *
 * Return: the capability's field, shifted down to bit 0: 0 or 1 for a
 * feature, a count or a bitmap for the others; 0 for an unknown @cap.
 */
u32 intel_pt_validate_cap(u32 *caps, enum pt_capabilities cap)
{
	unsigned int idx;
	u32 mask;

	if (!pt_cap_where(cap, &idx, &mask))
		return 0;
	return (caps[idx] & mask) >> __ffs(mask);
}
EXPORT_SYMBOL_GPL(intel_pt_validate_cap);

/**
 * intel_pt_validate_hw_cap - a PT capability of the host
 * @cap: the capability
 *
 * What the host's PT driver supports: nothing, there is none.
 *
 * Context: any.
 *
 * Return: 0.
 */
u32 intel_pt_validate_hw_cap(enum pt_capabilities cap)
{
	return 0;
}
EXPORT_SYMBOL_GPL(intel_pt_validate_hw_cap);

int is_intel_pt_event(struct perf_event *event)
{
	return 0;
}

/* kdump and reboot stop tracing before the next kernel runs: none runs */
void cpu_emergency_stop_pt(void)
{
}

/**
 * intel_pt_handle_vmx - VMX operation starts or ends on this CPU
 * @on: 1 as KVM enters VMX operation, 0 as it leaves it
 *
 * A PT driver would stop host tracing where the CPU cannot trace in VMX
 * operation; without one there is no trace and nothing to do.
 *
 * Context: KVM's enabling or disabling of virtualization on this CPU,
 * preemption off.
 */
void intel_pt_handle_vmx(int on)
{
}
EXPORT_SYMBOL_GPL(intel_pt_handle_vmx);
