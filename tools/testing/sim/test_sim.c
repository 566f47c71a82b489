// SPDX-License-Identifier: GPL-2.0
/*
 * Hand-computed tests of the sim model. Every expected value is worked out
 * from the documents (envytools' pcounter.rst and rnndb
 * gf100_pcounter.xml, nouveau's nvkm/engine/pm tables) and the
 * time rules of sim_model.h, with the arithmetic in a comment. Each test
 * runs against both engines (fixture variants "fast" and "oracle").
 */
#include "sim_test.h"
#include "sim_internal.h"
#define nvpc_sim_ctr_add_test nvpc_sim_ctr_add
#include "kselftest_harness.h"

FIXTURE(sim) {
	struct nvpc_sim *s[16];
	int n;
};

FIXTURE_VARIANT(sim) {
	const struct nvpc_sim_engine *engine;
	bool oracle;
};

FIXTURE_VARIANT_ADD(sim, fast) {
	.engine = &nvpc_sim_engine_fast,
};

FIXTURE_VARIANT_ADD(sim, oracle) {
	.engine = &nvpc_sim_engine_oracle,
	.oracle = true,
};

FIXTURE_SETUP(sim)
{
	self->n = 0;
}

FIXTURE_TEARDOWN(sim)
{
	while (self->n)
		free(self->s[--self->n]);
}

#define NEW(chip) ({ \
	struct nvpc_sim *__s = sim_new(chip, variant->engine); \
	ASSERT_NE(NULL, __s); \
	self->s[self->n++] = __s; \
	__s; })

#define NEW_LAT(chip, lat) ({ \
	struct nvpc_sim *__s = sim_new_lat(chip, variant->engine, lat); \
	ASSERT_NE(NULL, __s); \
	self->s[self->n++] = __s; \
	__s; })

#define RD(a)		nvpc_sim_rd32(s, (a))
#define WR(a, v)	nvpc_sim_wr32(s, (a), (v))
#define ADV(d, n)	ASSERT_EQ(0, nvpc_sim_advance(s, (d), (n)))

/* NV40 family CTRL value for quad mode with a counter mode */
#define NV40_QUAD(cm)	(NVPC_NV40_CTRL_MODE_QUAD | (cm) << 4)

/* NV30/NV40: swap through PGRAPH PM_TRIGGER, seen by the next cycle */
static void pm_swap(struct nvpc_sim *s, int dom)
{
	nvpc_sim_wr32(s, NVPC_PGRAPH_PM_TRIGGER, NVPC_PGRAPH_PM_TRIGGER_PULSE);
	nvpc_sim_advance(s, dom, 1);
}

/* ---- identification, layouts, absent registers ---- */

TEST_F(sim, boot0_chipset)
{
	struct nvpc_sim *s;

	/* envytools rnndb pmc.xml: PMC.BOOT_0 bits 20-28 = chipset */
	s = NEW(&chip_nv10);
	EXPECT_EQ(0x01000000, RD(NVPC_PMC_BOOT_0));	/* 0x10 << 20 */
	s = NEW(&chip_gf100);
	EXPECT_EQ(0x0c000000, RD(NVPC_PMC_BOOT_0));	/* 0xc0 << 20 */
}

TEST_F(sim, layout_nv10)
{
	struct nvpc_sim *s = NEW(&chip_nv10);
	struct nvpc_sim_stats st;

	/* pcounter.rst "MMIO registers / NV10": 0xa400 + i * 0x100 */
	WR(0xa400, 0x01020304);
	EXPECT_EQ(0x01020304, RD(NVPC_NV10_PRE_SRC(0)));
	WR(NVPC_NV10_SETFLAG_SRC(0), 0x11);	/* NV10:NV30 only */
	EXPECT_EQ(0x11, RD(0xa420));
	/* THRESHOLD_HI holds the high 8 bits */
	WR(NVPC_NV10_THRESHOLD_HI(0), 0x1ff);
	EXPECT_EQ(0xff, RD(0xa62c));
	/* NV10 has one domain: domain 1 (0xa500) is absent */
	WR(0xa500, 0x55);
	EXPECT_EQ(NVPC_SIM_RD_ABSENT, RD(0xa500));
	nvpc_sim_get_stats(s, &st);
	EXPECT_EQ(1, st.absent_reads);
	EXPECT_EQ(1, st.absent_writes);
	EXPECT_EQ(0xa500, st.last_unmodelled);
	/* CTRL bit 8 (EVENT_CTR_PERIOD) is NV15+: not writable on NV10 */
	WR(NVPC_NV10_CTRL, BIT(8) | BIT(2));
	EXPECT_EQ(BIT(2), RD(NVPC_NV10_CTRL));
}

TEST_F(sim, layout_nv20_nv30)
{
	struct nvpc_sim *s = NEW(&chip_nv20);

	/* two domains; CTRL bits 8/9 per domain */
	WR(NVPC_NV10_STOP_OP(1), 0x1234);
	EXPECT_EQ(0x1234, RD(0xa51c));
	WR(NVPC_NV10_CTRL, BIT(8) | BIT(9) | BIT(16));	/* 16 is NV30+ */
	EXPECT_EQ(BIT(8) | BIT(9), RD(NVPC_NV10_CTRL));
	s = NEW(&chip_nv30);
	/* NV30 removed SETFLAG_SRC/CLRFLAG_SRC and the _HI registers */
	WR(NVPC_NV10_SETFLAG_SRC(0), 0x11);
	EXPECT_EQ(0, RD(NVPC_NV10_SETFLAG_SRC(0)));
	WR(NVPC_NV10_THRESHOLD_HI(0), 0x1);
	EXPECT_EQ(0, RD(NVPC_NV10_THRESHOLD_HI(0)));
	WR(NVPC_NV10_CTRL, BIT(16) | BIT(18));
	EXPECT_EQ(BIT(16) | BIT(18), RD(NVPC_NV10_CTRL));
}

TEST_F(sim, layout_nv40_family)
{
	struct nvpc_sim *s = NEW(&chip_nv40);

	/* pcounter.rst "MMIO registers / NV40": 0xa400 + i * 4 */
	WR(NVPC_NV40_EVENT_OP(3), 0xabcd);
	EXPECT_EQ(0xabcd, RD(0xa4ac));
	WR(NVPC_NV40_CTRL(2), NV40_QUAD(3) | BIT(8));
	EXPECT_EQ(0x31 | BIT(8), RD(0xa7c8));
	/* SPEC_SRC is G84+, absent on NV40 */
	WR(0xa560, 0x12);
	EXPECT_EQ(0, RD(0xa560));
	s = NEW(&chip_g84);
	WR(0xa560, 0x1234);
	EXPECT_EQ(0x1234, RD(NVPC_G84_SPEC_SRC(0)));
	/* RECORD_ADDRESS_HIGH is G92+ */
	WR(0xa6a0, 0x12);
	EXPECT_EQ(0, RD(0xa6a0));
	s = NEW(&chip_g92);
	WR(0xa6a0, 0x1ff);
	EXPECT_EQ(0xff, RD(NVPC_G92_RECORD_ADDRESS_HIGH(0)));
	/* USER_TRIGGER is GT215+ and write-only there (reads 0) */
	WR(0xa580, 0x1);
	EXPECT_EQ(0, RD(0xa580));
	EXPECT_EQ(0, nvpc_sim_user_signals(s, 0));
	s = NEW(&chip_gt215);
	WR(NVPC_GT215_USER_TRIGGER(1), 0x3);
	EXPECT_EQ(0, RD(0xa584));
	EXPECT_EQ(3, nvpc_sim_user_signals(s, 1));
}

TEST_F(sim, layout_gf100)
{
	struct nvpc_sim *s = NEW(&chip_gf100);
	struct nvpc_sim_stats st;

	/* rnndb gf100_pcounter.xml: hub d at 0x1b0000 + d * 0x200, PRE_SRC at +0x40 */
	WR(0x1b0240, 0x77);
	EXPECT_EQ(0x77, RD(NVPC_GF100_HUB_BASE(1) + NVPC_GF100_PRE_SRC));
	/* GPC 1 domain 0 CTRL at 0x180000 + 0x1000 + 0x9c */
	WR(0x18109c, NVPC_GF100_CTRL_MODE_QUAD | 2 << 3);
	EXPECT_EQ(0x12, RD(NVPC_GF100_GPC_BASE(1, 0) + NVPC_GF100_CTRL));
	/* partition 0 domain 0 */
	WR(0x1a0058, 0x33);
	EXPECT_EQ(0x33, RD(NVPC_GF100_PART_BASE(0, 0) + NVPC_GF100_STOP_SRC));
	/* GPC 2 does not exist (2 GPCs): absent */
	WR(0x182040, 0x77);
	EXPECT_EQ(0, RD(0x182040));
	/* a GPC domain index beyond the set (domain 1) is absent too */
	EXPECT_EQ(0, RD(0x180240));
	nvpc_sim_get_stats(s, &st);
	EXPECT_EQ(2, st.absent_reads);
	/* USER_TRIGGER is readable on GF100+ */
	WR(0x1b00ec, 0x3c);
	EXPECT_EQ(0x3c, RD(0x1b00ec));
}

TEST_F(sim, unit_enumeration)
{
	struct nvpc_sim *s = NEW(&chip_gf100);
	u32 mask;

	/* nouveau nvkm/engine/pm/gf100.c: GPC mask =
	 * ((1 << R[0x022430]) - 1) & ~R[0x022504] & ~R[0x022584]; 2 GPCs, none disabled -> 0x3; 1 partition -> 0x1
	 */
	mask = ((1U << RD(0x022430)) - 1) & ~RD(0x022504) & ~RD(0x022584);
	EXPECT_EQ(0x3, mask);
	mask = ((1U << RD(0x022438)) - 1) & ~RD(0x022548) & ~RD(0x0225c8);
	EXPECT_EQ(0x1, mask);
	WR(0x022430, 7);	/* read-only */
	EXPECT_EQ(2, RD(0x022430));
	/* absent before GF100 */
	s = NEW(&chip_g84);
	EXPECT_EQ(NVPC_SIM_RD_ABSENT, RD(0x022430));
}

TEST_F(sim, pmc_enable)
{
	struct nvpc_sim *s = NEW(&chip_gf100);
	u32 a = NVPC_GF100_HUB_BASE(0) + NVPC_GF100_PRE_SRC;

	EXPECT_EQ(0xffffffff, RD(NVPC_PMC_ENABLE));
	WR(a, 0x42);
	/* bit 28 clear: PCOUNTER held in reset, inaccessible */
	WR(NVPC_PMC_ENABLE, (u32)~NVPC_PMC_ENABLE_PCOUNTER);
	EXPECT_EQ(NVPC_SIM_RD_DISABLED, RD(a));
	WR(a, 0x43);
	ADV(0, 10);
	WR(NVPC_PMC_ENABLE, 0xffffffff);
	/* back out of reset: registers are at their reset value 0 */
	EXPECT_EQ(0, RD(a));
	/* before GF100 PCOUNTER ignores PMC.ENABLE */
	s = NEW(&chip_g84);
	WR(NVPC_G84_SPEC_SRC(0), 0x5);
	WR(NVPC_PMC_ENABLE, 0);
	EXPECT_EQ(0x5, RD(NVPC_G84_SPEC_SRC(0)));
}

struct trace_log {
	int n, unmodelled;
	u32 last_addr;
};

static void trace_cb(void *ctx, u32 addr, u32 val, bool write, bool modelled)
{
	struct trace_log *t = ctx;

	(void)val;
	(void)write;
	t->n++;
	t->last_addr = addr;
	if (!modelled)
		t->unmodelled++;
}

TEST_F(sim, reserved_and_trace)
{
	struct nvpc_sim *s = NEW(&chip_g84);
	struct trace_log t = { 0 };
	struct nvpc_sim_stats st;

	nvpc_sim_set_trace(s, trace_cb, &t);
	/* 0xa5a0..0xa5ff and 0xa620 are holes in the NV40 map */
	WR(0xa5a0, 1);
	EXPECT_EQ(NVPC_SIM_RD_ABSENT, RD(0xa5a0));
	EXPECT_EQ(NVPC_SIM_RD_ABSENT, RD(0xa620));
	/* an unaligned access and an address outside every unit */
	EXPECT_EQ(NVPC_SIM_RD_ABSENT, RD(0xa402));
	EXPECT_EQ(NVPC_SIM_RD_ABSENT, RD(0x123454));
	/* RECORD_CHAN reads back as written; its bind is modelled
	 * (sim_regs.c "DOC: record bind"), so it is not "only stored"
	 */
	WR(NVPC_G84_RECORD_CHAN, 0x80000001);
	EXPECT_EQ(0x80000001, RD(NVPC_G84_RECORD_CHAN));
	/* a modelled register */
	RD(NVPC_NV40_CTRL(0));
	nvpc_sim_get_stats(s, &st);
	EXPECT_EQ(4, st.absent_reads);
	EXPECT_EQ(1, st.absent_writes);
	EXPECT_EQ(0, st.stored_accesses);
	EXPECT_EQ(8, t.n);
	EXPECT_EQ(5, t.unmodelled);
	EXPECT_EQ(NVPC_NV40_CTRL(0), t.last_addr);
}

/* ---- logic operations ("Input selection") ---- */

TEST_F(sim, op_truth_tables)
{
	struct nvpc_sim *s = NEW(&chip_nv40);

	/* A = sig 2: (c % 4) < 2 -> 1100 1100; B = sig 3: c % 2 == 0 ->
	 * 1010 1010. Per 4 cycles (A,B) = (1,1) (1,0) (0,1) (0,0).
	 * AND  (table bit i set iff i & 3 == 3: 0x8888) -> 1 of 4
	 * XOR  (i & 3 in {1, 2}: 0x6666)               -> 2 of 4
	 * OR   (0xeeee)                                -> 3 of 4
	 * NOR  (i & 3 == 0: 0x1111)                    -> 1 of 4
	 * over 8 cycles: 2, 4, 6, 2
	 */
	wper(s, 0, 2, 4, 2, 0);
	wper(s, 0, 3, 2, 1, 0);
	WR(NVPC_NV40_CTRL(0), NV40_QUAD(NVPC_CTR_MODE_SIMPLE));
	WR(NVPC_NV40_PRE_SRC(0), SRC4(2, 3, 0, 0));
	WR(NVPC_NV40_START_SRC(0), SRC4(2, 3, 0, 0));
	WR(NVPC_NV40_EVENT_SRC(0), SRC4(2, 3, 0, 0));
	WR(NVPC_NV40_STOP_SRC(0), SRC4(2, 3, 0, 0));
	WR(NVPC_NV40_PRE_OP(0), 0x8888);
	WR(NVPC_NV40_START_OP(0), 0x6666);
	WR(NVPC_NV40_EVENT_OP(0), 0xeeee);
	WR(NVPC_NV40_STOP_OP(0), 0x1111);
	ADV(0, 8);
	pm_swap(s, 0);
	EXPECT_EQ(8, RD(NVPC_NV40_CTR_CYCLES(0)));
	EXPECT_EQ(8, RD(NVPC_NV40_CTR_CYCLES_ALT(0)));
	EXPECT_EQ(2, RD(NVPC_NV40_CTR_PRE(0)));
	EXPECT_EQ(4, RD(NVPC_NV40_CTR_START(0)));
	EXPECT_EQ(6, RD(NVPC_NV40_CTR_EVENT(0)));
	EXPECT_EQ(2, RD(NVPC_NV40_CTR_STOP(0)));
}

TEST_F(sim, op_delay_bits)
{
	struct nvpc_sim *s = NEW(&chip_nv40);

	/* A = sig 2: 1 when c % 4 in {0, 1}.
	 * PRE: arg0 with DELAY0 -> A(c - 1), 1 when c % 4 in {1, 2}: in
	 * cycles 0..7 -> 1, 2, 5, 6 = 4 (A(-1) = 0: the delay flop resets
	 * to 0).
	 * START: args (A, A) with DELAY1, table "arg0 & !arg1" (bits 1, 5,
	 * 9, 13 = 0x2222) -> rising edges of A: c = 0, 4 -> 2.
	 * EVENT without delay bits, same table -> A & !A = 0.
	 */
	wper(s, 0, 2, 4, 2, 0);
	WR(NVPC_NV40_CTRL(0), NV40_QUAD(0));
	WR(NVPC_NV40_PRE_SRC(0), SRC4(2, 0, 0, 0));
	WR(NVPC_NV40_PRE_OP(0), NVPC_OP_ARG0 | NVPC_OP_DELAY0);
	WR(NVPC_NV40_START_SRC(0), SRC4(2, 2, 0, 0));
	WR(NVPC_NV40_START_OP(0), 0x2222 | NVPC_OP_DELAY1);
	WR(NVPC_NV40_EVENT_SRC(0), SRC4(2, 2, 0, 0));
	WR(NVPC_NV40_EVENT_OP(0), 0x2222);
	ADV(0, 8);
	pm_swap(s, 0);
	EXPECT_EQ(4, RD(NVPC_NV40_CTR_PRE(0)));
	EXPECT_EQ(2, RD(NVPC_NV40_CTR_START(0)));
	EXPECT_EQ(0, RD(NVPC_NV40_CTR_EVENT(0)));
}

static void replace_setup(struct nvpc_sim *s)
{
	/* sig 2: 1 when c % 4 in {0, 1}; sig 1 constant 1, sig 0 0 */
	wconst(s, 0, S1, 1);
	wper(s, 0, 2, 4, 2, 0);
	nvpc_sim_wr32(s, NVPC_NV40_CTRL(0), NV40_QUAD(0));
	/* SWAP = signal 0, constant 0 */
	nvpc_sim_wr32(s, NVPC_G84_SPEC_SRC(0), 0);
}

