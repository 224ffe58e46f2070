// SPDX-License-Identifier: GPL-2.0
/*
 * A hybrid Intel part (Alder Lake and later clients): a PMU for each core
 * type, cpu_core (PERF_TYPE_RAW) and cpu_atom (a type of its own), each
 * with the CPUs of its type in its "cpus" file.  An event of one type
 * bound to a CPU of the other is ENOENT; generic events name their PMU in
 * config's upper half (the extended type), and one naming no PMU that
 * takes them is ENOENT; a group may not mix the two; a task event counts
 * only while its task runs on a CPU of its type, and elsewhere waits
 * (neither in error nor multiplexed); a CPU going offline leaves its
 * type's "cpus" and comes back with it.  Skips on any other part.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define DEVICES		"/sys/bus/event_source/devices"
#define INSTRUCTIONS	0xc0	/* raw: INST_RETIRED.ANY_P */

/* parse a "cpus" file ("0-1", "2,4-5") into @set: 0 or -1 */
static int read_cpus(const char *pmu, cpu_set_t *set)
{
	char path[128], buf[256], *p;
	long a, b;

	CPU_ZERO(set);
	snprintf(path, sizeof(path), DEVICES "/%s/cpus", pmu);
	if (read_first_line(path, buf, sizeof(buf)))
		return -1;
	for (p = buf; *p;) {
		a = strtol(p, &p, 10);
		b = a;
		if (*p == '-')
			b = strtol(p + 1, &p, 10);
		for (; a <= b && a < CPU_SETSIZE; a++)
			CPU_SET(a, set);
		if (*p != ',')
			break;
		p++;
	}
	return 0;
}

static int first_cpu(const cpu_set_t *set)
{
	int i;

	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, set))
			return i;
	return -1;
}

/* an event of @type/@config on @pid/@cpu in @group: fd or -errno */
static int open_in(long type, __u64 config, pid_t pid, int cpu, int group,
		   bool pinned)
{
	struct perf_event_attr attr;
	int fd;

	pmu_counting_attr(&attr, type, config);
	attr.pinned = pinned;
	fd = sys_perf_event_open(&attr, pid, cpu, group, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* 0 where it opens (closed again), else the errno */
static int try_open(long type, __u64 config, pid_t pid, int cpu)
{
	int fd = open_in(type, config, pid, cpu, -1, false);

	if (fd < 0)
		return -fd;
	close(fd);
	return 0;
}

struct times {
	__u64 count, enabled, running;
};

static int read_times(int fd, struct times *t)
{
	return read(fd, t, sizeof(*t)) == sizeof(*t) ? 0 : -1;
}

FIXTURE(hybrid) {
	long core, atom;
	cpu_set_t core_cpus, atom_cpus;
	int core_cpu, atom_cpu;
	cpu_set_t old;
};

FIXTURE_SETUP(hybrid)
{
	if (read_pmu_type("cpu_core", &self->core) ||
	    read_pmu_type("cpu_atom", &self->atom))
		SKIP(return, "not a hybrid part");
	ASSERT_EQ(0, read_cpus("cpu_core", &self->core_cpus));
	ASSERT_EQ(0, read_cpus("cpu_atom", &self->atom_cpus));
	self->core_cpu = first_cpu(&self->core_cpus);
	self->atom_cpu = first_cpu(&self->atom_cpus);
	if (self->core_cpu < 0 || self->atom_cpu < 0)
		SKIP(return, "a core type without CPUs");
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(self->old), &self->old));
}

FIXTURE_TEARDOWN(hybrid)
{
	sched_setaffinity(0, sizeof(self->old), &self->old);
}

/* the two "cpus" files split the online CPUs between them */
TEST_F(hybrid, cpus_partition)
{
	cpu_set_t both;

	EXPECT_EQ(PERF_TYPE_RAW, self->core);
	EXPECT_GE(self->atom, PERF_TYPE_MAX);
	CPU_AND(&both, &self->core_cpus, &self->atom_cpus);
	EXPECT_EQ(0, CPU_COUNT(&both));
	EXPECT_EQ(sysconf(_SC_NPROCESSORS_ONLN),
		  CPU_COUNT(&self->core_cpus) + CPU_COUNT(&self->atom_cpus));
}

