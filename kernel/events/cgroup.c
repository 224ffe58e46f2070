// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup events (PERF_FLAG_PID_CGROUP) and the perf_event cgroup
 * controller.
 *
 * A cgroup event is a CPU event that counts only while the task running on
 * its CPU belongs to the event's cgroup or to a descendant of it (in the
 * perf_event hierarchy: the unified one on cgroup v2, where the controller
 * is implicit, or the v1 hierarchy it is mounted on).  Its time_enabled and
 * time_running are cgroup time: every perf_cgroup has a clock per CPU that
 * runs while a task of the cgroup or of a descendant runs there.
 *
 * While the CPU context holds cgroup events (ctx.nr_cgroups), cpuctx->cgrp
 * is the cgroup of the task running on the CPU and the clocks of it and
 * its ancestors run; at a context switch that changes it the CPU's groups
 * are scheduled again (perf_cgroup_sched(), sched.c), and a running task
 * moved to another cgroup is switched the same way on its CPU.
 *
 * Locking: cpuctx->cgrp, the CPU's clocks and ctx.nr_cgroups change on
 * their CPU with the CPU context's lock held and IRQs off; the clocks are
 * read without locks for the user page, one word at a time (time when
 * stopped, timeoffset when running), each written with WRITE_ONCE.  An event holds a reference on
 * its cgroup from open to free; a cgroup's clocks are freed after an RCU
 * grace period (css_free), never while a task of it runs.
 */
#include <linux/cgroup.h>
#include <linux/file.h>
#include <linux/slab.h>

#include "internal.h"

static struct perf_cgroup *css_perf(struct cgroup_subsys_state *css)
{
	return container_of(css, struct perf_cgroup, css);
}

/*
 * Bring the clocks of @cgrp and of its ancestors on @cpu to @now, and
 * leave them running or stopped.
 */
static void clocks_set(struct perf_cgroup *cgrp, int cpu, u64 now, bool run)
{
	struct cgroup_subsys_state *css;

	for (css = &cgrp->css; css; css = css->parent) {
		struct perf_cgroup_info *info;

		info = per_cpu_ptr(css_perf(css)->info, cpu);
		if (info->active)
			WRITE_ONCE(info->time, info->time + now - info->timestamp);
		info->timestamp = now;
		/* for perf_cgroup_time_now(): time = now + timeoffset */
		WRITE_ONCE(info->timeoffset, info->time - now);
		WRITE_ONCE(info->active, run);
	}
}

/* The CPU context's clock was updated to @now: so are the cgroup clocks. */
void perf_cgroup_update_clocks(struct perf_cpu_context *cpuctx, u64 now)
{
	if (cpuctx->cgrp && cpuctx == this_cpu_ptr(&perf_cpu_ctx))
		clocks_set(cpuctx->cgrp, smp_processor_id(), now, true);
}

/* This CPU now runs a task of @cgrp (NULL: cgroups are not followed). */
void perf_cgroup_set(struct perf_cpu_context *cpuctx, struct perf_cgroup *cgrp)
{
	u64 now = cpuctx->ctx.is_active ? cpuctx->ctx.timestamp : perf_clock();
	int cpu = smp_processor_id();

	if (cpuctx->cgrp)
		clocks_set(cpuctx->cgrp, cpu, now, false);
	cpuctx->cgrp = cgrp;
	if (cgrp)
		clocks_set(cgrp, cpu, now, true);
}

/* May @event count on this CPU now: is the running task of its cgroup? */
bool perf_cgroup_match(struct perf_event *event)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_ctx);

	if (!event->cgrp)
		return true;
	return cpuctx->cgrp &&
	       cgroup_is_descendant(cpuctx->cgrp->css.cgroup,
				    event->cgrp->css.cgroup);
}

/* The cgroup time of @event's CPU, as of the last update (locks held). */
u64 perf_cgroup_time(struct perf_event *event)
{
	return per_cpu_ptr(event->cgrp->info, event->cpu)->time;
}

/*
 * The same, extrapolated to now without locks (the user page, reads): a
 * running clock is read through its one-word offset from perf_clock(), so
 * that a concurrent update cannot pair a new time with an old timestamp.
 */
u64 perf_cgroup_time_now(struct perf_event *event)
{
	struct perf_cgroup_info *info = per_cpu_ptr(event->cgrp->info,
						    event->cpu);

	if (READ_ONCE(info->active))
		return perf_clock() + READ_ONCE(info->timeoffset);
	return READ_ONCE(info->time);
}

/*
 * A cgroup event joins (@add) or leaves its CPU context, with its lock
 * held, on its CPU when the context is live.  The first one starts
 * following the running task's cgroup; after the last one nobody does.
 */
