#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: boot the test VM with a simulated G84 and show live
# `perf stat -I` counts of named and raw PCOUNTER events, then one event
# summing the four GPCs of a simulated GF100.
#   KVER=<kver> tools/demo.sh    pick the kernel (default: the first target)
#   NVPC_DEMO_SECS=<n>           seconds of perf stat (default 6)
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
KVER=${KVER:-$(make -s -C "$TOP" print-kvers | awk '{print $1}')}
OUT=$TOP/build/vm/$KVER
LOG=$TOP/build/demo-$KVER.log

make -s -C "$TOP" modules nvpc KVER="$KVER"
echo "== booting $KVER under QEMU with a simulated G84 (about 10-30 s)"
start=$(date +%s)
NVPC_VM_SCRIPT=$TOP/tools/testing/vm/guest-demo.sh NVPC_VM_TIMEOUT=300 \
	"$TOP/tools/testing/vm/run.sh" "$KVER" > "$LOG" 2>&1 &
runner=$!
# the guest writes its output to the results share: follow it live (a
# guest.log older than this run is another run's; the runner also
# removes the results folder while it starts)
fresh() {
	local m

	m=$(stat -c %Y "$OUT/results/guest.log" 2>/dev/null) || return 1
	[ "$m" -ge "$start" ]
}
while ! fresh && kill -0 "$runner" 2>/dev/null; do
	sleep 0.5
done
tail -n +1 -F "$OUT/results/guest.log" 2>/dev/null &
tailer=$!
rc=0
wait "$runner" || rc=$?
sleep 1
kill "$tailer" 2>/dev/null || true
wait "$tailer" 2>/dev/null || true
if [ $rc -ne 0 ] || grep -q '^not ok' "$LOG"; then
	echo "== the VM run failed: $LOG, $OUT/console.log"
	grep '^not ok' "$LOG" || true
	exit 1
fi
echo "== done (runner log: $LOG)"
