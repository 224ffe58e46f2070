/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface of the x86 core PMU driver (Intel architectural
 * performance monitoring, AMD core counters): what an event asks of the
 * hardware, where it is counted, and how it is programmed and read; the
 * map of arch/x86/events is "DOC: Files" below.
 *
 * Counter indices are the global control's bit numbers: general-purpose
 * counter i is index i, fixed counter i is X86_CORE_IDX_FIXED + i.
 *
 * Locking
 * -------
 * A struct x86_core_pmu is filled once (from detection) before any event
 * uses it, and only read afterwards, but for @freeze_on_smi: the sysfs
 * file writes it under the driver's freeze_lock with CPU hotplug held
 * off (cpus_read_lock()), and a CPU that comes up reads it.
 *
 * A struct x86_core_cpu belongs to one CPU: every function taking one runs
 * on that CPU with IRQs off (under the core's ctx->lock, or in the PMI,
 * which is an NMI), or, under KUnit, in the one test thread that owns it.
 * The mapping, validation and constraint functions only read their
 * arguments.
 */

/**
 * DOC: Files
 *
 * ``cpu_pmu.h``
 *   the cpu driver's private interface and its locking
 * ``pmu.c``
 *   the registered "cpu" PMU: struct pmu, transactions, the PMI (an NMI),
 *   CPU hotplug, suspend, the boot log, Xen PV's forwarded PMI,
 *   freeze_on_smi
 * ``events.c``
 *   generic, cache and raw events to PERFEVTSEL / PERF_CTL values; the
 *   exclusion bits; the checks of event_init
 * ``counters.c``
 *   counter constraints, assignment of a set of events to counters (all
 *   or nothing), group validation at open
 * ``count.c``
 *   programming the counters, global or per-counter enable, reading with
 *   extension to 64 bits, sample periods, the overflow (PMI) handler
 * ``sysfs.c``
 *   ``format/``, ``events/``, ``caps/``, ``freeze_on_smi``
 * ``user_access.c``
 *   user-space RDPMC: the ``rdpmc`` file, CR4.PCE per mm, the user page's
 *   counter index and width
 * ``virt.c``
 *   what KVM asks of the driver (capabilities, event selects, guest MSRs,
 *   AMD SVM, LBR) and each local APIC's LVTPC
 * ``detect.c``, ``detect.h``
 *   CPUID detection of Intel and AMD core PMUs
 * ``models.c``
 *   the Intel model layer: what the driver knows of a model beyond CPUID
 *   (its name, cache events, the counters each event may use)
 * ``extra_regs.c``
 *   Intel's extra registers: offcore response, load latency, front end
 * ``topdown.c``
 *   Intel's topdown: slots on fixed counter 3, the metrics of PERF_METRICS
 * ``intel_lbr.c``
 *   Intel's last branch records: branch stacks of samples, filters,
 *   call-stack mode; the same paths for AMD's LBR stack
 * ``amd_lbr.c``
 *   AMD's LBR stack (LbrExtV2): its records, clearing, enabling, and what
 *   a request may not ask of it
 * ``intel_pebs.c``, ``intel_ds.c``
 *   Intel's precise event-based sampling: precise events, their counters,
 *   PEBS_ENABLE, samples from the records; the debug store area and the
 *   PEBS buffers in the CPU entry area
 * ``intel_counters.c``
 *   the counters each event of a model may use, generated from the perfmon
 *   event lists (bench/qemu/x86-event-counters.py --kernel)
 * ``hw.c``, ``hw.h``
 *   the hardware access layer (MSRs, CPUID, RDPMC, LVTPC)
 * ``arch.c``
 *   what a sample needs of x86: IP and mode, callchains, the user page's
 *   time fields
 * ``msr.c``, ``rapl.c``, ``intel_cstate.c``, ``free_running.h``
 *   the msr PMU (tsc, aperf, mperf, pperf, smi, ptsc, irperf), the power
 *   PMU (RAPL energy, package scope, module rapl), the C-state residency
 *   PMUs (module intel_cstate), and the callbacks of free-running
 *   counters that msr and cstate share
 * ``intel_pt.c``, ``perf_event.h``
 *   what other x86 code asks of features not built (PT capabilities);
 *   Xen's and resctrl's header
 * ``tests/``
 *   KUnit: a model of the PMU's MSRs (``pmu_model.c``) with CPUID
 *   fixtures of real parts (``pmu_fixtures.c``), and the suites
 *   ``perf_x86_detect``, ``_model``, ``_core``, ``_driver`` and
 *   ``perf_intel_pt``
 */
