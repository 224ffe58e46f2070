// SPDX-License-Identifier: GPL-2.0
/*
 * The kprobe PMU (perf_event_open(2): "kprobe and uprobe"): its sysfs
 * entry, an event that places its own kprobe on a kernel function by name
 * (kprobe_func + probe_offset) or by address (kprobe_addr), the return
 * probe of format/retprobe, what such an event counts and samples (the
 * probe's trace record as PERF_SAMPLE_RAW), ftrace filters on it, and the
 * errnos of what cannot be probed or of a caller without CAP_PERFMON.
 * The probed function is vfs_read(), which every read(2) of /dev/null
 * goes through.  Needs root (kallsyms addresses, CAP_PERFMON).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"
#include "perf_records.h"

#define KPROBE_SYSFS	"/sys/bus/event_source/devices/kprobe"
#define FUNC		"vfs_read"
#define READS		20
#define REC_MAX		512

/* The address of @name in /proc/kallsyms (0: not there or hidden). */
static uint64_t kallsyms_addr(const char *name)
{
	char line[512], sym[256], kind;
	unsigned long long addr;
	uint64_t found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &kind, sym) != 3)
			continue;
		if (!strcmp(sym, name)) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}

static void kprobe_attr(struct perf_event_attr *attr, long type,
			const char *func, uint64_t addr, uint64_t config)
{
	probe_attr(attr, type, config, (uintptr_t)func, func ? 0 : addr);
}

static int open_kprobe(long type, const char *func, uint64_t addr,
		       uint64_t config)
{
	struct perf_event_attr attr;
	int fd;

	kprobe_attr(&attr, type, func, addr, config);
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Count @n reads of /dev/null on @fd (the count's own read is one more). */
static int64_t count_reads(int fd, int n)
{
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	null_reads(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	return read_count(fd);
}

FIXTURE(kprobe) {
	long type;
};

FIXTURE_SETUP(kprobe)
{
	if (geteuid() != 0)
		SKIP(return, "needs root");
	self->type = kprobe_type();
	if (self->type < 0)
		SKIP(return, "no kprobe PMU");
}

FIXTURE_TEARDOWN(kprobe)
{
}

/* sysfs: a dynamic type and format/retprobe at bit 0 of config. */
TEST_F(kprobe, sysfs)
{
	char buf[64] = "";
	FILE *f;

	EXPECT_GE(self->type, PERF_TYPE_MAX);
	f = fopen(KPROBE_SYSFS "/format/retprobe", "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(buf, sizeof(buf), f));
	fclose(f);
	EXPECT_STREQ("config:0\n", buf);
}

/*
 * Every read of the task hits vfs_read once, not fewer, not many more,
 * at its entry and at its return; nothing while disabled.
 */
TEST_F(kprobe, counts_by_name)
{
	for (int retprobe = 0; retprobe < 2; retprobe++) {
		int fd = open_kprobe(self->type, FUNC, 0, retprobe);
		int64_t n;

		ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(-fd));
		n = count_reads(fd, READS);
		EXPECT_GE(n, READS);
		EXPECT_LE(n, READS + 5);
		null_reads(READS);
		EXPECT_EQ(n, read_count(fd));
		close(fd);
	}
}

TEST_F(kprobe, counts_by_address)
{
	uint64_t addr = kallsyms_addr(FUNC);
	int64_t n;
	int fd;

	ASSERT_NE(0, addr);
	fd = open_kprobe(self->type, NULL, addr, 0);
	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(-fd));
	n = count_reads(fd, READS);
	EXPECT_GE(n, READS);
	EXPECT_LE(n, READS + 5);
	close(fd);
}

/* An empty name is no name: the address is used. */
TEST_F(kprobe, empty_name_takes_address)
{
	uint64_t addr = kallsyms_addr(FUNC);
	struct perf_event_attr attr;
	int fd;

	ASSERT_NE(0, addr);
	kprobe_attr(&attr, self->type, "", 0, 0);
	attr.kprobe_addr = addr;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	EXPECT_GE(count_reads(fd, READS), READS);
	close(fd);
}

/*
 * Each sample carries the probe's trace record: the common fields (type,
 * flags, preempt count, pid), then the probed address.
 */
TEST_F(kprobe, samples_raw_record)
{
	uint64_t addr = kallsyms_addr(FUNC);
	struct perf_event_attr attr;
	struct perf_event_header *h;
	uint64_t buf[REC_MAX / 8];
	struct perf_sample s;
	struct perf_map m;
	int fd, samples = 0;

	ASSERT_NE(0, addr);
	kprobe_attr(&attr, self->type, FUNC, 0, 0);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	attr.wakeup_events = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(0, perf_map_open(&m, fd, 8, PROT_READ | PROT_WRITE));
	count_reads(fd, 5);
	while ((h = perf_map_next_type(&m, buf, sizeof(buf),
				       PERF_RECORD_SAMPLE))) {
		const uint8_t *rec;
		uint64_t ip;
		int32_t pid;

		perf_sample_parse(h, attr.sample_type, 0, 0, &s);
		ASSERT_GE(s.raw_size, 16);
		rec = (const uint8_t *)s.end - s.raw_size;
		memcpy(&pid, rec + 4, sizeof(pid));
		memcpy(&ip, rec + 8, sizeof(ip));
		EXPECT_EQ(getpid(), pid);
		EXPECT_EQ(getpid(), s.pid);
		EXPECT_EQ(addr, ip);
		samples++;
	}
	EXPECT_GE(samples, 5);
	perf_map_close(&m);
	close(fd);
}

/* A filter on the record's fields: another task's hits only. */
TEST_F(kprobe, filter)
{
	int fd = open_kprobe(self->type, FUNC, 0, 0);
	char filter[64];

	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(-fd));
	snprintf(filter, sizeof(filter), "common_pid != %d", getpid());
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter))
		TH_LOG("SET_FILTER: %s", strerror(errno));
	EXPECT_EQ(0, count_reads(fd, READS));
	close(fd);
}

/*
 * Not a function there is, neither name nor address, a bad pointer.  The
 * bits of config above retprobe are not looked at.
 */
TEST_F(kprobe, errnos)
{
	int fd = open_kprobe(self->type, FUNC, 0, ~1ULL);

	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
	EXPECT_EQ(-ENOENT, open_kprobe(self->type, "no_such_function_xyz",
				       0, 0));
	EXPECT_EQ(-EINVAL, open_kprobe(self->type, NULL, 0, 0));
	EXPECT_EQ(-EFAULT, open_kprobe(self->type, (const char *)8, 0, 0));
}

/* Without CAP_PERFMON no kprobe: EACCES. */
TEST_F(kprobe, unprivileged)
{
	int status;
	pid_t pid = fork();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int fd;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		fd = open_kprobe(self->type, FUNC, 0, 0);
		_exit(fd == -EACCES ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
