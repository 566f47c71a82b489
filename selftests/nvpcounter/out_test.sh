#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where nvpc writes, and what it takes from its environment, in the test
# VM (tools/testing/vm/guest-selftests.sh runs it; TAP in
# $NVPC_OUT/out_test.tap):
#
# - -o never replaces a link or a special file (Documentation/nvpc.rst
#   "Output files"): /dev/stdout and /dev/stderr are the descriptors, for
#   report, plot, top and record; in a mount namespace of this test's
#   own, over a tmpfs /dev made for it, so that the old code's rename
#   lands there and not on the guest's /dev. A link to a regular file
#   is written through (top -J -o LINK, record -o LINK keeping the
#   target as TARGET.old), a named pipe in place (record, plot).
# - the test hooks $NVPC_SYSFS and $NVPC_TOP_REPLAY are not honoured by
#   a copy of nvpc carrying cap_perfmon+ep run by an unprivileged user
#   (Documentation/monitoring.rst "Without root"), and still are by a
#   plain copy (the host tests' hooks).
#
# A simulated G84 at 100 kHz; main.1's signal 0x11 held at 1.
set -u

TAP=$NVPC_OUT/out_test.tap
NVPC=$NVPC_TOP/build/nvpc/nvpc
SIM=/sys/kernel/debug/nvpcounter_sim
W=$NVPC_OUT/out
HZ=100000
CAPDIR=/run/nvpc-out-test
n=0
: > "$TAP"
rm -rf "$W"
mkdir -p "$W"

scaled() {	# scaled SECS: whole seconds, rounded up (guest-lib.sh)
	awk -v s="$1" -v f="${NVPC_TIME_SCALE:-1}" \
		'BEGIN { v = s * (f < 1 ? 1 : f); printf "%d\n", v == int(v) ? v : int(v) + 1 }'
}

tap() {	# tap ok|fail|skip DESC [REASON]
	n=$((n + 1))
	case $1 in
	ok)	echo "ok $n - $2" >> "$TAP" ;;
	skip)	echo "ok $n - $2 # SKIP ${3:-}" >> "$TAP" ;;
	*)	echo "not ok $n - $2${3:+ # $3}" >> "$TAP" ;;
	esac
	echo "out_test: $1 $2 ${3:-}"
}

check() {	# check DESC COMMAND...
	local desc=$1
	shift
	if "$@"; then tap ok "$desc"; else tap fail "$desc"; fi
}

BOUND=$(scaled 60)
nvpc() { timeout --kill-after=5 "$BOUND" "$NVPC" "$@"; }

# is_capture FILE [MIN]: a complete nvpc capture with at least MIN
# packets (default 1). Where the subject is where a capture lands (a
# link's target, a pipe, stdout) MIN is 0: a recording right after
# another on the same domain may start on probation and, on a loaded
# machine, publish no packet in its 0.3 s (record.rst "The outgoing
# packet"), which is not what those checks are about
is_capture() {
	nvpc report --json "$1" 2> /dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
sys.exit(not (d["complete"] and d["packets"] >= int(sys.argv[1])))' "${2:-1}"
}

cleanup() {
	mountpoint -q "$CAPDIR" && umount "$CAPDIR"
	rmdir "$CAPDIR" 2> /dev/null
	[ -n "${PARANOID:-}" ] && echo "$PARANOID" > /proc/sys/kernel/perf_event_paranoid
}
trap cleanup EXIT
# a tmpfs of our own: the named pipes (the results share, 9p, makes a
# regular file of a mkfifo) and the copies of nvpc (no nosuid)
mkdir -p "$CAPDIR"
mount -t tmpfs -o mode=0755 nvpc-out-test "$CAPDIR"

if ! insmod "$NVPC_MODULE_DIR/nvpcounter.ko" 2> "$W/insmod.txt" ||
   ! insmod "$NVPC_MODULE_DIR/nvpcounter_sim.ko" 2>> "$W/insmod.txt"; then
	tap fail "modules loaded" "$(tr '\n' ' ' < "$W/insmod.txt")"
	echo "1..$n" >> "$TAP"
	exit 1
fi
echo "g84 id=0" > "$SIM/create"
echo "all $HZ" > "$SIM/gpu0/clocks"
echo "main.1 0x11 const 1" > "$SIM/gpu0/wave"
echo realtime > "$SIM/gpu0/clock"
PMU=
for d in /sys/bus/event_source/devices/nvpcounter*; do
	grep -qs ' sim\.0$' "$d/identifier" && PMU=$(basename "$d")
done
check "simulated G84 has a PMU (${PMU:-none})" test -n "$PMU"
REC=(-g "$PMU" -d main.1 -s 0x11 --every 1024 --clock "$HZ" --duration 0.3)
nvpc record "${REC[@]}" -o "$W/cap.nvpc" > "$W/cap.txt" 2>&1
check "a capture to write from" is_capture "$W/cap.nvpc"

