// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter sim: the fast engine's hyperperiod extrapolation
 * (sim_fast.h). In quad, single event and halted modes with only
 * periodic or constant live sources, one hyperperiod is measured (or, for
 * a memoryless quad-mode domain, evaluated without running) and the rest
 * of the span is skipped in whole periods.
 */
#include "sim_fast.h"

#define FA_HYPER_MAX	BIT(22)	/* largest hyperperiod measured */

static u64 fa_lcm(u64 a, u64 b)
{
	u64 x = a, y = b, t;

	if (b == 1)	/* constant sources: no division */
		return a;

	while (y) {
		t = x % y;
		x = y;
		y = t;
	}
	a /= x;
	if (a > FA_HYPER_MAX / b)
		return 0;
	return a * b;
}

/* period of a live signal: 1 constant, 0 not periodic */
static u64 fa_sig_period(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
			 unsigned int s, bool *zero)
{
	const struct nvpc_sim_wave *w = &d->wave[s];
	struct nvpc_sim_hw *hw = &d->hw;
	u8 k = d->sig[s];

	*zero = false;
	switch (NVPC_SIM_SIG_KIND(k)) {
	case NVPC_SIM_SIG_WAVE:
		if (w->kind == NVPC_SIM_WAVE_CONST) {
			*zero = !(w->value & 1);
			return 1;
		}
		if (w->kind == NVPC_SIM_WAVE_PERIODIC) {
			*zero = !w->width;
			return w->period;
		}
		return 0;
	case NVPC_SIM_SIG_ZERO:
		*zero = true;
		return 1;
	case NVPC_SIM_SIG_FLAG:
		return 1;	/* periodic once the hyperperiod repeats */
	case NVPC_SIM_SIG_PM_TRIGGER:
		*zero = true;
		return hw->pend_pm ? 0 : 1;
	case NVPC_SIM_SIG_USER:
		*zero = !((hw->user_value >> NVPC_SIM_SIG_ARG(k)) & 1);
		return hw->pend_user_clear ? 0 : 1;
	case NVPC_SIM_SIG_PERIODIC:
		if (!hw->periodic_sel ||
		    (nvpc_sim_set_ctrl(sim, d) & NVPC_GCTRL_PERIODIC_RESET)) {
			*zero = true;
			return 1;
		}
		return NVPC_PERIODIC_CLOCKS(hw->periodic_sel);
	default:
		return 0;
	}
}

/*
 * The hyperperiod of a domain's live sources, 0 if one is not periodic.
 * Quad mode: the swap source must stay quiet over the whole span.
 */
u64 fa_hyperperiod(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	struct nvpc_sim_hw *hw = &d->hw;
	unsigned int i, j, nsrc;
	u64 l = 1, p;
	bool zero;

	nsrc = nvpc_sim_nr_src(sim);
	for (i = 0; i < nsrc; i++) {
		for (j = 0; j < 4; j++) {
			p = fa_sig_period(sim, d, (hw->src[i] >> (8 * j)) & 0xff,
					  &zero);
			if (!p)
				return 0;
			l = fa_lcm(l, p);
			if (!l)
				return 0;
		}
	}
	if (sim->facts->spec_src && hw->mode == NVPC_SIM_MODE_QUAD) {
		fa_sig_period(sim, d, hw->spec_src & 0xff, &zero);
		if (!zero)
			return 0;
	}
	return l;
}

/*
 * The hyperperiod fa_hyper() finds once it ran the chunk of a pending
 * write: PM_TRIGGER and USER pulses are over then.
 */
u64 fa_hyperperiod_after(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	struct nvpc_sim_hw *hw = &d->hw;
	u8 pm = hw->pend_pm, uc = hw->pend_user_clear;
	u32 uv = hw->user_value;
	u64 l;

	hw->pend_pm = 0;
	if (uc)
		hw->user_value &= ~hw->user_pulse;
	hw->pend_user_clear = 0;
	l = fa_hyperperiod(sim, d);
	hw->pend_pm = pm;
	hw->pend_user_clear = uc;
	hw->user_value = uv;
	return l;
}

/* a register write's effect, consumed by the domain's next cycle */
bool fa_pending(const struct nvpc_sim_hw *hw)
{
	return hw->pend_abort || hw->pend_start || hw->pend_swap ||
	       hw->pend_pm || hw->pend_user_clear || hw->swap_settled ||
	       hw->start_settled;
}

/* modes whose state repeats with the sources (record mode writes memory) */
bool fa_hyper_mode(const struct nvpc_sim_dom *d, unsigned int lim)
{
	/* a packet landing is no period's: run past it (fa_record_land()) */
	return lim == 64 && !fa_rec_outgoing(&d->hw) &&
	       (d->hw.mode == NVPC_SIM_MODE_QUAD ||
			     d->hw.mode == NVPC_SIM_MODE_SINGLE ||
			     d->hw.mode == NVPC_SIM_MODE_HALTED);
}

