// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter sim: the oracle. A deliberately naive engine that processes
 * one cycle of one domain at a time, in global time order, written straight
 * from the pseudo-code and the prose of pcounter.rst. Used only by the
 * tests, to check the fast engine (sim_fast.h) against.
 */
#include "sim_internal.h"

static int or_hist(struct nvpc_sim *sim, struct nvpc_sim_dom *x, bool flag,
		   s64 j)
{
	if (j < 0)
		return 0;
	if ((u64)j >= x->cycle || x->cycle - (u64)j > NVPC_SIM_HIST) {
		sim->stats.history_misses++;
		return 0;
	}
	return nvpc_sim_hist_bit(flag ? x->hw.hist_flag : x->hw.hist_event, j);
}

/* the cycle of x that domain y sees in its cycle k: "two y clocks ago" */
static s64 or_sync_index(struct nvpc_sim_dom *y, struct nvpc_sim_dom *x, s64 k)
{
	if (k < 2)
		return -1;
	return (s64)(((u64)k - 2) * y->period / x->period);
}

/* pcounter.rst "The EVENT and FLAG signals": CONTINUOUS and PULSE */
static int or_import(struct nvpc_sim *sim, struct nvpc_sim_dom *y,
		     unsigned int xi, bool flag, u64 k)
{
	struct nvpc_sim_dom *x = &sim->dom[y->set_first + xi];
	bool pulse = flag ? y->hw.flag_import_pulse : y->hw.event_import_pulse;
	s64 j, j0;

	if (!sim->facts->import_pulse)
		pulse = false;	/* NV20:NV40 have the plain synchroniser */
	j = or_sync_index(y, x, k);
	if (!pulse)
		return or_hist(sim, x, flag, j);
	j0 = or_sync_index(y, x, (s64)k - 1);
	for (j0 = j0 + 1; j0 <= j; j0++)
		if (or_hist(sim, x, flag, j0) && !or_hist(sim, x, flag, j0 - 1))
			return 1;
	return 0;
}

static int or_periodic(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	u32 x;

	/* pcounter.rst "The PERIODIC signal" */
	if (!d->hw.periodic_sel ||
	    (nvpc_sim_set_ctrl(sim, d) & NVPC_GCTRL_PERIODIC_RESET))
		return 0;
	x = NVPC_PERIODIC_CLOCKS(d->hw.periodic_sel);
	return d->hw.periodic_g % x == x - 1;
}

/* value of signal s of domain d in its cycle d->cycle */
static int or_signal(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
		     unsigned int s)
{
	u8 k;

	if (s >= NVPC_SIM_NR_SIGNALS)
		return 0;
	k = d->sig[s];
	switch (NVPC_SIM_SIG_KIND(k)) {
	case NVPC_SIM_SIG_WAVE:
		return nvpc_sim_wave_bit(&d->wave[s], d->cycle);
	case NVPC_SIM_SIG_FLAG:
		return d->hw.latch_d1;
	case NVPC_SIM_SIG_EVENT:
		return d->hw.prev_event;
	case NVPC_SIM_SIG_IMP_FLAG:
		return or_import(sim, d, NVPC_SIM_SIG_ARG(k), true, d->cycle);
	case NVPC_SIM_SIG_IMP_EVENT:
		return or_import(sim, d, NVPC_SIM_SIG_ARG(k), false, d->cycle);
	case NVPC_SIM_SIG_PM_TRIGGER:
		return d->hw.pend_pm;
	case NVPC_SIM_SIG_PERIODIC:
		return or_periodic(sim, d);
	case NVPC_SIM_SIG_USER:
		return (d->hw.user_value >> NVPC_SIM_SIG_ARG(k)) & 1;
	default:
		return 0;
	}
}

static int or_engine_signal(struct nvpc_sim *sim, unsigned int dom,
			    unsigned int sig)
{
	if (dom >= sim->nr_dom)
		return 0;
	return or_signal(sim, &sim->dom[dom], sig);
}

struct or_cycle {
	int raw[NVPC_NR_INPUTS][4];	/* SRC[j] of each input */
	int prev[NVPC_NR_INPUTS][4];	/* the same, previous cycle */
	int in[NVPC_NR_INPUTS];		/* PRE, START, EVENT, STOP, SET, CLR */
};

/* pcounter.rst "Input selection", steps 1-8 */
static int or_input(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
		    struct or_cycle *c, unsigned int n)
{
	u32 op = d->hw.op[n];
	int src[4], psrc[4], arg[4], j;
	bool es = n == NVPC_INPUT_EVENT || n == NVPC_INPUT_STOP;

