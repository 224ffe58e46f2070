// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling: the fields of PERF_RECORD_SAMPLE in ABI order, PERF_SAMPLE_READ
 * of groups, sample_id_all, the PERIOD and REFRESH ioctls, frequency mode,
 * clocks sampled by timer, throttling, callchains, and the attr checks of
 * sampling events.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"
#include "perf_records.h"

#define PAGE		((size_t)sysconf(_SC_PAGESIZE))
#define REC_MAX		8192

static int open_attr(struct perf_event_attr *attr, int group)
{
	return sys_perf_event_open(attr, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
}

/* Open @attr on the caller and map 1 + @pages pages of it; fd or -1. */
static int open_mapped(struct perf_event_attr *attr, struct perf_map *m,
		       int pages)
{
	int fd = open_attr(attr, -1);

	if (fd < 0)
		return -1;
	if (perf_map_open(m, fd, pages, PROT_READ | PROT_WRITE)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Every fixed field, in order, with values we can predict. */
TEST(sample_fields)
{
	uint64_t type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	uint64_t buf[REC_MAX / 8], id, last_time = 0;
	struct perf_event_header *h;
	struct perf_event_attr attr;
	struct perf_sample s;
	struct perf_map m;
	char *area;
	int fd, n = 0;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = type;
	fd = open_attr(&attr, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ID, &id), 0);
	ASSERT_EQ(perf_map_open(&m, fd, 8, PROT_READ | PROT_WRITE), 0);
	area = mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(area, MAP_FAILED);
	for (int i = 0; i < 16; i++)
		area[i * PAGE] = 1;
	while ((h = perf_map_next_type(&m, buf, sizeof(buf), PERF_RECORD_SAMPLE))) {
		perf_sample_parse(h, type, 0, 1, &s);
		ASSERT_EQ(h->size, 8 + 9 * 8);
		ASSERT_EQ((char *)s.end - (char *)h, h->size);
		EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK,
			  PERF_RECORD_MISC_USER);
		EXPECT_EQ(s.identifier, id);
		EXPECT_EQ(s.id, id);
		EXPECT_EQ(s.stream_id, id);
		EXPECT_EQ(s.pid, getpid());
		EXPECT_EQ(s.tid, gettid());
		EXPECT_LT(s.cpu, sysconf(_SC_NPROCESSORS_CONF));
		EXPECT_EQ(s.period, 1);
		EXPECT_GE(s.time, last_time);
		EXPECT_NE(s.ip, 0);
		last_time = s.time;
		if (s.addr >= (uintptr_t)area &&
		    s.addr < (uintptr_t)area + 16 * PAGE)
			n++;
	}
	EXPECT_EQ(n, 16);
	munmap(area, 16 * PAGE);
	perf_map_close(&m);
	close(fd);
}

/*
 * A group of a page-fault leader sampling every @period faults and a
 * task-clock member, both with @type, @rf and @id_all: the leader's fd
 * and the member's in *@sib, or -1.
 */
static int open_fault_group(uint64_t period, uint64_t type, uint64_t rf,
			    int id_all, int *sib)
{
	struct perf_event_attr attr;
	int lead;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = period;
	attr.sample_type = type;
	attr.read_format = rf;
	attr.sample_id_all = id_all;
	lead = open_attr(&attr, -1);
	if (lead < 0)
		return -1;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.sample_period = 0;
	*sib = open_attr(&attr, lead);
	if (*sib < 0) {
		close(lead);
		return -1;
	}
	return lead;
}

/* PERF_SAMPLE_READ with a group: the leader samples, all members read. */
TEST(sample_read_group)
{
	uint64_t type = PERF_SAMPLE_READ;
	uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
		      PERF_FORMAT_TOTAL_TIME_ENABLED |
		      PERF_FORMAT_TOTAL_TIME_RUNNING;
	uint64_t buf[REC_MAX / 8], id_lead, id_sib;
	struct perf_event_header *h;
	struct perf_sample s;
	struct perf_map m;
	int lead, sib, n = 0;

	lead = open_fault_group(4, type, rf, 0, &sib);
	ASSERT_GE(lead, 0);
	ASSERT_EQ(ioctl(lead, PERF_EVENT_IOC_ID, &id_lead), 0);
	ASSERT_EQ(ioctl(sib, PERF_EVENT_IOC_ID, &id_sib), 0);
	ASSERT_EQ(perf_map_open(&m, lead, 8, PROT_READ | PROT_WRITE), 0);
	touch_pages(16);
	while ((h = perf_map_next_type(&m, buf, sizeof(buf), PERF_RECORD_SAMPLE))) {
		perf_sample_parse(h, type, rf, 2, &s);
		ASSERT_EQ(h->size, 8 + 8 * 7);
		EXPECT_EQ(s.read[0], 2);		/* nr */
		EXPECT_GT(s.read[1], 0);		/* enabled */
		EXPECT_EQ(s.read[2], s.read[1]);	/* running */
		EXPECT_GE(s.read[3], 4);		/* leader value */
		EXPECT_EQ(s.read[3] % 4, 0);
		EXPECT_EQ(s.read[4], id_lead);
		EXPECT_EQ(s.read[6], id_sib);
		n++;
	}
	EXPECT_GE(n, 4);
	perf_map_close(&m);
	close(sib);
	close(lead);
}

/*
 * sample_id_all puts the identity fields after the other records only:
 * a sample has them once, in their places (perf record's group of
 * '{a,b}:S', whose samples read the group).
 */
TEST(sample_id_all_not_on_samples)
{
	uint64_t type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ;
	uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST;
	uint64_t buf[REC_MAX / 8], id_lead;
	struct perf_event_header *h;
	struct perf_sample s;
	struct perf_map m;
	int lead, sib, n = 0;

	lead = open_fault_group(1, type, rf, 1, &sib);
	ASSERT_GE(lead, 0);
	ASSERT_EQ(ioctl(lead, PERF_EVENT_IOC_ID, &id_lead), 0);
	ASSERT_EQ(perf_map_open(&m, lead, 8, PROT_READ | PROT_WRITE), 0);
	touch_pages(8);
	while ((h = perf_map_next_type(&m, buf, sizeof(buf), PERF_RECORD_SAMPLE))) {
		perf_sample_parse(h, type, rf, 2, &s);
		/* 5 fixed words, nr and two entries of value, id, lost */
		ASSERT_EQ(h->size, 8 + 5 * 8 + 7 * 8);
		ASSERT_EQ((char *)s.end - (char *)h, h->size);
		EXPECT_EQ(s.id, id_lead);
		EXPECT_EQ(s.read[0], 2);
		EXPECT_EQ(s.read[2], id_lead);
		n++;
	}
	EXPECT_GE(n, 8);
	perf_map_close(&m);
	close(sib);
	close(lead);
}

/* Non-sample records carry the sample_id trailer with sample_id_all. */
TEST(sample_id_all_on_lost)
{
	uint64_t type = PERF_SAMPLE_TID | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
			PERF_SAMPLE_IDENTIFIER;
	uint64_t buf[REC_MAX / 8], id;
	struct perf_event_header *h;
	struct perf_event_attr attr;
	struct perf_map m;
	int fd, lost = 0;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = type;
	attr.sample_id_all = 1;
	fd = open_attr(&attr, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ID, &id), 0);
	ASSERT_EQ(perf_map_open(&m, fd, 1, PROT_READ | PROT_WRITE), 0);
	touch_pages(PAGE / 16);
	m.tail = perf_map_head(&m);
	perf_map_consume(&m);
	touch_pages(2);
	while ((h = perf_map_next(&m, buf, sizeof(buf)))) {
		uint64_t *id_part;

		if (h->type != PERF_RECORD_LOST)
			continue;
		ASSERT_EQ(h->size, 8 + 16 + perf_sample_id_bytes(type));
		EXPECT_EQ(buf[1], id);
		EXPECT_GT(buf[2], 0);
		id_part = &buf[3];
		EXPECT_EQ((uint32_t)id_part[0], getpid());
		EXPECT_EQ(id_part[1], id);
		EXPECT_EQ(id_part[3], id);	/* IDENTIFIER comes last */
		lost++;
	}
	EXPECT_EQ(lost, 1);
	perf_map_close(&m);
	close(fd);
}

