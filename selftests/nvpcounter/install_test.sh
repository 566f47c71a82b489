#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# README "On your own GPU", second command, in the test VM (the guest side
# of tools/testing/vm/install-vm.sh, which ran `make install` for this
# kernel before the boot and runs `make uninstall` after it): `modprobe
# nvpcounter` loads the module from where DKMS put it (not insmod), and
# the installed nvpc shows and serves the GPU, the PCI tests' stand-in G84
# at 00:10.0 (Documentation/pci.rst "Testing"; the host named its PCI id
# in /etc/modprobe.d). Writes TAP to $NVPC_OUT/install_test.tap.
set -u

# a root login's PATH on Debian: make install put nvpc in /usr/local/bin
export PATH=/usr/local/sbin:/usr/local/bin:$PATH
TAP=$NVPC_OUT/install_test.tap
TEST=install_test
KVER=$(uname -r)
LOG=$NVPC_OUT/install
: > "$TAP"
mkdir -p "$LOG"
. "$NVPC_TOP/selftests/nvpcounter/tap-lib.sh"

check "nothing of ours loaded before modprobe" test ! -e /sys/module/nvpcounter
where=$(modinfo -n nvpcounter 2>&1)
echo "# modinfo -n nvpcounter: $where"
check "modprobe finds nvpcounter where DKMS put it" \
	test "${where#/lib/modules/"$KVER"/updates/dkms/nvpcounter.ko}" != "$where"
modprobe nvpcounter > "$LOG/modprobe.log" 2>&1
check "modprobe nvpcounter" test -e /sys/module/nvpcounter
sed 's/^/# modprobe: /' "$LOG/modprobe.log"

pmu=$(pmu_of 0000:00:10.0)
check "the PCI backend found the G84 at 00:10.0 (PMU ${pmu:-none})" test -n "$pmu"

top_json() {
	local f=$LOG/top
	command -v nvpc > /dev/null || return 1
	timeout --kill-after=5 120 nvpc top -n 3 -J > "$f.json" 2> "$f.err" ||
		return 1
	sed 's/^/# top: /' "$f.err"
	python3 - "$f.json" "$pmu" <<-'EOF'
	import json, sys
	frames = json.load(open(sys.argv[1]))
	ok = len(frames) == 3
	for fr in frames:
	    g = [x for x in fr["gpus"] if x["gpu"] == sys.argv[2]]
	    ok &= len(g) == 1 and g[0]["chip"] == "G84"
	    ok &= "graph" in [x["engine"] for x in g[0].get("engines", [])]
	sys.exit(0 if ok else 1)
	EOF
}
check "nvpc top -n 3 -J (the installed nvpc) shows the G84's engines" top_json

export_page() {
	local pid i f=$LOG/export url=http://127.0.0.1:19289/metrics
	nvpc export -l 127.0.0.1:19289 2> "$f.err" &
	pid=$!
	for ((i = 0; i < 300; i++)); do
		curl -sf --max-time 5 "$url" > "$f.txt" && break
		sleep 0.1
	done
	kill -TERM "$pid"
	wait "$pid"
	sed 's/^/# export: /' "$f.err"
	grep -qx "nvpc_gpus 1" "$f.txt" && grep -q 'chip="G84"' "$f.txt"
}
check "nvpc export (the installed nvpc) serves the GPU" export_page

modprobe -r nvpcounter > "$LOG/modprobe-r.log" 2>&1
check "modprobe -r nvpcounter" test ! -e /sys/module/nvpcounter
echo "1..$n" >> "$TAP"
