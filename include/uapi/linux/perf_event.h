/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * User-space ABI of the performance events subsystem: the attribute block
 * handed to perf_event_open(2), the ioctls on the returned descriptor, the
 * first page of the mmap()ed ring buffer and the records written into it.
 *
 * Everything here is ABI: names, values and layouts must never change.
 */
#ifndef _UAPI_LINUX_PERF_EVENT_H
#define _UAPI_LINUX_PERF_EVENT_H

#include <linux/types.h>
#include <linux/ioctl.h>
#include <asm/byteorder.h>

/* Values of perf_event_attr::type; dynamic PMUs are numbered above these. */
enum perf_type_id {
	PERF_TYPE_HARDWARE			= 0,
	PERF_TYPE_SOFTWARE			= 1,
	PERF_TYPE_TRACEPOINT			= 2,
	PERF_TYPE_HW_CACHE			= 3,
	PERF_TYPE_RAW				= 4,
	PERF_TYPE_BREAKPOINT			= 5,

	PERF_TYPE_MAX,				/* not an ABI value */
};

/*
 * For PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE the upper half of config may
 * name the PMU (its sysfs type) on systems with several core PMUs; the lower
 * half holds the generic event.
 */
#define PERF_PMU_TYPE_SHIFT			32
#define PERF_HW_EVENT_MASK			0xffffffff

/* Generic hardware events (config of PERF_TYPE_HARDWARE). */
enum perf_hw_id {
	PERF_COUNT_HW_CPU_CYCLES		= 0,
	PERF_COUNT_HW_INSTRUCTIONS		= 1,
	PERF_COUNT_HW_CACHE_REFERENCES		= 2,
	PERF_COUNT_HW_CACHE_MISSES		= 3,
	PERF_COUNT_HW_BRANCH_INSTRUCTIONS	= 4,
	PERF_COUNT_HW_BRANCH_MISSES		= 5,
	PERF_COUNT_HW_BUS_CYCLES		= 6,
	PERF_COUNT_HW_STALLED_CYCLES_FRONTEND	= 7,
	PERF_COUNT_HW_STALLED_CYCLES_BACKEND	= 8,
	PERF_COUNT_HW_REF_CPU_CYCLES		= 9,

	PERF_COUNT_HW_MAX,			/* not an ABI value */
};

/*
 * Generic cache events (config of PERF_TYPE_HW_CACHE):
 *	cache id | (operation << 8) | (result << 16)
 */
enum perf_hw_cache_id {
	PERF_COUNT_HW_CACHE_L1D			= 0,
	PERF_COUNT_HW_CACHE_L1I			= 1,
	PERF_COUNT_HW_CACHE_LL			= 2,
	PERF_COUNT_HW_CACHE_DTLB		= 3,
	PERF_COUNT_HW_CACHE_ITLB		= 4,
	PERF_COUNT_HW_CACHE_BPU			= 5,
	PERF_COUNT_HW_CACHE_NODE		= 6,

	PERF_COUNT_HW_CACHE_MAX,		/* not an ABI value */
};

enum perf_hw_cache_op_id {
	PERF_COUNT_HW_CACHE_OP_READ		= 0,
	PERF_COUNT_HW_CACHE_OP_WRITE		= 1,
	PERF_COUNT_HW_CACHE_OP_PREFETCH		= 2,

	PERF_COUNT_HW_CACHE_OP_MAX,		/* not an ABI value */
};

enum perf_hw_cache_op_result_id {
	PERF_COUNT_HW_CACHE_RESULT_ACCESS	= 0,
	PERF_COUNT_HW_CACHE_RESULT_MISS		= 1,

	PERF_COUNT_HW_CACHE_RESULT_MAX,		/* not an ABI value */
};

/* Events the kernel counts itself (config of PERF_TYPE_SOFTWARE). */
enum perf_sw_ids {
	PERF_COUNT_SW_CPU_CLOCK			= 0,
	PERF_COUNT_SW_TASK_CLOCK		= 1,
	PERF_COUNT_SW_PAGE_FAULTS		= 2,
	PERF_COUNT_SW_CONTEXT_SWITCHES		= 3,
	PERF_COUNT_SW_CPU_MIGRATIONS		= 4,
	PERF_COUNT_SW_PAGE_FAULTS_MIN		= 5,
	PERF_COUNT_SW_PAGE_FAULTS_MAJ		= 6,
	PERF_COUNT_SW_ALIGNMENT_FAULTS		= 7,
	PERF_COUNT_SW_EMULATION_FAULTS		= 8,
	PERF_COUNT_SW_DUMMY			= 9,
	PERF_COUNT_SW_BPF_OUTPUT		= 10,
	PERF_COUNT_SW_CGROUP_SWITCHES		= 11,

	PERF_COUNT_SW_MAX,			/* not an ABI value */
};

/*
 * Bits of perf_event_attr::sample_type: what a PERF_RECORD_SAMPLE carries.
 * The record layout order is given with PERF_RECORD_SAMPLE below, not here.
 */
enum perf_event_sample_format {
	PERF_SAMPLE_IP				= 1U << 0,
	PERF_SAMPLE_TID				= 1U << 1,
	PERF_SAMPLE_TIME			= 1U << 2,
	PERF_SAMPLE_ADDR			= 1U << 3,
	PERF_SAMPLE_READ			= 1U << 4,
	PERF_SAMPLE_CALLCHAIN			= 1U << 5,
	PERF_SAMPLE_ID				= 1U << 6,
	PERF_SAMPLE_CPU				= 1U << 7,
	PERF_SAMPLE_PERIOD			= 1U << 8,
	PERF_SAMPLE_STREAM_ID			= 1U << 9,
	PERF_SAMPLE_RAW				= 1U << 10,
	PERF_SAMPLE_BRANCH_STACK		= 1U << 11,
	PERF_SAMPLE_REGS_USER			= 1U << 12,
	PERF_SAMPLE_STACK_USER			= 1U << 13,
	PERF_SAMPLE_WEIGHT			= 1U << 14,
	PERF_SAMPLE_DATA_SRC			= 1U << 15,
	PERF_SAMPLE_IDENTIFIER			= 1U << 16,
	PERF_SAMPLE_TRANSACTION			= 1U << 17,
	PERF_SAMPLE_REGS_INTR			= 1U << 18,
	PERF_SAMPLE_PHYS_ADDR			= 1U << 19,
	PERF_SAMPLE_AUX				= 1U << 20,
	PERF_SAMPLE_CGROUP			= 1U << 21,
	PERF_SAMPLE_DATA_PAGE_SIZE		= 1U << 22,
	PERF_SAMPLE_CODE_PAGE_SIZE		= 1U << 23,
	PERF_SAMPLE_WEIGHT_STRUCT		= 1U << 24,

