#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench: boot stock and the series, one architecture at a time, in
# the same QEMU machine with a clock that counts instructions (-icount
# shift=0,sleep=off on both arches), run bench/perfbench.c in each, and
# print the figures side by side: guest nanoseconds (instructions) per
# operation, and the series against stock in percent.  Not a test: the
# figures are for people to read.
# The x86_64 guests run on the emulated Intel PMU (bench/qemu), so that
# the hardware figures (read_hw, sample_hw, ctxsw_hw_4, mux_hw_4_per_ms,
# userpage_read_hw) exist on both architectures: Intel version 3, or the
# personality BENCH_X86_PMU names (skx: the last branch records' figures,
# ctxsw_lbr_callstack and sample_lbr, too).
# A second guest of eight CPUs runs perfbench's smp_* figures alone, then
# the real perf tool's end-to-end figures (bench/perf-smoke/e2e.sh: the
# host's perf over virtio-9p on x86_64, Debian's arm64 perf appended to the
# initramfs on arm64).
# After perfbench the same guest runs the storm in a fuzzer's mix with a
# fixed seed and length (bench/storm.c -m, one worker, STORM_CALLS calls,
# as root): its guest ns per kind of call, the cost of what a fuzzer
# drives (signals, tiny periods, forks of event-laden tasks) rather than
# of one operation in a loop.
# Usage: bench.sh "ARCHS"
. "$(dirname "$0")/lib.sh"

archs=$1
storm="storm.seed=1 storm.worker=0 storm.calls=${STORM_CALLS:-3000}"
storm="$storm storm.mix=1 storm.hotplug=0 storm.seconds=3000"
smp_only=
for k in 1 16 256; do
	smp_only+="smp_open_$k,smp_close_$k,"
	[ "$k" -ge 16 ] && smp_only+="smp_mem_bytes_cpu_$k,"
done
smp_only+="smp_enable_remote,smp_sample_all,smp_open_hw_1,smp_close_hw_1,"
smp_only+="smp_enable_remote_hw,smp_sample_all_hw,smp_mux_hw_8_per_ms,"
smp_only+="smp_mux_hw_24_per_ms"
"$TOP/bench/base.sh"
"$TOP/bench/series.sh"
for arch in $archs; do
	build_both "$arch"
	pmu=
	if [ "$arch" = x86_64 ]; then
		"$TOP/bench/qemu.sh" > /dev/null
		pmu=${BENCH_X86_PMU:-intel3}
	fi
	for kernel in stock series; do
		image=$SERIES_IMAGE
		[ "$kernel" = stock ] && image=$STOCK_IMAGE
		logfile=$BUILD/bench-$kernel-$arch.log
		log "benchmarking $kernel $arch (log: $logfile)"
		X86_PMU=$pmu ICOUNT=1 TESTS=perfbench,storm \
			APPEND="BENCH_TIMEOUT=3000 $storm" \
			GUEST_TIMEOUT=4000 "$TOP/bench/boot.sh" "$arch" "$image" \
			"$INITRD" check "$logfile" > /dev/null
		grep -E '^perfbench [a-z_0-9]+ [0-9]+$' "$logfile" \
			> "$BUILD/perfbench-$kernel-$arch.txt" || true
		# the SMP figures: a guest of eight CPUs (the test kernels'
		# NR_CPUS), perfbench's smp_* figures alone, then perf_e2e
		smplog=$BUILD/bench-smp-$kernel-$arch.log
		log "benchmarking $kernel $arch on 8 CPUs (log: $smplog)"
		perf_root=0
		[ "$arch" = arm64 ] && perf_root=1
		SMP=8 X86_PMU=$pmu ICOUNT=1 TESTS=perfbench,perf_e2e \
			PERF_ROOT=$perf_root \
			APPEND="BENCH_TIMEOUT=3000 PERFBENCH_ONLY=$smp_only" \
			GUEST_TIMEOUT=4000 "$TOP/bench/boot.sh" "$arch" "$image" \
			"$INITRD" check "$smplog" > /dev/null
		grep -E '^perfbench (smp|e2e)_[a-z_0-9]+ -?[0-9]+$' "$smplog" \
			>> "$BUILD/perfbench-$kernel-$arch.txt" ||
			log "warning: no SMP figures on $kernel $arch"
		grep -q '^perfbench e2e done' "$smplog" ||
			log "warning: perf_e2e did not finish on $kernel $arch"

		grep -q '^perfbench done' "$logfile" ||
			log "warning: perfbench did not finish on $kernel $arch"
		# "# cost w0 open 812 calls 91234567 ns" -> "perfbench storm_open 112073"
		awk '/^# cost w0 / { printf "perfbench storm_%s %d\n", $4, $7 / $5 }' \
			"$logfile" > "$BUILD/stormcost-$kernel-$arch.txt"
		grep -q '^# worker 0: ' "$logfile" ||
			log "warning: the storm did not finish on $kernel $arch"
		# the RCU stall and lockup detectors are on in both guests
		TALLY=/dev/null "$TOP/bench/report.sh" "$kernel-$arch" \
			"$logfile" | grep -E ' kernel-log +FAIL' |
			sed 's/^/[bench] warning: /' >&2 || true
	done
	cat "$BUILD/stormcost-series-$arch.txt" \
		>> "$BUILD/perfbench-series-$arch.txt"
	cat "$BUILD/stormcost-stock-$arch.txt" \
		>> "$BUILD/perfbench-stock-$arch.txt"
	echo "perfbench, $arch: guest ns (= instructions) per operation"
	echo "(storm_*: per call of the fuzzer's mix, seed 1, as root)"
	awk -v stockf="$BUILD/perfbench-stock-$arch.txt" '
	BEGIN {
		while ((getline l < stockf) > 0) {
			split(l, f, " ")
			s[f[2]] = f[3]
		}
		printf "%-28s %12s %12s %9s\n", "figure", "stock", "series", "series"
	}
	{
		st = ($2 in s) ? s[$2] : "-"
		ratio = (st != "-" && st > 0) ? sprintf("%+.0f%%", 100 * ($3 - st) / st) : "-"
		printf "%-28s %12s %12s %9s\n", $2, st, $3, ratio
	}' "$BUILD/perfbench-series-$arch.txt"
done
