// SPDX-License-Identifier: GPL-2.0
/*
 * BPF programs that run on perf events: a kprobe program on an event of
 * the kprobe PMU, a tracepoint program on a tracepoint event (both run at
 * each hit, before perf counts it, and drop it by returning 0), and a
 * perf_event program on a sampling event (run at each overflow on the
 * sample; returning 0 drops the sample).  Also bpf_perf_event_output()
 * into a BPF_OUTPUT event through a perf event array, the program of an
 * inherited event running for the child, the stack helpers, counter
 * reads from a program, PERF_EVENT_IOC_QUERY_BPF, a
 * perf_event link that detaches when closed, and the errnos of a program
 * an event cannot take.  The programs are a few instructions written out
 * here, with an array map of counters.  Needs root (kprobes, tracepoints,
 * bpf()).
 */
#define _GNU_SOURCE
#include <linux/bpf.h>
#include <linux/bpf_perf_event.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"
#include "bpf_helpers.h"
#include "perf_records.h"

#define TP_FORK		"sched/sched_process_fork"
#define FUNC		"vfs_read"
#define HITS		16
#define REC_MAX		512
#define OUT_MAGIC	0x5eedf00dULL

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })
#define MOV64_IMM(d, i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV32_IMM(d, i)		INSN(BPF_ALU | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV64_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADD64_IMM(d, i)		INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define ST_W(d, o, i)		INSN(BPF_ST | BPF_MEM | BPF_W, d, 0, o, i)
#define ST_DW(d, o, i)		INSN(BPF_ST | BPF_MEM | BPF_DW, d, 0, o, i)
#define STX_DW(d, s, o)		INSN(BPF_STX | BPF_MEM | BPF_DW, d, s, o, 0)
#define LDX_DW(d, s, o)		INSN(BPF_LDX | BPF_MEM | BPF_DW, d, s, o, 0)
#define XADD_DW(d, s, o) \
	INSN(BPF_STX | BPF_ATOMIC | BPF_DW, d, s, o, BPF_ADD)
#define JEQ_IMM(d, i, o)	INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
#define JNE_IMM(d, i, o)	INSN(BPF_JMP | BPF_JNE | BPF_K, d, 0, o, i)
#define JSLT_IMM(d, i, o)	INSN(BPF_JMP | BPF_JSLT | BPF_K, d, 0, o, i)
#define JA(o)			INSN(BPF_JMP | BPF_JA, 0, 0, o, 0)
#define CALL(f)			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* a 64-bit load takes two instructions: the low half, then the high */
#define LD64_LO(d, src, i)	INSN(BPF_LD | BPF_DW | BPF_IMM, d, src, 0, i)
#define LD64_HI(i)		INSN(0, 0, 0, 0, i)

/* slots of the counter map */
enum { SLOT_RUNS, SLOT_PERIOD, SLOT_FAILS, SLOT_VALUE, NR_SLOTS };

/*
 * A u64 slot of the counter map.  A failed lookup ends the test (the
 * harness reports the abort): no value would be right to compare.
 */
static uint64_t map_get(int map, uint32_t key)
{
	union bpf_attr a;
	uint64_t v;

	memset(&a, 0, sizeof(a));
	a.map_fd = map;
	a.key = (uintptr_t)&key;
	a.value = (uintptr_t)&v;
	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &a)) {
		perror("BPF_MAP_LOOKUP_ELEM");
		abort();
	}
	return v;
}

static int map_update(int map, uint32_t key, const void *value)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = map;
	a.key = (uintptr_t)&key;
	a.value = (uintptr_t)value;
	return sys_bpf(BPF_MAP_UPDATE_ELEM, &a);
}

/* Set a u64 slot of the counter map. */
static int map_set(int map, uint32_t key, uint64_t v)
{
	return map_update(map, key, &v);
}

/* Put the event @fd at @key of a perf event array. */
static int map_set_fd(int map, uint32_t key, uint32_t fd)
{
	return map_update(map, key, &fd);
}

