// SPDX-License-Identifier: GPL-2.0
/*
 * Counting on the arm64 PMUv3: exact user-mode instruction counts of a
 * known loop (QEMU's -icount makes them deterministic), the same count
 * through generic, raw and the PMU's own type, 64-bit ("long") events,
 * cycles, the generic events a CPU lacks, exception-level exclusion, and
 * 64-bit counts across many overflows of 32-bit counters.
 */
#include "pmuv3_helpers.h"
#include "../../kselftest_harness.h"

#define LOOP	1000000UL

FIXTURE(pmuv3) {
	struct pmuv3_info pmu;
};

FIXTURE_SETUP(pmuv3)
{
	if (pmuv3_find(&self->pmu))
		SKIP(return, "no PMUv3 PMU");
	pin_to_cpu(0);
}

FIXTURE_TEARDOWN(pmuv3)
{
}

/* A user-only instruction count over insn_loop(n), best of three. */
static int64_t user_insns(struct perf_event_attr *attr, unsigned long n)
{
	uint64_t count;
	int fd;

	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	fd = open_attr(attr, -1);
	if (fd < 0)
		return fd;
	count = count_loop(fd, n, 3);
	close(fd);
	return count;
}

/* The loop's 2n instructions, and nothing else but a fixed overhead. */
TEST_F(pmuv3, instructions_exact)
{
	struct perf_event_attr attr;
	int64_t one, two;

	hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	one = user_insns(&attr, LOOP);
	two = user_insns(&attr, 2 * LOOP);
	ASSERT_LT(0, one) TH_LOG("open: %s", strerror(-one));
	TH_LOG("insn_loop(%lu): %lld, insn_loop(%lu): %lld", LOOP,
	       (long long)one, 2 * LOOP, (long long)two);
	EXPECT_EQ(2 * LOOP, two - one);
	EXPECT_LE(2 * LOOP, one);
	EXPECT_GT(2 * LOOP + 100, one);
}

/* INST_RETIRED as a raw event, on the PMU's type, and as a long event. */
TEST_F(pmuv3, raw_and_own_type)
{
	struct perf_event_attr attr;
	int64_t generic, raw, own, wide;

	hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	generic = user_insns(&attr, LOOP);
	hw_attr(&attr, PERF_TYPE_RAW, EV_INST_RETIRED);
	raw = user_insns(&attr, LOOP);
	hw_attr(&attr, self->pmu.type, EV_INST_RETIRED);
	own = user_insns(&attr, LOOP);
	hw_attr(&attr, self->pmu.type, EV_INST_RETIRED);
	attr.config1 = 1;	/* long */
	wide = user_insns(&attr, LOOP);
	ASSERT_LT(0, generic);
	EXPECT_EQ(generic, raw);
	EXPECT_EQ(generic, own);
	EXPECT_EQ(generic, wide);
}

/* Under icount a cycle is a virtual nanosecond: one per instruction. */
TEST_F(pmuv3, cycles)
{
	struct perf_event_attr attr;
	int64_t cycles, raw;

	hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	cycles = user_insns(&attr, LOOP);
	hw_attr(&attr, self->pmu.type, EV_CPU_CYCLES);
	raw = user_insns(&attr, LOOP);
	ASSERT_LT(0, cycles) TH_LOG("open: %s", strerror(-cycles));
	TH_LOG("cycles over %lu instructions: %lld", 2 * LOOP,
	       (long long)cycles);
	EXPECT_LE(LOOP, cycles);
	EXPECT_GT(20 * LOOP, cycles);
	EXPECT_LE(LOOP, raw);
}

/*
 * Generic events: cycles and instructions always exist; an event the CPU
 * lacks is -ENOENT (never another error); PMUv3 has no reference cycles.
 */
