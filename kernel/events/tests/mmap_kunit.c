// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the mappings of an event's buffer (mmap.c, aux.c), made
 * through the event file's mmap as a task makes them, on a fake PMU with
 * an AUX area: a mapping of the AUX area is a mapping of the buffer too,
 * so the buffer keeps its writers while either is mapped.
 *
 * Locking: each case maps and unmaps in the mm that kunit_vm_mmap() gives
 * its thread, under that mm's mmap_lock as any task; the mappings go with
 * the mm when the case's thread ends, and the file with the delayed fput
 * of a kernel thread: the fixture keeps a reference of its own on the
 * event and frees it in its exit only once the file has let go, so that no
 * event of the fake PMU outlives the suite's unregistering it.
 */
#include <kunit/test.h>
#include <linux/anon_inodes.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/delay.h>
#include <linux/mman.h>

#include "../internal.h"

#define MAP_LEN		(2 * PAGE_SIZE)		/* user page + 1 data page */
#define AUX_LEN		(2 * PAGE_SIZE)

static struct pmu map_aux_pmu;

static int map_aux_event_init(struct perf_event *event)
{
	if (event->attr.type != map_aux_pmu.type)
		return -ENOENT;
	return 0;
}

static int map_aux_add(struct perf_event *event, int flags)
{
	event->hw.state = flags & PERF_EF_START ? 0 : PERF_HES_STOPPED;
	return 0;
}

static void map_aux_read(struct perf_event *event)
{
}

/* the area's pages are the PMU's private data: nothing to allocate */
static void *map_aux_setup(struct perf_event *event, void **pages,
			   int nr_pages, bool overwrite)
{
	return pages;
}

static void map_aux_free(void *priv)
{
}

static struct pmu map_aux_pmu = {
	.task_ctx_nr	= perf_invalid_context,
	.event_init	= map_aux_event_init,
	.add		= map_aux_add,
	.del		= perf_kunit_pmu_stop,
	.start		= perf_kunit_pmu_start,
	.stop		= perf_kunit_pmu_stop,
	.read		= map_aux_read,
	.setup_aux	= map_aux_setup,
	.free_aux	= map_aux_free,
};

static const struct perf_kunit_pmu map_suite_pmus[] = {
	{ &map_aux_pmu, "kunit_map_aux" },
};

static int map_suite_init(struct kunit_suite *suite)
{
	return perf_kunit_register_pmus(map_suite_pmus,
					ARRAY_SIZE(map_suite_pmus));
}

/* set when an event could not be freed: its PMU must then stay */
static bool map_event_leaked;

static void map_suite_exit(struct kunit_suite *suite)
{
	if (!map_event_leaked)
		perf_kunit_unregister_pmus(map_suite_pmus,
					   ARRAY_SIZE(map_suite_pmus));
}

/* a CPU event of the fake PMU, behind a file as perf_event_open() gives */
struct map_fixture {
	struct perf_event *event;
	struct file *file;
};

static int map_init(struct kunit *test)
{
	struct perf_event_attr attr = {
		.type = map_aux_pmu.type,
		.size = sizeof(attr),
		.disabled = 1,
	};
	struct map_fixture *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->event = perf_event_create_kernel_counter(&attr, 0, NULL, NULL, NULL);
	if (IS_ERR(f->event))
		return PTR_ERR(f->event);
	f->file = anon_inode_getfile("[perf_event]", &perf_fops, f->event,
				     O_RDWR);
	if (IS_ERR(f->file)) {
		perf_event_release_kernel(f->event);
		return PTR_ERR(f->file);
	}
	/* the fixture's own reference, dropped in map_exit() */
	atomic_long_inc(&f->event->refcount);
	test->priv = f;
	return 0;
}

/*
 * The file's last reference goes once the case's mm has dropped its
 * mappings: wait for its release (delayed, from a kernel thread), then
 * free the event here, before the PMU can go.
 */
