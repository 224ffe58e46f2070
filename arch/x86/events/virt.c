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
 * boot (the first of a hybrid part's), or for what is per CPU through
 * x86_core_local(), this CPU's, read and written on that CPU with IRQs
 * off.
 */
#include <linux/bitops.h>
#include <linux/irqflags.h>
#include <linux/kvm_host.h>
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
 * holes, as KVM counts them), the CPUID.0AH mask of architectural
 * events the CPU lacks, with its length, and whether guests may have
 * PEBS (x86_core_guest_msrs()).  All zero without a core PMU.
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
	cap->pebs_ept = desc->pebs_ept;
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
 * x86_core_guest_msrs - the MSRs to switch around a guest's run
 * @cpu: this CPU's counters, of an Intel PMU with a global control
 * @kvm: the vCPU's PMU, as KVM passes it (NULL: a guest without PEBS)
 * @msrs: filled in, X86_GUEST_MSRS at most
 *
 * The global control: the host's counters that exclude guests, and its
 * PEBS counters, stop at VM entry and start again at exit; those of
 * events that exclude the host count in the guest only.  With PEBS, its
 * enable: the host's records stop in the guest (the assist would write
 * the host's buffer through the guest's page tables).  Where guests may
 * have PEBS, the counters of KVM's guest PEBS events take it up in the
 * guest as far as the guest enabled it, less those KVM found the host put
 * on another counter than the guest's (its host_cross_mapped_mask: their
 * PEBS bit would be another counter's); the guest's DS area and data
 * configuration come with them.  Called with IRQs off.
 *
 * Return: the number of entries; an entry whose host and guest values
 * agree needs no switch.
 */
unsigned int x86_core_guest_msrs(const struct x86_core_cpu *cpu,
				 const struct kvm_pmu *kvm,
				 struct perf_guest_switch_msr *msrs)
{
	const struct x86_core_desc *desc = &cpu->core->desc;
	unsigned long running = cpu->running;
	u64 host, guest, no_guest = 0, pebs = 0;
	unsigned int idx, nr = 0;

	for_each_set_bit(idx, &running, X86_CORE_NR_IDX)
		if (cpu->events[idx]->attr.exclude_guest)
			no_guest |= BIT_ULL(idx);
	host = cpu->enabled ? x86_core_global_on(cpu) : 0;
	guest = cpu->enabled ? host | cpu->guest_only : 0;
	no_guest |= x86_pebs_on(cpu);
	if (desc->pebs_ept && kvm)
		pebs = cpu->pebs.guest & kvm->pebs_enable &
		       ~kvm->host_cross_mapped_mask;
	msrs[nr++] = (struct perf_guest_switch_msr) {
		.msr	= MSR_CORE_PERF_GLOBAL_CTRL,
		.host	= host,
		.guest	= guest & ~no_guest,
	};
	if (!desc->pebs_fmt)
		return nr;
	msrs[nr++] = (struct perf_guest_switch_msr) {
		.msr	= MSR_IA32_PEBS_ENABLE,
		.host	= cpu->pebs.enabled,
		.guest	= pebs,
	};
	if (!desc->pebs_ept)
		return nr;
	host = x86_ds_area();
	msrs[nr++] = (struct perf_guest_switch_msr) {
		.msr	= MSR_IA32_DS_AREA,
		.host	= host,
		.guest	= pebs ? kvm->ds_area : host,
	};
	msrs[nr++] = (struct perf_guest_switch_msr) {
		.msr	= MSR_PEBS_DATA_CFG,
		.host	= cpu->pebs.data_cfg,
		.guest	= pebs ? kvm->pebs_data_cfg : cpu->pebs.data_cfg,
	};
	return nr;
}

/**
 * perf_guest_get_msrs - the MSRs KVM switches around a guest's run
 * @nr: set to the number of entries
 * @data: KVM's vCPU PMU (struct kvm_pmu)
 *
 * See x86_core_guest_msrs().  Called with IRQs off.
 *
 * Return: this CPU's entries, for MSR_CORE_PERF_GLOBAL_CTRL, with PEBS
 * MSR_IA32_PEBS_ENABLE, where guests may have PEBS MSR_IA32_DS_AREA and
 * MSR_PEBS_DATA_CFG; or NULL (*@nr = 0) on a PMU without a global
 * control.
 */
struct perf_guest_switch_msr *perf_guest_get_msrs(int *nr, void *data)
{
	struct x86_core_driver *drv = x86_core_local();
	struct x86_core_driver_cpu *cpu;

	*nr = 0;
	if (!drv || drv->core.desc.vendor != X86_CORE_INTEL ||
	    drv->core.desc.version < 2)
		return NULL;
	cpu = this_cpu_ptr(drv->state);
	*nr = x86_core_guest_msrs(&cpu->counters, data, cpu->guest_msr);
	return cpu->guest_msr;
}
EXPORT_SYMBOL_GPL(perf_guest_get_msrs);
#endif

#ifdef CONFIG_CPU_SUP_AMD
/* SVM on or off on this CPU: its counters follow at once */
static void set_svm(bool on)
{
	struct x86_core_driver *drv;
	struct x86_core_cpu *cpu;
	unsigned long flags;

	local_irq_save(flags);
	drv = x86_core_local();
	cpu = drv ? &this_cpu_ptr(drv->state)->counters : NULL;
	if (cpu && cpu->core)
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
