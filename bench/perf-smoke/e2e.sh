#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf_e2e (make bench, guest side, in the perf tool's root): what the
# real perf tool costs a fixed workload, end to end.  The workload is xz
# compressing the first megabyte of the perf binary (one thread, level
# 2), run from tmpfs with its libraries (a file read over virtio-9p leaves
# the vCPU idle, and an idle guest's clock jumps to its next timer); it
# times itself from the inside with the guest clock, which under
# -icount counts instructions, on every CPU: its time with perf is the
# work of every task that ran meanwhile (perf's own reading of its rings
# included).  Prints, as perfbench does,
#
#	perfbench e2e_bare <guest ns of the workload alone>
#	perfbench e2e_<mode> <guest ns the workload took more under perf>
#	perfbench e2e_<mode>_samples <samples perf recorded>
#
# each the median of five runs, for perf stat of 8 events on the task,
# perf stat -a of 1 and of 32 events, perf record -g of the task and perf
# record -a (with the records perf lost).
export PERF_PAGER=cat
cd /tmp || exit 1
head -c 1000000 /usr/bin/perf > e2e.in
# xz, its libraries and its loader ("ldd" without ldd: not in every root)
mkdir -p e2e
LD_TRACE_LOADED_OBJECTS=1 /usr/bin/xz |
	sed -n 's/^[^/]*\(\/[^ ]*\) (0x.*/\1/p' > e2e.libs
cp /usr/bin/xz $(cat e2e.libs) e2e/
loader=$(basename "$(grep '/ld-linux' e2e.libs)")
cat > work.sh << EOF
#!/bin/bash
t0=\${EPOCHREALTIME/./}
/tmp/e2e/$loader --library-path /tmp/e2e /tmp/e2e/xz -2 -T1 -c \\
	/tmp/e2e.in > /dev/null
t1=\${EPOCHREALTIME/./}
echo \$(((t1 - t0) * 1000)) > /tmp/e2e.ns
EOF
chmod +x work.sh
# a first run: the copies paged in
./work.sh

events8=cycles,instructions,branches,branch-misses,cache-references
events8=$events8,cache-misses,task-clock,page-faults
events32=$events8,$events8,$events8,$events8

# run MODE COMMAND...: the workload's guest ns under COMMAND, the median
# of five runs (all five on stderr, for the log); nothing if a run failed
run() {
	local mode=$1

	shift
	for r in 1 2 3 4 5; do
		rm -f e2e.ns
		"$@" ./work.sh > /dev/null 2>&1
		cat e2e.ns 2> /dev/null || echo failed
	done | sort -n > e2e.runs
	echo "# runs of $mode: $(tr '\n' ' ' < e2e.runs)" >&2
	grep -q failed e2e.runs || sed -n 3p e2e.runs
}

bare=$(run bare)
[ -n "$bare" ] || { echo "# the workload failed" >&2; exit 1; }
echo "perfbench e2e_bare $bare"
# a mode whose perf failed prints no figure (bench.sh shows "-")
over() {
	local mode=$1 ns

	shift
	ns=$(run "$mode" "$@")
	[ -n "$ns" ] && echo "perfbench e2e_$mode $((ns - bare))"
}
over stat_8 perf stat -o stat.txt -e "$events8" --
over stat_a_1 perf stat -a -o stat.txt -e cycles --
over stat_a_32 perf stat -a -o stat.txt -e "$events32" --
over record_g perf record -q --no-buildid -g -o rec.data --
samples=$(perf report -i rec.data --stats 2> /dev/null |
	awk '/SAMPLE events:/ { print $3; exit }')
echo "perfbench e2e_record_g_samples ${samples:-0}"
over record_a perf record -q --no-buildid -a -o reca.data --
perf report -i reca.data --stats 2> /dev/null > reca.stats
samples=$(awk '/SAMPLE events:/ { print $3; exit }' reca.stats)
lost=$(awk '/LOST_SAMPLES events:|LOST events:/ { n += $3 } END { print n + 0 }' \
	reca.stats)
echo "perfbench e2e_record_a_samples ${samples:-0}"
echo "perfbench e2e_record_a_lost $lost"
echo "perfbench e2e done"