	for (j = 0; j < 4; j++) {
		if (n < NVPC_INPUT_SETFLAG || sim->facts->flag_own_src) {
			src[j] = c->raw[n][j];
			psrc[j] = c->prev[n][j];
		} else if (n == NVPC_INPUT_SETFLAG) {
			/* START_SRC[2], START_SRC[3], PRE_SRC[0], PRE_SRC[1] */
			src[j] = j < 2 ? c->raw[NVPC_INPUT_START][j + 2] :
					 c->raw[NVPC_INPUT_PRE][j - 2];
			psrc[j] = j < 2 ? c->prev[NVPC_INPUT_START][j + 2] :
					  c->prev[NVPC_INPUT_PRE][j - 2];
		} else {
			/* PRE_SRC[2], PRE_SRC[3], START_SRC[0], START_SRC[1] */
			src[j] = j < 2 ? c->raw[NVPC_INPUT_PRE][j + 2] :
					 c->raw[NVPC_INPUT_START][j - 2];
			psrc[j] = j < 2 ? c->prev[NVPC_INPUT_PRE][j + 2] :
					  c->prev[NVPC_INPUT_START][j - 2];
		}
		arg[j] = src[j];
	}
	if (op & NVPC_OP_DELAY0)
		arg[0] = psrc[0];
	if (op & NVPC_OP_DELAY1)
		arg[1] = psrc[1];
	if (sim->facts->delayed_args) {
		if (op & (es ? NVPC_OP_ES_ARG2_DELAYED_SRC0 :
			  NVPC_OP_ARG2_DELAYED_SRC0))
			arg[2] = psrc[0];
		if (op & (es ? NVPC_OP_ES_ARG3_DELAYED_SRC1 :
			  NVPC_OP_ARG3_DELAYED_SRC1))
			arg[3] = psrc[1];
	}
	if (sim->facts->quad && es && (op & NVPC_OP_ES_ARG3_SETFLAG))
		arg[3] = c->in[NVPC_INPUT_SETFLAG];
	return (op >> (arg[0] | arg[1] << 1 | arg[2] << 2 | arg[3] << 3)) & 1;
}

static void or_swap(struct nvpc_sim_dom *d)
{
	struct nvpc_sim_hw *hw = &d->hw;
	int i, times = 1;

	if (d->no_swap)
		return;
	/* "Quad event mode": copy, clear, bump EMPTY->VALID->OVERFLOW */
	for (i = 0; i < NVPC_SIM_NR_CTRS; i++) {
		hw->ctr[i] = hw->shadow[i];
		if (!(d->keep_ctrs & BIT(i)))
			hw->shadow[i] = 0;
	}
	if (d->lost_swaps) {
		d->lost_swaps--;
		times = 2;
	}
	for (i = 0; i < times; i++)
		hw->quad_state = hw->quad_state == NVPC_QUAD_EMPTY ?
				 NVPC_QUAD_VALID : NVPC_QUAD_OVERFLOW;
}

static void or_flag(struct nvpc_sim_hw *hw, struct or_cycle *c)
{
	/* "The flag": CLRFLAG wins over SETFLAG */
	if (c->in[NVPC_INPUT_SETFLAG])
		hw->latch = 1;
	if (c->in[NVPC_INPUT_CLRFLAG])
		hw->latch = 0;
}

static int or_b4(struct or_cycle *c)
{
	return c->raw[NVPC_INPUT_START][0] | c->raw[NVPC_INPUT_START][1] << 1 |
	       c->raw[NVPC_INPUT_START][2] << 2 |
	       c->raw[NVPC_INPUT_START][3] << 3;
}

static int or_b6(struct or_cycle *c)
{
	return or_b4(c) | c->raw[NVPC_INPUT_EVENT][2] << 4 |
	       c->raw[NVPC_INPUT_EVENT][3] << 5;
}

static int or_b2(struct or_cycle *c)
{
	return c->raw[NVPC_INPUT_EVENT][0] | c->raw[NVPC_INPUT_EVENT][1] << 1;
}

