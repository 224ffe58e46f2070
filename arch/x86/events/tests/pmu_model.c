// SPDX-License-Identifier: GPL-2.0
/*
 * A model of an x86 core PMU for KUnit, written from the Intel SDM (vol.
 * 3B, "Performance Monitoring", architectural perfmon versions 1 to 5) and
 * the AMD APM (vol. 2, "Performance Monitoring Counters": the legacy four
 * counters, the core-counter extension and PerfMonV2; "Last Branch Stack",
 * LbrExtV2, as registers that hold what is written).  It keeps the PMU
 * MSRs, raises #GP (-EIO) where the CPU would, answers CPUID from a
 * fixture, advances the counters a test says events happened on, wraps
 * them at their width, sets the overflow status and raises the PMI through
 * a local APIC performance-counter LVT entry of its own.
 *
 * Where the manuals leave a choice open the model is the stricter reading:
 * bits above a counter's width written through a full-width MSR are #GP,
 * and AMD's PerfMonV2 global control, like Intel's, comes out of reset
 * with every general-purpose counter enabled.  Edge detect, invert and the
 * counter mask are kept but do not change what is counted.
 *
 * Locking: none; see pmu_model.h.
 */
#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <asm/apicdef.h>
#include <asm/msr-index.h>
#include <asm/perf_event.h>

#include "pmu_model.h"

/* what an MSR number is to the modelled part */
enum model_reg {
	REG_NONE,		/* not a PMU MSR of this part: #GP */
	REG_EVTSEL,		/* IA32_PERFEVTSELx, AMD PERF_CTLx */
	REG_CTR,		/* IA32_PMCx (32-bit writes), AMD PERF_CTRx */
	REG_CTR_FULL,		/* IA32_A_PMCx */
	REG_FIXED,		/* IA32_FIXED_CTRx */
	REG_FIXED_CTRL,		/* IA32_FIXED_CTR_CTRL */
	REG_PERF_CAP,		/* IA32_PERF_CAPABILITIES */
	REG_STATUS,		/* Intel and AMD global status (read-only) */
	REG_GLOBAL_CTRL,	/* Intel and AMD global control */
	REG_STATUS_CLR,		/* Intel OVF_CTRL/STATUS_RESET, AMD STATUS_CLR */
	REG_STATUS_SET,		/* Intel (v4) and AMD STATUS_SET */
	REG_INUSE,		/* Intel IA32_PERF_GLOBAL_INUSE (v4) */
	REG_DEBUGCTL,		/* Intel IA32_DEBUGCTL */
	REG_EXTRA,		/* Intel OFFCORE_RSP_0/1, PEBS_LD_LAT, _FRONTEND */
	REG_METRICS,		/* Intel MSR_PERF_METRICS (PERF_CAPABILITIES) */
	REG_AMD_LBR,		/* AMD LBR stack FromIp/ToIp (idx: 2n, 2n + 1) */
	REG_AMD_LBR_SELECT,	/* AMD LBR_SELECT */
	REG_AMD_DBG_EXTN,	/* AMD DBG_EXTN_CFG */
};

/* IA32_DEBUGCTL: LBR, BTF and bits 15:6; 5:2 and 63:16 reserved (SDM) */
#define DEBUGCTL_VALID		(GENMASK_ULL(15, 6) | GENMASK_ULL(1, 0))
/* AMD's LBR_SELECT: the filter bits 8:0 (APM) */
#define AMD_LBR_SELECT_VALID	GENMASK_ULL(8, 0)

/* Intel overflow status bits that are not counters (SDM) */
#define STATUS_V2_EXTRA		(GLOBAL_STATUS_BUFFER_OVF | GLOBAL_STATUS_COND_CHG)
#define STATUS_V4_EXTRA		(GLOBAL_STATUS_TRACE_TOPAPMI | GENMASK_ULL(61, 58))

/* AMD PERF_CTL: bits 19, 21, 39:36 and 63:42 are reserved (APM) */
#define AMD_EVTSEL_VALID	(GENMASK_ULL(41, 40) | GENMASK_ULL(35, 22) | \
				 BIT_ULL(20) | GENMASK_ULL(18, 0))

