// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter sim: the fast engine's chunk engine (sim_fast.h). One chunk
 * of a domain, up to 64 cycles with one machine word per signal: the
 * signals as words, the chunk limits, the logic ops as mux trees, the
 * histories, the counter modes, quad, single event and record mode over a
 * chunk, and the plan that decodes the registers once per run.
 */
#include "sim_fast.h"

#define FA_ARG_DELAYED	0x80	/* &nvpc_sim_fa_op.arg: the delayed source */
#define FA_ARG_SETFLAG	0x40	/* &nvpc_sim_fa_op.arg: the SETFLAG input */
#define FA_SLOT_SWAP	NVPC_SIM_NR_SLOTS	/* plan slot of SPEC_SRC */

/* ---- signals as words ---- */

static int fa_hist(struct nvpc_sim *sim, const struct nvpc_sim_dom *x,
		   bool flag, s64 j)
{
	if (j < 0)
		return 0;
	if ((u64)j >= x->cycle || x->cycle - (u64)j > NVPC_SIM_HIST) {
		sim->stats.history_misses++;
		return 0;
	}
	return nvpc_sim_hist_bit(flag ? x->hw.hist_flag : x->hw.hist_event, j);
}

static u64 fa_import_word(struct nvpc_sim *sim, struct nvpc_sim_dom *y,
			  unsigned int xi, bool flag, u64 k, unsigned int n)
{
	const struct nvpc_sim_dom *x = &sim->dom[y->set_first + xi];
	bool pulse = sim->facts->import_pulse &&
		     (flag ? y->hw.flag_import_pulse : y->hw.event_import_pulse);
	u64 out = 0, c;
	s64 j, jp, t;
	unsigned int i;

	for (i = 0; i < n; i++) {
		c = k + i;
		j = c < 2 ? -1 : (s64)((c - 2) * y->period / x->period);
		if (!pulse) {
			if (fa_hist(sim, x, flag, j))
				out |= 1ULL << i;
			continue;
		}
		jp = c < 3 ? -1 : (s64)((c - 3) * y->period / x->period);
		for (t = jp + 1; t <= j; t++) {
			if (fa_hist(sim, x, flag, t) &&
			    !fa_hist(sim, x, flag, t - 1)) {
				out |= 1ULL << i;
				break;
			}
		}
	}
	return out;
}

static u64 fa_periodic_word(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
			    unsigned int n)
{
	u32 x, r;
	u64 out = 0;

	if (!d->hw.periodic_sel ||
	    (nvpc_sim_set_ctrl(sim, d) & NVPC_GCTRL_PERIODIC_RESET))
		return 0;
	x = NVPC_PERIODIC_CLOCKS(d->hw.periodic_sel);
	/* pulse when g % x == x - 1 */
	r = x - 1 - (u32)(d->hw.periodic_g % x);
	for (; r < n; r += x)
		out |= 1ULL << r;
	return out;
}

/* signal s of domain d in cycles d->cycle .. + n - 1 (own FLAG: flagsig) */
static u64 fa_sig_word(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
		       unsigned int s, unsigned int n, u64 flagsig)
{
	struct nvpc_sim_hw *hw = &d->hw;
	u64 m = fa_mask(n), v;
	u8 k = d->sig[s & 0xff];

	switch (NVPC_SIM_SIG_KIND(k)) {
	case NVPC_SIM_SIG_WAVE:
		return nvpc_sim_wave_word(&d->wave[s & 0xff], d->cycle, n);
	case NVPC_SIM_SIG_FLAG:
		return flagsig & m;
	case NVPC_SIM_SIG_EVENT:
		return hw->prev_event;	/* n == 1 whenever referenced */
	case NVPC_SIM_SIG_IMP_FLAG:
		return fa_import_word(sim, d, NVPC_SIM_SIG_ARG(k), true,
				      d->cycle, n);
	case NVPC_SIM_SIG_IMP_EVENT:
		return fa_import_word(sim, d, NVPC_SIM_SIG_ARG(k), false,
				      d->cycle, n);
	case NVPC_SIM_SIG_PM_TRIGGER:
		return hw->pend_pm;
	case NVPC_SIM_SIG_PERIODIC:
		return fa_periodic_word(sim, d, n);
	case NVPC_SIM_SIG_USER:
		v = (hw->user_value >> NVPC_SIM_SIG_ARG(k)) & 1;
		if (!v)
			return 0;
		if (hw->pend_user_clear &&
		    ((hw->user_pulse >> NVPC_SIM_SIG_ARG(k)) & 1))
			return 1;
		return m;
	default:
		return 0;
	}
}

int fa_engine_signal(struct nvpc_sim *sim, unsigned int dom,
		     unsigned int sig)
{
	struct nvpc_sim_dom *d;

	if (dom >= sim->nr_dom || sig >= NVPC_SIM_NR_SIGNALS)
		return 0;
	d = &sim->dom[dom];
	return fa_sig_word(sim, d, sig, 1, d->hw.latch_d1) & 1;
}

/* ---- chunk limits ---- */

static unsigned int fa_refs_decode(struct nvpc_sim *sim,
				   struct nvpc_sim_dom *d)
{
	struct nvpc_sim_hw *hw = &d->hw;
	unsigned int n, j, r = 0, nsrc, kind;
	bool sc;

