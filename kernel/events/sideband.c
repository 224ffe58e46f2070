// SPDX-License-Identifier: GPL-2.0
/*
 * Side-band records: what happens to a task besides its samples, for the
 * events that ask with attr.comm, attr.task, attr.mmap / mmap2 / mmap_data:
 * PERF_RECORD_COMM, FORK, EXIT, MMAP and MMAP2.  A record goes to every
 * enabled event of the current task's context and of this CPU's context
 * that asks for it (an event bound to another CPU does not hear of it).
 *
 * Locking: the hooks run in process context.  What may sleep (the path of
 * a mapped file) is done first; then each context's events are walked
 * under its ctx->lock, IRQs off, and the records written to their buffers.
 * perf_sb_events counts the events that want any of these records, so
 * that the hooks cost nothing when there are none.
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/mman.h>
#include <linux/pid_namespace.h>
#include <linux/slab.h>

#include "internal.h"

static atomic_t perf_sb_events;

static bool wants_task(struct perf_event *event)
{
	struct perf_event_attr *a = &event->attr;

	return a->comm || a->mmap || a->mmap2 || a->mmap_data || a->task;
}

static bool wants_any(struct perf_event *event)
{
	return wants_task(event);
}

/* Count a new event among the side-band listeners (perf_event_alloc()). */
void perf_sideband_account(struct perf_event *event)
{
	if (event->parent || !wants_any(event))
		return;
	event->attach_state |= PERF_ATTACH_SIDEBAND;
	atomic_inc(&perf_sb_events);
}

void perf_sideband_free(struct perf_event *event)
{
	if (event->attach_state & PERF_ATTACH_SIDEBAND)
		atomic_dec(&perf_sb_events);
}

typedef void (*sb_emit_fn)(struct perf_event *event, void *rec);

static void sb_ctx(struct perf_event_context *ctx,
		   bool (*want)(struct perf_event *event, void *rec),
		   sb_emit_fn emit, void *rec)
{
	struct perf_event *event;
	unsigned long flags;
	int cpu = smp_processor_id();

	raw_spin_lock_irqsave(&ctx->lock, flags);
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (event->state < PERF_EVENT_STATE_INACTIVE)
			continue;
		if (event->cpu != -1 && event->cpu != cpu)
			continue;
		if (want(event, rec))
			emit(event, rec);
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
}

/*
 * Emit to the events of this CPU's context and of @task_ctx (the current
 * task's if NULL).  Preemption stays off so that "this CPU" holds.
 */
static void sb_deliver(struct perf_event_context *task_ctx,
		       bool (*want)(struct perf_event *event, void *rec),
		       sb_emit_fn emit, void *rec)
{
	struct perf_cpu_context *cpuctx;

	preempt_disable();
	cpuctx = this_cpu_ptr(&perf_cpu_ctx);
	if (cpuctx->online)
		sb_ctx(&cpuctx->ctx, want, emit, rec);
	if (!task_ctx)
		task_ctx = READ_ONCE(current->perf_event_ctxp);
	if (task_ctx)
		sb_ctx(task_ctx, want, emit, rec);
	preempt_enable();
}

static u32 ns_tgid(struct perf_event *event, struct task_struct *task)
{
	return task ? task_tgid_nr_ns(task, event->ns) : 0;
}

static u32 ns_pid(struct perf_event *event, struct task_struct *task)
{
	return task ? task_pid_nr_ns(task, event->ns) : 0;
}

/* Write @size bytes of @body after a header of @type and @misc. */
static void sb_output(struct perf_event *event, u32 type, u16 misc,
		      const void *body, u16 size, const void *tail,
		      u16 tail_size)
{
	struct perf_output_handle handle;
	struct perf_sample_data data;
	struct perf_event_header header = {
		.type = type,
		.misc = misc,
		.size = sizeof(header) + size + tail_size,
	};

	perf_event_header_init_id(&header, &data, event);
	if (perf_output_begin(&handle, &data, event, header.size))
		return;
	perf_output_put(&handle, header);
	perf_output_copy(&handle, body, size);
	if (tail_size)
		perf_output_copy(&handle, tail, tail_size);
	perf_event_output_id(&handle, &data, event);
	perf_output_end(&handle);
}

/* PERF_RECORD_FORK and PERF_RECORD_EXIT */

struct sb_task {
	struct task_struct *task;
	u32 type;
	u64 time;
};

static bool task_want(struct perf_event *event, void *rec)
{
	return wants_task(event);
}

static void task_emit(struct perf_event *event, void *rec)
{
	struct sb_task *t = rec;
	struct task_struct *parent;
	struct {
		u32 pid, ppid;
		u32 tid, ptid;
		u64 time;
	} body;

	rcu_read_lock();
	parent = rcu_dereference(t->task->real_parent);
	body.pid = ns_tgid(event, t->task);
	body.ppid = ns_tgid(event, parent);
	body.tid = ns_pid(event, t->task);
	body.ptid = ns_pid(event, parent);
	rcu_read_unlock();
	body.time = t->time;
	sb_output(event, t->type, 0, &body, sizeof(body), NULL, 0);
}

static void sb_task(struct task_struct *task,
		    struct perf_event_context *task_ctx, u32 type)
{
	struct sb_task t = {
		.task = task, .type = type, .time = perf_clock(),
	};

	if (!atomic_read(&perf_sb_events))
		return;
	sb_deliver(task_ctx, task_want, task_emit, &t);
}

