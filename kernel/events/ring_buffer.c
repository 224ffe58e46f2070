// SPDX-License-Identifier: GPL-2.0
/*
 * The data ring buffer of sampling events: one user page followed by a
 * power of two of data pages, mapped by user space (mmap.c).  Records are
 * reserved, copied and published here.  The data pages are one
 * physically contiguous run where the page allocator has one free at once,
 * else a vmalloc area: either way the kernel writes through one linear
 * address.
 *
 * Positions are byte counts that only grow (forward buffers) or only
 * shrink (write_backward); the offset into the data area is the position
 * modulo the size.  A writer reserves room with a cmpxchg on rb->head, so
 * writers that interrupt each other on one CPU (task, IRQ, NMI) each get
 * their own room.  Only the outermost writer publishes data_head, after all
 * the data before it is written: nested writers leave that to it.
 *
 * Locking: none on the write side, which runs with preemption off on the
 * CPU where the writing event is active; all events that share a buffer
 * are bound to one CPU or one task, so one CPU writes at a time.
 * rb->event_lock (IRQs off; never taken in NMI) guards rb->event_list, and
 * its walkers hold it.  The buffer is freed after an RCU
 * grace period once its last reference (each attached event, each
 * mapping) is gone.
 */
#include <linux/irq_work.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "internal.h"

/*
 * The data pages: one contiguous run (a power of two of pages), only if
 * the page allocator has it free now: no reclaim or compaction on behalf
 * of an mmap(), which a vmalloc area serves as well.  A run needs no
 * vmalloc area, page array or vmap_area (264 bytes a buffer on x86_64)
 * and no kernel mapping of its own.
 */
static void *rb_alloc_data(struct perf_buffer *rb, unsigned long size)
{
	gfp_t gfp = (GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN) &
		    ~__GFP_DIRECT_RECLAIM;
	void *data = NULL;

	if (get_order(size) <= MAX_PAGE_ORDER)
		data = alloc_pages_exact(size, gfp);
	if (data)
		return data;
	rb->vmalloced = true;
	return vmalloc_user(size);
}

static void rb_free_pages(struct perf_buffer *rb)
{
	free_page((unsigned long)rb->user_page);
	if (!rb->size)
		return;
	if (rb->vmalloced)
		vfree(rb->data);
	else
		free_pages_exact(rb->data, rb->size);
}

/* The page @pgoff of @rb's mapping: 0 is the user page, then the data. */
struct page *perf_rb_page(struct perf_buffer *rb, unsigned long pgoff)
{
	void *addr;

	if (!pgoff)
		return virt_to_page(rb->user_page);
	addr = rb->data + ((pgoff - 1) << PAGE_SHIFT);
	return rb->vmalloced ? vmalloc_to_page(addr) : virt_to_page(addr);
}

struct perf_buffer *perf_rb_alloc(int nr_pages, long watermark,
				  bool overwrite)
{
	struct perf_buffer *rb;

	rb = kzalloc(sizeof(*rb), GFP_KERNEL);
	if (!rb)
		return NULL;
	rb->nr_pages = nr_pages;
	rb->size = (unsigned long)nr_pages << PAGE_SHIFT;
	rb->user_page = (void *)get_zeroed_page(GFP_KERNEL);
	if (rb->user_page && rb->size)
		rb->data = rb_alloc_data(rb, rb->size);
	if (!rb->user_page || (rb->size && !rb->data)) {
		free_page((unsigned long)rb->user_page);
		kfree(rb);
		return NULL;
	}
	rb->overwrite = overwrite;
	/* without attr.watermark, wake up when half the buffer is full */
	rb->watermark = watermark ? min_t(unsigned long, watermark, rb->size) :
				    rb->size / 2;
	refcount_set(&rb->refcount, 1);
	spin_lock_init(&rb->event_lock);
	INIT_LIST_HEAD(&rb->event_list);
	perf_aux_init(rb);
	return rb;
}

static void rb_free_rcu(struct rcu_head *head)
{
	struct perf_buffer *rb = container_of(head, struct perf_buffer,
					      rcu_head);

	rb_free_pages(rb);
	kfree(rb);
}

