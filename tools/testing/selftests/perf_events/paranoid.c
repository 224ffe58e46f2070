// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.perf_event_paranoid as seen by an unprivileged task (uid and gid
 * 65534, no capabilities): what it may open at levels -1, 0, 1, 2 and 3.
 * Needs root to set the sysctl; the old value is restored afterwards.
 */
#include <grp.h>
#include <stdlib.h>
#include <linux/capability.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "perf_helpers.h"
#include "../kselftest_harness.h"

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define LOCKDOWN	"/sys/kernel/security/lockdown"
#define NOBODY		65534

/* What to try as nobody. */
enum probe {
	SELF_USER,	/* pid 0, cpu -1, exclude_kernel */
	SELF_KERNEL,	/* pid 0, cpu -1, kernel too */
	CPU_WIDE,	/* pid -1, cpu 0, exclude_kernel */
	INIT_TASK,	/* pid 1 (root's), exclude_kernel */
};

#define OK		0
#define EITHER		-1	/* 0 or EACCES: see level_3 below */

FIXTURE(paranoid) {
	long saved;
};

FIXTURE_VARIANT(paranoid) {
	long level;
	int expect[4];		/* errno per probe, OK, or EITHER */
};

FIXTURE_VARIANT_ADD(paranoid, level_minus_1) {
	.level = -1, .expect = { OK, OK, OK, EACCES },
};

FIXTURE_VARIANT_ADD(paranoid, level_0) {
	.level = 0, .expect = { OK, OK, OK, EACCES },
};

FIXTURE_VARIANT_ADD(paranoid, level_1) {
	.level = 1, .expect = { OK, OK, EACCES, EACCES },
};

FIXTURE_VARIANT_ADD(paranoid, level_2) {
	.level = 2, .expect = { OK, EACCES, EACCES, EACCES },
};

/*
 * Level 3 is a Debian addition (CONFIG_SECURITY_PERF_EVENTS_RESTRICT makes
 * it the default): no unprivileged perf_event_open at all.  Upstream
 * treats it like 2, so user-only self counting is checked in its own test.
 */
FIXTURE_VARIANT_ADD(paranoid, level_3) {
	.level = 3, .expect = { EITHER, EACCES, EACCES, EACCES },
};

FIXTURE_SETUP(paranoid)
{
	if (geteuid() != 0)
		SKIP(return, "needs root to set " PARANOID);
	ASSERT_EQ(0, read_int_file(PARANOID, &self->saved))
		TH_LOG("no " PARANOID ": perf events not supported?");
	ASSERT_EQ(0, write_int_file(PARANOID, variant->level));
}

FIXTURE_TEARDOWN_PARENT(paranoid)
{
	if (geteuid() == 0)
		write_int_file(PARANOID, self->saved);
}

/* Run @p in a child that dropped to nobody; returns 0 or the errno. */
static int probe_as_nobody(enum probe p)
{
	int status, fd, err;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(255);
		switch (p) {
		case SELF_USER:
			fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1, 0);
			break;
		case SELF_KERNEL: {
			struct perf_event_attr attr;

			sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
			attr.exclude_kernel = 0;
			fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
			fd = fd < 0 ? -errno : fd;
			break;
		}
		case CPU_WIDE:
			fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, -1, 0, 0);
			break;
		case INIT_TASK:
		default:
			fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 1, -1, 0);
			break;
		}
		_exit(fd >= 0 ? 0 : -fd);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	err = WEXITSTATUS(status);
	return err == 255 ? -1 : err;
}

static const char *const probe_name[] = {
	"self, user only", "self, with kernel", "cpu-wide", "pid 1",
};

TEST_F(paranoid, unprivileged_open)
{
	long now;
	int p, got;

	ASSERT_EQ(0, read_int_file(PARANOID, &now));
	ASSERT_EQ(variant->level, now);
	for (p = SELF_USER; p <= INIT_TASK; p++) {
		got = probe_as_nobody(p);
		ASSERT_NE(-1, got) TH_LOG("could not run the probe as nobody");
		if (variant->expect[p] == EITHER) {
			EXPECT_TRUE(got == 0 || got == EACCES)
				TH_LOG("%s: %s", probe_name[p], strerror(got));
		} else {
			EXPECT_EQ(variant->expect[p], got)
				TH_LOG("%s: expected %s, got %s", probe_name[p],
				       strerror(variant->expect[p]),
				       strerror(got));
		}
	}
}

