// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2) as a hostile local user tries it: each case is an
 * attempt, mostly as uid 65534 without capabilities (or with CAP_PERFMON
 * alone), to read kernel memory or addresses, to reach a privileged PMU,
 * to act on a task it may not touch, or to make the kernel allocate past
 * a limit.  Each asserts the answer of the stock kernel.  Needs root to
 * set the sysctls and to drop to the users it tries as.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <linux/capability.h>
#include <linux/hw_breakpoint.h>
#include <linux/sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "perf_helpers.h"
#include "perf_records.h"
#include "../kselftest_harness.h"

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define NOBODY		65534
#define OTHER_USER	1000

/*
 * Where the kernel image starts without KASLR, for kernels whose kallsyms
 * does not list _text: an address of the kernel half all the same.
 */
#ifdef __x86_64__
/* PERF_REG_X86_SP of enum perf_event_x86_regs (uapi asm/perf_regs.h) */
#define SP_REG		7
#define KERNEL_START	0xffffffff81000000ULL
#elif defined(__aarch64__)
/* PERF_REG_ARM64_SP of enum perf_event_arm_regs (uapi asm/perf_regs.h) */
#define SP_REG		31
#define KERNEL_START	0xffff800080000000ULL
#else
#define KERNEL_START	0xc0000000ULL
#endif

enum caps { NO_CAPS, PERFMON, PERFMON_KILL };

/* in the environment of the setuid copy of this program: the pipe to use */
#define SUID_CHILD	"PERF_ATTACKER_SUID_CHILD"
#define SUID_COPY	"/tmp/perf-attacker-suid"

static void burn_cpu_ms(int ms)
{
	struct timespec a, b;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000 +
		 (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

/*
 * The setuid copy of this program, exec'd by setuid_exec_vs_open: say it
 * runs (as root now), burn some CPU time and leave before the harness.
 */
__attribute__((constructor)) static void suid_child(void)
{
	const char *fd = getenv(SUID_CHILD);

	if (!fd)
		return;
	(void)!write(atoi(fd), "x", 1);
	burn_cpu_ms(40);
	_exit(geteuid() == 0 ? 0 : 1);
}

/*
 * Become @uid with only the capabilities @c names (none, CAP_PERFMON, or
 * CAP_PERFMON and CAP_KILL); 0 or -1.
 */
static int become(uid_t uid, enum caps c)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct caps[2] = { { 0 } };

	if (prctl(PR_SET_KEEPCAPS, 1) || setgroups(0, NULL) ||
	    setgid(uid) || setuid(uid))
		return -1;
	if (c != NO_CAPS)
		caps[1].effective = 1U << (CAP_PERFMON - 32);
	if (c == PERFMON_KILL)
		caps[0].effective = 1U << CAP_KILL;
	caps[0].permitted = caps[0].effective;
	caps[1].permitted = caps[1].effective;
	return syscall(SYS_capset, &hdr, caps) ? -1 : 0;
}

/*
 * Run @fn(@arg) in a child that became nobody with @c; returns what it
 * returned (0..254: an errno or a count), or -1 if it could not run.
 */
static int as_nobody(enum caps c, int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (become(NOBODY, c))
			_exit(255);
		_exit(fn(arg) & 0xff);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status) == 255 ? -1 : WEXITSTATUS(status);
}

static int open_errno(struct perf_event_attr *attr, pid_t pid, int cpu,
		      int group, unsigned long flags)
{
	int fd = sys_perf_event_open(attr, pid, cpu, group, flags);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/*
 * A kernel data address for a breakpoint: jiffies (arm64) or jiffies_64
 * (x86_64, where jiffies is a linker alias), else the kernel's text.
 */
static unsigned long long kernel_symbol(const char *name);

static unsigned long long kernel_data_address(void)
{
	return kernel_symbol("jiffies") ?: kernel_symbol("jiffies_64") ?:
	       kernel_symbol("_text") ?: KERNEL_START;
}

/* The address of a kernel symbol from /proc/kallsyms (as root), or 0. */
static unsigned long long kernel_symbol(const char *name)
{
	unsigned long long addr = 0, a;
	char line[256], sym[128], t;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %127s", &a, &t, sym) == 3 &&
		    !strcmp(sym, name)) {
			addr = a;
			break;
		}
	}
	fclose(f);
	return addr;
}

FIXTURE(attacker) {
	long paranoid;
};

FIXTURE_SETUP(attacker)
{
	if (geteuid() != 0)
		SKIP(return, "needs root to set " PARANOID " and drop to nobody");
	ASSERT_EQ(0, read_int_file(PARANOID, &self->paranoid));
}

FIXTURE_TEARDOWN(attacker)
{
	if (geteuid() == 0)
		write_int_file(PARANOID, self->paranoid);
}

#ifdef SP_REG
/*
 * Spin @iters times in user mode with the stack pointer at @sp.  Nothing
 * may touch the stack meanwhile: no call, no signal.
 */
static void spin_with_sp(unsigned long sp, unsigned long iters)
{
#ifdef __x86_64__
	asm volatile("mov %%rsp, %%r12\n\t"
		     "mov %0, %%rsp\n"
		     "1:\tdec %1\n\t"
		     "jnz 1b\n\t"
		     "mov %%r12, %%rsp"
		     : "+r" (sp), "+r" (iters) : : "r12", "memory", "cc");
#else
	asm volatile("mov x19, sp\n\t"
		     "mov sp, %0\n"
		     "1:\tsubs %1, %1, #1\n\t"
		     "b.ne 1b\n\t"
		     "mov sp, x19"
		     : "+r" (sp), "+r" (iters) : : "x19", "memory", "cc");
#endif
}

