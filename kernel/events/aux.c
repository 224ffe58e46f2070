// SPDX-License-Identifier: GPL-2.0
/*
 * The AUX area of a ring buffer: a second mapping, at the user page's
 * aux_offset, into which a PMU writes a stream of its own (instruction
 * traces, statistical profiles) while the data pages carry the records
 * that describe it.  This file allocates and maps the area, hands it to
 * the PMU's setup_aux(), and is the PMU's side of the output protocol:
 *
 *   buf = perf_aux_output_begin(&handle, event);	room: handle.head,
 *   ... the hardware writes ...				      handle.size
 *   perf_aux_output_skip(&handle, pad);		optional padding
 *   perf_aux_output_flag(&handle, PERF_AUX_FLAG_...);
 *   perf_aux_output_end(&handle, written);		publish + PERF_RECORD_AUX
 *
 * handle.head is a running byte index (the PMU takes it modulo the area
 * size); handle.size is the room the reader has freed (the whole area in
 * overwrite mode, where the PMU moves handle.head itself); handle.wakeup
 * is the index at which the reader wants to hear of new data.
 *
 * A member of a group led by such an event may ask for a copy of the
 * leader's newest trace in each of its samples (PERF_SAMPLE_AUX, at most
 * attr.aux_sample_size bytes): the leader's PMU copies it
 * (snapshot_aux()) into a per-CPU bounce buffer while the sample is sized,
 * and the sample takes it from there.
 *
 * Locking: the area is set up and mapped under the event's mmap_mutex.
 * One output handle is open at a time per buffer (aux_busy); begin and end
 * run on the CPU where the writing event is active, in any context up to
 * NMI, and touch the area's indices only while the handle is theirs;
 * pauses and resumes of the trace (aux_pause, aux_resume) run there too,
 * one at a time per CPU.  The
 * area is freed from a workqueue (setup_aux's free_aux() may sleep) once
 * its mappings are gone and no handle is open: the last reference may be
 * dropped in NMI, so the free goes through irq_work first.
 */
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "internal.h"

static void aux_free_pages(void **pages, int nr_pages)
{
	int i;

	for (i = 0; i < nr_pages; i++)
		if (pages[i])
			free_page((unsigned long)pages[i]);
	kfree(pages);
}

/*
 * Pages for an area of @nr_pages.  A PMU that cannot scatter its output
 * (PERF_PMU_CAP_AUX_NO_SG) gets one physically contiguous block, split so
 * that each page can be mapped and freed alone; the others get single
 * pages on the buffer's node.
 */
static void **aux_alloc_pages(struct perf_event *event, int nr_pages)
{
	int node = event->cpu == -1 ? NUMA_NO_NODE : cpu_to_node(event->cpu);
	gfp_t gfp = GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN;
	struct page *page;
	void **pages;
	int i;

	/*
	 * The size is the user's (within the mlock limit, or any with
	 * CAP_IPC_LOCK): the page array, and a block that cannot be
	 * scattered, are single allocations, which the page allocator
	 * refuses (with a warning) past its largest order.
	 */
	if (get_order((size_t)nr_pages * sizeof(*pages)) > MAX_PAGE_ORDER)
		return NULL;
	pages = kcalloc_node(nr_pages, sizeof(*pages), GFP_KERNEL, node);
	if (!pages)
		return NULL;
	if (event->pmu->capabilities & PERF_PMU_CAP_AUX_NO_SG) {
		unsigned int order = get_order((size_t)nr_pages << PAGE_SHIFT);

		if (order > MAX_PAGE_ORDER)
			goto fail;
		page = alloc_pages_node(node, gfp, order);
		if (!page)
			goto fail;
		split_page(page, order);
		for (i = 0; i < nr_pages; i++)
			pages[i] = page_address(page + i);
		/* the tail beyond nr_pages of a larger order block */
		for (i = nr_pages; i < (1 << order); i++)
			__free_page(page + i);
		return pages;
	}
	for (i = 0; i < nr_pages; i++) {
		page = alloc_pages_node(node, gfp, 0);
		if (!page)
			goto fail;
		pages[i] = page_address(page);
	}
	return pages;
fail:
	aux_free_pages(pages, nr_pages);
	return NULL;
}