	nsrc = nvpc_sim_nr_src(sim);
	for (n = 0; n <= nsrc; n++) {
		for (j = 0; j < 4; j++) {
			if (n == nsrc) {
				if (j || !sim->facts->spec_src)
					continue;
				kind = d->sig[hw->spec_src & 0xff];
			} else {
				kind = d->sig[(hw->src[n] >> (8 * j)) & 0xff];
			}
			kind = NVPC_SIM_SIG_KIND(kind);
			sc = n < nsrc &&
			     (sim->facts->flag_own_src ?
			      n >= NVPC_INPUT_SETFLAG : n <= NVPC_INPUT_START);
			if (kind == NVPC_SIM_SIG_FLAG)
				r |= FA_REF_FLAG | (sc ? FA_REF_FLAG_SC : 0);
			else if (kind == NVPC_SIM_SIG_EVENT)
				r |= FA_REF_EVENT;
			else if (kind == NVPC_SIM_SIG_IMP_FLAG ||
				 kind == NVPC_SIM_SIG_IMP_EVENT)
				r |= FA_REF_IMPORT;
		}
	}
	return r;
}

/* fa_refs_decode(), kept while &nvpc_sim.cfg_gen stays (every access asks) */
unsigned int fa_refs(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	if (d->fa.refs_gen != sim->cfg_gen) {
		d->fa.refs = fa_refs_decode(sim, d);
		d->fa.refs_gen = sim->cfg_gen;
	}
	return d->fa.refs;
}

unsigned int fa_limit(struct nvpc_sim_dom *d, unsigned int refs)
{
	if (refs & FA_REF_EVENT)
		return 1;
	if (refs & (FA_REF_IMPORT | FA_REF_FLAG_SC))
		return 2;
	if ((refs & FA_REF_FLAG) && d->hw.mode == NVPC_SIM_MODE_SINGLE)
		return 2;
	return 64;
}

/* ---- logic ops ---- */

/* truth table over words: a mux tree on arg 0, then 1, 2, 3 */
static inline u64 fa_mux(u64 x, u64 y, u64 a)
{
	return x ^ (a & (y ^ x));	/* a ? y : x, bit by bit */
}

static inline u64 fa_t1(u32 t, const u64 *a)
{
	return fa_mux(-(u64)(t & 1), -(u64)((t >> 1) & 1), a[0]);
}

static inline u64 fa_t2(u32 t, const u64 *a)
{
	return fa_mux(fa_t1(t, a), fa_t1(t >> 2, a), a[1]);
}

static inline u64 fa_t3(u32 t, const u64 *a)
{
	return fa_mux(fa_t2(t, a), fa_t2(t >> 4, a), a[2]);
}

static inline u64 fa_table(u32 t, unsigned int nargs, const u64 *a)
{
	switch (nargs) {
	case 0:
		return -(u64)(t & 1);
	case 1:
		return fa_t1(t, a);
	case 2:
		return fa_t2(t, a);
	case 3:
		return fa_t3(t, a);
	default:
		return fa_mux(fa_t3(t, a), fa_t3(t >> 8, a), a[3]);
	}
}

u64 fa_input(const struct nvpc_sim_hw *hw,
	     const struct fa_chunk *c,
	     const struct nvpc_sim_fa_op *op)
{
	const u64 *raw = c->raw;
	unsigned int j, s;
	u64 a[4];

	for (j = 0; j < op->nargs; j++) {
		s = op->arg[j];
		if (s & FA_ARG_SETFLAG)
			a[j] = c->in[NVPC_INPUT_SETFLAG];
		else if (s & FA_ARG_DELAYED)
			a[j] = (raw[s & ~FA_ARG_DELAYED] << 1 |
				((hw->prev_raw >> (s & ~FA_ARG_DELAYED)) & 1)) &
			       c->mask;
		else
			a[j] = raw[s];
	}
	return fa_table(op->table, op->nargs, a) & c->mask;
}

/* latch after each cycle, given SETFLAG/CLRFLAG words: segmented scan */
u64 fa_latch_scan(u64 set, u64 clr, int l0, u64 mask)
{
	u64 has = (set | clr) & mask, val = set & ~clr & mask;
	unsigned int s;

	for (s = 1; s < 64; s <<= 1) {
		val |= (val << s) & ~has;
		has |= has << s;
	}
	return (val | (l0 ? ~has : 0)) & mask;
}

/* ---- history ---- */

static void fa_hist_put(u64 *hist, u64 k, u64 w, unsigned int n)
{
	u32 p = k % NVPC_SIM_HIST, wi = p / 64, b = p % 64;
	u64 m = fa_mask(n);

	w &= m;
	hist[wi] = (hist[wi] & ~(m << b)) | (w << b);
	if (b && b + n > 64) {
		wi = (wi + 1) % NVPC_SIM_HIST_WORDS;
		hist[wi] = (hist[wi] & ~(m >> (64 - b))) | (w >> (64 - b));
	}
}

/* ---- counter modes ("Special counter modes") ---- */

static u64 fa_b4(const struct fa_chunk *c, u64 m)
{
	const u64 *s = &c->raw[4 * NVPC_INPUT_START];

	return fa_pop(s[0] & m) + 2ULL * fa_pop(s[1] & m) +
	       4ULL * fa_pop(s[2] & m) + 8ULL * fa_pop(s[3] & m);
}

