// SPDX-License-Identifier: GPL-2.0
/*
 * The fast engine's steady state: a quad-mode domain with periodic sources
 * that is swapped between advances (G84: a PRE_OP write swaps, pcounter.rst
 * "Quad event mode") keeps skipping hyperperiods in constant work, and
 * counts exactly.
 *
 *  - steady_equals_oracle: swaps, acks, waveform and register changes
 *    between spans long enough to skip; every register equals the oracle's.
 *  - g84_swapped_between_advances: perf_test's g84_exact_past_2_36 pattern
 *    on the catalogue's G84 (8 domains, all at 1 MHz), with hand-computed
 *    counts and a bound on the work of each advance (no timing).
 *  - g84_lazy_idle_domains: one domain counting, seven idle (lazy, see
 *    sim_sched.c "DOC: lazy domains"): short advances cost a few units
 *    whatever the number of idle domains, and count every cycle once.
 *  - g84_reprogrammed_input_at_catalogue_clocks: perf's rotation of
 *    multiplexed events rewrites an input; the next span costs no more
 *    than a span in the steady state, and counts exactly.
 */
#include "sim_test.h"
#include "sim_internal.h"
#include <nvpcounter/catalog.h>
#include "kselftest_harness.h"

static int regs_equal(struct nvpc_sim *a, struct nvpc_sim *b, u32 *addr)
{
	for (*addr = 0xa400; *addr < 0xa900; *addr += 4)
		if (nvpc_sim_rd32(a, *addr) != nvpc_sim_rd32(b, *addr))
			return 0;
	return 1;
}

static void both_wr(struct nvpc_sim **s, u32 addr, u32 val)
{
	nvpc_sim_wr32(s[0], addr, val);
	nvpc_sim_wr32(s[1], addr, val);
}

/*
 * Two G84 domains in quad mode, periodic sources (one with a delayed
 * argument, one through SETFLAG/CLRFLAG into the FLAG latch); between
 * spans of 300..3000 cycles: a swap of one domain (PRE_OP rewritten with
 * its value), a settle (the kernel's manual-clock read), an ack, and now
 * and then a new waveform or a new EVENT_OP, after which the engine must
 * measure again. Every register equals the oracle's after every span.
 */
TEST(steady_equals_oracle)
{
	struct nvpc_sim *s[2];
	unsigned int i, k;
	u32 addr = 0;
	u64 n;

	s[0] = sim_new(&chip_g84, &nvpc_sim_engine_fast);
	s[1] = sim_new(&chip_g84, &nvpc_sim_engine_oracle);
	ASSERT_NE(NULL, s[0]);
	ASSERT_NE(NULL, s[1]);
	for (k = 0; k < 2; k++) {
		wconst(s[k], 0, 1, 1);
		wper(s[k], 0, 2, 3, 1, 0);
		wper(s[k], 0, 3, 7, 4, 2);
		wper(s[k], 1, 2, 5, 2, 1);
	}
	for (i = 0; i < 2; i++) {
		/* SPEC_SRC: ZERO (trailer base + 0x0c), only PRE_OP swaps */
		both_wr(s, NVPC_G84_SPEC_SRC(i), TR(NVPC_NV40_TRAILER_ZERO_C));
		both_wr(s, NVPC_NV40_CTRL(i), NVPC_NV40_CTRL_MODE_QUAD);
	}
	both_wr(s, NVPC_NV40_EVENT_SRC(0), SRC4(1, 2, 0, 0));
	both_wr(s, NVPC_NV40_EVENT_OP(0), 0x8888);	/* sig1 & sig2 */
	/* START: sig3 and sig3 one cycle earlier (a delayed argument);
	 * its byte 2 is SETFLAG's argument 0 (NV30+: SETFLAG/CLRFLAG take
	 * START bytes 2, 3 and PRE bytes 0, 1; CLRFLAG PRE bytes 2, 3 and
	 * START bytes 0, 1)
	 */
	both_wr(s, NVPC_NV40_START_SRC(0), SRC4(3, 3, 2, 0));
	both_wr(s, NVPC_NV40_START_OP(0), 0x8888 | NVPC_OP_DELAY1);
	both_wr(s, NVPC_NV40_PRE_SRC(0), SRC4(0, 0, 3, 0));
	both_wr(s, NVPC_NV40_SETFLAG_OP(0), 0xaaaa);	/* sig2 */
	both_wr(s, NVPC_NV40_CLRFLAG_OP(0), 0xaaaa);	/* sig3 */
	/* STOP counts own FLAG */
	both_wr(s, NVPC_NV40_STOP_SRC(0), TR(NVPC_NV40_TRAILER_FLAG(0)));
	both_wr(s, NVPC_NV40_STOP_OP(0), 0xaaaa);
	both_wr(s, NVPC_NV40_EVENT_SRC(1), 2);
	both_wr(s, NVPC_NV40_EVENT_OP(1), 0xaaaa);
	for (i = 0; i < 60; i++) {
		n = 300 + (i * 977) % 2700;
		ASSERT_EQ(0, nvpc_sim_advance(s[0], i % 2, n));
		ASSERT_EQ(0, nvpc_sim_advance(s[1], i % 2, n));
		ASSERT_TRUE(regs_equal(s[0], s[1], &addr))
			TH_LOG("span %u: register %#x differs", i, addr);
		both_wr(s, NVPC_NV40_PRE_OP(i % 2), 0);	/* its value: a swap */
		if (i % 3 == 0) {
			nvpc_sim_settle(s[0]);
			nvpc_sim_settle(s[1]);
		}
		ASSERT_TRUE(regs_equal(s[0], s[1], &addr))
			TH_LOG("after swap %u: register %#x differs", i, addr);
		if (i % 4 == 1)
			both_wr(s, NVPC_NV40_QUAD_ACK_TRIGGER(i % 2),
				NVPC_QUAD_ACK);
		if (i == 20)
			for (k = 0; k < 2; k++)
				wper(s[k], 0, 2, 4, 3, 1);
		if (i == 40)
			both_wr(s, NVPC_NV40_EVENT_OP(0), 0xeeee); /* or */
	}
	free(s[0]);
	free(s[1]);
}

