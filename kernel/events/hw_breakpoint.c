// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware breakpoints as perf events (PERF_TYPE_BREAKPOINT), and the
 * in-kernel API that ptrace, kgdb and the arch code build on them.
 *
 * The architecture owns the debug registers: it turns an attr into its
 * struct arch_hw_breakpoint (hw_breakpoint_arch_parse()), puts a breakpoint
 * into a free register of this CPU (arch_install_hw_breakpoint()) and
 * reports hits from its debug exception through perf_bp_event().  This
 * file owns the "breakpoint" PMU and the reservation of registers, which
 * guarantees that a breakpoint being scheduled in always finds one free.
 *
 * Reservation.  Registers come in one class (x86: any register watches
 * data or code) or two (TYPE_INST and TYPE_DATA), hw_breakpoint_slots()
 * of each per CPU.  On a CPU, the registers in use are those of the CPU's
 * own breakpoints plus those of the one task running there, so a new
 * breakpoint is accepted only if, on every CPU it may run on,
 *
 *	cpu_bound[cpu] + max over tasks T of n(T, cpu)  <=  slots
 *
 * where n(T, cpu) counts T's breakpoints that may run on cpu (bound to it
 * or to no CPU).  The maximum comes from a histogram kept per CPU and
 * class: tasks[n] is the number of tasks with exactly n breakpoints there.
 * Each task's breakpoints sit on a hash list keyed by the task
 * (hw.bp_list), so that n(T, cpu) is a walk of a handful of entries.
 * Every breakpoint is reserved, pinned or not: the error is
 * -ENOSPC, at open time, never a breakpoint that silently cannot run.
 *
 * Locking: bp_mutex serializes reservations, releases and the tables; it
 * nests inside ctx->mutex and takes nothing but the hash table's own
 * locks.  The kernel debugger, which runs with everything stopped,
 * reserves only if the mutex is free (dbg_*_bp_slot()).  perf_bp_event()
 * runs in the debug exception (NMI-like on x86): it counts and overflows
 * through the software event path, under the software recursion guard.
 */
#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/hw_breakpoint.h>
#include <linux/init.h>
#include <linux/kdebug.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rhashtable.h>

#include "internal.h"

/* the most registers of one class any CPU has (arm64 encodes up to 16) */
#define BP_MAX_SLOTS		16

/* hw.state bit (PMU private): this breakpoint holds a reservation */
#define BP_HES_RESERVED		PERF_HES_ARCH

struct bp_cpu_slots {
	unsigned int cpu_bound;			/* breakpoints of no task */
	unsigned int tasks[BP_MAX_SLOTS + 1];	/* tasks with n here */
};

static DEFINE_PER_CPU(struct bp_cpu_slots, bp_slots[TYPE_MAX]);
static DEFINE_MUTEX(bp_mutex);
static struct rhltable bp_task_table;
static atomic_t bp_nr_reserved;

static const struct rhashtable_params bp_task_params = {
	.head_offset		= offsetof(struct perf_event, hw.bp_list),
	.key_offset		= offsetof(struct perf_event, hw.target),
	.key_len		= sizeof_field(struct perf_event, hw.target),
	.automatic_shrinking	= true,
};

static int bp_class(u32 bp_type)
{
	return (bp_type & HW_BREAKPOINT_RW) ? TYPE_DATA : TYPE_INST;
}

static unsigned int bp_class_slots(int class)
{
	return min_t(unsigned int, hw_breakpoint_slots(class), BP_MAX_SLOTS);
}

static bool bp_runs_on(struct perf_event *bp, int cpu)
{
	return bp->cpu < 0 || bp->cpu == cpu;
}

