// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "perf_x86_driver": the registered core PMU driver
 * (pmu.c, sysfs.c, user_access.c) under the perf core, over
 * the model of the PMU.  Each test registers a driver instance named
 * x86_core_kunit on a model made from a fixture, brings up one CPU's
 * counters, pins itself to that CPU and opens CPU events there with
 * perf_event_create_kernel_counter(), so that the core schedules them
 * through the driver's callbacks (transactions included) onto the
 * model's MSRs.  The model's PMI calls the driver's interrupt entry as the
 * NMI would.  Checked: exact counts, more events than counters, samples
 * and the counter re-armed, frequency mode, suspend and resume (the
 * model loses its MSRs), the period the NMI watchdog asks for, the
 * rdpmc index and width of the user page, the sysfs attributes, AMD's
 * HostOnly bit while SVM is off, Intel's freeze_on_smi (IA32_DEBUGCTL),
 * and the LBRs KVM is told of.
 *
 * Locking: the model has none; everything that reaches it runs on the
 * pinned CPU with IRQs off (the core's callbacks, and the test's own
 * counting, done with IRQs disabled so that a multiplexing timer cannot
 * come in between).
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/kvm_host.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>
#include <asm/tsc.h>

#include "../cpu_pmu.h"
#include "pmu_model.h"

#define MAX_EVENTS	16

struct drv_test {
	struct kunit *test;
	const struct x86_pmu_model_fixture *fx;
	struct x86_pmu_model *m;
	struct x86_core_driver drv;
	struct x86_core_desc desc;
	int cpu;
	bool registered;
	struct perf_event *events[MAX_EVENTS];
	unsigned int nr_events;
	unsigned int samples;
	u64 last_period;
};

static void model_pmi(struct x86_pmu_model *m, void *arg)
{
	struct drv_test *t = arg;
	struct pt_regs regs = {
		.ip	= _THIS_IP_,
		.cs	= __KERNEL_CS,
		.flags	= X86_EFLAGS_FIXED,
	};

	x86_core_driver_pmi(&t->drv, &regs);
}

static void drv_test_end(void *arg)
{
	struct drv_test *t = arg;
	unsigned int i;

	for (i = 0; i < t->nr_events; i++)
		perf_event_release_kernel(t->events[i]);
	if (t->registered)
		perf_pmu_unregister(&t->drv.pmu);
	x86_core_driver_free(&t->drv);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

/* a registered driver on @fx's model, this CPU's counters up */
static struct drv_test *drv_test_new(struct kunit *test,
				     const struct x86_pmu_model_fixture *fx)
{
	struct drv_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->test = test;
	t->fx = fx;
	t->m = x86_pmu_model_new(test, fx);
	KUNIT_ASSERT_NOT_NULL(test, t->m);
	if (x86_core_detect(x86_pmu_model_hw(t->m), &t->desc) ||
	    t->desc.vendor == X86_CORE_NONE)
		kunit_skip(test, "%s has no core PMU", fx->name);
	KUNIT_ASSERT_EQ(test, x86_core_driver_setup(&t->drv,
						    x86_pmu_model_hw(t->m),
						    &t->desc), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, drv_test_end, t), 0);
	/* generic events reach this instance by its type in config:32-63 */
	t->drv.pmu.capabilities |= PERF_PMU_CAP_EXTENDED_HW_TYPE;
	x86_pmu_model_set_pmi(t->m, model_pmi, t);

	t->cpu = raw_smp_processor_id();
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(t->cpu)), 0);
	local_irq_disable();
	x86_core_driver_cpu_up(&t->drv, t->cpu);
	local_irq_enable();
	KUNIT_ASSERT_EQ(test, perf_pmu_register(&t->drv.pmu, "x86_core_kunit", -1), 0);
	t->registered = true;
	return t;
}

static struct drv_test *fixture_test(struct kunit *test)
{
	return drv_test_new(test, x86_pmu_test_fixture(test));
}

static void record_sample(struct perf_event *event,
			  struct perf_sample_data *data, struct pt_regs *regs)
{
	struct drv_test *t = event->overflow_handler_context;

	t->samples++;
	t->last_period = data->period;
}

