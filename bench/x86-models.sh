#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The oracle on the emulated Intel models (bench/qemu, tcg-pmu-model):
# boots the stock and the series kernel on each personality of X86_MODELS
# (skx icx spr spr-kvm; zen4, AMD's, where asked) under -icount with the MSR
# trace on, one guest at
# a time, and records what each driver shows: its boot-log PMU block, the
# cpu PMU's sysfs tree (bench/qemu/x86-models-checks.sh), and perf stat
# runs of the host's perf tool with the MSR writes each one caused.
# Writes $BUILD/x86-models/KERNEL-MODEL.txt, prints the differences of
# series against stock per model and exits non-zero when there are any in
# what a user sees (boot log, sysfs, perf's output) or when the series
# faults on an MSR where stock does not; the MSR traces' other
# differences (which counter, in which order) are counted apart, in
# MODEL.trace.diff.
# Not part of make check (some 2 minutes a guest).  STOCK_IMAGE,
# SERIES_IMAGE and INITRD take other kernels and initramfs than the
# workbench's (built when unset); REPORT_ONLY=1 compares the logs of the
# last run again without booting.
. "$(dirname "$0")/lib.sh"

models=${X86_MODELS:-skx icx spr spr-kvm}
out=$BUILD/x86-models
if [ "${REPORT_ONLY:-0}" != 1 ]; then
if [ -z "${STOCK_IMAGE:-}" ] || [ -z "${SERIES_IMAGE:-}" ] || [ -z "${INITRD:-}" ]; then
	build_both x86_64
fi
"$TOP/bench/qemu.sh" > /dev/null
rm -rf "$out" && mkdir -p "$out/root/tests"
# the checks, appended to the guest's initramfs as a second archive
# one test program a part of the checks, each within the guest's limit;
# (energy: the msr, power and cstate PMUs' sysfs trees and rates);
# X86_MODELS_PARTS="... metrics events" adds perf stat -M of every metric
# group and perf stat of every named event (some minutes a guest each:
# X86_MODELS_TIMEOUT=900 gives each part 15 minutes of guest time)
parts=${X86_MODELS_PARTS:-sysfs stat groups energy}
gcc -O2 -static -o "$out/root/tests/x86_models_rdpmc" "$TOP/bench/qemu/x86-models-rdpmc.c"
gcc -O2 -g -static -fno-pie -no-pie -o "$out/root/tests/lbr_workload" "$TOP/bench/qemu/lbr-workload.c"
gcc -O2 -g -static -fno-pie -no-pie -o "$out/root/tests/pebs_probe" "$TOP/bench/qemu/pebs-probe.c"
gcc -O2 -g -static -fno-pie -no-pie -o "$out/root/tests/lbr_probe" "$TOP/bench/qemu/lbr-probe.c"
# shellcheck disable=SC2086 # one part a word
tests=$(models_initrd "$out" $parts)

for m in $models; do
	for kernel in stock series; do
		image=$SERIES_IMAGE
		[ "$kernel" = stock ] && image=$STOCK_IMAGE
		log "booting $kernel on $m"
		X86_PMU=$m ICOUNT=1 BENCH_PMU_TRACE=1 TESTS="${tests}x86_models_rdpmc" \
			APPEND="BENCH_TIMEOUT=${X86_MODELS_TIMEOUT:-300}" \
			"$TOP/bench/boot.sh" x86_64 "$image" "$out/initrd.gz" check \
			"$out/$kernel-$m.log" > /dev/null
	done
done
fi

# KERNEL-MODEL.txt: the boot log's PMU lines, the boot CPU's PMU MSR
# accesses while booting, the sections the checks printed, then each perf run's MSR writes: from its marker's write to the
# next marker's, every distinct (MSR, value) once, in the order of their
# first write, the marker's own disable aside, and a counter's value as *
# unless zero
report() {
	python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], errors='replace').read()
# a trace line QEMU printed in the middle of a console line: out of it
text = re.sub(r'(?<=[^\n])pmu: cpu\d+ (?:wr|rd)msr 0x[0-9a-f]+(?: \S+)?(?: #GP)?\n',
              '', text)
lines = text.split('\n')
out = ['=== boot']
block = 0   # the first "Performance Events:" block: 1 in it, 2 after
for l in lines:
    if l.startswith('@@BENCH-BEGIN'):
        break
    if l.startswith('pmu: '):
        continue
    if block == 1 and l.startswith('... '):
        out.append(l)
        continue
    block = 2 if block else block
    if l.startswith('Performance Events:') and not block:
        block = 1
        out.append(l)
    elif re.search(r'^(\S.*\bPMU\b|perf:|Performance Events)', l) and l not in out:
        out.append(l)
wr = re.compile(r'pmu: cpu\d+ (wrmsr|rdmsr) (0x[0-9a-f]+) ?(0x[0-9a-f]+|0)?( #GP)?$')
# what the driver did to the PMU's MSRs while booting, on the boot CPU:
# its probes, its idle state
out.append('=== boot MSRs (cpu0)')
for l in lines:
    if l.startswith('@@BENCH-BEGIN'):
        break
    if l.startswith('pmu: cpu0 '):
        l = l[len('pmu: cpu0 '):]
        if l not in out:
            out.append(l)
