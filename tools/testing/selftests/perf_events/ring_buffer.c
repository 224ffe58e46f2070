// SPDX-License-Identifier: GPL-2.0
/*
 * The mmap ring buffer: sizes and their errors, the user page, records
 * that wrap the end of the buffer, data_tail and PERF_RECORD_LOST, a user
 * page overwritten by its reader, zeroed pages and records going around
 * a small buffer and one of 8 MiB,
 * overwrite and write_backward buffers, SET_OUTPUT and PAUSE_OUTPUT.
 * Samples come from the page-faults software event, one per page touched.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"
#include "perf_records.h"

#define PAGE		((size_t)sysconf(_SC_PAGESIZE))
#define REC_MAX		4096

/* A page-fault event sampling every fault, enabled. */
static int open_faults(uint64_t sample_type, int write_backward)
{
	struct perf_event_attr attr;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = sample_type;
	attr.write_backward = write_backward;
	return sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static int count_type(struct perf_map *m, uint32_t type, uint64_t *lost)
{
	uint64_t buf[REC_MAX / 8];
	struct perf_event_header *h;
	int n = 0;

	while ((h = perf_map_next(m, buf, sizeof(buf)))) {
		if (h->type == type)
			n++;
		if (h->type == PERF_RECORD_LOST && lost)
			*lost += buf[2];
	}
	return n;
}

TEST(mmap_sizes)
{
	int fd = open_faults(PERF_SAMPLE_IP, 0);
	void *p;

	ASSERT_GE(fd, 0);
	/* 1 + 2^n pages, the user page alone included */
	for (int pages = 1; pages <= 17; pages++) {
		int data = pages - 1;
		bool ok = data == 0 || !(data & (data - 1));

		p = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
			 MAP_SHARED, fd, 0);
		if (ok) {
			ASSERT_NE(p, MAP_FAILED) TH_LOG("%d pages", pages);
			munmap(p, pages * PAGE);
		} else {
			ASSERT_EQ(p, MAP_FAILED) TH_LOG("%d pages", pages);
			ASSERT_EQ(errno, EINVAL);
		}
	}
	/* a private mapping cannot share the buffer */
	p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	ASSERT_EQ(p, MAP_FAILED);
	ASSERT_EQ(errno, EINVAL);
	close(fd);
}

