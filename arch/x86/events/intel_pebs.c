// SPDX-License-Identifier: GPL-2.0
/*
 * Intel precise event-based sampling (PEBS), record format 3 (Skylake;
 * Intel SDM vol. 3B, "Processor Event Based Sampling (PEBS)").
 *
 * An event with precise_ip samples through PEBS: its counter's overflow
 * makes the CPU write a record (the registers at the instruction, the
 * instruction's own address, the data address and source of a memory
 * access, a time stamp) into the PEBS buffer of the debug store area
 * (intel_ds.c), reload the counter from the area's reset value, and raise
 * a PMI when the buffer reaches its threshold; the counter itself does
 * not interrupt.  Each record becomes one sample.
 *
 * A record holds all a sample needs when the sample asks only for what
 * records give (the "large PEBS" fields below) at a fixed period, with no
 * wakeup count: such events share a threshold near the end of the buffer
 * and are drained a buffer at a time -- in the PMI, and whenever one of
 * the CPU's PEBS events stops or is read, so that every record lands in
 * its own event's ring, in its task's time.  Any other precise event sets
 * the threshold at the first record: a PMI for every record, which takes
 * the rest (the call chain, the read values, the registers the record
 * lacks) at once.  The counters PEBS may use, the events aliased for
 * precise cycles and which samples take the buffer path are what stock
 * Linux does on the same parts, as bench/qemu/pebs-probe.c and the MSR
 * trace of QEMU's TCG PMU show.
 *
 * On the server parts whose PEBS works in guests (EPT-friendly PEBS: the
 * assist writes through the guest's DS area and page tables), KVM backs
 * a guest's PEBS counter by a precise event that excludes the host, a
 * kernel counter with its own overflow handler.  Such an event takes a
 * PEBS counter as any other, but its records are the guest's: it leaves
 * the host's IA32_PEBS_ENABLE, buffer and data configuration alone, and
 * perf_guest_get_msrs() (virt.c) hands KVM its counters for the guest's
 * PEBS_ENABLE, with the guest's DS area.  Its buffer's PMI comes to the
 * host, which tells KVM through the event's overflow
 * (x86_pebs_guest_pmi()).
 *
 * Locking: as the rest of the cpu driver (cpu_pmu.h).  A CPU's records
 * and its struct x86_pebs_cpu are touched on that CPU only, IRQs off; the
 * PMI (an NMI) may interrupt a drain outside it, and then leaves the
 * buffer to that drain (@draining), clearing only its status.
 */
#include <linux/bitops.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/sched/task_stack.h>
#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>
#include <asm/intel_ds.h>
#include <asm/perf_event.h>
#include <asm/ptrace.h>
#include <asm/segment.h>
#include <asm/timer.h>
#include <asm/tsc.h>

#include "cpu_pmu.h"

/* PERF_CAPABILITIES: the PEBS record format, adaptive PEBS */
#define PERF_CAP_PEBS_FMT_SHIFT	8
#define PERF_CAP_PEBS_FMT_MASK	0xfULL
#define PERF_CAP_PEBS_BASELINE	BIT_ULL(14)

/* CPUID 1 EDX: the debug store */
#define CPUID_1_EDX_DS		BIT(21)

/*
 * The parts whose PEBS works in guests (Intel SDM vol. 3B, "EPT-Friendly
 * PEBS"): Ice Lake server and the servers after it that this file drives.
 */
static const u8 pebs_ept_models[] = {
	VFM_MODEL(INTEL_ICELAKE_X),
	VFM_MODEL(INTEL_ICELAKE_D),
	VFM_MODEL(INTEL_SAPPHIRERAPIDS_X),
	VFM_MODEL(INTEL_EMERALDRAPIDS_X),
};

/* INST_RETIRED.PREC_DIST: precise distribution, on counter 1 alone */
#define PEBS_PREC_DIST		0x01c0ULL
#define PEBS_PDIR_COUNTER	BIT_ULL(1)

/*
 * Precise cycles: CPU_CLK_UNHALTED.THREAD_P (0x3c) cannot take PEBS, so
 * the cycles an instruction retired in are counted as cycles in which
 * fewer than 16 instructions retired (INST_RETIRED.ANY_P, inverted
 * counter mask 16, which holds every cycle) -- at precise_ip 3 on
 * INST_RETIRED.PREC_DIST.
 */
#define PEBS_CYCLES		0x003cULL
#define PEBS_CYCLES_ALIAS	(0x00c0ULL | ARCH_PERFMON_EVENTSEL_INV | \
				 16ULL << 24)
#define PEBS_CYCLES_ALIAS_PDIST	(PEBS_CYCLES_ALIAS | 0x0100ULL)

/* MEM_TRANS_RETIRED.LOAD_LATENCY: PEBS_ENABLE's load latency bit too */
#define PEBS_LD_LAT_EVENT	0x01cdULL
#define PEBS_ST_LAT_EVENT	0x02cdULL	/* Sapphire Rapids' store sampling */
/* fixed counter 0's encoding: instructions (INST_RETIRED.PREC_DIST) */
#define PEBS_FIXED0_EVENT	0x0100ULL

/* format 3 (SDM: "PEBS Record Format" for Skylake) */
struct pebs_record {
	u64 flags, ip;
	u64 ax, bx, cx, dx, si, di, bp, sp;
	u64 r8, r9, r10, r11, r12, r13, r14, r15;
	u64 status;		/* the counters the record is for */
	u64 dla;		/* data linear address */
	u64 dse;		/* data source */
	u64 lat;		/* load latency */
	u64 real_ip;		/* the instruction's own address */
	u64 tsx_tuning;
	u64 tsc;
};

