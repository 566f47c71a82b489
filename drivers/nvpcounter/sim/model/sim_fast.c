// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter sim: the fast engine. Processes a domain in chunks of up to 64
 * cycles, one machine word per signal: truth tables are evaluated as a mux
 * tree over words, delays are shifts, the FLAG latch is a segmented scan,
 * quad counters are popcounts split at the swap positions. Chunks shrink to
 * 2 or 1 cycles where a signal feeds back into itself (own FLAG into
 * SETFLAG/CLRFLAG or single-event control, own EVENT, synchronised imports
 * from other domains), and domain sets with live imports are interleaved in
 * global time order. In quad mode with only periodic/constant live inputs
 * and no active swap source, one hyperperiod is measured and the rest of the
 * span is extrapolated, so that 10^12 cycles cost as much as 10^6.
 *
 * Registers cannot change during a run, so each run first decodes the
 * domain's sources and ops into a plan (struct nvpc_sim_fa_plan): constant
 * words, periodic sources as precomputed bit patterns with a position that
 * moves by the chunk (no division per chunk), random sources as 64-cycle
 * blocks of the bit-sliced generator (chunks are aligned to those blocks),
 * truth tables reduced to the arguments they depend on and unrolled.
 *
 * Semantics are those of sim_model.h and pcounter.rst; sim_oracle.c is the
 * naive reference the tests compare this file against.
 */
#include "sim_internal.h"

#define FA_HYPER_MAX	BIT(22)	/* largest hyperperiod measured */
/* largest hyperperiod of a lazy domain: bounds the work of its catch-up */
#define FA_LAZY_HYPER_MAX	NVPC_SIM_FA_PATTERN
#define FA_ARG_DELAYED	0x80	/* &nvpc_sim_fa_op.arg: the delayed source */
#define FA_ARG_SETFLAG	0x40	/* &nvpc_sim_fa_op.arg: the SETFLAG input */
#define FA_SLOT_SWAP	NVPC_SIM_NR_SLOTS	/* plan slot of SPEC_SRC */

struct fa_chunk {
	u64 k;				/* first cycle */
	unsigned int n;			/* cycles */
	u64 mask;
	u64 raw[NVPC_SIM_NR_SLOTS + 1];	/* SRC bytes (input * 4 + j), SWAP */
	u64 in[NVPC_NR_INPUTS];
	u64 swap;
	u64 flagsig;			/* own FLAG signal */
	u64 latchw;			/* bit i: latch after cycle k + i */
	u8 flag_patch;			/* raw bytes that are own FLAG */
	u32 flag_bytes;			/* bit i: raw[i] is own FLAG */
};

static inline unsigned int fa_pop(u64 x)
{
	return nvpc_sim_popcount(x);
}

/* n low bits set, all for n >= 64 (without a branch) */
static inline u64 fa_mask(unsigned int n)
{
	return ((1ULL << (n & 63)) - 1) | -(u64)(n >= 64);
}

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
	bool pulse = sim->gen >= NVPC_GEN_NV40 &&
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

static int fa_engine_signal(struct nvpc_sim *sim, unsigned int dom,
			    unsigned int sig)
{
	struct nvpc_sim_dom *d;

	if (dom >= sim->nr_dom || sig >= NVPC_SIM_NR_SIGNALS)
		return 0;
	d = &sim->dom[dom];
	return fa_sig_word(sim, d, sig, 1, d->hw.latch_d1) & 1;
}

/* ---- chunk limits ---- */

enum {
	FA_REF_FLAG = 1,	/* own FLAG */
	FA_REF_EVENT = 2,	/* own EVENT */
	FA_REF_IMPORT = 4,	/* another domain's FLAG or EVENT */
	FA_REF_FLAG_SC = 8,	/* own FLAG feeds SETFLAG/CLRFLAG */
};

static unsigned int fa_refs_decode(struct nvpc_sim *sim,
				   struct nvpc_sim_dom *d)
{
	struct nvpc_sim_hw *hw = &d->hw;
	unsigned int n, j, r = 0, nsrc, kind;
	bool sc;

