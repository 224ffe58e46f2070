// SPDX-License-Identifier: GPL-2.0
/*
 * pmu-events-dump - print every table a generated pmu-events.c holds, in a
 * canonical text form, using nothing but the contract
 * (tools/perf/pmu-events/pmu-events.h).
 *
 * It links against one generated pmu-events object (stock's or ours) and
 * stands in for the three perf functions such an object calls
 * (perf_pmu__getcpuid, pmu__name_match, strcmp_cpuid_str) with stubs that
 * behave the same for both, so the two dumps differ only where the tables
 * or the lookups differ.
 *
 * Usage: pmu-events-dump ARCHDIR ARCH...
 *   ARCHDIR is tools/perf/pmu-events/arch (used only to name the sys
 *   tables and to list metric groups); each ARCH is an arch name the
 *   object may carry a map for (x86, arm64, ..., testarch).
 *
 * Output: one record a line, "section key | fields", in the order the
 * contract's functions give them (map lines in mapfile order, events and
 * metrics in iteration order): a plain diff of two dumps compares order as
 * well; sorted, content alone.  Strings are escaped; a NULL pointer prints
 * as "(null)" and an empty string as "".
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "util/pmu.h"
#include "pmu-events/pmu-events.h"

/* --- the stubs --- */

enum cpuid_mode { CPUID_RECORD, CPUID_EXACT };
static enum cpuid_mode cpuid_mode;
static const char *cur_cpuid;
static char *recorded[4096];
static int nr_recorded;

char *perf_pmu__getcpuid(struct perf_pmu *pmu __maybe_unused)
{
	return cur_cpuid ? strdup(cur_cpuid) : NULL;
}

bool pmu__name_match(const struct perf_pmu *pmu, const char *pmu_name)
{
	return !strcmp(pmu->name, pmu_name) ||
	       (pmu->is_core && !strcmp(pmu_name, "default_core"));
}

int strcmp_cpuid_str(const char *mapcpuid, const char *cpuid)
{
	if (cpuid_mode == CPUID_RECORD) {
		if (nr_recorded < 4096)
			recorded[nr_recorded++] = strdup(mapcpuid);
		return 1;
	}
	return strcmp(mapcpuid, cpuid);
}

/* --- printing --- */

