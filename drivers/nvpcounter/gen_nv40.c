// SPDX-License-Identifier: GPL-2.0
/*
 * Generation ops for the NV40:GF100 register layout (pcounter.rst, MMIO
 * registers / NV40): per-domain registers at 0x00a400 + i * 4.
 *
 * NV40:G84 swaps with PGRAPH PM_TRIGGER (one pulse swaps every domain);
 * G84:GF100 swap a single domain by writing its PRE_OP (pcounter.rst,
 * Quad event mode), and G92+ add the delayed-source replace bits.
 */

#include "gen.h"

static void nvpc_nv40_start(struct nvpc_hw *hw, struct nvpc_hw_domain *dom)
{
	nvpc_wr32(hw->ndev, NVPC_NV40_CTRL(dom->index),
		  FIELD_PREP(NVPC_NV40_CTRL_MODE, NVPC_NV40_CTRL_MODE_QUAD) |
		  FIELD_PREP(NVPC_NV40_CTRL_CTR_MODE, dom->ctr_mode));
}

static void nvpc_nv40_stop(struct nvpc_hw *hw, struct nvpc_hw_domain *dom)
{
	/* single-event mode without a PRE_OP write stays INACTIVE */
	nvpc_wr32(hw->ndev, NVPC_NV40_CTRL(dom->index),
		  FIELD_PREP(NVPC_NV40_CTRL_MODE, NVPC_NV40_CTRL_MODE_SINGLE));
}

static void nvpc_nv40_program(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			      unsigned int slot)
{
	nvpc_wr32(hw->ndev, NVPC_NV40_SRC(dom->index, slot), dom->src[slot]);
	nvpc_wr32(hw->ndev, NVPC_NV40_OP(dom->index, slot), dom->op[slot]);
}

static const u32 nvpc_nv40_ctr_reg[NVPC_NR_CTRS] = {
	[NVPC_SLOT_PRE] = NVPC_NV40_CTR_PRE(0),
	[NVPC_SLOT_START] = NVPC_NV40_CTR_START(0),
	[NVPC_SLOT_EVENT] = NVPC_NV40_CTR_EVENT(0),
	[NVPC_SLOT_STOP] = NVPC_NV40_CTR_STOP(0),
	[NVPC_CTR_CYCLES] = NVPC_NV40_CTR_CYCLES(0),
};

static u32 nvpc_nv40_read(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			  unsigned long used, u64 ctr[NVPC_NR_CTRS])
{
	unsigned int i = dom->index;
	u32 state = FIELD_GET(NVPC_NV40_CTRL_QUAD_STATE,
			      nvpc_rd32(hw->ndev, NVPC_NV40_CTRL(i)));

	/* the state first: see nvpc_gen_read_ctrs() */
	if (state != NVPC_QUAD_EMPTY)
		nvpc_gen_read_ctrs(hw, nvpc_nv40_ctr_reg,
				   i * NVPC_NV40_DOMAIN_STRIDE, used, ctr);
	return state;
}

static void nvpc_nv40_ack(struct nvpc_hw *hw, struct nvpc_hw_domain *dom)
{
	nvpc_wr32(hw->ndev, NVPC_NV40_QUAD_ACK_TRIGGER(dom->index),
		  NVPC_QUAD_ACK);
}

static void nvpc_nv40_state(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			    struct nvpc_domain_state *st)
{
	u32 ctrl = nvpc_rd32(hw->ndev, NVPC_NV40_CTRL(dom->index));

	switch (FIELD_GET(NVPC_NV40_CTRL_MODE, ctrl)) {
	case NVPC_NV40_CTRL_MODE_SINGLE:
		st->mode = NVPC_DOM_MODE_SINGLE;
		break;
	case NVPC_NV40_CTRL_MODE_QUAD:
		st->mode = NVPC_DOM_MODE_QUAD;
		break;
	default:
		st->mode = NVPC_DOM_MODE_RECORD;
		break;
	}
	st->ctr_mode = FIELD_GET(NVPC_NV40_CTRL_CTR_MODE, ctrl);
	st->single = FIELD_GET(NVPC_NV40_CTRL_SINGLE_STATE, ctrl);
	st->quad = FIELD_GET(NVPC_NV40_CTRL_QUAD_STATE, ctrl);
}

