#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM: the record-mode kselftests alone, for a boot
# with other kernel parameters (check.sh boots one with swiotlb=force, so
# that every AUX page the GPU writes is a bounce buffer: a packet the
# driver publishes without dma_sync_single_for_cpu() reads stale), from a
# clean guest, bounded as guest-selftests.sh bounds each test.
set -u

cd "$NVPC_OUT" || exit 1
. "$NVPC_TOP/tools/testing/vm/guest-lib.sh"
guest_time_scale
guest_hold_keys
guest_run record_test "$NVPC_OUT/record_test.tap" \
	"$NVPC_TOP"/build/selftests/record_test
guest_clean "the end"
guest_done
