#include "internal.h"
#include <linux/sysctl.h>

/* callchain.c: callchain samples and BPF stack maps are refused */
int perf_callchain_event_init(struct perf_event *event)
{
	if (event->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
		return -EOPNOTSUPP;
	return 0;
}

void perf_callchain_event_free(struct perf_event *event)
{
}

struct perf_callchain_entry *perf_callchain(struct perf_event *event,
					    struct pt_regs *regs)
{
	return NULL;
}

int get_callchain_buffers(int event_max_stack)
{
	return -EOPNOTSUPP;
}

void put_callchain_buffers(void)
{
}

struct perf_callchain_entry *get_callchain_entry(int *rctx)
{
	return NULL;
}

void put_callchain_entry(int rctx)
{
}

struct perf_callchain_entry *
get_perf_callchain(struct pt_regs *regs, bool kernel, bool user,
		   u32 max_stack, bool crosstask, bool add_mark)
{
	return NULL;
}

int perf_event_max_stack_handler(const struct ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos)
{
	return proc_dointvec_minmax(table, write, buffer, lenp, ppos);
}
