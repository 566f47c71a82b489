// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter sim: the fast engine's runs (sim_fast.h): which domains run
 * and in which order (sets one after the other, interleaved sets with
 * live imports, every domain in global order where GF100+ domains share
 * the MAIN record buffer), lazy domains and their catch-up, the cost
 * estimate of nvpc_sim_advance_bounded(), and the engine's table.
 */
#include "sim_fast.h"

/* largest hyperperiod of a lazy domain: bounds the work of its catch-up */
#define FA_LAZY_HYPER_MAX	NVPC_SIM_FA_PATTERN

/* ---- cost estimate (nvpc_sim_advance_bounded()) ---- */

static u64 fa_chunks(u64 todo, unsigned int lim)
{
	/* a plan, a partial chunk, a chunk split at a 64-cycle block */
	return todo / lim + 3;
}

/*
 * fa_hyper() of @todo cycles if it runs them without a skip: the plan, the
 * chunk of a pending write, plain chunks. Else (the span is long enough
 * to skip) ~0.
 */
static u64 fa_short_cost(const struct nvpc_sim_dom *d, u64 todo)
{
	const struct nvpc_sim_fa_plan *fa = &d->fa;
	u64 c = d->cycle, p;

	if (fa->steady)
		p = fa_pending(&d->hw);
	else if (fa->dry)
		p = fa_dry_first(d, todo);
	else
		p = fa_pending(&d->hw) ? (todo < 64 ? todo : 64) : 0;
	if (fa->steady ? todo - p >= fa->hyper + fa->tail :
	    fa->dry ? todo - p >= 2 * fa->hyper + fa->tail :
	    fa_hyper_worth(fa->hyper, fa->tail, todo - p))
		return ~0ULL;
	return 1 + fa_plain_chunks(c, p, 64) + fa_plain_chunks(c + p, todo - p,
							      64);
}

/*
 * Work of running @d @todo cycles, as fa_run() would: fa_cost_prepare().
 * A span short enough to run without a skip costs its chunks (a few units
 * for a few cycles); a domain that may skip hyperperiods gets one flat
 * estimate for every longer span, the larger of a skip and of the longest
 * span it runs without one, which is at least the cost of any shorter
 * span: a longer span then never costs less than a shorter one, so that
 * nvpc_sim_advance_bounded() can bisect, and never settles for short
 * plain steps when a skip of the whole span costs little more.
 */
static u64 fa_dom_cost(const struct nvpc_sim_dom *d, u64 todo)
{
	const struct nvpc_sim_fa_plan *fa = &d->fa;
	u64 l = fa->hyper, plain, skip;

	if (!todo)
		return 0;
	if (!fa->skips) {	/* the plan, then chunks */
		plain = 1 + fa_plain_chunks(d->cycle, todo, fa->limit);
		/* or record packets in closed form, if that costs less */
		skip = fa->rec_skips ? fa_rec_cost(d, todo) : ~0ULL;
		/* a measurement splits the span at periods: a few chunks */
		if (fa->rec_measures)
			plain += FA_REC_MEASURE_COST;
		return plain < skip ? plain : skip;
	}
	plain = fa_short_cost(d, todo);
	if (plain != ~0ULL)
		return plain;
	if (!l)	/* a pending write's chunk, then plain chunks */
		return fa_chunks(todo, 64) + 2;
	/*
	 * fa_hyper_steady(): the plan, the pending cycle, then fewer than
	 * l + tail cycles without a skip or after it
	 */
	if (fa->steady)
		return 1 + !!fa_pending(&d->hw) + fa_max_chunks(l + fa->tail - 1);
	/*
	 * fa_hyper_dry(): the plan, the first chunk, one period evaluated,
	 * fewer than l + tail cycles after the skip; or the longest span run
	 * without a skip, if that costs more
	 */
	if (fa->dry) {
		plain = 1 + !!fa_dry_first(d, todo) +
			fa_max_chunks(2 * l + fa->tail - 1);
		skip = 2 + !!fa_dry_first(d, todo) +
		       fa_max_chunks(l + fa->tail - 1);
		return plain > skip ? plain : skip;
	}
	/* pending chunk, then below fa_hyper_worth() */
	plain = fa_chunks(64 + 4 * l + 2 + fa->tail, 64) + 2;
	/* pending chunk, warm-up, one period, the tail and the rest of a
	 * period
	 */
	skip = fa_chunks(2 * l + 2 + fa->tail + l, 64) + 8;
	return plain > skip ? plain : skip;
}