/* a generic hardware event on this instance, on the pinned CPU */
static struct perf_event *open_hw(struct drv_test *t, u64 config, u64 period,
				  bool pinned)
{
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_HARDWARE,
		.size		= sizeof(attr),
		.config		= config | (u64)t->drv.pmu.type << PERF_PMU_TYPE_SHIFT,
		.sample_period	= period,
		.pinned		= pinned,
	};
	struct perf_event *ev;

	KUNIT_ASSERT_LT(t->test, t->nr_events, MAX_EVENTS);
	ev = perf_event_create_kernel_counter(&attr, t->cpu, NULL,
					      period ? record_sample : NULL, t);
	KUNIT_ASSERT_FALSE_MSG(t->test, IS_ERR(ev), "open: %ld", PTR_ERR(ev));
	t->events[t->nr_events++] = ev;
	return ev;
}

/* @n events happened, in the kernel, with IRQs off as in an NMI */
static void happen(struct drv_test *t, const struct x86_pmu_model_event *mev,
		   u64 n)
{
	local_irq_disable();
	x86_pmu_model_count(t->m, mev, false, n);
	local_irq_enable();
}

static u64 value(struct perf_event *ev)
{
	u64 enabled, running;

	return perf_event_read_value(ev, &enabled, &running);
}

static u64 model_msr(struct drv_test *t, u32 msr)
{
	u64 val = 0;

	KUNIT_EXPECT_EQ(t->test, x86_hw_rdmsr(x86_pmu_model_hw(t->m), msr, &val), 0);
	return val;
}

static struct x86_pmu_model_event branches(const struct drv_test *t)
{
	return (struct x86_pmu_model_event){
		.select = t->desc.vendor == X86_CORE_INTEL ? 0x00c4 : 0x00c2,
		.fixed = -1,
	};
}

static u8 width_of(const struct drv_test *t, struct perf_event *ev)
{
	return ev->hw.idx >= X86_CORE_IDX_FIXED ? t->desc.fixed_width :
						  t->desc.gp_width;
}

/* an event opened through the core counts exactly what happened */
static void perf_x86_driver_count(struct kunit *test)
{
	struct drv_test *t = fixture_test(test);
	struct x86_pmu_model_event br = branches(t);
	struct perf_event *cyc, *bra;

	cyc = open_hw(t, PERF_COUNT_HW_CPU_CYCLES, 0, false);
	bra = open_hw(t, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, true);
	KUNIT_EXPECT_GE(test, cyc->hw.idx, 0);
	KUNIT_EXPECT_GE(test, bra->hw.idx, 0);
	happen(t, &t->fx->cycles, 12345);
	happen(t, &br, 678);
	KUNIT_EXPECT_EQ(test, value(cyc), 12345);
	KUNIT_EXPECT_EQ(test, value(bra), 678);
	/* disabled, it no longer counts; enabled again, it does */
	perf_event_disable(bra);
	happen(t, &br, 1000);
	KUNIT_EXPECT_EQ(test, value(bra), 678);
	perf_event_enable(bra);
	happen(t, &br, 2);
	KUNIT_EXPECT_EQ(test, value(bra), 680);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
}

/*
 * More branch events than general-purpose counters: as many as there are
 * counters count at any time (the others wait for rotation).
 */
static void perf_x86_driver_overcommit(struct kunit *test)
{
	struct drv_test *t = fixture_test(test);
	struct x86_pmu_model_event br = branches(t);
	unsigned int i, n = t->desc.num_gp + 2;
	u64 total = 0, c;

	for (i = 0; i < n; i++)
		open_hw(t, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, false);
	happen(t, &br, 100);
	for (i = 0; i < n; i++) {
		c = value(t->events[i]);
		KUNIT_EXPECT_TRUE_MSG(test, c == 0 || c == 100, "count %llu", c);
		total += c;
	}
	KUNIT_EXPECT_EQ(test, total, 100ULL * t->desc.num_gp);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
}

