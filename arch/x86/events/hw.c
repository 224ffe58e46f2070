// SPDX-License-Identifier: GPL-2.0
/*
 * x86_hw_native: the hardware access layer (hw.h) on the real CPU.  MSR
 * accesses use the exception-table-protected instructions, so an MSR the
 * CPU lacks (a hypervisor that hides the PMU) is an error, not an oops.
 * No state, no locking: each operation acts on the executing CPU.
 */
#include <linux/errno.h>
#include <linux/processor.h>
#include <asm/apic.h>
#include <asm/msr.h>

#include "hw.h"

static int cpu_read_msr(void *priv, u32 msr, u64 *val)
{
	if (rdmsrl_safe(msr, val)) {
		*val = 0;
		return -EIO;
	}
	return 0;
}

static int cpu_write_msr(void *priv, u32 msr, u64 val)
{
	return wrmsrl_safe(msr, val) ? -EIO : 0;
}

static void cpu_cpuid(void *priv, u32 leaf, u32 subleaf,
		      struct x86_hw_cpuid *r)
{
	cpuid_count(leaf, subleaf, &r->eax, &r->ebx, &r->ecx, &r->edx);
}

static int cpu_read_pmc(void *priv, u32 ecx, u64 *val)
{
	rdpmcl(ecx, *val);
	return 0;
}

static void cpu_write_lvtpc(void *priv, u32 val)
{
	apic_write(APIC_LVTPC, val);
}

static const struct x86_hw_ops native_ops = {
	.read_msr	= cpu_read_msr,
	.write_msr	= cpu_write_msr,
	.cpuid		= cpu_cpuid,
	.read_pmc	= cpu_read_pmc,
	.write_lvtpc	= cpu_write_lvtpc,
};

const struct x86_hw x86_hw_native = {
	.ops = &native_ops,
};
