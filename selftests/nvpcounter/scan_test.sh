#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# nvpc scan in the test VM (Documentation/nvpc.rst "nvpc scan"): which
# signals move, against waveforms set by hand (Documentation/sim.rst
# "Waveforms and ground truth"). Four simulated GPUs, every domain at
# 1 MHz, manual clock: the workload is "echo 1200 > advance", 1200
# cycles of every domain, so each counted round sees exactly 1200
# cycles. On every domain whose trailer signals start at 0x08 or above,
# four signals (periodic PERIOD WIDTH PHASE is 1 in cycle c iff
# (c + PHASE) % PERIOD < WIDTH):
#
#   0x01 periodic 4 1 1     level 1200 * 1/4  = 300, edges 1200/4  = 300
#   0x02 periodic 10 3 3    level 1200 * 3/10 = 360, edges 1200/10 = 120
#   0x03 const 1            level 1200,              edges 0
#   0x04 periodic 25 12 12  level 1200 * 12/25 = 576, edges 1200/25 = 48
#
# and 0x00, 0x05-0x0f constant 0 where they are sources. PHASE =
# WIDTH puts each wave at 0 in every cycle that is a multiple of 1200
# (the rounds' first cycles): no edge there either.
# G84 main.1 0xbd (graph_idle, named by the catalogue) is periodic 8 2 2:
# 300 cycles at 1, 150 edges.
#
#   GPU 0 G84     8 domains, four inputs each
#   GPU 1 NV20    single event mode: one input a domain
#   GPU 4 NV10    the same, the first generation with PCOUNTER
#   GPU 5-8       NV30, G80, GT215, GK104 (five of its hub, GPC and
#                 partition domains, per unit): every generation counted
#   GPU 2 NV40
#   GPU 3 GF100   gpcs=2 parts=1: gpc0.0, gpc1.0, part0.0 scanned per unit,
#                 then summed (--units sum: gpc*.0, part*.0)
#
# Then: the rounds against the fewest the inputs allow, --match, --diff
# between two scans whose waves differ on four signals (each class), the
# sampled pass against its bound, the table's names and folding, and
# the privilege message. tools/testing/vm/
# guest-selftests.sh runs it after export_test.sh; TAP in
# $NVPC_OUT/scan_test.tap.
set -u

TAP=$NVPC_OUT/scan_test.tap
TEST=scan_test
NVPC=$NVPC_TOP/build/nvpc/nvpc
SIM=/sys/kernel/debug/nvpcounter_sim
W=$NVPC_OUT/scan
N=1200
: > "$TAP"
mkdir -p "$W"
. "$NVPC_TOP/selftests/nvpcounter/tap-lib.sh"

scaled() {	# scaled SECS: whole seconds, rounded up (guest-lib.sh)
	awk -v s="$1" -v f="${NVPC_TIME_SCALE:-1}" \
		'BEGIN { v = s * (f < 1 ? 1 : f); printf "%d\n", v == int(v) ? v : int(v) + 1 }'
}

nvpc() { timeout --kill-after=5 "$(scaled 300)" "$NVPC" "$@"; }

if ! insmod "$NVPC_MODULE_DIR/nvpcounter.ko" 2> "$W/insmod.txt" ||
   ! insmod "$NVPC_MODULE_DIR/nvpcounter_sim.ko" 2>> "$W/insmod.txt"; then
	tap fail "modules loaded" "$(tr '\n' ' ' < "$W/insmod.txt")"
	echo "1..$n" >> "$TAP"
	exit 1
fi