struct x86_pmu_model {
	const struct x86_pmu_model_fixture *fx;
	const struct x86_core_desc *pmu;	/* the part's layout: fx->pmu */
	struct x86_hw hw;
	u64 evtsel[INTEL_PMC_MAX_GENERIC];
	u64 ctr[INTEL_PMC_MAX_GENERIC];
	u64 fixed[INTEL_PMC_MAX_FIXED];
	u64 fixed_ctrl;
	u64 global_ctrl;
	u64 status;
	u64 debugctl;
	u64 extra[4];			/* OFFCORE_RSP_0/1, LD_LAT, FRONTEND */
	u64 metrics;			/* MSR_PERF_METRICS */
	u64 amd_lbr[2 * X86_LBR_MAX];	/* AMD's LBR stack, FromIp/ToIp pairs */
	u64 amd_lbr_select;
	u64 amd_dbg_extn;
	u32 lvtpc;
	x86_pmu_model_pmi_fn pmi;
	void *pmi_arg;
	unsigned int pmis;		/* PMIs delivered */
	unsigned int pmis_masked;	/* PMIs lost to a masked LVTPC */
	unsigned int faults;		/* #GPs raised */
};

static bool is_intel(const struct x86_pmu_model *m)
{
	return m->pmu->vendor == X86_CORE_INTEL;
}

static bool is_amd(const struct x86_pmu_model *m)
{
	return m->pmu->vendor == X86_CORE_AMD;
}

/* whether the part has global control and overflow status MSRs */
static bool has_global(const struct x86_pmu_model *m)
{
	return (is_intel(m) && m->pmu->version >= 2) ||
	       (is_amd(m) && m->pmu->perfmon_v2);
}

static u64 width_mask(u8 width)
{
	return width >= 64 ? ~0ULL : BIT_ULL(width) - 1;
}

static u64 gp_bits(const struct x86_pmu_model *m)
{
	return m->pmu->num_gp ? GENMASK_ULL(m->pmu->num_gp - 1, 0) : 0;
}

/* the counter bits of the global MSRs: GP counters, then fixed from 32 */
static u64 counter_bits(const struct x86_pmu_model *m)
{
	return gp_bits(m) | ((u64)m->pmu->fixed_mask << 32);
}

static bool msr_in(u32 msr, u32 base, unsigned int n, unsigned int *idx)
{
	if (msr < base || msr - base >= n)
		return false;
	*idx = msr - base;
	return true;
}

static bool has_pdcm(const struct x86_pmu_model *m)
{
	unsigned int i;

	for (i = 0; i < m->fx->nr_leaves; i++)
		if (m->fx->leaves[i].leaf == 1)
			return m->fx->leaves[i].r.ecx & X86_HW_CPUID1_ECX_PDCM;
	return false;
}

/* PERF_METRICS: the capability says so, and fixed counter 3 exists */
static bool has_metrics(const struct x86_pmu_model *m)
{
	return is_intel(m) && has_pdcm(m) && (m->pmu->fixed_mask & BIT(3)) &&
	       (m->fx->perf_capabilities & BIT_ULL(PERF_CAP_METRICS_IDX));
}

