// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "perf_x86_model": the model of the x86 core PMU behaves as
 * the SDM and the APM say the hardware does.  Reserved bits and absent
 * MSRs raise #GP; counters count only when enabled by their control bits
 * and the global control, in the rings their USR/OS bits select; they
 * wrap at their width, setting the overflow status and raising one PMI
 * through an unmasked LVTPC; full-width writes work only where
 * PERF_CAPABILITIES allows them.  The counting tests program the counters
 * through the MSRs that detection names, so a misplaced MSR fails them.
 */
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <asm/apicdef.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>

#include "../detect.h"
#include "../hw.h"
#include "pmu_model.h"

#define EN_USR_OS	(ARCH_PERFMON_EVENTSEL_ENABLE | ARCH_PERFMON_EVENTSEL_USR | \
			 ARCH_PERFMON_EVENTSEL_OS)

/* one MSR write and whether the part takes it */
struct wrmsr_case {
	const struct x86_pmu_model_fixture *fx;
	const char *what;
	u32 msr;
	u64 val;
	int err;
};

#define OK(f, w, m, v)	{ &x86_pmu_fixture_##f, #f ": " w, m, v, 0 }
#define GP(f, w, m, v)	{ &x86_pmu_fixture_##f, #f ": " w, m, v, -EIO }

