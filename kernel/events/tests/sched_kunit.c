// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the scheduling of events onto a PMU, against a fake PMU
 * with two counters: groups go on whole or not at all, pinned groups stay
 * on (or fail into the error state), and flexible groups that do not all
 * fit take turns (multiplexing), as time_enabled/time_running show.
 *
 * The events are counted on the test thread itself, which spins while the
 * PMU's rotation timer (every perf_event_mux_interval_ms of the PMU) gives
 * the flexible groups their turns.
 *
 * A second fake PMU has PERF_PMU_CAP_EXCLUSIVE and PERF_PMU_CAP_NO_INTERRUPT:
 * it takes one event per context and CPU, CPU or task events but not both,
 * and no sampling events.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/percpu.h>

#include "../internal.h"

#define FAKE_COUNTERS	2
#define SPIN_MS		150

static DEFINE_PER_CPU(int, fake_used);
static struct pmu fake_pmu;
/* create the next leaders disabled, to enable their groups whole */
static bool off_at_open;
/* create the next leader exclusive */
static bool exclusive_at_open;

static int fake_event_init(struct perf_event *event)
{
	return event->attr.type == fake_pmu.type ? 0 : -ENOENT;
}

static int fake_add(struct perf_event *event, int flags)
{
	int *used = this_cpu_ptr(&fake_used);

	if (*used >= FAKE_COUNTERS)
		return -EAGAIN;
	(*used)++;
	event->hw.state = flags & PERF_EF_START ? 0 : PERF_HES_STOPPED;
	return 0;
}

static void fake_del(struct perf_event *event, int flags)
{
	this_cpu_dec(fake_used);
	event->hw.state = PERF_HES_STOPPED;
}

static void fake_read(struct perf_event *event)
{
}

/* the two PMUs share counters and callbacks; the second is exclusive */
#define FAKE_PMU_OPS \
	.task_ctx_nr	= perf_hw_context,	\
	.add		= fake_add,		\
	.del		= fake_del,		\
	.start		= perf_kunit_pmu_start,	\
	.stop		= perf_kunit_pmu_stop,	\
	.read		= fake_read

static struct pmu fake_pmu = {
	FAKE_PMU_OPS,
	.event_init	= fake_event_init,
};

static struct pmu fake_excl_pmu;

static int fake_excl_event_init(struct perf_event *event)
{
	return event->attr.type == fake_excl_pmu.type ? 0 : -ENOENT;
}

static struct pmu fake_excl_pmu = {
	FAKE_PMU_OPS,
	.capabilities	= PERF_PMU_CAP_EXCLUSIVE | PERF_PMU_CAP_NO_INTERRUPT,
	.event_init	= fake_excl_event_init,
};

static const struct perf_kunit_pmu sched_suite_pmus[] = {
	{ &fake_pmu, "kunit_fake" },
	{ &fake_excl_pmu, "kunit_fake_excl" },
};

static int sched_suite_init(struct kunit_suite *suite)
{
	return perf_kunit_register_pmus(sched_suite_pmus,
					ARRAY_SIZE(sched_suite_pmus));
}

static void sched_suite_exit(struct kunit_suite *suite)
{
	perf_kunit_unregister_pmus(sched_suite_pmus,
				   ARRAY_SIZE(sched_suite_pmus));
}

/* An event of the fake PMU on the test thread, released at test end. */
static struct perf_event *fake_event(struct kunit *test, bool pinned,
				     struct perf_event *leader)
{
	struct perf_event_attr attr = {
		.type = fake_pmu.type,
		.size = sizeof(attr),
		.pinned = pinned,
		.disabled = off_at_open,
		.exclusive = exclusive_at_open,
	};
	struct perf_event_context *ctx;
	struct perf_event *event;
	int ret;

	if (!leader) {
		event = perf_event_create_kernel_counter(&attr, -1, current,
							 NULL, NULL);
		KUNIT_ASSERT_FALSE(test, IS_ERR(event));
		return event;
	}
	/* a sibling: the path of perf_event_open() with a group_fd */
	event = perf_event_alloc(&attr, -1, current, leader, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(event));
	ctx = leader->ctx;
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

static void spin(int ms)
{
	u64 end = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;

	while (ktime_get_ns() < end)
		cpu_relax();
}

struct times {
	u64 enabled;
	u64 running;
};

static struct times times_of(struct perf_event *event)
{
	struct times t;

