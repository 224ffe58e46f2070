// SPDX-License-Identifier: GPL-2.0
/*
 * Probes of the emulated x86 PMU (bench/qemu/pmu-demo.sh), run in the guest:
 *
 *   pmu-probe loop N    N iterations of "dec; jnz": 2N + a few user-mode
 *                       instructions, for perf stat and perf record
 *   pmu-probe rdpmc [exact]  counts user-mode instructions around a loop
 *                       of 1000000 iterations with RDPMC through the
 *                       event's user page, and compares with read();
 *                       "exact": the count must be 2000000 and a few
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static __attribute__((noinline)) void spin(long n)
{
	asm volatile("1: dec %0; jnz 1b" : "+r"(n));
}

static uint64_t rdpmc(uint32_t index)
{
	uint32_t lo, hi;

	asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(index));
	return (uint64_t)hi << 32 | lo;
}

static int64_t last_offset;
static uint64_t last_pmc;

/* the self-monitoring read of perf_event_open(2): true if RDPMC was used */
static int user_read(volatile struct perf_event_mmap_page *pc, int64_t *val)
{
	uint32_t seq, idx;
	int64_t count;
	int used;

	do {
		seq = pc->lock;
		__sync_synchronize();
		idx = pc->index;
		count = pc->offset;
		used = pc->cap_user_rdpmc && idx;
		last_offset = count;
		if (used) {
			int64_t pmc = last_pmc = rdpmc(idx - 1);

			pmc <<= 64 - pc->pmc_width;
			pmc >>= 64 - pc->pmc_width;
			count += pmc;
		}
		__sync_synchronize();
	} while (pc->lock != seq);
	*val = count;
	return used;
}

static int probe_rdpmc(int exact)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	volatile struct perf_event_mmap_page *pc;
	int64_t before, after, by_read;
	int fd, used1, used2;

	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		perror("perf_event_open");
		return 1;
	}
	pc = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	int64_t offset1;
	uint64_t pmc1;

	used1 = user_read(pc, &before);
	offset1 = last_offset, pmc1 = last_pmc;
	spin(1000000);
	used2 = user_read(pc, &after);
	if (read(fd, &by_read, sizeof(by_read)) != sizeof(by_read)) {
		perror("read");
		return 1;
	}
	printf("rdpmc: first read: offset=%lld rdpmc=%#llx\n",
	       (long long)offset1, (unsigned long long)pmc1);
	printf("rdpmc: cap_user_rdpmc=%d index=%u pmc_width=%u used_rdpmc=%d,%d\n",
	       (int)pc->cap_user_rdpmc, pc->index, pc->pmc_width, used1, used2);
	printf("rdpmc: before=%lld after=%lld delta=%lld (loop: 2000000 + a few) read()=%lld\n",
	       (long long)before, (long long)after, (long long)(after - before),
	       (long long)by_read);
	/* RDPMC plus the page's offset is the count: read() agrees */
	if (!used1 || !used2 || before < 0 || after <= before ||
	    by_read < after || by_read - after > (after - before) / 2)
		return 1;
	return exact && (after - before < 2000000 || after - before > 2000100);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "loop")) {
		spin(atol(argv[2]));
		return 0;
	}
	if (argc >= 2 && !strcmp(argv[1], "rdpmc"))
		return probe_rdpmc(argc == 3 && !strcmp(argv[2], "exact"));
	fprintf(stderr, "usage: pmu-probe loop N | rdpmc [exact]\n");
	return 2;
}
