// SPDX-License-Identifier: GPL-2.0
/*
 * Event and context lifetime: allocation, attaching events to contexts,
 * install and removal, enable/disable/reset, and the task hooks of fork,
 * exit and exec.
 *
 * Locking: membership changes hold ctx->mutex and reach the live CPU with
 * perf_ctx_call(); task->perf_event_mutex guards task->perf_event_ctxp
 * creation and the owner list (internal.h has the order).
 */
#include <linux/anon_inodes.h>
#include <linux/cpu.h>
#include <linux/hw_breakpoint.h>
#include <linux/init.h>
#include <linux/pid_namespace.h>
#include <linux/ptrace.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/trace_events.h>

#include "internal.h"

static atomic64_t perf_event_ids;
static struct kmem_cache *perf_event_cachep;

u64 perf_event_id_next(void)
{
	return atomic64_inc_return(&perf_event_ids);
}

static void ctx_init(struct perf_event_context *ctx,
		     struct task_struct *task)
{
	raw_spin_lock_init(&ctx->lock);
	mutex_init(&ctx->mutex);
	INIT_LIST_HEAD(&ctx->pmu_ctx_list);
	ctx->pinned_groups.tree = RB_ROOT;
	ctx->flexible_groups.tree = RB_ROOT;
	INIT_LIST_HEAD(&ctx->event_list);
	refcount_set(&ctx->refcount, 1);
	ctx->task = task;
}

/*
 * The context of @task with a reference taken, created on first use.
 * Fails with -ESRCH once the task is exiting.
 */
struct perf_event_context *perf_ctx_get_task(struct task_struct *task)
{
	struct perf_event_context *ctx;

	mutex_lock(&task->perf_event_mutex);
	if (task->flags & PF_EXITING) {
		ctx = ERR_PTR(-ESRCH);
		goto out;
	}
	ctx = task->perf_event_ctxp;
	if (ctx) {
		refcount_inc(&ctx->refcount);
		goto out;
	}
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx) {
		ctx = ERR_PTR(-ENOMEM);
		goto out;
	}
	ctx_init(ctx, task);
	get_task_struct(task);
	/* the context switch hooks must run before the task can see ctx */
	perf_sched_events_get();
	refcount_inc(&ctx->refcount);	/* one for the task, one for us */
	WRITE_ONCE(task->perf_event_ctxp, ctx);
out:
	mutex_unlock(&task->perf_event_mutex);
	return ctx;
}

struct perf_event_context *perf_ctx_get_cpu(int cpu)
{
	struct perf_event_context *ctx = &per_cpu_ptr(&perf_cpu_ctx, cpu)->ctx;

	refcount_inc(&ctx->refcount);
	return ctx;
}

void perf_ctx_put(struct perf_event_context *ctx)
{
	struct task_struct *task;

	if (!refcount_dec_and_test(&ctx->refcount))
		return;
	task = ctx->task;
	if (WARN_ON_ONCE(!task))	/* CPU contexts are never freed */
		return;
	if (task != PERF_TASK_GONE)
		put_task_struct(task);
	perf_sched_events_put();
	kfree_rcu(ctx, rcu_head);
}

static void event_free_rcu(struct rcu_head *head)
{
	struct perf_event *event = container_of(head, struct perf_event,
						rcu_head);

	if (event->ns)
		put_pid_ns(event->ns);
	kmem_cache_free(perf_event_cachep, event);
}

/* Undo perf_event_alloc(); the event is in no context any more. */
void perf_event_free(struct perf_event *event)
{
	security_perf_event_free(event);
	/* off its trace event while the PMU's destroy has not freed that */
	perf_event_free_bpf_prog(event);
	perf_overflow_free_event(event);
	perf_callchain_event_free(event);
	perf_sideband_free(event);
	perf_addr_filters_free(event);
	perf_aux_sample_free(event);
	if (event->rb) {
		mutex_lock(&event->mmap_mutex);
		perf_rb_detach(event);
		mutex_unlock(&event->mmap_mutex);
	}
	if (event->parent)
		perf_event_put(event->parent);
	if (event->destroy)
		event->destroy(event);
	if (event->pmu_ctx)
		perf_pmu_ctx_put(event->pmu_ctx);
	if (event->ctx)
		perf_ctx_put(event->ctx);
	if (event->hw.target)
		put_task_struct(event->hw.target);
	perf_cgroup_disconnect(event);
	if (event->pmu) {
		perf_exclusive_put(event);
		perf_pmu_put(event->pmu);
	}
	call_rcu(&event->rcu_head, event_free_rcu);
}

/*
 * The AUX controls: aux_output, aux_pause and aux_resume act on the AUX
 * area of the group's leader, aux_start_paused on the event's own.  The
 * leader's PMU says which events may write into its area
 * (aux_output_match()).
 */
