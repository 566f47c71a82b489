// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: unit sums
 *
 * A GF100+ GPU repeats its GPC domains in every GPC and its partition
 * domains in every memory partition (nouveau's PM engine,
 * nvkm/engine/pm/gf100.c: domain placement and unit enumeration). A unit
 * sum is one perf event that counts a domain in every present unit and adds
 * them up: config1 ``allunits`` (the named events of GPC and partition
 * domains carry it), without ``oneunit`` or a unit number::
 *
 *   perf stat -a -e nvpcounter/gpc_d0_user_1/          # every GPC
 *   perf stat -a -e nvpcounter/gpc_d0_user_1,unit=2/   # GPC 2 alone
 *
 * Each unit is an event of its own for the engine (struct nvpc_unit, a
 * copy of the sum's attr naming one unit's domain, which perf never
 * sees), counted, swapped, folded, rotated and detached as a single-unit
 * event is; the engine adds each unit's counts to the sum's count. The
 * units go on and off together: an add places every unit in one engine
 * transaction and takes them all back if one domain has no free slot.
 * A read samples each unit's domain in turn, with interrupts off (at
 * most 4 GPCs and 6 partitions on a GF100).
 */

#include <linux/overflow.h>
#include <linux/slab.h>

#include "engine.h"
#include "slots.h"

/**
 * struct nvpc_unit_sum - a unit sum's units (the sum event's pmu_private)
 * @nr: units, one per present GPC (partition), in unit order
 * @claimed: the units' domains are claimed (nvpc_domain_claim())
 * @units: the units
 */
struct nvpc_unit_sum {
	unsigned int nr;
	bool claimed;
	struct nvpc_unit units[];
};

/**
 * nvpc_units_check() - validate the unit fields of any event
 * @eng: the GPU's engine
 * @event: the event
 *
 * allunits and oneunit name units of a GF100+ GPC or partition domain;
 * a record event has one domain.
 *
 * Return: 0, or -EINVAL with a dev_dbg reason.
 */
int nvpc_units_check(struct nvpc_engine *eng, struct perf_event *event)
{
	u64 c1 = event->attr.config1;
	u8 dset = FIELD_GET(NVPC_CFG1_DSET, c1);

	if (!(c1 & NVPC_CFG1_UNIT_FLAGS))
		return 0;
	if (nvpc_is_record(event)) {
		nvpc_dbg(eng, "allunits/oneunit: a record event has one domain\n");
		return -EINVAL;
	}
	if (!eng->hw.gen->unit_sets ||
	    (dset != NVPC_DSET_ID_GPC && dset != NVPC_DSET_ID_PART)) {
		nvpc_dbg(eng, "allunits/oneunit: set %u of a %s has no units\n",
			 dset, eng->hw.gen->name);
		return -EINVAL;
	}
	return 0;
}

/* Is @dom the domain a sum of set @dset, index @index counts in its unit? */
static bool nvpc_unit_dom(const struct nvpc_domain *dom, u8 dset, u8 index)
{
	return dom->hw->dset == dset && dom->hw->index == index;
}

/*
 * Make @u the engine's event for @dom: the sum's attr naming that unit,
 * every other field as it is (the engine's checks see them all).
 */
static void nvpc_unit_setup(struct perf_event *event, struct nvpc_unit *u,
			    struct nvpc_domain *dom)
{
	u->sum = event;
	u->ev.attr = event->attr;
	u->ev.attr.config1 &= ~(NVPC_CFG1_UNIT | NVPC_CFG1_UNIT_FLAGS);
	u->ev.attr.config1 |= FIELD_PREP(NVPC_CFG1_UNIT, dom->hw->unit);
	u->ev.pmu = event->pmu;
	u->ev.pmu_private = dom;
	u->ev.hw.flags = NVPC_HW_UNIT;
	INIT_LIST_HEAD(&u->ev.active_entry);
}

/**
 * nvpc_units_init() - set up a unit sum's units
 * @eng: the GPU's engine
 * @event: a unit sum (nvpc_is_unit_sum(), nvpc_units_check() passed)
 *
 * Finds the domain in every present unit and checks the event's config
 * against each, as event_init does for one domain. On success the sum's
 * units are its pmu_private; nvpc_units_destroy() frees them.
 *
 * Context: process context (event_init).
 * Return: 0, -EINVAL with a dev_dbg reason, -ENOMEM.
 */
