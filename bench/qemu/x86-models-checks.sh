#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# x86_models (guest side, in the host's root over 9p: bench/perf-smoke/
# enter.sh): what a kernel's x86 PMU driver shows on an emulated Intel
# model (bench/x86-models.sh boots it): the cpu PMU's sysfs tree, and a few
# perf stat runs of the host's perf tool, each preceded by a marker event
# whose control value bench/x86-models.sh finds in QEMU's MSR trace
# (BENCH_PMU_TRACE): event select = the run's number, unit mask 0x42,
# counter mask 0x7f, a value no driver programs for an event of its own.
# PART (set by bench/x86-models.sh, one guest test program a part, each
# within the guest's time limit of a test): sysfs (the tree and runs 1-5),
# stat (6-8), groups (9-11), metrics (12-127: every metric group) or
# events (128-255: every named event, four a run) or energy (the power,
# msr and cstate PMUs: sysfs trees and system-wide counts, no marker) or
# lbr (95-111: perf record's branch stacks of bench/qemu/lbr-workload.c;
#   220 on: bench/qemu/lbr-probe.c)
# or pebs (112-121: perf record at each precise level, perf mem and perf
# c2c of the same workload; 160-218: bench/qemu/pebs-probe.c).
export PERF_PAGER=cat
cd /tmp || exit 1
part=${PART:-sysfs}

# dump_pmu NAME: every plain file of a PMU's directory and of its
# subdirectories (format, events, caps, power), with its contents (and
# whether it ends without a newline)
dump_pmu() {
	local d=/sys/bus/event_source/devices/$1 f nl
	echo "=== sysfs $1"
	if [ ! -d "$d" ]; then
		echo "(no $d)"
		return
	fi
	(cd "$d/" && find . -maxdepth 2 -type f | sed 's|^\./||' | LC_ALL=C sort) |
	while read -r f; do
		if [ -r "$d/$f" ]; then
			# a file whose last byte is no newline says so
			nl=
			[ -s "$d/$f" ] && [ -n "$(tail -c 1 "$d/$f")" ] &&
				nl=" (no newline)"
			printf '%s: %s%s\n' "$f" "$(tr '\n' ' ' < "$d/$f" 2>&1 | sed 's/ $//')" "$nl"
		else
			printf '%s: (not readable, mode %s)\n' "$f" "$(stat -c %a "$d/$f")"
		fi
	done
}

if [ "$part" = sysfs ]; then
dump_pmu cpu
echo "=== pmus"
ls /sys/bus/event_source/devices/ | tr '\n' ' '
echo
echo "=== perf"
perf --version
fi

# a workload of some 20 ms of guest time, for multiplexing to rotate
spin() {
	i=0
	while [ $i -lt 2000 ]; do i=$((i + 1)); done
}
export -f spin
# and of some 200 ms, for the metric groups and named events: the
# multiplexing timer (4 ms) rotates every group in many times, so what is
# counted does not follow where its first tick falls in each kernel's run
spin_long() {
	i=0
	while [ $i -lt 20000 ]; do i=$((i + 1)); done
}
export -f spin_long

