// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter sim: the MMIO front end. Decodes BAR0 addresses per generation
 * (envytools' pcounter.rst "MMIO registers", the tables of its later
 * revision, rnndb gf100_pcounter.xml for the GF100+ map) and applies
 * the immediate effects of writes; effects that the documents tie to
 * "this cycle" are left pending for the next cycle.
 */
#include "sim_internal.h"

enum nvpc_sim_reg {
	R_ABSENT,
	R_BOOT0,
	R_PMC_ENABLE,
	R_PGRAPH_TRIGGER,
	R_UNIT,			/* arg: value */
	R_SRC,			/* arg: input */
	R_OP,			/* arg: input */
	R_STATUS,		/* arg: j */
	R_SRC_STATUS,
	R_SPEC_SRC,
	R_USER_TRIGGER,
	R_CTR,			/* arg: counter */
	R_CTR_HI,		/* arg: counter (NV10:NV30) */
	R_THRESHOLD,
	R_THRESHOLD_HI,
	R_CTRL,
	R_CTRL_SHARED,
	R_QUAD_ACK,
	R_QUAD_ACK_SHARED,
	R_REC_ADDR_HIGH,
	R_REC_STATUS,
	R_REC_LIMIT,
	R_REC_START,
	R_REC_CHAN,
	R_REC_DMA,
	R_GCTRL,
	R_DSET_CTRL,		/* arg: 0 hub, 1 gpc, 2 part */
	R_GF_LIVE,		/* arg: counter */
	R_GF_LIVE_HIGH,
	R_GF_STORE,		/* arg: index in gf_store */
	R_GF_SINGLE_BEGIN,
	R_GF_SINGLE_ABORT,
	R_GF_MAIN,		/* arg: word index */
	R_GF_REC,		/* arg: MAIN offset */
};

struct nvpc_sim_ref {
	u8 reg;
	int dom;
	u32 arg;
};

static void nvpc_sim_ref_dom(const struct nvpc_sim *sim,
			     struct nvpc_sim_ref *r, unsigned int set_first,
			     unsigned int set_count, unsigned int i)
{
	if (i >= set_count || set_first + i >= sim->nr_dom)
		r->reg = R_ABSENT;
	else
		r->dom = set_first + i;
}

/* NV10:NV40 ("MMIO registers / NV10") */
static void nvpc_sim_decode_nv10(const struct nvpc_sim *sim, u32 addr,
				 struct nvpc_sim_ref *r)
{
	u32 page = addr >> 8, lo = addr & 0xff;
	bool has_hi = sim->facts->ctr40;
	unsigned int i;

	if (addr == NVPC_NV10_CTRL) {
		r->reg = R_CTRL_SHARED;
		return;
	}
	if (addr == NVPC_NV30_QUAD_ACK_TRIGGER) {
		if (sim->facts->quad)
			r->reg = R_QUAD_ACK_SHARED;
		return;
	}
	if (page < 0xa4 || page > 0xa7 || (lo & 3))
		return;
	i = page & 1;
	if (page <= 0xa5) {
		if (lo < 0x30) {
			r->reg = (lo & 4) ? R_OP : R_SRC;
			r->arg = lo / 8;
			if (r->reg == R_SRC && r->arg >= NVPC_INPUT_SETFLAG &&
			    !has_hi)
				r->reg = R_ABSENT;
		} else if (lo < 0x40) {
			r->reg = R_STATUS;
			r->arg = (lo - 0x30) / 4;
		}
	} else {
		static const u8 ctr[] = {
			NVPC_SIM_CTR_CYCLES, NVPC_SIM_CTR_CYCLES_ALT,
			NVPC_SIM_CTR_EVENT, NVPC_SIM_CTR_START,
		};

		if (lo < 0x20) {
			r->reg = (lo & 4) ? R_CTR_HI : R_CTR;
			r->arg = ctr[lo / 8];
			if (r->reg == R_CTR_HI && !has_hi)
				r->reg = R_ABSENT;
		} else if (lo == 0x20 || lo == 0x24) {
			r->reg = R_CTR;
			r->arg = lo == 0x20 ? NVPC_SIM_CTR_PRE :
					      NVPC_SIM_CTR_STOP;
		} else if (lo == 0x28) {
			r->reg = R_THRESHOLD;
		} else if (lo == 0x2c) {
			r->reg = has_hi ? R_THRESHOLD_HI : R_ABSENT;
		} else if (lo >= 0x30 && lo < 0x40) {
			r->reg = R_STATUS;
			r->arg = 4 + (lo - 0x30) / 4;
		}
	}
	if (r->reg != R_ABSENT)
		nvpc_sim_ref_dom(sim, r, 0, sim->nr_dom, i);
}

/* NV40:GF100 ("MMIO registers / NV40"), blocks of 8 registers */
static void nvpc_sim_decode_nv40(const struct nvpc_sim *sim, u32 addr,
				 struct nvpc_sim_ref *r)
{
	static const u8 blk_reg[32] = {
		R_SRC, R_OP, R_SRC, R_OP, R_SRC, R_OP, R_SRC, R_OP,
		R_OP, R_OP, R_SRC_STATUS, R_SPEC_SRC, R_USER_TRIGGER,
		R_ABSENT, R_ABSENT, R_ABSENT,
		R_CTR, R_ABSENT, R_CTR, R_ABSENT, R_CTR, R_REC_ADDR_HIGH,
		R_CTR, R_REC_STATUS, R_CTR, R_REC_LIMIT, R_CTR, R_REC_START,
		R_THRESHOLD, R_ABSENT, R_CTRL, R_QUAD_ACK,
	};
	static const u8 blk_arg[32] = {
		0, 0, 1, 1, 2, 2, 3, 3, 4, 5, 0, 0, 0, 0, 0, 0,
		NVPC_SIM_CTR_CYCLES, 0, NVPC_SIM_CTR_CYCLES_ALT, 0,
		NVPC_SIM_CTR_EVENT, 0, NVPC_SIM_CTR_START, 0,
		NVPC_SIM_CTR_PRE, 0, NVPC_SIM_CTR_STOP, 0, 0, 0, 0, 0,
	};
	unsigned int blk, i = (addr >> 2) & 7;
	const struct nvpc_sim_facts *f = sim->facts;

