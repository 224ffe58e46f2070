// SPDX-License-Identifier: GPL-2.0
/*
 * The "power" PMU (RAPL energy counters) and, through it, the core's PMU
 * scopes: a package-scoped PMU counts CPU events only, on the package's
 * designated CPU (its "cpumask"), whichever CPU of the package the event
 * was opened for, also an offline one.  Its sysfs files, the refusals
 * (tasks, sampling, exclusion, configs of domains the part lacks), counts
 * that grow, groups, cgroup events (EINVAL: no task context).  Skips
 * where there is no power PMU (a part no model table knows, or a
 * hypervisor without the MSRs).
 *
 * AMD family 15h's "power" PMU (accumulated power) instead: its one event,
 * power-pkg, the average power of a compute unit in microwatts, which
 * every look at the event adds to its count; any online CPU takes one;
 * "cpumask" lists only the CPUs with no other online thread in their
 * compute unit (acc_power.*).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define POWER_DIR	"/sys/bus/event_source/devices/power"
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"
#define ENERGY_PKG	2

/* the config of events/<name>, or -1 */
static int event_config(const char *name)
{
	char path[320], buf[64];
	unsigned int ev;

	snprintf(path, sizeof(path), POWER_DIR "/events/%s", name);
	if (read_first_line(path, buf, sizeof(buf)) ||
	    sscanf(buf, "event=%x", &ev) != 1)
		return -1;
	return ev;
}

FIXTURE(power) {
	int type;
};

FIXTURE_SETUP(power)
{
	long type;

	if (read_int_file(POWER_DIR "/type", &type))
		SKIP(return, "no power PMU");
	self->type = type;
	if (event_config("energy-pkg") != ENERGY_PKG)
		SKIP(return, "no energy-pkg event");
}

FIXTURE_TEARDOWN(power)
{
}

/* every event has a unit in joules and the scale of 2^-32 J */
TEST_F(power, sysfs)
{
	char buf[128], path[320];
	struct dirent *e;
	int nr = 0;
	DIR *d;

	ASSERT_EQ(read_first_line(POWER_DIR "/format/event", buf, sizeof(buf)),
		  0);
	EXPECT_STREQ(buf, "config:0-7");
	ASSERT_EQ(read_first_line(POWER_DIR "/cpumask", buf, sizeof(buf)), 0);
	EXPECT_NE(buf[0], '\0');
	d = opendir(POWER_DIR "/events");
	ASSERT_NE(d, NULL);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || strchr(e->d_name, '.'))
			continue;
		EXPECT_EQ(strncmp(e->d_name, "energy-", 7), 0)
			TH_LOG("event %s", e->d_name);
		snprintf(path, sizeof(path), POWER_DIR "/events/%s.unit",
			 e->d_name);
		ASSERT_EQ(read_first_line(path, buf, sizeof(buf)), 0);
		EXPECT_STREQ(buf, "Joules");
		snprintf(path, sizeof(path), POWER_DIR "/events/%s.scale",
			 e->d_name);
		ASSERT_EQ(read_first_line(path, buf, sizeof(buf)), 0);
		EXPECT_STREQ(buf, "2.3283064365386962890625e-10");
		nr++;
	}
	closedir(d);
	EXPECT_GE(nr, 1);
}

/* energy-pkg with one thing the PMU cannot do: each is EINVAL */
static const struct perf_event_attr power_refused[] = {
	{ .sample_period = 1000 },
	{ .freq = 1, .sample_freq = 100 },
	{ .exclude_user = 1 },
	{ .exclude_kernel = 1 },
	{ .exclude_hv = 1 },
	{ .exclude_idle = 1 },
	{ .exclude_host = 1 },
	{ .exclude_guest = 1 },
};

