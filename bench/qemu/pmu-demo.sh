#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The emulated x86 PMU, shown on a kernel: pmu-demo.sh IMAGE [LOG]
# Boots IMAGE with X86_PMU=intel, intel3 or amd (bench/boot.sh) and runs
# perf_pmu (pmu-checks.sh) in the guest with the host's perf tool.
# ICOUNT=1 boots under -icount (exact instructions); PMU_TESTS names the
# test programs to run (perf_pmu by default); INITRD another initramfs
# than the workbench's as last built.
# Prints the kernel's PMU lines and the checks; the whole console in LOG.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"

image=$1
logfile=${2:-$BUILD/pmu-demo.log}
initrd=${INITRD:-$BUILD/initramfs-x86_64/initramfs.cpio.gz}
[ -f "$initrd" ] || initrd=$("$TOP/bench/initramfs.sh" x86_64 | tail -n 1)
append=${APPEND:-}
[ "${ICOUNT:-0}" = 1 ] && append="$append bench.icount=1"
X86_PMU=${X86_PMU:-intel} TESTS=${PMU_TESTS:-perf_pmu} APPEND="$append" \
	"$TOP/bench/boot.sh" x86_64 "$image" "$initrd" check "$logfile" > /dev/null
grep -A12 '^Performance Events' "$logfile" | head -13 || true
sed -n '/^@@BENCH-BEGIN perf_pmu/,/^@@BENCH-END/p' "$logfile"
