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
 * Locking: as the rest of the cpu driver (cpu_pmu.h).  A CPU's records
 * and its struct x86_pebs_cpu are touched on that CPU only, IRQs off; the
 * PMI (an NMI) may interrupt a drain outside it, and then leaves the
 * buffer to that drain (@draining), clearing only its status.
 */
#include <linux/bitops.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/sched/task_stack.h>
#include <asm/intel_ds.h>
#include <asm/perf_event.h>
#include <asm/ptrace.h>
#include <asm/segment.h>
#include <asm/timer.h>
#include <asm/tsc.h>

#include "cpu_pmu.h"

/* PERF_CAPABILITIES: the PEBS record format */
#define PERF_CAP_PEBS_FMT_SHIFT	8
#define PERF_CAP_PEBS_FMT_MASK	0xfULL

/* CPUID 1 EDX: the debug store */
#define CPUID_1_EDX_DS		BIT(21)

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

/* the kind of memory event @config is (Skylake's MEM_*_RETIRED) */
static enum pebs_memory pebs_memory_kind(u64 config)
{
	u8 code = config & ARCH_PERFMON_EVENTSEL_EVENT;
	u8 umask = (config & ARCH_PERFMON_EVENTSEL_UMASK) >> 8;

	if ((config & INTEL_ARCH_EVENT_MASK) == PEBS_LD_LAT_EVENT)
		return PEBS_MEM_LDLAT;
	if (code >= 0xd1 && code <= 0xd3)
		return PEBS_MEM_LOAD;
	/* MEM_INST_RETIRED: loads (1) or stores (2), and one qualifier */
	if (code != 0xd0 || hweight8(umask & 0xf0) != 1)
		return PEBS_MEM_NONE;
	if ((umask & 0xf) == 1)
		return PEBS_MEM_LOAD;
	return (umask & 0xf) == 2 ? PEBS_MEM_STORE : PEBS_MEM_NONE;
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
		src = pebs_ldlat_source[dse & 0xf] | P(BLK, NA) | P(TLB, L2);
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
 * @config: the event's hw.config
 * @dse: the record's data source field
 *
 * Return: the sample's perf_mem_data_src value; PERF_MEM_NA for an event
 * that is not a memory event.
 */
u64 x86_pebs_data_source(u64 config, u64 dse)
{
	return pebs_data_source(pebs_memory_kind(config), dse);
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
 * @desc: the PMU, detected; gets @pebs_fmt and @max_precise
 *
 * PEBS where the model's is the kind this file drives, CPUID says there
 * is a debug store, IA32_MISC_ENABLE does not say PEBS is unavailable,
 * and the capabilities give record format 3.
 */
void x86_pebs_probe(const struct x86_hw *hw, struct x86_core_desc *desc)
{
	struct x86_hw_cpuid r;
	u64 misc;

	desc->pebs_fmt = 0;
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
	if ((desc->perf_capabilities >> PERF_CAP_PEBS_FMT_SHIFT &
	     PERF_CAP_PEBS_FMT_MASK) != 3)
		return;
	desc->pebs_fmt = 3;
	desc->max_precise = 3;
}

static void pebs_event_destroy(struct perf_event *event)
{
	x86_ds_release();
	x86_lbr_event_destroy(event);
}

/**
 * x86_pebs_event_init - make a precise event sample by PEBS
 * @core: the PMU, with PEBS
 * @event: an event with precise_ip, at most @core's max_precise; its
 *	hw.config filled in
 *
 * Return: 0; -EINVAL for an event that does not sample; -ENOMEM.
 */
int x86_pebs_event_init(const struct x86_core_pmu *core,
			struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 code = hwc->config & INTEL_ARCH_EVENT_MASK;
	int ret;

	if (!is_sampling_event(event))
		return -EINVAL;
	if (code == PEBS_CYCLES &&
	    !(hwc->config & (ARCH_PERFMON_EVENTSEL_INV |
			     ARCH_PERFMON_EVENTSEL_CMASK))) {
		hwc->config &= ~INTEL_ARCH_EVENT_MASK;
		hwc->config |= event->attr.precise_ip == 3 ?
			       PEBS_CYCLES_ALIAS_PDIST : PEBS_CYCLES_ALIAS;
	}
	if (!event->attr.freq && !event->attr.wakeup_events &&
	    !(event->attr.sample_type & ~PEBS_LARGE_SAMPLE))
		hwc->flags |= X86_CORE_FLAG_PEBS_LARGE;
	ret = x86_ds_reserve(sizeof(struct pebs_record));
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
 * Every general-purpose counter, whatever the event (its usual counter
 * rules do not hold), but for INST_RETIRED.PREC_DIST: counter 1.
 */
u64 x86_pebs_counters(const struct x86_core_desc *desc, u64 evsel)
{
	u64 mask = desc->num_gp ? GENMASK_ULL(desc->num_gp - 1, 0) : 0;

	if ((evsel & INTEL_ARCH_EVENT_MASK) == PEBS_PREC_DIST)
		return mask & PEBS_PDIR_COUNTER;
	return mask;
}

static struct debug_store *this_ds(void)
{
	return this_cpu_ptr(&cpu_debug_store);
}

/**
 * x86_pebs_reset_value - the value a PEBS event's counter starts each
 * period from
 * @event: placed on a general-purpose counter of this CPU
 * @val: the full period's negative, as the counter holds it
 */
void x86_pebs_reset_value(struct perf_event *event, u64 val)
{
	this_ds()->pebs_event_reset[event->hw.idx] = val;
}

/* where the buffer's PMI comes: at the first record, or near the end */
static void set_threshold(struct x86_core_cpu *cpu)
{
	struct debug_store *ds = this_ds();
	u64 record = sizeof(struct pebs_record);

	if (cpu->pebs.single || !cpu->pebs.enabled)
		ds->pebs_interrupt_threshold = ds->pebs_buffer_base + record;
	else
		ds->pebs_interrupt_threshold = ds->pebs_absolute_maximum -
			cpu->core->desc.num_gp * record;
}

static u64 event_bits(const struct perf_event *event)
{
	u64 bits = BIT_ULL(event->hw.idx);

	/* load latency, with the threshold extra_regs.c wrote */
	if ((event->hw.config & INTEL_ARCH_EVENT_MASK) == PEBS_LD_LAT_EVENT)
		bits |= BIT_ULL(32 + event->hw.idx);
	return bits;
}

/**
 * x86_pebs_start - let a started PEBS event's counter write records
 * @cpu: this CPU's counters
 * @event: a PEBS event, its counter just started
 */
void x86_pebs_start(struct x86_core_cpu *cpu, struct perf_event *event)
{
	cpu->pebs.enabled |= event_bits(event);
	if (!(event->hw.flags & X86_CORE_FLAG_PEBS_LARGE))
		cpu->pebs.single |= BIT_ULL(event->hw.idx);
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
	cpu->pebs.enabled &= ~event_bits(event);
	cpu->pebs.single &= ~BIT_ULL(event->hw.idx);
	x86_hw_wrmsr(cpu->core->hw, MSR_IA32_PEBS_ENABLE, cpu->pebs.enabled);
}

/* the registers at the record's instruction, as a sample reports them */
static void record_regs(struct pt_regs *regs, const struct pebs_record *rec,
			const struct perf_event *event)
{
	memset(regs, 0, sizeof(*regs));
	regs->ax = rec->ax;
	regs->bx = rec->bx;
	regs->cx = rec->cx;
	regs->dx = rec->dx;
	regs->si = rec->si;
	regs->di = rec->di;
	regs->bp = rec->bp;
	regs->sp = rec->sp;
	regs->r8 = rec->r8;
	regs->r9 = rec->r9;
	regs->r10 = rec->r10;
	regs->r11 = rec->r11;
	regs->r12 = rec->r12;
	regs->r13 = rec->r13;
	regs->r14 = rec->r14;
	regs->r15 = rec->r15;
	regs->flags = rec->flags & ~PERF_EFLAGS_EXACT;
	/*
	 * The record's IP is the instruction after the one that overflowed
	 * the counter; precise_ip 2 and 3 ask for that one itself.
	 */
	regs->ip = rec->ip;
	if (event->attr.precise_ip >= 2 && rec->real_ip) {
		regs->ip = rec->real_ip;
		regs->flags |= PERF_EFLAGS_EXACT;
	}
	if (regs->ip >= TASK_SIZE_MAX) {
		regs->cs = __KERNEL_CS;
		regs->ss = __KERNEL_DS;
	} else {
		/* the task's own mode: a 32-bit task's records are 32-bit */
		regs->cs = current->mm ? task_pt_regs(current)->cs : __USER_CS;
		regs->ss = __USER_DS;
	}
}

/* the data source and the load latency (the weight) of a memory event */
static void record_memory(struct perf_sample_data *data,
			  const struct perf_event *event,
			  const struct pebs_record *rec)
{
	enum pebs_memory kind = pebs_memory_kind(event->hw.config);
	u64 type = event->attr.sample_type;

	if (type & PERF_SAMPLE_DATA_SRC) {
		data->data_src.val = pebs_data_source(kind, rec->dse);
		data->sample_flags |= PERF_SAMPLE_DATA_SRC;
	}
	if (type & PERF_SAMPLE_WEIGHT_TYPE) {
		data->weight.full = 0;
		/* WEIGHT_STRUCT: the latency in its first field, as WEIGHT */
		if (kind == PEBS_MEM_LDLAT)
			data->weight.var1_dw = rec->lat;
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
			 const struct pebs_record *rec, bool last)
{
	u64 reload = this_ds()->pebs_event_reset[event->hw.idx];
	struct perf_sample_data data;
	struct pt_regs regs;
	u64 period;

	period = x86_core_pebs_fold(cpu, event, reload);
	if (!period)
		return 0;
	record_regs(&regs, rec, event);
	perf_sample_data_init(&data, 0, period);
	if (event->attr.sample_type & PERF_SAMPLE_ADDR) {
		data.addr = rec->dla;
		data.sample_flags |= PERF_SAMPLE_ADDR;
	}
	if (event->attr.sample_type &
	    (PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT_TYPE))
		record_memory(&data, event, rec);
	/*
	 * The record's time stamp, where the event's clock is sched_clock()
	 * from the TSC: a buffer's samples keep their own times.
	 */
	if ((event->attr.sample_type & PERF_SAMPLE_TIME) &&
	    !event->attr.use_clockid && using_native_sched_clock() &&
	    sched_clock_stable()) {
		data.time = native_sched_clock_from_tsc(rec->tsc);
		data.sample_flags |= PERF_SAMPLE_TIME;
	}
	if (x86_core_has_lbr(event) && has_branch_stack(event))
		perf_sample_save_brstack(&data, event,
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

	if (!event || !x86_core_is_pebs(event) ||
	    (event->hw.state & PERF_HES_STOPPED))
		return NULL;
	return event;
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
	u64 gp = GENMASK_ULL(cpu->core->desc.num_gp - 1, 0);
	struct debug_store *ds = this_ds();
	unsigned long bits, stop = 0, took = 0;
	u64 last[X86_CORE_MAX_GP] = {};
	const struct pebs_record *rec;
	struct perf_event *event;
	unsigned int idx;
	u64 at, top;
	int n = 0;

	if (cpu->pebs.draining || !ds->pebs_buffer_base)
		return 0;
	cpu->pebs.draining = true;
	barrier();
	top = READ_ONCE(ds->pebs_index);
	/* each counter's last record */
	for (at = ds->pebs_buffer_base; at + sizeof(*rec) <= top;
	     at += sizeof(*rec)) {
		rec = (const struct pebs_record *)(unsigned long)at;
		bits = rec->status & gp;
		for_each_set_bit(idx, &bits, X86_CORE_MAX_GP)
			last[idx] = at;
	}
	for (at = ds->pebs_buffer_base; at + sizeof(*rec) <= top;
	     at += sizeof(*rec)) {
		rec = (const struct pebs_record *)(unsigned long)at;
		bits = rec->status & gp & ~stop;
		for_each_set_bit(idx, &bits, X86_CORE_MAX_GP) {
			event = record_event(cpu, idx);
			if (!event)
				continue;
			took |= BIT(idx);
			n++;
			if (record_sample(cpu, event, rec, at == last[idx]))
				stop |= BIT(idx);
		}
	}
	WRITE_ONCE(ds->pebs_index, ds->pebs_buffer_base);
	barrier();
	cpu->pebs.draining = false;
	/* in frequency mode, each record's sample may change the period */
	bits = took & cpu->pebs.single & ~stop;
	for_each_set_bit(idx, &bits, X86_CORE_MAX_GP)
		x86_core_pebs_rearm(cpu, cpu->events[idx]);
	for_each_set_bit(idx, &stop, X86_CORE_MAX_GP)
		if (cpu->running & BIT_ULL(idx))
			x86_core_stop(cpu, cpu->events[idx], false);
	return n;
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
