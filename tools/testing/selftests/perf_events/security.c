// SPDX-License-Identifier: GPL-2.0
/*
 * The LSM hooks of perf events, as a distribution kernel has them.
 *
 * SELinux checks the perf_event class: "open" at perf_event_open(), "read"
 * at read() and mmap() of the event's fd, "write" at its ioctl(), against
 * the label the event got when it was allocated.  The tests load small
 * policies that give the one domain of the guest all permissions of the
 * class but one (selinux/<name>.pol beside this program, built from
 * bench/selinux/perf.cil), and enforce them.
 *
 * Lockdown in confidentiality mode refuses PERF_SAMPLE_REGS_INTR, whether
 * raised at run time or from boot (lockdown=confidentiality).
 *
 * Both change the machine for good (a policy stays loaded, lockdown cannot
 * be lowered): run this program last, as root.
 */
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define SELINUXFS	"/sys/fs/selinux"
#define SECURITYFS	"/sys/kernel/security"

static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	close(fd);
	if (n < 0)
		return -errno;
	return n == (ssize_t)len ? 0 : -EIO;
}

static bool selinux_ready(void)
{
	if (access(SELINUXFS "/load", W_OK) == 0)
		return true;
	mount("selinuxfs", SELINUXFS, "selinuxfs", 0, NULL);
	return access(SELINUXFS "/load", W_OK) == 0;
}

/* Load selinux/@name.pol from beside this program; 0 or -errno. */
static int load_policy(const char *name)
{
	char exe[PATH_MAX], path[PATH_MAX + 64];
	static char pol[1 << 16];
	ssize_t n;
	int fd;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return -errno;
	exe[n] = 0;
	snprintf(path, sizeof(path), "%s/selinux/%s.pol", dirname(exe), name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, pol, sizeof(pol));
	close(fd);
	if (n <= 0)
		return -EIO;
	return write_file(SELINUXFS "/load", pol, n);
}

static const char *const enforce_file = SELINUXFS "/enforce";

static int enforce(int on)
{
	return write_file(enforce_file, on ? "1" : "0", 1);
}

/* A running task-clock on the caller: what every case reads or changes. */
static int open_clock(int inherit)
{
	struct perf_event_attr attr;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = !!inherit;
	return sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static void *map_ring(int fd)
{
	return mmap(NULL, 2 * getpagesize(), PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd, 0);
}

FIXTURE(selinux) {
};

FIXTURE_SETUP(selinux)
{
	if (getuid() != 0)
		SKIP(return, "needs root");
	if (!selinux_ready())
		SKIP(return, "no SELinux");
	if (load_policy("all") == -ENOENT)
		SKIP(return, "no test policies (secilc missing at build)");
}

/* permissive again, everything allowed: the next program runs as before */
FIXTURE_TEARDOWN(selinux)
{
	enforce(0);
	load_policy("all");
}

/* Without "read": read() and mmap() are refused, ioctl() is not. */
TEST_F(selinux, read_is_checked)
{
	uint64_t v;
	void *p;
	int fd;

	ASSERT_EQ(0, load_policy("noread"));
	fd = open_clock(0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, enforce(1));

	EXPECT_EQ(-1, read(fd, &v, sizeof(v)));
	EXPECT_EQ(EACCES, errno);
	p = map_ring(fd);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));

	/* and a new event is refused the same way: it got the same label */
	close(fd);
	fd = open_clock(0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, read(fd, &v, sizeof(v)));
	EXPECT_EQ(EACCES, errno);

	/* permissive: the denial is only logged */
	ASSERT_EQ(0, enforce(0));
	EXPECT_EQ(sizeof(v), read(fd, &v, sizeof(v)));
	p = map_ring(fd);
	ASSERT_NE(MAP_FAILED, p);
	munmap(p, 2 * getpagesize());
	close(fd);
}

/* Which mmap() errors come before the read check, which after. */
TEST_F(selinux, read_check_order)
{
	int pg = getpagesize();
	void *p;
	int fd;

	ASSERT_EQ(0, load_policy("noread"));
	fd = open_clock(1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, enforce(1));
	/* the ring of an inherited task event: refused before the check */
	p = map_ring(fd);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	close(fd);

	fd = open_clock(0);
	ASSERT_LE(0, fd);
	p = mmap(NULL, 2 * pg, PROT_READ, MAP_PRIVATE, fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	/* the size and the AUX area are looked at after the read check */
	EXPECT_EQ(EACCES, errno);
	p = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 4 * pg);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EACCES, errno);
	close(fd);
}

/* Without "write": every ioctl() is refused, read() and mmap() are not. */
TEST_F(selinux, write_is_checked)
{
	uint64_t v, id;
	void *p;
	int fd;

	ASSERT_EQ(0, load_policy("nowrite"));
	fd = open_clock(0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, enforce(1));

	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	EXPECT_EQ(EACCES, errno);
	/* even one the event does not know */
	EXPECT_EQ(-1, ioctl(fd, _IO('$', 0x7f), 0));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(sizeof(v), read(fd, &v, sizeof(v)));
	p = map_ring(fd);
	ASSERT_NE(MAP_FAILED, p);
	munmap(p, 2 * getpagesize());
	close(fd);
}

/* Without "open": perf_event_open() is refused. */
TEST_F(selinux, open_is_checked)
{
	int fd;

	ASSERT_EQ(0, load_policy("noopen"));
	ASSERT_EQ(0, enforce(1));
	fd = open_clock(0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EACCES, errno);
	if (fd >= 0)
		close(fd);
	ASSERT_EQ(0, enforce(0));
	fd = open_clock(0);
	EXPECT_LE(0, fd);
	close(fd);
}

/* A sampling event asking for the interrupted registers. */
static int open_regs_intr(void)
{
	struct perf_event_attr attr;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 1000000;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_INTR;
	attr.sample_regs_intr = 1;
	return sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/*
 * Last (a fixture registered after the other, so that the harness runs it
 * after them): lockdown in confidentiality mode refuses REGS_INTR, for
 * good.
 */
FIXTURE(lockdown) {
};

FIXTURE_SETUP(lockdown)
{
}

FIXTURE_TEARDOWN(lockdown)
{
}

TEST_F(lockdown, refuses_regs_intr)
{
	const char *level = "confidentiality";
	char buf[256] = "";
	int fd;

	if (getuid() != 0)
		SKIP(return, "needs root");
	if (access(SECURITYFS "/lockdown", F_OK))
		mount("securityfs", SECURITYFS, "securityfs", 0, NULL);
	fd = open(SECURITYFS "/lockdown", O_RDONLY);
	if (fd < 0)
		SKIP(return, "no lockdown LSM");
	ASSERT_LT(0, read(fd, buf, sizeof(buf) - 1));
	close(fd);
	TH_LOG("lockdown: %s", buf);

	/* booted with lockdown=confidentiality, or raised here */
	if (!strstr(buf, "[confidentiality]")) {
		fd = open_regs_intr();
		ASSERT_LE(0, fd);
		close(fd);
		ASSERT_EQ(0, write_file(SECURITYFS "/lockdown", level,
					strlen(level)));
	}
	fd = open_regs_intr();
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EPERM, errno);
	if (fd >= 0)
		close(fd);
	/* what it does not reveal still opens */
	fd = open_clock(0);
	EXPECT_LE(0, fd);
	close(fd);
}

TEST_HARNESS_MAIN
