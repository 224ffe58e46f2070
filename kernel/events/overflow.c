// SPDX-License-Identifier: GPL-2.0
/*
 * What happens when a sampling event overflows: throttling against
 * perf_event_max_sample_rate, the period of frequency-driven events, the
 * REFRESH limit, SIGTRAP for attr.sigtrap, and the deferred work an
 * overflow may need (wakeups, SIGIO, disabling the event) that cannot run
 * in NMI or with the PMU's locks held.
 *
 * Locking: perf_event_overflow() runs on the CPU where the event is
 * active, from the PMU interrupt (NMI on x86), an hrtimer or a software
 * event hook.  It touches only the event's hw fields, which nothing else
 * writes while the event is active, and queues irq_work (pending_irq) or
 * task_work (pending_task, for SIGTRAP).  The tick runs the unthrottle and
 * frequency passes with the CPU and task context locks held, like rotation;
 * on nohz_full CPUs the tick stays on while frequency events exist
 * (globally) and while an event of the CPU is throttled (per CPU).
 */
#include <linux/irq_work.h>
#include <linux/math64.h>
#include <linux/sched/signal.h>
#include <linux/task_work.h>
#include <linux/tick.h>

#include "internal.h"

/* hw.interrupts of a throttled event */
#define PERF_THROTTLED		(~0ULL)

/* ticks seen by this CPU, and its events throttled since the last one */
static DEFINE_PER_CPU(u64, perf_tick_seq);
static DEFINE_PER_CPU(int, perf_throttled);

/* events with attr.freq: the tick adjusts their periods */
static atomic_t perf_freq_events;

static u64 max_samples_per_tick(void)
{
	return DIV_ROUND_UP(READ_ONCE(sysctl_perf_event_sample_rate), HZ);
}

/*
 * The interrupt-time feedback of perf_cpu_time_max_percent.  PMU drivers
 * report how long each of their overflow interrupts took.  The budget of
 * one sample is that percent of the interval between two samples at
 * perf_event_max_sample_rate; once a CPU's running average (over about 128
 * interrupts) exceeds it, the maximum rate comes down to four fifths of
 * what the average allows, in whole samples per tick, and the throttling
 * above follows.
 * 0 and 100 percent turn the feedback off.  The message is printed from
 * irq_work: the interrupt may be an NMI.
 */
static u64 perf_sample_budget_ns __read_mostly;
#define PERF_SAMPLE_AVG_NR	128
static DEFINE_PER_CPU(u64, perf_sample_sum_ns);

/* what the last lowering on a CPU saw, for the message of its irq_work */
struct rate_report {
	struct irq_work work;
	u64 avg;
	u64 budget;
	int rate;
};

void perf_sample_budget_update(void)
{
	int percent = READ_ONCE(sysctl_perf_cpu_time_max_percent);
	u64 interval = NSEC_PER_SEC / READ_ONCE(sysctl_perf_event_sample_rate);

	if (percent <= 0 || percent >= 100)
		WRITE_ONCE(perf_sample_budget_ns, 0);
	else
		WRITE_ONCE(perf_sample_budget_ns, div_u64(interval * percent, 100));
}

static void rate_lowered_report(struct irq_work *work)
{
	struct rate_report *r = container_of(work, struct rate_report, work);

	pr_info("perf: interrupt took too long (%llu > %llu), lowering kernel.perf_event_max_sample_rate to %d\n",
		r->avg, r->budget, r->rate);
}

/* the irq_work runs on the CPU that queued it, which wrote its copy */
static DEFINE_PER_CPU(struct rate_report, perf_rate_report) = {
	.work = IRQ_WORK_INIT(rate_lowered_report),
};

/**
 * perf_sample_event_took - report the length of an overflow interrupt
 * @sample_len_ns: how long the PMU's interrupt handler took, in ns
 *
 * Feeds this CPU's running average; once it exceeds the budget that
 * perf_cpu_time_max_percent gives one sample, the maximum sample rate
 * (kernel.perf_event_max_sample_rate) is lowered to what the average
 * allows (see above) and a message is printed from irq_work.  Nothing is
 * done while the feedback is off.
 *
 * Context: the PMU interrupt, IRQs off or NMI.
 */