static int aux_check(struct perf_event *event)
{
	struct perf_event_attr *a = &event->attr;
	struct perf_event *leader = event->group_leader;
	bool aux_leader = leader != event && has_aux(leader);

	if (a->aux_output) {
		if (!(event->pmu->capabilities & PERF_PMU_CAP_AUX_OUTPUT))
			return -EOPNOTSUPP;
		if (!aux_leader || !leader->pmu->aux_output_match ||
		    !leader->pmu->aux_output_match(event))
			return -EINVAL;
	}
	if (a->aux_pause && a->aux_resume)
		return -EINVAL;
	if ((a->aux_pause || a->aux_resume) && !aux_leader)
		return -EINVAL;
	/* EINVAL here, where aux_start_paused gets EOPNOTSUPP (the ABI) */
	if ((a->aux_pause || a->aux_resume) &&
	    !(leader->pmu->capabilities & PERF_PMU_CAP_AUX_PAUSE))
		return -EINVAL;
	if (a->aux_start_paused &&
	    !(event->pmu->capabilities & PERF_PMU_CAP_AUX_PAUSE))
		return -EOPNOTSUPP;
	return 0;
}

/* What the core checks of an event its PMU accepted. */
static int perf_event_alloc_check(struct perf_event *event,
				  struct task_struct *task)
{
	int ret;

	/* a PMU without task contexts counts per CPU only */
	if (task && event->pmu->task_ctx_nr == perf_invalid_context)
		return -EINVAL;
	/* no overflow interrupt, no sampling */
	if (is_sampling_event(event) &&
	    (event->pmu->capabilities & PERF_PMU_CAP_NO_INTERRUPT))
		return -EOPNOTSUPP;
	ret = aux_check(event);
	if (ret)
		return ret;
	ret = perf_sample_check(event);
	if (ret)
		return ret;
	ret = perf_callchain_event_init(event);
	if (ret)
		return ret;
	/*
	 * An unknown clockid is told after the PMU's answer and the callchain
	 * depth, before the right to the target task is checked.
	 */
	if (!event->clock)
		return -EINVAL;
	/* the LSM blob: freed by perf_event_free() on any failure after */
	ret = security_perf_event_alloc(event);
	if (ret)
		return ret;
	return perf_exclusive_get(event);
}

/*
 * Take a reference on @event, found under the lock that keeps it in a list
 * (ctx->mutex for a context's or group's events, child_mutex for a
 * parent's children): whoever drops the last reference first takes the
 * event off that list under the same lock, so it cannot be zero here.
 */
void perf_event_get_live(struct perf_event *event)
{
	WARN_ON_ONCE(!atomic_long_inc_not_zero(&event->refcount));
}

/* Drop a reference (the file's, a child's, or a transient one). */
void perf_event_put(struct perf_event *event)
{
	if (atomic_long_dec_and_test(&event->refcount))
		perf_event_free(event);
}

/*
 * Allocate an event for @attr and let its PMU accept it.  The event is not
 * in any context yet.  A clone is linked to its @parent before its PMU
 * sees it (the tracing side tells clones by event->parent).
 */
static struct perf_event *event_alloc(struct perf_event_attr *attr, int cpu,
				      struct task_struct *task,
				      struct perf_event *group_leader,
				      struct perf_event *parent,
				      perf_overflow_handler_t handler,
				      void *handler_ctx)
{
	struct perf_event *event;
	struct pmu *pmu;
	int ret;

	event = kmem_cache_zalloc(perf_event_cachep, GFP_KERNEL);
	if (!event)
		return ERR_PTR(-ENOMEM);

	INIT_LIST_HEAD(&event->event_entry);
	INIT_LIST_HEAD(&event->sibling_list);
	INIT_LIST_HEAD(&event->active_list);
	INIT_LIST_HEAD(&event->migrate_entry);
	INIT_LIST_HEAD(&event->active_entry);
	INIT_LIST_HEAD(&event->owner_entry);
	INIT_LIST_HEAD(&event->child_list);
	INIT_LIST_HEAD(&event->rb_entry);
	INIT_LIST_HEAD(&event->sb_list);
	INIT_HLIST_NODE(&event->hlist_entry);
	RB_CLEAR_NODE(&event->group_node);
	mutex_init(&event->child_mutex);
	mutex_init(&event->mmap_mutex);
	init_waitqueue_head(&event->waitq);
	raw_spin_lock_init(&event->addr_filters.lock);
	INIT_LIST_HEAD(&event->addr_filters.list);
	atomic_long_set(&event->refcount, 1);

	event->attr = *attr;
	event->orig_type = attr->type;
	event->cpu = cpu;
	event->oncpu = -1;
	event->group_leader = group_leader ? group_leader : event;
	event->state = attr->disabled ? PERF_EVENT_STATE_OFF :
					PERF_EVENT_STATE_INACTIVE;
	event->id = perf_event_id_next();
	event->ns = get_pid_ns(task_active_pid_ns(current));
	event->clock = attr->use_clockid ? perf_clock_of(attr->clockid) :
					   perf_clock;
	event->overflow_handler = handler;
	event->overflow_handler_context = handler_ctx;
	event->hw.sample_period = attr->freq ? 0 : attr->sample_period;
	perf_overflow_init_event(event);
	if (task) {
		get_task_struct(task);
		event->hw.target = task;
		event->attach_state |= PERF_ATTACH_TASK;
	}
	if (parent) {
		atomic_long_inc(&parent->refcount);
		event->parent = parent;
	}

	pmu = perf_pmu_find(event);
	if (IS_ERR(pmu)) {
		perf_event_free(event);
		return ERR_CAST(pmu);
	}
	event->pmu = pmu;
	ret = perf_event_alloc_check(event, task);
	if (!ret)
		ret = perf_addr_filters_alloc(event);
	if (ret) {
		perf_event_free(event);
		return ERR_PTR(ret);
	}
	event->read_size = perf_read_size(event);
	perf_event_sizes_init(event);
	perf_overflow_account(event);
	perf_sideband_account(event);
	return event;
}

