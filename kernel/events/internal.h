/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface of the perf_event core: types, the locking rules and
 * every symbol shared between the files of kernel/events/.
 *
 * Objects
 * -------
 * A perf_event counts on one PMU.  Events live in a perf_event_context:
 * one per CPU (pid == -1 events, always scheduled while the CPU is online)
 * and one per monitored task (scheduled in and out with the task).  Inside
 * a context, events are grouped: a group leader and its siblings go onto
 * the PMU together or not at all.  Leaders sit in one of two rb-trees of
 * the context (pinned, flexible), ordered by creation.  Each (context, PMU)
 * pair has a perf_event_pmu_context that lists the events active on the
 * PMU; a CPU context uses the one embedded in the PMU's per-CPU data.
 *
 * Locking order (outer first)
 * ---------------------------
 *   cpu_hotplug_lock            held for writing by the hotplug callbacks
 *                               that move scoped PMUs' events
 *                               (perf_pmu_migrate_context() takes the CPU
 *                               contexts' mutexes under it).  Nothing
 *                               that may take it (static keys, probe and
 *                               tracepoint registration, a PMU's destroy)
 *                               runs under a ctx->mutex: a member's
 *                               event_init holds its leader's only for
 *                               PMUs outside the software context
 *                               (pmu_event_init())
 *   task->signal->exec_update_lock (read)  held by perf_event_open() from
 *                               the ptrace check to the install; fs/exec.c
 *                               takes it for writing around
 *                               perf_event_exec() and perf_event_exit_task()
 *   task->perf_event_mutex      owner lists, task->perf_event_ctxp creation
 *     event->child_mutex        a parent's list of children (inherit.c);
 *                               never taken under a ctx->mutex
 *     ctx->mutex                membership of the context (install/remove),
 *                               attr changes, enable/disable requests
 *       pmus_lock (mutex)       the PMU registry (taken alone or under
 *                               nothing but ctx->mutex)
 *       ctx->lock (raw, IRQs off)  event state, times, trees and lists; held
 *                               while the PMU callbacks run.  Where a CPU
 *                               context and a task context are both
 *                               locked, the CPU context's comes first and
 *                               the task context's nests inside it.
 *         event->addr_filters.lock (raw)  an event's address filters
 *                               (addr_filter.c); in ctx->lock where both
 *
 * Locks private to one file; each file's header says what they guard and
 * what nests inside them:
 *   event->mmap_mutex   an event's ring (mmap.c, aux.c); under the mm's
 *                       mmap_lock from mmap(); SET_OUTPUT takes two, in
 *                       address order
 *   pmus_srcu           read around the PMU lookups of event creation
 *                       (pmu.c), so that event_init may sleep
 *   callchain_mutex     callchain buffers and perf_event_max_stack
 *                       (callchain.c)
 *   aux_sample_mutex    the per-CPU buffers of AUX samples (aux.c)
 *   perf_bpf_mutex      a sampling event's BPF program (bpf.c)
 *   bp_mutex            breakpoint slots (hw_breakpoint.c)
 *   sw_users_lock       the software hooks' static keys (sw_event.c;
 *                       the jump label and CPU hotplug locks inside)
 *   perf_freq_lock (raw)  the tick dependency of frequency events
 *                       (overflow.c)
 *   perf_guest_mutex    the guest callbacks (guest.c)
 *   uprobes: reg_rwsem, fork_sem, mmap_lock, prep_mutex, delayed_lock,
 *            uprobes_lock, uprobes_srcu, in that order (uprobes.c)
 *
 * Contexts that touch this data
 * -----------------------------
 *  - system calls (open, read, ioctl, close) sleep on ctx->mutex and reach
 *    the CPU where a context is live through perf_ctx_call();
 *  - the context switch hooks run with IRQs off and take ctx->lock;
 *  - a PMU's per-CPU rotation hrtimer (hard IRQ) rotates the flexible
 *    groups of that PMU in this CPU's live contexts while the PMU is
 *    overcommitted (sched.c);
 *  - the CPU hotplug callbacks run on the CPU concerned;
 *  - software event hooks run in any context with preemption off and only
 *    walk RCU lists of this CPU (sw_event.c);
 *  - tracepoint hits run like them; a hit about another task also takes
 *    that task's ctx->lock, under the scheduler's locks (tracepoint.c);
 *  - read of a live event IPIs the CPU it is active on.
 * A context is "live" on a CPU when it is scheduled there (ctx->is_active);
 * only that CPU may call the PMU for its events, with ctx->lock held.  A
 * task context without events does not go live at a context switch; the
 * perf_ctx_call() that adds an event to it while its task runs makes it
 * live on the task's CPU.
 * A context that is not live can be edited from anywhere under ctx->lock.
 */

/**
 * DOC: Files
 *
 * Every file of kernel/events/, in reading order: the core proper first
 * (internal.h to pmu.c), then the features built on it, then the KUnit
 * suites (tests/, one Kconfig option per area).  Each file's header
 * comment says more and gives its locking.
 *
 * ``internal.h``
 *   private types and prototypes: every symbol shared between the files,
 *   the objects, the lock order and which contexts may touch what
 *
 * ``core.c``
 *   event and context lifetime: allocation, attaching events to contexts,
 *   install and removal, enable/disable/reset, the fork, exit and exec
 *   hooks, in-kernel counters
 *
 * ``sched.c``
 *   context time, event and group sched in/out and transactions, the task
 *   switch hooks, CPU hotplug, ``perf_ctx_call()``
 *
 * ``syscall.c``
 *   perf_event_open(2) (attr copy and validation, access checks, the open
 *   chain), the event file operations and ioctls, the perf sysctls
 *
 * ``read.c``
 *   bringing an event or group up to date where it is live; the read(2)
 *   layouts of ``PERF_FORMAT_*``
 *
 * ``pmu.c``
 *   the PMU registry: register/unregister, type ids, finding the PMU of a
 *   new event, per-(context, PMU) contexts, PMU disable nesting, PMU
 *   scopes, the ``event_source`` bus in sysfs
 *
 * ``exclusive.c``
 *   PMUs with ``PERF_PMU_CAP_EXCLUSIVE``: CPU or task events, one per
 *   context and CPU, else ``EBUSY``
 *
 * ``inherit.c``
 *   inheritance: clones of ``attr.inherit`` events in new tasks,
 *   children's counts in the parent's read, the fold at exit
 *
 * ``sw_event.c``
 *   the software PMU (``PERF_TYPE_SOFTWARE``): hook-fed counters and the
 *   cpu-clock and task-clock clocks
 *
 * ``ring_buffer.c``
 *   the data ring buffer: reserving, copying and publishing records;
 *   nested writers
 *
 * ``mmap.c``
 *   mmap() of an event, memory-lock accounting, the user page, poll(),
 *   ``SET_OUTPUT`` and ``PAUSE_OUTPUT``
 *
 * ``aux.c``
 *   the AUX area: its pages and mapping, the PMU's output handles
 *   (``perf_aux_output_*``), AUX samples
 *
 * ``addr_filter.c``
 *   address filters of tracing PMUs: the filter strings, file ranges
 *   resolved in the task's mappings
 *
 * ``output.c``
 *   record layouts: ``PERF_RECORD_SAMPLE``, the ``sample_id`` trailer, the
 *   core's own records (LOST, THROTTLE, UNTHROTTLE, LOST_SAMPLES, AUX,
 *   ITRACE_START, AUX_OUTPUT_HW_ID)
 *
 * ``overflow.c``
 *   what an overflow does: throttling, frequency-mode periods,
 *   ``REFRESH``, ``sigtrap``, deferred wakeups, SIGIO and disabling
 *
 * ``sideband.c``
 *   side-band records: COMM, FORK, EXIT, MMAP, MMAP2, SWITCH,
 *   SWITCH_CPU_WIDE, KSYMBOL, BPF_EVENT, TEXT_POKE, NAMESPACES, CGROUP
 *
 * ``callchain.c``
 *   callchains: per-CPU scratch entries, the kernel then user walk, the
 *   sysctls that size it, uretprobe fix-up
 *
 * ``regs.c``
 *   register and user-stack dumps (``REGS_USER``, ``REGS_INTR``,
 *   ``STACK_USER``)
 *
 * ``cgroup.c``
 *   cgroup events (``PERF_FLAG_PID_CGROUP``), cgroup time and the
 *   perf_event cgroup controller
 *
 * ``tracepoint.c``
 *   the tracepoint, kprobe and uprobe PMUs, their ftrace filters,
 *   ``perf_tp_event()``
 *
 * ``bpf.c``
 *   BPF programs on events: ``SET_BPF`` and perf_event links, programs run
 *   at overflow, the branch-snapshot static call
 *
 * ``hw_breakpoint.c``
 *   the breakpoint PMU, debug-register reservation and the in-kernel
 *   breakpoint API
 *
 * ``uprobes.c``
 *   uprobes: breakpoints in file mappings, XOL single-stepping, return
 *   probes, USDT semaphores
 *
 * ``guest.c``
 *   guest-info callbacks of a hypervisor (KVM, Xen PV) for samples taken
 *   in a guest
 *
 * ``unsupported.c``
 *   what the rest of the kernel calls for features not built: the PMU
 *   debug dump (a no-op)
 *
 * ``tests/``
 *   the KUnit suites, on fake PMUs (``tests/kunit_pmus.c``)
 */
#ifndef _KERNEL_EVENTS_INTERNAL_H
#define _KERNEL_EVENTS_INTERNAL_H

#include <linux/perf_event.h>
#include <linux/mm.h>
#include <linux/irq_work.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/workqueue.h>

/* every flag perf_event_open(2) knows */
#define PERF_FLAG_ALL		(PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT | \
				 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC)

