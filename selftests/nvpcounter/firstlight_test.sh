#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# nvpc doctor --hardware in the test VM (Documentation/nvpc.rst "First
# light on a real GPU"): on a simulated GPU of every generation, in the
# sim's real-time clock, every check passes and the report names the
# chip's PMC.BOOT_0; then on a G84 with one documented behaviour broken
# per domain by the sim's test knobs (Documentation/sim.rst "Fault
# injection", "clocks"), the report fails exactly those checks:
#
#   main.0  fault lost_swaps (2)  -> no-lost-swaps (its clock is then
#                                    not judged: a period's cycles lost)
#   main.1  its clock at 1/4      -> clock
#   main.2  fault keep main.2 pre -> one-swap and each-counter (pre)
#   main.3  fault no_swap         -> swap-lands (the rest of main.3 skip)
#   main.4  STATUS bit of ZERO stuck at 1 (fault stuck) -> status-zero
#
# tools/testing/vm/guest-selftests.sh runs it; TAP in
# $NVPC_OUT/firstlight_test.tap.
set -u

TAP=$NVPC_OUT/firstlight_test.tap
NVPC=$NVPC_TOP/build/nvpc/nvpc
SIM=/sys/kernel/debug/nvpcounter_sim
PMU=/sys/bus/event_source/devices/nvpcounter
W=$NVPC_OUT/firstlight
TEST=firstlight_test
: > "$TAP"
mkdir -p "$W"
. "$NVPC_TOP/selftests/nvpcounter/tap-lib.sh"

for m in nvpcounter nvpcounter_sim; do
	if ! insmod "$NVPC_MODULE_DIR/$m.ko" 2> "$W/insmod.txt"; then
		tap fail "$m loaded" "$(tr '\n' ' ' < "$W/insmod.txt")"
		echo "1..$n" >> "$TAP"
		exit 1
	fi
done

# firstlight NAME: the report of GPU 0 as text ($W/NAME.txt) and JSON
# ($W/NAME.json, by -o), the exit status in rc
firstlight() {
	timeout --kill-after=5 120 "$NVPC" doctor --hardware -t 0.2 \
		-o "$W/$1.json" > "$W/$1.txt" 2>&1
	rc=$?
	sed "s/^/# $1: /" "$W/$1.txt"
}

# fl_passed NAME: the report's exit status was 0; else its first FAIL
# line and the status, the failure's reason in the TAP
fl_passed() {
	[ "$rc" = 0 ] && return 0
	grep -m 1 '^FAIL' "$W/$1.txt"
	echo "exit $rc"
	return 1
}

# judge NAME CHIPSET ZERO_OFF RECORD: the JSON report of a sound GPU.
# CHIPSET: PMC.BOOT_0 bits 20-28 (envytools' documentation, the sim
# holds nothing else in BOOT_0: sim.rst "reg"); ZERO_OFF: ZERO's offset
# from the trailer base (events.rst "Left out of events/": 0x0e on
# NV40:G84, 0x0c on G84:GF100), "none" where no document names one;
# RECORD: present (G84+, record.rst) or absent.
judge() {
	python3 - "$W/$1.json" "$2" "$3" "$4" "$PMU/domains" << 'EOF'
import json, os, sys
d = json.load(open(sys.argv[1]))
chipset, zoff, record, doms = int(sys.argv[2], 16), sys.argv[3], sys.argv[4], sys.argv[5]
bad = []
if d["boot0"] != "0x%08x" % (chipset << 20):
    bad.append("boot0 %s" % d["boot0"])
names = sorted(os.listdir(doms))
if sorted(x["name"] for x in d["domains"]) != names:
    bad.append("domains %s" % [x["name"] for x in d["domains"]])
for x in d["domains"]:
    base = int(open(os.path.join(doms, x["name"], "trailer_base")).read(), 16)
    want = None if zoff == "none" else base + int(zoff, 16)
    if x["zero"] != want:
        bad.append("%s zero %s, the documents %s" % (x["name"], x["zero"], want))
    if not x["inputs"]:
        bad.append("%s: no input counts" % x["name"])
    got = {c["check"]: c["result"] for c in d["checks"] if c["domain"] == x["name"]}
    for c in ("swap-lands", "no-lost-swaps", "clock", "one-swap", "each-counter"):
        if got.get(c) != "ok":
            bad.append("%s %s %s" % (x["name"], c, got.get(c)))
    if got.get("status-zero") != ("skip" if want is None else "ok"):
        bad.append("%s status-zero %s" % (x["name"], got.get("status-zero")))
    n = sum(1 for c in d["checks"]
            if c["domain"] == x["name"] and c["check"] == "each-counter")
    if n != len(x["inputs"]):
        bad.append("%s: %d each-counter checks for %d inputs" % (x["name"], n, len(x["inputs"])))
if d["failed"] != 0:
    bad.append("failed %d" % d["failed"])
if not d["record"].startswith(record + ":"):
    bad.append("record: %s" % d["record"])
print("# %d domains, %d checks; %s" % (len(d["domains"]), len(d["checks"]),
      "; ".join(bad[:6]) or "as documented"))
sys.exit(1 if bad else 0)
EOF
}

