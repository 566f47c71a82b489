// SPDX-License-Identifier: GPL-2.0
/*
 * Record mode in closed form (sim_record_cf.c "DOC: record mode in closed
 * form") against the oracle: random periodic record cases, the same on
 * the fast engine and on sim_oracle.c, which steps every cycle. After
 * every step every packet (address, length, each byte, in write order),
 * every register and every domain's cycles must agree. The cases cover
 * what the documents give for record mode (envytools' pcounter.rst
 * "Record mode", "Record mode setup"): STOP from the PERIODIC signal or a
 * periodic signal through a logic op, the 0xf000 early write, STOP counts
 * above 1 (a write latency longer than the STOP period), LIMIT stops,
 * short and long packets, RECORD_ADDRESS_HIGH, the position's wrap at
 * 4 GiB, VM faults, GF100's MAIN buffer; steps run in one go or in parts
 * of a bounded budget. Seeded and reproducible: SIM_RECORD_SEED (default
 * 1), SIM_RECORD_CASES (default 2000; SIM_QUICK: 200). A failure names
 * the case and step: SIM_RECORD_FROM=case replays from it.
 */
#include "sim_test.h"
#include "sim_internal.h"
#include "kselftest_harness.h"

/* every packet a sim writes, in order; the write numbered fail_at faults */
struct rlog {
	u64 n, cap;
	u64 *va;
	u32 *len;
	u8 (*b)[32];
	u64 writes;
	u64 fail_at;	/* 0: never */
};

static int rlog_cb(void *ctx, u64 va, const void *buf, u32 len)
{
	struct rlog *l = ctx;

	if (++l->writes == l->fail_at)
		return 1;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->va = realloc(l->va, l->cap * sizeof(*l->va));
		l->len = realloc(l->len, l->cap * sizeof(*l->len));
		l->b = realloc(l->b, l->cap * sizeof(*l->b));
		if (!l->va || !l->len || !l->b)
			abort();
	}
	l->va[l->n] = va;
	l->len[l->n] = len;
	memset(l->b[l->n], 0, 32);
	memcpy(l->b[l->n], buf, len);
	l->n++;
	return 0;
}

static void rlog_reset(struct rlog *l)
{
	l->n = 0;
	l->writes = 0;
	l->fail_at = 0;
}

/*
 * the periods of the sources: mostly powers of two, so that their lcm
 * with the STOP period stays short enough for a span to hold periods
 */
static const u32 periods[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256 };
static const u32 odd_periods[] = { 3, 5, 6, 10, 12, 24, 48, 100 };
static const u32 stop_periods[] = { 3, 7, 16, 50, 64, 256, 1000, 1024,
				    2048, 4096, 65536, 70000, 16, 64, 1024,
				    256 };

struct rcase {
	const struct nvpc_chip_desc *chip;
	struct nvpc_sim *s[2];	/* fast, oracle */
	struct rlog log[2];
	unsigned int dom;	/* the recording domain, flat */
	u32 base;		/* GF100: its register base */
	bool gf;
	u32 regs[1024];
	unsigned int nregs;
};

static void both_wr(struct rcase *c, u32 a, u32 v)
{
	nvpc_sim_wr32(c->s[0], a, v);
	nvpc_sim_wr32(c->s[1], a, v);
}

static void both_wave(struct rcase *c, unsigned int sig,
		      const struct nvpc_sim_wave *w)
{
	nvpc_sim_set_wave(c->s[0], c->dom, sig, w);
	nvpc_sim_set_wave(c->s[1], c->dom, sig, w);
}

static u32 reg_src(struct rcase *c, unsigned int n)
{
	return c->gf ? c->base + NVPC_GF100_SRC(n) :
		       NVPC_NV40_SRC(c->dom, n);
}

static u32 reg_op(struct rcase *c, unsigned int n)
{
	return c->gf ? c->base + NVPC_GF100_OP(n) : NVPC_NV40_OP(c->dom, n);
}