static const struct wrmsr_case wrmsr_cases[] = {
	OK(intel_skl, "evtsel in_tx", MSR_ARCH_PERFMON_EVENTSEL0, HSW_IN_TX),
	GP(intel_skl, "evtsel bit 34", MSR_ARCH_PERFMON_EVENTSEL0, BIT_ULL(34)),
	GP(intel_skl, "evtsel bit 63", MSR_ARCH_PERFMON_EVENTSEL0, BIT_ULL(63)),
	OK(intel_skl, "evtsel anythread (v4)", MSR_ARCH_PERFMON_EVENTSEL0,
	   ARCH_PERFMON_EVENTSEL_ANY),
	GP(intel_spr, "evtsel anythread deprecated", MSR_ARCH_PERFMON_EVENTSEL0,
	   ARCH_PERFMON_EVENTSEL_ANY),
	OK(intel_spr, "evtsel adaptive", MSR_ARCH_PERFMON_EVENTSEL0 + 7,
	   ICL_EVENTSEL_ADAPTIVE),
	GP(intel_core2, "evtsel anythread (v2)", MSR_ARCH_PERFMON_EVENTSEL0,
	   ARCH_PERFMON_EVENTSEL_ANY),
	GP(intel_core2, "evtsel in_tx", MSR_ARCH_PERFMON_EVENTSEL0, HSW_IN_TX),
	GP(intel_skl, "evtsel 4 absent", MSR_ARCH_PERFMON_EVENTSEL0 + 4, 0),
	OK(intel_skl, "fixed ctrl 0-2", MSR_CORE_PERF_FIXED_CTR_CTRL, 0xbbb),
	GP(intel_skl, "fixed ctrl 3 absent", MSR_CORE_PERF_FIXED_CTR_CTRL, 0x3000),
	OK(intel_spr, "fixed ctrl 3", MSR_CORE_PERF_FIXED_CTR_CTRL, 0x3000),
	GP(intel_spr, "fixed ctrl anythread", MSR_CORE_PERF_FIXED_CTR_CTRL, 0x4),
	GP(intel_core2, "fixed ctrl anythread", MSR_CORE_PERF_FIXED_CTR_CTRL, 0x4),
	GP(intel_v5_holes, "fixed ctrl 2 absent", MSR_CORE_PERF_FIXED_CTR_CTRL, 0x300),
	OK(intel_v5_holes, "fixed ctrl 3", MSR_CORE_PERF_FIXED_CTR_CTRL, 0xb0bb),
	GP(intel_v5_holes, "fixed ctr 2 absent", MSR_CORE_PERF_FIXED_CTR2, 0),
	OK(intel_v5_holes, "fixed ctr 3", MSR_CORE_PERF_FIXED_CTR3, 1),
	GP(intel_skl, "fixed ctr past width", MSR_CORE_PERF_FIXED_CTR0, BIT_ULL(48)),
	OK(intel_skl, "global ctrl", MSR_CORE_PERF_GLOBAL_CTRL, 0x70000000fULL),
	GP(intel_skl, "global ctrl gp 4", MSR_CORE_PERF_GLOBAL_CTRL, BIT_ULL(4)),
	GP(intel_skl, "global ctrl fixed 3", MSR_CORE_PERF_GLOBAL_CTRL, BIT_ULL(35)),
	GP(intel_skl, "global status read-only", MSR_CORE_PERF_GLOBAL_STATUS, 0),
	OK(intel_skl, "status reset", MSR_CORE_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_COND_CHG | 1),
	OK(intel_skl, "status set", X86_HW_MSR_GLOBAL_STATUS_SET, 1),
	GP(intel_core2, "status set (v2)", X86_HW_MSR_GLOBAL_STATUS_SET, 1),
	GP(intel_skl, "perf capabilities read-only", MSR_IA32_PERF_CAPABILITIES, 0),
	OK(intel_skl, "full-width pmc", MSR_IA32_PMC0, BIT_ULL(40)),
	GP(intel_skl, "full-width pmc past width", MSR_IA32_PMC0, BIT_ULL(48)),
	GP(intel_core2, "full-width pmc without FW_WRITE", MSR_IA32_PMC0, 1),
	OK(intel_core2, "legacy pmc, high bits ignored", MSR_ARCH_PERFMON_PERFCTR0,
	   BIT_ULL(63) | 1),
	OK(amd_k8, "k7 evtsel 3", MSR_K7_EVNTSEL3, EN_USR_OS | 0x76),
	GP(amd_k8, "f15h ctl without the extension", MSR_F15H_PERF_CTL0, 0),
	GP(amd_k8, "ctl bit 19", MSR_K7_EVNTSEL0, BIT_ULL(19)),
	OK(amd_zen2, "ctl host/guest only", MSR_F15H_PERF_CTL5,
	   AMD64_EVENTSEL_HOSTONLY | AMD64_EVENTSEL_GUESTONLY),
	GP(amd_zen2, "ctl bit 42", MSR_F15H_PERF_CTL0, BIT_ULL(42)),
	GP(amd_zen2, "ctl bit 36", MSR_F15H_PERF_CTL0, BIT_ULL(36)),
	GP(amd_zen2, "ctl 6 absent", MSR_F15H_PERF_CTL5 + 2, 0),
	GP(amd_zen2, "ctr past width", MSR_F15H_PERF_CTR0, BIT_ULL(48)),
	GP(amd_zen2, "global ctl without PerfMonV2", MSR_AMD64_PERF_CNTR_GLOBAL_CTL, 1),
	OK(amd_zen4, "global ctl", MSR_AMD64_PERF_CNTR_GLOBAL_CTL, 0x3f),
	GP(amd_zen4, "global ctl bit 6", MSR_AMD64_PERF_CNTR_GLOBAL_CTL, BIT_ULL(6)),
	GP(amd_zen4, "global status read-only", MSR_AMD64_PERF_CNTR_GLOBAL_STATUS, 1),
	OK(amd_zen4, "status clr", MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, 0x3f),
	/* Linux's AMD driver clears with all ones: reserved bits ignored */
	OK(amd_zen4, "status clr all ones", MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR,
	   ~0ULL),
	GP(intel_skl, "status reset reserved bit", MSR_CORE_PERF_GLOBAL_OVF_CTRL,
	   BIT_ULL(40)),
	GP(intel_hidden, "evtsel", MSR_ARCH_PERFMON_EVENTSEL0, 0),
	GP(amd_gp, "k7 perfctr", MSR_K7_PERFCTR0, 0),
	OK(qemu_tcg, "k7 perfctr ignored", MSR_K7_PERFCTR0, 1),
};

