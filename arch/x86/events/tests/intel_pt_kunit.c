// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "perf_intel_pt": intel_pt_validate_cap() decodes the Intel PT
 * capabilities out of a copy of CPUID leaf 0x14 (as KVM keeps one per
 * vCPU); the host's own capabilities read 0 while no PT driver exists.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/cpufeature.h>
#include <asm/intel_pt.h>

/* what the registers below hold, capability by capability */
static const struct {
	enum pt_capabilities cap;
	u32 value;
} want[] = {
	{ PT_CAP_max_subleaf, 1 },
	{ PT_CAP_cr3_filtering, 1 },
	{ PT_CAP_psb_cyc, 0 },
	{ PT_CAP_mtc, 1 },
	{ PT_CAP_tnt_disable, 1 },
	{ PT_CAP_topa_output, 1 },
	{ PT_CAP_single_range_output, 0 },
	{ PT_CAP_payloads_lip, 1 },
	{ PT_CAP_num_address_ranges, 2 },
	{ PT_CAP_mtc_periods, 0x0249 },
	{ PT_CAP_cycle_thresholds, 0x1fff },
	{ PT_CAP_psb_periods, 0x003f },
};

static void perf_intel_pt_caps_test(struct kunit *test)
{
	u32 caps[PT_CPUID_REGS_NUM * PT_CPUID_LEAVES] = { };
	unsigned int i;

	caps[CPUID_EAX] = 1;				/* max subleaf */
	caps[CPUID_EBX] = BIT(0) | BIT(3) | BIT(8);	/* cr3, mtc, tnt */
	caps[CPUID_ECX] = BIT(0) | BIT(31);		/* ToPA, LIP */
	caps[PT_CPUID_REGS_NUM + CPUID_EAX] = 0x02490002;
	caps[PT_CPUID_REGS_NUM + CPUID_EBX] = 0x003f1fff;

	for (i = 0; i < ARRAY_SIZE(want); i++)
		KUNIT_EXPECT_EQ_MSG(test, intel_pt_validate_cap(caps, want[i].cap),
				    want[i].value, "capability %d", want[i].cap);
	/* no PT driver: the host supports nothing */
	KUNIT_EXPECT_EQ(test, intel_pt_validate_hw_cap(PT_CAP_topa_output), 0);
}

static struct kunit_case perf_intel_pt_cases[] = {
	KUNIT_CASE(perf_intel_pt_caps_test),
	{}
};

static struct kunit_suite perf_intel_pt_suite = {
	.name = "perf_intel_pt",
	.test_cases = perf_intel_pt_cases,
};

kunit_test_suite(perf_intel_pt_suite);
