// SPDX-License-Identifier: GPL-2.0
/*
 * jevents - generate pmu-events.c from the PMU event JSON files.
 *
 * Usage: jevents [-r RUNTIME] ARCH MODEL STARTING_DIR [OUTPUT]
 *
 * ARCH is a directory of STARTING_DIR (x86, arm64, ...), "all" for every
 * one, or "none" for none; the "test" directory is always added, as the
 * "testarch" architecture whose one CPUID "testcpu" names test/test_soc/cpu.
 * MODEL must be "all".  OUTPUT defaults to standard output.  RUNTIME is
 * jevents-runtime.c, by default the one beside STARTING_DIR.
 *
 * For each architecture: its top-level JSON files are the standard events
 * that "ArchStdEvent" refers to; mapfile.csv names the CPU model
 * directories, one table each; every directory named "sys" below it is a
 * table of per-PMU events, named pmu_events__<its path below the
 * architecture, '/' and '-' written '_'>.  Any error is reported as
 * "file:line: error: ..." and the exit status is 1, with no output file.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"
#include "jutil.h"
#include "model.h"

struct state {
	struct map_entry *maps;
	size_t nr_maps;
	struct table **sys;
	size_t nr_sys;
	struct group_desc *groups;
	size_t nr_groups;
	/* Model tables already read, by directory. */
	struct table **tables;
	size_t nr_tables;
};

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the entries of @dir that are directories. */
static char **subdirs(const char *dir, size_t *nr)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;

	*nr = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		char *path;

		if (de->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (is_dir(path)) {
			names = xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = xstrdup(de->d_name);
		}
		free(path);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	*nr = n;
	return names;
}

static int load_std(const char *archdir, struct std_events *std)
{
	DIR *d = opendir(archdir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;
	int err = 0;

	if (!d) {
		fprintf(stderr, "%s: error: cannot open directory\n", archdir);
		return -1;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len > 5 && !strcmp(de->d_name + len - 5, ".json")) {
			names = xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = xstrdup(de->d_name);
		}
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n && !err; i++) {
		char *path = xasprintf("%s/%s", archdir, names[i]);
		struct json *j = json_parse_file(path);

		if (!j) {
			err = -1;
		} else if (j->type != JSON_ARRAY) {
			jerror(path, j->line, "expected an array of events");
			err = -1;
		} else {
			for (size_t k = 0; k < j->nr; k++) {
				size_t n = std->nr + 1;

				std->items = xrealloc(std->items,
						      n * sizeof(*std->items));
				std->files = xrealloc(std->files,
						      n * sizeof(*std->files));
				std->items[std->nr] = j->items[k];
				std->files[std->nr] = path;
				std->nr++;
			}
			/* The items stay in use: keep the tree. */
		}
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return err;
}

static struct table *model_table(struct state *s, const char *dir,
				 const struct std_events *std)
{
	struct table *t;

	for (size_t i = 0; i < s->nr_tables; i++)
		if (!strcmp(s->tables[i]->dir, dir))
			return s->tables[i];
	t = load_table(dir, std, &s->groups, &s->nr_groups);
	if (!t || finish_table(t))
		return NULL;
	s->tables = xrealloc(s->tables, (s->nr_tables + 1) * sizeof(*t));
	s->tables[s->nr_tables++] = t;
	return t;
}

/* Find the "sys" directories below @dir (@rel: its path below the arch). */
static int find_sys(struct state *s, const char *dir, const char *rel,
		    const struct std_events *std)
{
	size_t n;
	char **names = subdirs(dir, &n);
	int err = 0;

	for (size_t i = 0; i < n && !err; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);
		char *nrel = *rel ? xasprintf("%s/%s", rel, names[i]) :
				    xstrdup(names[i]);

		if (!strcmp(names[i], "sys")) {
			struct table *t = load_table(path, std, &s->groups,
						     &s->nr_groups);

			if (!t || finish_table(t)) {
				err = -1;
			} else {
				t->name = xasprintf("pmu_events__%s", nrel);
				for (char *p = t->name; *p; p++)
					if (*p == '/' || *p == '-')
						*p = '_';
				s->sys = xrealloc(s->sys,
						  (s->nr_sys + 1) * sizeof(t));
				s->sys[s->nr_sys++] = t;
			}
		} else {
			err = find_sys(s, path, nrel, std);
		}
		free(path);
		free(nrel);
		free(names[i]);
	}
	for (size_t i = 0; i < n; i++)
		if (err)
			free(names[i]);
	free(names);
	return err;
}

static int cmp_sys(const void *a, const void *b)
{
	return strcmp((*(struct table *const *)a)->name,
		      (*(struct table *const *)b)->name);
}

