// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "perf_x86_core": the event logic and counting of the x86
 * core PMU driver, run against the model of the PMU (pmu_model.c) with
 * the fixtures of real parts.  Generic, cache and raw events map to the
 * documented encodings or to the ABI's errnos; groups are assigned to fixed
 * and general-purpose counters, all or nothing, and a group that can
 * never fit is refused at open; counts are exact across the PMU going off
 * and on and the event leaving and coming back to the counters; the
 * exclusion bits land in the control MSRs; a period ends with the counter
 * wrapping at its width, one sample, the counter re-armed at minus the
 * period, the status acknowledged and LVTPC unmasked.
 *
 * The struct perf_events here are made by the tests, never seen by the
 * core; each test owns its model and events, so there is no locking.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kvm_host.h>
#include <linux/perf_event.h>
#include <asm/apicdef.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>

#include "../cpu_pmu.h"
#include "pmu_model.h"

#define HW	PERF_TYPE_HARDWARE
#define CACHE	PERF_TYPE_HW_CACHE
#define RAW	PERF_TYPE_RAW

#define CACHE_CFG(c, o, r) \
	(PERF_COUNT_HW_CACHE_##c | PERF_COUNT_HW_CACHE_OP_##o << 8 | \
	 PERF_COUNT_HW_CACHE_RESULT_##r << 16)

#define FIXED(i)	(X86_CORE_IDX_FIXED + (i))

/* one event's mapping on one part: the control value, or an errno */
struct map_case {
	const struct x86_pmu_model_fixture *fx;
	const char *what;
	u32 type;
	u64 config;
	int err;
	u64 evsel;
};

#define MAP(f, w, t, c, e)	{ &x86_pmu_fixture_##f, #f ": " w, t, c, 0, e }
#define BAD(f, w, t, c, e)	{ &x86_pmu_fixture_##f, #f ": " w, t, c, e, 0 }

static const struct map_case map_cases[] = {
	MAP(intel_skl, "cycles", HW, PERF_COUNT_HW_CPU_CYCLES, 0x003c),
	MAP(intel_skl, "instructions", HW, PERF_COUNT_HW_INSTRUCTIONS, 0x00c0),
	MAP(intel_skl, "ref-cycles", HW, PERF_COUNT_HW_REF_CPU_CYCLES, 0x0300),
	MAP(intel_skl, "cache-references", HW, PERF_COUNT_HW_CACHE_REFERENCES, 0x4f2e),
	MAP(intel_skl, "cache-misses", HW, PERF_COUNT_HW_CACHE_MISSES, 0x412e),
	MAP(intel_skl, "branches", HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0x00c4),
	MAP(intel_skl, "branch-misses", HW, PERF_COUNT_HW_BRANCH_MISSES, 0x00c5),
	MAP(intel_skl, "bus-cycles", HW, PERF_COUNT_HW_BUS_CYCLES, 0x013c),
	BAD(intel_skl, "stalled-frontend", HW, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,
	    -ENOENT),
	BAD(intel_skl, "stalled-backend", HW, PERF_COUNT_HW_STALLED_CYCLES_BACKEND,
	    -ENOENT),
	BAD(intel_skl, "hw out of range", HW, PERF_COUNT_HW_MAX, -EINVAL),
	MAP(intel_spr, "ref-cycles", HW, PERF_COUNT_HW_REF_CPU_CYCLES, 0x0300),
	MAP(intel_core2, "cache-misses", HW, PERF_COUNT_HW_CACHE_MISSES, 0x412e),
	/* EBX bit 2 set, no fixed counter 2 */
	BAD(intel_v5_holes, "ref-cycles", HW, PERF_COUNT_HW_REF_CPU_CYCLES, -ENOENT),
	BAD(intel_v5_holes, "bus-cycles", HW, PERF_COUNT_HW_BUS_CYCLES, -ENOENT),
	MAP(intel_v5_holes, "cycles", HW, PERF_COUNT_HW_CPU_CYCLES, 0x003c),
	MAP(amd_zen2, "cycles", HW, PERF_COUNT_HW_CPU_CYCLES, 0x0076),
	MAP(amd_zen2, "instructions", HW, PERF_COUNT_HW_INSTRUCTIONS, 0x00c0),
	MAP(amd_zen2, "cache-references", HW, PERF_COUNT_HW_CACHE_REFERENCES, 0xff60),
	MAP(amd_zen2, "cache-misses", HW, PERF_COUNT_HW_CACHE_MISSES, 0x0964),
	MAP(amd_zen4, "branches", HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0x00c2),
	MAP(amd_zen4, "branch-misses", HW, PERF_COUNT_HW_BRANCH_MISSES, 0x00c3),
	MAP(amd_zen4, "stalled-frontend", HW, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,
	    0x00a9),
	MAP(amd_zen4, "ref-cycles", HW, PERF_COUNT_HW_REF_CPU_CYCLES,
	    0x100000120ULL),
	BAD(amd_zen2, "ref-cycles", HW, PERF_COUNT_HW_REF_CPU_CYCLES, -ENOENT),
	BAD(amd_zen2, "stalled-backend", HW, PERF_COUNT_HW_STALLED_CYCLES_BACKEND,
	    -ENOENT),
	BAD(amd_zen4, "bus-cycles", HW, PERF_COUNT_HW_BUS_CYCLES, -ENOENT),
	MAP(amd_k8, "cache-references", HW, PERF_COUNT_HW_CACHE_REFERENCES, 0x077d),
	MAP(amd_k8, "stalled-frontend", HW, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,
	    0x00d0),
	BAD(qemu_tcg, "cycles without a PMU", HW, PERF_COUNT_HW_CPU_CYCLES, -ENOENT),
	MAP(intel_skl, "LLC-loads", CACHE, CACHE_CFG(LL, READ, ACCESS), 0x4f2e),
	MAP(intel_skl, "LLC-load-misses", CACHE, CACHE_CFG(LL, READ, MISS), 0x412e),
	MAP(intel_skl, "branch-loads", CACHE, CACHE_CFG(BPU, READ, ACCESS), 0x00c4),
	MAP(intel_skl, "branch-load-misses", CACHE, CACHE_CFG(BPU, READ, MISS), 0x00c5),
	BAD(intel_skl, "L1-dcache-loads", CACHE, CACHE_CFG(L1D, READ, ACCESS), -ENOENT),
	BAD(intel_skl, "LLC-stores", CACHE, CACHE_CFG(LL, WRITE, ACCESS), -ENOENT),
	BAD(intel_skl, "bad cache", CACHE, PERF_COUNT_HW_CACHE_MAX, -EINVAL),
	BAD(intel_skl, "bad op", CACHE, PERF_COUNT_HW_CACHE_OP_MAX << 8, -EINVAL),
	BAD(intel_skl, "bad result", CACHE, PERF_COUNT_HW_CACHE_RESULT_MAX << 16,
	    -EINVAL),
	MAP(amd_zen2, "L1-dcache-loads", CACHE, CACHE_CFG(L1D, READ, ACCESS), 0x0040),
	MAP(amd_zen2, "L1-dcache-load-misses", CACHE, CACHE_CFG(L1D, READ, MISS), 0xc860),
	MAP(amd_zen2, "L1-dcache-prefetches", CACHE, CACHE_CFG(L1D, PREFETCH, ACCESS),
	    0xff5a),
	BAD(amd_zen2, "L1-dcache-prefetch-misses", CACHE,
	    CACHE_CFG(L1D, PREFETCH, MISS), -ENOENT),
	MAP(amd_zen4, "L1-icache-load-misses", CACHE, CACHE_CFG(L1I, READ, MISS), 0x0081),
	MAP(amd_zen4, "dTLB-loads", CACHE, CACHE_CFG(DTLB, READ, ACCESS), 0xff45),
	MAP(amd_zen4, "dTLB-load-misses", CACHE, CACHE_CFG(DTLB, READ, MISS), 0xf045),
	MAP(amd_zen2, "iTLB-loads", CACHE, CACHE_CFG(ITLB, READ, ACCESS), 0x0084),
	MAP(amd_zen2, "iTLB-load-misses", CACHE, CACHE_CFG(ITLB, READ, MISS), 0xff85),
	BAD(amd_zen2, "LLC-loads", CACHE, CACHE_CFG(LL, READ, ACCESS), -ENOENT),
	BAD(amd_zen2, "node-loads", CACHE, CACHE_CFG(NODE, READ, ACCESS), -ENOENT),
	BAD(amd_zen2, "L1-icache-stores", CACHE, CACHE_CFG(L1I, WRITE, ACCESS), -EINVAL),
	BAD(amd_zen2, "iTLB-prefetches", CACHE, CACHE_CFG(ITLB, PREFETCH, ACCESS),
	    -EINVAL),
	BAD(amd_zen2, "dTLB-stores", CACHE, CACHE_CFG(DTLB, WRITE, ACCESS), -ENOENT),
	MAP(amd_k8, "L1-dcache-load-misses", CACHE, CACHE_CFG(L1D, READ, MISS), 0x0141),
	MAP(amd_k8, "L1-dcache-prefetches", CACHE, CACHE_CFG(L1D, PREFETCH, ACCESS),
	    0x0267),
	MAP(amd_k8, "L1-dcache-prefetch-misses", CACHE,
	    CACHE_CFG(L1D, PREFETCH, MISS), 0x0167),
	BAD(amd_k8, "L1-dcache-stores", CACHE, CACHE_CFG(L1D, WRITE, ACCESS), -ENOENT),
	MAP(amd_k8, "L1-icache-prefetches", CACHE, CACHE_CFG(L1I, PREFETCH, ACCESS),
	    0x014b),
	BAD(amd_k8, "L1-icache-stores", CACHE, CACHE_CFG(L1I, WRITE, ACCESS), -EINVAL),
	MAP(amd_k8, "LLC-loads", CACHE, CACHE_CFG(LL, READ, ACCESS), 0x037d),
	MAP(amd_k8, "LLC-load-misses", CACHE, CACHE_CFG(LL, READ, MISS), 0x037e),
	MAP(amd_k8, "LLC-stores", CACHE, CACHE_CFG(LL, WRITE, ACCESS), 0x017f),
	BAD(amd_k8, "LLC-prefetches", CACHE, CACHE_CFG(LL, PREFETCH, ACCESS), -ENOENT),
	MAP(amd_k8, "dTLB-loads", CACHE, CACHE_CFG(DTLB, READ, ACCESS), 0x0040),
	MAP(amd_k8, "dTLB-load-misses", CACHE, CACHE_CFG(DTLB, READ, MISS), 0x0746),
	MAP(amd_k8, "iTLB-loads", CACHE, CACHE_CFG(ITLB, READ, ACCESS), 0x0080),
	MAP(amd_k8, "iTLB-load-misses", CACHE, CACHE_CFG(ITLB, READ, MISS), 0x0385),
	MAP(amd_k8, "node-loads", CACHE, CACHE_CFG(NODE, READ, ACCESS), 0xb8e9),
	MAP(amd_k8, "node-load-misses", CACHE, CACHE_CFG(NODE, READ, MISS), 0x98e9),
	BAD(amd_k8, "node-stores", CACHE, CACHE_CFG(NODE, WRITE, ACCESS), -EINVAL),
	BAD(amd_k8, "branch-stores", CACHE, CACHE_CFG(BPU, WRITE, ACCESS), -EINVAL),
	MAP(intel_skl, "raw", RAW, 0x1234, 0x1234),
	MAP(intel_skl, "raw edge inv cmask", RAW, 0xffd41234, 0xff841234),
	MAP(intel_skl, "raw pin control, dropped", RAW, BIT_ULL(19) | 0x3c, 0x3c),
	MAP(intel_skl, "raw any (v4)", RAW, 0x20003c, 0x20003c),
	MAP(intel_spr, "raw any deprecated, passed on", RAW, 0x20003c, 0x20003c),
	BAD(intel_core2, "raw any (v2)", RAW, 0x20003c, -EINVAL),
	MAP(intel_skl, "raw bit 32, dropped", RAW, BIT_ULL(32) | 0x3c, 0x3c),
	MAP(intel_skl, "raw bit 63, dropped", RAW, BIT_ULL(63) | 0x3c, 0x3c),
	MAP(intel_skl, "raw fixed 2 pseudo", RAW, 0x0300, 0x0300),
	MAP(intel_skl, "raw fixed 3 pseudo, no counter: general", RAW, 0x0400,
	    0x0400),
	MAP(intel_spr, "raw fixed 3 pseudo", RAW, 0x0400, 0x0400),
	BAD(intel_v5_holes, "raw fixed 2 pseudo, no counter", RAW, 0x0300, -EINVAL),
	BAD(intel_skl, "raw fixed pseudo with cmask", RAW, 0x01000300, -EINVAL),
	MAP(amd_zen2, "raw event 0x1c0", RAW, 0x1000000c0ULL, 0x1000000c0ULL),
	MAP(amd_zen2, "raw bit 19, dropped", RAW, BIT_ULL(19) | 0x76, 0x76),
	MAP(amd_zen2, "raw bit 21, dropped", RAW, BIT_ULL(21) | 0x76, 0x76),
	MAP(amd_zen4, "raw host-only, dropped", RAW, AMD64_EVENTSEL_HOSTONLY | 0x76,
	    0x76),
	BAD(qemu_tcg, "raw without a PMU", RAW, 0x76, -EINVAL),
};

static void map_case_desc(const struct map_case *c, char *desc)
{
	strscpy(desc, c->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(map, map_cases, map_case_desc);

static void perf_x86_core_map(struct kunit *test)
{
	const struct map_case *c = test->param_value;
	const struct x86_core_desc *desc = &c->fx->pmu;
	u64 evsel = ~0ULL;
	int ret;

	if (c->type == HW)
		ret = x86_core_map_hw_event(desc, c->config, &evsel);
	else if (c->type == CACHE)
		ret = x86_core_map_cache_event(desc, c->config, &evsel, NULL);
	else
		ret = x86_core_check_raw(desc, c->config, &evsel);
	KUNIT_EXPECT_EQ(test, ret, c->err);
	if (!c->err)
		KUNIT_EXPECT_EQ(test, evsel, c->evsel);
}

/*
 * AMD's generic events by family and model: Zen 1 has its own stall
 * events, family 17h and 18h models of no known Zen generation keep the
 * pre-Zen set, Zen 4 and everything from family 1Ah on add reference
 * cycles.  The expected values are what Linux programs on an emulated
 * AMD PMU of that family and model (bench/qemu, BENCH_PMU_TRACE).
 */
static void perf_x86_core_amd_generations(struct kunit *test)
{
	static const struct {
		u8 family, model;
		u64 refs, frontend, backend, ref_cycles;
	} cases[] = {
		{ 0x10, 0x02, 0x077d, 0x00d0, 0x00d1, 0 },
		{ 0x15, 0x02, 0x077d, 0x00d0, 0x00d1, 0 },
		{ 0x17, 0x01, 0xff60, 0x0287, 0x0187, 0 },
		{ 0x17, 0x50, 0xff60, 0x0287, 0x0187, 0 },
		{ 0x17, 0x31, 0xff60, 0x00a9, 0, 0 },
		{ 0x17, 0x7f, 0xff60, 0x00a9, 0, 0 },
		{ 0x17, 0x80, 0x077d, 0x00d0, 0x00d1, 0 },
		{ 0x17, 0x92, 0x077d, 0x00d0, 0x00d1, 0 },
		{ 0x18, 0x00, 0x077d, 0x00d0, 0x00d1, 0 },
		{ 0x19, 0x01, 0xff60, 0x00a9, 0, 0 },
		{ 0x19, 0x11, 0xff60, 0x00a9, 0, 0x100000120ULL },
		{ 0x19, 0xaf, 0xff60, 0x00a9, 0, 0x100000120ULL },
		{ 0x19, 0xb0, 0xff60, 0x00a9, 0, 0 },
		{ 0x1a, 0x30, 0xff60, 0x00a9, 0, 0x100000120ULL },
	};
	static const u64 configs[] = {
		PERF_COUNT_HW_CACHE_REFERENCES,
		PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,
		PERF_COUNT_HW_STALLED_CYCLES_BACKEND,
		PERF_COUNT_HW_REF_CPU_CYCLES,
	};
	struct x86_core_desc desc = { .vendor = X86_CORE_AMD };
	unsigned int i, j;
	u64 want[4], evsel;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		desc.family = cases[i].family;
		desc.model = cases[i].model;
		want[0] = cases[i].refs;
		want[1] = cases[i].frontend;
		want[2] = cases[i].backend;
		want[3] = cases[i].ref_cycles;
		for (j = 0; j < ARRAY_SIZE(configs); j++) {
			evsel = 0;
			ret = x86_core_map_hw_event(&desc, configs[j], &evsel);
			KUNIT_EXPECT_EQ_MSG(test, ret, want[j] ? 0 : -ENOENT,
					    "family %#x model %#x config %llu",
					    desc.family, desc.model, configs[j]);
			KUNIT_EXPECT_EQ_MSG(test, evsel, want[j],
					    "family %#x model %#x config %llu",
					    desc.family, desc.model, configs[j]);
		}
	}
}

/* a model of a part, a PMU for it, one CPU's counters */
struct core_test {
	struct kunit *test;
	const struct x86_pmu_model_fixture *fx;
	struct x86_pmu_model *m;
	struct x86_core_desc desc;
	struct x86_core_pmu core;
	struct x86_core_cpu cpu;
	struct pmu pmu;
	unsigned int samples;
	u64 last_period;
	int throttle;
	int handled;
};

static int record_overflow(struct perf_event *event, u64 period, void *arg)
{
	struct core_test *t = arg;

	t->samples++;
	t->last_period = period;
	return t->throttle;
}

static void model_pmi(struct x86_pmu_model *m, void *arg)
{
	struct core_test *t = arg;

	t->handled += x86_core_handle_irq(&t->cpu);
}

static struct core_test *core_test_new(struct kunit *test,
				       const struct x86_pmu_model_fixture *fx)
{
	struct core_test *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->test = test;
	t->fx = fx;
	t->m = x86_pmu_model_new(test, fx);
	KUNIT_ASSERT_NOT_NULL(test, t->m);
	KUNIT_ASSERT_EQ(test, x86_core_detect(x86_pmu_model_hw(t->m), &t->desc), 0);
	x86_core_pmu_init(&t->core, x86_pmu_model_hw(t->m), &t->desc);
	t->pmu.type = PERF_TYPE_RAW;
	t->pmu.task_ctx_nr = perf_hw_context;
	t->core.pmu = &t->pmu;
	t->core.overflow = record_overflow;
	t->core.overflow_arg = t;
	x86_core_cpu_init(&t->cpu, &t->core);
	x86_core_cpu_reset(&t->cpu);
	x86_pmu_model_set_pmi(t->m, model_pmi, t);
	return t;
}

/* the test's fixture, or a skip where it has no PMU */
static struct core_test *fixture_test(struct kunit *test)
{
	const struct x86_pmu_model_fixture *fx = x86_pmu_test_fixture(test);

	if (fx->pmu.vendor == X86_CORE_NONE)
		kunit_skip(test, "no PMU");
	return core_test_new(test, fx);
}

static struct perf_event *new_event(struct core_test *t, u32 type, u64 config,
				    u64 period)
{
	struct perf_event *ev = kunit_kzalloc(t->test, sizeof(*ev), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(t->test, ev);
	ev->attr.size = sizeof(ev->attr);
	ev->attr.type = type;
	ev->attr.config = config;
	ev->attr.sample_period = period;
	ev->hw.sample_period = period;
	ev->pmu = &t->pmu;
	ev->group_leader = ev;
	INIT_LIST_HEAD(&ev->sibling_list);
	ev->state = PERF_EVENT_STATE_INACTIVE;
	return ev;
}

static void join(struct perf_event *leader, struct perf_event *ev)
{
	ev->group_leader = leader;
	list_add_tail(&ev->sibling_list, &leader->sibling_list);
}

/* open a generic event and put it on the counters, started */
static struct perf_event *run_event(struct core_test *t, u64 config, u64 period,
				    bool excl_user, bool excl_kernel)
{
	struct perf_event *ev = new_event(t, HW, config, period);

	ev->attr.exclude_user = excl_user;
	ev->attr.exclude_kernel = excl_kernel;
	KUNIT_ASSERT_EQ(t->test, x86_core_event_init(&t->core, ev), 0);
	KUNIT_ASSERT_EQ(t->test, x86_core_add_group(&t->cpu, &ev, 1), 0);
	x86_core_start(&t->cpu, ev);
	return ev;
}

static u64 count_of(struct core_test *t, struct perf_event *ev)
{
	x86_core_read(&t->cpu, ev);
	return local64_read(&ev->count);
}

static u64 model_msr(struct core_test *t, u32 msr)
{
	u64 val = 0;

	KUNIT_EXPECT_EQ(t->test, x86_hw_rdmsr(x86_pmu_model_hw(t->m), msr, &val), 0);
	return val;
}

static bool intel(const struct core_test *t)
{
	return t->desc.vendor == X86_CORE_INTEL;
}

/* what the model is told happened */
static struct x86_pmu_model_event model_instructions(const struct core_test *t)
{
	return (struct x86_pmu_model_event){ .select = 0x00c0,
					     .fixed = intel(t) ? 0 : -1 };
}

static struct x86_pmu_model_event model_branches(const struct core_test *t)
{
	return (struct x86_pmu_model_event){ .select = intel(t) ? 0x00c4 : 0x00c2,
					     .fixed = -1 };
}

static u64 width_mask(u8 width)
{
	return width >= 64 ? ~0ULL : BIT_ULL(width) - 1;
}

/* cycles in frequency mode, 4000 a second, as the core hands it over */
static struct perf_event *freq_event(struct core_test *t)
{
	struct perf_event *ev = new_event(t, HW, PERF_COUNT_HW_CPU_CYCLES, 1);

	ev->attr.freq = 1;
	ev->attr.sample_freq = 4000;
	local64_set(&ev->hw.period_left, 1);
	KUNIT_EXPECT_EQ(t->test, x86_core_event_init(&t->core, ev), 0);
	return ev;
}

/* event_init: errnos and the control value it leaves */
static void perf_x86_core_event_init(struct kunit *test)
{
	struct core_test *skl = core_test_new(test, &x86_pmu_fixture_intel_skl);
	struct core_test *zen = core_test_new(test, &x86_pmu_fixture_amd_zen4);
	struct core_test *zen2 = core_test_new(test, &x86_pmu_fixture_amd_zen2);
	struct perf_event *ev;

	ev = new_event(skl, HW, PERF_COUNT_HW_CPU_CYCLES, 0);
	ev->attr.precise_ip = 1;
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&skl->core, ev), -EOPNOTSUPP);

	/* the skid level before the config: even a config that is refused */
	ev = new_event(skl, HW, PERF_COUNT_HW_MAX + 1, 0);
	ev->attr.precise_ip = 2;
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&skl->core, ev), -EOPNOTSUPP);
	ev = new_event(zen, PERF_TYPE_HW_CACHE, 0x20307, 0);
	ev->attr.precise_ip = 3;
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&zen->core, ev), -EOPNOTSUPP);

	/*
	 * a branch stack: on AMD without LbrExtV2 before the config, on
	 * Intel after it
	 */
	ev = new_event(zen2, HW, PERF_COUNT_HW_MAX + 1, 0);
	ev->attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	ev->attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&zen2->core, ev), -EOPNOTSUPP);
	ev = new_event(skl, HW, PERF_COUNT_HW_MAX + 1, 0);
	ev->attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	ev->attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&skl->core, ev), -EINVAL);

	ev = new_event(skl, HW, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 0);
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&skl->core, ev), -ENOENT);

	ev = new_event(skl, PERF_TYPE_SOFTWARE, 0, 0);
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&skl->core, ev), -ENOENT);

	/* the extended type in the config's top half is the core's business */
	ev = new_event(skl, HW, (u64)PERF_TYPE_RAW << PERF_PMU_TYPE_SHIFT |
		       PERF_COUNT_HW_INSTRUCTIONS, 0);
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&skl->core, ev), 0);
	KUNIT_EXPECT_EQ(test, ev->hw.config, 0x00c0 | ARCH_PERFMON_EVENTSEL_USR |
			ARCH_PERFMON_EVENTSEL_OS);
	KUNIT_EXPECT_EQ(test, ev->hw.idx, -1);
	KUNIT_EXPECT_EQ(test, ev->hw.sample_period, skl->core.max_period);

	/* frequency mode on Intel starts at half the period of 1 event/ns */
	ev = freq_event(skl);
	KUNIT_EXPECT_EQ(test, ev->hw.sample_period, 125000);
	KUNIT_EXPECT_EQ(test, ev->hw.last_period, 125000);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->hw.period_left), 125000);
	/* on AMD at 1, as the core set it */
	ev = freq_event(zen);
	KUNIT_EXPECT_EQ(test, ev->hw.sample_period, 1);

	ev = new_event(skl, RAW, 0x412e | ARCH_PERFMON_EVENTSEL_ENABLE |
		       ARCH_PERFMON_EVENTSEL_USR, 0);
	ev->attr.exclude_user = 1;
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&skl->core, ev), 0);
	KUNIT_EXPECT_EQ(test, ev->hw.config, 0x412e | ARCH_PERFMON_EVENTSEL_OS);

	ev = new_event(zen, HW, PERF_COUNT_HW_CPU_CYCLES, 0);
	ev->attr.exclude_guest = 1;
	ev->attr.exclude_kernel = 1;
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&zen->core, ev), 0);
	KUNIT_EXPECT_EQ(test, ev->hw.config, 0x0076 | ARCH_PERFMON_EVENTSEL_USR |
			AMD64_EVENTSEL_HOSTONLY);

	ev = new_event(zen, HW, PERF_COUNT_HW_CPU_CYCLES, 0);
	ev->attr.exclude_host = 1;
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&zen->core, ev), 0);
	KUNIT_EXPECT_EQ(test, ev->hw.config & (AMD64_EVENTSEL_HOSTONLY |
					       AMD64_EVENTSEL_GUESTONLY),
			AMD64_EVENTSEL_GUESTONLY);
	ev->attr.exclude_guest = 1;
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&zen->core, ev), -EINVAL);
}