# chip, its chipset, ZERO's offset, record mode, and the inputs that
# count a truth table (perf.rst "Event fields": NV10:NV30 count EVENT
# only)
while read -r chip chipset zoff record inputs; do
	if ! echo "$chip clock=realtime id=0" > "$SIM/create"; then
		tap fail "$chip: a simulated GPU"
		continue
	fi
	firstlight "$chip"
	check "$chip: exit 0, every check passed" fl_passed "$chip"
	check "$chip: the report: PMC.BOOT_0 0x$(printf %x $((chipset << 20))), every domain's checks ok, ZERO where documented, record $record" \
		judge "$chip" "$chipset" "$zoff" "$record"
	check "$chip: the inputs that count: $inputs" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
got = {",".join(x["inputs"]) for x in d["domains"]}
print("# inputs:", got)
sys.exit(got != {sys.argv[2]})' "$W/$chip.json" "$inputs"
	check "$chip: the text's last line" \
		grep -q "^all [0-9]* checks passed: .* behaves as documented$" "$W/$chip.txt"
	echo 0 > "$SIM/remove"
done << 'EOF'
nv10 0x10 none absent event
nv20 0x20 none absent event
nv30 0x30 none absent pre,start,event,stop
nv40 0x40 0x0e absent pre,start,event,stop
g80 0x50 0x0e absent pre,start,event,stop
g84 0x84 0x0c present pre,start,event,stop
gt215 0xa3 0x0c present pre,start,event,stop
gf100 0xc0 none present pre,start,event,stop
gk104 0xe4 none present pre,start,event,stop
EOF

# --- NV10: a step of the live counters that misses -------------------------
# The driver reads the live CTR_EVENT and CTR_CYCLES one after the other
# (perf.rst "Counting"), so a delayed read misses once; doctor counts
# such a step again, three times at most (nvpc.rst "First light on a real
# GPU"). Reads of CTR_EVENT[0], 0x00a610 (pcounter.rst "MMIO registers",
# NV10), stuck at 0x1000 (sim.rst "Fault injection") make a step's count
# 0x1000 exactly: the live counters start over from 0 when the step's
# group restarts the program, the first fold takes 0x1000 (CTR_EVENT_HI
# reads 0 that soon), every later one 0.
live_doctor() {
	timeout --kill-after=5 120 "$NVPC" doctor --hardware -t "$1" \
		-o "$W/$2.json" > "$W/$2.txt" 2>&1
}
# live_measured NAME CHECK: each measured string of CHECK on main.0
live_measured() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["checks"]:
    if c["domain"] == "main.0" and c["check"] == sys.argv[2]:
        print(c["result"], c["measured"])' "$W/$1.json" "$2"
}
echo "nv10 clock=realtime id=0" > "$SIM/create"
ok=1
echo "stuck 0xa610 0x1000" > "$SIM/gpu0/fault" || ok=0
live_doctor 0.2 stuck
rc=$?
sed "s/^/# stuck: /" "$W/stuck.txt"
check "NV10 CTR_EVENT stuck at 0x1000: exit 1" test $ok = 1 -a "$rc" = 1
check "NV10 CTR_EVENT stuck: one-swap and each-counter FAIL, 4096 counted in the last of 3 steps" \
	python3 - "$W/stuck.json" << 'EOF2'
import json, re, sys
d = json.load(open(sys.argv[1]))
fails = sorted(c["check"] for c in d["checks"] if c["result"] == "FAIL")
print("# FAIL:", fails)
ok = fails == ["each-counter", "one-swap"]
for c in d["checks"]:
    if c["result"] == "FAIL":
        print("# %s: %s" % (c["check"], c["measured"]))
        ok = ok and re.match(r"event counted 4096; the cycles [0-9]+ \(the last of 3 steps, each off\)$",
                             c["measured"]) is not None
