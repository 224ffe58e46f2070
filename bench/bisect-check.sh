#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bisect-check: write the series (bench/patches.sh, with checkpatch
# on each patch), build every patch in order for each architecture of
# $1, and boot the last one.  The patches are checked out in a worktree of
# the series tree, $BUILD/bisect/series, and built in $BUILD/bisect/ with
# bench/kernel.sh's test configurations, so make check's trees and builds
# stay as they are.  The first run builds each kernel in full; later runs
# are incremental.  Each build's time goes to $BUILD/bisect/times.
. "$(dirname "$0")/lib.sh"

archs=$1
checkpatch=0
"$TOP/bench/patches.sh" || checkpatch=1
bisect=$BUILD/bisect
src=$bisect/series
if [ ! -e "$src/.git" ]; then
	rm -rf "$src"
	mkdir -p "$bisect"
	git -C "$SERIES" worktree prune
	git -C "$SERIES" worktree add -q --detach "$src" series
fi
: > "$bisect/times"
n=0 prev=
for c in $(git -C "$SERIES" rev-list --reverse base..series); do
	n=$((n + 1))
	git -C "$src" checkout -q -f --detach "$c"
	git -C "$src" clean -fdq
	subject=$(git -C "$src" log -1 --format=%s)
	for arch in $archs; do
		# a patch that changes a Kconfig file gets its configuration
		# made anew from the fragments, as a fresh build would
		if [ -z "$prev" ] || git -C "$src" diff --name-only "$prev" "$c" |
		   grep -q Kconfig; then
			rm -f "$bisect/series-$arch/.bench-config"
		fi
		start=$SECONDS
		if ! BUILD=$bisect "$TOP/bench/kernel.sh" "$arch" series 0 \
		     > /dev/null; then
			die "patch $n ($subject) does not build on $arch"
		fi
		echo "$n $arch $((SECONDS - start)) s $subject" | tee -a "$bisect/times" >&2
	done
	prev=$c
done
# the last patch is the tree make check tests: boot it on each arch
tests=abi_layout,open_errors,sw_counting,sampling,ring_buffer
export TALLY=$bisect/tally
: > "$TALLY"
for arch in $archs; do
	image=$bisect/series-$arch/$(image_path "$arch")
	initrd=$("$TOP/bench/initramfs.sh" "$arch" | tail -n 1)
	TESTS=$tests "$TOP/bench/boot.sh" "$arch" "$image" "$initrd" \
		check "$bisect/boot-$arch.log" > /dev/null || true
	cat "$TOP/bench/known-stock-failures.$arch" \
		"$TOP/bench/known-series-gaps" > "$bisect/known-$arch"
	"$TOP/bench/report.sh" "bisect-$arch" "$bisect/boot-$arch.log" \
		"$bisect/known-$arch" | grep -E 'fail:[1-9]' >&2 || true
done
read -r pass fail skip < <(awk '{p += $1; f += $2; s += $3} END {print p + 0, f + 0, s + 0}' "$TALLY")
log "bisect-check: $n patches built on: $archs; last booted: $pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ] || die "the last patch's boot failed"
[ "$checkpatch" = 0 ] || die "checkpatch is not clean (above)"
