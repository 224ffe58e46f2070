/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PMU callbacks of counters that the CPU keeps running by itself (the
 * msr PMU, the C-state residency PMUs): nothing to program and no
 * interrupt.  An event remembers the counter when it goes on its CPU and
 * adds the difference when it is read or goes off.  event_init of each
 * driver sets hw.event_base to the counter's MSR (0: the time stamp
 * counter, read by RDTSC) and hw.config_base to its width's mask.
 *
 * Locking: none.  The core reads an event only on the CPU where it is
 * active, with IRQs off or from an IRQ that may nest in such a read:
 * hw.prev_count moves by cmpxchg, so each tick is added once.
 */
#ifndef _X86_EVENTS_FREE_RUNNING_H
#define _X86_EVENTS_FREE_RUNNING_H

#include <linux/perf_event.h>
#include <asm/msr.h>

static inline u64 free_running_now(struct perf_event *event)
{
	u64 v;

	if (!event->hw.event_base)
		return rdtsc_ordered();
	rdmsrl(event->hw.event_base, v);
	return v;
}

/* Fold what the counter moved since the last look into the count. */
static inline void free_running_update(struct perf_event *event)
{
	u64 prev, now;

	do {
		prev = local64_read(&event->hw.prev_count);
		now = free_running_now(event);
	} while (local64_cmpxchg(&event->hw.prev_count, prev, now) != prev);
	local64_add((now - prev) & event->hw.config_base, &event->count);
}

static inline void free_running_start(struct perf_event *event, int flags)
{
	local64_set(&event->hw.prev_count, free_running_now(event));
	event->hw.state = 0;
}

static inline void free_running_stop(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	free_running_update(event);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static inline int free_running_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		free_running_start(event, flags);
	return 0;
}

static inline void free_running_del(struct perf_event *event, int flags)
{
	free_running_stop(event, PERF_EF_UPDATE);
}

static inline void free_running_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		free_running_update(event);
}

#endif /* _X86_EVENTS_FREE_RUNNING_H */
