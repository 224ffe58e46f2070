#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A short demonstration of perf events in the booted kernel.
echo "== $(uname -sr) on $(uname -m)"
echo "== PMUs in /sys/bus/event_source/devices:"
for d in /sys/bus/event_source/devices/*; do
	[ -e "$d/type" ] && echo "   $(basename "$d") type=$(cat "$d/type")"
done
echo "== perf_event_paranoid: $(cat /proc/sys/kernel/perf_event_paranoid)"
echo "== counting software events around 'ls -R /sys > /dev/null':"
/tests/perfcount sh -c 'ls -R /sys > /dev/null'