static void pstr(const char *s)
{
	if (!s) {
		fputs("(null)", stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c == '\n')
			fputs("\\n", stdout);
		else if (c == '\t')
			fputs("\\t", stdout);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void pfield(const char *name, const char *s)
{
	printf(" %s=", name);
	pstr(s);
}

/* --- table naming: a table is named after its first map entry --- */

struct tname {
	const void *table;
	char name[256];
};
static struct tname tnames[8192];
static int nr_tnames;

static const char *tname_of(const void *table)
{
	static char buf[64];

	if (!table)
		return "(none)";
	for (int i = 0; i < nr_tnames; i++)
		if (tnames[i].table == table)
			return tnames[i].name;
	snprintf(buf, sizeof(buf), "(unnamed)");
	return buf;
}

static bool tname_add(const void *table, const char *fmt, const char *a,
		      const char *b)
{
	if (!table)
		return false;
	for (int i = 0; i < nr_tnames; i++)
		if (tnames[i].table == table)
			return false;
	tnames[nr_tnames].table = table;
	snprintf(tnames[nr_tnames].name, sizeof(tnames[0].name), fmt, a, b);
	nr_tnames++;
	return true;
}

/* --- events --- */

static const char *cur_tname;

static void print_event(const char *sec, const char *tn,
			const struct pmu_event *pe)
{
	printf("%s %s | ", sec, tn);
	pstr(pe->name);
	pfield("pmu", pe->pmu);
	pfield("topic", pe->topic);
	pfield("event", pe->event);
	pfield("desc", pe->desc);
	pfield("long_desc", pe->long_desc);
	pfield("unit", pe->unit);
	pfield("compat", pe->compat);
	printf(" perpkg=%d deprecated=%d\n", pe->perpkg, pe->deprecated);
}

/* The distinct PMU names of the table being dumped, for lookups. */
static char *pmu_names[4096];
static int nr_pmu_names;
static char *ev_names[65536];
static char *ev_pmus[65536];
static int nr_ev;

static int event_cb(const struct pmu_event *pe,
		    const struct pmu_events_table *table __maybe_unused,
		    void *data __maybe_unused)
{
	int i;

	print_event("event", cur_tname, pe);
	for (i = 0; i < nr_pmu_names; i++)
		if (!strcmp(pmu_names[i], pe->pmu ? pe->pmu : "(null)"))
			break;
	if (i == nr_pmu_names && nr_pmu_names < 4096)
		pmu_names[nr_pmu_names++] = strdup(pe->pmu ? pe->pmu : "(null)");
	if (nr_ev < 65536) {
		ev_names[nr_ev] = strdup(pe->name ? pe->name : "");
		ev_pmus[nr_ev] = strdup(pe->pmu ? pe->pmu : "(null)");
		nr_ev++;
	}
	return 0;
}

static int found_cb(const struct pmu_event *pe,
		    const struct pmu_events_table *table __maybe_unused,
		    void *data)
{
	const char *want = data;

	printf("find %s | %s -> ", cur_tname, want);
	pstr(pe->name);
	pfield("pmu", pe->pmu);
	pfield("event", pe->event);
	putchar('\n');
	return 0;
}

static void fake_pmu(struct perf_pmu *pmu, const char *pe_pmu)
{
	memset(pmu, 0, sizeof(*pmu));
	if (!strcmp(pe_pmu, "default_core") || !strcmp(pe_pmu, "cpu")) {
		pmu->name = (char *)"cpu";
		pmu->is_core = true;
	} else {
		pmu->name = (char *)pe_pmu;
		pmu->is_uncore = true;
	}
}

static void dump_events_table(const struct pmu_events_table *table)
{
	struct perf_pmu pmu;
	char up[512];
	int ret;

	nr_pmu_names = 0;
	nr_ev = 0;
	ret = pmu_events_table__for_each_event(table, NULL, event_cb, NULL);
	printf("events %s | ret=%d count=%d\n", cur_tname, ret, nr_ev);
	for (int i = 0; i < nr_pmu_names; i++) {
		fake_pmu(&pmu, pmu_names[i]);
		printf("num_events %s | %s core=%d -> %zu\n", cur_tname,
		       pmu.name, pmu.is_core,
		       pmu_events_table__num_events(table, &pmu));
	}
	for (int i = 0; i < nr_ev; i++) {
		size_t j;

		fake_pmu(&pmu, ev_pmus[i]);
		ret = pmu_events_table__find_event(table, &pmu, ev_names[i],
						   found_cb, ev_names[i]);
		printf("find %s | %s on %s -> %d\n", cur_tname, ev_names[i],
		       pmu.name, ret);
		for (j = 0; ev_names[i][j] && j < sizeof(up) - 1; j++)
			up[j] = toupper((unsigned char)ev_names[i][j]);
		up[j] = '\0';
		ret = pmu_events_table__find_event(table, &pmu, up, NULL, NULL);
		printf("find %s | %s (upper) on %s -> %d\n", cur_tname, up,
		       pmu.name, ret);
		free(ev_names[i]);
		free(ev_pmus[i]);
	}
	fake_pmu(&pmu, "cpu");
	printf("find %s | no-such-event on cpu -> %d\n", cur_tname,
	       pmu_events_table__find_event(table, &pmu, "no-such-event",
					    NULL, NULL));
	for (int i = 0; i < nr_pmu_names; i++)
		free(pmu_names[i]);
}

/* --- metrics --- */

static char *groups[65536];
static int nr_groups;

static void add_groups(const char *list)
{
	char *copy, *tok, *save;

	if (!list)
		return;
	copy = strdup(list);
	for (tok = strtok_r(copy, ";", &save); tok;
	     tok = strtok_r(NULL, ";", &save)) {
		int i;

		for (i = 0; i < nr_groups; i++)
			if (!strcmp(groups[i], tok))
				break;
		if (i == nr_groups && nr_groups < 65536)
			groups[nr_groups++] = strdup(tok);
	}
	free(copy);
}

static int metric_cb(const struct pmu_metric *pm,
		     const struct pmu_metrics_table *table __maybe_unused,
		     void *data)
{
	const char *sec = data;

	printf("%s %s | ", sec, cur_tname);
	pstr(pm->metric_name);
	pfield("pmu", pm->pmu);
	pfield("group", pm->metric_group);
	pfield("expr", pm->metric_expr);
	pfield("threshold", pm->metric_threshold);
	pfield("unit", pm->unit);
	pfield("compat", pm->compat);
	pfield("desc", pm->desc);
	pfield("long_desc", pm->long_desc);
	pfield("nogroup", pm->metricgroup_no_group);
	pfield("default_group", pm->default_metricgroup_name);
	printf(" aggr=%d grouping=%d\n", pm->aggr_mode, pm->event_grouping);
	add_groups(pm->metric_group);
	add_groups(pm->metricgroup_no_group);
	add_groups(pm->default_metricgroup_name);
	return 0;
}

/* --- the whole object --- */

static const char *archdir;

/* Sys tables are named pmu_events__<path below the arch dir>, '/' and '-' as '_'. */
static void name_sys_tables(const char *dir, const char *rel)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[4096], nrel[4096], cand[4096];
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) || !S_ISDIR(st.st_mode))
			continue;
		snprintf(nrel, sizeof(nrel), "%.2000s%s%.1000s", rel, *rel ? "/" : "",
			 de->d_name);
		/* Try the path from each of its components on. */
		for (const char *from = nrel; from; ) {
			snprintf(cand, sizeof(cand), "pmu_events__%.4000s", from);
			for (char *p = cand; *p; p++)
				if (*p == '-' || *p == '/')
					*p = '_';
			tname_add(find_sys_events_table(cand), "sys:%s%s", cand,
				  "");
			from = strchr(from, '/');
			if (from)
				from++;
		}
		name_sys_tables(path, nrel);
	}
	closedir(d);
}

