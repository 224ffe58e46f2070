// SPDX-License-Identifier: GPL-2.0
/*
 * User-space counter access on the arm64 PMUv3: the kernel.perf_user_access
 * sysctl (0 or 1 only); events asking for access (config1 rdpmc bit)
 * opening and counting whether or not the sysctl allows it; CPU-wide
 * events refused access; and, through the user page, the counter read
 * with mrs in the documented sequence loop, agreeing with read(), and
 * trapping with the sysctl off.
 */
#include "pmuv3_helpers.h"

#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>

#include "../kselftest_harness.h"

#define USER_ACCESS	"/proc/sys/kernel/perf_user_access"

FIXTURE(pmuv3) {
	struct pmuv3_info pmu;
	long saved;
};

FIXTURE_SETUP(pmuv3)
{
	self->saved = -1;
	if (pmuv3_find(&self->pmu))
		SKIP(return, "no PMUv3 PMU");
	if (read_int_file(USER_ACCESS, &self->saved))
		SKIP(return, "no " USER_ACCESS);
	if (write_int_file(USER_ACCESS, self->saved))
		SKIP(return, "cannot write " USER_ACCESS);
	pin_to_cpu(0);
}

FIXTURE_TEARDOWN(pmuv3)
{
	if (self->saved >= 0)
		write_int_file(USER_ACCESS, self->saved);
}

TEST_F(pmuv3, sysctl_range)
{
	long v;

	EXPECT_EQ(0, write_int_file(USER_ACCESS, 1));
	EXPECT_EQ(0, read_int_file(USER_ACCESS, &v));
	EXPECT_EQ(1, v);
	EXPECT_EQ(0, write_int_file(USER_ACCESS, 0));
	EXPECT_EQ(0, read_int_file(USER_ACCESS, &v));
	EXPECT_EQ(0, v);
	EXPECT_EQ(-EINVAL, write_int_file(USER_ACCESS, 2));
	EXPECT_EQ(-EINVAL, write_int_file(USER_ACCESS, -1));
	EXPECT_EQ(0, read_int_file(USER_ACCESS, &v));
	EXPECT_EQ(0, v);
}

/* rdpmc (and rdpmc + long) events count like any other, sysctl on or off */
TEST_F(pmuv3, rdpmc_events_count)
{
	struct perf_event_attr attr;
	uint64_t plain = 0, count;
	int on, config1, fd;

	for (on = 0; on <= 1; on++) {
		ASSERT_EQ(0, write_int_file(USER_ACCESS, on));
		for (config1 = 0; config1 <= 3; config1++) {
			hw_attr(&attr, self->pmu.type, EV_INST_RETIRED);
			attr.config1 = config1;
			attr.exclude_kernel = 1;
			fd = open_attr(&attr, -1);
			ASSERT_LE(0, fd) TH_LOG("sysctl %d config1 %d: %s", on,
						config1, strerror(-fd));
			count = count_loop(fd, 100000, 3);
			close(fd);
			if (!plain)
				plain = count;
			EXPECT_EQ(plain, count) TH_LOG("sysctl %d config1 %d",
						       on, config1);
		}
	}
}

/*
 * Access is for self-monitoring tasks: a CPU-wide event asking for it is
 * invalid, whether or not the sysctl allows access.
 */
TEST_F(pmuv3, rdpmc_cpu_event)
{
	struct perf_event_attr attr;
	int on, fd;

	for (on = 0; on <= 1; on++) {
		ASSERT_EQ(0, write_int_file(USER_ACCESS, on));
		hw_attr(&attr, self->pmu.type, EV_CPU_CYCLES);
		attr.config1 = 2;
		fd = sys_perf_event_open(&attr, -1, 0, -1, 0);
		if (fd < 0 && errno == EACCES)
			SKIP(return, "CPU-wide events not permitted");
		EXPECT_EQ(-1, fd);
		EXPECT_EQ(EINVAL, errno) TH_LOG("sysctl %d", on);
		if (fd >= 0)
			close(fd);
	}
}

#ifdef __aarch64__
/* Counter @idx (0-based) at EL0: PMCCNTR_EL0, or through PMSELR_EL0. */
static uint64_t read_pmc(unsigned int idx)
{
	uint64_t v;

	if (idx == 31) {
		__asm__ __volatile__("mrs %0, pmccntr_el0" : "=r"(v));
		return v;
	}
	__asm__ __volatile__("msr pmselr_el0, %1\n"
			     "isb\n"
			     "mrs %0, pmxevcntr_el0"
			     : "=r"(v) : "r"((uint64_t)idx));
	return v;
}
#else
static uint64_t read_pmc(unsigned int idx)
{
	return 0;
}
#endif

struct user_read {
	uint64_t count;
	uint32_t index;
	uint16_t width;
	int cap;
};

