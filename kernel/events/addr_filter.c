// SPDX-License-Identifier: GPL-2.0
/*
 * Address filters of a PMU that has them (pmu->nr_addr_filters, the
 * hardware tracers): the string of PERF_EVENT_IOC_SET_FILTER,
 *
 *	filter <offset>/<size>[@<file>]	trace only inside the range
 *	start <address>[@<file>]	start tracing on reaching the address
 *	stop <address>[@<file>]		stop tracing on reaching it
 *
 * (start and stop may have a size too, for the PMU to judge), up to
 * nr_addr_filters of them separated by spaces, newlines or commas (a tab
 * is part of a word: the ABI's separators), becomes the event's
 * list of struct perf_addr_filter, which the PMU checks
 * (addr_filters_validate()) and programs from the event's ranges
 * (addr_filters_sync(), through perf_event_addr_filters_sync() when it
 * starts the event).  Without a file, the numbers are kernel addresses
 * and the range is the filter itself; with one, they are offsets into the
 * file, and each event keeps in addr_filter_ranges[] where its task has
 * that part of the file mapped for execution: resolved when the filters
 * are set, updated when the task maps code (mmap, mprotect), cleared on
 * exec, copied to the clones of fork.  A range the task has not mapped is
 * empty (start 0, size 0).
 *
 * Locking: the list lives in the top-level event (clones use their
 * parent's, perf_event_addr_filters()); it is replaced, and every range and
 * generation changed, under its head's raw lock, nested in ctx->lock where
 * both are taken.  Filters are set in process context under the event's
 * child_mutex (the clones), resolving each task's ranges under its
 * mmap_lock; the mmap hook runs with mmap_lock held for writing and takes
 * the current task's ctx->lock.  A PMU that runs the event is restarted
 * on its CPU (perf_ctx_call()) to program the new generation.
 */
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/namei.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "internal.h"

/* events (top-level) whose filters name files: the mmap hook's gate */
static atomic_t perf_file_filter_events = ATOMIC_INIT(0);

static void filters_free(struct list_head *filters)
{
	struct perf_addr_filter *f, *tmp;

	list_for_each_entry_safe(f, tmp, filters, entry) {
		path_put(&f->path);
		list_del(&f->entry);
		kfree(f);
	}
}

/* The next token of *@s (NUL-terminated in place), or NULL at the end. */
static char *next_token(char **s)
{
	char *tok;

	do {
		tok = strsep(s, ",\n ");
	} while (tok && !*tok);
	return tok;
}

/* A number in C notation, no sign: -ERANGE when it does not fit. */
static int parse_number(const char *s, unsigned long *v)
{
	if (!isdigit(*s))
		return -EINVAL;
	return kstrtoul(s, 0, v);
}

/* "<offset>[/<size>][@<file>]": the where of a filter of @action. */
static int parse_where(struct perf_addr_filter *f, char *where)
{
	char *file = strchr(where, '@');
	char *size;
	int ret;

	if (file)
		*file++ = '\0';
	size = strchr(where, '/');
	if (size)
		*size++ = '\0';
	ret = parse_number(where, &f->offset);
	if (!ret && size)
		ret = parse_number(size, &f->size);
	if (ret)
		return ret;
	/* a range filters; a trigger's size is for the PMU to judge */
	if (f->action == PERF_ADDR_FILTER_ACTION_FILTER && !f->size)
		return -EINVAL;
	if (!file)
		return 0;
	if (!*file)
		return -EINVAL;
	ret = kern_path(file, LOOKUP_FOLLOW, &f->path);
	if (ret)
		return ret;
	if (!S_ISREG(d_inode(f->path.dentry)->i_mode)) {
		path_put(&f->path);
		f->path.dentry = NULL;
		return -EINVAL;
	}
	return 0;
}

