// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2) argument checking: each variant breaks one thing in
 * the attr, pid, cpu, group_fd or flags of a valid software event and
 * expects the errno of perf_event_open(2) (or success where it is legal).
 */
#include <limits.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "perf_helpers.h"
#include "../kselftest_harness.h"

/* Room for an attr bigger than any kernel knows, up to two pages. */
#define ATTR_BUF	(2 * 65536)

enum target {
	SELF,		/* pid 0, cpu -1 */
	NO_TASK,	/* pid -1, cpu -1 */
	PID_MINUS2,	/* pid -2 */
	REAPED_PID,	/* a child that was already waited for */
	CPU_MINUS2,	/* pid 0, cpu -2 */
	CPU_HUGE,	/* pid 0, cpu INT_MAX */
	CPU_PAST_END,	/* pid 0, cpu = highest possible CPU + 1 */
	FOREIGN_CPU,	/* group member on cpu 0, leader on any cpu */
	FOREIGN_TASK,	/* group member on a child, leader on self */
	CPU_WIDE,	/* pid -1, cpu 0 */
};

enum group {
	NO_GROUP,	/* group_fd -1 */
	GROUP_LEADER,	/* group_fd = a software event on self */
	GROUP_DEVNULL,	/* group_fd = /dev/null */
	GROUP_CLOSED,	/* group_fd = a closed descriptor */
	GROUP_MINUS2,	/* group_fd = -2 */
};

FIXTURE(bad_open) {
	char *buf;			/* the attr, with room behind it */
	int leader;
	pid_t child;
};

FIXTURE_VARIANT(bad_open) {
	void (*edit)(struct perf_event_attr *attr, long page_size);
	enum target target;
	enum group group;
	unsigned long flags;
	int err;			/* expected errno, 0: must open */
	__u32 size_back;		/* expected attr.size after E2BIG */
};

FIXTURE_SETUP(bad_open)
{
	self->buf = aligned_alloc(8, ATTR_BUF);
	ASSERT_NE(NULL, self->buf);
	memset(self->buf, 0, ATTR_BUF);
	sw_attr((struct perf_event_attr *)self->buf, PERF_COUNT_SW_TASK_CLOCK);
	self->leader = -1;
	self->child = 0;
}

FIXTURE_TEARDOWN(bad_open)
{
	if (self->child > 0) {
		kill(self->child, SIGKILL);
		waitpid(self->child, NULL, 0);
	}
	if (self->leader >= 0)
		close(self->leader);
	free(self->buf);
}

/* attr edits, one per kind of mistake */
static void big_dirty_tail(struct perf_event_attr *a, long psz)
{
	a->size = 512;
	((char *)a)[300] = 1;
}

static void big_clean_tail(struct perf_event_attr *a, long psz)
{
	a->size = 512;
}

static void page_size(struct perf_event_attr *a, long psz)
{
	a->size = psz;
}

static void over_page_size(struct perf_event_attr *a, long psz)
{
	a->size = psz + 8;
}

static void below_ver0(struct perf_event_attr *a, long psz)
{
	a->size = PERF_ATTR_SIZE_VER0 - 8;
}

static void size_zero(struct perf_event_attr *a, long psz)
{
	a->size = 0;
}

static void ver1_hides_tail(struct perf_event_attr *a, long psz)
{
	a->size = PERF_ATTR_SIZE_VER1;
	a->sample_regs_user = 1;	/* beyond VER1: never looked at */
}

static void type_unknown(struct perf_event_attr *a, long psz)
{
	a->type = 0x7fff0000;
}

static void type_max(struct perf_event_attr *a, long psz)
{
	a->type = PERF_TYPE_MAX;
}

static void sw_config_max(struct perf_event_attr *a, long psz)
{
	a->config = PERF_COUNT_SW_MAX;
}

static void sw_bpf_output(struct perf_event_attr *a, long psz)
{
	a->config = PERF_COUNT_SW_BPF_OUTPUT;
}