/* ctx->task of a task context whose task has exited */
#define PERF_TASK_GONE		((struct task_struct *)-1L)

/* event->attach_state: the parent is being released, no new children */
#define PERF_ATTACH_DYING	0x8000

/* event->attach_state: counted among the frequency events (overflow.c) */
#define PERF_ATTACH_FREQ	0x4000

/* event->attach_state: counted among the side-band listeners (sideband.c) */
#define PERF_ATTACH_SIDEBAND	0x2000

/* event->attach_state: holds the AUX sample bounce buffers (aux.c) */
#define PERF_ATTACH_AUX_SAMPLE	0x1000

/* default perf_event_mux_interval_ms of a PMU */
#define PERF_MUX_DEFAULT_MS	4

/* which groups of a context to schedule (sched.c) */
#define PERF_GROUPS_PINNED	0x1
#define PERF_GROUPS_FLEXIBLE	0x2
#define PERF_GROUPS_ALL		(PERF_GROUPS_PINNED | PERF_GROUPS_FLEXIBLE)
#define PERF_GROUPS_CGROUP	0x4	/* only groups with a cgroup */

/* ctx->is_active bits */
#define PERF_CTX_LIVE		0x1

/* the clock of times reported to user space */
static inline u64 perf_clock(void)
{
	return local_clock();
}

