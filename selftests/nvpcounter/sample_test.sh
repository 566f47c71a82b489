#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# GPU counters over time with perf record (Documentation/perf.rst
# "Sampling"), in the test VM: the first chip of every generation (every
# chipset id the sim creates is tried; a perf record takes seconds under
# TCG, chips_test counts on every chip), at 100 kHz on the real-time
# clock, a group led by cpu-clock on the PMU's CPU:
#
#   perf record -C CPU -F 50 -e '{cpu-clock,PMU/D,cycles/,PMU/D,sig0=S1/}:S'
#
# with signal S1 held at 1 (sim.rst "wave ... const 1"). Each sample's
# period of a member is what it counted since the previous sample
# (perf's leader sampling). Quad mode (NV30+) reads the members of one
# domain from one swap: the always-true signal counts exactly the cycles
# of every sample. NV10:NV30 read live counters one register after the
# other, the model's real-time clock running between them: there the
# two may differ by the cycles between two reads (at most LIVE_SKEW at
# 100 kHz), and the first sample by the program start's 3 cycles more.
# On a G84 a third member, S2 high 4 cycles of every 16, counts a quarter
# of them to within 3 (any N consecutive cycles hold between floor(N/4)
# - 3 and ceil(N/4) + 3 such cycles). A counting event opened with a
# sample period of its own is refused.
# tools/testing/vm/guest-selftests.sh runs it; writes TAP to
# $NVPC_OUT/sample_test.tap.
set -u

TAP=$NVPC_OUT/sample_test.tap
SIM=/sys/kernel/debug/nvpcounter_sim
W=$NVPC_OUT/sample
HZ=100000
LIVE_SKEW=8
n=0
: > "$TAP"
mkdir -p "$W"

tap() {	# tap ok|fail DESC [REASON]
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n - $2" >> "$TAP"
	else
		echo "not ok $n - $2${3:+ # $3}" >> "$TAP"
	fi
	echo "sample_test: $(cut -d' ' -f1 /proc/uptime) $1 $2 ${3:-}"
}

# perf's fields of a domain name: main.I/hub.I, gpcG.I, partP.I
perf_dom() {
	local name=$1 set=${1%%.*} i=${1#*.}
	case $set in
	main|hub) echo "dom=$i" ;;
	gpc*) echo "dset=1,unit=${set#gpc},dom=$i" ;;
	part*) echo "dset=2,unit=${set#part},dom=$i" ;;
	esac
}

# the PMU of sim GPU 0
pmu_of_sim0() {
	local d
	for d in /sys/bus/event_source/devices/nvpcounter*; do
		if grep -qs ' sim\.0$' "$d/identifier"; then
			basename "$d"
			return 0
		fi
	done
	return 1
}

# check_samples FILE SKEW [QUARTER]: the perf script lines of FILE, in
# groups of cpu-clock, cycles, S1 (and S2 with QUARTER): S1 within SKEW
# of cycles in every sample (3 more in the first), S2 within 3 of cycles
# / 4, at least 5 samples, cycles counted; a failure's reason on stdout
check_samples() {
	awk -v skew="$2" -v quarter="${3:-}" '
	{ p = $1 + 0; ev = $2 }
	ev == "cpu-clock:" { k = 0; next }
	{ k++ }
	k == 1 { cyc = p; total += p; next }
	k == 2 {
		nsamp++
		d = p - cyc; if (d < 0) d = -d
		if (d > skew + (nsamp == 1 && skew ? 3 : 0)) {
			print "sample " nsamp ": S1 " p ", cycles " cyc; bad = 1
		}
		next
	}
	k == 3 && quarter != "" {
		lo = cyc / 4 - 3; hi = cyc / 4 + 3
		if (p < lo || p > hi) { print "sample " nsamp ": S2 " p " not cycles/4 " cyc / 4 " +- 3"; bad = 1 }
	}
	END {
		if (nsamp < 5) { print nsamp " samples, want 5 or more"; bad = 1 }
		if (total == 0) { print "no cycle counted"; bad = 1 }
		exit bad
	}' "$1"
}