static int parse_action(const char *s, enum perf_addr_filter_action_t *a)
{
	if (!strcmp(s, "filter"))
		*a = PERF_ADDR_FILTER_ACTION_FILTER;
	else if (!strcmp(s, "start"))
		*a = PERF_ADDR_FILTER_ACTION_START;
	else if (!strcmp(s, "stop"))
		*a = PERF_ADDR_FILTER_ACTION_STOP;
	else
		return -EINVAL;
	return 0;
}

/*
 * Parse @str (modified) into @filters for @event; *@nr_files counts those
 * that name a file.  On failure @filters may hold what was parsed.
 */
int perf_addr_filters_parse(struct perf_event *event, char *str,
			    struct list_head *filters, unsigned int *nr_files)
{
	unsigned int nr = 0;
	char *tok;
	int ret;

	*nr_files = 0;
	while ((tok = next_token(&str))) {
		struct perf_addr_filter *f;
		char *where;

		f = kzalloc(sizeof(*f), GFP_KERNEL);
		if (!f)
			return -ENOMEM;
		INIT_LIST_HEAD(&f->entry);
		ret = parse_action(tok, &f->action);
		where = ret ? NULL : next_token(&str);
		if (!where)
			ret = -EINVAL;
		if (!ret)
			ret = parse_where(f, where);
		if (ret) {
			kfree(f);
			return ret;
		}
		list_add_tail(&f->entry, filters);
		nr++;
		if (f->path.dentry)
			(*nr_files)++;
	}
	if (nr > event->pmu->nr_addr_filters)
		return -EOPNOTSUPP;
	/* a CPU-wide event has no task whose mappings would place a file */
	if (*nr_files && !(event->attach_state & PERF_ATTACH_TASK))
		return -EOPNOTSUPP;
	return 0;
}

/*
 * Where @vma maps the part of @f's file that @f names: true with @r set if
 * it maps any of it (a range is clipped to the mapping).
 */
bool perf_addr_filter_in_vma(const struct perf_addr_filter *f,
			     const struct vm_area_struct *vma,
			     struct perf_addr_filter_range *r)
{
	unsigned long off = vma->vm_pgoff << PAGE_SHIFT;
	unsigned long len = vma->vm_end - vma->vm_start;
	unsigned long first = f->offset, last;

	if (!(vma->vm_flags & VM_EXEC) || !vma->vm_file ||
	    file_inode(vma->vm_file) != d_inode(f->path.dentry))
		return false;
	/* the last byte named, without overflowing */
	last = f->size ? f->offset + min(f->size - 1, ULONG_MAX - f->offset) :
			 f->offset;
	if (last < off || (first >= off && first - off >= len))
		return false;
	first = max(first, off);
	if (last - off >= len)
		last = off + len - 1;
	r->start = vma->vm_start + (first - off);
	r->size = f->size ? last - first + 1 : 0;
	return true;
}

/* The first mapping of @f's bytes in @mm, in address order; mmap_lock held. */
static void filter_find(const struct perf_addr_filter *f, struct mm_struct *mm,
			struct perf_addr_filter_range *r)
{
	VMA_ITERATOR(vmi, mm, 0);
	struct vm_area_struct *vma;

	for_each_vma(vmi, vma)
		if (perf_addr_filter_in_vma(f, vma, r))
			return;
}

/*
 * The range of @f for a task whose code is mapped in @mm (NULL: none), or
 * for the kernel if @f names no file; mmap_lock of @mm held.
 */
static void filter_resolve(const struct perf_addr_filter *f,
			   struct mm_struct *mm,
			   struct perf_addr_filter_range *r)
{
	r->start = 0;
	r->size = 0;
	if (!f->path.dentry) {
		r->start = f->offset;
		r->size = f->size;
	} else if (mm) {
		filter_find(f, mm, r);
	}
}

/*
 * Restart @event where it runs, so that its PMU programs the generation
 * just published (perf_event_addr_filters_sync() in its start()).
 */
static void restart_fn(struct perf_event_context *ctx, struct perf_event *event,
		       void *arg, bool live)
{
	if (!live || event->state != PERF_EVENT_STATE_ACTIVE)
		return;
	event->pmu->stop(event, PERF_EF_UPDATE);
	event->pmu->start(event, PERF_EF_RELOAD);
}

