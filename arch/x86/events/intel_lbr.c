// SPDX-License-Identifier: GPL-2.0
/*
 * Intel's last branch records (LBR), the model-specific kind that Skylake
 * and Ice Lake cores have (SDM vol. 3B, "Last Branch, Call Stack,
 * Interrupt, and Exception Recording for Processors based on Skylake
 * Microarchitecture"): a ring of 32 records of the branches the CPU took,
 * each MSR_LASTBRANCH_x_FROM_IP, _TO_IP and MSR_LBR_INFO_x (format 5:
 * the misprediction, TSX and cycle count bits in LBR_INFO), MSR_LBR_TOS
 * the index of the last one written, MSR_LBR_SELECT a filter of the
 * branches not to record, and IA32_DEBUGCTL.LBR to record at all.  They
 * give sampling events a branch stack (PERF_SAMPLE_BRANCH_STACK): the
 * records as the PMI found them, newest first.  AMD's LBR stack
 * (LbrExtV2, amd_lbr.c) takes the same filters in its own registers and
 * goes through the same paths: what differs is how its records are read,
 * cleared and turned on, and what a request may ask of it.
 *
 * An event's branch_sample_type becomes an LBR_SELECT value at
 * event_init: a kind of branch is dropped unless the event asks for it,
 * and so is a ring it does not ask for (as the hardware filters by the
 * ring a branch ends in, a record whose source is the kernel's without
 * the event asking for it, a return to user space, is dropped in
 * software: no kernel address reaches a user-only stack).  Where the hardware's
 * kinds are coarser than the request (far branches for "any call" and
 * "any return"), the records are filtered again in software by the
 * instruction at their source, which also gives the branch type
 * (PERF_SAMPLE_BRANCH_TYPE_SAVE); the TSX filters keep the records whose
 * flags say so.  PERF_SAMPLE_BRANCH_CALL_STACK uses the
 * hardware's call-stack mode, where a return takes its call off the ring.
 *
 * One CPU's events share its LBR_SELECT: on Intel an event whose filter
 * differs from the placed ones' does not go on (the core multiplexes it);
 * on AMD it does (stock's groups take mixed filters), the register then
 * letting through what any of them asks for, and each event's samples
 * filtered in software as its own LBR_SELECT would have.  The
 * ring holds what the CPU ran, whoever ran it: it is cleared when a task
 * event goes on that was not the last one on, or after CPU-wide events
 * recorded while it was off, so that no task sees another's branches; a
 * call-stack event keeps its task's stack (saved when it goes off, written
 * back when it comes on), as the call stack spans the switches.  While a
 * started event records, DEBUGCTL.LBR is set, with FREEZE_LBRS_ON_PMI (the
 * ring stops at the PMI, and acknowledging the PMI's LBR_Frz status bit
 * lets it go on) but in call-stack mode; the PMI's first sample with a
 * branch stack reads the ring.  KVM's guest LBR event takes the ring for
 * its vCPU's guest, which programs it: placed, it leaves the filter at 0
 * and recording off, and its task's records are kept across switches as
 * a call-stack event's are.
 *
 * Locking: as count.c, every function taking a struct x86_core_cpu runs
 * on its CPU with IRQs off or in its PMI (cpu_pmu.h).  event_init only
 * reads the PMU's description.
 */
#include <linux/bitops.h>
#include <linux/perf_event.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/insn.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>
#include <asm/ptrace.h>

#include "cpu_pmu.h"

/* the records' MSRs (Skylake's layout) */
#define LBR_MSR_FROM		MSR_LBR_NHM_FROM
#define LBR_MSR_TO		MSR_LBR_NHM_TO
#define LBR_MSR_INFO		MSR_LBR_INFO_0

/* IA32_PERF_CAPABILITIES[5:0]: the record format this file reads */
#define LBR_FORMAT_MASK		0x3f
#define LBR_FORMAT_INFO		0x05