/* The documented loop: retry until the page did not change under us. */
static void user_read(struct perf_event_mmap_page *pc, struct user_read *r)
{
	uint32_t seq;
	uint64_t pmc;

	do {
		seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		r->index = pc->index;
		r->count = pc->offset;
		r->cap = pc->cap_user_rdpmc;
		r->width = pc->pmc_width;
		if (r->cap && r->index) {
			pmc = read_pmc(r->index - 1);
			pmc <<= 64 - r->width;
			r->count += (uint64_t)((int64_t)pmc >> (64 - r->width));
		}
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	} while (__atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE) != seq);
}

static sigjmp_buf trap_jmp;

static void on_sigill(int sig)
{
	siglongjmp(trap_jmp, 1);
}

/* Whether reading the cycle counter at EL0 traps. */
static int pmc_traps(void)
{
	struct sigaction sa = { .sa_handler = on_sigill }, old;
	int trapped = 0;

	sigaction(SIGILL, &sa, &old);
	if (sigsetjmp(trap_jmp, 1))
		trapped = 1;
	else
		read_pmc(31);
	sigaction(SIGILL, &old, NULL);
	return trapped;
}

/* Open @config (own type) with the rdpmc bit on this task and map it. */
static int open_mapped(long type, __u64 config, __u64 config1,
		       struct perf_event_mmap_page **pc)
{
	struct perf_event_attr attr;
	void *page;
	int fd;

	hw_attr(&attr, type, config);
	attr.config1 = config1;
	attr.exclude_kernel = 1;
	fd = open_attr(&attr, -1);
	if (fd < 0)
		return fd;
	page = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED) {
		close(fd);
		return -ENODEV;
	}
	*pc = page;
	return fd;
}

/* The same, with a mapped event of each kind. */
FIXTURE(mapped) {
	struct pmuv3_info pmu;
	long saved;
};

FIXTURE_SETUP(mapped)
{
	self->saved = -1;
	if (pmuv3_find(&self->pmu))
		SKIP(return, "no PMUv3 PMU");
	if (read_int_file(USER_ACCESS, &self->saved))
		SKIP(return, "no " USER_ACCESS);
	if (write_int_file(USER_ACCESS, self->saved))
		SKIP(return, "cannot write " USER_ACCESS);
	pin_to_cpu(0);
}

FIXTURE_TEARDOWN(mapped)
{
	if (self->saved >= 0)
		write_int_file(USER_ACCESS, self->saved);
}

FIXTURE_VARIANT(mapped) {
	__u64 config;
	__u64 config1;
	int width;
};

FIXTURE_VARIANT_ADD(mapped, instructions) {
	.config = EV_INST_RETIRED, .config1 = 2, .width = 32,
};

FIXTURE_VARIANT_ADD(mapped, instructions_long) {
	.config = EV_INST_RETIRED, .config1 = 3, .width = 64,
};

FIXTURE_VARIANT_ADD(mapped, cycles) {
	.config = EV_CPU_CYCLES, .config1 = 2, .width = 32,
};

/* With the sysctl on, mrs in the sequence loop agrees with read(). */
TEST_F(mapped, mrs_matches_read)
{
	struct perf_event_mmap_page *pc;
	struct user_read r;
	uint64_t count;
	int fd;

	ASSERT_EQ(0, write_int_file(USER_ACCESS, 1));
	fd = open_mapped(self->pmu.type, variant->config, variant->config1,
			 &pc);
	if (fd == -ENODEV)
		SKIP(return, "the event cannot be mapped");
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(-fd));
	insn_loop(100000);
	user_read(pc, &r);
	ASSERT_EQ(sizeof(count), read(fd, &count, sizeof(count)));
	TH_LOG("index %u width %u cap %d: user %llu, read() %llu", r.index,
	       r.width, r.cap, (unsigned long long)r.count,
	       (unsigned long long)count);
	EXPECT_EQ(1, r.cap);
	EXPECT_LT(0, r.index);
	EXPECT_GE(32, r.index);
	EXPECT_EQ(variant->width, r.width);
	EXPECT_LE(200000, r.count);
	EXPECT_LE(r.count, count);
	EXPECT_GT(r.count + 200, count);
	munmap(pc, sysconf(_SC_PAGESIZE));
	close(fd);
}

/*
 * With the sysctl off the page still says the event asked for access
 * (cap_user_rdpmc), but gives no counter index, and the counters trap.
 */
TEST_F(mapped, sysctl_off_denies)
{
	struct perf_event_mmap_page *pc;
	struct user_read r;
	int fd;

	ASSERT_EQ(0, write_int_file(USER_ACCESS, 0));
	fd = open_mapped(self->pmu.type, variant->config, variant->config1,
			 &pc);
	if (fd == -ENODEV)
		SKIP(return, "the event cannot be mapped");
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(-fd));
	insn_loop(1000);
	user_read(pc, &r);
	EXPECT_EQ(1, r.cap);
	EXPECT_EQ(0, r.index);
	EXPECT_EQ(1, pmc_traps());
	munmap(pc, sysconf(_SC_PAGESIZE));
	close(fd);
}

TEST_HARNESS_MAIN
