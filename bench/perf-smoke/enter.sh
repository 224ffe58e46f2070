#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf_smoke and perf_test (guest side, busybox): put a tmpfs overlay on
# the host's root, mounted read-only over virtio-9p, give it its own proc,
# sys, dev, tmp, tracefs and debugfs, and run there, with the host's own
# tools (the Debian perf among them), /tests/<name>_checks: checks.sh for
# perf_smoke, perf-test.sh for perf_test, bench/qemu/pmu-checks.sh for
# perf_pmu.  On arm64 the root is /perfroot
# of the initramfs instead.  Prints kselftest-style results; skips all
# when the guest has neither (no -virtfs, or no 9p).
name=$(basename "$0")
# each program its own root: one boot may run several
root=/newroot-$name
skip_all() {
	echo "1..1"
	echo "ok 1 $name # SKIP $1"
	echo "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:1 error:0"
	exit 0
}
if [ -x /perfroot/usr/bin/perf ]; then
	# arm64: Debian's arm64 perf unpacked into the initramfs itself
	# (bench/perf-root.sh, appended by bench/boot.sh with PERF_ROOT=1)
	root=/perfroot
else
	ovl=/ovl-$name
	mkdir -p /host "$ovl" "$root"
	# the host's root, mounted once (virtio-9p has one channel)
	grep -q ' /host 9p ' /proc/mounts ||
		mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144 \
			hostroot /host 2>/dev/null || skip_all "no host root over 9p"
	[ -x /host/usr/bin/perf ] || skip_all "the host has no perf (linux-perf)"
	mount -t tmpfs ovl "$ovl"
	mkdir -p "$ovl/upper" "$ovl/work"
	mount -t overlay overlay \
		-o lowerdir=/host,upperdir="$ovl/upper",workdir="$ovl/work" \
		"$root" || skip_all "overlay mount failed"
fi
mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
mount -t devtmpfs dev "$root/dev"
mount -t tmpfs tmp "$root/tmp"
mount -t tracefs tracefs "$root/sys/kernel/tracing" 2>/dev/null
mount -t debugfs debugfs "$root/sys/kernel/debug" 2>/dev/null
cp "/tests/${name}_checks" "$root/tmp/checks.sh"
# the program perf_smoke's uprobe checks probe, the one perf_pmu counts
[ -e /tests/uprobe_target ] && cp /tests/uprobe_target "$root/tmp/"
[ -e /tests/pmu_probe ] && cp /tests/pmu_probe "$root/tmp/"
# and the branchy workload of x86_models_lbr
[ -e /tests/lbr_workload ] && cp /tests/lbr_workload "$root/tmp/"
[ -e /tests/pebs_probe ] && cp /tests/pebs_probe "$root/tmp/"
[ -e /tests/lbr_probe ] && cp /tests/lbr_probe "$root/tmp/"
HOME=/tmp PATH=/usr/sbin:/usr/bin:/sbin:/bin chroot "$root" /bin/bash /tmp/checks.sh