#ifndef _ARCH_X86_EVENTS_CORE_PMU_H
#define _ARCH_X86_EVENTS_CORE_PMU_H

#include <linux/perf_event.h>
#include <linux/types.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>

#include "detect.h"
#include "hw.h"

#define X86_CORE_IDX_FIXED	INTEL_PMC_IDX_FIXED
#define X86_CORE_MAX_GP		INTEL_PMC_MAX_GENERIC
/* fixed counters the driver knows what they count (SDM: 0 to 3) */
#define X86_CORE_NR_FIXED	4
#define X86_CORE_NR_IDX		(X86_CORE_IDX_FIXED + X86_CORE_NR_FIXED)

/*
 * Intel: the pseudo-encodings of the fixed counters (event select 0, unit
 * mask i + 1; SDM vol. 3B, "Fixed-Function Performance Counters", as the
 * event lists give them).  They name a fixed counter only and cannot be
 * programmed on a general-purpose counter.
 */
#define X86_CORE_FIXED_PSEUDO(i)	(((u64)(i) + 1) << 8)

/* hw.flags of the driver's own (PERF_EVENT_FLAG_ARCH) */
#define X86_CORE_FLAG_METRIC	BIT(0)	/* a topdown metric event */
#define X86_CORE_FLAG_TD_SLOTS	BIT(1)	/* counting slots, metrics leader */
#define X86_CORE_FLAG_PEBS	BIT(2)	/* precise: sampled by PEBS records */
#define X86_CORE_FLAG_PEBS_LARGE BIT(3)	/* ... a buffer of them a PMI */
#define X86_CORE_FLAG_VLBR	BIT(4)	/* KVM's guest LBR event: no counter */
#define X86_CORE_FLAG_PEBS_GUEST BIT(5)	/* ... KVM's for a guest's PEBS counter */

/*
 * A software bit of hw.config, never written to a control MSR: the event
 * samples by PEBS, so the counters it may use are PEBS's (counters.c).
 */
#define X86_CORE_EVSEL_PEBS	BIT_ULL(63)
/*
 * ... and precise distribution: fixed counter 0 alone (adaptive PEBS), or
 * general counter 0 (Sapphire Rapids, x86_pebs_counters())
 */
#define X86_CORE_EVSEL_PDIST	BIT_ULL(62)
#define X86_CORE_EVSEL_SW	(X86_CORE_EVSEL_PEBS | X86_CORE_EVSEL_PDIST)

/* what an Intel config with event select 0 is (topdown.c) */
enum x86_topdown_kind {
	X86_TD_NONE,		/* not event select 0 */
	X86_TD_FIXED,		/* a fixed counter's pseudo-encoding */
	X86_TD_METRIC,		/* a topdown metric */
	X86_TD_GENERAL,		/* an event for general-purpose counters */
	X86_TD_INVALID,		/* none of these: EINVAL */
};

/* the control bits a fixed counter cannot apply: it counts its event as is */
#define X86_CORE_FIXED_CANNOT	(ARCH_PERFMON_EVENTSEL_EDGE | \
				 ARCH_PERFMON_EVENTSEL_INV | \
				 ARCH_PERFMON_EVENTSEL_CMASK | \
				 ARCH_PERFMON_EVENTSEL_PIN_CONTROL)

/* The Intel architectural events (CPUID 0xA EBX bit numbers, SDM) */
enum x86_core_arch_event {
	X86_ARCH_CORE_CYCLES,		/* 0x3c, umask 0x00 */
	X86_ARCH_INSTRUCTIONS,		/* 0xc0, umask 0x00 */
	X86_ARCH_REF_CYCLES,		/* 0x3c, umask 0x01 */
	X86_ARCH_LLC_REFERENCES,	/* 0x2e, umask 0x4f */
	X86_ARCH_LLC_MISSES,		/* 0x2e, umask 0x41 */
	X86_ARCH_BRANCHES,		/* 0xc4, umask 0x00 */
	X86_ARCH_BRANCH_MISSES,		/* 0xc5, umask 0x00 */
	X86_ARCH_TOPDOWN_SLOTS,		/* 0xa4, umask 0x01 */
	X86_ARCH_NR_EVENTS,
};

