// SPDX-License-Identifier: GPL-2.0
/*
 * Generation ops for the NV10:NV40 register layout (pcounter.rst, MMIO
 * registers / NV10): per-domain registers at 0x00a400 + i * 0x100 and one
 * CTRL register shared by both domains.
 *
 * NV10:NV30 count in single-event mode only. The engine keeps one endless
 * counting period running per domain: PRE and START always true, STOP
 * never true (pcounter.rst, Single event mode), so that the live CTR_EVENT
 * and CTR_CYCLES grow for as long as the domain counts. Writing an input
 * register aborts the process and the PRE_OP write restarts it; the
 * restart is numbered in the CTR_STOP initial value, which stays the
 * current CTR_STOP value while STOP never fires, so that a read tells
 * whether the restart has landed yet.
 *
 * NV30:NV40 have quad mode, swapped by PGRAPH PM_TRIGGER like NV40, with
 * the mode, QUAD_STATE and counter mode in the shared CTRL and one shared
 * QUAD_ACK_TRIGGER (pcounter.rst, Control registers, Quad event mode).
 *
 * Both run single event mode programs for window.c (NVPC_MODE_SINGLE
 * events) on the same registers; a CTRL write aborts the single event
 * process of both domains (Single event mode): every CTRL write goes
 * through nvpc_nv10_ctrl_write(), which counts it, and the engine
 * restarts the other domain's process after an op that wrote it.
 */

#include "gen.h"

/* CTRL bits the driver may write (the state fields are read-only) */
#define NVPC_NV10_CTRL_RW	(NVPC_NV10_CTRL_TVOUT_DEBUG_SEL | \
				 NVPC_NV10_CTRL_TVOUT_DEBUG_EN | \
				 NVPC_NV10_CTRL_CTR_MODE | \
				 NVPC_NV10_CTRL_EVENT_CTR_PERIOD(0) | \
				 NVPC_NV10_CTRL_EVENT_CTR_PERIOD(1) | \
				 NVPC_NV10_CTRL_MODE_QUAD(0) | \
				 NVPC_NV10_CTRL_MODE_QUAD(1))

/* A field of the shared CTRL, by its mask (regs.h): the shift is the mask's */
static u8 nvpc_nv10_ctrl_field(u32 ctrl, u32 mask)
{
	return (ctrl & mask) >> __ffs(mask);
}

/*
 * The shared CTRL as the driver wants it: NV10:NV30 take the hardware's
 * (the TV-out bits are not ours), NV30:NV40 the driver's own copy.
 */
static u32 nvpc_nv10_ctrl_now(struct nvpc_hw *hw)
{
	if (hw->gen->single)
		return nvpc_rd32(hw->ndev, NVPC_NV10_CTRL) & NVPC_NV10_CTRL_RW;
	return hw->ctrl;
}

/*
 * Write the shared CTRL for @self, if it changes. A CTRL write aborts the
 * single event process of every domain (pcounter.rst "Single event
 * mode"): the engine, which brackets this op (nvpc_shared_ctrl_begin()),
 * folds the other domains' processes before it and starts them again
 * after it (the restart's three cycles of NV10:NV30's counting program
 * are not counted). Quad mode counting goes on.
 */
static void nvpc_nv10_ctrl_write(struct nvpc_hw *hw,
				 struct nvpc_hw_domain *self, u32 ctrl)
{
	hw->ctrl = ctrl;
	if ((nvpc_rd32(hw->ndev, NVPC_NV10_CTRL) & NVPC_NV10_CTRL_RW) ==
	    ctrl)
		return;
	nvpc_wr32(hw->ndev, NVPC_NV10_CTRL, ctrl);
	hw->ctrl_writes++;
}

/*
 * (Re)start a domain's counting process: the restart is numbered in
 * CTR_STOP (a CTR write, which aborts the process), and a PRE_OP write in
 * INACTIVE starts it again. Its live counters start over from 0.
 */