void perf_sample_event_took(u64 sample_len_ns)
{
	u64 budget = READ_ONCE(perf_sample_budget_ns);
	int percent = READ_ONCE(sysctl_perf_cpu_time_max_percent);
	struct rate_report *report;
	u64 sum, avg, rate;

	if (!budget)
		return;
	/* a running sum of the last PERF_SAMPLE_AVG_NR lengths, roughly */
	sum = __this_cpu_read(perf_sample_sum_ns);
	sum = sum - sum / PERF_SAMPLE_AVG_NR + sample_len_ns;
	__this_cpu_write(perf_sample_sum_ns, sum);
	avg = sum / PERF_SAMPLE_AVG_NR;
	if (avg <= budget)
		return;

	/*
	 * Samples of avg ns take percent of the CPU at NSEC_PER_SEC * percent
	 * / 100 / avg per second: four fifths of that, in whole samples per
	 * tick (at least one).
	 */
	rate = div64_u64((u64)NSEC_PER_SEC * percent * 4, 100 * 5 * avg);
	rate = max_t(u64, rate / HZ, 1) * HZ;
	rate = min_t(u64, rate, INT_MAX);
	if (rate >= READ_ONCE(sysctl_perf_event_sample_rate))
		return;
	WRITE_ONCE(sysctl_perf_event_sample_rate, rate);
	perf_sample_budget_update();
	report = this_cpu_ptr(&perf_rate_report);
	report->avg = avg;
	report->budget = budget;
	report->rate = rate;
	irq_work_queue(&report->work);
}
EXPORT_SYMBOL_GPL(perf_sample_event_took);

/*
 * Count an interrupt of @event in this tick; past the per-tick budget the
 * event is throttled until the next tick.  Returns 1 if the caller must
 * stop the event.
 */
int perf_event_account_interrupt(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 seq = __this_cpu_read(perf_tick_seq);

	if (hwc->interrupts == PERF_THROTTLED)
		return 1;
	if (hwc->interrupts_seq != seq) {
		hwc->interrupts_seq = seq;
		hwc->interrupts = 1;
		return 0;
	}
	if (++hwc->interrupts <= max_samples_per_tick())
		return 0;
	hwc->interrupts = PERF_THROTTLED;
	/* a nohz_full CPU keeps its tick until the event restarts */
	if (!__this_cpu_read(perf_throttled))
		tick_dep_set_cpu(smp_processor_id(), TICK_DEP_BIT_PERF_EVENTS);
	__this_cpu_inc(perf_throttled);
	perf_log_throttle(event, false);
	return 1;
}

/*
 * A frequency event's next period: the events it counted per nanosecond
 * since the last adjustment, times the nanoseconds between samples.  The
 * new period is the mean of the old one and the target, which damps the
 * noise of short intervals.
 *
 * The tick adjusts over whole ticks of time.  An overflow (@overflow)
 * adjusts only a period that is off its target by more than twice: an
 * event that starts at period 1 reaches its rate in a few samples rather
 * than taking one sample per event for a whole tick (on the arm64 guest,
 * some 65 samples at exec under perf record), and a new rate is followed
 * at once.  Closer than that, a rate taken from one sample to the next is
 * the rate of the burst the samples fell in (a vCPU that runs in slices,
 * a task that sleeps): averaged sample by sample it would weigh the bursts
 * and stretch the period, and fewer samples would come than asked for.
 */
