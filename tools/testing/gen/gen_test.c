// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the generation code (drivers/nvpcounter/gen*.c), linked
 * against the sim model through a host nvpc_device (gen_host.c): each
 * generation's counting, single event mode and record mode programs, and
 * the register values the model holds after them.
 *
 * Every address and bit expected here is written out from the documents,
 * not taken from the driver's register map (regs.h): envytools'
 * pcounter.rst ("MMIO registers" NV10 and NV40 tables, "Input selection",
 * "Control registers", "Single event mode", "Quad event mode", "Record
 * mode setup"), its later revision (the ZERO trailer
 * signal) and, for GF100+, which pcounter.rst leaves "write me", envytools'
 * rnndb gf100_pcounter.xml and nouveau's PM engine (nvkm/engine/pm/gf100.c)
 * (nouveau's PM engine and envytools' rnndb: the domain bases, the
 * per-domain map, MAIN's record registers).
 */
#include <stdlib.h>
#include <string.h>

#include "gen_host.h"

/* TEST() wrappers of kselftest_harness.h leave parameters unused. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"

#define MHZ		1000000U

/*
 * Domains of hand-made chips: NV10:GF100 trailer signals end at
 * base+0x1f, the top of the domain (pcounter.rst "Trailer signals"), so a
 * trailer base of 0x20 makes 0x40 signals; GF100+ domains end at
 * base+0x3f (pcounter.rst "Trailer signals" NVC0+: USER_0 at base + 0x27).
 */
#define DOM(set, i)	{ .dset = (set), .index = (i), .nr_signals = 0x40, \
			  .trailer_base = 0x20, .clock = "test", \
			  .clock_hz = 100 * MHZ }
#define GDOM(set, i)	{ .dset = (set), .index = (i), .nr_signals = 0x60, \
			  .trailer_base = 0x20, .clock = "test", \
			  .clock_hz = 100 * MHZ }
#define TRAILER_BASE	0x20

static const struct nvpc_domain_desc dom1[] = { DOM(NVPC_DSET_MAIN, 0) };

static const struct nvpc_domain_desc dom2[] = {
	DOM(NVPC_DSET_MAIN, 0), DOM(NVPC_DSET_MAIN, 1),
};

static const struct nvpc_domain_desc dom3[] = {
	DOM(NVPC_DSET_MAIN, 0), DOM(NVPC_DSET_MAIN, 1), DOM(NVPC_DSET_MAIN, 2),
};

static const struct nvpc_domain_desc gf_doms[] = {
	GDOM(NVPC_DSET_HUB, 0), GDOM(NVPC_DSET_HUB, 1),
	GDOM(NVPC_DSET_GPC, 0), GDOM(NVPC_DSET_PART, 0),
};

#define CHIP(var, id, g, doms)						\
static const struct nvpc_chip_desc var = {				\
	.chipset = (id), .name = #var, .alt_name = #var, .gen = (g),	\
	.nr_domains = ARRAY_SIZE(doms), .domains = (doms),		\
	.nr_gpc = 2, .nr_part = 1 }

CHIP(nv10, 0x10, NVPC_GEN_NV10, dom1);
CHIP(nv15, 0x15, NVPC_GEN_NV15, dom1);
CHIP(nv20, 0x20, NVPC_GEN_NV20, dom2);
CHIP(nv30, 0x30, NVPC_GEN_NV30, dom2);
CHIP(nv40, 0x40, NVPC_GEN_NV40, dom3);
CHIP(g84, 0x84, NVPC_GEN_G84, dom3);
CHIP(g92, 0x92, NVPC_GEN_G92, dom3);
CHIP(gt215, 0xa3, NVPC_GEN_GT215, dom3);
CHIP(gf100, 0xc0, NVPC_GEN_GF100, gf_doms);

/* the three register layouts (pcounter.rst "MMIO registers"; gf100_pcounter.xml) */
enum layout { L_NV10, L_NV40, L_GF100 };

/* record mode: none, NV84:NV92, NV92:NVC0 (ADDRESS_HIGH), GF100+ MAIN */
enum rec { REC_NONE, REC_G84, REC_G92, REC_GF100 };

/* the registers the tests look at */
enum reg {
	SRC, OP, SETFLAG_SRC, SETFLAG_OP, CLRFLAG_SRC, CLRFLAG_OP, SPEC_SRC,
	CTR_CYCLES, CTR_EVENT, CTR_PRE, CTR_STOP, THRESHOLD, THRESHOLD_HI,
	CTRL, QUAD_ACK, STATUS, FILTER, USER_TRIGGER,
	REC_START, REC_LIMIT, REC_STATUS, REC_ADDR_HIGH, REC_CHAN, REC_DMA,
	GCTRL, NR_REGS,
};

/* a register the layout does not have: outside every window */
#define NO_REG		0xffffffff

/**
 * struct gen_variant - what the documents say of one generation
 * @chip: the hand-made chip
 * @nr_gpc: GF100+: its GPCs
 * @nr_part: GF100+: its partitions
 * @dom: the domain the programs go to
 * @layout: its register layout
 * @i: its index in the NV10 and NV40 tables
 * @base: GF100+: its register base
 * @bits40: 40-bit counters, THRESHOLD_HI (NV10:NV30)
 * @ctr_period: EVENT_CTR_PERIOD (NV15+)
 * @ctr_mode: a counter mode other than SIMPLE it has (0: none)
 * @pre_op_swaps: a PRE_OP write swaps in quad event mode (NV84:NVC0)
 * @rec: its record mode
 *
 * pcounter.rst "Introduction": NV10:NV30 count in single event mode only,
 * 40-bit; NV15 adds EVENT_CTR_PERIOD; NV30 quad mode (EVENT_B4 its only
 * special counter mode); NV40 three more counter modes; NV84 record mode
 * and the PRE_OP swap; NV92 RECORD_ADDRESS_HIGH.
 */