# --- /dev/stdout and /dev/stderr, in a mount namespace ---------------------
# /dev there is a tmpfs with what udev's links are (init.sh makes the
# same on the guest's devtmpfs): fd, stdout, stderr; and null
unshare -m --propagation private bash -c '
	nvpc=$1 w=$2 cap=$3
	shift 3
	mount -t tmpfs -o mode=0755 nvpc-out-dev /dev || exit 1
	mknod -m 0666 /dev/null c 1 3 &&
	ln -s /proc/self/fd /dev/fd &&
	ln -s /proc/self/fd/1 /dev/stdout &&
	ln -s /proc/self/fd/2 /dev/stderr || exit 1
	# which of /dev/stdout and /dev/stderr are still the links
	links() { for l in stdout stderr; do [ -L /dev/$l ] && echo -n "$l "; done; echo; }
	"$nvpc" report -o /dev/stdout "$cap" > "$w/stdout.txt" 2> "$w/stdout.err"
	echo "report $? $(links)" > "$w/ns.txt"
	"$nvpc" report --csv -o /dev/stderr "$cap" 2> "$w/stderr.txt"
	echo "report-stderr $? $(links)" >> "$w/ns.txt"
	"$nvpc" top -J -I 200 -n 1 -o /dev/stdout > "$w/top.json" 2> "$w/top.err"
	echo "top $? $(links)" >> "$w/ns.txt"
	"$nvpc" record "$@" -o /dev/stdout > "$w/rec.nvpc" 2> "$w/rec.err"
	echo "record $? $(links)" >> "$w/ns.txt"
	if command -v gnuplot > /dev/null; then
		"$nvpc" plot -o /dev/stdout "$cap" > "$w/plot.svg" 2> "$w/plot.err"
		echo "plot $? $(links)" >> "$w/ns.txt"
	fi