/* the clock selected by attr.use_clockid, or NULL for an unknown id */
u64 (*perf_clock_of(clockid_t id))(void);

/* core.c */
struct perf_event_context *perf_ctx_get_task(struct task_struct *task);
struct perf_event_context *perf_ctx_get_cpu(int cpu);
void perf_ctx_put(struct perf_event_context *ctx);
struct perf_event *perf_event_alloc(struct perf_event_attr *attr,
				    int cpu, struct task_struct *task,
				    struct perf_event *group_leader,
				    perf_overflow_handler_t handler,
				    void *handler_ctx);
struct perf_event *perf_event_alloc_child(struct perf_event *parent,
					  struct task_struct *child,
					  struct perf_event *leader);
void perf_event_free(struct perf_event *event);
void perf_event_get_live(struct perf_event *event);
void perf_event_put(struct perf_event *event);
void perf_event_remove(struct perf_event *event);
struct perf_event_context *perf_event_ctx_lock(struct perf_event *event);
void perf_event_install_new(struct perf_event *event);
struct perf_event **perf_group_get(struct perf_event *event, int *nr);
void perf_group_put(struct perf_event **members, int nr);
bool perf_group_is_software(struct perf_event *leader);
int perf_group_adopt(struct perf_event *event);
int perf_event_attach(struct perf_event *event,
		      struct perf_event_context *ctx);
void perf_event_install(struct perf_event *event);
void perf_event_reset(struct perf_event *event);
u64 perf_event_id_next(void);
int perf_event_for_group(struct perf_event *event, bool group,
			 void (*op)(struct perf_event *event));
void perf_event_enable_locked(struct perf_event *event);
bool perf_event_disable_irq(struct perf_event *event);
void perf_event_disable_locked(struct perf_event *event);

/* sched.c */
typedef void (*perf_ctx_fn)(struct perf_event_context *ctx,
			    struct perf_event *event, void *arg, bool live);
void perf_ctx_call(struct perf_event_context *ctx,
		   struct perf_event *event, perf_ctx_fn fn, void *arg);
