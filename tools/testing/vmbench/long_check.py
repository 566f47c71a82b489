#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The bench's 60 s recording (guest-bench.sh), from nvpc report --json:
packets and bytes, windows of 256 MiB they fill, gaps (each should be a
window top: PARTIAL, counted in record_gaps), and the counts against the
sources: 0x10 high 9 of every 16 cycles, 0x11 77 of every 256, so any
packet of 1024 cycles holds 576 and 308 of them and the whole capture
9/16 and 77/256 of its cycles. Prints; a bench never fails."""
import json
import sys


def main():
    try:
        j = json.load(open(sys.argv[1]))
    except (OSError, ValueError) as e:
        print("no report: %s" % e)
        return
    gaps, stalls, skip, t = (int(x) for x in sys.argv[2:6])
    secs = t / 1e9
    pk = j["packets"]
    size = j.get("packet_size") or 32
    by = pk * size
    print("packets %d in %.1f s: %.0f/s, %.1f MB/s, %.2f windows of 256 MiB"
          % (pk, secs, pk / secs, by / secs / 1e6, by / (256 << 20)))
    print("gaps %d in the capture (%s PARTIAL), record_gaps +%d, stalls +%d, "
          "lost records %s, impossible packets %s, rt_skipped_ns %d"
          % (j.get("gaps", -1), j.get("partial", "?"), gaps, stalls,
             j.get("lost_records", "?"), j.get("impossible_packets", "?"),
             skip))
    c = j["shown"]["cycles"]
    sig = j["signals"]
    want = (c * 9 // 16, c * 77 // 256)
    got = (sig[0]["count"], sig[1]["count"])
    print("counts over %d cycles: 0x10 %d (9/16 of them: %d), 0x11 %d "
          "(77/256: %d): %s"
          % (c, got[0], want[0], got[1], want[1],
             "exact" if got == want and c % 256 == 0 else "NOT exact"))


main()