/*
 * struct x86_counter_rule - the general-purpose counters an Intel event may
 * use, where its model does not let it use them all
 * @event: the event select (PERFEVTSEL bits 7:0)
 * @umask: the unit mask the rule is for, unless @every_umask
 * @every_umask: the rule holds for every unit mask of @event
 * @counters: bit i set: general-purpose counter i may count the event
 *
 * A model's rules are sorted by @event; an event's rules for one unit mask
 * come first, by @umask, then at most one with @every_umask for its other
 * unit masks (without one, they may use every counter).
 */
struct x86_counter_rule {
	u8 event;
	u8 umask;
	bool every_umask;
	u8 counters;
};

#define X86_RULE(e, u, c)	{ .event = (e), .umask = (u), .counters = (c) }
#define X86_RULE_EVENT(e, c)	{ .event = (e), .every_umask = true,	\
				  .counters = (c) }

/*
 * a family 6 model's rules, on a hybrid model a core type's (CPUID 0x1A,
 * 0 for any other model); the generated table ends with model 0
 */
struct x86_counter_rules {
	u8 model;
	const struct x86_counter_rule *rules;
	unsigned int nr;
	u8 core_type;
};

extern const struct x86_counter_rules x86_intel_counter_rules[];

/* Intel's extra registers (extra_regs.c) */
enum x86_extra_reg_index {
	X86_XREG_RSP_0,		/* OFFCORE_RSP_0 */
	X86_XREG_RSP_1,		/* OFFCORE_RSP_1 */
	X86_XREG_LDLAT,		/* PEBS_LD_LAT_THRESHOLD */
	X86_XREG_FRONTEND,	/* PEBS_FRONTEND */
	X86_XREG_SNOOP_0,	/* SNOOP_RSP_0 */
	X86_XREG_SNOOP_1,	/* SNOOP_RSP_1 */
	X86_XREG_NR,
};

/* the registers probed together, and the snoop response ones */
#define X86_XREGS_BASE		(BIT(X86_XREG_RSP_0) | BIT(X86_XREG_RSP_1) | \
				 BIT(X86_XREG_LDLAT) | BIT(X86_XREG_FRONTEND))
#define X86_XREGS_SNOOP		(BIT(X86_XREG_SNOOP_0) | BIT(X86_XREG_SNOOP_1))

/*
 * struct x86_extra_event - an event of a model that takes a second value
 * from an extra register (extra_regs.c)
 * @code: its event select and unit mask
 * @reg: the register (enum x86_extra_reg_index)
 * @valid: the bits of the value (attr.config1) it takes; any other is
 *	EINVAL
 */
struct x86_extra_event {
	u16 code;
	u8 reg;
	u64 valid;
};

/*
 * struct x86_cache_event - a model's event for one (cache, op, result)
 * @cache: PERF_COUNT_HW_CACHE_*
 * @op: PERF_COUNT_HW_CACHE_OP_*
 * @result: PERF_COUNT_HW_CACHE_RESULT_*
 * @evsel: its control value (event select and unit mask), or
 *	X86_CACHE_INVALID where the op makes no sense for the cache (-EINVAL;
 *	a combination no entry lists is -ENOENT)
 * @extra: the offcore response mask where @evsel is an offcore response
 *	event (extra_regs.c), else 0
 */
struct x86_cache_event {
	u8 cache;
	u8 op;
	u8 result;
	u64 evsel;
	u64 extra;
};

#define X86_CACHE_INVALID	(~0ULL)