/*
 * What a record's data source says, by the kind of event it is for (as
 * stock decodes each kind on Skylake, source by source).
 */
enum pebs_memory {
	PEBS_MEM_NONE,		/* not a memory event: no source */
	PEBS_MEM_LOAD,		/* a retired load: a load, nothing more */
	PEBS_MEM_STORE,		/* a retired store: whether it hit L1 */
	PEBS_MEM_LDLAT,		/* load latency: the source, the latency */
	PEBS_MEM_STLAT,		/* store sampling: load latency's, a store */
};

#define P(a, b)		PERF_MEM_S(a, b)

/*
 * Load latency's data source (bits 3:0 of the record's field; SDM vol.
 * 3B, "Load Latency Performance Monitoring Facility"), bit 4 the STLB
 * miss and bit 5 the lock, in perf's terms.
 */
static const u64 pebs_ldlat_source[16] = {
	/* 0: unknown, an L3 miss */
	P(OP, LOAD) | P(LVL, MISS) | P(SNOOP, NA) | P(LVLNUM, L3),
	/* 1: L1 hit */
	P(OP, LOAD) | P(LVL, HIT) | P(LVL, L1) | P(SNOOP, NONE) |
	P(LVLNUM, L1),
	/* 2: fill buffer hit */
	P(OP, LOAD) | P(LVL, HIT) | P(LVL, LFB) | P(SNOOP, NONE) |
	P(LVLNUM, LFB),
	/* 3: L2 hit */
	P(OP, LOAD) | P(LVL, HIT) | P(LVL, L2) | P(SNOOP, NONE) |
	P(LVLNUM, L2),
	/* 4-7: L3 hit, with no snoop, a snoop miss, hit, hit modified */
	P(OP, LOAD) | P(LVL, HIT) | P(LVL, L3) | P(SNOOP, NONE) |
	P(LVLNUM, L3),
	P(OP, LOAD) | P(LVL, HIT) | P(LVL, L3) | P(SNOOP, MISS) |
	P(LVLNUM, L3),
	P(OP, LOAD) | P(LVL, HIT) | P(LVL, L3) | P(SNOOP, HIT) |
	P(LVLNUM, L3),
	P(OP, LOAD) | P(LVL, HIT) | P(LVL, L3) | P(SNOOP, HITM) |
	P(LVLNUM, L3),
	/* 8, 9: another socket's cache forwarded it, locally, remotely */
	P(OP, LOAD) | P(LVL, HIT) | P(SNOOP, HIT) | P(LVLNUM, PMEM),
	P(OP, LOAD) | P(LVL, HIT) | P(SNOOP, HIT) | P(LVLNUM, PMEM) |
	P(REMOTE, REMOTE),
	/* 10, 11: local memory, remote memory */
	P(OP, LOAD) | P(LVL, HIT) | P(LVL, LOC_RAM) | P(SNOOP, HIT) |
	P(LVLNUM, RAM),
	P(OP, LOAD) | P(LVL, HIT) | P(SNOOP, NONE) | P(LVLNUM, RAM) |
	P(REMOTE, REMOTE),
	/* 12, 13: a remote cache, forwarded, modified */
	P(OP, LOAD) | P(LVL, HIT) | P(LVLNUM, ANY_CACHE) | P(REMOTE, REMOTE) |
	P(SNOOPX, FWD),
	P(OP, LOAD) | P(LVL, HIT) | P(SNOOP, HITM) | P(LVLNUM, ANY_CACHE) |
	P(REMOTE, REMOTE),
	/* 14: I/O, 15: uncached */
	P(OP, LOAD) | P(LVL, HIT) | P(LVL, IO) | P(SNOOP, NONE) |
	P(LVLNUM, NA),
	P(OP, LOAD) | P(LVL, HIT) | P(LVL, UNC) | P(SNOOP, NONE) |
	P(LVLNUM, NA),
};

#define PEBS_SRC_STLB_MISS	BIT(4)
#define PEBS_SRC_LOCK		BIT(5)

/*
 * The kind of memory event @config is (MEM_*_RETIRED) on a PMU of PEBS
 * format @fmt: Ice Lake's unit mask 0x22 of 0xd0 is no store; with
 * @store_sample (Sapphire Rapids) 0x02cd samples stores, its source
 * decoded as load latency's.
 */
static enum pebs_memory pebs_memory_kind(u8 fmt, bool store_sample,
					 u64 config)
{
	u8 code = config & ARCH_PERFMON_EVENTSEL_EVENT;
	u8 umask = (config & ARCH_PERFMON_EVENTSEL_UMASK) >> 8;

	if ((config & INTEL_ARCH_EVENT_MASK) == PEBS_LD_LAT_EVENT)
		return PEBS_MEM_LDLAT;
	if (store_sample && (config & INTEL_ARCH_EVENT_MASK) == PEBS_ST_LAT_EVENT)
		return PEBS_MEM_STLAT;
	if (code >= 0xd1 && code <= 0xd3)
		return PEBS_MEM_LOAD;
	/* MEM_INST_RETIRED: loads (1) or stores (2), and one qualifier */
	if (code != 0xd0 || hweight8(umask & 0xf0) != 1)
		return PEBS_MEM_NONE;
	if ((umask & 0xf) == 1)
		return PEBS_MEM_LOAD;
	if ((umask & 0xf) != 2 || (fmt >= 4 && umask == 0x22))
		return PEBS_MEM_NONE;
	return PEBS_MEM_STORE;
}

