// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the ring buffer (ring_buffer.c): records written through
 * perf_output_begin/copy/end on a bare event with a one-page buffer, read
 * back the way user space reads them.  Covers wrap at the end of the data
 * area (of raw records, and of samples' leading fields written by
 * output.c), the room left by data_tail, lost records and their PERF_RECORD_LOST,
 * overwrite and backward buffers, nested writers and PAUSE_OUTPUT; and the
 * AUX area of aux.c as a PMU driver writes it.
 *
 * Locking: none; each case owns its event and buffer, and writes with
 * preemption off like the real writers.
 */
#include <kunit/test.h>
#include <linux/irq_work.h>
#include <linux/mm_types.h>
#include <linux/slab.h>

#include "../internal.h"

#define REC_SIZE	24	/* header + two u64 */

struct rb_fixture {
	struct perf_event *event;
	struct perf_buffer *rb;
};

static void nop_irq_work(struct irq_work *work)
{
}

static int rb_fixture_init(struct kunit *test, bool overwrite)
{
	struct rb_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct perf_event *event;

	KUNIT_ASSERT_NOT_NULL(test, f);
	event = kunit_kzalloc(test, sizeof(*event), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, event);
	INIT_LIST_HEAD(&event->rb_entry);
	init_waitqueue_head(&event->waitq);
	init_irq_work(&event->pending_irq, nop_irq_work);
	event->state = PERF_EVENT_STATE_OFF;
	event->id = 42;
	f->rb = perf_rb_alloc(1, 0, overwrite);
	KUNIT_ASSERT_NOT_NULL(test, f->rb);
	perf_rb_attach(event, f->rb);
	/* the attach took its own reference: drop the allocation's */
	perf_rb_put(f->rb);
	f->event = event;
	test->priv = f;
	return 0;
}

static int rb_init(struct kunit *test)
{
	return rb_fixture_init(test, false);
}

static void rb_exit(struct kunit *test)
{
	struct rb_fixture *f = test->priv;

	irq_work_sync(&f->event->pending_irq);
	perf_rb_detach(f->event);
}

/* Write one REC_SIZE record carrying @a and @b; false if it did not fit. */
static bool put_rec(struct perf_event *event, u64 a, u64 b, bool backward)
{
	struct perf_output_handle handle;
	struct perf_event_header h = {
		.type = PERF_RECORD_SAMPLE,
		.size = REC_SIZE,
	};
	bool ok;

	preempt_disable();
	ok = !(backward ?
	       perf_output_begin_backward(&handle, NULL, event, REC_SIZE) :
	       perf_output_begin_forward(&handle, NULL, event, REC_SIZE));
	if (ok) {
		perf_output_put(&handle, h);
		perf_output_put(&handle, a);
		perf_output_put(&handle, b);
		perf_output_end(&handle);
	}
	preempt_enable();
	return ok;
}

/* Copy @len bytes at position @pos of the data area, across its end. */
static void rb_read(struct perf_buffer *rb, u64 pos, void *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		((u8 *)buf)[i] = ((u8 *)rb->data)[(pos + i) & (rb->size - 1)];
}

static u64 rb_head(struct perf_buffer *rb)
{
	return READ_ONCE(rb->user_page->data_head);
}

static void rb_consume(struct perf_buffer *rb, u64 tail)
{
	WRITE_ONCE(rb->user_page->data_tail, tail);
}

/* Records straddling the end of the data area read back whole. */
static void rb_wrap_test(struct kunit *test)
{
	struct rb_fixture *f = test->priv;
	u64 pos = 0, rec[3];
	int i;

	for (i = 0; i < 1000; i++) {
		KUNIT_ASSERT_TRUE(test, put_rec(f->event, i, ~(u64)i, false));
		KUNIT_ASSERT_EQ(test, rb_head(f->rb), pos + REC_SIZE);
		rb_read(f->rb, pos, rec, sizeof(rec));
		KUNIT_EXPECT_EQ(test, rec[0] & 0xffffffff,
				(u64)PERF_RECORD_SAMPLE);
		KUNIT_EXPECT_EQ(test, rec[1], (u64)i);
		KUNIT_EXPECT_EQ(test, rec[2], ~(u64)i);
		pos += REC_SIZE;
		rb_consume(f->rb, pos);
	}
	/* 24 does not divide 4096: some records did wrap */
	KUNIT_EXPECT_GT(test, pos, 5 * f->rb->size);
}

