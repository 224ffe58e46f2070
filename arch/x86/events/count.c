// SPDX-License-Identifier: GPL-2.0
/*
 * Counting on the x86 core PMU: programming a counter's control (PERFEVTSEL
 * or PERF_CTL, or the counter's field of IA32_FIXED_CTR_CTRL), turning the
 * PMU on and off, reading counts, arming sample periods, and the overflow
 * interrupt.
 *
 * On and off: where the PMU has a global control (Intel version 2 and
 * later, AMD PerfMonV2) a started counter keeps EN (or its fixed field)
 * set and the global control holds the started counters while the PMU is
 * on, 0 while it is off.  Without one (Intel version 1, AMD before
 * PerfMonV2) each started counter's EN bit is set and cleared instead.
 * An AMD counter pair's odd counter (counters.c) runs the Merge event
 * while its even counter is started.
 *
 * Counts: a counter narrower than 64 bits is armed at minus the events
 * left in the period (at most core->max_period), so it wraps, and
 * interrupts, when the period ends; every counter has its interrupt bit
 * set, counting ones too, so that a wrap is always folded in before a
 * second one.  A read adds the difference of two values modulo the
 * counter width (hw.prev_count keeps them sign-extended, as user space
 * reads them with RDPMC).  The interrupt finds the overflowed counters in the
 * global status (acknowledging it) or, without one, as the started
 * counters whose top bit is clear again; it re-arms each, reports the
 * sampling events whose period ended, and unmasks the LVTPC entry, which
 * Intel's local APIC masks as it delivers the interrupt, before the
 * counters run again.
 *
 * Locking: see cpu_pmu.h.  Everything here runs on the CPU that owns the
 * struct x86_core_cpu with IRQs off, or in its PMI.
 */
#include <linux/bitops.h>
#include <linux/jiffies.h>
#include <linux/perf_event.h>
#include <linux/string.h>
#include <asm/apicdef.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>

#include "cpu_pmu.h"

static bool has_global(const struct x86_core_desc *desc)
{
	return desc->vendor == X86_CORE_INTEL ? desc->version >= 2 :
					       desc->perfmon_v2;
}

static u32 global_ctrl_msr(const struct x86_core_desc *desc)
{
	return desc->vendor == X86_CORE_INTEL ? MSR_CORE_PERF_GLOBAL_CTRL :
					       MSR_AMD64_PERF_CNTR_GLOBAL_CTL;
}

static u32 global_status_msr(const struct x86_core_desc *desc)
{
	return desc->vendor == X86_CORE_INTEL ? MSR_CORE_PERF_GLOBAL_STATUS :
					       MSR_AMD64_PERF_CNTR_GLOBAL_STATUS;
}

static u32 global_clear_msr(const struct x86_core_desc *desc)
{
	return desc->vendor == X86_CORE_INTEL ? MSR_CORE_PERF_GLOBAL_OVF_CTRL :
					       MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR;
}

/* how long after a PMI a status-less NMI is taken as its late twin (AMD) */
#define LATE_PMI_MS	10

static bool is_fixed(int idx)
{
	return idx >= X86_CORE_IDX_FIXED;
}

static u8 counter_width(const struct x86_core_desc *desc, int idx)
{
	return is_fixed(idx) ? desc->fixed_width : desc->gp_width;
}

static u64 width_mask(u8 width)
{
	return width >= 64 ? ~0ULL : BIT_ULL(width) - 1;
}

/**
 * x86_core_pmu_init - describe a PMU for the driver
 * @core: filled in (its @pmu and @overflow are the caller's to set)
 * @hw: the hardware
 * @desc: what detection found
 */
void x86_core_pmu_init(struct x86_core_pmu *core, const struct x86_hw *hw,
		       const struct x86_core_desc *desc)
{
	u8 width = desc->gp_width;

	memset(core, 0, sizeof(*core));
	core->hw = hw;
	core->desc = *desc;
	if (desc->num_fixed && (!desc->num_gp || desc->fixed_width < width))
		width = desc->fixed_width;
	/* half the narrowest counter's range; 31 bits through IA32_PMCx */
	if (desc->vendor == X86_CORE_INTEL && !desc->full_width_write)
		width = min_t(u8, width, 32);
	core->max_period = width_mask(width - 1);
	core->hg_bits = true;
	core->freeze_on_smi = desc->vendor == X86_CORE_INTEL;
}

