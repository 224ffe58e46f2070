/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - what jevents reads the JSON files into.
 *
 * A table is one directory of JSON files: a CPU model's (named by a
 * mapfile.csv line) or a "sys" directory of per-PMU events matched by
 * Compat.  Its events and metrics are already in the form the perf tool
 * sees through pmu-events.h (struct pmu_event, struct pmu_metric): names
 * lowercased, the encoding string built, descriptions completed, PMU names
 * mapped.  events.c turns one JSON object into an event and/or a metric;
 * tables.c walks the directories; mapfile.c reads mapfile.csv; emit.c
 * writes the C file.
 */
#ifndef JEVENTS_MODEL_H
#define JEVENTS_MODEL_H

#include <stdbool.h>
#include <stddef.h>

struct json;

struct event {
	char *name, *event, *desc, *long_desc, *topic, *pmu, *unit, *compat;
	bool perpkg, deprecated;
	const char *file;
	int line;
};

struct metric {
	char *pmu, *metric_name, *metric_group, *metric_expr;
	char *metric_threshold, *unit, *compat, *desc, *long_desc;
	char *metricgroup_no_group, *default_metricgroup_name;
	int aggr_mode, event_grouping;
	const char *file;
	int line;
	size_t seq;		/* order read, to keep same names in file order */
};

struct table {
	char *dir;		/* path of the directory */
	char *name;		/* sys tables: pmu_events__<path> */
	struct event *events;
	size_t nr_events;
	struct metric *metrics;
	size_t nr_metrics;
};

/* A metric group's description, from metricgroups.json. */
struct group_desc {
	char *group, *desc;
	const char *file;
	int line;
};

/* One mapfile.csv line: CPUID regex -> table. */
struct map_entry {
	char *arch;
	char *cpuid;
	struct table *table;
	const char *file;
	int line;
};

/* The standard events of an architecture (its top-level JSON files). */
struct std_events {
	struct json **items;
	const char **files;
	size_t nr;
};

/*
 * events.c: convert the JSON object @obj of file @file (topic @topic) into
 * events and metrics appended to @t; a member "ArchStdEvent" is resolved in
 * @std first.  Returns 0, or -1 after printing "file:line: error: ...".
 */
int add_json_object(struct table *t, const struct json *obj, const char *file,
		    const char *topic, const struct std_events *std);

/*
 * tables.c: read every JSON file of directory @dir into a new table, and
 * the metric group descriptions into @groups (appended).
 */
struct table *load_table(const char *dir, const struct std_events *std,
			 struct group_desc **groups, size_t *nr_groups);
/* Sort the table and check for duplicate names; -1 after an error. */
int finish_table(struct table *t);

/*
 * mapfile.c: parse @path, appending to @maps; (*@dirs)[i] is the directory
 * of the i-th entry appended by this call (the caller sets the tables).
 */
int read_mapfile(const char *path, const char *arch, struct map_entry **maps,
		 size_t *nr_maps, char ***dirs);

/* emit.c */
int emit_c(const char *out_path, const char *runtime_path,
	   struct map_entry *maps, size_t nr_maps,
	   struct table **sys, size_t nr_sys,
	   struct group_desc *groups, size_t nr_groups);

#endif