/* LBR_SELECT: a set bit drops what it names */
#define LBR_SEL_RING0		BIT_ULL(0)	/* ending in ring 0 */
#define LBR_SEL_RING3		BIT_ULL(1)	/* ending above ring 0 */
#define LBR_SEL_JCC		BIT_ULL(2)
#define LBR_SEL_REL_CALL	BIT_ULL(3)
#define LBR_SEL_IND_CALL	BIT_ULL(4)
#define LBR_SEL_RETURN		BIT_ULL(5)
#define LBR_SEL_IND_JMP		BIT_ULL(6)
#define LBR_SEL_REL_JMP		BIT_ULL(7)
#define LBR_SEL_FAR		BIT_ULL(8)
#define LBR_SEL_CALL_STACK	BIT_ULL(9)	/* set: call-stack mode */
#define LBR_SEL_KINDS		GENMASK_ULL(8, 2)

/*
 * The software filter (hw.branch_reg.idx): the PERF_BR_* types an event
 * keeps, as a mask of BIT(type), where its LBR_SELECT lets more through.
 */
#define BR_TYPES_CALLS	(BIT(PERF_BR_CALL) | BIT(PERF_BR_IND_CALL) | \
			 BIT(PERF_BR_SYSCALL) | BIT(PERF_BR_IRQ))
#define BR_TYPES_RETURNS (BIT(PERF_BR_RET) | BIT(PERF_BR_ERET) | \
			  BIT(PERF_BR_SYSRET))

/* what a kind of request lets through: LBR_SELECT kinds and PERF_BR_ types */
static const struct {
	u64 request;
	u64 kinds;
	u32 types;
} lbr_kinds[] = {
	{ PERF_SAMPLE_BRANCH_ANY, LBR_SEL_KINDS, ~0U },
	{ PERF_SAMPLE_BRANCH_ANY_CALL,
	  LBR_SEL_REL_CALL | LBR_SEL_IND_CALL | LBR_SEL_FAR, BR_TYPES_CALLS },
	{ PERF_SAMPLE_BRANCH_ANY_RETURN, LBR_SEL_RETURN | LBR_SEL_FAR,
	  BR_TYPES_RETURNS },
	{ PERF_SAMPLE_BRANCH_IND_CALL, LBR_SEL_IND_CALL, BIT(PERF_BR_IND_CALL) },
	{ PERF_SAMPLE_BRANCH_COND, LBR_SEL_JCC, BIT(PERF_BR_COND) },
	{ PERF_SAMPLE_BRANCH_IND_JUMP, LBR_SEL_IND_JMP, BIT(PERF_BR_IND) },
	{ PERF_SAMPLE_BRANCH_CALL, LBR_SEL_REL_CALL, BIT(PERF_BR_CALL) },
	{ PERF_SAMPLE_BRANCH_CALL_STACK,
	  LBR_SEL_REL_CALL | LBR_SEL_IND_CALL | LBR_SEL_RETURN,
	  BIT(PERF_BR_CALL) | BIT(PERF_BR_IND_CALL) | BIT(PERF_BR_RET) },
};

/*
 * What the call-stack mode takes beside it, as stock's driver answers on
 * the emulated Skylake-SP: direct calls and indirect jumps (LBR_SELECT
 * lets the latter through too), and no other kind of branch, nor a TSX
 * filter (EINVAL).
 */
#define BR_NOT_WITH_CALL_STACK	(PERF_SAMPLE_BRANCH_ANY | \
				 PERF_SAMPLE_BRANCH_ANY_CALL | \
				 PERF_SAMPLE_BRANCH_ANY_RETURN | \
				 PERF_SAMPLE_BRANCH_IND_CALL | \
				 PERF_SAMPLE_BRANCH_COND | \
				 PERF_SAMPLE_BRANCH_ABORT_TX | \
				 PERF_SAMPLE_BRANCH_IN_TX | \
				 PERF_SAMPLE_BRANCH_NO_TX)

/**
 * x86_lbr_select - the LBR_SELECT value and software filter of a request
 * @branch_sample_type: the event's, its privilege bits filled in
 * @sw_types: set to the PERF_BR_* types (a mask) to keep in software,
 *	or 0 where LBR_SELECT alone does the filtering
 *
 * Return: the LBR_SELECT value.
 */