/* an event bound to a CPU of the other core type: ENOENT */
TEST_F(hybrid, cpu_of_other_type)
{
	EXPECT_EQ(0, try_open(self->core, INSTRUCTIONS, -1, self->core_cpu));
	EXPECT_EQ(0, try_open(self->atom, INSTRUCTIONS, -1, self->atom_cpu));
	EXPECT_EQ(ENOENT, try_open(self->core, INSTRUCTIONS, -1,
				   self->atom_cpu));
	EXPECT_EQ(ENOENT, try_open(self->atom, INSTRUCTIONS, -1,
				   self->core_cpu));
	/* a task event bound to a CPU too */
	EXPECT_EQ(ENOENT, try_open(self->atom, INSTRUCTIONS, 0,
				   self->core_cpu));
	EXPECT_EQ(0, try_open(self->atom, INSTRUCTIONS, 0, self->atom_cpu));
	EXPECT_EQ(0, try_open(self->atom, INSTRUCTIONS, 0, -1));
	/* a plain generic event finds the PMU of the CPU it is bound to */
	EXPECT_EQ(0, try_open(PERF_TYPE_HARDWARE,
			      PERF_COUNT_HW_INSTRUCTIONS, -1, self->atom_cpu));
	EXPECT_EQ(0, try_open(PERF_TYPE_HARDWARE,
			      PERF_COUNT_HW_INSTRUCTIONS, -1, self->core_cpu));
}

/* generic events naming their PMU in config's upper half */
TEST_F(hybrid, extended_type)
{
	__u64 core = (__u64)self->core << PERF_PMU_TYPE_SHIFT;
	__u64 atom = (__u64)self->atom << PERF_PMU_TYPE_SHIFT;
	__u64 sw = (__u64)PERF_TYPE_SOFTWARE << PERF_PMU_TYPE_SHIFT;
	__u64 none = 0xffffULL << PERF_PMU_TYPE_SHIFT;
	__u64 l1d = PERF_COUNT_HW_CACHE_L1D |
		    PERF_COUNT_HW_CACHE_OP_READ << 8 |
		    PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16;

	EXPECT_EQ(0, try_open(PERF_TYPE_HARDWARE, core | 1, 0, -1));
	EXPECT_EQ(0, try_open(PERF_TYPE_HARDWARE, atom | 1, 0, -1));
	EXPECT_EQ(0, try_open(PERF_TYPE_HW_CACHE, core | l1d, 0, -1));
	EXPECT_EQ(0, try_open(PERF_TYPE_HW_CACHE, atom | l1d, 0, -1));
	EXPECT_EQ(0, try_open(PERF_TYPE_HARDWARE, atom | 1, -1,
			      self->atom_cpu));
	EXPECT_EQ(ENOENT, try_open(PERF_TYPE_HARDWARE, atom | 1, -1,
				   self->core_cpu));
	EXPECT_EQ(ENOENT, try_open(PERF_TYPE_HARDWARE, core | 1, -1,
				   self->atom_cpu));
	/* a PMU that takes no generic events; past the last generic one */
	EXPECT_EQ(ENOENT, try_open(PERF_TYPE_HARDWARE, sw | 1, 0, -1));
	EXPECT_EQ(EINVAL, try_open(PERF_TYPE_HARDWARE,
				   core | PERF_COUNT_HW_MAX, 0, -1));
	/* no such PMU: the one of the CPU takes it, as without a type */
	EXPECT_EQ(0, try_open(PERF_TYPE_HARDWARE, none | 1, -1,
			      self->atom_cpu));
	EXPECT_EQ(0, try_open(PERF_TYPE_HARDWARE, none | 1, -1,
			      self->core_cpu));
}

