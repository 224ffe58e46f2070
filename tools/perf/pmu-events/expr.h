/* SPDX-License-Identifier: GPL-2.0 */
/*
 * expr.h - metric expressions for jevents: parse, check, print.
 *
 * A MetricExpr or MetricThreshold is parsed into a tree with the operator
 * precedence of the perf tool's own expression grammar (the one that reads
 * the stored string back at run time): "a if c else b" lowest, then |, ^,
 * &, < and >, + and -, * / and %, unary minus; all binary operators are left
 * associative.  The tree is printed back with the parentheses that grammar
 * needs and no others, one space around each binary operator, so that the
 * stored form is canonical and always parses.
 */
#ifndef JEVENTS_EXPR_H
#define JEVENTS_EXPR_H

/*
 * Parse @text and return its canonical form (malloc'd).  On a syntax error
 * print "file:line: error: ..." with @file and @line and return NULL.
 */
char *expr_canonical(const char *text, const char *file, int line);

#endif
