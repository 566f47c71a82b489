// SPDX-License-Identifier: GPL-2.0
/*
 * NV10:NV40 chips: one domain on NV10:NV20, two on NV20:NV40
 * (pcounter.rst, Introduction and "The PCOUNTER signals").
 *
 * No document gives these chips' signal counts or names any of their
 * signals. Each domain is given the smallest range that holds its trailer
 * (FLAG at base+0x1f, PM_TRIGGER at base+0x1d: trailer base 0, 0x20
 * signals) and marked NVPC_DOMAIN_ASSUMED.
 *
 * Chips: the Celsius, Kelvin and Rankine chipsets with PCOUNTER. Excluded
 * by envytools' pcounter/intro.rst, Introduction: NV11, NV1A, NV17, NV18.
 * Listed there as "pending a check": NV25, NV2A, NV30, NV36
 * (NVPC_CHIP_UNVERIFIED). NV1F (nForce 2 IGP) is named by no document and
 * left out. The chipset ids and the code names are the public ones
 * (envytools, gpu.rst).
 *
 * Clock rates are sim defaults chosen to be plausible for the chips, not
 * documented facts.
 */
#include "internal.h"

#define NV10_SRC_DOM	"pcounter.rst, Introduction: NV10:NV20 one domain; count assumed"
#define NV20_SRC_DOM	"pcounter.rst, Introduction: NV20:NV30 second domain on the memory clock; count assumed"

/*
 * The clock of NV10's only domain is not documented; PCOUNTER watches
 * PGRAPH there, so it is called "core".
 */
static const struct nvpc_domain_desc nv10_domains[] = {
	NVPC_DOM(0, "core", 0x20, 0x00, "core", 120000000, NVPC_DOMAIN_ASSUMED,
		 NV10_SRC_DOM),
};

static const struct nvpc_domain_desc nv15_domains[] = {
	NVPC_DOM(0, "core", 0x20, 0x00, "core", 200000000, NVPC_DOMAIN_ASSUMED,
		 NV10_SRC_DOM),
};

static const struct nvpc_domain_desc nv20_domains[] = {
	NVPC_DOM(0, "core", 0x20, 0x00, "core", 200000000, NVPC_DOMAIN_ASSUMED,
		 NV20_SRC_DOM),
	NVPC_DOM(1, "mem", 0x20, 0x00, "memory", 230000000, NVPC_DOMAIN_ASSUMED,
		 NV20_SRC_DOM),
};

static const struct nvpc_domain_desc nv30_domains[] = {
	NVPC_DOM(0, "core", 0x20, 0x00, "core", 400000000, NVPC_DOMAIN_ASSUMED,
		 NV20_SRC_DOM),
	NVPC_DOM(1, "mem", 0x20, 0x00, "memory", 425000000, NVPC_DOMAIN_ASSUMED,
		 NV20_SRC_DOM),
};

const struct nvpc_chip_desc nvpc_catalog_nv10_chips[] = {
	{ .chipset = 0x10, .name = "NV10", .alt_name = "NV10",
	  .gen = NVPC_GEN_NV10,
	  .domains = nv10_domains, .nr_domains = ARRAY_SIZE(nv10_domains) },
	{ .chipset = 0x15, .name = "NV15", .alt_name = "NV15",
	  .gen = NVPC_GEN_NV15,
	  .domains = nv15_domains, .nr_domains = ARRAY_SIZE(nv15_domains) },
	{ .chipset = 0x20, .name = "NV20", .alt_name = "NV20",
	  .gen = NVPC_GEN_NV20,
	  .domains = nv20_domains, .nr_domains = ARRAY_SIZE(nv20_domains) },
	{ .chipset = 0x25, .name = "NV25", .alt_name = "NV25",
	  .gen = NVPC_GEN_NV20, .flags = NVPC_CHIP_UNVERIFIED,
	  .domains = nv20_domains, .nr_domains = ARRAY_SIZE(nv20_domains) },
	{ .chipset = 0x28, .name = "NV28", .alt_name = "NV28",
	  .gen = NVPC_GEN_NV20,
	  .domains = nv20_domains, .nr_domains = ARRAY_SIZE(nv20_domains) },
	{ .chipset = 0x2a, .name = "NV2A", .alt_name = "NV2A",
	  .gen = NVPC_GEN_NV20, .flags = NVPC_CHIP_UNVERIFIED,
	  .domains = nv20_domains, .nr_domains = ARRAY_SIZE(nv20_domains) },
	{ .chipset = 0x30, .name = "NV30", .alt_name = "NV30",
	  .gen = NVPC_GEN_NV30, .flags = NVPC_CHIP_UNVERIFIED,
	  .domains = nv30_domains, .nr_domains = ARRAY_SIZE(nv30_domains) },
	{ .chipset = 0x31, .name = "NV31", .alt_name = "NV31",
	  .gen = NVPC_GEN_NV30,
	  .domains = nv30_domains, .nr_domains = ARRAY_SIZE(nv30_domains) },
	{ .chipset = 0x34, .name = "NV34", .alt_name = "NV34",
	  .gen = NVPC_GEN_NV30,
	  .domains = nv30_domains, .nr_domains = ARRAY_SIZE(nv30_domains) },
	{ .chipset = 0x35, .name = "NV35", .alt_name = "NV35",
	  .gen = NVPC_GEN_NV30,
	  .domains = nv30_domains, .nr_domains = ARRAY_SIZE(nv30_domains) },
	{ .chipset = 0x36, .name = "NV36", .alt_name = "NV36",
	  .gen = NVPC_GEN_NV30, .flags = NVPC_CHIP_UNVERIFIED,
	  .domains = nv30_domains, .nr_domains = ARRAY_SIZE(nv30_domains) },
};

const unsigned int nvpc_catalog_nv10_nr_chips =
	ARRAY_SIZE(nvpc_catalog_nv10_chips);
