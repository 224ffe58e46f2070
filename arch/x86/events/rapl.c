// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "power" PMU: the RAPL energy counters of Intel, AMD and Hygon
 * processors, one set a package, as counting events of the energy each
 * domain used: energy-cores (config 1, PP0: the cores), energy-pkg (2, the
 * package), energy-ram (3, DRAM), energy-gpu (4, PP1: the graphics of
 * client parts) and energy-psys (5, the platform).  A count is in units of
 * 2^-32 J (each event's .scale) whatever the unit of the hardware counter:
 * MSR_RAPL_POWER_UNIT's energy status unit, or one of the domain's own on
 * the models whose table says so (DRAM's 2^-16 J on Haswell-EP to Ice
 * Lake-SP, the platform's 1 J on Sapphire Rapids).
 *
 * The counters are the package's: the PMU has package scope, and the core
 * counts each event on the designated CPU of the package (the "cpumask"
 * file) and moves it when that CPU goes offline.  Counting only, and CPU
 * events only: sampling and exclude bits are -EINVAL, as are per-task
 * events (no task context).
 *
 * Which domains a part has: Intel, the model table below (stock's, read
 * off its driver); a model not listed has no power PMU.
 * AMD and Hygon, the RAPL CPUID bit (0x80000007 EDX[14]): the package
 * domain.  A domain whose energy status MSR cannot be read, or reads 0
 * (nothing counts there), is dropped; a part whose unit register reads
 * has the PMU, if need be without events (as stock on the emulated Alder
 * Lake, whose energy registers read 0).
 *
 * The hardware counters are 32 bits wide and may wrap within minutes at
 * high power: while an event is active on a CPU, an hrtimer on that CPU
 * folds it into its count as often as the finest unit's counter could
 * wrap at 400 W: 10 * 2^(30 - esu) ms, as stock's boot line says for the
 * unit register's unit (stock takes that one where DRAM's is finer: the
 * series the finer, a quarter of stock's 655 s there).
 *
 * Locking: the per-CPU list of active events and its timer are touched
 * only on their CPU with interrupts off (the PMU callbacks, which the core
 * runs so, and the timer, which runs in hard interrupt context); an
 * event's count moves by cmpxchg (rapl_fold()).
 */
#define pr_fmt(fmt) "RAPL PMU: " fmt

#include <linux/bits.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>
#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>
#include <asm/msr.h>

/* the domains, in attr.config order (config = domain + 1) */
enum rapl_domain {
	RAPL_CORES,
	RAPL_PKG,
	RAPL_RAM,
	RAPL_GPU,
	RAPL_PSYS,
	RAPL_NR_DOMAINS,
};

#define RAPL_CONFIG_MASK	GENMASK_ULL(7, 0)	/* format/event */

struct rapl_model {
	unsigned long domains;		/* BIT(RAPL_*) */
	unsigned long fixed;		/* domains with a unit of their own, */
	u8 fixed_esu[RAPL_NR_DOMAINS];	/* 2^-fixed_esu J */
	bool amd;			/* AMD's MSRs (and Hygon's) */
};

#define RAPL(d)	BIT(RAPL_##d)

/*
 * The Intel tables are stock's: which domains its driver shows for each
 * model when every RAPL MSR can be read, and whether it counts DRAM in
 * the fixed unit (make x86-model-tables; x86-pmu.rst).
 */

/* Sandy Bridge and Ivy Bridge clients */
static const struct rapl_model rapl_snb = {
	.domains = RAPL(CORES) | RAPL(PKG) | RAPL(GPU),
};

/* Sandy Bridge-EP and Ivy Bridge-EP */
static const struct rapl_model rapl_snbep = {
	.domains = RAPL(CORES) | RAPL(PKG) | RAPL(RAM),
};

/* Haswell and Broadwell clients, Goldmont */
static const struct rapl_model rapl_hsw = {
	.domains = RAPL(CORES) | RAPL(PKG) | RAPL(RAM) | RAPL(GPU),
};

/* Haswell-EP to Ice Lake-SP: DRAM in a unit of its own, 2^-16 J */
static const struct rapl_model rapl_hsx = {
	.domains = RAPL(CORES) | RAPL(PKG) | RAPL(RAM),
	.fixed = RAPL(RAM),
	.fixed_esu = { [RAPL_RAM] = 16 },
};

/* Xeon Phi (Knights Landing, Knights Mill) */
static const struct rapl_model rapl_knl = {
	.domains = RAPL(PKG) | RAPL(RAM),
	.fixed = RAPL(RAM),
	.fixed_esu = { [RAPL_RAM] = 16 },
};

/* Skylake clients and later, Gracemont */
static const struct rapl_model rapl_skl = {
	.domains = RAPL(CORES) | RAPL(PKG) | RAPL(RAM) | RAPL(GPU) |
		   RAPL(PSYS),
};

/* Sapphire Rapids and Emerald Rapids: the platform counts joules */
static const struct rapl_model rapl_spr = {
	.domains = RAPL(CORES) | RAPL(PKG) | RAPL(RAM) | RAPL(PSYS),
	.fixed = RAPL(PSYS),
	.fixed_esu = { [RAPL_PSYS] = 0 },
};

static const struct rapl_model rapl_amd = {
	.domains = RAPL(PKG),
	.amd = true,
};

static const struct x86_cpu_id rapl_cpu_ids[] __initconst = {
	X86_MATCH_VFM(INTEL_SANDYBRIDGE,	&rapl_snb),
	X86_MATCH_VFM(INTEL_IVYBRIDGE,		&rapl_snb),
	X86_MATCH_VFM(INTEL_SANDYBRIDGE_X,	&rapl_snbep),
	X86_MATCH_VFM(INTEL_IVYBRIDGE_X,	&rapl_snbep),
	X86_MATCH_VFM(INTEL_HASWELL,		&rapl_hsw),
	X86_MATCH_VFM(INTEL_HASWELL_L,		&rapl_hsw),
	X86_MATCH_VFM(INTEL_HASWELL_G,		&rapl_hsw),
	X86_MATCH_VFM(INTEL_BROADWELL,		&rapl_hsw),
	X86_MATCH_VFM(INTEL_BROADWELL_G,	&rapl_hsw),
	X86_MATCH_VFM(INTEL_ATOM_GOLDMONT,	&rapl_hsw),
	X86_MATCH_VFM(INTEL_ATOM_GOLDMONT_D,	&rapl_hsw),
	X86_MATCH_VFM(INTEL_ATOM_GOLDMONT_PLUS,	&rapl_hsw),
	X86_MATCH_VFM(INTEL_HASWELL_X,		&rapl_hsx),
	X86_MATCH_VFM(INTEL_BROADWELL_X,	&rapl_hsx),
	X86_MATCH_VFM(INTEL_BROADWELL_D,	&rapl_hsx),
	X86_MATCH_VFM(INTEL_SKYLAKE_X,		&rapl_hsx),
	X86_MATCH_VFM(INTEL_ICELAKE_X,		&rapl_hsx),
	X86_MATCH_VFM(INTEL_ICELAKE_D,		&rapl_hsx),
	X86_MATCH_VFM(INTEL_XEON_PHI_KNL,	&rapl_knl),
	X86_MATCH_VFM(INTEL_XEON_PHI_KNM,	&rapl_knl),
	X86_MATCH_VFM(INTEL_SKYLAKE_L,		&rapl_skl),
	X86_MATCH_VFM(INTEL_SKYLAKE,		&rapl_skl),
	X86_MATCH_VFM(INTEL_KABYLAKE_L,		&rapl_skl),
	X86_MATCH_VFM(INTEL_KABYLAKE,		&rapl_skl),
	X86_MATCH_VFM(INTEL_COMETLAKE_L,	&rapl_skl),
	X86_MATCH_VFM(INTEL_COMETLAKE,		&rapl_skl),
	X86_MATCH_VFM(INTEL_CANNONLAKE_L,	&rapl_skl),
	X86_MATCH_VFM(INTEL_ICELAKE_L,		&rapl_skl),
	X86_MATCH_VFM(INTEL_ICELAKE,		&rapl_skl),
	X86_MATCH_VFM(INTEL_TIGERLAKE_L,	&rapl_skl),
	X86_MATCH_VFM(INTEL_TIGERLAKE,		&rapl_skl),
	X86_MATCH_VFM(INTEL_ALDERLAKE,		&rapl_skl),
	X86_MATCH_VFM(INTEL_ALDERLAKE_L,	&rapl_skl),
	X86_MATCH_VFM(INTEL_ATOM_GRACEMONT,	&rapl_skl),
	X86_MATCH_VFM(INTEL_RAPTORLAKE,		&rapl_skl),
	X86_MATCH_VFM(INTEL_RAPTORLAKE_P,	&rapl_skl),
	X86_MATCH_VFM(INTEL_RAPTORLAKE_S,	&rapl_skl),
	X86_MATCH_VFM(INTEL_METEORLAKE,		&rapl_skl),
	X86_MATCH_VFM(INTEL_METEORLAKE_L,	&rapl_skl),
	X86_MATCH_VFM(INTEL_ARROWLAKE,		&rapl_skl),
	X86_MATCH_VFM(INTEL_ARROWLAKE_H,	&rapl_skl),
	X86_MATCH_VFM(INTEL_ARROWLAKE_U,	&rapl_skl),
	X86_MATCH_VFM(INTEL_LUNARLAKE_M,	&rapl_skl),
	X86_MATCH_VFM(INTEL_SAPPHIRERAPIDS_X,	&rapl_spr),
	X86_MATCH_VFM(INTEL_EMERALDRAPIDS_X,	&rapl_spr),
	X86_MATCH_VENDOR_FAM_FEATURE(AMD, X86_FAMILY_ANY, X86_FEATURE_RAPL,
				     &rapl_amd),
	X86_MATCH_VENDOR_FAM_FEATURE(HYGON, X86_FAMILY_ANY, X86_FEATURE_RAPL,
				     &rapl_amd),
	{}
};
MODULE_DEVICE_TABLE(x86cpu, rapl_cpu_ids);

static const u32 rapl_intel_msrs[RAPL_NR_DOMAINS] = {
	[RAPL_CORES]	= MSR_PP0_ENERGY_STATUS,
	[RAPL_PKG]	= MSR_PKG_ENERGY_STATUS,
	[RAPL_RAM]	= MSR_DRAM_ENERGY_STATUS,
	[RAPL_GPU]	= MSR_PP1_ENERGY_STATUS,
	[RAPL_PSYS]	= MSR_PLATFORM_ENERGY_STATUS,
};

static const u32 rapl_amd_msrs[RAPL_NR_DOMAINS] = {
	[RAPL_PKG]	= MSR_AMD_PKG_ENERGY_STATUS,
};

/* what this machine has, found at init and constant after */
static struct {
	unsigned long domains;		/* present: BIT(RAPL_*) */
	u32 msr[RAPL_NR_DOMAINS];	/* each one's energy status MSR */
	u8 shift[RAPL_NR_DOMAINS];	/* 32 - its unit's exponent */
	ktime_t poll;			/* the fold interval */
} rapl;

/* the events active on a CPU, and the timer that folds them */
struct rapl_cpu {
	struct list_head active;
	struct hrtimer timer;
};

static DEFINE_PER_CPU(struct rapl_cpu, rapl_cpu);

static u64 rapl_counter(struct perf_event *event)
{
	u64 v;

	rdmsrl(event->hw.event_base, v);
	return v & U32_MAX;
}

/*
 * Add what the 32-bit counter moved since the last look, in 2^-32 J.  A
 * read from an NMI (BPF) may nest in a fold: hw.prev_count moves by
 * cmpxchg, the counter read again after a nested one, so that no move is
 * added twice or taken for a wrap.
 */
static void rapl_fold(struct perf_event *event)
{
	u64 prev, now;

	do {
		prev = local64_read(&event->hw.prev_count);
		now = rapl_counter(event);
	} while (local64_cmpxchg(&event->hw.prev_count, prev, now) != prev);
	local64_add(((now - prev) & U32_MAX) << event->hw.config_base,
		    &event->count);
}

static enum hrtimer_restart rapl_timer_fn(struct hrtimer *timer)
{
	struct rapl_cpu *rc = container_of(timer, struct rapl_cpu, timer);
	struct perf_event *event;

	list_for_each_entry(event, &rc->active, active_entry)
		rapl_fold(event);
	hrtimer_forward_now(timer, rapl.poll);
	return HRTIMER_RESTART;
}

static void rapl_start(struct perf_event *event, int flags)
{
	struct rapl_cpu *rc = this_cpu_ptr(&rapl_cpu);

	if (!(event->hw.state & PERF_HES_STOPPED))
		return;
	local64_set(&event->hw.prev_count, rapl_counter(event));
	event->hw.state = 0;
	if (list_empty(&rc->active))
		hrtimer_start(&rc->timer, rapl.poll, HRTIMER_MODE_REL_PINNED_HARD);
	list_add_tail(&event->active_entry, &rc->active);
}

static void rapl_stop(struct perf_event *event, int flags)
{
	struct rapl_cpu *rc = this_cpu_ptr(&rapl_cpu);

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	rapl_fold(event);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	list_del(&event->active_entry);
	/* pinned to this CPU, whose interrupts are off: not running now */
	if (list_empty(&rc->active))
		hrtimer_cancel(&rc->timer);
}

static int rapl_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		rapl_start(event, flags);
	return 0;
}

static void rapl_del(struct perf_event *event, int flags)
{
	rapl_stop(event, PERF_EF_UPDATE);
}

static void rapl_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		rapl_fold(event);
}