static void sw_cgroup_switches(struct perf_event_attr *a, long psz)
{
	a->config = PERF_COUNT_SW_CGROUP_SWITCHES;
}

static void reserved_1(struct perf_event_attr *a, long psz)
{
	a->__reserved_1 = 1;
}

static void reserved_2(struct perf_event_attr *a, long psz)
{
	a->__reserved_2 = 1;
}

static void reserved_3(struct perf_event_attr *a, long psz)
{
	a->__reserved_3 = 1U << 28;
}

static void sample_type_max(struct perf_event_attr *a, long psz)
{
	a->sample_type = PERF_SAMPLE_MAX;
}

static void read_format_max(struct perf_event_attr *a, long psz)
{
	a->read_format = PERF_FORMAT_MAX;
}

static void freq_too_high(struct perf_event_attr *a, long psz)
{
	a->freq = 1;
	a->sample_freq = 1000000000;	/* far above perf_event_max_sample_rate */
}

static void period_top_bit(struct perf_event_attr *a, long psz)
{
	a->sample_period = 1ULL << 63;
}

static void sigtrap_alone(struct perf_event_attr *a, long psz)
{
	a->sigtrap = 1;			/* needs remove_on_exec */
}

static void sigtrap_remove_on_exec(struct perf_event_attr *a, long psz)
{
	a->sigtrap = 1;
	a->remove_on_exec = 1;
}

static void inherit_thread_alone(struct perf_event_attr *a, long psz)
{
	a->inherit_thread = 1;		/* needs inherit */
}

static void bad_clockid(struct perf_event_attr *a, long psz)
{
	a->use_clockid = 1;
	a->clockid = 1000;
}

static void deep_callchain(struct perf_event_attr *a, long psz)
{
	a->sample_period = 100000;
	a->sample_type = PERF_SAMPLE_CALLCHAIN;
	a->sample_max_stack = 65535;	/* above perf_event_max_stack */
}

/*
 * Two faults at once: the PMU's answer to an event it does not know comes
 * before a too-deep callchain, which comes before an unknown clock.
 */
static void deep_callchain_unknown_sw(struct perf_event_attr *a, long psz)
{
	deep_callchain(a, psz);
	a->config = PERF_COUNT_SW_MAX + 7;
}

static void bad_clockid_unknown_sw(struct perf_event_attr *a, long psz)
{
	bad_clockid(a, psz);
	a->config = PERF_COUNT_SW_MAX + 7;
}

static void bad_clockid_deep_callchain(struct perf_event_attr *a, long psz)
{
	bad_clockid(a, psz);
	deep_callchain(a, psz);
}

/* a member inherited while its leader is not, and unknown to its PMU */
static void inherit_unknown_sw(struct perf_event_attr *a, long psz)
{
	a->inherit = 1;
	a->config = PERF_COUNT_SW_MAX + 7;
}

static void branch_stack_on_sw(struct perf_event_attr *a, long psz)
{
	a->sample_period = 100000;
	a->sample_type = PERF_SAMPLE_BRANCH_STACK;
	a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
}

/*
 * The first extended register (x86 XMM0, arm64 VG) in a mask whose sample
 * bit is not set: software PMUs cannot sample them, and the masks count.
 * The kernel's architecture decides, not the program's (a 32-bit program
 * on x86_64 has x86's registers).
 */
static uint64_t reg_extended_bit(void)
{
	struct utsname u;

	if (!uname(&u) && (!strcmp(u.machine, "x86_64") ||
			   (u.machine[0] == 'i' && strstr(u.machine, "86"))))
		return (uint64_t)1 << 32;
	return (uint64_t)1 << 46;
}

static void extended_regs_user_no_bit(struct perf_event_attr *a, long psz)
{
	a->sample_regs_user = reg_extended_bit();
}