static u32 reg_limit(struct rcase *c)
{
	return c->gf ? NVPC_GF100_MAIN_RECORD_LIMIT :
		       NVPC_G84_RECORD_LIMIT(c->dom);
}

static u32 reg_start(struct rcase *c)
{
	return c->gf ? NVPC_GF100_MAIN_RECORD_START :
		       NVPC_G84_RECORD_START(c->dom);
}

static void case_regs(struct rcase *c)
{
	u32 a;

	c->nregs = 0;
	if (!c->gf) {
		for (a = 0xa400; a < 0xa900; a += 4)
			c->regs[c->nregs++] = a;
		return;
	}
	for (a = NVPC_GF100_MAIN_RECORD_CHAN; a <= NVPC_GF100_MAIN_RECORD_COUNT;
	     a += 4)
		c->regs[c->nregs++] = a;
	for (a = 0; a < 0x104; a += 4)
		c->regs[c->nregs++] = c->base + a;
}

/* one random case: waveforms, record programming, the buffer */
static void case_setup(struct rcase *c, u32 *lat_out)
{
	static const struct nvpc_chip_desc *chips[] = {
		&chip_g84, &chip_g92, &chip_gt215, &chip_gf100,
	};
	struct nvpc_sim_wave w;
	unsigned int k, sig, trailer, per_sig, stop_sig;
	u32 lat, ctrl, len, start, limit, v, p;
	bool shortp;

	c->chip = chips[rnd(4)];
	c->gf = c->chip->gen >= NVPC_GEN_GF100;
	lat = rnd(3) == 0 ? 0 : rnd(2) ? 1 + rnd(16) : 1 + rnd(400);
	for (k = 0; k < 2; k++) {
		c->s[k] = sim_new_lat(c->chip, k ? &nvpc_sim_engine_oracle :
					       &nvpc_sim_engine_fast, lat);
		if (!c->s[k])
			abort();
		rlog_reset(&c->log[k]);
		nvpc_sim_set_mem_write(c->s[k], rlog_cb, &c->log[k]);
	}
	if (!rnd(4)) {
		/* the latency as a time: each domain's cycles from its clock */
		v = 1 + rnd(5000);
		nvpc_sim_set_record_latency_ns(c->s[0], v);
		nvpc_sim_set_record_latency_ns(c->s[1], v);
	}
	if (c->gf) {
		/* gpc0.0: hub 0, hub 1, then GPC 0 (sim_test.h) */
		c->dom = nvpc_sim_domain_find(c->s[0], NVPC_DSET_GPC, 0, 0);
		c->base = NVPC_GF100_GPC_BASE(0, 0);
		trailer = 0x20;
		per_sig = trailer + NVPC_GF100_TRAILER_PERIODIC;
	} else {
		c->dom = rnd(2);
		trailer = 0x20;
		per_sig = trailer + NVPC_NV40_TRAILER_PERIODIC;
	}
	*lat_out = nvpc_sim_record_latency(c->s[0], c->dom);
	case_regs(c);

	/* sources 2..15: periodic or constant; 16: a STOP source */
	for (sig = 2; sig < 16; sig++) {
		memset(&w, 0, sizeof(w));
		if (rnd(4)) {
			w.kind = NVPC_SIM_WAVE_PERIODIC;
			w.period = rnd(8) ? periods[rnd(ARRAY_SIZE(periods))] :
				   odd_periods[rnd(ARRAY_SIZE(odd_periods))];
			w.width = rnd(w.period + 1);
			w.phase = rng();
		} else {
			w.kind = NVPC_SIM_WAVE_CONST;
			w.value = rnd(2);
		}
		both_wave(c, sig, &w);
	}
	memset(&w, 0, sizeof(w));
	w.kind = NVPC_SIM_WAVE_PERIODIC;
	w.period = stop_periods[rnd(ARRAY_SIZE(stop_periods))];
	w.width = rnd(3) ? 1 : 1 + rnd(w.period);
	w.phase = rng();
	both_wave(c, 16, &w);
	/* signal 1 constant 1: 0xf000 early writes under a long STOP */
	w.kind = NVPC_SIM_WAVE_CONST;
	w.value = 1;
	both_wave(c, 1, &w);

	if (!c->gf && rnd(16)) {
		/* "Record mode setup": the bind, DMA object first */
		both_wr(c, NVPC_G84_RECORD_DMA, 0xd0);
		both_wr(c, NVPC_G84_RECORD_CHAN, NVPC_RECORD_CHAN_VALID | 1);
	}
	shortp = rnd(2);
	len = shortp ? NVPC_RECORD_PACKET_SHORT : NVPC_RECORD_PACKET_LONG;
	/* PERIODIC_PERIOD: 1024 cycles mostly, up to 65536 (0xf000 flush) */
	p = rnd(2) ? (rnd(4) ? 1 + rnd(2) : 1 + rnd(7)) : 0;
	if (c->gf)
		ctrl = (shortp ? NVPC_GF100_CTRL_MODE_RECORD_B :
			NVPC_GF100_CTRL_MODE_RECORD_A) |
		       FIELD_PREP(NVPC_GF100_CTRL_PERIODIC_PERIOD, p);
	else
		ctrl = NVPC_NV40_CTRL_MODE_RECORD |
		       (shortp ? NVPC_G84_CTRL_RECORD_SHORT : 0) |
		       FIELD_PREP(NVPC_G84_CTRL_PERIODIC_PERIOD, p);
	/* RECORD_START before the mode now and then: the bogus packet */
	start = rnd(8) ? (rng() & 0x0ffffff0) :
		(u32)(0x100000000ULL - len * (1 + rnd(40)));
	if (rnd(8) == 0)
		both_wr(c, reg_start(c), start);
	both_wr(c, c->gf ? c->base + NVPC_GF100_CTRL : NVPC_NV40_CTRL(c->dom),
		 ctrl);
	/* the 12 counters: sources 1..15, now and then the PERIODIC one */
	for (k = 0; k < 3; k++) {
		v = 0;
		for (sig = 0; sig < 4; sig++)
			v |= (rnd(8) ? 1 + rnd(15) : per_sig) << (8 * sig);
		both_wr(c, reg_src(c, k), v);
		/* the ops do not count in record mode; write some anyway */
		both_wr(c, reg_op(c, k), rng() & 0xffff);
	}
	/* STOP: PERIODIC, or signal 16 through an op, or a mix */
	stop_sig = p && rnd(2) ? per_sig : 16;
	both_wr(c, reg_src(c, NVPC_INPUT_STOP),
		SRC4(stop_sig, 2 + rnd(14), 16, 2 + rnd(14)));
	v = rnd(4) ? NVPC_OP_ARG0 : rnd(2) ? 0x8888 : rng() & 0xffff;
	if (rnd(4) == 0)
		v |= (rng() & 0x3) << 16;	/* delayed arguments */
	both_wr(c, reg_op(c, NVPC_INPUT_STOP), v);
	if (c->chip->gen >= NVPC_GEN_G92 && rnd(2))
		both_wr(c, c->gf ? NVPC_GF100_MAIN_RECORD_ADDRESS_HIGH :
				   NVPC_G92_RECORD_ADDRESS_HIGH(c->dom),
			rnd(256));
	/* LIMIT: far, or a few hundred packets on (the stop at LIMIT) */
	if (rnd(3))
		limit = 0xfffffff0;
	else
		limit = (u32)(start + len * rnd(600)) & 0xfffffff0;
	both_wr(c, reg_limit(c), limit);
	both_wr(c, reg_start(c), start);
	/* now and then a VM fault: the write numbered N faults */
	if (rnd(8) == 0) {
		c->log[0].fail_at = 1 + rnd(300);
		c->log[1].fail_at = c->log[0].fail_at;
	}
}

