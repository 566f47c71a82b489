/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Chip descriptions: the hardware generations and the counter domains of
 * each chip. Shared contract between the chip catalogue (which fills these
 * in from envytools' PCOUNTER documents), the sim model (which builds a
 * GPU from one) and the driver (which exposes the domains through perf and
 * sysfs).
 */
#ifndef _NVPCOUNTER_CHIP_H
#define _NVPCOUNTER_CHIP_H

#include <nvpcounter/compat.h>

/**
 * enum nvpc_gen - PCOUNTER hardware revisions (pcounter.rst, Introduction)
 * @NVPC_GEN_NV10: NV10:NV15, one domain, single-event mode only
 * @NVPC_GEN_NV15: NV15:NV20, adds EVENT_CTR_PERIOD
 * @NVPC_GEN_NV20: NV20:NV30, two domains sharing one CTRL
 * @NVPC_GEN_NV30: NV30:NV40, quad mode, 32-bit saturating counters
 * @NVPC_GEN_NV40: NV40:G84, 8 domains, per-domain CTRL, new counter modes
 * @NVPC_GEN_G84: G84:G92, record mode, SPEC_SRC, PERIODIC, GCTRL
 * @NVPC_GEN_G92: G92:GT215, delayed-source replace bits, RECORD_ADDRESS_HIGH
 * @NVPC_GEN_GT215: GT215:GF100, USER signals
 * @NVPC_GEN_GF100: GF100+, hub/gpc/part domain sets
 * @NVPC_GEN_COUNT: number of generations
 *
 * The order is the order of the hardware: "gen >= NVPC_GEN_NV30" means
 * "NV30 and later", as the documents' [NV30-] annotations do.
 */
enum nvpc_gen {
	NVPC_GEN_NV10,
	NVPC_GEN_NV15,
	NVPC_GEN_NV20,
	NVPC_GEN_NV30,
	NVPC_GEN_NV40,
	NVPC_GEN_G84,
	NVPC_GEN_G92,
	NVPC_GEN_GT215,
	NVPC_GEN_GF100,
	NVPC_GEN_COUNT,
};

/**
 * enum nvpc_dset - domain set kinds (pcounter.rst, The PCOUNTER signals)
 * @NVPC_DSET_MAIN: the single domain set of NV10:GF100
 * @NVPC_DSET_HUB: GF100+ domains not tied to a GPC or partition
 * @NVPC_DSET_GPC: GF100+ per-GPC domain set
 * @NVPC_DSET_PART: GF100+ per-memory-partition domain set
 */
enum nvpc_dset {
	NVPC_DSET_MAIN,
	NVPC_DSET_HUB,
	NVPC_DSET_GPC,
	NVPC_DSET_PART,
};

/**
 * struct nvpc_domain_desc - one counter domain of a chip
 * @dset: domain set kind
 * @index: domain index inside its set (0..7)
 * @nr_signals: number of signals (STATUS bits) of the domain, at most 256
 * @trailer_base: signal id of the trailer base of the domain
 * @clock: clock name from the documents ("host", "core", "memory", ...)
 * @clock_hz: a plausible clock frequency, used as the sim's default
 * @name: short name of the domain ("host", "graph", "vdec", ...), taken
 *	from the set headers of envytools' pcounter/nv40.txt where it has one
 * @flags: NVPC_DOMAIN_* flags
 * @source: the document (and section) @nr_signals and @trailer_base come
 *	from, or how they were derived
 */
struct nvpc_domain_desc {
	u8 dset;
	u8 index;
	u16 nr_signals;
	u16 trailer_base;
	const char *clock;
	u32 clock_hz;
	const char *name;
	u8 flags;
	const char *source;
};

/*
 * No document gives this chip's signal count for the domain: it is a
 * placeholder (the smallest range that holds the trailer) or a sibling
 * chip's value. Good enough for the sim; treat with care on hardware.
 */
#define NVPC_DOMAIN_ASSUMED	BIT(0)

struct nvpc_signal_range;

/**
 * struct nvpc_chip_desc - one chipset
 * @chipset: PMC.BOOT_0 chipset id (bits 20-28), e.g. 0x84, 0xa3, 0xc0
 * @name: the name the documents use (e.g. "G84"), @alt_name the other one
 *	(e.g. "NV84")
 * @alt_name: see @name
 * @gen: hardware revision
 * @nr_domains: number of entries in @domains (for GF100+: the hub domains,
 *	then the domains of one GPC, then the domains of one partition, told
 *	apart by &nvpc_domain_desc.dset)
 * @domains: the domain descriptions
 * @nr_gpc: GF100+: number of GPCs the sim instantiates by default
 * @nr_part: GF100+: number of partitions the sim instantiates by default
 * @flags: NVPC_CHIP_* flags
 * @nr_ranges: number of entries in @ranges
 * @ranges: the chip's named signals as the documents list them (one entry
 *	per line or range of a list); the trailer signals are not listed,
 *	they follow from the generation and &nvpc_domain_desc.trailer_base
 */
struct nvpc_chip_desc {
	u16 chipset;
	const char *name;
	const char *alt_name;
	u8 gen;
	u8 nr_domains;
	const struct nvpc_domain_desc *domains;
	u8 nr_gpc;
	u8 nr_part;
	u8 flags;
	u16 nr_ranges;
	const struct nvpc_signal_range *ranges;
};

/*
 * pcounter.rst, Introduction: PCOUNTER presence on this chip is "pending
 * a check" (NV25, NV2A, NV30, NV36).
 */
#define NVPC_CHIP_UNVERIFIED	BIT(0)

#endif /* _NVPCOUNTER_CHIP_H */
