// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of bench/pmu-encodings.sh: opens every generic hardware
 * event and every cache event in turn on the calling task, enables and
 * disables it around a short loop, and closes it; after each, a raw
 * marker event (0x4242) whose counter write separates one event's MSR
 * writes from the next in the emulated PMU's trace.  Prints each event's
 * open result ("hw 3 -> 0", "cache 0x10002 -> -2"); the marker after the
 * i-th result carries i's low byte in its counter mask.  Then raw events with
 * a config1 (extra registers, topdown pseudo-encodings) and groups of them
 * ("raw 0x1b7/0x1 -> 0", "group 0x400,0x8000 -> 0,-22 idx 33,-": each
 * member's open result, the group enabled and disabled through its
 * leader, and the counter each member was on while it counted, as its
 * user page gives it to RDPMC: the counter's index + 1, 0 for none).
 * On a hybrid part (a cpu_core PMU) it runs all of it once per core type's
 * PMU, pinned to a CPU of that type, the generic events naming the PMU in
 * config's upper half: each line then says whose it is ("hw core:3 -> 0").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pmu-hybrid.h"

/* the PMU of this pass: its raw type, the generic events' upper half */
static __u32 raw_type = PERF_TYPE_RAW;
static __u64 ext_type;
static const char *tag = "";

/* an event on the calling task, in group @group (-1: a leader, disabled) */
static int open_event(__u32 type, __u64 config, __u64 config1, int group)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.type = type == PERF_TYPE_RAW ? raw_type : type;
	a.size = sizeof(a);
	a.config = config;
	if (type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE)
		a.config |= ext_type;
	a.config1 = config1;
	a.disabled = group < 0;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, group, 0);
	return fd < 0 ? -errno : fd;
}

/* enable @fd (a leader: its group) around a short loop */
static void run(int fd)
{
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (volatile int i = 0; i < 1000; i++)
		;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}

/* open, run and close one event: 0 or -errno */
static int try_event(__u32 type, __u64 config, __u64 config1)
{
	int fd = open_event(type, config, config1, -1);

	if (fd < 0)
		return fd;
	run(fd);
	close(fd);
	return 0;
}

/* the marker after the @seq'th result */
static void marker(void)
{
	static unsigned int seq;

	try_event(PERF_TYPE_RAW, 0x4242 | (__u64)(seq++ & 0xff) << 24, 0);
}

struct raw {
	__u64 config, config1;
};

/* the members of a group (config 0 ends it), each opened in turn */
static void try_group(const struct raw *m)
{
	struct perf_event_mmap_page *pg[16];
	int fd[16], idx[16], n, leader = -1;
	char line[512];
	int len = 0, i;

	len += snprintf(line + len, sizeof(line) - len, "group %s", tag);
	for (n = 0; m[n].config; n++)
		len += snprintf(line + len, sizeof(line) - len, "%s%#llx/%#llx",
				n ? "," : "", (unsigned long long)m[n].config,
				(unsigned long long)m[n].config1);
	len += snprintf(line + len, sizeof(line) - len, " ->");
	for (i = 0; i < n; i++) {
		fd[i] = open_event(PERF_TYPE_RAW, m[i].config, m[i].config1,
				   leader);
		len += snprintf(line + len, sizeof(line) - len, "%s%d",
				i ? "," : " ", fd[i] < 0 ? fd[i] : 0);
		if (!i && fd[i] >= 0)
			leader = fd[i];
		pg[i] = fd[i] < 0 ? MAP_FAILED :
			mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd[i], 0);
		idx[i] = -1;
	}
	if (leader >= 0) {
		ioctl(leader, PERF_EVENT_IOC_ENABLE, 0);
		for (i = 0; i < n; i++)
			if (pg[i] != MAP_FAILED)
				idx[i] = *(volatile __u32 *)&pg[i]->index;
		ioctl(leader, PERF_EVENT_IOC_DISABLE, 0);
		run(leader);
	}
	len += snprintf(line + len, sizeof(line) - len, " idx");
	for (i = 0; i < n; i++) {
		len += snprintf(line + len, sizeof(line) - len, idx[i] < 0 ?
				"%s-" : "%s%d", i ? "," : " ", idx[i]);
		if (pg[i] != MAP_FAILED)
			munmap(pg[i], getpagesize());
		if (fd[i] >= 0)
			close(fd[i]);
	}
	printf("%s\n", line);
}

