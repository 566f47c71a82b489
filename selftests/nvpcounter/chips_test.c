// SPDX-License-Identifier: GPL-2.0
/*
 * Every chip of the catalogue in the VM (issue 12, defect 12): each one is
 * created at its catalogue clocks on the manual clock, its PMU and
 * domains/ are checked, and one cycles event per domain plus one named
 * event count a known stretch exactly.
 *
 * The table below is Documentation/events.rst written out by hand: chip
 * name and chipset from each section title, the domains with their sim
 * clocks from its "Domains" lines (whole MHz on every chip), the named
 * events from its "events/" lines. It cannot silently shrink: the test
 * chipset_ids_are_the_table creates every other chipset id (PMC.BOOT_0
 * bits 20-28: 0 .. 0x1ff) and expects EINVAL (Documentation/sim.rst,
 * create), so a chip the catalogue gains fails there, one it loses fails
 * its own test.
 *
 * Expected counts (Documentation/sim.rst, "Time and clocks"): the
 * stretch is ADV0 + NR_PULSES * ADV cycles of the first domain d0, so
 * model time T = cycles(d0) / f0 and every domain d has processed the
 * cycles that started before T: ceil(cycles(d0) * f_d / f0). A cycles
 * event opened before that counts all of them in quad mode (NV30+); on
 * NV10:NV30 (single-event mode) the program start takes 3 cycles that are
 * not counted (Documentation/perf.rst, Counting). For cycles(d0) = 1001:
 * 575 MHz beside a 100 MHz d0 gives ceil(5755.75) = 5756, 230 beside
 * 200 MHz ceil(1151.15) = 1152 (NV20: 1149 after the start), 924 beside
 * 700 MHz ceil(1321.32) = 1322, 1006 beside 500 MHz ceil(2014.012) =
 * 2015.
 *
 * Named events, one per chip where the sim can drive one:
 * - WAVE: a document signal (graph_idle) with the waveform 1 in cycle c
 *   iff c % 10 < 3 (sim.rst, wave periodic 10 3 0); count = the cycles c
 *   of its domain, from the first counted one, with c % 10 < 3;
 * - PM: the PGRAPH PM_TRIGGER trailer signal where it is an event
 *   (NV20:NV30, G84:GF100), pulsed for one cycle of every domain by each
 *   write of sim.rst's pm_trigger file: count = NR_PULSES;
 * - USER1: USER_1 of a GF100+ domain, set for one cycle by a USER_TRIGGER
 *   write of 0x22 (value bit 1, pulse bit 5, pcounter.rst "The USER
 *   signals") at the domain base (envytools' rnndb, gf100_pcounter.xml) +
 *   0xec: count = NR_PULSES.
 * NV10, NV15, NV30:NV40 and NV40:G80 chips name only FLAG and EVENT
 * trailer signals, which no waveform or sim file drives: cycles only.
 */
#include "kselftest_harness.h"
#include "nvpc_perf.h"

#define GPU		4	/* the sim GPU id the tests use */
#define ADV0		101	/* d0 cycles before the first pulse */
#define ADV		180	/* d0 cycles after each pulse */
#define NR_PULSES	5
#define SINGLE_START	3	/* NV10:NV30 program start, perf.rst */

enum named_kind { NAMED_NONE, NAMED_WAVE, NAMED_PM, NAMED_USER1 };

struct set_want {
	const char *prefix;	/* main, hub, gpc, part; NULL ends a list */
	unsigned int dset;	/* perf dset field: 0 main/hub, 1 gpc, 2 part */
	unsigned int units;	/* GPCs or partitions; 0: no unit number */
	unsigned int nr;	/* domains per unit */
	unsigned int mhz[8];	/* clock of each domain */
};

struct named_want {
	enum named_kind kind;
	const char *event;	/* events/ name */
	const char *config;	/* its events/ string */
	const char *dom;	/* the domain it counts */
	unsigned int user_trigger; /* USER1: the domain's USER_TRIGGER */
};

static const struct set_want nv10_doms[] = { { "main", 0, 0, 1, { 120 } },
					     { NULL } };
static const struct set_want nv15_doms[] = { { "main", 0, 0, 1, { 200 } },
					     { NULL } };