	PERF_SAMPLE_MAX				= 1U << 25, /* not an ABI value */
};

/* The two weight formats share one slot in the sample. */
#define PERF_SAMPLE_WEIGHT_TYPE	(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)

/*
 * perf_event_attr::branch_sample_type, as bit numbers first and as masks
 * after.  The low three bits select privilege levels (default: those of the
 * event); the others select branch kinds and what each entry records.
 */
enum perf_branch_sample_type_shift {
	PERF_SAMPLE_BRANCH_USER_SHIFT		= 0,	/* target in user */
	PERF_SAMPLE_BRANCH_KERNEL_SHIFT		= 1,	/* target in kernel */
	PERF_SAMPLE_BRANCH_HV_SHIFT		= 2,	/* target in hypervisor */

	PERF_SAMPLE_BRANCH_ANY_SHIFT		= 3,	/* every kind */
	PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT	= 4,	/* calls of any kind */
	PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT	= 5,	/* returns of any kind */
	PERF_SAMPLE_BRANCH_IND_CALL_SHIFT	= 6,	/* indirect calls */
	PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT	= 7,	/* transaction aborts */
	PERF_SAMPLE_BRANCH_IN_TX_SHIFT		= 8,	/* inside a transaction */
	PERF_SAMPLE_BRANCH_NO_TX_SHIFT		= 9,	/* outside transactions */
	PERF_SAMPLE_BRANCH_COND_SHIFT		= 10,	/* conditional */

	PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT	= 11,	/* call stack mode */
	PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT	= 12,	/* indirect jumps */
	PERF_SAMPLE_BRANCH_CALL_SHIFT		= 13,	/* direct calls */

	PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT	= 14,	/* leave flags zero */
	PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT	= 15,	/* leave cycles zero */

	PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT	= 16,	/* fill in type */

	PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT	= 17,	/* record hw_idx */

	PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT	= 18,	/* fill in priv */

	PERF_SAMPLE_BRANCH_COUNTERS_SHIFT	= 19,	/* per-branch counters */

	PERF_SAMPLE_BRANCH_MAX_SHIFT		/* not an ABI value */
};

enum perf_branch_sample_type {
	PERF_SAMPLE_BRANCH_USER		= 1U << PERF_SAMPLE_BRANCH_USER_SHIFT,
	PERF_SAMPLE_BRANCH_KERNEL	= 1U << PERF_SAMPLE_BRANCH_KERNEL_SHIFT,
	PERF_SAMPLE_BRANCH_HV		= 1U << PERF_SAMPLE_BRANCH_HV_SHIFT,

	PERF_SAMPLE_BRANCH_ANY		= 1U << PERF_SAMPLE_BRANCH_ANY_SHIFT,
	PERF_SAMPLE_BRANCH_ANY_CALL	= 1U << PERF_SAMPLE_BRANCH_ANY_CALL_SHIFT,
	PERF_SAMPLE_BRANCH_ANY_RETURN	= 1U << PERF_SAMPLE_BRANCH_ANY_RETURN_SHIFT,
	PERF_SAMPLE_BRANCH_IND_CALL	= 1U << PERF_SAMPLE_BRANCH_IND_CALL_SHIFT,
	PERF_SAMPLE_BRANCH_ABORT_TX	= 1U << PERF_SAMPLE_BRANCH_ABORT_TX_SHIFT,
	PERF_SAMPLE_BRANCH_IN_TX	= 1U << PERF_SAMPLE_BRANCH_IN_TX_SHIFT,
	PERF_SAMPLE_BRANCH_NO_TX	= 1U << PERF_SAMPLE_BRANCH_NO_TX_SHIFT,
	PERF_SAMPLE_BRANCH_COND		= 1U << PERF_SAMPLE_BRANCH_COND_SHIFT,

	PERF_SAMPLE_BRANCH_CALL_STACK	= 1U << PERF_SAMPLE_BRANCH_CALL_STACK_SHIFT,
	PERF_SAMPLE_BRANCH_IND_JUMP	= 1U << PERF_SAMPLE_BRANCH_IND_JUMP_SHIFT,
	PERF_SAMPLE_BRANCH_CALL		= 1U << PERF_SAMPLE_BRANCH_CALL_SHIFT,

	PERF_SAMPLE_BRANCH_NO_FLAGS	= 1U << PERF_SAMPLE_BRANCH_NO_FLAGS_SHIFT,
	PERF_SAMPLE_BRANCH_NO_CYCLES	= 1U << PERF_SAMPLE_BRANCH_NO_CYCLES_SHIFT,

	PERF_SAMPLE_BRANCH_TYPE_SAVE	= 1U << PERF_SAMPLE_BRANCH_TYPE_SAVE_SHIFT,

	PERF_SAMPLE_BRANCH_HW_INDEX	= 1U << PERF_SAMPLE_BRANCH_HW_INDEX_SHIFT,

	PERF_SAMPLE_BRANCH_PRIV_SAVE	= 1U << PERF_SAMPLE_BRANCH_PRIV_SAVE_SHIFT,

	PERF_SAMPLE_BRANCH_COUNTERS	= 1U << PERF_SAMPLE_BRANCH_COUNTERS_SHIFT,

	PERF_SAMPLE_BRANCH_MAX		= 1U << PERF_SAMPLE_BRANCH_MAX_SHIFT,
};