/*
 * Unread data is kept: what does not fit is counted lost, and reported
 * by a PERF_RECORD_LOST ahead of the next record that fits.
 */
static void rb_lost_test(struct kunit *test)
{
	struct rb_fixture *f = test->priv;
	int fit = PAGE_SIZE / REC_SIZE, i, failed = 0;
	u64 head, rec[3];

	for (i = 0; i < fit + 10; i++)
		failed += !put_rec(f->event, i, 0, false);
	KUNIT_EXPECT_EQ(test, failed, 10);
	head = rb_head(f->rb);
	KUNIT_EXPECT_EQ(test, head, (u64)fit * REC_SIZE);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->event->lost_samples), 10LL);

	rb_consume(f->rb, head);
	KUNIT_ASSERT_TRUE(test, put_rec(f->event, 7, 7, false));
	rb_read(f->rb, head, rec, sizeof(rec));
	KUNIT_EXPECT_EQ(test, rec[0] & 0xffffffff, (u64)PERF_RECORD_LOST);
	KUNIT_EXPECT_EQ(test, rec[0] >> 48, (u64)REC_SIZE);
	KUNIT_EXPECT_EQ(test, rec[1], 42ULL);	/* the event's id */
	KUNIT_EXPECT_EQ(test, rec[2], 10ULL);	/* the count */
	rb_read(f->rb, head + REC_SIZE, rec, sizeof(rec));
	KUNIT_EXPECT_EQ(test, rec[1], 7ULL);
	KUNIT_EXPECT_EQ(test, rb_head(f->rb), head + 2 * REC_SIZE);
	/* reported once */
	KUNIT_ASSERT_TRUE(test, put_rec(f->event, 8, 8, false));
	KUNIT_EXPECT_EQ(test, rb_head(f->rb), head + 3 * REC_SIZE);
}

/* A writer interrupted by another: the outer one publishes both. */
static void rb_nested_test(struct kunit *test)
{
	struct rb_fixture *f = test->priv;
	struct perf_output_handle outer;
	struct perf_event_header h = { .type = 1, .size = REC_SIZE };
	u64 zero = 0;

	preempt_disable();
	KUNIT_ASSERT_EQ(test, perf_output_begin_forward(&outer, NULL, f->event,
							REC_SIZE), 0);
	KUNIT_EXPECT_TRUE(test, put_rec(f->event, 1, 1, false));
	/* the inner record is written, not yet published */
	KUNIT_EXPECT_EQ(test, rb_head(f->rb), 0ULL);
	perf_output_put(&outer, h);
	perf_output_put(&outer, zero);
	perf_output_put(&outer, zero);
	perf_output_end(&outer);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, rb_head(f->rb), 2ULL * REC_SIZE);
}

/*
 * A copy longer than the room reserved writes what fits and says how many
 * bytes it did not copy; the next record starts where the room ended.
 */
static void rb_copy_beyond_room_test(struct kunit *test)
{
	struct rb_fixture *f = test->priv;
	struct perf_output_handle handle;
	struct perf_event_header h = { .type = 1, .size = REC_SIZE };
	u64 words[4] = { 1, 2, 3, 4 }, rec[3];

	preempt_disable();
	KUNIT_ASSERT_EQ(test, perf_output_begin_forward(&handle, NULL, f->event,
							REC_SIZE), 0);
	perf_output_put(&handle, h);
	KUNIT_EXPECT_EQ(test, perf_output_copy(&handle, words, sizeof(words)),
			2U * sizeof(u64));
	KUNIT_EXPECT_EQ(test, perf_output_copy(&handle, words, sizeof(u64)),
			(unsigned int)sizeof(u64));
	perf_output_end(&handle);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, rb_head(f->rb), (u64)REC_SIZE);
	rb_read(f->rb, 0, rec, sizeof(rec));
	KUNIT_EXPECT_EQ(test, rec[1], 1ULL);
	KUNIT_EXPECT_EQ(test, rec[2], 2ULL);
	KUNIT_ASSERT_TRUE(test, put_rec(f->event, 5, 6, false));
	rb_read(f->rb, REC_SIZE, rec, sizeof(rec));
	KUNIT_EXPECT_EQ(test, rec[1], 5ULL);
}