/* 1 if CONFIG_SECURITY_PERF_EVENTS_RESTRICT=y, 0 if not, -1 if unknown. */
static int restrict_config(void)
{
	FILE *f = popen("zcat /proc/config.gz 2>/dev/null", "r");
	char line[256];
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "CONFIG_PERF_EVENTS=", 19) && ret < 0)
			ret = 0;
		if (!strcmp(line, "CONFIG_SECURITY_PERF_EVENTS_RESTRICT=y\n"))
			ret = 1;
	}
	pclose(f);
	return ret;
}

/* With the Debian restriction configured, level 3 denies everything. */
TEST(level_3_restricts_when_configured)
{
	long saved;
	int got;

	if (geteuid() != 0)
		SKIP(return, "needs root to set " PARANOID);
	if (restrict_config() != 1)
		SKIP(return, "CONFIG_SECURITY_PERF_EVENTS_RESTRICT not known set");
	ASSERT_EQ(0, read_int_file(PARANOID, &saved));
	ASSERT_EQ(0, write_int_file(PARANOID, 3));
	got = probe_as_nobody(SELF_USER);
	ASSERT_EQ(0, write_int_file(PARANOID, saved));
	EXPECT_EQ(EACCES, got);
}

/*
 * Open @attr on @pid/@cpu in a child that dropped to nobody, keeping
 * CAP_PERFMON if @perfmon; returns 0, the errno, or -1 if the child could
 * not drop its privileges.
 */
static int open_as_nobody(struct perf_event_attr *attr, pid_t target, int cpu,
			  int perfmon)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct caps[2] = { { 0 } };
	int status, fd;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (prctl(PR_SET_KEEPCAPS, 1) || setgroups(0, NULL) ||
		    setgid(NOBODY) || setuid(NOBODY))
			_exit(255);
		if (perfmon) {
			caps[1].effective = 1U << (CAP_PERFMON - 32);
			caps[1].permitted = caps[1].effective;
		}
		if (syscall(SYS_capset, &hdr, caps))
			_exit(255);
		fd = sys_perf_event_open(attr, target, cpu, -1, 0);
		_exit(fd >= 0 ? 0 : errno);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status) == 255 ? -1 : WEXITSTATUS(status);
}

/* A user-only sampling event with @sample_type. */
/*
 * Is the kernel locked down for confidentiality (lockdown=confidentiality
 * at boot)?  Then PERF_SAMPLE_REGS_INTR is EPERM for everyone.
 */
