// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling on the arm64 PMUv3: the overflow interrupt writes samples with
 * the period in them; PERF_EVENT_IOC_PERIOD reprograms the counter;
 * frequency mode and periods longer than a 32-bit counter's half range
 * work.  Under QEMU's -icount the cycle counter interrupts exactly at the
 * end of each period, so a user loop gives one user-mode sample per
 * period; QEMU notices an event counter's overflow only at the next
 * exception, so instruction samples are late and merged (stock sees the
 * same): for them only "some samples, with the right period" is checked.
 *
 * Samples are checked against what the event itself counted, not against
 * the loop alone: with two vCPUs under -icount, QEMU counts at EL0 the
 * instructions the other vCPU runs while this one waits its turn, which on
 * a slow (debug) kernel adds several periods to a 2M-instruction loop, on
 * the series and on stock alike.
 */
#include "pmuv3_helpers.h"
#include "../perf_records.h"
#include "../../kselftest_harness.h"

#define LOOP		1000000UL
#define PERIOD		100000
#define DATA_PAGES	16

FIXTURE(pmuv3) {
	struct pmuv3_info pmu;
	struct perf_map map;
	int fd;
};

FIXTURE_SETUP(pmuv3)
{
	self->fd = -1;
	memset(&self->map, 0, sizeof(self->map));
	if (pmuv3_find(&self->pmu))
		SKIP(return, "no PMUv3 PMU");
	pin_to_cpu(0);
}

FIXTURE_TEARDOWN(pmuv3)
{
	perf_map_close(&self->map);
	if (self->fd >= 0)
		close(self->fd);
}

struct sampling {
	long type;
	__u64 config;
	__u64 config1;
	__u64 period;
	int freq;
};

/* Open @sp's event user-only, disabled, sampling, into *@fd, and map it. */
static int open_sampling(const struct sampling *sp, int *fd,
			 struct perf_map *map)
{
	struct perf_event_attr attr;

	hw_attr(&attr, sp->type, sp->config);
	attr.config1 = sp->config1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.disabled = 1;
	attr.freq = sp->freq;
	attr.sample_period = sp->period;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
	*fd = open_attr(&attr, -1);
	if (*fd < 0)
		return *fd;
	if (perf_map_open(map, *fd, DATA_PAGES, PROT_READ | PROT_WRITE))
		return -errno;
	return 0;
}

/*
 * Count the samples in the buffer; every one must carry @period (0: any)
 * and, if @user, a user-space IP.  Returns the number of samples.
 */
static int count_samples(struct __test_metadata *_metadata,
			 struct perf_map *map, __u64 period, int user)
{
	uint64_t buf[64];
	struct perf_event_header *hdr;
	struct perf_sample s;
	int n = 0;

	while ((hdr = perf_map_next(map, buf, sizeof(buf)))) {
		if (hdr->type != PERF_RECORD_SAMPLE)
			continue;
		perf_sample_parse(hdr, PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD, 0,
				  0, &s);
		if (user)
			EXPECT_EQ(PERF_RECORD_MISC_USER,
				  hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK);
		if (period)
			EXPECT_EQ(period, s.period);
		n++;
	}
	perf_map_consume(map);
	return n;
}

/* Run the loop with the event enabled; returns what the event counted. */
static uint64_t run_loop(int fd, unsigned long n)
{
	uint64_t before = 0, after = 0;

	if (read(fd, &before, sizeof(before)) != sizeof(before))
		return 0;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	insn_loop(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &after, sizeof(after)) != sizeof(after))
		return 0;
	return after - before;
}

FIXTURE_VARIANT(pmuv3) {
	__u64 config;
	__u64 config1;
	int exact;	/* the overflow interrupt comes on time */
};

FIXTURE_VARIANT_ADD(pmuv3, instructions) {
	.config = EV_INST_RETIRED,
};

FIXTURE_VARIANT_ADD(pmuv3, instructions_long) {
	.config = EV_INST_RETIRED, .config1 = 1,
};

FIXTURE_VARIANT_ADD(pmuv3, cycles) {
	.config = EV_CPU_CYCLES, .exact = 1,
};

