# SPDX-License-Identifier: GPL-2.0
# The TAP helpers of the workbench's shell checks (bench/perf-smoke/
# checks.sh, bench/qemu/pmu-checks.sh, bench/modules/checks.sh), put in
# front of each when it is copied into a guest: check NAME COND WHY
# prints "ok N NAME" when COND is 1, else "not ok N NAME # WHY";
# skip_check NAME WHY; is EXPR gives awk's verdict on EXPR, 1 or 0; the
# counts end in the caller's "# Totals:" line.  POSIX sh (busybox too).
n=0 pass=0 fail=0 skip=0
check() {
	n=$((n + 1))
	if [ "$2" = 1 ]; then
		pass=$((pass + 1))
		echo "ok $n $1"
	else
		fail=$((fail + 1))
		echo "not ok $n $1 # $3"
	fi
}
skip_check() {
	n=$((n + 1)) skip=$((skip + 1))
	echo "ok $n $1 # SKIP $2"
}
is() { awk "BEGIN { print ($1) ? 1 : 0 }"; }
