// SPDX-License-Identifier: GPL-2.0
/*
 * BPF programs as perf events see them: the PERF_RECORD_KSYMBOL and
 * PERF_RECORD_BPF_EVENT records of a program's load and unload (a dummy
 * event with attr.ksymbol and attr.bpf_event), checked against what
 * bpf(BPF_OBJ_GET_INFO_BY_FD) says of the program, and the errnos of
 * PERF_EVENT_IOC_SET_BPF and of a perf_event link for what an event
 * cannot take.  The programs are BPF_PROG_TYPE_SYSCALL ones, which need
 * neither kprobes nor networking.  Needs root, bpf() and its JIT.
 */
#define _GNU_SOURCE
#include <linux/bpf.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"
#include "perf_records.h"

#define REC_MAX		1024
#define ID_TYPE		(PERF_SAMPLE_TID | PERF_SAMPLE_IDENTIFIER)
#define MAX_FUNCS	4
#define SYM_MAX		64	/* "bpf_prog_", a tag, "_", a name */

/* The first fields of PERF_RECORD_KSYMBOL and of PERF_RECORD_BPF_EVENT */
struct ksymbol_rec {
	struct perf_event_header header;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type;
	uint16_t flags;
	char name[];
};

struct bpf_event_rec {
	struct perf_event_header header;
	uint16_t type;
	uint16_t flags;
	uint32_t id;
	uint8_t tag[BPF_TAG_SIZE];
};

/* What the kernel says of a loaded program. */
struct prog {
	int fd;
	struct bpf_prog_info info;
	uint64_t ksyms[MAX_FUNCS];
	uint32_t lens[MAX_FUNCS];
};

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })
#define MOV_R0(i)	INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, i)
#define EXIT		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* a bpf-to-bpf call of the function @i instructions after the next */
#define CALL(i)		INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, i)

/*
 * Load a sleepable syscall program named @name with @funcs functions (1
 * or 2) and read its info.  Returns 0, or -errno of the failing call.
 */
static int prog_load(struct prog *p, const char *name, int funcs)
{
	struct bpf_insn one[] = { MOV_R0(0), EXIT };
	struct bpf_insn two[] = { CALL(2), MOV_R0(0), EXIT, MOV_R0(1), EXIT };
	union bpf_attr a;

	memset(p, 0, sizeof(*p));
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SYSCALL;
	a.prog_flags = BPF_F_SLEEPABLE;
	a.insns = (uintptr_t)(funcs == 1 ? one : two);
	a.insn_cnt = funcs == 1 ? 2 : 5;
	a.license = (uintptr_t)"GPL";
	snprintf(a.prog_name, sizeof(a.prog_name), "%s", name);
	p->fd = syscall(__NR_bpf, BPF_PROG_LOAD, &a, sizeof(a));
	if (p->fd < 0)
		return -errno;

	p->info.nr_jited_ksyms = MAX_FUNCS;
	p->info.jited_ksyms = (uintptr_t)p->ksyms;
	p->info.nr_jited_func_lens = MAX_FUNCS;
	p->info.jited_func_lens = (uintptr_t)p->lens;
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = p->fd;
	a.info.info_len = sizeof(p->info);
	a.info.info = (uintptr_t)&p->info;
	if (syscall(__NR_bpf, BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a)))
		return -errno;
	return 0;
}

/* "bpf_prog_<tag in hex>", then "_<name>" where there is a name */
static void prog_sym(char *sym, size_t size, const uint8_t *tag,
		     const char *name)
{
	int n = snprintf(sym, size, "bpf_prog_");

	for (int i = 0; i < BPF_TAG_SIZE; i++)
		n += snprintf(sym + n, size - n, "%02x", tag[i]);
	if (*name)
		snprintf(sym + n, size - n, "_%s", name);
}