static void rb_pause_test(struct kunit *test)
{
	struct rb_fixture *f = test->priv;

	KUNIT_ASSERT_EQ(test, perf_event_pause_output(f->event, 1), 0);
	KUNIT_EXPECT_FALSE(test, put_rec(f->event, 1, 1, false));
	KUNIT_EXPECT_EQ(test, rb_head(f->rb), 0ULL);
	KUNIT_ASSERT_EQ(test, perf_event_pause_output(f->event, 0), 0);
	KUNIT_EXPECT_TRUE(test, put_rec(f->event, 1, 1, false));
}

static int rb_overwrite_init(struct kunit *test)
{
	return rb_fixture_init(test, true);
}

/* An overwrite buffer never refuses a record, whatever data_tail says. */
static void rb_overwrite_test(struct kunit *test)
{
	struct rb_fixture *f = test->priv;
	int i;

	for (i = 0; i < 1000; i++)
		KUNIT_ASSERT_TRUE(test, put_rec(f->event, i, 0, false));
	KUNIT_EXPECT_EQ(test, rb_head(f->rb), 1000ULL * REC_SIZE);
	KUNIT_EXPECT_EQ(test, atomic64_read(&f->event->lost_samples), 0LL);
}

/* Backward: the head goes down, each record lies at the new head. */
static void rb_backward_test(struct kunit *test)
{
	struct rb_fixture *f = test->priv;
	u64 rec[3];
	int i;

	for (i = 1; i <= 300; i++) {
		KUNIT_ASSERT_TRUE(test, put_rec(f->event, i, 0, true));
		KUNIT_ASSERT_EQ(test, rb_head(f->rb), -(u64)i * REC_SIZE);
		rb_read(f->rb, rb_head(f->rb), rec, sizeof(rec));
		KUNIT_EXPECT_EQ(test, rec[1], (u64)i);
	}
}

/*
 * Samples whose leading fields (header to PERIOD) straddle the end of the
 * data area read back whole, in their ABI order, as those that do not.
 */
static void rb_sample_wrap_test(struct kunit *test)
{
	struct rb_fixture *f = test->priv;
	struct perf_event *event = f->event;
	struct perf_sample_data data;
	u64 pos = 0, rec[9], cpu;
	int i, wrapped = 0;

	event->attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
				  PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
				  PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
				  PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	perf_event_sizes_init(event);
	for (i = 0; i < 200; i++) {
		preempt_disable();
		perf_sample_data_init(&data, 0x1000 + i, 100 + i);
		/* a PMU's own time stamp: the bare event has no clock */
		data.time = 5000 + i;
		data.sample_flags |= PERF_SAMPLE_TIME;
		KUNIT_ASSERT_EQ(test, perf_event_output(event, &data, NULL), 0);
		cpu = smp_processor_id();
		preempt_enable();
		KUNIT_ASSERT_EQ(test, rb_head(f->rb), pos + sizeof(rec));
		if ((pos & (f->rb->size - 1)) + sizeof(rec) > f->rb->size)
			wrapped++;
		rb_read(f->rb, pos, rec, sizeof(rec));
		KUNIT_EXPECT_EQ(test, rec[0] & 0xffffffff,
				(u64)PERF_RECORD_SAMPLE);
		KUNIT_EXPECT_EQ(test, rec[0] >> 48, (u64)sizeof(rec));
		KUNIT_EXPECT_EQ(test, rec[1], 42ULL);		/* IDENTIFIER */
		KUNIT_EXPECT_EQ(test, rec[2], 0ULL);		/* IP: no regs */
		KUNIT_EXPECT_EQ(test, rec[3], 5000ULL + i);	/* TIME */
		KUNIT_EXPECT_EQ(test, rec[4], 0x1000ULL + i);	/* ADDR */
		KUNIT_EXPECT_EQ(test, rec[5], 42ULL);		/* ID */
		KUNIT_EXPECT_EQ(test, rec[6], 42ULL);		/* STREAM_ID */
		KUNIT_EXPECT_EQ(test, rec[7], cpu);		/* CPU, 0 */
		KUNIT_EXPECT_EQ(test, rec[8], 100ULL + i);	/* PERIOD */
		pos += sizeof(rec);
		rb_consume(f->rb, pos);
	}
	/* 72 does not divide 4096: some samples did straddle the end */
	KUNIT_EXPECT_GT(test, wrapped, 0);
}