/* An inherited task event has no buffer: its children cannot share one. */
TEST(no_mmap_of_inherited_task_event)
{
	struct perf_event_attr attr;
	void *p;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT_EQ(p, MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);
	close(fd);
	/* bound to a CPU, it may */
	fd = sys_perf_event_open(&attr, 0, 0, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(p, MAP_FAILED);
	munmap(p, 3 * PAGE);
	close(fd);
}

TEST(second_mapping_must_match)
{
	int fd = open_faults(PERF_SAMPLE_IP, 0);
	void *a, *b;

	ASSERT_GE(fd, 0);
	a = mmap(NULL, 5 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(a, MAP_FAILED);
	b = mmap(NULL, 5 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(b, MAP_FAILED);
	/* both map the same buffer */
	((struct perf_event_mmap_page *)a)->data_tail = 1234;
	ASSERT_EQ(((struct perf_event_mmap_page *)b)->data_tail, 1234);
	munmap(b, 5 * PAGE);
	b = mmap(NULL, 9 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_EQ(b, MAP_FAILED);
	ASSERT_EQ(errno, EINVAL);
	munmap(a, 5 * PAGE);
	close(fd);
}

TEST(user_page_fields)
{
	int fd = open_faults(PERF_SAMPLE_IP, 0);
	struct perf_map m;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 4, PROT_READ | PROT_WRITE), 0);
	EXPECT_EQ(m.page->version, 0);
	EXPECT_EQ(m.page->compat_version, 0);
	EXPECT_EQ(m.page->data_offset, PAGE);
	EXPECT_EQ(m.page->data_size, 4 * PAGE);
	EXPECT_EQ((int)m.page->cap_bit0_is_deprecated, 1);
	EXPECT_EQ((int)m.page->cap_bit0, 0);
	/* software events cannot be read from user space */
	EXPECT_EQ(m.page->index, 0);
	touch_pages(3);
	EXPECT_GT(perf_map_head(&m), 0);
	EXPECT_EQ(perf_map_head(&m) % 8, 0);
	perf_map_close(&m);
	close(fd);
}

/* Records of any size wrap the data area's end intact. */
TEST(records_wrap)
{
	uint64_t type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
			PERF_SAMPLE_PERIOD | PERF_SAMPLE_IDENTIFIER;
	uint64_t buf[REC_MAX / 8], id;
	struct perf_event_header *h;
	struct perf_sample s;
	struct perf_map m;
	int fd, seen = 0;

	fd = open_faults(type, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ID, &id), 0);
	ASSERT_EQ(perf_map_open(&m, fd, 1, PROT_READ | PROT_WRITE), 0);
	/* go around the one-page buffer several times, consuming as we go */
	for (int round = 0; round < 40; round++) {
		touch_pages(8);
		while ((h = perf_map_next(&m, buf, sizeof(buf)))) {
			if (h->type != PERF_RECORD_SAMPLE)
				continue;
			perf_sample_parse(h, type, 0, 1, &s);
			ASSERT_EQ(h->size, 8 + 5 * 8);
			ASSERT_EQ(s.identifier, id);
			ASSERT_EQ(s.pid, getpid());
			ASSERT_EQ(s.period, 1);
			ASSERT_NE(s.addr, 0);
			seen++;
		}
		perf_map_consume(&m);
	}
	EXPECT_GE(seen, 40 * 8);
	EXPECT_GT(m.tail, m.data_size * 2);
	perf_map_close(&m);
	close(fd);
}

/*
 * Unconsumed data is never overwritten: what does not fit is lost, and a
 * PERF_RECORD_LOST with the count comes once there is room again.
 */
TEST(full_buffer_loses_and_reports)
{
	uint64_t type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR;
	uint64_t lost = 0, values[2];
	struct perf_event_attr attr;
	struct perf_map m;
	int fd, before, after;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = type;
	attr.read_format = PERF_FORMAT_LOST;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 1, PROT_READ | PROT_WRITE), 0);
	touch_pages(2 * PAGE / 32);
	/* the buffer holds whole records only, and never more than its size */
	EXPECT_LE(perf_map_head(&m), m.data_size);
	EXPECT_GT(perf_map_head(&m), m.data_size - 32);
	ASSERT_EQ(read(fd, values, sizeof(values)), sizeof(values));
	EXPECT_GT(values[1], 0);

	before = count_type(&m, PERF_RECORD_SAMPLE, &lost);
	EXPECT_EQ(lost, 0);
	perf_map_consume(&m);
	touch_pages(4);
	after = count_type(&m, PERF_RECORD_SAMPLE, &lost);
	EXPECT_GT(before, 0);
	EXPECT_GE(after, 4);
	/* every sample lost was counted (and maybe a few since the read) */
	EXPECT_GE(lost, values[1]);
	perf_map_close(&m);
	close(fd);
}

/*
 * 64-byte samples: a buffer of n of their size holds n - 1, for the buffer
 * is never filled to its last byte (a full one would look empty).
 */
#define REC64	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | \
		 PERF_SAMPLE_PERIOD | PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID | \
		 PERF_SAMPLE_STREAM_ID)

TEST(buffer_keeps_one_record_free)
{
	struct perf_map m;
	int fd = open_faults(REC64, 0);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 1, PROT_READ | PROT_WRITE), 0);
	touch_pages(2 * m.data_size / 64);
	EXPECT_EQ(perf_map_head(&m), m.data_size - 64);
	EXPECT_EQ(count_type(&m, PERF_RECORD_SAMPLE, NULL),
		  m.data_size / 64 - 1);
	perf_map_close(&m);
	close(fd);
}

