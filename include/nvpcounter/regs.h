/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PCOUNTER register map of every hardware generation, shared by the driver
 * and the sim model.
 *
 * Sources: envytools' pcounter.rst ("MMIO registers", "Input selection",
 * "Counters", "Control registers", "Quad event mode", "Record mode"),
 * envytools' pcounter/intro.rst (register tables), envytools' rnndb
 * (gf100_pcounter.xml: GF100+ domain layout) and nouveau's PM engine
 * (nvkm/engine/pm/gf100.c: unit enumeration). Offsets are absolute BAR0
 * addresses.
 */
#ifndef _NVPCOUNTER_REGS_H
#define _NVPCOUNTER_REGS_H

#include <nvpcounter/compat.h>

/* ---- PMC (envytools' documentation, PMC.BOOT_0; pcounter.rst Intro) ---- */
#define NVPC_PMC_BOOT_0			0x000000
#define NVPC_PMC_BOOT_0_CHIPSET		GENMASK(28, 20)
#define NVPC_PMC_ENABLE			0x000200
/* GF100+: PCOUNTER is held in reset while this bit is clear. */
#define NVPC_PMC_ENABLE_PCOUNTER	BIT(28)

/* PGRAPH 0x400084 bit 5: PM_TRIGGER (nouveau, nvkm/engine/pm/nv40.c "next") */
#define NVPC_PGRAPH_PM_TRIGGER		0x400084
#define NVPC_PGRAPH_PM_TRIGGER_PULSE	BIT(5)

/* pcounter.rst, Introduction: "MMIO area 0x00a000:0x00b000 on NV10:NVC0" */
#define NVPC_NV10_MMIO_START		0x00a000
#define NVPC_NV10_MMIO_END		0x00b000

/* ---- Input selection and logic ops (pcounter.rst "Input selection") ---- */
/* The 4 counting inputs, in the order of the SRC/OP register pairs. */
#define NVPC_INPUT_PRE			0
#define NVPC_INPUT_START		1
#define NVPC_INPUT_EVENT		2
#define NVPC_INPUT_STOP			3
#define NVPC_INPUT_SETFLAG		4
#define NVPC_INPUT_CLRFLAG		5
#define NVPC_NR_INPUTS			6

/* *_SRC: four 8-bit signal ids, argument j in bits 8*j..8*j+7 */
#define NVPC_SRC_SIG(j)			(0xffU << (8 * (j)))
/* *_OP: truth table indexed by ARG[0] | ARG[1] << 1 | ... */
#define NVPC_OP_TABLE			GENMASK(15, 0)
/* bits 16-20: the delay and argument-replace bits below */
#define NVPC_OP_BITS			GENMASK(20, 16)
#define NVPC_OP_DELAY0			BIT(16)
#define NVPC_OP_DELAY1			BIT(17)
/* PRE/START/SETFLAG/CLRFLAG [G92-]: arg 2/3 := delayed SRC[0]/SRC[1] */
#define NVPC_OP_ARG2_DELAYED_SRC0	BIT(18)
#define NVPC_OP_ARG3_DELAYED_SRC1	BIT(19)
/* EVENT/STOP: arg 3 := SETFLAG [NV30-]; bits 19/20 as above [G92-] */
#define NVPC_OP_ES_ARG3_SETFLAG		BIT(18)
#define NVPC_OP_ES_ARG2_DELAYED_SRC0	BIT(19)
#define NVPC_OP_ES_ARG3_DELAYED_SRC1	BIT(20)
/* The default truth table: output = argument 0 */
#define NVPC_OP_ARG0			0xaaaa
/* truth tables that ignore their inputs: always true, never true */
#define NVPC_OP_ALWAYS			0xffff
#define NVPC_OP_NEVER			0x0000

/* SRC_STATUS [NV40-]: bit 4*input + j = SRC[j] of PRE/START/EVENT/STOP */
#define NVPC_SRC_STATUS_BIT(input, j)	BIT(4 * (input) + (j))

/* SPEC_SRC [G84:GF100] and SWAP_SRC [GF100-] */
#define NVPC_SPEC_SRC_SWAP		GENMASK(7, 0)
#define NVPC_SPEC_SRC_UNK8		GENMASK(15, 8)