TEST_F(sim, op_replace_bits_g92)
{
	struct nvpc_sim *s = NEW(&chip_g92);
	int pass;

	/*
	 * Table 0x0a0a = "arg0 & !arg2" (i & 1 set, i & 4 clear: bits 1, 3,
	 * 9, 11). SRC = (sig2, sig0, S1, S1): without replacement arg2 = 1
	 * -> 0. PRE/START bit 18 (EVENT/STOP bit 19) replace arg2 with
	 * SRC[0] delayed -> rising edges of sig2: c = 0, 4 -> 2 in 8 cycles.
	 * Table 0xff00 = "arg3". SRC = (sig0, sig2, S0, S0): without
	 * replacement 0; PRE/START bit 19 (EVENT/STOP bit 20) replace arg3
	 * with SRC[1] delayed = sig2(c - 1): c = 1, 2, 5, 6 -> 4.
	 * EVENT bit 18 instead selects SETFLAG (table 0 here -> SETFLAG 0).
	 * On G84 (pass 1) the replace bits do not exist: 0 everywhere.
	 */
	for (pass = 0; pass < 2; pass++) {
		u32 want2 = pass ? 0 : 2, want4 = pass ? 0 : 4;

		if (pass)
			s = NEW(&chip_g84);
		replace_setup(s);
		WR(NVPC_NV40_PRE_SRC(0), SRC4(2, 0, S1, S1));
		WR(NVPC_NV40_PRE_OP(0), 0x0a0a | NVPC_OP_ARG2_DELAYED_SRC0);
		WR(NVPC_NV40_START_SRC(0), SRC4(0, 2, S0, S0));
		WR(NVPC_NV40_START_OP(0), 0xff00 | NVPC_OP_ARG3_DELAYED_SRC1);
		WR(NVPC_NV40_EVENT_SRC(0), SRC4(2, 0, S1, S1));
		WR(NVPC_NV40_EVENT_OP(0), 0x0a0a | NVPC_OP_ES_ARG2_DELAYED_SRC0);
		WR(NVPC_NV40_STOP_SRC(0), SRC4(0, 2, S0, S0));
		WR(NVPC_NV40_STOP_OP(0), 0xff00 | NVPC_OP_ES_ARG3_DELAYED_SRC1);
		/* the PRE_OP write swapped at cycle 0: harmless */
		ADV(0, 1);
		WR(NVPC_NV40_PRE_OP(0), 0x0a0a | NVPC_OP_ARG2_DELAYED_SRC0);
		/* swap at cycle 1; count cycles 1..8, then swap at 9 */
		ADV(0, 8);
		WR(NVPC_NV40_PRE_OP(0), 0x0a0a | NVPC_OP_ARG2_DELAYED_SRC0);
		ADV(0, 1);
		/* cycles 1..8: sig2 edges at 4, 8 -> 2; sig2(c-1) = 1 at
		 * c = 1, 2, 5, 6 -> 4
		 */
		EXPECT_EQ(want2, RD(NVPC_NV40_CTR_PRE(0)));
		EXPECT_EQ(want4, RD(NVPC_NV40_CTR_START(0)));
		EXPECT_EQ(want2, RD(NVPC_NV40_CTR_EVENT(0)));
		EXPECT_EQ(want4, RD(NVPC_NV40_CTR_STOP(0)));
	}
	/* EVENT bit 18 = SETFLAG, not a delayed source: SETFLAG_OP 0 */
	s = NEW(&chip_g92);
	replace_setup(s);
	WR(NVPC_NV40_EVENT_SRC(0), SRC4(0, 2, S1, S1));
	WR(NVPC_NV40_EVENT_OP(0), 0xff00 | NVPC_OP_ES_ARG3_SETFLAG);
	ADV(0, 8);
	WR(NVPC_NV40_PRE_OP(0), 0);
	ADV(0, 1);
	/* arg3 = SETFLAG = 0 -> EVENT 0 (without bit 18 it would be 8) */
	EXPECT_EQ(0, RD(NVPC_NV40_CTR_EVENT(0)));
}

TEST_F(sim, setflag_chaining_nv30)
{
	struct nvpc_sim *s = NEW(&chip_nv30);

	/*
	 * NV30: SETFLAG args are START_SRC[2], START_SRC[3], PRE_SRC[0],
	 * PRE_SRC[1]. START_SRC[2] = sig 2 (c % 4 in {0,1}), SETFLAG_OP =
	 * arg0 -> SETFLAG = sig2. EVENT_OP = arg3 (0xff00) with bit 18:
	 * arg3 = SETFLAG -> 4 of 8 cycles. STOP the same without bit 18:
	 * arg3 = STOP_SRC[3] = sig 0 = 0.
	 */
	wper(s, 0, 2, 4, 2, 0);
	WR(NVPC_NV10_CTRL, NVPC_NV10_CTRL_MODE_QUAD(0));
	WR(NVPC_NV10_START_SRC(0), SRC4(0, 0, 2, 0));
	WR(NVPC_NV10_SETFLAG_OP(0), NVPC_OP_ARG0);
	WR(NVPC_NV10_EVENT_OP(0), 0xff00 | NVPC_OP_ES_ARG3_SETFLAG);
	WR(NVPC_NV10_STOP_OP(0), 0xff00);
	ADV(0, 8);
	pm_swap(s, 0);
	EXPECT_EQ(4, RD(NVPC_NV10_CTR_EVENT(0)));
	EXPECT_EQ(0, RD(NVPC_NV10_CTR_STOP(0)));
	EXPECT_EQ(8, RD(NVPC_NV10_CTR_CYCLES(0)));
	EXPECT_EQ(NVPC_QUAD_VALID,
		  FIELD_GET(NVPC_NV10_CTRL_QUAD_STATE(0), RD(NVPC_NV10_CTRL)));
}

TEST_F(sim, setflag_clrflag_mapping_and_flag_delay)
{
	struct nvpc_sim *s = NEW(&chip_nv40);

	/*
	 * SETFLAG_OP = arg2 (table 0xf0f0) = PRE_SRC[0] = sig 2, a pulse at
	 * c = 0 (period 100). CLRFLAG_OP = arg3 (0xff00) = START_SRC[1] =
	 * sig 3, a pulse at c = 5 ((c + 95) % 100 == 0).
	 * Latch: set by cycle 0, cleared by cycle 5. FLAG (own, trailer
	 * base + 0x1f) is the latch 2 cycles late: 1 in cycles 2..6.
	 * EVENT counts FLAG over cycles 0..9 -> 5.
	 */
	wper(s, 0, 2, 100, 1, 0);
	wper(s, 0, 3, 100, 1, 95);
	WR(NVPC_NV40_CTRL(0), NV40_QUAD(0));
	WR(NVPC_NV40_PRE_SRC(0), SRC4(2, 0, 0, 0));
	WR(NVPC_NV40_START_SRC(0), SRC4(0, 3, 0, 0));
	WR(NVPC_NV40_SETFLAG_OP(0), 0xf0f0);
	WR(NVPC_NV40_CLRFLAG_OP(0), 0xff00);
	WR(NVPC_NV40_EVENT_SRC(0), SRC4(TR(0x1f), 0, 0, 0));
	WR(NVPC_NV40_EVENT_OP(0), NVPC_OP_ARG0);
	/* STATUS: FLAG bit 31 of STATUS[0][1] (signals 0x20..0x3f) */
	ADV(0, 1);	/* cycle 0 set the latch; next cycle 1: FLAG 0 */
	EXPECT_EQ(0, RD(NVPC_NV40_STATUS(0, 1)) >> 31);
	ADV(0, 1);	/* next cycle 2 = X + 2: FLAG 1 */
	EXPECT_EQ(1, RD(NVPC_NV40_STATUS(0, 1)) >> 31);
	ADV(0, 8);
	pm_swap(s, 0);
	EXPECT_EQ(5, RD(NVPC_NV40_CTR_EVENT(0)));
}

TEST_F(sim, clrflag_wins)
{
	struct nvpc_sim *s = NEW(&chip_nv40);

	/* "The flag": CLRFLAG 1 -> 0 even with SETFLAG 1 */
	WR(NVPC_NV40_CTRL(0), NV40_QUAD(0));
	WR(NVPC_NV40_SETFLAG_OP(0), 0xffff);
	WR(NVPC_NV40_CLRFLAG_OP(0), 0xffff);
	ADV(0, 5);
	EXPECT_EQ(0, RD(NVPC_NV40_STATUS(0, 1)) >> 31);
	WR(NVPC_NV40_CLRFLAG_OP(0), 0);
	ADV(0, 2);
	EXPECT_EQ(1, RD(NVPC_NV40_STATUS(0, 1)) >> 31);
}

/* ---- trailer signals ---- */

TEST_F(sim, trailer_nv10_flag_single)
{
	struct nvpc_sim *s = NEW(&chip_nv10);

	/* NV10: FLAG at base + 0x1f; SETFLAG has its own SETFLAG_SRC.
	 * Frozen in INACTIVE: 5 cycles with SETFLAG 1 leave it 0.
	 */
	WR(NVPC_NV10_SETFLAG_OP(0), 0xffff);
	ADV(0, 5);
	EXPECT_EQ(0, RD(NVPC_NV10_STATUS(0, 1)) >> 31);
	/* PRE_OP write: cycle k INACTIVE -> WAIT_PRE, latch 0; cycle k+1
	 * WAIT_PRE sets it; FLAG 1 from cycle k+3.
	 */
	WR(NVPC_NV10_PRE_OP(0), 0);
	ADV(0, 2);	/* next: k + 2 -> latch after k = 0 */
	EXPECT_EQ(0, RD(NVPC_NV10_STATUS(0, 1)) >> 31);
	ADV(0, 1);	/* next: k + 3 */
	EXPECT_EQ(1, RD(NVPC_NV10_STATUS(0, 1)) >> 31);
	EXPECT_EQ(NVPC_SINGLE_WAIT_PRE,
		  FIELD_GET(NVPC_NV10_CTRL_SINGLE_STATE(0), RD(NVPC_NV10_CTRL)));
}

TEST_F(sim, trailer_nv20_import)
{
	struct nvpc_sim *s = NEW(&chip_nv20);
	u32 st;

	/*
	 * Domain 1 single mode started at cycle 0, SETFLAG 1: latch set by
	 * cycle 1, its FLAG 1 from cycle 3. Domain 0 sees DOM[1].FLAG (base
	 * + 0x1e) as of 2 of its clocks ago: 1 from cycle 5. Own DOM[0].FLAG
	 * (base + 0x1f) is not synchronised. PM_TRIGGER at base + 0x1d.
	 */
	WR(NVPC_NV10_SETFLAG_OP(1), 0xffff);
	WR(NVPC_NV10_PRE_OP(1), 0);
	ADV(0, 4);
	EXPECT_EQ(0, (RD(NVPC_NV10_STATUS(0, 1)) >> 30) & 1);
	EXPECT_EQ(1, (RD(NVPC_NV10_STATUS(1, 1)) >> 30) & 1);	/* own */
	ADV(0, 1);
	st = RD(NVPC_NV10_STATUS(0, 1));
	EXPECT_EQ(1, (st >> 30) & 1);
	EXPECT_EQ(0, (st >> 29) & 1);
	nvpc_sim_pm_trigger(s);
	EXPECT_EQ(1, (RD(NVPC_NV10_STATUS(0, 1)) >> 29) & 1);
	ADV(0, 1);
	EXPECT_EQ(0, (RD(NVPC_NV10_STATUS(0, 1)) >> 29) & 1);
}

static void import_setup(struct nvpc_sim *s, u32 ctrl0)
{
	/* domain 1: EVENT = sig 2 of domain 1; domain 0 counts
	 * DOM[1].EVENT (base + 0x16) in EVENT and DOM[1].FLAG (base + 0x1e)
	 * in PRE; domain 1 SETFLAG constant 1
	 */
	nvpc_sim_wr32(s, NVPC_NV40_CTRL(1), NV40_QUAD(0));
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_SRC(1), SRC4(2, 0, 0, 0));
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_OP(1), NVPC_OP_ARG0);
	nvpc_sim_wr32(s, NVPC_NV40_SETFLAG_OP(1), 0xffff);
	nvpc_sim_wr32(s, NVPC_NV40_CTRL(0), NV40_QUAD(0) | ctrl0);
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_SRC(0), SRC4(TR(0x16), 0, 0, 0));
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_OP(0), NVPC_OP_ARG0);
	nvpc_sim_wr32(s, NVPC_NV40_PRE_SRC(0), SRC4(TR(0x1e), 0, 0, 0));
	nvpc_sim_wr32(s, NVPC_NV40_PRE_OP(0), NVPC_OP_ARG0);
}

TEST_F(sim, import_continuous_pulse_same_clock)
{
	struct nvpc_sim *s;
	int pulse;

	/*
	 * Same clocks. Domain 1 EVENT = sig2 = 1 when c % 5 in {0, 1}.
	 * Domain 0 cycle k sees EVENT1(k - 2). Cycles k = 0..11 see j =
	 * 0..9 (k >= 2): ones at j = 0, 1, 5, 6 -> CONTINUOUS 4; rising
	 * edges at j = 0, 5 -> PULSE 2.
	 * FLAG1: latch set by cycle 0, FLAG1 = 1 from cycle 2; seen from
	 * k = 4: k = 4..11 -> CONTINUOUS 8, PULSE 1.
	 */
	for (pulse = 0; pulse < 2; pulse++) {
		s = NEW(&chip_nv40);
		wper(s, 1, 2, 5, 2, 0);
		import_setup(s, pulse ? NVPC_NV40_CTRL_EVENT_IMPORT_PULSE |
				NVPC_NV40_CTRL_FLAG_IMPORT_PULSE : 0);
		ADV(0, 12);
		pm_swap(s, 0);
		EXPECT_EQ(pulse ? 2 : 4, RD(NVPC_NV40_CTR_EVENT(0)));
		EXPECT_EQ(pulse ? 1 : 8, RD(NVPC_NV40_CTR_PRE(0)));
	}
}

TEST_F(sim, import_continuous_pulse_fast_source)
{
	struct nvpc_sim *s;
	int pulse;

	/*
	 * Domain 1 runs at 200 MHz, domain 0 at 100 MHz: J(k) = 2 (k - 2).
	 * EVENT1 = 1 when j % 5 in {0, 1}. Domain 0 cycles k = 0..11.
	 * CONTINUOUS: j = 0, 2, ..., 18 -> ones at 0, 6, 10, 16 -> 4.
	 * PULSE: window (J(k-1), J(k)] holds the edges j = 0 (k = 2), 5
	 * (k = 5), 10 (k = 7), 15 (k = 10) -> 4. A pulse shorter than the
	 * sampling is lost in CONTINUOUS: j = 1, 5, 11, 15 are never seen.
	 * EVENT1 const 1 (sig 1): CONTINUOUS k = 2..11 -> 10, PULSE 1.
	 */
	for (pulse = 0; pulse < 2; pulse++) {
		s = NEW(&chip_nv40x);
		wper(s, 1, 2, 5, 2, 0);
		import_setup(s, pulse ? NVPC_NV40_CTRL_EVENT_IMPORT_PULSE : 0);
		ADV(0, 12);
		EXPECT_EQ(24, nvpc_sim_cycles(s, 1));
		pm_swap(s, 0);
		EXPECT_EQ(4, RD(NVPC_NV40_CTR_EVENT(0)));

		s = NEW(&chip_nv40x);
		wconst(s, 1, 2, 1);
		import_setup(s, pulse ? NVPC_NV40_CTRL_EVENT_IMPORT_PULSE : 0);
		ADV(0, 12);
		pm_swap(s, 0);
		EXPECT_EQ(pulse ? 1 : 10, RD(NVPC_NV40_CTR_EVENT(0)));
	}
}

TEST_F(sim, trailer_own_event)
{
	struct nvpc_sim *s = NEW(&chip_nv40);

	/* EVENT = sig2 (c % 4 == 0): cycles 0..8 -> 0, 4, 8 = 3. PRE counts
	 * own EVENT (base + 0x17), the previous cycle's EVENT (sim_model.h):
	 * c = 1, 5 -> 2.
	 */
	wper(s, 0, 2, 4, 1, 0);
	WR(NVPC_NV40_CTRL(0), NV40_QUAD(0));
	WR(NVPC_NV40_EVENT_SRC(0), SRC4(2, 0, 0, 0));
	WR(NVPC_NV40_EVENT_OP(0), NVPC_OP_ARG0);
	WR(NVPC_NV40_PRE_SRC(0), SRC4(TR(0x17), 0, 0, 0));
	WR(NVPC_NV40_PRE_OP(0), NVPC_OP_ARG0);
	ADV(0, 9);
	pm_swap(s, 0);
	EXPECT_EQ(3, RD(NVPC_NV40_CTR_EVENT(0)));
	EXPECT_EQ(2, RD(NVPC_NV40_CTR_PRE(0)));
}

TEST_F(sim, periodic_periods)
{
	struct nvpc_sim *s = NEW(&chip_g84);

	/* PERIODIC (base + 0x0d), period 1 = 0x400: pulses when g % 0x400
	 * == 0x3ff: in 0x1000 cycles 4. SPEC_SRC 0 = sig 0 (const 0).
	 */
	WR(NVPC_NV40_CTRL(0), NV40_QUAD(0) | 1 << 21);
	WR(NVPC_NV40_EVENT_SRC(0), SRC4(TR(0x0d), 0, 0, 0));
	WR(NVPC_NV40_EVENT_OP(0), NVPC_OP_ARG0);
	WR(NVPC_NV40_PRE_OP(0), 0);	/* swap at cycle 0 */
	ADV(0, 0x1000);
	WR(NVPC_NV40_PRE_OP(0), 0);	/* swap at 0x1000 */
	ADV(0, 1);
	EXPECT_EQ(4, RD(NVPC_NV40_CTR_EVENT(0)));
	EXPECT_EQ(0x1000, RD(NVPC_NV40_CTR_CYCLES(0)));
	/* period 7 = 0x10000: g counts from 0 (cycle 0); the first pulse
	 * is at g = 0xffff: cycles 0x1001..0xfffe see none, 0xffff one
	 */
	WR(NVPC_NV40_CTRL(0), NV40_QUAD(0) | 7 << 21);
	ADV(0, 0xfffe - 0x1001 + 1);
	WR(NVPC_NV40_PRE_OP(0), 0);
	ADV(0, 1);
	EXPECT_EQ(0, RD(NVPC_NV40_CTR_EVENT(0)));
	ADV(0, 1);	/* cycle 0x10000 */
	WR(NVPC_NV40_PRE_OP(0), 0);
	ADV(0, 1);
	/* cycles 0xffff and 0x10000 (g = 0xffff, 0x10000) -> 1 */
	EXPECT_EQ(1, RD(NVPC_NV40_CTR_EVENT(0)));
	/* 0 = disabled */
	WR(NVPC_NV40_CTRL(0), NV40_QUAD(0));
	EXPECT_EQ(0, (RD(NVPC_NV40_STATUS(0, 1)) >> 0x0d) & 1);
}

TEST_F(sim, periodic_reset)
{
	struct nvpc_sim *s = NEW(&chip_g84);

	/*
	 * Period 0x400. Run 0x300 cycles (no pulse: first at g = 0x3ff),
	 * hold GCTRL.PERIODIC_RESET for 0x500 cycles (forced 0, g = 0),
	 * release: pulses again 0x400 cycles after the release, at the
	 * 0x400th cycle. Count 0x3ff cycles -> 0, then 1 more -> 1.
	 */
	WR(NVPC_NV40_CTRL(0), NV40_QUAD(0) | 1 << 21);
	WR(NVPC_NV40_EVENT_SRC(0), SRC4(TR(0x0d), 0, 0, 0));
	WR(NVPC_NV40_EVENT_OP(0), NVPC_OP_ARG0);
	ADV(0, 0x300);
	WR(NVPC_G84_GCTRL, NVPC_GCTRL_PERIODIC_RESET);
	ADV(0, 0x500);
	WR(NVPC_G84_GCTRL, 0);
	WR(NVPC_NV40_PRE_OP(0), 0);	/* swap: period starts here */
	ADV(0, 0x3ff);
	WR(NVPC_NV40_PRE_OP(0), 0);
	ADV(0, 1);
	EXPECT_EQ(0, RD(NVPC_NV40_CTR_EVENT(0)));
	/* the swap cycle was the 0x400th after release: counted next */
	WR(NVPC_NV40_PRE_OP(0), 0);
	ADV(0, 1);
	EXPECT_EQ(1, RD(NVPC_NV40_CTR_EVENT(0)));
}