/*
 * A reader that overwrites the whole user page with a byte pattern, as a
 * buggy or hostile one does, between batches of records.  The kernel
 * keeps its own head, takes of data_tail only its offset in the buffer
 * (the reader at most one buffer behind), writes whole records there and
 * nowhere else, and publishes data_head again with each.
 */
/* @n page faults with the (disabled) event @fd on for them alone */
static void faults_on(int fd, int n)
{
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	touch_pages(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}

TEST(scribbled_user_page)
{
	static const int patterns[] = { 0x55, 0x44, 0x00, 0xff, 0x80, 0x01 };
	const uint64_t rec = 8 + 3 * 8;	/* IP, ADDR, IDENTIFIER */
	uint64_t buf[REC_MAX / 8], values[2], fill, head0, head1, tail;
	uint64_t room, want, lost = 0, lost_before = 0;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	struct perf_map m;
	unsigned char *data, *before;
	size_t i, off;
	int fd, p, n;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |
			   PERF_SAMPLE_IDENTIFIER;
	attr.read_format = PERF_FORMAT_LOST;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 1, PROT_READ | PROT_WRITE), 0);
	data = m.data;
	before = malloc(m.data_size);
	ASSERT_NE(before, NULL);
	faults_on(fd, 3);
	for (p = 0; p < (int)ARRAY_SIZE(patterns); p++) {
		/* read up to data_head, and note what the data area holds */
		count_type(&m, PERF_RECORD_SAMPLE, NULL);
		head0 = perf_map_head(&m);
		ASSERT_EQ(m.tail, head0);
		memcpy(before, data, m.data_size);
		ASSERT_EQ(read(fd, values, sizeof(values)), sizeof(values));
		lost_before = values[1];

		memset(&fill, patterns[p], sizeof(fill));
		memset(m.page, patterns[p], PAGE);
		faults_on(fd, 4);

		/* the room the tail's offset leaves (one byte kept free) */
		tail = fill & (m.data_size - 1);
		room = m.data_size - 1 - ((head0 - tail) & (m.data_size - 1));
		want = room / rec < 4 ? room / rec : 4;
		head1 = __atomic_load_n(&m.page->data_head, __ATOMIC_ACQUIRE);
		/* no record: data_head is still the pattern */
		EXPECT_EQ(head1, want ? head0 + want * rec : fill);
		ASSERT_EQ(read(fd, values, sizeof(values)), sizeof(values));
		EXPECT_EQ(values[1] - lost_before, 4 - want);
		/* nothing written outside [head0, head1) */
		for (i = want * rec; i < m.data_size; i++) {
			off = (head0 + i) & (m.data_size - 1);
			if (data[off] != before[off]) {
				EXPECT_EQ(data[off], before[off])
					TH_LOG("pattern 0x%x: byte %zu written",
					       patterns[p], off);
				break;
			}
		}
		/* the records there are whole samples of ours */
		n = 0;
		m.tail = head0;
		if (want)
			while ((h = perf_map_next(&m, buf, sizeof(buf)))) {
				EXPECT_EQ(h->type, PERF_RECORD_SAMPLE);
				EXPECT_EQ(h->size, rec);
				n++;
			}
		EXPECT_EQ(n, want);
		/* the reader mends the page: it owns data_tail */
		m.tail = want ? head1 : head0;
		perf_map_consume(&m);
		if (want < 4) {
			/* the next records come, with a LOST before them */
			faults_on(fd, 2);
			EXPECT_EQ(count_type(&m, PERF_RECORD_SAMPLE, &lost), 2);
			EXPECT_GT(lost, 0);
			perf_map_consume(&m);
		}
	}
	free(before);
	perf_map_close(&m);
	close(fd);
}

static sigjmp_buf write_fault_env;
static int write_fault_sig;

static void write_fault(int sig)
{
	__atomic_store_n(&write_fault_sig, sig, __ATOMIC_RELAXED);
	siglongjmp(write_fault_env, 1);
}

