// SPDX-License-Identifier: GPL-2.0
/*
 * The user-visible side of the ring buffer: mmap() of an event, the
 * memory-lock accounting of perf_event_mlock_kb and RLIMIT_MEMLOCK, the
 * user page (struct perf_event_mmap_page), poll(), and the ioctls that
 * redirect or pause output (SET_OUTPUT, PAUSE_OUTPUT).  Of a buffer only
 * the user page may be writable to user space: the data pages are mapped
 * read-only, and a write to them raises SIGBUS.
 *
 * Locking: event->mmap_mutex serializes changes of event->rb for that
 * event; SET_OUTPUT takes the two events' mmap_mutex in address order.
 * The user page is written under its own sequence count (up->lock) by the
 * CPU where the event is active, or under mmap_mutex before it is.
 */
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/poll.h>
#include <linux/sched/mm.h>
#include <linux/security.h>

#include "internal.h"

void __weak arch_perf_update_userpage(struct perf_event *event,
				      struct perf_event_mmap_page *up, u64 now)
{
}

/*
 * The instant the user page describes.  In a live context, the last update
 * of the context's clock: the times of its events are exact there (every
 * state change since was made at that context time), so a member and its
 * leader that went on and off together read alike, and the reader
 * extrapolates from there with time_offset.  Otherwise this moment.
 */
static u64 userpage_clock(struct perf_event *event)
{
	struct perf_event_context *ctx = event->ctx;

	if (ctx && READ_ONCE(ctx->is_active) && !perf_event_has_cgroup(event))
		return READ_ONCE(ctx->timestamp);
	return perf_clock();
}

/**
 * perf_event_update_userpage - refresh the user page of an event's buffer
 * @event: the event, mapped or not (nothing is done without a buffer)
 *
 * Bring the user page of @event's buffer up to date: the index and offset
 * a self-monitoring reader combines with the hardware counter, and the
 * times it extrapolates from, and the arch's own fields
 * (arch_perf_update_userpage()), all inside the page's sequence count
 * (lock), on which the reader retries.  index is 0 unless the event is
 * active on a PMU that gives user space a counter index.
 *
 * Context: any, IRQs or NMI included.  The offset is exact only on the
 * CPU where @event is active, or while it is not.
 */
