// SPDX-License-Identifier: GPL-2.0
/*
 * Reading counts: bringing an event (or its group) up to date where it is
 * live, and the read() layouts of PERF_FORMAT_* for single events and
 * groups.
 *
 * Locking: callers hold ctx->mutex; the update runs under ctx->lock through
 * perf_ctx_call(), on the CPU where the context is live.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "internal.h"

static int entry_words(u64 format)
{
	return 1 + !!(format & PERF_FORMAT_ID) + !!(format & PERF_FORMAT_LOST);
}

static int time_words(u64 format)
{
	return !!(format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
	       !!(format & PERF_FORMAT_TOTAL_TIME_RUNNING);
}

/* Bytes of a read() in @format of @nr events (a group's, or one). */
static int read_bytes(u64 format, int nr)
{
	int words = time_words(format) + nr * entry_words(format);

	return (words + !!(format & PERF_FORMAT_GROUP)) * sizeof(u64);
}

/* Bytes read() returns for @event with its current group. */
int perf_read_size(struct perf_event *event)
{
	u64 format = event->attr.read_format;

	if (format & PERF_FORMAT_GROUP)
		return read_bytes(format, 1 + event->group_leader->nr_siblings);
	return read_bytes(format, 1);
}

/*
 * Whether @event's read still fits, with @nr events in its group, with a
 * record header in PERF_GROUP_RECORD_MAX bytes: the bound leaves the rest
 * of a sample (its fixed fields, callchain, registers; the stack dump and
 * AUX snapshot take only what is left) well inside the u16 size.
 */
static bool group_member_fits(struct perf_event *event, int nr)
{
	u64 format = event->attr.read_format;
	int size;

	size = read_bytes(format, format & PERF_FORMAT_GROUP ? nr : 1);
	return size + sizeof(struct perf_event_header) <= PERF_GROUP_RECORD_MAX;
}

/**
 * perf_group_size_check - may @event join its group?
 * @event: a new member, attached but not installed yet
 *
 * A group's read() and every PERF_SAMPLE_READ sample carry all its
 * members, in a record whose size is a u16.  Each member, the new one
 * included, must keep its read size under the bound with the group one
 * larger (the ABI's limit, which does not count the fixed fields).  Caller
 * holds ctx->mutex, which fixes the group.
 *
 * Return: 0, or -E2BIG.
 */
int perf_group_size_check(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *member;
	int nr = leader->nr_siblings + 2;

	lockdep_assert_held(&event->ctx->mutex);
	if (!group_member_fits(event, nr) || !group_member_fits(leader, nr))
		return -E2BIG;
	for_each_sibling_event(member, leader)
		if (!group_member_fits(member, nr))
			return -E2BIG;
	return 0;
}

static void update_one(struct perf_event *event, bool live)
{
	if (live && event->state == PERF_EVENT_STATE_ACTIVE &&
	    event->oncpu == smp_processor_id())
		event->pmu->read(event);
	perf_event_update_time(event);
}

static void read_fn(struct perf_event_context *ctx, struct perf_event *event,
		    void *group, bool live)
{
	struct perf_event *sibling;

	if (!group) {
		update_one(event, live);
		return;
	}
	update_one(event, live);
	list_for_each_entry(sibling, &event->sibling_list, sibling_list)
		update_one(sibling, live);
}

static u64 event_value(struct perf_event *event)
{
	return local64_read(&event->count) +
	       atomic64_read(&event->child_count);
}

/* The event's count and times, brought up to date; ctx->mutex held. */
u64 perf_event_read_count(struct perf_event *event, u64 *enabled,
			  u64 *running)
{
	lockdep_assert_held(&event->ctx->mutex);
	perf_ctx_call(event->ctx, event, read_fn, NULL);
	*enabled = event->total_time_enabled +
		   atomic64_read(&event->child_total_time_enabled);
	*running = event->total_time_running +
		   atomic64_read(&event->child_total_time_running);
	return event_value(event);
}

/**
 * perf_event_read_value - read an event's count and times
 * @event: the event (a kernel counter, as a rule)
 * @enabled: set to its total time enabled, in ns
 * @running: set to its total time running, in ns
 *
 * What read() of @event would report: its count brought up to date on
 * the CPU where it is active, plus the counts of its inherited clones,
 * live and exited; the times add up the same way.  The counts are not
 * scaled for multiplexing: @enabled and @running are for the caller to do
 * so.
 *
 * Context: process context, may sleep; takes @event's child_mutex (and
 * each live clone's ctx->mutex inside it), then @event's ctx->mutex.
 *
 * Return: the count.
 */
