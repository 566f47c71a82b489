// SPDX-License-Identifier: GPL-2.0
/*
 * The domain engine: slot allocation, quad-mode swap/read/ack sampling,
 * 64-bit accumulation and the poll timer (pcounter.rst, Quad event mode).
 *
 * Every sample swaps all running domains, reads each domain's QUAD_STATE,
 * its four slot counters and CTR_CYCLES, and acks. The visible counters
 * hold the period that ended at the swap, so summing every period gives
 * exact 64-bit totals; an event's count is the growth of its slot's sum
 * between its start and its read. A swap seen in OVERFLOW state means a
 * period was lost, and a counter read at 0xffffffff saturated: both are
 * counted and shown, never added as if they were counts.
 *
 * NV10:NV30 have no quad mode (pcounter.rst, Introduction): there the
 * engine runs one endless single-event counting period per domain (PRE
 * and START always true, STOP never) and sums the growth of the live
 * CTR_EVENT and CTR_CYCLES, whose low 39 bits wrap (pcounter.rst,
 * Counters). Starting that program takes three cycles (PRE_OP write,
 * WAIT_FOR_PRE, WAIT_FOR_START) in which nothing is counted.
 */

#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/slab.h>

#include <nvpcounter/regs.h>

#include "core.h"

static void nvpc_poll_work(struct work_struct *work);
static void nvpc_poll_update(struct nvpc_core *core);

/*
 * The shortest poll period: 2^31 cycles take 1 s at 2 GHz, so only a
 * clock above 200 GHz (a sim's manual clock) would ask for less, and a
 * poll must leave the CPU time to do anything else.
 */
#define NVPC_POLL_MIN_NS	(10 * NSEC_PER_MSEC)
/* the longest: slow clocks still get their clock measured now and then */
#define NVPC_POLL_MAX_NS	(10 * NSEC_PER_SEC)

/*
 * A swap lands on the domain's next cycle, well within one MMIO read on a
 * GPU: a sample polls each swapped domain's counters and QUAD_STATE once.
 * The domains whose swap has not landed yet (stragglers, counted) share
 * this many more polls per sample, which cover a simulated clock of
 * 100 kHz; a bound, so that a sample is a bounded number of register
 * accesses however many domains it swaps.
 */
#define NVPC_SWAP_POLLS		8

/**
 * nvpc_dset_id_of() - the perf ABI's domain set id (NVPC_DSET_ID_*)
 * @dset: the catalogue's domain set
 *
 * Return: NVPC_DSET_ID_HUB for hub and pre-GF100 main domains, else the
 * GPC or partition id.
 */
u8 nvpc_dset_id_of(enum nvpc_dset dset)
{
	switch (dset) {
	case NVPC_DSET_GPC:
		return NVPC_DSET_ID_GPC;
	case NVPC_DSET_PART:
		return NVPC_DSET_ID_PART;
	default:
		return NVPC_DSET_ID_HUB;
	}
}

static void nvpc_domains_add(struct nvpc_core *core, enum nvpc_dset dset,
			     unsigned int unit)
{
	const struct nvpc_chip_desc *chip = core->chip;
	unsigned int i, n = nvpc_catalog_nr_domains(chip, dset);

	for (i = 0; i < n; i++) {
		struct nvpc_domain *dom = &core->domains[core->nr_domains];

		dom->desc = nvpc_catalog_domain(chip, dset, i);
		if (!dom->desc)
			continue;
		dom->dset = nvpc_dset_id_of(dset);
		dom->unit = unit;
		dom->index = dom->desc->index;
		if (dset == NVPC_DSET_MAIN || dset == NVPC_DSET_HUB)
			snprintf(dom->name, sizeof(dom->name), "%s.%u",
				 dset == NVPC_DSET_MAIN ? "main" : "hub",
				 dom->index);
		else
			snprintf(dom->name, sizeof(dom->name), "%s%u.%u",
				 dset == NVPC_DSET_GPC ? "gpc" : "part", unit,
				 dom->index);
		dom->slots = &core->slots[core->nr_domains];
		if (core->gen->setup)
			core->gen->setup(core, dom);
		core->nr_domains++;
	}
}

/**
 * nvpc_engine_init() - build the domain table of a GPU
 * @core: the GPU
 *
 * Return: 0, -EOPNOTSUPP if the generation cannot count yet, -ENOMEM.
 */
int nvpc_engine_init(struct nvpc_core *core)
{
	const struct nvpc_chip_desc *chip = core->chip;
	unsigned int n, u;

	core->gen = nvpc_gen_ops_of(chip);
	if (!core->gen)
		return -EOPNOTSUPP;
	INIT_DELAYED_WORK(&core->poll_work, nvpc_poll_work);
	core->poll_ns = NVPC_POLL_MAX_NS;

	if (core->gen->unit_sets) {
		n = nvpc_catalog_nr_domains(chip, NVPC_DSET_HUB) +
		    hweight32(core->ndev->gpc_mask) *
		    nvpc_catalog_nr_domains(chip, NVPC_DSET_GPC) +
		    hweight32(core->ndev->part_mask) *
		    nvpc_catalog_nr_domains(chip, NVPC_DSET_PART);
	} else {
		n = nvpc_catalog_nr_domains(chip, NVPC_DSET_MAIN);
	}
	core->domains = kcalloc(n, sizeof(*core->domains), GFP_KERNEL);
	core->slots = kcalloc(n, sizeof(*core->slots), GFP_KERNEL);
	if (!core->domains || !core->slots) {
		nvpc_engine_fini(core);
		return -ENOMEM;
	}

	if (core->gen->unit_sets) {
		nvpc_domains_add(core, NVPC_DSET_HUB, 0);
		for (u = 0; u < 32; u++)
			if (core->ndev->gpc_mask & BIT(u))
				nvpc_domains_add(core, NVPC_DSET_GPC, u);
		for (u = 0; u < 32; u++)
			if (core->ndev->part_mask & BIT(u))
				nvpc_domains_add(core, NVPC_DSET_PART, u);
	} else {
		nvpc_domains_add(core, NVPC_DSET_MAIN, 0);
	}
	return 0;
}

/**
 * nvpc_engine_fini() - stop polling and free the domain table
 * @core: the GPU, no event left
 *
 * Context: process context; may sleep.
 */
void nvpc_engine_fini(struct nvpc_core *core)
{
	if (core->gen)
		cancel_delayed_work_sync(&core->poll_work);
	kfree(core->domains);
	kfree(core->slots);
	core->domains = NULL;
	core->slots = NULL;
	core->nr_domains = 0;
}

