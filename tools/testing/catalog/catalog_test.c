// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the chip catalogue: its internal consistency, and a
 * hand-checked sample of facts against envytools' PCOUNTER documents.
 */
#include <nvpcounter/catalog.h>

/* TEST() wrappers of kselftest_harness.h leave parameters unused. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"

static const struct nvpc_chip_desc *chip_of(struct __test_metadata *_metadata,
					    u16 chipset)
{
	const struct nvpc_chip_desc *chip = nvpc_catalog_find(chipset);

	if (!chip)
		TH_LOG("chipset 0x%x missing", chipset);
	return chip;
}

static int sig_id(const struct nvpc_chip_desc *chip, const char *name,
		  unsigned int domain)
{
	struct nvpc_signal sig;

	if (nvpc_catalog_signal_find(chip, name, &sig))
		return -1;
	if (sig.domain != domain)
		return -2;
	return sig.id;
}

/* The id of an unlisted signal of @domain, -1 if none has that name */
static int unlisted_id(const struct nvpc_chip_desc *chip, const char *name,
		       unsigned int domain, const char **why)
{
	struct nvpc_signal sig;
	unsigned int i;

	for (i = 0; !nvpc_catalog_unlisted(chip, i, &sig); i++)
		if (!strcmp(sig.name, name)) {
			if (sig.domain != domain)
				return -2;
			*why = sig.unlisted;
			return sig.id;
		}
	return -1;
}

static int trailer(const struct nvpc_chip_desc *chip, enum nvpc_dset dset,
		   unsigned int dom, enum nvpc_trailer what, unsigned int arg)
{
	return nvpc_catalog_trailer_id(chip,
				       nvpc_catalog_domain(chip, dset, dom),
				       what, arg);
}

TEST(every_chip_reachable_by_id)
{
	const struct nvpc_chip_desc *chip, *other;
	unsigned int i, j, n = nvpc_catalog_nr_chips();

	ASSERT_GE(n, 40U);
	ASSERT_EQ(NULL, nvpc_catalog_chip(n));
	for (i = 0; i < n; i++) {
		chip = nvpc_catalog_chip(i);
		ASSERT_NE(NULL, chip);
		EXPECT_EQ(chip, nvpc_catalog_find(chip->chipset));
		EXPECT_LT(chip->chipset, 0x200); /* PMC.BOOT_0 bits 20-28 */
		EXPECT_LT(chip->gen, NVPC_GEN_COUNT);
		EXPECT_NE(NULL, chip->name);
		EXPECT_NE(NULL, chip->alt_name);
		for (j = 0; j < i; j++) {
			other = nvpc_catalog_chip(j);
			EXPECT_NE(other->chipset, chip->chipset);
			/* hardware order */
			EXPECT_LE(other->gen, chip->gen);
		}
	}
	EXPECT_EQ(NULL, nvpc_catalog_find(0x11)); /* no PCOUNTER */
	EXPECT_EQ(NULL, nvpc_catalog_find(0x4e)); /* C51: no PCOUNTER */
	EXPECT_EQ(NULL, nvpc_catalog_find(0xffff));
}

