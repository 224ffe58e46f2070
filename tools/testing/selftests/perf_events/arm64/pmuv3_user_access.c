// SPDX-License-Identifier: GPL-2.0
/*
 * User-space counter access on the arm64 PMUv3: the kernel.perf_user_access
 * sysctl (0 or 1 only); events asking for access (config1 rdpmc bit)
 * opening and counting whether or not the sysctl allows it; CPU-wide
 * events refused access; and, through the user page, the counter read
 * with mrs in the documented sequence loop, agreeing with read(), and
 * trapping with the sysctl off.
 *
 * EL0 access is a switch of the CPU, as on stock: set whenever events are
 * scheduled there, on when the task running has events asking for access
 * (enabled or not), else off, and left as it is when no event is on the
 * CPU: then whoever runs there (a forked child, an exec'd program, a
 * thread, the task after closing its event) can read the counters, until
 * other events are scheduled there or the sysctl is turned off.  Mapping
 * the event plays no part.
 */
#include "pmuv3_helpers.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../../kselftest_harness.h"

#define USER_ACCESS	"/proc/sys/kernel/perf_user_access"

FIXTURE(pmuv3) {
	struct pmuv3_info pmu;
	long saved;
};

FIXTURE_SETUP(pmuv3)
{
	self->saved = -1;
	if (pmuv3_find(&self->pmu))
		SKIP(return, "no PMUv3 PMU");
	if (read_int_file(USER_ACCESS, &self->saved))
		SKIP(return, "no " USER_ACCESS);
	if (write_int_file(USER_ACCESS, self->saved))
		SKIP(return, "cannot write " USER_ACCESS);
	pin_to_cpu(0);
}

FIXTURE_TEARDOWN(pmuv3)
{
	if (self->saved >= 0)
		write_int_file(USER_ACCESS, self->saved);
}

TEST_F(pmuv3, sysctl_range)
{
	long v;

	EXPECT_EQ(0, write_int_file(USER_ACCESS, 1));
	EXPECT_EQ(0, read_int_file(USER_ACCESS, &v));
	EXPECT_EQ(1, v);
	EXPECT_EQ(0, write_int_file(USER_ACCESS, 0));
	EXPECT_EQ(0, read_int_file(USER_ACCESS, &v));
	EXPECT_EQ(0, v);
	EXPECT_EQ(-EINVAL, write_int_file(USER_ACCESS, 2));
	EXPECT_EQ(-EINVAL, write_int_file(USER_ACCESS, -1));
	EXPECT_EQ(0, read_int_file(USER_ACCESS, &v));
	EXPECT_EQ(0, v);
}

/*
 * The user page of an event that did not ask for access (sysctl on or
 * off): no rdpmc capability and no counter width, as on stock.
 */
TEST_F(pmuv3, plain_event_page_has_no_width)
{
	struct perf_event_mmap_page *pc;
	struct perf_event_attr attr;
	long page = sysconf(_SC_PAGESIZE);
	int fd, on;

	for (on = 0; on < 2; on++) {
		ASSERT_EQ(0, write_int_file(USER_ACCESS, on));
		hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
		attr.exclude_kernel = 1;
		fd = open_attr(&attr, -1);
		ASSERT_LE(0, fd);
		pc = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
		ASSERT_NE(MAP_FAILED, pc);
		EXPECT_EQ(0, (int)pc->cap_user_rdpmc);
		EXPECT_EQ(0, pc->pmc_width);
		munmap(pc, page);
		close(fd);
	}
}

/* rdpmc (and rdpmc + long) events count like any other, sysctl on or off */
TEST_F(pmuv3, rdpmc_events_count)
{
	struct perf_event_attr attr;
	uint64_t plain = 0, count;
	int on, config1, fd;

	for (on = 0; on <= 1; on++) {
		ASSERT_EQ(0, write_int_file(USER_ACCESS, on));
		for (config1 = 0; config1 <= 3; config1++) {
			hw_attr(&attr, self->pmu.type, EV_INST_RETIRED);
			attr.config1 = config1;
			attr.exclude_kernel = 1;
			fd = open_attr(&attr, -1);
			ASSERT_LE(0, fd) TH_LOG("sysctl %d config1 %d: %s", on,
						config1, strerror(-fd));
			count = count_loop(fd, 100000, 3);
			close(fd);
			if (!plain)
				plain = count;
			EXPECT_EQ(plain, count) TH_LOG("sysctl %d config1 %d",
						       on, config1);
		}
	}
}

/*
 * Access is for self-monitoring tasks: a CPU-wide event asking for it is
 * invalid, whether or not the sysctl allows access.
 */
