#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Parse an output of nvpc with Python's own parsers and print the names
it holds, one per line, each character outside printable ASCII (and the
backslash) as <hex>; exit 1 when it does not parse.

    outputs.py json|trace|csv|text|svg FILE

The file is read as strict UTF-8. csv: every row has the header's number
of fields (RFC 4180, Python's csv module). text: no control character but
the newline. svg: parses as XML; prints the text of its <text> elements.
"""
import csv
import io
import json
import sys
import xml.etree.ElementTree as ET


def show(s):
    return ''.join(c if 0x20 <= ord(c) < 0x7f and c != '\\'
                   else '<%x>' % ord(c) for c in s)


def main():
    kind, path = sys.argv[1], sys.argv[2]
    with open(path, encoding='utf-8', errors='strict', newline='') as f:
        text = f.read()
    names = []
    if kind == 'json':
        d = json.loads(text)
        names = [d[k] for k in ('chip', 'bus', 'pmu', 'domain', 'stop')]
        names += [s['name'] for s in d['signals']]
    elif kind == 'trace':
        d = json.loads(text)
        o = d['otherData']
        names = [o['chip'], o['bus'], o['domain']]
        for e in d['traceEvents']:
            if e['ph'] == 'M':
                names.append(e['args']['name'])
        for e in d['traceEvents']:
            if e['ph'] == 'C' and e['name'] not in names:
                names.append(e['name'])
    elif kind == 'csv':
        rows = list(csv.reader(io.StringIO(text, newline=''), strict=True))
        for i, r in enumerate(rows):
            if len(r) != len(rows[0]):
                sys.exit('row %d: %d fields, the header %d' %
                         (i, len(r), len(rows[0])))
        names = rows[0][6:]
    elif kind == 'text':
        for c in text:
            if (ord(c) < 0x20 and c != '\n') or ord(c) == 0x7f:
                sys.exit('control character %r' % c)
    elif kind == 'svg':
        root = ET.fromstring(text.encode('utf-8'))
        names = [''.join(t.itertext()) for t in root.iter()
                 if t.tag.endswith('}text') or t.tag == 'text']
    else:
        sys.exit('unknown kind ' + kind)
    for n in names:
        print(show(n))


main()
