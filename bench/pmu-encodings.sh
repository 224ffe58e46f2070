#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make encodings: the counter control values each kernel's x86 driver
# programs for every generic and cache event, read from the emulated
# PMU's trace of MSR writes (BENCH_PMU_TRACE, bench/qemu), on the Intel v3
# personality and on AMD personalities of the families and models below
# (one per table of event encodings that the drivers choose between), and
# on the Intel model personalities (skx, icx, spr, spr-kvm, and the
# hybrid adl on four CPUs, each core type's PMU in a pass of its own),
# where the extra registers' values (OFFCORE_RSP_0/1, PEBS_LD_LAT,
# PEBS_FRONTEND) written for an event are part of its line.  ENCODINGS="icx spr" runs
# only the personalities whose name (as in the log names) is listed;
# REPORT_ONLY=1 compares the last run's logs again; STOCK_IMAGE,
# SERIES_IMAGE and INITRD take kernels and an initramfs built before.
# Stock's driver is the oracle: every event whose encoding or open errno
# differs between the kernels is printed, and the script fails if any
# does.  On the Intel personalities a second boot of each kernel, without
# the trace, runs bench/pmu-constraints.c: for every event select and
# single-bit unit mask, and every pair the perfmon lists of the series'
# counter rules name, how many copies of the event a group takes and on
# which counters (the drivers' counter rules); every line that differs is
# printed too.  It also runs on a model of each other event list whose
# rules the series takes (constraint_models below).  RECORD_COUNTERS=1
# writes what stock allowed into bench/qemu/x86-counters-stock/, from
# which bench/qemu/x86-event-counters.py --kernel generates the series'
# rules.  Not part of make check (some 6 minutes); its findings are kept
# as KUnit cases (arch/x86/events/tests/core_kunit.c).
. "$(dirname "$0")/lib.sh"

# X86_PMU and the -cpu properties of each personality
personalities=(
	"intel3 "
	"amd ,family=0x10,model=0x02"
	"amd ,family=0x15,model=0x02"
	"amd ,family=0x17,model=0x01"
	"amd ,family=0x17,model=0x31"
	"amd ,family=0x17,model=0x80"
	"amd ,family=0x19,model=0x01"
	"amd ,family=0x19,model=0x11"
	"amd ,family=0x1a,model=0x30"
	"skx "
	"icx "
	"spr "
	"spr-kvm "
	"spr ,model=0xad"
	"adl "
	"mtl "
)
# the constraint pass only: a model of each other event list
constraint_models=(
	"skx ,model=0x5e"
	"icx ,model=0x7e"
	"icx ,model=0x8c"
	"icx ,model=0xa7"
	"spr ,model=0xcf"
	"spr-kvm ,model=0xad"
)
# the microarchitecture of each personality's model (RECORD_COUNTERS=1):
# its models must all give the same record
arch_of() {
	case $1 in
	skx | skxm5e) echo skylake ;;
	icx | icxm7e | icxm8c | icxma7) echo icelake ;;
	spr | sprmcf | sprmad) echo sapphirerapids ;;
	adl) echo alderlake ;;
	mtl) echo meteorlake ;;
	esac
}

out=$BUILD/encodings
if [ "${REPORT_ONLY:-0}" != 1 ]; then
if [ -z "${STOCK_IMAGE:-}" ] || [ -z "${SERIES_IMAGE:-}" ] || [ -z "${INITRD:-}" ]; then
	build_both x86_64
fi
"$TOP/bench/qemu.sh" > /dev/null
rm -rf "$out" && mkdir -p "$out/root/tests"
gcc -O2 -static -o "$out/root/tests/pmu-encodings" "$TOP/bench/pmu-encodings.c"
gcc -O2 -static -o "$out/root/tests/pmu-constraints" "$TOP/bench/pmu-constraints.c"
python3 "$TOP/bench/qemu/x86-event-counters.py" --pairs \
	"$BASE/tools/perf/pmu-events/arch/x86" > "$out/root/tests/pmu-constraints.list"
# the probe, appended to the guest's initramfs as a second archive
cp "$INITRD" "$out/initrd.gz"
truncate -s %512 "$out/initrd.gz"
(cd "$out/root" && find . | cpio -o -H newc --reproducible -R 0:0 2>/dev/null) |
	gzip -n >> "$out/initrd.gz"