#define G84_DOMS	8

/* one read of a domain as the driver does it (engine.c, gen_nv40.c) */
static void g84_sample(struct nvpc_sim *s, unsigned int d, u64 *cycles,
		       u64 *event, u64 *start)
{
	nvpc_sim_wr32(s, NVPC_NV40_PRE_OP(d), 0);	/* swap */
	nvpc_sim_settle(s);	/* sim_gpu.c: manual clock, before a read */
	cycles[d] += nvpc_sim_rd32(s, NVPC_NV40_CTR_CYCLES(d));
	event[d] += nvpc_sim_rd32(s, NVPC_NV40_CTR_EVENT(d));
	start[d] += nvpc_sim_rd32(s, NVPC_NV40_CTR_START(d));
	nvpc_sim_wr32(s, NVPC_NV40_QUAD_ACK_TRIGGER(d), NVPC_QUAD_ACK);
}

/*
 * The catalogue's G84 with every clock at @hz, in @chip and @doms (the
 * caller's storage, used for trailer ids later); NULL on failure.
 */
static struct nvpc_sim *g84_at(u32 hz, struct nvpc_chip_desc *chip,
			       struct nvpc_domain_desc *doms)
{
	const struct nvpc_chip_desc *g84 = nvpc_catalog_find(0x84);
	struct nvpc_sim_params p = { .chip = chip };
	struct nvpc_sim *s;
	unsigned int d;
	size_t sz;

	if (!g84 || g84->nr_domains != G84_DOMS)
		return NULL;
	*chip = *g84;
	memcpy(doms, g84->domains, G84_DOMS * sizeof(*doms));
	for (d = 0; d < G84_DOMS; d++)
		doms[d].clock_hz = hz;
	chip->domains = doms;
	sz = nvpc_sim_size(&p);
	s = calloc(1, sz);
	if (s && nvpc_sim_init(s, sz, &p)) {
		free(s);
		s = NULL;
	}
	return s;
}

/*
 * perf_test's g84_exact_past_2_36: the catalogue's G84 with every clock at
 * 1 MHz, all 8 domains in quad mode (SPEC_SRC on ZERO, as gen_nv40.c
 * programs it), main.0 counting a constant 1 on EVENT and a period-3
 * signal on START. 32 times 2^31 cycles of main.0, each in 4 parts with
 * one domain swapped between them (the driver's poll), then every domain
 * swapped and read (the test's reads).
 *
 * Work: each part of 2^29 cycles must go in one call with a budget of
 * 5 units per domain (sim_sched.c: in the steady state a plan, the swap's
 * cycle, the tail; the flat estimate of fa_dom_cost() for a period of 1
 * or 3 and a tail of 3 * 1 + 8 = 11 cycles is (11 + 3) / 64 + 3 + 2 = 5),
 * after a first measurement that may take longer (11 per domain).
 *
 * Counts (all clocks equal: every domain runs the same cycles 0 .. 2^36
 * - 1, each period read once, so the sums are the totals):
 *  - CTR_CYCLES of each domain: 2^36 = 68719476736;
 *  - main.0 CTR_EVENT (constant 1): 2^36;
 *  - main.0 CTR_START (1 iff c % 3 == 0): the multiples of 3 below 2^36,
 *    (2^36 - 1) / 3 + 1 = 22906492245 + 1 = 22906492246.
 */
