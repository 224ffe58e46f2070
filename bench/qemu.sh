#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the workbench's own qemu-system-x86_64: Debian's QEMU 7.2 source
# package with the patches of bench/qemu/ (an emulated x86 PMU for TCG),
# configured for what the x86_64 guests use and nothing else.  Prints the
# binary's path as its last line.  Rebuilds only when the patches (or this
# script, or the table generated from the base's event lists) change.
#
#   $BUILD/qemu-src    Debian's source, as apt-get source unpacks it
#   $BUILD/qemu-tree   the same with bench/qemu/*.patch applied
#   $BUILD/qemu-build  the build directory
. "$(dirname "$0")/lib.sh"

SRC=$BUILD/qemu-src TREE=$BUILD/qemu-tree OBJ=$BUILD/qemu-build
bin=$OBJ/qemu-system-x86_64

# The Intel model personalities' counter restrictions (tcg-pmu-model):
# generated from the base's perfmon JSON by bench/qemu/x86-event-counters.py
# into target/i386/tcg/sysemu/pmu-counters.h of the patched tree.
json=$BASE/tools/perf/pmu-events/arch/x86
[ -f "$json/mapfile.csv" ] || die "no $json/mapfile.csv: make base first"
counters=$(mktemp)
trap 'rm -f "$counters"' EXIT
python3 "$TOP/bench/qemu/x86-event-counters.py" "$json" > "$counters" ||
	die "bench/qemu/x86-event-counters.py failed"

# what the guests use: -M q35 with its serial port, -kernel/-initrd,
# -virtfs (virtio-9p-pci), TCG with or without -icount; the default NIC
# and VGA of q35 (e1000e, std) and the parallel port that -nographic
# connects stay, so that the guest sees the machine
# of the stock QEMU
devices='CONFIG_Q35=y
CONFIG_VIRTIO_PCI=y
CONFIG_VIRTIO_9P=y
CONFIG_E1000E_PCI_EXPRESS=y
CONFIG_VGA_PCI=y
CONFIG_PARALLEL=y'
options=(--target-list=x86_64-softmmu --without-default-features
	--without-default-devices --disable-docs --disable-tools
	--disable-guest-agent --disable-debug-info --disable-install-blobs
	--disable-werror --enable-tcg --enable-virtfs --enable-attr
	--enable-cap-ng --enable-fdt=system --enable-trace-backends=nop
	--firmwarepath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu)

stamp=$(shopt -s nullglob; cat "$0" "$TOP"/bench/qemu/*.patch "$counters" | sha256sum | cut -c1-16)
if [ -x "$bin" ] && [ "$(cat "$OBJ/.bench-stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "$bin"
	exit 0
fi

# Debian's source package, once: the version of the installed
# qemu-system-x86 when the archive still has it, else the current one
if [ ! -f "$SRC/.bench-version" ]; then
	if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		[ "$(id -u)" = 0 ] || die "no deb-src source for apt; run as root once"
		log "adding deb-src sources for bookworm"
		if [ -f /etc/apt/sources.list.d/debian.sources ]; then
			sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
				> /etc/apt/sources.list.d/bench-deb-src.sources
		else
			sed -n 's/^deb /deb-src /p' /etc/apt/sources.list \
				> /etc/apt/sources.list.d/bench-deb-src.list
		fi
		apt-get update -qq
	fi
	rm -rf "$BUILD/qemu-src.tmp" "$SRC"
	mkdir -p "$BUILD/qemu-src.tmp"
	want=$(dpkg-query -W -f='${source:Version}' qemu-system-x86 2>/dev/null || true)
	log "fetching Debian's qemu source ${want:-(current)}"
	(cd "$BUILD/qemu-src.tmp" &&
	 { apt-get source -qq "qemu${want:+=$want}" || apt-get source -qq qemu; } >/dev/null)
	dir=$(find "$BUILD/qemu-src.tmp" -mindepth 1 -maxdepth 1 -type d -name 'qemu-*')
	[ -f "$dir/VERSION" ] || die "apt-get source qemu unpacked nothing"
	(cd "$dir" && dpkg-parsechangelog -S Version) > "$dir/.bench-version"
	mv "$dir" "$SRC"
	rm -rf "$BUILD/qemu-src.tmp"
fi

# The patched tree: patches applied to a scratch copy, then copied over
# the tree by content, so that only the files that changed get a new
# time and the build redoes only what depends on them.
log "applying bench/qemu/*.patch to QEMU $(cat "$SRC/.bench-version")"
rm -rf "$BUILD/qemu-tree.tmp"
cp -a "$SRC" "$BUILD/qemu-tree.tmp"
for p in "$TOP"/bench/qemu/*.patch; do
	[ -e "$p" ] || continue
	patch -d "$BUILD/qemu-tree.tmp" -p1 -s --no-backup-if-mismatch < "$p" ||
		die "$(basename "$p") does not apply"
done
printf '%s\n' "$devices" > "$BUILD/qemu-tree.tmp/configs/devices/i386-softmmu/default.mak"
cp "$counters" "$BUILD/qemu-tree.tmp/target/i386/tcg/sysemu/pmu-counters.h"
mkdir -p "$TREE"
rsync -rlc --delete "$BUILD/qemu-tree.tmp/" "$TREE/"
rm -rf "$BUILD/qemu-tree.tmp"

mkdir -p "$OBJ"
conf="${options[*]}"
if [ ! -f "$OBJ/build.ninja" ] || [ "$(cat "$OBJ/.bench-configure" 2>/dev/null)" != "$conf" ]; then
	log "configuring QEMU"
	rm -rf "$OBJ" && mkdir -p "$OBJ"
	(cd "$OBJ" && nice "$TREE/configure" "${options[@]}" >configure.log 2>&1) ||
		{ tail -n 30 "$OBJ/configure.log" >&2; die "QEMU's configure failed"; }
	echo "$conf" > "$OBJ/.bench-configure"
fi
log "building QEMU in $OBJ"
nice ninja -C "$OBJ" -j "$(nproc)" qemu-system-x86_64 >"$OBJ/ninja.log" 2>&1 ||
	{ grep -B2 -A12 -m3 'error' "$OBJ/ninja.log" >&2 || tail -n 40 "$OBJ/ninja.log" >&2
	  die "QEMU's build failed (log: $OBJ/ninja.log)"; }
# A binary run from its build directory finds the firmware path under
# qemu-bundle/: there, Debian's firmware (seabios, ipxe-qemu, the option
# ROMs of qemu-system-data), as the stock QEMU finds it.
for d in /usr/share/qemu /usr/share/seabios /usr/lib/ipxe/qemu; do
	mkdir -p "$OBJ/qemu-bundle$(dirname "$d")"
	ln -sfn "$d" "$OBJ/qemu-bundle$d"
done
echo "$stamp" > "$OBJ/.bench-stamp"
echo "$bin"
