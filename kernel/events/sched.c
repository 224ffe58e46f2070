// SPDX-License-Identifier: GPL-2.0
/*
 * Scheduling events onto PMUs: context time, event and group sched in/out,
 * the task switch hooks, CPU hotplug, and perf_ctx_call() which runs an
 * operation where a context is live.
 *
 * Locking: everything here runs with ctx->lock held and IRQs off, on the
 * CPU where the context is (or becomes) live; see internal.h.  The users
 * of perf_sched_events take and drop it in process context.
 */
#include <linux/cpu.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#include "internal.h"

DEFINE_PER_CPU(struct perf_cpu_context, perf_cpu_ctx);

/* on while any task context exists: gates the context switch hooks */
DEFINE_STATIC_KEY_FALSE(perf_sched_events);

/*
 * Turning a static key on or off patches the kernel text of every CPU.  So
 * that a tool opening and closing task events in a loop does not patch at
 * every turn, a user of perf_sched_events that goes away leaves the key on
 * for a second (a "pending" reference), and a new user within that second
 * takes the pending reference over.  The key's count is always the users
 * plus the pending references.
 */
static atomic_t perf_sched_events_pending = ATOMIC_INIT(0);

static void perf_sched_events_off(struct work_struct *work)
{
	while (atomic_add_unless(&perf_sched_events_pending, -1, 0))
		static_branch_dec(&perf_sched_events);
}

static DECLARE_DELAYED_WORK(perf_sched_events_work, perf_sched_events_off);

/* May sleep (the key may have to be turned on). */
void perf_sched_events_get(void)
{
	if (!atomic_add_unless(&perf_sched_events_pending, -1, 0))
		static_branch_inc(&perf_sched_events);
}

void perf_sched_events_put(void)
{
	atomic_inc(&perf_sched_events_pending);
	schedule_delayed_work(&perf_sched_events_work, HZ);
}

/* Bring a live context's clock to @now, a perf_clock() reading. */
static void ctx_time_to(struct perf_event_context *ctx, u64 now)
{
	lockdep_assert_held(&ctx->lock);
	if (!ctx->is_active)
		return;
	ctx->time += now - ctx->timestamp;
	ctx->timestamp = now;
	/* a CPU context's cgroup clocks move with it */
	if (!ctx->task && perf_ctx_nr_cgroups(ctx))
		perf_cgroup_update_clocks(container_of(ctx,
						       struct perf_cpu_context,
						       ctx), now);
}

void perf_ctx_update_time(struct perf_event_context *ctx)
{
	lockdep_assert_held(&ctx->lock);
	if (ctx->is_active)
		ctx_time_to(ctx, perf_clock());
}

/*
 * The CPU context and the live task context (if any) move to the same
 * instant: one clock reading for both.
 */
static void ctx_pair_update_time(struct perf_cpu_context *cpuctx,
				 struct perf_event_context *tctx)
{
	u64 now = perf_clock();

	ctx_time_to(&cpuctx->ctx, now);
	if (tctx)
		ctx_time_to(tctx, now);
}

/*
 * The event's times as of @clock, a perf_clock() reading of this moment
 * (0: read it here), without locks: for the user page and for
 * PERF_SAMPLE_READ, where the context's clock may be a little stale.
 */
void perf_event_times_at(struct perf_event *event, u64 clock, u64 *enabled,
			 u64 *running)
{
	struct perf_event_context *ctx = event->ctx;
	enum perf_event_state state = perf_event_time_state(event);
	u64 now, delta = 0;

	*enabled = event->total_time_enabled;
	*running = event->total_time_running;
	if (!ctx)
		return;
	if (perf_event_has_cgroup(event)) {
		now = perf_cgroup_time_now(event);
	} else {
		now = READ_ONCE(ctx->time);
		if (READ_ONCE(ctx->is_active))
			now += (clock ?: perf_clock()) -
			       READ_ONCE(ctx->timestamp);
	}
	if ((s64)(now - event->tstamp) > 0)
		delta = now - event->tstamp;
	if (state >= PERF_EVENT_STATE_INACTIVE)
		*enabled += delta;
	if (state == PERF_EVENT_STATE_ACTIVE)
		*running += delta;
}

/* Bring the event's times up to the context's (already updated) time. */
void perf_event_update_time(struct perf_event *event)
{
	perf_time_advance(&event->total_time_enabled,
			  &event->total_time_running, &event->tstamp,
			  perf_event_time_state(event), perf_event_time(event));
}