static void nvpc_nv10_restart(struct nvpc_hw *hw, struct nvpc_hw_domain *dom)
{
	struct nvpc_device *ndev = hw->ndev;
	unsigned int i = dom->index;

	dom->restarts++;
	nvpc_wr32(ndev, NVPC_NV10_CTR_STOP(i), dom->restarts);
	nvpc_wr32(ndev, NVPC_NV10_OP(i, NVPC_INPUT_PRE), NVPC_OP_ALWAYS);
}

/*
 * The endless single-event program around the EVENT input. SETFLAG and
 * CLRFLAG never fire; CTR_PRE starts at 0 so one PRE ends WAIT_FOR_PRE.
 */
static void nvpc_nv10_start(struct nvpc_hw *hw, struct nvpc_hw_domain *dom)
{
	struct nvpc_device *ndev = hw->ndev;
	unsigned int i = dom->index;

	/* the engine counts 1 per cycle; nothing else may set EVENT_B4 */
	nvpc_nv10_ctrl_write(hw, dom, nvpc_nv10_ctrl_now(hw) &
			     ~NVPC_NV10_CTRL_CTR_MODE);
	nvpc_wr32(ndev, NVPC_NV10_SRC(i, NVPC_INPUT_PRE), 0);
	nvpc_wr32(ndev, NVPC_NV10_SRC(i, NVPC_INPUT_START), 0);
	nvpc_wr32(ndev, NVPC_NV10_OP(i, NVPC_INPUT_START), NVPC_OP_ALWAYS);
	nvpc_wr32(ndev, NVPC_NV10_SRC(i, NVPC_INPUT_STOP), 0);
	nvpc_wr32(ndev, NVPC_NV10_OP(i, NVPC_INPUT_STOP), NVPC_OP_NEVER);
	nvpc_wr32(ndev, NVPC_NV10_SETFLAG_SRC(i), 0);
	nvpc_wr32(ndev, NVPC_NV10_SETFLAG_OP(i), NVPC_OP_NEVER);
	nvpc_wr32(ndev, NVPC_NV10_CLRFLAG_SRC(i), 0);
	nvpc_wr32(ndev, NVPC_NV10_CLRFLAG_OP(i), NVPC_OP_NEVER);
	nvpc_wr32(ndev, NVPC_NV10_CTR_PRE(i), 0);
}

/* EVENT is the only input the program counts; its write restarts it */
static void nvpc_nv10_program(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			      unsigned int slot)
{
	struct nvpc_device *ndev = hw->ndev;
	unsigned int i = dom->index;

	nvpc_wr32(ndev, NVPC_NV10_SRC(i, NVPC_INPUT_EVENT),
		  dom->src[NVPC_SLOT_EVENT]);
	nvpc_wr32(ndev, NVPC_NV10_OP(i, NVPC_INPUT_EVENT),
		  dom->op[NVPC_SLOT_EVENT]);
	nvpc_nv10_restart(hw, dom);
}

static void nvpc_nv10_stop(struct nvpc_hw *hw, struct nvpc_hw_domain *dom)
{
	/* any input register write aborts; START never true keeps it off */
	nvpc_wr32(hw->ndev, NVPC_NV10_OP(dom->index, NVPC_INPUT_START),
		  NVPC_OP_NEVER);
}

/* a 40-bit counter: low 32 bits, then bits 32-39 (pcounter.rst, Counters) */
static u64 nvpc_nv10_read40(struct nvpc_device *ndev, u32 lo_reg, u32 hi_reg)
{
	u32 hi, lo, hi2;

	hi = nvpc_rd32(ndev, hi_reg);
	lo = nvpc_rd32(ndev, lo_reg);
	hi2 = nvpc_rd32(ndev, hi_reg);
	/* a carry into the high bits between the reads: read low again */
	if (hi2 != hi)
		lo = nvpc_rd32(ndev, lo_reg);
	return (u64)(hi2 & NVPC_NV10_HI_MASK) << 32 | lo;
}