void perf_event_update_userpage(struct perf_event *event)
{
	struct perf_event_mmap_page *up;
	struct perf_buffer *rb;
	u64 enabled, running, now;
	u32 index = 0;

	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (!rb)
		goto out;
	up = rb->user_page;
	now = userpage_clock(event);
	perf_event_times_at(event, now, &enabled, &running);
	if (event->state == PERF_EVENT_STATE_ACTIVE && event->pmu->event_idx)
		index = event->pmu->event_idx(event);

	preempt_disable();
	++up->lock;
	barrier();
	up->index = index;
	up->offset = local64_read(&event->count) +
		     atomic64_read(&event->child_count);
	if (index)
		up->offset -= local64_read(&event->hw.prev_count);
	up->time_enabled = enabled;
	up->time_running = running;
	up->time_offset = -now;
	arch_perf_update_userpage(event, up, now);
	barrier();
	++up->lock;
	preempt_enable();
out:
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(perf_event_update_userpage);

static void userpage_init(struct perf_buffer *rb)
{
	struct perf_event_mmap_page *up = rb->user_page;

	up->version = 0;
	up->compat_version = 0;
	up->cap_bit0_is_deprecated = 1;
	up->size = offsetof(struct perf_event_mmap_page, __reserved);
	up->data_offset = PAGE_SIZE;
	up->data_size = rb->size;
}

/*
 * Charge @pages to the user (up to its perf_event_mlock_kb share) and the
 * rest to the mm's pinned pages, which RLIMIT_MEMLOCK bounds unless the
 * caller may lock memory anyway.
 */
int perf_mlock_charge(struct perf_mlock *charge, struct mm_struct *mm,
		      unsigned long pages)
{
	struct user_struct *user = current_user();
	unsigned long limit, locked, extra = 0;

	limit = (READ_ONCE(sysctl_perf_event_mlock) >> (PAGE_SHIFT - 10)) *
		num_online_cpus();
	/*
	 * Charged first, checked after, backed out on refusal: two mmaps at
	 * once each see the other's pages, so together they cannot pass a
	 * limit that each alone would (one may be refused that would have
	 * fitted alone).
	 */
	locked = atomic_long_add_return(pages, &user->perf_mlock);
	if (locked > limit) {
		extra = locked - limit;
		if (extra > pages)
			extra = pages;
	}
	if (extra) {
		unsigned long lock_limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
		s64 pinned = atomic64_add_return(extra, &mm->pinned_vm);

		if (pinned > lock_limit && perf_is_paranoid() &&
		    !capable(CAP_IPC_LOCK)) {
			atomic64_sub(extra, &mm->pinned_vm);
			atomic_long_sub(pages, &user->perf_mlock);
			return -EPERM;
		}
		atomic_long_sub(extra, &user->perf_mlock);
	}
	charge->user = get_uid(user);
	charge->locked = pages - extra;
	charge->pinned = extra;
	charge->mm = mm;
	mmgrab(mm);
	return 0;
}

void perf_mlock_uncharge(struct perf_mlock *charge)
{
	atomic_long_sub(charge->locked, &charge->user->perf_mlock);
	atomic64_sub(charge->pinned, &charge->mm->pinned_vm);
	free_uid(charge->user);
	mmdrop(charge->mm);
}

static struct perf_event *vma_event(struct vm_area_struct *vma)
{
	return vma->vm_file->private_data;
}

/*
 * One more mapping of @event's buffer, of its data pages or of its AUX
 * area: either keeps the buffer's writers attached.  The buffer is
 * mapped already, by the caller's vma or by one it holds.
 */
void perf_buffer_map_get(struct perf_event *event)
{
	atomic_inc(&event->mmap_count);
	atomic_inc(&event->rb->mmap_count);
}

static void perf_vm_open(struct vm_area_struct *vma)
{
	struct perf_event *event = vma_event(vma);

	perf_buffer_map_get(event);
	if (event->pmu->event_mapped)
		event->pmu->event_mapped(event, vma->vm_mm);
}

/*
 * A mapping of @event's buffer goes away, of its data pages or of its AUX
 * area.  When it was the buffer's last, every event that writes into the
 * buffer (its owner and those redirected to it) loses its output, and the
 * pages are uncharged.  Takes event->mmap_mutex.
 */
/*
 * A writer of @rb with a reference taken, or NULL when none is left but
 * those being freed (each detaches itself, perf_event_free()).
 */
static struct perf_event *rb_live_writer(struct perf_buffer *rb)
{
	struct perf_event *writer, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&rb->event_lock, flags);
	list_for_each_entry(writer, &rb->event_list, rb_entry) {
		if (atomic_long_inc_not_zero(&writer->refcount)) {
			found = writer;
			break;
		}
	}
	spin_unlock_irqrestore(&rb->event_lock, flags);
	return found;
}

void perf_buffer_unmap(struct perf_event *event)
{
	struct perf_buffer *rb = event->rb;
	struct perf_event *writer;

	mutex_lock(&event->mmap_mutex);
	atomic_dec(&event->mmap_count);
	if (!atomic_dec_and_test(&rb->mmap_count)) {
		mutex_unlock(&event->mmap_mutex);
		return;
	}
	/* hold the buffer while its writers let go of it */
	refcount_inc(&rb->refcount);
	mutex_unlock(&event->mmap_mutex);
	while ((writer = rb_live_writer(rb))) {
		mutex_lock(&writer->mmap_mutex);
		if (writer->rb == rb)
			perf_rb_detach(writer);
		mutex_unlock(&writer->mmap_mutex);
		perf_event_put(writer);
	}
	perf_mlock_uncharge(&rb->charge);
	perf_rb_put(rb);	/* the mapping's */
	perf_rb_put(rb);	/* ours */
}

static void perf_vm_close(struct vm_area_struct *vma)
{
	struct perf_event *event = vma_event(vma);

	if (event->pmu->event_unmapped)
		event->pmu->event_unmapped(event, vma->vm_mm);
	perf_buffer_unmap(event);
}

/* Every page is mapped up front: a fault is outside the buffer. */
vm_fault_t perf_vm_sigbus(struct vm_fault *vmf)
{
	return VM_FAULT_SIGBUS;
}

