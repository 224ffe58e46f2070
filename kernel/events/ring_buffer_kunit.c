// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the ring buffer (ring_buffer.c): records written through
 * perf_output_begin/copy/end on a bare event with a one-page buffer, read
 * back the way user space reads them.  Covers wrap at the end of the data
 * area, the room left by data_tail, lost records and their PERF_RECORD_LOST,
 * overwrite and backward buffers, nested writers and PAUSE_OUTPUT.
 *
 * Locking: none; each case owns its event and buffer, and writes with
 * preemption off like the real writers.
 */
#include <kunit/test.h>
#include <linux/irq_work.h>
#include <linux/slab.h>

#include "internal.h"

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

static struct kunit_case rb_cases[] = {
	KUNIT_CASE(rb_wrap_test),
	KUNIT_CASE(rb_lost_test),
	KUNIT_CASE(rb_nested_test),
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

kunit_test_suites(&rb_suite, &rb_overwrite_suite);