/* a record's data source, as perf_mem_data_src */
static u64 pebs_data_source(enum pebs_memory kind, u64 dse)
{
	u64 src;

	switch (kind) {
	case PEBS_MEM_LOAD:
		return P(OP, LOAD) | P(LVL, NA) | P(SNOOP, NA) | P(LOCK, NA) |
		       P(TLB, NA) | P(LVLNUM, NA);
	case PEBS_MEM_STORE:
		return P(OP, STORE) | P(LVL, L1) |
		       (dse & 1 ? P(LVL, HIT) : P(LVL, MISS)) | P(SNOOP, NA) |
		       P(LOCK, NA) | P(TLB, NA) | P(LVLNUM, NA);
	case PEBS_MEM_LDLAT:
	case PEBS_MEM_STLAT:
		src = pebs_ldlat_source[dse & 0xf] | P(BLK, NA) | P(TLB, L2);
		if (kind == PEBS_MEM_STLAT)
			src = (src & ~P(OP, LOAD)) | P(OP, STORE);
		if (dse & PEBS_SRC_STLB_MISS)
			src |= P(TLB, MISS);
		else
			src |= P(TLB, HIT) | P(TLB, L1);
		if (dse & PEBS_SRC_LOCK)
			src |= P(LOCK, LOCKED);
		return src;
	default:
		return PERF_MEM_NA;
	}
}

#undef P

/**
 * x86_pebs_data_source - what a record of an event says of its data source
 * @fmt: the PMU's PEBS record format
 * @config: the event's hw.config
 * @dse: the record's data source field
 *
 * Return: the sample's perf_mem_data_src value; PERF_MEM_NA for an event
 * that is not a memory event.
 */
u64 x86_pebs_data_source(u8 fmt, u64 config, u64 dse)
{
	return pebs_data_source(pebs_memory_kind(fmt, false, config), dse);
}

/*
 * What a sample may ask for and still be taken from a record alone, at
 * a buffer of records a PMI; stock's set on format 3, as observed.
 */
#define PEBS_LARGE_SAMPLE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID |	\
				 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |	\
				 PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
				 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |	\
				 PERF_SAMPLE_IDENTIFIER |		\
				 PERF_SAMPLE_DATA_SRC |			\
				 PERF_SAMPLE_WEIGHT_TYPE |		\
				 PERF_SAMPLE_TRANSACTION |		\
				 PERF_SAMPLE_PHYS_ADDR)

/**
 * x86_pebs_probe - whether the registered driver samples by PEBS
 * @hw: the hardware
 * @desc: the PMU, detected; gets @pebs_fmt, @pebs_ept and @max_precise
 *
 * PEBS where the model's is the kind this file drives, CPUID says there
 * is a debug store, IA32_MISC_ENABLE does not say PEBS is unavailable,
 * and the capabilities give the model's record format (adaptive PEBS's
 * with its baseline bit).  Guests may have it on the parts of
 * pebs_ept_models, with adaptive PEBS.
 */
void x86_pebs_probe(const struct x86_hw *hw, struct x86_core_desc *desc)
{
	struct x86_hw_cpuid r;
	unsigned int i;
	u64 misc;
	u8 fmt;

	desc->pebs_fmt = 0;
	desc->pebs_ept = false;
	desc->max_precise = 0;
	if (desc->vendor != X86_CORE_INTEL || !desc->intel_model ||
	    !desc->intel_model->pebs)
		return;
	x86_hw_cpuid(hw, 1, 0, &r);
	if (!(r.edx & CPUID_1_EDX_DS))
		return;
	if (x86_hw_rdmsr(hw, MSR_IA32_MISC_ENABLE, &misc) ||
	    (misc & MSR_IA32_MISC_ENABLE_PEBS_UNAVAIL))
		return;
	fmt = desc->perf_capabilities >> PERF_CAP_PEBS_FMT_SHIFT &
	      PERF_CAP_PEBS_FMT_MASK;
	if (fmt != desc->intel_model->pebs ||
	    (fmt >= 4 && !(desc->perf_capabilities & PERF_CAP_PEBS_BASELINE)))
		return;
	desc->pebs_fmt = fmt;
	desc->max_precise = 3;
	if (fmt < 4)
		return;
	for (i = 0; i < ARRAY_SIZE(pebs_ept_models); i++)
		if (pebs_ept_models[i] == desc->model)
			desc->pebs_ept = true;
}

/*
 * A kernel counter with an overflow handler of its own (KVM's), not one
 * whose samples go to a ring
 */
static bool own_handler(const struct perf_event *event)
{
	return event->overflow_handler != perf_event_output_forward &&
	       event->overflow_handler != perf_event_output_backward;
}

static void pebs_event_destroy(struct perf_event *event)
{
	x86_ds_release();
	x86_lbr_event_destroy(event);
}

/* the biggest record of the PMU's format, for the buffer's layout */
static unsigned int pebs_record_max(const struct x86_core_desc *desc)
{
	if (desc->pebs_fmt < 4)
		return sizeof(struct pebs_record);
	/* every group, with each of the LBR's records (three words each) */
	return sizeof(struct pebs_basic) + sizeof(struct pebs_meminfo) +
	       sizeof(struct pebs_gprs) + sizeof(struct pebs_xmm) +
	       desc->lbr_nr * 3 * sizeof(u64);
}