static const struct vm_operations_struct perf_vm_ops;

/*
 * A write to a page the kernel alone writes (the ring's data pages, an AUX
 * area), which is mapped read-only whatever the mapping allows: SIGBUS,
 * the ABI's answer to a reader that writes its records.  The user page
 * stays writable (data_tail, aux_tail); it is mapped writable up front,
 * and comes here only if mprotect() took the write right away and gave it
 * back.
 */
vm_fault_t perf_vm_no_write(struct vm_fault *vmf)
{
	if (vmf->pgoff || vmf->vma->vm_ops != &perf_vm_ops)
		return VM_FAULT_SIGBUS;
	lock_page(vmf->page);
	return VM_FAULT_LOCKED;
}

/* Insert @nr pages of @rb, from its page @pgoff, at @uaddr. */
static int rb_insert(struct vm_area_struct *vma, unsigned long uaddr,
		     struct perf_buffer *rb, unsigned long pgoff,
		     unsigned long nr)
{
	int ret = 0;

	for (unsigned long i = 0; i < nr && !ret; i++)
		ret = vm_insert_page(vma, uaddr + (i << PAGE_SHIFT),
				     perf_rb_page(rb, pgoff + i));
	return ret;
}

/*
 * Insert @nr pages of @rb, from its page @pgoff, at @uaddr, read-only to
 * user space (perf_vm_no_write()).
 */
static int rb_insert_ro(struct vm_area_struct *vma, unsigned long uaddr,
			struct perf_buffer *rb, unsigned long pgoff,
			unsigned long nr)
{
	pgprot_t prot;
	int ret;

	if (!nr)
		return 0;
	prot = perf_vm_ro_begin(vma);
	ret = rb_insert(vma, uaddr, rb, pgoff, nr);
	perf_vm_ro_end(vma, prot);
	return ret;
}

/* A buffer is mapped whole or not at all: no partial unmap or remap. */
int perf_vm_no_split(struct vm_area_struct *vma, unsigned long addr)
{
	return -EINVAL;
}

static const struct vm_operations_struct perf_vm_ops = {
	.open		= perf_vm_open,
	.close		= perf_vm_close,
	.fault		= perf_vm_sigbus,
	.page_mkwrite	= perf_vm_no_write,
	.may_split	= perf_vm_no_split,
};

/*
 * A new buffer for @event, charged and attached; mmap_mutex held.  The
 * pages are charged before any is allocated: a mapping over the caller's
 * limit must not get to fill memory first.
 */
static int mmap_new_buffer(struct perf_event *event,
			   struct vm_area_struct *vma, int nr_pages)
{
	struct perf_buffer *rb;
	long watermark = event->attr.watermark ? event->attr.wakeup_watermark : 0;
	struct perf_mlock charge;
	int ret;

	lockdep_assert_held(&event->mmap_mutex);
	ret = perf_mlock_charge(&charge, vma->vm_mm, nr_pages + 1);
	if (ret)
		return ret;
	rb = perf_rb_alloc(nr_pages, watermark, !(vma->vm_flags & VM_WRITE));
	if (!rb) {
		perf_mlock_uncharge(&charge);
		return -ENOMEM;
	}
	rb->charge = charge;
	userpage_init(rb);
	atomic_set(&rb->mmap_count, 1);
	/* the mapping keeps the initial reference */
	perf_rb_attach(event, rb);
	return 0;
}

