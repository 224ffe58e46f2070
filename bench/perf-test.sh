#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make perf-test [ARCH=arm64]: "perf test" of Debian's linux-perf in the
# guest, on stock and on the series, each test under its own hard timeout;
# prints the two result columns side by side and fails if the series does
# not pass a test that stock passes.  x86_64 runs the host's perf over
# virtio-9p, arm64 Debian's arm64 perf (bench/perf-root.sh).  About 20
# minutes a kernel under TCG.  PERF=6.12: the base's own perf 6.12
# instead, built on our jevents (bench/perf-jevents.sh), its shell tests
# included.
# Usage: perf-test.sh [ARCH]
. "$(dirname "$0")/lib.sh"

arch=${1:-x86_64}
perf_root=0 test=perf_test tag=
[ "$arch" = arm64 ] && perf_root=1
if [ "${PERF:-}" = 6.12 ]; then
	PERF_ARCH=$arch KINDS=ours "$TOP/bench/perf-jevents.sh" > /dev/null
	test=perf_test612 tag=-612
fi
"$TOP/bench/base.sh"
"$TOP/bench/series.sh"
build_both "$arch"
for kernel in stock series; do
	image=$SERIES_IMAGE
	[ "$kernel" = stock ] && image=$STOCK_IMAGE
	logfile=$BUILD/perf-test$tag-$kernel-$arch.log
	log "perf test on $kernel $arch (log: $logfile)"
	PERF_ROOT=$perf_root GUEST_TIMEOUT=3900 TESTS=$test \
		"$TOP/bench/boot.sh" "$arch" \
		"$image" "$INITRD" check "$logfile" > /dev/null
	grep '^PERFTEST ' "$logfile" > "$BUILD/perf-test-$kernel.txt" || true
done
awk '
FNR == 1 { file++ }
{
	n = $2; res = $3; name = $0; sub(/^PERFTEST [^ ]+ [^ ]+ /, "", name)
	if (!(n in names)) { order[++cnt] = n; names[n] = name }
	if (file == 1) s[n] = res; else r[n] = res
}
END {
	printf "%-4s %-8s %-8s %s\n", "#", "stock", "series", "test"
	for (i = 1; i <= cnt; i++) {
		n = order[i]
		sv = (n in s) ? s[n] : "-"; rv = (n in r) ? r[n] : "-"
		mark = (sv == "Ok" && rv != "Ok") ? "  <-- REGRESSION" : ""
		if (mark != "") bad++
		if (sv == "Ok") ok_s++
		if (rv == "Ok") ok_r++
		printf "%-4s %-8s %-8s %s%s\n", n, sv, rv, names[n], mark
	}
	printf "perf test: stock %d Ok, series %d Ok, %d passed on stock only\n", ok_s, ok_r, bad
	exit bad ? 1 : 0
}' "$BUILD/perf-test-stock.txt" "$BUILD/perf-test-series.txt"
