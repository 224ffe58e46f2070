// SPDX-License-Identifier: GPL-2.0
/*
 * Record layouts: PERF_RECORD_SAMPLE with its PERF_SAMPLE_* fields in ABI
 * order, the sample_id trailer of the other records (attr.sample_id_all),
 * and the records the core emits about an event itself (LOST, THROTTLE,
 * UNTHROTTLE, LOST_SAMPLES, and for AUX area events AUX, ITRACE_START and
 * AUX_OUTPUT_HW_ID).
 *
 * Locking: none.  Everything here runs with preemption off on the CPU
 * where the event is active (or for its own records, in the context that
 * reports them) and writes through ring_buffer.c.
 */
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/pgtable.h>
#include <linux/pid_namespace.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>

#include "internal.h"

/* The id user space knows an event by: an inherited clone uses its parent's. */
static u64 primary_id(struct perf_event *event)
{
	return event->parent ? event->parent->id : event->id;
}

/*
 * The task's numbers as seen from the event's pid namespace: in the
 * initial one, where most events are, those are the task's own.
 */
static u32 event_pid(struct perf_event *event, struct task_struct *task)
{
	if (!pid_alive(task))
		return -1;
	if (event->ns == &init_pid_ns)
		return task->tgid;
	return task_tgid_nr_ns(task, event->ns);
}

static u32 event_tid(struct perf_event *event, struct task_struct *task)
{
	if (!pid_alive(task))
		return -1;
	if (event->ns == &init_pid_ns)
		return task->pid;
	return task_pid_nr_ns(task, event->ns);
}

/* Bytes of the identity fields (the sample_id trailer) of attr.sample_type. */
int perf_sample_id_size(struct perf_event *event)
{
	u64 type = event->attr.sample_type;
	int size = 0;

	if (type & PERF_SAMPLE_TID)
		size += sizeof(u64);
	if (type & PERF_SAMPLE_TIME)
		size += sizeof(u64);
	if (type & PERF_SAMPLE_ID)
		size += sizeof(u64);
	if (type & PERF_SAMPLE_STREAM_ID)
		size += sizeof(u64);
	if (type & PERF_SAMPLE_CPU)
		size += sizeof(u64);
	if (type & PERF_SAMPLE_IDENTIFIER)
		size += sizeof(u64);
	return size;
}

/*
 * Sample fields of fixed size that are not identity fields (those of the
 * sample_id trailer, perf_sample_id_size()): the sample's fixed part is
 * the two together, as perf_sample_data_size() adds them.
 */
static int sample_fixed_size(u64 type)
{
	static const u64 fixed = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |
		PERF_SAMPLE_PERIOD | PERF_SAMPLE_DATA_SRC |
		PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR |
		PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE |
		PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX;
	int size = hweight64(type & fixed) * sizeof(u64);

	if (type & PERF_SAMPLE_WEIGHT_TYPE)
		size += sizeof(u64);
	return size;
}

/*
 * Precompute the record sizes of @event; called once at allocation.
 * id_header_size is that of the identity fields whether or not other
 * records carry them (attr.sample_id_all): samples always do.
 */
void perf_event_sizes_init(struct perf_event *event)
{
	event->header_size = sample_fixed_size(event->attr.sample_type);
	event->id_header_size = perf_sample_id_size(event);
}

/*
 * Fill the identity fields of @data that @type asks for, but those that
 * @data has already (@have: a PMU's time of its own record).
 */
static void sample_id_fill(struct perf_sample_data *data,
			   struct perf_event *event, u64 type, u64 have)
{
	data->type = type;
	type &= ~have;
	if (type & PERF_SAMPLE_TID) {
		data->tid_entry.pid = event_pid(event, current);
		data->tid_entry.tid = event_tid(event, current);
	}
	if (type & PERF_SAMPLE_TIME)
		data->time = event->clock();
	if (type & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
		data->id = primary_id(event);
	if (type & PERF_SAMPLE_STREAM_ID)
		data->stream_id = event->id;
	if (type & PERF_SAMPLE_CPU) {
		data->cpu_entry.cpu = raw_smp_processor_id();
		data->cpu_entry.reserved = 0;
	}
}

void perf_event_header_init_id(struct perf_event_header *header,
			       struct perf_sample_data *data,
			       struct perf_event *event)
{
	if (!event->attr.sample_id_all)
		return;
	sample_id_fill(data, event, event->attr.sample_type, 0);
	header->size += event->id_header_size;
}

void perf_event_header__init(struct perf_event_header *header,
			     struct perf_sample_data *data, u32 type, u16 misc,
			     u16 size, struct perf_event *event)
{
	header->type = type;
	header->misc = misc;
	header->size = size;
	perf_event_header_init_id(header, data, event);
}

/* The sample_id trailer, in its ABI order. */
void perf_event_output_id(struct perf_output_handle *handle,
			  struct perf_sample_data *data,
			  struct perf_event *event)
{
	u64 type = data->type;