static void extended_regs_intr_no_bit(struct perf_event_attr *a, long psz)
{
	a->sample_regs_intr = reg_extended_bit();
}

static void stack_user_unaligned(struct perf_event_attr *a, long psz)
{
	a->sample_period = 100000;
	a->sample_type = PERF_SAMPLE_STACK_USER;
	a->sample_stack_user = 3;
}

static void exclusive(struct perf_event_attr *a, long psz)
{
	a->exclusive = 1;
}

static void pinned(struct perf_event_attr *a, long psz)
{
	a->pinned = 1;
}

static void inherit(struct perf_event_attr *a, long psz)
{
	a->inherit = 1;
}

static void clock_monotonic(struct perf_event_attr *a, long psz)
{
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
}

/* the AUX controls, on an event with no AUX area in its group */
static void aux_output(struct perf_event_attr *a, long psz)
{
	a->aux_output = 1;
}

static void aux_start_paused(struct perf_event_attr *a, long psz)
{
	a->aux_start_paused = 1;
}

static void aux_pause(struct perf_event_attr *a, long psz)
{
	a->aux_pause = 1;
}

static void aux_resume(struct perf_event_attr *a, long psz)
{
	a->aux_resume = 1;
}

/* a PERF_RECORD_CGROUP listener, with every other side-band flag */
static void sideband_all(struct perf_event_attr *a, long psz)
{
	a->config = PERF_COUNT_SW_DUMMY;
	a->mmap = 1;
	a->comm = 1;
	a->task = 1;
	a->mmap2 = 1;
	a->comm_exec = 1;
	a->context_switch = 1;
	a->ksymbol = 1;
	a->bpf_event = 1;
	a->cgroup = 1;
	a->mmap_data = 1;
	a->sample_id_all = 1;
}

/* stock's unnamed clock PMUs, by type number (sysfs does not list them) */
static void cpu_clock_pmu(struct perf_event_attr *a, long psz)
{
	a->type = PERF_TYPE_MAX;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
}

static void cpu_clock_pmu_task_config(struct perf_event_attr *a, long psz)
{
	a->type = PERF_TYPE_MAX;
	a->config = PERF_COUNT_SW_TASK_CLOCK;
}

static void task_clock_pmu(struct perf_event_attr *a, long psz)
{
	a->type = PERF_TYPE_MAX + 1;
	a->config = PERF_COUNT_SW_TASK_CLOCK;
}

static void task_clock_pmu_cpu_config(struct perf_event_attr *a, long psz)
{
	a->type = PERF_TYPE_MAX + 1;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
}

/* attr.size */
FIXTURE_VARIANT_ADD(bad_open, size_big_dirty_tail) {
	.edit = big_dirty_tail,
	.err = E2BIG,
	.size_back = sizeof(struct perf_event_attr),
};

FIXTURE_VARIANT_ADD(bad_open, size_big_clean_tail) {
	.edit = big_clean_tail,
};

FIXTURE_VARIANT_ADD(bad_open, size_page) {
	.edit = page_size,
};

FIXTURE_VARIANT_ADD(bad_open, size_over_page) {
	.edit = over_page_size,
	.err = E2BIG,
	.size_back = sizeof(struct perf_event_attr),
};

FIXTURE_VARIANT_ADD(bad_open, size_below_ver0) {
	.edit = below_ver0,
	.err = E2BIG,
	.size_back = sizeof(struct perf_event_attr),
};

FIXTURE_VARIANT_ADD(bad_open, size_zero_is_ver0) {
	.edit = size_zero,
};

FIXTURE_VARIANT_ADD(bad_open, size_ver1_ignores_tail) {
	.edit = ver1_hides_tail,
};

/* attr.type and attr.config */
FIXTURE_VARIANT_ADD(bad_open, type_unknown) {
	.edit = type_unknown,
	.err = ENOENT,
};

FIXTURE_VARIANT_ADD(bad_open, type_max) {
	.edit = type_max,
	.err = ENOENT,
};

