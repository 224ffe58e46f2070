/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the arm64 PMUv3 selftests: finding the PMU in sysfs, opening
 * its events on the calling thread, and a loop of a known number of
 * instructions.  On machines without a PMUv3 PMU (x86_64, or arm64 without
 * one) pmuv3_find() fails and the tests skip.
 */
#ifndef PMUV3_SELFTEST_HELPERS_H
#define PMUV3_SELFTEST_HELPERS_H

#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/ioctl.h>

#include "../perf_helpers.h"

#define PMU_DEVICES	"/sys/bus/event_source/devices"

/* PMUv3 common event numbers used by the tests */
#define EV_INST_RETIRED	0x08
#define EV_CPU_CYCLES	0x11

struct pmuv3_info {
	char name[256];
	long type;
};

/*
 * The first PMUv3 PMU: its sysfs name starts with armv8_ or armv9_ and it
 * has a format/long file.  Returns 0, or -ENOENT where there is none.
 */
static inline int pmuv3_find(struct pmuv3_info *pmu)
{
	char path[512];
	struct dirent *de;
	int ret = -ENOENT;
	DIR *d;

	d = opendir(PMU_DEVICES);
	if (!d)
		return -ENOENT;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "armv8_", 6) &&
		    strncmp(de->d_name, "armv9_", 6))
			continue;
		snprintf(path, sizeof(path), PMU_DEVICES "/%s/format/long",
			 de->d_name);
		if (access(path, R_OK))
			continue;
		snprintf(path, sizeof(path), PMU_DEVICES "/%s/type", de->d_name);
		if (read_int_file(path, &pmu->type))
			continue;
		snprintf(pmu->name, sizeof(pmu->name), "%s", de->d_name);
		ret = 0;
		break;
	}
	closedir(d);
	return ret;
}

/* Keep the caller on one CPU: counts are then repeatable under icount. */
static inline void pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/*
 * The CPU the multiplexing and KVM tests run on: the first tickless one
 * where the kernel was booted with nohz_full= (the tick then stays off
 * while a single task runs, and rotation must do without it), else CPU 0.
 * Exact user instruction counts gain a few thousand per million on such a
 * CPU under QEMU (stock too), so the counting tests stay on CPU 0.
 */
static inline int test_cpu(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/nohz_full", "r");
	int cpu;

	if (!f)
		return 0;
	if (fscanf(f, "%d", &cpu) != 1)
		cpu = 0;
	fclose(f);
	return cpu;
}

static inline void hw_attr(struct perf_event_attr *attr, __u32 type,
			   __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
}

/* Open @attr on the calling thread, any CPU; the fd or -errno. */
static inline int open_attr(struct perf_event_attr *attr, int group_fd)
{
	int fd = sys_perf_event_open(attr, 0, -1, group_fd,
				     PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* Exactly 2 * @n instructions at EL0 (n > 0): a subtract and a branch. */
static inline void insn_loop(unsigned long n)
{
#ifdef __aarch64__
	__asm__ __volatile__("1:	subs	%0, %0, #1\n"
			     "	b.ne	1b\n"
			     : "+r"(n) : : "cc");
#else
	while (n--)
		__asm__ __volatile__("" : "+r"(n));
#endif
}

/*
 * What @fd counted across insn_loop(@n), the smallest of @tries runs:
 * under icount only interrupts landing in the window add to a count.
 */
static inline uint64_t count_loop(int fd, unsigned long n, int tries)
{
	uint64_t best = UINT64_MAX, before, after;

	while (tries--) {
		if (read(fd, &before, sizeof(before)) != sizeof(before))
			return 0;
		insn_loop(n);
		if (read(fd, &after, sizeof(after)) != sizeof(after))
			return 0;
		if (after - before < best)
			best = after - before;
	}
	return best;
}

#endif /* PMUV3_SELFTEST_HELPERS_H */
