// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the PMUs: each device tree PMU node (the generic
 * "arm,armv8-pmuv3" or a per-core compatible) becomes one PMU instance for
 * the CPUs its interrupt reaches; on ACPI systems acpi.c makes one
 * instance per kind of CPU.  Probing reads the PMU's shape on one of
 * those CPUs (ID_AA64DFR0_EL1.PMUVer, PMCR_EL0.N, PMCEID0/1_EL0,
 * PMMIR_EL1), requests the overflow interrupt, brings every CPU's PMU to a
 * known state through the CPU hotplug STARTING callbacks, and registers the
 * instance with the core under a dynamic type, then with KVM, whose
 * guests get virtual PMUs backed by it.
 *
 * Locking: probes run one at a time under pmuv3_list_lock, which also
 * guards the list of instances (used to give each a unique name) and the
 * mask of the CPUs they serve.  The hotplug callbacks run on the CPU
 * concerned with IRQs off and only touch its registers.
 */
#include <linux/cpu.h>
#include <linux/cpufeature.h>
#include <linux/cpuhotplug.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/percpu.h>
#include <linux/platform_device.h>
#include <linux/smp.h>
#include <asm/sysreg.h>

#include "pmuv3.h"

static LIST_HEAD(pmuv3_list);
static DEFINE_MUTEX(pmuv3_list_lock);
/* every CPU some registered instance serves (pmuv3_list_lock) */
static cpumask_t pmuv3_all_cpus;

/* What one CPU says about its PMU. */
struct pmuv3_ids {
	unsigned int	pmuver;		/* ID_AA64DFR0_EL1.PMUVer */
	u64		pmcr;
	u64		pmceid0;
	u64		pmceid1;
	u64		pmmir;
};

/*
 * ID_AA64DFR0_EL1.PMUVer, bits [11:8]: 0 no PMU, 1 PMUv3, 4 PMUv3p1,
 * 5 PMUv3p4 (PMMIR_EL1 exists), 6 PMUv3p5 (64-bit event counters), and
 * later versions above; 0xf an IMPLEMENTATION DEFINED PMU, not PMUv3.
 */
#define PMUVER_SHIFT	8
#define PMUVER_NONE	0x0
#define PMUVER_V3P4	0x5
#define PMUVER_V3P5	0x6
#define PMUVER_IMP_DEF	0xf

static bool pmuver_has_pmuv3(unsigned int pmuver)
{
	return pmuver != PMUVER_NONE && pmuver != PMUVER_IMP_DEF;
}

static void read_ids(void *arg)
{
	struct pmuv3_ids *ids = arg;
	u64 dfr0 = read_sysreg(id_aa64dfr0_el1);

	ids->pmuver = cpuid_feature_extract_unsigned_field(dfr0, PMUVER_SHIFT);
	if (!pmuver_has_pmuv3(ids->pmuver))
		return;
	ids->pmcr = read_sysreg(pmcr_el0);
	ids->pmceid0 = read_sysreg(pmceid0_el0);
	ids->pmceid1 = read_sysreg(pmceid1_el0);
	if (ids->pmuver >= PMUVER_V3P4)
		ids->pmmir = read_sysreg_s(SYS_PMMIR_EL1);
}

/* The struct arm_pmu view of @pmuv3 that KVM reads (see pmuv3.h). */
static void pmuv3_fill_arm_pmu(struct pmuv3 *pmuv3, unsigned int pmuver)
{
	struct arm_pmu *arm = &pmuv3->arm;

	arm->name = pmuv3->name;
	arm->pmuver = pmuver;
	bitmap_zero(arm->cntr_mask, ARMPMU_MAX_HWEVENTS);
	bitmap_set(arm->cntr_mask, 0, pmuv3->nr_counters);
	set_bit(PMUV3_IDX_CYCLES, arm->cntr_mask);
	bitmap_copy(arm->pmceid_bitmap, pmuv3->implemented,
		    ARMV8_PMUV3_MAX_COMMON_EVENTS);
	bitmap_copy(arm->pmceid_ext_bitmap,
		    pmuv3->implemented + BITS_TO_LONGS(64),
		    ARMV8_PMUV3_MAX_COMMON_EVENTS);
}

