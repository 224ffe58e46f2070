#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest initramfs for one architecture: busybox, /init, the demo,
# our kselftests and the upstream perf_events kselftests of the base, all
# static.  Timestamps are fixed so the archive is reproducible.  It is
# built aside and renamed into place: a guest that starts meanwhile (make
# check beside a demo) boots the old archive or the new one, whole.
# Usage: initramfs.sh ARCH  (prints the archive path)
. "$(dirname "$0")/lib.sh"

arch=$1
final=$BUILD/initramfs-$arch
out=$(mktemp -d "$BUILD/.initramfs-$arch.XXXXXX")
trap 'rm -rf "$out"' EXIT
cc=$(cross_compile "$arch")gcc
root=$out/root
mkdir -p "$root"/{bin,sbin,proc,sys,dev,tmp,tests,etc} "$out/include/linux"

# The tests build against our ABI header; until it exists, the base's.
hdr=$TOP/include/uapi/linux/perf_event.h
[ -f "$hdr" ] || hdr=$BASE/include/uapi/linux/perf_event.h
cp "$hdr" "$out/include/linux/perf_event.h"
cflags="-static -O2 -g0 -pthread -Wall -I$out/include -I$BASE/tools/testing/selftests"

if [ "$arch" = arm64 ]; then
	cp "$BUILD/busybox-arm64/bin/busybox" "$root/bin/busybox"
else
	cp /bin/busybox "$root/bin/busybox"
fi
for app in sh mount umount cat echo ls mkdir poweroff reboot setsid timeout \
	   hostname sleep sync cttyhack grep sed id chmod uname true false ps kill \
	   chroot cp; do
	ln -sf busybox "$root/bin/$app"
done
cp "$TOP/bench/guest-init" "$root/init"
cp "$TOP/bench/demo.sh" "$root/bin/demo.sh"
echo "root:x:0:0:root:/:/bin/sh" > "$root/etc/passwd"
echo "nobody:x:65534:65534:nobody:/:/bin/sh" >> "$root/etc/passwd"

$cc $cflags -o "$root/tests/perfcount" "$TOP/bench/perfcount.c"
# the differential check's observer (make diff): not in LIST
$cc $cflags -o "$root/tests/observe" "$TOP/bench/observe.c"
# the benchmark (make bench): not in LIST
$cc $cflags -o "$root/tests/perfbench" "$TOP/bench/perfbench.c"
# the random-syscall storm (make storm): not in LIST
$cc $cflags -o "$root/tests/storm-bin" \
	"$TOP/bench/storm.c"
cp "$TOP/bench/storm-guest" "$root/tests/storm"