TEST_F(pmuv3, rdpmc_cpu_event)
{
	struct perf_event_attr attr;
	int on, fd;

	for (on = 0; on <= 1; on++) {
		ASSERT_EQ(0, write_int_file(USER_ACCESS, on));
		hw_attr(&attr, self->pmu.type, EV_CPU_CYCLES);
		attr.config1 = 2;
		fd = sys_perf_event_open(&attr, -1, 0, -1, 0);
		if (fd < 0 && errno == EACCES)
			SKIP(return, "CPU-wide events not permitted");
		EXPECT_EQ(-1, fd);
		EXPECT_EQ(EINVAL, errno) TH_LOG("sysctl %d", on);
		if (fd >= 0)
			close(fd);
	}
}

#ifdef __aarch64__
/* Counter @idx (0-based) at EL0: PMCCNTR_EL0, or through PMSELR_EL0. */
static uint64_t read_pmc(unsigned int idx)
{
	uint64_t v;

	if (idx == 31) {
		__asm__ __volatile__("mrs %0, pmccntr_el0" : "=r"(v));
		return v;
	}
	__asm__ __volatile__("msr pmselr_el0, %1\n"
			     "isb\n"
			     "mrs %0, pmxevcntr_el0"
			     : "=r"(v) : "r"((uint64_t)idx));
	return v;
}
#else
static uint64_t read_pmc(unsigned int idx)
{
	return 0;
}
#endif

struct user_read {
	uint64_t count;
	uint32_t index;
	uint16_t width;
	int cap;
};

/* The documented loop: retry until the page did not change under us. */
static void user_read(struct perf_event_mmap_page *pc, struct user_read *r)
{
	uint32_t seq;
	uint64_t pmc;

	do {
		seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		r->index = pc->index;
		r->count = pc->offset;
		r->cap = pc->cap_user_rdpmc;
		r->width = pc->pmc_width;
		if (r->cap && r->index) {
			pmc = read_pmc(r->index - 1);
			pmc <<= 64 - r->width;
			r->count += (uint64_t)((int64_t)pmc >> (64 - r->width));
		}
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	} while (__atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE) != seq);
}

static sigjmp_buf trap_jmp;

static void on_sigill(int sig)
{
	siglongjmp(trap_jmp, 1);
}

/*
 * Counter @idx at EL0 around 2000 instructions: -1 when the read traps,
 * else whether it changed, with the first value in *@val.
 */
static int pmc_probe(unsigned int idx, uint64_t *val)
{
	struct sigaction sa = { .sa_handler = on_sigill }, old;
	static uint64_t first;	/* static: kept across siglongjmp() */
	int ret = -1;

	first = 0;
	sigaction(SIGILL, &sa, &old);
	if (!sigsetjmp(trap_jmp, 1)) {
		first = read_pmc(idx);
		insn_loop(1000);
		ret = read_pmc(idx) != first;
	}
	sigaction(SIGILL, &old, NULL);
	if (val)
		*val = first;
	return ret;
}

/* Whether reading the cycle counter at EL0 traps. */
static int pmc_traps(void)
{
	return pmc_probe(31, NULL) < 0;
}

/* Open @config (own type) with the rdpmc bit on this task and map it. */
static int open_mapped(long type, __u64 config, __u64 config1,
		       struct perf_event_mmap_page **pc)
{
	struct perf_event_attr attr;
	void *page;
	int fd;

	hw_attr(&attr, type, config);
	attr.config1 = config1;
	attr.exclude_kernel = 1;
	fd = open_attr(&attr, -1);
	if (fd < 0)
		return fd;
	page = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED) {
		close(fd);
		return -ENODEV;
	}
	*pc = page;
	return fd;
}

/* The same, with a mapped event of each kind. */
FIXTURE(mapped) {
	struct pmuv3_info pmu;
	long saved;
	int fd;
	struct perf_event_mmap_page *pc;
};

/* the fixture's data and variant, as the helpers below take them */
#define MAPPED_DATA	FIXTURE_DATA(mapped)
#define MAPPED_VARIANT	FIXTURE_VARIANT(mapped)

FIXTURE_VARIANT(mapped) {
	__u64 config;
	__u64 config1;
	int width;
};

