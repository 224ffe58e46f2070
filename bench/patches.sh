#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Write the series as git format-patch files with a cover letter, into
# $BUILD/patches, and run the base's checkpatch.pl --strict over them.
# The series tree's history after the base commit is rebuilt from scratch:
# one commit for the removal of the stock implementation, then one per
# concern of the project (header, core, drivers, tests, docs, glue).
. "$(dirname "$0")/lib.sh"

out=$BUILD/patches
g() { git -C "$SERIES" -c user.name="perf clean-room" -c user.email=perf@localhost "$@"; }

g checkout -q -B series-tmp
g reset -q --soft base
g reset -q
commit() {
	local msg=$1; shift
	g add -A -- "$@" 2>/dev/null || true
	if ! g diff --cached --quiet; then
		g commit -q -s -F - <<<"$msg"
	fi
}
# shellcheck disable=SC2086
g rm -r -q --cached --ignore-unmatch $OWNED_PATHS $REMOVED_PATHS
g commit -q -s -F - <<<"perf: remove the stock perf_event implementation

The clean-room series replaces kernel/events/, arch/x86/events/, the arm64
PMU glue and the perf_event uapi header; this patch removes the stock
files so that the following patches add ours."
commit "perf: add the perf_event ABI header" include/uapi/linux/perf_event.h
commit "perf: add the clean-room perf_event core" kernel/events
commit "perf/x86: add the x86 perf glue" arch/x86/events
commit "perf/arm64: add the arm64 perf glue" arch/arm64/kernel/perf
commit "selftests/perf_events: add ABI and core tests" tools/testing/selftests/perf_events
commit "Documentation: describe the clean-room perf_event core" Documentation
commit "perf: glue to the rest of the kernel" .
g branch -q -f series
rm -rf "$out" && mkdir -p "$out"
g format-patch -q --irreversible-delete --cover-letter -o "$out" base..series
log "patches in $out"
status=0
for p in "$out"/0*.patch; do
	case $p in *0000-cover-letter.patch) continue ;; esac
	if ! (cd "$SERIES" && scripts/checkpatch.pl --strict --quiet --no-signoff "$p"); then
		status=1
	fi
done
[ $status = 0 ] && log "checkpatch --strict: clean"
exit $status
