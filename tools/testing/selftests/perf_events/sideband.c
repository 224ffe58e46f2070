// SPDX-License-Identifier: GPL-2.0
/*
 * Side-band records on a dummy event: PERF_RECORD_COMM (prctl and exec),
 * FORK and EXIT (with inherit), MMAP and MMAP2 for code and data mappings,
 * NAMESPACES (fork, unshare, setns), TEXT_POKE (a tracepoint enabled and
 * disabled), each with the sample_id trailer of attr.sample_id_all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <linux/elf.h>

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
	return perf_map_next_type(m, buf, REC_MAX, type);
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

/* exec sets the new comm with PERF_RECORD_MISC_COMM_EXEC. */
TEST(comm_on_exec)
{
	uint64_t buf[REC_MAX / 8];
	struct perf_event_header *h;
	struct perf_event_attr attr;
	struct perf_map m;
	int go, fd, status;
	pid_t pid;

	pid = fork_held(&go);
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		execl("/bin/true", "true", NULL);
		_exit(127);
	}
	sw_attr(&attr, PERF_COUNT_SW_DUMMY);
	attr.comm = 1;
	fd = sys_perf_event_open(&attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 2, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(release_child(go), 0);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	h = next_of(&m, PERF_RECORD_COMM, buf);
	ASSERT_NE(h, NULL);
	EXPECT_TRUE(h->misc & PERF_RECORD_MISC_COMM_EXEC);
	EXPECT_EQ((uint32_t)buf[1], pid);
	EXPECT_STREQ((char *)&buf[2], "true");
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

/*
 * The GNU build id of our executable, from its PT_NOTE segments; the size
 * (0 if it has none).
 */
static int exe_build_id(uint8_t *id)
{
	static char file[1 << 22];
	struct elf64_hdr *eh = (struct elf64_hdr *)file;
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	ssize_t len = fd < 0 ? -1 : read(fd, file, sizeof(file));

	if (fd >= 0)
		close(fd);
	if (len < (ssize_t)sizeof(*eh))
		return 0;
	for (int i = 0; i < eh->e_phnum; i++) {
		struct elf64_phdr *ph = (struct elf64_phdr *)(file + eh->e_phoff) + i;
		size_t off = ph->p_offset, end = off + ph->p_filesz;

		if (ph->p_type != PT_NOTE || end > (size_t)len)
			continue;
		while (off + sizeof(struct elf64_note) <= end) {
			struct elf64_note *n = (struct elf64_note *)(file + off);
			char *name = (char *)(n + 1);
			size_t desc = off + sizeof(*n) + ((n->n_namesz + 3) & ~3);

			if (n->n_type == 3 /* NT_GNU_BUILD_ID */ &&
			    n->n_namesz == 4 &&
			    !memcmp(name, "GNU", 4) && n->n_descsz <= 20) {
				memcpy(id, file + desc, n->n_descsz);
				return n->n_descsz;
			}
			off = desc + ((n->n_descsz + 3) & ~3);
		}
	}
	return 0;
}

static void want_build_id(struct perf_event_attr *a)
{
	a->mmap = 1;
	a->mmap2 = 1;
	a->build_id = 1;
}

/* With attr.build_id, MMAP2 names the file by its build id. */
TEST(mmap2_build_id)
{
	uint64_t buf[REC_MAX / 8];
	struct perf_event_header *h;
	struct perf_map m;
	uint8_t id[20], *rec;
	int fd, file, size;
	off_t len;
	void *p;

	size = exe_build_id(id);
	if (!size)
		SKIP(return, "the test binary has no build id");
	fd = open_dummy(want_build_id);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 4, PROT_READ | PROT_WRITE), 0);
	p = map_self(&file, &len);
	ASSERT_NE(p, MAP_FAILED);
	h = next_map(&m, PERF_RECORD_MMAP2, buf, p);
	ASSERT_NE(h, NULL);
	EXPECT_TRUE(h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID);
	rec = (uint8_t *)&buf[5];	/* after pid/tid, addr, len, pgoff */
	EXPECT_EQ(rec[0], size);
	EXPECT_EQ(memcmp(rec + 4, id, size), 0);
	munmap(p, len);
	close(file);
	perf_map_close(&m);
	close(fd);
}

