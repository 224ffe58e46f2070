// SPDX-License-Identifier: GPL-2.0
/*
 * What the core PMU shows under /sys/bus/event_source/devices/cpu: format/
 * (how a raw config is laid out: Intel's PERFEVTSELx fields, or AMD's
 * PERF_CTL ones with the event select's high bits at config:32-35, and
 * offcore_rsp, ldlat and frontend where the Intel model has the extra
 * registers),
 * events/ (the generic hardware events this CPU counts, by the perf tool's
 * names, as event=,umask=,... terms, the topdown events of a model
 * with PERF_METRICS, Sapphire Rapids' mem-loads-aux), caps/ (pmu_name,
 * max_precise, branches where the model has LBR), rdpmc (user_access.c)
 * and, on Intel, freeze_on_smi; a hybrid part's PMU, cpus (the online
 * CPUs of its core type).  Each attribute finds its driver through
 * the PMU device's drvdata.  Read-only data fixed at registration, but
 * freeze_on_smi, which pmu.c sets under its lock.
 */
#include <linux/device.h>
#include <linux/cpumask.h>
#include <linux/kstrtox.h>
#include <linux/perf_event.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <asm/perf_event.h>

#include "cpu_pmu.h"

static struct x86_core_driver *dev_driver(struct device *dev)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return container_of(pmu, struct x86_core_driver, pmu);
}

static const struct x86_core_desc *dev_desc(struct device *dev)
{
	return &dev_driver(dev)->core.desc;
}

static const struct x86_core_desc *kobj_desc(struct kobject *kobj)
{
	return dev_desc(kobj_to_dev(kobj));
}

static bool is_amd(const struct x86_core_desc *desc)
{
	return desc->vendor == X86_CORE_AMD;
}

/* ---- format/ ---- */

static ssize_t event_show(struct device *dev, struct device_attribute *attr,
			  char *page)
{
	return sysfs_emit(page, is_amd(dev_desc(dev)) ? "config:0-7,32-35\n" :
							"config:0-7\n");
}

static struct device_attribute format_attr_event = __ATTR_RO(event);
PMU_FORMAT_ATTR(umask, "config:8-15");
PMU_FORMAT_ATTR(edge, "config:18");
PMU_FORMAT_ATTR(pc, "config:19");
PMU_FORMAT_ATTR(any, "config:21");
PMU_FORMAT_ATTR(inv, "config:23");
PMU_FORMAT_ATTR(cmask, "config:24-31");
PMU_FORMAT_ATTR(offcore_rsp, "config1:0-63");
PMU_FORMAT_ATTR(snoop_rsp, "config1:0-63");
PMU_FORMAT_ATTR(ldlat, "config1:0-15");
PMU_FORMAT_ATTR(frontend, "config1:0-23");

static struct attribute *format_attrs[] = {
	&format_attr_event.attr,
	&format_attr_umask.attr,
	&format_attr_edge.attr,
	&format_attr_pc.attr,
	&format_attr_any.attr,
	&format_attr_inv.attr,
	&format_attr_cmask.attr,
	&format_attr_offcore_rsp.attr,
	&format_attr_snoop_rsp.attr,
	&format_attr_ldlat.attr,
	&format_attr_frontend.attr,
	NULL,
};

/* does @desc's model have events that read extra register @reg? */
static bool model_has_xreg(const struct x86_core_desc *desc, int reg)
{
	const struct x86_intel_model *model = desc->intel_model;
	unsigned int i;

	for (i = 0; model && i < model->nr_extra; i++)
		if (model->extra[i].reg == reg)
			return true;
	return false;
}

/*
 * pc is Intel's only, and so is any: shown from version 2 on, though the
 * bit counts only from version 3 (before, an event with it is EINVAL),
 * and hidden once CPUID deprecates AnyThread
 */
