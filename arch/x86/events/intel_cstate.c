// SPDX-License-Identifier: GPL-2.0-only
/*
 * The C-state residency PMUs of Intel processors: how long the cores, the
 * modules (Atom cores sharing an L2) and the package spent in each idle
 * state, counted by the CPU at the time stamp counter's rate.  Three PMUs:
 *
 *   cstate_core	core scope: c1-residency (config 0, MSR_CORE_C1_RES),
 *			c3- (1), c6- (2), c7-residency (3);
 *   cstate_pkg		package scope: c2- (0), c3- (1), c6- (2), c7- (3),
 *			c8- (4), c9- (5), c10-residency (6);
 *   cstate_module	cluster scope: c6-residency (0, MSR_MODULE_C6_RES_MS).
 *
 * The core places each CPU event on the designated CPU of its core,
 * package or module ("cpumask") and moves it when that CPU goes offline.
 * Counting only, CPU events only: sampling, exclude bits and per-task
 * events are -EINVAL, as are the counters a model lacks.
 *
 * Which counters a model has: the model table below (stock's, read off
 * its driver); of those, the ones whose MSR can be read.  A model not listed has none, and under a
 * hypervisor (CPUID's hypervisor bit) there are none: a guest's idle
 * states are the host's business.
 *
 * Counting: free_running.h.  Locking: none; the tables and what was found
 * at init are constant after it.
 */
#include <linux/bits.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>
#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>
#include <asm/msr.h>

#include "free_running.h"

enum { CSTATE_CORE, CSTATE_PKG, CSTATE_MODULE, CSTATE_NR_PMUS };

/* the counters of each PMU by attr.config: their MSRs */
static const u32 cstate_core_msrs[] = {
	MSR_CORE_C1_RES, MSR_CORE_C3_RESIDENCY, MSR_CORE_C6_RESIDENCY,
	MSR_CORE_C7_RESIDENCY,
};

static const u32 cstate_pkg_msrs[] = {
	MSR_PKG_C2_RESIDENCY, MSR_PKG_C3_RESIDENCY, MSR_PKG_C6_RESIDENCY,
	MSR_PKG_C7_RESIDENCY, MSR_PKG_C8_RESIDENCY, MSR_PKG_C9_RESIDENCY,
	MSR_PKG_C10_RESIDENCY,
};

static const u32 cstate_module_msrs[] = {
	MSR_MODULE_C6_RES_MS,
};

/* a model's counters: BIT(config) for each PMU */
struct cstate_model {
	unsigned long counters[CSTATE_NR_PMUS];
};

#define C(n)	BIT(n)
#define CORE_C1	C(0)
#define CORE_C3	C(1)
#define CORE_C6	C(2)
#define CORE_C7	C(3)
#define PKG_C2	C(0)
#define PKG_C3	C(1)
#define PKG_C6	C(2)
#define PKG_C7	C(3)
#define PKG_C8	C(4)
#define PKG_C9	C(5)
#define PKG_C10	C(6)
#define MOD_C6	C(0)

/*
 * stock's tables: the residency counters its driver shows for each model
 * when every one can be read (make x86-model-tables; x86-pmu.rst)
 */

/* Nehalem and Westmere */
static const struct cstate_model cstate_nhm = {
	.counters = {
		[CSTATE_CORE] = CORE_C3 | CORE_C6,
		[CSTATE_PKG] = PKG_C3 | PKG_C6 | PKG_C7,
	},
};

/* Sandy Bridge to Skylake, Skylake-SP */
static const struct cstate_model cstate_snb = {
	.counters = {
		[CSTATE_CORE] = CORE_C3 | CORE_C6 | CORE_C7,
		[CSTATE_PKG] = PKG_C2 | PKG_C3 | PKG_C6 | PKG_C7,
	},
};

/* Haswell ULT, Kaby Lake, Comet Lake: the deep package states */
static const struct cstate_model cstate_hsw_ult = {
	.counters = {
		[CSTATE_CORE] = CORE_C3 | CORE_C6 | CORE_C7,
		[CSTATE_PKG] = PKG_C2 | PKG_C3 | PKG_C6 | PKG_C7 |
				 PKG_C8 | PKG_C9 | PKG_C10,
	},
};