# run N [perf stat options] [-- workload]: "true" when none is given
run() {
	local opts=() n=$1
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	[ $# -gt 0 ] || set -- true
	perf stat -x, -e "r7f0042$(printf %02x $n)" -o /dev/null -- true 2> /dev/null
	echo "=== run $n: perf stat ${opts[*]} -- $*"
	rm -f out.txt err.txt
	perf stat -x, -o out.txt "${opts[@]}" -- "$@" > /dev/null 2> err.txt
	echo "rc=$?"
	[ -f out.txt ] && grep -v '^#' out.txt | grep -v '^$'
	grep -v '^$' err.txt | head -5
}

# lbr_record N OPTIONS...: perf record of the fixed branchy workload
# (bench/qemu/lbr-workload.c) with the branch stack options given, a
# sample every 20,011 user instructions, after a marker as run's.  Where
# a sample falls follows each kernel's timing (the PMI comes at a block's
# end), so what is compared is what does not: the number of samples, the
# sizes the stacks have, and every branch they hold (source, target,
# flags and type; kernel addresses, which differ with each kernel's
# build, as K), once each: some 50 samples see every branch of the
# workload
lbr_record() {
	local n=$1
	shift
	perf stat -x, -e "r7f0042$(printf %02x $n)" -o /dev/null -- true 2> /dev/null
	echo "=== record $n: perf record $*"
	rm -f lbr.data err.txt
	perf record -q -o lbr.data -e instructions:u -c 20011 "$@" -- \
		/tmp/lbr_workload 30000 > /dev/null 2> err.txt
	echo "rc=$?"
	grep -v '^$' err.txt | head -5
	[ -f lbr.data ] || return
	perf script -i lbr.data -F brstack > brs.txt 2>&1
	echo "samples: $(wc -l < brs.txt)"
	# with kernel branches (a filter with k): how many a stack holds, and
	# whether it reaches back to the system call (the PMI may come some
	# instructions late, in the kernel), follow each kernel's timing; the
	# kernel's branches and its returns to user space are compared
	case " $* " in
	*,k[\ ,]*)
		tr ' ' '\n' < brs.txt | grep . |
			sed -E 's/0xffff[0-9a-f]{12}/K/g' |
			awk -F/ '$1 == "K" { if ($2 != "K") $2 = "user"
				print $1 "/" $2 "/" $3 "/" $4 "/" $5 "/" $7 }' |
			sort -u
		return ;;
	esac
	echo "stack sizes: $(awk '{ print NF }' brs.txt | sort -nu | tr '\n' ' ')"
	tr ' ' '\n' < brs.txt | grep . | sed -E 's/0xffff[0-9a-f]{12}/K/g' |
		awk -F/ '{ print $1 "/" $2 "/" $3 "/" $4 "/" $5 "/" $7 }' |
		sort -u | head -80
}

case $part in
pebs)
	# precise sampling (issue 46): what the kernel says of it, and perf
	# record of the branchy workload at each precise level; runs 112 to
	# 119: the samples' number and the IPs they hold, once each
	echo "=== caps/max_precise: $(cat /sys/bus/event_source/devices/cpu/caps/max_precise 2>&1)"
	# the driver's lines, not the series' KUnit results
	dmesg | grep -E 'PEBS|Performance Events' | sed 's/^\[[^]]*\] //' |
		grep -vE '^ *(not )?ok [0-9]+ '
	n=112
	for e in instructions:u instructions:pu instructions:ppu \
		 instructions:pppu cycles:ppu "cycles:Pu" "r00c0:ppu"; do
		perf stat -x, -e "r7f0042$(printf %02x $n)" -o /dev/null -- true 2> /dev/null
		echo "=== record $n: perf record -e $e"
		rm -f pebs.data err.txt
		perf record -q -o pebs.data -e "$e" -c 20011 -- \
			/tmp/lbr_workload 30000 > /dev/null 2> err.txt
		echo "rc=$?"
		grep -v '^$' err.txt | head -5
		# where the samples fall moves with the workload's start (its
		# environment), on stock from run to run too: their number
		# (pebs_probe below compares where they fall, from one start)
		if [ -f pebs.data ]; then
			perf script -i pebs.data -F ip > ips.txt 2>&1
			echo "samples: $(wc -l < ips.txt)"
		fi
		n=$((n + 1))
	done
	# perf mem and perf c2c (load latency and stores), user space only:
	# the data sources and latencies the samples carry, each once (the
	# emulated sources come round in turn)
	for tool in mem c2c; do
		perf stat -x, -e "r7f0042$(printf %02x $n)" -o /dev/null -- true 2> /dev/null
		echo "=== record $n: perf $tool record"
		rm -f pebs.data err.txt
		perf $tool record -o pebs.data -c 2003 --all-user -- \
			/tmp/lbr_workload 30000 > /dev/null 2> err.txt
		echo "rc=$?"
		grep -v '^$' err.txt | grep -v -e 'Captured and wrote' \
			-e 'Woken up' | head -5
		if [ -f pebs.data ]; then
			perf script -i pebs.data -F event,data_src,weight \
				> mem.txt 2>&1
			echo "samples: $(wc -l < mem.txt)"
			# each event's data sources, and how many latencies
			awk '{ $NF = ""; $1 = $1; print }' \
				mem.txt | sort -u | head -80
			awk '{ if (!seen[$1 " " $NF]++) n[$1]++ }
			     END { for (e in n) print e, n[e], "weights" }' \
				mem.txt | sort
		fi
		n=$((n + 1))
	done
	# perf_event_open(2) callers: each precise level, sample type, the
	# buffered and the record-by-record paths (bench/qemu/pebs-probe.c;
	# its cases whose samples follow kernel timing are left out)
	/tmp/pebs_probe stable
	/tmp/pebs_probe classes
	;;
