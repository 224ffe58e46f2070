// SPDX-License-Identifier: GPL-2.0
/*
 * BPF programs and perf events: PERF_EVENT_IOC_SET_BPF and the perf_event
 * links of bpf(BPF_LINK_CREATE) (perf_event_set_bpf_prog() and
 * perf_event_free_bpf_prog()), the program of a sampling event run at
 * each overflow, and the branch-snapshot static call that the verifier
 * inlines for bpf_get_branch_snapshot().
 *
 * Which program an event takes:
 *  - an event of a trace event (the tracepoint, kprobe and uprobe PMUs):
 *    BPF_PROG_TYPE_TRACEPOINT for tracepoints and system call events,
 *    BPF_PROG_TYPE_KPROBE for kprobes and uprobes.  The program joins the
 *    trace event's program array (kernel/trace/bpf_trace.c), which runs
 *    on every hit before perf sees it; a return of 0 drops the hit.
 *  - any other event: a BPF_PROG_TYPE_PERF_EVENT program, held by the
 *    event (and by its inherited copies) and run at each of its
 *    overflows, with the sample data and the registers as context; a
 *    return of 0 drops the sample and everything an overflow does besides
 *    (the signal, the wakeup, the IOC_REFRESH count).
 * Anything else is -EINVAL; an event has one program at most (-EEXIST).
 *
 * The records of program loads and unloads (KSYMBOL, BPF_EVENT) are in
 * sideband.c.
 *
 * Locking: attaching and detaching run in process context, by the event's
 * owner (the ioctl), by the BPF link that holds the event's file (which
 * detaches when it is closed), or when the event is freed; perf_bpf_mutex
 * serializes what changes or copies the program of a sampling event, the
 * tracing side that of trace events' programs.  An overflow reads
 * event->prog under RCU with preemption off; a program is freed after a
 * grace period (bpf_prog_put()).
 */
#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/mutex.h>
#include <linux/static_call.h>
#include <linux/syscalls.h>
#include <linux/trace_events.h>

#include "internal.h"

/* no PMU here records branches yet: a snapshot is always empty */
DEFINE_STATIC_CALL_RET0(perf_snapshot_branch_stack, perf_snapshot_branch_stack_t);

/*
 * Serializes the attaching, detaching and inheriting of sampling programs
 * (the ioctl, links, fork): event->prog of a non-tracing event changes
 * only under it, and a copy takes its reference under it.
 */
static DEFINE_MUTEX(perf_bpf_mutex);

/* A kprobe program made for a kprobe_multi, uprobe_multi or session link */
static bool bpf_prog_is_multi(struct bpf_prog *prog)
{
	switch (prog->expected_attach_type) {
	case BPF_TRACE_KPROBE_MULTI:
	case BPF_TRACE_KPROBE_SESSION:
	case BPF_TRACE_UPROBE_MULTI:
		return true;
	default:
		return false;
	}
}

/* A program for the trace event of @event: its kind and its context. */
static int bpf_check_tracing(struct perf_event *event, struct bpf_prog *prog)
{
	struct trace_event_call *call = event->tp_event;
	bool kprobe = call->flags & TRACE_EVENT_FL_KPROBE;
	bool uprobe = call->flags & TRACE_EVENT_FL_UPROBE;
	bool tracepoint = (call->flags & TRACE_EVENT_FL_TRACEPOINT) ||
			  is_syscall_trace_event(call);

	if (kprobe || uprobe) {
		if (prog->type != BPF_PROG_TYPE_KPROBE ||
		    bpf_prog_is_multi(prog))
			return -EINVAL;
		/* only a uprobe runs where it may sleep */
		if (prog->sleepable && !uprobe)
			return -EINVAL;
		if (prog->kprobe_override && !kprobe)
			return -EINVAL;
		return 0;
	}
	if (!tracepoint || prog->type != BPF_PROG_TYPE_TRACEPOINT)
		return -EINVAL;
	/* the program must read inside the record, whose size it did not know */
	if (prog->aux->max_ctx_offset > trace_event_get_offsets(call))
		return -EACCES;
	return 0;
}

