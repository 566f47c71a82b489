#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the test VM (chroot of the host root): every kselftest binary,
# one TAP file each in $NVPC_OUT. A test that hangs is ended by its own
# kselftest timeout; this script adds an outer bound per binary.
set -u

cd "$NVPC_OUT" || exit 1
for t in "$NVPC_TOP"/build/selftests/*_test; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	echo "== $name"
	timeout --kill-after=5 600 "$t" > "$NVPC_OUT/$name.tap" 2>&1
	echo "$name exit $?"
done
