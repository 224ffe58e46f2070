// SPDX-License-Identifier: GPL-2.0
/*
 * emit.c - write the generated pmu-events.c (see model.h and
 * jevents-runtime.c for the layout the runtime expects).
 *
 * Strings are pooled: each distinct text is written once into jev_str and
 * referred to by offset.  Tables shared by several mapfile lines are
 * written once.  Every escape is a three-digit octal one, so that no
 * following character can extend it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jutil.h"
#include "model.h"

struct pool {
	struct strbuf data;	/* the bytes of jev_str */
	uint32_t *slots;	/* hash table of offsets, 0 = empty */
	size_t nr_slots, used;
};

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void pool_init(struct pool *p)
{
	p->nr_slots = 1 << 16;
	p->slots = xzalloc(p->nr_slots * sizeof(*p->slots));
	sb_addc(&p->data, '\0');	/* offset 0: NULL */
}

static void pool_grow(struct pool *p)
{
	size_t n = p->nr_slots * 2;
	uint32_t *slots = xzalloc(n * sizeof(*slots));

	for (size_t i = 0; i < p->nr_slots; i++) {
		uint32_t off = p->slots[i];
		size_t k;

		if (!off)
			continue;
		k = hash(p->data.buf + off) & (n - 1);
		while (slots[k])
			k = (k + 1) & (n - 1);
		slots[k] = off;
	}
	free(p->slots);
	p->slots = slots;
	p->nr_slots = n;
}

static uint32_t pool_add(struct pool *p, const char *s)
{
	size_t k;
	uint32_t off;

	if (!s)
		return 0;
	if (p->used * 2 >= p->nr_slots)
		pool_grow(p);
	k = hash(s) & (p->nr_slots - 1);
	while (p->slots[k]) {
		if (!strcmp(p->data.buf + p->slots[k], s))
			return p->slots[k];
		k = (k + 1) & (p->nr_slots - 1);
	}
	off = p->data.len;
	if (p->data.len + strlen(s) + 1 > UINT32_MAX) {
		fprintf(stderr, "jevents: error: string table over 4 GiB\n");
		exit(1);
	}
	sb_addn(&p->data, s, strlen(s) + 1);
	p->slots[k] = off;
	p->used++;
	return off;
}

static void write_pool(FILE *out, const struct pool *p)
{
	size_t col = 0;

	fprintf(out, "static const char jev_str[%zu] =\n\"", p->data.len);
	/* The array's size leaves out the literal's own final NUL. */
	for (size_t i = 0; i < p->data.len; i++) {
		unsigned char c = p->data.buf[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?') {
			fputc(c, out);
			col++;
		} else {
			fprintf(out, "\\%03o", c);
			col += 4;
		}
		if ((!c && col > 60) || col > 1000) {
			fputs("\"\n\"", out);
			col = 0;
		}
	}
	fputs("\";\n\n", out);
}

/* Where each distinct table went. */
struct placed {
	const struct table *t;
	uint32_t first_group, nr_groups, first_metric, nr_metrics;
};

struct writer {
	FILE *out;
	struct pool pool;
	struct strbuf events, groups, metrics;
	uint32_t nr_events, nr_groups, nr_metrics;
	struct placed *placed;
	size_t nr_placed;
};

static const struct placed *place(struct writer *w, const struct table *t)
{
	struct placed *pl;

	for (size_t i = 0; i < w->nr_placed; i++)
		if (w->placed[i].t == t)
			return &w->placed[i];
	w->placed = xrealloc(w->placed, (w->nr_placed + 1) * sizeof(*pl));
	pl = &w->placed[w->nr_placed++];
	pl->t = t;
	pl->first_group = w->nr_groups;
	pl->first_metric = w->nr_metrics;
	for (size_t i = 0; i < t->nr_events; ) {
		const char *pmu = t->events[i].pmu;
		size_t k = i;

		while (k < t->nr_events && !strcmp(t->events[k].pmu, pmu))
			k++;
		sb_addf(&w->groups, "\t{ %u, %u, %zu },\n",
			pool_add(&w->pool, pmu), w->nr_events, k - i);
		w->nr_groups++;
		for (; i < k; i++) {
			const struct event *e = &t->events[i];

			sb_addf(&w->events, "\t{ %u, %u, %u, %u, %u, %u, %u, %d, %d },\n",
				pool_add(&w->pool, e->name),
				pool_add(&w->pool, e->event),
				pool_add(&w->pool, e->desc),
				pool_add(&w->pool, e->long_desc),
				pool_add(&w->pool, e->topic),
				pool_add(&w->pool, e->unit),
				pool_add(&w->pool, e->compat),
				e->perpkg, e->deprecated);
			w->nr_events++;
		}
	}
	pl->nr_groups = w->nr_groups - pl->first_group;
	for (size_t i = 0; i < t->nr_metrics; i++) {
		const struct metric *m = &t->metrics[i];

		sb_addf(&w->metrics, "\t{ %u, %u, %u, %u, %u, %u, %u, %u, %u, %u, %u, %d, %d },\n",
			pool_add(&w->pool, m->pmu),
			pool_add(&w->pool, m->metric_name),
			pool_add(&w->pool, m->metric_group),
			pool_add(&w->pool, m->metric_expr),
			pool_add(&w->pool, m->metric_threshold),
			pool_add(&w->pool, m->unit),
			pool_add(&w->pool, m->compat),
			pool_add(&w->pool, m->desc),
			pool_add(&w->pool, m->long_desc),
			pool_add(&w->pool, m->metricgroup_no_group),
			pool_add(&w->pool, m->default_metricgroup_name),
			m->aggr_mode, m->event_grouping);
		w->nr_metrics++;
	}
	pl->nr_metrics = w->nr_metrics - pl->first_metric;
	return pl;
}

