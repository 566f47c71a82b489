#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo, run inside the VM by tools/demo.sh: a simulated G84 in real
# time at its catalogue clocks (sysfs nominal_hz) whose graph domain runs
# a busy/idle pattern, counted live with perf stat -I; each line also
# shows the event's share of the domain's cycles in the same interval.
# At the end the sim says how fast its model ran against the wall clock
# and how much wall time it skipped (Documentation/sim.rst, stats); then
# a GF100 with four GPCs shows one event counting the whole GPU.
set -u
SIM=/sys/kernel/debug/nvpcounter_sim
MOD=${NVPC_MODULE_DIR:-/run/nvpc}
SECS=${NVPC_DEMO_SECS:-6}

say() { printf '\n### %s\n' "$*"; }

insmod "$MOD/nvpcounter.ko" || exit 1
insmod "$MOD/nvpcounter_sim.ko" || exit 1
echo g84 > $SIM/create
G=$SIM/gpu0
# graph (main.1) at the catalogue's 575 MHz: idle 30% of the time in
# bursts (period 1000, 300 idle), a unit busy 9 cycles in 20 (45%),
# another every 4th cycle (25%). Periodic sources let the model skip
# whole hyperperiods, so it can run in real time at these clocks.
echo "main.1 0xbd periodic 1000 300 0" > $G/wave	# graph_idle
echo "main.1 0x10 periodic 20 9 3" > $G/wave
echo "main.1 0x11 periodic 4 1 0" > $G/wave
echo realtime > $G/clock

# cycles main.1 has processed, and the wall time in ns
model_cycles() { awk '$2 == "main.1" { print $5 }' $G/domains; }
stat_val() { awk -v k="$1" '$1 == k { print $2 }' $G/stats; }

PMU=/sys/bus/event_source/devices/nvpcounter
say "PMU $(cat $PMU/identifier): format/ and a few of its $(find $PMU/events/ -type f | wc -l) events/"
(cd $PMU/format && grep . sig0 op cycles dom mode | tr '\n' ' '); echo
(cd $PMU/events && grep -H . graph_idle d1_cycles 2>/dev/null)
say "domains/ of the graph domain"
(cd $PMU/domains/main.1 && grep -H . clock nominal_hz signals trailer_base)

say "perf stat -a -I 1000 for ${SECS} s: named, raw and 'busy AND NOT idle' events"
echo "expected shares of cycles: graph_idle 30%, sig 0x10 45%, sig 0x11 25%,"
echo "busy AND NOT idle 45% x 70% = 31.5% (the idle bursts cover whole busy periods)"
c0=$(model_cycles); t0=$(date +%s%N); s0=$(stat_val rt_skipped_ns)
# op 0x2222: argument 0 and not argument 1 (pcounter.rst, Input selection)
perf stat -a -x';' -I 1000 \
	-e nvpcounter/d1_cycles/ \
	-e nvpcounter/graph_idle/ \
	-e nvpcounter/dom=1,sig0=0x10/ \
	-e nvpcounter/dom=1,sig0=0x11,slot=4/ \
	-e nvpcounter/dom=1,sig0=0x10,sig1=0xbd,op=0x2222/ \
	sleep "$SECS" 2>&1 | awk -F';' '
	/^#/ || NF < 4 { print; fflush(); next }
	{
		t = $1; v = $2; ev = $4
		if (ev ~ /d1_cycles/) cyc[t] = v
		share = (cyc[t] > 0) ? sprintf("%6.2f%% of cycles", 100 * v / cyc[t]) : ""
		printf "%10s %14s  %-48s %s\n", t, v, ev, share
		fflush()
	}'

c1=$(model_cycles); t1=$(date +%s%N); s1=$(stat_val rt_skipped_ns)

