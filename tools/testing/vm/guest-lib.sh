# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared by the guest scripts (guest-selftests.sh, guest-record.sh): how
# every test binary or script is run inside the test VM.
#
# - guest_time_scale: how fast the guest runs now, against an idle run of
#   this machine kind: NVPC_TIME_SCALE (>= 1), exported to the tests,
#   which multiply their bounds on waits by it (never a duration they
#   measure). Measured at boot; before each test once more, and the
#   larger figure holds for that test.
# - guest_clean NAME: the guest as it booted (no simulated GPU, neither
#   module loaded, no process left of an earlier test, the perf sysctls
#   and CPUs as at boot); "clean guest before NAME" in guest.tap, failing
#   with what could not be cleaned.
# - guest_run NAME OUTPUT CMD...: guest_clean, then CMD in a session of
#   its own bounded by NVPC_TEST_TIMEOUT x NVPC_TIME_SCALE; after it, the
#   whole session is killed; its end is a line of guest.tap ("NAME ran to
#   its end", "ended by its time bound (N s)", "exited with status N",
#   "killed by signal N"), whatever its own TAP says.
# - guest_done: the plan of guest.tap.
#
# $NVPC_OUT/running names the test running now (and since when): if the
# guest dies in a test, run.sh names it.

SIM=/sys/kernel/debug/nvpcounter_sim
GUEST_TAP=$NVPC_OUT/guest.tap
guest_n=0

# guest_tap ok|fail|skip DESC [REASON]
guest_tap() {
	guest_n=$((guest_n + 1))
	case $1 in
	ok)	echo "ok $guest_n $2" ;;
	skip)	echo "ok $guest_n $2 # SKIP ${3:-}" ;;
	*)	echo "not ok $guest_n $2${3:+ # $3}" ;;
	esac >> "$GUEST_TAP"
	echo "guest: $1 $2${3:+ # $3}"
}

# The guest's time for one fixed CPU-bound loop, in ms: 20000 turns of
# bash arithmetic, timed with $EPOCHREALTIME (no fork or exec, whose cost
# under TCG varies far more than the loop's).
loop_ms() {
	local t0 t1 i

	t0=${EPOCHREALTIME/./}
	for ((i = 0; i < 20000; i++)); do :; done
	t1=${EPOCHREALTIME/./}
	LOOP_MS=$(((t1 - t0) / 1000))
	echo "$LOOP_MS"
}

# The loop's time in a guest on an idle machine of this kind (2-core
# Debian 12 VM, QEMU TCG; measured in Documentation/testing.rst "A busy
# machine"). A faster machine gets 1, a slower one more.
NVPC_TIME_REF_MS=${NVPC_TIME_REF_MS:-450}

# scale_h MS: MS against the reference in hundredths, rounded up, at
# least 100, in SCALE_H (bash arithmetic: no fork, which costs up to a
# second under the debug kernel, before each of some 20 tests)
scale_h() {
	SCALE_H=$((($1 * 100 + NVPC_TIME_REF_MS - 1) / NVPC_TIME_REF_MS))
	[ "$SCALE_H" -lt 100 ] && SCALE_H=100
}

# scale_of MS: MS against the reference, at least 1, two decimals
scale_of() {
	scale_h "$1"
	printf '%d.%02d\n' $((SCALE_H / 100)) $((SCALE_H % 100))
}