/**
 * nvpc_domain_find() - the domain a config1 value names
 * @core: the GPU
 * @config1: perf_event_attr.config1
 *
 * Return: the domain, or NULL if reserved bits are set or it is absent.
 */
struct nvpc_domain *nvpc_domain_find(struct nvpc_core *core, u64 config1)
{
	u8 dset = FIELD_GET(NVPC_CFG1_DSET, config1);
	u8 unit = FIELD_GET(NVPC_CFG1_UNIT, config1);
	u8 index = FIELD_GET(NVPC_CFG1_DOM, config1);
	unsigned int i;

	if (config1 & NVPC_CFG1_RESERVED)
		return NULL;
	for (i = 0; i < core->nr_domains; i++) {
		struct nvpc_domain *dom = &core->domains[i];

		if (dom->dset == dset && dom->unit == unit &&
		    dom->index == index)
			return dom;
	}
	return NULL;
}

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

static int nvpc_check_mode(struct nvpc_core *core, struct nvpc_domain *dom,
			   u64 config, u64 config2)
{
	unsigned int mode = FIELD_GET(NVPC_CFG_MODE, config);
	unsigned int j, nb = nvpc_mode_nr_bsigs(mode);

	if (mode && !(core->gen->modes & BIT(mode))) {
		nvpc_dbg(core, "counter mode %u: not on a %s\n", mode,
			 core->gen->name);
		return -EINVAL;
	}
	if (config2 & ~(nb ? GENMASK_ULL(8 * nb - 1, 0) : 0)) {
		nvpc_dbg(core, "config2 0x%llx: mode %u takes %u signals\n",
			 config2, mode, nb);
		return -EINVAL;
	}
	for (j = 0; j < nb; j++) {
		u32 sig = (config2 >> (8 * j)) & 0xff;

		if (sig >= dom->desc->nr_signals) {
			nvpc_dbg(core, "bsig%u 0x%x: domain has 0x%x signals\n",
				 j, sig, dom->desc->nr_signals);
			return -EINVAL;
		}
	}
	if (mode && FIELD_GET(NVPC_CFG_SLOT, config)) {
		nvpc_dbg(core, "counter mode %u chooses its own slots\n", mode);
		return -EINVAL;
	}
	if ((mode == NVPC_MODE_EXTRA_B4 || mode == NVPC_MODE_EXTRA_B6) &&
	    (config & (NVPC_CFG_SIG0 | NVPC_CFG_SIG1 | NVPC_CFG_SIG2 |
		       NVPC_CFG_SIG3 | NVPC_CFG_OP | NVPC_CFG_OPBITS))) {
		nvpc_dbg(core, "counter mode %u counts every cycle: no input\n",
			 mode);
		return -EINVAL;
	}
	if (mode == NVPC_MODE_EVENT_B6 &&
	    (config & (NVPC_CFG_SIG2 | NVPC_CFG_SIG3))) {
		nvpc_dbg(core, "event_b6: sig2/sig3 are bsig4/bsig5\n");
		return -EINVAL;
	}
	return 0;
}

/**
 * nvpc_check_sigs() - the input's signal ids (sig0-sig3) against its domain
 * @core: the GPU
 * @dom: the domain
 * @config: perf_event_attr.config
 *
 * Return: 0, or -EINVAL with a dev_dbg reason.
 */