FIXTURE_VARIANT_ADD(bad_open, sw_config_max) {
	.edit = sw_config_max,
	.err = ENOENT,
};

FIXTURE_VARIANT_ADD(bad_open, sw_bpf_output) {
	.edit = sw_bpf_output,
};

FIXTURE_VARIANT_ADD(bad_open, sw_cgroup_switches) {
	.edit = sw_cgroup_switches,
};

/* reserved and out-of-range bits */
FIXTURE_VARIANT_ADD(bad_open, reserved_1) {
	.edit = reserved_1,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, reserved_2) {
	.edit = reserved_2,
	.err = EINVAL,
};

/* 6.18: EINVAL; 6.12.117 (aux_action backported) still to be checked */
FIXTURE_VARIANT_ADD(bad_open, reserved_3) {
	.edit = reserved_3,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, sample_type_max) {
	.edit = sample_type_max,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, read_format_max) {
	.edit = read_format_max,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, flags_unknown) {
	.flags = 1UL << 4,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, flags_top_bit) {
	.flags = 1UL << (sizeof(long) * 8 - 1),
	.err = EINVAL,
};

/* sampling setup */
FIXTURE_VARIANT_ADD(bad_open, freq_too_high) {
	.edit = freq_too_high,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, period_top_bit) {
	.edit = period_top_bit,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, sigtrap_alone) {
	.edit = sigtrap_alone,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, sigtrap_remove_on_exec) {
	.edit = sigtrap_remove_on_exec,
};

FIXTURE_VARIANT_ADD(bad_open, inherit_thread_alone) {
	.edit = inherit_thread_alone,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, bad_clockid) {
	.edit = bad_clockid,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, deep_callchain) {
	.edit = deep_callchain,
	.err = EOVERFLOW,
};

FIXTURE_VARIANT_ADD(bad_open, deep_callchain_unknown_sw) {
	.edit = deep_callchain_unknown_sw,
	.err = ENOENT,
};

FIXTURE_VARIANT_ADD(bad_open, bad_clockid_unknown_sw) {
	.edit = bad_clockid_unknown_sw,
	.err = ENOENT,
};

FIXTURE_VARIANT_ADD(bad_open, bad_clockid_deep_callchain) {
	.edit = bad_clockid_deep_callchain,
	.err = EOVERFLOW,
};

FIXTURE_VARIANT_ADD(bad_open, bad_clockid_no_task) {
	.edit = bad_clockid,
	.target = REAPED_PID,
	.err = ESRCH,
};

FIXTURE_VARIANT_ADD(bad_open, member_inherit_unknown_sw) {
	.edit = inherit_unknown_sw,
	.group = GROUP_LEADER,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, branch_stack_on_sw) {
	.edit = branch_stack_on_sw,
	.err = EOPNOTSUPP,
};

FIXTURE_VARIANT_ADD(bad_open, extended_regs_user_no_bit) {
	.edit = extended_regs_user_no_bit,
	.err = EOPNOTSUPP,
};

FIXTURE_VARIANT_ADD(bad_open, extended_regs_intr_no_bit) {
	.edit = extended_regs_intr_no_bit,
	.err = EOPNOTSUPP,
};

FIXTURE_VARIANT_ADD(bad_open, stack_user_unaligned) {
	.edit = stack_user_unaligned,
	.err = EINVAL,
};

/* pid and cpu */
FIXTURE_VARIANT_ADD(bad_open, pid_minus2) {
	.target = PID_MINUS2,
	.err = ESRCH,
};

FIXTURE_VARIANT_ADD(bad_open, pid_reaped) {
	.target = REAPED_PID,
	.err = ESRCH,
};

FIXTURE_VARIANT_ADD(bad_open, no_pid_no_cpu) {
	.target = NO_TASK,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, cpu_minus2) {
	.target = CPU_MINUS2,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, cpu_huge) {
	.target = CPU_HUGE,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, cpu_past_end) {
	.target = CPU_PAST_END,
	.err = EINVAL,
};