static struct kunit_case rb_cases[] = {
	KUNIT_CASE(rb_wrap_test),
	KUNIT_CASE(rb_sample_wrap_test),
	KUNIT_CASE(rb_lost_test),
	KUNIT_CASE(rb_nested_test),
	KUNIT_CASE(rb_copy_beyond_room_test),
	KUNIT_CASE(rb_pause_test),
	{}
};

static struct kunit_suite rb_suite = {
	.name = "perf_ring_buffer",
	.init = rb_init,
	.exit = rb_exit,
	.test_cases = rb_cases,
};

static struct kunit_case rb_overwrite_cases[] = {
	KUNIT_CASE(rb_overwrite_test),
	KUNIT_CASE(rb_backward_test),
	{}
};

static struct kunit_suite rb_overwrite_suite = {
	.name = "perf_ring_buffer_overwrite",
	.init = rb_overwrite_init,
	.exit = rb_exit,
	.test_cases = rb_overwrite_cases,
};

/*
 * The AUX area (aux.c), with a fake PMU that records what the core hands
 * it: an area of AUX_PAGES pages on the fixture's buffer, written through
 * perf_aux_output_begin/skip/end as a PMU driver writes it.
 */
#define AUX_PAGES	4
#define AUX_SIZE	(AUX_PAGES * PAGE_SIZE)

struct aux_fake {
	void *freed_priv;
	void **pages;
	int nr_pages;
	bool overwrite;
	int freed;
};

static struct aux_fake aux_fake;

static void *aux_fake_setup(struct perf_event *event, void **pages,
			    int nr_pages, bool overwrite)
{
	aux_fake.pages = pages;
	aux_fake.nr_pages = nr_pages;
	aux_fake.overwrite = overwrite;
	return &aux_fake;
}

static void aux_fake_free(void *priv)
{
	aux_fake.freed_priv = priv;
	aux_fake.freed++;
}

static struct pmu aux_fake_pmu = {
	.setup_aux	= aux_fake_setup,
	.free_aux	= aux_fake_free,
};

static struct pmu aux_fake_pmu_no_sg = {
	.capabilities	= PERF_PMU_CAP_AUX_NO_SG,
	.setup_aux	= aux_fake_setup,
	.free_aux	= aux_fake_free,
};

/* The fixture's buffer gets an area for @pmu, mapped once. */
static void aux_map(struct kunit *test, struct pmu *pmu, bool overwrite,
		    u32 watermark)
{
	struct rb_fixture *f = test->priv;

	memset(&aux_fake, 0, sizeof(aux_fake));
	f->event->pmu = pmu;
	f->event->attr.aux_watermark = watermark;
	/* nothing to charge without a mapping, but the free uncharges */
	KUNIT_ASSERT_EQ(test, perf_mlock_charge(&f->rb->aux_charge, &init_mm,
						0), 0);
	KUNIT_ASSERT_EQ(test, perf_aux_alloc(f->rb, f->event, AUX_PAGES,
					     overwrite), 0);
	atomic_set(&f->rb->aux_mmap_count, 1);
}

/* The last mapping goes; wait for the area to be freed. */
static void aux_unmap(struct perf_buffer *rb)
{
	if (atomic_dec_and_test(&rb->aux_mmap_count))
		perf_aux_put(rb);
	irq_work_sync(&rb->aux_free_irq);
	flush_work(&rb->aux_free_work);
}

/* The AUX record at data position @pos: offset, size, flags. */
static void aux_record(struct kunit *test, struct perf_buffer *rb, u64 pos,
		       u64 offset, u64 size, u64 flags)
{
	u64 rec[4];

	rb_read(rb, pos, rec, sizeof(rec));
	/* type, then misc 0, then the size, in the header's u64 */
	KUNIT_EXPECT_EQ(test, rec[0],
			(u64)PERF_RECORD_AUX | (u64)sizeof(rec) << 48);
	KUNIT_EXPECT_EQ(test, rec[1], offset);
	KUNIT_EXPECT_EQ(test, rec[2], size);
	KUNIT_EXPECT_EQ(test, rec[3], flags);
}

static void *aux_begin(struct perf_output_handle *handle,
		       struct perf_event *event)
{
	void *priv;