void perf_rb_put(struct perf_buffer *rb)
{
	if (refcount_dec_and_test(&rb->refcount))
		call_rcu(&rb->rcu_head, rb_free_rcu);
}

/*
 * Make @rb the output of @event, taking a reference; mmap_mutex held.  The
 * list is walked only under rb->event_lock, so an event's entry may move
 * to another buffer's list at once: no walker can be on it meanwhile.
 */
void perf_rb_attach(struct perf_event *event, struct perf_buffer *rb)
{
	unsigned long flags;

	refcount_inc(&rb->refcount);
	spin_lock_irqsave(&rb->event_lock, flags);
	list_add(&event->rb_entry, &rb->event_list);
	spin_unlock_irqrestore(&rb->event_lock, flags);
	rcu_assign_pointer(event->rb, rb);
	perf_event_update_userpage(event);
}

/* Undo perf_rb_attach(); mmap_mutex held. */
void perf_rb_detach(struct perf_event *event)
{
	struct perf_buffer *rb = event->rb;
	unsigned long flags;

	if (!rb)
		return;
	spin_lock_irqsave(&rb->event_lock, flags);
	list_del_init(&event->rb_entry);
	spin_unlock_irqrestore(&rb->event_lock, flags);
	RCU_INIT_POINTER(event->rb, NULL);
	/* a waiter on the event must see that the buffer is gone */
	wake_up_all(&event->waitq);
	perf_rb_put(rb);
}

/* The buffer @event writes into, referenced, or NULL. */
struct perf_buffer *perf_event_rb_get(struct perf_event *event)
{
	struct perf_buffer *rb;

	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (rb && !refcount_inc_not_zero(&rb->refcount))
		rb = NULL;
	rcu_read_unlock();
	return rb;
}

/*
 * Wake every poller of @rb, through all the events that write into it.
 * Signals to fasync owners are the overflowing event's business.
 */
void perf_rb_wakeup(struct perf_buffer *rb)
{
	struct perf_event *event;

	unsigned long flags;

	atomic_set(&rb->poll, EPOLLIN | EPOLLRDNORM);
	spin_lock_irqsave(&rb->event_lock, flags);
	list_for_each_entry(event, &rb->event_list, rb_entry)
		wake_up_all(&event->waitq);
	spin_unlock_irqrestore(&rb->event_lock, flags);
}

/* Ask for a wakeup of @handle's readers when the record is published. */
static void rb_want_wakeup(struct perf_output_handle *handle)
{
	handle->wakeup = 1;
}

/*
 * The buffer that records of @event go to (its parent's, for an inherited
 * event), under RCU; NULL where there is none with data pages: records of
 * such an event are dropped without counting a loss.
 */
struct perf_buffer *perf_output_buffer(struct perf_event *event)
{
	struct perf_buffer *rb = rcu_dereference((event->parent ?: event)->rb);

	return rb && rb->nr_pages ? rb : NULL;
}

/*
 * Whether @len more bytes fit between our position @pos and the reader's
 * @tail (from the user page) in @rb, a buffer user space frees.  The
 * reader may write anything to data_tail: only its offset within the
 * buffer is taken, as the reader's position at most one buffer behind
 * ours, and the buffer is never filled to the last byte, so that a tail
 * equal to our position (modulo the size) always means empty.  A garbage
 * tail thus costs the reader records, never a write outside the buffer.
 */
static bool rb_has_room(struct perf_buffer *rb, unsigned long pos,
			unsigned long tail, unsigned long len, bool backward)
{
	unsigned long used;

	used = (backward ? tail - pos : pos - tail) & (rb->size - 1);
	return len < rb->size - used;
}

/*
 * Reserve @size bytes in @rb, the buffer of @event, under RCU.  A record
 * lost for room or while the buffer is paused is counted and reported by a
 * PERF_RECORD_LOST later.
 */