bool perf_ctx_call_local(struct perf_event_context *ctx,
			 struct perf_event *event, perf_ctx_fn fn, void *arg);
void perf_ctx_update_time(struct perf_event_context *ctx);
void perf_event_times_at(struct perf_event *event, u64 clock, u64 *enabled,
			 u64 *running);

static inline void perf_event_times_now(struct perf_event *event,
					u64 *enabled, u64 *running)
{
	perf_event_times_at(event, 0, enabled, running);
}

void perf_event_update_time(struct perf_event *event);
void perf_event_set_state(struct perf_event *event,
			  enum perf_event_state state);
void perf_event_set_enabled(struct perf_event *event);
int perf_group_sched_in(struct perf_event *leader);
bool perf_group_try_in(struct perf_event *leader);
void perf_group_sched_out(struct perf_event *leader);
void perf_event_sched_out(struct perf_event *event);
void perf_ctx_sched_out(struct perf_event_context *ctx);
void perf_groups_insert(struct perf_event_context *ctx,
			struct perf_event *leader);
void perf_groups_erase(struct perf_event_context *ctx,
		       struct perf_event *leader);
bool perf_event_fits_cpu(struct perf_event *event);
void perf_sched_init_boot_cpu(void);
void perf_cpu_resched(void);
void perf_mux_timer_init(struct perf_cpu_pmu_context *cpc);
void perf_sched_events_get(void);
void perf_sched_events_put(void);

DECLARE_PER_CPU(struct perf_cpu_context, perf_cpu_ctx);

/* read.c */
int perf_read_size(struct perf_event *event);
/* bound of a group member's read size plus a record header */
#define PERF_GROUP_RECORD_MAX	(16 * 1024)
int perf_group_size_check(struct perf_event *event);
u64 perf_event_read_count(struct perf_event *event, u64 *enabled,
			  u64 *running);
ssize_t perf_read_format(struct perf_event *event, char __user *buf,
			 size_t count);

/* syscall.c */
int perf_attr_check(struct perf_event_attr *attr);
int perf_attr_check_period(struct perf_event_attr *attr);
extern const struct file_operations perf_fops;

/* pmu.c */
struct pmu *perf_pmu_find(struct perf_event *event);
void perf_pmu_put(struct pmu *pmu);
extern struct perf_event_pmu_context *
perf_pmu_ctx_get(struct pmu *pmu, struct perf_event_context *ctx, int cpu);
void perf_pmu_ctx_put(struct perf_event_pmu_context *epc);
int perf_scope_cpu(unsigned int scope, int cpu);
void perf_pmu_scope_online(unsigned int cpu);
void perf_pmu_scope_offline(unsigned int cpu);

/* inherit.c */
void perf_inherit_exit(struct perf_event_context *ctx);
void perf_inherit_exec(struct perf_event_context *ctx);
void perf_inherit_release(struct perf_event *parent);
u64 perf_inherit_read(struct perf_event *parent, u64 *enabled, u64 *running);
void perf_inherit_apply(struct perf_event *parent,
			void (*op)(struct perf_event *event));

/* exclusive.c */
int perf_exclusive_get(struct perf_event *event);
void perf_exclusive_put(struct perf_event *event);
int perf_exclusive_check(struct perf_event *event,
			 struct perf_event_context *ctx);

/* sw_event.c */
void perf_sw_init(void);
void perf_swevent_hit(struct perf_event *event, u64 nr, struct pt_regs *regs,
		      u64 addr);
void perf_swevent_hit_raw(struct perf_event *event, u64 nr,
			  struct pt_regs *regs, struct perf_raw_record *raw);
bool perf_swevent_excluded(struct perf_event *event, struct pt_regs *regs);
bool perf_tp_excluded(struct perf_event *event, struct pt_regs *regs);
u32 perf_sw_pmu_type(struct perf_event *event);

/* hw_breakpoint.c */
#ifdef CONFIG_HAVE_HW_BREAKPOINT
int perf_event_modify_breakpoint(struct perf_event *bp,
				 struct perf_event_attr *attr);
#else
static inline int perf_event_modify_breakpoint(struct perf_event *bp,
					       struct perf_event_attr *attr)
{
	return -EOPNOTSUPP;
}
#endif

/* tracepoint.c */
#ifdef CONFIG_EVENT_TRACING
void perf_tp_init(void);
int perf_tp_set_filter(struct perf_event *event, char *filter);
bool perf_event_is_tracing(struct perf_event *event);
#else
static inline void perf_tp_init(void)
{
}