/*
 * struct x86_intel_model - what the driver knows of an Intel model (a
 * microarchitecture's family 6 models) beyond what CPUID says
 * @name: its events' name in the boot log ("Skylake")
 * @pmu_name: what caps/pmu_name says
 * @cache: its cache events, looked up first
 * @nr_cache: how many
 * @cache_base: those it shares with other models, looked up next
 * @nr_cache_base: how many
 * @extra: its events that take a value from an extra register; an
 *	offcore response register has one
 * @nr_extra: how many (0: the model has no extra registers)
 * @metrics: the fields of its PERF_METRICS (topdown.c), 0 without topdown
 * @topdown_events: it has topdown events counted by general events
 *	(events/topdown-total-slots and others, sysfs.c)
 * @ref_cycles_p: event 0x3c unit mask 1 counts reference cycles at the
 *	TSC rate, as fixed counter 2 does (not at the bus clock): it is
 *	ref-cycles, and fixed counter 2 may count it
 * @mem_loads_aux: it lists events/mem-loads-aux (Sapphire Rapids), the
 *	event its load-latency events are grouped behind (with PEBS)
 * @prec_dist_fixed: event 0xc0 unit mask 1 (INST_RETIRED.PREC_DIST) may
 *	use fixed counter 0 as well (Ice Lake)
 * @lbr_nr: its last branch records (intel_lbr.c: Skylake's kind), 0
 *	without
 * @pebs: the PEBS record format of the model that intel_pebs.c drives
 *	(3: Skylake's, 4: Ice Lake's adaptive PEBS), where CPUID and the
 *	capabilities say PEBS; 0 without
 * @pebs_pdist_gp0: Sapphire Rapids' PEBS counters: precise level 3 on
 *	general counter 0 (instructions on fixed counter 0), the
 *	instructions events and load latency on general counters 1 and up,
 *	the records' latency word split into the cache's and the
 *	instruction's
 * @atom_topdown: the four level-1 topdown events of the Atom cores, from
 *	general events (sysfs.c)
 * @snoop_rsp: its offcore responses have format/snoop_rsp too (Crestmont)
 * @mem_loads: what events/mem-loads says, where not Skylake's event
 * @mem_stores: what events/mem-stores says, where not Skylake's
 */
struct x86_intel_model {
	const char *name;
	const char *pmu_name;
	const struct x86_cache_event *cache;
	unsigned int nr_cache;
	const struct x86_cache_event *cache_base;
	unsigned int nr_cache_base;
	const struct x86_extra_event *extra;
	unsigned int nr_extra;
	u8 metrics;
	bool topdown_events;
	bool ref_cycles_p;
	bool mem_loads_aux;
	bool prec_dist_fixed;
	u8 lbr_nr;
	u8 pebs;
	bool pebs_pdist_gp0;
	bool atom_topdown;
	bool snoop_rsp;
	const char *mem_loads;
	const char *mem_stores;
};

/*
 * Called for a sampling event whose period ended, with the period; a
 * nonzero return asks for the event to be stopped (throttling).  The
 * registered driver passes perf_event_overflow(); KUnit records the call.
 */
typedef int (*x86_core_overflow_fn)(struct perf_event *event, u64 period,
				    void *arg);

/*
 * struct x86_core_pmu - one core PMU, as detected
 *
 * @hw: the hardware (x86_hw_native, or a KUnit model).
 * @desc: what detection found.
 * @pmu: the struct pmu its events belong to (group validation looks at
 *	the members' PMU); not registered by this slice.
 * @max_period: the longest period a counter can be armed with: half the
 *	counter's range where counters are written at full width (AMD, and
 *	Intel with FW_WRITE), else 2^31 - 1, as IA32_PMCx writes take bits
 *	31:0 only and sign-extend them.
 * @overflow: called for a sampling event whose period ended.
 * @overflow_arg: its last argument.
 * @hg_bits: AMD: what each CPU's @hg_bits starts as when the CPU comes
 *	up (false for the native PMU: SVM is off until KVM turns it on).
 * @freeze_on_smi: Intel: the counters stop while a CPU is in System
 *	Management Mode (IA32_DEBUGCTL.FREEZE_WHILE_SMM on every CPU); on
 *	from boot, sysfs "freeze_on_smi" turns it off and on.
 */
struct x86_core_pmu {
	const struct x86_hw *hw;
	struct x86_core_desc desc;
	struct pmu *pmu;
	u64 max_period;
	x86_core_overflow_fn overflow;
	void *overflow_arg;
	bool hg_bits;
	bool freeze_on_smi;
};

/*
 * struct x86_extra_reg - an extra register of a CPU
 * @value: the value it holds for its users
 * @users: the placed events that read it
 */
struct x86_extra_reg {
	u64 value;
	unsigned int users;
};

/*
 * struct x86_lbr_cpu - a CPU's last branch records (intel_lbr.c)
 * @users: placed events with a branch stack
 * @cpu_users: of them, CPU-wide ones
 * @running: of them, started (recording while any is)
 * @select: the LBR_SELECT value they share
 * @last_id: the id of the task event whose records the ring holds, 0
 *	when it may hold anyone's
 * @snapped: @snapshot holds the records of the PMI being handled
 * @snapshot: the records the PMI took (a struct perf_branch_stack)
 * @out: a sample's branch stack, filtered for its event
 */
struct x86_lbr_cpu {
	unsigned int users;
	unsigned int cpu_users;
	unsigned int running;
	u64 select;
	u64 last_id;
	bool snapped;
	u64 snapshot[2 + 3 * X86_LBR_MAX];
	u64 out[2 + 3 * X86_LBR_MAX];
};

