# SPDX-License-Identifier: GPL-2.0
#
# Workbench of the clean-room perf_event series.  See README.md.
#
#   make run                    boot the series kernel, demo, shell on a tty
#   make check                  build and test both architectures
#   make check KERNEL=stock     the same suites on the unmodified base
#   make image ARCH=.. KERNEL=..  build one kernel, print its path last
#   make diff                   observe stock and series, list differences
#   make perf-test [ARCH=arm64] perf test on stock and series (x86_64 by default, slow)
#   make bench [ARCHS=..]       perfbench on stock and series, side by side
#   make storm [MINUTES=..]     the random-syscall storm on debug kernels
#   make distro ARCH=.. KERNEL=..  build with Debian's config (slow)
#   make modules-check          Debian-config kernels: PMU modules unloaded with events open
#   make patches                write the series as git format-patch files
#   make bisect-check           build every patch on both arches, boot the last
#   make cleanroom              run ../shared/tools/cleanroom-check
#   make qemu                   build QEMU with the emulated x86 PMU, print its path
#   make check-pmu [KERNEL=..]  the x86_64 guest on the emulated PMUs (Intel v2, v3, AMD)
#   make encodings              the x86 event encodings of stock and series, compared
#   make x86-models             stock and series on the emulated Intel models, compared
#   make x86-model-tables       the msr/power/cstate model tables of stock and series
#   make docs                   the perf-core documentation (htmldocs), warning-free
#   make jevents-guests         perf 6.12 on stock's tables and ours, in guests, compared

ARCH ?= x86_64
KERNEL ?= series
ARCHS ?= x86_64 arm64
DEBUG ?= 0
MINUTES ?= 10
SEED ?= 1
BUILD ?= $(CURDIR)/build
export BUILD

# The top-level ARCH must not leak into kbuild through the environment.
unexport ARCH

.PHONY: all run check check-pmu diff perf-test bench storm distro modules-check image base series patches bisect-check cleanroom qemu encodings x86-models docs clean help

all: help

help:
	@sed -n '3,24p' Makefile | sed 's/^# \{0,1\}//'

base:
	@bench/base.sh

series: base
	@bench/series.sh

image: base
	@if [ "$(KERNEL)" = series ]; then bench/series.sh; fi
	@bench/kernel.sh $(ARCH) $(KERNEL) $(DEBUG) | tail -n 1

run: base
	@if [ "$(KERNEL)" = series ]; then bench/series.sh; fi
	@img=$$(bench/kernel.sh $(ARCH) $(KERNEL) $(DEBUG) | tail -n 1) && \
	initrd=$$(bench/initramfs.sh $(ARCH) | tail -n 1) && \
	if [ -t 0 ]; then mode=shell; else mode=demo; fi && \
	bench/boot.sh $(ARCH) $$img $$initrd $$mode $(BUILD)/run-$(ARCH).log

# the jevents checks (about a minute) need no kernel: with the series only
check:
	@bench/check.sh $(KERNEL) "$(ARCHS)" $(DEBUG)
	@if [ "$(KERNEL)" = series ] && [ "$(DEBUG)" = 0 ]; then \
		bench/jevents/bad-input.sh && bench/jevents/compare.sh; fi
	@if [ "$(KERNEL)" = series ]; then \
		python3 bench/qemu/x86-event-counters.py --check \
			$(BUILD)/base/tools/perf/pmu-events/arch/x86 \
			arch/x86/events/intel_counters.c && \
		echo "arch/x86/events/intel_counters.c: current"; fi

check-pmu:
	@bench/check-pmu.sh $(KERNEL)

diff:
	@bench/diff.sh "$(ARCHS)"

perf-test:
	@bench/perf-test.sh $(ARCH)

bench:
	@bench/bench.sh "$(ARCHS)"

storm:
	@bench/storm.sh "$(ARCHS)" "$(MINUTES)" $(KERNEL) $(SEED)

distro: base
	@if [ "$(KERNEL)" = series ]; then bench/series.sh; fi
	@bench/distro.sh $(ARCH) $(KERNEL)

# both kernels' make distro (built when missing), x86_64
modules-check: base series
	@bench/modules.sh

patches: series
	@bench/patches.sh

bisect-check: series
	@bench/bisect-check.sh "$(ARCHS)"

cleanroom:
	@../shared/tools/cleanroom-check .

qemu: base
	@bench/qemu.sh | tail -n 1

encodings: base series
	@bench/pmu-encodings.sh

x86-models: base series
	@bench/x86-models.sh

x86-model-tables: base series
	@bench/x86-model-tables.sh

docs: base
	@bench/docs.sh | tail -n 1

clean:
	rm -rf $(BUILD)

# jevents in C (issue 44): the base's perf built with stock's generator and
# with ours (BASE= to use another unpacked base); the table dumps compared;
# the bad-input cases; both perf builds in guests of the emulated x86 CPUs
# and on every CPUID of the mapfile.
.PHONY: perf-jevents jevents-compare jevents-bad-input jevents-guests
perf-jevents:
	@bench/perf-jevents.sh

jevents-guests: series
	@bench/jevents/guests.sh

jevents-compare:
	@bench/jevents/compare.sh

jevents-bad-input:
	@bench/jevents/bad-input.sh
