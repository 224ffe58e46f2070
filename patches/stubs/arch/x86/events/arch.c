#include <asm/perf_event.h>

/* arch.c: samples carry the interrupted IP and its mode, no callchains */
unsigned long perf_instruction_pointer(struct pt_regs *regs)
{
	return instruction_pointer(regs);
}

unsigned long perf_misc_flags(struct pt_regs *regs)
{
	return user_mode(regs) ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL;
}

int x86_perf_rdpmc_index(struct perf_event *event)
{
	return -1;
}