TEST_F(pmuv3, generic_events)
{
	struct perf_event_attr attr;
	__u64 config;
	int fd;

	for (config = 0; config < PERF_COUNT_HW_MAX; config++) {
		hw_attr(&attr, PERF_TYPE_HARDWARE, config);
		fd = open_attr(&attr, -1);
		TH_LOG("hardware event %llu: %s", (unsigned long long)config,
		       fd < 0 ? strerror(-fd) : "ok");
		if (config == PERF_COUNT_HW_CPU_CYCLES ||
		    config == PERF_COUNT_HW_INSTRUCTIONS) {
			EXPECT_LE(0, fd);
		} else if (config == PERF_COUNT_HW_REF_CPU_CYCLES) {
			EXPECT_EQ(-ENOENT, fd);
		} else if (fd < 0) {
			EXPECT_EQ(-ENOENT, fd);
		}
		if (fd >= 0)
			close(fd);
	}
}

static int open_cache(int cache, int op, int result)
{
	struct perf_event_attr attr;

	hw_attr(&attr, PERF_TYPE_HW_CACHE, cache | op << 8 | result << 16);
	return open_attr(&attr, -1);
}

/* Cache events: out-of-range fields are -EINVAL, the rest open or -ENOENT */
TEST_F(pmuv3, cache_events)
{
	int cache, op, result, fd;

	for (cache = 0; cache <= PERF_COUNT_HW_CACHE_MAX; cache++) {
		for (op = 0; op <= PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			for (result = 0; result <= PERF_COUNT_HW_CACHE_RESULT_MAX;
			     result++) {
				fd = open_cache(cache, op, result);
				if (cache == PERF_COUNT_HW_CACHE_MAX ||
				    op == PERF_COUNT_HW_CACHE_OP_MAX ||
				    result == PERF_COUNT_HW_CACHE_RESULT_MAX) {
					EXPECT_EQ(-EINVAL, fd);
				} else if (fd < 0) {
					EXPECT_EQ(-ENOENT, fd);
				}
				if (fd >= 0)
					close(fd);
			}
		}
	}
}

/* A generic event may name the PMU in the top half of config. */
TEST_F(pmuv3, extended_type)
{
	struct perf_event_attr attr;
	int64_t plain, ext;

	hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	plain = user_insns(&attr, LOOP);
	hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS |
		(__u64)self->pmu.type << PERF_PMU_TYPE_SHIFT);
	ext = user_insns(&attr, LOOP);
	ASSERT_LT(0, ext) TH_LOG("open: %s", strerror(-ext));
	EXPECT_EQ(plain, ext);
}

/*
 * Past the generic events: EINVAL, as stock; a generic event whose top
 * half names a PMU that takes none (the software PMU): ENOENT; one that
 * names no PMU at all is the plain generic event.
 */
TEST_F(pmuv3, generic_event_limits)
{
	static const __u64 bad[] = { PERF_COUNT_HW_MAX, 0x100, 0xffff };
	struct perf_event_attr attr;
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		hw_attr(&attr, PERF_TYPE_HARDWARE, bad[i]);
		EXPECT_EQ(-EINVAL, open_attr(&attr, -1))
			TH_LOG("config %#llx", (unsigned long long)bad[i]);
	}
	hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS |
		(__u64)PERF_TYPE_SOFTWARE << PERF_PMU_TYPE_SHIFT);
	EXPECT_EQ(-ENOENT, open_attr(&attr, -1));
	hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS |
		0xffffffffULL << PERF_PMU_TYPE_SHIFT);
	fd = open_attr(&attr, -1);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
}

/*
 * Exclusion: the loop runs at EL0 only, so excluding the kernel (and the
 * hypervisor, host or guest) changes nothing, and excluding user space
 * leaves almost nothing.
 */