static char verifier_log[4096];

/* Load @n instructions as a program of @type; the fd or -errno. */
static int prog_load(int type, const struct bpf_insn *insns, int n)
{
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_type = type;
	a.insns = (uintptr_t)insns;
	a.insn_cnt = n;
	a.license = (uintptr_t)"GPL";
	a.log_buf = (uintptr_t)verifier_log;
	a.log_size = sizeof(verifier_log);
	a.log_level = 1;
	verifier_log[0] = 0;
	fd = sys_bpf(BPF_PROG_LOAD, &a);
	return fd < 0 ? -errno : fd;
}

/*
 * A program that adds 1 to slot 0 of @map, for a perf_event program
 * copies the sample's period into slot 1, and returns @ret.
 */
static int load_counter(int type, int map, int ret)
{
	struct bpf_insn insns[] = {
		MOV64_REG(6, 1),
		ST_W(10, -4, SLOT_RUNS),
		LD64_LO(1, BPF_PSEUDO_MAP_FD, map),
		LD64_HI(0),
		MOV64_REG(2, 10),
		ADD64_IMM(2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(0, 0, 2),
		MOV64_IMM(1, 1),
		XADD_DW(0, 1, 0),
		/* the period: perf_event programs only */
		ST_W(10, -4, SLOT_PERIOD),
		LD64_LO(1, BPF_PSEUDO_MAP_FD, map),
		LD64_HI(0),
		MOV64_REG(2, 10),
		ADD64_IMM(2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(0, 0, 2),
		LDX_DW(1, 6, offsetof(struct bpf_perf_event_data,
				      sample_period)),
		STX_DW(0, 1, 0),
		MOV64_IMM(0, ret),
		EXIT,
	};
	int n = ARRAY_SIZE(insns);

	if (type != BPF_PROG_TYPE_PERF_EVENT) {
		/* end after the count */
		insns[10] = MOV64_IMM(0, ret);
		insns[11] = EXIT;
		n = 12;
	}
	return prog_load(type, insns, n);
}

/* A program built instruction by instruction. */
struct prog_buf {
	struct bpf_insn insn[96];
	int n;
};

static void emit(struct prog_buf *p, struct bpf_insn insn)
{
	if (p->n < (int)ARRAY_SIZE(p->insn))
		p->insn[p->n++] = insn;
}

static void emit_map(struct prog_buf *p, int reg, int map)
{
	emit(p, LD64_LO(reg, BPF_PSEUDO_MAP_FD, map));
	emit(p, LD64_HI(0));
}

#define SLOT_INSNS	8	/* what emit_slot() emits */

/* Add (or with @set, store) register @reg (r6-r9) to slot @slot of @map. */
static void emit_slot(struct prog_buf *p, int map, int slot, int reg, int set)
{
	emit(p, ST_W(10, -4, slot));
	emit_map(p, 1, map);
	emit(p, MOV64_REG(2, 10));
	emit(p, ADD64_IMM(2, -4));
	emit(p, CALL(BPF_FUNC_map_lookup_elem));
	emit(p, JEQ_IMM(0, 0, 1));
	emit(p, set ? STX_DW(0, reg, 0) : XADD_DW(0, reg, 0));
}

/*
 * The end of a program that called a helper: with r7 its result, count a
 * success (r7 >= 0, or r7 == 0 with @zero_ok) in SLOT_RUNS and keep r7,
 * or with @value the u64 at fp-24, in SLOT_VALUE; count a failure in
 * SLOT_FAILS and keep its error in SLOT_VALUE.  Returns 1.
 */
static void emit_verdict(struct prog_buf *p, int map, int zero_ok, int value)
{
	emit(p, MOV64_IMM(8, 1));
	if (zero_ok)
		emit(p, JNE_IMM(7, 0, 2 * SLOT_INSNS + 1 + !!value));
	else
		emit(p, JSLT_IMM(7, 0, 2 * SLOT_INSNS + 1 + !!value));
	emit_slot(p, map, SLOT_RUNS, 8, 0);
	if (value)
		emit(p, LDX_DW(7, 10, -24));
	emit_slot(p, map, SLOT_VALUE, 7, 1);
	emit(p, JA(2 * SLOT_INSNS));
	emit_slot(p, map, SLOT_FAILS, 8, 0);
	emit_slot(p, map, SLOT_VALUE, 7, 1);
	emit(p, MOV64_IMM(0, 1));
	emit(p, EXIT);
}

/* A program that returns 1 and does nothing else. */
static int load_ret1(int type)
{
	struct bpf_insn insns[] = { MOV64_IMM(0, 1), EXIT };

	return prog_load(type, insns, ARRAY_SIZE(insns));
}

static int set_bpf(int fd, int prog)
{
	return ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog) ? -errno : 0;
}

static int open_kprobe(long type)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.type = type;
	attr.size = sizeof(attr);
	attr.kprobe_func = (uintptr_t)FUNC;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/*
 * Page faults of the caller, sampled at each one, into a ring; an
 * inherited one on CPU @cpu only (no ring for a task's inherited events
 * of every CPU).
 */
static int open_faults(int inherit, int cpu)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.exclude_kernel = 0;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TID;
	attr.inherit = inherit;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Run on CPU @cpu only, or (-1) on any. */
static void pin_cpu(int cpu)
{
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (cpu < 0 || i == cpu)
			CPU_SET(i, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
}

static void forks(int n)
{
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
}

/* Samples in @m, and how many of them are of task @tid (0: any). */
static int count_samples(struct perf_map *m, uint32_t tid)
{
	struct perf_event_header *h;
	uint64_t buf[REC_MAX / 8];
	struct perf_sample s;
	int n = 0;

	while ((h = perf_map_next_type(m, buf, sizeof(buf),
				       PERF_RECORD_SAMPLE))) {
		perf_sample_parse(h, PERF_SAMPLE_TID, 0, 0, &s);
		if (!tid || s.tid == tid)
			n++;
	}
	return n;
}

static uint32_t prog_id(int prog)
{
	struct bpf_prog_info info;
	union bpf_attr a;

	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = prog;
	a.info.info_len = sizeof(info);
	a.info.info = (uintptr_t)&info;
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a) ? 0 : info.id;
}

FIXTURE(bpf) {
	long kprobe;		/* the kprobe PMU's type */
	long fork_tp;		/* the id of sched_process_fork */
	int map;
};

FIXTURE_SETUP(bpf)
{
	int prog;

	self->map = -1;
	if (geteuid() != 0)
		SKIP(return, "needs root");
	self->map = map_create(BPF_MAP_TYPE_ARRAY, sizeof(uint64_t),
			       NR_SLOTS);
	if (self->map < 0)
		SKIP(return, "no bpf(): %s", strerror(errno));
	prog = load_ret1(BPF_PROG_TYPE_PERF_EVENT);
	if (prog == -EINVAL)
		SKIP(return, "no BPF programs on perf events (BPF_EVENTS)");
	ASSERT_LE(0, prog) TH_LOG("%s", verifier_log);
	close(prog);
	self->kprobe = kprobe_type();
	self->fork_tp = trace_event_id(TP_FORK);
}

FIXTURE_TEARDOWN(bpf)
{
	if (self->map >= 0)
		close(self->map);
}

/*
 * A kprobe program runs at every hit; returning 1 lets perf count the
 * hit, 0 drops it (the program still ran).
 */
TEST_F(bpf, kprobe_program)
{
	for (int ret = 1; ret >= 0; ret--) {
		int fd, prog;
		int64_t n;

		if (self->kprobe < 0)
			SKIP(return, "no kprobe PMU");
		ASSERT_EQ(0, map_set(self->map, SLOT_RUNS, 0));
		fd = open_kprobe(self->kprobe);
		ASSERT_LE(0, fd) TH_LOG("kprobe: %s", strerror(-fd));
		prog = load_counter(BPF_PROG_TYPE_KPROBE, self->map, ret);
		ASSERT_LE(0, prog) TH_LOG("%s", verifier_log);
		ASSERT_EQ(0, set_bpf(fd, prog));
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		null_reads(HITS);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		n = read_count(fd);
		EXPECT_LE(HITS, map_get(self->map, SLOT_RUNS));
		EXPECT_LE(ret ? HITS : 0, n);
		EXPECT_GE(ret ? HITS + 4 : 0, n);
		close(prog);
		close(fd);
		/* the event's program went with it */
		ASSERT_EQ(0, map_set(self->map, SLOT_RUNS, 0));
		null_reads(HITS);
		EXPECT_EQ(0, map_get(self->map, SLOT_RUNS));
	}
}

/* A tracepoint program on the tracepoint's event, the same way. */
TEST_F(bpf, tracepoint_program)
{
	for (int ret = 1; ret >= 0; ret--) {
		int fd, prog;
		int64_t n;

		if (self->fork_tp < 0)
			SKIP(return, "no " TP_FORK " tracepoint");
		ASSERT_EQ(0, map_set(self->map, SLOT_RUNS, 0));
		fd = open_trace_event(self->fork_tp, 0, -1);
		ASSERT_LE(0, fd);
		prog = load_counter(BPF_PROG_TYPE_TRACEPOINT, self->map, ret);
		ASSERT_LE(0, prog) TH_LOG("%s", verifier_log);
		ASSERT_EQ(0, set_bpf(fd, prog));
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		forks(4);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		n = read_count(fd);
		EXPECT_LE(4, map_get(self->map, SLOT_RUNS));
		EXPECT_EQ(ret ? 4 : 0, n);
		close(prog);
		close(fd);
	}
}

/*
 * A perf_event program runs at each overflow, sees the sample's period,
 * and drops the sample by returning 0.
 */
TEST_F(bpf, perf_event_program)
{
	for (int ret = 1; ret >= 0; ret--) {
		struct perf_map m;
		int fd, prog, n;

		ASSERT_EQ(0, map_set(self->map, SLOT_RUNS, 0));
		ASSERT_EQ(0, map_set(self->map, SLOT_PERIOD, 0));
		fd = open_faults(0, -1);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, perf_map_open(&m, fd, 8, PROT_READ | PROT_WRITE));
		prog = load_counter(BPF_PROG_TYPE_PERF_EVENT, self->map, ret);
		ASSERT_LE(0, prog) TH_LOG("%s", verifier_log);
		ASSERT_EQ(0, set_bpf(fd, prog));
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		touch_pages(HITS);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		n = count_samples(&m, 0);
		EXPECT_LE(HITS, map_get(self->map, SLOT_RUNS));
		EXPECT_EQ(1, map_get(self->map, SLOT_PERIOD));
		EXPECT_EQ(ret ? map_get(self->map, SLOT_RUNS) : 0, n);
		/* the count goes on either way */
		EXPECT_LE(HITS, read_count(fd));
		perf_map_close(&m);
		close(prog);
		close(fd);
	}
}