TEST(domains_consistent)
{
	const struct nvpc_chip_desc *chip;
	unsigned int i, j, k;

	for (i = 0; (chip = nvpc_catalog_chip(i)); i++) {
		bool gf100 = chip->gen >= NVPC_GEN_GF100;
		unsigned int span = gf100 ? NVPC_TRAILER_SPAN_GF100 :
					    NVPC_TRAILER_SPAN;

		EXPECT_GE(chip->nr_domains, 1);
		if (gf100) {
			EXPECT_GE(chip->nr_gpc, 1);
			EXPECT_GE(chip->nr_part, 1);
		}
		for (j = 0; j < chip->nr_domains; j++) {
			const struct nvpc_domain_desc *d = &chip->domains[j];

			EXPECT_EQ(d, nvpc_catalog_domain(chip, d->dset,
							 d->index)) {
				TH_LOG("%s: duplicate domain %u", chip->name,
				       d->index);
			}
			EXPECT_EQ(gf100, d->dset != NVPC_DSET_MAIN);
			EXPECT_LT(d->index, 8);
			EXPECT_LE(d->nr_signals, 0x100);
			/* the trailer is the top of the range, 0x20-aligned */
			EXPECT_EQ(d->nr_signals, d->trailer_base + span) {
				TH_LOG("%s domain %u", chip->name, d->index);
			}
			EXPECT_EQ(0, d->trailer_base % 0x20);
			EXPECT_NE(NULL, d->clock);
			/* GF100+ domains have none (no document names one) */
			EXPECT_EQ(gf100, !d->name);
			EXPECT_NE(NULL, d->source);
			EXPECT_GT(d->clock_hz, 1000000U);
		}
		/* domain indices of a set are 0..n-1 */
		for (k = NVPC_DSET_MAIN; k <= NVPC_DSET_PART; k++)
			for (j = 0; j < nvpc_catalog_nr_domains(chip, k); j++)
				EXPECT_NE(NULL, nvpc_catalog_domain(chip, k, j));
	}
	/* domain counts per generation (pcounter.rst, the PCOUNTER signals) */
	EXPECT_EQ(1, nvpc_catalog_find(0x10)->nr_domains);
	EXPECT_EQ(1, nvpc_catalog_find(0x15)->nr_domains);
	EXPECT_EQ(2, nvpc_catalog_find(0x20)->nr_domains);
	EXPECT_EQ(2, nvpc_catalog_find(0x34)->nr_domains);
}

TEST(names_unique_and_ids_in_range)
{
	const struct nvpc_chip_desc *chip;
	struct nvpc_signal *sigs;
	unsigned int i, j, k, n;

	for (i = 0; (chip = nvpc_catalog_chip(i)); i++) {
		n = nvpc_catalog_nr_signals(chip);
		sigs = calloc(n + 1, sizeof(*sigs));
		ASSERT_NE(NULL, sigs);
		for (j = 0; j < n; j++) {
			const struct nvpc_domain_desc *d;
			const char *c;

			ASSERT_EQ(0, nvpc_catalog_signal(chip, j, &sigs[j]));
			d = nvpc_catalog_domain(chip, sigs[j].dset,
						sigs[j].domain);
			ASSERT_NE(NULL, d) {
				TH_LOG("%s %s: no domain", chip->name,
				       sigs[j].name);
			}
			EXPECT_LT(sigs[j].id, d->nr_signals) {
				TH_LOG("%s %s: id 0x%x >= 0x%x", chip->name,
				       sigs[j].name, sigs[j].id,
				       d->nr_signals);
			}
			/* not truncated, perf-friendly */
			EXPECT_LT(strlen(sigs[j].name),
				  (size_t)NVPC_SIGNAL_NAME_MAX - 1);
			for (c = sigs[j].name; *c; c++)
				EXPECT_TRUE((*c >= 'a' && *c <= 'z') ||
					    (*c >= '0' && *c <= '9') ||
					    *c == '_') {
					TH_LOG("%s: bad name %s", chip->name,
					       sigs[j].name);
				}
			EXPECT_NE(NULL, sigs[j].doc);
			EXPECT_NE(NULL, sigs[j].source);
			for (k = 0; k < j; k++) {
				EXPECT_NE(0, strcmp(sigs[k].name,
						    sigs[j].name)) {
					TH_LOG("%s: %s twice", chip->name,
					       sigs[j].name);
				}
				/* a document signal is never a trailer one */
				if (sigs[k].trailer != sigs[j].trailer &&
				    sigs[k].dset == sigs[j].dset &&
				    sigs[k].domain == sigs[j].domain)
					EXPECT_NE(sigs[k].id, sigs[j].id) {
						TH_LOG("%s: %s on trailer %s",
						       chip->name,
						       sigs[k].name,
						       sigs[j].name);
					}
			}
		}
		EXPECT_EQ(-ENOENT, nvpc_catalog_signal(chip, n, &sigs[n]));
		free(sigs);
	}
}

/*
 * nouveau's "trailer" signal ids (nvkm/engine/pm/nv50.c, g84.c, gt200.c,
 * gt215.c) are the first trailer signal (ZERO): domain 1 ee/ec/ec/ec,
 * domain 2 ee/8c/ec/cc for G80/G84/GT200/GT215.
 */
