/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * nvpcounter perf ABI: the fields of perf_event_attr.config/config1/config2
 * for the "nvpcounter" PMUs. The PMUs' sysfs format/ strings are printed
 * from these same masks.
 *
 *   perf stat -a -e nvpcounter/dom=1,sig0=0xcb/ -e nvpcounter/dom=1,cycles/
 */
#ifndef _UAPI_LINUX_NVPCOUNTER_H
#define _UAPI_LINUX_NVPCOUNTER_H

#define _NVPC_GENMASK_ULL(h, l) \
	((~0ULL << (l)) & (~0ULL >> (63 - (h))))

/* config: what one counter input computes (pcounter.rst, Input selection) */
#define NVPC_CFG_SIG0		_NVPC_GENMASK_ULL(7, 0)	/* signal id, arg 0 */
#define NVPC_CFG_SIG1		_NVPC_GENMASK_ULL(15, 8)
#define NVPC_CFG_SIG2		_NVPC_GENMASK_ULL(23, 16)
#define NVPC_CFG_SIG3		_NVPC_GENMASK_ULL(31, 24)
/* the 16-bit truth table over args 0-3; 0 means 0xaaaa (count sig0) */
#define NVPC_CFG_OP		_NVPC_GENMASK_ULL(47, 32)
/* bits 16-20 of the input's _OP register: delay, replace and SETFLAG bits */
#define NVPC_CFG_OPBITS		_NVPC_GENMASK_ULL(52, 48)
/* counter slot: 0 any, else NVPC_SLOT_* + 1 */
#define NVPC_CFG_SLOT		_NVPC_GENMASK_ULL(55, 53)
/* count the domain's cycle counter instead of an input */
#define NVPC_CFG_CYCLES		_NVPC_GENMASK_ULL(56, 56)
/*
 * counter mode (pcounter.rst, Special counter modes), NVPC_MODE_*: the
 * event counts an integer made of the signals in config2 bsig0..bsig5
 */
#define NVPC_CFG_MODE		_NVPC_GENMASK_ULL(59, 57)
/*
 * a record event (Documentation/record.rst): the domain in record mode,
 * its packets streamed into the event's perf AUX area. sig0..sig3, op and
 * opbits are then the STOP input (a packet per STOP pulse); slot, cycles
 * and mode must be 0. The counted signals are rsig0..rsig11 below.
 */
#define NVPC_CFG_RECORD		_NVPC_GENMASK_ULL(60, 60)
/* record events: short 16-byte packets (rsig0..rsig3 only), else long */
#define NVPC_CFG_SHORT		_NVPC_GENMASK_ULL(61, 61)
#define NVPC_CFG_RESERVED	_NVPC_GENMASK_ULL(63, 62)

/*
 * Single event mode (NVPC_CFG_MODE = NVPC_MODE_SINGLE, Documentation/
 * perf.rst "Windows and thresholds"): config2 bits 48-63 hold the
 * argument of the input the event describes (its slot): the PRE count
 * (CTR_PRE initial value: pre + 1 PRE pulses open the process) on PRE,
 * the number of counting periods (0: until the event is closed) on STOP,
 * the THRESHOLD (0: count EVENT itself) on EVENT; 0 on START and cycles.
 */
#define NVPC_CFG2_PRE		_NVPC_GENMASK_ULL(63, 48)
#define NVPC_CFG2_PERIODS	_NVPC_GENMASK_ULL(63, 48)
#define NVPC_CFG2_THR		_NVPC_GENMASK_ULL(63, 48)
#define NVPC_CFG2_SARG		_NVPC_GENMASK_ULL(63, 48)

/* config1: which domain */
#define NVPC_CFG1_DOM		_NVPC_GENMASK_ULL(2, 0)	/* index in its set */
#define NVPC_CFG1_DSET		_NVPC_GENMASK_ULL(5, 4)	/* NVPC_DSET_* */
#define NVPC_CFG1_UNIT		_NVPC_GENMASK_ULL(12, 8)	/* GPC/partition */
/*
 * GF100+ GPC and partition domains (DSET 1 and 2): allunits counts the
 * domain of every present GPC (partition) and sums them into one count;
 * the named events of those sets carry it. With it, a nonzero unit, or
 * oneunit, counts that one unit alone: perf ORs the terms a user adds
 * into a named event's, so no term can clear allunits, and unit=0 alone
 * cannot be told from the named event's default.
 */
#define NVPC_CFG1_ALLUNITS	_NVPC_GENMASK_ULL(13, 13)
#define NVPC_CFG1_ONEUNIT	_NVPC_GENMASK_ULL(14, 14)
#define NVPC_CFG1_UNIT_FLAGS	(NVPC_CFG1_ALLUNITS | NVPC_CFG1_ONEUNIT)
/*
 * record events: the domain's PERIODIC generator, CTRL PERIODIC_PERIOD
 * (pcounter.rst, "CTRL"): 0 off, p = 1..7 a pulse every 0x400 << (p - 1)
 * cycles (1024 .. 65536). With sig0..sig3, op and opbits all 0 the STOP
 * input is then the PERIODIC signal.
 */
