// SPDX-License-Identifier: GPL-2.0
/*
 * Intel's extra registers: events of a model that take a second value
 * from an MSR of their own (SDM vol. 3B, "Off-core Response Performance
 * Monitoring", "Load Latency Performance Monitoring Facility", "Front-end
 * Retired Facility"):
 *
 * ============  ==================  ==============  ===================
 * register      MSR                 format (bits)   events (skl, icl)
 * ============  ==================  ==============  ===================
 * RSP_0, RSP_1  OFFCORE_RSP_0, _1   offcore_rsp     0xb7, 0xbb (0x2a,
 *                                   (37:0)          0x2b from SPR)
 * LDLAT         PEBS_LD_LAT         ldlat (15:0)    0x01cd
 * FRONTEND      PEBS_FRONTEND       frontend (23:0) 0x01c6 (SPR: 0x40ad
 *                                                   and 0x04c2 too; GNR:
 *                                                   0x03c6, 0x02c6, ...)
 * SNOOP_0, _1   SNOOP_RSP_0, _1     snoop_rsp       0x0127, 0x0227
 *                                   (63:0)          (Crestmont)
 * ============  ==================  ==============  ===================
 *
 * Each model lists its events (struct x86_extra_event, models.c) with the
 * bits of the value each takes.  The user gives the value in
 * attr.config1; the LL and node cache events give theirs in the model's
 * table.  A bit the event does not take is EINVAL; where the registers do
 * not hold a value (a hypervisor offers the model but not them), such an
 * event is ENXIO: the first four registers are probed together, the
 * snoop response ones apart (x86_extra_probe()).
 *
 * Each register holds one value for the CPU, so events on a CPU share it
 * when their values are equal.  The two offcore response events are
 * equivalent: an event whose register holds another value moves to the
 * other event and register if that one is free or holds its value; any
 * other event waits (EAGAIN from the add: it multiplexes), and a group
 * whose members need more values than the registers hold never fits.
 * The registers are per logical CPU on these parts: hyperthreads do not
 * share them.
 *
 * hw.extra_reg of such an event: @reg the MSR it asks for (0: none),
 * @config its value, @idx the register it has while placed, @alloc
 * whether it has one.
 *
 * Locking: as counters.c; a CPU's registers are changed only with its
 * counters (IRQs off, on that CPU).
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>

#include "cpu_pmu.h"

static const u32 extra_msrs[X86_XREG_NR] = {
	[X86_XREG_RSP_0]	= MSR_OFFCORE_RSP_0,
	[X86_XREG_RSP_1]	= MSR_OFFCORE_RSP_1,
	[X86_XREG_LDLAT]	= MSR_PEBS_LD_LAT_THRESHOLD,
	[X86_XREG_FRONTEND]	= MSR_PEBS_FRONTEND,
	[X86_XREG_SNOOP_0]	= MSR_SNOOP_RSP_0,
	[X86_XREG_SNOOP_1]	= MSR_SNOOP_RSP_1,
};

/* the model's entry for @evsel's event, or NULL */
static const struct x86_extra_event *extra_find(const struct x86_core_desc *desc,
						u64 evsel)
{
	const struct x86_intel_model *model = desc->intel_model;
	u16 code = evsel & INTEL_ARCH_EVENT_MASK;
	unsigned int i;

	for (i = 0; model && i < model->nr_extra; i++)
		if (model->extra[i].code == code)
			return &model->extra[i];
	return NULL;
}

/* the event of the model that reads register @reg (an offcore response) */
static u16 extra_code(const struct x86_intel_model *model, int reg)
{
	unsigned int i;

	for (i = 0; i < model->nr_extra; i++)
		if (model->extra[i].reg == reg)
			return model->extra[i].code;
	return 0;
}

/**
 * x86_extra_probe - do extra registers hold a value?
 * @hw: the hardware
 * @regs: the registers (bit i: enum x86_extra_reg_index i)
 *
 * Each register must read, and keep what is written; its value is put
 * back.
 *
 * Return: true when all of them do.
 */
bool x86_extra_probe(const struct x86_hw *hw, unsigned long regs)
{
	u64 old, val;
	int i;

	guard(preempt)();
	for_each_set_bit(i, &regs, X86_XREG_NR) {
		u32 msr = extra_msrs[i];

		if (x86_hw_rdmsr(hw, msr, &old) || x86_hw_wrmsr(hw, msr, 0x11) ||
		    x86_hw_rdmsr(hw, msr, &val))
			return false;
		x86_hw_wrmsr(hw, msr, old);
		if (val != 0x11)
			return false;
	}
	return true;
}