/**
 * x86_pebs_event_init - make a precise event sample by PEBS
 * @core: the PMU, with PEBS
 * @event: an event with precise_ip, at most @core's max_precise; its
 *	hw.config filled in
 *
 * An event that excludes the host with an overflow handler of its own,
 * on a part whose guests may have PEBS, is KVM's for a guest's PEBS
 * counter: placed as a PEBS event, its records the guest's
 * (x86_core_is_guest_pebs()), no host buffer needed.  A user's precise
 * event that excludes the host stays a host PEBS event, which counts in
 * guests only, its PEBS off there.
 *
 * Return: 0; -EINVAL for an event that does not sample; -ENOMEM.
 */
int x86_pebs_event_init(const struct x86_core_pmu *core,
			struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 code = hwc->config & INTEL_ARCH_EVENT_MASK;
	u64 large;
	int ret;

	if (!is_sampling_event(event))
		return -EINVAL;
	if (core->desc.pebs_fmt < 4 && code == PEBS_CYCLES &&
	    !(hwc->config & (ARCH_PERFMON_EVENTSEL_INV |
			     ARCH_PERFMON_EVENTSEL_CMASK))) {
		hwc->config &= ~INTEL_ARCH_EVENT_MASK;
		hwc->config |= event->attr.precise_ip == 3 ?
			       PEBS_CYCLES_ALIAS_PDIST : PEBS_CYCLES_ALIAS;
	}
	/*
	 * adaptive PEBS: instructions at level 3 on fixed counter 0 alone;
	 * Sapphire Rapids: any event at level 3 on its PDIST counters
	 */
	if (core->desc.pebs_fmt >= 4 && event->attr.precise_ip == 3 &&
	    (code == 0x00c0 || (core->desc.intel_model &&
				core->desc.intel_model->pebs_pdist_gp0)))
		hwc->config |= X86_CORE_EVSEL_PDIST;
	if (core->desc.pebs_ept && event->attr.exclude_host &&
	    own_handler(event)) {
		hwc->flags |= X86_CORE_FLAG_PEBS | X86_CORE_FLAG_PEBS_GUEST;
		hwc->config |= X86_CORE_EVSEL_PEBS;
		return 0;
	}
	/* adaptive records carry the branch stack too (their LBR group) */
	large = PEBS_LARGE_SAMPLE;
	if (core->desc.pebs_fmt >= 4)
		large |= PERF_SAMPLE_BRANCH_STACK;
	if (!event->attr.freq && !event->attr.wakeup_events &&
	    !(event->attr.sample_type & ~large))
		hwc->flags |= X86_CORE_FLAG_PEBS_LARGE;
	ret = x86_ds_reserve(pebs_record_max(&core->desc));
	if (ret)
		return ret;
	/* the LBR's, if any, and the buffers go together */
	event->destroy = pebs_event_destroy;
	hwc->flags |= X86_CORE_FLAG_PEBS;
	hwc->config |= X86_CORE_EVSEL_PEBS;
	return 0;
}

/**
 * x86_pebs_counters - the counters a PEBS event may use
 * @desc: the PMU
 * @evsel: the event's hw.config
 *
 * Format 3 (Skylake): every general-purpose counter, whatever the event
 * (its usual counter rules do not hold), but for INST_RETIRED.PREC_DIST:
 * counter 1.  Adaptive PEBS (Ice Lake): the event's usual counters, fixed
 * ones included, but PREC_DIST and instructions at level 3: fixed counter
 * 0.  Sapphire Rapids: at level 3 general counter 0 (its PDIST counter),
 * instructions fixed counter 0, and no counter for the other INST_RETIRED
 * events, load latency or the fixed counter 0 encoding; below level 3 the
 * INST_RETIRED events and load latency on general counters 1 and up, any
 * other on its usual counters (stock's answers to the constraint probe).
 */
u64 x86_pebs_counters(const struct x86_core_desc *desc, u64 evsel)
{
	u64 mask = desc->num_gp ? GENMASK_ULL(desc->num_gp - 1, 0) : 0;
	u64 code = evsel & INTEL_ARCH_EVENT_MASK;
	bool pdist = code == PEBS_PREC_DIST;
	bool insns = (code & ARCH_PERFMON_EVENTSEL_EVENT) == 0xc0 ||
		     code == PEBS_LD_LAT_EVENT;
	u64 fixed0 = desc->fixed_mask & BIT(0) ? BIT_ULL(X86_CORE_IDX_FIXED) : 0;

	if (desc->pebs_fmt < 4)
		return pdist ? mask & PEBS_PDIR_COUNTER : mask;
	if (desc->intel_model && desc->intel_model->pebs_pdist_gp0) {
		if (!(evsel & X86_CORE_EVSEL_PDIST))
			return insns ? mask & ~BIT_ULL(0) :
			       x86_core_constraint(desc, evsel & ~X86_CORE_EVSEL_SW);
		if (code == 0x00c0)
			return fixed0;
		return insns || code == PEBS_FIXED0_EVENT ? 0 : mask & BIT_ULL(0);
	}
	if (pdist || (evsel & X86_CORE_EVSEL_PDIST))
		return fixed0;
	return x86_core_constraint(desc, evsel & ~X86_CORE_EVSEL_SW);
}

/**
 * x86_pebs_fixed_ctrl - the bits of IA32_FIXED_CTR_CTRL a PEBS event on a
 * fixed counter adds: adaptive PEBS's record bit
 * @cpu: this CPU's counters
 * @event: an event on a fixed counter
 */
