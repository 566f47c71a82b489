# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Result bookkeeping shared by the test phases (lint, unit, vm): every
# check becomes one TAP line in $NVPC_RESULTS, and summarize() turns the
# files into the final "N passed, N failed, N skipped" line.

# Run on its own (not from check.sh), a phase keeps its own results file
# and prints its own totals at exit.
if [ -z "${NVPC_RESULTS:-}" ]; then
	NVPC_RESULTS=$(mktemp)
	export NVPC_RESULTS
	trap 'summarize "$NVPC_RESULTS"; st=$?; rm -f "$NVPC_RESULTS"; exit $st' EXIT
fi

# result ok|fail|skip DESCRIPTION [REASON]
result() {
	local kind=$1 desc=$2 reason=${3:-}
	local line

	case $kind in
	ok)	line="ok - $desc" ;;
	fail)	line="not ok - $desc${reason:+ # $reason}" ;;
	skip)	line="ok - $desc # SKIP ${reason:-}" ;;
	*)	echo "result: bad kind $kind" >&2; return 1 ;;
	esac
	echo "$line"
	echo "$line" >> "$NVPC_RESULTS"
}

# import_tap PREFIX FILE: one result per test line of a TAP stream
# (kselftest harness output: "ok N name", "not ok N name", "# SKIP").
# Several concatenated streams may be given (their plans add up). Fails
# (and records a failure) when no test line is seen or a plan is not met.
import_tap() {
	local prefix=$1 file=$2 n=0 planned=""
	local line desc run=""

	if [ ! -s "$file" ]; then
		result fail "$prefix" "no TAP output"
		return
	fi
	local diag="" expect=""

	while IFS= read -r line; do
		case $line in
		"#  RUN "*|"# RUN "*)
			diag=""
			expect=""
			# the harness's skip line has no name: this one
			run=${line#\#*RUN }
			run=${run#"${run%%[! ]*}"}
			run=${run%% *}
			;;
		"#"*"FAIL "*|"#"*" OK "*)
			;;
		"# "*)
			# a failure's reason: the first failed expectation
			# and the line after it, else the last diagnostics
			if [ -n "$expect" ]; then
				[ "$expect" = 1 ] && diag="$diag|${line#\# }"
				expect=2
			elif [ "${line#*:Expected }" != "$line" ]; then
				diag=${line#\# }
				expect=1
			else
				diag=$(printf '%s\n%s' "$diag" "${line#\# }" |
				       tail -n 3)
			fi
			;;
		1..*)
			planned=$(( ${planned:-0} + ${line#1..} ))
			;;
		"ok "*|"not ok "*)
			desc=$(echo "$line" | sed -E 's/^(not )?ok [0-9]+ (- )?//')
			case $desc in "#"*) desc="${run:-?} $desc" ;; esac
			n=$((n + 1))
			if echo "$line" | grep -qi '# *SKIP'; then
				result skip "$prefix: ${desc%%#*}" \
					"$(echo "$desc" | sed -E 's/.*# *SKIP *//I')"
			elif [ "${line#not }" != "$line" ]; then
				result fail "$prefix: $desc" \
					"$(echo "$diag" | sed '/^$/d' | paste -sd'|' | cut -c1-400)"
			else
				result ok "$prefix: $desc"
			fi
			;;
		esac
	done < "$file"
	if [ "$n" -eq 0 ]; then
		result fail "$prefix" "no test ran"
	elif [ -n "$planned" ] && [ "$planned" -ne "$n" ] 2>/dev/null; then
		result fail "$prefix: plan" "planned $planned, saw $n"
	fi
}

# summarize FILE...: print the failures (30 at most) and the totals;
# status 1 when anything failed or nothing ran.
summarize() {
	local pass fail skip

	pass=$(cat "$@" 2>/dev/null | grep -c '^ok ' | tr -d ' ')
	skip=$(cat "$@" 2>/dev/null | grep -c '^ok .*# SKIP' | tr -d ' ')
	fail=$(cat "$@" 2>/dev/null | grep -c '^not ok ' | tr -d ' ')
	pass=$((pass - skip))
	# the failures again, at the end where a cut log still shows them
	if [ "$fail" -gt 0 ]; then
		echo "# the failures ($fail):"
		cat "$@" 2>/dev/null | grep '^not ok ' | head -n 30
	fi
	echo "$pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ] && [ $((pass + skip)) -gt 0 ]
}