/* The copy of an inherited event runs the program for the child. */
TEST_F(bpf, inherited_program)
{
	struct perf_map m;
	int fd, prog, status;
	pid_t pid;

	ASSERT_EQ(0, map_set(self->map, SLOT_RUNS, 0));
	pin_cpu(0);
	fd = open_faults(1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, perf_map_open(&m, fd, 8, PROT_READ | PROT_WRITE));
	prog = load_counter(BPF_PROG_TYPE_PERF_EVENT, self->map, 0);
	ASSERT_LE(0, prog) TH_LOG("%s", verifier_log);
	ASSERT_EQ(0, set_bpf(fd, prog));
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		touch_pages(HITS);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	EXPECT_EQ(0, count_samples(&m, pid));
	EXPECT_LE(HITS, map_get(self->map, SLOT_RUNS));
	perf_map_close(&m);
	close(prog);
	close(fd);
	pin_cpu(-1);
}

/*
 * bpf_perf_event_output() from a kprobe program: the record lands as a
 * sample with the program's bytes as PERF_SAMPLE_RAW in the ring of the
 * BPF_OUTPUT event at this CPU's slot of a perf event array.
 */
TEST_F(bpf, perf_event_output)
{
	struct perf_event_header *h;
	uint64_t buf[REC_MAX / 8];
	int kp, out, array, prog, found = 0;
	struct perf_sample s;
	struct perf_map m;

	if (self->kprobe < 0)
		SKIP(return, "no kprobe PMU");
	pin_cpu(0);
	out = bpf_output_event(&m, &array);
	ASSERT_LE(0, out) TH_LOG("%s", strerror(errno));

	struct bpf_insn insns[] = {
		MOV64_REG(6, 1),
		LD64_LO(1, 0, (int)OUT_MAGIC),
		LD64_HI(0),
		STX_DW(10, 1, -8),
		MOV64_REG(1, 6),
		LD64_LO(2, BPF_PSEUDO_MAP_FD, array),
		LD64_HI(0),
		MOV32_IMM(3, -1),	/* BPF_F_CURRENT_CPU */
		MOV64_REG(4, 10),
		ADD64_IMM(4, -8),
		MOV64_IMM(5, 8),
		CALL(BPF_FUNC_perf_event_output),
		MOV64_IMM(0, 1),
		EXIT,
	};
	prog = prog_load(BPF_PROG_TYPE_KPROBE, insns, ARRAY_SIZE(insns));
	ASSERT_LE(0, prog) TH_LOG("%s", verifier_log);
	kp = open_kprobe(self->kprobe);
	ASSERT_LE(0, kp);
	ASSERT_EQ(0, set_bpf(kp, prog));
	ioctl(kp, PERF_EVENT_IOC_ENABLE, 0);
	null_reads(4);
	ioctl(kp, PERF_EVENT_IOC_DISABLE, 0);
	while ((h = perf_map_next_type(&m, buf, sizeof(buf),
				       PERF_RECORD_SAMPLE))) {
		uint64_t v;

		perf_sample_parse(h, PERF_SAMPLE_RAW, 0, 0, &s);
		ASSERT_LE(8, s.raw_size);
		memcpy(&v, (const char *)s.end - s.raw_size, sizeof(v));
		EXPECT_EQ(OUT_MAGIC, v);
		found++;
	}
	EXPECT_LE(4, found);
	close(kp);
	close(prog);
	perf_map_close(&m);
	close(out);
	close(array);
	pin_cpu(-1);
}