struct gen_variant {
	const struct nvpc_chip_desc *chip;
	u8 nr_gpc;
	u8 nr_part;
	const char *dom;
	enum layout layout;
	unsigned int i;
	u32 base;
	bool bits40;
	bool ctr_period;
	u8 ctr_mode;
	bool pre_op_swaps;
	enum rec rec;
};

#define V_NV10	{ .chip = &nv10, .dom = "main.0", .layout = L_NV10, \
		  .i = 0, .bits40 = true }
#define V_NV15	{ .chip = &nv15, .dom = "main.0", .layout = L_NV10, \
		  .i = 0, .bits40 = true, .ctr_period = true }
#define V_NV20	{ .chip = &nv20, .dom = "main.1", .layout = L_NV10, \
		  .i = 1, .bits40 = true, .ctr_period = true }
#define V_NV30	{ .chip = &nv30, .dom = "main.1", .layout = L_NV10, \
		  .i = 1, .ctr_period = true, .ctr_mode = 1 }
#define V_NV40	{ .chip = &nv40, .dom = "main.2", .layout = L_NV40, \
		  .i = 2, .ctr_period = true, .ctr_mode = 4 }
#define V_G84	{ .chip = &g84, .dom = "main.2", .layout = L_NV40, \
		  .i = 2, .ctr_period = true, .ctr_mode = 4, \
		  .pre_op_swaps = true, .rec = REC_G84 }
#define V_G92	{ .chip = &g92, .dom = "main.2", .layout = L_NV40, \
		  .i = 2, .ctr_period = true, .ctr_mode = 4, \
		  .pre_op_swaps = true, .rec = REC_G92 }
#define V_GT215	{ .chip = &gt215, .dom = "main.2", .layout = L_NV40, \
		  .i = 2, .ctr_period = true, .ctr_mode = 4, \
		  .pre_op_swaps = true, .rec = REC_G92 }
/*
 * gf100_pcounter.xml, GF100+ domain placement: GPC g, domain d at 0x180000 +
 * g * 0x1000 + d * 0x200; PART p at 0x1a0000 + p * 0x1000 + d * 0x200.
 * pcounter.rst has no single event mode setup for NVC0+.
 */
#define V_GF100_GPC	{ .chip = &gf100, .nr_gpc = 2, .nr_part = 1, \
			  .dom = "gpc1.0", .layout = L_GF100, \
			  .base = 0x181000, .ctr_period = true, \
			  .ctr_mode = 4, .rec = REC_GF100 }
#define V_GF100_PART	{ .chip = &gf100, .nr_gpc = 2, .nr_part = 1, \
			  .dom = "part0.0", .layout = L_GF100, \
			  .base = 0x1a0000, .ctr_period = true, \
			  .ctr_mode = 4, .rec = REC_GF100 }

/**
 * struct gen_case - one test's GPU
 * @g: the simulated GPU behind the generation ops
 * @dom: the hardware part of the domain the programs go to
 * @sim_dom: the sim's index of it
 */
struct gen_case {
	struct host_gpu g;
	struct nvpc_hw_domain *dom;
	int sim_dom;
};

/*
 * The address of register @r (of input @s where it has one) of the
 * domain under test, from the documents' tables.
 */