	perf_event_read_value(event, &t.enabled, &t.running);
	return t;
}

static void release_all(struct perf_event **events, int nr)
{
	while (nr--)
		perf_event_release_kernel(events[nr]);
}

/* Three flexible events on two counters all get turns. */
static void flexible_rotate_test(struct kunit *test)
{
	struct perf_event *ev[3];
	u64 sum = 0, enabled = 0;
	int i;

	for (i = 0; i < 3; i++)
		ev[i] = fake_event(test, false, NULL);
	spin(SPIN_MS);
	for (i = 0; i < 3; i++) {
		struct times t = times_of(ev[i]);

		KUNIT_EXPECT_GT(test, t.running, 0);
		KUNIT_EXPECT_LT(test, t.running, t.enabled);
		sum += t.running;
		enabled = max(enabled, t.enabled);
	}
	/* never more than two on the PMU at once (1 ms for the reads) */
	KUNIT_EXPECT_LE(test, sum, 2 * enabled + NSEC_PER_MSEC);
	release_all(ev, 3);
}

/* Rotations of the flexible groups of @ctx so far: each inserts one anew. */
static u64 rotations(struct perf_event_context *ctx)
{
	return READ_ONCE(ctx->flexible_groups.index);
}

/*
 * The flexible groups go on in their order until one finds no room: the
 * ones behind it wait their turn though they would fit (stock's order on
 * its emulated PMUs).  Of A (one event), B (two), C and D (one each) on
 * two counters, the rotations put on A; B; C and D; D and A: C runs in
 * one of four, D in two (where the small ones filled the gaps, C would
 * join A in the first and run as long as D).
 */
static void flexible_order_test(struct kunit *test)
{
	struct perf_event *ev[5];
	struct times a, c, d;
	unsigned int i;
	u64 r0;

	off_at_open = true;
	ev[0] = fake_event(test, false, NULL);
	ev[1] = fake_event(test, false, NULL);
	off_at_open = false;
	ev[2] = fake_event(test, false, ev[1]);
	off_at_open = true;
	ev[3] = fake_event(test, false, NULL);
	ev[4] = fake_event(test, false, NULL);
	off_at_open = false;
	perf_event_enable(ev[0]);
	perf_event_enable(ev[1]);
	perf_event_enable(ev[3]);
	perf_event_enable(ev[4]);
	/*
	 * Some rotations (a busy host may hold the vCPU off the CPU for
	 * several of the timer's intervals): the shares show in eight.
	 */
	r0 = rotations(ev[0]->ctx);
	for (i = 0; i < 10 && rotations(ev[0]->ctx) - r0 < 8; i++)
		spin(SPIN_MS);
	a = times_of(ev[0]);
	c = times_of(ev[3]);
	d = times_of(ev[4]);
	KUNIT_EXPECT_GT(test, c.running, 0);
	/*
	 * C one in four, D and A two; or, where the timer rotated between
	 * the enables (B in front of A: B; A and C; C and D; D), A one in
	 * four, C and D two.  Filling the gaps, A, C and D would all run
	 * two in four, whatever the order.
	 */
	KUNIT_EXPECT_TRUE(test, c.running * 4 < d.running * 3 ||
			  a.running * 4 < d.running * 3);
	release_all(ev, 5);
	KUNIT_EXPECT_EQ(test, this_cpu_read(fake_used), 0);
}

/*
 * The flexible groups rotate from the PMU's own timer, every
 * perf_event_mux_interval_ms of the PMU, and after the interval changes
 * (as the sysfs file changes it) at the new pace: at 20 ms no more often
 * than that, where a rotation from the tick would come every tick.  The
 * pace at 1 ms is logged against the tick (under x86 TCG early in boot the
 * timer expires no more often than the tick; the arm64 PMUv3 selftest
 * checks the pace user space sees).
 */
static void mux_interval_test(struct kunit *test)
{
	int saved = fake_pmu.hrtimer_interval_ms;
	struct perf_cpu_pmu_context *cpc;
	struct perf_event_context *ctx;
	struct perf_event *ev[3];
	unsigned long j0;
	u64 r0, r, t0, ms;
	bool hres;
	int i;

	WRITE_ONCE(fake_pmu.hrtimer_interval_ms, 1);
	for (i = 0; i < 3; i++)
		ev[i] = fake_event(test, false, NULL);
	ctx = ev[0]->ctx;
	j0 = jiffies;
	r0 = rotations(ctx);
	spin(40);
	r = rotations(ctx) - r0;
	cpc = raw_cpu_ptr(fake_pmu.cpu_pmu_context);
	hres = hrtimer_is_hres_active(&cpc->hrtimer);
	kunit_info(test, "%llu rotations in %lu ticks (HZ=%d, hrtimers %s)",
		   r, jiffies - j0, HZ, hres ? "high-res" : "low-res");
	KUNIT_EXPECT_GE(test, r, 1);

	WRITE_ONCE(fake_pmu.hrtimer_interval_ms, 20);
	spin(2);	/* the timer takes the new interval at its next expiry */
	t0 = ktime_get_ns();
	r0 = rotations(ctx);
	spin(100);
	r = rotations(ctx) - r0;
	ms = (ktime_get_ns() - t0) / NSEC_PER_MSEC;
	KUNIT_EXPECT_GE(test, r, 1);
	/* one more where the thread moved to a CPU whose timer had to start */
	KUNIT_EXPECT_LE_MSG(test, r, ms / 20 + 2, "%llu rotations in %llu ms",
			    r, ms);
	release_all(ev, 3);
	WRITE_ONCE(fake_pmu.hrtimer_interval_ms, saved);
}

/* The CPUs whose rotation timer of the fake PMU still runs. */
static int mux_timers_running(struct kunit *test, bool report)
{
	struct perf_cpu_pmu_context *cpc;
	int cpu, nr = 0;

	for_each_online_cpu(cpu) {
		cpc = per_cpu_ptr(fake_pmu.cpu_pmu_context, cpu);
		if (!READ_ONCE(cpc->hrtimer_active))
			continue;
		nr++;
		if (report)
			kunit_info(test, "CPU %d: timer %s, %lld ns left, %d counters used",
				   cpu, hrtimer_is_queued(&cpc->hrtimer) ?
				   "queued" : "not queued",
				   ktime_to_ns(hrtimer_get_remaining(&cpc->hrtimer)),
				   per_cpu(fake_used, cpu));
	}
	return nr;
}

/* Once every flexible group fits again, the rotation timers stop. */
static void mux_timer_stops_test(struct kunit *test)
{
	struct perf_event *ev[3];
	int i, nr;

	for (i = 0; i < 3; i++)
		ev[i] = fake_event(test, false, NULL);
	spin(10);
	perf_event_release_kernel(ev[2]);
	/* a few intervals of the PMU: every timer expires at least once */
	for (i = 0; i < 20 && mux_timers_running(test, false); i++)
		spin(fake_pmu.hrtimer_interval_ms + 5);
	nr = mux_timers_running(test, true);
	KUNIT_EXPECT_EQ(test, nr, 0);
	release_all(ev, 2);
}

/* A pinned event keeps its counter; the flexible ones share the other. */
static void pinned_stays_test(struct kunit *test)
{
	struct perf_event *ev[3];
	struct times t;
	int i;

	ev[0] = fake_event(test, true, NULL);
	ev[1] = fake_event(test, false, NULL);
	ev[2] = fake_event(test, false, NULL);
	spin(SPIN_MS);
	t = times_of(ev[0]);
	KUNIT_EXPECT_EQ(test, t.running, t.enabled);
	for (i = 1; i < 3; i++) {
		t = times_of(ev[i]);
		KUNIT_EXPECT_GT(test, t.running, 0);
		KUNIT_EXPECT_LT(test, t.running, t.enabled);
	}
	release_all(ev, 3);
}

/* A pinned group that cannot get its counters goes to the error state. */
static void pinned_error_test(struct kunit *test)
{
	struct perf_event *ev[3];
	int i;

	for (i = 0; i < 3; i++)
		ev[i] = fake_event(test, true, NULL);
	KUNIT_EXPECT_EQ(test, READ_ONCE(ev[0]->state), PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, READ_ONCE(ev[1]->state), PERF_EVENT_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, READ_ONCE(ev[2]->state), PERF_EVENT_STATE_ERROR);
	release_all(ev, 3);
}

/* Two groups of two on two counters: each runs whole, in turns. */
static void groups_whole_test(struct kunit *test)
{
	struct perf_event *ev[4];
	struct times lead, sib;
	int g;

	/* whole from the start: the leaders are enabled once complete */
	off_at_open = true;
	ev[0] = fake_event(test, false, NULL);
	ev[2] = fake_event(test, false, NULL);
	off_at_open = false;
	ev[1] = fake_event(test, false, ev[0]);
	ev[3] = fake_event(test, false, ev[2]);
	perf_event_enable(ev[0]);
	perf_event_enable(ev[2]);
	spin(SPIN_MS);
	for (g = 0; g < 4; g += 2) {
		/* stop the group's clock so that both members read alike */
		perf_event_disable(ev[g]);
		lead = times_of(ev[g]);
		sib = times_of(ev[g + 1]);
		KUNIT_EXPECT_GT(test, lead.running, 0);
		KUNIT_EXPECT_LT(test, lead.running, lead.enabled);
		KUNIT_EXPECT_EQ(test, lead.running, sib.running);
	}
	release_all(ev, 4);
}

/*
 * A member enabled on its own is enabled only while its leader is: off at
 * open, enabled, then disabled alone, the leader and the member read the
 * same times, and the member's running time is its enabled time.
 */
static void member_times_follow_leader_test(struct kunit *test)
{
	struct perf_event *ev[2];
	struct times lead, memb;

	off_at_open = true;
	ev[0] = fake_event(test, false, NULL);
	off_at_open = false;
	ev[1] = fake_event(test, false, ev[0]);
	spin(SPIN_MS / 10);
	perf_event_enable(ev[0]);
	spin(SPIN_MS / 10);
	perf_event_disable(ev[0]);
	spin(SPIN_MS / 10);
	lead = times_of(ev[0]);
	memb = times_of(ev[1]);
	KUNIT_EXPECT_GT(test, lead.enabled, 0);
	KUNIT_EXPECT_EQ(test, lead.enabled, lead.running);
	KUNIT_EXPECT_EQ(test, memb.enabled, lead.enabled);
	KUNIT_EXPECT_EQ(test, memb.running, lead.running);
	release_all(ev, 2);
}

/* A group bigger than the PMU never runs, and keeps nothing on it. */
static void group_too_big_test(struct kunit *test)
{
	struct perf_event *ev[3];
	int i;

	/* build the group while it is off: two members alone would fit */
	off_at_open = true;
	ev[0] = fake_event(test, false, NULL);
	off_at_open = false;
	ev[1] = fake_event(test, false, ev[0]);
	ev[2] = fake_event(test, false, ev[0]);
	perf_event_enable(ev[0]);
	spin(SPIN_MS / 3);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, times_of(ev[i]).running, 0);
	release_all(ev, 3);
	KUNIT_EXPECT_EQ(test, this_cpu_read(fake_used), 0);
}