static u64 fa_b6(const struct fa_chunk *c, u64 m)
{
	const u64 *e = &c->raw[4 * NVPC_INPUT_EVENT];

	return fa_b4(c, m) + 16ULL * fa_pop(e[2] & m) + 32ULL * fa_pop(e[3] & m);
}

static u64 fa_b2(const struct fa_chunk *c, u64 m)
{
	const u64 *e = &c->raw[4 * NVPC_INPUT_EVENT];

	return fa_pop(e[0] & m) + 2ULL * fa_pop(e[1] & m);
}

static u64 fa_event_sum(const struct nvpc_sim_hw *hw, const struct fa_chunk *c,
			u64 m)
{
	u64 ev = c->in[NVPC_INPUT_EVENT];

	switch (hw->ctr_mode) {
	case NVPC_CTR_MODE_EVENT_B4:
		return fa_b4(c, m & ev);
	case NVPC_CTR_MODE_EVENT_B6:
		return fa_b6(c, m & ev);
	case NVPC_CTR_MODE_EXTRA_B6_EVENT_B2:
		return fa_b2(c, m);
	default:
		return fa_pop(ev & m);
	}
}

/* ---- quad mode ---- */

/* what a quad-mode chunk adds to each counter in the cycles of @m */
void fa_quad_inc(const struct nvpc_sim_hw *hw, const struct fa_chunk *c,
		 u64 m, u64 *inc)
{
	inc[NVPC_SIM_CTR_CYCLES] = fa_pop(m);
	inc[NVPC_SIM_CTR_CYCLES_ALT] = inc[NVPC_SIM_CTR_CYCLES];
	inc[NVPC_SIM_CTR_PRE] = fa_pop(c->in[NVPC_INPUT_PRE] & m);
	inc[NVPC_SIM_CTR_STOP] = fa_pop(c->in[NVPC_INPUT_STOP] & m);
	inc[NVPC_SIM_CTR_EVENT] = fa_event_sum(hw, c, m);
	if (hw->ctr_mode == NVPC_CTR_MODE_EXTRA_B4)
		inc[NVPC_SIM_CTR_START] = fa_b4(c, m);
	else if (hw->ctr_mode == NVPC_CTR_MODE_EXTRA_B6_EVENT_B2)
		inc[NVPC_SIM_CTR_START] = fa_b6(c, m);
	else
		inc[NVPC_SIM_CTR_START] = fa_pop(c->in[NVPC_INPUT_START] & m);
}

static void fa_quad_count(struct nvpc_sim *sim, struct nvpc_sim_hw *hw,
			  const struct fa_chunk *c, u64 m)
{
	u64 inc[NVPC_SIM_NR_CTRS];
	unsigned int i;

	if (!m)
		return;
	fa_quad_inc(hw, c, m, inc);
	for (i = 0; i < NVPC_SIM_NR_CTRS; i++)
		hw->shadow[i] = nvpc_sim_ctr_add(sim->gen, hw->shadow[i],
						 inc[i]);
}

static void fa_swap(struct nvpc_sim_dom *d)
{
	struct nvpc_sim_hw *hw = &d->hw;
	unsigned int i;

	if (d->no_swap)
		return;
	memcpy(hw->ctr, hw->shadow, sizeof(hw->ctr));
	for (i = 0; i < NVPC_SIM_NR_CTRS; i++)
		if (!(d->keep_ctrs & BIT(i)))
			hw->shadow[i] = 0;
	hw->quad_state = hw->quad_state ? NVPC_QUAD_OVERFLOW : NVPC_QUAD_VALID;
	if (d->lost_swaps) {
		d->lost_swaps--;
		hw->quad_state = NVPC_QUAD_OVERFLOW;
	}
}

static void fa_quad(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
		    const struct fa_chunk *c)
{
	u64 sw = c->swap & c->mask, done = 0, seg;
	unsigned int b;

	while (sw) {
		b = __builtin_ctzll(sw);
		seg = fa_mask(b) & ~done;
		fa_quad_count(sim, &d->hw, c, seg);
		done |= seg;
		fa_swap(d);
		sw &= sw - 1;
	}
	fa_quad_count(sim, &d->hw, c, c->mask & ~done);
}

/* ---- single event mode, bit by bit over the chunk's words ---- */

static unsigned int fa_bits4(const u64 *w, unsigned int i)
{
	return ((w[0] >> i) & 1) | ((w[1] >> i) & 1) << 1 |
	       ((w[2] >> i) & 1) << 2 | ((w[3] >> i) & 1) << 3;
}

static void fa_single(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
		      struct fa_chunk *c)
{
	struct nvpc_sim_hw *hw = &d->hw;
	u64 *ctr = hw->ctr, in_pre = c->in[NVPC_INPUT_PRE];
	u64 in_start = c->in[NVPC_INPUT_START], in_stop = c->in[NVPC_INPUT_STOP];
	u64 in_set = c->in[NVPC_INPUT_SETFLAG], in_clr = c->in[NVPC_INPUT_CLRFLAG];
	u64 in_ev = c->in[NVPC_INPUT_EVENT], fs = 0, m1;
	const u64 *rs = &c->raw[4 * NVPC_INPUT_START];
	const u64 *re = &c->raw[4 * NVPC_INPUT_EVENT];
	unsigned int i, b4, b6, b2, inc;
	u8 gen = sim->gen, l1 = hw->latch_d1, l = hw->latch, lo;