u64 x86_lbr_select(u64 branch_sample_type, u32 *sw_types)
{
	u64 kinds = 0, sel;
	u32 types = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lbr_kinds); i++) {
		if (!(branch_sample_type & lbr_kinds[i].request))
			continue;
		kinds |= lbr_kinds[i].kinds;
		types |= lbr_kinds[i].types;
	}
	sel = LBR_SEL_KINDS & ~kinds;
	if (!(branch_sample_type & PERF_SAMPLE_BRANCH_KERNEL))
		sel |= LBR_SEL_RING0;
	if (!(branch_sample_type & PERF_SAMPLE_BRANCH_USER))
		sel |= LBR_SEL_RING3;
	if (branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK)
		sel |= LBR_SEL_CALL_STACK;
	/* far branches are more than calls, or than returns */
	*sw_types = (kinds & LBR_SEL_FAR) && types != ~0U ? types : 0;
	return sel;
}

/* what a call-stack event keeps of its task's ring while it is off */
struct lbr_saved {
	bool valid;
	u64 tos;
	unsigned int depth;		/* records of the stack, newest first */
	u64 from[X86_LBR_MAX];
	u64 to[X86_LBR_MAX];
	u64 info[X86_LBR_MAX];
};

/* an event's end: what a call-stack event kept of its task's ring */
void x86_lbr_event_destroy(struct perf_event *event)
{
	kfree(event->pmu_private);
	event->pmu_private = NULL;
}

static bool lbr_call_stack(const struct perf_event *event)
{
	return event->hw.branch_reg.config & LBR_SEL_CALL_STACK;
}

/**
 * x86_lbr_event_init - take an event's branch stack request
 * @desc: the PMU
 * @event: an Intel event with PERF_SAMPLE_BRANCH_STACK
 *
 * Return: 0; -EOPNOTSUPP without LBR; -EINVAL for branch counters, or
 * the call-stack mode with what it does not take; -ENOMEM.
 */
int x86_lbr_event_init(const struct x86_core_desc *desc,
		       struct perf_event *event)
{
	u64 type = event->attr.branch_sample_type;
	u32 sw_types;

	if (desc->vendor == X86_CORE_AMD) {
		if (!desc->lbr_nr || (type & x86_amd_lbr_unsupported()))
			return -EOPNOTSUPP;
		event->hw.branch_reg.reg = MSR_AMD64_LBR_SELECT;
		goto filter;
	}
	if (type & PERF_SAMPLE_BRANCH_COUNTERS)
		return -EINVAL;
	if (!desc->lbr_nr)
		return -EOPNOTSUPP;
	if ((type & PERF_SAMPLE_BRANCH_CALL_STACK) &&
	    (type & BR_NOT_WITH_CALL_STACK))
		return -EINVAL;
	event->hw.branch_reg.reg = MSR_LBR_SELECT;
filter:
	event->hw.branch_reg.config = x86_lbr_select(type, &sw_types);
	event->hw.branch_reg.idx = sw_types;
	if (lbr_call_stack(event) && event->attach_state & PERF_ATTACH_TASK) {
		struct lbr_saved *saved = kzalloc(sizeof(*saved), GFP_KERNEL);

		if (!saved)
			return -ENOMEM;
		event->pmu_private = saved;
		event->destroy = x86_lbr_event_destroy;
	}
	return 0;
}

/* ---- the records ---- */

static u32 lbr_msr(const struct x86_core_desc *desc, u32 base, unsigned int i)
{
	return base + (i & (desc->lbr_nr - 1));
}

/*
 * Whether a record MSR holds what is written (stock's probe of a CPU,
 * or a hypervisor, that lists LBRs without having them): written with
 * some bits flipped, read back, restored.
 */
static bool lbr_msr_works(const struct x86_hw *hw, u32 msr, u64 flip)
{
	u64 old, val;

	if (x86_hw_rdmsr(hw, msr, &old) || x86_hw_wrmsr(hw, msr, old ^ flip) ||
	    x86_hw_rdmsr(hw, msr, &val))
		return false;
	x86_hw_wrmsr(hw, msr, old);
	return val == (old ^ flip);
}

/**
 * x86_lbr_probe - whether a model's LBRs are there
 * @hw: the hardware
 * @desc: an Intel PMU with its model; lbr_nr set, or 0
 */
