/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - a small JSON reader for jevents.
 *
 * The PMU event files are plain JSON (RFC 8259): arrays of objects whose
 * values are strings, plus a few objects of strings (metricgroups.json).
 * The reader builds a tree of struct json values, each knowing the line it
 * started on, so that every later complaint can name file and line.  Object
 * members keep their order; a duplicated key is an error.
 */
#ifndef JEVENTS_JSON_H
#define JEVENTS_JSON_H

#include <stdbool.h>
#include <stddef.h>

enum json_type {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json;

/* One member of an object: the key and its value. */
struct json_member {
	char *key;
	struct json *value;
};

struct json {
	enum json_type type;
	int line;
	/* JSON_STRING: the decoded text; JSON_NUMBER: the number's text. */
	char *str;
	/* JSON_ARRAY: items; JSON_OBJECT: members (nr, in file order). */
	size_t nr;
	struct json **items;
	struct json_member *members;
};

/*
 * Parse the whole file @path.  On error print "path:line: message" to
 * stderr and return NULL.
 */
struct json *json_parse_file(const char *path);

/* Parse @len bytes of @text; @name is used in error messages. */
struct json *json_parse(const char *name, const char *text, size_t len);

void json_free(struct json *j);

/* The member @key of object @obj, or NULL. */
struct json *json_get(const struct json *obj, const char *key);

#endif