/*
 * struct x86_pebs_cpu - a CPU's PEBS (intel_pebs.c)
 * @enabled: what IA32_PEBS_ENABLE holds: the started PEBS counters (bit
 *	i), and load latency on them (bit 32 + i)
 * @single: of the started ones, those that need a PMI at every record
 * @guest: the started counters of KVM's events for a guest's PEBS
 *	counters (a subset of the running ones: x86_pebs_start() and
 *	x86_pebs_stop() follow the counter): what the guest's
 *	IA32_PEBS_ENABLE may hold (virt.c)
 * @data_cfg: adaptive PEBS: what MSR_PEBS_DATA_CFG holds
 * @draining: the buffer is being drained (an NMI leaves it alone)
 * @tsc_clock: in that drain, sched_clock() runs from the TSC: a record's
 *	time stamp is its sample's time
 */
struct x86_pebs_cpu {
	u64 enabled;
	u64 single;
	u64 guest;
	u64 data_cfg;
	bool draining;
	bool tsc_clock;
};

/*
 * struct x86_core_cpu - one CPU's counters; see "Locking" above.
 *
 * @core: the PMU.
 * @events: the event on each counter index.
 * @allowed: the counters each of them may use (its constraint), by the
 *	same index.
 * @used: counter indices assigned to an event.
 * @guest_only: Intel: of those, the counters of events that exclude the
 *	host, left out of the host's global control (they count in guests
 *	only, when KVM's VM entry switches to perf_guest_get_msrs()' value).
 * @running: counter indices started (counting whenever the PMU is on).
 * @enabled: the PMU is on (pmu_enable); off between pmu_disable and
 *	pmu_enable, and in the PMI.
 * @hg_bits: AMD: the HostOnly and GuestOnly bits go to the counters (SVM
 *	is enabled on this CPU); without SVM they are left out, as no guest runs
 *	and a counter with HostOnly alone would not count.
 * @merged: AMD: the odd counters that placed counter pairs hold (the event
 *	is on the even counter below each, in @events).
 * @fixed_ctrl: what IA32_FIXED_CTR_CTRL holds.
 * @extra: Intel: the extra registers (extra_regs.c).
 * @metric: Intel: the placed topdown metric events, by field (topdown.c).
 * @lbr: the last branch records (intel_lbr.c, amd_lbr.c).
 * @pebs: Intel: PEBS (intel_pebs.c).
 * @late_pmi_until: AMD: until when (jiffies) an NMI without overflow
 *	status is taken as a late PMI of the last one handled.
 */
struct x86_core_cpu {
	const struct x86_core_pmu *core;
	struct perf_event *events[X86_CORE_NR_IDX];
	u64 allowed[X86_CORE_NR_IDX];
	u64 used;
	u64 guest_only;
	u64 running;
	bool enabled;
	bool hg_bits;
	u64 merged;
	u64 fixed_ctrl;
	struct x86_extra_reg extra[X86_XREG_NR];
	struct perf_event *metric[INTEL_TD_METRIC_NUM];
	struct x86_lbr_cpu lbr;
	struct x86_pebs_cpu pebs;
	unsigned long late_pmi_until;
};

/*
 * struct x86_core_driver_cpu - a registered driver's state on one CPU
 *
 * @counters: the counters.
 * @regs: the interrupted registers while the PMI is handled.
 * @txn_flags: the open transaction (PERF_PMU_TXN_*), 0 outside one.
 * @nr_txn: events add()ed in it, waiting in @txn for commit_txn.
 * @txn: those events.
 * @txn_start: whether add() asked to start each.
 * @guest_msr: what perf_guest_get_msrs() hands KVM (the global control;
 *	with PEBS, PEBS_ENABLE; with guest PEBS, the DS area and the data
 *	configuration too).
 */
/* the most MSRs perf_guest_get_msrs() hands KVM */
#define X86_GUEST_MSRS	4

struct x86_core_driver_cpu {
	struct x86_core_cpu counters;
	struct pt_regs *regs;
	unsigned int txn_flags;
	unsigned int nr_txn;
	struct perf_event *txn[X86_CORE_NR_IDX];
	bool txn_start[X86_CORE_NR_IDX];
	struct perf_guest_switch_msr guest_msr[X86_GUEST_MSRS];
};

