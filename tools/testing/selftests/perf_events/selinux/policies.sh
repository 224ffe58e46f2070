#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the policies of the "security" test into DIR with secilc: all
# (every perf_event permission), noread, nowrite and noopen (all but one).
# Usage: policies.sh DIR
set -e
dir=$1
src=$(dirname "$0")/perf.cil
mkdir -p "$dir"
while read -r name perms; do
	sed "s/PERMS/$perms/" "$src" > "$dir/$name.cil"
	secilc -o "$dir/$name.pol" -f /dev/null "$dir/$name.cil"
	rm -f "$dir/$name.cil"
done <<END
all open cpu kernel tracepoint read write
noread open cpu kernel tracepoint write
nowrite open cpu kernel tracepoint read
noopen cpu kernel tracepoint read write
END
