// SPDX-License-Identifier: GPL-2.0
/*
 * The perf_event user ABI as laid out by <linux/perf_event.h>: sizes and
 * offsets of perf_event_attr (one per PERF_ATTR_SIZE_VERn), the mmap page,
 * records, branch entries, the values of the ABI constants and the ioctl
 * encodings; then that the running kernel agrees with the header.
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "perf_helpers.h"
#include "../kselftest_harness.h"

#define OFF(type, field, where) \
	static_assert(offsetof(struct type, field) == (where), \
		      #type "." #field " must be at " #where)
#define SIZE(type, bytes) \
	static_assert(sizeof(type) == (bytes), #type " must be " #bytes " bytes")
#define VAL(name, value) \
	static_assert((name) == (value), #name " must be " #value)

/* perf_event_attr: each version size ends where the next field begins. */
OFF(perf_event_attr, type, 0);
OFF(perf_event_attr, size, 4);
OFF(perf_event_attr, config, 8);
OFF(perf_event_attr, sample_period, 16);
OFF(perf_event_attr, sample_freq, 16);
OFF(perf_event_attr, sample_type, 24);
OFF(perf_event_attr, read_format, 32);
OFF(perf_event_attr, wakeup_events, 48);
OFF(perf_event_attr, wakeup_watermark, 48);
OFF(perf_event_attr, bp_type, 52);
OFF(perf_event_attr, bp_addr, 56);
OFF(perf_event_attr, kprobe_func, 56);
OFF(perf_event_attr, uprobe_path, 56);
OFF(perf_event_attr, config1, 56);
OFF(perf_event_attr, bp_len, PERF_ATTR_SIZE_VER0);
OFF(perf_event_attr, kprobe_addr, PERF_ATTR_SIZE_VER0);
OFF(perf_event_attr, probe_offset, PERF_ATTR_SIZE_VER0);
OFF(perf_event_attr, config2, PERF_ATTR_SIZE_VER0);
OFF(perf_event_attr, branch_sample_type, PERF_ATTR_SIZE_VER1);
OFF(perf_event_attr, sample_regs_user, PERF_ATTR_SIZE_VER2);
OFF(perf_event_attr, sample_stack_user, 88);
OFF(perf_event_attr, clockid, 92);
OFF(perf_event_attr, sample_regs_intr, PERF_ATTR_SIZE_VER3);
OFF(perf_event_attr, aux_watermark, PERF_ATTR_SIZE_VER4);
OFF(perf_event_attr, sample_max_stack, 108);
OFF(perf_event_attr, __reserved_2, 110);
OFF(perf_event_attr, aux_sample_size, PERF_ATTR_SIZE_VER5);
OFF(perf_event_attr, aux_action, 116);
OFF(perf_event_attr, sig_data, PERF_ATTR_SIZE_VER6);
OFF(perf_event_attr, config3, PERF_ATTR_SIZE_VER7);
SIZE(struct perf_event_attr, PERF_ATTR_SIZE_VER8);

VAL(PERF_ATTR_SIZE_VER0, 64);
VAL(PERF_ATTR_SIZE_VER1, 72);
VAL(PERF_ATTR_SIZE_VER2, 80);
VAL(PERF_ATTR_SIZE_VER3, 96);
VAL(PERF_ATTR_SIZE_VER4, 104);
VAL(PERF_ATTR_SIZE_VER5, 112);
VAL(PERF_ATTR_SIZE_VER6, 120);
VAL(PERF_ATTR_SIZE_VER7, 128);
VAL(PERF_ATTR_SIZE_VER8, 136);