/* n(@tsk, @cpu): @tsk's reserved breakpoints of @class that may run on @cpu */
static unsigned int task_bps_on(struct task_struct *tsk, int class, int cpu)
{
	struct rhlist_head *list, *pos;
	struct perf_event *bp;
	unsigned int n = 0;

	rcu_read_lock();
	list = rhltable_lookup(&bp_task_table, &tsk, bp_task_params);
	rhl_for_each_entry_rcu(bp, pos, list, hw.bp_list) {
		if (bp_class(bp->attr.bp_type) == class && bp_runs_on(bp, cpu))
			n++;
	}
	rcu_read_unlock();
	return n;
}

static unsigned int tasks_max(struct bp_cpu_slots *s, unsigned int slots)
{
	unsigned int n;

	for (n = slots; n; n--)
		if (s->tasks[n])
			return n;
	return 0;
}

/*
 * Would the registers of @cpu suffice if @bp were reserved?  A task
 * breakpoint is already on the task's list, so n(T, cpu) counts it.
 */
static bool bp_fits_on(struct perf_event *bp, int class, int cpu)
{
	struct bp_cpu_slots *s = per_cpu_ptr(&bp_slots[class], cpu);
	unsigned int slots = bp_class_slots(class);
	unsigned int busy = tasks_max(s, slots);
	struct task_struct *tsk = bp->hw.target;

	if (tsk)
		return s->cpu_bound + max(busy, task_bps_on(tsk, class, cpu)) <=
		       slots;
	return s->cpu_bound + 1 + busy <= slots;
}

/* Move @bp's task from bucket n - 1 to n (@add) or back, on @cpu. */
static void bp_task_bucket(struct perf_event *bp, int class, int cpu,
			   bool add)
{
	struct bp_cpu_slots *s = per_cpu_ptr(&bp_slots[class], cpu);
	unsigned int n = task_bps_on(bp->hw.target, class, cpu);

	if (WARN_ON_ONCE(!n || n > BP_MAX_SLOTS))
		return;
	s->tasks[n] += add ? 1 : -1;
	if (n > 1)
		s->tasks[n - 1] += add ? -1 : 1;
}

static int bp_reserve_locked(struct perf_event *bp)
{
	int class = bp_class(bp->attr.bp_type);
	struct task_struct *tsk = bp->hw.target;
	int cpu, ret;

	if (bp->hw.state & BP_HES_RESERVED)
		return 0;
	if (!tsk && (bp->cpu < 0 || bp->cpu >= nr_cpu_ids))
		return -EINVAL;
	if (tsk) {
		ret = rhltable_insert(&bp_task_table, &bp->hw.bp_list,
				      bp_task_params);
		if (ret)
			return ret;
	}
	for_each_possible_cpu(cpu) {
		if (bp_runs_on(bp, cpu) && !bp_fits_on(bp, class, cpu)) {
			if (tsk)
				rhltable_remove(&bp_task_table,
						&bp->hw.bp_list, bp_task_params);
			return -ENOSPC;
		}
	}
	for_each_possible_cpu(cpu) {
		if (!bp_runs_on(bp, cpu))
			continue;
		if (tsk)
			bp_task_bucket(bp, class, cpu, true);
		else
			per_cpu_ptr(&bp_slots[class], cpu)->cpu_bound++;
	}
	bp->hw.state |= BP_HES_RESERVED;
	atomic_inc(&bp_nr_reserved);
	return 0;
}

static void bp_release_locked(struct perf_event *bp)
{
	int class = bp_class(bp->attr.bp_type);
	struct task_struct *tsk = bp->hw.target;
	int cpu;

	if (!(bp->hw.state & BP_HES_RESERVED))
		return;
	for_each_possible_cpu(cpu) {
		if (!bp_runs_on(bp, cpu))
			continue;
		if (tsk)
			bp_task_bucket(bp, class, cpu, false);
		else
			per_cpu_ptr(&bp_slots[class], cpu)->cpu_bound--;
	}
	if (tsk)
		rhltable_remove(&bp_task_table, &bp->hw.bp_list, bp_task_params);
	bp->hw.state &= ~BP_HES_RESERVED;
	atomic_dec(&bp_nr_reserved);
}