static int case_compare(struct rcase *c, char *why, size_t len)
{
	const struct rlog *a = &c->log[0], *b = &c->log[1];
	unsigned int i, d;
	u64 j;
	u32 v0, v1;

	if (a->n != b->n) {
		snprintf(why, len, "packets: fast %llu oracle %llu",
			 (unsigned long long)a->n, (unsigned long long)b->n);
		return -1;
	}
	for (j = 0; j < a->n; j++) {
		if (a->va[j] != b->va[j] || a->len[j] != b->len[j] ||
		    memcmp(a->b[j], b->b[j], 32)) {
			snprintf(why, len, "packet %llu: va 0x%llx/0x%llx len %u/%u cycles 0x%llx/0x%llx",
				 (unsigned long long)j,
				 (unsigned long long)a->va[j],
				 (unsigned long long)b->va[j], a->len[j],
				 b->len[j],
				 (unsigned long long)(*(u64 *)a->b[j] &
						      NVPC_RECORD_CYCLES_MASK),
				 (unsigned long long)(*(u64 *)b->b[j] &
						      NVPC_RECORD_CYCLES_MASK));
			return -1;
		}
	}
	for (i = 0; i < c->nregs; i++) {
		v0 = nvpc_sim_rd32(c->s[0], c->regs[i]);
		v1 = nvpc_sim_rd32(c->s[1], c->regs[i]);
		if (v0 != v1) {
			snprintf(why, len, "reg 0x%06x fast 0x%08x oracle 0x%08x",
				 c->regs[i], v0, v1);
			return -1;
		}
	}
	for (d = 0; d < nvpc_sim_nr_domains(c->s[0]); d++) {
		if (nvpc_sim_cycles(c->s[0], d) != nvpc_sim_cycles(c->s[1], d)) {
			snprintf(why, len, "cycles of domain %u", d);
			return -1;
		}
	}
	return 0;
}