/* A dummy event on the caller for @ksymbol and @bpf_event records. */
static int open_listener(int ksymbol, int bpf_event)
{
	struct perf_event_attr attr;

	sw_attr(&attr, PERF_COUNT_SW_DUMMY);
	attr.sample_type = ID_TYPE;
	attr.sample_id_all = 1;
	attr.ksymbol = ksymbol;
	attr.bpf_event = bpf_event;
	return sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* The listener of a test: its event, id, buffer and a record's copy. */
struct listener {
	int fd;
	uint64_t id;
	struct perf_map m;
	uint64_t buf[REC_MAX / 8];
};

FIXTURE(bpf) {
	struct listener l;
};

FIXTURE_SETUP(bpf)
{
	struct listener *l = &self->l;
	struct prog p;

	l->fd = open_listener(1, 1);
	ASSERT_GE(l->fd, 0);
	ASSERT_EQ(ioctl(l->fd, PERF_EVENT_IOC_ID, &l->id), 0);
	ASSERT_EQ(perf_map_open(&l->m, l->fd, 4, PROT_READ | PROT_WRITE), 0);
	if (access("/proc/sys/kernel/unprivileged_bpf_disabled", F_OK))
		SKIP(return, "kernel without bpf()");
	/* a first program: is there a JIT? */
	ASSERT_EQ(prog_load(&p, "probe", 1), 0);
	close(p.fd);
	if (!p.info.nr_jited_ksyms)
		SKIP(return, "no BPF JIT");
	/* start the tests past the probe's records */
	while (perf_map_next(&l->m, l->buf, sizeof(l->buf)))
		;
}

FIXTURE_TEARDOWN(bpf)
{
	perf_map_close(&self->l.m);
	close(self->l.fd);
}

/* The next record, which must be of @type; NULL if there is none. */
static void *next_rec(struct perf_map *m, uint64_t *buf, uint32_t type,
		      struct __test_metadata *_metadata)
{
	struct perf_event_header *h;

	h = perf_map_next(m, buf, REC_MAX);
	if (h)
		EXPECT_EQ(h->type, type);
	return h && h->type == type ? h : NULL;
}

/* The sample_id trailer of a record: our pid and tid, the event's id. */
static void check_trailer(struct __test_metadata *_metadata,
			  struct perf_event_header *h, uint64_t id)
{
	uint64_t *tail = (uint64_t *)((char *)h + h->size) - 2;

	EXPECT_EQ((uint32_t)tail[0], getpid());
	EXPECT_EQ((uint32_t)(tail[0] >> 32), gettid());
	EXPECT_EQ(tail[1], id);
}

/*
 * The KSYMBOL record of function @i of @p: address and length as the
 * program's info gives them, type BPF, its kallsyms name @sym.
 */
static void expect_ksymbol(struct listener *l, struct prog *p, int i,
			   const char *sym, int unregister,
			   struct __test_metadata *_metadata)
{
	struct ksymbol_rec *k;
	size_t name_size = (strlen(sym) + 1 + 7) & ~7UL;

	k = next_rec(&l->m, l->buf, PERF_RECORD_KSYMBOL, _metadata);
	ASSERT_NE(k, NULL);
	EXPECT_EQ(k->header.misc, 0);
	EXPECT_EQ(k->header.size, sizeof(*k) + name_size + 16);
	EXPECT_EQ(k->addr, p->ksyms[i]);
	EXPECT_EQ(k->len, p->lens[i]);
	EXPECT_EQ(k->ksym_type, PERF_RECORD_KSYMBOL_TYPE_BPF);
	EXPECT_EQ(k->flags,
		  unregister ? PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER : 0);
	EXPECT_STREQ(k->name, sym);
	check_trailer(_metadata, &k->header, l->id);
}

static void expect_bpf_event(struct listener *l, struct prog *p,
			     uint16_t type, struct __test_metadata *_metadata)
{
	struct bpf_event_rec *b;

	b = next_rec(&l->m, l->buf, PERF_RECORD_BPF_EVENT, _metadata);
	ASSERT_NE(b, NULL);
	EXPECT_EQ(b->header.misc, 0);
	EXPECT_EQ(b->header.size, sizeof(*b) + 16);
	EXPECT_EQ(b->type, type);
	EXPECT_EQ(b->flags, 0);
	EXPECT_EQ(b->id, p->info.id);
	EXPECT_EQ(memcmp(b->tag, p->info.tag, BPF_TAG_SIZE), 0);
	check_trailer(_metadata, &b->header, l->id);
}

/*
 * Load a one-function program named @name: the KSYMBOL of its code under
 * @sym (of SYM_MAX bytes), then the BPF_EVENT.
 */
static void load_one(struct listener *l, struct prog *p, const char *name,
		     char *sym, struct __test_metadata *_metadata)
{
	ASSERT_EQ(prog_load(p, name, 1), 0);
	ASSERT_EQ(p->info.nr_jited_ksyms, 1);
	prog_sym(sym, SYM_MAX, p->info.tag, name);
	expect_ksymbol(l, p, 0, sym, 0, _metadata);
	expect_bpf_event(l, p, PERF_BPF_EVENT_PROG_LOAD, _metadata);
}

/* A load: the KSYMBOL of the program's code, then the BPF_EVENT. */
TEST_F(bpf, load)
{
	char sym[SYM_MAX];
	struct prog p;

	load_one(&self->l, &p, "sb_one", sym, _metadata);
	EXPECT_EQ(perf_map_next(&self->l.m, self->l.buf, REC_MAX), NULL);
	close(p.fd);
}

/* The last close unloads: UNREGISTER KSYMBOL records, then BPF_EVENT. */
TEST_F(bpf, unload)
{
	char sym[SYM_MAX];
	struct prog p;

	load_one(&self->l, &p, "sb_gone", sym, _metadata);
	close(p.fd);
	expect_ksymbol(&self->l, &p, 0, sym, 1, _metadata);
	expect_bpf_event(&self->l, &p, PERF_BPF_EVENT_PROG_UNLOAD, _metadata);
}

/* A program without a name is "bpf_prog_<tag>" in kallsyms and records. */
TEST_F(bpf, unnamed)
{
	char sym[SYM_MAX];
	struct prog p;

	load_one(&self->l, &p, "", sym, _metadata);
	close(p.fd);
}

/*
 * A program with a subprogram: one KSYMBOL per function, the main one
 * under the program's name, the subprogram as "bpf_prog_<its tag>_F".
 */
TEST_F(bpf, subprograms)
{
	struct ksymbol_rec *k;
	char sym[SYM_MAX];
	struct prog p;

	ASSERT_EQ(prog_load(&p, "sb_two", 2), 0);
	ASSERT_EQ(p.info.nr_jited_ksyms, 2);
	prog_sym(sym, sizeof(sym), p.info.tag, "sb_two");
	expect_ksymbol(&self->l, &p, 0, sym, 0, _metadata);
	k = next_rec(&self->l.m, self->l.buf, PERF_RECORD_KSYMBOL, _metadata);
	ASSERT_NE(k, NULL);
	EXPECT_EQ(k->addr, p.ksyms[1]);
	EXPECT_EQ(k->len, p.lens[1]);
	EXPECT_EQ(k->ksym_type, PERF_RECORD_KSYMBOL_TYPE_BPF);
	EXPECT_EQ(strncmp(k->name, "bpf_prog_", 9), 0);
	EXPECT_EQ(strlen(k->name), 9 + 2 * BPF_TAG_SIZE + 2);
	EXPECT_STREQ(k->name + 9 + 2 * BPF_TAG_SIZE, "_F");
	expect_bpf_event(&self->l, &p, PERF_BPF_EVENT_PROG_LOAD, _metadata);
	close(p.fd);
}

/* attr.ksymbol and attr.bpf_event each bring their own records only. */
TEST_F(bpf, each_flag_its_records)
{
	uint64_t buf[REC_MAX / 8];
	struct perf_event_header *h;
	struct perf_map mk, mb;
	int fk, fb, nk = 0, nb = 0;
	struct prog p;

	fk = open_listener(1, 0);
	ASSERT_GE(fk, 0);
	fb = open_listener(0, 1);
	ASSERT_GE(fb, 0);
	ASSERT_EQ(perf_map_open(&mk, fk, 1, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(perf_map_open(&mb, fb, 1, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(prog_load(&p, "sb_flags", 1), 0);
	close(p.fd);
	while ((h = perf_map_next(&mk, buf, sizeof(buf))))
		if (h->type == PERF_RECORD_KSYMBOL)
			nk++;
		else
			EXPECT_EQ(h->type, PERF_RECORD_KSYMBOL);
	while ((h = perf_map_next(&mb, buf, sizeof(buf))))
		if (h->type == PERF_RECORD_BPF_EVENT)
			nb++;
		else
			EXPECT_EQ(h->type, PERF_RECORD_BPF_EVENT);
	EXPECT_EQ(nk, 2);	/* load and unload */
	EXPECT_EQ(nb, 2);
	perf_map_close(&mk);
	perf_map_close(&mb);
	close(fk);
	close(fb);
}

static int set_bpf(int fd, int prog_fd)
{
	return ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd) ? -errno : 0;
}

/*
 * SET_BPF takes a program's fd: EBADF for no file, EINVAL for a file that
 * is not a program or a program of a type the event cannot run (a
 * syscall program suits no event).
 */
TEST_F(bpf, set_bpf_errnos)
{
	struct perf_event_attr attr;
	int sw, sampling;
	struct prog p;

	ASSERT_EQ(prog_load(&p, "sb_set", 1), 0);
	sw = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1, 0);
	ASSERT_GE(sw, 0);
	sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.sample_period = 1000000;
	attr.disabled = 1;
	sampling = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(sampling, 0);
	EXPECT_EQ(set_bpf(sw, -1), -EBADF);
	EXPECT_EQ(set_bpf(sw, 1000), -EBADF);
	EXPECT_EQ(set_bpf(sw, self->l.fd), -EINVAL);
	EXPECT_EQ(set_bpf(sw, p.fd), -EINVAL);
	EXPECT_EQ(set_bpf(sampling, p.fd), -EINVAL);
	close(sampling);
	close(sw);
	close(p.fd);
}

/* bpf(BPF_LINK_CREATE) of a syscall program on a perf event: EINVAL. */
TEST_F(bpf, link_create_errno)
{
	union bpf_attr a;
	struct prog p;
	int sw;

	ASSERT_EQ(prog_load(&p, "sb_link", 1), 0);
	sw = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1, 0);
	ASSERT_GE(sw, 0);
	memset(&a, 0, sizeof(a));
	a.link_create.prog_fd = p.fd;
	a.link_create.target_fd = sw;
	a.link_create.attach_type = BPF_PERF_EVENT;
	EXPECT_EQ(syscall(__NR_bpf, BPF_LINK_CREATE, &a, sizeof(a)), -1);
	EXPECT_EQ(errno, EINVAL);
	close(sw);
	close(p.fd);
}

TEST_HARNESS_MAIN
