#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test command (make check): install what is missing, then lint, host
# unit tests, and the kselftests in QEMU on every target kernel. Ends with
# one line "N passed, N failed, N skipped"; exits non-zero on any failure.
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

"$TOP/tools/testing/lint.sh"
"$TOP/tools/testing/unit.sh"

if make -s -C "$TOP" modules selftests > "$TOP/build/selftests.log" 2>&1; then
	result ok "build: modules and kselftests"
	# shellcheck disable=SC2086
	"$TOP/tools/testing/vm/run.sh" $KVERS
	# shellcheck disable=SC2086
	"$TOP/tools/testing/vm/pci-ivshmem.sh" $KVERS
else
	result fail "build: modules and kselftests" "see build/selftests.log"
fi

echo "# wall time $(($(date +%s) - t0)) s"
summarize "$NVPC_RESULTS"