static void filters_restart(struct perf_event *event)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);

	perf_ctx_call(ctx, event, restart_fn, NULL);
	mutex_unlock(&ctx->mutex);
}

/* Every range of @event from its task's mappings now; @head's lock free. */
static void event_resolve(struct perf_event *event)
{
	struct perf_addr_filters_head *head = perf_event_addr_filters(event);
	struct task_struct *task = event->hw.target;
	struct mm_struct *mm = NULL;
	struct perf_addr_filter *f;
	unsigned long flags;
	int i = 0;

	if (head->nr_file_filters && task)
		mm = get_task_mm(task);
	if (mm)
		mmap_read_lock(mm);
	raw_spin_lock_irqsave(&head->lock, flags);
	list_for_each_entry(f, &head->list, entry)
		filter_resolve(f, mm, &event->addr_filter_ranges[i++]);
	event->addr_filters_gen++;
	raw_spin_unlock_irqrestore(&head->lock, flags);
	if (mm) {
		mmap_read_unlock(mm);
		mmput(mm);
	}
}

/*
 * Replace the filters of @event (a top-level event) by @filters: the old
 * list goes, every clone's ranges are emptied until resolved in its own
 * task, and each event that runs is restarted.
 */
static void filters_install(struct perf_event *event,
			    struct list_head *filters, unsigned int nr_files)
{
	struct perf_addr_filters_head *head = &event->addr_filters;
	unsigned int nr = event->pmu->nr_addr_filters;
	struct perf_event *child;
	unsigned long flags;
	LIST_HEAD(old);

	mutex_lock(&event->child_mutex);
	raw_spin_lock_irqsave(&head->lock, flags);
	list_splice_init(&head->list, &old);
	list_splice_init(filters, &head->list);
	if (!head->nr_file_filters != !nr_files)
		atomic_add(nr_files ? 1 : -1, &perf_file_filter_events);
	head->nr_file_filters = nr_files;
	memset(event->addr_filter_ranges, 0,
	       nr * sizeof(struct perf_addr_filter_range));
	event->addr_filters_gen++;
	list_for_each_entry(child, &event->child_list, child_list) {
		memset(child->addr_filter_ranges, 0,
		       nr * sizeof(struct perf_addr_filter_range));
		child->addr_filters_gen++;
	}
	raw_spin_unlock_irqrestore(&head->lock, flags);
	filters_free(&old);

	event_resolve(event);
	filters_restart(event);
	list_for_each_entry(child, &event->child_list, child_list) {
		event_resolve(child);
		filters_restart(child);
	}
	mutex_unlock(&event->child_mutex);
}

/* PERF_EVENT_IOC_SET_FILTER on an event of a PMU with address filters. */
int perf_addr_filters_set(struct perf_event *event, char *str)
{
	unsigned int nr_files;
	LIST_HEAD(filters);
	int ret;

	ret = perf_addr_filters_parse(event, str, &filters, &nr_files);
	if (!ret && event->pmu->addr_filters_validate)
		ret = event->pmu->addr_filters_validate(&filters);
	if (ret) {
		filters_free(&filters);
		return ret;
	}
	filters_install(event, &filters, nr_files);
	return 0;
}

/* The ranges of a new event of a PMU with address filters, all empty. */
int perf_addr_filters_alloc(struct perf_event *event)
{
	if (!has_addr_filter(event))
		return 0;
	event->addr_filter_ranges = kcalloc(event->pmu->nr_addr_filters,
					    sizeof(struct perf_addr_filter_range),
					    GFP_KERNEL);
	return event->addr_filter_ranges ? 0 : -ENOMEM;
}

void perf_addr_filters_free(struct perf_event *event)
{
	if (event->addr_filters.nr_file_filters)
		atomic_dec(&perf_file_filter_events);
	filters_free(&event->addr_filters.list);
	kfree(event->addr_filter_ranges);
	event->addr_filter_ranges = NULL;
}