/* one sample a period, through the PMI, the counter armed again */
static void perf_x86_driver_sample(struct kunit *test)
{
	struct drv_test *t = fixture_test(test);
	struct x86_pmu_model_event br = branches(t);
	struct perf_event *ev;
	unsigned int i;
	u64 mask;

	ev = open_hw(t, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 1000, false);
	KUNIT_ASSERT_GE(test, ev->hw.idx, 0);
	mask = GENMASK_ULL(width_of(t, ev) - 1, 0);
	KUNIT_EXPECT_EQ(test, model_msr(t, ev->hw.event_base), -1000ULL & mask);
	for (i = 0; i < 7; i++)
		happen(t, &br, 500);
	KUNIT_EXPECT_EQ(test, t->samples, 3);
	KUNIT_EXPECT_EQ(test, t->last_period, 1000);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_pmis(t->m), 3);
	KUNIT_EXPECT_EQ(test, model_msr(t, ev->hw.event_base), -500ULL & mask);
	KUNIT_EXPECT_EQ(test, value(ev), 3500);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
}

/*
 * The NMI watchdog's counter (kernel/watchdog_perf.c): pinned cycles with
 * the period hw_nmi_get_sample_period() gives, about watchdog_thresh
 * seconds of cycles, longer than a counter takes at once on most parts.
 * It gets a counter, is armed with the most the counter takes, and takes
 * interrupts without a sample until the whole period has passed.
 */
static void perf_x86_driver_watchdog(struct kunit *test)
{
	struct drv_test *t = fixture_test(test);
	u64 period = (u64)(cpu_khz ?: 1000000) * 1000 * 10;
	u64 first, mask, max, left;
	unsigned int pmis = 0;
	struct perf_event *ev;

	ev = open_hw(t, PERF_COUNT_HW_CPU_CYCLES, period, true);
	KUNIT_ASSERT_GE(test, ev->hw.idx, 0);
	KUNIT_EXPECT_EQ(test, ev->state, PERF_EVENT_STATE_ACTIVE);
	mask = GENMASK_ULL(width_of(t, ev) - 1, 0);
	max = t->drv.core.max_period;
	first = min(period, max);
	KUNIT_EXPECT_EQ(test, model_msr(t, ev->hw.event_base), -first & mask);
	/* each stretch the counter was armed with, and its interrupt */
	for (left = period; left; left -= first, pmis++) {
		KUNIT_EXPECT_EQ(test, t->samples, 0);
		first = min(left, max);
		happen(t, &t->fx->cycles, first);
	}
	KUNIT_EXPECT_EQ(test, x86_pmu_model_pmis(t->m), pmis);
	KUNIT_EXPECT_EQ(test, t->samples, 1);
	KUNIT_EXPECT_EQ(test, t->last_period, period);
	KUNIT_EXPECT_EQ(test, value(ev), period);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
}

/*
 * Frequency mode: the core chooses each next period (starting at 1) from
 * how fast the samples come (far more than the 10 a second asked, so the
 * period grows, soon past what a counter takes at once); the counter is
 * always armed with what is left of the period the core set, at most
 * max_period, and every period ends in one sample.
 */
