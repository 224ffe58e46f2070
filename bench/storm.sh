#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make storm: boot the debug kernel (KASAN, lockdep, kmemleak, ...) of each
# architecture and run the seeded random-syscall storm
# (bench/storm.c) for MINUTES.  The verdict is
# the kernel log (report.sh: no BUG, WARNING, KASAN, lockdep, soft lockup,
# RCU stall, hung task or kmemleak report) and whether the storm's workers
# all ended.
# The arm64 guest runs multi-threaded TCG in real time (a minute of storm
# is a minute of the host's; PMUv3 counts cycles there, not instructions).
# STORM_ICOUNT=1 gives it the tests' clock instead, 1 ns a guest
# instruction: a run then repeats exactly from boot to boot (for gdb and
# storm-minimize.sh), but a debug kernel executes some 125 million
# instructions a second of host time, so a minute of storm takes 8 of the
# host's, and under -smp 2 the clock counts both vCPUs' instructions.
# STORM_ICOUNT_SHIFT=N makes it 2^N ns: at 3 (8 ns), stock and series alike
# drown in interrupts (soft lockups): too few instructions a tick.
# Usage: storm.sh "ARCHS" MINUTES KERNEL SEED
. "$(dirname "$0")/lib.sh"

archs=${1:-x86_64 arm64} minutes=${2:-10} kernel=${3:-series} seed=${4:-1}
"$TOP/bench/base.sh"
[ "$kernel" = series ] && "$TOP/bench/series.sh"
status=0
seconds=$((minutes * 60))
for arch in $archs; do
	img=$("$TOP/bench/kernel.sh" "$arch" "$kernel" 1 | tail -n 1)
	initrd=$("$TOP/bench/initramfs.sh" "$arch" | tail -n 1)
	log=$BUILD/storm-$kernel-$arch.log
	log "storm on $kernel $arch: seed $seed, $minutes min (log: $log)"
	# the guest's own limit for the program, then the host's for the boot
	# (an icount guest second is some 8 s of the host's, at shift 0)
	icount=0
	[ "$arch" = arm64 ] && icount=${STORM_ICOUNT:-0}
	slow=3
	if [ "$icount" = 1 ] && [ $((12 >> ${STORM_ICOUNT_SHIFT:-0})) -gt 3 ]; then
		slow=$((12 >> ${STORM_ICOUNT_SHIFT:-0}))
	fi
	ICOUNT=$icount ICOUNT_SHIFT=${STORM_ICOUNT_SHIFT:-0} \
	APPEND="storm.seed=$seed storm.seconds=$seconds BENCH_TIMEOUT=$((seconds + 600))" \
	TESTS=storm GUEST_TIMEOUT=$((seconds * slow + 1800)) \
		"$TOP/bench/boot.sh" "$arch" "$img" "$initrd" check "$log" > /dev/null
	grep '^# worker\|^# storm' "$log" || true
	"$TOP/bench/report.sh" "storm-$kernel-$arch" "$log" || status=1
done
exit $status
