// SPDX-License-Identifier: GPL-2.0
/*
 * Side-band records: what happens to a task besides its samples, for the
 * events that ask with attr.comm, attr.task, attr.mmap / mmap2 / mmap_data,
 * attr.context_switch, attr.ksymbol, attr.bpf_event, attr.text_poke,
 * attr.namespaces and attr.cgroup: PERF_RECORD_COMM, FORK, EXIT, MMAP,
 * MMAP2, SWITCH, SWITCH_CPU_WIDE, KSYMBOL, BPF_EVENT, TEXT_POKE, NAMESPACES
 * and CGROUP.  A record
 * goes to every enabled event of the current task's context and of this
 * CPU's context that asks for it (an event bound to another CPU does not
 * hear of it).
 *
 * Locking: the hooks run in process context.  What may sleep (the path of
 * a mapped file, the nsfs inodes of namespaces) is done first; then each
 * context's events are walked under its ctx->lock, IRQs off, and the
 * records written to their buffers.
 * The switch hooks run from the scheduler, before the outgoing task's
 * context is locked and after the incoming one's is unlocked.
 * perf_sb_events counts the events that want any of these records (and
 * perf_switch_events those that want switches, perf_ns_events those that
 * want namespaces), so that the hooks cost nothing when there are none.
 */
#include <linux/bpf.h>
#include <linux/buildid.h>
#include <linux/cgroup.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/mman.h>
#include <linux/kdev_t.h>
#include <linux/path.h>
#include <linux/pid_namespace.h>
#include <linux/proc_ns.h>
#include <linux/slab.h>

#include "internal.h"

static atomic_t perf_sb_events;
atomic_t perf_switch_events;
static atomic_t perf_build_id_events;
static atomic_t perf_ns_events;

static bool wants_task(struct perf_event *event)
{
	struct perf_event_attr *a = &event->attr;

	return a->comm || a->mmap || a->mmap2 || a->mmap_data || a->task;
}

static bool wants_any(struct perf_event *event)
{
	struct perf_event_attr *a = &event->attr;

	return wants_task(event) || a->context_switch || a->ksymbol ||
	       a->bpf_event || a->text_poke || a->namespaces || a->cgroup;
}

/*
 * Count a new event among the side-band listeners (perf_event_alloc()).
 * A switch listener also keeps the scheduler's hooks on, even with no
 * task context anywhere.  A clone counts through its parent, which
 * outlives it (the parent's release removes its clones).
 */
void perf_sideband_account(struct perf_event *event)
{
	if (event->parent || !wants_any(event))
		return;
	event->attach_state |= PERF_ATTACH_SIDEBAND;
	atomic_inc(&perf_sb_events);
	if (event->attr.build_id)
		atomic_inc(&perf_build_id_events);
	if (event->attr.namespaces)
		atomic_inc(&perf_ns_events);
	if (event->attr.context_switch) {
		perf_sched_events_get();
		atomic_inc(&perf_switch_events);
	}
}