static inline int perf_tp_set_filter(struct perf_event *event,
				     char *filter)
{
	return -EINVAL;
}

static inline bool perf_event_is_tracing(struct perf_event *event)
{
	return false;
}
#endif

/* bpf.c */
long perf_ioctl_set_bpf(struct perf_event *event, u32 fd);
#ifdef CONFIG_BPF_SYSCALL
void perf_bpf_inherit(struct perf_event *child, struct perf_event *parent);
bool perf_bpf_overflow(struct perf_event *event, struct perf_sample_data *data,
		       struct pt_regs *regs);
#else
static inline void perf_bpf_inherit(struct perf_event *child,
				    struct perf_event *parent)
{
}

static inline bool perf_bpf_overflow(struct perf_event *event,
				     struct perf_sample_data *data,
				     struct pt_regs *regs)
{
	return true;
}
#endif

/*
 * Sampling
 * --------
 * A sampling event overflows every hw.sample_period occurrences
 * (overflow.c); each overflow writes a record into the event's ring buffer
 * (ring_buffer.c, output.c), which user space maps (mmap.c).  Output runs
 * in any context, NMI included, on the CPU where the event is active: the
 * buffer is written lock-free, with nesting counted per buffer, and
 * everything that may sleep or wake (wakeups, disable, signals) is deferred
 * to irq_work or task_work.
 *
 * event->mmap_mutex guards event->rb changes (mmap, munmap, SET_OUTPUT);
 * readers in the output path use rcu_dereference(event->rb).
 * rb->event_lock (spinlock, IRQs off) guards rb->event_list, the events
 * writing into the buffer, which its wakeups reach; the list's walkers
 * hold it.
 */
/* pages charged to a user's perf_event_mlock_kb share and to an mm */
struct perf_mlock {
	struct user_struct	*user;
	struct mm_struct	*mm;
	unsigned long		locked;		/* pages charged to the user */
	unsigned long		pinned;		/* pages charged to the mm */
};

/*
 * A data ring buffer (ring_buffer.c), its mapping (mmap.c) and its AUX
 * area (aux.c).  Who may touch each field:
 *
 *   [C] set by perf_rb_alloc() before the buffer is shared, then constant
 *   [W] the writing CPU, preemption off, any context up to NMI; no lock
 *       (one CPU writes at a time: see ring_buffer.c)
 *   [A] atomic or refcount: any context
 *   [E] rb->event_lock, IRQs off; the wakeup path walks it under RCU
 *   [M] the mapping event's mmap_mutex, at mmap and at the last munmap
 *   [X] the AUX output handle's owner (aux_busy won), on its CPU
 *   [F] the AUX set-up, under [M] and aux_mutex (the buffer may be
 *       shared by events, each with its own mmap_mutex, through
 *       SET_OUTPUT); constant while aux_refcount > 0
 */
struct perf_buffer {
	refcount_t		refcount;	/* [A] events and mappings */
	struct rcu_head		rcu_head;	/* the free after a grace period */
	int			nr_pages;	/* [C] data pages: 0 or a power of 2 */
	unsigned long		size;		/* [C] data bytes */
	bool			overwrite;	/* [C] read-only map: no data_tail */
	bool			vmalloced;	/* [C] data in a vmalloc area */
	local_t			head;		/* [W] bytes reserved, ever */
	local_t			nest;		/* [W] writers in progress */
	local_t			events;		/* [W] samples since the last wakeup */
	unsigned long		wakeup_head;	/* [W] head at the last wakeup */
	unsigned long		watermark;	/* [C] bytes between wakeups */
	atomic_long_t		lost;		/* [A] records dropped, not reported */
	atomic_t		poll;		/* [A] a wakeup since the last poll */
	atomic_t		paused;		/* [A] PAUSE_OUTPUT */
	atomic_t		mmap_count;	/* [A] mappings of the buffer */
	spinlock_t		event_lock;
	struct list_head	event_list;	/* [E] events writing here */
	struct perf_mlock	charge;		/* [M] of the user and data pages */
	struct perf_event_mmap_page *user_page;	/* [C] */
	void			*data;		/* [C] nr_pages of data, or NULL */

