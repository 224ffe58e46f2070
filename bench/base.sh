#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install what the workbench needs (Debian packages) and unpack the base,
# Debian's linux-source-6.12, into $BUILD/base.  Idempotent.
. "$(dirname "$0")/lib.sh"

PKGS=$(sed 's/#.*//' "$TOP/bench/packages")

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] || die "please install:$missing"
	log "installing:$missing"
	# the arm64 libraries of the cross-built perf (name:arm64)
	dpkg --print-foreign-architectures | grep -q arm64 ||
		dpkg --add-architecture arm64
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi

# busybox for arm64 guests, through apt's multiarch download
bb=$BUILD/busybox-arm64/bin/busybox
if [ ! -x "$bb" ]; then
	dpkg --print-foreign-architectures | grep -q arm64 || {
		dpkg --add-architecture arm64
		apt-get update -qq
	}
	tmp=$(mktemp -d) && chmod 755 "$tmp"
	(cd "$tmp" && apt-get download -qq busybox-static:arm64 >/dev/null)
	mkdir -p "$BUILD/busybox-arm64"
	dpkg-deb -x "$tmp"/busybox-static_*_arm64.deb "$BUILD/busybox-arm64.tmp"
	cp "$BUILD/busybox-arm64.tmp/bin/busybox" "$BUILD/busybox-arm64/busybox.tmp"
	mkdir -p "$BUILD/busybox-arm64/bin"
	mv "$BUILD/busybox-arm64/busybox.tmp" "$bb"
	rm -rf "$tmp" "$BUILD/busybox-arm64.tmp"
fi

version=$(dpkg-query -W -f='${Version}' linux-source-6.12)
if [ "$(cat "$BASE/.bench-version" 2>/dev/null)" != "$version" ]; then
	log "unpacking linux-source-6.12 $version"
	rm -rf "$BASE" "$BUILD/base.tmp"
	mkdir -p "$BUILD/base.tmp"
	tar xf /usr/src/linux-source-6.12.tar.xz -C "$BUILD/base.tmp" --strip-components=1
	echo "$version" > "$BUILD/base.tmp/.bench-version"
	mv "$BUILD/base.tmp" "$BASE"
fi
