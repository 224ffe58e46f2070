// SPDX-License-Identifier: GPL-2.0
/*
 * perfcount: run a command and print what a few perf events counted for it,
 * the way "perf stat" does.  Used by the demo of "make run".
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

struct counter {
	const char *name;
	uint32_t type;
	uint64_t config;
	int fd;
};

static struct counter counters[] = {
	{ "task-clock (ns)", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
};

#define N_COUNTERS (sizeof(counters) / sizeof(counters[0]))

static int open_counter(struct counter *c, pid_t pid)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = c->type;
	attr.config = c->config;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	return syscall(SYS_perf_event_open, &attr, pid, -1, -1, 0);
}

int main(int argc, char **argv)
{
	int go[2];
	pid_t child;
	char c = 0;
	size_t i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s command [args...]\n", argv[0]);
		return 2;
	}
	if (pipe(go))
		return 1;
	child = fork();
	if (child == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	close(go[0]);
	for (i = 0; i < N_COUNTERS; i++) {
		counters[i].fd = open_counter(&counters[i], child);
		if (counters[i].fd < 0)
			printf("   %-20s not available: %s\n", counters[i].name,
			       strerror(errno));
	}
	if (write(go[1], &c, 1) != 1)
		return 1;
	waitpid(child, NULL, 0);
	for (i = 0; i < N_COUNTERS; i++) {
		uint64_t v[3];

		if (counters[i].fd < 0)
			continue;
		if (read(counters[i].fd, v, sizeof(v)) != sizeof(v)) {
			printf("   %-20s read failed: %s\n", counters[i].name,
			       strerror(errno));
			continue;
		}
		printf("   %-20s %14llu   (enabled %llu ns, running %llu ns)\n",
		       counters[i].name, (unsigned long long)v[0],
		       (unsigned long long)v[1], (unsigned long long)v[2]);
	}
	return 0;
}