struct stack_probe {
	unsigned long sp;
	int samples;		/* out: samples taken at @sp */
	uint64_t max_size;	/* out: their largest stack dump */
};

/*
 * As nobody: sample its own user registers and stack while its stack
 * pointer holds @sp; report through a shared page.
 */
static int stack_dump_child(void *arg)
{
	struct stack_probe *p = arg;
	struct perf_event_attr attr;
	struct perf_map m;
	static uint64_t buf[16384];
	struct perf_event_header *h;
	int fd, round;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 50000;
	attr.sample_type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	attr.sample_regs_user = 1ULL << SP_REG;
	attr.sample_stack_user = 8192;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return 100;
	if (perf_map_open(&m, fd, 16, PROT_READ | PROT_WRITE))
		return 101;
	for (round = 0; round < 50 && p->samples < 5; round++) {
		spin_with_sp(p->sp, 5000000);
		while ((h = perf_map_next_type(&m, buf, sizeof(buf),
					       PERF_RECORD_SAMPLE))) {
			uint64_t *w = (uint64_t *)(h + 1);

			/* abi, the stack pointer, the dump's size */
			if (w[0] == PERF_SAMPLE_REGS_ABI_NONE || w[1] != p->sp)
				continue;
			p->samples++;
			if (w[2] > p->max_size)
				p->max_size = w[2];
		}
		perf_map_consume(&m);
	}
	return 0;
}

static void stack_dump_at(struct __test_metadata *_metadata, unsigned long sp,
			  struct stack_probe *out)
{
	struct stack_probe *p;

	p = mmap(NULL, sizeof(*p), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	memset(p, 0, sizeof(*p));
	p->sp = sp;
	ASSERT_EQ(0, as_nobody(NO_CAPS, stack_dump_child, p));
	*out = *p;
	munmap(p, sizeof(*p));
}

/*
 * The stack pointer is the user's to set: pointed at the kernel's text,
 * a user-stack dump must copy nothing (stock: size 0), or any user could
 * read kernel memory at the default paranoid level.
 */
TEST_F(attacker, user_stack_at_kernel_text)
{
	unsigned long text = kernel_symbol("_text") ?: KERNEL_START;
	struct stack_probe p;

	ASSERT_EQ(0, write_int_file(PARANOID, 2));
	stack_dump_at(_metadata, text & ~15UL, &p);
	TH_LOG("%d samples at sp=%#lx, largest dump %llu bytes", p.samples,
	       text & ~15UL, (unsigned long long)p.max_size);
	ASSERT_LT(0, p.samples);
	EXPECT_EQ(0, p.max_size);
}

/* The same with a stack pointer that is no address at all. */
TEST_F(attacker, user_stack_at_bad_address)
{
	struct stack_probe p;

	ASSERT_EQ(0, write_int_file(PARANOID, 2));
	stack_dump_at(_metadata, 0x8000000000000000UL, &p);
	TH_LOG("%d samples, largest dump %llu bytes", p.samples,
	       (unsigned long long)p.max_size);
	ASSERT_LT(0, p.samples);
	EXPECT_EQ(0, p.max_size);
}
#endif

struct bp_probe {
	unsigned long long addr;
	int modify;		/* open on a user address, then move */
};

static int kernel_bp_child(void *arg)
{
	struct bp_probe *p = arg;
	struct perf_event_attr attr;
	static long user_word;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.bp_type = HW_BREAKPOINT_RW;
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	attr.bp_addr = p->modify ? (unsigned long)&user_word : p->addr;
	attr.sample_period = 1;
	attr.exclude_hv = 1;
	/*
	 * Never armed: the check is at open, and a kernel watchpoint on a
	 * busy word would trap on every tick.
	 */
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return errno;
	if (p->modify) {
		attr.bp_addr = p->addr;
		if (ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr))
			return errno;
	}
	close(fd);
	return 0;
}

/*
 * arm64 refuses a kernel breakpoint on a task to everyone (EINVAL: the
 * single-step code cannot follow one), before any capability is asked.
 */
#ifdef __aarch64__
#define KERNEL_BP_DENIED	EINVAL
#define KERNEL_BP_ROOT		EINVAL
#else
#define KERNEL_BP_DENIED	EPERM
#define KERNEL_BP_ROOT		0
#endif

/*
 * A breakpoint on a kernel address traps in the kernel: user space needs
 * CAP_SYS_ADMIN, at any paranoid level, CAP_PERFMON or not.
 */
TEST_F(attacker, kernel_breakpoint)
{
	struct bp_probe p = { .addr = kernel_data_address() };
	int got;

	ASSERT_EQ(0, write_int_file(PARANOID, 1));
	got = as_nobody(NO_CAPS, kernel_bp_child, &p);
	if (got == ENOENT || got == ENODEV || got == EOPNOTSUPP)
		SKIP(return, "no breakpoint PMU: %s", strerror(got));
	EXPECT_EQ(KERNEL_BP_DENIED, got) TH_LOG("nobody: %s", strerror(got));
	got = as_nobody(PERFMON, kernel_bp_child, &p);
	EXPECT_EQ(KERNEL_BP_DENIED, got) TH_LOG("CAP_PERFMON: %s",
						strerror(got));
	ASSERT_EQ(0, write_int_file(PARANOID, -1));
	got = as_nobody(NO_CAPS, kernel_bp_child, &p);
	EXPECT_EQ(KERNEL_BP_DENIED, got) TH_LOG("paranoid -1: %s",
						strerror(got));
	/* root may */
	EXPECT_EQ(KERNEL_BP_ROOT, kernel_bp_child(&p));
	/* nor may a user breakpoint be moved onto the kernel */
	p.modify = 1;
	ASSERT_EQ(0, write_int_file(PARANOID, 1));
	got = as_nobody(NO_CAPS, kernel_bp_child, &p);
	EXPECT_EQ(KERNEL_BP_DENIED, got) TH_LOG("by MODIFY_ATTRIBUTES: %s",
						strerror(got));
}