/* The first page of the ring buffer. */
OFF(perf_event_mmap_page, version, 0);
OFF(perf_event_mmap_page, compat_version, 4);
OFF(perf_event_mmap_page, lock, 8);
OFF(perf_event_mmap_page, index, 12);
OFF(perf_event_mmap_page, offset, 16);
OFF(perf_event_mmap_page, time_enabled, 24);
OFF(perf_event_mmap_page, time_running, 32);
OFF(perf_event_mmap_page, capabilities, 40);
OFF(perf_event_mmap_page, pmc_width, 48);
OFF(perf_event_mmap_page, time_shift, 50);
OFF(perf_event_mmap_page, time_mult, 52);
OFF(perf_event_mmap_page, time_offset, 56);
OFF(perf_event_mmap_page, time_zero, 64);
OFF(perf_event_mmap_page, size, 72);
OFF(perf_event_mmap_page, __reserved_1, 76);
OFF(perf_event_mmap_page, time_cycles, 80);
OFF(perf_event_mmap_page, time_mask, 88);
OFF(perf_event_mmap_page, __reserved, 96);
OFF(perf_event_mmap_page, data_head, 1024);
OFF(perf_event_mmap_page, data_tail, 1032);
OFF(perf_event_mmap_page, data_offset, 1040);
OFF(perf_event_mmap_page, data_size, 1048);
OFF(perf_event_mmap_page, aux_head, 1056);
OFF(perf_event_mmap_page, aux_tail, 1064);
OFF(perf_event_mmap_page, aux_offset, 1072);
OFF(perf_event_mmap_page, aux_size, 1080);
SIZE(struct perf_event_mmap_page, 1088);

/* Records and their parts. */
OFF(perf_event_header, type, 0);
OFF(perf_event_header, misc, 4);
OFF(perf_event_header, size, 6);
SIZE(struct perf_event_header, 8);
OFF(perf_branch_entry, from, 0);
OFF(perf_branch_entry, to, 8);
SIZE(struct perf_branch_entry, 24);
OFF(perf_ns_link_info, dev, 0);
OFF(perf_ns_link_info, ino, 8);
SIZE(struct perf_ns_link_info, 16);
OFF(perf_event_query_bpf, ids_len, 0);
OFF(perf_event_query_bpf, prog_cnt, 4);
OFF(perf_event_query_bpf, ids, 8);
SIZE(struct perf_event_query_bpf, 8);
SIZE(union perf_mem_data_src, 8);
SIZE(union perf_sample_weight, 8);

/* Constants: event types and generic events. */
VAL(PERF_TYPE_HARDWARE, 0);
VAL(PERF_TYPE_SOFTWARE, 1);
VAL(PERF_TYPE_TRACEPOINT, 2);
VAL(PERF_TYPE_HW_CACHE, 3);
VAL(PERF_TYPE_RAW, 4);
VAL(PERF_TYPE_BREAKPOINT, 5);
VAL(PERF_TYPE_MAX, 6);
VAL(PERF_PMU_TYPE_SHIFT, 32);
VAL(PERF_HW_EVENT_MASK, 0xffffffffULL);
VAL(PERF_COUNT_HW_REF_CPU_CYCLES, 9);
VAL(PERF_COUNT_HW_MAX, 10);
VAL(PERF_COUNT_HW_CACHE_NODE, 6);
VAL(PERF_COUNT_HW_CACHE_OP_PREFETCH, 2);
VAL(PERF_COUNT_HW_CACHE_RESULT_MISS, 1);
VAL(PERF_COUNT_SW_CPU_CLOCK, 0);
VAL(PERF_COUNT_SW_TASK_CLOCK, 1);
VAL(PERF_COUNT_SW_PAGE_FAULTS, 2);
VAL(PERF_COUNT_SW_CONTEXT_SWITCHES, 3);
VAL(PERF_COUNT_SW_CPU_MIGRATIONS, 4);
VAL(PERF_COUNT_SW_PAGE_FAULTS_MIN, 5);
VAL(PERF_COUNT_SW_PAGE_FAULTS_MAJ, 6);
VAL(PERF_COUNT_SW_ALIGNMENT_FAULTS, 7);
VAL(PERF_COUNT_SW_EMULATION_FAULTS, 8);
VAL(PERF_COUNT_SW_DUMMY, 9);
VAL(PERF_COUNT_SW_BPF_OUTPUT, 10);
VAL(PERF_COUNT_SW_CGROUP_SWITCHES, 11);
VAL(PERF_COUNT_SW_MAX, 12);

