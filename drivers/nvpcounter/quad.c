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
 * domain of a @global_swap generation) and marks it swapped; the engine's
 * collect then polls it (nvpc_quad_poll()) until the swap has landed.
 * The events a commit adds or deletes start and end their period at the
 * commit's one swap per domain.
 */

#include <linux/ktime.h>

#include <nvpcounter/regs.h>

#include "engine.h"

/*
 * Poll a swapped domain once: one read of its counters and QUAD_STATE
 * and, if its swap has landed, the ended period folded into its sums and
 * acked. Return: true while the swap has not landed.
 */
static bool nvpc_quad_poll(struct nvpc_engine *eng, struct nvpc_domain *dom,
			   u64 now)
{
	unsigned long used = nvpc_domain_used(dom);
	u64 ctr[NVPC_NR_CTRS] = { 0 };
	u32 state = eng->hw.gen->read(&eng->hw, dom->hw, used, ctr);
	unsigned int i;

	/* the backend found the device gone during the reads */
	if (READ_ONCE(eng->gone))
		return false;
	if (state == NVPC_QUAD_EMPTY)
		return true;
	if (state == NVPC_QUAD_OVERFLOW) {
		/* the visible set is the newest; the one before is lost */
		dom->stats.lost_periods++;
		eng->hw.gen->ack(&eng->hw, dom->hw);
		dom->clock_win_ns = 0;
	} else if (ctr[NVPC_CTR_CYCLES] != U32_MAX) {
		nvpc_clock_measure(dom, ctr[NVPC_CTR_CYCLES], now);
	}
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

	for (i = 0; i < eng->hw.nr_domains; i++)
		if (eng->domains[i].swapped)
			return true;
	return false;
}

/* End the domain's period: swap it, the engine's collect reads it. */
static void nvpc_quad_sample(struct nvpc_engine *eng, struct nvpc_domain *dom,
			     u64 now)
{
	if (!eng->hw.gen->global_swap || !nvpc_quad_pulsed(eng))
		eng->hw.gen->trigger_swap(&eng->hw, dom->hw);
	dom->swapped = true;
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
	list_for_each_entry(event, &eng->fresh, active_entry) {
		struct nvpc_domain *dom = event->pmu_private;

		dom->swapped = dom->run == &nvpc_mode_quad;
	}
	for (i = 0; i < eng->hw.nr_domains; i++) {
		struct nvpc_domain *d = &eng->domains[i];

		d->swapped |= d->run && d->leaving;
		any |= d->swapped;
	}
	if (!any)
		return;
	for (i = 0; i < eng->hw.nr_domains; i++) {
		struct nvpc_domain *d = &eng->domains[i];

		if (!gen->global_swap) {
			if (d->swapped)
				gen->trigger_swap(&eng->hw, d->hw);
			continue;
		}
		/* one pulse swaps every running quad-mode domain */
		d->swapped = d->run == &nvpc_mode_quad;
		if (d->run && any) {
			gen->trigger_swap(&eng->hw, d->hw);
			any = false;
		}
	}
	/* the period of the events added starts at this swap */
	for (i = 0; i < eng->hw.nr_domains; i++)
		if (eng->domains[i].swapped)
			eng->domains[i].commit_seq = eng->txn_seq + 1;
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
	.start = nvpc_domain_program,
	.update = nvpc_quad_update,
	.stop = nvpc_quad_stop,
	.sample = nvpc_quad_sample,
	.poll = nvpc_quad_poll,
	.commit_begin = nvpc_quad_commit_begin,
	.fresh = nvpc_quad_fresh,
	.del = nvpc_event_leave,
	.set_ctr_mode = nvpc_domain_set_ctr_mode,
	.width = nvpc_quad_width,
};
