#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build and test: check.sh KERNEL "ARCHS" DEBUG
# Builds every kernel, initramfs and QEMU the run needs, then boots the
# guests two at a time (bench/lib.sh boot_all) and reads their logs.
# Prints one line per suite and a closing "N passed, N failed" line (skips
# counted apart); exits 1 on any failure.
. "$(dirname "$0")/lib.sh"

kernel=$1 archs=$2 debug=${3:-0}
ACPI_TESTS="pmuv3_sysfs pmuv3_counting pmuv3_sampling pmuv3_user_access"
KVM_TESTS="pmuv3_kvm pmuv3_groups"
LOCKDOWN_TESTS="security paranoid attacker attacker32"
# the suites with hardware-event cases, again on the emulated AMD PMU (and
# the NMI watchdog, whose counter is a general-purpose one there), and
# those of the free-running and energy PMUs, which the AMD personality has
# (aperf, mperf, irperf; power's energy-pkg, a package-scoped PMU)
# (not perf_smoke: under icount frequency mode takes some 700 samples a
# second for 1000 on stock and series alike, and its other checks need no
# PMU)
AMD_TESTS="perf_pmu attacker attacker32 upstream-remove_on_exec nmi_watchdog msr_pmu power_pmu lbr"
SMP_TESTS="cpu_hotplug power_pmu msr_pmu"
# the Ice Lake-SP personality under icount (its model tables, eight
# general-purpose counters, topdown; RAPL, residency and the msr PMU's
# events of the model): the suites with hardware cases, the real perf
# tool's (perf_smoke's frequency mode keeps its rate there); with its
# last branch records (BENCH_LBR_ICX), adaptive PEBS's LBR group too
ICX_TESTS="perf_pmu perf_smoke attacker attacker32 nmi_watchdog msr_pmu power_pmu sysfs_pmu freeze_on_smi lbr pebs"
# the Skylake-SP personality, which has last branch records: the branch
# stack suite, precise sampling (PEBS) and the hardware cases beside them
SKX_TESTS="lbr pebs perf_pmu attacker sysfs_pmu"
# AMD Zen 4, which has the LBR stack (LbrExtV2): the branch stack suite
# and the attacker's cases on AMD's rules
ZEN4_TESTS="lbr attacker"
# the hybrid Alder Lake, two P-cores and two E-cores: a PMU each core
# type, the real perf tool's cpu_core/ and cpu_atom/ events, hotplug
ADL_TESTS="hybrid sysfs_pmu cpu_hotplug perf_smoke"
export TALLY=$BUILD/tally-$kernel
# A guest is killed when its console stays silent for GUEST_STALL seconds,
# not for being slow: every test program ends within its limit of guest
# time (bench/guest-init), and under icount (arm64) guest time passes as
# fast as the host executes, so a busy host only makes the run longer.
# The hard limit is three times an idle machine's run.
export GUEST_STALL=${GUEST_STALL:-1200} GUEST_TIMEOUT=${GUEST_TIMEOUT:-6300}
# debug kernels (KASAN, lockdep, kmemleak) run the tests some 3 times slower
[ "$debug" = 1 ] && export GUEST_STALL=2400 GUEST_TIMEOUT=18900
# Debug kernels boot one guest at a time, x86_64's main guest without the
# PMU, and its main and lockdown guests under icount: in real time the
# harness's 30 s timeouts fire on a KASAN and kmemleak kernel even on an
# idle host (attacker's group_read_size_limit and setuid_exec_vs_open,
# 2026-11-29), and on the emulated PMU its slowed NMI handler (12 to 19
# ms) cannot keep up with remove_on_exec's period of 1000.  The AMD guest
# (icount) still runs the hardware cases.
x86_main_pmu=X86_PMU=intel3 x86_lockdown_clock=
if [ "$debug" = 1 ]; then
	export LANES=${LANES:-1}
	x86_main_pmu=ICOUNT=1 x86_lockdown_clock=ICOUNT=1