/* which counters can count what */
static void perf_x86_core_constraint(struct kunit *test)
{
	const struct x86_core_desc *skl = &x86_pmu_fixture_intel_skl.pmu;
	const struct x86_core_desc *spr = &x86_pmu_fixture_intel_spr.pmu;
	const struct x86_core_desc *holes = &x86_pmu_fixture_intel_v5_holes.pmu;
	const struct x86_core_desc *zen2 = &x86_pmu_fixture_amd_zen2.pmu;

	KUNIT_EXPECT_EQ(test, x86_core_constraint(skl, 0x003c), 0xfULL | BIT_ULL(FIXED(1)));
	KUNIT_EXPECT_EQ(test, x86_core_constraint(skl, 0x00c0), 0xfULL | BIT_ULL(FIXED(0)));
	KUNIT_EXPECT_EQ(test, x86_core_constraint(skl, 0x0300), BIT_ULL(FIXED(2)));
	KUNIT_EXPECT_EQ(test, x86_core_constraint(skl, 0x013c), 0xfULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(skl, 0x01a4), 0xfULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(spr, 0x01a4), 0xffULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(spr, 0x0400), BIT_ULL(FIXED(3)));
	/* no fixed counter 3: a general event (as stock's Skylake has it) */
	KUNIT_EXPECT_EQ(test, x86_core_constraint(skl, 0x0400), 0xfULL);
	/* a counter mask or an edge is the general-purpose counters' only */
	KUNIT_EXPECT_EQ(test, x86_core_constraint(skl, 0x0100003c), 0xfULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(skl, 0x0004003c), 0xfULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(holes, 0x0300), 0);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(holes, 0x0400), BIT_ULL(FIXED(3)));
	KUNIT_EXPECT_EQ(test, x86_core_constraint(zen2, 0x0076), 0x3fULL);
}