	if (!event->attr.sample_id_all)
		return;
	if (type & PERF_SAMPLE_TID)
		perf_output_put(handle, data->tid_entry);
	if (type & PERF_SAMPLE_TIME)
		perf_output_put(handle, data->time);
	if (type & PERF_SAMPLE_ID)
		perf_output_put(handle, data->id);
	if (type & PERF_SAMPLE_STREAM_ID)
		perf_output_put(handle, data->stream_id);
	if (type & PERF_SAMPLE_CPU)
		perf_output_put(handle, data->cpu_entry);
	if (type & PERF_SAMPLE_IDENTIFIER)
		perf_output_put(handle, data->id);
}

void perf_event__output_id_sample(struct perf_event *event,
				  struct perf_output_handle *handle,
				  struct perf_sample_data *sample)
{
	perf_event_output_id(handle, sample, event);
}

/* The count of @event as of now, from the CPU it is active on. */
static u64 sample_count(struct perf_event *event)
{
	if (event->state == PERF_EVENT_STATE_ACTIVE &&
	    event->oncpu == smp_processor_id())
		event->pmu->read(event);
	return local64_read(&event->count) +
	       atomic64_read(&event->child_count);
}

/* The words after a read() entry's value, its id and lost count, in @buf. */
static int read_entry_tail(u64 *buf, struct perf_event *event, u64 format)
{
	int n = 0;

	if (format & PERF_FORMAT_ID)
		buf[n++] = primary_id(event);
	if (format & PERF_FORMAT_LOST)
		buf[n++] = atomic64_read(&event->lost_samples);
	return n;
}

/* The times read_format asks for, as of @clock (see perf_event_times_at()). */
static int read_times(u64 *buf, struct perf_event *event, u64 format,
		      u64 clock)
{
	u64 enabled, running;
	int n = 0;

	if (!(format & (PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING)))
		return 0;
	perf_event_times_at(event, clock, &enabled, &running);
	if (format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		buf[n++] = enabled;
	if (format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		buf[n++] = running;
	return n;
}

static void sample_read_member(struct perf_output_handle *handle,
			       struct perf_event *event, u64 format)
{
	u64 buf[3];
	int n = 1;

	buf[0] = sample_count(event);
	n += read_entry_tail(buf + n, event, format);
	perf_output_copy(handle, buf, n * sizeof(u64));
}

/*
 * PERF_SAMPLE_READ: the read() layout, with the values of this moment,
 * each entry gathered first and written in one copy.  The times are
 * taken at the sample's own timestamp where it has one on perf's clock.
 */
static void sample_read_output(struct perf_output_handle *handle,
			       struct perf_sample_data *data,
			       struct perf_event *event)
{
	u64 format = event->attr.read_format;
	struct perf_event *leader = event->group_leader, *sibling;
	u64 clock = 0, buf[5];
	int n = 1;

	if ((event->attr.sample_type & PERF_SAMPLE_TIME) &&
	    !event->attr.use_clockid)
		clock = data->time;
	if (!(format & PERF_FORMAT_GROUP)) {
		buf[0] = sample_count(event);
		n += read_times(buf + n, event, format, clock);
		n += read_entry_tail(buf + n, event, format);
		perf_output_copy(handle, buf, n * sizeof(u64));
		return;
	}
	buf[0] = 1 + leader->nr_siblings;
	n += read_times(buf + n, leader, format, clock);
	perf_output_copy(handle, buf, n * sizeof(u64));
	sample_read_member(handle, leader, format);
	list_for_each_entry(sibling, &leader->sibling_list, sibling_list)
		sample_read_member(handle, sibling, format);
}

/* The physical address behind a sampled data address, or 0. */
static u64 sample_phys_addr(u64 addr)
{
	struct page *page;
	u64 phys = 0;

	if (!addr)
		return 0;
	if (virt_addr_valid((void *)(uintptr_t)addr))
		return virt_to_phys((void *)(uintptr_t)addr);
	if (addr < TASK_SIZE && current->mm &&
	    get_user_page_fast_only(addr, 0, &page)) {
		phys = page_to_phys(page) + offset_in_page(addr);
		put_page(page);
	}
	return phys;
}

/*
 * The size of the page that maps @addr, 0 if none: a walk of the page
 * tables with IRQs off, which keeps the tables from being freed under us.
 */
static u64 page_size_at(u64 addr)
{
	struct mm_struct *mm = addr >= TASK_SIZE ? &init_mm : current->mm;
	unsigned long flags;
	pgd_t *pgdp, pgd;
	p4d_t *p4dp, p4d;
	pud_t *pudp, pud;
	pmd_t *pmdp, pmd;
	pte_t *ptep, pte;
	u64 size = 0;

	if (!addr || !mm)
		return 0;
	local_irq_save(flags);
	pgdp = pgd_offset(mm, addr);
	pgd = READ_ONCE(*pgdp);
	if (pgd_none(pgd))
		goto out;
	if (pgd_leaf(pgd)) {
		size = pgd_leaf_size(pgd);
		goto out;
	}
	p4dp = p4d_offset_lockless(pgdp, pgd, addr);
	p4d = READ_ONCE(*p4dp);
	if (!p4d_present(p4d))
		goto out;
	if (p4d_leaf(p4d)) {
		size = p4d_leaf_size(p4d);
		goto out;
	}
	pudp = pud_offset_lockless(p4dp, p4d, addr);
	pud = READ_ONCE(*pudp);
	if (!pud_present(pud))
		goto out;
	if (pud_leaf(pud)) {
		size = pud_leaf_size(pud);
		goto out;
	}
	pmdp = pmd_offset_lockless(pudp, pud, addr);
	pmd = pmdp_get_lockless(pmdp);
	if (!pmd_present(pmd))
		goto out;
	if (pmd_leaf(pmd)) {
		size = pmd_leaf_size(pmd);
		goto out;
	}
	ptep = pte_offset_map(&pmd, addr);
	if (!ptep)
		goto out;
	pte = ptep_get_lockless(ptep);
	if (pte_present(pte))
		size = pte_leaf_size(pte);
	pte_unmap(ptep);
out:
	local_irq_restore(flags);
	return size;
}

/*
 * Gather what @event's sample_type asks for and @data does not have yet;
 * dyn_size grows by the variable-size parts.
 */
void perf_prepare_sample(struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs)
{
	u64 type = event->attr.sample_type;
	u64 todo = type & ~data->sample_flags;

	/* the PMU gave the time of its record (Intel's PEBS): it stands */
	sample_id_fill(data, event, type, data->sample_flags & PERF_SAMPLE_TIME);
	if (todo & (PERF_SAMPLE_IP | PERF_SAMPLE_CODE_PAGE_SIZE))
		data->ip = regs ? perf_instruction_pointer(regs) : 0;
	/* the PMU or the hook gave an address, or there is none */
	if (!(data->sample_flags & PERF_SAMPLE_ADDR))
		data->addr = 0;
	if (todo & PERF_SAMPLE_CALLCHAIN)
		perf_sample_save_callchain(data, event, regs);
	if (todo & PERF_SAMPLE_RAW) {
		/* an empty payload: a u32 size of 4 and four zero bytes */
		data->raw = NULL;
		data->dyn_size += sizeof(u64);
		data->sample_flags |= PERF_SAMPLE_RAW;
	}
	if (todo & PERF_SAMPLE_BRANCH_STACK) {
		/* the PMU took no branches: an empty stack, index unknown */
		data->br_stack = NULL;
		data->br_stack_cntr = NULL;
		data->dyn_size += sizeof(u64);
		if (branch_sample_hw_index(event))
			data->dyn_size += sizeof(u64);
	}
	if (todo & PERF_SAMPLE_WEIGHT_TYPE)
		data->weight.full = 0;
	if (todo & PERF_SAMPLE_DATA_SRC)
		data->data_src.val = PERF_MEM_NA;
	if (todo & PERF_SAMPLE_TRANSACTION)
		data->txn = 0;
	if (todo & PERF_SAMPLE_PHYS_ADDR)
		data->phys_addr = sample_phys_addr(data->addr);
	if (todo & PERF_SAMPLE_CGROUP)
		data->cgroup = perf_cgroup_sample_id();
	if (todo & PERF_SAMPLE_DATA_PAGE_SIZE)
		data->data_page_size = page_size_at(data->addr);
	if (todo & PERF_SAMPLE_CODE_PAGE_SIZE)
		data->code_page_size = page_size_at(data->ip);
	if (type & PERF_SAMPLE_READ)
		data->dyn_size += perf_read_size(event);
	data->sample_flags |= todo;
	/* last: the stack dump takes what room the rest leaves */
	if (todo & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
		    PERF_SAMPLE_REGS_INTR))
		perf_prepare_regs(data, event, regs);
	/* and the AUX snapshot what is left after that */
	if (todo & PERF_SAMPLE_AUX)
		perf_aux_sample_prepare(data, event);
}

void perf_prepare_header(struct perf_event_header *header,
			 struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs)
{
	header->type = PERF_RECORD_SAMPLE;
	header->size = perf_sample_data_size(data, event);
	header->misc = regs ? perf_misc_flags(regs) : PERF_RECORD_MISC_KERNEL;
	/* the record must fit the header's u16 size */
	WARN_ON_ONCE(header->size & 7);
}

/*
 * PERF_SAMPLE_BRANCH_STACK: the number of branches, the hardware index of
 * the newest (attr.branch_sample_type's HW_INDEX: -1 where unknown), the
 * branches newest first, and the counters beside each where the PMU gave
 * them (PERF_SAMPLE_BRANCH_COUNTERS).
 */
static void output_branch_stack(struct perf_output_handle *handle,
				struct perf_sample_data *data,
				struct perf_event *event)
{
	struct perf_branch_stack *bs = data->br_stack;
	u64 nr = bs ? bs->nr : 0;
	u64 idx = bs ? bs->hw_idx : -1ULL;

	perf_output_put(handle, nr);
	if (branch_sample_hw_index(event))
		perf_output_put(handle, idx);
	if (!nr)
		return;
	perf_output_copy(handle, bs->entries,
			 nr * sizeof(struct perf_branch_entry));
	if (data->br_stack_cntr)
		perf_output_copy(handle, data->br_stack_cntr, nr * sizeof(u64));
}

static void output_raw(struct perf_output_handle *handle,
		       struct perf_raw_record *raw)
{
	struct perf_raw_frag *frag;
	u32 zero = 0;

	if (!raw) {
		u32 size = sizeof(u32);

		perf_output_put(handle, size);
		perf_output_put(handle, zero);
		return;
	}
	perf_output_put(handle, raw->size);
	for (frag = &raw->frag;; frag = frag->next) {
		if (frag->copy)
			perf_output_copy_fn(handle, frag->copy, frag->data,
					    frag->size);
		else
			perf_output_copy(handle, frag->data, frag->size);
		if (perf_raw_frag_last(frag))
			break;
	}
	if (frag->pad)
		perf_output_skip(handle, frag->pad);
}

/* the fields a sample starts with after its header, a u64 each */
#define SAMPLE_LEAD	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |	\
			 PERF_SAMPLE_TID | PERF_SAMPLE_TIME |		\
			 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |		\
			 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |	\
			 PERF_SAMPLE_PERIOD)

/*
 * The header and the leading fields, in their ABI order: stored straight
 * into the buffer where they fit before its end (all but the records that
 * wrap around), else gathered here and copied in pieces.
 */
static void output_lead(struct perf_output_handle *handle,
			struct perf_event_header *header,
			struct perf_sample_data *data, u64 type)
{
	struct perf_buffer *rb = handle->rb;
	unsigned int len = (1 + hweight64(type & SAMPLE_LEAD)) * sizeof(u64);
	unsigned long off = handle->head & (rb->size - 1);
	bool direct = len <= handle->size && off + len <= rb->size;
	u64 gather[1 + 9] __uninitialized, *p;

