#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The PCI backend in the test VM (guest side of tools/testing/vm/
# pci-ivshmem.sh, Documentation/pci.rst "Testing"). ivshmem-plain devices
# (1af4:1110, BAR 2) stand in for GPUs; the host filled each BAR with a
# PMC.BOOT_0 and reads the registers back. Slots, set by the host script:
#   00:10.0 G84      00:11.0 GT215    00:12.0 GF100 (PCOUNTER disabled)
#   00:13.0 G84, the host makes it read all-ones while counting
#   00:14.0 GT215, the host hot-unplugs it while counting
#   00:15.0 chipset 0xff (unknown)
#   00:16.0 not responding: PMC.BOOT_0 reads all-ones from the start
# 00:11.0 is also bound to uio_pci_generic and unbound (bus notifier).
# Writes TAP to $NVPC_OUT/pci_test.tap.
set -u

TAP=$NVPC_OUT/pci_test.tap
KO=$NVPC_MODULE_DIR/nvpcounter.ko
REGFILE=$NVPC_TOP/tools/testing/vm/pci_regfile.py
IDS=pci_ids=1af4:1110:2
TEST=pci_test
: > "$TAP"
. "$NVPC_TOP/selftests/nvpcounter/tap-lib.sh"

klog() { dmesg | grep -qF -- "$1"; }

has_pmu() { pmu_of "$1" > /dev/null; }
no_pmu() { ! pmu_of "$1" > /dev/null; }

# count NAME BUS CHIP SECONDS: perf stat on the chip's test event; the
# count (first CSV field) is left in $NVPC_OUT/perf-NAME.txt
count() {
	local name=$1 bus=$2 chip=$3 secs=$4 pmu ev
	pmu=$(pmu_of "$bus") || return 1
	ev=$(python3 "$REGFILE" event "$chip") || return 1
	timeout --kill-after=5 120 perf stat -a -x, -e "$pmu/$ev/" \
		sleep "$secs" > /dev/null 2> "$NVPC_OUT/perf-$name.txt"
}

first_field() { grep -m1 -F '/' "$NVPC_OUT/perf-$1.txt" | cut -d, -f1; }

# nvpc doctor NAME: its output in $NVPC_OUT/doctor-NAME.txt, its exit
# status in doctor_rc (Documentation/nvpc.rst "nvpc doctor")
doctor() {
	timeout --kill-after=5 60 "$NVPC_TOP/build/nvpc/nvpc" doctor \
		> "$NVPC_OUT/doctor-$1.txt" 2>&1
	doctor_rc=$?
	sed "s/^/# doctor: /" "$NVPC_OUT/doctor-$1.txt"
}
# doctor_says NAME LINE [FIX]: LINE is a whole line of the output, and
# FIX (if given) is in the "fix:" line right after it
doctor_says() {
	local f=$NVPC_OUT/doctor-$1.txt
	grep -qxF -- "$2" "$f" || return 1
	[ -z "${3:-}" ] && return 0
	grep -A1 -xF -- "$2" "$f" | tail -n 1 | grep -q "^      fix: .*$3"
}

# --- parameter parsing ----------------------------------------------------
if insmod "$KO" pci_ids=zz:1110 2> /dev/null; then
	tap fail "pci_ids=zz:1110 refused"
	rmmod nvpcounter
else
	check "pci_ids=zz:1110 refused" klog "pci_ids: 'zz:1110' is not VVVV:DDDD[:BAR]"
fi
if insmod "$KO" pci_ids=1af4:1110:7 2> /dev/null; then
	tap fail "pci_ids=1af4:1110:7 refused (no BAR 7)"
	rmmod nvpcounter
else
	check "pci_ids=1af4:1110:7 refused (no BAR 7)" klog "the BAR is one digit 0-5"
fi

# --- discovery without pci_enable_pcounter --------------------------------
check "load with $IDS" insmod "$KO" "$IDS"
check "parameter reads back" \
	grep -qx "1af4:1110:2" /sys/module/nvpcounter/parameters/pci_ids
