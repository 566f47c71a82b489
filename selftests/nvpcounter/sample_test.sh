#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# GPU counters over time with perf record (Documentation/perf.rst
# "Sampling"), in the test VM: the first chip of every generation (every
# chipset id the sim creates is tried), all at once, each sampled by a
# group led by cpu-clock on its PMU's CPU, one perf record for all the
# GPUs of one CPU (a perf record takes seconds under TCG):
#
#   perf record -C CPU -F 50 -e '{cpu-clock,PMU/D,cycles/,PMU/D,sig0=S1/}:S' ...
#
# with signal S1 held at 1 (sim.rst "wave ... const 1"), on the manual
# clock: the workload advances each GPU's domain ADV cycles NR_ADV times
# (20 ms apart), then waits while perf samples the settled model. Each
# sample's period of a member is what it counted since the previous
# sample (perf's leader sampling), and the periods of a member sum to its
# count at the last sample. Expected, from the documents:
# - quad mode (NV30+) reads the members of one domain from one swap, so
#   S1 counts exactly the cycles of every sample, and both sum to
#   ADV * NR_ADV;
# - NV10:NV30 read live counters one register after the other, and an
#   advance may land between two reads, so one sample's two members may
#   differ; their sums do not: ADV * NR_ADV less the 3 cycles the
#   program's start does not count (perf.rst "Counting"), for both;
# - on the G84 a third member, S2 high 4 cycles of every 16 from cycle 0,
#   counts a quarter of each sample's cycles to within 3 (any N
#   consecutive cycles hold between floor(N/4) - 3 and ceil(N/4) + 3 of
#   them) and sums to exactly a quarter of ADV * NR_ADV (16 divides it).
# A counting event opened with a sample period of its own is refused.
set -u

TAP=$NVPC_OUT/sample_test.tap
SIM=/sys/kernel/debug/nvpcounter_sim
W=$NVPC_OUT/sample
ADV=1000
NR_ADV=50
n=0
: > "$TAP"
mkdir -p "$W"

# NVPC_TIME_SCALE (>= 1, tools/testing/vm/guest-lib.sh): how much slower
# than an idle machine the guest runs now. Bounds on waits for something
# to happen are scaled by it, never a duration the test measures.
scaled() {	# scaled SECS: whole seconds, rounded up
	awk -v s="$1" -v f="${NVPC_TIME_SCALE:-1}" \
		'BEGIN { v = s * (f < 1 ? 1 : f); printf "%d\n", v == int(v) ? v : int(v) + 1 }'
}

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

# the PMU of sim GPU $1
pmu_of_sim() {
	local d
	for d in /sys/bus/event_source/devices/nvpcounter*; do
		if grep -qs " sim\.$1\$" "$d/identifier"; then
			basename "$d"
			return 0
		fi
	done
	return 1
}

# check_samples FILE PMU LIVE [QUARTER]: the perf script lines of FILE
# for PMU (cycles, S1 and, with QUARTER, S2 of each sample) against the
# expectations above; a failure's reason on stdout
check_samples() {
	awk -v pmu="$2/" -v live="$3" -v quarter="${4:-}" \
	    -v want=$((ADV * NR_ADV)) '
	{ p = $1 + 0; ev = $2 }
	index(ev, pmu) != 1 { next }
	ev ~ /,cycles\/:$/ { cyc = p; tc += p; next }
	ev ~ /,sig0=1\/:$/ {
		nsamp++; t1 += p
		if (!live && p != cyc) {
			print "sample " nsamp ": S1 " p ", cycles " cyc; bad = 1
		}
		next
	}
	ev ~ /,sig0=2\/:$/ && quarter != "" {
		t2 += p
		if (p < cyc / 4 - 3 || p > cyc / 4 + 3) {
			print "sample " nsamp ": S2 " p ", cycles " cyc; bad = 1
		}
	}
	END {
		w = live ? want - 3 : want
		if (nsamp < 5) { print nsamp " samples, want 5 or more"; bad = 1 }
		if (tc != w || t1 != w) {
			print "sums: cycles " tc ", S1 " t1 ", want " w; bad = 1
		}
		if (quarter != "" && t2 != want / 4) {
			print "S2 sums to " t2 ", want " want / 4; bad = 1
		}
		exit bad
	}' "$1"
}

# (the runner unloads both before each test: a module still loaded is
# another test's state, said loudly, not reused)
if ! insmod "$NVPC_MODULE_DIR/nvpcounter.ko" 2> "$W/insmod.txt" ||
   ! insmod "$NVPC_MODULE_DIR/nvpcounter_sim.ko" 2>> "$W/insmod.txt" ||
   [ ! -d "$SIM" ]; then
	tap fail "modules loaded" "$(tr '\n' ' ' < "$W/insmod.txt")"
	exit 1
fi