FIXTURE_SETUP(mapped)
{
	self->saved = -1;
	self->fd = -1;
	if (pmuv3_find(&self->pmu))
		SKIP(return, "no PMUv3 PMU");
	if (read_int_file(USER_ACCESS, &self->saved))
		SKIP(return, "no " USER_ACCESS);
	if (write_int_file(USER_ACCESS, self->saved))
		SKIP(return, "cannot write " USER_ACCESS);
	pin_to_cpu(0);
	self->fd = open_mapped(self->pmu.type, variant->config,
			       variant->config1, &self->pc);
	if (self->fd == -ENODEV)
		SKIP(return, "the event cannot be mapped");
	if (self->fd >= 0) {
		munmap(self->pc, sysconf(_SC_PAGESIZE));
		close(self->fd);
		self->fd = -1;
	}
}

FIXTURE_TEARDOWN(mapped)
{
	if (self->fd >= 0) {
		munmap(self->pc, sysconf(_SC_PAGESIZE));
		close(self->fd);
	}
	if (self->saved >= 0)
		write_int_file(USER_ACCESS, self->saved);
}

/*
 * Set the sysctl to @access, then open the variant's event into self->fd
 * and map its page at self->pc.  Returns the fd or a negative errno (the
 * setup skipped the variants that cannot be mapped).
 */
static int map_with_access(MAPPED_DATA *self,
			   const MAPPED_VARIANT *variant, int access)
{
	if (write_int_file(USER_ACCESS, access))
		return -EIO;
	self->fd = open_mapped(self->pmu.type, variant->config,
			       variant->config1, &self->pc);
	return self->fd;
}

FIXTURE_VARIANT_ADD(mapped, instructions) {
	.config = EV_INST_RETIRED, .config1 = 2, .width = 32,
};

FIXTURE_VARIANT_ADD(mapped, instructions_long) {
	.config = EV_INST_RETIRED, .config1 = 3, .width = 64,
};

FIXTURE_VARIANT_ADD(mapped, cycles) {
	.config = EV_CPU_CYCLES, .config1 = 2, .width = 32,
};

/*
 * With the sysctl on, count 100,000 loop turns (with @reset, reset the
 * event after them and count as many again), then read the count from
 * user space into @r and with read() into @count.  Returns 0 or -errno.
 */
static int count_mapped(MAPPED_DATA *self,
			const MAPPED_VARIANT *variant, bool reset,
			struct user_read *r, uint64_t *count)
{
	int fd = map_with_access(self, variant, 1);

	if (fd < 0)
		return fd;
	insn_loop(100000);
	if (reset) {
		if (ioctl(fd, PERF_EVENT_IOC_RESET, 0))
			return -errno;
		insn_loop(100000);
	}
	user_read(self->pc, r);
	if (read(fd, count, sizeof(*count)) != sizeof(*count))
		return -EIO;
	return 0;
}

/* With the sysctl on, mrs in the sequence loop agrees with read(). */
TEST_F(mapped, mrs_matches_read)
{
	struct user_read r;
	uint64_t count;
	int err;

	err = count_mapped(self, variant, false, &r, &count);
	ASSERT_EQ(0, err) TH_LOG("%s", strerror(-err));
	TH_LOG("index %u width %u cap %d: user %llu, read() %llu", r.index,
	       r.width, r.cap, (unsigned long long)r.count,
	       (unsigned long long)count);
	EXPECT_EQ(1, r.cap);
	EXPECT_LT(0, r.index);
	EXPECT_GE(32, r.index);
	EXPECT_EQ(variant->width, r.width);
	EXPECT_LE(200000, r.count);
	EXPECT_LE(r.count, count);
	EXPECT_GT(r.count + 200, count);
}

/*
 * PERF_EVENT_IOC_RESET restarts the count that user space reads too: after
 * 100,000 loop turns, a reset and as many again, the page and the counter
 * give the count since the reset, as read() does.
 */
TEST_F(mapped, reset_restarts_user_count)
{
	struct user_read r;
	uint64_t count;
	int err;

	err = count_mapped(self, variant, true, &r, &count);
	ASSERT_EQ(0, err) TH_LOG("%s", strerror(-err));
	TH_LOG("after reset: user %llu, read() %llu",
	       (unsigned long long)r.count, (unsigned long long)count);
	/*
	 * With a 32-bit counter stock's page gives the count less 2^32 (its
	 * offset takes the counter unsigned where the reader sign-extends
	 * it); the series gives the count.  Only the low 32 bits must agree.
	 */
	if (r.width < 64)
		r.count &= 0xffffffffULL;
	EXPECT_LT(0, r.index);
	EXPECT_LE(200000, r.count);
	EXPECT_GT(400000, r.count);
	EXPECT_LE(r.count, count);
	EXPECT_GT(r.count + 200, count);
}

/*
 * With the sysctl off the page still says the event asked for access
 * (cap_user_rdpmc), but gives no counter index, and the counters trap.
 */
