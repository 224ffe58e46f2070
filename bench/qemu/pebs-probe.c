// SPDX-License-Identifier: GPL-2.0
/*
 * Precise sampling as perf_event_open(2) callers see it (make x86-models
 * part pebs): for each case below, a sampling event on this task, a fixed
 * user-space loop, and what the ring then holds -- the errno of the open,
 * the samples' number, the sum of their periods, their distinct IPs, and
 * the fields of the first ones that PEBS fills (address, data source,
 * weight, transaction, interrupted registers).  Before each case, a marker
 * event (event select = the case's number, unit mask 0x42, counter mask
 * 0x7f) that bench/x86-models.sh finds in QEMU's MSR trace, so that the
 * control values each driver programmed for the case can be compared too.
 * Static and not position independent: the IPs are the same in every run.
 * The output is compared between kernels, not against expectations.
 *
 *	pebs-probe		every case
 *	pebs-probe stable	the cases the kernel's own timing leaves alone
 *	pebs-probe classes	the data sources of each memory event's samples
 *	pebs-probe only NAME	the case NAME alone
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RING_PAGES	64
#define FIRST_CASE	160

static volatile unsigned long sink;

/*
 * XMM register i holds 0x1111111111111111 * (i + 1) in its low half and
 * the same less one in its high half while the loop runs (it uses none):
 * what a sample's XMM registers show
 */
#define XMM_SET(i)							\
	__asm__ __volatile__ ("movq %0, %%xmm" #i "\n\t"			\
			      "movq %1, %%xmm15\n\t"			\
			      "punpcklqdq %%xmm15, %%xmm" #i		\
			      : : "r" (0x1111111111111111ULL * (i + 1)),	\
				  "r" (0x1111111111111111ULL * (i + 1) - 1)	\
			      : "xmm" #i, "xmm15")

static void xmm_set(void)
{
	XMM_SET(0); XMM_SET(1); XMM_SET(2); XMM_SET(3); XMM_SET(4);
	XMM_SET(5); XMM_SET(6); XMM_SET(7); XMM_SET(8); XMM_SET(9);
	XMM_SET(10); XMM_SET(11); XMM_SET(12); XMM_SET(13); XMM_SET(14);
}

__attribute__((noinline)) static void work(unsigned long turns)
{
	unsigned long i, acc = 1;

	xmm_set();
	for (i = 0; i < turns; i++) {
		acc = acc * 6364136223846793005UL + 1442695040888963407UL;
		if (acc & 0x100)
			sink += acc >> 3;
		else
			sink ^= acc;
	}
}

static int sys_open(struct perf_event_attr *a, int group)
{
	int fd = syscall(SYS_perf_event_open, a, 0, -1, group, 0);

	return fd < 0 ? -errno : fd;
}

/* the PMIs this CPU took so far (/proc/interrupts' PMI line, all CPUs) */
static unsigned long long pmis(void)
{
	unsigned long long sum = 0, v;
	char line[512], *p, *end;
	FILE *f = fopen("/proc/interrupts", "r");

	while (f && fgets(line, sizeof(line), f)) {
		p = strstr(line, "PMI:");
		if (!p)
			continue;
		for (p += 4;; p = end) {
			v = strtoull(p, &end, 10);
			if (end == p)
				break;
			sum += v;
		}
	}
	if (f)
		fclose(f);
	return sum;
}

static void marker(unsigned int n)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_RAW;
	a.config = 0x7f004200 | (n & 0xff);
	fd = sys_open(&a, -1);
	if (fd >= 0) {
		work(10);
		close(fd);
	}
}

struct probe {
	const char *name;
	__u32 type;
	__u64 config;
	int precise;
	__u64 sample_type;
	__u64 period;		/* 0: freq 1000, FREQ(f): freq f */
	int kernel;		/* count the kernel too */
	__u64 branch;		/* branch_sample_type */
	int two;		/* a second, identical event beside it */
	int wakeup;		/* wakeup_events */
	__u64 config1;		/* load latency threshold */
	__u64 regs;		/* sample_regs_intr/_user: 0 for REGS_MASK */
};

/*
 * The cases whose samples follow the kernel's own timing (the kernel's
 * instructions, frequency mode, throttling, time-based events such as
 * cycles where the PMU counts them as such): left out of "pebs-probe
 * stable", which is compared between kernels.
 */
