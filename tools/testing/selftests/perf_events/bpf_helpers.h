/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bpf() system call for the tests that load BPF programs on perf
 * events without libbpf (bpf_programs, uprobe_pmu): the call itself and
 * array-like maps with u32 keys, and the BPF_OUTPUT event programs write
 * samples to.  Include after <linux/bpf.h>.
 */
#ifndef PERF_EVENTS_BPF_HELPERS_H
#define PERF_EVENTS_BPF_HELPERS_H

#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sys/mman.h>

#include "perf_helpers.h"
#include "perf_records.h"

static inline int sys_bpf(int cmd, union bpf_attr *a)
{
	return syscall(__NR_bpf, cmd, a, sizeof(*a));
}

static inline int map_create(int type, int value_size, int entries)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = sizeof(uint32_t);
	a.value_size = value_size;
	a.max_entries = entries;
	return sys_bpf(BPF_MAP_CREATE, &a);
}

/*
 * A BPF_OUTPUT event of this task (every output a sample with its raw
 * data, a wakeup each) with an 8-page ring in @m, put at slot 0 of a new
 * perf event array, *@array.  The event's fd, or -1 with errno set.
 */
static inline int bpf_output_event(struct perf_map *m, int *array)
{
	struct perf_event_attr attr;
	uint32_t key = 0;
	union bpf_attr a;
	int out;

	*array = map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(uint32_t), 1);
	if (*array < 0)
		return -1;
	sw_attr(&attr, PERF_COUNT_SW_BPF_OUTPUT);
	attr.exclude_kernel = 0;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.wakeup_events = 1;
	out = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (out < 0 || perf_map_open(m, out, 8, PROT_READ | PROT_WRITE))
		return -1;
	memset(&a, 0, sizeof(a));
	a.map_fd = *array;
	a.key = (uintptr_t)&key;
	a.value = (uintptr_t)&out;
	return sys_bpf(BPF_MAP_UPDATE_ELEM, &a) ? -1 : out;
}

#endif
