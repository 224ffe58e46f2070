// SPDX-License-Identifier: GPL-2.0
/*
 * Branch stacks as perf_event_open(2) callers see them (make x86-models
 * part lbr): for each case below, the errno of a sampling event with that
 * branch_sample_type (or other attributes) on this task, and, where it
 * opens, every field of the branch entries its samples hold over a fixed
 * branchy user-space loop: the stack sizes, hw_idx where asked for, and
 * each distinct entry once (source and target, mispred, predicted,
 * in_tx, abort, whether it has a cycle count, type, spec, new_type,
 * priv), kernel addresses as K.  What follows the kernel's timing is
 * left out: the cycle counts, a top of stack's value (whether it is -1
 * is kept), and the stack sizes of the cases that record the kernel.  Before each case a marker event (event select = the case's number,
 * unit mask 0x42, counter mask 0x7f) that bench/x86-models.sh finds in
 * QEMU's MSR trace.  Static and not position independent: the user
 * addresses are the same in every run.  The output is compared between
 * kernels, not against expectations.
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

/* what older headers lack: branch counters, and the flags' layout */
#define BRANCH_COUNTERS	(1ULL << 19)
#define FIELD(v, lo, n)	((unsigned int)((v) >> (lo)) & ((1U << (n)) - 1))

#define RING_PAGES	64
#define FIRST_CASE	220
#define MAX_SEEN	400

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) static unsigned long middle(unsigned long x)
{
	if (x & 1)
		return leaf(x) + leaf(x >> 1);
	return leaf(x >> 2);
}

static unsigned long (*const table[2])(unsigned long) = { leaf, middle };

__attribute__((noinline)) static void work(unsigned long turns)
{
	unsigned long i, acc = 1;

	for (i = 0; i < turns; i++) {
		acc = acc * 6364136223846793005UL + 1442695040888963407UL;
		sink += table[(acc >> 7) & 1](acc);
		if (!(i & 1023))
			getppid();
	}
}

/* system calls: branches in the kernel */
__attribute__((noinline)) static void kernel_work(unsigned long turns)
{
	unsigned long i;

	for (i = 0; i < turns; i++)
		sink += getppid();
}

static void marker(unsigned int n)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_RAW, .size = sizeof(a),
		.config = 0x7f004200ULL | n, .exclude_kernel = 1,
	};
	int fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);

	if (fd >= 0)
		close(fd);
}

struct probe {
	const char *name;
	__u64 branch;		/* branch_sample_type */
	__u64 type;		/* PERF_TYPE_ and config: instructions if 0 */
	__u64 config;
	int precise;
	int counting;		/* no sample_period: a counting event */
	int kernel;		/* count the kernel too (2: only the kernel;
				 * 3: only user space, over system calls) */
};

#define U	PERF_SAMPLE_BRANCH_USER
#define K	PERF_SAMPLE_BRANCH_KERNEL

