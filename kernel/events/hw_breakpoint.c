// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware breakpoints as perf events (PERF_TYPE_BREAKPOINT) and the
 * in-kernel breakpoint API used by ptrace, kgdb and the arch code.
 *
 * Not built yet: the "breakpoint" PMU is registered so that user space
 * finds its type, and every request fails with -EOPNOTSUPP; no breakpoint
 * slot is ever handed out, so there is nothing to release or flush.
 */
#include <linux/hw_breakpoint.h>
#include <linux/init.h>

#include "internal.h"

static int bp_event_init(struct perf_event *event)
{
	if (event->attr.type != PERF_TYPE_BREAKPOINT)
		return -ENOENT;
	return -EOPNOTSUPP;
}

static int bp_add(struct perf_event *event, int flags)
{
	return -EOPNOTSUPP;
}

static void bp_nop(struct perf_event *event, int flags)
{
}

static void bp_read(struct perf_event *event)
{
}

static struct pmu perf_breakpoint_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.event_init	= bp_event_init,
	.add		= bp_add,
	.del		= bp_nop,
	.start		= bp_nop,
	.stop		= bp_nop,
	.read		= bp_read,
};

int __init init_hw_breakpoint(void)
{
	return perf_pmu_register(&perf_breakpoint_pmu, "breakpoint",
				 PERF_TYPE_BREAKPOINT);
}

struct perf_event *
register_user_hw_breakpoint(struct perf_event_attr *attr,
			    perf_overflow_handler_t triggered, void *context,
			    struct task_struct *tsk)
{
	return ERR_PTR(-EOPNOTSUPP);
}
EXPORT_SYMBOL_GPL(register_user_hw_breakpoint);

int modify_user_hw_breakpoint(struct perf_event *bp,
			      struct perf_event_attr *attr)
{
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL_GPL(modify_user_hw_breakpoint);

int modify_user_hw_breakpoint_check(struct perf_event *bp,
				    struct perf_event_attr *attr, bool check)
{
	return -EOPNOTSUPP;
}

struct perf_event *
register_wide_hw_breakpoint_cpu(struct perf_event_attr *attr,
				perf_overflow_handler_t triggered,
				void *context, int cpu)
{
	return ERR_PTR(-EOPNOTSUPP);
}

struct perf_event * __percpu *
register_wide_hw_breakpoint(struct perf_event_attr *attr,
			    perf_overflow_handler_t triggered, void *context)
{
	return ERR_PTR_PCPU(-EOPNOTSUPP);
}
EXPORT_SYMBOL_GPL(register_wide_hw_breakpoint);

int register_perf_hw_breakpoint(struct perf_event *bp)
{
	return -EOPNOTSUPP;
}

void unregister_hw_breakpoint(struct perf_event *bp)
{
	if (bp)
		perf_event_release_kernel(bp);
}
EXPORT_SYMBOL_GPL(unregister_hw_breakpoint);

void unregister_wide_hw_breakpoint(struct perf_event * __percpu *cpu_events)
{
}
EXPORT_SYMBOL_GPL(unregister_wide_hw_breakpoint);

bool hw_breakpoint_is_used(void)
{
	return false;
}

int dbg_reserve_bp_slot(struct perf_event *bp)
{
	return -EOPNOTSUPP;
}

int dbg_release_bp_slot(struct perf_event *bp)
{
	return 0;
}

int reserve_bp_slot(struct perf_event *bp)
{
	return -EOPNOTSUPP;
}

void release_bp_slot(struct perf_event *bp)
{
}
