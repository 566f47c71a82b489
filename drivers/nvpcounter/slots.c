// SPDX-License-Identifier: GPL-2.0
/*
 * Config checks and the slot allocator: which of a domain's four inputs
 * (pcounter.rst "Input selection") an event takes, and the _SRC/_OP
 * values it wants there. Pure bookkeeping on struct nvpc_slots tables and
 * register shadows: nothing here touches the hardware, so group
 * validation runs the same code on throwaway copies.
 */

#include <nvpcounter/regs.h>

#include "engine.h"
#include "slots.h"

/* the slots a counter mode's integer and input occupy, and its counter */
static const struct {
	u8 claims;
	u8 counter;
} nvpc_mode_use[] = {
	[NVPC_MODE_EVENT_B4] = { BIT(NVPC_SLOT_EVENT) | BIT(NVPC_SLOT_START),
				 NVPC_SLOT_EVENT },
	[NVPC_MODE_EVENT_B6] = { BIT(NVPC_SLOT_EVENT) | BIT(NVPC_SLOT_START),
				 NVPC_SLOT_EVENT },
	[NVPC_MODE_EXTRA_B4] = { BIT(NVPC_SLOT_START), NVPC_SLOT_START },
	[NVPC_MODE_EXTRA_B6] = { BIT(NVPC_SLOT_EVENT) | BIT(NVPC_SLOT_START),
				 NVPC_SLOT_START },
};

/* the config2 signals a mode's integer uses: B4 four, B6 six */
static unsigned int nvpc_mode_nr_bsigs(unsigned int mode)
{
	switch (mode) {
	case NVPC_MODE_EVENT_B4:
	case NVPC_MODE_EXTRA_B4:
		return 4;
	case NVPC_MODE_EVENT_B6:
	case NVPC_MODE_EXTRA_B6:
		return 6;
	default:
		return 0;
	}
}

static int nvpc_check_mode(struct nvpc_engine *eng, struct nvpc_domain *dom,
			   u64 config, u64 config2)
{
	unsigned int mode = FIELD_GET(NVPC_CFG_MODE, config);
	unsigned int j, nb = nvpc_mode_nr_bsigs(mode);

	if (mode && !(eng->hw.gen->modes & BIT(mode))) {
		nvpc_dbg(eng, "counter mode %u: not on a %s\n", mode,
			 eng->hw.gen->name);
		return -EINVAL;
	}
	if (config2 & ~(nb ? GENMASK_ULL(8 * nb - 1, 0) : 0)) {
		nvpc_dbg(eng, "config2 0x%llx: mode %u takes %u signals\n",
			 config2, mode, nb);
		return -EINVAL;
	}
	for (j = 0; j < nb; j++) {
		u32 sig = (config2 >> (8 * j)) & 0xff;

		if (sig >= dom->hw->desc->nr_signals) {
			nvpc_dbg(eng, "bsig%u 0x%x: domain has 0x%x signals\n",
				 j, sig, dom->hw->desc->nr_signals);
			return -EINVAL;
		}
	}
	if (mode && FIELD_GET(NVPC_CFG_SLOT, config)) {
		nvpc_dbg(eng, "counter mode %u chooses its own slots\n", mode);
		return -EINVAL;
	}
	if ((mode == NVPC_MODE_EXTRA_B4 || mode == NVPC_MODE_EXTRA_B6) &&
	    (config & (NVPC_CFG_SIG0 | NVPC_CFG_SIG1 | NVPC_CFG_SIG2 |
		       NVPC_CFG_SIG3 | NVPC_CFG_OP | NVPC_CFG_OPBITS))) {
		nvpc_dbg(eng, "counter mode %u counts every cycle: no input\n",
			 mode);
		return -EINVAL;
	}
	if (mode == NVPC_MODE_EVENT_B6 &&
	    (config & (NVPC_CFG_SIG2 | NVPC_CFG_SIG3))) {
		nvpc_dbg(eng, "event_b6: sig2/sig3 are bsig4/bsig5\n");
		return -EINVAL;
	}
	return 0;
}

/**
 * nvpc_check_sigs() - the input's signal ids (sig0-sig3) against its domain
 * @eng: the GPU's engine
 * @dom: the domain
 * @config: perf_event_attr.config
 *
 * Return: 0, or -EINVAL with a dev_dbg reason.
 */
