// SPDX-License-Identifier: GPL-2.0
/*
 * BPF programs and perf events: PERF_EVENT_IOC_SET_BPF and the perf_event
 * links of bpf(BPF_LINK_CREATE) (perf_event_set_bpf_prog() and
 * perf_event_free_bpf_prog()), and the branch-snapshot static call that
 * the verifier inlines for bpf_get_branch_snapshot().
 *
 * A program is checked against the event as stock checks it: tracepoint
 * events take BPF_PROG_TYPE_TRACEPOINT programs, every other event
 * BPF_PROG_TYPE_PERF_EVENT ones; anything else is -EINVAL.  Running the
 * programs is not built yet: a program of the right type is refused with
 * -EOPNOTSUPP (both types need CONFIG_BPF_EVENTS, which the test kernels
 * lack), so no event ever holds one.
 *
 * The records of program loads and unloads (KSYMBOL, BPF_EVENT) are in
 * sideband.c.
 *
 * Locking: none of its own; called in process context by the event's
 * owner (the ioctl) or by the BPF link that holds the event's file.
 */
#include <linux/bpf.h>
#include <linux/static_call.h>
#include <linux/trace_events.h>

#include "internal.h"

/* no PMU of the series records branches: a snapshot is always empty */
DEFINE_STATIC_CALL_RET0(perf_snapshot_branch_stack, perf_snapshot_branch_stack_t);

static enum bpf_prog_type bpf_prog_type_for(struct perf_event *event)
{
	if (event->attr.type == PERF_TYPE_TRACEPOINT)
		return BPF_PROG_TYPE_TRACEPOINT;
	return BPF_PROG_TYPE_PERF_EVENT;
}

int perf_event_set_bpf_prog(struct perf_event *event, struct bpf_prog *prog,
			    u64 bpf_cookie)
{
	if (prog->type != bpf_prog_type_for(event))
		return -EINVAL;
	return -EOPNOTSUPP;
}

/* Nothing to detach: perf_event_set_bpf_prog() never attaches. */
void perf_event_free_bpf_prog(struct perf_event *event)
{
}

/* PERF_EVENT_IOC_SET_BPF: @fd is a program's file descriptor. */
long perf_ioctl_set_bpf(struct perf_event *event, u32 fd)
{
	struct bpf_prog *prog;
	int ret;

	/* -EBADF for no file, -EINVAL for a file that is not a program */
	prog = bpf_prog_get(fd);
	if (IS_ERR(prog))
		return PTR_ERR(prog);
	ret = perf_event_set_bpf_prog(event, prog, 0);
	if (ret)
		bpf_prog_put(prog);
	return ret;
}
