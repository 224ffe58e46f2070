// SPDX-License-Identifier: GPL-2.0
/*
 * Counter allocation: which counter an event needs (the cycle counter, any
 * event counter, or an even/odd pair chained into one 64-bit counter),
 * picking one from a CPU's free counters, and checking at open time that a
 * group can ever fit on the PMU.  The allocation functions only touch the
 * bitmap they are given: the caller owns it (this CPU's, with IRQs off,
 * or a private copy for group validation).
 */
#include <linux/bitmap.h>
#include <linux/errno.h>

#include "pmuv3.h"

/*
 * What @event needs: CPU_CYCLES without a threshold condition may use the
 * cycle counter, which is 64 bits wide; a 64-bit ("long") count on a PMU
 * whose event counters are 32 bits wide needs a chained pair.
 */
void pmuv3_counter_req(struct pmuv3 *pmuv3, struct perf_event *event,
		       struct pmuv3_counter_req *req)
{
	struct hw_perf_event *hwc = &event->hw;

	req->evnum = hwc->config;
	req->may_use_cycles = hwc->config == PMUV3_EV_CPU_CYCLES &&
			      !(hwc->config_base & (PMUV3_EVTYPE_TH |
						    PMUV3_EVTYPE_TC));
	req->chained = (hwc->flags & PMUV3_F_LONG) && !pmuv3->has_64bit;
	req->keep_pairs = !pmuv3->has_64bit;
}

static int pick_free(unsigned long *used, int first, int step,
		     int nr_counters)
{
	int idx;

	for (idx = first; idx < nr_counters; idx += step) {
		if (!test_bit(idx, used)) {
			__set_bit(idx, used);
			return idx;
		}
	}
	return -EAGAIN;
}

/*
 * Take a counter for @req from @used: the cycle counter where it will do;
 * else for a chained event the lowest free even/odd pair (the returned
 * index is the even, low half); else the lowest free event counter, odd
 * ones first where chained events may need the pairs.  Returns the index,
 * or -EAGAIN when nothing suitable is free.
 */
int pmuv3_pick_counter(const struct pmuv3_counter_req *req,
		       unsigned long *used, int nr_counters)
{
	int idx;

	if (req->may_use_cycles && !test_bit(PMUV3_IDX_CYCLES, used)) {
		__set_bit(PMUV3_IDX_CYCLES, used);
		return PMUV3_IDX_CYCLES;
	}
	if (req->chained) {
		for (idx = 0; idx + 1 < nr_counters; idx += 2) {
			if (!test_bit(idx, used) && !test_bit(idx + 1, used)) {
				__set_bit(idx, used);
				__set_bit(idx + 1, used);
				return idx;
			}
		}
		return -EAGAIN;
	}
	if (!req->keep_pairs)
		return pick_free(used, 0, 1, nr_counters);
	idx = pick_free(used, 1, 2, nr_counters);
	if (idx < 0)
		idx = pick_free(used, 0, 2, nr_counters);
	return idx;
}

/* Give back what pmuv3_pick_counter() returned for @req. */
void pmuv3_release_counter(const struct pmuv3_counter_req *req, int idx,
			   unsigned long *used)
{
	__clear_bit(idx, used);
	if (req->chained && idx != PMUV3_IDX_CYCLES)
		__clear_bit(idx + 1, used);
}

/*
 * A member of @event's group: its counter is taken from @used.  Software
 * events never need one; an event of another hardware PMU cannot be
 * scheduled with ours at all.
 */
static int group_take(struct pmuv3 *pmuv3, struct perf_event *member,
		      unsigned long *used)
{
	struct pmuv3_counter_req req;

	if (member->pmu != &pmuv3->arm.pmu)
		return member->pmu->task_ctx_nr == perf_sw_context ? 0 : -EINVAL;
	if (member->state < PERF_EVENT_STATE_OFF)
		return 0;
	pmuv3_counter_req(pmuv3, member, &req);
	return pmuv3_pick_counter(&req, used, pmuv3->nr_counters) < 0 ?
	       -EINVAL : 0;
}

/*
 * At open: can @event's group, with @event in it, ever be on this PMU at
 * once?  Returns 0 or -EINVAL, as a group that can never be scheduled is
 * invalid rather than busy.  The core calls ->event_init() of a group
 * member with the leader's ctx->mutex held (perf_event_open() and the
 * clone of a group at fork alike), so the sibling list cannot change
 * while it is walked.
 */
int pmuv3_validate_group(struct pmuv3 *pmuv3, struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event *sibling;
	DECLARE_BITMAP(used, PMUV3_NR_IDX) = { 0 };
	int ret;

	if (leader != event) {
		ret = group_take(pmuv3, leader, used);
		if (ret)
			return ret;
		list_for_each_entry(sibling, &leader->sibling_list,
				    sibling_list) {
			ret = group_take(pmuv3, sibling, used);
			if (ret)
				return ret;
		}
	}
	return group_take(pmuv3, event, used);
}
