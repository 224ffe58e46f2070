#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make docs: the perf-core documentation built as the kernel builds it
# (make SPHINXDIRS=perf-core htmldocs in the series tree, kernel-doc of
# the sources included) into $BUILD/docs.  Fails on any Sphinx or
# kernel-doc warning; prints the index's path last.
. "$(dirname "$0")/lib.sh"

"$TOP/bench/series.sh"
out=$BUILD/docs
mkdir -p "$out"
# Debian's python3, which has Sphinx, before any other on the PATH
PATH=/usr/bin:$PATH make -C "$SERIES" O="$out" SPHINXDIRS=perf-core \
	htmldocs > "$out/htmldocs.log" 2>&1 ||
	{ tail -n 30 "$out/htmldocs.log" >&2; die "htmldocs failed"; }
# the build writes the netlink specs' pages into the source tree: they
# are not the series' (make patches would carry them)
git -C "$SERIES" clean -fqX -- Documentation/networking/netlink_spec
if grep -iE 'warning|error' "$out/htmldocs.log"; then
	die "htmldocs: warnings (log: $out/htmldocs.log)"
fi
echo "$out/Documentation/output/perf-core/index.html"