/**
 * x86_core_cpu_init - a CPU's counter state, nothing placed
 * @cpu: filled in
 * @core: its PMU
 */
void x86_core_cpu_init(struct x86_core_cpu *cpu,
		       const struct x86_core_pmu *core)
{
	memset(cpu, 0, sizeof(*cpu));
	cpu->core = core;
	cpu->hg_bits = core->hg_bits;
}

/**
 * x86_core_cpu_reset - put this CPU's PMU in a known state
 * @cpu: this CPU's counters, none of them placed
 *
 * Every control and counter is cleared, and the last branch records, the
 * PMU is off, pending overflow status is acknowledged and the LVTPC entry
 * delivers an unmasked NMI.
 */
void x86_core_cpu_reset(struct x86_core_cpu *cpu)
{
	const struct x86_core_desc *desc = &cpu->core->desc;
	const struct x86_hw *hw = cpu->core->hw;
	unsigned int i;
	u64 status;

	if (has_global(desc))
		x86_hw_wrmsr(hw, global_ctrl_msr(desc), 0);
	for (i = 0; i < desc->num_gp; i++) {
		x86_hw_wrmsr(hw, x86_core_evtsel_msr(desc, i), 0);
		x86_hw_wrmsr(hw, x86_core_ctr_msr(desc, i), 0);
	}
	if (desc->vendor == X86_CORE_INTEL && desc->version >= 2) {
		x86_hw_wrmsr(hw, MSR_CORE_PERF_FIXED_CTR_CTRL, 0);
		for (i = 0; i < X86_CORE_NR_FIXED; i++)
			if (desc->fixed_mask & BIT(i))
				x86_hw_wrmsr(hw, MSR_CORE_PERF_FIXED_CTR0 + i, 0);
	}
	if (has_global(desc) &&
	    !x86_hw_rdmsr(hw, global_status_msr(desc), &status) && status)
		x86_hw_wrmsr(hw, global_clear_msr(desc), status);
	cpu->fixed_ctrl = 0;
	cpu->running = 0;
	cpu->merged = 0;
	cpu->enabled = false;
	x86_lbr_reset(cpu);
	memset(&cpu->lbr, 0, sizeof(cpu->lbr));
	if (desc->pebs_fmt)
		x86_hw_wrmsr(hw, MSR_IA32_PEBS_ENABLE, 0);
	memset(&cpu->pebs, 0, sizeof(cpu->pebs));
	x86_hw_write_lvtpc(hw, APIC_DM_NMI);
}

/*
 * The PERFEVTSEL / PERF_CTL value of a started counter, with @en or not.
 * A PEBS counter does not interrupt: its records do.
 */
static u64 gp_control(struct x86_core_cpu *cpu, struct perf_event *event,
		      bool en)
{
	u64 val = event->hw.config & ~X86_CORE_EVSEL_SW;

	if (!x86_core_is_pebs(event))
		val |= ARCH_PERFMON_EVENTSEL_INT;
	else if (cpu->core->desc.pebs_fmt >= 4)
		val |= ICL_EVENTSEL_ADAPTIVE;

	if (!cpu->hg_bits)
		val &= ~AMD64_EVENTSEL_HOSTONLY;

	return en ? val | ARCH_PERFMON_EVENTSEL_ENABLE : val;
}

/*
 * AMD's counter pairs (detect.h): the odd counter after a large-increment
 * event's holds the upper bits of its count, the sign extension of what
 * the even counter is armed with, and runs the Merge event (PMCx0FF,
 * EventSelect[11:8] 0xF) while the even one counts.  The count is read
 * from the even counter, as for any event.
 */
#define AMD_MERGE_CONTROL	(0x0ffULL | 0xfULL << 32 | \
				 ARCH_PERFMON_EVENTSEL_ENABLE)

static bool is_pair(const struct x86_core_cpu *cpu,
		    const struct perf_event *event)
{
	return x86_core_merge_pair(&cpu->core->desc, event->hw.config);
}

/* a pair's odd counter: the upper bits of @val, the even one's value */
static void pair_arm(struct x86_core_cpu *cpu, struct perf_event *event,
		     u64 val)
{
	const struct x86_core_desc *desc = &cpu->core->desc;
	u8 width = desc->gp_width;

	if (!is_pair(cpu, event))
		return;
	x86_hw_wrmsr(cpu->core->hw, x86_core_ctr_msr(desc, event->hw.idx + 1),
		     val & BIT_ULL(width - 1) ? GENMASK_ULL(63 - width, 0) : 0);
}