static int do_arch(struct state *s, const char *start, const char *arch)
{
	char *archdir = xasprintf("%s/%s", start, arch);
	char *mapfile = xasprintf("%s/mapfile.csv", archdir);
	struct std_events *std = xzalloc(sizeof(*std));
	char **dirs = NULL;
	size_t first = s->nr_maps;
	int err = 0;

	if (!is_dir(archdir)) {
		fprintf(stderr, "%s: error: no such architecture directory\n",
			archdir);
		return -1;
	}
	if (load_std(archdir, std))
		return -1;
	if (!strcmp(arch, "test")) {
		char *dir = xasprintf("%s/test_soc/cpu", archdir);
		struct table *t = model_table(s, dir, std);

		if (!t)
			return -1;
		s->maps = xrealloc(s->maps, (s->nr_maps + 1) * sizeof(*s->maps));
		s->maps[s->nr_maps++] = (struct map_entry){
			.arch = "testarch", .cpuid = "testcpu", .table = t,
		};
	} else if (access(mapfile, F_OK) == 0) {
		if (read_mapfile(mapfile, arch, &s->maps, &s->nr_maps, &dirs))
			return -1;
		for (size_t i = first; i < s->nr_maps && !err; i++) {
			s->maps[i].table = model_table(s, dirs[i - first], std);
			if (!s->maps[i].table)
				err = -1;
		}
	}
	if (!err) {
		size_t first_sys = s->nr_sys;

		err = find_sys(s, archdir, "", std);
		/* By name within the architecture; architectures in order. */
		qsort(s->sys + first_sys, s->nr_sys - first_sys,
		      sizeof(*s->sys), cmp_sys);
	}
	free(archdir);
	return err;
}

static void print_usage(void)
{
	fprintf(stderr, "usage: jevents [-r RUNTIME] ARCH MODEL STARTING_DIR [OUTPUT]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct state s = { 0 };
	const char *runtime = NULL, *arch, *model, *start, *out;
	char *tmp, *default_runtime, **names;
	size_t nr_names = 0;
	int opt;

	while ((opt = getopt(argc, argv, "r:")) != -1) {
		if (opt == 'r')
			runtime = optarg;
		else
			print_usage();
	}
	if (argc - optind < 3 || argc - optind > 4)
		print_usage();
	arch = argv[optind];
	model = argv[optind + 1];
	start = argv[optind + 2];
	out = argc - optind == 4 ? argv[optind + 3] : "/dev/stdout";
	if (strcmp(model, "all")) {
		fprintf(stderr, "jevents: error: MODEL \"%s\": only \"all\" is supported\n",
			model);
		return 1;
	}
	default_runtime = xasprintf("%s/../jevents-runtime.c", start);
	if (!runtime)
		runtime = default_runtime;

	/*
	 * The architectures in name order, "test" among them: the order of
	 * the maps and of the sys tables, which pmu_for_each_core_event()
	 * and pmu_for_each_sys_event() follow, as stock's do.
	 */
	if (!strcmp(arch, "all")) {
		names = subdirs(start, &nr_names);
		if (!names) {
			fprintf(stderr, "%s: error: cannot open directory\n", start);
			return 1;
		}
	} else {
		names = xzalloc(2 * sizeof(*names));
		names[nr_names++] = xstrdup("test");
		if (strcmp(arch, "none") && strcmp(arch, "test"))
			names[nr_names++] = xstrdup(arch);
		qsort(names, nr_names, sizeof(*names), cmp_str);
	}
	for (size_t i = 0; i < nr_names; i++)
		if (do_arch(&s, start, names[i]))
			return 1;
	for (size_t i = 0; i < s.nr_sys; i++) {
		for (size_t k = 0; k < i; k++) {
			if (!strcmp(s.sys[k]->name, s.sys[i]->name)) {
				fprintf(stderr, "%s: error: sys table name %s also used by %s\n",
					s.sys[i]->dir, s.sys[i]->name,
					s.sys[k]->dir);
				return 1;
			}
		}
	}

	/* Write to a temporary file, renamed once complete. */
	if (strcmp(out, "/dev/stdout")) {
		tmp = xasprintf("%s.tmp", out);
		if (emit_c(tmp, runtime, s.maps, s.nr_maps, s.sys, s.nr_sys,
			   s.groups, s.nr_groups)) {
			unlink(tmp);
			return 1;
		}
		if (rename(tmp, out)) {
			perror(out);
			unlink(tmp);
			return 1;
		}
	} else if (emit_c(out, runtime, s.maps, s.nr_maps, s.sys, s.nr_sys,
			  s.groups, s.nr_groups)) {
		return 1;
	}
	return 0;
}
