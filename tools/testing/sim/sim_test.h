/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the sim host tests: chip descriptions built by hand from the
 * documents (independent of the catalogue), construction and waveforms.
 */
#ifndef _SIM_TEST_H
#define _SIM_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nvpcounter/regs.h>
#include "sim_model.h"

#define MHZ 1000000U

/*
 * Domain layouts: trailer base 0x20 with 0x40 signals puts the NV10:GF100
 * trailer at signals 0x20..0x3f (pcounter.rst "Trailer signals"); GF100
 * domains have 0x60 signals and the trailer base at 0x60 - 0x40 (nouveau's
 * nvkm/engine/pm/gf100.c domain tables).
 */
#define DOM(set, i, clk) { .dset = (set), .index = (i), .nr_signals = 0x40, \
	.trailer_base = 0x20, .clock = "test", .clock_hz = (clk) }
#define GDOM(set, i) { .dset = (set), .index = (i), .nr_signals = 0x60, \
	.trailer_base = 0x20, .clock = "test", .clock_hz = 100 * MHZ }

/* trailer signal ids of the test domains */
#define TR(off)		(0x20 + (off))

static const struct nvpc_domain_desc t_dom1[] = {
	DOM(NVPC_DSET_MAIN, 0, 100 * MHZ),
};

static const struct nvpc_domain_desc t_dom2[] = {
	DOM(NVPC_DSET_MAIN, 0, 100 * MHZ), DOM(NVPC_DSET_MAIN, 1, 100 * MHZ),
};

static const struct nvpc_domain_desc t_dom2x[] = {
	DOM(NVPC_DSET_MAIN, 0, 100 * MHZ), DOM(NVPC_DSET_MAIN, 1, 200 * MHZ),
};

static const struct nvpc_domain_desc t_dom_clk[] = {
	DOM(NVPC_DSET_MAIN, 0, 100 * MHZ), DOM(NVPC_DSET_MAIN, 1, 300 * MHZ),
	DOM(NVPC_DSET_MAIN, 2, 333 * MHZ),
};

static const struct nvpc_domain_desc t_dom4[] = {
	DOM(NVPC_DSET_MAIN, 0, 100 * MHZ), DOM(NVPC_DSET_MAIN, 1, 100 * MHZ),
	DOM(NVPC_DSET_MAIN, 2, 100 * MHZ), DOM(NVPC_DSET_MAIN, 3, 100 * MHZ),
};

static const struct nvpc_domain_desc t_gf100[] = {
	GDOM(NVPC_DSET_HUB, 0), GDOM(NVPC_DSET_HUB, 1),
	GDOM(NVPC_DSET_GPC, 0), GDOM(NVPC_DSET_PART, 0),
};

#define CHIP(var, id, g, doms) \
static const struct nvpc_chip_desc var = { .chipset = (id), .name = #var, \
	.alt_name = #var, .gen = (g), .nr_domains = ARRAY_SIZE(doms), \
	.domains = (doms), .nr_gpc = 2, .nr_part = 1 }

CHIP(chip_nv10, 0x10, NVPC_GEN_NV10, t_dom1);
CHIP(chip_nv15, 0x15, NVPC_GEN_NV15, t_dom1);
CHIP(chip_nv20, 0x20, NVPC_GEN_NV20, t_dom2);
CHIP(chip_nv30, 0x30, NVPC_GEN_NV30, t_dom2);
CHIP(chip_nv40, 0x40, NVPC_GEN_NV40, t_dom4);
CHIP(chip_nv40_1, 0x40, NVPC_GEN_NV40, t_dom1);
CHIP(chip_nv40x, 0x40, NVPC_GEN_NV40, t_dom2x);
CHIP(chip_clk, 0x40, NVPC_GEN_NV40, t_dom_clk);
CHIP(chip_g84, 0x84, NVPC_GEN_G84, t_dom2);
CHIP(chip_g92, 0x92, NVPC_GEN_G92, t_dom2);
CHIP(chip_gt215, 0xa3, NVPC_GEN_GT215, t_dom2);
CHIP(chip_gf100, 0xc0, NVPC_GEN_GF100, t_gf100);

static inline struct nvpc_sim *sim_new_lat(const struct nvpc_chip_desc *chip,
					   const struct nvpc_sim_engine *e,
					   u32 latency)
{
	struct nvpc_sim_params p = {
		.chip = chip, .engine = e, .record_latency = latency,
	};
	size_t sz = nvpc_sim_size(&p);
	struct nvpc_sim *sim = calloc(1, sz);

	if (!sim || nvpc_sim_init(sim, sz, &p)) {
		free(sim);
		return NULL;
	}
	return sim;
}

static inline struct nvpc_sim *sim_new(const struct nvpc_chip_desc *chip,
				       const struct nvpc_sim_engine *e)
{
	return sim_new_lat(chip, e, 0);
}

static inline void wconst(struct nvpc_sim *s, int dom, int sig, int v)
{
	struct nvpc_sim_wave w = { .kind = NVPC_SIM_WAVE_CONST, .value = v };

	nvpc_sim_set_wave(s, dom, sig, &w);
}

/* 1 in cycle c iff (c + phase) % period < width */
static inline void wper(struct nvpc_sim *s, int dom, int sig, u32 period,
			u32 width, u32 phase)
{
	struct nvpc_sim_wave w = { .kind = NVPC_SIM_WAVE_PERIODIC,
		.period = period, .width = width, .phase = phase };

	nvpc_sim_set_wave(s, dom, sig, &w);
}

static inline void wrand(struct nvpc_sim *s, int dom, int sig, u32 seed,
			 u32 density)
{
	struct nvpc_sim_wave w = { .kind = NVPC_SIM_WAVE_RANDOM,
		.seed = seed, .density = density };

	nvpc_sim_set_wave(s, dom, sig, &w);
}

/* the tests' xorshift generator: seeded, reproducible */
static inline u64 *rng_statep(void)
{
	static u64 state;

	return &state;
}

static inline void rng_seed(u64 seed)
{
	*rng_statep() = seed;
}

static inline u64 rng(void)
{
	u64 x = *rng_statep();

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*rng_statep() = x;
	return x;
}

static inline u32 rnd(u32 n)
{
	return n ? rng() % n : 0;
}

/*
 * @cyc cycles of @dom in parts of at most @budget work units each (doubled
 * while not even a cycle fits), each part's work checked against it: the
 * engine's estimate bounds its work, the point of a budget (-1 if not)
 */
static inline int sim_advance_in_parts(struct nvpc_sim *s, unsigned int dom,
				       u64 cyc, u64 budget)
{
	u64 n, w;

	while (cyc) {
		n = cyc;
		w = nvpc_sim_work(s);
		if (nvpc_sim_advance_bounded(s, dom, &n, budget))
			return -1;
		if (nvpc_sim_work(s) - w > budget) {
			fprintf(stderr, "# %llu work units over a budget of %llu\n",
				(unsigned long long)(nvpc_sim_work(s) - w),
				(unsigned long long)budget);
			return -1;
		}
		if (!n)
			budget *= 2;
		cyc -= n;
	}
	return 0;
}

#define SRC4(a, b, c, d)	((u32)(a) | (u32)(b) << 8 | (u32)(c) << 16 | \
				 (u32)(d) << 24)

/* test signal ids: 1 is constant 1, 0 constant 0 in every test domain */
#define S0	0
#define S1	1

#endif /* _SIM_TEST_H */