TEST_F(sim, user_signals_gf100)
{
	struct nvpc_sim *s = NEW(&chip_gf100);
	u32 b = NVPC_GF100_HUB_BASE(0);

	/* USER_0 at base + 0x27 (signal 0x47): value 1 + pulse (0x11) is 1
	 * for one cycle; the read value tracks the signal (0x11 -> 0x10)
	 */
	WR(b + NVPC_GF100_CTRL, NVPC_GF100_CTRL_MODE_QUAD);
	WR(b + NVPC_GF100_EVENT_SRC, SRC4(TR(0x27), 0, 0, 0));
	WR(b + NVPC_GF100_EVENT_OP, NVPC_OP_ARG0);
	WR(b + NVPC_GF100_SWAP_SRC, TR(0x28));	/* USER_1 */
	WR(b + NVPC_GF100_USER_TRIGGER, 0x11);
	EXPECT_EQ(0x11, RD(b + NVPC_GF100_USER_TRIGGER));
	EXPECT_EQ(1, (RD(b + NVPC_GF100_STATUS(2)) >> 7) & 1);
	ADV(0, 1);
	EXPECT_EQ(0x10, RD(b + NVPC_GF100_USER_TRIGGER));
	ADV(0, 9);
	/* value 1 without pulse stays: 10 more cycles; then swap through
	 * USER_1 (pulse, 0x22): counts 1 + 10 = 11 (the swap cycle itself
	 * counts into the next period)
	 */
	WR(b + NVPC_GF100_USER_TRIGGER, 0x1);
	ADV(0, 10);
	WR(b + NVPC_GF100_USER_TRIGGER, 0x22);
	ADV(0, 1);
	EXPECT_EQ(11, RD(b + NVPC_GF100_CTR_EVENT));
	EXPECT_EQ(20, RD(b + NVPC_GF100_CTR_CYCLES));
	EXPECT_EQ(NVPC_QUAD_VALID,
		  FIELD_GET(NVPC_GF100_CTRL_QUAD_STATE,
			    RD(b + NVPC_GF100_CTRL)));
}

TEST_F(sim, user_signals_gt215)
{
	struct nvpc_sim *s = NEW(&chip_gt215);

	/* bit 0 value USER_0, bit 2 its pulse mode: reset after 1 cycle */
	WR(NVPC_GT215_USER_TRIGGER(0), 0x7);	/* U0 pulse, U1 steady */
	EXPECT_EQ(3, nvpc_sim_user_signals(s, 0));
	ADV(0, 1);
	EXPECT_EQ(2, nvpc_sim_user_signals(s, 0));
	ADV(0, 5);
	EXPECT_EQ(2, nvpc_sim_user_signals(s, 0));
	EXPECT_EQ(0, RD(NVPC_GT215_USER_TRIGGER(0)));
}

TEST_F(sim, pm_trigger)
{
	struct nvpc_sim *s = NEW(&chip_nv40);

	/* PGRAPH 0x400084 bit 5: one-cycle PM_TRIGGER (base + 0x0f) */
	WR(NVPC_NV40_CTRL(1), NV40_QUAD(0));
	WR(NVPC_NV40_EVENT_SRC(1), SRC4(TR(0x0f), 0, 0, 0));
	WR(NVPC_NV40_EVENT_OP(1), NVPC_OP_ARG0);
	WR(NVPC_PGRAPH_PM_TRIGGER, 0x10);	/* bit 5 clear: nothing */
	EXPECT_EQ(0, (RD(NVPC_NV40_STATUS(1, 1)) >> 0x0f) & 1);
	WR(NVPC_PGRAPH_PM_TRIGGER, 0x20);
	EXPECT_EQ(1, (RD(NVPC_NV40_STATUS(1, 1)) >> 0x0f) & 1);
	ADV(1, 1);	/* NV40: it is also SWAP */
	EXPECT_EQ(0, (RD(NVPC_NV40_STATUS(1, 1)) >> 0x0f) & 1);
	EXPECT_EQ(NVPC_QUAD_VALID, FIELD_GET(NVPC_NV40_CTRL_QUAD_STATE,
					     RD(NVPC_NV40_CTRL(1))));
	ADV(1, 5);
	pm_swap(s, 1);
	/* the pulse cycle counted into the new period: 1 */
	EXPECT_EQ(1, RD(NVPC_NV40_CTR_EVENT(1)));
	EXPECT_EQ(6, RD(NVPC_NV40_CTR_CYCLES(1)));
	/* G84: PM_TRIGGER no longer swaps (SWAP is SPEC_SRC) */
	s = NEW(&chip_g84);
	WR(NVPC_NV40_CTRL(0), NV40_QUAD(0));
	pm_swap(s, 0);
	EXPECT_EQ(NVPC_QUAD_EMPTY, FIELD_GET(NVPC_NV40_CTRL_QUAD_STATE,
					     RD(NVPC_NV40_CTRL(0))));
}

TEST_F(sim, zero_trailers)
{
	struct nvpc_sim *s = NEW(&chip_g84);

	/* G84 ZERO at base + 0x0c; WRCACHE_FLUSH (0x0e) is held at 0 */
	WR(NVPC_NV40_CTRL(0), NV40_QUAD(0));
	WR(NVPC_NV40_EVENT_SRC(0), SRC4(TR(0x0c), 0, 0, 0));
	WR(NVPC_NV40_EVENT_OP(0), 0x5555);	/* !arg0 */
	ADV(0, 7);
	WR(NVPC_NV40_PRE_OP(0), 0);
	ADV(0, 1);
	EXPECT_EQ(7, RD(NVPC_NV40_CTR_EVENT(0)));
	EXPECT_EQ(0, RD(NVPC_NV40_STATUS(0, 1)) & (BIT(0x0c) | BIT(0x0e)));
	/* NV40: ZERO at base + 0x0e */
	s = NEW(&chip_nv40);
	EXPECT_EQ(0, RD(NVPC_NV40_STATUS(0, 1)) & BIT(0x0e));
}

/*
 * sim.rst "wave": a waveform on a trailer signal the model computes
 * (here ZERO, PERIODIC, USER, an import and GK104 gpc3.2's 0x21, a ZERO
 * at GF100+ base + 0x21) is refused, not stored without effect; the
 * domain's other signals take one.
 */
TEST_F(sim, wave_refused_on_trailer)
{
	static const unsigned int g84_tr[] = {
		NVPC_NV40_TRAILER_ZERO_C, NVPC_NV40_TRAILER_PERIODIC,
		NVPC_NV40_TRAILER_PM_TRIGGER, NVPC_NV40_TRAILER_FLAG(1),
		NVPC_NV40_TRAILER_EVENT(0),
	};
	struct nvpc_sim_wave w = { .kind = NVPC_SIM_WAVE_CONST, .value = 1 };
	struct nvpc_sim *s = NEW(&chip_g84);
	int d;

	EXPECT_EQ(0, nvpc_sim_set_wave(s, 0, S1, &w));
	EXPECT_TRUE(nvpc_sim_sig_has_wave(s, 0, S1));
	for (unsigned int i = 0; i < ARRAY_SIZE(g84_tr); i++) {
		EXPECT_FALSE(nvpc_sim_sig_has_wave(s, 0, TR(g84_tr[i])));
		EXPECT_EQ(-EINVAL, nvpc_sim_set_wave(s, 0, TR(g84_tr[i]), &w));
	}
	/* beyond the domain's 0x40 signals, and no such domain */
	EXPECT_EQ(-EINVAL, nvpc_sim_set_wave(s, 0, 0x40, &w));
	EXPECT_EQ(-EINVAL, nvpc_sim_set_wave(s, 2, S1, &w));
	ADV(0, 100);
	EXPECT_EQ(100, nvpc_sim_truth(s, 0, S1, 0, 100));
	EXPECT_EQ(0, nvpc_sim_truth(s, 0, TR(NVPC_NV40_TRAILER_ZERO_C), 0, 100));

	s = NEW(&chip_gf100);
	d = nvpc_sim_domain_find(s, NVPC_DSET_GPC, 1, 0);
	ASSERT_LE(0, d);
	EXPECT_EQ(-EINVAL, nvpc_sim_set_wave(s, d, TR(0x21), &w));
	EXPECT_EQ(-EINVAL, nvpc_sim_set_wave(s, d, TR(NVPC_GF100_TRAILER_USER(0)), &w));
	EXPECT_EQ(-EINVAL, nvpc_sim_set_wave(s, d, TR(NVPC_GF100_TRAILER_PERIODIC), &w));
	EXPECT_EQ(0, nvpc_sim_set_wave(s, d, S1, &w));
}

/* ---- single event mode ---- */

static void single_setup(struct nvpc_sim *s, u32 ctrl, u32 thr)
{
	/*
	 * PRE = sig 2 (even cycles), START = sig 3 (c = 10, 30: period 20
	 * phase 10), STOP = sig 4 (c = 15, 35: phase 5), EVENT = const 1.
	 * CTR_PRE init 1, CTR_STOP init 1.
	 */
	wconst(s, 0, S1, 1);
	wper(s, 0, 2, 2, 1, 0);
	wper(s, 0, 3, 20, 1, 10);
	wper(s, 0, 4, 20, 1, 5);
	nvpc_sim_wr32(s, NVPC_NV40_CTRL(0), ctrl);
	nvpc_sim_wr32(s, NVPC_NV40_PRE_SRC(0), 2);
	nvpc_sim_wr32(s, NVPC_NV40_START_SRC(0), 3);
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_SRC(0), S1);
	nvpc_sim_wr32(s, NVPC_NV40_STOP_SRC(0), 4);
	nvpc_sim_wr32(s, NVPC_NV40_START_OP(0), NVPC_OP_ARG0);
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_OP(0), NVPC_OP_ARG0);
	nvpc_sim_wr32(s, NVPC_NV40_STOP_OP(0), NVPC_OP_ARG0);
	nvpc_sim_wr32(s, NVPC_NV40_CTR_PRE(0), 1);
	nvpc_sim_wr32(s, NVPC_NV40_CTR_STOP(0), 1);
	nvpc_sim_wr32(s, NVPC_NV40_THRESHOLD(0), thr);
	nvpc_sim_wr32(s, NVPC_NV40_PRE_OP(0), NVPC_OP_ARG0);	/* start */
}

#define SSTATE() FIELD_GET(NVPC_NV40_CTRL_SINGLE_STATE, RD(NVPC_NV40_CTRL(0)))

TEST_F(sim, single_state_machine)
{
	struct nvpc_sim *s = NEW(&chip_nv40);

	/*
	 * c=0: INACTIVE -> WAIT_PRE (PRE 1, STOP 1). c=2: PRE, CTR_PRE 1->0.
	 * c=4: PRE with CTR_PRE 0 -> WAIT_START. c=10: START -> COUNTING.
	 * c=11..15 count 5 (EVENT 5, CYCLES 5); c=15 STOP: 5 >= 5 ->
	 * CTR_START 1, CTR_STOP 1 -> 0, WAIT_START. c=30 START: EVENT and
	 * CYCLES reset (ONE). c=31..35 -> 5; c=35 STOP: CTR_START 2,
	 * CTR_STOP 0 -> INACTIVE.
	 */
	single_setup(s, NVPC_NV40_CTRL_MODE_SINGLE, 5);
	ADV(0, 4);	/* c = 0..3 */
	EXPECT_EQ(0, RD(NVPC_NV40_CTR_PRE(0)));
	EXPECT_EQ(NVPC_SINGLE_WAIT_PRE, SSTATE());
	ADV(0, 1);	/* c = 4 */
	EXPECT_EQ(NVPC_SINGLE_WAIT_START, SSTATE());
	ADV(0, 7);	/* c = 5..11 */
	EXPECT_EQ(NVPC_SINGLE_COUNTING, SSTATE());
	EXPECT_EQ(1, RD(NVPC_NV40_CTR_CYCLES(0)));
	ADV(0, 4);	/* c = 12..15 */
	EXPECT_EQ(NVPC_SINGLE_WAIT_START, SSTATE());
	EXPECT_EQ(5, RD(NVPC_NV40_CTR_EVENT(0)));
	EXPECT_EQ(1, RD(NVPC_NV40_CTR_START(0)));
	EXPECT_EQ(0, RD(NVPC_NV40_CTR_STOP(0)));
	ADV(0, 24);	/* c = 16..39 */
	EXPECT_EQ(NVPC_SINGLE_INACTIVE, SSTATE());
	EXPECT_EQ(5, RD(NVPC_NV40_CTR_EVENT(0)));
	EXPECT_EQ(5, RD(NVPC_NV40_CTR_CYCLES(0)));
	EXPECT_EQ(5, RD(NVPC_NV40_CTR_CYCLES_ALT(0)));
	EXPECT_EQ(2, RD(NVPC_NV40_CTR_START(0)));
	/* reading CTR_PRE/STOP gives the current, not the initial value */
	EXPECT_EQ(0, RD(NVPC_NV40_CTR_PRE(0)));
}

TEST_F(sim, single_event_ctr_period_threshold)
{
	struct nvpc_sim *s = NEW(&chip_nv40);

	/* ALL: EVENT sums both periods: 10. THRESHOLD 6: first period ends
	 * at 5 < 6, second at 10 >= 6 -> CTR_START 1.
	 */
	single_setup(s, NVPC_NV40_CTRL_EVENT_CTR_PERIOD, 6);
	ADV(0, 40);
	EXPECT_EQ(10, RD(NVPC_NV40_CTR_EVENT(0)));
	EXPECT_EQ(1, RD(NVPC_NV40_CTR_START(0)));
	/* ONE with THRESHOLD 6: 5, 5 -> CTR_START 0 */
	s = NEW(&chip_nv40);
	single_setup(s, 0, 6);
	ADV(0, 40);
	EXPECT_EQ(5, RD(NVPC_NV40_CTR_EVENT(0)));
	EXPECT_EQ(0, RD(NVPC_NV40_CTR_START(0)));
}

/* every single event mode counter, SINGLE_STATE and the FLAG latch */
static bool single_same(struct nvpc_sim *a, struct nvpc_sim *b)
{
	return !memcmp(a->dom[0].hw.ctr, b->dom[0].hw.ctr,
		       sizeof(a->dom[0].hw.ctr)) &&
	       a->dom[0].hw.single_state == b->dom[0].hw.single_state &&
	       a->dom[0].hw.latch == b->dom[0].hw.latch &&
	       a->dom[0].hw.latch_d1 == b->dom[0].hw.latch_d1;
}

TEST_F(sim, single_settle_equals_advance)
{
	struct nvpc_sim *a = NEW(&chip_nv40), *b = NEW(&chip_nv40), *s;

	/*
	 * single_setup() ends with the PRE_OP write that starts the process
	 * at the next cycle (c = 0). A settle does that cycle's state change
	 * now: WAIT_PRE, CTR_PRE = 1 and CTR_STOP = 1 (the initial values),
	 * the other counters 0, readable before any cycle ran; b, not
	 * settled, still reads INACTIVE. The cycle then runs as the start's
	 * cycle in both, without a second start: after c = 0..39 both are
	 * where single_state_machine() found them (INACTIVE, CTR_START 2).
	 */
	single_setup(a, NVPC_NV40_CTRL_MODE_SINGLE, 5);
	single_setup(b, NVPC_NV40_CTRL_MODE_SINGLE, 5);
	nvpc_sim_settle(a);
	nvpc_sim_settle(a);	/* idempotent */
	s = a;
	EXPECT_EQ(NVPC_SINGLE_WAIT_PRE, SSTATE());
	EXPECT_EQ(1, RD(NVPC_NV40_CTR_PRE(0)));
	EXPECT_EQ(1, RD(NVPC_NV40_CTR_STOP(0)));
	s = b;
	EXPECT_EQ(NVPC_SINGLE_INACTIVE, SSTATE());
	ASSERT_EQ(0, nvpc_sim_advance(a, 0, 1));
	ASSERT_EQ(0, nvpc_sim_advance(b, 0, 1));
	EXPECT_TRUE(single_same(a, b));
	ASSERT_EQ(0, nvpc_sim_advance(a, 0, 12));	/* c = 1..12 */
	ASSERT_EQ(0, nvpc_sim_advance(b, 0, 12));
	EXPECT_TRUE(single_same(a, b));
	/*
	 * c = 13: an abort (THRESHOLD write) and a new start, settled in a:
	 * WAIT_PRE with the counters reset at once; b does both at c = 13.
	 * Then the same process in both: c = 14 PRE (CTR_PRE 1 -> 0), c =
	 * 16 PRE -> WAIT_START, c = 30 START, c = 35 STOP (EVENT 5 >= 5:
	 * CTR_START 1, CTR_STOP 1 -> 0), c = 50 START, c = 55 STOP ->
	 * INACTIVE with CTR_START 2.
	 */
	nvpc_sim_wr32(a, NVPC_NV40_THRESHOLD(0), 5);
	nvpc_sim_wr32(b, NVPC_NV40_THRESHOLD(0), 5);
	nvpc_sim_wr32(a, NVPC_NV40_PRE_OP(0), NVPC_OP_ARG0);
	nvpc_sim_wr32(b, NVPC_NV40_PRE_OP(0), NVPC_OP_ARG0);
	nvpc_sim_settle(a);
	s = a;
	EXPECT_EQ(NVPC_SINGLE_WAIT_PRE, SSTATE());
	EXPECT_EQ(0, RD(NVPC_NV40_CTR_EVENT(0)));
	ASSERT_EQ(0, nvpc_sim_advance(a, 0, 43));	/* c = 13..55 */
	ASSERT_EQ(0, nvpc_sim_advance(b, 0, 43));
	EXPECT_TRUE(single_same(a, b));
	EXPECT_EQ(NVPC_SINGLE_INACTIVE, SSTATE());
	EXPECT_EQ(2, RD(NVPC_NV40_CTR_START(0)));
	/* an abort alone, settled: INACTIVE now, the same after a cycle */
	nvpc_sim_wr32(a, NVPC_NV40_CTR_PRE(0), 1);
	nvpc_sim_wr32(b, NVPC_NV40_CTR_PRE(0), 1);
	nvpc_sim_settle(a);
	ASSERT_EQ(0, nvpc_sim_advance(a, 0, 1));
	ASSERT_EQ(0, nvpc_sim_advance(b, 0, 1));
	EXPECT_TRUE(single_same(a, b));
}

