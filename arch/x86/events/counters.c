// SPDX-License-Identifier: GPL-2.0
/*
 * Counter scheduling of the x86 core PMU: which counters can count an
 * event (its constraint), the assignment of a set of events to free
 * counters, all of them or none, group validation at open, and adding a
 * group to a CPU's counters and removing an event from them.
 *
 * Constraints: every general-purpose counter counts every event the
 * driver maps (the architectural events of Intel, AMD's core events) but
 * where an Intel model's rules (models.c) narrow an event to some of
 * them, as the model's rules say (generated from its event list and
 * from what stock's driver allows, intel_counters.c), and where an AMD Zen
 * large-increment event takes an even counter and the odd one after it
 * (a counter pair, detect.h); an Intel fixed counter counts its
 * own event as well (instructions on 0, and on Ice Lake their precise
 * distribution; core cycles on 1) when no edge, invert, counter mask or
 * pin control is asked for, and its pseudo-encoding names it alone
 * (reference cycles at the TSC rate exist on fixed counter 2 only, topdown
 * slots on 3 only: as stock, raw TOPDOWN.SLOTS_P 0x01a4 stays general).
 *
 * The assignment is a bipartite matching: events are taken from the most
 * constrained to the least (ties in the order given), each takes the
 * first free counter it may use, fixed counters before general-purpose
 * ones and lower indices first, and where none is free an augmenting path
 * moves events placed before it.  The result depends only on the input,
 * and a set that has any assignment gets one.  A pair takes the lowest
 * even counter whose odd neighbour is free too: pairs go first (the most
 * constrained), and every other AMD event may use any counter, so no
 * other choice would fit more.
 *
 * Locking: x86_core_constraint() and x86_core_assign() read only their
 * arguments.  Group validation walks the leader's sibling list from
 * event_init, which the core calls with the leader's ctx->mutex held
 * (perf_event_open(), and the clone of a group member at fork), so no
 * member joins or leaves meanwhile.  x86_core_add_group() and
 * x86_core_del() change a CPU's counters: see cpu_pmu.h.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/perf_event.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>

#include "cpu_pmu.h"

/* the events Intel's fixed counters count, by counter (SDM) */
static const u64 intel_fixed_events[X86_CORE_NR_FIXED] = {
	0x00c0,		/* INST_RETIRED.ANY */
	0x003c,		/* CPU_CLK_UNHALTED.THREAD */
	0,		/* CPU_CLK_UNHALTED.REF_TSC: pseudo-encoding only */
	0,		/* TOPDOWN.SLOTS: pseudo-encoding only */
};

/* the even general-purpose counters, where a counter pair may start */
#define EVEN_COUNTERS		0x55555555ULL

static u64 fixed_bit(const struct x86_core_desc *desc, unsigned int i)
{
	if (i >= X86_CORE_NR_FIXED || !(desc->fixed_mask & BIT(i)))
		return 0;
	return BIT_ULL(X86_CORE_IDX_FIXED + i);
}

/**
 * x86_core_merge_pair - does an event take a counter pair?
 * @desc: the PMU
 * @evsel: the event's control value
 *
 * Return: true for a large-increment event (event select 0x003, both
 * parts of it) on a PMU with counter pairs.
 */
bool x86_core_merge_pair(const struct x86_core_desc *desc, u64 evsel)
{
	return desc->merge_pairs && (evsel & AMD64_EVENTSEL_EVENT) == 0x003;
}

/**
 * x86_core_constraint - the counters that can count an event
 * @desc: the PMU
 * @evsel: the event's control value (hw.config)
 *
 * Return: a mask of counter indices; 0 when none can.
 */