/* Constants: sample, read and branch formats. */
VAL(PERF_SAMPLE_IP, 1U << 0);
VAL(PERF_SAMPLE_READ, 1U << 4);
VAL(PERF_SAMPLE_RAW, 1U << 10);
VAL(PERF_SAMPLE_IDENTIFIER, 1U << 16);
VAL(PERF_SAMPLE_AUX, 1U << 20);
VAL(PERF_SAMPLE_WEIGHT_STRUCT, 1U << 24);
VAL(PERF_SAMPLE_MAX, 1U << 25);
VAL(PERF_SAMPLE_WEIGHT_TYPE, (1U << 14) | (1U << 24));
VAL(PERF_FORMAT_TOTAL_TIME_ENABLED, 1);
VAL(PERF_FORMAT_TOTAL_TIME_RUNNING, 2);
VAL(PERF_FORMAT_ID, 4);
VAL(PERF_FORMAT_GROUP, 8);
VAL(PERF_FORMAT_LOST, 16);
VAL(PERF_FORMAT_MAX, 32);
VAL(PERF_SAMPLE_BRANCH_PLM_ALL, 7);
VAL(PERF_SAMPLE_BRANCH_CALL_STACK, 1U << 11);
VAL(PERF_SAMPLE_BRANCH_PRIV_SAVE, 1U << 18);
VAL(PERF_SAMPLE_BRANCH_COUNTERS, 1U << 19);
VAL(PERF_SAMPLE_BRANCH_MAX_SHIFT, 20);
VAL(PERF_BR_EXTEND_ABI, 15);
VAL(PERF_BR_MAX, 16);
VAL(PERF_BR_SPEC_MAX, 4);
VAL(PERF_BR_NEW_MAX, 8);
VAL(PERF_BR_ARM64_DEBUG_DATA, 7);
VAL(PERF_BR_PRIV_HV, 3);
VAL(PERF_SAMPLE_REGS_ABI_64, 2);
VAL(PERF_TXN_MAX, 1 << 8);
VAL(PERF_TXN_ABORT_MASK, 0xffffffff00000000ULL);
VAL(PERF_TXN_ABORT_SHIFT, 32);

/* Constants: records, misc bits, flags. */
VAL(PERF_RECORD_MMAP, 1);
VAL(PERF_RECORD_SAMPLE, 9);
VAL(PERF_RECORD_MMAP2, 10);
VAL(PERF_RECORD_SWITCH_CPU_WIDE, 15);
VAL(PERF_RECORD_TEXT_POKE, 20);
VAL(PERF_RECORD_AUX_OUTPUT_HW_ID, 21);
VAL(PERF_RECORD_MAX, 22);
VAL(PERF_RECORD_MISC_CPUMODE_MASK, 7);
VAL(PERF_RECORD_MISC_GUEST_USER, 5);
VAL(PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT, 1 << 12);
VAL(PERF_RECORD_MISC_SWITCH_OUT, 1 << 13);
VAL(PERF_RECORD_MISC_EXACT_IP, 1 << 14);
VAL(PERF_RECORD_MISC_EXT_RESERVED, 1 << 15);
VAL(PERF_RECORD_KSYMBOL_TYPE_OOL, 2);
VAL(PERF_BPF_EVENT_PROG_UNLOAD, 2);
VAL(NR_NAMESPACES, 7);
VAL(PERF_MAX_STACK_DEPTH, 127);
VAL(PERF_MAX_CONTEXTS_PER_STACK, 8);
VAL(PERF_CONTEXT_HV, (__u64)-32);
VAL(PERF_CONTEXT_USER, (__u64)-512);
VAL(PERF_CONTEXT_GUEST_USER, (__u64)-2560);
VAL(PERF_CONTEXT_MAX, (__u64)-4095);
VAL(PERF_AUX_FLAG_COLLISION, 8);
VAL(PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK, 0xff00);
VAL(PERF_AUX_FLAG_CORESIGHT_FORMAT_RAW, 0x100);
VAL(PERF_FLAG_FD_NO_GROUP, 1);
VAL(PERF_FLAG_FD_OUTPUT, 2);
VAL(PERF_FLAG_PID_CGROUP, 4);
VAL(PERF_FLAG_FD_CLOEXEC, 8);
VAL(PERF_IOC_FLAG_GROUP, 1);

/* Constants: data source shifts. */
VAL(PERF_MEM_OP_SHIFT, 0);
VAL(PERF_MEM_LVL_SHIFT, 5);
VAL(PERF_MEM_SNOOP_SHIFT, 19);
VAL(PERF_MEM_LOCK_SHIFT, 24);
VAL(PERF_MEM_TLB_SHIFT, 26);
VAL(PERF_MEM_LVLNUM_SHIFT, 33);
VAL(PERF_MEM_REMOTE_SHIFT, 37);
VAL(PERF_MEM_SNOOPX_SHIFT, 38);
VAL(PERF_MEM_BLK_SHIFT, 40);
VAL(PERF_MEM_HOPS_SHIFT, 43);
VAL(PERF_MEM_LVLNUM_NA, 0x0f);
VAL(PERF_MEM_S(LVL, UNC), 0x2000ULL << 5);