/* group_fd */
FIXTURE_VARIANT_ADD(bad_open, group_devnull) {
	.group = GROUP_DEVNULL,
	.err = EBADF,
};

FIXTURE_VARIANT_ADD(bad_open, group_closed) {
	.group = GROUP_CLOSED,
	.err = EBADF,
};

FIXTURE_VARIANT_ADD(bad_open, group_minus2) {
	.group = GROUP_MINUS2,
	.err = EBADF,
};

FIXTURE_VARIANT_ADD(bad_open, group_member) {
	.group = GROUP_LEADER,
};

FIXTURE_VARIANT_ADD(bad_open, group_member_exclusive) {
	.group = GROUP_LEADER,
	.edit = exclusive,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, group_member_pinned) {
	.group = GROUP_LEADER,
	.edit = pinned,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, group_member_inherit) {
	.group = GROUP_LEADER,
	.edit = inherit,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, group_member_other_cpu) {
	.group = GROUP_LEADER,
	.target = FOREIGN_CPU,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, group_member_other_task) {
	.group = GROUP_LEADER,
	.target = FOREIGN_TASK,
	.err = EINVAL,
};

/* the leader counts on perf's clock: a member must too */
FIXTURE_VARIANT_ADD(bad_open, group_member_other_clock) {
	.group = GROUP_LEADER,
	.edit = clock_monotonic,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, aux_output_without_aux) {
	.edit = aux_output,
	.err = EOPNOTSUPP,
};

FIXTURE_VARIANT_ADD(bad_open, aux_output_in_software_group) {
	.group = GROUP_LEADER,
	.edit = aux_output,
	.err = EOPNOTSUPP,
};

FIXTURE_VARIANT_ADD(bad_open, aux_start_paused_without_aux) {
	.edit = aux_start_paused,
	.err = EOPNOTSUPP,
};

FIXTURE_VARIANT_ADD(bad_open, aux_pause_without_aux) {
	.edit = aux_pause,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, aux_resume_without_aux) {
	.edit = aux_resume,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, sideband_all_with_cgroup) {
	.edit = sideband_all,
};

FIXTURE_VARIANT_ADD(bad_open, sigtrap_cpu_wide) {
	.edit = sigtrap_remove_on_exec,
	.target = CPU_WIDE,
	.err = EINVAL,
};

FIXTURE_VARIANT_ADD(bad_open, type_cpu_clock_pmu) {
	.edit = cpu_clock_pmu,
};

FIXTURE_VARIANT_ADD(bad_open, type_cpu_clock_pmu_other_config) {
	.edit = cpu_clock_pmu_task_config,
	.err = ENOENT,
};

FIXTURE_VARIANT_ADD(bad_open, type_task_clock_pmu) {
	.edit = task_clock_pmu,
};

FIXTURE_VARIANT_ADD(bad_open, type_task_clock_pmu_other_config) {
	.edit = task_clock_pmu_cpu_config,
	.err = ENOENT,
};

/* flags */
FIXTURE_VARIANT_ADD(bad_open, flag_fd_output_alone) {
	.flags = PERF_FLAG_FD_OUTPUT,
};

FIXTURE_VARIANT_ADD(bad_open, flag_no_group_alone) {
	.flags = PERF_FLAG_FD_NO_GROUP,
};

FIXTURE_VARIANT_ADD(bad_open, flag_cloexec) {
	.flags = PERF_FLAG_FD_CLOEXEC,
};

FIXTURE_VARIANT_ADD(bad_open, flag_pid_cgroup_any_cpu) {
	.flags = PERF_FLAG_PID_CGROUP,
	.err = EINVAL,
};

/*
 * A cgroup event on a CPU whose "pid", fd 0, is not a directory of a
 * cgroup filesystem: EBADF (EINVAL on a kernel without
 * CONFIG_CGROUP_PERF; the test kernels have it).
 */