/* perf_branch_entry::type */
enum {
	PERF_BR_UNKNOWN		= 0,	/* not classified */
	PERF_BR_COND		= 1,	/* conditional */
	PERF_BR_UNCOND		= 2,	/* unconditional */
	PERF_BR_IND		= 3,	/* indirect */
	PERF_BR_CALL		= 4,	/* function call */
	PERF_BR_IND_CALL	= 5,	/* indirect function call */
	PERF_BR_RET		= 6,	/* function return */
	PERF_BR_SYSCALL		= 7,	/* system call */
	PERF_BR_SYSRET		= 8,	/* return from system call */
	PERF_BR_COND_CALL	= 9,	/* conditional call */
	PERF_BR_COND_RET	= 10,	/* conditional return */
	PERF_BR_ERET		= 11,	/* exception return */
	PERF_BR_IRQ		= 12,	/* interrupt */
	PERF_BR_SERROR		= 13,	/* system error */
	PERF_BR_NO_TX		= 14,	/* not in a transaction */
	PERF_BR_EXTEND_ABI	= 15,	/* see perf_branch_entry::new_type */
	PERF_BR_MAX,
};

/* perf_branch_entry::spec: how the branch relates to speculation. */
enum {
	PERF_BR_SPEC_NA			= 0,	/* unknown */
	PERF_BR_SPEC_WRONG_PATH		= 1,	/* speculative, mispredicted */
	PERF_BR_NON_SPEC_CORRECT_PATH	= 2,	/* architectural */
	PERF_BR_SPEC_CORRECT_PATH	= 3,	/* speculative, predicted */
	PERF_BR_SPEC_MAX,
};

/* perf_branch_entry::new_type, used when type is PERF_BR_EXTEND_ABI. */
enum {
	PERF_BR_NEW_FAULT_ALGN		= 0,	/* alignment fault */
	PERF_BR_NEW_FAULT_DATA		= 1,	/* data fault */
	PERF_BR_NEW_FAULT_INST		= 2,	/* instruction fault */
	PERF_BR_NEW_ARCH_1		= 3,	/* meaning is per arch */
	PERF_BR_NEW_ARCH_2		= 4,
	PERF_BR_NEW_ARCH_3		= 5,
	PERF_BR_NEW_ARCH_4		= 6,
	PERF_BR_NEW_ARCH_5		= 7,
	PERF_BR_NEW_MAX,
};

/* perf_branch_entry::priv */
enum {
	PERF_BR_PRIV_UNKNOWN	= 0,
	PERF_BR_PRIV_USER	= 1,
	PERF_BR_PRIV_KERNEL	= 2,
	PERF_BR_PRIV_HV		= 3,
};

/* What the architecture-specific new types mean on arm64. */
#define PERF_BR_ARM64_FIQ		PERF_BR_NEW_ARCH_1
#define PERF_BR_ARM64_DEBUG_HALT	PERF_BR_NEW_ARCH_2
#define PERF_BR_ARM64_DEBUG_EXIT	PERF_BR_NEW_ARCH_3
#define PERF_BR_ARM64_DEBUG_INST	PERF_BR_NEW_ARCH_4
#define PERF_BR_ARM64_DEBUG_DATA	PERF_BR_NEW_ARCH_5

#define PERF_SAMPLE_BRANCH_PLM_ALL \
	(PERF_SAMPLE_BRANCH_USER | \
	 PERF_SAMPLE_BRANCH_KERNEL | \
	 PERF_SAMPLE_BRANCH_HV)

/* The word that precedes a register dump in a sample. */
enum perf_sample_regs_abi {
	PERF_SAMPLE_REGS_ABI_NONE	= 0,
	PERF_SAMPLE_REGS_ABI_32		= 1,
	PERF_SAMPLE_REGS_ABI_64		= 2,
};

/*
 * PERF_SAMPLE_TRANSACTION: why a hardware transaction aborted.  The upper
 * 32 bits hold the abort code the program supplied.
 */
enum {
	PERF_TXN_ELISION	= (1 << 0),	/* lock elision */
	PERF_TXN_TRANSACTION	= (1 << 1),	/* generic transaction */
	PERF_TXN_SYNC		= (1 << 2),	/* caused by this instruction */
	PERF_TXN_ASYNC		= (1 << 3),	/* caused elsewhere */
	PERF_TXN_RETRY		= (1 << 4),	/* a retry may succeed */
	PERF_TXN_CONFLICT	= (1 << 5),	/* another thread's access */
	PERF_TXN_CAPACITY_WRITE	= (1 << 6),	/* write set too large */
	PERF_TXN_CAPACITY_READ	= (1 << 7),	/* read set too large */

	PERF_TXN_MAX		= (1 << 8),	/* not an ABI value */

	PERF_TXN_ABORT_MASK	= (0xffffffffULL << 32),
	PERF_TXN_ABORT_SHIFT	= 32,
};

/*
 * perf_event_attr::read_format: what read(2) returns.  Without GROUP:
 *
 *	{ u64 value;
 *	  { u64 time_enabled; }		&& TOTAL_TIME_ENABLED
 *	  { u64 time_running; }		&& TOTAL_TIME_RUNNING
 *	  { u64 id; }			&& ID
 *	  { u64 lost; }			&& LOST
 *	}
 *
 * With GROUP, for the leader and each sibling in turn:
 *
 *	{ u64 nr;
 *	  { u64 time_enabled; }		&& TOTAL_TIME_ENABLED
 *	  { u64 time_running; }		&& TOTAL_TIME_RUNNING
 *	  { u64 value;
 *	    { u64 id; }			&& ID
 *	    { u64 lost; }		&& LOST
 *	  } cntr[nr];
 *	}
 */
enum perf_event_read_format {
	PERF_FORMAT_TOTAL_TIME_ENABLED		= 1U << 0,
	PERF_FORMAT_TOTAL_TIME_RUNNING		= 1U << 1,
	PERF_FORMAT_ID				= 1U << 2,
	PERF_FORMAT_GROUP			= 1U << 3,
	PERF_FORMAT_LOST			= 1U << 4,

	PERF_FORMAT_MAX = 1U << 5,		/* not an ABI value */
};

/*
 * Sizes of perf_event_attr as it grew; each new version appends fields.
 * A caller passes its own size; the kernel zero-fills what it lacks.
 */