void perf_sideband_free(struct perf_event *event)
{
	if (!(event->attach_state & PERF_ATTACH_SIDEBAND))
		return;
	atomic_dec(&perf_sb_events);
	if (event->attr.build_id)
		atomic_dec(&perf_build_id_events);
	if (event->attr.namespaces)
		atomic_dec(&perf_ns_events);
	if (event->attr.context_switch) {
		atomic_dec(&perf_switch_events);
		perf_sched_events_put();
	}
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
		/* a cgroup event hears only of its cgroup's tasks */
		if (!perf_cgroup_match(event))
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

static void sb_namespaces(struct task_struct *task);

/* A new task: its FORK record, then its NAMESPACES record. */
void perf_event_fork(struct task_struct *task)
{
	sb_task(task, NULL, PERF_RECORD_FORK);
	sb_namespaces(task);
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

/*
 * PERF_RECORD_NAMESPACES: a task's namespaces, each named by the device
 * and inode of its /proc/<pid>/ns file (what stat(2) of that file gives),
 * in the order of the ABI's *_NS_INDEX.  A type the kernel is built
 * without has no such file and is recorded as zeroes.
 */
static const struct proc_ns_operations *const sb_ns_ops[NR_NAMESPACES] = {
	[NET_NS_INDEX] = IS_ENABLED(CONFIG_NET_NS) ? &netns_operations : NULL,
	[UTS_NS_INDEX] = IS_ENABLED(CONFIG_UTS_NS) ? &utsns_operations : NULL,
	[IPC_NS_INDEX] = IS_ENABLED(CONFIG_IPC_NS) ? &ipcns_operations : NULL,
	[PID_NS_INDEX] = IS_ENABLED(CONFIG_PID_NS) ? &pidns_operations : NULL,
	[USER_NS_INDEX] = IS_ENABLED(CONFIG_USER_NS) ?
			  &userns_operations : NULL,
	[MNT_NS_INDEX] = &mntns_operations,
	[CGROUP_NS_INDEX] = IS_ENABLED(CONFIG_CGROUPS) ?
			    &cgroupns_operations : NULL,
};

struct sb_ns {
	struct task_struct *task;
	struct {
		u32 pid, tid;
		u64 nr_namespaces;
		struct perf_ns_link_info link[NR_NAMESPACES];
	} body;
};

static bool ns_want(struct perf_event *event, void *rec)
{
	return event->attr.namespaces;
}

static void ns_emit(struct perf_event *event, void *rec)
{
	struct sb_ns *n = rec;

	n->body.pid = ns_tgid(event, n->task);
	n->body.tid = ns_pid(event, n->task);
	sb_output(event, PERF_RECORD_NAMESPACES, 0, &n->body, sizeof(n->body),
		  NULL, 0);
}

/* Name @task's namespace of @ops in @link; zeroes where it has none. */
static void ns_link(struct perf_ns_link_info *link, struct task_struct *task,
		    const struct proc_ns_operations *ops)
{
	struct path path;
	struct inode *inode;

	link->dev = 0;
	link->ino = 0;
	if (!ops || ns_get_path(&path, task, ops))
		return;
	inode = d_inode(path.dentry);
	link->dev = new_encode_dev(inode->i_sb->s_dev);
	link->ino = inode->i_ino;
	path_put(&path);
}

/* May sleep: the nsfs paths of the namespaces are looked up first. */
static void sb_namespaces(struct task_struct *task)
{
	struct sb_ns n = { .task = task };
	int i;

	if (!atomic_read(&perf_ns_events))
		return;
	n.body.nr_namespaces = NR_NAMESPACES;
	for (i = 0; i < NR_NAMESPACES; i++)
		ns_link(&n.body.link[i], task, sb_ns_ops[i]);
	sb_deliver(NULL, ns_want, ns_emit, &n);
}

/* setns(2) and unshare(2) of the current task */
void perf_event_namespaces(struct task_struct *task)
{
	sb_namespaces(task);
}

/* PERF_RECORD_MMAP and PERF_RECORD_MMAP2 */

struct sb_mmap {
	struct vm_area_struct *vma;
	const char *name;
	u16 name_size;			/* with its NUL and padding */
	bool exec;
	u32 maj, min, prot, flags;
	u64 ino, gen, pgoff;
	u32 build_id_size;		/* 0: none found */
	u8 build_id[BUILD_ID_SIZE_MAX];
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
		union {
			struct {
				u32 maj, min;
				u64 ino, ino_generation;
			};
			/* in their place, with PERF_RECORD_MISC_MMAP_BUILD_ID */
			struct {
				u8 size;
				u8 reserved[3];
				u8 id[BUILD_ID_SIZE_MAX];
			} bid;
		};
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
	/* the build id takes the place of the device and inode numbers */
	if (event->attr.mmap2 && event->attr.build_id && m->build_id_size) {
		memset(&body.bid, 0, sizeof(body.bid));
		body.bid.size = m->build_id_size;
		memcpy(body.bid.id, m->build_id, m->build_id_size);
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	}
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

	perf_addr_filters_mmap(vma);
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
		/* from the page cache only: mmap_lock is held */
		if (atomic_read(&perf_build_id_events) &&
		    build_id_parse_nofault(vma, m.build_id, &m.build_id_size))
			m.build_id_size = 0;
	}
	/* the record carries the name zero-padded: build that in @buf */
	len = strlen(m.name);
	memmove(buf, m.name, len);
	memset(buf + len, 0, m.name_size - len);
	m.name = buf;
	sb_deliver(NULL, mmap_want, mmap_emit, &m);
	kfree(buf);
}

/* PERF_RECORD_SWITCH and PERF_RECORD_SWITCH_CPU_WIDE */

struct sb_switch {
	struct task_struct *other;	/* the task switched to or from */
	u16 misc;
};

static bool switch_want(struct perf_event *event, void *rec)
{
	return event->attr.context_switch;
}

static void switch_emit(struct perf_event *event, void *rec)
{
	struct sb_switch *sw = rec;
	u32 ids[2];

	/* a task's own events know the other side needs no naming */
	if (event->ctx->task) {
		sb_output(event, PERF_RECORD_SWITCH, sw->misc, NULL, 0, NULL, 0);
		return;
	}
	ids[0] = ns_tgid(event, sw->other);
	ids[1] = ns_pid(event, sw->other);
	sb_output(event, PERF_RECORD_SWITCH_CPU_WIDE, sw->misc, ids,
		  sizeof(ids), NULL, 0);
}

/*
 * From the scheduler, IRQs off: current is switching out to @other
 * (@out), or has just switched in from it.
 */
void __perf_sideband_switch(struct task_struct *other, bool out)
{
	struct sb_switch sw = { .other = other };

	if (out) {
		sw.misc = PERF_RECORD_MISC_SWITCH_OUT;
		if (task_is_running(current))
			sw.misc |= PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
	}
	sb_deliver(NULL, switch_want, switch_emit, &sw);
}

/* PERF_RECORD_KSYMBOL */

struct sb_ksymbol {
	struct {
		u64 addr;
		u32 len;
		u16 ksym_type;
		u16 flags;
	} body;
	u16 name_size;
	char name[KSYM_NAME_LEN];
};

static bool ksymbol_want(struct perf_event *event, void *rec)
{
	return event->attr.ksymbol;
}

static void ksymbol_emit(struct perf_event *event, void *rec)
{
	struct sb_ksymbol *k = rec;

	sb_output(event, PERF_RECORD_KSYMBOL, 0, &k->body, sizeof(k->body),
		  k->name, k->name_size);
}

void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len, bool unregister,
			const char *sym)
{
	struct sb_ksymbol *k;

	if (!atomic_read(&perf_sb_events) ||
	    ksym_type == PERF_RECORD_KSYMBOL_TYPE_UNKNOWN ||
	    ksym_type >= PERF_RECORD_KSYMBOL_TYPE_MAX)
		return;
	k = kzalloc(sizeof(*k), GFP_ATOMIC);
	if (!k)
		return;
	k->body.addr = addr;
	k->body.len = len;
	k->body.ksym_type = ksym_type;
	k->body.flags = unregister ? PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER : 0;
	strscpy(k->name, sym, sizeof(k->name));
	k->name_size = ALIGN(strlen(k->name) + 1, sizeof(u64));
	sb_deliver(NULL, ksymbol_want, ksymbol_emit, k);
	kfree(k);
}

