// SPDX-License-Identifier: GPL-2.0
/*
 * Raw access to the PMUv3 registers of the calling CPU: counters, event
 * types, counter and interrupt enables, overflow status, the global enable
 * and EL0 access.  Nothing here keeps state; callers run on the CPU whose
 * registers they touch, with IRQs off (see pmuv3.h).
 *
 * Event counters are reached directly (PMEVCNTR<n>_EL0, PMEVTYPER<n>_EL0)
 * rather than through PMSELR_EL0, which user space may own while it has
 * counter access.  PMUSERENR_EL0 goes through KVM, which owns it while a
 * vCPU is loaded under VHE.
 */
#include <linux/bug.h>
#include <linux/kvm_host.h>
#include <asm/barrier.h>
#include <asm/sysreg.h>

#include "pmuv3.h"

/*
 * PMEVCNTR<n>_EL0 is sys_reg(3, 3, 14, 8 + n / 8, n % 8), PMEVTYPER<n>_EL0
 * sys_reg(3, 3, 14, 12 + n / 8, n % 8); the encoding is part of the
 * instruction, hence one case per counter.
 */
static u64 read_evcntr(int idx)
{
	switch (idx) {
	case 0: return read_sysreg_s(sys_reg(3, 3, 14, 8, 0));
	case 1: return read_sysreg_s(sys_reg(3, 3, 14, 8, 1));
	case 2: return read_sysreg_s(sys_reg(3, 3, 14, 8, 2));
	case 3: return read_sysreg_s(sys_reg(3, 3, 14, 8, 3));
	case 4: return read_sysreg_s(sys_reg(3, 3, 14, 8, 4));
	case 5: return read_sysreg_s(sys_reg(3, 3, 14, 8, 5));
	case 6: return read_sysreg_s(sys_reg(3, 3, 14, 8, 6));
	case 7: return read_sysreg_s(sys_reg(3, 3, 14, 8, 7));
	case 8: return read_sysreg_s(sys_reg(3, 3, 14, 9, 0));
	case 9: return read_sysreg_s(sys_reg(3, 3, 14, 9, 1));
	case 10: return read_sysreg_s(sys_reg(3, 3, 14, 9, 2));
	case 11: return read_sysreg_s(sys_reg(3, 3, 14, 9, 3));
	case 12: return read_sysreg_s(sys_reg(3, 3, 14, 9, 4));
	case 13: return read_sysreg_s(sys_reg(3, 3, 14, 9, 5));
	case 14: return read_sysreg_s(sys_reg(3, 3, 14, 9, 6));
	case 15: return read_sysreg_s(sys_reg(3, 3, 14, 9, 7));
	case 16: return read_sysreg_s(sys_reg(3, 3, 14, 10, 0));
	case 17: return read_sysreg_s(sys_reg(3, 3, 14, 10, 1));
	case 18: return read_sysreg_s(sys_reg(3, 3, 14, 10, 2));
	case 19: return read_sysreg_s(sys_reg(3, 3, 14, 10, 3));
	case 20: return read_sysreg_s(sys_reg(3, 3, 14, 10, 4));
	case 21: return read_sysreg_s(sys_reg(3, 3, 14, 10, 5));
	case 22: return read_sysreg_s(sys_reg(3, 3, 14, 10, 6));
	case 23: return read_sysreg_s(sys_reg(3, 3, 14, 10, 7));
	case 24: return read_sysreg_s(sys_reg(3, 3, 14, 11, 0));
	case 25: return read_sysreg_s(sys_reg(3, 3, 14, 11, 1));
	case 26: return read_sysreg_s(sys_reg(3, 3, 14, 11, 2));
	case 27: return read_sysreg_s(sys_reg(3, 3, 14, 11, 3));
	case 28: return read_sysreg_s(sys_reg(3, 3, 14, 11, 4));
	case 29: return read_sysreg_s(sys_reg(3, 3, 14, 11, 5));
	case 30: return read_sysreg_s(sys_reg(3, 3, 14, 11, 6));
	}
	WARN_ON_ONCE(1);
	return 0;
}

