#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Read a guest console log and print one line per suite: KUnit suites from
# their KTAP summary, kselftest programs from the harness totals.  A program
# that printed no totals (crash, timeout) counts as one failure, and so does
# any BUG, WARNING, KASAN, lockdep, RCU stall or hung task report of the
# kernel in the log.  On debug kernels a kmemleak report after the tests
# fails the "kmemleak" line, but for objects allocated by the functions of
# bench/known-base-leaks; a kernel report that bench/known-base-splats
# lists (its text and a function of its call trace) is counted apart.
# Usage: report.sh LABEL LOG [SKIPLIST]; appends "pass fail skip" to $TALLY.
. "$(dirname "$0")/lib.sh"

label=$1 logfile=$2 skiplist=${3:-/dev/null}
awk -v label="$label" -v tally="${TALLY:-/dev/null}" -v skiplist="$skiplist" \
	-v leaklist="$(dirname "$0")/known-base-leaks" \
	-v splatlist="$(dirname "$0")/known-base-splats" '
BEGIN {
	while ((getline l < skiplist) > 0) {
		split(l, f, " ")
		if (f[1] == "" || substr(f[1], 1, 1) == "#")
			continue
		known[f[1]] = substr(l, length(f[1]) + 2)
		if (f[1] !~ /:/)
			wholeprog = wholeprog " " f[1]
	}
	while ((getline l < leaklist) > 0) {
		split(l, f, " ")
		if (f[1] != "" && substr(f[1], 1, 1) != "#")
			leakknown[f[1]] = 1
	}
	while ((getline l < splatlist) > 0) {
		split(l, f, " ")
		if (f[1] != "" && substr(f[1], 1, 1) != "#")
			splatknown[f[1]] = f[2]
	}
}
# one kernel report read (its first line and the lines after it, up to
# its end marker or 60 lines): count it, as ours or as known
function splat_close() {
	if (splat == "")
		return
	if (splatbase != "")
		nbase++
	else if (!nsplat++)
		first_splat = splat
	splat = ""
}
# one kmemleak object read: count it, as ours or as known
function leak_close() {
	if (obj == "")
		return
	if (objknown != "")
		leakbase++
	else if (!leaks++)
		leakfirst = obj " (" objfirst ")"
	obj = ""; objfirst = ""
}
# a failure is known when each of its failed cases is listed as
# PROGRAM:CASE; a whole program never is (a crash of a case stock passes
# would hide behind it)
function cases_known(name,  n, c, i, why) {
	n = split(failed, c, " ")
	for (i = 1; i <= n; i++) {
		if (!((name ":" c[i]) in known))
			return ""
		why = known[name ":" c[i]]
	}
	return why
}
function out(name, p, f, s, note,  why) {
	why = failed != "" ? cases_known(name) : ""
	if (why != "" && f > 0) {
		note = note " (known: " why ")"
		s += f; f = 0
	}
	if (f && failed != "")
		note = note " (not ok:" failed ")"
	line = sprintf("%-8s %-36s %s pass:%d fail:%d skip:%d%s", label, name,
		       f ? "FAIL" : "ok  ", p, f, s, note)
	print line
	if (f && tally != "/dev/null")
		print line >> (tally ".fail")
	failed = ""
	P += p; F += f; S += s
}
# KUnit: a suite opens with "    # Subtest: NAME", its cases are the lines
# "    ok N case" (or "not ok", "# SKIP") and it closes with "ok N NAME".  The
# summary line "# NAME: pass:..." is not used: KUnit prints it only for
# suites of two or more cases.
prog == "" && /^    # Subtest: / { ksuite = $3; kp = kf = ks = 0; next }
prog == "" && ksuite != "" && /^    (not )?ok [0-9]+ / {
	if ($0 ~ / # SKIP/)
		ks++
	else if ($1 == "not") {
		kf++
		failed = failed " " $4
	}
	else
		kp++
	next
}
prog == "" && ksuite != "" && /^(not )?ok [0-9]+ / {
	if (($1 == "not" ? $4 : $3) == ksuite) {
		if (kp + kf + ks == 0 && $1 == "not")
			kf = 1
		else if (kp + kf + ks == 0 && $0 ~ / # SKIP/)
			ks = 1
		out("kunit:" ksuite, kp, kf, ks, "")
		ksuite = ""
	}
	next
}
/^@@BENCH-BEGIN / { prog = $2; totals = 0; failed = ""; next }
prog != "" && /^not ok [0-9]+ / { failed = failed " " $4; next }
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
# kmemleak (debug kernels): the objects of the report after the tests; one
# whose backtrace names a function of the known list is counted apart
/^@@BENCH-KMEMLEAK-BEGIN/ { inleak = 1; leaks = 0; next }
/^@@BENCH-KMEMLEAK-END/ { inleak = 0; leakdone = 1; leak_close(); next }
inleak && /kmemleak.*(Operation not permitted|No such file)/ { leakblind = 1; next }
inleak && /^unreferenced object / { leak_close(); obj = $3; objknown = ""; next }
inleak && obj != "" && /\[<[0-9a-f]+>\]/ {
	fn = $NF; sub(/\+.*/, "", fn)
	if (fn in leakknown)
		objknown = fn
	else if (objfirst == "" && fn !~ /^(kmemleak|__kmalloc|kmalloc|kzalloc|kvmalloc|__kvmalloc|kmem_cache|__kmem_cache|slab_|__slab|__alloc|alloc_pages|__do_kmalloc|kasan)/)
		objfirst = fn
	next
}
# complaints of the kernel itself: any of these fails the run (the kmemleak
# "Cannot allocate a scan area" is not: it scans the whole object instead,
# and fault injection (kselftest faults) makes it happen)
/(^|[] ])(BUG:|WARNING:|Oops|Kernel panic|KASAN:|UBSAN:|kmemleak: (Memory pool empty|Kernel memory leak detector disabled|Cannot (allocate a kmemleak_object|insert))|possible circular locking|inconsistent lock state|suspicious RCU usage|scheduling while atomic|stalls? on CPU|hard LOCKUP|blocked for more than [0-9]+ seconds)/ {
	splat_close()
	splat = $0; splatbase = ""; splatlines = 0
	next
}
splat != "" {
	for (k in splatknown)
		if (index(splat, k) && index($0, " " splatknown[k] "+"))
			splatbase = k
	if (/^---\[ end trace/ || ++splatlines >= 60)
		splat_close()
}
END {
	splat_close()
	if (wholeprog != "")
		out("known-list", 0, 1, 0, " (names whole programs:" wholeprog "; name PROGRAM:CASE)")
	if (ksuite != "")
		out("kunit:" ksuite, kp, 1, ks, " (suite did not finish)")
	if (prog != "")
		out(prog, 0, 1, 0, " (guest died while it ran)")
	if (!done)
		out("guest", 0, 1, 0, " (the guest did not finish its run)")
	if (leakdone && leakblind)
		out("kmemleak", 0, 1, 0, " (the report could not be read)")
	else if (leakdone && leaks)
		out("kmemleak", 0, 1, 0, " (" leaks " leaked objects; first: " leakfirst ")")
	else if (leakdone)
		out("kmemleak", 1, 0, 0, " (no leak" (leakbase ? "; " leakbase " of the base, known" : "") ")")
	base = nbase ? "; " nbase " of the base, known" : ""
	if (nsplat)
		out("kernel-log", 0, 1, 0, " (" nsplat " splat lines; first: " first_splat base ")")
	else
		out("kernel-log", 1, 0, 0, " (no BUG/WARNING/KASAN/lockdep/stall reports" base ")")
	printf "%d %d %d\n", P, F, S >> tally
}' "$logfile"
