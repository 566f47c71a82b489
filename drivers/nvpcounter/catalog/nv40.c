// SPDX-License-Identifier: GPL-2.0
/*
 * NV40:G80 chips (Curie). Domain layouts from envytools' pcounter/nv40.txt,
 * introduction ("counter sets ... bound to appropriate clocks"):
 *
 * - without turbocache: 0 host, 1 core [PGRAPH front], 2 geometry [PGRAPH
 *   back], 3 shader, 4 memory;
 * - with turbocache, not IGP: 0 host, 1 core, 2 shader, 3 memory;
 * - IGP: 0 host, 1 core [PGRAPH], 2 core [shaders], 3 unknown (maybe the
 *   memory interface).
 *
 * Signal counts: nouveau's PM domain table (nvkm/engine/pm/nv40.c): 5
 * domains x 0x20 signals, unnamed. With 0x20 signals the trailer
 * (base+0x0e..0x1f) sits at base 0. No document gives the counts of the
 * turbocache and IGP layouts; they take the same 0x20 and are marked
 * NVPC_DOMAIN_ASSUMED.
 *
 * Which chip is turbocache or IGP, the chipset ids and code names are the
 * public ones (envytools, gpu.rst): NV44 and NV46 (G72) are turbocache;
 * NV4C, NV67, NV68, NV63 are IGPs. NV4E (C51) is left out: envytools'
 * pcounter/intro.rst, NV40 register table todo, "C51 has no PCOUNTER". NV4A
 * (NV44A, AGP) has no turbocache, so it takes the 5-domain layout.
 *
 * Clock rates are sim defaults, not documented facts.
 */
#include "internal.h"

#define NV40_SRC	"nouveau's PM domain tables (nvkm/engine/pm/nv40.c): NV40 5 x 0x20; envytools' pcounter/nv40.txt, counter sets"
#define NV40_SRC_TC	"envytools' pcounter/nv40.txt, counter sets: turbocache, not IGP; count assumed as NV40"
#define NV40_SRC_IGP	"envytools' pcounter/nv40.txt, counter sets: NV40 IGP; count assumed as NV40"

#define NV40_HOST_HZ	100000000
#define NV40_CORE_HZ	400000000
#define NV40_SHADER_HZ	400000000
#define NV40_MEM_HZ	550000000

static const struct nvpc_domain_desc nv40_domains[] = {
	NVPC_DOM(0, "host", 0x20, 0x00, "host", NV40_HOST_HZ, 0, NV40_SRC),
	NVPC_DOM(1, "graph", 0x20, 0x00, "core", NV40_CORE_HZ, 0, NV40_SRC),
	NVPC_DOM(2, "graph_back", 0x20, 0x00, "geometry", NV40_CORE_HZ, 0,
		 NV40_SRC),
	NVPC_DOM(3, "shader", 0x20, 0x00, "shader", NV40_SHADER_HZ, 0,
		 NV40_SRC),
	NVPC_DOM(4, "mem", 0x20, 0x00, "memory", NV40_MEM_HZ, 0, NV40_SRC),
};

static const struct nvpc_domain_desc nv44_domains[] = {
	NVPC_DOM(0, "host", 0x20, 0x00, "host", NV40_HOST_HZ,
		 NVPC_DOMAIN_ASSUMED, NV40_SRC_TC),
	NVPC_DOM(1, "graph", 0x20, 0x00, "core", NV40_CORE_HZ,
		 NVPC_DOMAIN_ASSUMED, NV40_SRC_TC),
	NVPC_DOM(2, "shader", 0x20, 0x00, "shader", NV40_SHADER_HZ,
		 NVPC_DOMAIN_ASSUMED, NV40_SRC_TC),
	NVPC_DOM(3, "mem", 0x20, 0x00, "memory", NV40_MEM_HZ,
		 NVPC_DOMAIN_ASSUMED, NV40_SRC_TC),
};