static const struct probe probes[] = {
	{ "any,u", PERF_SAMPLE_BRANCH_ANY | U },
	{ "any,u,hw_index,save_type,priv",
	  PERF_SAMPLE_BRANCH_ANY | U | PERF_SAMPLE_BRANCH_HW_INDEX |
	  PERF_SAMPLE_BRANCH_TYPE_SAVE | PERF_SAMPLE_BRANCH_PRIV_SAVE },
	{ "any_call,u", PERF_SAMPLE_BRANCH_ANY_CALL | U },
	{ "any_return,u", PERF_SAMPLE_BRANCH_ANY_RETURN | U },
	{ "ind_call,u", PERF_SAMPLE_BRANCH_IND_CALL | U },
	{ "call,u", PERF_SAMPLE_BRANCH_CALL | U },
	{ "cond,u", PERF_SAMPLE_BRANCH_COND | U },
	{ "ind_jump,u", PERF_SAMPLE_BRANCH_IND_JUMP | U },
	{ "call_stack,u", PERF_SAMPLE_BRANCH_CALL_STACK | U },
	{ "abort_tx,u", PERF_SAMPLE_BRANCH_ABORT_TX | U },
	{ "in_tx,u", PERF_SAMPLE_BRANCH_IN_TX | U },
	{ "no_tx,u", PERF_SAMPLE_BRANCH_NO_TX | U },
	{ "any,u,no_flags,no_cycles", PERF_SAMPLE_BRANCH_ANY | U |
	  PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES },
	{ "any,u,counters", PERF_SAMPLE_BRANCH_ANY | U |
	  BRANCH_COUNTERS },
	{ "any,hv", PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HV },
	{ "u only", U },
	{ "any,u precise", PERF_SAMPLE_BRANCH_ANY | U, 0, 0, 2 },
	{ "any,u counting", PERF_SAMPLE_BRANCH_ANY | U, 0, 0, 0, 1 },
	{ "any,u,k event kernel", PERF_SAMPLE_BRANCH_ANY | U | K, 0, 0, 0, 0, 1 },
	{ "any (privilege of the event)", PERF_SAMPLE_BRANCH_ANY },
	{ "any,u cycles", PERF_SAMPLE_BRANCH_ANY | U, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CPU_CYCLES },
	{ "any,u raw 0xc4", PERF_SAMPLE_BRANCH_ANY | U, PERF_TYPE_RAW, 0xc4 },
	{ "any,k event kernel only", PERF_SAMPLE_BRANCH_ANY | K, 0, 0, 0, 0, 2 },
	{ "any,u,k event kernel only", PERF_SAMPLE_BRANCH_ANY | U | K, 0, 0, 0, 0,
	  2 },
	{ "any,u over system calls", PERF_SAMPLE_BRANCH_ANY | U, 0, 0, 0, 0, 3 },
	{ "any_return,u over system calls", PERF_SAMPLE_BRANCH_ANY_RETURN | U,
	  0, 0, 0, 0, 3 },
	{ "any,u task-clock", PERF_SAMPLE_BRANCH_ANY | U, PERF_TYPE_SOFTWARE,
	  PERF_COUNT_SW_TASK_CLOCK },
};

struct seen {
	__u64 from, to, flags;
};

static struct seen seen[MAX_SEEN];
static unsigned int nr_seen, sizes[64], hw_idx_seen[8], nr_hw_idx;
static unsigned int rec16;	/* a sample's record size with 16 entries */
static __u64 hw_idx_val[8];

static __u64 addr(__u64 a)
{
	return a >= 0xffff800000000000ULL ? 1 : a;
}

static void add_entry(const struct perf_branch_entry *e)
{
	__u64 flags; /* the word after from and to */
	unsigned int i;

	memcpy(&flags, (const char *)e + 16, sizeof(flags));
	/* cycles (bits 19:4): whether there is a count */
	if (flags & 0xffff0ULL)
		flags = (flags & ~0xffff0ULL) | 0x10;
	for (i = 0; i < nr_seen; i++)
		if (seen[i].from == addr(e->from) && seen[i].to == addr(e->to) &&
		    seen[i].flags == flags)
			return;
	if (nr_seen < MAX_SEEN)
		seen[nr_seen++] = (struct seen){ addr(e->from), addr(e->to),
						 flags };
}

static void add_hw_idx(__u64 v)
{
	unsigned int i;

	/* an index into the records: which, the kernel's timing decides */
	if (v != -1ULL)
		v = 1;
	for (i = 0; i < nr_hw_idx; i++)
		if (hw_idx_val[i] == v) {
			hw_idx_seen[i]++;
			return;
		}
	if (nr_hw_idx < 8) {
		hw_idx_val[nr_hw_idx] = v;
		hw_idx_seen[nr_hw_idx++] = 1;
	}
}

