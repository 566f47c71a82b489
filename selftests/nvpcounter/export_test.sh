#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# nvpc export in the test VM (Documentation/monitoring.rst "Prometheus"):
# the counters of simulated GPUs with waveforms set by hand, scraped by
# hand and by Debian's Prometheus. Two GPUs at 1 MHz, real-time clock:
#
#   nvpcounter    G84:  graph_idle high 3 of every 10 cycles: graph 70% busy
#   nvpcounter_1  NV40: no engine signal named: its domains' cycles alone
#
# Checked: the page (promtool), every series naming its GPU by bus id
# (sim.N) beside its PMU, the totals since the exporter started: the
# idle signal's 3/10 of its domain's cycles to one period (the group
# enabled whole), busy = 1 - the ratio of the idle and cycles counters'
# increases between two scrapes within 1% of 0.70, the same through
# Prometheus (scrape_interval 1s, a PromQL query through its HTTP API),
# 70 clients from 127.0.0.2 trickling a request a byte every 0.5 s all
# cut while a scrape from 127.0.0.1 gets its page within Prometheus'
# default scrape timeout, the G84's series ending when it is removed
# while the exporter lives on and a GPU added later being picked up,
# SIGTERM's exit 0, the privilege message as nobody at
# perf_event_paranoid 2 and nobody with CAP_PERFMON alone (as
# nvpc-export.service runs it).
#
# tools/testing/vm/guest-selftests.sh runs it after engines_test.sh; by hand, run it in the
# guest as root with NVPC_OUT (a writable directory), NVPC_TOP (the
# tree, built: build/nvpc/nvpc), NVPC_MODULE_DIR (nvpcounter.ko and
# nvpcounter_sim.ko) and NVPC_TIME_SCALE (the guest's slowness, 1 by
# default); TAP in $NVPC_OUT/export_test.tap. Every wait is bounded;
# only the processes it started are killed, by pid.
set -u

TAP=$NVPC_OUT/export_test.tap
NVPC=$NVPC_TOP/build/nvpc/nvpc
SIM=/sys/kernel/debug/nvpcounter_sim
PMUS=/sys/bus/event_source/devices
W=$NVPC_OUT/export
PORT=19089
PROM_PORT=19090
# Prometheus mmaps its files: tmpfs, not the 9p results share
TSDB=/run/nvpc-export-tsdb
URL=http://127.0.0.1:$PORT/metrics
n=0
exp_pid=
prom_pid=
: > "$TAP"
rm -rf "$W"
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
	echo "export_test: $1 $2 ${3:-}"
}

check() {	# check DESC COMMAND...
	local desc=$1
	shift
	if "$@"; then tap ok "$desc"; else tap fail "$desc"; fi
}

