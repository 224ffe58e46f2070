#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make jevents-guests: the base's perf 6.12 with stock's tables and with
# ours (bench/perf-jevents.sh) in guests of the series kernel (KERNEL=stock
# for the base's), one guest per emulated CPU, under icount:
# bench/jevents/guest-checks.sh in each (perf list in every form, perf's
# event, PMU and metric tests, a named event counted, the instructions
# each build takes to list and to open it).
# x86_64 guests (JEVENTS_CPUS) run the host's builds over virtio-9p;
# arm64 guests (JEVENTS_ARM_CPUS) cross-built ones (a minimal perf) in
# Debian's arm64 root (bench/perf-root.sh).  Then the host's side: bench/
# jevents/perf-list-compare.sh over every CPUID of the x86 mapfile and its
# variants (and of the arm64 one, through qemu-user).  Prints each
# guest's checks, the cost table, and a verdict; fails on any check that
# fails.  JEVENTS_ARCHS picks the architectures (default both).
. "$(dirname "$0")/../lib.sh"

KERNEL=${KERNEL:-series}
JEVENTS_ARCHS=${JEVENTS_ARCHS:-x86_64 arm64}
# NAME[:X86_PMU[:X86_CPU_EXTRA]] (X86_PMU is NAME by default): the
# mapfile's Intel models the QEMU emulates, and AMD's families 15h to 1Ah
# (the Zen tables, one each)
JEVENTS_CPUS=${JEVENTS_CPUS:-intel3 skx icx spr spr-kvm
	f15h:amd:,family=0x15,model=0x02
	zen1:amd:,family=0x17,model=0x01 zen2:amd:,family=0x17,model=0x31
	zen3:amd:,family=0x19,model=0x01 zen4:amd:,family=0x19,model=0x11
	zen5:amd:,family=0x1a,model=0x02}
# QEMU's arm64 CPUs: max (no mapfile line) and the cores the mapfile names
JEVENTS_ARM_CPUS=${JEVENTS_ARM_CPUS:-max cortex-a53 cortex-a57 cortex-a72
	cortex-a76 neoverse-n1}
out=$BUILD/jevents-guests

# checks_file STOCK OURS STOCK_SRC OURS_SRC DEST: the guest's checks
checks_file() {
	local src=$TOP/bench/jevents/guest-checks.sh

	{
		head -n 1 "$src"
		cat "$TOP/bench/tap.sh"
		echo "STOCK_PERF=$1 OURS_PERF=$2 STOCK_SRC=$3 OURS_SRC=$4"
		tail -n +2 "$src"
	} > "$5"
}

# extra_initrd INITRD: INITRD with the archive of $out/root appended
extra_initrd() {
	cp "$1" "$out/initrd.gz"
	truncate -s %512 "$out/initrd.gz"
	(cd "$out/root" && find . | cpio -o -H newc --reproducible -R 0:0 2>/dev/null) |
		gzip -n >> "$out/initrd.gz"
}

