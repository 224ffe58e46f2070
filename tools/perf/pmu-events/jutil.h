/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jutil.h - allocation, growing strings and file reading for jevents.
 *
 * jevents is a short-lived host program: an allocation failure ends it
 * with a message, so callers never check for NULL.
 */
#ifndef JEVENTS_JUTIL_H
#define JEVENTS_JUTIL_H

#include <stdarg.h>
#include <stddef.h>

#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif

void *xzalloc(size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __printf(1, 2);

/* A growing NUL-terminated string. */
struct strbuf {
	char *buf;
	size_t len, alloc;
};

#define STRBUF_INIT { NULL, 0, 0 }

void sb_addc(struct strbuf *sb, int c);
void sb_add(struct strbuf *sb, const char *s);
void sb_addn(struct strbuf *sb, const char *s, size_t n);
void sb_addf(struct strbuf *sb, const char *fmt, ...)
	__printf(2, 3);
/* The text so far ("" if none); stays owned by @sb. */
const char *sb_str(struct strbuf *sb);
/* Hand the text over to the caller and reset @sb. */
char *sb_detach(struct strbuf *sb);
void sb_release(struct strbuf *sb);

/* Print "@file:@line: error: " and the message, with a newline. */
void jerror(const char *file, int line, const char *fmt, ...) __printf(3, 4);

/*
 * Read a whole file; NUL-terminated, length in @len.  On error print
 * "path: reason" and return NULL.
 */
char *read_file(const char *path, size_t *len);

#endif
