// SPDX-License-Identifier: GPL-2.0
/*
 * What KVM asks of the host's x86 PMU driver to give its guests a virtual
 * PMU: the MSRs to switch on VM entry and exit, the LBR stack, and AMD's
 * host/guest-only counting around SVM.  No hardware PMU driver is built
 * yet, so the host has nothing to switch and no LBR: KVM then gives its
 * guests no PMU state of the host's (perf_get_x86_pmu_capability() reports
 * no counters).  No locking: nothing here has state.
 */
#include <linux/perf_event.h>
#include <linux/string.h>
#include <asm/perf_event.h>

#ifdef CONFIG_CPU_SUP_INTEL
/* No host counter to hide from or show to a guest: NULL, *nr = 0. */
struct perf_guest_switch_msr *perf_guest_get_msrs(int *nr, void *data)
{
	*nr = 0;
	return NULL;
}
EXPORT_SYMBOL_GPL(perf_guest_get_msrs);

void x86_perf_get_lbr(struct x86_pmu_lbr *lbr)
{
	memset(lbr, 0, sizeof(*lbr));
}
EXPORT_SYMBOL_GPL(x86_perf_get_lbr);
#endif

#ifdef CONFIG_CPU_SUP_AMD
/*
 * SVM on and off: a driver would then honour exclude_host/exclude_guest
 * through the host-only and guest-only bits of its counters.  No counters.
 */
void amd_pmu_enable_virt(void)
{
}
EXPORT_SYMBOL_GPL(amd_pmu_enable_virt);

void amd_pmu_disable_virt(void)
{
}
EXPORT_SYMBOL_GPL(amd_pmu_disable_virt);
#endif
