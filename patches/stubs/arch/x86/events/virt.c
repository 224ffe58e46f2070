#include <linux/string.h>
#include <asm/perf_event.h>

/* virt.c: KVM finds no host PMU to share with its guests */
void perf_events_lapic_init(void)
{
}

void perf_check_microcode(void)
{
}

void perf_get_x86_pmu_capability(struct x86_pmu_capability *cap)
{
	memset(cap, 0, sizeof(*cap));
}
EXPORT_SYMBOL_GPL(perf_get_x86_pmu_capability);

u64 perf_get_hw_event_config(int hw_event)
{
	return 0;
}
EXPORT_SYMBOL_GPL(perf_get_hw_event_config);

#ifdef CONFIG_CPU_SUP_INTEL
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
void amd_pmu_enable_virt(void)
{
}
EXPORT_SYMBOL_GPL(amd_pmu_enable_virt);

void amd_pmu_disable_virt(void)
{
}
EXPORT_SYMBOL_GPL(amd_pmu_disable_virt);
#endif
