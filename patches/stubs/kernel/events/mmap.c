#include "internal.h"
#include <linux/mm_types.h>

/* mmap.c: an event cannot be mapped, so it has no user page */
int perf_event_mmap_fop(struct file *file, struct vm_area_struct *vma)
{
	return -ENODEV;
}

int perf_event_pause_output(struct perf_event *event, unsigned long pause)
{
	return -EINVAL;
}

__poll_t perf_event_poll(struct perf_event *event, struct file *file,
			 poll_table *wait)
{
	return EPOLLHUP;
}

int perf_event_set_output(struct perf_event *event, struct perf_event *output)
{
	return -EINVAL;
}

void perf_event_update_userpage(struct perf_event *event)
{
}
EXPORT_SYMBOL_GPL(perf_event_update_userpage);