int nvpc_check_sigs(struct nvpc_engine *eng, struct nvpc_domain *dom,
		    u64 config)
{
	unsigned int j;

	for (j = 0; j < 4; j++) {
		u32 sig = (config >> (8 * j)) & 0xff;

		if (sig >= dom->hw->desc->nr_signals) {
			nvpc_dbg(eng, "sig%u 0x%x: domain has 0x%x signals\n",
				 j, sig, dom->hw->desc->nr_signals);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * nvpc_engine_check() - validate an event's config against its domain
 * @eng: the GPU's engine
 * @dom: the domain the event's attr.config1 names
 * @event: the event
 *
 * Return: 0, or -EINVAL with a dev_dbg reason.
 */
int nvpc_engine_check(struct nvpc_engine *eng, struct nvpc_domain *dom,
		      struct perf_event *event)
{
	u64 config = event->attr.config, config2 = event->attr.config2;
	u32 opbits = FIELD_PREP(NVPC_OP_BITS,
				FIELD_GET(NVPC_CFG_OPBITS, config));
	unsigned int slot;

	if (config & NVPC_CFG_RESERVED) {
		nvpc_dbg(eng, "config 0x%llx: reserved bits set\n", config);
		return -EINVAL;
	}
	if (nvpc_is_window(event))
		return eng->modes[NVPC_CLAIM_WINDOW]->check(eng, dom, event);
	if (config & NVPC_CFG_SHORT) {
		nvpc_dbg(eng, "short is a record event field\n");
		return -EINVAL;
	}
	if (event->attr.config1 & NVPC_CFG1_RECORD_FIELDS) {
		nvpc_dbg(eng, "config1 0x%llx: record fields on a counting event\n",
			 event->attr.config1);
		return -EINVAL;
	}
	if (config2 & NVPC_CFG2_RESERVED) {
		nvpc_dbg(eng, "config2 0x%llx: reserved bits set\n", config2);
		return -EINVAL;
	}
	if (FIELD_GET(NVPC_CFG_CYCLES, config)) {
		if ((config & ~NVPC_CFG_CYCLES) || config2) {
			nvpc_dbg(eng, "cycles takes no signal, op, slot or mode\n");
			return -EINVAL;
		}
		return 0;
	}
	if (nvpc_check_sigs(eng, dom, config))
		return -EINVAL;
	slot = FIELD_GET(NVPC_CFG_SLOT, config);
	if (slot > NVPC_NR_SLOTS) {
		nvpc_dbg(eng, "slot %u: only 1-4 (pre/start/event/stop)\n",
			 slot);
		return -EINVAL;
	}
	if (slot && !(eng->hw.gen->slots & BIT(slot - 1))) {
		nvpc_dbg(eng, "slot %u: a %s counts only its EVENT input\n",
			 slot, eng->hw.gen->name);
		return -EINVAL;
	}
	if (opbits & ~eng->hw.gen->opbits[slot ? slot - 1 : NVPC_SLOT_EVENT]) {
		nvpc_dbg(eng, "op bits 0x%x: not on this slot of a %s\n",
			 (u32)FIELD_GET(NVPC_OP_BITS, opbits),
			 eng->hw.gen->name);
		return -EINVAL;
	}
	return nvpc_check_mode(eng, dom, config, config2);
}

/*
 * A shared CTRL (NV10:NV40) has one counter mode for every domain: a mode
 * needs every other domain's EVENT counter free or in that same mode.
 */
static bool nvpc_shared_mode_ok(struct nvpc_engine *eng,
				struct nvpc_slots *tables,
				struct nvpc_slots *self, unsigned int mode)
{
	unsigned int d;

	if (!eng->hw.gen->shared_ctrl)
		return true;
	for (d = 0; d < eng->hw.nr_domains; d++) {
		struct nvpc_slots *t = &tables[d];

		if (t == self)
			continue;
		if (t->mode != mode &&
		    (t->mode || (mode && t->ev[NVPC_SLOT_EVENT])))
			return false;
	}
	return true;
}

/*
 * Counter mode: its fixed slots (nvpc_mode_use), all free, and on a
 * shared CTRL no other domain in another mode. The slots, or -ENOSPC.
 */
static int nvpc_slot_fit_mode(struct nvpc_engine *eng,
			      struct nvpc_slots *tables, struct nvpc_slots *t,
			      unsigned int mode, unsigned long *claims)
{
	unsigned int s;

	*claims = nvpc_mode_use[mode].claims & eng->hw.gen->slots;
	for_each_set_bit(s, claims, NVPC_NR_SLOTS)
		if (t->ev[s])
			return -ENOSPC;
	if (!nvpc_shared_mode_ok(eng, tables, t, mode))
		return -ENOSPC;
	return nvpc_mode_use[mode].counter;
}

/* May a SIMPLE event (config @config) count on slot @s of table @t? */
static bool nvpc_slot_fits(struct nvpc_engine *eng, struct nvpc_slots *tables,
			   struct nvpc_slots *t, u64 config, unsigned int s)
{
	unsigned int want = FIELD_GET(NVPC_CFG_SLOT, config);
	u32 opbits = FIELD_PREP(NVPC_OP_BITS,
				FIELD_GET(NVPC_CFG_OPBITS, config));

	if ((want && s != want - 1) || !(eng->hw.gen->slots & BIT(s)) ||
	    t->ev[s])
		return false;
	/*
	 * Bits 18-20 of an unplaced event were checked in the EVENT/STOP
	 * layout; PRE/START read them differently (pcounter.rst, Input
	 * selection)
	 */
	if (!want && (opbits & ~(NVPC_OP_DELAY0 | NVPC_OP_DELAY1)) &&
	    (s == NVPC_SLOT_PRE || s == NVPC_SLOT_START))
		return false;
	/* EVENT counts a mode's integer while one is set */
	if (s == NVPC_SLOT_EVENT &&
	    (t->mode == NVPC_MODE_EVENT_B4 || t->mode == NVPC_MODE_EVENT_B6 ||
	     !nvpc_shared_mode_ok(eng, tables, t, 0)))
		return false;
	return true;
}

/*
 * A SIMPLE event: the slot it held before if perf puts it back
 * (@prefer, 0 for none), else the first that fits, EVENT first. The slot,
 * or -ENOSPC.
 */
static int nvpc_slot_fit_simple(struct nvpc_engine *eng,
				struct nvpc_slots *tables, struct nvpc_slots *t,
				u64 config, unsigned long prefer)
{
	static const u8 order[] = { NVPC_SLOT_EVENT, NVPC_SLOT_START,
				    NVPC_SLOT_PRE, NVPC_SLOT_STOP };
	unsigned int i;

	if (prefer && nvpc_slot_fits(eng, tables, t, config, __ffs(prefer)))
		return __ffs(prefer);
	for (i = 0; i < ARRAY_SIZE(order); i++)
		if (nvpc_slot_fits(eng, tables, t, config, order[i]))
			return order[i];
	return -ENOSPC;
}

/**
 * nvpc_slot_alloc() - pick the counter an event counts on
 * @eng: the GPU's engine
 * @tables: the slot tables of every domain (the live ones, or copies for
 *	group validation)
 * @dom: the event's domain
 * @event: the event (config already checked)
 * @claimed: set to the slots the event holds
 * @prefer: the slot to try first (bit NVPC_SLOT_*), 0 for none
 *
 * The cycle counter needs no slot; a counter mode claims its fixed slots;
 * a SIMPLE event one free slot. On success the event's slots are claimed
 * in @tables (the event itself is not touched: group validation runs this
 * on events already counting).
 *
 * Return: the counter (NVPC_SLOT_* or NVPC_CTR_CYCLES), or -ENOSPC when
 * the slots it needs are taken.
 */
int nvpc_slot_alloc(struct nvpc_engine *eng, struct nvpc_slots *tables,
		    struct nvpc_domain *dom, struct perf_event *event,
		    unsigned long *claimed, unsigned long prefer)
{
	struct nvpc_slots *t = &tables[dom - eng->domains];
	u64 config = event->attr.config;
	unsigned int mode = FIELD_GET(NVPC_CFG_MODE, config);
	unsigned long claims;
	unsigned int s;
	int idx;

	*claimed = 0;
	if (nvpc_is_window(event)) {
		/* a window counts SIMPLE: a shared CTRL must stay so */
		if (!nvpc_shared_mode_ok(eng, tables, t, NVPC_MODE_SIMPLE))
			return -ENOSPC;
		return eng->modes[NVPC_CLAIM_WINDOW]->alloc(t, event, claimed);
	}
	if (FIELD_GET(NVPC_CFG_CYCLES, config))
		return NVPC_CTR_CYCLES;
	if (mode) {
		idx = nvpc_slot_fit_mode(eng, tables, t, mode, &claims);
	} else {
		idx = nvpc_slot_fit_simple(eng, tables, t, config, prefer);
		claims = idx < 0 ? 0 : BIT(idx);
	}
	if (idx < 0)
		return idx;
	for_each_set_bit(s, &claims, NVPC_NR_SLOTS)
		t->ev[s] = event;
	if (mode)
		t->mode = mode;
	*claimed = claims;
	return idx;
}

/**
 * nvpc_slot_free() - give back what nvpc_slot_alloc() claimed
 * @t: the domain's slot table
 * @event: the event, its claims in hw.config_base
 */
void nvpc_slot_free(struct nvpc_slots *t, struct perf_event *event)
{
	unsigned long claims = event->hw.config_base;
	unsigned int s;

	for_each_set_bit(s, &claims, NVPC_NR_SLOTS)
		t->ev[s] = NULL;
	if (FIELD_GET(NVPC_CFG_MODE, event->attr.config))
		t->mode = NVPC_MODE_SIMPLE;
}

/**
 * nvpc_slot_regs() - set the _SRC/_OP shadows of the slots an event holds
 * @eng: the GPU's engine
 * @dom: its domain
 * @event: the event, placed (hw.idx)
 *
 * pcounter.rst "Special counter modes": B4 is START_SRC[0..3], B6 adds
 * EVENT_SRC[2..3].
 */
void nvpc_slot_regs(struct nvpc_engine *eng, struct nvpc_domain *dom,
		    struct perf_event *event)
{
	u64 config = event->attr.config, config2 = event->attr.config2;
	u32 bsrc = lower_32_bits(config2);
	u32 b6hi = FIELD_PREP(NVPC_SRC_SIG(2),
			      FIELD_GET(NVPC_CFG2_BSIG4, config2)) |
		   FIELD_PREP(NVPC_SRC_SIG(3),
			      FIELD_GET(NVPC_CFG2_BSIG5, config2));
	u16 tt = FIELD_GET(NVPC_CFG_OP, config);
	u32 op = (tt ? tt : NVPC_OP_ARG0) |
		 FIELD_PREP(NVPC_OP_BITS, FIELD_GET(NVPC_CFG_OPBITS, config));
	u32 *src = dom->hw->src, *ops = dom->hw->op;

	switch (FIELD_GET(NVPC_CFG_MODE, config)) {
	case NVPC_MODE_SINGLE:
		eng->modes[NVPC_CLAIM_WINDOW]->regs(dom, event);
		break;
	case NVPC_MODE_EVENT_B6:
		src[NVPC_SLOT_EVENT] = (lower_32_bits(config) & 0xffff) | b6hi;
		ops[NVPC_SLOT_EVENT] = op;
		src[NVPC_SLOT_START] = bsrc;
		ops[NVPC_SLOT_START] = 0;
		break;
	case NVPC_MODE_EVENT_B4:
		src[NVPC_SLOT_EVENT] = lower_32_bits(config);
		ops[NVPC_SLOT_EVENT] = op;
		fallthrough;
	case NVPC_MODE_EXTRA_B4:
		src[NVPC_SLOT_START] = bsrc;
		ops[NVPC_SLOT_START] = 0;
		break;
	case NVPC_MODE_EXTRA_B6:
		src[NVPC_SLOT_START] = bsrc;
		ops[NVPC_SLOT_START] = 0;
		src[NVPC_SLOT_EVENT] = b6hi;
		ops[NVPC_SLOT_EVENT] = 0;
		break;
	default:
		src[event->hw.idx] = lower_32_bits(config);
		ops[event->hw.idx] = op;
		break;
	}
}

/**
 * nvpc_ctr_mode() - the counter mode to program (NVPC_MODE_*)
 * @eng: the GPU's engine
 * @dom: the domain
 *
 * Return: the domain's, or the GPU's where CTRL is shared.
 */
u8 nvpc_ctr_mode(struct nvpc_engine *eng, struct nvpc_domain *dom)
{
	unsigned int d;

	if (!eng->hw.gen->shared_ctrl)
		return dom->slots->mode;
	for (d = 0; d < eng->hw.nr_domains; d++)
		if (eng->slots[d].mode)
			return eng->slots[d].mode;
	return NVPC_MODE_SIMPLE;
}

/**
 * nvpc_slots_programmed() - do the shadows of @claims hold what the
 *	hardware was given last?
 * @dom: the domain
 * @claims: slots (BIT(NVPC_SLOT_*))
 */
bool nvpc_slots_programmed(struct nvpc_domain *dom, unsigned long claims)
{
	const struct nvpc_hw_domain *hw = dom->hw;
	unsigned int s;

	for_each_set_bit(s, &claims, NVPC_NR_SLOTS)
		if (hw->src[s] != hw->hw_src[s] || hw->op[s] != hw->hw_op[s])
			return false;
	return true;
}

/**
 * nvpc_slot_sets_mode() - does the event set its domain's counter mode?
 * @event: a counting event
 *
 * A B4/B6 event changes CTRL's counter mode when it arrives or leaves; a
 * single event mode input does not (its domain leaves quad mode).
 */
bool nvpc_slot_sets_mode(struct perf_event *event)
{
	return FIELD_GET(NVPC_CFG_MODE, event->attr.config) &&
	       !nvpc_is_window(event);
}