static const struct set_want nv20_doms[] = {
	{ "main", 0, 0, 2, { 200, 230 } }, { NULL } };
static const struct set_want nv30_doms[] = {
	{ "main", 0, 0, 2, { 400, 425 } }, { NULL } };
static const struct set_want nv40_doms[] = {
	{ "main", 0, 0, 5, { 100, 400, 400, 400, 550 } }, { NULL } };
static const struct set_want nv44_doms[] = {
	{ "main", 0, 0, 4, { 100, 400, 400, 550 } }, { NULL } };
static const struct set_want nv4c_doms[] = {
	{ "main", 0, 0, 4, { 100, 400, 400, 400 } }, { NULL } };
static const struct set_want g80_doms[] = {
	{ "main", 0, 0, 5, { 100, 575, 575, 1350, 900 } }, { NULL } };
static const struct set_want tesla_doms[] = {
	{ "main", 0, 0, 8, { 100, 575, 575, 1350, 900, 575, 400, 575 } },
	{ NULL } };
static const struct set_want mcp7x_doms[] = {
	{ "main", 0, 0, 7, { 100, 575, 575, 1350, 575, 400, 575 } },
	{ NULL } };

/* GF100: 4 GPCs x gpc.0, 6 partitions x part.0 */
static const struct set_want gf100_doms[] = {
	{ "gpc", 1, 4, 1, { 700 } }, { "part", 2, 6, 1, { 924 } }, { NULL } };

/* GK104: 8 hub domains, 4 GPCs x 3, 4 partitions x 2 */
static const struct set_want gk104_doms[] = {
	{ "hub", 0, 0, 8, { 500, 500, 500, 500, 500, 500, 500, 500 } },
	{ "gpc", 1, 4, 3, { 1006, 1006, 1006 } },
	{ "part", 2, 4, 2, { 1502, 1502 } },
	{ NULL } };

/* PM_TRIGGER: trailer base 0 + 0x1d on NV20, base 0xe0 + 0x0f on G92 */
static const struct named_want nv20_pm0 = {
	.kind = NAMED_PM,
	.event = "d0_pm_trigger",
	.config = "dset=0,dom=0,sig0=0x1d",
	.dom = "main.0",
};

static const struct named_want nv20_pm1 = {
	.kind = NAMED_PM,
	.event = "d1_pm_trigger",
	.config = "dset=0,dom=1,sig0=0x1d",
	.dom = "main.1",
};

static const struct named_want g92_pm = {
	.kind = NAMED_PM,
	.event = "d1_pm_trigger",
	.config = "dset=0,dom=1,sig0=0xef",
	.dom = "main.1",
};

/* MCP77's graph domain: 0x20 signals, trailer base 0 */
static const struct named_want mcp77_pm = {
	.kind = NAMED_PM,
	.event = "d1_pm_trigger",
	.config = "dset=0,dom=1,sig0=0x0f",
	.dom = "main.1",
};

/* graph idle (nouveau's PM signal names; the chips' lists) */
static const struct named_want idle_c8 = {
	.kind = NAMED_WAVE,
	.event = "graph_idle",
	.config = "dset=0,dom=1,sig0=0xc8",
	.dom = "main.1",
};

static const struct named_want idle_bd = {
	.kind = NAMED_WAVE,
	.event = "graph_idle",
	.config = "dset=0,dom=1,sig0=0xbd",
	.dom = "main.1",
};

static const struct named_want idle_c9 = {
	.kind = NAMED_WAVE,
	.event = "graph_idle",
	.config = "dset=0,dom=1,sig0=0xc9",
	.dom = "main.1",
};

static const struct named_want idle_cb = {
	.kind = NAMED_WAVE,
	.event = "graph_idle",
	.config = "dset=0,dom=1,sig0=0xcb",
	.dom = "main.1",
};

/* USER_1 = trailer base + 0x28: gpc0.0 0xa0 + 0x28, base 0x180000 */
static const struct named_want gf100_user1 = {
	.kind = NAMED_USER1,
	.event = "gpc_d0_user_1",
	.config = "dset=1,dom=0,sig0=0xc8,allunits",
	.dom = "gpc0.0",
	.user_trigger = 0x1800ec,
};

