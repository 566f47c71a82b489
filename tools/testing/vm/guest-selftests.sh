#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM (chroot of the host root): every kselftest binary,
# one TAP file each in $NVPC_OUT, then the shell tests (nvpc_test.sh ...).
# Each runs from a clean guest, in a session of its own, bounded by
# NVPC_TEST_TIMEOUT times the guest's time scale; guest.tap has a line
# for the cleaning before each and one for how each ended
# (tools/testing/vm/guest-lib.sh, Documentation/testing.rst).
#
# On a kernel with kmemleak (the debug kernel) the leaks found before the
# tests are set aside first, and after the tests, with both modules
# unloaded, a scan must find nothing new: kmemleak.tap.
#
# NVPC_TESTS (comma-separated names: fuzz_test, nvpc_test.sh, ...) runs
# only those, NVPC_TESTS_EXCLUDE all but those: make check splits the
# debug kernel's run in two VMs this way, one list given to each.
set -u

KMEMLEAK=/sys/kernel/debug/kmemleak

cd "$NVPC_OUT" || exit 1

# wanted NAME: NAME is in this run's share of the tests
wanted() {
	case ",${NVPC_TESTS_EXCLUDE:-}," in *",$1,"*) return 1 ;; esac
	[ -z "${NVPC_TESTS:-}" ] && return 0
	case ",$NVPC_TESTS," in *",$1,"*) return 0 ;; esac
	return 1
}

. "$NVPC_TOP/tools/testing/vm/guest-lib.sh"
guest_time_scale
guest_hold_keys
if [ -e "$KMEMLEAK" ]; then
	echo scan > "$KMEMLEAK"
	echo clear > "$KMEMLEAK"
fi

for t in "$NVPC_TOP"/build/selftests/*_test; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	wanted "$name" || continue
	guest_run "$name" "$NVPC_OUT/$name.tap" "$t"
done

# tools/nvpc end to end (Documentation/nvpc.rst "Testing")
wanted nvpc_test.sh &&
	guest_run nvpc_test.sh - "$NVPC_TOP"/selftests/nvpcounter/nvpc_test.sh

# nvpc top with no arguments: every GPU's engines (monitoring.rst)
wanted engines_test.sh &&
	guest_run engines_test.sh - "$NVPC_TOP"/selftests/nvpcounter/engines_test.sh

# nvpc doctor: each state before counts, and its fix (nvpc.rst)
wanted doctor_test.sh &&
	guest_run doctor_test.sh - "$NVPC_TOP"/selftests/nvpcounter/doctor_test.sh

# nvpc doctor --hardware: first light on every generation, and each
# broken behaviour named (nvpc.rst "First light on a real GPU")
wanted firstlight_test.sh &&
	guest_run firstlight_test.sh - "$NVPC_TOP"/selftests/nvpcounter/firstlight_test.sh

# where nvpc's -o writes (nvpc.rst "Output files"), its test hooks under
# a file capability (monitoring.rst "Without root")
wanted out_test.sh &&
	guest_run out_test.sh - "$NVPC_TOP"/selftests/nvpcounter/out_test.sh

# nvpc export: the counters as Prometheus metrics (monitoring.rst)
wanted export_test.sh &&
	guest_run export_test.sh - "$NVPC_TOP"/selftests/nvpcounter/export_test.sh

# nvpc scan: which signals move, against the sim's waves (nvpc.rst)
wanted scan_test.sh &&
	guest_run scan_test.sh - "$NVPC_TOP"/selftests/nvpcounter/scan_test.sh

# perf record on every chip (Documentation/perf.rst "Sampling")
wanted sample_test.sh &&
	guest_run sample_test.sh - "$NVPC_TOP"/selftests/nvpcounter/sample_test.sh

# the last test's leftovers too
guest_clean "the end"
guest_done

[ -e "$KMEMLEAK" ] || exit 0

# An object is reported once it is unreferenced and older than 5 s, and
# only by a scan that finds it so twice in a row (mm/kmemleak.c): unload
# (guest_clean "the end" did), wait, scan twice.
{
	echo "TAP version 13"
	echo "1..2"
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
