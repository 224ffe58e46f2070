#include "internal.h"
/* inherit.c: children do not inherit events yet */
int perf_event_init_task(struct task_struct *child, u64 clone_flags)
{
	return 0;
}

void perf_inherit_apply(struct perf_event *parent,
			void (*op)(struct perf_event *event))
{
}

void perf_inherit_exec(struct perf_event_context *ctx)
{
}

void perf_inherit_exit(struct perf_event_context *ctx)
{
}

u64 perf_inherit_read(struct perf_event *parent, u64 *enabled, u64 *running)
{
	return 0;
}

void perf_inherit_release(struct perf_event *parent)
{
}