/* "Special counter modes": the CTR_EVENT increment */
static int or_event_inc(struct nvpc_sim_hw *hw, struct or_cycle *c)
{
	int ev = c->in[NVPC_INPUT_EVENT];

	switch (hw->ctr_mode) {
	case NVPC_CTR_MODE_EVENT_B4:
		return ev ? or_b4(c) : 0;
	case NVPC_CTR_MODE_EVENT_B6:
		return ev ? or_b6(c) : 0;
	case NVPC_CTR_MODE_EXTRA_B6_EVENT_B2:
		return or_b2(c);
	default:
		return ev;
	}
}

static void or_single(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
		      struct or_cycle *c)
{
	struct nvpc_sim_hw *hw = &d->hw;
	u8 gen = sim->gen;

	if (hw->start_settled) {
		/*
		 * the PRE_OP write's cycle, whose state change
		 * nvpc_sim_settle() did: the flag clears
		 */
		hw->latch = 0;
		if (!hw->pend_abort)
			return;
	}
	/* pcounter.rst "Single event mode", the pseudo-code */
	switch (hw->single_state) {
	case NVPC_SINGLE_INACTIVE:
		if (hw->pend_start) {
			nvpc_sim_single_start_ctrs(hw);
			hw->latch = 0;
			hw->single_state = NVPC_SINGLE_WAIT_PRE;
		}
		break;
	case NVPC_SINGLE_WAIT_PRE:
		or_flag(hw, c);
		if (c->in[NVPC_INPUT_PRE]) {
			if (hw->ctr[NVPC_SIM_CTR_PRE] != 0)
				hw->ctr[NVPC_SIM_CTR_PRE]--;
			else
				hw->single_state = NVPC_SINGLE_WAIT_START;
		}
		break;
	case NVPC_SINGLE_WAIT_START:
		or_flag(hw, c);
		if (c->in[NVPC_INPUT_START]) {
			hw->ctr[NVPC_SIM_CTR_CYCLES] = 0;
			hw->ctr[NVPC_SIM_CTR_CYCLES_ALT] = 0;
			if (!sim->facts->event_ctr_period || !hw->event_ctr_all)
				hw->ctr[NVPC_SIM_CTR_EVENT] = 0;
			hw->single_state = NVPC_SINGLE_COUNTING;
		}
		break;
	case NVPC_SINGLE_COUNTING:
		or_flag(hw, c);
		hw->ctr[NVPC_SIM_CTR_CYCLES] =
			nvpc_sim_ctr_add(gen, hw->ctr[NVPC_SIM_CTR_CYCLES], 1);
		hw->ctr[NVPC_SIM_CTR_CYCLES_ALT] =
			nvpc_sim_ctr_add(gen, hw->ctr[NVPC_SIM_CTR_CYCLES_ALT], 1);
		hw->ctr[NVPC_SIM_CTR_EVENT] =
			nvpc_sim_ctr_add(gen, hw->ctr[NVPC_SIM_CTR_EVENT],
					 or_event_inc(hw, c));
		if (hw->ctr_mode == NVPC_CTR_MODE_EXTRA_B4)
			hw->ctr[NVPC_SIM_CTR_PRE] =
				nvpc_sim_ctr_add(gen, hw->ctr[NVPC_SIM_CTR_PRE],
						 or_b4(c));
		else if (hw->ctr_mode == NVPC_CTR_MODE_EXTRA_B6_EVENT_B2)
			hw->ctr[NVPC_SIM_CTR_PRE] =
				nvpc_sim_ctr_add(gen, hw->ctr[NVPC_SIM_CTR_PRE],
						 or_b6(c));
		if (c->in[NVPC_INPUT_STOP]) {
			if (hw->ctr[NVPC_SIM_CTR_EVENT] >= hw->threshold)
				hw->ctr[NVPC_SIM_CTR_START] =
					nvpc_sim_ctr_add(gen,
							 hw->ctr[NVPC_SIM_CTR_START],
							 1);
			if (hw->ctr[NVPC_SIM_CTR_STOP] != 0) {
				hw->ctr[NVPC_SIM_CTR_STOP]--;
				hw->single_state = NVPC_SINGLE_WAIT_START;
			} else {
				hw->single_state = NVPC_SINGLE_INACTIVE;
			}
		}
		break;
	}
}

static void or_quad(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
		    struct or_cycle *c, int swap)
{
	struct nvpc_sim_hw *hw = &d->hw;
	u64 *s = hw->shadow;
	u8 gen = sim->gen;
	int start;