	BUILD_BUG_ON(sizeof(*header) != sizeof(u64) ||
		     sizeof(data->tid_entry) != sizeof(u64) ||
		     sizeof(data->cpu_entry) != sizeof(u64));
	p = direct ? rb->data + off : gather;
	memcpy(p++, header, sizeof(u64));
	if (type & PERF_SAMPLE_IDENTIFIER)
		*p++ = data->id;
	if (type & PERF_SAMPLE_IP)
		*p++ = data->ip;
	if (type & PERF_SAMPLE_TID)
		memcpy(p++, &data->tid_entry, sizeof(u64));
	if (type & PERF_SAMPLE_TIME)
		*p++ = data->time;
	if (type & PERF_SAMPLE_ADDR)
		*p++ = data->addr;
	if (type & PERF_SAMPLE_ID)
		*p++ = data->id;
	if (type & PERF_SAMPLE_STREAM_ID)
		*p++ = data->stream_id;
	if (type & PERF_SAMPLE_CPU)
		memcpy(p++, &data->cpu_entry, sizeof(u64));
	if (type & PERF_SAMPLE_PERIOD)
		*p++ = data->period;
	if (!direct) {
		perf_output_copy(handle, gather, len);
		return;
	}
	handle->head += len;
	handle->size -= len;
}

void perf_output_sample(struct perf_output_handle *handle,
			struct perf_event_header *header,
			struct perf_sample_data *data,
			struct perf_event *event)
{
	u64 type = event->attr.sample_type;

