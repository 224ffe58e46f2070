// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation failures on the paths of perf_event_open(2) and its file:
 * each operation runs once per allocation it makes, with the n-th one
 * failed through /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION with
 * failslab and fail_page_alloc), until it runs without reaching the n-th.
 * Every run must end in success or a clean errno and leave nothing
 * behind: the debug kernels' kmemleak scan and KASAN watch the rest.
 * Skipped on kernels without fault injection.  Needs root (debugfs).
 *
 * kmemleak's own allocations (its object and scan-area metadata, made
 * from inside kmemleak_alloc() and friends) are kept out of the count
 * with the stack-trace filter's reject range: failing them tests
 * kmemleak, not perf, and one of its fallbacks printk()s under its raw
 * object lock, a lock order lockdep rightly reports once CPU hotplug
 * later takes the locks the other way round.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define DEBUGFS		"/sys/kernel/debug"
#define MAX_SITES	2000

/* /proc/thread-self/fail-nth, opened once: no allocations to count */
static int nth_fd = -1;
static long rename_id = -1;

static int fail_nth_set(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	return pwrite(nth_fd, buf, len, 0) == len ? 0 : -errno;
}

/* What is left of the count: 0 once the n-th allocation has failed. */
static long fail_nth_get(void)
{
	char buf[16] = "";

	if (pread(nth_fd, buf, sizeof(buf) - 1, 0) <= 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/* Fail sleeping allocations too, and do it quietly. */
static void fault_knobs(void)
{
	static const char * const knobs[] = {
		DEBUGFS "/failslab/ignore-gfp-wait",
		DEBUGFS "/fail_page_alloc/ignore-gfp-wait",
		DEBUGFS "/fail_page_alloc/ignore-gfp-highmem",
		DEBUGFS "/failslab/verbose",
		DEBUGFS "/fail_page_alloc/verbose",
	};

	if (access(DEBUGFS "/failslab", F_OK))
		mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(knobs); i++)
		write_int_file(knobs[i], 0);
}

static int write_addr_file(const char *path, unsigned long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "0x%lx\n", val);
	return write_str_file(path, buf);
}

/*
 * The text of kmemleak's entry points, from /proc/kallsyms: [*start,
 * *end) runs from the lowest of them to the symbol after the highest.
 * Returns false on kernels without kmemleak (or hiding addresses).
 */
static bool kmemleak_text(unsigned long *start, unsigned long *end)
{
	static const char * const entries[] = {
		"kmemleak_alloc", "kmemleak_alloc_percpu",
		"kmemleak_alloc_phys", "kmemleak_vmalloc",
		"kmemleak_scan_area", "kmemleak_free_part",
		"kmemleak_free_part_phys", "kmemleak_update_trace",
	};
	unsigned long lo = ~0UL, hi = 0, next = ~0UL, addr;
	char name[256];
	FILE *f = fopen("/proc/kallsyms", "re");

	if (!f)
		return false;
	while (fscanf(f, "%lx %*c %255s%*[^\n]", &addr, name) == 2) {
		for (size_t i = 0; i < ARRAY_SIZE(entries); i++) {
			if (strcmp(name, entries[i]))
				continue;
			lo = addr < lo ? addr : lo;
			hi = addr > hi ? addr : hi;
		}
	}
	rewind(f);
	while (hi && fscanf(f, "%lx %*c %255s%*[^\n]", &addr, name) == 2)
		if (addr > hi && addr < next)
			next = addr;
	fclose(f);
	if (!lo || lo > hi || next == ~0UL)
		return false;
	*start = lo;
	*end = next;
	return true;
}

/* Keep (or with @on false, stop keeping) kmemleak's allocations whole. */
static void spare_kmemleak(bool on)
{
	static const char * const caps[] = { "failslab", "fail_page_alloc" };
	static unsigned long text_start, text_end;
	unsigned long start, end;
	char path[128];

	if (on && !text_end) {
		if (!kmemleak_text(&text_start, &text_end))
			return;
		ksft_print_msg("kmemleak's allocations kept whole: text %#lx-%#lx\n",
			       text_start, text_end);
	}
	start = on ? text_start : 0;
	end = on ? text_end : 0;
	for (size_t i = 0; i < ARRAY_SIZE(caps); i++) {
		snprintf(path, sizeof(path), DEBUGFS "/%s/reject-end", caps[i]);
		if (write_addr_file(path, end) && on)
			ksft_print_msg("%s: no stack-trace filter: %s\n",
				       caps[i], "kmemleak's allocations fail too");
		snprintf(path, sizeof(path), DEBUGFS "/%s/reject-start", caps[i]);
		write_addr_file(path, start);
	}
}