	/* the swap happens before this cycle's counting */
	if (swap)
		or_swap(d);
	s[NVPC_SIM_CTR_CYCLES] = nvpc_sim_ctr_add(gen, s[NVPC_SIM_CTR_CYCLES], 1);
	s[NVPC_SIM_CTR_CYCLES_ALT] =
		nvpc_sim_ctr_add(gen, s[NVPC_SIM_CTR_CYCLES_ALT], 1);
	s[NVPC_SIM_CTR_PRE] = nvpc_sim_ctr_add(gen, s[NVPC_SIM_CTR_PRE],
					       c->in[NVPC_INPUT_PRE]);
	s[NVPC_SIM_CTR_STOP] = nvpc_sim_ctr_add(gen, s[NVPC_SIM_CTR_STOP],
						c->in[NVPC_INPUT_STOP]);
	s[NVPC_SIM_CTR_EVENT] = nvpc_sim_ctr_add(gen, s[NVPC_SIM_CTR_EVENT],
						 or_event_inc(hw, c));
	if (hw->ctr_mode == NVPC_CTR_MODE_EXTRA_B4)
		start = or_b4(c);
	else if (hw->ctr_mode == NVPC_CTR_MODE_EXTRA_B6_EVENT_B2)
		start = or_b6(c);
	else
		start = c->in[NVPC_INPUT_START];
	s[NVPC_SIM_CTR_START] = nvpc_sim_ctr_add(gen, s[NVPC_SIM_CTR_START],
						 start);
	or_flag(hw, c);
}

static void or_record(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
		      struct or_cycle *c)
{
	struct nvpc_sim_hw *hw = &d->hw;
	int i, trigger = 0, bogus;

	if (hw->rec_wedged)
		return;
	/*
	 * RECORD_START written outside record mode: the first record-mode
	 * cycle writes a packet of the counters as they are (sim_regs.c
	 * "DOC: bogus record packet"), unless RECORD_RESET holds them
	 */
	bogus = hw->rec_bogus;
	hw->rec_bogus = 0;
	if (nvpc_sim_set_ctrl(sim, d) & NVPC_GCTRL_RECORD_RESET) {
		hw->rec_cycles = 0;
		memset(hw->rec_ev, 0, sizeof(hw->rec_ev));
		hw->rec_stop = 0;
	} else {
		hw->rec_cycles = (hw->rec_cycles + 1) & NVPC_RECORD_CYCLES_MASK;
		for (i = 0; i < NVPC_RECORD_NR_EVENTS; i++) {
			if (c->raw[i / 4][i % 4] &&
			    hw->rec_ev[i] < NVPC_RECORD_EVENT_MAX)
				hw->rec_ev[i]++;
			if (hw->rec_ev[i] >= NVPC_RECORD_EVENT_FLUSH)
				trigger = 1;
		}
		if (c->in[NVPC_INPUT_STOP] &&
		    hw->rec_stop < NVPC_RECORD_STOP_MAX)
			hw->rec_stop++;
		if (hw->rec_stop || bogus)
			trigger = 1;
	}
	if (trigger && !hw->rec_out && nvpc_sim_rbuf(sim, d)->valid)
		nvpc_sim_record_form(d, d->cycle);
	if (hw->rec_out && d->cycle >= hw->rec_due)
		nvpc_sim_record_write(sim, d);
}

/* "Input selection": SWAP in the domain's next cycle */
static int or_swap_due(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	struct nvpc_sim_hw *hw = &d->hw;

	if (sim->facts->pm_swap)
		return hw->pend_pm;
	if (sim->facts->spec_src)
		return or_signal(sim, d, hw->spec_src & 0xff) ||
		       (sim->facts->write_swap && hw->pend_swap);
	return 0;
}

