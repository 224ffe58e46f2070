// SPDX-License-Identifier: GPL-2.0
/*
 * Branch stacks (PERF_SAMPLE_BRANCH_STACK) of the cpu PMU, where it says
 * it has them (caps/branches: Intel's last branch records, AMD's LBR
 * stack): samples of a branchy loop of this task hold up to that many
 * branches, each of the kinds the filter asks for; a user-only stack never
 * holds a kernel address, not even the source of a return from a system
 * call; a task never finds another task's branches in its stack; Intel's
 * call-stack mode gives the calls the sample is nested in (AMD has none:
 * EOPNOTSUPP); Intel's guest LBR event counts nothing.  Where the PMU has
 * no branch stack, asking for one is EOPNOTSUPP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"
#include "perf_records.h"

#define USER_TOP	0x0000800000000000ULL	/* the kernel's half above */
#define PERIOD		10007

static long lbr_depth(void)
{
	return cpu_pmu_cap("branches");
}

/* an AMD CPU: its LBR stack's rules are its own */
static bool cpu_is_amd(void)
{
	return cpu_vendor_is("AuthenticAMD");
}

/* a sampling event of this task's user instructions with a branch stack */
static void lbr_attr(struct perf_event_attr *attr, __u64 branch_type)
{
	user_insns_attr(attr, PERIOD);
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr->branch_sample_type = branch_type;
}

/*
 * The branchy loop: calls, an indirect call, conditions, a system call.
 * Empty asm statements keep the compiler from folding it away: the
 * functions are called through a pointer it cannot see through.
 */
static unsigned long lbr_leaf(unsigned long x)
{
	return x * 5 + 3;
}

static unsigned long lbr_mid(unsigned long x)
{
	unsigned long (*leaf)(unsigned long) = lbr_leaf;

	__asm__ ("" : "+r" (leaf));
	if (x & 2)
		return leaf(x) ^ leaf(x >> 3);
	return leaf(x + 1);
}

static void lbr_work(unsigned long turns)
{
	unsigned long (*fn)(unsigned long) = lbr_mid;
	unsigned long i, acc = 0;

	for (i = 0; i < turns; i++) {
		__asm__ ("" : "+r" (fn));
		acc += fn(i);
		if (!(i & 31))
			acc += getppid() & 1;
	}
	__asm__ __volatile__ ("" : : "r" (acc) : "memory");
}

struct lbr_run {
	int samples;		/* with a branch stack */
	int branches;		/* in all of them */
	int too_deep;		/* stacks of more than caps/branches */
	int kernel;		/* branches with a kernel address */
	int zero;		/* branches with a zero address */
	int bad_type;		/* of a type the check refuses */
	int in_range;		/* with an end in [lo, hi) */
	int bad_idx;		/* hw_idx out of range */
};

/*
 * Go through the samples: @types (a mask of BIT(PERF_BR_*)) the branch
 * types allowed, 0 for any; [@lo, @hi) an address range to look for.
 */
static void lbr_scan(struct perf_map *m, __u64 branch_type, long depth,
		     unsigned int types, __u64 lo, __u64 hi,
		     struct lbr_run *r)
{
	static uint64_t buf[8192];
	struct perf_event_header *h;
	struct perf_sample s;

	memset(r, 0, sizeof(*r));
	while ((h = perf_map_next_type(m, buf, sizeof(buf),
				       PERF_RECORD_SAMPLE))) {
		const uint64_t *p;
		const struct perf_branch_entry *e;
		uint64_t nr, i;

		perf_sample_parse(h, PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK,
				  0, 0, &s);
		p = s.end;
		nr = *p++;
		if (branch_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
			if (*p != -1ULL && *p >= (uint64_t)depth)
				r->bad_idx++;
			p++;
		}
		e = (const struct perf_branch_entry *)p;
		r->samples++;
		if (nr > (uint64_t)depth)
			r->too_deep++;
		for (i = 0; i < nr && i < 64; i++) {
			r->branches++;
			if (e[i].from >= USER_TOP || e[i].to >= USER_TOP)
				r->kernel++;
			if (!e[i].from || !e[i].to)
				r->zero++;
			if (types && !(types & (1U << e[i].type)))
				r->bad_type++;
			if ((e[i].from >= lo && e[i].from < hi) ||
			    (e[i].to >= lo && e[i].to < hi))
				r->in_range++;
		}
	}
}