	nsrc = sim->gen < NVPC_GEN_NV30 ? NVPC_NR_INPUTS : 4;
	for (n = 0; n <= nsrc; n++) {
		for (j = 0; j < 4; j++) {
			if (n == nsrc) {
				if (j || sim->gen < NVPC_GEN_G84)
					continue;
				kind = d->sig[hw->spec_src & 0xff];
			} else {
				kind = d->sig[(hw->src[n] >> (8 * j)) & 0xff];
			}
			kind = NVPC_SIM_SIG_KIND(kind);
			sc = n < nsrc &&
			     (sim->gen < NVPC_GEN_NV30 ? n >= NVPC_INPUT_SETFLAG :
			      n <= NVPC_INPUT_START);
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
static unsigned int fa_refs(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	if (d->fa.refs_gen != sim->cfg_gen) {
		d->fa.refs = fa_refs_decode(sim, d);
		d->fa.refs_gen = sim->cfg_gen;
	}
	return d->fa.refs;
}

static unsigned int fa_limit(struct nvpc_sim_dom *d, unsigned int refs)
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

static inline u64 fa_input(const struct nvpc_sim_hw *hw,
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
static u64 fa_latch_scan(u64 set, u64 clr, int l0, u64 mask)
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
static void fa_quad_inc(const struct nvpc_sim_hw *hw, const struct fa_chunk *c,
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

	memcpy(hw->ctr, hw->shadow, sizeof(hw->ctr));
	memset(hw->shadow, 0, sizeof(hw->shadow));
	hw->quad_state = hw->quad_state ? NVPC_QUAD_OVERFLOW : NVPC_QUAD_VALID;
	if (d->lost_swaps) {
		d->lost_swaps--;
		hw->quad_state = NVPC_QUAD_OVERFLOW;
	}
	(void)i;
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
				if (gen < NVPC_GEN_NV15 || !hw->event_ctr_all)
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

static void fa_record_pack(struct nvpc_sim_hw *hw)
{
	unsigned int i;
	u16 w;

	for (i = 0; i < 16; i++) {
		if (i < 3)
			w = hw->rec_cycles >> (16 * i);
		else if (i == 3)
			w = hw->rec_stop;
		else
			w = hw->rec_ev[i - 4];
		hw->rec_pkt[2 * i] = w & 0xff;
		hw->rec_pkt[2 * i + 1] = w >> 8;
	}
}

static void fa_record_done(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	struct nvpc_sim_hw *hw = &d->hw;
	struct nvpc_sim_rbuf *b = nvpc_sim_rbuf(sim, d);
	u64 va = b->pos;
	int bad;

	if (!b->valid) {
		/* GF100+: the shared buffer hit LIMIT meanwhile (sim_regs.c
		 * "GF100+ record mode"): the write is ignored
		 */
		hw->rec_out = 0;
		return;
	}
	bad = hw->rec_fault_inject;
	if (sim->gen >= NVPC_GEN_G92)
		va |= (u64)b->addr_high << 32;
	hw->rec_fault_inject = 0;
	/* sim_regs.c "DOC: record bind": no VM without a bind */
	if (!bad)
		bad = nvpc_sim_record_unbound(sim);
	if (!bad && sim->mem_write)
		bad = sim->mem_write(sim->mem_ctx, va, hw->rec_pkt, hw->rec_len);
	if (bad) {
		b->fault = 1;
		hw->rec_wedged = 1;
		return;
	}
	hw->rec_out = 0;
	b->valid = b->pos < b->limit ? b->valid : 0;
	b->pos += hw->rec_len;
	b->count++;
	sim->stats.record_cycle_packets++;
}

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
		if (trig && !hw->rec_out && rb->valid) {
			fa_record_pack(hw);
			memset(hw->rec_ev, 0, sizeof(hw->rec_ev));
			hw->rec_stop = 0;
			hw->rec_len = hw->rec_short ? NVPC_RECORD_PACKET_SHORT :
						      NVPC_RECORD_PACKET_LONG;
			hw->rec_out = 1;
			hw->rec_due = c->k + i + d->rec_latency;
		}
		if (hw->rec_out && c->k + i >= hw->rec_due)
			fa_record_done(sim, d);
	}
}

/* a packet on its way to memory outside record mode (fa_record_land()) */
static bool fa_rec_outgoing(const struct nvpc_sim_hw *hw)
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
		fa_record_done(sim, d);
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
static void fa_plan_sync(struct nvpc_sim_dom *d)
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
	if (n == NVPC_INPUT_SETFLAG && sim->gen >= NVPC_GEN_NV30) {
		arg[0] = 4 + 2;
		arg[1] = 4 + 3;
		arg[2] = 0;
		arg[3] = 1;
	} else if (n == NVPC_INPUT_CLRFLAG && sim->gen >= NVPC_GEN_NV30) {
		arg[0] = 2;
		arg[1] = 3;
		arg[2] = 4 + 0;
		arg[3] = 4 + 1;
	}
	if (sim->gen >= NVPC_GEN_G92) {
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
	if (sim->gen >= NVPC_GEN_NV30 && es && (op & NVPC_OP_ES_ARG3_SETFLAG))
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
static void fa_plan(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	unsigned int i, nslot;

	sim->work++;
	if (d->fa.plan_gen == sim->cfg_gen) {
		fa_plan_sync(d);
		return;
	}
	d->fa.plan_gen = sim->cfg_gen;
	nslot = sim->gen < NVPC_GEN_NV30 ? NVPC_SIM_NR_SLOTS : 16;
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
static void fa_chunk_words(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
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

	if (sim->gen == NVPC_GEN_NV30 || sim->gen == NVPC_GEN_NV40)
		return hw->pend_pm;
	if (sim->gen < NVPC_GEN_G84)
		return 0;
	return fa_sig_word(sim, d, hw->spec_src & 0xff, n, flagsig) |
	       (sim->gen < NVPC_GEN_GF100 ? hw->pend_swap : 0);
}

static void fa_chunk(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
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

	nsrc = sim->gen < NVPC_GEN_NV30 ? NVPC_NR_INPUTS : 4;
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

	if (sim->gen == NVPC_GEN_NV30 || sim->gen == NVPC_GEN_NV40)
		c.swap = hw->pend_pm;
	else if (sim->gen >= NVPC_GEN_G84)
		c.swap = (d->fa.slot[FA_SLOT_SWAP].kind == FA_SL_FLAG ?
			  c.flagsig : raw[FA_SLOT_SWAP]) |
			 (sim->gen < NVPC_GEN_GF100 ? hw->pend_swap : 0);
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

static void fa_plain(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 todo,
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

/* ---- hyperperiod extrapolation ---- */

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
static u64 fa_hyperperiod(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	struct nvpc_sim_hw *hw = &d->hw;
	unsigned int i, j, nsrc;
	u64 l = 1, p;
	bool zero;

	nsrc = sim->gen < NVPC_GEN_NV30 ? NVPC_NR_INPUTS : 4;
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
	if (sim->gen >= NVPC_GEN_G84 && hw->mode == NVPC_SIM_MODE_QUAD) {
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
static u64 fa_hyperperiod_after(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
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
static bool fa_pending(const struct nvpc_sim_hw *hw)
{
	return hw->pend_abort || hw->pend_start || hw->pend_swap ||
	       hw->pend_pm || hw->pend_user_clear || hw->swap_settled ||
	       hw->start_settled;
}

/* modes whose state repeats with the sources (record mode writes memory) */
static bool fa_hyper_mode(const struct nvpc_sim_dom *d, unsigned int lim)
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
static u32 fa_hyper_tail(const struct nvpc_sim *sim, struct nvpc_sim_dom *d)
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
static bool fa_hyper_worth(u64 l, u32 tail, u64 todo)
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
static bool fa_steady(const struct nvpc_sim *sim, const struct nvpc_sim_dom *d)
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
static bool fa_dry_ok(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 l)
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
static u64 fa_dry_first(const struct nvpc_sim_dom *d, u64 todo)
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
static void fa_hyper(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 todo)
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
		if (sim->gen < NVPC_GEN_NV30)
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

/* ---- cost estimate (nvpc_sim_advance_bounded()) ---- */

static u64 fa_chunks(u64 todo, unsigned int lim)
{
	/* a plan, a partial chunk, a chunk split at a 64-cycle block */
	return todo / lim + 3;
}

/*
 * Chunks of @todo cycles from cycle @c, @lim at most each: fa_plain()
 * (chunks of 64 on 64-cycle blocks), or at most that many in the order of
 * fa_run_set() and fa_run_global().
 */
static u64 fa_plain_chunks(u64 c, u64 todo, unsigned int lim)
{
	u64 first = 64 - c % 64;

	if (!todo)
		return 0;
	if (lim != 64)
		return (todo + lim - 1) / lim;
	if (todo <= first)
		return 1;
	return 1 + (todo - first + 63) / 64;
}

/* the most chunks fa_plain() makes of @n cycles, wherever they start */
static u64 fa_max_chunks(u64 n)
{
	return n ? 1 + (n + 62) / 64 : 0;
}

/*
 * DOC: record mode in closed form
 *
 * A record-mode domain whose sources are constant or periodic (the
 * waveforms, the PERIODIC trailer, its own FLAG: fa_hyperperiod()) and
 * which reads no other domain's signals nor its own EVENT runs through the
 * same states every hyperperiod l once its pipeline (delays, FLAG, the
 * outgoing packet) has filled: pcounter.rst "Record mode" makes a packet
 * a function of the counters, which restart after every packet, and the
 * 48-bit cycle counter, which only grows. So every period writes the same
 * packets as the one before, each with a cycle field l larger, each at
 * the position after the last one. The engine runs one period cycle by
 * cycle after a warm-up and keeps it (&nvpc_sim_fa_plan.rec_steady) if
 * the state at its end is the state at its start (&struct nvpc_sim_fa_rec)
 * and it wrote at most NVPC_SIM_FA_REC_TPL packets, as a template. Later
 * runs go cycle by cycle to the next start of a period, check that the
 * state is the one measured, and write m periods' packets from the
 * template (fa_rec_write()): the record counters, the position and count
 * move on as m periods move them. m keeps every packet below LIMIT
 * ("Record mode setup": the packet at or beyond LIMIT ends the buffer;
 * the cycle model writes that one) and leaves a tail run cycle by cycle,
 * which refills the synchroniser history as fa_hyper() does.
 *
 * A packet write that faults (a VM fault: "Record mode setup") wedges
 * the domain in that packet's cycle: the domain is put back at the start
 * of that period and runs it cycle by cycle, its earlier packets of the
 * period replayed as written (fa_rec_replay()), so that it wedges in the
 * state the cycle model leaves. Record runs that the template cannot give
 * (RECORD_RESET, an injected fault, no bind, a pending bogus packet or
 * write effect, other waveforms, more packets per period) go cycle by
 * cycle: sim_oracle.c is the reference for both.
 */

/* record packets written in closed form per unit of work (the estimate) */
#define FA_REC_PKTS_PER_WORK	4
/*
 * what a run that measures the orbit costs beyond its chunks: the span
 * split at the pending cycle and at two periods (a chunk each), and the
 * closed-form write's own unit after it
 */
#define FA_REC_MEASURE_COST	8

static u64 fa_rec_get48(const u8 *p)
{
	return (u64)p[0] | (u64)p[1] << 8 | (u64)p[2] << 16 |
	       (u64)p[3] << 24 | (u64)p[4] << 32 | (u64)p[5] << 40;
}

static void fa_rec_put48(u8 *p, u64 v)
{
	unsigned int i;

	for (i = 0; i < 6; i++)
		p[i] = v >> (8 * i);
}

/* a record-mode domain whose run may write packets in closed form */
static bool fa_rec_mode(struct nvpc_sim *sim, const struct nvpc_sim_dom *d,
			unsigned int lim)
{
	const struct nvpc_sim_hw *hw = &d->hw;

	return lim == 64 && !sim->record_cycle &&
	       hw->mode == NVPC_SIM_MODE_RECORD &&
	       !hw->rec_wedged && !hw->rec_fault_inject && !hw->rec_bogus &&
	       !(nvpc_sim_set_ctrl(sim, d) & NVPC_GCTRL_RECORD_RESET) &&
	       (sim->gen >= NVPC_GEN_GF100 || sim->record_bound);
}

static bool fa_rec_steady(const struct nvpc_sim *sim,
			  const struct nvpc_sim_dom *d)
{
	return d->fa.rec_steady && d->fa.rec_gen == sim->cfg_gen;
}

static void fa_rec_snap(const struct nvpc_sim_dom *d, u64 l,
			struct nvpc_sim_fa_rec *s)
{
	const struct nvpc_sim_hw *hw = &d->hw;

	memset(s, 0, sizeof(*s));
	memcpy(s->ev, hw->rec_ev, sizeof(s->ev));
	s->stop = hw->rec_stop;
	s->out = hw->rec_out;
	s->latch = hw->latch;
	s->latch_d1 = hw->latch_d1;
	s->prev_event = hw->prev_event;
	s->prev_raw = hw->prev_raw;
	s->periodic_g = hw->periodic_g % l;
	if (hw->rec_out) {
		s->due = hw->rec_due - d->cycle;
		memcpy(s->pkt, hw->rec_pkt, sizeof(s->pkt));
		fa_rec_put48(s->pkt, (fa_rec_get48(hw->rec_pkt) -
				      hw->rec_cycles) &
				     NVPC_RECORD_CYCLES_MASK);
	}
}

/* packets the buffer takes before one is written at or beyond LIMIT */
static u64 fa_rec_room(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	const struct nvpc_sim_rbuf *b = nvpc_sim_rbuf(sim, d);
	u32 len = d->hw.rec_short ? NVPC_RECORD_PACKET_SHORT :
				    NVPC_RECORD_PACKET_LONG;

	if (!b->valid || b->pos >= b->limit)
		return 0;
	return ((u64)b->limit - b->pos + len - 1) / len;
}

/* a memory write callback that watches or replays the cycle model's */
struct fa_rec_cap {
	nvpc_sim_mem_write_t fn;
	void *ctx;
	struct nvpc_sim_dom *d;
	u64 va0;	/* capture: the address of the first packet */
	u32 len;
	u32 n;		/* packets seen */
	u32 skip;	/* replay: packets already written */
	int ret;	/* replay: what the write after them returned */
	bool bad;	/* capture: more packets, or not in a row */
};

static int fa_rec_capture(void *ctx, u64 va, const void *buf, u32 len)
{
	struct fa_rec_cap *cap = ctx;
	int ret = cap->fn ? cap->fn(cap->ctx, va, buf, len) : 0;

	if (ret)
		return ret;
	/* one domain writes the buffer: its packets follow each other */
	if (cap->n >= NVPC_SIM_FA_REC_TPL || len != cap->len ||
	    va != ((cap->va0 & ~0xffffffffULL) |
		   (u32)(cap->va0 + cap->n * len)))
		cap->bad = true;
	else
		memcpy(cap->d->fa.rec_tpl[cap->n], buf, len);
	cap->n++;
	return 0;
}

static int fa_rec_replay(void *ctx, u64 va, const void *buf, u32 len)
{
	struct fa_rec_cap *cap = ctx;

	if (cap->n < cap->skip) {
		cap->n++;
		return 0;
	}
	if (cap->n++ == cap->skip)
		return cap->ret;
	return cap->fn ? cap->fn(cap->ctx, va, buf, len) : 0;
}

/* the address of the buffer's next packet */
static u64 fa_rec_va(struct nvpc_sim *sim, const struct nvpc_sim_rbuf *b)
{
	return b->pos | (sim->gen >= NVPC_GEN_G92 ? (u64)b->addr_high << 32 :
			 0);
}

/* m periods of the orbit without running them: time and counters move */
static void fa_rec_move(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 m)
{
	struct nvpc_sim_hw *hw = &d->hw;
	struct nvpc_sim_rbuf *b = nvpc_sim_rbuf(sim, d);
	u64 c = m * d->fa.rec_period;
	u32 len = hw->rec_short ? NVPC_RECORD_PACKET_SHORT :
				  NVPC_RECORD_PACKET_LONG;

	d->cycle += c;
	if (!(nvpc_sim_set_ctrl(sim, d) & NVPC_GCTRL_PERIODIC_RESET))
		hw->periodic_g += c;
	hw->rec_cycles = (hw->rec_cycles + c) & NVPC_RECORD_CYCLES_MASK;
	b->pos += (u32)(m * d->fa.rec_npkt * len);
	b->count += (u32)(m * d->fa.rec_npkt);
	if (hw->rec_out) {
		hw->rec_due += c;
		fa_rec_put48(hw->rec_pkt, (fa_rec_get48(hw->rec_pkt) + c) &
					  NVPC_RECORD_CYCLES_MASK);
	}
}

/*
 * Write the packets of @m periods from the template. Return the periods
 * written in full; on a fault, *@fault_at the packets of the next period
 * written before it and *@ret the fault (else *@ret 0).
 */
static u64 fa_rec_write(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 m,
			u32 *fault_at, int *ret)
{
	const struct nvpc_sim_fa_plan *fa = &d->fa;
	const struct nvpc_sim_hw *hw = &d->hw;
	const struct nvpc_sim_rbuf *b = nvpc_sim_rbuf(sim, d);
	u32 len = hw->rec_short ? NVPC_RECORD_PACKET_SHORT :
				  NVPC_RECORD_PACKET_LONG;
	u64 va = fa_rec_va(sim, b), hi = va & ~0xffffffffULL, base;
	u32 pos = b->pos, i;
	u8 pkt[NVPC_RECORD_PACKET_LONG];
	u64 j;

	*ret = 0;
	for (j = 0; j < m; j++) {
		base = hw->rec_cycles + j * fa->rec_period;
		for (i = 0; i < fa->rec_npkt; i++) {
			memcpy(pkt, fa->rec_tpl[i], len);
			fa_rec_put48(pkt, (base + fa_rec_get48(pkt)) &
					  NVPC_RECORD_CYCLES_MASK);
			*ret = sim->mem_write ?
			       sim->mem_write(sim->mem_ctx, hi | pos, pkt,
					      len) : 0;
			if (*ret) {
				*fault_at = i;
				return j;
			}
			pos += len;
		}
	}
	return m;
}

/*
 * A domain wedged by a VM fault ("Record mode setup"), at a start of a
 * period of its orbit: its record state stands still, and the rest (FLAG
 * latch, delayed sources, PERIODIC) follows the sources alone, as at
 * every start of a period: skip whole periods, then the tail.
 */
static void fa_rec_wedged(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
			  u64 todo)
{
	u64 l = d->fa.rec_period, m;
	u32 tail = fa_hyper_tail(sim, d);

	m = todo > tail ? (todo - tail) / l : 0;
	d->cycle += m * l;
	if (!(nvpc_sim_set_ctrl(sim, d) & NVPC_GCTRL_PERIODIC_RESET))
		d->hw.periodic_g += m * l;
	fa_plain(sim, d, todo - m * l, 64);
}

/*
 * From a start of a period of the orbit: skip m periods (at most those
 * that fit @todo less the tail, and below LIMIT), writing their packets.
 * Return the cycles done.
 */
static u64 fa_rec_skip(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
		       u64 todo)
{
	struct nvpc_sim_fa_plan *fa = &d->fa;
	u64 l = fa->rec_period, m, done, pk, room;
	u32 tail = fa_hyper_tail(sim, d), at = 0;
	struct fa_rec_cap cap = { };
	int ret;

	m = (todo - tail) / l;
	if (fa->rec_npkt) {
		room = fa_rec_room(sim, d);
		m = m < room / fa->rec_npkt ? m : room / fa->rec_npkt;
	}
	if (!m)
		return 0;
	done = fa_rec_write(sim, d, m, &at, &ret);
	pk = done * fa->rec_npkt;
	sim->work += (pk + at + FA_REC_PKTS_PER_WORK - 1) /
		     FA_REC_PKTS_PER_WORK + 1;
	sim->stats.record_fast_packets += pk;
	fa_rec_move(sim, d, done);
	if (!ret)
		return m * l;
	/*
	 * the write of packet @at of the next period faulted: that period
	 * runs cycle by cycle, its first @at packets taken as written, so
	 * that the domain wedges as the cycle model has it
	 */
	cap.fn = sim->mem_write;
	cap.ctx = sim->mem_ctx;
	cap.skip = at;
	cap.ret = ret;
	sim->mem_write = fa_rec_replay;
	sim->mem_ctx = &cap;
	fa_plain(sim, d, l, 64);
	sim->mem_write = cap.fn;
	sim->mem_ctx = cap.ctx;
	fa_rec_wedged(sim, d, todo - (done + 1) * l);
	return todo;
}

/* cycles from the next cycle to the next start of a period of the orbit */
static u64 fa_rec_to_start(const struct nvpc_sim_dom *d)
{
	u64 l = d->fa.rec_period;

	return (l - (d->cycle - d->fa.rec_ref) % l) % l;
}

/*
 * Work of a run of @todo cycles of a domain in its measured orbit that
 * writes in closed form (fa_rec_run()), ~0 if it would not; from the
 * room below LIMIT at fa_cost_prepare(), less what the cycles to the
 * period's start may write. Never less for a longer span.
 */
static u64 fa_rec_cost(const struct nvpc_sim_dom *d, u64 todo)
{
	const struct nvpc_sim_fa_plan *fa = &d->fa;
	u64 l = fa->rec_period, b = fa_rec_to_start(d), m, rem, room;
	u32 tail = fa->tail;

	if (todo < b + l + tail)
		return ~0ULL;
	m = (todo - b - tail) / l;
	if (fa->rec_npkt) {
		room = fa->rec_room > fa->rec_npkt + 1 ?
		       fa->rec_room - fa->rec_npkt - 1 : 0;
		m = m < room / fa->rec_npkt ? m : room / fa->rec_npkt;
	}
	if (!m)
		return ~0ULL;
	rem = todo - b - m * l;
	if (rem < l + tail - 1)
		rem = l + tail - 1;
	/*
	 * the plan, the unit of the write, the chunks around it, and a
	 * period cycle by cycle if a write faults (fa_rec_skip())
	 */
	return 3 + fa_max_chunks(b) + fa_max_chunks(l) +
	       (m * fa->rec_npkt + FA_REC_PKTS_PER_WORK - 1) /
	       FA_REC_PKTS_PER_WORK + fa_max_chunks(rem);
}

/*
 * Measure the orbit (its period @l, @todo cycles left, at least
 * 2 * l + 2 more than the tail): a warm-up of l + 2 cycles, then one
 * period with its packets captured. The domain is in its steady state if
 * that period ends as it began. Return the cycles run.
 */
static u64 fa_rec_measure(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 l)
{
	struct nvpc_sim_fa_plan *fa = &d->fa;
	struct nvpc_sim_hw *hw = &d->hw;
	struct nvpc_sim_rbuf *b = nvpc_sim_rbuf(sim, d);
	struct nvpc_sim_fa_rec s1;
	struct fa_rec_cap cap = { };
	u64 rc0, base;
	u32 count0, i;

	fa->rec_steady = false;
	fa_plain(sim, d, l + 2, 64);
	fa_rec_snap(d, l, &fa->rec_s0);
	rc0 = hw->rec_cycles;
	count0 = b->count;
	cap.fn = sim->mem_write;
	cap.ctx = sim->mem_ctx;
	cap.d = d;
	cap.va0 = fa_rec_va(sim, b);
	cap.len = hw->rec_short ? NVPC_RECORD_PACKET_SHORT :
				  NVPC_RECORD_PACKET_LONG;
	sim->mem_write = fa_rec_capture;
	sim->mem_ctx = &cap;
	fa_plain(sim, d, l, 64);
	sim->mem_write = cap.fn;
	sim->mem_ctx = cap.ctx;
	fa_rec_snap(d, l, &s1);
	/* the same state, the same packets, and worth it (a unit of work
	 * writes FA_REC_PKTS_PER_WORK packets, or runs 64 cycles)
	 */
	if (cap.bad || hw->rec_wedged || !b->valid || b->count - count0 != cap.n ||
	    memcmp(&s1, &fa->rec_s0, sizeof(s1)) ||
	    ((hw->rec_cycles - rc0) & NVPC_RECORD_CYCLES_MASK) != l ||
	    (u64)cap.n * 64 > l * FA_REC_PKTS_PER_WORK)
		return 2 * l + 2;
	for (i = 0; i < cap.n; i++) {
		base = fa_rec_get48(fa->rec_tpl[i]);
		fa_rec_put48(fa->rec_tpl[i], (base - rc0) &
					     NVPC_RECORD_CYCLES_MASK);
	}
	fa->rec_npkt = cap.n;
	fa->rec_period = l;
	fa->rec_ref = d->cycle;
	fa->rec_gen = sim->cfg_gen;
	fa->rec_steady = true;
	return 2 * l + 2;
}

/*
 * A record-mode domain (fa_rec_mode()): packets in closed form where its
 * orbit is known ("DOC: record mode in closed form"), cycle by cycle
 * elsewhere.
 */
static void fa_rec_run(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 todo)
{
	struct nvpc_sim_fa_plan *fa = &d->fa;
	struct nvpc_sim_fa_rec s;
	u64 l, n, fast = sim->stats.record_fast_packets;
	u32 tail = fa_hyper_tail(sim, d);

	if (!fa_rec_steady(sim, d)) {
		/* a register write's effect lasts one cycle: run past it */
		if (fa_pending(&d->hw)) {
			n = todo < 64 ? todo : 64;
			fa_plain(sim, d, n, 64);
			todo -= n;
		}
		l = fa_hyperperiod(sim, d);
		if (!l || todo < 3 * l + 2 + tail) {
			fa_plain(sim, d, todo, 64);
			return;
		}
		todo -= fa_rec_measure(sim, d, l);
		if (!fa->rec_steady) {
			fa_plain(sim, d, todo, 64);
			return;
		}
	}
	/* as the estimate has it: closed form only where that costs less */
	fa->tail = tail;
	fa->rec_room = fa_rec_room(sim, d);
	if (fa_rec_cost(d, todo) >= 1 + fa_plain_chunks(d->cycle, todo, 64)) {
		fa_plain(sim, d, todo, 64);
		return;
	}
	l = fa->rec_period;
	n = fa_rec_to_start(d);
	fa_plain(sim, d, n, 64);
	todo -= n;
	fa_rec_snap(d, l, &s);
	if (d->hw.rec_wedged && s.latch == fa->rec_s0.latch &&
	    s.latch_d1 == fa->rec_s0.latch_d1 &&
	    s.prev_event == fa->rec_s0.prev_event &&
	    s.prev_raw == fa->rec_s0.prev_raw &&
	    s.periodic_g == fa->rec_s0.periodic_g) {
		/* a write on the way faulted */
		fa_rec_wedged(sim, d, todo);
		return;
	}
	if (!fa_rec_mode(sim, d, 64) || memcmp(&s, &fa->rec_s0, sizeof(s))) {
		/* not on the orbit measured: measure again next time */
		fa->rec_steady = false;
		fa_plain(sim, d, todo, 64);
		return;
	}
	n = fa_rec_skip(sim, d, todo);
	fa_plain(sim, d, todo - n, 64);
	if (sim->stats.record_fast_packets != fast)
		sim->stats.record_fast_runs++;
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

	nsrc = sim->gen < NVPC_GEN_NV30 ? NVPC_NR_INPUTS : 4;
	for (i = first; i < first + count; i++) {
		const struct nvpc_sim_dom *y = &sim->dom[i];

		for (n = 0; n <= nsrc; n++) {
			for (j = 0; j < 4; j++) {
				if (n == nsrc && (j || sim->gen < NVPC_GEN_G84))
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

	if (sim->gen < NVPC_GEN_GF100)
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

/* nvpc_sim_settle(): bit 0 of the next chunk's SWAP word, done now */
static void fa_settle(struct nvpc_sim *sim)
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
	.land = fa_record_done,
	.cost_prepare = fa_cost_prepare,
	.cost = fa_cost,
	.catch_up = fa_catch_up,
	.catch_up_cost = fa_catch_up_cost,
};
