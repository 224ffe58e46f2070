// SPDX-License-Identifier: GPL-2.0
/*
 * The struct pmu of a PMUv3 instance: accepting events (event_init), the
 * scheduling callbacks the core calls on the event's CPU with IRQs off
 * (add, del, start, stop, read, pmu_enable, pmu_disable), the period
 * arithmetic, and the overflow interrupt, which runs on the same CPU with
 * IRQs off.  Per-CPU state and its locking: see pmuv3.h.
 *
 * Counts: a counter is started at minus the events left in the current
 * period, so that it overflows when the period ends.  A 32-bit count is
 * programmed sign-extended to 64 bits: a 64-bit counter then overflows
 * exactly when its low half wraps, and user space, which sign-extends the
 * pmc_width bits it reads, sees the value the kernel keeps in prev_count.
 * Periods are therefore capped at 2^31 - 1 (32-bit) or 2^63 - 1 (64-bit).
 */
#include <linux/bitfield.h>
#include <linux/interrupt.h>
#include <linux/kvm_host.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <asm/irq_regs.h>
#include <asm/virt.h>

#include "pmuv3.h"

static bool event_is_64bit(struct perf_event *event)
{
	return event->hw.flags & PMUV3_F_LONG;
}

static u64 event_max_period(struct perf_event *event)
{
	return event_is_64bit(event) ? S64_MAX : S32_MAX;
}

/* The counters an active event occupies, as a PMCNTENSET-style mask. */
static u64 event_counter_mask(struct perf_event *event)
{
	int idx = event->hw.idx;

	if (event->hw.flags & PMUV3_F_CHAINED)
		return BIT(idx) | BIT(idx + 1);
	return BIT(idx);
}

/*
 * The exception levels @attr excludes, as PMEVTYPER filter bits.  The
 * kernel runs at EL1, or at EL2 under VHE, where it is also the hypervisor.
 * EL2 only counts when NSH is set.  The host/guest split beyond this (EL0
 * switched at guest entry and exit) is KVM's, told through
 * kvm_set_pmu_events().
 */
static u64 event_filter(struct perf_event_attr *attr)
{
	u64 filter = 0;

	if (attr->exclude_user)
		filter |= PMUV3_EVTYPE_U;
	if (is_kernel_in_hyp_mode()) {
		if (!attr->exclude_kernel && !attr->exclude_host)
			filter |= PMUV3_EVTYPE_NSH;
		if (attr->exclude_kernel || attr->exclude_guest)
			filter |= PMUV3_EVTYPE_P;
		if (attr->exclude_host)
			filter |= PMUV3_EVTYPE_U;
	} else {
		if (attr->exclude_kernel)
			filter |= PMUV3_EVTYPE_P;
		if (!attr->exclude_hv && !attr->exclude_host)
			filter |= PMUV3_EVTYPE_NSH;
	}
	return filter;
}

/* The counter's raw value: both halves of a chained pair, read coherently. */
static u64 event_read_counter(struct perf_event *event)
{
	int idx = event->hw.idx;
	u64 hi, lo;

	if (!(event->hw.flags & PMUV3_F_CHAINED))
		return pmuv3_hw_read_counter(idx);
	do {
		hi = pmuv3_hw_read_counter(idx + 1);
		lo = pmuv3_hw_read_counter(idx);
	} while (hi != pmuv3_hw_read_counter(idx + 1));
	return (hi & U32_MAX) << 32 | (lo & U32_MAX);
}

static void event_write_counter(struct perf_event *event, u64 val)
{
	int idx = event->hw.idx;

	if (event->hw.flags & PMUV3_F_CHAINED) {
		pmuv3_hw_write_counter(idx + 1, upper_32_bits(val));
		pmuv3_hw_write_counter(idx, lower_32_bits(val));
	} else {
		pmuv3_hw_write_counter(idx, val);
	}
}

/* A raw counter value as the event keeps it: sign-extended when 32-bit. */
static u64 event_value(struct perf_event *event, u64 raw)
{
	return event_is_64bit(event) ? raw : (u64)(s64)(s32)raw;
}

/* Fold what the counter counted since the last update into the event. */
static void pmuv3_event_update(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now, delta;

	do {
		prev = local64_read(&hwc->prev_count);
		now = event_value(event, event_read_counter(event));
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);

	delta = now - prev;
	if (!event_is_64bit(event))
		delta &= U32_MAX;
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
}

/*
 * Start the next stretch of the period: program the counter to overflow
 * when the events left in the period have passed (at most the counter's
 * half range at a time).  Returns the period that had ended, which an
 * overflow is reported for, or 0.
 */
