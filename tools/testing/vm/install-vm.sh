#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The newcomer's install path (README "On your own GPU",
# Documentation/monitoring.rst "Before you start"), per kernel:
#
# 1. here, in a mount namespace of this script's own: `make install
#    KVER=<the guest's kernel>` in the checkout, as root: DKMS builds
#    both modules from the tree for that kernel and installs them where
#    modprobe looks, with nvpc, its manual page, unit and /etc files;
# 2. the test VM, booted from inside the same namespace (QEMU's 9p
#    export of the host root shows what the install wrote), with one
#    ivshmem-plain device filled as a G84 (the PCI tests' stand-in GPU,
#    Documentation/pci.rst "Testing"): selftests/nvpcounter/
#    install_test.sh runs `modprobe nvpcounter` (not insmod), `nvpc top
#    -n 3 -J` and `nvpc export` with the installed nvpc;
# 3. here again: `make uninstall`, then `dkms status` is empty and no
#    file is left.
#
# The directories an install writes (/usr/src, /usr/local, /etc,
# /var/lib/dkms, /lib/modules/<kernel>) are overlays on a tmpfs in that
# namespace, so the machine itself is never changed, and what is left in
# their upper layers after the uninstall is the check. DKMS builds on the
# host, not under TCG: in the guest its build took 10 minutes a kernel.
# TAP names "vm <kver> install: ...".
#
#   install-vm.sh [KVER...]     (default: every target kernel but -rt)
set -u

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
. "$TOP/tools/testing/lib.sh"
VM=$TOP/tools/testing/vm
VERSION=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$TOP/dkms.conf")