/*
 * PERIOD takes a new period, from the next overflow on.  (The samples do
 * not say: a software event that records PERF_SAMPLE_PERIOD samples every
 * occurrence, see every_occurrence_with_period.)
 */
TEST(ioctl_period)
{
	uint64_t buf[REC_MAX / 8], period = 3, bad = 0;
	struct perf_event_header *h;
	struct perf_event_attr attr;
	struct perf_map m;
	int fd, fd_count, n = 0;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	fd = open_attr(&attr, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_PERIOD, &bad), -1);
	ASSERT_EQ(errno, EINVAL);
	bad = 1ULL << 63;
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_PERIOD, &bad), -1);
	ASSERT_EQ(errno, EINVAL);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_PERIOD, NULL), -1);
	ASSERT_EQ(errno, EFAULT);
	/* a counting event has no period to change */
	fd_count = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, 0);
	ASSERT_GE(fd_count, 0);
	ASSERT_EQ(ioctl(fd_count, PERF_EVENT_IOC_PERIOD, &period), -1);
	ASSERT_EQ(errno, EINVAL);
	close(fd_count);

	ASSERT_EQ(perf_map_open(&m, fd, 4, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period), 0);
	touch_pages(30);
	while ((h = perf_map_next(&m, buf, sizeof(buf))))
		n += h->type == PERF_RECORD_SAMPLE;
	EXPECT_GE(n, 9);
	EXPECT_LE(n, 30 / 3 + 4);
	perf_map_close(&m);
	close(fd);
}

