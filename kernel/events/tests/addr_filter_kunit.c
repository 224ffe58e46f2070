// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of address filters (addr_filter.c): the filter strings, the
 * range a mapping of the filtered file gives, and the way filters reach a
 * fake tracing PMU (validate, then sync on the event's restart, once per
 * generation).  File ranges of real tasks need a tracer that QEMU does not
 * emulate; the mapping arithmetic is tested here on a built vma.
 *
 * Locking: the tests run in process context, the fake PMU's callbacks
 * where the core calls them.
 */
#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/mm.h>

#include "../internal.h"

#define NR_FAKE_FILTERS	3

static struct pmu af_pmu;

static struct {
	int validated;
	int validate_ret;
	int synced;
	struct perf_addr_filter_range ranges[NR_FAKE_FILTERS];
	unsigned int nr;
} af;

static int af_event_init(struct perf_event *event)
{
	return event->attr.type == af_pmu.type ? 0 : -ENOENT;
}

static int af_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
	if (flags & PERF_EF_START)
		af_pmu.start(event, PERF_EF_RELOAD);
	return 0;
}

/* a tracer programs its filters when it starts */
static void af_start(struct perf_event *event, int flags)
{
	perf_event_addr_filters_sync(event);
	event->hw.state = 0;
}

static void af_read(struct perf_event *event)
{
}

static int af_validate(struct list_head *filters)
{
	af.validated++;
	return af.validate_ret;
}

static void af_sync(struct perf_event *event)
{
	struct perf_addr_filters_head *head = perf_event_addr_filters(event);
	struct perf_addr_filter *f;
	unsigned int i = 0;

	lockdep_assert_held(&head->lock);
	list_for_each_entry(f, &head->list, entry) {
		af.ranges[i] = event->addr_filter_ranges[i];
		i++;
	}
	af.nr = i;
	af.synced++;
}

static struct pmu af_pmu = {
	.task_ctx_nr		= perf_sw_context,
	.event_init		= af_event_init,
	.add			= af_add,
	.del			= perf_kunit_pmu_stop,
	.start			= af_start,
	.stop			= perf_kunit_pmu_stop,
	.read			= af_read,
	.addr_filters_validate	= af_validate,
	.addr_filters_sync	= af_sync,
	.nr_addr_filters	= NR_FAKE_FILTERS,
};

static const struct perf_kunit_pmu af_pmus[] = {
	{ &af_pmu, "kunit_addr_filter" },
};

static int af_suite_init(struct kunit_suite *suite)
{
	return perf_kunit_register_pmus(af_pmus, ARRAY_SIZE(af_pmus));
}

static void af_suite_exit(struct kunit_suite *suite)
{
	perf_kunit_unregister_pmus(af_pmus, ARRAY_SIZE(af_pmus));
}

static int af_init(struct kunit *test)
{
	memset(&af, 0, sizeof(af));
	return 0;
}

static void free_filters(struct list_head *filters)
{
	struct perf_addr_filter *f, *tmp;

	list_for_each_entry_safe(f, tmp, filters, entry) {
		path_put(&f->path);
		kfree(f);
	}
	INIT_LIST_HEAD(filters);
}

/* Parse @str for a task event (or a CPU one) of the fake PMU. */
static int parse(struct kunit *test, const char *str, bool task,
		 struct list_head *filters, unsigned int *nr_files)
{
	struct perf_event *event = kunit_kzalloc(test, sizeof(*event),
						 GFP_KERNEL);
	char *copy = kunit_kstrdup(test, str, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, event);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	event->pmu = &af_pmu;
	if (task)
		event->attach_state = PERF_ATTACH_TASK;
	return perf_addr_filters_parse(event, copy, filters, nr_files);
}

static struct perf_addr_filter *nth(struct list_head *filters, int n)
{
	struct perf_addr_filter *f;

	list_for_each_entry(f, filters, entry)
		if (!n--)
			return f;
	return NULL;
}

static void af_parse_test(struct kunit *test)
{
	unsigned int nr_files;
	struct perf_addr_filter *f;
	LIST_HEAD(l);

	KUNIT_ASSERT_EQ(test, parse(test, "filter 0x1000/0x100", true, &l,
				    &nr_files), 0);
	f = nth(&l, 0);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, f->action, PERF_ADDR_FILTER_ACTION_FILTER);
	KUNIT_EXPECT_EQ(test, f->offset, 0x1000UL);
	KUNIT_EXPECT_EQ(test, f->size, 0x100UL);
	KUNIT_EXPECT_NULL(test, f->path.dentry);
	KUNIT_EXPECT_NULL(test, nth(&l, 1));
	KUNIT_EXPECT_EQ(test, nr_files, 0U);
	free_filters(&l);

	/* commas and spaces separate; numbers in any base kstrtoul takes */
	KUNIT_ASSERT_EQ(test, parse(test, " start 4096,stop 010 ", false, &l,
				    &nr_files), 0);
	KUNIT_EXPECT_EQ(test, nth(&l, 0)->action, PERF_ADDR_FILTER_ACTION_START);
	KUNIT_EXPECT_EQ(test, nth(&l, 0)->offset, 4096UL);
	KUNIT_EXPECT_EQ(test, nth(&l, 0)->size, 0UL);
	KUNIT_EXPECT_EQ(test, nth(&l, 1)->action, PERF_ADDR_FILTER_ACTION_STOP);
	KUNIT_EXPECT_EQ(test, nth(&l, 1)->offset, 8UL);
	free_filters(&l);

	/* no filter at all clears them */
	KUNIT_EXPECT_EQ(test, parse(test, "", true, &l, &nr_files), 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&l));
}

