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
 * by pcounter-rev2.txt, Introduction: NV11, NV1A, NV17, NV18. Listed
 * there as "pending a check": NV25, NV2A, NV30, NV36 (NVPC_CHIP_UNVERIFIED).
 * NV1F (nForce 2 IGP) is named by no document and left out. The chipset
 * ids and the code names are the public ones (envytools, gpu.rst).
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
	NVPC_DOM(0, "core", 0x00, "core", 120000000, NVPC_DOMAIN_ASSUMED,
		 NV10_SRC_DOM),
};

static const struct nvpc_domain_desc nv15_domains[] = {
	NVPC_DOM(0, "core", 0x00, "core", 200000000, NVPC_DOMAIN_ASSUMED,
		 NV10_SRC_DOM),
};

static const struct nvpc_domain_desc nv20_domains[] = {
	NVPC_DOM(0, "core", 0x00, "core", 200000000, NVPC_DOMAIN_ASSUMED,
		 NV20_SRC_DOM),
	NVPC_DOM(1, "mem", 0x00, "memory", 230000000, NVPC_DOMAIN_ASSUMED,
		 NV20_SRC_DOM),
};

static const struct nvpc_domain_desc nv30_domains[] = {
	NVPC_DOM(0, "core", 0x00, "core", 400000000, NVPC_DOMAIN_ASSUMED,
		 NV20_SRC_DOM),
	NVPC_DOM(1, "mem", 0x00, "memory", 425000000, NVPC_DOMAIN_ASSUMED,
		 NV20_SRC_DOM),
};

const struct nvpc_chip_desc nvpc_catalog_nv10_chips[] = {
	NVPC_CHIP_NOSIG(0x10, "NV10", "NV10", NV10, nv10_domains, 0),
	NVPC_CHIP_NOSIG(0x15, "NV15", "NV15", NV15, nv15_domains, 0),
	NVPC_CHIP_NOSIG(0x20, "NV20", "NV20", NV20, nv20_domains, 0),
	NVPC_CHIP_NOSIG(0x25, "NV25", "NV25", NV20, nv20_domains,
			NVPC_CHIP_UNVERIFIED),
	NVPC_CHIP_NOSIG(0x28, "NV28", "NV28", NV20, nv20_domains, 0),
	NVPC_CHIP_NOSIG(0x2a, "NV2A", "NV2A", NV20, nv20_domains,
			NVPC_CHIP_UNVERIFIED),
	NVPC_CHIP_NOSIG(0x30, "NV30", "NV30", NV30, nv30_domains,
			NVPC_CHIP_UNVERIFIED),
	NVPC_CHIP_NOSIG(0x31, "NV31", "NV31", NV30, nv30_domains, 0),
	NVPC_CHIP_NOSIG(0x34, "NV34", "NV34", NV30, nv30_domains, 0),
	NVPC_CHIP_NOSIG(0x35, "NV35", "NV35", NV30, nv30_domains, 0),
	NVPC_CHIP_NOSIG(0x36, "NV36", "NV36", NV30, nv30_domains,
			NVPC_CHIP_UNVERIFIED),
};

const unsigned int nvpc_catalog_nv10_nr_chips =
	ARRAY_SIZE(nvpc_catalog_nv10_chips);