	preempt_disable();
	priv = perf_aux_output_begin(handle, event);
	preempt_enable();
	return priv;
}

static void aux_end(struct perf_output_handle *handle, unsigned long size)
{
	preempt_disable();
	perf_aux_output_end(handle, size);
	preempt_enable();
}

/* The PMU gets the pages, one handle at a time, the area freed at last. */
static void aux_setup_test(struct kunit *test)
{
	struct rb_fixture *f = test->priv;
	struct perf_output_handle h, h2;
	int i;

	aux_map(test, &aux_fake_pmu, false, 0);
	KUNIT_EXPECT_EQ(test, aux_fake.nr_pages, AUX_PAGES);
	KUNIT_EXPECT_FALSE(test, aux_fake.overwrite);
	for (i = 0; i < AUX_PAGES; i++)
		KUNIT_EXPECT_TRUE(test, PAGE_ALIGNED(aux_fake.pages[i]));

	KUNIT_ASSERT_PTR_EQ(test, aux_begin(&h, f->event), (void *)&aux_fake);
	KUNIT_EXPECT_PTR_EQ(test, perf_get_aux(&h), (void *)&aux_fake);
	KUNIT_EXPECT_EQ(test, h.head, 0UL);
	KUNIT_EXPECT_EQ(test, h.size, AUX_SIZE);
	/* the default watermark: half the area */
	KUNIT_EXPECT_EQ(test, h.wakeup, AUX_SIZE / 2);
	KUNIT_EXPECT_NULL(test, aux_begin(&h2, f->event));
	KUNIT_EXPECT_NULL(test, perf_get_aux(&h2));

	/* unmapped while the handle is open: freed when it closes */
	aux_unmap(f->rb);
	KUNIT_EXPECT_EQ(test, aux_fake.freed, 0);
	aux_end(&h, 100);
	KUNIT_EXPECT_NULL(test, perf_get_aux(&h));
	irq_work_sync(&f->rb->aux_free_irq);
	flush_work(&f->rb->aux_free_work);
	KUNIT_EXPECT_EQ(test, aux_fake.freed, 1);
	KUNIT_EXPECT_PTR_EQ(test, aux_fake.freed_priv, (void *)&aux_fake);
	KUNIT_EXPECT_EQ(test, f->rb->aux_nr_pages, 0);
	KUNIT_EXPECT_NULL(test, aux_begin(&h, f->event));
}

/* A PMU that cannot scatter gets physically contiguous pages. */
static void aux_no_sg_test(struct kunit *test)
{
	struct rb_fixture *f = test->priv;
	int i;

	aux_map(test, &aux_fake_pmu_no_sg, false, 0);
	for (i = 1; i < AUX_PAGES; i++)
		KUNIT_EXPECT_PTR_EQ(test, aux_fake.pages[i],
				    aux_fake.pages[0] + i * PAGE_SIZE);
	aux_unmap(f->rb);
	KUNIT_EXPECT_EQ(test, aux_fake.freed, 1);
}