struct perf_event *perf_event_alloc(struct perf_event_attr *attr, int cpu,
				    struct task_struct *task,
				    struct perf_event *group_leader,
				    perf_overflow_handler_t handler,
				    void *handler_ctx)
{
	return event_alloc(attr, cpu, task, group_leader, NULL, handler,
			   handler_ctx);
}

/* A copy of @parent for @child's context, in the group of @leader. */
struct perf_event *perf_event_alloc_child(struct perf_event *parent,
					  struct task_struct *child,
					  struct perf_event *leader)
{
	struct perf_event *event;

	event = event_alloc(&parent->attr, parent->cpu, child, leader, parent,
			    parent->overflow_handler,
			    parent->overflow_handler_context);
	if (!IS_ERR(event))
		perf_bpf_inherit(event, parent);
	return event;
}

static void event_add_to_ctx(struct perf_event *event,
			     struct perf_event_context *ctx)
{
	struct perf_event *leader = event->group_leader;

	lockdep_assert_held(&ctx->lock);
	list_add_tail(&event->event_entry, &ctx->event_list);
	ctx->nr_events++;
	/* events the PMU lets their task read directly (arm64 PMUv3) */
	if (event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT)
		ctx->nr_user++;
	event->pmu_ctx->nr_events++;
	if (leader == event) {
		perf_groups_insert(ctx, event);
	} else {
		list_add_tail(&event->sibling_list, &leader->sibling_list);
		leader->nr_siblings++;
		/* a clone's leader keeps the version it copied (read.c) */
		if (!leader->parent)
			leader->group_generation++;
	}
	perf_cgroup_account(event, ctx, true);
	event->tstamp = perf_event_time(event);
	event->attach_state |= PERF_ATTACH_CONTEXT;
}

/*
 * @event joined a live context or was enabled there; a group on its PMU
 * takes a new member only by going back on whole.  A software group always
 * finds room (no add of its events fails), so it goes on by itself, where
 * a full pass would put it too, and the other groups keep their places:
 * an open or enable costs the same however many events the task has.  Any
 * other group may take another's counters or wait for one: the CPU's
 * flexible groups are scheduled again in priority order.
 */
static void event_resched(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;

	/* a disabled event changes nothing on the PMUs */
	if (event->state != PERF_EVENT_STATE_INACTIVE)
		return;
	if (leader != event && leader->state == PERF_EVENT_STATE_ACTIVE)
		perf_group_sched_out(leader);
	if (perf_group_is_software(leader))
		perf_group_try_in(leader);
	else
		perf_cpu_resched();
}

static void install_fn(struct perf_event_context *ctx,
		       struct perf_event *event, void *arg, bool live)
{
	event_add_to_ctx(event, ctx);
	if (live)
		event_resched(event);
}

/*
 * A group made of software events only sits on the software PMU; the
 * first hardware event that joins takes it to its own PMU.
 */
bool perf_group_is_software(struct perf_event *leader)
{
	return is_software_event(leader) && leader->pmu_ctx->pmu == leader->pmu;
}

static bool joins_software_group(struct perf_event *event,
				 struct perf_event *leader)
{
	return !is_software_event(event) && perf_group_is_software(leader);
}

/*
 * Bind an allocated event to @ctx (taking over the caller's context
 * reference): pick its PMU context, the group's unless the event is to
 * take a software group to its PMU (perf_group_adopt()).  Called before
 * the event is visible.  A group member's caller holds ctx->mutex (the
 * leader's context): another member's perf_group_adopt() may move the
 * group to another PMU context, and drop the last reference on the old
 * one, at any moment it does not.
 */
int perf_event_attach(struct perf_event *event,
		      struct perf_event_context *ctx)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event_pmu_context *epc;

	if (leader != event) {
		lockdep_assert_held(&ctx->mutex);
		if (WARN_ON_ONCE(leader->ctx != ctx))
			return -EINVAL;
	}
	if (leader != event && !joins_software_group(event, leader)) {
		epc = leader->pmu_ctx;
		atomic_inc(&epc->refcount);
	} else {
		epc = perf_pmu_ctx_get(event->pmu, ctx, event->cpu);
		if (IS_ERR(epc))
			return PTR_ERR(epc);
	}
	event->ctx = ctx;
	event->pmu_ctx = epc;
	return 0;
}

static void group_move_fn(struct perf_event_context *ctx,
			  struct perf_event *leader, void *arg, bool live)
{
	struct perf_event_pmu_context *epc = arg;
	struct perf_event *member;

	if (live)
		perf_group_sched_out(leader);
	leader->pmu_ctx->nr_events--;
	leader->pmu_ctx = epc;
	epc->nr_events++;
	for_each_sibling_event(member, leader) {
		member->pmu_ctx->nr_events--;
		member->pmu_ctx = epc;
		epc->nr_events++;
	}
}