static unsigned long big_pages;

static int big_mmap_child(void *arg)
{
	size_t page = sysconf(_SC_PAGESIZE);
	size_t len = (big_pages + 1) * page;
	void *p;
	int fd;

	(void)arg;
	fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1, 1);
	if (fd < 0)
		return 100;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return errno;
	munmap(p, len);
	return 0;
}

/*
 * A ring over the mlock limit is refused before any of it is allocated:
 * EPERM, whatever its size, not ENOMEM after zeroing gigabytes.
 */
TEST_F(attacker, ring_over_mlock_limit)
{
	unsigned long sizes[] = { 1UL << 16, 1UL << 20, 1UL << 24 };
	unsigned int i;

	ASSERT_EQ(0, write_int_file(PARANOID, 2));
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		int got;

		/* a 32-bit caller cannot even ask for the larger ones */
		if (sizes[i] >= SIZE_MAX / sysconf(_SC_PAGESIZE))
			continue;
		big_pages = sizes[i];
		got = as_nobody(NO_CAPS, big_mmap_child, NULL);
		EXPECT_EQ(EPERM, got)
			TH_LOG("%lu pages: %s", big_pages, strerror(got));
	}
}

/*
 * Open a group of @max members of @attr as the caller; returns the number
 * that joined the leader, *err the errno that stopped it (0 if none).
 */
static int group_fill(struct perf_event_attr *attr, int max, int *err)
{
	int *fds = calloc(max + 1, sizeof(int));
	int n = 0, i;

	*err = 0;
	fds[0] = sys_perf_event_open(attr, 0, -1, -1, 0);
	if (fds[0] < 0) {
		*err = errno;
		free(fds);
		return -1;
	}
	while (n < max) {
		int fd = sys_perf_event_open(attr, 0, -1, fds[0], 0);

		if (fd < 0) {
			*err = errno;
			break;
		}
		fds[++n] = fd;
	}
	for (i = 0; i <= n; i++)
		close(fds[i]);
	free(fds);
	return n;
}

/*
 * A group's read() and PERF_SAMPLE_READ carry every member in a record
 * whose size is a u16: a group that would outgrow it is E2BIG (the class
 * of CVE-2023-6931).  Stock stops at a record of 16 KiB.
 */
TEST(group_read_size_limit)
{
	struct rlimit rl = { 8192, 8192 };
	struct perf_event_attr attr;
	int n, err;

	if (setrlimit(RLIMIT_NOFILE, &rl))
		SKIP(return, "cannot raise RLIMIT_NOFILE");
	sw_attr(&attr, PERF_COUNT_SW_DUMMY);
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			   PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_LOST;
	attr.sample_type = PERF_SAMPLE_READ;
	n = group_fill(&attr, 4000, &err);
	TH_LOG("PERF_SAMPLE_READ: %d members, then %s", n, strerror(err));
	EXPECT_EQ(E2BIG, err);
	/* 8 + 24 * (n + 1) + 16 bytes of read, plus the header: <= 16 KiB */
	EXPECT_EQ(680, n);

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_READ;
	n = group_fill(&attr, 4000, &err);
	TH_LOG("with the fixed fields: %d members, then %s", n,
	       strerror(err));
	EXPECT_EQ(E2BIG, err);

	attr.sample_type = 0;
	n = group_fill(&attr, 4000, &err);
	TH_LOG("no sample fields: %d members, then %s", n, strerror(err));
	EXPECT_EQ(E2BIG, err);

	/*
	 * 8 + 24 * (n + 1) bytes: at n = 681 the read is 16,376 bytes and
	 * the header takes it to exactly 16 KiB, which stock accepts
	 */
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			   PERF_FORMAT_LOST;
	n = group_fill(&attr, 4000, &err);
	TH_LOG("GROUP|ID|LOST: %d members, then %s", n, strerror(err));
	EXPECT_EQ(E2BIG, err);
	EXPECT_EQ(681, n);
}

/* A cgroup event names its cgroup in pid: -1 is no cgroup. */
TEST(cgroup_flag_without_cgroup)
{
	struct perf_event_attr attr;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	EXPECT_EQ(EINVAL, open_errno(&attr, -1, 0, -1, PERF_FLAG_PID_CGROUP));
}

static const char *const clock_name[] = {
	[CLOCK_REALTIME] = "REALTIME", [CLOCK_MONOTONIC] = "MONOTONIC",
	[CLOCK_MONOTONIC_RAW] = "MONOTONIC_RAW",
	[CLOCK_BOOTTIME] = "BOOTTIME", [CLOCK_TAI] = "TAI",
};

/*
 * Only NMI-safe clocks on a PMU whose interrupt may be an NMI: reading
 * the others from an NMI that lands in a timekeeping update spins for
 * ever.  Software events take any clock.
 */