static enum model_reg intel_decode(const struct x86_pmu_model *m, u32 msr,
				   unsigned int *idx)
{
	const struct x86_core_desc *p = m->pmu;

	if (msr_in(msr, MSR_ARCH_PERFMON_EVENTSEL0, p->num_gp, idx))
		return REG_EVTSEL;
	if (msr_in(msr, MSR_ARCH_PERFMON_PERFCTR0, p->num_gp, idx))
		return REG_CTR;
	if (p->full_width_write && msr_in(msr, MSR_IA32_PMC0, p->num_gp, idx))
		return REG_CTR_FULL;
	if (msr == MSR_IA32_PERF_CAPABILITIES && has_pdcm(m))
		return REG_PERF_CAP;
	if (msr == MSR_IA32_DEBUGCTLMSR)
		return REG_DEBUGCTL;
	/* the extra registers of the parts with version 4 on */
	if (p->version >= 4 && msr_in(msr, MSR_OFFCORE_RSP_0, 2, idx))
		return REG_EXTRA;
	if (p->version >= 4 && msr_in(msr, MSR_PEBS_LD_LAT_THRESHOLD, 2, idx)) {
		*idx += 2;
		return REG_EXTRA;
	}
	if (msr == MSR_PERF_METRICS && has_metrics(m))
		return REG_METRICS;
	if (p->version < 2)
		return REG_NONE;
	if (msr_in(msr, MSR_CORE_PERF_FIXED_CTR0, INTEL_PMC_MAX_FIXED, idx))
		return p->fixed_mask & BIT(*idx) ? REG_FIXED : REG_NONE;
	switch (msr) {
	case MSR_CORE_PERF_FIXED_CTR_CTRL:
		return REG_FIXED_CTRL;
	case MSR_CORE_PERF_GLOBAL_STATUS:
		return REG_STATUS;
	case MSR_CORE_PERF_GLOBAL_CTRL:
		return REG_GLOBAL_CTRL;
	case MSR_CORE_PERF_GLOBAL_OVF_CTRL:
		return REG_STATUS_CLR;
	case X86_HW_MSR_GLOBAL_STATUS_SET:
		return p->version >= 4 ? REG_STATUS_SET : REG_NONE;
	case X86_HW_MSR_GLOBAL_INUSE:
		return p->version >= 4 ? REG_INUSE : REG_NONE;
	}
	return REG_NONE;
}

static enum model_reg amd_decode(const struct x86_pmu_model *m, u32 msr,
				 unsigned int *idx)
{
	const struct x86_core_desc *p = m->pmu;
	unsigned int legacy = min_t(unsigned int, p->num_gp, AMD64_NUM_COUNTERS);

	/* the legacy MSRs alias the first four counters */
	if (msr_in(msr, MSR_K7_EVNTSEL0, legacy, idx))
		return REG_EVTSEL;
	if (msr_in(msr, MSR_K7_PERFCTR0, legacy, idx))
		return REG_CTR;
	if (p->core_ext && msr_in(msr, MSR_F15H_PERF_CTL, 2 * p->num_gp, idx)) {
		bool ctr = *idx & 1;

		*idx /= 2;
		return ctr ? REG_CTR : REG_EVTSEL;
	}
	if (!p->perfmon_v2)
		return REG_NONE;
	if (p->lbr_nr) {
		if (msr_in(msr, MSR_AMD_SAMP_BR_FROM, 2 * p->lbr_nr, idx))
			return REG_AMD_LBR;
		if (msr == MSR_AMD64_LBR_SELECT)
			return REG_AMD_LBR_SELECT;
		if (msr == MSR_AMD_DBG_EXTN_CFG)
			return REG_AMD_DBG_EXTN;
		if (msr == MSR_IA32_DEBUGCTLMSR)
			return REG_DEBUGCTL;
	}
	switch (msr) {
	case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS:
		return REG_STATUS;
	case MSR_AMD64_PERF_CNTR_GLOBAL_CTL:
		return REG_GLOBAL_CTRL;
	case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR:
		return REG_STATUS_CLR;
	case MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_SET:
		return REG_STATUS_SET;
	}
	return REG_NONE;
}

static enum model_reg decode(const struct x86_pmu_model *m, u32 msr,
			     unsigned int *idx)
{
	*idx = 0;
	if (is_intel(m))
		return intel_decode(m, msr, idx);
	if (is_amd(m))
		return amd_decode(m, msr, idx);
	return REG_NONE;
}

/* IA32_PERF_GLOBAL_INUSE: which counters are programmed at all */
static u64 intel_inuse(const struct x86_pmu_model *m)
{
	u64 inuse = 0;
	unsigned int i;

	for (i = 0; i < m->pmu->num_gp; i++)
		if (m->evtsel[i] & (ARCH_PERFMON_EVENTSEL_EVENT |
				    ARCH_PERFMON_EVENTSEL_UMASK))
			inuse |= BIT_ULL(i);
	for (i = 0; i < INTEL_PMC_MAX_FIXED; i++)
		if ((m->fixed_ctrl >> (i * INTEL_FIXED_BITS_STRIDE)) & 0xf)
			inuse |= BIT_ULL(32 + i);
	return inuse;
}

