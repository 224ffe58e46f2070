#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Shrink a failing storm run to a short reproducer.  Boots the guest
# (boot.sh, TESTS=storm) again and again, worker WORKER of seed SEED
# replaying alone with every call printed (storm.verbose=1); a boot fails
# when PATTERN, an extended regex, matches a line of its log (the
# kernel's messages: choose one that the storm's own lines cannot match).
#  1. the N calls must fail;
#  2. the shortest failing prefix N': the call printed last before the
#     first match is tried first, then its neighbour, then bisection;
#  3. delta debugging (ddmin) of the calls to keep within it, the others
#     skipped (storm -k: their random draws are made, their system calls
#     not), the opens and mmaps that succeeded in step 1 left as
#     stand-ins (storm -o), so that the kept calls are the same calls as
#     in the full run.  Call N' itself is kept (the prefix needs it), and
#     the first try keeps it alone.
# Then prints the reproducer: the storm command line, the guest's, and
# the calls made as -v prints them.  MAXBOOTS (40) bounds the boots;
# STORM_SECONDS (300) is the guest's limit for the storm; STORM_APPEND
# adds storm options (storm.mix=1 for a run of the fuzzer's mix).  Logs are in
# $BUILD/storm-min/.  A forked child's calls (w0.82.3) belong to its fork.
# Usage: storm-minimize.sh ARCH IMAGE INITRD SEED WORKER N PATTERN
. "$(dirname "$0")/lib.sh"

