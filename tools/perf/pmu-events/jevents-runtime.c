// SPDX-License-Identifier: GPL-2.0
/*
 * jevents-runtime.c - the functions of pmu-events.h over the tables that
 * jevents generates.  Not compiled on its own: jevents copies the part
 * above the data marker to the top of the generated pmu-events.c, writes
 * the tables, then copies the rest.
 *
 * All text lives in one array, jev_str; a string is an offset into it, 0
 * meaning NULL.  An events table is a run of PMU groups; a group holds the
 * events of one PMU name sorted by name (compared ignoring case), so a
 * lookup tests each group's PMU with pmu__name_match() and then bisects.
 * A metrics table is a run of metrics.  Each mapfile line carries its own
 * pair of tables; the perf tool's strcmp_cpuid_str() decides which line
 * matches a CPUID, the earliest winning.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmu-events/pmu-events.h"
#include "util/header.h"
#include "util/pmu.h"

struct jev_event {
	uint32_t name, event, desc, long_desc, topic, unit, compat;
	uint8_t perpkg, deprecated;
};

struct jev_group {
	uint32_t pmu, first, nr;
};

struct jev_metric {
	uint32_t pmu, name, group, expr, threshold, unit, compat, desc,
		 long_desc, no_group, default_group;
	uint8_t aggr_mode, event_grouping;
};

struct pmu_events_table {
	uint32_t first_group, nr_groups;
};

struct pmu_metrics_table {
	uint32_t first, nr;
};

struct jev_map {
	uint32_t arch, cpuid;
	struct pmu_events_table events;
	struct pmu_metrics_table metrics;
};

struct jev_sys {
	uint32_t name;
	struct pmu_events_table events;
	struct pmu_metrics_table metrics;
};

struct jev_group_desc {
	uint32_t group, desc;
};

/* @DATA@ */

static const char *jev_s(uint32_t off)
{
	return off ? &jev_str[off] : NULL;
}

static void jev_decode_event(const struct jev_event *e,
			     const struct jev_group *g, struct pmu_event *pe)
{
	pe->name = jev_s(e->name);
	pe->compat = jev_s(e->compat);
	pe->event = jev_s(e->event);
	pe->desc = jev_s(e->desc);
	pe->topic = jev_s(e->topic);
	pe->long_desc = jev_s(e->long_desc);
	pe->pmu = jev_s(g->pmu);
	pe->unit = jev_s(e->unit);
	pe->perpkg = e->perpkg;
	pe->deprecated = e->deprecated;
}

static void jev_decode_metric(const struct jev_metric *m,
			      struct pmu_metric *pm)
{
	pm->pmu = jev_s(m->pmu);
	pm->metric_name = jev_s(m->name);
	pm->metric_group = jev_s(m->group);
	pm->metric_expr = jev_s(m->expr);
	pm->metric_threshold = jev_s(m->threshold);
	pm->unit = jev_s(m->unit);
	pm->compat = jev_s(m->compat);
	pm->desc = jev_s(m->desc);
	pm->long_desc = jev_s(m->long_desc);
	pm->metricgroup_no_group = jev_s(m->no_group);
	pm->default_metricgroup_name = jev_s(m->default_group);
	pm->aggr_mode = (enum aggr_mode_class)m->aggr_mode;
	pm->event_grouping = (enum metric_event_groups)m->event_grouping;
}

static bool jev_group_matches(const struct jev_group *g, struct perf_pmu *pmu)
{
	return !pmu || pmu__name_match(pmu, jev_s(g->pmu));
}

