// SPDX-License-Identifier: GPL-2.0
/*
 * x86-models-rdpmc: RDPMC of fixed counter 3 (TOPDOWN.SLOTS, index
 * 1 << 30 | 3) and of MSR_PERF_METRICS (index 1 << 29) from user space,
 * on the emulated Intel models (bench/x86-models.sh runs it in the guest).
 * Opens the group {slots, topdown-retiring} as raw events (event 0, umask
 * 4 and 0x80), maps the leader's user page (which lets this task RDPMC when
 * the kernel allows it: cap_user_rdpmc), runs a loop, then reads both
 * indices with RDPMC and the group with read().  Prints what it found,
 * counts only as zero or not: the exact counts are not its business.
 */
#include <linux/perf_event.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <errno.h>

static sigjmp_buf fault;

static void on_fault(int sig)
{
	siglongjmp(fault, sig);
}

static int rdpmc(uint32_t index, uint64_t *val)
{
	uint32_t lo, hi;

	if (sigsetjmp(fault, 1))
		return -1;
	asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(index));
	*val = (uint64_t)hi << 32 | lo;
	return 0;
}

static int open_raw(uint64_t config, int group)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_RAW;
	a.config = config;
	a.read_format = PERF_FORMAT_GROUP;
	a.disabled = group < 0;
	return syscall(__NR_perf_event_open, &a, 0, -1, group, 0);
}

static void show(const char *what, uint32_t index)
{
	uint64_t v;

	if (rdpmc(index, &v))
		printf("rdpmc %s (%#x): fault\n", what, index);
	else
		printf("rdpmc %s (%#x): %s\n", what, index, v ? "nonzero" : "zero");
}

int main(void)
{
	struct perf_event_mmap_page *pg;
	uint64_t vals[3] = { 0 };
	volatile unsigned long spin;
	int lead, member;

	signal(SIGSEGV, on_fault);
	lead = open_raw(0x0400, -1);
	if (lead < 0) {
		printf("slots: open errno %d\n", errno);
		return 0;
	}
	member = open_raw(0x8000, lead);
	if (member < 0)
		printf("topdown-retiring: open errno %d\n", errno);
	pg = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, lead, 0);
	if (pg == MAP_FAILED) {
		printf("mmap errno %d\n", errno);
		return 0;
	}
	ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	for (spin = 0; spin < 1000000; spin++)
		;
	printf("cap_user_rdpmc %u, index %#x, pmc_width %u\n",
	       (unsigned int)pg->cap_user_rdpmc, pg->index,
	       (unsigned int)pg->pmc_width);
	if (pg->cap_user_rdpmc && pg->index)
		show("slots (user page index - 1)", pg->index - 1);
	show("fixed counter 3", 1U << 30 | 3);
	show("perf metrics", 1U << 29);
	ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	if (read(lead, vals, sizeof(vals)) < 0)
		printf("read errno %d\n", errno);
	else
		printf("read: %llu events, slots %s, retiring %s\n",
		       (unsigned long long)vals[0], vals[1] ? "nonzero" : "zero",
		       vals[2] ? "nonzero" : "zero");
	return 0;
}
