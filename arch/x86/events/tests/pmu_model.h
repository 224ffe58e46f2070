/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The KUnit model of an x86 core PMU (pmu_model.c) and the CPUID fixtures
 * of real parts it is built from (pmu_fixtures.c).  A test makes a model
 * from a fixture, hands x86_pmu_model_hw() to the code under test in place
 * of x86_hw_native, says how many events happened, and reads back what the
 * code programmed.
 *
 * Locking: none.  A model belongs to the one test that made it; its
 * operations and its PMI callback run in that test's thread.
 */
#ifndef _ARCH_X86_EVENTS_PMU_MODEL_H
#define _ARCH_X86_EVENTS_PMU_MODEL_H

#include <linux/types.h>

#include "../detect.h"
#include "../hw.h"

struct kunit;
struct x86_pmu_model;

/* one CPUID answer of a fixture */
struct x86_pmu_model_leaf {
	u32 leaf;
	u32 subleaf;
	struct x86_hw_cpuid r;
};

/*
 * An event the model can be told about.  A general-purpose counter counts
 * it when its event select and unit mask (and, on AMD, EventSelect[11:8])
 * are @select and @select_hi; the Intel fixed counter @fixed counts it too
 * (-1: none does).
 */
struct x86_pmu_model_event {
	u16 select;
	u8 select_hi;
	s8 fixed;
};

/*
 * struct x86_pmu_model_fixture - a part, as the model plays it
 *
 * @name: the part, for test names.
 * @leaves: its CPUID answers (leaves not listed read as zeros).
 * @nr_leaves: how many.
 * @perf_capabilities: IA32_PERF_CAPABILITIES, readable where CPUID 1 ECX
 *	has PDCM.
 * @pmu: what the part has: the model's own layout, and what detection
 *	must find.  Of it the model uses @vendor, @version, @num_gp,
 *	@gp_width, @fixed_mask, @fixed_width, @anythread_deprecated,
 *	@full_width_write, @core_ext, @perfmon_v2 and (AMD) @lbr_nr, and
 *	nothing else.
 * @evtsel_extra: Intel: the PERFEVTSEL bits above 31 the part accepts.
 * @msrs_read_zero: without a PMU, every MSR reads 0 and takes writes
 *	without effect (as under QEMU TCG) rather than raising #GP.
 * @cycles: the part's core-cycles event.
 */
struct x86_pmu_model_fixture {
	const char *name;
	const struct x86_pmu_model_leaf *leaves;
	unsigned int nr_leaves;
	u64 perf_capabilities;
	struct x86_core_desc pmu;
	u64 evtsel_extra;
	bool msrs_read_zero;
	struct x86_pmu_model_event cycles;
};

/* called as the local APIC would raise the PMI; @arg as given */
typedef void (*x86_pmu_model_pmi_fn)(struct x86_pmu_model *m, void *arg);

struct x86_pmu_model *x86_pmu_model_new(struct kunit *test,
					const struct x86_pmu_model_fixture *fx);
const struct x86_hw *x86_pmu_model_hw(struct x86_pmu_model *m);
void x86_pmu_model_power_cycle(struct x86_pmu_model *m);
void x86_pmu_model_set_pmi(struct x86_pmu_model *m, x86_pmu_model_pmi_fn fn,
			   void *arg);
void x86_pmu_model_count(struct x86_pmu_model *m,
			 const struct x86_pmu_model_event *ev, bool user, u64 n);
void x86_pmu_model_set_metrics(struct x86_pmu_model *m, u64 metrics);
unsigned int x86_pmu_model_pmis(const struct x86_pmu_model *m);
unsigned int x86_pmu_model_pmis_masked(const struct x86_pmu_model *m);
unsigned int x86_pmu_model_faults(const struct x86_pmu_model *m);
u32 x86_pmu_model_lvtpc(const struct x86_pmu_model *m);
u64 x86_pmu_model_debugctl(const struct x86_pmu_model *m);
void x86_pmu_model_set_amd_lbr(struct x86_pmu_model *m, unsigned int n,
			       u64 from, u64 to);
u64 x86_pmu_model_amd_lbr_select(const struct x86_pmu_model *m);
u64 x86_pmu_model_amd_dbg_extn(const struct x86_pmu_model *m);

/* the fixtures (pmu_fixtures.c) */
extern const struct x86_pmu_model_fixture x86_pmu_fixture_intel_core2;
extern const struct x86_pmu_model_fixture x86_pmu_fixture_intel_skl;
extern const struct x86_pmu_model_fixture x86_pmu_fixture_intel_spr;
/* a hybrid part's two core types, not in x86_pmu_fixtures[] */
extern const struct x86_pmu_model_fixture x86_pmu_fixture_intel_adl_p;
extern const struct x86_pmu_model_fixture x86_pmu_fixture_intel_adl_e;
extern const struct x86_pmu_model_fixture x86_pmu_fixture_intel_mtl_p;
extern const struct x86_pmu_model_fixture x86_pmu_fixture_intel_v5_holes;
extern const struct x86_pmu_model_fixture x86_pmu_fixture_amd_k8;
extern const struct x86_pmu_model_fixture x86_pmu_fixture_amd_zen2;
extern const struct x86_pmu_model_fixture x86_pmu_fixture_amd_zen4;
extern const struct x86_pmu_model_fixture x86_pmu_fixture_intel_hidden;
extern const struct x86_pmu_model_fixture x86_pmu_fixture_amd_gp;
extern const struct x86_pmu_model_fixture x86_pmu_fixture_qemu_tcg;
extern const struct x86_pmu_model_fixture *const x86_pmu_fixtures[];
const void *x86_pmu_fixture_gen_params(const void *prev, char *desc);

/* the fixture a parameterised test runs with */
#define x86_pmu_test_fixture(test)					\
	(*(const struct x86_pmu_model_fixture *const *)(test)->param_value)

#endif /* _ARCH_X86_EVENTS_PMU_MODEL_H */