int nvpc_units_init(struct nvpc_engine *eng, struct perf_event *event)
{
	u64 c1 = event->attr.config1;
	u8 dset = FIELD_GET(NVPC_CFG1_DSET, c1);
	u8 index = FIELD_GET(NVPC_CFG1_DOM, c1);
	struct nvpc_unit_sum *sum;
	unsigned int i, n = 0;
	int ret;

	if (c1 & NVPC_CFG1_RESERVED) {
		nvpc_dbg(eng, "config1 0x%llx: reserved bits set\n", c1);
		return -EINVAL;
	}
	for (i = 0; i < eng->hw.nr_domains; i++)
		n += nvpc_unit_dom(&eng->domains[i], dset, index);
	if (!n) {
		nvpc_dbg(eng, "config1 0x%llx: no such domain in any unit\n",
			 c1);
		return -EINVAL;
	}
	sum = kvzalloc(struct_size(sum, units, n), GFP_KERNEL);
	if (!sum)
		return -ENOMEM;
	for (i = 0; i < eng->hw.nr_domains; i++) {
		struct nvpc_domain *dom = &eng->domains[i];
		struct nvpc_unit *u;

		if (!nvpc_unit_dom(dom, dset, index))
			continue;
		u = &sum->units[sum->nr++];
		nvpc_unit_setup(event, u, dom);
		ret = nvpc_engine_check(eng, dom, &u->ev);
		if (ret) {
			kvfree(sum);
			return ret;
		}
	}
	event->pmu_private = sum;
	return 0;
}

/**
 * nvpc_units_claim() - claim every unit's domain for counting
 * @eng: the GPU's engine
 * @event: a unit sum, its units set up
 *
 * All or nothing: a domain that records refuses, and the domains claimed
 * before it are given back.
 *
 * Return: 0 or -EBUSY (nvpc_domain_claim()).
 */
int nvpc_units_claim(struct nvpc_engine *eng, struct perf_event *event)
{
	struct nvpc_unit_sum *sum = event->pmu_private;
	unsigned int i;
	int ret;

	for (i = 0; i < sum->nr; i++) {
		ret = nvpc_domain_claim(eng, sum->units[i].ev.pmu_private,
					NVPC_CLAIM_COUNT);
		if (ret) {
			while (i--)
				nvpc_domain_unclaim(eng,
						    sum->units[i].ev.pmu_private);
			return ret;
		}
	}
	sum->claimed = true;
	return 0;
}

/**
 * nvpc_units_destroy() - give back a unit sum's domains and free its units
 * @eng: the GPU's engine
 * @event: a unit sum, initialised or not
 */
void nvpc_units_destroy(struct nvpc_engine *eng, struct perf_event *event)
{
	struct nvpc_unit_sum *sum = event->pmu_private;
	unsigned int i;

	if (!sum)
		return;
	for (i = 0; i < sum->nr && sum->claimed; i++)
		nvpc_domain_unclaim(eng, sum->units[i].ev.pmu_private);
	kvfree(sum);
	event->pmu_private = NULL;
}

/**
 * nvpc_units_validate() - place a unit sum on group validation's tables
 * @eng: the GPU's engine
 * @tables: throwaway copies of every domain's slot table
 * @event: a unit sum, its units set up
 *
 * The allocator add uses, once per unit (nvpc_slot_alloc()).
 *
 * Return: 0, or -ENOSPC if a unit's domain has no room left.
 */
int nvpc_units_validate(struct nvpc_engine *eng, struct nvpc_slots *tables,
			struct perf_event *event)
{
	struct nvpc_unit_sum *sum = event->pmu_private;
	unsigned long claimed;
	unsigned int i;

	for (i = 0; i < sum->nr; i++) {
		struct nvpc_unit *u = &sum->units[i];

		if (nvpc_slot_alloc(eng, tables, u->ev.pmu_private, &u->ev,
				    &claimed, 0) < 0)
			return -ENOSPC;
	}
	return 0;
}

/*
 * The units of @sum beyond its first that the engine counts (those added
 * after the GPU went away are detached: the engine does not count them).
 */
static void nvpc_units_account(struct nvpc_engine *eng,
			       struct nvpc_unit_sum *sum, bool add)
{
	unsigned int i, n = 0;
	unsigned long flags;

