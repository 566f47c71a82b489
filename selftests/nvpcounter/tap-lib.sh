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

# check DESC COMMAND...: ok if COMMAND succeeds
check() {
	local desc=$1
	shift
	if "$@"; then tap ok "$desc"; else tap fail "$desc"; fi
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
