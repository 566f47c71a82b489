# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What the guest shell tests share: TAP lines and the PMU of a bus id.
# The test sets TAP (its TAP file) and TEST (its name) and sources this
# file; the test ends its file with "1..$n".

n=0

# tap ok|fail|skip DESC [REASON]: one TAP line, and a line on stdout
tap() {
	n=$((n + 1))
	case $1 in
	ok)	echo "ok $n - $2" >> "$TAP" ;;
	skip)	echo "ok $n - $2 # SKIP ${3:-}" >> "$TAP" ;;
	*)	echo "not ok $n - $2${3:+ # $3}" >> "$TAP" ;;
	esac
	echo "$TEST: $(cut -d' ' -f1 /proc/uptime) $1 $2 ${3:-}"
}

# check DESC COMMAND...: ok if COMMAND succeeds. COMMAND runs in this
# shell (it may set variables); what it prints goes to stdout as before,
# and when it fails its last two lines are the TAP line's reason, the
# one diagnostic the test's results keep.
check() {
	local desc=$1 out=$TAP.check
	shift
	if "$@" > "$out" 2>&1; then
		cat "$out"
		tap ok "$desc"
	else
		cat "$out"
		tap fail "$desc" "$(grep -v '^[[:space:]]*$' "$out" | tail -n 2 |
			sed 's/^#* *//; s/#/:/g' | paste -sd'|' | cut -c1-300)"
	fi
	rm -f "$out"
}

# pmu_of BUS: the nvpcounter PMU whose identifier names bus id BUS
pmu_of() {
	local d
	for d in /sys/bus/event_source/devices/nvpcounter*; do
		[ -e "$d/identifier" ] || continue
		if grep -q " $1\$" "$d/identifier"; then
			basename "$d"
			return 0
		fi
	done
	return 1
}
