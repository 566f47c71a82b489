// SPDX-License-Identifier: GPL-2.0
/*
 * GF100+ chips: hub, per-GPC and per-partition domain sets
 * (pcounter.rst, "The PCOUNTER signals"). The primary documents leave the
 * GF100+ domains "write me"; nouveau's PM domain tables
 * (nvkm/engine/pm/gf100.c, gk104.c) fill the gap:
 *
 * - GF100: gpc domain 0 and part domain 0, 0xe0 signals each; no hub
 *   domain is listed, so none is given.
 * - GK104: hub 0x60, 0x40, 0x60, 0x60, 0x40, 0x60, 0xc0, 0x60; gpc 0xe0,
 *   0x20, 0x20; part 0x60, 0x60.
 *
 * The trailer base is count - 0x40 (the GF100+ trailer is base+0x1f ..
 * base+0x3f; nouveau's PM engine, nvkm/engine/pm/gf100.c: USER_0 =
 * count - 0x40 + 0x27). GK104's two 0x20 gpc domains cannot hold that
 * trailer (base -0x20, base+0x1f = -1): the 0x20 is nouveau's
 * placeholder for an unnamed domain, so they are given 0x40 signals
 * (base 0, the smallest count that holds the documented trailer) and
 * marked NVPC_DOMAIN_ASSUMED.
 *
 * No document names a GF100+ domain or its clock: the domains have no
 * catalogue name (their one name is hub.I, gpcG.I or partP.I, from the set
 * and index) and the clocks are named after the domain set. GPC and
 * partition counts are the public full-chip configurations (GF100:
 * 4 GPCs, 6 partitions; GK104: 4 GPCs, 4 partitions) and, like the clock
 * rates, only sim defaults.
 */
#include "internal.h"

#define SRC_GF100	"nouveau's PM domain tables (nvkm/engine/pm/gf100.c): GF100 gpc 0 and part 0 0xe0"
#define SRC_GK104	"nouveau's PM domain tables (nvkm/engine/pm/gk104.c): GK104"
#define SRC_GK104_A	"nouveau's PM domain tables (nvkm/engine/pm/gk104.c): GK104 gpc 0x20, raised to 0x40 to hold the GF100+ trailer"

#define GF100_HUB_HZ	500000000
#define GF100_GPC_HZ	700000000
#define GF100_PART_HZ	924000000
#define GK104_GPC_HZ	1006000000
#define GK104_PART_HZ	1502000000

static const struct nvpc_domain_desc gf100_domains[] = {
	NVPC_DOM_SET(NVPC_DSET_GPC, 0, NULL, 0xe0, 0xa0, "gpc",
		     GF100_GPC_HZ, 0, SRC_GF100),
	NVPC_DOM_SET(NVPC_DSET_PART, 0, NULL, 0xe0, 0xa0, "part",
		     GF100_PART_HZ, 0, SRC_GF100),
};

static const struct nvpc_domain_desc gk104_domains[] = {
	NVPC_DOM_SET(NVPC_DSET_HUB, 0, NULL, 0x60, 0x20, "hub",
		     GF100_HUB_HZ, 0, SRC_GK104),
	NVPC_DOM_SET(NVPC_DSET_HUB, 1, NULL, 0x40, 0x00, "hub",
		     GF100_HUB_HZ, 0, SRC_GK104),
	NVPC_DOM_SET(NVPC_DSET_HUB, 2, NULL, 0x60, 0x20, "hub",
		     GF100_HUB_HZ, 0, SRC_GK104),
	NVPC_DOM_SET(NVPC_DSET_HUB, 3, NULL, 0x60, 0x20, "hub",
		     GF100_HUB_HZ, 0, SRC_GK104),
	NVPC_DOM_SET(NVPC_DSET_HUB, 4, NULL, 0x40, 0x00, "hub",
		     GF100_HUB_HZ, 0, SRC_GK104),
	NVPC_DOM_SET(NVPC_DSET_HUB, 5, NULL, 0x60, 0x20, "hub",
		     GF100_HUB_HZ, 0, SRC_GK104),
	NVPC_DOM_SET(NVPC_DSET_HUB, 6, NULL, 0xc0, 0x80, "hub",
		     GF100_HUB_HZ, 0, SRC_GK104),
	NVPC_DOM_SET(NVPC_DSET_HUB, 7, NULL, 0x60, 0x20, "hub",
		     GF100_HUB_HZ, 0, SRC_GK104),
	NVPC_DOM_SET(NVPC_DSET_GPC, 0, NULL, 0xe0, 0xa0, "gpc",
		     GK104_GPC_HZ, 0, SRC_GK104),
	NVPC_DOM_SET(NVPC_DSET_GPC, 1, NULL, 0x40, 0x00, "gpc",
		     GK104_GPC_HZ, NVPC_DOMAIN_ASSUMED, SRC_GK104_A),
	NVPC_DOM_SET(NVPC_DSET_GPC, 2, NULL, 0x40, 0x00, "gpc",
		     GK104_GPC_HZ, NVPC_DOMAIN_ASSUMED, SRC_GK104_A),
	NVPC_DOM_SET(NVPC_DSET_PART, 0, NULL, 0x60, 0x20, "part",
		     GK104_PART_HZ, 0, SRC_GK104),
	NVPC_DOM_SET(NVPC_DSET_PART, 1, NULL, 0x60, 0x20, "part",
		     GK104_PART_HZ, 0, SRC_GK104),
};

/* No document names a GF100+ signal beyond the trailer. */
const struct nvpc_chip_desc nvpc_catalog_gf100_chips[] = {
	{
		.chipset = 0xc0,
		.name = "GF100",
		.alt_name = "NVC0",
		.gen = NVPC_GEN_GF100,
		.nr_domains = ARRAY_SIZE(gf100_domains),
		.domains = gf100_domains,
		.nr_gpc = 4,
		.nr_part = 6,
	},
	{
		.chipset = 0xe4,
		.name = "GK104",
		.alt_name = "NVE4",
		.gen = NVPC_GEN_GF100,
		.nr_domains = ARRAY_SIZE(gk104_domains),
		.domains = gk104_domains,
		.nr_gpc = 4,
		.nr_part = 4,
	},
};

const unsigned int nvpc_catalog_gf100_nr_chips =
	ARRAY_SIZE(nvpc_catalog_gf100_chips);