TEST_F(sim, single_nv10_no_event_ctr_period)
{
	struct nvpc_sim *s = NEW(&chip_nv10);

	/* NV10 always behaves as ONE; NV15 honours CTRL bit 8 (ALL).
	 * Same schedule as single_state_machine on the NV10 layout.
	 */
	const struct nvpc_chip_desc *chips[2] = { &chip_nv10, &chip_nv15 };
	int i;

	for (i = 0; i < 2; i++) {
		if (i)
			s = NEW(chips[i]);
		wconst(s, 0, S1, 1);
		wper(s, 0, 2, 2, 1, 0);
		wper(s, 0, 3, 20, 1, 10);
		wper(s, 0, 4, 20, 1, 5);
		WR(NVPC_NV10_CTRL, NVPC_NV10_CTRL_EVENT_CTR_PERIOD(0));
		WR(NVPC_NV10_PRE_SRC(0), 2);
		WR(NVPC_NV10_START_SRC(0), 3);
		WR(NVPC_NV10_EVENT_SRC(0), S1);
		WR(NVPC_NV10_STOP_SRC(0), 4);
		WR(NVPC_NV10_START_OP(0), NVPC_OP_ARG0);
		WR(NVPC_NV10_EVENT_OP(0), NVPC_OP_ARG0);
		WR(NVPC_NV10_STOP_OP(0), NVPC_OP_ARG0);
		WR(NVPC_NV10_CTR_PRE(0), 1);
		WR(NVPC_NV10_CTR_STOP(0), 1);
		WR(NVPC_NV10_PRE_OP(0), NVPC_OP_ARG0);
		ADV(0, 40);
		EXPECT_EQ(i ? 10 : 5, RD(NVPC_NV10_CTR_EVENT(0)));
		EXPECT_EQ(0, RD(NVPC_NV10_CTR_EVENT_HI(0)));
		EXPECT_EQ(2, RD(NVPC_NV10_CTR_START(0)));	/* thr 0 */
	}
}

TEST_F(sim, single_threshold_40bit)
{
	struct nvpc_sim *s;
	int i;

	/* NV20: THRESHOLD_HI = 1 -> threshold 2^32: periods of 5 events
	 * never reach it -> CTR_START 0. NV30 has no THRESHOLD_HI (32-bit
	 * threshold 0) -> both periods count -> 2.
	 */
	for (i = 0; i < 2; i++) {
		s = NEW(i ? &chip_nv30 : &chip_nv20);
		wconst(s, 0, S1, 1);
		wper(s, 0, 2, 2, 1, 0);
		wper(s, 0, 3, 20, 1, 10);
		wper(s, 0, 4, 20, 1, 5);
		WR(NVPC_NV10_PRE_SRC(0), 2);
		WR(NVPC_NV10_START_SRC(0), 3);
		WR(NVPC_NV10_EVENT_SRC(0), S1);
		WR(NVPC_NV10_STOP_SRC(0), 4);
		WR(NVPC_NV10_START_OP(0), NVPC_OP_ARG0);
		WR(NVPC_NV10_EVENT_OP(0), NVPC_OP_ARG0);
		WR(NVPC_NV10_STOP_OP(0), NVPC_OP_ARG0);
		WR(NVPC_NV10_CTR_PRE(0), 1);
		WR(NVPC_NV10_CTR_STOP(0), 1);
		WR(NVPC_NV10_THRESHOLD_HI(0), 1);
		WR(NVPC_NV10_PRE_OP(0), NVPC_OP_ARG0);
		ADV(0, 40);
		EXPECT_EQ(i ? 2 : 0, RD(NVPC_NV10_CTR_START(0)));
	}
}

TEST_F(sim, single_gf100_begin_abort)
{
	struct nvpc_sim *s = NEW(&chip_gf100);
	u32 b = NVPC_GF100_HUB_BASE(0);

#define GF_SSTATE() FIELD_GET(NVPC_GF100_CTRL_SINGLE_STATE, \
			      RD(b + NVPC_GF100_CTRL))
	/* GF100+: a PRE_OP write no longer starts single event mode
	 * (pcounter.rst: "on NV10:GF100"); SINGLE_BEGIN (envytools rnndb
	 * gf100_pcounter.xml) does,
	 * SINGLE_ABORT aborts. PRE, START, EVENT = constant 1, STOP never,
	 * CTR_PRE initial value 2.
	 */
	wconst(s, 0, S1, 1);
	WR(b + NVPC_GF100_CTRL, NVPC_GF100_CTRL_MODE_SINGLE);
	WR(b + NVPC_GF100_PRE_SRC, S1);
	WR(b + NVPC_GF100_START_SRC, S1);
	WR(b + NVPC_GF100_EVENT_SRC, S1);
	WR(b + NVPC_GF100_START_OP, NVPC_OP_ARG0);
	WR(b + NVPC_GF100_EVENT_OP, NVPC_OP_ARG0);
	WR(b + NVPC_GF100_CTR_PRE, 2);
	WR(b + NVPC_GF100_PRE_OP, NVPC_OP_ARG0);
	ADV(0, 3);
	EXPECT_EQ(NVPC_SINGLE_INACTIVE, GF_SSTATE());
	EXPECT_EQ(0, RD(b + NVPC_GF100_CTR_CYCLES));
	/* begin, then 10 cycles c0..c9 (the pseudo-code):
	 * c0 INACTIVE, start: CTR_PRE = 2, WAIT_FOR_PRE
	 * c1, c2 PRE: CTR_PRE 2 -> 1 -> 0; c3 PRE with 0: WAIT_FOR_START
	 * c4 START: CTR_CYCLES = CTR_EVENT = 0, COUNTING
	 * c5..c9 counting: CYCLES 5, EVENT 5
	 */
	WR(b + NVPC_GF100_SINGLE_BEGIN, 1);
	EXPECT_EQ(0, RD(b + NVPC_GF100_SINGLE_BEGIN));	/* a trigger */
	ADV(0, 1);
	EXPECT_EQ(NVPC_SINGLE_WAIT_PRE, GF_SSTATE());
	EXPECT_EQ(2, RD(b + NVPC_GF100_CTR_PRE));
	ADV(0, 3);
	EXPECT_EQ(NVPC_SINGLE_WAIT_START, GF_SSTATE());
	EXPECT_EQ(0, RD(b + NVPC_GF100_CTR_PRE));
	ADV(0, 6);
	EXPECT_EQ(NVPC_SINGLE_COUNTING, GF_SSTATE());
	EXPECT_EQ(5, RD(b + NVPC_GF100_CTR_CYCLES));
	EXPECT_EQ(5, RD(b + NVPC_GF100_CTR_EVENT));
	/* abort: INACTIVE from the next cycle on, counters kept */
	WR(b + NVPC_GF100_SINGLE_ABORT, 1);
	ADV(0, 4);
	EXPECT_EQ(NVPC_SINGLE_INACTIVE, GF_SSTATE());
	EXPECT_EQ(5, RD(b + NVPC_GF100_CTR_CYCLES));
	EXPECT_EQ(5, RD(b + NVPC_GF100_CTR_EVENT));
#undef GF_SSTATE
}

TEST_F(sim, single_aborts)
{
	struct nvpc_sim *s;
	static const u32 aborting[] = {
		NVPC_NV40_START_SRC(0), NVPC_NV40_START_OP(0),
		NVPC_NV40_SETFLAG_OP(0), NVPC_NV40_CTR_PRE(0),
		NVPC_NV40_CTR_STOP(0), NVPC_NV40_CTR_EVENT(0),
		NVPC_NV40_THRESHOLD(0), NVPC_NV40_CTRL(0),
	};
	unsigned int i;

	/* "writing any *_OP register except PRE_OP, any *_SRC, any CTR,
	 * THRESHOLD and CTRL aborts"; the abort is seen by the next cycle.
	 * At c = 12 the domain is COUNTING (single_state_machine).
	 */
	for (i = 0; i < ARRAY_SIZE(aborting); i++) {
		s = NEW(&chip_nv40);
		single_setup(s, 0, 5);
		ADV(0, 12);
		EXPECT_EQ(NVPC_SINGLE_COUNTING, SSTATE());
		WR(aborting[i], aborting[i] == NVPC_NV40_CTRL(0) ? 0 :
			       RD(aborting[i]));
		ADV(0, 1);
		EXPECT_EQ(NVPC_SINGLE_INACTIVE, SSTATE()) {
			TH_LOG("register 0x%x", aborting[i]);
		}
		free(self->s[--self->n]);
	}
	/* PRE_OP does not abort; while COUNTING it does nothing */
	s = NEW(&chip_nv40);
	single_setup(s, 0, 5);
	ADV(0, 12);
	WR(NVPC_NV40_PRE_OP(0), NVPC_OP_ARG0);
	ADV(0, 1);
	EXPECT_EQ(NVPC_SINGLE_COUNTING, SSTATE());
	EXPECT_EQ(2, RD(NVPC_NV40_CTR_CYCLES(0)));
	/* a write to another domain's register does not abort this one */
	WR(NVPC_NV40_START_SRC(1), 0);
	ADV(0, 1);
	EXPECT_EQ(NVPC_SINGLE_COUNTING, SSTATE());
}

static void modes_setup(struct nvpc_sim *s, int dom, bool single)
{
	/*
	 * START_SRC = (1, 0, 1, 0) -> B4 = 5. EVENT_SRC = (sig 2 = even
	 * cycles, 1, 0, 1) -> B2 = e0 + 2 = 3 on even, 2 on odd cycles;
	 * B6 = 5 + 32 = 37. EVENT op = arg0 (even cycles).
	 */
	wconst(s, dom, S1, 1);
	wper(s, dom, 2, 2, 1, 0);
	nvpc_sim_wr32(s, NVPC_NV40_START_SRC(dom), SRC4(S1, S0, S1, S0));
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_SRC(dom), SRC4(2, S1, S0, S1));
	nvpc_sim_wr32(s, NVPC_NV40_EVENT_OP(dom), NVPC_OP_ARG0);
	nvpc_sim_wr32(s, NVPC_NV40_START_OP(dom), 0xffff);
	if (!single)
		return;
	/* single: c=0 start, c=1 PRE (init 0) -> WAIT_START, c=2 START ->
	 * COUNTING, c=3..7 counted, STOP (sig 3) at c=7 -> INACTIVE
	 */
	wper(s, dom, 3, 100, 1, 93);
	nvpc_sim_wr32(s, NVPC_NV40_STOP_SRC(dom), 3);
	nvpc_sim_wr32(s, NVPC_NV40_STOP_OP(dom), NVPC_OP_ARG0);
	nvpc_sim_wr32(s, NVPC_NV40_PRE_OP(dom), 0xffff);
}

TEST_F(sim, counter_modes_single)
{
	/*
	 * Counting cycles c = 3..7: even ones 4, 6 (2 cycles), odd 3 (3).
	 * SIMPLE: EVENT 2, PRE stays 0.
	 * EVENT_B4: 2 * 5 = 10. EVENT_B6: 2 * 37 = 74.
	 * EXTRA_B4: EVENT 2, PRE += B4 every cycle: 5 * 5 = 25.
	 * EXTRA_B6_EVENT_B2: EVENT = 2*3 + 3*2 = 12, PRE = 5 * 37 = 185.
	 */
	static const u32 ev[5] = { 2, 10, 74, 2, 12 };
	static const u32 pre[5] = { 0, 0, 0, 25, 185 };
	struct nvpc_sim *s;
	int m;

	for (m = 0; m < 5; m++) {
		s = NEW(&chip_nv40);
		WR(NVPC_NV40_CTRL(0), m << 4);
		modes_setup(s, 0, true);
		ADV(0, 10);
		EXPECT_EQ(NVPC_SINGLE_INACTIVE, SSTATE());
		EXPECT_EQ(5, RD(NVPC_NV40_CTR_CYCLES(0)));
		EXPECT_EQ(ev[m], RD(NVPC_NV40_CTR_EVENT(0)));
		EXPECT_EQ(pre[m], RD(NVPC_NV40_CTR_PRE(0)));
	}
}

TEST_F(sim, counter_modes_quad)
{
	/*
	 * 10 cycles c = 0..9: 5 even (EVENT 1, B2 3), 5 odd (B2 2).
	 * SIMPLE: EVENT 5, START (op 0xffff) 10.
	 * EVENT_B4: 5 * 5 = 25. EVENT_B6: 5 * 37 = 185.
	 * EXTRA_B4: EVENT 5, START = B4 * 10 = 50.
	 * EXTRA_B6_EVENT_B2: EVENT = 5*3 + 5*2 = 25, START = 370.
	 */
	static const u32 ev[5] = { 5, 25, 185, 5, 25 };
	static const u32 st[5] = { 10, 10, 10, 50, 370 };
	struct nvpc_sim *s;
	int m;

	for (m = 0; m < 5; m++) {
		s = NEW(&chip_nv40);
		WR(NVPC_NV40_CTRL(0), NV40_QUAD(m));
		modes_setup(s, 0, false);
		ADV(0, 10);
		pm_swap(s, 0);
		EXPECT_EQ(ev[m], RD(NVPC_NV40_CTR_EVENT(0)));
		EXPECT_EQ(st[m], RD(NVPC_NV40_CTR_START(0)));
	}
	/* NV30: CTRL bit 2 = EVENT_B4 (shared by both domains) */
	s = NEW(&chip_nv30);
	wconst(s, 1, S1, 1);
	wper(s, 1, 2, 2, 1, 0);
	WR(NVPC_NV10_CTRL, NVPC_NV10_CTRL_MODE_QUAD(1) | NVPC_NV10_CTRL_CTR_MODE);
	WR(NVPC_NV10_START_SRC(1), SRC4(S1, S0, S1, S0));
	WR(NVPC_NV10_EVENT_SRC(1), SRC4(2, S1, S0, S1));
	WR(NVPC_NV10_EVENT_OP(1), NVPC_OP_ARG0);
	ADV(1, 10);
	pm_swap(s, 1);
	EXPECT_EQ(25, RD(NVPC_NV10_CTR_EVENT(1)));
}

/* ---- quad event mode ---- */

#define QSTATE(d) FIELD_GET(NVPC_NV40_CTRL_QUAD_STATE, RD(NVPC_NV40_CTRL(d)))

TEST_F(sim, quad_states_and_ack)
{
	struct nvpc_sim *s = NEW(&chip_nv40);

	/* "Quad event mode": swap bumps EMPTY->VALID->OVERFLOW, ack down */
	WR(NVPC_NV40_CTRL(0), NV40_QUAD(0));
	EXPECT_EQ(NVPC_QUAD_EMPTY, QSTATE(0));
	pm_swap(s, 0);
	EXPECT_EQ(NVPC_QUAD_VALID, QSTATE(0));
	pm_swap(s, 0);
	EXPECT_EQ(NVPC_QUAD_OVERFLOW, QSTATE(0));
	pm_swap(s, 0);
	EXPECT_EQ(NVPC_QUAD_OVERFLOW, QSTATE(0));
	WR(NVPC_NV40_QUAD_ACK_TRIGGER(0), 0);	/* bit 0 clear: nothing */
	EXPECT_EQ(NVPC_QUAD_OVERFLOW, QSTATE(0));
	WR(NVPC_NV40_QUAD_ACK_TRIGGER(0), 1);
	EXPECT_EQ(NVPC_QUAD_VALID, QSTATE(0));
	WR(NVPC_NV40_QUAD_ACK_TRIGGER(0), 1);
	EXPECT_EQ(NVPC_QUAD_EMPTY, QSTATE(0));
	WR(NVPC_NV40_QUAD_ACK_TRIGGER(0), 1);
	EXPECT_EQ(NVPC_QUAD_EMPTY, QSTATE(0));
	EXPECT_EQ(0, RD(NVPC_NV40_QUAD_ACK_TRIGGER(0)));	/* write-only */
	/* NV30: shared ack, bit 0 domain 0, bit 8 domain 1 */
	s = NEW(&chip_nv30);
	WR(NVPC_NV10_CTRL, NVPC_NV10_CTRL_MODE_QUAD(0) |
	   NVPC_NV10_CTRL_MODE_QUAD(1));
	pm_swap(s, 0);
	EXPECT_EQ(0x5, RD(NVPC_NV10_CTRL) >> 24);	/* VALID, VALID */
	WR(NVPC_NV30_QUAD_ACK_TRIGGER, BIT(8));
	EXPECT_EQ(0x1, RD(NVPC_NV10_CTRL) >> 24);
}

TEST_F(sim, quad_swap_before_count)
{
	struct nvpc_sim *s = NEW(&chip_g84);

	/* SPEC_SRC SWAP = sig 2, 1 at c = 0, 10, 20. EVENT const 1.
	 * Swap at 10 happens before counting cycle 10: the visible period
	 * is c = 0..9 -> EVENT 10, CYCLES 10. Two swaps -> OVERFLOW.
	 */
	wconst(s, 0, S1, 1);
	wper(s, 0, 2, 10, 1, 0);
	WR(NVPC_NV40_CTRL(0), NV40_QUAD(0));
	WR(NVPC_G84_SPEC_SRC(0), 2);
	WR(NVPC_NV40_EVENT_SRC(0), S1);
	WR(NVPC_NV40_EVENT_OP(0), NVPC_OP_ARG0);
	ADV(0, 11);
	EXPECT_EQ(10, RD(NVPC_NV40_CTR_EVENT(0)));
	EXPECT_EQ(10, RD(NVPC_NV40_CTR_CYCLES(0)));
	EXPECT_EQ(NVPC_QUAD_OVERFLOW, QSTATE(0));
	/* a PRE_OP write swaps too (G84:GF100): after c = 10..14 */
	ADV(0, 4);
	WR(NVPC_NV40_PRE_OP(0), 0);
	ADV(0, 1);
	EXPECT_EQ(5, RD(NVPC_NV40_CTR_EVENT(0)));
}

/* ---- nvpc_sim_settle(): the next cycle's swap, done at the boundary ---- */

enum { K_NV30_PM, K_NV40_PM, K_G84_SPEC, K_G84_PRE_OP, K_GF100_USER, K_NR };

static const struct nvpc_chip_desc *const settle_chip[K_NR] = {
	&chip_nv30, &chip_nv40, &chip_g84, &chip_g84, &chip_gf100,
};

/*
 * Domain 0 in quad mode, START = constant 1 (counts cycles), EVENT = the
 * trigger's own signal where it has one, so that the pulse cycle is seen
 * counted: NV20:NV40 PM_TRIGGER at trailer 0x1d, NV40:GF100 at 0x0f,
 * GF100 USER_0 at 0x27; the G84 SPEC_SRC kind swaps on sig 2, periodic
 * 1 iff (c + 5) % 12 < 1, i.e. c = 7, 19, 31 ...; PRE_OP kind: EVENT = 1.
 */
