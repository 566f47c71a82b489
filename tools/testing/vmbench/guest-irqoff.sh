#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM for `make bench` (guest-bench.sh runs it last; also
# alone as NVPC_VM_SCRIPT): the most register accesses the driver makes in
# one interrupts-off section (a hold of its engine lock, or every hold of
# one perf transaction), per operation. The sim
# counts them (Documentation/sim.rst, stats: irqoff_max): a hold costs
# about 1 us per access on a PCIe GPU, whatever it costs in the sim, so
# the goal is in accesses. One operation at a time on a real-time
# simulated GPU at its catalogue clocks (the poll runs beside each, at
# most one domain's read pass per hold): the maximum is reset once the
# operation runs steadily and read before it ends (the start's commit and
# the end's teardown are rows of their own).
set -u
SIM=/sys/kernel/debug/nvpcounter_sim
MOD=${NVPC_MODULE_DIR:-/run/nvpc}
NVPC=$NVPC_TOP/build/nvpc/nvpc
EVS=/sys/bus/event_source/devices
OUT=${NVPC_OUT:-/tmp}
GOAL=40
[ -e $SIM/create ] || { insmod "$MOD/nvpcounter.ko" && insmod "$MOD/nvpcounter_sim.ko"; } || exit 1

# new_gpu ARGS: a real-time GPU; its debugfs directory in G, its PMU in P,
# the PMU's CPU in cpu and the other CPU in other, its chip's name in GEN
new_gpu() {
	local before pmus
	before=$(ls -d $SIM/gpu* 2>/dev/null)
	pmus=$(ls $EVS)
	echo "$1 clock=realtime" > $SIM/create || exit 1
	G=$(ls -d $SIM/gpu* | grep -vxF "$before" | head -1)
	P=$(ls $EVS | grep -vxF "$pmus" | head -1)
	cpu=$(cat $EVS/$P/cpumask)
	other=$(( (cpu + 1) % $(nproc) ))
	GEN=$(awk '$1 == "name" { print $2 }' $G/info)
}
stat_val() { awk -v k="$1" '$1 == k { print $2 }' $G/stats; }
reset() { echo irqoff_reset > $G/stats; }
# row OPERATION [N]: the maximum since the last reset (or the one kept
# in $OUT/irqoff-N.max), as a table row
row() {
	local n a
	if [ $# -gt 1 ]; then
		read -r n a < "$OUT/irqoff-$2.max"
	else
		n=$(stat_val irqoff_max) a=$(stat_val irqoff_max_addr)
	fi
	printf "%-46s %-5s %8d %5s %5s %10s\n" "$1" "$GEN" "${n:-0}" "<=$GOAL" \
		"$([ "${n:-0}" -le $GOAL ] && echo yes || echo NO)" "$a"
}
# steady OPERATION CMD...: CMD (on the other CPU) with a workload that
# resets the maximum after 3 s and keeps it 3 s later: the operation
# running steadily, its start and end left out. The output in
# $OUT/irqoff-N.out; a failure is shown under the row.
nrow=0
steady() {
	local op=$1 rc
	shift
	nrow=$((nrow + 1))
	rm -f "$OUT/irqoff-$nrow.max"
	taskset -c "$other" "$@" -- sh -c "sleep 3; echo irqoff_reset > $G/stats;
		sleep 3; awk '\$1 == \"irqoff_max\" { n = \$2 }
		\$1 == \"irqoff_max_addr\" { a = \$2 } END { print n, a }' \
		$G/stats > $OUT/irqoff-$nrow.max" > "$OUT/irqoff-$nrow.out" 2>&1
	rc=$?
	row "$op" $nrow
	[ $rc = 0 ] || echo "  (exit $rc: $(tail -1 "$OUT/irqoff-$nrow.out"))"
}
# events DOMS SIGS: an event per domain and signal, comma separated
events() {
	local d s ev=""
	for d in $1; do
		for s in $2; do
			ev="$ev,$P/dom=$d,sig0=$s/"
		done
	done
	echo "${ev#,}"
}
ndom() { ls $EVS/$P/domains | wc -l; }
doms() { seq 0 $(( $(ndom) - 1 )) | tr '\n' ' '; }
rec_args() {	# rec_args DOMAINS: nvpc record's -d/-s for each
	local d a=""
	for d in $1; do
		a="$a -d main.$d -s 0,1"
	done
	echo "$a"
}

echo
echo "== interrupts-off holds: the most register accesses in one interrupts-off section (sim's irqoff_max), real-time clock, catalogue clocks"
printf "%-46s %-5s %8s %5s %5s %10s\n" operation gen accesses goal meets first_addr

for chip in g84 nv40; do
	new_gpu $chip
	all=$(doms)
	# the poll alone: one event counting, nothing read
	steady "poll (one event counting)" \
		perf stat -a -e "$P/dom=1,cycles=1/"
	# read: perf stat -I reads the event every 100 ms
	steady "read (perf stat -I 100, one event)" \
		perf stat -a -I 100 -e "$P/dom=1,cycles=1/"
	# group sample: a cpu-clock-led group, a member in each domain
	ev="{cpu-clock"
	for d in 0 1; do
		ev="$ev,$P/dom=$d,cycles=1/"
	done
	steady "group sample (-F 1000, 2 domains)" \
		perf record -q -C "$cpu" -F 1000 -o "$OUT/irqoff.data" \
		-e "$ev}:S"
	ev="{cpu-clock"
	for d in $all; do
		ev="$ev,$P/dom=$d,cycles=1/"
	done
	steady "group sample (-F 1000, all $(ndom) domains)" \
		perf record -q -C "$cpu" -F 1000 -o "$OUT/irqoff.data" \
		-e "$ev}:S"
	rm -f "$OUT/irqoff.data"
	# commit: 6 events in each domain, more than its inputs: perf
	# rotates them at every multiplexing interval, one transaction each
	steady "commit (rotation, 6 events x $(ndom) domains)" \
		perf stat -a -e "$(events "$all" "0 1 2 3 4 5")"
	# the largest commit: one group with four inputs and the cycles
	# of every domain, enabled at once (one transaction starts every
	# domain) and at its end disabled (one stops them all)
	ev=""
	for d in $all; do
		ev="$ev,$(events "$d" "0 1 2 3"),$P/dom=$d,cycles=1/"
	done
	reset
	taskset -c "$other" perf stat -a -e "{${ev#,}}" sleep 1 \
		> "$OUT/irqoff-group.out" 2>&1
	rc=$?
	row "commit (a group in all $(ndom) domains, 5 each)"
	[ $rc = 0 ] || echo "  (exit $rc: $(tail -1 "$OUT/irqoff-group.out"))"
	echo "${G##*gpu}" > $SIM/remove
done

# record mode (G84): sources whose periods divide 1024, so the sim
# writes the packets in closed form at the catalogue clocks
new_gpu g84
for k in 0 1 2 3; do
	echo "main.$k 0 periodic 16 9 3" > $G/wave || exit 1
	echo "main.$k 1 periodic 256 77 0" > $G/wave || exit 1
done
# record tick: the drain's hrtimer, every recording domain
steady "record tick (nvpc record, 1 domain)" \
	"$NVPC" record -g "$P" $(rec_args 1) --every 1024 -o /run/irqoff.nvpc
steady "record tick (nvpc record, 4 domains)" \
	"$NVPC" record -g "$P" $(rec_args "0 1 2 3") --every 1024 \
	-o /run/irqoff.nvpc
# stop: the end of a recording of 4 domains (its last ticks included)
taskset -c "$other" "$NVPC" record -g "$P" $(rec_args "0 1 2 3") \
	--every 1024 --duration 4 -o /run/irqoff.nvpc > "$OUT/irqoff-stop.out" 2>&1 &
pid=$!
sleep 3
reset
wait $pid
row "stop (end of nvpc record, 4 domains; ticks)"
# a perf stat beside a recording: each of its opens and closes is a
# transaction that parks the recording domains and resumes them
taskset -c "$other" "$NVPC" record -g "$P" $(rec_args "0 1 2 3") \
	--every 1024 --duration 8 -o /run/irqoff.nvpc > "$OUT/irqoff-txn.out" 2>&1 &
pid=$!
sleep 3
reset
for i in 1 2 3; do
	taskset -c "$other" perf stat -a -e "$P/dom=5,cycles=1/" sleep 0.2 \
		> /dev/null 2>&1
done
row "txn (perf stat x3 beside 4 recording domains)"
wait $pid
rm -f /run/irqoff.nvpc /run/irqoff.nvpc.old
echo "${G##*gpu}" > $SIM/remove
echo "accesses: the sim's irqoff_max, the most register accesses the driver made in one interrupts-off section during the operation (a hold of its engine lock, or all the holds of one perf transaction, pmu_disable .. pmu_enable, which perf runs with interrupts off); first_addr: where that section began"
echo "goal: <= $GOAL accesses, about $GOAL us of interrupts off on a PCIe GPU (~1 us per MMIO read)"