static const char *const noisy[] = {
	"bus-cycles:p", "insns:p,freq", "insns:p,regs_user,k", "insns:p,k",
	"insns:p,two", "insns:pp,regs_intr,k", "insns,freq",
	"insns:p,freq4000", "insns:p,freq100", "mem-loads:P,phys",
	"sw-cpu-clock:p",
	/* cycles (on icx, not aliased to instructions as on skx) */
	"cycles:p", "cycles:pp", "cycles:ppp", "r003c:p", "ref-cycles:p",
};

static int is_noisy(const char *name)
{
	for (unsigned int i = 0; i < sizeof(noisy) / sizeof(noisy[0]); i++)
		if (!strcmp(noisy[i], name))
			return 1;
	return 0;
}

#define COUNTING	(~0ULL)
#define FREQ(f)		(1ULL << 63 | (f))

#define BASE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD)
#define HW	PERF_TYPE_HARDWARE
#define INSNS	PERF_COUNT_HW_INSTRUCTIONS
#define CYCLES	PERF_COUNT_HW_CPU_CYCLES

static const struct probe probes[] = {
	{ "insns:p", HW, INSNS, 1, BASE, 20011 },
	{ "insns:pp", HW, INSNS, 2, BASE, 20011 },
	{ "insns:ppp", HW, INSNS, 3, BASE, 20011 },
	{ "insns:pppp", HW, INSNS, 4, BASE, 20011 },
	{ "cycles:p", HW, CYCLES, 1, BASE, 20011 },
	{ "cycles:pp", HW, CYCLES, 2, BASE, 20011 },
	{ "cycles:ppp", HW, CYCLES, 3, BASE, 20011 },
	{ "branches:pp", HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 2, BASE, 2003 },
	{ "branch-misses:pp", HW, PERF_COUNT_HW_BRANCH_MISSES, 2, BASE, 2003 },
	{ "cache-misses:p", HW, PERF_COUNT_HW_CACHE_MISSES, 1, BASE, 2003 },
	{ "ref-cycles:p", HW, PERF_COUNT_HW_REF_CPU_CYCLES, 1, BASE, 20011 },
	{ "bus-cycles:p", HW, PERF_COUNT_HW_BUS_CYCLES, 1, BASE, 20011 },
	{ "r01c2:pp", PERF_TYPE_RAW, 0x01c2, 2, BASE, 20011 },
	{ "r01c0:ppp", PERF_TYPE_RAW, 0x01c0, 3, BASE, 20011 },
	{ "r00c4:p", PERF_TYPE_RAW, 0x00c4, 1, BASE, 2003 },
	{ "r003c:p", PERF_TYPE_RAW, 0x003c, 1, BASE, 20011 },
	{ "insns:p,freq", HW, INSNS, 1, BASE, 0 },
	{ "insns:p,time", HW, INSNS, 1, BASE | PERF_SAMPLE_TIME |
	  PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_STREAM_ID |
	  PERF_SAMPLE_IDENTIFIER, 20011 },
	{ "insns:p,callchain", HW, INSNS, 1, BASE | PERF_SAMPLE_CALLCHAIN,
	  20011 },
	{ "insns:p,regs_intr", HW, INSNS, 1, BASE | PERF_SAMPLE_REGS_INTR,
	  20011 },
	{ "insns:p,regs_user", HW, INSNS, 1, BASE | PERF_SAMPLE_REGS_USER,
	  20011 },
	{ "insns:p,regs_user,k", HW, INSNS, 1, BASE | PERF_SAMPLE_REGS_USER,
	  20011, 1 },
	{ "insns:p,read", HW, INSNS, 1, BASE | PERF_SAMPLE_READ, 20011 },
	{ "insns:p,raw", HW, INSNS, 1, BASE | PERF_SAMPLE_RAW, 20011 },
	{ "insns:p,addr", HW, INSNS, 1, BASE | PERF_SAMPLE_ADDR, 20011 },
	{ "insns:p,data_src", HW, INSNS, 1, BASE | PERF_SAMPLE_DATA_SRC,
	  20011 },
	{ "insns:p,weight", HW, INSNS, 1, BASE | PERF_SAMPLE_WEIGHT, 20011 },
	{ "insns:p,weight_struct", HW, INSNS, 1,
	  BASE | PERF_SAMPLE_WEIGHT_STRUCT, 20011 },
	{ "insns:p,phys_addr", HW, INSNS, 1, BASE | PERF_SAMPLE_PHYS_ADDR,
	  20011 },
	{ "insns:p,transaction", HW, INSNS, 1,
	  BASE | PERF_SAMPLE_TRANSACTION, 20011 },
	{ "insns:p,data_page_size", HW, INSNS, 1,
	  BASE | PERF_SAMPLE_DATA_PAGE_SIZE, 20011 },
	{ "insns:p,stack_user", HW, INSNS, 1, BASE | PERF_SAMPLE_STACK_USER,
	  20011 },
	{ "insns:p,branch_stack", HW, INSNS, 1,
	  BASE | PERF_SAMPLE_BRANCH_STACK, 20011, 0,
	  PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER },
	{ "insns:p,branch_stack,hw_index", HW, INSNS, 1,
	  BASE | PERF_SAMPLE_BRANCH_STACK, 20011, 0,
	  PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER |
	  PERF_SAMPLE_BRANCH_HW_INDEX },
	{ "insns:p,k", HW, INSNS, 1, BASE, 20011, 1 },
	{ "insns:p,two", HW, INSNS, 1, BASE, 20011, 0, 0, 1 },
	{ "insns:p,period1", HW, INSNS, 1, BASE, 1 },
	{ "insns:p,period100", HW, INSNS, 1, BASE, 100 },
	{ "insns:pp,regs_intr,k", HW, INSNS, 2, BASE | PERF_SAMPLE_REGS_INTR,
	  20011, 1 },
	{ "insns:p,wakeup1", HW, INSNS, 1, BASE, 20011, 0, 0, 0, 1 },
	{ "insns:p,counting", HW, INSNS, 1, BASE, COUNTING },
	{ "insns,freq", HW, INSNS, 0, BASE, 0 },
	{ "insns:p,freq4000", HW, INSNS, 1, BASE, FREQ(4000) },
	{ "insns:p,freq100", HW, INSNS, 1, BASE, FREQ(100) },
#define MEM	(BASE | PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC | \
		 PERF_SAMPLE_WEIGHT)
	{ "mem-loads:P", PERF_TYPE_RAW, 0x01cd, 3, MEM, 2003, 0, 0, 0, 0, 3 },
	{ "mem-loads,ldlat30:P", PERF_TYPE_RAW, 0x01cd, 3, MEM, 2003, 0, 0, 0,
	  0, 30 },
	{ "mem-stores:P", PERF_TYPE_RAW, 0x82d0, 3, MEM, 2003 },
	{ "r81d0:P", PERF_TYPE_RAW, 0x81d0, 3, MEM, 2003 },
	{ "r01d1:P", PERF_TYPE_RAW, 0x01d1, 3, MEM, 2003 },
	{ "r04d2:P", PERF_TYPE_RAW, 0x04d2, 3, MEM, 2003 },
	{ "r01d3:P", PERF_TYPE_RAW, 0x01d3, 3, MEM, 2003 },
	{ "mem-loads:p,weight_struct", PERF_TYPE_RAW, 0x01cd, 1,
	  BASE | PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC, 2003, 0, 0,
	  0, 0, 3 },
	{ "mem-loads:P,phys", PERF_TYPE_RAW, 0x01cd, 3, MEM |
	  PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_DATA_PAGE_SIZE, 2003, 0, 0, 0,
	  0, 3 },
	{ "sw-cpu-clock:p", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 1,
	  BASE, 20011 },
