#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test command (make check): install what is missing, then lint, host
# unit tests, the kselftests in QEMU on every target kernel, and every
# kselftest again under the debug kernel with a kmemleak scan at the end
# (NVPC_DEBUG_KERNEL=0 leaves that stage out, and a TAP skip says so).
# The debug kernel is built (once per machine, debugkernel/build.sh) in
# the background from the start, niced, while the other phases run. Ends with one line
# "N passed, N failed, N skipped"; exits non-zero on any failure.
set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tools/testing/lib.sh"

export NVPC_RESULTS=$TOP/build/results.tap
mkdir -p "$TOP/build"
: > "$NVPC_RESULTS"
t0=$(date +%s)

if "$TOP/tools/deps/install.sh"; then
	result ok "deps: Debian packages installed"
else
	result fail "deps: Debian packages installed"
	summarize "$NVPC_RESULTS"
	exit 1
fi

if make -s -C "$TOP" ksrc > "$TOP/build/ksrc.log" 2>&1; then
	result ok "deps: kselftest headers and checkpatch unpacked"
else
	result fail "deps: kselftest headers and checkpatch unpacked"
fi

KVERS=$(make -s -C "$TOP" --no-print-directory print-kvers)
export KVERS
echo "# target kernels: $KVERS"

# The debug kernel's first build takes ~20 min on 2 cores: start it now.
dk_results=$TOP/build/debug-kernel.tap
: > "$dk_results"
dk_pid=
if [ "${NVPC_DEBUG_KERNEL:-1}" != 0 ]; then
	NVPC_RESULTS=$dk_results "$TOP/tools/testing/debugkernel/build.sh" \
		> "$TOP/build/debug-kernel.log" 2>&1 &
	dk_pid=$!
	echo "# debug kernel: $("$TOP/tools/testing/debugkernel/build.sh" --dir) (pid $dk_pid)"
fi

"$TOP/tools/testing/lint.sh"
"$TOP/tools/testing/unit.sh"

if make -s -C "$TOP" modules selftests nvpc > "$TOP/build/selftests.log" 2>&1; then
	result ok "build: modules, kselftests and tools/nvpc"
	# Each kernel's whole suite takes 360-480 s on an idle machine and
	# up to 865 s measured on a loaded one (the debug kernel's build runs
	# beside it on a fresh machine): a bound of twice that, not a test,
	# which run.sh multiplies by the host's time scale (its load at boot;
	# each test's bound inside grows with the guest's: testing.rst "A
	# busy machine").
	# shellcheck disable=SC2086
	NVPC_VM_TIMEOUT=${NVPC_VM_TIMEOUT:-1800} "$TOP/tools/testing/vm/run.sh" $KVERS
	# shellcheck disable=SC2086
	"$TOP/tools/testing/vm/pci-ivshmem.sh" $KVERS
	# record mode through bounce buffers (Documentation/record.rst "DMA")
	# shellcheck disable=SC2086
	NVPC_VM_NAME=swiotlb NVPC_VM_APPEND=swiotlb=force \
		NVPC_VM_SCRIPT=$TOP/tools/testing/vm/guest-record.sh \
		"$TOP/tools/testing/vm/run.sh" $KVERS
	# the demo (make demo's guest script) on the first target kernel,
	# with its own checks of the recorded phases (demo.tap)
	NVPC_VM_NAME=demo NVPC_VM_TIMEOUT=300 \
		NVPC_VM_SCRIPT=$TOP/tools/testing/vm/guest-demo.sh \
		"$TOP/tools/testing/vm/run.sh" "${KVERS%% *}"
else
	result fail "build: modules, kselftests and tools/nvpc" "see build/selftests.log"
fi

if [ -n "$dk_pid" ]; then
	t1=$(date +%s)
	wait "$dk_pid"
	echo "# debug kernel: waited $(($(date +%s) - t1)) s for its build"
	cat "$dk_results"
	cat "$dk_results" >> "$NVPC_RESULTS"
	if grep -q '^ok ' "$dk_results" && [ -e "$TOP/build/selftests" ]; then
		t1=$(date +%s)
		"$TOP/tools/testing/debugkernel/vmtest.sh"
		echo "# debug kernel: VM run took $(($(date +%s) - t1)) s"
	elif ! grep -q '^not ok ' "$dk_results"; then
		result fail "debug-kernel: build" "no result, see build/debug-kernel.log"
	fi
fi

if [ "${NVPC_DEBUG_KERNEL:-1}" = 0 ]; then
	result skip "debug-kernel: every kselftest under KASAN, kmemleak, lockdep" \
		"left out: NVPC_DEBUG_KERNEL=0"
fi

echo "# wall time $(($(date +%s) - t0)) s"
summarize "$NVPC_RESULTS"