# GET a URL into stdout, bounded (curl, else bash's /dev/tcp)
get() {
	if command -v curl > /dev/null; then
		curl -sf --max-time "$(scaled 10)" "$@"
	else
		local hp=${1#http://} path
		path=/${hp#*/}
		hp=${hp%%/*}
		timeout "$(scaled 10)" bash -c '
			exec 3<> "/dev/tcp/${1%:*}/${1#*:}" || exit 1
			printf "GET %s HTTP/1.0\r\nHost: %s\r\n\r\n" "$2" "$1" >&3
			sed "1,/^\r$/d" <&3' sh "$hp" "$path"
	fi
}

# stop PID with SIGTERM (SIGKILL after SECS): its exit status
stop() {
	local pid=$1 secs=$2 i
	kill -TERM "$pid" 2> /dev/null
	for ((i = 0; i < secs * 10; i++)); do
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.1
	done
	kill -KILL "$pid" 2> /dev/null
	wait "$pid"
}

cleanup() {
	[ -n "$prom_pid" ] && stop "$prom_pid" "$(scaled 10)" > /dev/null 2>&1
	[ -n "$exp_pid" ] && stop "$exp_pid" "$(scaled 10)" > /dev/null 2>&1
	prom_pid=
	exp_pid=
	for g in 0 1 2 3 4 5; do
		[ -d "$SIM/gpu$g" ] && echo "$g" > "$SIM/remove"
	done
	rm -f /run/nvpc-nobody-export
	rm -rf "$TSDB"
	rmmod nvpcounter_sim 2> /dev/null
	rmmod nvpcounter 2> /dev/null
}

# the value of the series of $1 (a page) whose line starts with $2
value() {
	awk -v p="$2" 'index($0, p) == 1 { print $NF; f = 1 } END { exit !f }' "$1"
}

# wait (bounded by SECS) until the exporter answers
wait_up() {
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		get "$URL" > /dev/null 2>&1 && return 0
		kill -0 "$exp_pid" 2> /dev/null || return 1
		sleep 0.1
	done
	return 1
}

if ! insmod "$NVPC_MODULE_DIR/nvpcounter.ko" 2> "$W/insmod.txt" ||
   ! insmod "$NVPC_MODULE_DIR/nvpcounter_sim.ko" 2>> "$W/insmod.txt"; then
	tap fail "modules loaded" "$(tr '\n' ' ' < "$W/insmod.txt")"
	echo "1..$n" >> "$TAP"
	exit 1
fi

echo "g84 id=0" > "$SIM/create"
echo "nv40 id=1" > "$SIM/create"
for g in 0 1; do
	echo "all 1000000" > "$SIM/gpu$g/clocks"
done
echo "main.1 0xbd periodic 10 3 0" > "$SIM/gpu0/wave"
for g in 0 1; do
	echo realtime > "$SIM/gpu$g/clock"
done

# --- scraped by hand ---------------------------------------------------
"$NVPC" export --listen 127.0.0.1:$PORT 2> "$W/export.err" &
exp_pid=$!
check "the exporter answers on 127.0.0.1:$PORT" wait_up "$(scaled 10)"
# Debian's Prometheus scrapes from now, every second, while the page is
# checked by hand (nothing changes the GPUs before its query, below):
# its window fills meanwhile, not after
prom_start() {
	command -v prometheus > /dev/null || return 0
	cat > "$W/prometheus.yml" <<-EOF
	global:
	  scrape_interval: 1s
	  evaluation_interval: 1s
	scrape_configs:
	  - job_name: nvpc
	    static_configs:
	      - targets: ['127.0.0.1:$PORT']
	EOF
	prometheus --config.file="$W/prometheus.yml" \
		--storage.tsdb.path="$TSDB" \
		--web.listen-address=127.0.0.1:$PROM_PORT \
		> "$W/prometheus.log" 2>&1 &
	prom_pid=$!
	prom_t0=$SECONDS
}
prom_start
get "$URL" > "$W/page1.txt"
sed 's/^/# /' "$W/page1.txt" | grep -v '^# # ' | head -40
check "two GPUs counted: nvpc_gpus 2" grep -qx 'nvpc_gpus 2' "$W/page1.txt"
G84='{gpu="nvpcounter",bus="sim.0",chip="G84",domain="main.1"'
check "G84: graph_idle in main.1's group, engine graph" \
	grep -q "^nvpc_signal_cycles_total$G84,signal=\"graph_idle\",engine=\"graph\"} [0-9]" "$W/page1.txt"
check "NV40: its five domains' cycles, no signal" \
	sh -c "test \$(grep -c '^nvpc_domain_cycles_total{gpu=\"nvpcounter_1\",bus=\"sim.1\",chip=\"NV40\",domain=\"main.[0-4]\"} ' '$W/page1.txt') -eq 5 &&
	       ! grep -q '^nvpc_signal_cycles_total{gpu=\"nvpcounter_1\"' '$W/page1.txt'"
check "the driver's loss counts: lost_periods, not_responding of main.1" \
	sh -c "grep -q '^nvpc_domain_lost_periods_total$G84} ' '$W/page1.txt' &&
	       grep -q '^nvpc_domain_not_responding_total$G84} ' '$W/page1.txt'"
if command -v promtool > /dev/null; then
	check "promtool check metrics takes the page" \
		sh -c "promtool check metrics < '$W/page1.txt' > '$W/promtool.txt' 2>&1"
	sed 's/^/# /' "$W/promtool.txt"
else
	tap fail "promtool check metrics takes the page" "no promtool (make deps: prometheus)"
fi
# totals since the exporter opened the group, enabled whole: graph_idle
# is 1 in 3 of every 10 cycles, so over any run of cycles its count is
# 3/10 of them to at most one period's 3 (sim.rst "wave")
i1=$(value "$W/page1.txt" "nvpc_signal_cycles_total$G84,signal=\"graph_idle\"")
c1=$(value "$W/page1.txt" "nvpc_domain_cycles_total$G84}")
check "totals since the start: graph_idle's is 3/10 of main.1's cycles to 3 ($i1 of $c1)" \
	awk -v i="$i1" -v c="$c1" 'BEGIN { d = i - c * 3 / 10; print "# idle - 3/10 cycles: " d
		exit !(c > 0 && d >= -3 && d <= 3) }'
sleep "$(scaled 2)"
get "$URL" > "$W/page2.txt"
i1=$(value "$W/page1.txt" "nvpc_signal_cycles_total$G84,signal=\"graph_idle\"")
i2=$(value "$W/page2.txt" "nvpc_signal_cycles_total$G84,signal=\"graph_idle\"")
c1=$(value "$W/page1.txt" "nvpc_domain_cycles_total$G84}")
c2=$(value "$W/page2.txt" "nvpc_domain_cycles_total$G84}")
r1=$(value "$W/page1.txt" "nvpc_domain_running_seconds_total$G84}")
r2=$(value "$W/page2.txt" "nvpc_domain_running_seconds_total$G84}")
echo "# idle $i1 -> $i2, cycles $c1 -> $c2, running $r1 -> $r2 s"
check "two scrapes: busy = 1 - idle / cycles increase within 1% of 0.70" \
	awk -v i1="$i1" -v i2="$i2" -v c1="$c1" -v c2="$c2" 'BEGIN {
		b = 1 - (i2 - i1) / (c2 - c1); print "# busy " b
		exit !(c2 > c1 && b > 0.70 - 0.007 && b < 0.70 + 0.007) }'
check "two scrapes: main.1's clock (cycles over running seconds) 1 MHz within 5%" \
	awk -v c1="$c1" -v c2="$c2" -v r1="$r1" -v r2="$r2" 'BEGIN {
		hz = (c2 - c1) / (r2 - r1); print "# clock " hz " Hz"
		exit !(hz > 950000 && hz < 1050000) }'

# --- Debian's Prometheus, scraping every second --------------------------
if [ -n "$prom_pid" ]; then
	win=$(scaled 10)
	q="1 - rate(nvpc_signal_cycles_total{gpu=\"nvpcounter\",signal=\"graph_idle\"}[${win}s]) / ignoring(signal, engine) rate(nvpc_domain_cycles_total{gpu=\"nvpcounter\",domain=\"main.1\"}[${win}s])"
	busy=
	end=$(($(date +%s) + $(scaled 60)))
	# the window filled: at least win seconds of scrapes since its start
	[ $((prom_t0 + win - SECONDS)) -gt 0 ] &&
		sleep $((prom_t0 + win - SECONDS))
	while [ "$(date +%s)" -lt "$end" ]; do
		get -G --data-urlencode "query=$q" \
			"http://127.0.0.1:$PROM_PORT/api/v1/query" > "$W/query.json" 2> /dev/null
		busy=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["data"]["result"]
print(r[0]["value"][1] if len(r) == 1 else "")' "$W/query.json" 2> /dev/null)
		[ -n "$busy" ] && break
		sleep 1
	done
	echo "# PromQL: $q"
	echo "# Prometheus says: ${busy:-nothing} ($(head -c 300 "$W/query.json" 2> /dev/null))"
	check "Prometheus: 1 - rate(idle) / rate(cycles) within 1% of 0.70" \
		awk -v b="${busy:-nan}" 'BEGIN { exit !(b > 0.70 - 0.007 && b < 0.70 + 0.007) }'
	stop "$prom_pid" "$(scaled 10)" > /dev/null 2>&1
	prom_pid=
	check "Prometheus stopped" true
else
	tap fail "Prometheus: 1 - rate(idle) / rate(cycles) within 1% of 0.70" "no prometheus (make deps)"
fi

# --- slow clients ----------------------------------------------------------
# 70 clients from 127.0.0.2, each trickling a request a byte every 0.5 s
# (never a whole one), for longer than a scrape may take: the exporter
# holds no more than its per-address limit of them and cuts each
# --timeout (10 s) after it connected, however it trickles; a scrape
# from 127.0.0.1 meanwhile gets its page within Prometheus' default
# scrape timeout (10 s)
cat > "$W/trickle.py" <<'EOF'
import socket, sys, time
port, n, secs, ready = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
req = b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200
socks, cut = [], 0
for i in range(n):
    s = socket.socket()
    try:
        s.bind(("127.0.0.2", 0))
        s.connect(("127.0.0.1", port))
        s.setblocking(False)
        socks.append(s)
    except OSError:
        cut += 1
open(ready, "w").close()
t0, k = time.monotonic(), 0
while socks and time.monotonic() - t0 < secs:
    for s in list(socks):
        try:
            if s.recv(1) == b"":
                raise ConnectionResetError
        except BlockingIOError:
            pass
        except OSError:
            socks.remove(s); s.close(); cut += 1; continue
        try:
            s.send(req[k % len(req):k % len(req) + 1])
        except BlockingIOError:
            pass
        except OSError:
            socks.remove(s); s.close(); cut += 1
    k += 1
    time.sleep(0.5)
print(cut)
EOF
rm -f "$W/trickle.ready"
python3 "$W/trickle.py" $PORT 70 "$(scaled 30)" "$W/trickle.ready" > "$W/trickle.txt" 2>&1 &
trickle_pid=$!
for ((i = 0; i < $(scaled 10) * 10; i++)); do
	[ -e "$W/trickle.ready" ] && break
	sleep 0.1
done
sleep 1
get "$URL" > "$W/trickle-page.txt" 2> "$W/trickle-get.txt"
rc=$?
check "70 clients trickling from 127.0.0.2: a scrape from 127.0.0.1 gets its page within 10 s" \
	sh -c "test $rc -eq 0 && grep -q '^nvpc_gpus 2\$' '$W/trickle-page.txt'"
# bounded by its own time (30 s, scaled); a little more, then killed
for ((i = 0; i < ($(scaled 30) + 10) * 10; i++)); do
	kill -0 "$trickle_pid" 2> /dev/null || break
	sleep 0.1
done
kill -KILL "$trickle_pid" 2> /dev/null
wait "$trickle_pid"
echo "# trickling clients cut: $(cat "$W/trickle.txt")"
check "70 clients trickling from 127.0.0.2: every one cut before it stopped" \
	test "$(cat "$W/trickle.txt")" = 70

# --- a GPU removed, one added ---------------------------------------------
echo 0 > "$SIM/remove"
sleep "$(scaled 2)"
get "$URL" > "$W/page3.txt"
grep -v '^#' "$W/page3.txt" | sed 's/^/# /' | head -12
check "the G84 removed: the exporter lives on" kill -0 "$exp_pid"
check "the G84 removed: its counters are gone from the page, nvpc_gpu_up 0, nvpc_gpus 1" \
	sh -c "! grep -q '_total{gpu=\"nvpcounter\",' '$W/page3.txt' &&
	       grep -qx 'nvpc_gpu_up{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84\"} 0' '$W/page3.txt' &&
	       grep -qx 'nvpc_gpu_state{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84\",state=\"gone\"} 1' '$W/page3.txt' &&
	       grep -qx 'nvpc_gpus 1' '$W/page3.txt'"
# its events closed, the PMU goes
for ((i = 0; i < $(scaled 10) * 10; i++)); do
	[ -e "$PMUS/nvpcounter" ] || break
	sleep 0.1
done
check "the G84 removed: the exporter let its PMU go" test ! -e "$PMUS/nvpcounter"
echo "g84 id=2" > "$SIM/create"
echo "all 1000000" > "$SIM/gpu2/clocks"
echo realtime > "$SIM/gpu2/clock"
sleep "$(scaled 2)"
get "$URL" > /dev/null	# the scrape that finds it opens it
sleep 1
get "$URL" > "$W/page4.txt"
check "a G84 added later: counted at a later scrape (nvpc_gpus 2)" \
	sh -c "grep -qx 'nvpc_gpus 2' '$W/page4.txt' &&
	       grep -q '^nvpc_signal_cycles_total{gpu=\"[a-z_0-9]*\",bus=\"sim.2\",chip=\"G84\",domain=\"main.1\",signal=\"graph_idle\"' '$W/page4.txt'"
stop "$exp_pid" "$(scaled 10)"
rc=$?
exp_pid=
check "SIGTERM: the exporter ends with 0" test $rc -eq 0
sed 's/^/# /' "$W/export.err"

# --- privilege ------------------------------------------------------------
old=$(cat /proc/sys/kernel/perf_event_paranoid)
echo 2 > /proc/sys/kernel/perf_event_paranoid
# (a copy nobody may run, wherever the tree is)
install -m 0755 "$NVPC" /run/nvpc-nobody-export
timeout "$(scaled 30)" setpriv --reuid=65534 --regid=65534 --clear-groups \
	/run/nvpc-nobody-export export --listen 127.0.0.1:$PORT \
	> "$W/nobody.txt" 2>&1
rc=$?
sed 's/^/# /' "$W/nobody.txt"
check "as nobody at perf_event_paranoid 2: exit 1, CAP_PERFMON and the fixes named" \
	sh -c "test $rc -eq 1 && grep -q 'CAP_PERFMON' '$W/nobody.txt' &&
	       grep -q 'setcap cap_perfmon+ep' '$W/nobody.txt' &&
	       grep -q 'kernel.perf_event_paranoid=0' '$W/nobody.txt'"
# nobody with CAP_PERFMON alone, as the unit's DynamicUser
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=+perfmon \
	--ambient-caps=+perfmon --bounding-set=-all,+perfmon \
	/run/nvpc-nobody-export export --listen 127.0.0.1:$PORT \
	> "$W/perfmon.txt" 2>&1 &
exp_pid=$!
wait_up "$(scaled 10)"
get "$URL" > "$W/page5.txt"
stop "$exp_pid" "$(scaled 10)"
rc=$?
exp_pid=
echo "$old" > /proc/sys/kernel/perf_event_paranoid
sed 's/^/# /' "$W/perfmon.txt"
check "as nobody with CAP_PERFMON alone: counts (nvpc_gpus 2), SIGTERM exit 0" \
	sh -c "test $rc -eq 0 && grep -qx 'nvpc_gpus 2' '$W/page5.txt'"

# --- every generation ------------------------------------------------------
# The generations not above, at 1 MHz, real-time clock (as engines_test.sh):
# G80 (NV40 generation) graph_idle 0xc8 high 1 of 5 cycles, 80% busy;
# GT215 graph_idle 0xcb high 3 of 4, 25% busy; no engine named on NV10
# (live counters), NV20, NV30 and GF100 (one GPC, one partition): their
# domains' cycles. Between two scrapes: busy = 1 - idle / cycles within
# 1%, every domain's cycles over its running seconds 1 MHz within 5%.
for g in 0 1 2; do
	[ -d "$SIM/gpu$g" ] && echo "$g" > "$SIM/remove"
done
. "$NVPC_TOP/selftests/nvpcounter/gens_sim.sh"
gens_create
"$NVPC" export --listen 127.0.0.1:$PORT 2> "$W/gens.err" &
exp_pid=$!
wait_up "$(scaled 10)"
get "$URL" > "$W/gens1.txt"
sleep "$(scaled 2)"
get "$URL" > "$W/gens2.txt"
stop "$exp_pid" "$(scaled 10)" > /dev/null
exp_pid=
sed 's/^/# /' "$W/gens.err"
check "every generation: G80 graph 80%, GT215 graph 25% within 1%; NV10, NV20, NV30, GF100 every domain's cycles at 1 MHz within 5%" \
	python3 -c '
import re, sys

def page(path):
    v = {}
    for line in open(path):
        m = re.match(r"(\w+)\{(.*)\} (\S+)$", line)
        if m:
            labels = dict(re.findall(r"(\w+)=\"([^\"]*)\"", m.group(2)))
            v[(m.group(1), labels["chip"], labels.get("domain"),
               labels.get("signal"))] = float(m.group(3))
    return v

a, b = page(sys.argv[1]), page(sys.argv[2])
d = lambda k: b[k] - a[k]
busy = {"G80": 0.80, "GT215": 0.25}
doms = {"G80": 5, "GT215": 8, "NV10": 1, "NV20": 2, "NV30": 2, "GF100": 2}
ok = True
for chip, nd in doms.items():
    cyc = [k for k in b if k[0] == "nvpc_domain_cycles_total" and k[1] == chip]
    if chip in busy:
        cyc = [k for k in cyc if k[2] == "main.1"]
        nd = 1
    ok &= len(cyc) == nd
    for k in cyc:
        run = ("nvpc_domain_running_seconds_total",) + k[1:]
        hz = d(k) / d(run)
        print("# %s %s: %.0f Hz" % (chip, k[2], hz))
        ok &= abs(hz - 1e6) < 5e4
for chip, w in busy.items():
    idle = ("nvpc_signal_cycles_total", chip, "main.1", "graph_idle")
    cyc = ("nvpc_domain_cycles_total", chip, "main.1", None)
    x = 1 - d(idle) / d(cyc)
    print("# %s graph busy %.5f" % (chip, x))
    ok &= abs(x - w) < 0.01
sys.exit(not ok)' "$W/gens1.txt" "$W/gens2.txt"
check "every generation, totals since the start: G80 graph_idle 1/5, GT215 3/4 of main.1's cycles to one period (1, 3 cycles)" \
	python3 -c '
import re, sys
v = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\w+)\{(.*)\} (\S+)$", line)
    if m:
        l = dict(re.findall(r"(\w+)=\"([^\"]*)\"", m.group(2)))
        v[(m.group(1), l["chip"], l.get("domain"), l.get("signal"))] = int(m.group(3)) if m.group(3).isdigit() else 0
ok = True
for chip, p, w in (("G80", 5, 1), ("GT215", 4, 3)):
    i = v[("nvpc_signal_cycles_total", chip, "main.1", "graph_idle")]
    c = v[("nvpc_domain_cycles_total", chip, "main.1", None)]
    print("# %s: idle %d of %d cycles, idle - %d/%d cycles = %.2f" % (chip, i, c, w, p, i - c * w / p))
    ok &= c > 0 and abs(i - c * w / p) <= w
sys.exit(not ok)' "$W/gens1.txt"

cleanup
check "clean: no GPU left, modules unloaded" \
	sh -c "! grep -q '^nvpcounter' /proc/modules"
echo "1..$n" >> "$TAP"