/*
 * Before @event goes to @state: if it leads a group that this takes in or
 * out of the enabled states, its members' times so far follow the old
 * state of the group (perf_event_time_state()).
 */
static void group_times_before(struct perf_event *event,
			       enum perf_event_state state)
{
	bool was_on = event->state >= PERF_EVENT_STATE_INACTIVE;
	bool will_be_on = state >= PERF_EVENT_STATE_INACTIVE;
	struct perf_event *sibling;

	if (event->group_leader != event || was_on == will_be_on)
		return;
	list_for_each_entry(sibling, &event->sibling_list, sibling_list)
		perf_event_update_time(sibling);
}

void perf_event_set_state(struct perf_event *event,
			  enum perf_event_state state)
{
	if (event->state == state)
		return;
	perf_event_update_time(event);
	group_times_before(event, state);
	WRITE_ONCE(event->state, state);
}

/*
 * An event that was off (OFF, ERROR) becomes enabled (INACTIVE) now: the
 * time it spent off does not count as enabled time.
 */
void perf_event_set_enabled(struct perf_event *event)
{
	group_times_before(event, PERF_EVENT_STATE_INACTIVE);
	event->tstamp = perf_event_time(event);
	WRITE_ONCE(event->state, PERF_EVENT_STATE_INACTIVE);
}

static struct perf_event_groups *groups_of(struct perf_event_context *ctx,
					   struct perf_event *leader)
{
	return leader->attr.pinned ? &ctx->pinned_groups : &ctx->flexible_groups;
}

/* Leaders are kept in creation order; group_index is the key. */
void perf_groups_insert(struct perf_event_context *ctx,
			struct perf_event *leader)
{
	struct perf_event_groups *groups = groups_of(ctx, leader);
	struct rb_node **link = &groups->tree.rb_node;
	struct rb_node *parent = NULL;

	leader->group_index = ++groups->index;
	while (*link) {
		struct perf_event *e;

		parent = *link;
		e = rb_entry(parent, struct perf_event, group_node);
		if (leader->group_index < e->group_index)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&leader->group_node, parent, link);
	rb_insert_color(&leader->group_node, &groups->tree);
}

void perf_groups_erase(struct perf_event_context *ctx,
		       struct perf_event *leader)
{
	if (RB_EMPTY_NODE(&leader->group_node))
		return;
	rb_erase(&leader->group_node, &groups_of(ctx, leader)->tree);
	RB_CLEAR_NODE(&leader->group_node);
}

/*
 * An event bound to a CPU only counts there; a cgroup event only while a
 * task of its cgroup runs there; a group only on the CPUs its PMU drives
 * (pmu->filter: a hybrid part's PMU of one core type).  A group that does
 * not fit stays INACTIVE, neither in error nor waiting for a turn.
 */
bool perf_event_fits_cpu(struct perf_event *event)
{
	struct pmu *pmu = event->pmu_ctx->pmu;

	if (event->cpu != -1 && event->cpu != smp_processor_id())
		return false;
	if (pmu->filter && pmu->filter(pmu, smp_processor_id()))
		return false;
	return perf_cgroup_match(event);
}

/*
 * This CPU's bookkeeping of the PMU a group is scheduled on: whether an
 * exclusive group holds it.  Only this CPU touches it, with IRQs off (the
 * CPU and task contexts of one CPU share it, so their locks alone would
 * not serialize it).
 */
static struct perf_cpu_pmu_context *group_cpc(struct perf_event *event)
{
	return this_cpu_ptr(event->pmu_ctx->pmu->cpu_pmu_context);
}

static void cpc_mark_exclusive(struct perf_event *event, bool on)
{
	if (event->attr.exclusive && event->group_leader == event)
		group_cpc(event)->exclusive = on;
}

/*
 * Nothing goes on a PMU of this CPU while an exclusive group is there.  An
 * exclusive group goes on when no other group of its own kind (pinned or
 * flexible) of its own context is on the PMU: groups of the other kind, or
 * of the other context of this CPU (a CPU-wide pinned event such as the
 * NMI watchdog's, beside a task's exclusive group), do not keep it off:
 * a kernel counter of the CPU must not silence a user's exclusive group.
 * Software PMUs are never overcommitted and ignore exclusivity.
 */
static bool group_may_go_on(struct perf_event *leader, bool pinned)
{
	struct perf_event_pmu_context *epc = leader->pmu_ctx;

	if (epc->pmu->task_ctx_nr == perf_sw_context)
		return true;
	if (group_cpc(leader)->exclusive)
		return false;
	if (!leader->attr.exclusive)
		return true;
	return list_empty(pinned ? &epc->pinned_active : &epc->flexible_active);
}