static void wrmsr_case_desc(const struct wrmsr_case *c, char *desc)
{
	strscpy(desc, c->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wrmsr, wrmsr_cases, wrmsr_case_desc);

static void perf_x86_model_wrmsr(struct kunit *test)
{
	const struct wrmsr_case *c = test->param_value;
	struct x86_pmu_model *m = x86_pmu_model_new(test, c->fx);

	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_EQ(test, x86_hw_wrmsr(x86_pmu_model_hw(m), c->msr, c->val),
			c->err);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(m), c->err ? 1 : 0);
}

/* a model of the test's fixture and what detection makes of it */
struct pmu_setup {
	const struct x86_pmu_model_fixture *fx;
	struct x86_pmu_model *m;
	const struct x86_hw *hw;
	struct x86_core_desc d;
};

static void setup(struct kunit *test, struct pmu_setup *s)
{
	s->fx = x86_pmu_test_fixture(test);
	if (s->fx->pmu.vendor == X86_CORE_NONE)
		kunit_skip(test, "no PMU");
	s->m = x86_pmu_model_new(test, s->fx);
	KUNIT_ASSERT_NOT_NULL(test, s->m);
	s->hw = x86_pmu_model_hw(s->m);
	KUNIT_ASSERT_EQ(test, x86_core_detect(s->hw, &s->d), 0);
}

static bool has_global(const struct x86_core_desc *d)
{
	return d->vendor == X86_CORE_INTEL ? d->version >= 2 : d->perfmon_v2;
}

static u32 global_ctrl_msr(const struct x86_core_desc *d)
{
	return d->vendor == X86_CORE_INTEL ? MSR_CORE_PERF_GLOBAL_CTRL :
					    MSR_AMD64_PERF_CNTR_GLOBAL_CTL;
}

static u32 global_status_msr(const struct x86_core_desc *d)
{
	return d->vendor == X86_CORE_INTEL ? MSR_CORE_PERF_GLOBAL_STATUS :
					    MSR_AMD64_PERF_CNTR_GLOBAL_STATUS;
}

static u32 status_clear_msr(const struct x86_core_desc *d)
{
	return d->vendor == X86_CORE_INTEL ? MSR_CORE_PERF_GLOBAL_OVF_CTRL :
					    MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR;
}

/* the control value that selects @ev */
static u64 select_of(const struct x86_pmu_model_event *ev)
{
	return ev->select | (u64)ev->select_hi << 32;
}

static void wr(struct kunit *test, struct pmu_setup *s, u32 msr, u64 val)
{
	KUNIT_ASSERT_EQ_MSG(test, x86_hw_wrmsr(s->hw, msr, val), 0,
			    "wrmsr %#x <- %#llx", msr, val);
}

static u64 rd(struct kunit *test, struct pmu_setup *s, u32 msr)
{
	u64 val;

	KUNIT_ASSERT_EQ_MSG(test, x86_hw_rdmsr(s->hw, msr, &val), 0,
			    "rdmsr %#x", msr);
	return val;
}

