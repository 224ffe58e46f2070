#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# compare.sh - stock's generated tables against ours, through the contract.
#
# For each ARCH argument of jevents (default: every arch directory, "none"
# for the test tables alone, and "all"), generate pmu-events.c twice: with
# the base's jevents.py (run, never read) and with our jevents; compile
# each, link it with pmu-events-dump.c, dump, and diff: the dump lists
# tables, events and metrics in the order the functions of pmu-events.h
# give them, so an order that differs counts as a difference.  Prints
# "ARCH: N differences" per arch (N counts differing dump lines on both
# sides) and the lines that are not in bench/jevents/known-differences;
# exits non-zero if there are any such lines.
#
# The dump records each arch's mapfile CPUID strings in order, so equal
# dumps also mean that every CPUID resolves to the same table: the matching
# itself is the perf tool's strcmp_cpuid_str(), the same for both.
#
# Environment: BUILD (default ./build), BASE (default $BUILD/base), PYTHON
# (default python3).  Work files under $BUILD/jevents-compare/.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
BASE=${BASE:-$BUILD/base}
PYTHON=${PYTHON:-python3}
OUT=$BUILD/jevents-compare
T=$BASE/tools
ARCHDIR=$T/perf/pmu-events/arch
KNOWN=$TOP/bench/jevents/known-differences
CF=(-I"$T/perf" -I"$T/perf/util" -I"$T/include" -I"$T/lib/perf/include"
    -I"$T/lib" -I"$T/arch/x86/include" -I"$T/perf/pmu-events")

[ -d "$ARCHDIR" ] || { echo "compare: no base tree at $BASE" >&2; exit 1; }
ARCHS=${*:-x86 arm64 powerpc s390 riscv nds32 none all}
mkdir -p "$OUT/stock" "$OUT/ours"

make -s -f "$TOP/tools/perf/pmu-events/Makefile.jevents" O="$OUT"
gcc -O1 "${CF[@]}" -c "$TOP/bench/jevents/pmu-events-dump.c" -o "$OUT/dump.o"

bad=0
for a in $ARCHS; do
	case $a in
	all) names="x86 arm64 powerpc s390 riscv nds32 testarch" ;;
	none) names=testarch ;;
	*) names="$a testarch" ;;
	esac
	"$PYTHON" "$T/perf/pmu-events/jevents.py" "$a" all "$ARCHDIR" \
		"$OUT/stock/$a.c"
	"$OUT/jevents" -r "$TOP/tools/perf/pmu-events/jevents-runtime.c" \
		"$a" all "$ARCHDIR" "$OUT/ours/$a.c"
	for kind in stock ours; do
		nice -n 19 gcc -O0 -w "${CF[@]}" -c "$OUT/$kind/$a.c" \
			-o "$OUT/$kind/$a.o"
		gcc "$OUT/dump.o" "$OUT/$kind/$a.o" -o "$OUT/$kind/dump-$a"
		# shellcheck disable=SC2086
		"$OUT/$kind/dump-$a" "$ARCHDIR" $names > "$OUT/$kind/$a.txt"
	done
	diff "$OUT/stock/$a.txt" "$OUT/ours/$a.txt" > "$OUT/$a.diff" || true
	n=$(grep -c '^[<>]' "$OUT/$a.diff" || true)
	echo "$a: $n differences"
	unknown=$(grep '^[<>]' "$OUT/$a.diff" | sed 's/^\([<>]\) /\1 /' |
		  grep -vxF -f <(grep -v '^#' "$KNOWN") || true)
	if [ -n "$unknown" ]; then
		echo "$unknown" | cut -c1-300
		bad=1
	fi
done
exit $bad
