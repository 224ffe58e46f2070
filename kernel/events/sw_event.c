// SPDX-License-Identifier: GPL-2.0
/*
 * The software PMU (PERF_TYPE_SOFTWARE): counters fed by hooks in the rest
 * of the kernel (page faults, context switches, migrations, alignment and
 * emulation faults) and the two clocks, cpu-clock and task-clock.
 * A sampling hook-fed event overflows every sample_period occurrences; a
 * sampling clock samples from an hrtimer.
 *
 * Locking: an active hook-fed event sits on a per-CPU RCU list of its
 * event id; ->add()/->del() edit this CPU's list with IRQs off (ctx->lock
 * held), the hooks walk it with preemption off.  Events are freed after a
 * grace period, so a hook never sees a freed event.
 */
#include <linux/hrtimer.h>
#include <linux/nospec.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <asm/irq_regs.h>

#include "internal.h"

/*
 * perf_swevent_enabled - one static key per PERF_COUNT_SW_* id, on while
 * an event of that id exists (see sw_users below).  perf_sw_event() and
 * the scheduler's hooks in <linux/perf_event.h> test it, so that a hook
 * nobody counts costs a patched-out branch.
 */
struct static_key perf_swevent_enabled[PERF_COUNT_SW_MAX] = {
	[0 ... PERF_COUNT_SW_MAX - 1] = STATIC_KEY_INIT_FALSE,
};
EXPORT_SYMBOL_GPL(perf_swevent_enabled);

/* caller-register scratch space of perf_sw_event() callers, per level */
DEFINE_PER_CPU(struct pt_regs, __perf_regs[4]);

static DEFINE_PER_CPU(struct hlist_head, sw_active[PERF_COUNT_SW_MAX]);
static DEFINE_PER_CPU(int, sw_recursion[PERF_NR_CONTEXTS]);

/**
 * perf_swevent_get_recursion_context - enter the software event path
 *
 * Software events must not recurse into themselves (a page fault taken
 * while counting a page fault, a tracepoint hit inside the tracepoint
 * handler): one level per interrupt context, task/softirq/hardirq/NMI.
 * A hit that interrupts another in a different context gets its own level.
 *
 * Context: any, up to NMI, with preemption off until the matching
 * perf_swevent_put_recursion_context().
 *
 * Return: the level to hand back, or -1 if this level is busy (the hit
 * must then be dropped).
 */
int perf_swevent_get_recursion_context(void)
{
	int *busy = this_cpu_ptr(sw_recursion);
	unsigned char level = interrupt_context_level();

	if (busy[level])
		return -1;
	busy[level]++;
	barrier();
	return level;
}
EXPORT_SYMBOL_GPL(perf_swevent_get_recursion_context);

/**
 * perf_swevent_put_recursion_context - leave the software event path
 * @rctx: the level perf_swevent_get_recursion_context() returned
 *
 * Context: the CPU and interrupt context that took @rctx.
 */
void perf_swevent_put_recursion_context(int rctx)
{
	int *busy = this_cpu_ptr(sw_recursion);

	barrier();
	busy[rctx]--;
}
EXPORT_SYMBOL_GPL(perf_swevent_put_recursion_context);

/* Whether a hit of @event at @regs goes uncounted: stopped or excluded. */
bool perf_swevent_excluded(struct perf_event *event, struct pt_regs *regs)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return true;
	if (!regs)
		return false;
	if (event->attr.exclude_user && user_mode(regs))
		return true;
	if (event->attr.exclude_kernel && !user_mode(regs))
		return true;
	return false;
}

/**
 * perf_swevent_set_period - re-arm a software period
 * @event: a sampling event whose hw.period_left counts down to overflow
 *
 * Re-arm a software period: the number of whole periods that elapsed,
 * with hw.period_left counting down to the next overflow.  When it has
 * reached 0 or below, the periods that elapsed are added back, so that it
 * is left in (0, sample_period].  hw.last_period becomes sample_period.
 *
 * Context: the CPU where @event counts, IRQs off.
 *
 * Return: the number of periods that elapsed, 0 if the current one still
 * runs or @event has no period.
 */
u64 perf_swevent_set_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);
	u64 period = hwc->sample_period;
	u64 nr;

	hwc->last_period = period;
	if (left > 0 || !period)
		return 0;
	nr = div64_u64(-left, period) + 1;
	local64_add(nr * period, &hwc->period_left);
	return nr;
}
EXPORT_SYMBOL_GPL(perf_swevent_set_period);

