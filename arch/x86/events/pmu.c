// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 core PMU as the perf core sees it: the struct pmu, its per-CPU
 * state, group transactions, the PMU interrupt (an NMI delivered through
 * the local APIC's LVTPC entry), CPU hotplug, Xen PV's forwarded PMU
 * interrupt, suspend and resume, the boot log's description of the PMU,
 * Intel's freeze_on_smi setting on every CPU, and BPF's snapshot of the
 * last branch records.  The event logic,
 * counter scheduling and counting are events.c, counters.c and count.c;
 * the sysfs description is sysfs.c, user-space rdpmc user_access.c, and
 * what KVM and the local APIC code ask virt.c.
 *
 * At boot the driver registers "cpu" (type PERF_TYPE_RAW) when CPUID
 * detection finds a core PMU; on a hybrid model the model layer knows, a
 * PMU for each core type instead ("cpu_core" with PERF_TYPE_RAW,
 * "cpu_atom" with a type of its own), each driving the CPUs of its type
 * only: a CPU takes its type's driver as it comes up (CPUID 0x1A), the
 * driver's events count there only (pmu->filter, and -ENOENT for an
 * event bound to another CPU), and generic events may name the PMU in
 * config's upper half (PERF_PMU_CAP_EXTENDED_HW_TYPE).  A CPU whose
 * CPUID lacks counters the boot CPU has gets no driver.  Under QEMU TCG,
 * or a hypervisor that hides the PMU, nothing is registered: hardware
 * events stay -ENOENT and every hook here does nothing.  KUnit registers
 * further instances over its model of the PMU (x86_core_driver_setup()).
 *
 * Locking: every pmu callback runs on the CPU it acts on with IRQs off
 * (the core holds its context lock) and touches only that CPU's struct
 * x86_core_driver_cpu.  The PMI, an NMI, can land in the middle of one;
 * it acts only on counters in the CPU's running mask, which a callback
 * sets last when it starts a counter and clears first when it stops one.
 * The driver structure itself is written once, before registration, but
 * for core.freeze_on_smi (see x86_core_driver_set_freeze_on_smi()) and a
 * hybrid PMU's cpus, which each CPU changes for itself as it comes up or
 * goes down (the CPU hotplug lock held), and its @reported.  Each CPU's
 * local_driver is its own, written as it comes up or goes down.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <linux/syscore_ops.h>
/* register_nmi_handler(): <linux/nmi.h> has it only for arch watchdogs */
#include <asm/hardirq.h>
#include <asm/nmi.h>
#include <asm/perf_event.h>

#include "cpu_pmu.h"
#include "perf_event.h"

/*
 * The registered drivers: one, or one for each core type of a hybrid
 * part; native is the first (PERF_TYPE_RAW's), NULL while none is
 * registered, and each CPU's local_driver the one of its PMU.
 */
static struct x86_core_driver drivers[X86_HYBRID_TYPES];
static unsigned int nr_drivers;
static struct x86_core_driver *native;
static DEFINE_PER_CPU(struct x86_core_driver *, local_driver);

static struct x86_core_driver *to_driver(struct pmu *pmu)
{
	return container_of(pmu, struct x86_core_driver, pmu);
}

static struct x86_core_driver_cpu *this_cpu_state(struct pmu *pmu)
{
	return this_cpu_ptr(to_driver(pmu)->state);
}

/* a sampling event's period ended in the PMI being handled */
static int driver_overflow(struct perf_event *event, u64 period, void *arg)
{
	struct x86_core_driver *drv = arg;
	struct x86_core_driver_cpu *cpu = this_cpu_ptr(drv->state);
	struct perf_sample_data data;

	perf_sample_data_init(&data, 0, period);
	if (x86_core_has_lbr(event) && has_branch_stack(event))
		perf_sample_save_brstack(&data, event,
					 x86_lbr_sample(&cpu->counters, event),
					 NULL);
	return perf_event_overflow(event, &data, cpu->regs);
}

/**
 * x86_core_driver_pmi - the PMU interrupt of this CPU
 * @drv: the driver
 * @regs: the interrupted state
 *
 * Return: how many counters it handled, 0 when the interrupt was not the
 * PMU's.
 */