static void perf_x86_driver_freq(struct kunit *test)
{
	struct drv_test *t = fixture_test(test);
	struct x86_pmu_model_event br = branches(t);
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_HARDWARE,
		.size		= sizeof(attr),
		.config		= PERF_COUNT_HW_BRANCH_INSTRUCTIONS |
				  (u64)t->drv.pmu.type << PERF_PMU_TYPE_SHIFT,
		.freq		= 1,
		.sample_freq	= 10,
	};
	bool intel = t->drv.core.desc.vendor == X86_CORE_INTEL;
	u64 mask, armed, left, total = 0;
	unsigned int i, whole = 0;
	struct perf_event *ev;

	ev = perf_event_create_kernel_counter(&attr, t->cpu, NULL,
					      record_sample, t);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	t->events[t->nr_events++] = ev;
	KUNIT_ASSERT_GE(test, ev->hw.idx, 0);
	mask = GENMASK_ULL(width_of(t, ev) - 1, 0);
	/*
	 * Intel's start half way to one event a nanosecond: looked at before
	 * the first wait, as a tick inside it may already adjust the period.
	 */
	if (intel) {
		local_irq_disable();
		armed = -model_msr(t, ev->hw.event_base) & mask;
		local_irq_enable();
		KUNIT_EXPECT_EQ(test, armed, NSEC_PER_SEC / 2 / 10);
	}
	for (i = 0; i < 20; i++) {
		/*
		 * Some time between overflows, for the core's rate: more than
		 * a tick, which is all perf_clock() resolves once the TSC is
		 * found unstable (under -icount with an emulated PMU).
		 */
		usleep_range(5000, 6000);
		/* no tick may re-arm the counter between the look and the count */
		local_irq_disable();
		left = local64_read(&ev->hw.period_left);
		armed = -model_msr(t, ev->hw.event_base) & mask;
		if (armed)
			x86_pmu_model_count(t->m, &br, false, armed);
		local_irq_enable();
		KUNIT_EXPECT_EQ(test, armed,
				min_t(u64, left, t->drv.core.max_period));
		KUNIT_ASSERT_GT(test, armed, 0);
		/* a stretch that ends the period ends in a sample */
		if (armed == left)
			whole++;
		total += armed;
	}
	KUNIT_EXPECT_EQ(test, t->samples, whole);
	/*
	 * How many of the 20 stretches end a period depends on the time
	 * between them: each period ends some 9 times longer than the last
	 * until it outgrows max_period, so the first few always end one.
	 * From 1 (AMD) that is 4 or more; from 5e7 (Intel) 2 or more.
	 */
	KUNIT_EXPECT_GE(test, whole, intel ? 2 : 4);
	KUNIT_EXPECT_GT(test, ev->hw.sample_period, 1);
	KUNIT_EXPECT_EQ(test, value(ev), total);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
}

/*
 * Suspend to RAM: the counters are folded in, the part loses every MSR,
 * and resume writes them back: counts and the sampling period go on.
 */
static void perf_x86_driver_suspend(struct kunit *test)
{
	struct drv_test *t = fixture_test(test);
	struct x86_pmu_model_event br = branches(t);
	struct x86_core_cpu *cpu = &this_cpu_ptr(t->drv.state)->counters;
	struct perf_event *cyc, *smp;

	cyc = open_hw(t, PERF_COUNT_HW_CPU_CYCLES, 0, true);
	smp = open_hw(t, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 1000, false);
	happen(t, &t->fx->cycles, 300);
	happen(t, &br, 600);
	local_irq_disable();
	x86_core_cpu_save(cpu);
	x86_pmu_model_power_cycle(t->m);
	x86_core_cpu_restore(cpu);
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, x86_pmu_model_lvtpc(t->m), APIC_DM_NMI);
	happen(t, &t->fx->cycles, 45);
	happen(t, &br, 399);
	KUNIT_EXPECT_EQ(test, t->samples, 0);
	happen(t, &br, 1);
	KUNIT_EXPECT_EQ(test, t->samples, 1);
	KUNIT_EXPECT_EQ(test, value(cyc), 345);
	KUNIT_EXPECT_EQ(test, value(smp), 1000);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
}

/* the user page: rdpmc's counter number plus one, and the width */
static void perf_x86_driver_rdpmc(struct kunit *test)
{
	struct drv_test *t = fixture_test(test);
	struct perf_event_mmap_page *up;
	struct perf_event *ev;
	unsigned int i;

	up = kunit_kzalloc(test, sizeof(*up), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, up);
	for (i = 0; i < 2; i++) {
		ev = open_hw(t, i ? PERF_COUNT_HW_CPU_CYCLES :
				    PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, true);
		KUNIT_ASSERT_GE(test, ev->hw.idx, 0);
		if (ev->hw.idx >= X86_CORE_IDX_FIXED)
			KUNIT_EXPECT_EQ(test, t->drv.pmu.event_idx(ev),
					(1 << 30 | (ev->hw.idx - X86_CORE_IDX_FIXED)) + 1);
		else
			KUNIT_EXPECT_EQ(test, t->drv.pmu.event_idx(ev),
					ev->hw.idx + 1);
		x86_core_user_update_userpage(ev, up);
		KUNIT_EXPECT_TRUE(test, up->cap_user_rdpmc);
		KUNIT_EXPECT_EQ(test, up->pmc_width, width_of(t, ev));
	}
	/* off its counter: index 0 */
	perf_event_disable(ev);
	KUNIT_EXPECT_EQ(test, t->drv.pmu.event_idx(ev), 0);
}