static void clear_slots(int map)
{
	for (int i = 0; i < NR_SLOTS; i++)
		map_set(map, i, 0);
}

/*
 * bpf_get_stackid() and bpf_get_stack(): the kernel stack of a kprobe hit
 * (the perf callchain code walks it from the probe's registers), and the
 * user stack of a sampled page fault, whose sample has a callchain (the
 * program finds it gathered).  The stack the map keeps starts in the
 * kernel, or in user space.
 */
TEST_F(bpf, stack_helpers)
{
	int stacks, fd, prog, kind;
	uint64_t ips[32], ip;
	union bpf_attr a;
	uint32_t id;

	for (kind = 0; kind < 3; kind++) {
		int type = kind == 2 ? BPF_PROG_TYPE_PERF_EVENT :
				       BPF_PROG_TYPE_KPROBE;
		struct prog_buf p = { .n = 0 };

		if (type == BPF_PROG_TYPE_KPROBE && self->kprobe < 0)
			continue;
		/* a map of its own: no other stack in the hash bucket */
		memset(&a, 0, sizeof(a));
		a.map_type = BPF_MAP_TYPE_STACK_TRACE;
		a.key_size = sizeof(uint32_t);
		a.value_size = sizeof(ips);
		a.max_entries = 64;
		stacks = sys_bpf(BPF_MAP_CREATE, &a);
		ASSERT_LE(0, stacks) TH_LOG("stack map: %s", strerror(errno));
		clear_slots(self->map);
		emit(&p, MOV64_REG(6, 1));
		if (kind == 1) {
			/* bpf_get_stack(ctx, fp - 256, 256, 0): bytes */
			emit(&p, MOV64_REG(1, 6));
			emit(&p, MOV64_REG(2, 10));
			emit(&p, ADD64_IMM(2, -256));
			emit(&p, MOV64_IMM(3, 256));
			emit(&p, MOV64_IMM(4, 0));
			emit(&p, CALL(BPF_FUNC_get_stack));
		} else {
			/*
			 * bpf_get_stackid(ctx, stacks, flags): an id; of a
			 * fault in user space, the user part of the sample's
			 * callchain (the kernel part is empty)
			 */
			emit(&p, MOV64_REG(1, 6));
			emit_map(&p, 2, stacks);
			emit(&p, MOV64_IMM(3, kind ? BPF_F_USER_STACK : 0));
			emit(&p, CALL(BPF_FUNC_get_stackid));
		}
		emit(&p, MOV64_REG(7, 0));
		emit_verdict(&p, self->map, 0, 0);
		prog = prog_load(type, p.insn, p.n);
		ASSERT_LE(0, prog) TH_LOG("%s", verifier_log);
		if (type == BPF_PROG_TYPE_KPROBE) {
			fd = open_kprobe(self->kprobe);
		} else {
			struct perf_event_attr attr;

			sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
			attr.exclude_kernel = 0;
			attr.sample_period = 1;
			attr.sample_type = PERF_SAMPLE_CALLCHAIN;
			attr.disabled = 1;
			fd = sys_perf_event_open(&attr, 0, -1, -1,
						 PERF_FLAG_FD_CLOEXEC);
		}
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, set_bpf(fd, prog));
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		if (type == BPF_PROG_TYPE_KPROBE)
			null_reads(HITS);
		else
			touch_pages(HITS);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		EXPECT_LE(HITS, map_get(self->map, SLOT_RUNS))
			TH_LOG("kind %d: %lu failed, the last with %ld", kind,
			       (unsigned long)map_get(self->map, SLOT_FAILS),
			       (long)map_get(self->map, SLOT_VALUE));
		EXPECT_EQ(0, map_get(self->map, SLOT_FAILS));
		if (kind != 1) {
			/* the stack of the last hit, innermost first */
			id = map_get(self->map, SLOT_VALUE);
			memset(ips, 0, sizeof(ips));
			memset(&a, 0, sizeof(a));
			a.map_fd = stacks;
			a.key = (uintptr_t)&id;
			a.value = (uintptr_t)ips;
			EXPECT_EQ(0, sys_bpf(BPF_MAP_LOOKUP_ELEM, &a));
			/*
			 * past the context markers (PERF_CONTEXT_*, the last
			 * 4095 values), the innermost address; kernel ones
			 * have the top bit set on both arches
			 */
			ip = 0;
			for (int i = 0; i < 32 && !ip; i++)
				if (ips[i] < (uint64_t)PERF_CONTEXT_MAX)
					ip = ips[i];
			EXPECT_NE(0, ip);
			EXPECT_EQ(kind ? 0 : 1, ip >> 63)
				TH_LOG("ip %llx", (unsigned long long)ip);
		} else {
			EXPECT_LE(8, map_get(self->map, SLOT_VALUE));
		}
		close(fd);
		close(prog);
		close(stacks);
	}
}