	if (addr & 3)
		return;
	if (addr >= 0xa800 && addr < 0xa900) {
		r->reg = R_STATUS;
		r->arg = (addr >> 2) & 7;
		nvpc_sim_ref_dom(sim, r, 0, sim->nr_dom, (addr - 0xa800) >> 5);
		return;
	}
	if (addr < 0xa400 || addr >= 0xa800)
		return;
	blk = (addr - 0xa400) >> 5;
	r->reg = blk_reg[blk];
	r->arg = blk_arg[blk];
	if (blk == 29) {
		if (f->record && i < 3)
			r->reg = i == 0 ? R_REC_CHAN : i == 1 ? R_REC_DMA :
							      R_GCTRL;
		return;
	}
	if ((r->reg == R_SPEC_SRC || r->reg == R_REC_STATUS ||
	     r->reg == R_REC_LIMIT || r->reg == R_REC_START) &&
	    !f->record)
		r->reg = R_ABSENT;
	if (r->reg == R_REC_ADDR_HIGH && !f->rec_addr_high)
		r->reg = R_ABSENT;
	if (r->reg == R_USER_TRIGGER && !f->user)
		r->reg = R_ABSENT;
	if (r->reg != R_ABSENT)
		nvpc_sim_ref_dom(sim, r, 0, sim->nr_dom, i);
}

/* GF100+ per-domain registers (envytools rnndb gf100_pcounter.xml) */
static void nvpc_sim_decode_gf100_dom(u32 off, struct nvpc_sim_ref *r)
{
	static const struct { u16 off; u8 reg; u8 arg; } map[] = {
		{ NVPC_GF100_SRC_STATUS, R_SRC_STATUS, 0 },
		{ NVPC_GF100_SWAP_SRC, R_SPEC_SRC, 0 },
		{ NVPC_GF100_SETFLAG_OP, R_OP, NVPC_INPUT_SETFLAG },
		{ NVPC_GF100_CLRFLAG_OP, R_OP, NVPC_INPUT_CLRFLAG },
		{ NVPC_GF100_CTR_CYCLES, R_CTR, NVPC_SIM_CTR_CYCLES },
		{ NVPC_GF100_CTR_EVENT, R_CTR, NVPC_SIM_CTR_EVENT },
		{ NVPC_GF100_CTR_START, R_CTR, NVPC_SIM_CTR_START },
		{ NVPC_GF100_CTR_PRE, R_CTR, NVPC_SIM_CTR_PRE },
		{ NVPC_GF100_CTR_STOP, R_CTR, NVPC_SIM_CTR_STOP },
		{ NVPC_GF100_THRESHOLD, R_THRESHOLD, 0 },
		{ NVPC_GF100_CTRL, R_CTRL, 0 },
		{ NVPC_GF100_QUAD_ACK_TRIGGER, R_QUAD_ACK, 0 },
		{ NVPC_GF100_LIVE_EVENT, R_GF_LIVE, NVPC_SIM_CTR_EVENT },
		{ NVPC_GF100_LIVE_PRE, R_GF_LIVE, NVPC_SIM_CTR_PRE },
		{ NVPC_GF100_LIVE_START, R_GF_LIVE, NVPC_SIM_CTR_START },
		{ NVPC_GF100_LIVE_STOP, R_GF_LIVE, NVPC_SIM_CTR_STOP },
		{ NVPC_GF100_LIVE_CYCLES, R_GF_LIVE, NVPC_SIM_CTR_CYCLES },
		{ NVPC_GF100_LIVE_CYCLES_HIGH, R_GF_LIVE_HIGH, 0 },
		{ NVPC_GF100_USER_TRIGGER, R_USER_TRIGGER, 0 },
		{ NVPC_GF100_SINGLE_ABORT, R_GF_SINGLE_ABORT, 0 },
		{ NVPC_GF100_VSTATUS, R_GF_STORE, 1 },
		{ NVPC_GF100_SINGLE_BEGIN, R_GF_SINGLE_BEGIN, 0 },
		{ NVPC_GF100_STATE, R_GF_STORE, 3 },
		{ NVPC_GF100_FILTER, R_GF_STORE, 4 },
	};
	unsigned int k;

	if (off < NVPC_GF100_NR_STATUS * 4) {
		r->reg = R_STATUS;
		r->arg = off / 4;
		return;
	}
	if (off >= NVPC_GF100_PRE_SRC && off <= NVPC_GF100_STOP_OP) {
		r->reg = (off & 4) ? R_OP : R_SRC;
		r->arg = (off - NVPC_GF100_PRE_SRC) / 8;
		return;
	}
	for (k = 0; k < ARRAY_SIZE(map); k++) {
		if (map[k].off == off) {
			r->reg = map[k].reg;
			r->arg = map[k].arg;
			return;
		}
	}
}

static int nvpc_sim_gf100_dom(const struct nvpc_sim *sim, u8 dset,
			      unsigned int unit, unsigned int index)
{
	unsigned int i;

	/* flat order is hub, gpc 0.., part 0..: scan (init-time layout) */
	for (i = 0; i < sim->nr_dom; i++) {
		const struct nvpc_sim_dom *d = &sim->dom[i];

		if (d->dset == dset && d->unit == unit && d->index == index)
			return i;
	}
	return -1;
}

static void nvpc_sim_decode_gf100(const struct nvpc_sim *sim, u32 addr,
				  struct nvpc_sim_ref *r)
{
	unsigned int unit = 0, index;
	u8 dset;

	if (addr & 3)
		return;
	if (addr >= NVPC_GF100_MAIN_RECORD_START &&
	    addr <= NVPC_GF100_MAIN_RECORD_COUNT) {
		r->reg = R_GF_REC;
		r->arg = addr - NVPC_GF100_MAIN;
		return;
	}
	if (addr >= NVPC_GF100_MAIN && addr < NVPC_GF100_MAIN + 0x100) {
		r->reg = R_GF_MAIN;
		r->arg = (addr - NVPC_GF100_MAIN) / 4;
		return;
	}
	if (addr == NVPC_GF100_HUB_DSET_CTRL || addr == NVPC_GF100_GPC_DSET_CTRL ||
	    addr == NVPC_GF100_PART_DSET_CTRL) {
		r->reg = R_DSET_CTRL;
		r->arg = addr == NVPC_GF100_HUB_DSET_CTRL ? 0 :
			 addr == NVPC_GF100_GPC_DSET_CTRL ? 1 : 2;
		return;
	}
	if (addr >= 0x180000 && addr < 0x1a0000) {
		dset = NVPC_DSET_GPC;
		unit = (addr - 0x180000) >> 12;
	} else if (addr >= 0x1a0000 && addr < 0x1b0000) {
		dset = NVPC_DSET_PART;
		unit = (addr - 0x1a0000) >> 12;
	} else if (addr >= 0x1b0000 && addr < 0x1b1000) {
		dset = NVPC_DSET_HUB;
	} else {
		return;
	}
	index = (addr >> 9) & 7;
	r->dom = nvpc_sim_gf100_dom(sim, dset, unit, index);
	if (r->dom < 0)
		return;
	nvpc_sim_decode_gf100_dom(addr & 0x1ff, r);
}