/* counter @i counts only when enabled, globally too, and for its event */
static void check_enable(struct kunit *test, struct pmu_setup *s, unsigned int i)
{
	const struct x86_pmu_model_event other = { .select = 0x00c0, .fixed = -1 };
	const struct x86_pmu_model_event *cycles = &s->fx->cycles;
	u64 sel = select_of(cycles) | ARCH_PERFMON_EVENTSEL_USR |
		  ARCH_PERFMON_EVENTSEL_OS;

	wr(test, s, x86_core_ctr_msr(&s->d, i), 0);
	wr(test, s, x86_core_evtsel_msr(&s->d, i), sel);
	x86_pmu_model_count(s->m, cycles, true, 100);
	KUNIT_EXPECT_EQ_MSG(test, rd(test, s, x86_core_ctr_msr(&s->d, i)), 0,
			    "counter %u without EN", i);
	if (has_global(&s->d)) {
		wr(test, s, global_ctrl_msr(&s->d), 0);
		wr(test, s, x86_core_evtsel_msr(&s->d, i), sel | ARCH_PERFMON_EVENTSEL_ENABLE);
		x86_pmu_model_count(s->m, cycles, true, 100);
		KUNIT_EXPECT_EQ_MSG(test, rd(test, s, x86_core_ctr_msr(&s->d, i)), 0,
				    "counter %u disabled globally", i);
		wr(test, s, global_ctrl_msr(&s->d), BIT_ULL(i));
	}
	wr(test, s, x86_core_evtsel_msr(&s->d, i), sel | ARCH_PERFMON_EVENTSEL_ENABLE);
	x86_pmu_model_count(s->m, cycles, true, 100);
	x86_pmu_model_count(s->m, &other, true, 7);
	KUNIT_EXPECT_EQ_MSG(test, rd(test, s, x86_core_ctr_msr(&s->d, i)), 100,
			    "counter %u enabled", i);
	wr(test, s, x86_core_evtsel_msr(&s->d, i), 0);
}

static void perf_x86_model_enable(struct kunit *test)
{
	struct pmu_setup s;

	setup(test, &s);
	check_enable(test, &s, 0);
	check_enable(test, &s, s.d.num_gp - 1);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(s.m), 0);
}

/* USR counts CPL 3 only, OS CPL 0 only; both or neither as expected */
static void perf_x86_model_usr_os(struct kunit *test)
{
	static const u64 rings[] = {
		0, ARCH_PERFMON_EVENTSEL_USR, ARCH_PERFMON_EVENTSEL_OS,
		ARCH_PERFMON_EVENTSEL_USR | ARCH_PERFMON_EVENTSEL_OS,
	};
	struct pmu_setup s;
	unsigned int r;
	u64 want;

	setup(test, &s);
	for (r = 0; r < ARRAY_SIZE(rings); r++) {
		wr(test, &s, x86_core_ctr_msr(&s.d, 0), 0);
		wr(test, &s, x86_core_evtsel_msr(&s.d, 0), select_of(&s.fx->cycles) |
		   rings[r] | ARCH_PERFMON_EVENTSEL_ENABLE);
		x86_pmu_model_count(s.m, &s.fx->cycles, true, 3);
		x86_pmu_model_count(s.m, &s.fx->cycles, false, 40);
		want = (rings[r] & ARCH_PERFMON_EVENTSEL_USR ? 3 : 0) +
		       (rings[r] & ARCH_PERFMON_EVENTSEL_OS ? 40 : 0);
		KUNIT_EXPECT_EQ_MSG(test, rd(test, &s, x86_core_ctr_msr(&s.d, 0)),
				    want, "ring bits %#llx", rings[r]);
	}
}

static void count_pmi(struct x86_pmu_model *m, void *arg)
{
	(*(unsigned int *)arg)++;
}

/*
 * A counter 10 short of its width wraps after 15 events to 5, sets its
 * overflow status and raises one PMI, which masks LVTPC on Intel.
 */
