// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - a small recursive-descent JSON reader for jevents (see json.h).
 *
 * Strict RFC 8259: no comments, no trailing commas, strings in UTF-8 with
 * the standard escapes (\uXXXX, surrogate pairs included, encoded back to
 * UTF-8).  Every error names the file and the line it was found on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "jutil.h"

struct parser {
	const char *name;
	const char *p, *end;
	int line;
	bool failed;
};

static void perr(struct parser *ps, const char *msg, int ch)
{
	if (ps->failed)
		return;
	ps->failed = true;
	if (ch >= 0x20 && ch < 0x7f)
		jerror(ps->name, ps->line, "%s (at '%c')", msg, ch);
	else
		jerror(ps->name, ps->line, "%s", msg);
}

static int peek(struct parser *ps)
{
	return ps->p < ps->end ? (unsigned char)*ps->p : -1;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end) {
		char c = *ps->p;

		if (c == '\n')
			ps->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			break;
		ps->p++;
	}
}

static struct json *new_value(struct parser *ps, enum json_type type)
{
	struct json *j = xzalloc(sizeof(*j));

	j->type = type;
	j->line = ps->line;
	return j;
}

static struct json *parse_value(struct parser *ps, int depth);

static void put_utf8(struct strbuf *sb, unsigned long cp)
{
	if (cp < 0x80) {
		sb_addc(sb, cp);
	} else if (cp < 0x800) {
		sb_addc(sb, 0xc0 | (cp >> 6));
		sb_addc(sb, 0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		sb_addc(sb, 0xe0 | (cp >> 12));
		sb_addc(sb, 0x80 | ((cp >> 6) & 0x3f));
		sb_addc(sb, 0x80 | (cp & 0x3f));
	} else {
		sb_addc(sb, 0xf0 | (cp >> 18));
		sb_addc(sb, 0x80 | ((cp >> 12) & 0x3f));
		sb_addc(sb, 0x80 | ((cp >> 6) & 0x3f));
		sb_addc(sb, 0x80 | (cp & 0x3f));
	}
}

static int hex4(struct parser *ps, unsigned long *out)
{
	unsigned long v = 0;

	for (int i = 0; i < 4; i++) {
		int c = peek(ps);

		v <<= 4;
		if (c >= '0' && c <= '9') {
			v |= c - '0';
		} else if (c >= 'a' && c <= 'f') {
			v |= c - 'a' + 10;
		} else if (c >= 'A' && c <= 'F') {
			v |= c - 'A' + 10;
		} else {
			perr(ps, "bad \\u escape in string", c);
			return -1;
		}
		ps->p++;
	}
	*out = v;
	return 0;
}

/* At the opening quote; returns the decoded string. */
static char *parse_string(struct parser *ps)
{
	struct strbuf sb = STRBUF_INIT;

	ps->p++;
	for (;;) {
		int c = peek(ps);

		if (c < 0) {
			perr(ps, "unterminated string", -1);
			goto fail;
		}
		ps->p++;
		if (c == '"')
			break;
		if (c < 0x20) {
			perr(ps, c == '\n' ? "newline inside a string" :
			     "control character inside a string", -1);
			goto fail;
		}
		if (c != '\\') {
			sb_addc(&sb, c);
			continue;
		}
		c = peek(ps);
		ps->p++;
		switch (c) {
		case '"': case '\\': case '/':
			sb_addc(&sb, c);
			break;
		case 'b':
			sb_addc(&sb, '\b');
			break;
		case 'f':
			sb_addc(&sb, '\f');
			break;
		case 'n':
			sb_addc(&sb, '\n');
			break;
		case 'r':
			sb_addc(&sb, '\r');
			break;
		case 't':
			sb_addc(&sb, '\t');
			break;
		case 'u': {
			unsigned long cp, lo;

			if (hex4(ps, &cp))
				goto fail;
			if (cp >= 0xd800 && cp < 0xdc00) {
				if (ps->end - ps->p < 6 || ps->p[0] != '\\' ||
				    ps->p[1] != 'u') {
					perr(ps, "lone surrogate in \\u escape", -1);
					goto fail;
				}
				ps->p += 2;
				if (hex4(ps, &lo))
					goto fail;
				if (lo < 0xdc00 || lo >= 0xe000) {
					perr(ps, "bad surrogate pair in \\u escape", -1);
					goto fail;
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp < 0xe000) {
				perr(ps, "lone surrogate in \\u escape", -1);
				goto fail;
			}
			if (cp == 0) {
				perr(ps, "\\u0000 is not allowed in a string", -1);
				goto fail;
			}
			put_utf8(&sb, cp);
			break;
		}
		default:
			ps->p--;
			perr(ps, "bad escape in string", c);
			goto fail;
		}
	}
	return sb_detach(&sb);
fail:
	sb_release(&sb);
	return NULL;
}

static struct json *parse_number(struct parser *ps)
{
	const char *start = ps->p;
	struct json *j;

	if (peek(ps) == '-')
		ps->p++;
	if (peek(ps) == '0') {
		ps->p++;
	} else if (peek(ps) >= '1' && peek(ps) <= '9') {
		while (peek(ps) >= '0' && peek(ps) <= '9')
			ps->p++;
	} else {
		perr(ps, "bad number", peek(ps));
		return NULL;
	}
	if (peek(ps) == '.') {
		ps->p++;
		if (!(peek(ps) >= '0' && peek(ps) <= '9')) {
			perr(ps, "bad number", peek(ps));
			return NULL;
		}
		while (peek(ps) >= '0' && peek(ps) <= '9')
			ps->p++;
	}
	if (peek(ps) == 'e' || peek(ps) == 'E') {
		ps->p++;
		if (peek(ps) == '+' || peek(ps) == '-')
			ps->p++;
		if (!(peek(ps) >= '0' && peek(ps) <= '9')) {
			perr(ps, "bad number", peek(ps));
			return NULL;
		}
		while (peek(ps) >= '0' && peek(ps) <= '9')
			ps->p++;
	}
	j = new_value(ps, JSON_NUMBER);
	j->str = xstrndup(start, ps->p - start);
	return j;
}

static bool literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return false;
	ps->p += n;
	return true;
}

/*
 * After a member of an array (@close ']') or object ('}'): 1 when a comma
 * says another follows, 0 at the closing bracket (consumed), -1 on an
 * error (reported).
 */
static int after_member(struct parser *ps, char close)
{
	const char *what = close == ']' ? "array" : "object";
	char msg[64];

	skip_ws(ps);
	if (peek(ps) == ',') {
		ps->p++;
		skip_ws(ps);
		if (peek(ps) != close)
			return 1;
		snprintf(msg, sizeof(msg), "trailing comma in %s", what);
		perr(ps, msg, -1);
		return -1;
	}
	if (peek(ps) == close) {
		ps->p++;
		return 0;
	}
	snprintf(msg, sizeof(msg), "expected ',' or '%c' in %s", close, what);
	perr(ps, msg, peek(ps));
	return -1;
}

static struct json *parse_array(struct parser *ps, int depth)
{
	struct json *j = new_value(ps, JSON_ARRAY);
	size_t alloc = 0;
	int more;

	ps->p++;
	skip_ws(ps);
	if (peek(ps) == ']') {
		ps->p++;
		return j;
	}
	for (;;) {
		struct json *item = parse_value(ps, depth + 1);

		if (!item)
			goto fail;
		if (j->nr == alloc) {
			alloc = alloc ? alloc * 2 : 8;
			j->items = xrealloc(j->items, alloc * sizeof(*j->items));
		}
		j->items[j->nr++] = item;
		more = after_member(ps, ']');
		if (more < 0)
			goto fail;
		if (!more)
			return j;
	}
fail:
	json_free(j);
	return NULL;
}

static struct json *parse_object(struct parser *ps, int depth)
{
	struct json *j = new_value(ps, JSON_OBJECT);
	size_t alloc = 0;
	int more;

	ps->p++;
	skip_ws(ps);
	if (peek(ps) == '}') {
		ps->p++;
		return j;
	}
	for (;;) {
		struct json *value;
		char *key;
		int key_line = ps->line;

		if (peek(ps) != '"') {
			perr(ps, "expected a string key in object", peek(ps));
			goto fail;
		}
		key = parse_string(ps);
		if (!key)
			goto fail;
		for (size_t i = 0; i < j->nr; i++) {
			if (!strcmp(j->members[i].key, key)) {
				ps->line = key_line;
				perr(ps, "duplicate key in object", -1);
				free(key);
				goto fail;
			}
		}
		skip_ws(ps);
		if (peek(ps) != ':') {
			perr(ps, "expected ':' after key", peek(ps));
			free(key);
			goto fail;
		}
		ps->p++;
		value = parse_value(ps, depth + 1);
		if (!value) {
			free(key);
			goto fail;
		}
		if (j->nr == alloc) {
			alloc = alloc ? alloc * 2 : 8;
			j->members = xrealloc(j->members,
					      alloc * sizeof(*j->members));
		}
		j->members[j->nr].key = key;
		j->members[j->nr].value = value;
		j->nr++;
		more = after_member(ps, '}');
		if (more < 0)
			goto fail;
		if (!more)
			return j;
	}
fail:
	json_free(j);
	return NULL;
}

static struct json *parse_value(struct parser *ps, int depth)
{
	struct json *j;
	int c;

	if (depth > 64) {
		perr(ps, "nesting too deep", -1);
		return NULL;
	}
	skip_ws(ps);
	c = peek(ps);
	switch (c) {
	case '{':
		return parse_object(ps, depth);
	case '[':
		return parse_array(ps, depth);
	case '"': {
		int line = ps->line;
		char *s = parse_string(ps);

		if (!s)
			return NULL;
		j = new_value(ps, JSON_STRING);
		j->line = line;
		j->str = s;
		return j;
	}
	case 't':
		if (literal(ps, "true"))
			return new_value(ps, JSON_TRUE);
		break;
	case 'f':
		if (literal(ps, "false"))
			return new_value(ps, JSON_FALSE);
		break;
	case 'n':
		if (literal(ps, "null"))
			return new_value(ps, JSON_NULL);
		break;
	case -1:
		perr(ps, "unexpected end of file", -1);
		return NULL;
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return parse_number(ps);
		break;
	}
	perr(ps, "unexpected character", c);
	return NULL;
}

struct json *json_parse(const char *name, const char *text, size_t len)
{
	struct parser ps = {
		.name = name, .p = text, .end = text + len, .line = 1,
	};
	struct json *j;

	/* A UTF-8 byte order mark is tolerated. */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		ps.p += 3;
	j = parse_value(&ps, 0);
	if (!j)
		return NULL;
	skip_ws(&ps);
	if (ps.p != ps.end) {
		perr(&ps, "trailing text after the JSON value", peek(&ps));
		json_free(j);
		return NULL;
	}
	return j;
}

struct json *json_parse_file(const char *path)
{
	struct json *j;
	size_t len;
	char *text = read_file(path, &len);

	if (!text)
		return NULL;
	j = json_parse(path, text, len);
	free(text);
	return j;
}

void json_free(struct json *j)
{
	if (!j)
		return;
	free(j->str);
	for (size_t i = 0; j->type == JSON_ARRAY && i < j->nr; i++)
		json_free(j->items[i]);
	for (size_t i = 0; j->type == JSON_OBJECT && i < j->nr; i++) {
		free(j->members[i].key);
		json_free(j->members[i].value);
	}
	free(j->items);
	free(j->members);
	free(j);
}

struct json *json_get(const struct json *obj, const char *key)
{
	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->nr; i++)
		if (!strcmp(obj->members[i].key, key))
			return obj->members[i].value;
	return NULL;
}