/* Learn the counters and events of @pmuv3 from one of its CPUs. */
static int pmuv3_read_shape(struct pmuv3 *pmuv3)
{
	struct pmuv3_ids ids = { 0 };
	int ret;

	ret = smp_call_function_any(&pmuv3->arm.supported_cpus, read_ids, &ids, 1);
	if (ret)
		return ret;
	if (!pmuver_has_pmuv3(ids.pmuver))
		return -ENODEV;
	pmuv3->nr_counters = min_t(int, FIELD_GET(PMUV3_PMCR_N, ids.pmcr),
				   PMUV3_MAX_EVENT_COUNTERS);
	pmuv3->has_64bit = ids.pmuver >= PMUVER_V3P5;
	pmuv3->pmmir = ids.pmmir;
	pmuv3_read_implemented(ids.pmceid0, ids.pmceid1, pmuv3->implemented);
	pmuv3_fill_arm_pmu(pmuv3, ids.pmuver);
	pr_info("pmuv3: %s: PMUv3 version %u, %d event counters + cycle counter%s, PMCEID %#llx %#llx\n",
		pmuv3->name, ids.pmuver, pmuv3->nr_counters,
		pmuv3->has_64bit ? ", 64-bit" : "", ids.pmceid0, ids.pmceid1);
	return 0;
}

/*
 * The CPUs a PMU node serves: those its "interrupt-affinity" lists, the
 * partition of its PPI, or else every possible CPU.
 */
static int pmuv3_of_cpus(struct platform_device *pdev, int irq,
			 cpumask_t *cpus)
{
	struct device_node *node = pdev->dev.of_node;
	struct device_node *cpu_node;
	int i, cpu;

	cpumask_clear(cpus);
	for (i = 0; (cpu_node = of_parse_phandle(node, "interrupt-affinity", i)); i++) {
		cpu = of_cpu_node_to_id(cpu_node);
		of_node_put(cpu_node);
		if (cpu < 0)
			return -EINVAL;
		cpumask_set_cpu(cpu, cpus);
	}
	if (!cpumask_empty(cpus))
		return 0;
	if (irq > 0 && irq_is_percpu_devid(irq) &&
	    !irq_get_percpu_devid_partition(irq, cpus) && !cpumask_empty(cpus))
		return 0;
	cpumask_copy(cpus, cpu_possible_mask);
	return 0;
}

/* Free the overflow interrupts that pmuv3_request_irqs() got. */
static void pmuv3_free_irqs(struct pmuv3 *pmuv3)
{
	struct pmuv3_cpu *pc;
	int cpu;

	if (pmuv3->irq_percpu) {
		free_percpu_irq(pmuv3->irq, pmuv3->cpu);
		return;
	}
	for_each_cpu(cpu, &pmuv3->arm.supported_cpus) {
		pc = per_cpu_ptr(pmuv3->cpu, cpu);
		if (pc->irq_requested)
			free_irq(pc->irq, pc);
		pc->irq_requested = false;
	}
}

/*
 * The overflow interrupt: one PPI for all CPUs (@pmuv3->irq), or one SPI
 * per CPU (each struct pmuv3_cpu's irq).  A PMU without one still counts
 * (32-bit counts may then wrap unseen) but cannot sample.
 */
static int pmuv3_request_irqs(struct pmuv3 *pmuv3)
{
	struct pmuv3_cpu *pc;
	int cpu, ret;

	if (pmuv3->irq <= 0) {
		pr_warn("pmuv3: %s: no overflow interrupt\n", pmuv3->name);
		pmuv3->arm.pmu.capabilities |= PERF_PMU_CAP_NO_INTERRUPT;
		return 0;
	}
	if (irq_is_percpu_devid(pmuv3->irq)) {
		pmuv3->irq_percpu = true;
		return request_percpu_irq(pmuv3->irq, pmuv3_overflow_irq,
					  "arm-pmu", pmuv3->cpu);
	}
	for_each_cpu(cpu, &pmuv3->arm.supported_cpus) {
		pc = per_cpu_ptr(pmuv3->cpu, cpu);
		irq_set_status_flags(pc->irq, IRQ_NOAUTOEN);
		ret = irq_force_affinity(pc->irq, cpumask_of(cpu));
		if (!ret)
			ret = request_irq(pc->irq, pmuv3_overflow_irq,
					  IRQF_NOBALANCING | IRQF_NO_THREAD,
					  "arm-pmu", pc);
		if (ret) {
			pmuv3_free_irqs(pmuv3);
			return ret;
		}
		pc->irq_requested = true;
		enable_irq(pc->irq);
	}
	return 0;
}