static void want_switch(struct perf_event_attr *a) { a->context_switch = 1; }

/* A task's event hears of its task's switches, out and in. */
TEST(switch_of_task)
{
	uint64_t buf[REC_MAX / 8], id;
	struct perf_event_header *h;
	struct perf_map m;
	int fd, out = 0, in = 0;

	fd = open_dummy(want_switch);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ID, &id), 0);
	ASSERT_EQ(perf_map_open(&m, fd, 4, PROT_READ | PROT_WRITE), 0);
	for (int i = 0; i < 6; i++)
		usleep(2000);
	while ((h = next_of(&m, PERF_RECORD_SWITCH, buf))) {
		ASSERT_EQ(h->size, 8 + 16);
		check_id(_metadata, h, id, getpid());
		if (h->misc & PERF_RECORD_MISC_SWITCH_OUT)
			out++;
		else
			in++;
	}
	EXPECT_GE(out, 3);
	EXPECT_GE(in, 3);
	perf_map_close(&m);
	close(fd);
}

/* A CPU's event hears of every switch there, with the other task named. */
TEST(switch_cpu_wide)
{
	uint64_t buf[REC_MAX / 8];
	struct perf_event_header *h;
	struct perf_event_attr attr;
	struct perf_map m;
	int fd, out = 0, in = 0;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	ASSERT_EQ(sched_setaffinity(0, sizeof(set), &set), 0);
	sw_attr(&attr, PERF_COUNT_SW_DUMMY);
	attr.sample_type = ID_TYPE;
	attr.sample_id_all = 1;
	attr.context_switch = 1;
	fd = sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EACCES)
		SKIP(return, "CPU events not permitted");
	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 16, PROT_READ | PROT_WRITE), 0);
	for (int i = 0; i < 6; i++)
		usleep(2000);
	while ((h = next_of(&m, PERF_RECORD_SWITCH_CPU_WIDE, buf))) {
		ASSERT_EQ(h->size, 8 + 8 + 16);
		/* the records written in our name */
		if ((uint32_t)buf[2] != getpid())
			continue;
		if (h->misc & PERF_RECORD_MISC_SWITCH_OUT)
			out++;
		else
			in++;
	}
	EXPECT_GE(out, 3);
	EXPECT_GE(in, 3);
	perf_map_close(&m);
	close(fd);
}

static void want_ksymbol(struct perf_event_attr *a) { a->ksymbol = 1; }
static void want_bpf(struct perf_event_attr *a) { a->bpf_event = 1; }
static void want_text_poke(struct perf_event_attr *a) { a->text_poke = 1; }

/*
 * Events for KSYMBOL, BPF_EVENT and TEXT_POKE records open and map; the
 * records themselves are tested by bpf_events (KSYMBOL, BPF_EVENT) and
 * text_poke_of_a_tracepoint below.
 */
TEST(kernel_text_records_accepted)
{
	void (*want[])(struct perf_event_attr *a) = {
		want_ksymbol, want_bpf, want_text_poke,
	};
	struct perf_map m;

	for (int i = 0; i < 3; i++) {
		int fd = open_dummy(want[i]);

		ASSERT_GE(fd, 0);
		ASSERT_EQ(perf_map_open(&m, fd, 1, PROT_READ | PROT_WRITE), 0);
		perf_map_close(&m);
		close(fd);
	}
}

#define POKES_MAX	16

struct text_poke {
	uint64_t addr;
	uint16_t len;
	uint8_t old[16], new[16];
};

/*
 * The TEXT_POKE records in @m: address, old and new bytes of the same
 * length (x86 replaces instructions like for like), the kernel cpumode,
 * our id trailer.  Returns how many were read into @p.
 */
