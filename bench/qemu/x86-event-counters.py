#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Which general-purpose counters each event of an Intel model may use.

    x86-event-counters.py ARCH_X86_DIR > pmu-counters.h
    x86-event-counters.py --kernel ARCH_X86_DIR > intel_counters.c
    x86-event-counters.py --check ARCH_X86_DIR arch/x86/events/intel_counters.c
    x86-event-counters.py --pairs ARCH_X86_DIR > pmu-constraints.list

Reads Intel's perfmon event lists as Linux ships them (ARCH_X86_DIR is
tools/perf/pmu-events/arch/x86 of the base: mapfile.csv names the
directory of each family-model, the *.json files there are the events;
data, read as data) and writes a C header for the emulated PMU of
bench/qemu (target/i386/tcg/sysemu/pmu.c): for each model personality a
table of the (event select, unit mask) pairs whose "Counter" field does
not allow every general-purpose counter of the model, with the bit mask of
the ones it allows.  An event of the table programmed on another counter
counts nothing in the emulation; the fixed-counter-only encodings
("Counter": "Fixed counter N", event select 0) get an empty mask.

Several entries of one (event, umask) pair (variants that differ in
counter mask, invert or edge) allow the union of their counters.  Uncore
events (a "Unit" field) are not the core PMU's and are skipped.  The
output is sorted and depends on nothing but the input files.