static u32 nvpc_nv10_read(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			  unsigned long used, u64 ctr[NVPC_NR_CTRS])
{
	struct nvpc_device *ndev = hw->ndev;
	unsigned int i = dom->index;

	/* before the restart lands the counters are the old program's */
	if (nvpc_rd32(ndev, NVPC_NV10_CTR_STOP(i)) != dom->restarts)
		return NVPC_QUAD_EMPTY;
	if (used & BIT(NVPC_SLOT_EVENT))
		ctr[NVPC_SLOT_EVENT] =
			nvpc_nv10_read40(ndev, NVPC_NV10_CTR_EVENT(i),
					 NVPC_NV10_CTR_EVENT_HI(i));
	if (used & BIT(NVPC_CTR_CYCLES))
		ctr[NVPC_CTR_CYCLES] =
			nvpc_nv10_read40(ndev, NVPC_NV10_CTR_CYCLES(i),
					 NVPC_NV10_CTR_CYCLES_HI(i));
	return NVPC_QUAD_VALID;
}

/* NV30: quad mode bits of both domains and the counter mode share CTRL */
static void nvpc_nv30_start(struct nvpc_hw *hw, struct nvpc_hw_domain *dom)
{
	u32 ctrl = hw->ctrl | NVPC_NV10_CTRL_MODE_QUAD(dom->index);

	if (dom->ctr_mode == NVPC_MODE_EVENT_B4)
		ctrl |= NVPC_NV10_CTRL_CTR_MODE;
	else
		ctrl &= ~NVPC_NV10_CTRL_CTR_MODE;
	nvpc_nv10_ctrl_write(hw, dom, ctrl);
}

static void nvpc_nv30_stop(struct nvpc_hw *hw, struct nvpc_hw_domain *dom)
{
	nvpc_nv10_ctrl_write(hw, dom, hw->ctrl &
			     ~NVPC_NV10_CTRL_MODE_QUAD(dom->index));
}

/*
 * Single event mode programs for window.c (pcounter.rst, Single event
 * mode): the domain's CTRL fields (single event mode, EVENT_CTR_PERIOD on
 * NV15+; NV10 has none and window.c asks it for ONE only), then as on
 * NV40 the inputs, THRESHOLD (its high bits 0 on NV10:NV30) and the
 * CTR_PRE/CTR_STOP initial values, PRE_OP last: it starts the process.
 */
static void nvpc_nv10_single_start(struct nvpc_hw *hw,
				   struct nvpc_hw_domain *dom,
				   const struct nvpc_single_prog *p)
{
	struct nvpc_device *ndev = hw->ndev;
	unsigned int i = dom->index, s;
	/* a window counts SIMPLE (the allocator keeps the other domain so) */
	u32 ctrl = nvpc_nv10_ctrl_now(hw) & ~NVPC_NV10_CTRL_MODE_QUAD(i) &
		   ~NVPC_NV10_CTRL_CTR_MODE;

	if (hw->gen->event_ctr_period) {
		ctrl &= ~NVPC_NV10_CTRL_EVENT_CTR_PERIOD(i);
		if (p->event_all)
			ctrl |= NVPC_NV10_CTRL_EVENT_CTR_PERIOD(i);
	}
	nvpc_nv10_ctrl_write(hw, dom, ctrl);
	for (s = NVPC_SLOT_START; s <= NVPC_SLOT_STOP; s++) {
		nvpc_wr32(ndev, NVPC_NV10_SRC(i, s), p->src[s]);
		nvpc_wr32(ndev, NVPC_NV10_OP(i, s), p->op[s]);
	}
	nvpc_wr32(ndev, NVPC_NV10_THRESHOLD(i), p->threshold);
	if (hw->gen->single)
		nvpc_wr32(ndev, NVPC_NV10_THRESHOLD_HI(i), 0);
	nvpc_wr32(ndev, NVPC_NV10_CTR_PRE(i), p->pre);
	nvpc_wr32(ndev, NVPC_NV10_CTR_STOP(i), p->stop);
	nvpc_wr32(ndev, NVPC_NV10_SRC(i, NVPC_SLOT_PRE),
		  p->src[NVPC_SLOT_PRE]);
	nvpc_wr32(ndev, NVPC_NV10_OP(i, NVPC_SLOT_PRE), p->op[NVPC_SLOT_PRE]);
}

