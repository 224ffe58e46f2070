// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of PMU registration: scoped PMUs (PERF_PMU_SCOPE_*), whose
 * CPU events go to one designated CPU of each group of CPUs that share the
 * counters and which show a "cpumask" file, and perf_pmu_migrate_context(),
 * which moves a PMU's CPU events, groups whole, to another CPU.
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/kernfs.h>
#include <linux/topology.h>

#include "../internal.h"

static struct pmu scope_pmu;
static struct pmu plain_pmu;

static int scope_event_init(struct perf_event *event)
{
	if (event->attr.type != scope_pmu.type &&
	    event->attr.type != plain_pmu.type)
		return -ENOENT;
	/* counters of a whole scope: no task events, as uncore drivers */
	if (event->attach_state & PERF_ATTACH_TASK)
		return -EINVAL;
	return 0;
}

static int scope_add(struct perf_event *event, int flags)
{
	event->hw.state = flags & PERF_EF_START ? 0 : PERF_HES_STOPPED;
	return 0;
}

static void scope_read(struct perf_event *event)
{
	local64_inc(&event->count);
}

/* the two PMUs differ only in their scope */
#define SCOPE_PMU_OPS \
	.task_ctx_nr	= perf_invalid_context,	\
	.event_init	= scope_event_init,	\
	.add		= scope_add,		\
	.del		= perf_kunit_pmu_stop,	\
	.start		= perf_kunit_pmu_start,	\
	.stop		= perf_kunit_pmu_stop,	\
	.read		= scope_read

static struct pmu scope_pmu = {
	SCOPE_PMU_OPS,
	.scope		= PERF_PMU_SCOPE_SYS_WIDE,
};

static struct pmu plain_pmu = {
	SCOPE_PMU_OPS,
};

static const struct perf_kunit_pmu pmu_suite_pmus[] = {
	{ &scope_pmu, "kunit_scope" },
	{ &plain_pmu, "kunit_plain" },
};

static int pmu_suite_init(struct kunit_suite *suite)
{
	return perf_kunit_register_pmus(pmu_suite_pmus,
					ARRAY_SIZE(pmu_suite_pmus));
}

static void pmu_suite_exit(struct kunit_suite *suite)
{
	perf_kunit_unregister_pmus(pmu_suite_pmus, ARRAY_SIZE(pmu_suite_pmus));
}

static struct perf_event *cpu_event(struct pmu *pmu, int cpu)
{
	struct perf_event_attr attr = {
		.type = pmu->type,
		.size = sizeof(attr),
	};

	return perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
}

/* A sibling of @leader, by the path of perf_event_open() with a group_fd. */
static struct perf_event *cpu_sibling(struct kunit *test,
				      struct perf_event *leader)
{
	struct perf_event_attr attr = {
		.type = leader->pmu->type,
		.size = sizeof(attr),
	};
	struct perf_event_context *ctx = leader->ctx;
	struct perf_event *event;
	int ret;

	event = perf_event_alloc(&attr, leader->cpu, NULL, leader, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(event));
	refcount_inc(&ctx->refcount);
	/* a member attaches and joins under the leader's ctx->mutex */
	mutex_lock(&ctx->mutex);
	ret = perf_event_attach(event, ctx);
	if (!ret)
		perf_event_install(event);
	mutex_unlock(&ctx->mutex);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return event;
}

/*
 * Every scope has one designated online CPU for each group of CPUs; the
 * system-wide scope the first online CPU.
 */