int reserve_bp_slot(struct perf_event *bp)
{
	int ret;

	mutex_lock(&bp_mutex);
	ret = bp_reserve_locked(bp);
	mutex_unlock(&bp_mutex);
	return ret;
}

void release_bp_slot(struct perf_event *bp)
{
	mutex_lock(&bp_mutex);
	bp_release_locked(bp);
	mutex_unlock(&bp_mutex);
}

/*
 * The kernel debugger stops the world: it may not wait for the mutex, and
 * when someone holds it the tables are in flux, so it gives up.
 */
int dbg_reserve_bp_slot(struct perf_event *bp)
{
	if (mutex_is_locked(&bp_mutex))
		return -EBUSY;
	return bp_reserve_locked(bp);
}

int dbg_release_bp_slot(struct perf_event *bp)
{
	if (mutex_is_locked(&bp_mutex))
		return -EBUSY;
	bp_release_locked(bp);
	return 0;
}

bool hw_breakpoint_is_used(void)
{
	return atomic_read(&bp_nr_reserved) > 0;
}

/*
 * Was @bp opened by perf_event_open()?  Such an event writes its samples
 * to its ring (the default handlers); the kernel's own users (ptrace,
 * kgdb, the hw_breakpoint API) give a handler of their own, and an
 * inherited copy is its parent's.
 */
static bool bp_from_user(struct perf_event *bp)
{
	return !bp->parent &&
	       (bp->overflow_handler == perf_event_output_forward ||
		bp->overflow_handler == perf_event_output_backward);
}

/*
 * The arch's reading of @attr into @hw, plus the rules the arch leaves to
 * us: a breakpoint on a kernel address must count the kernel, and one set
 * from user space needs CAP_SYS_ADMIN, whatever perf_event_paranoid says:
 * its trap fires in the kernel, where a breakpoint on the trap's own path
 * recurses.  Checked at open and at MODIFY_ATTRIBUTES alike.
 */
static int bp_parse(struct perf_event *bp, const struct perf_event_attr *attr,
		    struct arch_hw_breakpoint *hw)
{
	int ret;

	ret = hw_breakpoint_arch_parse(bp, attr, hw);
	if (ret)
		return ret;
	if (!arch_check_bp_in_kernelspace(hw))
		return 0;
	if (attr->exclude_kernel)
		return -EINVAL;
	if (bp_from_user(bp) && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	return 0;
}

/*
 * Reserve @bp's register, then validate its attr: what event_init does.
 * A task or CPU whose registers are all taken hears -ENOSPC before what
 * the arch would say of the breakpoint itself; only a breakpoint that
 * watches nothing at all (no R, W or X) is refused first, as it has no
 * register class to reserve from.
 */
int register_perf_hw_breakpoint(struct perf_event *bp)
{
	struct arch_hw_breakpoint hw = { };
	int ret;

	if (!(bp->attr.bp_type & (HW_BREAKPOINT_RW | HW_BREAKPOINT_X)))
		return -EINVAL;
	ret = reserve_bp_slot(bp);
	if (ret)
		return ret;
	ret = bp_parse(bp, &bp->attr, &hw);
	if (ret) {
		release_bp_slot(bp);
		return ret;
	}
	*counter_arch_bp(bp) = hw;
	return 0;
}

/*
 * The fields a breakpoint may change once open: where, what and how long
 * it watches, whether it is on, and the si_perf_data of its SIGTRAPs.
 * Anything else differing, the attr's size included, is -EINVAL.
 */
static bool bp_attr_only_bp_differs(const struct perf_event_attr *old,
				    const struct perf_event_attr *new)
{
	struct perf_event_attr a = *new;

	a.bp_addr = old->bp_addr;
	a.bp_type = old->bp_type;
	a.bp_len = old->bp_len;
	a.disabled = old->disabled;
	a.sig_data = old->sig_data;
	return !memcmp(&a, old, sizeof(a));
}

/* Re-reserve @bp for another register class, or keep the old one. */
static int bp_change_class(struct perf_event *bp, u32 bp_type)
{
	u32 old_type = bp->attr.bp_type;
	int ret;

	mutex_lock(&bp_mutex);
	bp_release_locked(bp);
	bp->attr.bp_type = bp_type;
	ret = bp_reserve_locked(bp);
	if (ret) {
		bp->attr.bp_type = old_type;
		WARN_ON_ONCE(bp_reserve_locked(bp));
	}
	mutex_unlock(&bp_mutex);
	return ret;
}

/*
 * Point an open breakpoint elsewhere; it must be off (not installed).
 * With @check, @attr may differ from the breakpoint's only where
 * bp_attr_only_bp_differs() allows.
 */
int modify_user_hw_breakpoint_check(struct perf_event *bp,
				    struct perf_event_attr *attr, bool check)
{
	struct arch_hw_breakpoint hw = { };
	int ret;

