#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build and test: check.sh KERNEL "ARCHS" DEBUG
# For each architecture: build the kernel and the initramfs, boot the guest,
# read its log.  Prints one line per suite and a closing
# "N passed, N failed" line (skips counted apart); exits 1 on any failure.
. "$(dirname "$0")/lib.sh"

kernel=$1 archs=$2 debug=${3:-0}
ACPI_TESTS="pmuv3_sysfs pmuv3_counting pmuv3_sampling pmuv3_user_access"
KVM_TESTS="pmuv3_kvm pmuv3_groups"
LOCKDOWN_TESTS="security paranoid attacker attacker32"
export TALLY=$BUILD/tally-$kernel
# A guest is killed when its console stays silent for GUEST_STALL seconds,
# not for being slow: every test program ends within its limit of guest
# time (bench/guest-init), and under icount (arm64) guest time passes as
# fast as the host executes, so a busy host only makes the run longer.
# The hard limit is three times an idle machine's run.
export GUEST_STALL=${GUEST_STALL:-1200} GUEST_TIMEOUT=${GUEST_TIMEOUT:-6300}
# debug kernels (KASAN, lockdep, kmemleak) run the tests some 3 times slower
[ "$debug" = 1 ] && export GUEST_STALL=2400 GUEST_TIMEOUT=18900
: > "$TALLY"
: > "$TALLY.fail"
"$TOP/bench/base.sh"
[ "$kernel" = series ] && "$TOP/bench/series.sh"
for arch in $archs; do
	# Build everything first: building beside a running guest is slow.
	image=$("$TOP/bench/kernel.sh" "$arch" "$kernel" "$debug" | tail -n 1)
	initrd=$("$TOP/bench/initramfs.sh" "$arch" | tail -n 1)
	logfile=$BUILD/check-$kernel-$arch.log
	[ "$debug" = 1 ] && logfile=$BUILD/check-$kernel-$arch-debug.log
	log "booting $kernel $arch (log: $logfile)"
	"$TOP/bench/boot.sh" "$arch" "$image" "$initrd" check "$logfile" > /dev/null
	# tests stock itself fails here, and on the series the upstream tests
	# that need features not built yet: reported, counted as skipped
	known=$BUILD/known-$kernel-$arch
	cat "$TOP/bench/known-stock-failures.$arch" > "$known"
	if [ "$debug" = 1 ] && [ -e "$TOP/bench/known-stock-failures.$arch-debug" ]; then
		cat "$TOP/bench/known-stock-failures.$arch-debug" >> "$known"
	fi
	[ "$kernel" = series ] && cat "$TOP/bench/known-series-gaps" >> "$known"
	"$TOP/bench/report.sh" "$kernel-$arch" "$logfile" "$known"
	if [ "$arch" = x86_64 ]; then
		# booted locked down, as a distribution may boot: the LSM
		# hooks and lockdown's refusals from the first event on
		logfile=${logfile%.log}-lockdown.log
		log "booting $kernel $arch with lockdown=confidentiality (log: $logfile)"
		APPEND=lockdown=confidentiality TESTS="$LOCKDOWN_TESTS" \
			"$TOP/bench/boot.sh" "$arch" "$image" "$initrd" check \
			"$logfile" > /dev/null
		"$TOP/bench/report.sh" "$kernel-$arch-lockdown" "$logfile" "$known"
		continue
	fi
	# the same kernel booted through UEFI with ACPI tables: the PMU is
	# found from the MADT; the PMUv3 suites run again on it
	logfile=${logfile%.log}-acpi.log
	log "booting $kernel $arch with ACPI (log: $logfile)"
	ACPI=1 TESTS="$ACPI_TESTS" "$TOP/bench/boot.sh" "$arch" "$image" "$initrd" \
		check "$logfile" > /dev/null
	"$TOP/bench/report.sh" "$kernel-$arch-acpi" "$logfile" "$known"
	# and as distributions run it: at EL2, where KVM runs (a guest's
	# virtual PMU on the host's), with CPU 1 tickless (nohz_full), where
	# multiplexing must rotate without the tick (pmuv3_groups; not the
	# tests of exact user instruction counts: on that CPU they gain a few
	# thousand per million, on stock too)
	logfile=${logfile%-acpi.log}-kvm.log
	log "booting $kernel $arch at EL2 with KVM and nohz_full=1 (log: $logfile)"
	KVM=1 APPEND=nohz_full=1 TESTS="$KVM_TESTS" "$TOP/bench/boot.sh" "$arch" \
		"$image" "$initrd" check "$logfile" > /dev/null
	"$TOP/bench/report.sh" "$kernel-$arch-kvm" "$logfile" "$known"
	# Debian's arm64 perf tool (perf_smoke), its root appended to the
	# initramfs (bench/perf-root.sh): the x86_64 guests run the host's
	logfile=${logfile%-kvm.log}-perf.log
	log "booting $kernel $arch with Debian's arm64 perf (log: $logfile)"
	PERF_ROOT=1 TESTS=perf_smoke "$TOP/bench/boot.sh" "$arch" "$image" \
		"$initrd" check "$logfile" > /dev/null
	"$TOP/bench/report.sh" "$kernel-$arch-perf" "$logfile" "$known"
done
# the differential check against stock (bench/diff.sh): series only
if [ "$kernel" = series ] && [ "$debug" = 0 ] && [ "${DIFF:-1}" = 1 ]; then
	"$TOP/bench/diff.sh" "$archs" || true
fi
# the failures again, last, where a truncated log still shows them
if [ -s "$TALLY.fail" ]; then
	echo "failures:"
	cat "$TALLY.fail"
fi
awk '{ p += $1; f += $2; s += $3 }
END { printf "%d passed, %d failed, %d skipped\n", p, f, s; exit f ? 1 : 0 }' "$TALLY"