static int model_rdmsr(void *priv, u32 msr, u64 *val)
{
	struct x86_pmu_model *m = priv;
	unsigned int i;

	*val = 0;
	switch (decode(m, msr, &i)) {
	case REG_NONE:
		if (m->fx->msrs_read_zero)
			return 0;
		m->faults++;
		return -EIO;
	case REG_EVTSEL:
		*val = m->evtsel[i];
		break;
	case REG_CTR:
	case REG_CTR_FULL:
		*val = m->ctr[i];
		break;
	case REG_FIXED:
		*val = m->fixed[i];
		break;
	case REG_FIXED_CTRL:
		*val = m->fixed_ctrl;
		break;
	case REG_PERF_CAP:
		*val = m->fx->perf_capabilities;
		break;
	case REG_STATUS:
		*val = m->status;
		break;
	case REG_GLOBAL_CTRL:
		*val = m->global_ctrl;
		break;
	case REG_STATUS_CLR:
	case REG_STATUS_SET:
		break;		/* write-only: reads as 0 */
	case REG_INUSE:
		*val = intel_inuse(m);
		break;
	case REG_DEBUGCTL:
		*val = m->debugctl;
		break;
	case REG_METRICS:
		*val = m->metrics;
		break;
	case REG_EXTRA:
		*val = m->extra[i];
		break;
	case REG_AMD_LBR:
		*val = m->amd_lbr[i];
		break;
	case REG_AMD_LBR_SELECT:
		*val = m->amd_lbr_select;
		break;
	case REG_AMD_DBG_EXTN:
		*val = m->amd_dbg_extn;
		break;
	}
	return 0;
}

/* the PERFEVTSEL / PERF_CTL bits this part accepts */
static u64 evtsel_valid(const struct x86_pmu_model *m)
{
	u64 valid;

	if (is_amd(m))
		return AMD_EVTSEL_VALID;
	valid = GENMASK_ULL(31, 0) | m->fx->evtsel_extra;
	/* AnyThread came with version 3 and went with EDX[15] */
	if (m->pmu->version < 3 || m->pmu->anythread_deprecated)
		valid &= ~ARCH_PERFMON_EVENTSEL_ANY;
	return valid;
}

/* IA32_FIXED_CTR_CTRL: four bits for each fixed counter present */
static u64 fixed_ctrl_valid(const struct x86_pmu_model *m)
{
	u64 field = INTEL_FIXED_0_KERNEL | INTEL_FIXED_0_USER |
		    INTEL_FIXED_0_ENABLE_PMI;
	u64 valid = 0;
	unsigned int i;

	if (m->pmu->version >= 3 && !m->pmu->anythread_deprecated)
		field |= INTEL_FIXED_0_ANYTHREAD;
	for (i = 0; i < INTEL_PMC_MAX_FIXED; i++)
		if (m->pmu->fixed_mask & BIT(i))
			valid |= intel_fixed_bits_by_idx(i, field);
	return valid;
}

/* the bits of the status clear (and, @set, set) MSRs */
static u64 status_bits(const struct x86_pmu_model *m, bool set)
{
	u64 bits = counter_bits(m);

	if (!is_intel(m))
		return bits;
	bits |= STATUS_V2_EXTRA;
	if (m->pmu->version >= 4)
		bits |= STATUS_V4_EXTRA;
	if (set)
		bits &= ~GLOBAL_STATUS_COND_CHG;
	return bits;
}

/* a counter write: true, or false for #GP */
static bool write_counter(struct x86_pmu_model *m, enum model_reg reg,
			  unsigned int i, u64 val)
{
	u64 mask = width_mask(m->pmu->gp_width);

	/* Intel IA32_PMCx: bits 31:0 written, sign-extended to the width */
	if (reg == REG_CTR && is_intel(m))
		val = (u64)(s64)(s32)val & mask;
	if (val & ~mask)
		return false;
	m->ctr[i] = val;
	return true;
}