	if (check && !bp_attr_only_bp_differs(&bp->attr, attr))
		return -EINVAL;
	ret = bp_parse(bp, attr, &hw);
	if (ret)
		return ret;
	if (bp_class(attr->bp_type) != bp_class(bp->attr.bp_type)) {
		ret = bp_change_class(bp, attr->bp_type);
		if (ret)
			return ret;
	}
	bp->attr.bp_addr = attr->bp_addr;
	bp->attr.bp_type = attr->bp_type;
	bp->attr.bp_len = attr->bp_len;
	bp->attr.disabled = attr->disabled;
	bp->attr.sig_data = attr->sig_data;
	*counter_arch_bp(bp) = hw;
	return 0;
}

/* Off, changed, and back on unless @attr says disabled; ctx->mutex held. */
static int bp_modify_locked(struct perf_event *bp,
			    struct perf_event_attr *attr, bool check)
{
	bool was_on = bp->state > PERF_EVENT_STATE_OFF;
	int ret;

	lockdep_assert_held(&bp->ctx->mutex);
	perf_event_disable_locked(bp);
	ret = modify_user_hw_breakpoint_check(bp, attr, check);
	if (ret ? was_on : !bp->attr.disabled)
		perf_event_enable_locked(bp);
	return ret;
}

/**
 * modify_user_hw_breakpoint - change a breakpoint's address, type or state
 * @bp: the breakpoint
 * @attr: its new attr: bp_addr, bp_type, bp_len, disabled and sig_data
 *	are taken, the rest is ignored
 *
 * ptrace's way to move, retype or switch a breakpoint of a stopped task.
 * The breakpoint is turned off, checked and changed (moving to another
 * register class if the new type needs one), then turned on again unless
 * @attr says disabled.  On failure it keeps its old settings and, if it
 * was on, is turned on again.
 *
 * Context: process context, may sleep; takes @bp's ctx->mutex.
 *
 * Return: 0, or a negative errno: @attr failed the arch's checks or ours
 * (-EINVAL; -EPERM for a kernel address on a breakpoint that user space
 * opened without CAP_SYS_ADMIN), or no register of the new class is free
 * (-ENOSPC).
 */
int modify_user_hw_breakpoint(struct perf_event *bp,
			      struct perf_event_attr *attr)
{
	int ret;

