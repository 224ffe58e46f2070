// SPDX-License-Identifier: GPL-2.0
/*
 * The uprobe PMU (perf_event_open(2): "kprobe and uprobe"): an event that
 * places its own probe at a file offset of an executable file (uprobe_path
 * + probe_offset), its return probe (format/retprobe), a USDT semaphore
 * (format/ref_ctr_offset), and what such events count and sample: calls
 * of functions of this program, recursion beyond the return-probe depth
 * limit, a longjmp() out of a probed function, a file mapped twice, a
 * forked and an exec()ed child, a probe made through tracefs'
 * uprobe_events, a BPF program on the event, and the errnos of what
 * cannot be probed or of a caller without privileges.  Needs root.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <linux/bpf_perf_event.h>
#include <sched.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"
#include "bpf_helpers.h"
#include "perf_records.h"

#define UPROBE_SYSFS	"/sys/bus/event_source/devices/uprobe"
#define UPROBE_EVENTS	TRACEFS "/uprobe_events"
#define TP_GROUP	"uprobe_pmu_test"
#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define CALLS		10
#define DEEP		100	/* calls deeper than the return-probe limit */
#define RETPROBE_LIMIT	64	/* where stock stops probing returns */
#define REC_MAX		512
#define SEMA_CHILD	"--uprobe-pmu-sema-child"
#define REF_CTR_SHIFT	32

/* the code of the file mapped twice: return 42 */
#if defined(__x86_64__)
static const unsigned char code42[] = {
	0xb8, 0x2a, 0x00, 0x00, 0x00,	/* mov $42, %eax */
	0xc3,				/* ret */
};

/* int3, what a probed instruction reads as */
static const unsigned char swbp[] = { 0xcc };
#elif defined(__aarch64__)
static const unsigned char code42[] = {
	0x40, 0x05, 0x80, 0x52,		/* mov w0, #42 */
	0xc0, 0x03, 0x5f, 0xd6,		/* ret */
};

/* brk #0x5 (BRK64_OPCODE_UPROBES) */
static const unsigned char swbp[] = { 0xa0, 0x00, 0x20, 0xd4 };
#else
#error "uprobe_pmu: x86_64 and arm64 only"
#endif

/*
 * The USDT-style semaphore, in .data: file-backed, as USDT's .probes is
 * (the word beside it, not zero, keeps the pair out of .bss).
 */
static struct {
	unsigned short sema;
	unsigned short in_data;
} usdt = { 0, 1 };

static unsigned short sema(void)
{
	return __atomic_load_n(&usdt.sema, __ATOMIC_RELAXED);
}

/* where target() was last called from */
static uintptr_t target_ret;

/* The probed function of most tests. */
__attribute__((noipa)) int target(int x)
{
	__atomic_store_n(&target_ret, (uintptr_t)__builtin_return_address(0),
			 __ATOMIC_RELAXED);
	return x + 1;
}

/* The one place target() is called from, so its return address is fixed. */
__attribute__((noipa)) int call_target(int x)
{
	int r = target(x);

	__asm__ __volatile__("" : "+r"(r));
	return r;
}

/* @n calls of target(); 0 when every one returned what it should. */
static int call_n(int n)
{
	int bad = 0;

	for (int i = 0; i < n; i++)
		bad += call_target(i) != i + 1;
	return bad;
}

/* Recursion @depth deep (no tail call: the asm keeps each frame). */
__attribute__((noipa)) int recurse(int depth)
{
	int r;

	if (depth <= 1)
		return 1;
	r = recurse(depth - 1);
	__asm__ __volatile__("" : "+r"(r));
	return r + 1;
}

static jmp_buf jump_back;
static int jump_armed = 1;
static int jumps;	/* not a local: longjmp() would not keep it */

/* Recursion @depth deep that longjmp()s back from its bottom. */
__attribute__((noipa)) int jumper(int depth)
{
	int r;

	if (depth <= 1) {
		if (__atomic_load_n(&jump_armed, __ATOMIC_RELAXED))
			longjmp(jump_back, 1);
		return 1;
	}
	r = jumper(depth - 1);
	__asm__ __volatile__("" : "+r"(r));
	return r + 1;
}

static long uprobe_type(void)
{
	long type;

	return read_int_file(UPROBE_SYSFS "/type", &type) ? -1 : type;
}

static void uprobe_attr(struct perf_event_attr *attr, long type,
			const char *path, uint64_t off, uint64_t config)
{
	probe_attr(attr, type, config, (uintptr_t)path, off);
}