static u32 nvpc_nv40_status_reg(const struct nvpc_hw_domain *dom,
				unsigned int j)
{
	return NVPC_NV40_STATUS(dom->index, j);
}

/* the whole NV40:GF100 window: every per-domain array, then STATUS */
static bool nvpc_nv40_dump_range(const struct nvpc_hw *hw, unsigned int n,
				 struct nvpc_reg_range *r)
{
	r->start = NVPC_NV40_SRC(0, 0);
	r->end = NVPC_NV40_STATUS(NVPC_NV40_NR_DOMAINS, 0);
	return !n;
}

/*
 * G84:GF100: the SWAP input comes from SPEC_SRC; point it at the ZERO
 * trailer signal (envytools' pcounter/intro.rst, Trailer signals) so that
 * only PRE_OP writes swap.
 */
static void nvpc_g84_start(struct nvpc_hw *hw, struct nvpc_hw_domain *dom)
{
	int zero = nvpc_catalog_trailer_id(hw->chip, dom->desc,
					   NVPC_TRAILER_ZERO, 0);

	nvpc_wr32(hw->ndev, NVPC_G84_SPEC_SRC(dom->index),
		  FIELD_PREP(NVPC_SPEC_SRC_SWAP, zero < 0 ? 0 : zero));
	nvpc_nv40_start(hw, dom);
}

/* PRE_OP is written by the swap itself: a write of it swaps on G84+ */
static void nvpc_g84_program(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			     unsigned int slot)
{
	nvpc_wr32(hw->ndev, NVPC_NV40_SRC(dom->index, slot), dom->src[slot]);
	if (slot != NVPC_SLOT_PRE)
		nvpc_wr32(hw->ndev, NVPC_NV40_OP(dom->index, slot),
			  dom->op[slot]);
}

static void nvpc_g84_swap(struct nvpc_hw *hw, struct nvpc_hw_domain *dom)
{
	nvpc_wr32(hw->ndev, NVPC_NV40_PRE_OP(dom->index),
		  dom->op[NVPC_SLOT_PRE]);
}

/*
 * Record mode, G84:GF100 ("Record mode setup"): the DMA object, then the
 * channel write that binds both, global for all domains.
 */
static void nvpc_g84_record_bind(struct nvpc_hw *hw,
				 const struct nvpc_record_prog *p)
{
	nvpc_wr32(hw->ndev, NVPC_G84_RECORD_DMA,
		  FIELD_PREP(NVPC_RECORD_DMA_OBJ, p->dma));
	nvpc_wr32(hw->ndev, NVPC_G84_RECORD_CHAN,
		  FIELD_PREP(NVPC_RECORD_CHAN_CHAN, p->chan) |
		  NVPC_RECORD_CHAN_VALID);
}

/*
 * Then per domain: the buffer's registers; the sources; LIMIT; record
 * mode; and START, in record mode, so that it resets the record counters
 * (START written in another mode leaves them, and a bogus packet follows
 * the switch to record mode). Between the mode switch and START the
 * domain records with the counters and the "buffer valid" flag of its
 * last session ("make sure the buffer valid flag is not set"): a STOP
 * pulse there would send a packet of stale counts that lands after
 * START. So STOP_OP is 0 (never) until START has reset the counters,
 * and the session's STOP function is written last.
 */
