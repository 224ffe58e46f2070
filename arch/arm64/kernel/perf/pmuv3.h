/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface of the arm64 PMUv3 driver: the PMU registers and their
 * bits, the per-PMU and per-CPU state, and every symbol shared between the
 * files of arch/arm64/kernel/perf/ (mapped in "DOC: Files" below).
 *
 * Locking
 * -------
 * Each PMU instance keeps one struct pmuv3_cpu per CPU.  Only the CPU that
 * owns it touches it, always with IRQs off: the core calls ->add(), ->del(),
 * ->start(), ->stop(), ->read() and ->pmu_enable()/->pmu_disable() with
 * ctx->lock held (IRQs off) on the event's CPU, the overflow interrupt
 * runs on that CPU with IRQs off, and so do the CPU_PM notifications.
 * The per-PMU fields are written once at probe time, before registration,
 * and only read afterwards.
 */

/**
 * DOC: Files
 *
 * ``pmuv3.h``
 *   register bits, the per-PMU and per-CPU state, the locking rules,
 *   every symbol shared by the files below
 * ``probe.c``
 *   the platform driver: device tree probe, per-CPU bring-up (hotplug),
 *   the overflow interrupt request, registration with the core
 * ``acpi.c``
 *   the PMUs of ACPI systems, from the MADT
 * ``pmu.c``
 *   the struct pmu callbacks, period arithmetic and the overflow handler
 * ``hw.c``
 *   raw register access of the calling CPU: counters, types, enables
 * ``counters.c``
 *   counter allocation, chaining, group validation
 * ``events.c``
 *   generic and cache events to PMUv3 event numbers
 * ``sysfs.c``
 *   ``events/``, ``format/``, ``caps/`` and ``cpus`` of each PMU
 * ``user_access.c``
 *   the ``perf_user_access`` sysctl, ``event_idx``, the user page fields
 * ``cpu_pm.c``
 *   the PMU state across CPU low-power states (``CONFIG_CPU_PM``)
 * ``callchain.c``, ``regs.c``
 *   what a sample needs of arm64: IP and mode, callchains, registers
 * ``tests/``
 *   KUnit: ``perf_pmuv3`` (event mapping, counter allocation) and
 *   ``perf_pmuv3_cpu_pm`` (counting across a low-power state), one
 *   Kconfig option each
 */
#ifndef _ARM64_KERNEL_PERF_PMUV3_H
#define _ARM64_KERNEL_PERF_PMUV3_H

#include <linux/bitmap.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/irqreturn.h>
#include <linux/notifier.h>
#include <linux/perf_event.h>
#include <linux/perf/arm_pmu.h>
#include <linux/smp.h>

/*
 * PMCR_EL0, the control register.
 *   E   enable every counter whose PMCNTENSET bit is set
 *   P   write 1: reset the event counters to zero
 *   C   write 1: reset the cycle counter to zero
 *   LC  the cycle counter overflows at 64 bits (else at 32)
 *   LP  the event counters overflow at 64 bits (PMUv3p5, else RES0)
 *   N   number of event counters implemented
 */
#define PMUV3_PMCR_E		BIT(0)
#define PMUV3_PMCR_P		BIT(1)
#define PMUV3_PMCR_C		BIT(2)
#define PMUV3_PMCR_LC		BIT(6)
#define PMUV3_PMCR_LP		BIT(7)
#define PMUV3_PMCR_N		GENMASK(15, 11)

/*
 * PMEVTYPER<n>_EL0 and PMCCFILTR_EL0: the event counted and the exception
 * levels filtered out.  A set P excludes EL1, U excludes EL0; NSH set
 * includes (non-secure) EL2, which is otherwise not counted.
 *   TC  threshold condition (FEAT_PMUv3_TH), TH the threshold value
 */
#define PMUV3_EVTYPE_EVENT	GENMASK(15, 0)
#define PMUV3_EVTYPE_NSH	BIT(27)
#define PMUV3_EVTYPE_U		BIT(30)
#define PMUV3_EVTYPE_P		BIT(31)
#define PMUV3_EVTYPE_TH		GENMASK_ULL(43, 32)
#define PMUV3_EVTYPE_TC		GENMASK_ULL(63, 61)