/*
 * The software paths leave their perf_sample_data uncleared (it is big and
 * perf_prepare_sample() fills what a record uses), but an attached BPF
 * program reads the address before that: it is set here, zero or not.
 */
static void sw_sample_init(struct perf_sample_data *data, u64 addr,
			   u64 period)
{
	perf_sample_data_init(data, addr, period);
	data->addr = addr;
}

/*
 * @nr more occurrences of a sampling software event: one sample a period.
 * An event that records PERF_SAMPLE_PERIOD at a fixed period samples every
 * hook call instead, with the occurrences of that call as its period, so
 * that the periods add up to the exact count.  Only the second and later
 * samples of one hook call count toward throttling: one call is one
 * interrupt's worth of work, whatever its count.
 * @raw, if any, is the payload of PERF_SAMPLE_RAW (a tracepoint's record).
 */
static void sw_overflow(struct perf_event *event, u64 nr,
			struct pt_regs *regs, u64 addr,
			struct perf_raw_record *raw)
{
	struct hw_perf_event *hwc = &event->hw;
	struct perf_sample_data data __uninitialized;
	bool throttle = false;

	if ((event->attr.sample_type & PERF_SAMPLE_PERIOD) &&
	    !event->attr.freq) {
		sw_sample_init(&data, addr, nr);
		if (raw)
			perf_sample_save_raw_data(&data, event, raw);
		if (perf_event_overflow_throttle(event, &data, regs, false))
			hwc->state |= PERF_HES_STOPPED;
		return;
	}
	if (local64_sub_return(nr, &hwc->period_left) > 0)
		return;
	while (local64_read(&hwc->period_left) <= 0) {
		hwc->last_period = hwc->sample_period;
		sw_sample_init(&data, addr, hwc->last_period);
		if (raw)
			perf_sample_save_raw_data(&data, event, raw);
		local64_add(hwc->sample_period ?: 1, &hwc->period_left);
		if (perf_event_overflow_throttle(event, &data, regs,
						 throttle)) {
			/* throttled or out of REFRESH: no more this time */
			hwc->state |= PERF_HES_STOPPED;
			if (local64_read(&hwc->period_left) <= 0)
				local64_set(&hwc->period_left, hwc->sample_period ?: 1);
			break;
		}
		throttle = true;
	}
}

/*
 * @nr occurrences of @event at @addr: count them, and sample if the event
 * samples.  Also the path of a breakpoint hit (hw_breakpoint.c).
 */
void perf_swevent_hit(struct perf_event *event, u64 nr, struct pt_regs *regs,
		      u64 addr)
{
	if (perf_swevent_excluded(event, regs))
		return;
	local64_add(nr, &event->count);
	if (is_sampling_event(event) && regs)
		sw_overflow(event, nr, regs, addr, NULL);
}

/*
 * The same for a trace event hit: exclude_kernel leaves out hits in the
 * kernel, but exclude_user does not leave out those of uprobes: a uprobe
 * hit is the trace event's, in the kernel's handler, whatever registers
 * it carries.
 */
bool perf_tp_excluded(struct perf_event *event, struct pt_regs *regs)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return true;
	return regs && event->attr.exclude_kernel && !user_mode(regs);
}

/* A tracepoint hit, whose samples carry @raw (tracepoint.c). */
void perf_swevent_hit_raw(struct perf_event *event, u64 nr,
			  struct pt_regs *regs, struct perf_raw_record *raw)
{
	if (perf_tp_excluded(event, regs))
		return;
	local64_add(nr, &event->count);
	if (is_sampling_event(event) && regs)
		sw_overflow(event, nr, regs, 0, raw);
}

/* Count @nr occurrences of @event_id on this CPU; preemption is off. */
void ___perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)
{
	struct hlist_head *head = this_cpu_ptr(&sw_active[event_id]);
	struct perf_event *event;

	hlist_for_each_entry_rcu(event, head, hlist_entry)
		perf_swevent_hit(event, nr, regs, addr);
}

void __perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)
{
	int rctx;

	preempt_disable_notrace();
	rctx = perf_swevent_get_recursion_context();
	if (rctx >= 0) {
		___perf_sw_event(event_id, nr, regs, addr);
		perf_swevent_put_recursion_context(rctx);
	}
	preempt_enable_notrace();
}

static bool sw_is_clock(struct perf_event *event)
{
	return event->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
	       event->attr.config == PERF_COUNT_SW_TASK_CLOCK;
}

