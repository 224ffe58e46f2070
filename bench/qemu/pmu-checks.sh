#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The emulated x86 PMU (bench/qemu/pmu-demo.sh), in the guest, with the
# host's tools (it replaces perf_smoke's checks): what the kernel found,
# perf stat of a known loop, perf record's samples (PMIs), RDPMC from user
# space.  "bench.icount=1" on the kernel command line: instructions exact.
n=0 pass=0 fail=0
check() {
	n=$((n + 1))
	if [ "$2" = 1 ]; then
		pass=$((pass + 1)); echo "ok $n $1"
	else
		fail=$((fail + 1)); echo "not ok $n $1 # $3"
	fi
}
is() { awk "BEGIN { print ($1) ? 1 : 0 }"; }
export PERF_PAGER=cat
cd /tmp || exit 1
probe=$PMU_PROBE
icount=0
grep -q 'bench.icount=1' /proc/cmdline && icount=1
echo 1..9

echo "# --- the kernel's PMU (dmesg)"
dmesg | grep -A12 -e '^Performance Events' -e '^perf: x86' | sed 's/^/# /'
# stock's words, or the series' one line; Intel's version 2 or PerfMonV2
dmesg | grep -qE 'Performance Events: .*(Intel|AMD) PMU driver|perf: x86 (Intel|AMD) core PMU' &&
	dmesg | grep -qE 'version:? +2\b'
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
check stat_cycles_rate "$(is "${cyc:-0} >= 1.0 * ${tc:-0} * 1e6 && ${cyc:-0} <= 4.0 * ${tc:-0} * 1e6")" \
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
perf script -i rec.data -F comm,ip,sym 2>/dev/null | awk '{ print $1, $3 }' > rec.txt
sort rec.txt | uniq -c | sort -rn | head -6 | sed 's/^/# /'
ns=$(wc -l < rec.txt)
inspin=$(grep -c spin rec.txt)
echo "# samples: $ns, in spin(): $inspin"
check record_cycles_samples "$(is "${ns:-0} >= 10 && ${inspin:-0} * 2 >= ${ns:-0}")" \
	"$ns samples, $inspin in spin"

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

echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