	for (i = 0; i < c->n; i++) {
		m1 = 1ULL << i;
		if (l1)
			fs |= m1;
		lo = l;
		if (i == 0 && hw->start_settled) {
			/*
			 * the PRE_OP write's cycle, whose state change
			 * nvpc_sim_settle() did: the flag clears
			 */
			l = 0;
			if (!hw->pend_abort) {
				l1 = lo;
				continue;
			}
		}
		if (i == 0 && hw->pend_abort)
			hw->single_state = NVPC_SINGLE_INACTIVE;
		if (hw->single_state == NVPC_SINGLE_INACTIVE) {
			if (i == 0 && hw->pend_start) {
				ctr[NVPC_SIM_CTR_EVENT] = 0;
				ctr[NVPC_SIM_CTR_START] = 0;
				ctr[NVPC_SIM_CTR_CYCLES] = 0;
				ctr[NVPC_SIM_CTR_CYCLES_ALT] = 0;
				ctr[NVPC_SIM_CTR_PRE] = hw->pre_init;
				ctr[NVPC_SIM_CTR_STOP] = hw->stop_init;
				l = 0;
				hw->single_state = NVPC_SINGLE_WAIT_PRE;
			}
			l1 = lo;
			continue;
		}
		if (in_clr & m1)
			l = 0;
		else if (in_set & m1)
			l = 1;
		switch (hw->single_state) {
		case NVPC_SINGLE_WAIT_PRE:
			if (in_pre & m1) {
				if (ctr[NVPC_SIM_CTR_PRE])
					ctr[NVPC_SIM_CTR_PRE]--;
				else
					hw->single_state = NVPC_SINGLE_WAIT_START;
				d->fa.moves++;
			}
			break;
		case NVPC_SINGLE_WAIT_START:
			if (in_start & m1) {
				ctr[NVPC_SIM_CTR_CYCLES] = 0;
				ctr[NVPC_SIM_CTR_CYCLES_ALT] = 0;
				if (!sim->facts->event_ctr_period ||
				    !hw->event_ctr_all)
					ctr[NVPC_SIM_CTR_EVENT] = 0;
				hw->single_state = NVPC_SINGLE_COUNTING;
				d->fa.moves++;
			}
			break;
		default:
			b4 = fa_bits4(rs, i);
			b6 = b4 | ((re[2] >> i) & 1) << 4 | ((re[3] >> i) & 1) << 5;
			b2 = ((re[0] >> i) & 1) | ((re[1] >> i) & 1) << 1;
			ctr[NVPC_SIM_CTR_CYCLES] =
				nvpc_sim_ctr_add(gen, ctr[NVPC_SIM_CTR_CYCLES], 1);
			ctr[NVPC_SIM_CTR_CYCLES_ALT] =
				nvpc_sim_ctr_add(gen, ctr[NVPC_SIM_CTR_CYCLES_ALT],
						 1);
			switch (hw->ctr_mode) {
			case NVPC_CTR_MODE_EVENT_B4:
				inc = (in_ev & m1) ? b4 : 0;
				break;
			case NVPC_CTR_MODE_EVENT_B6:
				inc = (in_ev & m1) ? b6 : 0;
				break;
			case NVPC_CTR_MODE_EXTRA_B6_EVENT_B2:
				inc = b2;
				break;
			default:
				inc = !!(in_ev & m1);
			}
			ctr[NVPC_SIM_CTR_EVENT] =
				nvpc_sim_ctr_add(gen, ctr[NVPC_SIM_CTR_EVENT], inc);
			if (hw->ctr_mode == NVPC_CTR_MODE_EXTRA_B4)
				ctr[NVPC_SIM_CTR_PRE] =
					nvpc_sim_ctr_add(gen,
							 ctr[NVPC_SIM_CTR_PRE], b4);
			else if (hw->ctr_mode == NVPC_CTR_MODE_EXTRA_B6_EVENT_B2)
				ctr[NVPC_SIM_CTR_PRE] =
					nvpc_sim_ctr_add(gen,
							 ctr[NVPC_SIM_CTR_PRE], b6);
			if (in_stop & m1) {
				if (ctr[NVPC_SIM_CTR_EVENT] >= hw->threshold)
					ctr[NVPC_SIM_CTR_START] =
						nvpc_sim_ctr_add(gen,
								 ctr[NVPC_SIM_CTR_START],
								 1);
				if (ctr[NVPC_SIM_CTR_STOP]) {
					ctr[NVPC_SIM_CTR_STOP]--;
					hw->single_state = NVPC_SINGLE_WAIT_START;
				} else {
					hw->single_state = NVPC_SINGLE_INACTIVE;
				}
				d->fa.moves++;
			}
		}
		l1 = lo;
	}
	hw->latch = l;
	hw->latch_d1 = l1;
	c->flagsig = fs;
}

/* ---- record mode ("Record mode"), bit by bit ---- */

/*
 * A chunk in which no packet can be formed or written ("Record mode":
 * no STOP pulse and a STOP counter at 0, every event counter staying
 * below 0xf000, so no saturation either; no outgoing packet completing;
 * no bogus packet pending): the counters advance by whole words. Else
 * false, nothing done: the chunk goes cycle by cycle.
 */