u64 x86_pebs_fixed_ctrl(const struct x86_core_cpu *cpu,
			const struct perf_event *event)
{
	int idx = event->hw.idx - X86_CORE_IDX_FIXED;

	if (cpu->core->desc.pebs_fmt < 4 || !x86_core_is_pebs(event))
		return 0;
	return ICL_FIXED_0_ADAPTIVE << (4 * idx);
}

static struct debug_store *this_ds(void)
{
	return this_cpu_ptr(&cpu_debug_store);
}

/* the save area's reset value of counter @idx: fixed ones after eight */
static u64 *reset_slot(const struct x86_core_desc *desc, int idx)
{
	if (idx >= X86_CORE_IDX_FIXED && desc->pebs_fmt >= 4)
		idx = MAX_PEBS_EVENTS_FMT4 + idx - X86_CORE_IDX_FIXED;
	return &this_ds()->pebs_event_reset[idx];
}

/**
 * x86_pebs_reset_value - the value a PEBS event's counter starts each
 * period from
 * @cpu: this CPU's counters
 * @event: placed on a counter of this CPU
 * @val: the full period's negative, as the counter holds it
 */
void x86_pebs_reset_value(struct x86_core_cpu *cpu, struct perf_event *event,
			  u64 val)
{
	*reset_slot(&cpu->core->desc, event->hw.idx) = val;
}

/* where the buffer's PMI comes: at the first record, or near the end */
static void set_threshold(struct x86_core_cpu *cpu)
{
	struct debug_store *ds = this_ds();
	u64 record = pebs_record_max(&cpu->core->desc);

	/* the first record passes it, however few groups it has */
	if (cpu->pebs.single || !cpu->pebs.enabled)
		ds->pebs_interrupt_threshold = ds->pebs_buffer_base +
			(cpu->core->desc.pebs_fmt >= 4 ?
			 sizeof(struct pebs_basic) : record);
	else
		ds->pebs_interrupt_threshold = ds->pebs_absolute_maximum -
			(cpu->core->desc.num_gp + hweight32(cpu->core->desc.fixed_mask)) *
			record;
}

static u64 event_bits(const struct x86_core_cpu *cpu,
		      const struct perf_event *event)
{
	u64 bits = BIT_ULL(event->hw.idx);

	/* load latency by counter, with the threshold extra_regs.c wrote */
	if (cpu->core->desc.pebs_fmt < 4 &&
	    (event->hw.config & INTEL_ARCH_EVENT_MASK) == PEBS_LD_LAT_EVENT)
		bits |= BIT_ULL(32 + event->hw.idx);
	return bits;
}

/* the sample types a record's memory information group gives */
#define PEBS_MEMINFO_SAMPLE	(PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC | \
				 PERF_SAMPLE_WEIGHT_TYPE |		\
				 PERF_SAMPLE_TRANSACTION |		\
				 PERF_SAMPLE_PHYS_ADDR |		\
				 PERF_SAMPLE_DATA_PAGE_SIZE)

/*
 * The groups of an adaptive record that @event's samples need (the
 * values stock writes): the registers for the sampled registers and for
 * level 1's IP (the instruction after, which only they hold), the memory
 * information for what comes of it, the LBR records (all of them) for a
 * branch stack.
 */
static u64 event_data_cfg(const struct x86_core_desc *desc,
			  const struct perf_event *event)
{
	u64 type = event->attr.sample_type, cfg = 0;

	if (event->attr.precise_ip < 2 ||
	    (type & (PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_REGS_USER)))
		cfg |= PEBS_DATACFG_GP;
	if (type & PEBS_MEMINFO_SAMPLE)
		cfg |= PEBS_DATACFG_MEMINFO;
	/* the branch stack from the record: every one of the CPU's records */
	if (x86_core_has_lbr(event) && (type & PERF_SAMPLE_BRANCH_STACK))
		cfg |= PEBS_DATACFG_LBRS |
		       (u64)(desc->lbr_nr - 1) << PEBS_DATACFG_LBR_SHIFT;
	return cfg;
}

/* adaptive PEBS: the groups every started PEBS event of the CPU needs */
static void set_data_cfg(struct x86_core_cpu *cpu)
{
	unsigned long bits = cpu->pebs.enabled;
	unsigned int idx;
	u64 cfg = 0;

	if (cpu->core->desc.pebs_fmt < 4)
		return;
	for_each_set_bit(idx, &bits, X86_CORE_NR_IDX)
		if (cpu->events[idx])
			cfg |= event_data_cfg(&cpu->core->desc,
					      cpu->events[idx]);
	/* written when it changes (as stock writes it) */
	if (cfg == cpu->pebs.data_cfg)
		return;
	cpu->pebs.data_cfg = cfg;
	x86_hw_wrmsr(cpu->core->hw, MSR_PEBS_DATA_CFG, cfg);
}

/**
 * x86_pebs_start - let a started PEBS event's counter write records
 * @cpu: this CPU's counters
 * @event: a PEBS event, its counter just started
 */
void x86_pebs_start(struct x86_core_cpu *cpu, struct perf_event *event)
{
	if (x86_core_is_guest_pebs(event)) {
		cpu->pebs.guest |= BIT_ULL(event->hw.idx);
		return;
	}
	cpu->pebs.enabled |= event_bits(cpu, event);
	if (!(event->hw.flags & X86_CORE_FLAG_PEBS_LARGE))
		cpu->pebs.single |= BIT_ULL(event->hw.idx);
	set_data_cfg(cpu);
	set_threshold(cpu);
	x86_hw_wrmsr(cpu->core->hw, MSR_IA32_PEBS_ENABLE, cpu->pebs.enabled);
}

