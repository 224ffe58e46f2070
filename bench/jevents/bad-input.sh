#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bad-input.sh - jevents on small fixture trees with one defect each: every
# run must fail (non-zero exit, no output file) with an error naming the
# file and line of the defect.  A clean fixture must generate.  Prints one
# line per case and "N passed, N failed" last; exits non-zero on a failure.
#
# Usage: bench/jevents/bad-input.sh [JEVENTS]  (default: builds one in a
# temporary directory from tools/perf/pmu-events/)
set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
SRC=$TOP/tools/perf/pmu-events
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

if [ $# -ge 1 ]; then
	JEVENTS=$1
else
	JEVENTS=$TMP/jevents
	make -s -f "$SRC/Makefile.jevents" O="$TMP" >/dev/null || exit 1
fi

passed=0
failed=0

# A clean tree: arch "demo" with one model, and the "test" arch jevents
# always adds.
fixture() {
	local r=$1

	mkdir -p "$r/demo/model" "$r/test/test_soc/cpu"
	cat > "$r/demo/mapfile.csv" <<'EOF'
Family-model,Version,Filename,EventType
# a comment line
Demo-1-(2|3),v1,model,core
EOF
	cat > "$r/demo/model/cache.json" <<'EOF'
[
    {
        "EventCode": "0x10",
        "EventName": "CACHE.MISS",
        "BriefDescription": "Cache misses."
    },
    {
        "EventCode": "0x11",
        "EventName": "CACHE.HIT",
        "BriefDescription": "Cache hits."
    }
]
EOF
	cat > "$r/demo/model/metrics.json" <<'EOF'
[
    {
        "MetricName": "hit_ratio",
        "MetricExpr": "CACHE.HIT / (CACHE.HIT + CACHE.MISS)",
        "BriefDescription": "Hits per access."
    }
]
EOF
	cat > "$r/test/test_soc/cpu/other.json" <<'EOF'
[
    {
        "EventCode": "0x1",
        "EventName": "TEST.ONE",
        "BriefDescription": "One."
    }
]
EOF
}

# case NAME EXPECTED-STDERR-REGEX EDIT-COMMANDS...
case_() {
	local name=$1 want=$2 r=$TMP/$1 out err rc
	shift 2

	rm -rf "$r"
	mkdir -p "$r"
	fixture "$r/arch"
	(cd "$r/arch" && eval "$@")
	out=$r/pmu-events.c
	err=$("$JEVENTS" -r "$SRC/jevents-runtime.c" demo all "$r/arch" "$out" 2>&1)
	rc=$?
	if [ "$want" = OK ]; then
		if [ $rc -eq 0 ] && [ -s "$out" ] && [ -z "$err" ]; then
			echo "ok   $name"
			passed=$((passed + 1))
		else
			echo "FAIL $name: exit $rc, stderr: $err"
			failed=$((failed + 1))
		fi
		return
	fi
	if [ $rc -ne 0 ] && [ ! -e "$out" ] && echo "$err" | grep -Eq "$want"; then
		echo "ok   $name: $err"
		passed=$((passed + 1))
	else
		echo "FAIL $name: exit $rc, want /$want/, stderr: $err"
		failed=$((failed + 1))
	fi
}

A='.*/arch'
case_ clean OK true
case_ malformed-json "^$A/demo/model/cache.json:5: error: expected ',' or '}' in object" \
	"sed -i '4s/,\$//' demo/model/cache.json"
case_ truncated-json "^$A/demo/model/cache.json:4: error: unterminated string" \
	"head -c 60 demo/model/cache.json > x && mv x demo/model/cache.json"
case_ unknown-field "^$A/demo/model/cache.json:8: error: unknown field \"EventKode\"" \
	"sed -i '8s/EventCode/EventKode/' demo/model/cache.json"
case_ missing-field "^$A/demo/model/cache.json:7: error: missing required field" \
	"sed -i '9d' demo/model/cache.json"
case_ bad-regex "^$A/demo/mapfile.csv:4: error: CPUID \"Demo-\(1\" is not a valid regular expression" \
	"echo 'Demo-(1,v1,model,core' >> demo/mapfile.csv"
case_ few-columns "^$A/demo/mapfile.csv:4: error: expected 4 columns" \
	"echo 'Demo-9,v1,model' >> demo/mapfile.csv"
case_ missing-dir "^$A/demo/mapfile.csv:4: error: directory \".*/demo/nosuch\" does not exist" \
	"echo 'Demo-9,v1,nosuch,core' >> demo/mapfile.csv"
case_ duplicate-event "^$A/demo/model/cache.json:[0-9]+: error: duplicate event \"cache.miss\" .*first at .*cache.json:[0-9]+" \
	"sed -i '9s/CACHE.HIT/cache.miss/' demo/model/cache.json"
case_ bad-metric "^$A/demo/model/metrics.json:2: error: metric expression \"CACHE.HIT / \(CACHE.HIT \+\": unexpected end" \
	"sed -i '4s|(CACHE.HIT + CACHE.MISS)|(CACHE.HIT +|' demo/model/metrics.json"
case_ bad-threshold "^$A/demo/model/metrics.json:2: error: metric expression \"hit_ratio >> 1\"" \
	"sed -i '4a\\        \"MetricThreshold\": \"hit_ratio >> 1\",' demo/model/metrics.json"
case_ unknown-std-event "^$A/demo/model/cache.json:[0-9]+: error: unknown ArchStdEvent \"NOPE\"" \
	"sed -i '3s/.*/        \"ArchStdEvent\": \"NOPE\",/' demo/model/cache.json"
case_ not-an-array "^$A/demo/model/cache.json:1: error: expected an array of events" \
	"echo '{}' > demo/model/cache.json"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