	mutex_lock(&bp->ctx->mutex);
	ret = bp_modify_locked(bp, attr, false);
	mutex_unlock(&bp->ctx->mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(modify_user_hw_breakpoint);

/*
 * PERF_EVENT_IOC_MODIFY_ATTRIBUTES on a breakpoint: the event and its
 * clones in child tasks move together.
 */
int perf_event_modify_breakpoint(struct perf_event *bp,
				 struct perf_event_attr *attr)
{
	struct perf_event *child;
	int ret;

	mutex_lock(&bp->ctx->mutex);
	ret = bp_modify_locked(bp, attr, true);
	mutex_unlock(&bp->ctx->mutex);
	if (ret)
		return ret;

	mutex_lock(&bp->child_mutex);
	list_for_each_entry(child, &bp->child_list, child_list) {
		mutex_lock(&child->ctx->mutex);
		ret = bp_modify_locked(child, attr, true);
		mutex_unlock(&child->ctx->mutex);
		if (ret)
			break;
	}
	mutex_unlock(&bp->child_mutex);
	return ret;
}

/**
 * register_user_hw_breakpoint - set a breakpoint in a task
 * @attr: the breakpoint (type PERF_TYPE_BREAKPOINT)
 * @triggered: the overflow handler, or NULL to write samples
 * @context: private data for @triggered
 * @tsk: the task whose execution the breakpoint watches, on any CPU
 *
 * A register is reserved on every CPU @tsk may run on, so that the
 * breakpoint always finds one when the task is scheduled in.
 *
 * Context: process context, may sleep.
 *
 * Return: the breakpoint's event, or an ERR_PTR(): -ENOSPC when the
 * registers are all taken, else the error of the checks of @attr.
 */
struct perf_event *
register_user_hw_breakpoint(struct perf_event_attr *attr,
			    perf_overflow_handler_t triggered, void *context,
			    struct task_struct *tsk)
{
	return perf_event_create_kernel_counter(attr, -1, tsk, triggered,
						context);
}
EXPORT_SYMBOL_GPL(register_user_hw_breakpoint);

struct perf_event *
register_wide_hw_breakpoint_cpu(struct perf_event_attr *attr,
				perf_overflow_handler_t triggered,
				void *context, int cpu)
{
	return perf_event_create_kernel_counter(attr, cpu, NULL, triggered,
						context);
}

/**
 * unregister_hw_breakpoint - remove a breakpoint
 * @bp: the breakpoint's event, or NULL (nothing is done)
 *
 * Closes the event and gives back its register reservation.
 *
 * Context: process context, may sleep.
 */
void unregister_hw_breakpoint(struct perf_event *bp)
{
	if (bp)
		perf_event_release_kernel(bp);
}
EXPORT_SYMBOL_GPL(unregister_hw_breakpoint);

/**
 * unregister_wide_hw_breakpoint - remove a breakpoint from all CPUs
 * @cpu_events: what register_wide_hw_breakpoint() returned
 *
 * Unregisters the breakpoint of each CPU that has one and frees
 * @cpu_events.
 *
 * Context: process context, may sleep.
 */
void unregister_wide_hw_breakpoint(struct perf_event * __percpu *cpu_events)
{
	int cpu;

	for_each_possible_cpu(cpu)
		unregister_hw_breakpoint(per_cpu(*cpu_events, cpu));
	free_percpu(cpu_events);
}
EXPORT_SYMBOL_GPL(unregister_wide_hw_breakpoint);

/**
 * register_wide_hw_breakpoint - set a breakpoint on every online CPU
 * @attr: the breakpoint (type PERF_TYPE_BREAKPOINT)
 * @triggered: the overflow handler, or NULL to write samples
 * @context: private data for @triggered
 *
 * One breakpoint on every online CPU, or none: if one CPU fails, those
 * already set are removed.  CPUs that come online later get none.
 *
 * Context: process context, may sleep; takes the CPU hotplug lock (read).
 *
 * Return: a per-CPU array of the breakpoints' events (a NULL entry for
 * each CPU that was offline), or an ERR_PTR_PCPU() of the error: -ENOMEM,
 * or that of the first CPU that failed.
 */
struct perf_event * __percpu *
register_wide_hw_breakpoint(struct perf_event_attr *attr,
			    perf_overflow_handler_t triggered, void *context)
{
	struct perf_event * __percpu *cpu_events;
	struct perf_event *bp;
	int cpu, ret = 0;

	cpu_events = alloc_percpu(typeof(*cpu_events));
	if (!cpu_events)
		return ERR_PTR_PCPU(-ENOMEM);

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		bp = register_wide_hw_breakpoint_cpu(attr, triggered, context,
						     cpu);
		if (IS_ERR(bp)) {
			ret = PTR_ERR(bp);
			break;
		}
		per_cpu(*cpu_events, cpu) = bp;
	}
	cpus_read_unlock();

	if (ret) {
		unregister_wide_hw_breakpoint(cpu_events);
		return ERR_PTR_PCPU(ret);
	}
	return cpu_events;
}
EXPORT_SYMBOL_GPL(register_wide_hw_breakpoint);

/* A hit, from the arch's debug exception: @data is the trapped pt_regs. */
void perf_bp_event(struct perf_event *bp, void *data)
{
	struct pt_regs *regs = data;
	int rctx;

	rctx = perf_swevent_get_recursion_context();
	if (rctx < 0)
		return;
	perf_swevent_hit(bp, 1, regs, bp->attr.bp_addr);
	perf_swevent_put_recursion_context(rctx);
}

/* The "breakpoint" PMU */

static void bp_destroy(struct perf_event *bp)
{
	release_bp_slot(bp);
}

/* Breakpoint events: checked by the arch, then given a register. */
static int bp_event_init(struct perf_event *bp)
{
	int ret = -ENOENT;

	if (bp->attr.type == PERF_TYPE_BREAKPOINT) {
		ret = has_branch_stack(bp) ? -EOPNOTSUPP :
		      register_perf_hw_breakpoint(bp);
		if (!ret)
			bp->destroy = bp_destroy;
	}
	/*
	 * Its register was reserved above, so a breakpoint always goes on:
	 * in groups it counts as a software event (pmu_try_init(), for
	 * every PMU of the software context).
	 */
	return ret;
}

/* Stopped: the register stays armed, perf_bp_event() ignores its hits. */
static void bp_run(struct perf_event *bp, int flags)
{
	bp->hw.state &= ~PERF_HES_STOPPED;
}

static void bp_halt(struct perf_event *bp, int flags)
{
	bp->hw.state |= PERF_HES_STOPPED;
}

static int bp_install(struct perf_event *bp, int flags)
{
	int err;

	bp_halt(bp, 0);
	err = arch_install_hw_breakpoint(bp);
	if (err)
		return err;
	if (flags & PERF_EF_START)
		bp_run(bp, 0);
	return 0;
}

static void bp_uninstall(struct perf_event *bp, int flags)
{
	arch_uninstall_hw_breakpoint(bp);
	bp_halt(bp, 0);
}

/* Hits go to bp->count as they happen: the arch has nothing to fold. */
static void bp_update(struct perf_event *bp)
{
	hw_breakpoint_pmu_read(bp);
}

static struct pmu perf_breakpoint_pmu = {
	.event_init	= bp_event_init,
	.add		= bp_install,
	.start		= bp_run,
	.stop		= bp_halt,
	.del		= bp_uninstall,
	.read		= bp_update,
	.task_ctx_nr	= perf_sw_context,
};

/*
 * Boot: the task table, the PMU, and the die notifier through which x86
 * hands its debug exceptions to the arch's decoder; we go first on it, a
 * debug-register hit being ours before a debugger's.
 */
static struct notifier_block bp_die_notifier;

int __init init_hw_breakpoint(void)
{
	int err = rhltable_init(&bp_task_table, &bp_task_params);

	if (err)
		return err;
	bp_die_notifier.notifier_call = hw_breakpoint_exceptions_notify;
	bp_die_notifier.priority = INT_MAX;
	err = register_die_notifier(&bp_die_notifier);
	if (err)
		goto out_table;
	err = perf_pmu_register(&perf_breakpoint_pmu, "breakpoint",
				PERF_TYPE_BREAKPOINT);
	if (err)
		goto out_notifier;
	return 0;

out_notifier:
	unregister_die_notifier(&bp_die_notifier);
out_table:
	rhltable_destroy(&bp_task_table);
	pr_warn("perf: no breakpoint events (%d)\n", err);
	return err;
}