/*
 * A group of generic events opened member by member: the last member is
 * refused with @err, or the whole group is assigned @assign.
 */
struct group_case {
	const struct x86_pmu_model_fixture *fx;
	const char *what;
	unsigned int n;
	u64 config[12];
	int err;
	int assign[12];
};

#define C	PERF_COUNT_HW_CPU_CYCLES
#define I	PERF_COUNT_HW_INSTRUCTIONS
#define R	PERF_COUNT_HW_REF_CPU_CYCLES
#define B	PERF_COUNT_HW_BRANCH_INSTRUCTIONS
#define F0	FIXED(0)
#define F1	FIXED(1)
#define F2	FIXED(2)

static const struct group_case group_cases[] = {
	{ &x86_pmu_fixture_intel_skl, "skl: fixed counters first", 3,
	  { C, I, R }, 0, { F1, F0, F2 } },
	{ &x86_pmu_fixture_intel_skl, "skl: 4 gp + 3 fixed", 7,
	  { B, C, B, I, B, R, B }, 0, { 0, F1, 1, F0, 2, F2, 3 } },
	{ &x86_pmu_fixture_intel_skl, "skl: 5 cycles", 5,
	  { C, C, C, C, C }, 0, { F1, 0, 1, 2, 3 } },
	{ &x86_pmu_fixture_intel_skl, "skl: gp-only first", 5,
	  { C, C, C, C, B }, 0, { F1, 1, 2, 3, 0 } },
	{ &x86_pmu_fixture_intel_skl, "skl: 6 cycles never fit", 6,
	  { C, C, C, C, C, C }, -EINVAL },
	{ &x86_pmu_fixture_intel_skl, "skl: 5 branches never fit", 5,
	  { B, B, B, B, B }, -EINVAL },
	{ &x86_pmu_fixture_intel_skl, "skl: two ref-cycles never fit", 2,
	  { R, R }, -EINVAL },
	{ &x86_pmu_fixture_intel_spr, "spr: 8 gp + 3 fixed", 11,
	  { B, B, B, B, B, B, B, B, C, I, R }, 0,
	  { 0, 1, 2, 3, 4, 5, 6, 7, F1, F0, F2 } },
	{ &x86_pmu_fixture_intel_spr, "spr: 9 branches never fit", 9,
	  { B, B, B, B, B, B, B, B, B }, -EINVAL },
	{ &x86_pmu_fixture_intel_core2, "core2: 2 gp + 3 fixed", 5,
	  { B, C, I, R, B }, 0, { 0, F1, F0, F2, 1 } },
	{ &x86_pmu_fixture_intel_core2, "core2: 3 branches never fit", 3,
	  { B, B, B }, -EINVAL },
	{ &x86_pmu_fixture_amd_zen2, "zen2: 6 counters", 6,
	  { C, I, B, C, I, B }, 0, { 0, 1, 2, 3, 4, 5 } },
	{ &x86_pmu_fixture_amd_zen2, "zen2: 7 never fit", 7,
	  { C, I, B, C, I, B, C }, -EINVAL },
	{ &x86_pmu_fixture_amd_zen4, "zen4: 7 never fit", 7,
	  { C, C, C, C, C, C, C }, -EINVAL },
	{ &x86_pmu_fixture_amd_k8, "k8: 4 counters", 4,
	  { C, I, B, C }, 0, { 0, 1, 2, 3 } },
	{ &x86_pmu_fixture_amd_k8, "k8: 5 never fit", 5,
	  { C, I, B, C, I }, -EINVAL },
};

#undef C
#undef I
#undef R
#undef B

static void group_case_desc(const struct group_case *c, char *desc)
{
	strscpy(desc, c->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(group, group_cases, group_case_desc);

static void perf_x86_core_group(struct kunit *test)
{
	const struct group_case *c = test->param_value;
	struct core_test *t = core_test_new(test, c->fx);
	struct perf_event *ev[ARRAY_SIZE(c->config)];
	int second[ARRAY_SIZE(c->config)];
	unsigned int i;

	for (i = 0; i < c->n; i++) {
		/* the core attaches a member to its group after event_init */
		ev[i] = new_event(t, HW, c->config[i], 0);
		if (i)
			ev[i]->group_leader = ev[0];
		KUNIT_EXPECT_EQ_MSG(test, x86_core_event_init(&t->core, ev[i]),
				    i + 1 == c->n ? c->err : 0, "member %u", i);
		if (i)
			join(ev[0], ev[i]);
	}
	if (c->err)
		return;
	KUNIT_ASSERT_EQ(test, x86_core_add_group(&t->cpu, ev, c->n), 0);
	for (i = 0; i < c->n; i++)
		KUNIT_EXPECT_EQ_MSG(test, ev[i]->hw.idx, c->assign[i], "member %u", i);
	/* the same input gives the same assignment */
	for (i = 0; i < c->n; i++) {
		second[i] = ev[i]->hw.idx;
		x86_core_del(&t->cpu, ev[i]);
	}
	KUNIT_EXPECT_EQ(test, t->cpu.used, 0);
	KUNIT_ASSERT_EQ(test, x86_core_add_group(&t->cpu, ev, c->n), 0);
	for (i = 0; i < c->n; i++)
		KUNIT_EXPECT_EQ(test, ev[i]->hw.idx, second[i]);
}

/* software members take no counter; another hardware PMU's cannot join */
static void perf_x86_core_group_mixed(struct kunit *test)
{
	struct core_test *t = core_test_new(test, &x86_pmu_fixture_amd_k8);
	struct pmu sw = { .task_ctx_nr = perf_sw_context };
	struct pmu other = { .task_ctx_nr = perf_hw_context };
	struct perf_event *leader, *ev;
	unsigned int i;

	leader = new_event(t, PERF_TYPE_SOFTWARE, 0, 0);
	leader->pmu = &sw;
	for (i = 0; i < 4; i++) {
		ev = new_event(t, HW, PERF_COUNT_HW_CPU_CYCLES, 0);
		ev->group_leader = leader;
		KUNIT_EXPECT_EQ(test, x86_core_event_init(&t->core, ev), 0);
		join(leader, ev);
	}
	ev = new_event(t, HW, PERF_COUNT_HW_CPU_CYCLES, 0);
	ev->group_leader = leader;
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&t->core, ev), -EINVAL);
	/* a member already on the sibling list is not counted twice */
	join(leader, ev);
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&t->core, ev), -EINVAL);
	list_del(&ev->sibling_list);
	ev = list_first_entry(&leader->sibling_list, struct perf_event, sibling_list);
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&t->core, ev), 0);

	leader = new_event(t, PERF_TYPE_RAW, 0, 0);
	leader->pmu = &other;
	ev = new_event(t, HW, PERF_COUNT_HW_CPU_CYCLES, 0);
	ev->group_leader = leader;
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&t->core, ev), -EINVAL);
}

/* a group that does not fit on the free counters now changes nothing */
static void perf_x86_core_all_or_nothing(struct kunit *test)
{
	struct core_test *t = core_test_new(test, &x86_pmu_fixture_intel_skl);
	struct perf_event *busy[3], *grp[3];
	unsigned int i;
	u64 used;

	for (i = 0; i < 3; i++)
		busy[i] = run_event(t, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, false, false);
	used = t->cpu.used;
	KUNIT_EXPECT_EQ(test, used, 0x7ULL);
	for (i = 0; i < 3; i++) {
		grp[i] = new_event(t, HW, i == 1 ? PERF_COUNT_HW_CPU_CYCLES :
				   PERF_COUNT_HW_BRANCH_MISSES, 0);
		if (i)
			grp[i]->group_leader = grp[0];
		KUNIT_EXPECT_EQ(test, x86_core_event_init(&t->core, grp[i]), 0);
		if (i)
			join(grp[0], grp[i]);
	}
	/* two branch-misses for one free general-purpose counter */
	KUNIT_EXPECT_EQ(test, x86_core_add_group(&t->cpu, grp, 3), -EAGAIN);
	KUNIT_EXPECT_EQ(test, t->cpu.used, used);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, grp[i]->hw.idx, -1);
	/* one leaves: the group goes on, cycles on the fixed counter */
	x86_core_del(&t->cpu, busy[0]);
	KUNIT_EXPECT_EQ(test, x86_core_add_group(&t->cpu, grp, 3), 0);
	KUNIT_EXPECT_EQ(test, grp[0]->hw.idx, 0);
	KUNIT_EXPECT_EQ(test, grp[1]->hw.idx, FIXED(1));
	KUNIT_EXPECT_EQ(test, grp[2]->hw.idx, 3);
}

/* exact counts across the PMU off and on, and sched-out/in */
static void perf_x86_core_count(struct kunit *test)
{
	struct core_test *t = fixture_test(test);
	struct x86_pmu_model_event cyc = t->fx->cycles;
	struct x86_pmu_model_event br = model_branches(t);
	struct perf_event *ev, *other;

	ev = run_event(t, PERF_COUNT_HW_CPU_CYCLES, 0, false, false);
	other = run_event(t, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, false, false);
	/* nothing counts before the PMU is on */
	x86_pmu_model_count(t->m, &cyc, true, 11);
	KUNIT_EXPECT_EQ(test, count_of(t, ev), 0);
	x86_core_enable(&t->cpu);
	x86_pmu_model_count(t->m, &cyc, true, 1000);
	x86_pmu_model_count(t->m, &cyc, false, 500);
	x86_pmu_model_count(t->m, &br, true, 7);
	KUNIT_EXPECT_EQ(test, count_of(t, ev), 1500);
	KUNIT_EXPECT_EQ(test, count_of(t, other), 7);

	x86_core_disable(&t->cpu);
	x86_pmu_model_count(t->m, &cyc, true, 300);
	KUNIT_EXPECT_EQ(test, count_of(t, ev), 1500);
	x86_core_enable(&t->cpu);
	x86_pmu_model_count(t->m, &cyc, false, 200);
	KUNIT_EXPECT_EQ(test, count_of(t, ev), 1700);

	/* sched out: the counter is given up, what happens meanwhile is lost */
	x86_core_disable(&t->cpu);
	x86_core_del(&t->cpu, ev);
	x86_core_enable(&t->cpu);
	x86_pmu_model_count(t->m, &cyc, true, 50);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), 1700);
	/* sched in, wherever it lands */
	x86_core_disable(&t->cpu);
	KUNIT_ASSERT_EQ(test, x86_core_add_group(&t->cpu, &ev, 1), 0);
	x86_core_start(&t->cpu, ev);
	x86_core_enable(&t->cpu);
	x86_pmu_model_count(t->m, &cyc, true, 70);
	KUNIT_EXPECT_EQ(test, count_of(t, ev), 1770);
	KUNIT_EXPECT_EQ(test, count_of(t, other), 7);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_pmis(t->m), 0);
}

/*
 * On and off through the global control, or through each EN bit.  With
 * a global control, Intel's holds every counter while the PMU is on (each
 * counter's own control starts and stops it, as stock leaves the MSR);
 * AMD's the started counters.
 */
static void perf_x86_core_enable_msrs(struct kunit *test)
{
	struct core_test *t = fixture_test(test);
	struct perf_event *ev;
	bool global = intel(t) ? t->desc.version >= 2 : t->desc.perfmon_v2;
	u32 gctl = intel(t) ? MSR_CORE_PERF_GLOBAL_CTRL : MSR_AMD64_PERF_CNTR_GLOBAL_CTL;
	u64 on = 1;

	if (intel(t)) {
		on = GENMASK_ULL(t->desc.num_gp - 1, 0) |
		     (u64)t->desc.fixed_mask << X86_CORE_IDX_FIXED;
		if (t->desc.metrics)
			on |= BIT_ULL(GLOBAL_CTRL_EN_PERF_METRICS);
	}
	ev = run_event(t, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, false, false);
	KUNIT_ASSERT_EQ(test, ev->hw.idx, 0);
	x86_core_enable(&t->cpu);
	KUNIT_EXPECT_TRUE(test, model_msr(t, x86_core_evtsel_msr(&t->desc, 0)) &
			  ARCH_PERFMON_EVENTSEL_ENABLE);
	if (global)
		KUNIT_EXPECT_EQ(test, model_msr(t, gctl), on);
	x86_core_disable(&t->cpu);
	if (global) {
		KUNIT_EXPECT_EQ(test, model_msr(t, gctl), 0);
		KUNIT_EXPECT_TRUE(test, model_msr(t, x86_core_evtsel_msr(&t->desc, 0)) &
				  ARCH_PERFMON_EVENTSEL_ENABLE);
	} else {
		KUNIT_EXPECT_FALSE(test, model_msr(t, x86_core_evtsel_msr(&t->desc, 0)) &
				   ARCH_PERFMON_EVENTSEL_ENABLE);
	}
	x86_core_enable(&t->cpu);
	x86_core_stop(&t->cpu, ev, true);
	KUNIT_EXPECT_FALSE(test, model_msr(t, x86_core_evtsel_msr(&t->desc, 0)) &
			   ARCH_PERFMON_EVENTSEL_ENABLE);
	if (global)
		KUNIT_EXPECT_EQ(test, model_msr(t, gctl), intel(t) ? on : 0);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
}