static int open_attr(struct perf_event_attr *attr, pid_t pid, int cpu,
		     int group)
{
	int fd = sys_perf_event_open(attr, pid, cpu, group,
				     PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* Each operation: 0 or -errno, with everything it made undone. */
typedef int (*fault_op)(void);

static int op_open_counter(void)
{
	int fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1, 0);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int op_open_cpu(void)
{
	int fd = open_sw(PERF_COUNT_SW_CPU_CLOCK, -1, 0, 0);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int op_group_read(void)
{
	struct perf_event_attr attr;
	uint64_t buf[8];
	int lead, sib, ret = 0;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			   PERF_FORMAT_TOTAL_TIME_ENABLED;
	lead = open_attr(&attr, 0, -1, -1);
	if (lead < 0)
		return lead;
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	sib = open_attr(&attr, 0, -1, lead);
	if (sib < 0) {
		ret = sib;
	} else {
		if (read(lead, buf, sizeof(buf)) < 0)
			ret = -errno;
		close(sib);
	}
	close(lead);
	return ret;
}

/* A sampling event with a ring, two samples and a comm record. */
static int op_ring(void)
{
	size_t page = sysconf(_SC_PAGESIZE), len = 9 * page;
	struct perf_event_attr attr;
	int fd, ret = 0;
	void *p;

	sw_attr(&attr, PERF_COUNT_SW_CONTEXT_SWITCHES);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_READ;
	attr.mmap = 1;
	attr.comm = 1;
	attr.task = 1;
	fd = open_attr(&attr, 0, -1, -1);
	if (fd < 0)
		return fd;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		ret = -errno;
	} else {
		usleep(1);
		usleep(1);
		prctl(PR_SET_NAME, "faults");
		munmap(p, len);
	}
	close(fd);
	return ret;
}

/* Events that follow a child: inherit on fork, folded back on exit. */
static int op_inherit(void)
{
	struct perf_event_attr attr;
	int fd, status;
	pid_t pid;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = 1;
	attr.inherit_stat = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	fd = open_attr(&attr, 0, -1, -1);
	if (fd < 0)
		return fd;
	pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, &status, 0);
	close(fd);
	return pid < 0 ? -EAGAIN : 0;
}

/* Two rings, one event's output redirected into the other's. */
static int op_set_output(void)
{
	size_t len = 3 * sysconf(_SC_PAGESIZE);
	int a, b, ret;
	void *p;

	a = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1, 0);
	if (a < 0)
		return -errno;
	b = open_sw(PERF_COUNT_SW_CONTEXT_SWITCHES, 0, -1, 0);
	if (b < 0) {
		ret = -errno;
		close(a);
		return ret;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, a, 0);
	if (p == MAP_FAILED) {
		ret = -errno;
	} else {
		ret = ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a) ? -errno : 0;
		munmap(p, len);
	}
	close(b);
	close(a);
	return ret;
}

/* A tracepoint with raw samples, an ftrace filter and hits. */
static int op_tracepoint(void)
{
	size_t len = 5 * sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	int fd, ret = 0;
	void *p;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = rename_id;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TID;
	fd = open_attr(&attr, 0, -1, -1);
	if (fd < 0)
		return fd;
	if (ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "oldcomm != \"x\""))
		ret = -errno;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		ret = ret ?: -errno;
	} else {
		prctl(PR_SET_NAME, "faults1");
		prctl(PR_SET_NAME, "faults");
		munmap(p, len);
	}
	close(fd);
	return ret;
}

/* The errnos an allocation failure may surface as. */
static bool clean_errno(int err)
{
	return err == -ENOMEM || err == -EAGAIN || err == -EINTR ||
	       err == -ENOSPC;
}

/*
 * Run @op with its 1st, 2nd, ... allocation failed until one run makes
 * no more than n - 1: the number of runs, or -1 on an unclean result.
 */
static int fail_each(struct __test_metadata *_metadata, const char *name,
		     fault_op op)
{
	int n, ret, failed = 0;
	long left;

	for (n = 1; n < MAX_SITES; n++) {
		if (fail_nth_set(n))
			return -1;
		ret = op();
		left = fail_nth_get();
		fail_nth_set(0);
		if (left > 0) {
			/* ran to the end without the n-th allocation */
			EXPECT_EQ(0, ret) TH_LOG("%s: %d unfailed", name, ret);
			break;
		}
		if (left < 0)
			return -1;
		if (ret) {
			failed++;
			EXPECT_TRUE(clean_errno(ret))
				TH_LOG("%s: allocation %d failed: %s", name, n,
				       strerror(-ret));
		}
	}
	TH_LOG("%s: %d allocations, %d failed calls", name, n - 1, failed);
	EXPECT_LT(n, MAX_SITES);
	return n;
}

FIXTURE(faults) {
	int unused;
};

FIXTURE_VARIANT(faults) {
	const char *name;
	fault_op op;
	bool tracepoint;
};

FIXTURE_VARIANT_ADD(faults, open_counter) { "open", op_open_counter };
FIXTURE_VARIANT_ADD(faults, open_cpu) { "open cpu", op_open_cpu };
FIXTURE_VARIANT_ADD(faults, group_read) { "group", op_group_read };
FIXTURE_VARIANT_ADD(faults, ring) { "ring", op_ring };
FIXTURE_VARIANT_ADD(faults, inherit) { "inherit", op_inherit };
FIXTURE_VARIANT_ADD(faults, set_output) { "set_output", op_set_output };
FIXTURE_VARIANT_ADD(faults, tracepoint) { "tracepoint", op_tracepoint, true };

FIXTURE_SETUP(faults)
{
	if (geteuid() != 0)
		SKIP(return, "needs root for debugfs");
	if (access(FAIL_NTH, F_OK))
		SKIP(return, "no fault injection (CONFIG_FAULT_INJECTION)");
	fault_knobs();
	spare_kmemleak(true);
	if (nth_fd < 0)
		nth_fd = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, nth_fd);
	rename_id = trace_event_id("task/task_rename");
	if (op_open_counter() == -EACCES)
		SKIP(return, "perf_event_open not permitted");
	if (variant->tracepoint && rename_id < 0)
		SKIP(return, "no task:task_rename trace event");
}

FIXTURE_TEARDOWN(faults)
{
	fail_nth_set(0);
	spare_kmemleak(false);
}

TEST_F(faults, each_allocation)
{
	fail_each(_metadata, variant->name, variant->op);
}

TEST_HARNESS_MAIN