static int event_sched_in(struct perf_event *event, bool pinned)
{
	struct perf_event_pmu_context *epc = event->pmu_ctx;

	if (event->state != PERF_EVENT_STATE_INACTIVE)
		return 0;
	perf_event_set_state(event, PERF_EVENT_STATE_ACTIVE);
	WRITE_ONCE(event->oncpu, smp_processor_id());
	perf_event_unthrottle_in(event);
	if (event->pmu->add(event, PERF_EF_START)) {
		perf_event_set_state(event, PERF_EVENT_STATE_INACTIVE);
		WRITE_ONCE(event->oncpu, -1);
		return -EAGAIN;
	}
	/* which task an instruction trace from here on belongs to */
	if (event->pmu->capabilities & PERF_PMU_CAP_ITRACE) {
		if (!(event->attach_state & PERF_ATTACH_ITRACE))
			perf_log_itrace_start(event);
		event->attach_state &= ~PERF_ATTACH_ITRACE;
	}
	list_add_tail(&event->active_list,
		      pinned ? &epc->pinned_active : &epc->flexible_active);
	cpc_mark_exclusive(event, true);
	if (READ_ONCE(event->rb))
		perf_event_update_userpage(event);
	return 0;
}

void perf_event_sched_out(struct perf_event *event)
{
	struct pmu *pmu = event->pmu_ctx->pmu;

	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return;
	perf_pmu_disable(pmu);
	event->pmu->del(event, 0);
	perf_pmu_enable(pmu);
	cpc_mark_exclusive(event, false);
	WRITE_ONCE(event->oncpu, -1);
	list_del_init(&event->active_list);
	perf_event_set_state(event, PERF_EVENT_STATE_INACTIVE);
	/* only a mapped buffer has a user page */
	if (READ_ONCE(event->rb))
		perf_event_update_userpage(event);
}

/*
 * Put a whole group on its PMU inside one transaction; on failure nothing
 * of the group stays on the PMU.
 */
int perf_group_sched_in(struct perf_event *leader)
{
	struct pmu *pmu = leader->pmu_ctx->pmu;
	bool pinned = leader->attr.pinned;
	struct perf_event *sibling, *failed = NULL;
	int ret = 0;

	if (!group_may_go_on(leader, pinned))
		return -EAGAIN;
	perf_pmu_disable(pmu);
	if (pmu->start_txn)
		pmu->start_txn(pmu, PERF_PMU_TXN_ADD);
	if (event_sched_in(leader, pinned))
		goto cancel;
	for_each_sibling_event(sibling, leader) {
		if (event_sched_in(sibling, pinned)) {
			failed = sibling;
			goto undo;
		}
	}
	if (!pmu->commit_txn || !pmu->commit_txn(pmu))
		goto out;
undo:
	for_each_sibling_event(sibling, leader) {
		if (sibling == failed)
			break;
		perf_event_sched_out(sibling);
	}
	perf_event_sched_out(leader);
cancel:
	if (pmu->cancel_txn)
		pmu->cancel_txn(pmu);
	ret = -EAGAIN;
out:
	perf_pmu_enable(pmu);
	return ret;
}

/*
 * Take a whole group off its PMU with the PMU stopped throughout, so that
 * its members stop counting at the same instant: a sibling still counting
 * while the leader's count is final would make group reads disagree.
 */
void perf_group_sched_out(struct perf_event *leader)
{
	struct pmu *pmu = leader->pmu_ctx->pmu;
	struct perf_event *sibling;

	perf_pmu_disable(pmu);
	perf_event_sched_out(leader);
	for_each_sibling_event(sibling, leader)
		perf_event_sched_out(sibling);
	perf_pmu_enable(pmu);
}

/*
 * Multiplexing.  When a flexible group cannot go on its PMU on this CPU,
 * the PMU's rotation timer for this CPU starts (the hrtimer of its
 * perf_cpu_pmu_context, hard IRQ, pinned here).  Every
 * perf_event_mux_interval_ms of the PMU it moves the PMU's first flexible
 * group of each live context to the end of the line and schedules the
 * flexible groups again, so that all get turns (on an idle CPU the next
 * turn may wait one interval more: mux_timer_fn()); it stops once all of
 * them fit.  The context switch path only starts it, on a failed group.
 * cpc->hrtimer_active is read and written on its CPU with IRQs off.
 */