static int read_pokes(struct __test_metadata *_metadata, struct perf_map *m,
		      uint64_t id, struct text_poke *p)
{
	uint64_t buf[REC_MAX / 8];
	struct perf_event_header *h;
	int n = 0;

	while (n < POKES_MAX && (h = next_of(m, PERF_RECORD_TEXT_POKE, buf))) {
		uint16_t old_len = buf[2], new_len = buf[2] >> 16;
		uint8_t *bytes = (uint8_t *)&buf[2] + 4;

		EXPECT_EQ(h->misc, PERF_RECORD_MISC_KERNEL);
		EXPECT_EQ(old_len, new_len);
		if (!old_len || old_len > sizeof(p->old) || old_len != new_len)
			break;
		EXPECT_EQ(h->size, ((8 + 8 + 4 + 2 * old_len + 7) & ~7) + 16);
		/* a kernel address, in the top half */
		EXPECT_NE(buf[1] >> 63, 0);
		EXPECT_NE(memcmp(bytes, bytes + old_len, old_len), 0);
		check_id(_metadata, h, id, getpid());
		p[n].addr = buf[1];
		p[n].len = old_len;
		memcpy(p[n].old, bytes, old_len);
		memcpy(p[n].new, bytes + old_len, old_len);
		n++;
	}
	return n;
}

/*
 * PERF_RECORD_TEXT_POKE: enabling a tracepoint patches the kernel text of
 * its static keys and static calls, and disabling it patches the same
 * bytes back.  x86 reports its pokes; arm64 does not.
 */
TEST(text_poke_of_a_tracepoint)
{
	struct text_poke on[POKES_MAX], off[POKES_MAX];
	struct perf_event_attr attr;
	struct perf_map m;
	int fd, tp, n_on, n_off;
	long tp_id = trace_event_id("sched/sched_wakeup");
	uint64_t id;

#ifndef __x86_64__
	SKIP(return, "only x86 reports the pokes of kernel text");
#endif
	if (tp_id < 0)
		SKIP(return, "no tracefs at /sys/kernel/tracing");
	fd = open_dummy(want_text_poke);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ID, &id), 0);
	ASSERT_EQ(perf_map_open(&m, fd, 4, PROT_READ | PROT_WRITE), 0);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = tp_id;
	tp = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(tp, 0);
	n_on = read_pokes(_metadata, &m, id, on);
	EXPECT_GE(n_on, 1);
	close(tp);
	n_off = read_pokes(_metadata, &m, id, off);
	EXPECT_EQ(n_off, n_on);
	/* each poke undone: the same address, old and new swapped */
	for (int i = 0; i < n_off; i++) {
		int j = 0;

		while (j < n_on && on[j].addr != off[i].addr)
			j++;
		ASSERT_LT(j, n_on);
		EXPECT_EQ(off[i].len, on[j].len);
		EXPECT_EQ(memcmp(off[i].old, on[j].new, on[j].len), 0);
		EXPECT_EQ(memcmp(off[i].new, on[j].old, on[j].len), 0);
	}
	perf_map_close(&m);
	close(fd);
}

/*
 * PERF_RECORD_NAMESPACES: pid, tid, nr_namespaces, then a {dev, inode} of
 * each namespace in the *_NS_INDEX order: what stat(2) of the task's
 * /proc/<pid>/ns file gives, zeroes where the kernel has no such file.
 */
static const char *const ns_names[NR_NAMESPACES] = {
	[NET_NS_INDEX] = "net",
	[UTS_NS_INDEX] = "uts",
	[IPC_NS_INDEX] = "ipc",
	[PID_NS_INDEX] = "pid",
	[USER_NS_INDEX] = "user",
	[MNT_NS_INDEX] = "mnt",
	[CGROUP_NS_INDEX] = "cgroup",
};

#define NS_REC_SIZE	(8 + 8 + 8 + NR_NAMESPACES * 16 + 16)

static void want_ns(struct perf_event_attr *a) { a->namespaces = 1; }

/* An event on the caller for NAMESPACES records, mapped; its id in *@id. */
static int open_ns(struct __test_metadata *_metadata, struct perf_map *m,
		   uint64_t *id)
{
	int fd = open_dummy(want_ns);

	if (fd < 0 && errno == EACCES)
		return -1;
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ID, id), 0);
	ASSERT_EQ(perf_map_open(m, fd, 2, PROT_READ | PROT_WRITE), 0);
	return fd;
}

