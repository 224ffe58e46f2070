// SPDX-License-Identifier: GPL-2.0
/*
 * attr.inherit: events follow the tasks created after them.  The parent
 * event reports what its children counted, while they run and after they
 * exit; inherit_thread limits inheritance to threads; enable/disable on the
 * parent reaches the children; closing the parent with live children is
 * safe.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define MS	1000000LL

static int open_clock(int inherit, int inherit_thread, int group,
		      __u64 read_format)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = inherit;
	attr.inherit_thread = inherit_thread;
	attr.read_format = read_format;
	fd = sys_perf_event_open(&attr, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Fork a child that burns @ms, then waits for a byte on @go (if >= 0). */
static pid_t burning_child(int ms, int ready, int go)
{
	pid_t pid = fork();
	char c = 0;

	if (pid)
		return pid;
	burn(ms);
	if (ready >= 0 && write(ready, &c, 1) != 1)
		_exit(1);
	if (go >= 0 && read(go, &c, 1) != 1)
		_exit(1);
	_exit(0);
}

TEST(children_fold_into_parent)
{
	int fd, plain, i;
	int64_t own;

	fd = open_clock(1, 0, -1, 0);
	if (fd == -EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, fd);
	plain = open_clock(0, 0, -1, 0);
	ASSERT_LE(0, plain);
	for (i = 0; i < 3; i++) {
		pid_t pid = burning_child(30, -1, -1);

		ASSERT_LT(0, pid);
		ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	}
	/*
	 * Three children of 30 ms each, on top of what the parent itself
	 * spent (fork and wait, slow on a debug kernel): measured against
	 * the parent's own count, not against a bound of time.
	 */
	own = read_count(plain);
	EXPECT_LE(85 * MS, read_count(fd) - own);
	close(plain);
	close(fd);
}

TEST(live_child_is_counted)
{
	int fd, ready[2], go[2];
	int64_t live, final;
	char c = 0;
	pid_t pid;

	fd = open_clock(1, 0, -1, 0);
	if (fd == -EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	pid = burning_child(40, ready[1], go[0]);
	ASSERT_LT(0, pid);
	ASSERT_EQ(1, read(ready[0], &c, 1));
	live = read_count(fd);
	EXPECT_LT(30 * MS, live);
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	final = read_count(fd);
	EXPECT_LE(live, final);
	close(fd);
}

static void *thread_burn(void *arg)
{
	burn(30);
	return NULL;
}

/*
 * inherit_thread: a new thread is counted, a new process is not.  What the
 * event counts beyond a plain event of the parent is compared, not the
 * parent's own time (fork and wait are slow on debug kernels).
 */
TEST(inherit_thread_skips_processes)
{
	int64_t a, b, own_a, own_b, own;
	pthread_t thread;
	int fd, plain;
	pid_t pid;

	fd = open_clock(1, 1, -1, 0);
	if (fd == -EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, fd);
	plain = open_clock(0, 0, -1, 0);
	ASSERT_LE(0, plain);
	pid = burning_child(30, -1, -1);
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	own_a = read_count(plain);
	a = read_count(fd);
	EXPECT_GT(20 * MS, a - own_a);
	ASSERT_EQ(0, pthread_create(&thread, NULL, thread_burn, NULL));
	ASSERT_EQ(0, pthread_join(thread, NULL));
	own_b = read_count(plain);
	b = read_count(fd);
	own = own_b - own_a;
	EXPECT_LT(20 * MS, (b - a) - own);
	close(plain);
	close(fd);
}

TEST(disable_reaches_children)
{
	int fd, go;
	int64_t off;
	pid_t pid;

	fd = open_clock(1, 0, -1, 0);
	if (fd == -EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, fd);
	/* the child waits first, then burns after the parent disabled */
	pid = fork_held(&go);
	ASSERT_LE(0, pid);
	if (pid == 0) {
		burn(40);
		_exit(0);
	}
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	off = read_count(fd);
	ASSERT_EQ(0, release_child(go));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	EXPECT_GT(off + 10 * MS, read_count(fd));
	close(fd);
}

TEST(group_read_includes_children)
{
	uint64_t v[1 + 2 * 2];
	int lead, sib;
	pid_t pid;

	lead = open_clock(1, 0, -1, PERF_FORMAT_GROUP | PERF_FORMAT_ID);
	if (lead == -EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, lead);
	sib = open_clock(1, 0, lead, PERF_FORMAT_GROUP | PERF_FORMAT_ID);
	ASSERT_LE(0, sib);
	pid = burning_child(30, -1, -1);
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	ASSERT_EQ(sizeof(v), read(lead, v, sizeof(v)));
	EXPECT_EQ(2, v[0]);
	EXPECT_LT(20 * MS, (int64_t)v[1]);
	EXPECT_LT(20 * MS, (int64_t)v[3]);
	close(sib);
	close(lead);
}

TEST(close_parent_with_live_child)
{
	int fd, ready[2], go[2];
	char c = 0;
	pid_t pid;

	fd = open_clock(1, 0, -1, 0);
	if (fd == -EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	pid = burning_child(10, ready[1], go[0]);
	ASSERT_LT(0, pid);
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ(0, close(fd));
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));
	/* and the next one works as usual */
	fd = open_clock(1, 0, -1, 0);
	ASSERT_LE(0, fd);
	close(fd);
}

TEST_HARNESS_MAIN
