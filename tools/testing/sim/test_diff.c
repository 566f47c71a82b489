// SPDX-License-Identifier: GPL-2.0
/*
 * Differential test: random chips, waveforms and register programming,
 * identical on the fast engine and the oracle; after every step every
 * readable register and every record packet must agree, or, at random
 * steps, a few registers and a domain's cycles only: the fast engine's
 * lazy domains (sim_sched.c "DOC: lazy domains") stay behind until such an
 * observation catches them up, and many configs have idle domains with
 * periodic sources (lazy ones) beside the busy ones. Seeded and
 * reproducible: SIM_DIFF_SEED (default 1), SIM_DIFF_CONFIGS (default
 * 10000). A failure names the config and step to replay. Targeted runs
 * beside it: quad mode with periodic sources over long spans, memoryless
 * quad-mode domains reprogrammed as perf's rotation does, single event
 * mode.
 */
#include "sim_test.h"
#include "sim_internal.h"
#include "kselftest_harness.h"

#define MAX_PKT 256

struct plog {
	int n;
	u64 va[MAX_PKT];
	u8 b[MAX_PKT][32];
	u32 len[MAX_PKT];
	int fail_every;	/* fault every Nth write (0: never) */
	int writes;
	u64 digest;	/* sum of a hash of every packet: order-free */
};

static int plog_cb(void *ctx, u64 va, const void *buf, u32 len)
{
	struct plog *l = ctx;

	l->writes++;
	if (l->fail_every && l->writes % l->fail_every == 0)
		return 1;
	{
		const u8 *p = buf;
		u64 h = va * 0x9e3779b97f4a7c15ULL + len;
		u32 i;

		for (i = 0; i < len; i++)
			h = (h ^ p[i]) * 0x100000001b3ULL;
		l->digest += h ^ (h >> 29);
	}
	if (l->n < MAX_PKT) {
		l->va[l->n] = va;
		l->len[l->n] = len;
		memcpy(l->b[l->n], buf, len);
	}
	l->n++;
	return 0;
}

/* stable insertion sort of the kept packets by address */
static void plog_sort(struct plog *l)
{
	int n = l->n < MAX_PKT ? l->n : MAX_PKT, i, j;
	u8 b[32];
	u64 va;
	u32 len;

	for (i = 1; i < n; i++) {
		va = l->va[i];
		len = l->len[i];
		memcpy(b, l->b[i], sizeof(b));
		for (j = i; j > 0 && l->va[j - 1] > va; j--) {
			l->va[j] = l->va[j - 1];
			l->len[j] = l->len[j - 1];
			memcpy(l->b[j], l->b[j - 1], sizeof(b));
		}
		l->va[j] = va;
		l->len[j] = len;
		memcpy(l->b[j], b, sizeof(b));
	}
}

struct cfg {
	struct nvpc_domain_desc dom[8];
	struct nvpc_chip_desc chip;
	struct nvpc_sim *s[2];
	struct plog log[2];
	u32 regs[2048];
	int nregs;
};

static const u32 clocks[] = { 100 * MHZ, 200 * MHZ, 250 * MHZ, 400 * MHZ };

static void cfg_chip(struct cfg *c)
{
	u8 gen = rnd(NVPC_GEN_COUNT);
	int n = 0, i, nd;

	memset(&c->chip, 0, sizeof(c->chip));
	if (gen >= NVPC_GEN_GF100) {
		int hub = 1 + rnd(2);

		for (i = 0; i < hub; i++)
			c->dom[n++] = (struct nvpc_domain_desc)
				{ .dset = NVPC_DSET_HUB, .index = i,
				  .nr_signals = 0x60, .trailer_base = 0x20,
				  .clock = "t", .clock_hz = clocks[rnd(4)] };
		c->dom[n++] = (struct nvpc_domain_desc)
			{ .dset = NVPC_DSET_GPC, .nr_signals = 0x60,
			  .trailer_base = 0x20, .clock = "t",
			  .clock_hz = clocks[rnd(4)] };
		c->dom[n++] = (struct nvpc_domain_desc)
			{ .dset = NVPC_DSET_PART, .nr_signals = 0x60,
			  .trailer_base = 0x20, .clock = "t",
			  .clock_hz = clocks[rnd(4)] };
		c->chip.nr_gpc = 1 + rnd(2);
		c->chip.nr_part = 1;
	} else {
		nd = gen < NVPC_GEN_NV20 ? 1 : gen < NVPC_GEN_NV40 ? 2 :
		     1 + rnd(4);
		for (i = 0; i < nd; i++)
			c->dom[n++] = (struct nvpc_domain_desc)
				{ .dset = NVPC_DSET_MAIN, .index = i,
				  .nr_signals = 0x40, .trailer_base = 0x20,
				  .clock = "t", .clock_hz = clocks[rnd(4)] };
	}
	c->chip.chipset = 0x100 + gen;
	c->chip.name = "rand";
	c->chip.alt_name = "rand";
	c->chip.gen = gen;
	c->chip.nr_domains = n;
	c->chip.domains = c->dom;
}

static void cfg_waves(struct cfg *c)
{
	static const u32 short_periods[] = { 1, 2, 3, 4, 6, 8, 12, 16 };
	unsigned int d, sig, nd = nvpc_sim_nr_domains(c->s[0]), k;
	struct nvpc_sim_wave w;
	bool lazy;

	for (d = 0; d < nd; d++) {
		/* constant and short periodic sources only: may be lazy */
		lazy = !rnd(3);
		for (sig = 0; sig < 16; sig++) {
			memset(&w, 0, sizeof(w));
			w.kind = lazy ? rnd(2) : rnd(3);
			w.value = rnd(2);
			w.period = lazy ? short_periods[rnd(8)] :
				   1 + rnd(rnd(2) ? 8 : 64);
			w.width = rnd(w.period + 1);
			w.phase = rng();
			w.seed = rng();
			w.density = rnd(0x10001);
			for (k = 0; k < 2; k++)
				nvpc_sim_set_wave(c->s[k], d, sig, &w);
		}
	}
}

/* every register address worth reading */
static void cfg_regs(struct cfg *c)
{
	struct nvpc_sim *s = c->s[0];
	unsigned int d, off;
	u32 a;

	c->nregs = 0;
	c->regs[c->nregs++] = NVPC_PMC_BOOT_0;
	c->regs[c->nregs++] = NVPC_PMC_ENABLE;
	if (c->chip.gen < NVPC_GEN_GF100) {
		for (a = 0xa400; a < 0xa900 && c->nregs < 2048; a += 4)
			c->regs[c->nregs++] = a;
		return;
	}
	c->regs[c->nregs++] = NVPC_GF100_GPC_COUNT;
	c->regs[c->nregs++] = NVPC_GF100_HUB_DSET_CTRL;
	c->regs[c->nregs++] = NVPC_GF100_GPC_DSET_CTRL;
	c->regs[c->nregs++] = NVPC_GF100_PART_DSET_CTRL;
	for (a = NVPC_GF100_MAIN_RECORD_CHAN;
	     a <= NVPC_GF100_MAIN_RECORD_COUNT; a += 4)
		c->regs[c->nregs++] = a;
	for (d = 0; d < nvpc_sim_nr_domains(s); d++) {
		int dset = -1, unit = 0, idx = 0, i;

		/* find the domain's base from its place */
		for (i = 0; i < 3 && dset < 0; i++) {
			int k;

			for (k = 0; k < NVPC_GF100_MAX_GPC; k++) {
				int f;

				for (idx = 0; idx < 8; idx++) {
					f = nvpc_sim_domain_find(s,
						i == 0 ? NVPC_DSET_HUB :
						i == 1 ? NVPC_DSET_GPC :
						NVPC_DSET_PART, k, idx);
					if (f == (int)d) {
						dset = i;
						unit = k;
						break;
					}
				}
				if (dset >= 0)
					break;
			}
		}
		a = dset == 0 ? NVPC_GF100_HUB_BASE(idx) :
		    dset == 1 ? NVPC_GF100_GPC_BASE(unit, idx) :
		    NVPC_GF100_PART_BASE(unit, idx);
		for (off = 0; off < 0x104 && c->nregs < 2048; off += 4)
			c->regs[c->nregs++] = a + off;
	}
}