void perf_event_fork(struct task_struct *task)
{
	sb_task(task, NULL, PERF_RECORD_FORK);
}

/* The exiting @task's own events hear of it too, from its context. */
void perf_sideband_exit(struct task_struct *task,
			struct perf_event_context *ctx)
{
	sb_task(task, ctx, PERF_RECORD_EXIT);
}

/* PERF_RECORD_COMM */

struct sb_comm {
	struct task_struct *task;
	bool exec;
	char comm[TASK_COMM_LEN];
	u16 size;			/* of comm, with its padding */
};

static bool comm_want(struct perf_event *event, void *rec)
{
	return event->attr.comm;
}

static void comm_emit(struct perf_event *event, void *rec)
{
	struct sb_comm *c = rec;
	u32 ids[2] = {
		ns_tgid(event, c->task),
		ns_pid(event, c->task),
	};

	sb_output(event, PERF_RECORD_COMM,
		  c->exec ? PERF_RECORD_MISC_COMM_EXEC : 0,
		  ids, sizeof(ids), c->comm, c->size);
}

void perf_event_comm(struct task_struct *task, bool exec)
{
	struct sb_comm c = { .task = task, .exec = exec };

	if (!atomic_read(&perf_sb_events))
		return;
	get_task_comm(c.comm, task);
	c.size = ALIGN(strlen(c.comm) + 1, sizeof(u64));
	sb_deliver(NULL, comm_want, comm_emit, &c);
}

/* PERF_RECORD_MMAP and PERF_RECORD_MMAP2 */

struct sb_mmap {
	struct vm_area_struct *vma;
	const char *name;
	u16 name_size;			/* with its NUL and padding */
	bool exec;
	u32 maj, min, prot, flags;
	u64 ino, gen, pgoff;
};

static bool mmap_want(struct perf_event *event, void *rec)
{
	struct sb_mmap *m = rec;

	if (m->exec)
		return event->attr.mmap || event->attr.mmap2;
	return event->attr.mmap_data;
}

static void mmap_emit(struct perf_event *event, void *rec)
{
	struct sb_mmap *m = rec;
	u16 misc = PERF_RECORD_MISC_USER;
	struct {
		u32 pid, tid;
		u64 addr, len, pgoff;
		u32 maj, min;
		u64 ino, ino_generation;
		u32 prot, flags;
	} body = {
		.pid = ns_tgid(event, current),
		.tid = ns_pid(event, current),
		.addr = m->vma->vm_start,
		.len = m->vma->vm_end - m->vma->vm_start,
		.pgoff = m->pgoff,
		.maj = m->maj,
		.min = m->min,
		.ino = m->ino,
		.ino_generation = m->gen,
		.prot = m->prot,
		.flags = m->flags,
	};

	if (!m->exec)
		misc |= PERF_RECORD_MISC_MMAP_DATA;
	if (event->attr.mmap2)
		sb_output(event, PERF_RECORD_MMAP2, misc, &body, sizeof(body),
			  m->name, m->name_size);
	else
		sb_output(event, PERF_RECORD_MMAP, misc, &body,
			  offsetof(typeof(body), maj), m->name, m->name_size);
}

/* What a mapping is called in an MMAP record. */
static const char *mmap_name(struct vm_area_struct *vma, char *buf, int size)
{
	struct mm_struct *mm = vma->vm_mm;
	const char *name;

	if (vma->vm_file) {
		name = d_path(file_user_path(vma->vm_file), buf, size);
		return IS_ERR(name) ? "//toolong" : name;
	}
	if (vma->vm_ops && vma->vm_ops->name) {
		name = vma->vm_ops->name(vma);
		if (name)
			return name;
	}
	name = arch_vma_name(vma);
	if (name)
		return name;
	if (mm && vma->vm_start <= mm->start_brk && vma->vm_end >= mm->brk)
		return "[heap]";
	if (mm && vma->vm_start <= mm->start_stack &&
	    vma->vm_end >= mm->start_stack)
		return "[stack]";
	return "//anon";
}

void perf_event_mmap(struct vm_area_struct *vma)
{
	struct sb_mmap m = { .vma = vma };
	size_t len;
	char *buf;

	if (!atomic_read(&perf_sb_events))
		return;
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return;
	m.exec = vma->vm_flags & VM_EXEC;
	m.name = mmap_name(vma, buf, PATH_MAX);
	m.name_size = ALIGN(strlen(m.name) + 1, sizeof(u64));
	m.prot = (vma->vm_flags & VM_READ ? PROT_READ : 0) |
		 (vma->vm_flags & VM_WRITE ? PROT_WRITE : 0) |
		 (vma->vm_flags & VM_EXEC ? PROT_EXEC : 0);
	m.flags = vma->vm_flags & VM_MAYSHARE ? MAP_SHARED : MAP_PRIVATE;
	m.pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT;
	if (vma->vm_file) {
		struct inode *inode = file_inode(vma->vm_file);

		m.maj = MAJOR(inode->i_sb->s_dev);
		m.min = MINOR(inode->i_sb->s_dev);
		m.ino = inode->i_ino;
		m.gen = inode->i_generation;
	}
	/* the record carries the name zero-padded: build that in @buf */
	len = strlen(m.name);
	memmove(buf, m.name, len);
	memset(buf + len, 0, m.name_size - len);
	m.name = buf;
	sb_deliver(NULL, mmap_want, mmap_emit, &m);
	kfree(buf);
}