static const struct raw raws[] = {
	{ 0x0400 }, { 0x8000 }, { 0x8300 }, { 0x8700 },
	{ 0x01b7, 0x3fc0010001ULL }, { 0x01b7, 1ULL << 37 },
	{ 0x01b7, 1ULL << 38 }, { 0x01b7, 1ULL << 63 }, { 0x01bb, 1 },
	{ 0x012a, 0x10001 }, { 0x012a, 1ULL << 38 }, { 0x012b, 1 },
	{ 0x2124 }, { 0x01cd, 3 }, { 0x01c6, 0x11 }, { 0x003c, 1ULL << 63 },
	/* AnyThread on a fixed counter's event and on a general one */
	{ 0x20003c }, { 0x2000c4 },
	{ 0x8203 },
	/* the front-end register's other events (Sapphire, Granite Rapids) */
	{ 0x40ad, 0x11 }, { 0x04c2, 0x11 }, { 0x02c6, 0x11 }, { 0x03c6, 0x11 },
	/* Gracemont's second offcore response and its load latency */
	{ 0x02b7, 1 }, { 0x02b7, 1ULL << 38 }, { 0x05d0, 3 },
	{ 0x05d0, 1ULL << 16 },
	/* AMD Zen's large-increment event: which encodings take a pair */
	{ 0x0003 }, { 0x100000003ULL }, { 0x01000003 },
};

static const unsigned long long frontend[] = {
	0x01c6, 0x02c6, 0x03c6, 0x40ad, 0x04c2,
};

static const struct raw groups[][10] = {
	{ { 0x0400 }, { 0x8000 }, { 0x8100 }, { 0x8200 }, { 0x8300 } },
	{ { 0x0400 }, { 0x8000 }, { 0x8100 }, { 0x8200 }, { 0x8300 },
	  { 0x8400 }, { 0x8500 }, { 0x8600 }, { 0x8700 } },
	{ { 0x8000 }, { 0x0400 } },
	{ { 0x003c }, { 0x8000 } },
	{ { 0x0400 }, { 0x003c }, { 0x8000 } },
	{ { 0x2124 }, { 0x2124 }, { 0x2124 }, { 0x2124 }, { 0x2124 } },
	{ { 0x01b7, 1 }, { 0x01b7, 2 }, { 0x01b7, 4 } },
	{ { 0x01b7, 1 }, { 0x01bb, 2 } },
	{ { 0x012a, 1 }, { 0x012a, 2 }, { 0x012a, 4 } },
	{ { 0x0400 }, { 0x8000 }, { 0x8000 } },
	/* Sapphire Rapids' mem-loads-aux, and load latency behind it */
	{ { 0x8203 }, { 0x01cd, 3 } },
	{ { 0x8203 }, { 0x8203 }, { 0x8203 }, { 0x8203 }, { 0x8203 } },
	/* pairs after an event on counter 0: the group fills six counters */
	{ { 0x0076 }, { 0x0003 }, { 0x0003 }, { 0x0076 }, { 0x0076 } },
};

static void pass(void)
{
	for (int c = 0; c < PERF_COUNT_HW_MAX; c++) {
		printf("hw %s%d -> %d\n", tag, c,
		       try_event(PERF_TYPE_HARDWARE, c, 0));
		marker();
	}
	for (int id = 0; id < PERF_COUNT_HW_CACHE_MAX; id++)
		for (int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++)
			for (int r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
				__u64 c = id | op << 8 | r << 16;

				printf("cache %s%#llx -> %d\n", tag,
				       (unsigned long long)c,
				       try_event(PERF_TYPE_HW_CACHE, c, 0));
				marker();
			}
	for (unsigned int i = 0; i < sizeof(raws) / sizeof(raws[0]); i++) {
		printf("raw %s%#llx/%#llx -> %d\n", tag,
		       (unsigned long long)raws[i].config,
		       (unsigned long long)raws[i].config1,
		       try_event(PERF_TYPE_RAW, raws[i].config, raws[i].config1));
		marker();
	}
	/* which config1 bits each front-end register event takes */
	for (unsigned int i = 0; i < sizeof(frontend) / sizeof(frontend[0]); i++)
		for (unsigned int b = 0; b <= 24; b++) {
			printf("raw %s%#llx/%#llx -> %d\n", tag, frontend[i],
			       1ULL << b,
			       try_event(PERF_TYPE_RAW, frontend[i], 1ULL << b));
			marker();
		}
	for (unsigned int i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		try_group(groups[i]);
		marker();
	}
}

int main(void)
{
	static const char *const hybrid[][2] = {
		{ "cpu_core", "core:" }, { "cpu_atom", "atom:" },
	};
	int type, cpu;

	if (hybrid_pmu("cpu_core", &type, &cpu)) {
		pass();
		printf("pmu-encodings done\n");
		return 0;
	}
	for (unsigned int i = 0; i < 2; i++) {
		if (hybrid_pmu(hybrid[i][0], &type, &cpu)) {
			printf("%s: no CPUs\n", hybrid[i][0]);
			continue;
		}
		pin_cpu(cpu);
		raw_type = type;
		ext_type = (__u64)type << 32;
		tag = hybrid[i][1];
		pass();
	}
	printf("pmu-encodings done\n");
	return 0;
}