static u64 pmuv3_event_set_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 ended, val;

	val = -perf_counter_next_period(event, event_max_period(event), &ended);
	local64_set(&hwc->prev_count, val);
	event_write_counter(event, val);
	perf_event_update_userpage(event);
	return ended;
}

void pmuv3_start(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;
	int idx = hwc->idx;
	u64 mask = event_counter_mask(event);

	if (flags & PERF_EF_RELOAD)
		WARN_ON_ONCE(!(hwc->state & PERF_HES_UPTODATE));
	hwc->state = 0;
	pmuv3_event_set_period(event);
	write_sysreg(mask, pmovsclr_el0);
	if (hwc->flags & PMUV3_F_CHAINED) {
		pmuv3_hw_write_type(idx + 1, PMUV3_EV_CHAIN |
				    (hwc->config_base & ~PMUV3_EVTYPE_EVENT));
		pmuv3_hw_write_type(idx, hwc->config_base);
		pmuv3_hw_enable_irq(idx + 1);
	} else {
		pmuv3_hw_write_type(idx, hwc->config_base);
		pmuv3_hw_enable_irq(idx);
	}
	/*
	 * A guest-only event without VHE counts from guest entry to guest
	 * exit: KVM's world switch enables its counters, the host does not.
	 */
	kvm_set_pmu_events(mask, &event->attr);
	if (!kvm_pmu_counter_deferred(&event->attr)) {
		if (hwc->flags & PMUV3_F_CHAINED)
			pmuv3_hw_enable_counter(idx + 1);
		pmuv3_hw_enable_counter(idx);
	}
	/* an interrupted guest under VHE gets its EL0 filters back */
	kvm_vcpu_pmu_resync_el0();
}

void pmuv3_stop(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;
	int idx = hwc->idx;

	if (!(hwc->state & PERF_HES_STOPPED)) {
		kvm_clr_pmu_events(event_counter_mask(event));
		pmuv3_hw_disable_counter(idx);
		pmuv3_hw_disable_irq(idx);
		if (hwc->flags & PMUV3_F_CHAINED) {
			pmuv3_hw_disable_counter(idx + 1);
			pmuv3_hw_disable_irq(idx + 1);
		}
		hwc->state |= PERF_HES_STOPPED;
	}
	if ((flags & PERF_EF_UPDATE) && !(hwc->state & PERF_HES_UPTODATE)) {
		pmuv3_event_update(event);
		hwc->state |= PERF_HES_UPTODATE;
	}
}

/*
 * A task event follows its task onto CPUs of another type (big.LITTLE):
 * there it is not scheduled at all, neither in error nor waiting its turn.
 */
static bool pmuv3_filter(struct pmu *pmu, int cpu)
{
	return !cpumask_test_cpu(cpu, &to_pmuv3(pmu)->arm.supported_cpus);
}

static int pmuv3_add(struct perf_event *event, int flags)
{
	struct pmuv3 *pmuv3 = to_pmuv3(event->pmu);
	struct pmuv3_cpu *cpu = this_cpu_ptr(pmuv3->cpu);
	struct hw_perf_event *hwc = &event->hw;
	struct pmuv3_counter_req req;
	int idx;

	/* pmuv3_filter() keeps the core from asking on other CPUs */
	if (WARN_ON_ONCE(pmuv3_filter(event->pmu, smp_processor_id())))
		return -ENOENT;
	pmuv3_counter_req(pmuv3, event, &req);
	idx = pmuv3_pick_counter(&req, cpu->used, pmuv3->nr_counters);
	if (idx < 0)
		return idx;
	hwc->idx = idx;
	if (req.chained && idx != PMUV3_IDX_CYCLES)
		hwc->flags |= PMUV3_F_CHAINED;
	else
		hwc->flags &= ~PMUV3_F_CHAINED;
	cpu->events[idx] = event;
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		pmuv3_start(event, PERF_EF_RELOAD);
	perf_event_update_userpage(event);
	return 0;
}

static void pmuv3_del(struct perf_event *event, int flags)
{
	struct pmuv3 *pmuv3 = to_pmuv3(event->pmu);
	struct pmuv3_cpu *cpu = this_cpu_ptr(pmuv3->cpu);
	struct hw_perf_event *hwc = &event->hw;
	struct pmuv3_counter_req req;

	pmuv3_stop(event, PERF_EF_UPDATE);
	pmuv3_counter_req(pmuv3, event, &req);
	req.chained = hwc->flags & PMUV3_F_CHAINED;
	pmuv3_release_counter(&req, hwc->idx, cpu->used);
	cpu->events[hwc->idx] = NULL;
	hwc->idx = -1;
	perf_event_update_userpage(event);
}