	output_lead(handle, header, data, type);
	if (type & PERF_SAMPLE_READ)
		sample_read_output(handle, data, event);
	if (type & PERF_SAMPLE_CALLCHAIN) {
		struct perf_callchain_entry *cc = data->callchain;

		perf_output_put(handle, cc->nr);
		perf_output_copy(handle, cc->ip, cc->nr * sizeof(u64));
	}
	if (type & PERF_SAMPLE_RAW)
		output_raw(handle, data->raw);
	if (type & PERF_SAMPLE_BRANCH_STACK)
		output_branch_stack(handle, data, event);
	if (type & PERF_SAMPLE_REGS_USER)
		perf_output_regs_user(handle, data, event);
	if (type & PERF_SAMPLE_STACK_USER)
		perf_output_stack_user(handle, data);
	if (type & PERF_SAMPLE_WEIGHT_TYPE)
		perf_output_put(handle, data->weight.full);
	if (type & PERF_SAMPLE_DATA_SRC)
		perf_output_put(handle, data->data_src.val);
	if (type & PERF_SAMPLE_TRANSACTION)
		perf_output_put(handle, data->txn);
	if (type & PERF_SAMPLE_REGS_INTR)
		perf_output_regs_intr(handle, data, event);
	if (type & PERF_SAMPLE_PHYS_ADDR)
		perf_output_put(handle, data->phys_addr);
	if (type & PERF_SAMPLE_CGROUP)
		perf_output_put(handle, data->cgroup);
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE)
		perf_output_put(handle, data->data_page_size);
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE)
		perf_output_put(handle, data->code_page_size);
	if (type & PERF_SAMPLE_AUX)
		perf_aux_sample_output(handle, data);
	perf_output_sample_done(handle);
}

