// SPDX-License-Identifier: GPL-2.0
/*
 * Prints Documentation/events.rst from the chip catalogue, the one place
 * in the source that holds the chips' domains and named signals. `make
 * check` here fails when the committed document differs; `make docs`
 * rewrites it.
 */
#include <stdio.h>

#include <nvpcounter/catalog.h>

static const char *dset_prefix(const struct nvpc_chip_desc *chip, u8 dset)
{
	if (chip->gen < NVPC_GEN_GF100)
		return "main";
	return nvpc_catalog_dset_name(dset);
}

static void chip_section(const struct nvpc_chip_desc *chip)
{
	static const enum nvpc_dset sets[] = {
		NVPC_DSET_MAIN, NVPC_DSET_HUB, NVPC_DSET_GPC, NVPC_DSET_PART,
	};
	unsigned int s, i, n;
	struct nvpc_signal sig;
	char title[96];
	int len;

	len = snprintf(title, sizeof(title), "%s (%s, chipset 0x%02x, %s)",
		       chip->name, chip->alt_name, chip->chipset,
		       nvpc_catalog_gen_name(chip->gen));
	printf("%s\n", title);
	while (len--)
		putchar('-');
	printf("\n\nDomains (set.index name, clock, signals, trailer base; "
	       "source)::\n\n");
	for (s = 0; s < sizeof(sets) / sizeof(sets[0]); s++) {
		n = nvpc_catalog_nr_domains(chip, sets[s]);
		for (i = 0; i < n; i++) {
			const struct nvpc_domain_desc *d =
				nvpc_catalog_domain(chip, sets[s], i);

			if (!d)
				continue;
			printf("    %s.%u %s, %s, 0x%x, 0x%02x%s; %s\n",
			       dset_prefix(chip, d->dset), d->index,
			       d->name ? d->name : "-", d->clock, d->nr_signals,
			       d->trailer_base,
			       d->flags & NVPC_DOMAIN_ASSUMED ? " (assumed)" : "",
			       d->source);
		}
	}
	printf("\nevents/ (name: set.domain signal; document's name; "
	       "source)::\n\n");
	n = nvpc_catalog_nr_signals(chip);
	for (i = 0; i < n; i++) {
		if (nvpc_catalog_signal(chip, i, &sig))
			continue;
		printf("    %s: %s.%u 0x%02x; %s; %s\n", sig.name,
		       dset_prefix(chip, sig.dset), sig.domain, sig.id,
		       sig.doc ? sig.doc : "-", sig.source ? sig.source : "-");
	}
	printf("\n");
}

int main(void)
{
	unsigned int i;

	printf(".. SPDX-License-Identifier: GPL-2.0\n\n");
	printf("=====================================\n");
	printf("nvpcounter: chips, domains and events\n");
	printf("=====================================\n\n");
	printf("Generated from the chip catalogue (drivers/nvpcounter/catalog/)\n"
	       "by tools/testing/catalog/catalog_doc.c (``make -C\n"
	       "tools/testing/catalog docs``); the driver's events/ and domains/,\n"
	       "the sim's chips and this page all come from that one table.\n"
	       "Besides the names below, every PMU has one\n"
	       "``<set>d<index>_cycles`` event per domain.\n\n");
	for (i = 0; i < nvpc_catalog_nr_chips(); i++)
		chip_section(nvpc_catalog_chip(i));
	return 0;
}