static u32 doc_reg(const struct gen_variant *v, enum reg r, unsigned int s)
{
	/* pcounter.rst "MMIO registers" NV10: 0x00a400 + i * 0x100 + off */
	static const u32 nv10[NR_REGS] = {
		[SRC] = 0x000, [OP] = 0x004, [SETFLAG_SRC] = 0x020,
		[SETFLAG_OP] = 0x024, [CLRFLAG_SRC] = 0x028,
		[CLRFLAG_OP] = 0x02c, [STATUS] = 0x030, [CTR_CYCLES] = 0x200,
		[CTR_EVENT] = 0x210, [CTR_PRE] = 0x220, [CTR_STOP] = 0x224,
		[THRESHOLD] = 0x228, [THRESHOLD_HI] = 0x22c,
	};
	/* pcounter.rst "MMIO registers" NV40: arrays at 0x00a400 + i * 4 */
	static const u32 nv40[NR_REGS] = {
		[SRC] = 0xa400, [OP] = 0xa420, [SETFLAG_OP] = 0xa500,
		[CLRFLAG_OP] = 0xa520, [SPEC_SRC] = 0xa560,
		[USER_TRIGGER] = 0xa580, [CTR_CYCLES] = 0xa600,
		[CTR_EVENT] = 0xa680, [REC_ADDR_HIGH] = 0xa6a0,
		[REC_STATUS] = 0xa6e0, [CTR_PRE] = 0xa700, [REC_LIMIT] = 0xa720,
		[CTR_STOP] = 0xa740, [REC_START] = 0xa760, [THRESHOLD] = 0xa780,
		[CTRL] = 0xa7c0, [QUAD_ACK] = 0xa7e0,
	};
	/* gf100_pcounter.xml: the per-domain registers, from the domain base */
	static const u32 gf100[NR_REGS] = {
		[STATUS] = 0x000, [SRC] = 0x040, [OP] = 0x044,
		[SPEC_SRC] = 0x06c, [CTR_CYCLES] = 0x070, [CTR_EVENT] = 0x080,
		[CTR_PRE] = 0x08c, [CTR_STOP] = 0x090, [THRESHOLD] = 0x098,
		[CTRL] = 0x09c, [QUAD_ACK] = 0x0a0, [USER_TRIGGER] = 0x0ec,
		[FILTER] = 0x100,
	};

	switch (v->layout) {
	case L_NV10:
		/* global ones: CTRL 0x00a73c, QUAD_ACK_TRIGGER 0x00a738 */
		if (r == CTRL)
			return 0x00a73c;
		if (r == QUAD_ACK)
			return 0x00a738;
		if (!nv10[r] && r != SRC)
			return NO_REG;
		/* inputs 8 bytes apart: PRE, START, EVENT, STOP */
		return 0x00a400 + v->i * 0x100 + nv10[r] +
		       (r == SRC || r == OP ? 8 * s : 0);
	case L_NV40:
		/* global ones, NV84+ ("Record mode setup", GCTRL) */
		if (r == REC_CHAN)
			return 0x00a7a0;
		if (r == REC_DMA)
			return 0x00a7a4;
		if (r == GCTRL)
			return 0x00a7a8;
		/* STATUS[i][j] at 0x00a800 + i * 0x20 + j * 4 */
		if (r == STATUS)
			return 0x00a800 + v->i * 0x20;
		if (!nv40[r])
			return NO_REG;
		/* the inputs' arrays 0x40 apart */
		return nv40[r] + 4 * v->i + (r == SRC || r == OP ? 0x40 * s : 0);
	default:
		/*
		 * MAIN 0x1b4000: CHAN +0x70, START +0x74, ADDRESS_HIGH
		 * +0x78, LIMIT +0x7c, POS +0x80
		 */
		switch (r) {
		case REC_CHAN:
			return 0x1b4070;
		case REC_START:
			return 0x1b4074;
		case REC_ADDR_HIGH:
			return 0x1b4078;
		case REC_LIMIT:
			return 0x1b407c;
		case REC_STATUS:
			return 0x1b4080;
		default:
			if (!gf100[r] && r != STATUS)
				return NO_REG;
			/* inputs 8 bytes apart */
			return v->base + gf100[r] +
			       (r == SRC || r == OP ? 8 * s : 0);
		}
	}
}

/* a CTRL field as pcounter.rst "Control registers" has it */
static u32 ctrl_field(u32 ctrl, unsigned int shift, unsigned int width)
{
	return (ctrl >> shift) & ((1U << width) - 1);
}

/* SINGLE_STATE: NV10 bits 3-4 (domain 1: 5-6), NV40/GF100 bits 28-29 */
static u32 single_state(const struct gen_variant *v, u32 ctrl)
{
	return ctrl_field(ctrl, v->layout == L_NV10 ? 3 + 2 * v->i : 28, 2);
}

/* QUAD_STATE: NV30 bits 24-25 (domain 1: 26-27), NV40/GF100 bits 24-25 */
static u32 quad_state(const struct gen_variant *v, u32 ctrl)
{
	return ctrl_field(ctrl, v->layout == L_NV10 ? 24 + 2 * v->i : 24, 2);
}

/* the states of pcounter.rst "Single event mode", "Quad event mode" */
#define ST_WAIT_PRE	1
#define ST_COUNTING	3
#define QS_EMPTY	0
#define QS_VALID	1

static void case_setup(struct __test_metadata *_metadata, struct gen_case *c,
		       const struct gen_variant *v)
{
	ASSERT_EQ(0, host_gpu_init(&c->g, v->chip, v->nr_gpc, v->nr_part));
	c->dom = host_domain(&c->g, v->dom);
	ASSERT_NE(NULL, c->dom);
	c->sim_dom = host_sim_domain(&c->g, c->dom);
	ASSERT_LE(0, c->sim_dom);
	host_trace_reset(&c->g);
}

/*
 * Every access of the ops: in one of the generation's windows (what the
 * PCI backend maps) and at a register the sim has on the generation.
 */
static void case_teardown(struct __test_metadata *_metadata,
			  struct gen_case *c, const struct gen_variant *v)
{
	const struct nvpc_gen_ops *gen = c->g.hw.gen;
	struct nvpc_sim_stats st;
	unsigned int n, w;

	EXPECT_EQ(0, c->g.lost);
	for (n = 0; gen && n < c->g.nr_trace; n++) {
		const struct host_access *a = &c->g.trace[n];
		bool in = false;

		for (w = 0; w < NVPC_GEN_NR_WINDOWS; w++)
			in |= a->addr >= gen->windows[w].start &&
			      a->addr < gen->windows[w].end;
		EXPECT_TRUE(in)
			TH_LOG("%s 0x%06x outside the %s windows",
			       a->write ? "write" : "read", a->addr, gen->name);
	}
	if (c->g.sim) {
		nvpc_sim_get_stats(c->g.sim, &st);
		EXPECT_EQ(0, st.absent_writes)
			TH_LOG("a write to 0x%06x, absent on a %s",
			       st.last_unmodelled, v->chip->name);
	}
	host_gpu_fini(&c->g);
}

/*
 * One fixture per program, its variants the generations that have it:
 * its tests see the GPU as @self->c and the generation as @variant->v.
 */