TEST_F(power, refusals)
{
	struct perf_event_attr attr;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(power_refused); i++) {
		attr = power_refused[i];
		attr.size = sizeof(attr);
		attr.type = self->type;
		attr.config = ENERGY_PKG;
		EXPECT_EQ(open_event_errno(&attr, -1, 0), EINVAL)
			TH_LOG("case %zu", i);
	}
	/* no task context: per task, on a CPU or not */
	pmu_counting_attr(&attr, self->type, ENERGY_PKG);
	EXPECT_EQ(open_event_errno(&attr, 0, -1), EINVAL);
	EXPECT_EQ(open_event_errno(&attr, 0, 0), EINVAL);
}

/*
 * A cgroup event counts its cgroup's tasks, which a PMU without task
 * contexts cannot: EINVAL, also for the root cgroup (cgroup2, mounted on
 * /sys/fs/cgroup where nothing is).
 */
TEST_F(power, cgroup_event)
{
	struct perf_event_attr attr;
	int cg, fd;

	if (access("/sys/fs/cgroup/cgroup.procs", F_OK)) {
		mkdir("/sys/fs/cgroup", 0755);
		if (mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL))
			SKIP(return, "no cgroup2 (%s)", strerror(errno));
	}
	cg = open("/sys/fs/cgroup", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_GE(cg, 0);
	/* a software event takes it, where the kernel has cgroup events */
	sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
	fd = sys_perf_event_open(&attr, cg, 0, -1,
				 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		close(cg);
		SKIP(return, "no cgroup events (%s)", strerror(errno));
	}
	close(fd);
	pmu_counting_attr(&attr, self->type, ENERGY_PKG);
	fd = sys_perf_event_open(&attr, cg, 0, -1,
				 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
	EXPECT_LT(fd, 0);
	EXPECT_EQ(errno, EINVAL);
	if (fd >= 0)
		close(fd);
	close(cg);
}

/* the configs of sysfs events open, every other one is EINVAL */
TEST_F(power, only_present_domains)
{
	static const char *const names[] = {
		NULL, "energy-cores", "energy-pkg", "energy-ram",
		"energy-gpu", "energy-psys",
	};
	struct perf_event_attr attr;
	unsigned int config;

	for (config = 0; config < 0x110; config++) {
		int present = config < ARRAY_SIZE(names) && names[config] &&
			      event_config(names[config]) == (int)config;

		pmu_counting_attr(&attr, self->type, config);
		EXPECT_EQ(open_event_errno(&attr, -1, 0), present ? 0 : EINVAL)
			TH_LOG("config %#x", config);
	}
}

/* The package's energy grows on every online CPU's event. */
TEST_F(power, counts_on_each_cpu)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN), on;
	struct perf_event_attr attr;
	char path[128];
	int cpu;

	pmu_counting_attr(&attr, self->type, ENERGY_PKG);
	for (cpu = 0; cpu < ncpu && cpu < 8; cpu++) {
		uint64_t v[3], w[3];
		int fd;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/online", cpu);
		if (cpu && (read_int_file(path, &on) || !on))
			continue;
		fd = sys_perf_event_open(&attr, -1, cpu, -1,
					 PERF_FLAG_FD_CLOEXEC);
		ASSERT_GE(fd, 0) TH_LOG("cpu %d: %s", cpu, strerror(errno));
		ASSERT_EQ(read(fd, v, sizeof(v)), sizeof(v));
		burn(30);
		ASSERT_EQ(read(fd, w, sizeof(w)), sizeof(w));
		EXPECT_GT(w[0], v[0]) TH_LOG("cpu %d", cpu);
		EXPECT_EQ(w[1], w[2]) TH_LOG("cpu %d", cpu);
		/* disabled: no more joules; reset: from zero */
		ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
		ASSERT_EQ(read(fd, v, sizeof(v)), sizeof(v));
		burn(10);
		ASSERT_EQ(read(fd, w, sizeof(w)), sizeof(w));
		EXPECT_EQ(w[0], v[0]);
		ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_RESET, 0), 0);
		ASSERT_EQ(read(fd, w, sizeof(w)), sizeof(w));
		EXPECT_EQ(w[0], 0);
		close(fd);
	}
}