static bool model_write(struct x86_pmu_model *m, u32 msr, u64 val)
{
	enum model_reg reg;
	unsigned int i;

	reg = decode(m, msr, &i);
	switch (reg) {
	case REG_NONE:
		return m->fx->msrs_read_zero;
	case REG_PERF_CAP:
	case REG_STATUS:
	case REG_INUSE:
		return false;	/* read-only */
	case REG_EVTSEL:
		if (val & ~evtsel_valid(m))
			return false;
		m->evtsel[i] = val;
		return true;
	case REG_CTR:
	case REG_CTR_FULL:
		return write_counter(m, reg, i, val);
	case REG_FIXED:
		if (val & ~width_mask(m->pmu->fixed_width))
			return false;
		m->fixed[i] = val;
		return true;
	case REG_FIXED_CTRL:
		if (val & ~fixed_ctrl_valid(m))
			return false;
		m->fixed_ctrl = val;
		return true;
	case REG_GLOBAL_CTRL:
		if (val & ~(counter_bits(m) | (has_metrics(m) ?
			    BIT_ULL(GLOBAL_CTRL_EN_PERF_METRICS) : 0)))
			return false;
		m->global_ctrl = val;
		return true;
	case REG_STATUS_CLR:
		/*
		 * AMD's PerfCntrGlobalStatusClr ignores its reserved bits:
		 * Linux's AMD driver clears it with all ones.
		 */
		if (m->pmu->vendor != X86_CORE_AMD &&
		    (val & ~status_bits(m, false)))
			return false;
		m->status &= ~val;
		return true;
	case REG_STATUS_SET:
		if (val & ~status_bits(m, true))
			return false;
		m->status |= val;
		return true;
	case REG_DEBUGCTL:
		if (val & ~DEBUGCTL_VALID)
			return false;
		m->debugctl = val;
		return true;
	case REG_METRICS:
		m->metrics = val;
		return true;
	case REG_EXTRA:
		m->extra[i] = val;
		return true;
	case REG_AMD_LBR:
		m->amd_lbr[i] = val;
		return true;
	case REG_AMD_LBR_SELECT:
		if (val & ~AMD_LBR_SELECT_VALID)
			return false;
		m->amd_lbr_select = val;
		return true;
	case REG_AMD_DBG_EXTN:
		m->amd_dbg_extn = val;
		return true;
	}
	return false;
}

static int model_wrmsr(void *priv, u32 msr, u64 val)
{
	struct x86_pmu_model *m = priv;

	if (model_write(m, msr, val))
		return 0;
	m->faults++;
	return -EIO;
}

static void model_cpuid(void *priv, u32 leaf, u32 subleaf,
			struct x86_hw_cpuid *r)
{
	struct x86_pmu_model *m = priv;
	unsigned int i;

	*r = (struct x86_hw_cpuid){ };
	for (i = 0; i < m->fx->nr_leaves; i++) {
		if (m->fx->leaves[i].leaf == leaf &&
		    m->fx->leaves[i].subleaf == subleaf) {
			*r = m->fx->leaves[i].r;
			return;
		}
	}
}

/* RDPMC: Intel fixed counters at ECX bit 30, else the GP counter number */
static int model_rdpmc(void *priv, u32 ecx, u64 *val)
{
	struct x86_pmu_model *m = priv;
	u32 idx = ecx & ~INTEL_PMC_FIXED_RDPMC_BASE;

	*val = 0;
	if (is_intel(m) && (ecx & INTEL_PMC_FIXED_RDPMC_BASE)) {
		if (idx < INTEL_PMC_MAX_FIXED && (m->pmu->fixed_mask & BIT(idx))) {
			*val = m->fixed[idx];
			return 0;
		}
	} else if (m->pmu->vendor != X86_CORE_NONE && ecx < m->pmu->num_gp) {
		*val = m->ctr[ecx];
		return 0;
	}
	m->faults++;
	return -EIO;
}

static void model_write_lvtpc(void *priv, u32 val)
{
	struct x86_pmu_model *m = priv;

	m->lvtpc = val;
}

