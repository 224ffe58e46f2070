// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 "msr" PMU: counters that the CPU keeps running by itself, read
 * as counting events.  There is nothing to program and no interrupt: an
 * event remembers the counter when it goes on the CPU and adds the
 * difference when it is read or goes off, so a task event counts only
 * while its task runs.  No sampling and no exclusion (the counters tick
 * whatever the CPU runs), both -EINVAL.
 *
 * The counters, by attr.config (the numbers are the ABI's): 0 "tsc", the
 * time stamp counter; 1 "aperf" and 2 "mperf", the actual and maximum
 * performance clocks of CPUID.06H:ECX[0]; 3 "pperf", the productive
 * cycles, and 4 "smi", the SMIs taken (MSR_SMI_COUNT, 32 bits), on the
 * Intel models of their table; 5 "ptsc", AMD's
 * performance time stamp counter; 6 "irperf", AMD's instructions retired
 * counter; 7 "cpu_thermal_margin", not a counter but a reading: the
 * digital thermal sensor's margin below TjMax in degrees Celsius
 * (IA32_THERM_STATUS bits 22:16, CPUID.06H:EAX[0]), a snapshot event
 * whose count is the last reading.  Each one only where CPUID or the
 * model table says the CPU has it and its MSR can be read; the others
 * are -EINVAL.
 *
 * Counting: free_running.h, as for the C-state PMUs; the thermal margin
 * starts as they do (its first reading unused) and is read, not
 * accumulated, when the event is read or goes off.
 * Locking: none (free_running.h); the table and msr_present are
 * constant after init.
 */
#include <linux/cpufeature.h>
#include <linux/init.h>
#include <linux/nospec.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>
#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>
#include <asm/msr.h>

#include "free_running.h"

/* attr.config of each counter */
enum msr_counter_id {
	MSR_CTR_TSC,
	MSR_CTR_APERF,
	MSR_CTR_MPERF,
	MSR_CTR_PPERF,
	MSR_CTR_SMI,
	MSR_CTR_PTSC,
	MSR_CTR_IRPERF,
	MSR_CTR_THERM,
	MSR_CTR_NR,
};

struct msr_counter {
	u32 msr;			/* 0: the TSC, read by RDTSC */
	u64 mask;			/* the counter's width */
	bool (*present)(void);
};

/*
 * Intel models with MSR_SMI_COUNT, and (driver_data 1) those with MSR_PPERF
 * too: stock's lists, read off its driver (make x86-model-tables).
 */
static const struct x86_cpu_id msr_smi_models[] = {
	X86_MATCH_VFM(INTEL_NEHALEM,		NULL),
	X86_MATCH_VFM(INTEL_NEHALEM_G,		NULL),
	X86_MATCH_VFM(INTEL_NEHALEM_EP,		NULL),
	X86_MATCH_VFM(INTEL_NEHALEM_EX,		NULL),
	X86_MATCH_VFM(INTEL_WESTMERE,		NULL),
	X86_MATCH_VFM(INTEL_WESTMERE_EP,	NULL),
	X86_MATCH_VFM(INTEL_WESTMERE_EX,	NULL),
	X86_MATCH_VFM(INTEL_SANDYBRIDGE,	NULL),
	X86_MATCH_VFM(INTEL_SANDYBRIDGE_X,	NULL),
	X86_MATCH_VFM(INTEL_IVYBRIDGE,		NULL),
	X86_MATCH_VFM(INTEL_IVYBRIDGE_X,	NULL),
	X86_MATCH_VFM(INTEL_HASWELL,		NULL),
	X86_MATCH_VFM(INTEL_HASWELL_L,		NULL),
	X86_MATCH_VFM(INTEL_HASWELL_G,		NULL),
	X86_MATCH_VFM(INTEL_HASWELL_X,		NULL),
	X86_MATCH_VFM(INTEL_BROADWELL,		NULL),
	X86_MATCH_VFM(INTEL_BROADWELL_G,	NULL),
	X86_MATCH_VFM(INTEL_BROADWELL_D,	NULL),
	X86_MATCH_VFM(INTEL_BROADWELL_X,	NULL),
	X86_MATCH_VFM(INTEL_ATOM_SILVERMONT,	NULL),
	X86_MATCH_VFM(INTEL_ATOM_SILVERMONT_D,	NULL),
	X86_MATCH_VFM(INTEL_ATOM_AIRMONT,	NULL),
	X86_MATCH_VFM(INTEL_ATOM_AIRMONT_NP,	NULL),
	X86_MATCH_VFM(INTEL_ATOM_GOLDMONT,	NULL),
	X86_MATCH_VFM(INTEL_ATOM_GOLDMONT_D,	NULL),
	X86_MATCH_VFM(INTEL_ATOM_GOLDMONT_PLUS,	NULL),
	X86_MATCH_VFM(INTEL_ATOM_TREMONT_D,	NULL),
	X86_MATCH_VFM(INTEL_ATOM_TREMONT,	NULL),
	X86_MATCH_VFM(INTEL_ATOM_TREMONT_L,	NULL),
	X86_MATCH_VFM(INTEL_XEON_PHI_KNL,	NULL),
	X86_MATCH_VFM(INTEL_XEON_PHI_KNM,	NULL),
	X86_MATCH_VFM(INTEL_SAPPHIRERAPIDS_X,	NULL),
	X86_MATCH_VFM(INTEL_EMERALDRAPIDS_X,	NULL),
	X86_MATCH_VFM(INTEL_GRANITERAPIDS_D,	NULL),
	X86_MATCH_VFM(INTEL_GRANITERAPIDS_X,	NULL),
	X86_MATCH_VFM(INTEL_SKYLAKE_L,		(void *)1),
	X86_MATCH_VFM(INTEL_SKYLAKE,		(void *)1),
	X86_MATCH_VFM(INTEL_SKYLAKE_X,		(void *)1),
	X86_MATCH_VFM(INTEL_KABYLAKE_L,		(void *)1),
	X86_MATCH_VFM(INTEL_KABYLAKE,		(void *)1),
	X86_MATCH_VFM(INTEL_COMETLAKE_L,	(void *)1),
	X86_MATCH_VFM(INTEL_COMETLAKE,		(void *)1),
	X86_MATCH_VFM(INTEL_ICELAKE_L,		(void *)1),
	X86_MATCH_VFM(INTEL_ICELAKE,		(void *)1),
	X86_MATCH_VFM(INTEL_ICELAKE_D,		(void *)1),
	X86_MATCH_VFM(INTEL_ICELAKE_X,		(void *)1),
	X86_MATCH_VFM(INTEL_TIGERLAKE_L,	(void *)1),
	X86_MATCH_VFM(INTEL_TIGERLAKE,		(void *)1),
	X86_MATCH_VFM(INTEL_ROCKETLAKE,		(void *)1),
	X86_MATCH_VFM(INTEL_ALDERLAKE,		(void *)1),
	X86_MATCH_VFM(INTEL_ALDERLAKE_L,	(void *)1),
	X86_MATCH_VFM(INTEL_ATOM_GRACEMONT,	(void *)1),
	X86_MATCH_VFM(INTEL_RAPTORLAKE,		(void *)1),
	X86_MATCH_VFM(INTEL_RAPTORLAKE_P,	(void *)1),
	X86_MATCH_VFM(INTEL_RAPTORLAKE_S,	(void *)1),
	X86_MATCH_VFM(INTEL_METEORLAKE,		(void *)1),
	X86_MATCH_VFM(INTEL_METEORLAKE_L,	(void *)1),
	{}
};

static bool tsc_present(void)
{
	return boot_cpu_has(X86_FEATURE_TSC);
}

static bool aperfmperf_present(void)
{
	return boot_cpu_has(X86_FEATURE_APERFMPERF);
}

static bool smi_present(void)
{
	return x86_match_cpu(msr_smi_models);
}

static bool pperf_present(void)
{
	const struct x86_cpu_id *id = x86_match_cpu(msr_smi_models);

	return id && id->driver_data;
}

static bool ptsc_present(void)
{
	return boot_cpu_has(X86_FEATURE_PTSC);
}

static bool irperf_present(void)
{
	return boot_cpu_has(X86_FEATURE_IRPERF);
}

static bool therm_present(void)
{
	return boot_cpu_has(X86_FEATURE_DTHERM);
}

/* indexed by attr.config */
static const struct msr_counter msr_counters[MSR_CTR_NR] = {
	[MSR_CTR_TSC]		= { 0, U64_MAX, tsc_present },
	[MSR_CTR_APERF]	= { MSR_IA32_APERF, U64_MAX, aperfmperf_present },
	[MSR_CTR_MPERF]	= { MSR_IA32_MPERF, U64_MAX, aperfmperf_present },
	[MSR_CTR_PPERF]	= { MSR_PPERF, U64_MAX, pperf_present },
	[MSR_CTR_SMI]		= { MSR_SMI_COUNT, U32_MAX, smi_present },
	[MSR_CTR_PTSC]		= { MSR_F15H_PTSC, U64_MAX, ptsc_present },
	[MSR_CTR_IRPERF]	= { MSR_F17H_IRPERF, U64_MAX, irperf_present },
	[MSR_CTR_THERM]	= { MSR_IA32_THERM_STATUS, 0, therm_present },
};

/* IA32_THERM_STATUS: the readout is good when bit 31 is set */
#define THERM_READING_VALID	BIT_ULL(31)
#define THERM_READOUT(v)	(((v) >> 16) & 0x7f)

/* which counters this machine has: found once, at init */
static unsigned long msr_present;

static const struct msr_counter *msr_counter_of(u64 config)
{
	if (config >= MSR_CTR_NR)
		return NULL;
	/* a user's config: the table and the bitmap indexed by it */
	config = array_index_nospec(config, MSR_CTR_NR);
	if (!(msr_present & BIT(config)))
		return NULL;
	return &msr_counters[config];
}

/*
 * The thermal margin's snapshot: the count is the reading itself; one
 * that is not valid (the sensor not ready) leaves the last one.
 */
static void msr_therm_snapshot(struct perf_event *event)
{
	u64 v;

	rdmsrl(MSR_IA32_THERM_STATUS, v);
	if (v & THERM_READING_VALID)
		local64_set(&event->count, THERM_READOUT(v));
}

static bool msr_is_therm(struct perf_event *event)
{
	return event->hw.config == MSR_CTR_THERM;
}

static void msr_stop(struct perf_event *event, int flags)
{
	if (!msr_is_therm(event)) {
		free_running_stop(event, flags);
		return;
	}
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	msr_therm_snapshot(event);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static void msr_del(struct perf_event *event, int flags)
{
	msr_stop(event, PERF_EF_UPDATE);
}

static void msr_read(struct perf_event *event)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	if (msr_is_therm(event))
		msr_therm_snapshot(event);
	else
		free_running_update(event);
}

static int msr_event_init(struct perf_event *event)
{
	const struct msr_counter *c;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (is_sampling_event(event) || event_has_any_exclude_flag(event))
		return -EINVAL;
	c = msr_counter_of(event->attr.config);
	if (!c)
		return -EINVAL;
	event->hw.config = event->attr.config;
	event->hw.event_base = c->msr;
	event->hw.config_base = c->mask;
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

PMU_EVENT_ATTR(tsc, msr_tsc_attr, MSR_CTR_TSC, msr_event_show);
PMU_EVENT_ATTR(aperf, msr_aperf_attr, MSR_CTR_APERF, msr_event_show);
PMU_EVENT_ATTR(mperf, msr_mperf_attr, MSR_CTR_MPERF, msr_event_show);
PMU_EVENT_ATTR(pperf, msr_pperf_attr, MSR_CTR_PPERF, msr_event_show);
PMU_EVENT_ATTR(smi, msr_smi_attr, MSR_CTR_SMI, msr_event_show);
PMU_EVENT_ATTR(ptsc, msr_ptsc_attr, MSR_CTR_PTSC, msr_event_show);
PMU_EVENT_ATTR(irperf, msr_irperf_attr, MSR_CTR_IRPERF, msr_event_show);
PMU_EVENT_ATTR(cpu_thermal_margin, msr_therm_attr, MSR_CTR_THERM,
	       msr_event_show);

/* the reading's attributes, shown where the reading is (id) */
#define MSR_THERM_ATTR(_var, _name, _str)				\
static struct perf_pmu_events_attr _var = {				\
	.attr		= __ATTR(_name, 0444, perf_event_sysfs_show, NULL), \
	.id		= MSR_CTR_THERM,				\
	.event_str	= _str,						\
}
MSR_THERM_ATTR(msr_therm_snapshot_attr, cpu_thermal_margin.snapshot, "1");
MSR_THERM_ATTR(msr_therm_unit_attr, cpu_thermal_margin.unit, "C");

static struct attribute *msr_event_attrs[] = {
	&msr_tsc_attr.attr.attr,
	&msr_aperf_attr.attr.attr,
	&msr_mperf_attr.attr.attr,
	&msr_pperf_attr.attr.attr,
	&msr_smi_attr.attr.attr,
	&msr_ptsc_attr.attr.attr,
	&msr_irperf_attr.attr.attr,
	&msr_therm_attr.attr.attr,
	&msr_therm_snapshot_attr.attr.attr,
	&msr_therm_unit_attr.attr.attr,
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
	.add		= free_running_add,
	.del		= msr_del,
	.start		= free_running_start,
	.stop		= msr_stop,
	.read		= msr_read,
};

static int __init msr_pmu_init(void)
{
	unsigned int i;
	u64 v;

	for (i = 0; i < MSR_CTR_NR; i++) {
		const struct msr_counter *c = &msr_counters[i];

		if (c->present() && (!c->msr || !rdmsrl_safe(c->msr, &v)))
			msr_present |= BIT(i);
	}
	if (!msr_present)
		return 0;
	return perf_pmu_register(&msr_pmu, "msr", -1);
}
device_initcall(msr_pmu_init);