int x86_core_driver_pmi(struct x86_core_driver *drv, struct pt_regs *regs)
{
	struct x86_core_driver_cpu *cpu = this_cpu_ptr(drv->state);
	u64 start = sched_clock();
	int handled;

	if (!cpu->counters.core)
		return 0;
	cpu->regs = regs;
	handled = x86_core_handle_irq(&cpu->counters);
	cpu->regs = NULL;
	/*
	 * The core lowers the sample rate when interrupts take too long; the
	 * model's PMIs, which KUnit runs in a thread, say nothing about that,
	 * nor are they the CPU's (/proc/interrupts' "PMI" line).
	 */
	if (handled && drv->native) {
		inc_irq_stat(apic_perf_irqs);
		perf_sample_event_took(sched_clock() - start);
	}
	return handled;
}

/*
 * The PMI's NMI handler.  Its name is what the nmi:nmi_handler tracepoint
 * and the NMI duration warnings print for it.
 */
static int perf_event_nmi_handler(unsigned int cmd, struct pt_regs *regs)
{
	struct x86_core_driver *drv = this_cpu_read(local_driver);

	return drv ? x86_core_driver_pmi(drv, regs) : NMI_DONE;
}

/* Xen PV forwards its virtual PMU interrupt here (arch/x86/xen/pmu.c) */
static int core_xen_irq(struct pt_regs *regs)
{
	return perf_event_nmi_handler(NMI_LOCAL, regs);
}

struct x86_pmu x86_pmu = {
	.handle_irq = core_xen_irq,
};

/* bpf_get_branch_snapshot(): this CPU's last branch records, as they are */
static int core_snapshot_branch_stack(struct perf_branch_entry *entries,
				      unsigned int cnt)
{
	struct x86_core_driver *drv;
	unsigned long flags;
	int n = 0;

	local_irq_save(flags);
	drv = this_cpu_read(local_driver);
	if (drv && this_cpu_ptr(drv->state)->counters.core)
		n = x86_lbr_snapshot(&this_cpu_ptr(drv->state)->counters,
				     entries, cnt);
	local_irq_restore(flags);
	return n;
}

static int core_event_init(struct perf_event *event)
{
	struct x86_core_driver *drv = to_driver(event->pmu);
	int ret;

	/* a hybrid PMU's events count on the CPUs of its core type only */
	if (drv->core.desc.hybrid_type && event->cpu >= 0 &&
	    !cpumask_test_cpu(event->cpu, &drv->cpus))
		return -ENOENT;
	ret = x86_core_event_init(&drv->core, event);
	if (ret)
		return ret;
	x86_core_user_event_init(event);
	return 0;
}

/**
 * x86_core_driver_of - the core PMU driver @pmu is, or NULL
 * @pmu: any PMU (the core's own test events may have none)
 *
 * Return: the driver, or NULL if @pmu is not a core PMU driver's.
 */
struct x86_core_driver *x86_core_driver_of(struct pmu *pmu)
{
	return pmu && pmu->event_init == core_event_init ? to_driver(pmu) : NULL;
}

/* a hybrid PMU's: its events do not go on a CPU of another core type */
static bool core_filter(struct pmu *pmu, int cpu)
{
	return !cpumask_test_cpu(cpu, &to_driver(pmu)->cpus);
}

/* take @event out of the open transaction's list */
static void txn_forget(struct x86_core_driver_cpu *cpu, struct perf_event *event)
{
	unsigned int i;

	for (i = 0; i < cpu->nr_txn; i++) {
		if (cpu->txn[i] != event)
			continue;
		cpu->nr_txn--;
		cpu->txn[i] = cpu->txn[cpu->nr_txn];
		cpu->txn_start[i] = cpu->txn_start[cpu->nr_txn];
		return;
	}
}

/*
 * Inside a transaction the events are only collected: commit_txn places
 * them all at once, which finds an assignment that one-by-one placement
 * may miss.
 */
