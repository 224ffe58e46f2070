/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the perf_events selftests: the raw syscall, an
 * attribute initialiser, reads of counters, sysctls and PMU types, and
 * pinning the caller to a CPU.
 */
#ifndef PERF_SELFTEST_HELPERS_H
#define PERF_SELFTEST_HELPERS_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/perf_event.h>

static inline int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid,
				      int cpu, int group_fd,
				      unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* The first line of @path, without its newline, into @buf; 0 or -1. */
static inline int read_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, len, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/*
 * The file mapped at @addr in this process (from /proc/self/maps) and the
 * offset of @addr in it, as a uprobe names an instruction; 0 or -1.
 */
static inline int maps_file_offset(uintptr_t addr, char *path, size_t len,
				   uint64_t *off)
{
	unsigned long long start, end, pgoff, a = addr;
	char line[600], perms[8];
	FILE *f = fopen("/proc/self/maps", "r");
	int ret = -1, pos;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		pos = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end,
			   perms, &pgoff, &pos) < 4 || !pos)
			continue;
		if (a < start || a >= end)
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(path, len, "%s", line + pos);
		*off = a - start + pgoff;
		ret = path[0] == '/' ? 0 : -1;
		break;
	}
	fclose(f);
	return ret;
}

/*
 * A disabled kprobe or uprobe event of the PMU @type: @where goes to
 * config1 (kprobe_func, uprobe_path) and @offset to config2
 * (probe_offset, or kprobe_addr without a function).
 */
static inline void probe_attr(struct perf_event_attr *attr, long type,
			      uint64_t config, uint64_t where, uint64_t offset)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = type;
	attr->size = sizeof(*attr);
	attr->config = config;
	attr->config1 = where;
	attr->config2 = offset;
	attr->disabled = 1;
}

/*
 * Make the compiler emit every memory access written before this point and
 * reload memory after it, so that test workloads are not optimised away.
 */
static inline void compiler_barrier(void)
{
	__asm__ __volatile__("" : : : "memory");
}

/* Spin for about @ms of the calling thread's CPU time. */
static inline void burn(int ms)
{
	struct timespec start, now;
	unsigned long n = 0;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
	do {
		for (int i = 0; i < 10000; i++) {
			n++;
			/* n passes through the asm, so the loop stays */
			__asm__ __volatile__("" : "+r"(n));
		}
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000 +
		 (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
}

/* A counting software event on the caller, set up the way most tests want. */
static inline void sw_attr(struct perf_event_attr *attr, __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_SOFTWARE;
	attr->size = sizeof(*attr);
	attr->config = config;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/* A counting event of PMU @type that reads its enabled and running times. */
static inline void pmu_counting_attr(struct perf_event_attr *attr, int type,
				     __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			    PERF_FORMAT_TOTAL_TIME_RUNNING;
}

/* A plain counter (read_format 0) of @type/@config on @cpu: fd or -errno. */
static inline int open_cpu_counter(int type, __u64 config, int cpu)
{
	struct perf_event_attr attr;
	int fd;

	pmu_counting_attr(&attr, type, config);
	attr.read_format = 0;
	fd = sys_perf_event_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* 0 if @attr opens on @pid/@cpu (closed again), else the errno. */
static inline int open_event_errno(struct perf_event_attr *attr, pid_t pid,
				   int cpu)
{
	int fd = sys_perf_event_open(attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* Open @config on @pid/@cpu; returns the fd or -errno. */
static inline int open_sw(__u64 config, pid_t pid, int cpu, int disabled)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, config);
	attr.disabled = !!disabled;
	fd = sys_perf_event_open(&attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Read a plain (read_format 0) counter; returns -1 on a short read. */
static inline int64_t read_count(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return -1;
	return (int64_t)v;
}

/* Read an integer sysctl or sysfs file; returns 0 or -errno. */
static inline int read_int_file(const char *path, long *val)
{
	FILE *f = fopen(path, "r");
	int ret = 0;

	if (!f)
		return -errno;
	if (fscanf(f, "%ld", val) != 1)
		ret = -EINVAL;
	fclose(f);
	return ret;
}

/* Whether /proc/cpuinfo's first vendor_id line names @vendor. */
static inline bool cpu_vendor_is(const char *vendor)
{
	char line[256];
	bool is = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "vendor_id", 9)) {
			is = strstr(line, vendor);
			break;
		}
	fclose(f);
	return is;
}

/* A capability of the cpu PMU (its caps/@name file); 0 where it has none. */
static inline long cpu_pmu_cap(const char *name)
{
	char path[128];
	long n;

	snprintf(path, sizeof(path),
		 "/sys/bus/event_source/devices/cpu/caps/%s", name);
	if (read_int_file(path, &n))
		return 0;
	return n;
}

/* A sampling event of this task's user-space instructions, disabled. */
static inline void user_insns_attr(struct perf_event_attr *attr,
				   __u64 period)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_HARDWARE;
	attr->config = PERF_COUNT_HW_INSTRUCTIONS;
	attr->sample_period = period;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	attr->disabled = 1;
}

/* Write @str to a sysctl or debugfs file; returns 0 or -errno. */
static inline int write_str_file(const char *path, const char *str)
{
	ssize_t len = strlen(str);
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, str, len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

/* Write an integer to a sysctl; returns 0 or -errno of the write. */
static inline int write_int_file(const char *path, long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld\n", val);
	return write_str_file(path, buf);
}

/* The type of the PMU @pmu from sysfs: 0 or -errno. */
static inline int read_pmu_type(const char *pmu, long *type)
{
	char path[512];

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
		 pmu);
	return read_int_file(path, type);
}

/* The kprobe PMU's type, or -1 where it is not built. */
static inline long kprobe_type(void)
{
	long type;

	return read_pmu_type("kprobe", &type) ? -1 : type;
}

#ifdef CPU_ZERO		/* _GNU_SOURCE, defined before the first include */
/* Pin the caller to CPU @cpu: 0 or -1 (errno set). */
static inline int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}
#endif

#define TRACEFS		"/sys/kernel/tracing"

/* The id of trace event @name ("system/event"), or -1 (tracefs mounted). */
static inline long trace_event_id(const char *name)
{
	char path[256];
	long id;

	if (access(TRACEFS "/events", F_OK))
		mount("tracefs", TRACEFS, "tracefs", 0, NULL);
	snprintf(path, sizeof(path), TRACEFS "/events/%s/id", name);
	if (read_int_file(path, &id))
		return -1;
	return id;
}

/* The trace event @id on @pid/@cpu, disabled; the fd or -errno. */
static inline int open_trace_event(long id, pid_t pid, int cpu)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* @n read()s of a byte of /dev/null: @n calls of vfs_read() by the caller. */
static inline void null_reads(int n)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	char c;

	for (int i = 0; i < n; i++)
		if (read(fd, &c, 1) < 0)
			break;
	close(fd);
}

/*
 * Wait (up to 5 s) until task @pid sleeps (state S in /proc/PID/stat);
 * false if it does not.
 */
static inline bool task_sleeps(pid_t pid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (int i = 0; i < 5000; i++) {
		if (read_first_line(path, buf, sizeof(buf)))
			return false;
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'S')
			return true;
		usleep(1000);
	}
	return false;
}

