// SPDX-License-Identifier: GPL-2.0
/*
 * The perf sysctls under /proc/sys/kernel: their ranges and the errors for
 * values outside them, perf_event_max_sample_rate bounding
 * attr.sample_freq at open, and the sample rate being fixed while
 * throttling is off (perf_cpu_time_max_percent 0 or 100).  Every value is
 * restored afterwards.
 */
#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define SYSCTL(name)	"/proc/sys/kernel/" name

#define CPU_PERCENT	SYSCTL("perf_cpu_time_max_percent")

FIXTURE(sysctl) {
	const char *path;
	long saved;
	long saved_percent;
};

FIXTURE_VARIANT(sysctl) {
	const char *path;
	long good;
	long bad_low;
	long bad_high;
	int check_high;
};

FIXTURE_VARIANT_ADD(sysctl, max_sample_rate) {
	.path = SYSCTL("perf_event_max_sample_rate"),
	.good = 1000,
	.bad_low = 0,
};

FIXTURE_VARIANT_ADD(sysctl, cpu_time_max_percent) {
	.path = SYSCTL("perf_cpu_time_max_percent"),
	.good = 50,
	.bad_low = -1,
	.bad_high = 101,
	.check_high = 1,
};

FIXTURE_VARIANT_ADD(sysctl, max_stack) {
	.path = SYSCTL("perf_event_max_stack"),
	.good = 64,
	.bad_low = -1,
	.bad_high = 640 * 1024 + 1,
	.check_high = 1,
};

FIXTURE_VARIANT_ADD(sysctl, max_contexts_per_stack) {
	.path = SYSCTL("perf_event_max_contexts_per_stack"),
	.good = 4,
	.bad_low = -1,
	.bad_high = 1001,
	.check_high = 1,
};

FIXTURE_SETUP(sysctl)
{
	self->path = variant->path;
	if (getuid() != 0)
		SKIP(return, "needs root to write sysctls");
	ASSERT_EQ(0, read_int_file(self->path, &self->saved));
	/* the sample rate can change only while throttling is on */
	ASSERT_EQ(0, read_int_file(CPU_PERCENT, &self->saved_percent));
	ASSERT_EQ(0, write_int_file(CPU_PERCENT, 25));
}

FIXTURE_TEARDOWN(sysctl)
{
	if (getuid() != 0)
		return;
	write_int_file(self->path, self->saved);
	write_int_file(CPU_PERCENT, self->saved_percent);
}

TEST_F(sysctl, range)
{
	long v;

	ASSERT_EQ(0, write_int_file(self->path, variant->good));
	ASSERT_EQ(0, read_int_file(self->path, &v));
	EXPECT_EQ(variant->good, v);
	EXPECT_EQ(-EINVAL, write_int_file(self->path, variant->bad_low));
	if (variant->check_high)
		EXPECT_EQ(-EINVAL, write_int_file(self->path,
						  variant->bad_high));
	ASSERT_EQ(0, read_int_file(self->path, &v));
	EXPECT_EQ(variant->good, v);
}

#define RATE	SYSCTL("perf_event_max_sample_rate")

FIXTURE(rate) {
	long saved;
	long saved_percent;
};

FIXTURE_SETUP(rate)
{
	if (getuid() != 0)
		SKIP(return, "needs root to write sysctls");
	ASSERT_EQ(0, read_int_file(RATE, &self->saved));
	ASSERT_EQ(0, read_int_file(CPU_PERCENT, &self->saved_percent));
	ASSERT_EQ(0, write_int_file(CPU_PERCENT, 25));
}

FIXTURE_TEARDOWN(rate)
{
	if (getuid() != 0)
		return;
	write_int_file(CPU_PERCENT, 25);
	write_int_file(RATE, self->saved);
	write_int_file(CPU_PERCENT, self->saved_percent);
}

/* attr.sample_freq above perf_event_max_sample_rate is refused. */
TEST_F(rate, bounds_freq)
{
	struct perf_event_attr attr;
	int fd;

	ASSERT_EQ(0, write_int_file(RATE, 1000));
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.freq = 1;
	attr.sample_freq = 1001;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	if (fd >= 0)
		close(fd);
}

/*
 * With throttling off, the sample rate cannot be changed: the write is
 * refused and the value stays what it was.
 */
TEST_F(rate, fixed_without_throttling)
{
	long before, after;

	ASSERT_EQ(0, read_int_file(RATE, &before));
	ASSERT_EQ(0, write_int_file(CPU_PERCENT, 0));
	EXPECT_EQ(-EINVAL, write_int_file(RATE, 2000));
	ASSERT_EQ(0, read_int_file(RATE, &after));
	EXPECT_EQ(before, after);
	ASSERT_EQ(0, write_int_file(CPU_PERCENT, 100));
	EXPECT_EQ(-EINVAL, write_int_file(RATE, 2001));
	ASSERT_EQ(0, read_int_file(RATE, &after));
	EXPECT_EQ(before, after);
}

TEST_HARNESS_MAIN
