// SPDX-License-Identifier: GPL-2.0
/*
 * x86 perf glue: the hooks the rest of the x86 kernel calls into the PMU
 * layer, and what sample records need from the architecture (instruction
 * pointer and mode, callchains, the time fields of the user page).  No x86
 * hardware PMU driver is built yet (under TCG the CPU has none), so
 * hardware events are refused with -ENOENT by the core and the PMU hooks
 * have nothing to talk to.
 */
#include <linux/mmu_context.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/uaccess.h>
#include <asm/perf_event.h>
#include <asm/stacktrace.h>
#include <asm/timer.h>
#include <asm/unwind.h>

/* Sample-record helpers: user or kernel, from the saved registers. */
unsigned long perf_instruction_pointer(struct pt_regs *regs)
{
	return regs->ip;
}

unsigned long perf_misc_flags(struct pt_regs *regs)
{
	unsigned long misc = user_mode(regs) ? PERF_RECORD_MISC_USER :
					       PERF_RECORD_MISC_KERNEL;

	if (regs->flags & PERF_EFLAGS_EXACT)
		misc |= PERF_RECORD_MISC_EXACT_IP;
	return misc;
}

/*
 * Registers saved by the hardware on an interrupt have the always-one
 * EFLAGS bit set; those made up by perf_fetch_caller_regs() do not, and
 * only their stack pointer says where to start unwinding.
 */
static bool regs_from_hardware(struct pt_regs *regs)
{
	return regs->flags & X86_EFLAGS_FIXED;
}

void perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
			   struct pt_regs *regs)
{
	struct unwind_state state;
	unsigned long addr;

	if (regs_from_hardware(regs)) {
		if (perf_callchain_store(entry, regs->ip))
			return;
		unwind_start(&state, current, regs, NULL);
	} else {
		unwind_start(&state, current, NULL, (void *)regs->sp);
	}
	for (; !unwind_done(&state); unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr || perf_callchain_store(entry, addr))
			return;
	}
}

/* User frames of a 64-bit task, by frame pointer, never faulting. */
void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
			 struct pt_regs *regs)
{
	const void __user *fp = (const void __user *)regs->bp;
	struct stack_frame frame;

	if (perf_callchain_store(entry, regs->ip))
		return;
	if (!user_64bit_mode(regs))
		return;
	while (fp && !((unsigned long)fp & (sizeof(long) - 1))) {
		if ((unsigned long)fp < regs->sp)
			break;
		if (copy_from_user_nofault(&frame, fp, sizeof(frame)))
			break;
		if (perf_callchain_store(entry, frame.return_address))
			break;
		fp = (const void __user *)frame.next_frame;
	}
}

/*
 * The user page's clock conversion: with a stable TSC, perf's clock is
 * TSC-derived and user space may compute it from rdtsc as
 * time_zero + (tsc * time_mult) >> time_shift.
 */
void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *up, u64 now)
{
	struct cyc2ns_data data;
	u64 offset;

	up->cap_user_time = 0;
	up->cap_user_time_zero = 0;
	up->cap_user_time_short = 0;
	if (!using_native_sched_clock() || !sched_clock_stable())
		return;

	cyc2ns_read_begin(&data);
	offset = data.cyc2ns_offset + __sched_clock_offset;
	up->cap_user_time = 1;
	up->time_mult = data.cyc2ns_mul;
	up->time_shift = data.cyc2ns_shift;
	up->time_offset = offset - now;
	if (!event->attr.use_clockid) {
		up->cap_user_time_zero = 1;
		up->time_zero = offset;
	}
	cyc2ns_read_end();
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
