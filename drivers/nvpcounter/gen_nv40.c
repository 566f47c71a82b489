// SPDX-License-Identifier: GPL-2.0
/*
 * Generation ops for the NV40:GF100 register layout (pcounter.rst, MMIO
 * registers / NV40): per-domain registers at 0x00a400 + i * 4.
 *
 * NV40:G84 swaps with PGRAPH PM_TRIGGER (one pulse swaps every domain);
 * G84:GF100 swap a single domain by writing its PRE_OP (pcounter.rst,
 * Quad event mode), and G92+ add the delayed-source replace bits.
 */

#include <nvpcounter/regs.h>

#include "core.h"

static void nvpc_nv40_start(struct nvpc_core *core, struct nvpc_domain *dom)
{
	nvpc_wr32(core->ndev, NVPC_NV40_CTRL(dom->index),
		  FIELD_PREP(NVPC_NV40_CTRL_MODE, NVPC_NV40_CTRL_MODE_QUAD) |
		  FIELD_PREP(NVPC_NV40_CTRL_CTR_MODE, dom->ctr_mode));
}

static void nvpc_nv40_stop(struct nvpc_core *core, struct nvpc_domain *dom)
{
	/* single-event mode without a PRE_OP write stays INACTIVE */
	nvpc_wr32(core->ndev, NVPC_NV40_CTRL(dom->index),
		  FIELD_PREP(NVPC_NV40_CTRL_MODE, NVPC_NV40_CTRL_MODE_SINGLE));
}

static void nvpc_nv40_program(struct nvpc_core *core, struct nvpc_domain *dom,
			      unsigned int slot)
{
	nvpc_wr32(core->ndev, NVPC_NV40_SRC(dom->index, slot), dom->src[slot]);
	nvpc_wr32(core->ndev, NVPC_NV40_OP(dom->index, slot), dom->op[slot]);
}

static const u32 nvpc_nv40_ctr_reg[NVPC_NR_CTRS] = {
	[NVPC_SLOT_PRE] = NVPC_NV40_CTR_PRE(0),
	[NVPC_SLOT_START] = NVPC_NV40_CTR_START(0),
	[NVPC_SLOT_EVENT] = NVPC_NV40_CTR_EVENT(0),
	[NVPC_SLOT_STOP] = NVPC_NV40_CTR_STOP(0),
	[NVPC_CTR_CYCLES] = NVPC_NV40_CTR_CYCLES(0),
};

static u32 nvpc_nv40_read(struct nvpc_core *core, struct nvpc_domain *dom,
			  unsigned long used, u64 ctr[NVPC_NR_CTRS])
{
	unsigned int i = dom->index;

	nvpc_gen_read_ctrs(core, nvpc_nv40_ctr_reg,
			   i * NVPC_NV40_DOMAIN_STRIDE, used, ctr);
	return FIELD_GET(NVPC_NV40_CTRL_QUAD_STATE,
			 nvpc_rd32(core->ndev, NVPC_NV40_CTRL(i)));
}

static void nvpc_nv40_ack(struct nvpc_core *core, struct nvpc_domain *dom)
{
	nvpc_wr32(core->ndev, NVPC_NV40_QUAD_ACK_TRIGGER(dom->index),
		  NVPC_QUAD_ACK);
}

static void nvpc_nv40_state(struct nvpc_core *core, struct nvpc_domain *dom,
			    struct nvpc_domain_state *st)
{
	u32 ctrl = nvpc_rd32(core->ndev, NVPC_NV40_CTRL(dom->index));

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

static u32 nvpc_nv40_status_reg(const struct nvpc_domain *dom, unsigned int j)
{
	return NVPC_NV40_STATUS(dom->index, j);
}

/* the whole NV40:GF100 window: every per-domain array, then STATUS */
static bool nvpc_nv40_dump_range(struct nvpc_core *core, unsigned int n,
				 struct nvpc_reg_range *r)
{
	r->start = NVPC_NV40_SRC(0, 0);
	r->end = NVPC_NV40_STATUS(NVPC_NV40_NR_DOMAINS, 0);
	return !n;
}

/*
 * G84:GF100: the SWAP input comes from SPEC_SRC; point it at the ZERO
 * trailer signal (pcounter-rev2.txt, Trailer signals) so that only PRE_OP
 * writes swap.
 */
static void nvpc_g84_start(struct nvpc_core *core, struct nvpc_domain *dom)
{
	int zero = nvpc_catalog_trailer_id(core->chip, dom->desc,
					   NVPC_TRAILER_ZERO, 0);

	nvpc_wr32(core->ndev, NVPC_G84_SPEC_SRC(dom->index),
		  FIELD_PREP(NVPC_SPEC_SRC_SWAP, zero < 0 ? 0 : zero));
	nvpc_nv40_start(core, dom);
}

/* PRE_OP is written by the swap itself: a write of it swaps on G84+ */
static void nvpc_g84_program(struct nvpc_core *core, struct nvpc_domain *dom,
			     unsigned int slot)
{
	nvpc_wr32(core->ndev, NVPC_NV40_SRC(dom->index, slot), dom->src[slot]);
	if (slot != NVPC_SLOT_PRE)
		nvpc_wr32(core->ndev, NVPC_NV40_OP(dom->index, slot),
			  dom->op[slot]);
}

static void nvpc_g84_swap(struct nvpc_core *core, struct nvpc_domain *dom)
{
	nvpc_wr32(core->ndev, NVPC_NV40_PRE_OP(dom->index),
		  dom->op[NVPC_SLOT_PRE]);
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
	.dump_range = nvpc_nv40_dump_range

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
	.windows = { NVPC_NV10_WINDOW }

const struct nvpc_gen_ops nvpc_gen_g84 = {
	.name = "g84",
	NVPC_G84_COMMON_OPS,
	.opbits = { NVPC_OPBITS_NV10, NVPC_OPBITS_NV10,
		    NVPC_OPBITS_NV30_ES, NVPC_OPBITS_NV30_ES },
};

/* G92 adds the delayed-source replace bits */
const struct nvpc_gen_ops nvpc_gen_g92 = {
	.name = "g92",
	NVPC_G84_COMMON_OPS,
	.opbits = { NVPC_OPBITS_G92_PS, NVPC_OPBITS_G92_PS,
		    NVPC_OPBITS_G92_ES, NVPC_OPBITS_G92_ES },
};