on, run, seen, guest = False, 0, {}, []
for l in lines:
    if l.startswith('@@BENCH-BEGIN x86_models'):
        on = True
        guest.append('=== ' + l.split()[1])
    elif l.startswith('@@BENCH-END x86_models'):
        on = False
    elif l.startswith('pmu: '):
        m = wr.match(l)
        if not m:
            continue
        msr = int(m.group(2), 16)
        val = int(m.group(3) or '0', 16)
        # a marker: Intel's PERFEVTSELx, AMD's PERF_CTLx (or K7's)
        ctl = (0x186 <= msr < 0x18e or 0xc0010000 <= msr < 0xc0010004 or
               (0xc0010200 <= msr < 0xc001020c and not msr & 1))
        if ctl and val & 0xff00ff00 == 0x7f004200:
            if val & 1 << 22:
                run = val & 0xff
            continue
        if run:
            # a counter's (or the metrics') value is the count so far:
            # which register, and whether zero, is what the driver chose
            shown = m.group(3) or ''
            if (0xc1 <= msr < 0xc9 or 0x4c1 <= msr < 0x4c9 or
                    0x309 <= msr < 0x30d or msr == 0x329 or
                    0xc0010004 <= msr < 0xc0010008 or
                    (0xc0010200 <= msr < 0xc001020c and msr & 1)) and val:
                shown = '*'
            key = '%s %#x %s%s' % (m.group(1), msr, shown, m.group(4) or '')
            if key not in seen.setdefault(run, []):
                seen[run].append(key)
    elif on:
        # the kernel's own messages of late boot, which land among the
        # checks' lines wherever each kernel's timing puts them
        if re.match(r'(input|tsc|clocksource): ', l):
            continue
        guest.append(l)
out += guest
out.append('=== traces')
for r in sorted(seen):
    out.append('--- run %d' % r)
    out += seen[r]
print('\n'.join(out))
PY
}

# what is compared: the report with every number of perf stat's lines
# (counts, run times, metric values) as "#": icount makes the counts
# deterministic only within what the guest's timers and the host's I/O
# over 9p move
normalize() {
	python3 -c '
import re, sys
for l in open(sys.argv[1]):
    l = l.rstrip("\n")
    # a count line, or a metric line of its own (",,,,VALUE,UNIT")
    if re.match(r"([0-9.]+|<not [a-z ]+>|,,,,[0-9.]+),", l):
        l = ",".join("#" if re.fullmatch(r"[0-9]+(\.[0-9]+)?", f) else f
                     for f in l.split(","))
        # the SI prefix of a rate follows the number (K/sec, M/sec)
        l = re.sub(r",[kKMG]/sec$", ",/sec", l)
    print(l)' "$1"
}

# KERNEL-MODEL.cmp split in two: what a user sees (the boot log's lines,
# the sysfs tree, every perf run's output) and the MSR traces (the boot
# CPU's probes, each run's writes)
visible() { sed '/^=== boot MSRs/,/^=== x86_models/{/^=== x86_models/!d}; /^=== traces/,$d' "$1"; }
traces() { sed -n '/^=== boot MSRs/,/^=== x86_models/p; /^=== traces/,$p' "$1"; }

known_patterns() { grep -v '^#' "$TOP/bench/x86-models-known" | cut -f1; }

bad=0
for m in $models; do
	for kernel in stock series; do
		report "$out/$kernel-$m.log" > "$out/$kernel-$m.txt"
		normalize "$out/$kernel-$m.txt" > "$out/$kernel-$m.cmp"
	done
	diff -U0 <(traces "$out/stock-$m.cmp") <(traces "$out/series-$m.cmp") \
		> "$out/$m.trace.diff" || true
	ntrace=$(grep -c '^[-+][^-+]' "$out/$m.trace.diff" || true)
	# an access that faulted on the series only is a failure: the
	# driver touched an MSR the model lacks
	gp=$(comm -13 <(sed -n 's/^-\(.*#GP\)$/\1/p' "$out/$m.trace.diff" | sort -u) \
		<(sed -n 's/^+\(.*#GP\)$/\1/p' "$out/$m.trace.diff" | sort -u))
	diff -U0 <(visible "$out/stock-$m.cmp") <(visible "$out/series-$m.cmp") \
		> "$out/$m.diff" || true
	# the differing lines that bench/x86-models-known explains
	nknown=$(grep '^[-+][^-+]' "$out/$m.diff" | grep -cEf <(known_patterns) || true)
	nvisible=$(grep '^[-+][^-+]' "$out/$m.diff" | grep -cvEf <(known_patterns) || true)
	if [ "$nvisible" = 0 ] && [ -z "$gp" ]; then
		echo "$m: the same ($nknown known lines); MSR traces: $ntrace lines differ ($out/$m.trace.diff)"
	else
		echo "$m: differs (stock -, series +; $out/$m.diff)"
		{ grep -v '^@@' "$out/$m.diff" || true; } | sed -n "3,$((${DIFF_LINES:-60} + 2))p"
		[ -z "$gp" ] || echo "faulted on the series only: $gp"
		bad=1
	fi
done
exit $bad
