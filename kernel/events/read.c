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

/* Bytes read() returns for @event with its current group. */
int perf_read_size(struct perf_event *event)
{
	u64 format = event->attr.read_format;
	int words = time_words(format);

	if (format & PERF_FORMAT_GROUP)
		words += 1 + (1 + event->group_leader->nr_siblings) *
			     entry_words(format);
	else
		words += entry_words(format);
	return words * sizeof(u64);
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
	perf_ctx_call(event->ctx, event, read_fn, NULL);
	*enabled = event->total_time_enabled +
		   atomic64_read(&event->child_total_time_enabled);
	*running = event->total_time_running +
		   atomic64_read(&event->child_total_time_running);
	return event_value(event);
}

u64 perf_event_read_value(struct perf_event *event, u64 *enabled,
			  u64 *running)
{
	u64 value;

	mutex_lock(&event->ctx->mutex);
	value = perf_event_read_count(event, enabled, running);
	mutex_unlock(&event->ctx->mutex);
	return value;
}
EXPORT_SYMBOL_GPL(perf_event_read_value);

static u64 *put_entry(u64 *p, struct perf_event *event, u64 format)
{
	*p++ = event_value(event);
	if (format & PERF_FORMAT_ID)
		*p++ = event->id;
	if (format & PERF_FORMAT_LOST)
		*p++ = atomic64_read(&event->lost_samples);
	return p;
}

static u64 *put_times(u64 *p, struct perf_event *event, u64 format)
{
	if (format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		*p++ = event->total_time_enabled +
		       atomic64_read(&event->child_total_time_enabled);
	if (format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		*p++ = event->total_time_running +
		       atomic64_read(&event->child_total_time_running);
	return p;
}

/* Fill @values with the read() layout; ctx->mutex held. */
static void fill_values(struct perf_event *event, u64 *values)
{
	u64 format = event->attr.read_format;
	struct perf_event *leader = event->group_leader;
	struct perf_event *sibling;
	u64 *p = values;

	if (!(format & PERF_FORMAT_GROUP)) {
		perf_ctx_call(event->ctx, event, read_fn, NULL);
		*p++ = event_value(event);
		p = put_times(p, event, format);
		if (format & PERF_FORMAT_ID)
			*p++ = event->id;
		if (format & PERF_FORMAT_LOST)
			*p++ = atomic64_read(&event->lost_samples);
		return;
	}
	perf_ctx_call(event->ctx, leader, read_fn, (void *)1);
	*p++ = 1 + leader->nr_siblings;
	p = put_times(p, leader, format);
	p = put_entry(p, leader, format);
	list_for_each_entry(sibling, &leader->sibling_list, sibling_list)
		p = put_entry(p, sibling, format);
}

ssize_t perf_read_format(struct perf_event *event, char __user *buf,
			 size_t count)
{
	struct perf_event_context *ctx = event->ctx;
	u64 stack[5], *values = stack;
	ssize_t size;

	mutex_lock(&ctx->mutex);
	/* a pinned group that could not be scheduled reads as end of file */
	if (event->state == PERF_EVENT_STATE_ERROR) {
		size = 0;
		goto out;
	}
	size = perf_read_size(event);
	if (count < size) {
		size = -ENOSPC;
		goto out;
	}
	if (size > sizeof(stack)) {
		values = kmalloc(size, GFP_KERNEL);
		if (!values) {
			size = -ENOMEM;
			goto out;
		}
	}
	fill_values(event, values);
	if (copy_to_user(buf, values, size))
		size = -EFAULT;
	if (values != stack)
		kfree(values);
out:
	mutex_unlock(&ctx->mutex);
	return size;
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
