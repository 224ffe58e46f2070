// SPDX-License-Identifier: GPL-2.0
/*
 * expr.c - metric expressions for jevents (see expr.h).
 *
 * Tokens follow the perf tool's expression scanner: a number is
 * digits with an optional point and an optional "e[-]digits" exponent; a
 * symbol is a run of [0-9A-Za-z_.:@?] and backslash-escaped '-', ',' or '=';
 * a literal is '#' and [0-9A-Za-z_.-]; the longest match wins and a number
 * wins a tie.  if, else, d_ratio, min, max, source_count, has_event,
 * strcmp_cpuid_str and NaN are keywords.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "jutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

enum tok {
	T_END, T_NUM, T_ID, T_LIT, T_NAN,
	T_IF, T_ELSE, T_DRATIO, T_MIN, T_MAX, T_SRCCNT, T_HASEV, T_CPUID,
	T_OP,		/* one of | ^ & < > + - * / % */
	T_LPAR, T_RPAR, T_COMMA,
};

enum node_kind { N_LEAF, N_BIN, N_NEG, N_IF, N_CALL };

struct node {
	enum node_kind kind;
	char op;		/* N_BIN */
	bool number;		/* N_LEAF: a number, not a symbol */
	char *text;		/* N_LEAF: the token; N_CALL: the function */
	struct node *a, *b, *c;	/* operands; N_IF: a if b else c */
};

struct lexer {
	const char *s, *p;
	enum tok tok;
	char op;
	char *text;
	const char *file;
	int line;
	bool failed;
};

static const struct {
	const char *word;
	enum tok tok;
} keywords[] = {
	{ "if", T_IF }, { "else", T_ELSE }, { "d_ratio", T_DRATIO },
	{ "min", T_MIN }, { "max", T_MAX }, { "source_count", T_SRCCNT },
	{ "has_event", T_HASEV }, { "strcmp_cpuid_str", T_CPUID },
	{ "NaN", T_NAN },
};

static void lerr(struct lexer *lx, const char *msg)
{
	if (lx->failed)
		return;
	lx->failed = true;
	jerror(lx->file, lx->line, "metric expression \"%s\": %s at offset %d",
	       lx->s, msg, (int)(lx->p - lx->s));
}

static bool sym_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == ':' ||
	       c == '@' || c == '?';
}

static size_t number_len(const char *p)
{
	const char *q = p;
	size_t digits = 0;

	while (isdigit((unsigned char)*q)) {
		q++;
		digits++;
	}
	if (*q == '.') {
		q++;
		while (isdigit((unsigned char)*q)) {
			q++;
			digits++;
		}
	}
	if (!digits)
		return 0;
	if (*q == 'e') {
		const char *e = q + 1;

		if (*e == '-')
			e++;
		if (isdigit((unsigned char)*e)) {
			while (isdigit((unsigned char)*e))
				e++;
			q = e;
		}
	}
	return q - p;
}

static size_t symbol_len(const char *p)
{
	const char *q = p;

	for (;;) {
		if (sym_char(*q))
			q++;
		else if (q[0] == '\\' && (q[1] == '-' || q[1] == ',' ||
					  q[1] == '='))
			q += 2;
		else
			break;
	}
	return q - p;
}

static void next(struct lexer *lx)
{
	size_t nlen, slen;

	free(lx->text);
	lx->text = NULL;
	while (isspace((unsigned char)*lx->p))
		lx->p++;
	if (!*lx->p) {
		lx->tok = T_END;
		return;
	}
	if (strchr("|^&<>+-*/%", *lx->p)) {
		lx->tok = T_OP;
		lx->op = *lx->p++;
		return;
	}
	switch (*lx->p) {
	case '(':
	case ')':
	case ',':
		lx->tok = *lx->p == '(' ? T_LPAR : *lx->p == ')' ? T_RPAR : T_COMMA;
		lx->p++;
		return;
	case '#': {
		const char *q = lx->p + 1;

		while (isalnum((unsigned char)*q) || *q == '_' || *q == '.' ||
		       *q == '-')
			q++;
		if (q == lx->p + 1)
			break;
		lx->tok = T_LIT;
		lx->text = xstrndup(lx->p, q - lx->p);
		lx->p = q;
		return;
	}
	default:
		break;
	}
	nlen = number_len(lx->p);
	slen = symbol_len(lx->p);
	if (!nlen && !slen) {
		lerr(lx, "unexpected character");
		lx->tok = T_END;
		return;
	}
	if (nlen >= slen) {
		lx->tok = T_NUM;
		lx->text = xstrndup(lx->p, nlen);
		lx->p += nlen;
		return;
	}
	lx->text = xstrndup(lx->p, slen);
	lx->p += slen;
	lx->tok = T_ID;
	for (size_t i = 0; i < ARRAY_SIZE(keywords); i++)
		if (!strcmp(lx->text, keywords[i].word))
			lx->tok = keywords[i].tok;
}

