#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf_pmu: the x86 hardware PMU under the host's tools, in the guest (bench/
# perf-smoke/enter.sh; make check boots the x86_64 guests on the emulated
# PMUs of bench/qemu): what the kernel found, perf stat of a known loop and
# of a group, perf record's samples (PMIs) with and without callchains,
# RDPMC from user space, multiplexing, a bpftrace hardware probe.
# "bench.icount=1" on the kernel command line: instructions exact.
# check, skip_check, is: bench/tap.sh, put in front of this file
export PERF_PAGER=cat
cd /tmp || exit 1
probe=${PMU_PROBE:-/tmp/pmu_probe}
icount=0
grep -q 'bench.icount=1' /proc/cmdline && icount=1
if [ ! -e /sys/bus/event_source/devices/cpu/events/cpu-cycles ]; then
	echo "1..1"
	echo "ok 1 perf_pmu # SKIP no x86 hardware PMU"
	echo "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:1 error:0"
	exit 0
fi
echo 1..14

echo "# --- the kernel's PMU (dmesg)"
dmesg | grep -A12 'Performance Events:' | sed 's/^/# /'
# the driver and its counters, in the words logs know; Intel's version 2
# or later, or PerfMonV2
dmesg | grep -qE 'Performance Events: .*(Intel|AMD) PMU driver' &&
  dmesg | grep -qE '\.\.\. version: +[2-9]$' &&
  dmesg | grep -qE '\.\.\. generic registers: +[1-9]'
check boot_log_pmu_v2 "$([ $? = 0 ] && echo 1)" "no v2 PMU in dmesg"
ls /sys/bus/event_source/devices/ | sed 's/^/# pmus: /' | tr '\n' ' '; echo

echo "# --- perf stat, user and kernel, loop of 10000000 (2e7 user instructions)"
perf stat -x, -e cycles,instructions,ref-cycles,task-clock -o stat.txt -- "$probe" loop 10000000
sed 's/^/# /' stat.txt
val() { awk -F, -v e="$1" '$3 == e || $3 ~ "^"e"[:/]" { print $1 }' "${2:-stat.txt}"; }
cyc=$(val cycles) ins=$(val instructions) ref=$(val ref-cycles) tc=$(val task-clock)
# AMD has no reference cycles
amd=0
grep -q AuthenticAMD /proc/cpuinfo && amd=1 && ref=${ref/<not supported>/1}
check stat_counts "$(is "${cyc:-0} > 0 && ${ins:-0} >= 20000000 && ${ref:-0} > 0")" \
	"cycles=$cyc instructions=$ins ref-cycles=$ref"
echo "# cycles per task-clock ns: $(awk "BEGIN { printf \"%.3f\", ${cyc:-0} / (${tc:-1} * 1e6) }")"
# the emulation's cycles follow the virtual clock: under icount one a
# nanosecond, less what the vCPU spends halted
check stat_cycles_rate "$(is "${cyc:-0} >= 0.9 * ${tc:-0} * 1e6 && ${cyc:-0} <= 4.0 * ${tc:-0} * 1e6")" \
	"cycles $cyc over task-clock $tc ms"

echo "# --- perf stat, user only"
perf stat -x, -e cycles:u,instructions:u,ref-cycles:u -o statu.txt -- "$probe" loop 10000000
sed 's/^/# /' statu.txt
insu=$(val instructions:u statu.txt)
echo "# --- perf stat, user only, loop of 00001000 (as many digits to parse): the program's own instructions"
perf stat -x, -e instructions:u -o statm.txt -- "$probe" loop 00001000
sed 's/^/# /' statm.txt
insm=$(val instructions:u statm.txt)
echo "# loop 10000000 less loop 00001000: $((${insu:-0} - ${insm:-0})) (19998000 instructions)"
check stat_user_small_loop "$(is "${insm:-0} >= 2000")" "instructions:u $insm"
if [ $icount = 1 ]; then
	check stat_user_instructions_exact "$(is "${insu:-0} - ${insm:-0} >= 19997995 && ${insu:-0} - ${insm:-0} <= 19998005")" \
		"instructions:u $insu - $insm"
else
	check stat_user_instructions_estimate "$(is "${insu:-0} > 0")" "instructions:u $insu"
fi

echo "# --- perf record -e cycles -c 100000"
perf record -q -e cycles -c 100000 -o rec.data -- "$probe" loop 20000000 2>&1 | sed 's/^/# /'
# one perf script (the host's files over 9p are slow, and under -icount
# the guest's clock runs on while it waits for them)
# (u or k by the address: in real time, a loaded host makes the guest's
# timer interrupts catch up, and their share of the cycles grows)
perf script -i rec.data -F comm,ip,sym 2>/dev/null |
	awk '{ print $1, $3, ($2 ~ /^ffff/ ? "k" : "u") }' > rec.txt
cut -d' ' -f1,2 rec.txt | sort | uniq -c | sort -rn | head -6 | sed 's/^/# /'
ns=$(wc -l < rec.txt)
nu=$(grep -c ' u$' rec.txt)
inspin=$(grep -c ' spin u$' rec.txt)
echo "# samples: $ns, in user space: $nu, in spin(): $inspin"
check record_cycles_samples "$(is "${ns:-0} >= 10 && ${nu:-0} >= 10 && ${inspin:-0} * 2 >= ${nu:-0}")" \
	"$ns samples, $nu in user space, $inspin in spin"