static void write_evcntr(int idx, u64 val)
{
	switch (idx) {
	case 0:
		write_sysreg_s(val, sys_reg(3, 3, 14, 8, 0));
		break;
	case 1:
		write_sysreg_s(val, sys_reg(3, 3, 14, 8, 1));
		break;
	case 2:
		write_sysreg_s(val, sys_reg(3, 3, 14, 8, 2));
		break;
	case 3:
		write_sysreg_s(val, sys_reg(3, 3, 14, 8, 3));
		break;
	case 4:
		write_sysreg_s(val, sys_reg(3, 3, 14, 8, 4));
		break;
	case 5:
		write_sysreg_s(val, sys_reg(3, 3, 14, 8, 5));
		break;
	case 6:
		write_sysreg_s(val, sys_reg(3, 3, 14, 8, 6));
		break;
	case 7:
		write_sysreg_s(val, sys_reg(3, 3, 14, 8, 7));
		break;
	case 8:
		write_sysreg_s(val, sys_reg(3, 3, 14, 9, 0));
		break;
	case 9:
		write_sysreg_s(val, sys_reg(3, 3, 14, 9, 1));
		break;
	case 10:
		write_sysreg_s(val, sys_reg(3, 3, 14, 9, 2));
		break;
	case 11:
		write_sysreg_s(val, sys_reg(3, 3, 14, 9, 3));
		break;
	case 12:
		write_sysreg_s(val, sys_reg(3, 3, 14, 9, 4));
		break;
	case 13:
		write_sysreg_s(val, sys_reg(3, 3, 14, 9, 5));
		break;
	case 14:
		write_sysreg_s(val, sys_reg(3, 3, 14, 9, 6));
		break;
	case 15:
		write_sysreg_s(val, sys_reg(3, 3, 14, 9, 7));
		break;
	case 16:
		write_sysreg_s(val, sys_reg(3, 3, 14, 10, 0));
		break;
	case 17:
		write_sysreg_s(val, sys_reg(3, 3, 14, 10, 1));
		break;
	case 18:
		write_sysreg_s(val, sys_reg(3, 3, 14, 10, 2));
		break;
	case 19:
		write_sysreg_s(val, sys_reg(3, 3, 14, 10, 3));
		break;
	case 20:
		write_sysreg_s(val, sys_reg(3, 3, 14, 10, 4));
		break;
	case 21:
		write_sysreg_s(val, sys_reg(3, 3, 14, 10, 5));
		break;
	case 22:
		write_sysreg_s(val, sys_reg(3, 3, 14, 10, 6));
		break;
	case 23:
		write_sysreg_s(val, sys_reg(3, 3, 14, 10, 7));
		break;
	case 24:
		write_sysreg_s(val, sys_reg(3, 3, 14, 11, 0));
		break;
	case 25:
		write_sysreg_s(val, sys_reg(3, 3, 14, 11, 1));
		break;
	case 26:
		write_sysreg_s(val, sys_reg(3, 3, 14, 11, 2));
		break;
	case 27:
		write_sysreg_s(val, sys_reg(3, 3, 14, 11, 3));
		break;
	case 28:
		write_sysreg_s(val, sys_reg(3, 3, 14, 11, 4));
		break;
	case 29:
		write_sysreg_s(val, sys_reg(3, 3, 14, 11, 5));
		break;
	case 30:
		write_sysreg_s(val, sys_reg(3, 3, 14, 11, 6));
		break;
	default:
		WARN_ON_ONCE(1);
	}
}

static void write_evtyper(int idx, u64 val)
{
	switch (idx) {
	case 0:
		write_sysreg_s(val, sys_reg(3, 3, 14, 12, 0));
		break;
	case 1:
		write_sysreg_s(val, sys_reg(3, 3, 14, 12, 1));
		break;
	case 2:
		write_sysreg_s(val, sys_reg(3, 3, 14, 12, 2));
		break;
	case 3:
		write_sysreg_s(val, sys_reg(3, 3, 14, 12, 3));
		break;
	case 4:
		write_sysreg_s(val, sys_reg(3, 3, 14, 12, 4));
		break;
	case 5:
		write_sysreg_s(val, sys_reg(3, 3, 14, 12, 5));
		break;
	case 6:
		write_sysreg_s(val, sys_reg(3, 3, 14, 12, 6));
		break;
	case 7:
		write_sysreg_s(val, sys_reg(3, 3, 14, 12, 7));
		break;
	case 8:
		write_sysreg_s(val, sys_reg(3, 3, 14, 13, 0));
		break;
	case 9:
		write_sysreg_s(val, sys_reg(3, 3, 14, 13, 1));
		break;
	case 10:
		write_sysreg_s(val, sys_reg(3, 3, 14, 13, 2));
		break;
	case 11:
		write_sysreg_s(val, sys_reg(3, 3, 14, 13, 3));
		break;
	case 12:
		write_sysreg_s(val, sys_reg(3, 3, 14, 13, 4));
		break;
	case 13:
		write_sysreg_s(val, sys_reg(3, 3, 14, 13, 5));
		break;
	case 14:
		write_sysreg_s(val, sys_reg(3, 3, 14, 13, 6));
		break;
	case 15:
		write_sysreg_s(val, sys_reg(3, 3, 14, 13, 7));
		break;
	case 16:
		write_sysreg_s(val, sys_reg(3, 3, 14, 14, 0));
		break;
	case 17:
		write_sysreg_s(val, sys_reg(3, 3, 14, 14, 1));
		break;
	case 18:
		write_sysreg_s(val, sys_reg(3, 3, 14, 14, 2));
		break;
	case 19:
		write_sysreg_s(val, sys_reg(3, 3, 14, 14, 3));
		break;
	case 20:
		write_sysreg_s(val, sys_reg(3, 3, 14, 14, 4));
		break;
	case 21:
		write_sysreg_s(val, sys_reg(3, 3, 14, 14, 5));
		break;
	case 22:
		write_sysreg_s(val, sys_reg(3, 3, 14, 14, 6));
		break;
	case 23:
		write_sysreg_s(val, sys_reg(3, 3, 14, 14, 7));
		break;
	case 24:
		write_sysreg_s(val, sys_reg(3, 3, 14, 15, 0));
		break;
	case 25:
		write_sysreg_s(val, sys_reg(3, 3, 14, 15, 1));
		break;
	case 26:
		write_sysreg_s(val, sys_reg(3, 3, 14, 15, 2));
		break;
	case 27:
		write_sysreg_s(val, sys_reg(3, 3, 14, 15, 3));
		break;
	case 28:
		write_sysreg_s(val, sys_reg(3, 3, 14, 15, 4));
		break;
	case 29:
		write_sysreg_s(val, sys_reg(3, 3, 14, 15, 5));
		break;
	case 30:
		write_sysreg_s(val, sys_reg(3, 3, 14, 15, 6));
		break;
	default:
		WARN_ON_ONCE(1);
	}
}

