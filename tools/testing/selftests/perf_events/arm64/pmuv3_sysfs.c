// SPDX-License-Identifier: GPL-2.0
/*
 * What the arm64 PMUv3 PMU shows in sysfs: format/ with stock's bit
 * positions, events/ with only events that open and count, caps/ and
 * cpus; on an ACPI system, the PMU's name and place.
 */
#include "pmuv3_helpers.h"
#include "../../kselftest_harness.h"

FIXTURE(pmuv3) {
	struct pmuv3_info pmu;
	char dir[256];
};

FIXTURE_SETUP(pmuv3)
{
	if (pmuv3_find(&self->pmu))
		SKIP(return, "no PMUv3 PMU");
	snprintf(self->dir, sizeof(self->dir), PMU_DEVICES "/%s",
		 self->pmu.name);
}

FIXTURE_TEARDOWN(pmuv3)
{
}

/* The first line of @dir/@file, without its newline; 0 or -errno. */
static int read_line(const char *dir, const char *file, char *buf, int len)
{
	char path[512];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (!fgets(buf, len, f))
		ret = -EIO;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return ret;
}

/* The number after @prefix in @buf, as hex; -1 when it is not there. */
static long parse_hex(const char *buf, const char *prefix)
{
	size_t len = strlen(prefix);
	char *end;
	long v;

	if (strncmp(buf, prefix, len))
		return -1;
	v = strtol(buf + len, &end, 16);
	return end == buf + len || *end ? -1 : v;
}

/* Every listed event has the event=0x%04x form and opens and counts. */
TEST_F(pmuv3, events_open)
{
	struct perf_event_attr attr;
	char path[512], buf[64];
	struct dirent *de;
	long num;
	int n = 0, fd;
	DIR *d;

	snprintf(path, sizeof(path), "%s/events", self->dir);
	d = opendir(path);
	ASSERT_NE(NULL, d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		ASSERT_EQ(0, read_line(path, de->d_name, buf, sizeof(buf)));
		num = parse_hex(buf, "event=0x");
		ASSERT_LE(0, num) TH_LOG("%s", buf);
		EXPECT_EQ(12, strlen(buf)) TH_LOG("%s: %s", de->d_name, buf);
		hw_attr(&attr, self->pmu.type, num);
		fd = open_attr(&attr, -1);
		EXPECT_LE(0, fd) TH_LOG("%s: %s", de->d_name, strerror(-fd));
		if (fd >= 0)
			close(fd);
		n++;
	}
	closedir(d);
	EXPECT_LE(2, n);
}

/* caps/ values are 0x%08x; cpus lists CPU 0 on a homogeneous machine. */
TEST_F(pmuv3, caps_and_cpus)
{
	static const char *const caps[] = {
		"caps/slots", "caps/bus_slots", "caps/bus_width",
	};
	char buf[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(caps); i++) {
		ASSERT_EQ(0, read_line(self->dir, caps[i], buf, sizeof(buf)))
			TH_LOG("%s", caps[i]);
		EXPECT_LE(0, parse_hex(buf, "0x")) TH_LOG("%s", buf);
		EXPECT_EQ(10, strlen(buf)) TH_LOG("%s: %s", caps[i], buf);
	}
	ASSERT_EQ(0, read_line(self->dir, "cpus", buf, sizeof(buf)));
	EXPECT_NE(0, strlen(buf));
	EXPECT_LT(PERF_TYPE_MAX - 1, self->pmu.type);
}

/*
 * Booted with ACPI tables, the PMU is armv8_pmuv3_<n> and has no parent
 * device: its sysfs directory is /sys/devices/<name>, and it serves every
 * online CPU of this homogeneous machine.
 */
