#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Lint: checkpatch --strict on our kernel sources and kselftests, sparse
# (C=2) and a W=1 build for every target kernel; any report fails.
set -u

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tools/testing/lib.sh"
OUT=$TOP/build/lint
CHECKPATCH=$TOP/build/linux-source-6.1/scripts/checkpatch.pl
mkdir -p "$OUT"
cd "$TOP" || exit 1

mapfile -t files < <(find drivers include selftests -type f \
	\( -name '*.c' -o -name '*.h' \) | sort)
if [ ${#files[@]} -eq 0 ]; then
	result fail "lint: checkpatch" "no source files"
else
	# SPDX comment style differs by file type; checkpatch knows.
	perl "$CHECKPATCH" --strict --no-tree --quiet --terse --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG \
		-f "${files[@]}" 2>&1 | grep -E ': (ERROR|WARNING|CHECK):' \
		> "$OUT/checkpatch.txt"
	if [ -s "$OUT/checkpatch.txt" ]; then
		result fail "lint: checkpatch --strict (${#files[@]} files)" \
			"$(wc -l < "$OUT/checkpatch.txt") reports, see build/lint/checkpatch.txt"
		sed 's/^/# /' "$OUT/checkpatch.txt" | head -30
	else
		result ok "lint: checkpatch --strict (${#files[@]} files)"
	fi
fi

# Every file carries an SPDX line (checked here, not by checkpatch, so
# that scripts and Makefiles are covered too). Documentation/ABI files
# follow the kernel's ABI format, which has no place for one.
nospdx=$(git ls-files 2>/dev/null | grep -vE '(^|/)(\.gitignore|README\.md|.*\.rst|.*\.txt|dkms\.conf)$' |
	grep -v '^Documentation/ABI/' |
	while read -r f; do
		[ -f "$f" ] || continue
		head -3 "$f" | grep -q 'SPDX-License-Identifier' || echo "$f"
	done)
if [ -n "$nospdx" ]; then
	result fail "lint: SPDX line on every source file" "$(echo "$nospdx" | tr '\n' ' ')"
else
	result ok "lint: SPDX line on every source file"
fi

# One build per kernel does both: W=1 for gcc and C=2 for sparse, whose
# reports share the "file:line: warning:" form.
for k in ${KVERS:-$(make -s -C "$TOP" --no-print-directory print-kvers)}; do
	rm -rf "$TOP/build/kbuild/$k"
	log=$OUT/build-$k.txt
	# KVERS too: check.sh exports it, and the Makefile takes an
	# exported KVERS over KVER (every kernel built in each turn)
	make -s -C "$TOP" KVER="$k" KVERS="$k" W=1 C=2 modules > "$log" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || grep -qE 'warning:|error:' "$log"; then
		result fail "lint: W=1 and sparse build $k" \
			"$(grep -m1 -E 'warning:|error:' "$log")"
		grep -E 'warning:|error:' "$log" | head -20 | sed 's/^/# /'
	else
		result ok "lint: W=1 and sparse build $k"
	fi
done