static struct node *leaf(const char *text)
{
	struct node *n = xzalloc(sizeof(*n));

	n->kind = N_LEAF;
	n->text = xstrdup(text);
	return n;
}

static void free_node(struct node *n)
{
	if (!n)
		return;
	free(n->text);
	free_node(n->a);
	free_node(n->b);
	free_node(n->c);
	free(n);
}

static int binary_prec(char op)
{
	switch (op) {
	case '|': return 2;
	case '^': return 3;
	case '&': return 4;
	case '<': case '>': return 5;
	case '+': case '-': return 6;
	case '*': case '/': case '%': return 7;
	}
	return 0;
}

#define PREC_UNARY	8
#define PREC_ATOM	9

static struct node *parse_if(struct lexer *lx);
static struct node *parse_binary(struct lexer *lx, int min_prec);

static bool expect(struct lexer *lx, enum tok want, const char *what)
{
	if (lx->tok != want) {
		lerr(lx, what);
		return false;
	}
	next(lx);
	return true;
}

static struct node *parse_primary(struct lexer *lx)
{
	struct node *n = NULL;

	if (lx->failed)
		return NULL;
	switch (lx->tok) {
	case T_NUM: case T_ID: case T_LIT: case T_NAN:
		n = leaf(lx->tok == T_NAN ? "NaN" : lx->text);
		n->number = lx->tok == T_NUM;
		next(lx);
		return n;
	case T_OP:
		if (lx->op != '-')
			break;
		next(lx);
		n = xzalloc(sizeof(*n));
		n->kind = N_NEG;
		n->a = parse_binary(lx, PREC_UNARY);
		if (!n->a) {
			free_node(n);
			return NULL;
		}
		return n;
	case T_LPAR:
		next(lx);
		n = parse_if(lx);
		if (!n || !expect(lx, T_RPAR, "expected ')'")) {
			free_node(n);
			return NULL;
		}
		return n;
	case T_SRCCNT: case T_HASEV: case T_CPUID: {
		const char *fn = lx->tok == T_SRCCNT ? "source_count" :
				 lx->tok == T_HASEV ? "has_event" :
				 "strcmp_cpuid_str";

		next(lx);
		if (!expect(lx, T_LPAR, "expected '(' after function name"))
			return NULL;
		if (lx->tok != T_ID && lx->tok != T_NUM) {
			lerr(lx, "expected an event name");
			return NULL;
		}
		n = xzalloc(sizeof(*n));
		n->kind = N_CALL;
		n->text = xstrdup(fn);
		n->a = leaf(lx->text);
		next(lx);
		if (!expect(lx, T_RPAR, "expected ')'")) {
			free_node(n);
			return NULL;
		}
		return n;
	}
	case T_DRATIO: case T_MIN: case T_MAX: {
		const char *fn = lx->tok == T_DRATIO ? "d_ratio" :
				 lx->tok == T_MIN ? "min" : "max";

		next(lx);
		if (!expect(lx, T_LPAR, "expected '(' after function name"))
			return NULL;
		n = xzalloc(sizeof(*n));
		n->kind = N_CALL;
		n->text = xstrdup(fn);
		n->a = parse_if(lx);
		if (!n->a || !expect(lx, T_COMMA, "expected ','")) {
			free_node(n);
			return NULL;
		}
		n->b = parse_if(lx);
		if (!n->b || !expect(lx, T_RPAR, "expected ')'")) {
			free_node(n);
			return NULL;
		}
		return n;
	}
	case T_END:
		lerr(lx, "unexpected end of expression");
		return NULL;
	default:
		break;
	}
	lerr(lx, "unexpected token");
	return NULL;
}

static struct node *parse_binary(struct lexer *lx, int min_prec)
{
	struct node *left = parse_primary(lx);

	while (left && lx->tok == T_OP && binary_prec(lx->op) >= min_prec) {
		char op = lx->op;
		struct node *n;

		next(lx);
		n = xzalloc(sizeof(*n));
		n->kind = N_BIN;
		n->op = op;
		n->a = left;
		n->b = parse_binary(lx, binary_prec(op) + 1);
		if (!n->b) {
			free_node(n);
			return NULL;
		}
		left = n;
	}
	return left;
}

/* expr [if expr else if_expr] */
static struct node *parse_if(struct lexer *lx)
{
	struct node *n, *a = parse_binary(lx, 2);

	if (!a || lx->tok != T_IF)
		return a;
	next(lx);
	n = xzalloc(sizeof(*n));
	n->kind = N_IF;
	n->a = a;
	n->b = parse_binary(lx, 2);
	if (!n->b || !expect(lx, T_ELSE, "expected 'else'")) {
		free_node(n);
		return NULL;
	}
	n->c = parse_if(lx);
	if (!n->c) {
		free_node(n);
		return NULL;
	}
	return n;
}