/* hub.0: 0x60 signals, base 0x20 + 0x28 = 0x48; domain base 0x1b0000 */
static const struct named_want gk104_user1 = {
	.kind = NAMED_USER1,
	.event = "hub_d0_user_1",
	.config = "dset=0,dom=0,sig0=0x48",
	.dom = "hub.0",
	.user_trigger = 0x1b00ec,
};

/* Expected domains of a chip, in flat order (sim.rst, Domains). */
struct dom_want {
	char name[16];
	unsigned int dset, unit, index;
	unsigned long long hz;
};

static int chip_domains(const struct set_want *s, struct dom_want *d,
			int max)
{
	unsigned int u, i;
	int n = 0;

	for (; s->prefix; s++)
		for (u = 0; u < (s->units ? s->units : 1); u++)
			for (i = 0; i < s->nr && n < max; i++, n++) {
				if (s->units)
					snprintf(d[n].name, sizeof(d[n].name),
						 "%s%u.%u", s->prefix, u, i);
				else
					snprintf(d[n].name, sizeof(d[n].name),
						 "%s.%u", s->prefix, i);
				d[n].dset = s->dset;
				d[n].unit = u;
				d[n].index = i;
				d[n].hz = s->mhz[i] * 1000000ULL;
			}
	return n;
}