#define XMM	0xffffffff00000000ULL	/* XMM0-15, low and high halves */
	{ "insns:p,xmm_intr", HW, INSNS, 1, BASE | PERF_SAMPLE_REGS_INTR,
	  20011, 0, 0, 0, 0, 0, XMM | 0xff0fffULL },
	{ "insns:ppp,xmm_intr", HW, INSNS, 3, BASE | PERF_SAMPLE_REGS_INTR,
	  20011, 0, 0, 0, 0, 0, XMM },
	{ "insns,xmm_intr", HW, INSNS, 0, BASE | PERF_SAMPLE_REGS_INTR,
	  20011, 0, 0, 0, 0, 0, XMM },
	{ "insns:p,xmm_user", HW, INSNS, 1, BASE | PERF_SAMPLE_REGS_USER,
	  20011, 0, 0, 0, 0, 0, XMM | 0xff0fffULL },
	{ "mem-loads:P,xmm_intr", PERF_TYPE_RAW, 0x01cd, 3, MEM |
	  PERF_SAMPLE_REGS_INTR, 2003, 0, 0, 0, 0, 3, XMM | 0xff0fffULL },
};

/* the general registers, as the ABI numbers them (perf_regs.h) */
#define REGS_MASK	0xff0fffULL

static int count_bits(__u64 v)
{
	return __builtin_popcountll(v);
}

