// SPDX-License-Identifier: GPL-2.0
/*
 * mapfile.c - read an architecture's mapfile.csv (see model.h).
 *
 * The format: the first line is a header and is ignored; so are empty
 * lines and lines starting with '#'.  Every other line is
 * "CPUID,Version,Dir,Type": CPUID is a POSIX extended regular expression
 * matched against the whole CPUID string of the running CPU (the perf tool
 * does the matching, through strcmp_cpuid_str()), Dir a directory relative
 * to the mapfile's own, Type "core".  Lines keep their order: the earliest
 * matching line wins, so special cases go before general ones.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jutil.h"
#include "model.h"

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
			 e[-1] == '\n'))
		*--e = '\0';
	return s;
}

int read_mapfile(const char *path, const char *arch, struct map_entry **maps,
		 size_t *nr_maps, char ***dirs)
{
	size_t len;
	char *text = read_file(path, &len);
	char *base, *line;
	int lineno = 0, err = 0;
	size_t first = *nr_maps;	/* (*dirs)[i - first] goes with maps[i] */

	if (!text)
		return -1;
	base = xstrdup(path);
	*strrchr(base, '/') = '\0';
	for (char *p = text; p && !err; p = line) {
		char *fields[5], *s, *dir;
		int nf = 0;
		struct stat st;
		regex_t re;
		int rc;

		line = strchr(p, '\n');
		if (line)
			*line++ = '\0';
		lineno++;
		if (lineno == 1)
			continue;
		s = trim(p);
		if (!*s || *s == '#')
			continue;
		while (nf < 5) {
			fields[nf++] = s;
			s = strchr(s, ',');
			if (!s)
				break;
			*s++ = '\0';
		}
		if (nf < 4) {
			jerror(path, lineno,
			       "expected 4 columns (CPUID,Version,Dir,Type), found %d",
			       nf);
			err = -1;
			break;
		}
		if (nf > 4) {
			jerror(path, lineno, "more than 4 columns");
			err = -1;
			break;
		}
		for (int i = 0; i < 4; i++)
			fields[i] = trim(fields[i]);
		rc = regcomp(&re, fields[0], REG_EXTENDED | REG_NOSUB);
		if (rc) {
			char msg[256];

			regerror(rc, &re, msg, sizeof(msg));
			jerror(path, lineno,
			       "CPUID \"%s\" is not a valid regular expression: %s",
			       fields[0], msg);
			err = -1;
			break;
		}
		regfree(&re);
		if (strcmp(fields[3], "core")) {
			jerror(path, lineno,
			       "type \"%s\" is not supported (only \"core\")",
			       fields[3]);
			err = -1;
			break;
		}
		dir = xasprintf("%s/%s", base, fields[2]);
		if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
			jerror(path, lineno, "directory \"%s\" does not exist",
			       dir);
			free(dir);
			err = -1;
			break;
		}
		*maps = xrealloc(*maps, (*nr_maps + 1) * sizeof(**maps));
		*dirs = xrealloc(*dirs, (*nr_maps - first + 1) * sizeof(**dirs));
		(*maps)[*nr_maps] = (struct map_entry){
			.arch = xstrdup(arch),
			.cpuid = xstrdup(fields[0]),
			.file = path,
			.line = lineno,
		};
		(*dirs)[*nr_maps - first] = dir;
		(*nr_maps)++;
	}
	free(text);
	free(base);
	return err;
}
