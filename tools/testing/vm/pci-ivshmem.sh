#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The PCI backend on a real PCI BAR (Documentation/pci.rst "Testing"):
# QEMU ivshmem-plain devices (1af4:1110, BAR 2 = a shared file) stand in
# for GPUs. Per kernel: fill one file per device with a PMC.BOOT_0 and a
# pattern, boot the VM with selftests/nvpcounter/pci_test.sh as the guest
# script, act on the files while the guest counts (snapshot, all-ones,
# device_del on the QEMU monitor), then check the registers the driver
# wrote. Results are TAP lines like every other phase.
#
#   pci-ivshmem.sh [KVER...]     (default: every target kernel)
set -u

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
. "$TOP/tools/testing/lib.sh"
VM=$TOP/tools/testing/vm
REGFILE=$VM/pci_regfile.py
TIMEOUT=${NVPC_VM_TIMEOUT:-900}

KVERS=("$@")
if [ ${#KVERS[@]} -eq 0 ]; then
	read -ra KVERS <<< "$(make -s -C "$TOP" --no-print-directory print-kvers)"
fi

# slot role chip: the guest script knows the same slots
DEVICES=(
	"10 snap g84"
	"11 snap gt215"
	"12 snap gf100"
	"13 gone g84"
	"14 unplug gt215"
	"15 none unknown"
	"16 none dead"
)

# The host side of one boot (run.sh's NVPC_VM_BEFORE): every device's
# file filled afresh, the agent started on the QEMU monitor of $1.
before_boot() {
	local d=$1 slot role chip name specs=()

	for dev in "${DEVICES[@]}"; do
		read -r slot role chip <<< "$dev"
		name=$slot-$role-$chip
		rm -f "$d/$name.bar.live"
		if ! python3 "$REGFILE" prefill "$d/$name.bar" "$chip"; then
			echo "# pci: pre-fill $name failed"
			return 1
		fi
		[ "$role" = none ] || specs+=("$role:$d/$name.bar:$chip:nvpc_$slot")
	done
	rm -f "$d/mon.sock"
	echo "# boot at $(date +%T)" >> "$d/agent.log"
	python3 "$REGFILE" agent "$TIMEOUT" "$d/mon.sock" "${specs[@]}" \
		>> "$d/agent.log" 2>&1 < /dev/null &
	echo $! > "$d/agent.pid"
}

# ... and its NVPC_VM_AFTER: the agent is done once every device was
# acted on; ended otherwise, by its pid
after_boot() {
	local d=$1 pid

	pid=$(cat "$d/agent.pid" 2> /dev/null) || return 0
	kill "$pid" 2> /dev/null
	# not our child here: wait for it to go
	for _ in $(seq 50); do
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.1
	done
	rm -f "$d/agent.pid"
}

case ${1:-} in
--before-boot) before_boot "$2"; exit ;;
--after-boot) after_boot "$2"; exit ;;
esac

run_pci() {
	local k=$1 d=$TOP/build/vm-pci/$1
	local qargs slot role chip name

	rm -rf "$d"
	mkdir -p "$d"
	qargs="-monitor unix:$d/mon.sock,server=on,wait=off"
	for dev in "${DEVICES[@]}"; do
		read -r slot role chip <<< "$dev"
		name=$slot-$role-$chip
		qargs+=" -object memory-backend-file,id=nvpc_mem$slot,share=on,mem-path=$d/$name.bar,size=32M"
		qargs+=" -device ivshmem-plain,id=nvpc_$slot,memdev=nvpc_mem$slot,bus=pci.0,addr=0x$slot"
	done

	NVPC_VM_NAME=pci NVPC_VM_SCRIPT=$TOP/selftests/nvpcounter/pci_test.sh \
		NVPC_VM_QEMU_ARGS="$qargs" \
		NVPC_VM_BEFORE="$(printf '%q --before-boot %q' "$VM/pci-ivshmem.sh" "$d")" \
		NVPC_VM_AFTER="$(printf '%q --after-boot %q' "$VM/pci-ivshmem.sh" "$d")" \
		"$VM/run.sh" "$k"
	sed 's/^/# agent: /' "$d/agent.log"

	for dev in "${DEVICES[@]}"; do
		read -r slot role chip <<< "$dev"
		name=$slot-$role-$chip
		case $role in
		snap|none)
			python3 "$REGFILE" verify "$d/$name.bar" "$chip" \
				"$chip at 00:$slot.0" > "$d/$name.tap" 2>&1
			import_tap "vm $k pci: registers" "$d/$name.tap"
			;;
		esac
	done
}

for k in "${KVERS[@]}"; do
	run_pci "$k"
done