/*
 * PMUSERENR_EL0: what EL0 may access.  CR lets it read the cycle counter,
 * ER read the event counters (and write PMSELR_EL0).
 */
#define PMUV3_USERENR_CR	BIT(2)
#define PMUV3_USERENR_ER	BIT(3)

/*
 * PMMIR_EL1 (PMUv3p4 and later): SLOTS, BUS_SLOTS, BUS_WIDTH (log2 of the
 * bus width in bytes, plus one) and THWIDTH (bits of the threshold).
 */
#define PMUV3_PMMIR_SLOTS	GENMASK(7, 0)
#define PMUV3_PMMIR_BUS_SLOTS	GENMASK(15, 8)
#define PMUV3_PMMIR_BUS_WIDTH	GENMASK(19, 16)
#define PMUV3_PMMIR_THWIDTH	GENMASK(23, 20)

/* Counter indices are the hardware's: event counters 0..30, cycles 31. */
#define PMUV3_MAX_EVENT_COUNTERS 31
#define PMUV3_IDX_CYCLES	31
#define PMUV3_NR_IDX		32

/* PMUv3 common event numbers the driver itself relies on */
#define PMUV3_EV_SW_INCR	0x00
#define PMUV3_EV_INST_RETIRED	0x08
#define PMUV3_EV_CPU_CYCLES	0x11
#define PMUV3_EV_CHAIN		0x1e

/* Bits of attr.config1, as user space sees them in format/ */
#define PMUV3_CONFIG1_LONG	BIT(0)
#define PMUV3_CONFIG1_RDPMC	BIT(1)
#define PMUV3_CONFIG1_TH_COUNT	BIT(2)
#define PMUV3_CONFIG1_TH_CMP	GENMASK(4, 3)
#define PMUV3_CONFIG1_TH	GENMASK(16, 5)

/* event->hw.flags */
#define PMUV3_F_LONG		BIT(0)	/* 64-bit count (config1 long) */
#define PMUV3_F_CHAINED		BIT(1)	/* an even/odd pair of counters */
/* user access asked for (rdpmc): the core counts these in ctx->nr_user */
#define PMUV3_F_USER		PERF_EVENT_FLAG_USER_READ_CNT

/*
 * The implemented common events, from PMCEID0/1_EL0: bits 0..63 stand for
 * events 0x0000..0x003f, bits 64..127 for events 0x4000..0x403f.
 */
#define PMUV3_NR_COMMON		128

/*
 * One PMU instance: the CPUs of one type, as the firmware described them.
 * It is a struct arm_pmu for KVM, which finds its host PMUs through
 * kvm_host_pmu_init() and reads the fields the driver fills in there: the
 * struct pmu, the CPUs it counts on (supported_cpus), the counters
 * (cntr_mask), the common events implemented (pmceid_bitmap,
 * pmceid_ext_bitmap) and the PMU version.  The other arm_pmu fields belong
 * to the 32-bit ARM framework and stay unused.
 */
struct pmuv3 {
	struct arm_pmu		arm;
	char			name[32];
	int			nr_counters;	/* PMCR_EL0.N */
	bool			has_64bit;	/* PMUv3p5: 64-bit event counters */
	u32			pmmir;		/* PMMIR_EL1, 0 before PMUv3p4 */
	int			irq;		/* a PPI, or the first of per-CPU SPIs */
	bool			irq_percpu;
	DECLARE_BITMAP(implemented, PMUV3_NR_COMMON);
	struct pmuv3_cpu __percpu *cpu;
	struct hlist_node	node;		/* CPU hotplug instance */
	struct notifier_block	pm_nb;		/* CPU low-power states (cpu_pm.c) */
	struct list_head	entry;		/* pmuv3_list (probe.c) */
};

/* This CPU's view of one PMU instance; see "Locking" above. */
struct pmuv3_cpu {
	struct pmuv3		*pmuv3;
	int			irq;		/* its SPI, without a PPI (probe) */
	bool			irq_requested;
	/* the event on each counter; a chained pair's is at its even index */
	struct perf_event	*events[PMUV3_NR_IDX];
	/* counters in use, both halves of a chained pair included */
	DECLARE_BITMAP(used, PMUV3_NR_IDX);
	/* kept across a CPU low-power state by cpu_pm.c */
	DECLARE_BITMAP(pm_stopped, PMUV3_NR_IDX); /* counters it stopped */
	u64			pm_userenr;	/* PMUSERENR_EL0 */
	bool			pm_running;	/* PMCR_EL0.E */
};

