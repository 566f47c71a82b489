// SPDX-License-Identifier: GPL-2.0
/*
 * Quad event mode (pcounter.rst "Quad event mode"), NV30 onwards: a
 * domain counts its four inputs and its cycles into a visible set of
 * counters and a hidden one; a swap exchanges them, and the visible set
 * then holds the period that ended at the swap. Summing every period
 * gives exact 64-bit totals. A swap seen in OVERFLOW state means a period
 * was lost, and a counter read at 0xffffffff saturated: both are counted
 * and shown, never added as if they were counts.
 *
 * A sample swaps the domain (one PGRAPH PM_TRIGGER pulse swaps every
 * domain of a @global_swap generation) and marks it swapped; the collect
 * after it (nvpc_quad_collect()) polls it until the swap has landed.
 * The events a commit adds or deletes start and end their period at the
 * commit's one swap per domain: a del leaves the event's last counts to
 * the commit (NVPC_HW_LEAVING), which folds them after that swap.
 */

#include <linux/ktime.h>
#include <linux/slab.h>

#include <nvpcounter/regs.h>

#include "engine.h"

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
 * struct nvpc_quad - a quad mode domain's period bookkeeping
 * @swapped: a sample or the commit ended the domain's period and
 *	nvpc_quad_collect() has not read it yet
 * @leaving: counters (BIT(hw.idx)) of events deleted since the last
 *	commit, read at the commit
 * @events: those events (linked by active_entry), folded at the commit
 * @started: the domain entered quad mode and no swap has been read since:
 *	no period of its events can be lost yet
 */
struct nvpc_quad {
	bool swapped;
	u8 leaving;
	struct list_head events;
	bool started;
};

static void *nvpc_quad_setup(struct nvpc_engine *eng)
{
	struct nvpc_quad *q = kzalloc(sizeof(*q), GFP_KERNEL);

	if (q)
		INIT_LIST_HEAD(&q->events);
	return q;
}

/* the domain's quad state if it is claimed for quad mode, else NULL */
static struct nvpc_quad *nvpc_quad_of(struct nvpc_domain *dom)
{
	return dom->mode == &nvpc_mode_quad ? dom->priv : NULL;
}

/* the same for a domain that runs quad mode (its state is there) */
static struct nvpc_quad *nvpc_quad_running(struct nvpc_domain *dom)
{
	return dom->run == &nvpc_mode_quad ? dom->priv : NULL;
}

/*
 * Poll a swapped domain once: one read of its counters and QUAD_STATE
 * and, if its swap has landed, the ended period folded into its sums and
 * acked. Return: true while the swap has not landed.
 */
static bool nvpc_quad_poll(struct nvpc_engine *eng, struct nvpc_domain *dom,
			   u64 now)
{
	struct nvpc_quad *q = dom->priv;
	unsigned long used = nvpc_domain_used(dom) | q->leaving;
	u64 ctr[NVPC_NR_CTRS] = { 0 };
	u32 state = eng->hw.gen->read(&eng->hw, dom->hw, used, ctr);
	unsigned int i;

	/* the backend found the device gone during the reads */
	if (READ_ONCE(eng->gone))
		return false;
	if (state == NVPC_QUAD_EMPTY)
		return true;
	if (state == NVPC_QUAD_OVERFLOW) {
		/*
		 * The visible set is the newest; the one before is lost,
		 * unless the domain has only just entered quad mode: a
		 * PGRAPH PM_TRIGGER pulse sent before (another domain's
		 * swap, NV30:G84) that the domain saw at its next cycle,
		 * already in quad mode, swapped it once more, and no
		 * event counted in that set (nvpc_quad_start())
		 */
		if (!q->started)
			dom->stats.lost_periods++;
		eng->hw.gen->ack(&eng->hw, dom->hw);
		dom->clock_win_ns = 0;
	} else if (ctr[NVPC_CTR_CYCLES] != U32_MAX) {
		nvpc_clock_measure(dom, ctr[NVPC_CTR_CYCLES], now);
	}
	q->started = false;
	dom->sample_ns = now;
	dom->stats.samples++;
	for_each_set_bit(i, &used, NVPC_NR_CTRS) {
		if (ctr[i] == U32_MAX) {
			/* the true count is unknown: never add it */
			dom->stats.saturations++;
			dev_warn_ratelimited(eng->hw.dev,
					     "%s: domain %s: counter %u saturated, period left out\n",
					     eng->hw.name, dom->hw->name, i);
			continue;
		}
		dom->acc[i] += ctr[i];
	}
	eng->hw.gen->ack(&eng->hw, dom->hw);
	return false;
}