static void aux_free_work(struct work_struct *work)
{
	struct perf_buffer *rb = container_of(work, struct perf_buffer,
					      aux_free_work);

	if (rb->aux_pmu->free_aux)
		rb->aux_pmu->free_aux(rb->aux_priv);
	/* the area's hold on its PMU's module (the events' may be gone) */
	module_put(rb->aux_pmu->module);
	aux_free_pages(rb->aux_pages, rb->aux_nr_pages);
	perf_mlock_uncharge(&rb->aux_charge);
	rb->aux_priv = NULL;
	rb->aux_pages = NULL;
	/* a new area may be mapped from now on */
	smp_store_release(&rb->aux_nr_pages, 0);
	perf_rb_put(rb);
}

static void aux_free_irq(struct irq_work *work)
{
	struct perf_buffer *rb = container_of(work, struct perf_buffer,
					      aux_free_irq);

	schedule_work(&rb->aux_free_work);
}

/* The AUX state of a new buffer, which has no area yet. */
void perf_aux_init(struct perf_buffer *rb)
{
	init_irq_work(&rb->aux_free_irq, aux_free_irq);
	INIT_WORK(&rb->aux_free_work, aux_free_work);
	mutex_init(&rb->aux_mutex);
}

/* Drop a reference on @rb's AUX area; any context. */
void perf_aux_put(struct perf_buffer *rb)
{
	if (refcount_dec_and_test(&rb->aux_refcount))
		irq_work_queue(&rb->aux_free_irq);
}

/*
 * Give @rb an AUX area of @nr_pages for @event's PMU; mmap_mutex held.
 * The caller has charged the pages.  Holds a reference on @rb and leaves
 * one on the area for its mappings.
 */
int perf_aux_alloc(struct perf_buffer *rb, struct perf_event *event,
		   int nr_pages, bool overwrite)
{
	u32 watermark = event->attr.aux_watermark;
	unsigned long size = (unsigned long)nr_pages << PAGE_SHIFT;

	rb->aux_pages = aux_alloc_pages(event, nr_pages);
	if (!rb->aux_pages)
		return -ENOMEM;
	rb->aux_priv = event->pmu->setup_aux(event, rb->aux_pages, nr_pages,
					     overwrite);
	if (!rb->aux_priv) {
		aux_free_pages(rb->aux_pages, nr_pages);
		rb->aux_pages = NULL;
		return -ENOMEM;
	}
	/* the event holds its PMU's module: this keeps it for free_aux() */
	__module_get(event->pmu->module);
	rb->aux_pmu = event->pmu;
	rb->aux_overwrite = overwrite;
	rb->aux_head = 0;
	rb->aux_wakeup = 0;
	/* without attr.aux_watermark, wake the reader at every half */
	rb->aux_watermark = watermark ? min_t(unsigned long, watermark, size) :
					size / 2;
	atomic_set(&rb->aux_busy, 0);
	refcount_inc(&rb->refcount);
	refcount_set(&rb->aux_refcount, 1);
	/* published last: perf_aux_output_begin() checks it */
	smp_store_release(&rb->aux_nr_pages, nr_pages);
	return 0;
}

static struct perf_buffer *vma_rb(struct vm_area_struct *vma)
{
	return vma->vm_private_data;
}

/*
 * A mapping of the area is also a mapping of the buffer: while the area
 * stays mapped, unmapping the data pages leaves the writers attached.
 */
static void aux_vm_open(struct vm_area_struct *vma)
{
	struct perf_buffer *rb = vma_rb(vma);

	atomic_inc(&rb->aux_mmap_count);
	refcount_inc(&rb->refcount);
	perf_buffer_map_get(vma->vm_file->private_data);
}

/*
 * The last mapping of the area goes: no new output handle is opened on
 * it, and it is freed when the PMU closes the one it may hold.  Then the
 * buffer loses a mapping (the writers go with its last).
 */
