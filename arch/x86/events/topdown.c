// SPDX-License-Identifier: GPL-2.0
/*
 * Topdown on the Intel models that have it (Ice Lake on: SDM vol. 3B,
 * "Performance Metrics"): fixed counter 3 counts TOPDOWN.SLOTS, and
 * MSR_PERF_METRICS holds, in 8-bit fields, the fractions (of 0xff) of
 * those slots that were retiring, bad speculation, front-end bound and
 * back-end bound (and on Sapphire Rapids four level-2 fields) since both
 * were last cleared.
 *
 * The events (header asm/perf_event.h): "slots" is fixed counter 3's
 * pseudo-encoding (INTEL_TD_SLOTS); a metric is event 0 with unit mask
 * 0x80 + its field (INTEL_TD_METRIC_*).  A metric counts slots: its count
 * is the slots of its category, the slots counted times its fraction.  It
 * has no counter of its own: it may only be a member of a group whose
 * leader is a counting slots event, and reads as its share of what that
 * leader counts while they are on the PMU together.
 *
 * Event 0 with other unit masks: unit masks 1 to 3 name fixed counters 0
 * to 2; unit mask 4 fixed counter 3 where it exists, else it is invalid
 * on a model with topdown and an event like any other elsewhere; the
 * metric unit masks of a model with topdown need PERF_METRICS; anything
 * else is an event like any other (all as stock answers on the emulated
 * models).
 *
 * A metric event has counter index INTEL_PMC_IDX_METRIC_BASE + its field
 * and reads its count from its hw.prev_count (the slots of its category
 * up to the last time the metrics were cleared) plus its share of the
 * slots since.  The counting slots leader starts from 0 with PERF_METRICS
 * cleared, and GLOBAL_CTRL's bit 48 lets the metrics count while it runs.
 *
 * Locking: as count.c (a CPU's state, IRQs off on that CPU); event_init
 * as events.c.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/perf_event.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>

#include "cpu_pmu.h"

#define METRIC_UMASK_BASE	(INTEL_TD_METRIC_RETIRING >> 8)

/**
 * x86_topdown_code - what an event select 0 config is
 * @desc: the PMU
 * @code: event select and unit mask
 *
 * Return: X86_TD_NONE for a nonzero event select (or a zero code), else
 * one of enum x86_topdown_kind.
 */
enum x86_topdown_kind x86_topdown_code(const struct x86_core_desc *desc,
				       u64 code)
{
	const struct x86_intel_model *model = desc->intel_model;
	unsigned int umask = (code & ARCH_PERFMON_EVENTSEL_UMASK) >> 8;
	unsigned int model_metrics = model ? model->metrics : 0;

	if (!code || (code & ARCH_PERFMON_EVENTSEL_EVENT))
		return X86_TD_NONE;
	if (umask <= 3)
		return X86_TD_FIXED;
	if (code == INTEL_TD_SLOTS) {
		if (desc->fixed_mask & BIT(3))
			return X86_TD_FIXED;
		return model_metrics ? X86_TD_INVALID : X86_TD_GENERAL;
	}
	if (umask >= METRIC_UMASK_BASE &&
	    umask < METRIC_UMASK_BASE + model_metrics)
		return umask < METRIC_UMASK_BASE + desc->metrics ?
		       X86_TD_METRIC : X86_TD_INVALID;
	return X86_TD_GENERAL;
}

/* is @event a counting slots event of @core (a leader for metrics)? */
static bool counting_slots(const struct x86_core_pmu *core,
			   const struct perf_event *event)
{
	return event->pmu == core->pmu &&
	       (event->hw.config & INTEL_ARCH_EVENT_MASK) == INTEL_TD_SLOTS &&
	       !event->attr.sample_period;
}

/**
 * x86_topdown_event_init - the topdown checks of event_init
 * @core: the PMU
 * @event: the event, hw.config filled in
 *
 * A metric must be a member of a group led by a counting slots event, and
 * may not sample; a slots event on a model with metrics is marked to start
 * from 0 with the metrics cleared.
 *
 * Return: 0, or -EINVAL.
 */
int x86_topdown_event_init(const struct x86_core_pmu *core,
			   struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 code = hwc->config & INTEL_ARCH_EVENT_MASK;

	if (!core->desc.metrics)
		return 0;
	if (counting_slots(core, event)) {
		hwc->flags |= X86_CORE_FLAG_TD_SLOTS;
		return 0;
	}
	if (x86_topdown_code(&core->desc, code) != X86_TD_METRIC)
		return 0;
	if (event->group_leader == event || is_sampling_event(event) ||
	    !counting_slots(core, event->group_leader))
		return -EINVAL;
	hwc->flags |= X86_CORE_FLAG_METRIC;
	return 0;
}

/**
 * x86_topdown_field - the PERF_METRICS field of a metric event
 * @event: an event x86_core_is_metric() says is a metric
 *
 * Return: the field's index, below INTEL_TD_METRIC_NUM.
 */
unsigned int x86_topdown_field(const struct perf_event *event)
{
	return ((event->hw.config & ARCH_PERFMON_EVENTSEL_UMASK) >> 8) -
	       METRIC_UMASK_BASE;
}

/* is fixed counter 3 counting the slots of the placed metrics? */
static bool slots_running(const struct x86_core_cpu *cpu)
{
	return cpu->running & BIT_ULL(INTEL_PMC_IDX_FIXED_SLOTS);
}