TEST(g84_swapped_between_advances)
{
	const u64 per_dom = 5, first = 11, part = 1ULL << 29;
	u64 cycles[G84_DOMS] = { 0 }, event[G84_DOMS] = { 0 };
	u64 start[G84_DOMS] = { 0 }, n, w, most = 0;
	struct nvpc_domain_desc doms[G84_DOMS];
	struct nvpc_chip_desc chip;
	struct nvpc_sim *s;
	unsigned int i, j, d;
	int z;

	s = g84_at(1000000, &chip, doms);
	ASSERT_NE(NULL, s);
	ASSERT_EQ(G84_DOMS, nvpc_sim_nr_domains(s));
	wconst(s, 0, 1, 1);
	wper(s, 0, 2, 3, 1, 0);
	for (d = 0; d < G84_DOMS; d++) {
		z = nvpc_catalog_trailer_id(&chip, &doms[d], NVPC_TRAILER_ZERO,
					    0);
		ASSERT_LE(0, z);
		nvpc_sim_wr32(s, NVPC_G84_SPEC_SRC(d), z);
		nvpc_sim_wr32(s, NVPC_NV40_CTRL(d), NVPC_NV40_CTRL_MODE_QUAD);
	}
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_SRC(0), 1);
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_OP(0), 0xaaaa);
	nvpc_sim_wr32(s, NVPC_NV40_START_SRC(0), 2);
	nvpc_sim_wr32(s, NVPC_NV40_START_OP(0), 0xaaaa);
	for (i = 0; i < 32; i++) {
		for (j = 0; j < 4; j++) {
			n = part;
			w = nvpc_sim_work(s);
			ASSERT_EQ(0, nvpc_sim_advance_bounded(s, 0, &n,
					G84_DOMS * (i || j ? per_dom : first)));
			ASSERT_EQ(part, n)
				TH_LOG("advance %u part %u: %llu cycles done",
				       i, j, (unsigned long long)n);
			w = nvpc_sim_work(s) - w;
			most = w > most && (i || j) ? w : most;
			/* the poll swaps a domain between the parts */
			g84_sample(s, (4 * i + j) % G84_DOMS, cycles, event,
				   start);
		}
		for (d = 0; d < G84_DOMS; d++)
			g84_sample(s, d, cycles, event, start);
	}
	TH_LOG("most work of a steady part: %llu units",
	       (unsigned long long)most);
	for (d = 0; d < G84_DOMS; d++)
		EXPECT_EQ(68719476736ULL, cycles[d]);
	EXPECT_EQ(68719476736ULL, event[0]);
	EXPECT_EQ(22906492246ULL, start[0]);
	free(s);
}