static int rapl_event_init(struct perf_event *event)
{
	u64 config = event->attr.config;
	unsigned int d;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	/* exclude bits: the core refuses them (PERF_PMU_CAP_NO_EXCLUDE) */
	if (event->cpu < 0 || is_sampling_event(event))
		return -EINVAL;
	if (config & ~RAPL_CONFIG_MASK || !config ||
	    config > RAPL_NR_DOMAINS)
		return -EINVAL;
	/* a user's index into the tables */
	d = array_index_nospec(config - 1, RAPL_NR_DOMAINS);
	if (!(rapl.domains & BIT(d)))
		return -EINVAL;
	event->hw.config = d;
	event->hw.event_base = rapl.msr[d];
	event->hw.config_base = rapl.shift[d];
	event->hw.idx = -1;
	return 0;
}

/*
 * sysfs: events/energy-<domain>, .unit and .scale for each present
 * domain, three attributes a domain in rapl_event_attrs[], in the order
 * of enum rapl_domain: an attribute's place there tells its domain.
 */
#define RAPL_ATTR(attr_name, fn, str)					\
	{								\
		.attr = {						\
			.attr = { .name = attr_name, .mode = 0444 },	\
			.show = fn,					\
		},							\
		.event_str = str,					\
	}

struct rapl_sysfs_event {
	struct perf_pmu_events_attr event, unit, scale;
};