# waves GPU: the four waves on every domain that takes them (a trailer
# signal the model computes refuses a wave: sim.rst), each such domain's
# name into $W/waved.GPU; signals 0x00 and 0x05-0x0f set constant 0
# where they are sources, "NAME ID" into $W/zero.GPU
waves() {
	local g=$1 flat name nr sig ok
	: > "$W/waved.$g"
	: > "$W/zero.$g"
	while read -r flat name _ _ _ nr _; do
		ok=1
		echo "$flat 1 periodic 4 1 1" > "$SIM/gpu$g/wave" 2> /dev/null || ok=
		echo "$flat 2 periodic 10 3 3" > "$SIM/gpu$g/wave" 2> /dev/null || ok=
		echo "$flat 3 const 1" > "$SIM/gpu$g/wave" 2> /dev/null || ok=
		echo "$flat 4 periodic 25 12 12" > "$SIM/gpu$g/wave" 2> /dev/null || ok=
		[ -n "$ok" ] && echo "$name" >> "$W/waved.$g"
		for sig in 0 5 6 7 8 9 10 11 12 13 14 15; do
			[ "$sig" -lt "$nr" ] || continue
			echo "$flat $sig const 0" > "$SIM/gpu$g/wave" 2> /dev/null &&
				echo "$name $sig" >> "$W/zero.$g"
		done
	done < "$SIM/gpu$g/domains"
}

echo "g84 id=0" > "$SIM/create"
echo "nv20 id=1" > "$SIM/create"
echo "nv40 id=2" > "$SIM/create"
echo "gf100 gpcs=2 parts=1 id=3" > "$SIM/create"
echo "nv10 id=4" > "$SIM/create"
echo "nv30 id=5" > "$SIM/create"
echo "g80 id=6" > "$SIM/create"
echo "gt215 id=7" > "$SIM/create"
echo "gk104 id=8" > "$SIM/create"
for g in 0 1 2 3 4 5 6 7 8; do
	echo "all 1000000" > "$SIM/gpu$g/clocks"
	waves $g
done
echo "main.1 0xbd periodic 8 2 2" > "$SIM/gpu0/wave"

# check_exact RC JSON GPU: exit 0; every waved signal's counts as above,
# every source set constant 0 at 0, each over N cycles, a whole run of
# the workload
check_exact() {
	[ "$1" -eq 0 ] || return 1
	python3 - "$2" "$W/waved.$3" "$W/zero.$3" "$N" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[4])