/* An exclusive event is alone on the PMU whenever it runs. */
static void exclusive_alone_test(struct kunit *test)
{
	struct perf_event *ev[3];
	struct times a, b, x;

	/* the others start within the exclusive one's lifetime */
	off_at_open = true;
	ev[0] = fake_event(test, false, NULL);
	ev[1] = fake_event(test, false, NULL);
	off_at_open = false;
	exclusive_at_open = true;
	ev[2] = fake_event(test, false, NULL);
	exclusive_at_open = false;
	perf_event_enable(ev[0]);
	perf_event_enable(ev[1]);
	spin(SPIN_MS);
	perf_event_disable(ev[0]);
	perf_event_disable(ev[1]);
	perf_event_disable(ev[2]);
	a = times_of(ev[0]);
	b = times_of(ev[1]);
	x = times_of(ev[2]);
	KUNIT_EXPECT_GT(test, x.running, 0);
	KUNIT_EXPECT_GT(test, a.running, 0);
	/* the two others never run beside it */
	KUNIT_EXPECT_LE(test, x.running + max(a.running, b.running),
			x.enabled + NSEC_PER_MSEC);
	release_all(ev, 3);
}

/*
 * An exclusive group is kept off only by groups of its own kind in its
 * own context: beside a CPU-wide pinned event on its CPU (the NMI
 * watchdog's kind), or beside a pinned event of its own task, a flexible
 * exclusive event of the task runs all the time it is enabled, and so
 * does the other.
 */