#define GEN_FIXTURE(name)						\
	FIXTURE(name) {							\
		struct gen_case c;					\
	};								\
	FIXTURE_VARIANT(name) {						\
		struct gen_variant v;					\
	};								\
	FIXTURE_SETUP(name)						\
	{								\
		case_setup(_metadata, &self->c, &variant->v);		\
	}								\
	FIXTURE_TEARDOWN(name)						\
	{								\
		case_teardown(_metadata, &self->c, &variant->v);	\
	}

/* run the domain's clock @n cycles */
static void cycles(struct gen_case *c, u64 n)
{
	nvpc_sim_advance(c->g.sim, c->sim_dom, n);
}

/* make signal @sig of the domain under test a constant 1 */
static void signal_one(struct gen_case *c, unsigned int sig)
{
	struct nvpc_sim_wave w = { .kind = NVPC_SIM_WAVE_CONST, .value = 1 };

	nvpc_sim_set_wave(c->g.sim, c->sim_dom, sig, &w);
}

/* the value of the last write to @addr in the trace */
static u32 last_written(const struct host_gpu *g, u32 addr)
{
	int n = host_last_write(g, addr);

	return n < 0 ? 0xdeadbeef : g->trace[n].val;
}

/* the inputs of the tests' programs: signals 4..7 of the domain */
static const u32 test_src[NVPC_NR_SLOTS] = {
	0x0b0a0904, 0x0f0e0d05, 0x13121106, 0x17161507,
};

/* truth tables: arg0, arg1, arg0 & arg1, arg2 (pcounter.rst step 8) */
static const u32 test_op[NVPC_NR_SLOTS] = { 0xaaaa, 0xcccc, 0x8888, 0xf0f0 };

/* what every generation has: its domains and its STATUS words */
GEN_FIXTURE(gpu);
FIXTURE_VARIANT_ADD(gpu, nv10) { .v = V_NV10 };
FIXTURE_VARIANT_ADD(gpu, nv15) { .v = V_NV15 };
FIXTURE_VARIANT_ADD(gpu, nv20) { .v = V_NV20 };
FIXTURE_VARIANT_ADD(gpu, nv30) { .v = V_NV30 };
FIXTURE_VARIANT_ADD(gpu, nv40) { .v = V_NV40 };
FIXTURE_VARIANT_ADD(gpu, g84) { .v = V_G84 };
FIXTURE_VARIANT_ADD(gpu, g92) { .v = V_G92 };
FIXTURE_VARIANT_ADD(gpu, gt215) { .v = V_GT215 };
FIXTURE_VARIANT_ADD(gpu, gf100_gpc) { .v = V_GF100_GPC };
FIXTURE_VARIANT_ADD(gpu, gf100_part) { .v = V_GF100_PART };

/*
 * nvpc_hw_domains_init(): the catalogue's domains in order, named by set
 * and place; GF100+ at the bases of gf100_pcounter.xml's domain placement
 * (HUB domain d: 0x1b0000 + d * 0x200).
 */
TEST_F(gpu, domains)
{
	static const struct { const char *name; u32 base; } gf[] = {
		{ "hub.0", 0x1b0000 }, { "hub.1", 0x1b0200 },
		{ "gpc0.0", 0x180000 }, { "gpc1.0", 0x181000 },
		{ "part0.0", 0x1a0000 },
	};
	const struct gen_variant *v = &variant->v;
	struct nvpc_hw *hw = &self->c.g.hw;
	char name[16];
	unsigned int i;

	if (v->layout != L_GF100) {
		ASSERT_EQ(v->chip->nr_domains, hw->nr_domains);
		for (i = 0; i < hw->nr_domains; i++) {
			snprintf(name, sizeof(name), "main.%u", i);
			EXPECT_STREQ(name, hw->domains[i].name);
			EXPECT_EQ(i, hw->domains[i].index);
		}
		return;
	}
	ASSERT_EQ(ARRAY_SIZE(gf), hw->nr_domains);
	for (i = 0; i < ARRAY_SIZE(gf); i++) {
		EXPECT_STREQ(gf[i].name, hw->domains[i].name);
		EXPECT_EQ(gf[i].base, hw->domains[i].base);
	}
}

/*
 * STATUS word j (signals 32j..32j+31): NV10:NV40 at 0x00a430 + i * 0x100
 * + (j >> 2) * 0x200 + (j & 3) * 4 (pcounter.rst "The STATUS registers");
 * NV40:NVC0 at 0x00a800 + i * 0x20 + j * 4 (the "MMIO registers" NV40
 * table); GF100+ at the domain base + j * 4.
 */
TEST_F(gpu, status_words)
{
	const struct gen_variant *v = &variant->v;
	const struct nvpc_gen_ops *gen = self->c.g.hw.gen;
	unsigned int j;
	u32 want;

	for (j = 0; j < NVPC_NR_STATUS; j++) {
		want = doc_reg(v, STATUS, 0) + 4 * j;
		if (v->layout == L_NV10)
			want = doc_reg(v, STATUS, 0) + (j >> 2) * 0x200 +
			       (j & 3) * 4;
		EXPECT_EQ(want, gen->status_reg(self->c.dom, j));
	}
}

/*
 * NV10:NV30 have no quad event mode: the engine counts with one endless
 * single event mode period (gen_nv10.c): PRE and START always true
 * (0xffff), STOP, SETFLAG and CLRFLAG never (0), CTR_PRE 0, CTR_STOP the
 * restart's number, EVENT the domain's input, PRE_OP last. Starting takes
 * three cycles (PRE_OP written, WAIT_FOR_PRE, WAIT_FOR_START) in which
 * nothing is counted (pcounter.rst "Single event mode").
 */