static bool fa_record_quiet(struct nvpc_sim_hw *hw, const struct fa_chunk *c,
			    bool reset)
{
	unsigned int e, pop[NVPC_RECORD_NR_EVENTS];

	if (hw->rec_bogus || (hw->rec_out && hw->rec_due < c->k + c->n))
		return false;
	if (reset) {
		/* RECORD_RESET holds them at 0 and forms nothing */
		hw->rec_cycles = 0;
		memset(hw->rec_ev, 0, sizeof(hw->rec_ev));
		hw->rec_stop = 0;
		return true;
	}
	if (hw->rec_stop || (c->in[NVPC_INPUT_STOP] & c->mask))
		return false;
	for (e = 0; e < NVPC_RECORD_NR_EVENTS; e++) {
		pop[e] = fa_pop(c->raw[e] & c->mask);
		if (hw->rec_ev[e] + pop[e] >= NVPC_RECORD_EVENT_FLUSH)
			return false;
	}
	for (e = 0; e < NVPC_RECORD_NR_EVENTS; e++)
		hw->rec_ev[e] += pop[e];
	hw->rec_cycles = (hw->rec_cycles + c->n) & NVPC_RECORD_CYCLES_MASK;
	return true;
}

static void fa_record(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
		      const struct fa_chunk *c)
{
	struct nvpc_sim_hw *hw = &d->hw;
	bool reset = nvpc_sim_set_ctrl(sim, d) & NVPC_GCTRL_RECORD_RESET;
	const struct nvpc_sim_rbuf *rb = nvpc_sim_rbuf(sim, d);
	unsigned int i, e;
	bool trig;

	if (hw->rec_wedged || fa_record_quiet(hw, c, reset))
		return;

	for (i = 0; i < c->n && !hw->rec_wedged; i++) {
		/* sim_regs.c "DOC: bogus record packet": the first cycle */
		trig = hw->rec_bogus;
		hw->rec_bogus = 0;
		if (reset) {
			trig = false;
			hw->rec_cycles = 0;
			memset(hw->rec_ev, 0, sizeof(hw->rec_ev));
			hw->rec_stop = 0;
		} else {
			hw->rec_cycles = (hw->rec_cycles + 1) &
					 NVPC_RECORD_CYCLES_MASK;
			for (e = 0; e < NVPC_RECORD_NR_EVENTS; e++) {
				hw->rec_ev[e] += ((c->raw[e] >> i) & 1) &&
						 hw->rec_ev[e] != 0xffff;
				trig |= hw->rec_ev[e] >= NVPC_RECORD_EVENT_FLUSH;
			}
			hw->rec_stop += ((c->in[NVPC_INPUT_STOP] >> i) & 1) &&
					hw->rec_stop != NVPC_RECORD_STOP_MAX;
			trig |= hw->rec_stop != 0;
		}
		if (trig && !hw->rec_out && rb->valid)
			nvpc_sim_record_form(d, c->k + i);
		if (hw->rec_out && c->k + i >= hw->rec_due)
			nvpc_sim_record_write(sim, d);
	}
}

/* a packet on its way to memory outside record mode (fa_record_land()) */
bool fa_rec_outgoing(const struct nvpc_sim_hw *hw)
{
	return hw->rec_out && !hw->rec_wedged &&
	       hw->mode != NVPC_SIM_MODE_RECORD;
}

/*
 * A packet on its way to memory lands whatever the mode is now ("Record
 * mode": the one outgoing packet is being written; leaving record mode
 * forms no packet, it does not take one back), in the chunk's cycle
 * rec_due: only its own buffer sees it, and its write is in the order of
 * the global cycles where a buffer is shared (fa_run_global()).
 */
static void fa_record_land(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
			   const struct fa_chunk *c)
{
	if (fa_rec_outgoing(&d->hw) && d->hw.rec_due < c->k + c->n)
		nvpc_sim_record_write(sim, d);
}

/* ---- the plan: sources and ops decoded once per run ---- */

enum {
	FA_SL_CONST,		/* constant word */
	FA_SL_PERIODIC,		/* periodic waveform, position carried */
	FA_SL_RANDOM,		/* random waveform, by 64-cycle blocks */
	FA_SL_FLAG,		/* own FLAG */
	FA_SL_DYN,		/* anything else: fa_sig_word() */
};

static void fa_slot_plan(struct nvpc_sim_dom *d, struct nvpc_sim_fa_slot *sl,
			 unsigned int s)
{
	const struct nvpc_sim_wave *w = &d->wave[s];

	unsigned int i;

	sl->sig = s;
	sl->kind = FA_SL_CONST;
	sl->word[0] = 0;
	switch (NVPC_SIM_SIG_KIND(d->sig[s])) {
	case NVPC_SIM_SIG_WAVE:
		break;
	case NVPC_SIM_SIG_ZERO:
		return;
	case NVPC_SIM_SIG_FLAG:
		sl->kind = FA_SL_FLAG;
		return;
	default:
		sl->kind = FA_SL_DYN;
		return;
	}
	switch (w->kind) {
	case NVPC_SIM_WAVE_PERIODIC:
		if (!w->width || w->width == w->period) {
			sl->word[0] = w->width ? ~0ULL : 0;
			return;
		}
		sl->kind = FA_SL_PERIODIC;
		sl->period = w->period;
		sl->width = w->width;
		sl->step = 64 % w->period;
		if (w->period > NVPC_SIM_FA_PATTERN)
			return;
		/* cycles 0 .. period + 63: any 64 from a position < period */
		for (i = 0; i * 64 < w->period + 64; i++)
			sl->word[i] = nvpc_sim_periodic_runs((u64)i * 64 %
							     w->period,
							     w->period,
							     w->width, 64);
		return;
	case NVPC_SIM_WAVE_RANDOM:
		if (!w->density || w->density >= 0x10000) {
			sl->word[0] = w->density ? ~0ULL : 0;
			return;
		}
		sl->kind = FA_SL_RANDOM;
		sl->key = nvpc_sim_rand_key(w->seed);
		sl->density = w->density;
		return;
	default:
		sl->word[0] = (w->value & 1) ? ~0ULL : 0;
	}
}