static int pmuv3_cpu_starting(unsigned int cpu, struct hlist_node *node)
{
	struct pmuv3 *pmuv3 = hlist_entry_safe(node, struct pmuv3, node);

	if (!cpumask_test_cpu(cpu, &pmuv3->arm.supported_cpus))
		return 0;
	pmuv3_hw_reset(pmuv3);
	if (pmuv3->irq_percpu)
		enable_percpu_irq(pmuv3->irq, IRQ_TYPE_NONE);
	return 0;
}

static int pmuv3_cpu_dying(unsigned int cpu, struct hlist_node *node)
{
	struct pmuv3 *pmuv3 = hlist_entry_safe(node, struct pmuv3, node);

	if (!cpumask_test_cpu(cpu, &pmuv3->arm.supported_cpus))
		return 0;
	if (pmuv3->irq_percpu)
		disable_percpu_irq(pmuv3->irq);
	pmuv3_hw_reset(pmuv3);
	return 0;
}

/* A name no other instance has: the compatible's, then _1, _2... */
static void pmuv3_set_name(struct pmuv3 *pmuv3, const char *base)
{
	struct pmuv3 *other;
	int n = 0;

	lockdep_assert_held(&pmuv3_list_lock);
	list_for_each_entry(other, &pmuv3_list, entry)
		if (!strncmp(other->name, base, strlen(base)))
			n++;
	if (n)
		snprintf(pmuv3->name, sizeof(pmuv3->name), "%s_%d", base, n);
	else
		strscpy(pmuv3->name, base, sizeof(pmuv3->name));
}

/* A new instance for @cpus, for the caller to give its interrupts. */
struct pmuv3 *pmuv3_instance_alloc(const struct cpumask *cpus)
{
	struct pmuv3 *pmuv3;
	int cpu;

	pmuv3 = kzalloc(sizeof(*pmuv3), GFP_KERNEL);
	if (!pmuv3)
		return NULL;
	pmuv3->cpu = alloc_percpu(struct pmuv3_cpu);
	if (!pmuv3->cpu) {
		kfree(pmuv3);
		return NULL;
	}
	for_each_possible_cpu(cpu)
		per_cpu_ptr(pmuv3->cpu, cpu)->pmuv3 = pmuv3;
	cpumask_copy(&pmuv3->arm.supported_cpus, cpus);
	return pmuv3;
}

/* Undo pmuv3_instance_alloc(), for an instance never added. */
void pmuv3_instance_free(struct pmuv3 *pmuv3)
{
	free_percpu(pmuv3->cpu);
	kfree(pmuv3);
}

/*
 * Bring @pmuv3 up and register it with the core, named @name (with a
 * suffix if another instance has it) and with sysfs @parent, NULL for
 * none.  Its CPUs and interrupts are set.
 */
int pmuv3_instance_add(struct pmuv3 *pmuv3, struct device *parent,
		       const char *name)
{
	int ret;

	guard(mutex)(&pmuv3_list_lock);
	pmuv3_set_name(pmuv3, name);
	ret = pmuv3_read_shape(pmuv3);
	if (ret)
		return ret;
	pmuv3_pmu_init(pmuv3);
	pmuv3->arm.pmu.parent = parent;
	ret = pmuv3_request_irqs(pmuv3);
	if (ret)
		return ret;
	ret = cpuhp_state_add_instance(CPUHP_AP_PERF_ARM_STARTING, &pmuv3->node);
	if (ret)
		goto out_free_irqs;
	ret = pmuv3_cpu_pm_register(pmuv3);
	if (ret)
		goto out_remove_hp;
	/* a dynamic type (8 for the first PMU, as user space finds it) */
	ret = perf_pmu_register(&pmuv3->arm.pmu, pmuv3->name, -1);
	if (ret)
		goto out_remove_pm;
	list_add_tail(&pmuv3->entry, &pmuv3_list);
	cpumask_or(&pmuv3_all_cpus, &pmuv3_all_cpus, &pmuv3->arm.supported_cpus);
	/* guests of KVM get a virtual PMU backed by this one */
	kvm_host_pmu_init(&pmuv3->arm);
	return 0;

out_remove_pm:
	pmuv3_cpu_pm_unregister(pmuv3);
out_remove_hp:
	cpuhp_state_remove_instance(CPUHP_AP_PERF_ARM_STARTING, &pmuv3->node);
out_free_irqs:
	pmuv3_free_irqs(pmuv3);
	return ret;
}