list=""
# ours: every harness program in the project's selftest directory and its
# arm64/ (in the order of their names), built beside the base's kselftest
# headers, which they include as "../x.h" (arm64/: "../../x.h")
ks=$out/selftests
mkdir -p "$ks"
cp "$BASE"/tools/testing/selftests/kselftest*.h "$ks/"
cp -r "$TOP/tools/testing/selftests/perf_events" "$ks/"
for f in $(for c in "$ks"/perf_events/*.c "$ks"/perf_events/arm64/*.c; do
		echo "$(basename "$c") $c"
	   done | sort | cut -d' ' -f2); do
	[ -e "$f" ] || continue
	grep -q kselftest_harness.h "$f" || continue
	name=$(basename "$f" .c)
	$cc $cflags -o "$root/tests/$name" "$f" 2> "$out/$name.cc.log" ||
		{ cat "$out/$name.cc.log" >&2; die "cannot build $name"; }
	# programs that change the machine for good run after the others
	# (but before the upstream ones): cgroup binds perf_event to a v1
	# hierarchy for a while, security loads SELinux policies (permissive
	# and allowing everything again after it) and raises lockdown
	case $name in
	cgroup|security) ;;
	*) list="$list $name" ;;
	esac
done
# the attacker's suite again as a 32-bit program on x86_64: the compat
# entry points (IA32_EMULATION) take the same checks
if [ "$arch" = x86_64 ]; then
	i686-linux-gnu-gcc $cflags -o "$root/tests/attacker32" \
		"$ks/perf_events/attacker.c" 2> "$out/attacker32.cc.log" ||
		{ cat "$out/attacker32.cc.log" >&2; die "cannot build attacker32"; }
	list="$list attacker32"
fi
"$ks/perf_events/selinux/policies.sh" "$root/tests/selinux" ||
	die "cannot build the SELinux test policies (is secilc installed?)"
# upstream: the base's perf_events selftests, prefixed "upstream-"; they
# run after ours, last of all.
#
# On arm64 only sigtrap_threads.remain_disabled runs of its program: in
# every other case the threads' watchpoint hit loops under TCG, on stock
# as on the series, until the harness's timeout at best; at worst (it
# depends on where the kernel's code lies, so on the build) the guest
# stops making progress altogether and the whole boot is lost.  Stock
# passes none of those cases here, so they have no oracle to lose.
upstream_args() {
	case $arch:$1 in
	arm64:upstream-sigtrap_threads) echo "-t remain_disabled" ;;
	esac
}
ulist=""
for f in "$BASE"/tools/testing/selftests/perf_events/*.c; do
	name=upstream-$(basename "$f" .c)
	bin=$name
	args=$(upstream_args "$name")
	[ -n "$args" ] && bin=$name.bin
	if $cc $cflags -o "$root/tests/$bin" "$f" 2> "$out/$name.cc.log"; then
		ulist="$ulist $name"
		if [ -n "$args" ]; then
			printf '#!/bin/sh\nexec /tests/%s %s\n' "$bin" "$args" \
				> "$root/tests/$name"
			chmod +x "$root/tests/$name"
		fi
	else
		log "warning: $name does not build with our header (see $out/$name.cc.log)"
		ulist="$ulist $name"
		printf '#!/bin/sh\necho "not ok 1 %s: does not build against our ABI header"\nexit 1\n' \
			"$name" > "$root/tests/$name"
		chmod +x "$root/tests/$name"
	fi
done
# the Debian perf tool: the host's, run in the x86_64 guest over
# virtio-9p; on arm64 Debian's arm64 one, in a boot of its own with its
# root appended to the initramfs (bench/perf-root.sh, make check)
cp "$TOP/bench/perf-smoke/enter.sh" "$root/tests/perf_smoke"
with_tap "$TOP/bench/perf-smoke/checks.sh" "$root/tests/perf_smoke_checks"
# perf_smoke612: the same checks with the base's perf 6.12 built on our
# jevents (bench/perf-jevents.sh; it skips if that is not built): x86_64's
# over virtio-9p from the build directory, arm64's from the perf root
# (bench/perf-root.sh)
perf612=$BUILD/perf-jevents/ours/obj/perf
perf612_tests=$BUILD/perf-jevents/ours/src/tools/perf
if [ "$arch" = arm64 ]; then
	perf612=/opt/perf612/perf
	perf612_tests=/opt/perf612/tools/perf
fi
cp "$TOP/bench/perf-smoke/enter.sh" "$root/tests/perf_smoke612"
{
	head -n 1 "$TOP/bench/perf-smoke/checks.sh"
	cat "$TOP/bench/tap.sh"
	echo "PERF612=$perf612"
	cat "$TOP/bench/perf-smoke/perf612.sh"
	tail -n +2 "$TOP/bench/perf-smoke/checks.sh"
} > "$root/tests/perf_smoke612_checks"
# and make perf-test PERF=6.12's (not in LIST)
cp "$TOP/bench/perf-smoke/enter.sh" "$root/tests/perf_test612"
{
	head -n 1 "$TOP/bench/perf-smoke/perf-test.sh"
	echo "PERF612=$perf612"
	echo "PERF_TEST_DIR=$perf612_tests"
	cat "$TOP/bench/perf-smoke/perf612.sh"
	tail -n +2 "$TOP/bench/perf-smoke/perf-test.sh"
} > "$root/tests/perf_test612_checks"
# the program its uprobe checks probe by name: with its symbols
$cc $cflags -g -o "$root/tests/uprobe_target" \
	"$TOP/bench/perf-smoke/uprobe-target.c"
# perf_pmu (x86_64): the hardware PMU under perf and bpftrace, with the
# probe program it counts (frame pointers: perf record -g walks them)
if [ "$arch" = x86_64 ]; then
	cp "$TOP/bench/perf-smoke/enter.sh" "$root/tests/perf_pmu"
	with_tap "$TOP/bench/qemu/pmu-checks.sh" "$root/tests/perf_pmu_checks"
	$cc $cflags -O1 -fno-omit-frame-pointer -o "$root/tests/pmu_probe" \
		"$TOP/bench/qemu/pmu-probe.c"
fi
# make bench's end-to-end figures of the perf tool: not in LIST
cp "$TOP/bench/perf-smoke/enter.sh" "$root/tests/perf_e2e"
cp "$TOP/bench/perf-smoke/e2e.sh" "$root/tests/perf_e2e_checks"
# make perf-test: not in LIST
cp "$TOP/bench/perf-smoke/enter.sh" "$root/tests/perf_test"
cp "$TOP/bench/perf-smoke/perf-test.sh" "$root/tests/perf_test_checks"
[ "$arch" = x86_64 ] && list="$list perf_smoke perf_smoke612 perf_pmu"
list="$list cgroup security $ulist"
echo "$list" | tr ' ' '\n' | sed '/^$/d' > "$root/tests/LIST"

find "$root" -exec touch -h -d @0 {} +
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --reproducible -R 0:0 2>/dev/null) \
	| gzip -n -9 > "$out/initramfs.cpio.gz"
mkdir -p "$final"
mv -f "$out/initramfs.cpio.gz" "$final/initramfs.cpio.gz"
# the tree and the compiler logs beside it, for whoever looks
for f in "$out"/*; do
	rm -rf "${final:?}/${f##*/}"
	mv "$f" "$final/"
done
echo "$final/initramfs.cpio.gz"
