#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make modules-check: the energy and residency PMU drivers as the modules
# Debian builds (rapl, intel_cstate, power), loaded and unloaded with an
# event open, stock against series.  Boots each kernel of make distro
# (Debian's config, bench/distro.sh, built or brought up to date) on the
# emulated PMUs under icount, as Ice Lake-SP (rapl), Ice Lake-SP without
# the hypervisor bit (intel_cstate, which stays away under a hypervisor)
# and AMD family 15h (power), with the modules and bench/modules/
# checks.sh in the initramfs.  Prints each guest's report, then every
# answer that differs between the kernels; fails on a failed check or a
# difference.  x86_64 only.
. "$(dirname "$0")/lib.sh"

out=$BUILD/modules
personalities=(
	"icx icx "
	"icx-nohv icx ,hypervisor=off"
	"f15h amd ,family=0x15,model=0x30"
)
INITRD=$("$TOP/bench/initramfs.sh" x86_64 | tail -n 1)
"$TOP/bench/qemu.sh" > /dev/null
rm -rf "$out" && mkdir -p "$out"
jobs=
for kernel in stock series; do
	dir=$("$TOP/bench/distro.sh" x86_64 "$kernel" | tail -n 1)
	root=$out/$kernel/root
	mkdir -p "$root/modules" "$root/tests" "$root/bin"
	# the drivers' modules, by file name: stock's cstate file is
	# intel-cstate.ko, the module intel_cstate either way
	find "$dir/arch/x86/events" -name rapl.ko -o -name 'intel?cstate.ko' \
		-o -name power.ko | while read -r ko; do
		cp "$ko" "$root/modules/"
	done
	with_tap "$TOP/bench/modules/checks.sh" "$root/tests/pmu_modules"
	gcc -O2 -static -o "$root/bin/pmu-hold" "$TOP/bench/modules/pmu-hold.c"
	cp "$INITRD" "$out/$kernel/initrd.gz"
	truncate -s %512 "$out/$kernel/initrd.gz"
	(cd "$root" && find . | cpio -o -H newc --reproducible -R 0:0 2>/dev/null) |
		gzip -n >> "$out/$kernel/initrd.gz"
	for p in "${personalities[@]}"; do
		read -r name pmu extra <<< "$p"
		jobs+="x86_64 $dir/arch/x86/boot/bzImage $out/$kernel/initrd.gz"
		jobs+=" $out/$kernel-$name.log X86_PMU=$pmu ICOUNT=1 TESTS=pmu_modules"
		[ -n "$extra" ] && jobs+=" X86_CPU_EXTRA=$extra"
		jobs+=$'\n'
	done
done
boot_all <<< "$jobs"

status=0
export TALLY=$out/tally
: > "$TALLY"
for p in "${personalities[@]}"; do
	read -r name _ <<< "$p"
	for kernel in stock series; do
		"$TOP/bench/report.sh" "$kernel-$name" "$out/$kernel-$name.log" /dev/null
		sed -n '/^@@BENCH-BEGIN pmu_modules/,/^@@BENCH-END/p' \
			"$out/$kernel-$name.log" | grep -E '^[a-z_]+: ' \
			> "$out/$kernel-$name.txt"
	done
	if ! diff -u "$out/stock-$name.txt" "$out/series-$name.txt" > "$out/$name.diff"; then
		echo "$name: differs (stock -, series +):"
		tail -n +3 "$out/$name.diff"
		status=1
	else
		echo "$name: $(wc -l < "$out/stock-$name.txt") answers, the same"
	fi
done
awk '{ f += $2 } END { exit f > 0 }' "$TALLY" || status=1
exit $status