void x86_lbr_probe(const struct x86_hw *hw, struct x86_core_desc *desc)
{
	u8 nr = desc->intel_model ? desc->intel_model->lbr_nr : 0;
	unsigned int i;

	desc->lbr_nr = 0;
	if (!nr || (desc->perf_capabilities & LBR_FORMAT_MASK) !=
		   LBR_FORMAT_INFO)
		return;
	if (!lbr_msr_works(hw, MSR_LBR_TOS, 0x3))
		return;
	for (i = 0; i < nr; i++)
		if (!lbr_msr_works(hw, LBR_MSR_FROM + i, 0xffff) ||
		    !lbr_msr_works(hw, LBR_MSR_TO + i, 0xffff))
			return;
	desc->lbr_nr = nr;
}

/*
 * The ring written: a saved stack back (none: every record cleared, as
 * at a reset), every other record cleared (none of another task's
 * stays), each source with bits 63:61 its sign: where they hold TSX
 * flags on a part without TSX, the CPU takes no other value.
 */
static void lbr_write(struct x86_core_cpu *cpu, const struct lbr_saved *s)
{
	const struct x86_core_desc *desc = &cpu->core->desc;
	const struct x86_hw *hw = cpu->core->hw;
	unsigned int i, pos;
	bool kept;

	/* record i is the stack's pos-th newest */
	for (i = 0; i < desc->lbr_nr; i++) {
		pos = (s->tos - i) & (desc->lbr_nr - 1);
		kept = pos < s->depth;
		x86_hw_wrmsr(hw, LBR_MSR_FROM + i,
			     kept ? sign_extend64(s->from[pos], 60) : 0);
		x86_hw_wrmsr(hw, LBR_MSR_TO + i, kept ? s->to[pos] : 0);
		x86_hw_wrmsr(hw, LBR_MSR_INFO + i, kept ? s->info[pos] : 0);
	}
	if (s->valid)
		x86_hw_wrmsr(hw, MSR_LBR_TOS, s->tos);
}

/* the CPU's branch filter: Intel's LBR_SELECT or AMD's */
static void write_select(struct x86_core_cpu *cpu, u64 sel)
{
	x86_hw_wrmsr(cpu->core->hw, cpu->core->desc.vendor == X86_CORE_AMD ?
		     MSR_AMD64_LBR_SELECT : MSR_LBR_SELECT, sel);
}

/**
 * x86_lbr_reset - clear this CPU's records
 * @cpu: this CPU's counters
 */
void x86_lbr_reset(struct x86_core_cpu *cpu)
{
	static const struct lbr_saved none;

	if (cpu->core->desc.vendor != X86_CORE_AMD) {
		lbr_write(cpu, &none);
		return;
	}
	/* the reset clears the filter too: the recording events' back */
	x86_amd_lbr_reset(cpu);
	if (cpu->lbr.running)
		write_select(cpu, cpu->lbr.select);
}

/*
 * The call stack in the ring: the records from LBR_TOS back to the first
 * cleared one (the stack's bottom: the ring was cleared, or written back
 * so, when the task's event went on).  Read at every switch away from the
 * task, so only what the stack holds is read.
 */
static void lbr_save(struct x86_core_cpu *cpu, struct lbr_saved *s)
{
	const struct x86_core_desc *desc = &cpu->core->desc;
	const struct x86_hw *hw = cpu->core->hw;
	unsigned int i;

	if (x86_hw_rdmsr(hw, MSR_LBR_TOS, &s->tos))
		return;
	for (i = 0; i < desc->lbr_nr; i++) {
		if (x86_hw_rdmsr(hw, lbr_msr(desc, LBR_MSR_FROM, s->tos - i),
				 &s->from[i]) || !s->from[i])
			break;
		x86_hw_rdmsr(hw, lbr_msr(desc, LBR_MSR_TO, s->tos - i),
			     &s->to[i]);
		x86_hw_rdmsr(hw, lbr_msr(desc, LBR_MSR_INFO, s->tos - i),
			     &s->info[i]);
	}
	s->depth = i;
	s->valid = true;
}

/**
 * x86_lbr_take - an event with a branch stack is being placed
 * @cpu: this CPU's counters
 * @event: the event
 *
 * Return: 0; -EAGAIN when the placed events record with another filter.
 */