/* Cannon Lake */
static const struct cstate_model cstate_cnl = {
	.counters = {
		[CSTATE_CORE] = CORE_C1 | CORE_C3 | CORE_C6 | CORE_C7,
		[CSTATE_PKG] = PKG_C2 | PKG_C3 | PKG_C6 | PKG_C7 |
				 PKG_C8 | PKG_C9 | PKG_C10,
	},
};

/* Ice Lake, Tiger Lake and Rocket Lake clients */
static const struct cstate_model cstate_icl = {
	.counters = {
		[CSTATE_CORE] = CORE_C6 | CORE_C7,
		[CSTATE_PKG] = PKG_C2 | PKG_C3 | PKG_C6 | PKG_C7 |
				 PKG_C8 | PKG_C9 | PKG_C10,
	},
};

/* Alder Lake and later clients, Gracemont */
static const struct cstate_model cstate_adl = {
	.counters = {
		[CSTATE_CORE] = CORE_C1 | CORE_C6 | CORE_C7,
		[CSTATE_PKG] = PKG_C2 | PKG_C3 | PKG_C6 | PKG_C8 |
				 PKG_C10,
	},
};

/* Lunar Lake */
static const struct cstate_model cstate_lnl = {
	.counters = {
		[CSTATE_CORE] = CORE_C1 | CORE_C6 | CORE_C7,
		[CSTATE_PKG] = PKG_C2 | PKG_C6 | PKG_C10,
	},
};

/* Ice Lake-SP and later servers */
static const struct cstate_model cstate_icx = {
	.counters = {
		[CSTATE_CORE] = CORE_C1 | CORE_C6,
		[CSTATE_PKG] = PKG_C2 | PKG_C6,
	},
};

/* Silvermont and Airmont */
static const struct cstate_model cstate_slm = {
	.counters = {
		[CSTATE_CORE] = CORE_C1 | CORE_C6,
		[CSTATE_PKG] = PKG_C6,
	},
};

/* Goldmont, Goldmont Plus and Tremont */
static const struct cstate_model cstate_glm = {
	.counters = {
		[CSTATE_CORE] = CORE_C1 | CORE_C3 | CORE_C6,
		[CSTATE_PKG] = PKG_C2 | PKG_C3 | PKG_C6 | PKG_C10,
	},
};

/* Sierra Forest: with the module */
static const struct cstate_model cstate_srf = {
	.counters = {
		[CSTATE_CORE] = CORE_C1 | CORE_C6,
		[CSTATE_PKG] = PKG_C2 | PKG_C6,
		[CSTATE_MODULE] = MOD_C6,
	},
};

/* Grand Ridge: no package counters */
static const struct cstate_model cstate_grr = {
	.counters = {
		[CSTATE_CORE] = CORE_C1 | CORE_C6,
		[CSTATE_MODULE] = MOD_C6,
	},
};

/* Xeon Phi */
static const struct cstate_model cstate_knl = {
	.counters = {
		[CSTATE_CORE] = CORE_C6,
		[CSTATE_PKG] = PKG_C2 | PKG_C3 | PKG_C6,
	},
};