static void aux_vm_close(struct vm_area_struct *vma)
{
	struct perf_buffer *rb = vma_rb(vma);

	if (atomic_dec_and_test(&rb->aux_mmap_count))
		perf_aux_put(rb);
	perf_buffer_unmap(vma->vm_file->private_data);
	perf_rb_put(rb);
}

static const struct vm_operations_struct aux_vm_ops = {
	.open		= aux_vm_open,
	.close		= aux_vm_close,
	.fault		= perf_vm_sigbus,
	.page_mkwrite	= perf_vm_no_write,
	.may_split	= perf_vm_no_split,
};

/* A new area for @rb, charged; mmap_mutex held. */
static int aux_map_new(struct perf_event *event, struct perf_buffer *rb,
		       struct vm_area_struct *vma, int nr_pages)
{
	int ret;

	lockdep_assert_held(&event->mmap_mutex);
	/* the previous area is still being freed */
	if (smp_load_acquire(&rb->aux_nr_pages))
		return -EBUSY;
	ret = perf_mlock_charge(&rb->aux_charge, vma->vm_mm, nr_pages);
	if (ret)
		return ret;
	ret = perf_aux_alloc(rb, event, nr_pages,
			     !(vma->vm_flags & VM_WRITE));
	if (ret)
		perf_mlock_uncharge(&rb->aux_charge);
	return ret;
}

/*
 * The area for a new mapping of @nr_pages: the one mapped already, which
 * must be that size, or a new one; mmap_mutex held.
 */
static int aux_area_get(struct perf_event *event, struct perf_buffer *rb,
			struct vm_area_struct *vma, unsigned long nr_pages)
{
	int ret;

	lockdep_assert_held(&event->mmap_mutex);
	lockdep_assert_held(&rb->aux_mutex);
	if (atomic_inc_not_zero(&rb->aux_mmap_count)) {
		/* an area is one PMU's: the same size, and the same PMU */
		if (rb->aux_nr_pages == nr_pages && rb->aux_pmu == event->pmu)
			return 0;
		/* the last munmap may have come in between */
		if (atomic_dec_and_test(&rb->aux_mmap_count))
			perf_aux_put(rb);
		return -EINVAL;
	}
	ret = aux_map_new(event, rb, vma, nr_pages);
	if (!ret)
		atomic_set(&rb->aux_mmap_count, 1);
	return ret;
}

/*
 * mmap() at a non-zero offset: the AUX area, at the place and size that
 * user space wrote into the user page (aux_offset past the data pages,
 * aux_size a power of two of pages).  A second mapping must match the
 * first.
 */
int perf_aux_mmap(struct perf_event *event, struct vm_area_struct *vma)
{
	unsigned long nr_pages = vma_pages(vma);
	struct perf_event_mmap_page *up;
	struct perf_buffer *rb;
	unsigned long i;
	pgprot_t prot;
	int ret = -EINVAL;

	mutex_lock(&event->mmap_mutex);
	rb = event->rb;
	if (!rb)
		goto unlock;
	up = rb->user_page;
	if (READ_ONCE(up->aux_offset) < up->data_offset + up->data_size ||
	    READ_ONCE(up->aux_offset) != (u64)vma->vm_pgoff << PAGE_SHIFT ||
	    READ_ONCE(up->aux_size) != (u64)nr_pages << PAGE_SHIFT ||
	    !is_power_of_2(nr_pages))
		goto unlock;
	ret = -EOPNOTSUPP;
	if (!has_aux(event))
		goto unlock;
	ret = -EINVAL;
	if (nr_pages > INT_MAX)
		goto unlock;
	/* a mapping of the buffer too, unless its last one is going */
	if (!atomic_inc_not_zero(&rb->mmap_count))
		goto unlock;
	atomic_inc(&event->mmap_count);
	/* two events sharing the buffer must not both set up an area */
	mutex_lock(&rb->aux_mutex);
	ret = aux_area_get(event, rb, vma, nr_pages);
	mutex_unlock(&rb->aux_mutex);
	if (ret) {
		mutex_unlock(&event->mmap_mutex);
		perf_buffer_unmap(event);
		return ret;
	}
	refcount_inc(&rb->refcount);	/* the mapping's */
	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_ops = &aux_vm_ops;
	vma->vm_private_data = rb;
	/* read-only to user space, as the ring's data (perf_vm_no_write()) */
	prot = perf_vm_ro_begin(vma);
	for (i = 0; i < nr_pages && !ret; i++)
		ret = vm_insert_page(vma, vma->vm_start + (i << PAGE_SHIFT),
				     virt_to_page(rb->aux_pages[i]));
	perf_vm_ro_end(vma, prot);
	mutex_unlock(&event->mmap_mutex);
	/* the core frees the vma without ->close(): undo it here */
	if (ret)
		aux_vm_close(vma);
	return ret;

unlock:
	mutex_unlock(&event->mmap_mutex);
	return ret;
}

