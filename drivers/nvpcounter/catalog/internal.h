/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the catalogue's tables: one file per family of chips
 * (nv10.c, nv40.c, g80.c, gf100.c), assembled by catalog.c.
 */
#ifndef _NVPC_CATALOG_INTERNAL_H
#define _NVPC_CATALOG_INTERNAL_H

#include <nvpcounter/catalog.h>

/* The modules share one copy of the catalogue: nvpcounter.ko exports it. */
#ifdef __KERNEL__
#include <linux/export.h>
#endif

/*
 * A domain. The tables give both the count and the trailer base; the host
 * tests check base == count - NVPC_TRAILER_SPAN (_GF100).
 */
#define NVPC_DOM_SET(_set, _idx, _name, _nr, _base, _clock, _hz, _flags,	\
		     _src)						\
	{								\
		.dset = (_set),						\
		.index = (_idx),					\
		.nr_signals = (_nr),					\
		.trailer_base = (_base),				\
		.clock = (_clock),					\
		.clock_hz = (_hz),					\
		.name = (_name),					\
		.flags = (_flags),					\
		.source = (_src),					\
	}
/* A NV10:GF100 domain (domain set MAIN). */
#define NVPC_DOM(_idx, _name, _nr, _base, _clock, _hz, _flags, _src)	\
	NVPC_DOM_SET(NVPC_DSET_MAIN, _idx, _name, _nr, _base, _clock, _hz, \
		     _flags, _src)

/* A line of a signal list of a NV10:GF100 chip (domain set MAIN). */
#define NVPC_SIGR(_dom, _first, _count, _name, _doc, _flags, _index0, _src) \
	{								\
		.name = (_name),					\
		.doc = (_doc),						\
		.source = (_src),					\
		.dset = NVPC_DSET_MAIN,					\
		.domain = (_dom),					\
		.first = (_first),					\
		.count = (_count),					\
		.index0 = (_index0),					\
		.flags = (_flags),					\
	}
/* A single named signal. */
#define NVPC_SIG1(_dom, _id, _name, _doc, _src)			\
	NVPC_SIGR(_dom, _id, 1, _name, _doc, 0, 0, _src)
/* A single named signal whose name clashes inside the chip. */
#define NVPC_SIG1X(_dom, _id, _name, _doc, _src)			\
	NVPC_SIGR(_dom, _id, 1, _name, _doc, NVPC_SIGR_SUFFIX, 0, _src)

/* Chip tables of each family, in hardware order. */
extern const struct nvpc_chip_desc nvpc_catalog_nv10_chips[];
extern const unsigned int nvpc_catalog_nv10_nr_chips;
extern const struct nvpc_chip_desc nvpc_catalog_nv40_chips[];
extern const unsigned int nvpc_catalog_nv40_nr_chips;
extern const struct nvpc_chip_desc nvpc_catalog_g80_chips[];
extern const unsigned int nvpc_catalog_g80_nr_chips;
extern const struct nvpc_chip_desc nvpc_catalog_gf100_chips[];
extern const unsigned int nvpc_catalog_gf100_nr_chips;

#endif /* _NVPC_CATALOG_INTERNAL_H */