/* Check the namespaces of a NAMESPACES record against /proc/@pid/ns. */
static void check_ns_links(struct __test_metadata *_metadata,
			   struct perf_event_header *h, pid_t pid)
{
	struct perf_ns_link_info *link;
	uint64_t *rec = (uint64_t *)h;
	char path[64];
	struct stat st;

	ASSERT_EQ(h->size, NS_REC_SIZE);
	EXPECT_EQ(h->misc, 0);
	ASSERT_EQ(rec[2], NR_NAMESPACES);
	link = (struct perf_ns_link_info *)&rec[3];
	for (int i = 0; i < NR_NAMESPACES; i++) {
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", pid,
			 ns_names[i]);
		if (stat(path, &st)) {
			ASSERT_EQ(errno, ENOENT);
			memset(&st, 0, sizeof(st));
		}
		EXPECT_EQ(link[i].dev, st.st_dev) TH_LOG("%s", ns_names[i]);
		EXPECT_EQ(link[i].ino, st.st_ino) TH_LOG("%s", ns_names[i]);
	}
}

/* The same, with pid and tid both @pid: a process's main thread. */
static void check_ns(struct __test_metadata *_metadata,
		     struct perf_event_header *h, pid_t pid)
{
	uint64_t *rec = (uint64_t *)h;

	EXPECT_EQ((uint32_t)rec[1], pid);
	EXPECT_EQ((uint32_t)(rec[1] >> 32), pid);
	check_ns_links(_metadata, h, pid);
}

/* No record at creation: the first comes with the next change. */
TEST(namespaces_on_unshare)
{
	uint64_t buf[REC_MAX / 8], id;
	struct perf_event_header *h;
	struct perf_map m;
	int fd;

	fd = open_ns(_metadata, &m, &id);
	if (fd < 0)
		SKIP(return, "namespaces need CAP_PERFMON");
	EXPECT_EQ(perf_map_head(&m), 0);
	/* any unshare(2) reports, even one that leaves them all alone */
	ASSERT_EQ(unshare(CLONE_FS), 0);
	h = next_of(&m, PERF_RECORD_NAMESPACES, buf);
	ASSERT_NE(h, NULL);
	check_ns(_metadata, h, getpid());
	check_id(_metadata, h, id, getpid());
	EXPECT_EQ(next_of(&m, PERF_RECORD_NAMESPACES, buf), NULL);
	perf_map_close(&m);
	close(fd);
}

static void want_ns_task(struct perf_event_attr *a)
{
	a->namespaces = 1;
	a->task = 1;
}

/* Every new task is reported, right after its FORK record. */
TEST(namespaces_on_fork)
{
	uint64_t buf[REC_MAX / 8], id;
	struct perf_event_header *h;
	struct perf_map m;
	int fd, go, status;
	pid_t pid;

	fd = open_dummy(want_ns_task);
	if (fd < 0 && errno == EACCES)
		SKIP(return, "namespaces need CAP_PERFMON");
	ASSERT_GE(fd, 0);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ID, &id), 0);
	ASSERT_EQ(perf_map_open(&m, fd, 2, PROT_READ | PROT_WRITE), 0);
	pid = fork_held(&go);
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(0);
	h = perf_map_next(&m, buf, REC_MAX);
	ASSERT_NE(h, NULL);
	EXPECT_EQ(h->type, PERF_RECORD_FORK);
	h = perf_map_next(&m, buf, REC_MAX);
	ASSERT_NE(h, NULL);
	ASSERT_EQ(h->type, PERF_RECORD_NAMESPACES);
	check_ns(_metadata, h, pid);
	/* written by the parent, in its fork(2) */
	check_id(_metadata, h, id, getpid());
	ASSERT_EQ(release_child(go), 0);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	perf_map_close(&m);
	close(fd);
}

/* A new thread too: pid is the process, tid the thread. */
static void *thread_tid(void *arg)
{
	*(pid_t *)arg = gettid();
	return NULL;
}