/* open, run the loop @turns times, scan */
static int lbr_record(__u64 branch_type, long depth, unsigned int types,
		      unsigned long turns, struct lbr_run *r)
{
	struct perf_event_attr attr;
	struct perf_map m;
	int fd;

	lbr_attr(&attr, branch_type);
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (perf_map_open(&m, fd, 64, PROT_READ | PROT_WRITE)) {
		close(fd);
		return -errno;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	lbr_work(turns);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	lbr_scan(&m, branch_type, depth, types, 0, 0, r);
	perf_map_close(&m);
	close(fd);
	return 0;
}

FIXTURE(lbr) {
	long depth;
};

FIXTURE_SETUP(lbr)
{
	self->depth = lbr_depth();
}

FIXTURE_TEARDOWN(lbr)
{
}

/* No branch stack where caps/branches does not say so: EOPNOTSUPP. */
TEST_F(lbr, none_without_caps)
{
	struct perf_event_attr attr;

	if (self->depth)
		SKIP(return, "the PMU has %ld branches", self->depth);
	lbr_attr(&attr, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER);
	attr.sample_type = PERF_SAMPLE_IP;
	if (open_event_errno(&attr, 0, -1))
		SKIP(return, "no instructions event (%s)", strerror(errno));
	lbr_attr(&attr, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER);
	EXPECT_EQ(open_event_errno(&attr, 0, -1), EOPNOTSUPP);
}

/*
 * Any branch, user space only: stacks of at most caps/branches branches,
 * none with a kernel address (the returns from getppid() end in user
 * space but start in the kernel) or a zero one.
 */
TEST_F(lbr, user_stack_holds_user_branches)
{
	struct lbr_run r;

	if (!self->depth)
		SKIP(return, "no branch stack");
	ASSERT_EQ(lbr_record(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER |
			     PERF_SAMPLE_BRANCH_HW_INDEX, self->depth, 0,
			     200000, &r), 0);
	EXPECT_GT(r.samples, 5);
	EXPECT_GT(r.branches, r.samples);
	EXPECT_EQ(r.too_deep, 0);
	EXPECT_EQ(r.kernel, 0);
	EXPECT_EQ(r.zero, 0);
	EXPECT_EQ(r.bad_idx, 0);
}

/* Each filter keeps its kind of branch (PERF_SAMPLE_BRANCH_TYPE_SAVE). */
TEST_F(lbr, filters_keep_their_kind)
{
	static const struct {
		__u64 filter;
		unsigned int types;
	} cases[] = {
		{ PERF_SAMPLE_BRANCH_COND, 1U << PERF_BR_COND },
		{ PERF_SAMPLE_BRANCH_CALL, 1U << PERF_BR_CALL },
		{ PERF_SAMPLE_BRANCH_IND_CALL, 1U << PERF_BR_IND_CALL },
		{ PERF_SAMPLE_BRANCH_ANY_CALL, 1U << PERF_BR_CALL |
		  1U << PERF_BR_IND_CALL | 1U << PERF_BR_SYSCALL |
		  1U << PERF_BR_IRQ },
		{ PERF_SAMPLE_BRANCH_ANY_RETURN, 1U << PERF_BR_RET |
		  1U << PERF_BR_ERET | 1U << PERF_BR_SYSRET },
	};
	struct lbr_run r;
	unsigned int i;

	if (!self->depth)
		SKIP(return, "no branch stack");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ASSERT_EQ(lbr_record(cases[i].filter | PERF_SAMPLE_BRANCH_USER |
				     PERF_SAMPLE_BRANCH_TYPE_SAVE, self->depth,
				     cases[i].types, 200000, &r), 0)
			TH_LOG("filter %#llx", (unsigned long long)cases[i].filter);
		EXPECT_GT(r.branches, 0)
			TH_LOG("filter %#llx", (unsigned long long)cases[i].filter);
		EXPECT_EQ(r.bad_type, 0)
			TH_LOG("filter %#llx", (unsigned long long)cases[i].filter);
		EXPECT_EQ(r.kernel, 0);
	}
}