/* A software event recording PERF_SAMPLE_PERIOD samples every occurrence. */
TEST(every_occurrence_with_period)
{
	uint64_t buf[REC_MAX / 8];
	struct perf_event_header *h;
	struct perf_event_attr attr;
	struct perf_map m;
	int64_t count;
	int fd, n = 0;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 4;
	attr.sample_type = PERF_SAMPLE_PERIOD;
	attr.disabled = 1;
	fd = open_mapped(&attr, &m, 4);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	touch_pages(12);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	count = read_count(fd);
	while ((h = perf_map_next_type(&m, buf, sizeof(buf), PERF_RECORD_SAMPLE))) {
		EXPECT_EQ(buf[1], 1);
		n++;
	}
	EXPECT_GE(n, 12);
	EXPECT_EQ(n, count);
	perf_map_close(&m);
	close(fd);
}

/* REFRESH enables for N overflows, then the event disables itself. */
TEST(ioctl_refresh)
{
	uint64_t buf[REC_MAX / 8];
	struct perf_event_header *h;
	struct perf_event_attr attr;
	struct perf_map m;
	int fd, n = 0;
	int64_t count;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 2;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.disabled = 1;
	fd = open_mapped(&attr, &m, 4);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_REFRESH, 3), 0);
	touch_pages(40);
	while ((h = perf_map_next(&m, buf, sizeof(buf))))
		n += h->type == PERF_RECORD_SAMPLE;
	EXPECT_EQ(n, 3);
	/* disabled after the third overflow: the count stops near 6 */
	count = read_count(fd);
	EXPECT_GE(count, 6);
	EXPECT_LT(count, 40);
	perf_map_close(&m);
	close(fd);

	/* counting and inherited events cannot be refreshed */
	fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, 1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(ioctl(fd, PERF_EVENT_IOC_REFRESH, 1), -1);
	EXPECT_EQ(errno, EINVAL);
	close(fd);
	attr.inherit = 1;
	fd = open_attr(&attr, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(ioctl(fd, PERF_EVENT_IOC_REFRESH, 1), -1);
	EXPECT_EQ(errno, EINVAL);
	close(fd);
}

