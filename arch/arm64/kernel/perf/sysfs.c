// SPDX-License-Identifier: GPL-2.0
/*
 * What each PMUv3 instance shows under /sys/bus/event_source/devices/<pmu>:
 * events/ (the common events the CPUs implement, by their architectural
 * names), format/ (how config and config1 are laid out), caps/ (PMMIR_EL1
 * fields) and cpus.  Read-only attributes of data fixed at probe time; no
 * locking.
 */
#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>

#include "pmuv3.h"

static struct pmuv3 *dev_pmuv3(struct device *dev)
{
	return to_pmuv3(dev_get_drvdata(dev));
}

static ssize_t pmuv3_event_show(struct device *dev,
				struct device_attribute *attr, char *page)
{
	struct perf_pmu_events_attr *ev =
		container_of(attr, struct perf_pmu_events_attr, attr);

	return sysfs_emit(page, "event=0x%04llx\n", ev->id);
}

#define EVENT(_name, _num) PMU_EVENT_ATTR_ID(_name, pmuv3_event_show, _num)

/*
 * The PMUv3 common architectural and microarchitectural events.  SW_INCR
 * and CHAIN are not listed: the first counts writes to PMSWINC_EL0 only,
 * the second the overflows of the counter below, which the driver itself
 * programs for 64-bit counts.
 */
static struct attribute *events_attrs[] = {
	EVENT(l1i_cache_refill, 0x01),
	EVENT(l1i_tlb_refill, 0x02),
	EVENT(l1d_cache_refill, 0x03),
	EVENT(l1d_cache, 0x04),
	EVENT(l1d_tlb_refill, 0x05),
	EVENT(ld_retired, 0x06),
	EVENT(st_retired, 0x07),
	EVENT(inst_retired, 0x08),
	EVENT(exc_taken, 0x09),
	EVENT(exc_return, 0x0a),
	EVENT(cid_write_retired, 0x0b),
	EVENT(pc_write_retired, 0x0c),
	EVENT(br_immed_retired, 0x0d),
	EVENT(br_return_retired, 0x0e),
	EVENT(unaligned_ldst_retired, 0x0f),
	EVENT(br_mis_pred, 0x10),
	EVENT(cpu_cycles, 0x11),
	EVENT(br_pred, 0x12),
	EVENT(mem_access, 0x13),
	EVENT(l1i_cache, 0x14),
	EVENT(l1d_cache_wb, 0x15),
	EVENT(l2d_cache, 0x16),
	EVENT(l2d_cache_refill, 0x17),
	EVENT(l2d_cache_wb, 0x18),
	EVENT(bus_access, 0x19),
	EVENT(memory_error, 0x1a),
	EVENT(inst_spec, 0x1b),
	EVENT(ttbr_write_retired, 0x1c),
	EVENT(bus_cycles, 0x1d),
	EVENT(l1d_cache_allocate, 0x1f),
	EVENT(l2d_cache_allocate, 0x20),
	EVENT(br_retired, 0x21),
	EVENT(br_mis_pred_retired, 0x22),
	EVENT(stall_frontend, 0x23),
	EVENT(stall_backend, 0x24),
	EVENT(l1d_tlb, 0x25),
	EVENT(l1i_tlb, 0x26),
	EVENT(l2i_cache, 0x27),
	EVENT(l2i_cache_refill, 0x28),
	EVENT(l3d_cache_allocate, 0x29),
	EVENT(l3d_cache_refill, 0x2a),
	EVENT(l3d_cache, 0x2b),
	EVENT(l3d_cache_wb, 0x2c),
	EVENT(l2d_tlb_refill, 0x2d),
	EVENT(l2i_tlb_refill, 0x2e),
	EVENT(l2d_tlb, 0x2f),
	EVENT(l2i_tlb, 0x30),
	EVENT(remote_access, 0x31),
	EVENT(ll_cache, 0x32),
	EVENT(ll_cache_miss, 0x33),
	EVENT(dtlb_walk, 0x34),
	EVENT(itlb_walk, 0x35),
	EVENT(ll_cache_rd, 0x36),
	EVENT(ll_cache_miss_rd, 0x37),
	EVENT(remote_access_rd, 0x38),
	EVENT(l1d_cache_lmiss_rd, 0x39),
	EVENT(op_retired, 0x3a),
	EVENT(op_spec, 0x3b),
	EVENT(stall, 0x3c),
	EVENT(stall_slot_backend, 0x3d),
	EVENT(stall_slot_frontend, 0x3e),
	EVENT(stall_slot, 0x3f),
	EVENT(sample_pop, 0x4000),
	EVENT(sample_feed, 0x4001),
	EVENT(sample_filtrate, 0x4002),
	EVENT(sample_collision, 0x4003),
	EVENT(cnt_cycles, 0x4004),
	EVENT(stall_backend_mem, 0x4005),
	EVENT(l1i_cache_lmiss, 0x4006),
	EVENT(l2d_cache_lmiss_rd, 0x4009),
	EVENT(l2i_cache_lmiss, 0x400a),
	EVENT(l3d_cache_lmiss_rd, 0x400b),
	EVENT(trb_wrap, 0x400c),
	EVENT(pmu_ovfs, 0x400d),
	EVENT(trb_trig, 0x400e),
	EVENT(pmu_hovfs, 0x400f),
	EVENT(trcextout0, 0x4010),
	EVENT(trcextout1, 0x4011),
	EVENT(trcextout2, 0x4012),
	EVENT(trcextout3, 0x4013),
	EVENT(cti_trigout4, 0x4018),
	EVENT(cti_trigout5, 0x4019),
	EVENT(cti_trigout6, 0x401a),
	EVENT(cti_trigout7, 0x401b),
	EVENT(ldst_align_lat, 0x4020),
	EVENT(ld_align_lat, 0x4021),
	EVENT(st_align_lat, 0x4022),
	EVENT(mem_access_checked, 0x4024),
	EVENT(mem_access_checked_rd, 0x4025),
	EVENT(mem_access_checked_wr, 0x4026),
	NULL,
};