/* Hand the reader a wakeup when the area has filled past its watermark. */
static void aux_wakeup_check(struct perf_output_handle *handle,
			     unsigned long head)
{
	struct perf_buffer *rb = handle->rb;
	struct perf_event *event = handle->event;

	if (head - rb->aux_wakeup < rb->aux_watermark)
		return;
	rb->aux_wakeup = rounddown(head, rb->aux_watermark);
	handle->wakeup = rb->aux_wakeup + rb->aux_watermark;
	event->pending_wakeup = 1;
	irq_work_queue(&event->pending_irq);
}

/**
 * perf_aux_output_begin - open an output handle on an event's AUX area
 * @handle: the handle to fill in
 * @event: the event whose PMU is about to write (an inherited clone writes
 *	into its parent's buffer)
 *
 * Takes a reference to the AUX area of @event's buffer and makes @handle
 * the only open one on it: handle->head is where the PMU writes next,
 * handle->size the room the reader has freed (the whole area in overwrite
 * mode) and handle->wakeup the index at which the reader wants a wakeup.
 * A full area is not a failure: handle->size is 0 and the PMU reports it
 * with PERF_AUX_FLAG_TRUNCATED.  Every successful call must be paired with
 * perf_aux_output_end().
 *
 * Context: any, up to NMI, on the CPU where @event is active.
 *
 * Return: the PMU's private data of the area (what its setup_aux()
 * returned), or NULL when there is no area to write into (none mapped,
 * being unmapped, or another handle open); handle->event is then NULL.
 */
void *perf_aux_output_begin(struct perf_output_handle *handle,
			    struct perf_event *event)
{
	struct perf_event *owner = event->parent ?: event;
	struct perf_buffer *rb;
	unsigned long size;

	handle->event = NULL;
	handle->aux_flags = 0;
	rcu_read_lock();
	rb = rcu_dereference(owner->rb);
	/* acquire: the area's fields, set before perf_aux_alloc() publishes */
	if (!rb || !smp_load_acquire(&rb->aux_nr_pages) ||
	    !refcount_inc_not_zero(&rb->aux_refcount)) {
		rcu_read_unlock();
		return NULL;
	}
	rcu_read_unlock();
	/*
	 * The area's private data is its PMU's: an event of another PMU
	 * writing into this buffer (SET_OUTPUT) must not be handed it.
	 */
	if (rb->aux_pmu != event->pmu || !atomic_read(&rb->aux_mmap_count) ||
	    atomic_cmpxchg(&rb->aux_busy, 0, 1))
		goto fail;

	size = (unsigned long)rb->aux_nr_pages << PAGE_SHIFT;
	handle->rb = rb;
	handle->event = event;
	handle->head = rb->aux_head;
	if (rb->aux_overwrite) {
		handle->size = size;
	} else {
		/* room the reader freed; pairs with its store of aux_tail */
		unsigned long tail = smp_load_acquire(&rb->user_page->aux_tail);

		handle->size = size - min(size, rb->aux_head - tail);
	}
	handle->wakeup = rb->aux_wakeup + rb->aux_watermark;
	return rb->aux_priv;
fail:
	perf_aux_put(rb);
	return NULL;
}
EXPORT_SYMBOL_GPL(perf_aux_output_begin);