static void mux_start(struct pmu *pmu)
{
	struct perf_cpu_pmu_context *cpc = this_cpu_ptr(pmu->cpu_pmu_context);

	if (cpc->hrtimer_active)
		return;
	cpc->hrtimer_active = 1;
	hrtimer_start(&cpc->hrtimer,
		      ms_to_ktime(READ_ONCE(pmu->hrtimer_interval_ms)),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * An INACTIVE group of a live context goes on if it can; a pinned one that
 * cannot is in error until enabled again, a flexible one waits its turn.
 * Returns true when a flexible group waits for room on its PMU.
 */
bool perf_group_try_in(struct perf_event *leader)
{
	if (leader->state != PERF_EVENT_STATE_INACTIVE ||
	    !perf_event_fits_cpu(leader))
		return false;
	if (!perf_group_sched_in(leader))
		return false;
	if (leader->attr.pinned) {
		perf_event_set_state(leader, PERF_EVENT_STATE_ERROR);
		return false;
	}
	mux_start(leader->pmu_ctx->pmu);
	return true;
}

static void sched_in_pinned(struct perf_event_context *ctx)
{
	struct rb_node *node;

	for (node = rb_first(&ctx->pinned_groups.tree); node;
	     node = rb_next(node))
		perf_group_try_in(rb_entry(node, struct perf_event, group_node));
}

/*
 * The flexible groups go on in their order until one of a PMU finds no
 * room: the later ones of that PMU then wait too, though a smaller one
 * might fit (stock's order, seen on its emulated PMUs: make diff's
 * hw.flexible.*), so that a large group is not kept off by the small ones
 * behind it.  epc->rotate_necessary marks such a PMU for this pass.
 */
static void sched_in_flexible(struct perf_event_context *ctx)
{
	struct perf_event_pmu_context *epc;
	struct perf_event *leader;
	struct rb_node *node;

	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry)
		epc->rotate_necessary = 0;
	for (node = rb_first(&ctx->flexible_groups.tree); node;
	     node = rb_next(node)) {
		leader = rb_entry(node, struct perf_event, group_node);
		if (leader->pmu_ctx->rotate_necessary)
			continue;
		if (perf_group_try_in(leader))
			leader->pmu_ctx->rotate_necessary = 1;
	}
}

static void ctx_pmus_disable(struct perf_event_context *ctx, bool disable)
{
	struct perf_event_pmu_context *epc;

	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		if (disable)
			perf_pmu_disable(epc->pmu);
		else
			perf_pmu_enable(epc->pmu);
	}
}

/* Schedule in the INACTIVE groups of @ctx of the kinds in @which. */
static void ctx_groups_in(struct perf_event_context *ctx, int which)
{
	lockdep_assert_held(&ctx->lock);
	if (!ctx->is_active || !ctx->nr_events)
		return;
	ctx_pmus_disable(ctx, true);
	if (which & PERF_GROUPS_PINNED)
		sched_in_pinned(ctx);
	if (which & PERF_GROUPS_FLEXIBLE)
		sched_in_flexible(ctx);
	ctx_pmus_disable(ctx, false);
}

/*
 * Take the active groups of @ctx of the kinds in @which off their PMUs
 * (with PERF_GROUPS_CGROUP, only those whose leader follows a cgroup).
 * The caller brought the context's time up to date: within one operation
 * the clock stands still, so that an event that stays on loses no time.
 */
static void active_out(struct list_head *active, int which)
{
	struct perf_event *event, *tmp;

	list_for_each_entry_safe(event, tmp, active, active_list) {
		if ((which & PERF_GROUPS_CGROUP) &&
		    !perf_event_has_cgroup(event->group_leader))
			continue;
		perf_event_sched_out(event);
	}
}

static void ctx_groups_out(struct perf_event_context *ctx, int which)
{
	struct perf_event_pmu_context *epc;

	lockdep_assert_held(&ctx->lock);
	if (!ctx->is_active || !ctx->nr_events)
		return;
	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		perf_pmu_disable(epc->pmu);
		if (which & PERF_GROUPS_PINNED)
			active_out(&epc->pinned_active, which);
		if (which & PERF_GROUPS_FLEXIBLE)
			active_out(&epc->flexible_active, which);
		perf_pmu_enable(epc->pmu);
	}
}

static void ctx_go_live(struct perf_event_context *ctx)
{
	if (ctx->is_active)
		return;
	ctx->timestamp = perf_clock();
	ctx->is_active = PERF_CTX_LIVE;
}

