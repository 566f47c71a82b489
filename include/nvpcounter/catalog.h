/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The chip catalogue: the one place for chip -> domains -> signals facts.
 * Freestanding: builds in the kernel and in userspace (via compat.h).
 */
#ifndef _NVPCOUNTER_CATALOG_H
#define _NVPCOUNTER_CATALOG_H

#include <nvpcounter/compat.h>
#include <nvpcounter/chip.h>

#ifdef __KERNEL__
#include <linux/errno.h>
#else
#include <errno.h>
#endif

/**
 * DOC: chip catalogue
 *
 * Every chipset envytools' PCOUNTER documents name has one
 * &struct nvpc_chip_desc: its domains with signal counts, trailer bases
 * and clocks, and its named signals.
 *
 * Signal names are lowercase, [a-z0-9_], made from the document's wording:
 *
 * - a single signal takes the normalised wording ("PGRAPH_IDLE" and
 *   nouveau's "gr_idle" are both "graph_idle");
 * - a range "0x77-0x7e: GSCHED" becomes gsched_0 .. gsched_7 (decimal index
 *   from the start of the range), unless the document numbers it itself
 *   (nouveau's "vfetch_00 ..", envytools' "CTXCTL flag 0x1c ..");
 * - when two lines of one chip would give the same name, each of them gets
 *   the suffix _d<domain>_<id in hex> instead of the range index
 *   (NVPC_SIGR_SUFFIX), e.g. zcull_d1_4f and zcull_d2_58 on G98;
 * - when two documents name the same signal id differently, both names are
 *   kept: they resolve to the same signal;
 * - trailer signals are generated per domain from the generation's trailer
 *   layout and carry the domain in front: d1_pm_trigger, d2_dom0_flag on
 *   NV10:GF100 (domain main.1, main.2), hub_d3_user_1, gpc_d0_paused,
 *   part_d1_dom0_event on GF100+ (the domain index inside its set, never a
 *   GPC or partition number: the event counts hub.3, gpc0.0, part0.1, and
 *   the perf field unit= picks another GPC or partition).
 *
 * Names are unique per chip (tools/testing/catalog checks it).
 *
 * Named signals are what events/ lists. Trailer signals that cannot mean
 * anything to a perf user are left out, each with its reason
 * (&nvpc_signal.unlisted, nvpc_catalog_unlisted()): the swap trigger the
 * driver pulses itself (PGRAPH PM_TRIGGER on NV30:G84, USER_0 on GF100+),
 * PERIODIC (its period is a CTRL field no perf field sets, so it stays
 * disabled, a constant 0) and ZERO. Raw events take their ids as any other.
 */

/*
 * NV10:GF100 trailer signals end at base+0x1f, the top of the domain's
 * signal range (pcounter.rst, Trailer signals): count = base + 0x20.
 */
#define NVPC_TRAILER_SPAN	0x20
/*
 * GF100+: base+0x1f .. base+0x3f, USER_0 = count - 0x40 + 0x27 (nouveau's
 * PM engine, nvkm/engine/pm/gf100.c)
 */
#define NVPC_TRAILER_SPAN_GF100	0x40

/* NVPC_SIGR_*: &nvpc_signal_range.flags */
/* append the range index as two decimal digits (nouveau's vfetch_00) */
#define NVPC_SIGR_IDX2		BIT(0)
/* append the range index as two hex digits (ctxctl_flag_1c) */
#define NVPC_SIGR_IDXHEX	BIT(1)
/* append _d<domain>_<id> instead of an index: the name clashes */
#define NVPC_SIGR_SUFFIX	BIT(2)

/**
 * struct nvpc_signal_range - one line of a document's signal list
 * @name: base name, already normalised
 * @doc: the document's own wording for the signal
 * @source: document and section the line comes from
 * @dset: domain set (&enum nvpc_dset)
 * @domain: domain index inside the set
 * @first: first signal id
 * @count: number of consecutive signals (1 for a single signal)
 * @index0: index given to @first when the range is numbered
 * @flags: NVPC_SIGR_* flags
 */
