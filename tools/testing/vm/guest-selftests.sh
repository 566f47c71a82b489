#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM (chroot of the host root): every kselftest binary,
# one TAP file each in $NVPC_OUT. A test that hangs is ended by its own
# kselftest timeout; this script adds an outer bound per binary.
#
# On a kernel with kmemleak (the debug kernel) the leaks found before the
# tests are set aside first, and after the tests, with both modules
# unloaded, a scan must find nothing new: kmemleak.tap.
set -u

KMEMLEAK=/sys/kernel/debug/kmemleak

cd "$NVPC_OUT" || exit 1
if [ -e "$KMEMLEAK" ]; then
	echo scan > "$KMEMLEAK"
	echo clear > "$KMEMLEAK"
fi

for t in "$NVPC_TOP"/build/selftests/*_test; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	echo "== $name"
	timeout --kill-after=5 "${NVPC_TEST_TIMEOUT:-600}" "$t" \
		> "$NVPC_OUT/$name.tap" 2>&1
	echo "$name exit $?"
done

# tools/nvpc end to end (Documentation/nvpc.rst "Testing")
echo "== nvpc_test.sh"
timeout --kill-after=5 "${NVPC_TEST_TIMEOUT:-600}" \
	"$NVPC_TOP"/selftests/nvpcounter/nvpc_test.sh
echo "nvpc_test.sh exit $?"

# perf record on every chip (Documentation/perf.rst "Sampling")
echo "== sample_test.sh"
timeout --kill-after=5 "${NVPC_TEST_TIMEOUT:-600}" \
	"$NVPC_TOP"/selftests/nvpcounter/sample_test.sh
echo "sample_test.sh exit $?"

[ -e "$KMEMLEAK" ] || exit 0

# An object is reported once it is unreferenced and older than 5 s, and
# only by a scan that finds it so twice in a row (mm/kmemleak.c): unload,
# wait, scan twice.
{
	echo "TAP version 13"
	echo "1..2"
	rmmod nvpcounter_sim 2>/dev/null
	rmmod nvpcounter 2>/dev/null
	if [ -e /sys/module/nvpcounter_sim ] || [ -e /sys/module/nvpcounter ]; then
		echo "not ok 1 modules unloaded before the scan"
	else
		echo "ok 1 modules unloaded before the scan"
	fi
	t0=$(date +%s)
	sleep 6
	echo scan > "$KMEMLEAK"
	echo scan > "$KMEMLEAK"
	cat "$KMEMLEAK" > "$NVPC_OUT/kmemleak.txt"
	n=$(grep -c '^unreferenced object' "$NVPC_OUT/kmemleak.txt")
	if [ "$n" -eq 0 ]; then
		echo "ok 2 scan after unloading finds no leak ($(($(date +%s) - t0)) s)"
	else
		echo "not ok 2 scan after unloading finds $n leaks (results/kmemleak.txt)"
		sed 's/^/# /' "$NVPC_OUT/kmemleak.txt" | head -40
	fi
} > "$NVPC_OUT/kmemleak.tap" 2>&1