int nvpc_check_sigs(struct nvpc_core *core, struct nvpc_domain *dom,
		    u64 config)
{
	unsigned int j;

	for (j = 0; j < 4; j++) {
		u32 sig = (config >> (8 * j)) & 0xff;

		if (sig >= dom->desc->nr_signals) {
			nvpc_dbg(core, "sig%u 0x%x: domain has 0x%x signals\n",
				 j, sig, dom->desc->nr_signals);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * nvpc_engine_check() - validate an event's config against its domain
 * @core: the GPU
 * @dom: the domain the event's attr.config1 names
 * @event: the event
 *
 * Return: 0, or -EINVAL with a dev_dbg reason.
 */
int nvpc_engine_check(struct nvpc_core *core, struct nvpc_domain *dom,
		      struct perf_event *event)
{
	u64 config = event->attr.config, config2 = event->attr.config2;
	u32 opbits = FIELD_PREP(NVPC_OP_BITS,
				FIELD_GET(NVPC_CFG_OPBITS, config));
	unsigned int slot;

	if (config & NVPC_CFG_RESERVED) {
		nvpc_dbg(core, "config 0x%llx: reserved bits set\n", config);
		return -EINVAL;
	}
	if (nvpc_is_window(event))
		return nvpc_window_check(core, dom, event);
	if (config & NVPC_CFG_SHORT) {
		nvpc_dbg(core, "short is a record event field\n");
		return -EINVAL;
	}
	if (event->attr.config1 & NVPC_CFG1_RECORD_FIELDS) {
		nvpc_dbg(core, "config1 0x%llx: record fields on a counting event\n",
			 event->attr.config1);
		return -EINVAL;
	}
	if (config2 & NVPC_CFG2_RESERVED) {
		nvpc_dbg(core, "config2 0x%llx: reserved bits set\n", config2);
		return -EINVAL;
	}
	if (FIELD_GET(NVPC_CFG_CYCLES, config)) {
		if ((config & ~NVPC_CFG_CYCLES) || config2) {
			nvpc_dbg(core, "cycles takes no signal, op, slot or mode\n");
			return -EINVAL;
		}
		return 0;
	}
	if (nvpc_check_sigs(core, dom, config))
		return -EINVAL;
	slot = FIELD_GET(NVPC_CFG_SLOT, config);
	if (slot > NVPC_NR_SLOTS) {
		nvpc_dbg(core, "slot %u: only 1-4 (pre/start/event/stop)\n",
			 slot);
		return -EINVAL;
	}
	if (slot && !(core->gen->slots & BIT(slot - 1))) {
		nvpc_dbg(core, "slot %u: a %s counts only its EVENT input\n",
			 slot, core->gen->name);
		return -EINVAL;
	}
	if (opbits & ~core->gen->opbits[slot ? slot - 1 : NVPC_SLOT_EVENT]) {
		nvpc_dbg(core, "op bits 0x%x: not on this slot of a %s\n",
			 (u32)FIELD_GET(NVPC_OP_BITS, opbits), core->gen->name);
		return -EINVAL;
	}
	return nvpc_check_mode(core, dom, config, config2);
}

/*
 * A shared CTRL (NV10:NV40) has one counter mode for every domain: a mode
 * needs every other domain's EVENT counter free or in that same mode.
 */
static bool nvpc_shared_mode_ok(struct nvpc_core *core,
				struct nvpc_slots *tables,
				struct nvpc_slots *self, unsigned int mode)
{
	unsigned int d;

	if (!core->gen->shared_ctrl)
		return true;
	for (d = 0; d < core->nr_domains; d++) {
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
static int nvpc_slot_fit_mode(struct nvpc_core *core, struct nvpc_slots *tables,
			      struct nvpc_slots *t, unsigned int mode,
			      unsigned long *claims)
{
	unsigned int s;

	*claims = nvpc_mode_use[mode].claims & core->gen->slots;
	for_each_set_bit(s, claims, NVPC_NR_SLOTS)
		if (t->ev[s])
			return -ENOSPC;
	if (!nvpc_shared_mode_ok(core, tables, t, mode))
		return -ENOSPC;
	return nvpc_mode_use[mode].counter;
}

/* May a SIMPLE event (config @config) count on slot @s of table @t? */
static bool nvpc_slot_fits(struct nvpc_core *core, struct nvpc_slots *tables,
			   struct nvpc_slots *t, u64 config, unsigned int s)
{
	unsigned int want = FIELD_GET(NVPC_CFG_SLOT, config);
	u32 opbits = FIELD_PREP(NVPC_OP_BITS,
				FIELD_GET(NVPC_CFG_OPBITS, config));

	if ((want && s != want - 1) || !(core->gen->slots & BIT(s)) ||
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
	     !nvpc_shared_mode_ok(core, tables, t, 0)))
		return false;
	return true;
}

/*
 * A SIMPLE event: the slot it held before if perf puts it back
 * (@prefer, 0 for none), else the first that fits, EVENT first. The slot,
 * or -ENOSPC.
 */
static int nvpc_slot_fit_simple(struct nvpc_core *core,
				struct nvpc_slots *tables, struct nvpc_slots *t,
				u64 config, unsigned long prefer)
{
	static const u8 order[] = { NVPC_SLOT_EVENT, NVPC_SLOT_START,
				    NVPC_SLOT_PRE, NVPC_SLOT_STOP };
	unsigned int i;

	if (prefer && nvpc_slot_fits(core, tables, t, config, __ffs(prefer)))
		return __ffs(prefer);
	for (i = 0; i < ARRAY_SIZE(order); i++)
		if (nvpc_slot_fits(core, tables, t, config, order[i]))
			return order[i];
	return -ENOSPC;
}

/**
 * nvpc_slot_alloc() - pick the counter an event counts on
 * @core: the GPU
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
int nvpc_slot_alloc(struct nvpc_core *core, struct nvpc_slots *tables,
		    struct nvpc_domain *dom, struct perf_event *event,
		    unsigned long *claimed, unsigned long prefer)
{
	struct nvpc_slots *t = &tables[dom - core->domains];
	u64 config = event->attr.config;
	unsigned int mode = FIELD_GET(NVPC_CFG_MODE, config);
	unsigned long claims;
	unsigned int s;
	int idx;

	*claimed = 0;
	if (nvpc_is_window(event)) {
		/* a window counts SIMPLE: a shared CTRL must stay so */
		if (!nvpc_shared_mode_ok(core, tables, t, NVPC_MODE_SIMPLE))
			return -ENOSPC;
		return nvpc_window_alloc(t, event, claimed);
	}
	if (FIELD_GET(NVPC_CFG_CYCLES, config))
		return NVPC_CTR_CYCLES;
	if (mode) {
		idx = nvpc_slot_fit_mode(core, tables, t, mode, &claims);
	} else {
		idx = nvpc_slot_fit_simple(core, tables, t, config, prefer);
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

/* Give back what nvpc_slot_alloc() claimed. */
static void nvpc_slot_free(struct nvpc_slots *t, struct perf_event *event)
{
	unsigned long claims = event->hw.config_base;
	unsigned int s;

	for_each_set_bit(s, &claims, NVPC_NR_SLOTS)
		t->ev[s] = NULL;
	if (FIELD_GET(NVPC_CFG_MODE, event->attr.config))
		t->mode = NVPC_MODE_SIMPLE;
}

/*
 * The _SRC/_OP shadows of the slots an event holds (pcounter.rst, Special
 * counter modes: B4 is START_SRC[0..3], B6 adds EVENT_SRC[2..3]).
 */
static void nvpc_slot_regs(struct nvpc_domain *dom, struct perf_event *event)
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

	switch (FIELD_GET(NVPC_CFG_MODE, config)) {
	case NVPC_MODE_SINGLE:
		nvpc_window_regs(dom, event);
		break;
	case NVPC_MODE_EVENT_B6:
		dom->src[NVPC_SLOT_EVENT] = (lower_32_bits(config) & 0xffff) |
					    b6hi;
		dom->op[NVPC_SLOT_EVENT] = op;
		dom->src[NVPC_SLOT_START] = bsrc;
		dom->op[NVPC_SLOT_START] = 0;
		break;
	case NVPC_MODE_EVENT_B4:
		dom->src[NVPC_SLOT_EVENT] = lower_32_bits(config);
		dom->op[NVPC_SLOT_EVENT] = op;
		fallthrough;
	case NVPC_MODE_EXTRA_B4:
		dom->src[NVPC_SLOT_START] = bsrc;
		dom->op[NVPC_SLOT_START] = 0;
		break;
	case NVPC_MODE_EXTRA_B6:
		dom->src[NVPC_SLOT_START] = bsrc;
		dom->op[NVPC_SLOT_START] = 0;
		dom->src[NVPC_SLOT_EVENT] = b6hi;
		dom->op[NVPC_SLOT_EVENT] = 0;
		break;
	default:
		dom->src[event->hw.idx] = lower_32_bits(config);
		dom->op[event->hw.idx] = op;
		break;
	}
}

/* the counter mode to program: the domain's, or the GPU's if shared */
static u8 nvpc_ctr_mode(struct nvpc_core *core, struct nvpc_domain *dom)
{
	unsigned int d;

	if (!core->gen->shared_ctrl)
		return dom->slots->mode;
	for (d = 0; d < core->nr_domains; d++)
		if (core->slots[d].mode)
			return core->slots[d].mode;
	return NVPC_MODE_SIMPLE;
}

/* The counters events use: their slots' and CTR_CYCLES (for the clock). */
static unsigned long nvpc_domain_used(struct nvpc_domain *dom)
{
	unsigned long used = BIT(NVPC_CTR_CYCLES) | dom->leaving;
	unsigned int s;

	for (s = 0; s < NVPC_NR_SLOTS; s++) {
		struct perf_event *ev = dom->slots->ev[s];

		if (ev)
			used |= BIT(ev->hw.idx);
	}
	return used;
}

/*
 * @cycles per @ns in Hz, saturated at U64_MAX: a 40-bit count over a few
 * milliseconds of a sim's manual clock would overflow cycles * 10^9, and
 * on x86 mul_u64_u64_div_u64() traps on a quotient beyond 64 bits.
 */
static u64 nvpc_rate_hz(u64 cycles, u64 ns)
{
	if (!ns)
		return 0;
	/* the quotient fits when cycles / ns < 2^64 / 10^9 */
	if (div64_u64(cycles, ns) >= div64_u64(U64_MAX, NSEC_PER_SEC))
		return U64_MAX;
	return mul_u64_u64_div_u64(cycles, NSEC_PER_SEC, ns);
}

/*
 * The domain's clock from its cycle counter: over windows of at least a
 * second for clock_hz (what sysfs shows), over the last period for the
 * poll period (which must follow a clock that just went up).
 */
static void nvpc_clock_measure(struct nvpc_domain *dom, u64 cycles, u64 now)
{
	/* short periods say little (and nothing on a sim's manual clock) */
	if (now > dom->sample_ns + NVPC_POLL_MIN_NS && dom->sample_ns)
		dom->period_hz = nvpc_rate_hz(cycles, now - dom->sample_ns);
	if (!dom->clock_win_ns) {
		/* the window starts at this sample: this period is before */
		dom->clock_win_ns = now;
		dom->clock_win_cycles = 0;
		return;
	}
	dom->clock_win_cycles += cycles;
	if (now - dom->clock_win_ns >= NSEC_PER_SEC) {
		WRITE_ONCE(dom->clock_hz,
			   nvpc_rate_hz(dom->clock_win_cycles,
					now - dom->clock_win_ns));
		dom->clock_win_ns = now;
		dom->clock_win_cycles = 0;
	}
}

/*
 * Poll a swapped quad-mode domain once: one read of its counters and
 * QUAD_STATE and, if its swap has landed, the ended period folded into
 * its sums and acked. Return: true while the swap has not landed.
 */
static bool nvpc_domain_poll(struct nvpc_core *core, struct nvpc_domain *dom,
			     u64 now)
{
	unsigned long used = nvpc_domain_used(dom);
	u64 ctr[NVPC_NR_CTRS] = { 0 };
	u32 state = core->gen->read(core, dom, used, ctr);
	unsigned int i;

	/* the backend found the device gone during the reads */
	if (READ_ONCE(core->gone))
		return false;
	if (state == NVPC_QUAD_EMPTY)
		return true;
	if (state == NVPC_QUAD_OVERFLOW) {
		/* the visible set is the newest; the one before is lost */
		dom->lost_periods++;
		core->gen->ack(core, dom);
		dom->clock_win_ns = 0;
	} else if (ctr[NVPC_CTR_CYCLES] != U32_MAX) {
		nvpc_clock_measure(dom, ctr[NVPC_CTR_CYCLES], now);
	}
	dom->sample_ns = now;
	dom->samples++;
	for_each_set_bit(i, &used, NVPC_NR_CTRS) {
		if (ctr[i] == U32_MAX) {
			/* the true count is unknown: never add it */
			dom->saturations++;
			dev_warn_ratelimited(core->dev,
					     "%s: domain %s: counter %u saturated, period left out\n",
					     core->name, dom->name, i);
			continue;
		}
		dom->acc[i] += ctr[i];
	}
	core->gen->ack(core, dom);
	return false;
}

/*
 * Read the periods a swap ended in the domains of [@first, @end) marked
 * @swapped: each is polled once, and the stragglers (swap not landed at
 * their first poll, counted) are polled again in turn, NVPC_SWAP_POLLS
 * polls for all of them together. At most (end - first) + NVPC_SWAP_POLLS
 * polls, however many straggle; a domain still waiting after them did
 * not respond: its period is not read.
 */
static void nvpc_domains_collect(struct nvpc_core *core, unsigned int first,
				 unsigned int end, u64 now)
{
	unsigned int i, polls = NVPC_SWAP_POLLS;
	bool waiting = false;

	for (i = first; i < end; i++) {
		struct nvpc_domain *d = &core->domains[i];

		if (!d->swapped)
			continue;
		d->sampled_txn = core->txn ? core->txn_seq + 1 : 0;
		d->swapped = nvpc_domain_poll(core, d, now);
		if (d->swapped)
			d->stragglers++;
		waiting |= d->swapped;
	}
	while (waiting && polls) {
		waiting = false;
		for (i = first; i < end && polls; i++) {
			struct nvpc_domain *d = &core->domains[i];

			if (!d->swapped)
				continue;
			polls--;
			d->swapped = nvpc_domain_poll(core, d, now);
			waiting |= d->swapped;
		}
	}
	for (i = first; i < end; i++) {
		struct nvpc_domain *d = &core->domains[i];

		if (!d->swapped)
			continue;
		d->swapped = false;
		d->not_responding++;
		dev_warn_ratelimited(core->dev,
				     "%s: domain %s: swap did not land within the sample's polls, no counts read\n",
				     core->name, d->name);
	}
}

/* Fold the growth of a single-event program's live counters. */
static void nvpc_domain_sample_live(struct nvpc_core *core,
				    struct nvpc_domain *dom, u64 now)
{
	u64 mask = BIT_ULL(core->gen->live_bits) - 1, ctr[NVPC_NR_CTRS];
	unsigned long used = nvpc_domain_used(dom);
	u64 grow;
	unsigned int i;

	/* a restart that has not landed yet: nothing of it to fold */
	if (core->gen->read(core, dom, used, ctr) == NVPC_QUAD_EMPTY)
		return;
	for_each_set_bit(i, &used, NVPC_NR_CTRS) {
		grow = (ctr[i] - dom->last[i]) & mask;
		dom->acc[i] += grow;
		dom->last[i] = ctr[i];
		if (i == NVPC_CTR_CYCLES)
			nvpc_clock_measure(dom, grow, now);
	}
	dom->sample_ns = now;
	dom->samples++;
}

/*
 * Sample @dom, or every running domain if @dom is NULL: swap and fold the
 * ended period into the sums. A swap that reaches every domain (PGRAPH
 * PM_TRIGGER, @global_swap) samples them all, so that no domain loses a
 * period; a generation with one swap trigger per domain samples only the
 * domain asked for. Work under the lock: one domain's accesses, or those
 * of the at most 8 domains of a @global_swap generation.
 */
static void nvpc_sample(struct nvpc_core *core, struct nvpc_domain *dom)
{
	const struct nvpc_gen_ops *gen = core->gen;
	unsigned int i, first = 0, end = core->nr_domains;
	bool swapped = false;
	u64 now;

	lockdep_assert_held(&core->lock);
	if (READ_ONCE(core->gone))
		return;
	if (dom && !gen->global_swap) {
		if (!dom->running)
			return;
		first = dom - core->domains;
		end = first + 1;
	}
	now = ktime_get_ns();
	if (!gen->single) {
		for (i = first; i < end; i++) {
			struct nvpc_domain *d = &core->domains[i];

			if (!d->running)
				continue;
			if (d->win.on) {
				nvpc_window_sample(core, d);
				d->sampled_txn = core->txn ? core->txn_seq + 1 : 0;
				continue;
			}
			/* one pulse swaps every running domain */
			if (!gen->global_swap || !swapped)
				gen->trigger_swap(core, d);
			d->swapped = true;
			swapped = true;
		}
		nvpc_domains_collect(core, first, end, now);
		return;
	}
	for (i = first; i < end; i++) {
		struct nvpc_domain *d = &core->domains[i];

		if (!d->running)
			continue;
		if (d->win.on)
			nvpc_window_sample(core, d);
		else
			nvpc_domain_sample_live(core, d, now);
		d->sampled_txn = core->txn ? core->txn_seq + 1 : 0;
	}
}

/*
 * Add what counter @idx counted since the event's last update (to the
 * unit sum's count for a unit of one).
 */
static void nvpc_event_fold(struct perf_event *event, int idx)
{
	struct nvpc_domain *dom = event->pmu_private;
	u64 now = dom->acc[idx];
	u64 prev = local64_xchg(&event->hw.prev_count, now);

	local64_add(now - prev, &nvpc_count_owner(event)->count);
}

/* Move the event to the slot's current sum, adding the growth if @fold. */
static void nvpc_event_update(struct perf_event *event, bool fold)
{
	struct nvpc_domain *dom = event->pmu_private;

	if (fold)
		nvpc_event_fold(event, event->hw.idx);
	else
		local64_set(&event->hw.prev_count, dom->acc[event->hw.idx]);
}

/**
 * nvpc_engine_update() - sample the GPU and bring an event up to date
 * @core: the GPU
 * @event: an added event
 * @fold: add what the event's slot counted since its last update to its
 *	count (false when restarting a stopped event: those counts are not
 *	the event's)
 */
void nvpc_engine_update(struct nvpc_core *core, struct perf_event *event,
			bool fold)
{
	unsigned long flags;

	/* added after its GPU went away: nothing counts, nothing changes */
	if (event->hw.idx == NVPC_IDX_DETACHED)
		return;
	raw_spin_lock_irqsave(&core->lock, flags);
	nvpc_sample(core, event->pmu_private);
	/* not counting before the transaction's commit */
	if (!(event->hw.flags & NVPC_HW_FRESH))
		nvpc_event_update(event, fold);
	raw_spin_unlock_irqrestore(&core->lock, flags);
}

/*
 * The poll: in process context, one domain per lock hold (all of them at
 * once only where one swap reaches them all), so that interrupts stay
 * off for one domain's register accesses at a time however many domains
 * run. It stops when the last event goes or the device is gone.
 */
static void nvpc_poll_work(struct work_struct *work)
{
	struct nvpc_core *core = container_of(to_delayed_work(work),
					      struct nvpc_core, poll_work);
	unsigned long flags;
	unsigned int i;
	bool more;

	for (i = 0; i < core->nr_domains; i++) {
		raw_spin_lock_irqsave(&core->lock, flags);
		/* perf is between adds and dels: sample at the next poll */
		if (!core->txn)
			nvpc_sample(core, core->gen->global_swap ? NULL :
					  &core->domains[i]);
		raw_spin_unlock_irqrestore(&core->lock, flags);
		if (core->gen->global_swap)
			break;
		cond_resched();
	}
	raw_spin_lock_irqsave(&core->lock, flags);
	nvpc_poll_update(core);
	more = core->nr_active && !READ_ONCE(core->gone);
	raw_spin_unlock_irqrestore(&core->lock, flags);
	if (more)
		queue_delayed_work(system_unbound_wq, &core->poll_work,
				   nsecs_to_jiffies(core->poll_ns));
}

/*
 * The poll period keeps the fastest running domain's counters at most
 * half full: 2^31 cycles (2^38 for 40-bit live counters) at the larger of
 * its nominal and its measured clock, within 10 ms .. 10 s. No running
 * domain, or any clock from 1 Hz to a saturated measurement, gives a
 * period in that range without overflow.
 */
static void nvpc_poll_update(struct nvpc_core *core)
{
	unsigned int bits = core->gen->single ? core->gen->live_bits : 32;
	u64 half, hz = 0, ns;
	unsigned int i;

	for (i = 0; i < core->nr_domains; i++) {
		struct nvpc_domain *dom = &core->domains[i];

		if (!dom->running)
			continue;
		/* window.c's restarts want a sample every 2^31 cycles */
		if (dom->win.on)
			bits = 32;
		hz = max3(hz, (u64)dom->desc->clock_hz,
			  max(dom->clock_hz, dom->period_hz));
	}
	half = BIT_ULL(bits - 1);
	/*
	 * half / hz >= 10 means a period of 10 s or more; below it
	 * half < 11 * hz and half * 10^9 / hz < 1.1 * 10^10 fits
	 */
	if (!hz || div64_u64(half, hz) >= NVPC_POLL_MAX_NS / NSEC_PER_SEC)
		ns = NVPC_POLL_MAX_NS;
	else
		ns = mul_u64_u64_div_u64(half, NSEC_PER_SEC, hz);
	core->poll_ns = clamp_t(u64, ns, NVPC_POLL_MIN_NS, NVPC_POLL_MAX_NS);
}

/* Its events are single event mode inputs (window.c), not quad counters. */
static bool nvpc_window_wanted(struct nvpc_domain *dom)
{
	unsigned int s;

	for (s = 0; s < NVPC_NR_SLOTS; s++)
		if (dom->slots->ev[s] && nvpc_is_window(dom->slots->ev[s]))
			return true;
	return false;
}

/* Write a domain's whole program: counting mode and all four inputs. */
static void nvpc_domain_program(struct nvpc_core *core,
				struct nvpc_domain *dom)
{
	unsigned int s;

	dom->ctr_mode = nvpc_ctr_mode(core, dom);
	core->gen->start(core, dom);
	for (s = 0; s < NVPC_NR_SLOTS; s++)
		if (core->gen->slots & BIT(s))
			core->gen->program(core, dom, s);
	memcpy(dom->hw_src, dom->src, sizeof(dom->src));
	memcpy(dom->hw_op, dom->op, sizeof(dom->op));
	memset(dom->last, 0, sizeof(dom->last));
	dom->sample_ns = ktime_get_ns();
	dom->clock_win_ns = 0;
}

/*
 * A counter mode change: on a shared CTRL every running domain takes the
 * new mode, elsewhere only @dom.
 */
static void nvpc_mode_update(struct nvpc_core *core, struct nvpc_domain *dom)
{
	unsigned int i;

	if (!core->gen->shared_ctrl) {
		if (!dom->running || dom->win.on)
			return;
		dom->ctr_mode = nvpc_ctr_mode(core, dom);
		core->gen->start(core, dom);
		return;
	}
	for (i = 0; i < core->nr_domains; i++) {
		struct nvpc_domain *d = &core->domains[i];

		/* a window domain has no quad program (its CTRL fields are
		 * window.c's; the CTRL write restarts its process)
		 */
		if (d->running && !d->win.on &&
		    d->ctr_mode != nvpc_ctr_mode(core, d)) {
			d->ctr_mode = nvpc_ctr_mode(core, d);
			core->gen->start(core, d);
		}
	}
}

/* Do the shadows of @claims hold what the hardware was given last? */
static bool nvpc_slots_programmed(struct nvpc_domain *dom,
				  unsigned long claims)
{
	unsigned int s;

	for_each_set_bit(s, &claims, NVPC_NR_SLOTS)
		if (dom->src[s] != dom->hw_src[s] || dom->op[s] != dom->hw_op[s])
			return false;
	return true;
}

/* Write the slots in @claims whose shadows changed. */
static void nvpc_event_program(struct nvpc_core *core, struct nvpc_domain *dom,
			       unsigned long claims)
{
	unsigned long written = 0;
	unsigned int s;

	for_each_set_bit(s, &claims, NVPC_NR_SLOTS) {
		if (nvpc_slots_programmed(dom, BIT(s)))
			continue;
		core->gen->program(core, dom, s);
		dom->hw_src[s] = dom->src[s];
		dom->hw_op[s] = dom->op[s];
		written |= BIT(s);
	}
	/* a single-event program restarted: its live counters start over */
	if (core->gen->single && written)
		memset(dom->last, 0, sizeof(dom->last));
}

static bool nvpc_domain_busy(struct nvpc_domain *dom)
{
	return dom->nr_cycles || dom->slots->ev[0] || dom->slots->ev[1] ||
	       dom->slots->ev[2] || dom->slots->ev[3];
}

/*
 * Quad mode, first step of a commit: end the current period of every
 * running domain with events leaving or arriving, with one swap each (one
 * for all where the swap is global). The events arriving count from this
 * swap, those leaving up to it; the domain is read after its new inputs
 * are written, so that nothing lies between the two.
 */
static void nvpc_commit_swap(struct nvpc_core *core)
{
	const struct nvpc_gen_ops *gen = core->gen;
	struct perf_event *event;
	bool any = false;
	unsigned int i;

	list_for_each_entry(event, &core->fresh, active_entry) {
		struct nvpc_domain *dom = event->pmu_private;

		dom->swapped = dom->running && !dom->win.on;
	}
	for (i = 0; i < core->nr_domains; i++) {
		struct nvpc_domain *d = &core->domains[i];

		d->swapped |= d->running && d->leaving;
		any |= d->swapped;
	}
	if (!any)
		return;
	for (i = 0; i < core->nr_domains; i++) {
		struct nvpc_domain *d = &core->domains[i];

		if (!gen->global_swap) {
			if (d->swapped)
				gen->trigger_swap(core, d);
			continue;
		}
		/* one pulse swaps every running quad-mode domain */
		d->swapped = d->running && !d->win.on;
		if (d->running && any) {
			gen->trigger_swap(core, d);
			any = false;
		}
	}
	/* the period of the events added starts at this swap */
	for (i = 0; i < core->nr_domains; i++)
		if (core->domains[i].swapped)
			core->domains[i].commit_seq = core->txn_seq + 1;
}

/* Read the period a commit's swap ended in @dom, if not read yet. */
static void nvpc_commit_read(struct nvpc_core *core, struct nvpc_domain *dom,
			     u64 now)
{
	unsigned int i = dom - core->domains;

	nvpc_domains_collect(core, i, i + 1, now);
}

/*
 * Bring the hardware in line with the slot tables after adds and dels:
 * start, stop or reprogram the domains they touched, and end the period
 * of the events that leave and arrive. Runs once per perf transaction
 * (pmu_disable/pmu_enable around a whole rotation), so that a rotation
 * costs one swap per domain, not one per event.
 */
static void nvpc_commit(struct nvpc_core *core)
{
	const struct nvpc_gen_ops *gen = core->gen;
	bool gone = READ_ONCE(core->gone), dirty = false, early = false;
	struct perf_event *event, *tmp;
	unsigned int i;
	u64 now = 0;

	lockdep_assert_held(&core->lock);
	for (i = 0; i < core->nr_domains; i++) {
		dirty |= core->domains[i].dirty || core->domains[i].dirty_mode;
		early |= core->domains[i].dirty_mode;
	}
	/* live counters restart when reprogrammed: fold them first */
	if (dirty && gen->single)
		nvpc_sample(core, NULL);
	if (!gen->single && !gone) {
		nvpc_commit_swap(core);
		now = ktime_get_ns();
	}
	/*
	 * A counter mode is written to CTRL (shared by every domain on
	 * NV30:NV40): read what the swap ended before any CTRL write
	 */
	if (early || gen->shared_ctrl)
		nvpc_domains_collect(core, 0, core->nr_domains, now);
	for (i = 0; i < core->nr_domains; i++) {
		struct nvpc_domain *dom = &core->domains[i];
		bool busy = nvpc_domain_busy(dom);

		if (!dom->dirty && !dom->dirty_mode)
			continue;
		if (busy && !dom->running) {
			if (!gone && nvpc_window_wanted(dom))
				nvpc_window_program(core, dom);
			else if (!gone)
				nvpc_domain_program(core, dom);
			dom->running = true;
			nvpc_poll_update(core);
		} else if (!busy && dom->running) {
			nvpc_commit_read(core, dom, now);
			if (!gone)
				gen->stop(core, dom);
			dom->running = false;
			dom->win.on = false;
		} else if (busy && !gone && dom->win.on) {
			nvpc_window_program(core, dom);
		} else if (busy && !gone) {
			nvpc_event_program(core, dom, dom->dirty);
		}
		if (dom->dirty_mode && !gone)
			nvpc_mode_update(core, dom);
		dom->dirty = 0;
		dom->dirty_mode = false;
	}
	nvpc_domains_collect(core, 0, core->nr_domains, now);
	list_for_each_entry_safe(event, tmp, &core->leaving, active_entry) {
		nvpc_event_fold(event, event->hw.idx);
		event->hw.flags &= ~NVPC_HW_LEAVING;
		list_del_init(&event->active_entry);
	}
	for (i = 0; i < core->nr_domains; i++)
		core->domains[i].leaving = 0;
	/*
	 * A domain started by this commit, or given a new counter mode
	 * (CTRL written after the swap), begins a clean period for its new
	 * events with a swap of its own
	 */
	for (i = 0; i < core->nr_domains && early; i++)
		core->domains[i].commit_seq = 0;
	list_for_each_entry(event, &core->fresh, active_entry) {
		struct nvpc_domain *dom = event->pmu_private;

		if (gen->single || dom->win.on ||
		    dom->commit_seq == core->txn_seq + 1)
			continue;
		nvpc_sample(core, gen->global_swap ? NULL : dom);
		for (i = 0; i < core->nr_domains; i++)
			if (gen->global_swap ? core->domains[i].running :
					       &core->domains[i] == dom)
				core->domains[i].commit_seq = core->txn_seq + 1;
	}
	list_for_each_entry_safe(event, tmp, &core->fresh, active_entry) {
		struct nvpc_domain *dom = event->pmu_private;

		local64_set(&event->hw.prev_count, dom->acc[event->hw.idx]);
		event->hw.flags &= ~NVPC_HW_FRESH;
		list_del_init(&event->active_entry);
	}
	core->txn_seq++;
}

/*
 * Start the poll with the first active event, stop it with the last
 * (perf callbacks: neither waits).
 */
static void nvpc_poll_kick(struct nvpc_core *core)
{
	if (READ_ONCE(core->nr_active) && !READ_ONCE(core->gone))
		queue_delayed_work(system_unbound_wq, &core->poll_work,
				   nsecs_to_jiffies(READ_ONCE(core->poll_ns)));
	else
		cancel_delayed_work(&core->poll_work);
}

static const char * const nvpc_claim_names[] = {
	[NVPC_CLAIM_COUNT] = "counting",
	[NVPC_CLAIM_WINDOW] = "single event mode",
	[NVPC_CLAIM_RECORD] = "record",
};

/**
 * nvpc_domain_claim() - claim a domain for an event's mode
 * @core: the GPU
 * @dom: the domain
 * @mode: NVPC_CLAIM_*
 *
 * A domain runs one mode at a time: counting events share it, as do the
 * inputs of one window program; a record event has it alone.
 * nvpc_domain_unclaim() gives the claim back.
 *
 * Context: any; takes &nvpc_core.lock.
 * Return: 0, or -EBUSY if the domain is claimed for another mode (or
 * records).
 */
int nvpc_domain_claim(struct nvpc_core *core, struct nvpc_domain *dom,
		      enum nvpc_claim mode)
{
	unsigned long flags;
	u8 held;
	bool busy;

	raw_spin_lock_irqsave(&core->lock, flags);
	held = dom->claim;
	busy = dom->nr_claims &&
	       (held != mode || mode == NVPC_CLAIM_RECORD);
	if (!busy) {
		dom->claim = mode;
		dom->nr_claims++;
	}
	raw_spin_unlock_irqrestore(&core->lock, flags);
	if (!busy)
		return 0;
	nvpc_dbg(core, "domain %s is claimed for %s: no %s event on it\n",
		 dom->name, nvpc_claim_names[held], nvpc_claim_names[mode]);
	return -EBUSY;
}

/**
 * nvpc_domain_unclaim() - give back one nvpc_domain_claim()
 * @core: the GPU
 * @dom: the domain
 */
void nvpc_domain_unclaim(struct nvpc_core *core, struct nvpc_domain *dom)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&core->lock, flags);
	if (dom->nr_claims)
		dom->nr_claims--;
	raw_spin_unlock_irqrestore(&core->lock, flags);
}

/**
 * nvpc_engine_txn() - open or close a perf transaction (pmu_disable and
 *	pmu_enable)
 * @core: the GPU
 * @open: true to open, false to close
 *
 * Adds and dels inside a transaction only update the slot tables; closing
 * the outermost one programs the hardware once.
 */
void nvpc_engine_txn(struct nvpc_core *core, bool open)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&core->lock, flags);
	if (open)
		core->txn++;
	else if (core->txn && !--core->txn)
		nvpc_commit(core);
	raw_spin_unlock_irqrestore(&core->lock, flags);
	if (!open && !core->txn)
		nvpc_poll_kick(core);
}

