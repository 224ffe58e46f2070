#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot a test kernel N times running only the text_patching kselftest
# (perf events flip static keys and static calls while every CPU runs
# through them) and count the outcomes: passed, oopsed (an "Oops: int3" at
# a patched site apart from other oopses, BUGs and panics), timed out, or
# failed otherwise.
# Usage: jump-label-stress.sh ARCH KERNEL N [multi|single]
# KERNEL is stock or series (the image already built under build/, as
# make check builds it) or the path of a kernel image.  The last argument
# picks QEMU's TCG threading for the x86_64 guest (TCG_THREAD of boot.sh,
# default single); the arm64 guest runs with icount, always one thread.
# SECONDS_EACH sets the test's time in the guest (TEXT_PATCHING_SECONDS,
# passed on the kernel command line to /init's environment); the logs go
# to build/jump-label-stress/.  Exits 1 if any boot did not pass.
. "$(dirname "$0")/lib.sh"

[ $# -ge 3 ] || die "usage: $0 ARCH KERNEL N [multi|single]"
arch=$1 kernel=$2 count=$3 thread=${4:-single}
kbuild_arch "$arch" > /dev/null
case $thread in multi | single) ;; *) die "TCG threading: multi or single, not $thread" ;; esac
case $count in '' | *[!0-9]*) die "N must be a number, not $count" ;; esac

if [ -f "$kernel" ]; then
	image=$kernel label=$(basename "$kernel")
else
	tree_of "$kernel" > /dev/null
	image=$BUILD/$kernel-$arch/$(image_path "$arch") label=$kernel
fi
initrd=$BUILD/initramfs-$arch/initramfs.cpio.gz
[ -f "$image" ] || die "no kernel image $image (make image ARCH=$arch KERNEL=$kernel)"
[ -f "$initrd" ] || die "no initramfs $initrd (bench/initramfs.sh $arch)"
files=$(gzip -dc "$initrd" | cpio -t 2> /dev/null)
grep -qx 'tests/text_patching' <<< "$files" ||
	die "$initrd has no tests/text_patching: rebuild it (bench/initramfs.sh $arch)"

outdir=$BUILD/jump-label-stress
mkdir -p "$outdir"
append=${APPEND:-}
[ -n "${SECONDS_EACH:-}" ] && append="$append TEXT_PATCHING_SECONDS=$SECONDS_EACH"
pass=0 int3=0 oops=0 timeout=0 fail=0
start=$(date +%s)
for i in $(seq 1 "$count"); do
	logfile=$outdir/$label-$arch-$thread-$i.log
	t0=$(date +%s)
	TCG_THREAD=$thread TESTS=text_patching APPEND=$append \
		GUEST_TIMEOUT=${GUEST_TIMEOUT:-400} \
		"$TOP/bench/boot.sh" "$arch" "$image" "$initrd" check "$logfile" > /dev/null
	secs=$(($(date +%s) - t0))
	rounds=$(grep -o '[0-9]* rounds in [0-9]* s' "$logfile" | head -n 1 || true)
	if grep -q 'Oops: int3' "$logfile"; then
		int3=$((int3 + 1)) what="OOPS-INT3"
	elif grep -qE '(^|[] ])(Oops|BUG:|Kernel panic)' "$logfile"; then
		oops=$((oops + 1)) what="OOPS"
	elif grep -q '^@@BENCH-TIMEOUT' "$logfile"; then
		timeout=$((timeout + 1)) what="TIMEOUT"
	elif "$TOP/bench/report.sh" "$label" "$logfile" |
		awk '$3 == "FAIL" { bad = 1 } END { exit bad }' &&
		grep -q '^@@BENCH-END text_patching rc=0' "$logfile"; then
		pass=$((pass + 1)) what="pass"
	else
		fail=$((fail + 1)) what="FAIL"
	fi
	# where an oops hit: its first line and the instruction pointer
	where=""
	if [ "${what#OOPS}" != "$what" ]; then
		where=$(grep -m 1 -E '(^|[] ])(Oops|BUG:|Kernel panic)' "$logfile" |
			sed 's/^\[ *[0-9.]*\] //')
		where="$where; $(grep -m 1 -E 'RIP: |pc : ' "$logfile" |
			sed 's/^\[ *[0-9.]*\] //')"
	fi
	printf '%s %s thread=%s boot %d: %s (%d s%s)%s\n' "$label" "$arch" \
		"$thread" "$i" "$what" "$secs" "${rounds:+, $rounds}" \
		"${where:+: $where}"
done
printf '%s %s thread=%s: %d boots in %d s: %d passed, %d oopsed (%d Oops: int3, %d other), %d timed out, %d failed\n' \
	"$label" "$arch" "$thread" "$count" "$(($(date +%s) - start))" "$pass" \
	$((int3 + oops)) "$int3" "$oops" "$timeout" "$fail"
[ "$pass" = "$count" ]