lbr)
	# the last branch records (issue 46): what the kernel says of
	# them, and perf record with each branch filter and the LBR call
	# graph; runs 95 to 111
	echo "=== caps/branches: $(cat /sys/bus/event_source/devices/cpu/caps/branches 2>&1)"
	dmesg | grep -E 'LBR|Performance Events' | sed 's/^\[[^]]*\] //'
	# without a branch stack first: where the samples fall
	lbr_record 95
	n=96
	for j in "-b" "-j any,u" "-j any_call,u" "-j call,u" "-j ind_call,u" \
		 "-j any_ret,u" "-j cond,u" "-j ind_jmp,u" "-j any,k" \
		 "-j any,u,save_type" "-j any_call,any_ret,u" "-j abort_tx,u" \
		 "-j any,u,k,save_type" "-j any_ret,u,k,save_type"; do
		# shellcheck disable=SC2086 # the options, split on purpose
		lbr_record $n $j
		n=$((n + 1))
	done
	perf stat -x, -e "r7f0042$(printf %02x $n)" -o /dev/null -- true 2> /dev/null
	echo "=== record $n: perf record --call-graph lbr"
	rm -f lbr.data
	perf record -q -o lbr.data -e instructions:u -c 20011 --call-graph lbr \
		-- /tmp/lbr_workload 30000 > /dev/null 2> err.txt
	echo "rc=$?"
	grep -v '^$' err.txt | head -5
	# each sample's call chain (but the sampled IP, which follows the
	# kernel's timing) on a line, every chain once; not those through the
	# system call's wrapper, where a sample falls only now and then
	[ -f lbr.data ] && perf script -i lbr.data -F ip,sym 2>&1 |
		awk 'BEGIN { RS = ""; FS = "\n" } {
			c = ""
			for (i = 2; i <= NF; i++) {
				sub(/^[ \t]+/, "", $i)
				c = c " | " $i
			}
			print c }' | grep -v __getppid | sort -u | head -40
	# the profile tools that read branch stacks (Debian's bolt-15 and
	# autofdo), on a perf record -b of the workload: whether they take
	# it (their exit status, what they say they read, numbers as #, and
	# whether they wrote a profile)
	rm -f lbr.data lbr.fdata lbr.afdo
	perf record -q -o lbr.data -e instructions:u -c 20011 -b \
		-- /tmp/lbr_workload 30000 > /dev/null 2>&1
	echo "=== perf2bolt"
	if command -v perf2bolt-15 > /dev/null; then
		perf2bolt-15 -p lbr.data -o lbr.fdata /tmp/lbr_workload \
			> p2b.txt 2>&1
		echo "rc=$?"
		grep -E '^PERF2BOLT: read' p2b.txt | sed -E 's/ [0-9]+/ #/g'
		[ -s lbr.fdata ] && echo "profile written"
	else
		echo "no perf2bolt-15"
	fi
	echo "=== create_llvm_prof"
	if command -v create_llvm_prof > /dev/null; then
		create_llvm_prof --binary=/tmp/lbr_workload --profile=lbr.data \
			--out=lbr.afdo > cl.txt 2>&1
		echo "rc=$?"
		[ -s lbr.afdo ] && echo "profile written"
	else
		echo "no create_llvm_prof"
	fi
	# perf_event_open(2) callers: each branch_sample_type's errno, and
	# every field of the entries (bench/qemu/lbr-probe.c, runs 220 on)
	/tmp/lbr_probe
	;;
sysfs)
	run 1 -e cycles,instructions,ref-cycles,topdown-retiring
	run 2 -e cycles,instructions,ref-cycles
	run 3 -e '{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound}'
	run 4 -e '{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound,topdown-heavy-ops,topdown-br-mispredict,topdown-fetch-lat,topdown-mem-bound}'
	run 5 --topdown
	;;
stat)
	run 6
	run 7 -d -d -d
	run 8 -d -d -d -- bash -c spin
	;;
groups)
	# L2_RQSTS.DEMAND_DATA_RD_MISS (0x24, umask 0x21): general counters
	# 0-3 only on Ice Lake-SP and Sapphire Rapids (their perfmon JSON);
	# the emulation counts nothing for it on counters 4-7
	run 9 -e r2124,r2124,r2124,r2124,r2124,r2124 -- bash -c spin
	run 10 -e '{r2124,r2124,r2124,r2124,r2124}'
	run 11 -e '{r2124,r2124,r2124,r2124}'
	;;