#define PERF_ATTR_SIZE_VER0	64	/* first published layout */
#define PERF_ATTR_SIZE_VER1	72	/* + config2 */
#define PERF_ATTR_SIZE_VER2	80	/* + branch_sample_type */
#define PERF_ATTR_SIZE_VER3	96	/* + sample_regs_user, sample_stack_user */
#define PERF_ATTR_SIZE_VER4	104	/* + sample_regs_intr */
#define PERF_ATTR_SIZE_VER5	112	/* + aux_watermark */
#define PERF_ATTR_SIZE_VER6	120	/* + aux_sample_size */
#define PERF_ATTR_SIZE_VER7	128	/* + sig_data */
#define PERF_ATTR_SIZE_VER8	136	/* + config3 */

/* What to count or sample, and how: the argument of perf_event_open(2). */
struct perf_event_attr {
	__u32	type;			/* enum perf_type_id or a PMU type */
	__u32	size;			/* sizeof() as the caller knows it */
	__u64	config;			/* event selector, meaning per type */

	union {
		__u64	sample_period;	/* sample every N events ... */
		__u64	sample_freq;	/* ... or N times a second (freq) */
	};

	__u64	sample_type;		/* enum perf_event_sample_format */
	__u64	read_format;		/* enum perf_event_read_format */

	__u64	disabled       :  1,	/* created stopped */
		inherit        :  1,	/* follow new children */
		pinned         :  1,	/* always on the PMU or error */
		exclusive      :  1,	/* alone on the PMU when on */
		exclude_user   :  1,	/* skip user mode */
		exclude_kernel :  1,	/* skip kernel mode */
		exclude_hv     :  1,	/* skip the hypervisor */
		exclude_idle   :  1,	/* skip the idle task */
		mmap           :  1,	/* PERF_RECORD_MMAP for exec maps */
		comm           :  1,	/* PERF_RECORD_COMM */
		freq           :  1,	/* sample_freq, not sample_period */
		inherit_stat   :  1,	/* keep per-task counts */
		enable_on_exec :  1,	/* start at the next exec */
		task           :  1,	/* PERF_RECORD_FORK / _EXIT */
		watermark      :  1,	/* wake by bytes, not samples */
		/*
		 * precise_ip: tolerated skid of the sampled IP.
		 *  0: any, 1: constant, 2: zero requested, 3: zero required
		 */
		precise_ip     :  2,
		mmap_data      :  1,	/* PERF_RECORD_MMAP for data maps */
		sample_id_all  :  1,	/* sample_id on every record */

		exclude_host   :  1,	/* skip the host side of KVM */
		exclude_guest  :  1,	/* skip the guest side of KVM */

		exclude_callchain_kernel : 1, /* no kernel frames */
		exclude_callchain_user   : 1, /* no user frames */
		mmap2          :  1,	/* PERF_RECORD_MMAP2 */
		comm_exec      :  1,	/* mark COMM records caused by exec */
		use_clockid    :  1,	/* timestamps from clockid */
		context_switch :  1,	/* PERF_RECORD_SWITCH* */
		write_backward :  1,	/* fill the ring buffer downwards */
		namespaces     :  1,	/* PERF_RECORD_NAMESPACES */
		ksymbol        :  1,	/* PERF_RECORD_KSYMBOL */
		bpf_event      :  1,	/* PERF_RECORD_BPF_EVENT */
		aux_output     :  1,	/* emit into the group's AUX stream */
		cgroup         :  1,	/* PERF_RECORD_CGROUP */
		text_poke      :  1,	/* PERF_RECORD_TEXT_POKE */
		build_id       :  1,	/* build id in MMAP2 records */
		inherit_thread :  1,	/* inherit into threads only */
		remove_on_exec :  1,	/* drop the event at exec */
		sigtrap        :  1,	/* SIGTRAP on overflow */
		__reserved_1   : 26;	/* must be zero */

	union {
		__u32	wakeup_events;	  /* wake every N samples ... */
		__u32	wakeup_watermark; /* ... or N bytes (watermark) */
	};

	__u32	bp_type;		/* HW_BREAKPOINT_R/W/X */
	union {
		__u64	bp_addr;
		__u64	kprobe_func;	/* kprobe PMU: symbol name */
		__u64	uprobe_path;	/* uprobe PMU: file path */
		__u64	config1;	/* extra selector bits */
	};
	union {
		__u64	bp_len;
		__u64	kprobe_addr;	/* kprobe PMU when kprobe_func is 0 */
		__u64	probe_offset;	/* offset from func / in file */
		__u64	config2;	/* more selector bits */
	};
	__u64	branch_sample_type;	/* enum perf_branch_sample_type */

	__u64	sample_regs_user;	/* user registers to dump (arch mask) */
	__u32	sample_stack_user;	/* bytes of user stack to dump */

	__s32	clockid;		/* clock when use_clockid is set */

	__u64	sample_regs_intr;	/* registers at the interrupt */

	__u32	aux_watermark;		/* AUX bytes per wakeup */
	__u16	sample_max_stack;	/* callchain depth limit */
	__u16	__reserved_2;		/* must be zero */
	__u32	aux_sample_size;	/* AUX bytes per sample */

	union {
		__u32	aux_action;	/* all AUX control bits at once */
		struct {
			__u32	aux_start_paused :  1, /* AUX starts paused */
				aux_pause        :  1, /* overflow pauses AUX */
				aux_resume       :  1, /* overflow resumes AUX */
				__reserved_3     : 29; /* must be zero */
		};
	};

	__u64	sig_data;		/* copied to si_perf_data on SIGTRAP */

	__u64	config3;		/* yet more selector bits */
};

/* PERF_EVENT_IOC_QUERY_BPF argument: BPF programs on a tracepoint. */
struct perf_event_query_bpf {
	__u32	ids_len;	/* in: room in ids[]; out: entries copied */
	__u32	prog_cnt;	/* out: programs attached */
	__u32	ids[];		/* out: program ids */
};

