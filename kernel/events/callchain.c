// SPDX-License-Identifier: GPL-2.0
/*
 * Callchains for PERF_SAMPLE_CALLCHAIN (and BPF stack maps): scratch
 * entries per CPU and per interrupt level, the walk over kernel then user
 * frames with PERF_CONTEXT_* markers, and the sysctls that size it.  The
 * frames themselves come from the architecture (perf_callchain_kernel()
 * and perf_callchain_user()); return addresses that uretprobes replaced
 * with their trampoline are put back by uprobe_callchain_fixup().
 *
 * Locking: callchain_mutex guards the number of users and the allocation
 * of the scratch buffers, which readers reach under RCU (or with
 * preemption off, which is an RCU read side too); one level of each CPU is
 * used by one context at a time, like the software event recursion guard.
 */
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>

#include "internal.h"

/* Scratch space: for each CPU, one entry per interrupt level. */
struct callchain_bufs {
	struct rcu_head rcu_head;
	size_t entry_size;
	void *cpu[];
};

static DEFINE_MUTEX(callchain_mutex);
static int callchain_users;
static struct callchain_bufs __rcu *callchain_bufs;
static DEFINE_PER_CPU(int, callchain_busy[PERF_NR_CONTEXTS]);

/* handed out when there is no room or nothing to walk */
static struct perf_callchain_entry callchain_empty;

static void bufs_free(struct callchain_bufs *bufs)
{
	int cpu;

	for_each_possible_cpu(cpu)
		kfree(bufs->cpu[cpu]);
	kfree(bufs);
}

static void bufs_free_rcu(struct rcu_head *head)
{
	bufs_free(container_of(head, struct callchain_bufs, rcu_head));
}

static int bufs_alloc(void)
{
	struct callchain_bufs *bufs;
	int cpu;

	bufs = kzalloc(struct_size(bufs, cpu, nr_cpu_ids), GFP_KERNEL);
	if (!bufs)
		return -ENOMEM;
	bufs->entry_size = struct_size_t(struct perf_callchain_entry, ip,
					 sysctl_perf_event_max_stack +
					 sysctl_perf_event_max_contexts_per_stack);
	for_each_possible_cpu(cpu) {
		bufs->cpu[cpu] = kzalloc_node(bufs->entry_size * PERF_NR_CONTEXTS,
					      GFP_KERNEL, cpu_to_node(cpu));
		if (!bufs->cpu[cpu]) {
			bufs_free(bufs);
			return -ENOMEM;
		}
	}
	rcu_assign_pointer(callchain_bufs, bufs);
	return 0;
}

/* An event that records callchains is created: make sure there is room. */
int get_callchain_buffers(int event_max_stack)
{
	int ret = 0;

	mutex_lock(&callchain_mutex);
	if (event_max_stack > sysctl_perf_event_max_stack)
		ret = -EOVERFLOW;
	else if (!callchain_users)
		ret = bufs_alloc();
	if (!ret)
		callchain_users++;
	mutex_unlock(&callchain_mutex);
	return ret;
}

void put_callchain_buffers(void)
{
	struct callchain_bufs *bufs;

	mutex_lock(&callchain_mutex);
	if (!--callchain_users) {
		bufs = rcu_replace_pointer(callchain_bufs, NULL,
					   lockdep_is_held(&callchain_mutex));
		call_rcu(&bufs->rcu_head, bufs_free_rcu);
	}
	mutex_unlock(&callchain_mutex);
}

/*
 * The scratch entry of this CPU's interrupt level, or NULL (busy, or no
 * buffers).  *@rctx is what put_callchain_entry() wants back, -1 if none.
 */
struct perf_callchain_entry *get_callchain_entry(int *rctx)
{
	int level = interrupt_context_level();
	int *busy = this_cpu_ptr(&callchain_busy[level]);
	struct callchain_bufs *bufs;

	*rctx = -1;
	if (*busy)
		return NULL;
	bufs = rcu_dereference(callchain_bufs);
	if (!bufs)
		return NULL;
	(*busy)++;
	barrier();
	*rctx = level;
	return bufs->cpu[smp_processor_id()] + level * bufs->entry_size;
}

