#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the VM for `make bench` (tools/testing/vmbench).
set -u
"$NVPC_TOP/build/bench/readbench"
echo "readbench exit $?"
