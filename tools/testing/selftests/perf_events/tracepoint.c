// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint events (PERF_TYPE_TRACEPOINT, attr.config the id of a trace
 * event in tracefs): open errors, exact counts (task:task_rename fires once
 * per prctl(PR_SET_NAME), sched:sched_process_fork once per fork), counts
 * weighted by the tracepoint (sched:sched_stat_runtime adds nanoseconds),
 * samples with the trace record as PERF_SAMPLE_RAW, ftrace filters,
 * inheritance, per-CPU events, hits about another task (sched_wakeup),
 * the raw-record permissions of perf_event_paranoid, and the BPF ioctls.
 * Needs root (tracefs is mounted if it is not).
 */
#define _GNU_SOURCE
#include <grp.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"
#include "perf_records.h"

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define NOBODY		65534
#define REC_MAX		4096

/* The offset of @field in the record of @name, from its format file. */
static int tp_field_offset(const char *name, const char *field)
{
	char path[256], line[256], want[64], *p;
	int off = -1;
	FILE *f;

	snprintf(path, sizeof(path), TRACEFS "/events/%s/format", name);
	snprintf(want, sizeof(want), " %s;", field);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, "offset:");
		if (strstr(line, want) && p &&
		    sscanf(p, "offset:%d", &off) == 1)
			break;
		off = -1;
	}
	fclose(f);
	return off;
}

static void tp_attr(struct perf_event_attr *attr, long id)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->size = sizeof(*attr);
	attr->config = id;
}

