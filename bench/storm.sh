#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make storm: boot the debug kernel (KASAN, lockdep, kmemleak, ...) of each
# architecture and run the seeded random-syscall storm
# (tools/testing/selftests/perf_events/storm.c) for MINUTES.  The verdict is
# the kernel log (report.sh: no BUG, WARNING, KASAN, lockdep, soft lockup,
# RCU stall, hung task or kmemleak report) and whether the storm's workers
# all ended.
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
	APPEND="storm.seed=$seed storm.seconds=$seconds BENCH_TIMEOUT=$((seconds + 600))" \
	TESTS=storm GUEST_TIMEOUT=$((seconds * 3 + 1800)) \
		"$TOP/bench/boot.sh" "$arch" "$img" "$initrd" check "$log" > /dev/null
	grep '^# worker\|^# storm' "$log" || true
	"$TOP/bench/report.sh" "storm-$kernel-$arch" "$log" || status=1
done
exit $status