	for (i = 0; i < sum->nr; i++)
		n += sum->units[i].ev.hw.idx != NVPC_IDX_DETACHED;
	if (n < 2)
		return;
	nvpc_lock(eng, flags);
	if (add)
		eng->nr_unit_extra += n - 1;
	else
		eng->nr_unit_extra -= n - 1;
	nvpc_unlock(eng, flags);
}

/*
 * Would every unit get its counter? The allocator tried on the live
 * tables in one lock hold, each domain's table put back as it was, so
 * that no reader ever sees the units of a sum that does not fit.
 * Return: the first unit that finds no room, or @sum->nr.
 */
static unsigned int nvpc_units_fit(struct nvpc_engine *eng,
				   struct nvpc_unit_sum *sum)
{
	unsigned long claimed, flags;
	unsigned int i;

	nvpc_lock(eng, flags);
	for (i = 0; i < sum->nr; i++) {
		struct nvpc_domain *dom = sum->units[i].ev.pmu_private;
		struct nvpc_slots saved = *dom->slots;
		int idx = nvpc_slot_alloc(eng, eng->slots, dom,
					  &sum->units[i].ev, &claimed, 0);

		*dom->slots = saved;
		if (idx < 0)
			break;
	}
	nvpc_unlock(eng, flags);
	return i;
}

/**
 * nvpc_units_add() - start counting every unit of a unit sum, or none
 * @eng: the GPU's engine
 * @event: an initialised unit sum
 *
 * Every unit must fit (nvpc_units_fit()) before any is added. Then one
 * engine transaction adds them: its commit starts every unit with one
 * swap of its domain. Should a unit still find no free slot, the units
 * added before it are taken back inside that transaction (one the
 * transaction added never counted; one perf rotated back is folded by
 * the commit as if it had not come back), so nothing is left claimed or
 * programmed.
 *
 * Return: 0, or -ENOSPC (perf multiplexes the sum).
 */
int nvpc_units_add(struct nvpc_engine *eng, struct perf_event *event)
{
	struct nvpc_unit_sum *sum = event->pmu_private;
	unsigned int i;
	int ret = 0;

	/* after the GPU went away every unit is added detached */
	i = READ_ONCE(eng->gone) ? sum->nr : nvpc_units_fit(eng, sum);
	if (i < sum->nr) {
		struct nvpc_domain *full = sum->units[i].ev.pmu_private;

		nvpc_dbg(eng, "unit sum: no free slot in %s: none of its %u units counts\n",
			 full->hw->name, sum->nr);
		return -ENOSPC;
	}
	nvpc_engine_txn(eng, true);
	for (i = 0; i < sum->nr; i++) {
		ret = nvpc_engine_add(eng, &sum->units[i].ev);
		if (ret)
			break;
	}
	if (ret) {
		while (i--)
			nvpc_engine_del(eng, &sum->units[i].ev, true);
	} else {
		nvpc_units_account(eng, sum, true);
	}
	nvpc_engine_txn(eng, false);
	return ret;
}

/**
 * nvpc_units_del() - stop counting a unit sum
 * @eng: the GPU's engine
 * @event: an added unit sum
 * @fold: fold in the units' last counts (false for a stopped event)
 */
void nvpc_units_del(struct nvpc_engine *eng, struct perf_event *event,
		    bool fold)
{
	struct nvpc_unit_sum *sum = event->pmu_private;
	unsigned int i;

	nvpc_units_account(eng, sum, false);
	nvpc_engine_txn(eng, true);
	for (i = 0; i < sum->nr; i++)
		nvpc_engine_del(eng, &sum->units[i].ev, fold);
	nvpc_engine_txn(eng, false);
}

/**
 * nvpc_units_update() - sample every unit and bring the sum up to date
 * @eng: the GPU's engine
 * @event: an added unit sum
 * @fold: add what the units counted since their last update (false
 *	when restarting a stopped event)
 *
 * Each unit's domain is sampled in a lock hold of its own.
 */
void nvpc_units_update(struct nvpc_engine *eng, struct perf_event *event,
		       bool fold)
{
	struct nvpc_unit_sum *sum = event->pmu_private;
	unsigned int i;

	for (i = 0; i < sum->nr; i++)
		nvpc_engine_update(eng, &sum->units[i].ev, fold);
}