u64 x86_core_constraint(const struct x86_core_desc *desc, u64 evsel)
{
	u64 code = evsel & INTEL_ARCH_EVENT_MASK;
	u64 mask = desc->num_gp ? GENMASK_ULL(desc->num_gp - 1, 0) : 0;
	unsigned int i;

	if (desc->vendor != X86_CORE_INTEL) {
		if (desc->vendor != X86_CORE_AMD)
			return 0;
		/* a pair: an even counter whose odd neighbour exists */
		if (x86_core_merge_pair(desc, evsel))
			return mask & (mask >> 1) & EVEN_COUNTERS;
		return mask;
	}
	/* PEBS's counters, not the event's usual ones (intel_pebs.c) */
	if (evsel & X86_CORE_EVSEL_PEBS)
		return x86_pebs_counters(desc, evsel);
	switch (x86_topdown_code(desc, code)) {
	case X86_TD_FIXED:
		/* event select 0, unit mask i + 1: fixed counter i only */
		return fixed_bit(desc, (code >> 8) - 1);
	case X86_TD_METRIC:
	case X86_TD_INVALID:
		/* a metric rides on its leader's counter (topdown.c) */
		return 0;
	default:
		break;
	}
	mask &= x86_intel_rule_counters(desc, evsel);
	if (evsel & X86_CORE_FIXED_CANNOT)
		return mask;
	for (i = 0; i < X86_CORE_NR_FIXED; i++)
		if (intel_fixed_events[i] && code == intel_fixed_events[i])
			mask |= fixed_bit(desc, i);
	/* where 0x013c counts at the TSC rate, fixed counter 2 counts it */
	if (code == 0x013c && desc->intel_model &&
	    desc->intel_model->ref_cycles_p)
		mask |= fixed_bit(desc, 2);
	if (code == 0x01c0 && desc->intel_model &&
	    desc->intel_model->prec_dist_fixed)
		mask |= fixed_bit(desc, 0);
	return mask;
}

/* the counter @cand prefers: fixed counters first, then the lowest */
static unsigned int preferred(u64 cand)
{
	u64 fixed = cand & GENMASK_ULL(63, X86_CORE_IDX_FIXED);

	return __ffs64(fixed ? fixed : cand);
}

struct matching {
	u64 allowed[X86_CORE_NR_IDX];
	unsigned int owner[X86_CORE_NR_IDX];	/* event on each counter */
	u64 owned;				/* counters with an owner */
	u64 visited;
};

/* Kuhn's augmenting path from event @e; depth at most the counter count */
static bool augment(struct matching *mt, unsigned int e)
{
	u64 cand = mt->allowed[e] & ~mt->visited;
	unsigned int idx;

	while (cand) {
		idx = preferred(cand);
		cand &= ~BIT_ULL(idx);
		mt->visited |= BIT_ULL(idx);
		if (!(mt->owned & BIT_ULL(idx)) ||
		    augment(mt, mt->owner[idx])) {
			mt->owner[idx] = e;
			mt->owned |= BIT_ULL(idx);
			return true;
		}
	}
	return false;
}

/*
 * The assignment of x86_core_assign(), for events whose constraints
 * (@allowed, x86_core_constraint()) the caller has.
 */
