# SPDX-License-Identifier: GPL-2.0
# Shared settings of the workbench scripts: where the base and the build
# directories live, and small helpers.  Sourced, never run.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
BASE=$BUILD/base
SERIES=$BUILD/series
mkdir -p "$BUILD"

# The paths of the base that the series owns: removed from the base and
# replaced by the project's files.
OWNED_PATHS="include/uapi/linux/perf_event.h kernel/events arch/x86/events
	arch/arm64/kernel/perf tools/testing/selftests/perf_events
	Documentation/perf-core"
# jevents in C: the files of the project's tools/perf/pmu-events/, one by
# one (the directory's JSON data and pmu-events.h stay the base's; the
# build rule is glue patch 0009).
for f in "$TOP"/tools/perf/pmu-events/*; do
	OWNED_PATHS="$OWNED_PATHS tools/perf/pmu-events/${f##*/}"
done
# Stock perf files that the series removes and does not replace file by
# file: arm64's register and callchain code, the Python jevents.
REMOVED_PATHS="arch/arm64/kernel/perf_regs.c arch/arm64/kernel/perf_callchain.c
	tools/perf/pmu-events/jevents.py tools/perf/pmu-events/metric.py
	tools/perf/pmu-events/metric_test.py tools/perf/pmu-events/models.py"

log() { printf '[bench] %s\n' "$*" >&2; }
die() { printf '[bench] error: %s\n' "$*" >&2; exit 1; }

# cross prefix and kbuild arch name for an architecture
kbuild_arch() { case $1 in x86_64) echo x86_64 ;; arm64) echo arm64 ;; *) die "unknown ARCH $1" ;; esac; }
cross_compile() { case $1 in x86_64) echo "" ;; arm64) echo aarch64-linux-gnu- ;; esac; }
image_path() { case $1 in x86_64) echo arch/x86/boot/bzImage ;; arm64) echo arch/arm64/boot/Image ;; esac; }
tree_of() { case $1 in stock) echo "$BASE" ;; series) echo "$SERIES" ;; *) die "unknown KERNEL $1" ;; esac; }

# with_tap SRC DEST: a guest's copy of shell check SRC, bench/tap.sh's
# helpers put after its first line (the interpreter's)
with_tap() {
	{ head -n 1 "$1"; cat "$TOP/bench/tap.sh"; tail -n +2 "$1"; } > "$2"
	chmod +x "$2"
}

# models_initrd OUT PART...: $INITRD with a second archive appended, the
# x86_models_PART test programs of bench/qemu/x86-models-checks.sh (and
# whatever else OUT/root/tests holds), as OUT/initrd.gz; prints the test
# programs' names (bench/x86-models.sh, bench/x86-model-tables.sh)
models_initrd() {
	local out=$1 part
	shift
	mkdir -p "$out/root/tests"
	for part; do
		cp "$TOP/bench/perf-smoke/enter.sh" "$out/root/tests/x86_models_$part"
		{ echo "PART=$part"; cat "$TOP/bench/qemu/x86-models-checks.sh"; } \
			> "$out/root/tests/x86_models_${part}_checks"
		printf 'x86_models_%s ' "$part"
	done
	cp "$INITRD" "$out/initrd.gz"
	truncate -s %512 "$out/initrd.gz"
	(cd "$out/root" && find . | cpio -o -H newc --reproducible -R 0:0 2>/dev/null) |
		gzip -n >> "$out/initrd.gz"
}

# Build stock and series kernels of one architecture and its initramfs,
# all before any guest boots (building beside a guest is slow); sets
# STOCK_IMAGE, SERIES_IMAGE and INITRD.  The trees must exist.
build_both() {
	STOCK_IMAGE=$("$TOP/bench/kernel.sh" "$1" stock 0 | tail -n 1)
	SERIES_IMAGE=$("$TOP/bench/kernel.sh" "$1" series 0 | tail -n 1)
	INITRD=$("$TOP/bench/initramfs.sh" "$1" | tail -n 1)
}

# Boot guests side by side, LANES at a time (default 2: each TCG guest
# runs in one host thread, and the build machine has two cores).  One
# guest per line of standard input: "ARCH IMAGE INITRD LOG [VAR=value...]",
# the variables for bench/boot.sh (TESTS with commas).  Guests are started
# in the order given (longest first packs the lanes best); returns when
# all have ended, each one's host time logged.
boot_all() {
	local lanes=${LANES:-2} running=0 line
	while read -r line; do
		[ -n "$line" ] || continue
		if [ "$running" -ge "$lanes" ]; then
			wait -n || true
			running=$((running - 1))
		fi
		# shellcheck disable=SC2086 # the fields, split on purpose
		boot_one $line < /dev/null &
		running=$((running + 1))
	done
	wait
}

boot_one() {
	local arch=$1 image=$2 initrd=$3 logfile=$4 start=$SECONDS
	shift 4
	log "booting $(basename "$logfile" .log) ${*:-}"
	env "$@" "$TOP/bench/boot.sh" "$arch" "$image" "$initrd" check \
		"$logfile" > /dev/null
	log "$(basename "$logfile" .log) ended after $((SECONDS - start)) s"
}

# What bench/diff.sh compares: one label per architecture, and on x86_64
# one per emulated PMU of DIFF_X86_PMUS (x86_64-intel3, x86_64-amd, and
# the Intel models with their tables and topdown, x86_64-icx and
# x86_64-spr, and the hybrid Alder and Meteor Lake, x86_64-adl and
# x86_64-mtl, on four CPUs; plain x86_64, without a PMU, when it is
# empty).
DIFF_X86_PMUS=${DIFF_X86_PMUS-intel3 amd icx spr adl mtl}
diff_labels() {
	local p

	if [ "$1" != x86_64 ] || [ -z "$DIFF_X86_PMUS" ]; then
		echo "$1"
		return
	fi
	for p in $DIFF_X86_PMUS; do
		echo "x86_64-$p"
	done
}

# observe_jobs ARCH STOCK_IMAGE SERIES_IMAGE INITRD: the observe boots of
# one architecture, as boot_all lines (logs: diff-KERNEL-LABEL.log).  The
# guests with an emulated PMU run under icount: instructions count
# exactly, and the hardware observations do not follow the host's load (a
# busy CI machine once made frequency mode's rate differ in real time).
# The Intel one runs with the NMI watchdog on.
observe_jobs() {
	local label pmu kernel image vars

	for label in $(diff_labels "$1"); do
		pmu=${label#"$1"}
		pmu=${pmu#-}
		vars=TESTS=observe
		[ -n "$pmu" ] && vars="$vars X86_PMU=$pmu"
		[ -n "$pmu" ] && vars="$vars ICOUNT=1"
		# the Intel guest with the NMI watchdog on, as Debian boots:
		# its pinned CPU-wide counter beside the observed groups
		[ "$pmu" = intel3 ] && vars="$vars NMI_WATCHDOG=1"
		# the hybrid part: two P-cores and two E-cores
		case $pmu in adl | mtl) vars="$vars SMP=4" ;; esac
		for kernel in stock series; do
			image=$3
			[ "$kernel" = stock ] && image=$2
			echo "$1 $image $4 $BUILD/diff-$kernel-$label.log $vars"
		done
	done
}