/* ---- Counter modes (pcounter.rst "Special counter modes") ---- */
#define NVPC_CTR_MODE_SIMPLE		0
#define NVPC_CTR_MODE_EVENT_B4		1
#define NVPC_CTR_MODE_EVENT_B6		2
#define NVPC_CTR_MODE_EXTRA_B4		3
#define NVPC_CTR_MODE_EXTRA_B6_EVENT_B2	4

/* Single event states (CTRL.SINGLE_STATE) */
#define NVPC_SINGLE_INACTIVE		0
#define NVPC_SINGLE_WAIT_PRE		1
#define NVPC_SINGLE_WAIT_START		2
#define NVPC_SINGLE_COUNTING		3

/* Quad states (CTRL.QUAD_STATE) */
#define NVPC_QUAD_EMPTY			0
#define NVPC_QUAD_VALID			1
#define NVPC_QUAD_OVERFLOW		3

/* ---- NV10:NV40 layout (pcounter.rst "MMIO registers / NV10") ---- */
#define NVPC_NV10_NR_DOMAINS		2
/* every per-domain register of domain i is at its domain 0 address + i * this */
#define NVPC_NV10_DOMAIN_STRIDE		0x100
#define NVPC_NV10_PRE_SRC(i)		(0x00a400 + (i) * 0x100)
#define NVPC_NV10_PRE_OP(i)		(0x00a404 + (i) * 0x100)
#define NVPC_NV10_START_SRC(i)		(0x00a408 + (i) * 0x100)
#define NVPC_NV10_START_OP(i)		(0x00a40c + (i) * 0x100)
#define NVPC_NV10_EVENT_SRC(i)		(0x00a410 + (i) * 0x100)
#define NVPC_NV10_EVENT_OP(i)		(0x00a414 + (i) * 0x100)
#define NVPC_NV10_STOP_SRC(i)		(0x00a418 + (i) * 0x100)
#define NVPC_NV10_STOP_OP(i)		(0x00a41c + (i) * 0x100)
/* input n (NVPC_INPUT_*) SRC/OP; SETFLAG/CLRFLAG_SRC exist on NV10:NV30 */
#define NVPC_NV10_SRC(i, n)		(0x00a400 + (i) * 0x100 + (n) * 8)
#define NVPC_NV10_OP(i, n)		(0x00a404 + (i) * 0x100 + (n) * 8)
#define NVPC_NV10_SETFLAG_SRC(i)	(0x00a420 + (i) * 0x100)
#define NVPC_NV10_SETFLAG_OP(i)		(0x00a424 + (i) * 0x100)
#define NVPC_NV10_CLRFLAG_SRC(i)	(0x00a428 + (i) * 0x100)
#define NVPC_NV10_CLRFLAG_OP(i)		(0x00a42c + (i) * 0x100)
/* STATUS[i][j], j < 8 ("The STATUS registers") */
static inline u32 nvpc_nv10_status(unsigned int i, unsigned int j)
{
	return 0x00a430 + i * 0x100 + (j >> 2) * 0x200 + (j & 3) * 4;
}