/* The signal a write of one byte at @p (its own value) raises, or 0. */
static int write_signal(char *p)
{
	struct sigaction sa = { .sa_handler = write_fault }, old_bus, old_segv;

	__atomic_store_n(&write_fault_sig, 0, __ATOMIC_RELAXED);
	sigaction(SIGBUS, &sa, &old_bus);
	sigaction(SIGSEGV, &sa, &old_segv);
	if (!sigsetjmp(write_fault_env, 1))
		__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED),
				 __ATOMIC_RELAXED);
	sigaction(SIGBUS, &old_bus, NULL);
	sigaction(SIGSEGV, &old_segv, NULL);
	return __atomic_load_n(&write_fault_sig, __ATOMIC_RELAXED);
}

/*
 * Of a writable mapping only the user page is writable: a write to a data
 * page raises SIGBUS (the mapping is shared, so the mapping's own
 * protection does not say it).
 */
TEST(data_pages_read_only)
{
	struct perf_map m;
	int fd = open_faults(PERF_SAMPLE_IP, 0);
	char *d;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 2, PROT_READ | PROT_WRITE), 0);
	d = m.data;
	touch_pages(2);
	EXPECT_EQ(write_signal((char *)&m.page->data_tail), 0);
	EXPECT_EQ(write_signal(d), SIGBUS);
	EXPECT_EQ(write_signal(d + m.data_size - 1), SIGBUS);
	/* and reading them is fine */
	EXPECT_EQ(((struct perf_event_header *)d)->type, PERF_RECORD_SAMPLE);
	/* the user page's write right taken away and given back */
	ASSERT_EQ(mprotect(m.page, m.len, PROT_READ), 0);
	EXPECT_EQ(write_signal((char *)&m.page->data_tail), SIGSEGV);
	ASSERT_EQ(mprotect(m.page, m.len, PROT_READ | PROT_WRITE), 0);
	EXPECT_EQ(write_signal((char *)&m.page->data_tail), 0);
	EXPECT_EQ(write_signal(d), SIGBUS);
	perf_map_close(&m);
	close(fd);
}

/* Whether all @len bytes at @p are zero. */
static bool all_zero(const void *p, size_t len)
{
	const uint64_t *w = p;

	for (size_t i = 0; i < len / sizeof(*w); i++)
		if (w[i])
			return false;
	return true;
}

/*
 * A buffer's data pages come zeroed, and records go around the whole data
 * area and back, for a small buffer and for one of 8 MiB: more than the page
 * allocator hands out in one block, so a kernel may build the two
 * differently.  Samples of 60000 bytes of user stack fill the large one
 * in some 140 page faults.  Needs the locked-memory allowance of 8 MiB.
 */
static void ring_wraps(struct __test_metadata *_metadata, size_t bytes)
{
	static uint64_t buf[65536 / 8];
	struct perf_event_attr attr;
	struct perf_event_header *h;
	int fd, seen = 0, want;
	struct perf_map m;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_STACK_USER;
	attr.sample_stack_user = 60000;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	if (perf_map_open(&m, fd, bytes / PAGE, PROT_READ | PROT_WRITE)) {
		close(fd);
		SKIP(return, "no %zu-byte buffer here (locked-memory limit)",
		     bytes);
	}
	EXPECT_TRUE(all_zero(m.data, m.data_size));
	/* twice around the data area, consuming as we go */
	want = 2 * m.data_size / 60000 + 1;
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	while (seen < want) {
		touch_pages(4);
		while ((h = perf_map_next(&m, buf, sizeof(buf)))) {
			if (h->type != PERF_RECORD_SAMPLE)
				continue;
			/* header, pid/tid, size, 60000 bytes, dyn_size */
			ASSERT_EQ(h->size, 8 + 8 + 8 + 60000 + 8);
			ASSERT_EQ((uint32_t)buf[1], getpid());
			seen++;
		}
		perf_map_consume(&m);
	}
	EXPECT_GT(m.tail, 2 * m.data_size);
	perf_map_close(&m);
	close(fd);
}

TEST(small_ring_wraps)
{
	ring_wraps(_metadata, 128 * 1024);
}