/*
 * bpf_perf_event_read() and bpf_perf_event_read_value() read a counter of
 * this task from a perf event array: the page faults counted so far,
 * with (read_value) the counter's enabled and running times.
 */
TEST_F(bpf, read_counter)
{
	int array, faults, kp, prog, value;

	if (self->kprobe < 0)
		SKIP(return, "no kprobe PMU");
	pin_cpu(0);
	array = map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(uint32_t), 1);
	ASSERT_LE(0, array);
	faults = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1, 0);
	ASSERT_LE(0, faults);
	ASSERT_EQ(0, map_set_fd(array, 0, faults));
	touch_pages(HITS);
	for (value = 0; value < 2; value++) {
		struct prog_buf p = { .n = 0 };

		clear_slots(self->map);
		emit_map(&p, 1, array);
		emit(&p, MOV32_IMM(2, -1));	/* BPF_F_CURRENT_CPU */
		if (value) {
			/* read_value(map, flags, fp - 24, 24): 0 or -errno */
			emit(&p, MOV64_REG(3, 10));
			emit(&p, ADD64_IMM(3, -24));
			emit(&p, MOV64_IMM(4, 24));
			emit(&p, CALL(BPF_FUNC_perf_event_read_value));
		} else {
			/* perf_event_read(map, flags): the count or -errno */
			emit(&p, CALL(BPF_FUNC_perf_event_read));
		}
		emit(&p, MOV64_REG(7, 0));
		emit_verdict(&p, self->map, value, value);
		prog = prog_load(BPF_PROG_TYPE_KPROBE, p.insn, p.n);
		ASSERT_LE(0, prog) TH_LOG("%s", verifier_log);
		kp = open_kprobe(self->kprobe);
		ASSERT_LE(0, kp);
		ASSERT_EQ(0, set_bpf(kp, prog));
		ioctl(kp, PERF_EVENT_IOC_ENABLE, 0);
		null_reads(2);
		ioctl(kp, PERF_EVENT_IOC_DISABLE, 0);
		EXPECT_LE(2, map_get(self->map, SLOT_RUNS));
		EXPECT_EQ(0, map_get(self->map, SLOT_FAILS));
		EXPECT_LE(HITS, map_get(self->map, SLOT_VALUE));
		EXPECT_GE(read_count(faults), map_get(self->map, SLOT_VALUE));
		close(kp);
		close(prog);
	}
	close(faults);
	close(array);
	pin_cpu(-1);
}

