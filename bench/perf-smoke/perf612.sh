# perf_smoke612, perf_test612: perf_smoke's checks and perf_test with the
# base's own perf 6.12 (ours, built by bench/perf-jevents.sh;
# bench/initramfs.sh sets PERF612 above) first on PATH instead of Debian's
# 6.1.  Put in front of checks.sh and perf-test.sh.
if [ ! -x "$PERF612" ]; then
	echo "1..1"
	echo "ok 1 perf612 # SKIP no perf 6.12 at $PERF612 (make perf-jevents)"
	echo "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:1 error:0"
	exit 0
fi
mkdir -p /tmp/perf612
ln -sf "$PERF612" /tmp/perf612/perf
PATH=/tmp/perf612:$PATH
echo "# $(perf version)"
