#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf_jevents (in an x86_64 guest, on the host's root over virtio-9p, or
# an arm64 one, in Debian's arm64 root; bench/jevents/guests.sh): the
# base's perf 6.12 built twice, with stock's generated tables (STOCK_PERF)
# and with ours (OURS_PERF), on the PMUs of this guest's emulated CPU.  The
# host puts the paths in front of this file, with STOCK_SRC and OURS_SRC,
# each build's tools/perf (where perf test finds its shell tests).
#  - perf list in every form a user or a script reads: identical output;
#  - perf's own tests of events, PMUs and metrics: the same result each;
#  - a named event of the model's JSON (the first that opens): counted by
#    both; and the instructions each build takes to open it, and to list,
#    printed as "# cost WHAT stock N ours N".
export PERF_PAGER=cat
cd /tmp || exit 1
for b in "$STOCK_PERF" "$OURS_PERF"; do
	if [ ! -x "$b" ]; then
		echo "1..1"
		echo "ok 1 perf_jevents # SKIP no perf 6.12 at $b (make perf-jevents)"
		echo "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:1 error:0"
		exit 0
	fi
done

# run KIND ARGS...: perf of build KIND
run_path() { if [ "$1" = stock ]; then echo "$STOCK_PERF"; else echo "$OURS_PERF"; fi; }
run() {
	local perf

	perf=$(run_path "$1")
	shift
	"$perf" "$@"
}

# same A B: the two files are equal (arm64's root has no diffutils)
same() {
	if command -v cmp > /dev/null; then
		cmp -s "$1" "$2"
	else
		[ "$(md5sum < "$1")" = "$(md5sum < "$2")" ]
	fi
}
# differ A B: the first lines that differ, on one line
differ() {
	if command -v diff > /dev/null; then
		diff "$1" "$2" | head -n 4 | tr '\n' ' ' | cut -c1-300
	else
		echo "$(wc -l < "$1") lines against $(wc -l < "$2")"
	fi
}

# perf list: each form, the two outputs compared byte for byte
echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo)"
echo "# pmus: $(ls /sys/bus/event_source/devices | tr '\n' ' ')"
while read -r args; do
	for kind in stock ours; do
		# shellcheck disable=SC2086 # the arguments, split on purpose
		run $kind list $args > "list-$kind.txt" 2>&1
	done
	echo "# perf list $args: $(wc -l < list-ours.txt) lines"
	check "perf list $args: the same" \
		"$(same list-stock.txt list-ours.txt && echo 1 || echo 0)" \
		"$(differ list-stock.txt list-ours.txt)"
done <<'EOF'

--details
--long-desc --details
-j
--deprecated -j
--raw-dump
metricgroups
metrics
pmu
cache
--unit cpu -j
EOF

# perf test: the tests of events, PMUs and metrics, each build's result
# (a build's shell tests from its own tree; without one, as on arm64,
# they are not in its list and skip)
for t in 'Parse event definition strings' 'Sysfs PMU tests' \
	 'PMU JSON event tests' 'Parse and process metrics' \
	 'perf list tests' 'perf all metricgroups test' \
	 'perf stat metrics (shadow stat) test'; do
	res_stock= res_ours=
	for kind in stock ours; do
		src=$STOCK_SRC
		[ $kind = ours ] && src=$OURS_SRC
		# by number: a name picks no test with subtests
		num=$(cd "$src" && run $kind test list 2>&1 |
		      awk -v t="$t" '{ k = $0; sub(/^ *[0-9]+: /, "", k) }
				     k == t { print $1 + 0; exit }')
		eval "num_$kind=\$num"
		[ -n "$num" ] || continue
		(cd "$src" && timeout -s KILL 900 "$(run_path $kind)" test "$num") \
			> "test-$kind.txt" 2>&1 < /dev/null
		rc=$?
		res=$(grep -E ': (Ok|FAILED|Skip)' "test-$kind.txt" |
		      sed 's/^ *[0-9.]*: *//; s/  */ /g' | sort | tr '\n' ';')
		[ -n "$res" ] || res="no result (rc $rc)"
		eval "res_$kind=\$res"
	done
	if [ -z "$num_stock" ] || [ -z "$num_ours" ]; then
		skip_check "perf test '$t'" "not in a build's list"
		continue
	fi
	echo "# perf test '$t': $res_ours"
	check "perf test '$t': the same results" \
		"$([ "$res_stock" = "$res_ours" ] && echo 1 || echo 0)" \
		"stock: $res_stock ours: $res_ours"
done

# a named JSON event of this model: the first of these the build opens
event=
for e in inst_retired.any ex_ret_instr ls_not_halted_cyc \
	 retired_instructions cpu_clk_unhalted.thread inst_retired \
	 inst_spec; do
	if run ours stat -x, -e "$e" true > /dev/null 2> stat.txt &&
	   ! grep -q -E 'not supported|not counted|event syntax' stat.txt; then
		event=$e
		break
	fi
done
if [ -z "$event" ]; then
	skip_check "a named JSON event counts with both" "none of the model's"
else
	for kind in stock ours; do
		run $kind stat -x, -e "$event" -- true > /dev/null 2> "stat-$kind.txt"
	done
	s=$(grep -c "$event" stat-stock.txt)
	o=$(grep -c "$event" stat-ours.txt)
	check "perf stat -e $event: counted by both builds" \
		"$([ "$s" = 1 ] && [ "$o" = 1 ] && echo 1 || echo 0)" \
		"stock: $(head -c 200 stat-stock.txt) ours: $(head -c 200 stat-ours.txt)"
fi

# the cost of each build: instructions (user and kernel) of perf list
# --details, and of perf stat of the named event and of a software one,
# counted by perf stat around it (exact under icount, and blind to the
# waits for the host's files over virtio-9p); the median of three runs of
# each build taken in turns
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
cost() {
	local what=$1 kind

	shift
	: > cost-stock.txt
	: > cost-ours.txt
	for _ in 1 2 3; do
		for kind in stock ours; do
			run ours stat -x, -e instructions -o count.txt -- \
				"$(run_path $kind)" "$@" > /dev/null 2>&1
			awk -F, '$3 ~ /^instructions/ { print $1 }' count.txt \
				>> "cost-$kind.txt"
		done
	done
	echo "# cost $what stock $(median < cost-stock.txt) ours $(median < cost-ours.txt)"
}
cost list list --details
if [ -n "$event" ]; then
	cost open stat -e "$event" true
	cost open-sw stat -e task-clock true
fi
echo "1..$n"
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
[ "$fail" = 0 ]