/* Open @attr on @pid/@cpu: the fd, or -errno. */
static int tp_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	int fd = sys_perf_event_open(attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* @n hits of task:task_rename, alternating between two names. */
static void renames(int n)
{
	for (int i = 0; i < n; i++)
		prctl(PR_SET_NAME, i & 1 ? "tp_odd" : "tp_even");
}

static int ioctl_err(int fd, unsigned long cmd, unsigned long arg)
{
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

FIXTURE(tp) {
	long rename, fork, wakeup, runtime;
};

FIXTURE_SETUP(tp)
{
	if (geteuid() != 0)
		SKIP(return, "needs root for tracefs and raw records");
	if (access(TRACEFS "/events", F_OK))
		mount("tracefs", TRACEFS, "tracefs", 0, NULL);
	self->rename = trace_event_id("task/task_rename");
	self->fork = trace_event_id("sched/sched_process_fork");
	self->wakeup = trace_event_id("sched/sched_wakeup");
	self->runtime = trace_event_id("sched/sched_stat_runtime");
	if (self->rename < 0 || self->fork < 0 || self->wakeup < 0)
		SKIP(return, "no tracefs or no task and sched trace events");
}

FIXTURE_TEARDOWN(tp)
{
	prctl(PR_SET_NAME, "tracepoint");
}

TEST_F(tp, sysfs_type)
{
	long type;

	ASSERT_EQ(0, read_int_file("/sys/bus/event_source/devices/tracepoint/type",
				   &type));
	EXPECT_EQ(PERF_TYPE_TRACEPOINT, type);
}

/* Unknown ids are -EINVAL; exclusion bits are accepted; no branch stack. */
TEST_F(tp, open_errors)
{
	const __u64 bad[] = { 0, 1, 0xffffff, ~0ULL,
			      (1ULL << 32) | self->rename };
	struct perf_event_attr attr;
	int fd;

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		tp_attr(&attr, bad[i]);
		EXPECT_EQ(-EINVAL, tp_open(&attr, 0, -1))
			TH_LOG("config %#llx", (unsigned long long)bad[i]);
	}
	tp_attr(&attr, self->rename);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	EXPECT_EQ(-EOPNOTSUPP, tp_open(&attr, 0, -1));

	tp_attr(&attr, self->rename);
	attr.exclude_user = 1;
	attr.exclude_hv = 1;
	attr.exclude_idle = 1;
	attr.exclude_host = 1;
	attr.exclude_guest = 1;
	fd = tp_open(&attr, 0, -1);
	ASSERT_GE(fd, 0);
	close(fd);
	tp_attr(&attr, self->rename);
	attr.freq = 1;
	attr.sample_freq = 100;
	fd = tp_open(&attr, 0, -1);
	ASSERT_GE(fd, 0);
	close(fd);
}

/* One hit a rename; hits are kernel ones, so exclude_kernel sees none. */
TEST_F(tp, count_exact)
{
	struct perf_event_attr attr;
	int fd, fd_ek, fd_eu, fd_off;

	tp_attr(&attr, self->rename);
	fd = tp_open(&attr, 0, -1);
	ASSERT_GE(fd, 0);
	attr.exclude_kernel = 1;
	fd_ek = tp_open(&attr, 0, -1);
	ASSERT_GE(fd_ek, 0);
	attr.exclude_kernel = 0;
	attr.exclude_user = 1;
	fd_eu = tp_open(&attr, 0, -1);
	ASSERT_GE(fd_eu, 0);
	tp_attr(&attr, self->rename);
	attr.disabled = 1;
	fd_off = tp_open(&attr, 0, -1);
	ASSERT_GE(fd_off, 0);

	renames(10);
	ASSERT_EQ(0, ioctl_err(fd_off, PERF_EVENT_IOC_ENABLE, 0));
	renames(3);
	EXPECT_EQ(13, read_count(fd));
	EXPECT_EQ(0, read_count(fd_ek));
	EXPECT_EQ(13, read_count(fd_eu));
	EXPECT_EQ(3, read_count(fd_off));
	ASSERT_EQ(0, ioctl_err(fd, PERF_EVENT_IOC_RESET, 0));
	renames(2);
	EXPECT_EQ(2, read_count(fd));
	close(fd_off);
	close(fd_eu);
	close(fd_ek);
	close(fd);
}

/*
 * perf stat -e sched:sched_switch: each sleep switches the task out.  A
 * sleep whose timer has expired by the time the task would block does not
 * (a loaded TCG host can stall the guest for a millisecond), so the
 * sleeps are long.
 */
TEST_F(tp, sched_switch)
{
	struct perf_event_attr attr;
	long id = trace_event_id("sched/sched_switch");
	int fd;

	ASSERT_GT(id, 0);
	tp_attr(&attr, id);
	fd = tp_open(&attr, 0, -1);
	ASSERT_GE(fd, 0);
	for (int i = 0; i < 5; i++)
		usleep(20000);
	EXPECT_GE(read_count(fd), 5);
	close(fd);
}

/* A tracepoint that counts an amount: the nanoseconds of CPU time run. */
TEST_F(tp, count_weighted)
{
	struct perf_event_attr attr;
	int64_t ns;
	int fd;

	if (self->runtime < 0)
		SKIP(return, "no sched:sched_stat_runtime");
	tp_attr(&attr, self->runtime);
	fd = tp_open(&attr, 0, -1);
	ASSERT_GE(fd, 0);
	burn(30);
	usleep(1000);
	ns = read_count(fd);
	EXPECT_GT(ns, 10 * 1000 * 1000);
	close(fd);
}

/*
 * A group of tracepoint events, read as a group.  (Not with a leader of
 * another software PMU: on stock such a sibling may count nothing.)
 */
TEST_F(tp, group)
{
	struct perf_event_attr attr;
	uint64_t v[3];
	int lead, fd;

	tp_attr(&attr, self->rename);
	attr.read_format = PERF_FORMAT_GROUP;
	lead = tp_open(&attr, 0, -1);
	ASSERT_GE(lead, 0);
	tp_attr(&attr, self->fork);
	fd = sys_perf_event_open(&attr, 0, -1, lead, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	renames(6);
	for (int i = 0; i < 2; i++) {
		pid_t pid = fork();

		ASSERT_GE(pid, 0);
		if (pid == 0)
			_exit(0);
		ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	}
	ASSERT_EQ(sizeof(v), read(lead, v, sizeof(v)));
	EXPECT_EQ(2, v[0]);
	EXPECT_EQ(6, v[1]);
	EXPECT_EQ(2, v[2]);
	close(fd);
	close(lead);
}

/*
 * Samples of every hit carry the trace record: a u32 size, the record
 * (its common fields filled in: type, pid), zero padding to 8 bytes.
 */
TEST_F(tp, sample_raw)
{
	uint64_t type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD |
			PERF_SAMPLE_RAW;
	int pid_off = tp_field_offset("task/task_rename", "pid");
	int comm_off = tp_field_offset("task/task_rename", "newcomm[16]");
	uint64_t buf[REC_MAX / 8];
	struct perf_event_header *h;
	struct perf_event_attr attr;
	struct perf_sample s;
	struct perf_map m;
	const char *raw;
	int fd, n = 0;

	ASSERT_GE(pid_off, 8);
	ASSERT_GT(comm_off, pid_off);
	tp_attr(&attr, self->rename);
	attr.sample_period = 1;
	attr.sample_type = type;
	fd = tp_open(&attr, 0, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perf_map_open(&m, fd, 4, PROT_READ | PROT_WRITE));
	renames(4);
	while ((h = perf_map_next_type(&m, buf, sizeof(buf), PERF_RECORD_SAMPLE))) {
		perf_sample_parse(h, type, 0, 1, &s);
		ASSERT_EQ((char *)s.end - (char *)h, h->size);
		EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK,
			  PERF_RECORD_MISC_KERNEL);
		EXPECT_EQ(s.pid, getpid());
		EXPECT_EQ(s.tid, gettid());
		EXPECT_EQ(s.period, 1);
		EXPECT_EQ(0, (s.raw_size + 4) % 8);
		ASSERT_GE(s.raw_size, comm_off + 16);
		raw = (const char *)&buf[4] + 4;	/* hdr ip tid period, size */
		EXPECT_EQ(self->rename, *(const uint16_t *)raw);  /* common_type */
		EXPECT_EQ(gettid(), *(const int32_t *)(raw + 4)); /* common_pid */
		EXPECT_EQ(gettid(), *(const int32_t *)(raw + pid_off));
		EXPECT_STREQ(n & 1 ? "tp_odd" : "tp_even", raw + comm_off);
		n++;
	}
	EXPECT_EQ(4, n);
	perf_map_close(&m);
	close(fd);
}

/*
 * A fixed period samples every period-th hit; with PERF_SAMPLE_PERIOD
 * every hit, each with its own count as period (the software event rule).
 */
TEST_F(tp, sample_period)
{
	uint64_t buf[REC_MAX / 8];
	struct perf_event_attr attr;
	struct perf_sample s;
	struct perf_map m;
	int fd, n = 0;

	tp_attr(&attr, self->rename);
	attr.sample_period = 3;
	attr.sample_type = PERF_SAMPLE_IP;
	fd = tp_open(&attr, 0, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perf_map_open(&m, fd, 4, PROT_READ | PROT_WRITE));
	renames(10);
	while (perf_map_next_type(&m, buf, sizeof(buf), PERF_RECORD_SAMPLE))
		n++;
	EXPECT_EQ(3, n);
	EXPECT_EQ(10, read_count(fd));
	perf_map_close(&m);
	close(fd);

	attr.sample_type = PERF_SAMPLE_PERIOD;
	fd = tp_open(&attr, 0, -1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perf_map_open(&m, fd, 4, PROT_READ | PROT_WRITE));
	renames(10);
	n = 0;
	while (perf_map_next_type(&m, buf, sizeof(buf), PERF_RECORD_SAMPLE)) {
		perf_sample_parse((void *)buf, attr.sample_type, 0, 1, &s);
		EXPECT_EQ(1, s.period);
		n++;
	}
	EXPECT_EQ(10, n);
	perf_map_close(&m);
	close(fd);
}

TEST_F(tp, filter)
{
	struct perf_event_attr attr;
	char *big;
	int fd, sw;

	tp_attr(&attr, self->rename);
	fd = tp_open(&attr, 0, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-EINVAL, ioctl_err(fd, PERF_EVENT_IOC_SET_FILTER,
				     (unsigned long)"nosuchfield == 1"));
	EXPECT_EQ(-EINVAL, ioctl_err(fd, PERF_EVENT_IOC_SET_FILTER,
				     (unsigned long)"newcomm =="));
	EXPECT_EQ(-EINVAL, ioctl_err(fd, PERF_EVENT_IOC_SET_FILTER,
				     (unsigned long)""));
	EXPECT_EQ(-EFAULT, ioctl_err(fd, PERF_EVENT_IOC_SET_FILTER, 0));
	big = malloc(2 * 65536);
	ASSERT_NE(NULL, big);
	memset(big, ' ', 2 * 65536 - 1);
	big[2 * 65536 - 1] = 0;
	EXPECT_EQ(-EINVAL, ioctl_err(fd, PERF_EVENT_IOC_SET_FILTER,
				     (unsigned long)big));
	free(big);
	/* failures leave no filter behind */
	EXPECT_EQ(0, ioctl_err(fd, PERF_EVENT_IOC_SET_FILTER,
			       (unsigned long)"newcomm == \"tp_odd\""));
	EXPECT_EQ(-EEXIST, ioctl_err(fd, PERF_EVENT_IOC_SET_FILTER,
				     (unsigned long)"newcomm == \"tp_even\""));
	renames(10);
	EXPECT_EQ(5, read_count(fd));
	close(fd);

	/* the common fields filter too */
	fd = tp_open(&attr, 0, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, ioctl_err(fd, PERF_EVENT_IOC_SET_FILTER,
			       (unsigned long)"common_pid != 0"));
	renames(4);
	EXPECT_EQ(4, read_count(fd));
	close(fd);

	sw = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1, 0);
	ASSERT_GE(sw, 0);
	EXPECT_EQ(-EINVAL, ioctl_err(sw, PERF_EVENT_IOC_SET_FILTER,
				     (unsigned long)"common_pid != 0"));
	EXPECT_EQ(-EFAULT, ioctl_err(sw, PERF_EVENT_IOC_SET_FILTER, 0));
	close(sw);
}