/* A clock counts nanoseconds while it is on the CPU and started. */
static void sw_clock_update(struct perf_event *event)
{
	u64 now = perf_clock();
	u64 prev = local64_xchg(&event->hw.prev_count, now);

	if (!(event->hw.state & PERF_HES_STOPPED))
		local64_add(now - prev, &event->count);
}

/* The shortest period of a sampling clock, in nanoseconds. */
#define SW_CLOCK_MIN_PERIOD	10000ULL

/*
 * The time to the next fire of a sampling clock: its period, but never
 * less than the floor, however the period was set (at open, or later by
 * PERF_EVENT_IOC_PERIOD or a modify), so that no user can make the timer
 * interrupt the CPU back to back.
 */
static u64 sw_clock_interval(struct hw_perf_event *hwc)
{
	return max(hwc->sample_period, SW_CLOCK_MIN_PERIOD);
}

/*
 * A sampling clock samples from an hrtimer that fires every period of
 * running time, with the registers of whatever it interrupted.
 */
static enum hrtimer_restart sw_clock_tick(struct hrtimer *timer)
{
	struct perf_event *event = container_of(timer, struct perf_event,
						hw.hrtimer);
	struct hw_perf_event *hwc = &event->hw;
	struct pt_regs *regs = get_irq_regs();
	struct perf_sample_data data __uninitialized;
	int stop = 0;

	if (READ_ONCE(event->state) != PERF_EVENT_STATE_ACTIVE)
		return HRTIMER_NORESTART;
	sw_clock_update(event);
	if (regs && !perf_swevent_excluded(event, regs)) {
		hwc->last_period = hwc->sample_period;
		sw_sample_init(&data, 0, hwc->last_period);
		stop = perf_event_overflow(event, &data, regs);
	}
	if (stop)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(sw_clock_interval(hwc)));
	return HRTIMER_RESTART;
}

static void sw_clock_timer_start(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);
	u64 interval = sw_clock_interval(hwc);

	if (left <= 0 || left > interval)
		left = interval;
	left = max_t(s64, left, SW_CLOCK_MIN_PERIOD);
	hrtimer_start(&hwc->hrtimer, ns_to_ktime(left),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static void sw_clock_timer_stop(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	ktime_t rem = hrtimer_get_remaining(&hwc->hrtimer);

	local64_set(&hwc->period_left, ktime_to_ns(rem));
	hrtimer_cancel(&hwc->hrtimer);
}

/*
 * A clock's period is time: a frequency becomes the matching period once,
 * here, and never adapts.
 */
static void sw_clock_init(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!is_sampling_event(event))
		return;
	if (event->attr.freq) {
		event->attr.freq = 0;
		event->attr.sample_period = NSEC_PER_SEC /
					    event->attr.sample_freq;
	}
	hwc->sample_period = max(event->attr.sample_period,
				 SW_CLOCK_MIN_PERIOD);
	hwc->last_period = hwc->sample_period;
	local64_set(&hwc->period_left, hwc->sample_period);
	hrtimer_init(&hwc->hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	hwc->hrtimer.function = sw_clock_tick;
}

/*
 * The events of each hook-fed id.  Its static key holds one reference
 * while there are any, so that opening and closing the second and later
 * events (inherited clones at every fork) leave the key and the CPU
 * hotplug lock alone.  The key is turned on before the count leaves zero:
 * an event that finds the count above zero finds the hook enabled.
 */
static atomic_t sw_users[PERF_COUNT_SW_MAX];
static DEFINE_MUTEX(sw_users_lock);

static void sw_users_get(u64 id)
{
	if (atomic_inc_not_zero(&sw_users[id]))
		return;
	mutex_lock(&sw_users_lock);
	if (!atomic_read(&sw_users[id]))
		static_key_slow_inc(&perf_swevent_enabled[id]);
	atomic_inc(&sw_users[id]);
	mutex_unlock(&sw_users_lock);
}

static void sw_users_put(u64 id)
{
	if (atomic_add_unless(&sw_users[id], -1, 1))
		return;
	mutex_lock(&sw_users_lock);
	if (atomic_dec_and_test(&sw_users[id]))
		static_key_slow_dec(&perf_swevent_enabled[id]);
	mutex_unlock(&sw_users_lock);
}

static void sw_destroy(struct perf_event *event)
{
	sw_users_put(event->attr.config);
}

/* The software event @event names, its PMU found: take it on. */
static int sw_init(struct perf_event *event)
{
	/* a user's config, bounds-checked by the caller: not speculatively */
	u64 id = array_index_nospec(event->attr.config, PERF_COUNT_SW_MAX);

	if (has_branch_stack(event))
		return -EOPNOTSUPP;
	if (sw_is_clock(event)) {
		sw_clock_init(event);
	} else {
		sw_users_get(id);
		event->destroy = sw_destroy;
	}
	return 0;
}

static int sw_event_init(struct perf_event *event)
{
	if (event->attr.type != PERF_TYPE_SOFTWARE ||
	    event->attr.config >= PERF_COUNT_SW_MAX)
		return -ENOENT;
	return sw_init(event);
}

static void sw_start(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if ((flags & PERF_EF_RELOAD) && local64_read(&hwc->period_left) <= 0)
		local64_set(&hwc->period_left, hwc->sample_period);
	if (sw_is_clock(event)) {
		local64_set(&hwc->prev_count, perf_clock());
		if (is_sampling_event(event))
			sw_clock_timer_start(event);
	}
	hwc->state = 0;
}

static void sw_stop(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	if (sw_is_clock(event)) {
		if (is_sampling_event(event))
			sw_clock_timer_stop(event);
		sw_clock_update(event);
	}
	event->hw.state = PERF_HES_STOPPED;
}

static int sw_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
	if (!sw_is_clock(event))
		hlist_add_head_rcu(&event->hlist_entry,
				   this_cpu_ptr(&sw_active[event->attr.config]));
	if (flags & PERF_EF_START)
		sw_start(event, 0);
	return 0;
}