static void pmuv3_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		pmuv3_event_update(event);
}

/*
 * Counting resumes: every counter in use on this CPU runs again, and EL0
 * may read them when the task on the CPU has events asking for access,
 * enabled or not (the core counts them in its context's nr_user).  With no
 * counter in use EL0 access is left as the last events set it: a task
 * that read its counters with mrs can go on doing so (reading
 * values that no longer change) until other events take the CPU or the
 * sysctl is turned off (user_access.c).
 */
static void pmuv3_pmu_enable(struct pmu *pmu)
{
	struct pmuv3 *pmuv3 = to_pmuv3(pmu);
	struct pmuv3_cpu *cpu = this_cpu_ptr(pmuv3->cpu);
	struct perf_event_context *task_ctx = perf_cpu_task_ctx();
	bool user = task_ctx && task_ctx->nr_user &&
		    pmuv3_user_access_allowed();
	int idx;

	if (bitmap_empty(cpu->used, PMUV3_NR_IDX))
		return;
	if (user) {
		/* what a counter not in use last counted is not EL0's to see */
		for (idx = 0; idx < pmuv3->nr_counters; idx++)
			if (!test_bit(idx, cpu->used))
				pmuv3_hw_write_counter(idx, 0);
		if (!test_bit(PMUV3_IDX_CYCLES, cpu->used))
			pmuv3_hw_write_counter(PMUV3_IDX_CYCLES, 0);
	}
	pmuv3_hw_set_user(user);
	pmuv3_hw_start();
}

static void pmuv3_pmu_disable(struct pmu *pmu)
{
	pmuv3_hw_stop();
}

/* The PMUv3 event number @event asks for, or -errno. */
static int event_number(struct pmuv3 *pmuv3, struct perf_event *event)
{
	u64 config = event->attr.config;

	switch (event->attr.type) {
	case PERF_TYPE_HARDWARE:
		return pmuv3_map_hw_event(config & PERF_HW_EVENT_MASK,
					  pmuv3->implemented);
	case PERF_TYPE_HW_CACHE:
		return pmuv3_map_cache_event(config & PERF_HW_EVENT_MASK,
					     pmuv3->implemented);
	case PERF_TYPE_RAW:
		return FIELD_GET(PMUV3_EVTYPE_EVENT, config);
	default:
		if (event->attr.type == pmuv3->arm.pmu.type)
			return FIELD_GET(PMUV3_EVTYPE_EVENT, config);
		return -ENOENT;
	}
}

/*
 * The threshold condition of config1 as PMEVTYPER bits, or -EINVAL when
 * the threshold is wider than the PMU's (none without FEAT_PMUv3_TH).  The
 * condition field of config1 is laid out as the register's TC field.
 */
static int event_threshold(struct pmuv3 *pmuv3, u64 config1, u64 *bits)
{
	u64 th = FIELD_GET(PMUV3_CONFIG1_TH, config1);
	u32 width = FIELD_GET(PMUV3_PMMIR_THWIDTH, pmuv3->pmmir);
	u64 tc = FIELD_GET(PMUV3_CONFIG1_TH_CMP, config1) << 1 |
		 FIELD_GET(PMUV3_CONFIG1_TH_COUNT, config1);

	*bits = 0;
	if (!th)
		return 0;
	if (th > (1ULL << width) - 1)
		return -EINVAL;
	*bits = FIELD_PREP(PMUV3_EVTYPE_TH, th) | FIELD_PREP(PMUV3_EVTYPE_TC, tc);
	return 0;
}

/*
 * Accept @event when it is ours: -ENOENT for another PMU's type, for a
 * generic event this CPU cannot count, or a CPU this PMU does not cover;
 * -EOPNOTSUPP for what no PMUv3 can do; -EINVAL for a bad config1, user
 * access for a CPU-wide event, or a group that can never fit.
 */
