#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo, run inside the VM by tools/demo.sh: a simulated G84 in real
# time whose graph domain runs a busy/idle pattern, counted live with
# perf stat -I; each line also shows the event's share of the domain's
# cycles in the same interval.
set -u
SIM=/sys/kernel/debug/nvpcounter_sim
MOD=${NVPC_MODULE_DIR:-/run/nvpc}
SECS=${NVPC_DEMO_SECS:-8}

say() { printf '\n### %s\n' "$*"; }

insmod "$MOD/nvpcounter.ko" || exit 1
insmod "$MOD/nvpcounter_sim.ko" || exit 1
echo g84 > $SIM/create
G=$SIM/gpu0
# 100 kHz per domain keeps the model real time under QEMU TCG
echo "all 100000" > $G/clocks
# graph (main.1): idle 30% of the time in bursts (period 1000, 300 idle),
# a unit busy on a random 45% of cycles, another every 4th cycle
echo "main.1 0xbd periodic 1000 300 0" > $G/wave	# graph_idle
echo "main.1 0x10 random 7 29491" > $G/wave		# 45% of 65536
echo "main.1 0x11 periodic 4 1 0" > $G/wave
echo realtime > $G/clock

PMU=/sys/bus/event_source/devices/nvpcounter
say "PMU $(cat $PMU/identifier): format/ and a few of its $(find $PMU/events/ -type f | wc -l) events/"
(cd $PMU/format && grep . sig0 op cycles dom mode | tr '\n' ' '); echo
(cd $PMU/events && grep -H . graph_idle d1_cycles 2>/dev/null)
say "domains/ of the graph domain"
(cd $PMU/domains/main.1 && grep -H . clock nominal_hz signals trailer_base)

say "perf stat -a -I 1000 for ${SECS} s: named, raw and 'busy AND NOT idle' events"
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

say "after the run: slots free again, nothing lost"
(cd $PMU/domains/main.1 && grep -H . mode quad_state slots lost_periods saturations not_responding clock_hz)
echo 0 > $SIM/remove
rmmod nvpcounter_sim nvpcounter