GEN_FIXTURE(live);
FIXTURE_VARIANT_ADD(live, nv10) { .v = V_NV10 };
FIXTURE_VARIANT_ADD(live, nv15) { .v = V_NV15 };
FIXTURE_VARIANT_ADD(live, nv20) { .v = V_NV20 };

TEST_F(live, program)
{
	const struct gen_variant *v = &variant->v;
	const struct nvpc_gen_ops *gen = self->c.g.hw.gen;
	struct nvpc_hw_domain *dom = self->c.dom;
	unsigned long used = BIT(NVPC_SLOT_EVENT) | BIT(NVPC_CTR_CYCLES);
	struct host_gpu *g = &self->c.g;
	u64 ctr[NVPC_NR_CTRS] = { 0 };

	memcpy(dom->src, test_src, sizeof(dom->src));
	memcpy(dom->op, test_op, sizeof(dom->op));
	/* EVENT is its argument 0, a signal always 1 */
	dom->op[NVPC_SLOT_EVENT] = 0xaaaa;
	signal_one(&self->c, test_src[NVPC_SLOT_EVENT] & 0xff);
	gen->start(&g->hw, dom);
	gen->program(&g->hw, dom, NVPC_SLOT_EVENT);

	EXPECT_EQ(0xffff, host_rd(g, doc_reg(v, OP, 0)));
	EXPECT_EQ(0xffff, host_rd(g, doc_reg(v, OP, 1)));
	EXPECT_EQ(test_src[2], host_rd(g, doc_reg(v, SRC, 2)));
	EXPECT_EQ(0xaaaa, host_rd(g, doc_reg(v, OP, 2)));
	/* written, whatever an earlier program left there */
	EXPECT_EQ(0, last_written(g, doc_reg(v, OP, 3)));
	EXPECT_EQ(0, last_written(g, doc_reg(v, SETFLAG_SRC, 0)));
	EXPECT_EQ(0, last_written(g, doc_reg(v, SETFLAG_OP, 0)));
	EXPECT_EQ(0, last_written(g, doc_reg(v, CLRFLAG_SRC, 0)));
	EXPECT_EQ(0, last_written(g, doc_reg(v, CLRFLAG_OP, 0)));
	/* the program starts with its last write, PRE_OP */
	EXPECT_EQ(g->nr_trace - 1, host_last_write(g, doc_reg(v, OP, 0)));
	/* CTR_STOP's initial value numbers the restart: the first */
	EXPECT_EQ(1, g->trace[host_last_write(g, doc_reg(v, CTR_STOP,
							 0))].val);
	EXPECT_EQ(0, g->trace[host_last_write(g, doc_reg(v, CTR_PRE,
							 0))].val);
	/* CTR_MODE bit 2: SIMPLE */
	EXPECT_EQ(0, ctrl_field(host_rd(g, doc_reg(v, CTRL, 0)), 2, 1));

	cycles(&self->c, 100);
	EXPECT_EQ(ST_COUNTING,
		  single_state(v, host_rd(g, doc_reg(v, CTRL, 0))));
	EXPECT_EQ(QS_VALID, gen->read(&g->hw, dom, used, ctr));
	EXPECT_EQ(97, ctr[NVPC_SLOT_EVENT]);
	EXPECT_EQ(97, ctr[NVPC_CTR_CYCLES]);
}

/* quad event mode (NV30+) */
GEN_FIXTURE(quad);
FIXTURE_VARIANT_ADD(quad, nv30) { .v = V_NV30 };
FIXTURE_VARIANT_ADD(quad, nv40) { .v = V_NV40 };
FIXTURE_VARIANT_ADD(quad, g84) { .v = V_G84 };
FIXTURE_VARIANT_ADD(quad, g92) { .v = V_G92 };
FIXTURE_VARIANT_ADD(quad, gt215) { .v = V_GT215 };
FIXTURE_VARIANT_ADD(quad, gf100_gpc) { .v = V_GF100_GPC };
FIXTURE_VARIANT_ADD(quad, gf100_part) { .v = V_GF100_PART };

/*
 * The engine's program of a counting domain (nvpc_domain_program():
 * start, then each input the generation counts), and what the registers
 * hold after it.
 */