/* The clocks sample from a timer, every period of the task's CPU time. */
TEST(task_clock_samples_by_time)
{
	uint64_t type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
	uint64_t buf[REC_MAX / 8];
	struct perf_event_header *h;
	struct perf_event_attr attr;
	struct perf_map m;
	int fd, ms, n = 0, user = 0;
	int64_t ran;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 1000000;		/* 1 ms */
	attr.sample_type = type;
	fd = open_mapped(&attr, &m, 8);
	ASSERT_GE(fd, 0);
	/*
	 * Burn until a few samples came, whatever the speed of the host: a
	 * stalled guest fires the timer late, one sample for a long period.
	 */
	for (ms = 0; n < 5 && ms < 2000; ms += 10) {
		burn(10);
		while ((h = perf_map_next_type(&m, buf, sizeof(buf),
					       PERF_RECORD_SAMPLE))) {
			EXPECT_EQ(buf[2], 1000000);
			user += (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
				PERF_RECORD_MISC_USER;
			n++;
		}
	}
	/* never more than one sample per elapsed period of task time */
	ran = read_count(fd);
	EXPECT_GE(n, 5);
	EXPECT_LE(n, ran / 1000000 + 2)
		TH_LOG("%d samples in %lld ns", n, (long long)ran);
	EXPECT_GE(user, n / 2);
	perf_map_close(&m);
	close(fd);
}

/* A clock in frequency mode samples at the matching fixed period. */
TEST(cpu_clock_freq_is_a_period)
{
	uint64_t buf[REC_MAX / 8];
	struct perf_event_header *h;
	struct perf_event_attr attr;
	struct perf_map m;
	int fd, n = 0;

	sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.freq = 1;
	attr.sample_freq = 1000;
	attr.sample_type = PERF_SAMPLE_PERIOD;
	fd = open_mapped(&attr, &m, 8);
	ASSERT_GE(fd, 0);
	burn(50);
	while ((h = perf_map_next_type(&m, buf, sizeof(buf), PERF_RECORD_SAMPLE))) {
		EXPECT_EQ(buf[1], 1000000);
		n++;
	}
	/* fewer where hrtimers fall back to the tick (slow debug guests) */
	EXPECT_GE(n, 3);
	perf_map_close(&m);
	close(fd);
}

/* A counter in frequency mode starts at period 1 and adapts upward. */
TEST(freq_mode_adapts_period)
{
	uint64_t buf[REC_MAX / 8], first = 0, last = 0;
	struct perf_event_header *h;
	struct perf_event_attr attr;
	struct perf_map m;
	int fd, n = 0;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.freq = 1;
	attr.sample_freq = 100;
	attr.sample_type = PERF_SAMPLE_PERIOD;
	fd = open_mapped(&attr, &m, 16);
	ASSERT_GE(fd, 0);
	for (int i = 0; i < 100; i++)
		touch_pages(64);
	while ((h = perf_map_next_type(&m, buf, sizeof(buf), PERF_RECORD_SAMPLE))) {
		if (!n++)
			first = buf[1];
		last = buf[1];
	}
	EXPECT_EQ(first, 1);
	EXPECT_GT(last, first);
	EXPECT_LT(n, 6400);
	perf_map_close(&m);
	close(fd);
}

/*
 * PERF_EVENT_IOC_RESET of a counter in frequency mode: the count goes
 * back to 0 under the period adjustment the tick makes.  (The storm, seed
 * 1, found the series dividing by a negative interval count there: a
 * divide error in the tick.)  It keeps counting and sampling.
 */
TEST(freq_mode_reset)
{
	struct perf_event_attr attr;
	struct timespec t0, t;
	struct perf_map m;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.freq = 1;
	attr.sample_freq = 1000;
	attr.sample_type = PERF_SAMPLE_PERIOD;
	fd = open_mapped(&attr, &m, 16);
	ASSERT_GE(fd, 0);
	for (int round = 0; round < 3; round++) {
		/* faults across several ticks, so the tick adjusts the period */
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			touch_pages(64);
			clock_gettime(CLOCK_MONOTONIC, &t);
		} while ((t.tv_sec - t0.tv_sec) * 1000 +
			 (t.tv_nsec - t0.tv_nsec) / 1000000 < 40);
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	}
	touch_pages(64);
	EXPECT_GE(read_count(fd), 64);
	perf_map_close(&m);
	close(fd);
}

/*
 * Past perf_event_max_sample_rate per tick, THROTTLE; then UNTHROTTLE.
 * (On stock, software hook events throttle only on the second and later
 * samples of one hook call, so a clock shows it best.)
 */