/* a group's hardware events are of one core type */
TEST_F(hybrid, mixed_groups)
{
	struct perf_event_attr sw;
	int lead, member, other;

	lead = open_in(self->core, INSTRUCTIONS, 0, -1, -1, false);
	ASSERT_GE(lead, 0);
	EXPECT_EQ(-EINVAL, open_in(self->atom, INSTRUCTIONS, 0, -1, lead,
				   false));
	close(lead);
	lead = open_in(self->atom, INSTRUCTIONS, 0, -1, -1, false);
	ASSERT_GE(lead, 0);
	EXPECT_EQ(-EINVAL, open_in(self->core, INSTRUCTIONS, 0, -1, lead,
				   false));
	close(lead);
	/* behind a software leader too */
	sw_attr(&sw, PERF_COUNT_SW_TASK_CLOCK);
	lead = sys_perf_event_open(&sw, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(lead, 0);
	member = open_in(self->core, INSTRUCTIONS, 0, -1, lead, false);
	EXPECT_GE(member, 0);
	other = open_in(self->atom, INSTRUCTIONS, 0, -1, lead, false);
	EXPECT_EQ(-EINVAL, other);
	if (member >= 0)
		close(member);
	close(lead);
	/* on a CPU, the member of the other type finds no PMU there */
	lead = open_in(self->core, INSTRUCTIONS, -1, self->core_cpu, -1,
		       false);
	ASSERT_GE(lead, 0);
	EXPECT_EQ(-ENOENT, open_in(self->atom, INSTRUCTIONS, -1,
				   self->core_cpu, lead, false));
	close(lead);
}

/*
 * A task event of one type counts only on that type's CPUs; elsewhere it
 * is neither in error (a pinned event would read EOF) nor running
 */
static void follows_the_task(struct __test_metadata *_metadata, long atom,
			     int core_cpu, int atom_cpu, bool pinned)
{
	struct times t;
	int fd;

	ASSERT_EQ(0, pin_to(core_cpu));
	fd = open_in(atom, INSTRUCTIONS, 0, -1, -1, pinned);
	ASSERT_GE(fd, 0);
	burn(20);
	ASSERT_EQ(0, read_times(fd, &t));
	EXPECT_EQ(0, t.count);
	EXPECT_GT(t.enabled, 0);
	EXPECT_EQ(0, t.running);
	ASSERT_EQ(0, pin_to(atom_cpu));
	burn(20);
	ASSERT_EQ(0, read_times(fd, &t));
	EXPECT_GT(t.count, 0);
	EXPECT_GT(t.running, 0);
	EXPECT_LT(t.running, t.enabled);
	close(fd);
}

TEST_F(hybrid, follows_the_task)
{
	follows_the_task(_metadata, self->atom, self->core_cpu,
			 self->atom_cpu, false);
}

TEST_F(hybrid, pinned_follows_the_task)
{
	follows_the_task(_metadata, self->atom, self->core_cpu,
			 self->atom_cpu, true);
}

/* a CPU going offline leaves its type's "cpus", and comes back */
TEST_F(hybrid, cpu_hotplug)
{
	char path[96];
	cpu_set_t cpus;
	int cpu = -1, i;

	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &self->atom_cpus) && i)
			cpu = i;
	if (cpu < 0)
		SKIP(return, "no E-core but CPU 0");
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	if (write_int_file(path, 0))
		SKIP(return, "cannot take CPU %d offline", cpu);
	ASSERT_EQ(0, read_cpus("cpu_atom", &cpus));
	EXPECT_FALSE(CPU_ISSET(cpu, &cpus));
	EXPECT_EQ(CPU_COUNT(&self->atom_cpus) - 1, CPU_COUNT(&cpus));
	ASSERT_EQ(0, write_int_file(path, 1));
	ASSERT_EQ(0, read_cpus("cpu_atom", &cpus));
	EXPECT_TRUE(CPU_EQUAL(&cpus, &self->atom_cpus));
	/* and counts there again */
	EXPECT_EQ(0, try_open(self->atom, INSTRUCTIONS, -1, cpu));
}

TEST_HARNESS_MAIN
