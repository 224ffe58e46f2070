// SPDX-License-Identifier: GPL-2.0
/*
 * observe: print what user space can see of perf_event, one observation a
 * line ("<probe> <what was seen>"), so that the output of a stock kernel
 * and of the series, booted in the same machine, can be compared line by
 * line (make diff).  It asserts nothing.  Only what is the same from boot
 * to boot of one kernel is printed: errnos, sizes, record types and
 * flags, fields of the user page; counts only where they do not depend on
 * how many instructions the kernel itself runs.  Needs root (it sets
 * sysctls and drops to uid 65534 for the permission probes).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <grp.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../tools/testing/selftests/perf_events/perf_helpers.h"
#include "../tools/testing/selftests/perf_events/perf_records.h"

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define NOBODY		65534
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* the first extended register of a sample's register masks */
#if defined(__x86_64__)
#define REG_EXTENDED_BIT	(1ULL << 32)	/* PERF_REG_X86_XMM0 */
#else
#define REG_EXTENDED_BIT	(1ULL << 46)	/* PERF_REG_ARM64_VG */
#endif

static void say(const char *key, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", key);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* "ok" or the errno's name */
static const char *res(int ret)
{
	static char buf[32];
	const char *name;

	if (ret >= 0)
		return "ok";
	name = strerrorname_np(-ret);
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "errno%d", -ret);
	return buf;
}

