// SPDX-License-Identifier: GPL-2.0
/*
 * tables.c - one directory of JSON files into a struct table (see model.h).
 *
 * Every regular file whose name ends in ".json" is read, in name order.
 * A file holds an array of event/metric objects, its topic being the file
 * name without ".json" and with '-' read as a space; metricgroups.json
 * instead holds one object mapping metric group names to descriptions.
 * Anything else is an error.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "json.h"
#include "jutil.h"
#include "model.h"

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names of the regular *.json files in @dir. */
static char **json_files(const char *dir, size_t *nr)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;

	*nr = 0;
	if (!d) {
		fprintf(stderr, "%s: error: cannot open directory\n", dir);
		return NULL;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct stat st;
		char *path;

		if (len <= 5 || strcmp(de->d_name + len - 5, ".json"))
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		free(path);
		names = xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_names);
	*nr = n;
	return names ? names : xzalloc(sizeof(*names));
}

static int add_groups(const struct json *obj, const char *file,
		      struct group_desc **groups, size_t *nr_groups)
{
	for (size_t i = 0; i < obj->nr; i++) {
		const struct json *v = obj->members[i].value;
		struct group_desc *g;

		if (v->type != JSON_STRING) {
			jerror(file, v->line,
			       "description of metric group \"%s\" is not a string",
			       obj->members[i].key);
			return -1;
		}
		*groups = xrealloc(*groups, (*nr_groups + 1) * sizeof(**groups));
		g = &(*groups)[(*nr_groups)++];
		g->group = xstrdup(obj->members[i].key);
		g->desc = xstrdup(v->str);
		g->file = file;
		g->line = v->line;
	}
	return 0;
}

struct table *load_table(const char *dir, const struct std_events *std,
			 struct group_desc **groups, size_t *nr_groups)
{
	struct table *t = xzalloc(sizeof(*t));
	size_t nr;
	char **names = json_files(dir, &nr);
	int err = 0;

	if (!names)
		return NULL;
	t->dir = xstrdup(dir);
	for (size_t i = 0; i < nr && !err; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);
		char *topic = xstrndup(names[i], strlen(names[i]) - 5);
		struct json *j = json_parse_file(path);

		for (char *p = topic; *p; p++)
			if (*p == '-')
				*p = ' ';
		if (!j) {
			err = -1;
		} else if (j->type == JSON_OBJECT &&
			   !strcmp(names[i], "metricgroups.json")) {
			err = add_groups(j, path, groups, nr_groups);
		} else if (j->type != JSON_ARRAY) {
			jerror(path, j->line, "expected an array of events");
			err = -1;
		} else {
			for (size_t k = 0; k < j->nr && !err; k++)
				err = add_json_object(t, j->items[k], path,
						      topic, std);
		}
		/* The path stays: events point to it for their messages. */
		free(topic);
		free(names[i]);
		json_free(j);
	}
	free(names);
	if (err)
		return NULL;
	return t;
}

static int cmp_events(const void *a, const void *b)
{
	const struct event *x = a, *y = b;
	int r = strcmp(x->pmu, y->pmu);

	return r ? r : strcasecmp(x->name, y->name);
}

static int cmp_metrics(const void *a, const void *b)
{
	const struct metric *x = a, *y = b;
	int r = strcmp(x->pmu, y->pmu);

	/* Case matters here, as in stock's tables: "UNCORE_FREQ" < "smi_num". */
	if (!r)
		r = strcmp(x->metric_name, y->metric_name);
	/*
	 * Metrics may share a name (imx95's jpeg_dec): stock orders those
	 * by expression; then keep the order of the files.
	 */
	if (!r)
		r = strcmp(x->metric_expr, y->metric_expr);
	return r ? r : x->seq < y->seq ? -1 : x->seq > y->seq;
}

int finish_table(struct table *t)
{
	int err = 0;

	qsort(t->events, t->nr_events, sizeof(*t->events), cmp_events);
	for (size_t i = 1; i < t->nr_events; i++) {
		const struct event *a = &t->events[i - 1], *b = &t->events[i];

		if (!cmp_events(a, b)) {
			jerror(b->file, b->line,
			       "duplicate event \"%s\" (PMU %s) in %s; first at %s:%d",
			       b->name, b->pmu, t->dir, a->file, a->line);
			err = -1;
		}
	}
	qsort(t->metrics, t->nr_metrics, sizeof(*t->metrics), cmp_metrics);
	return err;
}