/* Only the events the CPUs say they implement are shown. */
static umode_t events_visible(struct kobject *kobj, struct attribute *attr,
			      int unused)
{
	struct pmuv3 *pmuv3 = dev_pmuv3(kobj_to_dev(kobj));
	struct perf_pmu_events_attr *ev =
		container_of(attr, struct perf_pmu_events_attr, attr.attr);

	return pmuv3_event_implemented(ev->id, pmuv3->implemented) ?
	       attr->mode : 0;
}

static const struct attribute_group events_group = {
	.name = "events",
	.attrs = events_attrs,
	.is_visible = events_visible,
};

PMU_FORMAT_ATTR(event, "config:0-15");
PMU_FORMAT_ATTR(long, "config1:0");
PMU_FORMAT_ATTR(rdpmc, "config1:1");
PMU_FORMAT_ATTR(threshold_count, "config1:2");
PMU_FORMAT_ATTR(threshold_compare, "config1:3-4");
PMU_FORMAT_ATTR(threshold, "config1:5-16");

static struct attribute *format_attrs[] = {
	&format_attr_event.attr,
	&format_attr_long.attr,
	&format_attr_rdpmc.attr,
	&format_attr_threshold_count.attr,
	&format_attr_threshold_compare.attr,
	&format_attr_threshold.attr,
	NULL,
};

static const struct attribute_group format_group = {
	.name = "format",
	.attrs = format_attrs,
};

static ssize_t slots_show(struct device *dev, struct device_attribute *attr,
			  char *page)
{
	u32 slots = FIELD_GET(PMUV3_PMMIR_SLOTS, dev_pmuv3(dev)->pmmir);

	return sysfs_emit(page, "0x%08x\n", slots);
}
static DEVICE_ATTR_RO(slots);

static ssize_t bus_slots_show(struct device *dev, struct device_attribute *attr,
			      char *page)
{
	u32 slots = FIELD_GET(PMUV3_PMMIR_BUS_SLOTS, dev_pmuv3(dev)->pmmir);

	return sysfs_emit(page, "0x%08x\n", slots);
}
static DEVICE_ATTR_RO(bus_slots);

/* PMMIR_EL1.BUS_WIDTH holds log2(bytes) + 1; 0 means not specified */
static ssize_t bus_width_show(struct device *dev, struct device_attribute *attr,
			      char *page)
{
	u32 field = FIELD_GET(PMUV3_PMMIR_BUS_WIDTH, dev_pmuv3(dev)->pmmir);

	return sysfs_emit(page, "0x%08x\n", field ? 1U << (field - 1) : 0);
}
static DEVICE_ATTR_RO(bus_width);

static ssize_t threshold_max_show(struct device *dev,
				  struct device_attribute *attr, char *page)
{
	u32 width = FIELD_GET(PMUV3_PMMIR_THWIDTH, dev_pmuv3(dev)->pmmir);

	return sysfs_emit(page, "0x%08x\n", (u32)((1ULL << width) - 1));
}
static DEVICE_ATTR_RO(threshold_max);

static struct attribute *caps_attrs[] = {
	&dev_attr_slots.attr,
	&dev_attr_bus_slots.attr,
	&dev_attr_bus_width.attr,
	&dev_attr_threshold_max.attr,
	NULL,
};

static const struct attribute_group caps_group = {
	.name = "caps",
	.attrs = caps_attrs,
};

static ssize_t cpus_show(struct device *dev, struct device_attribute *attr,
			 char *page)
{
	return cpumap_print_to_pagebuf(true, page, &dev_pmuv3(dev)->arm.supported_cpus);
}
static DEVICE_ATTR_RO(cpus);

static struct attribute *common_attrs[] = {
	&dev_attr_cpus.attr,
	NULL,
};

static const struct attribute_group common_group = {
	.attrs = common_attrs,
};

const struct attribute_group *pmuv3_attr_groups[] = {
	&events_group,
	&format_group,
	&caps_group,
	&common_group,
	NULL,
};