fi
# the main guests have the memory of attacker's fork_with_many_events; not
# on debug kernels, where its quarter million events and their clones take
# longer than a test program's limit (the test skips for want of memory)
main_mem=MEM=3G
[ "$debug" = 1 ] && main_mem=
# the x86_64 main guest's tests: all, but on debug kernels (no PMU there)
# not the upstream remove_on_exec, whose every case opens a hardware
# event; it runs in the AMD guest
x86_main_tests() {
	[ "$debug" = 1 ] || return 0
	echo "TESTS=$(grep -vx upstream-remove_on_exec \
		"$(dirname "$1")/root/tests/LIST" | paste -sd, -)"
}
: > "$TALLY"
: > "$TALLY.fail"
"$TOP/bench/base.sh"
[ "$kernel" = series ] && "$TOP/bench/series.sh"
# minutes of an observe boot (bench/diff.sh)
observe_minutes() { case $1 in arm64) echo 5 ;; *) echo 3 ;; esac; }
diff=0
[ "$kernel" = series ] && [ "$debug" = 0 ] && [ "${DIFF:-1}" = 1 ] && diff=1
suffix=
[ "$debug" = 1 ] && suffix=-debug

# Build everything first: building beside a running guest is slow.  The
# boots go to $jobs, each after the minutes it takes on an idle machine
# (to start the longest first); their reports, in order, to $reports
# ("LABEL LOG" per line).
jobs=$(mktemp) reports=$(mktemp)
trap 'rm -f "$jobs" "$reports"' EXIT
boot() {
	local minutes=$1 label=$2 logfile=$3
	shift 3
	echo "$minutes $arch $image $initrd $logfile $*" >> "$jobs"
	echo "$label $logfile" >> "$reports"
}
# the base's perf 6.12 built on our jevents, for each arch: perf_smoke612
# runs it (about a minute an arch on a fresh machine, then seconds)
for arch in $archs; do
	PERF_ARCH=$arch KINDS=ours "$TOP/bench/perf-jevents.sh" > /dev/null