static void af_parse_errors_test(struct kunit *test)
{
	static const char *const bad[] = {
		"filter", "filter 0x1000", "filter 0x1000/0", "start",
		"trace 0x1000/0x10", "filter zz/0x10", "filter +0x1000/0x10",
		"filter 0x1000/", "filter 0x1000/0x10@",
		"filter\t0x1000/0x10",			/* a tab separates not */
		"filter 0x1000/0x10@/",			/* not a regular file */
	};
	unsigned int nr_files, i;
	LIST_HEAD(l);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, parse(test, bad[i], true, &l,
						&nr_files), -EINVAL,
				    "\"%s\"", bad[i]);
		free_filters(&l);
	}
	KUNIT_EXPECT_EQ(test, parse(test, "filter 0/0x10@/no/such/file", true,
				    &l, &nr_files), -ENOENT);
	free_filters(&l);
	/* a number too big for a long, as kstrtoul() says */
	KUNIT_EXPECT_EQ(test, parse(test, "filter 0x10000000000000000/0x10",
				    true, &l, &nr_files), -ERANGE);
	free_filters(&l);
	/* more filters than the PMU has */
	KUNIT_EXPECT_EQ(test, parse(test, "start 1 start 2 start 3 start 4",
				    true, &l, &nr_files), -EOPNOTSUPP);
	free_filters(&l);
	/* a trigger with a size: the PMU judges it */
	KUNIT_EXPECT_EQ(test, parse(test, "start 0x1000/0x10", true, &l,
				    &nr_files), 0);
	KUNIT_EXPECT_EQ(test, nth(&l, 0)->size, 0x10UL);
	free_filters(&l);
}

/* A file filter names a regular file, and only a task event may have one. */
static void af_parse_file_test(struct kunit *test)
{
	unsigned int nr_files;
	LIST_HEAD(l);

	/* the test kernels boot an initramfs with /init */
	KUNIT_ASSERT_EQ(test, parse(test, "filter 0x10/0x20@/init start 0x30",
				    true, &l, &nr_files), 0);
	KUNIT_EXPECT_EQ(test, nr_files, 1U);
	KUNIT_EXPECT_NOT_NULL(test, nth(&l, 0)->path.dentry);
	KUNIT_EXPECT_NULL(test, nth(&l, 1)->path.dentry);
	free_filters(&l);

	KUNIT_EXPECT_EQ(test, parse(test, "filter 0x10/0x20@/init", false,
				    &l, &nr_files), -EOPNOTSUPP);
	free_filters(&l);
}

/*
 * A mapping of two pages of the file, from its second page on, at
 * 0x400000: the range of a filter is where its bytes are mapped, clipped
 * to the mapping.
 */