#define RAPL_EVENT(domain)						\
	static struct rapl_sysfs_event rapl_##domain = {		\
		.event = RAPL_ATTR("energy-" #domain, rapl_event_show,	\
				   NULL),				\
		.unit = RAPL_ATTR("energy-" #domain ".unit",		\
				  perf_event_sysfs_show, "Joules"),	\
		.scale = RAPL_ATTR("energy-" #domain ".scale",		\
				   perf_event_sysfs_show,		\
				   "2.3283064365386962890625e-10"),	\
	}

static ssize_t rapl_event_show(struct device *dev,
			       struct device_attribute *attr, char *page);

RAPL_EVENT(cores);
RAPL_EVENT(pkg);
RAPL_EVENT(ram);
RAPL_EVENT(gpu);
RAPL_EVENT(psys);

static struct attribute *rapl_event_attrs[] = {
	&rapl_cores.event.attr.attr, &rapl_cores.unit.attr.attr,
	&rapl_cores.scale.attr.attr,
	&rapl_pkg.event.attr.attr, &rapl_pkg.unit.attr.attr,
	&rapl_pkg.scale.attr.attr,
	&rapl_ram.event.attr.attr, &rapl_ram.unit.attr.attr,
	&rapl_ram.scale.attr.attr,
	&rapl_gpu.event.attr.attr, &rapl_gpu.unit.attr.attr,
	&rapl_gpu.scale.attr.attr,
	&rapl_psys.event.attr.attr, &rapl_psys.unit.attr.attr,
	&rapl_psys.scale.attr.attr,
	NULL,
};