/* a pair's odd counter: running the Merge event, or off */
static void pair_control(struct x86_core_cpu *cpu, struct perf_event *event,
			 bool on)
{
	const struct x86_core_desc *desc = &cpu->core->desc;

	if (is_pair(cpu, event))
		x86_hw_wrmsr(cpu->core->hw,
			     x86_core_evtsel_msr(desc, event->hw.idx + 1),
			     on ? AMD_MERGE_CONTROL : 0);
}

/**
 * x86_core_set_hg_bits - SVM went on or off on this CPU (AMD)
 * @cpu: this CPU's counters; IRQs off
 * @on: whether the HostOnly and GuestOnly bits reach the counters
 *
 * The started general-purpose counters are written again with the new
 * setting, so that none is left counting nothing (HostOnly without SVM)
 * or counting guests it should exclude.
 */
void x86_core_set_hg_bits(struct x86_core_cpu *cpu, bool on)
{
	bool en = has_global(&cpu->core->desc) || cpu->enabled;
	unsigned long running = cpu->running;
	unsigned int idx;

	cpu->hg_bits = on;
	for_each_set_bit(idx, &running, X86_CORE_NR_IDX)
		if (!is_fixed(idx))
			x86_hw_wrmsr(cpu->core->hw,
				     cpu->events[idx]->hw.config_base,
				     gp_control(cpu, cpu->events[idx], en));
}

/**
 * x86_core_apply_freeze_on_smi - this CPU's IA32_DEBUGCTL as the PMU says
 * @cpu: this CPU's counters (Intel); IRQs off, or the CPU coming up
 *
 * FREEZE_WHILE_SMM is set or cleared as @cpu->core->freeze_on_smi says;
 * the other bits (ptrace's BTF, LBR) are left as they are, and nothing is
 * written when the bit is already right.
 */
void x86_core_apply_freeze_on_smi(struct x86_core_cpu *cpu)
{
	const struct x86_core_pmu *core = cpu->core;
	u64 old, val;

	if (core->desc.vendor != X86_CORE_INTEL ||
	    x86_hw_rdmsr(core->hw, MSR_IA32_DEBUGCTLMSR, &old))
		return;
	val = old & ~DEBUGCTLMSR_FREEZE_IN_SMM;
	if (READ_ONCE(core->freeze_on_smi))
		val |= DEBUGCTLMSR_FREEZE_IN_SMM;
	if (val != old)
		x86_hw_wrmsr(core->hw, MSR_IA32_DEBUGCTLMSR, val);
}

/* the four bits of IA32_FIXED_CTR_CTRL for a started fixed counter */
static u64 fixed_field(struct perf_event *event)
{
	u64 config = event->hw.config;
	/* a PEBS counter does not interrupt: its records do */
	u64 field = x86_core_is_pebs(event) ? 0 : INTEL_FIXED_0_ENABLE_PMI;

	if (config & ARCH_PERFMON_EVENTSEL_OS)
		field |= INTEL_FIXED_0_KERNEL;
	if (config & ARCH_PERFMON_EVENTSEL_USR)
		field |= INTEL_FIXED_0_USER;
	if (config & ARCH_PERFMON_EVENTSEL_ANY)
		field |= INTEL_FIXED_0_ANYTHREAD;
	return field;
}

/* Intel: each counter is started and stopped by its own control */
static bool global_all(const struct x86_core_cpu *cpu)
{
	return cpu->core->desc.vendor == X86_CORE_INTEL;
}

/**
 * x86_core_global_on - what the global control holds while the PMU is on
 * @cpu: this CPU's counters
 *
 * Intel: every counter, and the topdown metrics where there are (each
 * counter counts when its own control enables it, as stock leaves the
 * MSR), but those of events that exclude the host; AMD: the started
 * counters and the odd counters of placed pairs.
 *
 * Return: the value.
 */
u64 x86_core_global_on(const struct x86_core_cpu *cpu)
{
	const struct x86_core_desc *desc = &cpu->core->desc;
	u64 val;

	if (!global_all(cpu))
		return cpu->running | cpu->merged;
	val = (u64)desc->fixed_mask << X86_CORE_IDX_FIXED;
	if (desc->num_gp)
		val |= GENMASK_ULL(desc->num_gp - 1, 0);
	if (desc->metrics)
		val |= BIT_ULL(GLOBAL_CTRL_EN_PERF_METRICS);
	return val & ~cpu->guest_only;
}