static void nvpc_sim_decode(const struct nvpc_sim *sim, u32 addr,
			    struct nvpc_sim_ref *r)
{
	r->reg = R_ABSENT;
	r->dom = -1;
	r->arg = 0;
	if (addr == NVPC_PMC_BOOT_0) {
		r->reg = R_BOOT0;
	} else if (addr == NVPC_PMC_ENABLE) {
		r->reg = R_PMC_ENABLE;
	} else if (addr == NVPC_PGRAPH_PM_TRIGGER) {
		r->reg = R_PGRAPH_TRIGGER;
	} else if (sim->facts->gf100_layout) {
		if (addr == NVPC_GF100_GPC_COUNT) {
			r->reg = R_UNIT;
			r->arg = sim->nr_gpc;
		} else if (addr == NVPC_GF100_PART_COUNT) {
			r->reg = R_UNIT;
			r->arg = sim->nr_part;
		} else if (addr == NVPC_GF100_GPC_DISABLE_A ||
			   addr == NVPC_GF100_GPC_DISABLE_B ||
			   addr == NVPC_GF100_PART_DISABLE_A ||
			   addr == NVPC_GF100_PART_DISABLE_B) {
			r->reg = R_UNIT;	/* nothing floorswept */
		} else if (addr >= NVPC_GF100_MMIO_START &&
			   addr < NVPC_GF100_MMIO_END) {
			nvpc_sim_decode_gf100(sim, addr, r);
		}
	} else if (!sim->facts->shared_ctrl) {
		nvpc_sim_decode_nv40(sim, addr, r);
	} else {
		nvpc_sim_decode_nv10(sim, addr, r);
	}
	if (r->reg != R_ABSENT && r->reg >= R_SRC && r->dom < 0 &&
	    r->reg != R_CTRL_SHARED && r->reg != R_QUAD_ACK_SHARED &&
	    r->reg != R_REC_CHAN && r->reg != R_REC_DMA &&
	    r->reg != R_GCTRL && r->reg != R_DSET_CTRL && r->reg != R_GF_MAIN &&
	    r->reg != R_GF_REC)
		r->reg = R_ABSENT;
}

static bool nvpc_sim_stored_only(u8 reg)
{
	return reg == R_GF_STORE || reg == R_GF_MAIN;
}

/* ---- control registers ("Control registers") ---- */

static void nvpc_sim_decode_ctrl(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	struct nvpc_sim_hw *hw = &d->hw;
	unsigned int i = d->index;
	u32 c;

	if (sim->facts->shared_ctrl) {
		c = sim->ctrl_shared;
		hw->ctr_mode = (c & NVPC_NV10_CTRL_CTR_MODE) ?
			       NVPC_CTR_MODE_EVENT_B4 : NVPC_CTR_MODE_SIMPLE;
		hw->event_ctr_all = sim->facts->event_ctr_period &&
			!!(c & NVPC_NV10_CTRL_EVENT_CTR_PERIOD(i));
		hw->mode = sim->facts->quad &&
			(c & NVPC_NV10_CTRL_MODE_QUAD(i)) ?
			NVPC_SIM_MODE_QUAD : NVPC_SIM_MODE_SINGLE;
		return;
	}
	c = hw->ctrl;
	if (!sim->facts->gf100_layout) {
		switch (FIELD_GET(NVPC_NV40_CTRL_MODE, c)) {
		case NVPC_NV40_CTRL_MODE_SINGLE:
			hw->mode = NVPC_SIM_MODE_SINGLE;
			break;
		case NVPC_NV40_CTRL_MODE_QUAD:
			hw->mode = NVPC_SIM_MODE_QUAD;
			break;
		case NVPC_NV40_CTRL_MODE_RECORD:
			hw->mode = sim->facts->record ?
				   NVPC_SIM_MODE_RECORD : NVPC_SIM_MODE_HALTED;
			break;
		default:
			hw->mode = NVPC_SIM_MODE_HALTED;
		}
		hw->ctr_mode = FIELD_GET(NVPC_NV40_CTRL_CTR_MODE, c);
		hw->event_ctr_all = !!(c & NVPC_NV40_CTRL_EVENT_CTR_PERIOD);
		hw->event_import_pulse = !!(c & NVPC_NV40_CTRL_EVENT_IMPORT_PULSE);
		hw->flag_import_pulse = !!(c & NVPC_NV40_CTRL_FLAG_IMPORT_PULSE);
		hw->rec_short = !!(c & NVPC_G84_CTRL_RECORD_SHORT);
		hw->periodic_sel = sim->facts->periodic ?
			FIELD_GET(NVPC_G84_CTRL_PERIODIC_PERIOD, c) : 0;
	} else {
		switch (FIELD_GET(NVPC_GF100_CTRL_MODE, c)) {
		case NVPC_GF100_CTRL_MODE_SINGLE:
			hw->mode = NVPC_SIM_MODE_SINGLE;
			break;
		case NVPC_GF100_CTRL_MODE_QUAD:
			hw->mode = NVPC_SIM_MODE_QUAD;
			break;
		case NVPC_GF100_CTRL_MODE_RECORD_A:
		case NVPC_GF100_CTRL_MODE_RECORD_B:
			/* "GF100+ record mode" below: MODE 3 long, 5 short */
			hw->mode = NVPC_SIM_MODE_RECORD;
			break;
		default:
			/* MODE 0 halted; 4, 6, 7 undocumented: halted too */
			hw->mode = NVPC_SIM_MODE_HALTED;
		}
		hw->rec_short = FIELD_GET(NVPC_GF100_CTRL_MODE, c) ==
				NVPC_GF100_CTRL_MODE_RECORD_B;
		hw->ctr_mode = FIELD_GET(NVPC_GF100_CTRL_CTR_MODE, c);
		hw->event_ctr_all = !!(c & NVPC_GF100_CTRL_EVENT_CTR_PERIOD);
		hw->event_import_pulse =
			!!(c & NVPC_GF100_CTRL_EVENT_IMPORT_PULSE);
		hw->flag_import_pulse = !!(c & NVPC_GF100_CTRL_FLAG_IMPORT_PULSE);
		hw->periodic_sel = FIELD_GET(NVPC_GF100_CTRL_PERIODIC_PERIOD, c);
	}
	/* undocumented counter modes (5..7) count as SIMPLE */
	if (hw->ctr_mode > NVPC_CTR_MODE_EXTRA_B6_EVENT_B2)
		hw->ctr_mode = NVPC_CTR_MODE_SIMPLE;
}

