#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# perf-jevents.sh - build the base's perf 6.12 twice: with stock's jevents
# (Python) and with ours (tools/perf/pmu-events/, C), and print the two
# binaries' paths, stock's first.  x86_64 natively, or arm64 with the cross
# compiler and Debian's arm64 libraries (PERF_ARCH=arm64).
#
# Each build works on its own copy of the base's tools/ (and the two other
# paths perf's build reads; the base stays untouched).  Ours is the copy as
# the series makes it: the project's tools/perf/pmu-events/ files laid
# over it, glue patch 0009 (the build rule) applied, the Python generator
# deleted (the tools/ paths of bench/lib.sh's REMOVED_PATHS); it runs with python and python3 on PATH replaced by stand-ins
# that record any call, and fails if one was made.
#
# Environment: BUILD (default ./build), BASE (default $BUILD/base: the
# unpacked linux-source-6.12), JOBS (default 2), KINDS (default "stock
# ours"), PERF_ARCH (x86_64 or arm64).  Output under
# $BUILD/perf-jevents/<kind>[-arm64]/: src/, obj/perf, log.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
BASE=${BASE:-$BUILD/base}
JOBS=${JOBS:-2}
KINDS=${KINDS:-stock ours}
PERF_ARCH=${PERF_ARCH:-x86_64}
OUT=$BUILD/perf-jevents

die() { echo "perf-jevents: $*" >&2; exit 1; }

[ -f "$BASE/tools/perf/Makefile.perf" ] ||
	die "no base tree at $BASE (run make base, or set BASE=)"

# Features this machine lacks or that need Python (libbpf generates its
# helpers with a Python script), none that jevents touches.  Both arches
# have what the guests' perf_smoke uses (libtraceevent for tracepoints and
# perf trace, libelf and libdw for perf probe); arm64's come from Debian's
# arm64 -dev packages (bench/packages), found through their pkg-config
# directory.
PERF_FLAGS=(NO_LIBPYTHON=1 NO_LIBPERL=1 NO_JVMTI=1
	    BUILD_BPF_SKEL=0 NO_LIBBPF=1 NO_SDT=1 NO_LIBUNWIND=1 NO_JEVENTS=0)
SUFFIX=
case $PERF_ARCH in
x86_64) ;;
arm64)
	PERF_FLAGS+=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
	export PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig
	SUFFIX=-arm64 ;;
*) die "PERF_ARCH must be x86_64 or arm64" ;;
esac
# what the series deletes under tools/ (the Python generator)
REMOVED_TOOLS=$(. "$TOP/bench/lib.sh" && for p in $REMOVED_PATHS; do
	case $p in tools/*) echo "$p" ;; esac
done)

build() {
	local kind=$1 dir=$OUT/$1$SUFFIX src=$OUT/$1$SUFFIX/src

	# a build made with other flags starts again (perf's build would
	# keep objects made without a feature it now has)
	if [ "$(cat "$dir/flags" 2>/dev/null)" != "${PERF_FLAGS[*]}" ]; then
		rm -rf "$dir/obj"
	fi
	mkdir -p "$src/tools" "$dir/obj"
	echo "${PERF_FLAGS[*]}" > "$dir/flags"
	rsync -a --delete "$BASE/tools/" "$src/tools/"
	# Outside tools/, perf's build reads the version (the base's, given
	# as a release tarball gives it) and arm64's sysreg.
	mkdir -p "$src/arch/arm64"
	cp "$BASE/Makefile" "$src/"
	echo "#define PERF_VERSION \"$(make -s -C "$BASE" kernelversion)\"" \
		> "$src/PERF-VERSION-FILE"
	rsync -a --delete "$BASE/arch/arm64/tools/" "$src/arch/arm64/tools/"
	if [ "$kind" = ours ]; then
		for p in $REMOVED_TOOLS; do
			rm -f "$src/$p"
		done
		cp "$TOP"/tools/perf/pmu-events/* "$src/tools/perf/pmu-events/"
		patch -s -p1 -d "$src" < "$TOP"/patches/0009-perf-tools-jevents-in-c.patch ||
			die "patches/0009 does not apply"
		mkdir -p "$dir/nopython"
		for p in python python3; do
			printf '#!/bin/sh\necho "$0 $*" >> %s/python-calls\nexit 127\n' \
				"$dir" > "$dir/nopython/$p"
			chmod +x "$dir/nopython/$p"
		done
		rm -f "$dir/python-calls"
	fi
	echo "perf-jevents: building $kind perf (log: $dir/log)" >&2
	if ! (cd "$src/tools/perf" &&
	      PATH=$([ "$kind" = ours ] && echo "$dir/nopython:")$PATH \
	      nice -n 19 make -j"$JOBS" O="$dir/obj" "${PERF_FLAGS[@]}" \
	      >"$dir/log" 2>&1); then
		tail -n 30 "$dir/log" >&2
		die "$kind perf build failed"
	fi
	[ -x "$dir/obj/perf" ] || die "$kind: no perf binary"
	if [ "$kind" = ours ] && [ -s "$dir/python-calls" ]; then
		cat "$dir/python-calls" >&2
		die "ours called python"
	fi
}

for kind in $KINDS; do
	build "$kind"
done
for kind in $KINDS; do
	echo "$OUT/$kind$SUFFIX/obj/perf"
done