/**
 * x86_pebs_stop - no more records for an event
 * @cpu: this CPU's counters
 * @event: a started PEBS event, about to stop
 *
 * Its records so far stay in the buffer for x86_pebs_flush().
 */
void x86_pebs_stop(struct x86_core_cpu *cpu, struct perf_event *event)
{
	if (x86_core_is_guest_pebs(event)) {
		cpu->pebs.guest &= ~BIT_ULL(event->hw.idx);
		return;
	}
	cpu->pebs.enabled &= ~event_bits(cpu, event);
	cpu->pebs.single &= ~BIT_ULL(event->hw.idx);
	x86_hw_wrmsr(cpu->core->hw, MSR_IA32_PEBS_ENABLE, cpu->pebs.enabled);
}

/*
 * A record, whatever its format, as a sample takes it: the counters it
 * is for (GLOBAL_STATUS's numbering), the instruction's own IP and the
 * next one's (0 where the record does not say), its registers (flags,
 * ip, then ax, bx, cx, dx, si, di, bp, sp, r8-r15; NULL without), the
 * memory information (0 without), the time stamp, and its size.  An
 * adaptive record's registers are copied into @gpr_buf.
 */
struct pebs_view {
	u64 counters;
	u64 eventing_ip;
	u64 next_ip;
	const u64 *gprs;
	u64 dla, dse, lat;
	u64 tsc;
	const u64 *lbr;		/* adaptive: FROM, TO, INFO each, newest first */
	unsigned int lbr_nr;
	unsigned int size;
	u64 gpr_buf[18];
};

/*
 * The size of the record at @at (below @top), and the counters it is for:
 * what a walk of the buffer needs, without decoding the rest.
 *
 * Return: the size, or 0 where no whole record is there.
 */
static unsigned int record_peek(const struct x86_core_cpu *cpu, u64 at,
				u64 top, u64 *counters)
{
	const struct pebs_basic *basic = (const void *)(unsigned long)at;
	const struct pebs_record *rec = (const void *)(unsigned long)at;

	if (cpu->core->desc.pebs_fmt < 4) {
		if (top - at < sizeof(*rec))
			return 0;
		*counters = rec->status;
		return sizeof(*rec);
	}
	if (top - at < sizeof(*basic) || basic->format_size < sizeof(*basic) ||
	    basic->format_size > top - at)
		return 0;
	*counters = basic->applicable_counters;
	return basic->format_size;
}

static void view_fmt3(struct pebs_view *v, const struct pebs_record *rec)
{
	v->eventing_ip = rec->real_ip;
	v->next_ip = rec->ip;
	v->gprs = &rec->flags;
	v->dla = rec->dla;
	v->dse = rec->dse;
	v->lat = rec->lat;
	v->tsc = rec->tsc;
	v->lbr = NULL;
	v->lbr_nr = 0;
}

/* an adaptive record, whose size record_peek() found within the buffer */
static void view_adaptive(struct pebs_view *v, const void *at)
{
	const struct pebs_basic *basic = at;
	const void *next = basic + 1;

	v->eventing_ip = basic->ip;
	v->next_ip = 0;
	v->gprs = NULL;
	v->dla = 0;
	v->dse = 0;
	v->lat = 0;
	v->tsc = basic->tsc;
	v->lbr = NULL;
	v->lbr_nr = 0;
	if (basic->format_group & PEBS_DATACFG_MEMINFO) {
		const struct pebs_meminfo *mem = next;

		v->dla = mem->address;
		v->dse = mem->aux;
		v->lat = mem->mem_latency;
		next = mem + 1;
	}
	if (basic->format_group & PEBS_DATACFG_GP) {
		const struct pebs_gprs *g = next;

		/* into format 3's order */
		v->gpr_buf[0] = g->flags;
		v->gpr_buf[1] = g->ip;
		v->gpr_buf[2] = g->ax;
		v->gpr_buf[3] = g->bx;
		v->gpr_buf[4] = g->cx;
		v->gpr_buf[5] = g->dx;
		v->gpr_buf[6] = g->si;
		v->gpr_buf[7] = g->di;
		v->gpr_buf[8] = g->bp;
		v->gpr_buf[9] = g->sp;
		memcpy(&v->gpr_buf[10], &g->r8, 8 * sizeof(u64));
		v->gprs = v->gpr_buf;
		v->next_ip = g->ip;
		next = g + 1;
	}
	if (basic->format_group & PEBS_DATACFG_XMMS)
		next += sizeof(struct pebs_xmm);
	if (basic->format_group & PEBS_DATACFG_LBRS) {
		v->lbr_nr = ((basic->format_group >> PEBS_DATACFG_LBR_SHIFT) &
			     0x1f) + 1;
		v->lbr = next;
		/* a record cut short keeps what it holds */
		if (next + v->lbr_nr * 3 * sizeof(u64) > at + v->size)
			v->lbr_nr = 0;
	}
}

/*
 * The registers at the record's instruction, as a sample reports them:
 * every field written (the GPRs zero where the record has none).
 */