/* The value of counter @idx: the cycle counter or an event counter. */
u64 pmuv3_hw_read_counter(int idx)
{
	if (idx == PMUV3_IDX_CYCLES)
		return read_sysreg(pmccntr_el0);
	return read_evcntr(idx);
}

void pmuv3_hw_write_counter(int idx, u64 val)
{
	if (idx == PMUV3_IDX_CYCLES)
		write_sysreg(val, pmccntr_el0);
	else
		write_evcntr(idx, val);
}

/* PMEVTYPER<idx>, or PMCCFILTR (filter bits only) for the cycle counter */
void pmuv3_hw_write_type(int idx, u64 type)
{
	if (idx == PMUV3_IDX_CYCLES)
		write_sysreg(type & ~(u64)PMUV3_EVTYPE_EVENT, pmccfiltr_el0);
	else
		write_evtyper(idx, type);
}

void pmuv3_hw_enable_counter(int idx)
{
	write_sysreg(BIT(idx), pmcntenset_el0);
}

void pmuv3_hw_disable_counter(int idx)
{
	write_sysreg(BIT(idx), pmcntenclr_el0);
	isb();
}

void pmuv3_hw_enable_irq(int idx)
{
	write_sysreg(BIT(idx), pmintenset_el1);
}

void pmuv3_hw_disable_irq(int idx)
{
	write_sysreg(BIT(idx), pmintenclr_el1);
	isb();
}

/* The counters that overflowed since the last call; their flags cleared. */
u64 pmuv3_hw_read_clear_overflow(void)
{
	u64 ovs = read_sysreg(pmovsclr_el0) & GENMASK(PMUV3_IDX_CYCLES, 0);

	write_sysreg(ovs, pmovsclr_el0);
	isb();
	return ovs;
}

/* PMCR_EL0.E: every enabled counter counts, or none does. */
void pmuv3_hw_start(void)
{
	write_sysreg(read_sysreg(pmcr_el0) | PMUV3_PMCR_E, pmcr_el0);
	isb();
}

void pmuv3_hw_stop(void)
{
	write_sysreg(read_sysreg(pmcr_el0) & ~PMUV3_PMCR_E, pmcr_el0);
	isb();
}

/*
 * Put this CPU's PMU in a known state: stopped, every counter disabled,
 * without interrupt and reset, overflow flags clear, no EL0 access.  The
 * cycle counter always overflows at 64 bits, the event counters too where
 * the PMU has 64-bit counters; 32-bit counts are kept by programming the
 * counters sign-extended (see pmu.c).
 */
void pmuv3_hw_reset(struct pmuv3 *pmuv3)
{
	u64 pmcr = PMUV3_PMCR_P | PMUV3_PMCR_C | PMUV3_PMCR_LC;

	if (pmuv3->has_64bit)
		pmcr |= PMUV3_PMCR_LP;
	write_sysreg(GENMASK(PMUV3_IDX_CYCLES, 0), pmcntenclr_el0);
	write_sysreg(GENMASK(PMUV3_IDX_CYCLES, 0), pmintenclr_el1);
	write_sysreg(GENMASK(PMUV3_IDX_CYCLES, 0), pmovsclr_el0);
	write_sysreg(0, pmuserenr_el0);
	write_sysreg(pmcr, pmcr_el0);
	isb();
}

/*
 * Let EL0 read the counters (cycle and event counters), or stop it.
 * PMSELR_EL0 is zeroed each time, as user space expects after every change
 * of the user page's sequence count.
 */
void pmuv3_hw_set_user(bool on)
{
	u64 userenr = on ? PMUV3_USERENR_CR | PMUV3_USERENR_ER : 0;

	write_sysreg(0, pmselr_el0);
	/*
	 * Under VHE, while a vCPU is loaded on this CPU the register holds
	 * the guest's value: KVM keeps the host's and restores it itself.
	 */
	if (!kvm_set_pmuserenr(userenr))
		write_sysreg(userenr, pmuserenr_el0);
	isb();
}
