// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "perf_guest": the guest-info callbacks (guest.c) and what the
 * arch code makes of them for a sample: a hypervisor's callbacks saying
 * "in a guest" turn the sample's mode into PERF_RECORD_MISC_GUEST_* and
 * its address into the guest's.  A hypervisor already registered (KVM
 * built in) is put aside for the test and registered again after it.
 */
#include <kunit/test.h>
#include <linux/perf_event.h>

static unsigned int fake_state_val;

static unsigned int fake_state(void)
{
	return fake_state_val;
}

static unsigned long fake_ip(void)
{
	return 0x12340000UL;
}

static struct perf_guest_info_callbacks fake_cbs = {
	.state	= fake_state,
	.get_ip	= fake_ip,
};

static void perf_guest_sample_test(struct kunit *test)
{
	struct perf_guest_info_callbacks *saved;
	unsigned long host_misc;
	struct pt_regs regs;

	memset(&regs, 0, sizeof(regs));
	host_misc = user_mode(&regs) ? PERF_RECORD_MISC_USER :
				       PERF_RECORD_MISC_KERNEL;
	saved = rcu_access_pointer(perf_guest_cbs);
	if (saved)
		perf_unregister_guest_info_callbacks(saved);
	KUNIT_EXPECT_EQ(test, perf_guest_state(), 0);
	perf_register_guest_info_callbacks(&fake_cbs);

	fake_state_val = 0;
	KUNIT_EXPECT_EQ(test, perf_misc_flags(&regs), host_misc);
	KUNIT_EXPECT_EQ(test, perf_instruction_pointer(&regs),
			instruction_pointer(&regs));

	fake_state_val = PERF_GUEST_ACTIVE;
	KUNIT_EXPECT_EQ(test, perf_misc_flags(&regs),
			(unsigned long)PERF_RECORD_MISC_GUEST_KERNEL);
	KUNIT_EXPECT_EQ(test, perf_instruction_pointer(&regs), 0x12340000UL);

	fake_state_val = PERF_GUEST_ACTIVE | PERF_GUEST_USER;
	KUNIT_EXPECT_EQ(test, perf_misc_flags(&regs),
			(unsigned long)PERF_RECORD_MISC_GUEST_USER);
	/* no Intel PT forwarding asked: the default answers 0 */
	KUNIT_EXPECT_EQ(test, perf_guest_handle_intel_pt_intr(), 0);

	perf_unregister_guest_info_callbacks(&fake_cbs);
	KUNIT_EXPECT_EQ(test, perf_guest_state(), 0);
	KUNIT_EXPECT_EQ(test, perf_guest_get_ip(), 0);
	if (saved)
		perf_register_guest_info_callbacks(saved);
}

static struct kunit_case perf_guest_cases[] = {
	KUNIT_CASE(perf_guest_sample_test),
	{}
};

static struct kunit_suite perf_guest_suite = {
	.name = "perf_guest",
	.test_cases = perf_guest_cases,
};

kunit_test_suite(perf_guest_suite);
