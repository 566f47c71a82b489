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
 * period was lost: it is counted, never hidden.
 */

#include <linux/delay.h>
#include <linux/slab.h>

#include <nvpcounter/regs.h>

#include "core.h"

static enum hrtimer_restart nvpc_poll(struct hrtimer *timer);

/* reads of QUAD_STATE while waiting for a swap to land */
#define NVPC_SWAP_POLLS		64

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

static const struct nvpc_gen_ops *nvpc_gen_ops_for(enum nvpc_gen gen)
{
	switch (gen) {
	case NVPC_GEN_NV40:
		return &nvpc_gen_nv40;
	case NVPC_GEN_G84:
		return &nvpc_gen_g84;
	case NVPC_GEN_G92:
	case NVPC_GEN_GT215:
		return &nvpc_gen_g92;
	case NVPC_GEN_GF100:
		return &nvpc_gen_gf100;
	default:
		return NULL;
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

	core->gen = nvpc_gen_ops_for(chip->gen);
	if (!core->gen)
		return -EOPNOTSUPP;
	hrtimer_init(&core->timer, CLOCK_MONOTONIC,
		     HRTIMER_MODE_REL_PINNED_HARD);
	core->timer.function = nvpc_poll;

	if (chip->gen >= NVPC_GEN_GF100) {
		n = nvpc_catalog_nr_domains(chip, NVPC_DSET_HUB) +
		    hweight32(core->ndev->gpc_mask) *
		    nvpc_catalog_nr_domains(chip, NVPC_DSET_GPC) +
		    hweight32(core->ndev->part_mask) *
		    nvpc_catalog_nr_domains(chip, NVPC_DSET_PART);
	} else {
		n = nvpc_catalog_nr_domains(chip, NVPC_DSET_MAIN);
	}
	core->domains = kcalloc(n, sizeof(*core->domains), GFP_KERNEL);
	if (!core->domains)
		return -ENOMEM;

	if (chip->gen >= NVPC_GEN_GF100) {
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
 * nvpc_engine_fini() - free the domain table
 * @core: the GPU
 */
void nvpc_engine_fini(struct nvpc_core *core)
{
	kfree(core->domains);
	core->domains = NULL;
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

/**
 * nvpc_engine_check() - validate an event's config against its domain
 * @core: the GPU
 * @dom: the domain the event's attr.config1 names
 * @config: the event's attr.config
 *
 * Return: 0, or -EINVAL with a dev_dbg reason.
 */
int nvpc_engine_check(struct nvpc_core *core, struct nvpc_domain *dom,
		      u64 config)
{
	unsigned int j, slot;
	u32 opbits = FIELD_GET(NVPC_CFG_OPBITS, config) << 16;

	if (config & NVPC_CFG_RESERVED) {
		nvpc_dbg(core, "config 0x%llx: reserved bits set\n", config);
		return -EINVAL;
	}
	if (FIELD_GET(NVPC_CFG_CYCLES, config)) {
		if (config & ~NVPC_CFG_CYCLES) {
			nvpc_dbg(core, "cycles takes no signal, op or slot\n");
			return -EINVAL;
		}
		return 0;
	}
	for (j = 0; j < 4; j++) {
		u32 sig = (config >> (8 * j)) & 0xff;

		if (sig >= dom->desc->nr_signals) {
			nvpc_dbg(core, "sig%u 0x%x: domain has 0x%x signals\n",
				 j, sig, dom->desc->nr_signals);
			return -EINVAL;
		}
	}
	slot = FIELD_GET(NVPC_CFG_SLOT, config);
	if (slot > NVPC_NR_SLOTS) {
		nvpc_dbg(core, "slot %u: only 1-4 (pre/start/event/stop)\n",
			 slot);
		return -EINVAL;
	}
	if (slot && (opbits & ~core->gen->opbits[slot - 1])) {
		nvpc_dbg(core, "op bits 0x%x: not on this slot of a %s\n",
			 opbits >> 16, core->gen->name);
		return -EINVAL;
	}
	if (!slot && (opbits & ~core->gen->opbits[NVPC_SLOT_EVENT])) {
		nvpc_dbg(core, "op bits 0x%x: not on a %s\n", opbits >> 16,
			 core->gen->name);
		return -EINVAL;
	}
	return 0;
}

/**
 * nvpc_slot_alloc() - pick the slot an event counts on
 * @dom: the domain
 * @slots: the domain's slot occupancy (the live one, or a copy for group
 *	validation)
 * @config: the event's attr.config (already checked)
 *
 * Return: the slot, NVPC_CTR_CYCLES for a cycles event, or -ENOSPC.
 */
int nvpc_slot_alloc(struct nvpc_domain *dom, struct perf_event **slots,
		    u64 config)
{
	static const u8 order[] = { NVPC_SLOT_EVENT, NVPC_SLOT_START,
				    NVPC_SLOT_PRE, NVPC_SLOT_STOP };
	unsigned int want = FIELD_GET(NVPC_CFG_SLOT, config);
	u32 opbits = FIELD_GET(NVPC_CFG_OPBITS, config) << 16;
	unsigned int i;

	if (FIELD_GET(NVPC_CFG_CYCLES, config))
		return NVPC_CTR_CYCLES;
	if (want)
		return slots[want - 1] ? -ENOSPC : want - 1;
	for (i = 0; i < ARRAY_SIZE(order); i++) {
		/* SETFLAG and the EVENT/STOP bit layout need those slots */
		if ((opbits & NVPC_OP_ES_ARG3_SETFLAG) &&
		    (order[i] == NVPC_SLOT_PRE || order[i] == NVPC_SLOT_START))
			continue;
		if (!slots[order[i]])
			return order[i];
	}
	return -ENOSPC;
}

static void nvpc_domain_sample(struct nvpc_core *core, struct nvpc_domain *dom)
{
	u32 ctr[NVPC_NR_CTRS], state = NVPC_QUAD_EMPTY;
	unsigned int i;

	for (i = 0; i < NVPC_SWAP_POLLS; i++) {
		state = core->gen->read(core, dom, ctr);
		if (state != NVPC_QUAD_EMPTY)
			break;
	}
	if (state == NVPC_QUAD_EMPTY) {
		dom->not_responding++;
		return;
	}
	if (state == NVPC_QUAD_OVERFLOW) {
		/* the visible set is the newest; the one before is lost */
		dom->lost_periods++;
		core->gen->ack(core, dom);
	}
	for (i = 0; i < NVPC_NR_CTRS; i++) {
		if (ctr[i] == U32_MAX)
			dom->saturations++;
		dom->acc[i] += ctr[i];
	}
	core->gen->ack(core, dom);
}

/* Swap every running domain and fold the ended period into the sums. */
static void nvpc_sample(struct nvpc_core *core)
{
	bool swapped = false;
	unsigned int i;

	lockdep_assert_held(&core->lock);
	if (READ_ONCE(core->gone))
		return;
	for (i = 0; i < core->nr_domains; i++) {
		struct nvpc_domain *dom = &core->domains[i];

		if (!dom->running || (core->gen->global_swap && swapped))
			continue;
		core->gen->trigger_swap(core, dom);
		swapped = true;
	}
	for (i = 0; i < core->nr_domains; i++)
		if (core->domains[i].running)
			nvpc_domain_sample(core, &core->domains[i]);
}

/* Move the event to the slot's current sum, adding the growth if @fold. */
static void nvpc_event_update(struct perf_event *event, bool fold)
{
	struct nvpc_domain *dom = event->pmu_private;
	u64 now = dom->acc[event->hw.idx];
	u64 prev = local64_xchg(&event->hw.prev_count, now);

	if (fold)
		local64_add(now - prev, &event->count);
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

	raw_spin_lock_irqsave(&core->lock, flags);
	nvpc_sample(core);
	nvpc_event_update(event, fold);
	raw_spin_unlock_irqrestore(&core->lock, flags);
}

static enum hrtimer_restart nvpc_poll(struct hrtimer *timer)
{
	struct nvpc_core *core = container_of(timer, struct nvpc_core, timer);
	unsigned long flags;
	bool more;

	raw_spin_lock_irqsave(&core->lock, flags);
	nvpc_sample(core);
	more = core->nr_active && !READ_ONCE(core->gone);
	raw_spin_unlock_irqrestore(&core->lock, flags);
	if (!more)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(core->poll_ns));
	return HRTIMER_RESTART;
}

/*
 * The poll period keeps the fastest running domain's 32-bit counters at
 * most half full: 2^31 cycles at its clock.
 */
static void nvpc_poll_update(struct nvpc_core *core)
{
	u64 hz = 1, ns;
	unsigned int i;

	for (i = 0; i < core->nr_domains; i++)
		if (core->domains[i].running)
			hz = max_t(u64, hz, core->domains[i].desc->clock_hz);
	ns = div64_u64(BIT_ULL(31) * NSEC_PER_SEC, hz);
	core->poll_ns = clamp_t(u64, ns, NSEC_PER_MSEC, 10 * NSEC_PER_SEC);
}

/**
 * nvpc_engine_add() - start counting an event
 * @core: the GPU
 * @event: an initialised event
 *
 * Return: 0, or -ENOSPC when the domain has no free slot (perf then
 * multiplexes), -ENODEV when the device is gone.
 */
int nvpc_engine_add(struct nvpc_core *core, struct perf_event *event)
{
	struct nvpc_domain *dom = event->pmu_private;
	u64 config = event->attr.config;
	unsigned long flags;
	int slot, s;

	raw_spin_lock_irqsave(&core->lock, flags);
	if (READ_ONCE(core->gone)) {
		raw_spin_unlock_irqrestore(&core->lock, flags);
		return -ENODEV;
	}
	slot = nvpc_slot_alloc(dom, dom->slot, config);
	if (slot < 0) {
		raw_spin_unlock_irqrestore(&core->lock, flags);
		nvpc_dbg(core, "domain %u.%u.%u: no free slot\n", dom->dset,
			 dom->unit, dom->index);
		return slot;
	}
	event->hw.idx = slot;
	if (slot == NVPC_CTR_CYCLES) {
		dom->nr_cycles++;
	} else {
		u16 op = FIELD_GET(NVPC_CFG_OP, config);

		dom->slot[slot] = event;
		dom->src[slot] = lower_32_bits(config);
		dom->op[slot] = (op ? op : NVPC_OP_ARG0) |
				FIELD_GET(NVPC_CFG_OPBITS, config) << 16;
	}
	if (!dom->running) {
		core->gen->start(core, dom);
		for (s = 0; s < NVPC_NR_SLOTS; s++)
			core->gen->program(core, dom, s);
		dom->running = true;
		nvpc_poll_update(core);
	} else if (slot != NVPC_CTR_CYCLES) {
		core->gen->program(core, dom, slot);
	}
	/* end the current period: the event counts from the next one */
	nvpc_sample(core);
	local64_set(&event->hw.prev_count, dom->acc[slot]);
	core->nr_active++;
	raw_spin_unlock_irqrestore(&core->lock, flags);

	if (!hrtimer_active(&core->timer))
		hrtimer_start(&core->timer, ns_to_ktime(core->poll_ns),
			      HRTIMER_MODE_REL_PINNED_HARD);
	return 0;
}

/**
 * nvpc_engine_del() - stop counting an event and free its slot
 * @core: the GPU
 * @event: an added event
 * @fold: fold in its last counts (false for a stopped event)
 */
void nvpc_engine_del(struct nvpc_core *core, struct perf_event *event,
		     bool fold)
{
	struct nvpc_domain *dom = event->pmu_private;
	unsigned long flags;
	int slot = event->hw.idx;

	raw_spin_lock_irqsave(&core->lock, flags);
	nvpc_sample(core);
	nvpc_event_update(event, fold);
	if (slot == NVPC_CTR_CYCLES) {
		dom->nr_cycles--;
	} else {
		dom->slot[slot] = NULL;
		dom->src[slot] = 0;
		dom->op[slot] = 0;
		if (!READ_ONCE(core->gone))
			core->gen->program(core, dom, slot);
	}
	if (dom->running && !dom->nr_cycles &&
	    !dom->slot[0] && !dom->slot[1] && !dom->slot[2] && !dom->slot[3]) {
		if (!READ_ONCE(core->gone))
			core->gen->stop(core, dom);
		dom->running = false;
	}
	core->nr_active--;
	raw_spin_unlock_irqrestore(&core->lock, flags);
}