/*
 * DOC: lazy domains
 *
 * A domain is lazy when its cycles change nothing that anyone can observe
 * but its cycle count, its FLAG and EVENT histories, its last EVENT input
 * and last source values, and the PERIODIC trailer's position: every one
 * of its counters, states and registers stands still. That is:
 *
 *  - single event mode INACTIVE (pcounter.rst "Single event mode": no
 *    counting, "flag is frozen when in INACTIVE state"), or halted (GF100+
 *    MODE 0 and the undocumented modes); never quad mode (the counters
 *    count) nor record mode (packets);
 *  - no write effect pending (PRE_OP written, an abort, a swap, a
 *    PM_TRIGGER or USER pulse: they act on the next cycle);
 *  - it reads no other domain's FLAG or EVENT, nor its own EVENT (the
 *    one-cycle feedback), and no domain of its set selects its FLAG or
 *    EVENT in a SRC or SPEC_SRC byte (pcounter.rst "The EVENT and FLAG
 *    signals": the importer reads its history);
 *  - its sources repeat with a hyperperiod of at most FA_LAZY_HYPER_MAX
 *    cycles (constant and periodic waveforms, own FLAG, the PERIODIC
 *    trailer, USER levels), so that its catch-up skips hyperperiods
 *    (fa_hyper()) in bounded work whatever the span;
 *  - &nvpc_sim.eager is not set.
 *
 * Runs (fa_run()) skip lazy domains: their &nvpc_sim_dom.cycle stays
 * behind. Nothing but a register write, a waveform change or the other
 * calls of sim_model.c changes whether a domain is lazy, and each of those
 * first brings the domains it touches to the model time: fa_catch_up()
 * runs the domain alone, as fa_run_set() would have (fa_hyper(): its state
 * repeats, so skipping whole hyperperiods and refilling the histories with
 * the tail leaves exactly the state of a run of every cycle; being neither
 * importer nor imported, the domain's cycles need no order against the
 * other domains'). The observation points (sim_model.c, sim_regs.c): every
 * register read or write of the domain (its domain set for STATUS and
 * SRC_STATUS reads and for SRC/SPEC_SRC writes whose value, or the value
 * they replace, selects another domain's FLAG or EVENT: only those change
 * which domains are imported; every domain for the global
 * registers: PGRAPH PM_TRIGGER, NV10:NV40 shared CTRL and QUAD_ACK,
 * GCTRL, GF100+ set controls and MAIN, PMC.ENABLE), nvpc_sim_cycles(),
 * waveform changes, fault injection, nvpc_sim_pm_trigger() and
 * nvpc_sim_catch_up() (copies and comparisons of the whole model). A
 * settle never concerns a lazy domain (quad mode only).
 */

/* bit x: a domain of the set starting at @first imports domain x's signals */
static u32 fa_set_imports(struct nvpc_sim *sim, unsigned int first,
			  unsigned int count)
{
	unsigned int i, n, j, nsrc, kind;
	u32 m = 0;
	u8 k;

	nsrc = nvpc_sim_nr_src(sim);
	for (i = first; i < first + count; i++) {
		const struct nvpc_sim_dom *y = &sim->dom[i];

		for (n = 0; n <= nsrc; n++) {
			for (j = 0; j < 4; j++) {
				if (n == nsrc && (j || !sim->facts->spec_src))
					continue;
				k = y->sig[n == nsrc ? y->hw.spec_src & 0xff :
					   (y->hw.src[n] >> (8 * j)) & 0xff];
				kind = NVPC_SIM_SIG_KIND(k);
				if (kind == NVPC_SIM_SIG_IMP_FLAG ||
				    kind == NVPC_SIM_SIG_IMP_EVENT)
					m |= BIT(NVPC_SIM_SIG_ARG(k));
			}
		}
	}
	return m;
}