u64 perf_event_read_value(struct perf_event *event, u64 *enabled,
			  u64 *running)
{
	struct perf_event_context *ctx;
	u64 value, e = 0, r = 0;

	mutex_lock(&event->child_mutex);
	value = perf_inherit_read(event, &e, &r);
	mutex_unlock(&event->child_mutex);
	ctx = perf_event_ctx_lock(event);
	value += perf_event_read_count(event, enabled, running);
	mutex_unlock(&ctx->mutex);
	*enabled += e;
	*running += r;
	return value;
}
EXPORT_SYMBOL_GPL(perf_event_read_value);

/*
 * What read() reports for one member of a group (or the event itself):
 * its own count plus the counts of its clones in live child tasks.
 */
struct read_member {
	struct perf_event *event;
	u64 children;
};

static u64 *put_times(u64 *p, struct perf_event *event, u64 format,
		      u64 child_enabled, u64 child_running)
{
	if (format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		*p++ = event->total_time_enabled + child_enabled +
		       atomic64_read(&event->child_total_time_enabled);
	if (format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		*p++ = event->total_time_running + child_running +
		       atomic64_read(&event->child_total_time_running);
	return p;
}

/* A group member's entry: value (with @children's), id, lost. */
static u64 *put_entry(u64 *p, struct perf_event *event, u64 children,
		      u64 format)
{
	*p++ = event_value(event) + children;
	if (format & PERF_FORMAT_ID)
		*p++ = event->id;
	if (format & PERF_FORMAT_LOST)
		*p++ = atomic64_read(&event->lost_samples);
	return p;
}

/* The layout without PERF_FORMAT_GROUP: value, times, id, lost. */
static void put_single(u64 *p, struct perf_event *event, u64 format,
		       u64 children, u64 child_enabled, u64 child_running)
{
	*p++ = event_value(event) + children;
	p = put_times(p, event, format, child_enabled, child_running);
	if (format & PERF_FORMAT_ID)
		*p++ = event->id;
	if (format & PERF_FORMAT_LOST)
		*p = atomic64_read(&event->lost_samples);
}

/*
 * Fill @values with the read() layout of @event (@members[0], or its
 * group); the live children were summed already.  ctx->mutex held.
 */
static void fill_values(struct perf_event *event, struct read_member *members,
			int nr, u64 child_enabled, u64 child_running,
			u64 *values)
{
	u64 format = event->attr.read_format;
	u64 *p = values;
	int i;

	lockdep_assert_held(&event->ctx->mutex);
	if (!(format & PERF_FORMAT_GROUP)) {
		perf_ctx_call(event->ctx, event, read_fn, NULL);
		put_single(p, event, format, members[0].children,
			   child_enabled, child_running);
		return;
	}
	perf_ctx_call(event->ctx, members[0].event, read_fn, (void *)1);
	*p++ = nr;
	p = put_times(p, members[0].event, format, child_enabled,
		      child_running);
	for (i = 0; i < nr; i++)
		p = put_entry(p, members[i].event, members[i].children, format);
}

static ssize_t read_members(struct perf_event *event,
			    struct read_member *members, int nr,
			    char __user *buf, size_t count)
{
	u64 format = event->attr.read_format;
	u64 enabled = 0, running = 0;
	u64 stack[5], *values = stack;
	struct perf_event_context *ctx;
	ssize_t size;
	int i;

	/* children first: their child_mutex nests outside ctx->mutex */
	for (i = 0; i < nr; i++) {
		u64 e = 0, r = 0;

		mutex_lock(&members[i].event->child_mutex);
		members[i].children = perf_inherit_read(members[i].event, &e, &r);
		mutex_unlock(&members[i].event->child_mutex);
		if (!i) {
			enabled = e;
			running = r;
		}
	}
	size = read_bytes(format, nr);
	if (count < size)
		return -ENOSPC;
	if (size > sizeof(stack)) {
		values = kmalloc(size, GFP_KERNEL);
		if (!values)
			return -ENOMEM;
	}
	ctx = perf_event_ctx_lock(event);
	/* a pinned group that could not be scheduled reads as end of file */
	if (event->state == PERF_EVENT_STATE_ERROR)
		size = 0;
	else
		fill_values(event, members, nr, enabled, running, values);
	mutex_unlock(&ctx->mutex);
	if (size && copy_to_user(buf, values, size))
		size = -EFAULT;
	if (values != stack)
		kfree(values);
	return size;
}

/* The most read_direct() puts together: a group of 16 with every field */
#define READ_DIRECT_WORDS	(3 + 16 * 3)

/* Does a member of @event's read (its group, or itself) inherit? */
static bool read_inherits(struct perf_event *event, u64 format)
{
	struct perf_event *leader = event->group_leader, *sibling;

	if (!(format & PERF_FORMAT_GROUP))
		return event->attr.inherit;
	if (leader->attr.inherit)
		return true;
	for_each_sibling_event(sibling, leader) {
		if (sibling->attr.inherit)
			return true;
	}
	return false;
}

/*
 * read() when no member inherits, the common case: there are no children
 * to sum, so it all happens under one ctx->mutex, into a buffer on the
 * stack (no allocation, no references taken).  -EAGAIN where it does not
 * apply: inherited members, or a group too big for the buffer.
 */
static ssize_t read_direct(struct perf_event *event, char __user *buf,
			   size_t count)
{
	u64 format = event->attr.read_format;
	/* only the bytes written are copied out: no need to clear it */
	u64 values[READ_DIRECT_WORDS] __uninitialized, *p = values;
	struct perf_event *leader, *sibling;
	struct perf_event_context *ctx;
	ssize_t size;

	ctx = perf_event_ctx_lock(event);
	leader = event->group_leader;
	size = perf_read_size(event);
	if (size > sizeof(values) || read_inherits(event, format)) {
		size = -EAGAIN;
		goto unlock;
	}
	if (count < size) {
		size = -ENOSPC;
		goto unlock;
	}
	/* a pinned group that could not be scheduled reads as end of file */
	if (event->state == PERF_EVENT_STATE_ERROR) {
		size = 0;
		goto unlock;
	}
	if (!(format & PERF_FORMAT_GROUP)) {
		perf_ctx_call(ctx, event, read_fn, NULL);
		put_single(p, event, format, 0, 0, 0);
		goto unlock;
	}
	perf_ctx_call(ctx, leader, read_fn, (void *)1);
	*p++ = 1 + leader->nr_siblings;
	p = put_times(p, leader, format, 0, 0);
	p = put_entry(p, leader, 0, format);
	for_each_sibling_event(sibling, leader)
		p = put_entry(p, sibling, 0, format);
unlock:
	mutex_unlock(&ctx->mutex);
	if (size > 0 && copy_to_user(buf, values, size))
		size = -EFAULT;
	return size;
}

/*
 * A group whose leader has live clones that copied another version of it
 * (a member joined or left after their fork) cannot be read whole: the
 * clones' counts are not those of the members read.  -ECHILD until those
 * children are gone.  The leader's group_generation counts the
 * changes of its group; a clone keeps the one it copied (inherit.c).
 */
static int group_clones_match(struct perf_event *leader)
{
	struct perf_event_context *ctx;
	struct perf_event *child;
	int ret = 0;

	if (!leader->attr.inherit)
		return 0;
	mutex_lock(&leader->child_mutex);
	ctx = perf_event_ctx_lock(leader);
	list_for_each_entry(child, &leader->child_list, child_list) {
		if (READ_ONCE(child->group_generation) !=
		    leader->group_generation) {
			ret = -ECHILD;
			break;
		}
	}
	mutex_unlock(&ctx->mutex);
	mutex_unlock(&leader->child_mutex);
	return ret;
}

ssize_t perf_read_format(struct perf_event *event, char __user *buf,
			 size_t count)
{
	struct read_member one = { .event = event }, *members;
	struct perf_event **group;
	ssize_t ret;
	int nr, i;

	ret = read_direct(event, buf, count);
	if (ret != -EAGAIN)
		return ret;
	if (!(event->attr.read_format & PERF_FORMAT_GROUP))
		return read_members(event, &one, 1, buf, count);

	group = perf_group_get(event, &nr);
	if (!nr)
		return -ENOMEM;
	ret = group_clones_match(group[0]);
	if (ret) {
		perf_group_put(group, nr);
		return ret;
	}
	members = kcalloc(nr, sizeof(*members), GFP_KERNEL);
	if (!members) {
		perf_group_put(group, nr);
		return -ENOMEM;
	}
	for (i = 0; i < nr; i++)
		members[i].event = group[i];
	ret = read_members(event, members, nr, buf, count);
	kfree(members);
	perf_group_put(group, nr);
	return ret;
}

/*
 * Read an event from any context with IRQs off, as BPF programs do: only
 * an event of the current task or of this CPU can be read this way.
 */
int perf_event_read_local(struct perf_event *event, u64 *value,
			  u64 *enabled, u64 *running)
{
	unsigned long flags;
	int ret = 0;

	local_irq_save(flags);
	if (event->attr.inherit) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	if ((event->attach_state & PERF_ATTACH_TASK) &&
	    event->hw.target != current) {
		ret = -EINVAL;
		goto out;
	}
	if (!(event->attach_state & PERF_ATTACH_TASK) &&
	    event->cpu != smp_processor_id()) {
		ret = -EINVAL;
		goto out;
	}
	if (event->oncpu == smp_processor_id())
		event->pmu->read(event);
	*value = local64_read(&event->count);
	if (enabled)
		*enabled = event->total_time_enabled;
	if (running)
		*running = event->total_time_running;
out:
	local_irq_restore(flags);
	return ret;
}