int x86_lbr_take(struct x86_core_cpu *cpu, struct perf_event *event)
{
	struct x86_lbr_cpu *lbr = &cpu->lbr;
	u64 sel = event->hw.branch_reg.config;

	if (lbr->users && lbr->select != sel) {
		if (cpu->core->desc.vendor != X86_CORE_AMD)
			return -EAGAIN;
		/* a kind or ring dropped only where every event drops it */
		sel &= lbr->select;
		if (lbr->running && sel != lbr->select)
			write_select(cpu, sel);
	}
	lbr->select = sel;
	lbr->users++;
	if (!(event->attach_state & PERF_ATTACH_TASK))
		lbr->cpu_users++;
	return 0;
}

/**
 * x86_lbr_untake - undo x86_lbr_take()
 * @cpu: this CPU's counters
 * @event: the event taken, not placed
 */
void x86_lbr_untake(struct x86_core_cpu *cpu, struct perf_event *event)
{
	cpu->lbr.users--;
	if (!(event->attach_state & PERF_ATTACH_TASK))
		cpu->lbr.cpu_users--;
}

/* a placed event's records are another's: its task's, or none */
static void lbr_switch_to(struct x86_core_cpu *cpu, struct perf_event *event)
{
	struct x86_lbr_cpu *lbr = &cpu->lbr;
	struct lbr_saved *saved = event->pmu_private;

	/*
	 * A CPU-wide event records whatever runs (and the ring is no task's
	 * from then on); the task event that was on last finds its own
	 * records, if nothing recorded since (event ids are never reused).
	 */
	if (!(event->attach_state & PERF_ATTACH_TASK)) {
		lbr->last_id = 0;
		return;
	}
	if (lbr->last_id == event->id)
		return;
	if (saved && saved->valid)
		lbr_write(cpu, saved);
	else
		x86_lbr_reset(cpu);
	lbr->last_id = event->id;
}

/**
 * x86_lbr_placed - an event's records go on with it
 * @cpu: this CPU's counters
 * @event: taken by x86_lbr_take(), now on a counter
 */
void x86_lbr_placed(struct x86_core_cpu *cpu, struct perf_event *event)
{
	lbr_switch_to(cpu, event);
}

/**
 * x86_lbr_lend - KVM's guest LBR event goes on: the LBRs are its guest's
 * @cpu: this CPU's counters
 * @event: the guest LBR event, taken by x86_lbr_take()
 *
 * The vCPU task's records come back (or a cleared ring), and the filter
 * is the guest's: 0 from the host, which neither turns recording on (the
 * guest's DEBUGCTL, which VM entry loads, does) nor reads the records.
 */
void x86_lbr_lend(struct x86_core_cpu *cpu, struct perf_event *event)
{
	lbr_switch_to(cpu, event);
	write_select(cpu, cpu->lbr.select);
}

/**
 * x86_lbr_release - an event with a branch stack leaves the counters
 * @cpu: this CPU's counters
 * @event: taken and placed, stopped
 */
void x86_lbr_release(struct x86_core_cpu *cpu, struct perf_event *event)
{
	struct lbr_saved *saved = event->pmu_private;

	struct x86_lbr_cpu *lbr = &cpu->lbr;

	if (saved && lbr->last_id == event->id)
		lbr_save(cpu, saved);
	x86_lbr_untake(cpu, event);
	/*
	 * Only CPU-wide events left: they go on recording, whatever runs,
	 * so the ring is no longer the task's.
	 */
	if (lbr->users && lbr->users == lbr->cpu_users)
		lbr->last_id = 0;
}

static void write_debugctl(struct x86_core_cpu *cpu, bool on)
{
	const struct x86_hw *hw = cpu->core->hw;
	u64 old, val;

	if (cpu->core->desc.vendor == X86_CORE_AMD) {
		x86_amd_lbr_enable(cpu, on);
		return;
	}
	if (x86_hw_rdmsr(hw, MSR_IA32_DEBUGCTLMSR, &old))
		return;
	val = old & ~(DEBUGCTLMSR_LBR | DEBUGCTLMSR_FREEZE_LBRS_ON_PMI);
	if (on) {
		val |= DEBUGCTLMSR_LBR;
		if (!(cpu->lbr.select & LBR_SEL_CALL_STACK))
			val |= DEBUGCTLMSR_FREEZE_LBRS_ON_PMI;
	}
	if (val != old)
		x86_hw_wrmsr(hw, MSR_IA32_DEBUGCTLMSR, val);
}

