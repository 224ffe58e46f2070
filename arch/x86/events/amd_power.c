// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "power" PMU of AMD family 15h processors with the accumulated power
 * interface (CPUID 0x80000007 EDX[12], X86_FEATURE_ACC_POWER): one event,
 * power-pkg (config 1), the average power of the compute unit of the CPU
 * it counts on, in microwatts (shown in milliwatts: .scale 1e-3, .unit
 * mWatts).
 *
 * The hardware: each compute unit adds its power in milliwatts to its
 * power accumulator (MSR_F15H_CU_PWR_ACCUMULATOR) once a sample period,
 * which is CpuPwrSampleTimeRatio (CPUID 0x80000007 ECX) periods of the
 * performance time stamp counter (MSR_F15H_PTSC); the accumulator wraps
 * at MSR_F15H_CU_MAX_PWR_ACCUMULATOR.  The average power between two
 * looks is then
 *
 *	uW = (accumulated delta) * ratio * 1000 / (PTSC delta)
 *
 * and, as on stock, every look at an active event (a read, or the event
 * going off its CPU) adds the average since the previous look to the
 * count: one read after a run gives the run's average power.
 *
 * Counting only, and CPU events only: sampling and exclude bits are
 * -EINVAL, as are per-task events (no task context).  The "cpumask" file
 * lists the CPUs that came online with no other online thread in their
 * compute unit, as stock's does (none where every unit has two threads
 * online); an event may be opened on any online CPU.  When a listed CPU
 * goes offline, another online thread of its unit takes its place and its
 * events.
 *
 * Locking: an event's looks run on its CPU with interrupts off (the core
 * calls the PMU so); the cpumask is written by the CPU hotplug callbacks,
 * which the hotplug lock serializes.
 */
#include <linux/cpu.h>
#include <linux/cpufeature.h>
#include <linux/cpuhotplug.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>
#include <linux/topology.h>
#include <asm/msr.h>

#define POWER_PKG_CONFIG	1

static struct {
	u64 max_acc;		/* where the accumulator wraps */
	u32 ratio;		/* PTSC periods a sample period */
	cpumask_t cpus;		/* the "cpumask" file */
} acc_power;

static struct pmu acc_power_pmu;

/* The accumulator and the PTSC now, as the event's last look. */
static void acc_power_look(struct perf_event *event)
{
	u64 acc, ptsc;

	rdmsrl(MSR_F15H_CU_PWR_ACCUMULATOR, acc);
	rdmsrl(MSR_F15H_PTSC, ptsc);
	local64_set(&event->hw.prev_count, acc);
	event->hw.config = ptsc;
}

/* Add the average power since the last look, and look again. */
static void acc_power_update(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev_acc = local64_read(&hwc->prev_count);
	u64 prev_ptsc = hwc->config;
	u64 acc, ptsc, delta;

	rdmsrl(MSR_F15H_CU_PWR_ACCUMULATOR, acc);
	rdmsrl(MSR_F15H_PTSC, ptsc);
	if (acc >= prev_acc)
		delta = acc - prev_acc;
	else
		delta = acc_power.max_acc + acc - prev_acc;
	local64_set(&hwc->prev_count, acc);
	hwc->config = ptsc;
	if (ptsc == prev_ptsc)
		return;
	local64_add(div64_u64(delta * acc_power.ratio * 1000, ptsc - prev_ptsc),
		    &event->count);
}

static void acc_power_start(struct perf_event *event, int flags)
{
	acc_power_look(event);
	event->hw.state = 0;
}

static void acc_power_stop(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	acc_power_update(event);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int acc_power_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		acc_power_start(event, flags);
	return 0;
}

static void acc_power_del(struct perf_event *event, int flags)
{
	acc_power_stop(event, PERF_EF_UPDATE);
}

static void acc_power_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		acc_power_update(event);
}

static int acc_power_event_init(struct perf_event *event)
{
	if (event->attr.type != acc_power_pmu.type)
		return -ENOENT;
	if (event->attr.config != POWER_PKG_CONFIG)
		return -EINVAL;
	if (is_sampling_event(event) || event->cpu < 0)
		return -EINVAL;
	return 0;
}

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return cpumap_print_to_pagebuf(true, buf, &acc_power.cpus);
}
static DEVICE_ATTR_RO(cpumask);

