#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Read a guest console log and print one line per suite: KUnit suites from
# their KTAP summary, kselftest programs from the harness totals.  A program
# that printed no totals (crash, timeout) counts as one failure, and so does
# any BUG, WARNING, KASAN or lockdep report of the kernel in the log.
# Usage: report.sh LABEL LOG [SKIPLIST]; appends "pass fail skip" to $TALLY.
. "$(dirname "$0")/lib.sh"

label=$1 logfile=$2 skiplist=${3:-/dev/null}
awk -v label="$label" -v tally="${TALLY:-/dev/null}" -v skiplist="$skiplist" '
BEGIN {
	while ((getline l < skiplist) > 0) {
		split(l, f, " ")
		if (f[1] != "" && substr(f[1], 1, 1) != "#")
			known[f[1]] = substr(l, length(f[1]) + 2)
	}
}
function out(name, p, f, s, note) {
	if (name in known && f > 0) {
		note = note " (known: " known[name] ")"
		s += f; f = 0
	}
	printf "%-8s %-36s %s pass:%d fail:%d skip:%d%s\n", label, name,
	       f ? "FAIL" : "ok  ", p, f, s, note
	P += p; F += f; S += s
}
# KUnit: "# perf_attr: pass:5 fail:0 skip:0 total:5"
/^# [A-Za-z0-9_]+: pass:[0-9]+ fail:[0-9]+ skip:[0-9]+ total:[0-9]+/ {
	line = $0; sub(/^# /, "", line)
	split(line, a, /[: ]+/)
	if (a[1] == "Totals")
		next
	out("kunit:" a[1], a[3] + 0, a[5] + 0, a[7] + 0, "")
	next
}
/^@@BENCH-BEGIN / { prog = $2; totals = 0; next }
prog != "" && /# Totals: pass:/ {
	split($0, a, /[: ]+/)
	for (i = 1; i in a; i++) {
		if (a[i] == "pass") tp = a[i + 1]
		if (a[i] == "fail") tf = a[i + 1]
		if (a[i] == "skip") ts = a[i + 1]
		if (a[i] == "error") te = a[i + 1]
	}
	totals = 1
	next
}
/^@@BENCH-END / {
	rc = $3; sub(/rc=/, "", rc)
	if (!totals)
		out(prog, 0, 1, 0, " (no totals, exit " rc ")")
	else if (rc != 0 && tf + te == 0)
		out(prog, tp, 1, ts, " (exit " rc ")")
	else
		out(prog, tp, tf + te, ts, "")
	prog = ""
	next
}
/^@@BENCH-DONE/ { done = 1 }
# complaints of the kernel itself: any of these fails the run
/(^|[] ])(BUG:|WARNING:|Oops|Kernel panic|KASAN:|UBSAN:|kmemleak:|possible circular locking|inconsistent lock state|suspicious RCU usage|scheduling while atomic)/ {
	if (!nsplat++)
		first_splat = $0
}
END {
	if (prog != "")
		out(prog, 0, 1, 0, " (guest died while it ran)")
	if (!done)
		out("guest", 0, 1, 0, " (the guest did not finish its run)")
	if (nsplat)
		out("kernel-log", 0, 1, 0, " (" nsplat " splat lines; first: " first_splat ")")
	else
		out("kernel-log", 1, 0, 0, " (no BUG/WARNING/KASAN/lockdep reports)")
	printf "%d %d %d\n", P, F, S >> tally
}' "$logfile"