/*
 * A program on a sampling event.  On an event whose samples the PMU takes
 * early (precise_ip), a program that walks the stack needs the callchain
 * of the sample itself, both kernel and user parts.
 */
static int bpf_check_sampling(struct perf_event *event, struct bpf_prog *prog)
{
	struct perf_event_attr *attr = &event->attr;

	if (prog->type != BPF_PROG_TYPE_PERF_EVENT)
		return -EINVAL;
	if (attr->precise_ip && prog->call_get_stack &&
	    (!(attr->sample_type & PERF_SAMPLE_CALLCHAIN) ||
	     attr->exclude_callchain_kernel || attr->exclude_callchain_user))
		return -EPROTO;
	if (event->prog)
		return -EEXIST;
	return 0;
}

/*
 * Attach @prog (whose reference the event takes on success) to @event,
 * with @bpf_cookie for bpf_get_attach_cookie().
 */
int perf_event_set_bpf_prog(struct perf_event *event, struct bpf_prog *prog,
			    u64 bpf_cookie)
{
	int ret;

	if (!perf_event_is_tracing(event)) {
		mutex_lock(&perf_bpf_mutex);
		ret = bpf_check_sampling(event, prog);
		if (!ret) {
			event->bpf_cookie = bpf_cookie;
			WRITE_ONCE(event->prog, prog);
		}
		mutex_unlock(&perf_bpf_mutex);
		return ret;
	}
	ret = bpf_check_tracing(event, prog);
	if (ret)
		return ret;
	return perf_event_attach_bpf_prog(event, prog, bpf_cookie);
}

/* Detach the program of @event, if any, and drop its reference. */
void perf_event_free_bpf_prog(struct perf_event *event)
{
	struct bpf_prog *prog = event->prog;

	if (!prog)
		return;
	if (perf_event_is_tracing(event)) {
		perf_event_detach_bpf_prog(event);
		return;
	}
	mutex_lock(&perf_bpf_mutex);
	WRITE_ONCE(event->prog, NULL);
	mutex_unlock(&perf_bpf_mutex);
	bpf_prog_put(prog);
}

#ifdef CONFIG_BPF_SYSCALL
/* A copy of an event made at fork runs its parent's sampling program. */
void perf_bpf_inherit(struct perf_event *child, struct perf_event *parent)
{
	struct bpf_prog *prog;

	if (!READ_ONCE(parent->prog) || perf_event_is_tracing(parent))
		return;
	/* the parent's link may be dropping the program right now */
	mutex_lock(&perf_bpf_mutex);
	prog = parent->prog;
	if (prog) {
		bpf_prog_inc(prog);
		child->bpf_cookie = parent->bpf_cookie;
		child->prog = prog;
	}
	mutex_unlock(&perf_bpf_mutex);
}
#endif

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

#ifdef CONFIG_BPF_SYSCALL
/*
 * An overflow of @event, which has a program: run it on the sample (the
 * program of an event of a trace event ran at the hit already).  The
 * callchain is gathered first where the sample has one, for the stack
 * helpers.  Returns false when the sample is to be dropped: the program
 * said so, or another program runs on this CPU already (whose helpers
 * are not reentrant).
 */
bool perf_bpf_overflow(struct perf_event *event, struct perf_sample_data *data,
		       struct pt_regs *regs)
{
	struct bpf_perf_event_data_kern ctx = {
		.regs	= perf_arch_bpf_user_pt_regs(regs),
		.data	= data,
		.event	= event,
	};
	struct bpf_prog *prog;
	u32 ret = 0;

	if (perf_event_is_tracing(event))
		return true;
	preempt_disable();
	if (unlikely(__this_cpu_inc_return(bpf_prog_active) != 1))
		goto out;
	rcu_read_lock();
	prog = READ_ONCE(event->prog);
	if (prog) {
		if ((event->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
		    !(data->sample_flags & PERF_SAMPLE_CALLCHAIN))
			perf_sample_save_callchain(data, event, regs);
		ret = bpf_prog_run(prog, &ctx);
	}
	rcu_read_unlock();
out:
	__this_cpu_dec(bpf_prog_active);
	preempt_enable();
	return ret;
}
#endif