/*
 * The catalogue's G84, every clock at 100 kHz, programmed as the driver
 * does for one event: main.0 in quad mode (SPEC_SRC on ZERO, so only a
 * PRE_OP write swaps) counting signal 1 = constant 1 on EVENT, the other
 * seven domains' CTRL written with MODE_SINGLE and no PRE_OP write (single
 * event mode INACTIVE: lazy once the abort of that write is over).
 * Advances of 1, 10 and 500 cycles of main.0 (200 of each, in that order),
 * each followed by the driver's poll: a swap (PRE_OP rewritten with its
 * value 0), a settle (the manual clock's read), the reads of CTR_CYCLES
 * and CTR_EVENT, an ack.
 *
 * Counts: quad mode counts every cycle into the shadow counters and a swap
 * moves them to the visible ones before the next cycle counts
 * (pcounter.rst "Quad event mode"), so each poll reads exactly the cycles
 * of the advance before it: CTR_CYCLES = CTR_EVENT = n; over the test
 * 1 (the first advance, below) + 200 * (1 + 10 + 500) = 102201 cycles,
 * which is also what every domain has processed once caught up.
 *
 * Work (the fast engine, in units of nvpc_sim_work(): a plan or a chunk of at
 * most 64 cycles that does not cross a 64-cycle block). Every advance
 * runs main.0 alone: a plan (1), then fa_hyper() with a pending swap (the
 * settle): its cycle first; the rest in chunks, or, past the hyperperiod
 * (1: constant sources) and the tail of 3 * 1 + 8 = 11 cycles, a skip:
 *  - 1 cycle: plan + 1 chunk = 2;
 *  - 10 cycles: plan + the swap's cycle + 9 cycles (1 chunk, 2 across a
 *    block) <= 4;
 *  - 500 cycles, steady (the skip measured before): plan + the swap's
 *    cycle + skip (no work) + the 11-cycle tail (<= 2) <= 4; the first
 *    one has no steady state yet (the registers were written), but main.0
 *    reads no FLAG (sim_hyper.c "DOC: memoryless quad-mode domains"): plan
 *    + the pending swap's chunk up to the next 64-cycle block (1) + its
 *    period evaluated (1) + the tail (<= 2) <= 5.
 * So at most 4 units, 5 once, against 16 and more if the seven idle
 * domains ran too (2 units each). The poll's accesses touch main.0 only:
 * no work. The estimate (nvpc_sim_advance_within() with that budget) is
 * as tight: plan + chunks for spans below the skip, 5 for the first skip
 * (fa_dom_cost(): 2 + 1 + fa_max_chunks(1 + 11 - 1) = 2 + 1 + 2).
 * Catching up an idle domain after all that: plan + warm-up (<= 2) +
 * period (1) + tail (<= 2) <= 6 units.
 */
TEST(g84_lazy_idle_domains)
{
	static const u64 spans[] = { 1, 10, 500 };
	struct nvpc_domain_desc doms[G84_DOMS];
	struct nvpc_chip_desc chip;
	u64 total = 1, w, most[3] = { 0 }, n, budget;
	unsigned int i, j, d;
	struct nvpc_sim *s;
	bool measured = false;
	int z;

	s = g84_at(100000, &chip, doms);
	ASSERT_NE(NULL, s);
	wconst(s, 0, 1, 1);
	z = nvpc_catalog_trailer_id(&chip, &doms[0], NVPC_TRAILER_ZERO, 0);
	ASSERT_LE(0, z);
	nvpc_sim_wr32(s, NVPC_G84_SPEC_SRC(0), z);
	nvpc_sim_wr32(s, NVPC_NV40_CTRL(0), NVPC_NV40_CTRL_MODE_QUAD);
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_SRC(0), 1);
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_OP(0), 0xaaaa);
	for (d = 1; d < G84_DOMS; d++)
		nvpc_sim_wr32(s, NVPC_NV40_CTRL(d), NVPC_NV40_CTRL_MODE_SINGLE);
	/* the first cycle runs every domain: their CTRL writes abort */
	ASSERT_EQ(0, nvpc_sim_advance(s, 0, 1));
	nvpc_sim_wr32(s, NVPC_NV40_PRE_OP(0), 0);
	nvpc_sim_settle(s);
	EXPECT_EQ(1, nvpc_sim_rd32(s, NVPC_NV40_CTR_CYCLES(0)));
	EXPECT_EQ(1, nvpc_sim_rd32(s, NVPC_NV40_CTR_EVENT(0)));
	nvpc_sim_wr32(s, NVPC_NV40_QUAD_ACK_TRIGGER(0), NVPC_QUAD_ACK);

	for (i = 0; i < 3; i++) {
		for (j = 0; j < 200; j++) {
			n = spans[i];
			budget = n == 500 && !measured ? 5 : 4;
			w = nvpc_sim_work(s);
			ASSERT_EQ(1, nvpc_sim_advance_within(s, 0, n, budget))
				TH_LOG("%llu cycles, advance %u: estimate over %llu",
				       (unsigned long long)n, j,
				       (unsigned long long)budget);
			w = nvpc_sim_work(s) - w;
			if (n == 500 && !measured) {
				EXPECT_GE(5, w);
				measured = true;
			} else {
				EXPECT_GE(4, w) TH_LOG("%llu cycles: %llu units",
						       (unsigned long long)n,
						       (unsigned long long)w);
				most[i] = w > most[i] ? w : most[i];
			}
			total += n;
			w = nvpc_sim_work(s);
			nvpc_sim_wr32(s, NVPC_NV40_PRE_OP(0), 0);	/* swap */
			nvpc_sim_settle(s);
			ASSERT_EQ(n, nvpc_sim_rd32(s, NVPC_NV40_CTR_CYCLES(0)));
			ASSERT_EQ(n, nvpc_sim_rd32(s, NVPC_NV40_CTR_EVENT(0)));
			nvpc_sim_wr32(s, NVPC_NV40_QUAD_ACK_TRIGGER(0),
				      NVPC_QUAD_ACK);
			EXPECT_EQ(0, nvpc_sim_work(s) - w);
		}
	}
	TH_LOG("most work per advance: 1 cycle %llu, 10 cycles %llu, 500 cycles %llu units",
	       (unsigned long long)most[0], (unsigned long long)most[1],
	       (unsigned long long)most[2]);
	EXPECT_EQ(102201, total);
	EXPECT_EQ(total, nvpc_sim_cycles(s, 0));
	/* the idle domains stayed behind; an access brings one up to date */
	for (d = 1; d < G84_DOMS; d++)
		EXPECT_GT(total, s->dom[d].cycle);
	w = nvpc_sim_work(s);
	EXPECT_EQ(0, FIELD_GET(NVPC_NV40_CTRL_SINGLE_STATE,
			       nvpc_sim_rd32(s, NVPC_NV40_CTRL(3))));
	EXPECT_GE(6, nvpc_sim_work(s) - w);
	EXPECT_EQ(total, s->dom[3].cycle);
	for (d = 1; d < G84_DOMS; d++) {
		EXPECT_EQ(total, nvpc_sim_cycles(s, d));
		EXPECT_EQ(0, nvpc_sim_rd32(s, NVPC_NV40_CTR_CYCLES(d)));
	}
	free(s);
}