/*
 * The BPF ioctls.  Without BPF (CONFIG_BPF_SYSCALL=n) they are not
 * supported; with it SET_BPF wants a program's fd: EBADF for no file,
 * EINVAL for a file that is not a program (bpf_events tests programs).
 */
TEST_F(tp, bpf_ioctls)
{
	struct perf_event_attr attr;
	int fd, sw;

	tp_attr(&attr, self->rename);
	fd = tp_open(&attr, 0, -1);
	ASSERT_GE(fd, 0);
	sw = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1, 0);
	ASSERT_GE(sw, 0);
	if (access("/proc/sys/kernel/unprivileged_bpf_disabled", F_OK)) {
		EXPECT_EQ(-EOPNOTSUPP, ioctl_err(fd, PERF_EVENT_IOC_QUERY_BPF, 0));
		EXPECT_EQ(-EOPNOTSUPP, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, -1));
		EXPECT_EQ(-EOPNOTSUPP, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, sw));
		EXPECT_EQ(-EOPNOTSUPP, ioctl_err(sw, PERF_EVENT_IOC_QUERY_BPF, 0));
		EXPECT_EQ(-EOPNOTSUPP, ioctl_err(sw, PERF_EVENT_IOC_SET_BPF, -1));
	} else {
		EXPECT_EQ(-EBADF, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, -1));
		EXPECT_EQ(-EINVAL, ioctl_err(fd, PERF_EVENT_IOC_SET_BPF, sw));
		EXPECT_EQ(-EBADF, ioctl_err(sw, PERF_EVENT_IOC_SET_BPF, -1));
		EXPECT_EQ(-EINVAL, ioctl_err(sw, PERF_EVENT_IOC_SET_BPF, fd));
	}
	close(sw);
	close(fd);
}

