// SPDX-License-Identifier: GPL-2.0
/*
 * arm64 registers in samples (PERF_SAMPLE_REGS_USER / REGS_INTR): the
 * register numbering of <uapi/asm/perf_regs.h> (x0..x30, sp, pc, and the
 * SVE vector granule VG as an extended register), mapped onto pt_regs.
 * An AArch32 task's banked sp and lr live in x13 and x14.
 */
#include <linux/bug.h>
#include <linux/perf_event.h>
#include <linux/perf_regs.h>
#include <linux/sched/task_stack.h>
#include <asm/fpsimd.h>
#include <asm/ptrace.h>

/* The bits of the registers perf_reg_value() knows, besides VG. */
#define ARM64_PERF_REGS_MASK	GENMASK_ULL(PERF_REG_ARM64_MAX - 1, 0)

u64 perf_reg_value(struct pt_regs *regs, int idx)
{
	switch (idx) {
	case PERF_REG_ARM64_VG:
		/* 64-bit granules in the current SVE vector length */
		if (!system_supports_sve())
			return 0;
		return sve_vq_from_vl(task_get_sve_vl(current)) * 2;
	case PERF_REG_ARM64_SP:
		return compat_user_mode(regs) ? regs->compat_sp : regs->sp;
	case PERF_REG_ARM64_LR:
		return compat_user_mode(regs) ? regs->compat_lr :
						regs->regs[30];
	case PERF_REG_ARM64_PC:
		return regs->pc;
	default:
		if (WARN_ON_ONCE((u32)idx >= PERF_REG_ARM64_LR))
			return 0;
		return regs->regs[idx];
	}
}

int perf_reg_validate(u64 mask)
{
	u64 valid = ARM64_PERF_REGS_MASK;

	if (system_supports_sve())
		valid |= PERF_REG_EXTENDED_MASK;
	if (!mask || (mask & ~valid))
		return -EINVAL;
	return 0;
}

u64 perf_reg_abi(struct task_struct *task)
{
	return is_compat_thread(task_thread_info(task)) ?
	       PERF_SAMPLE_REGS_ABI_32 : PERF_SAMPLE_REGS_ABI_64;
}

void perf_get_regs_user(struct perf_regs *regs_user, struct pt_regs *regs)
{
	regs_user->regs = task_pt_regs(current);
	regs_user->abi = perf_reg_abi(current);
}