/* QUERY_BPF on a tracepoint's event lists the ids of its programs. */
TEST_F(bpf, query)
{
	/* struct perf_event_query_bpf: ids_len, prog_cnt, ids[ids_len] */
	uint32_t query[2 + 4];
	int fd, prog;

	if (self->fork_tp < 0)
		SKIP(return, "no " TP_FORK " tracepoint");
	fd = open_trace_event(self->fork_tp, 0, -1);
	ASSERT_LE(0, fd);
	memset(query, 0, sizeof(query));
	query[0] = 4;
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, query));
	EXPECT_EQ(0, query[1]);
	prog = load_ret1(BPF_PROG_TYPE_TRACEPOINT);
	ASSERT_LE(0, prog);
	ASSERT_EQ(0, set_bpf(fd, prog));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, query));
	EXPECT_EQ(1, query[1]);
	EXPECT_EQ(prog_id(prog), query[2]);
	close(prog);
	close(fd);
}

/* A perf_event link holds the program until the link is closed. */
TEST_F(bpf, link)
{
	union bpf_attr a;
	int fd, prog, link;

	if (self->kprobe < 0)
		SKIP(return, "no kprobe PMU");
	ASSERT_EQ(0, map_set(self->map, SLOT_RUNS, 0));
	fd = open_kprobe(self->kprobe);
	ASSERT_LE(0, fd);
	prog = load_counter(BPF_PROG_TYPE_KPROBE, self->map, 1);
	ASSERT_LE(0, prog) TH_LOG("%s", verifier_log);
	memset(&a, 0, sizeof(a));
	a.link_create.prog_fd = prog;
	a.link_create.target_fd = fd;
	a.link_create.attach_type = BPF_PERF_EVENT;
	link = sys_bpf(BPF_LINK_CREATE, &a);
	ASSERT_LE(0, link) TH_LOG("link: %s", strerror(errno));
	/* one program at a time */
	EXPECT_EQ(-EEXIST, set_bpf(fd, prog));
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	null_reads(HITS);
	EXPECT_LE(HITS, map_get(self->map, SLOT_RUNS));
	close(link);
	ASSERT_EQ(0, map_set(self->map, SLOT_RUNS, 0));
	null_reads(HITS);
	EXPECT_EQ(0, map_get(self->map, SLOT_RUNS));
	/* and the event takes another */
	EXPECT_EQ(0, set_bpf(fd, prog));
	close(prog);
	close(fd);
}