static u32 nvpc_sim_rd_ctrl_shared(const struct nvpc_sim *sim)
{
	u32 v = sim->ctrl_shared;
	unsigned int i;

	for (i = 0; i < sim->nr_dom; i++) {
		v |= (u32)sim->dom[i].hw.single_state << (3 + 2 * i);
		if (sim->facts->quad)
			v |= (u32)sim->dom[i].hw.quad_state << (24 + 2 * i);
	}
	return v;
}

static u32 nvpc_sim_ctrl_shared_mask(const struct nvpc_sim *sim)
{
	u32 m = NVPC_NV10_CTRL_TVOUT_DEBUG_SEL | NVPC_NV10_CTRL_TVOUT_DEBUG_EN |
		NVPC_NV10_CTRL_CTR_MODE;

	if (sim->facts->event_ctr_period)
		m |= NVPC_NV10_CTRL_EVENT_CTR_PERIOD(0);
	if (sim->facts->event_ctr_period && sim->facts->max_dom > 1)
		m |= NVPC_NV10_CTRL_EVENT_CTR_PERIOD(1);
	if (sim->facts->quad)
		m |= NVPC_NV10_CTRL_MODE_QUAD(0) | NVPC_NV10_CTRL_MODE_QUAD(1);
	return m;
}

/* ---- domain reset (PMC.ENABLE, GF100+) ---- */

/**
 * nvpc_sim_hw_reset() - reset every domain's registers and counting state
 * @sim: the sim
 *
 * Used at init and while PMC.ENABLE bit 28 is cleared (GF100+).
 */
void nvpc_sim_hw_reset(struct nvpc_sim *sim)
{
	unsigned int i;

	for (i = 0; i < sim->nr_dom; i++) {
		memset(&sim->dom[i].hw, 0, sizeof(sim->dom[i].hw));
		sim->dom[i].lost_swaps = 0;
		sim->dom[i].keep_ctrs = 0;
		sim->dom[i].no_swap = 0;
		nvpc_sim_decode_ctrl(sim, &sim->dom[i]);
	}
	memset(sim->dset_ctrl, 0, sizeof(sim->dset_ctrl));
	memset(sim->gf_main, 0, sizeof(sim->gf_main));
	/* PCOUNTER reset: the only way out of a record fault's wedge */
	memset(&sim->gf_rec, 0, sizeof(sim->gf_rec));
	sim->record_dma_written = false;
	sim->record_bound = false;
	sim->cfg_gen++;
}

/* ---- record mode registers ("Record mode setup") ---- */

static void nvpc_sim_record_clear(struct nvpc_sim_hw *hw)
{
	hw->rec_cycles = 0;
	memset(hw->rec_ev, 0, sizeof(hw->rec_ev));
	hw->rec_stop = 0;
}

/*
 * DOC: record bind
 *
 * pcounter.rst "Record mode setup" [NV84:NVC0]: PCOUNTER writes record
 * packets through the VM of a bound channel and DMA object. RECORD_DMA
 * (0xa7a4, bits 0-15) only stores the DMA object; a RECORD_CHAN (0xa7a0)
 * write with VALID (bit 31) binds the channel (bits 0-29) and the stored
 * DMA object, one without VALID only stores; "the channel register has
 * to be written *after* the DMA object register for a successful bind".
 *
 * Assumed (the documents do not say what an unbound PCOUNTER does): the
 * bind of a RECORD_CHAN write with VALID succeeds iff RECORD_DMA was
 * written before it since creation (or a PCOUNTER reset); a write with
 * VALID that does not succeed leaves PCOUNTER unbound. Without a
 * successful bind a record packet write is a VM fault, with the
 * documented fault behaviour (RECORD_STATUS FAULT set, the domain
 * wedged). The sim has one VM: every channel and DMA object number binds
 * it. GF100+ (MAIN CHAN only stored, "[XXX: figure out record mode setup
 * for NVC0]") record without a bind, as before.
 */
static void nvpc_sim_wr_record_bind(struct nvpc_sim *sim, bool chan, u32 val)
{
	if (!chan) {
		sim->record_dma = val;
		sim->record_dma_written = true;
		return;
	}
	sim->record_chan = val;
	if (val & NVPC_RECORD_CHAN_VALID)
		sim->record_bound = sim->record_dma_written;
}

/*
 * DOC: bogus record packet
 *
 * pcounter.rst "Record mode setup", RECORD_START: "setting this register
 * will not properly clear the counter state if the domain is not in
 * record mode - in fact, a bogus packet will likely be written
 * immediately after transitioning to the record mode if RECORD_START is
 * written in another mode. To avoid that, write RECORD_START after
 * entering record mode [...], or use the GCTRL.RECORD_RESET bit."
 *
 * The sim makes it certain [G84:GF100]: a RECORD_START write while the
 * domain is not in record mode sets the position and "buffer valid" but
 * leaves the record counters as they are, and marks a bogus packet
 * pending (&nvpc_sim_hw.rec_bogus). The first cycle the domain then runs
 * in record mode counts as usual and forces a packet write, as a STOP
 * pulse would (subject to the same rules: buffer valid, no packet
 * outgoing): the packet holds the counters as they are after that cycle,
 * stale values included, and its STOP count may be 0. Assumed: a
 * RECORD_START write in record mode (which resets the counters) and a
 * GCTRL write with RECORD_RESET set cancel the pending packet, and a
 * first record-mode cycle with RECORD_RESET held consumes it without a
 * packet.
 */