/* The call-stack mode: the calls a sample is in, all of them calls. */
TEST_F(lbr, call_stack)
{
	struct lbr_run r;

	if (!self->depth)
		SKIP(return, "no branch stack");
	if (cpu_is_amd())
		SKIP(return, "AMD's LBR stack has no call-stack mode");
	ASSERT_EQ(lbr_record(PERF_SAMPLE_BRANCH_CALL_STACK |
			     PERF_SAMPLE_BRANCH_USER |
			     PERF_SAMPLE_BRANCH_TYPE_SAVE, self->depth,
			     1U << PERF_BR_CALL | 1U << PERF_BR_IND_CALL,
			     200000, &r), 0);
	EXPECT_GT(r.samples, 5);
	EXPECT_GT(r.branches, 0);
	EXPECT_EQ(r.bad_type, 0);
	EXPECT_EQ(r.too_deep, 0);
	EXPECT_EQ(r.kernel, 0);
}

#ifdef __x86_64__
/*
 * Another task loops in code at OTHER_CODE on this task's CPU, recorded
 * by an event of its own (@child_event) or by a CPU-wide event of CPU 0
 * (@cpu_event); none of its branches may show in this task's stacks
 * (each task's records start afresh when its events go on, and again
 * after others recorded meanwhile).  This task yields the CPU to it
 * thousands of times, with a sample every thousand instructions, so that
 * many samples come soon after a switch.  Returns the scan of this
 * task's samples; -1 in r->samples where the CPU-wide event cannot open.
 */
static void foreign_branches(bool child_event, bool cpu_event,
			     struct lbr_run *r, long depth)
{
	struct perf_event_attr attr;
	int fd, cfd = -1, go[2];
	struct perf_map m;
	pid_t child;

	memset(r, 0, sizeof(*r));
	if (pin_to(0) || pipe(go)) {
		r->samples = -1;
		return;
	}
	if (cpu_event) {
		lbr_attr(&attr, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER);
		attr.sample_period = 1ULL << 40;
		attr.disabled = 0;
		cfd = sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
		if (cfd < 0) {
			r->samples = -1;
			return;
		}
	}
	child = fork();
	if (!child) {
		void (*loop)(unsigned int n) = other_code_loop();
		char c;

		if (!loop)
			_exit(1);
		if (child_event) {
			lbr_attr(&attr, PERF_SAMPLE_BRANCH_ANY |
					PERF_SAMPLE_BRANCH_USER);
			attr.disabled = 0;
			fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
			if (fd < 0 || perf_map_open(&m, fd, 8, PROT_READ))
				_exit(2);
		}
		if (read(go[0], &c, 1) != 1)
			_exit(3);
		for (;;)
			loop(1000000);
	}
	lbr_attr(&attr, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER);
	attr.sample_period = 997;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (child < 0 || fd < 0 ||
	    perf_map_open(&m, fd, 512, PROT_READ | PROT_WRITE) ||
	    write(go[1], "g", 1) != 1) {
		r->samples = -2;
	} else {
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		/* both on CPU 0: each yield lets the other run */
		for (int i = 0; i < 3000; i++) {
			lbr_work(8);
			sched_yield();
		}
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		lbr_scan(&m, PERF_SAMPLE_BRANCH_ANY, depth, 0, OTHER_CODE,
			 OTHER_CODE + 4096, r);
		perf_map_close(&m);
	}
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	if (fd >= 0)
		close(fd);
	if (cfd >= 0)
		close(cfd);
}

/* the other task records with an event of its own */
TEST_F(lbr, no_other_task_branches)
{
	struct lbr_run r;

	if (!self->depth)
		SKIP(return, "no branch stack");
	foreign_branches(true, false, &r, self->depth);
	EXPECT_GT(r.samples, 5);
	EXPECT_EQ(r.in_range, 0);
	EXPECT_EQ(r.kernel, 0);
}