static void settle_setup(struct nvpc_sim *s, int k)
{
	u32 b = NVPC_GF100_HUB_BASE(0);

	wconst(s, 0, S1, 1);
	switch (k) {
	case K_NV30_PM:
		WR(NVPC_NV10_CTRL, NVPC_NV10_CTRL_MODE_QUAD(0) |
		   NVPC_NV10_CTRL_MODE_QUAD(1));
		WR(NVPC_NV10_START_SRC(0), S1);
		WR(NVPC_NV10_START_OP(0), NVPC_OP_ARG0);
		WR(NVPC_NV10_EVENT_SRC(0), TR(NVPC_NV20_TRAILER_PM_TRIGGER));
		WR(NVPC_NV10_EVENT_OP(0), NVPC_OP_ARG0);
		break;
	case K_GF100_USER:
		WR(b + NVPC_GF100_CTRL, NVPC_GF100_CTRL_MODE_QUAD);
		WR(b + NVPC_GF100_SWAP_SRC, TR(NVPC_GF100_TRAILER_USER(0)));
		WR(b + NVPC_GF100_START_SRC, S1);
		WR(b + NVPC_GF100_START_OP, NVPC_OP_ARG0);
		WR(b + NVPC_GF100_EVENT_SRC, TR(NVPC_GF100_TRAILER_USER(0)));
		WR(b + NVPC_GF100_EVENT_OP, NVPC_OP_ARG0);
		break;
	default:
		WR(NVPC_NV40_CTRL(0), NV40_QUAD(0));
		WR(NVPC_NV40_CTRL(1), NV40_QUAD(0));
		WR(NVPC_NV40_START_SRC(0), S1);
		WR(NVPC_NV40_START_OP(0), NVPC_OP_ARG0);
		WR(NVPC_NV40_EVENT_SRC(0), k == K_G84_PRE_OP ? S1 :
		   k == K_G84_SPEC ? 2 : TR(NVPC_NV40_TRAILER_PM_TRIGGER));
		WR(NVPC_NV40_EVENT_OP(0), NVPC_OP_ARG0);
		if (k == K_G84_SPEC) {
			wper(s, 0, 2, 12, 1, 5);
			WR(NVPC_G84_SPEC_SRC(0), 2);
		} else if (k == K_G84_PRE_OP) {
			/* SPEC_SRC -> the ZERO trailer: only writes swap */
			WR(NVPC_G84_SPEC_SRC(0), TR(NVPC_NV40_TRAILER_ZERO_C));
		}
	}
}

static void settle_trigger(struct nvpc_sim *s, int k)
{
	switch (k) {
	case K_NV30_PM:
	case K_NV40_PM:
		WR(NVPC_PGRAPH_PM_TRIGGER, NVPC_PGRAPH_PM_TRIGGER_PULSE);
		break;
	case K_G84_PRE_OP:
		WR(NVPC_NV40_PRE_OP(0), 0);
		break;
	case K_GF100_USER:
		/* USER_0 value 1, pulse mode: 1 for one cycle */
		WR(NVPC_GF100_HUB_BASE(0) + NVPC_GF100_USER_TRIGGER, 0x11);
		break;
	default:
		break;	/* the SPEC_SRC waveform triggers by itself */
	}
}

static void settle_ack(struct nvpc_sim *s, int k)
{
	if (k == K_NV30_PM)
		WR(NVPC_NV30_QUAD_ACK_TRIGGER, BIT(0));
	else if (k == K_GF100_USER)
		WR(NVPC_GF100_HUB_BASE(0) + NVPC_GF100_QUAD_ACK_TRIGGER, 1);
	else
		WR(NVPC_NV40_QUAD_ACK_TRIGGER(0), 1);
}

enum { SC_CYCLES, SC_EVENT, SC_START, SC_QSTATE };

/* visible counters and QUAD_STATE of domain 0, through the registers */
static u32 settle_rd(struct nvpc_sim *s, int k, int what)
{
	u32 b = NVPC_GF100_HUB_BASE(0);

	if (k == K_NV30_PM) {
		if (what == SC_QSTATE)
			return (RD(NVPC_NV10_CTRL) >> 24) & 3;
		return RD(what == SC_CYCLES ? NVPC_NV10_CTR_CYCLES(0) :
			  what == SC_EVENT ? NVPC_NV10_CTR_EVENT(0) :
			  NVPC_NV10_CTR_START(0));
	}
	if (k == K_GF100_USER) {
		if (what == SC_QSTATE)
			return FIELD_GET(NVPC_GF100_CTRL_QUAD_STATE,
					 RD(b + NVPC_GF100_CTRL));
		return RD(b + (what == SC_CYCLES ? NVPC_GF100_CTR_CYCLES :
			       what == SC_EVENT ? NVPC_GF100_CTR_EVENT :
			       NVPC_GF100_CTR_START));
	}
	if (what == SC_QSTATE)
		return QSTATE(0);
	return RD(what == SC_CYCLES ? NVPC_NV40_CTR_CYCLES(0) :
		  what == SC_EVENT ? NVPC_NV40_CTR_EVENT(0) :
		  NVPC_NV40_CTR_START(0));
}

/* the whole counting state of every domain is the same in a and b */
static bool settle_same(struct nvpc_sim *a, struct nvpc_sim *b)
{
	unsigned int i;

	nvpc_sim_catch_up(a);
	nvpc_sim_catch_up(b);
	for (i = 0; i < a->nr_dom; i++)
		if (a->dom[i].cycle != b->dom[i].cycle ||
		    memcmp(&a->dom[i].hw, &b->dom[i].hw, sizeof(a->dom[i].hw)))
			return false;
	return true;
}

TEST_F(sim, settle_equals_advance)
{
	struct nvpc_sim *a, *b;
	int k;

	for (k = 0; k < K_NR; k++) {
		TH_LOG("trigger kind %d", k);
		a = NEW(settle_chip[k]);
		b = NEW(settle_chip[k]);
		settle_setup(a, k);
		settle_setup(b, k);
		/* cycles 0..6, then the trigger: the next cycle, 7, swaps
		 * (SPEC kind: sig 2 is 1 at c = 7)
		 */
		ASSERT_EQ(0, nvpc_sim_advance(a, 0, 7));
		ASSERT_EQ(0, nvpc_sim_advance(b, 0, 7));
		settle_trigger(a, k);
		settle_trigger(b, k);
		/* a settles: period c = 0..6 visible now. CYCLES = START =
		 * 7; EVENT: the trigger signal was 0 in 0..6 -> 0 (PRE_OP
		 * kind: constant 1 -> 7). b has not swapped yet.
		 */
		nvpc_sim_settle(a);
		nvpc_sim_settle(a);	/* idempotent */
		EXPECT_EQ(NVPC_QUAD_VALID, settle_rd(a, k, SC_QSTATE));
		EXPECT_EQ(7, settle_rd(a, k, SC_CYCLES));
		EXPECT_EQ(7, settle_rd(a, k, SC_START));
		EXPECT_EQ(k == K_G84_PRE_OP ? 7 : 0,
			  settle_rd(a, k, SC_EVENT));
		EXPECT_EQ(NVPC_QUAD_EMPTY, settle_rd(b, k, SC_QSTATE));
		EXPECT_EQ(0, settle_rd(b, k, SC_CYCLES));
		/* cycles 7..11: b swaps at 7, a does not swap again; both
		 * see the trigger signal at 7 and count it in the new period
		 */
		ASSERT_EQ(0, nvpc_sim_advance(a, 0, 5));
		ASSERT_EQ(0, nvpc_sim_advance(b, 0, 5));
		EXPECT_TRUE(settle_same(a, b));
		EXPECT_EQ(NVPC_QUAD_VALID, settle_rd(b, k, SC_QSTATE));
		EXPECT_EQ(7, settle_rd(b, k, SC_CYCLES));
		/* cycles 12..18, trigger again (SPEC: c = 19 is 1), settle
		 * a without an ack: OVERFLOW, period c = 7..18: CYCLES =
		 * START = 12, EVENT 1 (the pulse at 7; PRE_OP kind 12)
		 */
		ASSERT_EQ(0, nvpc_sim_advance(a, 0, 7));
		ASSERT_EQ(0, nvpc_sim_advance(b, 0, 7));
		settle_trigger(a, k);
		settle_trigger(b, k);
		nvpc_sim_settle(a);
		EXPECT_EQ(NVPC_QUAD_OVERFLOW, settle_rd(a, k, SC_QSTATE));
		EXPECT_EQ(12, settle_rd(a, k, SC_CYCLES));
		EXPECT_EQ(12, settle_rd(a, k, SC_START));
		EXPECT_EQ(k == K_G84_PRE_OP ? 12 : 1,
			  settle_rd(a, k, SC_EVENT));
		ASSERT_EQ(0, nvpc_sim_advance(a, 0, 1));
		ASSERT_EQ(0, nvpc_sim_advance(b, 0, 1));
		EXPECT_TRUE(settle_same(a, b));
		/* an ack between settle and the cycle: the same too */
		settle_ack(a, k);
		settle_ack(b, k);
		ASSERT_EQ(0, nvpc_sim_advance(a, 0, 3));
		ASSERT_EQ(0, nvpc_sim_advance(b, 0, 3));
		EXPECT_TRUE(settle_same(a, b));
	}
}

TEST_F(sim, settle_second_trigger)
{
	struct nvpc_sim *s;
	int k;

	for (k = 0; k < K_NR; k++) {
		if (k == K_G84_SPEC)
			continue;	/* no trigger write */
		TH_LOG("trigger kind %d", k);
		s = NEW(settle_chip[k]);
		settle_setup(s, k);
		ADV(0, 7);
		/* first trigger: period c = 0..6 -> CYCLES 7, VALID */
		settle_trigger(s, k);
		nvpc_sim_settle(s);
		EXPECT_EQ(NVPC_QUAD_VALID, settle_rd(s, k, SC_QSTATE));
		EXPECT_EQ(7, settle_rd(s, k, SC_CYCLES));
		/* a second trigger with no cycle in between swaps again:
		 * the shadow is empty, so the visible counters become 0,
		 * and VALID -> OVERFLOW
		 */
		settle_trigger(s, k);
		nvpc_sim_settle(s);
		EXPECT_EQ(NVPC_QUAD_OVERFLOW, settle_rd(s, k, SC_QSTATE));
		EXPECT_EQ(0, settle_rd(s, k, SC_CYCLES));
		EXPECT_EQ(0, settle_rd(s, k, SC_START));
		EXPECT_EQ(0, settle_rd(s, k, SC_EVENT));
		/* one cycle: no further swap; the shadow counts it, with
		 * the trigger signal (EVENT 1, PRE_OP kind: constant 1)
		 */
		ADV(0, 1);
		EXPECT_EQ(NVPC_QUAD_OVERFLOW, settle_rd(s, k, SC_QSTATE));
		EXPECT_EQ(1, s->dom[0].hw.shadow[NVPC_SIM_CTR_CYCLES]);
		EXPECT_EQ(1, s->dom[0].hw.shadow[NVPC_SIM_CTR_EVENT]);

		/* without the second settle the next cycle does the second
		 * swap: ack twice (OVERFLOW -> VALID -> EMPTY), 4 cycles,
		 * trigger, settle (visible 1 + 4 = 5, VALID), ack (EMPTY),
		 * trigger, one cycle: it swaps the empty shadow -> VALID,
		 * visible 0, shadow holds that one cycle
		 */
		settle_ack(s, k);
		settle_ack(s, k);
		ADV(0, 4);
		settle_trigger(s, k);
		nvpc_sim_settle(s);
		EXPECT_EQ(NVPC_QUAD_VALID, settle_rd(s, k, SC_QSTATE));
		EXPECT_EQ(5, settle_rd(s, k, SC_CYCLES));
		settle_ack(s, k);
		settle_trigger(s, k);
		ADV(0, 1);
		EXPECT_EQ(NVPC_QUAD_VALID, settle_rd(s, k, SC_QSTATE));
		EXPECT_EQ(0, settle_rd(s, k, SC_CYCLES));
		EXPECT_EQ(1, s->dom[0].hw.shadow[NVPC_SIM_CTR_CYCLES]);
	}
}

/* long on the oracle: past the default 30 s on a loaded machine */
TEST_F_TIMEOUT(sim, quad_saturation, 120)
{
	struct nvpc_sim *s;

	if (variant->oracle && getenv("SIM_QUICK"))
		SKIP(return, "slow under sanitizers");
	s = NEW(&chip_nv40_1);

	/* EXTRA_B6_EVENT_B2 with all B6 bits 1: START += 63 per cycle.
	 * 0xffffffff / 63 = 68174084.8 -> saturates after 68174085
	 * cycles; run 70,000,000. EVENT += B2 = e0 + 2 e1 = 3 per cycle
	 * -> 210,000,000 (no saturation). CYCLES 70,000,000.
	 */
	wconst(s, 0, S1, 1);
	WR(NVPC_NV40_CTRL(0), NV40_QUAD(NVPC_CTR_MODE_EXTRA_B6_EVENT_B2));
	WR(NVPC_NV40_START_SRC(0), SRC4(S1, S1, S1, S1));
	WR(NVPC_NV40_EVENT_SRC(0), SRC4(S1, S1, S1, S1));
	ADV(0, 70000000);
	pm_swap(s, 0);
	EXPECT_EQ(0xffffffff, RD(NVPC_NV40_CTR_START(0)));
	EXPECT_EQ(210000000, RD(NVPC_NV40_CTR_EVENT(0)));
	EXPECT_EQ(70000000, RD(NVPC_NV40_CTR_CYCLES(0)));
}

TEST_F(sim, counter_width_rules)
{
	/* pcounter.rst "Counters": NV10:NV30 40-bit, bit 39 sticky:
	 * 0xffffffffff + 1 = 0x8000000000; 0x7fffffffff + 1 = 0x8000000000;
	 * 0x8000000005 + 3 = 0x8000000008. NV30+: saturate at 0xffffffff.
	 */
	(void)variant;
	(void)self;
	EXPECT_EQ(0x8000000000ULL,
		  nvpc_sim_ctr_add_test(NVPC_GEN_NV10, 0xffffffffffULL, 1));
	EXPECT_EQ(0x8000000000ULL,
		  nvpc_sim_ctr_add_test(NVPC_GEN_NV20, 0x7fffffffffULL, 1));
	EXPECT_EQ(0x8000000008ULL,
		  nvpc_sim_ctr_add_test(NVPC_GEN_NV15, 0x8000000005ULL, 3));
	EXPECT_EQ(0x100000000ULL,
		  nvpc_sim_ctr_add_test(NVPC_GEN_NV10, 0xffffffffULL, 1));
	EXPECT_EQ(0xffffffffULL,
		  nvpc_sim_ctr_add_test(NVPC_GEN_NV30, 0xfffffffeULL, 5));
}

/* ---- record mode ---- */

struct pkt_log {
	int n;
	u64 va[16];
	u32 len[16];
	u16 w[16][16];
	int fail_at;	/* fault on this write number (1-based), 0 never */
};

static int mem_cb(void *ctx, u64 va, const void *buf, u32 len)
{
	struct pkt_log *l = ctx;
	const u8 *b = buf;
	u32 i;

	if (l->fail_at && l->n + 1 == l->fail_at) {
		l->fail_at = 0;
		return -1;
	}
	if (l->n >= 16)
		return 0;
	l->va[l->n] = va;
	l->len[l->n] = len;
	for (i = 0; i < len / 2; i++)
		l->w[l->n][i] = b[2 * i] | b[2 * i + 1] << 8;
	l->n++;
	return 0;
}

/*
 * pcounter.rst "Record mode setup": bind the channel and DMA object,
 * RECORD_DMA first, then RECORD_CHAN with VALID (bit 31)
 */
static void rec_bind(struct nvpc_sim *s)
{
	nvpc_sim_wr32(s, NVPC_G84_RECORD_DMA, 0xd0);
	nvpc_sim_wr32(s, NVPC_G84_RECORD_CHAN, NVPC_RECORD_CHAN_VALID | 1);
}

static void rec_setup(struct nvpc_sim *s, struct pkt_log *l, u32 ctrl,
		      u32 start, u32 limit)
{
	memset(l, 0, sizeof(*l));
	nvpc_sim_set_mem_write(s, mem_cb, l);
	rec_bind(s);
	nvpc_sim_wr32(s, NVPC_NV40_CTRL(0), NVPC_NV40_CTRL_MODE_RECORD | ctrl);
	nvpc_sim_wr32(s, NVPC_G84_RECORD_LIMIT(0), limit);
	nvpc_sim_wr32(s, NVPC_G84_RECORD_START(0), start);
}

TEST_F(sim, record_long_packets)
{
	struct nvpc_sim *s = NEW(&chip_g84);
	struct pkt_log l;

	/*
	 * STOP = sig 3 at c = 9, 19 ((c + 1) % 10 == 0). PRE_SRC = (S1,
	 * sig 2 = even cycles, 0, 0), EVENT_SRC[3] = S1.
	 * Packet 1 at c = 9: cycles 10, STOP 1, PRE0 10, PRE1 5, EV3 10, at
	 * 0x1000. Packet 2 at c = 19: cycles 20 (never cleared), same
	 * counts, at 0x1020. RECORD_STATUS then 0x1040.
	 */
	wconst(s, 0, S1, 1);
	wper(s, 0, 2, 2, 1, 0);
	wper(s, 0, 3, 10, 1, 1);
	rec_setup(s, &l, 0, 0x1000, 0x10000);
	WR(NVPC_NV40_PRE_SRC(0), SRC4(S1, 2, 0, 0));
	WR(NVPC_NV40_EVENT_SRC(0), SRC4(0, 0, 0, S1));
	WR(NVPC_NV40_STOP_SRC(0), 3);
	WR(NVPC_NV40_STOP_OP(0), NVPC_OP_ARG0);
	ADV(0, 20);
	ASSERT_EQ(2, l.n);
	EXPECT_EQ(0x1000, l.va[0]);
	EXPECT_EQ(32, l.len[0]);
	EXPECT_EQ(10, l.w[0][0]);
	EXPECT_EQ(0, l.w[0][1]);
	EXPECT_EQ(0, l.w[0][2]);
	EXPECT_EQ(1, l.w[0][3]);
	EXPECT_EQ(10, l.w[0][4]);
	EXPECT_EQ(5, l.w[0][5]);
	EXPECT_EQ(0, l.w[0][6]);
	EXPECT_EQ(10, l.w[0][15]);
	EXPECT_EQ(0x1020, l.va[1]);
	EXPECT_EQ(20, l.w[1][0]);
	EXPECT_EQ(1, l.w[1][3]);
	EXPECT_EQ(10, l.w[1][4]);
	EXPECT_EQ(0x1040, RD(NVPC_G84_RECORD_STATUS(0)));
}

TEST_F(sim, record_short_packets)
{
	struct nvpc_sim *s = NEW(&chip_g84);
	struct pkt_log l;

	/* CTRL bit 20 SHORT: 16 bytes, the first 8 words */
	wper(s, 0, 3, 10, 1, 1);
	rec_setup(s, &l, NVPC_G84_CTRL_RECORD_SHORT, 0x2000, 0x10000);
	WR(NVPC_NV40_STOP_SRC(0), 3);
	WR(NVPC_NV40_STOP_OP(0), NVPC_OP_ARG0);
	ADV(0, 20);
	ASSERT_EQ(2, l.n);
	EXPECT_EQ(16, l.len[0]);
	EXPECT_EQ(0x2010, l.va[1]);
	EXPECT_EQ(0x2020, RD(NVPC_G84_RECORD_STATUS(0)));
}

