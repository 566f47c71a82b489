// SPDX-License-Identifier: GPL-2.0
/*
 * Generation ops for GF100+: hub, per-GPC and per-partition domain sets
 * with the per-domain register block of envytools' rnndb
 * (gf100_pcounter.xml). A domain swaps when its SWAP_SRC signal, pointed at
 * the domain's USER_0 trailer signal, is pulsed through USER_TRIGGER
 * (pcounter.rst, The USER signals).
 */

#include "gen.h"

/* each domain set's control: HUB, GPC and PART (nvpc_gen_clear_resets()) */
static void nvpc_gf100_init(struct nvpc_hw *hw)
{
	nvpc_gen_clear_resets(hw, NVPC_GF100_HUB_DSET_CTRL, "HUB_DSET CTRL");
	nvpc_gen_clear_resets(hw, NVPC_GF100_GPC_DSET_CTRL, "GPC_DSET CTRL");
	nvpc_gen_clear_resets(hw, NVPC_GF100_PART_DSET_CTRL, "PART_DSET CTRL");
}

static void nvpc_gf100_setup(struct nvpc_hw_domain *dom)
{
	switch (dom->dset) {
	case NVPC_DSET_ID_GPC:
		dom->base = NVPC_GF100_GPC_BASE(dom->unit, dom->index);
		break;
	case NVPC_DSET_ID_PART:
		dom->base = NVPC_GF100_PART_BASE(dom->unit, dom->index);
		break;
	default:
		dom->base = NVPC_GF100_HUB_BASE(dom->index);
		break;
	}
}

static void nvpc_gf100_start(struct nvpc_hw *hw, struct nvpc_hw_domain *dom)
{
	struct nvpc_device *ndev = hw->ndev;
	int user0 = nvpc_catalog_trailer_id(hw->chip, dom->desc,
					    NVPC_TRAILER_USER, 0);

	nvpc_wr32(ndev, dom->base + NVPC_GF100_FILTER, 0);
	nvpc_wr32(ndev, dom->base + NVPC_GF100_SWAP_SRC, user0 < 0 ? 0 : user0);
	/* bit 18 is undocumented; nouveau (nvkm/engine/pm/gf100.c) sets it */
	nvpc_wr32(ndev, dom->base + NVPC_GF100_CTRL,
		  FIELD_PREP(NVPC_GF100_CTRL_MODE, NVPC_GF100_CTRL_MODE_QUAD) |
		  FIELD_PREP(NVPC_GF100_CTRL_CTR_MODE, dom->ctr_mode) |
		  NVPC_GF100_CTRL_UNK18);
}

static void nvpc_gf100_stop(struct nvpc_hw *hw, struct nvpc_hw_domain *dom)
{
	nvpc_wr32(hw->ndev, dom->base + NVPC_GF100_CTRL,
		  FIELD_PREP(NVPC_GF100_CTRL_MODE, NVPC_GF100_CTRL_MODE_HALTED));
}

static void nvpc_gf100_program(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			       unsigned int slot)
{
	nvpc_wr32(hw->ndev, dom->base + NVPC_GF100_SRC(slot), dom->src[slot]);
	nvpc_wr32(hw->ndev, dom->base + NVPC_GF100_OP(slot), dom->op[slot]);
}

static void nvpc_gf100_swap(struct nvpc_hw *hw, struct nvpc_hw_domain *dom)
{
	/* USER_0 = 1 for one cycle (pulse mode) */
	nvpc_wr32(hw->ndev, dom->base + NVPC_GF100_USER_TRIGGER,
		  FIELD_PREP(NVPC_GF100_USER_VALUE, 1) |
		  FIELD_PREP(NVPC_GF100_USER_PULSE, 1));
}

static const u32 nvpc_gf100_ctr_reg[NVPC_NR_CTRS] = {
	[NVPC_SLOT_PRE] = NVPC_GF100_CTR_PRE,
	[NVPC_SLOT_START] = NVPC_GF100_CTR_START,
	[NVPC_SLOT_EVENT] = NVPC_GF100_CTR_EVENT,
	[NVPC_SLOT_STOP] = NVPC_GF100_CTR_STOP,
	[NVPC_CTR_CYCLES] = NVPC_GF100_CTR_CYCLES,
};