TEST_F(quad, program)
{
	const struct gen_variant *v = &variant->v;
	const struct nvpc_gen_ops *gen = self->c.g.hw.gen;
	struct nvpc_hw_domain *dom = self->c.dom;
	struct host_gpu *g = &self->c.g;
	unsigned int s;
	u32 ctrl;

	memcpy(dom->src, test_src, sizeof(dom->src));
	memcpy(dom->op, test_op, sizeof(dom->op));
	dom->ctr_mode = v->ctr_mode;
	gen->start(&g->hw, dom);
	for (s = 0; s < NVPC_NR_SLOTS; s++)
		if (gen->slots & BIT(s))
			gen->program(&g->hw, dom, s);

	for (s = 0; s < NVPC_NR_SLOTS; s++) {
		EXPECT_EQ(test_src[s], host_rd(g, doc_reg(v, SRC, s)));
		/* NV84:NVC0: a PRE_OP write swaps, the setup leaves it */
		if (s == 0 && v->pre_op_swaps) {
			EXPECT_EQ(0, host_writes_to(g, doc_reg(v, OP, 0)));
			continue;
		}
		EXPECT_EQ(test_op[s], host_rd(g, doc_reg(v, OP, s)));
	}
	ctrl = host_rd(g, doc_reg(v, CTRL, 0));
	switch (v->layout) {
	case L_NV10:
		/* DOM<i>_MODE bit 16 + 2i: QUAD; CTR_MODE bit 2 */
		EXPECT_EQ(1, ctrl_field(ctrl, 16 + 2 * v->i, 1));
		EXPECT_EQ(v->ctr_mode, ctrl_field(ctrl, 2, 1));
		break;
	case L_NV40:
		/* MODE bits 0-1: 1 QUAD; CTR_MODE bits 4-6 */
		EXPECT_EQ(1, ctrl_field(ctrl, 0, 2));
		EXPECT_EQ(v->ctr_mode, ctrl_field(ctrl, 4, 3));
		if (!v->pre_op_swaps) {
			/* no SPEC_SRC before NV84: SWAP is PM_TRIGGER */
			EXPECT_EQ(0, host_writes_to(g, doc_reg(v, SPEC_SRC, 0)));
			break;
		}
		/*
		 * SPEC_SRC bits 0-7, the SWAP signal: ZERO, base + 0x0c
		 * (pcounter.rst's later revision, "Trailer signals" [G84:GF100]), set
		 * before the domain enters quad mode
		 */
		EXPECT_EQ(TRAILER_BASE + 0x0c,
			  host_rd(g, doc_reg(v, SPEC_SRC, 0)) & 0xff);
		EXPECT_LT(host_last_write(g, doc_reg(v, SPEC_SRC, 0)),
			  host_first_write(g, doc_reg(v, CTRL, 0)));
		break;
	default:
		/*
		 * CTRL 0x00040002 | ctr_mode << 3 (gf100_pcounter.xml: MODE
		 * bits 0-2: 2 QUAD; bit 18 as nvkm/engine/pm/gf100.c sets it), FILTER 0, SWAP_SRC
		 * the domain's USER_0 (pcounter.rst "Trailer signals" NVC0+:
		 * base + 0x27)
		 */
		EXPECT_EQ(0x00040002 | v->ctr_mode << 3,
			  ctrl & ~(3U << 24 | 3U << 28));
		EXPECT_EQ(1, host_writes_to(g, doc_reg(v, FILTER, 0)));
		EXPECT_EQ(0, host_rd(g, doc_reg(v, FILTER, 0)));
		EXPECT_EQ(TRAILER_BASE + 0x27,
			  host_rd(g, doc_reg(v, SPEC_SRC, 0)) & 0xff);
		break;
	}
}

/*
 * A period end to end: EVENT counts a signal that is always 1; after 100
 * cycles a swap makes the period visible (QUAD_STATE VALID), the read
 * gives 100 events in 100 cycles, and the ack brings the state back to
 * EMPTY (pcounter.rst "Quad event mode").
 */
TEST_F(quad, period)
{
	const struct gen_variant *v = &variant->v;
	const struct nvpc_gen_ops *gen = self->c.g.hw.gen;
	struct nvpc_hw_domain *dom = self->c.dom;
	unsigned long used = BIT(NVPC_SLOT_EVENT) | BIT(NVPC_CTR_CYCLES);
	struct host_gpu *g = &self->c.g;
	u64 ctr[NVPC_NR_CTRS] = { 0 };
	struct nvpc_domain_state st;
	unsigned int s;

	memcpy(dom->src, test_src, sizeof(dom->src));
	memcpy(dom->op, test_op, sizeof(dom->op));
	/* EVENT is its argument 0, a signal always 1 */
	dom->op[NVPC_SLOT_EVENT] = 0xaaaa;
	dom->ctr_mode = 0;
	signal_one(&self->c, test_src[NVPC_SLOT_EVENT] & 0xff);
	gen->start(&g->hw, dom);
	for (s = 0; s < NVPC_NR_SLOTS; s++)
		if (gen->slots & BIT(s))
			gen->program(&g->hw, dom, s);
	cycles(&self->c, 100);
	EXPECT_EQ(QS_EMPTY, quad_state(v, host_rd(g, doc_reg(v, CTRL, 0))));

	host_trace_reset(g);
	gen->trigger_swap(&g->hw, dom);
	if (v->layout == L_GF100) {
		/* USER_TRIGGER: USER_0 = 1 for one cycle (0x11) */
		EXPECT_EQ(0x11, last_written(g, doc_reg(v, USER_TRIGGER, 0)));
	} else if (v->pre_op_swaps) {
		/* NV84:NVC0: the PRE_OP write swaps */
		EXPECT_EQ(1, host_writes_to(g, doc_reg(v, OP, 0)));
	} else {
		/* NV30:NV84: PGRAPH PM_TRIGGER (nvkm/engine/pm/nv40.c: 0x400084 = 0x20) */
		EXPECT_EQ(0x20, last_written(g, 0x400084));
	}
	EXPECT_EQ(1, g->nr_trace);
	nvpc_sim_settle(g->sim);
	EXPECT_EQ(QS_VALID, quad_state(v, host_rd(g, doc_reg(v, CTRL, 0))));
	gen->state(&g->hw, dom, &st);
	EXPECT_EQ(NVPC_DOM_MODE_QUAD, st.mode);
	EXPECT_EQ(QS_VALID, st.quad);

	EXPECT_EQ(QS_VALID, gen->read(&g->hw, dom, used, ctr));
	EXPECT_EQ(100, ctr[NVPC_SLOT_EVENT]);
	EXPECT_EQ(100, ctr[NVPC_CTR_CYCLES]);
	EXPECT_EQ(100, host_rd(g, doc_reg(v, CTR_EVENT, 0)));
	EXPECT_EQ(100, host_rd(g, doc_reg(v, CTR_CYCLES, 0)));

	host_trace_reset(g);
	gen->ack(&g->hw, dom);
	/* QUAD_ACK_TRIGGER: NV30 bit 8 * i of the shared one, else bit 0 */
	EXPECT_EQ(v->layout == L_NV10 ? 1U << (8 * v->i) : 1,
		  last_written(g, doc_reg(v, QUAD_ACK, 0)));
	EXPECT_EQ(QS_EMPTY, quad_state(v, host_rd(g, doc_reg(v, CTRL, 0))));
}