check "G84 registered" has_pmu 0000:00:10.0
check "GT215 registered" has_pmu 0000:00:11.0
check "GF100 with PCOUNTER disabled refused" no_pmu 0000:00:12.0
check "GF100 refusal logged" \
	klog "0000:00:12.0: nvpcounter: PCOUNTER is disabled (PMC.ENABLE 0x00000000, bit 28 clear)"
check "unknown chipset refused" no_pmu 0000:00:15.0
check "unknown chipset logged" \
	klog "0000:00:15.0: nvpcounter: unknown or unsupported chipset 0xff"
check "not responding refused" no_pmu 0000:00:16.0
check "not responding logged" \
	klog "0000:00:16.0: nvpcounter: PMC.BOOT_0 reads all-ones (device not responding): not used"
# the same verdicts from the module's debugfs file, through nvpc doctor
doctor load
check "doctor: a refused GPU fails it (exit 1)" test "$doctor_rc" = 1
check "doctor: the G84 used" doctor_says load \
	"ok    GPU 0000:00:10.0 (G84, chipset 0x84, driver no driver): used"
check "doctor: GF100 refused, PCOUNTER in reset, fix pci_enable_pcounter=1" \
	doctor_says load \
	"FAIL  GPU 0000:00:12.0 (GF100, chipset 0xc0, driver no driver): refused: PCOUNTER is held in reset (PMC.ENABLE bit 28 clear)" \
	"modprobe nvpcounter pci_enable_pcounter=1"
check "doctor: unknown chipset refused, fix: report it" doctor_says load \
	"FAIL  GPU 0000:00:15.0 (-, chipset 0xff, driver no driver): refused: its chipset is not in the catalogue" \
	"report the chip"
check "doctor: not responding refused, fix: wake it" doctor_says load \
	"FAIL  GPU 0000:00:16.0 (-, chipset 0x1ff, driver no driver): refused: not responding (PMC.BOOT_0 read all-ones)" \
	"wake the GPU"
check "doctor: seven devices, four used (00:10, 11, 13, 14), three refused" \
	test "$(grep -c '^ok    GPU ' "$NVPC_OUT/doctor-load.txt")" = 4 -a \
	"$(grep -c '^FAIL  GPU ' "$NVPC_OUT/doctor-load.txt")" = 3
check "unload" rmmod nvpcounter

# --- with pci_enable_pcounter: every test GPU -----------------------------
check "load with $IDS pci_enable_pcounter=1" \
	insmod "$KO" "$IDS" pci_enable_pcounter=1
check "GF100 registered" has_pmu 0000:00:12.0
check "GF100 PCOUNTER enable logged" \
	klog "0000:00:12.0: nvpcounter: PCOUNTER was disabled: PMC.ENABLE bit 28 set"
# GPC count 4 with GPC 1 disabled (0x022504 bit 1): GPC 1 has no domain,
# its event is refused (perf stat says "not supported" or fails)
gf100_gpc1_refused() {
	local f=$NVPC_OUT/perf-gpc1.txt
	timeout 60 perf stat -a -x, \
		-e "$(pmu_of 0000:00:12.0)/dset=1,unit=1,dom=0,sig0=0x10/" \
		true > /dev/null 2> "$f" || return 0
	grep -q "not supported" "$f"
}
check "GF100 disabled GPC 1 has no domains (unit registers read)" \
	gf100_gpc1_refused