TEST(nouveau_first_trailer_ids)
{
	static const struct { u16 chipset; int d1, d2; } t[] = {
		{ 0x50, 0xee, 0xee }, { 0x84, 0xec, 0x8c },
		{ 0xa0, 0xec, 0xec }, { 0xa3, 0xec, 0xcc },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		const struct nvpc_chip_desc *chip = chip_of(_metadata,
							    t[i].chipset);

		ASSERT_NE(NULL, chip);
		EXPECT_EQ(t[i].d1, trailer(chip, NVPC_DSET_MAIN, 1,
					   NVPC_TRAILER_ZERO, 0));
		EXPECT_EQ(t[i].d2, trailer(chip, NVPC_DSET_MAIN, 2,
					   NVPC_TRAILER_ZERO, 0));
	}
}

/*
 * Signal counts. nouveau's PM domain table (nvkm/engine/pm/g84.c) gives G84
 * 0x20, 0xf0, 0xa0, 0x20 x5; envytools' documents win: host holds 0x2c
 * (NV84 list) -> 0x60, graph has its trailer at 0xe0 -> 0x100 (see g80.c).
 */
TEST(tesla_signal_counts)
{
	static const u16 g84[] = { 0x60, 0x100, 0xa0, 0x20, 0x20, 0x20, 0x20,
				   0x20 };
	static const u16 g80[] = { 0x40, 0x100, 0x100, 0x40, 0x40 };
	static const u16 g98[] = { 0x60, 0x100, 0xe0, 0x40, 0x60, 0x80, 0xc0,
				   0xc0 };
	static const u16 gt216[] = { 0x100, 0x100, 0xe0, 0x40, 0x80, 0x80,
				     0xe0, 0x100 };
	const struct nvpc_chip_desc *chip;
	unsigned int i;

	chip = chip_of(_metadata, 0x84);
	ASSERT_NE(NULL, chip);
	ASSERT_EQ(ARRAY_SIZE(g84), chip->nr_domains);
	for (i = 0; i < ARRAY_SIZE(g84); i++)
		EXPECT_EQ(g84[i], chip->domains[i].nr_signals);
	EXPECT_EQ(NVPC_GEN_G84, chip->gen);

	chip = chip_of(_metadata, 0x50);
	ASSERT_NE(NULL, chip);
	ASSERT_EQ(ARRAY_SIZE(g80), chip->nr_domains);
	for (i = 0; i < ARRAY_SIZE(g80); i++)
		EXPECT_EQ(g80[i], chip->domains[i].nr_signals);
	EXPECT_EQ(NVPC_GEN_NV40, chip->gen);

	chip = chip_of(_metadata, 0x98);
	ASSERT_NE(NULL, chip);
	ASSERT_EQ(ARRAY_SIZE(g98), chip->nr_domains);
	for (i = 0; i < ARRAY_SIZE(g98); i++)
		EXPECT_EQ(g98[i], chip->domains[i].nr_signals);

	chip = chip_of(_metadata, 0xa5);
	ASSERT_NE(NULL, chip);
	ASSERT_EQ(ARRAY_SIZE(gt216), chip->nr_domains);
	for (i = 0; i < ARRAY_SIZE(gt216); i++)
		EXPECT_EQ(gt216[i], chip->domains[i].nr_signals);
	EXPECT_EQ(NVPC_GEN_GT215, chip->gen);

	/* nvkm/engine/pm: GT215 domain 2 0xe0, G84 domain 2 0xa0 agree */
	EXPECT_EQ(0xe0, nvpc_catalog_find(0xa3)->domains[2].nr_signals);
	/* nvkm/engine/pm/nv40.c: NV40 5 domains x 0x20 */
	chip = chip_of(_metadata, 0x40);
	ASSERT_NE(NULL, chip);
	ASSERT_EQ(5, chip->nr_domains);
	for (i = 0; i < 5; i++)
		EXPECT_EQ(0x20, chip->domains[i].nr_signals);
}

/*
 * envytools' pcounter/nv40.txt: MCP7x (NV84+ IGP) 7 domains (no memory
 * domain); NVAC set 5 is vdec.
 */
