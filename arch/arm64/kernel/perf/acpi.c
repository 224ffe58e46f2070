// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the PMUs on ACPI systems.  ACPI has no PMU node: each CPU's MADT
 * GICC entry names the GSI of its PMU overflow interrupt, and the CPUs of
 * one kind (one MIDR_EL1 implementer and part number) share one PMU.  At
 * boot, the online CPUs are grouped by kind; for each group the overflow
 * interrupt is registered (one PPI shared by the group, or one SPI per CPU)
 * and probe.c brings up and registers an instance named armv8_pmuv3_<n>,
 * without a parent device, the names and sysfs places user space knows.
 *
 * CPUs brought up for the first time after boot are not served.
 *
 * Locking: runs once, at device_initcall time, in one thread; an instance
 * is shared only once pmuv3_instance_add() has registered it.
 */
#include <linux/acpi.h>
#include <linux/cpumask.h>
#include <linux/init.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/slab.h>
#include <asm/cpu.h>
#include <asm/cputype.h>

#include "pmuv3.h"

/* The GICC entry of @cpu, if it names an overflow interrupt. */
static struct acpi_madt_generic_interrupt *__init pmuv3_acpi_gicc(int cpu)
{
	struct acpi_madt_generic_interrupt *gicc = acpi_cpu_get_madt_gicc(cpu);

	return gicc && gicc->performance_interrupt ? gicc : NULL;
}

static int __init pmuv3_acpi_register_gsi(int cpu)
{
	struct acpi_madt_generic_interrupt *gicc = pmuv3_acpi_gicc(cpu);
	int trigger = ACPI_LEVEL_SENSITIVE;

	if (gicc->flags & ACPI_MADT_PERFORMANCE_IRQ_MODE)
		trigger = ACPI_EDGE_SENSITIVE;
	return acpi_register_gsi(NULL, gicc->performance_interrupt, trigger,
				 ACPI_ACTIVE_HIGH);
}

static void __init pmuv3_acpi_unregister_gsis(const struct cpumask *cpus,
					      int nr)
{
	int cpu;

	for_each_cpu(cpu, cpus) {
		if (nr-- <= 0)
			break;
		acpi_unregister_gsi(pmuv3_acpi_gicc(cpu)->performance_interrupt);
	}
}

/*
 * Register the overflow interrupt(s) of @pmuv3's CPUs: a PPI as
 * @pmuv3->irq, else an SPI per CPU.  Without an interrupt for every CPU,
 * the PMU gets none (it then counts but cannot sample).
 */
static void __init pmuv3_acpi_irqs(struct pmuv3 *pmuv3)
{
	int cpu, irq, nr = 0;

	for_each_cpu(cpu, &pmuv3->arm.supported_cpus)
		if (!pmuv3_acpi_gicc(cpu))
			return;
	for_each_cpu(cpu, &pmuv3->arm.supported_cpus) {
		irq = pmuv3_acpi_register_gsi(cpu);
		if (irq < 0) {
			pr_warn("pmuv3: CPU%d: overflow interrupt: %d\n", cpu, irq);
			pmuv3_acpi_unregister_gsis(&pmuv3->arm.supported_cpus, nr);
			pmuv3->irq = 0;
			return;
		}
		nr++;
		if (!pmuv3->irq)
			pmuv3->irq = irq;
		if (irq_is_percpu_devid(irq))
			return;
		per_cpu_ptr(pmuv3->cpu, cpu)->irq = irq;
	}
}

static void __init pmuv3_acpi_add(const struct cpumask *cpus, int n)
{
	struct pmuv3 *pmuv3 = pmuv3_instance_alloc(cpus);
	char name[sizeof(pmuv3->name)];
	int ret = -ENOMEM;

	if (pmuv3) {
		pmuv3_acpi_irqs(pmuv3);
		snprintf(name, sizeof(name), "armv8_pmuv3_%d", n);
		ret = pmuv3_instance_add(pmuv3, NULL, name);
	}
	if (!ret)
		return;
	pr_warn("pmuv3: CPUs %*pbl: no PMU: %d\n", cpumask_pr_args(cpus), ret);
	if (!pmuv3)
		return;
	if (pmuv3->irq > 0)
		pmuv3_acpi_unregister_gsis(cpus, irq_is_percpu_devid(pmuv3->irq) ?
					   1 : cpumask_weight(cpus));
	pmuv3_instance_free(pmuv3);
}

/* One PMU for each kind of CPU online now. */
void __init pmuv3_acpi_probe(void)
{
	static cpumask_t left __initdata, same __initdata;
	int first, cpu, n = 0;
	u32 model;

	if (acpi_disabled)
		return;
	cpumask_copy(&left, cpu_online_mask);
	while (!cpumask_empty(&left)) {
		first = cpumask_first(&left);
		model = per_cpu(cpu_data, first).reg_midr & MIDR_CPU_MODEL_MASK;
		cpumask_clear(&same);
		for_each_cpu(cpu, &left)
			if ((per_cpu(cpu_data, cpu).reg_midr &
			     MIDR_CPU_MODEL_MASK) == model)
				cpumask_set_cpu(cpu, &same);
		cpumask_andnot(&left, &left, &same);
		pmuv3_acpi_add(&same, n++);
	}
}
