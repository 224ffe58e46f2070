// SPDX-License-Identifier: GPL-2.0
/*
 * The perf_event security fixes of the last decade as regression tests:
 * each case builds the trigger of a published bug class, from its
 * description, and asserts the answer of a fixed kernel.  Races repeat
 * for a bounded time; what KASAN and lockdep say in the kernel log of a
 * debug kernel (make check DEBUG=1) is the other half of the verdict.
 * Documentation/perf-core/security.rst maps each class to the code that
 * prevents it.  Software events only.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "perf_helpers.h"
#include "perf_records.h"
#include "../kselftest_harness.h"

#define NOBODY		65534
#define RACE_NS		2000000000ULL

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int open_errno(struct perf_event_attr *attr, int group)
{
	int fd = sys_perf_event_open(attr, 0, -1, group, 0);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/*
 * CVE-2013-2094: a software event's config was checked as a signed int
 * and then used as an array index, so a large 64-bit config wrote outside
 * the array.  Every config past the last software event is ENOENT, for
 * an unprivileged caller as for root.
 */
TEST(sw_config_as_index)
{
	static const __u64 configs[] = {
		PERF_COUNT_SW_MAX, 0x7fffffff, 0x80000000, 0xffffffff,
		1ULL << 32, 0xffffffff00000000ULL, 1ULL << 63, ~0ULL,
	};
	struct perf_event_attr attr;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(configs); i++) {
		sw_attr(&attr, configs[i]);
		EXPECT_EQ(ENOENT, open_errno(&attr, -1))
			TH_LOG("config %#llx", (unsigned long long)configs[i]);
	}
}

/*
 * perf_copy_attr: the attr is copied by the size user space claims.  An
 * attr that ends at the end of a mapping is read whole and no further; a
 * claimed size that runs past it faults (EFAULT), one larger than a page
 * is E2BIG with the kernel's size written back.
 */
TEST(attr_copy_at_page_end)
{
	size_t page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr *attr;
	char *map;

	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, mprotect(map + page, page, PROT_NONE));
	attr = (void *)(map + page - sizeof(*attr));
	sw_attr(attr, PERF_COUNT_SW_TASK_CLOCK);
	EXPECT_EQ(0, open_errno(attr, -1));
	/* a size past the end: the zero check of the tail faults */
	attr->size = sizeof(*attr) + 64;
	EXPECT_EQ(EFAULT, open_errno(attr, -1));
	attr->size = page + 1;
	EXPECT_EQ(E2BIG, open_errno(attr, -1));
	EXPECT_EQ(sizeof(*attr), attr->size);
	munmap(map, 2 * page);
}

struct size_flip {
	struct perf_event_attr *attr;
	int stop;
};

static void *flip_size(void *arg)
{
	struct size_flip *f = arg;
	unsigned int i = 0;

	while (!__atomic_load_n(&f->stop, __ATOMIC_ACQUIRE)) {
		static const __u32 sizes[] = { PERF_ATTR_SIZE_VER0, 4096,
					       4097, 0, 1 };

		__atomic_store_n(&f->attr->size, sizes[i++ % 5],
				 __ATOMIC_RELAXED);
	}
	return NULL;
}

/*
 * The attr's size field read twice (a double fetch): another thread
 * changes it while the kernel copies.  Every open ends with an fd or
 * E2BIG, and the event opened is one the first read allowed.
 */
TEST(attr_size_double_fetch)
{
	struct perf_event_attr *attr = calloc(1, 4096 + 8);
	uint64_t start = now_ns();
	struct size_flip f = { .attr = attr };
	pthread_t thread;
	int ok = 0, big = 0, other = 0, fd;

	sw_attr(attr, PERF_COUNT_SW_TASK_CLOCK);
	ASSERT_EQ(0, pthread_create(&thread, NULL, flip_size, &f));
	while (now_ns() - start < RACE_NS / 4) {
		fd = sys_perf_event_open(attr, 0, -1, -1, 0);
		if (fd >= 0) {
			ok++;
			close(fd);
		} else if (errno == E2BIG) {
			big++;
		} else {
			other++;
			TH_LOG("errno %s", strerror(errno));
		}
	}
	__atomic_store_n(&f.stop, 1, __ATOMIC_RELEASE);
	pthread_join(thread, NULL);
	free(attr);
	TH_LOG("%d opened, %d E2BIG", ok, big);
	EXPECT_EQ(0, other);
	EXPECT_LT(0, ok + big);
}

/*
 * CVE-2023-5717: an inherited group's members were counted apart from
 * the group its children copied, so read() wrote more entries than the
 * size it had checked.  Members added after the fork are not the
 * child's.  While the child lives, a read of the group (through any
 * member) is ECHILD; once it is gone, the read has exactly the parent's
 * members, the child's counts folded in.
 */