say "did the model keep up with the wall clock?"
awk -v c="$((c1 - c0))" -v t="$((t1 - t0))" -v s="$((s1 - s0))" \
    -v hz="$(cat $PMU/domains/main.1/nominal_hz)" 'BEGIN {
	rate = c / (t / 1e9)
	printf "main.1 ran %.0f cycles in %.2f s of wall time: %.0f cycles/s (nominal %.0f Hz, %.1f%%)\n",
		c, t / 1e9, rate, hz, 100 * rate / hz
	printf "wall time the sim skipped because the model lagged: %.3f s\n", s / 1e9
	if (s > 0.01 * t)
		print "NOTE: the sim could not keep up in real time here: the counts above cover less model time than wall time"
	else
		print "the model ran in real time at the catalogue clocks"
}'
grep -E '^(work|ns_per_work) ' $G/stats

say "after the run: slots free again, nothing lost"
(cd $PMU/domains/main.1 && grep -H . mode quad_state slots lost_periods saturations not_responding clock_hz)

# A workload with phases for record mode: while a capture
# runs, a background loop rewrites main.1's waveforms through the sim's
# wave file, so the capture, its intervals, the plot and nvpc top show
# shape. The plan, in seconds (a phase only gets longer: sleep and the
# writes overshoot, never undershoot):
#   idle   PH_IDLE1  graph_idle 1, 0x10 and 0x11 0 (set before the start)
#   busy   PH_BUSY   graph_idle 0, 0x10 75% (periodic 16 12), 0x11 25%
#   idle   PH_IDLE2  as the first
#   ramp   PH_STEP each: graph_idle 819, 614, 410, 205 of every 1024
#          cycles (80%, 60%, 40%, 20%), 0x10 busy exactly in the
#          others (complementary),
#          0x11 25%; the last step stays until the capture ends
# With intervals of IV ms the idle and busy phases are at least two
# intervals long, so each holds at least one whole interval. The plan
# takes 2.15 s; the capture and top end 0.6 s after it, however late a
# loaded host makes the phaser.
# This part records the same G84's graph domain at its catalogue clock
# (575 MHz), a packet every 4096 cycles (140,381 packets/s, 28,076 per
# interval): the sim writes the packets of periodic waveforms whose
# periods divide the packets' in closed form (sim.rst, "Record mode in
# closed form"), so it keeps up in real time.
W=$G/wave
IV=200
HZ=$(cat $PMU/domains/main.1/nominal_hz)
PH_IDLE1=0.4 PH_BUSY=0.6 PH_IDLE2=0.4 PH_STEP=0.25
wave_idle() {
	echo "main.1 0xbd const 1" > $W
	echo "main.1 0x10 const 0" > $W
	echo "main.1 0x11 const 0" > $W
}
wave_busy() {
	echo "main.1 0xbd const 0" > $W
	echo "main.1 0x10 periodic 16 12 0" > $W
	echo "main.1 0x11 periodic 4 1 0" > $W
}
# idle in cycles c % 1024 < $1, 0x10 busy in the rest (phase 1024 - $1)
wave_ramp() {
	local b=$((1024 - $1))

	echo "main.1 0xbd periodic 1024 $1 0" > $W
	echo "main.1 0x10 periodic 1024 $b $b" > $W
	echo "main.1 0x11 periodic 4 1 0" > $W
}
phases() {
	sleep $PH_IDLE1; wave_busy
	sleep $PH_BUSY; wave_idle
	sleep $PH_IDLE2
	for i in 819 614 410 205; do
		wave_ramp $i
		[ $i = 205 ] || sleep $PH_STEP
	done
}
# phases_then_end PID: the phases, then three intervals of the last
# step, then PID ends (SIGTERM: an end as asked, exit 0), however late a
# loaded host made the phases
phases_then_end() {
	phases
	sleep 0.6
	kill -TERM "$1"
}

say "record mode: nvpc record, main.1 packets through the perf AUX area while the graph domain idles, bursts, idles and ramps"
echo "plan: idle ${PH_IDLE1} s, busy ${PH_BUSY} s (0x10 75%, 0x11 25%), idle ${PH_IDLE2} s," \
	"then graph_idle 80/60/40/20% in ${PH_STEP} s steps (0x10 the rest)"