/* a swap pulse went out since the last collect (a global swap: one) */
static bool nvpc_quad_pulsed(struct nvpc_engine *eng)
{
	unsigned int i;

	for (i = 0; i < eng->hw.nr_domains; i++) {
		struct nvpc_quad *q = nvpc_quad_running(&eng->domains[i]);

		if (q && q->swapped)
			return true;
	}
	return false;
}

/* End the domain's period: swap it, nvpc_quad_collect() reads it. */
static void nvpc_quad_sample(struct nvpc_engine *eng, struct nvpc_domain *dom,
			     u64 now)
{
	struct nvpc_quad *q = dom->priv;

	if (!eng->hw.gen->global_swap || !nvpc_quad_pulsed(eng))
		eng->hw.gen->trigger_swap(&eng->hw, dom->hw);
	q->swapped = true;
}

/*
 * Read the periods a sample or commit ended in the domains of [@first,
 * @end) (&nvpc_mode_ops.collect): each swapped domain is polled once, and
 * the stragglers (not landed at their first poll, counted) are polled
 * again in turn, NVPC_SWAP_POLLS polls for all of them together. At most
 * (end - first) + NVPC_SWAP_POLLS polls, however many straggle; a domain
 * still waiting after them did not respond: its period is not read.
 */
static void nvpc_quad_collect(struct nvpc_engine *eng, unsigned int first,
			      unsigned int end, u64 now)
{
	unsigned int i, polls = NVPC_SWAP_POLLS;
	bool waiting = false;

	for (i = first; i < end; i++) {
		struct nvpc_domain *d = &eng->domains[i];
		struct nvpc_quad *q = nvpc_quad_running(d);

		if (!q || !q->swapped)
			continue;
		d->sampled_txn = eng->txn ? eng->txn_seq + 1 : 0;
		q->swapped = nvpc_quad_poll(eng, d, now);
		if (q->swapped)
			d->stats.stragglers++;
		waiting |= q->swapped;
	}
	while (waiting && polls) {
		waiting = false;
		for (i = first; i < end && polls; i++) {
			struct nvpc_domain *d = &eng->domains[i];
			struct nvpc_quad *q = nvpc_quad_running(d);

			if (!q || !q->swapped)
				continue;
			polls--;
			q->swapped = nvpc_quad_poll(eng, d, now);
			waiting |= q->swapped;
		}
	}
	for (i = first; i < end; i++) {
		struct nvpc_domain *d = &eng->domains[i];
		struct nvpc_quad *q = nvpc_quad_running(d);

		if (!q || !q->swapped)
			continue;
		q->swapped = false;
		d->stats.not_responding++;
		dev_warn_ratelimited(eng->hw.dev,
				     "%s: domain %s: swap did not land within the sample's polls, no counts read\n",
				     eng->hw.name, d->hw->name);
	}
}

/*
 * First step of a commit: end the current period of every running domain
 * with events leaving or arriving, with one swap each (one for all where
 * the swap is global). The events arriving count from this swap, those
 * leaving up to it; the domain is read after its new inputs are written,
 * so that nothing lies between the two.
 */
static void nvpc_quad_commit_begin(struct nvpc_engine *eng, bool dirty)
{
	const struct nvpc_gen_ops *gen = eng->hw.gen;
	struct perf_event *event;
	bool any = false;
	unsigned int i;

	if (READ_ONCE(eng->gone))
		return;
	/* (every domain's @swapped is clear: each sample collected its own) */
	list_for_each_entry(event, &eng->fresh, active_entry) {
		struct nvpc_quad *q = nvpc_quad_running(event->pmu_private);

		if (q)
			q->swapped = true;
	}
	for (i = 0; i < eng->hw.nr_domains; i++) {
		struct nvpc_quad *q = nvpc_quad_running(&eng->domains[i]);

		if (!q)
			continue;
		q->swapped |= !!q->leaving;
		any |= q->swapped;
	}
	if (!any)
		return;
	for (i = 0; i < eng->hw.nr_domains; i++) {
		struct nvpc_domain *d = &eng->domains[i];
		struct nvpc_quad *q = nvpc_quad_running(d);

		if (!gen->global_swap) {
			if (q && q->swapped)
				gen->trigger_swap(&eng->hw, d->hw);
			continue;
		}
		/* one pulse swaps every running quad-mode domain */
		if (q)
			q->swapped = true;
		if (d->run && any) {
			gen->trigger_swap(&eng->hw, d->hw);
			any = false;
		}
	}
	/* the period of the events added starts at this swap */
	for (i = 0; i < eng->hw.nr_domains; i++) {
		struct nvpc_quad *q = nvpc_quad_running(&eng->domains[i]);

		if (q && q->swapped)
			eng->domains[i].commit_seq = eng->txn_seq + 1;
	}
}