static int core_add(struct perf_event *event, int flags)
{
	struct x86_core_driver_cpu *cpu = this_cpu_state(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	int ret;

	/*
	 * A CPU without this PMU's counters: another core type's (which
	 * core_filter() keeps the core from asking), or one whose CPUID
	 * lacks counters
	 */
	if (!cpu->counters.core)
		return -ENOENT;
	if (cpu->txn_flags & PERF_PMU_TXN_ADD) {
		if (cpu->nr_txn >= ARRAY_SIZE(cpu->txn))
			return -EAGAIN;
		hwc->idx = -1;
		hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
		cpu->txn_start[cpu->nr_txn] = flags & PERF_EF_START;
		cpu->txn[cpu->nr_txn++] = event;
		return 0;
	}
	ret = x86_core_add_group(&cpu->counters, &event, 1);
	if (ret)
		return ret;
	if (flags & PERF_EF_START)
		x86_core_start(&cpu->counters, event);
	perf_event_update_userpage(event);
	return 0;
}

static void core_del(struct perf_event *event, int flags)
{
	struct x86_core_driver_cpu *cpu = this_cpu_state(event->pmu);

	if (event->hw.idx < 0) {
		txn_forget(cpu, event);
		return;
	}
	x86_core_del(&cpu->counters, event);
}

static void core_start(struct perf_event *event, int flags)
{
	struct x86_core_driver_cpu *cpu = this_cpu_state(event->pmu);

	if (event->hw.idx >= 0)
		x86_core_start(&cpu->counters, event);
}

static void core_stop(struct perf_event *event, int flags)
{
	struct x86_core_driver_cpu *cpu = this_cpu_state(event->pmu);

	if (event->hw.idx >= 0)
		x86_core_stop(&cpu->counters, event, flags & PERF_EF_UPDATE);
}

static void core_read(struct perf_event *event)
{
	struct x86_core_driver_cpu *cpu = this_cpu_state(event->pmu);

	if (event->hw.idx >= 0)
		x86_core_read(&cpu->counters, event);
}

static void core_pmu_enable(struct pmu *pmu)
{
	struct x86_core_driver_cpu *cpu = this_cpu_state(pmu);

	if (cpu->counters.core)
		x86_core_enable(&cpu->counters);
}

static void core_pmu_disable(struct pmu *pmu)
{
	struct x86_core_driver_cpu *cpu = this_cpu_state(pmu);

	if (cpu->counters.core)
		x86_core_disable(&cpu->counters);
}

static void core_start_txn(struct pmu *pmu, unsigned int txn_flags)
{
	struct x86_core_driver_cpu *cpu = this_cpu_state(pmu);

	cpu->txn_flags = txn_flags;
	cpu->nr_txn = 0;
}

/* place the collected events all or none; on failure the txn stays open */
static int core_commit_txn(struct pmu *pmu)
{
	struct x86_core_driver_cpu *cpu = this_cpu_state(pmu);
	unsigned int i;
	int ret;

	if (cpu->txn_flags & PERF_PMU_TXN_ADD) {
		ret = x86_core_add_group(&cpu->counters, cpu->txn, cpu->nr_txn);
		if (ret)
			return ret;
		for (i = 0; i < cpu->nr_txn; i++) {
			if (cpu->txn_start[i])
				x86_core_start(&cpu->counters, cpu->txn[i]);
			perf_event_update_userpage(cpu->txn[i]);
		}
	}
	cpu->txn_flags = 0;
	cpu->nr_txn = 0;
	return 0;
}

/* the core has del()eted every event add()ed in the transaction */
static void core_cancel_txn(struct pmu *pmu)
{
	struct x86_core_driver_cpu *cpu = this_cpu_state(pmu);

	cpu->txn_flags = 0;
	cpu->nr_txn = 0;
}

/* a CPU's counters come up: cleared, off, the PMI unmasked */
static void driver_cpu_up(struct x86_core_driver *drv, unsigned int nr)
{
	struct x86_core_driver_cpu *cpu = per_cpu_ptr(drv->state, nr);

	x86_core_cpu_init(&cpu->counters, &drv->core);
	x86_core_cpu_reset(&cpu->counters);
	x86_core_apply_freeze_on_smi(&cpu->counters);
}

static void driver_cpu_down(struct x86_core_driver *drv, unsigned int nr)
{
	struct x86_core_driver_cpu *cpu = per_cpu_ptr(drv->state, nr);

	x86_core_cpu_reset(&cpu->counters);
	cpu->counters.core = NULL;
}

/**
 * x86_core_driver_setup - fill in a driver for @hw, not yet registered
 * @drv: the driver (zeroed by the caller)
 * @hw: the hardware: x86_hw_native, or a KUnit model
 * @desc: what detection found on it
 *
 * Return: 0, or -ENOMEM.
 */
int x86_core_driver_setup(struct x86_core_driver *drv, const struct x86_hw *hw,
			  const struct x86_core_desc *desc)
{
	x86_core_pmu_init(&drv->core, hw, desc);
	drv->core.pmu = &drv->pmu;
	drv->core.overflow = driver_overflow;
	drv->core.overflow_arg = drv;
	drv->state = alloc_percpu(struct x86_core_driver_cpu);
	if (!drv->state)
		return -ENOMEM;
	drv->pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.task_ctx_nr	= perf_hw_context,
		.attr_groups	= x86_core_attr_groups,
		.event_init	= core_event_init,
		.add		= core_add,
		.del		= core_del,
		.start		= core_start,
		.stop		= core_stop,
		.read		= core_read,
		.pmu_enable	= core_pmu_enable,
		.pmu_disable	= core_pmu_disable,
		.start_txn	= core_start_txn,
		.commit_txn	= core_commit_txn,
		.cancel_txn	= core_cancel_txn,
		.event_idx	= x86_core_user_event_idx,
		.event_mapped	= x86_core_user_event_mapped,
		.event_unmapped	= x86_core_user_event_unmapped,
	};
	if (desc->hybrid_type) {
		drv->pmu.filter = core_filter;
		drv->pmu.capabilities = PERF_PMU_CAP_EXTENDED_HW_TYPE;
	}
	return 0;
}