static u32 rnd_sig(void)
{
	return rnd(2) ? rnd(16) : 0x20 + rnd(0x40);
}

static u32 rnd_src(void)
{
	return rnd_sig() | rnd_sig() << 8 | rnd_sig() << 16 | rnd_sig() << 24;
}

static u32 rnd_op(void)
{
	u32 v = rnd(4) ? rng() & 0xffff : (rnd(2) ? 0xaaaa : 0xffff);

	if (rnd(2))
		v |= (rng() & 0x1f) << 16;
	return v;
}

static u32 rnd_ctrl(u8 gen)
{
	u32 v;

	if (gen < NVPC_GEN_NV40)
		return rng() & 0x57f07;
	if (gen < NVPC_GEN_GF100) {
		v = (rnd(8) ? rnd(3) : 3) | (rnd(8) ? rnd(5) : rnd(8)) << 4;
		v |= rng() & (BIT(8) | BIT(11) | BIT(13) | BIT(16) | BIT(20) |
			      BIT(27) | BIT(30));
		v |= rnd(3) << 21;
		return v;
	}
	/* MODE: mostly single/quad, often record (3 long, 5 short) */
	v = rnd(4) ? rnd(3) : rnd(3) ? (rnd(2) ? 3 : 5) : rnd(8);
	v |= rnd(5) << 3;
	v |= rng() & (BIT(6) | BIT(7) | BIT(8) | BIT(18));
	return v | rnd(3) << 21;
}

/*
 * GF100+: every domain in record mode (MODE 3 or 5) sharing the MAIN
 * buffer (sim_regs.c "GF100+ record mode"), random STOP and event
 * sources, a random LIMIT: packets of several domains interleave.
 */
static void cfg_gf_record(struct cfg *c)
{
	unsigned int d, nd = nvpc_sim_nr_domains(c->s[0]), k, n;
	u32 base, v[8], a[8];
	int f, idx, u;

	for (d = 0; d < nd; d++) {
		base = 0;
		for (idx = 0; idx < 8 && !base; idx++)
			if (nvpc_sim_domain_find(c->s[0], NVPC_DSET_HUB, 0,
						 idx) == (int)d)
				base = NVPC_GF100_HUB_BASE(idx);
		for (u = 0; u < 2 && !base; u++) {
			f = nvpc_sim_domain_find(c->s[0], NVPC_DSET_GPC, u, 0);
			if (f == (int)d)
				base = NVPC_GF100_GPC_BASE(u, 0);
		}
		if (!base)
			base = NVPC_GF100_PART_BASE(0, 0);
		n = 0;
		a[n] = base + NVPC_GF100_CTRL;
		v[n++] = (rnd(2) ? 3 : 5) | rnd(5) << 3;
		a[n] = base + NVPC_GF100_STOP_SRC;
		v[n++] = rnd_src();
		a[n] = base + NVPC_GF100_STOP_OP;
		v[n++] = rnd(2) ? NVPC_OP_ARG0 : rnd_op();
		a[n] = base + NVPC_GF100_SRC(rnd(3));
		v[n++] = rnd_src();
		a[n] = base + NVPC_GF100_SRC(rnd(3));
		v[n++] = rnd_src();
		for (k = 0; k < 2; k++)
			for (idx = 0; idx < (int)n; idx++)
				nvpc_sim_wr32(c->s[k], a[idx], v[idx]);
	}
	v[0] = 0x1000 + rnd(0x100) * 0x10;
	v[1] = rnd(2) ? v[0] + rnd(0x40) * 0x10 : 0xfffffff0;
	v[2] = rnd(0x100);
	for (k = 0; k < 2; k++) {
		nvpc_sim_wr32(c->s[k], NVPC_GF100_MAIN_RECORD_ADDRESS_HIGH, v[2]);
		nvpc_sim_wr32(c->s[k], NVPC_GF100_MAIN_RECORD_LIMIT, v[1]);
		nvpc_sim_wr32(c->s[k], NVPC_GF100_MAIN_RECORD_START, v[0]);
	}
}

/*
 * G84:GF100: every domain in record mode on its own buffer (pcounter.rst
 * "Record mode setup"), random STOP and event sources, LIMIT and format;
 * RECORD_START sometimes written before the mode (the bogus packet,
 * sim_regs.c "DOC: bogus record packet"). The bind is done by the caller.
 */
static void cfg_g84_record(struct cfg *c)
{
	unsigned int d, nd = nvpc_sim_nr_domains(c->s[0]), k, n, j;
	u32 v[8], a[8], start, limit;
	bool early;

	for (d = 0; d < nd; d++) {
		/* disjoint buffers: packets of two domains never meet */
		start = 0x100000 * (d + 1) + rnd(0x100) * 0x10;
		limit = rnd(2) ? start + rnd(0x40) * 0x10 : start + 0xfff00;
		early = !rnd(4);
		n = 0;
		if (early) {
			a[n] = NVPC_G84_RECORD_START(d);
			v[n++] = start;
		}
		a[n] = NVPC_NV40_CTRL(d);
		v[n++] = NVPC_NV40_CTRL_MODE_RECORD |
			 (rnd(2) ? NVPC_G84_CTRL_RECORD_SHORT : 0);
		a[n] = NVPC_NV40_STOP_SRC(d);
		v[n++] = rnd_src();
		a[n] = NVPC_NV40_STOP_OP(d);
		v[n++] = rnd(2) ? NVPC_OP_ARG0 : rnd_op();
		for (j = 0; j < 2; j++) {
			a[n] = NVPC_NV40_SRC(d, rnd(3));
			v[n++] = rnd_src();
		}
		a[n] = NVPC_G84_RECORD_LIMIT(d);
		v[n++] = limit;
		if (!early) {
			a[n] = NVPC_G84_RECORD_START(d);
			v[n++] = start;
		}
		for (k = 0; k < 2; k++)
			for (j = 0; j < n; j++)
				nvpc_sim_wr32(c->s[k], a[j], v[j]);
	}
}

/*
 * A random register write, the same on both sims; to domain @busy (when
 * it is not negative) or to any.
 */