static void or_step(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	struct nvpc_sim_hw *hw = &d->hw;
	struct or_cycle c;
	unsigned int n, j, nsrc;
	int swap = 0, flag_sig;
	u8 latch_old;
	u32 raw = 0;

	if (!nvpc_sim_enabled(sim)) {
		d->cycle++;
		return;
	}
	nsrc = nvpc_sim_nr_src(sim);
	memset(&c, 0, sizeof(c));
	for (n = 0; n < nsrc; n++) {
		for (j = 0; j < 4; j++) {
			c.raw[n][j] = or_signal(sim, d,
						(hw->src[n] >> (8 * j)) & 0xff);
			c.prev[n][j] = (hw->prev_raw >> (4 * n + j)) & 1;
			raw |= (u32)c.raw[n][j] << (4 * n + j);
		}
	}
	/* SETFLAG first: EVENT and STOP may use it as argument 3 */
	c.in[NVPC_INPUT_SETFLAG] = or_input(sim, d, &c, NVPC_INPUT_SETFLAG);
	c.in[NVPC_INPUT_CLRFLAG] = or_input(sim, d, &c, NVPC_INPUT_CLRFLAG);
	for (n = 0; n < 4; n++)
		c.in[n] = or_input(sim, d, &c, n);

	/* a swap that nvpc_sim_settle() already did is not done again */
	swap = or_swap_due(sim, d) && !hw->swap_settled;

	flag_sig = hw->latch_d1;
	latch_old = hw->latch;
	if (hw->pend_abort)
		hw->single_state = NVPC_SINGLE_INACTIVE;
	switch (hw->mode) {
	case NVPC_SIM_MODE_SINGLE:
		or_single(sim, d, &c);
		break;
	case NVPC_SIM_MODE_QUAD:
		or_quad(sim, d, &c, swap);
		break;
	case NVPC_SIM_MODE_RECORD:
		or_flag(hw, &c);
		or_record(sim, d, &c);
		break;
	default:
		break;
	}
	/*
	 * A packet on its way to memory lands whatever the mode is now
	 * ("Record mode": the one outgoing packet is being written; leaving
	 * record mode forms no packet, it does not take one back)
	 */
	if (hw->mode != NVPC_SIM_MODE_RECORD && hw->rec_out &&
	    !hw->rec_wedged && d->cycle >= hw->rec_due)
		nvpc_sim_record_write(sim, d);
	hw->latch_d1 = latch_old;

	nvpc_sim_hist_set(hw->hist_flag, d->cycle, flag_sig);
	nvpc_sim_hist_set(hw->hist_event, d->cycle, c.in[NVPC_INPUT_EVENT]);
	hw->prev_event = c.in[NVPC_INPUT_EVENT];
	hw->prev_raw = raw;
	hw->pend_abort = 0;
	hw->pend_start = 0;
	hw->pend_swap = 0;
	hw->pend_pm = 0;
	hw->swap_settled = 0;
	hw->start_settled = 0;
	if (hw->pend_user_clear) {
		hw->user_value &= ~hw->user_pulse;
		hw->pend_user_clear = 0;
	}
	if (nvpc_sim_set_ctrl(sim, d) & NVPC_GCTRL_PERIODIC_RESET)
		hw->periodic_g = 0;
	else
		hw->periodic_g++;
	d->cycle++;
	sim->work++;
}

static void or_run(struct nvpc_sim *sim, u64 until)
{
	unsigned int i;
	int best;
	u64 t, tbest;

	for (;;) {
		best = -1;
		tbest = 0;
		for (i = 0; i < sim->nr_dom; i++) {
			struct nvpc_sim_dom *d = &sim->dom[i];

			if (d->cycle >= nvpc_sim_target(d, until))
				continue;
			t = d->cycle * d->period;
			if (best < 0 || t < tbest) {
				best = i;
				tbest = t;
			}
		}
		if (best < 0)
			return;
		or_step(sim, &sim->dom[best]);
	}
}

/* nvpc_sim_settle(): the swap "before updating the counters" of each
 * quad-mode domain's next cycle, done now ("Quad event mode")
 */
static void or_settle(struct nvpc_sim *sim)
{
	unsigned int i;

	for (i = 0; i < sim->nr_dom; i++) {
		struct nvpc_sim_dom *d = &sim->dom[i];

		if (d->hw.mode != NVPC_SIM_MODE_QUAD || d->hw.swap_settled)
			continue;
		if (or_swap_due(sim, d)) {
			or_swap(d);
			d->hw.swap_settled = 1;
		}
	}
}

/* the oracle's cost needs nothing from the registers */
static void or_cost_prepare(struct nvpc_sim *sim)
{
	(void)sim;
}

/* one work unit per cycle */
static u64 or_cost(struct nvpc_sim *sim, u64 until)
{
	unsigned int i;
	u64 n = 0, t;

	for (i = 0; i < sim->nr_dom; i++) {
		t = nvpc_sim_target(&sim->dom[i], until);
		if (t > sim->dom[i].cycle)
			n += t - sim->dom[i].cycle;
	}
	return n;
}

const struct nvpc_sim_engine nvpc_sim_engine_oracle = {
	.name = "oracle",
	.run = or_run,
	.signal = or_engine_signal,
	.settle = or_settle,
	.land = nvpc_sim_record_write,
	.cost_prepare = or_cost_prepare,
	.cost = or_cost,
};
