#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Write the series as git format-patch files with a cover letter, into
# $BUILD/patches, and run the base's checkpatch.pl --strict over them.
# The series tree's history after the base commit is rebuilt from scratch:
# one commit for the removal of the stock implementation, then one per
# concern of the project (header, core, drivers, tests, docs, glue).
# FILE_PATH_CHANGES is not checked: the series updates MAINTAINERS in its
# glue patch, and checkpatch asks it of every patch that adds a file.
. "$(dirname "$0")/lib.sh"

out=$BUILD/patches
g() { git -C "$SERIES" -c user.name="perf clean-room" -c user.email=perf@localhost "$@"; }

g checkout -q -B series-tmp
g reset -q --soft base
g reset -q
# what make docs generates into the source tree is not the series'
g clean -fqX -- Documentation/networking/netlink_spec
commit() {
	local msg=$1; shift
	g add -A -f -- "$@"
	if ! g diff --cached --quiet; then
		g commit -q -s -F - <<<"$msg"
	fi
}
# shellcheck disable=SC2086
g rm -r -q --cached --ignore-unmatch $OWNED_PATHS $REMOVED_PATHS
# the base's own perf_events kselftests, which the project does not
# replace, stay as they are in every patch
upstream=$(g ls-tree --name-only base tools/testing/selftests/perf_events/ |
	   while read -r f; do
		case $f in *.c) [ -e "$TOP/$f" ] || echo "$f" ;; esac
	   done)
# shellcheck disable=SC2086
[ -z "$upstream" ] || g reset -q base -- $upstream
g commit -q -s -F - <<<"perf: remove the stock perf_event implementation

The clean-room series replaces kernel/events/, arch/x86/events/, the arm64
PMU glue and the perf_event uapi header; this patch removes the stock
files so that the following patches add ours."
commit "perf: add the perf_event ABI header

The complete Linux 6.12 perf_event ABI (attr versions VER0 to VER8, every
PERF_* constant, the mmap page, branch and memory data source encodings),
written from the perf_event_open(2) manual page." include/uapi/linux/perf_event.h
commit "perf: add the clean-room perf_event core

Contexts per task and per CPU, groups, scheduling onto PMUs, the
perf_event_open system call with its validation and access checks, the
PMU registry with its sysfs bus, and the software PMU.  Features not
built yet answer with a clear errno; see Documentation/perf-core/." kernel/events
commit "perf/x86: add the x86 perf glue

The hooks the rest of arch/x86 calls into the PMU layer.  No x86 PMU
driver is built yet: hardware events fail with -ENOENT." arch/x86/events
commit "perf/arm64: add the arm64 perf glue and the PMUv3 driver

The helpers the core needs about saved registers, and a driver for the
Arm PMUv3 counters: device tree probe, generic, cache and raw events,
the cycle counter and chained 64-bit counts, exception-level filtering,
overflow interrupts, sysfs and user-space counter access, with a KUnit
suite for its event mapping and counter allocation." arch/arm64/kernel/perf
commit "selftests/perf_events: add ABI and core tests

kselftest_harness programs for the ABI layout, perf_event_open errors,
software counting, enable controls, perf_event_paranoid and sysfs.  They
pass on the stock kernel as well." tools/testing/selftests/perf_events
commit "Documentation: describe the clean-room perf_event core

How the core is organised, its locking rules, how a PMU driver plugs in,
and what is built so far." Documentation
commit "perf: glue to the rest of the kernel

Source kernel/events/Kconfig, build arch/arm64/kernel/perf/, keep the
shared ARM PMU framework to 32-bit ARM, link the documentation and list
the new files in MAINTAINERS." .
g branch -q -f series
g config branch.series.description "perf: a clean-room perf_event subsystem

This series replaces the perf_event implementation of Linux 6.12 with one
written from the specification: the perf_event_open(2) manual page, the
perf design document and the in-kernel contract in
include/linux/perf_event.h.  User space must not be able to tell it from
the stock implementation.

It builds and boots on x86_64 and arm64 and provides the ABI header, the
core (task and CPU contexts, groups, the system call and its checks,
inheritance, read formats, the software PMU) and tests: KUnit for the
core's pure logic and kselftests that pass on the stock kernel as well.
Documentation/perf-core/status.rst lists what is not built yet and the
errno each missing feature returns."
rm -rf "$out" && mkdir -p "$out"
g format-patch -q --irreversible-delete --cover-letter \
	--cover-from-description=auto -o "$out" base..series
log "patches in $out"
status=0
for p in "$out"/0*.patch; do
	case $p in *0000-cover-letter.patch) continue ;; esac
	if ! (cd "$SERIES" && scripts/checkpatch.pl --strict --quiet --ignore FILE_PATH_CHANGES "$p"); then
		status=1
	fi
done
[ $status = 0 ] && log "checkpatch --strict: clean"
exit $status