/*
 * Before @event is installed (ctx->mutex held): if it is a hardware event
 * joining a software group, move the group's events to its PMU context;
 * the install then schedules the group there.  -EINVAL if another
 * hardware event of a different PMU took the group first.  A software
 * event that attached before such a move follows the group.
 */
int perf_group_adopt(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event_pmu_context *old = leader->pmu_ctx;
	int nr = 1 + leader->nr_siblings;

	lockdep_assert_held(&event->ctx->mutex);
	if (leader == event || event->pmu_ctx == old)
		return 0;
	/*
	 * A software member that attached while the group was software,
	 * which a hardware member has since taken to its PMU: it follows
	 * the group (it is not installed yet, so nothing counts it).
	 */
	if (is_software_event(event)) {
		atomic_inc(&old->refcount);
		perf_pmu_ctx_put(event->pmu_ctx);
		event->pmu_ctx = old;
		return 0;
	}
	if (!perf_group_is_software(leader))
		return -EINVAL;
	atomic_add(nr, &event->pmu_ctx->refcount);
	perf_ctx_call(event->ctx, leader, group_move_fn, event->pmu_ctx);
	while (nr--)
		perf_pmu_ctx_put(old);
	return 0;
}

/* Add an event to the context of a task that has not run yet. */
void perf_event_install_new(struct perf_event *event)
{
	struct perf_event_context *ctx = event->ctx;

	raw_spin_lock_irq(&ctx->lock);
	event_add_to_ctx(event, ctx);
	raw_spin_unlock_irq(&ctx->lock);
}

/* Make an attached event part of its context; ctx->mutex held. */
void perf_event_install(struct perf_event *event)
{
	lockdep_assert_held(&event->ctx->mutex);
	perf_ctx_call(event->ctx, event, install_fn, NULL);
}

static void remove_fn(struct perf_event_context *ctx,
		      struct perf_event *event, void *arg, bool live)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event *sibling, *tmp;

	if (!(event->attach_state & PERF_ATTACH_CONTEXT))
		return;
	if (live)
		perf_event_sched_out(event);
	perf_event_update_time(event);
	list_del_init(&event->event_entry);
	ctx->nr_events--;
	if (event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT)
		ctx->nr_user--;
	perf_cgroup_account(event, ctx, false);
	event->pmu_ctx->nr_events--;
	event->attach_state &= ~PERF_ATTACH_CONTEXT;

	if (leader != event) {
		list_del_init(&event->sibling_list);
		leader->nr_siblings--;
		if (!leader->parent)
			leader->group_generation++;
		return;
	}
	perf_groups_erase(ctx, event);
	if (list_empty(&event->sibling_list))
		return;
	/* the siblings of a closed leader carry on as groups of their own */
	list_for_each_entry_safe(sibling, tmp, &event->sibling_list,
				 sibling_list) {
		list_del_init(&sibling->sibling_list);
		/*
		 * Not brought up to date first: an enabled member of a
		 * disabled leader then counts as enabled since its last
		 * update, the time its old group was off included (the
		 * ABI's answer: enable_control.c, member_of_closed_leader).
		 */
		sibling->group_leader = sibling;
		if (live)
			perf_event_sched_out(sibling);
		perf_groups_insert(ctx, sibling);
	}
	event->nr_siblings = 0;
	/*
	 * the new groups take their turn like any other; a group that leaves
	 * alone takes nobody's place (the next rotation fills its counters)
	 */
	if (live)
		perf_cpu_resched();
}

/* Take an event out of its context for good; ctx->mutex held. */
void perf_event_remove(struct perf_event *event)
{
	lockdep_assert_held(&event->ctx->mutex);
	perf_ctx_call(event->ctx, event, remove_fn, NULL);
}

/*
 * Lock the context of @event.  perf_pmu_migrate_context() may move a CPU
 * event to another CPU's context while we wait for the mutex: retry until
 * the context locked is still the event's.  CPU contexts are never freed,
 * and a task event never changes context.
 */
struct perf_event_context *perf_event_ctx_lock(struct perf_event *event)
{
	struct perf_event_context *ctx;

	for (;;) {
		ctx = READ_ONCE(event->ctx);
		mutex_lock(&ctx->mutex);
		if (READ_ONCE(event->ctx) == ctx)
			return ctx;
		mutex_unlock(&ctx->mutex);
	}
}

/* Move a removed CPU event to the context of @cpu; both mutexes held. */
static void migrate_one(struct perf_event *event, int cpu,
			struct perf_event_context *dst)
{
	struct perf_event_pmu_context *old = event->pmu_ctx;

	perf_ctx_put(event->ctx);
	event->cpu = cpu;
	refcount_inc(&dst->refcount);
	WRITE_ONCE(event->ctx, dst);
	event->pmu_ctx = perf_pmu_ctx_get(old->pmu, dst, cpu);
	perf_pmu_ctx_put(old);
}

