#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# perf-list-compare.sh - "perf list --details" and "perf list -j" of two
# perf builds (stock's tables and ours), once per x86 mapfile line, the CPU
# named through PERF_CPUID with a CPUID that line's regular expression
# matches (its first alternatives, stepping 0).  What perf lists depends on
# the PMUs of the machine it runs on: on a machine without a core PMU the
# JSON events are not listed, the metrics are.  Prints one line per CPUID
# and "N passed, N failed".
#
# Usage: perf-list-compare.sh STOCK_PERF OURS_PERF [MAPFILE]
# RUN= prefixes each perf command (for arm64 binaries on an x86 host:
# RUN="qemu-aarch64 -L /usr/aarch64-linux-gnu", with an arm64 MAPFILE).
set -u

STOCK=$1
OURS=$2
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
MAPFILE=${3:-${BASE:-$BUILD/base}/tools/perf/pmu-events/arch/x86/mapfile.csv}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# A string the x86 mapfile regex $1 matches.
sample() {
	local s=$1

	# Hex digit classes, then the first of each bracket, then the first
	# alternative of each group.
	s=$(echo "$s" | sed -E 's/\[\[:xdigit:\]\]\+?/A/g;
		s/\[([^]^])[^]]*\]/\1/g; s/\(([^|)]*)(\|[^)]*)?\)/\1/g;
		s/\.\*//g; s/^\^//; s/\$$//')
	echo "$s"
}

passed=0
failed=0
while IFS=, read -r re _ dir _; do
	case $re in ''|'#'*|Family-model) continue ;; esac
	id=$(sample "$re")
	if ! echo "$id" | grep -Exq "$re"; then
		echo "FAIL $re: no sample CPUID ($id)"
		failed=$((failed + 1))
		continue
	fi
	# x86 vendor-family-model-stepping: add a stepping if the line has none.
	full=$id
	case $id in
	*Intel*|*AMD*|Hygon*)
		[ "$(echo "$id" | tr -cd - | wc -c)" -lt 3 ] && full=$id-0 ;;
	esac
	ok=1
	for args in "--details" "-j"; do
		for kind in stock ours; do
			perf=$STOCK
			[ $kind = ours ] && perf=$OURS
			# shellcheck disable=SC2086
			PERF_CPUID=$full ${RUN:-} "$perf" list $args > "$TMP/$kind" 2>&1
		done
		if ! cmp -s "$TMP/stock" "$TMP/ours"; then
			ok=0
			diff "$TMP/stock" "$TMP/ours" | head -n 6
		fi
	done
	lines=$(wc -l < "$TMP/ours")
	if [ $ok = 1 ]; then
		echo "ok   $full ($dir, $lines lines of -j)"
		passed=$((passed + 1))
	else
		echo "FAIL $full ($dir)"
		failed=$((failed + 1))
	fi
done < "$MAPFILE"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