static void sw_del(struct perf_event *event, int flags)
{
	sw_stop(event, PERF_EF_UPDATE);
	if (!sw_is_clock(event))
		hlist_del_rcu(&event->hlist_entry);
}

static void sw_read(struct perf_event *event)
{
	if (sw_is_clock(event))
		sw_clock_update(event);
}

static struct pmu perf_sw_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_NO_NMI,
	.event_init	= sw_event_init,
	.add		= sw_add,
	.del		= sw_del,
	.start		= sw_start,
	.stop		= sw_stop,
	.read		= sw_read,
};

/*
 * The ABI has the two clocks registered as PMUs of their own too, with no
 * name, at the first two types after the fixed ones: user space can open
 * them by number (PERF_TYPE_MAX with config PERF_COUNT_SW_CPU_CLOCK,
 * PERF_TYPE_MAX + 1 with config PERF_COUNT_SW_TASK_CLOCK).  Here they are
 * the software PMU's clocks under another type.
 */
static int sw_clock_alias_init(struct perf_event *event);

#define SW_CLOCK_ALIAS {				\
	.task_ctx_nr	= perf_sw_context,		\
	.capabilities	= PERF_PMU_CAP_NO_NMI,		\
	.event_init	= sw_clock_alias_init,		\
	.add		= sw_add,			\
	.del		= sw_del,			\
	.start		= sw_start,			\
	.stop		= sw_stop,			\
	.read		= sw_read,			\
}

/* the cpu clock's, then the task clock's */
static struct pmu sw_clock_alias_pmus[] = { SW_CLOCK_ALIAS, SW_CLOCK_ALIAS };

static int sw_clock_alias_init(struct perf_event *event)
{
	int i = event->pmu - sw_clock_alias_pmus;
	u64 config = i ? PERF_COUNT_SW_TASK_CLOCK : PERF_COUNT_SW_CPU_CLOCK;

	if (event->attr.type != event->pmu->type ||
	    event->attr.config != config)
		return -ENOENT;
	return sw_init(event);
}

/*
 * The type of the PMU that counts @event: for a software clock opened as
 * PERF_TYPE_SOFTWARE, its clock PMU's (the type user space reads back in
 * PERF_FORMAT and MODIFY_ATTRIBUTES answers).
 */
u32 perf_sw_pmu_type(struct perf_event *event)
{
	if (event->attr.type == PERF_TYPE_SOFTWARE && sw_is_clock(event))
		return sw_clock_alias_pmus[event->attr.config ==
					   PERF_COUNT_SW_TASK_CLOCK].type;
	return event->attr.type;
}

void __init perf_sw_init(void)
{
	int cpu, id;

	for_each_possible_cpu(cpu)
		for (id = 0; id < PERF_COUNT_SW_MAX; id++)
			INIT_HLIST_HEAD(per_cpu_ptr(&sw_active[id], cpu));
	perf_pmu_register(&perf_sw_pmu, "software", PERF_TYPE_SOFTWARE);
	for (id = 0; id < ARRAY_SIZE(sw_clock_alias_pmus); id++)
		perf_pmu_register(&sw_clock_alias_pmus[id], NULL,
				  PERF_TYPE_MAX + id);
}