TEST(namespaces_on_thread)
{
	uint64_t buf[REC_MAX / 8], id;
	struct perf_event_header *h;
	struct perf_map m;
	pthread_t thread;
	pid_t tid = 0;
	int fd;

	fd = open_ns(_metadata, &m, &id);
	if (fd < 0)
		SKIP(return, "namespaces need CAP_PERFMON");
	ASSERT_EQ(pthread_create(&thread, NULL, thread_tid, &tid), 0);
	ASSERT_EQ(pthread_join(thread, NULL), 0);
	h = next_of(&m, PERF_RECORD_NAMESPACES, buf);
	ASSERT_NE(h, NULL);
	EXPECT_EQ((uint32_t)buf[1], getpid());
	EXPECT_EQ((uint32_t)(buf[1] >> 32), tid);
	/* a thread shares the namespaces of its process */
	check_ns_links(_metadata, h, getpid());
	perf_map_close(&m);
	close(fd);
}

/* A new uts namespace, then setns(2) back to the old one. */
TEST(namespaces_uts_unshare_and_setns)
{
	uint64_t buf[REC_MAX / 8], id;
	struct perf_ns_link_info *link;
	struct perf_event_header *h;
	struct stat old;
	struct perf_map m;
	int fd, ns;

	if (stat("/proc/self/ns/uts", &old))
		SKIP(return, "no uts namespaces");
	fd = open_ns(_metadata, &m, &id);
	if (fd < 0)
		SKIP(return, "namespaces need CAP_PERFMON");
	ns = open("/proc/self/ns/uts", O_RDONLY | O_CLOEXEC);
	ASSERT_GE(ns, 0);
	if (unshare(CLONE_NEWUTS))
		SKIP(return, "unshare(CLONE_NEWUTS): %s", strerror(errno));
	h = next_of(&m, PERF_RECORD_NAMESPACES, buf);
	ASSERT_NE(h, NULL);
	check_ns(_metadata, h, getpid());
	link = (struct perf_ns_link_info *)&buf[3];
	EXPECT_NE(link[UTS_NS_INDEX].ino, old.st_ino);

	ASSERT_EQ(setns(ns, CLONE_NEWUTS), 0);
	h = next_of(&m, PERF_RECORD_NAMESPACES, buf);
	ASSERT_NE(h, NULL);
	check_ns(_metadata, h, getpid());
	EXPECT_EQ(link[UTS_NS_INDEX].ino, old.st_ino);
	close(ns);
	perf_map_close(&m);
	close(fd);
}

/*
 * A child in a new pid namespace: its record names it by the pid the
 * event's creator sees, and its pid namespace is the new one.
 */
TEST(namespaces_new_pid_ns)
{
	uint64_t buf[REC_MAX / 8], id;
	struct perf_event_header *h;
	struct perf_map m;
	int fd, go, status;
	pid_t pid;

	if (access("/proc/self/ns/pid", F_OK))
		SKIP(return, "no pid namespaces");
	fd = open_ns(_metadata, &m, &id);
	if (fd < 0)
		SKIP(return, "namespaces need CAP_PERFMON");
	if (unshare(CLONE_NEWPID))
		SKIP(return, "unshare(CLONE_NEWPID): %s", strerror(errno));
	/* the caller's own pid namespace stays */
	h = next_of(&m, PERF_RECORD_NAMESPACES, buf);
	ASSERT_NE(h, NULL);
	check_ns(_metadata, h, getpid());

	pid = fork_held(&go);
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(0);
	h = next_of(&m, PERF_RECORD_NAMESPACES, buf);
	ASSERT_NE(h, NULL);
	check_ns(_metadata, h, pid);
	ASSERT_EQ(release_child(go), 0);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	perf_map_close(&m);
	close(fd);
}

/* The record takes CAP_PERFMON (or CAP_SYS_ADMIN), whatever the paranoia. */
TEST(namespaces_need_perfmon)
{
	struct perf_event_attr attr;
	int status;
	pid_t pid;

	if (getuid() != 0)
		SKIP(return, "needs root to drop to an unprivileged user");
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int fd;

		if (setuid(65534))
			_exit(2);
		sw_attr(&attr, PERF_COUNT_SW_DUMMY);
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		if (fd < 0)
			_exit(3);	/* perf_event_paranoid forbids all */
		close(fd);
		attr.namespaces = 1;
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		_exit(fd < 0 && errno == EACCES ? 0 : 1);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) == 3)
		SKIP(return, "perf_event_paranoid forbids unprivileged events");
	EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST_HARNESS_MAIN