/* the slots fixed counter 3 counted since the metrics were cleared */
static u64 slots_counted(const struct x86_core_cpu *cpu)
{
	u64 raw = 0;

	x86_hw_rdpmc(cpu->core->hw, INTEL_PMC_FIXED_RDPMC_BASE |
		     (INTEL_PMC_IDX_FIXED_SLOTS - INTEL_PMC_IDX_FIXED), &raw);
	return raw & GENMASK_ULL(cpu->core->desc.fixed_width - 1, 0);
}

/* PERF_METRICS now */
static u64 metrics_now(const struct x86_core_cpu *cpu)
{
	u64 metrics = 0;

	x86_hw_rdmsr(cpu->core->hw, MSR_PERF_METRICS, &metrics);
	return metrics;
}

/* the share of @slots that field @i of @metrics has */
static u64 share(u64 slots, u64 metrics, unsigned int i)
{
	return mul_u64_u32_div(slots, (metrics >> (8 * i)) & 0xff, 0xff);
}

/* field @i's share of the slots counted since the metrics were cleared */
static u64 share_now(const struct x86_core_cpu *cpu, unsigned int i)
{
	return share(slots_counted(cpu), metrics_now(cpu), i);
}

/*
 * Every placed metric's count: its base, plus (@live: the slots leader's
 * counts since the metrics were cleared are not folded in yet) its share
 * of them; with @fold, that becomes its base.
 */
static void metrics_update(struct x86_core_cpu *cpu, bool live, bool fold)
{
	struct perf_event *event;
	u64 val, slots = 0, metrics = 0;
	unsigned int i;

	/* read once for every metric: the two MSRs are not cheap */
	if (live) {
		slots = slots_counted(cpu);
		metrics = metrics_now(cpu);
	}
	for (i = 0; i < INTEL_TD_METRIC_NUM; i++) {
		event = cpu->metric[i];
		if (!event)
			continue;
		val = local64_read(&event->hw.prev_count);
		if (live)
			val += share(slots, metrics, i);
		local64_set(&event->count, val);
		if (fold)
			local64_set(&event->hw.prev_count, val);
	}
}

/**
 * x86_topdown_place - put a metric event on the PMU beside its leader
 * @cpu: this CPU's counters
 * @event: a metric event
 * @check: only say whether it can be placed
 *
 * A metric that joins a leader already counting counts from now: its base
 * is its count less its share so far.
 *
 * Return: 0, or -EAGAIN when the metric is taken (another group's).
 */
int x86_topdown_place(struct x86_core_cpu *cpu, struct perf_event *event,
		      bool check)
{
	struct hw_perf_event *hwc = &event->hw;
	unsigned int i = x86_topdown_field(event);
	u64 base = local64_read(&event->count);

	if (cpu->metric[i])
		return -EAGAIN;
	if (check)
		return 0;
	if (slots_running(cpu))
		base -= share_now(cpu, i);
	local64_set(&hwc->prev_count, base);
	cpu->metric[i] = event;
	hwc->idx = INTEL_PMC_IDX_METRIC_BASE + i;
	hwc->config_base = 0;
	hwc->event_base = 0;
	hwc->event_base_rdpmc = INTEL_PMC_FIXED_RDPMC_METRICS;
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	return 0;
}

/**
 * x86_topdown_read - bring the metrics up to date
 * @cpu: this CPU's counters
 */
void x86_topdown_read(struct x86_core_cpu *cpu)
{
	metrics_update(cpu, slots_running(cpu), false);
}

/**
 * x86_topdown_clear - the slots leader counts afresh
 * @cpu: this CPU's counters, the leader about to start (or wrapped)
 *
 * What the metrics counted so far becomes their base; then fixed counter
 * 3 and PERF_METRICS are cleared.
 */
void x86_topdown_clear(struct x86_core_cpu *cpu)
{
	const struct x86_hw *hw = cpu->core->hw;

	metrics_update(cpu, slots_running(cpu), true);
	/* the counter first: the metrics are fractions of what it holds */
	x86_hw_wrmsr(hw, MSR_CORE_PERF_FIXED_CTR0 +
		     (INTEL_PMC_IDX_FIXED_SLOTS - INTEL_PMC_IDX_FIXED), 0);
	x86_hw_wrmsr(hw, MSR_PERF_METRICS, 0);
}

/**
 * x86_topdown_stop - the slots leader stops
 * @cpu: this CPU's counters, fixed counter 3 stopped but not yet cleared
 *
 * The metrics' shares become their bases: nothing more is added until
 * the leader counts afresh.
 */
void x86_topdown_stop(struct x86_core_cpu *cpu)
{
	metrics_update(cpu, true, true);
}

/**
 * x86_topdown_del - a metric event leaves the PMU
 * @cpu: this CPU's counters
 * @event: a placed metric event
 */
void x86_topdown_del(struct x86_core_cpu *cpu, struct perf_event *event)
{
	unsigned int i = x86_topdown_field(event);
	u64 val = local64_read(&event->hw.prev_count);

	if (slots_running(cpu))
		val += share_now(cpu, i);
	local64_set(&event->count, val);
	cpu->metric[i] = NULL;
	event->hw.idx = -1;
	perf_event_update_userpage(event);
}