int pmu_events_table__for_each_event(const struct pmu_events_table *table,
				     struct perf_pmu *pmu,
				     pmu_event_iter_fn fn, void *data)
{
	for (uint32_t i = 0; i < table->nr_groups; i++) {
		const struct jev_group *g = &jev_groups[table->first_group + i];

		if (!jev_group_matches(g, pmu))
			continue;
		for (uint32_t k = 0; k < g->nr; k++) {
			struct pmu_event pe;
			int ret;

			jev_decode_event(&jev_events[g->first + k], g, &pe);
			ret = fn(&pe, table, data);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int pmu_events_table__find_event(const struct pmu_events_table *table,
				 struct perf_pmu *pmu, const char *name,
				 pmu_event_iter_fn fn, void *data)
{
	for (uint32_t i = 0; i < table->nr_groups; i++) {
		const struct jev_group *g = &jev_groups[table->first_group + i];
		uint32_t lo = 0, hi;

		if (!jev_group_matches(g, pmu))
			continue;
		hi = g->nr;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			const struct jev_event *e = &jev_events[g->first + mid];
			int r = strcasecmp(name, jev_s(e->name));
			struct pmu_event pe;

			if (r < 0) {
				hi = mid;
			} else if (r > 0) {
				lo = mid + 1;
			} else {
				if (!fn)
					return 0;
				jev_decode_event(e, g, &pe);
				return fn(&pe, table, data);
			}
		}
	}
	return PMU_EVENTS__NOT_FOUND;
}

size_t pmu_events_table__num_events(const struct pmu_events_table *table,
				    struct perf_pmu *pmu)
{
	size_t n = 0;

	for (uint32_t i = 0; i < table->nr_groups; i++) {
		const struct jev_group *g = &jev_groups[table->first_group + i];

		if (jev_group_matches(g, pmu))
			n += g->nr;
	}
	return n;
}

int pmu_metrics_table__for_each_metric(const struct pmu_metrics_table *table,
				       pmu_metric_iter_fn fn, void *data)
{
	for (uint32_t i = 0; i < table->nr; i++) {
		struct pmu_metric pm;
		int ret;

		jev_decode_metric(&jev_metrics[table->first + i], &pm);
		ret = fn(&pm, table, data);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The mapfile line for the CPU @pmu is on.  The last answer is kept: the
 * tool asks for every PMU, and each test compiles a regular expression.
 */
static const struct jev_map *jev_map_for(struct perf_pmu *pmu)
{
	static char *last_cpuid;
	static const struct jev_map *last_map;
	const struct jev_map *map = NULL;
	char *cpuid = perf_pmu__getcpuid(pmu);

	if (!cpuid)
		return NULL;
	if (last_cpuid && !strcmp(last_cpuid, cpuid)) {
		free(cpuid);
		return last_map;
	}
	for (size_t i = 0; i < JEV_NR_MAPS; i++) {
		if (!strcmp_cpuid_str(jev_s(jev_maps[i].cpuid), cpuid)) {
			map = &jev_maps[i];
			break;
		}
	}
	free(last_cpuid);
	last_cpuid = cpuid;
	last_map = map;
	return map;
}

const struct pmu_events_table *perf_pmu__find_events_table(struct perf_pmu *pmu)
{
	const struct jev_map *map = jev_map_for(pmu);

	if (!map)
		return NULL;
	/* A PMU gets the table only if some of its events are for it. */
	if (pmu && !pmu_events_table__num_events(&map->events, pmu))
		return NULL;
	return &map->events;
}

const struct pmu_metrics_table *perf_pmu__find_metrics_table(struct perf_pmu *pmu)
{
	const struct jev_map *map = jev_map_for(pmu);

	return map ? &map->metrics : NULL;
}

static const struct jev_map *jev_find_core(const char *arch, const char *cpuid)
{
	for (size_t i = 0; i < JEV_NR_MAPS; i++) {
		const struct jev_map *map = &jev_maps[i];

		if (!strcmp(jev_s(map->arch), arch) &&
		    !strcmp_cpuid_str(jev_s(map->cpuid), cpuid))
			return map;
	}
	return NULL;
}

const struct pmu_events_table *find_core_events_table(const char *arch,
						      const char *cpuid)
{
	const struct jev_map *map = jev_find_core(arch, cpuid);

	return map ? &map->events : NULL;
}

const struct pmu_metrics_table *find_core_metrics_table(const char *arch,
							const char *cpuid)
{
	const struct jev_map *map = jev_find_core(arch, cpuid);

	return map ? &map->metrics : NULL;
}

int pmu_for_each_core_event(pmu_event_iter_fn fn, void *data)
{
	for (size_t i = 0; i < JEV_NR_MAPS; i++) {
		int ret = pmu_events_table__for_each_event(&jev_maps[i].events,
							   NULL, fn, data);

		if (ret)
			return ret;
	}
	return 0;
}

int pmu_for_each_core_metric(pmu_metric_iter_fn fn, void *data)
{
	for (size_t i = 0; i < JEV_NR_MAPS; i++) {
		int ret = pmu_metrics_table__for_each_metric(&jev_maps[i].metrics,
							     fn, data);

		if (ret)
			return ret;
	}
	return 0;
}

const struct pmu_events_table *find_sys_events_table(const char *name)
{
	for (size_t i = 0; i < JEV_NR_SYS; i++)
		if (!strcmp(jev_s(jev_sys[i].name), name))
			return &jev_sys[i].events;
	return NULL;
}

const struct pmu_metrics_table *find_sys_metrics_table(const char *name)
{
	for (size_t i = 0; i < JEV_NR_SYS; i++)
		if (!strcmp(jev_s(jev_sys[i].name), name))
			return &jev_sys[i].metrics;
	return NULL;
}

int pmu_for_each_sys_event(pmu_event_iter_fn fn, void *data)
{
	for (size_t i = 0; i < JEV_NR_SYS; i++) {
		int ret = pmu_events_table__for_each_event(&jev_sys[i].events,
							   NULL, fn, data);

		if (ret)
			return ret;
	}
	return 0;
}

int pmu_for_each_sys_metric(pmu_metric_iter_fn fn, void *data)
{
	for (size_t i = 0; i < JEV_NR_SYS; i++) {
		int ret = pmu_metrics_table__for_each_metric(&jev_sys[i].metrics,
							     fn, data);

		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The descriptions are in stock's order (see emit.c), which is not quite
 * strcmp() order; this bisection, lo and hi inclusive, finds the names
 * stock's finds and misses the ones it misses.
 */
const char *describe_metricgroup(const char *group)
{
	long lo = 0, hi = (long)JEV_NR_GROUP_DESCS - 1;

	while (lo <= hi) {
		long mid = (lo + hi) / 2;
		int r = strcmp(group, jev_s(jev_group_descs[mid].group));

		if (r < 0)
			hi = mid - 1;
		else if (r > 0)
			lo = mid + 1;
		else
			return jev_s(jev_group_descs[mid].desc);
	}
	return NULL;
}
