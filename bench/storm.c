// SPDX-License-Identifier: GPL-2.0
/*
 * storm: a seeded random-syscall storm on the perf_event ABI, for debug
 * kernels (make storm).  Several worker processes each draw their calls
 * from a PRNG seeded with the run's seed and the worker's number:
 * perf_event_open() with random attrs, three in four made valid, of every
 * PMU of the machine (software, tracepoint, breakpoint and each dynamic PMU of
 * sysfs, with groups, inherit, sampling, every sample and read format
 * bit), ioctls with random arguments, read, mmap and munmap of rings
 * (partial too), mremap, poll, fcntl for SIGIO, SET_OUTPUT, prctl
 * toggles, fork (the child storms a little, then exits or execs),
 * threads, CPU affinity and, in worker 0, CPU hotplug.  Between calls the
 * workers run a little workload (faults, syscalls, a watched variable).
 *
 * The storm passes when it ends: the kernel's log is the verdict (bench/
 * storm.sh); workers and children that overstay end by SIGALRM.  A
 * worker's sequence replays from (seed, worker): with -v it prints every
 * call before making it, so the last lines before a splat
 * name the call; -w W -n N replays worker W alone for N calls.  A forked
 * child numbers its calls under its fork: w0.50.3 is the third call of
 * the child that call 50 of worker 0 forked.
 *
 * -k LIST skips the worker's calls of LIST (like 3,17-40,102 or 90-): a
 * skipped call still makes its random draws, so the calls that follow
 * are drawn as before, but not its system calls.  A skipped close,
 * munmap or tidy leaves its event or ring to the worker's exit, forgotten
 * as a made one is.  -o LIST names the calls whose open or mmap succeeded
 * in the run being minimized (-v prints "= fd" and "= ring"): such a
 * call, skipped or failing now, leaves a stand-in (an fd or a ring that
 * is not there) in its slot, so that later calls find the slots as that
 * run had them.  bench/storm-minimize.sh uses both to shrink a failing
 * run to a short reproducer.  -H leaves the CPUs online: the hotplug
 * calls make their draws but write nothing.
 *
 * -m draws the mix of a fuzzer instead (perf_fuzzer's kind of run): most
 * events sample, with tiny periods or high frequencies, and a call in
 * twelve reads a mapped ring record by record, as a reader does, and moves
 * its tail.  The sequences of -m and of the default mix differ from the
 * first call.  -u runs the workers as nobody (uid and gid 65534): the
 * storm of an unprivileged user, its tamed attrs user-space only (no
 * kernel counts, callchains, physical addresses or text_poke), as an
 * unprivileged tool asks at paranoid 2.  Every worker ends with the guest time its calls of each kind
 * took ("# cost w0 open 812 calls 91234567 ns"): under an icount clock
 * that is instructions, the same from boot to boot, so that a fixed seed
 * and length (-w 0 -n N) measures the cost of each kind of call on two
 * kernels (make bench).
 *
 * Usage: storm [-s seed] [-t seconds] [-p workers] [-w worker] [-n calls]
 *	  [-k skip] [-o ok] [-v] [-H] [-m] [-u]
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_FDS		48
#define MAX_TYPES	32
#define MAX_TPS		16
/*
 * A process can be kept in its signal handlers for good by its events (a
 * clock sampling with a tiny period and SIGIO, or SIGTRAP, on stock as on
 * the series): a forked child lives at most CHILD_SECONDS, a worker
 * WORKER_GRACE past the deadline, then SIGALRM ends it, unless on_signal()
 * ended it first; the verdict counts such ends apart from a normal one.
 */
#define CHILD_SECONDS	30
#define WORKER_GRACE	60
/* the exit status of a process that took a million signals (on_signal) */
#define FLOOD_EXIT	4
#define MAX_RANGES	1024
/* the fd of a stand-in slot (-o): no such file */
#define NO_FD		INT_MAX

/* call numbers, as -k and -o take them: 3,17-40,102,90- */
struct list {
	unsigned long lo[MAX_RANGES], hi[MAX_RANGES];
	unsigned int n;
};

struct slot {
	int fd;
	void *ring;
	size_t ring_len;
	int ring_rw;		/* -m: mapped writable, at offset 0 */
};

static struct {
	unsigned int types[MAX_TYPES], nr_types;
	unsigned long long tps[MAX_TPS];
	unsigned int nr_tps;
	int ncpus;
	int verbose;
	unsigned long long seed;
	int worker;
	int no_hotplug;
	int mix;		/* -m: a fuzzer's mix */
	int nobody;		/* -u: as nobody */
	struct list skip, ok;
} cfg;

