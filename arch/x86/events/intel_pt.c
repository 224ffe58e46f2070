// SPDX-License-Identifier: GPL-2.0
/*
 * Intel Processor Trace, as the rest of the kernel sees it.  The series has
 * no PT driver yet: the host traces nothing, so every capability of the
 * host reads 0 (KVM then offers its guests no PT), a crash has no trace to
 * stop and VMX on or off changes nothing.  intel_pt_validate_cap() decodes
 * the capabilities out of a copy of CPUID leaf 0x14 (KVM keeps one per
 * vCPU), per the Intel SDM, "Intel Processor Trace Enumeration".
 */
#include <linux/bits.h>
#include <linux/bitops.h>
#include <linux/export.h>
#include <linux/perf_event.h>
#include <asm/cpufeature.h>
#include <asm/intel_pt.h>

/* where a capability lives: CPUID.(0x14, subleaf) register, and its bits */
struct pt_cap_field {
	u8 subleaf;
	u8 reg;			/* CPUID_EAX .. CPUID_EDX */
	u32 mask;
};

#define PT_CAP(cap, sub, r, m) \
	[PT_CAP_ ## cap] = { .subleaf = (sub), .reg = (r), .mask = (m) }

static const struct pt_cap_field pt_cap_fields[] = {
	PT_CAP(max_subleaf,		0, CPUID_EAX, 0xffffffff),
	PT_CAP(cr3_filtering,		0, CPUID_EBX, BIT(0)),
	PT_CAP(psb_cyc,			0, CPUID_EBX, BIT(1)),
	PT_CAP(ip_filtering,		0, CPUID_EBX, BIT(2)),
	PT_CAP(mtc,			0, CPUID_EBX, BIT(3)),
	PT_CAP(ptwrite,			0, CPUID_EBX, BIT(4)),
	PT_CAP(power_event_trace,	0, CPUID_EBX, BIT(5)),
	PT_CAP(event_trace,		0, CPUID_EBX, BIT(7)),
	PT_CAP(tnt_disable,		0, CPUID_EBX, BIT(8)),
	PT_CAP(topa_output,		0, CPUID_ECX, BIT(0)),
	PT_CAP(topa_multiple_entries,	0, CPUID_ECX, BIT(1)),
	PT_CAP(single_range_output,	0, CPUID_ECX, BIT(2)),
	PT_CAP(output_subsys,		0, CPUID_ECX, BIT(3)),
	PT_CAP(payloads_lip,		0, CPUID_ECX, BIT(31)),
	PT_CAP(num_address_ranges,	1, CPUID_EAX, GENMASK(2, 0)),
	PT_CAP(mtc_periods,		1, CPUID_EAX, GENMASK(31, 16)),
	PT_CAP(cycle_thresholds,	1, CPUID_EBX, GENMASK(15, 0)),
	PT_CAP(psb_periods,		1, CPUID_EBX, GENMASK(31, 16)),
};

/* @caps: the registers of CPUID.(0x14, 0) then of CPUID.(0x14, 1) */
u32 intel_pt_validate_cap(u32 *caps, enum pt_capabilities cap)
{
	const struct pt_cap_field *f;

	if (cap >= ARRAY_SIZE(pt_cap_fields))
		return 0;
	f = &pt_cap_fields[cap];
	return (caps[f->subleaf * PT_CPUID_REGS_NUM + f->reg] & f->mask) >>
	       __ffs(f->mask);
}
EXPORT_SYMBOL_GPL(intel_pt_validate_cap);

/* What the host's PT driver supports: nothing, there is none. */
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

void intel_pt_handle_vmx(int on)
{
}
EXPORT_SYMBOL_GPL(intel_pt_handle_vmx);
