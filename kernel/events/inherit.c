// SPDX-License-Identifier: GPL-2.0
/*
 * Inheritance: events with attr.inherit are cloned into every child task
 * created after them (threads too; with inherit_thread, threads only).  A
 * clone ("child event") counts its task and reports to the event it was
 * cloned from ("parent", always the top-level event the user opened): the
 * parent's read adds the counts of its live children, and a child's final
 * count is folded into parent->child_count when its task exits.
 *
 * Locking: parent->child_mutex guards parent->child_list and is taken
 * before any ctx->mutex; nobody takes a child_mutex while holding a
 * ctx->mutex.  A child holds a reference on its parent (parent->refcount),
 * so a parent outlives its children.  Whoever takes a child off its
 * parent's list, under child_mutex, removes it from its context and puts
 * the context's reference on it: the parent's release or the child task's
 * exit, never both.  A fork holds a reference on each clone it makes until
 * it is done with it (a leader's, until its members have joined it), and
 * joins a member to its leader under the new context's mutex only while
 * the leader is in the context.
 */
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "internal.h"

/*
 * An inheritable event of the parent task's context, in group order: a
 * leader is followed by its siblings.
 */
struct inherit_item {
	struct perf_event *event;
	bool leader;
	unsigned int generation;	/* a leader's group_generation */
};

static bool inherits(struct perf_event *event, u64 clone_flags)
{
	if (!event->attr.inherit)
		return false;
	if (event->attr.inherit_thread && !(clone_flags & CLONE_THREAD))
		return false;
	/*
	 * A child whose handlers are reset to SIG_DFL would be killed by the
	 * first SIGTRAP of a sigtrap event: such events stay with the parent.
	 */
	if (event->attr.sigtrap && (clone_flags & CLONE_CLEAR_SIGHAND))
		return false;
	return event->state > PERF_EVENT_STATE_EXIT;
}

static struct perf_event *top_parent(struct perf_event *event)
{
	return event->parent ?: event;
}

/*
 * Join @event, a clone not yet in its context, to @leader's group, if that
 * is still in the context: a parent's release may have taken the leader's
 * clone out meanwhile (the caller's reference keeps it in memory).
 * ctx->mutex held.  Returns 0, 1 if the leader is gone, or -errno.
 */
static int install_member(struct perf_event *event, struct perf_event *leader)
{
	int ret;

	lockdep_assert_held(&event->ctx->mutex);
	if (!(leader->attach_state & PERF_ATTACH_CONTEXT))
		return 1;
	/* a hardware member takes a software group to its PMU */
	ret = perf_group_adopt(event);
	if (!ret) {
		event->attach_state |= PERF_ATTACH_CHILD;
		perf_event_install_new(event);
	}
	return ret;
}

/*
 * Clone @parent (the top-level event) into @ctx of @child under @leader;
 * the clone starts off if the event it copies (@copied) is off, on if it
 * is on.  Returns the clone with a reference for the caller (from the
 * moment it is on its parent's list, the parent's release may take it
 * away), NULL if the parent, or the leader's, is being released, or an
 * ERR_PTR.
 */
static struct perf_event *inherit_one(struct perf_event *parent,
				      struct perf_event *copied,
				      struct perf_event_context *ctx,
				      struct task_struct *child,
				      struct perf_event *leader,
				      unsigned int generation)
{
	struct perf_event *event;
	bool dying;
	int ret;

	/*
	 * A member's PMU validates the group by walking the leader's
	 * siblings, which the release of any member's parent may unlink: its
	 * event_init runs under ctx->mutex (pmu_event_init()), the rest of
	 * the allocation, which may take cpu_hotplug_lock, outside it.  The
	 * member then joins under ctx->mutex while the leader is there.
	 */
	event = perf_event_alloc_child(parent, child, leader);
	if (IS_ERR(event))
		return event;
	perf_addr_filters_inherit(event, copied);
	/*
	 * The clone is on or off as the event it copies is now, whatever
	 * attr.disabled said when the parent was opened (enable_on_exec and
	 * the ENABLE ioctl leave the attr as it was).
	 */
	if (copied->state >= PERF_EVENT_STATE_INACTIVE)
		event->state = PERF_EVENT_STATE_INACTIVE;
	else
		event->state = PERF_EVENT_STATE_OFF;
	/* which version of the group a leader's clone copies (read.c) */
	if (!leader)
		event->group_generation = generation;
	refcount_inc(&ctx->refcount);
	if (leader)
		mutex_lock(&ctx->mutex);
	ret = perf_event_attach(event, ctx);
	if (ret) {
		if (leader)
			mutex_unlock(&ctx->mutex);
		perf_ctx_put(ctx);
		perf_event_free(event);
		return ERR_PTR(ret);
	}
	if (leader) {
		ret = install_member(event, leader);
		mutex_unlock(&ctx->mutex);
		if (ret) {
			perf_event_free(event);
			return ret < 0 ? ERR_PTR(ret) : NULL;
		}
	} else {
		/* the child does not run yet: its context cannot be live */
		event->attach_state |= PERF_ATTACH_CHILD;
		perf_event_install_new(event);
	}

	mutex_lock(&parent->child_mutex);
	dying = parent->attach_state & PERF_ATTACH_DYING;
	if (!dying) {
		atomic_long_inc(&event->refcount);	/* the caller's */
		list_add_tail(&event->child_list, &parent->child_list);
	}
	mutex_unlock(&parent->child_mutex);
	if (dying) {
		mutex_lock(&ctx->mutex);
		perf_event_remove(event);
		mutex_unlock(&ctx->mutex);
		perf_event_free(event);
		return NULL;
	}
	return event;
}