static void map_exit(struct kunit *test)
{
	struct map_fixture *f = test->priv;
	int ms;

	fput(f->file);
	for (ms = 0; ms < 10000; ms += 20) {
		flush_delayed_fput();
		if (atomic_long_read(&f->event->refcount) == 1)
			break;
		msleep(20);
	}
	if (atomic_long_read(&f->event->refcount) != 1) {
		map_event_leaked = true;
		pr_warn("perf_mmap: the event's file was not released\n");
		return;
	}
	perf_event_put(f->event);
}

/* map @len bytes of the event's file at byte offset @offset */
static unsigned long map_at(struct kunit *test, unsigned long len,
			    unsigned long offset)
{
	struct map_fixture *f = test->priv;

	return kunit_vm_mmap(test, f->file, 0, len, PROT_READ | PROT_WRITE,
			     MAP_SHARED, offset);
}

static bool mapped_ok(unsigned long addr)
{
	return addr && !IS_ERR_VALUE(addr);
}

/* the data pages, then the AUX area where the user page says it goes */
static unsigned long map_data_and_aux(struct kunit *test,
				      unsigned long *data)
{
	struct map_fixture *f = test->priv;
	struct perf_event_mmap_page *up;

	*data = map_at(test, MAP_LEN, 0);
	KUNIT_ASSERT_TRUE(test, mapped_ok(*data));
	KUNIT_ASSERT_NOT_NULL(test, f->event->rb);
	up = f->event->rb->user_page;
	WRITE_ONCE(up->aux_offset, MAP_LEN);
	WRITE_ONCE(up->aux_size, AUX_LEN);
	return map_at(test, AUX_LEN, MAP_LEN);
}

/*
 * Unmapping the data pages while the AUX area stays mapped leaves the
 * event writing into its buffer; the data pages map again at their size,
 * and the buffer goes with the last of all the mappings.
 */
static void aux_mapping_keeps_writers_test(struct kunit *test)
{
	struct map_fixture *f = test->priv;
	unsigned long data, aux;

	aux = map_data_and_aux(test, &data);
	KUNIT_ASSERT_TRUE(test, mapped_ok(aux));
	KUNIT_EXPECT_EQ(test, atomic_read(&f->event->mmap_count), 2);
	KUNIT_ASSERT_EQ(test, vm_munmap(data, MAP_LEN), 0);
	KUNIT_EXPECT_NOT_NULL(test, f->event->rb);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->event->mmap_count), 1);

	data = map_at(test, MAP_LEN, 0);
	KUNIT_ASSERT_TRUE(test, mapped_ok(data));
	KUNIT_ASSERT_EQ(test, vm_munmap(data, MAP_LEN), 0);
	KUNIT_EXPECT_NOT_NULL(test, f->event->rb);

	KUNIT_ASSERT_EQ(test, vm_munmap(aux, AUX_LEN), 0);
	KUNIT_EXPECT_NULL(test, f->event->rb);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->event->mmap_count), 0);
}

/*
 * A refused AUX mapping (a size other than the user page's) takes no
 * count with it: the data pages' munmap still frees the buffer.
 */
static void aux_mapping_refused_test(struct kunit *test)
{
	struct map_fixture *f = test->priv;
	unsigned long data, aux;

	aux = map_data_and_aux(test, &data);
	KUNIT_ASSERT_TRUE(test, mapped_ok(aux));
	KUNIT_EXPECT_EQ(test, (long)map_at(test, 2 * AUX_LEN, MAP_LEN),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->event->mmap_count), 2);
	KUNIT_ASSERT_EQ(test, vm_munmap(aux, AUX_LEN), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->event->mmap_count), 1);
	KUNIT_ASSERT_EQ(test, vm_munmap(data, MAP_LEN), 0);
	KUNIT_EXPECT_NULL(test, f->event->rb);
}