FIXTURE_VARIANT_ADD(pmuv3, cycles_long) {
	.config = EV_CPU_CYCLES, .config1 = 1, .exact = 1,
};

/*
 * Samples expected of @events counted at @period, one per period or at
 * least one; the loop of 2 * LOOP instructions (or cycles) at the least
 * was counted.
 */
static void expect_samples(struct __test_metadata *_metadata, int exact,
			   int n, __u64 events, __u64 period)
{
	TH_LOG("%d samples at period %llu, %llu events", n,
	       (unsigned long long)period, (unsigned long long)events);
	EXPECT_LE(2 * LOOP, events);
	EXPECT_GE(events / period + 1, n);
	EXPECT_LE(exact ? events / period - 1 : 1, n);
}

/* A loop of 2 * LOOP instructions (or cycles) at one sample per PERIOD. */
TEST_F(pmuv3, one_sample_per_period)
{
	const struct sampling sp = {
		self->pmu.type, variant->config, variant->config1, PERIOD, 0
	};
	uint64_t events;
	int ret, n;

	ret = open_sampling(&sp, &self->fd, &self->map);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	events = run_loop(self->fd, LOOP);
	n = count_samples(_metadata, &self->map, PERIOD, variant->exact);
	expect_samples(_metadata, variant->exact, n, events, PERIOD);
}

/* PERF_EVENT_IOC_PERIOD halves the period: twice the samples after it. */
TEST_F(pmuv3, ioc_period)
{
	const struct sampling sp = {
		self->pmu.type, variant->config, variant->config1, PERIOD, 0
	};
	__u64 half = PERIOD / 2;
	uint64_t events;
	int ret, n;

	ret = open_sampling(&sp, &self->fd, &self->map);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	run_loop(self->fd, LOOP);
	count_samples(_metadata, &self->map, PERIOD, variant->exact);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_PERIOD, &half));
	events = run_loop(self->fd, LOOP);
	n = count_samples(_metadata, &self->map, half, variant->exact);
	expect_samples(_metadata, variant->exact, n, events, half);
}

/* Frequency mode: some samples, whatever period the kernel settles on. */
TEST_F(pmuv3, frequency)
{
	const struct sampling sp = {
		self->pmu.type, variant->config, variant->config1, 4000, 1
	};
	int ret, n;

	ret = open_sampling(&sp, &self->fd, &self->map);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	run_loop(self->fd, 20 * LOOP);
	n = count_samples(_metadata, &self->map, 0, variant->exact);
	TH_LOG("%d samples in 40M instructions at 4 kHz", n);
	EXPECT_LE(variant->exact ? 100 : 1, n);
}

/*
 * A period past a 32-bit counter's half range (2^31) still ends after
 * exactly that many events: none in a shorter run.  The count is the
 * loop's, give or take an interrupt (cycles count in the kernel too: one
 * landing in the loop added about 2,000 in one run of make check).
 */
TEST_F(pmuv3, period_beyond_31_bits)
{
	const struct sampling sp = {
		self->pmu.type, variant->config, variant->config1, (1ULL << 32) + 5, 0
	};
	uint64_t count;
	int ret;

	ret = open_sampling(&sp, &self->fd, &self->map);
	ASSERT_EQ(0, ret) TH_LOG("%s", strerror(-ret));
	run_loop(self->fd, LOOP);
	EXPECT_EQ(0, count_samples(_metadata, &self->map, 0, 0));
	ASSERT_EQ(sizeof(count), read(self->fd, &count, sizeof(count)));
	EXPECT_LE(2 * LOOP, count);
	EXPECT_GT(2 * LOOP + LOOP / 100, count);
}

/*
 * perf_cpu_time_max_percent: when the PMU's overflow interrupts take more
 * than that share of the time between two samples at
 * perf_event_max_sample_rate, the rate comes down.  At 1% of 10 us, an
 * interrupt that copies 64 KiB of user stack is too slow (under icount a
 * guest nanosecond is an instruction); on stock too.
 */