	/*
	 * The AUX area (aux.c): pages of its own, mapped at the user page's
	 * aux_offset and filled by the PMU between perf_aux_output_begin()
	 * and perf_aux_output_end().  aux_refcount counts the mappings (as
	 * one) and the open output handles; the area is freed when it drops
	 * to zero, and holds a reference on the buffer until then.
	 */
	int			aux_nr_pages;	/* [F] 0: none */
	bool			aux_overwrite;	/* [F] read-only map: a ring */
	void			**aux_pages;	/* [F] kernel addresses */
	void			*aux_priv;	/* [F] what setup_aux() returned */
	struct pmu		*aux_pmu;	/* [F] */
	refcount_t		aux_refcount;	/* [A] */
	atomic_t		aux_mmap_count;	/* [A] mappings of the area */
	atomic_t		aux_busy;	/* [A] an output handle is open */
	unsigned long		aux_head;	/* [X] bytes published, ever */
	unsigned long		aux_wakeup;	/* [X] aux_head at the last wakeup */
	unsigned long		aux_watermark;	/* [F] bytes between wakeups */
	struct mutex		aux_mutex;	/* inside [M]: the AUX set-up */
	struct perf_mlock	aux_charge;	/* [F] of the AUX pages */
	struct irq_work		aux_free_irq;	/* the free: irq_work, then */
	struct work_struct	aux_free_work;	/* a workqueue (it may sleep) */
};

/* ring_buffer.c */
struct perf_buffer *perf_rb_alloc(int nr_pages, long watermark,
				  bool overwrite);
void perf_rb_put(struct perf_buffer *rb);
struct page *perf_rb_page(struct perf_buffer *rb, unsigned long pgoff);
void perf_rb_attach(struct perf_event *event, struct perf_buffer *rb);
void perf_rb_detach(struct perf_event *event);
void perf_rb_wakeup(struct perf_buffer *rb);
struct perf_buffer *perf_event_rb_get(struct perf_event *event);
struct perf_buffer *perf_output_buffer(struct perf_event *event);
int perf_output_begin_rb(struct perf_output_handle *handle,
			 struct perf_event *event, struct perf_buffer *rb,
			 unsigned int size, bool backward);
unsigned int perf_output_copy_fn(struct perf_output_handle *handle,
				 perf_copy_f copy, const void *buf,
				 unsigned int len);

/* mmap.c */
int perf_mlock_charge(struct perf_mlock *charge, struct mm_struct *mm,
		      unsigned long pages);
void perf_mlock_uncharge(struct perf_mlock *charge);
vm_fault_t perf_vm_sigbus(struct vm_fault *vmf);
vm_fault_t perf_vm_no_write(struct vm_fault *vmf);

/*
 * Pages inserted into @vma between these two are read-only to user space
 * whatever the mapping's own protection: a write faults into
 * perf_vm_no_write().  Called under the event's mmap_mutex.
 */
static inline pgprot_t perf_vm_ro_begin(struct vm_area_struct *vma)
{
	pgprot_t prot = vma->vm_page_prot;

	vma->vm_page_prot = vm_get_page_prot(vma->vm_flags & ~VM_WRITE);
	return prot;
}

static inline void perf_vm_ro_end(struct vm_area_struct *vma, pgprot_t prot)
{
	vma->vm_page_prot = prot;
}

int perf_vm_no_split(struct vm_area_struct *vma, unsigned long addr);
void perf_userpage_times(struct perf_event *event);
int perf_event_set_output(struct perf_event *event, struct perf_event *output);
__poll_t perf_event_poll(struct perf_event *event, struct file *file,
			 poll_table *wait);
int perf_event_mmap_fop(struct file *file, struct vm_area_struct *vma);
void perf_buffer_map_get(struct perf_event *event);
void perf_buffer_unmap(struct perf_event *event);

/* aux.c */
void perf_aux_init(struct perf_buffer *rb);
int perf_aux_alloc(struct perf_buffer *rb, struct perf_event *event,
		   int nr_pages, bool overwrite);
void perf_aux_put(struct perf_buffer *rb);
int perf_aux_mmap(struct perf_event *event, struct vm_area_struct *vma);
void perf_aux_pause_resume(struct perf_event *event);
int perf_aux_sample_init(struct perf_event *event);
void perf_aux_sample_free(struct perf_event *event);
void perf_aux_sample_prepare(struct perf_sample_data *data,
			     struct perf_event *event);
void perf_aux_sample_output(struct perf_output_handle *handle,
			    struct perf_sample_data *data);
void perf_aux_sample_done(struct perf_sample_data *data);