NVPC=$NVPC_TOP/build/nvpc/nvpc
CAP=$NVPC_OUT/demo.nvpc
rm -f "$CAP"
wave_idle
s0=$(stat_val rt_skipped_ns)
# the phases begin once the capture exists (the event is open; it is
# enabled right after the header is written); the recording ends
# (SIGTERM: an end as asked, exit 0) three intervals after them, not
# after a fixed time that a loaded host overruns (as top below);
# --duration only bounds it
"$NVPC" record -g nvpcounter -d main.1 -s graph_idle,0x10,0x11 --every 4096 \
	--clock $HZ --duration 60 -o "$CAP" 2>&1 &
rec=$!
( while [ ! -e "$CAP" ]; do sleep 0.02; done; phases_then_end $rec ) &
phaser=$!
wait $rec
wait $phaser
echo "the sim wrote $(stat_val record_fast_packets) packets in closed form," \
	"$(stat_val record_cycle_packets) cycle by cycle, and skipped" \
	"$(awk -v s="$(( $(stat_val rt_skipped_ns) - s0 ))" 'BEGIN { printf "%.3f", s / 1e9 }') s of wall time"
"$NVPC" report "$CAP" 2>&1
say "nvpc report -I $IV: the phases, interval by interval (graph_idle and 0x10)"
"$NVPC" report -I $IV -s graph_idle,0x10 "$CAP" 2>&1
if command -v gnuplot > /dev/null &&
   "$NVPC" plot "$CAP" -o "$NVPC_OUT/demo.svg" > /dev/null 2>&1; then
	echo "plot: build/vm/$(uname -r)/results/demo.svg"
fi

# The demo's own check (demo.tap, imported by the runner): the intervals
# show the plan. Bounds from the plan: an idle interval is graph_idle
# 100%, 0x10 and 0x11 0%; a busy one graph_idle 0%, 0x10 75%, 0x11 25%
# (+-0.5: a share of whole periods, 16 and 4 cycles, over 10^8 cycles);
# a ramp interval has graph_idle strictly between idle and busy and 0x10
# its complement; the ramp's steps of 80% and 60% make one whole
# interval at 60% or above, its last step (20%) lasts to the end.
# Columns of -I --csv: 8 graph_idle, 11 0x10, 14 0x11 busy %.
check_phases() {
	awk -F, -v what="$1" '
	function near(v, x) { return v >= x - 0.5 && v <= x + 0.5 }
	NR == 1 { next }
	{
		gi = $8; b = $11; c = $14; n++
		idle = near(gi, 100) && near(b, 0) && near(c, 0)
		busy = near(gi, 0) && near(b, 75) && near(c, 25)
		ramp = gi > 5 && gi < 95 && near(gi + b, 100) && near(c, 25)
		if (st == 0 && idle) st = 1
		else if (st == 1 && busy) st = 2
		else if (st == 2 && idle) st = 3
		else if (st >= 3 && ramp) {
			st = 4
			if (gi >= 59.5 && !hi) hi = 1
			if (gi <= 20.5 && hi) lo = 1
		}
	}
	END {
		ok = (st == 4 && hi && lo)
		names[0] = "no idle interval"; names[1] = "no busy interval after idle"
		names[2] = "no idle interval after the burst"; names[3] = "no ramp interval"
		names[4] = "the ramp did not go from >= 60% to <= 20% idle"
		printf "%s %d - %s: idle, busy, idle, ramp in %d intervals of '"$IV"' ms%s\n",
			ok ? "ok" : "not ok", what == "record" ? 1 : 2, what, n,
			ok ? "" : " # " names[st]
	}'
}
"$NVPC" report --csv -I $IV "$CAP" | check_phases record > "$NVPC_OUT/demo.tap.1"
cat "$NVPC_OUT/demo.tap.1"

