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
# each the least of nine runs, taken round by round (what noise there is
# only adds: a kernel work item that lands in some runs and not others
# splits one mode's runs into groups a millisecond apart, which moved a
# median of five by as much), for perf stat of 8 events on the task,
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

# one_run MODE COMMAND...: one run of the workload under COMMAND, its
# guest ns (or "failed") added to e2e.MODE
one_run() {
	shift
	# what the run before left to do (perf's freed rings and files,
	# deferred work) is done while the guest sleeps, not in this run
	sleep 0.5
	rm -f e2e.ns
	"$@" ./work.sh > /dev/null 2>&1
	cat e2e.ns 2> /dev/null || echo failed
} >> "e2e.$1"

rm -f e2e.bare e2e.stat_8 e2e.stat_a_1 e2e.stat_a_32 e2e.record_g e2e.record_a
# nine rounds, each of every mode once: a drift over the minutes of the
# test weighs on all modes alike
for _ in 1 2 3 4 5 6 7 8 9; do
	one_run bare
	one_run stat_8 perf stat -o stat.txt -e "$events8" --
	one_run stat_a_1 perf stat -a -o stat.txt -e cycles --
	one_run stat_a_32 perf stat -a -o stat.txt -e "$events32" --
	one_run record_g perf record -q --no-buildid -g -o rec.data --
	one_run record_a perf record -q --no-buildid -a -o reca.data --
done

# least MODE: the least of the mode's runs (all of them on stderr, for
# the log); nothing if a run failed
least() {
	sort -n "e2e.$1" > e2e.runs
	echo "# runs of $1: $(tr '\n' ' ' < e2e.runs)" >&2
	grep -q failed e2e.runs || sed -n 1p e2e.runs
}

bare=$(least bare)
[ -n "$bare" ] || { echo "# the workload failed" >&2; exit 1; }
echo "perfbench e2e_bare $bare"
# a mode whose perf failed prints no figure (bench.sh shows "-")
for m in stat_8 stat_a_1 stat_a_32 record_g record_a; do
	ns=$(least "$m")
	[ -n "$ns" ] && echo "perfbench e2e_$m $((ns - bare))"
done
samples=$(perf report -i rec.data --stats 2> /dev/null |
	awk '/SAMPLE events:/ { print $3; exit }')
echo "perfbench e2e_record_g_samples ${samples:-0}"
perf report -i reca.data --stats 2> /dev/null > reca.stats
samples=$(awk '/SAMPLE events:/ { print $3; exit }' reca.stats)
lost=$(awk '/LOST_SAMPLES events:|LOST events:/ { n += $3 } END { print n + 0 }' \
	reca.stats)
echo "perfbench e2e_record_a_samples ${samples:-0}"
echo "perfbench e2e_record_a_lost $lost"
echo "perfbench e2e done"
