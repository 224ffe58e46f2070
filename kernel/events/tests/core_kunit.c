// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the perf_event core's pure logic: attr validation
 * (perf_attr_check, perf_attr_check_period) and the enabled/running time
 * arithmetic.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>

#include "../internal.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

struct attr_case {
	const char *name;
	void (*set)(struct perf_event_attr *attr);
	int expect;
};

static void set_nothing(struct perf_event_attr *a) { }
static void set_reserved_1(struct perf_event_attr *a) { a->__reserved_1 = 1; }
static void set_reserved_2(struct perf_event_attr *a) { a->__reserved_2 = 1; }
static void set_reserved_3(struct perf_event_attr *a) { a->__reserved_3 = 1; }
static void set_bad_sample(struct perf_event_attr *a) { a->sample_type = PERF_SAMPLE_MAX; }
static void set_cgroup_sample(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_CGROUP;
}

/* every sample bit that may be combined: one of the two weight layouts */
static void set_all_sample(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_MAX - 1 - PERF_SAMPLE_BRANCH_STACK -
			 PERF_SAMPLE_WEIGHT_STRUCT;
	/* a cgroup id is there to sample only with the perf cgroup controller */
	if (!IS_ENABLED(CONFIG_CGROUP_PERF))
		a->sample_type &= ~PERF_SAMPLE_CGROUP;
	/* the register dumps need a register each; bit 0 exists everywhere */
	a->sample_regs_user = 1;
	a->sample_regs_intr = 1;
}

static void set_both_weights(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT;
}

static void set_inherit_read(struct perf_event_attr *a)
{
	a->inherit = 1;
	a->sample_type = PERF_SAMPLE_READ;
}

static void set_inherit_read_tid(struct perf_event_attr *a)
{
	a->inherit = 1;
	a->sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_TID;
}

static void set_bad_format(struct perf_event_attr *a) { a->read_format = PERF_FORMAT_MAX; }
static void set_all_format(struct perf_event_attr *a) { a->read_format = PERF_FORMAT_MAX - 1; }
static void set_period_msb(struct perf_event_attr *a) { a->sample_period = 1ULL << 63; }
static void set_freq_high(struct perf_event_attr *a)
{
	a->freq = 1;
	a->sample_freq = (u64)sysctl_perf_event_sample_rate + 1;
}

static void set_freq_max(struct perf_event_attr *a)
{
	a->freq = 1;
	a->sample_freq = sysctl_perf_event_sample_rate;
}

static void set_inherit_thread(struct perf_event_attr *a) { a->inherit_thread = 1; }
static void set_sigtrap(struct perf_event_attr *a) { a->sigtrap = 1; }
static void set_sigtrap_remove(struct perf_event_attr *a)
{
	a->sigtrap = 1;
	a->remove_on_exec = 1;
}

static void set_remove_enable(struct perf_event_attr *a)
{
	a->remove_on_exec = 1;
	a->enable_on_exec = 1;
}

static void set_stack_unaligned(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_STACK_USER;
	a->sample_stack_user = 4097;
}

static void set_branch_empty(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_BRANCH_STACK;
}

static void set_branch_plm_only(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_BRANCH_STACK;
	a->branch_sample_type = PERF_SAMPLE_BRANCH_USER;
}

static void set_branch_any(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_BRANCH_STACK;
	a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
}

static void set_max_stack(struct perf_event_attr *a)
{
	a->sample_type = PERF_SAMPLE_CALLCHAIN;
	a->sample_max_stack = sysctl_perf_event_max_stack + 1;
}

static void set_bad_clock(struct perf_event_attr *a)
{
	a->use_clockid = 1;
	a->clockid = 1000;
}

static void set_raw_clock(struct perf_event_attr *a)
{
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC_RAW;
}

static const struct attr_case attr_cases[] = {
	{ "zero attr", set_nothing, 0 },
	{ "__reserved_1", set_reserved_1, -EINVAL },
	{ "__reserved_2", set_reserved_2, -EINVAL },
	{ "__reserved_3", set_reserved_3, -EINVAL },
	{ "unknown sample bit", set_bad_sample, -EINVAL },
	{ "every sample bit", set_all_sample, 0 },
	{ "both weight layouts", set_both_weights, -EINVAL },
	{ "cgroup id", set_cgroup_sample,
	  IS_ENABLED(CONFIG_CGROUP_PERF) ? 0 : -EINVAL },
	{ "inherited PERF_SAMPLE_READ", set_inherit_read, -EINVAL },
	{ "inherited PERF_SAMPLE_READ with tid", set_inherit_read_tid, 0 },
	{ "unknown read_format bit", set_bad_format, -EINVAL },
	{ "every read_format bit", set_all_format, 0 },
	{ "period with bit 63", set_period_msb, -EINVAL },
	{ "freq above the limit", set_freq_high, -EINVAL },
	{ "freq at the limit", set_freq_max, 0 },
	{ "inherit_thread alone", set_inherit_thread, -EINVAL },
	{ "sigtrap alone", set_sigtrap, -EINVAL },
	{ "sigtrap with remove_on_exec", set_sigtrap_remove, 0 },
	{ "remove_on_exec with enable_on_exec", set_remove_enable, -EINVAL },
	{ "unaligned user stack", set_stack_unaligned, -EINVAL },
	{ "branch stack, no type", set_branch_empty, -EINVAL },
	{ "branch stack, privilege only", set_branch_plm_only, -EINVAL },
	{ "branch stack, any", set_branch_any, 0 },
	/* refused only once the PMU took the event (callchain.c) */
	{ "sample_max_stack over the limit", set_max_stack, 0 },
	/* refused once the PMU took the event (perf_event_alloc_check()) */
	{ "unknown clockid", set_bad_clock, 0 },
	{ "CLOCK_MONOTONIC_RAW", set_raw_clock, 0 },
};

