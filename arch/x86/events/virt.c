// SPDX-License-Identifier: GPL-2.0
/*
 * What the rest of the x86 kernel asks of the core PMU driver (pmu.c)
 * about virtualization and the local APIC: KVM's questions (the host
 * PMU's capabilities, the event select of a generic event, the MSRs to
 * switch around a guest's run, AMD's SVM going on and off on a CPU, the
 * LBR stack lent to guests), the LVTPC entry of each local APIC
 * as it is set up, and a late microcode load.
 *
 * Locking: the driver is found through x86_core_native(), set once at
 * boot; what is per CPU is read or written on that CPU with IRQs off.
 */
#include <linux/bitops.h>
#include <linux/irqflags.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <asm/apic.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>

#include "cpu_pmu.h"

/* each local APIC as it is set up (boot, CPU online, resume) */
void perf_events_lapic_init(void)
{
	if (x86_core_native())
		x86_hw_write_lvtpc(&x86_hw_native, APIC_DM_NMI);
}

/* a late microcode load: no model-specific errata here to look at again */
void perf_check_microcode(void)
{
}

/* ---- what KVM asks ---- */

/**
 * perf_get_x86_pmu_capability - describe the host's core PMU
 * @cap: filled in
 *
 * What the host PMU offers a guest PMU to be built from: the architectural
 * PMU version, the number and width of the general-purpose counters and,
 * on Intel from version 2, of the fixed counters (numbered from 0 without
 * holes, as KVM counts them), and the CPUID.0AH mask of architectural
 * events the CPU lacks, with its length.  All zero without a core PMU.
 *
 * Context: any.
 */
void perf_get_x86_pmu_capability(struct x86_pmu_capability *cap)
{
	struct x86_core_driver *drv = x86_core_native();
	const struct x86_core_desc *desc;

	memset(cap, 0, sizeof(*cap));
	if (!drv)
		return;
	desc = &drv->core.desc;
	cap->version = desc->version;
	cap->num_counters_gp = desc->num_gp;
	cap->bit_width_gp = desc->gp_width;
	if (desc->vendor == X86_CORE_INTEL && desc->version >= 2) {
		/* KVM numbers fixed counters from 0 without holes */
		cap->num_counters_fixed = fls(desc->fixed_mask);
		cap->bit_width_fixed = desc->fixed_width;
	}
	cap->events_mask = desc->events_unavailable;
	cap->events_mask_len = desc->events_mask_len;
}
EXPORT_SYMBOL_GPL(perf_get_x86_pmu_capability);

/**
 * perf_get_hw_event_config - the event select of a generic hardware event
 * @hw_event: a PERF_COUNT_HW_* id
 *
 * Context: any.
 *
 * Return: the event and unit mask bits (AMD's extended event bits
 * included) that count @hw_event on this CPU, or 0 without a core PMU,
 * for an id out of range or an event the CPU cannot count.
 */
u64 perf_get_hw_event_config(int hw_event)
{
	struct x86_core_driver *drv = x86_core_native();
	u64 evsel;

	if (!drv || hw_event < 0 || hw_event >= PERF_COUNT_HW_MAX ||
	    x86_core_map_hw_event(&drv->core.desc, hw_event, &evsel))
		return 0;
	return evsel & (ARCH_PERFMON_EVENTSEL_EVENT |
			ARCH_PERFMON_EVENTSEL_UMASK | AMD64_EVENTSEL_EVENT);
}
EXPORT_SYMBOL_GPL(perf_get_hw_event_config);

#ifdef CONFIG_CPU_SUP_INTEL
/**
 * perf_guest_get_msrs - the MSRs KVM switches around a guest's run
 * @nr: set to the number of entries
 * @data: KVM's vCPU PMU (unused)
 *
 * Intel with a global control: the host's counters that exclude guests
 * stop at VM entry and start again at exit, and so do its PEBS counters,
 * with PEBS off in the guest; those of events that exclude the host
 * count in the guest only.  Called with IRQs off.
 *
 * Return: this CPU's entries, for MSR_CORE_PERF_GLOBAL_CTRL (*@nr = 1)
 * and with PEBS for MSR_IA32_PEBS_ENABLE (*@nr = 2), or NULL (*@nr = 0)
 * where there is nothing to switch.
 */
struct perf_guest_switch_msr *perf_guest_get_msrs(int *nr, void *data)
{
	struct x86_core_driver *drv = x86_core_native();
	struct x86_core_driver_cpu *cpu;
	unsigned long running;
	u64 host, guest, no_guest = 0;
	unsigned int idx;