/*
 * struct x86_core_driver - a core PMU registered with the perf core
 *
 * @pmu: what the core calls.
 * @core: the PMU it drives.
 * @state: the per-CPU state.
 * @cpus: a hybrid part's PMU: the online CPUs of its core type, which
 *	CPU hotplug changes (on the CPU coming or going); its events count
 *	there only (pmu->filter).
 * @native: the driver of real CPUs (pmu.c), not a KUnit model's.
 * @reported: a hybrid PMU's counters are in the boot log (when its first
 *	CPU came up).
 */
struct x86_core_driver {
	struct pmu pmu;
	struct x86_core_pmu core;
	struct x86_core_driver_cpu __percpu *state;
	cpumask_t cpus;
	bool native;
	bool reported;
};

/* pmu.c */
int x86_core_driver_setup(struct x86_core_driver *drv, const struct x86_hw *hw,
			  const struct x86_core_desc *desc);
void x86_core_driver_cpu_up(struct x86_core_driver *drv, unsigned int nr);
void x86_core_driver_free(struct x86_core_driver *drv);
int x86_core_driver_pmi(struct x86_core_driver *drv, struct pt_regs *regs);
struct x86_core_driver *x86_core_native(void);
struct x86_core_driver *x86_core_local(void);
struct x86_core_driver *x86_core_driver_of(struct pmu *pmu);
void x86_core_driver_set_freeze_on_smi(struct x86_core_driver *drv, bool on);

/* virt.c */
struct kvm_pmu;
unsigned int x86_core_guest_msrs(const struct x86_core_cpu *cpu,
				 const struct kvm_pmu *kvm,
				 struct perf_guest_switch_msr *msrs);

/* sysfs.c */
extern const struct attribute_group *x86_core_attr_groups[];

/* user_access.c */
extern const struct attribute_group x86_core_rdpmc_group;
void x86_core_user_update_userpage(struct perf_event *event,
				   struct perf_event_mmap_page *up);
void x86_core_user_event_init(struct perf_event *event);
int x86_core_user_event_idx(struct perf_event *event);
void x86_core_user_event_mapped(struct perf_event *event, struct mm_struct *mm);
void x86_core_user_event_unmapped(struct perf_event *event,
				  struct mm_struct *mm);

/* events.c */
int x86_core_map_hw_event(const struct x86_core_desc *desc, u64 config,
			  u64 *evsel);
int x86_core_map_cache_event(const struct x86_core_desc *desc, u64 config,
			     u64 *evsel, u64 *extra);
const struct x86_cache_event *x86_cache_find(const struct x86_cache_event *ev,
					     unsigned int n, unsigned int cache,
					     unsigned int op,
					     unsigned int result);
int x86_core_check_raw(const struct x86_core_desc *desc, u64 config,
		       u64 *evsel);
u64 x86_core_filter_bits(const struct x86_core_desc *desc,
			 const struct perf_event_attr *attr);
int x86_core_event_init(struct x86_core_pmu *core, struct perf_event *event);

/* extra_regs.c */
bool x86_extra_probe(const struct x86_hw *hw, unsigned long regs);
int x86_extra_event_init(const struct x86_core_desc *desc,
			 struct perf_event *event, u64 evsel, u64 value);
int x86_extra_take(const struct x86_core_desc *desc, struct x86_extra_reg *regs,
		   const struct perf_event *event, u64 *evsel);
void x86_extra_placed(struct perf_event *event, int idx);
void x86_extra_untake(struct x86_extra_reg *regs,
		      const struct perf_event *event, int idx);
void x86_extra_release(struct x86_extra_reg *regs, struct perf_event *event);
void x86_extra_write(const struct x86_hw *hw, struct perf_event *event);

/* topdown.c */
enum x86_topdown_kind x86_topdown_code(const struct x86_core_desc *desc,
				       u64 code);
int x86_topdown_event_init(const struct x86_core_pmu *core,
			   struct perf_event *event);
unsigned int x86_topdown_field(const struct perf_event *event);
int x86_topdown_place(struct x86_core_cpu *cpu, struct perf_event *event,
		      bool check);
void x86_topdown_read(struct x86_core_cpu *cpu);
void x86_topdown_clear(struct x86_core_cpu *cpu);
void x86_topdown_stop(struct x86_core_cpu *cpu);
void x86_topdown_del(struct x86_core_cpu *cpu, struct perf_event *event);

static inline bool x86_core_is_metric(const struct perf_event *event)
{
	return event->hw.flags & X86_CORE_FLAG_METRIC;
}

