#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Configure and build one test kernel: kernel.sh ARCH KERNEL [DEBUG]
# The configuration is tinyconfig plus the fragments of bench/configs; it is
# regenerated only when a fragment changes, so rebuilds stay incremental.
# Prints the image path on its last line.
. "$(dirname "$0")/lib.sh"

arch=$1 kernel=$2 debug=${3:-0}
karch=$(kbuild_arch "$arch")
src=$(tree_of "$kernel")
out=$BUILD/$kernel-$arch
[ "$debug" = 1 ] && out=$out-debug
frags="$TOP/bench/configs/common.config $TOP/bench/configs/$arch.config"
[ "$debug" = 1 ] && frags="$frags $TOP/bench/configs/debug.config"
# shellcheck disable=SC2086
# The sum covers the tree's Kconfig files too: a symbol the series adds
# or changes gets the value a fresh configuration gives it (as on CI),
# not the default syncconfig picks for it in an old .config.
sum=$( (cat $frags; find "$src" -name .git -prune -o -name 'Kconfig*' -print |
	LC_ALL=C sort | xargs cat) | sha1sum | cut -d' ' -f1)
# LOCALVERSION= keeps uname -r the same as stock's (no "+" for the git
# series tree); the make variables of our caller must not leak into kbuild:
# nor those of its command line (make check DEBUG=1), which make exports,
# and DEBUG=1 builds objtool unoptimized: a new objtool, whose change
# rebuilds every object of an x86 kernel.
kmake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u DEBUG -u KERNEL -u ARCHS \
		-u MINUTES -u SEED \
		make -C "$src" O="$out" ARCH="$karch" \
		CROSS_COMPILE="$(cross_compile "$arch")" LOCALVERSION= "$@"
}

mkdir -p "$out"
if [ "$(cat "$out/.bench-config" 2>/dev/null)" != "$sum" ]; then
	log "configuring $kernel $arch"
	kmake -s tinyconfig >/dev/null
	# shellcheck disable=SC2086
	(cd "$out" && KCONFIG_CONFIG=.config \
		"$src/scripts/kconfig/merge_config.sh" -m -O "$out" .config $frags) >/dev/null
	kmake -s olddefconfig >/dev/null
	echo "$sum" > "$out/.bench-config"
fi
log "building $kernel $arch kernel"
jobs=$(nproc)
if ! kmake -s -j"$jobs" "$(basename "$(image_path "$arch")")" > "$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log" >&2
	die "kernel build failed: $out/build.log"
fi
grep -E 'warning:' "$out/build.log" >&2 || true
echo "$out/$(image_path "$arch")"
