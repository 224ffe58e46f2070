#include "internal.h"
/* addr_filter.c: address filters cannot be set */
int perf_addr_filters_alloc(struct perf_event *event)
{
	return 0;
}

void perf_addr_filters_free(struct perf_event *event)
{
}

int perf_addr_filters_set(struct perf_event *event, char *str)
{
	return -EOPNOTSUPP;
}

void perf_addr_filters_inherit(struct perf_event *event,
			       struct perf_event *copied)
{
}

void perf_addr_filters_exec(void)
{
}

void perf_addr_filters_mmap(struct vm_area_struct *vma)
{
}

void perf_event_addr_filters_sync(struct perf_event *event)
{
}
EXPORT_SYMBOL_GPL(perf_event_addr_filters_sync);