/* A uprobe on this task; the fd or -errno. */
static int open_uprobe(long type, const char *path, uint64_t off,
		       uint64_t config)
{
	struct perf_event_attr attr;
	int fd;

	uprobe_attr(&attr, type, path, off, config);
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static void enable(int fd)
{
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
}

static void disable(int fd)
{
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}

FIXTURE(uprobe) {
	long type;
	char path[512];		/* this program */
	uint64_t target;	/* file offsets of target() and co */
	uint64_t recurse;
	uint64_t jumper;
	uint64_t sema;
};

FIXTURE_SETUP(uprobe)
{
	if (geteuid() != 0)
		SKIP(return, "needs root");
	self->type = uprobe_type();
	if (self->type < 0)
		SKIP(return, "no uprobe PMU (CONFIG_UPROBE_EVENTS)");
	ASSERT_EQ(0, maps_file_offset((uintptr_t)target, self->path,
				      sizeof(self->path), &self->target));
	ASSERT_EQ(0, maps_file_offset((uintptr_t)recurse, self->path,
				      sizeof(self->path), &self->recurse));
	ASSERT_EQ(0, maps_file_offset((uintptr_t)jumper, self->path,
				      sizeof(self->path), &self->jumper));
	ASSERT_EQ(0, maps_file_offset((uintptr_t)&usdt.sema, self->path,
				      sizeof(self->path), &self->sema));
}

FIXTURE_TEARDOWN(uprobe)
{
}

/* sysfs: a dynamic type, retprobe at config:0, ref_ctr_offset above. */
TEST_F(uprobe, sysfs)
{
	char buf[64] = "";

	EXPECT_GE(self->type, PERF_TYPE_MAX);
	ASSERT_EQ(0, read_first_line(UPROBE_SYSFS "/format/retprobe", buf,
				     sizeof(buf)));
	EXPECT_STREQ("config:0", buf);
	ASSERT_EQ(0, read_first_line(UPROBE_SYSFS "/format/ref_ctr_offset", buf,
				     sizeof(buf)));
	EXPECT_STREQ("config:32-63", buf);
}

/* Each call is one hit, at the entry and at the return; none disabled. */
TEST_F(uprobe, counts_exactly)
{
	for (int retprobe = 0; retprobe < 2; retprobe++) {
		int fd = open_uprobe(self->type, self->path, self->target,
				     retprobe);

		ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
		EXPECT_EQ(0, call_n(2));
		EXPECT_EQ(0, read_count(fd));
		enable(fd);
		EXPECT_EQ(0, call_n(CALLS));
		disable(fd);
		EXPECT_EQ(0, call_n(CALLS));
		EXPECT_EQ(CALLS, read_count(fd));
		close(fd);
	}
}

/* Two events on one probe point each count every call. */
TEST_F(uprobe, two_events_one_point)
{
	int a = open_uprobe(self->type, self->path, self->target, 0);
	int b = open_uprobe(self->type, self->path, self->target, 1);

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	enable(a);
	enable(b);
	EXPECT_EQ(0, call_n(CALLS));
	close(a);
	EXPECT_EQ(0, call_n(CALLS));
	EXPECT_EQ(2 * CALLS, read_count(b));
	close(b);
}

/*
 * Recursion: every level's entry is counted; returns are counted up to
 * stock's nesting limit of return probes (64 levels), no deeper; the
 * function still returns the right value at any depth.
 */
TEST_F(uprobe, recursion)
{
	static const int depths[] = { 10, RETPROBE_LIMIT, DEEP };

	for (int i = 0; i < 3; i++) {
		int entry = open_uprobe(self->type, self->path, self->recurse, 0);
		int ret = open_uprobe(self->type, self->path, self->recurse, 1);
		int d = depths[i];

		ASSERT_LE(0, entry);
		ASSERT_LE(0, ret);
		enable(entry);
		enable(ret);
		EXPECT_EQ(d, recurse(d));
		disable(entry);
		disable(ret);
		EXPECT_EQ(d, read_count(entry));
		EXPECT_EQ(d < RETPROBE_LIMIT ? d : RETPROBE_LIMIT,
			  read_count(ret)) TH_LOG("depth %d", d);
		/* and a shallow call after it, counted in full */
		enable(ret);
		EXPECT_EQ(3, recurse(3));
		disable(ret);
		EXPECT_EQ((d < RETPROBE_LIMIT ? d : RETPROBE_LIMIT) + 3,
			  read_count(ret));
		close(entry);
		close(ret);
	}
}

/*
 * longjmp() out of return-probed frames (30 of them, three times over,
 * more than the nesting limit in all): no return is counted for them,
 * the process goes on, and later calls are counted in full again.
 */
TEST_F(uprobe, longjmp_out)
{
	int fd = open_uprobe(self->type, self->path, self->jumper, 1);
	int r = open_uprobe(self->type, self->path, self->recurse, 1);

	ASSERT_LE(0, fd);
	ASSERT_LE(0, r);
	enable(fd);
	enable(r);
	jumps = 0;
	setjmp(jump_back);
	if (jumps++ < 3)
		jumper(30);
	disable(fd);
	EXPECT_EQ(0, read_count(fd));
	EXPECT_EQ(0, read_count(r));
	EXPECT_EQ(10, recurse(10));
	EXPECT_EQ(10, read_count(r));
	disable(r);
	close(fd);
	close(r);
}

/*
 * PERF_SAMPLE_IP of a hit at the entry is the function's address; of a
 * hit at the return, the address the function returns to in its caller.
 * The trace record (PERF_SAMPLE_RAW) holds the function's address, and
 * for a return the return address after it.  Inside a return-probed
 * function its return address is no longer its caller's.
 */
TEST_F(uprobe, sample_ip)
{
	uint64_t type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	uintptr_t func = (uintptr_t)target, ret;

	call_target(0);
	ret = __atomic_load_n(&target_ret, __ATOMIC_RELAXED);
	for (int retprobe = 0; retprobe < 2; retprobe++) {
		struct perf_event_attr attr;
		struct perf_event_header *h;
		uint64_t buf[REC_MAX / 8];
		uint64_t want = retprobe ? ret : func;
		struct perf_sample s;
		struct perf_map m;
		int fd, samples = 0;

		uprobe_attr(&attr, self->type, self->path, self->target,
			    retprobe);
		attr.sample_period = 1;
		attr.sample_type = type;
		attr.wakeup_events = 1;
		fd = sys_perf_event_open(&attr, 0, -1, -1,
					 PERF_FLAG_FD_CLOEXEC);
		ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
		ASSERT_EQ(0, perf_map_open(&m, fd, 8, PROT_READ | PROT_WRITE));
		enable(fd);
		EXPECT_EQ(0, call_n(5));
		disable(fd);
		EXPECT_EQ(!retprobe, ret == target_ret)
			TH_LOG("retprobe %d: return address %#lx inside, %#lx",
			       retprobe, (long)target_ret, (long)ret);
		while ((h = perf_map_next_type(&m, buf, sizeof(buf),
					       PERF_RECORD_SAMPLE))) {
			const uint8_t *rec;
			uint64_t v[2];

			perf_sample_parse(h, type, 0, 0, &s);
			EXPECT_EQ(want, s.ip)
				TH_LOG("retprobe %d: ip %#lx, function %#lx, return address %#lx",
				       retprobe, (long)s.ip, (long)func, (long)ret);
			EXPECT_EQ(getpid(), s.pid);
			ASSERT_LE(retprobe ? 24 : 16, s.raw_size);
			rec = (const uint8_t *)s.end - s.raw_size;
			memcpy(v, rec + 8, retprobe ? 16 : 8);
			EXPECT_EQ(func, v[0]);
			if (retprobe)
				EXPECT_EQ(ret, v[1]);
			samples++;
		}
		EXPECT_EQ(5, samples);
		perf_map_close(&m);
		close(fd);
	}
}

/* where fault_in() was last called from */
static uintptr_t fault_ret;

/*
 * A function with a frame record of its own (the user callchain follows
 * frame pointers), which takes a page fault on @page.
 */
__attribute__((noipa, optimize("no-omit-frame-pointer")))
int fault_in(char *page)
{
	__atomic_store_n(&fault_ret, (uintptr_t)__builtin_return_address(0),
			 __ATOMIC_RELAXED);
	__atomic_store_n(page, 1, __ATOMIC_RELAXED);
	return 0;
}

__attribute__((noipa)) int call_fault_in(char *page)
{
	int r = fault_in(page);

	__asm__ __volatile__("" : "+r"(r));
	return r;
}

/*
 * A page fault sampled with its user callchain inside a function whose
 * return is probed: the frame after the function's own is its caller,
 * at the address the function returns to, not the return probe's
 * trampoline that stands in for it on the stack meanwhile.
 */
TEST_F(uprobe, callchain_through_return_probe)
{
	uint64_t type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	uintptr_t func = (uintptr_t)fault_in, ret;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	uint64_t buf[REC_MAX / 8];
	char path[512];
	struct perf_map m;
	int probe, fd, samples = 0;
	uint64_t off;
	char *page;

	page = mmap(NULL, getpagesize(), PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, page);
	call_fault_in(page);
	ret = __atomic_load_n(&fault_ret, __ATOMIC_RELAXED);
	munmap(page, getpagesize());
	ASSERT_EQ(0, maps_file_offset(func, path, sizeof(path), &off));
	probe = open_uprobe(self->type, path, off, 1);
	ASSERT_LE(0, probe) TH_LOG("open: %s", strerror(-probe));
	enable(probe);

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	attr.sample_period = 1;
	attr.sample_type = type;
	attr.exclude_kernel = 1;
	attr.exclude_callchain_kernel = 1;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(0, perf_map_open(&m, fd, 8, PROT_READ | PROT_WRITE));
	page = mmap(NULL, getpagesize(), PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, page);
	enable(fd);
	call_fault_in(page);
	disable(fd);
	disable(probe);
	/* inside, the function's return address was the trampoline */
	EXPECT_NE(ret, __atomic_load_n(&fault_ret, __ATOMIC_RELAXED));
	EXPECT_EQ(1, read_count(probe));
	while ((h = perf_map_next_type(&m, buf, sizeof(buf),
				       PERF_RECORD_SAMPLE))) {
		struct perf_sample s;

		perf_sample_parse(h, type, 0, 0, &s);
		/* the fault of the trampoline's own page is another one */
		if (s.ip < func || s.ip >= func + 256)
			continue;
		samples++;
		ASSERT_LE(3, s.callchain_nr);
		EXPECT_EQ(PERF_CONTEXT_USER, s.callchain[0]);
		EXPECT_EQ(s.ip, s.callchain[1]);
		EXPECT_EQ(ret, s.callchain[2])
			TH_LOG("caller's frame %#llx, return address %#lx",
			       (unsigned long long)s.callchain[2], (long)ret);
	}
	EXPECT_EQ(1, samples);
	perf_map_close(&m);
	munmap(page, getpagesize());
	close(fd);
	close(probe);
}

/* A temporary file of code42; its fd (@path filled in) or -1. */
static int code_file(char *path, size_t len)
{
	int fd;

	snprintf(path, len, "/tmp/uprobe_pmu.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	if (write(fd, code42, sizeof(code42)) != sizeof(code42)) {
		close(fd);
		unlink(path);
		return -1;
	}
	return fd;
}

typedef int (*code_fn)(void);

static code_fn map_code(int fd)
{
	void *p = mmap(NULL, getpagesize(), PROT_READ | PROT_EXEC,
		       MAP_PRIVATE, fd, 0);

	return p == MAP_FAILED ? NULL : (code_fn)p;
}

/*
 * A trap instruction (the uprobe breakpoint itself) at the probed offset:
 * the probe opens while nothing maps the file, and is refused with 524
 * (the kernel's ENOTSUPP, as stock gives it on x86 and arm64) once a
 * mapping would need the breakpoint.
 */
TEST_F(uprobe, trap_instruction)
{
	char path[64];
	int file = code_file(path, sizeof(path)), fd;
	code_fn fn;

	ASSERT_LE(0, file);
	ASSERT_EQ(sizeof(swbp), pwrite(file, swbp, sizeof(swbp), 0));
	fd = open_uprobe(self->type, path, 0, 0);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
	fn = map_code(file);
	ASSERT_NE(NULL, fn);
	EXPECT_EQ(-524, open_uprobe(self->type, path, 0, 0));
	munmap((void *)fn, getpagesize());
	close(file);
	unlink(path);
}

/*
 * A file mapped twice in one process, probed at offset 0, the probe made
 * before the mappings and after them: both count, the code still returns
 * 42.  While probed, the mappings read the breakpoint instruction, the
 * file its own bytes; once the probe is gone the mappings read the code
 * again.
 */
TEST_F(uprobe, file_mapped_twice)
{
	char path[64];
	int file = code_file(path, sizeof(path));

	ASSERT_LE(0, file);
	for (int before = 1; before >= 0; before--) {
		unsigned char bytes[sizeof(code42)];
		int fd = -1;
		code_fn a, b;

		if (before)
			fd = open_uprobe(self->type, path, 0, 0);
		a = map_code(file);
		b = map_code(file);
		ASSERT_NE(NULL, a);
		ASSERT_NE(NULL, b);
		if (!before)
			fd = open_uprobe(self->type, path, 0, 0);
		ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
		enable(fd);
		for (int i = 0; i < CALLS; i++) {
			EXPECT_EQ(42, a());
			EXPECT_EQ(42, b());
		}
		disable(fd);
		EXPECT_EQ(2 * CALLS, read_count(fd)) TH_LOG("before %d", before);
		EXPECT_EQ(0, memcmp(a, swbp, sizeof(swbp)));
		EXPECT_EQ(0, memcmp(b, swbp, sizeof(swbp)));
		ASSERT_EQ(sizeof(bytes), pread(file, bytes, sizeof(bytes), 0));
		EXPECT_EQ(0, memcmp(bytes, code42, sizeof(code42)));
		close(fd);
		EXPECT_EQ(0, memcmp(a, code42, sizeof(code42)));
		EXPECT_EQ(0, memcmp(b, code42, sizeof(code42)));
		EXPECT_EQ(42, a());
		EXPECT_EQ(42, b());
		munmap(a, getpagesize());
		munmap(b, getpagesize());
	}
	close(file);
	unlink(path);
}

/* The Anonymous: kB of the mapping at @addr (/proc/self/smaps), or -1. */
static long anon_kb(void *addr)
{
	char line[600], want[32];
	FILE *f = fopen("/proc/self/smaps", "r");
	long kb = -1;
	bool in = false;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "%lx-", (unsigned long)addr);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, want, strlen(want)))
			in = true;
		else if (in && sscanf(line, "Anonymous: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

/*
 * The breakpoint goes into a private copy of the probed page; once the
 * probe is gone and the page reads as the file again, the mapping is back
 * on the file's page: no anonymous memory is left in it.
 */
TEST_F(uprobe, page_back_to_file)
{
	char path[64];
	int file = code_file(path, sizeof(path)), fd;
	code_fn fn;

	ASSERT_LE(0, file);
	fn = map_code(file);
	ASSERT_NE(NULL, fn);
	EXPECT_EQ(42, fn());
	EXPECT_EQ(0, anon_kb(fn));
	fd = open_uprobe(self->type, path, 0, 0);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
	enable(fd);
	EXPECT_EQ(42, fn());
	disable(fd);
	EXPECT_EQ(1, read_count(fd));
	EXPECT_LT(0, anon_kb(fn));
	close(fd);
	EXPECT_EQ(0, memcmp((void *)fn, code42, sizeof(code42)));
	EXPECT_EQ(0, anon_kb(fn));
	EXPECT_EQ(42, fn());
	munmap((void *)fn, getpagesize());
	close(file);
	unlink(path);
}

/*
 * A shared mapping of the file (MAP_SHARED, even read-only) is not
 * probed: its calls are not counted and it reads the code as written.
 */
TEST_F(uprobe, shared_mapping_not_probed)
{
	char path[64];
	int file = code_file(path, sizeof(path)), fd;
	void *p;

	ASSERT_LE(0, file);
	fd = open_uprobe(self->type, path, 0, 0);
	ASSERT_LE(0, fd);
	p = mmap(NULL, getpagesize(), PROT_READ | PROT_EXEC, MAP_SHARED,
		 file, 0);
	ASSERT_NE(MAP_FAILED, p);
	enable(fd);
	for (int i = 0; i < CALLS; i++)
		EXPECT_EQ(42, ((code_fn)p)());
	disable(fd);
	EXPECT_EQ(0, read_count(fd));
	EXPECT_EQ(0, memcmp(p, code42, sizeof(code42)));
	close(fd);
	munmap(p, getpagesize());
	close(file);
	unlink(path);
}

/*
 * A private mapping of the file made readable only, then executable with
 * mprotect(), whole or its first page only (a split of the mapping), the
 * probe made before the mapping and after it: every call counts.
 */
TEST_F(uprobe, mprotect_exec)
{
	long page = getpagesize();
	char path[64];
	int file = code_file(path, sizeof(path));

	ASSERT_LE(0, file);
	for (int i = 0; i < 4; i++) {
		int before = i & 1, split = i >> 1, fd = -1;
		size_t len = (split ? 2 : 1) * page;
		void *p;

		if (before)
			fd = open_uprobe(self->type, path, 0, 0);
		p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, file, 0);
		ASSERT_NE(MAP_FAILED, p);
		if (!before)
			fd = open_uprobe(self->type, path, 0, 0);
		ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
		ASSERT_EQ(0, mprotect(p, page, PROT_READ | PROT_EXEC));
		enable(fd);
		for (int c = 0; c < CALLS; c++)
			EXPECT_EQ(42, ((code_fn)p)());
		disable(fd);
		EXPECT_EQ(CALLS, read_count(fd))
			TH_LOG("probe %s the mapping, %s mapping made executable",
			       before ? "before" : "after",
			       split ? "part of the" : "the whole");
		close(fd);
		EXPECT_EQ(0, memcmp(p, code42, sizeof(code42)));
		munmap(p, len);
	}
	close(file);
	unlink(path);
}

/*
 * A writable private mapping of the file, even executable, is not probed
 * (its text may be the program's own to change): its calls are not
 * counted and it reads the code as written.
 */
TEST_F(uprobe, writable_mapping_not_probed)
{
	char path[64];
	int file = code_file(path, sizeof(path));

	ASSERT_LE(0, file);
	for (int before = 1; before >= 0; before--) {
		int fd = -1;
		void *p;

		if (before)
			fd = open_uprobe(self->type, path, 0, 0);
		p = mmap(NULL, getpagesize(), PROT_READ | PROT_WRITE | PROT_EXEC,
			 MAP_PRIVATE, file, 0);
		ASSERT_NE(MAP_FAILED, p);
		if (!before)
			fd = open_uprobe(self->type, path, 0, 0);
		ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
		enable(fd);
		for (int c = 0; c < CALLS; c++)
			EXPECT_EQ(42, ((code_fn)p)());
		disable(fd);
		EXPECT_EQ(0, read_count(fd))
			TH_LOG("probe %s the mapping", before ? "before" : "after");
		EXPECT_EQ(0, memcmp(p, code42, sizeof(code42)));
		close(fd);
		munmap(p, getpagesize());
	}
	close(file);
	unlink(path);
}

/*
 * A forked child's calls: counted by an inherited event (its count is the
 * parent's once the child has exited), not by an event of the parent
 * alone.
 */
TEST_F(uprobe, fork_inherit)
{
	struct perf_event_attr attr;
	int inh, own, status;
	pid_t pid;

	uprobe_attr(&attr, self->type, self->path, self->target, 0);
	attr.disabled = 0;
	attr.inherit = 1;
	inh = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, inh) TH_LOG("open: %s", strerror(errno));
	attr.inherit = 0;
	own = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, own);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(call_n(CALLS) ? 1 : 0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	EXPECT_EQ(CALLS, read_count(inh));
	EXPECT_EQ(0, read_count(own));
	EXPECT_EQ(0, call_n(CALLS));
	EXPECT_EQ(2 * CALLS, read_count(inh));
	EXPECT_EQ(CALLS, read_count(own));
	close(inh);
	close(own);
}