static void record_regs(struct pt_regs *regs, const struct pebs_view *v,
			const struct perf_event *event)
{
	/* the fields set below, one by one: no memset on every record */
	BUILD_BUG_ON(sizeof(*regs) != 21 * sizeof(long));
	if (!v->gprs) {
		memset(regs, 0, sizeof(*regs));
	} else {
		regs->flags = v->gprs[0] & ~PERF_EFLAGS_EXACT;
		regs->ax = v->gprs[2];
		regs->bx = v->gprs[3];
		regs->cx = v->gprs[4];
		regs->dx = v->gprs[5];
		regs->si = v->gprs[6];
		regs->di = v->gprs[7];
		regs->bp = v->gprs[8];
		regs->sp = v->gprs[9];
		regs->r8 = v->gprs[10];
		regs->r9 = v->gprs[11];
		regs->r10 = v->gprs[12];
		regs->r11 = v->gprs[13];
		regs->r12 = v->gprs[14];
		regs->r13 = v->gprs[15];
		regs->r14 = v->gprs[16];
		regs->r15 = v->gprs[17];
		regs->orig_ax = 0;
	}
	/*
	 * The instruction after the one that overflowed the counter; precise
	 * levels 2 and 3 ask for that one itself.
	 */
	regs->ip = v->next_ip ?: v->eventing_ip;
	if (event->attr.precise_ip >= 2 && v->eventing_ip) {
		regs->ip = v->eventing_ip;
		regs->flags |= PERF_EFLAGS_EXACT;
	}
	if (regs->ip >= TASK_SIZE_MAX) {
		regs->csx = __KERNEL_CS;
		regs->ssx = __KERNEL_DS;
	} else {
		/* the task's own mode: a 32-bit task's records are 32-bit */
		regs->csx = current->mm ? task_pt_regs(current)->cs : __USER_CS;
		regs->ssx = __USER_DS;
	}
}

/*
 * The data source and the latency (the weight) of a memory event: load
 * latency's in format 3, any memory event's in adaptive records (stores
 * too, as stock reports them there).
 */
static void record_memory(struct x86_core_cpu *cpu,
			  struct perf_sample_data *data,
			  const struct perf_event *event,
			  const struct pebs_view *v)
{
	const struct x86_core_desc *desc = &cpu->core->desc;
	enum pebs_memory kind = pebs_memory_kind(desc->pebs_fmt,
						 desc->intel_model->pebs_pdist_gp0,
						 event->hw.config);
	u64 type = event->attr.sample_type;

	if (type & PERF_SAMPLE_DATA_SRC) {
		data->data_src.val = pebs_data_source(kind, v->dse);
		data->sample_flags |= PERF_SAMPLE_DATA_SRC;
	}
	if (type & PERF_SAMPLE_WEIGHT_TYPE) {
		data->weight.full = 0;
		if (desc->pebs_fmt >= 4 && desc->intel_model->pebs_pdist_gp0) {
			/*
			 * Sapphire Rapids' latency word: the cache's latency
			 * (bits 47:32) as the weight, the instruction's (bits
			 * 15:0) in WEIGHT_STRUCT's second field, of any event
			 */
			data->weight.var1_dw = (v->lat >> 32) & 0xffff;
			if (type & PERF_SAMPLE_WEIGHT_STRUCT)
				data->weight.var2_w = v->lat & 0xffff;
		} else if (kind == PEBS_MEM_LDLAT || desc->pebs_fmt >= 4) {
			/* WEIGHT_STRUCT: the latency in its first field */
			data->weight.var1_dw = v->lat;
		}
		data->sample_flags |= type & PERF_SAMPLE_WEIGHT_TYPE;
	}
}

/*
 * One record's sample for @event; nonzero: the event is to stop.  The
 * @last of the event's records in a drain is its overflow, which the core
 * counts against the sample rate and may throttle; the ones before it
 * are only output, so that a buffer of records counts as one interrupt.
 */
static int record_sample(struct x86_core_cpu *cpu, struct perf_event *event,
			 const struct pebs_view *v, bool last)
{
	u64 reload = *reset_slot(&cpu->core->desc, event->hw.idx);
	/*
	 * Not cleared on this path of every record: record_regs() fills
	 * the registers, and the sample's fields are the ones set here and
	 * those perf_prepare_sample() fills (a BPF program before it reads
	 * the address as well).
	 */
	struct perf_sample_data data __uninitialized;
	struct pt_regs regs __uninitialized;
	u64 period;

	period = x86_core_pebs_fold(cpu, event, reload);
	if (!period)
		return 0;
	record_regs(&regs, v, event);
	perf_sample_data_init(&data, 0, period);
	data.addr = 0;
	if (event->attr.sample_type & PERF_SAMPLE_ADDR) {
		data.addr = v->dla;
		data.sample_flags |= PERF_SAMPLE_ADDR;
	}
	if (event->attr.sample_type &
	    (PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT_TYPE))
		record_memory(cpu, &data, event, v);
	/*
	 * The record's time stamp, where the event's clock is sched_clock()
	 * from the TSC: a buffer's samples keep their own times.
	 */
	if ((event->attr.sample_type & PERF_SAMPLE_TIME) &&
	    !event->attr.use_clockid && cpu->pebs.tsc_clock) {
		data.time = native_sched_clock_from_tsc(v->tsc);
		data.sample_flags |= PERF_SAMPLE_TIME;
	}
	/* an adaptive record's own branch records, else the CPU's */
	if (x86_core_has_lbr(event) && has_branch_stack(event))
		perf_sample_save_brstack(&data, event,
					 v->lbr ? x86_lbr_sample_records(cpu, event,
									 v->lbr, v->lbr_nr) :
					 x86_lbr_sample(cpu, event), NULL);
	if (last)
		return perf_event_overflow(event, &data, &regs);
	perf_event_output(event, &data, &regs);
	return 0;
}

