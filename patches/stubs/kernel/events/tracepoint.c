#include "internal.h"
#include <linux/trace_events.h>
/* tracepoint.c: the tracepoint PMUs are not registered */
#ifdef CONFIG_EVENT_TRACING
void perf_tp_init(void)
{
}

int perf_tp_set_filter(struct perf_event *event, char *filter)
{
	return -EINVAL;
}

void perf_tp_event(u16 event_type, u64 count, void *record, int entry_size,
		   struct pt_regs *regs, struct hlist_head *head, int rctx,
		   struct task_struct *task)
{
	perf_swevent_put_recursion_context(rctx);
}
EXPORT_SYMBOL_GPL(perf_tp_event);

void perf_trace_run_bpf_submit(void *raw_data, int size, int rctx,
			       struct trace_event_call *call, u64 count,
			       struct pt_regs *regs, struct hlist_head *head,
			       struct task_struct *task)
{
	perf_swevent_put_recursion_context(rctx);
}
EXPORT_SYMBOL_GPL(perf_trace_run_bpf_submit);
#endif