metrics)
	# every metric group the guest's perf knows for the model, each
	# opened by perf stat -M (its events, groups and the metrics'
	# values, numbers compared as "#"), on spin_long; runs 12 to 127
	n=12
	for g in $(perf list --raw-dump metricgroups 2> /dev/null); do
		[ $n -lt 128 ] || break
		run $n -M "$g" -- bash -c spin_long
		n=$((n + 1))
	done
	;;
events)
	# every event the guest's perf lists by name (not tracepoints, not
	# PMU/event/ forms), four a run so that they never need to share a
	# counter: the control values and counters each kernel programs, on
	# spin_long; runs 128 to 255
	n=128 batch=
	for e in $(perf list --raw-dump 2> /dev/null | tr ' ' '\n' |
		   grep -v '[:/]' | grep .) ''; do
		[ -n "$e" ] && batch=$batch${batch:+,}$e
		if [ -n "$batch" ] && { [ -z "$e" ] ||
		   [ "$(echo "$batch" | tr -cd , | wc -c)" -eq 3 ]; }; then
			[ $n -lt 256 ] || break
			run $n -e "$batch" -- bash -c spin_long
			n=$((n + 1)) batch=
		fi
	done
	;;
energy)
	# the free-running, energy and residency PMUs (issue 45): their sysfs
	# trees, then each event of theirs counted system-wide over the
	# spinning workload, alone and all together: the count's rate per
	# second of its enabled time, to two significant digits (the
	# workload's own length is each kernel's), its unit, the event
	pmus="power msr cstate_core cstate_pkg cstate_module"
	all=
	for p in $pmus; do
		dump_pmu "$p"
	done
	# perf stat -x, lines: the event, and whether it counted: only the
	# counts of time, tsc and energy-ram (the emulation's 2 W), as a
	# rate per second of the enabled time to one significant digit,
	# and the thermal margin, a reading (the emulation's 40 degrees
	# plus the CPU's number), as it is; the others depend on the
	# workload's own timing, each kernel's
	rate_filter() {
		awk -F, '$4 > 0 && $1 ~ /^[0-9.]+$/ {
				if ($3 == "msr/cpu_thermal_margin/") {
					printf "%s %s %s\n", $3, $1, $2
					next
				}
				if ($3 ~ /^(msr\/tsc|power\/energy-ram)\/$/)
					printf "%s %.1g %s/s\n", $3,
					       $1 / ($4 / 1e9), $2
				else
					printf "%s %s\n", $3,
					       ($1 > 0 ? "counts" : "zero")
				next }
			{ print }'
	}
	rates() {
		perf stat -a -x, -e "$1" -- bash -c spin 2>&1 >/dev/null |
			grep -v '^$' | head -40 | rate_filter
	}
	for p in $pmus; do
		d=/sys/bus/event_source/devices/$p/events
		[ -d "$d" ] || continue
		for e in $(ls "$d" | grep -v '\.'); do
			all=$all${all:+,}$p/$e/
			echo "=== count $p/$e/"
			rates "$p/$e/"
		done
	done
	echo "=== count all"
	[ -n "$all" ] && rates "$all"
	# the thermal margin of each CPU, a snapshot: the last reading
	echo "=== thermal margin per CPU"
	if [ -e /sys/bus/event_source/devices/msr/events/cpu_thermal_margin ]; then
		perf stat -a -A -x, -e msr/cpu_thermal_margin/ -- bash -c spin \
			2>&1 >/dev/null | grep -v '^$' | cut -d, -f1-4
	fi
	# perf stat --smi-cost: msr/aperf/, msr/smi/ and cycles with
	# freeze_on_smi set; its lines with every number as #
	echo "=== smi-cost"
	perf stat --smi-cost -a -- bash -c spin 2>&1 >/dev/null |
		grep -v '^$' | grep -v 'seconds time elapsed' |
		sed -E 's/[0-9][0-9,.]*/#/g' | head -10
	# turbostat (Debian's linux-cpupower): the columns it finds, one
	# run over the workload, every number as #
	echo "=== turbostat"
	if command -v turbostat > /dev/null; then
		turbostat --quiet -- bash -c spin 2>&1 |
			grep -v '^$' | sed -E 's/[0-9][0-9.]*/#/g' | head -10
	else
		echo "no turbostat"
	fi
	;;
esac
echo "=== end $part"