static void freq_adjust(struct perf_event *event, u64 now, bool overflow)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 count = local64_read(&event->count);
	u64 dc = count - hwc->freq_count_stamp;
	u64 dt = now - hwc->freq_time_stamp;
	u64 freq = event->attr.sample_freq;
	u64 target;

	/* the first look, or a count set back (PERF_EVENT_IOC_RESET) */
	if (!hwc->freq_time_stamp || count < hwc->freq_count_stamp) {
		hwc->freq_time_stamp = now;
		hwc->freq_count_stamp = count;
		return;
	}
	/*
	 * The clock did not move (with an unstable TSC, local_clock() may
	 * stall until the next tick): measure over a longer interval.
	 */
	if (!dt || !freq)
		return;
	/*
	 * Events a second, then per sample.  dc * NSEC_PER_SEC must not
	 * overflow: no count rises by 2^34 in one interval but a broken
	 * one, and a 128-by-64 division whose quotient does not fit in 64
	 * bits traps on x86.
	 */
	dc = min_t(u64, dc, U64_MAX / NSEC_PER_SEC);
	target = div64_u64(div64_u64(dc * NSEC_PER_SEC, dt), freq);
	if (overflow && target < 2 * hwc->sample_period &&
	    hwc->sample_period < 2 * target)
		return;
	hwc->freq_time_stamp = now;
	hwc->freq_count_stamp = count;
	hwc->sample_period = max_t(u64, (hwc->sample_period + target) / 2, 1);
}

static void pending_disable(struct perf_event *event)
{
	int cpu = READ_ONCE(event->oncpu);

	if (perf_event_disable_irq(event))
		return;
	/* active elsewhere by now: disable it there */
	if (cpu >= 0 && cpu != smp_processor_id()) {
		event->pending_disable = 1;
		irq_work_queue_on(&event->pending_irq, cpu);
	}
}

/* Disable @event from any context, NMI included, through its irq_work. */
void perf_event_disable_inatomic(struct perf_event *event)
{
	event->pending_disable = 1;
	irq_work_queue(&event->pending_irq);
}

/*
 * irq_work of an event: what its overflow could not do in place.  It runs
 * as a software event handler would, under the recursion guard, so the
 * software events it hits go uncounted: else the SIGIO of a
 * wakeup, hitting a sampled signal:signal_generate event, would queue the
 * next wakeup, and two such events would feed each other for ever
 * (kselftest tracepoint, sigio_feedback).
 */
static void pending_irq(struct irq_work *work)
{
	struct perf_event *event = container_of(work, struct perf_event,
						pending_irq);
	int rctx = perf_swevent_get_recursion_context();

	if (event->pending_disable) {
		event->pending_disable = 0;
		pending_disable(event);
	}
	if (event->pending_wakeup) {
		event->pending_wakeup = 0;
		perf_event_wakeup(event);
	}
	if (rctx >= 0)
		perf_swevent_put_recursion_context(rctx);
}

/* task_work of an event: SIGTRAP to the task whose event overflowed. */
static void pending_task(struct callback_head *head)
{
	struct perf_event *event = container_of(head, struct perf_event,
						pending_task);

	if (event->pending_work) {
		event->pending_work = 0;
		send_sig_perf((void __user *)event->pending_addr,
			      event->orig_type, event->attr.sig_data);
	}
	perf_event_put(event);
}

static void sigtrap_queue(struct perf_event *event,
			  struct perf_sample_data *data)
{
	/* only a user task can take the signal, and only once at a time */
	if (!current->mm || (current->flags & (PF_KTHREAD | PF_EXITING)))
		return;
	if (event->pending_work)
		return;
	event->pending_addr = (data->sample_flags & PERF_SAMPLE_ADDR) ?
			      data->addr : 0;
	event->pending_work = 1;
	atomic_long_inc(&event->refcount);
	/*
	 * No allocation for KASAN's record of the call: the overflow may
	 * come from a tracepoint under a raw lock (hrtimer_start in the
	 * hrtimer code, the scheduler's under the runqueue lock).
	 */
	if (task_work_add(current, &event->pending_task,
			  in_nmi() ? TWA_NMI_CURRENT :
				     TWA_RESUME | TWAF_NO_ALLOC)) {
		event->pending_work = 0;
		atomic_long_dec(&event->refcount);
	}
}

/*
 * A sampling event overflowed: write the sample, account the interrupt
 * if @throttle, and tell the caller whether to stop the event: 1 when it
 * was throttled or reached its REFRESH limit.
 */
int perf_event_overflow_throttle(struct perf_event *event,
				 struct perf_sample_data *data,
				 struct pt_regs *regs, bool throttle)
{
	perf_overflow_handler_t handler;
	int ret = 0;