TEST(inherited_group_read_size)
{
	const __u64 fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	struct perf_event_attr attr;
	uint64_t buf[64];
	int fds[6], go[2], status, i;
	ssize_t n;
	pid_t pid;
	char c;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = 1;
	attr.read_format = fmt;
	fds[0] = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fds[0]);
	fds[1] = sys_perf_event_open(&attr, 0, -1, fds[0], 0);
	ASSERT_LE(0, fds[1]);
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(go[1]);
		burn(5);
		(void)!read(go[0], &c, 1);
		burn(5);
		_exit(0);
	}
	close(go[0]);
	/* the group grows after the child copied it */
	for (i = 2; i < 6; i++) {
		fds[i] = sys_perf_event_open(&attr, 0, -1, fds[0], 0);
		ASSERT_LE(0, fds[i]);
	}
	/* the child's clones count another group: no read of this one */
	n = read(fds[0], buf, sizeof(buf));
	EXPECT_EQ(-1, n);
	EXPECT_EQ(ECHILD, errno);
	n = read(fds[4], buf, sizeof(buf));
	EXPECT_EQ(-1, n);
	EXPECT_EQ(ECHILD, errno);
	close(go[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(8 * (1 + 2 * 6), read(fds[0], buf, sizeof(buf)));
	EXPECT_EQ(6, buf[0]);
	/* the child's 10 ms of task-clock reached the two it had */
	EXPECT_LT(5000000, buf[1]);
	/* a short buffer is ENOSPC, never a partial group */
	EXPECT_EQ(-1, read(fds[0], buf, 8 * (2 * 6)));
	EXPECT_EQ(ENOSPC, errno);
	for (i = 0; i < 6; i++)
		close(fds[i]);
}

/*
 * A ring's mapping is one piece: unmapping or protecting part of it
 * (which would split the vma and leave two closes for one open) fails,
 * and the ring goes on working whole.
 */
TEST(ring_vma_split)
{
	size_t page = sysconf(_SC_PAGESIZE);
	char *ring;
	int fd;

	fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, 1);
	ASSERT_LE(0, fd);
	ring = mmap(NULL, 5 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, ring);
	EXPECT_EQ(-1, munmap(ring + 2 * page, page));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, mprotect(ring + page, page, PROT_READ));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mremap(ring, 5 * page, 3 * page, 0));
	/* still whole: the user page reads, the data pages too */
	EXPECT_EQ(0, ((struct perf_event_mmap_page *)ring)->data_tail);
	EXPECT_EQ(0, ring[4 * page]);
	EXPECT_EQ(0, munmap(ring, 5 * page));
	close(fd);
}

struct map_race {
	int fd;
	size_t len;
	int stop;
	int maps, fails;
};

static void *map_loop(void *arg)
{
	struct map_race *r = arg;
	void *p;

	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		p = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED,
			 r->fd, 0);
		if (p == MAP_FAILED) {
			__atomic_add_fetch(&r->fails, 1, __ATOMIC_RELAXED);
			continue;
		}
		__atomic_add_fetch(&r->maps, 1, __ATOMIC_RELAXED);
		munmap(p, r->len);
	}
	return NULL;
}

/*
 * CVE-2020-14351: the last munmap of a ring raced a new mmap of it, and
 * the memory-lock charge was taken back twice or never.  Two threads map
 * and unmap one event's ring for a while, as an unprivileged user; then
 * the user's whole allowance must still be there to map (a leaked charge
 * makes that EPERM) and nothing more (a double uncharge would let it map
 * twice the allowance).
 */
static int mmap_race_child(void)
{
	size_t page = sysconf(_SC_PAGESIZE);
	struct map_race r = { 0 };
	uint64_t start = now_ns();
	pthread_t t1, t2;
	int fds[64], n, i, err;
	void *maps[64];
	long kb = 0;
	size_t pages;

	if (read_int_file("/proc/sys/kernel/perf_event_mlock_kb", &kb))
		return 100;
	/* the allowance of one CPU: a power of two of data pages, plus one */
	pages = 1;
	while ((pages * 2 + 1) * page / 1024 <= (size_t)kb)
		pages *= 2;
	r.fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1, 1);
	if (r.fd < 0)
		return 101;
	r.len = (1 + pages) * page;
	pthread_create(&t1, NULL, map_loop, &r);
	pthread_create(&t2, NULL, map_loop, &r);
	while (now_ns() - start < RACE_NS)
		usleep(10000);
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	close(r.fd);
	if (!r.maps)
		return 102;
	/*
	 * The allowance is one such ring per online CPU: map rings until
	 * refused; a leaked charge maps fewer, a double uncharge more.
	 */
	for (n = 0; n < 64; n++) {
		fds[n] = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1, 1);
		maps[n] = mmap(NULL, r.len, PROT_READ, MAP_SHARED, fds[n], 0);
		if (maps[n] == MAP_FAILED)
			break;
	}
	err = errno;
	for (i = 0; i <= n && i < 64; i++) {
		if (i < n)
			munmap(maps[i], r.len);
		close(fds[i]);
	}
	if (err != EPERM)
		return 104;
	return n == sysconf(_SC_NPROCESSORS_ONLN) ? 0 : 110 + n;
}

TEST(mmap_vs_munmap_accounting)
{
	struct rlimit rl = { 0, 0 };
	long paranoid = 2;
	int status;
	pid_t pid;

	if (geteuid() != 0)
		SKIP(return, "needs root to drop to nobody");
	read_int_file("/proc/sys/kernel/perf_event_paranoid", &paranoid);
	ASSERT_EQ(0, write_int_file("/proc/sys/kernel/perf_event_paranoid", 2));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* no RLIMIT_MEMLOCK: only the perf allowance can be used */
		if (setrlimit(RLIMIT_MEMLOCK, &rl) || setgroups(0, NULL) ||
		    setgid(NOBODY) || setuid(NOBODY))
			_exit(99);
		_exit(mmap_race_child());
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	write_int_file("/proc/sys/kernel/perf_event_paranoid", paranoid);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
