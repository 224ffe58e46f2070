#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pmu_modules: the energy and residency PMU modules of the Debian-config
# kernel (bench/modules.sh) loaded, used and unloaded in the guest.  For
# each module under /modules: insmod, the PMUs it registered, an event
# held open on the first one (pmu-hold) while rmmod is tried, rmmod once
# it is closed, and a second load.  Every answer is printed ("M: ..."
# lines, which bench/modules.sh compares between stock and series); the
# TAP checks are those stock passes: refused while an event is open, gone
# after the unload, back after a second load.
# check, skip_check, is: bench/tap.sh, put in front of this file
devs=/sys/bus/event_source/devices
pmus() { ls $devs | sort; }
# an answer without the program's name, the errno's words only
said() { sed 's/^[a-z]*: //; s/^can.t [a-z]* [^:]*: //'; }

for ko in /modules/*.ko; do
	m=$(basename "$ko" .ko | tr - _)
	before=$(pmus)
	msg=$(insmod "$ko" 2>&1 | said)
	new=$(pmus | grep -vxF "$before" | tr '\n' ' ')
	echo "$m: insmod '$msg' pmus: ${new:-none}"
	if [ -z "$new" ]; then
		for c in refused_while_open unloads_after_close reloads; do
			skip_check "${m}_$c" "no PMU registered"
		done
		rmmod "$m" 2> /dev/null
		continue
	fi
	p=${new%% *}
	for d in $new; do
		echo "$m: $d cpumask '$(cat $devs/$d/cpumask 2>/dev/null)'" \
			"events: $(ls $devs/$d/events 2>/dev/null | tr '\n' ' ')"
	done
	ev=$(ls $devs/$p/events | grep -v '\.' | head -n 1)
	config=$(sed 's/.*event=\(0x[0-9a-f]*\).*/\1/' "$devs/$p/events/$ev")
	cpu=$(cut -d, -f1 "$devs/$p/cpumask" 2>/dev/null | cut -d- -f1)
	pmu-hold "$(cat $devs/$p/type)" "$config" "${cpu:-0}" > /tmp/hold 2>&1 &
	hold=$!
	sleep 1
	echo "$m: $p/$ev on CPU ${cpu:-0}: $(cat /tmp/hold)"
	msg=$(rmmod "$m" 2>&1 | said)
	held=$(grep -c "^$m " /proc/modules)
	echo "$m: rmmod with the event open '$msg', loaded after: $held"
	check "${m}_refused_while_open" "$held" "rmmod '$msg'"
	kill "$hold"
	wait "$hold" 2> /dev/null
	[ "$held" = 1 ] && msg=$(rmmod "$m" 2>&1 | said)
	gone=$(grep -c "^$m " /proc/modules)
	left=$(pmus | grep -vxF "$before" | tr '\n' ' ')
	echo "$m: rmmod after close '$msg', loaded after: $gone, pmus left: ${left:-none}"
	check "${m}_unloads_after_close" "$([ "$gone" = 0 ] && [ -z "$left" ] && echo 1)" \
		"loaded $gone, pmus left: $left"
	msg=$(insmod "$ko" 2>&1 | said)
	again=$(pmus | grep -vxF "$before" | tr '\n' ' ')
	echo "$m: insmod again '$msg' pmus: ${again:-none}"
	check "${m}_reloads" "$([ "$again" = "$new" ] && echo 1)" "pmus: $again"
	rmmod "$m" 2> /dev/null
done
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
[ "$fail" = 0 ]