/**
 * x86_core_driver_cpu_up - bring CPU @nr's counters into use (KUnit)
 * @drv: a driver set up by x86_core_driver_setup()
 * @nr: the CPU
 */
void x86_core_driver_cpu_up(struct x86_core_driver *drv, unsigned int nr)
{
	driver_cpu_up(drv, nr);
}

static DEFINE_MUTEX(freeze_lock);

static void apply_freeze_here(void *info)
{
	struct x86_core_driver *drv = info;
	struct x86_core_driver_cpu *cpu = this_cpu_ptr(drv->state);

	if (cpu->counters.core)
		x86_core_apply_freeze_on_smi(&cpu->counters);
}

/**
 * x86_core_driver_set_freeze_on_smi - counters frozen in SMM, or not
 * @drv: an Intel driver
 * @on: the new setting
 *
 * Every online CPU's IA32_DEBUGCTL follows at once; a CPU that comes up
 * later takes the setting as it starts.
 *
 * Context: process context; takes freeze_lock and cpus_read_lock().
 */
void x86_core_driver_set_freeze_on_smi(struct x86_core_driver *drv, bool on)
{
	mutex_lock(&freeze_lock);
	cpus_read_lock();
	if (drv->core.freeze_on_smi != on) {
		WRITE_ONCE(drv->core.freeze_on_smi, on);
		on_each_cpu(apply_freeze_here, drv, 1);
	}
	cpus_read_unlock();
	mutex_unlock(&freeze_lock);
}

/**
 * x86_core_driver_free - what x86_core_driver_setup() allocated
 * @drv: the driver, unregistered
 */
void x86_core_driver_free(struct x86_core_driver *drv)
{
	free_percpu(drv->state);
	drv->state = NULL;
}

/* ---- the boot-time driver on the real CPUs ---- */

static void report_counters(const struct x86_core_driver *drv);

/*
 * The driver of the CPU this runs on: the only one, or on a hybrid part
 * the one of its core type; none where its CPUID lacks counters the boot
 * CPU's has (a hypervisor that gives each vCPU its own count: driving it
 * as the others would program counters it lacks).
 */
static struct x86_core_driver *this_cpu_driver(void)
{
	unsigned int i;
	u8 type;

	if (!x86_core_cpuid_covers(&x86_hw_native, &native->core.desc)) {
		pr_info("PMU not available due to virtualization, using software events only.\n");
		return NULL;
	}
	if (nr_drivers == 1)
		return native;
	type = x86_core_hybrid_type(&x86_hw_native);
	for (i = 0; i < nr_drivers; i++)
		if (drivers[i].core.desc.hybrid_type == type)
			return &drivers[i];
	return NULL;
}

static int core_cpu_starting(unsigned int nr)
{
	struct x86_core_driver *drv = this_cpu_driver();

	if (drv) {
		driver_cpu_up(drv, nr);
		cpumask_set_cpu(nr, &drv->cpus);
		/* a hybrid PMU's counters, as its first CPU shows them */
		if (!drv->reported) {
			drv->reported = true;
			report_counters(drv);
		}
		this_cpu_write(local_driver, drv);
	}
	x86_ds_cpu_up();
	return 0;
}

