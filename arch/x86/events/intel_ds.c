// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU Intel debug store area, which the CPU entry area maps for
 * every CPU.  It belongs to the (not yet built) Intel PEBS/BTS support and
 * stays unused until then: nobody programs MSR_IA32_DS_AREA, so a resume
 * from suspend has no DS pointer to restore either.
 */
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <asm/intel_ds.h>

DEFINE_PER_CPU_PAGE_ALIGNED(struct debug_store, cpu_debug_store);

void perf_restore_debug_store(void)
{
}