/* The IGPs have no memory of their own: domain 3 is "unknown". */
static const struct nvpc_domain_desc nv4c_domains[] = {
	NVPC_DOM(0, "host", 0x20, 0x00, "host", NV40_HOST_HZ,
		 NVPC_DOMAIN_ASSUMED, NV40_SRC_IGP),
	NVPC_DOM(1, "graph", 0x20, 0x00, "core", NV40_CORE_HZ,
		 NVPC_DOMAIN_ASSUMED, NV40_SRC_IGP),
	NVPC_DOM(2, "shader", 0x20, 0x00, "core", NV40_CORE_HZ,
		 NVPC_DOMAIN_ASSUMED, NV40_SRC_IGP),
	NVPC_DOM(3, "unknown", 0x20, 0x00, "unknown", NV40_CORE_HZ,
		 NVPC_DOMAIN_ASSUMED, NV40_SRC_IGP),
};

const struct nvpc_chip_desc nvpc_catalog_nv40_chips[] = {
	{ .chipset = 0x40, .name = "NV40", .alt_name = "NV40",
	  .gen = NVPC_GEN_NV40,
	  .domains = nv40_domains, .nr_domains = ARRAY_SIZE(nv40_domains) },
	{ .chipset = 0x41, .name = "NV41", .alt_name = "NV41",
	  .gen = NVPC_GEN_NV40,
	  .domains = nv40_domains, .nr_domains = ARRAY_SIZE(nv40_domains) },
	{ .chipset = 0x42, .name = "NV42", .alt_name = "NV42",
	  .gen = NVPC_GEN_NV40,
	  .domains = nv40_domains, .nr_domains = ARRAY_SIZE(nv40_domains) },
	{ .chipset = 0x43, .name = "NV43", .alt_name = "NV43",
	  .gen = NVPC_GEN_NV40,
	  .domains = nv40_domains, .nr_domains = ARRAY_SIZE(nv40_domains) },
	{ .chipset = 0x44, .name = "NV44", .alt_name = "NV44",
	  .gen = NVPC_GEN_NV40,
	  .domains = nv44_domains, .nr_domains = ARRAY_SIZE(nv44_domains) },
	{ .chipset = 0x45, .name = "NV45", .alt_name = "NV45",
	  .gen = NVPC_GEN_NV40,
	  .domains = nv40_domains, .nr_domains = ARRAY_SIZE(nv40_domains) },
	{ .chipset = 0x4a, .name = "NV44A", .alt_name = "NV4A",
	  .gen = NVPC_GEN_NV40,
	  .domains = nv40_domains, .nr_domains = ARRAY_SIZE(nv40_domains) },
	{ .chipset = 0x47, .name = "G70", .alt_name = "NV47",
	  .gen = NVPC_GEN_NV40,
	  .domains = nv40_domains, .nr_domains = ARRAY_SIZE(nv40_domains) },
	{ .chipset = 0x49, .name = "G71", .alt_name = "NV49",
	  .gen = NVPC_GEN_NV40,
	  .domains = nv40_domains, .nr_domains = ARRAY_SIZE(nv40_domains) },
	{ .chipset = 0x4b, .name = "G73", .alt_name = "NV4B",
	  .gen = NVPC_GEN_NV40,
	  .domains = nv40_domains, .nr_domains = ARRAY_SIZE(nv40_domains) },
	{ .chipset = 0x46, .name = "G72", .alt_name = "NV46",
	  .gen = NVPC_GEN_NV40,
	  .domains = nv44_domains, .nr_domains = ARRAY_SIZE(nv44_domains) },
	{ .chipset = 0x4c, .name = "MCP61", .alt_name = "NV4C",
	  .gen = NVPC_GEN_NV40,
	  .domains = nv4c_domains, .nr_domains = ARRAY_SIZE(nv4c_domains) },
	{ .chipset = 0x67, .name = "MCP67", .alt_name = "NV67",
	  .gen = NVPC_GEN_NV40,
	  .domains = nv4c_domains, .nr_domains = ARRAY_SIZE(nv4c_domains) },
	{ .chipset = 0x68, .name = "MCP68", .alt_name = "NV68",
	  .gen = NVPC_GEN_NV40,
	  .domains = nv4c_domains, .nr_domains = ARRAY_SIZE(nv4c_domains) },
	{ .chipset = 0x63, .name = "MCP73", .alt_name = "NV63",
	  .gen = NVPC_GEN_NV40,
	  .domains = nv4c_domains, .nr_domains = ARRAY_SIZE(nv4c_domains) },
};

const unsigned int nvpc_catalog_nv40_nr_chips =
	ARRAY_SIZE(nvpc_catalog_nv40_chips);