static __thread uint64_t rng;
static struct slot slots[MAX_FDS];
static long watched[4];		/* breakpoints watch it */
static unsigned long calls, opened, mapped;
/* when the storm started, for the guest time each worker took */
static struct timespec storm_start;
static char tag[128];		/* w0, or w0.50 in the child of call 50 */

/* the kinds of call, for the cost of each (-m adds ring reads) */
enum op { OP_OPEN, OP_CLOSE, OP_IOCTL, OP_READ, OP_MMAP, OP_POLL,
	  OP_FORK, OP_THREAD, OP_MISC, OP_WORKLOAD, OP_RING, OP_TIDY, NR_OPS };
static const char * const op_names[NR_OPS] = {
	"open", "close", "ioctl", "read", "mmap", "poll_fcntl", "fork",
	"thread", "misc", "workload", "ring_read", "tidy",
};
static unsigned long op_calls[NR_OPS];
static unsigned long long op_ns[NR_OPS];

/* xorshift64*: the whole storm is a function of its seed */
static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1DULL;
}

static unsigned int below(unsigned int n)
{
	return n ? rnd() % n : 0;
}

static int chance(unsigned int percent)
{
	return below(100) < percent;
}

static int parse_list(struct list *l, char *s)
{
	for (char *t = strtok(s, ","); t; t = strtok(NULL, ",")) {
		unsigned long lo, hi;
		char *end;

		if (!isdigit(*t) || l->n == MAX_RANGES)
			return -1;
		lo = strtoul(t, &end, 10);
		hi = lo;
		if (*end == '-') {
			t = end + 1;
			hi = ULONG_MAX;		/* 90-: to the end */
			end = t;
			if (*t)
				hi = strtoul(t, &end, 10);
		}
		if (*end || hi < lo)
			return -1;
		l->lo[l->n] = lo;
		l->hi[l->n++] = hi;
	}
	return 0;
}

static int listed(const struct list *l, unsigned long call)
{
	for (unsigned int i = 0; i < l->n; i++)
		if (call >= l->lo[i] && call <= l->hi[i])
			return 1;
	return 0;
}

/*
 * With -v, print the call about to be made; return whether to make it
 * (no, for a call of -k).  The caller has made its random draws already.
 */
static int say(const char *fmt, ...)
{
	int skip = listed(&cfg.skip, calls);
	va_list ap;

	if (!cfg.verbose)
		return !skip;
	va_start(ap, fmt);
	printf("%s.%lu %s", tag, calls, skip ? "[skipped] " : "");
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	va_end(ap);
	return !skip;
}

/* with -v, how a made open or mmap went: "= fd 5", "= ring", the error */
static void said(int ok, const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	if (!cfg.verbose)
		return;
	va_start(ap, fmt);
	printf("%s.%lu = ", tag, calls);
	if (ok)
		vprintf(fmt, ap);
	else
		fputs(strerror(err), stdout);
	putchar('\n');
	fflush(stdout);
	va_end(ap);
}

static int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		     int group, unsigned long flags)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, group, flags);
}

/* ---- the machine: dynamic PMU types and a few tracepoints ---- */

static void find_types(void)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *e;

	while (d && (e = readdir(d)) && cfg.nr_types < MAX_TYPES) {
		char path[512];
		unsigned int type;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path),
			 "/sys/bus/event_source/devices/%s/type", e->d_name);
		f = fopen(path, "r");
		if (f && fscanf(f, "%u", &type) == 1) {
			cfg.types[cfg.nr_types++] = type;
			printf("# storm: PMU %s, type %u\n", e->d_name, type);
		}
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
}

static void find_tracepoints(void)
{
	static const char * const names[] = {
		"sched/sched_switch", "sched/sched_wakeup",
		"sched/sched_process_fork", "sched/sched_process_exec",
		"syscalls/sys_enter_getpid", "raw_syscalls/sys_enter",
		"irq/irq_handler_entry", "timer/hrtimer_start",
		"signal/signal_generate", "task/task_newtask",
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(names); i++) {
		char path[256];
		FILE *f;

		snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/id",
			 names[i]);
		f = fopen(path, "r");
		if (f && fscanf(f, "%llu", &cfg.tps[cfg.nr_tps]) == 1)
			cfg.nr_tps++;
		if (f)
			fclose(f);
	}
}

/* ---- random attrs ---- */

