// SPDX-License-Identifier: GPL-2.0
/*
 * Events of trace events: the "tracepoint" PMU (PERF_TYPE_TRACEPOINT),
 * whose attr.config is the id of a trace event (tracefs
 * events/<sys>/<name>/id), the "kprobe" and "uprobe" PMUs, each of whose
 * events makes a kprobe or uprobe of its own (a trace event that tracefs
 * does not list), the
 * ftrace filter of such an event (PERF_EVENT_IOC_SET_FILTER), and
 * perf_tp_event(), where the perf probe of every trace event hands over
 * its hits.
 *
 * The tracing side (kernel/trace/trace_event_perf.c) owns the trace event:
 * perf_trace_init() finds it by id, checks who may have its raw records
 * and registers the probe; perf_trace_add()/perf_trace_del() put an event
 * on, and take it off, the trace event's list for this CPU.  A hit comes
 * with the record, a count (1, or an amount such as the runtime of
 * sched_stat_runtime) and, for a few scheduler tracepoints, the task the
 * hit is about.  It counts on every event of this CPU's list that is not
 * stopped, excluded at the probe's registers (exclude_kernel only) or
 * rejected by its filter, and samples through the software event path
 * with the record as PERF_SAMPLE_RAW.  A hit about another task counts
 * too on that task's events bound to this CPU, which cannot be active
 * here, so they count without sampling; the task's events bound to no CPU
 * do not see it.
 *
 * Locking: ->add()/->del() edit this CPU's list with IRQs off (ctx->lock
 * held); hits walk it with preemption off, under the software recursion
 * guard that perf_trace_buf_alloc() took, and events are freed after an
 * RCU grace period.  A walk of another task's events holds that task's
 * ctx->lock; the probes that name a task run under the scheduler's
 * p->pi_lock and rq->lock, which the context switch hooks also take
 * before any ctx->lock.  Filters are set under the tracing side's
 * event_mutex, read locklessly by hits, and freed after a grace period.
 */
#include <linux/capability.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/trace_events.h>

#include "internal.h"

/*
 * Whether @record passes the filter of @event; an inherited event follows
 * its parent's filter, whenever that was set.
 */
static bool tp_filter_match(struct perf_event *event, void *record)
{
	struct event_filter *filter;

	filter = READ_ONCE((event->parent ?: event)->filter);
	return !filter || filter_match_preds(filter, record);
}

static struct pmu perf_tracepoint_pmu;

/*
 * A hit about @task (not current): count it on @task's events of this
 * trace event that are bound to this CPU.  None of them is active here,
 * so none samples; nor can a SIGTRAP go to another task.
 */
static void tp_hit_task(struct task_struct *task, u16 type, u64 count,
			void *record, struct pt_regs *regs)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	int cpu = smp_processor_id();
	unsigned long flags;

	rcu_read_lock();
	ctx = READ_ONCE(task->perf_event_ctxp);
	if (!ctx)
		goto out;
	raw_spin_lock_irqsave(&ctx->lock, flags);
	/* a context detached at exit keeps its final counts */
	if (ctx->task != task)
		goto unlock;
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (event->pmu != &perf_tracepoint_pmu ||
		    event->attr.config != type || event->cpu != cpu ||
		    event->attr.sigtrap)
			continue;
		if (perf_tp_excluded(event, regs) ||
		    !tp_filter_match(event, record))
			continue;
		local64_add(count, &event->count);
	}
unlock:
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
out:
	rcu_read_unlock();
}