FIXTURE(record) {
	int unused;
};

FIXTURE_SETUP(record)
{
}

FIXTURE_TEARDOWN(record)
{
}

/* the oracle steps every cycle: minutes, not the harness's 30 s */
TEST_F_TIMEOUT(record, fast_equals_oracle_periodic, 600)
{
	const char *e = getenv("SIM_RECORD_CASES");
	const char *sd = getenv("SIM_RECORD_SEED");
	unsigned int n = e ? strtoul(e, NULL, 0) :
			 getenv("SIM_QUICK") ? 200 : 2000;
	u64 seed = sd ? strtoull(sd, NULL, 0) : 1;
	const char *f = getenv("SIM_RECORD_FROM");
	unsigned int from = f ? strtoul(f, NULL, 0) : 0;
	u64 fast = 0, cyc = 0, pk = 0, faults = 0, stop_gt1 = 0, early = 0;
	u64 shorts = 0, gf = 0, runs = 0, cases_fast = 0;
	struct nvpc_sim_stats st;
	struct rcase *c = calloc(1, sizeof(*c));
	unsigned int i, step, nsteps, k;
	char why[160];
	u64 cycles, j;
	u32 lat, stop;

	ASSERT_NE(NULL, c);
	fprintf(stderr, "# seed %llu, %u cases\n", (unsigned long long)seed, n);
	for (i = from; i < n; i++) {
		rng_seed(seed * 0x9e3779b97f4a7c15ULL +
			 i * 0x632be59bd9b4e019ULL + 1);
		case_setup(c, &lat);
		nsteps = 1 + rnd(5);
		for (step = 0; step < nsteps; step++) {
			cycles = rnd(3) ? 1 + rnd(rnd(2) ? 2000 : 40000) :
				 rnd(16) ? 20000 + rnd(30000) :
				 200000 + rnd(200000);
			if (rnd(3) == 0) {
				ASSERT_EQ(0, sim_advance_in_parts(c->s[0], c->dom,
								  cycles,
								  8 + rnd(300)))
					TH_LOG("case %u step %u", i, step);
			} else {
				ASSERT_EQ(0, nvpc_sim_advance(c->s[0], c->dom,
							      cycles));
			}
			ASSERT_EQ(0, nvpc_sim_advance(c->s[1], c->dom, cycles));
			if (case_compare(c, why, sizeof(why))) {
				TH_LOG("seed %llu case %u (%s, latency %u) step %u: %s",
				       (unsigned long long)seed, i,
				       c->chip->name, lat, step, why);
				ASSERT_TRUE(0);
			}
			/* between steps, as a driver: LIMIT up, START again */
			k = rnd(6);
			if (k == 0)
				both_wr(c, reg_limit(c), 0xfffffff0);
			else if (k == 1)
				both_wr(c, reg_start(c), rng() & 0x0ffffff0);
		}
		nvpc_sim_get_stats(c->s[0], &st);
		fast += st.record_fast_packets;
		cyc += st.record_cycle_packets;
		runs += st.record_fast_runs;
		cases_fast += !!st.record_fast_runs;
		pk += c->log[1].n;
		faults += !!c->log[1].fail_at && c->log[1].writes >=
						 c->log[1].fail_at;
		for (j = 0; j < c->log[1].n; j++) {
			stop = (c->log[1].b[j][6] | c->log[1].b[j][7] << 8) &
			       0xfff;
			stop_gt1 += stop > 1;
			early += stop == 0;
		}
		shorts += c->log[1].n && c->log[1].len[0] == 16;
		gf += c->gf;
		for (k = 0; k < 2; k++)
			free(c->s[k]);
	}
	fprintf(stderr, "# %llu packets compared: %llu in closed form (%llu runs, %llu cases), %llu cycle by cycle\n",
		(unsigned long long)pk, (unsigned long long)fast,
		(unsigned long long)runs, (unsigned long long)cases_fast,
		(unsigned long long)cyc);
	fprintf(stderr, "# %llu with STOP > 1, %llu early (STOP 0), %llu cases faulted, %llu short, %llu GF100\n",
		(unsigned long long)stop_gt1, (unsigned long long)early,
		(unsigned long long)faults, (unsigned long long)shorts,
		(unsigned long long)gf);
	/* the cases exercise the closed form, not only the cycle model */
	EXPECT_LT((n - from) / 8, cases_fast);
	EXPECT_EQ(fast + cyc, pk);
	for (k = 0; k < 2; k++) {
		free(c->log[k].va);
		free(c->log[k].len);
		free(c->log[k].b);
	}
	free(c);
}