TEST_F(mapped, sysctl_off_denies)
{
	struct user_read r;
	int fd;

	fd = map_with_access(self, variant, 0);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(-fd));
	insn_loop(1000);
	user_read(self->pc, &r);
	EXPECT_EQ(1, r.cap);
	EXPECT_EQ(0, r.index);
	EXPECT_EQ(1, pmc_traps());
}

/*
 * EL0 access as a switch of the CPU.  Each case starts on CPU 0 with the
 * sysctl on and access turned on there by a counting cycles event of this
 * task that asks for it (not mapped: mapping plays no part).
 */
#define CHILD_ENV	"PMUV3_USER_ACCESS_CHILD"

/*
 * The exec'd child of exec_child_reads: reports through its exit status
 * what pmc_probe() of the cycle counter said (0 trap, 1 still, 2 counting).
 */
__attribute__((constructor)) static void exec_child(void)
{
	if (getenv(CHILD_ENV))
		_exit(pmc_probe(31, NULL) + 1);
}

FIXTURE(cpu_switch) {
	struct pmuv3_info pmu;
	long saved;
	int fd;
};

FIXTURE_SETUP(cpu_switch)
{
	struct perf_event_attr attr;

	self->saved = -1;
	self->fd = -1;
	if (pmuv3_find(&self->pmu))
		SKIP(return, "no PMUv3 PMU");
	if (read_int_file(USER_ACCESS, &self->saved))
		SKIP(return, "no " USER_ACCESS);
	if (write_int_file(USER_ACCESS, 1))
		SKIP(return, "cannot write " USER_ACCESS);
	pin_to_cpu(0);
	hw_attr(&attr, self->pmu.type, EV_CPU_CYCLES);
	attr.config1 = 2;
	attr.exclude_kernel = 1;
	self->fd = open_attr(&attr, -1);
	ASSERT_LE(0, self->fd) TH_LOG("%s", strerror(-self->fd));
	ASSERT_EQ(1, pmc_probe(31, NULL));
}

FIXTURE_TEARDOWN(cpu_switch)
{
	if (self->fd >= 0)
		close(self->fd);
	if (self->saved >= 0)
		write_int_file(USER_ACCESS, self->saved);
}

/* pmc_probe(31) in a forked child on CPU @cpu, or -2 if that failed */
static int child_probe(int cpu)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -2;
	if (!pid) {
		pin_to_cpu(cpu);
		_exit(pmc_probe(31, NULL) + 1);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -2;
	return WEXITSTATUS(status) - 1;
}

struct thread_probe {
	int cpu;
	long type;	/* PMU of a plain event the thread counts, or -1 */
	int ret;
};

static void *thread_probe_fn(void *arg)
{
	struct thread_probe *tp = arg;
	struct perf_event_attr attr;
	int fd = -1;

	pin_to_cpu(tp->cpu);
	if (tp->type >= 0) {
		hw_attr(&attr, tp->type, EV_INST_RETIRED);
		fd = open_attr(&attr, -1);
		if (fd < 0)
			return NULL;
	}
	tp->ret = pmc_probe(31, NULL);
	if (fd >= 0)
		close(fd);
	return NULL;
}

/*
 * pmc_probe(31) in a new thread on CPU @cpu, a separate task with no
 * events but, if @type >= 0, a plain counting event of that PMU.
 */
static int thread_probe(int cpu, long type)
{
	struct thread_probe tp = { cpu, type, -2 };
	pthread_t t;

	if (pthread_create(&t, NULL, thread_probe_fn, &tp))
		return -2;
	pthread_join(t, NULL);
	return tp.ret;
}

/* A child forked on the same CPU reads, but the event does not count it. */
TEST_F(cpu_switch, fork_child_reads)
{
	EXPECT_EQ(0, child_probe(0));
}

/* So does a program the child execs. */
TEST_F(cpu_switch, exec_child_reads)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		setenv(CHILD_ENV, "1", 1);
		execl("/proc/self/exe", "pmuv3_user_access", (char *)NULL);
		_exit(127);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(1, WEXITSTATUS(status));
}

/*
 * A thread without events reads on the same CPU; one with a plain event of
 * its own traps there, and so does one on a CPU where access was ended.
 */
TEST_F(cpu_switch, threads)
{
	EXPECT_EQ(0, thread_probe(0, -1));
	EXPECT_EQ(-1, thread_probe(0, self->pmu.type));
	EXPECT_EQ(1, pmc_probe(31, NULL));
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return;
	EXPECT_EQ(-1, thread_probe(1, self->pmu.type));
	EXPECT_EQ(-1, thread_probe(1, -1));
}