TEST_F(sim, record_early_write_f000)
{
	struct nvpc_sim *s = NEW(&chip_g84);
	struct pkt_log l;

	/* PRE_SRC[0] const 1, no STOP: the counter reaches 0xf000 at
	 * c = 0xefff -> packet: cycles 0xf000, STOP 0, PRE0 0xf000.
	 */
	wconst(s, 0, S1, 1);
	rec_setup(s, &l, 0, 0x1000, 0x10000);
	WR(NVPC_NV40_PRE_SRC(0), S1);
	ADV(0, 0xefff);
	EXPECT_EQ(0, l.n);
	ADV(0, 1);
	ASSERT_EQ(1, l.n);
	EXPECT_EQ(0xf000, l.w[0][0]);
	EXPECT_EQ(0, l.w[0][3]);
	EXPECT_EQ(0xf000, l.w[0][4]);
}

TEST_F(sim, record_one_outgoing_saturation)
{
	struct nvpc_sim *s = NEW_LAT(&chip_g84, 8192);
	struct pkt_log l;

	/*
	 * Latency 8192. STOP const 1, PRE0 const 1. c = 0: packet 1
	 * (cycles 1, STOP 1, PRE0 1), outgoing until the end of c = 8192.
	 * Meanwhile STOP counts 8192 -> saturates at 0xfff; PRE0 8192.
	 * c = 8193: PRE0 8193, trigger -> packet 2: cycles 8194, STOP
	 * 0xfff, PRE0 8193, written at the end of c = 8193 + 8192.
	 */
	wconst(s, 0, S1, 1);
	rec_setup(s, &l, 0, 0x1000, 0x10000);
	WR(NVPC_NV40_PRE_SRC(0), S1);
	WR(NVPC_NV40_STOP_SRC(0), S1);
	WR(NVPC_NV40_STOP_OP(0), NVPC_OP_ARG0);
	ADV(0, 8192);	/* c = 0..8191 */
	EXPECT_EQ(0, l.n);
	EXPECT_EQ(0x1000, RD(NVPC_G84_RECORD_STATUS(0)));
	ADV(0, 1);	/* c = 8192 */
	ASSERT_EQ(1, l.n);
	EXPECT_EQ(1, l.w[0][0]);
	EXPECT_EQ(1, l.w[0][3]);
	EXPECT_EQ(0x1020, RD(NVPC_G84_RECORD_STATUS(0)));
	ADV(0, 8193 + 8192 - 8192);
	ASSERT_EQ(2, l.n);
	EXPECT_EQ(8194, l.w[1][0]);
	EXPECT_EQ(0xfff, l.w[1][3]);
	EXPECT_EQ(8193, l.w[1][4]);
}

TEST_F(sim, record_event_saturation_16bit)
{
	struct nvpc_sim *s = NEW_LAT(&chip_g84, 0x20000);
	struct pkt_log l;

	/* PRE0 const 1, latency 0x20000: packet 1 at c = 0xefff, outgoing
	 * until the end of c = 0x2efff; PRE0 restarts at 0 and saturates
	 * at 0xffff. c = 0x2f000: trigger -> packet 2 PRE0 0xffff,
	 * cycles 0x2f001 (bits 16-31 in word 1: 0x2, low 0xf001).
	 */
	wconst(s, 0, S1, 1);
	rec_setup(s, &l, 0, 0x1000, 0x10000);
	WR(NVPC_NV40_PRE_SRC(0), S1);
	ADV(0, 0x2f001 + 0x20000);
	ASSERT_EQ(2, l.n);
	EXPECT_EQ(0xffff, l.w[1][4]);
	EXPECT_EQ(0xf001, l.w[1][0]);
	EXPECT_EQ(0x2, l.w[1][1]);
}

TEST_F(sim, record_limit)
{
	struct nvpc_sim *s = NEW(&chip_g84);
	struct pkt_log l;

	/* LIMIT 0x1000 = START: the packet at 0x1000 (>= LIMIT) is
	 * written, then the buffer is invalid: nothing more until
	 * RECORD_START is written again.
	 */
	wper(s, 0, 3, 10, 1, 1);
	rec_setup(s, &l, 0, 0x1000, 0x1000);
	WR(NVPC_NV40_STOP_SRC(0), 3);
	WR(NVPC_NV40_STOP_OP(0), NVPC_OP_ARG0);
	ADV(0, 40);
	EXPECT_EQ(1, l.n);
	EXPECT_EQ(0x1020, RD(NVPC_G84_RECORD_STATUS(0)));
	WR(NVPC_G84_RECORD_START(0), 0x3000);	/* also clears counters */
	ADV(0, 10);	/* c = 40..49, STOP at 49 */
	EXPECT_EQ(2, l.n);
	EXPECT_EQ(0x3000, l.va[1]);
	EXPECT_EQ(10, l.w[1][0]);
	/* START far beyond LIMIT: still one packet */
	s = NEW(&chip_g84);
	wper(s, 0, 3, 10, 1, 1);
	rec_setup(s, &l, 0, 0x5000, 0x1000);
	WR(NVPC_NV40_STOP_SRC(0), 3);
	WR(NVPC_NV40_STOP_OP(0), NVPC_OP_ARG0);
	ADV(0, 40);
	EXPECT_EQ(1, l.n);
	EXPECT_EQ(0x5000, l.va[0]);
}

TEST_F(sim, record_address_high_wrap)
{
	struct nvpc_sim *s = NEW(&chip_g92);
	struct pkt_log l;

	/* G92: va = ADDRESS_HIGH << 32 | pos; pos wraps at 4GB:
	 * 0xffffffe0 -> 0x0. LIMIT 0xfffffff0 > both positions.
	 */
	wper(s, 0, 3, 10, 1, 1);
	rec_setup(s, &l, 0, 0xffffffe0, 0xfffffff0);
	WR(NVPC_G92_RECORD_ADDRESS_HIGH(0), 0x12);
	WR(NVPC_NV40_STOP_SRC(0), 3);
	WR(NVPC_NV40_STOP_OP(0), NVPC_OP_ARG0);
	ADV(0, 20);
	ASSERT_EQ(2, l.n);
	EXPECT_EQ(0x12ffffffe0ULL, l.va[0]);
	EXPECT_EQ(0x1200000000ULL, l.va[1]);
	EXPECT_EQ(0x20, RD(NVPC_G84_RECORD_STATUS(0)));
	/* G84: high bits forced to 0 */
	s = NEW(&chip_g84);
	wper(s, 0, 3, 10, 1, 1);
	rec_setup(s, &l, 0, 0xffffffe0, 0xfffffff0);
	WR(NVPC_NV40_STOP_SRC(0), 3);
	WR(NVPC_NV40_STOP_OP(0), NVPC_OP_ARG0);
	ADV(0, 10);
	ASSERT_EQ(1, l.n);
	EXPECT_EQ(0xffffffe0ULL, l.va[0]);
}

TEST_F(sim, record_fault_wedge)
{
	struct nvpc_sim *s;
	struct pkt_log l;
	int inj;

	/* a VM fault sets RECORD_STATUS bit 0 and wedges the domain for
	 * good; FAULT_CLEAR (CTRL bit 27) clears only the bit; neither it
	 * nor RECORD_START brings packets back. Once via the callback,
	 * once via fault injection.
	 */
	for (inj = 0; inj < 2; inj++) {
		s = NEW(&chip_g84);
		wper(s, 0, 3, 10, 1, 1);
		rec_setup(s, &l, 0, 0x1000, 0x10000);
		WR(NVPC_NV40_STOP_SRC(0), 3);
		WR(NVPC_NV40_STOP_OP(0), NVPC_OP_ARG0);
		if (inj)
			nvpc_sim_fault_record(s, 0);
		else
			l.fail_at = 1;
		ADV(0, 10);
		EXPECT_EQ(0, l.n);
		EXPECT_EQ(0x1001, RD(NVPC_G84_RECORD_STATUS(0)));
		WR(NVPC_NV40_CTRL(0), NVPC_NV40_CTRL_MODE_RECORD |
		   NVPC_G84_CTRL_FAULT_CLEAR);
		EXPECT_EQ(0x1000, RD(NVPC_G84_RECORD_STATUS(0)));
		EXPECT_EQ(0, RD(NVPC_NV40_CTRL(0)) & NVPC_G84_CTRL_FAULT_CLEAR);
		WR(NVPC_G84_RECORD_START(0), 0x1000);
		ADV(0, 40);
		EXPECT_EQ(0, l.n);
	}
}

TEST_F(sim, record_gctrl_reset)
{
	struct nvpc_sim *s = NEW(&chip_g84);
	struct pkt_log l;

	/* GCTRL.RECORD_RESET holds every record counter at 0 (no packets);
	 * released after c = 0..24, the cycle counter restarts: STOP at
	 * c = 29 -> cycles 5 (c = 25..29), PRE0 5.
	 */
	wconst(s, 0, S1, 1);
	wper(s, 0, 3, 10, 1, 1);
	rec_setup(s, &l, 0, 0x1000, 0x10000);
	WR(NVPC_NV40_PRE_SRC(0), S1);
	WR(NVPC_NV40_STOP_SRC(0), 3);
	WR(NVPC_NV40_STOP_OP(0), NVPC_OP_ARG0);
	WR(NVPC_G84_GCTRL, NVPC_GCTRL_RECORD_RESET);
	ADV(0, 25);
	EXPECT_EQ(0, l.n);
	WR(NVPC_G84_GCTRL, 0);
	ADV(0, 5);
	ASSERT_EQ(1, l.n);
	EXPECT_EQ(5, l.w[0][0]);
	EXPECT_EQ(5, l.w[0][4]);
}

/*
 * The bind (pcounter.rst "Record mode setup"; sim_regs.c "DOC: record
 * bind"): STOP at c = 9 as in record_short_packets, buffer at 0x1000.
 * Without a successful bind the packet formed at c = 9 faults when its
 * write completes (latency 0: at c = 9): RECORD_STATUS = 0x1000 | FAULT,
 * nothing reaches memory, and the domain stays wedged (no packet at
 * c = 19 even after a good bind and a RECORD_START). Cases: no bind at
 * all; RECORD_CHAN with VALID before RECORD_DMA (wrong order); RECORD_DMA
 * then RECORD_CHAN without VALID (stored, no bind).
 */
TEST_F(sim, record_bind_missing_or_wrong_order)
{
	struct nvpc_sim_stats st;
	struct nvpc_sim *s;
	struct pkt_log l;
	int k;

	for (k = 0; k < 3; k++) {
		s = NEW(&chip_g84);
		memset(&l, 0, sizeof(l));
		nvpc_sim_set_mem_write(s, mem_cb, &l);
		if (k == 1) {
			WR(NVPC_G84_RECORD_CHAN, NVPC_RECORD_CHAN_VALID | 1);
			WR(NVPC_G84_RECORD_DMA, 0xd0);
		} else if (k == 2) {
			WR(NVPC_G84_RECORD_DMA, 0xd0);
			WR(NVPC_G84_RECORD_CHAN, 1);
		}
		/* both read back as written */
		EXPECT_EQ(k ? 0xd0 : 0, RD(NVPC_G84_RECORD_DMA));
		wper(s, 0, 3, 10, 1, 1);
		WR(NVPC_NV40_CTRL(0), NVPC_NV40_CTRL_MODE_RECORD);
		WR(NVPC_G84_RECORD_LIMIT(0), 0x10000);
		WR(NVPC_G84_RECORD_START(0), 0x1000);
		WR(NVPC_NV40_STOP_SRC(0), 3);
		WR(NVPC_NV40_STOP_OP(0), NVPC_OP_ARG0);
		ADV(0, 10);
		EXPECT_EQ(0, l.n) TH_LOG("case %d", k);
		EXPECT_EQ(0x1001, RD(NVPC_G84_RECORD_STATUS(0)));
		nvpc_sim_get_stats(s, &st);
		EXPECT_EQ(1, st.unbound_faults);
		/* wedged for good: a bind now does not bring it back */
		rec_bind(s);
		WR(NVPC_G84_RECORD_START(0), 0x1000);
		ADV(0, 20);
		EXPECT_EQ(0, l.n);
	}
	/* the right order on a fresh GPU, then domain 1 (same bind) */
	s = NEW(&chip_g84);
	rec_setup(s, &l, 0, 0x1000, 0x10000);
	wper(s, 0, 3, 10, 1, 1);
	WR(NVPC_NV40_STOP_SRC(0), 3);
	WR(NVPC_NV40_STOP_OP(0), NVPC_OP_ARG0);
	ADV(0, 10);
	EXPECT_EQ(1, l.n);
	EXPECT_EQ(0x1020, RD(NVPC_G84_RECORD_STATUS(0)));
	/* a later RECORD_CHAN write with VALID rebinds: RECORD_DMA was
	 * written before it, so it succeeds (c = 10..19: packet at c = 19)
	 */
	WR(NVPC_G84_RECORD_CHAN, NVPC_RECORD_CHAN_VALID | 2);
	ADV(0, 10);
	EXPECT_EQ(2, l.n);
	nvpc_sim_get_stats(s, &st);
	EXPECT_EQ(0, st.unbound_faults);
}

/*
 * The bogus packet (pcounter.rst "Record mode setup", RECORD_START; made
 * certain, sim_regs.c "DOC: bogus record packet"). PRE_SRC[0] const 1,
 * STOP = sig 3 at c = 9, 19, 29 ((c + 1) % 10 == 0).
 *  - Record mode, START 0x1000, c = 0..14: the packet at c = 9 (cycles
 *    10, STOP 1, PRE0 10) at 0x1000; after c = 14 the counters hold
 *    cycles 15, PRE0 5 (c = 10..14), STOP 0.
 *  - CTRL to quad mode; c = 15..19 leave the record counters alone.
 *  - RECORD_START 0x2000 outside record mode: position 0x2000, buffer
 *    valid, counters kept. CTRL back to record mode: the first cycle
 *    (c = 20) counts (cycles 16, PRE0 6, no STOP pulse) and writes the
 *    bogus packet at 0x2000: words 16, 0, 0, 0 (STOP), 6, 0 ... ; bytes
 *    10 00 00 00 00 00 00 00 06 00 then zeros. RECORD_STATUS 0x2020.
 *  - c = 21..29: STOP at c = 29: cycles 25, STOP 1, PRE0 9 at 0x2020.
 */
TEST_F(sim, record_bogus_packet)
{
	static const u8 bogus[32] = { 0x10, 0, 0, 0, 0, 0, 0, 0, 0x06, 0 };
	struct nvpc_sim *s = NEW(&chip_g84);
	struct pkt_log l;
	u8 b[32];
	int i;

	wconst(s, 0, S1, 1);
	wper(s, 0, 3, 10, 1, 1);
	rec_setup(s, &l, 0, 0x1000, 0x10000);
	WR(NVPC_NV40_PRE_SRC(0), S1);
	WR(NVPC_NV40_STOP_SRC(0), 3);
	WR(NVPC_NV40_STOP_OP(0), NVPC_OP_ARG0);
	ADV(0, 15);
	ASSERT_EQ(1, l.n);
	EXPECT_EQ(10, l.w[0][0]);
	EXPECT_EQ(10, l.w[0][4]);
	WR(NVPC_NV40_CTRL(0), NVPC_NV40_CTRL_MODE_QUAD);
	ADV(0, 5);
	WR(NVPC_G84_RECORD_START(0), 0x2000);
	EXPECT_EQ(0x2000, RD(NVPC_G84_RECORD_STATUS(0)));
	WR(NVPC_NV40_CTRL(0), NVPC_NV40_CTRL_MODE_RECORD);
	ADV(0, 1);
	ASSERT_EQ(2, l.n);
	EXPECT_EQ(0x2000, l.va[1]);
	EXPECT_EQ(32, l.len[1]);
	for (i = 0; i < 16; i++) {
		b[2 * i] = l.w[1][i] & 0xff;
		b[2 * i + 1] = l.w[1][i] >> 8;
	}
	EXPECT_EQ(0, memcmp(bogus, b, sizeof(b)));
	EXPECT_EQ(0x2020, RD(NVPC_G84_RECORD_STATUS(0)));
	ADV(0, 9);
	ASSERT_EQ(3, l.n);
	EXPECT_EQ(0x2020, l.va[2]);
	EXPECT_EQ(25, l.w[2][0]);
	EXPECT_EQ(1, l.w[2][3]);
	EXPECT_EQ(9, l.w[2][4]);
}

/*
 * The documented ways around the bogus packet: RECORD_START written after
 * entering record mode, or a GCTRL.RECORD_RESET pulse. As above up to
 * c = 19 (counters cycles 15, PRE0 5 kept through quad mode), START
 * 0x2000 outside record mode, then
 *  (a) GCTRL = RECORD_RESET, GCTRL = 0, CTRL record: counters cleared,
 *      no bogus packet; c = 20..29: STOP at 29: cycles 10, STOP 1, PRE0
 *      10 at 0x2000;
 *  (b) CTRL record, then START 0x2000 again (in record mode: counters
 *      reset): the same packet.
 */
TEST_F(sim, record_bogus_avoided)
{
	struct nvpc_sim *s;
	struct pkt_log l;
	int k;

	for (k = 0; k < 2; k++) {
		s = NEW(&chip_g84);
		wconst(s, 0, S1, 1);
		wper(s, 0, 3, 10, 1, 1);
		rec_setup(s, &l, 0, 0x1000, 0x10000);
		WR(NVPC_NV40_PRE_SRC(0), S1);
		WR(NVPC_NV40_STOP_SRC(0), 3);
		WR(NVPC_NV40_STOP_OP(0), NVPC_OP_ARG0);
		ADV(0, 15);
		WR(NVPC_NV40_CTRL(0), NVPC_NV40_CTRL_MODE_QUAD);
		ADV(0, 5);
		WR(NVPC_G84_RECORD_START(0), 0x2000);
		if (k == 0) {
			WR(NVPC_G84_GCTRL, NVPC_GCTRL_RECORD_RESET);
			WR(NVPC_G84_GCTRL, 0);
			WR(NVPC_NV40_CTRL(0), NVPC_NV40_CTRL_MODE_RECORD);
		} else {
			WR(NVPC_NV40_CTRL(0), NVPC_NV40_CTRL_MODE_RECORD);
			WR(NVPC_G84_RECORD_START(0), 0x2000);
		}
		ADV(0, 10);
		ASSERT_EQ(2, l.n) TH_LOG("case %d", k);
		EXPECT_EQ(0x2000, l.va[1]);
		EXPECT_EQ(10, l.w[1][0]);
		EXPECT_EQ(1, l.w[1][3]);
		EXPECT_EQ(10, l.w[1][4]);
	}
}