static const struct x86_hw_ops model_ops = {
	.read_msr	= model_rdmsr,
	.write_msr	= model_wrmsr,
	.cpuid		= model_cpuid,
	.read_pmc	= model_rdpmc,
	.write_lvtpc	= model_write_lvtpc,
};

/**
 * x86_pmu_model_new - a model of @fx's PMU, as it comes out of reset
 * @test: the test that owns it (it is freed when the test ends)
 * @fx: the part
 *
 * Return: the model, or NULL when out of memory.
 */
struct x86_pmu_model *x86_pmu_model_new(struct kunit *test,
					const struct x86_pmu_model_fixture *fx)
{
	struct x86_pmu_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	if (!m)
		return NULL;
	m->fx = fx;
	m->pmu = &fx->pmu;
	m->hw.ops = &model_ops;
	m->hw.priv = m;
	m->lvtpc = APIC_LVT_MASKED;
	/* the GP counters are enabled at reset, for version 1 software */
	if (has_global(m))
		m->global_ctrl = gp_bits(m);
	return m;
}

/**
 * x86_pmu_model_power_cycle - the part loses its PMU state (suspend to RAM)
 * @m: the model
 *
 * Every MSR goes back to its reset value and LVTPC is masked; the PMI
 * callback and the model's tallies stay.
 */
void x86_pmu_model_power_cycle(struct x86_pmu_model *m)
{
	memset(m->evtsel, 0, sizeof(m->evtsel));
	memset(m->ctr, 0, sizeof(m->ctr));
	memset(m->fixed, 0, sizeof(m->fixed));
	m->fixed_ctrl = 0;
	m->status = 0;
	m->debugctl = 0;
	m->global_ctrl = has_global(m) ? gp_bits(m) : 0;
	m->lvtpc = APIC_LVT_MASKED;
}

/* the x86_hw through which code under test reaches the model */
const struct x86_hw *x86_pmu_model_hw(struct x86_pmu_model *m)
{
	return &m->hw;
}

/* @fn is called, in the thread of x86_pmu_model_count(), for every PMI */
void x86_pmu_model_set_pmi(struct x86_pmu_model *m, x86_pmu_model_pmi_fn fn,
			   void *arg)
{
	m->pmi = fn;
	m->pmi_arg = arg;
}

/* the USR/OS filter: @usr and @os are the counter's bits */
static bool ring_counts(bool usr, bool os, bool user)
{
	return user ? usr : os;
}

static bool gp_counts(const struct x86_pmu_model *m, unsigned int i,
		      const struct x86_pmu_model_event *ev, bool user)
{
	u64 sel = m->evtsel[i];

	if (!(sel & ARCH_PERFMON_EVENTSEL_ENABLE))
		return false;
	if (!ring_counts(sel & ARCH_PERFMON_EVENTSEL_USR,
			 sel & ARCH_PERFMON_EVENTSEL_OS, user))
		return false;
	if (has_global(m) && !(m->global_ctrl & BIT_ULL(i)))
		return false;
	if ((sel & INTEL_ARCH_EVENT_MASK) != ev->select)
		return false;
	if (!is_amd(m))
		return true;
	/* the host runs the tests: a guest-only counter stays still */
	if ((sel & AMD64_EVENTSEL_GUESTONLY) && !(sel & AMD64_EVENTSEL_HOSTONLY))
		return false;
	return ((sel >> 32) & 0xf) == ev->select_hi;
}

static bool fixed_counts(const struct x86_pmu_model *m, unsigned int i,
			 bool user)
{
	u64 field = m->fixed_ctrl >> (i * INTEL_FIXED_BITS_STRIDE);

	if (!(m->global_ctrl & BIT_ULL(32 + i)))
		return false;
	return ring_counts(field & INTEL_FIXED_0_USER,
			   field & INTEL_FIXED_0_KERNEL, user);
}

/*
 * Advance one counter by @n; on a wrap, set its status bit.  Returns
 * whether the wrap asks for a PMI (@pmi: the counter's interrupt bit).
 */
