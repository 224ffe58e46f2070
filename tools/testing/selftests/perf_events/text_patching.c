// SPDX-License-Identifier: GPL-2.0
/*
 * Live code patching driven by perf, under load.  Opening and closing
 * events flips static keys and static calls in the scheduler's hot path:
 * the key and static call of a tracepoint with its first and last perf
 * user (sched:sched_switch and other sched events), the key of the
 * context-switch software event, the keys of context switch and comm
 * tracking.  On x86 every flip writes a temporary int3 over each site.
 * Here pairs of threads ping-pong over pipes, one thread of a pair pinned
 * to each CPU and its partner to the next, so every CPU switches (to the
 * partner's wake-up, to idle) all the time and runs through those sites,
 * while the test opens, enables, disables and closes the events again and
 * again for a fixed time.  (Not both threads of a pair on one CPU: a CPU
 * that never idles delays RCU grace periods, and every close of the last
 * user of a tracepoint waits for one.)
 * A site executed when it should not be oopses the kernel, which the
 * workbench sees in the log; the test itself checks that the events
 * count while enabled, not while disabled, and that both sides moved.
 * Needs root (CPU-wide tracepoint events; tracefs is mounted if it is
 * not).  TEXT_PATCHING_SECONDS in the environment sets the time.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mount.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define MAX_CPUS	8
#define SECONDS_ENV	"TEXT_PATCHING_SECONDS"
#define SECONDS_DEFAULT	15
#define SECONDS_MAX	90
/* the sched events opened with sched_switch each round, if present */
static const char *const extra_tps[] = {
	"sched/sched_wakeup", "sched/sched_waking", "sched/sched_stat_runtime",
};

#define NR_EXTRA	ARRAY_SIZE(extra_tps)

/* Two threads on two CPUs, waking each other through two pipes. */
struct pingpong {
	int cpu, pong_cpu;
	int to_pong[2], to_ping[2];
	pthread_t ping, pong;
	int running;		/* threads created */
	pid_t pong_tid;		/* published by the pong thread */
	unsigned long trips;	/* round trips, counted by ping */
	int *stop;
};

static void pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *ping_fn(void *arg)
{
	struct pingpong *pp = arg;
	char c = 'p';

	pin_self(pp->cpu);
	while (!__atomic_load_n(pp->stop, __ATOMIC_RELAXED)) {
		if (write(pp->to_pong[1], &c, 1) != 1 ||
		    read(pp->to_ping[0], &c, 1) != 1)
			break;
		__atomic_store_n(&pp->trips, pp->trips + 1, __ATOMIC_RELAXED);
	}
	/* end of file: the pong thread leaves its loop */
	close(pp->to_pong[1]);
	pp->to_pong[1] = -1;
	return NULL;
}

static void *pong_fn(void *arg)
{
	struct pingpong *pp = arg;
	char c;

	pin_self(pp->pong_cpu);
	__atomic_store_n(&pp->pong_tid, gettid(), __ATOMIC_RELEASE);
	while (read(pp->to_pong[0], &c, 1) == 1)
		if (write(pp->to_ping[1], &c, 1) != 1)
			break;
	return NULL;
}

static unsigned long trips(struct pingpong *pp)
{
	return __atomic_load_n(&pp->trips, __ATOMIC_RELAXED);
}

static void close_pipe(int p[2])
{
	for (int i = 0; i < 2; i++) {
		if (p[i] >= 0)
			close(p[i]);
		p[i] = -1;
	}
}

static int seconds_to_run(void)
{
	const char *s = getenv(SECONDS_ENV);
	int n = s ? atoi(s) : SECONDS_DEFAULT;

	if (n < 1)
		n = SECONDS_DEFAULT;
	return n > SECONDS_MAX ? SECONDS_MAX : n;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Context switches of @tid, with switch and comm records asked for. */
static int open_switches(pid_t tid)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	attr.disabled = 1;
	attr.context_switch = 1;
	attr.comm = 1;
	fd = sys_perf_event_open(&attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

FIXTURE(patching) {
	int ncpu, stop;
	long sched_switch;
	long extra[NR_EXTRA];
	struct pingpong pp[MAX_CPUS];
};

FIXTURE_SETUP(patching)
{
	cpu_set_t online;
	int cpu;

	for (int i = 0; i < MAX_CPUS; i++) {
		for (int end = 0; end < 2; end++) {
			self->pp[i].to_pong[end] = -1;
			self->pp[i].to_ping[end] = -1;
		}
	}
	if (geteuid() != 0)
		SKIP(return, "needs root for CPU-wide tracepoint events");
	self->sched_switch = trace_event_id("sched/sched_switch");
	if (self->sched_switch < 0)
		SKIP(return, "no tracefs or no sched:sched_switch");
	for (unsigned int i = 0; i < NR_EXTRA; i++)
		self->extra[i] = trace_event_id(extra_tps[i]);

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(online), &online));
	for (cpu = 0; cpu < CPU_SETSIZE && self->ncpu < MAX_CPUS; cpu++)
		if (CPU_ISSET(cpu, &online))
			self->pp[self->ncpu++].cpu = cpu;
	for (int i = 0; i < self->ncpu; i++) {
		struct pingpong *pp = &self->pp[i];

		pp->pong_cpu = self->pp[(i + 1) % self->ncpu].cpu;
		pp->stop = &self->stop;
		ASSERT_EQ(0, pipe(pp->to_pong));
		ASSERT_EQ(0, pipe(pp->to_ping));
		ASSERT_EQ(0, pthread_create(&pp->pong, NULL, pong_fn, pp));
		if (pthread_create(&pp->ping, NULL, ping_fn, pp)) {
			close(pp->to_pong[1]);
			pp->to_pong[1] = -1;
			pthread_join(pp->pong, NULL);
			ASSERT_TRUE(0);
		}
		pp->running = 1;
	}
	for (int i = 0; i < self->ncpu; i++)
		while (!__atomic_load_n(&self->pp[i].pong_tid, __ATOMIC_ACQUIRE))
			usleep(1000);
}