static void nvpc_g84_record_setup(struct nvpc_hw *hw,
				  struct nvpc_hw_domain *dom,
				  const struct nvpc_record_prog *p)
{
	struct nvpc_device *ndev = hw->ndev;
	unsigned int i = dom->index, s;

	/* G84:G92 force the high 8 bits to 0 and have no such register */
	if (hw->gen->record == NVPC_REC_DOMAIN)
		nvpc_wr32(ndev, NVPC_G92_RECORD_ADDRESS_HIGH(i),
			  FIELD_PREP(NVPC_RECORD_ADDRESS_HIGH_MASK,
				     p->addr_high));
	for (s = 0; s < NVPC_NR_SLOTS; s++)
		nvpc_wr32(ndev, NVPC_NV40_SRC(i, s), p->src[s]);
	nvpc_wr32(ndev, NVPC_NV40_OP(i, NVPC_SLOT_STOP), 0);
	nvpc_wr32(ndev, NVPC_G84_RECORD_LIMIT(i), p->limit);
	nvpc_wr32(ndev, NVPC_NV40_CTRL(i),
		  FIELD_PREP(NVPC_NV40_CTRL_MODE, NVPC_NV40_CTRL_MODE_RECORD) |
		  (p->short_fmt ? NVPC_G84_CTRL_RECORD_SHORT : 0) |
		  FIELD_PREP(NVPC_G84_CTRL_PERIODIC_PERIOD, p->periodic));
	nvpc_wr32(ndev, NVPC_G84_RECORD_START(i), p->start);
	nvpc_wr32(ndev, NVPC_NV40_OP(i, NVPC_SLOT_STOP), p->stop_op);
}

static void nvpc_g84_record_restart(struct nvpc_hw *hw,
				    struct nvpc_hw_domain *dom,
				    const struct nvpc_record_prog *p)
{
	nvpc_wr32(hw->ndev, NVPC_G84_RECORD_LIMIT(dom->index), p->limit);
	nvpc_wr32(hw->ndev, NVPC_G84_RECORD_START(dom->index), p->start);
}

static void nvpc_g84_record_limit(struct nvpc_hw *hw,
				  struct nvpc_hw_domain *dom, u32 limit)
{
	nvpc_wr32(hw->ndev, NVPC_G84_RECORD_LIMIT(dom->index), limit);
}

static u32 nvpc_g84_record_status(struct nvpc_hw *hw,
				  struct nvpc_hw_domain *dom)
{
	return nvpc_rd32(hw->ndev, NVPC_G84_RECORD_STATUS(dom->index));
}

/* GCTRL, one register for every domain (nvpc_gen_clear_resets()) */
static void nvpc_g84_init(struct nvpc_hw *hw)
{
	nvpc_gen_clear_resets(hw, NVPC_G84_GCTRL, "GCTRL");
}

#define NVPC_G84_RECORD_OPS						\
	.record_bind = nvpc_g84_record_bind,				\
	.record_setup = nvpc_g84_record_setup,				\
	.record_restart = nvpc_g84_record_restart,			\
	.record_limit = nvpc_g84_record_limit,				\
	.record_status = nvpc_g84_record_status

/*
 * Single event mode (pcounter.rst "Single event mode"): CTRL, the inputs,
 * THRESHOLD and the CTR_PRE/CTR_STOP initial values abort any process;
 * the PRE_OP write, last, starts the new one (on G84+ it would also swap,
 * but only in quad mode). SETFLAG and CLRFLAG keep their truth tables.
 */
static void nvpc_nv40_single_start(struct nvpc_hw *hw,
				   struct nvpc_hw_domain *dom,
				   const struct nvpc_single_prog *p)
{
	struct nvpc_device *ndev = hw->ndev;
	unsigned int i = dom->index, s;

	nvpc_wr32(ndev, NVPC_NV40_CTRL(i),
		  FIELD_PREP(NVPC_NV40_CTRL_MODE, NVPC_NV40_CTRL_MODE_SINGLE) |
		  (p->event_all ? NVPC_NV40_CTRL_EVENT_CTR_PERIOD : 0));
	for (s = NVPC_SLOT_START; s <= NVPC_SLOT_STOP; s++) {
		nvpc_wr32(ndev, NVPC_NV40_SRC(i, s), p->src[s]);
		nvpc_wr32(ndev, NVPC_NV40_OP(i, s), p->op[s]);
	}
	nvpc_wr32(ndev, NVPC_NV40_THRESHOLD(i), p->threshold);
	nvpc_wr32(ndev, NVPC_NV40_CTR_PRE(i), p->pre);
	nvpc_wr32(ndev, NVPC_NV40_CTR_STOP(i), p->stop);
	nvpc_wr32(ndev, NVPC_NV40_PRE_SRC(i), p->src[NVPC_SLOT_PRE]);
	nvpc_wr32(ndev, NVPC_NV40_PRE_OP(i), p->op[NVPC_SLOT_PRE]);
}