static void af_vma_test(struct kunit *test)
{
	struct vm_area_struct *vma = kunit_kzalloc(test, sizeof(*vma),
						   GFP_KERNEL);
	struct perf_addr_filter f = { .action = PERF_ADDR_FILTER_ACTION_FILTER };
	const unsigned long base = 0x400000, off = PAGE_SIZE;
	const unsigned long end = base + 2 * PAGE_SIZE;
	struct perf_addr_filter_range r;
	struct file *file;

	KUNIT_ASSERT_NOT_NULL(test, vma);
	file = filp_open("/init", O_RDONLY, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(file));
	f.path = file->f_path;
	vma->vm_file = file;
	vma->vm_start = base;
	vma->vm_end = end;
	vma->vm_pgoff = 1;
	vm_flags_init(vma, VM_READ | VM_EXEC);

	f.offset = off + 0x800;
	f.size = 0x100;
	KUNIT_ASSERT_TRUE(test, perf_addr_filter_in_vma(&f, vma, &r));
	KUNIT_EXPECT_EQ(test, r.start, base + 0x800);
	KUNIT_EXPECT_EQ(test, r.size, 0x100UL);

	/* starting before the mapping: clipped to its start */
	f.offset = off - 0x800;
	f.size = 0x1000;
	KUNIT_ASSERT_TRUE(test, perf_addr_filter_in_vma(&f, vma, &r));
	KUNIT_EXPECT_EQ(test, r.start, base);
	KUNIT_EXPECT_EQ(test, r.size, 0x800UL);

	/* ending past it: clipped to its end */
	f.offset = off + 2 * PAGE_SIZE - 0x100;
	f.size = 0x200;
	KUNIT_ASSERT_TRUE(test, perf_addr_filter_in_vma(&f, vma, &r));
	KUNIT_EXPECT_EQ(test, r.start, end - 0x100);
	KUNIT_EXPECT_EQ(test, r.size, 0x100UL);

	/* a huge size does not wrap */
	f.size = ULONG_MAX;
	KUNIT_ASSERT_TRUE(test, perf_addr_filter_in_vma(&f, vma, &r));
	KUNIT_EXPECT_EQ(test, r.start, end - 0x100);
	KUNIT_EXPECT_EQ(test, r.size, 0x100UL);

	/* an address trigger: size 0 */
	f.action = PERF_ADDR_FILTER_ACTION_START;
	f.offset = off + 4;
	f.size = 0;
	KUNIT_ASSERT_TRUE(test, perf_addr_filter_in_vma(&f, vma, &r));
	KUNIT_EXPECT_EQ(test, r.start, base + 4);
	KUNIT_EXPECT_EQ(test, r.size, 0UL);

	/* bytes outside the mapping, or a mapping that is not code */
	f.offset = off + 2 * PAGE_SIZE;
	KUNIT_EXPECT_FALSE(test, perf_addr_filter_in_vma(&f, vma, &r));
	f.offset = off - 1;
	KUNIT_EXPECT_FALSE(test, perf_addr_filter_in_vma(&f, vma, &r));
	f.offset = off;
	vm_flags_init(vma, VM_READ);
	KUNIT_EXPECT_FALSE(test, perf_addr_filter_in_vma(&f, vma, &r));
	vm_flags_init(vma, VM_READ | VM_EXEC);
	KUNIT_EXPECT_TRUE(test, perf_addr_filter_in_vma(&f, vma, &r));

	filp_close(file, NULL);
}

static struct perf_event *af_cpu_event(struct kunit *test)
{
	struct perf_event_attr attr = {
		.type = af_pmu.type,
		.size = sizeof(attr),
	};
	struct perf_event *event;
	int cpu = raw_smp_processor_id();

	event = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(event));
	return event;
}

/*
 * SET_FILTER's path on a running CPU event: the PMU validates the list,
 * then programs the kernel ranges when the core restarts the event, once
 * for each new set of filters.
 */
static void af_set_test(struct kunit *test)
{
	struct perf_event *event = af_cpu_event(test);
	char str[] = "filter 0x1000/0x100 start 0x2000";
	char str2[] = "stop 0x3000";
	int synced;

	KUNIT_ASSERT_EQ(test, event->state, PERF_EVENT_STATE_ACTIVE);
	KUNIT_ASSERT_NOT_NULL(test, event->addr_filter_ranges);
	KUNIT_ASSERT_EQ(test, perf_addr_filters_set(event, str), 0);
	KUNIT_EXPECT_EQ(test, af.validated, 1);
	KUNIT_EXPECT_EQ(test, af.synced, 1);
	KUNIT_ASSERT_EQ(test, af.nr, 2U);
	KUNIT_EXPECT_EQ(test, af.ranges[0].start, 0x1000UL);
	KUNIT_EXPECT_EQ(test, af.ranges[0].size, 0x100UL);
	KUNIT_EXPECT_EQ(test, af.ranges[1].start, 0x2000UL);
	KUNIT_EXPECT_EQ(test, af.ranges[1].size, 0UL);

	/* a start with nothing new programs nothing */
	synced = af.synced;
	perf_event_disable(event);
	perf_event_enable(event);
	KUNIT_EXPECT_EQ(test, af.synced, synced);

	/* the PMU refuses: the old filters stay */
	af.validate_ret = -EOPNOTSUPP;
	KUNIT_EXPECT_EQ(test, perf_addr_filters_set(event, str2),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, af.synced, synced);
	KUNIT_EXPECT_EQ(test, list_count_nodes(&event->addr_filters.list), 2);

	af.validate_ret = 0;
	strscpy(str2, "stop 0x3000", sizeof(str2));
	KUNIT_ASSERT_EQ(test, perf_addr_filters_set(event, str2), 0);
	KUNIT_EXPECT_EQ(test, af.synced, synced + 1);
	KUNIT_ASSERT_EQ(test, af.nr, 1U);
	KUNIT_EXPECT_EQ(test, af.ranges[0].start, 0x3000UL);

	perf_event_release_kernel(event);
}

static struct kunit_case af_cases[] = {
	KUNIT_CASE(af_parse_test),
	KUNIT_CASE(af_parse_errors_test),
	KUNIT_CASE(af_parse_file_test),
	KUNIT_CASE(af_vma_test),
	KUNIT_CASE(af_set_test),
	{}
};

static struct kunit_suite af_suite = {
	.name = "perf_addr_filter",
	.suite_init = af_suite_init,
	.suite_exit = af_suite_exit,
	.init = af_init,
	.test_cases = af_cases,
};

kunit_test_suites(&af_suite);
