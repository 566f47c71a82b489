#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host unit tests: every tools/testing/<suite>/ with a Makefile that has a
# `check` target (the sim model, the chip catalogue, ...). Each suite
# prints kselftest TAP; a suite whose make fails without a failing test
# line is recorded as a failure of its own.
set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tools/testing/lib.sh"
OUT=$TOP/build/unit
mkdir -p "$OUT"

found=0
for mk in "$TOP"/tools/testing/*/Makefile; do
	[ -e "$mk" ] || continue
	grep -qs '^check:' "$mk" || continue
	d=$(dirname "$mk")
	name=$(basename "$d")
	found=1
	make -s -j2 -C "$d" check > "$OUT/$name.log" 2>&1
	rc=$?
	before=$(grep -c '^not ok' "$NVPC_RESULTS" 2>/dev/null || true)
	import_tap "unit $name" "$OUT/$name.log"
	after=$(grep -c '^not ok' "$NVPC_RESULTS" 2>/dev/null || true)
	if [ $rc -ne 0 ] && [ "$before" = "$after" ]; then
		result fail "unit $name: make check" "exit $rc, see build/unit/$name.log"
		tail -20 "$OUT/$name.log" | sed 's/^/# /'
	fi
done
[ $found -eq 1 ] || echo "# unit: no host test suite yet"