/* periodic positions for the domain's next cycle */
void fa_plan_sync(struct nvpc_sim_dom *d)
{
	struct nvpc_sim_fa_slot *sl;
	unsigned int i;

	for (i = 0; i < d->fa.nr_periodic; i++) {
		sl = &d->fa.slot[d->fa.periodic[i]];
		sl->pos = (d->cycle % sl->period +
			   d->wave[sl->sig].phase % sl->period) % sl->period;
	}
	d->fa.cycle = d->cycle;
}

static bool fa_table_uses(u32 table, unsigned int j)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		if (!(i & BIT(j)) &&
		    ((table >> i) & 1) != ((table >> (i | BIT(j))) & 1))
			return true;
	return false;
}

/* "Input selection": the op of input n, reduced to the args it uses */
static void fa_op_plan(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
		       unsigned int n)
{
	struct nvpc_sim_fa_op *po = &d->fa.op[n];
	u32 op = d->hw.op[n], table = op & NVPC_OP_TABLE;
	bool es = n == NVPC_INPUT_EVENT || n == NVPC_INPUT_STOP;
	unsigned int j, k, i, idx, pos[4];
	u8 arg[4];

	/* the argument sources (NV30+ SETFLAG/CLRFLAG share PRE/START) */
	for (j = 0; j < 4; j++)
		arg[j] = n * 4 + j;
	if (n == NVPC_INPUT_SETFLAG && !sim->facts->flag_own_src) {
		arg[0] = 4 + 2;
		arg[1] = 4 + 3;
		arg[2] = 0;
		arg[3] = 1;
	} else if (n == NVPC_INPUT_CLRFLAG && !sim->facts->flag_own_src) {
		arg[0] = 2;
		arg[1] = 3;
		arg[2] = 4 + 0;
		arg[3] = 4 + 1;
	}
	if (sim->facts->delayed_args) {
		if (op & (es ? NVPC_OP_ES_ARG2_DELAYED_SRC0 :
			  NVPC_OP_ARG2_DELAYED_SRC0))
			arg[2] = arg[0] | FA_ARG_DELAYED;
		if (op & (es ? NVPC_OP_ES_ARG3_DELAYED_SRC1 :
			  NVPC_OP_ARG3_DELAYED_SRC1))
			arg[3] = arg[1] | FA_ARG_DELAYED;
	}
	if (op & NVPC_OP_DELAY0)
		arg[0] |= FA_ARG_DELAYED;
	if (op & NVPC_OP_DELAY1)
		arg[1] |= FA_ARG_DELAYED;
	if (sim->facts->quad && es && (op & NVPC_OP_ES_ARG3_SETFLAG))
		arg[3] = FA_ARG_SETFLAG;
	for (j = 0, k = 0; j < 4; j++) {
		if (fa_table_uses(table, j)) {
			pos[k] = j;
			po->arg[k++] = arg[j];
			if ((arg[j] & FA_ARG_DELAYED))
				d->fa.delayed |= BIT(arg[j] & ~FA_ARG_DELAYED);
		}
	}
	po->nargs = k;
	po->table = 0;
	for (i = 0; i < BIT(k); i++) {
		for (j = 0, idx = 0; j < k; j++)
			if (i & BIT(j))
				idx |= BIT(pos[j]);
		po->table |= ((table >> idx) & 1) << i;
	}
}

/*
 * Decode the domain's registers for a run; the decoding is kept while
 * &nvpc_sim.cfg_gen stays (registers and waveforms), only the periodic
 * positions move with time.
 */
void fa_plan(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	unsigned int i, nslot;

	sim->work++;
	if (d->fa.plan_gen == sim->cfg_gen) {
		fa_plan_sync(d);
		return;
	}
	d->fa.plan_gen = sim->cfg_gen;
	nslot = nvpc_sim_nr_src(sim) * 4;
	for (i = 0; i < NVPC_SIM_NR_SLOTS; i++) {
		if (i < nslot)
			fa_slot_plan(d, &d->fa.slot[i],
				     (d->hw.src[i / 4] >> (8 * (i % 4))) & 0xff);
		else
			d->fa.slot[i] = (struct nvpc_sim_fa_slot){ };	/* 0 */
	}
	fa_slot_plan(d, &d->fa.slot[FA_SLOT_SWAP], d->hw.spec_src & 0xff);
	d->fa.nr_periodic = 0;
	d->fa.nr_const = 0;
	d->fa.nr_other = 0;
	for (i = 0; i <= FA_SLOT_SWAP; i++) {
		if (d->fa.slot[i].kind == FA_SL_PERIODIC)
			d->fa.periodic[d->fa.nr_periodic++] = i;
		else if (d->fa.slot[i].kind == FA_SL_CONST)
			d->fa.cnst[d->fa.nr_const++] = i;
		else
			d->fa.other[d->fa.nr_other++] = i;
	}
	d->fa.delayed = 0;
	for (i = 0; i < NVPC_NR_INPUTS; i++)
		fa_op_plan(sim, d, i);
	fa_plan_sync(d);
}

