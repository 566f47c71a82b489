#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM for `make bench` (tools/testing/vmbench).
set -u
"$NVPC_TOP/build/bench/readbench"
echo "readbench exit $?"

# --- record mode --------------------------------------------------------
# A real-time G84 whose main.1 records a packet every 1024 cycles (the
# PERIODIC generator's shortest period) at a sweep of domain clocks: the
# sim cannot run record mode at the catalogue's 575 MHz under TCG
# (Documentation/sim.rst), so the clock sets the STOP rate and the sim's
# rt_skipped_ns says up to which rate it kept up. Per rate: packets/s and
# MB/s the tool got, what was lost (stalls, gaps), the share of the PMU's
# CPU the recording took (a hog pinned there alone, then beside the
# recording; nvpc runs on the other CPU) per packet, and the ratio to
# what perf stat -I can sample. That share is the driver's drain (hard
# irq on that CPU) plus the sim's model runs there (its real-time worker
# and catch-up at register accesses): the model's work dominates, so it
# bounds the driver's CPU time per packet from above.
SIM=/sys/kernel/debug/nvpcounter_sim
MOD=${NVPC_MODULE_DIR:-/run/nvpc}
NVPC=$NVPC_TOP/build/nvpc/nvpc
HOG=$NVPC_TOP/build/bench/hog
SECS=3
[ -e $SIM/create ] || { insmod "$MOD/nvpcounter.ko" && insmod "$MOD/nvpcounter_sim.ko"; } || exit 1
EVS=/sys/bus/event_source/devices
# new_gpu ARGS: create a GPU; its debugfs directory in G, its PMU in
# PMUNAME and PMU, the PMU's CPU in cpu and the other CPU in other
# (readbench's GPU may still be there: this one's PMU is the new name)
new_gpu() {
	local before pmus
	before=$(ls -d $SIM/gpu* 2>/dev/null)
	pmus=$(ls $EVS)
	echo "$1" > $SIM/create || exit 1
	G=$(ls -d $SIM/gpu* | grep -vxF "$before" | head -1)
	PMUNAME=$(ls $EVS | grep -vxF "$pmus" | head -1)
	PMU=$EVS/$PMUNAME
	cpu=$(cat $PMU/cpumask)
	other=$(( (cpu + 1) % $(nproc) ))
}
new_gpu g84
D=$PMU/domains/main.1
stat_val() { awk -v k="$1" '$1 == k { print $2 }' $G/stats; }

echo
echo "== record mode: main.1, a packet every 1024 cycles, ${SECS} s per rate (nvpc on CPU $other, drain on CPU $cpu)"
printf "%10s %12s %12s %9s %7s %6s %6s %9s %11s\n" clock_hz "expected/s" packets/s MB/s kept_up stalls gaps cpu_share us/packet
best=0
for hz in 1000000 2000000 5000000 10000000 20000000; do
	echo "all $hz" > $G/clocks || continue
	echo "main.1 0xbd periodic 1000 300 0" > $G/wave
	echo "main.1 0x10 periodic 20 9 3" > $G/wave
	echo realtime > $G/clock
	base=$(taskset -c "$cpu" "$HOG" 2)
	s0=$(stat_val rt_skipped_ns); g0=$(cat $D/record_gaps); st0=$(cat $D/record_stalls)
	t0=$(date +%s%N)
	taskset -c "$cpu" "$HOG" $SECS > "$NVPC_OUT/hog.out" &
	hog=$!
	taskset -c "$other" "$NVPC" record -g "$PMUNAME" -d main.1 \
		-s graph_idle,0x10 --every 1024 --aux-pages 256 \
		--duration $SECS -o "$NVPC_OUT/bench.nvpc" > "$NVPC_OUT/rec.out" 2>&1
	wait $hog
	t1=$(date +%s%N); s1=$(stat_val rt_skipped_ns)
	g1=$(cat $D/record_gaps); st1=$(cat $D/record_stalls)
	# no process substitution: the guest has no /dev/fd
	pk=$(sed -n 's/.*: \([0-9]*\) packets (\([0-9]*\) bytes) in .*/\1/p' "$NVPC_OUT/rec.out")
	by=$(sed -n 's/.*: \([0-9]*\) packets (\([0-9]*\) bytes) in .*/\2/p' "$NVPC_OUT/rec.out")
	awk -v hz=$hz -v pk="${pk:-0}" -v by="${by:-0}" -v secs=$SECS \
	    -v t=$((t1 - t0)) -v s=$((s1 - s0)) -v base="$base" \
	    -v busy="$(cat "$NVPC_OUT/hog.out")" -v st=$((st1 - st0)) -v g=$((g1 - g0)) 'BEGIN {
		pps = pk / secs; share = base > 0 ? 1 - busy / base : 0
		if (share < 0) share = 0
		kept = 100 * (1 - s / t)
		printf "%10d %12.0f %12.0f %9.3f %6.1f%% %6d %6d %8.1f%% %11.2f\n",
			hz, hz / 1024, pps, by / secs / 1e6, kept, st, g,
			100 * share, (pps > 0 ? share * 1e6 / pps : 0)
	}'
	if [ "$((s1 - s0))" -lt "$(( (t1 - t0) / 100 ))" ] && [ "$g1" = "$g0" ]; then
		best=$(awk -v pk="${pk:-0}" -v secs=$SECS 'BEGIN { printf "%.0f", pk / secs }')
	fi