jobs=
for p in "${personalities[@]}" "${constraint_models[@]}"; do
	pmu=${p%% *} extra=${p#* }
	name=$pmu$(echo "$extra" | tr -d ',=' | sed 's/family/-f/; s/model/m/; s/0x//g')
	case " ${ENCODINGS:-$name} " in *" $name "*) ;; *) continue ;; esac
	for kernel in stock series; do
		image=$SERIES_IMAGE
		[ "$kernel" = stock ] && image=$STOCK_IMAGE
		case " ${constraint_models[*]} " in
		*" $p "*) ;;
		*)
			jobs+="x86_64 $image $out/initrd.gz $out/$kernel-$name.log X86_PMU=$pmu"
			jobs+=" X86_CPU_EXTRA=$extra TESTS=pmu-encodings BENCH_PMU_TRACE=1"
			# the hybrid part: two CPUs of each core type
			case $pmu in adl | mtl) jobs+=" SMP=4" ;; esac
			jobs+=$'\n'
			;;
		esac
		[ "$pmu" = amd ] && continue
		jobs+="x86_64 $image $out/initrd.gz $out/$kernel-$name.constraints.log"
		jobs+=" X86_PMU=$pmu X86_CPU_EXTRA=$extra TESTS=pmu-constraints"
		case $pmu in adl | mtl) jobs+=" SMP=4" ;; esac
		jobs+=$'\n'
	done
done
boot_all <<< "$jobs"
fi

# one line per event: its open result and the control values written for
# it (enable bit set), less the bits the exclusion and interrupt settings
# own, sorted, and the fixed counters' fields it enabled; the marker's
# write ends each event's part of the trace
encodings() {
	python3 - "$1" <<'PY'
import re, sys
on, seen, fixed, lines, done = False, {}, {}, [], False
counters = {}
cur, curfixed, last = [], 0, -1
for l in open(sys.argv[1], errors='replace'):
    if '@@BENCH-BEGIN pmu-encodings' in l:
        on = True
        continue
    if not on:
        continue
    m = re.match(r'pmu: cpu\d+ wrmsr (0x[0-9a-f]+) (0x[0-9a-f]+|0)', l)
    if m:
        msr, v = int(m.group(1), 16), int(m.group(2), 16)
        ctl = (0xc0010200 <= msr < 0xc0010210 and msr % 2 == 0) or \
              0xc0010000 <= msr < 0xc0010004 or 0x186 <= msr < 0x18e
        if ctl and v & 1 << 22:
            if v & 0xffff == 0x4242:
                # the marker after event i carries i's low byte in its
                # counter mask: a marker the trace lost merges two
                # events' writes but does not shift the rest, and one
                # written twice (put on its counter again) is one
                if last >= 0 and (v >> 24) & 0xff == last & 0xff:
                    continue
                last += 1
                while last & 0xff != (v >> 24) & 0xff:
                    last += 1
                seen[last], fixed[last] = cur, curfixed
                cur, curfixed = [], 0
                continue
            w = '%#x' % (v & ~(0x30000000000 | 0x530000))
        elif msr == 0x38d and v:
            # one field per fixed counter: what the segment programmed
            curfixed |= v
            continue
        elif msr in (0x1a6, 0x1a7, 0x3f6, 0x3f7) and v:
            w = '%#x=%#x' % (msr, v)
        else:
            continue
        if w not in cur:
            cur.append(w)
        continue
    m = re.match(r'(hw|cache|raw) (\S+) -> (-?\d+)', l)
    if m:
        lines.append(' '.join(m.groups()))
    m = re.match(r'group (\S+) -> (\S+)(?: idx (\S+))?', l)
    if m:
        if m.group(3):
            counters[len(lines)] = 'idx:' + m.group(3)
        lines.append('group %s %s' % m.groups()[:2])
    done = done or l.startswith('pmu-encodings done')
if not done:
    print('(the probe did not finish)')
for i, e in enumerate(lines):
    opened = e.endswith(' 0') or (e.startswith('group') and
                                  not e.split()[-1].startswith('-'))
    # the controls a group programmed, in no order (the drivers start its
    # members in different orders); the fixed counters' fields together
    vals = sorted(seen.get(i, []))
    if fixed.get(i):
        vals.append('fixed:%#x' % fixed[i])
    print(e, *(vals if opened else []), *([counters[i]] if i in counters else []))
PY
}