static void random_attr(struct perf_event_attr *a)
{
	static const uint64_t periods[] = { 0, 1, 2, 10, 100, 1000, 10007,
					     100000, 1ULL << 40 };
	/* a fuzzer's: tiny periods mostly, and any frequency */
	static const uint64_t mix_periods[] = { 1, 2, 3, 7, 10, 100, 1000,
						 4096, 100000 };

	memset(a, 0, sizeof(*a));
	a->size = chance(95) ? sizeof(*a) : below(sizeof(*a) + 16);
	switch (below(6)) {
	case 0:
		a->type = PERF_TYPE_SOFTWARE;
		a->config = below(PERF_COUNT_SW_MAX + 1);
		break;
	case 1:
		a->type = PERF_TYPE_TRACEPOINT;
		a->config = cfg.nr_tps ? cfg.tps[below(cfg.nr_tps)] : 1;
		break;
	case 2:
		a->type = PERF_TYPE_BREAKPOINT;
		a->bp_type = 1 + below(7);
		a->bp_addr = (uintptr_t)&watched[below(4)];
		a->bp_len = 1u << below(4);
		if (a->bp_type & HW_BREAKPOINT_X) {
			a->bp_type = HW_BREAKPOINT_X;
			a->bp_addr = (uintptr_t)&getpid;
			a->bp_len = sizeof(long);
		}
		break;
	case 3:
		a->type = PERF_TYPE_HARDWARE;
		a->config = below(PERF_COUNT_HW_MAX + 1);
		break;
	case 4:
		a->type = PERF_TYPE_HW_CACHE;
		a->config = below(8) | below(4) << 8 | below(3) << 16;
		break;
	default:
		a->type = cfg.nr_types ? cfg.types[below(cfg.nr_types)] :
			  PERF_TYPE_SOFTWARE;
		a->config = chance(50) ? below(0x40) : rnd();
		break;
	}
	if (cfg.mix && chance(85)) {
		a->sample_period = mix_periods[below(ARRAY_SIZE(mix_periods))];
		if (chance(35)) {
			a->freq = 1;
			a->sample_freq = chance(50) ? 1 + below(4000) :
				1 + below(1000000);
		}
	} else if (!cfg.mix && chance(40)) {
		a->sample_period = periods[below(ARRAY_SIZE(periods))];
		if (chance(20)) {
			a->freq = 1;
			a->sample_freq = 1 + below(4000);
		}
	}
	a->sample_type = rnd() & (PERF_SAMPLE_MAX - 1);
	if (chance(60))		/* fewer of the heavy ones, usually */
		a->sample_type &= ~(PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_USER |
				    PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_AUX |
				    PERF_SAMPLE_BRANCH_STACK);
	if (a->sample_type & PERF_SAMPLE_STACK_USER)
		a->sample_stack_user = 8 * below(512);
	if (a->sample_type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR)) {
		a->sample_regs_user = rnd() & 0xffff;
		a->sample_regs_intr = rnd() & 0xffff;
	}
	if (a->sample_type & PERF_SAMPLE_CALLCHAIN)
		a->sample_max_stack = below(130);
	a->read_format = rnd() & 0x1f;
	/* the flag bits, each at a low rate; sigtrap only with remove_on_exec */
	for (int bit = 0; bit < 40; bit++)
		if (chance(bit == 0 ? 50 : 8))
			*((uint64_t *)a + 5) |= 1ULL << bit;
	a->precise_ip = chance(80) ? 0 : below(4);
	if (a->sigtrap)
		a->remove_on_exec = 1;
	a->wakeup_events = below(4);
	if (chance(10))
		a->clockid = below(8);
	a->aux_watermark = chance(90) ? 0 : below(1 << 16);
	a->sig_data = rnd();
}

/*
 * Three attrs in four are made valid for their PMU, so that the storm
 * spends its calls past a successful open (scheduling, sampling, rings,
 * inherit, exit) rather than on the checks of perf_event_open(): the size
 * and a known clock, no precise_ip, aux_output or build_id, no flag bit
 * this ABI lacks, the sample bits any PMU takes, each flag with what it
 * needs.
 */
static void tame_attr(struct perf_event_attr *a)
{
	/* disabled..watermark, mmap_data..bpf_event, cgroup, text_poke,
	 * inherit_thread, remove_on_exec, sigtrap
	 */
	const uint64_t flags = 0x7fffULL | 0x7ffe0000ULL | 3ULL << 32 |
			       7ULL << 35;
	static const int clocks[] = { 0, 1, 4, 7, 11 };
	uint64_t *word = (uint64_t *)a + 5;

	a->size = sizeof(*a);
	*word &= flags;
	a->sample_type &= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			  PERF_SAMPLE_ADDR | PERF_SAMPLE_READ |
			  PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_ID |
			  PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			  PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_RAW |
			  PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_DATA_SRC |
			  PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP |
			  PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE;
	a->aux_watermark = 0;
	if (a->freq && !a->sample_freq)
		a->freq = 0;
	if (!a->inherit)
		a->inherit_thread = 0;
	if (a->inherit && !a->inherit_thread)
		a->sample_type &= ~PERF_SAMPLE_READ;
	if (a->sigtrap)
		a->remove_on_exec = 1;
	a->clockid = clocks[below(ARRAY_SIZE(clocks))];
	/* -u: user space only, as an unprivileged tool asks (no draws) */
	if (cfg.nobody) {
		a->exclude_kernel = 1;
		a->exclude_hv = 1;
		a->exclude_callchain_kernel = 1;
		a->text_poke = 0;
		a->sample_type &= ~PERF_SAMPLE_PHYS_ADDR;
	}
}