/*
 * Access goes with the task's events asking for it, enabled or not: with
 * that event disabled, a plain event of the task still gets access (and
 * the cycle counter, which no event uses, reads zero).
 */
TEST_F(cpu_switch, disabled_event_still_grants)
{
	struct perf_event_attr attr;
	uint64_t v = 1;
	int fd;

	hw_attr(&attr, self->pmu.type, EV_INST_RETIRED);
	attr.disabled = 1;
	fd = open_attr(&attr, -1);
	ASSERT_LE(0, fd);
	ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	EXPECT_EQ(0, pmc_probe(31, &v));
	EXPECT_EQ(0, v);
	close(fd);
}

/*
 * Disabling, unmapping and closing the event leave access on; the
 * counter stops when the event does.
 */
TEST_F(cpu_switch, access_outlives_the_event)
{
	void *page;

	page = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED,
		    self->fd, 0);
	ASSERT_NE(MAP_FAILED, page);
	ASSERT_EQ(0, munmap(page, sysconf(_SC_PAGESIZE)));
	EXPECT_EQ(1, pmc_probe(31, NULL));
	ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0);
	EXPECT_EQ(0, pmc_probe(31, NULL));
	ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0);
	EXPECT_EQ(1, pmc_probe(31, NULL));
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(0, pmc_probe(31, NULL));
	usleep(10000);
	EXPECT_EQ(0, pmc_probe(31, NULL));
}

/* An event without access scheduled on the CPU ends it there. */
TEST_F(cpu_switch, plain_event_ends_access)
{
	struct perf_event_attr attr;
	int fd;

	close(self->fd);
	self->fd = -1;
	hw_attr(&attr, self->pmu.type, EV_INST_RETIRED);
	attr.disabled = 1;
	fd = open_attr(&attr, -1);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, pmc_probe(31, NULL));
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	EXPECT_EQ(-1, pmc_probe(31, NULL));
	close(fd);
	EXPECT_EQ(-1, pmc_probe(31, NULL));
}

/* With an event asking for access among others, access stays on. */
TEST_F(cpu_switch, mixed_events_keep_access)
{
	struct perf_event_attr attr;
	int fd;

	hw_attr(&attr, self->pmu.type, EV_INST_RETIRED);
	fd = open_attr(&attr, -1);
	ASSERT_LE(0, fd);
	EXPECT_EQ(1, pmc_probe(31, NULL));
	close(fd);
}

/* Counters no event uses read zero while access is granted. */
TEST_F(cpu_switch, unused_counters_read_zero)
{
	struct perf_event_attr attr;
	uint64_t v;
	int fd;

	close(self->fd);
	self->fd = -1;
	/* leave a count on an event counter */
	hw_attr(&attr, self->pmu.type, EV_INST_RETIRED);
	attr.config1 = 2;
	attr.exclude_kernel = 1;
	fd = open_attr(&attr, -1);
	ASSERT_LE(0, fd);
	insn_loop(1000);
	close(fd);
	ASSERT_EQ(0, pmc_probe(0, &v));
	EXPECT_NE(0, v);
	/* a cycles event does not use it: it reads zero */
	hw_attr(&attr, self->pmu.type, EV_CPU_CYCLES);
	attr.config1 = 2;
	attr.exclude_kernel = 1;
	self->fd = open_attr(&attr, -1);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(0, pmc_probe(0, &v));
	EXPECT_EQ(0, v);
}

/* Turning the sysctl off ends access at once, on every CPU. */
TEST_F(cpu_switch, sysctl_off_ends_access_everywhere)
{
	int two = sysconf(_SC_NPROCESSORS_ONLN) >= 2;
	struct perf_event_attr attr;
	int fd;

	if (two) {
		/* access on CPU 1 too, left there by an event now closed */
		pin_to_cpu(1);
		hw_attr(&attr, self->pmu.type, EV_CPU_CYCLES);
		attr.config1 = 2;
		attr.exclude_kernel = 1;
		fd = open_attr(&attr, -1);
		ASSERT_LE(0, fd);
		close(fd);
		pin_to_cpu(0);
		EXPECT_EQ(0, thread_probe(1, -1));
	}
	ASSERT_EQ(0, write_int_file(USER_ACCESS, 0));
	EXPECT_EQ(-1, pmc_probe(31, NULL));
	if (two)
		EXPECT_EQ(-1, thread_probe(1, -1));
	/* turned on again, it is granted when the event is next scheduled */
	ASSERT_EQ(0, write_int_file(USER_ACCESS, 1));
	ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0);
	EXPECT_EQ(1, pmc_probe(31, NULL));
}

TEST_HARNESS_MAIN
