#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# perf-list-compare.sh - "perf list --details" and "perf list -j" of two
# perf builds (stock's tables and ours), for each line of a mapfile, the
# CPU named through PERF_CPUID with CPUIDs that line's regular expression
# matches: its first and its last alternatives, each with two steppings
# (x86) or revisions (arm64), so that CPUIDs only the regex names are
# tried too.  What perf lists depends on the PMUs of the machine it runs
# on: on a machine without a core PMU the JSON events are not listed, the
# metrics are.  Prints one line per CPUID and "N passed, N failed".
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

# A string the x86 mapfile regex $2 matches: with $1 "first", the first
# character of each bracket and the first alternative of each group; with
# "last", the last ones (another model, stepping or revision that only the
# regular expression names).
sample() {
	local s=$2

	if [ "$1" = first ]; then
		s=$(echo "$s" | sed -E 's/\[\[:xdigit:\]\]\+?/A/g;
			s/\[([^]^])[^]]*\]/\1/g; s/\(([^|)]*)(\|[^)]*)?\)/\1/g;
			s/\.\*//g; s/^\^//; s/\$$//')
	else
		s=$(echo "$s" | sed -E 's/\[\[:xdigit:\]\]\+?/F/g;
			s/\[[^]^]*([^]^])\]/\1/g; s/\(([^|)]*\|)*([^|)]*)\)/\2/g;
			s/\.\*//g; s/^\^//; s/\$$//')
	fi
	echo "$s"
}

# The CPUIDs to try for mapfile regex $1: its first and last samples, each
# x86 one with stepping 0 and F where the line names none; an arm64 MIDR
# with revision 0 and F.
cpuids() {
	local mode id

	for mode in first last; do
		id=$(sample $mode "$1")
		if ! echo "$id" | grep -Exq "$1"; then
			echo "none:$id"
			continue
		fi
		case $id in
		*Intel*|*AMD*|Hygon*)
			if [ "$(echo "$id" | tr -cd - | wc -c)" -lt 3 ]; then
				echo "$id-0 $id-F"
			else
				echo "$id"
			fi ;;
		0x*) echo "$id ${id%?}f" ;;
		*) echo "$id" ;;
		esac
	done | tr ' ' '\n' | awk '!seen[$0]++'
}

passed=0
failed=0
while IFS=, read -r re _ dir _; do
	case $re in ''|'#'*|Family-model|MIDR) continue ;; esac
	for full in $(cpuids "$re"); do
		if [ "${full#none:}" != "$full" ]; then
			echo "FAIL $re: no sample CPUID (${full#none:})"
			failed=$((failed + 1))
			continue
		fi
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
	done
done < "$MAPFILE"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