/* ---- the calls ---- */

static struct slot *any_slot(void)
{
	struct slot *s = &slots[below(MAX_FDS)];

	return s->fd >= 0 ? s : NULL;
}

static int any_fd(void)
{
	struct slot *s = any_slot();

	return s ? s->fd : -1;
}

/* with -v, the whole attr of an open, in hex words: to replay it alone */
static void say_attr(const struct perf_event_attr *a)
{
	const uint64_t *w = (const uint64_t *)a;

	printf("%s.%lu attr", tag, calls);
	for (unsigned int i = 0; i < sizeof(*a) / 8; i++)
		printf(" %llx", (unsigned long long)w[i]);
	putchar('\n');
	fflush(stdout);
}

static void do_open(void)
{
	struct perf_event_attr a;
	struct slot *s = &slots[below(MAX_FDS)];
	int tame = chance(75);
	int group = chance(30) ? any_fd() : -1;
	pid_t pid = chance(80) ? 0 : -1;
	int cpu = pid == 0 && chance(70) ? -1 :
		  (int)below(cfg.ncpus + !tame);
	unsigned long flags = PERF_FLAG_FD_CLOEXEC;

	if (s->fd >= 0)
		return;
	random_attr(&a);
	if (tame)
		tame_attr(&a);
	if (chance(5))
		flags |= PERF_FLAG_FD_OUTPUT;
	if (chance(5))
		flags |= PERF_FLAG_FD_NO_GROUP;
	if (say("open type %u config %#llx st %#llx rf %#llx flags %#llx pid %d cpu %d group %d",
		a.type, (unsigned long long)a.config,
		(unsigned long long)a.sample_type,
		(unsigned long long)a.read_format,
		(unsigned long long)*((uint64_t *)&a + 5), pid, cpu, group)) {
		if (cfg.verbose)
			say_attr(&a);
		s->fd = perf_open(&a, pid, cpu, group, flags);
		said(s->fd >= 0, "fd %d", s->fd);
	}
	opened += s->fd >= 0;
	if (s->fd < 0 && listed(&cfg.ok, calls))
		s->fd = NO_FD;
}

/* a skipped unmap (!made) leaves the ring mapped, forgotten all the same */
static void unmap(struct slot *s, int partial, int made)
{
	if (s->ring && made) {
		if (partial && s->ring_len > 4096)
			munmap((char *)s->ring + 4096, 4096);
		munmap(s->ring, s->ring_len);
	}
	s->ring = NULL;
}

static void do_close(void)
{
	struct slot *s = any_slot();
	int made, with_ring;

	if (!s)
		return;
	with_ring = chance(50);
	made = say("close %d%s", s->fd, with_ring ? " and unmap its ring" : "");
	if (with_ring)
		unmap(s, 0, made);
	if (made)
		close(s->fd);
	s->fd = -1;
	/* a ring left mapped outlives its event */
}