/* single event mode (NV10:NVC0; pcounter.rst has none for NVC0+) */
GEN_FIXTURE(single);
FIXTURE_VARIANT_ADD(single, nv10) { .v = V_NV10 };
FIXTURE_VARIANT_ADD(single, nv15) { .v = V_NV15 };
FIXTURE_VARIANT_ADD(single, nv20) { .v = V_NV20 };
FIXTURE_VARIANT_ADD(single, nv30) { .v = V_NV30 };
FIXTURE_VARIANT_ADD(single, nv40) { .v = V_NV40 };
FIXTURE_VARIANT_ADD(single, g84) { .v = V_G84 };
FIXTURE_VARIANT_ADD(single, g92) { .v = V_G92 };
FIXTURE_VARIANT_ADD(single, gt215) { .v = V_GT215 };

/*
 * pcounter.rst "Single event mode": the inputs, THRESHOLD, the CTR_PRE
 * and CTR_STOP initial values and the domain's CTRL fields, with PRE_OP
 * written last, since every other write aborts the process and the
 * PRE_OP write starts it. Started, with PRE never true, it waits for PRE
 * with CTR_PRE and CTR_STOP at their initial values.
 */
static void single_check(struct __test_metadata *_metadata,
			 struct gen_case *c, const struct gen_variant *v,
			 bool event_all)
{
	struct nvpc_single_prog p = {
		.pre = 2, .stop = 3, .threshold = 0x1234,
		.event_all = event_all,
	};
	const struct nvpc_gen_ops *gen = c->g.hw.gen;
	struct host_gpu *g = &c->g;
	unsigned int s;
	u32 ctrl;

	memcpy(p.src, test_src, sizeof(p.src));
	memcpy(p.op, test_op, sizeof(p.op));
	p.op[NVPC_SLOT_PRE] = 0x0000;
	host_trace_reset(g);
	gen->single_start(&g->hw, c->dom, &p);

	for (s = 0; s < NVPC_NR_SLOTS; s++) {
		EXPECT_EQ(p.src[s], host_rd(g, doc_reg(v, SRC, s)));
		EXPECT_EQ(p.op[s], host_rd(g, doc_reg(v, OP, s)));
	}
	EXPECT_EQ(0x1234, host_rd(g, doc_reg(v, THRESHOLD, 0)));
	if (v->bits40) {
		EXPECT_EQ(0, last_written(g, doc_reg(v, THRESHOLD_HI, 0)));
	}
	EXPECT_EQ(g->nr_trace - 1, host_last_write(g, doc_reg(v, OP, 0)));

	ctrl = host_rd(g, doc_reg(v, CTRL, 0));
	if (v->layout == L_NV10) {
		/* DOM<i>_EVENT_CTR_PERIOD bit 8 + i (NV15+): 1 ALL */
		EXPECT_EQ(v->ctr_period && event_all,
			  ctrl_field(ctrl, 8 + v->i, 1));
		/* CTR_MODE bit 2 SIMPLE, DOM<i>_MODE bit 16 + 2i SINGLE */
		EXPECT_EQ(0, ctrl_field(ctrl, 2, 1));
		EXPECT_EQ(0, ctrl_field(ctrl, 16 + 2 * v->i, 1));
	} else {
		/* MODE bits 0-1: 0 SINGLE; EVENT_CTR_PERIOD bit 8 */
		EXPECT_EQ(0, ctrl_field(ctrl, 0, 2));
		EXPECT_EQ(event_all, ctrl_field(ctrl, 8, 1));
	}

	cycles(c, 2);
	EXPECT_EQ(ST_WAIT_PRE,
		  single_state(v, host_rd(g, doc_reg(v, CTRL, 0))));
	EXPECT_EQ(2, host_rd(g, doc_reg(v, CTR_PRE, 0)));
	EXPECT_EQ(3, host_rd(g, doc_reg(v, CTR_STOP, 0)));
}

TEST_F(single, program)
{
	single_check(_metadata, &self->c, &variant->v, true);
	single_check(_metadata, &self->c, &variant->v, false);
}

/* record mode (NV84+) */
GEN_FIXTURE(record);
FIXTURE_VARIANT_ADD(record, g84) { .v = V_G84 };
FIXTURE_VARIANT_ADD(record, g92) { .v = V_G92 };
FIXTURE_VARIANT_ADD(record, gt215) { .v = V_GT215 };
FIXTURE_VARIANT_ADD(record, gf100_gpc) { .v = V_GF100_GPC };
FIXTURE_VARIANT_ADD(record, gf100_part) { .v = V_GF100_PART };

/*
 * pcounter.rst "Record mode setup": the DMA object, then the channel
 * write with VALID (bit 31) that binds both; per domain the sources,
 * LIMIT, CTRL in record mode, and RECORD_START after it (written in
 * another mode it leaves the counters, "a bogus packet will likely be
 * written"), which copies the address to the position; STOP_OP never
 * until then and the session's STOP last. NV84:NV92 have no
 * RECORD_ADDRESS_HIGH (the high 8 bits are 0).
 */
