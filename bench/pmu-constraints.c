// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of bench/pmu-encodings.sh's constraint pass: for every event
 * select 0x01-0xff with unit mask 0 and each single-bit unit mask, a group
 * of up to 13 copies of the raw event (as many as there are counters,
 * fixed ones included, and one more), opened member by member until one
 * is refused, enabled once, and the counters its members were on as their
 * user pages give them to RDPMC (index + 1; fixed counter i is 1 << 30 |
 * i, + 1).  One line an event:
 *
 *	c 0x0276 4 -22 1,2,3,4
 *
 * (the config, how many members opened, the errno of the first refused
 * one or 0, the sorted counter list).  The number that fit is the number
 * of counters the event may use, and the list says which: the drivers'
 * counter rules, compared between kernels without reading either's
 * tables.  Then the same for each config of /tests/pmu-constraints.list
 * (one a line, as "0x01cd": the events the perfmon lists name, with
 * their other unit masks) that the first pass did not probe.  With
 * PMU_CONSTRAINTS_PRECISE=N in the environment, every member is a
 * sampling event with precise_ip N: the counters precise sampling
 * (PEBS) may use for each event.  On a hybrid part it runs once per core
 * type's PMU, pinned to a CPU of the type, each pass after a line
 * "pass cpu_core" (or "pass cpu_atom").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pmu-hybrid.h"

#define MAX_MEMBERS	13

static unsigned int precise;
/* the raw type of this pass's PMU */
static __u32 raw_type = PERF_TYPE_RAW;

static int open_raw(__u64 config, int group)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.type = raw_type;
	a.size = sizeof(a);
	a.config = config;
	a.disabled = group < 0;
	if (precise) {
		a.precise_ip = precise;
		a.sample_period = 100003;
		a.exclude_kernel = 1;
	}
	fd = syscall(SYS_perf_event_open, &a, 0, -1, group, 0);
	return fd < 0 ? -errno : fd;
}

static int cmp_u32(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

static void probe(__u64 config)
{
	struct perf_event_mmap_page *pg[MAX_MEMBERS];
	__u32 idx[MAX_MEMBERS];
	int fd[MAX_MEMBERS], n, err = 0, i;
	long page = sysconf(_SC_PAGESIZE);

	for (n = 0; n < MAX_MEMBERS; n++) {
		fd[n] = open_raw(config, n ? fd[0] : -1);
		if (fd[n] < 0) {
			err = fd[n];
			break;
		}
		pg[n] = mmap(NULL, page, PROT_READ, MAP_SHARED, fd[n], 0);
	}
	if (n) {
		ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0);
		for (i = 0; i < n; i++)
			idx[i] = pg[i] == MAP_FAILED ? 0 :
				 *(volatile __u32 *)&pg[i]->index;
		ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0);
	}
	qsort(idx, n, sizeof(idx[0]), cmp_u32);
	printf("c %#06llx %d %d ", (unsigned long long)config, n, err);
	for (i = 0; i < n; i++) {
		printf("%s%#x", i ? "," : "", idx[i]);
		if (pg[i] != MAP_FAILED)
			munmap(pg[i], page);
		close(fd[i]);
	}
	printf("\n");
}

/* unit mask 0 or a single bit, and an event select: the first pass */
static int first_pass(unsigned long long config)
{
	unsigned int umask = config >> 8 & 0xff;

	return config <= 0xffff && (config & 0xff) &&
	       !(umask & (umask - 1));
}

static void pass(void)
{
	static const unsigned int umasks[] = {
		0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80,
	};
	unsigned long long config;
	FILE *list;

	for (unsigned int e = 1; e <= 0xff; e++)
		for (unsigned int u = 0; u < sizeof(umasks) / sizeof(umasks[0]); u++)
			probe(umasks[u] << 8 | e);
	list = fopen("/tests/pmu-constraints.list", "r");
	while (list && fscanf(list, "%llx", &config) == 1)
		if (!first_pass(config))
			probe(config);
	if (list)
		fclose(list);
}

int main(void)
{
	static const char *const hybrid[] = { "cpu_core", "cpu_atom" };
	int type, cpu;

	if (getenv("PMU_CONSTRAINTS_PRECISE"))
		precise = atoi(getenv("PMU_CONSTRAINTS_PRECISE"));
	if (hybrid_pmu("cpu_core", &type, &cpu)) {
		pass();
	} else {
		for (unsigned int i = 0; i < 2; i++) {
			if (hybrid_pmu(hybrid[i], &type, &cpu))
				continue;
			pin_cpu(cpu);
			raw_type = type;
			printf("pass %s\n", hybrid[i]);
			pass();
		}
	}
	printf("pmu-constraints done\n");
	return 0;
}
