// SPDX-License-Identifier: GPL-2.0
/*
 * User-space counter reads on the x86 core PMU: the rdpmc instruction,
 * allowed in ring 3 by CR4.PCE.  The sysfs attribute cpu/rdpmc chooses
 * the policy: 0, never; 1 (the default), in an mm that maps the user page
 * of a core PMU event; 2, always.  The user page of such an event then
 * says cap_user_rdpmc and pmc_width, and gives in index the counter number
 * rdpmc wants plus one while the event is on a counter (0 otherwise, and
 * always with the policy 0).  CR4.PCE itself follows the mm on context
 * switches (arch/x86/mm/tlb.c, from mm->context.perf_rdpmc_allowed and the
 * two static keys below); this file changes what it reads and asks the
 * CPUs running the mm to look again.  Counters that no event of the CPU
 * uses are cleared before a task gets rdpmc, so that it does not read
 * what someone else counted.
 *
 * Locking: rdpmc_mutex serialises writes of the policy; readers take it
 * with READ_ONCE().  mm->context.perf_rdpmc_allowed is atomic; the
 * mapping callbacks run with the mm's mmap_lock held and IRQs on.
 */
#include <linux/device.h>
#include <linux/jump_label.h>
#include <linux/mmu_context.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/smp.h>
#include <asm/perf_event.h>

#include "cpu_pmu.h"

enum { RDPMC_NEVER, RDPMC_MAPPED, RDPMC_ALWAYS };

static unsigned int rdpmc_mode = RDPMC_MAPPED;
static DEFINE_MUTEX(rdpmc_mutex);

/* read by switch_mm (arch/x86/mm/tlb.c) */
DEFINE_STATIC_KEY_FALSE(rdpmc_never_available_key);
DEFINE_STATIC_KEY_FALSE(rdpmc_always_available_key);

/* every event of the core PMU may be read with rdpmc once mapped */
void x86_core_user_event_init(struct perf_event *event)
{
	event->hw.flags |= PERF_EVENT_FLAG_USER_READ_CNT;
}

static bool user_readable(struct perf_event *event)
{
	return (event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT) &&
	       READ_ONCE(rdpmc_mode) != RDPMC_NEVER;
}

/* the user page's index: rdpmc's ECX plus one, 0 when it may not read */
int x86_core_user_event_idx(struct perf_event *event)
{
	if (!user_readable(event) || event->hw.idx < 0)
		return 0;
	return event->hw.event_base_rdpmc + 1;
}

void x86_core_user_event_mapped(struct perf_event *event, struct mm_struct *mm)
{
	if (!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return;
	if (atomic_inc_return(&mm->context.perf_rdpmc_allowed) == 1)
		on_each_cpu_mask(mm_cpumask(mm), cr4_update_pce, NULL, 1);
}

void x86_core_user_event_unmapped(struct perf_event *event,
				  struct mm_struct *mm)
{
	if (!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return;
	if (atomic_dec_and_test(&mm->context.perf_rdpmc_allowed))
		on_each_cpu_mask(mm_cpumask(mm), cr4_update_pce, NULL, 1);
}

/*
 * The rdpmc fields of an event's user page (see arch.c for the rest).
 * pmc_width is the core PMU's counter width on every event's page, as
 * Linux has always shown it, rdpmc allowed or not.
 */
void x86_core_user_update_userpage(struct perf_event *event,
				   struct perf_event_mmap_page *up)
{
	struct x86_core_driver *drv = x86_core_driver_of(event->pmu);
	struct x86_core_driver *native = x86_core_native();

	up->cap_user_rdpmc = 0;
	up->pmc_width = native ? native->core.desc.gp_width : 0;
	if (!drv || !user_readable(event))
		return;
	up->cap_user_rdpmc = 1;
	up->pmc_width = event->hw.idx >= X86_CORE_IDX_FIXED ?
			drv->core.desc.fixed_width : drv->core.desc.gp_width;
}

/*
 * switch_mm is about to give a task rdpmc: clear the counters no event of
 * this CPU is on.  IRQs off.
 */
void perf_clear_dirty_counters(void)
{
	struct x86_core_driver *drv = x86_core_local();
	const struct x86_core_desc *desc;
	const struct x86_core_cpu *cpu;
	unsigned int i;

	if (!drv)
		return;
	desc = &drv->core.desc;
	cpu = &this_cpu_ptr(drv->state)->counters;
	if (!cpu->core)
		return;
	for (i = 0; i < desc->num_gp; i++)
		if (!(cpu->used & BIT_ULL(i)))
			x86_hw_wrmsr(drv->core.hw, x86_core_ctr_msr(desc, i), 0);
	for (i = 0; i < X86_CORE_NR_FIXED; i++)
		if ((desc->fixed_mask & BIT(i)) &&
		    !(cpu->used & BIT_ULL(X86_CORE_IDX_FIXED + i)))
			x86_hw_wrmsr(drv->core.hw, MSR_CORE_PERF_FIXED_CTR0 + i, 0);
}

static ssize_t rdpmc_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(rdpmc_mode));
}

static ssize_t rdpmc_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	unsigned int mode;
	int ret;

	ret = kstrtouint(buf, 0, &mode);
	if (ret)
		return ret;
	if (mode > RDPMC_ALWAYS)
		return -EINVAL;
	mutex_lock(&rdpmc_mutex);
	if (mode != rdpmc_mode) {
		if (mode == RDPMC_NEVER)
			static_branch_enable(&rdpmc_never_available_key);
		else if (rdpmc_mode == RDPMC_NEVER)
			static_branch_disable(&rdpmc_never_available_key);
		if (mode == RDPMC_ALWAYS)
			static_branch_enable(&rdpmc_always_available_key);
		else if (rdpmc_mode == RDPMC_ALWAYS)
			static_branch_disable(&rdpmc_always_available_key);
		WRITE_ONCE(rdpmc_mode, mode);
		/* every CPU looks at its mm again */
		on_each_cpu(cr4_update_pce, NULL, 1);
	}
	mutex_unlock(&rdpmc_mutex);
	return count;
}

static DEVICE_ATTR_RW(rdpmc);

static struct attribute *rdpmc_attrs[] = {
	&dev_attr_rdpmc.attr,
	NULL,
};

const struct attribute_group x86_core_rdpmc_group = {
	.attrs = rdpmc_attrs,
};