/*
 * The counters first, SINGLE_STATE last (window.c relies on the order);
 * CTR_EVENT and CTR_START are 40-bit on NV10:NV30 (Counters).
 */
static void nvpc_nv10_single_read(struct nvpc_hw *hw,
				  struct nvpc_hw_domain *dom,
				  struct nvpc_single_ctrs *c)
{
	struct nvpc_device *ndev = hw->ndev;
	unsigned int i = dom->index;

	if (hw->gen->single) {
		c->event = nvpc_nv10_read40(ndev, NVPC_NV10_CTR_EVENT(i),
					    NVPC_NV10_CTR_EVENT_HI(i));
		c->start = nvpc_nv10_read40(ndev, NVPC_NV10_CTR_START(i),
					    NVPC_NV10_CTR_START_HI(i));
	} else {
		c->event = nvpc_rd32(ndev, NVPC_NV10_CTR_EVENT(i));
		c->start = nvpc_rd32(ndev, NVPC_NV10_CTR_START(i));
	}
	c->pre = nvpc_rd32(ndev, NVPC_NV10_CTR_PRE(i));
	c->stop = nvpc_rd32(ndev, NVPC_NV10_CTR_STOP(i));
	c->state = nvpc_nv10_ctrl_field(nvpc_rd32(ndev, NVPC_NV10_CTRL),
					NVPC_NV10_CTRL_SINGLE_STATE(i));
}

static void nvpc_nv30_program(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			      unsigned int slot)
{
	nvpc_wr32(hw->ndev, NVPC_NV10_SRC(dom->index, slot), dom->src[slot]);
	nvpc_wr32(hw->ndev, NVPC_NV10_OP(dom->index, slot), dom->op[slot]);
}

static const u32 nvpc_nv30_ctr_reg[NVPC_NR_CTRS] = {
	[NVPC_SLOT_PRE] = NVPC_NV10_CTR_PRE(0),
	[NVPC_SLOT_START] = NVPC_NV10_CTR_START(0),
	[NVPC_SLOT_EVENT] = NVPC_NV10_CTR_EVENT(0),
	[NVPC_SLOT_STOP] = NVPC_NV10_CTR_STOP(0),
	[NVPC_CTR_CYCLES] = NVPC_NV10_CTR_CYCLES(0),
};

static u32 nvpc_nv30_read(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			  unsigned long used, u64 ctr[NVPC_NR_CTRS])
{
	unsigned int i = dom->index;
	u32 state = nvpc_nv10_ctrl_field(nvpc_rd32(hw->ndev, NVPC_NV10_CTRL),
					 NVPC_NV10_CTRL_QUAD_STATE(i));

	/* the state first: see nvpc_gen_read_ctrs() */
	if (state != NVPC_QUAD_EMPTY)
		nvpc_gen_read_ctrs(hw, nvpc_nv30_ctr_reg,
				   i * NVPC_NV10_DOMAIN_STRIDE, used, ctr);
	return state;
}

static void nvpc_nv30_ack(struct nvpc_hw *hw, struct nvpc_hw_domain *dom)
{
	nvpc_wr32(hw->ndev, NVPC_NV30_QUAD_ACK_TRIGGER,
		  NVPC_NV30_QUAD_ACK_DOM(dom->index));
}

/* the shared CTRL: per-domain state fields (Control registers) */
static void nvpc_nv10_state(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			    struct nvpc_domain_state *st)
{
	u32 ctrl = nvpc_rd32(hw->ndev, NVPC_NV10_CTRL);
	unsigned int i = dom->index;
	/* NV30:NV40 have quad mode, the @single NV10:NV30 do not */
	bool quad = !hw->gen->single;

	st->mode = quad && (ctrl & NVPC_NV10_CTRL_MODE_QUAD(i)) ?
		   NVPC_DOM_MODE_QUAD : NVPC_DOM_MODE_SINGLE;
	st->ctr_mode = !!(ctrl & NVPC_NV10_CTRL_CTR_MODE);
	st->single = nvpc_nv10_ctrl_field(ctrl, NVPC_NV10_CTRL_SINGLE_STATE(i));
	st->quad = quad ?
		   nvpc_nv10_ctrl_field(ctrl, NVPC_NV10_CTRL_QUAD_STATE(i)) : 0;
}

