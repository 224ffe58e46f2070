// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "perf_x86_detect": x86_core_detect() run on the model of each
 * fixture (pmu_fixtures.c) must find exactly the PMU the part has, leave
 * the counter it probes as it was, and, on the CPU the tests run on (no
 * PMU under QEMU TCG), say what it found without harm.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/string.h>

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

static struct kunit_case perf_x86_detect_cases[] = {
	KUNIT_CASE_PARAM(perf_x86_detect_fixture, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_detect_probe_restores,
			 x86_pmu_fixture_gen_params),
	KUNIT_CASE(perf_x86_detect_native),
	{}
};

static struct kunit_suite perf_x86_detect_suite = {
	.name = "perf_x86_detect",
	.test_cases = perf_x86_detect_cases,
};

kunit_test_suite(perf_x86_detect_suite);
