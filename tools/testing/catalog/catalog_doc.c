// SPDX-License-Identifier: GPL-2.0
/*
 * Prints Documentation/events.rst from the chip catalogue, the one place
 * in the source that holds the chips' domains and named signals. `make
 * check` here fails when the committed document differs; `make docs`
 * rewrites it.
 */
#include <stdio.h>

#include <nvpcounter/catalog.h>

static const char * const doc_header =
	".. SPDX-License-Identifier: GPL-2.0\n"
	"\n"
	"=====================================\n"
	"nvpcounter: chips, domains and events\n"
	"=====================================\n"
	"\n"
	"Generated from the chip catalogue (drivers/nvpcounter/catalog/)\n"
	"by tools/testing/catalog/catalog_doc.c (``make -C\n"
	"tools/testing/catalog docs``); the driver's events/ and domains/,\n"
	"the sim's chips and this page all come from that one table.\n"
	"\n"
	"Sources: ``pcounter.rst`` is envytools' PCOUNTER document and\n"
	"``pcounter/intro.rst`` its newer revision, ``pcounter/nv40.txt``\n"
	"envytools' NV40+ signal lists (envytools, hwdocs/); ``nvkm/engine/pm``\n"
	"is the PM engine of the Linux nouveau driver\n"
	"(drivers/gpu/drm/nouveau/nvkm/engine/pm/), whose tables give domains,\n"
	"signal counts and signal names.\n"
	"\n"
	"Domain names\n"
	"============\n"
	"\n"
	"A domain has one name, the same in sysfs (``domains/<name>/``), in the\n"
	"sim's debugfs (Documentation/sim.rst) and in the kernel log:\n"
	"\n"
	"- ``main.I``: domain I of a NV10:GF100 chip;\n"
	"- ``hub.I``: hub domain I of a GF100+ chip;\n"
	"- ``gpcG.I``: domain I of GPC G (GF100+);\n"
	"- ``partP.I``: domain I of memory partition P (GF100+).\n"
	"\n"
	"Every GPC (partition) of a chip has the same domains, listed below\n"
	"once as ``gpcG.I`` (``partP.I``). The catalogue name (``graph``,\n"
	"``host`` ...) and the clock name describe a domain; they are not names\n"
	"of it. The clock rates are the sim's defaults, not documented facts.\n"
	"\n"
	"Events\n"
	"======\n"
	"\n"
	"Besides the named signals below, every PMU has a cycles event for\n"
	"each main or hub domain and each domain index of its GPCs and\n"
	"partitions:\n"
	"``d<I>_cycles`` counts ``main.I``, ``hub_d<I>_cycles`` ``hub.I``,\n"
	"``gpc_d<I>_cycles`` ``gpcG.I`` and ``part_d<I>_cycles``\n"
	"``partP.I``. Events of per-GPC and per-partition domains (shown as\n"
	"``gpcG.I`` and ``partP.I`` below) count the domain in every present\n"
	"GPC (partition) and return the sum (config1 ``allunits``,\n"
	"perf.rst \"Whole-GPU counts\"); the perf field ``unit=`` picks one\n"
	"(``nvpcounter/gpc_d0_user_1,unit=2/`` counts ``gpc2.0``) and\n"
	"``oneunit`` GPC 0 alone (``nvpcounter/gpc_d0_user_1,oneunit/``).\n"
	"\n"
	"Left out of events/\n"
	"-------------------\n"
	"\n"
	"A few trailer signals would mean nothing as perf events; no event\n"
	"carries their name (each chip lists them under \"Not in events/\"),\n"
	"but a raw event with their signal id counts them as any other:\n"
	"\n"
	"- the swap trigger the driver pulses itself: PGRAPH PM_TRIGGER on\n"
	"  NV30:G84, whose quad-mode SWAP input is hardwired to it\n"
	"  (pcounter.rst, Input selection), and USER_0 on GF100+, which the\n"
	"  driver selects in SWAP_SRC and pulses through USER_TRIGGER\n"
	"  (nouveau's PM engine, nvkm/engine/pm/gf100.c). Such an event would\n"
	"  count the driver's own swaps.\n"
	"  PM_TRIGGER stays an event on NV20:NV30 (no quad mode) and on\n"
	"  G84:GF100 (a PRE_OP write swaps), where only others pulse it;\n"
	"- PERIODIC (G84+): its period is a CTRL field that no perf field sets,\n"
	"  so the driver leaves the generator disabled and the signal is 0\n"
	"  (pcounter.rst, The PERIODIC signal);\n"
	"- ZERO (NV40:GF100): 0 by definition.\n"
	"\n"
	"Chips\n"
	"=====\n"
	"\n";