/* this CPU's SVM on or off, as KVM's amd_pmu_{en,dis}able_virt() set it */
static void set_svm(struct drv_test *t, bool on)
{
	local_irq_disable();
	x86_core_set_hg_bits(&this_cpu_ptr(t->drv.state)->counters, on);
	local_irq_enable();
}

/* the HostOnly and enable bits of @ev's PERF_CTL */
static u64 host_only_en(struct drv_test *t, struct perf_event *ev)
{
	return model_msr(t, ev->hw.config_base) &
	       (AMD64_EVENTSEL_HOSTONLY | ARCH_PERFMON_EVENTSEL_ENABLE);
}

/*
 * AMD: HostOnly reaches PERF_CTL only while the CPU has SVM on, and a
 * running counter follows SVM going off and on again at once.
 */
static void perf_x86_driver_svm_off(struct kunit *test)
{
	struct drv_test *t = drv_test_new(test, &x86_pmu_fixture_amd_zen4);
	struct perf_event_attr attr = {
		.type		= t->drv.pmu.type,
		.size		= sizeof(attr),
		.config		= 0x76,
		.exclude_guest	= 1,
	};
	struct perf_event *ev;

	ev = perf_event_create_kernel_counter(&attr, t->cpu, NULL, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	t->events[t->nr_events++] = ev;
	KUNIT_EXPECT_EQ(test, host_only_en(t, ev),
			AMD64_EVENTSEL_HOSTONLY | ARCH_PERFMON_EVENTSEL_ENABLE);
	set_svm(t, false);
	KUNIT_EXPECT_EQ(test, host_only_en(t, ev), ARCH_PERFMON_EVENTSEL_ENABLE);
	happen(t, &t->fx->cycles, 9);
	KUNIT_EXPECT_EQ(test, value(ev), 9);
	set_svm(t, true);
	KUNIT_EXPECT_EQ(test, host_only_en(t, ev),
			AMD64_EVENTSEL_HOSTONLY | ARCH_PERFMON_EVENTSEL_ENABLE);
}

/* attribute @name of sysfs group @group, or NULL where it is hidden */
static struct device_attribute *sysfs_attr(struct drv_test *t,
					   const char *group, const char *name)
{
	const struct attribute_group *const *g;
	struct attribute *const *a;

	for (g = x86_core_attr_groups; *g; g++) {
		if (strcmp((*g)->name ?: "", group))
			continue;
		for (a = (*g)->attrs; *a; a++) {
			if (strcmp((*a)->name, name))
				continue;
			if ((*g)->is_visible &&
			    !(*g)->is_visible(&t->drv.pmu.dev->kobj, *a, 0))
				return NULL;
			return container_of(*a, struct device_attribute, attr);
		}
	}
	return NULL;
}

/* what @name of sysfs group @group shows, or NULL where it is hidden */
static char *sysfs_value(struct drv_test *t, const char *group,
			 const char *name)
{
	struct device_attribute *da = sysfs_attr(t, group, name);
	char *page;

	if (!da)
		return NULL;
	page = kunit_kzalloc(t->test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(t->test, page);
	KUNIT_ASSERT_GT(t->test, da->show(t->drv.pmu.dev, da, page), 0);
	return page;
}

/* one sysfs file of one part, as the perf tool parses it */
struct sysfs_case {
	const struct x86_pmu_model_fixture *fx;
	const char *group;
	const char *name;
	const char *want;		/* "(hidden)": not shown */
};

#define SKL(g, n, w)	{ &x86_pmu_fixture_intel_skl, g, n, w }
#define ZEN4(g, n, w)	{ &x86_pmu_fixture_amd_zen4, g, n, w }
#define SPR(g, n, w)	{ &x86_pmu_fixture_intel_spr, g, n, w }
#define CORE2(g, n, w)	{ &x86_pmu_fixture_intel_core2, g, n, w }

static const struct sysfs_case sysfs_cases[] = {
	SKL("format", "event", "config:0-7\n"),
	SKL("format", "umask", "config:8-15\n"),
	SKL("format", "cmask", "config:24-31\n"),
	SKL("format", "pc", "config:19\n"),
	SKL("events", "cpu-cycles", "event=0x3c\n"),
	SKL("events", "instructions", "event=0xc0\n"),
	SKL("events", "ref-cycles", "event=0x00,umask=0x03\n"),
	SKL("events", "cache-misses", "event=0x2e,umask=0x41\n"),
	SKL("events", "stalled-cycles-frontend", "(hidden)"),
	SKL("caps", "max_precise", "0\n"),
	SKL("caps", "pmu_name", "skylake\n"),
	SKL("format", "offcore_rsp", "config1:0-63\n"),
	/* stock's: no newline after these (sysfs.c, bare_event_show) */
	SKL("events", "topdown-total-slots", "event=0x3c,umask=0x0"),
	SKL("events", "topdown-total-slots.scale", "4"),
	SKL("events", "topdown-recovery-bubbles",
	    "event=0xd,umask=0x1,cmask=1"),
	SKL("events", "topdown-fetch-bubbles", "event=0x9c,umask=0x1\n"),
	SKL("events", "mem-loads", "(hidden)"),
	SKL("events", "slots", "(hidden)"),
	SKL("events", "mem-loads-aux", "(hidden)"),
	SKL("", "rdpmc", "1\n"),
	SKL("", "freeze_on_smi", "1\n"),
	ZEN4("format", "event", "config:0-7,32-35\n"),
	ZEN4("format", "pc", "(hidden)"),
	ZEN4("format", "any", "(hidden)"),
	ZEN4("events", "cpu-cycles", "event=0x76\n"),
	ZEN4("events", "ref-cycles", "event=0x120,umask=0x01\n"),
	ZEN4("caps", "pmu_name", "(hidden)"),
	ZEN4("", "freeze_on_smi", "(hidden)"),
	ZEN4("events", "stalled-cycles-frontend", "event=0xa9\n"),
	ZEN4("format", "offcore_rsp", "(hidden)"),
	/* a model whose 0x013c counts at the TSC rate: ref-cycles */
	SPR("events", "ref-cycles", "event=0x3c,umask=0x01\n"),
	SPR("caps", "pmu_name", "sapphire_rapids\n"),
	SPR("format", "any", "(hidden)"),
	SPR("events", "slots", "event=0x00,umask=0x4\n"),
	SPR("events", "topdown-mem-bound", "event=0x00,umask=0x87\n"),
	SPR("events", "topdown-total-slots", "(hidden)"),
	SPR("events", "mem-loads-aux", "event=0x03,umask=0x82\n"),
	CORE2("caps", "pmu_name", "generic_arch_v2+\n"),
	CORE2("format", "offcore_rsp", "(hidden)"),
};

/* format/, events/, caps/ and rdpmc of an Intel and an AMD part */
static void perf_x86_driver_sysfs(struct kunit *test)
{
	const struct x86_pmu_model_fixture *fx = NULL;
	struct drv_test *t = NULL;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sysfs_cases); i++) {
		const struct sysfs_case *c = &sysfs_cases[i];

		/* one registered instance at a time */
		if (c->fx != fx) {
			if (t)
				kunit_release_action(test, drv_test_end, t);
			t = drv_test_new(test, c->fx);
			fx = c->fx;
		}
		KUNIT_EXPECT_STREQ_MSG(test,
				       sysfs_value(t, c->group, c->name) ?: "(hidden)",
				       c->want, "%s: %s/%s", fx->name, c->group,
				       c->name);
	}
}