/*
 * Deleted earlier in this same transaction (perf rotating): an add may
 * take it back as it was. Read once; the tag is cleared.
 */
static bool nvpc_event_rotating(struct nvpc_core *core,
				struct perf_event *event)
{
	bool rotating = core->txn && event->hw.last_tag == core->txn_seq + 1;

	event->hw.last_tag = 0;
	return rotating;
}

/* Put the event on counter @idx, its slots @claimed, in the shadows. */
static void nvpc_event_place(struct nvpc_domain *dom, struct perf_event *event,
			     int idx, unsigned long claimed)
{
	event->hw.idx = idx;
	event->hw.config_base = claimed;
	if (idx == NVPC_CTR_CYCLES) {
		dom->nr_cycles++;
		/* a domain that starts needs a program */
		dom->dirty_mode |= !dom->running;
	} else {
		nvpc_slot_regs(dom, event);
		dom->dirty |= claimed;
	}
	if (FIELD_GET(NVPC_CFG_MODE, event->attr.config) &&
	    !nvpc_is_window(event))
		dom->dirty_mode = true;
}

/*
 * Back before the commit that was to fold its last counts. Where it
 * counted before (@kept) nothing is lost; elsewhere they are folded now,
 * with a swap of its own, from @old_idx.
 */
static void nvpc_event_unleave(struct nvpc_core *core,
			       struct perf_event *event, int old_idx,
			       bool kept)
{
	list_del_init(&event->active_entry);
	event->hw.flags &= ~NVPC_HW_LEAVING;
	if (!kept) {
		nvpc_sample(core, event->pmu_private);
		nvpc_event_fold(event, old_idx);
	}
}

