// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe_target N: calls smoke_leaf() N times and smoke_outer() (which
 * calls smoke_leaf() once more) once, then exits.  The probed program of
 * perf_smoke's uprobe checks: a static binary with its symbols, so that
 * perf probe -x and bpftrace's uprobe: find the functions by name.
 */
#include <stdlib.h>

long smoke_sum;

__attribute__((noipa)) long smoke_leaf(long i)
{
	smoke_sum += i;
	return smoke_sum;
}

__attribute__((noipa)) long smoke_outer(long i)
{
	return smoke_leaf(i) + 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;

	for (long i = 0; i < n; i++)
		smoke_leaf(i);
	smoke_outer(n);
	return 0;
}
