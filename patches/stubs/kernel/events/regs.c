#include "internal.h"
/* regs.c: samples with registers or a user stack are refused */
int perf_regs_check(struct perf_event_attr *attr)
{
	if (attr->sample_type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR |
				 PERF_SAMPLE_STACK_USER))
		return -EOPNOTSUPP;
	return 0;
}

int perf_regs_pmu_check(struct perf_event *event)
{
	return 0;
}

void perf_prepare_regs(struct perf_sample_data *data,
		       struct perf_event *event, struct pt_regs *regs)
{
}

void perf_output_regs_intr(struct perf_output_handle *handle,
			   struct perf_sample_data *data,
			   struct perf_event *event)
{
}

void perf_output_regs_user(struct perf_output_handle *handle,
			   struct perf_sample_data *data,
			   struct perf_event *event)
{
}

void perf_output_stack_user(struct perf_output_handle *handle,
			    struct perf_sample_data *data)
{
}