static u32 nvpc_gf100_read(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			   unsigned long used, u64 ctr[NVPC_NR_CTRS])
{
	u32 state = FIELD_GET(NVPC_GF100_CTRL_QUAD_STATE,
			      nvpc_rd32(hw->ndev, dom->base + NVPC_GF100_CTRL));

	/* the state first: see nvpc_gen_read_ctrs() */
	if (state != NVPC_QUAD_EMPTY)
		nvpc_gen_read_ctrs(hw, nvpc_gf100_ctr_reg, dom->base, used,
				   ctr);
	return state;
}

static void nvpc_gf100_ack(struct nvpc_hw *hw, struct nvpc_hw_domain *dom)
{
	nvpc_wr32(hw->ndev, dom->base + NVPC_GF100_QUAD_ACK_TRIGGER,
		  NVPC_QUAD_ACK);
}

static void nvpc_gf100_state(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			     struct nvpc_domain_state *st)
{
	u32 ctrl = nvpc_rd32(hw->ndev, dom->base + NVPC_GF100_CTRL);

	switch (FIELD_GET(NVPC_GF100_CTRL_MODE, ctrl)) {
	case NVPC_GF100_CTRL_MODE_HALTED:
		st->mode = NVPC_DOM_MODE_HALTED;
		break;
	case NVPC_GF100_CTRL_MODE_SINGLE:
		st->mode = NVPC_DOM_MODE_SINGLE;
		break;
	case NVPC_GF100_CTRL_MODE_QUAD:
		st->mode = NVPC_DOM_MODE_QUAD;
		break;
	default:
		st->mode = NVPC_DOM_MODE_RECORD;
		break;
	}
	st->ctr_mode = FIELD_GET(NVPC_GF100_CTRL_CTR_MODE, ctrl);
	st->single = FIELD_GET(NVPC_GF100_CTRL_SINGLE_STATE, ctrl);
	st->quad = FIELD_GET(NVPC_GF100_CTRL_QUAD_STATE, ctrl);
}

static u32 nvpc_gf100_status_reg(const struct nvpc_hw_domain *dom,
				 unsigned int j)
{
	return dom->base + NVPC_GF100_STATUS(j);
}

/* every domain's block of rnndb's per-domain map, up to FILTER */
static bool nvpc_gf100_dump_range(const struct nvpc_hw *hw, unsigned int n,
				  struct nvpc_reg_range *r)
{
	if (n >= hw->nr_domains)
		return false;
	r->start = hw->domains[n].base;
	r->end = r->start + NVPC_GF100_FILTER + 0x10;
	return true;
}

/*
 * Record mode on GF100+: one buffer in the MAIN block for every domain
 * (envytools' rnndb, gf100_pcounter.xml; pcounter.rst: "[XXX: figure out
 * record mode setup for NVC0]"). Assumed, as the sim's "GF100+ record
 * mode": START/LIMIT/ADDRESS_HIGH/POS behave as G84's RECORD_START/LIMIT/
 * ADDRESS_HIGH/STATUS, CTRL MODE 3 writes long packets and 5 short ones.
 * MAIN CHAN is written like RECORD_CHAN; how GF100 binds is not known.
 */
static void nvpc_gf100_record_bind(struct nvpc_hw *hw,
				   const struct nvpc_record_prog *p)
{
	nvpc_wr32(hw->ndev, NVPC_GF100_MAIN_RECORD_CHAN,
		  FIELD_PREP(NVPC_RECORD_CHAN_CHAN, p->chan) |
		  NVPC_RECORD_CHAN_VALID);
}

