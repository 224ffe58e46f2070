// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
/*
 * jutil.c - allocation, growing strings and file reading for jevents
 * (see jutil.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jutil.h"

static void *oom(void)
{
	fprintf(stderr, "jevents: out of memory\n");
	exit(1);
}

void *xzalloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	return p ? p : oom();
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	return p ? p : oom();
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	return d ? d : oom();
}

char *xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);

	return d ? d : oom();
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		oom();
	va_end(ap);
	return s;
}

void jerror(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: error: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void sb_grow(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->alloc)
		return;
	sb->alloc = (sb->len + extra + 1) * 2;
	sb->buf = xrealloc(sb->buf, sb->alloc);
}

void sb_addn(struct strbuf *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_addc(struct strbuf *sb, int c)
{
	char ch = c;

	sb_addn(sb, &ch, 1);
}

void sb_add(struct strbuf *sb, const char *s)
{
	sb_addn(sb, s, strlen(s));
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	sb_grow(sb, n);
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, n + 1, fmt, ap);
	va_end(ap);
	sb->len += n;
}

const char *sb_str(struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *sb_detach(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
	return s;
}

void sb_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t n;

	if (!f) {
		fprintf(stderr, "%s: error: %s\n", path, strerror(errno));
		return NULL;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_addn(&sb, buf, n);
	if (ferror(f)) {
		fprintf(stderr, "%s: error: %s\n", path, strerror(errno));
		fclose(f);
		sb_release(&sb);
		return NULL;
	}
	fclose(f);
	*len = sb.len;
	return sb_detach(&sb);
}