/* a memory event, whose records' sources come round in turn */
/* a sample's XMM registers (after the general ones @mask has), if any */
static void print_xmm(__u64 mask, const __u64 *regs)
{
	const __u64 *x = regs + count_bits(mask & 0xffffffffULL);

	if (!(mask >> 32))
		return;
	printf("  xmm");
	for (int i = 0; i < count_bits(mask >> 32); i++)
		printf(" %llx", (unsigned long long)x[i]);
	printf("\n");
}

static int memory_event(const struct probe *p)
{
	__u8 code = p->config & 0xff;

	return p->type == PERF_TYPE_RAW && code >= 0xcd && code <= 0xd3;
}

static void run(const struct probe *p, unsigned int n)
{
	struct perf_event_attr a;
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (RING_PAGES + 1) * page;
	struct perf_event_mmap_page *up;
	__u64 ips[64], nips = 0, periods = 0, head, tail, off;
	unsigned int samples = 0, throttles = 0, lost = 0, shown = 0;
	unsigned long long pmi0, misc = 0, src_seen = 0;
	unsigned long long t_last = 0, t_equal = 0, t_back = 0;
	__u64 src_data[64], src_weight[64], addr = 0;
	int fd, fd2 = -1;
	char *ring;

	marker(n);
	printf("=== %u %s\n", n, p->name);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = p->type;
	a.config = p->config;
	a.precise_ip = p->precise;
	a.sample_type = p->sample_type;
	if (p->period == COUNTING) {
		a.sample_type = 0;
	} else if (p->period & 1ULL << 63) {
		a.freq = 1;
		a.sample_freq = p->period & ~(1ULL << 63);
	} else if (p->period) {
		a.sample_period = p->period;
	} else {
		a.freq = 1;
		a.sample_freq = 1000;
	}
	a.exclude_kernel = !p->kernel;
	a.exclude_hv = 1;
	a.disabled = 1;
	a.sample_regs_intr = p->regs ? p->regs : REGS_MASK;
	a.sample_regs_user = p->regs ? p->regs : REGS_MASK;
	a.sample_stack_user = 64;
	a.branch_sample_type = p->branch;
	a.wakeup_events = p->wakeup;
	a.config1 = p->config1;
	a.read_format = PERF_FORMAT_ID;
	fd = sys_open(&a, -1);
	if (fd < 0) {
		printf("open: %d\n", fd);
		return;
	}
	if (p->two)
		fd2 = sys_open(&a, -1);
	ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED) {
		printf("mmap: %d\n", -errno);
		close(fd);
		return;
	}
	if (fd2 >= 0) {
		ioctl(fd2, PERF_EVENT_IOC_SET_OUTPUT, fd);
		ioctl(fd2, PERF_EVENT_IOC_ENABLE, 0);
	}
	pmi0 = pmis();
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	work(300000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	pmi0 = pmis() - pmi0;
	if (fd2 >= 0)
		ioctl(fd2, PERF_EVENT_IOC_DISABLE, 0);
	up = (void *)ring;
	head = __atomic_load_n(&up->data_head, __ATOMIC_ACQUIRE);
	tail = up->data_tail;
	for (off = tail; off < head;) {
		struct perf_event_header *h =
			(void *)(ring + page + off % (RING_PAGES * page));
		__u64 *f = (__u64 *)(h + 1), ip = 0, i, k;

		if (!h->size)
			break;
		off += h->size;
		if (h->type == PERF_RECORD_THROTTLE) {
			throttles++;
			continue;
		}
		if (h->type == PERF_RECORD_LOST) {
			lost += f[1];
			continue;
		}
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		samples++;
		misc |= h->misc;
		if (a.sample_type & PERF_SAMPLE_IDENTIFIER)
			f++;
		if (a.sample_type & PERF_SAMPLE_IP)
			ip = *f++;
		if (samples <= 3)
			printf("  sample %u ip %llx\n", samples,
			       (unsigned long long)ip);
		for (i = 0; i < nips && ips[i] != ip; i++)
			;
		if (i == nips && nips < 64)
			ips[nips++] = ip;
		if (a.sample_type & PERF_SAMPLE_TID)
			f++;
		if (a.sample_type & PERF_SAMPLE_TIME) {
			/* the records' own times, or the drain's */
			t_equal += *f == t_last;
			t_back += *f < t_last;
			t_last = *f;
			f++;
		}
		if (a.sample_type & PERF_SAMPLE_ADDR) {
			addr = *f;
			if (shown < 3 && !(a.sample_type & PERF_SAMPLE_DATA_SRC))
				printf("  addr %llx\n", (unsigned long long)*f);
			f++;
		}
		if (a.sample_type & PERF_SAMPLE_ID)
			f++;
		if (a.sample_type & PERF_SAMPLE_STREAM_ID)
			f++;
		if (a.sample_type & PERF_SAMPLE_CPU)
			f++;
		if (a.sample_type & PERF_SAMPLE_PERIOD)
			periods += *f++;
		if (a.sample_type & PERF_SAMPLE_READ)
			f += 2;
		if (a.sample_type & PERF_SAMPLE_CALLCHAIN) {
			if (shown < 3)
				printf("  callchain %llu\n",
				       (unsigned long long)*f);
			f += 1 + *f;
		}
		if (a.sample_type & PERF_SAMPLE_RAW) {
			__u32 size = *(__u32 *)f;

			f = (__u64 *)((char *)f + 4 + size);
		}
		if (a.sample_type & PERF_SAMPLE_BRANCH_STACK) {
			k = *f++;
			if (shown < 3)
				printf("  branches %llu\n",
				       (unsigned long long)k);
			if (p->branch & PERF_SAMPLE_BRANCH_HW_INDEX) {
				/* which index, the kernel's timing decides */
				if (shown < 3)
					printf("  hw_idx %s\n", *f == -1ULL ?
					       "-1" : "an index");
				f++;
			}
			/* the newest two: source, target, flags */
			for (__u64 b = 0; shown < 3 && p->branch &
			     PERF_SAMPLE_BRANCH_HW_INDEX && b < k && b < 2; b++)
				printf("  branch %llx -> %llx %llx\n",
				       (unsigned long long)f[3 * b],
				       (unsigned long long)f[3 * b + 1],
				       (unsigned long long)f[3 * b + 2] &
				       ~0xffff0ULL);
			f += 3 * k;
		}
		if (a.sample_type & PERF_SAMPLE_REGS_USER) {
			k = *f++;
			if (shown < 3)
				printf("  regs_user abi %llu ip-match %d\n",
				       (unsigned long long)k,
				       k ? f[8] == ip : -1);
			if (k && shown < 3)
				print_xmm(a.sample_regs_user, f);
			if (k)
				f += count_bits(a.sample_regs_user);
		}
		if (a.sample_type & PERF_SAMPLE_STACK_USER) {
			k = *f++;
			f += (k + 7) / 8;
			if (k)
				f++;
		}
		if (a.sample_type & PERF_SAMPLE_WEIGHT_TYPE) {
			if (shown < 3 && !(a.sample_type & PERF_SAMPLE_DATA_SRC))
				printf("  weight %llx\n", (unsigned long long)*f);
			src_weight[addr >> 3 & 63] = *f;
			f++;
		}
		if (a.sample_type & PERF_SAMPLE_DATA_SRC) {
			/*
			 * The emulated source, from the address's bits 8:3:
			 * which come first depends on earlier runs, so only
			 * the table below is printed where there is one.
			 */
			if (shown < 3 && !addr && !memory_event(p))
				printf("  data_src %llx\n",
				       (unsigned long long)*f);
			if (addr) {
				src_seen |= 1ULL << (addr >> 3 & 63);
				src_data[addr >> 3 & 63] = *f;
			}
			f++;
		}
		if (a.sample_type & PERF_SAMPLE_TRANSACTION) {
			if (shown < 3)
				printf("  txn %llx\n", (unsigned long long)*f);
			f++;
		}
		if (a.sample_type & PERF_SAMPLE_REGS_INTR) {
			k = *f++;
			if (shown < 3)
				printf("  regs_intr abi %llu ip-match %d flags %llx\n",
				       (unsigned long long)k,
				       k && (a.sample_regs_intr & 0xffffff) ?
				       f[8] == ip : -1,
				       k && (a.sample_regs_intr & 0xffffff) ?
				       (unsigned long long)f[9] & 0xcd5 : 0);
			if (k && shown < 3)
				print_xmm(a.sample_regs_intr, f);
			if (k)
				f += count_bits(a.sample_regs_intr);
		}
		if (a.sample_type & PERF_SAMPLE_PHYS_ADDR) {
			if (shown < 3)
				printf("  phys_addr %s\n", *f ? "nonzero" :
				       "0");
			f++;
		}
		if (a.sample_type & PERF_SAMPLE_DATA_PAGE_SIZE) {
			if (shown < 3)
				printf("  data_page_size %llx\n",
				       (unsigned long long)*f);
			f++;
		}
		shown++;
	}
	if (p->period == COUNTING) {
		__u64 v[2] = { 0, 0 };

		printf("count %s\n", read(fd, v, sizeof(v)) == sizeof(v) &&
		       v[0] ? "nonzero" : "0");
	}
	printf("samples %u periods %llu ips %llu throttles %u lost %u misc %llx\n",
	       samples, (unsigned long long)periods,
	       (unsigned long long)nips, throttles, lost, misc);
	if (a.sample_type & PERF_SAMPLE_TIME)
		printf("times: %s, %s\n",
		       t_equal > samples / 2 ? "most equal" : "distinct",
		       t_back ? "some backwards" : "in order");
	/* one PMI a record, or a few for a buffer of them */
	printf("pmis %s\n", pmi0 >= samples / 2 && samples > 4 ? "per sample" :
	       pmi0 ? "few" : "none");
	for (int i = 0; i < 64; i++)
		if (src_seen & 1ULL << i)
			printf("  source %2d: data_src %llx weight %llx\n", i,
			       (unsigned long long)src_data[i],
			       (unsigned long long)src_weight[i]);
	for (__u64 i = 0; i < nips && i < 8; i++)
		printf("  ip %llx\n", (unsigned long long)ips[i]);
	munmap(ring, len);
	if (fd2 >= 0)
		close(fd2);
	close(fd);
}