static void rnd_write(struct cfg *c, int busy)
{
	u8 gen = c->chip.gen;
	unsigned int nd = nvpc_sim_nr_domains(c->s[0]);
	u32 a = 0, v = 0, r = rnd(20), i = busy >= 0 ? busy : rnd(nd), base;
	int k;

	if (gen < NVPC_GEN_NV40) {
		i = busy >= 0 ? busy : rnd(gen < NVPC_GEN_NV20 ? 1 : 2);
		switch (r) {
		case 0 ... 5:
			a = NVPC_NV10_SRC(i, rnd(6));
			v = rnd_src();
			break;
		case 6 ... 11:
			a = NVPC_NV10_OP(i, rnd(6));
			v = rnd_op();
			break;
		case 12:
			a = NVPC_NV10_CTR_PRE(i);
			v = rnd(4);
			break;
		case 13:
			a = NVPC_NV10_CTR_STOP(i);
			v = rnd(4);
			break;
		case 14:
			a = rnd(2) ? NVPC_NV10_THRESHOLD(i) :
				     NVPC_NV10_THRESHOLD_HI(i);
			v = rnd(40);
			break;
		case 15 ... 16:
			a = NVPC_NV10_CTRL;
			v = rnd_ctrl(gen);
			break;
		case 17:
			a = NVPC_NV30_QUAD_ACK_TRIGGER;
			v = rng() & 0x101;
			break;
		default:
			a = NVPC_PGRAPH_PM_TRIGGER;
			v = 0x20;
		}
	} else if (gen < NVPC_GEN_GF100) {
		switch (r) {
		case 0 ... 4:
			a = NVPC_NV40_SRC(i, rnd(4));
			v = rnd_src();
			break;
		case 5 ... 9:
			a = rnd(6) < 4 ? NVPC_NV40_OP(i, rnd(4)) :
			    rnd(2) ? NVPC_NV40_SETFLAG_OP(i) :
			    NVPC_NV40_CLRFLAG_OP(i);
			v = rnd_op();
			break;
		case 10:
			a = rnd(2) ? NVPC_NV40_CTR_PRE(i) : NVPC_NV40_CTR_STOP(i);
			v = rnd(4);
			break;
		case 11:
			a = NVPC_NV40_THRESHOLD(i);
			v = rnd(40);
			break;
		case 12 ... 13:
			a = NVPC_NV40_CTRL(i);
			v = rnd_ctrl(gen);
			break;
		case 14:
			a = NVPC_NV40_QUAD_ACK_TRIGGER(i);
			v = rnd(2);
			break;
		case 15:
			a = NVPC_G84_SPEC_SRC(i);
			v = rnd(3) ? 0 : rnd_sig() | rnd_sig() << 8;
			break;
		case 16:
			a = NVPC_GT215_USER_TRIGGER(i);
			v = rnd(16);
			break;
		case 17:
			k = rnd(5);
			a = k == 0 ? NVPC_G84_RECORD_START(i) :
			    k == 1 ? NVPC_G84_RECORD_LIMIT(i) :
			    k == 2 ? NVPC_G92_RECORD_ADDRESS_HIGH(i) :
			    k == 3 ? NVPC_G84_GCTRL :
			    rnd(2) ? NVPC_G84_RECORD_DMA : NVPC_G84_RECORD_CHAN;
			v = k < 2 ? 0x1000 + rnd(0x100) * 0x10 :
			    k < 4 ? rnd(0x20) : rnd(2) << 31 | rnd(4);
			break;
		default:
			a = NVPC_PGRAPH_PM_TRIGGER;
			v = rnd(2) ? 0x20 : 0;
		}
	} else {
		/* a GF100 domain base through the flat order */
		struct nvpc_sim *s = c->s[0];
		int f, idx;

		base = 0;
		for (idx = 0; idx < 8 && !base; idx++) {
			f = nvpc_sim_domain_find(s, NVPC_DSET_HUB, 0, idx);
			if (f == (int)i)
				base = NVPC_GF100_HUB_BASE(idx);
		}
		for (k = 0; k < 2 && !base; k++) {
			if (nvpc_sim_domain_find(s, NVPC_DSET_GPC, k, 0) == (int)i)
				base = NVPC_GF100_GPC_BASE(k, 0);
		}
		if (!base)
			base = NVPC_GF100_PART_BASE(0, 0);
		if (!rnd(6))
			r = 20 + rnd(6);	/* the MAIN record registers */
		switch (r) {
		case 20 ... 21:
			a = NVPC_GF100_MAIN_RECORD_START;
			v = 0x1000 + rnd(0x100) * 0x10 + rnd(16);
			break;
		case 22:
			a = NVPC_GF100_MAIN_RECORD_LIMIT;
			v = 0x1000 + rnd(0x100) * 0x10;
			break;
		case 23:
			a = NVPC_GF100_MAIN_RECORD_ADDRESS_HIGH;
			v = rnd(0x200);
			break;
		case 24 ... 25:
			/* read-only POS, COUNT; stored CHAN */
			a = NVPC_GF100_MAIN_RECORD_CHAN + 4 * (r == 24 ? 4 : 5);
			if (!rnd(4))
				a = NVPC_GF100_MAIN_RECORD_CHAN;
			v = rng();
			break;
		case 0 ... 4:
			a = base + NVPC_GF100_SRC(rnd(4));
			v = rnd_src();
			break;
		case 5 ... 9:
			a = base + (rnd(6) < 4 ? NVPC_GF100_OP(rnd(4)) :
				    rnd(2) ? NVPC_GF100_SETFLAG_OP :
				    NVPC_GF100_CLRFLAG_OP);
			v = rnd_op();
			break;
		case 10 ... 11:
			a = base + NVPC_GF100_CTRL;
			v = rnd_ctrl(gen);
			break;
		case 12:
			a = base + NVPC_GF100_QUAD_ACK_TRIGGER;
			v = 1;
			break;
		case 13:
			a = base + NVPC_GF100_SWAP_SRC;
			v = rnd(2) ? 0 : 0x47 + rnd(4);
			break;
		case 14 ... 15:
			a = base + NVPC_GF100_USER_TRIGGER;
			v = rnd(256);
			break;
		case 16:
			a = base + NVPC_GF100_THRESHOLD;
			v = rnd(40);
			break;
		case 17:
			k = rnd(4);
			a = k < 2 ? NVPC_GF100_HUB_DSET_CTRL :
			    k == 2 ? NVPC_GF100_GPC_DSET_CTRL :
			    NVPC_GF100_PART_DSET_CTRL;
			/* PERIODIC_RESET (bit 4), RECORD_RESET (bit 0) */
			v = rnd(2) ? 0 : rnd(2) ? 0x10 : rnd(2) ? 0x1 : 0x11;
			break;
		case 18:
			a = NVPC_PMC_ENABLE;
			v = rnd(4) ? 0xffffffff : 0;
			break;
		default:
			a = base + NVPC_GF100_PRE_OP;
			v = rnd_op();
		}
	}
	for (k = 0; k < 2; k++)
		nvpc_sim_wr32(c->s[k], a, v);
}

/*
 * An observation at a random time: a few random registers and one
 * domain's cycles (each catches up only what it sees).
 */
static int cfg_peek(struct cfg *c, u32 *bad_addr, u32 *v0, u32 *v1)
{
	unsigned int d = rnd(nvpc_sim_nr_domains(c->s[0])), i, n = 1 + rnd(4);
	u32 a;

	for (i = 0; i < n; i++) {
		a = c->regs[rnd(c->nregs)];
		*v0 = nvpc_sim_rd32(c->s[0], a);
		*v1 = nvpc_sim_rd32(c->s[1], a);
		if (*v0 != *v1) {
			*bad_addr = a;
			return 1;
		}
	}
	*v0 = nvpc_sim_cycles(c->s[0], d);
	*v1 = nvpc_sim_cycles(c->s[1], d);
	*bad_addr = 0xc0c0 + d;
	return *v0 != *v1;
}