	*nr = 0;
	if (!drv || drv->core.desc.vendor != X86_CORE_INTEL ||
	    drv->core.desc.version < 2)
		return NULL;
	cpu = this_cpu_ptr(drv->cpus);
	running = cpu->counters.running;
	for_each_set_bit(idx, &running, X86_CORE_NR_IDX)
		if (cpu->counters.events[idx]->attr.exclude_guest)
			no_guest |= BIT_ULL(idx);
	host = cpu->counters.enabled ?
	       x86_core_global_on(&cpu->counters) : 0;
	/* the counters of events that exclude the host count in guests */
	guest = cpu->counters.enabled ?
		host | cpu->counters.guest_only : 0;
	/*
	 * PEBS counters neither count nor write records in a guest: the
	 * assist would write the host's buffer through the guest's page
	 * tables.  Bits 32 and up are load latency before adaptive PEBS,
	 * the fixed counters with it.
	 */
	no_guest |= x86_pebs_on(&cpu->counters);
	cpu->guest_msr[0] = (struct perf_guest_switch_msr) {
		.msr	= MSR_CORE_PERF_GLOBAL_CTRL,
		.host	= host,
		.guest	= guest & ~no_guest,
	};
	*nr = 1;
	if (drv->core.desc.pebs_fmt) {
		cpu->guest_msr[1] = (struct perf_guest_switch_msr) {
			.msr	= MSR_IA32_PEBS_ENABLE,
			.host	= cpu->counters.pebs.enabled,
			.guest	= 0,
		};
		*nr = 2;
	}
	return cpu->guest_msr;
}
EXPORT_SYMBOL_GPL(perf_guest_get_msrs);
#endif

#ifdef CONFIG_CPU_SUP_AMD
/* SVM on or off on this CPU: its counters follow at once */
static void set_svm(bool on)
{
	struct x86_core_driver *drv = x86_core_native();
	struct x86_core_cpu *cpu;
	unsigned long flags;

	if (!drv)
		return;
	local_irq_save(flags);
	cpu = &this_cpu_ptr(drv->cpus)->counters;
	if (cpu->core)
		x86_core_set_hg_bits(cpu, on);
	local_irq_restore(flags);
}

/**
 * amd_pmu_enable_virt - SVM turned on here: counters may exclude guests
 *
 * From now on this CPU's counters carry the HostOnly and GuestOnly bits
 * that the events' exclude_guest and exclude_host ask for; the counters
 * already running are written again.  While SVM is off the bits are left
 * out: no guest runs, and a counter with HostOnly alone would not count.
 *
 * Context: on the CPU whose SVM KVM turned on, preemption disabled.
 */
void amd_pmu_enable_virt(void)
{
	set_svm(true);
}
EXPORT_SYMBOL_GPL(amd_pmu_enable_virt);

/**
 * amd_pmu_disable_virt - SVM is off on this CPU: no HostOnly in its counters
 *
 * The reverse of amd_pmu_enable_virt(), for this CPU only: the others
 * keep theirs.
 *
 * Context: on the CPU whose SVM KVM turned off, preemption disabled.
 */
void amd_pmu_disable_virt(void)
{
	set_svm(false);
}
EXPORT_SYMBOL_GPL(amd_pmu_disable_virt);
#endif

#ifdef CONFIG_CPU_SUP_INTEL
/**
 * x86_perf_get_lbr - describe the host's LBR stack
 * @lbr: filled in
 *
 * For KVM, which lends a guest the LBRs through its guest LBR event
 * (INTEL_FIXED_VLBR_EVENT, intel_lbr.c) and passes the record MSRs
 * through meanwhile: their number and first MSRs (the From, To and Info
 * registers of the model-specific LBRs the model layer drives), with
 * call-stack mode.  Empty without them (AMD, or a model without LBRs).
 *
 * Context: any.
 */
void x86_perf_get_lbr(struct x86_pmu_lbr *lbr)
{
	struct x86_core_driver *drv = x86_core_native();

	memset(lbr, 0, sizeof(*lbr));
	if (!drv || drv->core.desc.vendor != X86_CORE_INTEL ||
	    !drv->core.desc.lbr_nr)
		return;
	lbr->nr = drv->core.desc.lbr_nr;
	lbr->from = MSR_LBR_NHM_FROM;
	lbr->to = MSR_LBR_NHM_TO;
	lbr->info = MSR_LBR_INFO_0;
	lbr->has_callstack = true;
}
EXPORT_SYMBOL_GPL(x86_perf_get_lbr);
#endif