/* The SPIs of a device tree PMU, one per CPU in the order of its CPUs. */
static int pmuv3_of_irqs(struct platform_device *pdev, struct pmuv3 *pmuv3)
{
	int i = 0, cpu, irq;

	if (pmuv3->irq <= 0 || irq_is_percpu_devid(pmuv3->irq))
		return 0;
	for_each_cpu(cpu, &pmuv3->arm.supported_cpus) {
		irq = platform_get_irq(pdev, i++);
		if (irq < 0)
			return irq;
		per_cpu_ptr(pmuv3->cpu, cpu)->irq = irq;
	}
	return 0;
}

static int pmuv3_probe(struct platform_device *pdev)
{
	const char *name = of_device_get_match_data(&pdev->dev);
	struct pmuv3 *pmuv3;
	cpumask_t cpus;
	int irq, ret;

	irq = platform_get_irq_optional(pdev, 0);
	ret = pmuv3_of_cpus(pdev, irq, &cpus);
	if (ret)
		return ret;
	pmuv3 = pmuv3_instance_alloc(&cpus);
	if (!pmuv3)
		return -ENOMEM;
	pmuv3->irq = irq;
	ret = pmuv3_of_irqs(pdev, pmuv3);
	if (!ret)
		ret = pmuv3_instance_add(pmuv3, &pdev->dev, name);
	if (ret)
		pmuv3_instance_free(pmuv3);
	return ret;
}

/*
 * Run @fn on every online CPU that has a registered PMU, waiting for all:
 * for settings of the CPU's PMU registers that no instance owns alone.
 */
void pmuv3_on_each_cpu(smp_call_func_t fn, void *info)
{
	guard(mutex)(&pmuv3_list_lock);
	on_each_cpu_mask(&pmuv3_all_cpus, fn, info, true);
}

#define PMUV3_OF(_compat, _name) { .compatible = _compat, .data = _name }

/* The per-core compatibles name the PMU after the core, as user space knows */
static const struct of_device_id pmuv3_of_match[] = {
	PMUV3_OF("arm,armv8-pmuv3", "armv8_pmuv3"),
	PMUV3_OF("arm,cortex-a34-pmu", "armv8_cortex_a34"),
	PMUV3_OF("arm,cortex-a35-pmu", "armv8_cortex_a35"),
	PMUV3_OF("arm,cortex-a53-pmu", "armv8_cortex_a53"),
	PMUV3_OF("arm,cortex-a55-pmu", "armv8_cortex_a55"),
	PMUV3_OF("arm,cortex-a57-pmu", "armv8_cortex_a57"),
	PMUV3_OF("arm,cortex-a65-pmu", "armv8_cortex_a65"),
	PMUV3_OF("arm,cortex-a72-pmu", "armv8_cortex_a72"),
	PMUV3_OF("arm,cortex-a73-pmu", "armv8_cortex_a73"),
	PMUV3_OF("arm,cortex-a75-pmu", "armv8_cortex_a75"),
	PMUV3_OF("arm,cortex-a76-pmu", "armv8_cortex_a76"),
	PMUV3_OF("arm,cortex-a77-pmu", "armv8_cortex_a77"),
	PMUV3_OF("arm,cortex-a78-pmu", "armv8_cortex_a78"),
	PMUV3_OF("arm,cortex-x1-pmu", "armv8_cortex_x1"),
	PMUV3_OF("arm,neoverse-e1-pmu", "armv8_neoverse_e1"),
	PMUV3_OF("arm,neoverse-n1-pmu", "armv8_neoverse_n1"),
	PMUV3_OF("arm,neoverse-v1-pmu", "armv8_neoverse_v1"),
	{ /* end */ }
};

static struct platform_driver pmuv3_driver = {
	.driver = {
		.name			= "armv8-pmu",
		.of_match_table		= pmuv3_of_match,
		.suppress_bind_attrs	= true,
	},
	.probe = pmuv3_probe,
};

static int __init pmuv3_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_PERF_ARM_STARTING,
				      "perf/arm64/pmuv3:starting",
				      pmuv3_cpu_starting, pmuv3_cpu_dying);
	if (ret)
		return ret;
	ret = platform_driver_register(&pmuv3_driver);
	if (ret)
		return ret;
	pmuv3_acpi_probe();
	return 0;
}
device_initcall(pmuv3_init);