for t in g84:00:10.0 gt215:00:11.0 gf100:00:12.0; do
	chip=${t%%:*}
	bus=0000:${t#*:}
	check "$chip: perf stat -a on the raw event" count "$chip" "$bus" "$chip" 3
	c=$(first_field "$chip")
	# the BAR holds the pattern 0xa5xxxxxx in every counter: any other
	# count than 0 would be invented from a domain that never swapped
	if [ "$c" = 0 ]; then
		tap ok "$chip: no invented counts from a BAR that never swaps"
	else
		tap fail "$chip: no invented counts from a BAR that never swaps" \
			"perf counted '$c'"
	fi
	# the swaps that never showed up: domains/<domain>/not_responding
	nr=$(cat /sys/bus/event_source/devices/"$(pmu_of "$bus")"/domains/*/not_responding \
		2> /dev/null | awk '{ s += $1 } END { print s + 0 }')
	if [ "$nr" -gt 0 ]; then
		tap ok "$chip: reported as not responding ($nr swaps)"
	else
		tap fail "$chip: reported as not responding" \
			"domains/*/not_responding sum to '$nr'"
	fi
done

# --- perf record through the PCI backend (perf.rst "Sampling") -----------
# a cpu-clock led group on the G84's PMU CPU: samples come, the raw event
# is in the recording, and it counts 0 in each sample, as perf stat does
# on this BAR (perf script leaves out a member whose period is 0, so no
# line of it may show up). A CPU-wide perf record walks all of
# /lib/modules/$(uname -r) (a stat per file, about 5200 on 6.12), which
# is this VM's 9p root: 20 s for the whole command idle, over 120 s while
# another TCG VM shares the host's two cores. Its bound is for a hang.
pci_samples() {
	local pmu cpu ev f=$NVPC_OUT/pci-sample t0=$SECONDS
	pmu=$(pmu_of 0000:00:10.0) || return 1
	ev=$(python3 "$REGFILE" event g84) || return 1
	cpu=$(cat "/sys/bus/event_source/devices/$pmu/cpumask")
	timeout --kill-after=5 600 perf record -q -B -N -o "$f.data" -C "$cpu" \
		-F 50 -e "{cpu-clock,$pmu/$ev/}:S" -- sleep 1 > "$f.txt" 2>&1 &&
	timeout --kill-after=5 120 perf script -i "$f.data" -F event,period \
		> "$f.script" 2>> "$f.txt" &&
	perf evlist -i "$f.data" > "$f.evlist" 2>> "$f.txt"
	local rc=$?
	echo "# perf record and script: $((SECONDS - t0)) s, exit $rc"
	[ $rc = 0 ] || return 1
	rm -f "$f.data"
	grep -qF "$pmu/$ev/" "$f.evlist" || return 1
	awk '$2 == "cpu-clock:" { n++; next } { bad = 1 }
	     END { exit bad || n < 5 }' "$f.script"
}
check "g84: perf record samples the raw event, 0 in each" pci_samples

# nvpc record through the PCI backend: no record mode (record_aux_max 0),
# so it samples (nvpc.rst "Sampled captures"); every sample counts 0, the
# cycles too, as perf stat does on this BAR
nvpc_pci_sampled() {
	local pmu ev sig dom f=$NVPC_OUT/pci-nvpc
	pmu=$(pmu_of 0000:00:10.0) || return 1
	ev=$(python3 "$REGFILE" event g84) || return 1
	sig=${ev##*sig0=}
	dom=${ev#dom=}
	dom=main.${dom%%,*}
	timeout --kill-after=5 120 "$NVPC_TOP/build/nvpc/nvpc" record \
		-g "$pmu" -d "$dom" -s "$sig" --duration 1 -o "$f.nvpc" \
		> "$f.txt" 2>&1 || return 1
	"$NVPC_TOP/build/nvpc/nvpc" report "$f.nvpc" > "$f.report" 2>&1
	sed 's/^/# /' "$f.txt" "$f.report"
	grep -q "sampled    every 1000000 ns" "$f.report" || return 1
	"$NVPC_TOP/build/nvpc/nvpc" report --csv "$f.nvpc" > "$f.csv" || return 1
	awk -F, 'NR > 1 { n++; if ($4 != 0 || $7 != 0) bad = 1 }
	     END { exit bad || n < 5 }' "$f.csv"
}
check "g84: nvpc record samples (no record mode), 0 in each sample" nvpc_pci_sampled

# nvpc top and nvpc export with no -d through the PCI backend
# (monitoring.rst): the G84's graph engine found from its events/, in
# main.1 (the domain counted above: the register checks still hold).
# This BAR never swaps: no cycles, so no busy figure (null, not 0 or
# 100), and the exporter shows the domain's swaps that never landed
# beside its 0 cycles, never a count
nvpc_pci_top() {
	local pmu f=$NVPC_OUT/pci-top
	pmu=$(pmu_of 0000:00:10.0) || return 1
	timeout --kill-after=5 60 "$NVPC_TOP/build/nvpc/nvpc" top -g "$pmu" \
		-n 2 -I 300 -J > "$f.json" 2> "$f.err" || return 1
	sed 's/^/# /' "$f.err"
	python3 - "$f.json" "$pmu" <<-'EOF'
	import json, sys
	frames = json.load(open(sys.argv[1]))
	ok = len(frames) == 2
	for fr in frames:
	    g = fr["gpus"]
	    ok &= len(g) == 1 and g[0]["gpu"] == sys.argv[2]
	    ok &= g[0]["chip"] == "G84" and g[0]["bus"] == "0000:00:10.0"
	    e = g[0].get("engines", [])
	    ok &= [x["engine"] for x in e] == ["graph"]
	    ok &= all(x["domain"] == "main.1" and x["busy_pct"] is None and
	              x["cycles"] == 0 and x["idle_cycles"] == 0 for x in e)
	sys.exit(0 if ok else 1)
	EOF
}
check "g84: nvpc top finds the graph engine, no busy figure without cycles" nvpc_pci_top

nvpc_pci_export() {
	local pmu pid f=$NVPC_OUT/pci-export i ok=1 nr
	local url=http://127.0.0.1:19189/metrics
	pmu=$(pmu_of 0000:00:10.0) || return 1
	"$NVPC_TOP/build/nvpc/nvpc" export -g "$pmu" -l 127.0.0.1:19189 \
		2> "$f.err" &
	pid=$!
	for ((i = 0; i < 100; i++)); do
		curl -sf --max-time 5 "$url" > "$f.1" && break
		sleep 0.1
	done
	sleep 1
	curl -sf --max-time 5 "$url" > "$f.2" || ok=0
	kill -TERM "$pid"
	wait "$pid" || ok=0
	sed 's/^/# /' "$f.err"
	[ $ok = 1 ] || return 1
	grep -qx "nvpc_gpus 1" "$f.2" &&
	grep -q "^nvpc_gpu_info{gpu=\"$pmu\",bus=\"0000:00:10.0\",chip=\"G84\"} 1$" "$f.2" &&
	grep -qx "nvpc_domain_cycles_total{gpu=\"$pmu\",bus=\"0000:00:10.0\",chip=\"G84\",domain=\"main.1\"} 0" "$f.2" &&
	grep -q "^nvpc_signal_cycles_total{gpu=\"$pmu\",bus=\"0000:00:10.0\",chip=\"G84\",domain=\"main.1\",signal=\"graph_idle\",engine=\"graph\"} 0$" "$f.2" || return 1
	# the swaps that never landed, counted since the first scrape
	nr=$(awk -v p="nvpc_domain_not_responding_total{gpu=\"$pmu\",bus=\"0000:00:10.0\",chip=\"G84\",domain=\"main.1\"}" \
		'$1 == p { print $2 }' "$f.2")
	echo "# main.1 not responding: ${nr:-none}"
	[ -n "$nr" ] && [ "$nr" -gt 0 ]
}
check "g84: nvpc export: the GPU, 0 cycles and its swaps not landed, never a count" nvpc_pci_export

# nvpc doctor --hardware through the PCI backend (nvpc.rst "First light
# on a real GPU") on main.1, the domain the register checks allow: the
# report names the BAR's PMC.BOOT_0 (0x084000a2, pci_regfile.py's G84)
# and, this BAR being a passive file that never swaps, fails swap-lands
# and nothing else (the checks that need swaps skip); no record mode on
# the PCI backend (record-real-gpus.rst)
nvpc_pci_firstlight() {
	local pmu f=$NVPC_OUT/pci-firstlight rc
	pmu=$(pmu_of 0000:00:10.0) || return 1
	timeout --kill-after=5 60 "$NVPC_TOP/build/nvpc/nvpc" doctor --hardware \
		-g "$pmu" -d main.1 -t 0.2 -o "$f.json" > "$f.txt" 2>&1
	rc=$?
	sed 's/^/# /' "$f.txt"
	[ $rc = 1 ] || return 1
	python3 - "$f.json" "$pmu" <<-'EOF'
	import json, sys
	d = json.load(open(sys.argv[1]))
	fails = [(c["domain"], c["check"]) for c in d["checks"] if c["result"] == "FAIL"]
	ok = d["pmu"] == sys.argv[2] and d["chip"] == "G84"
	ok &= d["bus"] == "0000:00:10.0" and d["boot0"] == "0x084000a2"
	ok &= [x["name"] for x in d["domains"]] == ["main.1"]
	ok &= fails == [("main.1", "swap-lands")] and d["failed"] == 1
	ok &= all(c["result"] == "skip" for c in d["checks"]
	          if c["check"] in ("clock", "one-swap", "each-counter", "status-zero"))
	ok &= d["record"].startswith("absent:")
	print("# FAIL:", fails, "record:", d["record"])
	sys.exit(0 if ok else 1)
	EOF
}
check "g84: nvpc doctor --hardware: PMC.BOOT_0 0x084000a2, swaps never land (a passive BAR), no record mode" nvpc_pci_firstlight

# nvpc scan through the PCI backend (nvpc.rst "nvpc scan") on main.1.
# Sampled: the STATUS registers are the BAR's pre-fill, 0xa5000000 | the
# word's address, read by the driver at pcounter.rst "The STATUS
# registers" [NV50:NVC0] 0x00a800 + i*0x20 + j*4 (i = 1, the domain):
# signal s of the domain is bit s % 32 of word j = s / 32, constant (the
# file never changes), so every signal is sampled, folded at that bit
# and none is counted. Counted (--no-sample): this BAR never swaps, so
# no cycles: the scan says so and no signal gets a share or a constant.
nvpc_pci_scan() {
	local pmu f=$NVPC_OUT/pci-scan rc rc2
	pmu=$(pmu_of 0000:00:10.0) || return 1
	timeout --kill-after=5 60 "$NVPC_TOP/build/nvpc/nvpc" scan -g "$pmu" \
		-d main.1 -t 0.3 -J -o "$f.json" 2> "$f.err"
	rc=$?
	sed 's/^/# /' "$f.err"
	timeout --kill-after=5 60 "$NVPC_TOP/build/nvpc/nvpc" scan -g "$pmu" \
		-d main.1 --no-sample --signals 0x00-0x03 -t 0.3 -J \
		-o "$f-counted.json" 2> "$f-counted.err"
	rc2=$?
	sed 's/^/# /' "$f-counted.err"
	[ $rc = 0 ] && [ $rc2 = 0 ] || return 1
	grep -q "main.1: no cycles counted in a round" "$f-counted.err" || return 1
	python3 - "$f.json" "$f-counted.json" <<-'EOF'
	import json, sys
	d = json.load(open(sys.argv[1]))
	c = json.load(open(sys.argv[2]))
	nsig = len(d["signals"])
	bad = []
	for s in d["signals"]:
	    i = s["signal"]
	    word = 0xa5000000 | (0x00a800 + 1 * 0x20 + (i // 32) * 4)
	    bit = (word >> (i % 32)) & 1
	    if (s["domain"] != "main.1" or s["how"] != "sampled" or
	            s["constant"] != bit or s["sampled_share"] != bit or
	            s["sampled_changes"] != 0):
	        bad.append(s)
	ok = not bad and nsig >= 32 and d["rounds"] == 0 and d["samples"] > 1
	print("# sampled: %d signals, %d samples, %d wrong %s" %
	      (nsig, d["samples"], len(bad), bad[:2]))
	cs = c["signals"]
	ok &= [s["signal"] for s in cs] == [0, 1, 2, 3]
	ok &= all(s["how"] == "counted" and s.get("no_cycles") is True and
	          s["share"] is None and s["constant"] is None and
	          s["level_cycles"] == 0 for s in cs)
	print("# counted:", [(s["signal"], s["level"], s["level_cycles"]) for s in cs])
	sys.exit(0 if ok else 1)
	EOF
}
check "g84: nvpc scan: every STATUS bit the BAR's (0xa5000000 | 0xa820 + 4j), sampled and constant; counted: no cycles, said" nvpc_pci_scan

# --- driver unbind: uio_pci_generic takes 00:11.0 and lets it go ---------
G=/sys/bus/pci/devices/0000:00:11.0
if modprobe uio_pci_generic 2> /dev/null; then
	echo uio_pci_generic > $G/driver_override
	echo 0000:00:11.0 > /sys/bus/pci/drivers_probe
	check "unbind: a driver binds the GPU" test -e $G/driver
	check "unbind: the GPU stays registered when a driver binds" \
		has_pmu 0000:00:11.0
	echo 0000:00:11.0 > /sys/bus/pci/drivers/uio_pci_generic/unbind
	echo > $G/driver_override
	check "unbind: logged" \
		klog "0000:00:11.0: nvpcounter: driver unbinding: its events are stopped"
	for _ in $(seq 20); do
		no_pmu 0000:00:11.0 && break
		sleep 1
	done
	check "unbind: its PMU is gone" no_pmu 0000:00:11.0
	rmmod uio_pci_generic
else
	tap skip "unbind: a driver binds the GPU" "no uio_pci_generic module"
fi

# --- all-ones reads: the host fills the BAR with 0xff while counting ------
check "gone: perf stat survives all-ones reads" count gone 0000:00:13.0 g84 6
c=$(first_field gone)
# the sample that saw the GPU go read all-ones: it must not become a count
if [ "$c" = 0 ]; then
	tap ok "gone: no invented counts from the all-ones reads"
else
	tap fail "gone: no invented counts from the all-ones reads" \
		"perf counted '$c'; the core must drop a sample once the device is gone"
fi
check "gone: logged" \
	klog "0000:00:13.0: nvpcounter: PMC.BOOT_0 reads all-ones: the GPU is gone"
check "gone: the registry marks the GPU gone" \
	grep -q "0000:00:13.0 gone" /sys/kernel/debug/nvpcounter/devices

# --- hot-unplug: the host sends device_del while counting -----------------
check "unplug: perf stat survives device_del" count unplug 0000:00:14.0 gt215 10
for _ in $(seq 60); do
	[ -e /sys/bus/pci/devices/0000:00:14.0 ] || break
	sleep 1
done
check "unplug: the device left the bus" test ! -e /sys/bus/pci/devices/0000:00:14.0
check "unplug: logged" \
	klog "0000:00:14.0: nvpcounter: device removed: its events are stopped"
for _ in $(seq 20); do
	no_pmu 0000:00:14.0 && break
	sleep 1
done
check "unplug: its PMU is gone" no_pmu 0000:00:14.0
check "unplug: the other GPUs stay" has_pmu 0000:00:10.0

# what became of the GPUs, through nvpc doctor
doctor after
if [ -e /sys/bus/pci/drivers/uio_pci_generic ] || modinfo uio_pci_generic > /dev/null 2>&1; then
	check "doctor: the unbound GPU stopped, fix: bind its driver again" \
		doctor_says after \
		"FAIL  GPU 0000:00:11.0 (GT215, chipset 0xa3, driver no driver): stopped: its driver unbound" \
		"bind the driver again"
fi
check "doctor: the GPU that went all-ones stopped" doctor_says after \
	"FAIL  GPU 0000:00:13.0 (G84, chipset 0x84, driver no driver): stopped: it stopped answering (PMC.BOOT_0 all-ones)" \
	"power the GPU back on"
check "doctor: the unplugged GPU removed" doctor_says after \
	"ok    GPU 0000:00:14.0 (GT215, chipset 0xa3, driver no driver): removed after use (hot-unplug)"

check "unload with every GPU registered" rmmod nvpcounter
check "unload frees every PMU" \
	test -z "$(ls -d /sys/bus/event_source/devices/nvpcounter* 2> /dev/null)"
echo "1..$n" >> "$TAP"
dmesg | grep -E "nvpcounter|pci 0000:00:1" > "$NVPC_OUT/pci-dmesg.txt"