/*
 * Last step of a commit, its swaps collected: fold the last counts of the
 * events that left, up to the swap that ended their period.
 */
static void nvpc_quad_commit_end(struct nvpc_engine *eng)
{
	struct perf_event *event, *tmp;
	unsigned int i;

	for (i = 0; i < eng->hw.nr_domains; i++) {
		struct nvpc_quad *q = nvpc_quad_of(&eng->domains[i]);

		if (!q)
			continue;
		list_for_each_entry_safe(event, tmp, &q->events, active_entry) {
			nvpc_event_fold(event, event->hw.idx);
			event->hw.flags &= ~NVPC_HW_LEAVING;
			list_del_init(&event->active_entry);
		}
		q->leaving = 0;
	}
}

/*
 * An event leaves a running domain (&nvpc_mode_ops.del): the commit's
 * swap ends its period, the same swap that starts the events added in
 * this transaction; the commit folds its last counts.
 */
static void nvpc_quad_leave(struct nvpc_engine *eng, struct perf_event *event,
			    bool fold)
{
	struct nvpc_domain *dom = event->pmu_private;
	struct nvpc_quad *q = dom->priv;

	if (!fold)
		return;
	event->hw.flags |= NVPC_HW_LEAVING;
	list_add_tail(&event->active_entry, &q->events);
	q->leaving |= BIT(event->hw.idx);
}

/*
 * Back before the commit that was to fold its last counts
 * (&nvpc_mode_ops.back). Where it counted before (@kept) nothing is lost;
 * elsewhere they are folded now, with a swap of its own, from @old_idx.
 */
static void nvpc_quad_back(struct nvpc_engine *eng, struct perf_event *event,
			   int old_idx, bool kept)
{
	list_del_init(&event->active_entry);
	event->hw.flags &= ~NVPC_HW_LEAVING;
	if (!kept) {
		nvpc_engine_sample(eng, event->pmu_private);
		nvpc_event_fold(event, old_idx);
	}
}

/*
 * A fresh event counts from a swap of this commit: a domain the commit's
 * first swap did not reach (started by it, or given a new counter mode
 * after it) gets one of its own.
 */
static void nvpc_quad_fresh(struct nvpc_engine *eng, struct nvpc_domain *dom)
{
	unsigned int i;

	if (dom->commit_seq == eng->txn_seq + 1)
		return;
	nvpc_engine_sample(eng, eng->hw.gen->global_swap ? NULL : dom);
	for (i = 0; i < eng->hw.nr_domains; i++)
		if (eng->hw.gen->global_swap ? !!eng->domains[i].run :
					     &eng->domains[i] == dom)
			eng->domains[i].commit_seq = eng->txn_seq + 1;
}

static void nvpc_quad_update(struct nvpc_engine *eng, struct nvpc_domain *dom,
			     unsigned long dirty)
{
	nvpc_event_program(eng, dom, dirty);
}

/*
 * Enter quad mode (&nvpc_mode_ops.start). A swap pulse sent just before
 * (NV30:G84: PGRAPH PM_TRIGGER reaches every domain, at each domain's
 * next cycle) may land after this CTRL write, in quad mode: the first
 * read may then find OVERFLOW though no period of the domain's events
 * was lost (their period starts at the commit's swap): not counted as
 * one. Found by nvpc doctor --hardware on a fresh simulated NV30 and
 * NV40 (the last domain started, whose slower clock had not reached its
 * next cycle).
 */
static void nvpc_quad_start(struct nvpc_engine *eng, struct nvpc_domain *dom)
{
	struct nvpc_quad *q = dom->priv;

	nvpc_domain_program(eng, dom);
	q->started = true;
}

static void nvpc_quad_stop(struct nvpc_engine *eng, struct nvpc_domain *dom)
{
	eng->hw.gen->stop(&eng->hw, dom->hw);
}

/* the counters a sample must catch before they are half full */
static unsigned int nvpc_quad_width(struct nvpc_engine *eng)
{
	return 32;
}

const struct nvpc_mode_ops nvpc_mode_quad = {
	.name = "quad",
	.setup = nvpc_quad_setup,
	.start = nvpc_quad_start,
	.update = nvpc_quad_update,
	.stop = nvpc_quad_stop,
	.sample = nvpc_quad_sample,
	.collect = nvpc_quad_collect,
	.commit_begin = nvpc_quad_commit_begin,
	.commit_end = nvpc_quad_commit_end,
	.fresh = nvpc_quad_fresh,
	.del = nvpc_quad_leave,
	.back = nvpc_quad_back,
	.set_ctr_mode = nvpc_domain_set_ctr_mode,
	.width = nvpc_quad_width,
};