/* Programs of the wrong kind, and one reading past the record: refused. */
TEST_F(bpf, errnos)
{
	int kprobe_prog, tp_prog, pe_prog, sw, tp = -1, kp = -1;
	struct bpf_insn far[] = { LDX_DW(0, 1, 2000), EXIT };
	int far_prog;

	kprobe_prog = load_ret1(BPF_PROG_TYPE_KPROBE);
	tp_prog = load_ret1(BPF_PROG_TYPE_TRACEPOINT);
	pe_prog = load_ret1(BPF_PROG_TYPE_PERF_EVENT);
	far_prog = prog_load(BPF_PROG_TYPE_TRACEPOINT, far, ARRAY_SIZE(far));
	ASSERT_LE(0, kprobe_prog);
	ASSERT_LE(0, tp_prog);
	ASSERT_LE(0, pe_prog);
	ASSERT_LE(0, far_prog) TH_LOG("%s", verifier_log);

	sw = open_faults(0, -1);
	ASSERT_LE(0, sw);
	EXPECT_EQ(-EINVAL, set_bpf(sw, kprobe_prog));
	EXPECT_EQ(-EINVAL, set_bpf(sw, tp_prog));
	EXPECT_EQ(0, set_bpf(sw, pe_prog));
	EXPECT_EQ(-EEXIST, set_bpf(sw, pe_prog));
	close(sw);
	/* a counting event takes one too */
	sw = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1, 1);
	ASSERT_LE(0, sw);
	EXPECT_EQ(0, set_bpf(sw, pe_prog));
	close(sw);

	if (self->fork_tp >= 0) {
		tp = open_trace_event(self->fork_tp, 0, -1);
		ASSERT_LE(0, tp);
		EXPECT_EQ(-EINVAL, set_bpf(tp, kprobe_prog));
		EXPECT_EQ(-EINVAL, set_bpf(tp, pe_prog));
		EXPECT_EQ(-EACCES, set_bpf(tp, far_prog));
		EXPECT_EQ(0, set_bpf(tp, tp_prog));
		EXPECT_EQ(-EEXIST, set_bpf(tp, tp_prog));
		close(tp);
	}
	if (self->kprobe >= 0) {
		uint32_t query[2 + 4] = { 4 };

		kp = open_kprobe(self->kprobe);
		ASSERT_LE(0, kp);
		EXPECT_EQ(-EINVAL, set_bpf(kp, tp_prog));
		EXPECT_EQ(-EINVAL, set_bpf(kp, pe_prog));
		EXPECT_EQ(0, set_bpf(kp, kprobe_prog));
		/* QUERY_BPF answers for tracepoint events only */
		EXPECT_EQ(-1, ioctl(kp, PERF_EVENT_IOC_QUERY_BPF, query));
		EXPECT_EQ(EINVAL, errno);
		close(kp);
	}
	close(far_prog);
	close(pe_prog);
	close(tp_prog);
	close(kprobe_prog);
}

TEST_HARNESS_MAIN