TEST(mcp79_seven_domains)
{
	const struct nvpc_chip_desc *chip = chip_of(_metadata, 0xac);
	unsigned int i;

	ASSERT_NE(NULL, chip);
	EXPECT_EQ(7, chip->nr_domains);
	for (i = 0; i < chip->nr_domains; i++)
		EXPECT_NE(0, strcmp(chip->domains[i].clock, "memory"));
	EXPECT_STREQ("vdec", chip->domains[5].clock);
	EXPECT_EQ(0x9c, sig_id(chip, "pvp_user_0", 5));
	EXPECT_EQ(0xd6, sig_id(chip, "ctxctl_flag_1f", 1));
	EXPECT_EQ(0x53, sig_id(chip, "ptimer_time_b12", 0));
	EXPECT_EQ(7, nvpc_catalog_find(0xaa)->nr_domains);
}

TEST(graph_idle_per_chip)
{
	static const struct { u16 chipset; int id; } t[] = {
		{ 0x50, 0xc8 }, { 0x84, 0xbd }, { 0x86, 0xbd }, { 0x98, 0xbd },
		{ 0xa0, 0xc9 }, { 0xac, 0xc9 }, { 0xa3, 0xcb }, { 0xa5, 0xcb },
		{ 0xa8, 0xcb },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		const struct nvpc_chip_desc *chip = chip_of(_metadata,
							    t[i].chipset);

		ASSERT_NE(NULL, chip);
		EXPECT_EQ(t[i].id, sig_id(chip, "graph_idle", 1)) {
			TH_LOG("chipset 0x%x", t[i].chipset);
		}
	}
}

TEST(nouveau_named_signals)
{
	const struct nvpc_chip_desc *g80 = nvpc_catalog_find(0x50);
	const struct nvpc_chip_desc *g84 = nvpc_catalog_find(0x84);
	const struct nvpc_chip_desc *gt200 = nvpc_catalog_find(0xa0);
	const struct nvpc_chip_desc *gt215 = nvpc_catalog_find(0xa3);

	ASSERT_NE(NULL, g80);
	ASSERT_NE(NULL, g84);
	ASSERT_NE(NULL, gt200);
	ASSERT_NE(NULL, gt215);
	EXPECT_EQ(0x7f, sig_id(g80, "strmout_00", 1));
	EXPECT_EQ(0x80, sig_id(g80, "strmout_01", 1));
	EXPECT_EQ(0x80, sig_id(g80, "strmout_0", 1)); /* NV50 STRMOUT */
	EXPECT_EQ(0x3f, sig_id(g80, "vfetch_25", 1));
	EXPECT_EQ(0x3f, sig_id(g80, "vfetch_joe", 1));
	EXPECT_EQ(0x5f, sig_id(g84, "strmout_01", 1));
	EXPECT_EQ(0x5d, sig_id(g84, "vattr_01", 1));
	EXPECT_EQ(0x0c, sig_id(g84, "zcull_05", 1));
	EXPECT_EQ(0x7f, sig_id(g84, "vfetch_25", 1));
	EXPECT_EQ(0x07, sig_id(g84, "prop_07", 2));
	EXPECT_EQ(0x33, sig_id(g84, "crop_03", 2));
	EXPECT_EQ(0x44, sig_id(g84, "zrop_00", 2));
	EXPECT_EQ(0x78, sig_id(gt200, "tex_00", 2));
	EXPECT_EQ(0x64, sig_id(gt215, "crop_00", 2));
	EXPECT_EQ(0x83, sig_id(gt215, "tex_03", 2));
	EXPECT_EQ(0x46, sig_id(gt215, "vfetch_00", 1));
}