/**
 * perf_pmu_migrate_context - move a PMU's CPU events to another CPU
 * @pmu: the PMU whose events move
 * @src_cpu: the CPU whose context they leave
 * @dst_cpu: the CPU whose context they join
 *
 * Move the events of @pmu from the context of CPU @src_cpu to that of
 * @dst_cpu, groups whole, keeping their counts, times and states: for
 * PMUs whose counters CPUs share (uncore, scoped PMUs) when the CPU that
 * carried the events goes offline.  Each event's cpu becomes @dst_cpu; the
 * events are scheduled there if that context is active.  Nothing happens
 * when the two CPUs are the same.
 *
 * Context: process context, may sleep (typically a CPU hotplug
 * callback); takes both contexts' mutexes, in address order.
 */
void perf_pmu_migrate_context(struct pmu *pmu, int src_cpu, int dst_cpu)
{
	struct perf_event_context *src = &per_cpu_ptr(&perf_cpu_ctx, src_cpu)->ctx;
	struct perf_event_context *dst = &per_cpu_ptr(&perf_cpu_ctx, dst_cpu)->ctx;
	struct perf_event *event, *tmp;
	LIST_HEAD(moving);

	if (src == dst)
		return;
	if (src < dst) {
		mutex_lock(&src->mutex);
		mutex_lock_nested(&dst->mutex, SINGLE_DEPTH_NESTING);
	} else {
		mutex_lock(&dst->mutex);
		mutex_lock_nested(&src->mutex, SINGLE_DEPTH_NESTING);
	}
	list_for_each_entry(event, &src->event_list, event_entry) {
		if (event->pmu_ctx->pmu == pmu)
			list_add_tail(&event->migrate_entry, &moving);
	}
	/* siblings leave before their leaders, which would free them */
	list_for_each_entry(event, &moving, migrate_entry) {
		if (event->group_leader != event)
			perf_event_remove(event);
	}
	list_for_each_entry(event, &moving, migrate_entry) {
		if (event->group_leader == event)
			perf_event_remove(event);
	}
	list_for_each_entry(event, &moving, migrate_entry)
		migrate_one(event, dst_cpu, dst);
	/* and come back after them, to join their groups */
	list_for_each_entry(event, &moving, migrate_entry) {
		if (event->group_leader == event)
			perf_event_install(event);
	}
	list_for_each_entry_safe(event, tmp, &moving, migrate_entry) {
		if (event->group_leader != event)
			perf_event_install(event);
	}
	list_for_each_entry_safe(event, tmp, &moving, migrate_entry)
		list_del_init(&event->migrate_entry);
	mutex_unlock(&src->mutex);
	mutex_unlock(&dst->mutex);
}
EXPORT_SYMBOL_GPL(perf_pmu_migrate_context);

static void owner_detach(struct perf_event *event)
{
	struct task_struct *owner;

	rcu_read_lock();
	owner = READ_ONCE(event->owner);
	if (owner)
		owner = tryget_task_struct(owner);
	rcu_read_unlock();
	if (!owner)
		return;
	mutex_lock(&owner->perf_event_mutex);
	if (event->owner) {
		list_del_init(&event->owner_entry);
		WRITE_ONCE(event->owner, NULL);
	}
	mutex_unlock(&owner->perf_event_mutex);
	put_task_struct(owner);
}

/**
 * perf_event_release_kernel - close an event
 * @event: an event from perf_event_create_kernel_counter(), or the event
 *	of a perf file being released
 *
 * Detaches @event from its owner task, removes and releases its
 * inherited clones, takes it out of its context and drops the caller's
 * reference: the event is freed when its last reference goes.  @event
 * must not be used afterwards.
 *
 * Context: process context, may sleep; takes the owner's
 * perf_event_mutex, child_mutex and ctx->mutex, none of which may be held.
 *
 * Return: 0.
 */
int perf_event_release_kernel(struct perf_event *event)
{
	struct perf_event_context *ctx;

	owner_detach(event);
	perf_inherit_release(event);
	ctx = perf_event_ctx_lock(event);
	perf_event_remove(event);
	mutex_unlock(&ctx->mutex);
	perf_event_put(event);
	return 0;
}
EXPORT_SYMBOL_GPL(perf_event_release_kernel);

static void enable_fn(struct perf_event_context *ctx,
		      struct perf_event *event, void *arg, bool live)
{
	if (event->state >= PERF_EVENT_STATE_INACTIVE ||
	    event->state <= PERF_EVENT_STATE_EXIT)
		return;
	perf_event_set_enabled(event);
	if (live)
		event_resched(event);
}

/* Enable an event; ctx->mutex held. */
static void event_enable_locked(struct perf_event *event)
{
	lockdep_assert_held(&event->ctx->mutex);
	perf_ctx_call(event->ctx, event, enable_fn, NULL);
}

static void disable_fn(struct perf_event_context *ctx,
		       struct perf_event *event, void *arg, bool live)
{
	if (event->state < PERF_EVENT_STATE_INACTIVE)
		return;
	if (live) {
		if (event == event->group_leader)
			perf_group_sched_out(event);
		else
			perf_event_sched_out(event);
	}
	perf_event_set_state(event, PERF_EVENT_STATE_OFF);
}

/*
 * Disable @event from IRQ context on this CPU (an overflow reached its
 * REFRESH limit).  False if the event is live on another CPU meanwhile.
 */