static int output_reserve(struct perf_output_handle *handle,
			  struct perf_event *event, struct perf_buffer *rb,
			  unsigned int size, bool backward)
{
	/* the buffer's owner: the event, or the parent of an inherited one */
	struct perf_event *owner = event->parent ?: event;
	unsigned long tail, head, pos;
	unsigned int lost_size = 0;
	long lost;

	handle->rb = rb;
	handle->event = owner;
	handle->wakeup = 0;
	if (atomic_read(&rb->paused))
		goto lost;

	local_inc(&rb->nest);
	lost = atomic_long_read(&rb->lost);
	if (lost) {
		lost_size = sizeof(struct perf_event_header) + 2 * sizeof(u64);
		if (owner->attr.sample_id_all)
			lost_size += owner->id_header_size;
	}
	do {
		pos = local_read(&rb->head);
		if (!rb->overwrite) {
			tail = READ_ONCE(rb->user_page->data_tail);
			if (!rb_has_room(rb, pos, tail, size + lost_size,
					 backward))
				goto fail;
		}
		head = backward ? pos - size - lost_size :
				  pos + size + lost_size;
	} while (local_cmpxchg(&rb->head, pos, head) != pos);
	/*
	 * Pairs with the reader's barrier between reading the records and
	 * storing data_tail (a release store in perf_records.h): the room
	 * we write into was read before we saw it freed.
	 */
	smp_mb();

	handle->head = backward ? head : pos;
	handle->size = size + lost_size;
	if ((backward ? rb->wakeup_head - head : head - rb->wakeup_head) >=
	    rb->watermark) {
		rb->wakeup_head = head;
		rb_want_wakeup(handle);
	}
	if (lost_size) {
		lost = atomic_long_xchg(&rb->lost, 0);
		perf_output_lost(handle, owner, lost);
	}
	return 0;

fail:
	local_dec(&rb->nest);
lost:
	/* no room, or paused: for the LOST record and PERF_FORMAT_LOST */
	atomic_long_inc(&rb->lost);
	atomic64_inc(&event->lost_samples);
	return -ENOSPC;
}

/*
 * Reserve @size bytes for a record of @event in @rb, the buffer that the
 * caller found with perf_output_buffer() under its own RCU read lock (one
 * lookup for a sample's checks and its record).  On success the caller
 * copies exactly @size bytes and calls perf_output_end(), which drops the
 * RCU read lock taken here.  Fails when the buffer is paused or has no
 * room.
 */
int perf_output_begin_rb(struct perf_output_handle *handle,
			 struct perf_event *event, struct perf_buffer *rb,
			 unsigned int size, bool backward)
{
	rcu_read_lock();
	if (!output_reserve(handle, event, rb, size, backward))
		return 0;
	rcu_read_unlock();
	return -ENOSPC;
}

/*
 * perf_output_begin_rb() into the buffer of @event, looked up here: for
 * callers that make no check of their own on the buffer first.
 */
static int output_begin(struct perf_output_handle *handle,
			struct perf_event *event, unsigned int size,
			bool backward)
{
	struct perf_buffer *rb;
	int ret = -ENOSPC;

	rcu_read_lock();
	rb = perf_output_buffer(event);
	if (rb)
		ret = perf_output_begin_rb(handle, event, rb, size, backward);
	rcu_read_unlock();
	return ret;
}

/* In the direction of the buffer's owner (the event or its parent). */
int perf_output_begin(struct perf_output_handle *handle,
		      struct perf_sample_data *data,
		      struct perf_event *event, unsigned int size)
{
	bool backward = (event->parent ?: event)->attr.write_backward;

	return output_begin(handle, event, size, backward);
}

/* For callers that know the direction: the default overflow handlers. */
int perf_output_begin_backward(struct perf_output_handle *handle,
			       struct perf_sample_data *data,
			       struct perf_event *event, unsigned int size)
{
	return output_begin(handle, event, size, true);
}

int perf_output_begin_forward(struct perf_output_handle *handle,
			      struct perf_sample_data *data,
			      struct perf_event *event, unsigned int size)
{
	return output_begin(handle, event, size, false);
}

static unsigned long copy_plain(void *dst, const void *src,
				unsigned long off, unsigned long len)
{
	memcpy(dst, src + off, len);
	return 0;
}

