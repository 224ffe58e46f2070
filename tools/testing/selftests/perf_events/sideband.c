// SPDX-License-Identifier: GPL-2.0
/*
 * Side-band records on a dummy event: PERF_RECORD_COMM (prctl and exec),
 * FORK and EXIT (with inherit), MMAP and MMAP2 for code and data mappings,
 * each with the sample_id trailer of attr.sample_id_all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"
#include "perf_records.h"

#define PAGE		((size_t)sysconf(_SC_PAGESIZE))
#define REC_MAX		8192
#define ID_TYPE		(PERF_SAMPLE_TID | PERF_SAMPLE_IDENTIFIER)

/*
 * A dummy event on the caller that asks for @what records.  Inherited
 * events are bound to CPU 0 (with the caller pinned there): a task event
 * that is inherited cannot have a buffer.
 */
static int open_dummy(void (*what)(struct perf_event_attr *attr))
{
	struct perf_event_attr attr;
	int cpu = -1;

	sw_attr(&attr, PERF_COUNT_SW_DUMMY);
	attr.sample_type = ID_TYPE;
	attr.sample_id_all = 1;
	what(&attr);
	if (attr.inherit) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(0, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			return -1;
		cpu = 0;
	}
	return sys_perf_event_open(&attr, 0, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* The next record of @type, or NULL. */
static struct perf_event_header *next_of(struct perf_map *m, uint32_t type,
					 uint64_t *buf)
{
	struct perf_event_header *h;

	while ((h = perf_map_next(m, buf, REC_MAX)))
		if (h->type == type)
			return h;
	return NULL;
}

/* The next MMAP or MMAP2 record of the mapping at @addr, or NULL. */
static struct perf_event_header *next_map(struct perf_map *m, uint32_t type,
					  uint64_t *buf, void *addr)
{
	struct perf_event_header *h;

	while ((h = next_of(m, type, buf)))
		if (buf[2] == (uintptr_t)addr)
			return h;
	return NULL;
}

/* The sample_id trailer: pid/tid, then the identifier. */
static void check_id(struct __test_metadata *_metadata,
		     struct perf_event_header *h, uint64_t id, pid_t pid)
{
	uint64_t *tail = (uint64_t *)((char *)h + h->size) - 2;

	EXPECT_EQ((uint32_t)tail[0], pid);
	EXPECT_EQ(tail[1], id);
}

static void want_comm(struct perf_event_attr *a) { a->comm = 1; }
static void want_task(struct perf_event_attr *a) { a->task = 1; a->inherit = 1; }
static void want_mmap(struct perf_event_attr *a) { a->mmap = 1; }
static void want_mmap2(struct perf_event_attr *a) { a->mmap = 1; a->mmap2 = 1; }
static void want_mmap_data(struct perf_event_attr *a) { a->mmap_data = 1; }

TEST(comm_on_prctl)
{
	uint64_t buf[REC_MAX / 8], id;
	struct perf_event_header *h;
	struct perf_map m;
	char old[16];
	int fd;

	fd = open_dummy(want_comm);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ID, &id), 0);
	ASSERT_EQ(perf_map_open(&m, fd, 2, PROT_READ | PROT_WRITE), 0);
	prctl(PR_GET_NAME, old);
	ASSERT_EQ(prctl(PR_SET_NAME, "sb-comm-test"), 0);
	prctl(PR_SET_NAME, old);
	h = next_of(&m, PERF_RECORD_COMM, buf);
	ASSERT_NE(h, NULL);
	EXPECT_EQ(h->misc & PERF_RECORD_MISC_COMM_EXEC, 0);
	/* pid, tid, "sb-comm-test\0" padded to 16, then the id trailer */
	EXPECT_EQ(h->size, 8 + 8 + 16 + 16);
	EXPECT_EQ((uint32_t)buf[1], getpid());
	EXPECT_EQ((uint32_t)(buf[1] >> 32), gettid());
	EXPECT_STREQ((char *)&buf[2], "sb-comm-test");
	check_id(_metadata, h, id, getpid());
	perf_map_close(&m);
	close(fd);
}