static void write_global(struct x86_core_cpu *cpu, u64 val)
{
	const struct x86_core_desc *desc = &cpu->core->desc;

	x86_hw_wrmsr(cpu->core->hw, global_ctrl_msr(desc), val);
}

/* without a global control: EN of every started general-purpose counter */
static void set_each_enable(struct x86_core_cpu *cpu, bool en)
{
	unsigned long running = cpu->running & GENMASK_ULL(X86_CORE_IDX_FIXED - 1, 0);
	unsigned int idx;

	for_each_set_bit(idx, &running, X86_CORE_IDX_FIXED)
		x86_hw_wrmsr(cpu->core->hw, cpu->events[idx]->hw.config_base,
			     gp_control(cpu, cpu->events[idx], en));
}

/**
 * x86_core_enable - the PMU on: every started counter counts
 * @cpu: this CPU's counters
 */
void x86_core_enable(struct x86_core_cpu *cpu)
{
	cpu->enabled = true;
	if (has_global(&cpu->core->desc))
		write_global(cpu, x86_core_global_on(cpu));
	else
		set_each_enable(cpu, true);
}

/**
 * x86_core_disable - the PMU off: no counter counts
 * @cpu: this CPU's counters
 */
void x86_core_disable(struct x86_core_cpu *cpu)
{
	cpu->enabled = false;
	if (has_global(&cpu->core->desc))
		write_global(cpu, 0);
	else
		set_each_enable(cpu, false);
}

/*
 * hw.prev_count holds counter values sign-extended from the counter's
 * width, as a self-monitoring reader extends what RDPMC gives it: the user
 * page's offset (count - prev_count) then adds up with the reader's value.
 */
static u64 counter_value(struct x86_core_cpu *cpu, struct perf_event *event,
			 u64 raw)
{
	return sign_extend64(raw, counter_width(&cpu->core->desc,
						event->hw.idx) - 1);
}

/* the value of @event's counter, sign-extended */
static u64 read_counter(struct x86_core_cpu *cpu, struct perf_event *event)
{
	u64 val;

	if (x86_hw_rdpmc(cpu->core->hw, event->hw.event_base_rdpmc, &val))
		return local64_read(&event->hw.prev_count);
	return counter_value(cpu, event, val);
}

/* fold what the counter counted since the last update into @event */
static void update(struct x86_core_cpu *cpu, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 mask = width_mask(counter_width(&cpu->core->desc, hwc->idx));
	u64 prev, now, delta;

	do {
		prev = local64_read(&hwc->prev_count);
		now = read_counter(cpu, event);
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);
	delta = (now - prev) & mask;
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
}

/*
 * Arm the counter for the rest of the period (at most max_period at a
 * time).  Returns the period that had ended, which a sample is taken
 * for, or 0.
 */
static u64 set_period(struct x86_core_cpu *cpu, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 mask = width_mask(counter_width(&cpu->core->desc, hwc->idx));
	u64 ended, val;

	/* a metrics leader counts from 0, with the metrics cleared after it */
	if (hwc->flags & X86_CORE_FLAG_TD_SLOTS) {
		local64_set(&hwc->prev_count, 0);
		x86_topdown_clear(cpu);
		perf_event_update_userpage(event);
		return 0;
	}
	val = perf_counter_next_period(event, cpu->core->max_period, &ended);
	if (x86_core_is_pebs(event)) {
		/*
		 * PEBS starts each period afresh from the whole of it; the
		 * counter itself is armed with at least 2 (as stock arms it).
		 */
		x86_pebs_reset_value(cpu, event,
				     -min(hwc->sample_period,
					  cpu->core->max_period) & mask);
		val = max_t(u64, val, 2);
	}
	val = -val & mask;
	local64_set(&hwc->prev_count, counter_value(cpu, event, val));
	x86_hw_wrmsr(cpu->core->hw, hwc->event_base, val);
	pair_arm(cpu, event, val);
	perf_event_update_userpage(event);
	return ended;
}

/**
 * x86_core_start - arm and start an event's counter
 * @cpu: this CPU's counters
 * @event: placed by x86_core_add_group(), stopped
 *
 * It counts from now on if the PMU is on, else from x86_core_enable().
 */