# hundredths X: a scale such as 1.5 or 2.37 in hundredths (150, 237) in
# HUNDREDTHS, truncated
hundredths() {
	local i=${1%%.*} f=

	[ "$i" = "$1" ] || f=${1#*.}
	f=${f}00
	f=${f:0:2}
	HUNDREDTHS=$((10#${i:-0} * 100 + 10#$f))
}

# guest_time_scale: at boot, the median of three loops; NVPC_TIME_SCALE
# given on the host's command line (run.sh passes it) wins.
guest_time_scale() {
	local a b c med

	a=$(loop_ms); b=$(loop_ms); c=$(loop_ms)
	med=$(printf '%s\n' "$a" "$b" "$c" | sort -n | sed -n 2p)
	GUEST_BOOT_SCALE=${NVPC_TIME_SCALE:-$(scale_of "$med")}
	NVPC_TIME_SCALE=$GUEST_BOOT_SCALE
	export NVPC_TIME_SCALE
	echo "guest: time scale $NVPC_TIME_SCALE (loop $a $b $c ms, idle reference $NVPC_TIME_REF_MS ms)"
	echo "$NVPC_TIME_SCALE $a $b $c $NVPC_TIME_REF_MS" > "$NVPC_OUT/time-scale"
}

# guest_hold_keys: the guest kernel's code is patched once, here, not
# by the tests (Documentation/testing.rst "Guest kernels under TCG"):
# tcg-keys-hold's disabled events hold the tracepoint, software-event
# and perf_sched_events static keys on until the guest ends (a child of
# this shell: guest_clean spares it), and kprobes stay int3s, never
# rewritten into jumps by the optimizer while a CPU runs them. This
# shell waits in read until the holder has opened its events, so that
# nothing else of the guest runs while the kernel rewrites its code.
guest_hold_keys() {
	local line= fd

	echo 0 > /proc/sys/debug/kprobes-optimization 2> /dev/null
	exec {fd}< <(exec "$NVPC_TOP/build/selftests/tcg-keys-hold")
	read -r line <&"$fd"
	exec {fd}<&-
	echo "${line:-tcg-keys-hold: no word from it}"
}

# scaled SECS: SECS x NVPC_TIME_SCALE, whole seconds rounded up
scaled() {
	awk -v s="$1" -v f="${NVPC_TIME_SCALE:-1}" \
		'BEGIN { v = s * (f < 1 ? 1 : f); printf "%d\n", v == int(v) ? v : int(v) + 1 }'
}

# The perf sysctls tests change (and should restore) as they were at boot.
PERF_SYSCTLS="perf_event_paranoid perf_event_mlock_kb perf_event_max_sample_rate perf_cpu_time_max_percent"
declare -A BOOT_SYSCTL=()
for s in $PERF_SYSCTLS; do
	[ -r "/proc/sys/kernel/$s" ] && BOOT_SYSCTL[$s]=$(cat "/proc/sys/kernel/$s")
done

# Every process but pid 1, this shell and its children, with its name:
# in the guest nothing else runs, so whatever is left is an earlier
# test's (orphans are reparented to pid 1, never to this shell).
leftover_pids() {
	local d pid stat rest

	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		{ read -r stat < "$d/stat"; } 2> /dev/null || continue
		rest=${stat##*) }
		# shellcheck disable=SC2086
		set -- $rest
		# state $1, ppid $2: not a zombie, a kernel thread (kthreadd's
		# children), pid 1, this shell or a child of this shell
		case "$1 $2" in
		"Z "*|"X "*|*" 2"|*" 0") continue ;;
		esac
		[ "$pid" = 1 ] || [ "$pid" = 2 ] || [ "$pid" = $$ ] ||
			[ "$2" = $$ ] && continue
		echo "$pid"
	done
}

# guest_clean NAME
guest_clean() {
	local name=$1 did=() bad=() pids p i ids m s c v

	# processes first: they hold events, and a GPU's PMU stays until its
	# last event closes
	pids=$(leftover_pids)
	if [ -n "$pids" ]; then
		for p in $pids; do
			did+=("killed $(cat "/proc/$p/comm" 2> /dev/null)($p)")
			kill -KILL "$p" 2> /dev/null
		done
		for i in $(seq 50); do
			[ -z "$(leftover_pids)" ] && break
			sleep 0.1
		done
		for p in $(leftover_pids); do
			bad+=("process $(cat "/proc/$p/comm" 2> /dev/null)($p) state $(awk '{ print $3 }' "/proc/$p/stat" 2> /dev/null) survives SIGKILL")
		done
	fi
	# CPUs taken offline
	for c in /sys/devices/system/cpu/cpu[0-9]*/online; do
		[ -e "$c" ] || continue
		read -r v < "$c"
		if [ "$v" = 0 ]; then
			if echo 1 > "$c" 2> /dev/null; then
				did+=("$(basename "$(dirname "$c")") online")
			else
				bad+=("$(basename "$(dirname "$c")") stays offline")
			fi
		fi
	done
	for s in "${!BOOT_SYSCTL[@]}"; do
		read -r v < "/proc/sys/kernel/$s"
		if [ "$v" != "${BOOT_SYSCTL[$s]}" ]; then
			echo "${BOOT_SYSCTL[$s]}" > "/proc/sys/kernel/$s" &&
				did+=("$s ${BOOT_SYSCTL[$s]}")
		fi
	done
	# every simulated GPU (Documentation/sim.rst "remove")
	if [ -r "$SIM/list" ]; then
		ids=()
		while read -r i _; do ids+=("$i"); done < "$SIM/list"
		for i in "${ids[@]}"; do
			echo "$i" > "$SIM/remove" 2> /dev/null &&
				did+=("removed gpu$i")
		done
		ids=()
		while read -r i _; do ids+=("$i"); done 2> /dev/null < "$SIM/list"
		[ ${#ids[@]} -gt 0 ] && bad+=("simulated GPUs ${ids[*]} left")
	fi
	# the modules, the sim first; a module in use may take a moment
	for m in nvpcounter_sim nvpcounter; do
		[ -e "/sys/module/$m" ] || continue
		for i in 1 2 3 4 5; do
			rmmod "$m" 2> "$NVPC_OUT/rmmod.err" && break
			sleep "$i"
		done
		if [ -e "/sys/module/$m" ]; then
			bad+=("$m stays loaded (refcnt $(cat "/sys/module/$m/refcnt" 2> /dev/null): $(tail -1 "$NVPC_OUT/rmmod.err"))")
		else
			did+=("unloaded $m")
		fi
		rm -f "$NVPC_OUT/rmmod.err"
	done

	# (in guest.log, not guest.tap: run.sh's import_tap would take a
	# "#" line for the reason of the next failure)
	[ ${#did[@]} -gt 0 ] && echo "guest: before $name, left by what ran before: ${did[*]}"
	if [ ${#bad[@]} -eq 0 ]; then
		guest_tap ok "clean guest before $name"
	else
		guest_tap fail "clean guest before $name" "$(IFS=';'; echo "${bad[*]}")"
	fi
}

# guest_run NAME OUTPUT CMD...: OUTPUT takes the command's stdout and
# stderr (- for this script's).
guest_run() {
	local name=$1 out=$2 bound scale h t0 el rc sid= sidf up wd
	shift 2

	guest_clean "$name"
	# the larger of the boot's scale and now's; the bound in whole
	# seconds, rounded up (bash arithmetic in hundredths: no fork)
	loop_ms > /dev/null
	scale_h "$LOOP_MS"
	hundredths "$GUEST_BOOT_SCALE"
	h=$((HUNDREDTHS > SCALE_H ? HUNDREDTHS : SCALE_H))
	printf -v scale '%d.%02d' $((h / 100)) $((h % 100))
	bound=$(((${NVPC_TEST_TIMEOUT:-600} * h + 99) / 100))
	# appended: a redirection that truncated /dev/stdout truncated this
	# script's own log (guest.log) with it
	if [ "$out" = - ]; then
		out=/dev/stdout
	else
		: > "$out"
	fi
	sidf=$NVPC_OUT/$name.sid
	echo "== $name (bound $bound s, time scale $scale)"
	t0=$EPOCHSECONDS
	read -r up _ < /proc/uptime
	echo "$name since $t0 ($up s uptime), bound $bound s" > "$NVPC_OUT/running"
	# A test that outlives its bound and timeout's SIGKILL 10 s later is
	# stuck in the kernel (or the guest is): 30 s after that, what every
	# CPU runs and every blocked task waits on goes to the console
	# (sysrq l and w), which run.sh prints when the run ends by its own
	# bound. Not a process of the test's session: killed here after it.
	# It waits in read -t on a pipe it holds both ends of, not in a
	# sleep(1) child that its kill would leave behind for guest_clean.
	(
		read -rt $((bound + 40)) <> <(:)
		echo "nvpc-guest: $name still running $((bound + 40)) s after its start, past its bound and SIGKILL: CPUs and blocked tasks follow" > /dev/kmsg
		echo l > /proc/sysrq-trigger
		echo w > /proc/sysrq-trigger
	) > /dev/null 2>&1 &
	wd=$!
	# its own session: timeout ends the whole process group at the bound,
	# and whatever is left of the session afterwards is killed here
	# shellcheck disable=SC2016
	NVPC_TIME_SCALE=$scale setsid -w sh -c 'echo $$ > "$0"; exec "$@"' "$sidf" \
		timeout --kill-after=10 "$bound" "$@" >> "$out" 2>&1
	rc=$?
	kill "$wd" 2> /dev/null
	wait "$wd" 2> /dev/null
	el=$((EPOCHSECONDS - t0))
	[ -r "$sidf" ] && read -r sid < "$sidf"
	rm -f "$sidf" "$NVPC_OUT/running"
	if [ -n "$sid" ]; then
		kill -KILL -- "-$sid" 2> /dev/null
		pkill -KILL -s "$sid" 2> /dev/null
	fi
	echo "$name exit $rc after $el s"
	case $rc in
	0)	guest_tap ok "$name ran to its end ($el s)" ;;
	4)	guest_tap skip "$name ran to its end ($el s)" "exit status 4 (KSFT_SKIP)" ;;
	124)	guest_tap fail "$name ended by its time bound ($bound s)" ;;
	137)	if [ "$el" -ge "$bound" ]; then
			guest_tap fail "$name ended by its time bound ($bound s)" \
				"SIGKILL 10 s after SIGTERM"
		else
			guest_tap fail "$name killed by signal 9"
		fi ;;
	*)	if [ "$rc" -gt 128 ]; then
			guest_tap fail "$name killed by signal $((rc - 128)) ($(kill -l $((rc - 128)) 2> /dev/null))"
		else
			guest_tap fail "$name exited with status $rc"
		fi ;;
	esac
	return "$rc"
}

guest_done() {
	echo "1..$guest_n" >> "$GUEST_TAP"
}