/*
 * "DOC: lazy domains", the conditions on the registers and waveforms
 * (those that only change with &nvpc_sim.cfg_gen); @imports:
 * fa_set_imports() of its set
 */
static bool fa_lazy_config(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
			   u32 imports)
{
	u64 l;

	if ((imports & BIT(d->index)) ||
	    (fa_refs(sim, d) & (FA_REF_EVENT | FA_REF_IMPORT)))
		return false;
	/* as it will be once a pending pulse is over */
	l = fa_hyperperiod_after(sim, d);
	d->fa.lazy_hyper = l;
	return l && l <= FA_LAZY_HYPER_MAX;
}

/* the conditions on the counting state, which the cycles may change */
static bool fa_lazy_state(const struct nvpc_sim_hw *hw)
{
	if (fa_rec_outgoing(hw))
		return false;	/* a packet lands: memory sees it */
	if (hw->mode == NVPC_SIM_MODE_SINGLE)
		return hw->single_state == NVPC_SINGLE_INACTIVE &&
		       !fa_pending(hw);
	return hw->mode == NVPC_SIM_MODE_HALTED && !fa_pending(hw);
}

/*
 * Decide which domains runs skip (&nvpc_sim_fa_plan.lazy). The decoding
 * of the registers is kept while &nvpc_sim.cfg_gen stays (every run and
 * estimate would redo it otherwise: about a microsecond on a G84).
 */
static void fa_mark_lazy(struct nvpc_sim *sim)
{
	bool on = !sim->eager && nvpc_sim_enabled(sim);
	unsigned int i, j;
	u32 imp;

	if (on && sim->lazy_gen != sim->cfg_gen) {
		for (i = 0; i < sim->nr_dom; i += sim->dom[i].set_count) {
			imp = fa_set_imports(sim, i, sim->dom[i].set_count);
			for (j = i; j < i + sim->dom[i].set_count; j++)
				sim->dom[j].fa.lazy_config =
					fa_lazy_config(sim, &sim->dom[j], imp);
		}
		sim->lazy_gen = sim->cfg_gen;
	}
	for (i = 0; i < sim->nr_dom; i++)
		sim->dom[i].fa.lazy = on && sim->dom[i].fa.lazy_config &&
				      fa_lazy_state(&sim->dom[i].hw);
}

/* bring a lazy domain to the model time: fa_run_set() for it alone */
static void fa_catch_up(struct nvpc_sim *sim, unsigned int dom)
{
	struct nvpc_sim_dom *d = &sim->dom[dom];
	u64 target = nvpc_sim_target(d, sim->now);

	if (d->cycle >= target)
		return;
	if (!nvpc_sim_enabled(sim)) {
		d->cycle = target;	/* as fa_run(): in reset, no cycle runs */
		return;
	}
	/* a lazy domain's FLAG is still, so chunks of 64 see it (fa_chunk) */
	fa_plan(sim, d);
	fa_hyper(sim, d, target - d->cycle);
}

/* ---- scheduling ---- */

static void fa_run_set(struct nvpc_sim *sim, unsigned int first,
		       unsigned int count, u64 until)
{
	unsigned int i, lim[8], best, refs;
	bool interleave = false;
	u64 t, tb, todo;

	for (i = 0; i < count; i++) {
		struct nvpc_sim_dom *d = &sim->dom[first + i];

		if (d->fa.lazy || d->cycle >= nvpc_sim_target(d, until)) {
			lim[i] = 1;
			continue;
		}
		refs = fa_refs(sim, d);
		lim[i] = fa_limit(d, refs);
		if (refs & FA_REF_IMPORT)
			interleave = true;
		fa_plan(sim, d);
	}
	if (!interleave) {
		for (i = 0; i < count; i++) {
			struct nvpc_sim_dom *d = &sim->dom[first + i];

			if (d->fa.lazy || d->cycle >= nvpc_sim_target(d, until))
				continue;
			todo = nvpc_sim_target(d, until) - d->cycle;
			if (fa_hyper_mode(d, lim[i]))
				fa_hyper(sim, d, todo);
			else if (fa_rec_mode(sim, d, lim[i]))
				fa_rec_run(sim, d, todo);
			else
				fa_plain(sim, d, todo, lim[i]);
		}
		return;
	}
	/* in global start-tick order, one chunk at a time */
	for (;;) {
		best = count;
		tb = 0;
		for (i = 0; i < count; i++) {
			struct nvpc_sim_dom *d = &sim->dom[first + i];

			if (d->fa.lazy || d->cycle >= nvpc_sim_target(d, until))
				continue;
			t = d->cycle * d->period;
			if (best == count || t < tb) {
				best = i;
				tb = t;
			}
		}
		if (best == count)
			return;
		{
			struct nvpc_sim_dom *d = &sim->dom[first + best];

			todo = nvpc_sim_target(d, until) - d->cycle;
			fa_chunk(sim, d, todo < lim[best] ? todo : lim[best],
				 true);
		}
	}
}