echo "# --- perf record -g -e cycles -c 100000: user callchains through spin()"
perf record -q -g -e cycles -c 100000 -o recg.data -- "$probe" loop 20000000 2>&1 | sed 's/^/# /'
perf script -i recg.data -F ip,sym 2>/dev/null > recg.txt
# a sample's callchain: its first line in spin(), main() below it
ncg=$(awk '/spin/ { s = 1; next } s && /main/ { n++ } { s = 0 } END { print n + 0 }' recg.txt)
echo "# callchains from spin() to main(): $ncg"
check record_callchain "$(is "${ncg:-0} >= 5")" "$ncg callchains spin <- main"

echo "# --- perf record -e instructions:u -c 1000000 (2e7 instructions: 20 samples)"
perf record -q -e instructions:u -c 1000000 -o reci.data -- "$probe" loop 10000000 2>&1 | sed 's/^/# /'
perf script -i reci.data -F ip,sym,period 2>/dev/null > reci.txt
ni=$(wc -l < reci.txt)
echo "# samples: $ni"
head -3 reci.txt | sed 's/^/# /'
if [ $icount = 1 ]; then
	check record_instructions_samples "$(is "${ni:-0} >= 19 && ${ni:-0} <= 21")" "$ni samples"
else
	check record_instructions_samples "$(is "${ni:-0} >= 1")" "$ni samples"
fi

echo "# --- rdpmc from user space (the event's user page)"
"$probe" rdpmc $([ $icount = 1 ] && echo exact) | sed 's/^/# /'
check rdpmc_user "$([ "${PIPESTATUS[0]}" = 0 ] && echo 1)" "see above"

echo "# --- more events than counters (multiplexing)"
perf stat -x, -e cycles,instructions,ref-cycles,cycles:u,instructions:u,cycles:k,instructions:k,r003c,r00c0 \
	-o statx.txt -- "$probe" loop 10000000
sed 's/^/# /' statx.txt
check stat_many_events "$(is "$(val r00c0 statx.txt | sed 's/<not counted>/0/') > 0")" "r00c0 not counted"

echo "# --- perf stat of a group, and of cycles,instructions,branches"
perf stat -x, -e '{cycles,instructions}' -o statg.txt -- "$probe" loop 10000000
sed 's/^/# /' statg.txt
# the fields: count, unit, event, run time, percentage running
gfull=$(awk -F, '$3 ~ /^(cycles|instructions)/ && $1 > 0 && $5 == "100.00" { n++ } END { print n + 0 }' statg.txt)
check stat_group "$(is "${gfull:-0} == 2")" "not both counted all the time"
perf stat -x, -e cycles,instructions,branches -o statb.txt -- "$probe" loop 10000000
sed 's/^/# /' statb.txt
insb=$(val instructions statb.txt)
br=$(val branches statb.txt)
# 2e7 user instructions and what the kernel runs for the program (exec,
# faults, exit): under icount within 1% over.  Branches: Intel's leaf 0xA
# marks them unavailable on versions 2 and 3 (generic_arch_* pmu_name), so
# not supported; the model personalities (skx, icx, spr) count every such
# event as retired instructions, so at least the loop's; the AMD emulation
# does not count them (it cannot say so)
if [ $icount = 1 ]; then
	check stat_instructions_1pc "$(is "${insb:-0} >= 20000000 && ${insb:-0} <= 20200000")" \
		"instructions $insb for a loop of 20000000"
else
	check stat_instructions_1pc "$(is "${insb:-0} >= 20000000")" "instructions $insb"
fi
if [ $amd = 1 ]; then
	skip_check stat_branches "the AMD emulation counts no branches"
elif grep -q generic_arch /sys/bus/event_source/devices/cpu/caps/pmu_name; then
	check stat_branches "$([ "$br" = "<not supported>" ] && echo 1)" "branches $br"
else
	check stat_branches "$(is "${br:-0} >= 20000000")" "branches $br"
fi

echo "# --- bpftrace hardware:cycles probe"
if command -v bpftrace > /dev/null; then
	# once first: it reads bpftrace and its libraries over 9p.  Under
	# icount (sleep=off) guest time leaps ahead while the guest idles
	# waiting on the host, so that first run takes 100 s of guest time on
	# an idle host and more on a loaded one: limits in guest time are
	# generous, a hang is bounded by boot.sh's limit in host time
	t0=$(date +%s)
	timeout 1800 bpftrace -e 'BEGIN { exit(); }' > /dev/null 2>&1
	t1=$(date +%s)
	timeout 900 bpftrace -e 'hardware:cycles:1000000 /comm == "pmu_probe"/ { @n = count(); }' \
		-c "$probe loop 20000000" > bth.txt 2>&1
	rc=$?
	t2=$(date +%s)
	echo "# bpftrace BEGIN $((t1 - t0)) s, hardware $((t2 - t1)) s, rc $rc"
	nh=$(awk '/^@n:/ { print $2 }' bth.txt)
	check bpftrace_hardware "$(is "${nh:-0} >= 5")" \
		"hardware:cycles ${nh:-none} (rc $rc): $(grep -v '^@' bth.txt | head -c 300)"
else
	skip_check bpftrace_hardware "the host has no bpftrace"
fi

echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