static void exclusive_beside_other_kinds_test(struct kunit *test)
{
	struct perf_event_attr attr = {
		.type = fake_pmu.type,
		.size = sizeof(attr),
		.pinned = 1,
	};
	struct perf_event *ev[2];
	struct times t;
	int cpu, round, i;

	cpu = get_cpu();
	put_cpu();
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)),
			0);
	for (round = 0; round < 2; round++) {
		if (!round) {
			ev[0] = perf_event_create_kernel_counter(&attr, cpu,
								 NULL, NULL,
								 NULL);
			KUNIT_ASSERT_FALSE(test, IS_ERR(ev[0]));
		} else {
			ev[0] = fake_event(test, true, NULL);
		}
		exclusive_at_open = true;
		ev[1] = fake_event(test, false, NULL);
		exclusive_at_open = false;
		spin(SPIN_MS / 5);
		for (i = 0; i < 2; i++) {
			perf_event_disable(ev[i]);
			t = times_of(ev[i]);
			KUNIT_EXPECT_GT(test, t.running, 0);
			KUNIT_EXPECT_EQ(test, t.running, t.enabled);
		}
		release_all(ev, 2);
	}
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

/* An event of the exclusive PMU on @task, or on @cpu if @task is NULL. */
static struct perf_event *excl_event(struct task_struct *task, int cpu,
				     u64 period)
{
	struct perf_event_attr attr = {
		.type = fake_excl_pmu.type,
		.size = sizeof(attr),
		.sample_period = period,
	};

	return perf_event_create_kernel_counter(&attr, task ? -1 : cpu, task,
						NULL, NULL);
}