static void do_ioctl(void)
{
	static const unsigned long cmds[] = {
		PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_DISABLE,
		PERF_EVENT_IOC_RESET, PERF_EVENT_IOC_REFRESH,
		PERF_EVENT_IOC_PERIOD, PERF_EVENT_IOC_SET_OUTPUT,
		PERF_EVENT_IOC_SET_FILTER, PERF_EVENT_IOC_ID,
		PERF_EVENT_IOC_SET_BPF, PERF_EVENT_IOC_PAUSE_OUTPUT,
		PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
	};
	unsigned long cmd = cmds[below(ARRAY_SIZE(cmds))];
	struct perf_event_attr a;
	int fd = any_fd();
	uint64_t arg = below(3) == 0 ? rnd() : below(4);
	const char *filter;
	int made, out, ret = 0;

	if (fd < 0)
		return;
	made = say("ioctl %d %#lx", fd, cmd);
	switch (cmd) {
	case PERF_EVENT_IOC_PERIOD:
	case PERF_EVENT_IOC_ID:
		if (made)
			ret = ioctl(fd, cmd, &arg);
		break;
	case PERF_EVENT_IOC_SET_OUTPUT:
		out = chance(20) ? -1 : any_fd();
		if (made)
			ret = ioctl(fd, cmd, out);
		break;
	case PERF_EVENT_IOC_SET_FILTER:
		filter = chance(50) ? "common_pid != 0" : "filter 0x1000/8@/bin/sh";
		if (made)
			ret = ioctl(fd, cmd, filter);
		break;
	case PERF_EVENT_IOC_SET_BPF:
		if (made)
			ret = ioctl(fd, cmd, -1);
		break;
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		random_attr(&a);
		a.type = PERF_TYPE_BREAKPOINT;
		if (made)
			ret = ioctl(fd, cmd, &a);
		break;
	default:
		arg = chance(30) ? PERF_IOC_FLAG_GROUP : arg;
		if (made)
			ret = ioctl(fd, cmd, arg);
	}
	/* what it was given and what it answered, with -v */
	if (made && cmd == PERF_EVENT_IOC_SET_OUTPUT)
		said(ret == 0, "%d (to %d)", ret, out);
	else if (made)
		said(ret >= 0, "%d", ret);
}

static void do_read(void)
{
	char buf[4096];
	int fd = any_fd();
	size_t len;

	if (fd < 0)
		return;
	len = below(sizeof(buf));
	if (say("read %d", fd) && read(fd, buf, len) < 0)
		return;
}

/* mmap() for a skipped call */
static void *no_mmap(void *addr, size_t len, int prot, int flags, int fd,
		     off_t off)
{
	return MAP_FAILED;
}

static void do_mmap(void)
{
	void *(*map)(void *addr, size_t len, int prot, int flags, int fd,
		     off_t off);
	struct slot *s = any_slot();
	int partial;
	size_t len;

	if (!s)
		return;
	if (s->ring) {
		if (chance(30)) {
			void *p;

			if (!say("mremap ring of %d", s->fd))
				return;
			p = mremap(s->ring, s->ring_len, s->ring_len * 2,
				   MREMAP_MAYMOVE);
			if (p != MAP_FAILED) {
				s->ring = p;
				s->ring_len *= 2;
			}
			return;
		}
		partial = chance(30);
		unmap(s, partial, say("munmap ring of %d%s", s->fd,
				      partial ? " in two" : ""));
		return;
	}
	len = 4096 * ((1u << below(4)) + (chance(90) ? 1 : 0));
	map = say("mmap %d %zu", s->fd, len) ? mmap : no_mmap;
	if (cfg.mix) {
		int prot = PROT_READ | (chance(80) ? PROT_WRITE : 0);
		off_t off = chance(90) ? 0 : 4096 * below(4);

		s->ring = map(NULL, len, prot, MAP_SHARED, s->fd, off);
		s->ring_rw = (prot & PROT_WRITE) && !off;
		if (map == mmap && (off || !(prot & PROT_WRITE)))
			said(1, "%s at offset %ld", prot & PROT_WRITE ?
			     "read-write" : "read-only", (long)off);
	} else {
		/* the draws in the arguments, as ever, made or not */
		s->ring = map(NULL, len,
			      PROT_READ | (chance(80) ? PROT_WRITE : 0),
			      MAP_SHARED, s->fd,
			      chance(90) ? 0 : 4096 * below(4));
		s->ring_rw = 0;
	}
	if (map == mmap)
		said(s->ring != MAP_FAILED, "ring");
	if (s->ring == MAP_FAILED)
		s->ring = NULL;
	else
		s->ring_len = len;
	mapped += !!s->ring;
	/* a stand-in: the ring is MAP_FAILED, which no munmap finds */
	if (!s->ring && listed(&cfg.ok, calls)) {
		s->ring = MAP_FAILED;
		s->ring_len = len;
	}
}

/*
 * -m: read a ring as its reader does, records from data_tail to
 * data_head, each size checked against the data area before it is
 * trusted, then move the tail to the head.  A corrupt record ends the
 * walk, as a careful reader gives up.
 */
