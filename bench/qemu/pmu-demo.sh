#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The emulated x86 PMU, shown on a kernel: pmu-demo.sh IMAGE [LOG]
# Boots IMAGE with X86_PMU=intel, intel3 or amd (bench/boot.sh) and runs
# pmu-checks.sh in the guest with the host's perf tool, in perf_smoke's
# place: the guest's initramfs gets a second archive whose
# /tests/perf_smoke_checks is pmu-checks.sh.  ICOUNT=1 boots under -icount
# (exact instructions); PMU_TESTS names the test programs to run
# (perf_smoke by default).
# Prints the kernel's PMU lines and the checks; the whole console in LOG.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"

image=$1
logfile=${2:-$BUILD/pmu-demo.log}
out=$BUILD/qemu-pmu-demo
mkdir -p "$out/root/tests"
gcc -O2 -static -o "$out/pmu-probe" "$here/pmu-probe.c"
{ echo "export PMU_PROBE=$out/pmu-probe"; cat "$here/pmu-checks.sh"; } \
	> "$out/root/tests/perf_smoke_checks"
chmod 755 "$out/root/tests/perf_smoke_checks"
(cd "$out/root" && find tests | cpio -o -H newc --quiet) > "$out/extra.cpio"
# the workbench's initramfs as last built (INITRD=... for another), built
# only when there is none
initrd=${INITRD:-$BUILD/initramfs-x86_64/initramfs.cpio.gz}
[ -f "$initrd" ] || initrd=$("$TOP/bench/initramfs.sh" x86_64 | tail -n 1)
# the second archive starts on a 4-byte boundary, after zeros
cp "$initrd" "$out/initrd"
truncate -s %512 "$out/initrd"
cat "$out/extra.cpio" >> "$out/initrd"

append=${APPEND:-}
[ "${ICOUNT:-0}" = 1 ] && append="$append bench.icount=1"
X86_PMU=${X86_PMU:-intel} TESTS=${PMU_TESTS:-perf_smoke} APPEND="$append" \
	"$TOP/bench/boot.sh" x86_64 "$image" "$out/initrd" check "$logfile" > /dev/null
grep -A12 -e '^Performance Events' -e '^perf: x86' "$logfile" | head -13 || true
sed -n '/^@@BENCH-BEGIN perf_smoke/,/^@@BENCH-END/p' "$logfile"