/*
 * DOC: GF100+ record mode
 *
 * Documented: record mode itself (pcounter.rst "Record mode", "Record mode
 * setup": counters, packet formats, STOP counter, the 0xf000 early write,
 * one outgoing packet per domain, LIMIT, FAULT and its wedge) for
 * G84:GF100, with per-domain RECORD_START/LIMIT/STATUS/ADDRESS_HIGH; and
 * for GF100+ only the register places of envytools' rnndb
 * gf100_pcounter.xml: MAIN 0x1b4000 with CHAN +0x70, START
 * +0x74, ADDRESS_HIGH +0x78, LIMIT +0x7c, POS +0x80, COUNT +0x84, the
 * per-set CTRL RECORD_RESET of GPC_DSET/PART_DSET/HUB_DSET, and CTRL MODE
 * 3 and 5 as "record variants". pcounter.rst ends with "[XXX: figure out
 * record mode setup for NVC0]" and "[XXX: check if still valid on NVC0]".
 * Everything below that is not in that list is our assumption, chosen as
 * the simplest behaviour that keeps the G84 semantics:
 *
 *  - MAIN START/LIMIT/ADDRESS_HIGH are the G84 RECORD_START/LIMIT/
 *    ADDRESS_HIGH of one buffer shared by every domain in record mode
 *    (&nvpc_sim.gf_rec). A START write sets the position and the "buffer
 *    valid" flag, zeroes COUNT, and resets the record counters of every
 *    domain then in record mode (not those of other domains, as on G84).
 *  - POS (read-only) reads like G84 RECORD_STATUS: bits 4-31 the position
 *    of the next packet, bit 0 FAULT. COUNT (read-only): packets written
 *    to memory since the last START write, wrapping at 2^32. Writes to
 *    POS and COUNT are ignored. CHAN is only stored: no bind is needed
 *    (unlike G84:GF100, "DOC: record bind" above).
 *  - MODE 3 writes long (32-byte) packets, MODE 5 short (16-byte) ones:
 *    the two "record variants" taken as the two documented formats, the
 *    G84 RECORD_FORMAT bit 20 being [G84:GF100] only. Domains of either
 *    format may share the buffer; each packet advances POS by its length.
 *  - Each domain keeps its own counters and its one outgoing packet.
 *    Interleaving: a packet is written when its domain's write completes
 *    (the cycle it was formed in plus &nvpc_sim_params.record_latency
 *    cycles of that domain), at the buffer's position then, which then
 *    advances. Completions are ordered like all cycle processing (start
 *    tick of the cycle, ties: lower flat domain index first), so with
 *    latency 0 two domains that trigger in the same cycle at the same
 *    clock land in flat index order.
 *  - LIMIT as on G84: after a packet is written at an address >= LIMIT
 *    the buffer is no longer valid; no domain forms a packet until START
 *    is written, and a packet of another domain still outgoing then is
 *    dropped (the G84 "all further writes will be ignored"); its domain
 *    may form a packet again (its counters were reset when it formed it).
 *  - A VM fault wedges only the domain whose packet faulted (G84: "hang
 *    the faulting domain") and sets FAULT in POS; POS and COUNT do not
 *    advance, the other domains keep writing. No register clears FAULT
 *    (CTRL FAULT_CLEAR is [G84:GF100]); clearing PMC.ENABLE bit 28 resets
 *    PCOUNTER, the buffer and the wedge.
 *  - RECORD_RESET of a set's DSET CTRL forces the record counters of that
 *    set's domains to 0 while set, like G84 GCTRL.RECORD_RESET does for
 *    all domains.
 */
static void nvpc_sim_wr_gf_rec(struct nvpc_sim *sim, u32 off, u32 val)
{
	struct nvpc_sim_rbuf *b = &sim->gf_rec;
	unsigned int i;

	switch (off) {
	case NVPC_GF100_MAIN_RECORD_START - NVPC_GF100_MAIN:
		b->start = val & NVPC_RECORD_ADDR_MASK;
		b->pos = b->start;
		b->valid = 1;
		b->count = 0;
		for (i = 0; i < sim->nr_dom; i++)
			if (sim->dom[i].hw.mode == NVPC_SIM_MODE_RECORD)
				nvpc_sim_record_clear(&sim->dom[i].hw);
		break;
	case NVPC_GF100_MAIN_RECORD_ADDRESS_HIGH - NVPC_GF100_MAIN:
		b->addr_high = val & NVPC_RECORD_ADDRESS_HIGH_MASK;
		break;
	case NVPC_GF100_MAIN_RECORD_LIMIT - NVPC_GF100_MAIN:
		b->limit = val & NVPC_RECORD_ADDR_MASK;
		break;
	default:
		/* POS and COUNT are read-only */
		break;
	}
}

static u32 nvpc_sim_rd_gf_rec(const struct nvpc_sim *sim, u32 off)
{
	const struct nvpc_sim_rbuf *b = &sim->gf_rec;

	switch (off) {
	case NVPC_GF100_MAIN_RECORD_START - NVPC_GF100_MAIN:
		return b->start;
	case NVPC_GF100_MAIN_RECORD_ADDRESS_HIGH - NVPC_GF100_MAIN:
		return b->addr_high;
	case NVPC_GF100_MAIN_RECORD_LIMIT - NVPC_GF100_MAIN:
		return b->limit;
	case NVPC_GF100_MAIN_RECORD_POS - NVPC_GF100_MAIN:
		return (b->pos & NVPC_RECORD_STATUS_POS) |
		       (b->fault ? NVPC_RECORD_STATUS_FAULT : 0);
	default:
		return b->count;
	}
}

/* ---- reads ---- */

static u32 nvpc_sim_rd_status(struct nvpc_sim *sim, unsigned int dom,
			      unsigned int j)
{
	u32 v = 0;
	unsigned int b;

	if (j * 32 >= NVPC_SIM_NR_SIGNALS)
		return 0;
	for (b = 0; b < 32; b++)
		if (sim->engine->signal(sim, dom, j * 32 + b))
			v |= 1U << b;
	return v;
}

static u32 nvpc_sim_rd_src_status(struct nvpc_sim *sim, unsigned int dom)
{
	const struct nvpc_sim_hw *hw = &sim->dom[dom].hw;
	unsigned int n, j;
	u32 v = 0;

	for (n = 0; n < 4; n++)
		for (j = 0; j < 4; j++)
			if (sim->engine->signal(sim, dom,
						(hw->src[n] >> (8 * j)) & 0xff))
				v |= NVPC_SRC_STATUS_BIT(n, j);
	return v;
}

