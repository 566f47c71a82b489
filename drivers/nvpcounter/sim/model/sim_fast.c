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
 * Semantics are those of sim_model.h and pcounter.rst; sim_oracle.c is the
 * naive reference the tests compare this file against.
 */
#include "sim_internal.h"

#define FA_HYPER_MAX	BIT(22)	/* largest hyperperiod measured */

struct fa_chunk {
	u64 k;				/* first cycle */
	unsigned int n;			/* cycles */
	u64 mask;
	u64 raw[NVPC_NR_INPUTS][4];
	u64 in[NVPC_NR_INPUTS];
	u64 swap;
	u64 flagsig;			/* own FLAG signal */
	u64 latchw;			/* bit i: latch after cycle k + i */
	u8 flag_patch;			/* raw bytes that are own FLAG */
	u32 flag_bytes;			/* bit 4n+j: raw[n][j] is own FLAG */
};

static inline unsigned int fa_pop(u64 x)
{
	return __builtin_popcountll(x);
}

static inline u64 fa_mask(unsigned int n)
{
	return n >= 64 ? ~0ULL : (1ULL << n) - 1;
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

static unsigned int fa_refs(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
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
static u64 fa_table(u32 table, const u64 *a)
{
	u64 v[16];
	unsigned int i, w = 16, lvl;

	for (i = 0; i < 16; i++)
		v[i] = (table >> i) & 1 ? ~0ULL : 0;
	for (lvl = 0; lvl < 4; lvl++) {
		w /= 2;
		for (i = 0; i < w; i++)
			v[i] = (a[lvl] & v[2 * i + 1]) | (~a[lvl] & v[2 * i]);
	}
	return v[0];
}

static u64 fa_input(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
		    struct fa_chunk *c, unsigned int n)
{
	struct nvpc_sim_hw *hw = &d->hw;
	u32 op = hw->op[n];
	const u64 *r[4];
	u64 src[4], dl[4], arg[4];
	unsigned int j, sel[4];
	bool es = n == NVPC_INPUT_EVENT || n == NVPC_INPUT_STOP;

	/* the argument sources (NV30+ SETFLAG/CLRFLAG share PRE/START) */
	if (n < NVPC_INPUT_SETFLAG || sim->gen < NVPC_GEN_NV30) {
		for (j = 0; j < 4; j++)
			sel[j] = n * 4 + j;
	} else if (n == NVPC_INPUT_SETFLAG) {
		sel[0] = 4 + 2;
		sel[1] = 4 + 3;
		sel[2] = 0;
		sel[3] = 1;
	} else {
		sel[0] = 2;
		sel[1] = 3;
		sel[2] = 4 + 0;
		sel[3] = 4 + 1;
	}
	for (j = 0; j < 4; j++) {
		r[j] = &c->raw[sel[j] / 4][sel[j] % 4];
		src[j] = *r[j];
		dl[j] = ((src[j] << 1) | ((hw->prev_raw >> sel[j]) & 1)) &
			c->mask;
		arg[j] = src[j];
	}
	if (op & NVPC_OP_DELAY0)
		arg[0] = dl[0];
	if (op & NVPC_OP_DELAY1)
		arg[1] = dl[1];
	if (sim->gen >= NVPC_GEN_G92) {
		if (op & (es ? NVPC_OP_ES_ARG2_DELAYED_SRC0 :
			  NVPC_OP_ARG2_DELAYED_SRC0))
			arg[2] = dl[0];
		if (op & (es ? NVPC_OP_ES_ARG3_DELAYED_SRC1 :
			  NVPC_OP_ARG3_DELAYED_SRC1))
			arg[3] = dl[1];
	}
	if (sim->gen >= NVPC_GEN_NV30 && es && (op & NVPC_OP_ES_ARG3_SETFLAG))
		arg[3] = c->in[NVPC_INPUT_SETFLAG];
	return fa_table(op & NVPC_OP_TABLE, arg) & c->mask;
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
	const u64 *s = c->raw[NVPC_INPUT_START];

	return fa_pop(s[0] & m) + 2ULL * fa_pop(s[1] & m) +
	       4ULL * fa_pop(s[2] & m) + 8ULL * fa_pop(s[3] & m);
}

static u64 fa_b6(const struct fa_chunk *c, u64 m)
{
	const u64 *e = c->raw[NVPC_INPUT_EVENT];

	return fa_b4(c, m) + 16ULL * fa_pop(e[2] & m) + 32ULL * fa_pop(e[3] & m);
}

static u64 fa_b2(const struct fa_chunk *c, u64 m)
{
	const u64 *e = c->raw[NVPC_INPUT_EVENT];

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

static void fa_quad_count(struct nvpc_sim *sim, struct nvpc_sim_hw *hw,
			  const struct fa_chunk *c, u64 m)
{
	u64 *s = hw->shadow, st;
	u8 gen = sim->gen;

	if (!m)
		return;
	s[NVPC_SIM_CTR_CYCLES] = nvpc_sim_ctr_add(gen, s[NVPC_SIM_CTR_CYCLES],
						  fa_pop(m));
	s[NVPC_SIM_CTR_CYCLES_ALT] =
		nvpc_sim_ctr_add(gen, s[NVPC_SIM_CTR_CYCLES_ALT], fa_pop(m));
	s[NVPC_SIM_CTR_PRE] =
		nvpc_sim_ctr_add(gen, s[NVPC_SIM_CTR_PRE],
				 fa_pop(c->in[NVPC_INPUT_PRE] & m));
	s[NVPC_SIM_CTR_STOP] =
		nvpc_sim_ctr_add(gen, s[NVPC_SIM_CTR_STOP],
				 fa_pop(c->in[NVPC_INPUT_STOP] & m));
	s[NVPC_SIM_CTR_EVENT] = nvpc_sim_ctr_add(gen, s[NVPC_SIM_CTR_EVENT],
						 fa_event_sum(hw, c, m));
	if (hw->ctr_mode == NVPC_CTR_MODE_EXTRA_B4)
		st = fa_b4(c, m);
	else if (hw->ctr_mode == NVPC_CTR_MODE_EXTRA_B6_EVENT_B2)
		st = fa_b6(c, m);
	else
		st = fa_pop(c->in[NVPC_INPUT_START] & m);
	s[NVPC_SIM_CTR_START] = nvpc_sim_ctr_add(gen, s[NVPC_SIM_CTR_START], st);
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
	const u64 *rs = c->raw[NVPC_INPUT_START], *re = c->raw[NVPC_INPUT_EVENT];
	unsigned int i, b4, b6, b2, inc;
	u8 gen = sim->gen, l1 = hw->latch_d1, l = hw->latch, lo;

	for (i = 0; i < c->n; i++) {
		m1 = 1ULL << i;
		if (l1)
			fs |= m1;
		lo = l;
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
			}
			break;
		case NVPC_SINGLE_WAIT_START:
			if (in_start & m1) {
				ctr[NVPC_SIM_CTR_CYCLES] = 0;
				ctr[NVPC_SIM_CTR_CYCLES_ALT] = 0;
				if (gen < NVPC_GEN_NV15 || !hw->event_ctr_all)
					ctr[NVPC_SIM_CTR_EVENT] = 0;
				hw->single_state = NVPC_SINGLE_COUNTING;
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

static void fa_record_done(struct nvpc_sim *sim, struct nvpc_sim_hw *hw)
{
	u64 va = hw->rec_pos;
	int bad = hw->rec_fault_inject;

	if (sim->gen >= NVPC_GEN_G92)
		va |= (u64)hw->rec_addr_high << 32;
	hw->rec_fault_inject = 0;
	if (!bad && sim->mem_write)
		bad = sim->mem_write(sim->mem_ctx, va, hw->rec_pkt, hw->rec_len);
	if (bad) {
		hw->rec_fault = 1;
		hw->rec_wedged = 1;
		return;
	}
	hw->rec_out = 0;
	hw->rec_valid = hw->rec_pos < hw->rec_limit ? hw->rec_valid : 0;
	hw->rec_pos += hw->rec_len;
}

static void fa_record(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
		      const struct fa_chunk *c)
{
	struct nvpc_sim_hw *hw = &d->hw;
	bool reset = nvpc_sim_set_ctrl(sim, d) & NVPC_GCTRL_RECORD_RESET;
	unsigned int i, e;
	bool trig;

	for (i = 0; i < c->n && !hw->rec_wedged; i++) {
		trig = false;
		if (reset) {
			hw->rec_cycles = 0;
			memset(hw->rec_ev, 0, sizeof(hw->rec_ev));
			hw->rec_stop = 0;
		} else {
			hw->rec_cycles = (hw->rec_cycles + 1) &
					 NVPC_RECORD_CYCLES_MASK;
			for (e = 0; e < NVPC_RECORD_NR_EVENTS; e++) {
				hw->rec_ev[e] += ((c->raw[e / 4][e % 4] >> i) & 1) &&
						 hw->rec_ev[e] != 0xffff;
				trig |= hw->rec_ev[e] >= NVPC_RECORD_EVENT_FLUSH;
			}
			hw->rec_stop += ((c->in[NVPC_INPUT_STOP] >> i) & 1) &&
					hw->rec_stop != NVPC_RECORD_STOP_MAX;
			trig |= hw->rec_stop != 0;
		}
		if (trig && !hw->rec_out && hw->rec_valid) {
			fa_record_pack(hw);
			memset(hw->rec_ev, 0, sizeof(hw->rec_ev));
			hw->rec_stop = 0;
			hw->rec_len = hw->rec_short ? NVPC_RECORD_PACKET_SHORT :
						      NVPC_RECORD_PACKET_LONG;
			hw->rec_out = 1;
			hw->rec_due = c->k + i + sim->record_latency;
		}
		if (hw->rec_out && c->k + i >= hw->rec_due)
			fa_record_done(sim, hw);
	}
}

/* ---- one chunk ---- */

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
		     unsigned int n)
{
	struct nvpc_sim_hw *hw = &d->hw;
	struct fa_chunk c;
	unsigned int i, j, nsrc, s;
	bool flag_known = n <= 2 || hw->mode == NVPC_SIM_MODE_HALTED;
	u64 lw, a;

	c.k = d->cycle;
	c.n = n;
	c.mask = fa_mask(n);
	c.flag_bytes = 0;
	memset(c.raw, 0, sizeof(c.raw));
	memset(c.in, 0, sizeof(c.in));
	/* FLAG in cycle k+i is the latch after k+i-2 */
	c.flagsig = (hw->latch_d1 | (u64)hw->latch << 1) & c.mask;
	if (hw->mode == NVPC_SIM_MODE_HALTED)
		c.flagsig = (hw->latch_d1 | (hw->latch ? ~1ULL : 0)) & c.mask;

	nsrc = sim->gen < NVPC_GEN_NV30 ? NVPC_NR_INPUTS : 4;
	for (i = 0; i < nsrc; i++) {
		for (j = 0; j < 4; j++) {
			s = (hw->src[i] >> (8 * j)) & 0xff;
			if (!flag_known &&
			    NVPC_SIM_SIG_KIND(d->sig[s]) == NVPC_SIM_SIG_FLAG) {
				c.flag_bytes |= 1U << (4 * i + j);
				continue;
			}
			c.raw[i][j] = fa_sig_word(sim, d, s, n, c.flagsig);
		}
	}
	c.in[NVPC_INPUT_SETFLAG] = fa_input(sim, d, &c, NVPC_INPUT_SETFLAG);
	c.in[NVPC_INPUT_CLRFLAG] = fa_input(sim, d, &c, NVPC_INPUT_CLRFLAG);

	/* quad/record: the latch follows SETFLAG/CLRFLAG on every cycle */
	lw = 0;
	if (hw->mode == NVPC_SIM_MODE_QUAD || hw->mode == NVPC_SIM_MODE_RECORD) {
		lw = fa_latch_scan(c.in[NVPC_INPUT_SETFLAG],
				   c.in[NVPC_INPUT_CLRFLAG], hw->latch, c.mask);
		a = hw->latch | lw << 1;	/* latch after k+i-1 */
		c.flagsig = (hw->latch_d1 | a << 1) & c.mask;
		for (i = 0; i < 24; i++)
			if (c.flag_bytes & (1U << i))
				c.raw[i / 4][i % 4] = c.flagsig;
	}
	for (i = 0; i < 4; i++)
		c.in[i] = fa_input(sim, d, &c, i);

	c.swap = fa_swap_word(sim, d, n, c.flagsig);
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
	hw->prev_raw = 0;
	for (i = 0; i < nsrc; i++)
		for (j = 0; j < 4; j++)
			hw->prev_raw |= (u32)((c.raw[i][j] >> (n - 1)) & 1)
					<< (4 * i + j);
	hw->pend_abort = 0;
	hw->pend_start = 0;
	hw->pend_swap = 0;
	hw->pend_pm = 0;
	hw->swap_settled = 0;
	if (hw->pend_user_clear) {
		hw->user_value &= ~hw->user_pulse;
		hw->pend_user_clear = 0;
	}
	if (nvpc_sim_set_ctrl(sim, d) & NVPC_GCTRL_PERIODIC_RESET)
		hw->periodic_g = 0;
	else
		hw->periodic_g += n;
	d->cycle += n;
}

static void fa_plain(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 todo,
		     unsigned int limit)
{
	unsigned int n;

	while (todo) {
		n = todo < limit ? todo : limit;
		fa_chunk(sim, d, n);
		todo -= n;
	}
}

/* ---- hyperperiod extrapolation (quad mode) ---- */

static u64 fa_lcm(u64 a, u64 b)
{
	u64 x = a, y = b, t;

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

static u64 fa_hyperperiod(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	struct nvpc_sim_hw *hw = &d->hw;
	u64 l = 1, p;
	unsigned int i, j;
	bool zero;

	if (hw->pend_swap || hw->pend_pm || hw->pend_user_clear ||
	    hw->swap_settled)
		return 0;
	for (i = 0; i < 4; i++) {
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
	if (sim->gen >= NVPC_GEN_G84) {
		/* the swap source must stay quiet over the whole span */
		fa_sig_period(sim, d, hw->spec_src & 0xff, &zero);
		if (!zero)
			return 0;
	}
	return l;
}

struct fa_snap {
	u32 prev_raw;
	u8 prev_event, latch, latch_d1, quad_state;
	u64 shadow[NVPC_SIM_NR_CTRS];
};

static void fa_snap(const struct nvpc_sim_hw *hw, struct fa_snap *s)
{
	s->prev_raw = hw->prev_raw;
	s->prev_event = hw->prev_event;
	s->latch = hw->latch;
	s->latch_d1 = hw->latch_d1;
	s->quad_state = hw->quad_state;
	memcpy(s->shadow, hw->shadow, sizeof(s->shadow));
}

static u64 fa_sat_mul(u64 a, u64 b)
{
	if (a && b > ~0ULL / a)
		return ~0ULL;
	return a * b;
}

static void fa_quad_hyper(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
			  u64 todo)
{
	struct nvpc_sim_hw *hw = &d->hw;
	struct fa_snap s0, s1;
	u64 l, m, i;

	l = fa_hyperperiod(sim, d);
	if (!l || todo < 3 * l + 2 * NVPC_SIM_HIST) {
		fa_plain(sim, d, todo, 64);
		return;
	}
	/* warm up (delays and the FLAG pipeline), then measure one period */
	fa_plain(sim, d, l + 2, 64);
	fa_snap(hw, &s0);
	fa_plain(sim, d, l, 64);
	fa_snap(hw, &s1);
	todo -= 2 * l + 2;
	if (s0.prev_raw != s1.prev_raw || s0.prev_event != s1.prev_event ||
	    s0.latch != s1.latch || s0.latch_d1 != s1.latch_d1 ||
	    s0.quad_state != s1.quad_state) {
		fa_plain(sim, d, todo, 64);
		return;
	}
	/* skip whole periods; keep a tail that refills the history */
	m = (todo - NVPC_SIM_HIST) / l;
	for (i = 0; i < NVPC_SIM_NR_CTRS; i++)
		hw->shadow[i] = nvpc_sim_ctr_add(sim->gen, hw->shadow[i],
						 fa_sat_mul(m, s1.shadow[i] -
							    s0.shadow[i]));
	d->cycle += m * l;
	if (!(nvpc_sim_set_ctrl(sim, d) & NVPC_GCTRL_PERIODIC_RESET))
		hw->periodic_g += m * l;
	fa_plain(sim, d, todo - m * l, 64);
}

/* ---- scheduling ---- */

static void fa_run_set(struct nvpc_sim *sim, unsigned int first,
		       unsigned int count, u64 until)
{
	unsigned int i, lim[8], best, refs;
	bool interleave = false;
	u64 t, tb, todo;

	for (i = 0; i < count; i++) {
		refs = fa_refs(sim, &sim->dom[first + i]);
		lim[i] = fa_limit(&sim->dom[first + i], refs);
		if (refs & FA_REF_IMPORT)
			interleave = true;
	}
	if (!interleave) {
		for (i = 0; i < count; i++) {
			struct nvpc_sim_dom *d = &sim->dom[first + i];

			todo = nvpc_sim_target(d, until) - d->cycle;
			if (d->hw.mode == NVPC_SIM_MODE_QUAD && lim[i] == 64)
				fa_quad_hyper(sim, d, todo);
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

			if (d->cycle >= nvpc_sim_target(d, until))
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
			fa_chunk(sim, d, todo < lim[best] ? todo : lim[best]);
		}
	}
}

static void fa_run(struct nvpc_sim *sim, u64 until)
{
	unsigned int i;

	if (!nvpc_sim_enabled(sim)) {
		for (i = 0; i < sim->nr_dom; i++)
			sim->dom[i].cycle = nvpc_sim_target(&sim->dom[i], until);
		return;
	}
	for (i = 0; i < sim->nr_dom; i += sim->dom[i].set_count)
		fa_run_set(sim, i, sim->dom[i].set_count, until);
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

const struct nvpc_sim_engine nvpc_sim_engine_fast = {
	.name = "fast",
	.run = fa_run,
	.signal = fa_engine_signal,
	.settle = fa_settle,
};
