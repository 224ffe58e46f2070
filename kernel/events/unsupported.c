// SPDX-License-Identifier: GPL-2.0
/*
 * What the rest of the kernel calls for features this series has not
 * built yet: tracepoint events (the tracepoint PMU exists so that user
 * space finds its type, and refuses every event with -EOPNOTSUPP).
 */
#include <linux/trace_events.h>

#include "internal.h"

void perf_sample_event_took(u64 sample_len_ns)
{
}

void perf_event_print_debug(void)
{
}

/* Tracepoint events (PERF_TYPE_TRACEPOINT) */
static int tp_event_init(struct perf_event *event)
{
	if (event->attr.type != PERF_TYPE_TRACEPOINT)
		return -ENOENT;
	return -EOPNOTSUPP;
}

static int tp_add(struct perf_event *event, int flags)
{
	return -EOPNOTSUPP;
}

static void tp_nop(struct perf_event *event, int flags)
{
}

static void tp_read(struct perf_event *event)
{
}

static struct pmu perf_tracepoint_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.event_init	= tp_event_init,
	.add		= tp_add,
	.del		= tp_nop,
	.start		= tp_nop,
	.stop		= tp_nop,
	.read		= tp_read,
};

void __init perf_tp_init(void)
{
	perf_pmu_register(&perf_tracepoint_pmu, "tracepoint",
			  PERF_TYPE_TRACEPOINT);
}

/* No tracepoint event can be attached, so no list has one to feed. */
void perf_tp_event(u16 event_type, u64 count, void *record, int entry_size,
		   struct pt_regs *regs, struct hlist_head *head, int rctx,
		   struct task_struct *task)
{
	perf_swevent_put_recursion_context(rctx);
}
EXPORT_SYMBOL_GPL(perf_tp_event);

/* The perf probe of every tracepoint ends here; see perf_tp_event(). */
void perf_trace_run_bpf_submit(void *raw_data, int size, int rctx,
			       struct trace_event_call *call, u64 count,
			       struct pt_regs *regs, struct hlist_head *head,
			       struct task_struct *task)
{
	perf_tp_event(call->event.type, count, raw_data, size, regs, head,
		      rctx, task);
}
EXPORT_SYMBOL_GPL(perf_trace_run_bpf_submit);