/**
 * x86_lbr_start - an event with a branch stack starts: recording on
 * @cpu: this CPU's counters
 * @event: placed, being started
 */
void x86_lbr_start(struct x86_core_cpu *cpu, struct perf_event *event)
{
	if (cpu->lbr.running++)
		return;
	write_select(cpu, cpu->lbr.select);
	write_debugctl(cpu, true);
}

/**
 * x86_lbr_stop - an event with a branch stack stops: recording off after
 * the last one
 * @cpu: this CPU's counters
 * @event: started, being stopped
 */
void x86_lbr_stop(struct x86_core_cpu *cpu, struct perf_event *event)
{
	if (!--cpu->lbr.running)
		write_debugctl(cpu, false);
}

/**
 * x86_lbr_resume - recording on again after a resume, where it was on
 * @cpu: this CPU's counters, their MSRs back at reset values
 */
void x86_lbr_resume(struct x86_core_cpu *cpu)
{
	if (!cpu->lbr.running)
		return;
	write_select(cpu, cpu->lbr.select);
	write_debugctl(cpu, true);
}

/* ---- the branch stack of a sample ---- */

static struct perf_branch_stack *lbr_stack(u64 *buf)
{
	return (struct perf_branch_stack *)buf;
}

/* a format 5 record (FROM_IP, TO_IP, LBR_INFO) as a branch entry */
static void lbr_entry(struct perf_branch_entry *e, u64 from, u64 to, u64 info)
{
	/* bits 62:61 of the source are TSX flags or its sign */
	e->from = sign_extend64(from, 60);
	e->to = to;
	perf_clear_branch_entry_bitfields(e);
	e->mispred = !!(info & LBR_INFO_MISPRED);
	e->predicted = !e->mispred;
	e->in_tx = !!(info & LBR_INFO_IN_TX);
	e->abort = !!(info & LBR_INFO_ABORT);
	e->cycles = info & LBR_INFO_CYCLES;
}

/*
 * This CPU's records, newest first, into @entries (at most @max); the
 * index of the newest in *@tos.  Returns how many.
 */
static unsigned int lbr_read(struct x86_core_cpu *cpu,
			     struct perf_branch_entry *entries,
			     unsigned int max, u64 *tos)
{
	const struct x86_core_desc *desc = &cpu->core->desc;
	const struct x86_hw *hw = cpu->core->hw;
	bool call_stack = cpu->lbr.select & LBR_SEL_CALL_STACK;
	u64 from, to, info;
	unsigned int i, n = 0;

	/* AMD's stack has no top: its newest record is always entry 0 */
	if (desc->vendor == X86_CORE_AMD) {
		*tos = 0;
		return x86_amd_lbr_read(cpu, entries, max);
	}
	if (x86_hw_rdmsr(hw, MSR_LBR_TOS, tos))
		return 0;
	for (i = 0; i < desc->lbr_nr && n < max; i++) {
		if (x86_hw_rdmsr(hw, lbr_msr(desc, LBR_MSR_FROM, *tos - i), &from) ||
		    x86_hw_rdmsr(hw, lbr_msr(desc, LBR_MSR_TO, *tos - i), &to) ||
		    x86_hw_rdmsr(hw, lbr_msr(desc, LBR_MSR_INFO, *tos - i), &info))
			break;
		/* a cleared record: the bottom of a call stack, or none yet */
		if (!from && !to) {
			if (call_stack)
				break;
			continue;
		}
		lbr_entry(&entries[n++], from, to, info);
	}
	return n;
}

/* take this CPU's records, newest first (in the PMI, the ring frozen) */
static void lbr_read_pmi(struct x86_core_cpu *cpu)
{
	struct perf_branch_stack *st = lbr_stack(cpu->lbr.snapshot);

	BUILD_BUG_ON(sizeof(cpu->lbr.snapshot) !=
		     sizeof(struct perf_branch_stack) +
		     X86_LBR_MAX * sizeof(struct perf_branch_entry));
	st->nr = lbr_read(cpu, st->entries, X86_LBR_MAX, &st->hw_idx);
	cpu->lbr.snapped = true;
}

