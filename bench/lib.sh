# SPDX-License-Identifier: GPL-2.0
# Shared settings of the workbench scripts: where the base and the build
# directories live, and small helpers.  Sourced, never run.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
BASE=$BUILD/base
SERIES=$BUILD/series
mkdir -p "$BUILD"

# The paths of the base that the series owns: removed from the base and
# replaced by the project's files.
OWNED_PATHS="include/uapi/linux/perf_event.h kernel/events arch/x86/events
	arch/arm64/kernel/perf tools/testing/selftests/perf_events
	Documentation/perf-core"
# Stock perf files that the series removes and does not replace file by file.
REMOVED_PATHS="arch/arm64/kernel/perf_regs.c arch/arm64/kernel/perf_callchain.c"

log() { printf '[bench] %s\n' "$*" >&2; }
die() { printf '[bench] error: %s\n' "$*" >&2; exit 1; }

# cross prefix and kbuild arch name for an architecture
kbuild_arch() { case $1 in x86_64) echo x86_64 ;; arm64) echo arm64 ;; *) die "unknown ARCH $1" ;; esac; }
cross_compile() { case $1 in x86_64) echo "" ;; arm64) echo aarch64-linux-gnu- ;; esac; }
image_path() { case $1 in x86_64) echo arch/x86/boot/bzImage ;; arm64) echo arch/arm64/boot/Image ;; esac; }
tree_of() { case $1 in stock) echo "$BASE" ;; series) echo "$SERIES" ;; *) die "unknown KERNEL $1" ;; esac; }

# Build stock and series kernels of one architecture and its initramfs,
# all before any guest boots (building beside a guest is slow); sets
# STOCK_IMAGE, SERIES_IMAGE and INITRD.  The trees must exist.
build_both() {
	STOCK_IMAGE=$("$TOP/bench/kernel.sh" "$1" stock 0 | tail -n 1)
	SERIES_IMAGE=$("$TOP/bench/kernel.sh" "$1" series 0 | tail -n 1)
	INITRD=$("$TOP/bench/initramfs.sh" "$1" | tail -n 1)
}