/* the counters first, SINGLE_STATE last (window.c relies on the order) */
static void nvpc_nv40_single_read(struct nvpc_hw *hw,
				  struct nvpc_hw_domain *dom,
				  struct nvpc_single_ctrs *c)
{
	struct nvpc_device *ndev = hw->ndev;
	unsigned int i = dom->index;

	c->event = nvpc_rd32(ndev, NVPC_NV40_CTR_EVENT(i));
	c->start = nvpc_rd32(ndev, NVPC_NV40_CTR_START(i));
	c->pre = nvpc_rd32(ndev, NVPC_NV40_CTR_PRE(i));
	c->stop = nvpc_rd32(ndev, NVPC_NV40_CTR_STOP(i));
	c->state = FIELD_GET(NVPC_NV40_CTRL_SINGLE_STATE,
			     nvpc_rd32(ndev, NVPC_NV40_CTRL(i)));
}

/* every slot; NV40+ have all counter modes (Special counter modes) */
#define NVPC_NV40_SLOTS		GENMASK(NVPC_NR_SLOTS - 1, 0)
#define NVPC_NV40_MODES		GENMASK(NVPC_MODE_EXTRA_B6, 0)

/* the members NV40 and the G84:GF100 generations share */
#define NVPC_NV40_COMMON_OPS						\
	.slots = NVPC_NV40_SLOTS,					\
	.modes = NVPC_NV40_MODES,					\
	.stop = nvpc_nv40_stop,						\
	.read = nvpc_nv40_read,						\
	.ack = nvpc_nv40_ack,						\
	.state = nvpc_nv40_state,					\
	.status_reg = nvpc_nv40_status_reg,					\
	.dump_range = nvpc_nv40_dump_range,				\
	.single_start = nvpc_nv40_single_start,				\
	.single_read = nvpc_nv40_single_read,				\
	.event_ctr_period = true

const struct nvpc_gen_ops nvpc_gen_nv40 = {
	.name = "nv40",
	NVPC_NV40_COMMON_OPS,
	.opbits = { NVPC_OPBITS_NV10, NVPC_OPBITS_NV10,
		    NVPC_OPBITS_NV30_ES, NVPC_OPBITS_NV30_ES },
	.start = nvpc_nv40_start,
	.program = nvpc_nv40_program,
	.trigger_swap = nvpc_nv30_trigger_swap,
	.global_swap = true,
	.windows = { NVPC_NV10_WINDOW, NVPC_PM_TRIGGER_WINDOW },
};

/* G84 and G92:GF100: a domain swaps on its own PRE_OP write */
#define NVPC_G84_COMMON_OPS						\
	NVPC_NV40_COMMON_OPS,						\
	.start = nvpc_g84_start,					\
	.program = nvpc_g84_program,					\
	.trigger_swap = nvpc_g84_swap,					\
	.windows = { NVPC_NV10_WINDOW },				\
	.init = nvpc_g84_init,						\
	NVPC_G84_RECORD_OPS

const struct nvpc_gen_ops nvpc_gen_g84 = {
	.name = "g84",
	NVPC_G84_COMMON_OPS,
	.opbits = { NVPC_OPBITS_NV10, NVPC_OPBITS_NV10,
		    NVPC_OPBITS_NV30_ES, NVPC_OPBITS_NV30_ES },
	.record = NVPC_REC_LOW4G,
};

/* G92 adds the delayed-source replace bits */
const struct nvpc_gen_ops nvpc_gen_g92 = {
	.name = "g92",
	NVPC_G84_COMMON_OPS,
	.opbits = { NVPC_OPBITS_G92_PS, NVPC_OPBITS_G92_PS,
		    NVPC_OPBITS_G92_ES, NVPC_OPBITS_G92_ES },
	.record = NVPC_REC_DOMAIN,
};
