// SPDX-License-Identifier: GPL-2.0
/*
 * perfbench: the cost of perf_event operations, run in a guest whose
 * clock counts instructions (QEMU -icount shift=0,sleep=off: one guest
 * nanosecond per instruction), so every figure is an instruction count
 * that repeats from boot to boot.  bench/bench.sh boots stock and the
 * series on the same initramfs and puts the figures side by side.
 *
 * Each figure is the median of REPS repetitions of a loop of the
 * operation, divided by the loop's length; the cost of reading the clock
 * is taken off.  One line per figure:
 *
 *	perfbench <name> <guest ns per operation>
 *
 * Figures named *_bytes_* are bytes of kernel memory per event, from the
 * allocators' tracepoints (kmem-trace.h), not nanoseconds.  The smp_*
 * figures run where four CPUs or more are online (bench.sh boots a guest
 * of eight for them alone): CPU-wide events on each CPU, as perf
 * stat -a opens them, a group enabled from another CPU, and sampling on
 * every CPU as perf record -a does it.
 *
 * Everything runs pinned to CPU 0.  The events are software events
 * (page faults: counting only, no timers) unless the name says "hw"
 * (PERF_COUNT_HW_CPU_CYCLES, where the guest has a PMU) or "lbr" (the
 * same with a branch stack, where the cpu PMU has last branch records) or
 * "pebs" (the same with precise_ip 1, where the cpu PMU has PEBS).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kmem-trace.h"

#define REPS		7
#define MAX_EVENTS	2100
#define MAX_GROUP	16

static int fds[MAX_EVENTS];
static double clock_cost;
static long page_size;

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		     int group)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group,
		       PERF_FLAG_FD_CLOEXEC);
}

static void sw_attr(struct perf_event_attr *a, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof(*a);
	a->config = config;
}

static void hw_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_HARDWARE;
	a->size = sizeof(*a);
	a->config = PERF_COUNT_HW_CPU_CYCLES;
}

/* A counting event on @pid; exits on failure (the figure would be wrong). */
static int open_counter(pid_t pid, int hw, int inherit)
{
	struct perf_event_attr a;
	int fd;

	if (hw)
		hw_attr(&a);
	else
		sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.inherit = inherit;
	fd = perf_open(&a, pid, -1, -1);
	if (fd < 0) {
		fprintf(stderr, "perfbench: perf_event_open: %s\n",
			strerror(errno));
		exit(1);
	}
	return fd;
}

static void open_many(int k, pid_t pid, int hw, int inherit)
{
	for (int i = 0; i < k; i++)
		fds[i] = open_counter(pid, hw, inherit);
}