/* Output, padding and the reader's room; a full area truncates. */
static void aux_output_test(struct kunit *test)
{
	struct rb_fixture *f = test->priv;
	struct perf_event_mmap_page *up = f->rb->user_page;
	struct perf_output_handle h;

	aux_map(test, &aux_fake_pmu, false, 0);
	KUNIT_ASSERT_NOT_NULL(test, aux_begin(&h, f->event));
	aux_end(&h, 100);
	KUNIT_EXPECT_EQ(test, up->aux_head, 100ULL);
	aux_record(test, f->rb, 0, 0, 100, 0);

	/* padding is published with the data that follows it */
	KUNIT_ASSERT_NOT_NULL(test, aux_begin(&h, f->event));
	KUNIT_EXPECT_EQ(test, h.head, 100UL);
	KUNIT_EXPECT_EQ(test, h.size, AUX_SIZE - 100);
	KUNIT_EXPECT_EQ(test, perf_aux_output_skip(&h, 50), 0);
	KUNIT_EXPECT_EQ(test, h.head, 150UL);
	KUNIT_EXPECT_EQ(test, h.size, AUX_SIZE - 150);
	KUNIT_EXPECT_EQ(test, perf_aux_output_skip(&h, AUX_SIZE), -ENOSPC);
	aux_end(&h, 10);
	KUNIT_EXPECT_EQ(test, up->aux_head, 160ULL);
	aux_record(test, f->rb, 32, 100, 60, 0);

	/* filled up to what the reader has not consumed */
	WRITE_ONCE(up->aux_tail, 60);
	KUNIT_ASSERT_NOT_NULL(test, aux_begin(&h, f->event));
	KUNIT_EXPECT_EQ(test, h.size, AUX_SIZE - 100);
	aux_end(&h, h.size);
	KUNIT_EXPECT_EQ(test, up->aux_head, (u64)AUX_SIZE + 60);
	KUNIT_ASSERT_NOT_NULL(test, aux_begin(&h, f->event));
	KUNIT_EXPECT_EQ(test, h.size, 0UL);
	perf_aux_output_flag(&h, PERF_AUX_FLAG_TRUNCATED);
	aux_end(&h, 0);
	aux_record(test, f->rb, 96, AUX_SIZE + 60, 0, PERF_AUX_FLAG_TRUNCATED);
	/* a truncated area stops the event */
	KUNIT_EXPECT_TRUE(test, f->event->pending_disable);
	KUNIT_EXPECT_EQ(test, rb_head(f->rb), 128ULL);
	aux_unmap(f->rb);
}

/* Nothing new, no flags: no record. */
static void aux_empty_test(struct kunit *test)
{
	struct rb_fixture *f = test->priv;
	struct perf_output_handle h;

	aux_map(test, &aux_fake_pmu, false, 0);
	KUNIT_ASSERT_NOT_NULL(test, aux_begin(&h, f->event));
	aux_end(&h, 0);
	KUNIT_EXPECT_EQ(test, rb_head(f->rb), 0ULL);
	aux_unmap(f->rb);
}

/* The reader hears of new data each time a watermark is crossed. */
static void aux_wakeup_test(struct kunit *test)
{
	struct rb_fixture *f = test->priv;
	struct perf_output_handle h;

	aux_map(test, &aux_fake_pmu, false, 1000);
	KUNIT_ASSERT_NOT_NULL(test, aux_begin(&h, f->event));
	KUNIT_EXPECT_EQ(test, h.wakeup, 1000UL);
	aux_end(&h, 999);
	KUNIT_EXPECT_FALSE(test, f->event->pending_wakeup);
	KUNIT_ASSERT_NOT_NULL(test, aux_begin(&h, f->event));
	aux_end(&h, 2500);
	KUNIT_EXPECT_TRUE(test, f->event->pending_wakeup);
	KUNIT_EXPECT_EQ(test, f->rb->aux_wakeup, 3000UL);
	f->event->pending_wakeup = 0;
	/* padding counts toward the watermark too */
	KUNIT_ASSERT_NOT_NULL(test, aux_begin(&h, f->event));
	KUNIT_EXPECT_EQ(test, h.wakeup, 4000UL);
	KUNIT_EXPECT_EQ(test, perf_aux_output_skip(&h, 600), 0);
	KUNIT_EXPECT_TRUE(test, f->event->pending_wakeup);
	KUNIT_EXPECT_EQ(test, h.wakeup, 5000UL);
	aux_end(&h, 0);
	aux_unmap(f->rb);
}

/* A read-only area is a ring whose head the PMU moves itself. */
static void aux_overwrite_test(struct kunit *test)
{
	struct rb_fixture *f = test->priv;
	struct perf_event_mmap_page *up = f->rb->user_page;
	struct perf_output_handle h;

	aux_map(test, &aux_fake_pmu, true, 0);
	KUNIT_EXPECT_TRUE(test, aux_fake.overwrite);
	KUNIT_ASSERT_NOT_NULL(test, aux_begin(&h, f->event));
	KUNIT_EXPECT_EQ(test, h.size, AUX_SIZE);
	h.head = 5000;
	aux_end(&h, 5000);
	KUNIT_EXPECT_EQ(test, up->aux_head, 5000ULL);
	aux_record(test, f->rb, 0, 0, 5000, PERF_AUX_FLAG_OVERWRITE);
	/* the reader's tail does not limit a ring */
	KUNIT_ASSERT_NOT_NULL(test, aux_begin(&h, f->event));
	KUNIT_EXPECT_EQ(test, h.head, 5000UL);
	KUNIT_EXPECT_EQ(test, h.size, AUX_SIZE);
	aux_end(&h, 0);
	KUNIT_EXPECT_EQ(test, rb_head(f->rb), 32ULL);
	aux_unmap(f->rb);
}