/* One event per task context; the next fails until the first is gone. */
static void exclusive_pmu_task_test(struct kunit *test)
{
	struct perf_event *a, *b;

	a = excl_event(current, -1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = excl_event(current, -1, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(b), -EBUSY);
	if (!IS_ERR(b))
		perf_event_release_kernel(b);
	perf_event_release_kernel(a);
	b = excl_event(current, -1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(b));
	perf_event_release_kernel(b);
	KUNIT_EXPECT_EQ(test, atomic_read(&fake_excl_pmu.exclusive_cnt), 0);
}

/* CPU events and task events exclude each other on the PMU. */
static void exclusive_pmu_cpu_vs_task_test(struct kunit *test)
{
	struct perf_event *t, *c;

	t = excl_event(current, -1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_EQ(test, atomic_read(&fake_excl_pmu.exclusive_cnt), 1);
	c = excl_event(NULL, 0, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(c), -EBUSY);
	if (!IS_ERR(c))
		perf_event_release_kernel(c);
	perf_event_release_kernel(t);

	c = excl_event(NULL, 0, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	KUNIT_EXPECT_EQ(test, atomic_read(&fake_excl_pmu.exclusive_cnt), -1);
	t = excl_event(current, -1, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(t), -EBUSY);
	if (!IS_ERR(t))
		perf_event_release_kernel(t);
	perf_event_release_kernel(c);
	KUNIT_EXPECT_EQ(test, atomic_read(&fake_excl_pmu.exclusive_cnt), 0);
}

/* One CPU event per CPU: another CPU's context is another context. */
static void exclusive_pmu_per_cpu_test(struct kunit *test)
{
	struct perf_event *a, *b;
	int other;

	a = excl_event(NULL, 0, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	b = excl_event(NULL, 0, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(b), -EBUSY);
	if (!IS_ERR(b))
		perf_event_release_kernel(b);
	other = cpumask_next(0, cpu_online_mask);
	if (other < nr_cpu_ids) {
		b = excl_event(NULL, other, 0);
		KUNIT_EXPECT_FALSE(test, IS_ERR(b));
		if (!IS_ERR(b))
			perf_event_release_kernel(b);
	}
	perf_event_release_kernel(a);
	KUNIT_EXPECT_EQ(test, atomic_read(&fake_excl_pmu.exclusive_cnt), 0);
}

/* A PMU without an overflow interrupt counts but does not sample. */
static void no_interrupt_pmu_test(struct kunit *test)
{
	struct perf_event *e;

	e = excl_event(current, -1, 100000);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(e), -EOPNOTSUPP);
	if (!IS_ERR(e))
		perf_event_release_kernel(e);
	/* the refused event left no count behind */
	KUNIT_EXPECT_EQ(test, atomic_read(&fake_excl_pmu.exclusive_cnt), 0);
	e = excl_event(current, -1, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(e));
	perf_event_release_kernel(e);
}

static struct kunit_case perf_sched_cases[] = {
	KUNIT_CASE(pinned_error_test),
	KUNIT_CASE(group_too_big_test),
	KUNIT_CASE(flexible_rotate_test),
	KUNIT_CASE(flexible_order_test),
	KUNIT_CASE(mux_interval_test),
	KUNIT_CASE(mux_timer_stops_test),
	KUNIT_CASE(pinned_stays_test),
	KUNIT_CASE(groups_whole_test),
	KUNIT_CASE(member_times_follow_leader_test),
	KUNIT_CASE(exclusive_alone_test),
	KUNIT_CASE(exclusive_beside_other_kinds_test),
	KUNIT_CASE(exclusive_pmu_task_test),
	KUNIT_CASE(exclusive_pmu_cpu_vs_task_test),
	KUNIT_CASE(exclusive_pmu_per_cpu_test),
	KUNIT_CASE(no_interrupt_pmu_test),
	{}
};

static struct kunit_suite perf_sched_suite = {
	.name = "perf_sched",
	.suite_init = sched_suite_init,
	.suite_exit = sched_suite_exit,
	.test_cases = perf_sched_cases,
};

kunit_test_suite(perf_sched_suite);

MODULE_DESCRIPTION("KUnit tests of perf event scheduling with a fake PMU");
MODULE_LICENSE("GPL");
