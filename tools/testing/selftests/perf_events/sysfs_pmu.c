// SPDX-License-Identifier: GPL-2.0
/*
 * The PMUs under /sys/bus/event_source/devices: the fixed types of the
 * software, tracepoint and breakpoint PMUs, unique types for all of them,
 * and perf_event_open(2) with a type read from sysfs.
 */
#include <dirent.h>
#include <stdlib.h>

#include "perf_helpers.h"
#include "../kselftest_harness.h"

#define PMU_DIR	"/sys/bus/event_source/devices"

FIXTURE(fixed) {
};

FIXTURE_VARIANT(fixed) {
	const char *pmu;
	long type;
	int optional;		/* may be configured out */
};

FIXTURE_VARIANT_ADD(fixed, software) {
	.pmu = "software", .type = PERF_TYPE_SOFTWARE,
};

FIXTURE_VARIANT_ADD(fixed, tracepoint) {
	.pmu = "tracepoint", .type = PERF_TYPE_TRACEPOINT, .optional = 1,
};

FIXTURE_VARIANT_ADD(fixed, breakpoint) {
	.pmu = "breakpoint", .type = PERF_TYPE_BREAKPOINT, .optional = 1,
};

FIXTURE_SETUP(fixed)
{
}

FIXTURE_TEARDOWN(fixed)
{
}

TEST_F(fixed, type_file)
{
	long type;
	int ret;

	ret = read_pmu_type(variant->pmu, &type);
	if (ret == -ENOENT && variant->optional)
		SKIP(return, "no %s PMU", variant->pmu);
	ASSERT_EQ(0, ret) TH_LOG("%s/type: %s", variant->pmu, strerror(-ret));
	EXPECT_EQ(variant->type, type);
}

/* Every PMU has a readable type, and no two share one. */
TEST(types_unique)
{
	long types[256], type;
	struct dirent *de;
	int n = 0, i;
	DIR *d;

	d = opendir(PMU_DIR);
	if (!d)
		SKIP(return, "no " PMU_DIR);
	while ((de = readdir(d)) && n < 256) {
		if (de->d_name[0] == '.')
			continue;
		ASSERT_EQ(0, read_pmu_type(de->d_name, &type)) TH_LOG("%s", de->d_name);
		EXPECT_LE(0, type);
		for (i = 0; i < n; i++)
			EXPECT_NE(types[i], type) TH_LOG("%s", de->d_name);
		types[n++] = type;
	}
	closedir(d);
	EXPECT_LT(0, n);
}

/* The type read from sysfs opens the same event as PERF_TYPE_SOFTWARE. */
TEST(open_with_sysfs_type)
{
	struct perf_event_attr attr;
	uint64_t count;
	long type;
	int fd;

	ASSERT_EQ(0, read_pmu_type("software", &type));
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.type = type;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && errno == EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	/* with a jiffies sched_clock (TSC found unstable) time moves in ticks */
	burn(30);
	ASSERT_EQ(sizeof(count), read(fd, &count, sizeof(count)));
	EXPECT_LT(0, count);
	close(fd);
}

/* A dynamic PMU (uprobe, kprobe, msr, ...) opens by its sysfs type only. */
TEST(dynamic_types_are_above_fixed)
{
	static const char *const dyn[] = { "uprobe", "kprobe", "msr" };
	unsigned int i, seen = 0;
	long type;

	for (i = 0; i < ARRAY_SIZE(dyn); i++) {
		if (read_pmu_type(dyn[i], &type))
			continue;
		EXPECT_LE(PERF_TYPE_MAX, type) TH_LOG("%s", dyn[i]);
		seen++;
	}
	if (!seen)
		SKIP(return, "no uprobe, kprobe or msr PMU");
}

TEST_HARNESS_MAIN