/**
 * x86_lbr_snapshot - the records as they are now, for BPF
 *	(bpf_get_branch_snapshot())
 * @cpu: this CPU's counters; IRQs off
 * @entries: filled in, newest first
 * @max: room in @entries
 *
 * Recording stops while the records are read, so that reading adds none.
 *
 * Return: how many were filled in; 0 while nothing records.
 */
unsigned int x86_lbr_snapshot(struct x86_core_cpu *cpu,
			      struct perf_branch_entry *entries,
			      unsigned int max)
{
	unsigned int n;
	u64 tos;

	if (!cpu->lbr.running)
		return 0;
	write_debugctl(cpu, false);
	n = lbr_read(cpu, entries, max, &tos);
	write_debugctl(cpu, true);
	return n;
}

/**
 * x86_lbr_sample_records - an event's branch stack from records it was
 *	given: an adaptive PEBS record's LBR group
 * @cpu: this CPU's counters
 * @event: a PEBS event with a branch stack
 * @rec: the records, FROM_IP, TO_IP and LBR_INFO each, newest first
 * @nr: how many
 *
 * Return: the branch stack (this CPU's, until the next sample).
 */
struct perf_branch_stack *x86_lbr_sample_records(struct x86_core_cpu *cpu,
						 struct perf_event *event,
						 const u64 *rec, unsigned int nr)
{
	struct perf_branch_stack *st = lbr_stack(cpu->lbr.snapshot), *out;
	unsigned int i, n = 0;

	for (i = 0; i < nr && i < X86_LBR_MAX; i++, rec += 3)
		if (rec[0] || rec[1])
			lbr_entry(&st->entries[n++], rec[0], rec[1], rec[2]);
	st->nr = n;
	/* the record holds no top of stack */
	st->hw_idx = -1ULL;
	cpu->lbr.snapped = true;
	out = x86_lbr_sample(cpu, event);
	/* the CPU's own records are read afresh for any other sample */
	cpu->lbr.snapped = false;
	return out;
}

/*
 * The PERF_BR_* type of a branch, by the instruction at its source (the
 * SDM's opcode map): copied from the task's memory or the kernel's text,
 * as the PMI may; a source that is no branch instruction is an interrupt
 * or an exception.
 */
static int lbr_branch_type(u64 from, u64 to)
{
	u8 buf[MAX_INSN_SIZE];
	struct insn insn;
	unsigned int len = sizeof(buf);
	u8 op, op2, reg;

	enum insn_mode mode = INSN_MODE_64;

	if (from < TASK_SIZE_MAX) {
		len -= copy_from_user_nmi(buf, (void __user *)from, len);
		/* a 32-bit task's code is 32-bit code (its REX bytes are INC) */
		if (current->mm && !user_64bit_mode(task_pt_regs(current)))
			mode = INSN_MODE_32;
	} else if (copy_from_kernel_nofault(buf, (void *)from, len)) {
		len = 0;
	}
	if (!len || insn_decode(&insn, buf, len, mode))
		return PERF_BR_UNKNOWN;
	op = insn.opcode.bytes[0];
	op2 = insn.opcode.bytes[1];
	reg = X86_MODRM_REG(insn.modrm.value);
	switch (op) {
	case 0x70 ... 0x7f:
	case 0xe0 ... 0xe3:
		return PERF_BR_COND;
	case 0xe8:
	case 0x9a:
		return PERF_BR_CALL;
	case 0xe9:
	case 0xeb:
	case 0xea:
		return PERF_BR_UNCOND;
	case 0xc2:
	case 0xc3:
	case 0xca:
	case 0xcb:
		return PERF_BR_RET;
	case 0xcf:
		return PERF_BR_ERET;
	case 0xcc ... 0xce:
		return PERF_BR_SYSCALL;
	case 0xff:
		if (reg == 2 || reg == 3)
			return PERF_BR_IND_CALL;
		if (reg == 4 || reg == 5)
			return PERF_BR_IND;
		break;
	case 0x0f:
		if (op2 >= 0x80 && op2 <= 0x8f)
			return PERF_BR_COND;
		if (op2 == 0x05 || op2 == 0x34)
			return PERF_BR_SYSCALL;
		if (op2 == 0x07 || op2 == 0x35)
			return PERF_BR_SYSRET;
		break;
	}
	/* no branch there: the CPU was interrupted, or faulted */
	return PERF_BR_IRQ;
}