done
echo "kept_up: the model's share of wall time run (rt_skipped_ns); a rate counts as sustained with kept_up >= 99% and no gap"
echo "cpu_share, us/packet: the PMU's CPU taken from a pinned hog by the drain and the sim's model together (an upper bound for the driver)"

# perf stat -I at its shortest interval (10 ms) reading the same domain
echo "all 1000000" > $G/clocks
echo "main.1 0x10 periodic 20 9 3" > $G/wave
echo realtime > $G/clock
n=$(perf stat -a -x';' -I 10 -e "$PMUNAME/dom=1,sig0=0x10/" sleep $SECS 2>&1 |
	grep -c "$PMUNAME")
sps=$(awk -v n="$n" -v secs=$SECS 'BEGIN { printf "%.0f", n / secs }')
echo "perf stat -I 10: $sps samples/s of one counter; record mode sustained $best packets/s of 2 counters + cycles with 0 loss: $(awk -v a="$best" -v b="$sps" 'BEGIN { printf "%.0f", (b > 0 ? a / b : 0) }')x the samples/s"

# --- sampled mode (Documentation/perf.rst "Sampling") -------------------
# The same domain at its catalogue clock, sampled by nvpc record --mode
# sample (a cpu-clock leading cycles and two signals) at a sweep of
# rates: per rate the samples/s the capture holds, how many of them are
# exact (0x11 held at 1 counts the sample's cycles; 0x10, high 4 of
# every 16 cycles, a quarter of them +-3), and the share of the PMU's
# CPU the sampling took from a pinned hog (the hrtimer, the group read's
# register accesses and the sim's catch-up there: an upper bound for the
# driver). perf may throttle a rate it finds too costly
# (perf_cpu_time_max_percent): fewer samples, still exact.
echo
echo "all $(cat $D/nominal_hz)" > $G/clocks
echo "main.1 0x11 const 1" > $G/wave
echo "main.1 0x10 periodic 16 4 0" > $G/wave
echo realtime > $G/clock
echo "== sampled mode: main.1 at $(cat $D/nominal_hz) Hz, cycles + 2 signals, ${SECS} s per rate (nvpc on CPU $other, samples on CPU $cpu)"
printf "%8s %10s %10s %8s %9s %11s\n" rate_hz "expected/s" samples/s exact cpu_share us/sample
sbest=0
for rate in 100 1000 2000 5000 10000 20000; do
	base=$(taskset -c "$cpu" "$HOG" 2)
	taskset -c "$cpu" "$HOG" $SECS > "$NVPC_OUT/hog.out" &
	hog=$!
	taskset -c "$other" "$NVPC" record --mode sample -g "$PMUNAME" \
		-d main.1 -s 0x11,0x10 --every ${rate}Hz --duration $SECS \
		-o "$NVPC_OUT/sbench.nvpc" > "$NVPC_OUT/srec.out" 2>&1
	wait $hog
	"$NVPC" report --csv "$NVPC_OUT/sbench.nvpc" > "$NVPC_OUT/sbench.csv" 2>&1
	line=$(awk -F, -v rate=$rate -v secs=$SECS -v base="$base" \
	    -v busy="$(cat "$NVPC_OUT/hog.out")" 'NR == 1 { next }
		{ n++; d = $4
		  if ($7 == d && $8 >= d / 4 - 3 && $8 <= d / 4 + 3 && d > 0) ok++ }
		END {
			sps = n / secs; share = base > 0 ? 1 - busy / base : 0
			if (share < 0) share = 0
			printf "%8d %10d %10.0f %7.1f%% %8.1f%% %11.2f %d\n",
				rate, rate, sps, n ? 100 * ok / n : 0, 100 * share,
				(sps > 0 ? share * 1e6 / sps : 0), (n && ok == n)
		}' "$NVPC_OUT/sbench.csv")
	echo "${line% *}"
	if [ "${line##* }" = 1 ]; then
		sbest=$(echo "$line" | awk '{ printf "%.0f", $3 }')
	fi
done
echo "exact: the share of samples whose counts match the waveforms; the highest rate with every sample exact gave $sbest samples/s of cycles + 2 counters"
echo "side by side: perf stat -I 10 $sps samples/s, sampled mode $sbest samples/s, record mode $best packets/s (the sim's limit, not the driver's: Documentation/record.rst \"Throughput\")"
echo "${G##*gpu}" > $SIM/remove

# --- record mode at the catalogue clocks, several domains (issue 24) -------
# The G84's domains at their catalogue clocks, each recording a packet
# every 1024 cycles (long packets of signals 0 and 1), sources whose periods
# divide 1024 (periodic 16 and 256) so the sim writes the packets in
# closed form, 1, 2, 4 and 8 domains in one nvpc record (the tool on the
# CPU other than the PMU's, the drains on the PMU's). Per run: packets/s
# the sim made and the tool drained, MB/s, what was lost, the model's
# share of real time, and the CPU: the drains' time (record_drain_ns,
# hard irq on the PMU's CPU) as a share of the run, its part in the sim
# (the sim's access_ns: register accesses with the model's catch-up) and
# the driver's own time per packet (drain minus sim), nvpc record's user
# + system time as a share of the run and per packet.
new_gpu g84
# Signals 0 and 1: sources in every G84 domain (main.3 .. main.7 have 0x20
# signals, all trailer from base 0: their 0x10 and 0x11 are imports of
# other domains' EVENT, which the model computes cycle by cycle).
for k in 0 1 2 3 4 5 6 7; do
	echo "main.$k 0 periodic 16 9 3" > $G/wave || exit 1
	echo "main.$k 1 periodic 256 77 0" > $G/wave || exit 1
done
echo realtime > $G/clock
RSECS=5
dom_sum() {	# dom_sum ATTR DOMAINS: the sum over the domains
	local k s=0
	for k in $2; do
		s=$((s + $(cat $PMU/domains/$k/$1)))
	done
	echo $s
}
made() { echo $(( $(stat_val record_fast_packets) + $(stat_val record_cycle_packets) )); }
# rec_run LABEL DOMAINS AUX SECS: one recording of the domains, a table
# row; the last field (1 when nothing was lost and the model kept up to
# real time) is for the caller
rec_run() {
	local label=$1 doms=$2 aux=$3 secs=$4 args="" k want=0 m0 m1 f0 f1 a0 a1 w0 w1 d0 d1 g0 g1 st0 st1 s0 s1 t0 t1 lost
	for k in $doms; do
		args="$args -d $k -s 0,1"
		want=$((want + $(cat $PMU/domains/$k/nominal_hz) / 1024))
	done
	[ "$aux" = auto ] || args="$args --aux-pages $aux"
	m0=$(made); f0=$(stat_val record_fast_packets); a0=$(stat_val access_ns)
	w0=$(stat_val worker_ns); s0=$(stat_val rt_skipped_ns)
	d0=$(dom_sum record_drain_ns "$doms"); g0=$(dom_sum record_gaps "$doms")
	st0=$(dom_sum record_stalls "$doms")
	t0=$(date +%s%N)
	{ TIMEFORMAT='%U %S'; time taskset -c "$other" "$NVPC" record \
		-g "$PMUNAME" $args --every 1024 --duration $secs \
		-o "/run/multi.nvpc" > "$NVPC_OUT/multi.out" 2>&1 ; } \
		2> "$NVPC_OUT/multi.time"
	t1=$(date +%s%N)
	m1=$(made); f1=$(stat_val record_fast_packets); a1=$(stat_val access_ns)
	w1=$(stat_val worker_ns); s1=$(stat_val rt_skipped_ns)
	d1=$(dom_sum record_drain_ns "$doms"); g1=$(dom_sum record_gaps "$doms")
	st1=$(dom_sum record_stalls "$doms")
	sed -n 's/.*: \([0-9]*\) packets (\([0-9]*\) bytes) in .*/\1 \2/p' \
		"$NVPC_OUT/multi.out" > "$NVPC_OUT/multi.pk"
	lost=$(sed -n 's/.*lost: [0-9]* stalls (full AUX area), \([0-9]*\) lost records.*/\1/p' \
		"$NVPC_OUT/multi.out" | awk '{ s += $1 } END { print s + 0 }')
	awk -v label="$label" -v aux=$aux -v secs=$secs -v t=$((t1 - t0)) \
	    -v want=$want -v made=$((m1 - m0)) -v fast=$((f1 - f0)) \
	    -v acc=$((a1 - a0)) -v work=$((w1 - w0)) -v skip=$((s1 - s0)) \
	    -v drain=$((d1 - d0)) -v gaps=$((g1 - g0)) -v stalls=$((st1 - st0)) \
	    -v lost="$lost" -v cpu="$(cat "$NVPC_OUT/multi.time")" '
		{ pk += $1; by += $2 }
		END {
			split(cpu, c, " "); tool = (c[1] + c[2]) * 1e9
			own = drain - acc; if (own < 0) own = 0
			kept = 1 - skip / t
			ok = pk > 0 && kept >= 0.99 && !stalls && !gaps && !lost
			printf "%5s %6s %9d %9.0f %9.0f %6.1f%% %7.2f %6.1f%% %6d %4d %4d %8.2f%% %7.1f%% %8.0f %8.0f %7.1f%% %9.2f %d\n",
				label, aux, want, made / secs, pk / secs,
				made ? 100 * fast / made : 0, by / secs / 1e6,
				100 * kept, stalls, gaps, lost,
				100 * drain / t, 100 * work / t, pk ? acc / pk : 0,
				pk ? own / pk : 0, 100 * tool / t,
				pk ? tool / pk / 1000 : 0, ok
		}' "$NVPC_OUT/multi.pk"
}
rec_head() {
	printf "%5s %6s %9s %9s %9s %7s %7s %7s %6s %4s %4s %9s %8s %8s %8s %8s %9s\n" \
		doms aux expect/s made/s drained/s fast MB/s kept_up stalls \
		gaps lost drain_cpu sim_cpu sim_ns/p drv_ns/p nvpc_cpu nvpc_us/p
}
# rec_row ...: rec_run's row without its last field; the largest lossless
# drained rate so far in $rbest, the first row that was not in $rfirst
rbest=0 rfirst=""
rec_row() {
	local line
	line=$(rec_run "$@")
	echo "${line% *}"
	if [ "${line##* }" = 1 ]; then
		rbest=$(echo "$line" | awk -v b=$rbest '$5 > b { b = $5 } END { printf "%.0f", b }')
	elif [ -z "$rfirst" ]; then
		rfirst="${line% *}"
	fi
}
echo
echo "== record mode at the catalogue clocks: G84 main.0 .. main.N-1 ($(for k in 0 1 2 3 4 5 6 7; do printf '%s ' $(($(cat $PMU/domains/main.$k/nominal_hz) / 1000000)); done)MHz), a packet every 1024 cycles, ${RSECS} s per run (nvpc on CPU $other, drains on CPU $cpu)"
rec_head
doms=""
for nd in 1 2 3 4 5 6 7 8; do
	doms="$doms main.$((nd - 1))"
	rec_row $nd "$doms" auto $RSECS
done
echo "-- the AUX size, 1 domain (main.1)"
for aux in 16 64 256 1024; do
	rec_row 1 main.1 $aux $RSECS
done
echo "expect/s: the domains' clocks / 1024; made: packets the sim wrote (record_fast_packets + record_cycle_packets), fast: the share of them it wrote in closed form; drained: packets in the capture; kept_up: the model's share of real time (rt_skipped_ns)"
echo "drain_cpu: the drains' time (record_drain_ns) over the run, on the PMU's CPU; sim_cpu: the sim's real-time worker's (worker_ns, on either CPU); sim_ns/p: the sim's part of the drains (access_ns) per packet; drv_ns/p: the rest, the driver's own, per packet"
echo "nvpc_cpu, nvpc_us/p: nvpc record's user + system time over the run and per packet"
echo "largest rate recorded losslessly with the model at real time: $rbest packets/s"
[ -z "$rfirst" ] || echo "first run that was not: $rfirst"

# 60 s of main.1 at its catalogue clock, PERIODIC 1024, the AUX size nvpc
# picks: nothing lost, and the window's top (256 MiB on G84: about every
# 15 s at this rate) restarts the hardware each time, flagged (PARTIAL)
# and counted (record_gaps), the only gaps.
echo
LSECS=${NVPC_BENCH_LONG_SECS:-60}
# the capture (18 MB/s, 1.1 GB) in the guest's memory: over the results
# share (9p) its writes take host CPU from the emulated CPUs, which the
# sim's model needs to keep up
LDIR=/run/nvpc-long
if mkdir -p $LDIR && mount -t tmpfs -o size=1300m tmpfs $LDIR; then
	LONG=$LDIR/long.nvpc
else
	LONG=$NVPC_OUT/long.nvpc
fi
D=$PMU/domains/main.1
g0=$(cat $D/record_gaps); st0=$(cat $D/record_stalls); s0=$(stat_val rt_skipped_ns)
t0=$(date +%s%N)
taskset -c "$other" "$NVPC" record -g "$PMUNAME" -d main.1 -s 0,1 \
	--every 1024 --duration $LSECS -o "$LONG" \
	> "$NVPC_OUT/long.out" 2>&1
t1=$(date +%s%N)
g1=$(cat $D/record_gaps); st1=$(cat $D/record_stalls); s1=$(stat_val rt_skipped_ns)
"$NVPC" report --json "$LONG" > "$NVPC_OUT/long.json" 2>&1
echo "== main.1 for $LSECS s at $(($(cat $D/nominal_hz) / 1000000)) MHz, a packet every 1024 cycles"
cat "$NVPC_OUT/long.out"
python3 "$NVPC_TOP/tools/testing/vmbench/long_check.py" "$NVPC_OUT/long.json" \
	$((g1 - g0)) $((st1 - st0)) $((s1 - s0)) $((t1 - t0))
# every packet: 1024 cycles, one STOP pulse, signal 0 in 576 of them (9
# of every 16), signal 1 in 308 (77 of every 256); the first packet of a
# segment (after the start and each window-top restart) spans from the
# start to the first PERIODIC pulse, so it only gets its STOP checked
"$NVPC" report --csv "$LONG" 2> /dev/null | awk -F, '
	BEGIN { seg = -1 }
	NR == 1 { next }
	$1 != seg { seg = $1; first++; if ($5 != 1) bad++; next }
	{ n++; if ($4 == 1024 && $5 == 1 && $6 == 0 && $7 == 576 && $8 == 308) ok++
	  else if (bad++ < 3) print "  not as the sources: " $0 }
	END { printf "every packet: %d of %d after the first of a segment exact (1024 cycles, STOP 1, 576 and 308); %d first packets of segments; %d wrong\n", ok, n, first, bad }'
rm -f "$LONG" "$LONG.old" "/run/multi.nvpc" "/run/multi.nvpc.old"
umount $LDIR 2> /dev/null
echo "${G##*gpu}" > $SIM/remove

# GF100+: one MAIN buffer that one domain at a time records into
# (Documentation/record.rst), gpc0.0 and part0.0 at their catalogue clocks
echo
new_gpu "gf100 gpcs=1 parts=1"
for k in gpc0.0 part0.0; do
	echo "$k 0 periodic 16 9 3" > $G/wave || exit 1
	echo "$k 1 periodic 256 77 0" > $G/wave || exit 1
done
echo realtime > $G/clock
echo "== record mode into GF100's MAIN buffer at the catalogue clocks (gpc0.0 $(($(cat $PMU/domains/gpc0.0/nominal_hz) / 1000000)) MHz, part0.0 $(($(cat $PMU/domains/part0.0/nominal_hz) / 1000000)) MHz), a packet every 1024 cycles, ${RSECS} s per run"
rec_head
rec_row 1 gpc0.0 auto $RSECS
rec_row 1 part0.0 auto $RSECS
rm -f "/run/multi.nvpc" "/run/multi.nvpc.old"
echo "${G##*gpu}" > $SIM/remove

# --- nvpc scan (Documentation/nvpc.rst "nvpc scan"): a whole G84, every
# domain's every signal counted (--all) against a 1 s workload, a run of
# it a round; the rounds against the fewest the inputs allow (by hand:
# main.1's 256 signals, two inputs each, four inputs: 128), and the
# sampled pass's rate of STATUS samples (all 8 domains each sample)
echo
new_gpu g84
echo "main.1 0xbd periodic 10 3 0" > $G/wave || exit 1
echo realtime > $G/clock
echo "== nvpc scan: G84, 8 domains, every signal, -- sleep 1 a round (nvpc on CPU $other)"
{ TIMEFORMAT='%R %U %S'; time taskset -c "$other" "$NVPC" scan -g "$PMUNAME" --all \
	-J -o /run/scan.json -- sleep 1 2> /run/scan.err; } 2> /run/scan.time
cat /run/scan.err
python3 - /run/scan.json /run/scan.time <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
wall, user, sys_ = (float(x) for x in open(sys.argv[2]).read().split()[-3:])
print("rounds %d (the fewest the inputs allow: %d, by hand 128); %d signals counted; "
      "%.1f s wall (%.1f s of it the workload), %.2f s user, %.2f s sys" %
      (d["rounds"], d["rounds_min"], sum(s["how"] == "counted" for s in d["signals"]),
       wall, d["rounds"] * 1.0, user, sys_))
print("sampled pass: %d STATUS samples of 8 domains in %.2f s: %.0f samples/s, best bound %.4f" %
      (d["samples"], d["sample_seconds"], d["samples"] / d["sample_seconds"], 2 / d["samples"] ** 0.5))
PY
rm -f /run/scan.json /run/scan.err /run/scan.time
echo "${G##*gpu}" > $SIM/remove

# --- interrupts-off holds (Documentation/perf.rst "Interrupts-off holds")
bash "$NVPC_TOP/tools/testing/vmbench/guest-irqoff.sh"

# --- the record drain's DMA syncs (Documentation/record.rst "DMA"); the
# Makefile runs it again in a boot with swiotlb=force
bash "$NVPC_TOP/tools/testing/vmbench/guest-sync.sh"