/* Read the 64-bit word at @off of any object. */
static uint64_t word_at(const void *obj, size_t off)
{
	uint64_t w;

	memcpy(&w, (const char *)obj + off, sizeof(w));
	return w;
}

#define FLAG_BIT(field, bit) do {					\
		struct perf_event_attr a = { 0 };			\
		a.field = 1;						\
		EXPECT_EQ(1ULL << (bit), word_at(&a, 40))		\
			TH_LOG("attr." #field " is not bit " #bit);	\
	} while (0)

TEST(attr_flag_bits)
{
	struct perf_event_attr a = { 0 };

	FLAG_BIT(disabled, 0);
	FLAG_BIT(inherit, 1);
	FLAG_BIT(pinned, 2);
	FLAG_BIT(exclusive, 3);
	FLAG_BIT(exclude_user, 4);
	FLAG_BIT(exclude_kernel, 5);
	FLAG_BIT(exclude_hv, 6);
	FLAG_BIT(exclude_idle, 7);
	FLAG_BIT(mmap, 8);
	FLAG_BIT(comm, 9);
	FLAG_BIT(freq, 10);
	FLAG_BIT(inherit_stat, 11);
	FLAG_BIT(enable_on_exec, 12);
	FLAG_BIT(task, 13);
	FLAG_BIT(watermark, 14);
	FLAG_BIT(precise_ip, 15);	/* two bits: 15-16 */
	FLAG_BIT(mmap_data, 17);
	FLAG_BIT(sample_id_all, 18);
	FLAG_BIT(exclude_host, 19);
	FLAG_BIT(exclude_guest, 20);
	FLAG_BIT(exclude_callchain_kernel, 21);
	FLAG_BIT(exclude_callchain_user, 22);
	FLAG_BIT(mmap2, 23);
	FLAG_BIT(comm_exec, 24);
	FLAG_BIT(use_clockid, 25);
	FLAG_BIT(context_switch, 26);
	FLAG_BIT(write_backward, 27);
	FLAG_BIT(namespaces, 28);
	FLAG_BIT(ksymbol, 29);
	FLAG_BIT(bpf_event, 30);
	FLAG_BIT(aux_output, 31);
	FLAG_BIT(cgroup, 32);
	FLAG_BIT(text_poke, 33);
	FLAG_BIT(build_id, 34);
	FLAG_BIT(inherit_thread, 35);
	FLAG_BIT(remove_on_exec, 36);
	FLAG_BIT(sigtrap, 37);
	FLAG_BIT(__reserved_1, 38);

	a.precise_ip = 3;
	a.__reserved_1 = (1U << 26) - 1;
	EXPECT_EQ(0xffffffc000018000ULL, word_at(&a, 40));
}

TEST(attr_aux_action_bits)
{
	struct perf_event_attr a = { 0 };

	a.aux_start_paused = 1;
	EXPECT_EQ(1U, a.aux_action);
	a.aux_start_paused = 0;
	a.aux_pause = 1;
	EXPECT_EQ(2U, a.aux_action);
	a.aux_pause = 0;
	a.aux_resume = 1;
	EXPECT_EQ(4U, a.aux_action);
	a.aux_resume = 0;
	a.__reserved_3 = (1U << 29) - 1;
	EXPECT_EQ(0xfffffff8U, a.aux_action);
}

TEST(mmap_page_capability_bits)
{
	struct perf_event_mmap_page pg;

	memset(&pg, 0, sizeof(pg));
	pg.cap_bit0 = 1;
	EXPECT_EQ(1ULL << 0, pg.capabilities);
	pg.capabilities = 0;
	pg.cap_bit0_is_deprecated = 1;
	EXPECT_EQ(1ULL << 1, pg.capabilities);
	pg.capabilities = 0;
	pg.cap_user_rdpmc = 1;
	EXPECT_EQ(1ULL << 2, pg.capabilities);
	pg.capabilities = 0;
	pg.cap_user_time = 1;
	EXPECT_EQ(1ULL << 3, pg.capabilities);
	pg.capabilities = 0;
	pg.cap_user_time_zero = 1;
	EXPECT_EQ(1ULL << 4, pg.capabilities);
	pg.capabilities = 0;
	pg.cap_user_time_short = 1;
	EXPECT_EQ(1ULL << 5, pg.capabilities);
	pg.capabilities = 0;
	pg.cap_____res = 1;
	EXPECT_EQ(1ULL << 6, pg.capabilities);
}