static int sample_output(struct perf_event *event,
			 struct perf_sample_data *data, struct pt_regs *regs,
			 bool backward)
{
	/* both are filled before use: not cleared, on this hot path */
	struct perf_output_handle handle __uninitialized;
	struct perf_event_header header __uninitialized;
	struct perf_buffer *rb;
	unsigned long flags;
	int ret;

	/*
	 * IRQs off from sizing to writing: the event's group is active on
	 * this CPU, and only this CPU changes its members, with IRQs off, so
	 * the group that PERF_SAMPLE_READ reads holds still.
	 */
	local_irq_save(flags);
	rcu_read_lock();
	/*
	 * No buffer to write to (none mapped, or one without data pages):
	 * the sample would be dropped uncounted, so it is not gathered.
	 */
	rb = perf_output_buffer(event);
	if (!rb) {
		ret = -ENOSPC;
		goto out;
	}
	perf_prepare_sample(data, event, regs);
	perf_prepare_header(&header, data, event, regs);
	ret = perf_output_begin_rb(&handle, event, rb, header.size, backward);
	if (!ret) {
		perf_output_sample(&handle, &header, data, event);
		perf_output_end(&handle);
	}
	/* data->aux_size is set only where the sample asks for AUX data */
	if (event->attr.sample_type & PERF_SAMPLE_AUX)
		perf_aux_sample_done(data);
out:
	rcu_read_unlock();
	local_irq_restore(flags);
	return ret;
}

void perf_event_output_forward(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	sample_output(event, data, regs, false);
}

void perf_event_output_backward(struct perf_event *event,
				struct perf_sample_data *data,
				struct pt_regs *regs)
{
	sample_output(event, data, regs, true);
}