static umode_t format_visible(struct kobject *kobj, struct attribute *attr,
			      int i)
{
	const struct x86_core_desc *desc = kobj_desc(kobj);

	if (attr == &format_attr_pc.attr && is_amd(desc))
		return 0;
	if (attr == &format_attr_any.attr &&
	    (is_amd(desc) || desc->version < 2 || desc->anythread_deprecated))
		return 0;
	/* the model's, even where a hypervisor does not offer the registers */
	if (attr == &format_attr_offcore_rsp.attr)
		return model_has_xreg(desc, X86_XREG_RSP_0) ? attr->mode : 0;
	if (attr == &format_attr_snoop_rsp.attr)
		return desc->intel_model && desc->intel_model->snoop_rsp ?
		       attr->mode : 0;
	if (attr == &format_attr_ldlat.attr)
		return model_has_xreg(desc, X86_XREG_LDLAT) ? attr->mode : 0;
	if (attr == &format_attr_frontend.attr)
		return model_has_xreg(desc, X86_XREG_FRONTEND) ? attr->mode : 0;
	return attr->mode;
}

static const struct attribute_group format_group = {
	.name		= "format",
	.attrs		= format_attrs,
	.is_visible	= format_visible,
};

/* ---- events/ ---- */

/* the terms of a generic event's control value, as format/ names them */
static ssize_t generic_show(struct device *dev, struct device_attribute *attr,
			    char *page)
{
	struct perf_pmu_events_attr *ev =
		container_of(attr, struct perf_pmu_events_attr, attr);
	u64 evsel, event;
	int len;

	if (x86_core_map_hw_event(dev_desc(dev), ev->id, &evsel))
		return -ENOENT;
	event = evsel & ARCH_PERFMON_EVENTSEL_EVENT;
	event |= (evsel & AMD64_EVENTSEL_EVENT & ~ARCH_PERFMON_EVENTSEL_EVENT) >> 24;
	len = sysfs_emit(page, "event=0x%02llx", event);
	if (evsel & ARCH_PERFMON_EVENTSEL_UMASK)
		len += sysfs_emit_at(page, len, ",umask=0x%02llx",
				     (evsel & ARCH_PERFMON_EVENTSEL_UMASK) >> 8);
	if (evsel & ARCH_PERFMON_EVENTSEL_EDGE)
		len += sysfs_emit_at(page, len, ",edge");
	if (evsel & ARCH_PERFMON_EVENTSEL_INV)
		len += sysfs_emit_at(page, len, ",inv");
	if (evsel & ARCH_PERFMON_EVENTSEL_CMASK)
		len += sysfs_emit_at(page, len, ",cmask=0x%02llx",
				     (evsel & ARCH_PERFMON_EVENTSEL_CMASK) >> 24);
	len += sysfs_emit_at(page, len, "\n");
	return len;
}

