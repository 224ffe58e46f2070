// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU events across CPU hotplug: an event on a CPU that goes offline
 * stops counting for good and keeps its count (it does not come back with
 * the CPU, as on stock), and opening one on an offline CPU fails with
 * ENODEV.  A package-scoped PMU's events (power) move to another CPU of
 * the package when its designated CPU goes offline (a guest with two
 * CPUs in a package other than CPU 0's).  Groups opened while CPU 1 comes
 * and goes, with software members that turn static keys on and off (which
 * take the CPU hotplug lock): nothing deadlocks, and on a lockdep kernel
 * the order of that lock against the contexts' mutexes is checked.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define MS	1000000LL
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"
#define POWER_DIR	"/sys/bus/event_source/devices/power"
#define ENERGY_PKG	2

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

/*
 * Open and close groups, on CPU 1 and on the caller, until told to stop:
 * a software leader and members whose software events no one else uses,
 * so that each open turns their static keys on (the CPU hotplug lock,
 * read) and each close off; then a context-switch listener (the
 * scheduler's key).  Counts the opens that gave neither a descriptor nor
 * ENODEV (CPU 1 offline).
 */
struct opener {
	bool stop;	/* read and written with __atomic builtins */
	int opens;
	int bad;
	int last_errno;
};

static int open_member(__u64 config, int leader, int cpu)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, config);
	fd = sys_perf_event_open(&attr, cpu < 0 ? 0 : -1, cpu, leader,
				 PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static void *open_groups(void *arg)
{
	static const __u64 members[] = {
		PERF_COUNT_SW_ALIGNMENT_FAULTS, PERF_COUNT_SW_EMULATION_FAULTS,
		PERF_COUNT_SW_CPU_MIGRATIONS,
	};
	struct opener *o = arg;
	int fds[4], n, i, cpu = -1;

	while (!__atomic_load_n(&o->stop, __ATOMIC_RELAXED)) {
		cpu = cpu < 0 ? 1 : -1;
		n = 0;
		fds[n] = open_member(PERF_COUNT_SW_TASK_CLOCK, -1, cpu);
		for (i = 0; fds[0] >= 0 && i < 3; i++) {
			fds[++n] = open_member(members[i], fds[0], cpu);
			if (fds[n] < 0)
				break;
		}
		for (i = 0; i <= n; i++) {
			if (fds[i] >= 0) {
				close(fds[i]);
				continue;
			}
			if (fds[i] != -ENODEV) {
				o->bad++;
				o->last_errno = -fds[i];
			}
		}
		o->opens++;
	}
	return NULL;
}

TEST_F(cpu1, group_opens_race_offline)
{
	struct opener o = { .stop = false };
	pthread_t thread;
	int i;

	ASSERT_EQ(0, pthread_create(&thread, NULL, open_groups, &o));
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, set_online(0));
		usleep(5 * 1000);
		ASSERT_EQ(0, set_online(1));
		usleep(5 * 1000);
	}
	__atomic_store_n(&o.stop, true, __ATOMIC_RELAXED);
	pthread_join(thread, NULL);
	EXPECT_LT(0, o.opens);
	EXPECT_EQ(0, o.bad) TH_LOG("errno %d", o.last_errno);
}

/* Is @cpu online?  CPU 0 has no online file on x86: it always is. */
static bool cpu_online(int cpu)
{
	char path[96];
	long on;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	if (read_int_file(path, &on))
		return cpu == 0;
	return on == 1;
}

static long cpu_package(int cpu)
{
	char path[128];
	long id;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
		 cpu);
	return read_int_file(path, &id) ? -1 : id;
}

/* Parse a CPU list ("0,2-3") into @mask, one flag per CPU below @max. */
static int parse_cpus(const char *list, bool *mask, int max)
{
	const char *p = list;
	char *end;
	long a, b;

	memset(mask, 0, max * sizeof(*mask));
	while (*p) {
		a = strtol(p, &end, 10);
		if (end == p)
			return -1;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (; a <= b && a < max; a++)
			mask[a] = true;
		p = *end == ',' ? end + 1 : end;
		if (*p == '\n')
			break;
	}
	return 0;
}

#define MAX_CPUS	64

FIXTURE(package) {
	int fd;
	int type;
	int cpu;	/* a designated CPU other than CPU 0 */
	int heir;	/* another online CPU of its package */
	char online[96];
};

