// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "perf_x86_detect": x86_core_detect() run on the model of each
 * fixture (pmu_fixtures.c) must find exactly the PMU the part has, leave
 * the counter it probes as it was, and, on the CPU the tests run on (no
 * PMU under QEMU TCG), say what it found without harm; on a hybrid part,
 * each core type's PMU as the model layer describes it.
 */
#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "../cpu_pmu.h"
#include "../detect.h"
#include "../hw.h"
#include "pmu_model.h"

static const char *const field_names[] = {
	"vendor", "version", "num_gp", "gp_width", "num_fixed", "fixed_mask",
	"fixed_width", "events_mask_len", "events_unavailable",
	"anythread_deprecated", "perf_capabilities", "full_width_write",
	"core_ext", "perfmon_v2", "hypervisor", "evtsel_base", "ctr_base",
	"msr_stride", "family", "model", "merge_pairs", "lbr_nr", "lbr_freeze",
};

/* the numeric fields of @d, in the order of field_names */
static void desc_fields(const struct x86_core_desc *d, u64 *v)
{
	v[0] = d->vendor;
	v[1] = d->version;
	v[2] = d->num_gp;
	v[3] = d->gp_width;
	v[4] = d->num_fixed;
	v[5] = d->fixed_mask;
	v[6] = d->fixed_width;
	v[7] = d->events_mask_len;
	v[8] = d->events_unavailable;
	v[9] = d->anythread_deprecated;
	v[10] = d->perf_capabilities;
	v[11] = d->full_width_write;
	v[12] = d->core_ext;
	v[13] = d->perfmon_v2;
	v[14] = d->hypervisor;
	v[15] = d->evtsel_base;
	v[16] = d->ctr_base;
	v[17] = d->msr_stride;
	v[18] = d->family;
	v[19] = d->model;
	v[20] = d->merge_pairs;
	/* AMD's LBR stack is CPUID's; Intel's the model layer's (models.c) */
	v[21] = d->vendor == X86_CORE_AMD ? d->lbr_nr : 0;
	v[22] = d->lbr_freeze;
}

static void perf_x86_detect_fixture(struct kunit *test)
{
	const struct x86_pmu_model_fixture *fx = x86_pmu_test_fixture(test);
	const struct x86_core_desc *want = &fx->pmu;
	struct x86_pmu_model *m = x86_pmu_model_new(test, fx);
	u64 got_v[ARRAY_SIZE(field_names)];
	u64 want_v[ARRAY_SIZE(field_names)];
	struct x86_core_desc got;
	unsigned int i;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, m);
	ret = x86_core_detect(x86_pmu_model_hw(m), &got);
	KUNIT_EXPECT_EQ(test, ret, want->vendor == X86_CORE_NONE ? -ENODEV : 0);
	desc_fields(&got, got_v);
	desc_fields(want, want_v);
	for (i = 0; i < ARRAY_SIZE(field_names); i++)
		KUNIT_EXPECT_EQ_MSG(test, got_v[i], want_v[i], "field %s",
				    field_names[i]);
	if (want->why_none)
		KUNIT_EXPECT_STREQ(test, got.why_none, want->why_none);
	else
		KUNIT_EXPECT_NULL(test, got.why_none);
}

/* the probe of the first counter puts back what was there */
static void perf_x86_detect_probe_restores(struct kunit *test)
{
	const struct x86_pmu_model_fixture *fx = x86_pmu_test_fixture(test);
	struct x86_pmu_model *m;
	const struct x86_hw *hw;
	struct x86_core_desc d;
	u64 val;

	if (fx->pmu.vendor == X86_CORE_NONE)
		kunit_skip(test, "no PMU");
	m = x86_pmu_model_new(test, fx);
	KUNIT_ASSERT_NOT_NULL(test, m);
	hw = x86_pmu_model_hw(m);
	KUNIT_ASSERT_EQ(test, x86_hw_wrmsr(hw, x86_core_ctr_msr(&fx->pmu, 0), 1234), 0);
	KUNIT_ASSERT_EQ(test, x86_core_detect(hw, &d), 0);
	KUNIT_EXPECT_EQ(test, x86_hw_rdmsr(hw, x86_core_ctr_msr(&d, 0), &val), 0);
	KUNIT_EXPECT_EQ(test, val, 1234);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(m), 0);
}