	if (unlikely(!is_sampling_event(event)))
		return 0;
	if (throttle)
		ret = perf_event_account_interrupt(event);
	if (event->attr.freq)
		freq_adjust(event, perf_clock(), true);
	/* a program that drops the sample drops all else it would do */
	if (unlikely(event->prog) && !perf_bpf_overflow(event, data, regs))
		return ret;

	event->pending_kill = POLL_IN;
	if (atomic_read(&event->event_limit) &&
	    atomic_dec_and_test(&event->event_limit)) {
		ret = 1;
		event->pending_kill = POLL_HUP;
		perf_event_disable_inatomic(event);
	}
	if (event->attr.sigtrap)
		sigtrap_queue(event, data);
	if (unlikely(event->attr.aux_pause || event->attr.aux_resume))
		perf_aux_pause_resume(event);

	handler = READ_ONCE(event->overflow_handler);
	handler(event, data, regs);

	if (*perf_event_fasync(event) && event->pending_kill) {
		event->pending_wakeup = 1;
		irq_work_queue(&event->pending_irq);
	}
	return ret;
}

/* The overflow of a PMU interrupt or timer: always throttled. */
int perf_event_overflow(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs)
{
	return perf_event_overflow_throttle(event, data, regs, true);
}

/* Wake the readers of @event's output, and signal its fasync owner. */
void perf_event_wakeup(struct perf_event *event)
{
	struct perf_buffer *rb;

	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (rb)
		perf_rb_wakeup(rb);
	else
		wake_up_all(&event->waitq);
	rcu_read_unlock();
	if (event->pending_kill) {
		kill_fasync(perf_event_fasync(event), SIGIO,
			    event->pending_kill);
		event->pending_kill = 0;
	}
}

/* Set up the sampling state of a newly allocated event. */
void perf_overflow_init_event(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	init_irq_work(&event->pending_irq, pending_irq);
	init_task_work(&event->pending_task, pending_task);
	if (!event->overflow_handler)
		event->overflow_handler = event->attr.write_backward ?
			perf_event_output_backward : perf_event_output_forward;
	if (!is_sampling_event(event))
		return;
	if (event->attr.freq)
		hwc->sample_period = 1;
	hwc->last_period = hwc->sample_period;
	local64_set(&hwc->period_left, hwc->sample_period);
}

/**
 * perf_counter_init_period - the period a hardware counter's event starts with
 * @event: the event being initialised by its PMU driver
 * @max_period: the most the counter counts between two interrupts
 *
 * A counting event has no period of its own: the driver still takes an
 * interrupt every @max_period events to fold the counter into the count.
 */
void perf_counter_init_period(struct perf_event *event, u64 max_period)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!is_sampling_event(event))
		hwc->sample_period = max_period;
	else if (local64_read(&hwc->period_left))
		return;
	hwc->last_period = hwc->sample_period;
	local64_set(&hwc->period_left, hwc->sample_period);
}
EXPORT_SYMBOL_GPL(perf_counter_init_period);

/**
 * perf_counter_next_period - what a counter counting up to overflow is armed with
 * @event: the event, its count folded in up to now
 * @max_period: the most the counter takes at a time
 * @ended: set to the period that had ended, which a sample is taken for
 *	and reports, or to 0 when the period still runs
 *
 * hw.last_period is the period that runs: a sample taken when it ends
 * carries it, not the period that starts then (which differs in frequency
 * mode, and after PERF_EVENT_IOC_PERIOD).
 *
 * Return: how many events the counter should count before it next
 * interrupts: the rest of the period, at most @max_period.  The driver
 * writes the negative of it to the counter (and to hw.prev_count).
 */
u64 perf_counter_next_period(struct perf_event *event, u64 max_period,
			     u64 *ended)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 period = hwc->sample_period;
	s64 left = local64_read(&hwc->period_left);

	*ended = 0;
	if (unlikely(left <= 0)) {
		*ended = hwc->last_period;
		/* far behind (a new period was set): start afresh */
		left = left <= -period ? period : left + period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
	}
	return min_t(u64, left, max_period);
}
EXPORT_SYMBOL_GPL(perf_counter_next_period);

