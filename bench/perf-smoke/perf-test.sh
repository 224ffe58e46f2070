#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf_test (host tools, in the guest): "perf test", one top-level test at a
# time under its own hard timeout, as lines "PERFTEST <n> <result> <name>".
# The result is perf's (Ok, Skip, FAILED!) or "timeout".
# perf 6.12 runs from its source tree (PERF_TEST_DIR), where it finds its
# shell tests.
export PERF_PAGER=cat
cd "${PERF_TEST_DIR:-/tmp}" || exit 1
limit=${PERF_TEST_TIMEOUT:-90}
perf test list > list.txt 2>&1
awk -F: '$1 ~ /^ *[0-9]+$/ && NF >= 2 && $2 !~ /^[0-9]/ { gsub(/ /, "", $1); print $1 }' list.txt |
while read -r num; do
	name=$(awk -v n="$num" '{ k = $0; sub(/:.*/, "", k); gsub(/ /, "", k) }
		k == n && $0 !~ /^ *[0-9]+:[0-9]/ { sub(/^ *[0-9]+: */, ""); print; exit }' list.txt)
	timeout -s KILL "$limit" perf test "$num" > out.txt 2>&1 < /dev/null
	rc=$?
	if [ "$rc" = 137 ]; then
		result=timeout
	elif grep -q 'FAILED' out.txt; then
		result=FAILED
	elif grep -q ': Ok' out.txt; then
		result=Ok
	elif grep -q -i ': Skip' out.txt; then
		result=Skip
	else
		result="rc$rc"
	fi
	echo "PERFTEST $num $result $name"
done
echo "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:0 error:0"