static void scope_designated_test(struct kunit *test)
{
	const struct cpumask *mask;
	unsigned int scope;
	int cpu, d, core;

	for_each_online_cpu(cpu) {
		for (scope = PERF_PMU_SCOPE_CORE; scope < PERF_PMU_MAX_SCOPE;
		     scope++) {
			d = perf_scope_cpu(scope, cpu);
			KUNIT_ASSERT_LT(test, d, nr_cpu_ids);
			KUNIT_EXPECT_TRUE(test, cpu_online(d));
		}
		core = perf_scope_cpu(PERF_PMU_SCOPE_CORE, cpu);
		mask = topology_sibling_cpumask(cpu);
		KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(core, mask));
		KUNIT_EXPECT_EQ(test, perf_scope_cpu(PERF_PMU_SCOPE_SYS_WIDE,
						     cpu),
				cpumask_first(cpu_online_mask));
	}
	KUNIT_EXPECT_EQ(test, perf_scope_cpu(PERF_PMU_SCOPE_NONE, 0),
			nr_cpu_ids);
}

/* A CPU event of a scoped PMU counts on the designated CPU of its scope. */
static void scope_event_placed_test(struct kunit *test)
{
	struct perf_event *event;
	int cpu;

	for_each_online_cpu(cpu) {
		event = cpu_event(&scope_pmu, cpu);
		KUNIT_ASSERT_FALSE(test, IS_ERR(event));
		KUNIT_EXPECT_EQ(test, event->cpu,
				perf_scope_cpu(PERF_PMU_SCOPE_SYS_WIDE, cpu));
		KUNIT_EXPECT_TRUE(test,
				  event->event_caps & PERF_EV_CAP_READ_SCOPE);
		KUNIT_EXPECT_PTR_EQ(test, event->ctx,
				    &per_cpu_ptr(&perf_cpu_ctx, event->cpu)->ctx);
		perf_event_release_kernel(event);

		event = cpu_event(&plain_pmu, cpu);
		KUNIT_ASSERT_FALSE(test, IS_ERR(event));
		KUNIT_EXPECT_EQ(test, event->cpu, cpu);
		KUNIT_EXPECT_FALSE(test,
				   event->event_caps & PERF_EV_CAP_READ_SCOPE);
		perf_event_release_kernel(event);
	}
}

/* sysfs: "cpumask" for the scoped PMU only. */
static void scope_cpumask_file_test(struct kunit *test)
{
	struct kernfs_node *kn;

	if (!scope_pmu.dev || !plain_pmu.dev)
		kunit_skip(test, "no event_source bus yet");
	kn = kernfs_find_and_get(scope_pmu.dev->kobj.sd, "cpumask");
	KUNIT_EXPECT_NOT_NULL(test, kn);
	kernfs_put(kn);
	kn = kernfs_find_and_get(plain_pmu.dev->kobj.sd, "cpumask");
	KUNIT_EXPECT_NULL(test, kn);
	kernfs_put(kn);
}

/*
 * perf_pmu_migrate_context() moves a group whole to the other CPU's
 * context, still counting, with its times, while others stay.
 */