"$TOP/bench/base.sh"
"$TOP/bench/series.sh"
rm -rf "$out"
mkdir -p "$out"
jobs=$out/jobs
: > "$jobs"
for arch in $JEVENTS_ARCHS; do
	case $arch in
	x86_64)
		mapfile -t x86_perfs < <("$TOP/bench/perf-jevents.sh" | tail -n 2)
		[ "${#x86_perfs[@]}" = 2 ] || die "no x86_64 perf builds"
		image=$("$TOP/bench/kernel.sh" x86_64 "$KERNEL" 0 | tail -n 1)
		initrd=$("$TOP/bench/initramfs.sh" x86_64 | tail -n 1)
		mkdir -p "$out/root/tests"
		cp "$TOP/bench/perf-smoke/enter.sh" "$out/root/tests/perf_jevents"
		checks_file "${x86_perfs[@]}" \
			"$(dirname "$(dirname "${x86_perfs[0]}")")/src/tools/perf" \
			"$(dirname "$(dirname "${x86_perfs[1]}")")/src/tools/perf" \
			"$out/root/tests/perf_jevents_checks"
		extra_initrd "$initrd"
		mv "$out/initrd.gz" "$out/initrd-x86_64.gz"
		rm -rf "$out/root"
		for cpu in $JEVENTS_CPUS; do
			IFS=: read -r name pmu extra <<< "$cpu"
			vars="X86_PMU=${pmu:-$name}"
			[ -n "$extra" ] && vars="$vars X86_CPU_EXTRA=$extra"
			echo "x86_64 $image $out/initrd-x86_64.gz $out/$name.log $vars" >> "$jobs"
		done ;;
	arm64)
		mapfile -t arm_perfs < <(PERF_ARCH=arm64 "$TOP/bench/perf-jevents.sh" | tail -n 2)
		[ "${#arm_perfs[@]}" = 2 ] || die "no arm64 perf builds"
		image=$("$TOP/bench/kernel.sh" arm64 "$KERNEL" 0 | tail -n 1)
		initrd=$("$TOP/bench/initramfs.sh" arm64 | tail -n 1)
		# the binaries in the arm64 root that PERF_ROOT=1 appends
		mkdir -p "$out/root/tests" "$out/root/perfroot/opt/perf612"
		cp "${arm_perfs[0]}" "$out/root/perfroot/opt/perf612/stock"
		cp "${arm_perfs[1]}" "$out/root/perfroot/opt/perf612/ours"
		cp "$TOP/bench/perf-smoke/enter.sh" "$out/root/tests/perf_jevents"
		checks_file /opt/perf612/stock /opt/perf612/ours /tmp /tmp \
			"$out/root/tests/perf_jevents_checks"
		extra_initrd "$initrd"
		mv "$out/initrd.gz" "$out/initrd-arm64.gz"
		rm -rf "$out/root"
		for cpu in $JEVENTS_ARM_CPUS; do
			echo "arm64 $image $out/initrd-arm64.gz $out/arm64-$cpu.log ARM_CPU=$cpu PERF_ROOT=1" >> "$jobs"
		done ;;
	*) die "unknown architecture $arch" ;;
	esac
done
sed 's/$/ TESTS=perf_jevents ICOUNT=1 GUEST_TIMEOUT=3600 APPEND=BENCH_TIMEOUT=3000/' \
	"$jobs" | boot_all

status=0
export TALLY=$out/tally
: > "$TALLY"
labels=$(awk '{ n = $4; sub(/.*\//, "", n); sub(/\.log$/, "", n); print n }' "$jobs")
for name in $labels; do
	echo "== $name"
	sed 's/\r$//' "$out/$name.log" |
		sed -n '/^@@BENCH-BEGIN perf_jevents/,/^@@BENCH-END/p' |
		grep -E '^(not )?ok |^# (cpu|perf list|perf test|cost)' || true
	"$TOP/bench/report.sh" "jevents-$name" "$out/$name.log" /dev/null
done
awk '{ f += $2 } END { exit f > 0 }' "$TALLY" || status=1
echo "== instructions, median of three (list: perf list --details; open: perf stat -e EVENT true; open-sw: perf stat -e task-clock true)"
printf '%-18s %-8s %12s %12s %7s\n' cpu what stock ours ours/stock
for name in $labels; do
	sed 's/\r$//' "$out/$name.log" | awk -v n="$name" '
		$1 == "#" && $2 == "cost" && $5 > 0 {
			printf "%-18s %-8s %12d %12d %7.2f\n", n, $3, $5, $7, $7 / $5
		}'
done
for arch in $JEVENTS_ARCHS; do
	echo "== the $arch mapfile's CPUIDs and their variants (host, PERF_CPUID)"
	if [ "$arch" = x86_64 ]; then
		"$TOP/bench/jevents/perf-list-compare.sh" "${x86_perfs[@]}" \
			> "$out/host-$arch.txt" || status=1
	else
		RUN="qemu-aarch64 -L /usr/aarch64-linux-gnu" \
			"$TOP/bench/jevents/perf-list-compare.sh" "${arm_perfs[@]}" \
			"$BASE/tools/perf/pmu-events/arch/arm64/mapfile.csv" \
			> "$out/host-$arch.txt" || status=1
	fi
	grep -v '^ok ' "$out/host-$arch.txt" || true
done
exit $status