TEST(txt_named_signals)
{
	const struct nvpc_chip_desc *g80 = nvpc_catalog_find(0x50);
	const struct nvpc_chip_desc *g98 = nvpc_catalog_find(0x98);
	const struct nvpc_chip_desc *gt216 = nvpc_catalog_find(0xa5);

	ASSERT_NE(NULL, g80);
	ASSERT_NE(NULL, g98);
	ASSERT_NE(NULL, gt216);
	EXPECT_EQ(0x27, sig_id(g80, "ptimer_time_b12", 0));
	EXPECT_EQ(0x7e, sig_id(g80, "gsched_7", 1));
	EXPECT_EQ(0xd5, sig_id(g80, "ctxctl_flag_1f", 1));
	EXPECT_EQ(0xa6, sig_id(g80, "pvpe_29", 2));
	EXPECT_EQ(0x1a, sig_id(g80, "pfifo_host_memory_read_d0_1a", 0));
	EXPECT_EQ(0xc4, sig_id(g80, "pfifo_host_memory_read_d2_c4", 2));
	EXPECT_EQ(-1, sig_id(g80, "pfifo_host_memory_read", 0));
	EXPECT_EQ(0x4f, sig_id(g98, "zcull_d1_4f", 1));
	EXPECT_EQ(0x58, sig_id(g98, "zcull_d2_58", 2));
	EXPECT_EQ(0x4c, sig_id(g98, "pcrypt_user_5", 5));
	EXPECT_EQ(0xa1, sig_id(g98, "pvp_user_5", 6));
	EXPECT_EQ(0x8d, sig_id(g98, "pvp_wrcache_flush_2nd", 7));
	EXPECT_EQ(0x7e, sig_id(gt216, "pppp_31", 6));
	EXPECT_EQ(0xc5, sig_id(gt216, "pbsp_crypt_5", 6));
	EXPECT_EQ(0xa3, sig_id(gt216, "ptimer_time_b12", 0));
	EXPECT_EQ(0x07, sig_id(nvpc_catalog_find(0xa0), "pvp_user_7", 6));
}

TEST(trailer_signals)
{
	const struct nvpc_chip_desc *nv10 = nvpc_catalog_find(0x10);
	const struct nvpc_chip_desc *nv20 = nvpc_catalog_find(0x20);
	const struct nvpc_chip_desc *g80 = nvpc_catalog_find(0x50);
	const struct nvpc_chip_desc *g84 = nvpc_catalog_find(0x84);
	const struct nvpc_chip_desc *gf100 = nvpc_catalog_find(0xc0);
	const struct nvpc_chip_desc *gk104 = nvpc_catalog_find(0xe4);

	ASSERT_NE(NULL, nv10);
	ASSERT_NE(NULL, nv20);
	ASSERT_NE(NULL, g80);
	ASSERT_NE(NULL, g84);
	ASSERT_NE(NULL, gf100);
	ASSERT_NE(NULL, gk104);
	/* NV10:NV20 base+0x1f FLAG */
	EXPECT_EQ(0x1f, sig_id(nv10, "d0_dom0_flag", 0));
	EXPECT_EQ(-ENOENT, trailer(nv10, NVPC_DSET_MAIN, 0,
				   NVPC_TRAILER_PM_TRIGGER, 0));
	/* NV20:NV40 */
	EXPECT_EQ(0x1d, sig_id(nv20, "d1_pm_trigger", 1));
	EXPECT_EQ(0x1e, sig_id(nv20, "d0_dom1_flag", 0));
	EXPECT_EQ(-ENOENT, trailer(nv20, NVPC_DSET_MAIN, 0,
				   NVPC_TRAILER_EVENT, 0));
	/* NV40:G84: no PERIODIC, no WRCACHE_FLUSH */
	EXPECT_EQ(0xef, trailer(g80, NVPC_DSET_MAIN, 1,
				NVPC_TRAILER_PM_TRIGGER, 0));
	EXPECT_EQ(-ENOENT, trailer(g80, NVPC_DSET_MAIN, 1,
				   NVPC_TRAILER_PERIODIC, 0));
	EXPECT_EQ(0xf7, trailer(g80, NVPC_DSET_MAIN, 1,
				NVPC_TRAILER_EVENT, 0));
	EXPECT_EQ(-ENOENT, trailer(g80, NVPC_DSET_MAIN, 1,
				   NVPC_TRAILER_EVENT, 5));
	EXPECT_EQ(-EINVAL, trailer(g80, NVPC_DSET_MAIN, 1,
				   NVPC_TRAILER_FLAG, 8));
	/* G84:GF100 */
	EXPECT_EQ(0xed, trailer(g84, NVPC_DSET_MAIN, 1,
				NVPC_TRAILER_PERIODIC, 0));
	EXPECT_EQ(0xee, sig_id(g84, "d1_wrcache_flush", 1));
	EXPECT_EQ(0xef, sig_id(g84, "d1_pm_trigger", 1));
	EXPECT_EQ(0x58, sig_id(g84, "d0_dom7_flag", 0));
	EXPECT_EQ(0x5f, sig_id(g84, "d0_dom0_flag", 0));
	EXPECT_EQ(0x9e, sig_id(g84, "d2_dom1_flag", 2));
	EXPECT_EQ(0x10, sig_id(g84, "d3_dom7_event", 3));
	/* GF100+: USER_0 = count - 0x40 + 0x27 (nvkm/engine/pm/gf100.c) */
	EXPECT_EQ(0xc7, trailer(gf100, NVPC_DSET_GPC, 0,
				NVPC_TRAILER_USER, 0));
	EXPECT_EQ(0xc8, sig_id(gf100, "gpc_d0_user_1", 0));
	EXPECT_EQ(0xc7, trailer(gf100, NVPC_DSET_PART, 0,
				NVPC_TRAILER_USER, 0));
	EXPECT_EQ(-EINVAL, trailer(gf100, NVPC_DSET_PART, 0,
				   NVPC_TRAILER_USER, 4));
	EXPECT_EQ(-ENOENT, trailer(gf100, NVPC_DSET_PART, 0,
				   NVPC_TRAILER_PM_TRIGGER, 0));
	EXPECT_EQ(0x47, trailer(gk104, NVPC_DSET_HUB, 0,
				NVPC_TRAILER_USER, 0));
	EXPECT_EQ(0xbf, sig_id(gk104, "hub_d6_dom0_flag", 6));
	EXPECT_EQ(0x4e, trailer(gk104, NVPC_DSET_PART, 1,
				NVPC_TRAILER_PERIODIC, 0));
	EXPECT_EQ(0x27, trailer(gk104, NVPC_DSET_GPC, 2,
				NVPC_TRAILER_USER, 0));
	EXPECT_EQ(0x2c, sig_id(gk104, "gpc_d2_paused", 2));
	EXPECT_EQ(-1, sig_id(gk104, "no_such_signal", 0));
}

