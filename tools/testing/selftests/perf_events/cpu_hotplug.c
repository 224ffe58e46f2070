// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU events across CPU hotplug: an event on a CPU that goes offline
 * stops counting for good and keeps its count (it does not come back with
 * the CPU, as on stock), and opening one on an offline CPU fails with
 * ENODEV.
 */
#include <fcntl.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define MS	1000000LL
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

static int set_online(int on)
{
	return write_int_file(CPU1_ONLINE, on);
}

FIXTURE(cpu1) {
	int fd;
};

FIXTURE_SETUP(cpu1)
{
	long on;

	self->fd = -1;
	if (getuid() != 0)
		SKIP(return, "needs root to take CPU 1 offline");
	if (read_int_file(CPU1_ONLINE, &on) || on != 1)
		SKIP(return, "no CPU 1 that can go offline");
}

FIXTURE_TEARDOWN(cpu1)
{
	if (self->fd >= 0)
		close(self->fd);
	set_online(1);
}

static int open_cpu_clock(int cpu)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.exclude_kernel = 0;
	fd = sys_perf_event_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

TEST_F(cpu1, stops_for_good_when_offline)
{
	int64_t a, b, c;

	self->fd = open_cpu_clock(1);
	ASSERT_LE(0, self->fd);
	usleep(20 * 1000);
	ASSERT_EQ(0, set_online(0));
	a = read_count(self->fd);
	EXPECT_LT(10 * MS, a);
	usleep(30 * 1000);
	b = read_count(self->fd);
	EXPECT_EQ(a, b);
	ASSERT_EQ(0, set_online(1));
	usleep(30 * 1000);
	c = read_count(self->fd);
	EXPECT_EQ(b, c);
	/* a new event on the returning CPU counts as usual */
	close(self->fd);
	self->fd = open_cpu_clock(1);
	ASSERT_LE(0, self->fd);
	usleep(30 * 1000);
	EXPECT_LT(20 * MS, read_count(self->fd));
}

TEST_F(cpu1, open_on_offline_cpu)
{
	ASSERT_EQ(0, set_online(0));
	self->fd = open_cpu_clock(1);
	EXPECT_EQ(-ENODEV, self->fd);
}

TEST_HARNESS_MAIN