static unsigned int rapl_attr_domain(const struct attribute *a)
{
	unsigned int i;

	for (i = 0; rapl_event_attrs[i] != a; i++)
		;
	return i / 3;
}

static ssize_t rapl_event_show(struct device *dev,
			       struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "event=0x%02x\n",
			  rapl_attr_domain(&attr->attr) + 1);
}

static umode_t rapl_event_visible(struct kobject *kobj, struct attribute *a,
				  int n)
{
	return rapl.domains & BIT(n / 3) ? a->mode : 0;
}

static const struct attribute_group rapl_events_group = {
	.name		= "events",
	.attrs		= rapl_event_attrs,
	.is_visible	= rapl_event_visible,
};

/* attr.config's only field: the domain's number, 8 bits */
PMU_FORMAT_ATTR(event, "config:0-7");

static const struct attribute_group rapl_format_group = {
	.name		= "format",
	.attrs		= (struct attribute *[]) {
		&format_attr_event.attr, NULL
	},
};

static struct pmu rapl_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_invalid_context,
	.scope		= PERF_PMU_SCOPE_PKG,
	.attr_groups	= (const struct attribute_group *[]) {
		&rapl_events_group, &rapl_format_group, NULL
	},
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT | PERF_PMU_CAP_NO_EXCLUDE,
	.event_init	= rapl_event_init,
	.add		= rapl_add,
	.del		= rapl_del,
	.start		= rapl_start,
	.stop		= rapl_stop,
	.read		= rapl_read,
};

