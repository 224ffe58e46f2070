// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU across CPU low-power states.  A CPU that powers down loses its
 * PMU registers: on CPU_PM_ENTER every counting event is stopped and its
 * count folded in, and the global enable and EL0 access are remembered;
 * on CPU_PM_EXIT (or CPU_PM_ENTER_FAILED) the PMU is put back in its reset
 * state and those events start again from the counts they had, so that
 * they count on as if nothing happened.  An overflow pending when the CPU
 * went down is not reported: its count is kept, its sample is lost.
 *
 * Locking: the notifications run on the CPU concerned with IRQs off, so
 * they exclude the core's callbacks and the overflow interrupt there; the
 * saved state lives in that CPU's struct pmuv3_cpu (see pmuv3.h).
 */
#include <linux/cpu_pm.h>
#include <linux/notifier.h>
#include <linux/perf_event.h>
#include <asm/sysreg.h>

#include "pmuv3.h"

static void pmuv3_pm_save(struct pmuv3_cpu *cpu)
{
	struct perf_event *event;
	int idx;

	cpu->pm_running = read_sysreg(pmcr_el0) & PMUV3_PMCR_E;
	cpu->pm_userenr = read_sysreg(pmuserenr_el0);
	pmuv3_hw_stop();
	bitmap_zero(cpu->pm_stopped, PMUV3_NR_IDX);
	for (idx = 0; idx < PMUV3_NR_IDX; idx++) {
		event = cpu->events[idx];
		if (!event || (event->hw.state & PERF_HES_STOPPED))
			continue;
		pmuv3_stop(event, PERF_EF_UPDATE);
		__set_bit(idx, cpu->pm_stopped);
	}
}

static void pmuv3_pm_restore(struct pmuv3 *pmuv3, struct pmuv3_cpu *cpu)
{
	int idx;

	pmuv3_hw_reset(pmuv3);
	for_each_set_bit(idx, cpu->pm_stopped, PMUV3_NR_IDX)
		pmuv3_start(cpu->events[idx], PERF_EF_RELOAD);
	bitmap_zero(cpu->pm_stopped, PMUV3_NR_IDX);
	write_sysreg(cpu->pm_userenr, pmuserenr_el0);
	isb();
	if (cpu->pm_running)
		pmuv3_hw_start();
}

static int pmuv3_pm_notify(struct notifier_block *nb, unsigned long action,
			   void *unused)
{
	struct pmuv3 *pmuv3 = container_of(nb, struct pmuv3, pm_nb);
	struct pmuv3_cpu *cpu;

	if (!cpumask_test_cpu(smp_processor_id(), &pmuv3->arm.supported_cpus))
		return NOTIFY_DONE;
	cpu = this_cpu_ptr(pmuv3->cpu);
	switch (action) {
	case CPU_PM_ENTER:
		pmuv3_pm_save(cpu);
		break;
	case CPU_PM_ENTER_FAILED:
	case CPU_PM_EXIT:
		pmuv3_pm_restore(pmuv3, cpu);
		break;
	default:
		return NOTIFY_DONE;
	}
	return NOTIFY_OK;
}

int pmuv3_cpu_pm_register(struct pmuv3 *pmuv3)
{
	pmuv3->pm_nb.notifier_call = pmuv3_pm_notify;
	return cpu_pm_register_notifier(&pmuv3->pm_nb);
}

void pmuv3_cpu_pm_unregister(struct pmuv3 *pmuv3)
{
	cpu_pm_unregister_notifier(&pmuv3->pm_nb);
}