static const void *sys_seen[1024];
static int nr_sys_seen;

static int sys_event_cb(const struct pmu_event *pe,
			const struct pmu_events_table *table, void *data)
{
	int i;

	for (i = 0; i < nr_sys_seen; i++)
		if (sys_seen[i] == table)
			break;
	if (i == nr_sys_seen && nr_sys_seen < 1024)
		sys_seen[nr_sys_seen++] = table;
	print_event("sys_event", tname_of(table), pe);
	return 0;
}

static int sys_metric_cb(const struct pmu_metric *pm,
			 const struct pmu_metrics_table *table, void *data)
{
	char buf[64];
	int i;

	for (i = 0; i < nr_sys_seen; i++)
		if (sys_seen[i] == table)
			break;
	if (i == nr_sys_seen && nr_sys_seen < 1024)
		sys_seen[nr_sys_seen++] = table;
	snprintf(buf, sizeof(buf), "sysm:%d", i);
	cur_tname = buf;
	return metric_cb(pm, table, data);
}

struct core_count {
	const void *table;
	int n;
};
static struct core_count core_counts[8192];
static int nr_core_counts;

static int count_cb(const void *table)
{
	int i;

	for (i = 0; i < nr_core_counts; i++)
		if (core_counts[i].table == table)
			break;
	if (i == nr_core_counts && nr_core_counts < 8192) {
		core_counts[i].table = table;
		nr_core_counts++;
	}
	core_counts[i].n++;
	return 0;
}

static int core_event_cb(const struct pmu_event *pe __maybe_unused,
			 const struct pmu_events_table *table,
			 void *data __maybe_unused)
{
	return count_cb(table);
}

static int core_metric_cb(const struct pmu_metric *pm __maybe_unused,
			  const struct pmu_metrics_table *table,
			  void *data __maybe_unused)
{
	return count_cb(table);
}