/*
 * Targeted cases: each documented behaviour on the closed form's path,
 * the packets compared with the oracle's and checked against what
 * pcounter.rst "Record mode" gives for them.
 */
enum { T_G84_1024, T_FLUSH, T_STOP2, T_GF100, T_LIMIT, T_NR };

static void target_setup(struct rcase *c, int t)
{
	struct nvpc_sim_wave w = { .kind = NVPC_SIM_WAVE_CONST, .value = 1 };
	u32 lat = t == T_STOP2 ? 127 : 0, per, ctrl, k;

	c->chip = t == T_GF100 ? &chip_gf100 : &chip_g84;
	c->gf = t == T_GF100;
	for (k = 0; k < 2; k++) {
		c->s[k] = sim_new_lat(c->chip, k ? &nvpc_sim_engine_oracle :
					       &nvpc_sim_engine_fast, lat);
		if (!c->s[k])
			abort();
		rlog_reset(&c->log[k]);
		nvpc_sim_set_mem_write(c->s[k], rlog_cb, &c->log[k]);
	}
	c->dom = c->gf ? nvpc_sim_domain_find(c->s[0], NVPC_DSET_GPC, 0, 0) :
			 0;
	c->base = NVPC_GF100_GPC_BASE(0, 0);
	case_regs(c);
	per = 0x20 + (c->gf ? NVPC_GF100_TRAILER_PERIODIC :
			      NVPC_NV40_TRAILER_PERIODIC);
	both_wave(c, 1, &w);
	w.kind = NVPC_SIM_WAVE_PERIODIC;
	w.period = t == T_STOP2 ? 128 : 256;
	w.width = 77;
	w.phase = 5;
	both_wave(c, 2, &w);
	w.period = 64;	/* T_STOP2: STOP every 64 cycles */
	w.width = 1;
	w.phase = 0;
	both_wave(c, 3, &w);
	if (!c->gf) {
		both_wr(c, NVPC_G84_RECORD_DMA, 0xd0);
		both_wr(c, NVPC_G84_RECORD_CHAN, NVPC_RECORD_CHAN_VALID | 1);
	}
	/* PERIODIC every 1024 cycles, every 65536 for the flush case */
	k = t == T_FLUSH ? 7 : 1;
	ctrl = c->gf ? NVPC_GF100_CTRL_MODE_RECORD_A |
		       FIELD_PREP(NVPC_GF100_CTRL_PERIODIC_PERIOD, k) :
		       NVPC_NV40_CTRL_MODE_RECORD |
		       FIELD_PREP(NVPC_G84_CTRL_PERIODIC_PERIOD, k);
	both_wr(c, c->gf ? c->base + NVPC_GF100_CTRL : NVPC_NV40_CTRL(c->dom),
		 ctrl);
	both_wr(c, reg_src(c, NVPC_INPUT_PRE), SRC4(1, 2, 3, 1));
	both_wr(c, reg_src(c, NVPC_INPUT_STOP), t == T_STOP2 ? 3 : per);
	both_wr(c, reg_op(c, NVPC_INPUT_STOP), NVPC_OP_ARG0);
	both_wr(c, reg_limit(c), t == T_LIMIT ? 0x1000 + 999 * 32 : 0xfffffff0);
	both_wr(c, reg_start(c), 0x1000);
}