/**
 * perf_aux_output_end - publish the AUX data and close the handle
 * @handle: a handle that perf_aux_output_begin() opened
 * @size: the bytes the PMU wrote since the handle began, not counting
 *	what perf_aux_output_skip() passed over
 *
 * The data is published in the user page's aux_head and described by a
 * PERF_RECORD_AUX with the handle's flags (none is written for an empty
 * write without flags).  In overwrite mode the PMU has moved handle->head
 * to the end of its data itself and @size is only reported.  Outside
 * overwrite mode the reader is woken once the area filled past its
 * watermark.  A truncated area
 * (PERF_AUX_FLAG_TRUNCATED) disables the event until the reader makes
 * room and enables it again.  Drops the reference that begin took.
 *
 * Context: any, up to NMI, on the CPU where the handle was opened.
 */
void perf_aux_output_end(struct perf_output_handle *handle, unsigned long size)
{
	struct perf_buffer *rb = handle->rb;
	struct perf_event *event = handle->event;
	u64 flags = handle->aux_flags;
	unsigned long start;

	/* a handle that begin() did not open has no buffer to look at */
	if (WARN_ON_ONCE(!event))
		return;
	start = rb->aux_head;
	if (rb->aux_overwrite) {
		flags |= PERF_AUX_FLAG_OVERWRITE;
		rb->aux_head = handle->head;
	} else {
		size += handle->head - start;
		rb->aux_head = start + size;
	}
	if (size || (flags & ~PERF_AUX_FLAG_OVERWRITE))
		perf_log_aux(event, start, size, flags);
	/* the data before the index; pairs with the reader's acquire */
	smp_store_release(&rb->user_page->aux_head, rb->aux_head);
	if (!rb->aux_overwrite)
		aux_wakeup_check(handle, rb->aux_head);
	if (flags & PERF_AUX_FLAG_TRUNCATED)
		perf_event_disable_inatomic(event);
	handle->event = NULL;
	atomic_set_release(&rb->aux_busy, 0);
	perf_aux_put(rb);
}
EXPORT_SYMBOL_GPL(perf_aux_output_end);

/**
 * perf_aux_output_skip - advance an open handle past padding
 * @handle: an open AUX output handle
 * @size: the bytes to pass over
 *
 * Pass over @size bytes of the room (padding the PMU wrote): they are
 * published with the data at perf_aux_output_end().  The reader may be
 * woken if the new head crossed its watermark.
 *
 * Context: any, up to NMI, with @handle open on this CPU.
 *
 * Return: 0, or -ENOSPC if @size exceeds the room left.
 */
int perf_aux_output_skip(struct perf_output_handle *handle, unsigned long size)
{
	if (size > handle->size)
		return -ENOSPC;
	handle->head += size;
	handle->size -= size;
	if (!handle->rb->aux_overwrite)
		aux_wakeup_check(handle, handle->head);
	return 0;
}
EXPORT_SYMBOL_GPL(perf_aux_output_skip);

/**
 * perf_get_aux - the PMU's private data of an open AUX handle
 * @handle: an AUX output handle
 *
 * Context: any, up to NMI.
 *
 * Return: what the PMU's setup_aux() returned for the area @handle writes
 * into, or NULL when @handle is not open.
 */
void *perf_get_aux(struct perf_output_handle *handle)
{
	if (!handle->event)
		return NULL;
	return handle->rb->aux_priv;
}
EXPORT_SYMBOL_GPL(perf_get_aux);

/**
 * perf_aux_output_flag - add flags to the next PERF_RECORD_AUX
 * @handle: an open AUX output handle
 * @flags: PERF_AUX_FLAG_* bits
 *
 * The flags accumulate until perf_aux_output_end() reports them in the
 * record's flags field; PERF_AUX_FLAG_TRUNCATED also disables the event
 * there.
 *
 * Context: any, up to NMI, with @handle open on this CPU.
 */
void perf_aux_output_flag(struct perf_output_handle *handle, u64 flags)
{
	handle->aux_flags |= flags;
}
EXPORT_SYMBOL_GPL(perf_aux_output_flag);

/* Set while this CPU pauses or resumes a trace (see below). */
static DEFINE_PER_CPU(int, aux_pausing);