static void close_many(int k)
{
	for (int i = 0; i < k; i++)
		close(fds[i]);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

static void report(const char *name, double ns)
{
	printf("perfbench %s %.0f\n", name, ns < 0 ? 0 : ns);
	fflush(stdout);
}

/*
 * PERFBENCH_ONLY="a,b" (an argument of the guest's kernel command line,
 * which reaches /init's environment) runs only the figures named.
 */
static int wanted(const char *name)
{
	const char *only = getenv("PERFBENCH_ONLY");
	size_t len = strlen(name);

	if (!only || !*only)
		return 1;
	for (const char *p = only; p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (!strncmp(p, name, len) && (p[len] == ',' || !p[len]))
			return 1;
	}
	return 0;
}

/* A figure: the median over REPS of @fn(@arg), which returns ns per op. */
static void figure(const char *name, double (*fn)(long), long arg)
{
	double v[REPS];

	if (!wanted(name))
		return;
	for (int r = 0; r < REPS; r++)
		v[r] = fn(arg);
	report(name, median(v, REPS));
}

static double clock_loop(long n)
{
	uint64_t t0 = now();

	for (long i = 0; i < n; i++)
		now();
	return (double)(now() - t0) / n;
}

/* open + close of one event on the caller */
static double open_close(long n)
{
	uint64_t t0 = now();

	for (long i = 0; i < n; i++)
		close(open_counter(0, 0, 0));
	return (double)(now() - t0) / n;
}

/* open, or close, of one event while the caller has @k others */
static double timed_open_close(long k, int which)
{
	const int n = 40;
	uint64_t t = 0;

	open_many(k, 0, 0, 0);
	for (int i = 0; i < n; i++) {
		uint64_t t0 = now(), t1;
		int fd = open_counter(0, 0, 0);

		t1 = now();
		close(fd);
		t += which ? now() - t1 : t1 - t0;
	}
	close_many(k);
	return (double)t / n - clock_cost;
}

static double open_with(long k)
{
	return timed_open_close(k, 0);
}

static double close_with(long k)
{
	return timed_open_close(k, 1);
}

/*
 * The average open of @k enabled counting events on the caller, of three
 * kinds in turn (task-clock, context-switches, page-faults), each opened
 * while the ones before it count: the cost's growth with the number open.
 */
static double open_mixed(long k)
{
	static const uint64_t kinds[] = { PERF_COUNT_SW_TASK_CLOCK,
					  PERF_COUNT_SW_CONTEXT_SWITCHES,
					  PERF_COUNT_SW_PAGE_FAULTS };
	struct perf_event_attr a;
	uint64_t t = 0;

	for (long i = 0; i < k; i++) {
		uint64_t t0;

		sw_attr(&a, kinds[i % 3]);
		t0 = now();
		fds[i] = perf_open(&a, 0, -1, -1);
		t += now() - t0;
		if (fds[i] < 0)
			exit(1);
	}
	close_many(k);
	return (double)t / k - clock_cost;
}

/* @n read()s of one counting event, software or (@hw) cycles */
static double read_loop(int hw, long n)
{
	int fd = open_counter(0, hw, 0);
	uint64_t v, t0 = now();

	for (long i = 0; i < n; i++)
		if (read(fd, &v, sizeof(v)) != sizeof(v))
			exit(1);
	t0 = now() - t0;
	close(fd);
	return (double)t0 / n;
}

static double read_single(long n)
{
	return read_loop(0, n);
}

/* read() of a group of @size with GROUP|ID|TOTAL_TIME_* */
static double read_group(long size)
{
	uint64_t buf[3 + 2 * MAX_GROUP], t0;
	struct perf_event_attr a;
	const int n = 300;
	int lead = -1;

	for (int i = 0; i < size; i++) {
		sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
				PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		fds[i] = perf_open(&a, 0, -1, lead);
		if (fds[i] < 0)
			exit(1);
		if (!i)
			lead = fds[0];
	}
	t0 = now();
	for (int i = 0; i < n; i++)
		if (read(lead, buf, sizeof(buf)) <= 0)
			exit(1);
	t0 = now() - t0;
	close_many(size);
	return (double)t0 / n;
}

static double enable_disable(long n)
{
	int fd = open_counter(0, 0, 0);
	uint64_t t0 = now();

	for (long i = 0; i < n; i++) {
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	}
	t0 = now() - t0;
	close(fd);
	return (double)t0 / n;
}

/*
 * A round trip between two processes on CPU 0 (two context switches);
 * the one that measures has @k events (hardware ones when @k < 0).
 */
static int cgroup_enter(const char *cg, pid_t pid);

/*
 * @n round trips through pipes with a child (in cgroup @child_cg where
 * not NULL, which it enters before a first, untimed round trip): guest
 * ns each
 */
static double pingpong_in(int n, const char *child_cg)
{
	int to[2], from[2];
	uint64_t t0;
	pid_t pid;
	char c = 0;

	if (pipe(to) || pipe(from))
		exit(1);
	pid = fork();
	if (pid == 0) {
		close(to[1]);
		close(from[0]);
		if (child_cg && cgroup_enter(child_cg, getpid()))
			_exit(1);
		while (read(to[0], &c, 1) == 1)
			if (write(from[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(to[0]);
	close(from[1]);
	if (child_cg &&
	    (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1))
		exit(1);
	t0 = now();
	for (int i = 0; i < n; i++)
		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
			exit(1);
	t0 = now() - t0;
	close(to[1]);
	waitpid(pid, NULL, 0);
	close(from[0]);
	return (double)t0 / n;
}

static double pingpong(int n)
{
	return pingpong_in(n, NULL);
}

static double ctxsw(long k)
{
	int hw = k < 0;
	double ns;

	if (hw)
		k = -k;
	open_many(k, 0, hw, 0);
	ns = pingpong(300);
	close_many(k);
	return ns;
}

/*
 * Context switches between cgroups (perf stat -G, container monitoring):
 * a round trip between this task, in cgroup pb_a, and a child in pb_b,
 * both on CPU 0, with @k CPU-wide events of CPU 0 following each cgroup
 * (PERF_FLAG_PID_CGROUP): every switch takes one cgroup's events off and
 * puts the other's on.  0 where the guest has no cgroup v2.
 */
#define CGROOT	"/sys/fs/cgroup"

static int cgroup_write(const char *file, const char *s)
{
	int fd = open(file, O_WRONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

static int cgroup_enter(const char *cg, pid_t pid)
{
	char path[128], buf[16];

	snprintf(path, sizeof(path), CGROOT "/%s/cgroup.procs", cg);
	snprintf(buf, sizeof(buf), "%d", (int)pid);
	return cgroup_write(path, buf);
}

static double cgroup_switch(long k)
{
	struct perf_event_attr a;
	int cg[2];
	double ns;

	if (access(CGROOT "/cgroup.procs", F_OK)) {
		mkdir(CGROOT, 0755);
		if (mount("cgroup2", CGROOT, "cgroup2", 0, NULL))
			return 0;
	}
	/*
	 * a controller enabled below the root: until then new cgroups have
	 * no perf_event state (ENOENT, stock and series alike)
	 */
	cgroup_write(CGROOT "/cgroup.subtree_control", "+pids");
	mkdir(CGROOT "/pb_a", 0755);
	mkdir(CGROOT "/pb_b", 0755);
	cg[0] = open(CGROOT "/pb_a", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cg[1] = open(CGROOT "/pb_b", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg[0] < 0 || cg[1] < 0 || cgroup_enter("pb_a", getpid()))
		return 0;
	sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	for (int i = 0; i < 2 * k; i++) {
		fds[i] = syscall(__NR_perf_event_open, &a, cg[i & 1], 0, -1,
				 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
		if (fds[i] < 0) {
			fprintf(stderr, "perfbench: cgroup event: %s\n",
				strerror(errno));
			exit(1);
		}
	}
	ns = pingpong_in(300, "pb_b");
	close_many(2 * k);
	cgroup_enter("", getpid());
	close(cg[0]);
	close(cg[1]);
	return ns;
}

/* @n context switches with the event @fd on the task, which then goes */
static double pingpong_with(int fd, long n)
{
	double ns;

	if (fd < 0)
		exit(1);
	ns = pingpong(n);
	close(fd);
	return ns;
}

/* a cycles event of this task with a branch stack of @branch_type */
static int lbr_open(__u64 branch_type, __u64 period)
{
	struct perf_event_attr a;

	hw_attr(&a);
	a.sample_period = period;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = branch_type | PERF_SAMPLE_BRANCH_USER;
	return perf_open(&a, 0, -1, -1);
}

/*
 * A context switch with an LBR call-stack event on the task (its ring
 * saved and written back at each switch; a period that never ends).
 */
static double ctxsw_lbr(long n)
{
	return pingpong_with(lbr_open(PERF_SAMPLE_BRANCH_CALL_STACK,
				      1ULL << 40), n);
}


/* Touch @n fresh pages: @n page faults. */
static void touch(int n, char *p)
{
	for (int i = 0; i < n; i++)
		p[i * page_size] = 1;
	__asm__ __volatile__("" : : : "memory");
}

/* Touch @n pages of a fresh mapping; the guest ns it took. */
static uint64_t touch_fresh(int n)
{
	char *p = mmap(NULL, n * page_size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t t = now();

	touch(n, p);
	t = now() - t;
	munmap(p, n * page_size);
	return t;
}

/*
 * The extra cost per page fault of a page-fault sample of @a (period 1),
 * written into a ring of @pages data pages read by nobody (0: no ring at
 * all); -1 if the kernel refuses @a.
 */
static double fault_sample_cost(struct perf_event_attr *a, long pages)
{
	const int n = 400;
	size_t len = (1 + pages) * page_size;
	uint64_t base, with;
	void *up = NULL;
	int fd;

	base = touch_fresh(n);
	fd = perf_open(a, 0, -1, -1);
	if (fd >= 0 && pages)
		up = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (fd < 0 || up == MAP_FAILED) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	with = touch_fresh(n);
	if (up)
		munmap(up, len);
	close(fd);
	return (double)(with - base) / n;
}

/*
 * The extra cost of one page-fault sample (period 1) written into a ring
 * of @pages data pages, read by nobody: with @pages small, most samples
 * are lost (the slow reader).
 */
static double sample_fault(long pages)
{
	struct perf_event_attr a;
	double ns;

	sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	ns = fault_sample_cost(&a, pages);
	if (ns < 0)
		exit(1);
	return ns;
}

/*
 * The extra cost of a page-fault sample carrying one more sample_type bit
 * (or read_format, for READ) than IP, TID and TIME: what each part of a
 * sample costs, the figure to compare where interrupts grow slow.
 */
struct sample_bit {
	const char *name;
	uint64_t type;
	uint64_t read_format;
	int no_ring;	/* the event has no ring: the sample goes nowhere */
};

#define BIT_READ_ONE	(PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | \
			 PERF_FORMAT_LOST)

static const struct sample_bit sample_bits[] = {
	{ .name = "none" },
	{ .name = "addr", .type = PERF_SAMPLE_ADDR },
	{ .name = "read", .type = PERF_SAMPLE_READ,
	  .read_format = BIT_READ_ONE },
	{ .name = "read_group", .type = PERF_SAMPLE_READ,
	  .read_format = BIT_READ_ONE | PERF_FORMAT_GROUP },
	{ .name = "callchain", .type = PERF_SAMPLE_CALLCHAIN },
	{ .name = "id", .type = PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER |
				PERF_SAMPLE_STREAM_ID },
	{ .name = "cpu_period", .type = PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD },
	{ .name = "regs",
	  .type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR },
	{ .name = "stack_user", .type = PERF_SAMPLE_STACK_USER },
	{ .name = "weight_src_txn", .type = PERF_SAMPLE_WEIGHT |
		  PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION },
	{ .name = "phys_addr", .type = PERF_SAMPLE_PHYS_ADDR },
	{ .name = "cgroup", .type = PERF_SAMPLE_CGROUP },
	{ .name = "page_sizes", .type = PERF_SAMPLE_DATA_PAGE_SIZE |
					PERF_SAMPLE_CODE_PAGE_SIZE },
	{ .name = "callchain_no_ring", .type = PERF_SAMPLE_CALLCHAIN,
	  .no_ring = 1 },
};

/* A part this kernel's software events lack gives -1: no figure. */
static double sample_bit(long i)
{
	const struct sample_bit *b = &sample_bits[i];
	struct perf_event_attr a;

	sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			b->type;
	a.read_format = b->read_format;
	a.sample_regs_user = 0xff;
	a.sample_regs_intr = 0xff;
	a.sample_stack_user = 4096;
	return fault_sample_cost(&a, b->no_ring ? 0 : 512);
}

static volatile unsigned long spin_sink;

static void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		spin_sink += i;
}

/*
 * @loops of the busy loop with @fd sampling (its ring mapped): the guest
 * ns they took, and in *@samples the samples its ring holds (none lost:
 * the ring is large enough).  With @disable the event is disabled before
 * the time is taken: a buffering PMU (large PEBS) writes its samples
 * then, and the cost of writing them counts.
 */
static uint64_t spin_sampled_how(int fd, long loops, uint64_t *samples,
				 int disable)
{
	struct perf_event_mmap_page *up;
	size_t len = 65 * page_size;
	struct perf_event_header *h;
	uint64_t with, head, off;

	up = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (fd < 0 || up == MAP_FAILED)
		exit(1);
	with = now();
	spin(loops);
	if (disable)
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	with = now() - with;
	head = __atomic_load_n(&up->data_head, __ATOMIC_ACQUIRE);
	*samples = 0;
	for (off = 0; off < head && off < len - page_size; off += h->size) {
		h = (void *)((char *)up + page_size + off);
		if (!h->size)
			break;
		*samples += h->type == PERF_RECORD_SAMPLE;
	}
	munmap(up, len);
	close(fd);
	return with;
}

static uint64_t spin_sampled(int fd, long loops, uint64_t *samples)
{
	return spin_sampled_how(fd, loops, samples, 0);
}

/*
 * The extra cost of one sample of @a, sampling every 100,000 (ns of the
 * task's time, or events), on a busy loop, per sample.
 */
static double sample_cost(struct perf_event_attr *a, long loops)
{
	uint64_t base, with, samples;

	base = now();
	spin(loops);
	base = now() - base;
	a->sample_period = 100000;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	with = spin_sampled(perf_open(a, 0, -1, -1), loops, &samples);
	return samples ? (double)(with - base) / samples : 0;
}

/* a task-clock sample: an hrtimer every 100 us of the task's time */
static double sample_task_clock(long loops)
{
	struct perf_event_attr a;

	sw_attr(&a, PERF_COUNT_SW_TASK_CLOCK);
	return sample_cost(&a, loops);
}

/* read() of one hardware counter, counting */
static double read_hw(long n)
{
	return read_loop(1, n);
}

/*
 * The extra cost of one sample of a cycles event (a PMI every 100,000
 * cycles) on a busy loop, per sample.
 */
static double sample_hw(long loops)
{
	struct perf_event_attr a;

	hw_attr(&a);
	return sample_cost(&a, loops);
}

/*
 * The extra cost of one sample with a branch stack (any branch of user
 * space: the records read in the PMI), a cycles sample every 100,000 on
 * a busy loop, as sample_hw's; the samples counted in the ring.
 */
static double sample_lbr(long loops)
{
	uint64_t base, with, samples;

	base = now();
	spin(loops);
	base = now() - base;
	with = spin_sampled(lbr_open(PERF_SAMPLE_BRANCH_ANY, 100000), loops,
			    &samples);
	return samples ? (double)(with - base) / samples : 0;
}

/*
 * A precise cycles event of this task (PEBS) whose samples take only
 * what the records give, at a fixed period: its records wait in the
 * CPU's buffer, drained a buffer at a time and at every switch.
 */
static int pebs_open(__u64 period)
{
	struct perf_event_attr a;

	hw_attr(&a);
	a.precise_ip = 1;
	a.sample_period = period;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	return perf_open(&a, 0, -1, -1);
}

/*
 * the extra cost of one such sample on a busy loop, as sample_hw's, the
 * records drained by the disable at the end (stock writes large PEBS's
 * samples only at the buffer's threshold or when the event stops)
 */
static double sample_pebs(long loops)
{
	uint64_t base, with, samples;

	base = now();
	spin(loops);
	base = now() - base;
	with = spin_sampled_how(pebs_open(100000), loops, &samples, 1);
	return samples ? (double)(with - base) / samples : 0;
}

/* a context switch with such an event on the task (a long period) */
static double ctxsw_pebs(long n)
{
	return pingpong_with(pebs_open(1ULL << 40), n);
}

static int have_pebs(void)
{
	int fd = pebs_open(1ULL << 40);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* does the cpu PMU have last branch records (caps/branches)? */
static int have_lbr(void)
{
	int fd = lbr_open(PERF_SAMPLE_BRANCH_ANY, 1ULL << 40);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/*
 * Multiplexing: 2 x @k hardware events (each its own group, @k of them
 * fit the PMU at once) on a busy loop; the extra cost per ms of the loop,
 * against the loop with @k events.  The loop runs some 150 ms, about 37
 * rotations at the default 4 ms interval: the rotations that land in a
 * shorter loop depend on where the first one falls, which the cost of
 * the opens before it moves (at 12 ms, 2 or 3 of them: a third apart).
 */
static double mux(long k)
{
	uint64_t fit, over;
	unsigned long loops = 30000000;

	open_many(k, 0, 1, 0);
	fit = now();
	spin(loops);
	fit = now() - fit;
	close_many(k);
	open_many(2 * k, 0, 1, 0);
	over = now();
	spin(loops);
	over = now() - over;
	close_many(2 * k);
	return (double)(over - fit) / (fit / 1e6);
}

#if defined(__x86_64__)
#define HAVE_USER_READ 1
/* RDPMC: the index the user page gives, less one */
static uint64_t read_pmu_counter(unsigned int n)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(n));
	return (uint64_t)hi << 32 | lo;
}
#elif defined(__aarch64__)
#define HAVE_USER_READ 1
/* PMEVCNTR<n>_EL0 or PMCCNTR_EL0 (n == 31), read at EL0 */
static uint64_t read_pmu_counter(unsigned int n)
{
	uint64_t v = 0;

	switch (n) {
	case 0:
		__asm__ __volatile__("mrs %0, pmevcntr0_el0" : "=r"(v));
		break;
	case 1:
		__asm__ __volatile__("mrs %0, pmevcntr1_el0" : "=r"(v));
		break;
	case 2:
		__asm__ __volatile__("mrs %0, pmevcntr2_el0" : "=r"(v));
		break;
	case 3:
		__asm__ __volatile__("mrs %0, pmevcntr3_el0" : "=r"(v));
		break;
	case 4:
		__asm__ __volatile__("mrs %0, pmevcntr4_el0" : "=r"(v));
		break;
	case 5:
		__asm__ __volatile__("mrs %0, pmevcntr5_el0" : "=r"(v));
		break;
	case 31:
		__asm__ __volatile__("mrs %0, pmccntr_el0" : "=r"(v));
		break;
	}
	return v;
}
#endif

#ifdef HAVE_USER_READ
/*
 * A self-monitoring read of a hardware counter through the user page
 * (on arm64 attr.config1 bit 1, with kernel.perf_user_access = 1): the
 * page's sequence count around index, offset and the counter itself.
 */
static double userpage_read(long n)
{
	struct perf_event_mmap_page *pc;
	struct perf_event_attr a;
	uint64_t t0;
	int fd;

	hw_attr(&a);
#ifdef __aarch64__
	a.config1 = 0x2;
#endif
	a.exclude_kernel = 1;
	fd = perf_open(&a, 0, -1, -1);
	if (fd < 0)
		return 0;
	pc = mmap(NULL, page_size, PROT_READ, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED)
		exit(1);
	t0 = now();
	for (long i = 0; i < n; i++) {
		uint32_t seq, idx, width;
		uint64_t count, cnt;

		do {
			seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);
			idx = pc->index;
			count = pc->offset;
			if (pc->cap_user_rdpmc && idx) {
				width = pc->pmc_width;
				cnt = read_pmu_counter(idx - 1);
				if (width < 64) {
					cnt <<= 64 - width;
					cnt = (uint64_t)((int64_t)cnt >>
							 (64 - width));
				}
				count += cnt;
			}
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
		} while (__atomic_load_n(&pc->lock, __ATOMIC_RELAXED) != seq);
		spin_sink += count;
	}
	t0 = now() - t0;
	munmap(pc, page_size);
	close(fd);
	return (double)t0 / n;
}
#endif

/* fork + exit + wait of a child while the caller has @k inherited events */
static double inherit_fork(long k)
{
	const int n = 20;
	uint64_t t0;

	open_many(k, 0, 0, 1);
	t0 = now();
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
	}
	t0 = now() - t0;
	close_many(k);
	return (double)t0 / n;
}

/*
 * mmap() and munmap() of a counter's ring of @pages data pages; with
 * @pages negative, every page is read in between (the faults a reader
 * takes, where a kernel maps the pages as they are touched).
 */
static double mmap_ring(long pages)
{
	int touch_all = pages < 0, fd = open_counter(0, 0, 0);
	const int n = 50;
	volatile char sink;
	uint64_t t0;

	if (touch_all)
		pages = -pages;
	t0 = now();
	for (int i = 0; i < n; i++) {
		size_t len = (1 + pages) * page_size;
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
			       fd, 0);

		if (p == MAP_FAILED)
			exit(1);
		for (long j = 0; touch_all && j <= pages; j++)
			sink = p[j * page_size];
		munmap(p, len);
	}
	t0 = now() - t0;
	(void)sink;
	close(fd);
	return (double)t0 / n;
}

/* prctl() disable and enable of the caller's @k events */
static double prctl_toggle(long k)
{
	const int n = 100;
	uint64_t t0;

	open_many(k, 0, 0, 0);
	t0 = now();
	for (int i = 0; i < n; i++) {
		prctl(PR_TASK_PERF_EVENTS_DISABLE);
		prctl(PR_TASK_PERF_EVENTS_ENABLE);
	}
	t0 = now() - t0;
	close_many(k);
	return (double)t0 / n;
}

/* A move to the other CPU and back while the caller has @k events. */
static double migrate(long k)
{
	const int n = 50;
	cpu_set_t one, zero;
	uint64_t t0;

	CPU_ZERO(&zero);
	CPU_SET(0, &zero);
	CPU_ZERO(&one);
	CPU_SET(1, &one);
	open_many(k, 0, 0, 0);
	t0 = now();
	for (int i = 0; i < n; i++) {
		sched_setaffinity(0, sizeof(one), &one);
		sched_setaffinity(0, sizeof(zero), &zero);
	}
	t0 = now() - t0;
	close_many(k);
	return (double)t0 / n;
}

/*
 * The SMP figures (issue 48), where at least SMP_MIN CPUs are online:
 * what perf stat -a and perf record -a do on each CPU, on smp_cpus of
 * them (all online ones, SMP_MAX at most: the test kernels' NR_CPUS).
 */
#define SMP_MIN		4
#define SMP_MAX		8
static int smp_cpus;

static int open_or_die(struct perf_event_attr *a, pid_t pid, int cpu,
		       int group)
{
	int fd = perf_open(a, pid, cpu, group);

	if (fd < 0) {
		fprintf(stderr, "perfbench: perf_event_open cpu %d: %s\n",
			cpu, strerror(errno));
		exit(1);
	}
	return fd;
}

/*
 * @k CPU-wide counters on each of smp_cpus CPUs, opened event by event
 * across the CPUs as perf stat -a does, then closed: per event, the open
 * (@which 0) or the close (1); hardware cycles with @hw
 */
static double smp_cpu_events(long k, int which, int hw)
{
	int n = k * smp_cpus;
	struct perf_event_attr a;
	uint64_t t0, t1, t2;

	if (hw)
		hw_attr(&a);
	else
		sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	t0 = now();
	for (int i = 0; i < n; i++)
		fds[i] = open_or_die(&a, -1, i % smp_cpus, -1);
	t1 = now();
	close_many(n);
	t2 = now();
	return (double)(which ? t2 - t1 : t1 - t0) / n;
}

/*
 * perf stat -a with more hardware events than counters: @k cycles
 * counters on each of smp_cpus CPUs, all but CPU 0 idle, while CPU 0 runs a
 * busy loop; the guest ns the rotations on every CPU add to a millisecond
 * of the loop (the guest clock counts every CPU's instructions)
 */
static double smp_mux(long k)
{
	int n = k * smp_cpus;
	struct perf_event_attr a;
	uint64_t bare, with;
	unsigned long loops = 30000000;

	hw_attr(&a);
	bare = now();
	spin(loops);
	bare = now() - bare;
	for (int i = 0; i < n; i++)
		fds[i] = open_or_die(&a, -1, i % smp_cpus, -1);
	with = now();
	spin(loops);
	with = now() - with;
	close_many(n);
	return (double)((int64_t)(with - bare)) / (bare / 1e6);
}

static double smp_open(long k)
{
	return smp_cpu_events(k, 0, 0);
}

static double smp_close(long k)
{
	return smp_cpu_events(k, 1, 0);
}

static double smp_open_hw(long k)
{
	return smp_cpu_events(k, 0, 1);
}

static double smp_close_hw(long k)
{
	return smp_cpu_events(k, 1, 1);
}

/*
 * Enable and disable of a CPU-wide group of four on the last CPU, from
 * CPU 0 (the cross-CPU call): per ioctl; hardware cycles with @hw
 */
static double smp_enable_remote(long hw)
{
	const int n = 200, cpu = smp_cpus - 1;
	struct perf_event_attr a;
	int lead;
	uint64_t t;

	if (hw)
		hw_attr(&a);
	else
		sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.disabled = 1;
	lead = open_or_die(&a, -1, cpu, -1);
	a.disabled = 0;
	for (int i = 0; i < 3; i++)
		fds[i] = open_or_die(&a, -1, cpu, lead);
	t = now();
	for (int i = 0; i < n; i++) {
		ioctl(lead, PERF_EVENT_IOC_ENABLE, 0);
		ioctl(lead, PERF_EVENT_IOC_DISABLE, 0);
	}
	t = now() - t;
	close_many(3);
	close(lead);
	return (double)t / (2 * n);
}

/* one busy worker pinned to each of smp_cpus CPUs, @loops each: guest ns */
static uint64_t smp_spin_all(unsigned long loops)
{
	pid_t pids[SMP_MAX];
	uint64_t t = now();

	for (int c = 0; c < smp_cpus; c++) {
		pids[c] = fork();
		if (pids[c] == 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(c, &set);
			sched_setaffinity(0, sizeof(set), &set);
			spin(loops);
			_exit(0);
		}
	}
	for (int c = 0; c < smp_cpus; c++)
		waitpid(pids[c], NULL, 0);
	return now() - t;
}

/*
 * perf record -a's kind of sampling: a sampling event of cycles (of
 * CPU clock without a PMU) on every CPU, each with its ring of 1 + 8
 * pages, while a busy worker runs on each: the guest ns a sample costs
 * (the workers' time with the events, less without, per sample the rings
 * hold; the workers are short enough that no ring fills)
 */
static double smp_sample_all(long hw)
{
	const unsigned long loops = 2000000;
	size_t len = 9 * page_size;
	struct perf_event_attr a;
	uint64_t bare, with;
	void *rings[SMP_MAX];
	long samples = 0;

	if (hw) {
		hw_attr(&a);
		a.sample_period = 100003;
	} else {
		sw_attr(&a, PERF_COUNT_SW_CPU_CLOCK);
		a.sample_period = 100000;
	}
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	a.disabled = 1;
	bare = smp_spin_all(loops);
	for (int c = 0; c < smp_cpus; c++) {
		fds[c] = open_or_die(&a, -1, c, -1);
		rings[c] = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
				fds[c], 0);
		if (rings[c] == MAP_FAILED)
			exit(1);
	}
	for (int c = 0; c < smp_cpus; c++)
		ioctl(fds[c], PERF_EVENT_IOC_ENABLE, 0);
	with = smp_spin_all(loops);
	for (int c = 0; c < smp_cpus; c++) {
		struct perf_event_mmap_page *up = rings[c];
		uint64_t head = up->data_head;
		char *data = (char *)rings[c] + page_size;

		ioctl(fds[c], PERF_EVENT_IOC_DISABLE, 0);
		if (head > len - page_size)
			exit(1);	/* a ring filled: the figure would be wrong */
		for (uint64_t off = 0; off < head;) {
			struct perf_event_header *h = (void *)(data + off);

			if (!h->size)
				exit(1);
			if (h->type == PERF_RECORD_SAMPLE)
				samples++;
			off += h->size;
		}
		munmap(rings[c], len);
	}
	close_many(smp_cpus);
	return samples ? (double)((int64_t)(with - bare)) / samples : -1;
}

/*
 * Kernel memory per open event, by kind (bench/kmem-trace.h: what the
 * opens leave allocated, slab, percpu, vmalloc and pages; figures in bytes,
 * not ns).  Each warms the caches with one event of its kind first.
 */

/* @n counting events of the caller, each its own group */
static double mem_count(long n)
{
	struct perf_event_attr a;
	long bytes;

	sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	close(open_or_die(&a, 0, -1, -1));
	if (kmem_trace_start())
		return -1;
	for (int i = 0; i < n; i++)
		fds[i] = open_or_die(&a, 0, -1, -1);
	bytes = kmem_trace_stop();
	close_many(n);
	return bytes < 0 ? -1 : (double)bytes / n;
}

/* @n sampling events of the caller, each with its ring of 1 + 8 pages */
static double mem_sample(long n)
{
	size_t len = 9 * page_size;
	struct perf_event_attr a;
	void *rings[MAX_GROUP];
	long bytes;

	sw_attr(&a, PERF_COUNT_SW_CPU_CLOCK);
	a.sample_period = 100000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_PERIOD;
	a.disabled = 1;
	close(open_or_die(&a, 0, -1, -1));
	if (n > MAX_GROUP || kmem_trace_start())
		return -1;
	for (int i = 0; i < n; i++) {
		fds[i] = open_or_die(&a, 0, -1, -1);
		rings[i] = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
				fds[i], 0);
		if (rings[i] == MAP_FAILED)
			exit(1);
	}
	bytes = kmem_trace_stop();
	for (int i = 0; i < n; i++)
		munmap(rings[i], len);
	close_many(n);
	return bytes < 0 ? -1 : (double)bytes / n;
}

/*
 * The memory @n children forked by the caller leave allocated, while
 * they wait on @hold's read end (the caller closes the write end)
 */
static long mem_fork(long n, int hold[2])
{
	long bytes;

	if (pipe(hold) || kmem_trace_start())
		return -1;
	for (int i = 0; i < n; i++) {
		char c;

		if (fork() == 0) {
			close(hold[1]);
			read(hold[0], &c, 1);
			_exit(0);
		}
	}
	bytes = kmem_trace_stop();
	close(hold[0]);
	close(hold[1]);
	while (wait(NULL) > 0)
		;
	return bytes;
}

/*
 * One inherited counting event of the caller, in each of @n children:
 * per child, the children's memory with the event less without
 */
static double mem_inherit(long n)
{
	struct perf_event_attr a;
	long bare, with;
	int hold[2], fd;

	sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.inherit = 1;
	bare = mem_fork(n, hold);
	fd = open_or_die(&a, 0, -1, -1);
	with = mem_fork(n, hold);
	close(fd);
	return bare < 0 || with < 0 ? -1 : (double)(with - bare) / n;
}

/* @k CPU-wide counting events on each of smp_cpus CPUs: per event */
static double smp_mem_cpu(long k)
{
	int n = k * smp_cpus;
	struct perf_event_attr a;
	long bytes;

	sw_attr(&a, PERF_COUNT_SW_PAGE_FAULTS);
	close(open_or_die(&a, -1, 0, -1));
	if (kmem_trace_start())
		return -1;
	for (int i = 0; i < n; i++)
		fds[i] = open_or_die(&a, -1, i % smp_cpus, -1);
	bytes = kmem_trace_stop();
	close_many(n);
	return bytes < 0 ? -1 : (double)bytes / n;
}

static int have_hw(void)
{
	struct perf_event_attr a;
	int fd;

	hw_attr(&a);
	fd = perf_open(&a, 0, -1, -1);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

int main(void)
{
	static const long ks[] = { 16, 256, 1024 };
	static const long sw_k[] = { 0, 8, 64, 1024 };
	static const long groups[] = { 2, 4, 8, 16 };
	/* CPU-wide events on each CPU; MAX_EVENTS holds SMP_MAX times the last */
	static const long smp_k[] = { 1, 16, 256 };
	/* cgroup events of CPU 0 for each of two cgroups */
	static const long cg_k[] = { 1, 16, 64 };
	struct rlimit rl = { 4096, 4096 };
	char name[64];
	cpu_set_t cpus;

	page_size = sysconf(_SC_PAGESIZE);
	setrlimit(RLIMIT_NOFILE, &rl);
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	/* no throttling: every sample is taken */
	system("echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent");
	system("echo 100000 > /proc/sys/kernel/perf_event_max_sample_rate");

	clock_cost = clock_loop(1000);
	report("clock_read", clock_cost);
	figure("open_close", open_close, 100);
	for (unsigned int i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		snprintf(name, sizeof(name), "open_with_%ld", ks[i]);
		figure(name, open_with, ks[i]);
		snprintf(name, sizeof(name), "close_with_%ld", ks[i]);
		figure(name, close_with, ks[i]);
	}
	for (unsigned int i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		snprintf(name, sizeof(name), "open_mixed_%ld", ks[i]);
		figure(name, open_mixed, ks[i]);
	}
	figure("read_single", read_single, 500);
	for (unsigned int i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		snprintf(name, sizeof(name), "read_group_%ld", groups[i]);
		figure(name, read_group, groups[i]);
	}
	figure("enable_disable", enable_disable, 300);
	for (unsigned int i = 0; i < sizeof(sw_k) / sizeof(sw_k[0]); i++) {
		snprintf(name, sizeof(name), "ctxsw_%ld", sw_k[i]);
		figure(name, ctxsw, sw_k[i]);
	}
	if (wanted("cgroup_switch_1") && cgroup_switch(1) > 0) {
		for (unsigned int i = 0; i < sizeof(cg_k) / sizeof(cg_k[0]); i++) {
			snprintf(name, sizeof(name), "cgroup_switch_%ld", cg_k[i]);
			figure(name, cgroup_switch, cg_k[i]);
		}
	}
	figure("sample_fault", sample_fault, 512);
	figure("sample_fault_slow_reader", sample_fault, 1);
	figure("sample_task_clock", sample_task_clock, 3000000);
	for (unsigned int i = 0; i < sizeof(sample_bits) / sizeof(sample_bits[0]);
	     i++) {
		snprintf(name, sizeof(name), "sample_bit_%s",
			 sample_bits[i].name);
		figure(name, sample_bit, i);
	}
	for (unsigned int i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		snprintf(name, sizeof(name), "inherit_fork_%ld", ks[i]);
		figure(name, inherit_fork, ks[i]);
	}
	figure("mmap_ring_1", mmap_ring, 1);
	figure("mmap_ring_8", mmap_ring, 8);
	figure("mmap_ring_8_read", mmap_ring, -8);
	figure("prctl_toggle_16", prctl_toggle, 16);
	figure("mem_bytes_count", mem_count, 64);
	figure("mem_bytes_sample", mem_sample, 16);
	figure("mem_bytes_inherit", mem_inherit, 100);
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1)
		figure("migrate_16", migrate, 16);
	if (have_hw()) {
		figure("read_hw", read_hw, 500);
		figure("sample_hw", sample_hw, 3000000);
		figure("ctxsw_hw_4", ctxsw, -4);
		figure("mux_hw_4_per_ms", mux, 4);
#ifdef __aarch64__
		if (!system("echo 1 > /proc/sys/kernel/perf_user_access"))
			figure("userpage_read_hw", userpage_read, 2000);
#elif defined(__x86_64__)
		figure("userpage_read_hw", userpage_read, 2000);
#endif
	}
	if (have_lbr()) {
		figure("ctxsw_lbr_callstack", ctxsw_lbr, 300);
		figure("sample_lbr", sample_lbr, 3000000);
	}
	if (have_pebs()) {
		figure("ctxsw_pebs", ctxsw_pebs, 300);
		figure("sample_pebs", sample_pebs, 3000000);
	}
	smp_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (smp_cpus > SMP_MAX)
		smp_cpus = SMP_MAX;
	if (smp_cpus >= SMP_MIN) {
		for (unsigned int i = 0; i < sizeof(smp_k) / sizeof(smp_k[0]); i++) {
			snprintf(name, sizeof(name), "smp_open_%ld", smp_k[i]);
			figure(name, smp_open, smp_k[i]);
			snprintf(name, sizeof(name), "smp_close_%ld", smp_k[i]);
			figure(name, smp_close, smp_k[i]);
			if (smp_k[i] < 16)
				continue;
			snprintf(name, sizeof(name), "smp_mem_bytes_cpu_%ld",
				 smp_k[i]);
			figure(name, smp_mem_cpu, smp_k[i]);
		}
		figure("smp_enable_remote", smp_enable_remote, 0);
		figure("smp_sample_all", smp_sample_all, 0);
		if (have_hw()) {
			figure("smp_sample_all_hw", smp_sample_all, 1);
			figure("smp_open_hw_1", smp_open_hw, 1);
			figure("smp_close_hw_1", smp_close_hw, 1);
			figure("smp_enable_remote_hw", smp_enable_remote, 1);
			figure("smp_mux_hw_8_per_ms", smp_mux, 8);
			figure("smp_mux_hw_24_per_ms", smp_mux, 24);
		}
	}
	printf("perfbench done\n");
	return 0;
}