/*
 * Trailer signals left out of events/ (issue 12, defect 4), by hand from
 * the trailer tables (envytools' pcounter/intro.rst, Trailer signals): the
 * swap trigger of the generations that swap with it (PGRAPH PM_TRIGGER on
 * NV30:G84, the SWAP input hardwired to it; USER_0 on GF100+, nouveau's
 * nvkm/engine/pm/gf100.c: SWAP_SRC = USER_0 ... USER_TRIGGER), PERIODIC
 * (G84+; disabled without a period, which no perf field sets) and ZERO
 * (NV40+).
 * PM_TRIGGER stays an event where the driver does not swap with it:
 * NV20:NV30 (no quad mode) and G84:GF100 (PRE_OP writes swap).
 */
TEST(unlisted_signals)
{
	const struct nvpc_chip_desc *nv20 = chip_of(_metadata, 0x20);
	const struct nvpc_chip_desc *nv34 = chip_of(_metadata, 0x34);
	const struct nvpc_chip_desc *nv40 = chip_of(_metadata, 0x40);
	const struct nvpc_chip_desc *g80 = chip_of(_metadata, 0x50);
	const struct nvpc_chip_desc *g84 = chip_of(_metadata, 0x84);
	const struct nvpc_chip_desc *gt215 = chip_of(_metadata, 0xa3);
	const struct nvpc_chip_desc *gf100 = chip_of(_metadata, 0xc0);
	const struct nvpc_chip_desc *gk104 = chip_of(_metadata, 0xe4);
	const char *why = NULL;

	ASSERT_TRUE(nv20 && nv34 && nv40 && g80 && g84 && gt215 && gf100 &&
		    gk104);
	/* NV20:NV30: no quad mode, PM_TRIGGER is someone else's */
	EXPECT_EQ(0x1d, sig_id(nv20, "d1_pm_trigger", 1));
	EXPECT_EQ(-1, unlisted_id(nv20, "d1_pm_trigger", 1, &why));
	/* NV30:NV40: base 0 + 0x1d is the SWAP */
	EXPECT_EQ(-1, sig_id(nv34, "d1_pm_trigger", 1));
	EXPECT_EQ(0x1d, unlisted_id(nv34, "d1_pm_trigger", 1, &why));
	EXPECT_STREQ("counts the driver's own swaps", why);
	EXPECT_EQ(0x1f, sig_id(nv34, "d1_dom0_flag", 1));
	/* NV40:G84: ZERO base+0x0e, PM_TRIGGER base+0x0f */
	EXPECT_EQ(0x0f, unlisted_id(nv40, "d4_pm_trigger", 4, &why));
	EXPECT_EQ(0x0e, unlisted_id(nv40, "d4_zero", 4, &why));
	EXPECT_STREQ("always 0", why);
	EXPECT_EQ(0xef, unlisted_id(g80, "d1_pm_trigger", 1, &why));
	EXPECT_EQ(-1, sig_id(g80, "d1_pm_trigger", 1));
	EXPECT_EQ(0xc8, sig_id(g80, "graph_idle", 1));
	/* G84:GF100: ZERO base+0x0c, PERIODIC base+0x0d; base 0xe0 */
	EXPECT_EQ(0xec, unlisted_id(g84, "d1_zero", 1, &why));
	EXPECT_EQ(0xed, unlisted_id(g84, "d1_periodic", 1, &why));
	EXPECT_STREQ("0 while disabled; no perf field sets its period", why);
	EXPECT_EQ(-1, sig_id(g84, "d1_periodic", 1));
	EXPECT_EQ(0xef, sig_id(g84, "d1_pm_trigger", 1));
	EXPECT_EQ(0xee, sig_id(g84, "d1_wrcache_flush", 1));
	EXPECT_EQ(0xcd, unlisted_id(gt215, "d2_periodic", 2, &why));
	/* GF100+: USER_0 base+0x27, PERIODIC base+0x2e; base 0xa0 */
	EXPECT_EQ(0xc7, unlisted_id(gf100, "gpc_d0_user_0", 0, &why));
	EXPECT_STREQ("counts the driver's own swaps", why);
	EXPECT_EQ(0xce, unlisted_id(gf100, "part_d0_periodic", 0, &why));
	EXPECT_EQ(-1, sig_id(gf100, "gpc_d0_user_0", 0));
	EXPECT_EQ(0xc8, sig_id(gf100, "gpc_d0_user_1", 0));
	EXPECT_EQ(0xca, sig_id(gf100, "part_d0_user_3", 0));
	/* GK104 hub.6: 0xc0 signals, base 0x80 */
	EXPECT_EQ(0xa7, unlisted_id(gk104, "hub_d6_user_0", 6, &why));
	EXPECT_EQ(0xae, unlisted_id(gk104, "hub_d6_periodic", 6, &why));
	EXPECT_EQ(-1, unlisted_id(gk104, "hub_d6_user_1", 6, &why));
}

