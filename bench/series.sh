#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Assemble the series tree in $BUILD/series: the base as its first git
# commit, the stock perf implementation removed, the project's files
# overlaid and the glue patches applied.  Re-running it only touches files
# that changed, so kbuild rebuilds only what an edit affects.
. "$(dirname "$0")/lib.sh"

[ -e "$BASE/.bench-version" ] || die "no base: run bench/base.sh"

if [ ! -e "$SERIES/.git/bench-base" ]; then
	log "creating the series tree"
	rm -rf "$SERIES"
	cp -a "$BASE" "$SERIES.tmp"
	git -C "$SERIES.tmp" init -q -b stock
	# no "git gc --auto" detached in the background: it would still be
	# deleting loose objects while the builds that follow walk the tree
	git -C "$SERIES.tmp" config gc.auto 0
	git -C "$SERIES.tmp" -c user.name=bench -c user.email=bench@localhost \
		add -A -f .
	git -C "$SERIES.tmp" -c user.name=bench -c user.email=bench@localhost \
		commit -q -m "Linux $(cat "$BASE/.bench-version") (Debian linux-source-6.12)"
	git -C "$SERIES.tmp" tag base
	for p in $OWNED_PATHS; do
		rm -rf "${SERIES:?}.tmp/$p"
	done
	cat "$BASE/.bench-version" > "$SERIES.tmp/.git/bench-base"
	mv "$SERIES.tmp" "$SERIES"
fi

# What the series deletes (a tree made before a path joined the list
# loses it too).
for p in $REMOVED_PATHS; do
	rm -rf "${SERIES:?}/$p"
done
# Overlay: every owned path mirrors the project exactly.
for p in $OWNED_PATHS; do
	if [ -d "$TOP/$p" ]; then
		mkdir -p "$SERIES/$p"
		rsync -r --checksum --delete "$TOP/$p/" "$SERIES/$p/"
	elif [ -f "$TOP/$p" ]; then
		mkdir -p "$(dirname "$SERIES/$p")"
		rsync --checksum "$TOP/$p" "$SERIES/$p"
	else
		rm -rf "${SERIES:?}/$p"
	fi
done
# The base's own perf_events kselftests stay beside ours (the overlay's
# --delete took them out): the series keeps upstream's tests.
for f in "$BASE"/tools/testing/selftests/perf_events/*.c; do
	[ -e "$TOP/tools/testing/selftests/perf_events/$(basename "$f")" ] ||
		rsync --checksum "$f" "$SERIES/tools/testing/selftests/perf_events/"
done

# Glue patches: apply each one not yet applied.  A patch that changed since
# it was applied gets its files restored from the base and is applied anew.
for patch in "$TOP"/patches/*.patch; do
	[ -e "$patch" ] || continue
	if git -C "$SERIES" apply --check -R "$patch" 2>/dev/null; then
		continue
	fi
	if ! git -C "$SERIES" apply --check "$patch" 2>/dev/null; then
		files=$(git -C "$SERIES" apply --numstat "$patch" | cut -f3)
		# shellcheck disable=SC2086
		git -C "$SERIES" checkout base -- $files
	fi
	log "applying $(basename "$patch")"
	git -C "$SERIES" apply "$patch"
done