static void attr_case_desc(const struct attr_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(attr, attr_cases, attr_case_desc);

static void perf_attr_check_test(struct kunit *test)
{
	const struct attr_case *c = test->param_value;
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
	};

	c->set(&attr);
	KUNIT_EXPECT_EQ(test,
			perf_attr_check(&attr) ?: perf_attr_check_period(&attr),
			c->expect);
}

/*
 * A branch stack without a privilege level takes the event's levels, so
 * that the privilege check sees what will be recorded; explicit levels
 * stay as they were asked.
 */
static void perf_attr_branch_levels_test(struct kunit *test)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.sample_type = PERF_SAMPLE_BRANCH_STACK,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY,
		.exclude_kernel = 1,
	};

	KUNIT_ASSERT_EQ(test, perf_attr_check(&attr), 0);
	KUNIT_EXPECT_EQ(test, attr.branch_sample_type,
			PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER |
			PERF_SAMPLE_BRANCH_HV);

	attr.exclude_hv = 1;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	KUNIT_ASSERT_EQ(test, perf_attr_check(&attr), 0);
	KUNIT_EXPECT_EQ(test, attr.branch_sample_type,
			PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER);

	attr.exclude_kernel = 0;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				  PERF_SAMPLE_BRANCH_USER;
	KUNIT_ASSERT_EQ(test, perf_attr_check(&attr), 0);
	KUNIT_EXPECT_EQ(test, attr.branch_sample_type,
			PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER);
}

/* A timeline of states: enabled counts INACTIVE and ACTIVE, running ACTIVE. */
static void perf_time_states_test(struct kunit *test)
{
	u64 enabled = 0, running = 0, stamp = 100;

	perf_time_advance(&enabled, &running, &stamp,
			  PERF_EVENT_STATE_OFF, 150);
	KUNIT_EXPECT_EQ(test, enabled, 0);
	KUNIT_EXPECT_EQ(test, running, 0);
	KUNIT_EXPECT_EQ(test, stamp, 150);

	perf_time_advance(&enabled, &running, &stamp,
			  PERF_EVENT_STATE_INACTIVE, 170);
	KUNIT_EXPECT_EQ(test, enabled, 20);
	KUNIT_EXPECT_EQ(test, running, 0);

	perf_time_advance(&enabled, &running, &stamp,
			  PERF_EVENT_STATE_ACTIVE, 200);
	KUNIT_EXPECT_EQ(test, enabled, 50);
	KUNIT_EXPECT_EQ(test, running, 30);

	perf_time_advance(&enabled, &running, &stamp,
			  PERF_EVENT_STATE_ERROR, 260);
	KUNIT_EXPECT_EQ(test, enabled, 50);
	KUNIT_EXPECT_EQ(test, running, 30);

	perf_time_advance(&enabled, &running, &stamp,
			  PERF_EVENT_STATE_EXIT, 300);
	KUNIT_EXPECT_EQ(test, enabled, 50);
	KUNIT_EXPECT_EQ(test, stamp, 300);
}

/* Updates at the same instant add nothing; splitting a span is exact. */
static void perf_time_split_test(struct kunit *test)
{
	u64 e1 = 0, r1 = 0, s1 = 0;
	u64 e2 = 0, r2 = 0, s2 = 0;
	u64 t;

	for (t = 7; t <= 700; t += 7)
		perf_time_advance(&e1, &r1, &s1, PERF_EVENT_STATE_ACTIVE, t);
	perf_time_advance(&e1, &r1, &s1, PERF_EVENT_STATE_ACTIVE, 700);
	perf_time_advance(&e2, &r2, &s2, PERF_EVENT_STATE_ACTIVE, 700);
	KUNIT_EXPECT_EQ(test, e1, e2);
	KUNIT_EXPECT_EQ(test, r1, r2);
	KUNIT_EXPECT_EQ(test, e1, 700);
	KUNIT_EXPECT_LE(test, r1, e1);
}

static struct kunit_case perf_core_cases[] = {
	KUNIT_CASE_PARAM(perf_attr_check_test, attr_gen_params),
	KUNIT_CASE(perf_attr_branch_levels_test),
	KUNIT_CASE(perf_time_states_test),
	KUNIT_CASE(perf_time_split_test),
	{}
};

static struct kunit_suite perf_core_suite = {
	.name = "perf_core",
	.test_cases = perf_core_cases,
};

kunit_test_suite(perf_core_suite);

MODULE_DESCRIPTION("KUnit tests of the perf_event core");
MODULE_LICENSE("GPL");