/*
 * The CPU the tests run on.  Under QEMU TCG (the project's guests) there
 * is no PMU; elsewhere whatever is found must have counters.
 */
static void perf_x86_detect_native(struct kunit *test)
{
	struct x86_core_desc d;
	int ret;

	ret = x86_core_detect(&x86_hw_native, &d);
	if (ret) {
		KUNIT_EXPECT_EQ(test, ret, -ENODEV);
		KUNIT_EXPECT_EQ(test, d.vendor, X86_CORE_NONE);
		KUNIT_EXPECT_NOT_NULL(test, d.why_none);
		kunit_info(test, "no core PMU: %s%s\n", d.why_none,
			   d.hypervisor ? " (hypervisor)" : "");
		return;
	}
	KUNIT_EXPECT_NE(test, d.vendor, X86_CORE_NONE);
	KUNIT_EXPECT_GT(test, d.num_gp + d.num_fixed, 0);
	kunit_info(test, "core PMU: vendor %d version %u, %u x %u-bit, fixed %#x x %u-bit\n",
		   d.vendor, d.version, d.num_gp, d.gp_width, d.fixed_mask,
		   d.fixed_width);
}

/* the boot CPU's PMU on a model of @fx */
static void detect_on(struct kunit *test,
		      const struct x86_pmu_model_fixture *fx,
		      const struct x86_hw **hw, struct x86_core_desc *d)
{
	struct x86_pmu_model *m = x86_pmu_model_new(test, fx);

	KUNIT_ASSERT_NOT_NULL(test, m);
	*hw = x86_pmu_model_hw(m);
	KUNIT_ASSERT_EQ(test, x86_core_detect(*hw, d), 0);
}

/*
 * core type @i's description of the hybrid model @boot is: its PMU @pmu,
 * its CPUID 0x1A @type, @num_gp and @fixed counters, @metrics topdown
 * metrics, and general counters @l2 for event 0x2124 (L2_RQSTS)
 */
struct hybrid_want {
	const char *pmu;
	u8 type, num_gp;
	u32 fixed;
	u8 metrics;
	u64 l2;
};

static void expect_type(struct kunit *test, const struct x86_core_desc *boot,
			unsigned int i, const struct hybrid_want *w)
{
	struct x86_core_desc d;

	x86_intel_hybrid_desc(boot, i, &d);
	KUNIT_EXPECT_STREQ(test, x86_intel_hybrid_pmu(boot, i), w->pmu);
	KUNIT_EXPECT_EQ(test, d.hybrid_type, w->type);
	KUNIT_EXPECT_EQ(test, d.num_gp, w->num_gp);
	KUNIT_EXPECT_EQ(test, d.fixed_mask, w->fixed);
	KUNIT_EXPECT_EQ(test, d.num_fixed, hweight32(w->fixed));
	KUNIT_EXPECT_EQ(test, d.metrics, w->metrics);
	KUNIT_EXPECT_EQ(test, x86_intel_rule_counters(&d, 0x2124), w->l2);
}

/*
 * Alder Lake: CPUID's counters are what both core types have; the model
 * layer makes a description of each type (the P-core's with two more
 * counters, fixed counter 3 and topdown's eight metrics), each CPU says
 * its type, and a CPU whose CPUID lacks the boot CPU's counters is found
 * out; each type has its own counter rules.  A part that is not hybrid
 * has one PMU for every CPU.
 */