/*
 * The rule on every chip: no named signal sits on a swap trigger,
 * PERIODIC or ZERO id of its domain, and every such id is listed by
 * nvpc_catalog_unlisted() with its reason, under the generation's trailer
 * name (so a raw event with that id is still documented).
 */
TEST(unlisted_rule_every_chip)
{
	const struct nvpc_chip_desc *chip;
	unsigned int i, j, k;

	for (i = 0; (chip = nvpc_catalog_chip(i)); i++) {
		bool swap_pm = chip->gen == NVPC_GEN_NV30 ||
			       chip->gen == NVPC_GEN_NV40;
		struct nvpc_signal sig;
		unsigned int nr_unlisted = 0, want = 0;

		for (j = 0; j < chip->nr_domains; j++) {
			const struct nvpc_domain_desc *d = &chip->domains[j];
			int bad[4] = {
				nvpc_catalog_trailer_id(chip, d,
							NVPC_TRAILER_ZERO, 0),
				nvpc_catalog_trailer_id(chip, d,
							NVPC_TRAILER_PERIODIC,
							0),
				swap_pm ? nvpc_catalog_trailer_id(chip, d,
					NVPC_TRAILER_PM_TRIGGER, 0) : -1,
				nvpc_catalog_trailer_id(chip, d,
							NVPC_TRAILER_USER, 0),
			};

			for (k = 0; k < 4; k++) {
				unsigned int n;
				bool found = false;

				if (bad[k] < 0)
					continue;
				want++;
				for (n = 0; !nvpc_catalog_signal(chip, n, &sig);
				     n++)
					EXPECT_FALSE(sig.trailer &&
						     sig.dset == d->dset &&
						     sig.domain == d->index &&
						     sig.id == bad[k]) {
						TH_LOG("%s: %s is listed",
						       chip->name, sig.name);
					}
				for (n = 0;
				     !nvpc_catalog_unlisted(chip, n, &sig); n++)
					found |= sig.dset == d->dset &&
						 sig.domain == d->index &&
						 sig.id == bad[k];
				EXPECT_TRUE(found) {
					TH_LOG("%s domain %u: 0x%x not unlisted",
					       chip->name, d->index, bad[k]);
				}
			}
		}
		for (j = 0; !nvpc_catalog_unlisted(chip, j, &sig); j++) {
			struct nvpc_signal named;

			nr_unlisted++;
			EXPECT_TRUE(sig.trailer);
			EXPECT_NE(NULL, sig.unlisted);
			EXPECT_NE(NULL, sig.doc);
			EXPECT_EQ(-ENOENT,
				  nvpc_catalog_signal_find(chip, sig.name,
							   &named));
		}
		EXPECT_EQ(want, nr_unlisted) {
			TH_LOG("%s", chip->name);
		}
		/* every named one says nothing against it */
		for (j = 0; !nvpc_catalog_signal(chip, j, &sig); j++)
			EXPECT_EQ(NULL, sig.unlisted);
	}
}