/* addr_filter.c */
int perf_addr_filters_parse(struct perf_event *event, char *str,
			    struct list_head *filters, unsigned int *nr_files);
bool perf_addr_filter_in_vma(const struct perf_addr_filter *f,
			     const struct vm_area_struct *vma,
			     struct perf_addr_filter_range *r);
int perf_addr_filters_set(struct perf_event *event, char *str);
int perf_addr_filters_alloc(struct perf_event *event);
void perf_addr_filters_free(struct perf_event *event);
void perf_addr_filters_inherit(struct perf_event *event,
			       struct perf_event *copied);
void perf_addr_filters_mmap(struct vm_area_struct *vma);
void perf_addr_filters_exec(void);

/* overflow.c */
void perf_event_wakeup(struct perf_event *event);
void perf_event_wakeup_exit(struct perf_event *event);
void perf_overflow_init_event(struct perf_event *event);
void perf_overflow_account(struct perf_event *event);
void perf_overflow_free_event(struct perf_event *event);
void perf_sample_tick(struct perf_cpu_context *cpuctx);
void perf_sample_budget_update(void);
int perf_event_pause_output(struct perf_event *event, unsigned long pause);
void perf_throttle_tick(struct perf_event_context *ctx);
void perf_event_unthrottle_in(struct perf_event *event);
int perf_sample_check(struct perf_event *event);
int perf_event_overflow_throttle(struct perf_event *event,
				 struct perf_sample_data *data,
				 struct pt_regs *regs, bool throttle);

/* callchain.c */
int perf_callchain_event_init(struct perf_event *event);
void perf_callchain_event_free(struct perf_event *event);

/* regs.c */
int perf_regs_check(struct perf_event_attr *attr);
int perf_regs_pmu_check(struct perf_event *event);
void perf_prepare_regs(struct perf_sample_data *data,
		       struct perf_event *event, struct pt_regs *regs);
void perf_output_regs_user(struct perf_output_handle *handle,
			   struct perf_sample_data *data,
			   struct perf_event *event);
void perf_output_stack_user(struct perf_output_handle *handle,
			    struct perf_sample_data *data);
void perf_output_regs_intr(struct perf_output_handle *handle,
			   struct perf_sample_data *data,
			   struct perf_event *event);

/* sideband.c */
void perf_sideband_account(struct perf_event *event);
void perf_sideband_free(struct perf_event *event);
void perf_sideband_exit(struct task_struct *task,
			struct perf_event_context *ctx);
void __perf_sideband_switch(struct task_struct *other, bool out);

/* events that want PERF_RECORD_SWITCH*: the context switch hooks check */
extern atomic_t perf_switch_events;

static inline void perf_sideband_switch(struct task_struct *other, bool out)
{
	if (atomic_read(&perf_switch_events))
		__perf_sideband_switch(other, out);
}

void perf_sideband_cgroup(struct cgroup *cgroup);

/* cgroup.c: cgroup events; without CGROUP_PERF no event has a cgroup */
#ifdef CONFIG_CGROUP_PERF
void perf_cgroup_update_clocks(struct perf_cpu_context *cpuctx, u64 now);
void perf_cgroup_set(struct perf_cpu_context *cpuctx, struct perf_cgroup *cgrp);
bool perf_cgroup_match(struct perf_event *event);
u64 perf_cgroup_time(struct perf_event *event);
u64 perf_cgroup_time_now(struct perf_event *event);
void perf_cgroup_account(struct perf_event *event,
			 struct perf_event_context *ctx, bool add);
int perf_cgroup_connect(struct perf_event *event, int fd);
void perf_cgroup_disconnect(struct perf_event *event);
u64 perf_cgroup_sample_id(void);
void perf_cgroup_sched(struct task_struct *task);

static inline bool perf_event_has_cgroup(struct perf_event *event)
{
	return event->cgrp;
}

static inline int perf_ctx_nr_cgroups(struct perf_event_context *ctx)
{
	return ctx->nr_cgroups;
}
#else
static inline void perf_cgroup_update_clocks(struct perf_cpu_context *cpuctx,
					     u64 now) { }
static inline bool perf_cgroup_match(struct perf_event *event) { return true; }
static inline u64 perf_cgroup_time(struct perf_event *event) { return 0; }
static inline u64 perf_cgroup_time_now(struct perf_event *event) { return 0; }
static inline void perf_cgroup_account(struct perf_event *event,
				       struct perf_event_context *ctx,
				       bool add) { }