/* ioctl(2) requests on an event descriptor. */
#define PERF_EVENT_IOC_ENABLE			_IO('$', 0)
#define PERF_EVENT_IOC_DISABLE			_IO('$', 1)
#define PERF_EVENT_IOC_REFRESH			_IO('$', 2)
#define PERF_EVENT_IOC_RESET			_IO('$', 3)
#define PERF_EVENT_IOC_PERIOD			_IOW('$', 4, __u64)
#define PERF_EVENT_IOC_SET_OUTPUT		_IO('$', 5)
#define PERF_EVENT_IOC_SET_FILTER		_IOW('$', 6, char *)
#define PERF_EVENT_IOC_ID			_IOR('$', 7, __u64 *)
#define PERF_EVENT_IOC_SET_BPF			_IOW('$', 8, __u32)
#define PERF_EVENT_IOC_PAUSE_OUTPUT		_IOW('$', 9, __u32)
#define PERF_EVENT_IOC_QUERY_BPF		_IOWR('$', 10, struct perf_event_query_bpf *)
#define PERF_EVENT_IOC_MODIFY_ATTRIBUTES	_IOW('$', 11, struct perf_event_attr *)

/* Argument of ENABLE, DISABLE and RESET. */
enum perf_event_ioc_flags {
	PERF_IOC_FLAG_GROUP		= 1U << 0,	/* whole group */
};

/*
 * The first page of the mmap()ed area: counter state for self-reads and
 * the producer/consumer positions of the data and AUX rings.
 */
struct perf_event_mmap_page {
	__u32	version;		/* layout version */
	__u32	compat_version;		/* oldest version this is compatible with */

	/*
	 * Self-read fields.  The kernel bumps lock around every update: read
	 * lock, the fields, then lock again, and retry if it changed.  index
	 * is the hardware counter plus one (0: not readable from user space);
	 * the count is offset plus the sign-extended pmc_width-bit counter.
	 */
	__u32	lock;			/* sequence count */
	__u32	index;			/* counter number + 1, or 0 */
	__s64	offset;			/* add to the counter value */
	__u64	time_enabled;		/* ns enabled, as of the last update */
	__u64	time_running;		/* ns on the PMU, as of the last update */
	union {
		__u64	capabilities;
		struct {
			__u64	cap_bit0		: 1, /* obsolete, always 0 */
				cap_bit0_is_deprecated	: 1, /* the bits below are valid */

				cap_user_rdpmc		: 1, /* counter readable in user mode */
				cap_user_time		: 1, /* time_* fields valid */
				cap_user_time_zero	: 1, /* time_zero valid */
				cap_user_time_short	: 1, /* time_cycles/time_mask valid */
				cap_____res		: 58;
		};
	};

	/* Bits of the counter value read directly from user space. */
	__u16	pmc_width;

	/*
	 * Conversion of a cycle stamp cyc to ns since the last update:
	 *	quot = cyc >> time_shift;
	 *	rem  = cyc & ((1ULL << time_shift) - 1);
	 *	ns   = time_offset + quot * time_mult +
	 *	       ((rem * time_mult) >> time_shift);
	 * With cap_user_time_zero, time_zero + the same formula gives the
	 * perf clock.  With cap_user_time_short, the stamp first becomes
	 *	cyc = time_cycles + ((cyc - time_cycles) & time_mask);
	 */
	__u16	time_shift;
	__u32	time_mult;
	__u64	time_offset;
	__u64	time_zero;

	__u32	size;			/* bytes of this header in use */
	__u32	__reserved_1;

	__u64	time_cycles;
	__u64	time_mask;

	/* Padding so that the ring control words start at byte 1024. */
	__u8	__reserved[116 * 8];

	/*
	 * The data ring.  data_head only grows; user space reads it, issues
	 * a read barrier, consumes the records, issues a full barrier and
	 * writes data_tail (only honoured on a PROT_WRITE mapping, which also
	 * keeps the kernel from overwriting unread data).
	 */
	__u64	data_head;		/* written by the kernel */
	__u64	data_tail;		/* written by user space */
	__u64	data_offset;		/* where the ring starts in the map */
	__u64	data_size;		/* bytes in the ring */

	/*
	 * The AUX ring: user space sets aux_offset/aux_size and maps that
	 * range; head and tail work as for the data ring.
	 */
	__u64	aux_head;
	__u64	aux_tail;
	__u64	aux_offset;
	__u64	aux_size;
};

/* perf_event_header::misc: the CPU mode field (a value, not bits). */
#define PERF_RECORD_MISC_CPUMODE_MASK		(7 << 0)
#define PERF_RECORD_MISC_CPUMODE_UNKNOWN	(0 << 0)
#define PERF_RECORD_MISC_KERNEL			(1 << 0)
#define PERF_RECORD_MISC_USER			(2 << 0)
#define PERF_RECORD_MISC_HYPERVISOR		(3 << 0)
#define PERF_RECORD_MISC_GUEST_KERNEL		(4 << 0)
#define PERF_RECORD_MISC_GUEST_USER		(5 << 0)

/* Set by the perf tool only: /proc/PID/maps parsing timed out. */
#define PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT	(1 << 12)

/* Bit 13 means one thing per record type. */
#define PERF_RECORD_MISC_MMAP_DATA		(1 << 13) /* MMAP*: not exec */
#define PERF_RECORD_MISC_COMM_EXEC		(1 << 13) /* COMM: by exec */
#define PERF_RECORD_MISC_FORK_EXEC		(1 << 13) /* FORK: by exec */
#define PERF_RECORD_MISC_SWITCH_OUT		(1 << 13) /* SWITCH*: out */

/* Bit 14 as well. */
#define PERF_RECORD_MISC_EXACT_IP		(1 << 14) /* SAMPLE: exact ip */
#define PERF_RECORD_MISC_SWITCH_OUT_PREEMPT	(1 << 14) /* SWITCH*: preempted */
#define PERF_RECORD_MISC_MMAP_BUILD_ID		(1 << 14) /* MMAP2: build id */

/* Reserved for extending misc. */
#define PERF_RECORD_MISC_EXT_RESERVED		(1 << 15)

/* Every record in the data ring starts with this. */
struct perf_event_header {
	__u32	type;			/* enum perf_event_type */
	__u16	misc;			/* PERF_RECORD_MISC_* */
	__u16	size;			/* whole record, header included */
};

/* One namespace in a PERF_RECORD_NAMESPACES record. */
struct perf_ns_link_info {
	__u64	dev;
	__u64	ino;
};