static int pmuv3_event_init(struct perf_event *event)
{
	struct pmuv3 *pmuv3 = to_pmuv3(event->pmu);
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;
	u64 threshold;
	int evnum, ret;

	evnum = event_number(pmuv3, event);
	if (evnum < 0)
		return evnum;
	if (event->cpu >= 0 && !cpumask_test_cpu(event->cpu, &pmuv3->arm.supported_cpus))
		return -ENOENT;
	if (has_branch_stack(event) || attr->exclude_idle)
		return -EOPNOTSUPP;
	/* without an overflow interrupt nothing can end a period */
	if (is_sampling_event(event) &&
	    (event->pmu->capabilities & PERF_PMU_CAP_NO_INTERRUPT))
		return -EOPNOTSUPP;
	ret = event_threshold(pmuv3, attr->config1, &threshold);
	if (ret)
		return ret;

	hwc->flags = 0;
	if (attr->config1 & PMUV3_CONFIG1_LONG)
		hwc->flags |= PMUV3_F_LONG;
	if (attr->config1 & PMUV3_CONFIG1_RDPMC) {
		/* access is for tasks counting themselves, not for CPUs */
		if (!(event->attach_state & PERF_ATTACH_TASK))
			return -EINVAL;
		/* chained counters cannot be read by EL0 in one go */
		if ((hwc->flags & PMUV3_F_LONG) && !pmuv3->has_64bit)
			return -EOPNOTSUPP;
		hwc->flags |= PMUV3_F_USER;
	}
	hwc->idx = -1;
	hwc->config = evnum;
	hwc->config_base = evnum | event_filter(attr) | threshold;
	perf_counter_init_period(event, event_max_period(event));
	return pmuv3_validate_group(pmuv3, event);
}

/*
 * A counter overflowed: fold every overflowed counter into its event and
 * start its next period; a sampling event whose period ended is reported
 * to the core, and stopped when the core says so (throttling).
 */
irqreturn_t pmuv3_overflow_irq(int irq, void *dev)
{
	struct pmuv3_cpu *cpu = dev;
	struct pt_regs *regs = get_irq_regs();
	bool running = read_sysreg(pmcr_el0) & PMUV3_PMCR_E;
	unsigned long ovs = pmuv3_hw_read_clear_overflow();
	struct perf_sample_data data;
	struct perf_event *event;
	u64 start = sched_clock(), period;
	int idx;

	if (!ovs)
		return IRQ_NONE;
	pmuv3_hw_stop();
	for_each_set_bit(idx, &ovs, PMUV3_NR_IDX) {
		event = cpu->events[idx];
		/* a chained pair reports through its odd (high) counter */
		if (!event && (idx & 1) && cpu->events[idx - 1] &&
		    (cpu->events[idx - 1]->hw.flags & PMUV3_F_CHAINED))
			event = cpu->events[idx - 1];
		else if (event && (event->hw.flags & PMUV3_F_CHAINED))
			continue;
		if (!event)
			continue;
		pmuv3_event_update(event);
		period = pmuv3_event_set_period(event);
		if (!period || !is_sampling_event(event))
			continue;
		perf_sample_data_init(&data, 0, period);
		if (perf_event_overflow(event, &data, regs))
			pmuv3_stop(event, 0);
	}
	if (running)
		pmuv3_hw_start();
	/*
	 * The core lowers the sample rate when interrupts take too long.
	 * The wakeups queued here run from the irq_work IPI they raised,
	 * not from here: an IPI finding its work already run would have its
	 * own irq:irq_handler_entry sample queue more and raise the next
	 * IPI, for as long as such an event samples (kselftest
	 * pmuv3_sampling, irq_entry_samples_vs_overflow_interrupts).
	 */
	perf_sample_event_took(sched_clock() - start);
	return IRQ_HANDLED;
}

/*
 * Whether @pmu is a PMUv3 instance (its events carry our hw.flags); the
 * core's own test events may have no PMU at all.
 */
bool pmuv3_owns(struct pmu *pmu)
{
	return pmu && pmu->event_init == pmuv3_event_init;
}

/* Fill in the struct pmu of @pmuv3; probe.c registers it. */
void pmuv3_pmu_init(struct pmuv3 *pmuv3)
{
	pmuv3->arm.pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.task_ctx_nr	= perf_hw_context,
		/* VG, the SVE vector granule, is an extended register */
		.capabilities	= PERF_PMU_CAP_EXTENDED_HW_TYPE |
				  PERF_PMU_CAP_EXTENDED_REGS,
		.attr_groups	= pmuv3_attr_groups,
		.event_init	= pmuv3_event_init,
		.add		= pmuv3_add,
		.del		= pmuv3_del,
		.start		= pmuv3_start,
		.stop		= pmuv3_stop,
		.read		= pmuv3_read,
		.pmu_enable	= pmuv3_pmu_enable,
		.pmu_disable	= pmuv3_pmu_disable,
		.event_idx	= pmuv3_event_idx,
		.filter		= pmuv3_filter,
	};
}
