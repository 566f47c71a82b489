# SPDX-License-Identifier: GPL-2.0
#
# Sourced by engines_test.sh and export_test.sh: the simulated GPUs of
# their "every generation" phase, as they describe it. $SIM is the sim's
# debugfs directory.
#
#   gens_create   GPU 0 G80 (graph_idle 0xc8 high 1 of every 5 cycles:
#                 80% busy), 1 GT215 (graph_idle 0xcb high 3 of 4: 25%),
#                 2 NV10, 3 NV20, 4 NV30, 5 GF100 with one GPC and one
#                 partition; every clock 1 MHz, real-time
gens_create() {
	local g

	echo "g80 id=0" > "$SIM/create"
	echo "gt215 id=1" > "$SIM/create"
	echo "nv10 id=2" > "$SIM/create"
	echo "nv20 id=3" > "$SIM/create"
	echo "nv30 id=4" > "$SIM/create"
	echo "gf100 gpcs=1 parts=1 id=5" > "$SIM/create"
	for g in 0 1 2 3 4 5; do
		echo "all 1000000" > "$SIM/gpu$g/clocks"
	done
	echo "main.1 0xc8 periodic 5 1 0" > "$SIM/gpu0/wave"
	echo "main.1 0xcb periodic 4 3 0" > "$SIM/gpu1/wave"
	for g in 0 1 2 3 4 5; do
		echo realtime > "$SIM/gpu$g/clock"
	done
}