TEST(clocks_of_nmi_pmus)
{
	static const int clocks[] = { CLOCK_REALTIME, CLOCK_BOOTTIME,
				      CLOCK_TAI, CLOCK_MONOTONIC,
				      CLOCK_MONOTONIC_RAW };
	struct perf_event_attr attr;
	unsigned int i;
	int got;

	for (i = 0; i < ARRAY_SIZE(clocks); i++) {
		sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
		attr.sample_period = 100000;
		attr.use_clockid = 1;
		attr.clockid = clocks[i];
		got = open_errno(&attr, 0, -1, -1, 0);
		EXPECT_EQ(0, got) TH_LOG("task-clock %s: %s",
					 clock_name[clocks[i]], strerror(got));

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_HARDWARE;
		attr.config = PERF_COUNT_HW_CPU_CYCLES;
		attr.exclude_kernel = 1;
		attr.sample_period = 1000000;
		attr.use_clockid = 1;
		attr.clockid = clocks[i];
		got = open_errno(&attr, 0, -1, -1, 0);
		if (got == ENOENT || got == ENODEV || got == EOPNOTSUPP)
			continue;	/* no hardware PMU here */
		if (clocks[i] == CLOCK_MONOTONIC ||
		    clocks[i] == CLOCK_MONOTONIC_RAW) {
			EXPECT_EQ(0, got);
		} else {
			EXPECT_EQ(EINVAL, got);
		}
		TH_LOG("cycles %s: %s", clock_name[clocks[i]], strerror(got));
	}
}

/*
 * The tracepoint and breakpoint PMUs do not promise to stay out of NMIs
 * (PERF_PMU_CAP_NO_NMI) either: stock refuses them such a clock too.
 */
TEST(clocks_by_pmu)
{
	struct perf_event_attr attr;
	long tp = trace_event_id("sched/sched_switch");
	int got;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.use_clockid = 1;
	attr.clockid = CLOCK_REALTIME;
	attr.sample_period = 1;
	if (tp > 0) {
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = tp;
		got = open_errno(&attr, 0, -1, -1, 0);
		EXPECT_EQ(EINVAL, got) TH_LOG("tracepoint: %s", strerror(got));
	}
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.config = 0;
	attr.bp_type = HW_BREAKPOINT_W;
	attr.bp_addr = (unsigned long)&attr;
	attr.bp_len = HW_BREAKPOINT_LEN_4;
	attr.exclude_kernel = 1;
	got = open_errno(&attr, 0, -1, -1, 0);
	EXPECT_EQ(EINVAL, got) TH_LOG("breakpoint: %s", strerror(got));
}

/*
 * Branches taken in the kernel are kernel addresses: asking for them is
 * checked like counting the kernel (EACCES at paranoid 2), before any PMU
 * is asked whether it records branches at all.
 */
static int branch_child(void *arg)
{
	const struct perf_event_attr *want = arg;
	struct perf_event_attr attr;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 100000;
	attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = want->branch_sample_type;
	attr.exclude_hv = want->exclude_hv;
	return open_errno(&attr, 0, -1, -1, 0);
}

TEST_F(attacker, kernel_branch_stack)
{
	struct perf_event_attr want = {
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				      PERF_SAMPLE_BRANCH_KERNEL,
		.exclude_hv = 1,
	};
	int got;

	ASSERT_EQ(0, write_int_file(PARANOID, 2));
	got = as_nobody(NO_CAPS, branch_child, &want);
	EXPECT_EQ(EACCES, got) TH_LOG("got %s", strerror(got));
}

/*
 * The same with no privilege level in branch_sample_type: the levels are
 * the event's own, so an event that excludes the kernel but not the
 * hypervisor asks for the hypervisor's branches, and is checked as such.
 * Excluding both leaves the user's alone: the privilege check passes and
 * the software PMU answers that it records no branches.
 */
TEST_F(attacker, kernel_branch_stack_implied)
{
	struct perf_event_attr want = {
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY,
	};
	int got;

	ASSERT_EQ(0, write_int_file(PARANOID, 2));
	got = as_nobody(NO_CAPS, branch_child, &want);
	EXPECT_EQ(EACCES, got) TH_LOG("got %s", strerror(got));
	want.exclude_hv = 1;
	got = as_nobody(NO_CAPS, branch_child, &want);
	EXPECT_EQ(EOPNOTSUPP, got) TH_LOG("got %s", strerror(got));
}

#define VLBR_COUNTED	200	/* the child's answer: it counted something */
#define VLBR_SAMPLED	201	/* ... or a record reached its ring */

/*
 * Raw event 0x1b00 on an Intel CPU with LBRs is the event KVM opens to
 * lend a guest the LBRs (INTEL_FIXED_VLBR_EVENT).  Any user may open it
 * on their own task: it takes the CPU's LBRs while the task runs, but
 * counts nothing, never overflows and records no branch on the host, so
 * a sampling one fills no ring.  Kernel branches are checked as for any
 * branch stack (EACCES at paranoid 2).
 */
static int vlbr_child(void *arg)
{
	const struct perf_event_attr *want = arg;
	struct perf_event_mmap_page *page;
	struct perf_event_attr attr;
	size_t len = 9 * sysconf(_SC_PAGESIZE);
	__u64 count = 0;
	int fd, ret = 0;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_RAW;
	attr.config = 0x1b00;
	attr.exclude_host = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = want->exclude_hv;
	attr.sample_period = 1000;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = want->branch_sample_type;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return errno;
	page = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED) {
		ret = errno;
		goto out;
	}
	burn_cpu_ms(50);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		ret = errno;
	else if (count)
		ret = VLBR_COUNTED;
	else if (page->data_head)
		ret = VLBR_SAMPLED;
	munmap(page, len);
out:
	close(fd);
	return ret;
}