/*
 * KVM's guest LBR event (INTEL_FIXED_VLBR_EVENT, on an Intel model with
 * LBRs): it counts nothing and takes no counter, only the LBRs, which
 * its vCPU's guest programs and KVM passes through while it is placed
 * (intel_lbr.c).
 */
static inline bool x86_core_is_vlbr(const struct perf_event *event)
{
	return event->hw.flags & X86_CORE_FLAG_VLBR;
}

/* amd_lbr.c */
u64 x86_amd_lbr_unsupported(void);
void x86_amd_lbr_reset(struct x86_core_cpu *cpu);
void x86_amd_lbr_enable(struct x86_core_cpu *cpu, bool on);
unsigned int x86_amd_lbr_read(struct x86_core_cpu *cpu,
			      struct perf_branch_entry *entries,
			      unsigned int max);

/* intel_lbr.c */
u64 x86_lbr_select(u64 branch_sample_type, u32 *sw_types);
int x86_lbr_event_init(const struct x86_core_desc *desc,
		       struct perf_event *event);
void x86_lbr_probe(const struct x86_hw *hw, struct x86_core_desc *desc);
void x86_lbr_reset(struct x86_core_cpu *cpu);
int x86_lbr_take(struct x86_core_cpu *cpu, struct perf_event *event);
void x86_lbr_untake(struct x86_core_cpu *cpu, struct perf_event *event);
void x86_lbr_event_destroy(struct perf_event *event);
void x86_lbr_placed(struct x86_core_cpu *cpu, struct perf_event *event);
void x86_lbr_lend(struct x86_core_cpu *cpu, struct perf_event *event);
void x86_lbr_release(struct x86_core_cpu *cpu, struct perf_event *event);
void x86_lbr_start(struct x86_core_cpu *cpu, struct perf_event *event);
void x86_lbr_stop(struct x86_core_cpu *cpu, struct perf_event *event);
void x86_lbr_resume(struct x86_core_cpu *cpu);
unsigned int x86_lbr_snapshot(struct x86_core_cpu *cpu,
			      struct perf_branch_entry *entries,
			      unsigned int max);
struct perf_branch_stack *x86_lbr_sample_records(struct x86_core_cpu *cpu,
						 struct perf_event *event,
						 const u64 *rec, unsigned int nr);
struct perf_branch_stack *x86_lbr_sample(struct x86_core_cpu *cpu,
					 struct perf_event *event);

/* intel_pebs.c */
#ifdef CONFIG_CPU_SUP_INTEL
void x86_pebs_probe(const struct x86_hw *hw, struct x86_core_desc *desc);
int x86_pebs_event_init(const struct x86_core_pmu *core,
			struct perf_event *event);
u64 x86_pebs_counters(const struct x86_core_desc *desc, u64 evsel);
u64 x86_pebs_fixed_ctrl(const struct x86_core_cpu *cpu,
			const struct perf_event *event);
u64 x86_pebs_data_source(u8 fmt, u64 config, u64 dse);
void x86_pebs_reset_value(struct x86_core_cpu *cpu, struct perf_event *event,
			  u64 val);
void x86_pebs_start(struct x86_core_cpu *cpu, struct perf_event *event);
void x86_pebs_stop(struct x86_core_cpu *cpu, struct perf_event *event);
void x86_pebs_flush(struct x86_core_cpu *cpu);
int x86_pebs_drain(struct x86_core_cpu *cpu);
int x86_pebs_guest_pmi(struct x86_core_cpu *cpu, u64 status);
void x86_ds_cpu_up(void);
void x86_ds_enable(void);
u64 x86_ds_area(void);
int x86_ds_reserve(unsigned int record);
void x86_ds_release(void);
#else
static inline void x86_pebs_probe(const struct x86_hw *hw,
				  struct x86_core_desc *desc) { }

static inline int x86_pebs_event_init(const struct x86_core_pmu *core,
				      struct perf_event *event)
{
	return -EOPNOTSUPP;
}

static inline u64 x86_pebs_counters(const struct x86_core_desc *desc,
				    u64 evsel)
{
	return 0;
}

static inline u64 x86_pebs_fixed_ctrl(const struct x86_core_cpu *cpu,
				      const struct perf_event *event)
{
	return 0;
}

static inline void x86_pebs_reset_value(struct x86_core_cpu *cpu,
					struct perf_event *event, u64 val) { }