bad=0
for f in "$out"/stock-*.log; do
	[ -f "$f" ] || continue
	case $f in *.constraints.log) continue ;; esac
	name=$(basename "$f" .log) name=${name#stock-}
	encodings "$f" > "$out/stock-$name.txt"
	encodings "$out/series-$name.log" > "$out/series-$name.txt"
	# a comparison of nothing is no evidence: both probes must finish,
	# and every event either kernel opened must have its control value
	# in the trace
	for k in stock series; do
		if grep -q 'did not finish' "$out/$k-$name.txt"; then
			echo "$name: the probe did not finish on $k"
			bad=1
		fi
		n=$(awk '$3 == 0 && NF < 4' "$out/$k-$name.txt" | wc -l)
		if [ "$n" != 0 ]; then
			echo "$name: $n events opened on $k without a traced control value"
			bad=1
		fi
	done
	if diff -U0 "$out/stock-$name.txt" "$out/series-$name.txt" > "$out/$name.diff"; then
		echo "$name: $(grep -c . "$out/stock-$name.txt") events, the same"
	else
		echo "$name: differs (stock -, series +):"
		grep '^[-+][a-z]' "$out/$name.diff" || true
		bad=1
	fi
done
rm -f "$out"/*.recorded
for f in "$out"/stock-*.constraints.log; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .constraints.log) name=${name#stock-}
	for k in stock series; do
		tr -d '\r' < "$out/$k-$name.constraints.log" |
			grep -E '^c |^pass |^pmu-constraints done' > "$out/$k-$name.constraints.txt" || true
		if ! grep -q '^pmu-constraints done' "$out/$k-$name.constraints.txt"; then
			echo "$name: the constraint probe did not finish on $k"
			bad=1
		fi
	done
	if diff -U0 "$out/stock-$name.constraints.txt" "$out/series-$name.constraints.txt" \
		> "$out/$name.constraints.diff"; then
		echo "$name: $(grep -c '^c ' "$out/stock-$name.constraints.txt") constraint probes, the same"
	else
		echo "$name: constraints differ (stock -, series +; config, members, errno, counters):"
		grep '^[-+]c ' "$out/$name.constraints.diff" || true
		bad=1
	fi
	uarch=$(arch_of "$name")
	if [ "${RECORD_COUNTERS:-0}" != 1 ] || [ -z "$uarch" ]; then
		continue
	fi
	# a hybrid part's passes (one a core type) each its own record,
	# bench/qemu/x86-counters-stock/UARCH_core and UARCH_atom
	passes=$(sed -n 's/^pass cpu_//p' "$out/stock-$name.constraints.txt")
	for pass in ${passes:--}; do
	file=$uarch
	[ "$pass" != - ] && file=${uarch}_$pass
	# the pairs stock restricted: config and the general-purpose counters
	# it used (every counter the group could have: the widest list seen)
	python3 - "$out/stock-$name.constraints.txt" "$file" "$pass" > \
		"$out/$name-$pass.record" <<'PY'
import sys
rows = []
inpass = sys.argv[3] == '-'
for line in open(sys.argv[1]):
    p = line.split()
    if p[0] == 'pass':
        inpass = p[1] == 'cpu_' + sys.argv[3]
    if p[0] != 'c' or not inpass:
        continue
    mask = 0
    for i in (p[4].split(',') if len(p) > 4 else []):
        i = int(i, 16)
        if 0 < i < 0x40000000:
            mask |= 1 << (i - 1)
    rows.append((int(p[1], 16), mask))
every = 0
for _, m in rows:
    every |= m
print('# %s: the general-purpose counters stock\'s driver let each config use'
      % sys.argv[2])
print('# on the emulated models, where not every one (make encodings RECORD_COUNTERS=1)')
for config, mask in sorted(rows, key=lambda r: (r[0] & 0xff, r[0] >> 8)):
    # a config refused at open is no counter rule
    if mask and mask != every:
        print('%#06x %#04x' % (config, mask))
PY
	record=$TOP/bench/qemu/x86-counters-stock/$file
	if [ -e "$out/$file.recorded" ]; then
		if ! cmp -s "$out/$name-$pass.record" "$record"; then
			echo "$name: not what the other $file models gave: not recorded"
			bad=1
		fi
		continue
	fi
	mkdir -p "$(dirname "$record")"
	cp "$out/$name-$pass.record" "$record"
	touch "$out/$file.recorded"
	echo "$name: recorded as bench/qemu/x86-counters-stock/$file"
	done
done
exit $bad