/*
 * 64 cycles of a periodic source with a period above NVPC_SIM_FA_PATTERN,
 * from its position pos: at most one wrap, after r = period - pos
 * cycles. 1 in the cycles t
 * with pos + t < width (before the wrap) or r <= t < r + width (after).
 */
static inline u64 fa_periodic_long(const struct nvpc_sim_fa_slot *sl)
{
	u32 r = sl->period - sl->pos, e = r + sl->width;
	u32 a = sl->pos < sl->width ? sl->width - sl->pos : 0;

	/* fa_mask(>= 64) is all ones: r >= 64 gives 0 for the second run */
	return fa_mask(a) | (fa_mask(e) & ~fa_mask(r));
}

/*
 * The words of the chunk's sources: slots 0 .. nslot - 1 and the SWAP
 * source. Periodic positions move on by the chunk. Own FLAG is the FLAG
 * signal as known before the latch scan; if it is not known yet, 0 and
 * marked for the patch after the scan.
 */
void fa_chunk_words(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
		    struct fa_chunk *c, unsigned int nslot,
		    bool flag_known)
{
	struct nvpc_sim_fa_plan *fa = &d->fa;
	struct nvpc_sim_fa_slot *sl;
	unsigned int i, n = c->n, b;
	u64 *raw = c->raw, q = d->cycle / 64;
	const u64 *p;

	for (i = 0; i < fa->nr_const; i++)
		raw[fa->cnst[i]] = fa->slot[fa->cnst[i]].word[0];
	for (i = 0; i < fa->nr_periodic; i++) {
		sl = &fa->slot[fa->periodic[i]];
		if (sl->period > NVPC_SIM_FA_PATTERN) {
			raw[fa->periodic[i]] = fa_periodic_long(sl);
		} else {
			/* pattern bits pos .. pos + 63 */
			b = sl->pos % 64;
			p = &sl->word[sl->pos / 64];
			raw[fa->periodic[i]] = p[0] >> b | (p[1] << 1) << (63 - b);
		}
		if (n == 64)
			sl->pos += sl->step;
		else
			sl->pos += n % sl->period;
		sl->pos -= sl->period & -(u32)(sl->pos >= sl->period);
	}
	for (i = 0; i < fa->nr_other; i++) {
		sl = &fa->slot[fa->other[i]];
		if (sl->kind == FA_SL_RANDOM) {
			b = d->cycle % 64;
			raw[fa->other[i]] =
				nvpc_sim_rand_block(sl->key, sl->density, q) >> b;
			if (b && b + n > 64)
				raw[fa->other[i]] |=
					nvpc_sim_rand_block(sl->key, sl->density,
							    q + 1) << (64 - b);
		} else if (sl->kind == FA_SL_FLAG) {
			raw[fa->other[i]] = flag_known ? c->flagsig : 0;
			if (!flag_known && fa->other[i] < nslot)
				c->flag_bytes |= 1U << fa->other[i];
		} else {
			raw[fa->other[i]] = fa_sig_word(sim, d, sl->sig, n,
							c->flagsig);
		}
	}
	if (n == 64)
		return;
	for (i = 0; i < nslot; i++)
		raw[i] &= c->mask;
	raw[FA_SLOT_SWAP] &= c->mask;
}

/* ---- one chunk ---- */

/*
 * The FLAG latch cannot move during the chunk: halted, or single event
 * mode INACTIVE with no PRE_OP write to start it (pcounter.rst "Single
 * event mode": "flag is frozen when in INACTIVE state", and the process
 * leaves INACTIVE only on a PRE_OP write; "The flag").
 */
static bool fa_latch_still(const struct nvpc_sim_hw *hw)
{
	return hw->mode == NVPC_SIM_MODE_HALTED ||
	       (hw->mode == NVPC_SIM_MODE_SINGLE && !hw->pend_start &&
		hw->single_state == NVPC_SINGLE_INACTIVE);
}

/* "Input selection": the SWAP input over n cycles */
static u64 fa_swap_word(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
			unsigned int n, u64 flagsig)
{
	struct nvpc_sim_hw *hw = &d->hw;

	if (sim->facts->pm_swap)
		return hw->pend_pm;
	if (!sim->facts->spec_src)
		return 0;
	return fa_sig_word(sim, d, hw->spec_src & 0xff, n, flagsig) |
	       (sim->facts->write_swap ? hw->pend_swap : 0);
}