TEST(fork_and_exit)
{
	uint64_t buf[REC_MAX / 8], id;
	struct perf_event_header *h;
	struct perf_map m;
	int fd, status;
	pid_t pid;

	fd = open_dummy(want_task);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ID, &id), 0);
	ASSERT_EQ(perf_map_open(&m, fd, 4, PROT_READ | PROT_WRITE), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(0);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);

	h = next_of(&m, PERF_RECORD_FORK, buf);
	ASSERT_NE(h, NULL);
	EXPECT_EQ(h->size, 8 + 24 + 16);
	EXPECT_EQ((uint32_t)buf[1], pid);		/* pid */
	EXPECT_EQ((uint32_t)(buf[1] >> 32), getpid());	/* ppid */
	EXPECT_EQ((uint32_t)buf[2], pid);		/* tid */
	EXPECT_EQ((uint32_t)(buf[2] >> 32), getpid());	/* ptid */
	EXPECT_NE(buf[3], 0);				/* time */

	h = next_of(&m, PERF_RECORD_EXIT, buf);
	ASSERT_NE(h, NULL);
	EXPECT_EQ(h->size, 8 + 24 + 16);
	EXPECT_EQ((uint32_t)buf[1], pid);
	EXPECT_EQ((uint32_t)(buf[1] >> 32), getpid());
	/* the child's clone of the event wrote it, with the parent's id */
	check_id(_metadata, h, id, pid);
	perf_map_close(&m);
	close(fd);
}

/* Map our own executable: code for MMAP, with its file and offset. */
static void *map_self(int *fdp, off_t *size)
{
	struct stat st;
	void *p;

	*fdp = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (*fdp < 0 || fstat(*fdp, &st))
		return MAP_FAILED;
	*size = st.st_size < (off_t)(2 * PAGE) ? st.st_size : 2 * PAGE;
	p = mmap(NULL, *size, PROT_READ | PROT_EXEC, MAP_PRIVATE, *fdp, 0);
	return p;
}

static const char *exe_name(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);

	buf[n < 0 ? 0 : n] = 0;
	return buf;
}

TEST(mmap_of_code)
{
	uint64_t buf[REC_MAX / 8], id;
	struct perf_event_header *h;
	struct perf_map m;
	char name[4096];
	int fd, file;
	off_t size;
	void *p;

	fd = open_dummy(want_mmap);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ID, &id), 0);
	ASSERT_EQ(perf_map_open(&m, fd, 4, PROT_READ | PROT_WRITE), 0);
	p = map_self(&file, &size);
	ASSERT_NE(p, MAP_FAILED);
	h = next_map(&m, PERF_RECORD_MMAP, buf, p);
	ASSERT_NE(h, NULL);
	EXPECT_EQ(h->misc, PERF_RECORD_MISC_USER);
	EXPECT_EQ((uint32_t)buf[1], getpid());
	EXPECT_EQ(buf[2], (uintptr_t)p);		/* addr */
	EXPECT_EQ(buf[3], (size + PAGE - 1) & ~(PAGE - 1));	/* len */
	EXPECT_EQ(buf[4], 0);				/* pgoff */
	EXPECT_STREQ((char *)&buf[5], exe_name(name, sizeof(name)));
	check_id(_metadata, h, id, getpid());
	munmap(p, size);
	close(file);
	perf_map_close(&m);
	close(fd);
}

TEST(mmap2_of_code)
{
	uint64_t buf[REC_MAX / 8];
	struct perf_event_header *h;
	struct perf_map m;
	char name[4096];
	struct stat st;
	int fd, file;
	off_t size;
	void *p;

	fd = open_dummy(want_mmap2);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 4, PROT_READ | PROT_WRITE), 0);
	p = map_self(&file, &size);
	ASSERT_NE(p, MAP_FAILED);
	ASSERT_EQ(fstat(file, &st), 0);
	h = next_map(&m, PERF_RECORD_MMAP2, buf, p);
	ASSERT_NE(h, NULL);
	EXPECT_EQ(buf[2], (uintptr_t)p);
	EXPECT_EQ(buf[4], 0);
	EXPECT_EQ(major(st.st_dev), (uint32_t)buf[5]);
	EXPECT_EQ(minor(st.st_dev), (uint32_t)(buf[5] >> 32));
	EXPECT_EQ(buf[6], st.st_ino);
	EXPECT_EQ((uint32_t)buf[8], PROT_READ | PROT_EXEC);
	EXPECT_EQ((uint32_t)(buf[8] >> 32), MAP_PRIVATE);
	EXPECT_STREQ((char *)&buf[9], exe_name(name, sizeof(name)));
	munmap(p, size);
	close(file);
	perf_map_close(&m);
	close(fd);
}

TEST(mmap_data_anon)
{
	uint64_t buf[REC_MAX / 8];
	struct perf_event_header *h;
	struct perf_map m;
	int fd;
	void *p;

	fd = open_dummy(want_mmap_data);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 4, PROT_READ | PROT_WRITE), 0);
	p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(p, MAP_FAILED);
	h = next_map(&m, PERF_RECORD_MMAP, buf, p);
	ASSERT_NE(h, NULL);
	EXPECT_EQ(h->misc, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA);
	EXPECT_EQ(buf[2], (uintptr_t)p);
	EXPECT_EQ(buf[3], 3 * PAGE);
	EXPECT_STREQ((char *)&buf[5], "//anon");
	munmap(p, 3 * PAGE);
	perf_map_close(&m);
	close(fd);
}

TEST_HARNESS_MAIN