void x86_core_start(struct x86_core_cpu *cpu, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	const struct x86_hw *hw = cpu->core->hw;
	bool global = has_global(&cpu->core->desc);
	int idx = hwc->idx;

	hwc->state = 0;
	/*
	 * a metric has no counter: it reads its leader's (topdown.c); the
	 * guest LBR event none at all
	 */
	if (x86_core_is_metric(event) || x86_core_is_vlbr(event))
		return;
	set_period(cpu, event);
	/* Intel's records go on before the counter, AMD's after (as stock) */
	if (x86_core_has_lbr(event) && cpu->core->desc.vendor != X86_CORE_AMD)
		x86_lbr_start(cpu, event);
	cpu->running |= BIT_ULL(idx);
	if (is_fixed(idx)) {
		idx -= X86_CORE_IDX_FIXED;
		cpu->fixed_ctrl &= ~(intel_fixed_bits_by_idx(idx, 0xfULL) |
				     ICL_FIXED_0_ADAPTIVE << (4 * idx));
		cpu->fixed_ctrl |= intel_fixed_bits_by_idx(idx, fixed_field(event)) |
				   x86_pebs_fixed_ctrl(cpu, event);
		x86_hw_wrmsr(hw, MSR_CORE_PERF_FIXED_CTR_CTRL, cpu->fixed_ctrl);
		if (x86_core_is_pebs(event))
			x86_pebs_start(cpu, event);
	} else {
		pair_control(cpu, event, true);
		x86_extra_write(hw, event);
		x86_hw_wrmsr(hw, hwc->config_base,
			     gp_control(cpu, event, global || cpu->enabled));
		if (x86_core_is_pebs(event))
			x86_pebs_start(cpu, event);
		if (x86_core_has_lbr(event) &&
		    cpu->core->desc.vendor == X86_CORE_AMD)
			x86_lbr_start(cpu, event);
	}
	if (global && cpu->enabled && !global_all(cpu))
		write_global(cpu, x86_core_global_on(cpu));
}

/**
 * x86_core_stop - stop an event's counter
 * @cpu: this CPU's counters
 * @event: placed by x86_core_add_group()
 * @update_count: fold the counter's last count into the event
 */
void x86_core_stop(struct x86_core_cpu *cpu, struct perf_event *event,
		   bool update_count)
{
	struct hw_perf_event *hwc = &event->hw;
	const struct x86_hw *hw = cpu->core->hw;
	int idx = hwc->idx;

	if (x86_core_is_vlbr(event)) {
		hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
		return;
	}
	if (x86_core_is_metric(event)) {
		if (update_count)
			x86_topdown_read(cpu);
		hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
		return;
	}
	if (!(hwc->state & PERF_HES_STOPPED)) {
		cpu->running &= ~BIT_ULL(idx);
		if (has_global(&cpu->core->desc) && cpu->enabled &&
		    !global_all(cpu))
			write_global(cpu, x86_core_global_on(cpu));
		if (x86_core_has_lbr(event))
			x86_lbr_stop(cpu, event);
		if (is_fixed(idx)) {
			if (x86_core_is_pebs(event))
				x86_pebs_stop(cpu, event);
			cpu->fixed_ctrl &= ~(intel_fixed_bits_by_idx(idx - X86_CORE_IDX_FIXED,
								     0xfULL) |
					     x86_pebs_fixed_ctrl(cpu, event));
			x86_hw_wrmsr(hw, MSR_CORE_PERF_FIXED_CTR_CTRL,
				     cpu->fixed_ctrl);
			if (x86_core_is_host_pebs(event))
				x86_pebs_flush(cpu);
		} else {
			if (x86_core_is_pebs(event))
				x86_pebs_stop(cpu, event);
			/* its control as it was, less EN */
			x86_hw_wrmsr(hw, hwc->config_base,
				     gp_control(cpu, event, false));
			pair_control(cpu, event, false);
			/* its records so far: its samples */
			if (x86_core_is_host_pebs(event))
				x86_pebs_flush(cpu);
		}
		/* the metrics' shares of what the leader counted, theirs */
		if (hwc->flags & X86_CORE_FLAG_TD_SLOTS)
			x86_topdown_stop(cpu);
		hwc->state |= PERF_HES_STOPPED;
	}
	if (update_count && !(hwc->state & PERF_HES_UPTODATE)) {
		update(cpu, event);
		hwc->state |= PERF_HES_UPTODATE;
	}
}