/**
 * perf_tp_event - hand a trace event's hit to its perf events
 * @event_type: the trace event's id (attr.config of its events)
 * @count: what the hit counts: 1, or an amount
 * @record: the raw record, from perf_trace_buf_alloc()
 * @entry_size: its size in bytes
 * @regs: the registers of the hit
 * @head: the trace event's list of perf events on this CPU
 * @rctx: the recursion level that perf_trace_buf_alloc() took
 * @task: the task the hit is about, or NULL
 *
 * A hit of trace event @event_type: @record (@entry_size bytes, u64
 * aligned with the u32 size of PERF_SAMPLE_RAW in front; the probe left
 * its common fields to us) counts @count on
 * the events of @head, this CPU's list, and on those of @task if that is
 * not current.  Ends the recursion guard @rctx of perf_trace_buf_alloc().
 * Events whose filter rejects @record do not see the hit; the others
 * sample with @record as PERF_SAMPLE_RAW.
 *
 * Context: the probe's, up to NMI, with preemption off.
 */
void perf_tp_event(u16 event_type, u64 count, void *record, int entry_size,
		   struct pt_regs *regs, struct hlist_head *head, int rctx,
		   struct task_struct *task)
{
	struct perf_raw_record raw = {
		.frag = {
			.size = entry_size,
			.data = record,
		},
	};
	struct perf_event *event;

	/* the common fields: type, flags, preempt count and pid */
	perf_trace_buf_update(record, event_type);
	hlist_for_each_entry_rcu(event, head, hlist_entry) {
		if (tp_filter_match(event, record))
			perf_swevent_hit_raw(event, count, regs, &raw);
	}
	if (task && task != current)
		tp_hit_task(task, event_type, count, record, regs);
	perf_swevent_put_recursion_context(rctx);
}
EXPORT_SYMBOL_GPL(perf_tp_event);

/**
 * perf_trace_run_bpf_submit - submit a trace event's hit
 * @raw_data: the raw record, from perf_trace_buf_alloc()
 * @size: its size in bytes
 * @rctx: the recursion level that perf_trace_buf_alloc() took
 * @call: the trace event
 * @count: what the hit counts: 1, or an amount
 * @regs: the registers of the hit
 * @head: the trace event's list of perf events on this CPU
 * @task: the task the hit is about, or NULL
 *
 * The perf probe of every trace event ends here.  A BPF program attached
 * to the trace event runs first, on the record whose first word then
 * holds the registers (the BPF tracepoint context), and may drop the hit;
 * once a program has run, the hit is dropped too when @head is empty.
 * The rest goes to perf_tp_event().  Either way the recursion level @rctx
 * is given back.  (No test kernel has BPF events: that part runs nowhere
 * yet.)
 *
 * Context: the probe's, up to NMI, with preemption off.
 */
void perf_trace_run_bpf_submit(void *raw_data, int size, int rctx,
			       struct trace_event_call *call, u64 count,
			       struct pt_regs *regs, struct hlist_head *head,
			       struct task_struct *task)
{
	if (IS_ENABLED(CONFIG_BPF_EVENTS) && bpf_prog_array_valid(call)) {
		*(struct pt_regs **)raw_data = regs;
		if (!trace_call_bpf(call, raw_data) || hlist_empty(head)) {
			perf_swevent_put_recursion_context(rctx);
			return;
		}
	}
	perf_tp_event(call->event.type, count, raw_data, size, regs, head,
		      rctx, task);
}
EXPORT_SYMBOL_GPL(perf_trace_run_bpf_submit);

static int tp_add(struct perf_event *event, int flags);

/*
 * Is @event one of a trace event (its tp_event set by the tracing side)?
 * The PMUs of this file, and only they, put events on with tp_add().
 */
bool perf_event_is_tracing(struct perf_event *event)
{
	return event->pmu->add == tp_add;
}

/*
 * PERF_EVENT_IOC_SET_FILTER: @filter in the syntax of tracefs' filter
 * files, on the fields of the event's trace event.  -EINVAL for other
 * events or a filter that does not parse, -EEXIST once the event has one.
 */
int perf_tp_set_filter(struct perf_event *event, char *filter)
{
	if (!perf_event_is_tracing(event))
		return -EINVAL;
	return ftrace_profile_set_filter(event, event->attr.config, filter);
}