/* exclude_user / exclude_kernel as USR and OS, in the MSR the event is on */
static void perf_x86_core_exclude(struct kunit *test)
{
	struct core_test *t = fixture_test(test);
	struct x86_pmu_model_event cyc = t->fx->cycles;
	struct x86_pmu_model_event br = model_branches(t);
	struct x86_pmu_model_event ins = model_instructions(t);
	struct perf_event *user_cyc, *kern_br, *none_ins;
	u64 sel, field;
	int idx;

	user_cyc = run_event(t, PERF_COUNT_HW_CPU_CYCLES, 0, false, true);
	kern_br = run_event(t, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, true, false);
	none_ins = run_event(t, PERF_COUNT_HW_INSTRUCTIONS, 0, true, true);
	x86_core_enable(&t->cpu);

	idx = user_cyc->hw.idx;
	if (idx >= X86_CORE_IDX_FIXED) {
		field = model_msr(t, MSR_CORE_PERF_FIXED_CTR_CTRL) >>
			((idx - X86_CORE_IDX_FIXED) * INTEL_FIXED_BITS_STRIDE);
		KUNIT_EXPECT_EQ(test, field & 0xf,
				INTEL_FIXED_0_USER | INTEL_FIXED_0_ENABLE_PMI);
	} else {
		sel = model_msr(t, user_cyc->hw.config_base);
		KUNIT_EXPECT_EQ(test, sel & (ARCH_PERFMON_EVENTSEL_USR |
					     ARCH_PERFMON_EVENTSEL_OS),
				ARCH_PERFMON_EVENTSEL_USR);
	}
	sel = model_msr(t, kern_br->hw.config_base);
	KUNIT_EXPECT_EQ(test, sel & ~(u64)ARCH_PERFMON_EVENTSEL_EVENT &
			~(u64)ARCH_PERFMON_EVENTSEL_UMASK,
			ARCH_PERFMON_EVENTSEL_OS | ARCH_PERFMON_EVENTSEL_INT |
			ARCH_PERFMON_EVENTSEL_ENABLE);

	x86_pmu_model_count(t->m, &cyc, true, 100);
	x86_pmu_model_count(t->m, &cyc, false, 1000);
	x86_pmu_model_count(t->m, &br, true, 5);
	x86_pmu_model_count(t->m, &br, false, 9);
	x86_pmu_model_count(t->m, &ins, true, 3);
	x86_pmu_model_count(t->m, &ins, false, 4);
	KUNIT_EXPECT_EQ(test, count_of(t, user_cyc), 100);
	KUNIT_EXPECT_EQ(test, count_of(t, kern_br), 9);
	KUNIT_EXPECT_EQ(test, count_of(t, none_ins), 0);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
}

/* AMD: an event that excludes guests counts in the host only */
static void perf_x86_core_exclude_guest(struct kunit *test)
{
	struct core_test *t = core_test_new(test, &x86_pmu_fixture_amd_zen4);
	struct perf_event *ev = new_event(t, HW, PERF_COUNT_HW_CPU_CYCLES, 0);

	ev->attr.exclude_guest = 1;
	KUNIT_ASSERT_EQ(test, x86_core_event_init(&t->core, ev), 0);
	KUNIT_ASSERT_EQ(test, x86_core_add_group(&t->cpu, &ev, 1), 0);
	x86_core_start(&t->cpu, ev);
	x86_core_enable(&t->cpu);
	KUNIT_EXPECT_EQ(test, model_msr(t, ev->hw.config_base),
			0x0076 | ARCH_PERFMON_EVENTSEL_USR | ARCH_PERFMON_EVENTSEL_OS |
			ARCH_PERFMON_EVENTSEL_INT | ARCH_PERFMON_EVENTSEL_ENABLE |
			AMD64_EVENTSEL_HOSTONLY);
	x86_pmu_model_count(t->m, &t->fx->cycles, true, 42);
	KUNIT_EXPECT_EQ(test, count_of(t, ev), 42);
}

/*
 * Intel: an event that excludes the host counts in guests only: its
 * counter is left out of the host's global control (as stock's is), and
 * comes back in when it leaves; the others count on.
 */
static void perf_x86_core_exclude_host(struct kunit *test)
{
	struct core_test *t = core_test_new(test, &x86_pmu_fixture_intel_spr);
	struct perf_event *guest = new_event(t, HW, PERF_COUNT_HW_CPU_CYCLES, 0);
	struct perf_event *host;
	u64 all;

	x86_core_enable(&t->cpu);
	all = model_msr(t, MSR_CORE_PERF_GLOBAL_CTRL);
	x86_core_disable(&t->cpu);
	guest->attr.exclude_host = 1;
	KUNIT_ASSERT_EQ(test, x86_core_event_init(&t->core, guest), 0);
	KUNIT_ASSERT_EQ(test, x86_core_add_group(&t->cpu, &guest, 1), 0);
	x86_core_start(&t->cpu, guest);
	host = run_event(t, PERF_COUNT_HW_CPU_CYCLES, 0, false, false);
	KUNIT_EXPECT_EQ(test, t->cpu.guest_only, BIT_ULL(guest->hw.idx));
	x86_core_enable(&t->cpu);
	KUNIT_EXPECT_EQ(test, model_msr(t, MSR_CORE_PERF_GLOBAL_CTRL),
			all & ~BIT_ULL(guest->hw.idx));
	x86_pmu_model_count(t->m, &t->fx->cycles, true, 42);
	x86_core_disable(&t->cpu);
	KUNIT_EXPECT_EQ(test, count_of(t, guest), 0);
	KUNIT_EXPECT_EQ(test, count_of(t, host), 42);
	x86_core_del(&t->cpu, guest);
	KUNIT_EXPECT_EQ(test, t->cpu.guest_only, 0);
	x86_core_enable(&t->cpu);
	KUNIT_EXPECT_EQ(test, model_msr(t, MSR_CORE_PERF_GLOBAL_CTRL), all);
	x86_core_disable(&t->cpu);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
}

/*
 * A sampling event: the counter is armed at minus the period, so it wraps
 * at its width (2^48 on most parts) as the period ends; one PMI, one
 * sample, the counter armed again at minus the period, the status
 * acknowledged, LVTPC unmasked.
 */
static void check_overflow(struct kunit *test, u64 config,
			   struct x86_pmu_model_event mev, bool want_fixed)
{
	struct core_test *t = fixture_test(test);
	const u64 period = 1000;
	struct perf_event *ev;
	bool global = intel(t) ? t->desc.version >= 2 : t->desc.perfmon_v2;
	u32 status = intel(t) ? MSR_CORE_PERF_GLOBAL_STATUS :
				MSR_AMD64_PERF_CNTR_GLOBAL_STATUS;
	u64 mask;
	u8 width;

	if (want_fixed && !(t->desc.fixed_mask & BIT(1)))
		kunit_skip(test, "no fixed cycles counter");
	ev = run_event(t, config, period, false, false);
	KUNIT_EXPECT_EQ(test, ev->hw.idx >= X86_CORE_IDX_FIXED, want_fixed);
	width = want_fixed ? t->desc.fixed_width : t->desc.gp_width;
	mask = width_mask(width);
	x86_core_enable(&t->cpu);
	KUNIT_EXPECT_EQ(test, model_msr(t, ev->hw.event_base), (BIT_ULL(width) - period) & mask);

	x86_pmu_model_count(t->m, &mev, true, period - 1);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_pmis(t->m), 0);
	KUNIT_EXPECT_EQ(test, model_msr(t, ev->hw.event_base), mask);
	x86_pmu_model_count(t->m, &mev, false, 1);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_pmis(t->m), 1);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_pmis_masked(t->m), 0);
	KUNIT_EXPECT_EQ(test, t->handled, 1);
	KUNIT_EXPECT_EQ(test, t->samples, 1);
	KUNIT_EXPECT_EQ(test, t->last_period, period);
	KUNIT_EXPECT_EQ(test, model_msr(t, ev->hw.event_base), (BIT_ULL(width) - period) & mask);
	if (global)
		KUNIT_EXPECT_EQ(test, model_msr(t, status), 0);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_lvtpc(t->m), APIC_DM_NMI);
	KUNIT_EXPECT_EQ(test, count_of(t, ev), period);

	/* and again: the next period ends after exactly as many events */
	x86_pmu_model_count(t->m, &mev, true, period);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_pmis(t->m), 2);
	KUNIT_EXPECT_EQ(test, t->samples, 2);
	KUNIT_EXPECT_EQ(test, count_of(t, ev), 2 * period);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
}

static void perf_x86_core_overflow_gp(struct kunit *test)
{
	struct core_test *t = fixture_test(test);

	check_overflow(test, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, model_branches(t), false);
}

static void perf_x86_core_overflow_fixed(struct kunit *test)
{
	const struct x86_pmu_model_fixture *fx = x86_pmu_test_fixture(test);

	if (fx->pmu.vendor != X86_CORE_INTEL)
		kunit_skip(test, "no fixed counters");
	check_overflow(test, PERF_COUNT_HW_CPU_CYCLES, fx->cycles, true);
}

/*
 * A counting event whose count passes the longest period the counter is
 * armed for: the wrap is folded in, nothing is lost, no sample.
 */
static void perf_x86_core_count_wrap(struct kunit *test)
{
	struct core_test *t = fixture_test(test);
	struct x86_pmu_model_event br = model_branches(t);
	struct perf_event *ev;
	u64 max = t->core.max_period;

	ev = run_event(t, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, false, false);
	x86_core_enable(&t->cpu);
	x86_pmu_model_count(t->m, &br, true, max + 10);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_pmis(t->m), 1);
	KUNIT_EXPECT_EQ(test, t->samples, 0);
	KUNIT_EXPECT_EQ(test, count_of(t, ev), max + 10);
	x86_pmu_model_count(t->m, &br, false, max);
	KUNIT_EXPECT_EQ(test, count_of(t, ev), 2 * max + 10);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
}

/*
 * The longest period: 2^31 - 1 through IA32_PMCx (Core 2), half the
 * counter's range with full-width writes (Skylake) and on AMD.  A longer
 * sample period is counted in pieces, one sample at its end.
 */
static void perf_x86_core_long_period(struct kunit *test)
{
	struct core_test *t = fixture_test(test);
	struct x86_pmu_model_event br = model_branches(t);
	u64 max = t->core.max_period;
	u64 period = 2 * max + 7;
	struct perf_event *ev;

	if (intel(t) && !t->desc.full_width_write)
		KUNIT_EXPECT_EQ(test, max, (u64)S32_MAX);
	else
		KUNIT_EXPECT_EQ(test, max, BIT_ULL(t->desc.gp_width - 1) - 1);
	ev = run_event(t, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, period, false, false);
	x86_core_enable(&t->cpu);
	x86_pmu_model_count(t->m, &br, true, max);
	x86_pmu_model_count(t->m, &br, true, max);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_pmis(t->m), 2);
	KUNIT_EXPECT_EQ(test, t->samples, 0);
	KUNIT_EXPECT_EQ(test, model_msr(t, ev->hw.event_base),
			(BIT_ULL(t->desc.gp_width) - 7));
	x86_pmu_model_count(t->m, &br, true, 7);
	KUNIT_EXPECT_EQ(test, t->samples, 1);
	KUNIT_EXPECT_EQ(test, t->last_period, period);
	KUNIT_EXPECT_EQ(test, count_of(t, ev), period);
}

/* the core asks for a throttled event to stop: its counter stops */
static void perf_x86_core_throttle(struct kunit *test)
{
	struct core_test *t = fixture_test(test);
	struct x86_pmu_model_event br = model_branches(t);
	struct perf_event *ev;

	t->throttle = 1;
	ev = run_event(t, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 100, false, false);
	x86_core_enable(&t->cpu);
	x86_pmu_model_count(t->m, &br, true, 100);
	KUNIT_EXPECT_EQ(test, t->samples, 1);
	KUNIT_EXPECT_TRUE(test, ev->hw.state & PERF_HES_STOPPED);
	KUNIT_EXPECT_FALSE(test, model_msr(t, ev->hw.config_base) &
			   ARCH_PERFMON_EVENTSEL_ENABLE);
	x86_pmu_model_count(t->m, &br, true, 100);
	KUNIT_EXPECT_EQ(test, t->samples, 1);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_pmis(t->m), 1);
	KUNIT_EXPECT_EQ(test, local64_read(&ev->count), 100);
}

/*
 * The Intel model layer: a model with a table is named by it, and its
 * counter rules narrow where events go (generated from the perfmon JSON
 * and from what stock's driver allows on the emulated models, make
 * encodings: the values below are what stock allowed there).
 */
