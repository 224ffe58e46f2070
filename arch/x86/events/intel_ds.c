// SPDX-License-Identifier: GPL-2.0
/*
 * The Intel debug store (DS) area of each CPU and its PEBS buffer (Intel
 * SDM vol. 3B, "Debug Store (DS) Mechanism").
 *
 * A CPU writes PEBS records through linear addresses, whatever page
 * tables are loaded when the assist runs (a user task's, with page table
 * isolation): so the DS save area and the buffer are reached through the
 * CPU entry area, which every page table maps.  The save area
 * (cpu_debug_store, one page a CPU) is mapped there at boot by the x86
 * mm code; IA32_DS_AREA points each CPU at its mapping as the CPU comes
 * up, and again after a resume.  The PEBS buffers (PEBS_BUFFER_SIZE a
 * CPU) exist only while some event may use them: the first precise event
 * allocates them for every possible CPU and maps them at the CPU entry
 * area's buffer slot; the last one to go unmaps and frees them.
 *
 * Locking: ds_lock (a mutex) orders reservations and releases, which
 * sleep; ds_users counts the events holding the buffers.  A CPU's save
 * area is otherwise written by that CPU alone, IRQs off (intel_pebs.c).
 */
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <asm/cpu_entry_area.h>
#include <asm/intel_ds.h>
#include <asm/msr.h>
#include <asm/tlbflush.h>

#include "cpu_pmu.h"

DEFINE_PER_CPU_PAGE_ALIGNED(struct debug_store, cpu_debug_store);

static DEFINE_MUTEX(ds_lock);
static unsigned int ds_users;
static DEFINE_PER_CPU(struct page *, ds_pebs_pages);
/* IA32_DS_AREA is written on the CPUs: the boot driver has PEBS */
static bool ds_present;

static void *cea_pebs_buffer(unsigned int cpu)
{
	return &get_cpu_entry_area(cpu)->cpu_debug_buffers.pebs_buffer;
}

/* this CPU's IA32_DS_AREA: its save area, as the CPU entry area maps it */
void x86_ds_cpu_up(void)
{
	if (ds_present)
		wrmsrl(MSR_IA32_DS_AREA, x86_ds_area());
}

/*
 * What this CPU's IA32_DS_AREA holds: x86_ds_cpu_up()'s, or 0.  Called
 * with preemption disabled.
 */
u64 x86_ds_area(void)
{
	if (!ds_present)
		return 0;
	return (unsigned long)&get_cpu_entry_area(smp_processor_id())->cpu_debug_store;
}

/* the boot driver found PEBS: CPUs coming up from now on get a DS area */
void x86_ds_enable(void)
{
	ds_present = true;
}

/* arch/x86/power/cpu.c: after a resume, IA32_DS_AREA is back at 0 */
void perf_restore_debug_store(void)
{
	x86_ds_cpu_up();
}

/* map or unmap (@page NULL) @cpu's PEBS buffer in the CPU entry area */
static void ds_map_pebs(unsigned int cpu, struct page *page)
{
	char *cea = cea_pebs_buffer(cpu);
	unsigned int i;

	for (i = 0; i < PEBS_BUFFER_SIZE / PAGE_SIZE; i++)
		cea_set_pte(cea + i * PAGE_SIZE,
			    page ? page_to_phys(page) + i * PAGE_SIZE : 0,
			    page ? PAGE_KERNEL : PAGE_NONE);
	flush_tlb_kernel_range((unsigned long)cea,
			       (unsigned long)cea + PEBS_BUFFER_SIZE);
}

/*
 * The save area's PEBS fields of @cpu: the buffer, an empty index, and
 * the absolute maximum a whole number of @record bytes records from the
 * base, a record's room short of the end: adaptive records vary in size
 * (up to @record), and one that starts below the maximum must end in the
 * buffer (the threshold, intel_pebs.c's to set, at the first record).
 */
static void ds_init_pebs(unsigned int cpu, unsigned int record)
{
	struct debug_store *ds = per_cpu_ptr(&cpu_debug_store, cpu);
	u64 base = (unsigned long)cea_pebs_buffer(cpu);

	ds->pebs_buffer_base = base;
	ds->pebs_index = base;
	ds->pebs_absolute_maximum = base +
		(PEBS_BUFFER_SIZE - record) / record * record;
	ds->pebs_interrupt_threshold = base + record;
}

static void ds_free_all(void)
{
	struct debug_store *ds;
	unsigned int cpu;
	struct page *page;

	for_each_possible_cpu(cpu) {
		page = per_cpu(ds_pebs_pages, cpu);
		if (!page)
			continue;
		ds = per_cpu_ptr(&cpu_debug_store, cpu);
		ds->pebs_buffer_base = 0;
		ds->pebs_index = 0;
		ds->pebs_absolute_maximum = 0;
		ds->pebs_interrupt_threshold = 0;
		ds_map_pebs(cpu, NULL);
		__free_pages(page, get_order(PEBS_BUFFER_SIZE));
		per_cpu(ds_pebs_pages, cpu) = NULL;
	}
}

/**
 * x86_ds_reserve - hold every CPU's PEBS buffer, allocating it if needed
 * @record: the size of one PEBS record of this PMU
 *
 * Sleeps.  Return: 0 or -ENOMEM (nothing held).
 */
int x86_ds_reserve(unsigned int record)
{
	struct page *page;
	unsigned int cpu;
	int ret = 0;

	mutex_lock(&ds_lock);
	if (ds_users++)
		goto out;
	for_each_possible_cpu(cpu) {
		page = alloc_pages_node(cpu_to_node(cpu),
					GFP_KERNEL | __GFP_ZERO,
					get_order(PEBS_BUFFER_SIZE));
		if (!page) {
			ds_free_all();
			ds_users--;
			ret = -ENOMEM;
			goto out;
		}
		per_cpu(ds_pebs_pages, cpu) = page;
		ds_map_pebs(cpu, page);
		ds_init_pebs(cpu, record);
	}
out:
	mutex_unlock(&ds_lock);
	return ret;
}

/**
 * x86_ds_release - drop a hold of x86_ds_reserve()
 *
 * The last one frees the buffers: no PEBS event is left, so no CPU has
 * PEBS enabled to write into them.  Sleeps.
 */
void x86_ds_release(void)
{
	mutex_lock(&ds_lock);
	if (!--ds_users)
		ds_free_all();
	mutex_unlock(&ds_lock);
}