static void perf_x86_model_wrap(struct kunit *test)
{
	unsigned int calls = 0;
	struct pmu_setup s;
	u64 mask;

	setup(test, &s);
	mask = x86_core_gp_mask(&s.d);
	x86_pmu_model_set_pmi(s.m, count_pmi, &calls);
	x86_hw_write_lvtpc(s.hw, APIC_DM_NMI);
	wr(test, &s, x86_core_ctr_msr(&s.d, 0), (u64)-10 & mask);
	KUNIT_EXPECT_EQ(test, rd(test, &s, x86_core_ctr_msr(&s.d, 0)), mask - 9);
	wr(test, &s, x86_core_evtsel_msr(&s.d, 0), select_of(&s.fx->cycles) |
	   EN_USR_OS | ARCH_PERFMON_EVENTSEL_INT);

	x86_pmu_model_count(s.m, &s.fx->cycles, false, 9);
	KUNIT_EXPECT_EQ(test, calls, 0);
	x86_pmu_model_count(s.m, &s.fx->cycles, false, 6);
	KUNIT_EXPECT_EQ(test, rd(test, &s, x86_core_ctr_msr(&s.d, 0)), 5);
	KUNIT_EXPECT_EQ(test, calls, 1);
	KUNIT_EXPECT_EQ(test, x86_pmu_model_pmis(s.m), 1);
	if (has_global(&s.d)) {
		KUNIT_EXPECT_EQ(test, rd(test, &s, global_status_msr(&s.d)), BIT_ULL(0));
		wr(test, &s, status_clear_msr(&s.d), BIT_ULL(0));
		KUNIT_EXPECT_EQ(test, rd(test, &s, global_status_msr(&s.d)), 0);
	}

	/* the next wrap finds LVTPC masked on Intel until it is rewritten */
	wr(test, &s, x86_core_ctr_msr(&s.d, 0), mask);
	x86_pmu_model_count(s.m, &s.fx->cycles, false, 1);
	if (s.d.vendor == X86_CORE_INTEL) {
		KUNIT_EXPECT_EQ(test, calls, 1);
		KUNIT_EXPECT_EQ(test, x86_pmu_model_pmis_masked(s.m), 1);
		x86_hw_write_lvtpc(s.hw, APIC_DM_NMI);
	} else {
		KUNIT_EXPECT_EQ(test, calls, 2);
	}
	KUNIT_EXPECT_EQ(test, x86_pmu_model_faults(s.m), 0);
}

/* Intel: full-width writes where PERF_CAPABILITIES allows, else 32 bits */
static void perf_x86_model_full_width(struct kunit *test)
{
	struct pmu_setup s;
	u64 mask;
	int ret;

	setup(test, &s);
	if (s.d.vendor != X86_CORE_INTEL)
		kunit_skip(test, "not Intel");
	mask = x86_core_gp_mask(&s.d);
	ret = x86_hw_wrmsr(s.hw, MSR_IA32_PMC0, BIT_ULL(33));
	KUNIT_EXPECT_EQ(test, ret, s.fx->pmu.full_width_write ? 0 : -EIO);
	if (!ret)
		KUNIT_EXPECT_EQ(test, rd(test, &s, MSR_ARCH_PERFMON_PERFCTR0), BIT_ULL(33));

	/* the legacy alias takes bits 31:0, sign-extended */
	wr(test, &s, MSR_ARCH_PERFMON_PERFCTR0, BIT_ULL(33) | 0x80000001);
	KUNIT_EXPECT_EQ(test, rd(test, &s, MSR_ARCH_PERFMON_PERFCTR0),
			(0xffffffff80000001ULL & mask));
	wr(test, &s, MSR_ARCH_PERFMON_PERFCTR0, BIT_ULL(33) | 5);
	KUNIT_EXPECT_EQ(test, rd(test, &s, MSR_ARCH_PERFMON_PERFCTR0), 5);

	/* what detection names as the counter takes a value past 32 bits */
	wr(test, &s, x86_core_ctr_msr(&s.d, 0), s.d.full_width_write ? BIT_ULL(40) : 7);
	KUNIT_EXPECT_EQ(test, rd(test, &s, x86_core_ctr_msr(&s.d, 0)),
			s.d.full_width_write ? BIT_ULL(40) : 7);
}