static const struct x86_cpu_id cstate_cpu_ids[] __initconst = {
	X86_MATCH_VFM(INTEL_NEHALEM,		&cstate_nhm),
	X86_MATCH_VFM(INTEL_NEHALEM_EP,		&cstate_nhm),
	X86_MATCH_VFM(INTEL_NEHALEM_EX,		&cstate_nhm),
	X86_MATCH_VFM(INTEL_WESTMERE,		&cstate_nhm),
	X86_MATCH_VFM(INTEL_WESTMERE_EP,	&cstate_nhm),
	X86_MATCH_VFM(INTEL_WESTMERE_EX,	&cstate_nhm),
	X86_MATCH_VFM(INTEL_SANDYBRIDGE,	&cstate_snb),
	X86_MATCH_VFM(INTEL_SANDYBRIDGE_X,	&cstate_snb),
	X86_MATCH_VFM(INTEL_IVYBRIDGE,		&cstate_snb),
	X86_MATCH_VFM(INTEL_IVYBRIDGE_X,	&cstate_snb),
	X86_MATCH_VFM(INTEL_HASWELL,		&cstate_snb),
	X86_MATCH_VFM(INTEL_HASWELL_G,		&cstate_snb),
	X86_MATCH_VFM(INTEL_HASWELL_X,		&cstate_snb),
	X86_MATCH_VFM(INTEL_BROADWELL,		&cstate_snb),
	X86_MATCH_VFM(INTEL_BROADWELL_G,	&cstate_snb),
	X86_MATCH_VFM(INTEL_BROADWELL_D,	&cstate_snb),
	X86_MATCH_VFM(INTEL_BROADWELL_X,	&cstate_snb),
	X86_MATCH_VFM(INTEL_SKYLAKE_L,		&cstate_snb),
	X86_MATCH_VFM(INTEL_SKYLAKE,		&cstate_snb),
	X86_MATCH_VFM(INTEL_SKYLAKE_X,		&cstate_snb),
	X86_MATCH_VFM(INTEL_HASWELL_L,		&cstate_hsw_ult),
	X86_MATCH_VFM(INTEL_KABYLAKE_L,		&cstate_hsw_ult),
	X86_MATCH_VFM(INTEL_KABYLAKE,		&cstate_hsw_ult),
	X86_MATCH_VFM(INTEL_COMETLAKE_L,	&cstate_hsw_ult),
	X86_MATCH_VFM(INTEL_COMETLAKE,		&cstate_hsw_ult),
	X86_MATCH_VFM(INTEL_CANNONLAKE_L,	&cstate_cnl),
	X86_MATCH_VFM(INTEL_ICELAKE_L,		&cstate_icl),
	X86_MATCH_VFM(INTEL_ICELAKE,		&cstate_icl),
	X86_MATCH_VFM(INTEL_TIGERLAKE_L,	&cstate_icl),
	X86_MATCH_VFM(INTEL_TIGERLAKE,		&cstate_icl),
	X86_MATCH_VFM(INTEL_ROCKETLAKE,		&cstate_icl),
	X86_MATCH_VFM(INTEL_ALDERLAKE,		&cstate_adl),
	X86_MATCH_VFM(INTEL_ALDERLAKE_L,	&cstate_adl),
	X86_MATCH_VFM(INTEL_ATOM_GRACEMONT,	&cstate_adl),
	X86_MATCH_VFM(INTEL_RAPTORLAKE,		&cstate_adl),
	X86_MATCH_VFM(INTEL_RAPTORLAKE_P,	&cstate_adl),
	X86_MATCH_VFM(INTEL_RAPTORLAKE_S,	&cstate_adl),
	X86_MATCH_VFM(INTEL_METEORLAKE,		&cstate_adl),
	X86_MATCH_VFM(INTEL_METEORLAKE_L,	&cstate_adl),
	X86_MATCH_VFM(INTEL_ARROWLAKE,		&cstate_adl),
	X86_MATCH_VFM(INTEL_ARROWLAKE_H,	&cstate_adl),
	X86_MATCH_VFM(INTEL_ARROWLAKE_U,	&cstate_adl),
	X86_MATCH_VFM(INTEL_LUNARLAKE_M,	&cstate_lnl),
	X86_MATCH_VFM(INTEL_ICELAKE_X,		&cstate_icx),
	X86_MATCH_VFM(INTEL_ICELAKE_D,		&cstate_icx),
	X86_MATCH_VFM(INTEL_SAPPHIRERAPIDS_X,	&cstate_icx),
	X86_MATCH_VFM(INTEL_EMERALDRAPIDS_X,	&cstate_icx),
	X86_MATCH_VFM(INTEL_GRANITERAPIDS_D,	&cstate_icx),
	X86_MATCH_VFM(INTEL_GRANITERAPIDS_X,	&cstate_icx),
	X86_MATCH_VFM(INTEL_ATOM_SILVERMONT,	&cstate_slm),
	X86_MATCH_VFM(INTEL_ATOM_SILVERMONT_D,	&cstate_slm),
	X86_MATCH_VFM(INTEL_ATOM_AIRMONT,	&cstate_slm),
	X86_MATCH_VFM(INTEL_ATOM_AIRMONT_NP,	&cstate_slm),
	X86_MATCH_VFM(INTEL_ATOM_GOLDMONT,	&cstate_glm),
	X86_MATCH_VFM(INTEL_ATOM_GOLDMONT_D,	&cstate_glm),
	X86_MATCH_VFM(INTEL_ATOM_GOLDMONT_PLUS,	&cstate_glm),
	X86_MATCH_VFM(INTEL_ATOM_TREMONT_D,	&cstate_glm),
	X86_MATCH_VFM(INTEL_ATOM_TREMONT,	&cstate_glm),
	X86_MATCH_VFM(INTEL_ATOM_TREMONT_L,	&cstate_glm),
	X86_MATCH_VFM(INTEL_ATOM_CRESTMONT_X,	&cstate_srf),
	X86_MATCH_VFM(INTEL_ATOM_CRESTMONT,	&cstate_grr),
	X86_MATCH_VFM(INTEL_XEON_PHI_KNL,	&cstate_knl),
	X86_MATCH_VFM(INTEL_XEON_PHI_KNM,	&cstate_knl),
	{}
};
MODULE_DEVICE_TABLE(x86cpu, cstate_cpu_ids);