/* ceil(c0 * hz / hz0): cycles of a domain when d0 has run c0 */
static unsigned long long cycles_of(unsigned long long c0,
				    unsigned long long hz,
				    unsigned long long hz0)
{
	return (c0 * hz + hz0 - 1) / hz0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

FIXTURE(chips) {
	int created;
	int type;
	char pmu[PATH_MAX];
	int fd[64];
	int nr_fd;
};

/*
 * The table: one variant per chip of Documentation/events.rst, in its
 * order. chipset_ids_are_the_table walks this list.
 */
FIXTURE_VARIANT(chips) {
	const char *name;
	unsigned int chipset;
	int single;		/* NV10:NV30: single-event mode */
	const struct set_want *sets;
	const struct named_want *named;
};

FIXTURE_VARIANT_ADD(chips, nv10) {
	.name = "NV10", .chipset = 0x10, .single = 1, .sets = nv10_doms,
};

FIXTURE_VARIANT_ADD(chips, nv15) {
	.name = "NV15", .chipset = 0x15, .single = 1, .sets = nv15_doms,
};

FIXTURE_VARIANT_ADD(chips, nv20) {
	.name = "NV20", .chipset = 0x20, .single = 1, .sets = nv20_doms,
	.named = &nv20_pm0,
};

FIXTURE_VARIANT_ADD(chips, nv25) {
	.name = "NV25", .chipset = 0x25, .single = 1, .sets = nv20_doms,
	.named = &nv20_pm0,
};

FIXTURE_VARIANT_ADD(chips, nv28) {
	.name = "NV28", .chipset = 0x28, .single = 1, .sets = nv20_doms,
	.named = &nv20_pm1,
};

FIXTURE_VARIANT_ADD(chips, nv2a) {
	.name = "NV2A", .chipset = 0x2a, .single = 1, .sets = nv20_doms,
	.named = &nv20_pm1,
};

FIXTURE_VARIANT_ADD(chips, nv30) {
	.name = "NV30", .chipset = 0x30, .sets = nv30_doms,
};

FIXTURE_VARIANT_ADD(chips, nv31) {
	.name = "NV31", .chipset = 0x31, .sets = nv30_doms,
};

FIXTURE_VARIANT_ADD(chips, nv34) {
	.name = "NV34", .chipset = 0x34, .sets = nv30_doms,
};

FIXTURE_VARIANT_ADD(chips, nv35) {
	.name = "NV35", .chipset = 0x35, .sets = nv30_doms,
};

FIXTURE_VARIANT_ADD(chips, nv36) {
	.name = "NV36", .chipset = 0x36, .sets = nv30_doms,
};

FIXTURE_VARIANT_ADD(chips, nv40) {
	.name = "NV40", .chipset = 0x40, .sets = nv40_doms,
};

FIXTURE_VARIANT_ADD(chips, nv41) {
	.name = "NV41", .chipset = 0x41, .sets = nv40_doms,
};

FIXTURE_VARIANT_ADD(chips, nv42) {
	.name = "NV42", .chipset = 0x42, .sets = nv40_doms,
};

FIXTURE_VARIANT_ADD(chips, nv43) {
	.name = "NV43", .chipset = 0x43, .sets = nv40_doms,
};

FIXTURE_VARIANT_ADD(chips, nv44) {
	.name = "NV44", .chipset = 0x44, .sets = nv44_doms,
};

FIXTURE_VARIANT_ADD(chips, nv45) {
	.name = "NV45", .chipset = 0x45, .sets = nv40_doms,
};

FIXTURE_VARIANT_ADD(chips, nv44a) {
	.name = "NV44A", .chipset = 0x4a, .sets = nv40_doms,
};

FIXTURE_VARIANT_ADD(chips, g70) {
	.name = "G70", .chipset = 0x47, .sets = nv40_doms,
};

FIXTURE_VARIANT_ADD(chips, g71) {
	.name = "G71", .chipset = 0x49, .sets = nv40_doms,
};

FIXTURE_VARIANT_ADD(chips, g73) {
	.name = "G73", .chipset = 0x4b, .sets = nv40_doms,
};

FIXTURE_VARIANT_ADD(chips, g72) {
	.name = "G72", .chipset = 0x46, .sets = nv44_doms,
};

FIXTURE_VARIANT_ADD(chips, mcp61) {
	.name = "MCP61", .chipset = 0x4c, .sets = nv4c_doms,
};

FIXTURE_VARIANT_ADD(chips, mcp67) {
	.name = "MCP67", .chipset = 0x67, .sets = nv4c_doms,
};

FIXTURE_VARIANT_ADD(chips, mcp68) {
	.name = "MCP68", .chipset = 0x68, .sets = nv4c_doms,
};

FIXTURE_VARIANT_ADD(chips, mcp73) {
	.name = "MCP73", .chipset = 0x63, .sets = nv4c_doms,
};

FIXTURE_VARIANT_ADD(chips, g80) {
	.name = "G80", .chipset = 0x50, .sets = g80_doms,
	.named = &idle_c8,
};

FIXTURE_VARIANT_ADD(chips, g84) {
	.name = "G84", .chipset = 0x84, .sets = tesla_doms,
	.named = &idle_bd,
};

FIXTURE_VARIANT_ADD(chips, g86) {
	.name = "G86", .chipset = 0x86, .sets = tesla_doms,
	.named = &idle_bd,
};

FIXTURE_VARIANT_ADD(chips, g92) {
	.name = "G92", .chipset = 0x92, .sets = tesla_doms,
	.named = &g92_pm,
};

FIXTURE_VARIANT_ADD(chips, g94) {
	.name = "G94", .chipset = 0x94, .sets = tesla_doms,
	.named = &g92_pm,
};

FIXTURE_VARIANT_ADD(chips, g96) {
	.name = "G96", .chipset = 0x96, .sets = tesla_doms,
	.named = &g92_pm,
};

FIXTURE_VARIANT_ADD(chips, g98) {
	.name = "G98", .chipset = 0x98, .sets = tesla_doms,
	.named = &idle_bd,
};

FIXTURE_VARIANT_ADD(chips, gt200) {
	.name = "GT200", .chipset = 0xa0, .sets = tesla_doms,
	.named = &idle_c9,
};

FIXTURE_VARIANT_ADD(chips, mcp77) {
	.name = "MCP77", .chipset = 0xaa, .sets = mcp7x_doms,
	.named = &mcp77_pm,
};

FIXTURE_VARIANT_ADD(chips, mcp79) {
	.name = "MCP79", .chipset = 0xac, .sets = mcp7x_doms,
	.named = &idle_c9,
};

FIXTURE_VARIANT_ADD(chips, gt215) {
	.name = "GT215", .chipset = 0xa3, .sets = tesla_doms,
	.named = &idle_cb,
};

FIXTURE_VARIANT_ADD(chips, gt216) {
	.name = "GT216", .chipset = 0xa5, .sets = tesla_doms,
	.named = &idle_cb,
};

FIXTURE_VARIANT_ADD(chips, gt218) {
	.name = "GT218", .chipset = 0xa8, .sets = tesla_doms,
	.named = &idle_cb,
};

FIXTURE_VARIANT_ADD(chips, gf100) {
	.name = "GF100", .chipset = 0xc0, .sets = gf100_doms,
	.named = &gf100_user1,
};

FIXTURE_VARIANT_ADD(chips, gk104) {
	.name = "GK104", .chipset = 0xe4, .sets = gk104_doms,
	.named = &gk104_user1,
};

FIXTURE_SETUP(chips)
{
	self->created = 0;
	self->nr_fd = 0;
}

FIXTURE_TEARDOWN(chips)
{
	while (self->nr_fd)
		close(self->fd[--self->nr_fd]);
	if (self->created)
		sim_gpu_remove(GPU);
}

/* <pmu>/<rel> equals @want plus a newline */
static int pmu_file_is(const char *pmu, const char *rel, const char *want)
{
	char path[PATH_MAX], buf[256];

	snprintf(path, sizeof(path), "%s/%s", pmu, rel);
	if (nvpc_read_file(path, buf, sizeof(buf)) != (int)strlen(want) + 1)
		return 0;
	return !strncmp(buf, want, strlen(want)) && buf[strlen(want)] == '\n';
}

TEST_F_TIMEOUT(chips, counts_at_catalogue_clocks, 60)
{
	const struct named_want *nw = variant->named;
	struct dom_want dom[64];
	char names[64][16], want[64][16], rel[128], cmd[32], log[1024];
	unsigned long long c0, got, expect, named_expect = 0;
	unsigned int dset, dm, sig, i;
	int nr, n, k, named_fd = -1, first;
	struct dirent *de;
	DIR *dir;

	nr = chip_domains(variant->sets, dom, 64);
	ASSERT_LT(0, nr);
	/* by chipset id, so that the identifier proves the name */
	snprintf(cmd, sizeof(cmd), "0x%x clock=manual", variant->chipset);
	ASSERT_EQ(0, sim_gpu_create(GPU, cmd)) {
		TH_LOG("%s (chipset 0x%x) cannot be created", variant->name,
		       variant->chipset);
	}
	self->created = 1;
	self->type = nvpc_pmu_find(GPU, self->pmu, sizeof(self->pmu));
	ASSERT_LE(0, self->type);
	snprintf(rel, sizeof(rel), "%s sim.%d", variant->name, GPU);
	EXPECT_TRUE(pmu_file_is(self->pmu, "identifier", rel)) {
		TH_LOG("identifier is not \"%s\"", rel);
	}

	/* domains/: exactly the expected names, each at its clock */
	snprintf(rel, sizeof(rel), "%s/domains", self->pmu);
	dir = opendir(rel);
	ASSERT_NE(NULL, dir);
	n = 0;
	while ((de = readdir(dir)) && n < 64)
		if (de->d_name[0] != '.')
			snprintf(names[n++], sizeof(names[0]), "%s",
				 de->d_name);
	closedir(dir);
	for (k = 0; k < nr; k++)
		snprintf(want[k], sizeof(want[0]), "%s", dom[k].name);
	ASSERT_EQ(nr, n);
	qsort(names, n, sizeof(names[0]), cmp_str);
	qsort(want, nr, sizeof(want[0]), cmp_str);
	for (k = 0; k < nr; k++)
		EXPECT_STREQ(want[k], names[k]);
	for (k = 0; k < nr; k++) {
		snprintf(rel, sizeof(rel), "domains/%s/nominal_hz",
			 dom[k].name);
		EXPECT_EQ(dom[k].hz, nvpc_pmu_num(self->pmu, rel)) {
			TH_LOG("%s", dom[k].name);
		}
	}

	/* one cycles event per domain */
	for (k = 0; k < nr; k++) {
		int fd = nvpc_ev_open(self->type, CFG_CYCLES,
				      CFG1_DOM(dom[k].dset, dom[k].unit,
					       dom[k].index), 0, -1);

		ASSERT_LE(0, fd) {
			TH_LOG("%s: %s", dom[k].name, strerror(-fd));
		}
		self->fd[self->nr_fd++] = fd;
	}
	/* the named event, as events/ gives it */
	if (nw) {
		snprintf(rel, sizeof(rel), "events/%s", nw->event);
		ASSERT_TRUE(pmu_file_is(self->pmu, rel, nw->config)) {
			TH_LOG("%s is not %s", rel, nw->config);
		}
		n = sscanf(nw->config, "dset=%u,dom=%u,sig0=%x", &dset, &dm,
			   &sig);
		ASSERT_EQ(3, n);
		if (nw->kind == NAMED_WAVE)
			ASSERT_EQ(0, sim_wave(GPU, nw->dom, sig,
					      WAVE_PERIODIC(10, 3, 0)));
		/*
		 * a GF100+ GPC event sums every GPC (allunits): only
		 * gpc0.0's USER_1 is pulsed, the others' stay 0
		 */
		named_fd = nvpc_ev_open(self->type, CFG_SIG(0, sig),
					CFG1_DOM(dset, 0, dm) |
					(strstr(nw->config, ",allunits") ?
					 NVPC_CFG1_ALLUNITS : 0), 0, -1);
		ASSERT_LE(0, named_fd);
		self->fd[self->nr_fd++] = named_fd;
	}

	/* the stretch: ADV0 cycles of d0, then NR_PULSES x (pulse, ADV) */
	ASSERT_EQ(0, sim_advance(GPU, ADV0, dom[0].name));
	for (i = 0; i < NR_PULSES; i++) {
		if (nw && nw->kind == NAMED_PM)
			ASSERT_EQ(0, sim_cmd(GPU, "pm_trigger", "1"));
		if (nw && nw->kind == NAMED_USER1)
			ASSERT_EQ(0, sim_cmd(GPU, "reg", "0x%x 0x22",
					     nw->user_trigger));
		ASSERT_EQ(0, sim_advance(GPU, ADV, dom[0].name));
	}
	c0 = ADV0 + NR_PULSES * ADV;

	first = variant->single ? SINGLE_START : 0;
	log[0] = '\0';
	for (k = 0; k < nr; k++) {
		unsigned long long all = cycles_of(c0, dom[k].hz, dom[0].hz);
		struct nvpc_wave w = WAVE_PERIODIC(10, 3, 0);
		unsigned long long cyc;

		expect = all - first;
		snprintf(log + strlen(log), sizeof(log) - strlen(log),
			 " %s %llu", dom[k].name, expect);
		got = nvpc_ev_count(self->fd[k]);
		EXPECT_EQ(expect, got) {
			TH_LOG("%s cycles", dom[k].name);
		}
		if (nw && nw->kind == NAMED_WAVE && !strcmp(dom[k].name, nw->dom))
			for (cyc = first; cyc < all; cyc++)
				named_expect += nvpc_wave_at(&w, cyc);
	}
	TH_LOG("%s cycles:%s", variant->name, log);
	if (nw && nw->kind != NAMED_WAVE)
		named_expect = NR_PULSES;
	if (nw) {
		EXPECT_EQ(named_expect, nvpc_ev_count(named_fd)) {
			TH_LOG("%s", nw->event);
		}
		TH_LOG("%s: %d domains, %s expected %llu", variant->name, nr,
		       nw->event, named_expect);
	}
}

/*
 * The table is the catalogue: every chipset id (0 .. 0x1ff) that no
 * variant has is refused by create with EINVAL (sim.rst: "CHIP is a
 * catalogue name ... or a PMC.BOOT_0 chipset id"); the variants' own ids
 * are created by their tests.
 */
TEST(chipset_ids_are_the_table)
{
	const struct __fixture_variant_metadata *v;
	unsigned int id, nr = 0;
	int ret;

	ASSERT_EQ(0, sim_gpu_create(GPU, "nv10"));
	ASSERT_EQ(0, sim_gpu_remove(GPU));
	for (id = 0; id < 0x200; id++) {
		bool listed = false;

		for (v = _chips_fixture_object.variant; v; v = v->next) {
			listed |= id == ((const FIXTURE_VARIANT(chips) *)
					 v->data)->chipset;
			nr += !id;
		}
		if (listed)
			continue;
		ret = nvpc_write(NVPC_SIM_DIR "/create", "0x%x id=%d", id, GPU);
		if (!ret)
			sim_gpu_remove(GPU);
		EXPECT_EQ(-EINVAL, ret) {
			TH_LOG("chipset 0x%x: in the catalogue, not in the table",
			       id);
		}
	}
	TH_LOG("%u chips in the table", nr);
	EXPECT_LE(41, nr);
}

TEST_HARNESS_MAIN