FIXTURE_TEARDOWN(patching)
{
	__atomic_store_n(&self->stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < MAX_CPUS; i++) {
		struct pingpong *pp = &self->pp[i];

		if (pp->running) {
			pthread_join(pp->ping, NULL);
			pthread_join(pp->pong, NULL);
		}
		close_pipe(pp->to_pong);
		close_pipe(pp->to_ping);
	}
}

/* The events of one round, all opened disabled. */
struct round {
	int nfd;
	int fd[MAX_CPUS * (2 + NR_EXTRA)];
	int tp[MAX_CPUS];	/* sched_switch on each CPU */
	int sw[MAX_CPUS];	/* context switches of each pong thread */
};

static void close_round(struct round *r)
{
	for (int i = 0; i < r->nfd; i++)
		close(r->fd[i]);
	r->nfd = 0;
}

static int ioctl_all(struct round *r, unsigned long cmd)
{
	for (int i = 0; i < r->nfd; i++)
		if (ioctl(r->fd[i], cmd, 0))
			return -errno;
	return 0;
}

/*
 * Flip the keys for the set time.  Each round: open (the keys go on),
 * enable, wait until every CPU's sched_switch event and every pong
 * thread's switch event counted, disable, check that the counts stay,
 * close (the keys go off once the last user is gone).
 */
TEST_F_TIMEOUT(patching, flip_under_switches, SECONDS_MAX + 20)
{
	unsigned long before[MAX_CPUS], rounds = 0;
	int secs = seconds_to_run();
	double end = now() + secs;
	struct round r = { 0 };
	int64_t a, b;

	for (int i = 0; i < self->ncpu; i++)
		before[i] = trips(&self->pp[i]);
	while (now() < end) {
		int ready = 0;

		for (int i = 0; i < self->ncpu; i++) {
			int cpu = self->pp[i].cpu;

			r.tp[i] = open_trace_event(self->sched_switch, -1, cpu);
			ASSERT_GE(r.tp[i], 0) TH_LOG("sched_switch on CPU %d", cpu);
			r.fd[r.nfd++] = r.tp[i];
			r.sw[i] = open_switches(self->pp[i].pong_tid);
			ASSERT_GE(r.sw[i], 0);
			r.fd[r.nfd++] = r.sw[i];
			for (unsigned int e = 0; e < NR_EXTRA; e++) {
				int fd;

				if (self->extra[e] < 0)
					continue;
				fd = open_trace_event(self->extra[e], -1, cpu);
				ASSERT_GE(fd, 0) TH_LOG("%s on CPU %d",
							extra_tps[e], cpu);
				r.fd[r.nfd++] = fd;
			}
		}
		ASSERT_EQ(0, ioctl_all(&r, PERF_EVENT_IOC_ENABLE));
		/* every CPU switches all the time: a few ms is plenty */
		for (int t = 0; t < 1000 && !ready; t++) {
			usleep(1000);
			ready = 1;
			for (int i = 0; i < self->ncpu; i++)
				if (read_count(r.tp[i]) <= 0 ||
				    read_count(r.sw[i]) <= 0)
					ready = 0;
		}
		for (int i = 0; i < self->ncpu; i++) {
			EXPECT_GT(read_count(r.tp[i]), 0)
				TH_LOG("sched_switch, CPU %d, round %lu",
				       self->pp[i].cpu, rounds);
			EXPECT_GT(read_count(r.sw[i]), 0)
				TH_LOG("switches of pong on CPU %d, round %lu",
				       self->pp[i].pong_cpu, rounds);
		}
		ASSERT_EQ(0, ioctl_all(&r, PERF_EVENT_IOC_DISABLE));
		for (int i = 0; i < self->ncpu; i++) {
			a = read_count(r.tp[i]);
			b = read_count(r.sw[i]);
			usleep(1000);
			EXPECT_EQ(a, read_count(r.tp[i]))
				TH_LOG("disabled sched_switch, CPU %d",
				       self->pp[i].cpu);
			EXPECT_EQ(b, read_count(r.sw[i]))
				TH_LOG("disabled switches, pong on CPU %d",
				       self->pp[i].pong_cpu);
		}
		close_round(&r);
		rounds++;
		if (_metadata->exit_code)
			break;
	}
	for (int i = 0; i < self->ncpu; i++) {
		unsigned long n = trips(&self->pp[i]) - before[i];

		TH_LOG("CPU %d to %d: %lu round trips", self->pp[i].cpu,
		       self->pp[i].pong_cpu, n);
		EXPECT_GT(n, rounds);
	}
	TH_LOG("%lu rounds in %d s on %d CPUs", rounds, secs, self->ncpu);
	EXPECT_GE(rounds, 10);
}

TEST_HARNESS_MAIN
