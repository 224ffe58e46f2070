#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build a kernel with Debian's own configuration: distro.sh ARCH KERNEL
# vmlinux, its boot image and the modules that use perf (KVM, the PMU and
# hardware-tracing drivers), which modpost checks against vmlinux: an
# undefined or unexported symbol fails the build.  bench/modules.sh boots
# the image and loads and unloads the PMU modules.  Too slow for CI (README gives the
# duration).  The config is linux-config-6.12's (config.amd64_none_amd64
# or config.arm64_none_arm64), everything built in kept, with these
# changes:
#   - of the modules, only those of the options matched by $PERF_MODULES;
#   - no debug info (DEBUG_INFO_NONE): BTF needs pahole, and debug info
#     triples the build time without touching perf;
#   - no trusted or revocation key files (Debian's are not in the source).
# Prints the build directory on its last line.
. "$(dirname "$0")/lib.sh"

arch=$1 kernel=$2
karch=$(kbuild_arch "$arch")
src=$(tree_of "$kernel")
out=$BUILD/distro-$kernel-$arch
case $arch in
x86_64) flavour=amd64_none_amd64 ;;
arm64) flavour=arm64_none_arm64 ;;
esac
# the modular options kept: KVM, PMU drivers, hardware tracing
PERF_MODULES='^CONFIG_(KVM[A-Z0-9_]*|[A-Z0-9_]*_PMU[A-Z0-9_]*|ARM_SPE[A-Z0-9_]*|CORESIGHT[A-Z0-9_]*|INTEL_TH[A-Z0-9_]*|STM|STM_[A-Z0-9_]*|PERF_[A-Z0-9_]*|HISI_[A-Z0-9_]*PMU[A-Z0-9_]*)=m$'

# Debian's config: the package of the build machine's architecture, or,
# for the other one, its .deb unpacked (apt's multiarch download).
cfgdir=$BUILD/linux-config-$arch
cfg=$cfgdir/usr/src/linux-config-6.12/config.$flavour.xz
if [ ! -e "$cfg" ]; then
	if [ -e "/usr/src/linux-config-6.12/config.$flavour.xz" ]; then
		mkdir -p "$(dirname "$cfg")"
		cp "/usr/src/linux-config-6.12/config.$flavour.xz" "$cfg"
	else
		debarch=$(case $arch in x86_64) echo amd64 ;; arm64) echo arm64 ;; esac)
		tmp=$(mktemp -d) && chmod 755 "$tmp"
		(cd "$tmp" && apt-get download -qq "linux-config-6.12:$debarch" >/dev/null) ||
			die "cannot download linux-config-6.12:$debarch"
		dpkg-deb -x "$tmp"/linux-config-6.12_*.deb "$cfgdir"
		rm -rf "$tmp"
	fi
fi

kmake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -C "$src" O="$out" ARCH="$karch" \
		CROSS_COMPILE="$(cross_compile "$arch")" LOCALVERSION= "$@"
}

start=$(date +%s)
mkdir -p "$out"
xzcat "$cfg" | sed -E "/$PERF_MODULES/!s/^(CONFIG_[A-Z0-9_]+)=m$/# \1 is not set/" \
	> "$out/.config"
sc() { "$src/scripts/config" --file "$out/.config" "$@"; }
sc --enable DEBUG_INFO_NONE --disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT \
	--disable DEBUG_INFO_DWARF4 --disable DEBUG_INFO_DWARF5 \
	--disable DEBUG_INFO_BTF \
	--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS ""
kmake -s olddefconfig > /dev/null
log "building $kernel $arch with Debian's $flavour config: $(grep -c '=m$' "$out/.config") modules (log: $out/build.log)"
jobs=$(nproc)
case $arch in
x86_64) image=bzImage ;;
arm64) image=Image ;;
esac
if ! kmake -s -j"$jobs" vmlinux $image modules > "$out/build.log" 2>&1; then
	grep -E 'ERROR|error:|undefined' "$out/build.log" | tail -n 40 >&2
	die "build failed: $out/build.log"
fi
grep -E 'warning:' "$out/build.log" | grep -E 'kernel/events|arch/x86/events|arch/arm64/kernel/perf' >&2 || true
log "done in $(( ($(date +%s) - start) / 60 )) minutes"
echo "$out"