/* Make @ctx live on this CPU: start its clock, then pinned before flexible. */
static void perf_ctx_sched_in(struct perf_event_context *ctx)
{
	lockdep_assert_held(&ctx->lock);
	if (ctx->is_active)
		return;
	ctx_go_live(ctx);
	ctx_groups_in(ctx, PERF_GROUPS_ALL);
}

void perf_ctx_sched_out(struct perf_event_context *ctx)
{
	perf_ctx_update_time(ctx);
	ctx_groups_out(ctx, PERF_GROUPS_ALL);
	ctx->is_active = 0;
}

/*
 * Put this CPU's PMUs in order again: the CPU context's pinned groups,
 * the task context's pinned groups, then the flexible groups of both, in
 * that order.  The CPU context's lock is held, and the task context's.
 */
static void cpu_sched_in_ordered(struct perf_cpu_context *cpuctx,
				 struct perf_event_context *task_ctx)
{
	ctx_groups_in(&cpuctx->ctx, PERF_GROUPS_PINNED);
	if (task_ctx)
		ctx_groups_in(task_ctx, PERF_GROUPS_PINNED);
	ctx_groups_in(&cpuctx->ctx, PERF_GROUPS_FLEXIBLE);
	if (task_ctx)
		ctx_groups_in(task_ctx, PERF_GROUPS_FLEXIBLE);
}

/*
 * After a change in what the live contexts of this CPU hold (install,
 * enable, exec): the flexible groups make room and everything is
 * scheduled in again in priority order.  Runs from perf_ctx_call() with
 * the CPU context's lock and the live task context's lock held, and both
 * contexts' times brought up to date.
 */
void perf_cpu_resched(void)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *task_ctx = cpuctx->task_ctx;

	lockdep_assert_held(&cpuctx->ctx.lock);
	if (task_ctx)
		ctx_groups_out(task_ctx, PERF_GROUPS_FLEXIBLE);
	ctx_groups_out(&cpuctx->ctx, PERF_GROUPS_FLEXIBLE);
	cpu_sched_in_ordered(cpuctx, task_ctx);
}

/* A task context goes live on this CPU, taking its place among the CPU's. */
static void task_ctx_sched_in(struct perf_cpu_context *cpuctx,
			      struct perf_event_context *ctx)
{
	ctx_go_live(ctx);
	cpuctx->task_ctx = ctx;
	/* only task pinned groups outrank the CPU's flexible ones */
	if (!RB_EMPTY_ROOT(&ctx->pinned_groups.tree)) {
		perf_ctx_update_time(&cpuctx->ctx);
		ctx_groups_out(&cpuctx->ctx, PERF_GROUPS_FLEXIBLE);
	}
	cpu_sched_in_ordered(cpuctx, ctx);
}

/* Context switch, IRQs off: the outgoing task's context leaves the CPU. */
void __perf_event_task_sched_out(struct task_struct *prev,
				 struct task_struct *next)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *ctx = cpuctx->task_ctx;

	perf_sideband_switch(next, true);
	if (ctx) {
		raw_spin_lock(&ctx->lock);
		perf_ctx_sched_out(ctx);
		cpuctx->task_ctx = NULL;
		raw_spin_unlock(&ctx->lock);
	}
	if (perf_ctx_nr_cgroups(&cpuctx->ctx))
		perf_cgroup_sched(next);
}

#ifdef CONFIG_CGROUP_PERF
/*
 * @task runs on this CPU from now (IRQs off): if its cgroup is not the one
 * the CPU's cgroup events followed, they are scheduled again for it.
 */
void perf_cgroup_sched(struct task_struct *task)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *tctx;
	struct perf_cgroup *cgrp;

	lockdep_assert_irqs_disabled();
	if (!READ_ONCE(cpuctx->ctx.nr_cgroups))
		return;
	raw_spin_lock(&cpuctx->ctx.lock);
	cgrp = perf_cgroup_from_task(task, &cpuctx->ctx);
	if (!cpuctx->ctx.nr_cgroups || cgrp == cpuctx->cgrp) {
		raw_spin_unlock(&cpuctx->ctx.lock);
		return;
	}
	tctx = cpuctx->task_ctx;
	if (tctx)
		raw_spin_lock_nested(&tctx->lock, SINGLE_DEPTH_NESTING);
	ctx_pair_update_time(cpuctx, tctx);
	/* the other pinned groups stay; resched moves every flexible one */
	ctx_groups_out(&cpuctx->ctx, PERF_GROUPS_PINNED | PERF_GROUPS_CGROUP);
	perf_cgroup_set(cpuctx, cgrp);
	perf_cpu_resched();
	if (tctx)
		raw_spin_unlock(&tctx->lock);
	raw_spin_unlock(&cpuctx->ctx.lock);
}
#endif