FIXTURE_VARIANT_ADD(bad_open, flag_pid_cgroup_on_cpu) {
	.flags = PERF_FLAG_PID_CGROUP,
	.target = FOREIGN_CPU,
	.err = EBADF,
};

/* One past the highest CPU in /sys/devices/system/cpu/possible. */
static int cpu_past_possible(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	char line[256], *last;
	int cpu = -1;

	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f)) {
		last = line + strcspn(line, "\n");
		while (last > line && last[-1] != '-' && last[-1] != ',')
			last--;
		cpu = atoi(last) + 1;
	}
	fclose(f);
	return cpu;
}

/* A child that sleeps until the fixture kills it. */
static pid_t sleeping_child(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		pause();
		_exit(0);
	}
	return pid;
}

static void pick_target(enum target t, pid_t *child, pid_t *pid, int *cpu)
{
	pid_t reaped;

	*pid = 0;
	*cpu = -1;
	switch (t) {
	case SELF:
		break;
	case NO_TASK:
		*pid = -1;
		break;
	case PID_MINUS2:
		*pid = -2;
		break;
	case REAPED_PID:
		reaped = fork();
		if (reaped == 0)
			_exit(0);
		waitpid(reaped, NULL, 0);
		*pid = reaped;
		break;
	case CPU_MINUS2:
		*cpu = -2;
		break;
	case CPU_HUGE:
		*cpu = INT_MAX;
		break;
	case CPU_PAST_END:
		*cpu = cpu_past_possible();
		break;
	case FOREIGN_CPU:
		*cpu = 0;
		break;
	case FOREIGN_TASK:
		*child = sleeping_child();
		*pid = *child;
		break;
	case CPU_WIDE:
		*pid = -1;
		*cpu = 0;
		break;
	}
}

static int pick_group(enum group g, int *leader)
{
	int fd;

	switch (g) {
	case NO_GROUP:
		return -1;
	case GROUP_LEADER:
		*leader = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1, 0);
		return *leader;
	case GROUP_DEVNULL:
		*leader = open("/dev/null", O_RDONLY | O_CLOEXEC);
		return *leader;
	case GROUP_CLOSED:
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		close(fd);
		return fd;
	case GROUP_MINUS2:
		return -2;
	}
	return -1;
}

TEST_F(bad_open, result)
{
	struct perf_event_attr *attr = (struct perf_event_attr *)self->buf;
	long psz = sysconf(_SC_PAGESIZE);
	int cpu, group, fd;
	pid_t pid;

	if (psz + 8 > ATTR_BUF)
		SKIP(return, "page size %ld too large for the buffer", psz);
	pick_target(variant->target, &self->child, &pid, &cpu);
	group = pick_group(variant->group, &self->leader);
	if (variant->group == GROUP_LEADER && group < 0)
		SKIP(return, "cannot open a group leader: %s", strerror(-group));
	if (variant->edit)
		variant->edit(attr, psz);

	fd = sys_perf_event_open(attr, pid, cpu, group, variant->flags);
	if (fd < 0 && errno == EACCES && variant->err != EACCES)
		SKIP(return, "perf_event_open not permitted");
	if (variant->err == 0) {
		ASSERT_LE(0, fd) TH_LOG("expected success, got %s",
					strerror(errno));
		close(fd);
		return;
	}
	ASSERT_EQ(-1, fd);
	ASSERT_EQ(variant->err, errno) TH_LOG("expected %s, got %s",
					      strerror(variant->err),
					      strerror(errno));
	if (variant->size_back)
		EXPECT_EQ(variant->size_back, attr->size);
}

TEST(null_attr_faults)
{
	ASSERT_EQ(-1, sys_perf_event_open(NULL, 0, -1, -1, 0));
	ASSERT_EQ(EFAULT, errno);
}

TEST_HARNESS_MAIN
