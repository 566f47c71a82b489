#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every kselftest under the debug kernel (KASAN, kmemleak, lockdep,
# DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS, DMA-API debug): build or reuse the
# kernel (build.sh), build our modules against its tree, boot it in the
# test VM (tools/testing/vm/run.sh) and scan for leaks after unloading the
# modules (guest-selftests.sh). Any report in the guest's log fails the
# run. TAP lines "debug-kernel: ..." and "vm <release> debug: ...".
#
#   vmtest.sh                   (the selftests must be built: make selftests)
#   NVPC_DEBUG_TIMEOUT=secs     bound of the VM run (default 2400)
#   NVPC_VM_NAME=name           (default debug) and NVPC_TESTS or
#                               NVPC_TESTS_EXCLUDE: a share of the tests,
#                               as make check runs it in two VMs at once
#                               (the modules' build takes turns on a lock)
set -u

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
HERE=$TOP/tools/testing/debugkernel
. "$TOP/tools/testing/lib.sh"

DIR=$("$HERE/build.sh" --dir)
[ -e "$DIR/complete" ] || "$HERE/build.sh" || exit 1
KREL=$(cat "$DIR/release")

# Our modules against the debug tree, W=1 as for every kernel, in the
# layout run.sh expects (build/kbuild/<release>).
kb=$TOP/build/kbuild/$KREL
name=${NVPC_VM_NAME:-debug}
mkdir -p "$kb"
# shellcheck disable=SC2016
if flock "$kb.lock" sh -c '
	(cd "$1" && tar cf - Kbuild $(find drivers include -type f \
		\( -name "*.c" -o -name "*.h" -o -name Kbuild \))) |
		tar xf - -C "$2" &&
	make -s -C "$3" M="$2" W=1 modules' - "$TOP" "$kb" "$DIR/src" \
	> "$kb.$name.log" 2>&1 && ! grep -q 'warning:' "$kb.$name.log"; then
	result ok "debug-kernel: modules build against $KREL ($name)"
else
	result fail "debug-kernel: modules build against $KREL ($name)" \
		"see $kb.$name.log"
	exit 1
fi

# Under TCG the debug kernel runs about 5-10x slower than the others:
# a longer bound per test and per run. (Its slowness is in the kernel:
# the guest's time-scale loop, user space, hardly sees it. Both bounds
# are still multiplied by the machine's load, the run's by the host's
# time scale and each test's by the guest's: testing.rst "A busy machine".)
#
# acpi=noirq: the PCI interrupt routing from the PIRQ table, not from
# evaluating the DSDT's _PRT. Under this kernel's lockdep and KASAN on TCG
# QEMU's _PRT (a loop over 128 slots) ran into ACPICA's 30 s loop timeout
# for each of the two virtio devices: 60 s of a 74 s boot, two "ACPI
# Error" lines, and the devices ran without that routing. Harness only:
# the module under test is on platform devices here (PCI has its own runs
# on the Debian kernels).
NVPC_VM_APPEND="acpi=noirq ${NVPC_VM_APPEND:-}" \
NVPC_VM_IMAGE=$DIR/bzImage NVPC_VM_MODROOT=$DIR/root NVPC_VM_NAME=$name \
	NVPC_VM_TIMEOUT=${NVPC_DEBUG_TIMEOUT:-2400} \
	NVPC_TEST_TIMEOUT=${NVPC_TEST_TIMEOUT:-1500} \
	"$TOP/tools/testing/vm/run.sh" "$KREL"