static const struct attribute_group acc_power_cpumask_group = {
	.attrs		= (struct attribute *[]) { &dev_attr_cpumask.attr, NULL },
};

/* an events/ file: @name shows @str */
#define ACC_POWER_ATTR(_name, _str) {					\
	.attr = {							\
		.attr = { .name = _name, .mode = 0444 },		\
		.show = perf_event_sysfs_show,				\
	},								\
	.event_str = _str,						\
}

static struct perf_pmu_events_attr acc_power_pkg[] = {
	ACC_POWER_ATTR("power-pkg", "event=0x01"),
	ACC_POWER_ATTR("power-pkg.unit", "mWatts"),
	ACC_POWER_ATTR("power-pkg.scale", "1.000000e-3"),
};

static const struct attribute_group acc_power_events_group = {
	.name		= "events",
	.attrs		= (struct attribute *[]) {
		&acc_power_pkg[0].attr.attr, &acc_power_pkg[1].attr.attr,
		&acc_power_pkg[2].attr.attr, NULL
	},
};

/* attr.config's only field, 8 bits */
PMU_FORMAT_ATTR(event, "config:0-7");

static const struct attribute_group acc_power_format_group = {
	.name		= "format",
	.attrs		= (struct attribute *[]) {
		&format_attr_event.attr, NULL
	},
};

static struct pmu acc_power_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_invalid_context,
	.attr_groups	= (const struct attribute_group *[]) {
		&acc_power_cpumask_group, &acc_power_events_group,
		&acc_power_format_group, NULL
	},
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT | PERF_PMU_CAP_NO_EXCLUDE,
	.event_init	= acc_power_event_init,
	.add		= acc_power_add,
	.del		= acc_power_del,
	.start		= acc_power_start,
	.stop		= acc_power_stop,
	.read		= acc_power_read,
};

/* A CPU with no other online thread in its compute unit is listed. */
static int acc_power_cpu_online(unsigned int cpu)
{
	if (cpumask_any_but(topology_sibling_cpumask(cpu), cpu) >= nr_cpu_ids)
		cpumask_set_cpu(cpu, &acc_power.cpus);
	return 0;
}

/* A listed CPU going offline hands its place and events to a sibling. */
static int acc_power_cpu_offline(unsigned int cpu)
{
	unsigned int heir;

	if (!cpumask_test_and_clear_cpu(cpu, &acc_power.cpus))
		return 0;
	heir = cpumask_any_but(topology_sibling_cpumask(cpu), cpu);
	if (heir < nr_cpu_ids) {
		cpumask_set_cpu(heir, &acc_power.cpus);
		perf_pmu_migrate_context(&acc_power_pmu, cpu, heir);
	}
	return 0;
}

static int __init acc_power_init(void)
{
	int ret;

	if (!boot_cpu_has(X86_FEATURE_ACC_POWER))
		return -ENODEV;
	if (rdmsrl_safe(MSR_F15H_CU_MAX_PWR_ACCUMULATOR, &acc_power.max_acc))
		return -ENODEV;
	acc_power.ratio = cpuid_ecx(0x80000007);
	ret = cpuhp_setup_state(CPUHP_AP_PERF_X86_AMD_POWER_ONLINE,
				"perf/x86/amd/power:online",
				acc_power_cpu_online, acc_power_cpu_offline);
	if (ret)
		return ret;
	ret = perf_pmu_register(&acc_power_pmu, "power", -1);
	if (ret) {
		cpuhp_remove_state(CPUHP_AP_PERF_X86_AMD_POWER_ONLINE);
		return ret;
	}
	pr_info("AMD Power PMU detected\n");
	return 0;
}
module_init(acc_power_init);

static void __exit acc_power_exit(void)
{
	perf_pmu_unregister(&acc_power_pmu);
	cpuhp_remove_state(CPUHP_AP_PERF_X86_AMD_POWER_ONLINE);
}
module_exit(acc_power_exit);

MODULE_DESCRIPTION("AMD family 15h accumulated power as the power PMU");
MODULE_LICENSE("GPL");