/**
 * x86_core_cpu_save - fold every started counter into its event
 * @cpu: this CPU's counters, about to lose their MSRs (suspend)
 */
void x86_core_cpu_save(struct x86_core_cpu *cpu)
{
	unsigned long running = cpu->running;
	unsigned int idx;

	for_each_set_bit(idx, &running, X86_CORE_NR_IDX)
		update(cpu, cpu->events[idx]);
}

/**
 * x86_core_cpu_restore - write the counters again from the driver's state
 * @cpu: this CPU's counters, their MSRs back at reset values (resume)
 *
 * Every started counter goes on from the value x86_core_cpu_save() last
 * read, with its control; the PMU is on again if it was, and the LVTPC
 * entry delivers an unmasked NMI.  A counter armed through IA32_PMCx
 * (bits 31:0, sign-extended) still holds a value with bit 31 set, so the
 * narrow write gives it back whole.
 */
void x86_core_cpu_restore(struct x86_core_cpu *cpu)
{
	const struct x86_core_desc *desc = &cpu->core->desc;
	const struct x86_hw *hw = cpu->core->hw;
	unsigned long running = cpu->running;
	bool global = has_global(desc);
	struct perf_event *event;
	unsigned int idx;

	if (global)
		write_global(cpu, 0);
	for_each_set_bit(idx, &running, X86_CORE_NR_IDX) {
		event = cpu->events[idx];
		x86_hw_wrmsr(hw, event->hw.event_base,
			     local64_read(&event->hw.prev_count) &
			     width_mask(counter_width(desc, idx)));
		if (is_fixed(idx))
			continue;
		pair_arm(cpu, event, local64_read(&event->hw.prev_count));
		pair_control(cpu, event, true);
		x86_extra_write(hw, event);
		x86_hw_wrmsr(hw, event->hw.config_base,
			     gp_control(cpu, event, global || cpu->enabled));
	}
	if (desc->vendor == X86_CORE_INTEL && desc->version >= 2)
		x86_hw_wrmsr(hw, MSR_CORE_PERF_FIXED_CTR_CTRL, cpu->fixed_ctrl);
	if (desc->pebs_fmt >= 4)
		x86_hw_wrmsr(hw, MSR_PEBS_DATA_CFG, cpu->pebs.data_cfg);
	if (desc->pebs_fmt)
		x86_hw_wrmsr(hw, MSR_IA32_PEBS_ENABLE, cpu->pebs.enabled);
	x86_lbr_resume(cpu);
	if (global && cpu->enabled)
		write_global(cpu, x86_core_global_on(cpu));
	x86_hw_write_lvtpc(hw, APIC_DM_NMI);
	x86_core_apply_freeze_on_smi(cpu);
}

/**
 * x86_core_read - bring a started event's count up to date
 * @cpu: this CPU's counters
 * @event: placed by x86_core_add_group()
 */
void x86_core_read(struct x86_core_cpu *cpu, struct perf_event *event)
{
	if (x86_core_is_metric(event)) {
		x86_topdown_read(cpu);
	} else if (!(event->hw.state & PERF_HES_STOPPED) &&
		   !x86_core_is_vlbr(event)) {
		/* the periods of its records not yet drained count too */
		if (event->hw.flags & X86_CORE_FLAG_PEBS_LARGE)
			x86_pebs_flush(cpu);
		update(cpu, event);
	}
}

/**
 * x86_core_pebs_fold - fold in the period a PEBS record was written for
 * @cpu: this CPU's counters
 * @event: a PEBS event placed here
 * @reload: the value its counter took again after the record
 *	(x86_pebs_reset_value())
 *
 * The counter counted from its last value up to the overflow, then
 * started again from @reload.
 *
 * Return: the period that ended, which the record's sample reports; 0
 * where only a part of the period did (max_period).
 */
u64 x86_core_pebs_fold(struct x86_core_cpu *cpu, struct perf_event *event,
		       u64 reload)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 mask = width_mask(counter_width(&cpu->core->desc, hwc->idx));
	u64 delta, ended;

	delta = -local64_read(&hwc->prev_count) & mask;
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
	local64_set(&hwc->prev_count, counter_value(cpu, event, reload));
	perf_counter_next_period(event, cpu->core->max_period, &ended);
	return ended;
}