/* domains of the fast sim left behind by the last run (lazy ones) */
static unsigned int cfg_behind(struct cfg *c)
{
	struct nvpc_sim *s = c->s[0];
	unsigned int d, n = 0;

	for (d = 0; d < s->nr_dom; d++)
		n += s->dom[d].cycle < nvpc_sim_target(&s->dom[d], s->now);
	return n;
}

/*
 * The state a domain's later cycles read, which registers show only in
 * part: the FLAG latch, the last EVENT input and source values, the
 * PERIODIC position and the last cycles of the FLAG and EVENT histories
 * (what a lazy domain's catch-up must restore; the fast engine keeps the
 * histories of at least the 11 cycles its hyperperiod skips refill).
 */
static int cfg_compare_state(struct cfg *c, u32 *bad_addr, u32 *v0, u32 *v1)
{
	struct nvpc_sim *f = c->s[0], *o = c->s[1];
	unsigned int d, k;
	u32 nbits = c->chip.gen < NVPC_GEN_NV30 ? NVPC_SIM_NR_SLOTS : 16;
	u32 mask = nbits >= 32 ? ~0U : (1U << nbits) - 1;

	nvpc_sim_catch_up(f);
	for (d = 0; d < f->nr_dom; d++) {
		const struct nvpc_sim_hw *a = &f->dom[d].hw, *b = &o->dom[d].hw;
		u64 cyc = f->dom[d].cycle;

		*bad_addr = 0x57a700 + d;
		*v0 = a->latch | a->latch_d1 << 1 | a->prev_event << 2;
		*v1 = b->latch | b->latch_d1 << 1 | b->prev_event << 2;
		if (*v0 != *v1)
			return 1;
		*bad_addr = 0x57a710 + d;
		*v0 = a->prev_raw & mask;
		*v1 = b->prev_raw & mask;
		if (*v0 != *v1)
			return 1;
		*bad_addr = 0x57a720 + d;
		*v0 = a->periodic_g;
		*v1 = b->periodic_g;
		if (*v0 != *v1)
			return 1;
		*bad_addr = 0x57a730 + d;
		*v0 = a->pend_abort | a->pend_start << 1 | a->pend_swap << 2 |
		      a->pend_pm << 3 | a->pend_user_clear << 4 |
		      a->swap_settled << 5 | a->single_state << 8;
		*v1 = b->pend_abort | b->pend_start << 1 | b->pend_swap << 2 |
		      b->pend_pm << 3 | b->pend_user_clear << 4 |
		      b->swap_settled << 5 | b->single_state << 8;
		if (*v0 != *v1)
			return 1;
		for (k = 1; k <= 8 && k <= cyc; k++) {
			*bad_addr = 0x57a800 + d * 0x10 + k;
			*v0 = nvpc_sim_hist_bit(a->hist_flag, cyc - k) |
			      nvpc_sim_hist_bit(a->hist_event, cyc - k) << 1;
			*v1 = nvpc_sim_hist_bit(b->hist_flag, cyc - k) |
			      nvpc_sim_hist_bit(b->hist_event, cyc - k) << 1;
			if (*v0 != *v1)
				return 1;
		}
	}
	return 0;
}

static int cfg_compare(struct cfg *c, u32 *bad_addr, u32 *v0, u32 *v1)
{
	unsigned int d, i;

	if (cfg_compare_state(c, bad_addr, v0, v1))
		return 1;

	for (d = 0; d < nvpc_sim_nr_domains(c->s[0]); d++) {
		if (nvpc_sim_cycles(c->s[0], d) != nvpc_sim_cycles(c->s[1], d)) {
			*bad_addr = 0xc0c0 + d;
			*v0 = nvpc_sim_cycles(c->s[0], d);
			*v1 = nvpc_sim_cycles(c->s[1], d);
			return 1;
		}
	}
	for (i = 0; i < (unsigned int)c->nregs; i++) {
		*v0 = nvpc_sim_rd32(c->s[0], c->regs[i]);
		*v1 = nvpc_sim_rd32(c->s[1], c->regs[i]);
		if (*v0 != *v1) {
			*bad_addr = c->regs[i];
			return 1;
		}
	}
	if (c->log[0].n != c->log[1].n) {
		*bad_addr = 0xbeef;
		*v0 = c->log[0].n;
		*v1 = c->log[1].n;
		return 1;
	}
	/*
	 * Before GF100 each domain writes its own buffer: the fast engine
	 * runs domain by domain, the oracle in global cycle order, so the
	 * writes of different domains come in another order (into other
	 * addresses). Compare them in address order (stable: the writes to
	 * one address keep their order).
	 */
	if (c->chip.gen < NVPC_GEN_GF100) {
		if (c->log[0].digest != c->log[1].digest) {
			*bad_addr = 0xbee1;
			*v0 = (u32)c->log[0].digest;
			*v1 = (u32)c->log[1].digest;
			return 1;
		}
		/* only the first MAX_PKT are kept: not the same ones */
		if (c->log[0].n > MAX_PKT)
			return 0;
		for (i = 0; i < 2; i++)
			plog_sort(&c->log[i]);
	}
	for (i = 0; i < (unsigned int)c->log[0].n && i < MAX_PKT; i++) {
		if (c->log[0].va[i] != c->log[1].va[i] ||
		    c->log[0].len[i] != c->log[1].len[i] ||
		    memcmp(c->log[0].b[i], c->log[1].b[i], c->log[0].len[i])) {
			*bad_addr = 0xbee0;
			*v0 = i;
			*v1 = i;
			return 1;
		}
	}
	return 0;
}

/*
 * Advance @cyc cycles of @dom in parts of at most @budget work units
 * (nvpc_sim_advance_bounded(), as the kernel's real-time accesses do);
 * when a part makes no progress the budget doubles. -1 if a part did
 * more work than its budget.
 */
