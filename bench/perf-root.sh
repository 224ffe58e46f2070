#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The perf tool of the arm64 guest: Debian's arm64 linux-perf with the
# libraries it loads, and what the perf_smoke checks run (bash, coreutils,
# sh, awk, grep, sed, mount) and make bench's perf_e2e workload (xz),
# fetched with apt-get download (the arm64 architecture is added by
# bench/base.sh) and unpacked with dpkg-deb into a root directory,
# packed as a cpio archive that bench/boot.sh appends to the guest's
# initramfs for the perf boots (PERF_ROOT=1).  The guest side
# (bench/perf-smoke/enter.sh) runs the checks chrooted into /perfroot.
# The Python and Perl interpreters' own modules and the iconv modules are
# left out: perf loads their libraries but runs no script here.
# When the base's perf 6.12 is built for arm64 on our jevents
# (bench/perf-jevents.sh PERF_ARCH=arm64 KINDS=ours), a second archive
# puts it at /perfroot/opt/perf612/perf, with the shell tests of its perf
# test under /perfroot/opt/perf612/tools/perf/tests/shell (perf_smoke612,
# perf_test612); libtraceevent1 is in the root for it.
# Usage: perf-root.sh ARCH  (prints the archives' paths, one a line)
. "$(dirname "$0")/lib.sh"

arch=$1
[ "$arch" = arm64 ] || die "perf-root.sh: only arm64 needs it"
out=$BUILD/perf-root-$arch
want="linux-perf libtraceevent1 bash dash coreutils mawk grep sed mount
xz-utils"
# arch-all packages and interpreters' module sets: not needed to load perf
skip="base-files dpkg install-info mailcap media-types mime-support perl
perl-modules-5.36 python3 python3-minimal python3.11 python3.11-minimal
libpython3-stdlib libpython3.11-stdlib libpython3.11-minimal readline-common
original-awk gawk tar debianutils libtirpc-common"
stamp="$want | $skip"

# perf 6.12's archive, made again on every call (a second) in a directory
# of this call's own, and renamed over the last one only if it differs:
# boots that run beside each other call this too
perf612() {
	local built=$BUILD/perf-jevents/ours-arm64 r

	[ -x "$built/obj/perf" ] || return 0
	r=$(mktemp -d "$out/root612.XXXXXX")
	mkdir -p "$r/perfroot/opt/perf612/tools/perf/tests"
	cp "$built/obj/perf" "$r/perfroot/opt/perf612/perf"
	cp -r "$built/src/tools/perf/tests/shell" \
		"$r/perfroot/opt/perf612/tools/perf/tests/"
	find "$r" -exec touch -h -d @0 {} +
	(cd "$r" && find . | LC_ALL=C sort |
		cpio -o -H newc --reproducible -R 0:0 2>/dev/null) |
		gzip -n -6 > "$r.cpio.gz"
	if cmp -s "$r.cpio.gz" "$out/perf612.cpio.gz"; then
		rm -f "$r.cpio.gz"
	else
		mv "$r.cpio.gz" "$out/perf612.cpio.gz"
	fi
	rm -rf "$r"
	echo "$out/perf612.cpio.gz"
}

if [ "$(cat "$out/.bench-packages" 2>/dev/null)" = "$stamp" ] &&
   [ -s "$out/perfroot.cpio.gz" ]; then
	echo "$out/perfroot.cpio.gz"
	perf612
	exit 0
fi
log "fetching Debian's arm64 perf tool"
rm -rf "$out" && mkdir -p "$out/debs" "$out/root/perfroot"
# shellcheck disable=SC2046
apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
	--no-breaks --no-replaces --no-enhances \
	$(for p in $want; do echo "$p:arm64"; done) 2>/dev/null |
	grep -v '^[ <]' | sed 's/:arm64$//' | sort -u > "$out/closure"
pkgs=""
for p in $(cat "$out/closure"); do
	case " $(echo $skip) " in
	*" $p "*) ;;
	*) pkgs="$pkgs $p:arm64" ;;
	esac
done
# shellcheck disable=SC2086
(cd "$out/debs" && apt-get download $pkgs > ../download.log 2>&1) ||
	{ tail -n 20 "$out/download.log" >&2; die "apt-get download failed"; }
for deb in "$out"/debs/*.deb; do
	dpkg-deb -x "$deb" "$out/root/perfroot"
done
r=$out/root/perfroot
rm -rf "$r"/usr/share/{doc,man,locale,info,lintian,bash-completion} \
	"$r"/usr/lib/python3* "$r"/usr/lib/aarch64-linux-gnu/{gconv,perl}
mkdir -p "$r"/{proc,sys,dev,tmp}
# what the packages' scripts would have made: awk is mawk, sh is dash
ln -sf mawk "$r/usr/bin/awk"
[ -e "$r/bin/sh" ] || ln -sf dash "$r/bin/sh"
find "$out/root" -exec touch -h -d @0 {} +
(cd "$out/root" && find . | LC_ALL=C sort |
	cpio -o -H newc --reproducible -R 0:0 2>/dev/null) |
	gzip -n -6 > "$out/perfroot.cpio.gz"
echo "$stamp" > "$out/.bench-packages"
echo "$out/perfroot.cpio.gz"
perf612
