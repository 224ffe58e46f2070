// SPDX-License-Identifier: GPL-2.0
/*
 * KVM's virtual PMU on the host's PMUv3 (arm64): a guest of a few
 * instructions, run through /dev/kvm without an in-kernel interrupt
 * controller, programs its PMU and reports through MMIO writes what it
 * read.  KVM backs each guest counter with a perf event on the host PMU it
 * found through kvm_host_pmu_init(), selected here by its perf type
 * (KVM_ARM_VCPU_PMU_V3_SET_PMU), so this checks the PMUv3 driver's side of
 * the KVM contract: the struct arm_pmu registration, guest-only counting
 * (exclude_host), and overflows reaching KVM's handler, which stops and
 * restarts the host event through the PMU's own callbacks.
 *
 * It needs a kernel with KVM that runs at EL2 (QEMU: -M virt,
 * virtualization=on); elsewhere it skips.
 */
#include "pmuv3_helpers.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/kvm.h>

#include "../../kselftest_harness.h"

#ifdef __aarch64__

#define GUEST_RAM	0x40000000UL
#define GUEST_RAM_SIZE	0x10000UL
#define GUEST_MMIO	0x1000UL
#define GUEST_LOOP	10000

/*
 * The guest, AArch64 machine code run at EL1 with the MMU off; each store
 * to GUEST_MMIO is an exit that hands one value to the test.
 *   1. PMCR_EL0 as the guest sees it
 *   2. cycles and 3. instructions (event 0x08) counted over GUEST_LOOP
 *      iterations of a two-instruction loop
 *   4. PMOVSSET_EL0 after event counter 0, started 1000 instructions
 *      short of its 32-bit overflow, ran through the loop again
 */
static const uint32_t guest_code[] = {
	0xd282000a,	/* mov	x10, #0x1000		MMIO address */
	0xd53b9c00,	/* mrs	x0, pmcr_el0 */
	0xf9000140,	/* str	x0, [x10]		1. PMCR_EL0 */
	0xd2800101,	/* mov	x1, #0x8		INST_RETIRED */
	0xd51bec01,	/* msr	pmevtyper0_el0, x1 */
	0xd51befff,	/* msr	pmccfiltr_el0, xzr */
	0xd2b00001,	/* mov	x1, #0x80000000		cycle counter */
	0xf2800021,	/* movk	x1, #0x1		and counter 0 */
	0xd51b9c21,	/* msr	pmcntenset_el0, x1 */
	0xd53b9c02,	/* mrs	x2, pmcr_el0 */
	0xb2400842,	/* orr	x2, x2, #0x7		E, P, C */
	0xd51b9c02,	/* msr	pmcr_el0, x2 */
	0xd5033fdf,	/* isb */
	0xd284e203,	/* mov	x3, #10000 */
	0xf1000463,	/* 1: subs x3, x3, #1 */
	0x54ffffe1,	/* b.ne	1b */
	0xd5033fdf,	/* isb */
	0xd53b9d04,	/* mrs	x4, pmccntr_el0 */
	0xd53be805,	/* mrs	x5, pmevcntr0_el0 */
	0xd51b9c41,	/* msr	pmcntenclr_el0, x1 */
	0xf9000144,	/* str	x4, [x10]		2. cycles */
	0xf9000145,	/* str	x5, [x10]		3. instructions */
	0xd2bfffe1,	/* mov	x1, #0xffff0000 */
	0xf29f8301,	/* movk	x1, #0xfc18		1000 to overflow */
	0xd51be801,	/* msr	pmevcntr0_el0, x1 */
	0xd2800021,	/* mov	x1, #0x1 */
	0xd5189e21,	/* msr	pmintenset_el1, x1 */
	0xd51b9c21,	/* msr	pmcntenset_el0, x1 */
	0xd5033fdf,	/* isb */
	0xd284e203,	/* mov	x3, #10000 */
	0xf1000463,	/* 2: subs x3, x3, #1 */
	0x54ffffe1,	/* b.ne	2b */
	0xd5033fdf,	/* isb */
	0xd51b9c41,	/* msr	pmcntenclr_el0, x1 */
	0xd53b9e66,	/* mrs	x6, pmovsset_el0 */
	0xf9000146,	/* str	x6, [x10]		4. PMOVSSET_EL0 */
	0xd503207f,	/* 3: wfi */
	0x17ffffff,	/* b	3b */
};

