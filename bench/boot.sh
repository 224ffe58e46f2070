#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot a test kernel under QEMU (TCG): boot.sh ARCH IMAGE INITRAMFS MODE LOG
# MODE is check (run the tests, power off), demo, or shell (interactive).
# Boots are reproducible: fixed -seed, guest-clock RTC, and on arm64 icount.
# A guest that does not power off in time is killed.
# ACPI=1 boots the arm64 guest through UEFI firmware (qemu-efi-aarch64),
# which describes the machine with ACPI tables instead of a device tree;
# KVM=1 gives the arm64 guest EL2 (virtualization=on), where KVM runs;
# TESTS="a b" runs only those test programs; APPEND adds kernel arguments;
# PERF_ROOT=1 gives the arm64 guest the perf tool (bench/perf-root.sh).
# ARM_CPU=cortex-a57 (or another QEMU arm64 CPU) replaces -cpu max.
# x86 guests run single-threaded TCG (one host thread for both vCPUs):
# with multi-threaded TCG, cross-modified code (static keys patched with
# int3) is not seen at once by the other vCPU; TCG_THREAD=multi for that.
# X86_PMU=intel (or intel3, amd) boots the x86 guest on bench/qemu.sh's
# QEMU, with a PMU; skx, icx, spr and spr-kvm are Intel model personalities
# of that PMU (Skylake-SP, Ice Lake-SP, Sapphire Rapids, and Sapphire Rapids
# as KVM presents it to a guest: Documentation/perf-core/x86-models.rst);
# NMI_WATCHDOG=1 boots it with the NMI watchdog on.
# X86_QEMU=path boots it on that QEMU binary instead of bench/qemu.sh's
# (an older build, to compare).
# X86_CPU_EXTRA=",family=0x19" adds -cpu properties after the PMU's
# (another AMD family, to see which tables stock's driver takes there).
# ICOUNT=1 gives the x86 guest arm64's clock: one nanosecond of guest time
# per instruction (make bench).  ICOUNT_SHIFT=N makes it 2^N nanoseconds
# (make storm on arm64: a long storm in less host time); ICOUNT=0 takes the
# arm64 guest off icount: multi-threaded TCG in real time, where PMUv3
# counts cycles but not instructions (make storm STORM_ICOUNT=0).
# SMP="4,sockets=2,cores=2" gives the guest that -smp topology instead of
# two CPUs (a second package with two CPUs: a package-scoped PMU's
# designated CPU can go offline and hand its events over).
# MEM=3G gives the guest more memory than the 1 GiB of the others (the
# attacker's fork of a quarter million events needs some 2 GiB).
. "$(dirname "$0")/lib.sh"

arch=$1 image=$2 initrd=$3 mode=$4 logfile=$5
# a hard limit of host time; the arm64 check (icount) takes about 26 minutes
# on an idle machine; GUEST_STALL (seconds) kills a guest that stops printing
limit=${GUEST_TIMEOUT:-2100}
append="panic=-1 oops=panic bench.mode=$mode"
[ -n "${TESTS:-}" ] && append="$append bench.tests=${TESTS// /,}"
[ -n "${APPEND:-}" ] && append="$append $APPEND"
shift=${ICOUNT_SHIFT:-0}
# PERF_ROOT=1: Debian's perf tool for the guest (bench/perf-root.sh),
# appended to the initramfs (the kernel unpacks concatenated archives)
if [ "${PERF_ROOT:-0}" = 1 ]; then
	combined=$(mktemp)
	mapfile -t perf_roots < <("$TOP/bench/perf-root.sh" "$arch")
	[ "${#perf_roots[@]}" -gt 0 ] || die "bench/perf-root.sh failed"
	cat "$initrd" "${perf_roots[@]}" > "$combined"
	initrd=$combined
fi
common=(-m "${MEM:-1G}" -smp "${SMP:-2}" -nographic -no-reboot -seed 1 -rtc clock=vm
	-kernel "$image" -initrd "$initrd")