# one GPU per generation, ids 0, 1, ...: GEN CHIP DOMAIN PMU CPU ID
chips=0
seen=" "
next=0
: > "$W/gpus"
for id in $(seq 0 511); do
	echo "$id id=$next" > "$SIM/create" 2> /dev/null || continue
	G=$SIM/gpu$next
	chip=$(awk '$1 == "name" { print $2 }' "$G/info")
	gen=$(awk '$1 == "gen" { print $2 }' "$G/info")
	chips=$((chips + 1))
	case $seen in
	*" $gen "*)
		echo $next > "$SIM/remove"
		continue ;;
	esac
	seen="$seen$gen "
	# the first domain that takes waveforms on signals 1 and 2
	dom=
	while read -r _ name _; do
		if echo "$name 1 const 1" > "$G/wave" 2> /dev/null &&
		   echo "$name 2 periodic 16 4 0" > "$G/wave" 2> /dev/null; then
			dom=$name
			break
		fi
	done < "$G/domains"
	P=$(pmu_of_sim $next)
	if [ -z "$dom" ] || [ -z "$P" ]; then
		tap fail "$gen $chip: a domain with waveforms and a PMU" \
			"dom '$dom' pmu '$P'"
		echo $next > "$SIM/remove"
		continue
	fi
	echo "$gen $chip $dom $P $(cat "/sys/bus/event_source/devices/$P/cpumask") $next" \
		>> "$W/gpus"
	next=$((next + 1))
done
# the catalogue: 41 chips of 9 generations (Documentation/events.rst)
if [ "$chips" -eq 41 ] && [ "$(echo $seen | wc -w)" -eq 9 ]; then
	tap ok "every generation created ($seen)"
else
	tap fail "every generation created" "$chips chips, gens$seen"
fi

# one perf record per CPU that holds PMUs, and the refusal of an event
# sampling on its own: all at once (each is seconds of perf's own work
# under TCG, the guest has a vCPU for each; the counts are on the manual
# clock, and each record's workload advances only its own CPU's GPUs)
cpus=$(awk '{ print $5 }' "$W/gpus" | sort -u)
pids=()
for cpu in $cpus; do
	args=()
	work="for i in \$(seq $NR_ADV); do"
	while read -r gen chip dom P c gid; do
		[ "$c" = "$cpu" ] || continue
		work="$work echo $ADV $dom > $SIM/gpu$gid/advance;"
		D=$(perf_dom "$dom")
		ev="{cpu-clock,$P/$D,cycles/,$P/$D,sig0=1/"
		[ "$chip" = G84 ] && ev="$ev,$P/$D,sig0=2/"
		args+=(-e "$ev}:S")
	done < "$W/gpus"
	work="$work sleep 0.02; done; sleep 0.4"
	f=$W/cpu$cpu
	(
		timeout --kill-after=5 "$(scaled 300)" perf record -q -B -N \
			-o "$f.data" -C "$cpu" -F 50 "${args[@]}" \
			-- sh -c "$work" > "$f.record.txt" 2>&1 &&
		timeout --kill-after=5 "$(scaled 300)" perf script \
			-i "$f.data" -F event,period > "$f.txt" \
			2>> "$f.record.txt"
		echo $? > "$f.rc"
	) &
	pids+=($!)
done

# its own sample period: perf's overflow path is not a module's
dom='' P='' cpu=''
read -r _ _ dom P cpu _ <<EOF2
$(grep " G84 " "$W/gpus")
EOF2
# (refused with EOPNOTSUPP, which perf 6.1 reports as "PMU Hardware
# doesn't support sampling/overflow-interrupts"; a perf record cut by its
# bound is no refusal; without a G84 there is no event to ask with)
if [ -z "$P" ]; then
	echo "no G84 among the GPUs created" > "$W/own.txt"
	echo none > "$W/own.rc"
else
	(
		timeout "$(scaled 600)" perf record -B -N -o "$W/own.data" \
			-C "$cpu" -F 50 -e "$P/$(perf_dom "$dom"),cycles/" \
			-- true > "$W/own.txt" 2>&1
		echo $? > "$W/own.rc"
	) &
	pids+=($!)
fi
wait "${pids[@]}"

for cpu in $cpus; do
	f=$W/cpu$cpu
	if [ "$(cat "$f.rc" 2> /dev/null)" != 0 ]; then
		tap fail "CPU $cpu: perf record and perf script ran" \
			"$(tail -1 "$f.record.txt")"
		continue
	fi
	rm -f "$f.data"
	while read -r gen chip dom P c gid; do
		[ "$c" = "$cpu" ] || continue
		case $gen in
		NV10|NV15|NV20) live=1 what="sums" ;;
		*) live=0 what="each sample" ;;
		esac
		why=$(check_samples "$f.txt" "$P" "$live" \
			"$([ "$chip" = G84 ] && echo quarter)")
		if [ -z "$why" ]; then
			tap ok "$gen $chip ($dom): perf record: S1 = cycles in $what"
		else
			tap fail "$gen $chip ($dom): perf record: S1 = cycles in $what" \
				"$(echo "$why" | head -1)"
		fi
	done < "$W/gpus"
done

rc=$(cat "$W/own.rc" 2> /dev/null)
if [ "$rc" != 0 ] && [ "$rc" != 124 ] && [ "$rc" != none ] &&
   [ -n "$rc" ] && grep -q "support" "$W/own.txt"; then
	tap ok "an event sampling on its own is refused"
else
	tap fail "an event sampling on its own is refused" \
		"perf record exit $rc: $(tr '\n' ' ' < "$W/own.txt" | cut -c1-200)"
fi
rm -f "$W/own.data"
for i in $(seq 0 $((next - 1))); do
	echo "$i" > "$SIM/remove"
done
rmmod nvpcounter_sim nvpcounter
exit 0
