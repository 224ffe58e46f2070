// SPDX-License-Identifier: GPL-2.0
/*
 * User-space counter access: the kernel.perf_user_access sysctl, the
 * counter index (pmu->event_idx) and the arm64 fields of the user page
 * (arch_perf_update_userpage).  An event asks for access with the config1
 * rdpmc bit (only a task's event may: pmu.c); its page then says
 * cap_user_rdpmc, but gives the counter's index only while the sysctl is
 * on and the event is on this CPU.  EL0 access itself is a per-CPU switch
 * (PMUSERENR_EL0), set when events are scheduled (pmu.c) and turned off on
 * every CPU when the sysctl is.
 *
 * Locking: the sysctl is one int, read with READ_ONCE(); turning it off
 * reaches each CPU through an IPI, which runs with IRQs off like every
 * other writer of PMUSERENR_EL0.  The other functions run where the core
 * updates the user page, with the event's context locked.
 */
#include <linux/perf_event.h>
#include <linux/sched_clock.h>
#include <linux/sysctl.h>

#include "pmuv3.h"

static int perf_user_access;

static void user_access_off(void *unused)
{
	pmuv3_hw_set_user(false);
}

/*
 * Turning the sysctl off ends EL0 access at once on every CPU, also where
 * it outlived the events that granted it; turning it on grants nothing
 * until events asking for access are next scheduled.
 */
static int perf_user_access_handler(const struct ctl_table *table, int write,
				    void *buffer, size_t *lenp, loff_t *ppos)
{
	int ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	if (ret || !write || READ_ONCE(perf_user_access))
		return ret;
	pmuv3_on_each_cpu(user_access_off, NULL);
	return 0;
}

static struct ctl_table pmuv3_sysctls[] = {
	{
		.procname	= "perf_user_access",
		.data		= &perf_user_access,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= perf_user_access_handler,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

static int __init pmuv3_sysctl_init(void)
{
	register_sysctl("kernel", pmuv3_sysctls);
	return 0;
}
core_initcall(pmuv3_sysctl_init);

bool pmuv3_user_access_allowed(void)
{
	return READ_ONCE(perf_user_access);
}

static bool event_user_readable(struct perf_event *event)
{
	return (event->hw.flags & PMUV3_F_USER) && event->hw.idx >= 0 &&
	       pmuv3_user_access_allowed();
}

/*
 * The user page's index: the counter's number plus one (32 for the cycle
 * counter), which user space reads with mrs; 0 when it may not.
 */
int pmuv3_event_idx(struct perf_event *event)
{
	return event_user_readable(event) ? event->hw.idx + 1 : 0;
}

/*
 * The time fields come from sched_clock(), which counts the architected
 * timer that EL0 reads as CNTVCT_EL0: time = time_zero + cycles * mult >>
 * shift, computed by user space in two halves, so the shift must stay
 * below 32.
 */
static void userpage_time(struct perf_event_mmap_page *userpg, u64 now)
{
	struct clock_read_data *rd;
	unsigned int seq;
	u64 ns, quot, rem;
	u32 mult, shift;

	do {
		rd = sched_clock_read_begin(&seq);
		if (rd->read_sched_clock != arch_timer_read_counter)
			return;
		mult = rd->mult;
		shift = rd->shift;
		userpg->time_cycles = rd->epoch_cyc;
		userpg->time_mask = rd->sched_clock_mask;
		ns = rd->epoch_ns;
	} while (sched_clock_read_retry(seq));

	if (shift == 32) {
		shift = 31;
		mult >>= 1;
	}
	quot = userpg->time_cycles >> shift;
	rem = userpg->time_cycles & ((1ULL << shift) - 1);
	userpg->time_mult = mult;
	userpg->time_shift = shift;
	userpg->time_zero = ns - quot * mult - ((rem * mult) >> shift);
	userpg->time_offset = userpg->time_zero - now;
	userpg->cap_user_time = 1;
	userpg->cap_user_time_zero = 1;
	userpg->cap_user_time_short = 1;
}

/*
 * The arm64 fields of every event's user page: counter access and width
 * for PMUv3 events, the time conversion for all.
 */
void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *userpg, u64 now)
{
	/*
	 * The counter's width only for an event user space may read; for
	 * the others the field means nothing and is left as it is.
	 */
	userpg->cap_user_rdpmc = 0;
	if (pmuv3_owns(event->pmu) && (event->hw.flags & PMUV3_F_USER)) {
		userpg->cap_user_rdpmc = 1;
		userpg->pmc_width = (event->hw.flags & PMUV3_F_LONG) ? 64 : 32;
	}
	userpg->cap_user_time = 0;
	userpg->cap_user_time_zero = 0;
	userpg->cap_user_time_short = 0;
	userpage_time(userpg, now);
}
