// SPDX-License-Identifier: GPL-2.0
/*
 * The memory-lock accounting of ring-buffer mappings, as an unprivileged
 * user (uid 65534) sees it: each user may map perf_event_mlock_kb times the
 * number of online CPUs; pages beyond that share are charged to the
 * process's pinned memory (VmPin), which RLIMIT_MEMLOCK bounds; past both,
 * mmap fails with EPERM, unless perf_event_paranoid is -1.  Needs root to
 * set the sysctls; their old values are restored afterwards.
 */
#include <grp.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "perf_helpers.h"
#include "../kselftest_harness.h"

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define MLOCK_KB	"/proc/sys/kernel/perf_event_mlock_kb"
#define NOBODY		65534

FIXTURE(mlock) {
	long saved_paranoid;
	long saved_mlock_kb;
	long page;
	long share;		/* pages each user may map beyond RLIMIT */
	int big;		/* data pages of a mapping over the share */
};

FIXTURE_SETUP(mlock)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (geteuid() != 0)
		SKIP(return, "needs root to set the sysctls");
	ASSERT_EQ(0, read_int_file(PARANOID, &self->saved_paranoid));
	ASSERT_EQ(0, read_int_file(MLOCK_KB, &self->saved_mlock_kb));
	self->page = sysconf(_SC_PAGESIZE);
	/* a share of one page per online CPU */
	ASSERT_EQ(0, write_int_file(MLOCK_KB, self->page / 1024));
	ASSERT_EQ(0, write_int_file(PARANOID, 1));
	self->share = cpus;
	/* the smallest 1 + 2^n pages over the share */
	for (self->big = 1; 1 + self->big <= self->share; self->big *= 2)
		;
}

FIXTURE_TEARDOWN_PARENT(mlock)
{
	if (geteuid() == 0) {
		write_int_file(MLOCK_KB, self->saved_mlock_kb);
		write_int_file(PARANOID, self->saved_paranoid);
	}
}

/* The VmPin of /proc/self/status, in kB; -1 if absent. */
static long vm_pin_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f;

	f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* Map 1 + @data_pages pages of a new event; the mapping, or NULL (errno). */
static void *map_new(long page, int data_pages, int *fdp)
{
	void *p;
	int fd;

	fd = open_sw(PERF_COUNT_SW_DUMMY, 0, -1, 0);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	p = mmap(NULL, (1 + data_pages) * page, PROT_READ | PROT_WRITE,
		 MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		int err = errno;

		close(fd);
		errno = err;
		return NULL;
	}
	*fdp = fd;
	return p;
}

/*
 * Drop to nobody with RLIMIT_MEMLOCK of @rlimit_pages: returns 0 in the
 * child, the child's pid in the parent.  A child that cannot drop exits
 * with 255.
 */
static pid_t fork_nobody(long page, long rlimit_pages)
{
	struct rlimit rl = {
		.rlim_cur = rlimit_pages * page,
		.rlim_max = rlimit_pages * page,
	};
	pid_t pid = fork();

	if (pid == 0 && (setrlimit(RLIMIT_MEMLOCK, &rl) || setgroups(0, NULL) ||
			 setgid(NOBODY) || setuid(NOBODY)))
		_exit(255);
	return pid;
}

/* The child's exit status: 0 when it saw what it should. */
static int wait_child(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Over the share, with no RLIMIT_MEMLOCK to take the rest: EPERM. */
TEST_F(mlock, over_share_eperm)
{
	pid_t pid = fork_nobody(self->page, 0);
	int fd;

	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (map_new(self->page, self->big, &fd) || errno != EPERM)
			_exit(1);
		/* within the share, the same user maps fine */
		if (!map_new(self->page, 0, &fd))
			_exit(2);
		_exit(0);
	}
	EXPECT_EQ(0, wait_child(pid));
}

/*
 * RLIMIT_MEMLOCK takes what the share does not: the extra pages show as
 * VmPin; a second mapping finds both used up.  munmap gives it all back.
 */
TEST_F(mlock, rlimit_takes_the_rest)
{
	long extra = 1 + self->big - self->share;
	pid_t pid = fork_nobody(self->page, extra);
	void *p;
	int fd, fd2;

	ASSERT_LE(0, pid);
	if (pid == 0) {
		long pin0 = vm_pin_kb();

		p = map_new(self->page, self->big, &fd);
		if (!p)
			_exit(1);
		if (vm_pin_kb() != pin0 + extra * self->page / 1024)
			_exit(2);
		if (map_new(self->page, 1, &fd2) || errno != EPERM)
			_exit(3);
		munmap(p, (1 + self->big) * self->page);
		if (vm_pin_kb() != pin0)
			_exit(4);
		/* the share is free again */
		p = map_new(self->page, self->big, &fd);
		if (!p)
			_exit(5);
		_exit(0);
	}
	EXPECT_EQ(0, wait_child(pid));
}

/* At perf_event_paranoid -1 the memory-lock limits do not apply. */
TEST_F(mlock, paranoid_minus_1_no_limit)
{
	pid_t pid;
	int fd;

	ASSERT_EQ(0, write_int_file(PARANOID, -1));
	pid = fork_nobody(self->page, 0);
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (!map_new(self->page, self->big, &fd))
			_exit(1);
		_exit(0);
	}
	EXPECT_EQ(0, wait_child(pid));
}

TEST_HARNESS_MAIN