TEST_F(attacker, guest_lbr_event)
{
	struct perf_event_attr want = {
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				      PERF_SAMPLE_BRANCH_USER,
		.exclude_hv = 1,
	};
	int got;

	if (!cpu_pmu_cap("branches") || !cpu_vendor_is("GenuineIntel"))
		SKIP(return, "no Intel LBRs");
	ASSERT_EQ(0, write_int_file(PARANOID, 2));
	got = as_nobody(NO_CAPS, vlbr_child, &want);
	EXPECT_EQ(0, got) TH_LOG("user branches: %d", got);
	want.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK |
				  PERF_SAMPLE_BRANCH_USER;
	got = as_nobody(NO_CAPS, vlbr_child, &want);
	EXPECT_EQ(0, got) TH_LOG("user call stack: %d", got);
	want.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				  PERF_SAMPLE_BRANCH_KERNEL;
	got = as_nobody(NO_CAPS, vlbr_child, &want);
	EXPECT_EQ(EACCES, got) TH_LOG("kernel branches: %d", got);
	/* the hypervisor's branches, the event's levels not excluding it */
	want.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	want.exclude_hv = 0;
	got = as_nobody(NO_CAPS, vlbr_child, &want);
	EXPECT_EQ(EACCES, got) TH_LOG("implied levels: %d", got);
}

/*
 * Precise samples (PEBS) are the CPU's records of the instruction: one
 * of the kernel's holds kernel registers and addresses.  Asking for them
 * is checked like counting the kernel (EACCES at paranoid 2), before the
 * PMU is asked whether it has the level.
 */
static int precise_child(void *arg)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.precise_ip = 1;
	attr.sample_period = 100003;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_INTR;
	attr.sample_regs_intr = 0xff;
	attr.exclude_hv = 1;
	return open_errno(&attr, 0, -1, -1, 0);
}

TEST_F(attacker, kernel_precise_samples)
{
	int got;

	ASSERT_EQ(0, write_int_file(PARANOID, 2));
	got = as_nobody(NO_CAPS, precise_child, NULL);
	EXPECT_EQ(EACCES, got) TH_LOG("got %s", strerror(got));
}

#define PRECISE_EXITS	40
#define NO_PRECISE	77	/* the child's answer where there is no PEBS */

/*
 * Tasks that die with their PEBS records not yet drained: each child
 * opens a precise event on itself whose records wait in the CPU's buffer
 * (a fixed, short period and only what records give), runs, and exits
 * with the event still on, its ring mapped; every other one has its
 * event opened by the parent instead, which closes it while the child
 * runs.  The records go to their events at the switch and at the close,
 * or nowhere: the kernel stays up, and the debug kernels silent.
 */
static int precise_exit_child(void *arg)
{
	struct perf_event_attr attr;
	long max;
	int i;

	if (read_int_file("/sys/bus/event_source/devices/cpu/caps/max_precise",
			  &max) || !max)
		return NO_PRECISE;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.precise_ip = 1;
	attr.sample_period = 37;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	for (i = 0; i < PRECISE_EXITS; i++) {
		pid_t pid = fork();
		int fd;

		if (pid < 0)
			return errno;
		if (!pid) {
			if (i & 1) {
				burn_cpu_ms(20);
				_exit(0);
			}
			fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
			if (fd < 0)
				_exit(2);
			if (mmap(NULL, 3 * sysconf(_SC_PAGESIZE), PROT_READ,
				 MAP_SHARED, fd, 0) == MAP_FAILED)
				_exit(3);
			burn_cpu_ms(5);
			_exit(0);
		}
		if (i & 1) {
			fd = sys_perf_event_open(&attr, pid, -1, -1, 0);
			if (fd >= 0) {
				usleep(5000);
				close(fd);
			}
		}
		if (waitpid(pid, &fd, 0) != pid || !WIFEXITED(fd) ||
		    WEXITSTATUS(fd))
			return 100 + i;
	}
	return 0;
}

TEST_F(attacker, precise_records_at_exit)
{
	int got;

	ASSERT_EQ(0, write_int_file(PARANOID, 2));
	got = as_nobody(NO_CAPS, precise_exit_child, NULL);
	if (got == NO_PRECISE)
		SKIP(return, "no precise sampling");
	EXPECT_EQ(0, got) TH_LOG("got %d", got);
}

#define MAX_RATE	"/proc/sys/kernel/perf_event_max_sample_rate"
#define CPU_PERCENT	"/proc/sys/kernel/perf_cpu_time_max_percent"
#define CLOCK_FLOOR_NS	10000	/* the shortest period of a sampling clock */
#define FLOOR_FIRES	1000

/*
 * Set a sampling clock's period to 1 ns with PERF_EVENT_IOC_PERIOD and let
 * it overflow FLOOR_FIRES times (PERF_EVENT_IOC_REFRESH; it then turns
 * itself off): as its timer fires no sooner than every 10 us, that takes
 * at least FLOOR_FIRES - 1 times 10 us of the task's time, which is the
 * event's count.  No ring: each fire costs little, so a timer re-armed
 * 1 ns ahead gets there much sooner.  Returns 0, or 1 with the figures on
 * stderr.
 */
static int clock_floor_child(void *arg)
{
	struct perf_event_attr attr;
	uint64_t period = 1;
	int64_t ns;
	int fd;

	(void)arg;
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 1000000;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return 2;
	if (ioctl(fd, PERF_EVENT_IOC_PERIOD, &period) ||
	    ioctl(fd, PERF_EVENT_IOC_REFRESH, FLOOR_FIRES))
		return 3;
	burn(100);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ns = read_count(fd);
	fprintf(stderr, "# %d fires took %lld ns of task time\n",
		FLOOR_FIRES, (long long)ns);
	return ns >= (int64_t)(FLOOR_FIRES - 1) * CLOCK_FLOOR_NS ? 0 : 1;
}