static void nvpc_gf100_record_setup(struct nvpc_hw *hw,
				    struct nvpc_hw_domain *dom,
				    const struct nvpc_record_prog *p)
{
	struct nvpc_device *ndev = hw->ndev;
	unsigned int s;

	nvpc_wr32(ndev, NVPC_GF100_MAIN_RECORD_ADDRESS_HIGH,
		  FIELD_PREP(NVPC_RECORD_ADDRESS_HIGH_MASK, p->addr_high));
	for (s = 0; s < NVPC_NR_SLOTS; s++)
		nvpc_wr32(ndev, dom->base + NVPC_GF100_SRC(s), p->src[s]);
	/* STOP never until START has reset the counters (gen_nv40.c) */
	nvpc_wr32(ndev, dom->base + NVPC_GF100_OP(NVPC_SLOT_STOP), 0);
	nvpc_wr32(ndev, NVPC_GF100_MAIN_RECORD_LIMIT, p->limit);
	nvpc_wr32(ndev, dom->base + NVPC_GF100_CTRL,
		  FIELD_PREP(NVPC_GF100_CTRL_MODE,
			     p->short_fmt ? NVPC_GF100_CTRL_MODE_RECORD_B :
					    NVPC_GF100_CTRL_MODE_RECORD_A) |
		  FIELD_PREP(NVPC_GF100_CTRL_PERIODIC_PERIOD, p->periodic));
	nvpc_wr32(ndev, NVPC_GF100_MAIN_RECORD_START, p->start);
	nvpc_wr32(ndev, dom->base + NVPC_GF100_OP(NVPC_SLOT_STOP), p->stop_op);
}

static void nvpc_gf100_record_restart(struct nvpc_hw *hw,
				      struct nvpc_hw_domain *dom,
				      const struct nvpc_record_prog *p)
{
	nvpc_wr32(hw->ndev, NVPC_GF100_MAIN_RECORD_LIMIT, p->limit);
	nvpc_wr32(hw->ndev, NVPC_GF100_MAIN_RECORD_START, p->start);
}

static void nvpc_gf100_record_limit(struct nvpc_hw *hw,
				    struct nvpc_hw_domain *dom, u32 limit)
{
	nvpc_wr32(hw->ndev, NVPC_GF100_MAIN_RECORD_LIMIT, limit);
}

static u32 nvpc_gf100_record_status(struct nvpc_hw *hw,
				    struct nvpc_hw_domain *dom)
{
	return nvpc_rd32(hw->ndev, NVPC_GF100_MAIN_RECORD_POS);
}

const struct nvpc_gen_ops nvpc_gen_gf100 = {
	.name = "gf100",
	.event_ctr_period = true,
	/* rnndb: CTR_MODE moved to bits 3-5, values assumed as on NV40 */
	.slots = GENMASK(NVPC_NR_SLOTS - 1, 0),
	.modes = GENMASK(NVPC_MODE_EXTRA_B6, 0),
	/* pcounter.rst leaves bits 16-20 on GF100 open; G92's are assumed */
	.opbits = { NVPC_OPBITS_G92_PS, NVPC_OPBITS_G92_PS,
		    NVPC_OPBITS_G92_ES, NVPC_OPBITS_G92_ES },
	.unit_sets = true,
	.pmc_enable = true,
	.windows = { { NVPC_GF100_MMIO_START, NVPC_GF100_MMIO_END, "PCOUNTER" } },
	.init = nvpc_gf100_init,
	.setup = nvpc_gf100_setup,
	.start = nvpc_gf100_start,
	.stop = nvpc_gf100_stop,
	.program = nvpc_gf100_program,
	.trigger_swap = nvpc_gf100_swap,
	.read = nvpc_gf100_read,
	.ack = nvpc_gf100_ack,
	.state = nvpc_gf100_state,
	.status_reg = nvpc_gf100_status_reg,
	.dump_range = nvpc_gf100_dump_range,
	.record = NVPC_REC_MAIN,
	.record_bind = nvpc_gf100_record_bind,
	.record_setup = nvpc_gf100_record_setup,
	.record_restart = nvpc_gf100_record_restart,
	.record_limit = nvpc_gf100_record_limit,
	.record_status = nvpc_gf100_record_status,
};