/*
 * STOP counts above 1 (pcounter.rst "Record mode": "each domain has place
 * for one outgoing packet"; a trigger while one is outgoing does nothing,
 * the counters keep counting). Latency 5 (a packet formed in cycle c is
 * written in cycle c + 5, and the next one can form from c + 6), PRE0
 * const 1, STOP = sig 3 at odd c ((c + 1) % 2 == 0):
 *   c = 1: STOP 1 -> packet A (cycles 2, STOP 1, PRE0 2), written c = 6
 *   c = 3, 5: STOP 2 while A is outgoing; c = 6: PRE0 5, A written
 *   c = 7: STOP 3, PRE0 6 -> packet B (cycles 8, STOP 3, PRE0 6),
 *          written c = 12
 *   c = 13: likewise packet C (cycles 14, STOP 3, PRE0 6), written c = 18
 * After c = 0..18: A, B, C at 0x1000, 0x1020, 0x1040; RECORD_STATUS
 * 0x1060. The latency set at creation or later (nvpc_sim_set_record_
 * latency), or as 50 ns (nvpc_sim_set_record_latency_ns(): 5 cycles of
 * the 100 MHz domain) gives the same.
 */
TEST_F(sim, record_latency_stop_counts)
{
	static const u16 want[3][3] = { { 2, 1, 2 }, { 8, 3, 6 }, { 14, 3, 6 } };
	struct nvpc_sim *s;
	struct pkt_log l;
	int k, i;

	for (k = 0; k < 3; k++) {
		if (k == 0) {
			s = NEW_LAT(&chip_g84, 5);
		} else if (k == 1) {
			s = NEW(&chip_g84);
			nvpc_sim_set_record_latency(s, 5);
		} else {
			s = NEW(&chip_g84);
			nvpc_sim_set_record_latency_ns(s, 50);
			EXPECT_EQ(5, nvpc_sim_record_latency(s, 0));
		}
		wconst(s, 0, S1, 1);
		wper(s, 0, 3, 2, 1, 1);
		rec_setup(s, &l, 0, 0x1000, 0x10000);
		WR(NVPC_NV40_PRE_SRC(0), S1);
		WR(NVPC_NV40_STOP_SRC(0), 3);
		WR(NVPC_NV40_STOP_OP(0), NVPC_OP_ARG0);
		ADV(0, 18);	/* c = 0..17: C still outgoing */
		EXPECT_EQ(2, l.n);
		ADV(0, 1);
		ASSERT_EQ(3, l.n);
		for (i = 0; i < 3; i++) {
			EXPECT_EQ(0x1000 + 0x20 * i, l.va[i]);
			EXPECT_EQ(want[i][0], l.w[i][0]);
			EXPECT_EQ(want[i][1], l.w[i][3]);
			EXPECT_EQ(want[i][2], l.w[i][4]);
		}
		EXPECT_EQ(0x1060, RD(NVPC_G84_RECORD_STATUS(0)));
	}
}

/*
 * The latency as a time: each domain's floor(ns * clock / 10^9) cycles.
 * 500 ns: 50 cycles at 100 MHz, 150 at 300 MHz, 166 at 333 MHz (166.5);
 * one second: the clocks themselves. Cycles set afterwards apply to every
 * domain again; a domain that does not exist has none.
 */
TEST_F(sim, record_latency_ns)
{
	struct nvpc_sim *s = NEW(&chip_clk);

	EXPECT_EQ(0, nvpc_sim_record_latency(s, 1));
	nvpc_sim_set_record_latency_ns(s, 500);
	EXPECT_EQ(50, nvpc_sim_record_latency(s, 0));
	EXPECT_EQ(150, nvpc_sim_record_latency(s, 1));
	EXPECT_EQ(166, nvpc_sim_record_latency(s, 2));
	EXPECT_EQ(0, nvpc_sim_record_latency(s, 3));
	nvpc_sim_set_record_latency_ns(s, 1000000000);
	EXPECT_EQ(100 * MHZ, nvpc_sim_record_latency(s, 0));
	EXPECT_EQ(300 * MHZ, nvpc_sim_record_latency(s, 1));
	EXPECT_EQ(333 * MHZ, nvpc_sim_record_latency(s, 2));
	nvpc_sim_set_record_latency(s, 7);
	EXPECT_EQ(7, nvpc_sim_record_latency(s, 0));
	EXPECT_EQ(7, nvpc_sim_record_latency(s, 2));
	nvpc_sim_set_record_latency_ns(s, 0);
	EXPECT_EQ(0, nvpc_sim_record_latency(s, 2));
}

/*
 * A packet on its way to memory lands after the domain left record mode
 * (pcounter.rst "Record mode": the one outgoing packet is being written;
 * leaving record mode forms no new one). Latency 5, STOP = sig 3 at odd
 * c as above: packet A forms in c = 1; CTRL goes to single event mode
 * before c = 3 (STOP 1 more counts nothing there); A is written in c = 6
 * all the same: RECORD_STATUS 0x1020 after c = 0..6, not before.
 */
TEST_F(sim, record_outgoing_lands_after_halt)
{
	struct nvpc_sim *s = NEW_LAT(&chip_g84, 5);
	struct pkt_log l;

	wconst(s, 0, S1, 1);
	wper(s, 0, 3, 2, 1, 1);
	rec_setup(s, &l, 0, 0x1000, 0x10000);
	WR(NVPC_NV40_PRE_SRC(0), S1);
	WR(NVPC_NV40_STOP_SRC(0), 3);
	WR(NVPC_NV40_STOP_OP(0), NVPC_OP_ARG0);
	ADV(0, 3);
	WR(NVPC_NV40_CTRL(0), NVPC_NV40_CTRL_MODE_SINGLE);
	ADV(0, 3);	/* c = 3..5 */
	EXPECT_EQ(0, l.n);
	EXPECT_EQ(0x1000, RD(NVPC_G84_RECORD_STATUS(0)));
	ADV(0, 1);	/* c = 6 */
	ASSERT_EQ(1, l.n);
	EXPECT_EQ(0x1000, l.va[0]);
	EXPECT_EQ(2, l.w[0][0]);
	EXPECT_EQ(1, l.w[0][3]);
	EXPECT_EQ(0x1020, RD(NVPC_G84_RECORD_STATUS(0)));
	ADV(0, 1000);	/* nothing more: no record mode */
	EXPECT_EQ(1, l.n);
}

/* ---- GF100+ record mode (sim_regs.c "GF100+ record mode") ---- */

/*
 * chip_gf100 (sim_test.h): flat 0 hub.0, 1 hub.1, 2 gpc0.0, 3 gpc1.0,
 * 4 part0.0, every clock 100 MHz, so cycle c of every domain starts at
 * the same tick and ties go to the lower flat index. The MAIN record
 * registers are envytools' rnndb gf100_pcounter.xml.
 */
#define GF_MAIN_START	NVPC_GF100_MAIN_RECORD_START
#define GF_MAIN_AHIGH	NVPC_GF100_MAIN_RECORD_ADDRESS_HIGH
#define GF_MAIN_LIMIT	NVPC_GF100_MAIN_RECORD_LIMIT
#define GF_MAIN_POS	NVPC_GF100_MAIN_RECORD_POS
#define GF_MAIN_COUNT	NVPC_GF100_MAIN_RECORD_COUNT

/* flat domain -> register base of chip_gf100 */
static u32 gf_base(int dom)
{
	static const u32 base[] = {
		NVPC_GF100_HUB_BASE(0), NVPC_GF100_HUB_BASE(1),
		NVPC_GF100_GPC_BASE(0, 0), NVPC_GF100_GPC_BASE(1, 0),
		NVPC_GF100_PART_BASE(0, 0),
	};

	return base[dom];
}

/* record mode (MODE 3 long / 5 short), STOP = sig 3 as ARG0 */
static void gf_rec_dom(struct nvpc_sim *s, int dom, u32 mode)
{
	nvpc_sim_wr32(s, gf_base(dom) + NVPC_GF100_CTRL, mode);
	nvpc_sim_wr32(s, gf_base(dom) + NVPC_GF100_STOP_SRC, 3);
	nvpc_sim_wr32(s, gf_base(dom) + NVPC_GF100_STOP_OP, NVPC_OP_ARG0);
}

static void gf_rec_buf(struct nvpc_sim *s, struct pkt_log *l, u32 start,
		       u32 limit)
{
	memset(l, 0, sizeof(*l));
	nvpc_sim_set_mem_write(s, mem_cb, l);
	nvpc_sim_wr32(s, GF_MAIN_LIMIT, limit);
	nvpc_sim_wr32(s, GF_MAIN_START, start);
}

TEST_F(sim, gf100_record_registers)
{
	struct nvpc_sim *s = NEW(&chip_gf100);
	struct nvpc_sim_stats st0, st1;
	struct pkt_log l;

	/* START/LIMIT keep bits 4-31, ADDRESS_HIGH bits 0-7 (the G84
	 * RECORD_* layouts of "Record mode setup"); POS and COUNT are
	 * read-only; a START write sets POS = START and COUNT = 0; CHAN is
	 * only stored (counted in stored_accesses), the others modelled.
	 */
	WR(GF_MAIN_START, 0x1234567f);
	EXPECT_EQ(0x12345670, RD(GF_MAIN_START));
	EXPECT_EQ(0x12345670, RD(GF_MAIN_POS));
	WR(GF_MAIN_LIMIT, 0xffffffff);
	EXPECT_EQ(0xfffffff0, RD(GF_MAIN_LIMIT));
	WR(GF_MAIN_AHIGH, 0x1ff);
	EXPECT_EQ(0xff, RD(GF_MAIN_AHIGH));
	WR(GF_MAIN_POS, 0x5000);
	WR(GF_MAIN_COUNT, 7);
	EXPECT_EQ(0x12345670, RD(GF_MAIN_POS));
	EXPECT_EQ(0, RD(GF_MAIN_COUNT));
	nvpc_sim_get_stats(s, &st0);
	WR(NVPC_GF100_MAIN_RECORD_CHAN, 0x80000001);
	EXPECT_EQ(0x80000001, RD(NVPC_GF100_MAIN_RECORD_CHAN));
	nvpc_sim_get_stats(s, &st1);
	EXPECT_EQ(st0.stored_accesses + 2, st1.stored_accesses);
	EXPECT_EQ(NVPC_GF100_MAIN_RECORD_CHAN, st1.last_unmodelled);

	/* MODE 3 is record mode (CTRL reads it back); one domain, STOP at
	 * c = 9, 19: long packets at ADDRESS_HIGH << 32 | POS =
	 * 0x12_0000_1000 and 0x12_0000_1020; POS 0x1040, COUNT 2.
	 */
	wper(s, 0, 3, 10, 1, 1);
	gf_rec_dom(s, 0, NVPC_GF100_CTRL_MODE_RECORD_A);
	EXPECT_EQ(3, RD(gf_base(0) + NVPC_GF100_CTRL));
	WR(GF_MAIN_AHIGH, 0x12);
	gf_rec_buf(s, &l, 0x1000, 0x10000);
	ADV(0, 20);
	ASSERT_EQ(2, l.n);
	EXPECT_EQ(0x1200001000ULL, l.va[0]);
	EXPECT_EQ(32, l.len[0]);
	EXPECT_EQ(10, l.w[0][0]);
	EXPECT_EQ(1, l.w[0][3]);
	EXPECT_EQ(0x1200001020ULL, l.va[1]);
	EXPECT_EQ(20, l.w[1][0]);
	EXPECT_EQ(0x1040, RD(GF_MAIN_POS));
	EXPECT_EQ(2, RD(GF_MAIN_COUNT));
	/* MODE 4 is undocumented: the domain halts, nothing more written */
	WR(gf_base(0) + NVPC_GF100_CTRL, 4);
	ADV(0, 20);
	EXPECT_EQ(2, l.n);
}

TEST_F(sim, gf100_record_interleave)
{
	struct nvpc_sim *s = NEW(&chip_gf100);
	struct pkt_log l;

	/*
	 * hub.0 MODE 3 (long), STOP = sig 3 at c % 10 == 9, EVENT_SRC[0] =
	 * S1 (const 1). hub.1 MODE 5 (short), STOP at c % 4 == 3, PRE_SRC[0]
	 * = S1. One buffer at 0x1000, packets in the order their writes
	 * complete (latency 0: the triggering cycle; same tick at c = 19:
	 * hub.0 first, lower flat index):
	 *  c =  3 hub.1 @0x1000 16 B: cycles 4, STOP 1, PRE0 4
	 *  c =  7 hub.1 @0x1010:      cycles 8, STOP 1, PRE0 4
	 *  c =  9 hub.0 @0x1020 32 B: cycles 10, STOP 1, EV0 10
	 *  c = 11 hub.1 @0x1040:      cycles 12
	 *  c = 15 hub.1 @0x1050:      cycles 16
	 *  c = 19 hub.0 @0x1060:      cycles 20, EV0 10
	 *  c = 19 hub.1 @0x1080:      cycles 20, PRE0 4
	 * POS 0x1080 + 16 = 0x1090, COUNT 7.
	 */
	wconst(s, 0, S1, 1);
	wconst(s, 1, S1, 1);
	wper(s, 0, 3, 10, 1, 1);
	wper(s, 1, 3, 4, 1, 1);
	gf_rec_dom(s, 0, NVPC_GF100_CTRL_MODE_RECORD_A);
	gf_rec_dom(s, 1, NVPC_GF100_CTRL_MODE_RECORD_B);
	WR(gf_base(0) + NVPC_GF100_EVENT_SRC, S1);
	WR(gf_base(1) + NVPC_GF100_PRE_SRC, S1);
	gf_rec_buf(s, &l, 0x1000, 0x10000);
	ADV(0, 20);
	ASSERT_EQ(7, l.n);
	EXPECT_EQ(0x1000, l.va[0]);
	EXPECT_EQ(16, l.len[0]);
	EXPECT_EQ(4, l.w[0][0]);
	EXPECT_EQ(1, l.w[0][3]);
	EXPECT_EQ(4, l.w[0][4]);
	EXPECT_EQ(0x1010, l.va[1]);
	EXPECT_EQ(8, l.w[1][0]);
	EXPECT_EQ(4, l.w[1][4]);
	EXPECT_EQ(0x1020, l.va[2]);
	EXPECT_EQ(32, l.len[2]);
	EXPECT_EQ(10, l.w[2][0]);
	EXPECT_EQ(1, l.w[2][3]);
	EXPECT_EQ(0, l.w[2][4]);
	EXPECT_EQ(10, l.w[2][12]);
	EXPECT_EQ(0x1040, l.va[3]);
	EXPECT_EQ(12, l.w[3][0]);
	EXPECT_EQ(0x1050, l.va[4]);
	EXPECT_EQ(16, l.w[4][0]);
	EXPECT_EQ(0x1060, l.va[5]);
	EXPECT_EQ(32, l.len[5]);
	EXPECT_EQ(20, l.w[5][0]);
	EXPECT_EQ(10, l.w[5][12]);
	EXPECT_EQ(0x1080, l.va[6]);
	EXPECT_EQ(16, l.len[6]);
	EXPECT_EQ(20, l.w[6][0]);
	EXPECT_EQ(4, l.w[6][4]);
	EXPECT_EQ(0x1090, RD(GF_MAIN_POS));
	EXPECT_EQ(7, RD(GF_MAIN_COUNT));
}

TEST_F(sim, gf100_record_one_outgoing_per_domain)
{
	struct nvpc_sim *s = NEW_LAT(&chip_gf100, 100);
	struct pkt_log l;

	/*
	 * Latency 100, hub.0 and hub.1 MODE 3, STOP const 1 (S1). Each
	 * domain has its own outgoing packet: c = 0 both form one (cycles
	 * 1, STOP 1), both written at c = 100, hub.0 first: 0x1000, 0x1020.
	 * Meanwhile STOP counts c = 1..100 (100); c = 101 makes 101 and
	 * forms packets with cycles 102, STOP 101, written at c = 201:
	 * 0x1040 (hub.0), 0x1060 (hub.1). COUNT 4, POS 0x1080.
	 */
	wconst(s, 0, S1, 1);
	wconst(s, 1, S1, 1);
	gf_rec_dom(s, 0, NVPC_GF100_CTRL_MODE_RECORD_A);
	gf_rec_dom(s, 1, NVPC_GF100_CTRL_MODE_RECORD_A);
	WR(gf_base(0) + NVPC_GF100_STOP_SRC, S1);
	WR(gf_base(1) + NVPC_GF100_STOP_SRC, S1);
	gf_rec_buf(s, &l, 0x1000, 0x10000);
	ADV(0, 100);	/* c = 0..99 */
	EXPECT_EQ(0, l.n);
	EXPECT_EQ(0x1000, RD(GF_MAIN_POS));
	ADV(0, 1);	/* c = 100 */
	ASSERT_EQ(2, l.n);
	EXPECT_EQ(0x1000, l.va[0]);
	EXPECT_EQ(0x1020, l.va[1]);
	EXPECT_EQ(1, l.w[0][0]);
	EXPECT_EQ(1, l.w[1][3]);
	ADV(0, 101);	/* c = 101..201 */
	ASSERT_EQ(4, l.n);
	EXPECT_EQ(0x1040, l.va[2]);
	EXPECT_EQ(102, l.w[2][0]);
	EXPECT_EQ(101, l.w[2][3]);
	EXPECT_EQ(0x1060, l.va[3]);
	EXPECT_EQ(102, l.w[3][0]);
	EXPECT_EQ(101, l.w[3][3]);
	EXPECT_EQ(0x1080, RD(GF_MAIN_POS));
	EXPECT_EQ(4, RD(GF_MAIN_COUNT));
}

TEST_F(sim, gf100_record_early_write_f000)
{
	struct nvpc_sim *s = NEW(&chip_gf100);
	struct pkt_log l;

	/* hub.1 MODE 5, PRE_SRC[0] const 1, no STOP: its counter reaches
	 * 0xf000 at c = 0xefff -> packet cycles 0xf000, STOP 0, PRE0
	 * 0xf000 at 0x1000 ("Record mode"). hub.0 records too (nothing to
	 * write: STOP sig 3 is const 0, EVENT_SRC 0 = const 0).
	 */
	wconst(s, 1, S1, 1);
	gf_rec_dom(s, 0, NVPC_GF100_CTRL_MODE_RECORD_A);
	gf_rec_dom(s, 1, NVPC_GF100_CTRL_MODE_RECORD_B);
	WR(gf_base(1) + NVPC_GF100_PRE_SRC, S1);
	gf_rec_buf(s, &l, 0x1000, 0x10000);
	ADV(0, 0xefff);
	EXPECT_EQ(0, l.n);
	ADV(0, 1);
	ASSERT_EQ(1, l.n);
	EXPECT_EQ(16, l.len[0]);
	EXPECT_EQ(0xf000, l.w[0][0]);
	EXPECT_EQ(0, l.w[0][3]);
	EXPECT_EQ(0xf000, l.w[0][4]);
	EXPECT_EQ(0x1010, RD(GF_MAIN_POS));
}