insmod "$NVPC_MODULE_DIR/nvpcounter.ko" &&
	insmod "$NVPC_MODULE_DIR/nvpcounter_sim.ko"
if [ ! -d "$SIM" ]; then
	tap fail "modules loaded"
	exit 0
fi

chips=0
seen=" "
for id in $(seq 0 511); do
	echo "$id id=0" > "$SIM/create" 2> /dev/null || continue
	G=$SIM/gpu0
	chip=$(awk '$1 == "name" { print $2 }' "$G/info")
	gen=$(awk '$1 == "gen" { print $2 }' "$G/info")
	chips=$((chips + 1))
	case $seen in
	*" $gen "*)
		echo 0 > "$SIM/remove"
		continue ;;
	esac
	seen="$seen$gen "
	echo "all $HZ" > "$G/clocks"
	# the first domain that takes waveforms on signals 1 and 2
	dom=
	while read -r _ name _; do
		if echo "$name 1 const 1" > "$G/wave" 2> /dev/null &&
		   echo "$name 2 periodic 16 4 0" > "$G/wave" 2> /dev/null; then
			dom=$name
			break
		fi
	done < "$G/domains"
	echo realtime > "$G/clock"
	P=$(pmu_of_sim0)
	if [ -z "$dom" ] || [ -z "$P" ]; then
		tap fail "$chip: a domain with waveforms and a PMU" "dom '$dom' pmu '$P'"
		echo 0 > "$SIM/remove"
		continue
	fi
	D=$(perf_dom "$dom")
	cpu=$(cat "/sys/bus/event_source/devices/$P/cpumask")
	case $gen in
	NV10|NV15|NV20) skew=$LIVE_SKEW ;;
	*) skew=0 ;;
	esac
	ev="{cpu-clock,$P/$D,cycles/,$P/$D,sig0=1/"
	[ "$chip" = G84 ] && ev="$ev,$P/$D,sig0=2/"
	ev="$ev}:S"
	f=$W/$chip
	if timeout --kill-after=5 120 perf record -q -B -N -o "$f.data" -C "$cpu" -F 50 \
		-e "$ev" -- sleep 0.5 > "$f.record.txt" 2>&1 &&
	   timeout --kill-after=5 120 perf script -i "$f.data" \
		-F event,period > "$f.txt" 2>> "$f.record.txt"; then
		why=$(check_samples "$f.txt" "$skew" \
			"$([ "$chip" = G84 ] && echo quarter)")
		if [ -z "$why" ]; then
			tap ok "$gen $chip ($dom): perf record samples, S1 = cycles (+-$skew)"
		else
			tap fail "$gen $chip ($dom): perf record samples, S1 = cycles (+-$skew)" \
				"$(echo "$why" | head -1)"
		fi
	else
		tap fail "$gen $chip ($dom): perf record and perf script ran" \
			"$(tail -1 "$f.record.txt")"
	fi
	rm -f "$f.data" "$f.data.old"
	if [ "$chip" = G84 ]; then
		# its own sample period: perf's overflow path is not a module's
		if timeout 60 perf record -q -B -N -o "$f.own" -C "$cpu" -F 50 \
			-e "$P/$D,cycles/" -- true > "$f.own.txt" 2>&1; then
			tap fail "$chip: an event sampling on its own is refused"
		else
			tap ok "$chip: an event sampling on its own is refused"
		fi
		rm -f "$f.own"
	fi
	echo 0 > "$SIM/remove"
done
# the catalogue: 41 chips of 9 generations (Documentation/events.rst)
if [ "$chips" -eq 41 ] && [ "$(echo $seen | wc -w)" -eq 9 ]; then
	tap ok "every generation sampled ($seen)"
else
	tap fail "every generation sampled" "$chips chips, gens$seen"
fi
rmmod nvpcounter_sim nvpcounter
exit 0
