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
/* no LBR driver: an empty stack */
void x86_perf_get_lbr(struct x86_pmu_lbr *lbr)
{
	memset(lbr, 0, sizeof(*lbr));
}
EXPORT_SYMBOL_GPL(x86_perf_get_lbr);
#endif