/* a CPU-wide event (root's) records the other task: not for this task */
TEST_F(lbr, no_other_task_branches_beside_a_cpu_event)
{
	struct lbr_run r;

	if (!self->depth)
		SKIP(return, "no branch stack");
	foreign_branches(false, true, &r, self->depth);
	if (r.samples == -1)
		SKIP(return, "no CPU-wide event here (%s)", strerror(errno));
	EXPECT_GT(r.samples, 5);
	EXPECT_EQ(r.in_range, 0);
	EXPECT_EQ(r.kernel, 0);
}
#endif

static int lbr_open(__u64 branch_type, int group)
{
	struct perf_event_attr attr;
	int fd;

	lbr_attr(&attr, branch_type);
	fd = sys_perf_event_open(&attr, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/*
 * What the call-stack mode takes beside it (stock's answers): direct
 * calls and indirect jumps, and no other kind of branch or TSX filter.
 */
TEST_F(lbr, call_stack_companions)
{
	static const struct {
		__u64 with;
		int err;
	} cases[] = {
		{ 0, 0 },
		{ PERF_SAMPLE_BRANCH_CALL, 0 },
		{ PERF_SAMPLE_BRANCH_IND_JUMP, 0 },
		{ PERF_SAMPLE_BRANCH_TYPE_SAVE | PERF_SAMPLE_BRANCH_HW_INDEX, 0 },
		{ PERF_SAMPLE_BRANCH_ANY, -EINVAL },
		{ PERF_SAMPLE_BRANCH_ANY_CALL, -EINVAL },
		{ PERF_SAMPLE_BRANCH_ANY_RETURN, -EINVAL },
		{ PERF_SAMPLE_BRANCH_IND_CALL, -EINVAL },
		{ PERF_SAMPLE_BRANCH_COND, -EINVAL },
		{ PERF_SAMPLE_BRANCH_ABORT_TX, -EINVAL },
		{ PERF_SAMPLE_BRANCH_IN_TX, -EINVAL },
		{ PERF_SAMPLE_BRANCH_NO_TX, -EINVAL },
	};
	bool amd = cpu_is_amd();
	unsigned int i;
	int fd;

	if (!self->depth)
		SKIP(return, "no branch stack");
	/* AMD: no call-stack mode, whatever comes with it */
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		fd = lbr_open(PERF_SAMPLE_BRANCH_CALL_STACK |
			      PERF_SAMPLE_BRANCH_USER | cases[i].with, -1);
		EXPECT_EQ(fd < 0 ? fd : 0, amd ? -EOPNOTSUPP : cases[i].err)
			TH_LOG("with %#llx", (unsigned long long)cases[i].with);
		if (fd >= 0)
			close(fd);
	}
}

/*
 * A group's branch stacks share the records' filter: on Intel a member
 * whose filter is another is EINVAL, one whose bits differ but filter the
 * same joins; on AMD any member joins (stock's answers).
 */
TEST_F(lbr, group_shares_the_filter)
{
	__u64 u = PERF_SAMPLE_BRANCH_USER;
	bool amd = cpu_is_amd();
	int leader, fd;

	if (!self->depth)
		SKIP(return, "no branch stack");
	leader = lbr_open(PERF_SAMPLE_BRANCH_ANY | u, -1);
	ASSERT_GE(leader, 0) TH_LOG("open: %s", strerror(-leader));
	fd = lbr_open(PERF_SAMPLE_BRANCH_ANY_CALL | u, leader);
	EXPECT_EQ(fd >= 0 ? 0 : fd, amd ? 0 : -EINVAL);
	if (fd >= 0)
		close(fd);
	EXPECT_EQ(lbr_open(PERF_SAMPLE_BRANCH_CALL_STACK | u, leader),
		  amd ? -EOPNOTSUPP : -EINVAL);
	fd = lbr_open(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_COND |
		      PERF_SAMPLE_BRANCH_TYPE_SAVE | u, leader);
	EXPECT_GE(fd, 0);
	if (fd >= 0)
		close(fd);
	close(leader);
}

/*
 * AMD: a group's members with filters of their own share the records, yet
 * each member's stacks hold only the kinds its filter asks for.
 */
TEST_F(lbr, group_members_keep_their_filter)
{
	__u64 u = PERF_SAMPLE_BRANCH_USER;
	struct perf_event_attr attr;
	struct perf_map ml, mm;
	struct lbr_run r;
	int leader, fd;

	if (!self->depth)
		SKIP(return, "no branch stack");
	if (!cpu_is_amd())
		SKIP(return, "a group shares one filter here");
	lbr_attr(&attr, PERF_SAMPLE_BRANCH_ANY | u);
	leader = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(leader, 0);
	lbr_attr(&attr, PERF_SAMPLE_BRANCH_ANY_CALL | u |
		 PERF_SAMPLE_BRANCH_TYPE_SAVE);
	attr.disabled = 0;
	fd = sys_perf_event_open(&attr, 0, -1, leader, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&ml, leader, 64, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(perf_map_open(&mm, fd, 64, PROT_READ | PROT_WRITE), 0);
	ioctl(leader, PERF_EVENT_IOC_ENABLE, 0);
	lbr_work(200000);
	ioctl(leader, PERF_EVENT_IOC_DISABLE, 0);
	lbr_scan(&mm, PERF_SAMPLE_BRANCH_ANY_CALL | u, self->depth,
		 1U << PERF_BR_CALL | 1U << PERF_BR_IND_CALL, 0, 0, &r);
	EXPECT_GT(r.samples, 5);
	EXPECT_GT(r.branches, 0);
	EXPECT_EQ(r.bad_type, 0);
	EXPECT_EQ(r.kernel, 0);
	perf_map_close(&mm);
	perf_map_close(&ml);
	close(fd);
	close(leader);
}

/* Kernel branches take the right to see the kernel: EACCES without it. */
TEST_F(lbr, kernel_branches_need_the_right)
{
	struct perf_event_attr attr;
	long paranoid;
	pid_t child;
	int status;

	if (!self->depth)
		SKIP(return, "no branch stack");
	if (geteuid())
		SKIP(return, "needs root to drop its rights");
	if (read_int_file("/proc/sys/kernel/perf_event_paranoid", &paranoid) ||
	    paranoid < 2)
		SKIP(return, "perf_event_paranoid below 2");
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		if (setgid(65534) || setuid(65534))
			_exit(10);
		lbr_attr(&attr, PERF_SAMPLE_BRANCH_ANY |
				PERF_SAMPLE_BRANCH_KERNEL);
		_exit(open_event_errno(&attr, 0, -1));
	}
	ASSERT_EQ(waitpid(child, &status, 0), child);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(WEXITSTATUS(status), EACCES);
}

/*
 * Intel: KVM's guest LBR event (raw 0x1b00, INTEL_FIXED_VLBR_EVENT) lends
 * the LBRs to a vCPU's guest and counts nothing, opened from user space
 * too, with KVM's attributes or without a branch stack (stock's answers
 * on the emulated Skylake-SP).
 */
TEST_F(lbr, guest_lbr_event_counts_nothing)
{
	static const __u64 types[] = {
		PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_USER,
		0,
	};
	struct perf_event_attr attr;
	__u64 v[3];
	int fd;

	if (!self->depth || cpu_is_amd())
		SKIP(return, "no Intel LBRs");
	for (unsigned int i = 0; i < ARRAY_SIZE(types); i++) {
		pmu_counting_attr(&attr, PERF_TYPE_RAW, 0x1b00);
		attr.exclude_host = 1;
		attr.pinned = 1;
		if (types[i]) {
			attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
			attr.branch_sample_type = types[i];
		}
		fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		ASSERT_LE(0, fd) TH_LOG("branch types %#llx: errno %d",
					(unsigned long long)types[i], errno);
		burn(5);
		ASSERT_EQ(sizeof(v), read(fd, v, sizeof(v)));
		EXPECT_EQ(0, v[0]);
		EXPECT_LT(0, v[1]);
		close(fd);
	}
}

TEST_HARNESS_MAIN