/*
 * Clone the collected events into @ctx, group by group.  A leader's clone
 * is held until its members have joined it.
 */
static int inherit_items(struct inherit_item *items, int nr,
			 struct perf_event_context *ctx,
			 struct task_struct *child)
{
	struct perf_event *leader = NULL, *event;
	int i, ret = 0;

	for (i = 0; i < nr; i++) {
		struct perf_event *copied = items[i].event;

		if (items[i].leader) {
			if (leader)
				perf_event_put(leader);
			leader = NULL;
		} else if (!leader) {
			continue;	/* its leader was not cloned */
		}
		event = inherit_one(top_parent(copied), copied, ctx, child,
				    leader, items[i].generation);
		if (IS_ERR(event)) {
			ret = PTR_ERR(event);
			break;
		}
		if (items[i].leader)
			leader = event;
		else if (event)
			perf_event_put(event);
		/* a task may hold as many events as its file limit */
		cond_resched();
	}
	if (leader)
		perf_event_put(leader);
	return ret;
}

/* How many events of @pctx a fork copies: its inheritable groups, whole. */
static int count_items(struct perf_event_context *pctx, u64 clone_flags)
{
	struct perf_event *event;
	int nr = 0;

	lockdep_assert_held(&pctx->mutex);
	list_for_each_entry(event, &pctx->event_list, event_entry) {
		if (event->group_leader == event && inherits(event, clone_flags))
			nr += 1 + event->nr_siblings;
	}
	return nr;
}

/*
 * Take references on the inheritable events of @pctx, so that they can be
 * cloned after pctx->mutex is dropped (child_mutex nests outside it): an
 * inherited one may be taken out and put by its parent's release
 * meanwhile, and it holds its parent.  Returns the number of items, or
 * -errno.
 *
 * The array is sized by the events the fork clones, not by all the events
 * of the context (a task may hold as many as its file limit allows), and
 * is never one physically contiguous block of high order: each clone costs
 * far more than its item, so this is a small part of what the fork
 * allocates anyway.
 */
static int collect_items(struct perf_event_context *pctx, u64 clone_flags,
			 struct inherit_item **out)
{
	struct perf_event *event, *sibling;
	struct inherit_item *items;
	int nr = 0, max, i;

	mutex_lock(&pctx->mutex);
	max = count_items(pctx, clone_flags);
	if (!max) {
		mutex_unlock(&pctx->mutex);
		return 0;
	}
	items = kvcalloc(max, sizeof(*items), GFP_KERNEL_ACCOUNT);
	if (!items) {
		mutex_unlock(&pctx->mutex);
		return -ENOMEM;
	}
	list_for_each_entry(event, &pctx->event_list, event_entry) {
		if (event->group_leader != event || !inherits(event, clone_flags))
			continue;
		items[nr].event = event;
		items[nr].generation = event->group_generation;
		items[nr++].leader = true;
		list_for_each_entry(sibling, &event->sibling_list, sibling_list)
			items[nr++].event = sibling;
	}
	for (i = 0; i < nr; i++)
		perf_event_get_live(items[i].event);
	mutex_unlock(&pctx->mutex);
	*out = items;
	return nr;
}

static void release_items(struct inherit_item *items, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		perf_event_put(items[i].event);
	kvfree(items);
}

/*
 * fork: give @child a context of its own with a clone of every inheritable
 * group of the parent task.  On failure nothing is left: copy_process()
 * calls perf_event_free_task() only when a later step fails.
 */
int perf_event_init_task(struct task_struct *child, u64 clone_flags)
{
	struct perf_event_context *pctx = current->perf_event_ctxp;
	struct perf_event_context *ctx;
	struct inherit_item *items;
	int nr, ret;

	child->perf_event_ctxp = NULL;
	mutex_init(&child->perf_event_mutex);
	INIT_LIST_HEAD(&child->perf_event_list);
	if (!pctx)
		return 0;

	nr = collect_items(pctx, clone_flags, &items);
	if (nr <= 0)
		return nr;
	ctx = perf_ctx_get_task(child);
	if (IS_ERR(ctx)) {
		ret = PTR_ERR(ctx);
		goto out;
	}
	ret = inherit_items(items, nr, ctx, child);
	perf_ctx_put(ctx);		/* the child task keeps its own */
	if (ret)
		perf_event_free_task(child);	/* the clones made so far */
out:
	release_items(items, nr);
	return ret;
}