/* The filter goes after the event left its trace event. */
static void tp_free_filter(struct perf_event *event,
			   struct event_filter *filter)
{
	if (!filter)
		return;
	/* hits may still be reading it */
	synchronize_rcu();
	ftrace_profile_free_filter(event);
}

/* Undo tp_event_init(): off the trace event, then the filter goes. */
static void tp_destroy(struct perf_event *event)
{
	struct event_filter *filter = event->filter;

	perf_trace_destroy(event);
	tp_free_filter(event, filter);
}

/*
 * attr.config names the trace event.  The tracing side answers -EINVAL
 * for an unknown id and -EPERM for raw records the opener may not see; a
 * clone made at fork (it has a parent) is not checked again.
 */
static int tp_event_init(struct perf_event *event)
{
	int ret;

	if (event->attr.type != PERF_TYPE_TRACEPOINT)
		return -ENOENT;
	ret = has_branch_stack(event) ? -EOPNOTSUPP : perf_trace_init(event);
	if (!ret)
		event->destroy = tp_destroy;
	return ret;
}

static int tp_add(struct perf_event *event, int flags)
{
	/* arms the period and puts the event on this CPU's list */
	return perf_trace_add(event, flags);
}

static void tp_del(struct perf_event *event, int flags)
{
	perf_trace_del(event, flags);
}

static void tp_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
}

static void tp_stop(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
}

/* the count is always up to date: hits add to it */
static void tp_read(struct perf_event *event)
{
}

static struct pmu perf_tracepoint_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.event_init	= tp_event_init,
	.add		= tp_add,
	.del		= tp_del,
	.start		= tp_start,
	.stop		= tp_stop,
	.read		= tp_read,
};

#if defined(CONFIG_KPROBE_EVENTS) || defined(CONFIG_UPROBE_EVENTS)
/* bit 0 of config makes a kprobe or a uprobe a return probe */
#define PROBE_RETPROBE	BIT_ULL(0)

PMU_FORMAT_ATTR(retprobe, "config:0");

#ifdef CONFIG_KPROBE_EVENTS
static struct pmu perf_kprobe_pmu;
#endif
#ifdef CONFIG_UPROBE_EVENTS
static struct pmu perf_uprobe_pmu;
#endif

/* Undo a probe PMU's event_init(): the probe goes, then the filter. */
static void probe_destroy(struct perf_event *event)
{
	struct event_filter *filter = event->filter;

#ifdef CONFIG_KPROBE_EVENTS
	if (event->pmu == &perf_kprobe_pmu)
		perf_kprobe_destroy(event);
#endif
#ifdef CONFIG_UPROBE_EVENTS
	if (event->pmu == &perf_uprobe_pmu)
		perf_uprobe_destroy(event);
#endif
	tp_free_filter(event, filter);
}

/*
 * What both probe PMUs refuse before the tracing side makes the probe:
 * another type, an opener without the capability @allowed() checks (a
 * clone made at fork does not ask again), branch stacks.
 */
static int probe_event_check(struct perf_event *event, struct pmu *pmu,
			     bool (*allowed)(void))
{
	if (event->attr.type != pmu->type)
		return -ENOENT;
	if (!event->parent && !allowed())
		return -EACCES;
	if (has_branch_stack(event))
		return -EOPNOTSUPP;
	return 0;
}

/* ... and what an event of theirs is once the probe is made (@ret 0) */
static int probe_event_made(struct perf_event *event, int ret)
{
	if (!ret)
		event->destroy = probe_destroy;
	return ret;
}

#define PROBE_PMU(groups, init) {		\
	.task_ctx_nr	= perf_sw_context,	\
	.attr_groups	= groups,		\
	.event_init	= init,			\
	.add		= tp_add,		\
	.del		= tp_del,		\
	.start		= tp_start,		\
	.stop		= tp_stop,		\
	.read		= tp_read,		\
}
#endif