TEST(large_ring_wraps)
{
	ring_wraps(_metadata, 8 << 20);
}

/* A read-only mapping is an overwrite buffer: data_tail is not honoured. */
TEST(overwrite_buffer)
{
	struct perf_map m;
	int fd = open_faults(PERF_SAMPLE_IP, 0);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 1, PROT_READ), 0);
	touch_pages(3 * PAGE / 16);
	EXPECT_GT(perf_map_head(&m), 2 * m.data_size);
	perf_map_close(&m);
	close(fd);
}

/* write_backward: data_head moves down from zero, records lie above it. */
TEST(backward_buffer)
{
	uint64_t head, buf[REC_MAX / 8];
	struct perf_event_header *h;
	struct perf_map m;
	int fd = open_faults(PERF_SAMPLE_IP | PERF_SAMPLE_ADDR, 1);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 2, PROT_READ), 0);
	touch_pages(10);
	head = perf_map_head(&m);
	ASSERT_GT(-head, 0);
	ASSERT_LT(-head, m.data_size);
	/* the newest record is at data_head, the oldest ends at 0 */
	h = (struct perf_event_header *)((char *)m.data +
					 head % m.data_size);
	memcpy(buf, h, sizeof(*h));
	h = (struct perf_event_header *)buf;
	EXPECT_EQ(h->type, PERF_RECORD_SAMPLE);
	EXPECT_EQ(h->size, 24);
	EXPECT_EQ(-head % 24, 0);
	perf_map_close(&m);
	close(fd);
}

TEST(set_output_redirects)
{
	uint64_t type = PERF_SAMPLE_ID, buf[REC_MAX / 8], id_a, id_b;
	struct perf_event_header *h;
	struct perf_map m;
	int a, b, c, seen_a = 0, seen_b = 0;

	a = open_faults(type, 0);
	/*
	 * b counts minor faults: two sampling events on one software hook
	 * would show stock's habit of reusing one sample's fields for the
	 * next event.
	 */
	b = open_faults(type, 0);
	close(b);
	{
		struct perf_event_attr attr;

		sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS_MIN);
		attr.sample_period = 1;
		attr.sample_type = type;
		b = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	ASSERT_GE(a, 0);
	ASSERT_GE(b, 0);
	ASSERT_EQ(ioctl(a, PERF_EVENT_IOC_ID, &id_a), 0);
	ASSERT_EQ(ioctl(b, PERF_EVENT_IOC_ID, &id_b), 0);
	/* the output needs a buffer */
	ASSERT_EQ(ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a), -1);
	ASSERT_EQ(errno, EINVAL);
	ASSERT_EQ(perf_map_open(&m, a, 4, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(a, PERF_EVENT_IOC_SET_OUTPUT, a), -1);
	ASSERT_EQ(errno, EINVAL);
	ASSERT_EQ(ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, 0), -1);
	ASSERT_EQ(errno, EBADF);
	ASSERT_EQ(ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a), 0);
	/* a mapped event cannot be redirected */
	ASSERT_EQ(ioctl(a, PERF_EVENT_IOC_SET_OUTPUT, b), -1);
	ASSERT_EQ(errno, EINVAL);
	/* nor can events of different CPUs or tasks share a buffer */
	c = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, 0, 0);
	ASSERT_GE(c, 0);
	ASSERT_EQ(ioctl(c, PERF_EVENT_IOC_SET_OUTPUT, a), -1);
	ASSERT_EQ(errno, EINVAL);
	close(c);

	touch_pages(5);
	while ((h = perf_map_next_type(&m, buf, sizeof(buf), PERF_RECORD_SAMPLE))) {
		seen_a += buf[1] == id_a;
		seen_b += buf[1] == id_b;
	}
	EXPECT_GE(seen_a, 5);
	EXPECT_GE(seen_b, 5);
	/* -1 (as a long: the argument is one) undoes the redirection */
	ASSERT_EQ(ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, -1L), 0);
	m.tail = perf_map_head(&m);
	touch_pages(5);
	seen_b = 0;
	while ((h = perf_map_next(&m, buf, sizeof(buf))))
		seen_b += h->type == PERF_RECORD_SAMPLE && buf[1] == id_b;
	EXPECT_EQ(seen_b, 0);
	perf_map_close(&m);
	close(a);
	close(b);
}