' nvpc-out "$NVPC" "$W" "$W/cap.nvpc" "${REC[@]}"
sed 's/^/# /' "$W/ns.txt" "$W"/*.err 2> /dev/null
# ns WHAT: WHAT exited 0 and left /dev/stdout and /dev/stderr links
ns() { grep -qx "$1 0 stdout stderr " "$W/ns.txt"; }
# one_interval JSON: top -J -n 1's array of one interval
one_interval() {
	python3 -c 'import json, sys; sys.exit(len(json.load(open(sys.argv[1]))) != 1)' "$1"
}
check "report -o /dev/stdout: exit 0, /dev/stdout still a link, the report on stdout" \
	eval "ns report && grep -q 'nvpc capture, format version' '$W/stdout.txt'"
check "report -o /dev/stderr: exit 0, /dev/stderr still a link, the CSV on stderr" \
	eval "ns report-stderr && grep -q '^segment,time_ns,' '$W/stderr.txt'"
check "top -J -o /dev/stdout: exit 0, /dev/stdout still a link, JSON on stdout" \
	eval "ns top && one_interval '$W/top.json'"
check "record -o /dev/stdout: exit 0, /dev/stdout still a link, the capture on stdout" \
	eval "ns record && is_capture '$W/rec.nvpc' 0"
if command -v gnuplot > /dev/null; then
	check "plot -o /dev/stdout: exit 0, /dev/stdout still a link, SVG on stdout" \
		eval "ns plot && grep -q '<svg' '$W/plot.svg'"
else
	tap skip "plot -o /dev/stdout" "no gnuplot"
fi
check "the guest's own /dev/stdout is untouched (a link)" test -L /dev/stdout

# --- a link to a regular file, a named pipe --------------------------------
mkdir -p "$W/t"
echo "the user's notes" > "$W/t/top.json"
ln -s t/top.json "$W/top-link.json"
nvpc top -J -I 200 -n 1 -o "$W/top-link.json" > "$W/top-link.out" 2>&1
rc=$?
check "top -J -o LINK: exit 0, the link stays, its target has the JSON" \
	eval "test $rc -eq 0 && test \"\$(readlink '$W/top-link.json')\" = t/top.json &&
	      one_interval '$W/t/top.json'"
echo "the user's notes" > "$W/t/rec.nvpc"
ln -s t/rec.nvpc "$W/rec-link.nvpc"
nvpc record "${REC[@]}" -o "$W/rec-link.nvpc" > "$W/rec-link.out" 2>&1
rc=$?
ls -l "$W" "$W/t" | sed 's/^/# /'
check "record -o LINK: exit 0, the link stays, its target the capture" \
	eval "test $rc -eq 0 && test \"\$(readlink '$W/rec-link.nvpc')\" = t/rec.nvpc &&
	      is_capture '$W/t/rec.nvpc' 0"
check "record -o LINK: the target before kept as TARGET.old, no LINK.old" \
	eval "grep -qx \"the user's notes\" '$W/t/rec.nvpc.old' && test ! -e '$W/rec-link.nvpc.old' -a ! -L '$W/rec-link.nvpc.old'"
mkfifo "$CAPDIR/rec.fifo"
timeout "$BOUND" cat "$CAPDIR/rec.fifo" > "$W/rec-fifo.nvpc" &
nvpc record "${REC[@]}" -o "$CAPDIR/rec.fifo" > "$W/rec-fifo.out" 2>&1
rc=$?
wait
check "record -o FIFO: exit 0, still a named pipe, the capture through it" \
	eval "test $rc -eq 0 -a -p '$CAPDIR/rec.fifo' && is_capture '$W/rec-fifo.nvpc' 0"
if command -v gnuplot > /dev/null; then
	mkfifo "$CAPDIR/live.svg"
	timeout "$BOUND" cat "$CAPDIR/live.svg" > "$W/live-got.svg" &
	nvpc plot -o "$CAPDIR/live.svg" "$W/cap.nvpc" > "$W/live.out" 2>&1
	rc=$?
	# (the old code renamed a file over the pipe: cat waits for its bound)
	[ -p "$CAPDIR/live.svg" ] || kill %% 2> /dev/null
	wait
	check "plot -o live.svg, a named pipe: exit 0, still a pipe, SVG through it" \
		eval "test $rc -eq 0 -a -p '$CAPDIR/live.svg' && grep -q '<svg' '$W/live-got.svg'"
else
	tap skip "plot -o live.svg, a named pipe" "no gnuplot"
fi

# --- the test hooks under a file capability -------------------------------
# a fake tree whose only PMU says FAKE, and a replay that is not there;
# a copy of nvpc with cap_perfmon+ep, one without, on the tmpfs,
# run as nobody at perf_event_paranoid 2
F=$CAPDIR/fake/nvpcounter
mkdir -p "$F/domains/main.0" "$F/events"
echo 2000000000 > "$F/type"
echo 0 > "$F/cpumask"
echo "FAKE fake.0" > "$F/identifier"
echo 96 > "$F/domains/main.0/signals"
echo 100000000 > "$F/domains/main.0/nominal_hz"
echo host > "$F/domains/main.0/clock"
echo 0 > "$F/domains/main.0/record_aux_max"
chmod -R a+rX "$CAPDIR/fake"
install -m 0755 "$NVPC" "$CAPDIR/nvpc-cap"
install -m 0755 "$NVPC" "$CAPDIR/nvpc-plain"
setcap cap_perfmon+ep "$CAPDIR/nvpc-cap"
getcap "$CAPDIR/nvpc-cap" | sed 's/^/# /'
PARANOID=$(cat /proc/sys/kernel/perf_event_paranoid)
echo 2 > /proc/sys/kernel/perf_event_paranoid
nobody() {	# nobody NAME OUT ENV... nvpc ARGS
	local bin=$1 out=$2
	shift 2
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		env "$@" > "$out" 2>&1
	echo $? >> "$out"
	sed "s/^/# $bin: /" "$out"
}
( cd /tmp && nobody plain "$W/plain-list.txt" NVPC_SYSFS="$CAPDIR/fake" \
	timeout "$BOUND" "$CAPDIR/nvpc-plain" list )
check "a plain copy honours NVPC_SYSFS (the host tests' hook): the FAKE PMU" \
	grep -q "FAKE fake.0" "$W/plain-list.txt"
( cd /tmp && nobody cap "$W/cap-list.txt" NVPC_SYSFS="$CAPDIR/fake" \
	timeout "$BOUND" "$CAPDIR/nvpc-cap" list )
check "cap_perfmon+ep as nobody ignores NVPC_SYSFS: the simulated G84, no FAKE" \
	eval "grep -q 'G84 sim.0' '$W/cap-list.txt' && ! grep -q FAKE '$W/cap-list.txt'"
( cd /tmp && nobody plain "$W/plain-top.txt" \
	NVPC_TOP_REPLAY="$W/no-such-replay.nvpc" \
	timeout "$BOUND" "$CAPDIR/nvpc-plain" top -g "$PMU" -d main.1 -s 0x11 \
	--clock $HZ -I 200 -n 1 -J )
check "a plain copy honours NVPC_TOP_REPLAY: it tries the replay" \
	grep -q "NVPC_TOP_REPLAY $W/no-such-replay.nvpc" "$W/plain-top.txt"
( cd /tmp && nobody cap "$W/cap-top.txt" \
	NVPC_TOP_REPLAY="$W/no-such-replay.nvpc" \
	timeout "$BOUND" "$CAPDIR/nvpc-cap" top -g "$PMU" -d main.1 -s 0x11 \
	--clock $HZ -I 200 -n 1 -J )
check "cap_perfmon+ep as nobody ignores NVPC_TOP_REPLAY: it records the G84, exit 0" \
	eval "! grep -q NVPC_TOP_REPLAY '$W/cap-top.txt' && test \"\$(tail -1 '$W/cap-top.txt')\" = 0 &&
	       grep -q '\"busy_pct\": 100.0' '$W/cap-top.txt'"

echo 0 > "$SIM/remove"
echo "1..$n" >> "$TAP"