static void do_ring_read(void)
{
	struct slot *s = any_slot();
	struct perf_event_mmap_page *pg;
	uint64_t head, tail, size;
	unsigned int records = 0;
	volatile uint32_t sum = 0;
	char *data;

	if (!s || !s->ring || s->ring == MAP_FAILED || !s->ring_rw ||
	    s->ring_len < 2 * 4096)
		return;
	if (!say("ring read of %d", s->fd))
		return;
	pg = s->ring;
	size = s->ring_len - 4096;
	if (pg->data_offset != 4096 || pg->data_size != size ||
	    (size & (size - 1)))
		return;
	data = (char *)s->ring + 4096;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	while (tail < head && records < 10000) {
		struct perf_event_header h;
		uint64_t at = tail & (size - 1);

		if (at + sizeof(h) > size)	/* records are 8-byte aligned */
			break;
		memcpy(&h, data + at, sizeof(h));
		if (h.size < sizeof(h) || h.size > size || head - tail < h.size)
			break;
		for (uint64_t i = 0; i < h.size; i += 8)
			sum += data[(at + i) & (size - 1)];
		tail += h.size;
		records++;
	}
	__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
}

static void do_poll_fcntl(void)
{
	struct pollfd p[4];
	int fd = any_fd();
	int sig, fl;

	if (fd < 0)
		return;
	if (chance(50)) {
		sig = chance(50) ? SIGIO : SIGUSR1;
		fl = O_ASYNC | (chance(50) ? O_NONBLOCK : 0);
		if (!say("fcntl async %d", fd))
			return;
		fcntl(fd, F_SETOWN, getpid());
		fcntl(fd, F_SETSIG, sig);
		fcntl(fd, F_SETFL, fl);
		return;
	}
	for (int i = 0; i < 4; i++) {
		p[i].fd = any_fd();
		p[i].events = POLLIN | POLLHUP;
	}
	if (say("poll"))
		poll(p, 4, 0);
}

/* the workload between calls; !made: its draws alone */
static void workload(int made)
{
	char *m;

	for (int i = 0; i < (int)below(2000); i++)
		if (made)
			__atomic_add_fetch(&watched[i & 3], i, __ATOMIC_RELAXED);
	if (made)
		getpid();
	if (chance(30) && made) {
		m = mmap(NULL, 8 * 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m != MAP_FAILED) {
			for (int i = 0; i < 8; i++)
				m[i * 4096] = 1;
			munmap(m, 8 * 4096);
		}
	}
	if (chance(10) && made)
		sched_yield();
}

static void storm_calls(unsigned long n);

static void do_fork(void)
{
	size_t len = strlen(tag);
	pid_t pid;

	if (!say("fork")) {
		chance(90);	/* the draw of the parent of a made fork */
		return;
	}
	pid = fork();
	if (pid == 0) {
		/* SIGALRM ends a child kept busy by its signals (see main) */
		alarm(CHILD_SECONDS);
		rng ^= 0x9e3779b97f4a7c15ULL;
		/* its calls are its own: numbered from 1, none skipped */
		snprintf(tag + len, sizeof(tag) - len, ".%lu", calls);
		calls = 0;
		cfg.skip.n = 0;
		cfg.ok.n = 0;
		storm_calls(below(40));
		if (chance(30) && say("exec"))
			execl("/proc/self/exe", "storm", "-x", (char *)NULL);
		_exit(0);
	}
	if (pid > 0 && chance(90))
		waitpid(pid, NULL, 0);
}

static void *thread_main(void *arg)
{
	uint64_t seed = (uintptr_t)arg;

	rng = seed | 1;
	for (int i = 0; i < 20; i++) {
		int fd = any_fd();

		if (fd >= 0 && chance(50))
			ioctl(fd, chance(50) ? PERF_EVENT_IOC_ENABLE :
					       PERF_EVENT_IOC_DISABLE, 0);
		workload(1);
	}
	return NULL;
}

static void do_thread(void)
{
	uint64_t seed = rnd();
	pthread_t t;

	if (say("thread") &&
	    !pthread_create(&t, NULL, thread_main, (void *)(uintptr_t)seed))
		pthread_join(t, NULL);
}

static void do_misc(void)
{
	cpu_set_t set;
	char path[64];
	int fd, off;

	switch (below(3)) {
	case 0:
		off = chance(50);
		if (say("prctl %s", off ? "disable" : "enable"))
			prctl(off ? PR_TASK_PERF_EVENTS_DISABLE :
				    PR_TASK_PERF_EVENTS_ENABLE);
		break;
	case 1:
		CPU_ZERO(&set);
		CPU_SET(below(cfg.ncpus), &set);
		if (say("affinity"))
			sched_setaffinity(0, sizeof(set), &set);
		break;
	default:
		if (cfg.worker != 0 || cfg.ncpus < 2)
			break;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%u/online",
			 1 + below(cfg.ncpus - 1));
		fd = open(path, O_WRONLY);
		if (fd < 0)
			break;
		off = chance(50);
		if (say("hotplug %s %s", path, off ? "off" : "on") &&
		    !cfg.no_hotplug)
			(void)!write(fd, off ? "0" : "1", 1);
		close(fd);
	}
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

