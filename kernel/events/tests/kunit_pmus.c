// SPDX-License-Identifier: GPL-2.0
/*
 * What the KUnit suites of the core share about their fake PMUs: the
 * callbacks that only start and stop an event, and the registration of a
 * suite's PMUs, all of them or none.
 *
 * Locking: registration runs from suite init and exit, in process context.
 */
#include "../internal.h"

void perf_kunit_pmu_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
}

void perf_kunit_pmu_stop(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
}

void perf_kunit_unregister_pmus(const struct perf_kunit_pmu *pmus, int nr)
{
	while (nr--)
		perf_pmu_unregister(pmus[nr].pmu);
}

int perf_kunit_register_pmus(const struct perf_kunit_pmu *pmus, int nr)
{
	int i, ret;

	for (i = 0; i < nr; i++) {
		ret = perf_pmu_register(pmus[i].pmu, pmus[i].name, -1);
		if (ret) {
			perf_kunit_unregister_pmus(pmus, i);
			return ret;
		}
	}
	return 0;
}