/* Intel: fixed counter 1 counts cycles per IA32_FIXED_CTR_CTRL and global */
static void perf_x86_model_fixed(struct kunit *test)
{
	struct pmu_setup s;
	unsigned int calls = 0;
	u64 val;

	setup(test, &s);
	if (s.d.vendor != X86_CORE_INTEL || !(s.d.fixed_mask & BIT(1)))
		kunit_skip(test, "no fixed counter 1");
	x86_pmu_model_set_pmi(s.m, count_pmi, &calls);
	x86_hw_write_lvtpc(s.hw, APIC_DM_NMI);
	wr(test, &s, MSR_CORE_PERF_FIXED_CTR_CTRL,
	   intel_fixed_bits_by_idx(1, INTEL_FIXED_0_USER | INTEL_FIXED_0_ENABLE_PMI));
	x86_pmu_model_count(s.m, &s.fx->cycles, true, 50);
	KUNIT_EXPECT_EQ(test, rd(test, &s, MSR_CORE_PERF_FIXED_CTR1), 0);
	wr(test, &s, MSR_CORE_PERF_GLOBAL_CTRL, BIT_ULL(32 + 1));
	x86_pmu_model_count(s.m, &s.fx->cycles, true, 50);
	x86_pmu_model_count(s.m, &s.fx->cycles, false, 20);
	KUNIT_EXPECT_EQ(test, rd(test, &s, MSR_CORE_PERF_FIXED_CTR1), 50);
	KUNIT_EXPECT_EQ(test, x86_hw_rdpmc(s.hw, INTEL_PMC_FIXED_RDPMC_BASE | 1, &val), 0);
	KUNIT_EXPECT_EQ(test, val, 50);

	/* wrap at the fixed width */
	wr(test, &s, MSR_CORE_PERF_FIXED_CTR1, BIT_ULL(s.d.fixed_width) - 1);
	x86_pmu_model_count(s.m, &s.fx->cycles, true, 2);
	KUNIT_EXPECT_EQ(test, rd(test, &s, MSR_CORE_PERF_FIXED_CTR1), 1);
	KUNIT_EXPECT_EQ(test, rd(test, &s, MSR_CORE_PERF_GLOBAL_STATUS), BIT_ULL(33));
	KUNIT_EXPECT_EQ(test, calls, 1);
}

/* RDPMC reads the counter it names and faults on any other index */
static void perf_x86_model_rdpmc(struct kunit *test)
{
	struct pmu_setup s;
	unsigned int last;
	u64 val;

	setup(test, &s);
	last = s.d.num_gp - 1;
	wr(test, &s, x86_core_ctr_msr(&s.d, last), 0x1234);
	KUNIT_EXPECT_EQ(test, x86_hw_rdpmc(s.hw, last, &val), 0);
	KUNIT_EXPECT_EQ(test, val, 0x1234);
	KUNIT_EXPECT_EQ(test, x86_hw_rdpmc(s.hw, s.d.num_gp, &val), -EIO);
	KUNIT_EXPECT_EQ(test, x86_hw_rdpmc(s.hw, INTEL_PMC_FIXED_RDPMC_BASE | 15, &val),
			-EIO);
}

/* v4: STATUS_SET sets what STATUS_RESET clears */
static void perf_x86_model_status_set(struct kunit *test)
{
	struct pmu_setup s;
	u32 set_msr;

	setup(test, &s);
	if (s.d.vendor == X86_CORE_INTEL && s.d.version >= 4)
		set_msr = X86_HW_MSR_GLOBAL_STATUS_SET;
	else if (s.d.perfmon_v2)
		set_msr = MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET;
	else
		kunit_skip(test, "no status set MSR");
	wr(test, &s, set_msr, BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, rd(test, &s, global_status_msr(&s.d)), BIT_ULL(1));
	wr(test, &s, status_clear_msr(&s.d), BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, rd(test, &s, global_status_msr(&s.d)), 0);
}

static struct kunit_case perf_x86_model_cases[] = {
	KUNIT_CASE_PARAM(perf_x86_model_wrmsr, wrmsr_gen_params),
	KUNIT_CASE_PARAM(perf_x86_model_enable, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_model_usr_os, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_model_wrap, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_model_full_width, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_model_fixed, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_model_rdpmc, x86_pmu_fixture_gen_params),
	KUNIT_CASE_PARAM(perf_x86_model_status_set, x86_pmu_fixture_gen_params),
	{}
};

static struct kunit_suite perf_x86_model_suite = {
	.name = "perf_x86_model",
	.test_cases = perf_x86_model_cases,
};

kunit_test_suite(perf_x86_model_suite);
