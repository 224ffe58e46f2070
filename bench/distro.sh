#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build a kernel with Debian's own configuration: distro.sh ARCH KERNEL
#
# The config is Debian's (linux-config-6.12, config.<arch>_none_<arch>.xz),
# with only what a build outside Debian's packaging must change: no Debian
# certificates, no debug info (it changes no symbol), and, on the series,
# uprobes off until the series carries them.  Builds vmlinux, then the
# modules of the directories whose code calls into perf (KVM, Xen, the
# perf and hwtracing drivers, ...), each against vmlinux's symbols, and
# audits the exports: every symbol Debian's own kernel of the same version
# exports from vmlinux (its Module.symvers, linux-headers-<ver>-<arch>)
# must be exported here, but for the ones bench/distro-known-exports
# explains.  Slow (about an hour on two cores): not part of make check.
. "$(dirname "$0")/lib.sh"

arch=$1 kernel=$2
karch=$(kbuild_arch "$arch")
src=$(tree_of "$kernel")
out=$BUILD/distro-$kernel-$arch
debarch=$(case $arch in x86_64) echo amd64 ;; arm64) echo arm64 ;; esac)
ver=$(cat "$BASE/.bench-version")
pkgs=$BUILD/distro-pkgs
start=$(date +%s)

kmake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -C "$src" O="$out" ARCH="$karch" \
		CROSS_COMPILE="$(cross_compile "$arch")" LOCALVERSION= "$@"
}

# Debian's config and Module.symvers for this version, through apt
fetch() {
	local pkg=$1 dir=$pkgs/$1
	[ -d "$dir" ] && return 0
	mkdir -p "$pkgs/tmp"
	(cd "$pkgs/tmp" && apt-get download -qq "$pkg" >/dev/null 2>&1) ||
		die "cannot download $pkg"
	dpkg-deb -x "$pkgs"/tmp/*.deb "$dir.tmp"
	rm -rf "$pkgs/tmp"
	mv "$dir.tmp" "$dir"
}
fetch "linux-config-6.12:$debarch"
abi=$(echo "$ver" | sed 's/^\([0-9.]*\).*/\1/')+deb12-$debarch
fetch "linux-headers-$abi:$debarch"
config=$(find "$pkgs/linux-config-6.12:$debarch" -name "config.${debarch}_none_$debarch.xz")
symvers=$(find "$pkgs/linux-headers-$abi:$debarch" -name Module.symvers)
[ -n "$config" ] && [ -n "$symvers" ] || die "no Debian config or Module.symvers"

mkdir -p "$out"
if [ ! -e "$out/.bench-distro" ]; then
	log "configuring $kernel $arch with Debian's config"
	xz -dc "$config" > "$out/.config"
	sc="$src/scripts/config --file $out/.config"
	$sc --set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
		--disable DEBUG_INFO_DWARF5 --disable DEBUG_INFO_DWARF4 \
		--disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT \
		--disable DEBUG_INFO_BTF --enable DEBUG_INFO_NONE
	if [ "$kernel" = series ]; then
		$sc --disable UPROBE_EVENTS --disable UPROBES
	fi
	kmake -s olddefconfig > /dev/null
	touch "$out/.bench-distro"
fi

log "building $kernel $arch vmlinux (Debian config; log: $out/build.log)"
kmake -s -j"$(nproc)" vmlinux > "$out/build.log" 2>&1 ||
	{ tail -n 40 "$out/build.log" >&2; die "vmlinux build failed"; }
# the modules that call into perf, each directory against vmlinux
dirs="virt arch/$karch/kvm drivers/perf drivers/hwtracing"
[ "$arch" = x86_64 ] && dirs="$dirs arch/x86/xen drivers/powercap"
log "building the perf-using modules of: $dirs"
kmake -s -j"$(nproc)" modules_prepare >> "$out/build.log" 2>&1
status=0
for d in $dirs; do
	[ -d "$src/$d" ] || continue
	if ! kmake -s -j"$(nproc)" "$d/" >> "$out/build.log" 2>&1; then
		log "FAIL: $d"
		status=1
	fi
done
# modpost over vmlinux and the modules built: undefined symbols are errors
kmake -s -j"$(nproc)" KBUILD_MODPOST_WARN= modpost_vmlinux_only=0 \
	MODPOST_DIRS="$dirs" >/dev/null 2>&1 || true

# the exports: Debian's vmlinux against ours
awk '$3 == "vmlinux" { print $2 }' "$symvers" | sort > "$out/exports-debian"
awk '{ print $2 }' "$out/Module.symvers" 2>/dev/null | sort > "$out/exports-ours" ||
	true
if [ ! -s "$out/exports-ours" ]; then
	# vmlinux alone writes vmlinux.symvers
	awk '{ print $2 }' "$out/vmlinux.symvers" | sort > "$out/exports-ours"
fi
comm -23 "$out/exports-debian" "$out/exports-ours" > "$out/exports-missing"
known=$TOP/bench/distro-known-exports
grep -v '^#' "$known" | awk 'NF { print $1 }' | sort > "$out/exports-known"
comm -23 "$out/exports-missing" "$out/exports-known" > "$out/exports-unexplained"
grep -E 'error:|undefined!|ERROR:' "$out/build.log" | sort -u | head -40 >&2 || true
n=$(wc -l < "$out/exports-unexplained")
log "$kernel $arch: $(wc -l < "$out/exports-missing") exports of Debian's vmlinux missing, $n unexplained ($out/exports-unexplained)"
[ "$n" = 0 ] || { head -n 40 "$out/exports-unexplained" >&2; status=1; }
log "done in $(( ($(date +%s) - start) / 60 )) minutes"
exit $status