/*
 * Copy @len bytes of @buf at the write cursor, in pieces split at the end
 * of the data area, with @copy (which returns what it could not copy); a
 * NULL @copy skips the bytes.  Returns the bytes not copied.
 */
unsigned int perf_output_copy_fn(struct perf_output_handle *handle,
				 perf_copy_f copy, const void *buf,
				 unsigned int len)
{
	struct perf_buffer *rb = handle->rb;
	unsigned int fits = min_t(unsigned int, len, handle->size);
	unsigned int done = 0;
	unsigned long left = 0;

	/* what does not fit in the room reserved counts as not copied */
	while (done < fits && !left) {
		unsigned long off = handle->head & (rb->size - 1);
		unsigned int chunk = min_t(unsigned long, fits - done,
					   rb->size - off);

		if (copy)
			left = copy(rb->data + off, buf, done, chunk);
		done += chunk - left;
		handle->head += chunk - left;
		handle->size -= chunk - left;
	}
	return len - done;
}

/**
 * perf_output_copy - copy bytes into a record being written
 * @handle: a handle from perf_output_begin() (or a variant)
 * @buf: the bytes
 * @len: how many
 *
 * Copy @len bytes of @buf at the write cursor of @handle and advance it,
 * splitting the copy where it wraps around the end of the data area.  A
 * copy does not go past the room reserved by perf_output_begin(): bytes
 * beyond it are dropped.
 *
 * Context: that of the writer holding @handle, up to NMI, with
 * preemption off.
 *
 * Return: the bytes not copied: 0, or those beyond the room reserved.
 */
unsigned int perf_output_copy(struct perf_output_handle *handle,
			      const void *buf, unsigned int len)
{
	struct perf_buffer *rb = handle->rb;
	unsigned long off = handle->head & (rb->size - 1);
	void *dst = rb->data + off;

	/*
	 * Most copies are one u64 of a record (perf_output_put()) and fall
	 * short of the end of the data area: a plain store.
	 */
	if (likely(len <= handle->size && off + len <= rb->size)) {
		if (len == sizeof(u64))
			memcpy(dst, buf, sizeof(u64));
		else
			memcpy(dst, buf, len);
		handle->head += len;
		handle->size -= len;
		return 0;
	}
	return perf_output_copy_fn(handle, copy_plain, buf, len);
}
EXPORT_SYMBOL_GPL(perf_output_copy);

unsigned int perf_output_skip(struct perf_output_handle *handle,
			      unsigned int len)
{
	return perf_output_copy_fn(handle, NULL, NULL, len);
}

/*
 * Publish the data written so far.  The outermost writer of this CPU stores
 * data_head; if a nested writer reserved more room meanwhile, its data is
 * complete by the time it returned to us, so we publish that too.
 */
void perf_output_end(struct perf_output_handle *handle)
{
	struct perf_buffer *rb = handle->rb;
	unsigned long head;

	if (local_read(&rb->nest) > 1) {
		local_dec(&rb->nest);
		goto out;
	}
	for (;;) {
		head = local_read(&rb->head);
		/*
		 * The records before data_head; pairs with the reader's
		 * acquire load of data_head before it reads them.
		 */
		smp_wmb();
		WRITE_ONCE(rb->user_page->data_head, head);
		barrier();
		local_dec(&rb->nest);
		barrier();
		if (likely(local_read(&rb->head) == head))
			break;
		local_inc(&rb->nest);
	}
	if (handle->wakeup) {
		struct perf_event *event = handle->event;

		/* a fasync owner hears of it too, unless told otherwise */
		if (!event->pending_kill)
			event->pending_kill = POLL_IN;
		event->pending_wakeup = 1;
		irq_work_queue(&event->pending_irq);
	}
out:
	rcu_read_unlock();
}

/* Count one sample toward attr.wakeup_events. */
void perf_output_sample_done(struct perf_output_handle *handle)
{
	struct perf_event *event = handle->event;
	u32 every = event->attr.wakeup_events;

	if (event->attr.watermark || !every)
		return;
	if (local_inc_return(&handle->rb->events) >= every) {
		local_sub(every, &handle->rb->events);
		rb_want_wakeup(handle);
	}
}