TEST(closed_form_targets)
{
	static const char * const name[] = { "G84 PERIODIC 1024",
		"0xf000 flush", "STOP 2 (latency 127)", "GF100 MAIN",
		"LIMIT after 1000 packets" };
	struct rcase *c = calloc(1, sizeof(*c));
	struct nvpc_sim_stats st;
	unsigned int stop, s0, k;
	char why[160];
	int t, step;
	u64 j;

	ASSERT_NE(NULL, c);
	for (t = 0; t < T_NR; t++) {
		target_setup(c, t);
		/* steps as the real-time worker's 2 ms slices at 575 MHz */
		for (step = 0; step < 4; step++) {
			ASSERT_EQ(0, nvpc_sim_advance(c->s[0], c->dom, 500000));
			ASSERT_EQ(0, nvpc_sim_advance(c->s[1], c->dom, 500000));
			if (case_compare(c, why, sizeof(why))) {
				TH_LOG("%s step %d: %s", name[t], step, why);
				ASSERT_TRUE(0);
			}
		}
		nvpc_sim_get_stats(c->s[0], &st);
		fprintf(stderr, "# %s: %llu packets, %llu in closed form\n",
			name[t], (unsigned long long)c->log[1].n,
			(unsigned long long)st.record_fast_packets);
		EXPECT_LT(c->log[1].n / 2, st.record_fast_packets)
			TH_LOG("%s", name[t]);
		/* the oracle's packets hold what the documents give */
		s0 = 0;
		for (j = 0; j < c->log[1].n; j++) {
			stop = (c->log[1].b[j][6] | c->log[1].b[j][7] << 8) &
			       0xfff;
			s0 += !stop;
			if (t == T_STOP2 && j)
				EXPECT_EQ(2, stop);
			if (t == T_G84_1024 || t == T_GF100)
				EXPECT_EQ(1, stop);
		}
		if (t == T_FLUSH)	/* one 0xf000 flush per 65536 cycles */
			EXPECT_EQ(c->log[1].n / 2, s0);
		if (t == T_LIMIT)	/* the packet at LIMIT is the last */
			EXPECT_EQ(1000, c->log[1].n);
		for (k = 0; k < 2; k++)
			free(c->s[k]);
	}
	for (k = 0; k < 2; k++) {
		free(c->log[k].va);
		free(c->log[k].len);
		free(c->log[k].b);
	}
	free(c);
}

TEST_HARNESS_MAIN
