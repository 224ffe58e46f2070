#include "internal.h"
#include <linux/static_call.h>
#include <linux/trace_events.h>

/* bpf.c: BPF programs cannot be attached to events */
DEFINE_STATIC_CALL_RET0(perf_snapshot_branch_stack, perf_snapshot_branch_stack_t);

long perf_ioctl_set_bpf(struct perf_event *event, u32 fd)
{
	return -EOPNOTSUPP;
}

int perf_event_set_bpf_prog(struct perf_event *event, struct bpf_prog *prog,
			    u64 bpf_cookie)
{
	return -EOPNOTSUPP;
}

void perf_event_free_bpf_prog(struct perf_event *event)
{
}

#ifdef CONFIG_BPF_SYSCALL
void perf_bpf_inherit(struct perf_event *child, struct perf_event *parent)
{
}

bool perf_bpf_overflow(struct perf_event *event, struct perf_sample_data *data,
		       struct pt_regs *regs)
{
	return true;
}
#endif