/* "main.1", "hub.1", "gpcG.1", "partP.1": the domain's one name */
static void dom_name(char *buf, size_t len, u8 dset, unsigned int index)
{
	switch (dset) {
	case NVPC_DSET_GPC:
		snprintf(buf, len, "gpcG.%u", index);
		break;
	case NVPC_DSET_PART:
		snprintf(buf, len, "partP.%u", index);
		break;
	default:
		snprintf(buf, len, "%s.%u", nvpc_catalog_dset_name(dset),
			 index);
	}
}

/* The domain an event counts: in every unit for per-unit sets */
static void event_dom_name(char *buf, size_t len, u8 dset,
			   unsigned int index)
{
	if (dset == NVPC_DSET_GPC || dset == NVPC_DSET_PART)
		snprintf(buf, len, "%s%s.%u", nvpc_catalog_dset_name(dset),
			 dset == NVPC_DSET_GPC ? "G" : "P", index);
	else
		dom_name(buf, len, dset, index);
}

static void chip_section(const struct nvpc_chip_desc *chip)
{
	static const enum nvpc_dset sets[] = {
		NVPC_DSET_MAIN, NVPC_DSET_HUB, NVPC_DSET_GPC, NVPC_DSET_PART,
	};
	unsigned int s, i, n;
	struct nvpc_signal sig;
	char title[96], name[32];
	int len;

	len = snprintf(title, sizeof(title), "%s (%s, chipset 0x%02x, %s)",
		       chip->name, chip->alt_name, chip->chipset,
		       nvpc_catalog_gen_name(chip->gen));
	printf("%s\n", title);
	while (len--)
		putchar('-');
	printf("\n\nDomains (name: catalogue name, clock, sim clock in Hz, "
	       "signals, trailer base; source)::\n\n");
	for (s = 0; s < sizeof(sets) / sizeof(sets[0]); s++) {
		n = nvpc_catalog_nr_domains(chip, sets[s]);
		for (i = 0; i < n; i++) {
			const struct nvpc_domain_desc *d =
				nvpc_catalog_domain(chip, sets[s], i);

			if (!d)
				continue;
			dom_name(name, sizeof(name), d->dset, d->index);
			printf("    %s: %s, %s, %u, 0x%x, 0x%02x%s; %s\n", name,
			       d->name ? d->name : "-", d->clock, d->clock_hz,
			       d->nr_signals, d->trailer_base,
			       d->flags & NVPC_DOMAIN_ASSUMED ? " (assumed)" : "",
			       d->source);
		}
	}
	if (chip->gen >= NVPC_GEN_GF100)
		printf("\nThe sim's default: %u GPCs (G = 0 .. %u), %u partitions (P = 0 .. %u).\n",
		       chip->nr_gpc, chip->nr_gpc - 1, chip->nr_part,
		       chip->nr_part - 1);
	printf("\nevents/ (name: domain signal; document's name; "
	       "source)::\n\n");
	n = nvpc_catalog_nr_signals(chip);
	for (i = 0; i < n; i++) {
		if (nvpc_catalog_signal(chip, i, &sig))
			continue;
		event_dom_name(name, sizeof(name), sig.dset, sig.domain);
		printf("    %s: %s 0x%02x; %s; %s\n", sig.name, name, sig.id,
		       sig.doc ? sig.doc : "-", sig.source ? sig.source : "-");
	}
	if (!nvpc_catalog_unlisted(chip, 0, &sig)) {
		printf("\nNot in events/ (domain signal, document's name: "
		       "why)::\n\n");
		for (i = 0; !nvpc_catalog_unlisted(chip, i, &sig); i++) {
			dom_name(name, sizeof(name), sig.dset, sig.domain);
			printf("    %s 0x%02x, %s: %s\n", name, sig.id, sig.doc,
			       sig.unlisted);
		}
	}
	printf("\n");
}

int main(void)
{
	unsigned int i;

	fputs(doc_header, stdout);
	for (i = 0; i < nvpc_catalog_nr_chips(); i++)
		chip_section(nvpc_catalog_chip(i));
	return 0;
}
