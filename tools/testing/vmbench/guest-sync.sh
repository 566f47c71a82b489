#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM for `make bench`, once in the plain boot (guest-bench.sh
# runs it) and once in a boot with swiotlb=force (the Makefile): what the
# record drain's DMA syncs cost (Documentation/record.rst "DMA"). Under
# swiotlb=force every AUX page the GPU writes is a bounce buffer and each
# sync copies its pages (the sim syncs whole pages: dma_sync_single_for_cpu()
# of the pages the drain publishes, _for_device() of those a LIMIT raise
# hands back), inside the drain's hold, interrupts off. main.1 of a
# real-time G84 at its catalogue clock (575 MHz), PERIODIC STOP every 1024
# cycles (18 MB/s of long packets), nvpc record with the AUX size it picks,
# RUNS runs of SECS s. Per run: the drains, the bytes each published, and
# the driver's own time per drain and per KiB published (record_drain_ns
# less the sim's access_ns); the two boots' rows side by side give the
# syncs' cost per KiB: (swiotlb's drv_us/dr - plain's) / KiB/drain. The
# drain syncs at most NVPC_REC_STEP_MAX (1 MiB) each way (record.c).
set -u
SIM=/sys/kernel/debug/nvpcounter_sim
MOD=${NVPC_MODULE_DIR:-/run/nvpc}
NVPC=$NVPC_TOP/build/nvpc/nvpc
EVS=/sys/bus/event_source/devices
OUT=${NVPC_OUT:-/tmp}
SECS=${NVPC_SYNC_SECS:-5}
RUNS=${NVPC_SYNC_RUNS:-3}
[ -e $SIM/create ] || { insmod "$MOD/nvpcounter.ko" && insmod "$MOD/nvpcounter_sim.ko"; } || exit 1

before=$(ls -d $SIM/gpu* 2>/dev/null)
pmus=$(ls $EVS)
echo g84 > $SIM/create || exit 1
G=$(ls -d $SIM/gpu* | grep -vxF "$before" | head -1)
P=$(ls $EVS | grep -vxF "$pmus" | head -1)
D=$EVS/$P/domains/main.1
cpu=$(cat $EVS/$P/cpumask)
other=$(( (cpu + 1) % $(nproc) ))
stat_val() { awk -v k="$1" '$1 == k { print $2 }' $G/stats; }
echo "main.1 0 periodic 16 9 3" > $G/wave || exit 1
echo "main.1 1 periodic 256 77 0" > $G/wave || exit 1
echo realtime > $G/clock
if grep -qw swiotlb=force /proc/cmdline; then
	mode=swiotlb=force
else
	mode=plain
fi

echo
echo "== record drain DMA syncs ($mode): main.1 at $(($(cat $D/nominal_hz) / 1000000)) MHz, a packet every 1024 cycles, $RUNS x ${SECS} s (nvpc on CPU $other, drains on CPU $cpu)"
printf "%-14s %3s %8s %9s %10s %11s %11s\n" boot run drains "KiB/drain" MB/s "drv_us/dr" "drv_ns/KiB"
for run in $(seq 1 "$RUNS"); do
	n0=$(cat $D/record_drains); d0=$(cat $D/record_drain_ns)
	p0=$(cat $D/record_packets); a0=$(stat_val access_ns)
	taskset -c "$other" "$NVPC" record -g "$P" -d main.1 -s 0,1 \
		--every 1024 --duration "$SECS" -o /run/sync.nvpc \
		> "$OUT/sync.out" 2>&1 || { echo "  (nvpc record failed: $(tail -1 "$OUT/sync.out"))"; continue; }
	n1=$(cat $D/record_drains); d1=$(cat $D/record_drain_ns)
	p1=$(cat $D/record_packets); a1=$(stat_val access_ns)
	awk -v mode=$mode -v run=$run -v n=$((n1 - n0)) -v d=$((d1 - d0)) \
	    -v p=$((p1 - p0)) -v a=$((a1 - a0)) -v secs="$SECS" 'BEGIN {
		kib = p * 32 / 1024; own = d - a; if (own < 0) own = 0
		nskib = kib ? own / kib : 0
		printf "%-14s %3d %8d %9.1f %10.2f %11.1f %11.1f\n",
			mode, run, n, n ? kib / n : 0, p * 32 / secs / 1e6,
			n ? own / n / 1000 : 0, nskib
	}'
done
rm -f /run/sync.nvpc /run/sync.nvpc.old
echo "${G##*gpu}" > $SIM/remove
echo "drv_us/dr: the driver's own time per drain (record_drain_ns less the sim's access_ns, interrupts off), its syncs included; drv_ns/KiB: the same per KiB published; a drain syncs at most 1 MiB each way"
