// SPDX-License-Identifier: GPL-2.0
/*
 * User-space counter access on the arm64 PMUv3, as far as it shows without
 * the user page: the kernel.perf_user_access sysctl (0 or 1 only), and
 * events asking for access (config1 rdpmc bit) opening and counting
 * whether or not the sysctl allows it, and CPU-wide events refused access.
 */
#include "pmuv3_helpers.h"
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
 * Access is for self-monitoring tasks: while the sysctl allows it, a
 * CPU-wide event asking for it is invalid; with the sysctl off the bit is
 * ignored and the event opens.
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
		if (on) {
			EXPECT_EQ(-1, fd);
			EXPECT_EQ(EINVAL, errno);
		} else {
			EXPECT_LE(0, fd) TH_LOG("%s", strerror(errno));
		}
		if (fd >= 0)
			close(fd);
	}
}

TEST_HARNESS_MAIN