static void migrate_group_test(struct kunit *test)
{
	struct perf_event *leader, *sibling, *other;
	u64 enabled, running, before;
	int dst;

	dst = cpumask_next(0, cpu_online_mask);
	if (!cpu_online(0) || dst >= nr_cpu_ids)
		kunit_skip(test, "needs CPUs 0 and another online");
	leader = cpu_event(&plain_pmu, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(leader));
	sibling = cpu_sibling(test, leader);
	other = cpu_event(&scope_pmu, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(other));
	before = perf_event_read_value(leader, &enabled, &running);

	perf_pmu_migrate_context(&plain_pmu, 0, dst);

	KUNIT_EXPECT_EQ(test, leader->cpu, dst);
	KUNIT_EXPECT_EQ(test, sibling->cpu, dst);
	KUNIT_EXPECT_PTR_EQ(test, leader->ctx,
			    &per_cpu_ptr(&perf_cpu_ctx, dst)->ctx);
	KUNIT_EXPECT_PTR_EQ(test, sibling->group_leader, leader);
	KUNIT_EXPECT_EQ(test, leader->nr_siblings, 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(leader->state),
			PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, READ_ONCE(sibling->state),
			PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_PTR_EQ(test, leader->pmu_ctx, sibling->pmu_ctx);
	KUNIT_EXPECT_PTR_EQ(test, leader->pmu_ctx->ctx, leader->ctx);
	/* the other PMU's event stayed */
	KUNIT_EXPECT_EQ(test, other->cpu, 0);
	/* the count and the times carry on */
	KUNIT_EXPECT_LE(test, before,
			perf_event_read_value(leader, &enabled, &running));
	KUNIT_EXPECT_GT(test, enabled, 0);
	KUNIT_EXPECT_EQ(test, enabled, running);

	perf_event_release_kernel(other);
	perf_event_release_kernel(sibling);
	perf_event_release_kernel(leader);
}

/*
 * CPU hotplug: a CPU that goes offline is no longer designated; events
 * asked for its core fail with -ENODEV while no CPU of it is online, those
 * for its package go to the package's designated CPU; it is designated
 * again when it is back, if its group has none.
 */
static void scope_hotplug_test(struct kunit *test)
{
	struct perf_event *event;
	int cpu, ret;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU)) {
		kunit_skip(test, "no CPU hotplug");
		return;
	}
	cpu = cpumask_last(cpu_online_mask);
	if (cpu == 0 || !cpu_is_hotpluggable(cpu))
		kunit_skip(test, "no CPU to take offline");
	if (perf_scope_cpu(PERF_PMU_SCOPE_CORE, cpu) != cpu)
		kunit_skip(test, "CPU %d shares its core", cpu);
	ret = remove_cpu(cpu);
	if (ret)
		kunit_skip(test, "CPU %d does not go offline (%d)", cpu, ret);
	KUNIT_EXPECT_GE(test, perf_scope_cpu(PERF_PMU_SCOPE_CORE, cpu),
			nr_cpu_ids);
	KUNIT_EXPECT_NE(test, perf_scope_cpu(PERF_PMU_SCOPE_SYS_WIDE, 0),
			cpu);
	if (topology_physical_package_id(cpu) ==
	    topology_physical_package_id(0))
		KUNIT_EXPECT_EQ(test, perf_scope_cpu(PERF_PMU_SCOPE_PKG, cpu),
				perf_scope_cpu(PERF_PMU_SCOPE_PKG, 0));
	scope_pmu.scope = PERF_PMU_SCOPE_CORE;
	event = cpu_event(&scope_pmu, cpu);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(event), -ENODEV);
	if (!IS_ERR(event))
		perf_event_release_kernel(event);
	KUNIT_ASSERT_EQ(test, add_cpu(cpu), 0);
	KUNIT_EXPECT_EQ(test, perf_scope_cpu(PERF_PMU_SCOPE_CORE, cpu), cpu);
	event = cpu_event(&scope_pmu, cpu);
	KUNIT_EXPECT_FALSE(test, IS_ERR(event));
	if (!IS_ERR(event)) {
		KUNIT_EXPECT_EQ(test, event->cpu, cpu);
		perf_event_release_kernel(event);
	}
	scope_pmu.scope = PERF_PMU_SCOPE_SYS_WIDE;
}

static struct kunit_case perf_pmu_cases[] = {
	KUNIT_CASE(scope_designated_test),
	KUNIT_CASE(scope_event_placed_test),
	KUNIT_CASE(scope_cpumask_file_test),
	KUNIT_CASE(migrate_group_test),
	KUNIT_CASE(scope_hotplug_test),
	{}
};

static struct kunit_suite perf_pmu_suite = {
	.name = "perf_pmu",
	.suite_init = pmu_suite_init,
	.suite_exit = pmu_suite_exit,
	.test_cases = perf_pmu_cases,
};

kunit_test_suite(perf_pmu_suite);

MODULE_DESCRIPTION("KUnit tests of perf PMU scopes and context migration");
MODULE_LICENSE("GPL");
