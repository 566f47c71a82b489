#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# nvpc top with no arguments in the test VM (Documentation/monitoring.rst):
# every GPU's engines, busy, against waveforms set by hand. Three
# simulated GPUs at 1 MHz, real-time clock:
#
#   nvpcounter    G84:  graph_idle high 3 of every 10 cycles: graph 70% busy
#   nvpcounter_1  G98:  graph_idle 1 of 4 (75%), pcrypt_idle always (0%),
#                       pbsp_idle never (100%), pppp_idle 2 of 5 (60%),
#                       pvp_vuc_idle always (0%), pvp_idle 2 of 8 (75%)
#   nvpcounter_2  NV40: no engine signal named: its domains' clocks, 1 MHz
#
# busy = 1 - idle / cycles over each interval, the members of a domain's
# group read in one swap: the figures are exact to one waveform period
# in 200000 cycles, so they print as above to two decimals. tools/testing/
# vm/guest-selftests.sh runs it after nvpc_test.sh; TAP in
# $NVPC_OUT/engines_test.tap.
set -u

TAP=$NVPC_OUT/engines_test.tap
NVPC=$NVPC_TOP/build/nvpc/nvpc
SIM=/sys/kernel/debug/nvpcounter_sim
W=$NVPC_OUT/engines
n=0
: > "$TAP"
mkdir -p "$W"

scaled() {	# scaled SECS: whole seconds, rounded up (guest-lib.sh)
	awk -v s="$1" -v f="${NVPC_TIME_SCALE:-1}" \
		'BEGIN { v = s * (f < 1 ? 1 : f); printf "%d\n", v == int(v) ? v : int(v) + 1 }'
}

tap() {	# tap ok|fail DESC [REASON]
	n=$((n + 1))
	case $1 in
	ok)	echo "ok $n - $2" >> "$TAP" ;;
	*)	echo "not ok $n - $2${3:+ # $3}" >> "$TAP" ;;
	esac
	echo "engines_test: $1 $2 ${3:-}"
}

check() {	# check DESC COMMAND...
	local desc=$1
	shift
	if "$@"; then tap ok "$desc"; else tap fail "$desc"; fi
}

nvpc() { timeout --kill-after=5 "$(scaled 60)" "$NVPC" "$@"; }

if ! insmod "$NVPC_MODULE_DIR/nvpcounter.ko" 2> "$W/insmod.txt" ||
   ! insmod "$NVPC_MODULE_DIR/nvpcounter_sim.ko" 2>> "$W/insmod.txt"; then
	tap fail "modules loaded" "$(tr '\n' ' ' < "$W/insmod.txt")"
	echo "1..$n" >> "$TAP"
	exit 1
fi

echo "g84 id=0" > "$SIM/create"
echo "g98 id=1" > "$SIM/create"
echo "nv40 id=2" > "$SIM/create"
for g in 0 1 2; do
	echo "all 1000000" > "$SIM/gpu$g/clocks"
done
echo "main.1 0xbd periodic 10 3 0" > "$SIM/gpu0/wave"
echo "main.1 0xbd periodic 4 1 0" > "$SIM/gpu1/wave"
echo "main.5 0x3b const 1" > "$SIM/gpu1/wave"
echo "main.6 0x12 const 0" > "$SIM/gpu1/wave"
echo "main.6 0x42 periodic 5 2 1" > "$SIM/gpu1/wave"
echo "main.6 0x5d const 1" > "$SIM/gpu1/wave"
echo "main.6 0x90 periodic 8 2 3" > "$SIM/gpu1/wave"
for g in 0 1 2; do
	echo realtime > "$SIM/gpu$g/clock"
done

# --- lines: not a terminal ------------------------------------------------
nvpc top -I 200 -n 3 > "$W/lines.txt" 2> "$W/lines.err"
rc=$?
sed 's/^/# /' "$W/lines.txt" "$W/lines.err"
check "top, no arguments, not a terminal: exit 0 after -n 3" test $rc -eq 0
check "a line per GPU and interval: 9" test "$(wc -l < "$W/lines.txt")" -eq 9
check "G84: graph 70.00% in every interval" \
	test "$(grep -c '  nvpcounter G84  graph 70.00%$' "$W/lines.txt")" -eq 3