case $arch in
x86_64)
	# X86_PMU=intel|intel3|amd: the workbench's QEMU (bench/qemu.sh), whose
	# TCG has a PMU: Intel's architectural one, version 2 (or 3, with
	# AnyThread), on a model no table of stock's driver claims, or AMD's
	# core counters with PerfMonV2
	x86_qemu=qemu-system-x86_64 x86_cpu=max
	case ${X86_PMU:-} in
	"") ;;
	intel)	x86_cpu=max,vendor=GenuineIntel,family=6,model=0x3b ;;
	intel3)	x86_cpu=max,vendor=GenuineIntel,family=6,model=0x3b,tcg-pmu-version=3 ;;
	amd)	x86_cpu=max,vendor=AuthenticAMD,family=0x17,model=0x31,xlevel=0x80000022 ;;
	# Zen 4 (family 19h): LbrExtV2, the LBR stack (bench/qemu 0009)
	zen4)	x86_cpu=max,vendor=AuthenticAMD,family=0x19,model=0x11,xlevel=0x80000022 ;;
	# Intel models, with the PMU of each (tcg-pmu-model, bench/qemu)
	skx)	x86_cpu=max,vendor=GenuineIntel,family=6,model=0x55,stepping=4,tcg-pmu-model=skx ;;
	icx)	x86_cpu=max,vendor=GenuineIntel,family=6,model=0x6a,stepping=6,tcg-pmu-model=icx ;;
	spr)	x86_cpu=max,vendor=GenuineIntel,family=6,model=0x8f,stepping=8,tcg-pmu-model=spr ;;
	spr-kvm) x86_cpu=max,vendor=GenuineIntel,family=6,model=0x8f,stepping=8,tcg-pmu-model=spr-kvm ;;
	# hybrid: P-cores, then E-cores (bench/qemu 0012; SMP=4 gives two each)
	adl)	x86_cpu=max,vendor=GenuineIntel,family=6,model=0x97,stepping=2,tcg-pmu-model=adl,min-level=0x1a ;;
	# hybrid with CPUID 0x23 (bench/qemu 0013): P-cores, then E-cores
	mtl)	x86_cpu=max,vendor=GenuineIntel,family=6,model=0xaa,stepping=4,tcg-pmu-model=mtl,min-level=0x23 ;;
	*) die "unknown X86_PMU=$X86_PMU" ;;
	esac
	if [ -n "${X86_PMU:-}" ]; then
		x86_qemu=${X86_QEMU:-$("$TOP/bench/qemu.sh" | tail -n 1)}
		x86_cpu=$x86_cpu,pmu=on,tcg-pmu=on${X86_CPU_EXTRA:-}
	fi
	# the host's root, read-only, for the perf tool (tests/perf_smoke)
	qemu=("$x86_qemu" -M q35 -cpu "$x86_cpu"
	      -accel tcg,thread="${TCG_THREAD:-single}" "${common[@]}")
	# the TSC's rate as the guest is told it: under icount QEMU's TSC
	# counts nanoseconds of guest time, and a TSC whose rate is wrong is
	# dropped by the clocksource watchdog at a moment that varies from
	# boot to boot (perf's clock then doubles its pace mid-run)
	tsc_khz=2000000
	if [ "${ICOUNT:-0}" = 1 ]; then
		qemu+=(-icount shift="$shift",sleep=off)
		tsc_khz=1000000
	fi
	# the NMI watchdog (bench/configs/x86_64.config) off unless
	# NMI_WATCHDOG=1: it would hold a counter of the PMU
	wd=0
	[ "${NMI_WATCHDOG:-0}" = 1 ] && wd=1
	qemu+=(
	      -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap
	      -append "console=ttyS0 tsc_early_khz=$tsc_khz nmi_watchdog=$wd $append")
	;;
arm64)
	machine=virt
	# KVM=1: the guest kernel starts at EL2 (VHE), KVM comes up and the
	# PMUv3 kselftest runs a guest of its own (tests/pmuv3_kvm)
	[ "${KVM:-0}" = 1 ] && machine=virt,virtualization=on,gic-version=3
	qemu=(qemu-system-aarch64 -M $machine -cpu "${ARM_CPU:-max}" "${common[@]}")
	[ "${ICOUNT:-1}" != 0 ] && qemu+=(-icount shift="$shift",sleep=off)
	if [ "${ACPI:-0}" = 1 ]; then
		qemu+=(-bios /usr/share/qemu-efi-aarch64/QEMU_EFI.fd)
		append="acpi=force $append"
	fi
	qemu+=(-append "console=ttyAMA0 $append")
	;;
esac

if [ "$mode" = shell ]; then
	status=0
	"${qemu[@]}" || status=$?
	rm -f "${combined:-}"
	exit "$status"
fi
# Killed after $limit seconds of host time in all, or, with GUEST_STALL, once
# its console has been silent for that many: a guest that makes progress
# (each test prints when it ends, within its own limit of guest time) is
# not killed for being slow on a busy host.
pidfile=$(mktemp)
: > "$logfile"
set +e
setsid "${qemu[@]}" -pidfile "$pidfile" < /dev/null 2>&1 |
	stdbuf -oL tr -d '\r' |
	tee "$logfile" &
pipe=$!
start=$SECONDS last=$SECONDS size=0 why=""
while kill -0 "$pipe" 2>/dev/null; do
	sleep 2
	now=$(stat -c %s "$logfile" 2>/dev/null || echo 0)
	[ "$now" != "$size" ] && size=$now last=$SECONDS
	if [ $((SECONDS - start)) -ge "$limit" ]; then
		why="after ${limit}s"
	elif [ -n "${GUEST_STALL:-}" ] && [ $((SECONDS - last)) -ge "$GUEST_STALL" ]; then
		why="silent for ${GUEST_STALL}s"
	else
		continue
	fi
	pid=$(cat "$pidfile" 2>/dev/null)
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
	break
done
wait "$pipe"
set -e
rm -f "$pidfile" "${combined:-}"
[ -n "$why" ] && echo "@@BENCH-TIMEOUT guest killed $why" | tee -a "$logfile"
exit 0