#define NVPC_NV10_STATUS(i, j)		nvpc_nv10_status(i, j)
#define NVPC_NV10_CTR_CYCLES(i)		(0x00a600 + (i) * 0x100)
#define NVPC_NV10_CTR_CYCLES_HI(i)	(0x00a604 + (i) * 0x100) /* :NV30 */
#define NVPC_NV10_CTR_CYCLES_ALT(i)	(0x00a608 + (i) * 0x100)
#define NVPC_NV10_CTR_CYCLES_ALT_HI(i)	(0x00a60c + (i) * 0x100) /* :NV30 */
#define NVPC_NV10_CTR_EVENT(i)		(0x00a610 + (i) * 0x100)
#define NVPC_NV10_CTR_EVENT_HI(i)	(0x00a614 + (i) * 0x100) /* :NV30 */
#define NVPC_NV10_CTR_START(i)		(0x00a618 + (i) * 0x100)
#define NVPC_NV10_CTR_START_HI(i)	(0x00a61c + (i) * 0x100) /* :NV30 */
#define NVPC_NV10_CTR_PRE(i)		(0x00a620 + (i) * 0x100)
#define NVPC_NV10_CTR_STOP(i)		(0x00a624 + (i) * 0x100)
#define NVPC_NV10_THRESHOLD(i)		(0x00a628 + (i) * 0x100)
#define NVPC_NV10_THRESHOLD_HI(i)	(0x00a62c + (i) * 0x100) /* :NV30 */
#define NVPC_NV10_HI_MASK		GENMASK(7, 0)
#define NVPC_NV30_QUAD_ACK_TRIGGER	0x00a738
#define NVPC_NV30_QUAD_ACK_DOM(i)	BIT(8 * (i))
#define NVPC_NV10_CTRL			0x00a73c
/* shared CTRL of NV10:NV40 ("Control registers") */
#define NVPC_NV10_CTRL_TVOUT_DEBUG_SEL	BIT(0)
#define NVPC_NV10_CTRL_TVOUT_DEBUG_EN	BIT(1)
#define NVPC_NV10_CTRL_CTR_MODE		BIT(2)	/* SIMPLE / EVENT_B4 */
#define NVPC_NV10_CTRL_SINGLE_STATE(i)	(0x3U << (3 + 2 * (i)))
#define NVPC_NV10_CTRL_EVENT_CTR_PERIOD(i) BIT(8 + (i))	/* NV15+ */
#define NVPC_NV10_CTRL_MODE_QUAD(i)	BIT(16 + 2 * (i))	/* NV30+ */
#define NVPC_NV10_CTRL_QUAD_STATE(i)	(0x3U << (24 + 2 * (i)))

/* ---- NV40:GF100 layout (pcounter.rst "MMIO registers / NV40") ---- */
#define NVPC_NV40_NR_DOMAINS		8
/* the per-domain registers of NV40:GF100 are arrays of 8 words */
#define NVPC_NV40_DOMAIN_STRIDE		4
#define NVPC_NV40_SRC(i, n)		(0x00a400 + (n) * 0x40 + (i) * 4)
#define NVPC_NV40_OP(i, n)		(0x00a420 + (n) * 0x40 + (i) * 4)
#define NVPC_NV40_PRE_SRC(i)		NVPC_NV40_SRC(i, NVPC_INPUT_PRE)
#define NVPC_NV40_PRE_OP(i)		NVPC_NV40_OP(i, NVPC_INPUT_PRE)
#define NVPC_NV40_START_SRC(i)		NVPC_NV40_SRC(i, NVPC_INPUT_START)
#define NVPC_NV40_START_OP(i)		NVPC_NV40_OP(i, NVPC_INPUT_START)
#define NVPC_NV40_EVENT_SRC(i)		NVPC_NV40_SRC(i, NVPC_INPUT_EVENT)
#define NVPC_NV40_EVENT_OP(i)		NVPC_NV40_OP(i, NVPC_INPUT_EVENT)
#define NVPC_NV40_STOP_SRC(i)		NVPC_NV40_SRC(i, NVPC_INPUT_STOP)
#define NVPC_NV40_STOP_OP(i)		NVPC_NV40_OP(i, NVPC_INPUT_STOP)
#define NVPC_NV40_SETFLAG_OP(i)		(0x00a500 + (i) * 4)
#define NVPC_NV40_CLRFLAG_OP(i)		(0x00a520 + (i) * 4)
#define NVPC_NV40_SRC_STATUS(i)		(0x00a540 + (i) * 4)
#define NVPC_G84_SPEC_SRC(i)		(0x00a560 + (i) * 4)
#define NVPC_GT215_USER_TRIGGER(i)	(0x00a580 + (i) * 4)
#define NVPC_NV40_CTR_CYCLES(i)		(0x00a600 + (i) * 4)
#define NVPC_NV40_CTR_CYCLES_ALT(i)	(0x00a640 + (i) * 4)
#define NVPC_NV40_CTR_EVENT(i)		(0x00a680 + (i) * 4)
#define NVPC_G92_RECORD_ADDRESS_HIGH(i)	(0x00a6a0 + (i) * 4)
#define NVPC_NV40_CTR_START(i)		(0x00a6c0 + (i) * 4)
#define NVPC_G84_RECORD_STATUS(i)	(0x00a6e0 + (i) * 4)
#define NVPC_NV40_CTR_PRE(i)		(0x00a700 + (i) * 4)
#define NVPC_G84_RECORD_LIMIT(i)	(0x00a720 + (i) * 4)
#define NVPC_NV40_CTR_STOP(i)		(0x00a740 + (i) * 4)
#define NVPC_G84_RECORD_START(i)	(0x00a760 + (i) * 4)
#define NVPC_NV40_THRESHOLD(i)		(0x00a780 + (i) * 4)
#define NVPC_G84_RECORD_CHAN		0x00a7a0
#define NVPC_G84_RECORD_DMA		0x00a7a4
#define NVPC_G84_GCTRL			0x00a7a8
#define NVPC_NV40_CTRL(i)		(0x00a7c0 + (i) * 4)
#define NVPC_NV40_QUAD_ACK_TRIGGER(i)	(0x00a7e0 + (i) * 4)
#define NVPC_NV40_STATUS(i, j)		(0x00a800 + (i) * 0x20 + (j) * 4)