--kernel writes the counter rules of the series' x86 driver
(arch/x86/events/intel_counters.c): for each event list of KERNEL_DIRS,
the family 6 models mapfile.csv sends to it and its rules.  Where
x86-counters-stock/ has a file for the list's microarchitecture, the rules
are what stock's driver was seen to allow on emulated CPUs of its models
(bench/pmu-encodings.sh, RECORD_COUNTERS=1): for every probed pair (each
event select with unit mask 0 or one bit, and every pair the lists of
KERNEL_DIRS name), the counters its file gives, every counter where it
gives none; for the other unit masks of an event, the counters its probed
unit masks that the list does not name agree on, or the list's; a rule
for each pair that differs from its event's, then the event's own rule,
last, where it is not every counter.  Without a file, the list alone: an
event code whose every listed unit mask has one restriction is restricted
whole, otherwise each listed unit mask that is restricted has its own
rule.  --check regenerates that file and fails if the one given differs.
--pairs prints the pairs KERNEL_DIRS' lists name (as raw configs, for
bench/pmu-constraints.c).
"""

import csv
import glob
import json
import os
import re
import sys

# personality: (the CPUID string perf's mapfile is matched against,
# general-purpose counters of the emulated model, C name, and for a
# hybrid model's core type the "Unit" of its events in the list)
MODELS = [
    ("skx", "GenuineIntel-6-55-4", 4, None),
    ("icx", "GenuineIntel-6-6A-6", 8, None),
    ("spr", "GenuineIntel-6-8F-8", 8, None),
    ("adl_core", "GenuineIntel-6-97-2", 8, "cpu_core"),
    ("adl_atom", "GenuineIntel-6-97-2", 6, "cpu_atom"),
    ("mtl_core", "GenuineIntel-6-AA-4", 8, "cpu_core"),
    ("mtl_atom", "GenuineIntel-6-AA-4", 8, "cpu_atom"),
]


def model_dir(root, cpuid):
    """The core event directory mapfile.csv gives for a CPUID string."""
    with open(os.path.join(root, "mapfile.csv"), newline="") as f:
        for row in csv.reader(f):
            if not row or row[0].startswith("#") or row[0] == "Family-model":
                continue
            if len(row) >= 4 and row[3] == "core" and re.match(row[0], cpuid):
                return row[2], row[1]
    sys.exit("x86-event-counters: no core entry of mapfile.csv matches " + cpuid)


def counters(field, nr_gp):
    """The general-purpose counters a "Counter" field allows, as a mask."""
    field = field.strip()
    if field.lower().startswith("fixed"):
        return 0
    mask = 0
    for c in field.split(","):
        n = int(c)
        if n < nr_gp:
            mask |= 1 << n
    return mask


def all_pairs(root, name, nr_gp, unit=None):
    """{(event, umask): [mask, names]} of NAME's core events, every one;
    of a hybrid list, those of the core type whose events have UNIT."""
    events = {}
    for path in sorted(glob.glob(os.path.join(root, name, "*.json"))):
        with open(path) as f:
            entries = json.load(f)
        for e in entries:
            if not isinstance(e, dict) or e.get("Unit") != unit or \
                    "EventName" not in e or "Counter" not in e:
                continue
            umask = int(e.get("UMask", "0"), 16)
            mask = counters(e["Counter"], nr_gp)
            for code in e.get("EventCode", "0").split(","):
                key = (int(code.strip(), 16), umask)
                slot = events.setdefault(key, [0, []])
                slot[0] |= mask
                slot[1].append(e["EventName"])
    return events


def table(root, name, nr_gp, unit):
    """The restricted pairs, sorted, with their masks and names; and how
    many pairs there are in all."""
    events = all_pairs(root, name, nr_gp, unit)
    every = (1 << nr_gp) - 1
    return sorted((k, v[0], sorted(v[1])) for k, v in events.items()
                  if v[0] != every), len(events)


# the event lists of the models whose counter rules the series' driver
# takes (the Skylake, Ice Lake and Sapphire Rapids microarchitectures);
# Skylake's "0,1,2,3" is its counters per thread with Hyper-Threading on,
# not a restriction
KERNEL_DIRS = ["skylake", "skylakex", "icelake", "icelakex", "tigerlake",
               "rocketlake", "sapphirerapids", "emeraldrapids",
               "graniterapids"]

# the hybrid lists whose rules it takes, one table a core type: the "Unit"
# of the type's events, the name of its stock record and table, its
# general-purpose counters (the list has no counter.json) and the driver's
# name of its CPUID 0x1A core type
HYBRID_DIRS = {
    "alderlake": [("cpu_core", "alderlake_core", 8, "X86_HYBRID_CORE"),
                  ("cpu_atom", "alderlake_atom", 6, "X86_HYBRID_ATOM")],
    "meteorlake": [("cpu_core", "meteorlake_core", 8, "X86_HYBRID_CORE"),
                   ("cpu_atom", "meteorlake_atom", 8, "X86_HYBRID_ATOM")],
}

# what stock's driver allowed, by microarchitecture (bench/pmu-encodings.sh
# records each from the emulated models of all its lists, which agree)
STOCK_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         "x86-counters-stock")
STOCK_OF = {"skylake": "skylake", "skylakex": "skylake",
            "icelake": "icelake", "icelakex": "icelake",
            "tigerlake": "icelake", "rocketlake": "icelake",
            "sapphirerapids": "sapphirerapids",
            "emeraldrapids": "sapphirerapids",
            "graniterapids": "sapphirerapids"}

# the unit masks bench/pmu-constraints.c probes with every event select
PROBE_UMASKS = [0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80]


def listed_pairs(root, hybrid=True):
    """Every (event, umask) the lists of KERNEL_DIRS (and, with HYBRID,
    of each core type of HYBRID_DIRS) name, event 0 aside."""
    pairs = set()
    for name in KERNEL_DIRS:
        pairs |= {k for k in all_pairs(root, name, 64) if k[0]}
    for name, types in (HYBRID_DIRS.items() if hybrid else []):
        for unit, _, _, _ in types:
            pairs |= {k for k in all_pairs(root, name, 64, unit) if k[0]}
    return pairs


def probed_pairs(root, hybrid=True):
    """The pairs bench/pmu-constraints.c probes: the lists of KERNEL_DIRS
    (which gave the non-hybrid records) and, with HYBRID, the hybrid ones'."""
    base = {(e, u) for e in range(1, 256) for u in PROBE_UMASKS}
    return base | listed_pairs(root, hybrid)


def stock_seen(name):
    """{(event, umask): counters} of the pairs stock's driver restricted,
    or None where no file was recorded for the list NAME."""
    path = os.path.join(STOCK_DIR, STOCK_OF.get(name, name))
    if not os.path.exists(path):
        return None
    seen = {}
    with open(path) as f:
        for line in f:
            line = line.split("#")[0].split()
            if line:
                config, mask = int(line[0], 16), int(line[1], 16)
                seen[(config & 0xff, config >> 8)] = mask
    return seen


def core_counters(root, name):
    """CountersNumGeneric of the core unit in NAME's counter.json."""
    with open(os.path.join(root, name, "counter.json")) as f:
        for unit in json.load(f):
            if unit.get("Unit") == "core":
                return int(unit["CountersNumGeneric"])
    sys.exit("x86-event-counters: no core unit in %s/counter.json" % name)


