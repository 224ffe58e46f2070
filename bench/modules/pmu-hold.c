// SPDX-License-Identifier: GPL-2.0
/*
 * pmu-hold TYPE CONFIG CPU: open a counting event of PMU type TYPE on CPU
 * (system-wide, as the energy and residency PMUs take them), say whether
 * it opened and whether it counts, and keep it open until killed (the
 * module tests of bench/modules.sh unload its PMU's module meanwhile).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	unsigned long long v = 0;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: pmu-hold TYPE CONFIG CPU\n");
		return 2;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = strtoul(argv[1], NULL, 0);
	attr.config = strtoull(argv[2], NULL, 0);
	fd = syscall(SYS_perf_event_open, &attr, -1, atoi(argv[3]), -1, 0);
	if (fd < 0) {
		printf("hold: open errno %d\n", errno);
		return 1;
	}
	usleep(200000);
	if (read(fd, &v, sizeof(v)) != sizeof(v))
		printf("hold: read errno %d\n", errno);
	else
		printf("hold: open, %s\n", v ? "counting" : "count zero");
	fflush(stdout);
	for (;;)
		pause();
}