TEST_F(pmuv3, exclusion)
{
	struct perf_event_attr attr;
	int64_t user, kernel, flags;
	int fd;

	hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	user = user_insns(&attr, LOOP);

	hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_host = 0;
	attr.exclude_guest = 1;
	flags = user_insns(&attr, LOOP);
	EXPECT_EQ(user, flags);

	hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_user = 1;
	fd = open_attr(&attr, -1);
	ASSERT_LE(0, fd);
	kernel = count_loop(fd, LOOP, 3);
	close(fd);
	TH_LOG("user-only %lld, kernel-only %lld", (long long)user,
	       (long long)kernel);
	EXPECT_LT(0, kernel);	/* the read() system calls */
	EXPECT_GT(LOOP / 10, kernel);
}

/* The exclusion flags stock accepts, and exclude_idle, which it refuses */
TEST_F(pmuv3, exclusion_flags)
{
	struct perf_event_attr attr;
	int fd;

	hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	attr.exclude_hv = 1;
	attr.exclude_host = 1;
	fd = open_attr(&attr, -1);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
	hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	attr.exclude_idle = 1;
	EXPECT_EQ(-EOPNOTSUPP, open_attr(&attr, -1));
}

/* User plus kernel counts add up to the unfiltered count of a group. */
TEST_F(pmuv3, exclusion_adds_up)
{
	struct perf_event_attr attr;
	uint64_t v[4], i;
	int lead, fd;

	hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.disabled = 1;
	attr.read_format = PERF_FORMAT_GROUP;
	lead = open_attr(&attr, -1);
	ASSERT_LE(0, lead);
	attr.disabled = 0;
	attr.exclude_kernel = 1;
	ASSERT_LE(0, open_attr(&attr, lead));
	attr.exclude_kernel = 0;
	attr.exclude_user = 1;
	ASSERT_LE(0, fd = open_attr(&attr, lead));
	ioctl(lead, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 100; i++) {
		getppid();
		insn_loop(1000);
	}
	ioctl(lead, PERF_EVENT_IOC_DISABLE, 0);
	ASSERT_EQ(sizeof(v), read(lead, v, sizeof(v)));
	ASSERT_EQ(3, v[0]);
	TH_LOG("all %llu user %llu kernel %llu", (unsigned long long)v[1],
	       (unsigned long long)v[2], (unsigned long long)v[3]);
	EXPECT_LE(200000, v[2]);
	EXPECT_LT(0, v[3]);
	EXPECT_GT(500, llabs((long long)(v[1] - v[2] - v[3])));
}

/*
 * 64-bit counts across overflows of the 32-bit counters: a CPU-wide
 * cycles count over five seconds of mostly idle virtual time (cycles are
 * counted while the CPU waits) passes 2^32, on the cycle counter and on an
 * event counter alike, in step with the time the event was enabled.
 */
TEST_F(pmuv3, count_past_32_bits)
{
	struct perf_event_attr attr;
	uint64_t v[2][3];
	int fd[2], i;

	for (i = 0; i < 2; i++) {
		hw_attr(&attr, self->pmu.type, EV_CPU_CYCLES);
		attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				   PERF_FORMAT_TOTAL_TIME_RUNNING;
		attr.pinned = 1;
		fd[i] = sys_perf_event_open(&attr, -1, 1, -1, 0);
		if (fd[i] < 0 && (errno == EACCES || errno == ENODEV))
			SKIP(return, "no CPU-wide event on CPU 1: %s",
			     strerror(errno));
		ASSERT_LE(0, fd[i]) TH_LOG("%s", strerror(errno));
	}
	sleep(5);
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(sizeof(v[i]), read(fd[i], v[i], sizeof(v[i])));
		close(fd[i]);
		TH_LOG("cycles %llu enabled %llu running %llu",
		       (unsigned long long)v[i][0], (unsigned long long)v[i][1],
		       (unsigned long long)v[i][2]);
		EXPECT_EQ(v[i][1], v[i][2]);
		EXPECT_LT(1ULL << 32, v[i][0]);
		/* within 2% of the enabled time: no lost 2^31 or 2^32 */
		EXPECT_GT(v[i][1] / 50, llabs((long long)(v[i][0] - v[i][1])));
	}
}

TEST_HARNESS_MAIN