TEST(branch_entry_bits)
{
	struct perf_branch_entry e;

	memset(&e, 0, sizeof(e));
	e.mispred = 1;
	e.abort = 1;
	e.cycles = 0xffff;
	EXPECT_EQ(0xfffffULL & ~0x6ULL, word_at(&e, 16));
	memset(&e, 0, sizeof(e));
	e.type = 0xf;
	EXPECT_EQ(0xfULL << 20, word_at(&e, 16));
	memset(&e, 0, sizeof(e));
	e.spec = 3;
	EXPECT_EQ(3ULL << 24, word_at(&e, 16));
	memset(&e, 0, sizeof(e));
	e.new_type = 0xf;
	EXPECT_EQ(0xfULL << 26, word_at(&e, 16));
	memset(&e, 0, sizeof(e));
	e.priv = 7;
	EXPECT_EQ(7ULL << 30, word_at(&e, 16));
	memset(&e, 0, sizeof(e));
	e.reserved = 1;
	EXPECT_EQ(1ULL << 33, word_at(&e, 16));
}

/* Every bitfield of the data source sits where its PERF_MEM_*_SHIFT says. */
TEST(mem_data_src_fields)
{
	union perf_mem_data_src d;

#define DSRC(field, a, s) do {					\
		d.val = 0;					\
		d.field = PERF_MEM_##a##_##s;			\
		EXPECT_EQ(PERF_MEM_S(a, s), d.val)		\
			TH_LOG(#field " != PERF_MEM_S(" #a ", " #s ")"); \
	} while (0)
	DSRC(mem_op, OP, EXEC);
	DSRC(mem_lvl, LVL, UNC);
	DSRC(mem_snoop, SNOOP, HITM);
	DSRC(mem_lock, LOCK, LOCKED);
	DSRC(mem_dtlb, TLB, OS);
	DSRC(mem_lvl_num, LVLNUM, NA);
	DSRC(mem_remote, REMOTE, REMOTE);
	DSRC(mem_snoopx, SNOOPX, PEER);
	DSRC(mem_blk, BLK, ADDR);
	DSRC(mem_hops, HOPS, 3);
#undef DSRC
	d.val = 0;
	d.mem_rsvd = 1;
	EXPECT_EQ(1ULL << 46, d.val);
}

TEST(sample_weight_parts)
{
	union perf_sample_weight w = { .full = 0 };

	w.var1_dw = 0x11223344;
	w.var2_w = 0x5566;
	w.var3_w = 0x7788;
	EXPECT_EQ(0x7788556611223344ULL, w.full);
}

/* Direction, type '$', number and argument size of each request. */
TEST(ioctl_encodings)
{
	static const struct {
		const char *name;
		unsigned long req;
		unsigned int dir, nr, size;
	} t[] = {
		{ "ENABLE", PERF_EVENT_IOC_ENABLE, _IOC_NONE, 0, 0 },
		{ "DISABLE", PERF_EVENT_IOC_DISABLE, _IOC_NONE, 1, 0 },
		{ "REFRESH", PERF_EVENT_IOC_REFRESH, _IOC_NONE, 2, 0 },
		{ "RESET", PERF_EVENT_IOC_RESET, _IOC_NONE, 3, 0 },
		{ "PERIOD", PERF_EVENT_IOC_PERIOD, _IOC_WRITE, 4, 8 },
		{ "SET_OUTPUT", PERF_EVENT_IOC_SET_OUTPUT, _IOC_NONE, 5, 0 },
		{ "SET_FILTER", PERF_EVENT_IOC_SET_FILTER, _IOC_WRITE, 6,
		  sizeof(char *) },
		{ "ID", PERF_EVENT_IOC_ID, _IOC_READ, 7, sizeof(__u64 *) },
		{ "SET_BPF", PERF_EVENT_IOC_SET_BPF, _IOC_WRITE, 8, 4 },
		{ "PAUSE_OUTPUT", PERF_EVENT_IOC_PAUSE_OUTPUT, _IOC_WRITE, 9, 4 },
		{ "QUERY_BPF", PERF_EVENT_IOC_QUERY_BPF,
		  _IOC_READ | _IOC_WRITE, 10, sizeof(void *) },
		{ "MODIFY_ATTRIBUTES", PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
		  _IOC_WRITE, 11, sizeof(void *) },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		EXPECT_EQ('$', _IOC_TYPE(t[i].req)) TH_LOG("%s", t[i].name);
		EXPECT_EQ(t[i].dir, _IOC_DIR(t[i].req)) TH_LOG("%s", t[i].name);
		EXPECT_EQ(t[i].nr, _IOC_NR(t[i].req)) TH_LOG("%s", t[i].name);
		EXPECT_EQ(t[i].size, _IOC_SIZE(t[i].req)) TH_LOG("%s", t[i].name);
	}
#if defined(__x86_64__) || defined(__aarch64__)
	/* The generic encoding with 64-bit pointers, as literal numbers. */
	EXPECT_EQ(0x2400UL, PERF_EVENT_IOC_ENABLE);
	EXPECT_EQ(0x40082404UL, PERF_EVENT_IOC_PERIOD);
	EXPECT_EQ(0x80082407UL, PERF_EVENT_IOC_ID);
	EXPECT_EQ(0x40042409UL, PERF_EVENT_IOC_PAUSE_OUTPUT);
	EXPECT_EQ(0xc008240aUL, PERF_EVENT_IOC_QUERY_BPF);
	EXPECT_EQ(0x4008240bUL, PERF_EVENT_IOC_MODIFY_ATTRIBUTES);
#endif
}