/* CTRL[i] of NV40:GF100 */
#define NVPC_NV40_CTRL_MODE		GENMASK(1, 0)
#define NVPC_NV40_CTRL_MODE_SINGLE	0
#define NVPC_NV40_CTRL_MODE_QUAD	1
#define NVPC_NV40_CTRL_MODE_RECORD	2	/* G84+ */
#define NVPC_NV40_CTRL_CTR_MODE		GENMASK(6, 4)
#define NVPC_NV40_CTRL_EVENT_CTR_PERIOD	BIT(8)
#define NVPC_NV40_CTRL_EVENT_IMPORT_PULSE BIT(11)
#define NVPC_NV40_CTRL_FLAG_IMPORT_PULSE BIT(13)
#define NVPC_NV40_CTRL_UNK16		BIT(16)
#define NVPC_G84_CTRL_RECORD_SHORT	BIT(20)
#define NVPC_G84_CTRL_PERIODIC_PERIOD	GENMASK(23, 21)
#define NVPC_NV40_CTRL_QUAD_STATE	GENMASK(25, 24)
#define NVPC_G84_CTRL_FAULT_CLEAR	BIT(27)	/* write-only */
#define NVPC_NV40_CTRL_SINGLE_STATE	GENMASK(29, 28)
#define NVPC_G92_CTRL_UNK30		BIT(30)

/* GCTRL [G84:GF100]; the GF100 per-set controls use the same bits */
#define NVPC_GCTRL_RECORD_RESET		BIT(0)
#define NVPC_GCTRL_PERIODIC_RESET	BIT(4)

/* PERIODIC period for CTRL.PERIODIC_PERIOD p != 0: 0x400 << (p - 1) */
#define NVPC_PERIODIC_CLOCKS(p)		(0x400U << ((p) - 1))

/* QUAD_ACK_TRIGGER [NV40-] */
#define NVPC_QUAD_ACK			BIT(0)

/* USER_TRIGGER: GT215 (2 signals, write-only), GF100 (4 signals, r/w) */
#define NVPC_GT215_USER_VALUE		GENMASK(1, 0)
#define NVPC_GT215_USER_PULSE		GENMASK(3, 2)
#define NVPC_GF100_USER_VALUE		GENMASK(3, 0)
#define NVPC_GF100_USER_PULSE		GENMASK(7, 4)

/* RECORD_* [G84:GF100] ("Record mode setup") */
#define NVPC_RECORD_ADDR_MASK		GENMASK(31, 4)
#define NVPC_RECORD_STATUS_FAULT	BIT(0)
#define NVPC_RECORD_STATUS_POS		GENMASK(31, 4)
#define NVPC_RECORD_ADDRESS_HIGH_MASK	GENMASK(7, 0)
#define NVPC_RECORD_CHAN_CHAN		GENMASK(29, 0)
#define NVPC_RECORD_CHAN_VALID		BIT(31)
#define NVPC_RECORD_DMA_OBJ		GENMASK(15, 0)