TEST(fast_equals_oracle)
{
	const char *e = getenv("SIM_DIFF_CONFIGS");
	const char *sd = getenv("SIM_DIFF_SEED");
	unsigned int n = e ? strtoul(e, NULL, 0) : 10000;
	u64 seed = sd ? strtoull(sd, NULL, 0) : 1;
	unsigned int i, step, w, nsteps, k, lat;
	u64 stats_total = 0, pkts = 0, hyper = 0, gf_pkts = 0, gf_heavy = 0;
	u64 bounded = 0, behind = 0, peeks = 0, unbound = 0, g84_heavy = 0;
	u64 g84_pkts = 0;
	bool gf;
	int busy;
	struct cfg *c = calloc(1, sizeof(*c));
	u32 bad = 0, v0 = 0, v1 = 0;

	ASSERT_NE(NULL, c);
	for (i = 0; i < n; i++) {
		rng_seed(seed * 0x9e3779b97f4a7c15ULL + i * 0x632be59bd9b4e019ULL + 1);
		cfg_chip(c);
		lat = rnd(3) ? rnd(4) : rnd(64);
		for (k = 0; k < 2; k++) {
			c->s[k] = sim_new_lat(&c->chip, k ? &nvpc_sim_engine_oracle :
					      &nvpc_sim_engine_fast, lat);
			ASSERT_NE(NULL, c->s[k]) TH_LOG("config %u", i);
			memset(&c->log[k], 0, sizeof(c->log[k]));
			c->log[k].fail_every = rnd(8) ? 0 : 3 + rnd(5);
			nvpc_sim_set_mem_write(c->s[k], plog_cb, &c->log[k]);
		}
		c->log[1].fail_every = c->log[0].fail_every;
		cfg_waves(c);
		cfg_regs(c);
		gf = c->chip.gen >= NVPC_GEN_GF100;
		/*
		 * G84:GF100 record through a bound channel (sim_regs.c "DOC:
		 * record bind"): mostly bound; unbound packets fault
		 */
		if (c->chip.gen >= NVPC_GEN_G84 && !gf && rnd(8)) {
			for (k = 0; k < 2; k++) {
				nvpc_sim_wr32(c->s[k], NVPC_G84_RECORD_DMA, 0xd0);
				nvpc_sim_wr32(c->s[k], NVPC_G84_RECORD_CHAN,
					      NVPC_RECORD_CHAN_VALID | 1);
			}
		}
		if (gf && rnd(2)) {
			cfg_gf_record(c);
			gf_heavy++;
		}
		if (c->chip.gen >= NVPC_GEN_G84 && !gf && rnd(2)) {
			cfg_g84_record(c);
			g84_heavy++;
			/* faults by callback order: that order differs */
			c->log[0].fail_every = 0;
			c->log[1].fail_every = 0;
		}
		nsteps = 3 + rnd(5);
		/* half the configs program one domain only: the others idle */
		busy = rnd(2) ? (int)rnd(nvpc_sim_nr_domains(c->s[0])) : -1;
		if (c->chip.gen < NVPC_GEN_NV40 && busy > 0)
			busy = c->chip.gen < NVPC_GEN_NV20 ? 0 : busy & 1;
		for (step = 0; step < nsteps; step++) {
			unsigned int nw = rnd(8), dom = rnd(nvpc_sim_nr_domains(c->s[0]));
			u64 cyc = rnd(4) ? 1 + rnd(100) : 1 + rnd(rnd(4) ? 600 : 6000);
			bool full = rnd(2) || step == nsteps - 1;

			for (w = 0; w < nw; w++)
				rnd_write(c, busy);
			if (!rnd(16)) {
				u32 lost = rnd(3), rf = rnd(2), keep = rnd(4) ? 0 : 1u << rnd(6);
				bool ns = !rnd(8);

				for (k = 0; k < 2; k++) {
					nvpc_sim_fault_lost_swaps(c->s[k], dom, lost);
					/* doctor --hardware's knobs, in both engines */
					nvpc_sim_fault_keep(c->s[k], dom, keep);
					nvpc_sim_fault_no_swap(c->s[k], dom, ns);
					if (!rf)
						nvpc_sim_fault_record(c->s[k], dom);
				}
			}
			if (!rnd(8))
				for (k = 0; k < 2; k++)
					nvpc_sim_pm_trigger(c->s[k]);
			if (!rnd(3)) {
				/*
				 * a new waveform on a live domain, often one
				 * left behind (lazy), on a signal it selects
				 */
				struct nvpc_sim_wave wv = {
					.kind = rnd(2), .value = rnd(2),
					.period = 1 + rnd(6), .phase = rnd(7),
				};
				unsigned int wd = rnd(nvpc_sim_nr_domains(c->s[0]));
				unsigned int ws = rnd(16), t;
				struct nvpc_sim_dom *x;

				for (t = 0; t < c->s[0]->nr_dom; t++) {
					x = &c->s[0]->dom[t];
					if (rnd(2) && x->cycle <
					    nvpc_sim_target(x, c->s[0]->now))
						wd = t;
				}
				x = &c->s[0]->dom[wd];
				if (rnd(2))
					ws = x->hw.src[rnd(4)] >> (8 * rnd(4)) & 15;
				wv.width = rnd(wv.period + 1);
				for (k = 0; k < 2; k++)
					nvpc_sim_set_wave(c->s[k], wd, ws, &wv);
			}
			/* an observation before time moves on */
			if (!rnd(3) && cfg_compare(c, &bad, &v0, &v1)) {
				TH_LOG("config %u (seed %llu) gen %u step %u, before the advance: "
				       "addr 0x%06x fast 0x%08x oracle 0x%08x",
				       i, (unsigned long long)seed, c->chip.gen,
				       step, bad, v0, v1);
				ASSERT_TRUE(0);
			}
			if (cyc > 4000)
				hyper++;
			nvpc_sim_advance(c->s[1], dom, cyc);
			if (rnd(2)) {
				bounded++;
				ASSERT_EQ(0, sim_advance_in_parts(c->s[0], dom, cyc,
							      8 + rnd(300)))
					TH_LOG("config %u step %u", i, step);
			} else {
				nvpc_sim_advance(c->s[0], dom, cyc);
			}
			behind += cfg_behind(c);
			peeks += !full;
			if (full ? cfg_compare(c, &bad, &v0, &v1) :
			    cfg_peek(c, &bad, &v0, &v1)) {
				TH_LOG("config %u (seed %llu) gen %u step %u: "
				       "addr 0x%06x fast 0x%08x oracle 0x%08x",
				       i, (unsigned long long)seed, c->chip.gen,
				       step, bad, v0, v1);
				ASSERT_TRUE(0);
			}
		}
		{
			struct nvpc_sim_stats st, st1;

			nvpc_sim_get_stats(c->s[0], &st);
			stats_total += st.history_misses;
			nvpc_sim_get_stats(c->s[1], &st1);
			stats_total += st1.history_misses;
			/* the same packets fault for want of a bind */
			EXPECT_EQ(st.unbound_faults, st1.unbound_faults)
				TH_LOG("config %u", i);
			unbound += st.unbound_faults;
		}
		pkts += c->log[0].n;
		if (gf)
			gf_pkts += c->log[0].n;
		else
			g84_pkts += c->log[0].n;
		free(c->s[0]);
		free(c->s[1]);
	}
	EXPECT_EQ(0, stats_total);
	EXPECT_LT(0, behind);
	fprintf(stderr, "# %u configs, %llu record packets, %llu long spans compared, %llu steps in bounded parts\n",
	       n, (unsigned long long)pkts, (unsigned long long)hyper,
	       (unsigned long long)bounded);
	fprintf(stderr, "# %llu lazy domains left behind by a step, %llu steps observed by a few reads only\n",
		(unsigned long long)behind, (unsigned long long)peeks);
	fprintf(stderr, "# G84:GF100: %llu configs with every domain recording, %llu packets before GF100, %llu faulted unbound\n",
		(unsigned long long)g84_heavy, (unsigned long long)g84_pkts,
		(unsigned long long)unbound);
	fprintf(stderr, "# GF100+: %llu configs with every domain recording, %llu packets in the shared buffer\n",
		(unsigned long long)gf_heavy, (unsigned long long)gf_pkts);
	free(c);
}

