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
 * detection finds a core PMU.  Under QEMU TCG, or a hypervisor that hides
 * the PMU, nothing is registered: hardware events stay -ENOENT and every
 * hook here does nothing.  KUnit registers further instances
 * over its model of the PMU (x86_core_driver_setup()).
 *
 * Locking: every pmu callback runs on the CPU it acts on with IRQs off
 * (the core holds its context lock) and touches only that CPU's struct
 * x86_core_driver_cpu.  The PMI, an NMI, can land in the middle of one;
 * it acts only on counters in the CPU's running mask, which a callback
 * sets last when it starts a counter and clears first when it stops one.
 * The driver structure itself is written once, before registration, but
 * for core.freeze_on_smi: see x86_core_driver_set_freeze_on_smi().
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
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

/* the driver of the boot CPU's PMU, once registered; NULL without one */
static struct x86_core_driver *native;

static struct x86_core_driver *to_driver(struct pmu *pmu)
{
	return container_of(pmu, struct x86_core_driver, pmu);
}

static struct x86_core_driver_cpu *this_cpu_state(struct pmu *pmu)
{
	return this_cpu_ptr(to_driver(pmu)->cpus);
}

/* a sampling event's period ended in the PMI being handled */
static int driver_overflow(struct perf_event *event, u64 period, void *arg)
{
	struct x86_core_driver *drv = arg;
	struct x86_core_driver_cpu *cpu = this_cpu_ptr(drv->cpus);
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
	struct x86_core_driver_cpu *cpu = this_cpu_ptr(drv->cpus);
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
	if (handled && drv == READ_ONCE(native)) {
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
	struct x86_core_driver *drv = READ_ONCE(native);

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
	struct x86_core_driver *drv = READ_ONCE(native);
	unsigned long flags;
	int n = 0;

	if (!drv)
		return 0;
	local_irq_save(flags);
	if (this_cpu_ptr(drv->cpus)->counters.core)
		n = x86_lbr_snapshot(&this_cpu_ptr(drv->cpus)->counters,
				     entries, cnt);
	local_irq_restore(flags);
	return n;
}

static int core_event_init(struct perf_event *event)
{
	struct x86_core_driver *drv = to_driver(event->pmu);
	int ret;

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
	struct x86_core_driver_cpu *cpu = per_cpu_ptr(drv->cpus, nr);

	x86_core_cpu_init(&cpu->counters, &drv->core);
	x86_core_cpu_reset(&cpu->counters);
	x86_core_apply_freeze_on_smi(&cpu->counters);
}

static void driver_cpu_down(struct x86_core_driver *drv, unsigned int nr)
{
	struct x86_core_driver_cpu *cpu = per_cpu_ptr(drv->cpus, nr);

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
	drv->cpus = alloc_percpu(struct x86_core_driver_cpu);
	if (!drv->cpus)
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
	struct x86_core_driver_cpu *cpu = this_cpu_ptr(drv->cpus);

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
	free_percpu(drv->cpus);
	drv->cpus = NULL;
}

/* ---- the boot-time driver on the real CPUs ---- */

static int core_cpu_starting(unsigned int nr)
{
	driver_cpu_up(native, nr);
	x86_ds_cpu_up();
	return 0;
}

static int core_cpu_dying(unsigned int nr)
{
	driver_cpu_down(native, nr);
	return 0;
}

/*
 * Suspend and resume run on the boot CPU alone, IRQs off; the others went
 * through core_cpu_dying() and come back through core_cpu_starting().
 */
static int core_suspend(void *data)
{
	struct x86_core_driver *drv = data;
	struct x86_core_driver_cpu *cpu = this_cpu_ptr(drv->cpus);

	if (cpu->counters.core)
		x86_core_cpu_save(&cpu->counters);
	return 0;
}

static void core_resume(void *data)
{
	struct x86_core_driver *drv = data;
	struct x86_core_driver_cpu *cpu = this_cpu_ptr(drv->cpus);

	if (cpu->counters.core)
		x86_core_cpu_restore(&cpu->counters);
}

static const struct syscore_ops core_syscore_ops = {
	.suspend	= core_suspend,
	.resume		= core_resume,
};

/* the architectural events of CPUID 0xA EBX, by bit, as the log names them */
static const char *const arch_event_names[] __initconst = {
	"cpu cycles", "instructions", "bus cycles", "cache references",
	"cache misses", "branch instructions", "branch misses",
};

/*
 * The boot log's account of the PMU, in the words and layout that logs
 * and the scripts reading them know: the driver, the architectural events
 * CPUID marks unavailable, then the counters' facts.
 */
static void __init report_pmu(const struct x86_core_pmu *core)
{
	const struct x86_core_desc *desc = &core->desc;
	u64 counters = (u64)desc->fixed_mask << INTEL_PMC_IDX_FIXED;
	char lbr[24] = "", pebs[24] = "";
	const char *kind;
	unsigned int i;

	if (desc->num_gp)
		counters |= GENMASK_ULL(desc->num_gp - 1, 0);
	if (desc->metrics)
		counters |= BIT_ULL(GLOBAL_CTRL_EN_PERF_METRICS);
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
	pr_info("... %-24s%u\n", "version:", desc->version);
	pr_info("... %-24s%u\n", "bit width:", desc->gp_width);
	pr_info("... %-24s%u\n", "generic registers:", desc->num_gp);
	pr_info("... %-24s%016llx\n", "value mask:", x86_core_gp_mask(desc));
	pr_info("... %-24s%016llx\n", "max period:", core->max_period);
	pr_info("... %-24s%u\n", "fixed-purpose events:",
		hweight32(desc->fixed_mask));
	pr_info("... %-24s%016llx\n", "event mask:", counters);
}

static int __init x86_core_driver_init(void)
{
	static struct x86_core_driver drv;
	static struct syscore core_syscore;
	struct x86_core_desc desc;
	int ret;

	if (x86_core_detect(&x86_hw_native, &desc) ||
	    desc.vendor == X86_CORE_NONE) {
		pr_info("perf: no x86 core PMU: %s\n",
			desc.why_none ?: "not detected");
		return 0;
	}
	/* PEBS is the real CPUs' alone: its buffers are theirs */
	x86_pebs_probe(&x86_hw_native, &desc);
	if (desc.pebs_fmt)
		x86_ds_enable();
	ret = x86_core_driver_setup(&drv, &x86_hw_native, &desc);
	if (ret)
		return ret;
	/* SVM is off until KVM turns it on (amd_pmu_enable_virt()) */
	drv.core.hg_bits = false;
	/* the hotplug and NMI paths find it from here on */
	WRITE_ONCE(native, &drv);
	ret = cpuhp_setup_state(CPUHP_AP_PERF_X86_STARTING,
				"perf/x86:starting", core_cpu_starting,
				core_cpu_dying);
	if (ret)
		goto fail;
	ret = register_nmi_handler(NMI_LOCAL, perf_event_nmi_handler,
				   NMI_FLAG_FIRST, "PMI");
	if (ret)
		goto fail_hp;
	ret = perf_pmu_register(&drv.pmu, "cpu", PERF_TYPE_RAW);
	if (ret)
		goto fail_nmi;
	core_syscore.ops = &core_syscore_ops;
	core_syscore.data = &drv;
	register_syscore(&core_syscore);
	if (drv.core.desc.lbr_nr)
		static_call_update(perf_snapshot_branch_stack,
				   core_snapshot_branch_stack);
	report_pmu(&drv.core);
	return 0;

fail_nmi:
	unregister_nmi_handler(NMI_LOCAL, "PMI");
fail_hp:
	cpuhp_remove_state(CPUHP_AP_PERF_X86_STARTING);
fail:
	WRITE_ONCE(native, NULL);
	x86_core_driver_free(&drv);
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