void put_callchain_entry(int rctx)
{
	if (rctx < 0)
		return;
	barrier();
	this_cpu_dec(callchain_busy[rctx]);
}

/*
 * Walk the kernel frames (if @regs are kernel ones) and then the user
 * frames of current, each part behind its PERF_CONTEXT_* marker when
 * @add_mark.  The user part is skipped for another task's (@crosstask)
 * registers: its stack cannot be read from here.
 */
struct perf_callchain_entry *
get_perf_callchain(struct pt_regs *regs, bool kernel, bool user,
		   u32 max_stack, bool crosstask, bool add_mark)
{
	struct perf_callchain_entry_ctx ctx;
	struct perf_callchain_entry *entry;
	int rctx;

	entry = get_callchain_entry(&rctx);
	if (!entry)
		return NULL;
	entry->nr = 0;
	ctx.entry = entry;
	ctx.max_stack = max_stack;
	ctx.nr = 0;
	ctx.contexts = 0;
	ctx.contexts_maxed = false;

	if (kernel && !user_mode(regs)) {
		if (add_mark)
			perf_callchain_store_context(&ctx, PERF_CONTEXT_KERNEL);
		perf_callchain_kernel(&ctx, regs);
	}
	if (user && !crosstask) {
		if (!user_mode(regs))
			regs = (current->mm && !(current->flags & PF_KTHREAD)) ?
			       task_pt_regs(current) : NULL;
		if (regs) {
			unsigned int first;

			if (add_mark)
				perf_callchain_store_context(&ctx,
							     PERF_CONTEXT_USER);
			first = entry->nr;
			pagefault_disable();
			perf_callchain_user(&ctx, regs);
			pagefault_enable();
			/* the callers behind uretprobes' trampoline */
			uprobe_callchain_fixup(&entry->ip[first],
					       entry->nr - first);
		}
	}
	put_callchain_entry(rctx);
	return entry;
}

/* The callchain of a sample of @event; never NULL. */
struct perf_callchain_entry *perf_callchain(struct perf_event *event,
					    struct pt_regs *regs)
{
	bool kernel = !event->attr.exclude_callchain_kernel;
	bool user = !event->attr.exclude_callchain_user;
	struct task_struct *task = event->ctx ? event->ctx->task : NULL;
	struct perf_callchain_entry *entry = NULL;

	if (regs && (kernel || user))
		entry = get_perf_callchain(regs, kernel, user,
					   event->attr.sample_max_stack,
					   task && task != current, true);
	return entry ?: &callchain_empty;
}

/*
 * Set up or release an event's claim on the scratch buffers.  A
 * sample_max_stack above perf_event_max_stack is refused here (-EOVERFLOW),
 * once the PMU took the event: an event its PMU does not know, or a
 * caller without the right to kernel callchains, hears that first.
 */
int perf_callchain_event_init(struct perf_event *event)
{
	int ret;

	if (!(event->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
		return 0;
	if (!event->attr.sample_max_stack)
		event->attr.sample_max_stack = sysctl_perf_event_max_stack;
	ret = get_callchain_buffers(event->attr.sample_max_stack);
	if (!ret)
		event->attach_state |= PERF_ATTACH_CALLCHAIN;
	return ret;
}

void perf_callchain_event_free(struct perf_event *event)
{
	if (event->attach_state & PERF_ATTACH_CALLCHAIN)
		put_callchain_buffers();
}

/*
 * The limits size the buffers: a valid new value is refused with -EBUSY
 * while anyone records callchains.
 */
int perf_event_max_stack_handler(const struct ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos)
{
	int *limit = table->data;
	int value = *limit;
	struct ctl_table copy = *table;
	int ret;

	copy.data = &value;
	ret = proc_dointvec_minmax(&copy, write, buffer, lenp, ppos);
	if (ret || !write)
		return ret;
	mutex_lock(&callchain_mutex);
	if (callchain_users)
		ret = -EBUSY;
	else
		*limit = value;
	mutex_unlock(&callchain_mutex);
	return ret;
}