check "G98: graph 75%, pbsp 100%, pcrypt 0%, pppp 60%, pvp 75%, pvp_vuc 0%" \
	test "$(grep -c '  nvpcounter_1 G98  graph 75.00%  pbsp 100.00%  pcrypt 0.00%  pppp 60.00%  pvp 75.00%  pvp_vuc 0.00%$' "$W/lines.txt")" -eq 3
check "NV40: no engine signal, its domains' clocks near 1 MHz" \
	awk '/  nvpcounter_2 NV40 / {
		n++
		if ($0 !~ /\(no engine signal\)$/) bad++
		for (i = 1; i < NF; i++)
			if ($(i + 1) == "MHz" && ($i < 0.9 || $i > 1.1)) bad++
	} END { exit !(n == 3 && !bad) }' "$W/lines.txt"

# --- JSON and CSV ---------------------------------------------------------
nvpc top -I 200 -n 2 -J > "$W/top.json" 2> "$W/json.err"
rc=$?
check "-J: exit 0, JSON whose busy figures are the waveforms' to 0.01%" \
	python3 -c '
import json, sys
want = {("nvpcounter", "graph"): 70, ("nvpcounter_1", "graph"): 75,
        ("nvpcounter_1", "pcrypt"): 0, ("nvpcounter_1", "pbsp"): 100,
        ("nvpcounter_1", "pppp"): 60, ("nvpcounter_1", "pvp_vuc"): 0,
        ("nvpcounter_1", "pvp"): 75}
d = json.load(open(sys.argv[1]))
seen = 0
for iv in d:
    for g in iv["gpus"]:
        if g["gpu"] == "nvpcounter_2":
            assert "no_engines" in g and len(g["domains"]) == 5, g
            continue
        for e in g["engines"]:
            w = want[(g["gpu"], e["engine"])]
            assert abs(e["busy_pct"] - w) < 0.01, (g["gpu"], e)
            # a signal held at 1 or 0: exactly, one snapshot (perf.rst)
            if w in (0, 100):
                assert e["idle_cycles"] == (e["cycles"] if w == 0 else 0), e
            seen += 1
sys.exit(not (int(sys.argv[2]) == 0 and len(d) == 2 and seen == 14))' \
	"$W/top.json" "$rc"
nvpc top -I 200 -n 2 -c -o "$W/top.csv" > "$W/csv.out" 2>&1
rc=$?
check "-c -o FILE: exit 0, nothing on stdout, a header and 2 x 12 rows" \
	test $rc -eq 0 -a ! -s "$W/csv.out" -a "$(wc -l < "$W/top.csv")" -eq 25
check "-c: G98's pppp row at 60% (busy_pct, idle over cycles)" \
	awk -F, '$2 == "nvpcounter_1" && $6 == "pppp" {
		n++; if ($8 < 59.99 || $8 > 60.01 || $9 / $10 < 0.3999 || $9 / $10 > 0.4001) bad++
	} END { exit !(n == 2 && !bad) }' "$W/top.csv"

# --- -g, a table on a terminal, the privilege message ---------------------
nvpc top -g nvpcounter_2 -I 200 -n 1 > "$W/nv40.txt" 2>&1
check "-g nvpcounter_2: the NV40 alone" \
	test "$(grep -c ' nvpcounter_2 NV40 .*(no engine signal)$' "$W/nv40.txt")" -eq 1 -a \
	"$(wc -l < "$W/nv40.txt")" -eq 1
# (script(1) gives it a pty; the guest's /dev has no devpts)
pts=
if ! grep -qs " /dev/pts devpts" /proc/mounts; then
	mkdir -p /dev/pts && mount -t devpts -o ptmxmode=0666 devpts /dev/pts &&
		pts=1