static u32 nvpc_sim_rd_ref(struct nvpc_sim *sim, const struct nvpc_sim_ref *r)
{
	struct nvpc_sim_dom *d = r->dom >= 0 ? &sim->dom[r->dom] : NULL;
	struct nvpc_sim_hw *hw = d ? &d->hw : NULL;
	u64 v;

	switch (r->reg) {
	case R_BOOT0:
		return FIELD_PREP(NVPC_PMC_BOOT_0_CHIPSET, sim->chip->chipset);
	case R_PMC_ENABLE:
		return sim->pmc_enable;
	case R_UNIT:
		return r->arg;
	case R_SRC:
		return hw->src[r->arg];
	case R_OP:
		return hw->op[r->arg];
	case R_STATUS:
		return nvpc_sim_rd_status(sim, r->dom, r->arg);
	case R_SRC_STATUS:
		return nvpc_sim_rd_src_status(sim, r->dom);
	case R_SPEC_SRC:
		return hw->spec_src;
	case R_USER_TRIGGER:
		/* write-only on GT215, readable on GF100+ */
		if (!sim->facts->gf100_layout)
			return 0;
		return hw->user_value | hw->user_pulse << 4;
	case R_CTR:
		return (u32)hw->ctr[r->arg];
	case R_CTR_HI:
		return (hw->ctr[r->arg] >> 32) & NVPC_NV10_HI_MASK;
	case R_THRESHOLD:
		return (u32)hw->threshold;
	case R_THRESHOLD_HI:
		return (hw->threshold >> 32) & NVPC_NV10_HI_MASK;
	case R_CTRL_SHARED:
		return nvpc_sim_rd_ctrl_shared(sim);
	case R_CTRL:
		if (sim->facts->gf100_layout)
			return hw->ctrl |
			       FIELD_PREP(NVPC_GF100_CTRL_QUAD_STATE,
					  hw->quad_state) |
			       FIELD_PREP(NVPC_GF100_CTRL_SINGLE_STATE,
					  hw->single_state);
		return hw->ctrl |
		       FIELD_PREP(NVPC_NV40_CTRL_QUAD_STATE, hw->quad_state) |
		       FIELD_PREP(NVPC_NV40_CTRL_SINGLE_STATE, hw->single_state);
	case R_REC_ADDR_HIGH:
		return hw->rbuf.addr_high;
	case R_REC_STATUS:
		return (hw->rbuf.pos & NVPC_RECORD_STATUS_POS) |
		       (hw->rbuf.fault ? NVPC_RECORD_STATUS_FAULT : 0);
	case R_REC_LIMIT:
		return hw->rbuf.limit;
	case R_REC_START:
		return hw->rbuf.start;
	case R_REC_CHAN:
		return sim->record_chan;
	case R_REC_DMA:
		return sim->record_dma;
	case R_GCTRL:
		return sim->gctrl;
	case R_DSET_CTRL:
		return sim->dset_ctrl[r->arg];
	case R_GF_LIVE:
		v = hw->mode == NVPC_SIM_MODE_QUAD ? hw->shadow[r->arg] :
						     hw->ctr[r->arg];
		return (u32)v;
	case R_GF_STORE:
		return hw->gf_store[r->arg];
	case R_GF_MAIN:
		return sim->gf_main[r->arg];
	case R_GF_REC:
		return nvpc_sim_rd_gf_rec(sim, r->arg);
	default:
		/* write-only registers, PGRAPH trigger, GF100 CYCLES HIGH */
		return 0;
	}
}

static void nvpc_sim_account(struct nvpc_sim *sim, u32 addr, u32 val,
			     bool write, u8 reg)
{
	bool absent = reg == R_ABSENT, stored = nvpc_sim_stored_only(reg);

	if (write)
		sim->stats.writes++;
	else
		sim->stats.reads++;
	if (absent) {
		if (write)
			sim->stats.absent_writes++;
		else
			sim->stats.absent_reads++;
	} else if (stored) {
		sim->stats.stored_accesses++;
	}
	if (absent || stored)
		sim->stats.last_unmodelled = addr;
	if (sim->trace)
		sim->trace(sim->trace_ctx, addr, val, write,
			   !absent && !stored);
}

static bool nvpc_sim_is_pcounter(const struct nvpc_sim_ref *r)
{
	return r->reg >= R_SRC;
}

/*
 * The domains an access may observe or change (sim_sched.c "DOC: lazy
 * domains"): its own domain; the domain set for STATUS and SRC_STATUS
 * (the DOM[x] signals read other domains' histories) and for SRC and
 * SPEC_SRC writes (the domain may start to import another one); every
 * domain for the global and shared registers (PGRAPH PM_TRIGGER, NV10:NV40
 * shared CTRL and QUAD_ACK, GCTRL, GF100+ set controls, MAIN and its
 * record buffer, PMC.ENABLE), and for anything else without a domain.
 */
/* a SRC or SPEC_SRC value of @d selects another domain's FLAG or EVENT */
static bool nvpc_sim_src_imports(const struct nvpc_sim_dom *d, u32 v)
{
	unsigned int j, kind;

	for (j = 0; j < 4; j++) {
		kind = NVPC_SIM_SIG_KIND(d->sig[(v >> (8 * j)) & 0xff]);
		if (kind == NVPC_SIM_SIG_IMP_FLAG ||
		    kind == NVPC_SIM_SIG_IMP_EVENT)
			return true;
	}
	return false;
}

/*
 * A SRC or SPEC_SRC write that makes a domain of the set imported or no
 * longer imported, which decides whether it may be lazy (sim_sched.c "DOC:
 * lazy domains"): the value written or the one it replaces selects another
 * domain's FLAG or EVENT. Any other write of these registers leaves the
 * other domains of the set as they are.
 */
static bool nvpc_sim_src_write_imports(const struct nvpc_sim *sim,
				       const struct nvpc_sim_ref *r, u32 val)
{
	const struct nvpc_sim_dom *d = &sim->dom[r->dom];

	if (r->reg == R_SRC)
		return nvpc_sim_src_imports(d, d->hw.src[r->arg]) ||
		       nvpc_sim_src_imports(d, val);
	if (r->reg == R_SPEC_SRC)
		return nvpc_sim_src_imports(d, d->hw.spec_src) ||
		       nvpc_sim_src_imports(d, val);
	return false;
}

static void nvpc_sim_ref_scope(const struct nvpc_sim *sim,
			       const struct nvpc_sim_ref *r, bool write,
			       u32 val, unsigned int *first,
			       unsigned int *count)
{
	const struct nvpc_sim_dom *d;

	*first = 0;
	*count = 0;
	if (r->reg == R_ABSENT || r->reg == R_BOOT0 || r->reg == R_UNIT)
		return;
	if (r->dom < 0) {
		*count = sim->nr_dom;
		return;
	}
	d = &sim->dom[r->dom];
	if (r->reg == R_STATUS || r->reg == R_SRC_STATUS ||
	    (write && nvpc_sim_src_write_imports(sim, r, val))) {
		*first = d->set_first;
		*count = d->set_count;
		return;
	}
	*first = r->dom;
	*count = 1;
}