TEST(fast_equals_oracle_hyperperiod)
{
	unsigned int i, m, k, ncase;
	u32 r0, r1;

	/* quad mode with periodic sources only: spans long enough for the
	 * fast engine's hyperperiod extrapolation, checked against the
	 * oracle cycle by cycle. SIM_QUICK (the ASan/UBSan run): 20 cases,
	 * as 60 take over 20 s there and hit the harness's 30 s timeout on
	 * a loaded machine.
	 */
	ncase = getenv("SIM_QUICK") ? 20 : 60;
	for (i = 0; i < ncase; i++) {
		struct nvpc_sim *s[2];

		rng_seed(0x1234567ULL + i * 0x9e3779b97f4a7c15ULL);
		for (k = 0; k < 2; k++) {
			s[k] = sim_new(&chip_g84, k ? &nvpc_sim_engine_oracle :
				       &nvpc_sim_engine_fast);
			ASSERT_NE(NULL, s[k]);
		}
		for (m = 0; m < 16; m++) {
			struct nvpc_sim_wave w = {
				.kind = m < 2 ? NVPC_SIM_WAVE_CONST :
					NVPC_SIM_WAVE_PERIODIC,
				.value = m & 1,
				.period = 1 + rnd(12), .phase = rng(),
			};

			w.width = rnd(w.period + 1);
			for (k = 0; k < 2; k++)
				nvpc_sim_set_wave(s[k], 0, m, &w);
		}
		{
			u32 src[4] = { rnd(16) * 0x01010101U ^ rnd(16) << 8,
				       rnd(16) | rnd(16) << 8 | rnd(16) << 16 |
				       rnd(16) << 24,
				       rnd(16) | 0x2d << 8 | rnd(16) << 16,
				       rnd(16) | 0x3f << 8 | rnd(16) << 24 };
			u32 ctrl = NVPC_NV40_CTRL_MODE_QUAD | rnd(5) << 4 |
				   rnd(3) << 21;
			u32 ops[6];

			for (m = 0; m < 6; m++)
				ops[m] = rnd_op();
			for (k = 0; k < 2; k++) {
				nvpc_sim_wr32(s[k], NVPC_NV40_CTRL(0), ctrl);
				for (m = 0; m < 4; m++) {
					nvpc_sim_wr32(s[k], NVPC_NV40_SRC(0, m),
						      src[m] & 0x3f3f3f3f);
					nvpc_sim_wr32(s[k], NVPC_NV40_OP(0, m),
						      ops[m]);
				}
				nvpc_sim_wr32(s[k], NVPC_NV40_SETFLAG_OP(0),
					      ops[4]);
				nvpc_sim_wr32(s[k], NVPC_NV40_CLRFLAG_OP(0),
					      ops[5]);
			}
		}
		for (k = 0; k < 2; k++) {
			nvpc_sim_advance(s[k], 0, 200000 + i);
			nvpc_sim_wr32(s[k], NVPC_NV40_PRE_OP(0),
				      nvpc_sim_rd32(s[k], NVPC_NV40_PRE_OP(0)));
			nvpc_sim_advance(s[k], 0, 1);
		}
		for (m = 0xa400; m < 0xa900; m += 4) {
			r0 = nvpc_sim_rd32(s[0], m);
			r1 = nvpc_sim_rd32(s[1], m);
			ASSERT_EQ(r0, r1) TH_LOG("case %u addr 0x%x", i, m);
		}
		free(s[0]);
		free(s[1]);
	}
}

/* a source of a memoryless domain: a waveform or a trailer that is no FLAG */
static u32 rnd_memoryless_sig(void)
{
	static const u8 tr[] = {
		NVPC_NV40_TRAILER_ZERO_C, NVPC_NV40_TRAILER_PERIODIC,
		NVPC_NV40_TRAILER_WRCACHE_FLUSH, NVPC_NV40_TRAILER_PM_TRIGGER,
	};

	return rnd(6) ? rnd(16) : TR(tr[rnd(ARRAY_SIZE(tr))]);
}

static u32 rnd_memoryless_src(void)
{
	return rnd_memoryless_sig() | rnd_memoryless_sig() << 8 |
	       rnd_memoryless_sig() << 16 | rnd_memoryless_sig() << 24;
}

/*
 * A waveform of a short period: mostly powers of 2 (hyperperiods of at
 * most 64, evaluated without running), now and then one that makes the
 * hyperperiod longer (measured).
 */
static void rnd_short_wave(struct nvpc_sim_wave *w)
{
	static const u32 periods[] = { 1, 2, 4, 8, 16, 32, 3, 5, 6, 10, 20 };

	memset(w, 0, sizeof(*w));
	w->kind = rnd(4) ? NVPC_SIM_WAVE_PERIODIC : NVPC_SIM_WAVE_CONST;
	w->value = rnd(2);
	w->period = periods[rnd(8) ? rnd(6) : rnd(ARRAY_SIZE(periods))];
	w->width = rnd(w->period + 1);
	w->phase = rng();
}

/*
 * Quad-mode domains that read no FLAG, EVENT or import (sim_hyper.c "DOC:
 * memoryless quad-mode domains"): G84, main.0 programmed as perf's
 * rotation does (an input's SRC and OP rewritten, then a swap), with
 * random ops and delay bits, SETFLAG/CLRFLAG (the latch they follow and do
 * not read), counter modes, PERIODIC and PM_TRIGGER trailers, waveform
 * changes; spans mostly long enough to skip, in bounded parts or in one
 * go. Every register, the latch, the last sources and the histories equal
 * the oracle's after every step.
 */
