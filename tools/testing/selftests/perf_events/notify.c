// SPDX-License-Identifier: GPL-2.0
/*
 * Notification of sampling events: poll() with wakeup_events and
 * wakeup_watermark, POLLHUP when the monitored task is gone, SIGIO through
 * fcntl(F_SETOWN, O_ASYNC) with a ring or without one, and the
 * synchronous SIGTRAP of attr.sigtrap.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"
#include "perf_records.h"

#define PAGE		((size_t)sysconf(_SC_PAGESIZE))

static int open_faults(pid_t pid, int wakeup_events, int watermark)
{
	struct perf_event_attr attr;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	if (watermark) {
		attr.watermark = 1;
		attr.wakeup_watermark = watermark;
	} else {
		attr.wakeup_events = wakeup_events;
	}
	return sys_perf_event_open(&attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static short poll_now(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, 0) < 0)
		return -1;
	return p.revents;
}

TEST(poll_wakeup_events)
{
	struct perf_map m;
	int fd = open_faults(0, 4, 0);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 8, PROT_READ | PROT_WRITE), 0);
	/* nothing written, nothing to report */
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	EXPECT_EQ(poll_now(fd), 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	touch_pages(2);
	EXPECT_EQ(poll_now(fd), 0) TH_LOG("woken before 4 samples");
	touch_pages(4);
	EXPECT_EQ(poll_now(fd), POLLIN);
	/* poll reports each wakeup once */
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	EXPECT_EQ(poll_now(fd), 0);
	perf_map_close(&m);
	close(fd);
}

TEST(poll_watermark)
{
	struct perf_map m;
	int fd = open_faults(0, 0, 1024);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 8, PROT_READ | PROT_WRITE), 0);
	/* 16-byte samples: the watermark is 64 of them */
	touch_pages(20);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	EXPECT_EQ(poll_now(fd), 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	touch_pages(80);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	EXPECT_EQ(poll_now(fd), POLLIN);
	perf_map_close(&m);
	close(fd);
}

/* A task's event reports POLLHUP once the task has exited. */
TEST(pollhup_on_exit)
{
	int go, status, fd;
	struct pollfd p;
	struct perf_map m;
	pid_t pid;

	pid = fork_held(&go);
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		touch_pages(4);
		_exit(0);
	}
	fd = open_faults(pid, 1000, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 8, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(release_child(go), 0);
	p.fd = fd;
	p.events = POLLIN;
	ASSERT_EQ(poll(&p, 1, 10000), 1);
	EXPECT_TRUE(p.revents & POLLHUP);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT_GT(perf_map_head(&m), 0);
	perf_map_close(&m);
	close(fd);
}

/* written by the handlers, read by the tests: atomics, not volatile */
static int sigio_count, sigio_code;

static void on_sigio(int sig, siginfo_t *info, void *uc)
{
	__atomic_add_fetch(&sigio_count, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&sigio_code, info->si_code, __ATOMIC_RELAXED);
}

static int load(int *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* SIGIO, with its siginfo, to this process at each wakeup of @fd. */
static int sigio_to_self(int fd)
{
	struct sigaction sa = { .sa_sigaction = on_sigio,
				.sa_flags = SA_SIGINFO };

	if (sigaction(SIGIO, &sa, NULL) ||
	    fcntl(fd, F_SETOWN, getpid()) || fcntl(fd, F_SETSIG, SIGIO))
		return -1;
	return fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC);
}

/* O_ASYNC: a signal per overflow, with POLL_IN, and POLL_HUP at REFRESH's end. */
TEST(sigio_on_overflow)
{
	struct perf_event_attr attr;
	struct perf_map m;
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.wakeup_events = 1;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(perf_map_open(&m, fd, 8, PROT_READ | PROT_WRITE), 0);
	ASSERT_EQ(sigio_to_self(fd), 0);

	__atomic_store_n(&sigio_count, 0, __ATOMIC_RELAXED);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	touch_pages(3);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	EXPECT_GE(load(&sigio_count), 3);
	EXPECT_EQ(load(&sigio_code), POLL_IN);

	__atomic_store_n(&sigio_count, 0, __ATOMIC_RELAXED);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_REFRESH, 2), 0);
	touch_pages(8);
	EXPECT_EQ(load(&sigio_count), 2);
	EXPECT_EQ(load(&sigio_code), POLL_HUP);
	perf_map_close(&m);
	close(fd);
}

/*
 * O_ASYNC without a ring (rr's way of counting): a signal per overflow
 * all the same, and the samples that had nowhere to go are not counted
 * as lost.
 */
TEST(sigio_without_ring)
{
	struct perf_event_attr attr;
	uint64_t val[2];
	int fd;

	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_READ;
	attr.read_format = PERF_FORMAT_LOST;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(sigio_to_self(fd), 0);

	__atomic_store_n(&sigio_count, 0, __ATOMIC_RELAXED);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	touch_pages(4);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	EXPECT_GE(load(&sigio_count), 4);
	EXPECT_EQ(load(&sigio_code), POLL_IN);
	ASSERT_EQ(read(fd, val, sizeof(val)), sizeof(val));
	EXPECT_GE(val[0], 4);
	EXPECT_EQ(val[1], 0);
	close(fd);
}

static int sigtrap_count, sigtrap_code, sigtrap_type;
static uint64_t sigtrap_data;

static void on_sigtrap(int sig, siginfo_t *info, void *uc)
{
	struct perf_siginfo *pi = (struct perf_siginfo *)info;

	__atomic_add_fetch(&sigtrap_count, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&sigtrap_code, info->si_code, __ATOMIC_RELAXED);
	__atomic_store_n(&sigtrap_data, pi->data, __ATOMIC_RELAXED);
	__atomic_store_n(&sigtrap_type, pi->type, __ATOMIC_RELAXED);
}

/* attr.sigtrap: SIGTRAP with TRAP_PERF and sig_data, per overflow. */
TEST(sigtrap_on_overflow)
{
	struct sigaction sa = { .sa_sigaction = on_sigtrap,
				.sa_flags = SA_SIGINFO };
	struct perf_event_attr attr;
	int fd;

	sigaction(SIGTRAP, &sa, NULL);
	sw_attr(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	attr.sig_data = 0xfeedf00d12345678ULL;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	__atomic_store_n(&sigtrap_count, 0, __ATOMIC_RELAXED);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	touch_pages(4);
	ASSERT_EQ(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	EXPECT_GE(load(&sigtrap_count), 4);
	EXPECT_EQ(load(&sigtrap_code), TRAP_PERF);
	EXPECT_EQ(__atomic_load_n(&sigtrap_data, __ATOMIC_RELAXED), 0xfeedf00d12345678ULL);
	EXPECT_EQ(load(&sigtrap_type), PERF_TYPE_SOFTWARE);
	close(fd);

	/* sigtrap needs remove_on_exec */
	attr.remove_on_exec = 0;
	EXPECT_EQ(sys_perf_event_open(&attr, 0, -1, -1, 0), -1);
	EXPECT_EQ(errno, EINVAL);
}

TEST_HARNESS_MAIN