/*
 * aux_pause and aux_resume: an overflow of @event pauses or resumes the
 * AUX trace of its group's leader, through the PMU's stop(PERF_EF_PAUSE)
 * and start(PERF_EF_RESUME).  Runs in the overflow's context (up to NMI)
 * on the CPU where the group is active.  The PMU is promised that a pause
 * or resume never overlaps another: one that would nest (an NMI's inside
 * an interrupt's) is dropped.  Nothing happens while the leader is not
 * active here or has no AUX area to write.
 */
void perf_aux_pause_resume(struct perf_event *event)
{
	struct perf_event *aux = event->group_leader;
	struct perf_event *owner = aux->parent ?: aux;
	unsigned long flags;
	struct perf_buffer *rb;

	if (aux == event || !has_aux(aux))
		return;
	local_irq_save(flags);
	if (__this_cpu_read(aux_pausing))
		goto out;
	__this_cpu_write(aux_pausing, 1);
	barrier();
	rcu_read_lock();
	rb = rcu_dereference(owner->rb);
	/* acquire: pairs with the release in perf_aux_alloc() */
	if (rb && smp_load_acquire(&rb->aux_nr_pages) &&
	    READ_ONCE(aux->state) == PERF_EVENT_STATE_ACTIVE &&
	    READ_ONCE(aux->oncpu) == smp_processor_id()) {
		if (event->attr.aux_pause)
			aux->pmu->stop(aux, PERF_EF_PAUSE);
		else
			aux->pmu->start(aux, PERF_EF_RESUME);
	}
	rcu_read_unlock();
	barrier();
	__this_cpu_write(aux_pausing, 0);
out:
	local_irq_restore(flags);
}

/**
 * perf_event_itrace_started - tell the core that a trace has started
 * @event: an event of a PMU with PERF_PMU_CAP_ITRACE
 *
 * The PMU has logged the start of its trace itself (or needs none): the
 * core writes no PERF_RECORD_ITRACE_START for this schedule-in.  The mark
 * is cleared once the schedule-in completes.
 *
 * Context: the PMU's add(), or the start() it calls, while the event is
 * scheduled in (ctx->lock held, IRQs off).
 */
void perf_event_itrace_started(struct perf_event *event)
{
	event->attach_state |= PERF_ATTACH_ITRACE;
}
EXPORT_SYMBOL_GPL(perf_event_itrace_started);

/*
 * The bounce buffer of AUX samples, one per CPU while an event may take
 * such samples.  A sample takes it while it is sized and gives it back
 * once written (or dropped); a sample that nests inside another on the
 * CPU (an NMI's) finds it busy and records no AUX data.
 */
struct aux_sample_buf {
	struct perf_buffer	rb;	/* data and size: for perf_output_copy() */
	int			busy;
};

/* a record's size is a u16: no sample holds more */
#define AUX_SAMPLE_MAX	SZ_64K

static struct aux_sample_buf __percpu *aux_sample_bufs;
static int aux_sample_users;
static DEFINE_MUTEX(aux_sample_mutex);

static void aux_sample_bufs_free(struct aux_sample_buf __percpu *bufs)
{
	int cpu;

	for_each_possible_cpu(cpu)
		vfree(per_cpu_ptr(bufs, cpu)->rb.data);
	free_percpu(bufs);
}

static int aux_sample_get(void)
{
	struct aux_sample_buf __percpu *bufs;
	int cpu, ret = 0;

	mutex_lock(&aux_sample_mutex);
	if (aux_sample_users++)
		goto out;
	bufs = alloc_percpu(struct aux_sample_buf);
	if (!bufs)
		goto fail;
	for_each_possible_cpu(cpu) {
		struct aux_sample_buf *b = per_cpu_ptr(bufs, cpu);

		b->rb.data = vmalloc_node(AUX_SAMPLE_MAX, cpu_to_node(cpu));
		b->rb.size = AUX_SAMPLE_MAX;
		if (!b->rb.data) {
			aux_sample_bufs_free(bufs);
			goto fail;
		}
	}
	rcu_assign_pointer(aux_sample_bufs, bufs);
	goto out;
fail:
	aux_sample_users--;
	ret = -ENOMEM;
out:
	mutex_unlock(&aux_sample_mutex);
	return ret;
}