/* Add a dead child's final count and times to its parent. */
static void fold_into_parent(struct perf_event *event)
{
	struct perf_event *parent = event->parent;

	atomic64_add(local64_read(&event->count) +
		     atomic64_read(&event->child_count), &parent->child_count);
	atomic64_add(event->total_time_enabled,
		     &parent->child_total_time_enabled);
	atomic64_add(event->total_time_running,
		     &parent->child_total_time_running);
}

/*
 * The next inherited event of @ctx not yet handed back, with a reference
 * on its parent in *@parent: any, of a dead context; with @exited, only
 * those that exec took off (PERF_EVENT_STATE_EXIT) in a live one.
 */
static struct perf_event *next_child(struct perf_event_context *ctx,
				     struct perf_event **parent, bool exited)
{
	struct perf_event *event, *found = NULL;

	mutex_lock(&ctx->mutex);
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (exited && event->state != PERF_EVENT_STATE_EXIT)
			continue;
		if (event->attach_state & PERF_ATTACH_CHILD) {
			event->attach_state &= ~PERF_ATTACH_CHILD;
			*parent = event->parent;
			atomic_long_inc(&(*parent)->refcount);
			found = event;
			break;
		}
	}
	mutex_unlock(&ctx->mutex);
	return found;
}

/*
 * Take @event off @parent's list if it is still there; child_mutex held.
 * Only two paths take a child off: this one, for the child's own context,
 * and the parent's release, which first marks the parent dying and takes
 * all of them at once.  So a child of a parent not dying is on its list,
 * and one of a dying parent belongs to the release (and may be gone).
 */
static bool claim_child(struct perf_event *parent, struct perf_event *event)
{
	lockdep_assert_held(&parent->child_mutex);
	if (parent->attach_state & PERF_ATTACH_DYING)
		return false;
	list_del_init(&event->child_list);
	return true;
}

/* Hand back the inherited events next_child() finds: see there. */
static void hand_back(struct perf_event_context *ctx, bool exited)
{
	struct perf_event *event, *parent;
	bool mine;

	while ((event = next_child(ctx, &parent, exited))) {
		mutex_lock(&parent->child_mutex);
		mine = claim_child(parent, event);
		if (mine)
			fold_into_parent(event);
		mutex_unlock(&parent->child_mutex);
		if (mine) {
			mutex_lock(&ctx->mutex);
			perf_event_remove(event);
			mutex_unlock(&ctx->mutex);
			perf_event_put(event);
		}
		perf_event_put(parent);
		cond_resched();
	}
}

/*
 * After a task's context was detached: fold every inherited event into
 * its parent and free it, unless the parent's release got to it first.
 */
void perf_inherit_exit(struct perf_event_context *ctx)
{
	hand_back(ctx, false);
}

/*
 * After exec took the remove_on_exec events off the live context of the
 * current task: the inherited ones go back to their parents as at exit.
 * Left in the context, each would stay on its parent's child list (every
 * ENABLE of the parent would visit it) and keep the context busy at every
 * switch of a task that no longer counts anything.
 */
void perf_inherit_exec(struct perf_event_context *ctx)
{
	hand_back(ctx, true);
}

/*
 * The parent is being released: no child may be added any more; take the
 * children off its list and free them.  Called with no ctx->mutex held.
 */
void perf_inherit_release(struct perf_event *parent)
{
	struct perf_event *event, *tmp;
	LIST_HEAD(children);

	mutex_lock(&parent->child_mutex);
	parent->attach_state |= PERF_ATTACH_DYING;
	list_splice_init(&parent->child_list, &children);
	mutex_unlock(&parent->child_mutex);

	list_for_each_entry_safe(event, tmp, &children, child_list) {
		struct perf_event_context *ctx = event->ctx;

		list_del_init(&event->child_list);
		mutex_lock(&ctx->mutex);
		perf_event_remove(event);
		mutex_unlock(&ctx->mutex);
		perf_event_put(event);
		cond_resched();
	}
}

/*
 * Add the live children's counts and times to @value, @enabled and
 * @running; @parent->child_mutex held.
 */
u64 perf_inherit_read(struct perf_event *parent, u64 *enabled, u64 *running)
{
	struct perf_event *event;
	u64 value = 0;

	lockdep_assert_held(&parent->child_mutex);
	list_for_each_entry(event, &parent->child_list, child_list) {
		u64 e, r;

		mutex_lock(&event->ctx->mutex);
		value += perf_event_read_count(event, &e, &r);
		mutex_unlock(&event->ctx->mutex);
		*enabled += e;
		*running += r;
	}
	return value;
}

/* Apply @op to every child of @parent, as the ioctls do to the parent. */
void perf_inherit_apply(struct perf_event *parent,
			void (*op)(struct perf_event *event))
{
	struct perf_event *event;

	mutex_lock(&parent->child_mutex);
	list_for_each_entry(event, &parent->child_list, child_list) {
		mutex_lock(&event->ctx->mutex);
		op(event);
		mutex_unlock(&event->ctx->mutex);
	}
	mutex_unlock(&parent->child_mutex);
}
