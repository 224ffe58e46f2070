// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 "msr" PMU: free-running model-specific registers read as
 * counting events.  Under QEMU's TCG the time stamp counter is there
 * (events/tsc), and on the workbench's emulated models APERF, MPERF,
 * PPERF, SMI_COUNT and AMD's IRPERF as the model has them, and the thermal
 * margin where it has a digital thermal sensor.  Counting per task and per
 * CPU, in groups, and the refusals: sampling, any exclusion, events the
 * CPU lacks.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define MSR_DIR	"/sys/bus/event_source/devices/msr"

static int msr_type(void)
{
	long type;

	if (read_int_file(MSR_DIR "/type", &type))
		return -1;
	return type;
}

FIXTURE(msr) {
	int type;
};

FIXTURE_SETUP(msr)
{
	self->type = msr_type();
	if (self->type < 0)
		SKIP(return, "no msr PMU");
}

FIXTURE_TEARDOWN(msr)
{
}

TEST_F(msr, sysfs)
{
	char buf[64];

	EXPECT_GE(self->type, PERF_TYPE_MAX);
	ASSERT_EQ(read_first_line(MSR_DIR "/format/event", buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "config:0-63");
	ASSERT_EQ(read_first_line(MSR_DIR "/events/tsc", buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "event=0x00");
}

TEST_F(msr, tsc_counts_per_task)
{
	struct perf_event_attr attr;
	uint64_t v[3], w[3];
	int fd;

	pmu_counting_attr(&attr, self->type, 0);
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	burn(20);
	ASSERT_EQ(read(fd, v, sizeof(v)), sizeof(v));
	EXPECT_GT(v[0], 0);
	EXPECT_GT(v[1], 0);
	EXPECT_EQ(v[1], v[2]);
	burn(20);
	ASSERT_EQ(read(fd, w, sizeof(w)), sizeof(w));
	EXPECT_GT(w[0], v[0]);
	/* stopped: no more ticks */
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	ASSERT_EQ(read(fd, v, sizeof(v)), sizeof(v));
	burn(20);
	ASSERT_EQ(read(fd, w, sizeof(w)), sizeof(w));
	EXPECT_EQ(w[0], v[0]);
	/* reset: from zero again */
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_RESET, 0), 0);
	ASSERT_EQ(read(fd, w, sizeof(w)), sizeof(w));
	EXPECT_EQ(w[0], 0);
	close(fd);
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * A task that sleeps is not counted while it sleeps: across a 100 ms
 * sleep the tsc counts no more cycles than the task's own CPU time there
 * is worth (twice over, plus 5 ms), at the rate it counted while busy.
 * Only the task's CPU time matters, however slow the kernel.
 */
TEST_F(msr, tsc_stops_while_task_sleeps)
{
	uint64_t busy[3], idle[3], busy_ns, idle_ns, t;
	struct perf_event_attr attr;
	int fd;

	pmu_counting_attr(&attr, self->type, 0);
	t = thread_cpu_ns();
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	burn(50);
	ASSERT_EQ(read(fd, busy, sizeof(busy)), sizeof(busy));
	busy_ns = thread_cpu_ns() - t;
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_RESET, 0), 0);
	t = thread_cpu_ns();
	usleep(100000);
	ASSERT_EQ(read(fd, idle, sizeof(idle)), sizeof(idle));
	idle_ns = thread_cpu_ns() - t;
	EXPECT_LT(idle[0] * (double)busy_ns,
		  busy[0] * (double)(idle_ns + 5000000) * 2)
		TH_LOG("busy %llu in %llu ns, idle %llu in %llu ns",
		       (unsigned long long)busy[0],
		       (unsigned long long)busy_ns,
		       (unsigned long long)idle[0],
		       (unsigned long long)idle_ns);
	close(fd);
}

TEST_F(msr, tsc_per_cpu)
{
	struct perf_event_attr attr;
	uint64_t v[3];
	int fd;

	pmu_counting_attr(&attr, self->type, 0);
	fd = sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	usleep(20000);
	ASSERT_EQ(read(fd, v, sizeof(v)), sizeof(v));
	EXPECT_GT(v[0], 0);
	close(fd);
}

/* tsc with one thing it cannot do: each is refused with EINVAL */
static const struct perf_event_attr msr_refused[] = {
	{ .sample_period = 1000 },
	{ .freq = 1, .sample_freq = 100 },
	{ .exclude_kernel = 1 },
	{ .exclude_user = 1 },
	{ .exclude_hv = 1 },
	{ .exclude_idle = 1 },
	{ .config = 0x100 },
	{ .config = ~0ULL },
};

TEST_F(msr, refusals)
{
	struct perf_event_attr attr;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(msr_refused); i++) {
		attr = msr_refused[i];
		attr.size = sizeof(attr);
		attr.type = self->type;
		EXPECT_EQ(open_event_errno(&attr, 0, -1), EINVAL)
			TH_LOG("case %zu", i);
	}
}

/* Events the CPU lacks are refused; those it has have a sysfs name. */
TEST_F(msr, only_present_events)
{
	struct perf_event_attr attr;
	char path[320], buf[64];
	int config, nr = 0;

	for (config = 0; config < 16; config++) {
		int present = 0;
		DIR *d = opendir(MSR_DIR "/events");
		struct dirent *e;

		ASSERT_NE(d, NULL);
		while ((e = readdir(d))) {
			unsigned int ev;

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), MSR_DIR "/events/%s",
				 e->d_name);
			if (read_first_line(path, buf, sizeof(buf)) ||
			    sscanf(buf, "event=%x", &ev) != 1)
				continue;
			if (ev == config)
				present = 1;
		}
		closedir(d);
		pmu_counting_attr(&attr, self->type, config);
		EXPECT_EQ(open_event_errno(&attr, 0, -1), present ? 0 : EINVAL)
			TH_LOG("config %d", config);
		nr += present;
	}
	EXPECT_GE(nr, 1);
}