# The live view of the same plan: nvpc top, not on a terminal, prints a
# line per interval; the phases begin with its first line (the
# recording runs then), so the first idle phase is an interval longer.
# It ends (SIGTERM, as q: its intervals shown, exit 0) three intervals
# after the phases, not after a fixed time: beside a CPU hog on every
# core the phaser took 4.2 s for its 2.15 s and top's 4 s ended in the
# ramp's 40% step. --duration only bounds it.
say "nvpc top -I $IV, not on a terminal (a line per interval), over the same phases"
wave_idle
rm -f "$NVPC_OUT/top.pid"
{
	"$NVPC" top -g nvpcounter -d main.1 -s graph_idle,0x10,0x11 \
		--every 4096 --clock $HZ -I $IV --duration 60 2>&1 &
	echo $! > "$NVPC_OUT/top.pid"
	wait $!
} | {
	p=
	while IFS= read -r l; do
		printf '%s\n' "$l"
		[ -n "$p" ] || {
			phases_then_end "$(cat "$NVPC_OUT/top.pid")" &
			p=$!
		}
	done
	[ -z "$p" ] || wait $p
} | tee "$NVPC_OUT/demo-top.txt"
rm -f "$NVPC_OUT/top.pid"
# "0.200  graph_idle 100.00%  0x10 0.00%  0x11 0.00%" as -I --csv columns
awk 'BEGIN { print "header" }
	$2 == "graph_idle" && $4 == "0x10" && $6 == "0x11" {
		gsub("%", ""); printf ",,,,,,,%s,,,%s,,,%s\n", $3, $5, $7
	}' "$NVPC_OUT/demo-top.txt" | check_phases top > "$NVPC_OUT/demo.tap.2"
cat "$NVPC_OUT/demo.tap.2"
{
	echo "TAP version 13"
	echo "1..2"
	cat "$NVPC_OUT/demo.tap.1" "$NVPC_OUT/demo.tap.2"
} > "$NVPC_OUT/demo.tap"
rm -f "$NVPC_OUT/demo.tap.1" "$NVPC_OUT/demo.tap.2"
echo 0 > $SIM/remove


# Documentation/perf.rst "Whole-GPU counts": the worked example
say "whole-GPU counts: a GF100 with 4 GPCs, signal 3 of each at its own rate, one event sums them"
echo "gf100 gpcs=4 parts=2 id=1" > $SIM/create
G1=$SIM/gpu1
P1=/sys/bus/event_source/devices/nvpcounter_1
echo "all 1000000" > $G1/clocks
echo "gpc0.0 3 periodic 10 1 0" > $G1/wave
echo "gpc1.0 3 periodic 7 2 1" > $G1/wave
echo "gpc2.0 3 periodic 5 3 4" > $G1/wave
echo "gpc3.0 3 periodic 4 1 2" > $G1/wave
(cd $P1/events && grep -H . gpc_d0_cycles gpc_d0_user_1)
echo "expected over 420 cycles: GPC 0-3 42, 120, 252, 105; allunits 519; gpc_d0_cycles 4 x 420 = 1680"
perf stat -a -x';' -e nvpcounter_1/dset=1,dom=0,sig0=3,allunits/ \
	-e nvpcounter_1/gpc_d0_cycles/ \
	-e nvpcounter_1/dset=1,dom=0,sig0=3,unit=0/ -e nvpcounter_1/dset=1,dom=0,sig0=3,unit=1/ \
	-e nvpcounter_1/dset=1,dom=0,sig0=3,unit=2/ -e nvpcounter_1/dset=1,dom=0,sig0=3,unit=3/ \
	-- sh -c "echo '420 gpc0.0' > $G1/advance" 2>&1 |
	awk -F';' 'NF >= 3 { printf "%14s  %s\n", $1, $3; next } { print }'
echo 1 > $SIM/remove
rmmod nvpcounter_sim nvpcounter