/*
 * A clone made at fork from @copied, the event of the forking task: the
 * child's memory is a copy of the parent's, and so are its ranges.
 */
void perf_addr_filters_inherit(struct perf_event *event,
			       struct perf_event *copied)
{
	struct perf_addr_filters_head *head = perf_event_addr_filters(event);
	unsigned long flags;

	if (!event->addr_filter_ranges)
		return;
	raw_spin_lock_irqsave(&head->lock, flags);
	if (!list_empty(&head->list)) {
		memcpy(event->addr_filter_ranges, copied->addr_filter_ranges,
		       event->pmu->nr_addr_filters *
		       sizeof(struct perf_addr_filter_range));
		event->addr_filters_gen = 1;
	}
	raw_spin_unlock_irqrestore(&head->lock, flags);
}

/*
 * Update the file ranges of the events of the current task's context:
 * @vma (NULL at exec, when the old mappings are gone) was just mapped.
 * The context is live here if it is live at all.
 */
static void task_filters_update(struct vm_area_struct *vma)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	unsigned long flags;

	if (!atomic_read(&perf_file_filter_events))
		return;
	ctx = READ_ONCE(current->perf_event_ctxp);
	if (!ctx)
		return;
	raw_spin_lock_irqsave(&ctx->lock, flags);
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		struct perf_addr_filters_head *head;
		struct perf_addr_filter *f;
		bool changed = false;
		int i = 0;

		if (!has_addr_filter(event))
			continue;
		head = perf_event_addr_filters(event);
		if (!head->nr_file_filters)
			continue;
		raw_spin_lock(&head->lock);
		list_for_each_entry(f, &head->list, entry) {
			struct perf_addr_filter_range *r =
				&event->addr_filter_ranges[i++];

			if (!f->path.dentry)
				continue;
			if (!vma) {
				changed |= r->start || r->size;
				r->start = 0;
				r->size = 0;
			} else {
				changed |= perf_addr_filter_in_vma(f, vma, r);
			}
		}
		if (changed)
			event->addr_filters_gen++;
		raw_spin_unlock(&head->lock);
		if (changed && ctx->is_active &&
		    event->oncpu == smp_processor_id())
			restart_fn(ctx, event, NULL, true);
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
}

/* mmap() or mprotect() made @vma (of current's mm) what it is now. */
void perf_addr_filters_mmap(struct vm_area_struct *vma)
{
	if (vma->vm_file && (vma->vm_flags & VM_EXEC))
		task_filters_update(vma);
}

/* exec: the task's file ranges are gone with its old mappings. */
void perf_addr_filters_exec(void)
{
	task_filters_update(NULL);
}

/**
 * perf_event_addr_filters_sync - bring a PMU's filters up to date
 * @event: an event of the calling PMU
 *
 * For the PMU's start(): program the filters if their generation moved
 * since it last did, by calling the PMU's addr_filters_sync() with the
 * filter list and @event->addr_filter_ranges stable.  Does nothing for an
 * event whose PMU has no address filters.
 *
 * Context: any (the PMU's start(), as a rule with ctx->lock held and
 * IRQs off); takes the filter list's raw spinlock with IRQs saved.
 */
void perf_event_addr_filters_sync(struct perf_event *event)
{
	struct perf_addr_filters_head *head;
	unsigned long flags;

	if (!has_addr_filter(event))
		return;
	head = perf_event_addr_filters(event);
	raw_spin_lock_irqsave(&head->lock, flags);
	if (event->addr_filters_gen != event->hw.addr_filters_gen) {
		/* the PMU reads the list and the ranges under the lock */
		event->pmu->addr_filters_sync(event);
		event->hw.addr_filters_gen = event->addr_filters_gen;
	}
	raw_spin_unlock_irqrestore(&head->lock, flags);
}
EXPORT_SYMBOL_GPL(perf_event_addr_filters_sync);