/* The AUX PMU's stop() and start() calls, as pause and resume see them. */
static int aux_fake_stop_flags, aux_fake_start_flags;

static void aux_fake_stop(struct perf_event *event, int flags)
{
	aux_fake_stop_flags = flags;
}

static void aux_fake_start(struct perf_event *event, int flags)
{
	aux_fake_start_flags = flags;
}

static struct pmu aux_fake_pmu_pause = {
	.capabilities	= PERF_PMU_CAP_AUX_PAUSE,
	.setup_aux	= aux_fake_setup,
	.free_aux	= aux_fake_free,
	.stop		= aux_fake_stop,
	.start		= aux_fake_start,
};

/* @trigger's overflow, for the AUX leader active (or not) on this CPU. */
static void aux_trigger(struct perf_event *leader, struct perf_event *trigger,
			bool active)
{
	aux_fake_stop_flags = 0;
	aux_fake_start_flags = 0;
	preempt_disable();
	leader->state = active ? PERF_EVENT_STATE_ACTIVE :
				 PERF_EVENT_STATE_INACTIVE;
	leader->oncpu = active ? smp_processor_id() : -1;
	perf_aux_pause_resume(trigger);
	leader->state = PERF_EVENT_STATE_OFF;
	leader->oncpu = -1;
	preempt_enable();
}

/*
 * An aux_pause member's overflow pauses the leader's trace, an aux_resume
 * member's resumes it; not while the leader is inactive or has no area.
 */
static void aux_pause_test(struct kunit *test)
{
	struct rb_fixture *f = test->priv;
	struct perf_event *trigger;

	trigger = kunit_kzalloc(test, sizeof(*trigger), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, trigger);
	trigger->group_leader = f->event;
	f->event->group_leader = f->event;
	f->event->pmu = &aux_fake_pmu_pause;

	trigger->attr.aux_pause = 1;
	aux_trigger(f->event, trigger, true);	/* no area mapped yet */
	KUNIT_EXPECT_EQ(test, aux_fake_stop_flags, 0);

	aux_map(test, &aux_fake_pmu_pause, false, 0);
	aux_trigger(f->event, trigger, true);
	KUNIT_EXPECT_EQ(test, aux_fake_stop_flags, PERF_EF_PAUSE);
	KUNIT_EXPECT_EQ(test, aux_fake_start_flags, 0);
	aux_trigger(f->event, trigger, false);
	KUNIT_EXPECT_EQ(test, aux_fake_stop_flags, 0);

	trigger->attr.aux_pause = 0;
	trigger->attr.aux_resume = 1;
	aux_trigger(f->event, trigger, true);
	KUNIT_EXPECT_EQ(test, aux_fake_start_flags, PERF_EF_RESUME);
	KUNIT_EXPECT_EQ(test, aux_fake_stop_flags, 0);

	/* the leader's own overflow does nothing to its trace */
	aux_trigger(f->event, f->event, true);
	KUNIT_EXPECT_EQ(test, aux_fake_start_flags, 0);
	aux_unmap(f->rb);
}

/* A tracer's snapshot: the newest 13 bytes of its trace, at most @size. */
static unsigned long aux_fake_snapshot_asked;

static long aux_fake_snapshot(struct perf_event *event,
			      struct perf_output_handle *handle,
			      unsigned long size)
{
	static const char trace[] = "newest trace!";
	unsigned long n = min(size, sizeof(trace) - 1);

	aux_fake_snapshot_asked = size;
	return n - perf_output_copy(handle, trace, n);
}

static struct pmu aux_fake_pmu_snapshot = {
	.setup_aux	= aux_fake_setup,
	.free_aux	= aux_fake_free,
	.snapshot_aux	= aux_fake_snapshot,
};