/*
 * PERF_RECORD_BPF_EVENT.  A load is told as the KSYMBOL records of the
 * program's JITed functions (the main one, then its subprograms, by their
 * kallsyms names), then the BPF_EVENT; an unload likewise, the KSYMBOL
 * records flagged UNREGISTER.
 */

struct sb_bpf {
	struct {
		u16 type;
		u16 flags;
		u32 id;
		u8 tag[BPF_TAG_SIZE];
	} body;
};

static bool bpf_want(struct perf_event *event, void *rec)
{
	return event->attr.bpf_event;
}

static void bpf_emit(struct perf_event *event, void *rec)
{
	struct sb_bpf *b = rec;

	sb_output(event, PERF_RECORD_BPF_EVENT, 0, &b->body, sizeof(b->body),
		  NULL, 0);
}

static void bpf_func_ksymbol(struct bpf_prog *func, bool unregister)
{
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_BPF,
			   (unsigned long)func->bpf_func, func->jited_len,
			   unregister, func->aux->ksym.name);
}

/*
 * The functions of a program as kallsyms lists them: the program itself
 * stands for its main function (func[0], which has no symbol of its own),
 * then every subprogram, hidden ones (exception callbacks) included.
 */
static void bpf_prog_ksymbols(struct bpf_prog *prog, bool unregister)
{
	struct bpf_prog_aux *aux = prog->aux;
	u32 i;

	/* an interpreted program has no code of its own */
	if (!prog->jited)
		return;
	bpf_func_ksymbol(prog, unregister);
	for (i = 1; i < aux->real_func_cnt; i++)
		bpf_func_ksymbol(aux->func[i], unregister);
}

