#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# nvpc doctor in the test VM (Documentation/nvpc.rst "nvpc doctor"), in
# each state a user meets before counts, its exit status and the fix it
# names:
#
#   no module, and none built for this kernel (the test VM's modules are
#       insmod'ed from /run/nvpc: modules.dep has none)
#   the module loaded without a GPU
#   a simulated G84: all well, exit 0
#   an unprivileged user at kernel.perf_event_paranoid 3, 2 and 0
#
# The PCI verdicts (refused GPUs of each reason) are checked where the
# PCI GPUs are, in pci_test.sh. tools/testing/vm/guest-selftests.sh runs
# it; TAP in $NVPC_OUT/doctor_test.tap.
set -u

TAP=$NVPC_OUT/doctor_test.tap
NVPC=$NVPC_TOP/build/nvpc/nvpc
SIM=/sys/kernel/debug/nvpcounter_sim
W=$NVPC_OUT/doctor
PARANOID=/proc/sys/kernel/perf_event_paranoid
TEST=doctor_test
KVER=$(uname -r)
: > "$TAP"
mkdir -p "$W"
. "$NVPC_TOP/selftests/nvpcounter/tap-lib.sh"

# doctor NAME [setpriv args]: output in $W/NAME.txt, status in rc
doctor() {
	local name=$1
	shift
	"$@" timeout --kill-after=5 60 "$NVPC" doctor > "$W/$name.txt" 2>&1
	rc=$?
	sed "s/^/# $name: /" "$W/$name.txt"
}
# says NAME LINE [FIX]: LINE is a whole line, FIX in the "fix:" line after
says() {
	local f=$W/$1.txt
	grep -qxF -- "$2" "$f" || return 1
	[ -z "${3:-}" ] && return 0
	grep -A1 -xF -- "$2" "$f" | tail -n 1 | grep -qF -- "$3"
}
nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups "$@"; }

# --- no module, not built for this kernel --------------------------------
doctor none
check "no module: exit 1" test "$rc" = 1
check "no module: not loaded, not built for $KVER, fix: make install" \
	says none "FAIL  the nvpcounter module is not loaded, and not built for kernel $KVER" \
	"make install in the nvpcounter source tree"
check "no module: the last line counts the failures" \
	test "$(tail -n 1 "$W/none.txt")" = "1 check failed"

# --- the module without a GPU ----------------------------------------------
if ! insmod "$NVPC_MODULE_DIR/nvpcounter.ko" 2> "$W/insmod.txt"; then
	tap fail "nvpcounter loaded" "$(tr '\n' ' ' < "$W/insmod.txt")"
	echo "1..$n" >> "$TAP"
	exit 1
fi
doctor bare
check "no GPU: exit 1" test "$rc" = 1
check "no GPU: the module loaded" says bare "ok    the nvpcounter module is loaded (kernel $KVER)"
check "no GPU: no PMU, fix names the sim" says bare \
	"FAIL  the module is loaded but has no GPU: no nvpcounter PMU in /sys/bus/event_source/devices" \
	"nvpcounter_sim"
check "no GPU: no GPU line (the VM has no NVIDIA device)" \
	test "$(grep -c 'GPU 0000' "$W/bare.txt")" = 0

# --- a simulated G84: all well ----------------------------------------------
if ! insmod "$NVPC_MODULE_DIR/nvpcounter_sim.ko" 2> "$W/insmod.txt"; then
	tap fail "nvpcounter_sim loaded" "$(tr '\n' ' ' < "$W/insmod.txt")"
	rmmod nvpcounter
	echo "1..$n" >> "$TAP"
	exit 1
fi
echo "g84 id=0" > "$SIM/create"
doctor well
check "all well: exit 0" test "$rc" = 0
check "all well: the PMU with its chip" says well "ok    PMU nvpcounter: G84 sim.0"
check "all well: root may count" \
	says well "ok    privileges: root (CAP_SYS_ADMIN): GPU counters may be opened"
check "all well: the last line" \
	test "$(tail -n 1 "$W/well.txt")" = "all checks passed: 1 GPU to count"
check "all well: the exporter's port said" grep -q "^note  port 9089 " "$W/well.txt"

# --- an unprivileged user ------------------------------------------------------
old=$(cat "$PARANOID")
echo 3 > "$PARANOID"
doctor user3 nobody
check "user at paranoid 3: exit 1" test "$rc" = 1
check "user at paranoid 3: privileges fail, fix: root, or paranoid 2 and setcap" \
	says user3 "FAIL  privileges: uid 65534 without CAP_PERFMON, kernel.perf_event_paranoid 3: GPU counters are system-wide and would be refused" \
	"run as root; or sudo sysctl kernel.perf_event_paranoid=2 and sudo setcap cap_perfmon+ep $NVPC"
check "user: the verdicts need root, said as a note" \
	grep -q "^      fix: sudo nvpc doctor$" "$W/user3.txt"
echo 2 > "$PARANOID"
doctor user2 nobody
check "user at paranoid 2: privileges fail, fix: setcap" \
	says user2 "FAIL  privileges: uid 65534 without CAP_PERFMON, kernel.perf_event_paranoid 2: GPU counters are system-wide and would be refused" \
	"sudo setcap cap_perfmon+ep $NVPC; or sudo sysctl kernel.perf_event_paranoid=0"
echo 0 > "$PARANOID"
doctor user0 nobody
check "user at paranoid 0: exit 0" test "$rc" = 0
check "user at paranoid 0: privileges ok" says user0 \
	"ok    privileges: kernel.perf_event_paranoid is 0: any user may count system-wide"
echo "$old" > "$PARANOID"

echo 0 > "$SIM/remove"
rmmod nvpcounter_sim
rmmod nvpcounter
echo "1..$n" >> "$TAP"
