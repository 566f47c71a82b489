// SPDX-License-Identifier: GPL-2.0
/*
 * The chip catalogue: lookup of chips and their domains. The tables live
 * in one file per family (nv10.c, nv40.c, g80.c, gf100.c).
 */
#include "internal.h"

struct nvpc_catalog_family {
	const struct nvpc_chip_desc *chips;
	const unsigned int *nr_chips;
};

static const struct nvpc_catalog_family nvpc_catalog_families[] = {
	{ nvpc_catalog_nv10_chips, &nvpc_catalog_nv10_nr_chips },
	{ nvpc_catalog_nv40_chips, &nvpc_catalog_nv40_nr_chips },
	{ nvpc_catalog_g80_chips, &nvpc_catalog_g80_nr_chips },
	{ nvpc_catalog_gf100_chips, &nvpc_catalog_gf100_nr_chips },
};

/**
 * nvpc_catalog_nr_chips() - number of chips in the catalogue
 *
 * Return: the number of chips; nvpc_catalog_chip() takes 0 .. this - 1.
 */
unsigned int nvpc_catalog_nr_chips(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(nvpc_catalog_families); i++)
		n += *nvpc_catalog_families[i].nr_chips;
	return n;
}
EXPORT_SYMBOL_GPL(nvpc_catalog_nr_chips);

/**
 * nvpc_catalog_chip() - iterate over the catalogue
 * @idx: position, from 0; chips come in hardware order (NV10 .. GK104)
 *
 * Return: the chip at @idx, or NULL past the end.
 */
const struct nvpc_chip_desc *nvpc_catalog_chip(unsigned int idx)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(nvpc_catalog_families); i++) {
		const struct nvpc_catalog_family *f = &nvpc_catalog_families[i];

		if (idx < *f->nr_chips)
			return &f->chips[idx];
		idx -= *f->nr_chips;
	}
	return NULL;
}
EXPORT_SYMBOL_GPL(nvpc_catalog_chip);

/**
 * nvpc_catalog_find() - look a chip up by chipset id
 * @chipset: PMC.BOOT_0 bits 20-28 (0x84 for G84, 0xe4 for GK104 ...)
 *
 * Return: the chip, or NULL when the catalogue does not know it.
 */
const struct nvpc_chip_desc *nvpc_catalog_find(u16 chipset)
{
	const struct nvpc_chip_desc *chip;
	unsigned int i;

	for (i = 0; (chip = nvpc_catalog_chip(i)); i++)
		if (chip->chipset == chipset)
			return chip;
	return NULL;
}
EXPORT_SYMBOL_GPL(nvpc_catalog_find);

/**
 * nvpc_catalog_gen_name() - the documents' name of a hardware revision
 * @gen: the revision
 *
 * Return: "NV10", "G84", "GF100" ..., or "?" for an unknown value.
 */
const char *nvpc_catalog_gen_name(enum nvpc_gen gen)
{
	static const char * const names[NVPC_GEN_COUNT] = {
		[NVPC_GEN_NV10] = "NV10",
		[NVPC_GEN_NV15] = "NV15",
		[NVPC_GEN_NV20] = "NV20",
		[NVPC_GEN_NV30] = "NV30",
		[NVPC_GEN_NV40] = "NV40",
		[NVPC_GEN_G84] = "G84",
		[NVPC_GEN_G92] = "G92",
		[NVPC_GEN_GT215] = "GT215",
		[NVPC_GEN_GF100] = "GF100",
	};

	return (unsigned int)gen < NVPC_GEN_COUNT ? names[gen] : "?";
}
EXPORT_SYMBOL_GPL(nvpc_catalog_gen_name);

/**
 * nvpc_catalog_dset_name() - short name of a domain set kind
 * @dset: the kind
 *
 * Return: "main", "hub", "gpc" or "part", or "?" for an unknown value.
 */
const char *nvpc_catalog_dset_name(enum nvpc_dset dset)
{
	switch (dset) {
	case NVPC_DSET_MAIN:
		return "main";
	case NVPC_DSET_HUB:
		return "hub";
	case NVPC_DSET_GPC:
		return "gpc";
	case NVPC_DSET_PART:
		return "part";
	}
	return "?";
}
EXPORT_SYMBOL_GPL(nvpc_catalog_dset_name);

/**
 * nvpc_catalog_nr_domains() - number of domains of one set of a chip
 * @chip: the chip
 * @dset: the domain set kind (for GF100+: of one GPC or one partition)
 *
 * Return: the number of domains, 0 when the chip has no such set.
 */
unsigned int nvpc_catalog_nr_domains(const struct nvpc_chip_desc *chip,
				     enum nvpc_dset dset)
{
	unsigned int i, n = 0;

	for (i = 0; i < chip->nr_domains; i++)
		if (chip->domains[i].dset == dset)
			n++;
	return n;
}
EXPORT_SYMBOL_GPL(nvpc_catalog_nr_domains);

/**
 * nvpc_catalog_domain() - one domain of a chip
 * @chip: the chip
 * @dset: the domain set kind
 * @index: the domain index inside the set
 *
 * Return: the domain, or NULL when the chip has no such domain.
 */
const struct nvpc_domain_desc *
nvpc_catalog_domain(const struct nvpc_chip_desc *chip, enum nvpc_dset dset,
		    unsigned int index)
{
	unsigned int i;

	for (i = 0; i < chip->nr_domains; i++) {
		const struct nvpc_domain_desc *dom = &chip->domains[i];

		if (dom->dset == dset && dom->index == index)
			return dom;
	}
	return NULL;
}
EXPORT_SYMBOL_GPL(nvpc_catalog_domain);
