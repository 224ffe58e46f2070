// SPDX-License-Identifier: GPL-2.0
/*
 * The LBR stack KVM asks for to give its guests architectural LBRs: none,
 * as no LBR driver is built.  KVM's other questions (the counters, the
 * MSRs to switch around a guest, AMD's SVM on and off) are answered by
 * the core PMU driver, core_driver.c.  No state, no locking.
 */
#include <linux/perf_event.h>
#include <linux/string.h>
#include <asm/perf_event.h>

#ifdef CONFIG_CPU_SUP_INTEL
/**
 * x86_perf_get_lbr - describe the host's LBR stack
 * @lbr: filled in
 *
 * No LBR driver: an empty stack (no entries, no MSRs), so KVM offers its
 * guests no LBRs.
 *
 * Context: any.
 */
void x86_perf_get_lbr(struct x86_pmu_lbr *lbr)
{
	memset(lbr, 0, sizeof(*lbr));
}
EXPORT_SYMBOL_GPL(x86_perf_get_lbr);
#endif
