// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 "msr" PMU: counters that the CPU keeps running by itself, read
 * as counting events.  There is nothing to program and no interrupt: an
 * event remembers the counter when it goes on the CPU and adds the
 * difference when it is read or goes off, so a task event counts only
 * while its task runs.  No sampling and no exclusion (the counters tick
 * whatever the CPU runs), both -EINVAL.
 *
 * Built: the time stamp counter, event 0x00 "tsc", the one such counter
 * QEMU's TCG offers.  Not built: the other free-running counters of real
 * CPUs (APERF, MPERF and the vendor ones); their numbers are refused with
 * -EINVAL as are those of counters a CPU lacks.
 *
 * Locking: none.  The core reads an event only on the CPU where it is
 * active, with IRQs off or from an IRQ that may nest in such a read:
 * hw.prev_count moves by cmpxchg, so each tick is added once.
 */
#include <linux/cpufeature.h>
#include <linux/init.h>
#include <linux/nospec.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>
#include <asm/msr.h>

struct msr_counter {
	const char *name;
	bool (*present)(void);
	u64 (*now)(void);
};

static bool tsc_present(void)
{
	return boot_cpu_has(X86_FEATURE_TSC);
}

static u64 tsc_now(void)
{
	return rdtsc_ordered();
}

/* indexed by attr.config */
static const struct msr_counter msr_counters[] = {
	[0] = { .name = "tsc", .present = tsc_present, .now = tsc_now },
};

static const struct msr_counter *msr_counter_of(u64 config)
{
	if (config >= ARRAY_SIZE(msr_counters))
		return NULL;
	/* a user's config, then an indirect call through the entry */
	config = array_index_nospec(config, ARRAY_SIZE(msr_counters));
	if (!msr_counters[config].now || !msr_counters[config].present())
		return NULL;
	return &msr_counters[config];
}

/* Fold what the counter moved since the last look into the count. */
static void msr_update(struct perf_event *event)
{
	const struct msr_counter *c = &msr_counters[event->hw.config];
	u64 prev, now;

	do {
		prev = local64_read(&event->hw.prev_count);
		now = c->now();
	} while (local64_cmpxchg(&event->hw.prev_count, prev, now) != prev);
	local64_add(now - prev, &event->count);
}

static void msr_start(struct perf_event *event, int flags)
{
	local64_set(&event->hw.prev_count,
		    msr_counters[event->hw.config].now());
	event->hw.state = 0;
}

static void msr_stop(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	msr_update(event);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int msr_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		msr_start(event, flags);
	return 0;
}

static void msr_del(struct perf_event *event, int flags)
{
	msr_stop(event, PERF_EF_UPDATE);
}

static void msr_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		msr_update(event);
}

static int msr_event_init(struct perf_event *event)
{
	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (is_sampling_event(event) || event_has_any_exclude_flag(event))
		return -EINVAL;
	if (!msr_counter_of(event->attr.config))
		return -EINVAL;
	event->hw.config = event->attr.config;
	event->hw.idx = -1;
	return 0;
}

/* sysfs: events/<name> for the counters this CPU has, format/event */

static ssize_t msr_event_show(struct device *dev,
			      struct device_attribute *attr, char *page)
{
	struct perf_pmu_events_attr *ev =
		container_of(attr, struct perf_pmu_events_attr, attr);

	return sysfs_emit(page, "event=0x%02llx\n", ev->id);
}

PMU_EVENT_ATTR(tsc, msr_tsc_attr, 0, msr_event_show);

static struct attribute *msr_event_attrs[] = {
	&msr_tsc_attr.attr.attr,
	NULL,
};

static umode_t msr_event_visible(struct kobject *kobj, struct attribute *a,
				 int n)
{
	struct perf_pmu_events_attr *ev =
		container_of(a, struct perf_pmu_events_attr, attr.attr);

	return msr_counter_of(ev->id) ? a->mode : 0;
}

static const struct attribute_group msr_events_group = {
	.name		= "events",
	.attrs		= msr_event_attrs,
	.is_visible	= msr_event_visible,
};

PMU_FORMAT_ATTR(event, "config:0-63");

static struct attribute *msr_format_attrs[] = {
	&format_attr_event.attr,
	NULL,
};

static const struct attribute_group msr_format_group = {
	.name		= "format",
	.attrs		= msr_format_attrs,
};

static const struct attribute_group *msr_attr_groups[] = {
	&msr_events_group,
	&msr_format_group,
	NULL,
};

static struct pmu msr_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.attr_groups	= msr_attr_groups,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT | PERF_PMU_CAP_NO_EXCLUDE,
	.event_init	= msr_event_init,
	.add		= msr_add,
	.del		= msr_del,
	.start		= msr_start,
	.stop		= msr_stop,
	.read		= msr_read,
};

static int __init msr_pmu_init(void)
{
	u64 config;

	for (config = 0; config < ARRAY_SIZE(msr_counters); config++)
		if (msr_counter_of(config))
			return perf_pmu_register(&msr_pmu, "msr", -1);
	return 0;
}
device_initcall(msr_pmu_init);