/* Context switch, IRQs off: the incoming task's context goes live. */
void __perf_event_task_sched_in(struct task_struct *prev,
				struct task_struct *task)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event_context *ctx = READ_ONCE(task->perf_event_ctxp);
	bool empty;

	if (ctx) {
		/*
		 * A context without events stays off the CPU: there is
		 * nothing in it to schedule.  An event added to it while the
		 * task runs reaches this CPU through perf_ctx_call(), where
		 * the context goes live (ctx_call_here()).  The lock orders
		 * the check against an addition from another CPU: one that
		 * takes the lock after us sees the task running here.
		 */
		raw_spin_lock(&ctx->lock);
		empty = !ctx->nr_events;
		raw_spin_unlock(&ctx->lock);
		if (!empty) {
			raw_spin_lock(&cpuctx->ctx.lock);
			raw_spin_lock_nested(&ctx->lock, SINGLE_DEPTH_NESTING);
			if (READ_ONCE(task->perf_event_ctxp) == ctx)
				task_ctx_sched_in(cpuctx, ctx);
			raw_spin_unlock(&ctx->lock);
			raw_spin_unlock(&cpuctx->ctx.lock);
		}
	}
	perf_sideband_switch(prev, false);
}

/* Take the active flexible groups of @pmu in @ctx off the PMU. */
static void pmu_flexible_out(struct perf_event_context *ctx, struct pmu *pmu)
{
	struct perf_event_pmu_context *epc;
	struct perf_event *event, *tmp;

	if (!ctx->is_active)
		return;
	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		if (epc->pmu != pmu)
			continue;
		perf_pmu_disable(pmu);
		list_for_each_entry_safe(event, tmp, &epc->flexible_active,
					 active_list)
			perf_event_sched_out(event);
		perf_pmu_enable(pmu);
	}
}

/* The first flexible group of @pmu in @ctx goes to the end of the line. */
static void pmu_flexible_rotate(struct perf_event_context *ctx,
				struct pmu *pmu)
{
	struct perf_event *leader;
	struct rb_node *node;

	if (!ctx->is_active)
		return;
	for (node = rb_first(&ctx->flexible_groups.tree); node;
	     node = rb_next(node)) {
		leader = rb_entry(node, struct perf_event, group_node);
		if (leader->pmu_ctx->pmu == pmu) {
			perf_groups_erase(ctx, leader);
			perf_groups_insert(ctx, leader);
			return;
		}
	}
}

/* Whether a flexible group of @pmu in @ctx waits for the PMU. */
static bool pmu_flexible_waiting(struct perf_event_context *ctx,
				 struct pmu *pmu)
{
	struct perf_event *leader;
	struct rb_node *node;

	if (!ctx->is_active)
		return false;
	for (node = rb_first(&ctx->flexible_groups.tree); node;
	     node = rb_next(node)) {
		leader = rb_entry(node, struct perf_event, group_node);
		if (leader->pmu_ctx->pmu == pmu &&
		    leader->state == PERF_EVENT_STATE_INACTIVE &&
		    perf_event_fits_cpu(leader))
			return true;
	}
	return false;
}

/*
 * The rotation timer of a PMU on this CPU (hard IRQ): the flexible groups
 * of the PMU in the CPU context and in the live task context leave it,
 * the first in line of each goes last, and the flexible groups are
 * scheduled in again.  Runs again after the PMU's interval while some of
 * them still wait.
 */
static enum hrtimer_restart mux_timer_fn(struct hrtimer *timer)
{
	struct perf_cpu_pmu_context *cpc =
		container_of(timer, struct perf_cpu_pmu_context, hrtimer);
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct pmu *pmu = cpc->epc.pmu;
	struct perf_event_context *task_ctx;
	ktime_t interval;
	bool again;