/* a write of @buf to freeze_on_smi: what the store returns */
static ssize_t freeze_store(struct drv_test *t, const char *buf)
{
	struct device_attribute *da = sysfs_attr(t, "", "freeze_on_smi");

	KUNIT_ASSERT_NOT_NULL(t->test, da);
	return da->store(t->drv.pmu.dev, da, buf, strlen(buf));
}

/*
 * Intel: IA32_DEBUGCTL.FREEZE_WHILE_SMM is set as the CPU comes up, the
 * sysfs file takes 0 and 1 (in any base) and nothing else, the bit follows
 * at once without touching the register's other bits, and it comes back
 * after suspend.
 */
static void perf_x86_driver_freeze_on_smi(struct kunit *test)
{
	struct drv_test *t = drv_test_new(test, &x86_pmu_fixture_intel_skl);
	struct x86_core_cpu *cpu = &this_cpu_ptr(t->drv.state)->counters;
	const struct x86_hw *hw = x86_pmu_model_hw(t->m);
	static const char *const bad[] = { "2", "-1", " 1", "1x", "0x10" };
	unsigned int i;

	KUNIT_EXPECT_EQ(test, x86_pmu_model_debugctl(t->m),
			DEBUGCTLMSR_FREEZE_IN_SMM);
	/* ptrace's block stepping owns BTF */
	KUNIT_ASSERT_EQ(test, x86_hw_wrmsr(hw, MSR_IA32_DEBUGCTLMSR,
					   DEBUGCTLMSR_FREEZE_IN_SMM |
					   DEBUGCTLMSR_BTF), 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, freeze_store(t, bad[i]), -EINVAL,
				    "\"%s\"", bad[i]);
	KUNIT_EXPECT_EQ(test, freeze_store(t, "0x0\n"), 4);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_debugctl(t->m), DEBUGCTLMSR_BTF);
	KUNIT_EXPECT_STREQ(test, sysfs_value(t, "", "freeze_on_smi"), "0\n");
	KUNIT_EXPECT_EQ(test, freeze_store(t, "01"), 2);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_debugctl(t->m),
			DEBUGCTLMSR_FREEZE_IN_SMM | DEBUGCTLMSR_BTF);
	local_irq_disable();
	x86_core_cpu_save(cpu);
	x86_pmu_model_power_cycle(t->m);
	x86_core_cpu_restore(cpu);
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, x86_pmu_model_debugctl(t->m),
			DEBUGCTLMSR_FREEZE_IN_SMM);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
}