def family6_models(root):
    """{directory: (version, [model, ...])}, the first matching line winning."""
    rows = []
    with open(os.path.join(root, "mapfile.csv"), newline="") as f:
        for row in csv.reader(f):
            if not row or row[0].startswith("#") or row[0] == "Family-model":
                continue
            if len(row) >= 4 and row[3] == "core" and \
                    row[0].startswith("GenuineIntel-6-"):
                rows.append(row)
    owners = {}
    for model in range(256):
        names = []
        for stepping in range(16):
            cpuid = "GenuineIntel-6-%02X-%X" % (model, stepping)
            row = next((r for r in rows if re.match(r[0], cpuid)), None)
            names.append(row[2] if row else None)
            if row:
                owners.setdefault(row[2], (row[1], set()))
        # the driver knows models, not steppings: where the list depends
        # on the stepping (model 0x55: Skylake-SP, then Cascade Lake), the
        # first stepping's list gives the rules, if it is one of ours
        name = names[0]
        if len(set(names)) != 1 and name not in KERNEL_DIRS:
            if set(names) & set(KERNEL_DIRS):
                sys.exit("x86-event-counters: model %#x: the list depends"
                         " on the stepping" % model)
            continue
        if name:
            owners[name][1].add(model)
    return owners


def kernel_rules(root, name, probed, hybrid=None):
    """(event, umask or None for every unit mask, counters, event name);
    of a hybrid list, of the core type HYBRID (an entry of HYBRID_DIRS)."""
    unit, record, nr_gp = (hybrid[:3] if hybrid else
                           (None, name, core_counters(root, name)))
    every = (1 << nr_gp) - 1
    codes = {}
    for (event, umask), (mask, names) in sorted(all_pairs(root, name, nr_gp,
                                                          unit).items()):
        if event:  # event 0: the fixed counters' pseudo-encodings
            codes.setdefault(event, {})[umask] = (mask, sorted(names)[0])
    seen = stock_seen(record)
    out = []
    if seen is None:
        for event in sorted(codes):
            masks = {m for m, _ in codes[event].values()}
            if len(masks) == 1 and every not in masks:
                umask = min(codes[event])
                out.append((event, None, masks.pop(), codes[event][umask][1]))
                continue
            for umask, (mask, first) in sorted(codes[event].items()):
                if mask != every:
                    out.append((event, umask, mask, first))
        return out
    listed = {(e, u) for e in codes for u in codes[e]}
    for event in range(1, 256):
        eff = {u: (m, n) for u, (m, n) in codes.get(event, {}).items()}
        for e, u in probed:
            if e == event:
                eff[u] = (seen.get((e, u), every) & every,
                          eff.get(u, (0, None))[1])
        # the unit masks no list names: what their probes agree on
        others = {eff[u][0] for u in PROBE_UMASKS if (event, u) not in listed}
        default = others.pop() if len(others) == 1 else every
        label = next((n for _, n in sorted(eff.values(),
                                           key=lambda v: str(v[1])) if n),
                     None)
        for umask in sorted(eff):
            mask, first = eff[umask]
            if mask != default:
                out.append((event, umask, mask, first or "not listed"))
        if default != every:
            out.append((event, None, default,
                        label.split(".")[0] if label else "not listed"))
    return out