static int assign_allowed(const struct x86_core_desc *desc, const u64 *evsel,
			  const u64 *allowed, unsigned int n, u64 busy,
			  int *assign)
{
	/* each written before it is read: not cleared on this hot path */
	unsigned int order[X86_CORE_NR_IDX] __uninitialized;
	struct matching mt __uninitialized;
	unsigned int i, j, e, w;
	u64 taken = busy, free, odd = 0;
	unsigned long owned;
	bool pair;

	if (n > X86_CORE_NR_IDX)
		return -EAGAIN;
	mt.owned = 0;
	for (i = 0; i < n; i++) {
		mt.allowed[i] = allowed[i] & ~busy;
		if (!mt.allowed[i])
			return -EAGAIN;
		/* insertion sort by weight, stable */
		w = hweight64(mt.allowed[i]);
		for (j = i; j > 0 && hweight64(mt.allowed[order[j - 1]]) > w; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (i = 0; i < n; i++) {
		e = order[i];
		pair = x86_core_merge_pair(desc, evsel[e]);
		free = mt.allowed[e] & ~taken;
		if (pair)
			free &= ~(taken >> 1);
		if (free) {
			j = preferred(free);
			mt.owner[j] = e;
			mt.owned |= BIT_ULL(j);
			taken |= BIT_ULL(j);
			if (pair)
				odd |= BIT_ULL(j + 1);
			taken |= odd;
			continue;
		}
		/* AMD: moving events placed before would free no counter */
		if (desc->vendor != X86_CORE_INTEL)
			return -EAGAIN;
		mt.visited = busy;
		if (!augment(&mt, e))
			return -EAGAIN;
		taken |= mt.owned;
	}
	owned = mt.owned;
	for_each_set_bit(i, &owned, X86_CORE_NR_IDX)
		assign[mt.owner[i]] = i;
	return 0;
}

/**
 * x86_core_assign - counters for a set of events, all or none
 * @desc: the PMU
 * @evsel: the events' control values
 * @n: how many
 * @busy: counter indices already taken
 * @assign: the counter index of each event, on success (a pair's even one)
 *
 * Return: 0, or -EAGAIN when the events cannot all be counted at once on
 * the counters that are free (@assign is then left as it was).
 */
int x86_core_assign(const struct x86_core_desc *desc, const u64 *evsel,
		    unsigned int n, u64 busy, int *assign)
{
	u64 allowed[X86_CORE_NR_IDX] __uninitialized;
	unsigned int i;

	if (n > X86_CORE_NR_IDX)
		return -EAGAIN;
	for (i = 0; i < n; i++)
		allowed[i] = x86_core_constraint(desc, evsel[i]);
	return assign_allowed(desc, evsel, allowed, n, busy, assign);
}

/* what group validation has counted so far */
struct group_tally {
	struct x86_extra_reg regs[X86_XREG_NR];
	u64 evsel[X86_CORE_NR_IDX];
	unsigned int n;
	unsigned long metrics;		/* PERF_METRICS fields taken */
	bool lbr;			/* a branch stack event seen */
	u64 lbr_select;			/* ... and its LBR_SELECT */
};

/*
 * A member of the group being validated: its control value is added to
 * the tally if it will want a counter (@wants).  Software events need no
 * counter; another hardware PMU's event can never be scheduled with ours.
 * A metric takes no counter, but a group has one event per metric field,
 * enabled or not (two could never both be placed).
 */
static int group_member(const struct x86_core_pmu *core,
			struct perf_event *member, bool wants,
			struct group_tally *t)
{
	unsigned int field;

	if (member->pmu != core->pmu)
		return member->pmu->task_ctx_nr == perf_sw_context ? 0 : -EINVAL;
	/*
	 * the branch stack events of a group share one LBR_SELECT; on AMD
	 * they may differ (intel_lbr.c lets through what any asks for)
	 */
	if (x86_core_has_lbr(member)) {
		if (t->lbr && t->lbr_select != member->hw.branch_reg.config &&
		    core->desc.vendor != X86_CORE_AMD)
			return -EINVAL;
		t->lbr = true;
		t->lbr_select = member->hw.branch_reg.config;
	}
	if (x86_core_is_vlbr(member))
		return 0;
	if (x86_core_is_metric(member)) {
		field = x86_topdown_field(member);
		if (t->metrics & BIT(field))
			return -EINVAL;
		t->metrics |= BIT(field);
		return 0;
	}
	if (!wants)
		return 0;
	if (t->n >= X86_CORE_NR_IDX)
		return -EINVAL;
	t->evsel[t->n] = member->hw.config;
	/* no more extra register values than registers */
	if (x86_extra_take(&core->desc, t->regs, member, &t->evsel[t->n]) < 0)
		return -EINVAL;
	t->n++;
	return 0;
}

/**
 * x86_core_validate_group - can @event's group ever be on the counters?
 * @core: the PMU
 * @event: the event being opened, its hw.config filled in
 *
 * The leader counts; a member only if it is enabled, as on Linux: members
 * opened disabled may join beyond the counters (the group then fits only
 * as long as they stay off).
 *
 * Return: 0, or -EINVAL: a group that can never be scheduled is invalid,
 * not busy (as one whose branch stack events want different filters).
 */
int x86_core_validate_group(const struct x86_core_pmu *core,
			    struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct group_tally t = { };
	struct perf_event *sibling;
	int assign[X86_CORE_NR_IDX];
	int ret;

	if (leader != event) {
		ret = group_member(core, leader,
				   leader->state >= PERF_EVENT_STATE_OFF, &t);
		if (ret)
			return ret;
		list_for_each_entry(sibling, &leader->sibling_list, sibling_list) {
			if (sibling == event)
				continue;
			ret = group_member(core, sibling,
					   sibling->state > PERF_EVENT_STATE_OFF,
					   &t);
			if (ret)
				return ret;
		}
	}
	ret = group_member(core, event, leader == event || !event->attr.disabled,
			   &t);
	if (ret)
		return ret;
	return x86_core_assign(&core->desc, t.evsel, t.n, 0, assign) ?
	       -EINVAL : 0;
}

/* the odd counter a counter pair on @idx holds as well, or 0 */
static u64 pair_bit(const struct x86_core_desc *desc,
		    const struct perf_event *event, int idx)
{
	return x86_core_merge_pair(desc, event->hw.config) ? BIT_ULL(idx + 1) : 0;
}

/* the counter of an event that counts in guests only (Intel) */
static u64 guest_only_bit(const struct x86_core_desc *desc,
			  const struct perf_event *event, int idx)
{
	return desc->vendor == X86_CORE_INTEL && event->attr.exclude_host ?
	       BIT_ULL(idx) : 0;
}

/* point @event's MSR fields at counter @idx */
static void place(const struct x86_core_desc *desc, struct perf_event *event,
		  unsigned int idx)
{
	struct hw_perf_event *hwc = &event->hw;
	unsigned int i;

	hwc->idx = idx;
	if (idx >= X86_CORE_IDX_FIXED) {
		i = idx - X86_CORE_IDX_FIXED;
		hwc->config_base = MSR_CORE_PERF_FIXED_CTR_CTRL;
		hwc->event_base = MSR_CORE_PERF_FIXED_CTR0 + i;
		hwc->event_base_rdpmc = INTEL_PMC_FIXED_RDPMC_BASE | i;
	} else {
		hwc->config_base = x86_core_evtsel_msr(desc, idx);
		hwc->event_base = x86_core_ctr_msr(desc, idx);
		hwc->event_base_rdpmc = idx;
	}
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

/*
 * Move the placed events of @cpu to the counters of @assign (in the order
 * of @cpu->events, as repack() collected them, with their constraints),
 * each stopped and started again if it was counting, its count kept.
 */
static void move_placed(struct x86_core_cpu *cpu, struct perf_event **placed,
			const u64 *allowed, unsigned int n, const int *assign)
{
	const struct x86_core_desc *desc = &cpu->core->desc;
	bool was_running[X86_CORE_NR_IDX] __uninitialized;
	struct perf_event *event;
	unsigned int i;
	int idx;

	for (i = 0; i < n; i++) {
		event = placed[i];
		idx = event->hw.idx;
		was_running[i] = false;
		if (idx == assign[i])
			continue;
		was_running[i] = !(event->hw.state & PERF_HES_STOPPED);
		x86_core_stop(cpu, event, true);
		cpu->events[idx] = NULL;
		cpu->used &= ~BIT_ULL(idx);
		cpu->guest_only &= ~BIT_ULL(idx);
		cpu->merged &= ~pair_bit(desc, event, idx);
	}
	for (i = 0; i < n; i++) {
		event = placed[i];
		if (event->hw.idx == assign[i])
			continue;
		place(desc, event, assign[i]);
		cpu->events[assign[i]] = event;
		cpu->allowed[assign[i]] = allowed[i];
		cpu->used |= BIT_ULL(assign[i]);
		cpu->guest_only |= guest_only_bit(desc, event, assign[i]);
		cpu->merged |= pair_bit(desc, event, assign[i]);
		if (was_running[i])
			x86_core_start(cpu, event);
		perf_event_update_userpage(event);
	}
}

/*
 * Hall's condition for the counters @want that the new events may use:
 * they and the placed events that may use none but those must not
 * outnumber them.  A quick no, before repack() searches (the usual case
 * of multiplexing: a full PMU and another event of the same kind).
 */
static bool may_fit(const struct x86_core_cpu *cpu, u64 want, unsigned int n)
{
	unsigned long used = cpu->used;
	unsigned int idx;

	for_each_set_bit(idx, &used, X86_CORE_NR_IDX)
		if (!(cpu->allowed[idx] & ~want))
			n++;
	return n <= hweight64(want);
}

/*
 * The new events (@new_evsel, with their constraints @new_allowed) do
 * not fit on the free counters: look for an assignment of every event of
 * @cpu and the new ones together, as if none were placed, and where there
 * is one move the placed events to make room (an event that may use only
 * some counters takes them from one that may use any).  On success
 * @assign has the new events' counters.
 */
static int repack(struct x86_core_cpu *cpu, const u64 *new_evsel,
		  const u64 *new_allowed, unsigned int n, int *assign)
{
	/* each filled before it is read: not cleared at every try */
	struct perf_event *placed[X86_CORE_NR_IDX] __uninitialized;
	u64 evsel[X86_CORE_NR_IDX] __uninitialized;
	u64 allowed[X86_CORE_NR_IDX] __uninitialized;
	int all[X86_CORE_NR_IDX] __uninitialized;
	unsigned long used = cpu->used;
	unsigned int i, nr = 0;
	u64 want = 0;

	for (i = 0; i < n; i++)
		want |= new_allowed[i];
	if (!may_fit(cpu, want, n))
		return -EAGAIN;
	for_each_set_bit(i, &used, X86_CORE_NR_IDX) {
		placed[nr] = cpu->events[i];
		allowed[nr] = cpu->allowed[i];
		evsel[nr++] = cpu->events[i]->hw.config;
	}
	if (nr + n > X86_CORE_NR_IDX)
		return -EAGAIN;
	for (i = 0; i < n; i++) {
		evsel[nr + i] = new_evsel[i];
		allowed[nr + i] = new_allowed[i];
	}
	if (assign_allowed(&cpu->core->desc, evsel, allowed, nr + n, 0, all))
		return -EAGAIN;
	move_placed(cpu, placed, allowed, nr, all);
	for (i = 0; i < n; i++)
		assign[i] = all[nr + i];
	return 0;
}

/*
 * KVM's guest LBR event goes on at the index stock gives it, with no
 * counter (nothing uses the index but the user page's rdpmc index, 0), and
 * lends the guest the LBRs where it asked for a branch stack.
 */
static void place_vlbr(struct x86_core_cpu *cpu, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	hwc->idx = INTEL_PMC_IDX_FIXED_VLBR;
	hwc->config_base = 0;
	hwc->event_base = 0;
	hwc->event_base_rdpmc = -1;
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (x86_core_has_lbr(event))
		x86_lbr_lend(cpu, event);
}

/**
 * x86_core_add_group - put events on a CPU's free counters, all or none
 * @cpu: this CPU's counters
 * @events: the events (hw.config filled in by event_init)
 * @n: how many
 *
 * The events are placed, stopped; x86_core_start() starts each.  Where
 * they do not fit on the free counters but would with the events already
 * placed on other counters, those are moved (keeping their counts).
 *
 * Return: 0, or -EAGAIN when they do not all fit now (nothing changed).
 */
int x86_core_add_group(struct x86_core_cpu *cpu, struct perf_event **events,
		       unsigned int n)
{
	const struct x86_core_desc *desc = &cpu->core->desc;
	/* each filled before it is read: not cleared at every add */
	struct perf_event *metrics[INTEL_TD_METRIC_NUM] __uninitialized;
	struct perf_event *ctr[X86_CORE_NR_IDX] __uninitialized;
	unsigned int i, j, k, nr = 0, nr_metrics = 0;
	u64 evsel[X86_CORE_NR_IDX] __uninitialized;
	u64 allowed[X86_CORE_NR_IDX] __uninitialized;
	int assign[X86_CORE_NR_IDX] __uninitialized;
	int reg[X86_CORE_NR_IDX] __uninitialized;
	struct perf_event *vlbr = NULL;
	int ret = 0;

	/*
	 * metrics take no counter: set apart, placed after their leader;
	 * so is KVM's guest LBR event, which takes only the LBRs
	 */
	for (i = 0; i < n; i++) {
		if (x86_core_is_vlbr(events[i])) {
			if (vlbr)
				return -EAGAIN;
			vlbr = events[i];
			continue;
		}
		if (!x86_core_is_metric(events[i])) {
			if (nr == ARRAY_SIZE(ctr))
				return -EAGAIN;
			ctr[nr++] = events[i];
			continue;
		}
		if (nr_metrics == ARRAY_SIZE(metrics) ||
		    x86_topdown_place(cpu, events[i], true))
			return -EAGAIN;
		/* one event per metric, whatever its exclusion bits */
		for (j = 0; j < nr_metrics; j++)
			if (!((metrics[j]->hw.config ^ events[i]->hw.config) &
			      INTEL_ARCH_EVENT_MASK))
				return -EAGAIN;
		metrics[nr_metrics++] = events[i];
	}
	events = ctr;
	n = nr;
	if (vlbr && x86_core_has_lbr(vlbr) && x86_lbr_take(cpu, vlbr))
		return -EAGAIN;
	/* extra registers first: they may change which event is programmed */
	for (i = 0; i < n; i++) {
		evsel[i] = events[i]->hw.config;
		reg[i] = x86_extra_take(desc, cpu->extra, events[i], &evsel[i]);
		if (reg[i] < 0) {
			ret = -EAGAIN;
			break;
		}
	}
	/* the last branch records, whose filter the CPU's events share */
	for (j = 0; !ret && j < n; j++)
		if (x86_core_has_lbr(events[j]) &&
		    x86_lbr_take(cpu, events[j])) {
			ret = -EAGAIN;
			break;
		}
	if (!ret) {
		for (k = 0; k < n; k++)
			allowed[k] = x86_core_constraint(desc, evsel[k]);
		ret = assign_allowed(desc, evsel, allowed, n,
				     cpu->used | cpu->merged, assign);
	}
	if (ret == -EAGAIN && cpu->used && i == n && j == n)
		ret = repack(cpu, evsel, allowed, n, assign);
	if (ret) {
		while (j--)
			if (x86_core_has_lbr(events[j]))
				x86_lbr_untake(cpu, events[j]);
		while (i--)
			x86_extra_untake(cpu->extra, events[i], reg[i]);
		if (vlbr && x86_core_has_lbr(vlbr))
			x86_lbr_untake(cpu, vlbr);
		return ret;
	}
	for (i = 0; i < n; i++) {
		events[i]->hw.config = evsel[i];
		x86_extra_placed(events[i], reg[i]);
		place(desc, events[i], assign[i]);
		cpu->events[assign[i]] = events[i];
		cpu->allowed[assign[i]] = allowed[i];
		cpu->used |= BIT_ULL(assign[i]);
		cpu->guest_only |= guest_only_bit(desc, events[i], assign[i]);
		cpu->merged |= pair_bit(desc, events[i], assign[i]);
		if (x86_core_has_lbr(events[i]))
			x86_lbr_placed(cpu, events[i]);
	}
	for (i = 0; i < nr_metrics; i++)
		x86_topdown_place(cpu, metrics[i], false);
	if (vlbr)
		place_vlbr(cpu, vlbr);
	return 0;
}

/**
 * x86_core_del - take an event off its counter, folding in its last count
 * @cpu: this CPU's counters
 * @event: an event placed by x86_core_add_group()
 */
void x86_core_del(struct x86_core_cpu *cpu, struct perf_event *event)
{
	int idx = event->hw.idx;

	if (x86_core_is_metric(event)) {
		x86_topdown_del(cpu, event);
		return;
	}
	if (x86_core_is_vlbr(event)) {
		if (x86_core_has_lbr(event))
			x86_lbr_release(cpu, event);
		event->hw.idx = -1;
		perf_event_update_userpage(event);
		return;
	}
	x86_core_stop(cpu, event, true);
	x86_extra_release(cpu->extra, event);
	if (x86_core_has_lbr(event))
		x86_lbr_release(cpu, event);
	cpu->events[idx] = NULL;
	cpu->used &= ~BIT_ULL(idx);
	cpu->guest_only &= ~BIT_ULL(idx);
	cpu->merged &= ~pair_bit(&cpu->core->desc, event, idx);
	event->hw.idx = -1;
	perf_event_update_userpage(event);
}