/* With the data pages unmapped first, the buffer is gone: no AUX area. */
static void aux_mapping_needs_buffer_test(struct kunit *test)
{
	struct map_fixture *f = test->priv;
	unsigned long data;

	data = map_at(test, MAP_LEN, 0);
	KUNIT_ASSERT_TRUE(test, mapped_ok(data));
	WRITE_ONCE(f->event->rb->user_page->aux_offset, MAP_LEN);
	WRITE_ONCE(f->event->rb->user_page->aux_size, AUX_LEN);
	KUNIT_ASSERT_EQ(test, vm_munmap(data, MAP_LEN), 0);
	KUNIT_EXPECT_NULL(test, f->event->rb);
	KUNIT_EXPECT_EQ(test, (long)map_at(test, AUX_LEN, MAP_LEN), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->event->mmap_count), 0);
}

/*
 * An AUX area of @aux_pages pages, asked for after the data pages: its
 * errno, with the buffer's mapping count put back either way.
 */
static long map_big_aux(struct kunit *test, unsigned long aux_pages)
{
	struct map_fixture *f = test->priv;
	unsigned long data, aux;
	long ret;

	data = map_at(test, MAP_LEN, 0);
	KUNIT_ASSERT_TRUE(test, mapped_ok(data));
	WRITE_ONCE(f->event->rb->user_page->aux_offset, MAP_LEN);
	WRITE_ONCE(f->event->rb->user_page->aux_size, aux_pages << PAGE_SHIFT);
	aux = map_at(test, aux_pages << PAGE_SHIFT, MAP_LEN);
	ret = mapped_ok(aux) ? 0 : (long)aux;
	if (!ret)
		KUNIT_EXPECT_EQ(test, vm_munmap(aux, aux_pages << PAGE_SHIFT), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&f->event->mmap_count), 1);
	KUNIT_ASSERT_EQ(test, vm_munmap(data, MAP_LEN), 0);
	KUNIT_EXPECT_NULL(test, f->event->rb);
	return ret;
}

/*
 * An area whose page array alone is past the page allocator's largest
 * order (4 GiB of 4 KiB pages: an 8 MiB array) is refused before any
 * allocation: ENOMEM, and no allocator warning in the kernel log, which
 * the test harness would report.  The caller may lock that much memory
 * (CAP_IPC_LOCK), so only this bound stands in the way.
 */
static void aux_page_array_past_max_order_test(struct kunit *test)
{
	unsigned long nr = roundup_pow_of_two((PAGE_SIZE << MAX_PAGE_ORDER) /
					      sizeof(void *) + 1);

	KUNIT_EXPECT_EQ(test, map_big_aux(test, nr), -ENOMEM);
}

/*
 * A PMU that cannot scatter its output needs the area as one block: one
 * past the largest order gets ENOMEM (the allocator, asked quietly, would
 * refuse it too), one within it is mapped.
 */
static void aux_contiguous_past_max_order_test(struct kunit *test)
{
	map_aux_pmu.capabilities |= PERF_PMU_CAP_AUX_NO_SG;
	KUNIT_EXPECT_EQ(test, map_big_aux(test, 2UL << MAX_PAGE_ORDER),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, map_big_aux(test, 4), 0);
	map_aux_pmu.capabilities &= ~PERF_PMU_CAP_AUX_NO_SG;
}

static struct kunit_case map_cases[] = {
	KUNIT_CASE(aux_mapping_keeps_writers_test),
	KUNIT_CASE(aux_mapping_refused_test),
	KUNIT_CASE(aux_mapping_needs_buffer_test),
	KUNIT_CASE(aux_page_array_past_max_order_test),
	KUNIT_CASE(aux_contiguous_past_max_order_test),
	{}
};

static struct kunit_suite map_suite = {
	.name = "perf_mmap",
	.suite_init = map_suite_init,
	.suite_exit = map_suite_exit,
	.init = map_init,
	.exit = map_exit,
	.test_cases = map_cases,
};

kunit_test_suites(&map_suite);