/* GF100+ domains that may write to the shared MAIN record buffer */
static unsigned int fa_gf_recorders(const struct nvpc_sim *sim)
{
	unsigned int i, n = 0;

	if (!sim->facts->gf100_layout)
		return 0;
	for (i = 0; i < sim->nr_dom; i++)
		n += (sim->dom[i].hw.mode == NVPC_SIM_MODE_RECORD &&
		      !sim->dom[i].hw.rec_wedged) ||
		     fa_rec_outgoing(&sim->dom[i].hw);
	return n;
}

/*
 * Several GF100+ domains in record mode share the MAIN record buffer
 * (sim_regs.c "GF100+ record mode"): the order of their packet writes and
 * of the LIMIT check is the global order of their cycles. They run one
 * cycle at a time, every domain in the oracle's order (start tick, then
 * flat index); the other domains keep their chunks (they touch no shared
 * state; inside a set this is the interleaved order of fa_run_set()).
 */
static void fa_run_global(struct nvpc_sim *sim, u64 until)
{
	unsigned int i, best, n;
	u64 t, tb, todo;

	for (i = 0; i < sim->nr_dom; i++) {
		struct nvpc_sim_dom *d = &sim->dom[i];

		if (d->fa.lazy || d->cycle >= nvpc_sim_target(d, until))
			continue;
		d->fa.limit = d->hw.mode == NVPC_SIM_MODE_RECORD ||
			      fa_rec_outgoing(&d->hw) ? 1 :
			      fa_limit(d, fa_refs(sim, d));
		fa_plan(sim, d);
	}
	for (;;) {
		best = sim->nr_dom;
		tb = 0;
		for (i = 0; i < sim->nr_dom; i++) {
			struct nvpc_sim_dom *d = &sim->dom[i];

			if (d->fa.lazy || d->cycle >= nvpc_sim_target(d, until))
				continue;
			t = d->cycle * d->period;
			if (best == sim->nr_dom || t < tb) {
				best = i;
				tb = t;
			}
		}
		if (best == sim->nr_dom)
			return;
		{
			struct nvpc_sim_dom *d = &sim->dom[best];

			todo = nvpc_sim_target(d, until) - d->cycle;
			n = todo < d->fa.limit ? todo : d->fa.limit;
			/* as fa_plain(): 64-cycle chunks on random blocks */
			if (d->fa.limit == 64 && d->cycle % 64 &&
			    n > 64 - d->cycle % 64)
				n = 64 - d->cycle % 64;
			fa_chunk(sim, d, n, true);
		}
	}
}

static void fa_run_sets(struct nvpc_sim *sim, u64 until)
{
	unsigned int i;

	for (i = 0; i < sim->nr_dom; i += sim->dom[i].set_count)
		fa_run_set(sim, i, sim->dom[i].set_count, until);
}

static void fa_run(struct nvpc_sim *sim, u64 until)
{
	u64 fast = sim->stats.record_fast_packets;
	u64 cyc = sim->stats.record_cycle_packets;
	unsigned int i;

	if (!nvpc_sim_enabled(sim)) {
		for (i = 0; i < sim->nr_dom; i++)
			sim->dom[i].cycle = nvpc_sim_target(&sim->dom[i], until);
		return;
	}
	/* lazy domains touch no shared state: the record buffer neither */
	fa_mark_lazy(sim);
	if (fa_gf_recorders(sim) > 1)
		fa_run_global(sim, until);
	else
		fa_run_sets(sim, until);
	/* which path wrote this run's record packets */
	if (sim->stats.record_fast_packets != fast)
		sim->stats.record_last_fast = true;
	else if (sim->stats.record_cycle_packets != cyc)
		sim->stats.record_last_fast = false;
}