int main(int argc, char **argv)
{
	struct perf_pmu core, uncore;
	int ret;

	if (argc < 3) {
		fprintf(stderr, "usage: %s ARCHDIR ARCH...\n", argv[0]);
		return 2;
	}
	archdir = argv[1];

	for (int a = 2; a < argc; a++) {
		const char *arch = argv[a];
		int first = nr_recorded;

		cpuid_mode = CPUID_RECORD;
		find_core_events_table(arch, "(probe)");
		cpuid_mode = CPUID_EXACT;
		for (int i = first; i < nr_recorded; i++) {
			const struct pmu_events_table *et;
			const struct pmu_metrics_table *mt;
			char label[512];

			et = find_core_events_table(arch, recorded[i]);
			mt = find_core_metrics_table(arch, recorded[i]);
			snprintf(label, sizeof(label), "%s %s", arch, recorded[i]);
			tname_add(et, "E:%s/%s", arch, recorded[i]);
			tname_add(mt, "M:%s/%s", arch, recorded[i]);
			printf("map %s %04d | %s -> %s %s\n", arch, i - first,
			       recorded[i], tname_of(et), tname_of(mt));

			/* The same lookups through a PMU and the cpuid. */
			cur_cpuid = recorded[i];
			fake_pmu(&core, "cpu");
			fake_pmu(&uncore, "uncore_imc_0");
			printf("pmu_find %s | %s NULL -> %s %s\n", arch,
			       label,
			       tname_of(perf_pmu__find_events_table(NULL)),
			       tname_of(perf_pmu__find_metrics_table(NULL)));
			printf("pmu_find %s | %s core -> %s %s\n", arch, label,
			       tname_of(perf_pmu__find_events_table(&core)),
			       tname_of(perf_pmu__find_metrics_table(&core)));
			printf("pmu_find %s | %s uncore -> %s %s\n", arch,
			       label,
			       tname_of(perf_pmu__find_events_table(&uncore)),
			       tname_of(perf_pmu__find_metrics_table(&uncore)));
			cur_cpuid = NULL;
		}
		printf("map %s zz-end | %d entries; unknown cpuid -> %s %s\n",
		       arch, nr_recorded - first,
		       tname_of(find_core_events_table(arch, "(none such)")),
		       tname_of(find_core_metrics_table(arch, "(none such)")));
	}
	cur_cpuid = "(none such)";
	printf("pmu_find - | unknown cpuid -> %s %s\n",
	       tname_of(perf_pmu__find_events_table(NULL)),
	       tname_of(perf_pmu__find_metrics_table(NULL)));
	cur_cpuid = NULL;
	printf("pmu_find - | no cpuid -> %s %s\n",
	       tname_of(perf_pmu__find_events_table(NULL)),
	       tname_of(perf_pmu__find_metrics_table(NULL)));

	/* Every named table, in full. */
	for (int i = 0; i < nr_tnames; i++) {
		cur_tname = tnames[i].name;
		if (cur_tname[0] == 'E') {
			dump_events_table(tnames[i].table);
		} else {
			ret = pmu_metrics_table__for_each_metric(tnames[i].table,
								 metric_cb,
								 "metric");
			printf("metrics %s | ret=%d\n", cur_tname, ret);
		}
	}

	/* The core iterators: how many entries from which table. */
	ret = pmu_for_each_core_event(core_event_cb, NULL);
	printf("core_iter events | ret=%d\n", ret);
	ret = pmu_for_each_core_metric(core_metric_cb, NULL);
	printf("core_iter metrics | ret=%d\n", ret);
	for (int i = 0; i < nr_core_counts; i++)
		printf("core_iter %s | %d\n", tname_of(core_counts[i].table),
		       core_counts[i].n);

	/* The sys tables. */
	name_sys_tables(archdir, "");
	ret = pmu_for_each_sys_event(sys_event_cb, NULL);
	printf("sys_iter events | ret=%d tables=%d\n", ret, nr_sys_seen);
	for (int i = 0; i < nr_sys_seen; i++) {
		cur_tname = tname_of(sys_seen[i]);
		dump_events_table(sys_seen[i]);
	}
	nr_sys_seen = 0;
	ret = pmu_for_each_sys_metric(sys_metric_cb, "sys_metric");
	printf("sys_iter metrics | ret=%d tables=%d\n", ret, nr_sys_seen);
	printf("find_sys | no-such-table -> %s\n",
	       tname_of(find_sys_events_table("pmu_events__no_such")));

	/* Metric group descriptions. */
	add_groups("no-such-group");
	add_groups("");
	for (int i = 0; i < nr_groups; i++) {
		printf("group %s | ", groups[i]);
		pstr(describe_metricgroup(groups[i]));
		putchar('\n');
	}
	return 0;
}