/**
 * x86_extra_event_init - note the value an event takes from its register
 * @desc: the PMU
 * @event: the event being initialised
 * @evsel: its control value
 * @value: the value (attr.config1, or the cache event's)
 *
 * Return: 0 (nothing to do for an event without an extra register);
 * -EINVAL for a value with bits past the register's; -ENXIO where the
 * registers do not hold a value.
 */
int x86_extra_event_init(const struct x86_core_desc *desc,
			 struct perf_event *event, u64 evsel, u64 value)
{
	struct hw_perf_event_extra *reg = &event->hw.extra_reg;
	const struct x86_extra_event *ev = extra_find(desc, evsel);

	reg->reg = 0;
	reg->alloc = 0;
	if (!ev)
		return 0;
	if (value & ~ev->valid)
		return -EINVAL;
	if (ev->reg == X86_XREG_SNOOP_0 || ev->reg == X86_XREG_SNOOP_1 ?
	    !desc->snoop_regs : !desc->extra_regs)
		return -ENXIO;
	reg->reg = extra_msrs[ev->reg];
	reg->config = value;
	reg->idx = ev->reg;
	return 0;
}

/* can @value go in register @i of @regs? */
static bool fits(const struct x86_extra_reg *regs, int i, u64 value)
{
	return !regs[i].users || regs[i].value == value;
}

/**
 * x86_extra_take - a register for an event's value
 * @desc: the PMU
 * @regs: the CPU's registers, or a scratch set (group validation)
 * @event: the event; no effect if it has no extra register
 * @evsel: its control value, changed to the other offcore response
 *	event's if it takes the other register
 *
 * Only @regs and @evsel change: the event may be placed elsewhere.
 *
 * Return: the register's index (0 for an event that needs none), or
 * -EAGAIN if no register can take its value now.
 */
int x86_extra_take(const struct x86_core_desc *desc, struct x86_extra_reg *regs,
		   const struct perf_event *event, u64 *evsel)
{
	const struct hw_perf_event_extra *reg = &event->hw.extra_reg;
	const struct x86_extra_event *ev;
	int i;

	if (!reg->reg)
		return 0;
	ev = extra_find(desc, *evsel);
	if (!ev)
		return -EAGAIN;
	i = ev->reg;
	if (!fits(regs, i, reg->config)) {
		if (i != X86_XREG_RSP_0 && i != X86_XREG_RSP_1)
			return -EAGAIN;
		i ^= X86_XREG_RSP_0 ^ X86_XREG_RSP_1;
		if (!fits(regs, i, reg->config))
			return -EAGAIN;
		*evsel = (*evsel & ~INTEL_ARCH_EVENT_MASK) |
			 extra_code(desc->intel_model, i);
	}
	regs[i].value = reg->config;
	regs[i].users++;
	return i;
}

/**
 * x86_extra_placed - the event has the register x86_extra_take() took
 * @event: the event
 * @idx: what x86_extra_take() returned for it
 */
void x86_extra_placed(struct perf_event *event, int idx)
{
	struct hw_perf_event_extra *reg = &event->hw.extra_reg;

	if (!reg->reg)
		return;
	reg->idx = idx;
	reg->alloc = 1;
}

/**
 * x86_extra_untake - give back a register x86_extra_take() took
 * @regs: the registers
 * @event: the event
 * @idx: what x86_extra_take() returned for it
 */
void x86_extra_untake(struct x86_extra_reg *regs,
		      const struct perf_event *event, int idx)
{
	if (event->hw.extra_reg.reg)
		regs[idx].users--;
}

/**
 * x86_extra_release - a placed event leaves its register
 * @regs: the registers it was placed with
 * @event: the event; no effect if it has none
 */
void x86_extra_release(struct x86_extra_reg *regs, struct perf_event *event)
{
	struct hw_perf_event_extra *reg = &event->hw.extra_reg;

	if (!reg->alloc)
		return;
	regs[reg->idx].users--;
	reg->alloc = 0;
}

/**
 * x86_extra_write - program a placed event's register
 * @hw: the hardware
 * @event: the event; nothing is written if it has no register
 */
void x86_extra_write(const struct x86_hw *hw, struct perf_event *event)
{
	struct hw_perf_event_extra *reg = &event->hw.extra_reg;

	if (reg->alloc)
		x86_hw_wrmsr(hw, extra_msrs[reg->idx], reg->config);
}