/*
 * A child forked while the probe is in place runs its copy of the probed
 * page before and after the parent's event is closed: the calls return
 * what they should all along.
 */
TEST_F(uprobe, child_after_close)
{
	int fd = open_uprobe(self->type, self->path, self->target, 0);
	int go, done, status;
	pid_t pid;

	ASSERT_LE(0, fd);
	enable(fd);
	pid = fork_held_done(&go, &done);
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int bad = call_n(CALLS);

		child_done(done);
		child_wait(go);
		bad += call_n(CALLS);
		_exit(bad ? 1 : 0);
	}
	ASSERT_EQ(0, step_child(go));
	ASSERT_EQ(0, await_child(done));
	EXPECT_EQ(0, read_count(fd));
	close(fd);
	ASSERT_EQ(0, release_child(go));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	EXPECT_EQ(0, call_n(CALLS));
	close(done);
}

/*
 * A forked child runs into the breakpoint of a return probe of its
 * parent's own (not inherited) event: the event's handler takes the
 * breakpoint out of the child, and no return probe is set up there, so
 * that the child's function returns straight to its caller, as the
 * parent's did before the probe.
 */
TEST_F(uprobe, child_not_wanted_no_return_probe)
{
	uintptr_t ret;
	int fd, status;
	pid_t pid;

	/* before the probe: even disabled, it takes over returns */
	call_target(0);
	ret = __atomic_load_n(&target_ret, __ATOMIC_RELAXED);
	fd = open_uprobe(self->type, self->path, self->target, 1);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
	enable(fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		uintptr_t seen[2];

		for (int i = 0; i < 2; i++) {
			call_target(i);
			seen[i] = __atomic_load_n(&target_ret,
						  __ATOMIC_RELAXED);
		}
		/* 1: the first call returned through the trampoline */
		_exit((seen[0] != ret) | (seen[1] != ret) << 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("the child's return address was not its caller's");
	/* the parent's own calls still go through the return probe */
	call_target(0);
	EXPECT_NE(ret, __atomic_load_n(&target_ret, __ATOMIC_RELAXED));
	disable(fd);
	EXPECT_EQ(1, read_count(fd));
	close(fd);
}

/*
 * A USDT semaphore (ref_ctr_offset, config:32-63) reads 1 while an event
 * with it exists, entry or return probe, and 0 once it is closed.
 */
TEST_F(uprobe, semaphore)
{
	uint64_t ref = self->sema << REF_CTR_SHIFT;

	EXPECT_EQ(0, sema());
	for (int retprobe = 0; retprobe < 2; retprobe++) {
		int fd = open_uprobe(self->type, self->path, self->target,
				     ref | retprobe);

		ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
		EXPECT_EQ(1, sema());
		enable(fd);
		EXPECT_EQ(1, sema());
		EXPECT_EQ(0, call_n(CALLS));
		disable(fd);
		EXPECT_EQ(1, sema());
		EXPECT_EQ(CALLS, read_count(fd));
		close(fd);
		EXPECT_EQ(0, sema());
	}
}

/*
 * Two events with the semaphore on one probe point: it counts probed
 * processes, not events (1 while either exists).  An event at the same
 * point with no semaphore, or another one, cannot be made meanwhile.
 */
TEST_F(uprobe, semaphore_two_events)
{
	uint64_t ref = self->sema << REF_CTR_SHIFT;
	int a = open_uprobe(self->type, self->path, self->target, ref);
	int b = open_uprobe(self->type, self->path, self->target, ref | 1);

	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	EXPECT_EQ(1, sema());
	EXPECT_EQ(-EINVAL, open_uprobe(self->type, self->path, self->target,
				       0));
	EXPECT_EQ(-EINVAL, open_uprobe(self->type, self->path, self->target,
				       ref + (2ULL << REF_CTR_SHIFT)));
	close(a);
	EXPECT_EQ(1, sema());
	close(b);
	EXPECT_EQ(0, sema());
}

/*
 * A semaphore offset past the end of the file is not checked against the
 * file's size: the event opens and counts (no mapping holds the
 * semaphore, so there is nothing to raise).
 */
TEST_F(uprobe, semaphore_past_eof)
{
	struct stat st;
	uint64_t ref;
	int fd;

	ASSERT_EQ(0, stat(self->path, &st));
	ref = ((uint64_t)st.st_size + (1 << 20)) & ~1ULL;
	ASSERT_GT(1ULL << 32, ref);
	fd = open_uprobe(self->type, self->path, self->target,
			 ref << REF_CTR_SHIFT);
	ASSERT_LE(0, fd) TH_LOG("semaphore at %#llx, file size %#llx: %s",
				(unsigned long long)ref,
				(unsigned long long)st.st_size, strerror(-fd));
	enable(fd);
	EXPECT_EQ(0, call_n(CALLS));
	disable(fd);
	EXPECT_EQ(CALLS, read_count(fd));
	EXPECT_EQ(0, sema());
	close(fd);
}

/* The exec()ed program: its semaphore as its exit status. */
static int sema_child(void)
{
	return call_n(CALLS) ? 100 : sema();
}

/* fork(), pin to CPU 0, exec this program as sema_child(); its status. */
static int run_sema_child(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(0, &set);
		sched_setaffinity(0, sizeof(set), &set);
		execl("/proc/self/exe", "uprobe_pmu", SEMA_CHILD, NULL);
		_exit(99);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * The semaphore of a process started after the event: an inherited event
 * goes through fork and exec and sets it in the new program, as does an
 * event of CPU 0 (where the program runs); each counts its calls.
 */
TEST_F(uprobe, semaphore_exec)
{
	struct perf_event_attr attr;
	int fd;

	uprobe_attr(&attr, self->type, self->path, self->target,
		    self->sema << REF_CTR_SHIFT);
	attr.disabled = 0;
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	EXPECT_EQ(1, run_sema_child());
	EXPECT_EQ(CALLS, read_count(fd));
	close(fd);
	EXPECT_EQ(0, run_sema_child());

	attr.inherit = 0;
	fd = sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	EXPECT_EQ(1, sema());
	EXPECT_EQ(1, run_sema_child());
	EXPECT_EQ(CALLS, read_count(fd));
	close(fd);
	EXPECT_EQ(0, sema());
}

static int tracefs_write(const char *line)
{
	int fd = open(UPROBE_EVENTS, O_WRONLY | O_APPEND | O_CLOEXEC);
	int ret = 0, len = strlen(line);

	if (fd < 0)
		return -errno;
	if (write(fd, line, len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * The tracefs route: probes written to uprobe_events (entry and return
 * of target(), entry of recurse() with the semaphore) are trace events that PERF_TYPE_TRACEPOINT
 * events count; a probe in use cannot be removed; closed, it can.
 */
TEST_F(uprobe, tracefs_events)
{
	static const char *const names[] = { "entry", "ret", "sema" };
	unsigned long long off = self->target;
	char def[700], ev[64];
	int fd[3];

	trace_event_id("sched/sched_switch");	/* mounts tracefs */
	if (access(UPROBE_EVENTS, W_OK))
		SKIP(return, "no uprobe_events in tracefs");
	tracefs_write("-:" TP_GROUP "/entry");
	tracefs_write("-:" TP_GROUP "/ret");
	tracefs_write("-:" TP_GROUP "/sema");
	snprintf(def, sizeof(def), "p:%s/entry %s:%#llx", TP_GROUP,
		 self->path, off);
	ASSERT_EQ(0, tracefs_write(def));
	snprintf(def, sizeof(def), "r:%s/ret %s:%#llx", TP_GROUP,
		 self->path, off);
	ASSERT_EQ(0, tracefs_write(def));
	/* not at target(): one point cannot have two semaphores */
	snprintf(def, sizeof(def), "p:%s/sema %s:%#llx(%#llx)", TP_GROUP,
		 self->path, off, (unsigned long long)self->sema);
	EXPECT_EQ(-EINVAL, tracefs_write(def));
	snprintf(def, sizeof(def), "p:%s/sema %s:%#llx(%#llx)", TP_GROUP,
		 self->path, (unsigned long long)self->recurse,
		 (unsigned long long)self->sema);
	ASSERT_EQ(0, tracefs_write(def));
	EXPECT_EQ(0, sema());
	for (int i = 0; i < 3; i++) {
		long id;

		snprintf(ev, sizeof(ev), TP_GROUP "/%s", names[i]);
		id = trace_event_id(ev);
		ASSERT_LT(0, id);
		fd[i] = open_trace_event(id, 0, -1);
		ASSERT_LE(0, fd[i]) TH_LOG("%s: %s", ev, strerror(-fd[i]));
		enable(fd[i]);
	}
	EXPECT_EQ(1, sema());
	EXPECT_EQ(0, call_n(CALLS));
	for (int i = 0; i < CALLS; i++)
		EXPECT_EQ(1, recurse(1));
	for (int i = 0; i < 3; i++) {
		disable(fd[i]);
		EXPECT_EQ(CALLS, read_count(fd[i])) TH_LOG("%s", names[i]);
	}
	EXPECT_EQ(-EBUSY, tracefs_write("-:" TP_GROUP "/entry"));
	for (int i = 0; i < 3; i++)
		close(fd[i]);
	EXPECT_EQ(0, sema());
	for (int i = 0; i < 3; i++) {
		snprintf(def, sizeof(def), "-:" TP_GROUP "/%s", names[i]);
		EXPECT_EQ(0, tracefs_write(def));
	}
	EXPECT_EQ(-1, trace_event_id(TP_GROUP "/entry"));
}

/* ---- a BPF program on a uprobe event --------------------------------- */

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })
#define MOV64_IMM(d, i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV32_IMM(d, i)		INSN(BPF_ALU | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV64_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADD64_IMM(d, i)		INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define ST_W(d, o, i)		INSN(BPF_ST | BPF_MEM | BPF_W, d, 0, o, i)
#define STX_DW(d, s, o)		INSN(BPF_STX | BPF_MEM | BPF_DW, d, s, o, 0)
#define LDX_DW(d, s, o)		INSN(BPF_LDX | BPF_MEM | BPF_DW, d, s, o, 0)
#define XADD_DW(d, s, o) \
	INSN(BPF_STX | BPF_ATOMIC | BPF_DW, d, s, o, BPF_ADD)
#define JEQ_IMM(d, i, o)	INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
#define CALL(f)			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* a map's address takes two instructions: the fd, then nothing */
#define LD_MAP(d, fd) \
	INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd)
#define LD_MAP_HI		INSN(0, 0, 0, 0, 0)

/* where the first argument of a call is in the program's registers */
#if defined(__x86_64__)
#define ARG0_OFF	offsetof(bpf_user_pt_regs_t, rdi)
#else
#define ARG0_OFF	offsetof(bpf_user_pt_regs_t, regs[0])
#endif

static int map_rw(int cmd, int map, uint32_t key, void *value)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = map;
	a.key = (uintptr_t)&key;
	a.value = (uintptr_t)value;
	return sys_bpf(cmd, &a);
}

static char verifier_log[4096];

/*
 * A kprobe program that adds 1 to slot 0 of @counts and sends the probed
 * call's first argument to the BPF_OUTPUT event of this CPU in @array.
 */
static int load_uprobe_prog(int counts, int array)
{
	struct bpf_insn insns[] = {
		MOV64_REG(6, 1),
		LDX_DW(7, 6, ARG0_OFF),
		STX_DW(10, 7, -16),
		ST_W(10, -4, 0),
		LD_MAP(1, counts),
		LD_MAP_HI,
		MOV64_REG(2, 10),
		ADD64_IMM(2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(0, 0, 2),
		MOV64_IMM(1, 1),
		XADD_DW(0, 1, 0),
		MOV64_REG(1, 6),
		LD_MAP(2, array),
		LD_MAP_HI,
		MOV32_IMM(3, -1),	/* BPF_F_CURRENT_CPU */
		MOV64_REG(4, 10),
		ADD64_IMM(4, -16),
		MOV64_IMM(5, 8),
		CALL(BPF_FUNC_perf_event_output),
		MOV64_IMM(0, 1),
		EXIT,
	};
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_KPROBE;
	a.insns = (uintptr_t)insns;
	a.insn_cnt = ARRAY_SIZE(insns);
	a.license = (uintptr_t)"GPL";
	a.log_buf = (uintptr_t)verifier_log;
	a.log_size = sizeof(verifier_log);
	a.log_level = 1;
	return sys_bpf(BPF_PROG_LOAD, &a);
}

/*
 * PERF_EVENT_IOC_SET_BPF of a kprobe program on a uprobe event: the
 * program runs once a call, sees the call's argument in its registers,
 * and its bpf_perf_event_output() records reach the ring in call order;
 * the event counts every call the program lets through.
 */
TEST_F(uprobe, bpf_program)
{
	int counts, array, out, prog, fd, seen = 0;
	struct perf_event_header *h;
	uint64_t buf[REC_MAX / 8];
	uint32_t zero = 0;
	struct perf_sample s;
	struct perf_map m;
	uint64_t v = 0;
	cpu_set_t set;

	counts = map_create(BPF_MAP_TYPE_ARRAY, sizeof(uint64_t), 1);
	if (counts < 0)
		SKIP(return, "no bpf(): %s", strerror(errno));
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	out = bpf_output_event(&m, &array);
	ASSERT_LE(0, out) TH_LOG("%s", strerror(errno));
	prog = load_uprobe_prog(counts, array);
	ASSERT_LE(0, prog) TH_LOG("%s", verifier_log);
	fd = open_uprobe(self->type, self->path, self->target, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog))
		TH_LOG("SET_BPF: %s", strerror(errno));
	enable(fd);
	EXPECT_EQ(0, call_n(CALLS));
	disable(fd);
	ASSERT_EQ(0, map_rw(BPF_MAP_LOOKUP_ELEM, counts, zero, &v));
	EXPECT_EQ(CALLS, v);
	EXPECT_EQ(CALLS, read_count(fd));
	while ((h = perf_map_next_type(&m, buf, sizeof(buf),
				       PERF_RECORD_SAMPLE))) {
		perf_sample_parse(h, PERF_SAMPLE_RAW, 0, 0, &s);
		ASSERT_LE(8, s.raw_size);
		memcpy(&v, (const char *)s.end - s.raw_size, sizeof(v));
		EXPECT_EQ(seen, v);
		seen++;
	}
	EXPECT_EQ(CALLS, seen);
	close(fd);
	close(prog);
	perf_map_close(&m);
	close(out);
	close(array);
	close(counts);
}

/*
 * What cannot be probed: no such file, an empty path, a directory, an
 * offset past the end of the file, an instruction not on an instruction
 * boundary (arm64), a bad or NULL path pointer, a semaphore at an odd
 * offset.  A semaphore past the end of the file is not looked at when
 * the event is made, nor are config bits of neither format field (1-31),
 * nor exclude_user: such events count as any other.
 */
TEST_F(uprobe, errnos)
{
	static const uint64_t configs[] = {
		(1ULL << 40) << REF_CTR_SHIFT, 2, 0x80000000ULL,
	};
	struct perf_event_attr attr;
	int fd;

	EXPECT_EQ(-ENOENT, open_uprobe(self->type, "/no/such/file", 0, 0));
	EXPECT_EQ(-EINVAL, open_uprobe(self->type, "", 0, 0));
	EXPECT_EQ(-EINVAL, open_uprobe(self->type, "/tmp", 0, 0));
	EXPECT_EQ(-EINVAL, open_uprobe(self->type, self->path,
				       1ULL << 40, 0));
	EXPECT_EQ(-EFAULT, open_uprobe(self->type, (const char *)8, 0, 0));
	EXPECT_EQ(-EINVAL, open_uprobe(self->type, NULL, 0, 0));
	/* a semaphore is a short: at an even offset */
	EXPECT_EQ(-EINVAL, open_uprobe(self->type, self->path, self->target,
				       (self->sema + 1) << REF_CTR_SHIFT));
#ifdef __aarch64__
	EXPECT_EQ(-EINVAL, open_uprobe(self->type, self->path,
				       self->target + 1, 0));
#endif
	for (int i = 0; i < (int)ARRAY_SIZE(configs); i++) {
		int fd = open_uprobe(self->type, self->path, self->target,
				     configs[i]);

		ASSERT_LE(0, fd) TH_LOG("config %#llx: %s",
					(unsigned long long)configs[i],
					strerror(-fd));
		enable(fd);
		EXPECT_EQ(0, call_n(CALLS));
		disable(fd);
		EXPECT_EQ(CALLS, read_count(fd));
		close(fd);
	}
	/* nor is exclude_user: a uprobe counts user calls regardless */
	uprobe_attr(&attr, self->type, self->path, self->target, 0);
	attr.exclude_user = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, fd);
	enable(fd);
	EXPECT_EQ(0, call_n(CALLS));
	disable(fd);
	EXPECT_EQ(CALLS, read_count(fd));
	close(fd);
}

/* who the child of unprivileged_open() becomes */
enum who {
	NOBODY,			/* uid 65534, no capabilities */
	NOBODY_PERFMON,		/* uid 65534 with CAP_PERFMON */
	ROOT_NO_SYS_ADMIN,	/* root without CAP_SYS_ADMIN */
	ROOT_NO_NET_ADMIN,	/* root without CAP_NET_ADMIN */
};

static int become(enum who who)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct caps[2];

	if (who == ROOT_NO_SYS_ADMIN || who == ROOT_NO_NET_ADMIN) {
		if (syscall(SYS_capget, &hdr, caps))
			return -1;
		caps[0].effective &= ~(1U << (who == ROOT_NO_SYS_ADMIN ?
					      CAP_SYS_ADMIN : CAP_NET_ADMIN));
		return syscall(SYS_capset, &hdr, caps) ? -1 : 0;
	}
	memset(caps, 0, sizeof(caps));
	if (prctl(PR_SET_KEEPCAPS, 1) || setgroups(0, NULL) ||
	    setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
		return -1;
	if (who == NOBODY_PERFMON) {
		caps[1].effective = 1U << (CAP_PERFMON - 32);
		caps[1].permitted = caps[1].effective;
	}
	return syscall(SYS_capset, &hdr, caps) ? -1 : 0;
}

/*
 * The errno of a uprobe opened by a child that became @who, at paranoid
 * @level (99: as it is); 0 when it opened.
 */
static int unprivileged_open(long type, const char *path, uint64_t off,
			     enum who who, long level)
{
	long saved = 0;
	int status;
	pid_t pid;

	if (level != 99 && (read_int_file(PARANOID, &saved) ||
			    write_int_file(PARANOID, level)))
		return -1000;
	pid = fork();
	if (pid == 0) {
		int fd;

		if (become(who))
			_exit(254);
		fd = open_uprobe(type, path, off, 0);
		_exit(fd < 0 ? -fd : 0);
	}
	waitpid(pid, &status, 0);
	if (level != 99)
		write_int_file(PARANOID, saved);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * A uprobe needs CAP_SYS_ADMIN: without it, EACCES, whatever
 * perf_event_paranoid says and even with CAP_PERFMON (a kprobe needs
 * only CAP_PERFMON).
 */
TEST_F(uprobe, unprivileged)
{
	long type = self->type;
	const char *path = self->path;
	uint64_t off = self->target;

	EXPECT_EQ(EACCES, unprivileged_open(type, path, off, NOBODY, 99));
	EXPECT_EQ(EACCES, unprivileged_open(type, path, off, NOBODY, -1));
	EXPECT_EQ(EACCES, unprivileged_open(type, path, off, NOBODY_PERFMON,
					    -1));
	EXPECT_EQ(EACCES, unprivileged_open(type, path, off,
					    ROOT_NO_SYS_ADMIN, 99));
	EXPECT_EQ(0, unprivileged_open(type, path, off, ROOT_NO_NET_ADMIN,
				       99));
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], SEMA_CHILD))
		return sema_child();
	return test_harness_run(argc, argv);
}