/* the placed PEBS event on counter @idx that takes records, or NULL */
static struct perf_event *record_event(struct x86_core_cpu *cpu,
				       unsigned int idx)
{
	struct perf_event *event = cpu->events[idx];

	if (!event || !x86_core_is_host_pebs(event) ||
	    (event->hw.state & PERF_HES_STOPPED))
		return NULL;
	return event;
}

/* the record at @at (below @top), decoded; v->size 0 where none fits */
static void view_at(const struct x86_core_cpu *cpu, struct pebs_view *v,
		    u64 at, u64 top)
{
	const void *rec = (const void *)(unsigned long)at;

	v->size = record_peek(cpu, at, top, &v->counters);
	if (!v->size)
		return;
	if (cpu->core->desc.pebs_fmt >= 4)
		view_adaptive(v, rec);
	else
		view_fmt3(v, rec);
}

/**
 * x86_pebs_drain - a sample of each record in this CPU's buffer
 * @cpu: this CPU's counters, the PMU off
 *
 * Empties the buffer.  A record is for the counters its status names
 * that hold a PEBS event now (a counter's records are drained before
 * another event takes it).  Events whose samples ask to stop them
 * (throttling) are stopped after the drain.
 *
 * Return: the samples taken.
 */
int x86_pebs_drain(struct x86_core_cpu *cpu)
{
	const struct x86_core_desc *desc = &cpu->core->desc;
	u64 mine = GENMASK_ULL(desc->num_gp - 1, 0) |
		   (u64)desc->fixed_mask << X86_CORE_IDX_FIXED;
	struct debug_store *ds = this_ds();
	unsigned long bits, stop = 0, took = 0;
	u64 last[X86_CORE_NR_IDX] = {};
	struct perf_event *event;
	unsigned int idx, size;
	struct pebs_view v;
	u64 at, top, counters;
	int n = 0;

	if (cpu->pebs.draining || !ds->pebs_buffer_base)
		return 0;
	cpu->pebs.draining = true;
	barrier();
	cpu->pebs.tsc_clock = using_native_sched_clock() && sched_clock_stable();
	top = READ_ONCE(ds->pebs_index);
	/* each counter's last record */
	for (at = ds->pebs_buffer_base; at < top; at += size) {
		size = record_peek(cpu, at, top, &counters);
		if (!size)
			break;
		bits = counters & mine;
		for_each_set_bit(idx, &bits, X86_CORE_NR_IDX)
			last[idx] = at;
	}
	for (at = ds->pebs_buffer_base; at < top; at += v.size) {
		view_at(cpu, &v, at, top);
		if (!v.size)
			break;
		bits = v.counters & mine & ~stop;
		for_each_set_bit(idx, &bits, X86_CORE_NR_IDX) {
			event = record_event(cpu, idx);
			if (!event)
				continue;
			took |= BIT(idx);
			n++;
			if (record_sample(cpu, event, &v, at == last[idx]))
				stop |= BIT(idx);
		}
	}
	WRITE_ONCE(ds->pebs_index, ds->pebs_buffer_base);
	barrier();
	cpu->pebs.draining = false;
	/* in frequency mode, each record's sample may change the period */
	bits = took & cpu->pebs.single & ~stop;
	for_each_set_bit(idx, &bits, X86_CORE_NR_IDX)
		x86_core_pebs_rearm(cpu, cpu->events[idx]);
	for_each_set_bit(idx, &stop, X86_CORE_NR_IDX)
		if (cpu->running & BIT_ULL(idx))
			x86_core_stop(cpu, cpu->events[idx], false);
	return n;
}

/**
 * x86_pebs_guest_pmi - tell KVM of a PMI that may be its guest's
 * @cpu: this CPU's counters
 * @status: the global status of the PMI
 *
 * A guest's PEBS buffer reaching its threshold raises the host's PMI, with
 * the buffer overflow bit; so does a guest PEBS counter that overflowed
 * without PEBS (KVM turns PEBS off for a guest counter the host placed on
 * another counter), with its own bit.  With a guest PEBS event started
 * here, the overflow of one of them tells KVM, which sets the guest's
 * buffer overflow bit and interrupts it (once: one event is enough).  The
 * counter itself is left as it is: it holds the guest's count.
 *
 * Return: 1 when KVM was told, else 0.
 */
int x86_pebs_guest_pmi(struct x86_core_cpu *cpu, u64 status)
{
	u64 guest = cpu->pebs.guest;
	const struct x86_core_pmu *core = cpu->core;
	struct perf_event *event;

	if (!guest || !(status & (GLOBAL_STATUS_BUFFER_OVF | guest)))
		return 0;
	event = cpu->events[__ffs64(status & guest ?: guest)];
	if (core->overflow &&
	    core->overflow(event, event->hw.last_period, core->overflow_arg))
		x86_core_stop(cpu, event, false);
	return 1;
}

/**
 * x86_pebs_flush - drain this CPU's buffer outside the PMI
 * @cpu: this CPU's counters
 *
 * Before a PEBS event stops or is read: its records are its samples, in
 * its task's time.  The counters stop meanwhile, so that no record comes
 * in while the buffer is emptied.
 */
void x86_pebs_flush(struct x86_core_cpu *cpu)
{
	bool was_enabled = cpu->enabled;

	if (was_enabled)
		x86_core_disable(cpu);
	/* the branch records of these samples are read afresh */
	cpu->lbr.snapped = false;
	x86_pebs_drain(cpu);
	if (was_enabled)
		x86_core_enable(cpu);
}