void perf_event_bpf_event(struct bpf_prog *prog,
			  enum perf_bpf_event_type type, u16 flags)
{
	struct sb_bpf b = { };

	if (!atomic_read(&perf_sb_events) ||
	    type <= PERF_BPF_EVENT_UNKNOWN || type >= PERF_BPF_EVENT_MAX)
		return;
	bpf_prog_ksymbols(prog, type == PERF_BPF_EVENT_PROG_UNLOAD);
	b.body.type = type;
	b.body.flags = flags;
	b.body.id = prog->aux->id;
	memcpy(b.body.tag, prog->tag, sizeof(b.body.tag));
	sb_deliver(NULL, bpf_want, bpf_emit, &b);
}

/* PERF_RECORD_TEXT_POKE */

/* the longest old + new byte strings recorded: x86 pokes at most 2 * 5 */
#define TEXT_POKE_MAX	64

struct sb_text_poke {
	struct {
		u64 addr;
		u16 old_len;
		u16 new_len;
	} __packed body;
	u16 bytes_size;			/* with the padding */
	u8 bytes[TEXT_POKE_MAX + sizeof(u64)];
};

static bool text_poke_want(struct perf_event *event, void *rec)
{
	return event->attr.text_poke;
}

static void text_poke_emit(struct perf_event *event, void *rec)
{
	struct sb_text_poke *t = rec;

	sb_output(event, PERF_RECORD_TEXT_POKE, PERF_RECORD_MISC_KERNEL,
		  &t->body, sizeof(t->body), t->bytes, t->bytes_size);
}

void perf_event_text_poke(const void *addr, const void *old_bytes,
			  size_t old_len, const void *new_bytes,
			  size_t new_len)
{
	struct sb_text_poke t = { };

	if (!atomic_read(&perf_sb_events) ||
	    old_len + new_len > TEXT_POKE_MAX)
		return;
	t.body.addr = (unsigned long)addr;
	t.body.old_len = old_len;
	t.body.new_len = new_len;
	if (old_len)
		memcpy(t.bytes, old_bytes, old_len);
	if (new_len)
		memcpy(t.bytes + old_len, new_bytes, new_len);
	/* the record ends 8-aligned: 12 bytes of body, then the bytes */
	t.bytes_size = ALIGN(sizeof(t.body) + old_len + new_len,
			     sizeof(u64)) - sizeof(t.body);
	sb_deliver(NULL, text_poke_want, text_poke_emit, &t);
}

#ifdef CONFIG_CGROUP_PERF
/* PERF_RECORD_CGROUP: a cgroup was created (cgroup.c); its id and path */

struct sb_cgroup {
	u64 id;
	u16 path_size;
	char *path;
};

static bool cgroup_want(struct perf_event *event, void *rec)
{
	return event->attr.cgroup;
}

static void cgroup_emit(struct perf_event *event, void *rec)
{
	struct sb_cgroup *c = rec;

	sb_output(event, PERF_RECORD_CGROUP, 0, &c->id, sizeof(c->id),
		  c->path, c->path_size);
}

void perf_sideband_cgroup(struct cgroup *cgroup)
{
	struct sb_cgroup c = { .id = cgroup_id(cgroup) };

	if (!atomic_read(&perf_sb_events))
		return;
	c.path = kzalloc(PATH_MAX, GFP_KERNEL);
	if (!c.path)
		return;
	cgroup_path(cgroup, c.path, PATH_MAX - sizeof(u64));
	c.path_size = ALIGN(strlen(c.path) + 1, sizeof(u64));
	sb_deliver(NULL, cgroup_want, cgroup_emit, &c);
	kfree(c.path);
}
#endif
