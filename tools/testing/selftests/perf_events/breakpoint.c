// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware breakpoint events (PERF_TYPE_BREAKPOINT): watchpoints and
 * instruction breakpoints that count and sample, the attr errors, running
 * out of debug registers (ENOSPC), PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
 * sigtrap, inheritance, and the ptrace interface gdb uses for hardware
 * watchpoints, which is built on the same events.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <linux/elf.h>
#include <linux/hw_breakpoint.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"
#include "perf_records.h"

/* the arch's errno for a length it cannot watch at all */
#ifdef __aarch64__
#define INSN_LEN	4
#define KERNEL_ADDR	0xffff800080000000UL
#define BAD_LEN_ERRNO	EINVAL
#else
#define INSN_LEN	sizeof(long)
#define KERNEL_ADDR	0xffffffff81000000UL
#define BAD_LEN_ERRNO	EOPNOTSUPP
#endif

/* written and read with __atomic builtins, so that every access happens */
static long watched[8];

static void bp_attr(struct perf_event_attr *attr, void *addr,
		    int type, int len)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_BREAKPOINT;
	attr->size = sizeof(*attr);
	attr->bp_addr = (unsigned long)addr;
	attr->bp_type = type;
	attr->bp_len = len;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/* a write watchpoint on @addr that sends SIGTRAP with @sig_data each hit */
static void sigtrap_bp_attr(struct perf_event_attr *attr, void *addr,
			    __u64 sig_data)
{
	bp_attr(attr, addr, HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_8);
	attr->sample_period = 1;
	attr->sigtrap = 1;
	attr->remove_on_exec = 1;
	attr->sig_data = sig_data;
}