/*
 * Cycles run after a skip so that the synchroniser history holds every
 * cycle another domain of the set may look up once it imports this one's
 * FLAG or EVENT (sim_model.h: J(k) reaches 2 cycles of the importer back,
 * 3 in PULSE mode, and the interleaved order keeps the importer within a
 * chunk of this domain), never more than the history.
 */
u32 fa_hyper_tail(const struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	u64 pmax = d->period, r;
	unsigned int i;

	/* the clocks do not change for the model's life (0: not known yet) */
	if (d->fa.tail_clk)
		return d->fa.tail_clk;
	for (i = d->set_first; i < d->set_first + d->set_count; i++)
		if (sim->dom[i].period > pmax)
			pmax = sim->dom[i].period;
	r = 3 * ((pmax + d->period - 1) / d->period) + 8;
	d->fa.tail_clk = r < NVPC_SIM_HIST ? r : NVPC_SIM_HIST;
	return d->fa.tail_clk;
}

/* at least two periods skipped: worth the measurement */
bool fa_hyper_worth(u64 l, u32 tail, u64 todo)
{
	return l && todo >= 4 * l + 2 + tail;
}

struct fa_snap {
	u32 prev_raw, moves;
	u8 prev_event, latch, latch_d1, quad_state, single_state;
	u64 ctr[NVPC_SIM_NR_CTRS];
};

static void fa_snap(const struct nvpc_sim_dom *d, struct fa_snap *s)
{
	const struct nvpc_sim_hw *hw = &d->hw;

	s->prev_raw = hw->prev_raw;
	s->moves = d->fa.moves;
	s->prev_event = hw->prev_event;
	s->latch = hw->latch;
	s->latch_d1 = hw->latch_d1;
	s->quad_state = hw->quad_state;
	s->single_state = hw->single_state;
	/* the counters that count: the shadow ones in quad mode */
	memcpy(s->ctr, hw->mode == NVPC_SIM_MODE_QUAD ? hw->shadow : hw->ctr,
	       sizeof(s->ctr));
}

static u64 fa_sat_mul(u64 a, u64 b)
{
	if (a && b > ~0ULL / a)
		return ~0ULL;
	return a * b;
}

/*
 * The steady state of a quad-mode domain (&nvpc_sim_fa_plan.steady): its
 * state repeats every hyperperiod and nothing that decides how it counts
 * changed since it was measured (&nvpc_sim.cfg_gen). Swaps and acks keep
 * it: they move the shadow counters, never the state that feeds back into
 * counting (delayed sources, FLAG latch, own EVENT).
 */
bool fa_steady(const struct nvpc_sim *sim, const struct nvpc_sim_dom *d)
{
	return d->fa.steady && d->fa.st_gen == sim->cfg_gen &&
	       d->hw.mode == NVPC_SIM_MODE_QUAD;
}

/* add @m periods of @inc to the counting counters and move time on */
static void fa_skip(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 m, u64 l,
		    const u64 *inc)
{
	struct nvpc_sim_hw *hw = &d->hw;
	u64 *ctr = hw->mode == NVPC_SIM_MODE_QUAD ? hw->shadow : hw->ctr;
	unsigned int i;

	if (hw->mode != NVPC_SIM_MODE_HALTED)
		for (i = 0; i < NVPC_SIM_NR_CTRS; i++)
			ctr[i] = nvpc_sim_ctr_add(sim->gen, ctr[i],
						  fa_sat_mul(m, inc[i]));
	d->cycle += m * l;
	if (!(nvpc_sim_set_ctrl(sim, d) & NVPC_GCTRL_PERIODIC_RESET))
		hw->periodic_g += m * l;
}

/*
 * A quad-mode domain in its steady state skips without measuring again:
 * the cycle of a pending swap (or other one-cycle write effect that leaves
 * the counting alone, see nvpc_sim_keeps_counting()), then whole periods
 * of the increments measured before, then the tail that refills the
 * history. Any l consecutive cycles of the orbit add the same amounts.
 */
static void fa_hyper_steady(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
			    u64 todo)
{
	u64 l = d->fa.st_period, m;
	u32 tail = fa_hyper_tail(sim, d);

	if (fa_pending(&d->hw)) {
		fa_plain(sim, d, 1, 64);
		todo--;
	}
	if (todo < l + tail) {
		fa_plain(sim, d, todo, 64);
		return;
	}
	m = (todo - tail) / l;
	fa_skip(sim, d, m, l, d->fa.st_inc);
	fa_plain(sim, d, todo - m * l, 64);
}