TEST(fast_equals_oracle_memoryless)
{
	unsigned int i, step, k, m, n, ncase;
	struct cfg *c = calloc(1, sizeof(*c));
	struct nvpc_sim_wave wv;
	u32 bad = 0, v0 = 0, v1 = 0, a, v, ctrl;
	u64 cyc;

	ASSERT_NE(NULL, c);
	ncase = getenv("SIM_QUICK") ? 40 : 150;
	for (i = 0; i < ncase; i++) {
		rng_seed(0x3141592ULL + i * 0x9e3779b97f4a7c15ULL);
		c->chip = chip_g84;
		for (k = 0; k < 2; k++) {
			c->s[k] = sim_new(&c->chip, k ? &nvpc_sim_engine_oracle :
					  &nvpc_sim_engine_fast);
			ASSERT_NE(NULL, c->s[k]);
			memset(&c->log[k], 0, sizeof(c->log[k]));
		}
		cfg_regs(c);
		for (m = 0; m < 16; m++) {
			rnd_short_wave(&wv);
			for (k = 0; k < 2; k++)
				nvpc_sim_set_wave(c->s[k], 0, m, &wv);
		}
		/* counter mode; PERIODIC (1024 or 2048 cycles) now and then */
		ctrl = NVPC_NV40_CTRL_MODE_QUAD | rnd(5) << 4 |
		       (rnd(4) ? 0 : rnd(3) << 21);
		v = rnd(4) ? TR(NVPC_NV40_TRAILER_ZERO_C) : 0;
		for (k = 0; k < 2; k++) {
			nvpc_sim_wr32(c->s[k], NVPC_G84_SPEC_SRC(0), v);
			nvpc_sim_wr32(c->s[k], NVPC_NV40_CTRL(0), ctrl);
			nvpc_sim_wr32(c->s[k], NVPC_NV40_CTRL(1),
				      NVPC_NV40_CTRL_MODE_SINGLE);
		}
		for (m = 0; m < 6; m++) {
			a = m < 4 ? NVPC_NV40_OP(0, m) :
			    m == 4 ? NVPC_NV40_SETFLAG_OP(0) :
			    NVPC_NV40_CLRFLAG_OP(0);
			v = rnd_op();
			n = rnd_memoryless_src();
			for (k = 0; k < 2; k++) {
				if (m < 4)
					nvpc_sim_wr32(c->s[k],
						      NVPC_NV40_SRC(0, m), n);
				nvpc_sim_wr32(c->s[k], a, v);
			}
		}
		for (step = 0; step < 12; step++) {
			/* the rotation: an input rewritten, then a swap */
			for (n = 1 + rnd(2); n; n--) {
				m = rnd(6);
				if (m < 4 && rnd(3)) {
					a = NVPC_NV40_SRC(0, m);
					v = rnd_memoryless_src();
				} else {
					a = m < 4 ? NVPC_NV40_OP(0, m) :
					    m == 4 ? NVPC_NV40_SETFLAG_OP(0) :
					    NVPC_NV40_CLRFLAG_OP(0);
					v = rnd_op();
				}
				for (k = 0; k < 2; k++)
					nvpc_sim_wr32(c->s[k], a, v);
			}
			if (!rnd(4)) {
				rnd_short_wave(&wv);
				m = rnd(16);
				for (k = 0; k < 2; k++)
					nvpc_sim_set_wave(c->s[k], 0, m, &wv);
			}
			/* one draw for both sims */
			n = rnd(4) ? 1 : 0;
			n |= rnd(8) ? 0 : 2;
			n |= rnd(3) ? 0 : 4;
			n |= rnd(3) ? 0 : 8;
			for (k = 0; k < 2; k++) {
				if (n & 1)	/* PRE_OP, its value: a swap */
					nvpc_sim_wr32(c->s[k],
						      NVPC_NV40_PRE_OP(0),
						      nvpc_sim_rd32(c->s[k],
							NVPC_NV40_PRE_OP(0)));
				if (n & 2)
					nvpc_sim_pm_trigger(c->s[k]);
				if (n & 4)
					nvpc_sim_wr32(c->s[k],
						NVPC_NV40_QUAD_ACK_TRIGGER(0),
						NVPC_QUAD_ACK);
				if (n & 8)	/* a read's settle */
					nvpc_sim_settle(c->s[k]);
			}
			cyc = rnd(5) ? 150 + rnd(rnd(2) ? 2000 : 20000) :
			      1 + rnd(150);
			ASSERT_EQ(0, nvpc_sim_advance(c->s[1], 0, cyc));
			if (rnd(2)) {
				ASSERT_EQ(0, sim_advance_in_parts(c->s[0], 0, cyc,
							      6 + rnd(40)))
					TH_LOG("case %u step %u", i, step);
			} else {
				ASSERT_EQ(0, nvpc_sim_advance(c->s[0], 0, cyc));
			}
			if (cfg_compare(c, &bad, &v0, &v1)) {
				TH_LOG("case %u step %u: addr 0x%06x fast 0x%08x oracle 0x%08x",
				       i, step, bad, v0, v1);
				ASSERT_TRUE(0);
			}
		}
		free(c->s[0]);
		free(c->s[1]);
	}
	free(c);
}

/* one single event mode program: PRE, START, EVENT, STOP tables */
static void single_program(struct nvpc_sim *s, const struct nvpc_chip_desc *c,
			   const u32 *src, const u32 *op)
{
	unsigned int m;

	for (m = 0; m < 4; m++) {
		if (c->gen < NVPC_GEN_NV40) {
			nvpc_sim_wr32(s, NVPC_NV10_SRC(0, m), src[m] & 0x3f3f3f3f);
			if (m)
				nvpc_sim_wr32(s, NVPC_NV10_OP(0, m), op[m]);
		} else {
			nvpc_sim_wr32(s, NVPC_NV40_SRC(0, m), src[m] & 0x3f3f3f3f);
			if (m)
				nvpc_sim_wr32(s, NVPC_NV40_OP(0, m), op[m]);
		}
	}
	/* the PRE_OP write starts single event mode ("Single event mode") */
	nvpc_sim_wr32(s, c->gen < NVPC_GEN_NV40 ? NVPC_NV10_PRE_OP(0) :
		      NVPC_NV40_PRE_OP(0), op[0]);
}

static int regs_equal(struct nvpc_sim *a, struct nvpc_sim *b, u32 *addr)
{
	for (*addr = 0xa400; *addr < 0xa900; *addr += 4)
		if (nvpc_sim_rd32(a, *addr) != nvpc_sim_rd32(b, *addr))
			return 0;
	return 1;
}

/*
 * Single event mode (NV10, NV20, NV40, G84) with periodic sources: the
 * fast engine skips hyperperiods there too (the state machine standing
 * still, or counting); long spans, in bounded parts or in one go, must
 * equal the oracle cycle by cycle.
 */
TEST(fast_equals_oracle_single_hyperperiod)
{
	static const struct nvpc_chip_desc *chips[] = {
		&chip_nv10, &chip_nv20, &chip_nv40, &chip_g84,
	};
	unsigned int i, m, k, ncase;
	struct nvpc_sim *s[2];
	u32 src[4], op[4], addr, ctrl;

	ncase = getenv("SIM_QUICK") ? 16 : 64;
	for (i = 0; i < ncase; i++) {
		const struct nvpc_chip_desc *c = chips[i % 4];

		rng_seed(0x7654321ULL + i * 0x9e3779b97f4a7c15ULL);
		for (k = 0; k < 2; k++) {
			s[k] = sim_new(c, k ? &nvpc_sim_engine_oracle :
				       &nvpc_sim_engine_fast);
			ASSERT_NE(NULL, s[k]);
		}
		for (m = 0; m < 16; m++) {
			struct nvpc_sim_wave w = {
				.kind = m < 2 ? NVPC_SIM_WAVE_CONST :
					NVPC_SIM_WAVE_PERIODIC,
				.value = m & 1,
				.period = 1 + rnd(12), .phase = rng(),
			};

			w.width = rnd(w.period + 1);
			for (k = 0; k < 2; k++)
				nvpc_sim_set_wave(s[k], 0, m, &w);
		}
		for (m = 0; m < 4; m++) {
			src[m] = rnd(16) | rnd(16) << 8 | rnd(16) << 16 |
				 rnd(16) << 24;
			/* mostly always/never, so that states last */
			op[m] = rnd(3) ? (rnd(2) ? 0xffff : 0) : rnd_op() & 0xffff;
		}
		ctrl = rnd(2) ? rnd(5) << 4 : 0;	/* counter mode */
		for (k = 0; k < 2; k++) {
			if (c->gen >= NVPC_GEN_NV40)
				nvpc_sim_wr32(s[k], NVPC_NV40_CTRL(0), ctrl);
			single_program(s[k], c, src, op);
		}
		nvpc_sim_advance(s[1], 0, 150000 + i);
		if (i & 1)
			nvpc_sim_advance(s[0], 0, 150000 + i);
		else
			ASSERT_EQ(0, sim_advance_in_parts(s[0], 0, 150000 + i, 100));
		ASSERT_TRUE(regs_equal(s[0], s[1], &addr))
			TH_LOG("case %u (gen %u) addr 0x%x fast 0x%08x oracle 0x%08x",
			       i, c->gen, addr, nvpc_sim_rd32(s[0], addr),
			       nvpc_sim_rd32(s[1], addr));
		free(s[0]);
		free(s[1]);
	}
}