/* Children count into the parent's event: forks of forks, and renames. */
TEST_F(tp, inherit)
{
	struct perf_event_attr attr;
	int fd_fork, fd_rename;
	pid_t pid, grand;

	tp_attr(&attr, self->fork);
	attr.inherit = 1;
	fd_fork = tp_open(&attr, 0, -1);
	ASSERT_GE(fd_fork, 0);
	tp_attr(&attr, self->rename);
	attr.inherit = 1;
	fd_rename = tp_open(&attr, 0, -1);
	ASSERT_GE(fd_rename, 0);
	for (int i = 0; i < 5; i++) {
		pid = fork();
		ASSERT_GE(pid, 0);
		if (pid == 0) {
			if (i == 0) {
				grand = fork();
				if (grand == 0)
					_exit(0);
				waitpid(grand, NULL, 0);
			}
			renames(3);
			_exit(0);
		}
		ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	}
	EXPECT_EQ(6, read_count(fd_fork));
	EXPECT_EQ(15, read_count(fd_rename));
	close(fd_rename);
	close(fd_fork);
}

/* Inherited events follow the parent's filter, even one set later. */
TEST_F(tp, inherit_filter)
{
	struct perf_event_attr attr;
	int fd, go;
	pid_t pid;

	tp_attr(&attr, self->rename);
	attr.inherit = 1;
	fd = tp_open(&attr, 0, -1);
	ASSERT_GE(fd, 0);
	pid = fork_held(&go);
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		renames(8);
		_exit(0);
	}
	ASSERT_EQ(0, ioctl_err(fd, PERF_EVENT_IOC_SET_FILTER,
			       (unsigned long)"newcomm == \"tp_odd\""));
	ASSERT_EQ(0, release_child(go));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		renames(4);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	renames(2);
	EXPECT_EQ(4 + 2 + 1, read_count(fd));
	close(fd);
}