TEST(pause_output)
{
	struct perf_map m;
	uint64_t head;
	int fd = open_faults(PERF_SAMPLE_IP, 0);

	ASSERT_GE(fd, 0);
	/* no buffer, nothing to pause */
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1), -1);
	ASSERT_EQ(errno, EINVAL);
	ASSERT_EQ(perf_map_open(&m, fd, 2, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1), 0);
	head = perf_map_head(&m);
	touch_pages(5);
	EXPECT_EQ(perf_map_head(&m), head);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0), 0);
	touch_pages(5);
	EXPECT_GT(perf_map_head(&m), head);
	perf_map_close(&m);
	close(fd);
}

/* What is dropped while the output is paused counts in PERF_FORMAT_LOST. */
TEST(pause_output_counts_lost)
{
	struct perf_event_attr attr;
	struct perf_map m;
	uint64_t v[2];
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.read_format = PERF_FORMAT_LOST;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 2, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(read(fd, v, sizeof(v)), sizeof(v));
	EXPECT_EQ(v[1], 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1), 0);
	touch_pages(5);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0), 0);
	ASSERT_EQ(read(fd, v, sizeof(v)), sizeof(v));
	EXPECT_GE(v[1], 5);
	perf_map_close(&m);
	close(fd);
}

/*
 * A mapping past the data pages is of the AUX area, placed by aux_offset
 * and aux_size in the user page: a software event has none (EOPNOTSUPP),
 * and a mapping that does not match what the user page says is EINVAL.
 */
TEST(aux_area_of_a_software_event)
{
	struct perf_map m;
	void *aux;
	int fd = open_faults(PERF_SAMPLE_IP, 0);

	ASSERT_GE(fd, 0);
	/* no data pages yet */
	aux = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   3 * PAGE);
	ASSERT_EQ(aux, MAP_FAILED);
	ASSERT_EQ(errno, EINVAL);
	ASSERT_EQ(perf_map_open(&m, fd, 2, PROT_READ | PROT_WRITE), 0);
	m.page->aux_offset = 3 * PAGE;
	m.page->aux_size = 2 * PAGE;
	aux = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   3 * PAGE);
	ASSERT_EQ(aux, MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);
	aux = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   3 * PAGE);
	ASSERT_EQ(aux, MAP_FAILED);
	EXPECT_EQ(errno, EOPNOTSUPP);
	perf_map_close(&m);
	close(fd);
}

/* munmap of the last mapping ends the output; the event still counts. */
TEST(munmap_ends_output)
{
	struct perf_map m;
	int64_t before;
	int fd = open_faults(PERF_SAMPLE_IP, 0);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 2, PROT_READ | PROT_WRITE), 0);
	touch_pages(3);
	perf_map_close(&m);
	before = read_count(fd);
	touch_pages(3);
	EXPECT_GE(read_count(fd), before + 3);
	/* and a new mapping may have another size */
	ASSERT_EQ(perf_map_open(&m, fd, 4, PROT_READ | PROT_WRITE), 0);
	perf_map_close(&m);
	close(fd);
}

/* The mapping is not inherited: the child's copy of the range is gone. */
TEST(fork_does_not_copy_mapping)
{
	struct perf_map m;
	int fd = open_faults(PERF_SAMPLE_IP, 0);
	int status;
	pid_t pid;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 2, PROT_READ | PROT_WRITE), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		/* reading the range must fault in the child */
		signal(SIGSEGV, SIG_DFL);
		(void)__atomic_load_n(&m.page->version, __ATOMIC_RELAXED);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(WTERMSIG(status), SIGSEGV);
	perf_map_close(&m);
	close(fd);
}

TEST_HARNESS_MAIN