/*
 * What KVM is told of the host's LBRs (virt.c): the model-specific LBRs
 * of the driver this kernel booted with, with call-stack mode, or none
 * (AMD, or an Intel part without them).
 */
static void perf_x86_driver_kvm_lbr(struct kunit *test)
{
	struct x86_core_driver *native = x86_core_native();
	struct x86_pmu_lbr lbr;

	memset(&lbr, 0xff, sizeof(lbr));
	x86_perf_get_lbr(&lbr);
	if (!native || native->core.desc.vendor != X86_CORE_INTEL ||
	    !native->core.desc.lbr_nr) {
		KUNIT_EXPECT_EQ(test, lbr.nr, 0);
		KUNIT_EXPECT_EQ(test, lbr.from, 0);
		KUNIT_EXPECT_FALSE(test, lbr.has_callstack);
		return;
	}
	KUNIT_EXPECT_EQ(test, lbr.nr, native->core.desc.lbr_nr);
	KUNIT_EXPECT_EQ(test, lbr.from, MSR_LBR_NHM_FROM);
	KUNIT_EXPECT_EQ(test, lbr.to, MSR_LBR_NHM_TO);
	KUNIT_EXPECT_EQ(test, lbr.info, MSR_LBR_INFO_0);
	KUNIT_EXPECT_TRUE(test, lbr.has_callstack);
}

#ifdef CONFIG_CPU_SUP_INTEL
static void guest_pebs_overflow(struct perf_event *event,
				struct perf_sample_data *data,
				struct pt_regs *regs)
{
}

/*
 * On a part whose guests may have PEBS (the emulated Ice Lake-SP and
 * Sapphire Rapids), KVM is told so, and its event for a guest's PEBS
 * counter (precise, excluding the host, its own overflow handler, on the
 * vCPU's task: this one) comes back from perf_guest_get_msrs() as the
 * guest's PEBS_ENABLE, with the guest's DS area and data configuration;
 * the host's PEBS is not turned on for it.
 */