/* Record packets ("Record mode"): 16-bit little endian words */
#define NVPC_RECORD_PACKET_LONG		32
#define NVPC_RECORD_PACKET_SHORT	16
#define NVPC_RECORD_NR_EVENTS		12
#define NVPC_RECORD_CYCLES_MASK		GENMASK_ULL(47, 0)
#define NVPC_RECORD_STOP_MAX		0xfff
#define NVPC_RECORD_EVENT_MAX		0xffff
#define NVPC_RECORD_EVENT_FLUSH		0xf000

/* ---- Trailer signals, offsets from the trailer base ("Trailer signals") */
#define NVPC_NV10_TRAILER_FLAG		0x1f
#define NVPC_NV20_TRAILER_PM_TRIGGER	0x1d
#define NVPC_NV20_TRAILER_FLAG(x)	(0x1f - (x))
#define NVPC_NV40_TRAILER_ZERO_C	0x0c	/* G84:GF100 */
#define NVPC_NV40_TRAILER_PERIODIC	0x0d	/* G84:GF100 */
#define NVPC_NV40_TRAILER_ZERO_E	0x0e	/* NV40:G84 */
#define NVPC_NV40_TRAILER_WRCACHE_FLUSH	0x0e	/* G84:GF100 */
#define NVPC_NV40_TRAILER_PM_TRIGGER	0x0f
#define NVPC_NV40_TRAILER_EVENT(x)	(0x17 - (x))
#define NVPC_NV40_TRAILER_FLAG(x)	(0x1f - (x))
#define NVPC_GF100_TRAILER_USER(n)	(0x27 + (n))
#define NVPC_GF100_TRAILER_PAUSED	0x2c
#define NVPC_GF100_TRAILER_PERIODIC	0x2e
#define NVPC_GF100_TRAILER_EVENT(x)	(0x37 - (x))
#define NVPC_GF100_TRAILER_FLAG(x)	(0x3f - (x))

/* ---- GF100+ (envytools' rnndb, gf100_pcounter.xml) ---- */
#define NVPC_GF100_GPC_BASE(g, d)	(0x180000 + (g) * 0x1000 + (d) * 0x200)
#define NVPC_GF100_PART_BASE(p, d)	(0x1a0000 + (p) * 0x1000 + (d) * 0x200)
#define NVPC_GF100_HUB_BASE(d)		(0x1b0000 + (d) * 0x200)
#define NVPC_GF100_MAX_GPC		32
#define NVPC_GF100_MAX_PART		16
#define NVPC_GF100_NR_DOMAINS		8
#define NVPC_GF100_DOMAIN_SIZE		0x200
#define NVPC_GF100_MMIO_START		0x180000
#define NVPC_GF100_MMIO_END		0x1c0000

