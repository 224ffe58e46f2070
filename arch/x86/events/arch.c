// SPDX-License-Identifier: GPL-2.0
/*
 * x86 perf glue: what sample records need from the architecture
 * (instruction pointer and mode, callchains, the time fields of the user
 * page) and the rdpmc number of an active event.  The core PMU driver and
 * the hooks the rest of the x86 kernel calls into it are pmu.c.
 * Nothing here has state of its own.
 */
#include <linux/mmu_context.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/uaccess.h>
#include <asm/perf_event.h>
#include <asm/stacktrace.h>
#include <asm/timer.h>
#include <asm/unwind.h>

#include "cpu_pmu.h"
#include "perf_event.h"

/* Sample-record helpers: user or kernel, from the saved registers. */
unsigned long perf_instruction_pointer(struct pt_regs *regs)
{
	if (perf_guest_state())
		return perf_guest_get_ip();
	return regs->ip;
}

/* a sample taken while KVM or Xen ran a guest is the guest's (guest.c) */
unsigned long perf_misc_flags(struct pt_regs *regs)
{
	unsigned int guest = perf_guest_state();
	unsigned long misc;

	if (guest)
		return guest & PERF_GUEST_USER ? PERF_RECORD_MISC_GUEST_USER :
						 PERF_RECORD_MISC_GUEST_KERNEL;
	misc = user_mode(regs) ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL;

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

/*
 * Kernel frames from the unwinder.  Hardware registers name the
 * interrupted instruction, which goes first; made-up registers only say
 * from which stack address to walk.
 */
void perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
			   struct pt_regs *regs)
{
	bool hw = regs_from_hardware(regs);
	struct unwind_state state;
	unsigned long ret;

	/* the host's frames say nothing about a guest's sample */
	if (perf_guest_state())
		return;
	unwind_start(&state, current, hw ? regs : NULL,
		     hw ? NULL : (unsigned long *)regs->sp);
	if (hw && perf_callchain_store(entry, regs->ip))
		return;
	while (!unwind_done(&state)) {
		ret = unwind_get_return_address(&state);
		if (!ret || perf_callchain_store(entry, ret))
			break;
		unwind_next_frame(&state);
	}
}

/*
 * Read the frame at @fp.  The caller (get_perf_callchain()) has page
 * faults disabled: a frame that is not mapped ends the walk.
 */
static bool read_user_frame(const void __user *fp, struct stack_frame *frame)
{
	const struct stack_frame __user *uf = fp;

	if (!user_access_begin(uf, sizeof(*uf)))
		return false;
	unsafe_get_user(frame->next_frame, &uf->next_frame, fault);
	unsafe_get_user(frame->return_address, &uf->return_address, fault);
	user_access_end();
	return true;
fault:
	user_access_end();
	return false;
}

/*
 * User frames of a 64-bit task, by frame pointer, never faulting.  Any
 * frame pointer that reaches a readable user frame is followed, whatever
 * its alignment and wherever it points (the code that set it may not keep
 * frame pointers: a static program's libc start code leaves %rbp pointing
 * into its data): only an unreadable frame or the depth limit ends the
 * walk, as the ABI's callchains do.
 */
void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
			 struct pt_regs *regs)
{
	const void __user *fp = (const void __user *)regs->bp;
	struct stack_frame frame;

	if (perf_guest_state())
		return;
	if (perf_callchain_store(entry, regs->ip))
		return;
	/* in an NMI that came during a switch of mm, user memory is not ours */
	if (!user_64bit_mode(regs) || !nmi_uaccess_okay())
		return;
	while (fp) {
		if (!read_user_frame(fp, &frame))
			break;
		if (perf_callchain_store(entry, frame.return_address))
			break;
		fp = (const void __user *)frame.next_frame;
	}
}

/*
 * The user page's clock conversion.  perf's clock is local_clock(), which
 * with a stable TSC is the scaled TSC plus a fixed base; user space then
 * computes it from rdtsc as  zero + (tsc * mult) >> shift  (the manual
 * page splits the product to avoid overflow).  @now is the clock at the
 * update, from which the enabled/running extrapolation starts.
 */
void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *up, u64 now)
{
	bool tsc_clock = using_native_sched_clock() && sched_clock_stable();
	struct cyc2ns_data scale = { };
	u64 base = 0;

	if (tsc_clock) {
		cyc2ns_read_begin(&scale);
		base = scale.cyc2ns_offset + __sched_clock_offset;
		cyc2ns_read_end();
	}
	up->time_shift = scale.cyc2ns_shift;
	up->time_mult = scale.cyc2ns_mul;
	if (tsc_clock)
		up->time_offset = base - now;
	/* a clock chosen with use_clockid has another base */
	up->time_zero = event->attr.use_clockid ? 0 : base;
	up->cap_user_time_zero = tsc_clock && !event->attr.use_clockid;
	up->cap_user_time = tsc_clock;
	x86_core_user_update_userpage(event, up);
}

/*
 * The counter number user space (and resctrl) gives rdpmc for an active
 * event: what its hardware driver put in hw.event_base_rdpmc.
 */
int x86_perf_rdpmc_index(struct perf_event *event)
{
	lockdep_assert_irqs_disabled();
	return event->hw.event_base_rdpmc;
}