/*
 * nouveau's nvkm/engine/pm/gk104.c, gf100.c: GK104 hub, gpc and part
 * domains; GF100 gpc 0 / part 0 0xe0
 */
TEST(fermi_kepler_domains)
{
	static const u16 hub[] = { 0x60, 0x40, 0x60, 0x60, 0x40, 0x60, 0xc0,
				   0x60 };
	const struct nvpc_chip_desc *chip = chip_of(_metadata, 0xe4);
	unsigned int i;

	ASSERT_NE(NULL, chip);
	EXPECT_EQ(NVPC_GEN_GF100, chip->gen);
	ASSERT_EQ(8U, nvpc_catalog_nr_domains(chip, NVPC_DSET_HUB));
	for (i = 0; i < ARRAY_SIZE(hub); i++)
		EXPECT_EQ(hub[i], nvpc_catalog_domain(chip, NVPC_DSET_HUB,
						      i)->nr_signals);
	ASSERT_EQ(3U, nvpc_catalog_nr_domains(chip, NVPC_DSET_GPC));
	EXPECT_EQ(0xe0, nvpc_catalog_domain(chip, NVPC_DSET_GPC,
					    0)->nr_signals);
	ASSERT_EQ(2U, nvpc_catalog_nr_domains(chip, NVPC_DSET_PART));
	EXPECT_EQ(0x60, nvpc_catalog_domain(chip, NVPC_DSET_PART,
					    1)->nr_signals);

	chip = chip_of(_metadata, 0xc0);
	ASSERT_NE(NULL, chip);
	EXPECT_EQ(0U, nvpc_catalog_nr_domains(chip, NVPC_DSET_HUB));
	EXPECT_EQ(0xe0, nvpc_catalog_domain(chip, NVPC_DSET_GPC,
					    0)->nr_signals);
	EXPECT_EQ(0xe0, nvpc_catalog_domain(chip, NVPC_DSET_PART,
					    0)->nr_signals);
	EXPECT_EQ(4, chip->nr_gpc);
	EXPECT_EQ(6, chip->nr_part);
}

TEST(names_of_generations_and_sets)
{
	EXPECT_STREQ("G84", nvpc_catalog_gen_name(NVPC_GEN_G84));
	EXPECT_STREQ("GF100", nvpc_catalog_gen_name(NVPC_GEN_GF100));
	EXPECT_STREQ("?", nvpc_catalog_gen_name(NVPC_GEN_COUNT));
	EXPECT_STREQ("gpc", nvpc_catalog_dset_name(NVPC_DSET_GPC));
}

TEST_HARNESS_MAIN