bool perf_event_disable_irq(struct perf_event *event)
{
	return perf_ctx_call_local(event->ctx, event, disable_fn, NULL);
}

static void event_disable_locked(struct perf_event *event)
{
	perf_ctx_call(event->ctx, event, disable_fn, NULL);
}

/**
 * perf_event_enable - enable an event
 * @event: the event
 *
 * An event that is off (or in error) becomes inactive and is scheduled
 * in if its context is active; its enabled time counts from now.  Other
 * states are left alone.  Only @event changes, not its inherited clones
 * nor, for a leader, the rest of its group.
 *
 * Context: process context, may sleep; takes @event's ctx->mutex.
 */
void perf_event_enable(struct perf_event *event)
{
	struct perf_event_context *ctx;

	ctx = perf_event_ctx_lock(event);
	event_enable_locked(event);
	mutex_unlock(&ctx->mutex);
}
EXPORT_SYMBOL_GPL(perf_event_enable);

/**
 * perf_event_disable - disable an event
 * @event: the event
 *
 * An inactive or active event is scheduled out and turned off; a group
 * leader takes its whole group off the PMU with it.  Its count is kept
 * and perf_event_enable() resumes it.
 *
 * Context: process context, may sleep; takes @event's ctx->mutex.
 */
void perf_event_disable(struct perf_event *event)
{
	struct perf_event_context *ctx;

	ctx = perf_event_ctx_lock(event);
	event_disable_locked(event);
	mutex_unlock(&ctx->mutex);
}
EXPORT_SYMBOL_GPL(perf_event_disable);

/**
 * perf_event_pause - disable a counter and read it
 * @event: the counter, typically a kernel one
 * @reset: zero the count once read
 *
 * Stop a kernel counter and take what it counted (KVM folds it into the
 * guest's counter), zeroing it when @reset: perf_event_enable() resumes.
 * The disable, the read and the reset happen under one hold of the
 * context's mutex.
 *
 * Context: process context, may sleep; takes @event's ctx->mutex.
 *
 * Return: the count of @event, with that of its exited clones, before
 * any reset.
 */
u64 perf_event_pause(struct perf_event *event, bool reset)
{
	struct perf_event_context *ctx;
	u64 count, enabled, running;

	ctx = perf_event_ctx_lock(event);
	event_disable_locked(event);
	count = perf_event_read_count(event, &enabled, &running);
	if (reset)
		perf_event_reset(event);
	mutex_unlock(&ctx->mutex);
	return count;
}
EXPORT_SYMBOL_GPL(perf_event_pause);

/*
 * Under ctx->mutex: the members of @event's group, each with a reference
 * taken under that lock so that they can be used after it is dropped, and
 * @op (if any) applied to each.  *@nr is 0 if memory ran out, and @op was
 * then not applied.  A member found in the group under ctx->mutex still
 * has its file's (or creator's) reference: release takes an event out of
 * its group under this lock before it drops that reference.
 */
static struct perf_event **group_get(struct perf_event *event, int *nr,
				     void (*op)(struct perf_event *event))
{
	struct perf_event_context *ctx;
	struct perf_event *leader, *sibling, **members;
	int n = 0, i;

	ctx = perf_event_ctx_lock(event);
	leader = event->group_leader;
	/*
	 * Groups whose members do not read with PERF_FORMAT_GROUP are
	 * bounded only by the open file limit: not one contiguous block.
	 */
	members = kvcalloc(1 + leader->nr_siblings, sizeof(*members),
			   GFP_KERNEL);
	if (members) {
		members[n++] = leader;
		list_for_each_entry(sibling, &leader->sibling_list, sibling_list)
			members[n++] = sibling;
		for (i = 0; i < n; i++) {
			perf_event_get_live(members[i]);
			if (op)
				op(members[i]);
		}
	}
	mutex_unlock(&ctx->mutex);
	*nr = n;
	return members;
}

/*
 * The members of @event's group with a reference each, so that they can be
 * used after ctx->mutex is dropped; *@nr is 0 if memory ran out.  The
 * caller holds @event (its file, or a reference): only @event, never its
 * leader, may be used before this returns.
 */
struct perf_event **perf_group_get(struct perf_event *event, int *nr)
{
	return group_get(event, nr, NULL);
}

void perf_group_put(struct perf_event **members, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		perf_event_put(members[i]);
	kvfree(members);
}

/*
 * Apply @op to the event, or with @group to its whole group, and to their
 * clones in child tasks.  The caller holds @event; the group is taken with
 * a reference on each member under the same hold of ctx->mutex that
 * applies @op, because once that lock is dropped the leader (or any
 * sibling) may be closed and freed, and @event may have left the group.
 *
 * Return: 0, or -ENOMEM (nothing was changed).
 */
int perf_event_for_group(struct perf_event *event, bool group,
			 void (*op)(struct perf_event *event))
{
	struct perf_event_context *ctx;
	struct perf_event **members;
	int nr, i;

	if (!group) {
		ctx = perf_event_ctx_lock(event);
		op(event);
		mutex_unlock(&ctx->mutex);
		/* the clones in child tasks follow (child_mutex nests outside) */
		perf_inherit_apply(event, op);
		return 0;
	}
	members = group_get(event, &nr, op);
	if (!nr)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		perf_inherit_apply(members[i], op);
	perf_group_put(members, nr);
	return 0;
}

