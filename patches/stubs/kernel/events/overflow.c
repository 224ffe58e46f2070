#include "internal.h"
/* overflow.c: sampling events are refused at open (-EOPNOTSUPP) */
int perf_sample_check(struct perf_event *event)
{
	return is_sampling_event(event) ? -EOPNOTSUPP : 0;
}

int perf_event_overflow(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs)
{
	return 0;
}

int perf_event_overflow_throttle(struct perf_event *event,
				 struct perf_sample_data *data,
				 struct pt_regs *regs, bool throttle)
{
	return 0;
}

int perf_event_period(struct perf_event *event, u64 value)
{
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(perf_event_period);

int perf_event_refresh(struct perf_event *event, int refresh)
{
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(perf_event_refresh);

void perf_event_unthrottle_in(struct perf_event *event)
{
}

void perf_event_wakeup_exit(struct perf_event *event)
{
}

void perf_overflow_account(struct perf_event *event)
{
}

void perf_overflow_free_event(struct perf_event *event)
{
}

void perf_overflow_init_event(struct perf_event *event)
{
}

void perf_sample_budget_update(void)
{
}

void perf_sample_tick(struct perf_cpu_context *cpuctx)
{
}