static void perf_x86_core_model_tables(struct kunit *test)
{
	struct core_test *spr = core_test_new(test, &x86_pmu_fixture_intel_spr);
	struct core_test *skl = core_test_new(test, &x86_pmu_fixture_intel_skl);
	struct core_test *core2 = core_test_new(test, &x86_pmu_fixture_intel_core2);
	const struct x86_core_desc *d = &spr->desc;
	struct x86_core_desc icx = spr->desc;

	KUNIT_ASSERT_NOT_NULL(test, d->intel_model);
	KUNIT_EXPECT_STREQ(test, d->intel_model->pmu_name, "sapphire_rapids");
	KUNIT_EXPECT_TRUE(test, d->extra_regs);
	KUNIT_ASSERT_NOT_NULL(test, skl->desc.intel_model);
	KUNIT_EXPECT_STREQ(test, skl->desc.intel_model->pmu_name, "skylake");
	/* Skylake: INST_RETIRED.PREC_DIST on counter 1 only */
	KUNIT_EXPECT_EQ(test, x86_core_constraint(&skl->desc, 0x01c0), 0x2ULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(&skl->desc, 0x02c0), 0xfULL);
	KUNIT_EXPECT_NULL(test, core2->desc.intel_model);
	KUNIT_EXPECT_NULL(test, core2->desc.counter_rules);

	/* L2_RQSTS (0x24): counters 0-3, whatever the unit mask */
	KUNIT_EXPECT_EQ(test, x86_core_constraint(d, 0x2124), 0xfULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(d, 0x0924), 0xfULL);
	/*
	 * TOPDOWN.SLOTS_P on any general counter (fixed counter 3 is the
	 * slots pseudo-encoding's alone), BAD_SPEC_SLOTS on counter 0 only
	 */
	KUNIT_EXPECT_EQ(test, x86_core_constraint(d, 0x01a4), 0xffULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(d, 0x04a4), 0x1ULL);
	/*
	 * MEM_TRANS_RETIRED: load latency anywhere without PEBS (the list's
	 * 1-7 is for sampling), store sample on 0
	 */
	KUNIT_EXPECT_EQ(test, x86_core_constraint(d, 0x01cd), 0xffULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(d, 0x02cd), 0x1ULL);
	/* events no list names: 0x76 on 0-3, 0xce on counter 0 */
	KUNIT_EXPECT_EQ(test, x86_core_constraint(d, 0x0076), 0xfULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(d, 0x00ce), 0x1ULL);
	/* CYCLE_ACTIVITY: STALLS_TOTAL anywhere, CYCLES_L2_MISS on 0-3 */
	KUNIT_EXPECT_EQ(test, x86_core_constraint(d, 0x04a3), 0xffULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(d, 0x01a3), 0xfULL);
	/* a counter mask does not lift a rule */
	KUNIT_EXPECT_EQ(test, x86_core_constraint(d, 0x01002124), 0xfULL);
	/* reference cycles at the TSC rate: fixed counter 2 as well */
	KUNIT_EXPECT_EQ(test, x86_core_constraint(d, 0x013c),
			0xffULL | BIT_ULL(FIXED(2)));
	KUNIT_EXPECT_EQ(test, x86_core_constraint(&skl->desc, 0x013c), 0xfULL);

	/*
	 * Ice Lake-SP: no TOPDOWN rules, MEM_LOAD_RETIRED on 0-3, and so
	 * CYCLE_ACTIVITY but for the unit masks its list puts anywhere;
	 * INST_RETIRED.PREC_DIST on fixed counter 0 as well
	 */
	icx.model = 0x6a;
	x86_intel_model_detect(x86_pmu_model_hw(spr->m), &icx);
	KUNIT_EXPECT_STREQ(test, icx.intel_model->pmu_name, "icelake");
	KUNIT_EXPECT_EQ(test, x86_core_constraint(&icx, 0x04a4), 0xffULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(&icx, 0x01d1), 0xfULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(&icx, 0x00c4), 0xffULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(&icx, 0x02a3), 0xfULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(&icx, 0x04a3), 0xffULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(&icx, 0x01c0),
			0xffULL | BIT_ULL(FIXED(0)));
}

/* a raw event of @t's PMU with config1 */
static struct perf_event *raw_event(struct core_test *t, u64 config,
				    u64 config1)
{
	struct perf_event *ev = new_event(t, RAW, config, 0);

	ev->attr.config1 = config1;
	return ev;
}

/*
 * Restricted events never land on a counter their rules exclude: a group
 * of five L2_RQSTS events can never be counted at once (four counters
 * may count it), and a fifth one alone waits while four are placed.
 */
static void perf_x86_core_model_constrained(struct kunit *test)
{
	struct core_test *t = core_test_new(test, &x86_pmu_fixture_intel_spr);
	struct perf_event *ev[5], *branch;
	unsigned int i;

	for (i = 0; i < 5; i++) {
		ev[i] = raw_event(t, 0x2124, 0);
		if (i)
			ev[i]->group_leader = ev[0];
		KUNIT_EXPECT_EQ_MSG(test, x86_core_event_init(&t->core, ev[i]),
				    i == 4 ? -EINVAL : 0, "member %u", i);
		if (i < 4 && i)
			join(ev[0], ev[i]);
	}
	KUNIT_ASSERT_EQ(test, x86_core_add_group(&t->cpu, ev, 4), 0);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_LT(test, ev[i]->hw.idx, 4);
	ev[4]->group_leader = ev[4];
	KUNIT_ASSERT_EQ(test, x86_core_event_init(&t->core, ev[4]), 0);
	KUNIT_EXPECT_EQ(test, x86_core_add_group(&t->cpu, &ev[4], 1), -EAGAIN);
	/* an unrestricted event still finds counter 4 */
	branch = new_event(t, HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0);
	KUNIT_ASSERT_EQ(test, x86_core_event_init(&t->core, branch), 0);
	KUNIT_ASSERT_EQ(test, x86_core_add_group(&t->cpu, &branch, 1), 0);
	KUNIT_EXPECT_EQ(test, branch->hw.idx, 4);
}

/* a raw event of @t's PMU, opened, placed and started; NULL if it waits */
static struct perf_event *run_raw(struct core_test *t, u64 config)
{
	struct perf_event *ev = raw_event(t, config, 0);

	KUNIT_ASSERT_EQ(t->test, x86_core_event_init(&t->core, ev), 0);
	if (x86_core_add_group(&t->cpu, &ev, 1))
		return NULL;
	x86_core_start(&t->cpu, ev);
	return ev;
}

/*
 * AMD Zen's large-increment events (event select 0x003) each take an even
 * counter and the odd one after it, which runs the Merge event (PERF_CTL
 * 0xf004000ff, as stock's driver writes it on the emulated Zen parts,
 * make encodings) and holds 0xffff, the upper bits of the armed value:
 * three fit in six counters, a fourth in a group is -EINVAL, and events
 * already counting move to make room for a pair, their counts kept.
 * Earlier families have no pairs.
 */
static void perf_x86_core_amd_merge_pairs(struct kunit *test)
{
	const struct x86_core_desc *zen2 = &x86_pmu_fixture_amd_zen2.pmu;
	const struct x86_core_desc *k8 = &x86_pmu_fixture_amd_k8.pmu;
	struct core_test *t = core_test_new(test, &x86_pmu_fixture_amd_zen4);
	struct x86_pmu_model_event cyc = { .select = 0x76, .fixed = -1 };
	struct x86_pmu_model_event flops = { .select = 0x8203, .fixed = -1 };
	struct perf_event *ev[5], *c[3], *p[2];
	unsigned int i;

	KUNIT_EXPECT_EQ(test, x86_core_constraint(zen2, 0x0003), 0x15ULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(zen2, 0x8203), 0x15ULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(zen2, 0x100000003ULL), 0x3fULL);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(k8, 0x0003), 0xfULL);

	/* a group: three pairs, and the fourth never fits */
	for (i = 0; i < 4; i++) {
		ev[i] = raw_event(t, 0x8203, 0);
		if (i)
			ev[i]->group_leader = ev[0];
		KUNIT_EXPECT_EQ_MSG(test, x86_core_event_init(&t->core, ev[i]),
				    i == 3 ? -EINVAL : 0, "member %u", i);
		if (i && i < 3)
			join(ev[0], ev[i]);
	}
	KUNIT_ASSERT_EQ(test, x86_core_add_group(&t->cpu, ev, 3), 0);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, ev[i]->hw.idx, 2 * i);
		x86_core_start(&t->cpu, ev[i]);
	}
	KUNIT_EXPECT_EQ(test, model_msr(t, MSR_F15H_PERF_CTL + 2),
			0xf004000ffULL);
	KUNIT_EXPECT_EQ(test, model_msr(t, MSR_F15H_PERF_CTR + 2), 0xffffULL);
	x86_core_enable(&t->cpu);
	KUNIT_EXPECT_EQ(test, model_msr(t, MSR_AMD64_PERF_CNTR_GLOBAL_CTL),
			0x3fULL);
	x86_pmu_model_count(t->m, &flops, true, 64);
	x86_core_disable(&t->cpu);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, count_of(t, ev[i]), 64);
		x86_core_del(&t->cpu, ev[i]);
	}
	KUNIT_EXPECT_EQ(test, model_msr(t, MSR_F15H_PERF_CTL + 2), 0);
	KUNIT_EXPECT_EQ(test, t->cpu.used | t->cpu.merged, 0);

	/* cycles on 0, 1, 2; with 1 gone, a pair on 4, then one more */
	for (i = 0; i < 3; i++)
		c[i] = run_raw(t, 0x0076);
	x86_core_del(&t->cpu, c[1]);
	p[0] = run_raw(t, 0x0003);
	KUNIT_ASSERT_NOT_NULL(test, p[0]);
	KUNIT_EXPECT_EQ(test, p[0]->hw.idx, 4);
	x86_core_enable(&t->cpu);
	x86_pmu_model_count(t->m, &cyc, true, 100);
	x86_core_disable(&t->cpu);
	p[1] = run_raw(t, 0x0003);
	KUNIT_ASSERT_NOT_NULL(test, p[1]);
	/* counter 1 and 3 free, no pair: everything moved, pairs first */
	KUNIT_EXPECT_EQ(test, p[0]->hw.idx, 0);
	KUNIT_EXPECT_EQ(test, p[1]->hw.idx, 2);
	KUNIT_EXPECT_EQ(test, c[0]->hw.idx, 4);
	KUNIT_EXPECT_EQ(test, c[2]->hw.idx, 5);
	KUNIT_EXPECT_EQ(test, t->cpu.merged, BIT_ULL(1) | BIT_ULL(3));
	KUNIT_EXPECT_EQ(test, model_msr(t, MSR_F15H_PERF_CTL + 2), 0xf004000ffULL);
	KUNIT_EXPECT_EQ(test, model_msr(t, MSR_F15H_PERF_CTL + 6), 0xf004000ffULL);
	x86_core_enable(&t->cpu);
	x86_pmu_model_count(t->m, &cyc, true, 50);
	x86_core_disable(&t->cpu);
	KUNIT_EXPECT_EQ(test, count_of(t, c[0]), 150);
	KUNIT_EXPECT_EQ(test, count_of(t, c[2]), 150);
	/* a third pair would need a cycles event to leave */
	KUNIT_EXPECT_NULL(test, run_raw(t, 0x0003));
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
}

/*
 * Events already counting move to other counters to make room for ones
 * that may use only theirs (as stock places perf stat -d's branches on
 * counters 4 and 5 once the L1 events want 0-3), their counts kept.
 */
static void perf_x86_core_model_repack(struct kunit *test)
{
	struct core_test *t = core_test_new(test, &x86_pmu_fixture_intel_spr);
	struct x86_pmu_model_event br = model_branches(t);
	struct perf_event *branch[2], *l2[4], *extra;
	unsigned int i;

	for (i = 0; i < 2; i++)
		branch[i] = run_event(t, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0,
				      false, false);
	KUNIT_EXPECT_EQ(test, branch[0]->hw.idx, 0);
	KUNIT_EXPECT_EQ(test, branch[1]->hw.idx, 1);
	x86_core_enable(&t->cpu);
	x86_pmu_model_count(t->m, &br, true, 100);
	x86_core_disable(&t->cpu);
	for (i = 0; i < 4; i++) {
		l2[i] = raw_event(t, 0x2124, 0);
		KUNIT_ASSERT_EQ(test, x86_core_event_init(&t->core, l2[i]), 0);
		KUNIT_ASSERT_EQ(test, x86_core_add_group(&t->cpu, &l2[i], 1), 0);
		x86_core_start(&t->cpu, l2[i]);
		KUNIT_EXPECT_LT(test, l2[i]->hw.idx, 4);
	}
	KUNIT_EXPECT_GE(test, branch[0]->hw.idx, 4);
	KUNIT_EXPECT_GE(test, branch[1]->hw.idx, 4);
	x86_core_enable(&t->cpu);
	x86_pmu_model_count(t->m, &br, true, 50);
	x86_core_disable(&t->cpu);
	for (i = 0; i < 2; i++) {
		x86_core_read(&t->cpu, branch[i]);
		KUNIT_EXPECT_EQ(test, local64_read(&branch[i]->count), 150);
		/* the constraint went along with the event */
		KUNIT_EXPECT_EQ(test, t->cpu.allowed[branch[i]->hw.idx],
				x86_core_constraint(&t->core.desc,
						    branch[i]->hw.config));
	}
	/* a fifth that may use only counters 0-3: no room, nothing moves */
	extra = raw_event(t, 0x2124, 0);
	KUNIT_ASSERT_EQ(test, x86_core_event_init(&t->core, extra), 0);
	KUNIT_EXPECT_EQ(test, x86_core_add_group(&t->cpu, &extra, 1), -EAGAIN);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_LT(test, l2[i]->hw.idx, 4);
	KUNIT_EXPECT_GE(test, branch[0]->hw.idx, 4);
	KUNIT_EXPECT_GE(test, branch[1]->hw.idx, 4);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
}

/* a cache event of @t's model: its errno, or its control and offcore mask */
static int model_cache(struct core_test *t, u64 config, u64 *evsel, u64 *mask)
{
	struct perf_event *ev = new_event(t, CACHE, config, 0);
	int ret = x86_core_event_init(&t->core, ev);

	*evsel = ev->hw.config & INTEL_ARCH_EVENT_MASK;
	*mask = ev->hw.extra_reg.reg ? ev->hw.extra_reg.config : 0;
	return ret;
}

