#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check-pmu [KERNEL=series]: the x86_64 guest on the emulated PMUs of
# bench/qemu (make qemu) under -icount, where instructions count exactly,
# as Intel's architectural version 2 and 3 and as AMD's core counters with
# PerfMonV2: perf_pmu (bench/qemu/pmu-checks.sh: perf stat, perf record,
# RDPMC), attacker and attacker32 (AnyThread, the clocks of an NMI PMU).
# One report line per suite and personality, a total last; exits 1 on any
# failure.  make check boots Intel version 3 and AMD without icount.
. "$(dirname "$0")/lib.sh"

kernel=${1:-series}
export TALLY=$BUILD/tally-pmu-$kernel
: > "$TALLY"
: > "$TALLY.fail"
"$TOP/bench/base.sh"
[ "$kernel" = series ] && "$TOP/bench/series.sh"
image=$("$TOP/bench/kernel.sh" x86_64 "$kernel" 0 | tail -n 1)
# pmu-demo.sh boots INITRD: the initramfs of this tree
INITRD=$("$TOP/bench/initramfs.sh" x86_64 | tail -n 1)
export INITRD
for pmu in intel intel3 amd; do
	logfile=$BUILD/check-pmu-$kernel-$pmu.log
	log "booting $kernel x86_64 on the emulated $pmu PMU (log: $logfile)"
	X86_PMU=$pmu ICOUNT=1 PMU_TESTS="perf_pmu attacker attacker32" \
		"$TOP/bench/qemu/pmu-demo.sh" "$image" "$logfile" > /dev/null
	"$TOP/bench/report.sh" "$kernel-x86_64-$pmu" "$logfile" \
		"$TOP/bench/known-stock-failures.x86_64"
done
if [ -s "$TALLY.fail" ]; then
	echo "failures:"
	cat "$TALLY.fail"
fi
awk '{ p += $1; f += $2; s += $3 }
END { printf "%d passed, %d failed, %d skipped\n", p, f, s; exit f ? 1 : 0 }' "$TALLY"