/* @member opens on @cpu in a group that @leader leads: 0 or the errno */
static int group_errno(struct perf_event_attr *leader,
		       struct perf_event_attr *member, int cpu)
{
	int lfd, fd, err = 0;

	lfd = sys_perf_event_open(leader, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (lfd < 0)
		return -errno;
	fd = sys_perf_event_open(member, -1, cpu, lfd, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		err = errno;
	else
		close(fd);
	close(lfd);
	return err;
}

/* in a group of a software event of the designated CPU, and leading one */
TEST_F(power, in_groups)
{
	struct perf_event_attr sw, power;
	char buf[64];
	int cpu;

	ASSERT_EQ(read_first_line(POWER_DIR "/cpumask", buf, sizeof(buf)), 0);
	cpu = atoi(buf);
	sw_attr(&sw, PERF_COUNT_SW_CPU_CLOCK);
	sw.exclude_kernel = 0;
	pmu_counting_attr(&power, self->type, ENERGY_PKG);
	EXPECT_EQ(group_errno(&sw, &power, cpu), 0);
	EXPECT_EQ(group_errno(&power, &sw, cpu), 0);
}

/*
 * CPU 1 offline: an event opened for it counts on the package's online
 * CPU, and one opened before keeps counting there.
 */
TEST_F(power, offline_cpu_of_the_package)
{
	struct perf_event_attr attr;
	uint64_t v[3], w[3];
	int before, after;
	long on;

	if (getuid() != 0)
		SKIP(return, "needs root to take CPU 1 offline");
	if (read_int_file(CPU1_ONLINE, &on) || on != 1)
		SKIP(return, "no CPU 1 that can go offline");
	pmu_counting_attr(&attr, self->type, ENERGY_PKG);
	before = sys_perf_event_open(&attr, -1, 1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(before, 0);
	ASSERT_EQ(write_int_file(CPU1_ONLINE, 0), 0);
	after = sys_perf_event_open(&attr, -1, 1, -1, PERF_FLAG_FD_CLOEXEC);
	EXPECT_GE(after, 0) TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(read(before, v, sizeof(v)), sizeof(v));
	burn(30);
	ASSERT_EQ(read(before, w, sizeof(w)), sizeof(w));
	EXPECT_GT(w[0], v[0]);
	if (after >= 0) {
		ASSERT_EQ(read(after, w, sizeof(w)), sizeof(w));
		EXPECT_GT(w[0], 0);
		close(after);
	}
	close(before);
	EXPECT_EQ(write_int_file(CPU1_ONLINE, 1), 0);
}

#define POWER_PKG	1

FIXTURE(acc_power) {
	int type;
};

FIXTURE_SETUP(acc_power)
{
	long type;

	if (read_int_file(POWER_DIR "/type", &type))
		SKIP(return, "no power PMU");
	self->type = type;
	if (event_config("power-pkg") != POWER_PKG)
		SKIP(return, "no power-pkg event (not AMD family 15h)");
}

FIXTURE_TEARDOWN(acc_power)
{
}

/* one event, in milliwatts, and the format of the RAPL PMU */
TEST_F(acc_power, sysfs)
{
	char buf[128];
	struct dirent *e;
	DIR *d;

	ASSERT_EQ(read_first_line(POWER_DIR "/format/event", buf, sizeof(buf)),
		  0);
	EXPECT_STREQ(buf, "config:0-7");
	ASSERT_EQ(read_first_line(POWER_DIR "/events/power-pkg.unit", buf,
				  sizeof(buf)), 0);
	EXPECT_STREQ(buf, "mWatts");
	ASSERT_EQ(read_first_line(POWER_DIR "/events/power-pkg.scale", buf,
				  sizeof(buf)), 0);
	EXPECT_STREQ(buf, "1.000000e-3");
	d = opendir(POWER_DIR "/events");
	ASSERT_NE(d, NULL);
	while ((e = readdir(d))) {
		if (e->d_name[0] != '.')
			EXPECT_EQ(strncmp(e->d_name, "power-pkg", 9), 0)
				TH_LOG("event %s", e->d_name);
	}
	closedir(d);
}

TEST_F(acc_power, refusals)
{
	static const __u64 configs[] = { 0, 2, 3, 0xff };
	struct perf_event_attr attr;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(power_refused); i++) {
		attr = power_refused[i];
		if (attr.exclude_host || attr.exclude_guest)
			continue;
		attr.size = sizeof(attr);
		attr.type = self->type;
		attr.config = POWER_PKG;
		EXPECT_EQ(open_event_errno(&attr, -1, 0), EINVAL)
			TH_LOG("case %zu", i);
	}
	for (i = 0; i < ARRAY_SIZE(configs); i++) {
		pmu_counting_attr(&attr, self->type, configs[i]);
		EXPECT_EQ(open_event_errno(&attr, -1, 0), EINVAL)
			TH_LOG("config %llu", (unsigned long long)configs[i]);
	}
	/* config1 is not looked at */
	pmu_counting_attr(&attr, self->type, POWER_PKG);
	attr.config1 = 1;
	EXPECT_EQ(open_event_errno(&attr, -1, 0), 0);
	/* no task context */
	pmu_counting_attr(&attr, self->type, POWER_PKG);
	EXPECT_EQ(open_event_errno(&attr, 0, -1), EINVAL);
	EXPECT_EQ(open_event_errno(&attr, 0, 0), EINVAL);
}

/*
 * Each look adds the average power since the one before: a read at once
 * after another adds about as much as the first did over 50 ms (the power
 * of a unit does not change fourfold in between).
 */
TEST_F(acc_power, each_look_adds_the_average)
{
	int64_t a, b;
	int fd;

	fd = open_cpu_counter(self->type, POWER_PKG, 0);
	ASSERT_LE(0, fd);
	usleep(50 * 1000);
	a = read_count(fd);
	b = read_count(fd);
	close(fd);
	ASSERT_LT(0, a);
	EXPECT_LT(a / 4, b - a);
	EXPECT_GT(a * 4, b - a);
}

static bool has_online_sibling(int cpu)
{
	char path[128], buf[256];
	int a, b;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
		 cpu);
	if (read_first_line(path, buf, sizeof(buf)))
		return false;
	/* "N" alone, or a list of several */
	return sscanf(buf, "%d-%d", &a, &b) == 2 || strchr(buf, ',');
}

/*
 * Every online CPU takes an event; cpumask lists those with no other
 * online thread in their unit: all of them, or none where every CPU has
 * a sibling online.
 */
TEST_F(acc_power, cpus_and_cpumask)
{
	long nr = sysconf(_SC_NPROCESSORS_ONLN);
	int cpu, fd, alone = 0;
	char buf[256];

	for (cpu = 0; cpu < nr; cpu++) {
		fd = open_cpu_counter(self->type, POWER_PKG, cpu);
		EXPECT_LE(0, fd) TH_LOG("cpu %d", cpu);
		if (fd >= 0)
			close(fd);
		alone += !has_online_sibling(cpu);
	}
	ASSERT_EQ(read_first_line(POWER_DIR "/cpumask", buf, sizeof(buf)), 0);
	if (!alone) {
		EXPECT_STREQ(buf, "");
	} else if (alone == nr) {
		char all[32];

		if (nr == 1)
			snprintf(all, sizeof(all), "0");
		else
			snprintf(all, sizeof(all), "0-%ld", nr - 1);
		EXPECT_STREQ(buf, all);
	}
}

TEST_HARNESS_MAIN