done
for arch in $archs; do
	image=$("$TOP/bench/kernel.sh" "$arch" "$kernel" "$debug" | tail -n 1)
	initrd=$("$TOP/bench/initramfs.sh" "$arch" | tail -n 1)
	logfile=$BUILD/check-$kernel-$arch$suffix.log
	if [ "$arch" = x86_64 ]; then
		"$TOP/bench/qemu.sh" > /dev/null
		# on the emulated Intel PMU, architectural version 3
		# (bench/qemu.sh): every suite, the hardware events too (on
		# debug kernels without a PMU, above)
		boot 4 "$kernel-$arch" "$logfile" $main_mem $x86_main_pmu \
			$(x86_main_tests "$initrd")
		# locked down, as a distribution may boot, and without a
		# PMU: the LSM hooks and lockdown's refusals from the first
		# event on, and the driver that finds no PMU
		boot 1 "$kernel-$arch-lockdown" "${logfile%.log}-lockdown.log" \
			$x86_lockdown_clock APPEND=lockdown=confidentiality \
			TESTS="$(echo $LOCKDOWN_TESTS | tr ' ' ,)"
		# the suites with hardware cases on AMD's core counters
		# (PerfCtrExtCore, PerfMonV2), under icount: instructions
		# count exactly
		boot 3 "$kernel-$arch-amd" "${logfile%.log}-amd.log" X86_PMU=amd ICOUNT=1 \
			TESTS="$(echo $AMD_TESTS | tr ' ' ,)"
		# and on the Ice Lake-SP personality (ICX_TESTS)
		boot 3 "$kernel-$arch-icx" "${logfile%.log}-icx.log" X86_PMU=icx \
			ICOUNT=1 BENCH_LBR_ICX=1 TESTS="$(echo $ICX_TESTS | tr ' ' ,)"
		boot 2 "$kernel-$arch-skx" "${logfile%.log}-skx.log" X86_PMU=skx \
			ICOUNT=1 TESTS="$(echo $SKX_TESTS | tr ' ' ,)"
		boot 2 "$kernel-$arch-zen4" "${logfile%.log}-zen4.log" X86_PMU=zen4 \
			ICOUNT=1 TESTS="$(echo $ZEN4_TESTS | tr ' ' ,)"
		boot 2 "$kernel-$arch-adl" "${logfile%.log}-adl.log" X86_PMU=adl \
			ICOUNT=1 SMP=4 TESTS="$(echo $ADL_TESTS | tr ' ' ,)"
		# two packages of two CPUs: the power PMU's designated CPU of
		# the second goes offline and hands its events over
		# (cpu_hotplug), the package-scope checks with two packages
		boot 1 "$kernel-$arch-smp" "${logfile%.log}-smp.log" X86_PMU=amd \
			ICOUNT=1 SMP=4,sockets=2,cores=2 \
			TESTS="$(echo $SMP_TESTS | tr ' ' ,)"
		# AMD family 15h, two threads a compute unit: its accumulated
		# power PMU ("power", power-pkg) and hotplug there
		boot 1 "$kernel-$arch-f15h" "${logfile%.log}-f15h.log" X86_PMU=amd \
			ICOUNT=1 SMP=4,sockets=1,cores=2,threads=2 \
			X86_CPU_EXTRA=,family=0x15,model=0x30 \
			TESTS="$(echo $SMP_TESTS | tr ' ' ,)"
		continue
	fi
	boot 22 "$kernel-$arch" "$logfile" $main_mem
	# the same kernel booted through UEFI with ACPI tables: the PMU is
	# found from the MADT; the PMUv3 suites run again on it
	boot 5 "$kernel-$arch-acpi" "${logfile%.log}-acpi.log" ACPI=1 \
		TESTS="$(echo $ACPI_TESTS | tr ' ' ,)"
	# and as distributions run it: at EL2, where KVM runs (a guest's
	# virtual PMU on the host's), with CPU 1 tickless (nohz_full), where
	# multiplexing must rotate without the tick (pmuv3_groups; not the
	# tests of exact user instruction counts: on that CPU they gain a few
	# thousand per million, on stock too)
	boot 4 "$kernel-$arch-kvm" "${logfile%.log}-kvm.log" KVM=1 \
		APPEND=nohz_full=1 TESTS="$(echo $KVM_TESTS | tr ' ' ,)"
	# Debian's arm64 perf tool (perf_smoke) and the base's 6.12
	# (perf_smoke612), their root appended to the initramfs
	# (bench/perf-root.sh): the x86_64 guests run the host's
	"$TOP/bench/perf-root.sh" "$arch" > /dev/null
	boot 8 "$kernel-$arch-perf" "${logfile%.log}-perf.log" PERF_ROOT=1 \
		TESTS=perf_smoke,perf_smoke612
done
# the differential check against stock (bench/diff.sh): series only; its
# stock kernels built here too, its guests booted with the others
if [ "$diff" = 1 ]; then
	for arch in $archs; do
		build_both "$arch"
		observe_jobs "$arch" "$STOCK_IMAGE" "$SERIES_IMAGE" "$INITRD" |
			sed "s/^/$(observe_minutes "$arch") /" >> "$jobs"
	done
fi
sort -s -n -r -k1,1 "$jobs" | cut -d ' ' -f 2- | boot_all

# tests stock itself fails here, and on the series the upstream tests
# that need features not built yet: reported, counted as skipped
while read -r label logfile; do
	arch=${label#"$kernel"-}
	arch=${arch%%-*}
	known=$BUILD/known-$kernel-$arch
	cat "$TOP/bench/known-stock-failures.$arch" > "$known"
	if [ "$debug" = 1 ] && [ -e "$TOP/bench/known-stock-failures.$arch-debug" ]; then
		cat "$TOP/bench/known-stock-failures.$arch-debug" >> "$known"
	fi
	[ "$kernel" = series ] && cat "$TOP/bench/known-series-gaps" >> "$known"
	"$TOP/bench/report.sh" "$label" "$logfile" "$known"
done < "$reports"
if [ "$diff" = 1 ]; then
	DIFF_BOOTED=1 "$TOP/bench/diff.sh" "$archs" || true
fi
# the failures again, last, where a truncated log still shows them
if [ -s "$TALLY.fail" ]; then
	echo "failures:"
	cat "$TALLY.fail"
fi
awk '{ p += $1; f += $2; s += $3 }
END { printf "%d passed, %d failed, %d skipped\n", p, f, s; exit f ? 1 : 0 }' "$TALLY"
