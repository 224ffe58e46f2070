// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 perf glue for sample records: the instruction pointer and mode of
 * saved registers, and callchains.  Kernel frames come from the stack
 * unwinder; user frames follow the AAPCS64 frame records ({fp, lr} pairs
 * chained through x29), read without faulting.
 */
#include <linux/perf_event.h>
#include <linux/stacktrace.h>
#include <linux/uaccess.h>
#include <asm/pointer_auth.h>
#include <asm/ptrace.h>

/* A sample taken while KVM ran a guest is the guest's (guest.c). */
unsigned long perf_instruction_pointer(struct pt_regs *regs)
{
	if (perf_guest_state())
		return perf_guest_get_ip();
	return instruction_pointer(regs);
}

unsigned long perf_misc_flags(struct pt_regs *regs)
{
	unsigned int guest = perf_guest_state();

	if (guest)
		return guest & PERF_GUEST_USER ? PERF_RECORD_MISC_GUEST_USER :
						 PERF_RECORD_MISC_GUEST_KERNEL;
	return user_mode(regs) ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL;
}

static bool store_kernel_frame(void *cookie, unsigned long pc)
{
	return !perf_callchain_store(cookie, pc);
}

void perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
			   struct pt_regs *regs)
{
	/* the host's frames say nothing about a guest's sample */
	if (perf_guest_state())
		return;
	arch_stack_walk(store_kernel_frame, entry, current, regs);
}

/* An AArch64 frame record: the caller's frame pointer and return address. */
struct user_frame_record {
	u64 fp;
	u64 lr;
};

/*
 * Read the frame record at @fp.  The caller (get_perf_callchain()) has
 * page faults disabled: a record that is not mapped ends the walk.
 */
static bool read_user_frame(u64 fp, u64 *next, u64 *lr)
{
	struct user_frame_record __user *rec = (void __user *)fp;

	if (!user_access_begin(rec, sizeof(*rec)))
		return false;
	unsafe_get_user(*next, &rec->fp, fault);
	unsafe_get_user(*lr, &rec->lr, fault);
	user_access_end();
	return true;
fault:
	user_access_end();
	return false;
}

void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
			 struct pt_regs *regs)
{
	u64 fp = regs->regs[29], next, lr;

	if (perf_guest_state())
		return;
	if (perf_callchain_store(entry, regs->pc))
		return;
	if (compat_user_mode(regs))
		return;
	/*
	 * A frame record is two doublewords: one at an address that is not
	 * a multiple of 8 ends the walk, one 8 bytes off the 16 that AAPCS64
	 * asks of the stack does not (a program may build its chain
	 * anywhere, a static array of records included).
	 */
	while (fp && IS_ALIGNED(fp, 8)) {
		if (!read_user_frame(fp, &next, &lr))
			break;
		if (perf_callchain_store(entry, ptrauth_strip_user_insn_pac(lr)))
			break;
		/* frames live at increasing addresses */
		if (next <= fp)
			break;
		fp = next;
	}
}