/*
 * The decisions fa_run() takes from the registers, for the cost estimate:
 * the chunk limit of each domain and whether it may skip hyperperiods.
 */
static void fa_cost_prepare(struct nvpc_sim *sim)
{
	bool global = fa_gf_recorders(sim) > 1, interleave;
	unsigned int i, j, refs;

	fa_mark_lazy(sim);
	for (i = 0; i < sim->nr_dom; i += sim->dom[i].set_count) {
		interleave = false;
		for (j = i; j < i + sim->dom[i].set_count; j++) {
			struct nvpc_sim_dom *d = &sim->dom[j];

			refs = fa_refs(sim, d);
			d->fa.limit = global &&
				      (d->hw.mode == NVPC_SIM_MODE_RECORD ||
				       fa_rec_outgoing(&d->hw)) ? 1 :
				      fa_limit(d, refs);
			interleave |= !!(refs & FA_REF_IMPORT);
		}
		for (j = i; j < i + sim->dom[i].set_count; j++) {
			struct nvpc_sim_dom *d = &sim->dom[j];

			/* a lazy domain's catch-up: fa_catch_up() */
			if (d->fa.lazy)
				d->fa.limit = 64;
			d->fa.skips = d->fa.lazy ||
				      (!global && !interleave &&
				       fa_hyper_mode(d, d->fa.limit));
			d->fa.tail = fa_hyper_tail(sim, d);
			d->fa.steady = fa_steady(sim, d);
			d->fa.rec_skips = !global && !interleave &&
					  !d->fa.lazy &&
					  fa_rec_mode(sim, d, d->fa.limit) &&
					  fa_rec_steady(sim, d);
			if (d->fa.rec_skips)
				d->fa.rec_room = fa_rec_room(sim, d);
			d->fa.rec_measures = !global && !interleave &&
					     !d->fa.lazy &&
					     fa_rec_mode(sim, d, d->fa.limit) &&
					     !d->fa.rec_skips;
			d->fa.dry = false;
			if (d->fa.skips && d->fa.steady) {
				d->fa.hyper = d->fa.st_period;
			} else if (d->fa.lazy) {
				/* decoded with the lazy config, not again */
				d->fa.hyper = d->fa.lazy_hyper;
			} else {
				d->fa.hyper = d->fa.skips ?
					      fa_hyperperiod_after(sim, d) : 0;
				d->fa.dry = d->fa.skips &&
					    fa_dry_ok(sim, d, d->fa.hyper);
			}
		}
	}
}

static u64 fa_cost(struct nvpc_sim *sim, u64 until)
{
	unsigned int i;
	u64 n = 0, t;

	if (!nvpc_sim_enabled(sim))
		return 0;
	for (i = 0; i < sim->nr_dom; i++) {
		t = nvpc_sim_target(&sim->dom[i], until);
		if (!sim->dom[i].fa.lazy && t > sim->dom[i].cycle)
			n += fa_dom_cost(&sim->dom[i], t - sim->dom[i].cycle);
	}
	return n;
}

/* fa_catch_up() of a lazy domain once the model time is @until */
static u64 fa_catch_up_cost(struct nvpc_sim *sim, unsigned int dom, u64 until)
{
	const struct nvpc_sim_dom *d = &sim->dom[dom];
	u64 t = nvpc_sim_target(d, until);

	if (!d->fa.lazy || t <= d->cycle || !nvpc_sim_enabled(sim))
		return 0;
	return fa_dom_cost(d, t - d->cycle);
}

const struct nvpc_sim_engine nvpc_sim_engine_fast = {
	.name = "fast",
	.run = fa_run,
	.signal = fa_engine_signal,
	.settle = fa_settle,
	.land = nvpc_sim_record_write,
	.cost_prepare = fa_cost_prepare,
	.cost = fa_cost,
	.catch_up = fa_catch_up,
	.catch_up_cost = fa_catch_up_cost,
};
