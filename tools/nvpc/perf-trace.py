#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Put perf samples beside an nvpc trace in one Chrome/Perfetto JSON trace
(Documentation/nvpc.rst, "Lining up with perf record").

    perf record -k mono ... -- nvpc record ... -- ./app
    perf script -F comm,pid,tid,cpu,time,event --ns > perf.txt
    nvpc report --trace --monotonic run.nvpc > gpu.json
    nvpc-perf-trace gpu.json < perf.txt > both.json

Both use CLOCK_MONOTONIC (perf record -k mono, nvpc report --monotonic):
each perf sample becomes an instant event of its process and thread at
its time, in microseconds as the trace has them (args: cpu, comm); a
thread is named by its last comm; the nvpc trace's events are kept as
they are. Reads perf script's text on stdin, writes JSON on
stdout; exit 1 if no line of the input is a sample.
"""
import json
import re
import sys

# "comm  pid/tid [cpu] seconds.nanoseconds: [period] event:"
SAMPLE = re.compile(r'^\s*(?P<comm>.*?)\s+(?P<pid>\d+)/(?P<tid>\d+)\s+'
                    r'\[(?P<cpu>\d+)\]\s+(?P<s>\d+)\.(?P<ns>\d{9}):\s+'
                    r'(?:\d+\s+)?(?P<event>[^\s:]+(?::[^\s:]+)?):')


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: nvpc-perf-trace NVPC_TRACE.json < PERF_SCRIPT.txt')
    with open(sys.argv[1], encoding='utf-8') as f:
        trace = json.load(f)
    events = trace['traceEvents']
    names = {}
    samples = 0
    for line in sys.stdin:
        m = SAMPLE.match(line)
        if not m:
            continue
        pid, tid = int(m['pid']), int(m['tid'])
        ns = int(m['s']) * 1000000000 + int(m['ns'])
        # a thread's last name (a fork's child is renamed at its exec)
        names[(pid, tid)] = m['comm']
        events.append({'name': m['event'], 'ph': 'i', 's': 't',
                       'pid': pid, 'tid': tid, 'ts': ns / 1000,
                       'args': {'cpu': int(m['cpu']), 'comm': m['comm']}})
        samples += 1
    for (pid, tid), comm in sorted(names.items()):
        events.append({'name': 'thread_name', 'ph': 'M', 'pid': pid,
                       'tid': tid, 'args': {'name': comm}})
        if pid == tid:
            events.append({'name': 'process_name', 'ph': 'M', 'pid': pid,
                           'args': {'name': comm}})
    if not samples:
        sys.exit('no perf script sample on stdin (perf script -F '
                 'comm,pid,tid,cpu,time,event --ns)')
    trace.setdefault('otherData', {})['perf_samples'] = samples
    json.dump(trace, sys.stdout)
    sys.stdout.write('\n')


main()