void fa_chunk(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
	      unsigned int n, bool last)
{
	struct nvpc_sim_hw *hw = &d->hw;
	struct fa_chunk c;
	unsigned int i, nsrc;
	bool still = fa_latch_still(hw);
	bool flag_known = n <= 2 || still;
	u64 lw, a, *raw;
	u32 f;

	sim->work++;
	if (d->fa.cycle != d->cycle)
		fa_plan_sync(d);	/* time was skipped (hyperperiod) */
	c.k = d->cycle;
	c.n = n;
	c.mask = fa_mask(n);
	c.flag_bytes = 0;
	/* FLAG in cycle k+i is the latch after k+i-2 */
	c.flagsig = (hw->latch_d1 | (u64)hw->latch << 1) & c.mask;
	if (still)
		c.flagsig = (hw->latch_d1 | (hw->latch ? ~1ULL : 0)) & c.mask;

	nsrc = nvpc_sim_nr_src(sim);
	raw = c.raw;
	fa_chunk_words(sim, d, &c, nsrc * 4, flag_known);
	c.in[NVPC_INPUT_SETFLAG] = fa_input(hw, &c,
					    &d->fa.op[NVPC_INPUT_SETFLAG]);
	c.in[NVPC_INPUT_CLRFLAG] = fa_input(hw, &c,
					    &d->fa.op[NVPC_INPUT_CLRFLAG]);

	/* quad/record: the latch follows SETFLAG/CLRFLAG on every cycle */
	lw = 0;
	if (hw->mode == NVPC_SIM_MODE_QUAD || hw->mode == NVPC_SIM_MODE_RECORD) {
		lw = fa_latch_scan(c.in[NVPC_INPUT_SETFLAG],
				   c.in[NVPC_INPUT_CLRFLAG], hw->latch, c.mask);
		a = hw->latch | lw << 1;	/* latch after k+i-1 */
		c.flagsig = (hw->latch_d1 | a << 1) & c.mask;
		for (f = c.flag_bytes; f; f &= f - 1)
			raw[__builtin_ctz(f)] = c.flagsig;
	}
	for (i = 0; i < 4; i++)
		c.in[i] = fa_input(hw, &c, &d->fa.op[i]);

	if (sim->facts->pm_swap)
		c.swap = hw->pend_pm;
	else if (sim->facts->spec_src)
		c.swap = (d->fa.slot[FA_SLOT_SWAP].kind == FA_SL_FLAG ?
			  c.flagsig : raw[FA_SLOT_SWAP]) |
			 (sim->facts->write_swap ? hw->pend_swap : 0);
	else
		c.swap = 0;
	if (hw->swap_settled)
		c.swap &= ~1ULL;	/* nvpc_sim_settle() did it */

	switch (hw->mode) {
	case NVPC_SIM_MODE_SINGLE:
		fa_single(sim, d, &c);
		break;
	case NVPC_SIM_MODE_QUAD:
		if (hw->pend_abort)
			hw->single_state = NVPC_SINGLE_INACTIVE;
		fa_quad(sim, d, &c);
		break;
	case NVPC_SIM_MODE_RECORD:
		if (hw->pend_abort)
			hw->single_state = NVPC_SINGLE_INACTIVE;
		fa_record(sim, d, &c);
		break;
	default:
		if (hw->pend_abort)
			hw->single_state = NVPC_SINGLE_INACTIVE;
		break;
	}
	fa_record_land(sim, d, &c);
	if (hw->mode == NVPC_SIM_MODE_QUAD || hw->mode == NVPC_SIM_MODE_RECORD) {
		a = hw->latch | lw << 1;
		hw->latch_d1 = (a >> (n - 1)) & 1;
		hw->latch = (lw >> (n - 1)) & 1;
	} else if (hw->mode == NVPC_SIM_MODE_HALTED) {
		hw->latch_d1 = hw->latch;
	}

	fa_hist_put(hw->hist_flag, c.k, c.flagsig, n);
	fa_hist_put(hw->hist_event, c.k, c.in[NVPC_INPUT_EVENT], n);
	hw->prev_event = (c.in[NVPC_INPUT_EVENT] >> (n - 1)) & 1;
	/* SRC values of the last cycle: during a run only those that are
	 * delayed arguments, all of them at its end
	 */
	f = last ? (u32)fa_mask(nsrc * 4) : d->fa.delayed;
	hw->prev_raw &= ~f;
	for (; f; f &= f - 1) {
		i = __builtin_ctz(f);
		hw->prev_raw |= (u32)((raw[i] >> (n - 1)) & 1) << i;
	}
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
		hw->periodic_g += n;
	d->cycle += n;
	d->fa.cycle += n;
}

void fa_plain(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 todo,
	      unsigned int limit)
{
	unsigned int n;

	while (todo) {
		n = todo < limit ? todo : limit;
		/* whole chunks on 64-cycle blocks: one random block each */
		if (limit == 64 && d->cycle % 64 && n > 64 - d->cycle % 64)
			n = 64 - d->cycle % 64;
		todo -= n;
		fa_chunk(sim, d, n, !todo);
	}
}

/* nvpc_sim_settle(): bit 0 of the next chunk's SWAP word, done now */
void fa_settle(struct nvpc_sim *sim)
{
	unsigned int i;

	for (i = 0; i < sim->nr_dom; i++) {
		struct nvpc_sim_dom *d = &sim->dom[i];

		if (d->hw.mode != NVPC_SIM_MODE_QUAD || d->hw.swap_settled)
			continue;
		if (fa_swap_word(sim, d, 1, d->hw.latch_d1) & 1) {
			fa_swap(d);
			d->hw.swap_settled = 1;
		}
	}
}