struct cstate_pmu {
	struct pmu pmu;
	const char *name;
	const u32 *msrs;		/* by attr.config */
	unsigned int nr_counters;
	unsigned long present;		/* BIT(config): found at init */
	bool registered;
};

static int cstate_event_init(struct perf_event *event)
{
	struct cstate_pmu *cp = container_of(event->pmu, struct cstate_pmu,
					     pmu);
	u64 config = event->attr.config;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	/* exclude bits: the core refuses them (PERF_PMU_CAP_NO_EXCLUDE) */
	if (event->cpu < 0 || is_sampling_event(event))
		return -EINVAL;
	if (config >= cp->nr_counters)
		return -EINVAL;
	/* a user's index into the tables */
	config = array_index_nospec(config, cp->nr_counters);
	if (!(cp->present & BIT(config)))
		return -EINVAL;
	event->hw.config = config;
	event->hw.event_base = cp->msrs[config];
	event->hw.config_base = U64_MAX;
	event->hw.idx = -1;
	return 0;
}

/* sysfs: events/cN-residency of the counters found, format/event */

#define CSTATE_EVENT(pmu, cstate, config)				\
	static struct perf_pmu_events_attr cstate_##pmu##_##cstate = {	\
		.attr = {						\
			.attr = { .name = #cstate "-residency",		\
				  .mode = 0444 },			\
			.show = perf_event_sysfs_show,			\
		},							\
		.id = config,						\
		.event_str = "event=0x0" #config,			\
	}

CSTATE_EVENT(core, c1, 0);
CSTATE_EVENT(core, c3, 1);
CSTATE_EVENT(core, c6, 2);
CSTATE_EVENT(core, c7, 3);
CSTATE_EVENT(pkg, c2, 0);
CSTATE_EVENT(pkg, c3, 1);
CSTATE_EVENT(pkg, c6, 2);
CSTATE_EVENT(pkg, c7, 3);
CSTATE_EVENT(pkg, c8, 4);
CSTATE_EVENT(pkg, c9, 5);
CSTATE_EVENT(pkg, c10, 6);
CSTATE_EVENT(module, c6, 0);

static struct attribute *cstate_core_event_attrs[] = {
	&cstate_core_c1.attr.attr, &cstate_core_c3.attr.attr,
	&cstate_core_c6.attr.attr, &cstate_core_c7.attr.attr,
	NULL,
};

static struct attribute *cstate_pkg_event_attrs[] = {
	&cstate_pkg_c2.attr.attr, &cstate_pkg_c3.attr.attr,
	&cstate_pkg_c6.attr.attr, &cstate_pkg_c7.attr.attr,
	&cstate_pkg_c8.attr.attr, &cstate_pkg_c9.attr.attr,
	&cstate_pkg_c10.attr.attr,
	NULL,
};

static struct attribute *cstate_module_event_attrs[] = {
	&cstate_module_c6.attr.attr,
	NULL,
};

static umode_t cstate_event_visible(struct kobject *kobj,
				    struct attribute *a, int n)
{
	struct pmu *pmu = dev_get_drvdata(kobj_to_dev(kobj));
	struct cstate_pmu *cp = container_of(pmu, struct cstate_pmu, pmu);
	struct perf_pmu_events_attr *ev =
		container_of(a, struct perf_pmu_events_attr, attr.attr);

