#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The differential check: boot stock and the series in the same QEMU
# machine with the same observe program (bench/observe.c), and list every
# observation that differs.  Differences listed
# in bench/known-differences (a key pattern and the reason) are reported
# apart; any other difference fails.
# The x86_64 guests observe on each emulated PMU of DIFF_X86_PMUS (bench/
# lib.sh), a comparison each; a known difference of x86_64 holds for all.
# The guests boot two at a time (boot_all); DIFF_BOOTED=1 compares the
# logs of guests that bench/check.sh booted.
# Usage: diff.sh "ARCHS"; appends "pass fail skip" to $TALLY when set.
. "$(dirname "$0")/lib.sh"

archs=$1
known=$TOP/bench/known-differences
# the areas of bench/observe.c, the first word of each key
AREAS="observe|sysctl|attr|read|type|target|field|perm|ioctl|mmap|records|callchain|hw|scope|order|freq|auxpmu|kprobe|uprobe|bpf|security|sysfs"
if [ "${DIFF_BOOTED:-0}" != 1 ]; then
	"$TOP/bench/base.sh"
	"$TOP/bench/series.sh"
	jobs=$(mktemp)
	for arch in $archs; do
		build_both "$arch"
		observe_jobs "$arch" "$STOCK_IMAGE" "$SERIES_IMAGE" "$INITRD" \
			>> "$jobs"
	done
	# the emulated x86 PMUs' QEMU, built before any guest boots
	grep -q X86_PMU= "$jobs" && "$TOP/bench/qemu.sh" > /dev/null
	boot_all < "$jobs"
	rm -f "$jobs"
fi
status=0
for arch in $(for a in $archs; do diff_labels "$a"; done); do
	for kernel in stock series; do
		# the observer's lines only: the console also carries the
		# kernel's own messages
		sed -n '/^@@BENCH-BEGIN observe/,/^@@BENCH-END observe/p' \
			"$BUILD/diff-$kernel-$arch.log" 2>/dev/null |
			grep -E "^($AREAS)\.[^ ]* " \
			> "$BUILD/observe-$kernel-$arch.txt" || true
	done
	awk -v arch="$arch" -v known="$known" \
		-v stockf="$BUILD/observe-stock-$arch.txt" \
		-v seriesf="$BUILD/observe-series-$arch.txt" \
		-v tally="${TALLY:-/dev/null}" '
	function key(l) { return substr(l, 1, index(l " ", " ") - 1) }
	function val(l) { return index(l, " ") ? substr(l, index(l, " ") + 1) : "" }
	function explained(k,    i) {
		for (i = 1; i <= nk; i++)
			if ((karch[i] == "all" || karch[i] == arch ||
			     index(arch, karch[i] "-") == 1) && k ~ kpat[i])
				return kwhy[i]
		return ""
	}
	BEGIN {
		while ((getline l < known) > 0) {
			if (l ~ /^#/ || l ~ /^[ \t]*$/)
				continue
			split(l, f, " ")
			nk++
			karch[nk] = f[1]; kpat[nk] = f[2]
			kwhy[nk] = l; sub(/^[^ ]+ +[^ ]+ +/, "", kwhy[nk])
		}
		while ((getline l < stockf) > 0) {
			k = key(l); s[k] = val(l); order[++n] = k
		}
		while ((getline l < seriesf) > 0) {
			k = key(l); r[k] = val(l)
			if (!(k in s)) order[++n] = k
		}
		for (i = 1; i <= n; i++) {
			k = order[i]
			if (seen[k]++)
				continue
			total++
			sv = (k in s) ? s[k] : "(absent)"
			rv = (k in r) ? r[k] : "(absent)"
			if (sv == rv)
				continue
			why = explained(k)
			if (why != "") {
				nknown++
				printf "  known    %s: stock [%s] series [%s] -- %s\n", k, sv, rv, why
			} else {
				ndiff++
				printf "  DIFFERS  %s: stock [%s] series [%s]\n", k, sv, rv
			}
		}
		done_s = ("observe.done" in s); done_r = ("observe.done" in r)
		if (!done_s || !done_r) {
			ndiff++
			printf "  DIFFERS  observe did not finish (stock %d, series %d)\n", done_s, done_r
		}
		# one suite for the tally: passed, or failed once a difference
		printf "%-8s %-36s %s pass:%d fail:%d skip:0 (%d observations, %d the same, %d known differences)\n",
		       "diff-" arch, "observe", ndiff ? "FAIL" : "ok  ",
		       ndiff ? 0 : 1, ndiff, total, total - ndiff - nknown, nknown
		print (ndiff ? 0 : 1), ndiff, 0 >> tally
		if (ndiff && tally != "/dev/null")
			printf "diff-%s observe: %d differences\n", arch, ndiff >> (tally ".fail")
		exit ndiff ? 1 : 0
	}' || status=1
done
exit $status