static void aux_sample_put(void)
{
	struct aux_sample_buf __percpu *bufs = NULL;

	mutex_lock(&aux_sample_mutex);
	if (!--aux_sample_users) {
		bufs = aux_sample_bufs;
		RCU_INIT_POINTER(aux_sample_bufs, NULL);
	}
	mutex_unlock(&aux_sample_mutex);
	if (bufs) {
		/* samples are written with IRQs off, inside RCU */
		synchronize_rcu();
		aux_sample_bufs_free(bufs);
	}
}

/*
 * aux_sample_size: the group's leader must be an AUX event whose PMU can
 * take a snapshot of its trace.
 */
int perf_aux_sample_init(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	int ret;

	if (!event->attr.aux_sample_size)
		return 0;
	if (leader == event || !has_aux(leader) || !leader->pmu->snapshot_aux)
		return -EINVAL;
	ret = aux_sample_get();
	if (!ret)
		event->attach_state |= PERF_ATTACH_AUX_SAMPLE;
	return ret;
}

void perf_aux_sample_free(struct perf_event *event)
{
	if (event->attach_state & PERF_ATTACH_AUX_SAMPLE)
		aux_sample_put();
}

/*
 * Size the AUX part of a sample of @event: ask the leader's PMU for at
 * most aux_sample_size bytes (and no more than the record has room for),
 * if the leader is tracing on this CPU.  IRQs off, inside RCU.
 */
void perf_aux_sample_prepare(struct perf_sample_data *data,
			     struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct perf_output_handle handle = { };
	u32 used = perf_sample_data_size(data, event);
	struct aux_sample_buf *b;
	unsigned long size;
	long copied;

	data->aux_size = 0;
	if (!(event->attach_state & PERF_ATTACH_AUX_SAMPLE))
		return;
	/*
	 * The leader's release makes each member a group of its own: its
	 * own PMU (which need not trace at all) is then the leader's.
	 */
	if (leader == event || !has_aux(leader) || !leader->pmu->snapshot_aux)
		return;
	if (READ_ONCE(leader->state) != PERF_EVENT_STATE_ACTIVE ||
	    READ_ONCE(leader->oncpu) != smp_processor_id())
		return;
	size = min_t(unsigned long, event->attr.aux_sample_size,
		     used < USHRT_MAX ? USHRT_MAX - used : 0);
	size = round_down(size, sizeof(u64));
	b = this_cpu_ptr(rcu_dereference(aux_sample_bufs));
	if (!size || b->busy)
		return;
	b->busy = 1;
	barrier();
	handle.rb = &b->rb;
	handle.event = leader;
	handle.size = size;
	copied = leader->pmu->snapshot_aux(leader, &handle, size);
	if (copied <= 0 || copied > size) {
		barrier();
		b->busy = 0;
		return;
	}
	data->aux_size = copied;
	data->dyn_size += ALIGN(copied, sizeof(u64));
}

/* Write the AUX part sized above: its size, the bytes, zeroes to a u64. */
void perf_aux_sample_output(struct perf_output_handle *handle,
			    struct perf_sample_data *data)
{
	struct aux_sample_buf *b;
	u64 zero = 0;

	perf_output_put(handle, data->aux_size);
	if (!data->aux_size)
		return;
	b = this_cpu_ptr(rcu_dereference(aux_sample_bufs));
	perf_output_copy(handle, b->rb.data, data->aux_size);
	perf_output_copy(handle, &zero,
			 ALIGN(data->aux_size, sizeof(u64)) - data->aux_size);
}

/*
 * The sample, which asked for AUX data, is written or dropped: its bounce
 * buffer is free again.
 */
void perf_aux_sample_done(struct perf_sample_data *data)
{
	if (data->aux_size) {
		barrier();
		this_cpu_ptr(rcu_dereference(aux_sample_bufs))->busy = 0;
	}
}