/* a copy of @s that runs on the oracle from where the fast engine is */
static struct nvpc_sim *clone_to_oracle(struct nvpc_sim *s,
					const struct nvpc_chip_desc *c)
{
	struct nvpc_sim_params p = { .chip = c };
	size_t sz = nvpc_sim_size(&p);
	struct nvpc_sim *o = malloc(sz);

	if (o) {
		nvpc_sim_catch_up(s);	/* the copy compares its state */
		memcpy(o, s, sz);
		o->engine = &nvpc_sim_engine_oracle;
	}
	return o;
}

/*
 * NV20 single event mode counting for 2^32 and 2^39 cycles and more: the
 * 40-bit counters carry into bit 32 (CTR_*_HI bits 0-7 hold bits 32-39)
 * and bit 39 is sticky while the low 39 bits wrap (pcounter.rst
 * "Counters": 0xffffffffff increments to 0x8000000000). Program: PRE,
 * START always 1, STOP never, PRE_INIT 0, EVENT = signal 2 = periodic 4
 * width 1 phase 0 (1 iff c % 4 == 0). The PRE_OP write is seen by cycle
 * 0: INACTIVE -> WAIT_PRE (counters cleared, no count); cycle 1: PRE with
 * CTR_PRE 0 -> WAIT_START; cycle 2: START -> COUNTING, CTR_CYCLES and
 * (NV15+, EVENT_CTR_PERIOD 0) CTR_EVENT cleared; cycles 3.. count. After
 * N cycles: CTR_CYCLES = N - 3, CTR_EVENT = #{c in [3, N): c % 4 == 0} =
 * floor((N - 1) / 4).
 */
TEST(nv20_40bit_counters_across_bit32_and_bit39)
{
	static const u32 src[4] = { 1, 1, 2, 0 }, op[4] = { 0xffff, 0xffff,
							     0xaaaa, 0 };
	struct nvpc_sim *s, *o;
	u64 n, w;
	u32 addr;

	s = sim_new(&chip_nv20, &nvpc_sim_engine_fast);
	ASSERT_NE(NULL, s);
	wconst(s, 0, 1, 1);
	wper(s, 0, 2, 4, 1, 0);
	single_program(s, &chip_nv20, src, op);

	/* N = 2^32 + 8: CYCLES = 2^32 + 5 -> HI 0x01, LO 5; EVENT =
	 * floor((2^32 + 7) / 4) = 2^30 + 1 (bit 32 not reached)
	 */
	w = nvpc_sim_work(s);
	n = (1ULL << 32) + 8;
	ASSERT_EQ(0, nvpc_sim_advance(s, 0, n));
	EXPECT_GT(2000, nvpc_sim_work(s) - w);	/* hyperperiods skipped */
	EXPECT_EQ(5, nvpc_sim_rd32(s, NVPC_NV10_CTR_CYCLES(0)));
	EXPECT_EQ(1, nvpc_sim_rd32(s, NVPC_NV10_CTR_CYCLES_HI(0)));
	EXPECT_EQ(5, nvpc_sim_rd32(s, NVPC_NV10_CTR_CYCLES_ALT(0)));
	EXPECT_EQ(1, nvpc_sim_rd32(s, NVPC_NV10_CTR_CYCLES_ALT_HI(0)));
	EXPECT_EQ((1U << 30) + 1, nvpc_sim_rd32(s, NVPC_NV10_CTR_EVENT(0)));
	EXPECT_EQ(0, nvpc_sim_rd32(s, NVPC_NV10_CTR_EVENT_HI(0)));

	/* to N = 2^39 - 1000: CYCLES = 2^39 - 1003 = 0x7f_fffffc15; then the
	 * oracle takes over on a copy for the 2000 cycles across bit 39
	 */
	ASSERT_EQ(0, nvpc_sim_advance(s, 0, (1ULL << 39) - 1000 - n));
	EXPECT_EQ(0xfffffc15, nvpc_sim_rd32(s, NVPC_NV10_CTR_CYCLES(0)));
	EXPECT_EQ(0x7f, nvpc_sim_rd32(s, NVPC_NV10_CTR_CYCLES_HI(0)));
	o = clone_to_oracle(s, &chip_nv20);
	ASSERT_NE(NULL, o);
	ASSERT_EQ(0, nvpc_sim_advance(s, 0, 2000));
	ASSERT_EQ(0, nvpc_sim_advance(o, 0, 2000));
	EXPECT_TRUE(regs_equal(s, o, &addr)) TH_LOG("addr 0x%x", addr);
	/* N = 2^39 + 1000: CYCLES = 2^39 + 997: bit 39 set, low 39 bits
	 * wrapped to 997 -> HI 0x80, LO 997 (0x3e5); EVENT = floor((2^39 +
	 * 999) / 4) = 2^37 + 249 -> HI 0x20, LO 249
	 */
	EXPECT_EQ(997, nvpc_sim_rd32(s, NVPC_NV10_CTR_CYCLES(0)));
	EXPECT_EQ(0x80, nvpc_sim_rd32(s, NVPC_NV10_CTR_CYCLES_HI(0)));
	EXPECT_EQ(249, nvpc_sim_rd32(s, NVPC_NV10_CTR_EVENT(0)));
	EXPECT_EQ(0x20, nvpc_sim_rd32(s, NVPC_NV10_CTR_EVENT_HI(0)));
	free(o);

	/* N = 2^40 + 2^39 + 1000: 2^40 + 2^39 + 997 increments; the low 39
	 * bits wrapped three times, bit 39 stays set: 0x80_000003e5
	 */
	ASSERT_EQ(0, sim_advance_in_parts(s, 0, 1ULL << 40, 200));
	EXPECT_EQ(997, nvpc_sim_rd32(s, NVPC_NV10_CTR_CYCLES(0)));
	EXPECT_EQ(0x80, nvpc_sim_rd32(s, NVPC_NV10_CTR_CYCLES_HI(0)));
	free(s);
}

/*
 * A span of 10^12 cycles of periodic sources on every domain of a G84-like
 * chip (quad mode on one, the others idle in single event mode) fits a
 * small budget in one part: the work does not grow with the span.
 */
TEST(bounded_work_does_not_grow_with_the_span)
{
	struct nvpc_sim *s = sim_new(&chip_g84, &nvpc_sim_engine_fast);
	u64 n = 1000000000000ULL, w;

	ASSERT_NE(NULL, s);
	wper(s, 0, 2, 7, 3, 1);
	nvpc_sim_wr32(s, NVPC_NV40_CTRL(0), NVPC_NV40_CTRL_MODE_QUAD);
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_SRC(0), 2);
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_OP(0), 0xaaaa);
	w = nvpc_sim_work(s);
	ASSERT_EQ(0, nvpc_sim_advance_bounded(s, 0, &n, 200));
	EXPECT_EQ(1000000000000ULL, n);
	EXPECT_GE(200, nvpc_sim_work(s) - w);
	/* a slow reference domain beside a fast one: the same */
	n = 1000000000000ULL;
	w = nvpc_sim_work(s);
	ASSERT_EQ(0, nvpc_sim_advance_bounded(s, 1, &n, 200));
	EXPECT_EQ(1000000000000ULL, n);
	EXPECT_GE(200, nvpc_sim_work(s) - w);
	free(s);
}

TEST_HARNESS_MAIN