/*
 * DOC: memoryless quad-mode domains
 *
 * A quad-mode domain that reads neither its own FLAG nor its own EVENT nor
 * another domain's counts in each cycle what its sources in that cycle and
 * in the one before (the delayed arguments, pcounter.rst "Input
 * selection") select: nothing else it keeps feeds back into counting. Once
 * one cycle ran with its current registers and waveforms, so that the
 * sources of the cycle before are those of its periodic orbit, any l
 * consecutive cycles add the same amounts, l being the hyperperiod of its
 * sources (the lcm of their periods, fa_hyperperiod(): known without
 * running). For l <= 64 one period is evaluated on the plan's words
 * without running it (fa_dry(), one unit of work), instead of running a
 * warm-up and a measured period (about 2l + 2 cycles). The FLAG latch,
 * which such a domain keeps following (SETFLAG/CLRFLAG) without reading
 * it, is put where the skipped periods leave it. This keeps the first
 * skip after every reprogramming (perf's rotation of multiplexed events
 * rewrites a SRC and an OP) as cheap as a skip in the steady state.
 */

/* a quad-mode domain that qualifies, of hyperperiod @l */
bool fa_dry_ok(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 l)
{
	return d->hw.mode == NVPC_SIM_MODE_QUAD && l && l <= 64 &&
	       !(fa_refs(sim, d) & (FA_REF_FLAG | FA_REF_EVENT | FA_REF_IMPORT));
}

/*
 * An op may take a delayed argument: the source of the cycle before must
 * be on the orbit, so one cycle runs first (any delay bit of any op, also
 * where the table ignores the argument: the estimate tells the same from
 * the registers alone).
 */
static bool fa_dry_warm(const struct nvpc_sim_hw *hw)
{
	unsigned int i;

	for (i = 0; i < NVPC_NR_INPUTS; i++)
		if (hw->op[i] & GENMASK(20, 16))
			return true;
	return false;
}

/* cycles of the first chunk of fa_hyper_dry(): up to a 64-cycle block */
u64 fa_dry_first(const struct nvpc_sim_dom *d, u64 todo)
{
	u64 n = 64 - d->cycle % 64;

	if (!fa_pending(&d->hw) && !fa_dry_warm(&d->hw))
		return 0;
	return todo < n ? todo : n;
}

/*
 * One period of @l (<= 64) cycles of a memoryless domain from its next
 * cycle, evaluated on the plan's words and nothing run: what each counter
 * adds (@inc), and the FLAG latch after whole periods from the second one
 * on (@latch after a period's last cycle, @latch_d1 after the one before:
 * once a period has run, every period starts from the same latch).
 */
static void fa_dry(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
		   unsigned int l, u64 *inc, u8 *latch, u8 *latch_d1)
{
	struct nvpc_sim_fa_plan *fa = &d->fa;
	struct nvpc_sim_hw *hw = &d->hw;
	u32 pos[NVPC_SIM_NR_SLOTS + 1];
	struct fa_chunk c;
	unsigned int i;
	u64 lw;

	sim->work++;
	if (fa->cycle != d->cycle)
		fa_plan_sync(d);
	c.k = d->cycle;
	c.n = l;
	c.mask = fa_mask(l);
	c.flag_bytes = 0;
	c.flagsig = 0;	/* not read */
	for (i = 0; i < fa->nr_periodic; i++)
		pos[i] = fa->slot[fa->periodic[i]].pos;
	fa_chunk_words(sim, d, &c, 16, true);
	for (i = 0; i < fa->nr_periodic; i++)
		fa->slot[fa->periodic[i]].pos = pos[i];
	c.in[NVPC_INPUT_SETFLAG] = fa_input(hw, &c,
					    &fa->op[NVPC_INPUT_SETFLAG]);
	c.in[NVPC_INPUT_CLRFLAG] = fa_input(hw, &c,
					    &fa->op[NVPC_INPUT_CLRFLAG]);
	for (i = 0; i < 4; i++)
		c.in[i] = fa_input(hw, &c, &fa->op[i]);
	fa_quad_inc(hw, &c, c.mask, inc);
	/* the latch after the first period, then the second from there */
	lw = fa_latch_scan(c.in[NVPC_INPUT_SETFLAG],
			   c.in[NVPC_INPUT_CLRFLAG], hw->latch, c.mask);
	*latch = (lw >> (l - 1)) & 1;
	lw = fa_latch_scan(c.in[NVPC_INPUT_SETFLAG],
			   c.in[NVPC_INPUT_CLRFLAG], *latch, c.mask);
	*latch_d1 = l > 1 ? (lw >> (l - 2)) & 1 : *latch;
}

