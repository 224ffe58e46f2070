#include "internal.h"
/* output.c: no records are written */
int perf_event_output(struct perf_event *event, struct perf_sample_data *data,
		      struct pt_regs *regs)
{
	return -ENOSPC;
}

void perf_event_sizes_init(struct perf_event *event)
{
}

void perf_log_itrace_start(struct perf_event *event)
{
}

void perf_output_lost(struct perf_output_handle *handle,
		      struct perf_event *event, u64 lost)
{
}

void perf_event_output_forward(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs)
{
}

void perf_event_output_backward(struct perf_event *event,
				struct perf_sample_data *data,
				struct pt_regs *regs)
{
}

void perf_report_aux_output_id(struct perf_event *event, u64 hw_id)
{
}
EXPORT_SYMBOL_GPL(perf_report_aux_output_id);