TEST(slow_interrupts_lower_the_sample_rate)
{
	const char *rate_path = "/proc/sys/kernel/perf_event_max_sample_rate";
	const char *pct_path = "/proc/sys/kernel/perf_cpu_time_max_percent";
	struct perf_event_attr attr;
	struct pmuv3_info pmu;
	long rate0, pct0, rate;
	void *ring;
	int fd;

	if (pmuv3_find(&pmu))
		SKIP(return, "no PMUv3 PMU");
	ASSERT_EQ(0, read_int_file(rate_path, &rate0));
	ASSERT_EQ(0, read_int_file(pct_path, &pct0));
	if (write_int_file(pct_path, 1))
		SKIP(return, "cannot write the perf sysctls");
	ASSERT_EQ(0, write_int_file(rate_path, 100000));

	hw_attr(&attr, pmu.type, EV_INST_RETIRED);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.sample_period = 200000;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER |
			   PERF_SAMPLE_STACK_USER;
	attr.sample_regs_user = 1;
	attr.sample_stack_user = 65528;
	fd = open_attr(&attr, -1);
	ASSERT_LE(0, fd);
	ring = mmap(NULL, 65 * getpagesize(), PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, ring);
	insn_loop(20 * LOOP);
	munmap(ring, 65 * getpagesize());
	close(fd);
	ASSERT_EQ(0, read_int_file(rate_path, &rate));
	TH_LOG("perf_event_max_sample_rate %ld after about 200 interrupts",
	       rate);
	EXPECT_GT(100000, rate);
	EXPECT_LT(0, rate);

	/* the rate first: it cannot be written while the feedback is off */
	EXPECT_EQ(0, write_int_file(rate_path, rate0));
	EXPECT_EQ(0, write_int_file(pct_path, pct0));
}

/*
 * Every interrupt of CPU 0 sampled by irq:irq_handler_entry, a wakeup a
 * sample, while the cycle counter's overflow interrupts come on that CPU:
 * each overflow interrupt's entry is sampled, and so is the entry of the
 * irq_work IPI that runs the wakeup, about two samples an overflow (stock:
 * 852 for 416 overflows).  An overflow handler that ran the queued wakeup
 * itself would let that IPI find nothing queued: its entry's sample then
 * queues a wakeup and raises the next IPI, and so on until the ring is
 * full (for good with an overwritable ring or a SIGIO owner: the storm's
 * arm64 hang).
 */
TEST(irq_entry_samples_vs_overflow_interrupts)
{
	const size_t ring_size = (1 + 64) * getpagesize();
	struct perf_event_attr attr;
	struct pmuv3_info pmu;
	uint64_t irqs, overflows;
	void *ring;
	int tp, hw;
	long id;

	if (pmuv3_find(&pmu))
		SKIP(return, "no PMUv3 PMU");
	id = trace_event_id("irq/irq_handler_entry");
	if (id < 0)
		SKIP(return, "no irq:irq_handler_entry");
	pin_to_cpu(0);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = id;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr.wakeup_events = 1;
	tp = sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (tp < 0 && errno == EACCES)
		SKIP(return, "CPU-wide events need privileges");
	ASSERT_LE(0, tp);
	/* room for some 10000 samples */
	ring = mmap(NULL, ring_size, PROT_READ | PROT_WRITE, MAP_SHARED, tp, 0);
	ASSERT_NE(MAP_FAILED, ring);

	hw_attr(&attr, pmu.type, EV_CPU_CYCLES);
	attr.sample_period = PERIOD;
	attr.sample_type = PERF_SAMPLE_IP;
	hw = open_attr(&attr, -1);
	ASSERT_LE(0, hw);
	insn_loop(20 * LOOP);
	overflows = read_count(hw) / PERIOD;
	close(hw);
	irqs = read_count(tp);
	munmap(ring, ring_size);
	close(tp);
	TH_LOG("%llu interrupts of CPU 0 sampled, %llu overflows",
	       (unsigned long long)irqs, (unsigned long long)overflows);
	EXPECT_LE(400, overflows);
	/* the timer's and other interrupts: a few dozen */
	EXPECT_GT(3 * overflows + 200, irqs);
}

TEST_HARNESS_MAIN