/* PMU_EVENT_ATTR_ID(), with the name as a string: it has dashes */
#define GENERIC(_name, _id)						\
	(&((struct perf_pmu_events_attr[]) {				\
		{ .attr = { .attr = { .name = _name, .mode = 0444 },	\
			    .show = generic_show },			\
		  .id = PERF_COUNT_HW_##_id, } })[0].attr.attr)

/*
 * A model's event, given as a string.  @_id, for a topdown event
 * (topdown.c), is the metric's PERF_METRICS field plus one, 0 for slots:
 * shown where the PMU has that many metrics.  SKL_TOPDOWN: the Skylake
 * model's topdown events, counted by general events (with their .scale
 * files).  MEM_LOADS_AUX: Sapphire Rapids' auxiliary load event, the
 * leader its load-latency events need with PEBS (listed, counted as any
 * general event).  MEM_PEBS: the load-latency and store events, where the
 * PMU has PEBS, and on every hybrid PMU (stock lists them there whatever
 * PEBS says).  ATOM_TOPDOWN: an Atom core's topdown events, general
 * events of the same names as the metrics (only one of each is shown).
 */
#define SKL_TOPDOWN	0x100
#define MEM_LOADS_AUX	0x101
#define MEM_PEBS	0x102
#define ATOM_TOPDOWN	0x103

#define MODEL_EVENT_SHOW(_name, _str, _id, _show)			\
	(&((struct perf_pmu_events_attr[]) {				\
		{ .attr = { .attr = { .name = _name, .mode = 0444 },	\
			    .show = _show },				\
		  .id = _id, .event_str = _str, } })[0].attr.attr)

#define MODEL_EVENT(_name, _str, _id)					\
	MODEL_EVENT_SHOW(_name, _str, _id, model_event_show)

/*
 * The string alone, with no newline after it: what stock's files of
 * Skylake's total slots and recovery bubbles (and their scales) hold,
 * unlike its other events' (user space reading them whole sees it).
 */
static ssize_t bare_event_show(struct device *dev,
			       struct device_attribute *attr, char *page)
{
	struct perf_pmu_events_attr *ev =
		container_of(attr, struct perf_pmu_events_attr, attr);

	return sysfs_emit(page, "%s", ev->event_str);
}

#define MODEL_EVENT_BARE(_name, _str, _id)				\
	MODEL_EVENT_SHOW(_name, _str, _id, bare_event_show)

/*
 * A model event's string: its own, but for mem-loads and mem-stores, the
 * model's where they are not Skylake's (Sapphire Rapids samples stores by
 * 0x02cd, intel_pebs.c)
 */
static const char *model_event_str(const struct x86_intel_model *model,
				   const struct perf_pmu_events_attr *ev)
{
	const char *str = NULL;

	if (model && ev->id == MEM_PEBS)
		str = strcmp(ev->attr.attr.name, "mem-loads") ? model->mem_stores :
								 model->mem_loads;
	return str ?: ev->event_str;
}

static ssize_t model_event_show(struct device *dev,
				struct device_attribute *attr, char *page);

static struct attribute *events_attrs[] = {
	GENERIC("cpu-cycles", CPU_CYCLES),
	GENERIC("instructions", INSTRUCTIONS),
	GENERIC("cache-references", CACHE_REFERENCES),
	GENERIC("cache-misses", CACHE_MISSES),
	GENERIC("branch-instructions", BRANCH_INSTRUCTIONS),
	GENERIC("branch-misses", BRANCH_MISSES),
	GENERIC("bus-cycles", BUS_CYCLES),
	GENERIC("stalled-cycles-frontend", STALLED_CYCLES_FRONTEND),
	GENERIC("stalled-cycles-backend", STALLED_CYCLES_BACKEND),
	GENERIC("ref-cycles", REF_CPU_CYCLES),
	MODEL_EVENT("slots", "event=0x00,umask=0x4", 0),
	MODEL_EVENT("topdown-retiring", "event=0x00,umask=0x80", 1),
	MODEL_EVENT("topdown-bad-spec", "event=0x00,umask=0x81", 2),
	MODEL_EVENT("topdown-fe-bound", "event=0x00,umask=0x82", 3),
	MODEL_EVENT("topdown-be-bound", "event=0x00,umask=0x83", 4),
	MODEL_EVENT("topdown-heavy-ops", "event=0x00,umask=0x84", 5),
	MODEL_EVENT("topdown-br-mispredict", "event=0x00,umask=0x85", 6),
	MODEL_EVENT("topdown-fetch-lat", "event=0x00,umask=0x86", 7),
	MODEL_EVENT("topdown-mem-bound", "event=0x00,umask=0x87", 8),
	/* Skylake's topdown, from general events: 4 slots a cycle */
	MODEL_EVENT_BARE("topdown-total-slots", "event=0x3c,umask=0x0",
			 SKL_TOPDOWN),
	MODEL_EVENT_BARE("topdown-total-slots.scale", "4", SKL_TOPDOWN),
	MODEL_EVENT("topdown-slots-issued", "event=0xe,umask=0x1", SKL_TOPDOWN),
	MODEL_EVENT("topdown-slots-retired", "event=0xc2,umask=0x2", SKL_TOPDOWN),
	MODEL_EVENT("topdown-fetch-bubbles", "event=0x9c,umask=0x1", SKL_TOPDOWN),
	MODEL_EVENT_BARE("topdown-recovery-bubbles",
			 "event=0xd,umask=0x1,cmask=1", SKL_TOPDOWN),
	MODEL_EVENT_BARE("topdown-recovery-bubbles.scale", "4", SKL_TOPDOWN),
	MODEL_EVENT("mem-loads-aux", "event=0x03,umask=0x82", MEM_LOADS_AUX),
	/* the memory events of PEBS (intel_pebs.c): perf mem, perf c2c */
	MODEL_EVENT("mem-loads", "event=0xcd,umask=0x1,ldlat=3", MEM_PEBS),
	MODEL_EVENT("mem-stores", "event=0xd0,umask=0x82", MEM_PEBS),
	/* the Atom cores' topdown, from general events */
	MODEL_EVENT("topdown-retiring", "event=0xc2,umask=0x0", ATOM_TOPDOWN),
	MODEL_EVENT("topdown-bad-spec", "event=0x73,umask=0x0", ATOM_TOPDOWN),
	MODEL_EVENT("topdown-fe-bound", "event=0x71,umask=0x0", ATOM_TOPDOWN),
	MODEL_EVENT("topdown-be-bound", "event=0x74,umask=0x0", ATOM_TOPDOWN),
	NULL,
};

/*
 * What the P-core PMU of @desc's hybrid part says for event @name: its
 * model's string of the event of that name it lists (a metric, or a
 * memory event), "" where it has none
 */
static const char *core_event_str(const struct x86_core_desc *desc,
				  const char *name)
{
	const struct x86_intel_model *core = x86_intel_hybrid_model(desc, 0);
	struct perf_pmu_events_attr *ev;
	unsigned int i;

	for (i = 0; events_attrs[i]; i++) {
		ev = container_of(events_attrs[i], struct perf_pmu_events_attr,
				  attr.attr);
		if (strcmp(ev->attr.attr.name, name))
			continue;
		if (ev->id == MEM_PEBS ||
		    (ev->event_str && ev->id >= 1 && ev->id <= core->metrics))
			return model_event_str(core, ev);
	}
	return "";
}

/*
 * A model event's file.  On a hybrid part's PMU, as stock's read: the
 * string without a newline, and on the Atom type's PMU followed by NULs
 * up to the length of the P-core's string of the event, one separator
 * and its own (the joined strings stock keeps for both types).
 */
static ssize_t model_event_show(struct device *dev,
				struct device_attribute *attr, char *page)
{
	struct perf_pmu_events_attr *ev =
		container_of(attr, struct perf_pmu_events_attr, attr);
	const struct x86_core_desc *desc = dev_desc(dev);
	const char *str = model_event_str(desc->intel_model, ev);
	size_t len, joined;

	if (!desc->hybrid_type)
		return sysfs_emit(page, "%s\n", str);
	len = sysfs_emit(page, "%s", str);
	if (desc->hybrid_type != X86_HYBRID_ATOM)
		return len;
	joined = strlen(core_event_str(desc, attr->attr.name)) + 1 + len;
	joined = min_t(size_t, joined, PAGE_SIZE);
	memset(page + len, 0, joined - len);
	return joined;
}

/* only the events this CPU counts */
static umode_t events_visible(struct kobject *kobj, struct attribute *attr,
			      int i)
{
	struct perf_pmu_events_attr *ev =
		container_of(attr, struct perf_pmu_events_attr, attr.attr);
	const struct x86_core_desc *desc = kobj_desc(kobj);
	u64 evsel;

	if (ev->id == SKL_TOPDOWN)
		return desc->intel_model && desc->intel_model->topdown_events ?
		       attr->mode : 0;
	if (ev->id == MEM_LOADS_AUX)
		return desc->intel_model && desc->intel_model->mem_loads_aux ?
		       attr->mode : 0;
	if (ev->id == MEM_PEBS)
		return desc->pebs_fmt || desc->hybrid_type ? attr->mode : 0;
	if (ev->id == ATOM_TOPDOWN)
		return desc->intel_model && desc->intel_model->atom_topdown ?
		       attr->mode : 0;
	if (ev->event_str)
		return desc->metrics && ev->id <= desc->metrics ? attr->mode : 0;
	return x86_core_map_hw_event(desc, ev->id, &evsel) ? 0 : attr->mode;
}

static const struct attribute_group events_group = {
	.name		= "events",
	.attrs		= events_attrs,
	.is_visible	= events_visible,
};

/* ---- caps/ ---- */

static ssize_t pmu_name_show(struct device *dev, struct device_attribute *attr,
			     char *page)
{
	const struct x86_core_desc *desc = dev_desc(dev);

	if (desc->intel_model)
		return sysfs_emit(page, "%s\n", desc->intel_model->pmu_name);
	/* the architectural events of version 2 and later, whatever the part */
	if (desc->version >= 2)
		return sysfs_emit(page, "generic_arch_v2+\n");
	return sysfs_emit(page, "generic_arch_v%u\n", desc->version);
}

/* the highest precise_ip its events may ask for (0 without PEBS or IBS) */
static ssize_t max_precise_show(struct device *dev,
				struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "%u\n", dev_desc(dev)->max_precise);
}

/* the last branch records a branch stack can have (intel_lbr.c) */
static ssize_t branches_show(struct device *dev, struct device_attribute *attr,
			     char *page)
{
	return sysfs_emit(page, "%u\n", dev_desc(dev)->lbr_nr);
}

static DEVICE_ATTR_RO(pmu_name);
static DEVICE_ATTR_RO(max_precise);
static DEVICE_ATTR_RO(branches);

static struct attribute *caps_attrs[] = {
	&dev_attr_pmu_name.attr,
	&dev_attr_max_precise.attr,
	&dev_attr_branches.attr,
	NULL,
};

/* pmu_name is Intel's: AMD's core PMU has none; branches, where LBR is */
static umode_t caps_visible(struct kobject *kobj, struct attribute *attr,
			    int i)
{
	if (attr == &dev_attr_pmu_name.attr && is_amd(kobj_desc(kobj)))
		return 0;
	if (attr == &dev_attr_branches.attr && !kobj_desc(kobj)->lbr_nr)
		return 0;
	return attr->mode;
}

static const struct attribute_group caps_group = {
	.name		= "caps",
	.attrs		= caps_attrs,
	.is_visible	= caps_visible,
};

/* ---- freeze_on_smi ---- */

static ssize_t freeze_on_smi_show(struct device *dev,
				  struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "%d\n",
			  READ_ONCE(dev_driver(dev)->core.freeze_on_smi));
}

/* 0 or 1, in any base kstrtoul() reads */
static ssize_t freeze_on_smi_store(struct device *dev,
				   struct device_attribute *attr,
				   const char *buf, size_t count)
{
	unsigned long on;
	int err = kstrtoul(buf, 0, &on) ?: (on <= 1 ? 0 : -EINVAL);

	if (!err)
		x86_core_driver_set_freeze_on_smi(dev_driver(dev), on);
	return err ?: count;
}

static DEVICE_ATTR_RW(freeze_on_smi);

static struct attribute *smm_attrs[] = {
	&dev_attr_freeze_on_smi.attr,
	NULL,
};

/* IA32_DEBUGCTL's FREEZE_WHILE_SMM is Intel's */
static umode_t smm_visible(struct kobject *kobj, struct attribute *attr,
			   int i)
{
	return kobj_desc(kobj)->vendor == X86_CORE_INTEL ? attr->mode : 0;
}

static const struct attribute_group smm_group = {
	.attrs		= smm_attrs,
	.is_visible	= smm_visible,
};

/* ---- cpus: a hybrid PMU's CPUs ---- */

static ssize_t cpus_show(struct device *dev, struct device_attribute *attr,
			 char *page)
{
	return cpumap_print_to_pagebuf(true, page, &dev_driver(dev)->cpus);
}

static DEVICE_ATTR_RO(cpus);

static struct attribute *hybrid_attrs[] = {
	&dev_attr_cpus.attr,
	NULL,
};

static umode_t hybrid_visible(struct kobject *kobj, struct attribute *attr,
			      int i)
{
	return kobj_desc(kobj)->hybrid_type ? attr->mode : 0;
}

static const struct attribute_group hybrid_group = {
	.attrs		= hybrid_attrs,
	.is_visible	= hybrid_visible,
};

const struct attribute_group *x86_core_attr_groups[] = {
	&format_group,
	&events_group,
	&caps_group,
	&x86_core_rdpmc_group,
	&smm_group,
	&hybrid_group,
	NULL,
};