static void perf_x86_driver_kvm_pebs(struct kunit *test)
{
	struct x86_core_driver *native = x86_core_native();
	struct perf_event_attr attr = {
		.type		= PERF_TYPE_HARDWARE,
		.size		= sizeof(attr),
		.config		= PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
		.sample_period	= 1000000,
		.pinned		= 1,
		.exclude_idle	= 1,
		.exclude_host	= 1,
		.precise_ip	= 1,
	};
	struct perf_guest_switch_msr msrs[X86_GUEST_MSRS];
	struct x86_pmu_capability cap;
	struct perf_event *ev;
	struct kvm_pmu *kvm;
	int nr = 0, idx = -1;
	u64 host_pebs = 0;

	perf_get_x86_pmu_capability(&cap);
	if (!native || !native->core.desc.pebs_ept) {
		KUNIT_EXPECT_FALSE(test, cap.pebs_ept);
		kunit_skip(test, "no PEBS for guests here");
	}
	KUNIT_EXPECT_TRUE(test, cap.pebs_ept);
	kvm = kunit_kzalloc(test, sizeof(*kvm), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kvm);
	kvm->pebs_enable = GENMASK_ULL(native->core.desc.num_gp - 1, 0);
	kvm->ds_area = 0xfffffe0000002000ULL;
	kvm->pebs_data_cfg = 0;
	ev = perf_event_create_kernel_counter(&attr, -1, current,
					      guest_pebs_overflow, kvm);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ev), "open: %ld", PTR_ERR(ev));
	KUNIT_EXPECT_TRUE(test, x86_core_is_guest_pebs(ev));
	local_irq_disable();
	if (ev->state == PERF_EVENT_STATE_ACTIVE) {
		idx = ev->hw.idx;
		memcpy(msrs, perf_guest_get_msrs(&nr, kvm), sizeof(msrs));
		host_pebs = this_cpu_ptr(native->state)->counters.pebs.enabled;
	}
	local_irq_enable();
	perf_event_release_kernel(ev);
	KUNIT_ASSERT_GE(test, idx, 0);
	KUNIT_ASSERT_EQ(test, nr, 4);
	KUNIT_EXPECT_EQ(test, host_pebs & BIT_ULL(idx), 0);
	KUNIT_EXPECT_EQ(test, msrs[0].host & BIT_ULL(idx), 0);
	KUNIT_EXPECT_EQ(test, msrs[0].guest & BIT_ULL(idx), BIT_ULL(idx));
	KUNIT_EXPECT_EQ(test, msrs[1].msr, MSR_IA32_PEBS_ENABLE);
	KUNIT_EXPECT_EQ(test, msrs[1].guest, BIT_ULL(idx));
	KUNIT_EXPECT_EQ(test, msrs[2].msr, MSR_IA32_DS_AREA);
	KUNIT_EXPECT_EQ(test, msrs[2].guest, kvm->ds_area);
	KUNIT_EXPECT_NE(test, msrs[2].host, 0);
	KUNIT_EXPECT_EQ(test, msrs[3].msr, MSR_PEBS_DATA_CFG);
	KUNIT_EXPECT_EQ(test, msrs[3].guest, 0);
}
#endif

static struct kunit_case perf_x86_driver_cases[] = {
	KUNIT_CASE_PARAM(perf_x86_driver_count, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_driver_overcommit, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_driver_sample, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_driver_watchdog, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_driver_freq, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_driver_suspend, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_driver_rdpmc, x86_pmu_fixture_gen_params),
	KUNIT_CASE(perf_x86_driver_svm_off),
	KUNIT_CASE(perf_x86_driver_sysfs),
	KUNIT_CASE(perf_x86_driver_freeze_on_smi),
	KUNIT_CASE(perf_x86_driver_kvm_lbr),
#ifdef CONFIG_CPU_SUP_INTEL
	KUNIT_CASE(perf_x86_driver_kvm_pebs),
#endif
	{}
};

static struct kunit_suite perf_x86_driver_suite = {
	.name = "perf_x86_driver",
	.test_cases = perf_x86_driver_cases,
};

kunit_test_suite(perf_x86_driver_suite);