static int core_cpu_dying(unsigned int nr)
{
	struct x86_core_driver *drv = this_cpu_read(local_driver);

	if (drv) {
		this_cpu_write(local_driver, NULL);
		driver_cpu_down(drv, nr);
		cpumask_clear_cpu(nr, &drv->cpus);
	}
	return 0;
}

/*
 * Suspend and resume run on the boot CPU alone, IRQs off; the others went
 * through core_cpu_dying() and come back through core_cpu_starting().
 */
static int core_suspend(void *data)
{
	struct x86_core_driver *drv = this_cpu_read(local_driver);

	if (drv && this_cpu_ptr(drv->state)->counters.core)
		x86_core_cpu_save(&this_cpu_ptr(drv->state)->counters);
	return 0;
}

static void core_resume(void *data)
{
	struct x86_core_driver *drv = this_cpu_read(local_driver);

	if (drv && this_cpu_ptr(drv->state)->counters.core)
		x86_core_cpu_restore(&this_cpu_ptr(drv->state)->counters);
}

static const struct syscore_ops core_syscore_ops = {
	.suspend	= core_suspend,
	.resume		= core_resume,
};

/* the architectural events of CPUID 0xA EBX, by bit, as the log names them */
static const char *const arch_event_names[] = {
	"cpu cycles", "instructions", "bus cycles", "cache references",
	"cache misses", "branch instructions", "branch misses",
};

/*
 * The boot log's account of the PMU, in the words and layout that logs
 * and the scripts reading them know: the driver, the architectural events
 * CPUID marks unavailable, then the counters' facts (a hybrid part's for
 * each core type, as the type's first CPU comes up).
 */
static void __init report_pmu(const struct x86_core_pmu *core)
{
	const struct x86_core_desc *desc = &core->desc;
	char lbr[24] = "", pebs[24] = "";
	const char *kind;
	unsigned int i;

	if (desc->vendor == X86_CORE_INTEL)
		kind = "generic architected perfmon, Intel";
	else if (desc->family >= 0x17)
		kind = "Fam17h+ core perfctr, AMD";
	else if (desc->core_ext && desc->family == 0x15)
		kind = "Fam15h core perfctr, AMD";
	else
		kind = desc->core_ext ? "core perfctr, AMD" : "AMD";
	/* a model's name, and what it has that the generic line leaves out */
	if (desc->lbr_nr)
		snprintf(lbr, sizeof(lbr), "%u-deep LBR, ", desc->lbr_nr);
	if (desc->pebs_fmt)
		snprintf(pebs, sizeof(pebs), "PEBS fmt%u+%s, ", desc->pebs_fmt,
			 desc->pebs_fmt >= 4 ? "-baseline" : "");
	if (desc->vendor == X86_CORE_AMD && desc->lbr_nr)
		pr_info("Performance Events: Fam17h+ %score perfctr, AMD PMU driver.\n",
			lbr);
	else if (desc->intel_model)
		pr_info("Performance Events: %s%s events, %s%s%sIntel PMU driver.\n",
			pebs, desc->intel_model->name,
			desc->anythread_deprecated ? "AnyThread deprecated, " : "",
			lbr,
			desc->full_width_write ? "full-width counters, " : "");
	else
		pr_info("Performance Events: %s PMU driver.\n", kind);
	for (i = 0; i < ARRAY_SIZE(arch_event_names); i++)
		if (desc->vendor == X86_CORE_INTEL && i < desc->events_mask_len &&
		    (desc->events_unavailable & BIT(i)))
			pr_info("core: CPUID marked event: '%s' unavailable\n",
				arch_event_names[i]);
}

static void report_counters(const struct x86_core_driver *drv)
{
	const struct x86_core_pmu *core = &drv->core;
	const struct x86_core_desc *desc = &core->desc;
	u64 counters = (u64)desc->fixed_mask << INTEL_PMC_IDX_FIXED;

	if (desc->num_gp)
		counters |= GENMASK_ULL(desc->num_gp - 1, 0);
	if (desc->metrics)
		counters |= BIT_ULL(GLOBAL_CTRL_EN_PERF_METRICS);
	/* the line ends in a space, as stock's does */
	if (desc->hybrid_type)
		pr_info("core: %s PMU driver: %s\n", drv->pmu.name, "");
	pr_info("... %-24s%u\n", "version:", desc->version);
	pr_info("... %-24s%u\n", "bit width:", desc->gp_width);
	pr_info("... %-24s%u\n", "generic registers:", desc->num_gp);
	pr_info("... %-24s%016llx\n", "value mask:", x86_core_gp_mask(desc));
	pr_info("... %-24s%016llx\n", "max period:", core->max_period);
	pr_info("... %-24s%u\n", "fixed-purpose events:",
		hweight32(desc->fixed_mask));
	pr_info("... %-24s%016llx\n", "event mask:", counters);
}