/*
 * Each event the CPU has counts a busy task, but smi: the SMIs taken,
 * none here (it opens and reads).
 */
TEST_F(msr, present_events_count)
{
	struct perf_event_attr attr;
	char path[320], buf[64];
	struct dirent *e;
	DIR *d = opendir(MSR_DIR "/events");

	ASSERT_NE(d, NULL);
	while ((e = readdir(d))) {
		uint64_t v[3];
		unsigned int ev;
		int fd, n;

		if (e->d_name[0] == '.' || strchr(e->d_name, '.'))
			continue;
		snprintf(path, sizeof(path), MSR_DIR "/events/%s", e->d_name);
		ASSERT_EQ(read_first_line(path, buf, sizeof(buf)), 0);
		n = sscanf(buf, "event=%x", &ev);
		ASSERT_EQ(n, 1) TH_LOG("%s: %s", e->d_name, buf);
		pmu_counting_attr(&attr, self->type, ev);
		fd = sys_perf_event_open(&attr, 0, -1, -1,
					 PERF_FLAG_FD_CLOEXEC);
		ASSERT_GE(fd, 0) TH_LOG("%s: %s", e->d_name, strerror(errno));
		burn(20);
		ASSERT_EQ(read(fd, v, sizeof(v)), sizeof(v));
		if (strcmp(e->d_name, "smi"))
			EXPECT_GT(v[0], 0) TH_LOG("%s", e->d_name);
		EXPECT_EQ(v[1], v[2]);
		close(fd);
	}
	closedir(d);
}

TEST_F(msr, in_groups)
{
	struct perf_event_attr attr;
	int leader, member;

	/* led by a software event */
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	leader = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(leader, 0);
	pmu_counting_attr(&attr, self->type, 0);
	member = sys_perf_event_open(&attr, 0, -1, leader,
				     PERF_FLAG_FD_CLOEXEC);
	EXPECT_GE(member, 0) TH_LOG("open: %s", strerror(errno));
	if (member >= 0)
		close(member);
	close(leader);

	/* leading software events */
	pmu_counting_attr(&attr, self->type, 0);
	leader = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(leader, 0);
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	member = sys_perf_event_open(&attr, 0, -1, leader,
				     PERF_FLAG_FD_CLOEXEC);
	EXPECT_GE(member, 0);
	if (member >= 0)
		close(member);
	close(leader);
}

/*
 * An msr event counts in groups as a software event: a hardware event may
 * join the group it leads (which moves to the hardware PMU), as perf stat
 * --smi-cost's {msr/aperf/,msr/smi/,cycles} does.
 */
TEST_F(msr, leads_a_hardware_member)
{
	struct perf_event_attr attr, cycles;
	uint64_t v[3];
	int leader, member;

	pmu_counting_attr(&cycles, PERF_TYPE_HARDWARE,
			  PERF_COUNT_HW_CPU_CYCLES);
	cycles.exclude_kernel = 1;
	if (open_event_errno(&cycles, 0, -1))
		SKIP(return, "no cycles event (%s)", strerror(errno));
	pmu_counting_attr(&attr, self->type, 0);
	leader = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(leader, 0);
	member = sys_perf_event_open(&cycles, 0, -1, leader,
				     PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(member, 0) TH_LOG("open: %s", strerror(errno));
	burn(20);
	ASSERT_EQ(read(member, v, sizeof(v)), sizeof(v));
	EXPECT_GT(v[0], 0);
	close(member);
	close(leader);
}

/*
 * cpu_thermal_margin (event 7, where the CPU has a digital thermal
 * sensor): a reading, not a counter.  Its sysfs names it a snapshot in
 * degrees Celsius; its count is the margin below TjMax on the CPU read,
 * 0 to 127, and does not add up from one read to the next.
 */
TEST_F(msr, thermal_margin_is_a_snapshot)
{
	struct perf_event_attr attr;
	char buf[64];
	uint64_t v[3];
	int cpu, fd, i;

	if (read_first_line(MSR_DIR "/events/cpu_thermal_margin", buf,
			    sizeof(buf)))
		SKIP(return, "no cpu_thermal_margin");
	EXPECT_STREQ(buf, "event=0x07");
	ASSERT_EQ(read_first_line(MSR_DIR "/events/cpu_thermal_margin.snapshot",
				  buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "1");
	ASSERT_EQ(read_first_line(MSR_DIR "/events/cpu_thermal_margin.unit",
				  buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "C");

	for (cpu = 0; cpu < 2; cpu++) {
		pmu_counting_attr(&attr, self->type, 7);
		fd = sys_perf_event_open(&attr, -1, cpu, -1,
					 PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 && errno == ENODEV)
			break;		/* one CPU */
		ASSERT_GE(fd, 0) TH_LOG("cpu %d: %s", cpu, strerror(errno));
		for (i = 0; i < 3; i++) {
			burn(5);
			ASSERT_EQ(read(fd, v, sizeof(v)), sizeof(v));
			EXPECT_LE(v[0], 127) TH_LOG("cpu %d read %d", cpu, i);
		}
		ksft_print_msg("cpu %d: %llu C below TjMax\n", cpu,
			       (unsigned long long)v[0]);
		close(fd);
	}
	/* per task too, as the other msr events */
	pmu_counting_attr(&attr, self->type, 7);
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0) TH_LOG("task: %s", strerror(errno));
	burn(5);
	ASSERT_EQ(read(fd, v, sizeof(v)), sizeof(v));
	EXPECT_LE(v[0], 127);
	close(fd);
}

TEST_HARNESS_MAIN
