// SPDX-License-Identifier: GPL-2.0
/*
 * A fixed, branchy user-space workload for the last branch records (make
 * x86-models part lbr): conditional jumps taken and not, direct and
 * indirect calls, returns, an indirect jump (a switch), nested three deep,
 * and a system call every 16 turns (branches into and out of the kernel).
 * Static and not position independent, so that its addresses are the same
 * in every run; what it computes is printed, so that nothing is optimised
 * away.  lbr-workload [TURNS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) static unsigned long middle(unsigned long x)
{
	if (x & 1)
		return leaf(x) + leaf(x >> 1);
	return leaf(x >> 2);
}

__attribute__((noinline)) static unsigned long other(unsigned long x)
{
	return middle(x + 7) ^ x;
}

static unsigned long (*const table[2])(unsigned long) = { middle, other };

__attribute__((noinline)) static unsigned long pick(unsigned long x)
{
	switch (x % 5) {
	case 0:
		return x + 11;
	case 1:
		return x ^ 0x55;
	case 2:
		return x * 7;
	case 3:
		return x >> 1;
	default:
		return x - 3;
	}
}

int main(int argc, char **argv)
{
	unsigned long turns = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000;
	unsigned long i, acc = 0;

	for (i = 0; i < turns; i++) {
		acc += table[i & 1](i);
		acc ^= pick(acc);
		if (!(i & 15))
			acc += getppid() & 1;
	}
	sink = acc;
	printf("%lu\n", acc);
	return 0;
}