/* The running kernel accepts every published attr size, and 0 as VER0. */
TEST(kernel_accepts_every_attr_size)
{
	static const __u32 sizes[] = {
		0, PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER1,
		PERF_ATTR_SIZE_VER2, PERF_ATTR_SIZE_VER3, PERF_ATTR_SIZE_VER4,
		PERF_ATTR_SIZE_VER5, PERF_ATTR_SIZE_VER6, PERF_ATTR_SIZE_VER7,
		PERF_ATTR_SIZE_VER8,
	};
	struct perf_event_attr attr;
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		sw_attr(&attr, PERF_COUNT_SW_DUMMY);
		attr.size = sizes[i];
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		if (fd < 0 && errno == EACCES)
			SKIP(return, "perf_event_open not permitted");
		ASSERT_LE(0, fd) TH_LOG("size %u: %s", sizes[i], strerror(errno));
		close(fd);
	}
}

/* The ID ioctl reads back the id that PERF_FORMAT_ID reports. */
TEST(kernel_ioctl_id)
{
	struct perf_event_attr attr;
	__u64 id = 0, buf[2];
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.read_format = PERF_FORMAT_ID;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && errno == EACCES)
		SKIP(return, "perf_event_open not permitted");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	ASSERT_EQ(sizeof(buf), read(fd, buf, sizeof(buf)));
	EXPECT_NE(0, id);
	EXPECT_EQ(id, buf[1]);
	close(fd);
}

/* What the kernel writes into the first page of a ring buffer. */
TEST(kernel_mmap_page)
{
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 1000000;
	attr.sample_type = PERF_SAMPLE_IP;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 && errno == EACCES)
		SKIP(return, "perf_event_open not permitted");
	if (fd < 0 && errno == EOPNOTSUPP)
		SKIP(return, "this kernel does not sample yet (EOPNOTSUPP)");
	ASSERT_LE(0, fd);
	/* one header page and 2^n data pages, nothing else */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4 * psz, PROT_READ, MAP_SHARED, fd, 0));
	EXPECT_EQ(EINVAL, errno);
	pg = mmap(NULL, 3 * psz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, pg);

	EXPECT_EQ(0, pg->version);
	EXPECT_EQ(0, pg->compat_version);
	/* size covers the fields in use, up to the padding */
	EXPECT_EQ(offsetof(struct perf_event_mmap_page, __reserved), pg->size);
	EXPECT_EQ(0, (int)pg->cap_bit0);
	EXPECT_EQ(1, (int)pg->cap_bit0_is_deprecated);
	/* a software event has no counter index (cap_user_rdpmc is arch policy) */
	EXPECT_EQ(0, pg->index);
	EXPECT_EQ(psz, pg->data_offset);
	EXPECT_EQ(2 * psz, pg->data_size);
	EXPECT_EQ(0, pg->aux_size);
	munmap(pg, 3 * psz);
	close(fd);
}

TEST_HARNESS_MAIN