/* Slots of the namespace array in PERF_RECORD_NAMESPACES. */
enum {
	NET_NS_INDEX		= 0,
	UTS_NS_INDEX		= 1,
	IPC_NS_INDEX		= 2,
	PID_NS_INDEX		= 3,
	USER_NS_INDEX		= 4,
	MNT_NS_INDEX		= 5,
	CGROUP_NS_INDEX		= 6,

	NR_NAMESPACES,		/* number of slots */
};

/*
 * Record types in the data ring.  With attr.sample_id_all, every record
 * but SAMPLE ends with the identity fields chosen in sample_type:
 *
 *	struct sample_id {
 *		{ u32 pid, tid;  }	&& PERF_SAMPLE_TID
 *		{ u64 time;      }	&& PERF_SAMPLE_TIME
 *		{ u64 id;        }	&& PERF_SAMPLE_ID
 *		{ u64 stream_id; }	&& PERF_SAMPLE_STREAM_ID
 *		{ u32 cpu, res;  }	&& PERF_SAMPLE_CPU
 *		{ u64 id;        }	&& PERF_SAMPLE_IDENTIFIER
 *	};
 */
enum perf_event_type {
	/*
	 * An executable (or, with mmap_data, any) mapping was created:
	 *	{ header; u32 pid, tid; u64 addr, len, pgoff;
	 *	  char filename[]; sample_id; }
	 */
	PERF_RECORD_MMAP			= 1,

	/*
	 * Records were dropped because the ring was full:
	 *	{ header; u64 id, lost; sample_id; }
	 */
	PERF_RECORD_LOST			= 2,

	/*
	 * A task changed its name:
	 *	{ header; u32 pid, tid; char comm[]; sample_id; }
	 */
	PERF_RECORD_COMM			= 3,

	/*
	 * A task exited:
	 *	{ header; u32 pid, ppid, tid, ptid; u64 time; sample_id; }
	 */
	PERF_RECORD_EXIT			= 4,

	/*
	 * Sampling was throttled / unthrottled:
	 *	{ header; u64 time, id, stream_id; sample_id; }
	 */
	PERF_RECORD_THROTTLE			= 5,
	PERF_RECORD_UNTHROTTLE			= 6,

	/*
	 * A task was created:
	 *	{ header; u32 pid, ppid, tid, ptid; u64 time; sample_id; }
	 */
	PERF_RECORD_FORK			= 7,

	/*
	 * Counter values of an inherited child at its exit:
	 *	{ header; u32 pid, tid; struct read_format values; sample_id; }
	 */
	PERF_RECORD_READ			= 8,

	/*
	 * A sample; each part is present when its sample_type bit is set:
	 *
	 *	{ header;
	 *	  u64 id;			IDENTIFIER
	 *	  u64 ip;			IP
	 *	  u32 pid, tid;			TID
	 *	  u64 time;			TIME
	 *	  u64 addr;			ADDR
	 *	  u64 id;			ID
	 *	  u64 stream_id;		STREAM_ID
	 *	  u32 cpu, res;			CPU
	 *	  u64 period;			PERIOD
	 *	  struct read_format values;	READ
	 *	  u64 nr, ips[nr];		CALLCHAIN
	 *	  u32 size; char data[size];	RAW (padded to 8 bytes)
	 *	  u64 bnr; u64 hw_idx;		BRANCH_STACK (hw_idx with
	 *					BRANCH_HW_INDEX)
	 *	  struct perf_branch_entry lbr[bnr];
	 *	  u64 cntr[bnr];		BRANCH_STACK && BRANCH_COUNTERS
	 *	  u64 abi, regs[weight(mask)];	REGS_USER (regs if abi != 0)
	 *	  u64 size; char data[size];	STACK_USER
	 *	  u64 dyn_size;			STACK_USER && size != 0
	 *	  union perf_sample_weight;	WEIGHT_TYPE
	 *	  u64 data_src;			DATA_SRC
	 *	  u64 transaction;		TRANSACTION
	 *	  u64 abi, regs[weight(mask)];	REGS_INTR (regs if abi != 0)
	 *	  u64 phys_addr;		PHYS_ADDR
	 *	  u64 cgroup;			CGROUP
	 *	  u64 data_page_size;		DATA_PAGE_SIZE
	 *	  u64 code_page_size;		CODE_PAGE_SIZE
	 *	  u64 size; char data[size];	AUX
	 *	}
	 */
	PERF_RECORD_SAMPLE			= 9,

	/*
	 * A mapping with enough to identify shared objects:
	 *	{ header; u32 pid, tid; u64 addr, len, pgoff;
	 *	  union {
	 *		{ u32 maj, min; u64 ino, ino_generation; };
	 *		{ u8 build_id_size, __reserved_1; u16 __reserved_2;
	 *		  u8 build_id[20]; };	MISC_MMAP_BUILD_ID
	 *	  };
	 *	  u32 prot, flags; char filename[]; sample_id; }
	 */
	PERF_RECORD_MMAP2			= 10,

	/*
	 * New data in the AUX ring:
	 *	{ header; u64 aux_offset, aux_size, flags; sample_id; }
	 * flags: PERF_AUX_FLAG_*
	 */
	PERF_RECORD_AUX				= 11,

	/*
	 * The task that started instruction tracing:
	 *	{ header; u32 pid, tid; sample_id; }
	 */
	PERF_RECORD_ITRACE_START		= 12,

	/*
	 * Samples the hardware dropped:
	 *	{ header; u64 lost; sample_id; }
	 */
	PERF_RECORD_LOST_SAMPLES		= 13,

	/*
	 * The monitored task was switched in or out (MISC_SWITCH_OUT):
	 *	{ header; sample_id; }
	 */
	PERF_RECORD_SWITCH			= 14,

	/*
	 * A switch seen by a CPU-wide event, naming the other task:
	 *	{ header; u32 next_prev_pid, next_prev_tid; sample_id; }
	 */
	PERF_RECORD_SWITCH_CPU_WIDE		= 15,

	/*
	 * The namespaces of a task:
	 *	{ header; u32 pid, tid; u64 nr_namespaces;
	 *	  struct perf_ns_link_info link_info[nr_namespaces];
	 *	  sample_id; }
	 */
	PERF_RECORD_NAMESPACES			= 16,