/*
 * Fork a child that waits until released, with an optional way back: the
 * child returns 0 once released (it exits at once if the parent gave up);
 * the parent gets the child's pid, or -1 on failure.  In the parent, *@go
 * is what step_child() and release_child() write to and *@done (when not
 * NULL) what await_child() reads; in the child, *@done is what child_done()
 * writes to and *@go what child_wait() reads.  Tests use it to attach
 * events to a child before it runs, then to walk it through steps.  It
 * returns once the child sleeps in its first wait: events attached then
 * start together when it is released, not one by one while it still runs
 * towards that wait.
 */
static inline pid_t fork_held_done(int *go, int *done)
{
	int g[2], d[2] = { -1, -1 };
	pid_t pid;
	char c;

	if (pipe(g))
		return -1;
	if (done && pipe(d)) {
		close(g[0]);
		close(g[1]);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		close(g[1]);
		if (done)
			close(d[0]);
		if (read(g[0], &c, 1) != 1)
			_exit(1);
		*go = g[0];
		if (done)
			*done = d[1];
		else
			close(g[0]);
		return 0;
	}
	close(g[0]);
	if (done)
		close(d[1]);
	if (pid < 0) {
		close(g[1]);
		if (done)
			close(d[0]);
		return -1;
	}
	if (!task_sleeps(pid)) {
		close(g[1]);		/* the child exits at once */
		if (done)
			close(d[0]);
		waitpid(pid, NULL, 0);
		return -1;
	}
	*go = g[1];
	if (done)
		*done = d[0];
	return pid;
}

/* A held child with no way back: fork_held_done() without @done. */
static inline pid_t fork_held(int *go)
{
	return fork_held_done(go, NULL);
}

/* Let a held child go past its next child_wait(); 0 or -1. */
static inline int step_child(int go)
{
	return write(go, "g", 1) == 1 ? 0 : -1;
}

/* Let a held child run to its end; 0 or -1. */
static inline int release_child(int go)
{
	int ret = step_child(go);

	close(go);
	return ret;
}

/* Wait for the child's next child_done(); 0 or -1. */
static inline int await_child(int done)
{
	char c;

	return read(done, &c, 1) == 1 ? 0 : -1;
}

/* In the child: a step is done; exits if the parent is gone. */
static inline void child_done(int done)
{
	if (write(done, "d", 1) != 1)
		_exit(1);
}

/* In the child: wait for the parent's next go; exits if it gave up. */
static inline void child_wait(int go)
{
	char c;

	if (read(go, &c, 1) != 1)
		_exit(1);
}

#ifndef TRAP_PERF
#define TRAP_PERF	6	/* si_code of a perf event's SIGTRAP */
#endif

/*
 * The perf fields of a SIGTRAP's siginfo (uapi asm-generic/siginfo.h:
 * _sigfault._perf), which older C libraries do not name: after si_addr,
 * an unsigned long of data and a u32 type.
 */
struct perf_siginfo {
	int signo, errno_, code, pad;
	void *addr;
	unsigned long data;
	uint32_t type, flags;
};

#ifdef __x86_64__
/* where another task's code goes in the isolation tests: nothing else's */
#define OTHER_CODE	0x5a5a00000000ULL

/*
 * A loop at OTHER_CODE (mov %edi,%ecx; 1: dec %ecx; jnz 1b; ret): code of
 * this process alone, whose addresses no other task's samples or branch
 * records hold.  NULL on failure.
 */
static inline void (*other_code_loop(void))(unsigned int n)
{
	static const unsigned char loop[] = {
		0x89, 0xf9, 0xff, 0xc9, 0x75, 0xfc, 0xc3
	};
	void *p = mmap((void *)OTHER_CODE, 4096,
		       PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memcpy(p, loop, sizeof(loop));
	return (void (*)(unsigned int))p;
}
#endif

#endif /* PERF_SELFTEST_HELPERS_H */
