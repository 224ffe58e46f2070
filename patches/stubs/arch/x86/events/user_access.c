#include <linux/jump_label.h>
#include <linux/mmu_context.h>

#include "cpu_pmu.h"

/* user_access.c: no counter is readable from user space */
DEFINE_STATIC_KEY_FALSE(rdpmc_never_available_key);
DEFINE_STATIC_KEY_FALSE(rdpmc_always_available_key);

void perf_clear_dirty_counters(void)
{
}

void x86_core_user_update_userpage(struct perf_event *event,
				   struct perf_event_mmap_page *up)
{
}
