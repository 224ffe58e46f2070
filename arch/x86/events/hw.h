/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hardware access layer of the x86 core PMU code: every MSR access,
 * CPUID query, RDPMC and write of the local APIC's performance-counter LVT
 * entry goes through a struct x86_hw.  x86_hw_native reaches the CPU it
 * runs on; the KUnit model (tests/pmu_model.c) hands out an x86_hw of its own,
 * so the code above can be run against a simulated PMU.
 *
 * Locking: none here.  An x86_hw is immutable once made; the native
 * operations touch only the executing CPU and may be called from any
 * context, NMI included.  Callers that need several accesses to land on
 * one CPU keep preemption disabled across them.
 */
#ifndef _ARCH_X86_EVENTS_HW_H
#define _ARCH_X86_EVENTS_HW_H

#include <linux/bits.h>
#include <linux/types.h>

/*
 * Architectural MSRs and bits that the base's <asm/msr-index.h> does not
 * name (Intel SDM vol. 4, "Architectural MSRs"; vol. 3B, "Performance
 * Monitoring").
 */
#define X86_HW_PERF_CAP_FW_WRITE	BIT_ULL(13)	/* IA32_A_PMCx writable */
#define X86_HW_MSR_GLOBAL_STATUS_SET	0x391		/* v4 and later */
#define X86_HW_MSR_GLOBAL_INUSE		0x392		/* v4 and later */

/* CPUID feature bits that detection reads straight from the leaves */
#define X86_HW_CPUID1_ECX_PDCM		BIT(15)		/* PERF_CAPABILITIES */
#define X86_HW_CPUID1_ECX_HYPERVISOR	BIT(31)
#define X86_HW_AMD_ECX_PERFCTR_CORE	BIT(23)		/* 0x80000001 ECX */
#define X86_HW_AMD_EAX_PERFMON_V2	BIT(0)		/* 0x80000022 EAX */
#define X86_HW_AMD_EAX_LBR_V2		BIT(1)		/* LbrExtV2 */
#define X86_HW_AMD_EAX_LBR_PMC_FREEZE	BIT(2)		/* LbrAndPmcFreeze */

/* the four registers of one CPUID answer */
struct x86_hw_cpuid {
	u32 eax;
	u32 ebx;
	u32 ecx;
	u32 edx;
};

/*
 * struct x86_hw_ops - how the PMU code reaches the hardware
 *
 * Every member is mandatory and may be called from any context, NMI
 * included; none sleeps.  @priv is the x86_hw's own pointer.
 *
 * @read_msr: read MSR @msr into *@val.  Returns 0, or -EIO where the CPU
 *	raises #GP (the MSR does not exist); *@val is then 0.
 * @write_msr: write @val to MSR @msr.  Returns 0, or -EIO where the CPU
 *	raises #GP (no such MSR, a reserved bit set, a read-only MSR).
 * @cpuid: the answer of CPUID leaf @leaf, sub-leaf @subleaf.
 * @read_pmc: RDPMC with ECX = @ecx into *@val.  Returns 0, or -EIO where the
 *	index names no counter (the model only: the native operation
 *	trusts its caller, as the instruction cannot be made safe).
 * @write_lvtpc: write @val to the local APIC's performance-counter LVT
 *	entry (APIC_LVTPC).
 */
struct x86_hw_ops {
	int (*read_msr)(void *priv, u32 msr, u64 *val);
	int (*write_msr)(void *priv, u32 msr, u64 val);
	void (*cpuid)(void *priv, u32 leaf, u32 subleaf, struct x86_hw_cpuid *r);
	int (*read_pmc)(void *priv, u32 ecx, u64 *val);
	void (*write_lvtpc)(void *priv, u32 val);
};

/* one piece of hardware: the operations and their private pointer */
struct x86_hw {
	const struct x86_hw_ops *ops;
	void *priv;
};

/* the CPU the caller runs on */
extern const struct x86_hw x86_hw_native;

static inline int x86_hw_rdmsr(const struct x86_hw *hw, u32 msr, u64 *val)
{
	return hw->ops->read_msr(hw->priv, msr, val);
}

static inline int x86_hw_wrmsr(const struct x86_hw *hw, u32 msr, u64 val)
{
	return hw->ops->write_msr(hw->priv, msr, val);
}

static inline void x86_hw_cpuid(const struct x86_hw *hw, u32 leaf, u32 subleaf,
				struct x86_hw_cpuid *r)
{
	hw->ops->cpuid(hw->priv, leaf, subleaf, r);
}

static inline int x86_hw_rdpmc(const struct x86_hw *hw, u32 ecx, u64 *val)
{
	return hw->ops->read_pmc(hw->priv, ecx, val);
}

static inline void x86_hw_write_lvtpc(const struct x86_hw *hw, u32 val)
{
	hw->ops->write_lvtpc(hw->priv, val);
}

#endif /* _ARCH_X86_EVENTS_HW_H */