def kernel(root):
    """The series' arch/x86/events/intel_counters.c, as lines."""
    owners = family6_models(root)
    out = ["// SPDX-License-Identifier: GPL-2.0",
           "/*",
           " * Generated by bench/qemu/x86-event-counters.py --kernel from",
           " * tools/perf/pmu-events/arch/x86 (Intel's perfmon event lists,",
           " * read as data) and bench/qemu/x86-counters-stock (the counters",
           " * stock's driver let each event use on the emulated models): do",
           " * not edit; make check fails when it is not current.",
           " *",
           " * For each Intel model whose core events may not all use every",
           " * general-purpose counter, the rules that narrow them (struct",
           " * x86_counter_rule): an event's rules for one unit mask, then at",
           " * most one for its other unit masks.  Constant: no locking.",
           " */",
           "#include <linux/kernel.h>",
           "",
           "#include \"cpu_pmu.h\"",
           ""]
    index = []
    emitted = {}  # rules -> the table that has them
    tables = [(name, name, None, probed_pairs(root, False))
              for name in KERNEL_DIRS]
    tables += [(name, h[1], h, probed_pairs(root))
               for name, types in HYBRID_DIRS.items() for h in types]
    for name, table_name, hybrid, probed in tables:
        if name not in owners or not owners[name][1]:
            sys.exit("x86-event-counters: mapfile.csv sends no model to " + name)
        version, models = owners[name]
        rules = kernel_rules(root, name, probed, hybrid)
        if not rules:
            continue
        ctype = hybrid[3] if hybrid else None
        key = (ctype,) + tuple((e, u, m) for e, u, m, _ in rules)
        if key in emitted:
            # the same rules as an earlier list: its table serves
            out[emitted[key][1]] += ", %s %s" % (name, version)
            index += [(model, emitted[key][0], ctype)
                      for model in sorted(models)]
            continue
        emitted[key] = (table_name, len(out))
        out.append("/* rules: %d; lists: %s %s%s" %
                   (len(rules), name, version,
                    " (%s)" % hybrid[0] if hybrid else ""))
        out.append("static const struct x86_counter_rule %s_rules[] = {"
                   % table_name)
        for event, umask, mask, first in rules:
            if umask is None:
                out.append("\tX86_RULE_EVENT(0x%02x, 0x%02x),\t/* %s */"
                           % (event, mask, first.split(".")[0]))
            else:
                out.append("\tX86_RULE(0x%02x, 0x%02x, 0x%02x),\t/* %s */"
                           % (event, umask, mask, first))
        out.append("};")
        out.append("")
        for model in sorted(models):
            index.append((model, table_name, ctype))
    for i, line in enumerate(out):
        if line.startswith("/* rules: "):
            out[i] = line + " */"
    out.append("const struct x86_counter_rules x86_intel_counter_rules[] = {")
    for model, name, ctype in sorted(index, key=lambda i: i[:2]):
        out.append("\t{ 0x%02x, %s_rules, ARRAY_SIZE(%s_rules)%s },"
                   % (model, name, name, ", " + ctype if ctype else ""))
    out.append("\t{ }")
    out.append("};")
    return out


def qemu(root):
    """bench/qemu's pmu-counters.h, as lines."""
    out = ["/*",
           " * Generated by bench/qemu/x86-event-counters.py from Linux's",
           " * tools/perf/pmu-events/arch/x86: do not edit.  For each model, the",
           " * (event select, unit mask) pairs that may not use every",
           " * general-purpose counter, and the mask of those they may use.",
           " */", ""]
    for pers, cpuid, nr_gp, unit in MODELS:
        name, version = model_dir(root, cpuid)
        rules, total = table(root, name, nr_gp, unit)
        out.append("/* %s: %s %s (%s), %d counters, %d of %d event codes restricted */"
                   % (pers, name, version, cpuid, nr_gp, len(rules), total))
        out.append("static const X86PMUCounterRule pmu_rules_%s[] = {" % pers)
        for (event, umask), mask, names in rules:
            more = " (+%d)" % (len(names) - 1) if len(names) > 1 else ""
            out.append("    { 0x%02x, 0x%02x, 0x%02x }, /* %s%s */"
                       % (event, umask, mask, names[0], more))
        out.append("};")
        out.append("")
    return out


def main():
    args = sys.argv[1:]
    if len(args) == 1:
        sys.stdout.write("\n".join(qemu(args[0])))
    elif len(args) == 2 and args[0] == "--kernel":
        sys.stdout.write("\n".join(kernel(args[1])) + "\n")
    elif len(args) == 2 and args[0] == "--pairs":
        for event, umask in sorted(listed_pairs(args[1]),
                                   key=lambda p: (p[1], p[0])):
            print("%#06x" % (umask << 8 | event))
    elif len(args) == 3 and args[0] == "--check":
        want = "\n".join(kernel(args[1])) + "\n"
        with open(args[2]) as f:
            if f.read() != want:
                sys.exit("%s is not what x86-event-counters.py --kernel makes"
                         " of %s: regenerate it" % (args[2], args[1]))
    else:
        sys.exit(__doc__.split("\n\n")[1])


if __name__ == "__main__":
    main()
