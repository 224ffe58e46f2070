/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bpf() system call for the tests that load BPF programs on perf
 * events without libbpf (bpf_programs, uprobe_pmu): the call itself and
 * array-like maps with u32 keys.  Include after <linux/bpf.h>.
 */
#ifndef PERF_EVENTS_BPF_HELPERS_H
#define PERF_EVENTS_BPF_HELPERS_H

#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

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

#endif