/* the driver's swap and read of main.0 (as g84_sample()), then an ack */
static void g84_read0(struct nvpc_sim *s, u64 *cycles, u64 *event,
		      u64 *start)
{
	nvpc_sim_wr32(s, NVPC_NV40_PRE_OP(0), 0);	/* its value: a swap */
	nvpc_sim_settle(s);
	*cycles = nvpc_sim_rd32(s, NVPC_NV40_CTR_CYCLES(0));
	*event = nvpc_sim_rd32(s, NVPC_NV40_CTR_EVENT(0));
	*start = nvpc_sim_rd32(s, NVPC_NV40_CTR_START(0));
	nvpc_sim_wr32(s, NVPC_NV40_QUAD_ACK_TRIGGER(0), NVPC_QUAD_ACK);
}

/* ones of a periodic source (phase 0) in cycles [0, x) */
static u64 ones_below(u64 x, u64 period, u64 width)
{
	return x / period * width + (x % period < width ? x % period : width);
}

/*
 * perf's rotation of multiplexed events at the catalogue's clocks: the
 * catalogue's G84 as it is (main.0 "host" at 100 MHz, the slowest of its
 * eight domains; the other seven idle in single event mode INACTIVE),
 * main.0 in quad mode with SPEC_SRC on ZERO. A rotation rewrites an
 * input's SRC and OP, then the swap (PRE_OP written with its value,
 * pcounter.rst "Quad event mode") starts the new period. The register
 * writes end the steady state, yet the next span must not cost a
 * measurement of the hyperperiod: main.0 reads no FLAG, so one period is
 * evaluated without running it (sim_hyper.c "DOC: memoryless quad-mode
 * domains"). Each span goes in one nvpc_sim_advance_bounded() call with
 * a budget of 5 units (fa_dom_cost(): the plan, the chunk of the pending
 * swap up to the next 64-cycle block, the evaluated period, and fewer than
 * a period plus the tail of 3 * 1 + 8 = 11 cycles: at most 2 chunks for
 * periods of 5 and 20), where measuring it took 13.
 *
 * Counts (sim.rst "Waveforms": 1 in cycle c iff (c + PHASE) % PERIOD <
 * WIDTH; a write is seen by the next cycle; the settle of a read does the
 * swap of the next cycle, so each read holds exactly the cycles of the
 * span before it):
 *  A. cycles 0 .. 10^6 - 1, EVENT = signal 1 (period 10, width 7):
 *     CTR_CYCLES 10^6, CTR_EVENT 7 * 10^5;
 *  B. EVENT = signal 2 (period 5, width 2), cycles [10^6, 2 * 10^6 + 3):
 *     CTR_CYCLES 10^6 + 3, CTR_EVENT = ones_below(2000003) -
 *     ones_below(10^6) = (800000 + 2) - 400000 = 400002;
 *  C. also START = signal 3 (period 4, width 2, phase 1: 1 iff c % 4 is
 *     3 or 0) AND signal 3 one cycle earlier (OP DELAY1, "Input
 *     selection"): 1 iff c % 4 == 0 (the cycle before the first one,
 *     2000002, has c % 4 == 2, so its source, read before or after the
 *     reprogramming, is 0 either way); cycles [2000003, 3000010):
 *     CTR_CYCLES 1000007, CTR_START = multiples of 4 in that range =
 *     floor(3000009 / 4) - floor(2000002 / 4) = 750002 - 500000 =
 *     250002, CTR_EVENT (signal 2 still) =
 *     ones_below(3000010) - ones_below(2000003) = 1200004 - 800002 =
 *     400002.
 */