/* the name and type of registered driver @i */
static const char *__init driver_name(const struct x86_core_desc *boot,
				      unsigned int i)
{
	return nr_drivers > 1 ? x86_intel_hybrid_pmu(boot, i) : "cpu";
}

static int __init x86_core_driver_init(void)
{
	static struct syscore core_syscore;
	struct x86_core_desc boot, desc;
	unsigned int i, nr_reg = 0;
	int ret;

	if (x86_core_detect(&x86_hw_native, &boot) ||
	    boot.vendor == X86_CORE_NONE) {
		pr_info("perf: no x86 core PMU: %s\n",
			boot.why_none ?: "not detected");
		return 0;
	}
	/* PEBS is the real CPUs' alone: its buffers are theirs */
	x86_pebs_probe(&x86_hw_native, &boot);
	if (boot.pebs_fmt)
		x86_ds_enable();
	for (i = 0; i < x86_intel_hybrid_types(&boot); i++) {
		desc = boot;
		if (boot.intel_hybrid)
			x86_intel_hybrid_desc(&boot, i, &desc);
		ret = x86_core_driver_setup(&drivers[i], &x86_hw_native, &desc);
		if (ret)
			goto fail;
		/* SVM is off until KVM turns it on (amd_pmu_enable_virt()) */
		drivers[i].core.hg_bits = false;
		drivers[i].native = true;
		nr_drivers = i + 1;
	}
	/* the boot log has the first one's counters already, below */
	drivers[0].reported = true;
	/* the hotplug and NMI paths find them from here on */
	WRITE_ONCE(native, &drivers[0]);
	ret = cpuhp_setup_state(CPUHP_AP_PERF_X86_STARTING,
				"perf/x86:starting", core_cpu_starting,
				core_cpu_dying);
	if (ret)
		goto fail;
	ret = register_nmi_handler(NMI_LOCAL, perf_event_nmi_handler,
				   NMI_FLAG_FIRST, "PMI");
	if (ret)
		goto fail_hp;
	for (; nr_reg < nr_drivers; nr_reg++) {
		ret = perf_pmu_register(&drivers[nr_reg].pmu,
					driver_name(&boot, nr_reg),
					nr_reg ? -1 : PERF_TYPE_RAW);
		if (ret)
			goto fail_reg;
	}
	core_syscore.ops = &core_syscore_ops;
	register_syscore(&core_syscore);
	if (boot.lbr_nr)
		static_call_update(perf_snapshot_branch_stack,
				   core_snapshot_branch_stack);
	report_pmu(&drivers[0].core);
	report_counters(&drivers[0]);
	return 0;

fail_reg:
	while (nr_reg--)
		perf_pmu_unregister(&drivers[nr_reg].pmu);
	unregister_nmi_handler(NMI_LOCAL, "PMI");
fail_hp:
	cpuhp_remove_state(CPUHP_AP_PERF_X86_STARTING);
fail:
	WRITE_ONCE(native, NULL);
	for (i = 0; i < nr_drivers; i++)
		x86_core_driver_free(&drivers[i]);
	nr_drivers = 0;
	pr_warn("perf: x86 core PMU not registered: %d\n", ret);
	return ret;
}
early_initcall(x86_core_driver_init);

/**
 * x86_core_native - the registered driver of the real CPUs, or NULL
 *
 * Return: the driver, or NULL while none is registered.
 */
struct x86_core_driver *x86_core_native(void)
{
	return READ_ONCE(native);
}

/**
 * x86_core_local - the registered driver of this CPU's PMU, or NULL
 *
 * Context: preemption or IRQs disabled.
 *
 * Return: the driver of this CPU's core type, or NULL while it has none.
 */
struct x86_core_driver *x86_core_local(void)
{
	return this_cpu_read(local_driver);
}