/*
 * fa_hyper() of a memoryless domain ("DOC: memoryless quad-mode
 * domains"): the first chunk if a write's effect is pending or an op may
 * delay, then one period evaluated, m >= 2 periods skipped, the tail. It
 * is the domain's steady state from then on.
 */
static void fa_hyper_dry(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
			 u64 todo)
{
	struct nvpc_sim_hw *hw = &d->hw;
	u64 l, m, p, inc[NVPC_SIM_NR_CTRS];
	u8 latch, latch_d1;
	u32 tail;

	p = fa_dry_first(d, todo);
	if (p) {
		fa_plain(sim, d, p, 64);
		todo -= p;
	}
	l = fa_hyperperiod(sim, d);
	tail = fa_hyper_tail(sim, d);
	if (!l || todo < 2 * l + tail) {
		fa_plain(sim, d, todo, 64);
		return;
	}
	fa_dry(sim, d, l, inc, &latch, &latch_d1);
	m = (todo - tail) / l;
	fa_skip(sim, d, m, l, inc);
	hw->latch = latch;
	hw->latch_d1 = latch_d1;
	fa_plain(sim, d, todo - m * l, 64);
	d->fa.steady = true;
	d->fa.st_gen = sim->cfg_gen;
	d->fa.st_period = l;
	memcpy(d->fa.st_inc, inc, sizeof(inc));
}

/*
 * Quad, single event and halted modes with periodic sources: run one
 * hyperperiod l after a warm-up (delays, the FLAG pipeline); if the state
 * came back (same latch, delayed sources, QUAD_STATE, single event state
 * with no state change or PRE countdown in between), every later period
 * adds the same amounts to the counters: skip m periods at once. The
 * counters add as pcounter.rst "Counters" has it (nvpc_sim_ctr_add():
 * 32-bit saturating; 40-bit with the low 39 bits wrapping and bit 39
 * sticky, so the increments of a period are counted modulo 2^39). A
 * quad-mode domain keeps what it measured for its next runs (steady
 * state), so that the swap of every read does not cost a new measurement.
 */
void fa_hyper(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 todo)
{
	struct nvpc_sim_hw *hw = &d->hw;
	struct fa_snap s0, s1;
	u64 l, m, i, inc[NVPC_SIM_NR_CTRS];
	bool sat = false;
	u32 tail;

	if (fa_steady(sim, d)) {
		fa_hyper_steady(sim, d, todo);
		return;
	}
	d->fa.steady = false;
	if (fa_dry_ok(sim, d, fa_hyperperiod_after(sim, d))) {
		fa_hyper_dry(sim, d, todo);
		return;
	}
	/* a register write's effect lasts one cycle: run past it */
	if (fa_pending(hw)) {
		l = todo < 64 ? todo : 64;
		fa_plain(sim, d, l, 64);
		todo -= l;
		if (!todo)
			return;
	}
	l = fa_hyperperiod(sim, d);
	tail = fa_hyper_tail(sim, d);
	if (!fa_hyper_worth(l, tail, todo)) {
		fa_plain(sim, d, todo, 64);
		return;
	}
	fa_plain(sim, d, l + 2, 64);
	fa_snap(d, &s0);
	fa_plain(sim, d, l, 64);
	fa_snap(d, &s1);
	todo -= 2 * l + 2;
	if (s0.prev_raw != s1.prev_raw || s0.prev_event != s1.prev_event ||
	    s0.latch != s1.latch || s0.latch_d1 != s1.latch_d1 ||
	    s0.quad_state != s1.quad_state ||
	    (hw->mode == NVPC_SIM_MODE_SINGLE &&
	     (s0.single_state != s1.single_state || s0.moves != s1.moves))) {
		fa_plain(sim, d, todo, 64);
		return;
	}
	for (i = 0; i < NVPC_SIM_NR_CTRS; i++) {
		inc[i] = s1.ctr[i] - s0.ctr[i];
		if (sim->facts->ctr40)
			inc[i] &= GENMASK_ULL(38, 0);
		else
			sat |= s1.ctr[i] >= 0xffffffffULL;
	}
	/* skip whole periods; keep a tail that refills the history */
	m = (todo - tail) / l;
	fa_skip(sim, d, m, l, inc);
	fa_plain(sim, d, todo - m * l, 64);
	/* a saturated counter hides the increments: measure again later */
	if (hw->mode == NVPC_SIM_MODE_QUAD && !sat) {
		d->fa.steady = true;
		d->fa.st_gen = sim->cfg_gen;
		d->fa.st_period = l;
		memcpy(d->fa.st_inc, inc, sizeof(inc));
	}
}