static inline int perf_cgroup_connect(struct perf_event *event, int fd)
{
	return -EINVAL;
}

static inline void perf_cgroup_disconnect(struct perf_event *event) { }
static inline u64 perf_cgroup_sample_id(void) { return 0; }
static inline void perf_cgroup_sched(struct task_struct *task) { }
static inline bool perf_event_has_cgroup(struct perf_event *event)
{
	return false;
}

static inline int perf_ctx_nr_cgroups(struct perf_event_context *ctx)
{
	return 0;
}
#endif

/*
 * The state an event's times follow: its own, except that a group member
 * counts as enabled only while its leader is (a member of a disabled or
 * failed group could not have counted).  Whoever moves a leader across
 * that line brings its members' times up to date first
 * (perf_event_set_state(), perf_event_set_enabled()).
 */
static inline enum perf_event_state
perf_event_time_state(struct perf_event *event)
{
	enum perf_event_state state = READ_ONCE(event->state);
	struct perf_event *leader = event->group_leader;

	if (state == PERF_EVENT_STATE_INACTIVE && leader != event &&
	    READ_ONCE(leader->state) < PERF_EVENT_STATE_INACTIVE)
		return PERF_EVENT_STATE_OFF;
	return state;
}

/* the clock an event's times follow: its context's, or its cgroup's */
static inline u64 perf_event_time(struct perf_event *event)
{
	if (perf_event_has_cgroup(event))
		return perf_cgroup_time(event);
	return event->ctx->time;
}

/* output.c */
int perf_sample_id_size(struct perf_event *event);
void perf_event_sizes_init(struct perf_event *event);
void perf_output_sample_done(struct perf_output_handle *handle);
void perf_event_header_init_id(struct perf_event_header *header,
			       struct perf_sample_data *data,
			       struct perf_event *event);
void perf_event_output_id(struct perf_output_handle *handle,
			  struct perf_sample_data *data,
			  struct perf_event *event);
void perf_log_throttle(struct perf_event *event, bool unthrottle);
void perf_log_lost_samples(struct perf_event *event, u64 lost);
void perf_log_aux(struct perf_event *event, u64 offset, u64 size, u64 flags);
void perf_log_itrace_start(struct perf_event *event);
void perf_output_lost(struct perf_output_handle *handle,
		      struct perf_event *event, u64 lost);

/*
 * Time accounting, shared with the KUnit suite.  An event's enabled time
 * grows while it is INACTIVE or ACTIVE, its running time only while ACTIVE;
 * both are measured in context time, which stands still while the context
 * is not scheduled.  @stamp is the context time of the last update.
 */
static inline void perf_time_advance(u64 *enabled, u64 *running, u64 *stamp,
				     enum perf_event_state state, u64 now)
{
	u64 delta = now - *stamp;

	if (state >= PERF_EVENT_STATE_INACTIVE)
		*enabled += delta;
	if (state == PERF_EVENT_STATE_ACTIVE)
		*running += delta;
	*stamp = now;
}

#ifdef CONFIG_UPROBES
/* uprobes.c: the pieces its KUnit suite (tests/uprobes_kunit.c) tests alone */
struct xol_area *uprobe_xol_alloc(void);
void uprobe_xol_free(struct xol_area *area);
long uprobe_xol_try_take(struct xol_area *area);
void uprobe_xol_put(struct xol_area *area, unsigned long slot);
void uprobe_find_returning(struct return_instance *top, struct pt_regs *regs,
			   struct return_instance **first,
			   struct return_instance **last);
/* uprobes.c, for callchain.c: return addresses behind the trampoline */
void uprobe_callchain_fixup(u64 *ip, unsigned int nr);
#else
static inline void uprobe_callchain_fixup(u64 *ip, unsigned int nr) { }
#endif

/* tests/kunit_pmus.c: the fake PMUs of the KUnit suites */
struct perf_kunit_pmu {
	struct pmu *pmu;
	const char *name;
};

void perf_kunit_pmu_start(struct perf_event *event, int flags);
void perf_kunit_pmu_stop(struct perf_event *event, int flags);
int perf_kunit_register_pmus(const struct perf_kunit_pmu *pmus, int nr);
void perf_kunit_unregister_pmus(const struct perf_kunit_pmu *pmus, int nr);

#endif /* _KERNEL_EVENTS_INTERNAL_H */