static u32 nvpc_nv10_status_reg(const struct nvpc_hw_domain *dom,
				unsigned int j)
{
	return NVPC_NV10_STATUS(dom->index, j);
}

/* per domain: inputs and STATUS 0-3, counters and STATUS 4-7; then CTRL */
static bool nvpc_nv10_dump_range(const struct nvpc_hw *hw, unsigned int n,
				 struct nvpc_reg_range *r)
{
	unsigned int i = n / 2;

	if (i < hw->nr_domains) {
		r->start = n % 2 ? NVPC_NV10_CTR_CYCLES(i) : NVPC_NV10_SRC(i, 0);
		r->end = r->start + 0x40;
		return true;
	}
	if (n > 2 * hw->nr_domains)
		return false;
	/* QUAD_ACK_TRIGGER (write-only) and CTRL */
	r->start = NVPC_NV30_QUAD_ACK_TRIGGER & ~0xf;
	r->end = NVPC_NV10_CTRL + 4;
	return true;
}

/*
 * Counter modes: START_SRC is an integer from NV30 on only (Input
 * selection), so NV10:NV30 count SIMPLE.
 */
#define NVPC_GEN_NV10_OPS						\
	.opbits = { NVPC_OPBITS_NV10, NVPC_OPBITS_NV10,			\
		    NVPC_OPBITS_NV10, NVPC_OPBITS_NV10 },		\
	.slots = BIT(NVPC_SLOT_EVENT),					\
	.modes = BIT(NVPC_MODE_SIMPLE),					\
	.single = true,							\
	.live_bits = 39,						\
	.shared_ctrl = true,						\
	.windows = { NVPC_NV10_WINDOW },				\
	.start = nvpc_nv10_start,					\
	.stop = nvpc_nv10_stop,						\
	.restart = nvpc_nv10_restart,					\
	.program = nvpc_nv10_program,					\
	.read = nvpc_nv10_read,						\
	.state = nvpc_nv10_state,					\
	.status_reg = nvpc_nv10_status_reg,				\
	.dump_range = nvpc_nv10_dump_range,				\
	.single_start = nvpc_nv10_single_start,				\
	.single_read = nvpc_nv10_single_read

/* NV10 itself: no EVENT_CTR_PERIOD (pcounter.rst "MMIO registers", CTRL) */
const struct nvpc_gen_ops nvpc_gen_nv10 = {
	.name = "nv10",
	NVPC_GEN_NV10_OPS,
};

const struct nvpc_gen_ops nvpc_gen_nv15 = {
	.name = "nv15",
	.event_ctr_period = true,
	NVPC_GEN_NV10_OPS,
};

const struct nvpc_gen_ops nvpc_gen_nv30 = {
	.name = "nv30",
	.event_ctr_period = true,
	.opbits = { NVPC_OPBITS_NV10, NVPC_OPBITS_NV10,
		    NVPC_OPBITS_NV30_ES, NVPC_OPBITS_NV30_ES },
	.slots = GENMASK(NVPC_NR_SLOTS - 1, 0),
	.modes = BIT(NVPC_MODE_SIMPLE) | BIT(NVPC_MODE_EVENT_B4),
	.shared_ctrl = true,
	.global_swap = true,
	.windows = { NVPC_NV10_WINDOW, NVPC_PM_TRIGGER_WINDOW },
	.start = nvpc_nv30_start,
	.stop = nvpc_nv30_stop,
	.program = nvpc_nv30_program,
	.trigger_swap = nvpc_nv30_trigger_swap,
	.read = nvpc_nv30_read,
	.ack = nvpc_nv30_ack,
	.state = nvpc_nv10_state,
	.status_reg = nvpc_nv10_status_reg,
	.dump_range = nvpc_nv10_dump_range,
	.single_start = nvpc_nv10_single_start,
	.single_read = nvpc_nv10_single_read,
	.single_stop = nvpc_nv10_stop,
};