/*
 * What each memory event's samples say of the emulated data sources 0
 * and 1 (a load, a store, a load-latency event or none of these): one
 * line an event.
 */
static void classes(void)
{
	static const __u16 umasks[] = {
		0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80,
		0x11, 0x12, 0x21, 0x22, 0x41, 0x42, 0x81, 0x82,
	};
	long page = sysconf(_SC_PAGESIZE);
	size_t len = 9 * page;

	for (__u64 code = 0xcd; code <= 0xd3; code++) {
		for (unsigned int u = 0; u < sizeof(umasks) / 2; u++) {
			struct perf_event_attr a;
			__u64 seen[2] = { ~0ULL, ~0ULL }, w = 0, head, off;
			char *ring;
			int fd;

			memset(&a, 0, sizeof(a));
			a.size = sizeof(a);
			a.type = PERF_TYPE_RAW;
			a.config = umasks[u] << 8 | code;
			a.config1 = 3;
			a.precise_ip = 2;
			a.sample_period = 997;
			a.sample_type = PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT |
					PERF_SAMPLE_DATA_SRC;
			a.exclude_kernel = 1;
			a.disabled = 1;
			fd = sys_open(&a, -1);
			if (fd < 0) {
				printf("class %#06llx open %d\n",
				       (unsigned long long)a.config, fd);
				continue;
			}
			ring = mmap(NULL, len, PROT_READ | PROT_WRITE,
				    MAP_SHARED, fd, 0);
			if (ring == MAP_FAILED) {
				close(fd);
				continue;
			}
			ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
			work(20000);
			ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
			head = ((struct perf_event_mmap_page *)ring)->data_head;
			for (off = 0; off < head && off < 8 * page;) {
				struct perf_event_header *h =
					(void *)(ring + page + off);
				__u64 *f = (__u64 *)(h + 1);

				if (!h->size)
					break;
				off += h->size;
				if (h->type != PERF_RECORD_SAMPLE)
					continue;
				if ((f[0] >> 3 & 63) < 2) {
					seen[f[0] >> 3 & 63] = f[2];
					if (f[0] >> 3 & 63)
						w = f[1];
				}
			}
			printf("class %#06llx src0 %llx src1 %llx weight1 %llx\n",
			       (unsigned long long)a.config,
			       (unsigned long long)seen[0],
			       (unsigned long long)seen[1],
			       (unsigned long long)w);
			munmap(ring, len);
			close(fd);
		}
	}
}

int main(int argc, char **argv)
{
	unsigned int i;
	int stable;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "classes")) {
		classes();
		return 0;
	}
	stable = argc > 1 && !strcmp(argv[1], "stable");
	/* "only NAME": that case alone */
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		if (argc > 2 && !strcmp(argv[1], "only") ?
		    !strcmp(argv[2], probes[i].name) :
		    !stable || !is_noisy(probes[i].name))
			run(&probes[i], FIRST_CASE + i);
	printf("pebs-probe done\n");
	return 0;
}