/* One sample of @event, its AUX leader tracing on this CPU or not. */
static void aux_sample(struct perf_event *event, bool active)
{
	struct perf_event *leader = event->group_leader;
	struct perf_sample_data data;

	preempt_disable();
	leader->state = active ? PERF_EVENT_STATE_ACTIVE :
				 PERF_EVENT_STATE_INACTIVE;
	leader->oncpu = active ? smp_processor_id() : -1;
	perf_sample_data_init(&data, 0, 0);
	perf_event_output(event, &data, NULL);
	leader->state = PERF_EVENT_STATE_OFF;
	leader->oncpu = -1;
	preempt_enable();
}

/*
 * PERF_SAMPLE_AUX: a member of an AUX leader's group takes at most
 * aux_sample_size bytes of the leader's newest trace into its samples,
 * padded to a u64; nothing while the leader does not trace here.  Only
 * members of a group led by an AUX event whose PMU takes snapshots may
 * ask for it.
 */
static void aux_sample_test(struct kunit *test)
{
	struct rb_fixture *f = test->priv;
	struct perf_event *event = f->event, *leader;
	u64 rec[4] = { };
	struct perf_event_header *hdr = (void *)rec;

	leader = kunit_kzalloc(test, sizeof(*leader), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, leader);
	leader->group_leader = leader;
	leader->oncpu = -1;
	event->group_leader = leader;
	event->pmu = &aux_fake_pmu;
	event->attr.sample_type = PERF_SAMPLE_AUX;
	event->attr.aux_sample_size = 40;

	leader->pmu = &aux_fake_pmu;		/* no snapshots */
	KUNIT_EXPECT_EQ(test, perf_aux_sample_init(event), -EINVAL);
	leader->pmu = &aux_fake_pmu_snapshot;
	event->group_leader = event;		/* not a member */
	KUNIT_EXPECT_EQ(test, perf_aux_sample_init(event), -EINVAL);
	event->group_leader = leader;
	KUNIT_ASSERT_EQ(test, perf_aux_sample_init(event), 0);
	perf_event_sizes_init(event);

	aux_sample(event, true);
	KUNIT_EXPECT_EQ(test, aux_fake_snapshot_asked, 40UL);
	KUNIT_ASSERT_EQ(test, rb_head(f->rb), 32ULL);
	rb_read(f->rb, 0, rec, sizeof(rec));
	KUNIT_EXPECT_EQ(test, hdr->type, PERF_RECORD_SAMPLE);
	KUNIT_EXPECT_EQ(test, hdr->size, 32);
	KUNIT_EXPECT_EQ(test, rec[1], 13ULL);
	KUNIT_EXPECT_EQ(test, memcmp(&rec[2], "newest trace!\0\0\0", 16), 0);

	/* the leader is not tracing here: an empty AUX part */
	aux_fake_snapshot_asked = 0;
	aux_sample(event, false);
	KUNIT_EXPECT_EQ(test, aux_fake_snapshot_asked, 0UL);
	KUNIT_ASSERT_EQ(test, rb_head(f->rb), 48ULL);
	rb_read(f->rb, 32, rec, 16);
	KUNIT_EXPECT_EQ(test, hdr->size, 16);
	KUNIT_EXPECT_EQ(test, rec[1], 0ULL);

	/* less asked than the tracer has: the size asked, rounded down */
	event->attr.aux_sample_size = 11;
	aux_sample(event, true);
	KUNIT_EXPECT_EQ(test, aux_fake_snapshot_asked, 8UL);
	rb_read(f->rb, 48, rec, 24);
	KUNIT_EXPECT_EQ(test, hdr->size, 24);
	KUNIT_EXPECT_EQ(test, rec[1], 8ULL);
	KUNIT_EXPECT_EQ(test, memcmp(&rec[2], "newest t", 8), 0);

	perf_aux_sample_free(event);
	event->attach_state = 0;
}

static struct kunit_case aux_cases[] = {
	KUNIT_CASE(aux_setup_test),
	KUNIT_CASE(aux_no_sg_test),
	KUNIT_CASE(aux_output_test),
	KUNIT_CASE(aux_empty_test),
	KUNIT_CASE(aux_wakeup_test),
	KUNIT_CASE(aux_overwrite_test),
	KUNIT_CASE(aux_pause_test),
	KUNIT_CASE(aux_sample_test),
	{}
};

static struct kunit_suite aux_suite = {
	.name = "perf_aux",
	.init = rb_init,
	.exit = rb_exit,
	.test_cases = aux_cases,
};

kunit_test_suites(&rb_suite, &rb_overwrite_suite, &aux_suite);
