#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM: the record-mode kselftests alone, for a boot
# with other kernel parameters (check.sh boots one with swiotlb=force, so
# that every AUX page the GPU writes is a bounce buffer: a packet the
# driver publishes without dma_sync_single_for_cpu() reads stale).
set -u

cd "$NVPC_OUT" || exit 1
echo "== record_test"
timeout --kill-after=5 "${NVPC_TEST_TIMEOUT:-600}" \
	"$NVPC_TOP"/build/selftests/record_test > "$NVPC_OUT/record_test.tap" 2>&1
echo "record_test exit $?"