/* offsets from a domain base */
#define NVPC_GF100_STATUS(j)		((j) * 4)	/* j < 16 (pcounter.rst, later revision) */
#define NVPC_GF100_NR_STATUS		16
#define NVPC_GF100_SRC(n)		(0x040 + (n) * 8)	/* n < 4 */
#define NVPC_GF100_OP(n)		(0x044 + (n) * 8)	/* n < 4 */
#define NVPC_GF100_PRE_SRC		0x040
#define NVPC_GF100_PRE_OP		0x044
#define NVPC_GF100_START_SRC		0x048
#define NVPC_GF100_START_OP		0x04c
#define NVPC_GF100_EVENT_SRC		0x050
#define NVPC_GF100_EVENT_OP		0x054
#define NVPC_GF100_STOP_SRC		0x058
#define NVPC_GF100_STOP_OP		0x05c
#define NVPC_GF100_SETFLAG_OP		0x060
#define NVPC_GF100_CLRFLAG_OP		0x064
#define NVPC_GF100_SRC_STATUS		0x068
#define NVPC_GF100_SWAP_SRC		0x06c
#define NVPC_GF100_CTR_CYCLES		0x070
#define NVPC_GF100_CTR_EVENT		0x080
#define NVPC_GF100_CTR_START		0x088
#define NVPC_GF100_CTR_PRE		0x08c
#define NVPC_GF100_CTR_STOP		0x090
#define NVPC_GF100_SINGLE_ABORT		0x094
#define NVPC_GF100_THRESHOLD		0x098
#define NVPC_GF100_CTRL			0x09c
#define NVPC_GF100_QUAD_ACK_TRIGGER	0x0a0
#define NVPC_GF100_LIVE_EVENT		0x0a4
#define NVPC_GF100_LIVE_PRE		0x0a8
#define NVPC_GF100_LIVE_START		0x0ac
#define NVPC_GF100_LIVE_STOP		0x0b0
#define NVPC_GF100_LIVE_CYCLES		0x0bc
#define NVPC_GF100_LIVE_CYCLES_HIGH	0x0c0
#define NVPC_GF100_VSTATUS		0x0c8
#define NVPC_GF100_SINGLE_BEGIN		0x0e0
#define NVPC_GF100_STATE		0x0e4
#define NVPC_GF100_USER_TRIGGER		0x0ec
#define NVPC_GF100_FILTER		0x100

/* CTRL (dombase + 0x9c) of GF100+ */
#define NVPC_GF100_CTRL_MODE		GENMASK(2, 0)
#define NVPC_GF100_CTRL_MODE_HALTED	0
#define NVPC_GF100_CTRL_MODE_SINGLE	1
#define NVPC_GF100_CTRL_MODE_QUAD	2
#define NVPC_GF100_CTRL_MODE_RECORD_A	3
#define NVPC_GF100_CTRL_MODE_RECORD_B	5
#define NVPC_GF100_CTRL_CTR_MODE	GENMASK(5, 3)
#define NVPC_GF100_CTRL_EVENT_CTR_PERIOD BIT(6)
#define NVPC_GF100_CTRL_EVENT_IMPORT_PULSE BIT(7)
#define NVPC_GF100_CTRL_FLAG_IMPORT_PULSE BIT(8)
#define NVPC_GF100_CTRL_UNK18		BIT(18)
#define NVPC_GF100_CTRL_PERIODIC_PERIOD	GENMASK(23, 21)
#define NVPC_GF100_CTRL_QUAD_STATE	GENMASK(25, 24)
#define NVPC_GF100_CTRL_SINGLE_STATE	GENMASK(29, 28)

/* MAIN record unit and per-set controls */
#define NVPC_GF100_MAIN			0x1b4000
#define NVPC_GF100_MAIN_RECORD_CHAN	(NVPC_GF100_MAIN + 0x70)
#define NVPC_GF100_MAIN_RECORD_START	(NVPC_GF100_MAIN + 0x74)
#define NVPC_GF100_MAIN_RECORD_ADDRESS_HIGH (NVPC_GF100_MAIN + 0x78)
#define NVPC_GF100_MAIN_RECORD_LIMIT	(NVPC_GF100_MAIN + 0x7c)
#define NVPC_GF100_MAIN_RECORD_POS	(NVPC_GF100_MAIN + 0x80)
#define NVPC_GF100_MAIN_RECORD_COUNT	(NVPC_GF100_MAIN + 0x84)
#define NVPC_GF100_GPC_DSET_CTRL	0x1b8000
#define NVPC_GF100_PART_DSET_CTRL	0x1bc000
#define NVPC_GF100_HUB_DSET_CTRL	0x1be000

/* Unit enumeration (nouveau's PM engine, nvkm/engine/pm/gf100.c) */
#define NVPC_GF100_GPC_COUNT		0x022430
#define NVPC_GF100_GPC_DISABLE_A	0x022504
#define NVPC_GF100_GPC_DISABLE_B	0x022584
#define NVPC_GF100_PART_COUNT		0x022438
#define NVPC_GF100_PART_DISABLE_A	0x022548
#define NVPC_GF100_PART_DISABLE_B	0x0225c8

#endif /* _NVPCOUNTER_REGS_H */