#define CORE_REG(r) (KVM_REG_ARM64 | KVM_REG_SIZE_U64 | KVM_REG_ARM_CORE | \
		     (offsetof(struct kvm_regs, r) / sizeof(__u32)))

struct vm {
	int kvm, vm, vcpu;
	struct kvm_run *run;
	void *ram;
};

/* Open /dev/kvm, or say why the test cannot run. */
static const char *vm_open(struct vm *vm)
{
	vm->kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (vm->kvm < 0)
		return "no /dev/kvm (KVM needs EL2: QEMU -M virt,virtualization=on)";
	vm->vm = ioctl(vm->kvm, KVM_CREATE_VM, 0);
	if (vm->vm < 0)
		return "KVM_CREATE_VM failed";
	return NULL;
}

static void vm_close(struct vm *vm)
{
	if (vm->run)
		munmap(vm->run, ioctl(vm->kvm, KVM_GET_VCPU_MMAP_SIZE, 0));
	if (vm->ram)
		munmap(vm->ram, GUEST_RAM_SIZE);
	if (vm->vcpu >= 0)
		close(vm->vcpu);
	if (vm->vm >= 0)
		close(vm->vm);
	if (vm->kvm >= 0)
		close(vm->kvm);
}

/* Guest memory with the code at its start; a vCPU with @features. */
static int vm_setup(struct vm *vm, __u32 features)
{
	struct kvm_userspace_memory_region region = {
		.slot = 0,
		.guest_phys_addr = GUEST_RAM,
		.memory_size = GUEST_RAM_SIZE,
	};
	struct kvm_vcpu_init init;
	__u64 pc = GUEST_RAM;
	struct kvm_one_reg reg = { .id = CORE_REG(regs.pc),
				   .addr = (__u64)(unsigned long)&pc };

	vm->ram = mmap(NULL, GUEST_RAM_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (vm->ram == MAP_FAILED) {
		vm->ram = NULL;
		return -1;
	}
	memcpy(vm->ram, guest_code, sizeof(guest_code));
	region.userspace_addr = (__u64)(unsigned long)vm->ram;
	if (ioctl(vm->vm, KVM_SET_USER_MEMORY_REGION, &region))
		return -1;
	vm->vcpu = ioctl(vm->vm, KVM_CREATE_VCPU, 0);
	if (vm->vcpu < 0)
		return -1;
	vm->run = mmap(NULL, ioctl(vm->kvm, KVM_GET_VCPU_MMAP_SIZE, 0),
		       PROT_READ | PROT_WRITE, MAP_SHARED, vm->vcpu, 0);
	if (vm->run == MAP_FAILED) {
		vm->run = NULL;
		return -1;
	}
	if (ioctl(vm->vm, KVM_ARM_PREFERRED_TARGET, &init))
		return -1;
	init.features[0] |= features;
	if (ioctl(vm->vcpu, KVM_ARM_VCPU_INIT, &init))
		return -1;
	return ioctl(vm->vcpu, KVM_SET_ONE_REG, &reg);
}

static int pmu_attr(struct vm *vm, __u64 attr, void *arg)
{
	struct kvm_device_attr da = {
		.group = KVM_ARM_VCPU_PMU_V3_CTRL,
		.attr = attr,
		.addr = (__u64)(unsigned long)arg,
	};

	return ioctl(vm->vcpu, KVM_SET_DEVICE_ATTR, &da);
}

/*
 * Run the guest to its next MMIO write and return the value written, or
 * -1 on any other exit.  The PMU's interrupt line, which goes to user
 * space without an in-kernel GIC, makes KVM_RUN return EINTR: noted in
 * *irq and run again.
 */
static int64_t vm_next(struct vm *vm, int *irq)
{
	uint64_t val;

	for (;;) {
		if (ioctl(vm->vcpu, KVM_RUN, 0)) {
			if (errno != EINTR)
				return -1;
			if (vm->run->s.regs.device_irq_level & KVM_ARM_DEV_PMU)
				*irq = 1;
			continue;
		}
		if (vm->run->exit_reason != KVM_EXIT_MMIO ||
		    !vm->run->mmio.is_write ||
		    vm->run->mmio.phys_addr != GUEST_MMIO)
			return -1;
		memcpy(&val, vm->run->mmio.data, sizeof(val));
		return val;
	}
}

FIXTURE(kvm) {
	struct pmuv3_info pmu;
	struct vm vm;
};

FIXTURE_SETUP(kvm)
{
	const char *why;

	self->vm = (struct vm){ .kvm = -1, .vm = -1, .vcpu = -1 };
	if (pmuv3_find(&self->pmu))
		SKIP(return, "no PMUv3 PMU");
	why = vm_open(&self->vm);
	if (why)
		SKIP(return, "%s", why);
	pin_to_cpu(test_cpu());
}

FIXTURE_TEARDOWN(kvm)
{
	vm_close(&self->vm);
}

/* A vCPU asking for a PMUv3 is accepted: KVM found a host PMU. */
TEST_F(kvm, vcpu_has_pmu)
{
	ASSERT_EQ(0, vm_setup(&self->vm, 1U << KVM_ARM_VCPU_PMU_V3))
		TH_LOG("KVM_ARM_VCPU_INIT with PMU_V3: %s", strerror(errno));
}

/*
 * The host PMU chosen by its perf type is the series' PMUv3 (found in
 * KVM's list of host PMUs); a type that is no host PMU is ENXIO.
 */
TEST_F(kvm, set_pmu_by_type)
{
	int bad = 1;	/* PERF_TYPE_SOFTWARE */
	int type = self->pmu.type;

	ASSERT_EQ(0, vm_setup(&self->vm, 1U << KVM_ARM_VCPU_PMU_V3));
	EXPECT_EQ(-1, pmu_attr(&self->vm, KVM_ARM_VCPU_PMU_V3_SET_PMU, &bad));
	EXPECT_EQ(ENXIO, errno);
	EXPECT_EQ(0, pmu_attr(&self->vm, KVM_ARM_VCPU_PMU_V3_SET_PMU, &type))
		TH_LOG("SET_PMU %s (type %d): %s", self->pmu.name, type,
		       strerror(errno));
	EXPECT_EQ(0, pmu_attr(&self->vm, KVM_ARM_VCPU_PMU_V3_INIT, NULL));
}

/*
 * The guest sees counters, counts its own cycles and instructions (about
 * two instructions per iteration, none of the host's), and an overflow of
 * its counter is flagged in PMOVSSET_EL0 and raises its PMU interrupt.
 */
TEST_F(kvm, guest_counts)
{
	int type = self->pmu.type, irq = 0;
	int64_t pmcr, cycles, insns, ovs;

	ASSERT_EQ(0, vm_setup(&self->vm, 1U << KVM_ARM_VCPU_PMU_V3));
	ASSERT_EQ(0, pmu_attr(&self->vm, KVM_ARM_VCPU_PMU_V3_SET_PMU, &type));
	ASSERT_EQ(0, pmu_attr(&self->vm, KVM_ARM_VCPU_PMU_V3_INIT, NULL));

	pmcr = vm_next(&self->vm, &irq);
	ASSERT_NE(-1, pmcr);
	TH_LOG("guest PMCR_EL0 %#llx: %lld event counters",
	       (long long)pmcr, (long long)(pmcr >> 11) & 0x1f);
	EXPECT_GE((pmcr >> 11) & 0x1f, 1);

	cycles = vm_next(&self->vm, &irq);
	insns = vm_next(&self->vm, &irq);
	ASSERT_NE(-1, insns);
	TH_LOG("guest: %lld cycles, %lld instructions over %d iterations",
	       (long long)cycles, (long long)insns, GUEST_LOOP);
	EXPECT_GT(cycles, 0);
	EXPECT_GE(insns, 2 * GUEST_LOOP);
	EXPECT_LT(insns, 2 * GUEST_LOOP + 1000);

	ovs = vm_next(&self->vm, &irq);
	ASSERT_NE(-1, ovs);
	EXPECT_EQ(1, ovs & 1) TH_LOG("PMOVSSET_EL0 %#llx", (long long)ovs);
	EXPECT_EQ(1, irq);
}

#else

/* KVM's virtual PMU is tested on arm64 only. */
TEST(kvm_arm64_only)
{
	SKIP(return, "arm64 only");
}

#endif

TEST_HARNESS_MAIN