/*
 * A model's cache events (the values are what Linux programs on the
 * emulated Sapphire Rapids, make encodings): the L1D's, the LLC's as an
 * offcore response with its mask, the ops that make no sense (-EINVAL)
 * and those no event counts (-ENOENT); without the offcore registers (a
 * hypervisor's guest), the LLC events are -ENXIO.
 */
static void perf_x86_core_model_cache(struct kunit *test)
{
	struct core_test *t = core_test_new(test, &x86_pmu_fixture_intel_spr);
	u64 evsel, mask;

	KUNIT_EXPECT_EQ(test, model_cache(t, CACHE_CFG(L1D, READ, MISS), &evsel,
					  &mask), 0);
	KUNIT_EXPECT_EQ(test, evsel, 0xe124);
	KUNIT_EXPECT_EQ(test, model_cache(t, CACHE_CFG(LL, READ, ACCESS), &evsel,
					  &mask), 0);
	KUNIT_EXPECT_EQ(test, evsel, 0x012a);
	KUNIT_EXPECT_EQ(test, mask, 0x10001);
	KUNIT_EXPECT_EQ(test, model_cache(t, CACHE_CFG(BPU, READ, MISS), &evsel,
					  &mask), 0);
	KUNIT_EXPECT_EQ(test, evsel, 0x04c5);
	KUNIT_EXPECT_EQ(test, model_cache(t, CACHE_CFG(ITLB, READ, ACCESS),
					  &evsel, &mask), -EINVAL);
	KUNIT_EXPECT_EQ(test, model_cache(t, CACHE_CFG(L1I, WRITE, ACCESS),
					  &evsel, &mask), -EINVAL);
	KUNIT_EXPECT_EQ(test, model_cache(t, CACHE_CFG(NODE, WRITE, ACCESS),
					  &evsel, &mask), -ENOENT);
	KUNIT_EXPECT_EQ(test, model_cache(t, CACHE_CFG(L1D, WRITE, MISS),
					  &evsel, &mask), -ENOENT);
	t->core.desc.extra_regs = false;
	KUNIT_EXPECT_EQ(test, model_cache(t, CACHE_CFG(LL, READ, ACCESS), &evsel,
					  &mask), -ENXIO);
	KUNIT_EXPECT_EQ(test, model_cache(t, CACHE_CFG(L1D, READ, MISS), &evsel,
					  &mask), 0);
}

/*
 * OFFCORE_RSP_0 and _1: events with one mask share a register, another
 * mask moves to the other register (and event), a third waits; the
 * register is written with the mask before the counter starts.  A group
 * with three masks can never be counted; reserved mask bits are -EINVAL.
 */
static void perf_x86_core_model_offcore(struct kunit *test)
{
	struct core_test *t = core_test_new(test, &x86_pmu_fixture_intel_spr);
	struct perf_event *ev[4], *g[3];
	static const u64 masks[] = { 0x10001, 0x10001, 0x3fbfc00001ULL, 0x2 };
	unsigned int i;

	for (i = 0; i < 4; i++) {
		ev[i] = raw_event(t, 0x012a, masks[i]);
		KUNIT_ASSERT_EQ(test, x86_core_event_init(&t->core, ev[i]), 0);
	}
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, x86_core_add_group(&t->cpu, &ev[i], 1), 0);
		x86_core_start(&t->cpu, ev[i]);
	}
	KUNIT_EXPECT_EQ(test, ev[1]->hw.config & INTEL_ARCH_EVENT_MASK, 0x012a);
	KUNIT_EXPECT_EQ(test, ev[2]->hw.config & INTEL_ARCH_EVENT_MASK, 0x012b);
	KUNIT_EXPECT_EQ(test, model_msr(t, MSR_OFFCORE_RSP_0), 0x10001);
	KUNIT_EXPECT_EQ(test, model_msr(t, MSR_OFFCORE_RSP_1), 0x3fbfc00001ULL);
	KUNIT_EXPECT_EQ(test, x86_core_add_group(&t->cpu, &ev[3], 1), -EAGAIN);
	KUNIT_EXPECT_EQ(test, t->cpu.extra[X86_XREG_RSP_0].users, 2);
	x86_core_del(&t->cpu, ev[0]);
	KUNIT_EXPECT_EQ(test, x86_core_add_group(&t->cpu, &ev[3], 1), -EAGAIN);
	x86_core_del(&t->cpu, ev[1]);
	KUNIT_ASSERT_EQ(test, x86_core_add_group(&t->cpu, &ev[3], 1), 0);
	x86_core_start(&t->cpu, ev[3]);
	KUNIT_EXPECT_EQ(test, model_msr(t, MSR_OFFCORE_RSP_0), 0x2);
	x86_core_del(&t->cpu, ev[2]);
	x86_core_del(&t->cpu, ev[3]);
	KUNIT_EXPECT_EQ(test, t->cpu.extra[X86_XREG_RSP_0].users +
				t->cpu.extra[X86_XREG_RSP_1].users, 0);

	for (i = 0; i < 3; i++) {
		g[i] = raw_event(t, 0x012a, 1ULL << i);
		if (i)
			g[i]->group_leader = g[0];
		KUNIT_EXPECT_EQ_MSG(test, x86_core_event_init(&t->core, g[i]),
				    i == 2 ? -EINVAL : 0, "member %u", i);
		if (i == 1)
			join(g[0], g[1]);
	}
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&t->core,
						  raw_event(t, 0x012a, BIT_ULL(38))),
			-EINVAL);
	/* not an offcore event: config1 is not looked at */
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&t->core,
						  raw_event(t, 0x00c4, BIT_ULL(63))),
			0);
}

/*
 * The front-end register's events and the config1 bits each takes, as
 * stock's driver answers on the emulated models (make encodings): on
 * Skylake 0x01c6 alone, bits 0-2, 4 and 8-22; on Sapphire Rapids 0x01c6
 * with bit 3 too, 0x40ad with bits 0-2 and 0x04c2 with bit 3; anything
 * else is EINVAL, and an event no register serves ignores config1.
 */
static void perf_x86_core_model_frontend(struct kunit *test)
{
	struct core_test *t[] = {
		core_test_new(test, &x86_pmu_fixture_intel_skl),
		core_test_new(test, &x86_pmu_fixture_intel_spr),
	};
	static const char *const names[] = { "skl", "spr" };
	static const struct {
		unsigned int model;	/* 0: Skylake, 1: Sapphire Rapids */
		u64 config, config1;
		int err;
		u32 msr;
	} cases[] = {
		{ 0, 0x01c6, 0x10, 0, MSR_PEBS_FRONTEND },
		{ 0, 0x01c6, 0x8, -EINVAL },
		{ 0, 0x01c6, 0x400000, 0, MSR_PEBS_FRONTEND },
		{ 0, 0x01c6, 0x800000, -EINVAL },
		{ 0, 0x40ad, 0xff, 0, 0 },
		{ 1, 0x01c6, 0x8, 0, MSR_PEBS_FRONTEND },
		{ 1, 0x01c6, 0x20, -EINVAL },
		{ 1, 0x40ad, 0x7, 0, MSR_PEBS_FRONTEND },
		{ 1, 0x40ad, 0x8, -EINVAL },
		{ 1, 0x04c2, 0x8, 0, MSR_PEBS_FRONTEND },
		{ 1, 0x04c2, 0x1, -EINVAL },
	};
	struct perf_event *ev;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ev = raw_event(t[cases[i].model], cases[i].config,
			       cases[i].config1);
		KUNIT_EXPECT_EQ_MSG(test,
				    x86_core_event_init(&t[cases[i].model]->core, ev),
				    cases[i].err, "%s %#llx/%#llx",
				    names[cases[i].model], cases[i].config,
				    cases[i].config1);
		if (!cases[i].err)
			KUNIT_EXPECT_EQ(test, ev->hw.extra_reg.reg, cases[i].msr);
	}
}

/*
 * Topdown: what event select 0 is on each kind of model (as stock's
 * driver answers on the emulated Skylake-SP, Ice Lake-SP, Sapphire
 * Rapids and its KVM guest: make encodings), the group rules of the
 * metrics, and their counts: the slots their leader counted times their
 * PERF_METRICS fraction, kept across the leader stopping and starting
 * afresh.
 */
static void perf_x86_core_model_topdown(struct kunit *test)
{
	struct core_test *t = core_test_new(test, &x86_pmu_fixture_intel_spr);
	struct core_test *skl = core_test_new(test, &x86_pmu_fixture_intel_skl);
	struct x86_pmu_model_event slots = { .select = 0x01a4, .fixed = 3 };
	struct x86_core_desc icx = t->desc, kvm = t->desc;
	struct perf_event *ev[3], *lone, *cyc, *sampling;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, t->desc.metrics, 8);
	KUNIT_EXPECT_EQ(test, x86_topdown_code(&t->desc, 0x0400), X86_TD_FIXED);
	KUNIT_EXPECT_EQ(test, x86_topdown_code(&t->desc, 0x8700), X86_TD_METRIC);
	KUNIT_EXPECT_EQ(test, x86_topdown_code(&t->desc, 0x8800), X86_TD_GENERAL);
	KUNIT_EXPECT_EQ(test, x86_topdown_code(&t->desc, 0x00c0), X86_TD_NONE);
	KUNIT_EXPECT_EQ(test, x86_topdown_code(&skl->desc, 0x0300), X86_TD_FIXED);
	KUNIT_EXPECT_EQ(test, x86_topdown_code(&skl->desc, 0x0400), X86_TD_GENERAL);
	KUNIT_EXPECT_EQ(test, x86_topdown_code(&skl->desc, 0x8000), X86_TD_GENERAL);
	/* Ice Lake: four metrics; 0x8700 is an event like any other */
	icx.model = 0x6a;
	x86_intel_model_detect(x86_pmu_model_hw(t->m), &icx);
	KUNIT_EXPECT_EQ(test, icx.metrics, 4);
	KUNIT_EXPECT_EQ(test, x86_topdown_code(&icx, 0x8300), X86_TD_METRIC);
	KUNIT_EXPECT_EQ(test, x86_topdown_code(&icx, 0x8700), X86_TD_GENERAL);
	/* a guest without fixed counter 3 or PERF_METRICS */
	kvm.fixed_mask = 0x7;
	kvm.metrics = 0;
	KUNIT_EXPECT_EQ(test, x86_topdown_code(&kvm, 0x0400), X86_TD_INVALID);
	KUNIT_EXPECT_EQ(test, x86_topdown_code(&kvm, 0x8000), X86_TD_INVALID);

	/* a metric only as a member of a counting slots leader's group */
	lone = raw_event(t, 0x8000, 0);
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&t->core, lone), -EINVAL);
	cyc = raw_event(t, 0x003c, 0);
	KUNIT_ASSERT_EQ(test, x86_core_event_init(&t->core, cyc), 0);
	lone->group_leader = cyc;
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&t->core, lone), -EINVAL);
	ev[0] = raw_event(t, 0x0400, 0);
	ev[1] = raw_event(t, 0x8000, 0);
	ev[2] = raw_event(t, 0x8300, 0);
	KUNIT_ASSERT_EQ(test, x86_core_event_init(&t->core, ev[0]), 0);
	for (i = 1; i < 3; i++) {
		ev[i]->group_leader = ev[0];
		KUNIT_ASSERT_EQ(test, x86_core_event_init(&t->core, ev[i]), 0);
		join(ev[0], ev[i]);
	}
	sampling = raw_event(t, 0x8100, 0);
	sampling->attr.sample_period = 1000;
	sampling->hw.sample_period = 1000;
	sampling->group_leader = ev[0];
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&t->core, sampling), -EINVAL);

	/* slots on fixed counter 3 from 0, the metrics cleared and enabled */
	KUNIT_ASSERT_EQ(test, x86_core_add_group(&t->cpu, ev, 3), 0);
	KUNIT_EXPECT_EQ(test, ev[0]->hw.idx, FIXED(3));
	KUNIT_EXPECT_EQ(test, ev[1]->hw.idx, INTEL_PMC_IDX_METRIC_BASE);
	KUNIT_EXPECT_EQ(test, ev[2]->hw.idx, INTEL_PMC_IDX_METRIC_BASE + 3);
	x86_pmu_model_set_metrics(t->m, ~0ULL);
	for (i = 0; i < 3; i++)
		x86_core_start(&t->cpu, ev[i]);
	KUNIT_EXPECT_EQ(test, model_msr(t, MSR_PERF_METRICS), 0);
	KUNIT_EXPECT_EQ(test, model_msr(t, MSR_CORE_PERF_FIXED_CTR3), 0);
	x86_core_enable(&t->cpu);
	KUNIT_EXPECT_TRUE(test, model_msr(t, MSR_CORE_PERF_GLOBAL_CTRL) &
			  BIT_ULL(GLOBAL_CTRL_EN_PERF_METRICS));
	x86_pmu_model_count(t->m, &slots, true, 1020);
	/* retiring 51/255 of them, back-end bound 120/255 */
	x86_pmu_model_set_metrics(t->m, 0x33 | 0x78ULL << 24);
	KUNIT_EXPECT_EQ(test, count_of(t, ev[0]), 1020);
	KUNIT_EXPECT_EQ(test, count_of(t, ev[1]), 204);
	KUNIT_EXPECT_EQ(test, count_of(t, ev[2]), 480);
	x86_core_disable(&t->cpu);
	for (i = 0; i < 3; i++)
		x86_core_del(&t->cpu, ev[i]);
	KUNIT_EXPECT_EQ(test, count_of(t, ev[1]), 204);

	/* back on the PMU: counted afresh, added to what was counted */
	KUNIT_ASSERT_EQ(test, x86_core_add_group(&t->cpu, ev, 3), 0);
	for (i = 0; i < 3; i++)
		x86_core_start(&t->cpu, ev[i]);
	x86_core_enable(&t->cpu);
	x86_pmu_model_count(t->m, &slots, true, 255);
	x86_pmu_model_set_metrics(t->m, 0x33);
	KUNIT_EXPECT_EQ(test, count_of(t, ev[0]), 1275);
	KUNIT_EXPECT_EQ(test, count_of(t, ev[1]), 255);
	KUNIT_EXPECT_EQ(test, count_of(t, ev[2]), 480);
	x86_core_disable(&t->cpu);
	for (i = 0; i < 3; i++)
		x86_core_del(&t->cpu, ev[i]);
	/*
	 * one event per metric, whatever its exclusion bits: a second
	 * retiring, user-only, is refused at open (as stock) and never fits
	 */
	lone = raw_event(t, 0x8000, 0);
	lone->attr.exclude_kernel = 1;
	lone->group_leader = ev[0];
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&t->core, lone), -EINVAL);
	ev[2] = lone;
	KUNIT_EXPECT_EQ(test, x86_core_add_group(&t->cpu, ev, 3), -EAGAIN);
	/* front-end bound, a field no member of the group has */
	ev[2] = raw_event(t, 0x8200, 0);
	ev[2]->group_leader = ev[0];
	KUNIT_ASSERT_EQ(test, x86_core_event_init(&t->core, ev[2]), 0);
	KUNIT_ASSERT_EQ(test, x86_core_add_group(&t->cpu, ev, 3), 0);
	/* a second slots group waits: fixed counter 3 and the metrics taken */
	lone = raw_event(t, 0x0400, 0);
	KUNIT_ASSERT_EQ(test, x86_core_event_init(&t->core, lone), 0);
	KUNIT_EXPECT_EQ(test, x86_core_add_group(&t->cpu, &lone, 1), -EAGAIN);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
}

