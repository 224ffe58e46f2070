/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest programs of bench/pmu-encodings.sh share on a hybrid
 * part: each core type's PMU (cpu_core, cpu_atom) and a CPU of its type.
 */
#ifndef BENCH_PMU_HYBRID_H
#define BENCH_PMU_HYBRID_H

#include <sched.h>
#include <stdio.h>

/* hybrid PMU @name's type and the first of its CPUs: 0, or -1 */
static int hybrid_pmu(const char *name, int *type, int *cpu)
{
	char path[96];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
		 name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fscanf(f, "%d", type) == 1;
	fclose(f);
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/cpus",
		 name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = ok && fscanf(f, "%d", cpu) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/* run on CPU @cpu only */
static void pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

#endif /* BENCH_PMU_HYBRID_H */