/**
 * nvpc_engine_add() - start counting an event
 * @core: the GPU
 * @event: an initialised event
 *
 * Steps: is it rotating back, allocate its counter, place it in the
 * shadows, keep its count if it is back where it counted, and otherwise
 * start it fresh at the commit.
 *
 * Return: 0, or -ENOSPC when the domain has no free slot (perf then
 * multiplexes), -ENODEV when the device is gone.
 */
int nvpc_engine_add(struct nvpc_core *core, struct perf_event *event)
{
	struct nvpc_domain *dom = event->pmu_private;
	unsigned long flags, claimed;
	bool rotating, kept;
	int idx, old_idx;

	raw_spin_lock_irqsave(&core->lock, flags);
	rotating = nvpc_event_rotating(core, event);
	if (READ_ONCE(core->gone)) {
		/*
		 * Deleted earlier in this transaction (perf's ctx_resched()
		 * dels and adds every event of the context when one opens)
		 * while the GPU was there: the commit would fold its last
		 * counts from hw.idx, which is overwritten below. Fold them
		 * now, without a sample: nothing reads the hardware once the
		 * GPU is gone, so the sums already hold all it counted.
		 */
		if (event->hw.flags & NVPC_HW_LEAVING) {
			list_del_init(&event->active_entry);
			event->hw.flags &= ~NVPC_HW_LEAVING;
			nvpc_event_fold(event, event->hw.idx);
		}
		/*
		 * The GPU went away: the event stays in perf's schedule
		 * (a pinned one would otherwise go to its error state and
		 * read nothing) and keeps its last value (perf.rst)
		 */
		event->hw.idx = NVPC_IDX_DETACHED;
		event->hw.config_base = 0;
		raw_spin_unlock_irqrestore(&core->lock, flags);
		return 0;
	}
	idx = nvpc_slot_alloc(core, core->slots, dom, event, &claimed,
			      rotating ? event->hw.config_base : 0);
	if (idx < 0) {
		raw_spin_unlock_irqrestore(&core->lock, flags);
		nvpc_dbg(core, "domain %s: no free slot\n", dom->name);
		return idx;
	}
	old_idx = event->hw.idx;
	kept = rotating && idx == old_idx && claimed == event->hw.config_base;
	nvpc_event_place(dom, event, idx, claimed);
	/*
	 * Kept: back on the same counter, programmed as before, so the
	 * hardware never stopped counting it and it keeps its count across
	 * the rotation (perf accounts the rotation as running time of the
	 * events it puts back)
	 */
	kept = kept && dom->running && nvpc_slots_programmed(dom, claimed);
	if (event->hw.flags & NVPC_HW_LEAVING)
		nvpc_event_unleave(core, event, old_idx, kept);
	if (!kept) {
		event->hw.flags |= NVPC_HW_FRESH;
		list_add_tail(&event->active_entry, &core->fresh);
	}
	core->nr_active++;
	if (!core->txn)
		nvpc_commit(core);
	raw_spin_unlock_irqrestore(&core->lock, flags);
	if (!core->txn)
		nvpc_poll_kick(core);
	return 0;
}