	/*
	 * A kernel symbol appeared or went away:
	 *	{ header; u64 addr; u32 len; u16 ksym_type, flags;
	 *	  char name[]; sample_id; }
	 */
	PERF_RECORD_KSYMBOL			= 17,

	/*
	 * A BPF program was loaded or unloaded:
	 *	{ header; u16 type, flags; u32 id; u8 tag[BPF_TAG_SIZE];
	 *	  sample_id; }
	 */
	PERF_RECORD_BPF_EVENT			= 18,

	/*
	 * A cgroup was created:
	 *	{ header; u64 id; char path[]; sample_id; }
	 */
	PERF_RECORD_CGROUP			= 19,

	/*
	 * Kernel text was modified:
	 *	{ header; u64 addr; u16 old_len, new_len;
	 *	  u8 bytes[old_len + new_len]; sample_id; }
	 */
	PERF_RECORD_TEXT_POKE			= 20,

	/*
	 * The hardware id of the AUX stream a sample went to:
	 *	{ header; u64 hw_id; sample_id; }
	 */
	PERF_RECORD_AUX_OUTPUT_HW_ID		= 21,

	PERF_RECORD_MAX,			/* not an ABI value */
};

/* PERF_RECORD_KSYMBOL ksym_type */
enum perf_record_ksymbol_type {
	PERF_RECORD_KSYMBOL_TYPE_UNKNOWN	= 0,
	PERF_RECORD_KSYMBOL_TYPE_BPF		= 1,
	PERF_RECORD_KSYMBOL_TYPE_OOL		= 2,	/* out-of-line code */
	PERF_RECORD_KSYMBOL_TYPE_MAX		/* not an ABI value */
};

/* PERF_RECORD_KSYMBOL flags */
#define PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER	(1 << 0)

/* PERF_RECORD_BPF_EVENT type */
enum perf_bpf_event_type {
	PERF_BPF_EVENT_UNKNOWN		= 0,
	PERF_BPF_EVENT_PROG_LOAD	= 1,
	PERF_BPF_EVENT_PROG_UNLOAD	= 2,
	PERF_BPF_EVENT_MAX,		/* not an ABI value */
};

#define PERF_MAX_STACK_DEPTH		127
#define PERF_MAX_CONTEXTS_PER_STACK	  8

/* Markers in a callchain: the frames after one come from that context. */
enum perf_callchain_context {
	PERF_CONTEXT_HV			= (__u64)-32,
	PERF_CONTEXT_KERNEL		= (__u64)-128,
	PERF_CONTEXT_USER		= (__u64)-512,

	PERF_CONTEXT_GUEST		= (__u64)-2048,
	PERF_CONTEXT_GUEST_KERNEL	= (__u64)-2176,
	PERF_CONTEXT_GUEST_USER		= (__u64)-2560,

	PERF_CONTEXT_MAX		= (__u64)-4095,
};

/* PERF_RECORD_AUX flags */
#define PERF_AUX_FLAG_TRUNCATED		0x01	/* did not fit */
#define PERF_AUX_FLAG_OVERWRITE		0x02	/* overwrote older data */
#define PERF_AUX_FLAG_PARTIAL		0x04	/* contains gaps */
#define PERF_AUX_FLAG_COLLISION		0x08	/* samples collided */
#define PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK	0xff00	/* PMU-specific format */

/* CoreSight values of the PMU format field. */
#define PERF_AUX_FLAG_CORESIGHT_FORMAT_CORESIGHT	0x0000 /* frame formatted */
#define PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW		0x0100 /* raw trace */

/* The flags argument of perf_event_open(2). */
#define PERF_FLAG_FD_NO_GROUP		(1UL << 0)
#define PERF_FLAG_FD_OUTPUT		(1UL << 1)
#define PERF_FLAG_PID_CGROUP		(1UL << 2) /* pid is a cgroup fd */
#define PERF_FLAG_FD_CLOEXEC		(1UL << 3) /* O_CLOEXEC */

/*
 * PERF_SAMPLE_DATA_SRC: where a memory access was served.  Each field is a
 * set of PERF_MEM_<field>_* bits; PERF_MEM_S() places one in the word.
 */
#if defined(__LITTLE_ENDIAN_BITFIELD)
union perf_mem_data_src {
	__u64 val;
	struct {
		__u64	mem_op:5,	/* kind of access */
			mem_lvl:14,	/* level hit or missed (old scheme) */
			mem_snoop:5,	/* snoop result */
			mem_lock:2,	/* locked access */
			mem_dtlb:7,	/* TLB result */
			mem_lvl_num:4,	/* level number (new scheme) */
			mem_remote:1,	/* remote node */
			mem_snoopx:2,	/* snoop result, extended */
			mem_blk:3,	/* why the access was blocked */
			mem_hops:3,	/* distance of the remote node */
			mem_rsvd:18;
	};
};
#elif defined(__BIG_ENDIAN_BITFIELD)
union perf_mem_data_src {
	__u64 val;
	struct {
		__u64	mem_rsvd:18,
			mem_hops:3,
			mem_blk:3,
			mem_snoopx:2,
			mem_remote:1,
			mem_lvl_num:4,
			mem_dtlb:7,
			mem_lock:2,
			mem_snoop:5,
			mem_lvl:14,
			mem_op:5;
	};
};
#else
#error "Please fix <asm/byteorder.h>"
#endif

/* mem_op */
#define PERF_MEM_OP_NA		0x01	/* unknown */
#define PERF_MEM_OP_LOAD	0x02
#define PERF_MEM_OP_STORE	0x04
#define PERF_MEM_OP_PFETCH	0x08
#define PERF_MEM_OP_EXEC	0x10	/* instruction fetch */
#define PERF_MEM_OP_SHIFT	0

/*
 * mem_lvl: HIT or MISS plus the level.  Superseded by mem_lvl_num,
 * mem_remote and mem_snoopx, which new code should fill in.
 */