/*
 * The metric group descriptions are in the order of stock's tables: by
 * "<name>\\000<description>" as text, a backslash standing where the name
 * ends, so that "Bad" sorts after "BadSpec".  describe_metricgroup() bisects
 * them as stock's does; the two together decide which names are found
 * (on x86 all but "Bad" and "Mem"), and perf list shows exactly that.
 */
static int cmp_groups(const void *a, const void *b)
{
	const struct group_desc *x = a, *y = b;
	char *kx = xasprintf("%s\\000%s", x->group, x->desc);
	char *ky = xasprintf("%s\\000%s", y->group, y->desc);
	int r = strcmp(kx, ky);

	free(kx);
	free(ky);
	return r;
}

/* An array's body; one zeroed element if empty (C has no empty arrays). */
static void write_array(FILE *out, const char *decl, struct strbuf *body)
{
	fprintf(out, "%s = {\n%s};\n\n", decl,
		body->len ? body->buf : "\t{ 0 },\n");
}

int emit_c(const char *out_path, const char *runtime_path,
	   struct map_entry *maps, size_t nr_maps,
	   struct table **sys, size_t nr_sys,
	   struct group_desc *groups, size_t nr_groups)
{
	struct writer w = { 0 };
	struct strbuf mapb = STRBUF_INIT, sysb = STRBUF_INIT, gb = STRBUF_INIT;
	size_t len, nr_gd = 0;
	char *runtime = read_file(runtime_path, &len);
	char *marker;
	FILE *out;

	if (!runtime)
		return -1;
	marker = strstr(runtime, "/* @DATA@ */");
	if (!marker) {
		fprintf(stderr, "%s: error: no \"/* @DATA@ */\" marker\n",
			runtime_path);
		return -1;
	}
	pool_init(&w.pool);

	for (size_t i = 0; i < nr_maps; i++) {
		const struct placed *pl = place(&w, maps[i].table);

		sb_addf(&mapb, "\t{ %u, %u, { %u, %u }, { %u, %u } },\n",
			pool_add(&w.pool, maps[i].arch),
			pool_add(&w.pool, maps[i].cpuid),
			pl->first_group, pl->nr_groups,
			pl->first_metric, pl->nr_metrics);
	}
	for (size_t i = 0; i < nr_sys; i++) {
		const struct placed *pl = place(&w, sys[i]);

		sb_addf(&sysb, "\t{ %u, { %u, %u }, { %u, %u } },\n",
			pool_add(&w.pool, sys[i]->name),
			pl->first_group, pl->nr_groups,
			pl->first_metric, pl->nr_metrics);
	}
	/* Metric group descriptions: sorted, the first one of a name kept. */
	for (size_t i = 0; i < nr_groups; i++) {
		size_t k;

		for (k = 0; k < nr_gd; k++)
			if (!strcmp(groups[k].group, groups[i].group))
				break;
		if (k == nr_gd)
			groups[nr_gd++] = groups[i];
	}
	qsort(groups, nr_gd, sizeof(*groups), cmp_groups);
	for (size_t i = 0; i < nr_gd; i++)
		sb_addf(&gb, "\t{ %u, %u },\n", pool_add(&w.pool, groups[i].group),
			pool_add(&w.pool, groups[i].desc));

	out = fopen(out_path, "w");
	if (!out) {
		perror(out_path);
		return -1;
	}
	fprintf(out, "/* Generated by jevents from the PMU event JSON files: do not edit. */\n");
	fwrite(runtime, 1, marker - runtime, out);
	fprintf(out, "#define JEV_NR_MAPS %zu\n", nr_maps);
	fprintf(out, "#define JEV_NR_SYS %zu\n", nr_sys);
	fprintf(out, "#define JEV_NR_GROUP_DESCS %zu\n\n", nr_gd);
	write_pool(out, &w.pool);
	write_array(out, "static const struct jev_event jev_events[]", &w.events);
	write_array(out, "static const struct jev_group jev_groups[]", &w.groups);
	write_array(out, "static const struct jev_metric jev_metrics[]", &w.metrics);
	write_array(out, "static const struct jev_map jev_maps[]", &mapb);
	write_array(out, "static const struct jev_sys jev_sys[]", &sysb);
	write_array(out, "static const struct jev_group_desc jev_group_descs[]", &gb);
	fputs(marker + strlen("/* @DATA@ */"), out);
	free(runtime);
	if (fclose(out)) {
		perror(out_path);
		return -1;
	}
	return 0;
}