static void print_entry(const struct seen *s)
{
	__u64 f = s->flags;

	printf("  %s%llx -> %s%llx mispred=%u pred=%u in_tx=%u abort=%u cycles=%s type=%u spec=%u new_type=%u priv=%u\n",
	       s->from == 1 ? "K" : "0x",
	       s->from == 1 ? 0ULL : (unsigned long long)s->from,
	       s->to == 1 ? "K" : "0x",
	       s->to == 1 ? 0ULL : (unsigned long long)s->to,
	       FIELD(f, 0, 1), FIELD(f, 1, 1), FIELD(f, 2, 1), FIELD(f, 3, 1),
	       FIELD(f, 4, 16) ? "some" : "0", FIELD(f, 20, 4), FIELD(f, 24, 2),
	       FIELD(f, 26, 4), FIELD(f, 30, 3));
}

static int cmp_seen(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return x->flags < y->flags ? -1 : x->flags > y->flags;
}

static void run(const struct probe *p, unsigned int n)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = p->type ? p->type : PERF_TYPE_HARDWARE,
		.config = p->type ? p->config : PERF_COUNT_HW_INSTRUCTIONS,
		.exclude_kernel = !p->kernel || p->kernel == 3,
		.exclude_user = p->kernel == 2,
		.exclude_hv = 1,
		.precise_ip = p->precise, .disabled = 1,
		.branch_sample_type = p->branch,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK,
	};
	struct perf_event_mmap_page *meta;
	unsigned int samples = 0, i;
	size_t size = (RING_PAGES + 1) * 4096;
	char *ring;
	__u64 head, off;
	int fd;

	if (!p->counting)
		a.sample_period = p->type == PERF_TYPE_SOFTWARE ? 100000 :
				  p->kernel >= 2 ? 2003 : 20011;
	else
		a.sample_type = 0;
	marker(n);
	printf("=== case %u: %s\n", n, p->name);
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		printf("open: %s\n", strerror(errno));
		return;
	}
	printf("open: ok\n");
	if (p->counting) {
		close(fd);
		return;
	}
	ring = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED) {
		printf("mmap: %s\n", strerror(errno));
		close(fd);
		return;
	}
	meta = (void *)ring;
	nr_seen = nr_hw_idx = rec16 = 0;
	memset(sizes, 0, sizeof(sizes));
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	if (p->kernel >= 2)
		kernel_work(p->kernel == 2 ? 3000 : 20000);
	else
		work(40000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	for (off = 0; off < head;) {
		struct perf_event_header *h =
			(void *)(ring + 4096 + off % (RING_PAGES * 4096));
		__u64 *w = (__u64 *)(h + 1), nr;

		if (h->size < sizeof(*h) ||
		    off % (RING_PAGES * 4096) + h->size > RING_PAGES * 4096)
			break;
		off += h->size;
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		samples++;
		nr = w[1];
		sizes[nr < 63 ? nr : 63]++;
		if (nr == 16)
			rec16 = h->size;
		w += 2;
		if (p->branch & PERF_SAMPLE_BRANCH_HW_INDEX)
			add_hw_idx(*w++);
		for (i = 0; i < nr; i++)
			add_entry((struct perf_branch_entry *)w + i);
	}
	printf("samples: %s\n", samples > 20 ? "over 20" : "20 or fewer");
	/* whether a PMI falls near a system call follows the kernel's timing */
	if (p->kernel == 1) {
		munmap(ring, size);
		close(fd);
		return;
	}
	/* where the kernel records too, how deep the kernel's part goes */
	printf("stack sizes:");
	for (i = 0; i < 64 && !p->kernel; i++)
		if (sizes[i])
			printf(" %u", i);
	printf("\n");
	if (rec16)
		printf("record size with 16 entries: %u\n", rec16);
	for (i = 0; i < nr_hw_idx; i++)
		printf("hw_idx %s\n", hw_idx_val[i] == -1ULL ? "-1" :
		       "an index or 0");
	qsort(seen, nr_seen, sizeof(seen[0]), cmp_seen);
	for (i = 0; i < nr_seen; i++)
		print_entry(&seen[i]);
	munmap(ring, size);
	close(fd);
}

int main(void)
{
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
		run(&probes[i], FIRST_CASE + i);
	return 0;
}
