// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "perf_pmuv3_cpu_pm": PMUv3 events keep counting across a CPU
 * low-power state.  QEMU never powers a CPU down (its PSCI treats every
 * power-down state as a WFI), so the suite plays one on a CPU-bound kernel
 * counter: with IRQs off on the event's CPU it sends CPU_PM_ENTER, resets
 * the PMU as a power-down would leave it, and sends CPU_PM_EXIT.  The count
 * must go on from where it was, and EL0 access must be as it was.  Skipped
 * where the core cannot give a PMUv3 event.
 *
 * Only the PMU's own notifier is called, not cpu_pm_enter()/cpu_pm_exit():
 * the whole chain would also save and restore the interrupt controller of
 * a CPU that never powers down, and can lose an IPI that way (the guest
 * then hangs in smp_call_function_single()).
 */
#include <kunit/test.h>
#include <linux/cpu_pm.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/notifier.h>
#include <linux/perf_event.h>
#include <linux/smp.h>
#include <asm/sysreg.h>

#include "../pmuv3.h"

struct pm_case {
	const char *name;
	u64 config;
	u64 config1;
};

static const struct pm_case pm_cases[] = {
	{ "instructions", PERF_COUNT_HW_INSTRUCTIONS, 0 },
	{ "instructions_long", PERF_COUNT_HW_INSTRUCTIONS, PMUV3_CONFIG1_LONG },
	{ "cycles", PERF_COUNT_HW_CPU_CYCLES, 0 },
};

static void pm_case_desc(const struct pm_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pm, pm_cases, pm_case_desc);

/* What one simulated power-down saw, on the event's CPU. */
struct pm_run {
	struct perf_event *event;
	int ret;		/* of CPU_PM_ENTER */
	u64 before;		/* count before CPU_PM_ENTER */
	u64 after;		/* count after CPU_PM_EXIT */
	u64 userenr;		/* PMUSERENR_EL0 after CPU_PM_EXIT */
	bool stopped;		/* the event still stopped after it */
};

#define PM_USERENR	(PMUV3_USERENR_CR | PMUV3_USERENR_ER)

/* CPU_PM_ENTER, the PMU's state after a power-down, CPU_PM_EXIT */
static void pm_simulate(struct pmuv3 *pmuv3, struct pm_run *run)
{
	struct notifier_block *nb = &pmuv3->pm_nb;

	run->ret = notifier_to_errno(nb->notifier_call(nb, CPU_PM_ENTER, NULL));
	if (!run->ret) {
		pmuv3_hw_reset(pmuv3);
		nb->notifier_call(nb, CPU_PM_EXIT, NULL);
	}
}

/* Runs on the event's CPU with IRQs off (an IPI, or local). */
static void pm_power_cycle(void *arg)
{
	struct pm_run *run = arg;
	struct pmuv3 *pmuv3 = to_pmuv3(run->event->pmu);
	u64 userenr = read_sysreg(pmuserenr_el0);

	write_sysreg(PM_USERENR, pmuserenr_el0);
	isb();
	perf_event_read_local(run->event, &run->before, NULL, NULL);
	pm_simulate(pmuv3, run);
	perf_event_read_local(run->event, &run->after, NULL, NULL);
	run->userenr = read_sysreg(pmuserenr_el0);
	write_sysreg(userenr, pmuserenr_el0);
	isb();
}

static void pm_keeps_counting_test(struct kunit *test)
{
	const struct pm_case *c = test->param_value;
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_HARDWARE,
		.size		= sizeof(attr),
		.config		= c->config,
		.config1	= c->config1,
		.pinned		= 1,
	};
	struct pm_run run = { 0 };
	int cpu = cpumask_first(cpu_online_mask);
	u64 later, enabled, running;

	run.event = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL,
						     NULL);
	if (IS_ERR(run.event))
		kunit_skip(test, "no PMUv3 event: %ld", PTR_ERR(run.event));
	if (!pmuv3_owns(run.event->pmu)) {
		perf_event_release_kernel(run.event);
		kunit_skip(test, "the event is not on a PMUv3 PMU");
	}
	KUNIT_ASSERT_EQ(test, 0,
			smp_call_function_single(cpu, pm_power_cycle, &run, 1));
	later = perf_event_read_value(run.event, &enabled, &running);
	perf_event_release_kernel(run.event);

	KUNIT_ASSERT_EQ(test, 0, run.ret);
	kunit_info(test, "%s: %llu before, %llu after, %llu later\n", c->name,
		   run.before, run.after, later);
	KUNIT_EXPECT_LT(test, 0ULL, run.before);
	/* on from where it was: only the notifications' own work between */
	KUNIT_EXPECT_LE(test, run.before, run.after);
	KUNIT_EXPECT_GT(test, run.before + 10000000, run.after);
	/* and still counting */
	KUNIT_EXPECT_LT(test, run.after, later);
	KUNIT_EXPECT_GT(test, run.after + (1ULL << 31), later);
	KUNIT_EXPECT_EQ(test, enabled, running);
	KUNIT_EXPECT_EQ(test, (u64)PM_USERENR, run.userenr);
}

/*
 * An event stopped on the PMU (as throttling stops one) stays stopped
 * across the power-down, with its count; the CPU_PM notifications start
 * only what they stopped.
 */
static void pm_stopped_power_cycle(void *arg)
{
	struct pm_run *run = arg;
	struct perf_event *event = run->event;

	event->pmu->stop(event, PERF_EF_UPDATE);
	perf_event_read_local(event, &run->before, NULL, NULL);
	pm_simulate(to_pmuv3(event->pmu), run);
	perf_event_read_local(event, &run->after, NULL, NULL);
	run->stopped = event->hw.state & PERF_HES_STOPPED;
	event->pmu->start(event, PERF_EF_RELOAD);
}

static void pm_stopped_stays_stopped_test(struct kunit *test)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_HARDWARE,
		.size		= sizeof(attr),
		.config		= PERF_COUNT_HW_INSTRUCTIONS,
		.pinned		= 1,
	};
	struct pm_run run = { 0 };
	int cpu = cpumask_first(cpu_online_mask);
	int ret;

	run.event = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL,
						     NULL);
	if (IS_ERR(run.event))
		kunit_skip(test, "no PMUv3 event: %ld", PTR_ERR(run.event));
	if (!pmuv3_owns(run.event->pmu)) {
		perf_event_release_kernel(run.event);
		kunit_skip(test, "the event is not on a PMUv3 PMU");
	}
	ret = smp_call_function_single(cpu, pm_stopped_power_cycle, &run, 1);
	KUNIT_ASSERT_EQ(test, 0, ret);
	perf_event_release_kernel(run.event);

	KUNIT_ASSERT_EQ(test, 0, run.ret);
	KUNIT_EXPECT_EQ(test, run.before, run.after);
	KUNIT_EXPECT_TRUE(test, run.stopped);
}

static struct kunit_case pm_test_cases[] = {
	KUNIT_CASE_PARAM(pm_keeps_counting_test, pm_gen_params),
	KUNIT_CASE(pm_stopped_stays_stopped_test),
	{}
};

static struct kunit_suite pm_suite = {
	.name = "perf_pmuv3_cpu_pm",
	.test_cases = pm_test_cases,
};

kunit_test_suite(pm_suite);