TEST_F(pmuv3, acpi_name_and_place)
{
	long last = sysconf(_SC_NPROCESSORS_ONLN) - 1;
	char path[512], real[PATH_MAX], buf[256];
	int matched, n = -1;

	if (access("/sys/firmware/acpi/tables", F_OK))
		SKIP(return, "not booted with ACPI");
	matched = sscanf(self->pmu.name, "armv8_pmuv3_%d", &n);
	EXPECT_EQ(1, matched) TH_LOG("%s", self->pmu.name);
	EXPECT_EQ(0, n);
	ASSERT_NE(NULL, realpath(self->dir, real));
	snprintf(path, sizeof(path), "/sys/devices/%s", self->pmu.name);
	EXPECT_STREQ(path, real);
	ASSERT_EQ(0, read_line(self->dir, "cpus", buf, sizeof(buf)));
	if (last)
		snprintf(path, sizeof(path), "0-%ld", last);
	else
		snprintf(path, sizeof(path), "0");
	EXPECT_STREQ(path, buf);
}

/* A threshold needs FEAT_PMUv3_TH: beyond threshold_max it is EINVAL. */
TEST_F(pmuv3, threshold_max)
{
	struct perf_event_attr attr;
	char buf[64];
	long max;
	int fd;

	if (read_line(self->dir, "caps/threshold_max", buf, sizeof(buf)))
		SKIP(return, "no caps/threshold_max");
	max = parse_hex(buf, "0x");
	ASSERT_LE(0, max);
	if (max >= 4095)
		SKIP(return, "every threshold is valid here");
	hw_attr(&attr, self->pmu.type, EV_INST_RETIRED);
	attr.config1 = (__u64)(max + 1) << 5;
	EXPECT_EQ(-EINVAL, open_attr(&attr, -1));
	attr.config1 = 3 << 2;	/* a condition, no threshold */
	fd = open_attr(&attr, -1);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
}

/* Single files with a known value: format/ bits and the basic events. */
FIXTURE(attr_file) {
	struct pmuv3_info pmu;
	char dir[256];
};

FIXTURE_SETUP(attr_file)
{
	if (pmuv3_find(&self->pmu))
		SKIP(return, "no PMUv3 PMU");
	snprintf(self->dir, sizeof(self->dir), PMU_DEVICES "/%s",
		 self->pmu.name);
}

FIXTURE_TEARDOWN(attr_file)
{
}

FIXTURE_VARIANT(attr_file) {
	const char *file;
	const char *value;
	int optional;
};

FIXTURE_VARIANT_ADD(attr_file, event) {
	.file = "format/event", .value = "config:0-15",
};

FIXTURE_VARIANT_ADD(attr_file, long) {
	.file = "format/long", .value = "config1:0",
};

FIXTURE_VARIANT_ADD(attr_file, rdpmc) {
	.file = "format/rdpmc", .value = "config1:1",
};

FIXTURE_VARIANT_ADD(attr_file, threshold) {
	.file = "format/threshold", .value = "config1:5-16", .optional = 1,
};

FIXTURE_VARIANT_ADD(attr_file, threshold_compare) {
	.file = "format/threshold_compare", .value = "config1:3-4",
	.optional = 1,
};

FIXTURE_VARIANT_ADD(attr_file, threshold_count) {
	.file = "format/threshold_count", .value = "config1:2", .optional = 1,
};

FIXTURE_VARIANT_ADD(attr_file, cpu_cycles) {
	.file = "events/cpu_cycles", .value = "event=0x0011",
};

FIXTURE_VARIANT_ADD(attr_file, inst_retired) {
	.file = "events/inst_retired", .value = "event=0x0008",
};

TEST_F(attr_file, value)
{
	char buf[256];
	int ret;

	ret = read_line(self->dir, variant->file, buf, sizeof(buf));
	if (ret == -ENOENT && variant->optional)
		SKIP(return, "no %s", variant->file);
	ASSERT_EQ(0, ret) TH_LOG("%s: %s", variant->file, strerror(-ret));
	EXPECT_STREQ(variant->value, buf);
}

TEST_HARNESS_MAIN