/*
 * An event with raw records, opened by root, goes on across a fork of a
 * task that dropped its privileges since: the copy needs no new check.
 */
TEST_F(tp, inherit_raw_unprivileged)
{
	struct perf_event_attr attr;
	int status, fd;
	long saved;
	pid_t pid;

	ASSERT_EQ(0, read_int_file(PARANOID, &saved));
	ASSERT_EQ(0, write_int_file(PARANOID, 2));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		pid_t grand;

		tp_attr(&attr, self->rename);
		attr.inherit = 1;
		attr.sample_period = 1;
		attr.sample_type = PERF_SAMPLE_RAW;
		fd = tp_open(&attr, 0, -1);
		if (fd < 0)
			_exit(10);
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(11);
		grand = fork();
		if (grand < 0)
			_exit(12);
		if (grand == 0) {
			renames(3);
			_exit(0);
		}
		waitpid(grand, NULL, 0);
		_exit(read_count(fd) == 3 ? 0 : 13);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	write_int_file(PARANOID, saved);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* A CPU event counts the hits on its CPU, of any task. */
TEST_F(tp, per_cpu)
{
	int cpu = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0;
	struct perf_event_attr attr;
	int fd, fd_other = -1;
	cpu_set_t saved;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(saved), &saved));
	ASSERT_EQ(0, pin_to(cpu));
	tp_attr(&attr, self->rename);
	fd = tp_open(&attr, -1, cpu);
	ASSERT_GE(fd, 0);
	if (cpu)
		fd_other = tp_open(&attr, -1, 0);
	renames(7);
	EXPECT_EQ(7, read_count(fd));
	if (fd_other >= 0) {
		EXPECT_EQ(0, read_count(fd_other));
		close(fd_other);
	}
	close(fd);
	sched_setaffinity(0, sizeof(saved), &saved);
}

/*
 * sched_wakeup is about the task woken, not the waker: a hit of another
 * task counts on that task's events bound to the CPU of the hit, without
 * samples, and even on disabled ones; its events bound to no CPU do not
 * see it (all as stock).  Parent and child share CPU 0, so the parent's
 * writes wake the child there.  A wakeup of some other task in the
 * child's own context (an interrupt's, while the child runs) counts and
 * samples as usual on the enabled events: those are told apart by the
 * event bound to no CPU, which sees only them.
 */