	/* a timer moved off a CPU that went offline has nothing to do */
	if (cpc->epc.ctx != &cpuctx->ctx) {
		cpc->hrtimer_active = 0;
		return HRTIMER_NORESTART;
	}
	raw_spin_lock(&cpuctx->ctx.lock);
	task_ctx = cpuctx->task_ctx;
	if (task_ctx)
		raw_spin_lock_nested(&task_ctx->lock, SINGLE_DEPTH_NESTING);
	ctx_pair_update_time(cpuctx, task_ctx);
	/* the PMU is programmed once, with the groups of the new turn */
	perf_pmu_disable(pmu);
	if (task_ctx) {
		pmu_flexible_out(task_ctx, pmu);
		pmu_flexible_rotate(task_ctx, pmu);
	}
	pmu_flexible_out(&cpuctx->ctx, pmu);
	pmu_flexible_rotate(&cpuctx->ctx, pmu);
	ctx_groups_in(&cpuctx->ctx, PERF_GROUPS_FLEXIBLE);
	if (task_ctx)
		ctx_groups_in(task_ctx, PERF_GROUPS_FLEXIBLE);
	perf_pmu_enable(pmu);
	again = pmu_flexible_waiting(&cpuctx->ctx, pmu) ||
		(task_ctx && pmu_flexible_waiting(task_ctx, pmu));
	if (task_ctx)
		raw_spin_unlock(&task_ctx->lock);
	raw_spin_unlock(&cpuctx->ctx.lock);

	if (!again) {
		cpc->hrtimer_active = 0;
		return HRTIMER_NORESTART;
	}
	/*
	 * A turn taken on an idle CPU leaves the next one a slack of one
	 * interval: it is due after the interval and taken at the CPU's
	 * first timer interrupt from then on (the tick, once the CPU is busy
	 * again), so a CPU that stays idle wakes every other interval only.
	 * The groups keep their order and turns, an idle CPU's are longer.
	 */
	interval = ms_to_ktime(READ_ONCE(pmu->hrtimer_interval_ms));
	hrtimer_set_expires_range(timer,
				  ktime_add(hrtimer_cb_get_time(timer), interval),
				  is_idle_task(current) ? interval : 0);
	return HRTIMER_RESTART;
}

/* A PMU's per-CPU rotation timer, at registration. */
void perf_mux_timer_init(struct perf_cpu_pmu_context *cpc)
{
	hrtimer_init(&cpc->hrtimer, CLOCK_MONOTONIC,
		     HRTIMER_MODE_REL_PINNED_HARD);
	cpc->hrtimer.function = mux_timer_fn;
}

/* From the scheduler tick with IRQs off: the sampling side's tick. */
void perf_event_task_tick(void)
{
	perf_sample_tick(this_cpu_ptr(&perf_cpu_ctx));
}

struct ctx_call {
	struct perf_event_context *ctx;
	struct perf_event *event;
	perf_ctx_fn fn;
	void *arg;
	bool done;
};

static bool ctx_live_here(struct perf_event_context *ctx)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);

	if (ctx == &cpuctx->ctx)
		return ctx->is_active;
	return cpuctx->task_ctx == ctx;
}

/*
 * perf_ctx_call() on the target CPU, IRQs off: an IPI handler, or called
 * directly when the target is the calling CPU.  Takes this CPU's context
 * lock, then that of the task context concerned (the target, or the live
 * one when the target is the CPU context).
 */
static void ctx_call_here(void *info)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct ctx_call *call = info;
	struct perf_event_context *ctx = call->ctx;
	struct perf_event_context *tctx;

	tctx = ctx == &cpuctx->ctx ? cpuctx->task_ctx : ctx;
	raw_spin_lock(&cpuctx->ctx.lock);
	if (tctx)
		raw_spin_lock_nested(&tctx->lock, SINGLE_DEPTH_NESTING);
	/*
	 * A context attached to a task while the task was running is not
	 * live yet; it goes live here rather than at the next switch.
	 */
	if (ctx->task == current && current->perf_event_ctxp == ctx &&
	    !ctx->is_active && !cpuctx->task_ctx)
		task_ctx_sched_in(cpuctx, ctx);
	if (ctx_live_here(ctx)) {
		/* one clock reading for the whole operation, both contexts */
		ctx_pair_update_time(cpuctx, tctx);
		call->fn(ctx, call->event, call->arg, true);
		call->done = true;
	}
	if (tctx)
		raw_spin_unlock(&tctx->lock);
	raw_spin_unlock(&cpuctx->ctx.lock);
}

/*
 * perf_ctx_call() for IRQ context on this CPU: runs @fn live if @ctx is live
 * here, or not live if it is live nowhere.  False if it is live elsewhere.
 */
bool perf_ctx_call_local(struct perf_event_context *ctx,
			 struct perf_event *event, perf_ctx_fn fn, void *arg)
{
	struct ctx_call call = {
		.ctx = ctx, .event = event, .fn = fn, .arg = arg,
	};
	unsigned long flags;
	bool done = true;