static inline struct pmuv3 *to_pmuv3(struct pmu *pmu)
{
	return container_of(pmu, struct pmuv3, arm.pmu);
}

/*
 * What counter an event needs, as counters.c decides it: the event number,
 * whether a chained pair is needed, and the ways the event can be counted.
 */
struct pmuv3_counter_req {
	u16	evnum;
	bool	chained;	/* an even/odd pair of 32-bit counters */
	bool	may_use_cycles;	/* CPU_CYCLES: the cycle counter will do */
	bool	keep_pairs;	/* 32-bit counters: leave pairs for chaining */
};

/* hw.c */
u64 pmuv3_hw_read_counter(int idx);
void pmuv3_hw_write_counter(int idx, u64 val);
void pmuv3_hw_write_type(int idx, u64 type);
void pmuv3_hw_enable_counter(int idx);
void pmuv3_hw_disable_counter(int idx);
void pmuv3_hw_enable_irq(int idx);
void pmuv3_hw_disable_irq(int idx);
u64 pmuv3_hw_read_clear_overflow(void);
void pmuv3_hw_start(void);
void pmuv3_hw_stop(void);
void pmuv3_hw_reset(struct pmuv3 *pmuv3);
void pmuv3_hw_set_user(bool on);

/* counters.c */
void pmuv3_counter_req(struct pmuv3 *pmuv3, struct perf_event *event,
		       struct pmuv3_counter_req *req);
int pmuv3_pick_counter(const struct pmuv3_counter_req *req,
		       unsigned long *used, int nr_counters);
void pmuv3_release_counter(const struct pmuv3_counter_req *req, int idx,
			   unsigned long *used);
int pmuv3_validate_group(struct pmuv3 *pmuv3, struct perf_event *event);

/* events.c */
int pmuv3_map_hw_event(u64 config, const unsigned long *implemented);
int pmuv3_map_cache_event(u64 config, const unsigned long *implemented);
bool pmuv3_event_implemented(u16 evnum, const unsigned long *implemented);
void pmuv3_read_implemented(u64 pmceid0, u64 pmceid1,
			    unsigned long *implemented);

/* cpu_pm.c */
#ifdef CONFIG_CPU_PM
int pmuv3_cpu_pm_register(struct pmuv3 *pmuv3);
void pmuv3_cpu_pm_unregister(struct pmuv3 *pmuv3);
#else
static inline int pmuv3_cpu_pm_register(struct pmuv3 *pmuv3)
{
	return 0;
}

static inline void pmuv3_cpu_pm_unregister(struct pmuv3 *pmuv3)
{
}
#endif

/* probe.c */
struct pmuv3 *pmuv3_instance_alloc(const struct cpumask *cpus);
void pmuv3_instance_free(struct pmuv3 *pmuv3);
int pmuv3_instance_add(struct pmuv3 *pmuv3, struct device *parent,
		       const char *name);
void pmuv3_on_each_cpu(smp_call_func_t fn, void *info);

/* acpi.c */
#ifdef CONFIG_ACPI
void pmuv3_acpi_probe(void);
#else
static inline void pmuv3_acpi_probe(void)
{
}
#endif

/* pmu.c */
void pmuv3_pmu_init(struct pmuv3 *pmuv3);
void pmuv3_start(struct perf_event *event, int flags);
void pmuv3_stop(struct perf_event *event, int flags);
bool pmuv3_owns(struct pmu *pmu);
irqreturn_t pmuv3_overflow_irq(int irq, void *dev);

/* sysfs.c */
extern const struct attribute_group *pmuv3_attr_groups[];

/* user_access.c */
bool pmuv3_user_access_allowed(void);
int pmuv3_event_idx(struct perf_event *event);

#endif /* _ARM64_KERNEL_PERF_PMUV3_H */