/*
 * Whether a record's source is in a ring the event asks for, and its TSX
 * flags what a TSX filter wants.  Only a kernel source (the upper half)
 * is checked: a system call from user space stays in a kernel-only
 * stack, as stock's does (the hardware keeps what ends in the kernel).
 */
static bool lbr_source_wanted(u64 type, const struct perf_branch_entry *e)
{
	u64 tx = type & (PERF_SAMPLE_BRANCH_ABORT_TX | PERF_SAMPLE_BRANCH_IN_TX |
			 PERF_SAMPLE_BRANCH_NO_TX);

	if (e->from >= TASK_SIZE_MAX && !(type & PERF_SAMPLE_BRANCH_KERNEL))
		return false;
	if (!tx)
		return true;
	return ((tx & PERF_SAMPLE_BRANCH_ABORT_TX) && e->abort) ||
	       ((tx & PERF_SAMPLE_BRANCH_IN_TX) && e->in_tx) ||
	       ((tx & PERF_SAMPLE_BRANCH_NO_TX) && !e->in_tx);
}

/* the LBR_SELECT bit that drops a branch of a PERF_BR_* type */
static u64 lbr_kind_of(int br)
{
	switch (br) {
	case PERF_BR_COND:
		return LBR_SEL_JCC;
	case PERF_BR_CALL:
		return LBR_SEL_REL_CALL;
	case PERF_BR_IND_CALL:
		return LBR_SEL_IND_CALL;
	case PERF_BR_RET:
		return LBR_SEL_RETURN;
	case PERF_BR_IND:
		return LBR_SEL_IND_JMP;
	case PERF_BR_UNCOND:
		return LBR_SEL_REL_JMP;
	default:
		return LBR_SEL_FAR;
	}
}

/*
 * Whether an event's own LBR_SELECT (@sel) would have recorded a record
 * of type @br: where the CPU's records were taken with a looser filter
 * shared with other events (AMD).
 */
static bool lbr_own_filter(u64 sel, const struct perf_branch_entry *e, int br)
{
	if (e->to >= TASK_SIZE_MAX ? sel & LBR_SEL_RING0 : sel & LBR_SEL_RING3)
		return false;
	return !(sel & lbr_kind_of(br));
}

/**
 * x86_lbr_sample - an event's branch stack for its sample, from the records
 *	as the PMI froze them (read for the first sample of the PMI)
 * @cpu: this CPU's counters
 * @event: a sampling event with a branch stack, whose period ended
 *
 * Return: the branch stack (this CPU's, until the next sample).
 */
struct perf_branch_stack *x86_lbr_sample(struct x86_core_cpu *cpu,
					 struct perf_event *event)
{
	struct perf_branch_stack *in = lbr_stack(cpu->lbr.snapshot);
	struct perf_branch_stack *out = lbr_stack(cpu->lbr.out);
	u64 type = event->attr.branch_sample_type;
	u64 own = event->hw.branch_reg.config;
	u32 keep = event->hw.branch_reg.idx;
	bool want_type = type & PERF_SAMPLE_BRANCH_TYPE_SAVE;
	bool shared = own != cpu->lbr.select;
	struct perf_branch_entry *e;
	unsigned int i, n = 0;
	int br;

	if (!cpu->lbr.snapped)
		lbr_read_pmi(cpu);
	out->hw_idx = in->hw_idx;
	for (i = 0; i < in->nr; i++) {
		e = &out->entries[n];
		*e = in->entries[i];
		if (!lbr_source_wanted(type, e))
			continue;
		if (keep || want_type || shared) {
			br = lbr_branch_type(e->from, e->to);
			if (keep && !(keep & BIT(br)))
				continue;
			if (shared && !lbr_own_filter(own, e, br))
				continue;
			if (want_type)
				e->type = br;
		}
		if (type & PERF_SAMPLE_BRANCH_NO_FLAGS) {
			e->mispred = 0;
			e->predicted = 0;
			e->in_tx = 0;
			e->abort = 0;
		}
		if (type & PERF_SAMPLE_BRANCH_NO_CYCLES)
			e->cycles = 0;
		n++;
	}
	out->nr = n;
	return out;
}