[ $# = 7 ] || die "usage: storm-minimize.sh ARCH IMAGE INITRD SEED WORKER N PATTERN"
arch=$1 image=$2 initrd=$3 seed=$4 worker=$5 total=$6 pattern=$7
maxboots=${MAXBOOTS:-40} seconds=${STORM_SECONDS:-300}
dir=$BUILD/storm-min
rm -rf "$dir" && mkdir -p "$dir"
boots=0 start=$SECONDS ok='' last_log=''
declare -A tried

# the lines of a log that PATTERN is matched against
kernel_lines() { grep -aiv 'command line' "$1" || true; }

# the numbers of the worker's own calls in a log: made ones (printed,
# not skipped), or the opens and mmaps that succeeded
made_calls() {
	sed -nE "s/^w$worker\.([0-9]+) ([^=[].*)?$/\1/p" "$1" | sort -nu
}
ok_calls() {
	sed -nE "s/^w$worker\.([0-9]+) = (fd|ring)( .*)?$/\1/p" "$1" | sort -nu
}

# the worker's highest call printed before the first match of PATTERN
# (children that the worker does not wait for print after its later calls)
last_before_match() {
	awk -v re="$pattern" -v w="w$worker." '
	tolower($0) !~ /command line/ && $0 ~ re { print last; exit }
	index($0, w) == 1 {
		n = substr($0, length(w) + 1)
		sub(/[^0-9].*/, "", n)
		if (n != "" && n + 0 > last + 0)
			last = n
	}' "$1"
}

# the -o list of the calls up to $1: the sorted numbers of $ok, as 1-3,5
ok_list() {
	echo "$ok" | awk -v n="$1" '
	function put() { out = out sep lo (hi > lo ? "-" hi : ""); sep = "," }
	!NF || $1 > n { next }
	lo != "" && $1 == hi + 1 { hi = $1; next }
	lo != "" { put() }
	{ lo = hi = $1 }
	END { if (lo != "") put(); print out }'
}

# boot CALLS SKIP: one boot, the first CALLS calls with SKIP (a -k list)
# skipped; succeeds when PATTERN matches.  Sets last_log.
boot() {
	local calls=$1 skip=$2 okl append log t0=$SECONDS
	okl=$(ok_list "$calls")
	append="storm.seed=$seed storm.worker=$worker storm.calls=$calls storm.verbose=1"
	[ -n "${STORM_APPEND:-}" ] && append="$append $STORM_APPEND"
	[ -n "$skip" ] && append="$append storm.skip=$skip"
	[ -n "$okl" ] && append="$append storm.ok=$okl"
	[ ${#append} -lt 1700 ] || die "command line too long (${#append}): $append"
	boots=$((boots + 1))
	log=$dir/boot-$boots.log
	echo "$append" > "$dir/boot-$boots.append"
	APPEND="$append storm.seconds=$seconds BENCH_TIMEOUT=$((seconds + 60))" \
	TESTS=storm GUEST_TIMEOUT=$((seconds + 600)) \
		"$TOP/bench/boot.sh" "$arch" "$image" "$initrd" check "$log" > /dev/null
	last_log=$log
	if kernel_lines "$log" | grep -aqE -- "$pattern"; then
		log "boot $boots ($((SECONDS - t0)) s): $calls calls, skip ${skip:-none}: fails"
		return 0
	fi
	log "boot $boots ($((SECONDS - t0)) s): $calls calls, skip ${skip:-none}: passes"
	return 1
}

# 1. the full run
boot "$total" '' || die "the $total calls do not reproduce '$pattern' (log: $last_log)"
ok=$(ok_calls "$last_log")
hint=$(last_before_match "$last_log")

# 2. the shortest failing prefix: lo passes, hi fails
lo=0 hi=$total hi_log=$last_log
probe() {
	if boot "$1" ''; then
		hi=$1 hi_log=$last_log
	else
		lo=$1
	fi
}
hint=${hint:-$hi}
if [ "$hint" -ge "$hi" ]; then
	hint=$hi
elif [ "$hint" -gt "$lo" ]; then
	probe "$hint"
fi
if [ "$hi" = "$hint" ]; then
	[ $((hint - 1)) -gt "$lo" ] && probe $((hint - 1))
elif [ $((hint + 1)) -lt "$hi" ]; then
	probe $((hint + 1))
fi
while [ $((hi - lo)) -gt 1 ] && [ "$boots" -lt "$maxboots" ]; do
	probe $(((lo + hi) / 2))
done
prefix=$hi best_log=$hi_log
log "shortest failing prefix: $prefix calls ($boots boots)"

# 3. ddmin over the calls made in that run, call $prefix kept
mapfile -t cands < <(made_calls "$best_log" | awk -v n="$prefix" '$1 < n')
keep_last=$prefix
made_calls "$best_log" | grep -qx "$prefix" || keep_last=''

# skip list keeping "$@" and the last call: every call made in the
# prefix run but those, as ranges (a call not made there needs no skip)
skip_for() {
	local -A keep
	local c out='' from='' first=1
	for c in "$@" $keep_last; do keep[$c]=1; done
	for c in "${cands[@]}" $keep_last; do
		if [ -n "${keep[$c]:-}" ]; then
			[ -n "$from" ] && out="$out${out:+,}$from-$((c - 1))"
			from='' first=''
		elif [ -z "$from" ]; then
			from=${first:-$c}
		fi
	done
	[ -n "$from" ] && out="$out${out:+,}$from-"
	echo "$out"
}

# try "$@": whether keeping those calls still fails (each set booted once)
try() {
	local skip
	skip=$(skip_for "$@")
	[ -n "${tried[$skip]:-}" ] && return "${tried[$skip]}"
	[ "$boots" -lt "$maxboots" ] || return 1
	if boot "$prefix" "$skip"; then
		tried[$skip]=0 best_log=$last_log
		return 0
	fi
	tried[$skip]=1
	return 1
}

kept=("${cands[@]}")
log "ddmin over ${#kept[@]} calls (calls made before call $prefix)"
if [ "${#kept[@]}" -gt 0 ] && try; then
	kept=()
fi
n=2
while [ "${#kept[@]}" -ge 2 ] && [ "$boots" -lt "$maxboots" ]; do
	len=${#kept[@]} reduced=0
	# a chunk alone, then (for n > 2) all but a chunk
	for ((i = 0; i < n && !reduced; i++)); do
		from=$((i * len / n)) to=$(((i + 1) * len / n))
		sub=("${kept[@]:from:to-from}")
		if try "${sub[@]}"; then
			kept=("${sub[@]}") n=2 reduced=1
		fi
	done
	for ((i = 0; n > 2 && i < n && !reduced; i++)); do
		from=$((i * len / n)) to=$(((i + 1) * len / n))
		sub=("${kept[@]:0:from}" "${kept[@]:to}")
		if try "${sub[@]}"; then
			kept=("${sub[@]}") n=$((n > 3 ? n - 1 : 2)) reduced=1
		fi
	done
	[ "$reduced" = 1 ] && continue
	[ "$n" -ge "$len" ] && break
	n=$((2 * n < len ? 2 * n : len))
done
[ "$boots" -ge "$maxboots" ] && log "MAXBOOTS ($maxboots) reached: the last failing set follows"

skip=$(skip_for "${kept[@]}")
okl=$(ok_list "$prefix")
log "done: $boots boots, $((SECONDS - start)) s; log of the reproducer: $best_log"
echo "# reproducer: seed $seed, worker $worker, $prefix calls of $total," \
	"$(made_calls "$best_log" | wc -l) made (${#kept[@]} kept by ddmin${keep_last:+, and call $keep_last})"
echo "storm -s $seed -w $worker -n $prefix${skip:+ -k $skip}${okl:+ -o $okl} -v"
echo "# guest: APPEND=\"$(cat "${best_log%.log}.append")\" TESTS=storm bench/boot.sh ..."
echo "# its calls (-v):"
grep -aE "^w$worker\.[0-9.]+ " "$best_log" | grep -av '\[skipped\]' || true
echo "# the first matches of '$pattern':"
kernel_lines "$best_log" | grep -aE -- "$pattern" | head -n 5