/*
 * Branch stack filters to LBR_SELECT (intel_lbr.c), as stock's driver
 * programs the emulated Skylake-SP (make x86-models part lbr): a set bit
 * drops a ring or a kind of branch; far branches, which "any call" and
 * "any return" need, are filtered again in software by type.
 */
static void perf_x86_core_lbr_select(struct kunit *test)
{
	static const struct {
		u64 type;
		u64 select;
		bool sw;
	} cases[] = {
		{ PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER, 0x1 },
		{ PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_USER, 0xe5,
		  true },
		{ PERF_SAMPLE_BRANCH_CALL | PERF_SAMPLE_BRANCH_USER, 0x1f5 },
		{ PERF_SAMPLE_BRANCH_IND_CALL | PERF_SAMPLE_BRANCH_USER, 0x1ed },
		{ PERF_SAMPLE_BRANCH_ANY_RETURN | PERF_SAMPLE_BRANCH_USER, 0xdd,
		  true },
		{ PERF_SAMPLE_BRANCH_COND | PERF_SAMPLE_BRANCH_USER, 0x1f9 },
		{ PERF_SAMPLE_BRANCH_IND_JUMP | PERF_SAMPLE_BRANCH_USER, 0x1bd },
		{ PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_KERNEL, 0x2 },
		{ PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_ANY_RETURN |
		  PERF_SAMPLE_BRANCH_USER, 0xc5, true },
		{ PERF_SAMPLE_BRANCH_ABORT_TX | PERF_SAMPLE_BRANCH_USER, 0x1fd },
		{ PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER |
		  PERF_SAMPLE_BRANCH_KERNEL, 0 },
		{ PERF_SAMPLE_BRANCH_ANY_RETURN | PERF_SAMPLE_BRANCH_USER |
		  PERF_SAMPLE_BRANCH_KERNEL, 0xdc, true },
		{ PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_USER, 0x3c5 },
		{ PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_IND_JUMP |
		  PERF_SAMPLE_BRANCH_USER, 0x385 },
		{ PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HV, 0x3 },
	};
	unsigned int i;
	u32 sw;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		KUNIT_EXPECT_EQ_MSG(test, x86_lbr_select(cases[i].type, &sw),
				    cases[i].select, "type %#llx",
				    cases[i].type);
		KUNIT_EXPECT_EQ_MSG(test, !!sw, cases[i].sw, "type %#llx",
				    cases[i].type);
	}
}

/*
 * A Skylake whose LBR MSRs do not hold what is written (the model has
 * none, as a hypervisor may hide them) has no branch stacks: EOPNOTSUPP,
 * and branch counters are a bad request whatever the part.
 */
static int lbr_event_init(struct core_test *t, u64 branch_sample_type)
{
	struct perf_event *ev = raw_event(t, 0x00c0, 0);

	ev->attr.sample_period = 100000;
	ev->attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	ev->attr.branch_sample_type = branch_sample_type;
	return x86_core_event_init(&t->core, ev);
}

static void perf_x86_core_lbr_hidden(struct kunit *test)
{
	struct core_test *t = core_test_new(test, &x86_pmu_fixture_intel_skl);

	KUNIT_EXPECT_EQ(test, t->core.desc.lbr_nr, 0);
	KUNIT_EXPECT_EQ(test, lbr_event_init(t, PERF_SAMPLE_BRANCH_ANY |
						PERF_SAMPLE_BRANCH_USER),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, lbr_event_init(t, PERF_SAMPLE_BRANCH_ANY |
						PERF_SAMPLE_BRANCH_COUNTERS),
			-EINVAL);
}

/*
 * Sapphire Rapids: load latency with a data source needs mem-loads-aux
 * (0x8203) as its group's leader, ENODATA otherwise (stock's answers on
 * the emulated part, precise or not).
 */
static struct perf_event *ldlat_event(struct core_test *t)
{
	struct perf_event *ev = raw_event(t, 0x01cd, 0);

	ev->attr.config1 = 3;
	ev->attr.sample_period = 1000;
	ev->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_DATA_SRC;
	return ev;
}

static void perf_x86_core_mem_loads_aux(struct kunit *test)
{
	struct core_test *t = core_test_new(test, &x86_pmu_fixture_intel_spr);
	struct perf_event *aux, *ev;

	KUNIT_EXPECT_EQ(test, x86_core_event_init(&t->core, ldlat_event(t)),
			-ENODATA);
	ev = ldlat_event(t);
	ev->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR;
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&t->core, ev), 0);
	aux = raw_event(t, 0x8203, 0);
	KUNIT_ASSERT_EQ(test, x86_core_event_init(&t->core, aux), 0);
	ev = ldlat_event(t);
	join(aux, ev);
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&t->core, ev), 0);
}

/*
 * AMD's LBR stack (amd_lbr.c) on Zen 4, as stock's driver answers on the
 * emulated part (make x86-models part lbr, X86_MODELS=zen4): what a
 * request may not ask of it, the registers a started event turns on, and
 * the records read back newest first, sign-extended, the empty ones and
 * (for a user-only stack) the kernel's left out.
 */
static void perf_x86_core_amd_lbr(struct kunit *test)
{
	struct core_test *t = core_test_new(test, &x86_pmu_fixture_amd_zen4);
	struct perf_branch_stack *st;
	struct perf_event *ev;
	u64 user = PERF_SAMPLE_BRANCH_USER;

	KUNIT_EXPECT_EQ(test, t->core.desc.lbr_nr, 16);
	KUNIT_EXPECT_EQ(test, lbr_event_init(t, PERF_SAMPLE_BRANCH_CALL_STACK |
						user), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, lbr_event_init(t, PERF_SAMPLE_BRANCH_ANY | user |
						PERF_SAMPLE_BRANCH_IN_TX),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, lbr_event_init(t, PERF_SAMPLE_BRANCH_ANY | user |
						PERF_SAMPLE_BRANCH_NO_FLAGS),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, lbr_event_init(t, PERF_SAMPLE_BRANCH_ANY | user |
						PERF_SAMPLE_BRANCH_COUNTERS), 0);

	ev = raw_event(t, 0x00c0, 0);
	ev->attr.sample_period = 100000;
	ev->attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	ev->attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | user;
	KUNIT_ASSERT_EQ(test, x86_core_event_init(&t->core, ev), 0);
	KUNIT_ASSERT_EQ(test, x86_core_add_group(&t->cpu, &ev, 1), 0);
	x86_core_start(&t->cpu, ev);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_amd_lbr_select(t->m), 0x1);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_amd_dbg_extn(t->m),
			DBG_EXTN_CFG_LBRV2EN);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_debugctl(t->m),
			DEBUGCTLMSR_FREEZE_LBRS_ON_PMI);

	/* retired; a kernel source (hidden from a user-only stack); empty */
	x86_pmu_model_set_amd_lbr(t->m, 0, 0x401000, BIT_ULL(63) | 0x402000);
	x86_pmu_model_set_amd_lbr(t->m, 1, 0x7fffffff81000000ULL,
				  BIT_ULL(63) | 0x401234);
	x86_pmu_model_set_amd_lbr(t->m, 2, 0, 0);
	/* mispredicted, into the kernel (ToIp's bit 61 reserved: 0) */
	x86_pmu_model_set_amd_lbr(t->m, 3, BIT_ULL(63) | 0x401100,
				  BIT_ULL(63) | 0x1fffffff81000040ULL);
	/* speculative */
	x86_pmu_model_set_amd_lbr(t->m, 4, 0x401200, BIT_ULL(62) | 0x401300);
	t->cpu.lbr.snapped = false;
	st = x86_lbr_sample(&t->cpu, ev);
	KUNIT_ASSERT_EQ(test, st->nr, 3);
	KUNIT_EXPECT_EQ(test, st->hw_idx, 0);
	KUNIT_EXPECT_EQ(test, st->entries[0].from, 0x401000);
	KUNIT_EXPECT_EQ(test, st->entries[0].to, 0x402000);
	KUNIT_EXPECT_EQ(test, (int)st->entries[0].mispred, 0);
	KUNIT_EXPECT_EQ(test, (int)st->entries[0].predicted, 1);
	KUNIT_EXPECT_EQ(test, (int)st->entries[0].spec, PERF_BR_NON_SPEC_CORRECT_PATH);
	KUNIT_EXPECT_EQ(test, st->entries[1].from, 0x401100);
	KUNIT_EXPECT_EQ(test, st->entries[1].to, 0xffffffff81000040ULL);
	KUNIT_EXPECT_EQ(test, (int)st->entries[1].mispred, 1);
	KUNIT_EXPECT_EQ(test, (int)st->entries[2].spec, PERF_BR_SPEC_WRONG_PATH);

	x86_core_stop(&t->cpu, ev, true);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_amd_dbg_extn(t->m), 0);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_debugctl(t->m), 0);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
}

/*
 * Without PEBS (the model has none: only the registered driver looks for
 * it) no precise level is there: EOPNOTSUPP, before the config is decoded.
 */
static void perf_x86_core_pebs_absent(struct kunit *test)
{
	struct core_test *t = core_test_new(test, &x86_pmu_fixture_intel_skl);
	struct perf_event *ev = raw_event(t, 0x00c0, 0);

	KUNIT_EXPECT_EQ(test, t->core.desc.max_precise, 0);
	ev->attr.precise_ip = 1;
	ev->attr.sample_period = 100000;
	KUNIT_EXPECT_EQ(test, x86_core_event_init(&t->core, ev), -EOPNOTSUPP);
}

#ifdef CONFIG_CPU_SUP_INTEL
/*
 * A PEBS event may use every general-purpose counter of Skylake, whatever
 * its usual counter rules say, but INST_RETIRED.PREC_DIST (and precise
 * cycles at level 3, counted by it): counter 1 (stock's answers).
 */
static void perf_x86_core_pebs_counters(struct kunit *test)
{
	struct core_test *t = core_test_new(test, &x86_pmu_fixture_intel_skl);
	const struct x86_core_desc *desc = &t->core.desc;
	const struct x86_counter_rules *rules = desc->counter_rules;
	u64 all = GENMASK_ULL(desc->num_gp - 1, 0), evsel;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, desc->num_gp, 4);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(desc, 0x00c0 |
						  X86_CORE_EVSEL_PEBS), all);
	KUNIT_EXPECT_EQ(test, x86_core_constraint(desc, 0x01c0 |
						  X86_CORE_EVSEL_PEBS), BIT(1));
	KUNIT_EXPECT_EQ(test, x86_core_constraint(desc, 0x108001c0 |
						  X86_CORE_EVSEL_PEBS), BIT(1));
	/* the pseudo-encodings of fixed counters, as stock places them */
	KUNIT_EXPECT_EQ(test, x86_core_constraint(desc, 0x0300 |
						  X86_CORE_EVSEL_PEBS), all);
	for (i = 0; rules && i < rules->nr; i++) {
		evsel = rules->rules[i].event |
			(u64)rules->rules[i].umask << 8;
		if ((evsel & 0xffff) == 0x01c0)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, x86_core_constraint(desc, evsel |
							X86_CORE_EVSEL_PEBS),
				    all, "event %#llx", evsel);
	}
}

/*
 * Sapphire Rapids' PEBS counters, as stock's driver places precise events
 * on the emulated part (bench/pmu-constraints.c with
 * PMU_CONSTRAINTS_PRECISE=1 and 3, and the MSR trace): below level 3 the
 * INST_RETIRED events and load latency on general counters 1 to 7, other
 * events on their usual counters; at level 3 general counter 0, but
 * instructions on fixed counter 0 and no counter for the other
 * INST_RETIRED events, load latency or fixed counter 0's encoding.
 */