sys.exit(not ok)
EOF2
# stuck while the first step counts, then not: -t 3, the first step's
# last read at 3 s, the second step (each-counter) until 6 s, the first
# again from 6 s; the fault goes at 4.5 s
ok=1
live_doctor 3 unstuck &
pid=$!
sleep 4.5
echo unstick > "$SIM/gpu0/fault" || ok=0
wait $pid
rc=$?
sed "s/^/# unstuck: /" "$W/unstuck.txt"
check "NV10 CTR_EVENT stuck for the first step only: exit 0" test $ok = 1 -a "$rc" = 0
check "NV10 CTR_EVENT stuck for the first step only: one-swap ok in step 2 of 3, the first 4096" \
	eval 'live_measured unstuck one-swap | grep -E "^ok [0-9]+, over [0-9]+ cycles \(step 2 of 3: the first counted 4096 over [0-9]+ cycles\)$"'
echo 0 > "$SIM/remove"

# --- one behaviour broken per domain of a G84 ------------------------------
echo "g84 clock=realtime id=0" > "$SIM/create"
G=$SIM/gpu0
# the clock first: setting one rebuilds the model (sim.rst "clocks")
nominal=$(cat "$PMU/domains/main.1/nominal_hz")
quarter=$((nominal / 4))
ok=1
echo "main.1 $quarter" > "$G/clocks" || ok=0
# two: the first doubles the domain's first swap, whose OVERFLOW loses
# nothing (no event had counted yet: perf.rst "Counting"), the second a
# period
echo "lost_swaps main.0 2" > "$G/fault" || ok=0
echo "keep main.2 pre" > "$G/fault" || ok=0
echo "no_swap main.3 on" > "$G/fault" || ok=0
# G84 main.4's STATUS word of ZERO: 0x00a800 + i*0x20 + j*4 (NV50:NVC0,
# pcounter.rst "The STATUS registers"), ZERO's bit in it set
zero=$(cat "$PMU/domains/main.4/zero")
addr=$(printf '0x%x' $((0xa800 + 4 * 0x20 + (zero / 32) * 4)))
echo "stuck $addr $(printf '0x%x' $((1 << (zero % 32))))" > "$G/fault" || ok=0
check "broken G84: the knobs took (main.1 at $quarter Hz, ZERO $zero of main.4 at $addr)" test $ok = 1
firstlight broken
check "broken G84: exit 1" test "$rc" = 1
check "broken G84: exactly main.0 no-lost-swaps, main.1 clock, main.2 one-swap and each-counter (pre), main.3 swap-lands, main.4 status-zero fail" \
	python3 - "$W/broken.json" << 'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
fails = sorted((c["domain"], c["check"]) for c in d["checks"] if c["result"] == "FAIL")
want = sorted([("main.0", "no-lost-swaps"), ("main.1", "clock"),
               ("main.2", "one-swap"), ("main.2", "each-counter"),
               ("main.3", "swap-lands"), ("main.4", "status-zero")])
print("# FAIL:", fails)
ok = fails == want and d["failed"] == len(want)
for c in d["checks"]:
    if c["result"] == "FAIL":
        print("# %s %s: measured %s" % (c["domain"], c["check"], c["measured"]))
# the one each-counter that fails is pre's; main.3's other checks skip
ok = ok and any(c["domain"] == "main.2" and c["check"] == "each-counter" and
                c["result"] == "FAIL" and c["measured"].startswith("pre counted")
                for c in d["checks"])
ok = ok and all(c["result"] == "skip" for c in d["checks"]
                if c["domain"] == "main.3" and c["check"] in
                ("clock", "one-swap", "each-counter", "status-zero"))
sys.exit(not ok)
EOF
check "broken G84: the clock measured at a quarter of the catalogue's (x0.2 to x0.3)" \
	python3 - "$W/broken.json" << 'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
c = [c for c in d["checks"] if c["domain"] == "main.1" and c["check"] == "clock"][0]
r = float(re.search(r"\(x([0-9.]+)\)", c["measured"]).group(1))
print("# main.1 clock:", c["measured"])
sys.exit(not 0.2 <= r <= 0.3)
EOF
check "broken G84: each FAIL says what is documented" \
	test "$(grep -c '^      documented: ' "$W/broken.txt")" = 6
echo 0 > "$SIM/remove"

# -o follows the rules of every output (nvpc.rst "Output files"): a
# directory is refused before anything is counted
echo "g84 clock=realtime id=0" > "$SIM/create"
timeout 60 "$NVPC" doctor --hardware -t 0.05 -o "$W" > "$W/dir.txt" 2>&1
rc=$?
check "-o a directory: refused (exit 1) before anything is counted" \
	test "$rc" = 1 -a "$(grep -c -e directory -e clock "$W/dir.txt")" = 1
timeout 60 "$NVPC" doctor --hardware -t 0 > "$W/bad-t.txt" 2>&1
check "-t 0: usage (exit 2)" test $? = 2
echo 0 > "$SIM/remove"

rmmod nvpcounter_sim
rmmod nvpcounter
echo "1..$n" >> "$TAP"