static void record_check(struct __test_metadata *_metadata,
			 struct gen_case *c, const struct gen_variant *v,
			 bool short_fmt)
{
	struct nvpc_record_prog p = {
		.stop_op = 0xaaaa, .periodic = 3, .short_fmt = short_fmt,
		.pkt = short_fmt ? 16 : 32, .chan = 0x123, .dma = 0x45,
		.addr_high = 0x01, .start = 0x10000040, .limit = 0x10000fe0,
	};
	const struct nvpc_gen_ops *gen = c->g.hw.gen;
	struct host_gpu *g = &c->g;
	u32 stop_op = doc_reg(v, OP, 3);
	unsigned int s;
	int start;
	u32 ctrl;

	memcpy(p.src, test_src, sizeof(p.src));
	host_trace_reset(g);
	gen->record_bind(&g->hw, &p);
	gen->record_setup(&g->hw, c->dom, &p);

	/* CHAN bits 0-29 and VALID; GF100+ MAIN CHAN taken as the same */
	EXPECT_EQ(0x80000123, host_rd(g, doc_reg(v, REC_CHAN, 0)));
	if (v->rec != REC_GF100) {
		EXPECT_EQ(0x45, host_rd(g, doc_reg(v, REC_DMA, 0)));
		EXPECT_LT(host_last_write(g, doc_reg(v, REC_DMA, 0)),
			  host_first_write(g, doc_reg(v, REC_CHAN, 0)));
	}
	for (s = 0; s < NVPC_NR_SLOTS; s++)
		EXPECT_EQ(p.src[s], host_rd(g, doc_reg(v, SRC, s)));
	EXPECT_EQ(0x10000fe0, host_rd(g, doc_reg(v, REC_LIMIT, 0)));
	EXPECT_EQ(0x10000040, host_rd(g, doc_reg(v, REC_START, 0)));
	/* RECORD_STATUS (POS): bits 4-31 the position, bit 0 FAULT */
	EXPECT_EQ(0x10000040, host_rd(g, doc_reg(v, REC_STATUS, 0)));
	if (v->rec == REC_G84) {
		EXPECT_EQ(0, host_writes_to(g, doc_reg(v, REC_ADDR_HIGH, 0)));
	} else {
		EXPECT_EQ(0x01, host_rd(g, doc_reg(v, REC_ADDR_HIGH, 0)));
	}

	ctrl = host_rd(g, doc_reg(v, CTRL, 0));
	if (v->rec == REC_GF100) {
		/* gf100_pcounter.xml: MODE bits 0-2, 3 and 5 the record variants */
		EXPECT_EQ(short_fmt ? 5 : 3, ctrl_field(ctrl, 0, 3));
	} else {
		/* MODE bits 0-1: 2 RECORD; RECORD_FORMAT bit 20: 1 SHORT */
		EXPECT_EQ(2, ctrl_field(ctrl, 0, 2));
		EXPECT_EQ(short_fmt, ctrl_field(ctrl, 20, 1));
	}
	/* PERIODIC_PERIOD bits 21-23 */
	EXPECT_EQ(3, ctrl_field(ctrl, 21, 3));

	start = host_first_write(g, doc_reg(v, REC_START, 0));
	EXPECT_LT(host_last_write(g, doc_reg(v, CTRL, 0)), start);
	EXPECT_LT(host_last_write(g, doc_reg(v, REC_LIMIT, 0)), start);
	EXPECT_EQ(0, g->trace[host_first_write(g, stop_op)].val);
	EXPECT_LT(host_first_write(g, stop_op), start);
	EXPECT_EQ(g->nr_trace - 1, host_last_write(g, stop_op));
	EXPECT_EQ(0xaaaa, host_rd(g, stop_op));
}

TEST_F(record, program)
{
	record_check(_metadata, &self->c, &variant->v, false);
	record_check(_metadata, &self->c, &variant->v, true);
}

/*
 * The generation's init clears RECORD_RESET (bit 0) and PERIODIC_RESET
 * (bit 4) of the global controls and keeps the other bits: G84:GF100
 * GCTRL (pcounter.rst "Control registers"); GF100+ the HUB, GPC and PART
 * set controls (gf100_pcounter.xml: 0x1be000, 0x1b8000, 0x1bc000, CTRL +0).
 */
TEST_F(record, init_clears_resets)
{
	static const u32 gf_sets[] = { 0x1be000, 0x1b8000, 0x1bc000 };
	const struct gen_variant *v = &variant->v;
	const struct nvpc_gen_ops *gen = self->c.g.hw.gen;
	struct host_gpu *g = &self->c.g;
	unsigned int i;

	ASSERT_NE(NULL, gen->init);
	if (v->rec != REC_GF100) {
		nvpc_sim_wr32(g->sim, doc_reg(v, GCTRL, 0), 0x111);
		gen->init(&g->hw);
		EXPECT_EQ(0x100, host_rd(g, doc_reg(v, GCTRL, 0)));
		EXPECT_EQ(1, g->logged);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(gf_sets); i++)
		nvpc_sim_wr32(g->sim, gf_sets[i], 0x111);
	gen->init(&g->hw);
	for (i = 0; i < ARRAY_SIZE(gf_sets); i++)
		EXPECT_EQ(0x100, host_rd(g, gf_sets[i]));
	EXPECT_EQ(3, g->logged);
}

TEST_HARNESS_MAIN
