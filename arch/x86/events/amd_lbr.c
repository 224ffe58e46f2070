// SPDX-License-Identifier: GPL-2.0
/*
 * AMD's LBR stack: the Last Branch Record Extension Version 2 of Zen 4 and
 * later (AMD64 APM vol. 2, "Last Branch Stack"; CPUID 0x80000022 EAX bit 1,
 * the depth in EBX[9:4]).  Its registers, as intel_lbr.c uses them for a
 * branch stack:
 *
 *   LastBranchStackFromIp[n] (MSR_AMD_SAMP_BR_FROM + 2n) and ToIp[n] (+1),
 *   entry 0 the newest: no top-of-stack register, a new record pushes the
 *   others down.  FromIp's bit 63 says the branch was mispredicted; ToIp's
 *   bit 63 (valid) and bit 62 (spec) whether it retired or was taken
 *   speculatively; the addresses are 58 bits wide, sign-extended above
 *   (but for ToIp's reserved bit 61).
 *   MSR_AMD64_LBR_SELECT: Intel's LBR_SELECT filter bits 8:0, without a
 *   call-stack mode.
 *   MSR_AMD_DBG_EXTN_CFG.LBRV2EN: records.
 *   IA32_DEBUGCTL.FREEZE_LBRS_ON_PMI, where LbrAndPmcFreeze (CPUID bit 2)
 *   says so: the stack stops at a PMI until the PMI's status bit 58 is
 *   cleared with the counters' (count.c clears every bit it read).
 *
 * What a branch stack may ask for beyond what intel_lbr.c takes for Intel
 * is as stock's driver answers: no call stack, no TSX filter and no
 * NO_FLAGS/NO_CYCLES (EOPNOTSUPP); branch counters are ignored.
 *
 * Locking: as intel_lbr.c: on the CPU, IRQs off or in its PMI.
 */
#include <linux/bitops.h>
#include <linux/perf_event.h>
#include <asm/msr-index.h>

#include "cpu_pmu.h"

#define AMD_LBR_FROM(n)		(MSR_AMD_SAMP_BR_FROM + 2 * (n))
#define AMD_LBR_TO(n)		(MSR_AMD_SAMP_BR_FROM + 2 * (n) + 1)
#define AMD_LBR_MISPREDICT	BIT_ULL(63)
#define AMD_LBR_VALID		BIT_ULL(63)
#define AMD_LBR_SPEC		BIT_ULL(62)

/**
 * x86_amd_lbr_unsupported - the branch_sample_type bits AMD's stack does
 *	not take (EOPNOTSUPP)
 */
u64 x86_amd_lbr_unsupported(void)
{
	return PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_ABORT_TX |
	       PERF_SAMPLE_BRANCH_IN_TX | PERF_SAMPLE_BRANCH_NO_TX |
	       PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES;
}

/**
 * x86_amd_lbr_reset - clear the stack and its filter
 * @cpu: this CPU's counters
 */
void x86_amd_lbr_reset(struct x86_core_cpu *cpu)
{
	const struct x86_hw *hw = cpu->core->hw;
	unsigned int i;

	if (!cpu->core->desc.lbr_nr)
		return;
	for (i = 0; i < cpu->core->desc.lbr_nr; i++) {
		x86_hw_wrmsr(hw, AMD_LBR_FROM(i), 0);
		x86_hw_wrmsr(hw, AMD_LBR_TO(i), 0);
	}
	x86_hw_wrmsr(hw, MSR_AMD64_LBR_SELECT, 0);
}

/* set or clear @bits of @msr, writing only a change */
static void update_msr(const struct x86_hw *hw, u32 msr, u64 bits, bool on)
{
	u64 old, val;

	if (x86_hw_rdmsr(hw, msr, &old))
		return;
	val = on ? old | bits : old & ~bits;
	if (val != old)
		x86_hw_wrmsr(hw, msr, val);
}

/**
 * x86_amd_lbr_enable - recording on (its filter written before) or off
 * @cpu: this CPU's counters
 * @on: on
 */
void x86_amd_lbr_enable(struct x86_core_cpu *cpu, bool on)
{
	const struct x86_hw *hw = cpu->core->hw;

	if (on) {
		if (cpu->core->desc.lbr_freeze)
			update_msr(hw, MSR_IA32_DEBUGCTLMSR,
				   DEBUGCTLMSR_FREEZE_LBRS_ON_PMI, true);
		update_msr(hw, MSR_AMD_DBG_EXTN_CFG, DBG_EXTN_CFG_LBRV2EN, true);
	} else {
		update_msr(hw, MSR_AMD_DBG_EXTN_CFG, DBG_EXTN_CFG_LBRV2EN, false);
		if (cpu->core->desc.lbr_freeze)
			update_msr(hw, MSR_IA32_DEBUGCTLMSR,
				   DEBUGCTLMSR_FREEZE_LBRS_ON_PMI, false);
	}
}

/*
 * The speculation of a record by its ToIp bits: neither is an empty
 * entry (0 returned).
 */
static int record_spec(u64 to)
{
	switch (to & (AMD_LBR_VALID | AMD_LBR_SPEC)) {
	case AMD_LBR_VALID:
		return PERF_BR_NON_SPEC_CORRECT_PATH;
	case AMD_LBR_VALID | AMD_LBR_SPEC:
		return PERF_BR_SPEC_CORRECT_PATH;
	case AMD_LBR_SPEC:
		return PERF_BR_SPEC_WRONG_PATH;
	default:
		return 0;
	}
}

/**
 * x86_amd_lbr_read - the stack's records, newest first
 * @cpu: this CPU's counters
 * @entries: filled in
 * @max: room in @entries
 *
 * Return: how many were filled in.
 */
unsigned int x86_amd_lbr_read(struct x86_core_cpu *cpu,
			      struct perf_branch_entry *entries,
			      unsigned int max)
{
	const struct x86_hw *hw = cpu->core->hw;
	struct perf_branch_entry *e;
	unsigned int i, n = 0;
	u64 from, to;
	int spec;

	for (i = 0; i < cpu->core->desc.lbr_nr && n < max; i++) {
		if (x86_hw_rdmsr(hw, AMD_LBR_FROM(i), &from) ||
		    x86_hw_rdmsr(hw, AMD_LBR_TO(i), &to))
			break;
		spec = record_spec(to);
		if (!spec)
			continue;
		e = &entries[n++];
		/* 58-bit addresses, their sign above (ToIp's bit 61 reserved) */
		e->from = sign_extend64(from, 57);
		e->to = sign_extend64(to, 57);
		perf_clear_branch_entry_bitfields(e);
		e->mispred = !!(from & AMD_LBR_MISPREDICT);
		e->predicted = !e->mispred;
		e->spec = spec;
	}
	return n;
}
