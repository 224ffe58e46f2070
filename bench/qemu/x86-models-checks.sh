#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# x86_models (guest side, in the host's root over 9p: bench/perf-smoke/
# enter.sh): what a kernel's x86 PMU driver shows on an emulated Intel
# model (bench/x86-models.sh boots it): the cpu PMU's sysfs tree, and a few
# perf stat runs of the host's perf tool, each preceded by a marker event
# whose control value bench/x86-models.sh finds in QEMU's MSR trace
# (BENCH_PMU_TRACE): event select = the run's number, unit mask 0x42,
# counter mask 0x7f, a value no driver programs for an event of its own.
export PERF_PAGER=cat
cd /tmp || exit 1

echo "=== sysfs"
d=/sys/devices/cpu
if [ -d "$d" ]; then
	# every plain file of the PMU's directory and of its subdirectories
	# (format, events, caps, power), with its contents
	(cd "$d" && find . -maxdepth 2 -type f | sed 's|^\./||' | LC_ALL=C sort) |
	while read -r f; do
		if [ -r "$d/$f" ]; then
			printf '%s: %s\n' "$f" "$(tr '\n' ' ' < "$d/$f" 2>&1 | sed 's/ $//')"
		else
			printf '%s: (not readable, mode %s)\n' "$f" "$(stat -c %a "$d/$f")"
		fi
	done
else
	echo "(no $d)"
fi
echo "=== pmus"
ls /sys/bus/event_source/devices/ | tr '\n' ' '
echo
echo "=== perf"
perf --version

n=0
run() {
	n=$((n + 1))
	perf stat -x, -e "r7f0042$(printf %02x $n)" -o /dev/null -- true 2> /dev/null
	echo "=== run $n: perf stat $*"
	perf stat -x, -o out.txt "$@" -- true > /dev/null 2> err.txt
	echo "rc=$?"
	grep -v '^#' out.txt | grep -v '^$'
	grep -v '^$' err.txt | head -5
}

run -e cycles,instructions,ref-cycles,topdown-retiring
run -e cycles,instructions,ref-cycles
run -e '{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound}'
run -e '{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound,topdown-heavy-ops,topdown-br-mispredict,topdown-fetch-lat,topdown-mem-bound}'
run --topdown
run
run -d -d -d
echo "=== end"