static void perf_x86_detect_hybrid(struct kunit *test)
{
	static const struct hybrid_want adl_core = {
		"cpu_core", X86_HYBRID_CORE, 8, 0xf, 8, 0xf,
	}, adl_atom = {
		"cpu_atom", X86_HYBRID_ATOM, 6, 0x7, 0, ~0ULL,
	}, mtl_core = {
		"cpu_core", X86_HYBRID_CORE, 8, 0x7, 8, 0xf,
	}, mtl_atom = {
		"cpu_atom", X86_HYBRID_ATOM, 8, 0x7, 0, ~0ULL,
	};
	const struct x86_hw *p_hw, *e_hw, *spr_hw;
	struct x86_core_desc boot, e_boot, spr, d;

	detect_on(test, &x86_pmu_fixture_intel_adl_p, &p_hw, &boot);
	detect_on(test, &x86_pmu_fixture_intel_adl_e, &e_hw, &e_boot);
	KUNIT_EXPECT_TRUE(test, boot.hybrid);
	KUNIT_EXPECT_EQ(test, boot.hybrid_type, 0);
	KUNIT_ASSERT_EQ(test, x86_intel_hybrid_types(&boot), X86_HYBRID_TYPES);
	KUNIT_EXPECT_EQ(test, x86_core_hybrid_type(p_hw), X86_HYBRID_CORE);
	KUNIT_EXPECT_EQ(test, x86_core_hybrid_type(e_hw), X86_HYBRID_ATOM);

	/* the P-core's counter rules: L2_RQSTS on counters 0-3 */
	expect_type(test, &boot, 0, &adl_core);
	expect_type(test, &boot, 1, &adl_atom);
	/* the E-core's description is the same, whichever CPU boots */
	expect_type(test, &e_boot, 1, &adl_atom);

	/* each CPU has CPUID's counters; one with fewer does not */
	KUNIT_EXPECT_TRUE(test, x86_core_cpuid_covers(p_hw, &boot));
	KUNIT_EXPECT_TRUE(test, x86_core_cpuid_covers(e_hw, &boot));
	d = boot;
	d.cpuid_gp = 8;
	KUNIT_EXPECT_FALSE(test, x86_core_cpuid_covers(e_hw, &d));
	d = boot;
	d.cpuid_fixed |= BIT(3);
	KUNIT_EXPECT_FALSE(test, x86_core_cpuid_covers(e_hw, &d));

	/*
	 * Meteor Lake: each type has CPUID 0xA's counters, as stock takes
	 * them; the P-core lists its metrics without fixed counter 3; the
	 * E-core has the snoop response registers
	 */
	detect_on(test, &x86_pmu_fixture_intel_mtl_p, &p_hw, &boot);
	KUNIT_ASSERT_EQ(test, x86_intel_hybrid_types(&boot), X86_HYBRID_TYPES);
	expect_type(test, &boot, 0, &mtl_core);
	expect_type(test, &boot, 1, &mtl_atom);
	KUNIT_EXPECT_TRUE(test, x86_intel_hybrid_model(&boot, 1)->snoop_rsp);
	KUNIT_EXPECT_STREQ(test, x86_intel_hybrid_model(&boot, 1)->pmu_name,
			   "meteorlake_hybrid");

	detect_on(test, &x86_pmu_fixture_intel_spr, &spr_hw, &spr);
	KUNIT_EXPECT_FALSE(test, spr.hybrid);
	KUNIT_EXPECT_EQ(test, x86_intel_hybrid_types(&spr), 1);
	KUNIT_EXPECT_EQ(test, x86_core_hybrid_type(spr_hw), 0);
	KUNIT_EXPECT_TRUE(test, x86_core_cpuid_covers(spr_hw, &spr));
}

static struct kunit_case perf_x86_detect_cases[] = {
	KUNIT_CASE_PARAM(perf_x86_detect_fixture, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_detect_probe_restores,
			 x86_pmu_fixture_gen_params),
	KUNIT_CASE(perf_x86_detect_native),
	KUNIT_CASE(perf_x86_detect_hybrid),
	{}
};

static struct kunit_suite perf_x86_detect_suite = {
	.name = "perf_x86_detect",
	.test_cases = perf_x86_detect_cases,
};

kunit_test_suite(perf_x86_detect_suite);