static inline void x86_pebs_start(struct x86_core_cpu *cpu,
				  struct perf_event *event) { }

static inline void x86_pebs_stop(struct x86_core_cpu *cpu,
				 struct perf_event *event) { }

static inline void x86_pebs_flush(struct x86_core_cpu *cpu) { }

static inline int x86_pebs_drain(struct x86_core_cpu *cpu)
{
	return 0;
}

static inline int x86_pebs_guest_pmi(struct x86_core_cpu *cpu, u64 status)
{
	return 0;
}

static inline void x86_ds_cpu_up(void) { }

static inline void x86_ds_enable(void) { }
#endif

static inline bool x86_core_is_pebs(const struct perf_event *event)
{
	return event->hw.flags & X86_CORE_FLAG_PEBS;
}

/*
 * The counters whose PEBS is on: IA32_PEBS_ENABLE's bits 32 and up are
 * load latency on general counters before adaptive PEBS, fixed counters
 * with it
 */
static inline u64 x86_pebs_on(const struct x86_core_cpu *cpu)
{
	return cpu->pebs.enabled &
	       (cpu->core->desc.pebs_fmt >= 4 ? ~0ULL : GENMASK_ULL(31, 0));
}

/*
 * KVM's event for a guest's PEBS counter (precise, excluding the host):
 * its records go to the guest's buffer, never to the host's
 */
static inline bool x86_core_is_guest_pebs(const struct perf_event *event)
{
	return event->hw.flags & X86_CORE_FLAG_PEBS_GUEST;
}

/* a PEBS event whose records are the host's: drained as it stops */
static inline bool x86_core_is_host_pebs(const struct perf_event *event)
{
	return x86_core_is_pebs(event) && !x86_core_is_guest_pebs(event);
}

/* the events of a CPU's with a branch stack (Intel's or AMD's) */
static inline bool x86_core_has_lbr(const struct perf_event *event)
{
	return event->hw.branch_reg.reg == MSR_LBR_SELECT ||
	       event->hw.branch_reg.reg == MSR_AMD64_LBR_SELECT;
}

/* models.c */
const struct x86_cache_event *
x86_intel_model_cache(const struct x86_intel_model *model, unsigned int cache,
		      unsigned int op, unsigned int result);
u64 x86_intel_rule_counters(const struct x86_core_desc *desc, u64 evsel);

/* counters.c */
bool x86_core_merge_pair(const struct x86_core_desc *desc, u64 evsel);
u64 x86_core_constraint(const struct x86_core_desc *desc, u64 evsel);
int x86_core_assign(const struct x86_core_desc *desc, const u64 *evsel,
		    unsigned int n, u64 busy, int *assign);
int x86_core_validate_group(const struct x86_core_pmu *core,
			    struct perf_event *event);
int x86_core_add_group(struct x86_core_cpu *cpu, struct perf_event **events,
		       unsigned int n);
void x86_core_del(struct x86_core_cpu *cpu, struct perf_event *event);

/* count.c */
void x86_core_pmu_init(struct x86_core_pmu *core, const struct x86_hw *hw,
		       const struct x86_core_desc *desc);
void x86_core_cpu_init(struct x86_core_cpu *cpu,
		       const struct x86_core_pmu *core);
void x86_core_cpu_reset(struct x86_core_cpu *cpu);
void x86_core_set_hg_bits(struct x86_core_cpu *cpu, bool on);
void x86_core_apply_freeze_on_smi(struct x86_core_cpu *cpu);
u64 x86_core_global_on(const struct x86_core_cpu *cpu);
void x86_core_enable(struct x86_core_cpu *cpu);
void x86_core_disable(struct x86_core_cpu *cpu);
void x86_core_start(struct x86_core_cpu *cpu, struct perf_event *event);
void x86_core_stop(struct x86_core_cpu *cpu, struct perf_event *event,
		   bool update_count);
void x86_core_read(struct x86_core_cpu *cpu, struct perf_event *event);
void x86_core_cpu_save(struct x86_core_cpu *cpu);
void x86_core_cpu_restore(struct x86_core_cpu *cpu);
u64 x86_core_pebs_fold(struct x86_core_cpu *cpu, struct perf_event *event,
		       u64 reload);
void x86_core_pebs_rearm(struct x86_core_cpu *cpu, struct perf_event *event);
int x86_core_handle_irq(struct x86_core_cpu *cpu);

#endif /* _ARCH_X86_EVENTS_CORE_PMU_H */