TEST_F(attacker, clock_period_floor)
{
	long rate, percent;
	int got;

	ASSERT_EQ(0, write_int_file(PARANOID, 2));
	ASSERT_EQ(0, read_int_file(MAX_RATE, &rate));
	ASSERT_EQ(0, read_int_file(CPU_PERCENT, &percent));
	/*
	 * No throttling to hide a storm: a high rate, then no feedback that
	 * would lower it (the rate is only writable while there is some).
	 */
	ASSERT_EQ(0, write_int_file(CPU_PERCENT, 25));
	ASSERT_EQ(0, write_int_file(MAX_RATE, 2000000));
	ASSERT_EQ(0, write_int_file(CPU_PERCENT, 0));
	got = as_nobody(NO_CAPS, clock_floor_child, NULL);
	write_int_file(CPU_PERCENT, 25);
	write_int_file(MAX_RATE, rate);
	write_int_file(CPU_PERCENT, percent);
	EXPECT_EQ(0, got);
}

#define CPU_FORMAT_ANY "/sys/bus/event_source/devices/cpu/format/any"

/* unhalted core cycles (0x3c) in user mode, with AnyThread if @arg */
static int any_thread_child(void *arg)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_RAW,
		.size = sizeof(attr),
		.config = 0x3c | (arg ? 1ULL << 21 : 0),
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};

	return open_errno(&attr, 0, -1, -1, 0);
}

/*
 * x86 AnyThread (PERFEVTSEL bit 21, Intel architectural version 3 until
 * CPUID 0xA deprecates it) counts the other hyperthread of the core too,
 * whoever runs there: a task event with it needs what a CPU-wide event
 * needs, CAP_PERFMON or perf_event_paranoid 0 (EACCES otherwise).  It
 * runs where the cpu PMU counts with AnyThread (x86 only: the emulated PMU
 * of bench/qemu with tcg-pmu-version=3); under plain TCG there is no PMU,
 * and version 2 shows the "any" format but refuses the bit (EINVAL).
 */
TEST_F(attacker, x86_any_thread)
{
	int got;

	if (access(CPU_FORMAT_ANY, F_OK))
		SKIP(return, "the cpu PMU has no AnyThread format");
	/* version 2 shows the format, but the bit is reserved there */
	if (any_thread_child((void *)1) == EINVAL)
		SKIP(return, "AnyThread is reserved on this PMU (version 2)");
	ASSERT_EQ(0, write_int_file(PARANOID, 2));
	got = as_nobody(NO_CAPS, any_thread_child, NULL);
	EXPECT_EQ(0, got) TH_LOG("without AnyThread: %s", strerror(got));
	got = as_nobody(NO_CAPS, any_thread_child, (void *)1);
	EXPECT_EQ(EACCES, got) TH_LOG("paranoid 2: %s", strerror(got));
	ASSERT_EQ(0, write_int_file(PARANOID, 1));
	got = as_nobody(NO_CAPS, any_thread_child, (void *)1);
	EXPECT_EQ(EACCES, got) TH_LOG("paranoid 1: %s", strerror(got));
	got = as_nobody(PERFMON, any_thread_child, (void *)1);
	EXPECT_EQ(0, got) TH_LOG("CAP_PERFMON: %s", strerror(got));
	ASSERT_EQ(0, write_int_file(PARANOID, 0));
	got = as_nobody(NO_CAPS, any_thread_child, (void *)1);
	EXPECT_EQ(0, got) TH_LOG("paranoid 0: %s", strerror(got));
}

struct victim_probe {
	pid_t victim;
	int sigtrap;
};

static int victim_child(void *arg)
{
	struct victim_probe *v = arg;
	struct perf_event_attr attr;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	if (v->sigtrap) {
		attr.sigtrap = 1;
		attr.remove_on_exec = 1;
		attr.sample_period = 1000000;
	}
	return open_errno(&attr, v->victim, -1, -1, 0);
}

/*
 * Another user's task: reading it takes CAP_PERFMON, sending it SIGTRAPs
 * CAP_PERFMON with CAP_KILL (or the right to ptrace-attach).
 */
TEST_F(attacker, other_users_task)
{
	struct victim_probe v = { 0 };
	int go[2], status, got;

	ASSERT_EQ(0, write_int_file(PARANOID, 2));
	ASSERT_EQ(0, pipe(go));
	v.victim = fork();
	ASSERT_LE(0, v.victim);
	if (v.victim == 0) {
		char c;

		close(go[1]);
		if (become(OTHER_USER, NO_CAPS))
			_exit(1);
		(void)!read(go[0], &c, 1);
		_exit(0);
	}
	close(go[0]);
	got = as_nobody(NO_CAPS, victim_child, &v);
	EXPECT_EQ(EACCES, got) TH_LOG("read, no caps: %s", strerror(got));
	got = as_nobody(PERFMON, victim_child, &v);
	EXPECT_EQ(0, got) TH_LOG("read, CAP_PERFMON: %s", strerror(got));
	v.sigtrap = 1;
	got = as_nobody(NO_CAPS, victim_child, &v);
	EXPECT_EQ(EACCES, got) TH_LOG("sigtrap, no caps: %s", strerror(got));
	got = as_nobody(PERFMON, victim_child, &v);
	EXPECT_EQ(EACCES, got) TH_LOG("sigtrap, CAP_PERFMON: %s",
				      strerror(got));
	got = as_nobody(PERFMON_KILL, victim_child, &v);
	EXPECT_EQ(0, got) TH_LOG("sigtrap, CAP_PERFMON+CAP_KILL: %s",
				 strerror(got));
	close(go[1]);
	ASSERT_EQ(v.victim, waitpid(v.victim, &status, 0));
}