/*
 * The share of each kind of call, in hundredths: where each kind's range
 * ends, in enum op order (the default mix has no ring reads; -m takes
 * them from plain reads).
 */
static const unsigned char mix_ends[2][OP_RING + 1] = {
	{ 25, 35, 55, 63, 71, 77, 80, 82, 85, 100, 100 },
	{ 25, 35, 55, 58, 66, 72, 75, 77, 80, 92, 100 },
};

static void storm_call(enum op kind)
{
	switch (kind) {
	case OP_OPEN:
		do_open();
		break;
	case OP_CLOSE:
		do_close();
		break;
	case OP_IOCTL:
		do_ioctl();
		break;
	case OP_READ:
		do_read();
		break;
	case OP_MMAP:
		do_mmap();
		break;
	case OP_POLL:
		do_poll_fcntl();
		break;
	case OP_FORK:
		do_fork();
		break;
	case OP_THREAD:
		do_thread();
		break;
	case OP_MISC:
		do_misc();
		break;
	case OP_RING:
		do_ring_read();
		break;
	default:
		workload(say("workload"));
	}
}

static void storm_calls(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		unsigned int draw = below(100);
		enum op kind = OP_OPEN;
		uint64_t start = now_ns(), took;

		while (draw >= mix_ends[cfg.mix][kind])
			kind++;
		calls++;
		storm_call(kind);
		took = now_ns() - start;
		op_calls[kind]++;
		op_ns[kind] += took;
		/* -v: the slow ones (over a millisecond of guest time) */
		if (cfg.verbose && took > 1000000)
			printf("%s.%lu took %llu ns\n", tag, calls,
			       (unsigned long long)took);
	}
}

/* close every event and unmap every ring; !made: forget them */
static void tidy(int made)
{
	for (int i = 0; i < MAX_FDS; i++) {
		uint64_t start = now_ns();
		int fd = slots[i].fd;

		unmap(&slots[i], 0, made);
		if (fd >= 0 && made)
			close(fd);
		slots[i].fd = -1;
		/* -v: the slow ones, by fd (its open says what it was) */
		if (cfg.verbose && made && fd >= 0 && now_ns() - start > 1000000)
			printf("%s.%lu tidy: fd %d took %llu ns\n", tag, calls,
			       fd, (unsigned long long)(now_ns() - start));
	}
	if (made)
		prctl(PR_TASK_PERF_EVENTS_ENABLE);
}

/* What this worker did, and its seconds (guest time) since the start. */
static void worker_report(int w)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	printf("# worker %d: %lu calls, %lu events opened, %lu rings mapped, %.1f s\n",
	       w, calls, opened, mapped,
	       (now.tv_sec - storm_start.tv_sec) +
	       (now.tv_nsec - storm_start.tv_nsec) / 1e9);
	for (int k = 0; k < NR_OPS; k++)
		if (op_calls[k])
			printf("# cost w%d %s %lu calls %llu ns\n", w,
			       op_names[k], op_calls[k], op_ns[k]);
	fflush(stdout);
}

/*
 * One worker: rounds of 200 calls until the deadline, or until n calls:
 * the first n calls of the same sequence.
 */
static void worker(time_t deadline, unsigned long n)
{
	snprintf(tag, sizeof(tag), "w%d", cfg.worker);
	rng = (cfg.seed * 1000003ULL + cfg.worker) | 1;
	for (int i = 0; i < MAX_FDS; i++)
		slots[i].fd = -1;
	while (n ? calls < n : time(NULL) < deadline) {
		unsigned long round = 200;

		if (n && n - calls < round)
			round = n - calls;
		storm_calls(round);
		if (round == 200 && chance(5)) {
			uint64_t start = now_ns();

			tidy(say("tidy"));
			op_calls[OP_TIDY]++;
			op_ns[OP_TIDY] += now_ns() - start;
		}
	}
	tidy(1);
}

/*
 * A task can be kept in its signal handlers for good by its own events.
 * An execute breakpoint with sigtrap traps again as the handler returns
 * to the breakpointed instruction, unless the return sets x86's resume
 * flag: without it, stock and the series alike kept a worker (or a forked
 * child, whose inherited events the prctl below cannot reach) in that
 * loop for good (seed 1, worker 0, x86_64).  On arm64 the same goes for
 * an execute breakpoint with O_ASYNC: the kernel steps over the
 * breakpointed instruction only after the SIGIO handler has run and
 * returned to it, so it hits again (stock and series alike, seed 1,
 * worker 1).  Other events can signal as fast as the task runs (a clock
 * with a tiny period): every 4096 signals the task's own events are
 * turned off, and a process that took a million ends.
 */