static int open_bp(void *addr, int type, int len, pid_t pid, int cpu)
{
	struct perf_event_attr attr;

	bp_attr(&attr, addr, type, len);
	return sys_perf_event_open(&attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static int open_errno(struct perf_event_attr *attr)
{
	int fd = sys_perf_event_open(attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

/* Called through a pointer, so that an instruction breakpoint on it hits. */
static void traced_function(void)
{
	asm volatile("" ::: "memory");
}

static void (*traced)(void) = traced_function;

static void call_traced(void)
{
	__atomic_load_n(&traced, __ATOMIC_RELAXED)();
}

static void write_watched(int slot, int times)
{
	int i;

	for (i = 0; i < times; i++)
		__atomic_store_n(&watched[slot], i, __ATOMIC_RELAXED);
}

TEST(sysfs_type)
{
	long type;

	ASSERT_EQ(read_int_file("/sys/bus/event_source/devices/breakpoint/type",
				&type), 0);
	EXPECT_EQ(type, PERF_TYPE_BREAKPOINT);
}

TEST(write_watchpoint_counts_writes)
{
	int fd = open_bp(&watched[0], HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_8,
			 0, -1);
	long sink;

	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	write_watched(0, 10);
	sink = __atomic_load_n(&watched[0], __ATOMIC_RELAXED);
	EXPECT_EQ(read_count(fd), 10);
	(void)sink;
	close(fd);
}

TEST(rw_watchpoint_counts_reads_and_writes)
{
	int fd = open_bp(&watched[0], HW_BREAKPOINT_RW, HW_BREAKPOINT_LEN_8,
			 0, -1);
	long sink = 0;
	int i;

	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	write_watched(0, 10);
	for (i = 0; i < 5; i++)
		sink += __atomic_load_n(&watched[0], __ATOMIC_RELAXED);
	EXPECT_EQ(read_count(fd), 15);
	(void)sink;
	close(fd);
}

TEST(instruction_breakpoint_counts_calls)
{
	int fd = open_bp((void *)traced_function, HW_BREAKPOINT_X, INSN_LEN,
			 0, -1);
	int i;

	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	for (i = 0; i < 3; i++)
		call_traced();
	EXPECT_EQ(read_count(fd), 3);
	close(fd);
}

TEST(disabled_breakpoint_counts_nothing)
{
	struct perf_event_attr attr;
	int fd;

	bp_attr(&attr, &watched[0], HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_8);
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	write_watched(0, 4);
	EXPECT_EQ(read_count(fd), 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	write_watched(0, 2);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	write_watched(0, 2);
	EXPECT_EQ(read_count(fd), 2);
	close(fd);
}

TEST(bad_attrs)
{
	struct perf_event_attr attr;

	bp_attr(&attr, &watched[0], HW_BREAKPOINT_W, 16);
	EXPECT_EQ(open_errno(&attr), BAD_LEN_ERRNO);
#ifdef __x86_64__
	/* x86 watches 1, 2, 4 or 8 aligned bytes; arm64 any 1..8 of a word */
	bp_attr(&attr, &watched[0], HW_BREAKPOINT_W, 3);
	EXPECT_EQ(open_errno(&attr), EINVAL);
	bp_attr(&attr, (char *)&watched[0] + 1, HW_BREAKPOINT_W,
		HW_BREAKPOINT_LEN_4);
	EXPECT_EQ(open_errno(&attr), EINVAL) TH_LOG("misaligned");
#endif
	bp_attr(&attr, &watched[0], HW_BREAKPOINT_EMPTY, HW_BREAKPOINT_LEN_4);
	EXPECT_EQ(open_errno(&attr), EINVAL);
	bp_attr(&attr, &watched[0], HW_BREAKPOINT_W | HW_BREAKPOINT_X,
		HW_BREAKPOINT_LEN_4);
	EXPECT_EQ(open_errno(&attr), EINVAL);
	bp_attr(&attr, &watched[0], 0x10, HW_BREAKPOINT_LEN_4);
	EXPECT_EQ(open_errno(&attr), EINVAL);
	/* a kernel address needs the kernel counted */
	bp_attr(&attr, (void *)KERNEL_ADDR, HW_BREAKPOINT_W,
		HW_BREAKPOINT_LEN_4);
	EXPECT_EQ(open_errno(&attr), EINVAL);
	bp_attr(&attr, &watched[0], HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_4);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	EXPECT_EQ(open_errno(&attr), EOPNOTSUPP);
}

/* Open write watchpoints on this task until the registers run out. */
static int fill_slots(int *fds, int max, pid_t pid, int cpu)
{
	int n;

	for (n = 0; n < max; n++) {
		fds[n] = open_bp(&watched[n], HW_BREAKPOINT_W,
				 HW_BREAKPOINT_LEN_8, pid, cpu);
		if (fds[n] < 0)
			break;
	}
	return n;
}

static void close_all(int *fds, int n)
{
	while (n--)
		close(fds[n]);
}

/*
 * Whether one more write watchpoint fits for @pid on @cpu: 0 when it
 * opens (it is closed again), else the errno of the refusal.
 */
static int one_more(pid_t pid, int cpu)
{
	int fd = open_bp(&watched[0], HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_8,
			 pid, cpu);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

TEST(registers_run_out)
{
	int fds[8], n;

	n = fill_slots(fds, 8, 0, -1);
	ASSERT_GE(n, 1);
	ASSERT_LT(n, 8) TH_LOG("more than 7 watchpoint registers?");
	EXPECT_EQ(errno, ENOSPC);
	/* the same CPU's registers: neither a CPU-wide nor a bound one fits */
	EXPECT_EQ(one_more(-1, 0), ENOSPC);
	EXPECT_EQ(one_more(0, 0), ENOSPC);
	/* another task has registers of its own */
	EXPECT_EQ(one_more(getppid(), -1), 0);
	/* one closed, one free */
	close(fds[n - 1]);
	EXPECT_EQ(one_more(0, -1), 0);
	close_all(fds, n - 1);
}

/*
 * With every register taken, a breakpoint the arch would refuse (length 0)
 * hears ENOSPC, the registers being counted before the breakpoint is read;
 * one that watches nothing at all (no R, W or X) is EINVAL either way.
 */
TEST(registers_counted_before_the_breakpoint_is_read)
{
	struct perf_event_attr attr;
	int fds[8], n;

	bp_attr(&attr, &watched[0], HW_BREAKPOINT_W, 0);
	ASSERT_EQ(open_errno(&attr), EINVAL);
	n = fill_slots(fds, 8, 0, -1);
	ASSERT_GE(n, 1);
	ASSERT_EQ(errno, ENOSPC);
	EXPECT_EQ(open_errno(&attr), ENOSPC);
	bp_attr(&attr, &watched[0], HW_BREAKPOINT_EMPTY, HW_BREAKPOINT_LEN_8);
	EXPECT_EQ(open_errno(&attr), EINVAL);
	close_all(fds, n);
	/* the refused breakpoints kept no register */
	EXPECT_EQ(fill_slots(fds, 8, 0, -1), n);
	close_all(fds, n);
}

TEST(cpu_bound_registers)
{
	int fds[8], n, m;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	/* this task's breakpoints bound to CPU 0 leave CPU 1 free */
	n = fill_slots(fds, 8, 0, 0);
	ASSERT_GE(n, 1);
	EXPECT_EQ(errno, ENOSPC);
	EXPECT_EQ(one_more(0, 1), 0);
	EXPECT_EQ(one_more(-1, 1), 0);
	EXPECT_EQ(one_more(0, -1), ENOSPC);
	close_all(fds, n);

	/* CPU 0's own breakpoints take the registers from every task */
	m = fill_slots(fds, 8, -1, 0);
	EXPECT_EQ(m, n);
	EXPECT_EQ(one_more(0, -1), ENOSPC);
	EXPECT_EQ(one_more(0, 1), 0);
	close_all(fds, m);
}

TEST(cpu_wide_watchpoint)
{
	cpu_set_t set;
	int fd;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ASSERT_EQ(sched_setaffinity(0, sizeof(set), &set), 0);
	fd = open_bp(&watched[1], HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_8, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("open: %s", strerror(errno));
	write_watched(1, 2);
	EXPECT_EQ(read_count(fd), 2);
	close(fd);
}

TEST(samples)
{
	struct perf_event_attr attr;
	struct perf_event_header *hdr;
	uint64_t buf[64];
	struct perf_map m;
	int fd, n = 0;

	bp_attr(&attr, &watched[1], HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_8);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |
			   PERF_SAMPLE_PERIOD;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 8, PROT_READ | PROT_WRITE), 0);
	write_watched(1, 3);
	while ((hdr = perf_map_next_type(&m, buf, sizeof(buf),
					 PERF_RECORD_SAMPLE))) {
		uint64_t *w = (uint64_t *)(hdr + 1);

		EXPECT_EQ(hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK,
			  PERF_RECORD_MISC_USER);
		EXPECT_NE(w[0], 0);
		EXPECT_EQ(w[1], (uintptr_t)&watched[1]);
		EXPECT_EQ(w[2], 1);
		n++;
	}
	EXPECT_EQ(n, 3);
	perf_map_close(&m);
	close(fd);
}

TEST(sample_period)
{
	struct perf_event_attr attr;
	uint64_t buf[64];
	struct perf_map m;
	int fd, n = 0;

	bp_attr(&attr, &watched[1], HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_8);
	attr.sample_period = 3;
	attr.sample_type = PERF_SAMPLE_IP;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 8, PROT_READ | PROT_WRITE), 0);
	write_watched(1, 10);
	EXPECT_EQ(read_count(fd), 10);
	while (perf_map_next_type(&m, buf, sizeof(buf), PERF_RECORD_SAMPLE))
		n++;
	EXPECT_EQ(n, 3);
	perf_map_close(&m);
	close(fd);
}

static int modify(int fd, struct perf_event_attr *attr)
{
	return ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, attr) ? errno : 0;
}

TEST(modify_attributes)
{
	struct perf_event_attr attr, new;
	int fd;

	bp_attr(&attr, &watched[3], HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_8);
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	write_watched(3, 1);

	/* moved: the old address no longer counts, the new one does */
	new = attr;
	new.bp_addr = (uintptr_t)&watched[4];
	EXPECT_EQ(modify(fd, &new), 0);
	write_watched(3, 1);
	write_watched(4, 2);
	EXPECT_EQ(read_count(fd), 3);

	/* only the breakpoint fields may change */
	new = attr;
	new.exclude_user = 1;
	EXPECT_EQ(modify(fd, &new), EINVAL);
	new = attr;
	new.sample_period = 5;
	EXPECT_EQ(modify(fd, &new), EINVAL);
	new = attr;
	new.bp_len = 16;
	EXPECT_EQ(modify(fd, &new), EINVAL);
	new = attr;
	new.type = PERF_TYPE_SOFTWARE;
	EXPECT_EQ(modify(fd, &new), EINVAL);
	new = attr;
	new.size = 8;
	EXPECT_EQ(modify(fd, &new), E2BIG);
	EXPECT_EQ(modify(fd, NULL), EFAULT);
	/* a failed modification leaves the breakpoint where it was */
	write_watched(4, 1);
	EXPECT_EQ(read_count(fd), 4);

	/* disabled in the new attr: off */
	new = attr;
	new.bp_addr = (uintptr_t)&watched[4];
	new.disabled = 1;
	EXPECT_EQ(modify(fd, &new), 0);
	write_watched(4, 2);
	EXPECT_EQ(read_count(fd), 4);
	close(fd);

	/* other events cannot be modified */
	sw_attr(&new, PERF_COUNT_SW_DUMMY);
	fd = sys_perf_event_open(&new, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(modify(fd, &new), EOPNOTSUPP);
	close(fd);
}

TEST(modify_reaches_children)
{
	struct perf_event_attr attr, new;
	int fd, go;
	pid_t child;

	bp_attr(&attr, &watched[3], HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_8);
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	child = fork_held(&go);
	if (!child) {
		write_watched(3, 1);
		write_watched(4, 2);
		_exit(0);
	}
	ASSERT_GT(child, 0);
	new = attr;
	new.bp_addr = (uintptr_t)&watched[4];
	EXPECT_EQ(modify(fd, &new), 0);
	ASSERT_EQ(release_child(go), 0);
	ASSERT_EQ(waitpid(child, NULL, 0), child);
	EXPECT_EQ(read_count(fd), 2);
	close(fd);
}

TEST(inherited_by_children)
{
	struct perf_event_attr attr;
	pid_t child;
	int fd;

	bp_attr(&attr, &watched[6], HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_8);
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	child = fork();
	if (!child) {
		write_watched(6, 2);
		_exit(0);
	}
	ASSERT_GT(child, 0);
	ASSERT_EQ(waitpid(child, NULL, 0), child);
	write_watched(6, 1);
	EXPECT_EQ(read_count(fd), 3);
	close(fd);
}

TEST(group_with_software_member)
{
	struct perf_event_attr sw;
	int leader, member;

	leader = open_bp(&watched[7], HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_8,
			 0, -1);
	ASSERT_GE(leader, 0);
	sw_attr(&sw, PERF_COUNT_SW_TASK_CLOCK);
	member = sys_perf_event_open(&sw, 0, -1, leader, PERF_FLAG_FD_CLOEXEC);
	EXPECT_GE(member, 0);
	if (member >= 0)
		close(member);
	close(leader);
}

/*
 * A breakpoint joining a group of software events takes the group to the
 * breakpoint PMU; the group counts as one.
 */
TEST(joins_software_group)
{
	struct perf_event_attr attr;
	uint64_t v[1 + 3];
	int leader, member, second;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.read_format = PERF_FORMAT_GROUP;
	leader = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(leader, 0);
	bp_attr(&attr, &watched[7], HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_8);
	member = sys_perf_event_open(&attr, 0, -1, leader,
				     PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(member, 0) TH_LOG("open: %s", strerror(errno));
	bp_attr(&attr, &watched[6], HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_8);
	second = sys_perf_event_open(&attr, 0, -1, leader,
				     PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(second, 0) TH_LOG("open: %s", strerror(errno));
	/* stock puts members that join a running group on at the next switch */
	usleep(10000);
	write_watched(7, 3);
	write_watched(6, 2);
	ASSERT_EQ(read(leader, v, sizeof(v)), sizeof(v));
	EXPECT_EQ(v[0], 3);
	EXPECT_GT(v[1], 0);
	EXPECT_EQ(v[2], 3);
	EXPECT_EQ(v[3], 2);
	close(second);
	close(member);
	close(leader);
}

static int sigtraps;
static void *sigtrap_addr;
static uint64_t sigtrap_data;
static int sigtrap_type;

static void on_sigtrap(int sig, siginfo_t *info, void *uc)
{
	struct perf_siginfo *pi = (struct perf_siginfo *)info;

	__atomic_add_fetch(&sigtraps, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&sigtrap_addr, pi->addr, __ATOMIC_RELAXED);
	__atomic_store_n(&sigtrap_data, pi->data, __ATOMIC_RELAXED);
	__atomic_store_n(&sigtrap_type, pi->type, __ATOMIC_RELAXED);
}

TEST(sigtrap_on_hit)
{
	struct sigaction sa = { .sa_sigaction = on_sigtrap,
				.sa_flags = SA_SIGINFO };
	struct perf_event_attr attr;
	int fd;

#ifdef __aarch64__
	/*
	 * Under TCG the stock kernel never gets past a watchpoint hit whose
	 * event sends a signal: the store traps again after the handler.
	 */
	SKIP(return, "stock loops on the watchpoint under TCG on arm64");
#endif
	ASSERT_EQ(sigaction(SIGTRAP, &sa, NULL), 0);
	sigtrap_bp_attr(&attr, &watched[5], 0x1234);
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	write_watched(5, 2);
	close(fd);
	EXPECT_EQ(__atomic_load_n(&sigtraps, __ATOMIC_RELAXED), 2);
	EXPECT_EQ(__atomic_load_n(&sigtrap_addr, __ATOMIC_RELAXED),
		  (void *)&watched[5]);
	EXPECT_EQ(__atomic_load_n(&sigtrap_data, __ATOMIC_RELAXED), 0x1234);
	EXPECT_EQ(__atomic_load_n(&sigtrap_type, __ATOMIC_RELAXED),
		  PERF_TYPE_BREAKPOINT);
	signal(SIGTRAP, SIG_DFL);
}

/*
 * MODIFY_ATTRIBUTES may change the si_perf_data of a breakpoint's SIGTRAPs
 * (sig_data), with the breakpoint fields and the disabled bit: the next
 * signal carries the new value.
 */
TEST(modify_sig_data)
{
	struct sigaction sa = { .sa_sigaction = on_sigtrap,
				.sa_flags = SA_SIGINFO };
	struct perf_event_attr attr, new;
	int fd;

	sigtrap_bp_attr(&attr, &watched[6], 0x1234);
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	new = attr;
	new.sig_data = 0x5678;
	new.disabled = 0;
	new.bp_addr = (uintptr_t)&watched[7];
	EXPECT_EQ(modify(fd, &new), 0);
	/* the rest of the attr still may not change */
	new.sample_period = 2;
	EXPECT_EQ(modify(fd, &new), EINVAL);
#ifdef __aarch64__
	/* the hit itself loops under TCG on arm64 (sigtrap_on_hit) */
	close(fd);
	return;
#endif
	ASSERT_EQ(sigaction(SIGTRAP, &sa, NULL), 0);
	__atomic_store_n(&sigtraps, 0, __ATOMIC_RELAXED);
	write_watched(7, 1);
	close(fd);
	EXPECT_EQ(__atomic_load_n(&sigtraps, __ATOMIC_RELAXED), 1);
	EXPECT_EQ(__atomic_load_n(&sigtrap_data, __ATOMIC_RELAXED), 0x5678);
	signal(SIGTRAP, SIG_DFL);
}

/* gdb's hardware watchpoint: set through ptrace on a stopped child. */
#ifdef __x86_64__
static int set_ptrace_watchpoint(pid_t pid, void *addr)
{
	/* DR7: local enable of DR0, break on write, 8 bytes */
	unsigned long dr7 = 1 | (1UL << 16) | (2UL << 18);

	if (ptrace(PTRACE_POKEUSER, pid,
		   offsetof(struct user, u_debugreg[0]), addr))
		return -1;
	return ptrace(PTRACE_POKEUSER, pid,
		      offsetof(struct user, u_debugreg[7]), dr7);
}

static int ptrace_hit_ok(pid_t pid)
{
	long dr6 = ptrace(PTRACE_PEEKUSER, pid,
			  offsetof(struct user, u_debugreg[6]), 0);

	return dr6 & 1;
}
#elif defined(__aarch64__)
/* struct user_hwdebug_state of the arm64 uapi, whose header glibc clashes with */
struct hwdebug_state {
	uint32_t dbg_info;
	uint32_t pad;
	struct {
		uint64_t addr;
		uint32_t ctrl;
		uint32_t pad;
	} dbg_regs[16];
};

static int set_ptrace_watchpoint(pid_t pid, void *addr)
{
	struct hwdebug_state st;
	struct iovec iov = { .iov_base = &st };

	memset(&st, 0, sizeof(st));
	st.dbg_regs[0].addr = (uintptr_t)addr;
	/* enabled, EL0, store, all 8 bytes */
	st.dbg_regs[0].ctrl = 1 | (2 << 1) | (2 << 3) | (0xff << 5);
	iov.iov_len = offsetof(struct hwdebug_state, dbg_regs[1]);
	return ptrace(PTRACE_SETREGSET, pid, NT_ARM_HW_WATCH, &iov);
}

static int ptrace_hit_ok(pid_t pid)
{
	siginfo_t si;

	if (ptrace(PTRACE_GETSIGINFO, pid, 0, &si))
		return 0;
	return si.si_code == TRAP_HWBKPT && si.si_addr == &watched[2];
}
#endif

TEST(ptrace_watchpoint)
{
#if defined(__x86_64__) || defined(__aarch64__)
	int status;
	pid_t child;

	child = fork();
	if (!child) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		write_watched(2, 1);
		_exit(0);
	}
	ASSERT_GT(child, 0);
	ASSERT_EQ(waitpid(child, &status, 0), child);
	ASSERT_TRUE(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP);
	ASSERT_EQ(set_ptrace_watchpoint(child, &watched[2]), 0)
		TH_LOG("set: %s", strerror(errno));
	ASSERT_EQ(ptrace(PTRACE_CONT, child, 0, 0), 0);
	ASSERT_EQ(waitpid(child, &status, 0), child);
	EXPECT_TRUE(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP)
		TH_LOG("status %#x", status);
	if (WIFSTOPPED(status))
		EXPECT_TRUE(ptrace_hit_ok(child));
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
#else
	SKIP(return, "no ptrace watchpoint interface known here");
#endif
}

TEST_HARNESS_MAIN