void perf_event_enable_locked(struct perf_event *event)
{
	event_enable_locked(event);
}

void perf_event_disable_locked(struct perf_event *event)
{
	event_disable_locked(event);
}

static void reset_fn(struct perf_event_context *ctx,
		     struct perf_event *event, void *arg, bool live)
{
	/* fold what the PMU holds so that counting restarts from now */
	if (live && event->state == PERF_EVENT_STATE_ACTIVE)
		event->pmu->read(event);
	local64_set(&event->count, 0);
	/* a task reading its counter itself counts from zero too */
	if (READ_ONCE(event->rb))
		perf_event_update_userpage(event);
}

void perf_event_reset(struct perf_event *event)
{
	lockdep_assert_held(&event->ctx->mutex);
	atomic64_set(&event->child_count, 0);
	perf_ctx_call(event->ctx, event, reset_fn, NULL);
}

/*
 * prctl(PR_TASK_PERF_EVENTS_DISABLE/ENABLE): every event the calling task
 * created, as listed on its owner list, wherever it is attached and whether
 * leader or sibling; not the events other tasks attached to the caller.
 * This is what the prctl does for user space, whatever the design
 * document says.
 */
static int task_events_apply(void (*op)(struct perf_event *event))
{
	struct perf_event *event;

	mutex_lock(&current->perf_event_mutex);
	list_for_each_entry(event, &current->perf_event_list, owner_entry)
		perf_event_for_group(event, false, op);
	mutex_unlock(&current->perf_event_mutex);
	return 0;
}

int perf_event_task_enable(void)
{
	return task_events_apply(perf_event_enable_locked);
}

int perf_event_task_disable(void)
{
	return task_events_apply(perf_event_disable_locked);
}

void perf_event_delayed_put(struct task_struct *task)
{
	WARN_ON_ONCE(task->perf_event_ctxp);
}

/* The events of @ctx, off their PMUs already, stop for good. */
static void exit_ctx_events(struct perf_event_context *ctx)
{
	struct perf_event *event;

	list_for_each_entry(event, &ctx->event_list, event_entry) {
		perf_event_set_state(event, PERF_EVENT_STATE_EXIT);
		/* an inherited clone has no file: nobody polls it */
		if (!event->parent)
			perf_event_wakeup_exit(event);
	}
}

/*
 * Detach the task's context: its events stop and keep their last counts.
 * Returns the context with the task's reference, for the caller to drop.
 */
static struct perf_event_context *task_ctx_detach(struct task_struct *task)
{
	struct perf_cpu_context *cpuctx;
	struct perf_event_context *ctx;
	struct perf_event *event;

	mutex_lock(&task->perf_event_mutex);
	ctx = task->perf_event_ctxp;
	if (!ctx) {
		mutex_unlock(&task->perf_event_mutex);
		return NULL;
	}
	mutex_lock(&ctx->mutex);
	/* @task is current: its context is live here if anywhere */
	local_irq_disable();
	cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	raw_spin_lock(&ctx->lock);
	/*
	 * Every group off its PMU at once, each PMU stopped throughout (as at
	 * a context switch): the members of a group keep the counts of one
	 * instant, as perf_group_sched_out() gives them.
	 */
	perf_ctx_sched_out(ctx);
	exit_ctx_events(ctx);
	if (cpuctx->task_ctx == ctx)
		cpuctx->task_ctx = NULL;
	WRITE_ONCE(task->perf_event_ctxp, NULL);
	WRITE_ONCE(ctx->task, PERF_TASK_GONE);
	raw_spin_unlock(&ctx->lock);
	local_irq_enable();
	/* pollers learn of the exit outside the raw lock */
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (!event->parent)
			wake_up_all(&event->waitq);
	}
	mutex_unlock(&ctx->mutex);
	mutex_unlock(&task->perf_event_mutex);
	put_task_struct(task);		/* the context's reference */
	return ctx;
}

/* Detach and let go of the task's context, handing back inherited events. */
static void task_ctx_exit(struct task_struct *task)
{
	struct perf_event_context *ctx = task_ctx_detach(task);

	if (!ctx)
		return;
	perf_inherit_exit(ctx);
	perf_ctx_put(ctx);		/* the task's reference */
}

/* fork failed after perf_event_init_task(): undo the inherited events. */
void perf_event_free_task(struct task_struct *task)
{
	task_ctx_exit(task);
}

/*
 * Called for the current task when it exits, and when it execs a setuid
 * program (monitoring stops; new events may be attached afterwards).
 */
void perf_event_exit_task(struct task_struct *task)
{
	struct perf_event *event, *tmp;

	if (task->flags & PF_EXITING)
		perf_sideband_exit(task, NULL);
	task_ctx_exit(task);
	if (!(task->flags & PF_EXITING))
		return;
	mutex_lock(&task->perf_event_mutex);
	list_for_each_entry_safe(event, tmp, &task->perf_event_list,
				 owner_entry) {
		list_del_init(&event->owner_entry);
		WRITE_ONCE(event->owner, NULL);
	}
	mutex_unlock(&task->perf_event_mutex);
}