void perf_cgroup_account(struct perf_event *event,
			 struct perf_event_context *ctx, bool add)
{
	struct perf_cpu_context *cpuctx;

	if (!event->cgrp)
		return;
	cpuctx = container_of(ctx, struct perf_cpu_context, ctx);
	if (add && ctx->nr_cgroups++)
		return;
	if (!add && --ctx->nr_cgroups)
		return;
	/*
	 * A context not live here (its CPU is offline): the last event stops
	 * the clocks; the first leaves the cgroup to the next switch there.
	 */
	if (!ctx->is_active || cpuctx != this_cpu_ptr(&perf_cpu_ctx)) {
		if (cpuctx->cgrp)
			clocks_set(cpuctx->cgrp, event->cpu, perf_clock(), false);
		cpuctx->cgrp = NULL;
		return;
	}
	perf_cgroup_set(cpuctx, add ? perf_cgroup_from_task(current, ctx) :
				      NULL);
}

/*
 * perf_event_open() with PERF_FLAG_PID_CGROUP: @fd is a directory of the
 * cgroup filesystem.  The members of a group watch the leader's cgroup.
 */
int perf_cgroup_connect(struct perf_event *event, int fd)
{
	struct perf_event *leader = event->group_leader;
	struct cgroup_subsys_state *css;
	struct fd f = fdget(fd);

	if (!fd_file(f))
		return -EBADF;
	css = css_tryget_online_from_dir(fd_file(f)->f_path.dentry,
					 &perf_event_cgrp_subsys);
	fdput(f);
	if (IS_ERR(css))
		return PTR_ERR(css);
	event->cgrp = css_perf(css);
	perf_sched_events_get();
	if (leader != event && leader->cgrp != event->cgrp)
		return -EINVAL;
	return 0;
}

/* From perf_event_free(): the reference of perf_cgroup_connect(). */
void perf_cgroup_disconnect(struct perf_event *event)
{
	if (!event->cgrp)
		return;
	css_put(&event->cgrp->css);
	event->cgrp = NULL;
	perf_sched_events_put();
}

/* PERF_SAMPLE_CGROUP: the id of the running task's cgroup. */
u64 perf_cgroup_sample_id(void)
{
	struct cgroup *cgroup;
	u64 id;

	rcu_read_lock();
	cgroup = task_css_check(current, perf_event_cgrp_id, true)->cgroup;
	id = cgroup_id(cgroup);
	rcu_read_unlock();
	return id;
}

/* A cgroup's perf state: its clocks, one per CPU, all stopped at 0. */
static struct cgroup_subsys_state *
perf_cgroup_css_alloc(struct cgroup_subsys_state *parent)
{
	struct perf_cgroup_info __percpu *clocks;
	struct perf_cgroup *cgrp;

	clocks = alloc_percpu(struct perf_cgroup_info);
	if (clocks) {
		cgrp = kzalloc(sizeof(*cgrp), GFP_KERNEL);
		if (cgrp) {
			cgrp->info = clocks;
			return &cgrp->css;
		}
		free_percpu(clocks);
	}
	return ERR_PTR(-ENOMEM);
}

/* After an RCU grace period: no CPU reads these clocks any more. */
static void perf_cgroup_css_free(struct cgroup_subsys_state *css)
{
	struct perf_cgroup *cgrp = css_perf(css);
	struct perf_cgroup_info __percpu *clocks = cgrp->info;

	kfree(cgrp);
	free_percpu(clocks);
}

/* A new cgroup: PERF_RECORD_CGROUP to the events that asked (sideband.c). */
static int perf_cgroup_css_online(struct cgroup_subsys_state *css)
{
	perf_sideband_cgroup(css->cgroup);
	return 0;
}

static void cgroup_switch_here(void *task)
{
	if (task == current)
		perf_cgroup_sched(current);
}

/* Tasks moved to another cgroup: one that runs switches on its CPU now. */
static void perf_cgroup_attach(struct cgroup_taskset *tset)
{
	struct cgroup_subsys_state *css;
	struct task_struct *task;

	cgroup_taskset_for_each(task, css, tset) {
		if (task_curr(task))
			smp_call_function_single(task_cpu(task),
						 cgroup_switch_here, task, 1);
	}
}

struct cgroup_subsys perf_event_cgrp_subsys = {
	.css_alloc	= perf_cgroup_css_alloc,
	.css_free	= perf_cgroup_css_free,
	.css_online	= perf_cgroup_css_online,
	.attach		= perf_cgroup_attach,
	/* on cgroup v2 every cgroup has it, without being asked */
	.implicit_on_dfl = true,
	.threaded	= true,
};