fi
(sleep "$(scaled 2)"; printf q) | timeout "$(scaled 60)" script -qec "$NVPC top -I 200" /dev/null \
	> "$W/table.txt" 2>&1
rc=$?
[ -n "$pts" ] && umount /dev/pts
tr -d '\r' < "$W/table.txt" | sed 's/\x1b\[[0-9;]*[HJ]//g' | tail -25 | sed 's/^/# /'
check "on a terminal: the table, q quits with 0" \
	sh -c "test $rc -eq 0 && grep -q 'graph (PGRAPH) *70.00%' '$W/table.txt' &&
	       grep -q 'video post-processing (PPPP) *60.00%' '$W/table.txt' &&
	       grep -q 'no busy figure: the catalogue names no engine' '$W/table.txt'"
old=$(cat /proc/sys/kernel/perf_event_paranoid)
echo 2 > /proc/sys/kernel/perf_event_paranoid
# (a copy nobody may run, wherever the tree is)
install -m 0755 "$NVPC" /run/nvpc-nobody
setpriv --reuid=65534 --regid=65534 --clear-groups \
	/run/nvpc-nobody top -n 1 -I 200 > "$W/nobody.txt" 2>&1
rc=$?
echo "$old" > /proc/sys/kernel/perf_event_paranoid
sed 's/^/# /' "$W/nobody.txt"
check "as nobody at perf_event_paranoid 2: exit 1, the fix named" \
	sh -c "test $rc -eq 1 && grep -q 'setcap cap_perfmon+ep' '$W/nobody.txt' &&
	       grep -q 'kernel.perf_event_paranoid=0' '$W/nobody.txt'"

for g in 0 1 2; do
	echo "$g" > "$SIM/remove"
done

# --- every generation ------------------------------------------------------
# The generations not above, at 1 MHz, real-time clock: where the
# catalogue names graph_idle, busy against a waveform set by hand
#   G80 (NV40 generation, one swap for every domain): graph_idle 0xc8
#       high 1 of every 5 cycles: graph 80% busy
#   GT215: graph_idle 0xcb high 3 of every 4 cycles: graph 25% busy
# and where it names none, every domain's clock, 1 MHz: NV10 (live
# counters, one domain), NV20, NV30 (two domains, one swap for both),
# GF100 with one GPC and one partition (gpc0.0, part0.0)
. "$NVPC_TOP/selftests/nvpcounter/gens_sim.sh"
gens_create
nvpc top -I 300 -n 2 -J > "$W/gens.json" 2> "$W/gens.err"
rc=$?
sed 's/^/# /' "$W/gens.err"
check "every generation: G80 graph 80%, GT215 graph 25% to 0.01%; NV10, NV20, NV30, GF100 no engine, every domain at 1 MHz within 10%" \
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
busy = {"G80": 80, "GT215": 25}
doms = {"NV10": 1, "NV20": 2, "NV30": 2, "GF100": 2}
ok = int(sys.argv[2]) == 0 and len(d) == 2
for iv in d:
    chips = {g["chip"]: g for g in iv["gpus"]}
    ok &= sorted(chips) == sorted(list(busy) + list(doms))
    for c, w in busy.items():
        e = chips[c]["engines"]
        ok &= len(e) == 1 and e[0]["engine"] == "graph"
        ok &= e[0]["busy_pct"] is not None and abs(e[0]["busy_pct"] - w) < 0.01
    for c, nd in doms.items():
        g = chips[c]
        ok &= "no_engines" in g and len(g["domains"]) == nd
        ok &= all(abs(x["clock_hz"] - 1e6) < 1e5 for x in g["domains"])
    if not ok:
        print("#", json.dumps(iv)[:600])
        break
sys.exit(not ok)' "$W/gens.json" "$rc"

for g in 0 1 2 3 4 5; do
	echo "$g" > "$SIM/remove"
done
rmmod nvpcounter_sim
rmmod nvpcounter
echo "1..$n" >> "$TAP"