TEST(g84_reprogrammed_input_at_catalogue_clocks)
{
	const struct nvpc_chip_desc *g84 = nvpc_catalog_find(0x84);
	struct nvpc_sim_params p = { .chip = g84 };
	u64 cycles, event, start, n, w;
	struct nvpc_sim *s;
	unsigned int d;
	size_t sz;
	int z;

	ASSERT_NE(NULL, g84);
	ASSERT_EQ(G84_DOMS, g84->nr_domains);
	ASSERT_EQ(100000000, g84->domains[0].clock_hz);
	for (d = 1; d < G84_DOMS; d++)
		ASSERT_LT(100000000, g84->domains[d].clock_hz);
	sz = nvpc_sim_size(&p);
	s = calloc(1, sz);
	ASSERT_NE(NULL, s);
	ASSERT_EQ(0, nvpc_sim_init(s, sz, &p));
	wper(s, 0, 1, 10, 7, 0);
	wper(s, 0, 2, 5, 2, 0);
	wper(s, 0, 3, 4, 2, 1);
	z = nvpc_catalog_trailer_id(g84, &g84->domains[0], NVPC_TRAILER_ZERO,
				    0);
	ASSERT_LE(0, z);
	nvpc_sim_wr32(s, NVPC_G84_SPEC_SRC(0), z);
	nvpc_sim_wr32(s, NVPC_NV40_CTRL(0), NVPC_NV40_CTRL_MODE_QUAD);
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_SRC(0), 1);
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_OP(0), 0xaaaa);
	for (d = 1; d < G84_DOMS; d++)
		nvpc_sim_wr32(s, NVPC_NV40_CTRL(d), NVPC_NV40_CTRL_MODE_SINGLE);

	/* A: no budget (the first cycle runs every domain's CTRL abort) */
	ASSERT_EQ(0, nvpc_sim_advance(s, 0, 1000000));
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_SRC(0), 2);
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_OP(0), 0xaaaa);
	g84_read0(s, &cycles, &event, &start);
	EXPECT_EQ(1000000, cycles);
	EXPECT_EQ(700000, event);

	/* B */
	n = 1000003;
	w = nvpc_sim_work(s);
	ASSERT_EQ(0, nvpc_sim_advance_bounded(s, 0, &n, 5));
	EXPECT_EQ(1000003, n);
	EXPECT_GE(5, nvpc_sim_work(s) - w);
	TH_LOG("B: %llu units", (unsigned long long)(nvpc_sim_work(s) - w));
	nvpc_sim_wr32(s, NVPC_NV40_START_SRC(0), SRC4(3, 3, 0, 0));
	nvpc_sim_wr32(s, NVPC_NV40_START_OP(0), 0x8888 | NVPC_OP_DELAY1);
	g84_read0(s, &cycles, &event, &start);
	EXPECT_EQ(1000003, cycles);
	EXPECT_EQ(400002, event);
	EXPECT_EQ(0, start);

	/* C */
	n = 1000007;
	w = nvpc_sim_work(s);
	ASSERT_EQ(0, nvpc_sim_advance_bounded(s, 0, &n, 5));
	EXPECT_EQ(1000007, n);
	EXPECT_GE(5, nvpc_sim_work(s) - w);
	TH_LOG("C: %llu units", (unsigned long long)(nvpc_sim_work(s) - w));
	g84_read0(s, &cycles, &event, &start);
	EXPECT_EQ(1000007, cycles);
	EXPECT_EQ(400002, event);
	EXPECT_EQ(250002, start);
	EXPECT_EQ(ones_below(3000010, 5, 2) - ones_below(2000003, 5, 2),
		  event);
	EXPECT_EQ(3000010, nvpc_sim_cycles(s, 0));
	free(s);
}

TEST_HARNESS_MAIN
