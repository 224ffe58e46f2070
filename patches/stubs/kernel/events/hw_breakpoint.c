#include "internal.h"
#include <linux/hw_breakpoint.h>
/* hw_breakpoint.c: no breakpoint PMU, breakpoints cannot be set */
#ifdef CONFIG_HAVE_HW_BREAKPOINT
int __init init_hw_breakpoint(void)
{
	return 0;
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

int perf_event_modify_breakpoint(struct perf_event *bp,
				 struct perf_event_attr *attr)
{
	return -EOPNOTSUPP;
}

void unregister_hw_breakpoint(struct perf_event *bp)
{
}
EXPORT_SYMBOL_GPL(unregister_hw_breakpoint);

void perf_bp_event(struct perf_event *bp, void *data)
{
}
#endif