/*
 * A new event whose PMU accepted it: the tick must know of freq events,
 * and while there are any, nohz_full CPUs keep their tick for them.  The
 * lock orders the first increment's tick_dep_set() against the last
 * decrement's tick_dep_clear().
 */
static DEFINE_RAW_SPINLOCK(perf_freq_lock);

void perf_overflow_account(struct perf_event *event)
{
	unsigned long flags;

	if (!is_sampling_event(event) || !event->attr.freq)
		return;
	event->attach_state |= PERF_ATTACH_FREQ;
	raw_spin_lock_irqsave(&perf_freq_lock, flags);
	if (atomic_inc_return(&perf_freq_events) == 1)
		tick_dep_set(TICK_DEP_BIT_PERF_EVENTS);
	raw_spin_unlock_irqrestore(&perf_freq_lock, flags);
}

/* Undo perf_overflow_init_event(); nothing may queue work any more. */
void perf_overflow_free_event(struct perf_event *event)
{
	unsigned long flags;

	irq_work_sync(&event->pending_irq);
	if (!(event->attach_state & PERF_ATTACH_FREQ))
		return;
	raw_spin_lock_irqsave(&perf_freq_lock, flags);
	if (atomic_dec_and_test(&perf_freq_events))
		tick_dep_clear(TICK_DEP_BIT_PERF_EVENTS);
	raw_spin_unlock_irqrestore(&perf_freq_lock, flags);
}

/* @event stopped for good (its task or CPU went away): wake its pollers. */
void perf_event_wakeup_exit(struct perf_event *event)
{
	event->pending_wakeup = 1;
	irq_work_queue(&event->pending_irq);
}

struct period_arg {
	u64 value;
};

static void period_fn(struct perf_event_context *ctx, struct perf_event *event,
		      void *arg, bool live)
{
	struct period_arg *p = arg;
	bool active = live && event->state == PERF_EVENT_STATE_ACTIVE;

	if (active)
		event->pmu->stop(event, PERF_EF_UPDATE);
	if (event->attr.freq) {
		event->attr.sample_freq = p->value;
		local64_set(&event->hw.period_left, 0);
	} else {
		/* a whole new period starts now, the next sample's */
		event->attr.sample_period = p->value;
		event->hw.sample_period = p->value;
		event->hw.last_period = p->value;
		local64_set(&event->hw.period_left, p->value);
	}
	if (active)
		event->pmu->start(event, PERF_EF_RELOAD);
}

/**
 * perf_event_period - set a sampling event's period or frequency
 * @event: a sampling event
 * @value: the new sample_period, or sample_freq if @event has attr.freq
 *
 * A new sample period (or frequency) for a sampling event: the
 * PERF_EVENT_IOC_PERIOD ioctl, and KVM reprogramming a guest's counter.
 * An active event is stopped and restarted on its CPU.  A new period
 * starts afresh at once; for a new frequency the period that runs is
 * dropped, so that the next one is fitted to the new rate.  Only @event
 * changes, not its inherited clones.
 *
 * Context: process context, may sleep; takes @event's ctx->mutex.
 *
 * Return: 0, or -EINVAL for a counting event, a zero @value, one with
 * bit 63 set, or a frequency above kernel.perf_event_max_sample_rate.
 */
int perf_event_period(struct perf_event *event, u64 value)
{
	struct period_arg arg = { .value = value };
	struct perf_event_context *ctx;

	if (!is_sampling_event(event))
		return -EINVAL;
	if (!value || (value & (1ULL << 63)))
		return -EINVAL;
	if (event->attr.freq && value > sysctl_perf_event_sample_rate)
		return -EINVAL;
	ctx = perf_event_ctx_lock(event);
	perf_ctx_call(ctx, event, period_fn, &arg);
	mutex_unlock(&ctx->mutex);
	return 0;
}
EXPORT_SYMBOL_GPL(perf_event_period);

/* A throttled event goes on a PMU again: it starts unthrottled. */
void perf_event_unthrottle_in(struct perf_event *event)
{
	if (event->hw.interrupts != PERF_THROTTLED)
		return;
	event->hw.interrupts = 0;
	perf_log_throttle(event, true);
}