int perf_event_mmap_fop(struct file *file, struct vm_area_struct *vma)
{
	struct perf_event *event = file->private_data;
	unsigned long nr_pages;
	struct perf_buffer *rb;
	int ret;

	/* every child of an inherited task event would write here at once */
	if (event->cpu == -1 && event->attr.inherit)
		return -EINVAL;
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	/* the LSM first: a denied caller learns nothing of the sizes */
	ret = security_perf_event_read(event);
	if (ret)
		return ret;
	if (vma->vm_pgoff)
		return perf_aux_mmap(event, vma);
	nr_pages = vma_pages(vma) - 1;
	if (nr_pages && !is_power_of_2(nr_pages))
		return -EINVAL;
	if (nr_pages > INT_MAX / 2)
		return -ENOMEM;

	mutex_lock(&event->mmap_mutex);
	rb = event->rb;
	if (rb) {
		/* map the buffer it already has, at the same size */
		if (rb->nr_pages != nr_pages ||
		    !atomic_inc_not_zero(&rb->mmap_count)) {
			ret = -EINVAL;
			goto unlock;
		}
	} else {
		ret = mmap_new_buffer(event, vma, nr_pages);
		if (ret)
			goto unlock;
		rb = event->rb;
	}
	atomic_inc(&event->mmap_count);
	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_ops = &perf_vm_ops;
	/* the user page as the mapping allows, the data pages read-only */
	ret = rb_insert(vma, vma->vm_start, rb, 0, 1);
	if (!ret)
		ret = rb_insert_ro(vma, vma->vm_start + PAGE_SIZE, rb, 1,
				   nr_pages);
	mutex_unlock(&event->mmap_mutex);
	if (ret) {
		/* the core frees the vma without ->close(): undo it here */
		perf_buffer_unmap(event);
		return ret;
	}
	if (event->pmu->event_mapped)
		event->pmu->event_mapped(event, vma->vm_mm);
	return 0;

unlock:
	mutex_unlock(&event->mmap_mutex);
	return ret;
}

__poll_t perf_event_poll(struct perf_event *event, struct file *file,
			 poll_table *wait)
{
	struct perf_buffer *rb;
	__poll_t events = EPOLLHUP;

	poll_wait(file, &event->waitq, wait);
	if (READ_ONCE(event->state) <= PERF_EVENT_STATE_EXIT)
		return EPOLLHUP;
	mutex_lock(&event->mmap_mutex);
	rb = event->rb;
	if (rb)
		events = atomic_xchg(&rb->poll, 0);
	mutex_unlock(&event->mmap_mutex);
	return events;
}

static void mmap_mutex_lock_two(struct perf_event *a, struct perf_event *b)
{
	if (a > b)
		swap(a, b);
	mutex_lock(&a->mmap_mutex);
	mutex_lock_nested(&b->mmap_mutex, SINGLE_DEPTH_NESTING);
}

/*
 * SET_OUTPUT: @event writes into @output's buffer from now on (or, with
 * @output NULL, into none).  Both must be bound to the same CPU or the
 * same task context, use the same clock and write in the same direction;
 * the output must have a mapped buffer, and an event whose own buffer is
 * mapped cannot be redirected.
 */
int perf_event_set_output(struct perf_event *event, struct perf_event *output)
{
	struct perf_buffer *rb = NULL;
	int ret = -EINVAL;

	if (!output) {
		mutex_lock(&event->mmap_mutex);
		if (atomic_read(&event->mmap_count))
			goto out_one;
		perf_rb_detach(event);
		ret = 0;
out_one:
		mutex_unlock(&event->mmap_mutex);
		return ret;
	}
	if (output == event)
		return -EINVAL;
	if (output->cpu != event->cpu)
		return -EINVAL;
	if (output->cpu == -1 && output->hw.target != event->hw.target)
		return -EINVAL;
	if (output->clock != event->clock)
		return -EINVAL;
	if (output->attr.write_backward != event->attr.write_backward)
		return -EINVAL;
	if (has_aux(event) && has_aux(output) &&
	    event->pmu != output->pmu)
		return -EINVAL;

	mmap_mutex_lock_two(event, output);
	/* an event whose own buffer is mapped keeps it */
	if (atomic_read(&event->mmap_count))
		goto unlock;
	/* the output must have a mapped buffer to lend */
	rb = output->rb;
	if (!rb || !atomic_read(&rb->mmap_count))
		goto unlock;
	perf_rb_detach(event);
	perf_rb_attach(event, rb);
	ret = 0;
unlock:
	mutex_unlock(&event->mmap_mutex);
	mutex_unlock(&output->mmap_mutex);
	return ret;
}

/* PAUSE_OUTPUT: records for a paused buffer are dropped and counted. */
int perf_event_pause_output(struct perf_event *event, unsigned long pause)
{
	struct perf_buffer *rb;

	rb = perf_event_rb_get(event);
	if (!rb)
		return -EINVAL;
	atomic_set(&rb->paused, !!pause);
	perf_rb_put(rb);
	return 0;
}