/**
 * nvpc_sim_access_scope() - the domains a register access catches up
 * @sim: the sim
 * @addr: BAR0 address
 * @write: a write (else a read)
 * @val: the value written (ignored for a read)
 * @first: out: flat index of the first domain
 * @count: out: number of domains (0: none)
 *
 * nvpc_sim_rd32() and nvpc_sim_wr32() bring these domains to the model
 * time before the access; nvpc_sim_advance_access() estimates that work.
 */
void nvpc_sim_access_scope(const struct nvpc_sim *sim, u32 addr, bool write,
			   u32 val, unsigned int *first, unsigned int *count)
{
	struct nvpc_sim_ref r;

	nvpc_sim_decode(sim, addr, &r);
	nvpc_sim_ref_scope(sim, &r, write, val, first, count);
}

static void nvpc_sim_ref_catch_up(struct nvpc_sim *sim,
				  const struct nvpc_sim_ref *r, bool write,
				  u32 val)
{
	unsigned int first, count;

	nvpc_sim_ref_scope(sim, r, write, val, &first, &count);
	nvpc_sim_catch_up_range(sim, first, count);
}

/**
 * nvpc_sim_rd32() - read a register
 * @sim: the sim
 * @addr: BAR0 address
 *
 * Return: the register value (see the DOC in sim_model.h for absent
 * addresses and faults).
 */
u32 nvpc_sim_rd32(struct nvpc_sim *sim, u32 addr)
{
	struct nvpc_sim_ref r;
	unsigned int i;
	u32 v;

	nvpc_sim_decode(sim, addr, &r);
	nvpc_sim_ref_catch_up(sim, &r, false, 0);
	if (sim->removed)
		v = NVPC_SIM_RD_REMOVED;
	else if (r.reg == R_ABSENT)
		v = NVPC_SIM_RD_ABSENT;
	else if (nvpc_sim_is_pcounter(&r) && !nvpc_sim_enabled(sim))
		v = NVPC_SIM_RD_DISABLED;
	else
		v = nvpc_sim_rd_ref(sim, &r);
	if (!sim->removed) {
		for (i = 0; i < sim->nr_stuck; i++)
			if (sim->stuck_addr[i] == addr)
				v = sim->stuck_val[i];
		if (sim->all_ones)
			v = 0xffffffff;
	}
	nvpc_sim_account(sim, addr, v, false, r.reg);
	return v;
}

/* ---- writes ---- */

static bool nvpc_sim_aborts(u8 reg, u32 arg)
{
	/* pcounter.rst "Single event mode": *_OP except PRE_OP, *_SRC, any
	 * CTR register, THRESHOLD and CTRL abort the counting process
	 */
	switch (reg) {
	case R_OP:
		return arg != NVPC_INPUT_PRE;
	case R_SRC:
	case R_SPEC_SRC:
	case R_CTR:
	case R_CTR_HI:
	case R_GF_LIVE:
	case R_GF_LIVE_HIGH:
	case R_THRESHOLD:
	case R_THRESHOLD_HI:
	case R_CTRL:
	case R_CTRL_SHARED:
		return true;
	default:
		return false;
	}
}

static void nvpc_sim_ack(struct nvpc_sim_hw *hw)
{
	/* "Quad event mode": VALID -> EMPTY, OVERFLOW -> VALID */
	if (hw->quad_state == NVPC_QUAD_OVERFLOW)
		hw->quad_state = NVPC_QUAD_VALID;
	else
		hw->quad_state = NVPC_QUAD_EMPTY;
}

static void nvpc_sim_wr_user(struct nvpc_sim *sim, struct nvpc_sim_hw *hw,
			     u32 val)
{
	/* "The USER signals" */
	if (!sim->facts->gf100_layout) {
		hw->user_value = FIELD_GET(NVPC_GT215_USER_VALUE, val);
		hw->user_pulse = FIELD_GET(NVPC_GT215_USER_PULSE, val);
	} else {
		hw->user_value = FIELD_GET(NVPC_GF100_USER_VALUE, val);
		hw->user_pulse = FIELD_GET(NVPC_GF100_USER_PULSE, val);
	}
	hw->pend_user_clear = 1;
	hw->swap_settled = 0;	/* a new trigger */
}

static void nvpc_sim_wr_gctrl(struct nvpc_sim *sim, u32 val, int set)
{
	unsigned int i;

	/* RECORD_RESET forces the record counters of all domains to 0 */
	for (i = 0; i < sim->nr_dom; i++) {
		struct nvpc_sim_dom *d = &sim->dom[i];

		if (set >= 0 && d->dset != (set == 0 ? NVPC_DSET_HUB :
					    set == 1 ? NVPC_DSET_GPC :
					    NVPC_DSET_PART))
			continue;
		if (val & NVPC_GCTRL_RECORD_RESET) {
			nvpc_sim_record_clear(&d->hw);
			d->hw.rec_bogus = 0;	/* "DOC: bogus record packet" */
		}
		if (val & NVPC_GCTRL_PERIODIC_RESET)
			d->hw.periodic_g = 0;
	}
}