struct nvpc_signal_range {
	const char *name;
	const char *doc;
	const char *source;
	u8 dset;
	u8 domain;
	u8 first;
	u8 count;
	u8 index0;
	u8 flags;
};

/* Longest name a catalogue signal can have, NUL included. */
#define NVPC_SIGNAL_NAME_MAX	48

/**
 * struct nvpc_signal - one named signal of a chip, as the catalogue gives it
 * @name: unique (per chip) perf-friendly name
 * @dset: domain set (&enum nvpc_dset)
 * @domain: domain index inside the set
 * @id: signal id inside the domain, below the domain's signal count
 * @trailer: true for a trailer signal (generated from the trailer base)
 * @doc: the document's wording
 * @source: document and section
 * @unlisted: NULL for a named signal; for a signal nvpc_catalog_unlisted()
 *	gives, why it is no event
 */
struct nvpc_signal {
	char name[NVPC_SIGNAL_NAME_MAX];
	u8 dset;
	u8 domain;
	u16 id;
	bool trailer;
	const char *doc;
	const char *source;
	const char *unlisted;
};

/**
 * enum nvpc_trailer - trailer signals (envytools' pcounter.rst and
 *	pcounter/intro.rst, Trailer signals)
 * @NVPC_TRAILER_ZERO: always 0 [NV40:GF100]
 * @NVPC_TRAILER_PERIODIC: the domain's PERIODIC signal [G84-]
 * @NVPC_TRAILER_WRCACHE_FLUSH: PGRAPH.WRCACHE_FLUSH pulse [G84:GF100]
 * @NVPC_TRAILER_PM_TRIGGER: PGRAPH.PM_TRIGGER pulse [NV20:GF100]
 * @NVPC_TRAILER_EVENT: EVENT of domain @arg of the same set [NV40-]
 * @NVPC_TRAILER_FLAG: FLAG of domain @arg of the same set [NV10-]
 * @NVPC_TRAILER_USER: USER_@arg, @arg < 4 [GF100-]
 * @NVPC_TRAILER_CTXCTL_UNK86C: PGRAPH.CTXCTL.UNK86C.UNK4 [GF100-]
 * @NVPC_TRAILER_PAUSED: 1 while the domain is PAUSED [GF100-]
 */
enum nvpc_trailer {
	NVPC_TRAILER_ZERO,
	NVPC_TRAILER_PERIODIC,
	NVPC_TRAILER_WRCACHE_FLUSH,
	NVPC_TRAILER_PM_TRIGGER,
	NVPC_TRAILER_EVENT,
	NVPC_TRAILER_FLAG,
	NVPC_TRAILER_USER,
	NVPC_TRAILER_CTXCTL_UNK86C,
	NVPC_TRAILER_PAUSED,
};

unsigned int nvpc_catalog_nr_chips(void);
const struct nvpc_chip_desc *nvpc_catalog_chip(unsigned int idx);
const struct nvpc_chip_desc *nvpc_catalog_find(u16 chipset);
const char *nvpc_catalog_gen_name(enum nvpc_gen gen);
const char *nvpc_catalog_dset_name(enum nvpc_dset dset);

unsigned int nvpc_catalog_nr_domains(const struct nvpc_chip_desc *chip,
				     enum nvpc_dset dset);
const struct nvpc_domain_desc *
nvpc_catalog_domain(const struct nvpc_chip_desc *chip, enum nvpc_dset dset,
		    unsigned int index);

int nvpc_catalog_trailer_id(const struct nvpc_chip_desc *chip,
			    const struct nvpc_domain_desc *dom,
			    enum nvpc_trailer what, unsigned int arg);

unsigned int nvpc_catalog_nr_signals(const struct nvpc_chip_desc *chip);
int nvpc_catalog_signal(const struct nvpc_chip_desc *chip, unsigned int idx,
			struct nvpc_signal *sig);
int nvpc_catalog_unlisted(const struct nvpc_chip_desc *chip, unsigned int idx,
			  struct nvpc_signal *sig);
int nvpc_catalog_signal_find(const struct nvpc_chip_desc *chip,
			     const char *name, struct nvpc_signal *sig);

#endif /* _NVPCOUNTER_CATALOG_H */