FIXTURE_SETUP(package)
{
	bool mask[MAX_CPUS];
	char buf[256];
	long type;
	int c, h;

	self->fd = -1;
	self->online[0] = '\0';
	if (getuid() != 0)
		SKIP(return, "needs root to take a CPU offline");
	if (read_pmu_type("power", &type))
		SKIP(return, "no power PMU");
	self->type = type;
	ASSERT_EQ(0, read_first_line(POWER_DIR "/cpumask", buf, sizeof(buf)));
	ASSERT_EQ(0, parse_cpus(buf, mask, MAX_CPUS));
	for (c = 1; c < MAX_CPUS; c++) {
		if (!mask[c])
			continue;
		for (h = 0; h < MAX_CPUS; h++) {
			if (h != c && cpu_online(h) &&
			    cpu_package(h) == cpu_package(c))
				break;
		}
		if (h < MAX_CPUS)
			break;
	}
	if (c == MAX_CPUS)
		SKIP(return, "no package but CPU 0's with two online CPUs");
	self->cpu = c;
	self->heir = h;
	snprintf(self->online, sizeof(self->online),
		 "/sys/devices/system/cpu/cpu%d/online", c);
}

FIXTURE_TEARDOWN(package)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->online[0])
		write_int_file(self->online, 1);
}

static bool in_cpumask(int cpu)
{
	bool mask[MAX_CPUS];
	char buf[256];

	if (read_first_line(POWER_DIR "/cpumask", buf, sizeof(buf)) ||
	    parse_cpus(buf, mask, MAX_CPUS))
		return false;
	return mask[cpu];
}

/*
 * The designated CPU goes offline: another CPU of the package takes its
 * place in cpumask, and its events go on counting there.  The CPU comes
 * back: the other stays designated.
 */
TEST_F(package, event_moves_with_designated_cpu)
{
	int64_t a, b, c;

	self->fd = open_cpu_counter(self->type, ENERGY_PKG, self->cpu);
	ASSERT_LE(0, self->fd);
	usleep(20 * 1000);
	a = read_count(self->fd);
	ASSERT_LT(0, a);
	ASSERT_EQ(0, write_int_file(self->online, 0));
	EXPECT_TRUE(in_cpumask(self->heir));
	EXPECT_FALSE(in_cpumask(self->cpu));
	b = read_count(self->fd);
	EXPECT_LE(a, b);
	usleep(20 * 1000);
	c = read_count(self->fd);
	EXPECT_LT(b, c);
	ASSERT_EQ(0, write_int_file(self->online, 1));
	EXPECT_TRUE(in_cpumask(self->heir));
	EXPECT_FALSE(in_cpumask(self->cpu));
	usleep(20 * 1000);
	EXPECT_LT(c, read_count(self->fd));
}

/* With its designated CPU offline, the package's events open on the other. */
TEST_F(package, open_for_offline_designated_cpu)
{
	ASSERT_EQ(0, write_int_file(self->online, 0));
	self->fd = open_cpu_counter(self->type, ENERGY_PKG, self->cpu);
	ASSERT_LE(0, self->fd);
	usleep(20 * 1000);
	EXPECT_LT(0, read_count(self->fd));
}

/*
 * On a lockdep kernel: no chain of locks taken one inside the other has
 * cpu_hotplug_lock inside a perf context's mutex.  The hotplug callbacks
 * take the mutexes inside it (the package test above moves events), so
 * the reverse order could deadlock against them.  Lockdep itself misses
 * it when an SRCU read section lies between the two (it takes such a
 * path for one that cannot block), as the PMU lookup's did around a
 * group member's whole allocation: the chains say it all the same.
 * Runs after the tests above, which open groups with software members
 * and take CPUs offline.
 */
FIXTURE(lockdep) {
	FILE *chains;
};

/* a fixture of its own, declared last: the harness runs it last */
FIXTURE_SETUP(lockdep)
{
	self->chains = fopen("/proc/lockdep_chains", "r");
	if (!self->chains)
		SKIP(return, "no /proc/lockdep_chains (not a lockdep kernel)");
}

FIXTURE_TEARDOWN(lockdep)
{
	if (self->chains)
		fclose(self->chains);
}

TEST_F(lockdep, no_hotplug_lock_inside_ctx_mutex)
{
	char line[256], chain[4096] = "";
	bool in_ctx = false, bad = false;

	while (fgets(line, sizeof(line), self->chains)) {
		if (!strncmp(line, "irq_context", 11) || line[0] == '\n') {
			in_ctx = false;
			chain[0] = '\0';
			continue;
		}
		if (strlen(chain) + strlen(line) < sizeof(chain))
			strcat(chain, line);
		if (strstr(line, "] &ctx->mutex"))
			in_ctx = true;
		if (in_ctx && strstr(line, "] cpu_hotplug_lock") && !bad) {
			bad = true;
			TH_LOG("chain:\n%s", chain);
		}
	}
	EXPECT_FALSE(bad);
}

TEST_HARNESS_MAIN