static void perf_x86_core_pebs_counters_spr(struct kunit *test)
{
	struct core_test *t = core_test_new(test, &x86_pmu_fixture_intel_spr);
	struct x86_core_desc desc = t->core.desc;
	u64 pebs = X86_CORE_EVSEL_PEBS, ppp = pebs | X86_CORE_EVSEL_PDIST;
	u64 gp1_7 = GENMASK_ULL(7, 1);

	KUNIT_ASSERT_NOT_NULL(test, desc.intel_model);
	KUNIT_ASSERT_TRUE(test, desc.intel_model->pebs_pdist_gp0);
	/* only the registered driver probes PEBS: as it would find it */
	desc.pebs_fmt = 4;
	KUNIT_EXPECT_EQ(test, x86_pebs_counters(&desc, 0x00c0 | pebs), gp1_7);
	KUNIT_EXPECT_EQ(test, x86_pebs_counters(&desc, 0x01c0 | pebs), gp1_7);
	KUNIT_EXPECT_EQ(test, x86_pebs_counters(&desc, 0x02c0 | pebs), gp1_7);
	KUNIT_EXPECT_EQ(test, x86_pebs_counters(&desc, 0x01cd | pebs), gp1_7);
	KUNIT_EXPECT_EQ(test, x86_pebs_counters(&desc, 0x002e | pebs),
			x86_core_constraint(&desc, 0x002e));
	KUNIT_EXPECT_EQ(test, x86_pebs_counters(&desc, 0x0100 | pebs),
			BIT_ULL(X86_CORE_IDX_FIXED));
	KUNIT_EXPECT_EQ(test, x86_pebs_counters(&desc, 0x002e | ppp), BIT(0));
	KUNIT_EXPECT_EQ(test, x86_pebs_counters(&desc, 0x003c | ppp), BIT(0));
	KUNIT_EXPECT_EQ(test, x86_pebs_counters(&desc, 0x00c0 | ppp),
			BIT_ULL(X86_CORE_IDX_FIXED));
	KUNIT_EXPECT_EQ(test, x86_pebs_counters(&desc, 0x01c0 | ppp), 0);
	KUNIT_EXPECT_EQ(test, x86_pebs_counters(&desc, 0x01cd | ppp), 0);
	KUNIT_EXPECT_EQ(test, x86_pebs_counters(&desc, 0x0100 | ppp), 0);
}

/*
 * The data source of a record, by the kind of event: stock's values on
 * the emulated Skylake-SP, source by source (bench/qemu/pebs-probe.c).
 */
static void perf_x86_core_pebs_data_source(struct kunit *test)
{
	static const struct {
		u64 config;
		u64 dse;
		u64 data_src;
	} cases[] = {
		{ 0x00c0, 0, 0x1e05080021 },		/* not a memory event */
		{ 0x01d0, 1, 0x1e05080021 },		/* no load, no store */
		{ 0x81d0, 1, 0x1e05080022 },		/* a load */
		{ 0x11d0, 5, 0x1e05080022 },
		{ 0x04d2, 3, 0x1e05080022 },
		{ 0x82d0, 0, 0x1e05080184 },		/* a store, L1 miss */
		{ 0x82d0, 1, 0x1e05080144 },		/* ... hit */
		{ 0x42d0, 2, 0x1e05080184 },
		{ 0x01cd, 0, 0x10668080082 },		/* load latency */
		{ 0x01cd, 1, 0x10268100142 },
		{ 0x01cd, 2, 0x11868100242 },
		{ 0x01cd, 7, 0x10668800842 },
		{ 0x01cd, 9, 0x13c68200042 },
		{ 0x01cd, 12, 0x17668000042 },
		{ 0x01cd, 15, 0x11e68140042 },
		{ 0x01cd, 16, 0x10650080082 },		/* STLB miss */
		{ 0x01cd, 33, 0x1026a100142 },		/* locked */
		{ 0x01cd, 63, 0x11e52140042 },
		{ 0x02cd, 1, 0x1e05080021 },		/* not load latency */
		{ 0x22d0, 1, 0x1e05080144 },		/* Skylake's store */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    x86_pebs_data_source(3, cases[i].config,
							 cases[i].dse),
				    cases[i].data_src, "config %#llx source %llu",
				    cases[i].config, cases[i].dse);
	/* Ice Lake's adaptive PEBS: 0x22d0 is none */
	KUNIT_EXPECT_EQ(test, x86_pebs_data_source(4, 0x22d0, 1), PERF_MEM_NA);
	KUNIT_EXPECT_EQ(test, x86_pebs_data_source(4, 0x82d0, 1),
			0x1e05080144);
}

/*
 * perf_guest_get_msrs()' entries for @kvm, as x86_core_guest_msrs() makes
 * them, and in *@host_ds this CPU's DS area, on one CPU as KVM asks
 */
static unsigned int guest_msrs(struct core_test *t, const struct kvm_pmu *kvm,
			       struct perf_guest_switch_msr *msrs, u64 *host_ds)
{
	unsigned int nr;

	memset(msrs, 0, X86_GUEST_MSRS * sizeof(*msrs));
	preempt_disable();
	nr = x86_core_guest_msrs(&t->cpu, kvm, msrs);
	*host_ds = x86_ds_area();
	preempt_enable();
	KUNIT_EXPECT_LE(t->test, nr, X86_GUEST_MSRS);
	return nr;
}

/*
 * KVM's event for a guest's PEBS counter, on a part whose guests may have
 * PEBS (the Sapphire Rapids fixture, made a PEBS one): precise, excluding
 * the host.  It takes its counter, counting in the guest only, and leaves
 * the host's PEBS alone (the model has no PEBS MSRs: a write would fault);
 * KVM is handed its counter for the guest's PEBS_ENABLE, as far as the
 * guest enabled it and the counter is the guest's own, with the guest's
 * DS area and data configuration.  A PMI of the guest's buffer, or of the
 * counter itself, goes to the event's overflow, its counter untouched.
 */
static void perf_x86_core_guest_pebs(struct kunit *test)
{
	struct core_test *t = core_test_new(test, &x86_pmu_fixture_intel_spr);
	struct perf_guest_switch_msr msrs[X86_GUEST_MSRS];
	struct perf_event *guest = raw_event(t, 0x00c4, 0);
	struct kvm_pmu *kvm = kunit_kzalloc(test, sizeof(*kvm), GFP_KERNEL);
	u64 bit, ctr, host_ds;
	struct perf_event *host;

	KUNIT_ASSERT_NOT_NULL(test, kvm);
	t->core.desc.pebs_fmt = 4;
	t->core.desc.max_precise = 3;
	t->core.desc.pebs_ept = true;
	guest->attr.precise_ip = 1;
	guest->attr.exclude_host = 1;
	guest->attr.sample_period = 1000;
	guest->hw.sample_period = 1000;
	KUNIT_ASSERT_EQ(test, x86_core_event_init(&t->core, guest), 0);
	KUNIT_EXPECT_TRUE(test, x86_core_is_guest_pebs(guest));
	KUNIT_ASSERT_EQ(test, x86_core_add_group(&t->cpu, &guest, 1), 0);
	x86_core_start(&t->cpu, guest);
	bit = BIT_ULL(guest->hw.idx);
	host = run_event(t, PERF_COUNT_HW_INSTRUCTIONS, 0, false, false);
	host->attr.exclude_guest = 1;
	KUNIT_EXPECT_EQ(test, t->cpu.pebs.guest, bit);
	KUNIT_EXPECT_EQ(test, t->cpu.pebs.enabled, 0);
	KUNIT_EXPECT_EQ(test, t->cpu.guest_only, bit);
	x86_core_enable(&t->cpu);

	kvm->pebs_enable = bit | BIT_ULL(7);
	kvm->ds_area = 0xfffffe0000001000ULL;
	kvm->pebs_data_cfg = PEBS_DATACFG_MEMINFO;
	KUNIT_ASSERT_EQ(test, guest_msrs(t, kvm, msrs, &host_ds), 4);
	KUNIT_EXPECT_EQ(test, msrs[0].msr, MSR_CORE_PERF_GLOBAL_CTRL);
	KUNIT_EXPECT_EQ(test, msrs[0].host & bit, 0);
	KUNIT_EXPECT_EQ(test, msrs[0].guest & bit, bit);
	KUNIT_EXPECT_EQ(test, msrs[0].guest & BIT_ULL(host->hw.idx), 0);
	KUNIT_EXPECT_EQ(test, msrs[1].msr, MSR_IA32_PEBS_ENABLE);
	KUNIT_EXPECT_EQ(test, msrs[1].host, 0);
	KUNIT_EXPECT_EQ(test, msrs[1].guest, bit);
	KUNIT_EXPECT_EQ(test, msrs[2].msr, MSR_IA32_DS_AREA);
	KUNIT_EXPECT_EQ(test, msrs[2].host, host_ds);
	KUNIT_EXPECT_EQ(test, msrs[2].guest, kvm->ds_area);
	KUNIT_EXPECT_EQ(test, msrs[3].msr, MSR_PEBS_DATA_CFG);
	KUNIT_EXPECT_EQ(test, msrs[3].host, 0);
	KUNIT_EXPECT_EQ(test, msrs[3].guest, PEBS_DATACFG_MEMINFO);

	/* on another counter than the guest's: no PEBS, but it counts */
	kvm->host_cross_mapped_mask = bit;
	guest_msrs(t, kvm, msrs, &host_ds);
	KUNIT_EXPECT_EQ(test, msrs[0].guest & bit, bit);
	KUNIT_EXPECT_EQ(test, msrs[1].guest, 0);
	KUNIT_EXPECT_EQ(test, msrs[2].guest, host_ds);
	KUNIT_EXPECT_EQ(test, msrs[3].guest, 0);
	/* not enabled by the guest, or no vCPU PMU at all: none either */
	kvm->host_cross_mapped_mask = 0;
	kvm->pebs_enable = 0;
	guest_msrs(t, kvm, msrs, &host_ds);
	KUNIT_EXPECT_EQ(test, msrs[1].guest, 0);
	guest_msrs(t, NULL, msrs, &host_ds);
	KUNIT_EXPECT_EQ(test, msrs[1].guest, 0);

	/* the guest's buffer PMI, then its counter's own: KVM is told */
	x86_core_disable(&t->cpu);
	ctr = model_msr(t, guest->hw.event_base);
	KUNIT_ASSERT_EQ(test, x86_hw_wrmsr(x86_pmu_model_hw(t->m),
					   X86_HW_MSR_GLOBAL_STATUS_SET,
					   GLOBAL_STATUS_BUFFER_OVF), 0);
	KUNIT_EXPECT_EQ(test, x86_core_handle_irq(&t->cpu), 1);
	KUNIT_EXPECT_EQ(test, t->samples, 1);
	KUNIT_ASSERT_EQ(test, x86_hw_wrmsr(x86_pmu_model_hw(t->m),
					   X86_HW_MSR_GLOBAL_STATUS_SET, bit), 0);
	KUNIT_EXPECT_EQ(test, x86_core_handle_irq(&t->cpu), 1);
	KUNIT_EXPECT_EQ(test, t->samples, 2);
	KUNIT_EXPECT_EQ(test, model_msr(t, guest->hw.event_base), ctr);
	KUNIT_EXPECT_EQ(test, model_msr(t, MSR_CORE_PERF_GLOBAL_STATUS), 0);

	x86_core_stop(&t->cpu, guest, true);
	KUNIT_EXPECT_EQ(test, t->cpu.pebs.guest, 0);
	x86_core_del(&t->cpu, guest);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(t->m), 0);
}
#endif

static struct kunit_case perf_x86_core_cases[] = {
	KUNIT_CASE_PARAM(perf_x86_core_map, map_gen_params),
	KUNIT_CASE(perf_x86_core_amd_generations),
	KUNIT_CASE(perf_x86_core_event_init),
	KUNIT_CASE(perf_x86_core_constraint),
	KUNIT_CASE(perf_x86_core_model_tables),
	KUNIT_CASE(perf_x86_core_model_constrained),
	KUNIT_CASE(perf_x86_core_model_repack),
	KUNIT_CASE(perf_x86_core_amd_merge_pairs),
	KUNIT_CASE(perf_x86_core_model_cache),
	KUNIT_CASE(perf_x86_core_model_offcore),
	KUNIT_CASE(perf_x86_core_model_frontend),
	KUNIT_CASE(perf_x86_core_lbr_select),
	KUNIT_CASE(perf_x86_core_lbr_hidden),
	KUNIT_CASE(perf_x86_core_amd_lbr),
	KUNIT_CASE(perf_x86_core_mem_loads_aux),
	KUNIT_CASE(perf_x86_core_pebs_absent),
#ifdef CONFIG_CPU_SUP_INTEL
	KUNIT_CASE(perf_x86_core_pebs_counters),
	KUNIT_CASE(perf_x86_core_pebs_counters_spr),
	KUNIT_CASE(perf_x86_core_pebs_data_source),
	KUNIT_CASE(perf_x86_core_guest_pebs),
#endif
	KUNIT_CASE(perf_x86_core_model_topdown),
	KUNIT_CASE_PARAM(perf_x86_core_group, group_gen_params),
	KUNIT_CASE(perf_x86_core_group_mixed),
	KUNIT_CASE(perf_x86_core_all_or_nothing),
	KUNIT_CASE_PARAM(perf_x86_core_count, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_core_enable_msrs, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_core_exclude, x86_pmu_fixture_gen_params),
	KUNIT_CASE(perf_x86_core_exclude_guest),
	KUNIT_CASE(perf_x86_core_exclude_host),
	KUNIT_CASE_PARAM(perf_x86_core_overflow_gp, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_core_overflow_fixed, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_core_count_wrap, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_core_long_period, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_core_throttle, x86_pmu_fixture_gen_params),
	{}
};

static struct kunit_suite perf_x86_core_suite = {
	.name = "perf_x86_core",
	.test_cases = perf_x86_core_cases,
};

kunit_test_suite(perf_x86_core_suite);