static const char *const rapl_domain_names[RAPL_NR_DOMAINS] = {
	[RAPL_CORES] = "pp0-core", [RAPL_PKG] = "package",
	[RAPL_RAM] = "dram", [RAPL_GPU] = "pp1-gpu", [RAPL_PSYS] = "psys",
};

/* The domains of @m this CPU can read, their units and the poll interval. */
static int __init rapl_probe(const struct rapl_model *m)
{
	const u32 *msrs = m->amd ? rapl_amd_msrs : rapl_intel_msrs;
	unsigned int d, esu, max_esu = 0, nr = 0;
	u64 unit, v;

	if (rdmsrl_safe(m->amd ? MSR_AMD_RAPL_POWER_UNIT : MSR_RAPL_POWER_UNIT,
			&unit))
		return -ENODEV;
	for_each_set_bit(d, &m->domains, RAPL_NR_DOMAINS) {
		if (rdmsrl_safe(msrs[d], &v) || !v)
			continue;
		esu = (unit >> 8) & 0x1f;
		if (m->fixed & BIT(d))
			esu = m->fixed_esu[d];
		rapl.domains |= BIT(d);
		rapl.msr[d] = msrs[d];
		rapl.shift[d] = 32 - esu;
		max_esu = max(max_esu, esu);
		nr++;
	}
	/* 2^32 units of 2^-esu J wrap in 2^(32 - esu) / 400 s at 400 W */
	rapl.poll = ms_to_ktime(10ULL << (30 - min(max_esu, 30U)));
	pr_info("API unit is 2^-32 Joules, %u fixed counters, %lld ms ovfl timer\n",
		nr, ktime_to_ms(rapl.poll));
	for_each_set_bit(d, &rapl.domains, RAPL_NR_DOMAINS)
		pr_info("hw unit of domain %s 2^-%u Joules\n",
			rapl_domain_names[d], 32 - rapl.shift[d]);
	return 0;
}

static int __init rapl_pmu_init(void)
{
	const struct x86_cpu_id *id = x86_match_cpu(rapl_cpu_ids);
	int cpu, ret;

	if (!id)
		return -ENODEV;
	ret = rapl_probe((const struct rapl_model *)id->driver_data);
	if (ret)
		return ret;
	for_each_possible_cpu(cpu) {
		struct rapl_cpu *rc = per_cpu_ptr(&rapl_cpu, cpu);

		INIT_LIST_HEAD(&rc->active);
		hrtimer_init(&rc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
		rc->timer.function = rapl_timer_fn;
	}
	return perf_pmu_register(&rapl_pmu, "power", -1);
}
module_init(rapl_pmu_init);

static void __exit rapl_pmu_exit(void)
{
	perf_pmu_unregister(&rapl_pmu);
}
module_exit(rapl_pmu_exit);

MODULE_DESCRIPTION("RAPL energy counters as the power PMU");
MODULE_LICENSE("GPL");