/* A task that exited (a zombie not reaped yet) has nothing to watch. */
TEST(exited_task)
{
	struct perf_event_attr attr;
	siginfo_t si;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(0);
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WEXITED | WNOWAIT));
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	EXPECT_EQ(ESRCH, open_errno(&attr, pid, -1, -1, 0));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
}

/*
 * A group leader that exec took off its task (remove_on_exec) is gone for
 * good: a new member cannot join it (ENODEV), though the task lives on.
 */
TEST(leader_removed_by_exec)
{
	struct perf_event_attr attr;
	char comm[32], path[64];
	int go[2], leader, i;
	pid_t pid;

	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		execl("/bin/sleep", "sleep", "10", (char *)NULL);
		_exit(2);
	}
	close(go[0]);
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.remove_on_exec = 1;
	leader = sys_perf_event_open(&attr, pid, -1, -1, 0);
	ASSERT_LE(0, leader) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(1, write(go[1], "x", 1));
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	for (i = 0; i < 5000; i++) {
		if (!read_first_line(path, comm, sizeof(comm)) &&
		    !strncmp(comm, "sleep", 5))
			break;
		usleep(1000);
	}
	ASSERT_GT(5000, i) TH_LOG("the child did not exec");
	attr.remove_on_exec = 0;
	EXPECT_EQ(ENODEV, open_errno(&attr, pid, -1, leader, 0));
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	close(leader);
	close(go[1]);
}

static int traps;

static void count_trap(int sig)
{
	(void)sig;
	__atomic_add_fetch(&traps, 1, __ATOMIC_RELAXED);
}

/*
 * Run a child made by clone3() with @flags, with an inherited sigtrap
 * event of the parent running: its wait status.  With @flags 0 the child
 * keeps the parent's SIGTRAP handler and exits with the number of traps
 * it took (at most 100).
 */
static int sigtrap_child_status(__u64 flags)
{
	struct clone_args args = {
		.flags = flags,
		.exit_signal = SIGCHLD,
	};
	int status = -1;
	pid_t pid;

	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int n;

		__atomic_store_n(&traps, 0, __ATOMIC_RELAXED);
		burn(30);
		n = __atomic_load_n(&traps, __ATOMIC_RELAXED);
		_exit(n > 100 ? 100 : n);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

/*
 * A sigtrap event is not inherited by a child whose signal handlers
 * clone(CLONE_CLEAR_SIGHAND) resets: its first SIGTRAP would kill it.
 * A plain fork inherits it (the child, keeping the handler, takes traps).
 */
TEST(sigtrap_clear_sighand)
{
	struct sigaction sa = { .sa_handler = count_trap,
				.sa_flags = SA_RESTART };
	struct perf_event_attr attr;
	int fd, status;

	ASSERT_EQ(0, sigaction(SIGTRAP, &sa, NULL));
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 1000000;
	attr.inherit = 1;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));

	status = sigtrap_child_status(0);
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("status %#x", status);
	EXPECT_LT(0, WEXITSTATUS(status)) TH_LOG("no trap in a forked child");

	status = sigtrap_child_status(CLONE_CLEAR_SIGHAND);
	ASSERT_NE(-1, status) TH_LOG("clone3: %s", strerror(errno));
	EXPECT_TRUE(WIFEXITED(status)) TH_LOG("status %#x", status);
	EXPECT_FALSE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTRAP);
	close(fd);
	signal(SIGTRAP, SIG_DFL);
}

/*
 * One event past what a table of 16 bytes an inheritable event fits in
 * the page allocator's largest block (4 MiB): a kernel that sizes such a
 * table at fork WARNs and fails the fork.
 */
#define MANY_EVENTS	(4 * 1024 * 1024 / 16 + 1)
/* what the events and their clones take (some 800 MiB), with room: KiB */
#define MANY_EVENTS_KB	(1536 * 1024)

static long mem_available_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * A task with more inheritable events than that forks: fork allocates
 * nothing in proportion to their number beyond the clones themselves,
 * and the child comes and goes (the fd limit within the reach of a
 * distribution's default hard one; root here only to raise it in the
 * test guest).  Needs some 2 GiB of memory, skipped below that.
 */
TEST_F_TIMEOUT(attacker, fork_with_many_events, 1200)
{
	struct rlimit rl = { MANY_EVENTS + 64, MANY_EVENTS + 64 };
	struct perf_event_attr attr;
	long avail = mem_available_kb();
	int fd, n, status;
	pid_t pid;

	if (avail < MANY_EVENTS_KB)
		SKIP(return, "%ld KiB available, needs %d", avail,
		     MANY_EVENTS_KB);
	if (setrlimit(RLIMIT_NOFILE, &rl))
		SKIP(return, "cannot raise RLIMIT_NOFILE");
	sw_attr(&attr, PERF_COUNT_SW_DUMMY);
	attr.inherit = 1;
	attr.disabled = 1;
	for (n = 0; n < MANY_EVENTS; n++) {
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		ASSERT_LE(0, fd) TH_LOG("event %d: %s", n, strerror(errno));
	}
	TH_LOG("%d events, %ld KiB of %ld left", n, mem_available_kb(),
	       avail);

	pid = fork();
	ASSERT_LE(0, pid) TH_LOG("fork: %s", strerror(errno));
	if (pid == 0)
		_exit(0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	/* the test's process exits next: its exit closes them */
}

/*
 * The ioctls whose numbers encode a pointer's size, from a program of
 * either width: a 32-bit build of this test (attacker32, x86_64) reaches
 * them through the compat path, which must not answer ENOTTY.
 */
TEST(pointer_sized_ioctls)
{
	long tp = trace_event_id("sched/sched_switch");
	struct perf_event_query_bpf *q;
	struct perf_event_attr attr;
	static long word1, word2;
	__u64 id = 0;
	int fd, bp;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	if (tp > 0) {
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = tp;
		attr.exclude_kernel = 0;
	}
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	EXPECT_NE(0, id);
	/* a 32-bit caller's -1 arrives as 0xffffffff: no such fd, as stock */
	if (sizeof(long) == 8) {
		EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, -1L));
	} else {
		EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, -1L));
		EXPECT_EQ(EBADF, errno);
	}
	if (tp > 0) {
		EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "prev_pid == 1"))
			TH_LOG("SET_FILTER: %s", strerror(errno));
		q = calloc(1, sizeof(*q) + 4 * sizeof(__u32));
		q->ids_len = 4;
		EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, q))
			TH_LOG("QUERY_BPF: %s", strerror(errno));
		EXPECT_EQ(0, q->prog_cnt);
		free(q);
	}
	close(fd);

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.bp_type = HW_BREAKPOINT_W;
	attr.bp_addr = (unsigned long)&word1;
	attr.bp_len = HW_BREAKPOINT_LEN_4;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	bp = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (bp < 0)
		SKIP(return, "no breakpoint: %s", strerror(errno));
	attr.bp_addr = (unsigned long)&word2;
	EXPECT_EQ(0, ioctl(bp, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr))
		TH_LOG("MODIFY_ATTRIBUTES: %s", strerror(errno));
	close(bp);
}

