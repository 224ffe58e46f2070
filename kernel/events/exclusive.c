// SPDX-License-Identifier: GPL-2.0
/*
 * PMUs with PERF_PMU_CAP_EXCLUSIVE: hardware that can take one event at a
 * time (a trace unit, a single counter).  Such a PMU serves either CPU
 * events or task events, never both at once: pmu->exclusive_cnt counts
 * the task events up from zero and the CPU events down from zero, and an
 * event of the other kind fails with -EBUSY while the count is not zero.
 * Within one context, a second event on the PMU that could run on the same
 * CPU as one already there fails with -EBUSY too; events of different
 * tasks, or of CPU contexts of different CPUs, never meet on the PMU.
 *
 * Locking: exclusive_cnt is atomic; the context check runs under the
 * ctx->mutex that the install which follows it holds, so that two opens
 * cannot both pass it.
 */
#include "internal.h"

/*
 * Count @event (its PMU found, not in a context yet) on its exclusive PMU.
 * Returns 0, or -EBUSY while events of the other kind hold the PMU.
 */
int perf_exclusive_get(struct perf_event *event)
{
	struct pmu *pmu = event->pmu;
	bool ok;

	if (!is_exclusive_pmu(pmu))
		return 0;
	if (event->attach_state & PERF_ATTACH_TASK)
		ok = atomic_inc_unless_negative(&pmu->exclusive_cnt);
	else
		ok = atomic_dec_unless_positive(&pmu->exclusive_cnt);
	if (!ok)
		return -EBUSY;
	event->attach_state |= PERF_ATTACH_EXCLUSIVE;
	return 0;
}

/* Undo perf_exclusive_get() as the event is freed. */
void perf_exclusive_put(struct perf_event *event)
{
	struct pmu *pmu = event->pmu;

	if (!(event->attach_state & PERF_ATTACH_EXCLUSIVE))
		return;
	if (event->attach_state & PERF_ATTACH_TASK)
		atomic_dec(&pmu->exclusive_cnt);
	else
		atomic_inc(&pmu->exclusive_cnt);
	event->attach_state &= ~PERF_ATTACH_EXCLUSIVE;
}

/* Could @a and @b be on their PMU on the same CPU at the same time? */
static bool exclusive_meet(struct perf_event *a, struct perf_event *b)
{
	return a->cpu == -1 || b->cpu == -1 || a->cpu == b->cpu;
}

/*
 * May @event join @ctx?  -EBUSY where an event of the same exclusive PMU
 * already there could meet it on a CPU.  ctx->mutex held, up to the
 * install.
 */
int perf_exclusive_check(struct perf_event *event,
			 struct perf_event_context *ctx)
{
	struct perf_event *other;

	lockdep_assert_held(&ctx->mutex);
	if (!is_exclusive_pmu(event->pmu))
		return 0;
	list_for_each_entry(other, &ctx->event_list, event_entry) {
		if (other != event && other->pmu == event->pmu &&
		    exclusive_meet(event, other))
			return -EBUSY;
	}
	return 0;
}