	local_irq_save(flags);
	ctx_call_here(&call);
	if (!call.done) {
		raw_spin_lock(&ctx->lock);
		if (!ctx->is_active)
			fn(ctx, event, arg, false);
		else
			done = false;
		raw_spin_unlock(&ctx->lock);
	}
	local_irq_restore(flags);
	return done;
}

/* The CPU where @ctx may be live, or -1 if it cannot be live anywhere. */
static int ctx_cpu(struct perf_event_context *ctx, struct perf_event *event)
{
	struct task_struct *task = READ_ONCE(ctx->task);

	if (!task)
		return event->cpu;
	if (task == PERF_TASK_GONE)
		return -1;
	return task_cpu(task);
}

/*
 * Run @fn(@ctx, @event, @arg, live) with ctx->lock held and IRQs off.  If the
 * context is live somewhere, @fn runs on that CPU with live == true and may
 * program the PMU; otherwise it runs here with live == false and must only
 * edit software state.  Called from process context with ctx->mutex held,
 * which keeps the context's membership stable across the retries.
 */
void perf_ctx_call(struct perf_event_context *ctx, struct perf_event *event,
		   perf_ctx_fn fn, void *arg)
{
	struct ctx_call call = {
		.ctx = ctx, .event = event, .fn = fn, .arg = arg,
	};
	struct task_struct *task;
	int cpu;

	lockdep_assert_held(&ctx->mutex);
	for (;;) {
		cpu = ctx_cpu(ctx, event);
		if (cpu >= 0 && cpu_online(cpu)) {
			/* here (a task reading its own events): no IPI */
			if (cpu == get_cpu()) {
				local_irq_disable();
				ctx_call_here(&call);
				local_irq_enable();
			} else {
				smp_call_function_single(cpu, ctx_call_here,
							 &call, 1);
			}
			put_cpu();
			if (call.done)
				return;
		}
		raw_spin_lock_irq(&ctx->lock);
		task = ctx->task;
		if (!ctx->is_active &&
		    (!task || task == PERF_TASK_GONE || !task_curr(task))) {
			fn(ctx, event, arg, false);
			raw_spin_unlock_irq(&ctx->lock);
			return;
		}
		raw_spin_unlock_irq(&ctx->lock);
		cond_resched();
	}
}

static void cpu_ctx_start(void *unused)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);

	raw_spin_lock(&cpuctx->ctx.lock);
	cpuctx->online = 1;
	perf_ctx_sched_in(&cpuctx->ctx);
	raw_spin_unlock(&cpuctx->ctx.lock);
}

/* The CPU goes offline: its events stop for good, keeping their counts. */
static void cpu_ctx_stop(void *unused)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	struct perf_event *event;

	raw_spin_lock(&cpuctx->ctx.lock);
	perf_ctx_sched_out(&cpuctx->ctx);
	list_for_each_entry(event, &cpuctx->ctx.event_list, event_entry)
		perf_event_set_state(event, PERF_EVENT_STATE_EXIT);
	cpuctx->online = 0;
	raw_spin_unlock(&cpuctx->ctx.lock);
}

/*
 * CPU hotplug: called at CPUHP_PERF_PREPARE (on the controlling CPU, the
 * target not yet online: nothing to do) and at CPUHP_AP_PERF_ONLINE (the
 * target is online): the CPU context goes live or leaves the CPU.
 */
int perf_event_init_cpu(unsigned int cpu)
{
	if (cpu_online(cpu)) {
		perf_pmu_scope_online(cpu);
		smp_call_function_single(cpu, cpu_ctx_start, NULL, 1);
	}
	return 0;
}

/* Scoped PMUs' events move to another CPU first, the rest stop. */
int perf_event_exit_cpu(unsigned int cpu)
{
	if (cpu_online(cpu)) {
		perf_pmu_scope_offline(cpu);
		smp_call_function_single(cpu, cpu_ctx_stop, NULL, 1);
	}
	return 0;
}

/*
 * The boot CPU, from perf_event_init() with IRQs still off.  Its place in
 * the PMU scopes waits for its topology masks (pmu.c, an early initcall).
 */
void perf_sched_init_boot_cpu(void)
{
	unsigned long flags;

	local_irq_save(flags);
	cpu_ctx_start(NULL);
	local_irq_restore(flags);
}

struct perf_event_context *perf_cpu_task_ctx(void)
{
	lockdep_assert_irqs_disabled();
	return this_cpu_ptr(&perf_cpu_ctx)->task_ctx;
}