TEST_F(tp, other_task)
{
	uint64_t buf[REC_MAX / 8];
	struct perf_event_attr attr;
	int any, bound, off, samp, samples = 0, p[2];
	int64_t own;
	cpu_set_t saved;
	struct perf_map m;
	pid_t pid;
	char c;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(saved), &saved));
	ASSERT_EQ(0, pin_to(0));
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		for (int i = 0; i < 5; i++)
			if (read(p[0], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	tp_attr(&attr, self->wakeup);
	any = tp_open(&attr, pid, -1);
	bound = tp_open(&attr, pid, 0);
	attr.disabled = 1;
	off = tp_open(&attr, pid, 0);
	attr.disabled = 0;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	samp = tp_open(&attr, pid, 0);
	ASSERT_GE(any, 0);
	ASSERT_GE(bound, 0);
	ASSERT_GE(off, 0);
	ASSERT_GE(samp, 0);
	ASSERT_EQ(0, perf_map_open(&m, samp, 2, PROT_READ | PROT_WRITE));
	for (int i = 0; i < 5; i++) {
		usleep(20000);
		ASSERT_EQ(1, write(p[1], "x", 1));
	}
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	own = read_count(any);
	while (perf_map_next_type(&m, buf, sizeof(buf), PERF_RECORD_SAMPLE))
		samples++;
	if (own)
		TH_LOG("%lld hits in the child's own context", (long long)own);
	EXPECT_EQ(5 + own, read_count(bound));
	EXPECT_EQ(5, read_count(off));
	EXPECT_EQ(5 + own, read_count(samp));
	EXPECT_EQ(own, samples);
	perf_map_close(&m);
	close(samp);
	close(off);
	close(bound);
	close(any);
	close(p[0]);
	close(p[1]);
	sched_setaffinity(0, sizeof(saved), &saved);
}

static void on_sigio(int sig)
{
}

static int tp_sigtraps, tp_sigtrap_type;

static void on_tp_sigtrap(int sig, siginfo_t *info, void *uc)
{
	struct perf_siginfo *pi = (struct perf_siginfo *)info;

	if (info->si_code != TRAP_PERF)
		return;
	__atomic_add_fetch(&tp_sigtraps, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&tp_sigtrap_type, pi->type, __ATOMIC_RELAXED);
}

/*
 * attr.sigtrap on timer:hrtimer_start, which fires with the hrtimer base's
 * raw lock held (a sleep arms one): the signal is queued from there, with
 * nothing that may sleep or allocate, and arrives on the way to user space.
 */
TEST_F(tp, sigtrap_under_raw_lock)
{
	long id = trace_event_id("timer/hrtimer_start");
	struct sigaction sa = { .sa_sigaction = on_tp_sigtrap,
				.sa_flags = SA_SIGINFO }, old;
	struct perf_event_attr attr;
	int fd;

	if (id < 0)
		SKIP(return, "no timer:hrtimer_start trace event");
	ASSERT_EQ(0, sigaction(SIGTRAP, &sa, &old));
	tp_attr(&attr, id);
	attr.sample_period = 1;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	attr.disabled = 1;
	fd = tp_open(&attr, 0, -1);
	ASSERT_GE(fd, 0);
	__atomic_store_n(&tp_sigtraps, 0, __ATOMIC_RELAXED);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 4; i++)
		usleep(1000);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_GE(__atomic_load_n(&tp_sigtraps, __ATOMIC_RELAXED), 4);
	EXPECT_EQ(PERF_TYPE_TRACEPOINT,
		  __atomic_load_n(&tp_sigtrap_type, __ATOMIC_RELAXED));
	close(fd);
	sigaction(SIGTRAP, &old, NULL);
}

/*
 * Sampled signal:signal_generate events whose fds send SIGIO on wakeup:
 * the SIGIO is itself a generated signal, so every wakeup could feed the
 * next sample, of the same event or of the other.  One SIGURG must end in
 * one hit of each, not in a loop in interrupt context.
 */
TEST_F(tp, sigio_feedback)
{
	long id = trace_event_id("signal/signal_generate");
	struct sigaction sa = { .sa_handler = on_sigio }, old;
	uint64_t buf[REC_MAX / 8];
	struct perf_event_attr attr;
	struct perf_map m[2];
	int fd[2], n[2];
	int64_t count[2];

	if (id < 0)
		SKIP(return, "no signal:signal_generate trace event");
	ASSERT_EQ(0, sigaction(SIGIO, &sa, &old));
	tp_attr(&attr, id);
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	attr.sample_type = PERF_SAMPLE_TID;
	attr.disabled = 1;
	for (int i = 0; i < 2; i++) {
		fd[i] = tp_open(&attr, 0, -1);
		ASSERT_GE(fd[i], 0);
		ASSERT_EQ(0, perf_map_open(&m[i], fd[i], 8,
					   PROT_READ | PROT_WRITE));
		ASSERT_EQ(0, fcntl(fd[i], F_SETOWN, getpid()));
		ASSERT_EQ(0, fcntl(fd[i], F_SETFL,
				   fcntl(fd[i], F_GETFL) | O_ASYNC));
	}
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(0, ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0));
	kill(getpid(), SIGURG);
	usleep(50000);
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(0, ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0));
	for (int i = 0; i < 2; i++) {
		count[i] = read_count(fd[i]);
		n[i] = 0;
		while (perf_map_next_type(&m[i], buf, sizeof(buf),
					  PERF_RECORD_SAMPLE))
			n[i]++;
		perf_map_close(&m[i]);
		close(fd[i]);
	}
	TH_LOG("hits %lld and %lld, samples %d and %d", (long long)count[0],
	       (long long)count[1], n[0], n[1]);
	/* the SIGIOs are sent by the wakeups, where hits go uncounted */
	EXPECT_EQ(1, count[0]);
	EXPECT_EQ(1, count[1]);
	EXPECT_EQ(1, n[0]);
	EXPECT_EQ(1, n[1]);
	sigaction(SIGIO, &old, NULL);
}