#define NVPC_CFG1_PERIOD	_NVPC_GENMASK_ULL(18, 16)
/* record events: the signals of record counters 0-3 (PRE_SRC args 0-3) */
#define NVPC_CFG1_RSIG0		_NVPC_GENMASK_ULL(39, 32)
#define NVPC_CFG1_RSIG1		_NVPC_GENMASK_ULL(47, 40)
#define NVPC_CFG1_RSIG2		_NVPC_GENMASK_ULL(55, 48)
#define NVPC_CFG1_RSIG3		_NVPC_GENMASK_ULL(63, 56)
#define NVPC_CFG1_RECORD_FIELDS	(NVPC_CFG1_PERIOD | NVPC_CFG1_RSIG0 | \
				 NVPC_CFG1_RSIG1 | NVPC_CFG1_RSIG2 | \
				 NVPC_CFG1_RSIG3)
#define NVPC_CFG1_RESERVED	(~(NVPC_CFG1_DOM | NVPC_CFG1_DSET | \
				   NVPC_CFG1_UNIT | NVPC_CFG1_UNIT_FLAGS | \
				   NVPC_CFG1_RECORD_FIELDS))

/*
 * config2: the signals of a counter mode's integer, low bit first. B4 is
 * bsig0..bsig3 (the domain's START_SRC), B6 adds bsig4 and bsig5 (its
 * EVENT_SRC arguments 2 and 3).
 */
#define NVPC_CFG2_BSIG0		_NVPC_GENMASK_ULL(7, 0)
#define NVPC_CFG2_BSIG1		_NVPC_GENMASK_ULL(15, 8)
#define NVPC_CFG2_BSIG2		_NVPC_GENMASK_ULL(23, 16)
#define NVPC_CFG2_BSIG3		_NVPC_GENMASK_ULL(31, 24)
#define NVPC_CFG2_BSIG4		_NVPC_GENMASK_ULL(39, 32)
#define NVPC_CFG2_BSIG5		_NVPC_GENMASK_ULL(47, 40)
/* bits 48-63: NVPC_CFG2_SARG of single-mode events, else reserved */
#define NVPC_CFG2_RESERVED	NVPC_CFG2_SARG
/*
 * record events: config2 holds instead the signals of record counters
 * 4-11 (START_SRC args 0-3, EVENT_SRC args 0-3), 8 bits each from bit 0:
 * rsig4 = bits 0-7 ... rsig11 = bits 56-63 (long packets only).
 */
#define NVPC_CFG2_RSIG(n)	(0xffULL << (8 * ((n) - 4)))

/*
 * NVPC_CFG_MODE values. SIMPLE counts the input's truth table (1 per
 * cycle it is true). EVENT_B4 and EVENT_B6 add B4/B6 on the cycles the
 * input is true; EXTRA_B4 and EXTRA_B6 add B4/B6 on every cycle and take
 * no input (sig0-3, op and opbits must be 0).
 */
#define NVPC_MODE_SIMPLE	0
#define NVPC_MODE_EVENT_B4	1
#define NVPC_MODE_EVENT_B6	2	/* NV40+ */
#define NVPC_MODE_EXTRA_B4	3	/* NV40+ */
#define NVPC_MODE_EXTRA_B6	4	/* NV40+ */
/*
 * Not a counter mode: the event is one input of its domain's single
 * event mode program, slot 1-4 naming which (NV40:GF100). PRE counts its
 * pulses until START is recognised, START the windows opened, EVENT its
 * cycles inside windows (or, with thr, the windows in which it reached
 * thr), STOP the windows closed; with cycles (no slot) the cycles inside
 * windows, on the EVENT input. See Documentation/perf.rst.
 */
#define NVPC_MODE_SINGLE	5

/* NVPC_CFG1_DSET values: domain sets (main = hub before GF100) */
#define NVPC_DSET_ID_HUB	0
#define NVPC_DSET_ID_GPC	1
#define NVPC_DSET_ID_PART	2

/* counter slots, the four inputs of a domain */
#define NVPC_SLOT_PRE		0
#define NVPC_SLOT_START		1
#define NVPC_SLOT_EVENT		2
#define NVPC_SLOT_STOP		3
#define NVPC_NR_SLOTS		4

/*
 * Record packets (pcounter.rst, "Record mode"), as a record event's AUX
 * area holds them: 16-bit little-endian words. Words 0-2 the 48-bit cycle
 * counter (cycles since the buffer was started; see record.rst for
 * restarts), word 3 bits 0-11 the STOP count (pulses since the last
 * packet; 0 for a packet forced by a counter reaching 0xf000), words 4-15
 * record counters 0-11 (signal cycles since the last packet, saturating
 * at 0xffff). A short packet is the first 16 bytes of a long one.
 */
#define NVPC_PKT_LONG		32
#define NVPC_PKT_SHORT		16
#define NVPC_PKT_W_CYCLES	0	/* words 0-2 */
#define NVPC_PKT_W_STOP		3
#define NVPC_PKT_W_CTR0		4	/* words 4-15: counters 0-11 */
#define NVPC_PKT_STOP_MASK	0x0fff
#define NVPC_PKT_CYCLES_BITS	48
#define NVPC_PKT_NR_CTRS	12
#define NVPC_PKT_NR_CTRS_SHORT	4
#define NVPC_PKT_CTR_FLUSH	0xf000	/* a counter here forces a packet */
#define NVPC_PKT_CTR_MAX	0xffff

#endif /* _UAPI_LINUX_NVPCOUNTER_H */
