#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The model tables of the msr, power and cstate PMUs against stock's: boots
# the stock and the series kernel on the emulated Ice Lake-SP with every
# RAPL domain, PPERF and residency counter present (BENCH_POWER_ALL, bench/
# qemu/0003-*.patch), no hypervisor bit (the cstate PMUs stay away under
# one) and the CPUID model number of each Intel model of X86_TABLE_MODELS,
# and compares what each driver shows: the power, msr and cstate_* sysfs
# trees (type numbers aside: stock's uncore PMUs take some) and the rate of
# energy-ram (2 W in the emulation's unit, a quarter of it where the
# driver counts DRAM in the fixed 2^-16 J of the server parts).  Writes
# $BUILD/x86-model-tables/KERNEL-MODEL.log, prints one line per model and
# exits non-zero on any difference.  Not part of make check (some 40
# seconds a guest, 75 models).  STOCK_IMAGE, SERIES_IMAGE and INITRD as
# for bench/x86-models.sh; REPORT_ONLY=1 compares the last run's logs.
. "$(dirname "$0")/lib.sh"

# family 6: Core 2 to Panther Lake and Granite Rapids, Atom cores, Xeon Phi
models=${X86_TABLE_MODELS:-"0f 17 1d 1a 1e 1f 2e 25 2c 2f 2a 2d 3a 3e 3c 45
	46 3f 3d 47 56 4f 4e 5e 55 8e 9e a5 a6 66 7e 7d 9d 6a 6c 8c 8d a7 8a
	97 9a b7 ba bf ac aa b5 c5 c6 bd cc 8f cf ad ae 1c 26 27 35 36 37 4a
	4d 4c 5a 75 5c 5f 7a 86 9c 96 be af b6 57 85"}
out=$BUILD/x86-model-tables
if [ "${REPORT_ONLY:-0}" != 1 ]; then
	if [ -z "${STOCK_IMAGE:-}" ] || [ -z "${SERIES_IMAGE:-}" ] ||
	   [ -z "${INITRD:-}" ]; then
		build_both x86_64
	fi
	"$TOP/bench/qemu.sh" > /dev/null
	rm -rf "$out"
	models_initrd "$out" energy > /dev/null
	for m in $models; do
		for kernel in stock series; do
			image=$SERIES_IMAGE
			[ "$kernel" = stock ] && image=$STOCK_IMAGE
			X86_PMU=icx ICOUNT=1 BENCH_POWER_ALL=1 \
				X86_CPU_EXTRA=",model=0x$m,hypervisor=off" \
				TESTS=x86_models_energy APPEND="BENCH_TIMEOUT=300" \
				GUEST_TIMEOUT=600 "$TOP/bench/boot.sh" x86_64 \
				"$image" "$out/initrd.gz" check \
				"$out/$kernel-$m.log" > /dev/null || true
		done
	done
fi

# the tables a log shows: the sysfs sections but the type numbers, and
# energy-ram's rate
tables() {
	sed -n '/^=== sysfs power/,/^=== count/p' "$1" |
		grep -v '^pmu: \|^=== count\|^type: \|^power/\|^uevent' || true
	grep -m1 '^power/energy-ram/ ' "$1" || true
	grep -q '^@@BENCH-END x86_models_energy rc=0' "$1" ||
		echo "(the checks did not finish)"
}

fail=0
for m in $models; do
	s=$out/stock-$m.log t=$out/series-$m.log
	if [ ! -f "$s" ] || [ ! -f "$t" ]; then
		echo "model 0x$m: not run"
		fail=1
	elif diff <(tables "$s") <(tables "$t") > "$out/$m.diff"; then
		echo "model 0x$m: as stock"
	else
		echo "model 0x$m: differs (stock -, series +; $out/$m.diff)"
		fail=1
	fi
done
exit $fail