static int node_prec(const struct node *n)
{
	switch (n->kind) {
	case N_BIN: return binary_prec(n->op);
	case N_NEG: return PREC_UNARY;
	default: return PREC_ATOM;	/* N_IF prints its own parentheses */
	}
}

static void print_node(struct strbuf *sb, const struct node *n);

static void print_sub(struct strbuf *sb, const struct node *n, bool paren)
{
	if (paren)
		sb_addc(sb, '(');
	print_node(sb, n);
	if (paren)
		sb_addc(sb, ')');
}

static void print_node(struct strbuf *sb, const struct node *n)
{
	int p = node_prec(n);

	switch (n->kind) {
	case N_LEAF:
		sb_add(sb, n->text);
		break;
	case N_NEG:
		sb_addc(sb, '-');
		print_sub(sb, n->a, node_prec(n->a) < PREC_UNARY);
		break;
	case N_BIN:
		print_sub(sb, n->a, node_prec(n->a) < p);
		sb_addf(sb, " %c ", n->op);
		print_sub(sb, n->b, node_prec(n->b) <= p);
		break;
	case N_IF:
		/* Always in parentheses, wherever it stands. */
		sb_addc(sb, '(');
		print_node(sb, n->a);
		sb_add(sb, " if ");
		print_node(sb, n->b);
		sb_add(sb, " else ");
		print_node(sb, n->c);
		sb_addc(sb, ')');
		break;
	case N_CALL:
		sb_add(sb, n->text);
		sb_addc(sb, '(');
		print_node(sb, n->a);
		if (n->b) {
			sb_add(sb, ", ");
			print_node(sb, n->b);
		}
		sb_addc(sb, ')');
		break;
	}
}

static bool is_num(const struct node *n, double *v)
{
	char *end;

	if (n->kind != N_LEAF || !n->number)
		return false;
	*v = strtod(n->text, &end);
	return !*end;
}

/*
 * A number as stored: from 1000 up in engineering notation (exponent a
 * multiple of 3, shortest mantissa that reads back the same), else as
 * written.
 */
static char *format_number(double v, const char *as_written)
{
	char mant[64];
	int e = 0;
	double m;

	if (!(v >= 1000) || v > 1e300)
		return xstrdup(as_written);
	m = v;
	while (m >= 1000) {
		m /= 1000;
		e += 3;
	}
	for (int prec = 0; prec <= 17; prec++) {
		snprintf(mant, sizeof(mant), "%.*f", prec, m);
		if (strtod(mant, NULL) == m)
			break;
	}
	return xasprintf("%se%d", mant, e);
}

static void set_number(struct node *n, double v)
{
	char buf[64];

	free_node(n->a);
	free_node(n->b);
	n->a = NULL;
	n->b = NULL;
	n->kind = N_LEAF;
	n->number = true;
	free(n->text);
	/* The shortest text that reads back as @v. */
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	n->text = format_number(v, buf);
}

/* Replace @n by its child @keep. */
static void collapse(struct node *n, struct node *keep)
{
	struct node *drop = keep == n->a ? n->b : n->a;

	free_node(drop);
	free(n->text);
	*n = *keep;
	free(keep);
}

/*
 * Fold the arithmetic of two numbers and drop multiplications and
 * divisions by one and additions of zero.
 */
static void simplify(struct node *n)
{
	double x, y;

	if (!n)
		return;
	simplify(n->a);
	simplify(n->b);
	simplify(n->c);
	if (n->kind == N_LEAF && is_num(n, &x)) {
		char *t = format_number(x, n->text);

		free(n->text);
		n->text = t;
		return;
	}
	if (n->kind != N_BIN)
		return;
	if (is_num(n->a, &x) && is_num(n->b, &y)) {
		if (n->op == '+' || n->op == '-' || n->op == '*' ||
		    (n->op == '/' && y != 0)) {
			set_number(n, n->op == '+' ? x + y : n->op == '-' ? x - y :
				   n->op == '*' ? x * y : x / y);
			return;
		}
	}
	if ((n->op == '*' || n->op == '/') && is_num(n->b, &y) && y == 1)
		collapse(n, n->a);
	else if (n->op == '*' && is_num(n->a, &x) && x == 1)
		collapse(n, n->b);
	else if ((n->op == '+' || n->op == '-') && is_num(n->b, &y) && y == 0)
		collapse(n, n->a);
	else if (n->op == '+' && is_num(n->a, &x) && x == 0)
		collapse(n, n->b);
}

char *expr_canonical(const char *text, const char *file, int line)
{
	struct lexer lx = { .s = text, .p = text, .file = file, .line = line };
	struct strbuf sb = STRBUF_INIT;
	struct node *n;

	next(&lx);
	n = parse_if(&lx);
	if (n && lx.tok != T_END)
		lerr(&lx, "unexpected text after the expression");
	free(lx.text);
	if (!n || lx.failed) {
		free_node(n);
		return NULL;
	}
	simplify(n);
	print_node(&sb, n);
	free_node(n);
	return sb_detach(&sb);
}