/**
 * nvpc_engine_del() - stop counting an event and free its slots
 * @core: the GPU
 * @event: an added event
 * @fold: fold in its last counts (false for a stopped event)
 */
void nvpc_engine_del(struct nvpc_core *core, struct perf_event *event,
		     bool fold)
{
	struct nvpc_domain *dom = event->pmu_private;
	unsigned long claims = event->hw.config_base, flags;
	unsigned int s;

	if (event->hw.idx == NVPC_IDX_DETACHED)
		return;
	raw_spin_lock_irqsave(&core->lock, flags);
	if (event->hw.flags & NVPC_HW_FRESH) {
		/* added and deleted in one transaction: it never counted */
		event->hw.flags &= ~NVPC_HW_FRESH;
		list_del_init(&event->active_entry);
	} else if (!core->gen->single && !dom->win.on) {
		/*
		 * Quad mode: the commit's swap ends its period, the same swap
		 * that starts the events added in this transaction
		 */
		if (fold) {
			event->hw.flags |= NVPC_HW_LEAVING;
			list_add_tail(&event->active_entry, &core->leaving);
			dom->leaving |= BIT(event->hw.idx);
		}
		/* an add in this transaction may take it back as it was */
		event->hw.last_tag = core->txn && fold ? core->txn_seq + 1 : 0;
	} else {
		/* one sample of the domain serves every del of a transaction */
		if (!core->txn || dom->sampled_txn != core->txn_seq + 1)
			nvpc_sample(core, dom);
		nvpc_event_update(event, fold);
		/* an add in this transaction may take it back as it was */
		event->hw.last_tag = core->txn && fold ? core->txn_seq + 1 : 0;
	}
	nvpc_slot_free(dom->slots, event);
	if (event->hw.idx == NVPC_CTR_CYCLES) {
		dom->nr_cycles--;
		dom->dirty_mode |= !nvpc_domain_busy(dom);
	}
	for_each_set_bit(s, &claims, NVPC_NR_SLOTS) {
		dom->src[s] = 0;
		dom->op[s] = 0;
	}
	dom->dirty |= claims;
	if (FIELD_GET(NVPC_CFG_MODE, event->attr.config) &&
	    !nvpc_is_window(event))
		dom->dirty_mode = true;
	core->nr_active--;
	if (!core->txn)
		nvpc_commit(core);
	raw_spin_unlock_irqrestore(&core->lock, flags);
	if (!core->txn)
		nvpc_poll_kick(core);
}
