#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what nvpcounter's build, tests and demo need from Debian 12's
# packages. Quick when nothing is missing: dpkg is asked first, apt-get
# runs only for what is absent.
#
#   install.sh                   everything make check and make demo need
#   install.sh --install KVER    what `make install` needs on a user's
#                                machine: DKMS, the headers of KVER, the
#                                compiler, libmicrohttpd for nvpc
set -euo pipefail

if [ "${1:-}" = --install ]; then
	KVER=${2:-$(uname -r)}
	PKGS=(
		make gcc libc6-dev kmod dkms "linux-headers-$KVER"
		pkg-config libmicrohttpd-dev
	)
else
PKGS=(
	make gcc libc6-dev
	xz-utils cpio kmod
	qemu-system-x86 busybox-static linux-perf sparse
	linux-image-amd64 linux-headers-amd64
	linux-image-6.12-amd64 linux-headers-6.12-amd64
	linux-image-rt-amd64 linux-headers-rt-amd64
	linux-source-6.1
	# nvpc plot (tools/nvpc)
	gnuplot-nox
	# nvpc export's HTTP server (tools/nvpc, linked through pkg-config)
	pkg-config libmicrohttpd-dev
	# promtool for the exporter's host tests, Prometheus for its VM test
	prometheus
	# the debug kernel (tools/testing/debugkernel/build.sh)
	bc bison flex libelf-dev libssl-dev
	# make install's DKMS path, tested in the VM (install-vm.sh)
	dkms
	# setcap for out_test.sh's cap_perfmon+ep copy of nvpc
	libcap2-bin
)
fi

missing=()
for p in "${PKGS[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all ${#PKGS[@]} packages present"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing ${missing[*]}; run as root to install them" >&2
	exit 1
fi

echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: done"
