// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/bus/event_source/devices/cpu/freeze_on_smi, the Intel core PMU's
 * switch for counters frozen while a CPU is in System Management Mode
 * (IA32_DEBUGCTL.FREEZE_WHILE_SMM): root may write 0 or 1, in any base
 * that strtoul() reads, with an optional newline; anything else is EINVAL,
 * or ERANGE beyond an unsigned long; other users may read it only.
 * Skips where the file does not exist (no PMU, or AMD's).  The value found
 * is written back at the end.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include "perf_helpers.h"
#include "../kselftest_harness.h"

#define FREEZE	"/sys/bus/event_source/devices/cpu/freeze_on_smi"

/* the file's contents, "0\n" or "1\n" */
static int read_value(char *buf, size_t len)
{
	int fd = open(FREEZE, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

FIXTURE(freeze) {
	long saved;
};

FIXTURE_SETUP(freeze)
{
	if (access(FREEZE, F_OK))
		SKIP(return, "no freeze_on_smi (no Intel core PMU)");
	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_EQ(read_int_file(FREEZE, &self->saved), 0);
}

FIXTURE_TEARDOWN(freeze)
{
	if (!access(FREEZE, F_OK) && !geteuid())
		write_int_file(FREEZE, self->saved);
}

TEST_F(freeze, mode_and_value)
{
	struct stat st;
	char buf[16];

	ASSERT_EQ(stat(FREEZE, &st), 0);
	EXPECT_EQ(st.st_mode & 07777, 0644);
	ASSERT_EQ(read_value(buf, sizeof(buf)), 0);
	EXPECT_TRUE(!strcmp(buf, "0\n") || !strcmp(buf, "1\n"));
}

TEST_F(freeze, zero_and_one_in_any_base)
{
	static const struct {
		const char *in;
		const char *out;
	} ok[] = {
		{ "0", "0\n" }, { "1", "1\n" }, { "0\n", "0\n" },
		{ "1\n", "1\n" }, { "00", "0\n" }, { "01", "1\n" },
		{ "0x0", "0\n" }, { "0x1", "1\n" },
	};
	char buf[16];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		EXPECT_EQ(write_str_file(FREEZE, ok[i].in), 0) {
			TH_LOG("\"%s\"", ok[i].in);
		}
		ASSERT_EQ(read_value(buf, sizeof(buf)), 0);
		EXPECT_STREQ(buf, ok[i].out);
	}
}

TEST_F(freeze, bad_values_change_nothing)
{
	static const char *const einval[] = {
		"2", "-1", " 1", "1 ", "1x", "abc", "0x10", "\n",
	};
	char buf[16];
	unsigned int i;

	ASSERT_EQ(write_str_file(FREEZE, "1"), 0);
	for (i = 0; i < ARRAY_SIZE(einval); i++) {
		EXPECT_EQ(write_str_file(FREEZE, einval[i]), -EINVAL) {
			TH_LOG("\"%s\"", einval[i]);
		}
	}
	EXPECT_EQ(write_str_file(FREEZE, "18446744073709551616"), -ERANGE);
	ASSERT_EQ(read_value(buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "1\n");
}

/* an unprivileged user reads it and cannot open it for writing */
TEST_F(freeze, others_read_only)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		char buf[16];

		if (setgid(65534) || setuid(65534))
			_exit(2);
		if (read_value(buf, sizeof(buf)))
			_exit(3);
		_exit(open(FREEZE, O_WRONLY) < 0 && errno == EACCES ? 0 : 4);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST_HARNESS_MAIN