TEST_F(sim, gf100_record_limit_shared)
{
	struct nvpc_sim *s = NEW(&chip_gf100);
	struct pkt_log l;

	/*
	 * As gf100_record_interleave (hub.1 short at c = 3, 7, 11 ...,
	 * hub.0 long at c = 9, 19), LIMIT 0x1010: c = 3 @0x1000 (< LIMIT),
	 * c = 7 @0x1010 (>= LIMIT: buffer invalid); hub.0 then writes
	 * nothing. POS 0x1020, COUNT 2. START 0x2000 at c = 20 (counters of
	 * both reset): c = 23 hub.1 @0x2000 cycles 4; c = 27 @0x2010 cycles
	 * 8; c = 29 hub.0 @0x2020 cycles 10, STOP 1 (STOP of c = 19
	 * cleared by START), EV0 10.
	 */
	wconst(s, 0, S1, 1);
	wper(s, 0, 3, 10, 1, 1);
	wper(s, 1, 3, 4, 1, 1);
	gf_rec_dom(s, 0, NVPC_GF100_CTRL_MODE_RECORD_A);
	gf_rec_dom(s, 1, NVPC_GF100_CTRL_MODE_RECORD_B);
	WR(gf_base(0) + NVPC_GF100_EVENT_SRC, S1);
	gf_rec_buf(s, &l, 0x1000, 0x1010);
	ADV(0, 20);
	ASSERT_EQ(2, l.n);
	EXPECT_EQ(0x1010, l.va[1]);
	EXPECT_EQ(0x1020, RD(GF_MAIN_POS));
	EXPECT_EQ(2, RD(GF_MAIN_COUNT));
	WR(GF_MAIN_LIMIT, 0x10000);
	WR(GF_MAIN_START, 0x2000);
	EXPECT_EQ(0, RD(GF_MAIN_COUNT));
	ADV(0, 10);
	ASSERT_EQ(5, l.n);
	EXPECT_EQ(0x2000, l.va[2]);
	EXPECT_EQ(4, l.w[2][0]);
	EXPECT_EQ(0x2010, l.va[3]);
	EXPECT_EQ(8, l.w[3][0]);
	EXPECT_EQ(0x2020, l.va[4]);
	EXPECT_EQ(10, l.w[4][0]);
	EXPECT_EQ(1, l.w[4][3]);
	EXPECT_EQ(10, l.w[4][12]);
	EXPECT_EQ(3, RD(GF_MAIN_COUNT));

	/*
	 * Latency 8, LIMIT 0x1000: hub.1 forms at c = 3, written at c = 11
	 * @0x1000 (>= LIMIT: invalid). hub.0 formed at c = 9 (still
	 * valid), due at c = 17: dropped ("all further writes will be
	 * ignored"). hub.1 at c = 15: no packet. One packet, POS 0x1010.
	 */
	s = NEW_LAT(&chip_gf100, 8);
	wper(s, 0, 3, 10, 1, 1);
	wper(s, 1, 3, 4, 1, 1);
	gf_rec_dom(s, 0, NVPC_GF100_CTRL_MODE_RECORD_A);
	gf_rec_dom(s, 1, NVPC_GF100_CTRL_MODE_RECORD_B);
	gf_rec_buf(s, &l, 0x1000, 0x1000);
	ADV(0, 40);
	ASSERT_EQ(1, l.n);
	EXPECT_EQ(0x1000, l.va[0]);
	EXPECT_EQ(4, l.w[0][0]);
	EXPECT_EQ(0x1010, RD(GF_MAIN_POS));
	EXPECT_EQ(1, RD(GF_MAIN_COUNT));
}

TEST_F(sim, gf100_record_fault_wedge)
{
	struct nvpc_sim *s = NEW(&chip_gf100);
	struct pkt_log l;

	/*
	 * hub.1's first write (c = 3) faults: hub.1 is wedged, FAULT in POS
	 * bit 0, POS stays. hub.0 goes on: c = 9 @0x1000, c = 19 @0x1020.
	 * POS 0x1040 | FAULT, COUNT 2. A new START does not unwedge hub.1
	 * (c = 20..39: hub.0 at 29, 39 only). Clearing PMC.ENABLE bit 28
	 * resets PCOUNTER: POS 0, no fault; reprogrammed, hub.1 writes
	 * again (c = 43 @0x3000: cycles 4).
	 */
	wper(s, 0, 3, 10, 1, 1);
	wper(s, 1, 3, 4, 1, 1);
	gf_rec_dom(s, 0, NVPC_GF100_CTRL_MODE_RECORD_A);
	gf_rec_dom(s, 1, NVPC_GF100_CTRL_MODE_RECORD_B);
	gf_rec_buf(s, &l, 0x1000, 0x10000);
	nvpc_sim_fault_record(s, 1);
	ADV(0, 20);
	ASSERT_EQ(2, l.n);
	EXPECT_EQ(0x1000, l.va[0]);
	EXPECT_EQ(32, l.len[0]);
	EXPECT_EQ(0x1020, l.va[1]);
	EXPECT_EQ(0x1041, RD(GF_MAIN_POS));
	EXPECT_EQ(2, RD(GF_MAIN_COUNT));
	WR(GF_MAIN_START, 0x2000);
	EXPECT_EQ(0x2001, RD(GF_MAIN_POS));
	ADV(0, 20);
	ASSERT_EQ(4, l.n);
	EXPECT_EQ(0x2000, l.va[2]);
	EXPECT_EQ(32, l.len[3]);
	WR(NVPC_PMC_ENABLE, 0xffffffff & ~NVPC_PMC_ENABLE_PCOUNTER);
	WR(NVPC_PMC_ENABLE, 0xffffffff);
	EXPECT_EQ(0, RD(GF_MAIN_POS));
	gf_rec_dom(s, 1, NVPC_GF100_CTRL_MODE_RECORD_B);
	gf_rec_buf(s, &l, 0x3000, 0x10000);
	ADV(0, 4);	/* c = 40..43 */
	ASSERT_EQ(1, l.n);
	EXPECT_EQ(0x3000, l.va[0]);
	EXPECT_EQ(16, l.len[0]);
	EXPECT_EQ(4, l.w[0][0]);
}

TEST_F(sim, gf100_record_reset_per_set)
{
	struct nvpc_sim *s = NEW(&chip_gf100);
	struct pkt_log l;

	/*
	 * HUB_DSET CTRL.RECORD_RESET holds the hub domains' record counters
	 * at 0 (so no STOP count, no packet); gpc0.0 (flat 2) records on:
	 * c = 9 @0x1000 cycles 10, c = 19 @0x1020 cycles 20. Released at
	 * c = 20: hub.0's cycles restart, c = 29: hub.0 @0x1040 cycles 10
	 * (c = 20..29), then gpc0.0 @0x1060 cycles 30 (same tick, flat 0
	 * before flat 2).
	 */
	wper(s, 0, 3, 10, 1, 1);
	wper(s, 2, 3, 10, 1, 1);
	gf_rec_dom(s, 0, NVPC_GF100_CTRL_MODE_RECORD_A);
	gf_rec_dom(s, 2, NVPC_GF100_CTRL_MODE_RECORD_A);
	gf_rec_buf(s, &l, 0x1000, 0x10000);
	WR(NVPC_GF100_HUB_DSET_CTRL, NVPC_GCTRL_RECORD_RESET);
	ADV(0, 20);
	ASSERT_EQ(2, l.n);
	EXPECT_EQ(0x1000, l.va[0]);
	EXPECT_EQ(10, l.w[0][0]);
	EXPECT_EQ(0x1020, l.va[1]);
	EXPECT_EQ(20, l.w[1][0]);
	WR(NVPC_GF100_HUB_DSET_CTRL, 0);
	ADV(0, 10);
	ASSERT_EQ(4, l.n);
	EXPECT_EQ(0x1040, l.va[2]);
	EXPECT_EQ(10, l.w[2][0]);
	EXPECT_EQ(1, l.w[2][3]);
	EXPECT_EQ(0x1060, l.va[3]);
	EXPECT_EQ(30, l.w[3][0]);
}

/* ---- STATUS and SRC_STATUS ---- */

TEST_F(sim, status_and_src_status)
{
	struct nvpc_sim *s = NEW(&chip_nv40);

	/* STATUS[i][j] bit b = signal 32 j + b now; sig 5 const 1, sig 6
	 * 1 on even cycles. SRC_STATUS bit 4 n + j = SRC[j] of input n.
	 */
	wconst(s, 0, 5, 1);
	wper(s, 0, 6, 2, 1, 0);
	EXPECT_EQ(BIT(5) | BIT(6), RD(NVPC_NV40_STATUS(0, 0)));
	ADV(0, 1);
	EXPECT_EQ(BIT(5), RD(NVPC_NV40_STATUS(0, 0)));
	WR(NVPC_NV40_START_SRC(0), SRC4(0, 5, 0, 6));
	WR(NVPC_NV40_STOP_SRC(0), SRC4(5, 5, 5, 5));
	/* START bit 1 (4 + 1 = 5), STOP bits 12..15; sig 6 is 0 now */
	EXPECT_EQ(BIT(5) | 0xf000, RD(NVPC_NV40_SRC_STATUS(0)));
	ADV(0, 1);
	EXPECT_EQ(BIT(5) | BIT(7) | 0xf000, RD(NVPC_NV40_SRC_STATUS(0)));
	/* NV10 layout: STATUS[0][4..7] at 0xa630 */
	s = NEW(&chip_nv10);
	wconst(s, 0, 0x21, 1);
	EXPECT_EQ(BIT(1), RD(NVPC_NV10_STATUS(0, 1)));
	EXPECT_EQ(0xa434, NVPC_NV10_STATUS(0, 1));
	EXPECT_EQ(0xa630, NVPC_NV10_STATUS(0, 4));
}

/* ---- clocks ---- */

TEST_F(sim, clocks_manual_and_ns)
{
	struct nvpc_sim *s = NEW(&chip_clk);
	int i;

	/* clocks 100, 300, 333 MHz: tick_hz = lcm = 1e6 * lcm(100, 300,
	 * 333) = 1e6 * 33300 = 333e8; periods 333, 111, 100.
	 */
	EXPECT_EQ(33300000000ULL, nvpc_sim_tick_hz(s));
	ADV(0, 10);	/* T = 3330: dom1 3330/111 = 30,
			 * dom2 ceil(33.3) = 34
			 */
	EXPECT_EQ(10, nvpc_sim_cycles(s, 0));
	EXPECT_EQ(30, nvpc_sim_cycles(s, 1));
	EXPECT_EQ(34, nvpc_sim_cycles(s, 2));
	ADV(1, 1);	/* T = 3441: dom0 ceil(10.33) = 11, dom1 31 */
	EXPECT_EQ(11, nvpc_sim_cycles(s, 0));
	EXPECT_EQ(31, nvpc_sim_cycles(s, 1));
	/* 1000 x 1 us = 1 ms = 333e5 ticks more: T = 33303441 -> dom2
	 * ceil(333034.41) = 333035, dom0 ceil(100010.33) = 100011: no drift
	 */
	for (i = 0; i < 1000; i++)
		nvpc_sim_advance_ns(s, 1000);
	EXPECT_EQ(333035, nvpc_sim_cycles(s, 2));
	EXPECT_EQ(100011, nvpc_sim_cycles(s, 0));	/* 10.33 + 100000 */
}

TEST_F(sim, ground_truth)
{
	struct nvpc_sim *s = NEW(&chip_nv40);
	u64 n;

	/* period 7 width 2 phase 3: 1 iff (c + 3) % 7 < 2, c % 7 in {4,5};
	 * [0, 1e12): 1e12 = 7 * 142857142857 + 1 -> 2 * 142857142857 =
	 * 285714285714 (the leftover cycle has c % 7 = 0)
	 */
	wper(s, 0, 2, 7, 2, 3);
	EXPECT_EQ(285714285714ULL, nvpc_sim_truth(s, 0, 2, 0, 1000000000000ULL));
	EXPECT_EQ(1, nvpc_sim_truth(s, 0, 2, 4, 5));
	/* random: the truth equals what the counter counts */
	wrand(s, 0, 3, 1234, 20000);
	WR(NVPC_NV40_CTRL(0), NV40_QUAD(0));
	WR(NVPC_NV40_EVENT_SRC(0), 3);
	WR(NVPC_NV40_EVENT_OP(0), NVPC_OP_ARG0);
	ADV(0, 100000);
	pm_swap(s, 0);
	n = nvpc_sim_truth(s, 0, 3, 0, 100000);
	EXPECT_EQ(n, RD(NVPC_NV40_CTR_EVENT(0)));
	/* density 20000/65536 of 100000: within 3% of 30518 */
	EXPECT_LT(n, 31500);
	EXPECT_GT(n, 29500);
}

/* ---- fault injection ---- */

TEST_F(sim, fault_injection)
{
	struct nvpc_sim *s = NEW(&chip_nv40);

	WR(NVPC_NV40_PRE_SRC(0), 0x12);
	ASSERT_EQ(0, nvpc_sim_fault_stuck(s, NVPC_NV40_PRE_SRC(0), 0xdead));
	EXPECT_EQ(0xdead, RD(NVPC_NV40_PRE_SRC(0)));
	nvpc_sim_fault_clear_stuck(s);
	EXPECT_EQ(0x12, RD(NVPC_NV40_PRE_SRC(0)));
	nvpc_sim_fault_all_ones(s, true);
	EXPECT_EQ(0xffffffff, RD(NVPC_NV40_PRE_SRC(0)));
	WR(NVPC_NV40_PRE_SRC(0), 0x34);	/* writes still work */
	nvpc_sim_fault_all_ones(s, false);
	EXPECT_EQ(0x34, RD(NVPC_NV40_PRE_SRC(0)));
	nvpc_sim_fault_removed(s, true);
	EXPECT_EQ(0xffffffff, RD(NVPC_PMC_BOOT_0));
	WR(NVPC_NV40_PRE_SRC(0), 0x56);	/* dropped */
	nvpc_sim_fault_removed(s, false);
	EXPECT_EQ(0x34, RD(NVPC_NV40_PRE_SRC(0)));
	/* lost swap: the first swap goes EMPTY -> OVERFLOW at once */
	WR(NVPC_NV40_CTRL(0), NV40_QUAD(0));
	nvpc_sim_fault_lost_swaps(s, 0, 1);
	pm_swap(s, 0);
	EXPECT_EQ(NVPC_QUAD_OVERFLOW, QSTATE(0));
	WR(NVPC_NV40_QUAD_ACK_TRIGGER(0), 1);
	WR(NVPC_NV40_QUAD_ACK_TRIGGER(0), 1);
	pm_swap(s, 0);
	EXPECT_EQ(NVPC_QUAD_VALID, QSTATE(0));
}

/*
 * The knobs nvpc doctor --hardware is tested with (sim.rst "Fault
 * injection"). PRE on 0xffff counts every cycle, as CTR_CYCLES does: a
 * swap copies both and clears both ("Quad event mode"), unless PRE is
 * kept: then its copy is the previous one plus this period's cycles.
 * no_swap: a pulse changes nothing, neither QUAD_STATE nor a register.
 */
TEST_F(sim, fault_keep_and_no_swap)
{
	struct nvpc_sim *s = NEW(&chip_nv40);
	u32 pre1, cyc2, st;

	WR(NVPC_NV40_CTRL(0), NV40_QUAD(0));
	WR(NVPC_NV40_PRE_OP(0), 0xffff);
	ADV(0, 10);
	pm_swap(s, 0);
	EXPECT_EQ(RD(NVPC_NV40_CTR_CYCLES(0)), RD(NVPC_NV40_CTR_PRE(0)));
	WR(NVPC_NV40_QUAD_ACK_TRIGGER(0), 1);
	ASSERT_EQ(-EINVAL, nvpc_sim_ctr_mask("cycles2"));
	nvpc_sim_fault_keep(s, 0, nvpc_sim_ctr_mask("pre"));
	ADV(0, 20);
	pm_swap(s, 0);
	pre1 = RD(NVPC_NV40_CTR_PRE(0));
	EXPECT_EQ(RD(NVPC_NV40_CTR_CYCLES(0)), pre1);
	WR(NVPC_NV40_QUAD_ACK_TRIGGER(0), 1);
	ADV(0, 30);
	pm_swap(s, 0);
	cyc2 = RD(NVPC_NV40_CTR_CYCLES(0));
	EXPECT_EQ(31, cyc2);
	EXPECT_EQ(pre1 + cyc2, RD(NVPC_NV40_CTR_PRE(0)));
	WR(NVPC_NV40_QUAD_ACK_TRIGGER(0), 1);
	nvpc_sim_fault_keep(s, 0, 0);

	nvpc_sim_fault_no_swap(s, 0, true);
	ADV(0, 40);
	st = QSTATE(0);
	pm_swap(s, 0);
	EXPECT_EQ(NVPC_QUAD_EMPTY, st);
	EXPECT_EQ(NVPC_QUAD_EMPTY, QSTATE(0));
	EXPECT_EQ(cyc2, RD(NVPC_NV40_CTR_CYCLES(0)));
	nvpc_sim_fault_no_swap(s, 0, false);
	pm_swap(s, 0);
	EXPECT_EQ(NVPC_QUAD_VALID, QSTATE(0));
}

/* ---- hyperperiod extrapolation ---- */

TEST_F(sim, hyperperiod_quad)
{
	struct nvpc_sim *s = NEW(&chip_nv40_1);
	u64 n = variant->oracle ? 3000000 : 1000000000;

	/*
	 * EVENT = sig 2 (c % 3 == 0), PRE = sig 3 ((c % 7) < 2), hyperperiod
	 * 21. In [0, n): EVENT ceil(n / 3); PRE 2 floor(n / 7) + min(n % 7,
	 * 2). n = 1e9: 333333334 and 285714286; n = 3e6: 1000000 and
	 * 857144 (3e6 = 7 * 428571 + 3 -> 2 * 428571 + 2).
	 */
	wper(s, 0, 2, 3, 1, 0);
	wper(s, 0, 3, 7, 2, 0);
	WR(NVPC_NV40_CTRL(0), NV40_QUAD(0));
	WR(NVPC_NV40_EVENT_SRC(0), 2);
	WR(NVPC_NV40_EVENT_OP(0), NVPC_OP_ARG0);
	WR(NVPC_NV40_PRE_SRC(0), 3);
	WR(NVPC_NV40_PRE_OP(0), NVPC_OP_ARG0);
	ADV(0, n);
	pm_swap(s, 0);
	EXPECT_EQ(variant->oracle ? 1000000 : 333333334,
		  RD(NVPC_NV40_CTR_EVENT(0)));
	EXPECT_EQ(variant->oracle ? 857144 : 285714286,
		  RD(NVPC_NV40_CTR_PRE(0)));
	EXPECT_EQ(nvpc_sim_truth(s, 0, 2, 0, n), RD(NVPC_NV40_CTR_EVENT(0)));
	if (variant->oracle)
		return;
	/* 1e12 cycles: EVENT 3.3e11 saturates at 0xffffffff */
	ADV(0, 1000000000000ULL);
	pm_swap(s, 0);
	EXPECT_EQ(0xffffffff, RD(NVPC_NV40_CTR_EVENT(0)));
	EXPECT_EQ(0xffffffff, RD(NVPC_NV40_CTR_CYCLES(0)));
}

TEST_HARNESS_MAIN
