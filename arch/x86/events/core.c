// SPDX-License-Identifier: GPL-2.0
/*
 * x86 perf glue: the hooks the rest of the x86 kernel calls into the PMU
 * layer.  No x86 hardware PMU driver is built yet (under TCG the CPU has
 * none), so hardware events are refused with -ENOENT by the core and these
 * hooks have no PMU to talk to.
 */
#include <linux/mmu_context.h>
#include <linux/perf_event.h>
#include <asm/perf_event.h>

/* Sample-record helpers: user or kernel, from the saved registers. */
unsigned long perf_instruction_pointer(struct pt_regs *regs)
{
	return regs->ip;
}

unsigned long perf_misc_flags(struct pt_regs *regs)
{
	return user_mode(regs) ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL;
}

/* KVM asks what the host PMU offers: nothing. */
void perf_get_x86_pmu_capability(struct x86_pmu_capability *cap)
{
	memset(cap, 0, sizeof(*cap));
}
EXPORT_SYMBOL_GPL(perf_get_x86_pmu_capability);

u64 perf_get_hw_event_config(int hw_event)
{
	return 0;
}
EXPORT_SYMBOL_GPL(perf_get_hw_event_config);

void perf_check_microcode(void)
{
}

void perf_clear_dirty_counters(void)
{
}

void perf_events_lapic_init(void)
{
}

/*
 * CR4.PCE policy for user-space rdpmc (see arch/x86/mm/tlb.c): with no PMU
 * driver neither key is ever flipped, and mm->context decides as usual.
 */
DEFINE_STATIC_KEY_FALSE(rdpmc_never_available_key);
DEFINE_STATIC_KEY_FALSE(rdpmc_always_available_key);
