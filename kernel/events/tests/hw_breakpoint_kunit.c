// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the debug-register reservation (hw_breakpoint.c): bare
 * breakpoint events of made-up tasks and CPUs are reserved and released
 * against the real per-CPU tables, with the slot count the CPU reports.
 * Covers the per-task limit, tasks not competing with each other,
 * CPU-bound breakpoints against task ones, breakpoints bound to one CPU,
 * the register classes, and idempotent release.
 *
 * Locking: none beyond reserve_bp_slot()'s own; each case releases every
 * breakpoint it reserved, and nothing else reserves while the suite runs
 * at boot.
 */
#include <kunit/test.h>
#include <linux/hw_breakpoint.h>

#include "../internal.h"

#define MAX_BPS		40

/* Task identities: only their addresses are used, as hash keys. */
static struct task_struct *fake_task(int n)
{
	static char tasks[3];

	return (struct task_struct *)&tasks[n];
}

struct bp_fixture {
	struct perf_event *bps[MAX_BPS];
	int nr;
};

/* Reserve a bare breakpoint of @type for @task (or none) on @cpu. */
static int reserve(struct kunit *test, struct task_struct *task, int cpu,
		   u32 type)
{
	struct bp_fixture *f = test->priv;
	struct perf_event *bp;
	int ret;

	KUNIT_ASSERT_LT(test, f->nr, MAX_BPS);
	bp = kunit_kzalloc(test, sizeof(*bp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bp);
	bp->attr.type = PERF_TYPE_BREAKPOINT;
	bp->attr.bp_type = type;
	bp->cpu = cpu;
	bp->hw.target = task;
	ret = reserve_bp_slot(bp);
	if (!ret)
		f->bps[f->nr++] = bp;
	return ret;
}

/* Reserve until the registers run out; returns how many fit. */
static int fill(struct kunit *test, struct task_struct *task, int cpu,
		u32 type)
{
	int n = 0;

	while (!reserve(test, task, cpu, type))
		n++;
	return n;
}

static void release_last(struct kunit *test)
{
	struct bp_fixture *f = test->priv;

	release_bp_slot(f->bps[--f->nr]);
}

static int bp_test_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct bp_fixture),
				   GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

static void bp_test_exit(struct kunit *test)
{
	struct bp_fixture *f = test->priv;

	while (f->nr)
		release_last(test);
}

static int data_slots(void)
{
	return hw_breakpoint_slots(TYPE_DATA);
}

static void task_limit(struct kunit *test)
{
	int slots = data_slots();

	KUNIT_ASSERT_GT(test, slots, 0);
	KUNIT_EXPECT_EQ(test, fill(test, fake_task(0), -1, HW_BREAKPOINT_W),
			slots);
	KUNIT_EXPECT_EQ(test, reserve(test, fake_task(0), -1, HW_BREAKPOINT_W),
			-ENOSPC);
	/* one freed, one more fits */
	release_last(test);
	KUNIT_EXPECT_EQ(test, reserve(test, fake_task(0), -1, HW_BREAKPOINT_RW),
			0);
}

static void tasks_do_not_compete(struct kunit *test)
{
	int slots = data_slots();

	KUNIT_EXPECT_EQ(test, fill(test, fake_task(0), -1, HW_BREAKPOINT_W),
			slots);
	KUNIT_EXPECT_EQ(test, fill(test, fake_task(1), -1, HW_BREAKPOINT_W),
			slots);
	/* but a CPU-bound one would leave a full task short of registers */
	KUNIT_EXPECT_EQ(test, reserve(test, NULL, 0, HW_BREAKPOINT_W), -ENOSPC);
}

static void cpu_bound_takes_from_tasks(struct kunit *test)
{
	int slots = data_slots();

	KUNIT_ASSERT_EQ(test, reserve(test, NULL, 0, HW_BREAKPOINT_W), 0);
	/* a task on no CPU in particular may run on CPU 0 */
	KUNIT_EXPECT_EQ(test, fill(test, fake_task(0), -1, HW_BREAKPOINT_W),
			slots - 1);
	if (num_possible_cpus() < 2)
		return;
	/* bound to another CPU, it has them all */
	KUNIT_EXPECT_EQ(test, fill(test, fake_task(1), 1, HW_BREAKPOINT_W),
			slots);
	/* and the CPU's own registers go to the most demanding task */
	KUNIT_EXPECT_EQ(test, reserve(test, NULL, 1, HW_BREAKPOINT_W), -ENOSPC);
	KUNIT_EXPECT_EQ(test, fill(test, NULL, 0, HW_BREAKPOINT_W), 0);
}

static void task_bound_to_one_cpu(struct kunit *test)
{
	int slots = data_slots();

	if (num_possible_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	KUNIT_EXPECT_EQ(test, fill(test, fake_task(0), 0, HW_BREAKPOINT_W),
			slots);
	/* CPU 1 is still free for the same task, CPU-any is not */
	KUNIT_EXPECT_EQ(test, reserve(test, fake_task(0), 1, HW_BREAKPOINT_W),
			0);
	KUNIT_EXPECT_EQ(test, reserve(test, fake_task(0), -1, HW_BREAKPOINT_W),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, fill(test, NULL, 1, HW_BREAKPOINT_W), slots - 1);
}

static void register_classes(struct kunit *test)
{
	bool one_pool = IS_ENABLED(CONFIG_HAVE_MIXED_BREAKPOINTS_REGS);
	int data = data_slots();
	int insn = hw_breakpoint_slots(TYPE_INST);

	KUNIT_EXPECT_EQ(test, fill(test, fake_task(0), -1, HW_BREAKPOINT_W),
			data);
	/* one pool on x86; instruction registers of their own on arm64 */
	KUNIT_EXPECT_EQ(test, fill(test, fake_task(0), -1, HW_BREAKPOINT_X),
			one_pool ? 0 : insn);
}

static void release_is_idempotent(struct kunit *test)
{
	struct bp_fixture *f = test->priv;
	int slots = data_slots();
	struct perf_event *bp;

	KUNIT_ASSERT_EQ(test, reserve(test, fake_task(0), -1, HW_BREAKPOINT_W),
			0);
	bp = f->bps[0];
	release_bp_slot(bp);
	release_bp_slot(bp);
	f->nr = 0;
	KUNIT_EXPECT_FALSE(test, hw_breakpoint_is_used());
	/* the tables are as before: a full set still fits */
	KUNIT_EXPECT_EQ(test, fill(test, fake_task(0), -1, HW_BREAKPOINT_W),
			slots);
	KUNIT_EXPECT_TRUE(test, hw_breakpoint_is_used());
}

static struct kunit_case bp_slot_cases[] = {
	KUNIT_CASE(task_limit),
	KUNIT_CASE(tasks_do_not_compete),
	KUNIT_CASE(cpu_bound_takes_from_tasks),
	KUNIT_CASE(task_bound_to_one_cpu),
	KUNIT_CASE(register_classes),
	KUNIT_CASE(release_is_idempotent),
	{}
};

static struct kunit_suite bp_slot_suite = {
	.name		= "perf_hw_breakpoint",
	.init		= bp_test_init,
	.exit		= bp_test_exit,
	.test_cases	= bp_slot_cases,
};

kunit_test_suite(bp_slot_suite);
