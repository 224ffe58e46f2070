// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of bench/pmu-encodings.sh: opens every generic hardware
 * event and every cache event in turn on the calling task, enables and
 * disables it around a short loop, and closes it; after each, a raw
 * marker event (0x4242) whose counter write separates one event's MSR
 * writes from the next in the emulated PMU's trace.  Prints each event's
 * open result ("hw 3 -> 0", "cache 0x10002 -> -2").
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int try_event(__u32 type, __u64 config)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.type = type;
	a.size = sizeof(a);
	a.config = config;
	a.disabled = 1;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0)
		return -errno;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (volatile int i = 0; i < 1000; i++)
		;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	close(fd);
	return 0;
}

int main(void)
{
	for (int c = 0; c < PERF_COUNT_HW_MAX; c++) {
		printf("hw %d -> %d\n", c, try_event(PERF_TYPE_HARDWARE, c));
		try_event(PERF_TYPE_RAW, 0x4242);
	}
	for (int id = 0; id < PERF_COUNT_HW_CACHE_MAX; id++)
		for (int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++)
			for (int r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
				__u64 c = id | op << 8 | r << 16;

				printf("cache %#llx -> %d\n", (unsigned long long)c,
				       try_event(PERF_TYPE_HW_CACHE, c));
				try_event(PERF_TYPE_RAW, 0x4242);
			}
	printf("pmu-encodings done\n");
	return 0;
}
