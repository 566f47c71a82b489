// SPDX-License-Identifier: GPL-2.0
/*
 * NV40:G80 chips (Curie). Domain layouts from nv40-pcounter-signals.txt,
 * introduction ("counter sets ... bound to appropriate clocks"):
 *
 * - without turbocache: 0 host, 1 core [PGRAPH front], 2 geometry [PGRAPH
 *   back], 3 shader, 4 memory;
 * - with turbocache, not IGP: 0 host, 1 core, 2 shader, 3 memory;
 * - IGP: 0 host, 1 core [PGRAPH], 2 core [shaders], 3 unknown (maybe the
 *   memory interface).
 *
 * Signal counts: FACTS.md "NV40: 5 domains x 0x20 signals, unnamed" (the
 * nouveau table). With 0x20 signals the trailer (base+0x0e..0x1f) sits at
 * base 0. No document gives the counts of the turbocache and IGP layouts;
 * they take the same 0x20 and are marked NVPC_DOMAIN_ASSUMED.
 *
 * Which chip is turbocache or IGP, the chipset ids and code names are the
 * public ones (envytools, gpu.rst): NV44 and NV46 (G72) are turbocache;
 * NV4C, NV67, NV68, NV63 are IGPs. NV4E (C51) is left out:
 * pcounter-rev2.txt, NV40 register table todo, "C51 has no PCOUNTER".
 * NV4A (NV44A, AGP) has no turbocache, so it takes the 5-domain layout.
 *
 * Clock rates are sim defaults, not documented facts.
 */
#include "internal.h"

#define NV40_SRC	"FACTS.md, Domains and signal counts: NV40 5 x 0x20; nv40-pcounter-signals.txt, counter sets"
#define NV40_SRC_TC	"nv40-pcounter-signals.txt, counter sets: turbocache, not IGP; count assumed as NV40"
#define NV40_SRC_IGP	"nv40-pcounter-signals.txt, counter sets: NV40 IGP; count assumed as NV40"

#define NV40_HOST_HZ	100000000
#define NV40_CORE_HZ	400000000
#define NV40_SHADER_HZ	400000000
#define NV40_MEM_HZ	550000000

static const struct nvpc_domain_desc nv40_domains[] = {
	NVPC_DOM(0, "host", 0x00, "host", NV40_HOST_HZ, 0, NV40_SRC),
	NVPC_DOM(1, "graph", 0x00, "core", NV40_CORE_HZ, 0, NV40_SRC),
	NVPC_DOM(2, "graph_back", 0x00, "geometry", NV40_CORE_HZ, 0,
		 NV40_SRC),
	NVPC_DOM(3, "shader", 0x00, "shader", NV40_SHADER_HZ, 0, NV40_SRC),
	NVPC_DOM(4, "mem", 0x00, "memory", NV40_MEM_HZ, 0, NV40_SRC),
};

static const struct nvpc_domain_desc nv44_domains[] = {
	NVPC_DOM(0, "host", 0x00, "host", NV40_HOST_HZ, NVPC_DOMAIN_ASSUMED,
		 NV40_SRC_TC),
	NVPC_DOM(1, "graph", 0x00, "core", NV40_CORE_HZ, NVPC_DOMAIN_ASSUMED,
		 NV40_SRC_TC),
	NVPC_DOM(2, "shader", 0x00, "shader", NV40_SHADER_HZ,
		 NVPC_DOMAIN_ASSUMED, NV40_SRC_TC),
	NVPC_DOM(3, "mem", 0x00, "memory", NV40_MEM_HZ, NVPC_DOMAIN_ASSUMED,
		 NV40_SRC_TC),
};

/* The IGPs have no memory of their own: domain 3 is "unknown". */
static const struct nvpc_domain_desc nv4c_domains[] = {
	NVPC_DOM(0, "host", 0x00, "host", NV40_HOST_HZ, NVPC_DOMAIN_ASSUMED,
		 NV40_SRC_IGP),
	NVPC_DOM(1, "graph", 0x00, "core", NV40_CORE_HZ, NVPC_DOMAIN_ASSUMED,
		 NV40_SRC_IGP),
	NVPC_DOM(2, "shader", 0x00, "core", NV40_CORE_HZ, NVPC_DOMAIN_ASSUMED,
		 NV40_SRC_IGP),
	NVPC_DOM(3, "unknown", 0x00, "unknown", NV40_CORE_HZ,
		 NVPC_DOMAIN_ASSUMED, NV40_SRC_IGP),
};

const struct nvpc_chip_desc nvpc_catalog_nv40_chips[] = {
	NVPC_CHIP_NOSIG(0x40, "NV40", "NV40", NV40, nv40_domains, 0),
	NVPC_CHIP_NOSIG(0x41, "NV41", "NV41", NV40, nv40_domains, 0),
	NVPC_CHIP_NOSIG(0x42, "NV42", "NV42", NV40, nv40_domains, 0),
	NVPC_CHIP_NOSIG(0x43, "NV43", "NV43", NV40, nv40_domains, 0),
	NVPC_CHIP_NOSIG(0x44, "NV44", "NV44", NV40, nv44_domains, 0),
	NVPC_CHIP_NOSIG(0x45, "NV45", "NV45", NV40, nv40_domains, 0),
	NVPC_CHIP_NOSIG(0x4a, "NV44A", "NV4A", NV40, nv40_domains, 0),
	NVPC_CHIP_NOSIG(0x47, "G70", "NV47", NV40, nv40_domains, 0),
	NVPC_CHIP_NOSIG(0x49, "G71", "NV49", NV40, nv40_domains, 0),
	NVPC_CHIP_NOSIG(0x4b, "G73", "NV4B", NV40, nv40_domains, 0),
	NVPC_CHIP_NOSIG(0x46, "G72", "NV46", NV40, nv44_domains, 0),
	NVPC_CHIP_NOSIG(0x4c, "MCP61", "NV4C", NV40, nv4c_domains, 0),
	NVPC_CHIP_NOSIG(0x67, "MCP67", "NV67", NV40, nv4c_domains, 0),
	NVPC_CHIP_NOSIG(0x68, "MCP68", "NV68", NV40, nv4c_domains, 0),
	NVPC_CHIP_NOSIG(0x63, "MCP73", "NV63", NV40, nv4c_domains, 0),
};

const unsigned int nvpc_catalog_nv40_nr_chips =
	ARRAY_SIZE(nvpc_catalog_nv40_chips);
