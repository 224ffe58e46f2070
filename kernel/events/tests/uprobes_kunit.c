// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the pieces of uprobes.c that work without a task at a
 * breakpoint: the slots of an XOL page (the trampoline's first, every
 * other one given out once, freed slots given out again) and the choice
 * of the return instances a return to the trampoline ends (the returning
 * frame, the tail calls chained to it, the frames longjmp left), decided
 * by the architecture's arch_uretprobe_is_alive() on a built pt_regs.
 *
 * Locking: none; the structures are the test's own.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/uprobes.h>

#include "../internal.h"

#define SLOTS	(PAGE_SIZE / UPROBE_XOL_SLOT_BYTES)

static unsigned long trampoline_slots(void)
{
	unsigned long size;

	arch_uprobe_trampoline(&size);
	return DIV_ROUND_UP(size, UPROBE_XOL_SLOT_BYTES);
}

/* Every slot after the trampoline's is given out once, then -ENOSPC. */
static void xol_slots_all_once(struct kunit *test)
{
	struct xol_area *area = uprobe_xol_alloc();
	unsigned long reserved = trampoline_slots(), n;
	unsigned long *seen;
	long slot;

	KUNIT_ASSERT_NOT_NULL(test, area);
	seen = bitmap_zalloc(SLOTS, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	KUNIT_EXPECT_GE(test, reserved, 1UL);
	for (n = 0; n < SLOTS - reserved; n++) {
		slot = uprobe_xol_try_take(area);
		KUNIT_ASSERT_GE(test, slot, (long)reserved);
		KUNIT_ASSERT_LT(test, slot, (long)SLOTS);
		KUNIT_EXPECT_FALSE(test, test_and_set_bit(slot, seen));
	}
	KUNIT_EXPECT_EQ(test, uprobe_xol_try_take(area), -ENOSPC);
	bitmap_free(seen);
	uprobe_xol_free(area);
}

/* A freed slot is the one given out next; the count follows. */
static void xol_slot_reused(struct kunit *test)
{
	struct xol_area *area = uprobe_xol_alloc();
	unsigned long n;
	long a, b, c;

	KUNIT_ASSERT_NOT_NULL(test, area);
	a = uprobe_xol_try_take(area);
	b = uprobe_xol_try_take(area);
	KUNIT_ASSERT_GE(test, a, 0L);
	KUNIT_EXPECT_NE(test, a, b);
	uprobe_xol_put(area, a);
	c = uprobe_xol_try_take(area);
	KUNIT_EXPECT_EQ(test, c, a);
	uprobe_xol_put(area, b);
	uprobe_xol_put(area, c);
	/* back to the trampoline's slots alone: all the others are free */
	for (n = 0; uprobe_xol_try_take(area) >= 0; n++)
		;
	KUNIT_EXPECT_EQ(test, n, SLOTS - trampoline_slots());
	uprobe_xol_free(area);
}

/*
 * A stack of return instances, newest first: @stacks[i] is the stack
 * pointer at the entry of frame i, @chained[i] its flag.
 */
static struct return_instance *build(struct kunit *test,
				     const unsigned long *stacks,
				     const bool *chained, int nr)
{
	struct return_instance *top = NULL, *ri;
	int i;

	for (i = nr - 1; i >= 0; i--) {
		ri = kunit_kzalloc(test, sizeof(*ri), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, ri);
		ri->stack = stacks[i];
		ri->chained = chained[i];
		ri->orig_ret_vaddr = 0x1000 + i;
		ri->next = top;
		top = ri;
	}
	return top;
}

static struct return_instance *nth(struct return_instance *ri, int n)
{
	while (n--)
		ri = ri->next;
	return ri;
}

/*
 * The stack pointer just after frame @stack returned: one word above
 * where it was at the entry, on each architecture's reading of "alive".
 */
static void returned_from(struct pt_regs *regs, unsigned long stack)
{
	memset(regs, 0, sizeof(*regs));
	regs->sp = stack + sizeof(long);
}

/* The newest frame returns: it alone. */
static void ret_newest(struct kunit *test)
{
	static const unsigned long stacks[] = { 0x7000, 0x8000, 0x9000 };
	static const bool chained[] = { false, false, false };
	struct return_instance *top = build(test, stacks, chained, 3);
	struct return_instance *first, *last;
	struct pt_regs regs;

	returned_from(&regs, 0x7000);
	uprobe_find_returning(top, &regs, &first, &last);
	KUNIT_EXPECT_PTR_EQ(test, first, top);
	KUNIT_EXPECT_PTR_EQ(test, last, top);
}

/* longjmp left the two newest frames: the third returns, they are dropped. */
static void ret_after_longjmp(struct kunit *test)
{
	static const unsigned long stacks[] = { 0x6000, 0x7000, 0x8000, 0x9000 };
	static const bool chained[] = { false, false, false, false };
	struct return_instance *top = build(test, stacks, chained, 4);
	struct return_instance *first, *last;
	struct pt_regs regs;

	returned_from(&regs, 0x8000);
	uprobe_find_returning(top, &regs, &first, &last);
	KUNIT_EXPECT_PTR_EQ(test, first, nth(top, 2));
	KUNIT_EXPECT_PTR_EQ(test, last, nth(top, 2));
}

/*
 * Two tail calls chained to a frame: the three return together, and a
 * stale frame above them is not part of the chain.
 */
static void ret_chain(struct kunit *test)
{
	static const unsigned long stacks[] = {
		0x5000, 0x8000, 0x8000, 0x8000, 0x9000,
	};
	static const bool chained[] = { false, true, true, false, false };
	struct return_instance *top = build(test, stacks, chained, 5);
	struct return_instance *first, *last;
	struct pt_regs regs;

	returned_from(&regs, 0x8000);
	uprobe_find_returning(top, &regs, &first, &last);
	KUNIT_EXPECT_PTR_EQ(test, first, nth(top, 1));
	KUNIT_EXPECT_PTR_EQ(test, last, nth(top, 3));
}

/* No frame looks gone (the stack was switched): the newest chain returns. */
static void ret_nothing_gone(struct kunit *test)
{
	static const unsigned long stacks[] = { 0x8000, 0x8000, 0x9000 };
	static const bool chained[] = { true, false, false };
	struct return_instance *top = build(test, stacks, chained, 3);
	struct return_instance *first, *last;
	struct pt_regs regs;

	returned_from(&regs, 0x1000);
	uprobe_find_returning(top, &regs, &first, &last);
	KUNIT_EXPECT_PTR_EQ(test, first, top);
	KUNIT_EXPECT_PTR_EQ(test, last, nth(top, 1));
}

static struct kunit_case uprobes_cases[] = {
	KUNIT_CASE(xol_slots_all_once),
	KUNIT_CASE(xol_slot_reused),
	KUNIT_CASE(ret_newest),
	KUNIT_CASE(ret_after_longjmp),
	KUNIT_CASE(ret_chain),
	KUNIT_CASE(ret_nothing_gone),
	{}
};

static struct kunit_suite uprobes_suite = {
	.name = "perf_uprobes",
	.test_cases = uprobes_cases,
};

kunit_test_suite(uprobes_suite);