static int locked_down(void)
{
	char buf[128] = "";
	FILE *f;

	if (access(LOCKDOWN, F_OK))
		mount("securityfs", "/sys/kernel/security", "securityfs", 0, NULL);
	f = fopen(LOCKDOWN, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return !!strstr(buf, "[confidentiality]");
}

static void sampling_attr(struct perf_event_attr *attr, __u64 sample_type)
{
	sw_attr(attr, PERF_COUNT_SW_TASK_CLOCK);
	attr->sample_period = 100000;
	attr->sample_type = PERF_SAMPLE_IP | sample_type;
}

/* Go to paranoid @level, the old one kept in *@saved: 0, or -errno. */
static int set_level(long level, long *saved)
{
	int ret = read_int_file(PARANOID, saved);

	return ret ?: write_int_file(PARANOID, level);
}

/*
 * At level 2 an unprivileged user may sample its own user space only:
 * whatever would hand it kernel addresses (the kernel part of callchains,
 * physical addresses, text_poke records) is EACCES, even with
 * exclude_kernel.  The kernel's registers at the interrupt are allowed,
 * unless the kernel is locked down (EPERM, for root too).
 */
TEST(level_2_keeps_kernel_addresses)
{
	struct perf_event_attr callchain, user_callchain, phys, regs;
	struct perf_event_attr poke, ksym;

	sampling_attr(&callchain, PERF_SAMPLE_CALLCHAIN);
	sampling_attr(&user_callchain, PERF_SAMPLE_CALLCHAIN);
	user_callchain.exclude_callchain_kernel = 1;
	sampling_attr(&phys, PERF_SAMPLE_PHYS_ADDR);
	sampling_attr(&regs, PERF_SAMPLE_REGS_INTR);
	regs.sample_regs_intr = 1;
	sw_attr(&poke, PERF_COUNT_SW_DUMMY);
	poke.text_poke = 1;
	sw_attr(&ksym, PERF_COUNT_SW_DUMMY);
	ksym.ksymbol = 1;
	long saved;

	if (geteuid() != 0)
		SKIP(return, "needs root to set " PARANOID);
	ASSERT_EQ(0, set_level(2, &saved));
	EXPECT_EQ(EACCES, open_as_nobody(&callchain, 0, -1, 0));
	EXPECT_EQ(0, open_as_nobody(&user_callchain, 0, -1, 0));
	EXPECT_EQ(EACCES, open_as_nobody(&phys, 0, -1, 0));
	EXPECT_EQ(locked_down() ? EPERM : 0, open_as_nobody(&regs, 0, -1, 0));
	EXPECT_EQ(EACCES, open_as_nobody(&poke, 0, -1, 0));
	EXPECT_EQ(0, open_as_nobody(&ksym, 0, -1, 0));
	/* CAP_PERFMON lifts it */
	EXPECT_EQ(0, open_as_nobody(&callchain, 0, -1, 1));
	EXPECT_EQ(0, open_as_nobody(&phys, 0, -1, 1));
	ASSERT_EQ(0, write_int_file(PARANOID, saved));
}

/*
 * The access checks come before the sampling rate's: a frequency above
 * perf_event_max_sample_rate is EACCES for a caller who may not count the
 * kernel, EINVAL for one who may.
 */
TEST(access_before_sample_rate)
{
	struct perf_event_attr attr;
	long saved;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.exclude_kernel = 0;
	attr.freq = 1;
	attr.sample_freq = 1U << 30;
	if (geteuid() != 0)
		SKIP(return, "needs root to set " PARANOID);
	ASSERT_EQ(0, set_level(2, &saved));
	EXPECT_EQ(EACCES, open_as_nobody(&attr, 0, -1, 0));
	attr.exclude_kernel = 1;
	EXPECT_EQ(EINVAL, open_as_nobody(&attr, 0, -1, 0));
	attr.exclude_kernel = 0;
	attr.freq = 0;
	attr.sample_period = 1ULL << 63;
	EXPECT_EQ(EACCES, open_as_nobody(&attr, 0, -1, 0));
	ASSERT_EQ(0, write_int_file(PARANOID, saved));
}

/* CAP_PERFMON may monitor another user's task, without ptrace rights. */
TEST(perfmon_monitors_other_users)
{
	struct perf_event_attr attr;

	long saved;

	if (geteuid() != 0)
		SKIP(return, "needs root to set " PARANOID);
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	ASSERT_EQ(0, set_level(2, &saved));
	EXPECT_EQ(EACCES, open_as_nobody(&attr, 1, -1, 0));
	EXPECT_EQ(0, open_as_nobody(&attr, 1, -1, 1));
	ASSERT_EQ(0, write_int_file(PARANOID, saved));
}

/* Level 3 leaves perf_event_open to CAP_SYS_ADMIN, not CAP_PERFMON. */
TEST(level_3_is_not_for_perfmon)
{
	struct perf_event_attr attr;

	long saved;

	if (geteuid() != 0)
		SKIP(return, "needs root to set " PARANOID);
	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	ASSERT_EQ(0, set_level(3, &saved));
	EXPECT_EQ(EACCES, open_as_nobody(&attr, 0, -1, 1));
	ASSERT_EQ(0, write_int_file(PARANOID, saved));
}

/* The levels the kernel documents read back as written. */
TEST(sysctl_round_trip)
{
	long saved, v, level;
	int fd;

	if (geteuid() != 0)
		SKIP(return, "needs root to set " PARANOID);
	ASSERT_EQ(0, read_int_file(PARANOID, &saved));
	for (level = -1; level <= 3; level++) {
		ASSERT_EQ(0, write_int_file(PARANOID, level));
		ASSERT_EQ(0, read_int_file(PARANOID, &v));
		EXPECT_EQ(level, v);
	}
	/* not a number: EINVAL, and the level stays */
	fd = open(PARANOID, O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, write(fd, "x\n", 2));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	ASSERT_EQ(0, read_int_file(PARANOID, &v));
	EXPECT_EQ(3, v);
	ASSERT_EQ(0, write_int_file(PARANOID, saved));
}

TEST_HARNESS_MAIN