static int sys_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		    int group, unsigned long flags)
{
	int fd = syscall(__NR_perf_event_open, attr, pid, cpu, group,
			 flags | PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* open, report the errno under @key, close */
static void try_open(const char *key, struct perf_event_attr *attr,
		     pid_t pid, int cpu, int group, unsigned long flags)
{
	int fd = sys_open(attr, pid, cpu, group, flags);

	say(key, "%s", res(fd));
	if (fd >= 0)
		close(fd);
}

static void sw(struct perf_event_attr *a, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof(*a);
	a->config = config;
}

static void sw_sampling(struct perf_event_attr *a, uint64_t config)
{
	sw(a, config);
	a->sample_period = 1;
	a->sample_type = PERF_SAMPLE_IP;
}

/* a breakpoint on a variable of ours, user space only */
static void bp_attr(struct perf_event_attr *a)
{
	static long target;

	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_BREAKPOINT;
	a->size = sizeof(*a);
	a->bp_type = HW_BREAKPOINT_W;
	a->bp_addr = (unsigned long)&target;
	a->bp_len = HW_BREAKPOINT_LEN_8;
	a->exclude_kernel = 1;
}

/* cycles, user space only */
static void hw_attr(struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_HARDWARE;
	a->size = sizeof(*a);
	a->config = PERF_COUNT_HW_CPU_CYCLES;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

static int write_sysctl(const char *path, long v)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fprintf(f, "%ld\n", v);
	return fclose(f) ? -errno : 0;
}

static long read_sysctl(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -999;

	if (!f)
		return v;
	if (fscanf(f, "%ld", &v) != 1)
		v = -998;
	fclose(f);
	return v;
}

/* The PMU type number from sysfs, or -1. */
static int pmu_type(const char *name)
{
	char path[512];

	snprintf(path, sizeof(path),
		 "/sys/bus/event_source/devices/%s/type", name);
	return (int)read_sysctl(path);
}

/* ---- attr flags ---------------------------------------------------- */

static const char *const flag_names[] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user",
	"exclude_kernel", "exclude_hv", "exclude_idle", "mmap", "comm",
	"freq", "inherit_stat", "enable_on_exec", "task", "watermark",
	"precise_ip0", "precise_ip1", "mmap_data", "sample_id_all",
	"exclude_host", "exclude_guest", "exclude_callchain_kernel",
	"exclude_callchain_user", "mmap2", "comm_exec", "use_clockid",
	"context_switch", "write_backward", "namespaces", "ksymbol",
	"bpf_event", "aux_output", "cgroup", "text_poke", "build_id",
	"inherit_thread", "remove_on_exec", "sigtrap",
};

static uint64_t *flags_word(struct perf_event_attr *a)
{
	return (uint64_t *)((char *)a + 40);
}

static void observe_flags(void)
{
	struct perf_event_attr a;
	char key[128];
	unsigned int i;

	for (i = 0; i < 64; i++) {
		const char *name = i < ARRAY_SIZE(flag_names) ?
				   flag_names[i] : "reserved";

		sw(&a, PERF_COUNT_SW_TASK_CLOCK);
		*flags_word(&a) = 1ULL << i;
		snprintf(key, sizeof(key), "attr.flag.%02u.%s.counting", i,
			 name);
		try_open(key, &a, 0, -1, -1, 0);
		sw_sampling(&a, PERF_COUNT_SW_TASK_CLOCK);
		a.sample_period = 100000;
		*flags_word(&a) = 1ULL << i;
		snprintf(key, sizeof(key), "attr.flag.%02u.%s.sampling", i,
			 name);
		try_open(key, &a, 0, -1, -1, 0);
		sw(&a, PERF_COUNT_SW_TASK_CLOCK);
		*flags_word(&a) = 1ULL << i;
		snprintf(key, sizeof(key), "attr.flag.%02u.%s.cpu0", i, name);
		try_open(key, &a, -1, 0, -1, 0);
	}
	/* every side-band flag at once, as perf record's tracking event */
	sw(&a, PERF_COUNT_SW_DUMMY);
	a.mmap = a.comm = a.task = a.mmap2 = a.comm_exec = 1;
	a.context_switch = a.namespaces = a.ksymbol = a.bpf_event = 1;
	a.cgroup = a.text_poke = a.mmap_data = a.sample_id_all = 1;
	try_open("attr.sideband_all", &a, 0, -1, -1, 0);
	a.build_id = 1;
	try_open("attr.sideband_all_build_id", &a, 0, -1, -1, 0);
}

/* ---- sample_type and read_format ------------------------------------ */

static void observe_sample_bits(void)
{
	struct perf_event_attr a;
	char key[128];
	int i;

	for (i = 0; i < 64; i++) {
		sw_sampling(&a, PERF_COUNT_SW_TASK_CLOCK);
		a.sample_period = 100000;
		a.sample_type = 1ULL << i;
		a.exclude_kernel = 1;
		snprintf(key, sizeof(key), "attr.sample_type.bit%02d", i);
		try_open(key, &a, 0, -1, -1, 0);
		a.exclude_kernel = 0;
		snprintf(key, sizeof(key), "attr.sample_type.bit%02d.kernel",
			 i);
		try_open(key, &a, 0, -1, -1, 0);
	}
	for (i = 0; i < 64; i++) {
		sw(&a, PERF_COUNT_SW_TASK_CLOCK);
		a.read_format = 1ULL << i;
		snprintf(key, sizeof(key), "attr.read_format.bit%02d", i);
		try_open(key, &a, 0, -1, -1, 0);
	}
}

/*
 * The size of a page-fault sample under each sample bit whose part has a
 * fixed size, alone and all together, with and without sample_id_all
 * (which adds the identity fields to the other records, not to samples).
 */
static void sample_size(const char *key, uint64_t type, int id_all)
{
	char buf[8192];
	struct perf_event_header *h;
	struct perf_event_attr a;
	struct perf_map m;
	int fd, size = 0;

	sw_sampling(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.sample_type = type;
	a.sample_id_all = id_all;
	a.exclude_kernel = 1;
	fd = sys_open(&a, 0, -1, -1, 0);
	if (fd < 0) {
		say(key, "%s", res(fd));
		return;
	}
	if (!perf_map_open(&m, fd, 8, PROT_READ | PROT_WRITE)) {
		touch_pages(4);
		while ((h = perf_map_next(&m, buf, sizeof(buf))))
			if (h->type == PERF_RECORD_SAMPLE && !size)
				size = h->size;
		perf_map_close(&m);
	}
	close(fd);
	say(key, "%d", size);
}

static void observe_sample_sizes(void)
{
	static const uint64_t fixed = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_READ |
		PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
		PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_WEIGHT |
		PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_IDENTIFIER |
		PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR |
		PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE |
		PERF_SAMPLE_CODE_PAGE_SIZE;
	char key[128];
	int i, id_all;

	for (id_all = 0; id_all < 2; id_all++) {
		for (i = 0; i < 64; i++) {
			if (!(fixed & (1ULL << i)))
				continue;
			snprintf(key, sizeof(key),
				 "records.sample_size.bit%02d.id_all%d", i, id_all);
			sample_size(key, 1ULL << i, id_all);
		}
		snprintf(key, sizeof(key), "records.sample_size.all.id_all%d",
			 id_all);
		sample_size(key, fixed, id_all);
	}
}

/* read() sizes of a two-event group under every read_format */
static void observe_read_formats(void)
{
	struct perf_event_attr a;
	char key[128], buf[256];
	int f, lead, sib;

	for (f = 0; f < 32; f++) {
		sw(&a, PERF_COUNT_SW_TASK_CLOCK);
		a.read_format = f;
		lead = sys_open(&a, 0, -1, -1, 0);
		snprintf(key, sizeof(key), "read.format%02d.open", f);
		say(key, "%s", res(lead));
		if (lead < 0)
			continue;
		sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
		a.read_format = f;
		sib = sys_open(&a, 0, -1, lead, 0);
		snprintf(key, sizeof(key), "read.format%02d.sibling", f);
		say(key, "%s", res(sib));
		snprintf(key, sizeof(key), "read.format%02d.size", f);
		say(key, "%zd", read(lead, buf, sizeof(buf)));
		snprintf(key, sizeof(key), "read.format%02d.size7", f);
		say(key, "%s", res(read(lead, buf, 7) < 0 ? -errno : 0));
		snprintf(key, sizeof(key), "read.format%02d.exact", f);
		{
			ssize_t n = read(lead, buf, sizeof(buf));

			say(key, "%s", res(n > 0 && read(lead, buf, n - 1) < 0 ?
					   -errno : 0));
		}
		if (sib >= 0)
			close(sib);
		close(lead);
	}
}

/* ---- types and configs ------------------------------------------------ */

static void observe_types(void)
{
	static const uint64_t configs[] = {
		0, 1, 2, 9, 10, 11, 12, 0x100, 0xffff, 1ULL << 32,
		(1ULL << 32) | 1, 8ULL << 32, 0xffffffffULL << 32,
	};
	struct perf_event_attr a;
	char key[128];
	unsigned int t, c;

	for (t = 0; t < 40; t++) {
		for (c = 0; c < ARRAY_SIZE(configs); c++) {
			sw(&a, configs[c]);
			a.type = t;
			a.exclude_kernel = 1;
			if (t == PERF_TYPE_BREAKPOINT)
				a.bp_type = HW_BREAKPOINT_EMPTY;
			snprintf(key, sizeof(key), "type.%02u.config%#llx", t,
				 (unsigned long long)configs[c]);
			try_open(key, &a, 0, -1, -1, 0);
		}
	}
	sw(&a, 0);
	a.type = 0xffffffff;
	try_open("type.max", &a, 0, -1, -1, 0);
	for (c = 0; c < 12; c++) {
		sw(&a, c);
		snprintf(key, sizeof(key), "type.sw.config%u.cpu0", c);
		try_open(key, &a, -1, 0, -1, 0);
	}
	/* HW_CACHE: cache id, op, result */
	for (c = 0; c < 0x80; c++) {
		uint64_t cfg = (c & 7) | ((c >> 3 & 3) << 8) |
			       ((c >> 5 & 3) << 16);

		sw(&a, cfg);
		a.type = PERF_TYPE_HW_CACHE;
		snprintf(key, sizeof(key), "type.hw_cache.%#llx",
			 (unsigned long long)cfg);
		try_open(key, &a, 0, -1, -1, 0);
	}
}

/* ---- pid, cpu, group_fd and flags ------------------------------------ */

static void observe_targets(void)
{
	struct perf_event_attr a;
	int fd, other;

	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	try_open("target.pid0.cpu-1", &a, 0, -1, -1, 0);
	try_open("target.pid-1.cpu-1", &a, -1, -1, -1, 0);
	try_open("target.pid-1.cpu0", &a, -1, 0, -1, 0);
	try_open("target.pid-1.cpu1", &a, -1, 1, -1, 0);
	try_open("target.pid-1.cpu4096", &a, -1, 4096, -1, 0);
	try_open("target.pid-1.cpu-2", &a, -1, -2, -1, 0);
	try_open("target.pid1", &a, 1, -1, -1, 0);
	try_open("target.pid-nonexistent", &a, 4000000, -1, -1, 0);
	try_open("target.pid-2", &a, -2, -1, -1, 0);
	try_open("target.flags.bad", &a, 0, -1, -1, 1UL << 5);
	try_open("target.flags.fd_output", &a, 0, -1, -1,
		 PERF_FLAG_FD_OUTPUT);
	try_open("target.flags.no_group", &a, 0, -1, -1,
		 PERF_FLAG_FD_NO_GROUP);
	try_open("target.flags.pid_cgroup", &a, 0, -1, -1,
		 PERF_FLAG_PID_CGROUP);
	fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	try_open("target.flags.pid_cgroup.rootdir", &a, fd, 0, -1,
		 PERF_FLAG_PID_CGROUP);
	try_open("target.flags.pid_cgroup.rootdir.cpu-1", &a, fd, -1, -1,
		 PERF_FLAG_PID_CGROUP);
	try_open("target.group.not_perf", &a, 0, -1, fd, 0);
	close(fd);
	try_open("target.group.badfd", &a, 0, -1, 1000, 0);
	try_open("target.group.fd-2", &a, 0, -1, -2, 0);
	fd = sys_open(&a, 0, -1, -1, 0);
	try_open("target.group.same_task", &a, 0, -1, fd, 0);
	try_open("target.group.other_cpu", &a, 0, 0, fd, 0);
	try_open("target.group.cpu_into_task", &a, -1, 0, fd, 0);
	try_open("target.group.no_group_flag", &a, 0, -1, fd,
		 PERF_FLAG_FD_NO_GROUP);
	try_open("target.group.fd_output_flag", &a, 0, -1, fd,
		 PERF_FLAG_FD_OUTPUT);
	other = sys_open(&a, 0, -1, fd, 0);
	try_open("target.group.sibling_as_leader", &a, 0, -1, other, 0);
	a.inherit = 1;
	try_open("target.group.inherit_member", &a, 0, -1, fd, 0);
	a.inherit = 0;
	a.pinned = 1;
	try_open("target.group.pinned_member", &a, 0, -1, fd, 0);
	a.pinned = 0;
	a.exclusive = 1;
	try_open("target.group.exclusive_member", &a, 0, -1, fd, 0);
	a.exclusive = 0;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	try_open("target.group.clockid_member", &a, 0, -1, fd, 0);
	close(other);
	close(fd);
	a.clockid = CLOCK_MONOTONIC;
	fd = sys_open(&a, 0, -1, -1, 0);
	say("target.group.clockid_leader", "%s", res(fd));
	a.clockid = CLOCK_REALTIME;
	try_open("target.group.clockid_differs", &a, 0, -1, fd, 0);
	a.use_clockid = 0;
	try_open("target.group.clockid_none", &a, 0, -1, fd, 0);
	if (fd >= 0)
		close(fd);
}

/* how a case of observe_regs_masks() starts its attr */
enum regs_base { REGS_SW, REGS_SW_SAMPLING, REGS_HW, REGS_HW_SAMPLING };

/*
 * sample_regs_user/intr masks with and without their sample bits, on
 * counting and sampling, software and hardware events; REG_EXTENDED_BIT
 * names the extended registers (x86 XMM, arm64 VG).
 */
static const struct regs_case {
	const char *name;
	enum regs_base base;
	bool intr;		/* sample_regs_intr, else sample_regs_user */
	bool bit;		/* with the REGS sample bit */
	uint64_t mask;
} regs_cases[] = {
	{ "no_bit", REGS_SW, false, false, 1 },
	{ "no_bit", REGS_SW, true, false, 1 },
	{ "no_bit.sampling", REGS_SW_SAMPLING, false, false, 1 },
	{ "no_bit.sampling", REGS_SW_SAMPLING, true, false, 1 },
	{ "no_bit.hw", REGS_HW, false, false, 1 },
	{ "no_bit.hw_sampling", REGS_HW_SAMPLING, false, false, 1 },
	{ "no_bit.hw", REGS_HW, true, false, 1 },
	{ "no_bit.hw_sampling", REGS_HW_SAMPLING, true, false, 1 },
	{ "no_bit.extended", REGS_SW, false, false, REG_EXTENDED_BIT },
	{ "no_bit.all_ones", REGS_SW, false, false, ~0ULL },
	{ "no_bit.extended", REGS_SW, true, false, REG_EXTENDED_BIT },
	{ "no_bit.all_ones", REGS_SW, true, false, ~0ULL },
	{ "no_bit.hw_extended", REGS_HW, false, false, REG_EXTENDED_BIT },
	{ "no_bit.hw_extended", REGS_HW, true, false, REG_EXTENDED_BIT },
	{ "no_bit.hw_sampling_extended", REGS_HW_SAMPLING, true, false,
	  REG_EXTENDED_BIT },
	{ "bit_no_mask", REGS_SW_SAMPLING, false, true, 0 },
	{ "all_ones", REGS_SW_SAMPLING, false, true, ~0ULL },
	{ "one", REGS_SW_SAMPLING, false, true, 1 },
	{ "bit_no_mask", REGS_SW_SAMPLING, true, true, 0 },
	{ "all_ones", REGS_SW_SAMPLING, true, true, ~0ULL },
};

static void observe_regs_masks(void)
{
	struct perf_event_attr a;
	char name[96];
	size_t i;

	for (i = 0; i < sizeof(regs_cases) / sizeof(regs_cases[0]); i++) {
		const struct regs_case *c = &regs_cases[i];

		if (c->base == REGS_SW)
			sw(&a, PERF_COUNT_SW_TASK_CLOCK);
		else if (c->base == REGS_SW_SAMPLING)
			sw_sampling(&a, PERF_COUNT_SW_TASK_CLOCK);
		else
			hw_attr(&a);
		if (c->base == REGS_HW_SAMPLING)
			a.sample_period = 100000;
		if (c->bit)
			a.sample_type = c->intr ? PERF_SAMPLE_REGS_INTR :
						  PERF_SAMPLE_REGS_USER;
		if (c->intr)
			a.sample_regs_intr = c->mask;
		else
			a.sample_regs_user = c->mask;
		snprintf(name, sizeof(name), "field.sample_regs_%s.%s",
			 c->intr ? "intr" : "user", c->name);
		try_open(name, &a, 0, -1, -1, 0);
	}
}

/* ---- attr fields besides the flags ------------------------------------ */

static void observe_fields(void)
{
	struct perf_event_attr a;
	int fd;

	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.size = 0;
	try_open("field.size0", &a, 0, -1, -1, 0);
	a.size = 63;
	try_open("field.size63", &a, 0, -1, -1, 0);
	a.size = 64;
	try_open("field.size64", &a, 0, -1, -1, 0);
	a.size = 1;
	try_open("field.size1", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.__reserved_2 = 1;
	try_open("field.reserved_2", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.__reserved_3 = 1;
	try_open("field.reserved_3", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.aux_start_paused = 1;
	try_open("field.aux_start_paused", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.aux_pause = 1;
	try_open("field.aux_pause", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.aux_resume = 1;
	try_open("field.aux_resume", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.aux_pause = a.aux_resume = 1;
	try_open("field.aux_pause_resume", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.aux_output = 1;
	try_open("field.aux_output", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	fd = sys_open(&a, 0, -1, -1, 0);
	a.aux_output = 1;
	try_open("field.aux_output.sw_group", &a, 0, -1, fd, 0);
	if (fd >= 0)
		close(fd);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.aux_sample_size = 4096;
	try_open("field.aux_sample_size", &a, 0, -1, -1, 0);
	a.sample_type = PERF_SAMPLE_AUX;
	a.sample_period = 1000;
	try_open("field.aux_sample_size.sample_aux", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.aux_watermark = 4096;
	try_open("field.aux_watermark", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.sample_stack_user = 8;
	try_open("field.sample_stack_user.no_bit", &a, 0, -1, -1, 0);
	observe_regs_masks();
	sw_sampling(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.sample_type = PERF_SAMPLE_STACK_USER;
	try_open("field.stack_user.0", &a, 0, -1, -1, 0);
	a.sample_stack_user = 12;
	try_open("field.stack_user.12", &a, 0, -1, -1, 0);
	a.sample_stack_user = 0x10000;
	try_open("field.stack_user.64k", &a, 0, -1, -1, 0);
	a.sample_stack_user = 0xfff8;
	try_open("field.stack_user.65528", &a, 0, -1, -1, 0);
	sw_sampling(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.sample_type = PERF_SAMPLE_CALLCHAIN;
	a.sample_max_stack = 127;
	try_open("field.max_stack.127", &a, 0, -1, -1, 0);
	a.sample_max_stack = 128;
	try_open("field.max_stack.128", &a, 0, -1, -1, 0);
	a.sample_max_stack = 65535;
	try_open("field.max_stack.65535", &a, 0, -1, -1, 0);
	sw_sampling(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	try_open("field.branch_stack.any", &a, 0, -1, -1, 0);
	a.branch_sample_type = 0;
	try_open("field.branch_stack.none", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	try_open("field.branch_sample_type.no_bit", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.freq = 1;
	a.sample_freq = 1000000000;
	try_open("field.freq.huge", &a, 0, -1, -1, 0);
	a.sample_freq = 0;
	try_open("field.freq.zero", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.sample_period = 1ULL << 63;
	try_open("field.period.bit63", &a, 0, -1, -1, 0);
	a.sample_period = (1ULL << 63) - 1;
	try_open("field.period.max", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.use_clockid = 1;
	for (int c = -1; c < 13; c++) {
		char key[64];

		a.clockid = c;
		snprintf(key, sizeof(key), "field.clockid.%d", c);
		try_open(key, &a, 0, -1, -1, 0);
	}
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.sigtrap = 1;
	a.remove_on_exec = 1;
	try_open("field.sigtrap.task", &a, 0, -1, -1, 0);
	try_open("field.sigtrap.cpu0", &a, -1, 0, -1, 0);
	a.inherit = 1;
	try_open("field.sigtrap.inherit", &a, 0, -1, -1, 0);
	a.inherit_thread = 1;
	try_open("field.sigtrap.inherit_thread", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.inherit = 1;
	a.sample_type = PERF_SAMPLE_READ;
	a.sample_period = 1000;
	try_open("field.inherit.sample_read", &a, 0, -1, -1, 0);
	a.sample_type |= PERF_SAMPLE_TID;
	try_open("field.inherit.sample_read_tid", &a, 0, -1, -1, 0);
	a.read_format = PERF_FORMAT_GROUP;
	try_open("field.inherit.sample_read_group", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.inherit = 1;
	a.read_format = PERF_FORMAT_GROUP;
	try_open("field.inherit.read_group", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.config1 = 1;
	a.config2 = 1;
	a.config3 = 1;
	try_open("field.sw.config123", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.bp_type = 1;
	try_open("field.sw.bp_type", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.sig_data = 1;
	try_open("field.sig_data.no_sigtrap", &a, 0, -1, -1, 0);
}

/* ---- permissions --------------------------------------------------------- */

/* bit numbers of the attr flags word, in the order of flag_names[] */
enum {
	F_DISABLED, F_INHERIT, F_PINNED, F_EXCLUSIVE, F_EXCLUDE_USER,
	F_EXCLUDE_KERNEL, F_EXCLUDE_HV, F_EXCLUDE_IDLE, F_MMAP, F_COMM,
	F_FREQ, F_INHERIT_STAT, F_ENABLE_ON_EXEC, F_TASK, F_WATERMARK,
	F_PRECISE_IP0, F_PRECISE_IP1, F_MMAP_DATA, F_SAMPLE_ID_ALL,
	F_EXCLUDE_HOST, F_EXCLUDE_GUEST, F_EXCLUDE_CALLCHAIN_KERNEL,
	F_EXCLUDE_CALLCHAIN_USER, F_MMAP2, F_COMM_EXEC, F_USE_CLOCKID,
	F_CONTEXT_SWITCH, F_WRITE_BACKWARD, F_NAMESPACES, F_KSYMBOL,
	F_BPF_EVENT, F_AUX_OUTPUT, F_CGROUP, F_TEXT_POKE, F_BUILD_ID,
	F_INHERIT_THREAD, F_REMOVE_ON_EXEC, F_SIGTRAP,
};

#define F(bit)		(1ULL << F_##bit)
#define KERNEL		(F(EXCLUDE_KERNEL) | F(EXCLUDE_HV))

static int tp_sched_switch = -1;

enum perm_kind { CLOCK, DUMMY, BREAKPOINT, TRACEPOINT, HARDWARE };

/*
 * A permission probe: an event of @kind, user space only (exclude_kernel
 * and exclude_hv) but for the flags in @clear, with the flags in @set, and
 * sampling @sample_type (with PERF_SAMPLE_IP) when not 0; on @pid/@cpu.
 */
struct perm_probe {
	const char *name;
	enum perm_kind kind;
	uint64_t sample_type;
	uint64_t set, clear;
	pid_t pid;
	int cpu;
};

static void perm_attr(const struct perm_probe *pp, struct perf_event_attr *a)
{
	uint64_t flags;

	switch (pp->kind) {
	case CLOCK:
		sw(a, PERF_COUNT_SW_TASK_CLOCK);
		break;
	case DUMMY:
		sw(a, PERF_COUNT_SW_DUMMY);
		break;
	case BREAKPOINT:
		bp_attr(a);
		break;
	case TRACEPOINT:
		sw(a, tp_sched_switch);
		a->type = PERF_TYPE_TRACEPOINT;
		break;
	case HARDWARE:
		hw_attr(a);
		break;
	}
	flags = (*flags_word(a) | KERNEL | pp->set) & ~pp->clear;
	*flags_word(a) = flags;
	if (pp->sample_type) {
		a->sample_period = pp->kind == TRACEPOINT ? 1 : 100000;
		a->sample_type = PERF_SAMPLE_IP | pp->sample_type;
	}
	if (pp->sample_type & PERF_SAMPLE_REGS_INTR)
		a->sample_regs_intr = 1;
	if (pp->sample_type & PERF_SAMPLE_REGS_USER)
		a->sample_regs_user = 1;
	if (pp->sample_type & PERF_SAMPLE_STACK_USER)
		a->sample_stack_user = 64;
	if (flags & F(USE_CLOCKID))
		a->clockid = CLOCK_MONOTONIC_RAW;
	if (flags & F(FREQ))
		a->sample_freq = 90000;
}

#define SAMPLE(bits)	PERF_SAMPLE_##bits
#define TRACKING	(F(MMAP) | F(MMAP2) | F(COMM) | F(TASK) | F(MMAP_DATA))

static const struct perm_probe perm_probes[] = {
	{ "user", CLOCK, 0, 0, 0, 0, -1 },
	{ "kernel", CLOCK, 0, 0, KERNEL, 0, -1 },
	{ "kernel_only", CLOCK, 0, F(EXCLUDE_USER), KERNEL, 0, -1 },
	{ "hv", CLOCK, 0, 0, F(EXCLUDE_HV), 0, -1 },
	{ "cpu_wide", CLOCK, 0, 0, 0, -1, 0 },
	{ "cpu_wide_kernel", CLOCK, 0, 0, KERNEL, -1, 0 },
	{ "task_on_cpu", CLOCK, 0, 0, 0, 0, 0 },
	{ "init_task", CLOCK, 0, 0, 0, 1, -1 },
	{ "init_task_sigtrap", CLOCK, SAMPLE(IP),
	  F(SIGTRAP) | F(REMOVE_ON_EXEC), 0, 1, -1 },
	{ "init_task_kernel", CLOCK, 0, 0, KERNEL, 1, -1 },
	{ "sampling", CLOCK, SAMPLE(IP), 0, 0, 0, -1 },
	{ "callchain", CLOCK, SAMPLE(CALLCHAIN), 0, 0, 0, -1 },
	{ "callchain_user", CLOCK, SAMPLE(CALLCHAIN),
	  F(EXCLUDE_CALLCHAIN_KERNEL), 0, 0, -1 },
	{ "phys_addr", CLOCK, SAMPLE(PHYS_ADDR), 0, 0, 0, -1 },
	{ "regs_intr", CLOCK, SAMPLE(REGS_INTR), 0, 0, 0, -1 },
	{ "regs_user", CLOCK, SAMPLE(REGS_USER), 0, 0, 0, -1 },
	{ "stack_user", CLOCK, SAMPLE(STACK_USER), 0, 0, 0, -1 },
	{ "raw", CLOCK, SAMPLE(RAW), 0, 0, 0, -1 },
	{ "page_sizes", CLOCK, SAMPLE(DATA_PAGE_SIZE) | SAMPLE(CODE_PAGE_SIZE),
	  0, 0, 0, -1 },
	{ "addr_bits", CLOCK, SAMPLE(ADDR) | SAMPLE(DATA_SRC) | SAMPLE(WEIGHT) |
	  SAMPLE(TRANSACTION), 0, 0, 0, -1 },
	{ "cgroup_sample", CLOCK, SAMPLE(CGROUP), 0, 0, 0, -1 },
	{ "namespaces", CLOCK, 0, F(NAMESPACES), 0, 0, -1 },
	{ "cgroup", CLOCK, 0, F(CGROUP), 0, 0, -1 },
	{ "ksymbol", CLOCK, 0, F(KSYMBOL), 0, 0, -1 },
	{ "bpf_event", CLOCK, 0, F(BPF_EVENT), 0, 0, -1 },
	{ "text_poke", CLOCK, 0, F(TEXT_POKE), 0, 0, -1 },
	{ "context_switch", CLOCK, 0, F(CONTEXT_SWITCH), 0, 0, -1 },
	{ "context_switch_cpu", CLOCK, 0, F(CONTEXT_SWITCH), 0, -1, 0 },
	{ "mmap", CLOCK, 0, TRACKING, 0, 0, -1 },
	{ "build_id", CLOCK, 0, TRACKING | F(BUILD_ID), 0, 0, -1 },
	{ "clockid", CLOCK, 0, F(USE_CLOCKID), 0, 0, -1 },
	{ "exclusive", CLOCK, 0, F(EXCLUSIVE) | F(PINNED), 0, 0, -1 },
	{ "freq_high", CLOCK, 0, F(FREQ), 0, 0, -1 },
	{ "sigtrap", CLOCK, SAMPLE(IP), F(SIGTRAP) | F(REMOVE_ON_EXEC), 0,
	  0, -1 },
	{ "dummy", DUMMY, 0, 0, 0, 0, -1 },
	{ "dummy_kernel", DUMMY, 0, 0, KERNEL, 0, -1 },
	{ "dummy_cpu", DUMMY, 0, 0, 0, -1, 0 },
	{ "breakpoint", BREAKPOINT, 0, 0, 0, 0, -1 },
	{ "breakpoint_kernel", BREAKPOINT, 0, 0, KERNEL, 0, -1 },
	{ "tracepoint", TRACEPOINT, 0, 0, 0, 0, -1 },
	{ "tracepoint_raw", TRACEPOINT, SAMPLE(RAW), 0, KERNEL, 0, -1 },
	{ "tracepoint_cpu", TRACEPOINT, 0, 0, 0, -1, 0 },
	{ "hw_user", HARDWARE, 0, 0, 0, 0, -1 },
	{ "hw_kernel", HARDWARE, 0, 0, KERNEL, 0, -1 },
	{ "hw_cpu", HARDWARE, 0, 0, 0, -1, 0 },
};

static int drop_privileges(int keep_perfmon)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = { { 0 } };

	if (prctl(PR_SET_KEEPCAPS, 1))
		return -1;
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return -1;
	if (keep_perfmon) {
		data[1].effective = data[1].permitted =
			1U << (CAP_PERFMON - 32);
	}
	return syscall(SYS_capset, &hdr, data) ? -1 : 0;
}

/* open what @pp describes, report the errno under @prefix.@name */
static void perm_try(const char *prefix, const char *name,
		     const struct perm_probe *pp)
{
	struct perf_event_attr a = { 0 };
	char key[160];

	perm_attr(pp, &a);
	snprintf(key, sizeof(key), "%s.%s", prefix, name);
	try_open(key, &a, pp->pid, pp->cpu, -1, 0);
}

/*
 * In a child dropped to nobody (keeping CAP_PERFMON if @perfmon): every
 * probe of the table, then every sample bit and every attr flag alone on
 * a user-only task clock, printed under @prefix.
 */
static void perm_child(const char *prefix, int perfmon)
{
	struct perm_probe pp = { NULL, CLOCK, 0, 0, 0, 0, -1 };
	char name[64];
	unsigned int i;

	if (drop_privileges(perfmon)) {
		say(prefix, "cannot drop privileges");
		_exit(1);
	}
	for (i = 0; i < ARRAY_SIZE(perm_probes); i++)
		perm_try(prefix, perm_probes[i].name, &perm_probes[i]);
	for (i = 0; (1ULL << i) < PERF_SAMPLE_MAX; i++) {
		pp.sample_type = 1ULL << i;
		snprintf(name, sizeof(name), "sample_bit%02u", i);
		perm_try(prefix, name, &pp);
	}
	pp.sample_type = 0;
	for (i = 0; i < ARRAY_SIZE(flag_names); i++) {
		pp.set = 1ULL << i;
		snprintf(name, sizeof(name), "flag.%02u.%s", i, flag_names[i]);
		perm_try(prefix, name, &pp);
	}
	_exit(0);
}

/* the permission probes at every paranoid level, as nobody */
static void observe_permissions(void)
{
	static const long levels[] = { -1, 0, 1, 2, 3 };
	long saved = read_sysctl(PARANOID);
	char prefix[64];
	unsigned int l;
	int caps;

	for (l = 0; l < ARRAY_SIZE(levels); l++) {
		if (write_sysctl(PARANOID, levels[l]))
			continue;
		for (caps = 0; caps < 2; caps++) {
			pid_t pid;

			snprintf(prefix, sizeof(prefix), "perm.paranoid%ld.%s",
				 levels[l], caps ? "perfmon" : "nobody");
			fflush(stdout);
			pid = fork();
			if (pid == 0)
				perm_child(prefix, caps);
			if (pid > 0)
				waitpid(pid, NULL, 0);
		}
	}
	write_sysctl(PARANOID, saved);
}

/* ---- a PMU with an AUX area and address filters (arm64: cs_etm) ------ */

/* The first PMU whose sysfs nr_addr_filters is not 0, or -1. */
static int addr_filter_pmu(char *name, size_t len)
{
	const char *base = "/sys/bus/event_source/devices";
	struct dirent **pmus;
	char path[512];
	int n, i, type = -1;

	n = scandir(base, &pmus, NULL, alphasort);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s/nr_addr_filters", base,
			 pmus[i]->d_name);
		if (type < 0 && pmus[i]->d_name[0] != '.' &&
		    read_sysctl(path) > 0) {
			snprintf(name, len, "%s", pmus[i]->d_name);
			type = pmu_type(name);
		}
		free(pmus[i]);
	}
	if (n >= 0)
		free(pmus);
	return type;
}

/* 0 for events of the AUX PMU that trace the kernel too */
static int aux_user_only = 1;

static void aux_attr(struct perf_event_attr *a, int type)
{
	memset(a, 0, sizeof(*a));
	a->type = type;
	a->size = sizeof(*a);
	a->disabled = 1;
	a->exclude_kernel = aux_user_only;
	a->exclude_hv = 1;
}

/* SET_FILTER with @filter on a new event of @type; the errno under @key */
static void try_addr_filter(const char *key, int type, int cpu,
			    const char *filter)
{
	struct perf_event_attr a;
	int fd, ret;

	aux_attr(&a, type);
	fd = sys_open(&a, cpu < 0 ? 0 : -1, cpu, -1, 0);
	if (fd < 0) {
		say(key, "open %s", res(fd));
		return;
	}
	ret = ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter);
	say(key, "%s", res(ret < 0 ? -errno : ret));
	if (!ret) {
		/* a second filter replaces the first */
		ret = ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter);
		say(key, "again %s", res(ret < 0 ? -errno : ret));
	}
	close(fd);
}

static const struct {
	const char *name;
	const char *filter;
} addr_filters[] = {
	{ "range", "filter 0x1000/0x100" },
	{ "range_dec", "filter 4096/256" },
	{ "range_oct", "filter 010000/0400" },
	{ "range_nohex", "filter 1000/100" },
	{ "range_spaces", "  filter   0x1000/0x100  " },
	{ "range_tab", "filter\t0x1000/0x100" },
	{ "range_newline", "filter 0x1000/0x100\n" },
	{ "range_slash_spaces", "filter 0x1000 / 0x100" },
	{ "range_zero_size", "filter 0x1000/0" },
	{ "range_no_size", "filter 0x1000" },
	{ "range_huge", "filter 0xffffffffffffffff/0x100" },
	{ "range_overflow", "filter 0x10000000000000000/0x100" },
	{ "start", "start 0x1000" },
	{ "stop", "stop 0x1000" },
	{ "start_size", "start 0x1000/0x100" },
	{ "stop_size", "stop 0x1000/0x100" },
	{ "start_stop", "start 0x1000 stop 0x2000" },
	{ "start_stop_comma", "start 0x1000,stop 0x2000" },
	{ "two_ranges", "filter 0x1000/0x100 filter 0x2000/0x100" },
	{ "two_ranges_comma", "filter 0x1000/0x100,filter 0x2000/0x100" },
	{ "two_ranges_comma_space", "filter 0x1000/0x100, filter 0x2000/0x100" },
	{ "range_and_start", "filter 0x1000/0x100 start 0x2000" },
	{ "eight", "filter 0x1000/0x10 filter 0x2000/0x10 filter 0x3000/0x10 filter 0x4000/0x10 filter 0x5000/0x10 filter 0x6000/0x10 filter 0x7000/0x10 filter 0x8000/0x10" },
	{ "nine", "filter 0x1000/0x10 filter 0x2000/0x10 filter 0x3000/0x10 filter 0x4000/0x10 filter 0x5000/0x10 filter 0x6000/0x10 filter 0x7000/0x10 filter 0x8000/0x10 filter 0x9000/0x10" },
	{ "file", "filter 0x1000/0x100@/tests/observe" },
	{ "file_start", "start 0x1000@/tests/observe" },
	{ "file_stop", "stop 0x1000@/bin/busybox" },
	{ "file_no_size", "filter 0x1000@/tests/observe" },
	{ "file_two", "filter 0x1000/0x100@/tests/observe filter 0x0/0x100@/bin/busybox" },
	{ "file_and_kernel", "filter 0x1000/0x100@/tests/observe filter 0x1000/0x100" },
	{ "file_missing", "filter 0x1000/0x100@/no/such/file" },
	{ "file_dir", "filter 0x1000/0x100@/tests" },
	{ "file_empty_path", "filter 0x1000/0x100@" },
	{ "file_relative", "filter 0x1000/0x100@tests/observe" },
	{ "file_proc", "filter 0x1000/0x100@/proc/self/exe" },
	{ "file_space_at", "filter 0x1000/0x100 @/tests/observe" },
	{ "empty", "" },
	{ "space", " " },
	{ "comma", "," },
	{ "action_only", "filter" },
	{ "start_only", "start" },
	{ "bad_action", "trace 0x1000/0x100" },
	{ "tracestop", "tracestop 0x1000/0x100" },
	{ "upper", "FILTER 0x1000/0x100" },
	{ "bad_number", "filter zz/0x100" },
	{ "bad_size", "filter 0x1000/zz" },
	{ "trailing_slash", "filter 0x1000/" },
	{ "trailing_junk", "filter 0x1000/0x100 junk" },
	{ "number_junk", "filter 0x1000x/0x100" },
	{ "negative", "filter -0x1000/0x100" },
	{ "plus", "filter +0x1000/0x100" },
	{ "ftrace_syntax", "common_pid == 1" },
};

/*
 * The permission matrix of an area: @child(prefix, @type, perfmon) in a
 * child process as nobody, without and with CAP_PERFMON, at each of the
 * @nr paranoid @levels; the prefix is "<area>.perm.paranoid<level>.<who>".
 */
static void perm_matrix(const char *area, const long *levels, int nr,
			int type, void (*child)(const char *, int, int))
{
	long saved = read_sysctl(PARANOID);

	for (int i = 0; i < nr; i++) {
		if (write_sysctl(PARANOID, levels[i]))
			continue;
		for (int caps = 0; caps < 2; caps++) {
			char prefix[64];
			pid_t pid;

			snprintf(prefix, sizeof(prefix), "%s.perm.paranoid%ld.%s",
				 area, levels[i], caps ? "perfmon" : "nobody");
			fflush(stdout);
			pid = fork();
			if (pid == 0)
				child(prefix, type, caps);
			if (pid > 0)
				waitpid(pid, NULL, 0);
		}
	}
	write_sysctl(PARANOID, saved);
}

/* as nobody (paranoid 2, and 1, and with CAP_PERFMON): kernel and file filters */
static void addr_filter_perm_child(const char *prefix, int type, int perfmon)
{
	char key[160];

	if (drop_privileges(perfmon)) {
		say(prefix, "cannot drop privileges");
		_exit(1);
	}
	snprintf(key, sizeof(key), "%s.range", prefix);
	try_addr_filter(key, type, -1, "filter 0x1000/0x100");
	snprintf(key, sizeof(key), "%s.start", prefix);
	try_addr_filter(key, type, -1, "start 0x1000");
	snprintf(key, sizeof(key), "%s.file", prefix);
	try_addr_filter(key, type, -1, "filter 0x1000/0x100@/tests/observe");
	_exit(0);
}

/*
 * An exclusive PMU (cs_etm is one): which events of it can be open at
 * once, and whether a closed one, or one whose ring was mapped, still
 * holds the PMU for the next open.
 */
static void observe_aux_exclusive(int type)
{
	static const struct {
		const char *name;
		int pid1, cpu1, pid2, cpu2;
	} pairs[] = {
		{ "task_any_task_cpu0", 0, -1, 0, 0 },
		{ "task_cpu0_task_cpu1", 0, 0, 0, 1 },
		{ "task_cpu0_task_cpu0", 0, 0, 0, 0 },
		{ "task_any_cpu0", 0, -1, -1, 0 },
		{ "cpu0_task_any", -1, 0, 0, -1 },
		{ "cpu0_cpu1", -1, 0, -1, 1 },
		{ "cpu0_cpu0", -1, 0, -1, 0 },
	};
	long pg = sysconf(_SC_PAGESIZE);
	struct perf_event_attr a;
	char key[160];
	unsigned int i;
	int fd, fd2;
	void *ring;

	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		aux_attr(&a, type);
		fd = sys_open(&a, pairs[i].pid1, pairs[i].cpu1, -1, 0);
		fd2 = sys_open(&a, pairs[i].pid2, pairs[i].cpu2, -1, 0);
		snprintf(key, sizeof(key), "auxpmu.exclusive.%s",
			 pairs[i].name);
		say(key, "%s %s", res(fd), res(fd2));
		if (fd2 >= 0)
			close(fd2);
		if (fd >= 0)
			close(fd);
	}
	/* closed, a task event of the same task on one CPU opens */
	aux_attr(&a, type);
	fd = sys_open(&a, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
	try_open("auxpmu.exclusive.after_close", &a, 0, 0, -1, 0);
	/* a sampling event with a ring, mapped read-only, then both gone */
	for (i = 0; i < 2; i++) {
		aux_attr(&a, type);
		a.sample_period = 100000;
		a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
		fd = sys_open(&a, 0, -1, -1, 0);
		if (fd < 0) {
			say("auxpmu.exclusive.ring", "open %s", res(fd));
			return;
		}
		ring = mmap(NULL, 9 * pg, i ? PROT_READ : PROT_READ | PROT_WRITE,
			    MAP_SHARED, fd, 0);
		say(i ? "auxpmu.exclusive.ring_ro" : "auxpmu.exclusive.ring",
		    "%s", res(ring == MAP_FAILED ? -errno : 0));
		if (ring != MAP_FAILED)
			munmap(ring, 9 * pg);
		close(fd);
		aux_attr(&a, type);
		try_open(i ? "auxpmu.exclusive.after_ring_ro" :
			 "auxpmu.exclusive.after_ring", &a, 0, 0, -1, 0);
	}
	/* the fd closed first, the ring unmapped after */
	aux_attr(&a, type);
	a.sample_period = 100000;
	fd = sys_open(&a, 0, -1, -1, 0);
	if (fd < 0)
		return;
	ring = mmap(NULL, 9 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	aux_attr(&a, type);
	try_open("auxpmu.exclusive.mapped_closed", &a, 0, 0, -1, 0);
	if (ring != MAP_FAILED)
		munmap(ring, 9 * pg);
	try_open("auxpmu.exclusive.unmapped_closed", &a, 0, 0, -1, 0);
}

static void observe_aux_pmu(void)
{
	static const long levels[] = { 2, 1 };
	struct perf_event_attr a;
	char name[256], key[160];
	unsigned int i;
	int type, fd, lead, ret;
	void *ring;
	long pg = sysconf(_SC_PAGESIZE);

	type = addr_filter_pmu(name, sizeof(name));
	say("auxpmu.present", "%s", type < 0 ? "no" : "yes");
	if (type < 0)
		return;
	observe_aux_exclusive(type);
	aux_attr(&a, type);
	try_open("auxpmu.open.task", &a, 0, -1, -1, 0);
	try_open("auxpmu.open.cpu", &a, -1, 0, -1, 0);
	a.exclude_kernel = 0;
	try_open("auxpmu.open.kernel", &a, 0, -1, -1, 0);

	for (i = 0; i < ARRAY_SIZE(addr_filters); i++) {
		snprintf(key, sizeof(key), "auxpmu.filter.%s",
			 addr_filters[i].name);
		try_addr_filter(key, type, -1, addr_filters[i].filter);
	}
	try_addr_filter("auxpmu.filter.cpu.range", type, 0,
			"filter 0x1000/0x100");
	try_addr_filter("auxpmu.filter.cpu.file", type, 0,
			"filter 0x1000/0x100@/tests/observe");
	try_addr_filter("auxpmu.filter.cpu.start", type, 0, "start 0x1000");
	aux_user_only = 0;
	try_addr_filter("auxpmu.filter.kernel.range", type, -1,
			"filter 0x1000/0x100");
	try_addr_filter("auxpmu.filter.kernel.file", type, -1,
			"filter 0x1000/0x100@/tests/observe");
	try_addr_filter("auxpmu.filter.kernel.cpu.range", type, 0,
			"filter 0x1000/0x100");
	aux_user_only = 1;

	/* a bad pointer, and a filter on a software event */
	aux_attr(&a, type);
	fd = sys_open(&a, 0, -1, -1, 0);
	if (fd >= 0) {
		ret = ioctl(fd, PERF_EVENT_IOC_SET_FILTER, (void *)8);
		say("auxpmu.filter.efault", "%s", res(ret < 0 ? -errno : ret));
		/* with the event enabled: the PMU resyncs its filters */
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		ret = ioctl(fd, PERF_EVENT_IOC_SET_FILTER,
			    "filter 0x1000/0x100@/tests/observe");
		say("auxpmu.filter.enabled", "%s",
		    res(ret < 0 ? -errno : ret));
		close(fd);
	}

	/* AUX samples and actions of group members on such a leader */
	aux_attr(&a, type);
	lead = sys_open(&a, 0, -1, -1, 0);
	say("auxpmu.leader", "%s", res(lead));
	if (lead >= 0) {
		static const struct {
			const char *name;
			uint64_t sample_type;
			uint32_t aux_sample_size;
		} members[] = {
			{ "sample_aux", PERF_SAMPLE_AUX, 4096 },
			{ "sample_aux_no_size", PERF_SAMPLE_AUX, 0 },
			{ "size_no_sample_aux", PERF_SAMPLE_IP, 4096 },
			{ "sample_aux_huge", PERF_SAMPLE_AUX, 1U << 20 },
		};

		for (i = 0; i < ARRAY_SIZE(members); i++) {
			sw_sampling(&a, PERF_COUNT_SW_TASK_CLOCK);
			a.sample_period = 100000;
			a.sample_type = members[i].sample_type;
			a.aux_sample_size = members[i].aux_sample_size;
			snprintf(key, sizeof(key), "auxpmu.member.%s",
				 members[i].name);
			try_open(key, &a, 0, -1, lead, 0);
		}
		sw_sampling(&a, PERF_COUNT_SW_TASK_CLOCK);
		a.aux_output = 1;
		try_open("auxpmu.member.aux_output", &a, 0, -1, lead, 0);
		sw_sampling(&a, PERF_COUNT_SW_TASK_CLOCK);
		a.aux_pause = 1;
		try_open("auxpmu.member.aux_pause", &a, 0, -1, lead, 0);

		/* the AUX area of the leader: 2 data pages, 4 AUX pages */
		ring = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_SHARED,
			    lead, 0);
		say("auxpmu.mmap.data", "%s", res(ring == MAP_FAILED ? -errno : 0));
		if (ring != MAP_FAILED) {
			struct perf_event_mmap_page *up = ring;
			void *aux;

			up->aux_offset = 4 * pg;
			up->aux_size = 4 * pg;
			aux = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE,
				   MAP_SHARED, lead, 4 * pg);
			say("auxpmu.mmap.aux", "%s",
			    res(aux == MAP_FAILED ? -errno : 0));
			if (aux != MAP_FAILED)
				munmap(aux, 4 * pg);
			munmap(ring, 3 * pg);
		}
		close(lead);
	}

	perm_matrix("auxpmu", levels, ARRAY_SIZE(levels), type,
		    addr_filter_perm_child);
}

/* ---- the kprobe PMU and BPF programs on events --------------------------- */

static void kprobe_attr(struct perf_event_attr *a, int type, const char *func,
			uint64_t addr_or_offset)
{
	memset(a, 0, sizeof(*a));
	a->type = type;
	a->size = sizeof(*a);
	a->kprobe_func = (uintptr_t)func;
	a->probe_offset = addr_or_offset;
	a->disabled = 1;
}

static void kprobe_perm_child(const char *prefix, int type, int perfmon)
{
	struct perf_event_attr a;
	char key[160];

	if (drop_privileges(perfmon)) {
		say(prefix, "cannot drop privileges");
		_exit(1);
	}
	kprobe_attr(&a, type, "vfs_read", 0);
	snprintf(key, sizeof(key), "%s.task", prefix);
	try_open(key, &a, 0, -1, -1, 0);
	snprintf(key, sizeof(key), "%s.cpu", prefix);
	try_open(key, &a, -1, 0, -1, 0);
	a.exclude_kernel = 1;
	snprintf(key, sizeof(key), "%s.exclude_kernel", prefix);
	try_open(key, &a, 0, -1, -1, 0);
	_exit(0);
}

static void observe_kprobe_pmu(void)
{
	static const long levels[] = { -1, 1, 2 };
	static char long_name[600];
	int type = pmu_type("kprobe");
	struct perf_event_attr a;

	say("kprobe.pmu", "%s", type >= 0 ? "yes" : "no");
	if (type < 0)
		return;
	kprobe_attr(&a, type, "vfs_read", 0);
	try_open("kprobe.func", &a, 0, -1, -1, 0);
	a.config = 1;
	try_open("kprobe.retprobe", &a, 0, -1, -1, 0);
	a.config = ~1ULL;
	try_open("kprobe.other_config_bits", &a, 0, -1, -1, 0);
	a.config = 0;
	a.exclude_kernel = 1;
	try_open("kprobe.exclude_kernel", &a, 0, -1, -1, 0);
	a.exclude_kernel = 0;
	a.exclude_user = 1;
	try_open("kprobe.exclude_user", &a, 0, -1, -1, 0);
	a.exclude_user = 0;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW | PERF_SAMPLE_CALLCHAIN;
	try_open("kprobe.sampling", &a, 0, -1, -1, 0);
	a.sample_period = 0;
	a.sample_type = 0;
	a.inherit = 1;
	try_open("kprobe.inherit", &a, 0, -1, -1, 0);
	a.inherit = 0;
	try_open("kprobe.cpu", &a, -1, 0, -1, 0);
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.sample_period = 1;
	try_open("kprobe.branch_stack", &a, 0, -1, -1, 0);
	kprobe_attr(&a, type, "no_such_function_xyz", 0);
	try_open("kprobe.func_missing", &a, 0, -1, -1, 0);
	kprobe_attr(&a, type, "", 0);
	try_open("kprobe.func_empty_addr_0", &a, 0, -1, -1, 0);
	kprobe_attr(&a, type, NULL, 0);
	try_open("kprobe.no_func_addr_0", &a, 0, -1, -1, 0);
	kprobe_attr(&a, type, NULL, 1);
	try_open("kprobe.addr_1", &a, 0, -1, -1, 0);
	kprobe_attr(&a, type, (const char *)8, 0);
	try_open("kprobe.func_efault", &a, 0, -1, -1, 0);
	memset(long_name, 'a', sizeof(long_name) - 1);
	kprobe_attr(&a, type, long_name, 0);
	try_open("kprobe.func_too_long", &a, 0, -1, -1, 0);

	perm_matrix("kprobe", levels, ARRAY_SIZE(levels), type,
		    kprobe_perm_child);
}

/* A program of @type that returns 1: its fd, or -errno. */
static int bpf_ret1(int type)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 1 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_type = type;
	a.insns = (uintptr_t)insns;
	a.insn_cnt = ARRAY_SIZE(insns);
	a.license = (uintptr_t)"GPL";
	fd = syscall(__NR_bpf, BPF_PROG_LOAD, &a, sizeof(a));
	return fd < 0 ? -errno : fd;
}

static void observe_bpf(void)
{
	static const struct {
		const char *name;
		int type;
	} progs[] = {
		{ "kprobe", BPF_PROG_TYPE_KPROBE },
		{ "tracepoint", BPF_PROG_TYPE_TRACEPOINT },
		{ "perf_event", BPF_PROG_TYPE_PERF_EVENT },
		{ "socket", BPF_PROG_TYPE_SOCKET_FILTER },
	};
	enum { SW, SW_SAMPLING, TP, KPROBE, BP, HW, NR_KINDS };
	static const char *const kinds[] = {
		"sw", "sw_sampling", "tracepoint", "kprobe", "breakpoint", "hw",
	};
	int kprobe = pmu_type("kprobe");
	struct perf_event_attr a;
	uint32_t query[2 + 4];
	char key[128];

	for (unsigned int p = 0; p < ARRAY_SIZE(progs); p++) {
		int prog = bpf_ret1(progs[p].type);

		snprintf(key, sizeof(key), "bpf.load.%s", progs[p].name);
		say(key, "%s", res(prog < 0 ? prog : 0));
		if (prog < 0)
			continue;
		for (int k = 0; k < NR_KINDS; k++) {
			int fd = -1, ret, again;

			switch (k) {
			case SW:
				sw(&a, PERF_COUNT_SW_PAGE_FAULTS);
				break;
			case SW_SAMPLING:
				sw_sampling(&a, PERF_COUNT_SW_PAGE_FAULTS);
				break;
			case TP:
				if (tp_sched_switch < 0)
					continue;
				memset(&a, 0, sizeof(a));
				a.type = PERF_TYPE_TRACEPOINT;
				a.size = sizeof(a);
				a.config = tp_sched_switch;
				break;
			case KPROBE:
				if (kprobe < 0)
					continue;
				kprobe_attr(&a, kprobe, "vfs_read", 0);
				break;
			case BP:
				bp_attr(&a);
				break;
			case HW:
				hw_attr(&a);
				break;
			}
			a.disabled = 1;
			fd = sys_open(&a, 0, -1, -1, 0);
			if (fd < 0)
				continue;
			ret = ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog) ? -errno : 0;
			again = ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog) ? -errno : 0;
			snprintf(key, sizeof(key), "bpf.set.%s.%s", progs[p].name,
				 kinds[k]);
			say(key, "%s then %s", res(ret), res(again));
			memset(query, 0, sizeof(query));
			query[0] = 4;
			ret = ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, query) ? -errno : 0;
			snprintf(key, sizeof(key), "bpf.query.%s.%s", progs[p].name,
				 kinds[k]);
			say(key, "%s %u", res(ret), ret ? 0 : query[1]);
			close(fd);
		}
		close(prog);
	}
}

/* ---- ioctls ------------------------------------------------------------ */

static void observe_ioctls(void)
{
	struct perf_event_attr a;
	char key[128];
	uint64_t v;
	int fd, other, s;

	for (s = 0; s < 2; s++) {
		const char *k = s ? "sampling" : "counting";

		if (s)
			sw_sampling(&a, PERF_COUNT_SW_TASK_CLOCK);
		else
			sw(&a, PERF_COUNT_SW_TASK_CLOCK);
		a.disabled = 1;
		fd = sys_open(&a, 0, -1, -1, 0);
		other = sys_open(&a, 0, -1, -1, 0);
#define IOC(name, req, arg) do {					\
		snprintf(key, sizeof(key), "ioctl.%s.%s", k, name);	\
		say(key, "%s", res(ioctl(fd, req, arg) < 0 ? -errno : 0)); \
	} while (0)
		IOC("enable", PERF_EVENT_IOC_ENABLE, 0);
		IOC("enable_group", PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		IOC("enable_badflag", PERF_EVENT_IOC_ENABLE, 2);
		IOC("disable", PERF_EVENT_IOC_DISABLE, 0);
		IOC("reset", PERF_EVENT_IOC_RESET, 0);
		IOC("refresh0", PERF_EVENT_IOC_REFRESH, 0);
		IOC("refresh1", PERF_EVENT_IOC_REFRESH, 1);
		IOC("refresh_neg", PERF_EVENT_IOC_REFRESH, -1);
		IOC("disable2", PERF_EVENT_IOC_DISABLE, 0);
		v = 0;
		IOC("period0", PERF_EVENT_IOC_PERIOD, &v);
		v = 1000;
		IOC("period1000", PERF_EVENT_IOC_PERIOD, &v);
		v = 1ULL << 63;
		IOC("period_bit63", PERF_EVENT_IOC_PERIOD, &v);
		IOC("period_null", PERF_EVENT_IOC_PERIOD, NULL);
		IOC("set_output_self", PERF_EVENT_IOC_SET_OUTPUT, fd);
		IOC("set_output_other", PERF_EVENT_IOC_SET_OUTPUT, other);
		IOC("set_output_none", PERF_EVENT_IOC_SET_OUTPUT, -1);
		IOC("set_output_badfd", PERF_EVENT_IOC_SET_OUTPUT, 999);
		IOC("set_output_stdin", PERF_EVENT_IOC_SET_OUTPUT, 0);
		IOC("set_filter", PERF_EVENT_IOC_SET_FILTER, "common_pid == 1");
		IOC("set_filter_null", PERF_EVENT_IOC_SET_FILTER, NULL);
		IOC("id_null", PERF_EVENT_IOC_ID, NULL);
		IOC("id", PERF_EVENT_IOC_ID, &v);
		IOC("set_bpf_bad", PERF_EVENT_IOC_SET_BPF, -1);
		IOC("set_bpf_stdin", PERF_EVENT_IOC_SET_BPF, 0);
		IOC("pause_output1", PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
		IOC("pause_output0", PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
		IOC("query_bpf_null", PERF_EVENT_IOC_QUERY_BPF, NULL);
		IOC("modify_null", PERF_EVENT_IOC_MODIFY_ATTRIBUTES, NULL);
		IOC("modify_same", PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a);
		{
			struct perf_event_attr b = a;

			b.sample_period = 0;
			b.sample_type = 0;
			b.disabled = 0;
			IOC("modify_plain", PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &b);
			bp_attr(&b);
			IOC("modify_to_bp", PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &b);
			b = a;
			b.size = 8;
			IOC("modify_size8", PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &b);
			b = a;
			b.type = PERF_TYPE_TRACEPOINT;
			IOC("modify_type", PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &b);
		}
		IOC("unknown", _IO('$', 42), 0);
		IOC("unknown_type", _IO('%', 0), 0);
#undef IOC
		close(other);
		close(fd);
	}
}

/* MODIFY_ATTRIBUTES on software events, with their own attr */
static void observe_modify_sw(void)
{
	static const struct {
		const char *name;
		uint64_t config;
		int exclude_kernel, disabled;
	} cases[] = {
		{ "dummy_user", PERF_COUNT_SW_DUMMY, 1, 0 },
		{ "dummy_kernel", PERF_COUNT_SW_DUMMY, 0, 0 },
		{ "dummy_disabled", PERF_COUNT_SW_DUMMY, 1, 1 },
		{ "clock_user", PERF_COUNT_SW_TASK_CLOCK, 1, 0 },
		{ "clock_kernel", PERF_COUNT_SW_TASK_CLOCK, 0, 0 },
		{ "clock_disabled", PERF_COUNT_SW_TASK_CLOCK, 1, 1 },
	};
	struct perf_event_attr a;
	char key[128];
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		sw(&a, cases[i].config);
		a.exclude_kernel = cases[i].exclude_kernel;
		a.disabled = cases[i].disabled;
		fd = sys_open(&a, 0, -1, -1, 0);
		snprintf(key, sizeof(key), "ioctl.modify.%s", cases[i].name);
		say(key, "%s", res(fd < 0 ? fd :
			ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a) < 0 ?
			-errno : 0));
		if (fd >= 0)
			close(fd);
	}
}

static void observe_modify_bp(void)
{
	struct perf_event_attr a, b;
	int fd;

	bp_attr(&a);
	fd = sys_open(&a, 0, -1, -1, 0);
	say("ioctl.bp.open", "%s", res(fd));
	if (fd < 0)
		return;
#define MOD(name, attr) say("ioctl.bp." name, "%s",			\
	res(ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, attr) < 0 ? -errno : 0))
/* @a with one field changed */
#define MOD_FIELD(name, field, value)					\
	do {								\
		b = a;							\
		b.field = (value);					\
		MOD(name, &b);						\
	} while (0)
	MOD("modify_same", &a);
	MOD_FIELD("modify_len", bp_len, HW_BREAKPOINT_LEN_4);
	MOD_FIELD("modify_type_r", bp_type, HW_BREAKPOINT_R);
	MOD_FIELD("modify_period", sample_period, 5);
	MOD_FIELD("modify_exclude", exclude_user, 1);
	MOD_FIELD("modify_sig_data", sig_data, 42);
	MOD_FIELD("modify_disabled", disabled, !a.disabled);
	MOD_FIELD("modify_inherit", inherit, !a.inherit);
	MOD_FIELD("modify_pinned", pinned, !a.pinned);
	MOD_FIELD("modify_wakeup_events", wakeup_events, 3);
	MOD_FIELD("modify_sample_type", sample_type, PERF_SAMPLE_IP);
	MOD_FIELD("modify_config", config, 1);
	MOD_FIELD("modify_remove_on_exec", remove_on_exec, !a.remove_on_exec);
	MOD_FIELD("modify_size_ver5", size, PERF_ATTR_SIZE_VER5);
	sw(&b, PERF_COUNT_SW_TASK_CLOCK);
	MOD("modify_to_sw", &b);
	MOD("modify_null", NULL);
#undef MOD_FIELD
#undef MOD
	close(fd);
}

/* ---- mmap ----------------------------------------------------------------- */

/* map @len bytes of @fd at @off, report the errno under @key, unmap */
static void try_map(const char *key, int fd, size_t len, int prot, int flags,
		    off_t off)
{
	void *p = mmap(NULL, len, prot, flags, fd, off);

	say(key, "%s", res(p == MAP_FAILED ? -errno : 0));
	if (p != MAP_FAILED)
		munmap(p, len);
}

#define RW	(PROT_READ | PROT_WRITE)

static void observe_mmap(void)
{
	static const int pages[] = { 1, 2, 3, 5, 9, 17 };
	size_t pg = sysconf(_SC_PAGESIZE);
	struct perf_event_attr a;
	char key[128];
	unsigned int i;
	void *p;
	int fd;

	sw_sampling(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.disabled = 1;
	fd = sys_open(&a, 0, -1, -1, 0);
	for (i = 0; i < ARRAY_SIZE(pages); i++) {
		snprintf(key, sizeof(key), "mmap.pages%d", pages[i]);
		try_map(key, fd, pages[i] * pg, RW, MAP_SHARED, 0);
	}
	try_map("mmap.private", fd, 2 * pg, RW, MAP_PRIVATE, 0);
	try_map("mmap.readonly", fd, 2 * pg, PROT_READ, MAP_SHARED, 0);
	try_map("mmap.offset1", fd, 2 * pg, RW, MAP_SHARED, pg);
	try_map("mmap.exec", fd, 2 * pg, PROT_READ | PROT_EXEC, MAP_SHARED, 0);
	try_map("mmap.zero", fd, 0, PROT_READ, MAP_SHARED, 0);
	/* the user page of a mapping */
	p = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p != MAP_FAILED) {
		struct perf_event_mmap_page *up = p;

		say("mmap.page.version", "%u", up->version);
		say("mmap.page.compat_version", "%u", up->compat_version);
		say("mmap.page.index", "%u", up->index);
		say("mmap.page.cap_bit0", "%u", (unsigned int)up->cap_bit0);
		say("mmap.page.cap_bit0_is_deprecated", "%u",
		    (unsigned int)up->cap_bit0_is_deprecated);
		say("mmap.page.cap_user_rdpmc", "%u",
		    (unsigned int)up->cap_user_rdpmc);
		say("mmap.page.cap_user_time", "%u",
		    (unsigned int)up->cap_user_time);
		say("mmap.page.cap_user_time_zero", "%u",
		    (unsigned int)up->cap_user_time_zero);
		say("mmap.page.cap_user_time_short", "%u",
		    (unsigned int)up->cap_user_time_short);
		say("mmap.page.pmc_width", "%u", up->pmc_width);
		say("mmap.page.data_offset", "%llu",
		    (unsigned long long)up->data_offset);
		say("mmap.page.data_size", "%llu",
		    (unsigned long long)up->data_size);
		say("mmap.page.aux_offset", "%llu",
		    (unsigned long long)up->aux_offset);
		say("mmap.page.data_head", "%llu",
		    (unsigned long long)up->data_head);
		try_map("mmap.second_same_size", fd, 3 * pg, RW, MAP_SHARED, 0);
		try_map("mmap.second_other_size", fd, 5 * pg, RW, MAP_SHARED, 0);
		say("mmap.partial_munmap", "%s",
		    res(munmap((char *)p + 2 * pg, pg) ? -errno : 0));
		/* an AUX area on a software event, where the user page says */
		up->aux_offset = 4 * pg;
		up->aux_size = 2 * pg;
		try_map("mmap.aux.software", fd, 2 * pg, RW, MAP_SHARED, 4 * pg);
		try_map("mmap.aux.size_mismatch", fd, 3 * pg, RW, MAP_SHARED,
			4 * pg);
		try_map("mmap.aux.offset_mismatch", fd, 2 * pg, RW, MAP_SHARED,
			6 * pg);
		up->aux_offset = 4 * pg;
		up->aux_size = 3 * pg;
		try_map("mmap.aux.not_pow2", fd, 3 * pg, RW, MAP_SHARED, 4 * pg);
		up->aux_offset = pg;
		up->aux_size = pg;
		try_map("mmap.aux.overlaps_data", fd, pg, RW, MAP_SHARED, pg);
		munmap(p, 2 * pg);
	}
	close(fd);
	/* a counting event can be mapped too */
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	fd = sys_open(&a, 0, -1, -1, 0);
	try_map("mmap.counting.page_only", fd, pg, PROT_READ, MAP_SHARED, 0);
	try_map("mmap.counting.with_data", fd, 2 * pg, RW, MAP_SHARED, 0);
	close(fd);
}

/* ---- records ---------------------------------------------------------------- */

/* Fault in @n fresh pages, after warming up the code that does it. */
static void faults(int n)
{
	touch_pages(n);
}

/* The types and sizes of the records in @m, as one string. */
static void records_of(struct perf_map *m, char *out, size_t len,
		       int *samples)
{
	char buf[8192];
	struct perf_event_header *h;
	size_t used = 0;
	int last = -1, run = 0;

	*samples = 0;
	out[0] = 0;
	while ((h = perf_map_next(m, buf, sizeof(buf)))) {
		if (h->type == PERF_RECORD_SAMPLE) {
			(*samples)++;
			continue;
		}
		if ((int)h->type == last) {
			run++;
			continue;
		}
		if (last >= 0 && used < len)
			used += snprintf(out + used, len - used, "%d*%d ",
					 last, run);
		last = h->type;
		run = 1;
	}
	if (last >= 0 && used < len)
		snprintf(out + used, len - used, "%d*%d", last, run);
}

/*
 * The samples in @m of the events of ids @id1 and @id2 (of open_faults()),
 * as "<1 or 2>:<its count at the sample>" in ring order.
 */
static void sample_sequence(const char *key, struct perf_map *m, uint64_t id1,
			    uint64_t id2)
{
	char buf[256], seq[512];
	struct perf_event_header *h;
	size_t used = 0;

	seq[0] = 0;
	while ((h = perf_map_next(m, buf, sizeof(buf)))) {
		const uint64_t *p = (const uint64_t *)(h + 1);

		if (h->type != PERF_RECORD_SAMPLE || used >= sizeof(seq))
			continue;
		used += snprintf(seq + used, sizeof(seq) - used, "%d:%llu ",
				 p[1] == id1 ? 1 : p[1] == id2 ? 2 : 0,
				 (unsigned long long)p[3]);
	}
	say(key, "%s", seq);
}

static int open_faults(int period, int disabled)
{
	struct perf_event_attr a;

	sw_sampling(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.sample_period = period;
	/* READ, not PERIOD: a software event with PERIOD samples every hit */
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
			PERF_SAMPLE_READ;
	a.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	a.exclude_kernel = 1;
	a.disabled = disabled;
	return sys_open(&a, 0, -1, -1, 0);
}

static void observe_records(void)
{
	struct perf_map m, m2;
	char out[512];
	uint64_t v[3], first_count = 0;
	int fd, fd2, n;

	faults(64);		/* warm up */
	/* PERIOD on a disabled event, then enable: where the first sample is */
	fd = open_faults(1000, 1);
	if (fd < 0 || perf_map_open(&m, fd, 8, PROT_READ | PROT_WRITE))
		return;
	v[0] = 10;
	ioctl(fd, PERF_EVENT_IOC_PERIOD, &v[0]);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	faults(95);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	{
		char buf[256];
		struct perf_event_header *h;

		n = 0;
		while ((h = perf_map_next(&m, buf, sizeof(buf))))
			if (h->type == PERF_RECORD_SAMPLE) {
				const uint64_t *p = (const uint64_t *)(h + 1);

				if (!n++)
					first_count = p[3];
			}
	}
	say("records.period_then_enable.samples", "%d", n);
	say("records.period_then_enable.first_count", "%llu",
	    (unsigned long long)first_count);
	perf_map_close(&m);
	close(fd);

	/* SET_OUTPUT: the second event writes into the first's ring */
	fd = open_faults(10, 1);
	fd2 = open_faults(20, 1);
	if (fd < 0 || fd2 < 0 || perf_map_open(&m, fd, 8, PROT_READ | PROT_WRITE))
		return;
	say("records.set_output", "%s",
	    res(ioctl(fd2, PERF_EVENT_IOC_SET_OUTPUT, fd) ? -errno : 0));
	say("records.set_output.mmap_target", "%s",
	    res(perf_map_open(&m2, fd2, 8, PROT_READ | PROT_WRITE) ? -errno : 0));
	perf_map_close(&m2);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(fd2, PERF_EVENT_IOC_ENABLE, 0);
	faults(100);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fd2, PERF_EVENT_IOC_DISABLE, 0);
	{
		char buf[256];
		struct perf_event_header *h;
		uint64_t id1 = 0, id2 = 0;
		int from1 = 0, from2 = 0, other = 0;

		char seq[512];
		size_t used = 0;

		seq[0] = 0;
		ioctl(fd, PERF_EVENT_IOC_ID, &id1);
		ioctl(fd2, PERF_EVENT_IOC_ID, &id2);
		while ((h = perf_map_next(&m, buf, sizeof(buf)))) {
			const uint64_t *p = (const uint64_t *)(h + 1);

			if (h->type != PERF_RECORD_SAMPLE)
				continue;
			if (p[1] == id1 && p[2] == id1)
				from1++;
			else if (p[1] == id2 && p[2] == id2)
				from2++;
			else
				other++;
			/* which event, and its count (READ) at the sample */
			if (used < sizeof(seq))
				used += snprintf(seq + used, sizeof(seq) - used,
						 "%d:%llu ", p[1] == id1 ? 1 :
						 p[1] == id2 ? 2 : 0,
						 (unsigned long long)p[3]);
		}
		say("records.set_output.samples", "%d %d %d", from1, from2,
		    other);
		say("records.set_output.sequence", "%s", seq);
		if (read(fd, v, sizeof(v)) == sizeof(v))
			say("records.set_output.count1", "%llu",
			    (unsigned long long)v[0]);
		if (read(fd2, v, sizeof(v)) == sizeof(v))
			say("records.set_output.count2", "%llu",
			    (unsigned long long)v[0]);
	}
	/* a reset of both, a redirect back and forth, and more faults */
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd2, PERF_EVENT_IOC_RESET, 0);
	say("records.set_output.undo", "%s",
	    res(ioctl(fd2, PERF_EVENT_IOC_SET_OUTPUT, -1) ? -errno : 0));
	say("records.set_output.redo", "%s",
	    res(ioctl(fd2, PERF_EVENT_IOC_SET_OUTPUT, fd) ? -errno : 0));
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(fd2, PERF_EVENT_IOC_ENABLE, 0);
	faults(100);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fd2, PERF_EVENT_IOC_DISABLE, 0);
	{
		uint64_t id1 = 0, id2 = 0;

		ioctl(fd, PERF_EVENT_IOC_ID, &id1);
		ioctl(fd2, PERF_EVENT_IOC_ID, &id2);
		sample_sequence("records.set_output.again", &m, id1, id2);
	}
	perf_map_close(&m);
	close(fd2);
	close(fd);

	/* the same two events, each with a ring of its own */
	fd = open_faults(10, 1);
	fd2 = open_faults(20, 1);
	if (fd >= 0 && fd2 >= 0 &&
	    !perf_map_open(&m, fd, 8, PROT_READ | PROT_WRITE) &&
	    !perf_map_open(&m2, fd2, 8, PROT_READ | PROT_WRITE)) {
		uint64_t id1 = 0, id2 = 0;

		ioctl(fd, PERF_EVENT_IOC_ID, &id1);
		ioctl(fd2, PERF_EVENT_IOC_ID, &id2);
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		ioctl(fd2, PERF_EVENT_IOC_ENABLE, 0);
		faults(100);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		ioctl(fd2, PERF_EVENT_IOC_DISABLE, 0);
		sample_sequence("records.two_rings.first", &m, id1, id2);
		sample_sequence("records.two_rings.second", &m2, id1, id2);
		perf_map_close(&m);
		perf_map_close(&m2);
	}
	if (fd >= 0)
		close(fd);
	if (fd2 >= 0)
		close(fd2);

	/* PAUSE_OUTPUT: what is dropped while paused */
	fd = open_faults(1, 1);
	if (fd < 0 || perf_map_open(&m, fd, 8, PROT_READ | PROT_WRITE))
		return;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	faults(10);
	ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
	faults(20);
	ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
	faults(5);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, v, sizeof(v)) == sizeof(v))
		say("records.pause_output.count_lost", "%llu %llu",
		    (unsigned long long)v[0], (unsigned long long)v[2]);
	records_of(&m, out, sizeof(out), &n);
	say("records.pause_output.records", "%d [%s]", n, out);
	perf_map_close(&m);
	close(fd);

	/* a full ring: what is lost, and how it is told */
	fd = open_faults(1, 1);
	if (fd < 0 || perf_map_open(&m, fd, 1, PROT_READ | PROT_WRITE))
		return;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	faults(300);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, v, sizeof(v)) == sizeof(v))
		say("records.full_ring.count_lost", "%llu %llu",
		    (unsigned long long)v[0], (unsigned long long)v[2]);
	records_of(&m, out, sizeof(out), &n);
	say("records.full_ring.records", "%d [%s]", n, out);
	perf_map_consume(&m);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	faults(10);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	records_of(&m, out, sizeof(out), &n);
	say("records.full_ring.after", "%d [%s]", n, out);
	perf_map_close(&m);
	close(fd);
}

/* 64-byte records (IP, TID, ID, STREAM_ID, READ), 64 to a page */
static int open_faults64(int backward)
{
	struct perf_event_attr a;

	sw_sampling(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID |
			PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_READ;
	a.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	a.exclude_kernel = 1;
	a.disabled = 1;
	a.write_backward = backward;
	return sys_open(&a, 0, -1, -1, 0);
}

/* open_faults64() with a ring of @pages data pages mapped @prot; -1 if not */
static int ring64(struct perf_map *m, int backward, int pages, int prot)
{
	int fd = open_faults64(backward);

	if (fd >= 0 && perf_map_open(m, fd, pages, prot)) {
		close(fd);
		fd = -1;
	}
	return fd < 0 ? -1 : fd;
}

/* @n page faults with the (disabled) event @fd on for them alone */
static void faults_on(int fd, int n)
{
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	faults(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}

/*
 * A user page overwritten with @pattern bytes, as a careless or hostile
 * reader does, and then more records: which fields the kernel writes
 * again, where data_head goes, and what is lost.  Keys records.@what.*.
 */
static void scribble_page(const char *what, int fd, struct perf_map *m,
			  int pattern)
{
	struct perf_event_mmap_page *up = m->page;
	uint64_t fill, v[3];
	char key[96];

	memset(&fill, pattern, sizeof(fill));
	memset(up, pattern, sysconf(_SC_PAGESIZE));
	faults_on(fd, 10);
#define SCRIBBLED(field)						\
	do {								\
		snprintf(key, sizeof(key), "records.%s.%s", what, #field); \
		if ((uint64_t)up->field == (fill & (typeof(up->field))~0ULL)) \
			say(key, "kept");				\
		else							\
			say(key, "0x%llx",				\
			    (unsigned long long)up->field);		\
	} while (0)
	SCRIBBLED(data_head);
	SCRIBBLED(data_tail);
	SCRIBBLED(data_offset);
	SCRIBBLED(data_size);
	SCRIBBLED(aux_head);
	SCRIBBLED(aux_offset);
	SCRIBBLED(aux_size);
	SCRIBBLED(version);
	SCRIBBLED(compat_version);
	SCRIBBLED(capabilities);
	SCRIBBLED(pmc_width);
	SCRIBBLED(index);
	SCRIBBLED(size);
#undef SCRIBBLED
	/* fields whose values vary from run to run: rewritten or not */
#define SCRIBBLED_ANY(field)						\
	do {								\
		snprintf(key, sizeof(key), "records.%s.%s", what, #field); \
		say(key, "%s", (uint64_t)up->field ==			\
		    (fill & (typeof(up->field))~0ULL) ? "kept" : "rewritten"); \
	} while (0)
	SCRIBBLED_ANY(lock);
	SCRIBBLED_ANY(offset);
	SCRIBBLED_ANY(time_enabled);
	SCRIBBLED_ANY(time_running);
	SCRIBBLED_ANY(time_shift);
	SCRIBBLED_ANY(time_mult);
	SCRIBBLED_ANY(time_offset);
	SCRIBBLED_ANY(time_zero);
	SCRIBBLED_ANY(time_cycles);
	SCRIBBLED_ANY(time_mask);
#undef SCRIBBLED_ANY
	snprintf(key, sizeof(key), "records.%s.lost", what);
	if (read(fd, v, sizeof(v)) == sizeof(v))
		say(key, "%llu", (unsigned long long)v[2]);
}

static void observe_ring_edges(void)
{
	struct perf_map m;
	char out[512];
	uint64_t v[3];
	int fd, n;

	/* a one-page ring that records fill exactly: the last one or not */
	fd = ring64(&m, 0, 1, PROT_READ | PROT_WRITE);
	if (fd < 0)
		return;
	faults_on(fd, 100);
	records_of(&m, out, sizeof(out), &n);
	say("records.exact_fill.records", "%d [%s]", n, out);
	if (read(fd, v, sizeof(v)) == sizeof(v))
		say("records.exact_fill.lost", "%llu",
		    (unsigned long long)v[2]);
	say("records.exact_fill.data_head", "%llu",
	    (unsigned long long)perf_map_head(&m));
	perf_map_close(&m);
	close(fd);

	/* a read ring, then its user page overwritten twice */
	fd = ring64(&m, 0, 1, PROT_READ | PROT_WRITE);
	if (fd < 0)
		return;
	faults_on(fd, 10);
	records_of(&m, out, sizeof(out), &n);
	perf_map_consume(&m);
	say("records.scribble.before", "%d [%s]", n, out);
	scribble_page("scribble55", fd, &m, 0x55);
	scribble_page("scribble44", fd, &m, 0x44);
	scribble_page("scribble00", fd, &m, 0x00);
	scribble_page("scribbleff", fd, &m, 0xff);
	perf_map_close(&m);
	close(fd);

	/* a writable backward ring: is data_tail honoured, and how */
	fd = ring64(&m, 1, 1, PROT_READ | PROT_WRITE);
	if (fd < 0)
		return;
	faults_on(fd, 100);
	if (read(fd, v, sizeof(v)) == sizeof(v))
		say("records.backward_rw.lost", "%llu",
		    (unsigned long long)v[2]);
	say("records.backward_rw.data_head", "%lld",
	    (long long)perf_map_head(&m));
	m.page->data_tail = perf_map_head(&m);
	faults_on(fd, 10);
	say("records.backward_rw.after_tail", "%lld",
	    (long long)perf_map_head(&m));
	scribble_page("backward55", fd, &m, 0x55);
	perf_map_close(&m);
	close(fd);

	/* a backward overwrite ring paused for a while, as perf record does */
	fd = ring64(&m, 1, 2, PROT_READ);
	if (fd < 0)
		return;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	faults(5);
	ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
	faults(7);
	ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
	faults(3);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, v, sizeof(v)) == sizeof(v))
		say("records.backward_paused.lost", "%llu",
		    (unsigned long long)v[2]);
	say("records.backward_paused.data_head", "%lld",
	    (long long)perf_map_head(&m));
	/* from the newest record up: the types, in the order they lie */
	m.tail = perf_map_head(&m);
	{
		char *d = m.data;
		size_t used = 0;

		out[0] = 0;
		while ((int64_t)m.tail < 0 && used < sizeof(out)) {
			struct perf_event_header *h = (void *)
				(d + (m.tail & (m.data_size - 1)));

			if (!h->size)
				break;
			used += snprintf(out + used, sizeof(out) - used,
					 "%u:%u ", h->type, h->size);
			m.tail += h->size;
		}
		say("records.backward_paused.records", "%s", out);
	}
	perf_map_close(&m);
	close(fd);
}

/* ---- callchains -------------------------------------------------------------- */

__attribute__((noinline, optimize("no-omit-frame-pointer")))
static int chain_leaf(volatile char *p)
{
	*p = 1;			/* the fault that is sampled */
	__asm__ __volatile__("" : : : "memory");
	return 0;
}

__attribute__((noinline, optimize("no-omit-frame-pointer")))
static int chain_mid(volatile char *p)
{
	int r = chain_leaf(p);

	__asm__ __volatile__("" : : : "memory");
	return r + 1;
}

__attribute__((noinline, optimize("no-omit-frame-pointer")))
static int chain_top(volatile char *p)
{
	int r = chain_mid(p);

	__asm__ __volatile__("" : : : "memory");
	return r + 1;
}

__attribute__((noinline, optimize("no-omit-frame-pointer")))
static void chain_spin(unsigned long n)
{
	while (n--)
		__asm__ __volatile__("" : "+r"(n));
}

__attribute__((noinline, optimize("no-omit-frame-pointer")))
static void chain_spin_mid(unsigned long n)
{
	chain_spin(n);
	__asm__ __volatile__("" : : : "memory");
}

/*
 * A task-clock sampled while spinning three frames deep: how many user
 * entries the callchains have, most often.
 */
static void observe_timer_callchain(void)
{
	struct perf_event_attr a;
	struct perf_map m;
	char buf[4096];
	struct perf_event_header *h;
	int hist[PERF_MAX_STACK_DEPTH + 1] = { 0 }, fd, best = 0, i;

	sw_sampling(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.sample_period = 1000000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	a.exclude_kernel = 1;
	a.exclude_callchain_kernel = 1;
	a.disabled = 1;
	fd = sys_open(&a, 0, -1, -1, 0);
	if (fd < 0 || perf_map_open(&m, fd, 16, PROT_READ | PROT_WRITE)) {
		say("callchain.timer", "%s", res(fd < 0 ? fd : -errno));
		return;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	chain_spin_mid(20000000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	while ((h = perf_map_next(&m, buf, sizeof(buf)))) {
		const uint64_t *p = (const uint64_t *)(h + 1);
		uint64_t nr = p[1], user = 0;

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		for (uint64_t j = 0; j < nr; j++)
			user += p[2 + j] < (uint64_t)-4095;
		if (user <= PERF_MAX_STACK_DEPTH)
			hist[user]++;
	}
	for (i = 0; i <= PERF_MAX_STACK_DEPTH; i++)
		if (hist[i] > hist[best])
			best = i;
	say("callchain.timer.user_entries", "%d", hist[best] ? best : -1);
	perf_map_close(&m);
	close(fd);
}

/*
 * The rules of the user frame-pointer walk, on hand-made frames: each
 * frame is { next frame, return address }, the return addresses are
 * 0x1000 + the frame's number, and the walk starts at the frame pointer of
 * a sampled page fault.  What is said is how many of them the callchain
 * has, and how many entries in all.
 */
#define FP_FRAMES	8
#define FP_RET		0x1000

struct fp_frame {
	uint64_t next;
	uint64_t ret;
};

/* one frame's worth more, for the chains that start off 16-byte alignment */
static struct fp_frame fp_static[FP_FRAMES + 1] __attribute__((aligned(16)));

/* link @n frames spaced @stride bytes apart from @base, last one to 0 */
static void fp_link(char *base, int n, long stride)
{
	for (int i = 0; i < n; i++) {
		struct fp_frame *f = (struct fp_frame *)(base + i * stride);

		f->next = i + 1 < n ? (uint64_t)(uintptr_t)(base + (i + 1) * stride) : 0;
		f->ret = FP_RET + i;
	}
}

/* fault on @page with the frame pointer at @fp */
static void fp_fault(void *fp, volatile char *page)
{
	/* fixed registers: the compiler may give the frame pointer to an input */
#if defined(__x86_64__)
	__asm__ __volatile__("push %%rbp\n\t"
			     "mov %%rsi, %%rbp\n\t"
			     "movb $1, (%%rdi)\n\t"
			     "pop %%rbp"
			     : : "S"(fp), "D"(page) : "memory");
#else
	register void *x0 __asm__("x0") = fp;
	register volatile char *x1 __asm__("x1") = page;

	__asm__ __volatile__("mov x9, x29\n\t"
			     "mov x29, x0\n\t"
			     "strb wzr, [x1]\n\t"
			     "mov x29, x9"
			     : : "r"(x0), "r"(x1) : "x9", "memory");
#endif
}

static void fp_walk(const char *name, void *fp)
{
	size_t pg = sysconf(_SC_PAGESIZE);
	struct perf_event_header *h;
	struct perf_event_attr a;
	struct perf_map m;
	char key[64], buf[8192];
	int fd, found = -2;
	char *page;

	snprintf(key, sizeof(key), "callchain.fp.%s", name);
	sw_sampling(&a, PERF_COUNT_SW_PAGE_FAULTS);
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_CALLCHAIN;
	a.exclude_callchain_kernel = 1;
	a.disabled = 1;
	fd = sys_open(&a, 0, -1, -1, 0);
	if (fd < 0 || perf_map_open(&m, fd, 16, PROT_READ | PROT_WRITE)) {
		say(key, "%s", res(fd < 0 ? fd : -errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	page = mmap(NULL, pg, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	fp_fault(fp, page);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	while ((h = perf_map_next(&m, buf, sizeof(buf)))) {
		const uint64_t *p = (const uint64_t *)(h + 1);
		uint64_t nr = p[0];

		if (h->type != PERF_RECORD_SAMPLE || found != -2)
			continue;
		/* PERF_CONTEXT_USER, the faulting ip, then the frames */
		found = 0;
		for (uint64_t i = 3; i < nr + 1; i++)
			found += p[i] - FP_RET < FP_FRAMES;
		say(key, "frames %d of %llu entries", found,
		    (unsigned long long)nr);
	}
	if (found == -2)
		say(key, "no sample");
	munmap(page, pg);
	perf_map_close(&m);
	close(fd);
}

/* the walk from frames in the data segment, on the stack, and odd ones */
static void observe_fp_walks(void)
{
	uint64_t stack[FP_FRAMES * 6 + 4] __attribute__((aligned(16)));
	char *s = (char *)stack;

	fp_link((char *)fp_static, FP_FRAMES, sizeof(struct fp_frame));
	fp_walk("data_segment", fp_static);
	/* 8-byte aligned, not 16: where a static array of u64 pairs may lie */
	fp_link((char *)fp_static + 8, FP_FRAMES, sizeof(struct fp_frame));
	fp_walk("data_segment_8", (char *)fp_static + 8);
	fp_link((char *)fp_static + 4, FP_FRAMES, sizeof(struct fp_frame));
	fp_walk("data_segment_4", (char *)fp_static + 4);
	fp_link(s, FP_FRAMES, sizeof(struct fp_frame));
	fp_walk("stack", s);
	fp_link(s, FP_FRAMES, 3 * sizeof(struct fp_frame));
	fp_walk("stack_spaced", s);
	/* a frame 4 bytes off alignment in the middle */
	fp_link(s, 4, sizeof(struct fp_frame));
	fp_link(s + 4 * sizeof(struct fp_frame) + 4, 4, sizeof(struct fp_frame));
	((struct fp_frame *)s)[3].next = (uint64_t)(uintptr_t)(s + 4 * sizeof(struct fp_frame) + 4);
	fp_walk("unaligned_middle", s);
	/* frames going down the stack: the second one below the first */
	fp_link(s, FP_FRAMES, sizeof(struct fp_frame));
	memmove(s + 4 * sizeof(struct fp_frame), s, sizeof(struct fp_frame));
	((struct fp_frame *)s)[4].next = (uint64_t)(uintptr_t)(s + sizeof(struct fp_frame));
	((struct fp_frame *)s)[4].ret = FP_RET;
	((struct fp_frame *)s)[3].next = 0;
	fp_walk("downward", s + 4 * sizeof(struct fp_frame));
	/* a frame that is its own next: how long the walk goes on */
	stack[0] = (uint64_t)(uintptr_t)s;
	stack[1] = FP_RET;
	fp_walk("self_loop", s);
	/* the next frame at a kernel address, and at a non-canonical one */
	fp_link(s, 2, sizeof(struct fp_frame));
	((struct fp_frame *)s)[1].next = (uint64_t)-4096 * 1024;
	fp_walk("to_kernel", s);
	((struct fp_frame *)s)[1].next = 0x8000000000000000ULL;
	fp_walk("to_noncanonical", s);
}

static void observe_callchains(void)
{
	size_t pg = sysconf(_SC_PAGESIZE);
	struct perf_event_attr a;
	struct perf_map m;
	char key[64], buf[4096];
	int excl, chain_fd;

	for (excl = 0; excl < 2; excl++) {
		struct perf_event_header *h;
		char *page;

		sw_sampling(&a, PERF_COUNT_SW_PAGE_FAULTS);
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
		a.exclude_callchain_kernel = excl;
		a.disabled = 1;
		chain_fd = sys_open(&a, 0, -1, -1, 0);
		snprintf(key, sizeof(key), "callchain.excl_kernel%d.open", excl);
		say(key, "%s", res(chain_fd));
		if (chain_fd < 0 ||
		    perf_map_open(&m, chain_fd, 4, PROT_READ | PROT_WRITE))
			continue;
		page = mmap(NULL, pg, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ioctl(chain_fd, PERF_EVENT_IOC_ENABLE, 0);
		chain_top(page);
		ioctl(chain_fd, PERF_EVENT_IOC_DISABLE, 0);
		while ((h = perf_map_next(&m, buf, sizeof(buf)))) {
			const uint64_t *p = (const uint64_t *)(h + 1);
			uint64_t nr = p[1], i, user = 0, kernel = 0, ctx = 0;
			int in_user = 0;

			if (h->type != PERF_RECORD_SAMPLE)
				continue;
			for (i = 0; i < nr; i++) {
				uint64_t ip = p[2 + i];

				if (ip >= (uint64_t)-4095) {
					ctx++;
					in_user = ip == PERF_CONTEXT_USER;
				} else if (in_user) {
					user++;
				} else {
					kernel++;
				}
			}
			snprintf(key, sizeof(key),
				 "callchain.excl_kernel%d.entries", excl);
			say(key, "contexts %llu user %llu kernel_nonzero %d",
			    (unsigned long long)ctx, (unsigned long long)user,
			    kernel > 0);
			break;
		}
		munmap(page, pg);
		perf_map_close(&m);
		close(chain_fd);
	}
}

/* ---- sysfs and sysctls ------------------------------------------------------- */

static void list_dir(const char *key, const char *path)
{
	struct dirent **names;
	char line[2048];
	size_t used = 0;
	int n, i;

	n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		say(key, "%s", res(-errno));
		return;
	}
	line[0] = 0;
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' && used < sizeof(line))
			used += snprintf(line + used, sizeof(line) - used,
					 "%s ", names[i]->d_name);
		free(names[i]);
	}
	free(names);
	say(key, "%s", line);
}

static void print_file(const char *key, const char *path)
{
	char buf[512];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, raw;
	bool odd, nuls;

	if (fd < 0) {
		say(key, "%s", res(-errno));
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0) {
		say(key, "%s", res(-errno));
		return;
	}
	buf[n] = 0;
	/*
	 * a file that is not its text and one newline says so, with its
	 * size: no newline (Skylake's bare topdown events), NULs after the
	 * text (a hybrid part's Atom events)
	 */
	raw = n;
	nuls = memchr(buf, 0, n) != NULL;
	odd = !n || buf[n - 1] != '\n' || nuls;
	while (n && buf[n - 1] == '\n')
		buf[--n] = 0;
	for (char *c = buf; *c; c++)
		if (*c == '\n')
			*c = '|';
	if (odd)
		say(key, "%s (%zd bytes%s)", buf, raw, nuls ? ", NULs" : "");
	else
		say(key, "%s", buf);
}

static void observe_sysfs(void)
{
	const char *base = "/sys/bus/event_source/devices";
	struct dirent **pmus;
	char key[512], path[512];
	int n, i;

	list_dir("sysfs.pmus", base);
	n = scandir(base, &pmus, NULL, alphasort);
	for (i = 0; i < n; i++) {
		const char *pmu = pmus[i]->d_name;
		static const char *const subdirs[] = { "format", "events",
						       "caps" };
		static const char *const files[] = {
			"type", "perf_event_mux_interval_ms", "cpumask",
			"rdpmc", "nr_addr_filters", "uevent",
		};

		if (pmu[0] == '.')
			goto next;
		snprintf(path, sizeof(path), "%s/%s", base, pmu);
		snprintf(key, sizeof(key), "sysfs.%s", pmu);
		list_dir(key, path);
		for (unsigned int f = 0; f < ARRAY_SIZE(files); f++) {
			snprintf(path, sizeof(path), "%s/%s/%s", base, pmu,
				 files[f]);
			snprintf(key, sizeof(key), "sysfs.%s.%s", pmu,
				 files[f]);
			print_file(key, path);
		}
		for (unsigned int d = 0; d < ARRAY_SIZE(subdirs); d++) {
			struct dirent **ents;
			int m;

			snprintf(path, sizeof(path), "%s/%s/%s", base, pmu,
				 subdirs[d]);
			m = scandir(path, &ents, NULL, alphasort);
			for (int e = 0; e < m; e++) {
				char file[1024];

				if (ents[e]->d_name[0] != '.') {
					snprintf(file, sizeof(file), "%s/%s",
						 path, ents[e]->d_name);
					snprintf(key, sizeof(key),
						 "sysfs.%.64s.%s.%.200s", pmu,
						 subdirs[d], ents[e]->d_name);
					print_file(key, file);
				}
				free(ents[e]);
			}
			if (m >= 0)
				free(ents);
		}
next:
		free(pmus[i]);
	}
	if (n >= 0)
		free(pmus);
}

static void observe_sysctls(void)
{
	static const char *const names[] = {
		"perf_event_paranoid", "perf_event_mlock_kb",
		"perf_event_max_sample_rate", "perf_event_max_stack",
		"perf_event_max_contexts_per_stack", "perf_cpu_time_max_percent",
	};
	char path[128], key[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "/proc/sys/kernel/%s", names[i]);
		snprintf(key, sizeof(key), "sysctl.%s", names[i]);
		print_file(key, path);
	}
}

/* writes to the sysctls, each value put back afterwards */
static void write_probe(const char *key, const char *path, long v)
{
	long saved = read_sysctl(path);

	say(key, "%s", res(write_sysctl(path, v)));
	write_sysctl(path, saved);
}

/* a write, and whether the value then read is the one written */
static void write_kept_probe(const char *key, const char *path, long v)
{
	long saved = read_sysctl(path);
	int r = write_sysctl(path, v);

	say(key, "%s, %s", res(r), read_sysctl(path) == v ? "stored" :
	    read_sysctl(path) == saved ? "kept" : "other");
	write_sysctl(path, saved);
}

static void observe_sysctl_writes(void)
{
	const char *pct = "/proc/sys/kernel/perf_cpu_time_max_percent";
	const char *rate = "/proc/sys/kernel/perf_event_max_sample_rate";
	long saved_pct = read_sysctl(pct);

	write_probe("sysctl.write.paranoid4", PARANOID, 4);
	write_probe("sysctl.write.paranoid-2", PARANOID, -2);
	write_probe("sysctl.write.mux0", "/sys/bus/event_source/devices/"
		    "software/perf_event_mux_interval_ms", 0);
	write_probe("sysctl.write.max_stack_huge",
		    "/proc/sys/kernel/perf_event_max_stack", 1000000);
	write_probe("sysctl.write.max_percent101",
		    "/proc/sys/kernel/perf_cpu_time_max_percent", 101);
	write_probe("sysctl.write.sample_rate0",
		    "/proc/sys/kernel/perf_event_max_sample_rate", 0);
	/* the rate is fixed while throttling is off (0 or 100 percent) */
	for (long p = 0; p <= 100; p += 25) {
		char key[64];

		if (write_sysctl(pct, p))
			continue;
		snprintf(key, sizeof(key), "sysctl.write.sample_rate_at%ld", p);
		write_kept_probe(key, rate, 12345);
	}
	write_sysctl(pct, saved_pct);
}

/* ---- arm64 and hardware events --------------------------------------------- */

static void observe_hardware(void)
{
	size_t pg = sysconf(_SC_PAGESIZE);
	struct perf_event_attr a;
	char key[128];
	int fd, bp, c;

	for (c = 0; c < 12; c++) {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_HARDWARE;
		a.config = c;
		a.exclude_kernel = 1;
		snprintf(key, sizeof(key), "hw.config%d", c);
		try_open(key, &a, 0, -1, -1, 0);
	}
	/* the user page of a cycles event that did not ask for rdpmc */
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.exclude_kernel = 1;
	fd = sys_open(&a, 0, -1, -1, 0);
	say("hw.cycles", "%s", res(fd));
	if (fd >= 0) {
		struct perf_event_mmap_page *up;

		up = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0);
		if (up != MAP_FAILED) {
			say("hw.cycles.page.cap_user_rdpmc", "%u",
			    (unsigned int)up->cap_user_rdpmc);
			say("hw.cycles.page.pmc_width", "%u", up->pmc_width);
			say("hw.cycles.page.index_nonzero", "%d",
			    up->index != 0);
			munmap(up, pg);
		}
		/* a breakpoint joining a hardware group */
		bp_attr(&a);
		try_open("hw.group.breakpoint_member", &a, 0, -1, fd, 0);
		sw(&a, PERF_COUNT_SW_TASK_CLOCK);
		try_open("hw.group.software_member", &a, 0, -1, fd, 0);
		close(fd);
	}
	/* a hardware event joining a breakpoint group */
	bp_attr(&a);
	bp = sys_open(&a, 0, -1, -1, 0);
	if (bp >= 0) {
		hw_attr(&a);
		try_open("hw.group.into_breakpoint", &a, 0, -1, bp, 0);
		sw(&a, PERF_COUNT_SW_TASK_CLOCK);
		try_open("hw.group.software_into_breakpoint", &a, 0, -1, bp,
			 0);
		close(bp);
	}
}

/*
 * Flexible groups that do not all fit on the PMU: A (every counter but
 * one), B (two) and C (one) of branch events, enabled in that order.  A
 * and C fit together, A and B do not: whether C goes on beside A while B,
 * before it, waits, as the share of its enabled time that each group ran
 * shows after some rotations.
 */
/* does @a open (and close)? */
static int probe_ok(struct perf_event_attr *a)
{
	int fd = sys_open(a, 0, -1, -1, 0);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static void flexible_attr(struct perf_event_attr *a)
{
	hw_attr(a);
	a->config = PERF_COUNT_HW_BRANCH_INSTRUCTIONS;
	if (probe_ok(a))
		return;
	/* where the PMU has no generic branch event: a general counter's */
	a->type = PERF_TYPE_RAW;
#if defined(__x86_64__)
	a->config = 0xc4;
#else
	a->config = 0x08;
#endif
}

static void observe_flexible(void)
{
	static const char * const name[] = { "a", "b", "c" };
	int fd[40], lead[3], size[3], n, g, i, k = 0;
	struct perf_event_attr a;
	uint64_t v[3];
	char key[64];

	/* the largest group of them the PMU takes at open */
	flexible_attr(&a);
	a.disabled = 1;
	fd[0] = sys_open(&a, 0, -1, -1, 0);
	if (fd[0] < 0) {
		say("hw.flexible", "%s", res(fd[0]));
		return;
	}
	a.disabled = 0;
	for (n = 1; n < 32; n++) {
		fd[n] = sys_open(&a, 0, -1, fd[0], 0);
		if (fd[n] < 0)
			break;
	}
	/* fd[0] to fd[n - 1] opened: groups of up to n */
	for (i = 0; i < n; i++)
		close(fd[i]);
	say("hw.flexible.counters", "%s", n >= 3 ? "3 or more" : "fewer");
	if (n < 3)
		return;
	size[0] = n - 1;
	size[1] = 2;
	size[2] = 1;
	for (g = 0; g < 3; g++) {
		flexible_attr(&a);
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		a.disabled = 1;
		lead[g] = fd[k++] = sys_open(&a, 0, -1, -1, 0);
		a.disabled = 0;
		for (i = 1; i < size[g]; i++)
			fd[k++] = sys_open(&a, 0, -1, lead[g], 0);
	}
	for (g = 0; g < 3; g++)
		ioctl(lead[g], PERF_EVENT_IOC_ENABLE, 0);
	chain_spin(50000000);
	for (g = 0; g < 3; g++)
		ioctl(lead[g], PERF_EVENT_IOC_DISABLE, 0);
	for (g = 0; g < 3; g++) {
		snprintf(key, sizeof(key), "hw.flexible.%s", name[g]);
		if (lead[g] < 0 || read(lead[g], v, sizeof(v)) != sizeof(v)) {
			say(key, "%s", res(lead[g] < 0 ? lead[g] : -errno));
			continue;
		}
		say(key, "%s", !v[2] ? "never ran" : v[2] == v[1] ?
		    "ran all its time" : "ran part of its time");
		printf("# hw.flexible.%s: %llu, enabled %llu running %llu\n",
		       name[g], (unsigned long long)v[0],
		       (unsigned long long)v[1], (unsigned long long)v[2]);
	}
	while (k--)
		if (fd[k] >= 0)
			close(fd[k]);
}

/*
 * The user pages of a two-event hardware group (cycles, instructions), as
 * a self-monitoring (rdpmc) reader sees them after a run: whether each
 * member's page has a counter index and time_enabled == time_running
 * (the group never left the PMU), and whether read() agrees.  @how: 0
 * leader off and member on, the leader enabled alone; 1 both on from
 * open; 2 both off, enabled with PERF_IOC_FLAG_GROUP.
 */
static void page_group(const char *what, int how)
{
	size_t pg = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *up[2];
	struct perf_event_attr a;
	uint64_t v[3];
	char key[96];
	int fd[2], i;

	for (i = 0; i < 2; i++) {
		hw_attr(&a);
		if (i)
			a.config = PERF_COUNT_HW_INSTRUCTIONS;
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		a.disabled = how == 2 || (how == 0 && !i);
		fd[i] = sys_open(&a, 0, -1, i ? fd[0] : -1, 0);
		if (fd[i] < 0) {
			snprintf(key, sizeof(key), "hw.page_group.%s", what);
			say(key, "%s", res(fd[i]));
			if (i)
				close(fd[0]);
			return;
		}
		up[i] = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd[i], 0);
	}
	if (how != 1)
		ioctl(fd[0], PERF_EVENT_IOC_ENABLE,
		      how == 2 ? PERF_IOC_FLAG_GROUP : 0);
	touch_pages(200);
	for (i = 0; i < 2; i++) {
		if (up[i] == MAP_FAILED)
			continue;
		snprintf(key, sizeof(key), "hw.page_group.%s.%d.page", what, i);
		say(key, "index %d enabled==running %d", up[i]->index != 0,
		    up[i]->time_enabled == up[i]->time_running);
	}
	ioctl(fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	for (i = 0; i < 2; i++) {
		snprintf(key, sizeof(key), "hw.page_group.%s.%d.read", what, i);
		if (read(fd[i], v, sizeof(v)) >= 24)
			say(key, "enabled==running %d", v[1] == v[2]);
		if (up[i] != MAP_FAILED) {
			snprintf(key, sizeof(key),
				 "hw.page_group.%s.%d.page_off", what, i);
			say(key, "index %d enabled==running %d",
			    up[i]->index != 0,
			    up[i]->time_enabled == up[i]->time_running);
			munmap(up[i], pg);
		}
	}
	close(fd[1]);
	close(fd[0]);
}

static void observe_page_groups(void)
{
	page_group("leader_enabled", 0);
	page_group("both_on", 1);
	page_group("group_enabled", 2);
}

/*
 * attr.exclusive beside other groups, on CPU 0: which of the events ran
 * ("ran": some running time; "full": running == enabled).  Each spec is
 * a list of events, opened in order: t (task) or c (CPU 0, any task), p
 * (pinned) or f (flexible), x (exclusive) or - , and the event: y
 * (cycles) or i (instructions); a "g" spec joins the group of the event
 * before it.  The CPU-wide pinned cycles event stands for the NMI
 * watchdog's.
 */
static void excl_case(const char *what, const char *const *spec, int n)
{
	uint64_t v[3];
	char key[96], out[256];
	int fd[6], i, used = 0;
	volatile unsigned long spin;

	for (i = 0; i < n; i++) {
		struct perf_event_attr a;
		const char *e = spec[i];
		int group = -1;

		hw_attr(&a);
		if (e[3] == 'i')
			a.config = PERF_COUNT_HW_INSTRUCTIONS;
		a.pinned = e[1] == 'p';
		a.exclusive = e[2] == 'x';
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		if (e[0] == 'g') {
			group = fd[i - 1];
			a.pinned = 0;
			a.exclusive = 0;
		}
		fd[i] = e[0] == 'c' ? sys_open(&a, -1, 0, -1, 0) :
				      sys_open(&a, 0, -1, group, 0);
		if (fd[i] < 0) {
			snprintf(key, sizeof(key), "hw.excl.%s", what);
			say(key, "open %d %s", i, res(fd[i]));
			while (i--)
				close(fd[i]);
			return;
		}
	}
	for (spin = 0; spin < 3000000; spin++)
		;
	for (i = 0; i < n; i++) {
		if (read(fd[i], v, sizeof(v)) == sizeof(v))
			used += snprintf(out + used, sizeof(out) - used,
					 "%s:%s ", spec[i], !v[2] ? "none" :
					 v[1] == v[2] ? "full" : "ran");
	}
	snprintf(key, sizeof(key), "hw.excl.%s", what);
	say(key, "%s", out);
	for (i = n; i--; )
		close(fd[i]);
}

static void observe_exclusive(void)
{
	static const struct {
		const char *what;
		const char *spec[4];
		int n;
	} cases[] = {
		{ "task_alone", { "tfxi" }, 1 },
		{ "beside_cpu_pinned", { "cp-y", "tfxi" }, 2 },
		{ "before_cpu_pinned", { "tfxi", "cp-y" }, 2 },
		{ "beside_cpu_flexible", { "cf-y", "tfxi" }, 2 },
		{ "beside_task_event", { "tf-y", "tfxi" }, 2 },
		{ "two_task", { "tfxi", "tfxy" }, 2 },
		{ "cpu_excl_task_event", { "cfxy", "tf-i" }, 2 },
		{ "cpu_excl_cpu_event", { "cfxy", "cf-i" }, 2 },
		{ "task_pinned_excl", { "cp-y", "tpxi" }, 2 },
		{ "task_pinned_excl_task", { "tf-y", "tpxi" }, 2 },
		{ "group", { "tfxy", "gf-i" }, 2 },
		{ "group_beside_cpu_pinned", { "cp-y", "tfxy", "gf-i" }, 3 },
		{ "pinned_beside_excl", { "tfxi", "tp-y" }, 2 },
	};
	cpu_set_t set, old;
	size_t i;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_getaffinity(0, sizeof(old), &old) ||
	    sched_setaffinity(0, sizeof(set), &set))
		return;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		excl_case(cases[i].what, cases[i].spec, cases[i].n);
	sched_setaffinity(0, sizeof(old), &old);
}

/*
 * Which of two faults of an open is reported: a sample_max_stack above
 * perf_event_max_stack beside an event its PMU does not know, a bad attr
 * bit, or (as nobody at paranoid 2) a kernel callchain.
 */
static void deep_chain(struct perf_event_attr *a)
{
	a->sample_period = 100000;
	a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	a->sample_max_stack = 65535;
}

static void bad_clock(struct perf_event_attr *a)
{
	a->use_clockid = 1;
	a->clockid = 1000;
}

/* a frequency above any perf_event_max_sample_rate the guests run at */
static void freq_high(struct perf_event_attr *a)
{
	a->freq = 1;
	a->sample_freq = 1 << 30;
}

static void open_order_child(void)
{
	struct perf_event_attr a;

	if (drop_privileges(0))
		_exit(1);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	deep_chain(&a);
	try_open("order.deep_chain.nobody.kernel", &a, 0, -1, -1, 0);
	a.exclude_kernel = 1;
	try_open("order.deep_chain.nobody.user", &a, 0, -1, -1, 0);
	a.exclude_kernel = 0;
	a.exclude_callchain_kernel = 1;
	try_open("order.deep_chain.nobody.user_chain", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_MAX + 7);
	deep_chain(&a);
	a.exclude_kernel = 1;
	try_open("order.deep_chain.nobody.unknown_sw", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	deep_chain(&a);
	a.exclude_kernel = 1;
	a.exclude_callchain_kernel = 1;
	try_open("order.deep_chain.nobody.user_only", &a, 0, -1, -1, 0);
	try_open("order.deep_chain.nobody.init_task", &a, 1, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	freq_high(&a);
	try_open("order.freq_high.nobody.kernel", &a, 0, -1, -1, 0);
	a.exclude_kernel = 1;
	a.namespaces = 1;
	try_open("order.freq_high.nobody.namespaces", &a, 0, -1, -1, 0);
	a.namespaces = 0;
	try_open("order.freq_high.nobody.user", &a, 0, -1, -1, 0);
	try_open("order.freq_high.nobody.init_task", &a, 1, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.sample_period = 1ULL << 63;
	try_open("order.period_bit63.nobody.kernel", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	bad_clock(&a);
	try_open("order.bad_clockid.nobody.kernel", &a, 0, -1, -1, 0);
	a.exclude_kernel = 1;
	try_open("order.bad_clockid.nobody.init_task", &a, 1, -1, -1, 0);
	_exit(0);
}

/*
 * A group member's attr against its leader's, each of @member_cfg (a
 * known event) and of a software config no PMU knows: whether the check
 * comes before the PMU's answer.
 */
static void member_try(const char *what, int lead_roe, uint64_t inherit,
		       uint64_t sample_type, uint64_t read_format)
{
	static const struct {
		const char *name;
		uint64_t config;
	} cfgs[] = {
		{ "known", PERF_COUNT_SW_TASK_CLOCK },
		{ "unknown", PERF_COUNT_SW_MAX + 7 },
	};
	struct perf_event_attr a;
	char key[128];
	int lead;

	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.disabled = 1;
	a.remove_on_exec = lead_roe;
	lead = sys_open(&a, 0, -1, -1, 0);
	if (lead < 0) {
		snprintf(key, sizeof(key), "order.member.%s", what);
		say(key, "leader %s", res(lead));
		return;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(cfgs); i++) {
		sw(&a, cfgs[i].config);
		a.inherit = !!inherit;
		a.inherit_thread = inherit > 1;
		a.sample_period = sample_type ? 1 : 0;
		a.sample_type = sample_type;
		a.read_format = read_format;
		snprintf(key, sizeof(key), "order.member.%s.%s", what,
			 cfgs[i].name);
		try_open(key, &a, 0, -1, lead, 0);
	}
	close(lead);
}

/* one group rule broken at a time, with a known and an unknown config */
static void member_rule(const char *rule)
{
	static const uint64_t cfgs[] = { PERF_COUNT_SW_TASK_CLOCK,
					 PERF_COUNT_SW_MAX + 7 };
	struct perf_event_attr a;
	int lead, mid = -1, group, cpu = -1;
	pid_t pid = 0;
	char key[128];

	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	a.disabled = 1;
	a.inherit = !strcmp(rule, "both_inherit") ||
		    !strncmp(rule, "leader_inherit_only", 19);
	lead = sys_open(&a, 0, -1, -1, 0);
	if (lead < 0)
		return;
	group = lead;
	if (!strcmp(rule, "of_a_member")) {
		mid = sys_open(&a, 0, -1, lead, 0);
		group = mid;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(cfgs); i++) {
		sw(&a, cfgs[i]);
		if (!strcmp(rule, "pinned"))
			a.pinned = 1;
		if (!strcmp(rule, "exclusive"))
			a.exclusive = 1;
		if (!strcmp(rule, "other_cpu"))
			cpu = 0;
		if (!strcmp(rule, "other_clock")) {
			a.use_clockid = 1;
			a.clockid = CLOCK_MONOTONIC_RAW;
		}
		if (!strcmp(rule, "both_inherit"))
			a.inherit = 1;
		if (!strcmp(rule, "cpu_event_in_task_group")) {
			pid = -1;
			cpu = 0;
		}
		if (!strcmp(rule, "leader_inherit_only_no_task"))
			pid = 1 << 30;
		snprintf(key, sizeof(key), "order.member.%s.%s", rule,
			 i ? "unknown" : "known");
		try_open(key, &a, pid, cpu, group, 0);
	}
	if (mid >= 0)
		close(mid);
	close(lead);
}

/*
 * A breakpoint the arch refuses, with the task's breakpoint registers all
 * taken and with them free: which errno comes first.
 */
static void bp_order(const char *state, int fill)
{
	static const struct {
		const char *name;
		uint32_t type, len;
	} bad[] = {
		{ "read", HW_BREAKPOINT_R, HW_BREAKPOINT_LEN_8 },
		{ "len0", HW_BREAKPOINT_W, 0 },
		{ "len5", HW_BREAKPOINT_W, 5 },
		{ "type_none", 0, HW_BREAKPOINT_LEN_8 },
		{ "valid", HW_BREAKPOINT_W, HW_BREAKPOINT_LEN_8 },
	};
	struct perf_event_attr a;
	char key[96];
	int fds[64], n = 0;
	unsigned int i;

	bp_attr(&a);
	while (fill && n < 64) {
		int fd = sys_open(&a, 0, -1, -1, 0);

		if (fd < 0)
			break;
		fds[n++] = fd;
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		bp_attr(&a);
		a.bp_type = bad[i].type;
		a.bp_len = bad[i].len;
		snprintf(key, sizeof(key), "order.bp.%s.%s", state,
			 bad[i].name);
		try_open(key, &a, 0, -1, -1, 0);
	}
	while (n)
		close(fds[--n]);
}

static void observe_member_order(void)
{
	bp_order("free", 0);
	bp_order("full", 1);
	const uint64_t rd = PERF_SAMPLE_READ | PERF_SAMPLE_TID;

	member_try("plain", 0, 0, 0, 0);
	member_try("inherit", 0, 1, 0, 0);
	member_try("inherit_thread", 0, 2, 0, 0);
	member_try("inherit_group_format", 0, 1, 0, PERF_FORMAT_GROUP);
	member_try("inherit_sample_read", 0, 1, rd, 0);
	member_try("inherit_sample_read_group", 0, 1, rd, PERF_FORMAT_GROUP);
	member_try("inherit_thread_sample_read_group", 0, 2, rd,
		   PERF_FORMAT_GROUP | PERF_FORMAT_LOST);
	member_try("sample_read_group", 0, 0, rd, PERF_FORMAT_GROUP);
	member_try("leader_roe.plain", 1, 0, 0, 0);
	member_try("leader_roe.inherit", 1, 1, 0, 0);
	member_try("leader_roe.inherit_thread", 1, 2, 0, 0);
	member_rule("pinned");
	member_rule("exclusive");
	member_rule("other_cpu");
	member_rule("other_clock");
	member_rule("both_inherit");
	member_rule("leader_inherit_only");
	member_rule("leader_inherit_only_no_task");
	member_rule("of_a_member");
	member_rule("cpu_event_in_task_group");
}

static void observe_open_order(void)
{
	long saved = read_sysctl(PARANOID);
	struct perf_event_attr a;
	int kprobe = pmu_type("kprobe");
	pid_t pid;

	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	deep_chain(&a);
	try_open("order.deep_chain.alone", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_MAX + 7);
	deep_chain(&a);
	try_open("order.deep_chain.unknown_sw", &a, 0, -1, -1, 0);
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HW_CACHE;
	a.size = sizeof(a);
	a.config = 3 | 2 << 8 | 1 << 16;	/* BPU, prefetch, miss */
	deep_chain(&a);
	try_open("order.deep_chain.cache_bpu_prefetch", &a, 0, -1, -1, 0);
	a.config = 0xff;
	try_open("order.deep_chain.cache_bad_id", &a, 0, -1, -1, 0);
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_HW_MAX + 3;
	deep_chain(&a);
	try_open("order.deep_chain.hw_bad_config", &a, 0, -1, -1, 0);
	if (kprobe >= 0) {
		memset(&a, 0, sizeof(a));
		a.type = kprobe;
		a.size = sizeof(a);
		deep_chain(&a);
		try_open("order.deep_chain.kprobe_no_func", &a, -1, 0, -1, 0);
	}
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	deep_chain(&a);
	a.use_clockid = 1;
	a.clockid = 1000;
	try_open("order.deep_chain.bad_clockid", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	deep_chain(&a);
	a.sigtrap = 1;
	try_open("order.deep_chain.sigtrap_alone", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	deep_chain(&a);
	a.sample_type |= PERF_SAMPLE_STACK_USER;
	a.sample_stack_user = 12;
	try_open("order.deep_chain.unaligned_stack", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	deep_chain(&a);
	try_open("order.deep_chain.bad_flags", &a, 0, -1, -1, 1UL << 40);
	try_open("order.deep_chain.bad_cpu", &a, 0, 100000, -1, 0);
	try_open("order.deep_chain.no_task", &a, 1 << 30, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_MAX + 7);
	freq_high(&a);
	try_open("order.freq_high.unknown_sw", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	freq_high(&a);
	try_open("order.freq_high.no_task", &a, 1 << 30, -1, -1, 0);
	try_open("order.freq_high.bad_flags", &a, 0, -1, -1, 1UL << 40);
	a.sigtrap = 1;
	try_open("order.freq_high.sigtrap_alone", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	freq_high(&a);
	a.sample_type = PERF_SAMPLE_MAX;
	try_open("order.freq_high.bad_sample_type", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_MAX + 7);
	a.sample_period = 1ULL << 63;
	try_open("order.period_bit63.unknown_sw", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_MAX + 7);
	bad_clock(&a);
	try_open("order.bad_clockid.unknown_sw", &a, 0, -1, -1, 0);
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	bad_clock(&a);
	try_open("order.bad_clockid.no_task", &a, 1 << 30, -1, -1, 0);
	try_open("order.bad_clockid.bad_cpu", &a, 0, 100000, -1, 0);
	a.sigtrap = 1;
	try_open("order.bad_clockid.sigtrap_alone", &a, 0, -1, -1, 0);
	a.sigtrap = 0;
	a.inherit_thread = 1;
	try_open("order.bad_clockid.inherit_thread_alone", &a, 0, -1, -1, 0);
	a.inherit_thread = 0;
	a.freq = 1;
	a.sample_freq = 1 << 30;
	try_open("order.bad_clockid.freq_too_high", &a, 0, -1, -1, 0);
	if (kprobe >= 0) {
		memset(&a, 0, sizeof(a));
		a.type = kprobe;
		a.size = sizeof(a);
		bad_clock(&a);
		try_open("order.bad_clockid.kprobe_no_func", &a, -1, 0, -1, 0);
	}
	/* a member whose clock is not its leader's */
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	{
		int lead = sys_open(&a, 0, -1, -1, 0);

		if (lead >= 0) {
			bad_clock(&a);
			try_open("order.bad_clockid.member", &a, 0, -1, lead, 0);
			a.clockid = CLOCK_MONOTONIC_RAW;
			try_open("order.clockid.member_other_clock", &a, 0, -1,
				 lead, 0);
			sw(&a, PERF_COUNT_SW_TASK_CLOCK);
			deep_chain(&a);
			try_open("order.deep_chain.member", &a, 0, -1, lead, 0);
			try_open("order.deep_chain.member_other_cpu", &a, 0, 0,
				 lead, 0);
			close(lead);
		}
	}

	observe_member_order();

	write_sysctl(PARANOID, 2);
	pid = fork();
	if (pid == 0)
		open_order_child();
	if (pid > 0)
		waitpid(pid, NULL, 0);
	write_sysctl(PARANOID, saved);
}

/*
 * branch_sample_type, bit by bit and in the combinations a tool uses, on a
 * sampling hardware event, a sampling software event and a counting one
 * (no PERF_SAMPLE_BRANCH_STACK): which errno the core or the PMU gives.
 * Bit 20 is the first past PERF_SAMPLE_BRANCH_MAX.
 */
static void branch_open(const char *kind, const char *what, uint64_t type,
			uint64_t bst)
{
	struct perf_event_attr a;
	char key[96];

	if (!strcmp(kind, "hw"))
		hw_attr(&a);
	else
		sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	if (strcmp(what, "counting")) {
		a.sample_period = 100000;
		a.sample_type = type;
	}
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.branch_sample_type = bst;
	snprintf(key, sizeof(key), "field.branch.%s.%s", kind, what);
	try_open(key, &a, 0, -1, -1, 0);
}

static void observe_branch_bits(void)
{
	static const char * const kinds[] = { "hw", "sw" };
	const uint64_t stack = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	const uint64_t user = PERF_SAMPLE_BRANCH_USER;
	struct perf_event_attr a;
	char what[48];
	int k, b;

	for (k = 0; k < 2; k++) {
		for (b = 0; b <= 20; b++) {
			snprintf(what, sizeof(what), "user_bit%d", b);
			branch_open(kinds[k], what, stack, user | 1ULL << b);
			snprintf(what, sizeof(what), "bit%d", b);
			branch_open(kinds[k], what, stack, 1ULL << b);
		}
		branch_open(kinds[k], "none", stack, 0);
		branch_open(kinds[k], "bit63", stack, user | 1ULL << 63);
		branch_open(kinds[k], "counters_any", stack,
			    user | PERF_SAMPLE_BRANCH_ANY |
			    PERF_SAMPLE_BRANCH_COUNTERS);
		branch_open(kinds[k], "counters_no_stack", PERF_SAMPLE_IP,
			    user | PERF_SAMPLE_BRANCH_COUNTERS);
		branch_open(kinds[k], "any_no_stack", PERF_SAMPLE_IP,
			    user | PERF_SAMPLE_BRANCH_ANY);
		branch_open(kinds[k], "counting", 0,
			    user | PERF_SAMPLE_BRANCH_ANY);
	}
	/* which comes first: the branch counters, or precise_ip */
	hw_attr(&a);
	a.sample_period = 100000;
	a.sample_type = stack;
	a.precise_ip = 1;
	a.branch_sample_type = user | PERF_SAMPLE_BRANCH_COUNTERS;
	try_open("field.branch.hw.counters_precise", &a, 0, -1, -1, 0);
	a.branch_sample_type = user | PERF_SAMPLE_BRANCH_ANY;
	try_open("field.branch.hw.any_precise", &a, 0, -1, -1, 0);
}

/* ---- the x86 core PMU (the workbench's emulated ones: bench/qemu) ---- */

#if defined(__x86_64__)
/* 2 * @n user-mode instructions: dec and jnz */
__attribute__((noinline)) static void x86_loop(unsigned long n)
{
	__asm__ __volatile__("1: dec %0; jnz 1b" : "+r"(n));
}

static uint64_t x86_rdpmc(uint32_t index)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(index));
	return (uint64_t)hi << 32 | lo;
}

/* a raw config, user space only, enabled */
static void x86_raw(struct perf_event_attr *a, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_RAW;
	a->size = sizeof(*a);
	a->config = config;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
}

/* raw configs and control bits: which open, and the errno of the rest */
static void x86_raw_configs(void)
{
	static const struct {
		const char *name;
		uint64_t config;
	} raw[] = {
		{ "cycles", 0x003c }, { "instructions", 0x00c0 },
		{ "ref_cycles", 0x013c }, { "llc_misses", 0x412e },
		{ "branches", 0x00c4 }, { "edge", 0x003c | 1ULL << 18 },
		{ "pin_control", 0x003c | 1ULL << 19 },
		{ "int", 0x003c | 1ULL << 20 }, { "any", 0x003c | 1ULL << 21 },
		{ "enable", 0x003c | 1ULL << 22 },
		{ "inv_cmask1", 0x003c | 1ULL << 23 | 1ULL << 24 },
		{ "cmask255", 0x003c | 0xffULL << 24 },
		{ "event_hi", 0x003c | 0xfULL << 32 }, { "bit36", 1ULL << 36 | 0x3c },
		{ "guest_only", 0x003c | 1ULL << 40 },
		{ "host_only", 0x003c | 1ULL << 41 }, { "bit63", 1ULL << 63 | 0x3c },
	};
	struct perf_event_attr a;
	char key[96];

	for (unsigned int i = 0; i < ARRAY_SIZE(raw); i++) {
		x86_raw(&a, raw[i].config);
		snprintf(key, sizeof(key), "hw.x86.raw.%s", raw[i].name);
		try_open(key, &a, 0, -1, -1, 0);
	}
}

/*
 * precise_ip 1 to 3 with configs good and bad of each type: whether the
 * skid level is refused before the config is read (no PEBS, no IBS).
 */
static void x86_precise(void)
{
	static const struct {
		const char *name;
		uint32_t type;
		uint64_t config;
	} ev[] = {
		{ "hw_cycles", PERF_TYPE_HARDWARE, 0 },
		{ "hw_bad", PERF_TYPE_HARDWARE, 0x77 },
		{ "cache_ok", PERF_TYPE_HW_CACHE, 0x10000 },
		{ "cache_bad", PERF_TYPE_HW_CACHE, 0x20307 },
		{ "cache_none", PERF_TYPE_HW_CACHE, 0x00005 },
		{ "raw_cycles", PERF_TYPE_RAW, 0x003c },
		{ "raw_bad_bits", PERF_TYPE_RAW, 1ULL << 63 | 0x3c },
	};
	struct perf_event_attr a;
	char key[96];

	for (unsigned int i = 0; i < ARRAY_SIZE(ev); i++) {
		for (unsigned int p = 1; p <= 3; p++) {
			x86_raw(&a, ev[i].config);
			a.type = ev[i].type;
			a.precise_ip = p;
			snprintf(key, sizeof(key), "hw.x86.precise%u.%s", p,
				 ev[i].name);
			try_open(key, &a, 0, -1, -1, 0);
		}
		/* beside a branch stack: which refusal comes first */
		x86_raw(&a, ev[i].config);
		a.type = ev[i].type;
		a.sample_type = PERF_SAMPLE_BRANCH_STACK;
		a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				       PERF_SAMPLE_BRANCH_USER;
		a.sample_period = 100000;
		snprintf(key, sizeof(key), "hw.x86.branch_stack.%s",
			 ev[i].name);
		try_open(key, &a, 0, -1, -1, 0);
	}
}

/*
 * A group of general-purpose-only events (raw 0xc4) grows until its open
 * fails: @leader_off and @members_off say which are opened disabled.
 */
static void x86_group_limit(const char *key, int leader_off, int members_off)
{
	struct perf_event_attr a;
	int fds[12], n, i, fd = 0;

	for (n = 0; n < 12; n++) {
		x86_raw(&a, 0x00c4);
		a.disabled = n ? members_off : leader_off;
		fd = sys_open(&a, 0, -1, n ? fds[0] : -1, 0);
		if (fd < 0)
			break;
		fds[n] = fd;
	}
	say(key, "%d members, then %s", n, n < 12 ? res(fd) : "no limit");
	for (i = 0; i < n; i++)
		close(fds[i]);
}

/*
 * Counter capacity: groups of general-purpose-only events, disabled or
 * not; eight pinned singletons, then eight flexible ones, counted over a
 * loop: how many ran, failed or shared.
 */
static void x86_capacity(void)
{
	const uint64_t rf = PERF_FORMAT_TOTAL_TIME_ENABLED |
			    PERF_FORMAT_TOTAL_TIME_RUNNING;
	struct perf_event_attr a;
	int fds[12], i;

	x86_group_limit("hw.x86.group_gp.all_disabled", 1, 1);
	x86_group_limit("hw.x86.group_gp.leader_disabled", 1, 0);
	x86_group_limit("hw.x86.group_gp.enabled", 0, 0);
	x86_group_limit("hw.x86.group_gp.members_disabled", 0, 1);
	for (int pinned = 1; pinned >= 0; pinned--) {
		int ran = 0, failed = 0, shared = 0, other = 0;

		for (i = 0; i < 8; i++) {
			x86_raw(&a, 0x00c4);
			a.pinned = pinned;
			a.read_format = rf;
			fds[i] = sys_open(&a, 0, -1, -1, 0);
		}
		x86_loop(20000000);
		for (i = 0; i < 8; i++) {
			uint64_t v[3] = { 0, 0, 0 };
			ssize_t r = fds[i] < 0 ? -1 : read(fds[i], v, sizeof(v));

			if (r == 0)
				failed++;
			else if (r != sizeof(v) || !v[2])
				other++;
			else if (v[2] < v[1])
				shared++;
			else
				ran++;
			if (fds[i] >= 0)
				close(fds[i]);
		}
		say(pinned ? "hw.x86.pinned8" : "hw.x86.flexible8",
		    "%d ran throughout, %d shared, %d failed, %d other", ran,
		    shared, failed, other);
	}
}

/* the user page's self-monitoring read of perf_event_open(2), by RDPMC */
static int64_t x86_user_read(volatile struct perf_event_mmap_page *pc,
			     int *used)
{
	uint32_t seq, idx;
	int64_t count;

	do {
		seq = pc->lock;
		__sync_synchronize();
		idx = pc->index;
		count = pc->offset;
		*used = pc->cap_user_rdpmc && idx;
		if (*used) {
			unsigned int shift = 64 - pc->pmc_width;

			count += (int64_t)(x86_rdpmc(idx - 1) << shift) >> shift;
		}
		__sync_synchronize();
	} while (pc->lock != seq);
	return count;
}

/*
 * A loop of known length counted (exact under icount, ICOUNT=1), by read()
 * and by RDPMC; the periods of a sampling event.
 */
static void x86_counts(void)
{
	const long pg = sysconf(_SC_PAGESIZE);
	volatile struct perf_event_mmap_page *pc;
	uint64_t before, after, n = 0, bad = 0, v = 0;
	struct perf_event_header *h;
	struct perf_event_attr a;
	struct perf_map m;
	char buf[128];
	int64_t u0, u1;
	int fd, used;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = sys_open(&a, 0, -1, -1, 0);
	if (fd < 0) {
		say("hw.x86.loop", "%s", res(fd));
		return;
	}
	pc = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED) {
		say("hw.x86.loop", "mmap %s", res(-errno));
		close(fd);
		return;
	}
	if (read(fd, &before, sizeof(before)) != sizeof(before))
		before = 0;
	u0 = x86_user_read(pc, &used);
	x86_loop(1000000);
	u1 = x86_user_read(pc, &used);
	if (read(fd, &after, sizeof(after)) != sizeof(after))
		after = 0;
	/* 2000000 and the few instructions around the loop */
	say("hw.x86.loop", "%s", after - before >= 2000000 &&
	    after - before < 2000100 ? "2000000 and a few" :
	    after - before >= 2000000 && after - before < 2020000 ?
	    "within 1%" : "off");
	say("hw.x86.rdpmc", "%s", !used ? "not used" :
	    u1 - u0 >= 2000000 && u1 - u0 < 2000100 ? "2000000 and a few" :
	    u1 - u0 > 0 && (uint64_t)u1 <= after ? "counts" : "off");
	say("hw.x86.page", "cap_user_rdpmc %u cap_user_time %u pmc_width %u index %s",
	    (unsigned int)pc->cap_user_rdpmc, (unsigned int)pc->cap_user_time,
	    (unsigned int)pc->pmc_width, pc->index ? "set" : "0");
	munmap((void *)pc, pg);
	close(fd);

	hw_attr(&a);
	a.sample_period = 100000;
	a.sample_type = PERF_SAMPLE_PERIOD;
	a.disabled = 1;
	fd = sys_open(&a, 0, -1, -1, 0);
	if (fd < 0 || perf_map_open(&m, fd, 64, PROT_READ | PROT_WRITE)) {
		say("hw.x86.periods", "%s", res(fd < 0 ? fd : -errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	x86_loop(5000000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &v, sizeof(v)) != sizeof(v))
		v = 0;
	while ((h = perf_map_next(&m, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		n++;
		bad += *(const uint64_t *)(h + 1) != 100000;
	}
	say("hw.x86.periods", "%s, %s", bad ? "not all 100000" : "all 100000",
	    n && n + 1 >= v / 100000 && n <= v / 100000 ?
	    "one a period" : "not one a period");
	perf_map_close(&m);
	close(fd);
}

/*
 * Topdown (Ice Lake and later: slots on fixed counter 3, the metrics from
 * PERF_METRICS): which groups of slots and metric events open, with which
 * exclusion bits, and whether a metric reads a share of its leader's
 * slots.  Elsewhere the same opens give each kernel's errno for a model
 * without topdown.
 */
static void x86_topdown(void)
{
	static const struct {
		const char *name;
		int xk, xu;	/* the metric's exclude_kernel, exclude_user */
	} excl[] = {
		{ "same", 1, 0 }, { "kernel_too", 0, 0 },
		{ "kernel_only", 0, 1 },
	};
	static const char * const metric[] = {
		"retiring", "bad_spec", "fe_bound", "be_bound",
	};
	uint64_t v[1 + 2 * 5];
	struct perf_event_attr a;
	int lead, fd[4], i, j, n;
	char key[96];

	x86_raw(&a, 0x0400);
	try_open("hw.x86.topdown.slots", &a, 0, -1, -1, 0);
	x86_raw(&a, 0x8000);
	try_open("hw.x86.topdown.metric_alone", &a, 0, -1, -1, 0);
	for (i = 0; i < (int)ARRAY_SIZE(excl); i++) {
		x86_raw(&a, 0x0400);
		a.read_format = PERF_FORMAT_GROUP;
		a.disabled = 1;
		lead = sys_open(&a, 0, -1, -1, 0);
		if (lead < 0) {
			snprintf(key, sizeof(key), "hw.x86.topdown.%s",
				 excl[i].name);
			say(key, "leader %s", res(lead));
			continue;
		}
		n = 0;
		for (j = 0; j < 4; j++) {
			x86_raw(&a, 0x8000 + 0x100 * j);
			a.exclude_kernel = excl[i].xk;
			a.exclude_user = excl[i].xu;
			fd[j] = sys_open(&a, 0, -1, lead, 0);
			snprintf(key, sizeof(key), "hw.x86.topdown.%s.%s",
				 excl[i].name, metric[j]);
			say(key, "%s", res(fd[j]));
			n += fd[j] >= 0;
		}
		ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		x86_loop(1000000);
		ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
		snprintf(key, sizeof(key), "hw.x86.topdown.%s.read",
			 excl[i].name);
		if (read(lead, v, sizeof(v)) < 0) {
			say(key, "%s", res(-errno));
		} else {
			uint64_t sum = 0;

			for (j = 0; j < n; j++)
				sum += v[2 + j];
			say(key, "%llu members, slots %s, metrics %s",
			    (unsigned long long)v[0], v[1] ? "counted" : "0",
			    !n ? "none" : !sum ? "0" :
			    sum <= v[1] && sum * 100 >= v[1] * 95 ?
			    "95-100% of slots" : "other");
		}
		for (j = 0; j < 4; j++)
			if (fd[j] >= 0)
				close(fd[j]);
		close(lead);
	}
	/* sampling on a metric, a metric leading, a member beside them */
	x86_raw(&a, 0x0400);
	lead = sys_open(&a, 0, -1, -1, 0);
	if (lead < 0)
		return;
	x86_raw(&a, 0x8000);
	a.sample_period = 100000;
	try_open("hw.x86.topdown.metric_sampling", &a, 0, -1, lead, 0);
	x86_raw(&a, 0x00c0);
	try_open("hw.x86.topdown.instructions_member", &a, 0, -1, lead, 0);
	x86_raw(&a, 0x8000);
	fd[0] = sys_open(&a, 0, -1, lead, 0);
	x86_raw(&a, 0x8000);
	try_open("hw.x86.topdown.metric_twice", &a, 0, -1, lead, 0);
	x86_raw(&a, 0x8100);
	try_open("hw.x86.topdown.metric_under_metric", &a, 0, -1,
		 fd[0] >= 0 ? fd[0] : lead, 0);
	if (fd[0] >= 0)
		close(fd[0]);
	close(lead);
	x86_raw(&a, 0x00c0);
	lead = sys_open(&a, 0, -1, -1, 0);
	x86_raw(&a, 0x8000);
	try_open("hw.x86.topdown.metric_under_instructions", &a, 0, -1,
		 lead, 0);
	if (lead >= 0)
		close(lead);
	x86_raw(&a, 0x0400);
	a.sample_period = 100000;
	lead = sys_open(&a, 0, -1, -1, 0);
	say("hw.x86.topdown.slots_sampling", "%s", res(lead));
	x86_raw(&a, 0x8000);
	try_open("hw.x86.topdown.metric_under_sampling_slots", &a, 0, -1,
		 lead, 0);
	if (lead >= 0)
		close(lead);
}

static void observe_x86_pmu(void)
{
	/* a hybrid part's: cpu_core's, on the P-core the observer runs on */
	if (pmu_type("cpu") < 0 && pmu_type("cpu_core") < 0) {
		say("hw.x86", "no cpu PMU");
		return;
	}
	say("hw.x86", "cpu PMU");
	x86_raw_configs();
	x86_precise();
	x86_capacity();
	x86_counts();
	x86_topdown();
}
#else
static void observe_x86_pmu(void)
{
}
#endif

/*
 * PMUs of free-running and package counters (issue 45): the msr PMU (no
 * scope, task events allowed) and the power PMU (package scope, CPU events
 * only), each with its first event: where it may be opened, with which
 * attr bits and configs, whether a CPU event of another CPU of the package
 * opens and counts, and what an offline CPU gets.  Counts as "grows" or
 * not (the values are the emulation's and the run's).
 */
/* open @member on @cpu in a group that @leader leads: its errno */
static void scope_group(const char *key, struct perf_event_attr *leader,
			struct perf_event_attr *member, int cpu)
{
	int lead = sys_open(leader, -1, cpu, -1, 0);

	if (lead < 0)
		return;
	try_open(key, member, -1, cpu, lead, 0);
	close(lead);
}

static void scope_pmu(const char *pmu, uint64_t config)
{
	static const uint64_t configs[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 0xff, 0x100, ~0ULL,
	};
	static const char *const excl[] = {
		"exclude_user", "exclude_kernel", "exclude_hv",
		"exclude_idle", "exclude_host", "exclude_guest",
	};
	static const int excl_bit[] = { 4, 5, 6, 7, 19, 20 };
	struct perf_event_attr a, mine, other;
	int type = pmu_type(pmu), fd;
	char key[128];
	unsigned int i;

	if (type < 0) {
		snprintf(key, sizeof(key), "scope.%s", pmu);
		say(key, "no such PMU");
		return;
	}
#define SCOPE_KEY(fmt, ...) \
	(snprintf(key, sizeof(key), "scope.%s." fmt, pmu, ##__VA_ARGS__), key)
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	try_open(SCOPE_KEY("task"), &a, 0, -1, -1, 0);
	try_open(SCOPE_KEY("task_on_cpu"), &a, 0, 0, -1, 0);
	try_open(SCOPE_KEY("cpu0"), &a, -1, 0, -1, 0);
	try_open(SCOPE_KEY("cpu1"), &a, -1, 1, -1, 0);
	try_open(SCOPE_KEY("cpu_none"), &a, -1, 4096, -1, 0);
	try_open(SCOPE_KEY("any_cpu_any_task"), &a, -1, -1, -1, 0);
	a.pinned = 1;
	try_open(SCOPE_KEY("pinned"), &a, -1, 0, -1, 0);
	a.exclusive = 1;
	try_open(SCOPE_KEY("exclusive"), &a, -1, 0, -1, 0);
	a.pinned = a.exclusive = 0;
	a.inherit = 1;
	try_open(SCOPE_KEY("inherit_task"), &a, 0, -1, -1, 0);
	a.inherit = 0;
	a.sample_period = 1000;
	try_open(SCOPE_KEY("sampling"), &a, -1, 0, -1, 0);
	a.freq = 1;
	try_open(SCOPE_KEY("freq"), &a, -1, 0, -1, 0);
	a.freq = 0;
	a.sample_period = 0;
	for (i = 0; i < ARRAY_SIZE(excl); i++) {
		*flags_word(&a) = 1ULL << excl_bit[i];
		try_open(SCOPE_KEY("%s", excl[i]), &a, -1, 0, -1, 0);
	}
	*flags_word(&a) = 0;
	for (i = 0; i < ARRAY_SIZE(configs); i++) {
		a.config = configs[i];
		try_open(SCOPE_KEY("config_%#llx",
				   (unsigned long long)configs[i]), &a, -1, 0,
			 -1, 0);
	}
	a.config = config;
	a.config1 = 1;
	try_open(SCOPE_KEY("config1"), &a, -1, 0, -1, 0);
	a.config1 = 0;
	/*
	 * in groups with a software event and a hardware one (perf stat
	 * --smi-cost's group), each way round
	 */
	memset(&mine, 0, sizeof(mine));
	mine.size = sizeof(mine);
	mine.type = type;
	mine.config = config;
	sw(&other, PERF_COUNT_SW_CPU_CLOCK);
	scope_group(SCOPE_KEY("member_of_sw"), &other, &mine, 0);
	scope_group(SCOPE_KEY("sw_member_cpu1"), &mine, &other, 1);
	hw_attr(&other);
	other.exclude_kernel = other.exclude_hv = 0;
	scope_group(SCOPE_KEY("member_of_hw"), &other, &mine, 0);
	scope_group(SCOPE_KEY("hw_member"), &mine, &other, 0);
	/* a CPU event counts across a busy stretch */
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = sys_open(&a, -1, 1, -1, 0);
	if (fd >= 0) {
		uint64_t v[3] = { 0 }, w[3] = { 0 };
		volatile unsigned long spin;
		ssize_t r1, r2;

		r1 = read(fd, v, sizeof(v));
		for (spin = 0; spin < 20000000; spin++)
			;
		r2 = read(fd, w, sizeof(w));
		say(SCOPE_KEY("count_cpu1"), "read %zd %zd, %s, running %s",
		    r1, r2, w[0] > v[0] ? "grows" : "does not grow",
		    w[2] == w[1] ? "all its time" : "part of its time");
		close(fd);
	}
#undef SCOPE_KEY
}

/* Opening on an offline CPU: the scoped PMU places the event elsewhere. */
static void scope_offline(void)
{
	const char *online = "/sys/devices/system/cpu/cpu1/online";
	struct perf_event_attr a;
	int type = pmu_type("power");

	if (write_sysctl(online, 0)) {
		say("scope.offline", "cpu1 cannot go offline");
		return;
	}
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	if (type >= 0) {
		a.type = type;
		a.config = 2;
		try_open("scope.offline.power_cpu1", &a, -1, 1, -1, 0);
	}
	if (pmu_type("msr") >= 0) {
		a.type = pmu_type("msr");
		a.config = 0;
		try_open("scope.offline.msr_cpu1", &a, -1, 1, -1, 0);
	}
	sw(&a, PERF_COUNT_SW_CPU_CLOCK);
	try_open("scope.offline.sw_cpu1", &a, -1, 1, -1, 0);
	say("scope.offline.back_online", "%s", res(write_sysctl(online, 1)));
}

static void observe_scope(void)
{
	scope_pmu("msr", 0);
	scope_pmu("power", 2);
	scope_offline();
}

/*
 * Frequency mode on the cycle counter, as perf record uses it by default
 * (-F 1000, kernel and user): across some 400 million cycles of a loop,
 * how many samples it takes at period 1 before the period follows the
 * rate, whether the samples come at about the frequency asked for, and
 * whether their periods add up to the count.  Said in ranges: the exact
 * periods are the algorithm's own, and the rate is a loose one: a busy
 * host without icount delays the overflows.
 */
static void observe_freq(void)
{
	uint64_t n = 0, n1 = 0, sum = 0, first = 0, v[2] = { 0, 0 };
	struct perf_event_header *h;
	struct perf_event_attr a;
	struct perf_map m;
	double per_s;
	char buf[256];
	int fd;

	hw_attr(&a);
	a.exclude_kernel = 0;
	a.freq = 1;
	a.sample_freq = 1000;
	a.sample_type = PERF_SAMPLE_PERIOD;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	a.disabled = 1;
	fd = sys_open(&a, 0, -1, -1, 0);
	if (fd < 0 || perf_map_open(&m, fd, 64, PROT_READ | PROT_WRITE)) {
		say("freq.hw", "%s", res(fd < 0 ? fd : -errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	chain_spin(130000000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, v, sizeof(v)) != sizeof(v))
		v[1] = 0;
	while ((h = perf_map_next(&m, buf, sizeof(buf)))) {
		uint64_t period = *(const uint64_t *)(h + 1);

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (!n++)
			first = period;
		n1 += period == 1;
		sum += period;
	}
	say("freq.hw", "ok");
	say("freq.hw.first_period", "%s", first == 1 ? "1" : "more than 1");
	say("freq.hw.period1_samples", "%s", n1 <= 5 ? "at most 5" :
	    n1 <= 20 ? "6 to 20" : "over 20");
	per_s = v[1] ? n * 1e9 / v[1] : 0;
	say("freq.hw.rate", "%s", per_s > 500 && per_s < 1500 ?
	    "within 50% of 1000/s" : "off");
	/* stock's periods may pass the count by a tenth of a percent */
	say("freq.hw.periods_sum", "%s",
	    sum * 100 <= v[0] * 101 && sum * 10 >= v[0] * 9 ?
	    "90-101% of the count" : "off");
	printf("# freq.hw: %llu samples, %llu at period 1, periods %llu of %llu in %llu ns\n",
	       (unsigned long long)n, (unsigned long long)n1,
	       (unsigned long long)sum, (unsigned long long)v[0],
	       (unsigned long long)v[1]);
	perf_map_close(&m);
	close(fd);
}

static void find_tracepoint(void)
{
	tp_sched_switch = (int)read_sysctl(
		"/sys/kernel/tracing/events/sched/sched_switch/id");
	if (tp_sched_switch < 0)
		tp_sched_switch = (int)read_sysctl(
			"/sys/kernel/debug/tracing/events/sched/sched_switch/id");
}

/* the sigtrap probes' events may overflow before they are closed */
static void ignore_sigtrap(int sig)
{
}

/* ---- the uprobe PMU --------------------------------------------------- */

/*
 * the USDT-style semaphore of the uprobe probes, in .data (file-backed;
 * the word beside it, not zero, keeps the pair out of .bss)
 */
static struct {
	unsigned short sema;
	unsigned short in_data;
} obs_usdt = { 0, 1 };
static uintptr_t obs_ret;

static int obs_sema(void)
{
	return __atomic_load_n(&obs_usdt.sema, __ATOMIC_RELAXED);
}

static uintptr_t obs_ret_addr(void)
{
	return __atomic_load_n(&obs_ret, __ATOMIC_RELAXED);
}

/* the probed function: where it was called from, kept */
__attribute__((noipa)) int obs_target(int x)
{
	__atomic_store_n(&obs_ret, (uintptr_t)__builtin_return_address(0),
			 __ATOMIC_RELAXED);
	return x + 1;
}

/* the only caller of obs_target(), so its return address is fixed */
__attribute__((noipa)) int obs_call(int x)
{
	int r = obs_target(x);

	__asm__ __volatile__("" : "+r"(r));
	return r;
}

__attribute__((noipa)) int obs_recurse(int depth)
{
	int r;

	if (depth <= 1)
		return 1;
	r = obs_recurse(depth - 1);
	__asm__ __volatile__("" : "+r"(r));
	return r + 1;
}

/* @n calls of obs_target(); how many returned something else */
static int obs_calls(int n)
{
	int bad = 0;

	for (int i = 0; i < n; i++)
		bad += obs_call(i) != i + 1;
	return bad;
}

static struct {
	int type;
	char path[512];
	uint64_t target, recurse, sema;
} up;

static void uprobe_attr(struct perf_event_attr *a, const char *path,
			uint64_t off, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->type = up.type;
	a->size = sizeof(*a);
	a->config = config;
	a->uprobe_path = (uintptr_t)path;
	a->probe_offset = off;
	a->disabled = 1;
}

/* the count of @fd over @n calls (or a recursion @n deep), or the errno */
static void uprobe_count(const char *key, struct perf_event_attr *a,
			 int n, int recursion)
{
	int fd = sys_open(a, 0, -1, -1, 0), bad;
	uint64_t v = 0;

	if (fd < 0) {
		say(key, "%s", res(fd));
		return;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	bad = recursion ? obs_recurse(n) != n : obs_calls(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &v, sizeof(v)) != sizeof(v))
		v = ~0ULL;
	say(key, "count %llu, %s", (unsigned long long)v,
	    bad ? "wrong results" : "right results");
	close(fd);
}

/* the samples of 3 calls: size, misc, ip as which address, raw record */
static void uprobe_samples(const char *key, int retprobe)
{
	uint64_t type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_RAW |
			PERF_SAMPLE_PERIOD;
	uintptr_t func = (uintptr_t)obs_target, ret;
	struct perf_event_attr a;
	struct perf_event_header *h;
	uint64_t buf[64];
	struct perf_sample s;
	struct perf_map m;
	int fd, i = 0;

	obs_call(0);
	ret = obs_ret_addr();
	uprobe_attr(&a, up.path, up.target, retprobe);
	a.sample_period = 1;
	a.sample_type = type;
	fd = sys_open(&a, 0, -1, -1, 0);
	if (fd < 0) {
		say(key, "%s", res(fd));
		return;
	}
	if (perf_map_open(&m, fd, 4, PROT_READ | PROT_WRITE)) {
		say(key, "mmap %s", res(-errno));
		close(fd);
		return;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	obs_calls(3);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	say(key, "return address inside %s",
	    obs_ret_addr() == ret ? "the caller's" : "another");
	while ((h = perf_map_next(&m, buf, sizeof(buf)))) {
		const uint8_t *rec;
		uint64_t v[2] = { 0, 0 };
		char k[96];

		snprintf(k, sizeof(k), "%s.%d", key, i++);
		if (h->type != PERF_RECORD_SAMPLE) {
			say(k, "type %u size %u", h->type, h->size);
			continue;
		}
		perf_sample_parse(h, type, 0, 0, &s);
		rec = (const uint8_t *)s.end - s.raw_size;
		if (s.raw_size >= 24)
			memcpy(v, rec + 8, 16);
		else if (s.raw_size >= 16)
			memcpy(v, rec + 8, 8);
		say(k, "size %u misc %#x ip %s pid %s period %llu raw %u [%s, %s]",
		    h->size, h->misc,
		    s.ip == func ? "function" : s.ip == ret ? "return" : "other",
		    s.pid == (uint32_t)getpid() ? "self" : "other",
		    (unsigned long long)s.period, s.raw_size,
		    v[0] == func ? "function" : v[0] ? "other" : "0",
		    v[1] == ret ? "return" : v[1] ? "other" : "0");
	}
	perf_map_close(&m);
	close(fd);
}

/* the semaphore through an event's life (@cpu_wide: of CPU 0) */
static void uprobe_semaphore(const char *key, uint64_t config, int cpu_wide)
{
	struct perf_event_attr a;
	int fd, opened, enabled;

	uprobe_attr(&a, up.path, up.target, config);
	fd = cpu_wide ? sys_open(&a, -1, 0, -1, 0) : sys_open(&a, 0, -1, -1, 0);
	if (fd < 0) {
		say(key, "%s", res(fd));
		return;
	}
	opened = obs_sema();
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	enabled = obs_sema();
	close(fd);
	say(key, "opened %d enabled %d closed %d", opened, enabled,
	    obs_sema());
}

typedef int (*obs_code_fn)(void);

/* a file of code returning 42, mapped twice, probed at 0 @before or not */
static void uprobe_two_maps(const char *key, int before, int flags)
{
#if defined(__x86_64__)
	static const unsigned char code[] = { 0xb8, 0x2a, 0, 0, 0, 0xc3 };
#else
	static const unsigned char code[] = { 0x40, 0x05, 0x80, 0x52,
					      0xc0, 0x03, 0x5f, 0xd6 };
#endif
	char path[] = "/tmp/observe-uprobe.XXXXXX";
	struct perf_event_attr a;
	int file = mkstemp(path), fd = -1, bad = 0, same;
	obs_code_fn f1, f2;
	void *m1 = MAP_FAILED, *m2 = MAP_FAILED;
	uint64_t v = 0;

	if (file < 0 || write(file, code, sizeof(code)) != sizeof(code)) {
		say(key, "cannot make the file");
		goto out;
	}
	uprobe_attr(&a, path, 0, 0);
	if (before)
		fd = sys_open(&a, 0, -1, -1, 0);
	m1 = mmap(NULL, 4096, PROT_READ | PROT_EXEC, flags, file, 0);
	m2 = mmap(NULL, 4096, PROT_READ | PROT_EXEC, flags, file, 0);
	if (!before)
		fd = sys_open(&a, 0, -1, -1, 0);
	if (fd < 0 || m1 == MAP_FAILED || m2 == MAP_FAILED) {
		say(key, "open %s mmap %s", res(fd),
		    m1 == MAP_FAILED || m2 == MAP_FAILED ? "failed" : "ok");
		goto out;
	}
	f1 = (obs_code_fn)m1;
	f2 = (obs_code_fn)m2;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (int i = 0; i < 4; i++)
		bad += (f1() != 42) + (f2() != 42);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &v, sizeof(v)) != sizeof(v))
		v = ~0ULL;
	same = !memcmp(m1, code, sizeof(code));
	close(fd);
	fd = -1;
	say(key, "count %llu, %s, code %s while probed, %s after",
	    (unsigned long long)v, bad ? "wrong results" : "right results",
	    same ? "as written" : "changed",
	    memcmp(m1, code, sizeof(code)) || memcmp(m2, code, sizeof(code)) ?
	    "changed" : "as written");
out:
	if (fd >= 0)
		close(fd);
	if (m1 != MAP_FAILED)
		munmap(m1, 4096);
	if (m2 != MAP_FAILED)
		munmap(m2, 4096);
	if (file >= 0)
		close(file);
	unlink(path);
}

/* an inherited and a plain event over a forked child's calls */
static void uprobe_fork(void)
{
	struct perf_event_attr a;
	uint64_t vi = 0, vo = 0;
	int inh, own;
	pid_t pid;

	uprobe_attr(&a, up.path, up.target, 0);
	a.disabled = 0;
	a.inherit = 1;
	inh = sys_open(&a, 0, -1, -1, 0);
	a.inherit = 0;
	own = sys_open(&a, 0, -1, -1, 0);
	if (inh < 0 || own < 0) {
		say("uprobe.fork", "open %s %s", res(inh), res(own));
		goto out;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(obs_calls(5) ? 1 : 0);
	waitpid(pid, NULL, 0);
	if (read(inh, &vi, sizeof(vi)) != sizeof(vi) ||
	    read(own, &vo, sizeof(vo)) != sizeof(vo))
		vi = ~0ULL;
	say("uprobe.fork", "inherited %llu, not inherited %llu",
	    (unsigned long long)vi, (unsigned long long)vo);
out:
	if (inh >= 0)
		close(inh);
	if (own >= 0)
		close(own);
}

static void uprobe_perm_child(const char *prefix, int type, int perfmon)
{
	struct perf_event_attr a;
	char key[160];

	(void)type;
	if (drop_privileges(perfmon)) {
		say(prefix, "cannot drop privileges");
		_exit(1);
	}
	uprobe_attr(&a, up.path, up.target, 0);
	snprintf(key, sizeof(key), "%s.task", prefix);
	try_open(key, &a, 0, -1, -1, 0);
	snprintf(key, sizeof(key), "%s.cpu", prefix);
	try_open(key, &a, -1, 0, -1, 0);
	a.exclude_kernel = 1;
	snprintf(key, sizeof(key), "%s.exclude_kernel", prefix);
	try_open(key, &a, 0, -1, -1, 0);
	_exit(0);
}

static void uprobe_errnos(void)
{
	const struct {
		const char *key;
		uint64_t config;
	} configs[] = {
		{ "uprobe.config_bit1", 2 },
		{ "uprobe.config_bit31", 1ULL << 31 },
		{ "uprobe.ref_ctr_past_eof", (1ULL << 40) << 32 },
		{ "uprobe.ref_ctr_odd", (up.sema + 1) << 32 },
	};
	struct perf_event_attr a;
	int fd;

	uprobe_attr(&a, "/no/such/file", 0, 0);
	try_open("uprobe.path_missing", &a, 0, -1, -1, 0);
	uprobe_attr(&a, "", 0, 0);
	try_open("uprobe.path_empty", &a, 0, -1, -1, 0);
	uprobe_attr(&a, "/tmp", 0, 0);
	try_open("uprobe.path_dir", &a, 0, -1, -1, 0);
	uprobe_attr(&a, "/proc/self/exe", up.target, 0);
	try_open("uprobe.path_proc_link", &a, 0, -1, -1, 0);
	uprobe_attr(&a, "tests/observe", up.target, 0);
	try_open("uprobe.path_relative", &a, 0, -1, -1, 0);
	uprobe_attr(&a, (const char *)8, 0, 0);
	try_open("uprobe.path_efault", &a, 0, -1, -1, 0);
	uprobe_attr(&a, NULL, 0, 0);
	try_open("uprobe.path_null", &a, 0, -1, -1, 0);
	uprobe_attr(&a, up.path, 1ULL << 40, 0);
	try_open("uprobe.offset_past_eof", &a, 0, -1, -1, 0);
	/* opened and closed at once, never run */
	uprobe_attr(&a, up.path, up.target + 1, 0);
	try_open("uprobe.offset_odd", &a, 0, -1, -1, 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(configs); i++) {
		uprobe_attr(&a, up.path, up.target, configs[i].config);
		uprobe_count(configs[i].key, &a, 3, 0);
	}
	uprobe_attr(&a, up.path, up.target, 0);
	a.exclude_user = 1;
	uprobe_count("uprobe.exclude_user", &a, 3, 0);
	a.exclude_user = 0;
	a.exclude_kernel = 1;
	uprobe_count("uprobe.exclude_kernel", &a, 3, 0);
	a.exclude_kernel = 0;
	try_open("uprobe.cpu", &a, -1, 0, -1, 0);
	/* one point, two semaphores: the second event is refused */
	fd = sys_open(&a, 0, -1, -1, 0);
	uprobe_attr(&a, up.path, up.target, up.sema << 32);
	try_open("uprobe.semaphore_mismatch", &a, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
}

static void observe_uprobe(void)
{
	static const long levels[] = { -1, 1, 2 };
	const char *dev = "/sys/bus/event_source/devices/uprobe";
	struct perf_event_attr a;
	char path[256];

	up.type = pmu_type("uprobe");
	say("uprobe.pmu", "%s", up.type >= 0 ? "yes" : "no");
	if (up.type < 0)
		return;
	snprintf(path, sizeof(path), "%s/format/retprobe", dev);
	print_file("uprobe.format.retprobe", path);
	snprintf(path, sizeof(path), "%s/format/ref_ctr_offset", dev);
	print_file("uprobe.format.ref_ctr_offset", path);
	if (maps_file_offset((uintptr_t)obs_target, up.path, sizeof(up.path),
			       &up.target) ||
	    maps_file_offset((uintptr_t)obs_recurse, up.path, sizeof(up.path),
			       &up.recurse) ||
	    maps_file_offset((uintptr_t)&obs_usdt.sema, up.path, sizeof(up.path),
			       &up.sema)) {
		say("uprobe.offsets", "not found");
		return;
	}
	uprobe_attr(&a, up.path, up.target, 0);
	uprobe_count("uprobe.count", &a, 7, 0);
	uprobe_attr(&a, up.path, up.target, 1);
	uprobe_count("uprobe.count_retprobe", &a, 7, 0);
	uprobe_attr(&a, up.path, up.recurse, 0);
	uprobe_count("uprobe.recursion_100", &a, 100, 1);
	uprobe_attr(&a, up.path, up.recurse, 1);
	uprobe_count("uprobe.recursion_10_retprobe", &a, 10, 1);
	uprobe_count("uprobe.recursion_64_retprobe", &a, 64, 1);
	uprobe_count("uprobe.recursion_65_retprobe", &a, 65, 1);
	uprobe_count("uprobe.recursion_100_retprobe", &a, 100, 1);
	uprobe_samples("uprobe.sample", 0);
	uprobe_samples("uprobe.sample_retprobe", 1);
	uprobe_semaphore("uprobe.semaphore", up.sema << 32, 0);
	uprobe_semaphore("uprobe.semaphore_retprobe", up.sema << 32 | 1, 0);
	uprobe_semaphore("uprobe.semaphore_cpu", up.sema << 32, 1);
	uprobe_two_maps("uprobe.two_maps_before", 1, MAP_PRIVATE);
	uprobe_two_maps("uprobe.two_maps_after", 0, MAP_PRIVATE);
	uprobe_two_maps("uprobe.two_maps_shared", 1, MAP_SHARED);
	uprobe_fork();
	uprobe_errnos();
	perm_matrix("uprobe", levels, ARRAY_SIZE(levels), up.type,
		    uprobe_perm_child);
}

/* Open @a (an event of @pmu) with @clock, as security.clock.PMU.CLOCK. */
static void try_clock(const char *pmu, struct perf_event_attr *a, int clock)
{
	char key[64];

	a->use_clockid = 1;
	a->clockid = clock;
	snprintf(key, sizeof(key), "security.clock.%s.%d", pmu, clock);
	try_open(key, a, 0, -1, -1, 0);
}

/*
 * What a hostile caller meets (the attacker kselftest asserts the same):
 * the clocks each PMU takes, and how large a group may grow.
 */
static void observe_security(void)
{
	static const int clocks[] = { CLOCK_REALTIME, CLOCK_MONOTONIC,
				      CLOCK_MONOTONIC_RAW, CLOCK_BOOTTIME,
				      CLOCK_TAI };
	static const uint64_t formats[] = {
		PERF_FORMAT_GROUP,
		PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST,
		PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_LOST,
		PERF_FORMAT_ID,
	};
	static const uint64_t types[] = {
		0, PERF_SAMPLE_READ,
		PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
			PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ,
	};
	struct rlimit rl = { 8192, 8192 };
	struct perf_event_attr a;
	unsigned int i, j;
	char key[96];
	int fds[1200];

	for (i = 0; i < ARRAY_SIZE(clocks); i++) {
		sw(&a, PERF_COUNT_SW_TASK_CLOCK);
		try_clock("software", &a, clocks[i]);
		if (tp_sched_switch > 0) {
			a.type = PERF_TYPE_TRACEPOINT;
			a.config = tp_sched_switch;
			try_clock("tracepoint", &a, clocks[i]);
		}
		bp_attr(&a);
		try_clock("breakpoint", &a, clocks[i]);
		hw_attr(&a);
		try_clock("cycles", &a, clocks[i]);
	}
	sw(&a, PERF_COUNT_SW_TASK_CLOCK);
	try_open("security.cgroup_flag.pid_minus_1", &a, -1, 0, -1,
		 PERF_FLAG_PID_CGROUP);

	setrlimit(RLIMIT_NOFILE, &rl);
	for (i = 0; i < ARRAY_SIZE(formats); i++) {
		for (j = 0; j < ARRAY_SIZE(types); j++) {
			int n = 0, ret = 0, k;

			sw(&a, PERF_COUNT_SW_DUMMY);
			a.read_format = formats[i];
			a.sample_type = types[j];
			fds[0] = sys_open(&a, 0, -1, -1, 0);
			if (fds[0] < 0)
				continue;
			while (n + 1 < (int)ARRAY_SIZE(fds)) {
				ret = sys_open(&a, 0, -1, fds[0], 0);
				if (ret < 0)
					break;
				fds[++n] = ret;
			}
			snprintf(key, sizeof(key),
				 "security.group_max.format%#llx.type%#llx",
				 (unsigned long long)formats[i],
				 (unsigned long long)types[j]);
			say(key, "%d %s", n, res(ret < 0 ? ret : 0));
			for (k = 0; k <= n; k++)
				close(fds[k]);
		}
	}
}

/*
 * On a hybrid part the generic hardware events are cpu_core's, which count
 * on its CPUs only: the observer runs on the first of them, where the
 * scheduler would otherwise put it wherever the kernel's own placement
 * leads (one kernel's observer on a P-core, the other's on an E-core).
 */
static void pin_hybrid(void)
{
	cpu_set_t set;
	FILE *f = fopen("/sys/bus/event_source/devices/cpu_core/cpus", "r");
	int cpu;

	if (!f)
		return;
	if (fscanf(f, "%d", &cpu) == 1) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	long rate;

	(void)argc;
	(void)argv;
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGTRAP, ignore_sigtrap);
	pin_hybrid();
	find_tracepoint();
	rate = read_sysctl("/proc/sys/kernel/perf_event_max_sample_rate");
	say("observe.start", "tracepoint %s, pmus %d", tp_sched_switch > 0 ?
	    "yes" : "no", pmu_type("software") >= 0);
	observe_sysctls();
	observe_flags();
	observe_sample_bits();
	observe_sample_sizes();
	observe_read_formats();
	observe_types();
	observe_targets();
	observe_fields();
	observe_permissions();
	observe_ioctls();
	observe_modify_sw();
	observe_modify_bp();
	observe_mmap();
	observe_records();
	observe_ring_edges();
	observe_callchains();
	observe_timer_callchain();
	observe_fp_walks();
	observe_hardware();
	observe_flexible();
	observe_branch_bits();
	observe_page_groups();
	observe_exclusive();
	observe_open_order();
	observe_x86_pmu();
	observe_scope();
	observe_freq();
	observe_aux_pmu();
	observe_kprobe_pmu();
	observe_uprobe();
	observe_bpf();
	observe_security();
	observe_sysfs();
	observe_sysctl_writes();
	write_sysctl("/proc/sys/kernel/perf_event_max_sample_rate", rate);
	say("observe.done", "ok");
	return 0;
}