int perf_event_output(struct perf_event *event, struct perf_sample_data *data,
		      struct pt_regs *regs)
{
	struct perf_event *out = event->parent ? event->parent : event;

	return sample_output(event, data, regs, out->attr.write_backward);
}

/* PERF_RECORD_LOST inside a reservation made by ring_buffer.c. */
void perf_output_lost(struct perf_output_handle *handle,
		      struct perf_event *event, u64 lost)
{
	struct perf_sample_data data;
	struct {
		struct perf_event_header header;
		u64 id;
		u64 lost;
	} rec = {
		.header = {
			.type = PERF_RECORD_LOST,
			.size = sizeof(rec),
		},
		.id = primary_id(event),
		.lost = lost,
	};

	perf_event_header_init_id(&rec.header, &data, event);
	perf_output_put(handle, rec);
	perf_event_output_id(handle, &data, event);
}

/*
 * Write @rec, a record of @rec->size bytes that the core emits about
 * @event, followed by the event's sample_id trailer.
 */
static void log_record(struct perf_event *event, struct perf_event_header *rec)
{
	struct perf_output_handle handle;
	struct perf_sample_data data;
	u16 size = rec->size;

	perf_event_header_init_id(rec, &data, event);
	if (perf_output_begin(&handle, &data, event, rec->size))
		return;
	perf_output_copy(&handle, rec, size);
	perf_event_output_id(&handle, &data, event);
	perf_output_end(&handle);
}

/* PERF_RECORD_THROTTLE or UNTHROTTLE for @event. */
void perf_log_throttle(struct perf_event *event, bool unthrottle)
{
	struct {
		struct perf_event_header header;
		u64 time;
		u64 id;
		u64 stream_id;
	} rec = {
		.header = {
			.type = unthrottle ? PERF_RECORD_UNTHROTTLE :
					     PERF_RECORD_THROTTLE,
			.size = sizeof(rec),
		},
		.time = event->clock(),
		.id = primary_id(event),
		.stream_id = event->id,
	};

	log_record(event, &rec.header);
}

/* PERF_RECORD_LOST_SAMPLES: the PMU dropped @lost samples of @event. */
void perf_log_lost_samples(struct perf_event *event, u64 lost)
{
	struct {
		struct perf_event_header header;
		u64 lost;
	} rec = {
		.header = {
			.type = PERF_RECORD_LOST_SAMPLES,
			.size = sizeof(rec),
		},
		.lost = lost,
	};

	log_record(event, &rec.header);
}

/* PERF_RECORD_AUX: @size bytes at @offset of the AUX area are new. */
void perf_log_aux(struct perf_event *event, u64 offset, u64 size, u64 flags)
{
	struct {
		struct perf_event_header header;
		u64 offset;
		u64 size;
		u64 flags;
	} rec = {
		.header = {
			.type = PERF_RECORD_AUX,
			.size = sizeof(rec),
		},
		.offset = offset,
		.size = size,
		.flags = flags,
	};

	log_record(event, &rec.header);
}

/* PERF_RECORD_ITRACE_START: the task that @event starts tracing. */
void perf_log_itrace_start(struct perf_event *event)
{
	struct {
		struct perf_event_header header;
		u32 pid;
		u32 tid;
	} rec = {
		.header = {
			.type = PERF_RECORD_ITRACE_START,
			.size = sizeof(rec),
		},
		.pid = event_pid(event, current),
		.tid = event_tid(event, current),
	};

	log_record(event, &rec.header);
}

/**
 * perf_report_aux_output_id - tell the reader an event's hardware id
 * @event: an event whose PMU writes AUX data
 * @hw_id: the identifier the hardware tags @event's data with
 *
 * Writes a PERF_RECORD_AUX_OUTPUT_HW_ID, with @event's sample_id trailer,
 * into @event's buffer, for a decoder to tell the sources of one AUX
 * area apart.  Nothing is written without a buffer or room in it.
 *
 * Context: any, up to NMI, on the CPU where @event is active.
 */
void perf_report_aux_output_id(struct perf_event *event, u64 hw_id)
{
	struct {
		struct perf_event_header header;
		u64 hw_id;
	} rec = {
		.header = {
			.type = PERF_RECORD_AUX_OUTPUT_HW_ID,
			.size = sizeof(rec),
		},
		.hw_id = hw_id,
	};

	log_record(event, &rec.header);
}
EXPORT_SYMBOL_GPL(perf_report_aux_output_id);