TEST(throttling)
{
	uint64_t buf[REC_MAX / 8], id;
	struct perf_event_header *h;
	struct perf_event_attr attr;
	struct perf_map m;
	int fd, throttle = 0, unthrottle = 0;
	long rate;

	const char *rate_path = "/proc/sys/kernel/perf_event_max_sample_rate";
	const char *pct_path = "/proc/sys/kernel/perf_cpu_time_max_percent";
	long pct;

	ASSERT_EQ(read_int_file(rate_path, &rate), 0);
	ASSERT_EQ(read_int_file(pct_path, &pct), 0);
	/* the rate is fixed while throttling by CPU time is off */
	if (write_int_file(pct_path, 50) || write_int_file(rate_path, 1000)) {
		write_int_file(pct_path, pct);
		SKIP(return, "cannot lower perf_event_max_sample_rate");
	}
	/* a clock at its shortest period samples 100000 times a second */
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 10000;
	attr.sample_type = PERF_SAMPLE_IP;
	/*
	 * disabled until the ring is there: a THROTTLE written before would
	 * be lost, and its UNTHROTTLE not
	 */
	attr.disabled = 1;
	fd = open_attr(&attr, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ID, &id), 0);
	ASSERT_EQ(perf_map_open(&m, fd, 64, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	burn(200);
	while ((h = perf_map_next(&m, buf, sizeof(buf)))) {
		if (h->type == PERF_RECORD_THROTTLE) {
			ASSERT_EQ(h->size, 32);
			EXPECT_EQ(buf[2], id);
			EXPECT_EQ(buf[3], id);
			throttle++;
		}
		unthrottle += h->type == PERF_RECORD_UNTHROTTLE;
	}
	write_int_file(rate_path, rate);
	write_int_file(pct_path, pct);
	EXPECT_GT(throttle, 0);
	EXPECT_GT(unthrottle, 0);
	EXPECT_LE(throttle - unthrottle, 1);
	EXPECT_GE(throttle - unthrottle, 0);
	perf_map_close(&m);
	close(fd);
}

/* User callchains start with PERF_CONTEXT_USER and the sampled ip. */
TEST(callchain_user)
{
	uint64_t type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	uint64_t buf[REC_MAX / 8];
	struct perf_event_header *h;
	struct perf_event_attr attr;
	struct perf_sample s;
	struct perf_map m;
	int fd, n = 0;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 500000;
	attr.sample_type = type;
	attr.exclude_callchain_kernel = 1;
	fd = open_mapped(&attr, &m, 16);
	ASSERT_GE(fd, 0);
	burn(20);
	while ((h = perf_map_next_type(&m, buf, sizeof(buf), PERF_RECORD_SAMPLE))) {
		perf_sample_parse(h, type, 0, 1, &s);
		ASSERT_EQ((char *)s.end - (char *)h, h->size);
		if ((h->misc & PERF_RECORD_MISC_CPUMODE_MASK) !=
		    PERF_RECORD_MISC_USER)
			continue;
		ASSERT_GE(s.callchain_nr, 2);
		EXPECT_EQ(s.callchain[0], PERF_CONTEXT_USER);
		EXPECT_EQ(s.callchain[1], s.ip);
		n++;
	}
	EXPECT_GT(n, 0);
	perf_map_close(&m);
	close(fd);
}

/* Callchain limits: sample_max_stack above the sysctl, and its EBUSY. */
TEST(callchain_limits)
{
	const char *path = "/proc/sys/kernel/perf_event_max_stack";
	struct perf_event_attr attr;
	long max;
	int fd;

	ASSERT_EQ(read_int_file(path, &max), 0);

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 1000000;
	attr.sample_type = PERF_SAMPLE_CALLCHAIN;
	attr.sample_max_stack = max + 1;
	fd = open_attr(&attr, -1);
	ASSERT_EQ(fd, -1);
	ASSERT_EQ(errno, EOVERFLOW);
	attr.sample_max_stack = 0;
	fd = open_attr(&attr, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(write_int_file(path, max), -EBUSY);
	close(fd);
}

/*
 * Register numbers of the perf_regs ABI (uapi asm/perf_regs.h): sp and ip,
 * a register that does not exist, and an extended one.
 */
#if defined(__x86_64__)
#define REG_SP		7	/* PERF_REG_X86_SP */
#define REG_IP		8	/* PERF_REG_X86_IP */
#define REG_BAD		12	/* PERF_REG_X86_DS: not on x86_64 */
#define REG_EXTENDED	62	/* PERF_REG_X86_XMM15 */
#elif defined(__aarch64__)
#define REG_SP		31	/* PERF_REG_ARM64_SP */
#define REG_IP		32	/* PERF_REG_ARM64_PC */
#define REG_BAD		40
#define REG_EXTENDED	46	/* PERF_REG_ARM64_VG */
#endif

/* User registers and the user stack, from the sampled user context. */
TEST(regs_and_stack_user)
{
	uint64_t type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER |
			PERF_SAMPLE_STACK_USER;
	uint64_t buf[REC_MAX / 8], *p;
	struct perf_event_header *h;
	struct perf_event_attr attr;
	struct perf_map m;
	int fd, n = 0;
	char here;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 1000000;
	attr.sample_type = type;
	attr.sample_regs_user = (1ULL << REG_SP) | (1ULL << REG_IP);
	attr.sample_stack_user = 1024;
	fd = open_mapped(&attr, &m, 16);
	ASSERT_GE(fd, 0);
	burn(20);
	while ((h = perf_map_next(&m, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_SAMPLE ||
		    (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) !=
		    PERF_RECORD_MISC_USER)
			continue;
		p = &buf[1];
		/* ip, then abi, sp, ip (register order), then the stack */
		ASSERT_EQ(p[1], PERF_SAMPLE_REGS_ABI_64);
		EXPECT_EQ(p[3], p[0]);
		EXPECT_LT(p[2] - (uintptr_t)&here + 65536, 2 * 65536);
		ASSERT_EQ(p[4], 1024);
		EXPECT_GT(p[5 + 1024 / 8], 0);
		EXPECT_LE(p[5 + 1024 / 8], 1024);
		EXPECT_EQ(h->size, 8 + 8 * 4 + 8 + 1024 + 8);
		n++;
	}
	EXPECT_GT(n, 0);
	perf_map_close(&m);
	close(fd);
}

TEST(regs_and_stack_attr_errors)
{
	struct perf_event_attr attr;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 1000000;
	attr.sample_type = PERF_SAMPLE_REGS_USER;
	EXPECT_EQ(open_attr(&attr, -1), -1);		/* no register */
	EXPECT_EQ(errno, EINVAL);
	attr.sample_regs_user = 1ULL << REG_BAD;
	EXPECT_EQ(open_attr(&attr, -1), -1);		/* no such register */
	EXPECT_EQ(errno, EINVAL);
	/* the software PMU cannot sample extended registers */
	attr.sample_regs_user = 1ULL << REG_EXTENDED;
	EXPECT_EQ(open_attr(&attr, -1), -1);
#ifdef __aarch64__
	/* VG is a register only where the kernel supports SVE */
	EXPECT_TRUE(errno == EOPNOTSUPP || errno == EINVAL);
#else
	EXPECT_EQ(errno, EOPNOTSUPP);
#endif
	attr.sample_type = PERF_SAMPLE_STACK_USER;
	attr.sample_stack_user = 1020;
	EXPECT_EQ(open_attr(&attr, -1), -1);		/* unaligned */
	EXPECT_EQ(errno, EINVAL);
	attr.sample_stack_user = 65536;
	EXPECT_EQ(open_attr(&attr, -1), -1);		/* past a u16 */
	EXPECT_EQ(errno, EINVAL);
}

/* Without an AUX area, PERF_SAMPLE_AUX records an empty one. */
TEST(aux_sample_is_empty)
{
	uint64_t type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD | PERF_SAMPLE_AUX;
	uint64_t buf[REC_MAX / 8];
	struct perf_event_header *h;
	struct perf_event_attr attr;
	struct perf_map m;
	int fd, n = 0;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = type;
	fd = open_mapped(&attr, &m, 2);
	ASSERT_GE(fd, 0);
	touch_pages(2);
	while ((h = perf_map_next_type(&m, buf, sizeof(buf), PERF_RECORD_SAMPLE))) {
		ASSERT_EQ(h->size, 32);
		EXPECT_EQ(buf[3], 0);
		n++;
	}
	EXPECT_GE(n, 2);
	perf_map_close(&m);
	close(fd);
	/* and there is no AUX event to take a sample of */
	attr.aux_sample_size = 4096;
	EXPECT_EQ(open_attr(&attr, -1), -1);
	EXPECT_EQ(errno, EINVAL);
}

/* use_clockid: PERF_SAMPLE_TIME comes from the chosen clock. */
TEST(sample_time_of_clockid)
{
	uint64_t buf[REC_MAX / 8], before, after;
	struct perf_event_header *h;
	struct perf_event_attr attr;
	struct timespec ts;
	struct perf_map m;
	int fd, n = 0;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TIME;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	attr.disabled = 1;
	fd = open_mapped(&attr, &m, 4);
	ASSERT_GE(fd, 0);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	before = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	touch_pages(4);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	after = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	while ((h = perf_map_next_type(&m, buf, sizeof(buf), PERF_RECORD_SAMPLE))) {
		EXPECT_GE(buf[1], before);
		EXPECT_LE(buf[1], after);
		n++;
	}
	EXPECT_GE(n, 4);
	perf_map_close(&m);
	close(fd);
}

#ifdef __x86_64__
static uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}
#endif

/*
 * The user page's time conversion (x86, when the TSC is perf's clock):
 * time_zero + tsc scaled is the clock of PERF_SAMPLE_TIME.
 */
TEST(user_page_time_matches_samples)
{
#ifdef __x86_64__
	uint64_t buf[REC_MAX / 8], t0, t1, zero, mult, shift;
	struct perf_event_mmap_page *pg;
	struct perf_event_header *h;
	struct perf_event_attr attr;
	struct perf_map m;
	int fd, n = 0;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TIME;
	attr.disabled = 1;
	fd = open_mapped(&attr, &m, 4);
	ASSERT_GE(fd, 0);
	pg = m.page;
	if (!pg->cap_user_time_zero)
		SKIP(goto out, "the TSC is not perf's clock here");
	zero = pg->time_zero;
	mult = pg->time_mult;
	shift = pg->time_shift;
	t0 = rdtsc();
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	touch_pages(4);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	t1 = rdtsc();
	/* the manual page's conversion, split to avoid overflow */
	t0 = zero + (t0 >> shift) * mult + (((t0 & ((1ULL << shift) - 1)) * mult) >> shift);
	t1 = zero + (t1 >> shift) * mult + (((t1 & ((1ULL << shift) - 1)) * mult) >> shift);
	while ((h = perf_map_next_type(&m, buf, sizeof(buf), PERF_RECORD_SAMPLE))) {
		EXPECT_GE(buf[1], t0);
		EXPECT_LE(buf[1], t1);
		n++;
	}
	EXPECT_GE(n, 4);
out:
	perf_map_close(&m);
	close(fd);
#else
	SKIP(return, "time conversion from a cycle counter is x86's here");
#endif
}

/* Sampling attrs this kernel refuses, with stock's errnos. */
TEST(sampling_attr_errors)
{
	struct perf_event_attr attr;
	long rate;
	int fd;

	ASSERT_EQ(read_int_file("/proc/sys/kernel/perf_event_max_sample_rate",
				&rate), 0);
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	fd = open_attr(&attr, -1);
	EXPECT_EQ(fd, -1);
	EXPECT_EQ(errno, EOPNOTSUPP);

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_MAX;
	fd = open_attr(&attr, -1);
	EXPECT_EQ(fd, -1);
	EXPECT_EQ(errno, EINVAL);

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.freq = 1;
	attr.sample_freq = rate + 1;
	fd = open_attr(&attr, -1);
	EXPECT_EQ(fd, -1);
	EXPECT_EQ(errno, EINVAL);
}

TEST_HARNESS_MAIN