/**
 * x86_core_pebs_rearm - arm a PEBS event's counter for its next period
 * @cpu: this CPU's counters, the PMU off
 * @event: a started PEBS event whose record was just folded in, at a
 *	PMI for every record
 *
 * At a fixed period, the counter goes on from the reload, a whole period
 * from the record.  In frequency mode the sample may have changed the
 * period: what the counter counted since the reload is folded in, and the
 * counter armed afresh with the whole new period.
 */
void x86_core_pebs_rearm(struct x86_core_cpu *cpu, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!event->attr.freq)
		return;
	update(cpu, event);
	hwc->last_period = hwc->sample_period;
	local64_set(&hwc->period_left, hwc->sample_period);
	set_period(cpu, event);
}

/*
 * Without overflow status: a started counter was armed negative (its top
 * bit set), so a clear top bit says it wrapped.
 */
static u64 overflowed_by_value(struct x86_core_cpu *cpu)
{
	unsigned long running = cpu->running;
	struct perf_event *event;
	unsigned int idx;
	u64 val, found = 0;
	u8 width;

	for_each_set_bit(idx, &running, X86_CORE_NR_IDX) {
		event = cpu->events[idx];
		width = counter_width(&cpu->core->desc, idx);
		val = read_counter(cpu, event);
		if (!(val & BIT_ULL(width - 1)))
			found |= BIT_ULL(idx);
	}
	return found;
}

/* a counter of @event wrapped: fold it in, re-arm, report a sample */
static void overflow(struct x86_core_cpu *cpu, struct perf_event *event)
{
	const struct x86_core_pmu *core = cpu->core;
	u64 period;

	update(cpu, event);
	period = set_period(cpu, event);
	if (!period || !is_sampling_event(event))
		return;
	if (core->overflow && core->overflow(event, period, core->overflow_arg))
		x86_core_stop(cpu, event, false);
}

/**
 * x86_core_handle_irq - the PMU interrupt
 * @cpu: this CPU's counters
 *
 * Return: the number of counters handled; 0 when the interrupt was not
 * the PMU's (no overflow found), so that the NMI goes to other handlers.
 */
int x86_core_handle_irq(struct x86_core_cpu *cpu)
{
	const struct x86_core_desc *desc = &cpu->core->desc;
	const struct x86_hw *hw = cpu->core->hw;
	bool global = has_global(desc);
	bool was_enabled = false;
	unsigned long found;
	u64 status = 0;
	unsigned int idx;
	int handled = 0;

	if (global) {
		if (x86_hw_rdmsr(hw, global_status_msr(desc), &status))
			status = 0;
		/*
		 * AMD: a PMI may come late, after the handler that took its
		 * overflow: soon after a handled one, it is still the PMU's
		 */
		if (!status && desc->vendor == X86_CORE_AMD &&
		    time_before(jiffies, cpu->late_pmi_until))
			handled = 1;
		if (!status)
			goto out;
		/* nothing counts while the counters are re-armed */
		was_enabled = cpu->enabled;
		if (was_enabled)
			x86_core_disable(cpu);
		/*
		 * PEBS counters report by records, not by their own bit; a
		 * guest's PEBS counters to KVM
		 */
		found = status & cpu->running &
			~(x86_pebs_on(cpu) | cpu->pebs.guest);
		/* the records, frozen at the PMI: read by the first sample */
		cpu->lbr.snapped = false;
		if (status & GLOBAL_STATUS_BUFFER_OVF)
			handled += x86_pebs_drain(cpu);
		if (cpu->pebs.guest)
			handled += x86_pebs_guest_pmi(cpu, status);
	} else {
		found = overflowed_by_value(cpu);
	}
	for_each_set_bit(idx, &found, X86_CORE_NR_IDX) {
		if (!cpu->events[idx])
			continue;
		overflow(cpu, cpu->events[idx]);
		handled++;
	}
	if (global) {
		x86_hw_wrmsr(hw, global_clear_msr(desc), status);
		cpu->late_pmi_until = jiffies + msecs_to_jiffies(LATE_PMI_MS);
		/*
		 * The PMI unmasked before the counters run again: delivery
		 * masked the entry, and an overflow while it is masked would
		 * interrupt no one, its status bit left set for good.
		 */
		x86_hw_write_lvtpc(hw, APIC_DM_NMI);
		if (was_enabled)
			x86_core_enable(cpu);
		/* status bits for no counter of ours: still the PMU's */
		return handled ? handled : 1;
	}
out:
	x86_hw_write_lvtpc(hw, APIC_DM_NMI);
	return handled;
}
