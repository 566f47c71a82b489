#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host side of the PCI backend test (Documentation/pci.rst "Testing").

An ivshmem-plain BAR backed by a file is the GPU's BAR0 as a passive
register file. This tool fills such a file before the VM boots, watches it
while the guest counts (and acts: snapshot, all-ones, hot-unplug), and
afterwards checks it against the documented register values, printing TAP.

  pci_regfile.py prefill FILE CHIP
  pci_regfile.py agent TIMEOUT MONITOR_SOCKET ROLE:FILE:CHIP[:QEMU_ID]...
  pci_regfile.py verify FILE CHIP NAME

Register offsets and values are cited from envytools' pcounter.rst
("MMIO registers / NV40", "Quad event mode") and pcounter/intro.rst (trailer
signals), envytools' documentation (PMC.BOOT_0), envytools' rnndb
(gf100_pcounter.xml: GF100+ domain map) and nouveau's PM engine
(nvkm/engine/pm/*.c: PMC.ENABLE, unit enumeration, the values it programs).
"""

import array
import json
import os
import socket
import sys
import time

SIZE = 32 << 20
# The pattern covers every register the driver may touch (PGRAPH
# PM_TRIGGER 0x400084 is the highest): a write, even of 0, shows.
PATTERN_END = 0x480000
ALL_ONES = 0xFFFFFFFF

# envytools' documentation (PMC.BOOT_0): chipset in PMC.BOOT_0 bits 20-28.
PMC_BOOT_0 = 0x000000
# nvkm/engine/pm/gf100.c fini / pcounter.rst Introduction: PCOUNTER enable,
# GF100+.
PMC_ENABLE = 0x000200
PMC_ENABLE_PCOUNTER = 1 << 28

# pcounter.rst "MMIO registers / NV40": per-domain registers, domain i.
def nv40_src(i, n):
    return 0x00a400 + n * 0x40 + i * 4

def nv40_op(i, n):
    return 0x00a420 + n * 0x40 + i * 4

def nv40_spec_src(i):
    return 0x00a560 + i * 4

def nv40_ctrl(i):
    return 0x00a7c0 + i * 4

SLOT_EVENT = 2
OP_ARG0 = 0xaaaa  # pcounter.rst logic operation: truth table of argument 0

# envytools' rnndb (gf100_pcounter.xml): per-domain map and placement.
def gf100_gpc_base(g, d):
    return 0x180000 + g * 0x1000 + d * 0x200

GF100_SRC_EVENT = 0x050
GF100_OP_EVENT = 0x054
GF100_SWAP_SRC = 0x06c
GF100_CTRL = 0x09c
GF100_DOMAIN_SIZE = 0x200
GF100_GPC_COUNT = 0x022430
GF100_GPC_DISABLE_A = 0x022504
GF100_GPC_DISABLE_B = 0x022584
GF100_PART_COUNT = 0x022438
GF100_PART_DISABLE_A = 0x022548
GF100_PART_DISABLE_B = 0x0225c8

# The test GPUs. "event" is the perf event the guest counts (pmu/...);
# "regs" the registers the driver must hold while counting, "final" after
# the last event closed (the domain out of quad mode; the sources may keep
# their last value).
# G84 and GT215 domain 1 (graph): trailer base 0xe0 in the catalogue
# (nouveau's "ec" is ZERO's own id), ZERO = base + 0x0c (envytools'
# pcounter/intro.rst "Trailer signals" G84:GF100), graph idle 0xbd / 0xcb
# (nouveau's PM signal names). GF100 GPC domain 0: 0xe0 signals
# (nvkm/engine/pm/gf100.c), USER_0 = 0xe0 - 0x40 + 0x27 = 0xc7
# (nvkm/engine/pm/gf100.c swap).
G84_D = 1
GF100_GPC, GF100_DOM = 2, 0
GF100_BASE = gf100_gpc_base(GF100_GPC, GF100_DOM)

def nv40_chip(boot0, sig):
    return {
        "boot0": boot0,
        "layout": "nv40",
        "domain": G84_D,
        "event": "dom=%d,sig0=0x%x" % (G84_D, sig),
        "quad": (nv40_ctrl(G84_D), 0x3, 0x1),  # CTRL.MODE = QUAD
        "regs": [
            (nv40_ctrl(G84_D), 0x3, 0x1, "CTRL[1].MODE = QUAD (1)"),
            (nv40_ctrl(G84_D), 0x70, 0x0, "CTRL[1].CTR_MODE = SIMPLE (0)"),
            (nv40_src(G84_D, SLOT_EVENT), ALL_ONES, sig,
             "EVENT_SRC[1] = signal 0x%x" % sig),
            (nv40_op(G84_D, SLOT_EVENT), 0xffff, OP_ARG0,
             "EVENT_OP[1] truth table = 0xaaaa"),
            (nv40_spec_src(G84_D), 0xff, 0xe0 + 0x0c,
             "SPEC_SRC[1].SWAP = ZERO trailer (0xec)"),
        ],
        "final": [
            (nv40_ctrl(G84_D), 0x3, 0x0, "CTRL[1].MODE back to SINGLE (0)"),
        ],
        "sets": {},
    }

CHIPS = {
    "g84": nv40_chip(0x084000a2, 0xbd),
    "gt215": nv40_chip(0x0a3000a2, 0xcb),
    "gf100": {
        "boot0": 0x0c0000a1,
        "layout": "gf100",
        "event": "dset=1,unit=%d,dom=%d,sig0=0x10" % (GF100_GPC, GF100_DOM),
        "quad": (GF100_BASE + GF100_CTRL, 0x7, 0x2),
        "regs": [
            (GF100_BASE + GF100_CTRL, 0x7, 0x2, "GPC2 d0 CTRL.MODE = QUAD (2)"),
            (GF100_BASE + GF100_CTRL, 0x38, 0x0,
             "GPC2 d0 CTRL.CTR_MODE = SIMPLE (0)"),
            (GF100_BASE + GF100_SRC_EVENT, ALL_ONES, 0x10,
             "GPC2 d0 EVENT_SRC = signal 0x10"),
            (GF100_BASE + GF100_OP_EVENT, 0xffff, OP_ARG0,
             "GPC2 d0 EVENT_OP truth table = 0xaaaa"),
            (GF100_BASE + GF100_SWAP_SRC, 0xff, 0xc7,
             "GPC2 d0 SWAP_SRC = USER_0 (0xc7)"),
            (PMC_ENABLE, PMC_ENABLE_PCOUNTER, PMC_ENABLE_PCOUNTER,
             "PMC.ENABLE bit 28 set (pci_enable_pcounter=1)"),
        ],
        "final": [
            (GF100_BASE + GF100_CTRL, 0x7, 0x0,
             "GPC2 d0 CTRL.MODE back to HALTED (0)"),
        ],
        # PCOUNTER disabled at boot; 4 GPCs with GPC 1 fused off, 2
        # partitions: GPC mask 0xd, partition mask 0x3.
        "sets": {
            PMC_ENABLE: 0x00000000,
            GF100_GPC_COUNT: 4,
            GF100_GPC_DISABLE_A: 0x2,
            GF100_GPC_DISABLE_B: 0,
            GF100_PART_COUNT: 2,
            GF100_PART_DISABLE_A: 0,
            GF100_PART_DISABLE_B: 0,
        },
    },
    # chipset 0xff: not in the catalogue
    "unknown": {"boot0": 0x0ff000a1, "layout": None, "sets": {}},
    # a GPU not responding when the module loads: PMC.BOOT_0 reads
    # all-ones (pci.rst "What is looked at")
    "dead": {"boot0": ALL_ONES, "layout": None, "sets": {}},
}


def pattern_word(addr):
    return 0xa5000000 | addr


def expected_image(chip):
    words = array.array("I", range(0, PATTERN_END, 4))
    for i in range(len(words)):
        words[i] = pattern_word(i * 4)
    c = CHIPS[chip]
    words[PMC_BOOT_0 // 4] = c["boot0"]
    for addr, val in c["sets"].items():
        words[addr // 4] = val
    return words


def prefill(path, chip):
    words = expected_image(chip)
    with open(path, "wb") as f:
        f.write(words.tobytes())
        f.truncate(SIZE)
    return 0


def rd32(fd, addr):
    # unbuffered: QEMU changes the file under us
    return int.from_bytes(os.pread(fd, 4, addr), "little")


def say(msg):
    print(msg, flush=True)


def agent(timeout, monitor, specs):
    """Act on each file once its domain is in quad mode."""
    todo = []
    for spec in specs:
        parts = spec.split(":")
        role, path, chip = parts[0], parts[1], parts[2]
        qid = parts[3] if len(parts) > 3 else None
        todo.append((role, path, chip, qid))
    # QEMU may wait for another VM run (build/vm.lock): the clock starts
    # when its monitor socket appears
    while not os.path.exists(monitor):
        time.sleep(0.2)
    deadline = time.monotonic() + timeout
    files = {path: os.open(path, os.O_RDWR) for _, path, _, _ in todo}
    say("qemu up; watching %d files" % len(todo))
    while todo and time.monotonic() < deadline:
        for item in list(todo):
            role, path, chip, qid = item
            addr, mask, val = CHIPS[chip]["quad"]
            fd = files[path]
            if rd32(fd, addr) & mask != val:
                continue
            time.sleep(0.3)
            if role == "snap":
                with open(path + ".live", "wb") as out:
                    out.write(os.pread(fd, PATTERN_END, 0))
            elif role == "gone":
                # a GPU that fell off the bus reads all-ones everywhere
                os.pwrite(fd, b"\xff" * PATTERN_END, 0)
            elif role == "unplug":
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.settimeout(10)
                s.connect(monitor)
                s.recv(4096)
                s.sendall(("device_del %s\n" % qid).encode())
                time.sleep(0.5)
                s.recv(4096)
                s.close()
            say("%s %s done at %.1f s" % (role, path,
                                          timeout - (deadline - time.monotonic())))
            todo.remove(item)
        time.sleep(0.05)
    for role, path, _, _ in todo:
        say("%s %s: domain never seen in quad mode" % (role, path))
    return 1 if todo else 0


class Tap:
    def __init__(self, name):
        self.name = name
        self.lines = []

    def check(self, ok, desc, why=""):
        n = len(self.lines) + 1
        self.lines.append("%sok %d - %s: %s%s" % ("" if ok else "not ", n,
                                                  self.name, desc,
                                                  " # " + why if why and not ok else ""))

    def done(self):
        print("1..%d" % len(self.lines))
        print("\n".join(self.lines))


def allowed(chip, addr):
    """Whether the driver may write @addr while counting on the test domain."""
    c = CHIPS[chip]
    if c["layout"] == "nv40":
        # the per-domain rows of pcounter.rst "MMIO registers / NV40"
        d = c["domain"]
        return 0x00a400 <= addr < 0x00a800 and (addr - 0x00a400) % 0x20 == 4 * d
    if c["layout"] == "gf100":
        return (GF100_BASE <= addr < GF100_BASE + GF100_DOMAIN_SIZE or
                addr == PMC_ENABLE)
    return False


def window(chip, addr):
    """pcounter.rst Introduction: the PCOUNTER MMIO area of the chip."""
    if CHIPS[chip]["layout"] == "gf100":
        return 0x180000 <= addr < 0x1c0000
    return 0x00a000 <= addr < 0x00b000


def diffs(data, chip):
    """Addresses whose word differs from the pre-fill."""
    exp = expected_image(chip).tobytes()
    out = []
    step = 4096
    for off in range(0, PATTERN_END, step):
        if data[off:off + step] != exp[off:off + step]:
            for a in range(off, off + step, 4):
                if data[a:a + 4] != exp[a:a + 4]:
                    out.append(a)
    return out


def verify(path, chip, name):
    tap = Tap(name)
    c = CHIPS[chip]
    with open(path, "rb") as f:
        data = f.read()
    tail = data[PATTERN_END:]
    tap.check(len(data) == SIZE and tail.count(0) == len(tail),
              "nothing written above 0x%x" % PATTERN_END)
    word = lambda buf, a: int.from_bytes(buf[a:a + 4], "little")

    if c["layout"] is None:
        tap.check(not diffs(data, chip), "%s: nothing written" %
                  ("not responding" if chip == "dead" else "unknown chipset"))
        tap.done()
        return 0

    live = path + ".live"
    if os.path.exists(live):
        with open(live, "rb") as f:
            snap = f.read()
        for addr, mask, val, desc in c["regs"]:
            got = word(snap, addr)
            tap.check(got & mask == val, "while counting: " + desc,
                      "0x%06x = 0x%08x" % (addr, got))
        bad = [a for a in diffs(snap + tail, chip) if not allowed(chip, a)]
        tap.check(not bad, "while counting: only the counted domain's registers written",
                  " ".join("0x%06x=0x%08x" % (a, word(snap, a)) for a in bad[:6]))
    else:
        tap.check(False, "while counting: snapshot taken",
                  "the domain was never seen in quad mode")

    for addr, mask, val, desc in c["final"]:
        got = word(data, addr)
        tap.check(got & mask == val, "after the run: " + desc,
                  "0x%06x = 0x%08x" % (addr, got))
    changed = diffs(data, chip)
    out = [a for a in changed if not window(chip, a) and a != PMC_ENABLE]
    tap.check(not out, "nothing written outside the PCOUNTER window",
              " ".join("0x%06x" % a for a in out[:6]))
    bad = [a for a in changed if not allowed(chip, a)]
    tap.check(not bad, "after the run: only the counted domain's registers written",
              " ".join("0x%06x=0x%08x" % (a, word(data, a)) for a in bad[:6]))
    tap.done()
    return 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "prefill":
        return prefill(argv[1], argv[2])
    if len(argv) >= 4 and argv[0] == "agent":
        return agent(float(argv[1]), argv[2], argv[3:])
    if len(argv) == 4 and argv[0] == "verify":
        return verify(argv[1], argv[2], argv[3])
    if len(argv) == 2 and argv[0] == "event":
        print(CHIPS[argv[1]]["event"])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
