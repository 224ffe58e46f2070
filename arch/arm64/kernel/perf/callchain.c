// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 perf glue: what the sample-record code needs to know about saved
 * registers.  Callchain walking lands with sampling.
 */
#include <linux/perf_event.h>
#include <asm/ptrace.h>

unsigned long perf_instruction_pointer(struct pt_regs *regs)
{
	return instruction_pointer(regs);
}

unsigned long perf_misc_flags(struct pt_regs *regs)
{
	return user_mode(regs) ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL;
}