/*
 * Raw records are for the privileged (perf_event_paranoid -1 or
 * CAP_PERFMON): -EPERM, checked before the -EACCES of a CPU event, after
 * that of kernel counting.
 */
enum tp_probe {
	COUNT_TASK,	/* pid 0, counting */
	COUNT_TASK_EK,	/* pid 0, counting, exclude_kernel */
	RAW_TASK_EK,	/* pid 0, raw samples, exclude_kernel */
	RAW_NOSAMPLE,	/* pid 0, sample_type RAW on a counter */
	COUNT_CPU,	/* cpu 0, counting */
	RAW_CPU,	/* cpu 0, raw samples */
	NR_TP_PROBES
};

FIXTURE(tp_paranoid) {
	long saved, rename;
};

FIXTURE_VARIANT(tp_paranoid) {
	long level;
	int expect[NR_TP_PROBES];
};

FIXTURE_VARIANT_ADD(tp_paranoid, level_2) {
	.level = 2,
	.expect = { EACCES, 0, EPERM, EACCES, EACCES, EACCES },
};

FIXTURE_VARIANT_ADD(tp_paranoid, level_1) {
	.level = 1,
	.expect = { 0, 0, EPERM, EPERM, EACCES, EPERM },
};

FIXTURE_VARIANT_ADD(tp_paranoid, level_0) {
	.level = 0,
	.expect = { 0, 0, EPERM, EPERM, 0, EPERM },
};

FIXTURE_VARIANT_ADD(tp_paranoid, level_minus_1) {
	.level = -1,
	.expect = { 0, 0, 0, 0, 0, 0 },
};

FIXTURE_SETUP(tp_paranoid)
{
	if (geteuid() != 0)
		SKIP(return, "needs root to set " PARANOID);
	if (access(TRACEFS "/events", F_OK))
		mount("tracefs", TRACEFS, "tracefs", 0, NULL);
	self->rename = trace_event_id("task/task_rename");
	if (self->rename < 0)
		SKIP(return, "no task:task_rename");
	ASSERT_EQ(0, read_int_file(PARANOID, &self->saved));
	ASSERT_EQ(0, write_int_file(PARANOID, variant->level));
}

FIXTURE_TEARDOWN_PARENT(tp_paranoid)
{
	if (geteuid() == 0)
		write_int_file(PARANOID, self->saved);
}

static int tp_probe_errno(long id, enum tp_probe p)
{
	struct perf_event_attr attr;
	int fd;

	tp_attr(&attr, id);
	if (p == COUNT_TASK_EK || p == RAW_TASK_EK)
		attr.exclude_kernel = 1;
	if (p == RAW_TASK_EK || p == RAW_CPU)
		attr.sample_period = 1;
	if (p == RAW_TASK_EK || p == RAW_NOSAMPLE || p == RAW_CPU)
		attr.sample_type = PERF_SAMPLE_RAW;
	if (p == COUNT_CPU || p == RAW_CPU)
		fd = tp_open(&attr, -1, 0);
	else
		fd = tp_open(&attr, 0, -1);
	if (fd < 0)
		return -fd;
	close(fd);
	return 0;
}

TEST_F(tp_paranoid, unprivileged)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int bad = 0;

		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(255);
		for (int p = 0; p < NR_TP_PROBES; p++) {
			int got = tp_probe_errno(self->rename, p);

			if (got != variant->expect[p]) {
				fprintf(stderr, "probe %d: errno %d, want %d\n",
					p, got, variant->expect[p]);
				bad = 1;
			}
		}
		_exit(bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