/*
 * The exec race: an unprivileged user opens events on its own child while
 * the child execs a setuid-root program.  The permission check and the
 * installation of the event happen under the child's exec_update_lock, so
 * an open either comes before the exec (whose credential change removes
 * the event) or after it (and is refused).  No event may count the
 * setuid program's CPU time.
 */
static int exec_race_child(void *arg)
{
	struct perf_event_attr attr;
	int rounds = *(int *)arg, r, leaked = 0;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	for (r = 0; r < rounds; r++) {
		int fds[64], n = 0, i, p[2], status;
		char env[32], c;
		pid_t pid;

		if (pipe(p))
			return 200;
		pid = fork();
		if (pid < 0)
			return 201;
		if (pid == 0) {
			char *const argv[] = { SUID_COPY, NULL };
			char *const envp[] = { env, NULL };

			close(p[0]);
			snprintf(env, sizeof(env), SUID_CHILD "=%d", p[1]);
			/* give the opener a varying head start */
			burn_cpu_ms(r % 3);
			execve(SUID_COPY, argv, envp);
			_exit(127);
		}
		close(p[1]);
		/* open until the setuid program says it runs */
		for (;;) {
			struct pollfd pfd = { .fd = p[0], .events = POLLIN };
			int fd;

			if (poll(&pfd, 1, 0) > 0)
				break;
			fd = sys_perf_event_open(&attr, pid, -1, -1, 0);
			if (fd >= 0 && n < 64)
				fds[n++] = fd;
			else if (fd >= 0)
				close(fd);
		}
		(void)!read(p[0], &c, 1);
		close(p[0]);
		{
			int64_t before[64];

			for (i = 0; i < n; i++)
				before[i] = read_count(fds[i]);
			waitpid(pid, &status, 0);
			if (!WIFEXITED(status) || WEXITSTATUS(status))
				return 202;
			/* 40 ms of root's CPU time: any of it is a leak */
			for (i = 0; i < n; i++) {
				if (read_count(fds[i]) - before[i] > 10000000)
					leaked++;
				close(fds[i]);
			}
		}
	}
	return leaked > 100 ? 100 : leaked;
}

TEST_F(attacker, setuid_exec_vs_open)
{
	char cmd[256];
	int rounds = 60, got;

	ASSERT_EQ(0, write_int_file(PARANOID, 2));
	snprintf(cmd, sizeof(cmd),
		 "cp /proc/%d/exe " SUID_COPY " && chmod 4755 " SUID_COPY,
		 getpid());
	if (system(cmd))
		SKIP(return, "cannot make a setuid copy in /tmp");
	got = as_nobody(NO_CAPS, exec_race_child, &rounds);
	unlink(SUID_COPY);
	if (got == 202)
		SKIP(return, "the setuid copy did not run as root (nosuid?)");
	EXPECT_EQ(0, got) TH_LOG("%d events counted the setuid program", got);
}

/*
 * A uprobe at an offset no instruction can start at, on a file that no
 * one has mapped yet (so nothing was decoded there): on arm64, where
 * every instruction is 4-byte aligned, EINVAL at open; elsewhere the
 * answer is logged.
 */
TEST(uprobe_misaligned_offset)
{
	long type;
	char cmd[128];
	const char *copy = "/tmp/perf-attacker-unmapped";
	int fd;

	if (read_int_file("/sys/bus/event_source/devices/uprobe/type", &type))
		SKIP(return, "no uprobe PMU");
	snprintf(cmd, sizeof(cmd), "cp /proc/%d/exe %s", getpid(), copy);
	if (system(cmd))
		SKIP(return, "cannot copy the test program");
	{
		struct perf_event_attr attr;

		probe_attr(&attr, type, 0, (uintptr_t)copy, 0x1002);
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		TH_LOG("offset 0x1002: %s", fd >= 0 ? "opened" : strerror(errno));
#ifdef __aarch64__
		/* every instruction is 4 bytes: stock refuses at once */
		EXPECT_EQ(-1, fd);
		EXPECT_EQ(EINVAL, errno);
#endif
		if (fd >= 0)
			close(fd);
	}
	unlink(copy);
}

TEST_HARNESS_MAIN