# one kernel, inside the namespace
inside() {
	local k=$1 d=$TOP/build/vm-install/$1 t="vm $1 install"
	local ov orig i dir where left
	local dirs=(/usr/src /usr/local /etc /var/lib/dkms "/lib/modules/$k")

	ov=$d/ov
	orig=$ov/orig
	mkdir -p "$ov"
	mount -t tmpfs tmpfs "$ov" || { result fail "$t: a tmpfs for the overlays"; return 1; }
	mkdir -p "$orig"
	# the host as it is, below every overlay: what "left" is judged by
	mount --bind / "$orig"
	i=0
	for dir in "${dirs[@]}"; do
		mkdir -p "$ov/$i/u" "$ov/$i/w" "$dir"
		if ! mount -t overlay overlay \
			-o "lowerdir=$dir,upperdir=$ov/$i/u,workdir=$ov/$i/w" "$dir"; then
			result fail "$t: an overlay over $dir"
			return 1
		fi
		i=$((i + 1))
	done

	# README "On your own GPU", first command, for the guest's kernel
	if (cd "$TOP" && make -s install KVER="$k") > "$d/make-install.log" 2>&1; then
		result ok "$t: make install: the modules through DKMS, nvpc and its files"
	else
		result fail "$t: make install: the modules through DKMS, nvpc and its files" \
			"see build/vm-install/$k/make-install.log"
		sed 's/^/# /' "$d/make-install.log" | tail -n 30
	fi
	if dkms status nvpcounter 2>&1 | grep -qx "nvpcounter/$VERSION, $k, x86_64: installed"; then
		result ok "$t: dkms status: installed for $k"
	else
		result fail "$t: dkms status: installed for $k" "$(dkms status 2>&1 | head -3)"
	fi
	where=$(modinfo -k "$k" -n nvpcounter 2>&1)
	case $where in
	"/lib/modules/$k/updates/dkms/nvpcounter.ko"*)
		result ok "$t: modprobe's nvpcounter is DKMS's ($where)" ;;
	*)	result fail "$t: modprobe's nvpcounter is DKMS's" "$where" ;;
	esac
	if [ -s /usr/local/bin/nvpc ] && [ -s /usr/local/share/man/man1/nvpc.1 ] &&
	   [ -s /usr/local/lib/systemd/system/nvpc-export.service ]; then
		result ok "$t: nvpc, its manual page and the unit installed"
	else
		result fail "$t: nvpc, its manual page and the unit installed"
	fi
	if grep -qx "#nvpcounter" /etc/modules-load.d/nvpcounter.conf &&
	   ! grep -q '^options' /etc/modprobe.d/nvpcounter.conf; then
		result ok "$t: loading at boot left to the user (both /etc files commented)"
	else
		result fail "$t: loading at boot left to the user (both /etc files commented)"
	fi

	# a test-only option: the stand-in GPU's PCI id (pci.rst "pci_ids"),
	# as a user names a device nvpcounter does not match by itself
	echo "options nvpcounter pci_ids=1af4:1110:2" > /etc/modprobe.d/nvpc-test.conf
	if python3 "$VM/pci_regfile.py" prefill "$d/g84.bar" g84; then
		NVPC_VM_NAME=install NVPC_VM_TIMEOUT=${NVPC_VM_TIMEOUT:-300} \
			NVPC_VM_SCRIPT=$TOP/selftests/nvpcounter/install_test.sh \
			NVPC_VM_QEMU_ARGS="-object memory-backend-file,id=nvpc_mem10,share=on,mem-path=$d/g84.bar,size=32M -device ivshmem-plain,id=nvpc_10,memdev=nvpc_mem10,bus=pci.0,addr=0x10" \
			"$VM/run.sh" "$k"
	else
		result fail "$t: the G84's BAR filled"
	fi
	rm -f /etc/modprobe.d/nvpc-test.conf

	if (cd "$TOP" && make -s uninstall) > "$d/make-uninstall.log" 2>&1; then
		result ok "$t: make uninstall"
	else
		result fail "$t: make uninstall" "see build/vm-install/$k/make-uninstall.log"
	fi
	sed 's/^/# uninstall: /' "$d/make-uninstall.log" | grep -v '^# uninstall: *$' | tail -n 12
	if [ -z "$(dkms status 2>&1)" ]; then
		result ok "$t: dkms status empty after make uninstall"
	else
		result fail "$t: dkms status empty after make uninstall" "$(dkms status 2>&1 | head -3)"
	fi

	# Every file and directory in an upper layer that the host does not
	# hold the same is what the install left. DKMS's machine key
	# (/var/lib/dkms/mok.*, made by the first DKMS build on a machine,
	# shared by every DKMS module and DKMS's own) is not ours to remove.
	left=$(
		i=0
		for dir in "${dirs[@]}"; do
			u=$ov/$i/u
			i=$((i + 1))
			find "$u" -mindepth 1 | while IFS= read -r p; do
				rel=${p#"$u"}
				case $dir$rel in
				/var/lib/dkms/mok.key|/var/lib/dkms/mok.pub) continue ;;
				esac
				# a whiteout: a file of the host's replaced (depmod's)
				[ -c "$p" ] && continue
				[ -d "$p" ] && [ -d "$orig$dir$rel" ] && continue
				[ -f "$p" ] && cmp -s "$p" "$orig$dir$rel" && continue
				echo "$dir$rel"
			done
		done
	)
	if [ -z "$left" ]; then
		result ok "$t: after make uninstall no file is left"
	else
		echo "$left" | sed 's/^/# left: /' | head -n 20
		result fail "$t: after make uninstall no file is left" \
			"$(echo "$left" | wc -l) left"
	fi
}

if [ "${1:-}" = --inside ]; then
	inside "$2"
	exit
fi

KVERS=("$@")
if [ ${#KVERS[@]} -eq 0 ]; then
	for k in $(make -s -C "$TOP" --no-print-directory print-kvers); do
		case $k in *-rt-*) ;; *) KVERS+=("$k") ;; esac
	done
fi

for k in "${KVERS[@]}"; do
	rm -rf "$TOP/build/vm-install/$k"
	mkdir -p "$TOP/build/vm-install/$k"
	unshare -m --propagation private "$0" --inside "$k"
done