static void nvpc_sim_wr_ref(struct nvpc_sim *sim, const struct nvpc_sim_ref *r,
			    u32 val)
{
	struct nvpc_sim_dom *d = r->dom >= 0 ? &sim->dom[r->dom] : NULL;
	struct nvpc_sim_hw *hw = d ? &d->hw : NULL;
	unsigned int i;
	u32 m;

	if (hw && nvpc_sim_aborts(r->reg, r->arg))
		hw->pend_abort = 1;
	switch (r->reg) {
	case R_PMC_ENABLE:
		if (sim->facts->gf100_layout &&
		    !(val & NVPC_PMC_ENABLE_PCOUNTER))
			nvpc_sim_hw_reset(sim);
		sim->pmc_enable = val;
		break;
	case R_PGRAPH_TRIGGER:
		if (val & NVPC_PGRAPH_PM_TRIGGER_PULSE)
			nvpc_sim_pm_trigger(sim);
		break;
	case R_SRC:
		hw->src[r->arg] = val;
		break;
	case R_OP:
		hw->op[r->arg] = val;
		if (r->arg == NVPC_INPUT_PRE) {
			/* starts single event mode [NV10:GF100]; swaps in
			 * quad event mode [G84:GF100]
			 */
			if (sim->facts->pre_op_start)
				hw->pend_start = 1;
			if (sim->facts->write_swap) {
				hw->pend_swap = 1;
				hw->swap_settled = 0;	/* a new trigger */
			}
		}
		break;
	case R_SPEC_SRC:
		hw->spec_src = val & (sim->facts->gf100_layout ?
				      NVPC_SPEC_SRC_SWAP :
				      NVPC_SPEC_SRC_SWAP | NVPC_SPEC_SRC_UNK8);
		break;
	case R_USER_TRIGGER:
		nvpc_sim_wr_user(sim, hw, val);
		break;
	case R_CTR:
		/* CTR_PRE/CTR_STOP set the initial values; others are RO */
		if (r->arg == NVPC_SIM_CTR_PRE)
			hw->pre_init = val;
		else if (r->arg == NVPC_SIM_CTR_STOP)
			hw->stop_init = val;
		break;
	case R_THRESHOLD:
		hw->threshold = (hw->threshold & ~0xffffffffULL) | val;
		break;
	case R_THRESHOLD_HI:
		hw->threshold = (u32)hw->threshold |
				(u64)(val & NVPC_NV10_HI_MASK) << 32;
		break;
	case R_CTRL_SHARED:
		sim->ctrl_shared = val & nvpc_sim_ctrl_shared_mask(sim);
		for (i = 0; i < sim->nr_dom; i++) {
			sim->dom[i].hw.pend_abort = 1;
			nvpc_sim_decode_ctrl(sim, &sim->dom[i]);
		}
		break;
	case R_CTRL:
		if (!sim->facts->gf100_layout) {
			if (val & NVPC_G84_CTRL_FAULT_CLEAR && sim->facts->record)
				hw->rbuf.fault = 0;	/* still wedged */
			m = NVPC_NV40_CTRL_QUAD_STATE | NVPC_G84_CTRL_FAULT_CLEAR |
			    NVPC_NV40_CTRL_SINGLE_STATE;
		} else {
			m = NVPC_GF100_CTRL_QUAD_STATE |
			    NVPC_GF100_CTRL_SINGLE_STATE;
		}
		hw->ctrl = val & ~m;
		nvpc_sim_decode_ctrl(sim, d);
		break;
	case R_QUAD_ACK:
		if (val & NVPC_QUAD_ACK)
			nvpc_sim_ack(hw);
		break;
	case R_QUAD_ACK_SHARED:
		for (i = 0; i < sim->nr_dom; i++)
			if (val & NVPC_NV30_QUAD_ACK_DOM(i))
				nvpc_sim_ack(&sim->dom[i].hw);
		break;
	case R_REC_ADDR_HIGH:
		hw->rbuf.addr_high = val & NVPC_RECORD_ADDRESS_HIGH_MASK;
		break;
	case R_REC_LIMIT:
		hw->rbuf.limit = val & NVPC_RECORD_ADDR_MASK;
		break;
	case R_REC_START:
		hw->rbuf.start = val & NVPC_RECORD_ADDR_MASK;
		hw->rbuf.pos = hw->rbuf.start;
		hw->rbuf.valid = 1;
		/* "DOC: bogus record packet" */
		hw->rec_bogus = hw->mode != NVPC_SIM_MODE_RECORD;
		if (hw->mode == NVPC_SIM_MODE_RECORD)
			nvpc_sim_record_clear(hw);
		break;
	case R_REC_CHAN:
	case R_REC_DMA:
		nvpc_sim_wr_record_bind(sim, r->reg == R_REC_CHAN, val);
		break;
	case R_GCTRL:
		sim->gctrl = val;
		nvpc_sim_wr_gctrl(sim, val, -1);
		break;
	case R_DSET_CTRL:
		sim->dset_ctrl[r->arg] = val;
		nvpc_sim_wr_gctrl(sim, val, r->arg);
		break;
	case R_GF_STORE:
		hw->gf_store[r->arg] = val;
		break;
	case R_GF_SINGLE_BEGIN:
		/* GF100+: PRE_OP no longer starts single event mode; the
		 * SINGLE_BEGIN register (envytools rnndb
		 * gf100_pcounter.xml) takes the role of "PRE_OP written this
		 * cycle" in pcounter.rst "Single event mode"
		 */
		hw->pend_start = 1;
		break;
	case R_GF_SINGLE_ABORT:
		/* and SINGLE_ABORT that of a config register write */
		hw->pend_abort = 1;
		break;
	case R_GF_MAIN:
		sim->gf_main[r->arg] = val;
		break;
	case R_GF_REC:
		nvpc_sim_wr_gf_rec(sim, r->arg, val);
		break;
	default:
		/* read-only registers */
		break;
	}
}

/*
 * Writes that leave how every domain counts as it was: a quad-mode ack, and
 * a SRC or OP write of the value it holds: among them the PRE_OP write
 * that swaps [G84:GF100] ("Quad event mode") and the OP the driver
 * rewrites with an input's new SRC, and a record LIMIT write (the drain's
 * steady state). A swap only moves the shadow counters,
 * and what such a write starts or aborts in single event mode is an
 * effect for the next cycle (pending), not a new program, so the fast
 * engine's steady state (&nvpc_sim_fa_plan.steady) and what it decoded
 * from the registers stay valid. Anything else counts as a change
 * (&nvpc_sim.cfg_gen).
 */
static bool nvpc_sim_keeps_counting(const struct nvpc_sim *sim,
				    const struct nvpc_sim_ref *r, u32 val)
{
	if (r->reg == R_QUAD_ACK || r->reg == R_QUAD_ACK_SHARED)
		return true;
	/* LIMIT decides where packets stop, not what they hold */
	if (r->reg == R_REC_LIMIT ||
	    (r->reg == R_GF_REC &&
	     r->arg == NVPC_GF100_MAIN_RECORD_LIMIT - NVPC_GF100_MAIN))
		return true;
	if (r->dom < 0)
		return false;
	if (r->reg == R_OP)
		return sim->dom[r->dom].hw.op[r->arg] == val;
	return r->reg == R_SRC && sim->dom[r->dom].hw.src[r->arg] == val;
}

/**
 * nvpc_sim_wr32() - write a register
 * @sim: the sim
 * @addr: BAR0 address
 * @val: the value
 */
void nvpc_sim_wr32(struct nvpc_sim *sim, u32 addr, u32 val)
{
	struct nvpc_sim_ref r;

	nvpc_sim_decode(sim, addr, &r);
	nvpc_sim_account(sim, addr, val, true, r.reg);
	if (sim->removed || r.reg == R_ABSENT)
		return;
	if (nvpc_sim_is_pcounter(&r) && !nvpc_sim_enabled(sim))
		return;
	nvpc_sim_ref_catch_up(sim, &r, true, val);
	if (!nvpc_sim_keeps_counting(sim, &r, val))
		sim->cfg_gen++;
	nvpc_sim_wr_ref(sim, &r, val);
}
