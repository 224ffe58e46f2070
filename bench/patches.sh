#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Write the series as git format-patch files with a cover letter, into
# $BUILD/patches, and run the base's checkpatch.pl --strict over each.
# The patches are those of bench/series-stages (bench/stages.py makes
# them as commits on the branch "series" of the series tree, without
# touching its working copy); the last one must leave exactly the tree
# that make check builds and tests.
# FILE_PATH_CHANGES is not checked: checkpatch asks every patch that adds
# a file to update MAINTAINERS, which the first patch does once for all.
. "$(dirname "$0")/lib.sh"

out=$BUILD/patches
# checkpatch's spdxcheck.py needs Debian's python3-ply (bench/packages),
# not a python3 of its own that PATH may find first
export PATH=/usr/bin:$PATH
g() { git -C "$SERIES" "$@"; }

# what make docs generates into the source tree is not the series'
g clean -fqX -- Documentation/networking/netlink_spec
OWNED_PATHS=$OWNED_PATHS /usr/bin/env python3 "$TOP/bench/stages.py" \
	"$TOP" "$SERIES" series > /dev/null
idx=$(mktemp)
trap 'rm -f "$idx"' EXIT
GIT_INDEX_FILE=$idx g read-tree series
GIT_INDEX_FILE=$idx g add -A .
if ! GIT_INDEX_FILE=$idx g diff --cached --quiet series; then
	GIT_INDEX_FILE=$idx g diff --cached --stat series >&2
	die "the last patch does not leave the tree make check builds"
fi
g config branch.series.description "perf: a clean-room perf_event subsystem

This series replaces the perf_event implementation of Linux 6.12 with one
written from the specification: the perf_event_open(2) manual page, the
perf design document and the in-kernel contract in
include/linux/perf_event.h.  User space must not be able to tell it from
the stock implementation.

The first patch removes the stock implementation and puts the core in
its place: contexts, scheduling onto PMUs, the system call and its
checks, the PMU registry and the software PMU.  Each following patch adds
one area (inheritance, the ring buffer, sample records, side-band
records, callchains, tracepoints, uprobes, BPF, breakpoints, cgroups,
AUX, guests) with its KUnit suite, kselftests and documentation, and
removes its stand-ins from stubs.c; then come the arm64 PMUv3 and the x86
drivers.  Every patch builds on x86_64 and arm64 (make bisect-check).
Documentation/perf-core/status.rst lists what is not built and the errno
each missing feature returns."
rm -rf "$out" && mkdir -p "$out"
g format-patch -q --irreversible-delete --cover-letter \
	--cover-from-description=auto -o "$out" base..series
log "$(find "$out" -name '0*.patch' | wc -l) files in $out"
# checkpatch's messages, less those bench/checkpatch-allowed accepts
status=0
for p in "$out"/0*.patch; do
	case $p in *0000-cover-letter.patch) continue ;; esac
	msgs=$( (cd "$SERIES" && scripts/checkpatch.pl --strict --quiet \
		--show-types --ignore FILE_PATH_CHANGES "$p" || true) |
	       awk -v allowed="$TOP/bench/checkpatch-allowed" '
		BEGIN {
			while ((getline l < allowed) > 0)
				if (l !~ /^#/ && split(l, f, " ") >= 2)
					ok[f[1] " " f[2]] = 1
		}
		/^(ERROR|WARNING|CHECK):/ { flush(); type = $1; sub(/^[A-Z]+:/, "", type); sub(/:$/, "", type); block = $0; next }
		/^#[0-9]+: FILE: / { file = $3; sub(/:[0-9]+:$/, "", file) }
		/^total:/ { flush(); next }
		block != "" { block = block "\n" $0 }
		function flush() {
			if (block != "" && !((type " " file) in ok))
				print block
			block = ""; file = ""
		}
		END { flush() }')
	if [ -n "$msgs" ]; then
		printf '%s\n' "$msgs" >&2
		log "checkpatch: $(basename "$p")"
		status=1
	fi
done
[ $status = 0 ] && log "checkpatch --strict: clean but for bench/checkpatch-allowed"
exit $status