static void on_signal(int sig, siginfo_t *info, void *ctx)
{
	static unsigned long signals;	/* this handler's alone */

#ifdef __x86_64__
	if (sig == SIGTRAP)	/* RF: resume past an execute breakpoint */
		((ucontext_t *)ctx)->uc_mcontext.gregs[REG_EFL] |= 0x10000;
#endif
	if (!(++signals & 4095))
		prctl(PR_TASK_PERF_EVENTS_DISABLE);
	/* a child's inherited events trap on, with no fd to stop them */
	if (signals > 1 << 20)
		_exit(FLOOD_EXIT);
}

static const struct sigaction signal_action = {
	.sa_sigaction	= on_signal,
	.sa_flags	= SA_SIGINFO,
};

int main(int argc, char **argv)
{
	int opt, workers = 2, only = -1, seconds = 60;
	int alive = 0, overstayed = 0, flooded = 0;
	unsigned long n = 0;
	time_t deadline;

	while ((opt = getopt(argc, argv, "s:t:p:w:n:k:o:vxHmu")) != -1) {
		switch (opt) {
		case 's':
			cfg.seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			seconds = atoi(optarg);
			break;
		case 'p':
			workers = atoi(optarg);
			break;
		case 'w':
			only = atoi(optarg);
			break;
		case 'n':
			n = strtoul(optarg, NULL, 0);
			break;
		case 'k':
			if (parse_list(&cfg.skip, optarg))
				goto usage;
			break;
		case 'o':
			if (parse_list(&cfg.ok, optarg))
				goto usage;
			break;
		case 'v':
			cfg.verbose = 1;
			break;
		case 'H':	/* hotplug calls draw, but leave the CPUs be */
			cfg.no_hotplug = 1;
			break;
		case 'm':
			cfg.mix = 1;
			break;
		case 'u':
			cfg.nobody = 1;
			break;
		case 'x':	/* exec'ed by a forked child: a short life */
			for (int i = 0; i < 1000; i++)
				__atomic_add_fetch(&watched[i & 3], 1,
						   __ATOMIC_RELAXED);
			return 0;
		default:
usage:
			fprintf(stderr, "usage: storm [-s seed] [-t seconds] %s\n",
				"[-p workers] [-w worker] [-n calls] [-k skip] [-o ok] [-v] [-H] [-m] [-u]");
			return 2;
		}
	}
	cfg.ncpus = sysconf(_SC_NPROCESSORS_CONF);
	find_types();
	find_tracepoints();
	sigaction(SIGTRAP, &signal_action, NULL);
	sigaction(SIGIO, &signal_action, NULL);
	sigaction(SIGUSR1, &signal_action, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (cfg.nobody &&
	    (setgroups(0, NULL) || setgid(65534) || setuid(65534))) {
		perror("storm: nobody");
		return 2;
	}
	deadline = time(NULL) + seconds;
	clock_gettime(CLOCK_MONOTONIC, &storm_start);
	printf("# storm: seed %llu, %d workers, %d s, %u PMU types, %u tracepoints%s%s\n",
	       cfg.seed, workers, seconds, cfg.nr_types, cfg.nr_tps,
	       cfg.mix ? ", a fuzzer's mix" : "",
	       cfg.nobody ? ", as nobody" : "");
	fflush(stdout);

	if (only >= 0) {
		cfg.worker = only;
		worker(deadline, n);
		worker_report(only);
		return 0;
	}
	for (int w = 0; w < workers; w++) {
		if (fork() == 0) {
			alarm(seconds + WORKER_GRACE);
			cfg.worker = w;
			worker(deadline, n);
			worker_report(w);
			_exit(0);
		}
	}
	for (int status; wait(&status) > 0; ) {
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
			overstayed++;
		if (WIFEXITED(status) && WEXITSTATUS(status) == FLOOD_EXIT)
			flooded++;
		alive += WIFEXITED(status) && !WEXITSTATUS(status);
	}
	printf("# storm done: %d workers ended, %d ended by their alarm, %d %s\n",
	       alive, overstayed, flooded, "by a flood of signals");
	alive += overstayed + flooded;
	/* bring every CPU back for what runs next */
	for (int c = 1; c < cfg.ncpus; c++) {
		char path[64];
		int fd;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/online", c);
		fd = open(path, O_WRONLY);
		if (fd >= 0) {
			(void)!write(fd, "1", 1);
			close(fd);
		}
	}
	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0\n",
	       alive == workers, alive != workers);
	return alive == workers ? 0 : 1;
}