#define PERF_MEM_LVL_NA		0x01	/* unknown */
#define PERF_MEM_LVL_HIT	0x02
#define PERF_MEM_LVL_MISS	0x04
#define PERF_MEM_LVL_L1		0x08
#define PERF_MEM_LVL_LFB	0x10	/* line fill buffer */
#define PERF_MEM_LVL_L2		0x20
#define PERF_MEM_LVL_L3		0x40
#define PERF_MEM_LVL_LOC_RAM	0x80	/* local memory */
#define PERF_MEM_LVL_REM_RAM1	0x100	/* remote memory, 1 hop */
#define PERF_MEM_LVL_REM_RAM2	0x200	/* remote memory, 2 hops */
#define PERF_MEM_LVL_REM_CCE1	0x400	/* remote cache, 1 hop */
#define PERF_MEM_LVL_REM_CCE2	0x800	/* remote cache, 2 hops */
#define PERF_MEM_LVL_IO		0x1000	/* I/O memory */
#define PERF_MEM_LVL_UNC	0x2000	/* uncached */
#define PERF_MEM_LVL_SHIFT	5

/* mem_remote */
#define PERF_MEM_REMOTE_REMOTE	0x01
#define PERF_MEM_REMOTE_SHIFT	37

/* mem_lvl_num: a level number, not bits. */
#define PERF_MEM_LVLNUM_L1	0x01
#define PERF_MEM_LVLNUM_L2	0x02
#define PERF_MEM_LVLNUM_L3	0x03
#define PERF_MEM_LVLNUM_L4	0x04
#define PERF_MEM_LVLNUM_L2_MHB	0x05	/* L2 miss handling buffer */
#define PERF_MEM_LVLNUM_MSC	0x06	/* memory-side cache */
/* 0x07 is free */
#define PERF_MEM_LVLNUM_UNC	0x08	/* uncached */
#define PERF_MEM_LVLNUM_CXL	0x09	/* CXL memory */
#define PERF_MEM_LVLNUM_IO	0x0a	/* I/O */
#define PERF_MEM_LVLNUM_ANY_CACHE 0x0b	/* some cache */
#define PERF_MEM_LVLNUM_LFB	0x0c	/* L1 miss handling buffer */
#define PERF_MEM_LVLNUM_RAM	0x0d
#define PERF_MEM_LVLNUM_PMEM	0x0e	/* persistent memory */
#define PERF_MEM_LVLNUM_NA	0x0f	/* unknown */

#define PERF_MEM_LVLNUM_SHIFT	33

/* mem_snoop */
#define PERF_MEM_SNOOP_NA	0x01	/* unknown */
#define PERF_MEM_SNOOP_NONE	0x02	/* no snoop */
#define PERF_MEM_SNOOP_HIT	0x04	/* hit */
#define PERF_MEM_SNOOP_MISS	0x08	/* miss */
#define PERF_MEM_SNOOP_HITM	0x10	/* hit a modified line */
#define PERF_MEM_SNOOP_SHIFT	19

/* mem_snoopx */
#define PERF_MEM_SNOOPX_FWD	0x01	/* forwarded */
#define PERF_MEM_SNOOPX_PEER	0x02	/* from a peer cache */
#define PERF_MEM_SNOOPX_SHIFT	38

/* mem_lock */
#define PERF_MEM_LOCK_NA	0x01	/* unknown */
#define PERF_MEM_LOCK_LOCKED	0x02	/* locked access */
#define PERF_MEM_LOCK_SHIFT	24

/* mem_dtlb */
#define PERF_MEM_TLB_NA		0x01	/* unknown */
#define PERF_MEM_TLB_HIT	0x02
#define PERF_MEM_TLB_MISS	0x04
#define PERF_MEM_TLB_L1		0x08
#define PERF_MEM_TLB_L2		0x10
#define PERF_MEM_TLB_WK		0x20	/* hardware walker */
#define PERF_MEM_TLB_OS		0x40	/* OS fault handler */
#define PERF_MEM_TLB_SHIFT	26

/* mem_blk */
#define PERF_MEM_BLK_NA		0x01	/* unknown */
#define PERF_MEM_BLK_DATA	0x02	/* data could not be forwarded */
#define PERF_MEM_BLK_ADDR	0x04	/* address conflict */
#define PERF_MEM_BLK_SHIFT	40

/* mem_hops: a distance, not bits. */
#define PERF_MEM_HOPS_0		0x01	/* same node */
#define PERF_MEM_HOPS_1		0x02
#define PERF_MEM_HOPS_2		0x03
#define PERF_MEM_HOPS_3		0x04
/* 0x05 - 0x07 are free */
#define PERF_MEM_HOPS_SHIFT	43

/* PERF_MEM_S(LVL, HIT): the LVL field set to HIT, in place. */
#define PERF_MEM_S(a, s) \
	(((__u64)PERF_MEM_##a##_##s) << PERF_MEM_##a##_SHIFT)

/*
 * One taken branch in a PERF_SAMPLE_BRANCH_STACK sample, most recent first.
 * Flags the hardware cannot tell are zero.
 */
struct perf_branch_entry {
	__u64	from;			/* branch source */
	__u64	to;			/* branch target */
	__u64	mispred   :  1,		/* target was mispredicted */
		predicted :  1,		/* target was predicted */
		in_tx     :  1,		/* inside a transaction */
		abort     :  1,		/* transaction aborted */
		cycles    : 16,		/* cycles since the previous entry */
		type      :  4,		/* PERF_BR_* */
		spec      :  2,		/* PERF_BR_SPEC_* */
		new_type  :  4,		/* PERF_BR_NEW_* */
		priv      :  3,		/* PERF_BR_PRIV_* */
		reserved  : 31;
};

/*
 * The weight slot of a sample: one u64 (PERF_SAMPLE_WEIGHT) or three
 * PMU-defined parts (PERF_SAMPLE_WEIGHT_STRUCT).
 */
union perf_sample_weight {
	__u64		full;
#if defined(__LITTLE_ENDIAN_BITFIELD)
	struct {
		__u32	var1_dw;
		__u16	var2_w;
		__u16	var3_w;
	};
#elif defined(__BIG_ENDIAN_BITFIELD)
	struct {
		__u16	var3_w;
		__u16	var2_w;
		__u32	var1_dw;
	};
#else
#error "Please fix <asm/byteorder.h>"
#endif
};

#endif /* _UAPI_LINUX_PERF_EVENT_H */