#ifdef CONFIG_KPROBE_EVENTS
/*
 * The kprobe PMU.  An event probes attr.kprobe_func + attr.probe_offset,
 * or the address attr.kprobe_addr when kprobe_func is 0 (or an empty
 * string); bit 0 of attr.config (format/retprobe) makes it a return
 * probe; the other bits of config are not looked at (the ABI ignores
 * them).  Only
 * CAP_PERFMON may place one; a clone made at fork gets a kprobe of its own
 * without asking again.  The tracing side answers the
 * rest: -E2BIG for a name longer than a symbol's, -ENOENT (or -EINVAL)
 * for a place where no kprobe can go.
 */
static struct attribute *kprobe_format_attrs[] = {
	&format_attr_retprobe.attr,
	NULL,
};

static const struct attribute_group kprobe_format_group = {
	.name	= "format",
	.attrs	= kprobe_format_attrs,
};

static const struct attribute_group *kprobe_attr_groups[] = {
	&kprobe_format_group,
	NULL,
};

static bool kprobe_allowed(void)
{
	return perfmon_capable();
}

static int kprobe_event_init(struct perf_event *event)
{
	int ret = probe_event_check(event, &perf_kprobe_pmu, kprobe_allowed);

	if (ret)
		return ret;
	ret = perf_kprobe_init(event, event->attr.config & PROBE_RETPROBE);
	return probe_event_made(event, ret);
}

static struct pmu perf_kprobe_pmu = PROBE_PMU(kprobe_attr_groups,
					      kprobe_event_init);
#endif

#ifdef CONFIG_UPROBE_EVENTS
/*
 * The uprobe PMU.  An event probes the file at the path attr.uprobe_path,
 * at the file offset attr.probe_offset; bit 0 of config makes it a return
 * probe and bits 32-63 (format/ref_ctr_offset) give the file offset of a
 * USDT semaphore, the counter kernel/events/uprobes.c raises while the
 * probe is in.  The other bits are not looked at.  Only CAP_SYS_ADMIN
 * may place one (CAP_PERFMON is not enough, unlike kprobes), and the
 * tracing side answers the rest.
 */
#define UPROBE_REF_CTR_SHIFT	32

PMU_FORMAT_ATTR(ref_ctr_offset, "config:32-63");

static struct attribute *uprobe_format_attrs[] = {
	&format_attr_retprobe.attr,
	&format_attr_ref_ctr_offset.attr,
	NULL,
};

static const struct attribute_group uprobe_format_group = {
	.name	= "format",
	.attrs	= uprobe_format_attrs,
};

static const struct attribute_group *uprobe_attr_groups[] = {
	&uprobe_format_group,
	NULL,
};

static bool uprobe_allowed(void)
{
	return capable(CAP_SYS_ADMIN);
}

static int uprobe_event_init(struct perf_event *event)
{
	u64 config = event->attr.config;
	int ret = probe_event_check(event, &perf_uprobe_pmu, uprobe_allowed);

	if (ret)
		return ret;
	ret = perf_uprobe_init(event, config >> UPROBE_REF_CTR_SHIFT,
			       config & PROBE_RETPROBE);
	return probe_event_made(event, ret);
}

static struct pmu perf_uprobe_pmu = PROBE_PMU(uprobe_attr_groups,
					      uprobe_event_init);
#endif

void __init perf_tp_init(void)
{
	perf_pmu_register(&perf_tracepoint_pmu, "tracepoint",
			  PERF_TYPE_TRACEPOINT);
#ifdef CONFIG_KPROBE_EVENTS
	perf_pmu_register(&perf_kprobe_pmu, "kprobe", -1);
#endif
#ifdef CONFIG_UPROBE_EVENTS
	perf_pmu_register(&perf_uprobe_pmu, "uprobe", -1);
#endif
}