waved = set(open(sys.argv[2]).read().split())
zero = set(tuple(l.split()) for l in open(sys.argv[3]))
want = {1: (n // 4, n // 4), 2: (n * 3 // 10, n // 10), 3: (n, 0),
        4: (n * 12 // 25, n // 25)}
bad, seen = [], 0
for s in d["signals"]:
    dom, i = s["domain"], s["signal"]
    if d["chip"] == "G84" and dom == "main.1" and i == 0xbd:
        w = (n // 4, n // 8)
        if s["name"] != "graph_idle":
            bad.append(("name", s))
    elif dom in waved and i in want:
        w = want[i]
    elif (dom, str(i)) in zero:
        w = (0, 0)
    else:
        continue        # a trailer signal
    seen += 1
    got = (s.get("level"), s.get("edges"))
    if (s["how"] != "counted" or got != w or s["level_cycles"] != n or
            s["edge_cycles"] != n or s["seen"] != 1 or
            abs(s["share"] - w[0] / n) > 1e-9 or
            s["constant"] != (None if w[1] else (1 if w[0] else 0))):
        bad.append((dom, i, w, s))
print("# %s: %d signals of %d domains checked, %d wrong %s" %
      (d["chip"], seen, len(waved), len(bad), bad[:3]))
sys.exit(not (seen >= 16 and not bad))
PY
}

# rounds_of GPU INPUTS: the rounds --signals 0x00-0x0f,0xbd needs, by hand:
# two inputs a signal (level, edges), INPUTS a domain, the domains side by
# side; a domain has the ids below its signal count (the sim's domains)
rounds_of() {
	awk -v inputs="$2" '{
		nr = $6; c = (nr < 16 ? nr : 16) + (nr > 189)
		r = int((2 * c + inputs - 1) / inputs); if (r > max) max = r
	} END { print max }' "$SIM/gpu$1/domains"
}

# --- counted, every signal, every generation ------------------------------
names=(G84 NV20 NV40 GF100 NV10 NV30 G80 GT215 GK104)
inputs=(4 1 4 4 1 4 4 4 4)
# GK104's 28 domains: one of each kind (hub.6 the one above 0xbd, so
# the rounds are as many as with all of them), units 0 and 3
dsel=("" "" "" "" "" "" "" "" "-d hub.0,hub.6,gpc0.0,gpc3.2,part3.1")
for g in 0 1 2 3 4 5 6 7 8; do
	pmu=$(pmu_of sim.$g)
	# shellcheck disable=SC2086
	nvpc scan -g "$pmu" ${dsel[$g]} --no-sample --warmup --signals 0x00-0x0f,0xbd -J \
		-o "$W/exact.$g.json" -- sh -c "echo $N > $SIM/gpu$g/advance" \
		2> "$W/exact.$g.err"
	rc=$?
	sed 's/^/# /' "$W/exact.$g.err"
	check "${names[$g]} ($pmu): exit 0, each signal's level and rising edges exact over $N cycles" \
		check_exact $rc "$W/exact.$g.json" $g
	r=$(rounds_of $g "${inputs[$g]}")
	check "${names[$g]}: $r rounds, the fewest ${inputs[$g]} inputs a domain allow" \
		python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
sys.exit(not (d["rounds"] == d["rounds_min"] == int(sys.argv[2])))' \
		"$W/exact.$g.json" "$r"
done

# --- GF100 units summed (--units sum): gpc*.0 of both GPCs, part*.0 of one ---
# gpc1.0's signal 1 made periodic 6 1 1 (1200/6 = 200 cycles at 1, 200
# edges) beside gpc0.0's periodic 4 1 1 (300, 300): the sum counts 500 of
# 2 x 1200 summed cycles and 500 edges; signals 2-4 count twice their
# one-unit figures over 2400 cycles (0x03 at 1 in all of them: constant
# 1); part*.0 is its one partition's domain, over 1200 cycles. The
# STATUS samples are taken in both GPCs: 0x03 is 1 in every one of
# samples x units, a sampled share of exactly 1.
pmu3=$(pmu_of sim.3)
echo "gpc1.0 1 periodic 6 1 1" > "$SIM/gpu3/wave"
nvpc scan -g "$pmu3" --units sum --all --warmup --signals 0x01-0x04 -J \
	-o "$W/sum.json" -- sh -c "echo $N > $SIM/gpu3/advance" 2> "$W/sum.err"
rc=$?
sed 's/^/# /' "$W/sum.err"
check "GF100 --units sum: gpc*.0 (2 units) sums both GPCs exactly over 2 x $N cycles, part*.0 (1 unit) its partition's" \
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
n = int(sys.argv[3])
want = {("gpc*.0", 1): (500, 500, 2 * n), ("gpc*.0", 2): (720, 240, 2 * n),
        ("gpc*.0", 3): (2 * n, 0, 2 * n), ("gpc*.0", 4): (1152, 96, 2 * n),
        ("part*.0", 1): (300, 300, n), ("part*.0", 2): (360, 120, n),
        ("part*.0", 3): (n, 0, n), ("part*.0", 4): (576, 48, n)}
units = {"gpc*.0": 2, "part*.0": 1}
got = {}
for s in d["signals"]:
    got[(s["domain"], s["signal"])] = (s["level"], s["edges"], s["level_cycles"])
    print("# %s 0x%02x units %s level %d edges %d cycles %d/%d share %.6f" %
          (s["domain"], s["signal"], s.get("units"), s["level"], s["edges"],
           s["level_cycles"], s["edge_cycles"], s["share"]))
    if s.get("units") != units.get(s["domain"]) or s["how"] != "counted":
        sys.exit(1)
    if s["signal"] == 3 and s["constant"] != 1:
        sys.exit(1)
    # sampled in every unit: a share of samples x units, 0x03 at 1 in all
    if not 0 <= s["sampled_share"] <= 1 or (s["signal"] == 3 and
                                             s["sampled_share"] != 1):
        sys.exit(1)
sys.exit(not (int(sys.argv[2]) == 0 and got == want and d["samples"] > 1))' "$W/sum.json" "$rc" "$N"
nvpc scan -g "$pmu3" --units sum -d gpc1.0 --no-sample --signals 1 -J \
	-o "$W/sum1.json" -- sh -c "echo $N > $SIM/gpu3/advance" 2> "$W/sum1.err"
rc=$?
check "GF100 --units sum -d gpc1.0: a unit names its whole sum, gpc*.0 alone" \
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
sys.exit(not (int(sys.argv[2]) == 0 and
              {s["domain"] for s in d["signals"]} == {"gpc*.0"}))' "$W/sum1.json" "$rc"
nvpc scan -g "$pmu3" --units some -t 1 > "$W/units-bad.txt" 2>&1
rc=$?
check "--units some: exit 2, the two choices named" \
	sh -c "test $rc -eq 2 && grep -q 'each.*or sum' '$W/units-bad.txt'"

# --- the table: names, folding ---------------------------------------------
pmu0=$(pmu_of sim.0)
nvpc scan -g "$pmu0" --no-sample --warmup -d main.1 --signals 0x00-0x0f,0xbd \
	-- sh -c "echo $N > $SIM/gpu0/advance" > "$W/table.txt" 2>&1
rc=$?
sed 's/^/# /' "$W/table.txt"
check "table: graph_idle by name, ranked first by edges: 0x01 (300), 0xbd (150), 0x02 (120), 0x04 (48)" \
	sh -c "test $rc -eq 0 && awk '\$1 == \"main.1\" && \$4 == \"counted\" { print \$2 }' '$W/table.txt' | head -4 | tr '\n' ' ' | grep -qx '0x01 0xbd 0x02 0x04 ' &&
	       grep -q '^main.1 *0xbd *graph_idle ' '$W/table.txt'"
check "table: the constant signals folded, 0x00,0x05-0x0f at 0 and 0x03 at 1" \
	sh -c "grep -qx 'main.1 constant 0 (12 signals): 0x00,0x05-0x0f' '$W/table.txt' &&
	       grep -qx 'main.1 constant 1 (1 signal): 0x03' '$W/table.txt'"

# --- --match: the signals that counted N ------------------------------------
nvpc scan -g "$pmu0" --no-sample --warmup -d main.0,main.1 --signals 0x00-0x0f \
	--match 120 -J -o "$W/match.json" -- sh -c "echo $N > $SIM/gpu0/advance" \
	2> "$W/match.err"
rc=$?
check "--match 120: 0x02 of main.0 and main.1 (120 edges), nothing else" \
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
got = sorted((s["domain"], s["signal"]) for s in d["signals"])
print("#", got)
sys.exit(not (int(sys.argv[2]) == 0 and got == [("main.0", 2), ("main.1", 2)]))' \
	"$W/match.json" "$rc"

# --- --diff: four waves changed, one of each class --------------------------
echo "1 5 periodic 6 1 1" > "$SIM/gpu0/wave"	# 0 -> toggling
echo "1 6 const 1" > "$SIM/gpu0/wave"		# 0 -> 1
echo "1 3 const 0" > "$SIM/gpu0/wave"		# 1 -> 0
echo "1 2 const 1" > "$SIM/gpu0/wave"		# toggling -> 1
nvpc scan -g "$pmu0" --no-sample --warmup -d main.0,main.1 --signals 0x00-0x0f -J \
	-o "$W/after.json" -- sh -c "echo $N > $SIM/gpu0/advance" 2> "$W/after.err"
nvpc scan -J -o "$W/diff.json" --diff "$W/exact.0.json" "$W/after.json" \
	2> "$W/diff.err"
rc=$?
check "--diff: exactly main.1 0x02 toggling -> 1, 0x03 1 -> 0, 0x05 0 -> toggling, 0x06 0 -> 1" \
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
got = sorted((c["domain"], c["signal"], c["class"]) for c in d["changed"])
print("#", got)
sys.exit(not (int(sys.argv[2]) == 0 and got == [("main.1", 2, "toggling -> 1"),
    ("main.1", 3, "1 -> 0"), ("main.1", 5, "0 -> toggling"), ("main.1", 6, "0 -> 1")]))' \
	"$W/diff.json" "$rc"

# --- the sampled pass ---------------------------------------------------------
# A loop of ours advances the manual clock 7 cycles at a time all
# through the scan (-t 1: the samples for 1 s, then the counted rounds
# in slices of 1 s), so that every sample falls while the waves move and
# sees the model's state between two advances. Two pseudo-random waves
# join the ones above: 0x07 random 42 16384 (1 with probability 1/4),
# 0x08 random 7 49152 (3/4). A sampled share must be within its stated
# bound of the wave's share, that bound below 1/4 for each signal that
# moves (it changed often enough); a constant one exactly 0 or 1 and not
# counted; the ones that moved counted.
echo "1 7 random 42 16384" > "$SIM/gpu0/wave"
echo "1 8 random 7 49152" > "$SIM/gpu0/wave"
while :; do echo 7 > "$SIM/gpu0/advance" || break; done &
adv=$!
nvpc scan -g "$pmu0" -d main.1 --signals 0x00-0x0f -t 1 -J -o "$W/sampled.json" \
	2> "$W/sampled.err"
rc=$?
kill "$adv"
wait "$adv" 2> /dev/null
sed 's/^/# /' "$W/sampled.err"
check "sampled: each share within its bound (below 1/4) of the wave's; constants exactly, not counted; the moved ones counted" \
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
share = {1: 1 / 4, 2: 1.0, 3: 0.0, 4: 12 / 25, 5: 1 / 6, 6: 1.0, 7: 1 / 4, 8: 3 / 4}
ok = int(sys.argv[2]) == 0 and d["samples"] > 100
print("# %d samples in %.2f s" % (d["samples"], d["sample_seconds"]))
for s in sorted(d["signals"], key=lambda s: s["signal"]):
    w = share.get(s["signal"], 0.0)
    const = w in (0.0, 1.0)
    b = s["sampled_bound"]
    print("# 0x%02x %s share %.4f bound %.4f (wave %.4f), %d changes" %
          (s["signal"], s["how"], s["sampled_share"], b, w, s["sampled_changes"]))
    ok &= abs(s["sampled_share"] - w) <= (0 if const else b)
    ok &= const or b < 0.25
    ok &= s["how"] == ("sampled" if const else "counted")
sys.exit(not ok)' "$W/sampled.json" "$rc"

# --- privilege -------------------------------------------------------------
old=$(cat /proc/sys/kernel/perf_event_paranoid)
echo 2 > /proc/sys/kernel/perf_event_paranoid
install -m 0755 "$NVPC" /run/nvpc-scan-nobody
setpriv --reuid=65534 --regid=65534 --clear-groups \
	/run/nvpc-scan-nobody scan -g "$pmu0" --no-sample -t 0.1 > "$W/nobody.txt" 2>&1
rc=$?
echo "$old" > /proc/sys/kernel/perf_event_paranoid
rm -f /run/nvpc-scan-nobody
sed 's/^/# /' "$W/nobody.txt"
check "as nobody at perf_event_paranoid 2: exit 1, the fix named" \
	sh -c "test $rc -eq 1 && grep -q 'setcap cap_perfmon+ep' '$W/nobody.txt' &&
	       grep -q 'kernel.perf_event_paranoid=0' '$W/nobody.txt'"

for g in 0 1 2 3 4 5 6 7 8; do
	echo "$g" > "$SIM/remove"
done
rmmod nvpcounter_sim
rmmod nvpcounter
echo "1..$n" >> "$TAP"
