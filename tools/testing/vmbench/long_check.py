#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The bench's 60 s recording (guest-bench.sh), from nvpc report --json:
packets and bytes, windows of 256 MiB they fill, gaps (each should be a
window top: PARTIAL, counted in record_gaps) and segments; the packets
themselves are checked one by one by guest-bench.sh. Prints; a bench
never fails."""
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
    print("segments %d (the first packet of each spans from a start or a "
          "restart to the next PERIODIC pulse)" % j.get("segments", -1))

main()
