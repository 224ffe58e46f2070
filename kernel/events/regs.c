// SPDX-License-Identifier: GPL-2.0
/*
 * Register and user-stack dumps of samples: PERF_SAMPLE_REGS_USER,
 * PERF_SAMPLE_REGS_INTR and PERF_SAMPLE_STACK_USER.  The architecture says
 * which registers exist and how to read them (perf_reg_validate(),
 * perf_reg_value(), perf_reg_abi(), perf_get_regs_user()).
 *
 * Locking: none; this runs in the overflow path, maybe in NMI, on the CPU
 * of the sampled task, and reads its user stack without faulting.  The
 * stack pointer comes from user space: the dump stops at the end of the
 * user address space and every copy is checked with access_ok().
 */
#include <linux/perf_regs.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include <asm/tlb.h>

#include "internal.h"

/* The attr checks of register and stack dumps, at open. */
int perf_regs_check(struct perf_event_attr *attr)
{
	int ret;

	if (attr->sample_type & PERF_SAMPLE_REGS_USER) {
		ret = perf_reg_validate(attr->sample_regs_user);
		if (ret)
			return ret;
	}
	if (attr->sample_type & PERF_SAMPLE_REGS_INTR) {
		ret = perf_reg_validate(attr->sample_regs_intr);
		if (ret)
			return ret;
	}
	/* a record's size is a u16: the dump must leave room for the rest */
	if ((attr->sample_type & PERF_SAMPLE_STACK_USER) &&
	    attr->sample_stack_user >= USHRT_MAX)
		return -EINVAL;
	return 0;
}

/*
 * Extended registers need a PMU that can sample them.  The masks count
 * even without the REGS sample bits that would use them (the ABI).
 */
int perf_regs_pmu_check(struct perf_event *event)
{
	u64 mask = event->attr.sample_regs_user | event->attr.sample_regs_intr;

	if ((mask & PERF_REG_EXTENDED_MASK) &&
	    !(event->pmu->capabilities & PERF_PMU_CAP_EXTENDED_REGS))
		return -EOPNOTSUPP;
	return 0;
}

/* The user registers of the sampled task, or abi NONE for none. */
static void regs_user_fill(struct perf_regs *out, struct pt_regs *regs)
{
	if (regs && user_mode(regs)) {
		out->abi = perf_reg_abi(current);
		out->regs = regs;
	} else if (!(current->flags & PF_KTHREAD) && current->mm) {
		perf_get_regs_user(out, regs);
	} else {
		out->abi = PERF_SAMPLE_REGS_ABI_NONE;
		out->regs = NULL;
	}
}

/*
 * How much of a @want byte dump fits between the sampled user stack
 * pointer and the end of the user address space.  The stack pointer is
 * the user's to set: one that points into the kernel (or is not canonical)
 * gets no dump at all, never a copy of what lies there.
 */
static u32 user_stack_room(struct pt_regs *regs, u32 want)
{
	unsigned long sp = user_stack_pointer(regs);

	if (sp >= TASK_SIZE)
		return 0;
	return min_t(unsigned long, want, TASK_SIZE - sp);
}

/*
 * Gather the register and stack parts of a sample and add their sizes to
 * data->dyn_size; @used is the record size so far, which the stack dump
 * must not push past the u16 limit.
 */
void perf_prepare_regs(struct perf_sample_data *data,
		       struct perf_event *event, struct pt_regs *regs)
{
	u64 type = event->attr.sample_type;

	if (type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER))
		regs_user_fill(&data->regs_user, regs);
	if (type & PERF_SAMPLE_REGS_USER) {
		data->dyn_size += sizeof(u64);
		if (data->regs_user.regs)
			data->dyn_size += hweight64(event->attr.sample_regs_user) *
					  sizeof(u64);
	}
	if (type & PERF_SAMPLE_REGS_INTR) {
		data->regs_intr.regs = regs;
		data->regs_intr.abi = regs ? perf_reg_abi(current) :
					     PERF_SAMPLE_REGS_ABI_NONE;
		data->dyn_size += sizeof(u64);
		if (regs)
			data->dyn_size += hweight64(event->attr.sample_regs_intr) *
					  sizeof(u64);
	}
	if (type & PERF_SAMPLE_STACK_USER) {
		u32 used = perf_sample_data_size(data, event) + sizeof(u64);
		u32 size = 0;

		/* size, then the data and its dynamic size if there is any */
		if (data->regs_user.regs) {
			size = user_stack_room(data->regs_user.regs,
					       event->attr.sample_stack_user);
			/* a record already near the u16 limit dumps nothing */
			if (used + sizeof(u64) >= USHRT_MAX)
				size = 0;
			else if (used + size + sizeof(u64) > USHRT_MAX)
				size = USHRT_MAX - used - sizeof(u64);
			size = round_down(size, sizeof(u64));
		}
		data->stack_user_size = size;
		data->dyn_size += sizeof(u64);
		if (size)
			data->dyn_size += size + sizeof(u64);
	}
	data->sample_flags |= type & (PERF_SAMPLE_REGS_USER |
				      PERF_SAMPLE_REGS_INTR |
				      PERF_SAMPLE_STACK_USER);
}

static void output_regs(struct perf_output_handle *handle,
			struct perf_regs *r, u64 mask)
{
	int bit;

	perf_output_put(handle, r->abi);
	if (!r->regs)
		return;
	for_each_set_bit(bit, (unsigned long *)&mask, 64) {
		u64 value = perf_reg_value(r->regs, bit);

		perf_output_put(handle, value);
	}
}

/* A chunk of the dump; what cannot be read is left to the caller. */
static unsigned long copy_user_stack(void *dst, const void *src,
				     unsigned long off, unsigned long len)
{
	const void __user *from = (const void __user *)src + off;

	if (!nmi_uaccess_okay() || !access_ok(from, len))
		return len;
	return __copy_from_user_inatomic(dst, from, len);
}

/*
 * The user stack from the sampled stack pointer: as much as can be read
 * without faulting (dyn_size says how much), in a dump of the announced
 * size.
 */
static void output_stack(struct perf_output_handle *handle,
			 struct perf_sample_data *data)
{
	u64 size = data->stack_user_size, dyn;
	const void *sp;
	unsigned int left;

	perf_output_put(handle, size);
	if (!size)
		return;
	sp = (const void *)user_stack_pointer(data->regs_user.regs);
	pagefault_disable();
	left = perf_output_copy_fn(handle, copy_user_stack, sp, size);
	pagefault_enable();
	dyn = size - left;
	if (left)
		perf_output_skip(handle, left);
	perf_output_put(handle, dyn);
}

/* The register and stack parts, at their places in the record. */
void perf_output_regs_user(struct perf_output_handle *handle,
			   struct perf_sample_data *data,
			   struct perf_event *event)
{
	output_regs(handle, &data->regs_user, event->attr.sample_regs_user);
}

void perf_output_stack_user(struct perf_output_handle *handle,
			    struct perf_sample_data *data)
{
	output_stack(handle, data);
}

void perf_output_regs_intr(struct perf_output_handle *handle,
			   struct perf_sample_data *data,
			   struct perf_event *event)
{
	output_regs(handle, &data->regs_intr, event->attr.sample_regs_intr);
}