static void tick_event(struct perf_event *event, bool unthrottle, u64 now)
{
	struct hw_perf_event *hwc = &event->hw;

	if (unthrottle && hwc->interrupts == PERF_THROTTLED) {
		hwc->interrupts = 0;
		perf_log_throttle(event, true);
		event->pmu->start(event, 0);
	}
	if (!event->attr.freq || !is_sampling_event(event))
		return;
	/*
	 * Adjusted by an overflow within the last half tick (on its way to
	 * its rate): so short an interval, on a clock that may stall, would
	 * only add noise.
	 */
	if (hwc->freq_time_stamp && now - hwc->freq_time_stamp < TICK_NSEC / 2)
		return;
	event->pmu->read(event);
	freq_adjust(event, now, false);
	/* a period far longer than the new one would delay the next sample */
	if (local64_read(&hwc->period_left) > 8 * (s64)hwc->sample_period) {
		event->pmu->stop(event, PERF_EF_UPDATE);
		local64_set(&hwc->period_left, 0);
		event->pmu->start(event, PERF_EF_RELOAD);
	}
}

static void tick_ctx(struct perf_event_context *ctx, bool unthrottle, u64 now)
{
	struct perf_event_pmu_context *epc;
	struct perf_event *event;

	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		list_for_each_entry(event, &epc->pinned_active, active_list)
			tick_event(event, unthrottle, now);
		list_for_each_entry(event, &epc->flexible_active, active_list)
			tick_event(event, unthrottle, now);
	}
}

/*
 * From the scheduler tick, IRQs off: a new throttling interval begins;
 * throttled events restart and frequency events get new periods.
 */
void perf_sample_tick(struct perf_cpu_context *cpuctx)
{
	bool unthrottle = __this_cpu_read(perf_throttled);
	struct perf_event_context *task_ctx;
	u64 now;

	__this_cpu_inc(perf_tick_seq);
	if (!unthrottle && !atomic_read(&perf_freq_events))
		return;
	if (unthrottle)
		tick_dep_clear_cpu(smp_processor_id(), TICK_DEP_BIT_PERF_EVENTS);
	__this_cpu_write(perf_throttled, 0);
	now = perf_clock();
	raw_spin_lock(&cpuctx->ctx.lock);
	task_ctx = cpuctx->task_ctx;
	if (task_ctx)
		raw_spin_lock_nested(&task_ctx->lock, SINGLE_DEPTH_NESTING);
	if (cpuctx->ctx.is_active)
		tick_ctx(&cpuctx->ctx, unthrottle, now);
	if (task_ctx) {
		tick_ctx(task_ctx, unthrottle, now);
		raw_spin_unlock(&task_ctx->lock);
	}
	raw_spin_unlock(&cpuctx->ctx.lock);
}

/*
 * The checks of a sampling attr that depend on what this kernel can
 * record; the PMU checks its own (branch stacks, precise_ip).
 */
int perf_sample_check(struct perf_event *event)
{
	int ret = perf_regs_pmu_check(event);

	return ret ?: perf_aux_sample_init(event);
}

/**
 * perf_event_refresh - allow more overflows and enable the event
 * @event: a sampling event
 * @refresh: the overflows to add to the event's limit
 *
 * REFRESH arms a sampling event for @refresh more overflows, and enables
 * it: the overflow that uses up the limit disables the event again.  Only
 * @event itself is enabled.
 *
 * Context: process context, may sleep; takes @event's ctx->mutex.
 *
 * Return: 0, or -EINVAL for a counting or an inherited event.
 */
int perf_event_refresh(struct perf_event *event, int refresh)
{
	struct perf_event_context *ctx;

	if (event->attr.inherit || !is_sampling_event(event))
		return -EINVAL;
	atomic_add(refresh, &event->event_limit);
	ctx = perf_event_ctx_lock(event);
	perf_event_enable_locked(event);
	mutex_unlock(&ctx->mutex);
	return 0;
}
EXPORT_SYMBOL_GPL(perf_event_refresh);