	return cp->present & BIT(ev->id) ? a->mode : 0;
}

#define CSTATE_EVENTS_GROUP(pmu)					\
	static const struct attribute_group cstate_##pmu##_events = {	\
		.name		= "events",				\
		.attrs		= cstate_##pmu##_event_attrs,		\
		.is_visible	= cstate_event_visible,			\
	}

CSTATE_EVENTS_GROUP(core);
CSTATE_EVENTS_GROUP(pkg);
CSTATE_EVENTS_GROUP(module);

PMU_FORMAT_ATTR(event, "config:0-63");

static struct attribute *cstate_format_attrs[] = {
	&format_attr_event.attr,
	NULL,
};

static const struct attribute_group cstate_format_group = {
	.name		= "format",
	.attrs		= cstate_format_attrs,
};

static const struct attribute_group *cstate_core_groups[] = {
	&cstate_core_events, &cstate_format_group, NULL,
};

static const struct attribute_group *cstate_pkg_groups[] = {
	&cstate_pkg_events, &cstate_format_group, NULL,
};

static const struct attribute_group *cstate_module_groups[] = {
	&cstate_module_events, &cstate_format_group, NULL,
};

/* the PMU of cstate_<kind>_msrs and cstate_<kind>_groups */
#define CSTATE_PMU(kind, pmu_scope)					\
	{								\
		.name = "cstate_" #kind,				\
		.msrs = cstate_##kind##_msrs,				\
		.nr_counters = ARRAY_SIZE(cstate_##kind##_msrs),	\
		.pmu = {						\
			.module		= THIS_MODULE,			\
			.task_ctx_nr	= perf_invalid_context,		\
			.scope		= pmu_scope,			\
			.attr_groups	= cstate_##kind##_groups,	\
			.capabilities	= PERF_PMU_CAP_NO_INTERRUPT |	\
					  PERF_PMU_CAP_NO_EXCLUDE,	\
			.event_init	= cstate_event_init,		\
			.add		= free_running_add,		\
			.del		= free_running_del,		\
			.start		= free_running_start,		\
			.stop		= free_running_stop,		\
			.read		= free_running_read,		\
		},							\
	}

static struct cstate_pmu cstate_pmus[CSTATE_NR_PMUS] = {
	[CSTATE_CORE] = CSTATE_PMU(core, PERF_PMU_SCOPE_CORE),
	[CSTATE_PKG] = CSTATE_PMU(pkg, PERF_PMU_SCOPE_PKG),
	[CSTATE_MODULE] = CSTATE_PMU(module, PERF_PMU_SCOPE_CLUSTER),
};

static void cstate_unregister(void)
{
	int i;

	for (i = CSTATE_NR_PMUS - 1; i >= 0; i--) {
		if (cstate_pmus[i].registered)
			perf_pmu_unregister(&cstate_pmus[i].pmu);
		cstate_pmus[i].registered = false;
	}
}

static int __init cstate_pmu_init(void)
{
	const struct x86_cpu_id *id;
	const struct cstate_model *m;
	unsigned int i, c;
	int ret;
	u64 v;

	if (boot_cpu_has(X86_FEATURE_HYPERVISOR))
		return -ENODEV;
	id = x86_match_cpu(cstate_cpu_ids);
	if (!id)
		return -ENODEV;
	m = (const struct cstate_model *)id->driver_data;
	for (i = 0; i < CSTATE_NR_PMUS; i++) {
		struct cstate_pmu *cp = &cstate_pmus[i];

		for_each_set_bit(c, &m->counters[i], cp->nr_counters) {
			if (!rdmsrl_safe(cp->msrs[c], &v))
				cp->present |= BIT(c);
		}
		if (!cp->present)
			continue;
		ret = perf_pmu_register(&cp->pmu, cp->name, -1);
		if (ret) {
			cstate_unregister();
			return ret;
		}
		cp->registered = true;
	}
	return 0;
}
module_init(cstate_pmu_init);

static void __exit cstate_pmu_exit(void)
{
	cstate_unregister();
}
module_exit(cstate_pmu_exit);

MODULE_DESCRIPTION("Intel C-state residency counters as PMUs");
MODULE_LICENSE("GPL");