/* What exec does to @event: 1 enable it, -1 remove it, 0 nothing. */
static int exec_action(struct perf_event *event)
{
	if (event->state <= PERF_EVENT_STATE_EXIT)
		return 0;
	if (event->attr.remove_on_exec)
		return -1;
	if (event->attr.enable_on_exec && event->state == PERF_EVENT_STATE_OFF)
		return 1;
	return 0;
}

static void exec_fn(struct perf_event_context *ctx, struct perf_event *unused,
		    void *arg, bool live)
{
	bool *removed_child = arg;
	struct perf_event *event;
	bool changed = false;

	list_for_each_entry(event, &ctx->event_list, event_entry)
		changed |= exec_action(event) != 0;
	if (!changed)
		return;
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		switch (exec_action(event)) {
		case 1:
			event->attr.enable_on_exec = 0;
			perf_event_set_enabled(event);
			break;
		case -1:
			/* off the task for good; the count stays readable */
			if (live)
				perf_event_sched_out(event);
			perf_event_set_state(event, PERF_EVENT_STATE_EXIT);
			if (event->attach_state & PERF_ATTACH_CHILD)
				*removed_child = true;
			break;
		}
	}
	if (live)
		perf_cpu_resched();
}

/*
 * exec: events opened with enable_on_exec start counting now, those with
 * remove_on_exec stop for good (inherited ones go back to their parents,
 * as at exit); file address filters lose their ranges.
 * A SIGTRAP an overflow inside execve queued still reaches the new image:
 * the signal belongs to the task, which exec keeps, and a program that
 * asked for SIGTRAP on its events is told of every overflow (the new
 * image dies by it unless it ignores SIGTRAP).
 */
void perf_event_exec(void)
{
	struct perf_event_context *ctx;
	bool removed_child = false;

	mutex_lock(&current->perf_event_mutex);
	ctx = current->perf_event_ctxp;
	if (ctx) {
		perf_addr_filters_exec();
		mutex_lock(&ctx->mutex);
		perf_ctx_call(ctx, list_first_entry_or_null(&ctx->event_list,
							    struct perf_event,
							    event_entry),
			      exec_fn, &removed_child);
		mutex_unlock(&ctx->mutex);
	}
	mutex_unlock(&current->perf_event_mutex);
	/* the context is the task's until it exits: current's, here */
	if (removed_child)
		perf_inherit_exec(ctx);
}

/**
 * perf_event_create_kernel_counter - open an in-kernel counter
 * @attr: what to count; checked as the system call checks it
 * @cpu: the CPU to count on, or -1 to follow @task anywhere
 * @task: the task to count, or NULL for all of @cpu
 * @handler: called on overflow instead of writing a sample, or NULL to
 *	write samples into the event's buffer
 * @context: stored in the event's overflow_handler_context for @handler
 *
 * An in-kernel counter (watchdog, hw_breakpoint, KVM): the same path as the
 * system call, with no file and no permission checks.  The event is
 * installed at once and counts unless @attr says disabled; a PMU with a
 * scope may place it on another CPU of @cpu's group.  It is closed with
 * perf_event_release_kernel().
 *
 * Context: process context, may sleep.
 *
 * Return: the new event, or an ERR_PTR(): the error of the attr checks
 * (as for the system call), -EINVAL for a CPU-wide counter without a
 * valid @cpu, or what the PMU or the context lookup returned.
 */
struct perf_event *
perf_event_create_kernel_counter(struct perf_event_attr *attr, int cpu,
				 struct task_struct *task,
				 perf_overflow_handler_t handler,
				 void *context)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	int err;

	err = perf_attr_check(attr) ?: perf_attr_check_period(attr);
	if (err)
		return ERR_PTR(err);
	if (!task && (cpu < 0 || cpu >= nr_cpu_ids))
		return ERR_PTR(-EINVAL);
	event = perf_event_alloc(attr, cpu, task, NULL, handler, context);
	if (IS_ERR(event))
		return event;
	/* a scoped PMU may have placed the event on another CPU */
	ctx = task ? perf_ctx_get_task(task) : perf_ctx_get_cpu(event->cpu);
	if (IS_ERR(ctx)) {
		err = PTR_ERR(ctx);
		goto free;
	}
	err = perf_event_attach(event, ctx);
	if (err) {
		perf_ctx_put(ctx);
		goto free;
	}
	mutex_lock(&ctx->mutex);
	err = perf_exclusive_check(event, ctx);
	if (!err)
		perf_event_install(event);
	mutex_unlock(&ctx->mutex);
	if (err)
		goto free;
	return event;
free:
	perf_event_free(event);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(perf_event_create_kernel_counter);

void __init perf_event_init(void)
{
	int cpu;

	perf_event_cachep = KMEM_CACHE(perf_event, SLAB_PANIC);
	for_each_possible_cpu(cpu) {
		struct perf_cpu_context *cpuctx = per_cpu_ptr(&perf_cpu_ctx, cpu);

		ctx_init(&cpuctx->ctx, NULL);
	}
	perf_sample_budget_update();
	perf_sw_init();
	perf_tp_init();
	init_hw_breakpoint();
	perf_sched_init_boot_cpu();
}