static bool advance(struct x86_pmu_model *m, u64 *ctr, u8 width, u64 n,
		    unsigned int status_bit, bool pmi)
{
	u64 mask = width_mask(width);
	bool wrapped = n > mask - *ctr;

	*ctr = (*ctr + n) & mask;
	if (!wrapped)
		return false;
	if (has_global(m))
		m->status |= BIT_ULL(status_bit);
	return pmi;
}

/* the local APIC delivers the PMI unless LVTPC is masked */
static void raise_pmi(struct x86_pmu_model *m)
{
	if (m->lvtpc & APIC_LVT_MASKED) {
		m->pmis_masked++;
		return;
	}
	m->pmis++;
	/* Intel's APIC masks LVTPC as it delivers the PMI (SDM vol. 3B) */
	if (is_intel(m))
		m->lvtpc |= APIC_LVT_MASKED;
	if (m->pmi)
		m->pmi(m, m->pmi_arg);
}

/**
 * x86_pmu_model_count - @n events @ev happen
 * @m: the model
 * @ev: the event
 * @user: at CPL 3 (else CPL 0)
 * @n: how many
 *
 * Every counter programmed and enabled to count @ev in that mode advances
 * by @n; counters that wrap set their overflow status, and one PMI is
 * raised if any of them has its interrupt bit set.
 */
void x86_pmu_model_count(struct x86_pmu_model *m,
			 const struct x86_pmu_model_event *ev, bool user, u64 n)
{
	const struct x86_core_desc *p = m->pmu;
	bool pmi = false;
	unsigned int i;
	u64 field;

	for (i = 0; i < p->num_gp && p->vendor != X86_CORE_NONE; i++)
		if (gp_counts(m, i, ev, user))
			pmi |= advance(m, &m->ctr[i], p->gp_width, n, i,
				       m->evtsel[i] & ARCH_PERFMON_EVENTSEL_INT);
	i = ev->fixed;
	if (is_intel(m) && ev->fixed >= 0 && (p->fixed_mask & BIT(i)) &&
	    fixed_counts(m, i, user)) {
		field = m->fixed_ctrl >> (i * INTEL_FIXED_BITS_STRIDE);
		pmi |= advance(m, &m->fixed[i], p->fixed_width, n, 32 + i,
			       field & INTEL_FIXED_0_ENABLE_PMI);
	}
	if (pmi)
		raise_pmi(m);
}

/* what PERF_METRICS reads as from now on, as the part measured it */
void x86_pmu_model_set_metrics(struct x86_pmu_model *m, u64 metrics)
{
	m->metrics = metrics;
}

/* PMIs delivered so far */
unsigned int x86_pmu_model_pmis(const struct x86_pmu_model *m)
{
	return m->pmis;
}

/* PMIs that a masked LVTPC swallowed */
unsigned int x86_pmu_model_pmis_masked(const struct x86_pmu_model *m)
{
	return m->pmis_masked;
}

/* #GPs raised so far */
unsigned int x86_pmu_model_faults(const struct x86_pmu_model *m)
{
	return m->faults;
}

/* the LVTPC entry as the model's local APIC holds it */
u32 x86_pmu_model_lvtpc(const struct x86_pmu_model *m)
{
	return m->lvtpc;
}

/* IA32_DEBUGCTL (Intel, and AMD with LbrExtV2) */
u64 x86_pmu_model_debugctl(const struct x86_pmu_model *m)
{
	return m->debugctl;
}

/* AMD's LBR stack entry @n, as the CPU would have recorded it */
void x86_pmu_model_set_amd_lbr(struct x86_pmu_model *m, unsigned int n,
			       u64 from, u64 to)
{
	m->amd_lbr[2 * n] = from;
	m->amd_lbr[2 * n + 1] = to;
}

/* AMD's LBR_SELECT and DBG_EXTN_CFG */
u64 x86_pmu_model_amd_lbr_select(const struct x86_pmu_model *m)
{
	return m->amd_lbr_select;
}

u64 x86_pmu_model_amd_dbg_extn(const struct x86_pmu_model *m)
{
	return m->amd_dbg_extn;
}
