// SPDX-License-Identifier: GPL-2.0
/*
 * Named signals of a chip: the document lists of the chip tables, then the
 * trailer signals of every domain, generated from the generation's trailer
 * layout (envytools' pcounter.rst and its newer revision,
 * pcounter/intro.rst: Trailer signals).
 *
 * A few trailer signals are left out of the named signals (and so out of
 * events/ and Documentation/events.rst's event lists), each with its
 * reason: the swap trigger the driver pulses itself, and the signals that
 * count 0 whatever the GPU does under this driver. Raw events still take
 * their ids; nvpc_catalog_unlisted() lists them.
 */
#include "internal.h"

/*
 * A trailer signal at a fixed offset from the trailer base; @unlisted says
 * why it is no named signal (NULL: it is one).
 */
struct nvpc_trailer_fixed {
	u8 what;
	u8 arg;
	u8 offset;
	const char *name;
	const char *doc;
	const char *unlisted;
};

/*
 * Why a trailer signal is no event. The driver swaps with PGRAPH PM_TRIGGER
 * on NV30:G84 and with USER_0 on GF100+ (DESIGN.md, Counting semantics;
 * nouveau's PM engine, nvkm/engine/pm/nv40.c and gf100.c): such an event
 * counts the driver's own swaps. PERIODIC needs a period in CTRL, which the
 * perf ABI cannot set: the driver leaves the generator disabled, a constant
 * 0 (pcounter.rst, The PERIODIC signal). ZERO is 0 by definition.
 */
#define NVPC_UNLISTED_SWAP	"counts the driver's own swaps"
#define NVPC_UNLISTED_PERIODIC	"0 while disabled; no perf field sets its period"
#define NVPC_UNLISTED_ZERO	"always 0"

/*
 * A generation's trailer: the fixed signals, then EVENT and FLAG of domain
 * x at event_top - x and flag_top - x (event_top 0: no EVENT signals).
 */
struct nvpc_trailer_layout {
	const struct nvpc_trailer_fixed *fixed;
	u8 nr_fixed;
	u8 event_top;
	u8 flag_top;
	const char *source;
};

/* NV10:NV20: base+0x1f PCOUNTER.FLAG; no fixed signal. */
static const struct nvpc_trailer_fixed nvpc_trailer_nv10[] = {};

/*
 * NV20:NV40: base+0x1d PM_TRIGGER, base+0x1e/0x1f DOM[1]/DOM[0].FLAG.
 * NV20:NV30 have no quad mode: nothing of the driver pulses PM_TRIGGER.
 */
static const struct nvpc_trailer_fixed nvpc_trailer_nv20[] = {
	{ NVPC_TRAILER_PM_TRIGGER, 0, 0x1d, "pm_trigger", "PGRAPH.PM_TRIGGER",
	  NULL },
};

/* NV30:NV40: the same; PM_TRIGGER is the quad-mode SWAP (Input selection) */
static const struct nvpc_trailer_fixed nvpc_trailer_nv30[] = {
	{ NVPC_TRAILER_PM_TRIGGER, 0, 0x1d, "pm_trigger", "PGRAPH.PM_TRIGGER",
	  NVPC_UNLISTED_SWAP },
};

/*
 * NV40:G84: envytools' pcounter/intro.rst gives base+0x0e as ZERO on
 * NV40:G84 and as WRCACHE_FLUSH only from G84; envytools' pcounter/nv40.txt
 * lists 0x0e as WRCACHE_FLUSH for all of NV40:NVC0. The newer revision is
 * followed; it also matches the G80 first trailer id "ee" (= 0xe0 + 0x0e)
 * of nouveau's PM signal names (nvkm/engine/pm/nv50.c).
 */
static const struct nvpc_trailer_fixed nvpc_trailer_nv40[] = {
	{ NVPC_TRAILER_ZERO, 0, 0x0e, "zero", "ZERO", NVPC_UNLISTED_ZERO },
	{ NVPC_TRAILER_PM_TRIGGER, 0, 0x0f, "pm_trigger", "PGRAPH.PM_TRIGGER",
	  NVPC_UNLISTED_SWAP },
};

/*
 * G84:GF100 (envytools' pcounter/intro.rst): ZERO, PERIODIC, WRCACHE_FLUSH
 * first. The driver swaps by PRE_OP writes here, so PM_TRIGGER counts only
 * the pulses of others (nouveau's PM engine, nvkm/engine/pm/nv40.c).
 */
static const struct nvpc_trailer_fixed nvpc_trailer_g84[] = {
	{ NVPC_TRAILER_ZERO, 0, 0x0c, "zero", "ZERO", NVPC_UNLISTED_ZERO },
	{ NVPC_TRAILER_PERIODIC, 0, 0x0d, "periodic", "PCOUNTER.PERIODIC",
	  NVPC_UNLISTED_PERIODIC },
	{ NVPC_TRAILER_WRCACHE_FLUSH, 0, 0x0e, "wrcache_flush",
	  "PGRAPH.WRCACHE_FLUSH", NULL },
	{ NVPC_TRAILER_PM_TRIGGER, 0, 0x0f, "pm_trigger", "PGRAPH.PM_TRIGGER",
	  NULL },
};

/*
 * GF100+: base+0x1f..0x26 (PCOUNTER.MAIN.???), 0x2d and 0x2f are unnamed
 * and left out. 0x2b is "PGRAPH - ???" in pcounter.rst and
 * PGRAPH.CTXCTL.UNK86C.UNK4 in envytools' pcounter/intro.rst (the newer
 * revision, more precise).
 */
static const struct nvpc_trailer_fixed nvpc_trailer_gf100[] = {
	{ NVPC_TRAILER_USER, 0, 0x27, "user_0", "PCOUNTER.USER_0",
	  NVPC_UNLISTED_SWAP },
	{ NVPC_TRAILER_USER, 1, 0x28, "user_1", "PCOUNTER.USER_1", NULL },
	{ NVPC_TRAILER_USER, 2, 0x29, "user_2", "PCOUNTER.USER_2", NULL },
	{ NVPC_TRAILER_USER, 3, 0x2a, "user_3", "PCOUNTER.USER_3", NULL },
	{ NVPC_TRAILER_CTXCTL_UNK86C, 0, 0x2b, "ctxctl_unk86c_unk4",
	  "PGRAPH.CTXCTL.UNK86C.UNK4", NULL },
	{ NVPC_TRAILER_PAUSED, 0, 0x2c, "paused", "PCOUNTER.PAUSED", NULL },
	{ NVPC_TRAILER_PERIODIC, 0, 0x2e, "periodic", "PCOUNTER.PERIODIC",
	  NVPC_UNLISTED_PERIODIC },
};

static const struct nvpc_trailer_layout nvpc_trailer_layouts[NVPC_GEN_COUNT] = {
	[NVPC_GEN_NV10] = {
		.fixed = nvpc_trailer_nv10,
		.nr_fixed = ARRAY_SIZE(nvpc_trailer_nv10),
		.event_top = 0,
		.flag_top = 0x1f,
		.source = "pcounter.rst, Trailer signals: NV10:NV20",
	},
	[NVPC_GEN_NV15] = {
		.fixed = nvpc_trailer_nv10,
		.nr_fixed = ARRAY_SIZE(nvpc_trailer_nv10),
		.event_top = 0,
		.flag_top = 0x1f,
		.source = "pcounter.rst, Trailer signals: NV10:NV20",
	},
	[NVPC_GEN_NV20] = {
		.fixed = nvpc_trailer_nv20,
		.nr_fixed = ARRAY_SIZE(nvpc_trailer_nv20),
		.event_top = 0,
		.flag_top = 0x1f,
		.source = "pcounter.rst, Trailer signals: NV20:NV40",
	},
	[NVPC_GEN_NV30] = {
		.fixed = nvpc_trailer_nv30,
		.nr_fixed = ARRAY_SIZE(nvpc_trailer_nv30),
		.event_top = 0,
		.flag_top = 0x1f,
		.source = "pcounter.rst, Trailer signals: NV20:NV40",
	},
	[NVPC_GEN_NV40] = {
		.fixed = nvpc_trailer_nv40,
		.nr_fixed = ARRAY_SIZE(nvpc_trailer_nv40),
		.event_top = 0x17,
		.flag_top = 0x1f,
		.source = "envytools' pcounter/intro.rst, Trailer signals: NV40:GF100",
	},
	[NVPC_GEN_G84] = {
		.fixed = nvpc_trailer_g84,
		.nr_fixed = ARRAY_SIZE(nvpc_trailer_g84),
		.event_top = 0x17,
		.flag_top = 0x1f,
		.source = "envytools' pcounter/intro.rst, Trailer signals: NV40:GF100",
	},
	[NVPC_GEN_G92] = {
		.fixed = nvpc_trailer_g84,
		.nr_fixed = ARRAY_SIZE(nvpc_trailer_g84),
		.event_top = 0x17,
		.flag_top = 0x1f,
		.source = "envytools' pcounter/intro.rst, Trailer signals: NV40:GF100",
	},
	[NVPC_GEN_GT215] = {
		.fixed = nvpc_trailer_g84,
		.nr_fixed = ARRAY_SIZE(nvpc_trailer_g84),
		.event_top = 0x17,
		.flag_top = 0x1f,
		.source = "envytools' pcounter/intro.rst, Trailer signals: NV40:GF100",
	},
	[NVPC_GEN_GF100] = {
		.fixed = nvpc_trailer_gf100,
		.nr_fixed = ARRAY_SIZE(nvpc_trailer_gf100),
		.event_top = 0x37,
		.flag_top = 0x3f,
		.source = "envytools' pcounter/intro.rst, Trailer signals: GF100+",
	},
};

static const struct nvpc_trailer_layout *
nvpc_trailer_layout(const struct nvpc_chip_desc *chip)
{
	return chip->gen < NVPC_GEN_COUNT ? &nvpc_trailer_layouts[chip->gen] :
					    NULL;
}

/* The fixed trailer signals that are named signals, or the unlisted ones */
static unsigned int nvpc_trailer_nr_fixed(const struct nvpc_trailer_layout *l,
					  bool unlisted)
{
	unsigned int i, n = 0;

	for (i = 0; i < l->nr_fixed; i++)
		n += !l->fixed[i].unlisted == !unlisted;
	return n;
}

/* The n-th of them (n < nvpc_trailer_nr_fixed()) */
static const struct nvpc_trailer_fixed *
nvpc_trailer_fixed_nth(const struct nvpc_trailer_layout *l, unsigned int n,
		       bool unlisted)
{
	unsigned int i;

	for (i = 0; i < l->nr_fixed; i++)
		if (!l->fixed[i].unlisted == !unlisted && !n--)
			return &l->fixed[i];
	return NULL;
}

/* Named trailer signals of one domain: fixed + EVENT/FLAG per domain. */
static unsigned int nvpc_trailer_count(const struct nvpc_chip_desc *chip,
				       const struct nvpc_trailer_layout *l,
				       const struct nvpc_domain_desc *dom)
{
	unsigned int doms = nvpc_catalog_nr_domains(chip, dom->dset);

	return nvpc_trailer_nr_fixed(l, false) + (l->event_top ? doms : 0) +
	       doms;
}

/**
 * nvpc_catalog_trailer_id() - signal id of a trailer signal in a domain
 * @chip: the chip
 * @dom: the domain (one of @chip's)
 * @what: which trailer signal
 * @arg: the source domain for EVENT and FLAG, the USER signal number for
 *	USER, 0 otherwise
 *
 * Return: the signal id (below the domain's signal count), -ENOENT when
 * the generation has no such signal or the set no such source domain,
 * -EINVAL for a bad @arg.
 */
int nvpc_catalog_trailer_id(const struct nvpc_chip_desc *chip,
			    const struct nvpc_domain_desc *dom,
			    enum nvpc_trailer what, unsigned int arg)
{
	const struct nvpc_trailer_layout *l = nvpc_trailer_layout(chip);
	unsigned int i;

	if (!l)
		return -ENOENT;
	if (what == NVPC_TRAILER_EVENT || what == NVPC_TRAILER_FLAG) {
		u8 top = what == NVPC_TRAILER_EVENT ? l->event_top : l->flag_top;

		if (arg >= 8)
			return -EINVAL;
		if (!top || arg >= nvpc_catalog_nr_domains(chip, dom->dset))
			return -ENOENT;
		return dom->trailer_base + top - arg;
	}
	for (i = 0; i < l->nr_fixed; i++)
		if (l->fixed[i].what == what && l->fixed[i].arg == arg)
			return dom->trailer_base + l->fixed[i].offset;
	if (what == NVPC_TRAILER_USER && arg >= 4)
		return -EINVAL;
	return -ENOENT;
}
EXPORT_SYMBOL_GPL(nvpc_catalog_trailer_id);

/* Bounded string building for names, without snprintf. */
struct nvpc_namebuf {
	char *s;
	unsigned int len;
};

static void nvpc_name_str(struct nvpc_namebuf *b, const char *str)
{
	while (*str && b->len < NVPC_SIGNAL_NAME_MAX - 1)
		b->s[b->len++] = *str++;
	b->s[b->len] = '\0';
}

static void nvpc_name_num(struct nvpc_namebuf *b, unsigned int v,
			  unsigned int base, unsigned int min_digits)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[12];
	unsigned int n = 0;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v && n < sizeof(tmp) - 1);
	while (n < min_digits && n < sizeof(tmp) - 1)
		tmp[n++] = '0';
	while (n && b->len < NVPC_SIGNAL_NAME_MAX - 1)
		b->s[b->len++] = tmp[--n];
	b->s[b->len] = '\0';
}

/* "d1" on NV10:GF100, "gpc_d0" on GF100+ */
static void nvpc_name_domain(struct nvpc_namebuf *b,
			     const struct nvpc_domain_desc *dom)
{
	if (dom->dset != NVPC_DSET_MAIN) {
		nvpc_name_str(b, nvpc_catalog_dset_name(dom->dset));
		nvpc_name_str(b, "_");
	}
	nvpc_name_str(b, "d");
	nvpc_name_num(b, dom->index, 10, 1);
}

static void nvpc_range_signal(const struct nvpc_signal_range *r,
			      unsigned int k, struct nvpc_signal *sig)
{
	struct nvpc_namebuf b = { sig->name, 0 };

	sig->dset = r->dset;
	sig->domain = r->domain;
	sig->id = r->first + k;
	sig->trailer = false;
	sig->doc = r->doc;
	sig->source = r->source;
	sig->unlisted = NULL;

	nvpc_name_str(&b, r->name);
	if (r->flags & NVPC_SIGR_SUFFIX) {
		nvpc_name_str(&b, "_d");
		nvpc_name_num(&b, r->domain, 10, 1);
		nvpc_name_str(&b, "_");
		nvpc_name_num(&b, sig->id, 16, 2);
	} else if (r->count > 1 || (r->flags & NVPC_SIGR_IDXHEX)) {
		nvpc_name_str(&b, "_");
		if (r->flags & NVPC_SIGR_IDXHEX)
			nvpc_name_num(&b, r->index0 + k, 16, 2);
		else
			nvpc_name_num(&b, r->index0 + k, 10,
				      r->flags & NVPC_SIGR_IDX2 ? 2 : 1);
	}
}

/* A fixed trailer signal of domain @dom */
static void nvpc_trailer_fixed_signal(const struct nvpc_trailer_layout *l,
				      const struct nvpc_domain_desc *dom,
				      const struct nvpc_trailer_fixed *f,
				      struct nvpc_signal *sig)
{
	struct nvpc_namebuf b = { sig->name, 0 };

	sig->dset = dom->dset;
	sig->domain = dom->index;
	sig->trailer = true;
	sig->source = l->source;
	sig->id = dom->trailer_base + f->offset;
	sig->doc = f->doc;
	sig->unlisted = f->unlisted;
	nvpc_name_domain(&b, dom);
	nvpc_name_str(&b, "_");
	nvpc_name_str(&b, f->name);
}

/* The n-th named trailer signal of @dom (n < nvpc_trailer_count()). */
static void nvpc_trailer_signal(const struct nvpc_chip_desc *chip,
				const struct nvpc_trailer_layout *l,
				const struct nvpc_domain_desc *dom,
				unsigned int n, struct nvpc_signal *sig)
{
	struct nvpc_namebuf b = { sig->name, 0 };
	unsigned int doms = nvpc_catalog_nr_domains(chip, dom->dset);
	unsigned int nr_fixed = nvpc_trailer_nr_fixed(l, false);

	if (n < nr_fixed) {
		nvpc_trailer_fixed_signal(l, dom,
					  nvpc_trailer_fixed_nth(l, n, false),
					  sig);
		return;
	}
	n -= nr_fixed;
	sig->dset = dom->dset;
	sig->domain = dom->index;
	sig->trailer = true;
	sig->source = l->source;
	sig->unlisted = NULL;
	nvpc_name_domain(&b, dom);
	nvpc_name_str(&b, "_");
	nvpc_name_str(&b, "dom");
	if (l->event_top && n < doms) {
		sig->id = dom->trailer_base + l->event_top - n;
		sig->doc = "PCOUNTER.DOM[x].EVENT";
		nvpc_name_num(&b, n, 10, 1);
		nvpc_name_str(&b, "_event");
		return;
	}
	if (l->event_top)
		n -= doms;
	sig->id = dom->trailer_base + l->flag_top - n;
	sig->doc = "PCOUNTER.DOM[x].FLAG";
	nvpc_name_num(&b, n, 10, 1);
	nvpc_name_str(&b, "_flag");
}

/**
 * nvpc_catalog_nr_signals() - number of named signals of a chip
 * @chip: the chip
 *
 * Counts the signals of the document lists and the trailer signals of
 * every domain; nvpc_catalog_signal() takes 0 .. this - 1.
 *
 * Return: the number of named signals.
 */
unsigned int nvpc_catalog_nr_signals(const struct nvpc_chip_desc *chip)
{
	const struct nvpc_trailer_layout *l = nvpc_trailer_layout(chip);
	unsigned int i, n = 0;

	for (i = 0; i < chip->nr_ranges; i++)
		n += chip->ranges[i].count;
	for (i = 0; l && i < chip->nr_domains; i++)
		n += nvpc_trailer_count(chip, l, &chip->domains[i]);
	return n;
}
EXPORT_SYMBOL_GPL(nvpc_catalog_nr_signals);

/**
 * nvpc_catalog_signal() - iterate over the named signals of a chip
 * @chip: the chip
 * @idx: position, from 0: the document lists in table order, then the
 *	trailer signals domain by domain
 * @sig: filled in with the signal
 *
 * Return: 0, or -ENOENT past the end.
 */
int nvpc_catalog_signal(const struct nvpc_chip_desc *chip, unsigned int idx,
			struct nvpc_signal *sig)
{
	const struct nvpc_trailer_layout *l = nvpc_trailer_layout(chip);
	unsigned int i;

	for (i = 0; i < chip->nr_ranges; i++) {
		if (idx < chip->ranges[i].count) {
			nvpc_range_signal(&chip->ranges[i], idx, sig);
			return 0;
		}
		idx -= chip->ranges[i].count;
	}
	for (i = 0; l && i < chip->nr_domains; i++) {
		const struct nvpc_domain_desc *dom = &chip->domains[i];
		unsigned int n = nvpc_trailer_count(chip, l, dom);

		if (idx < n) {
			nvpc_trailer_signal(chip, l, dom, idx, sig);
			return 0;
		}
		idx -= n;
	}
	return -ENOENT;
}
EXPORT_SYMBOL_GPL(nvpc_catalog_signal);

/**
 * nvpc_catalog_unlisted() - iterate over the trailer signals that are no
 *	named signal of a chip
 * @chip: the chip
 * @idx: position, from 0, domain by domain
 * @sig: filled in with the signal, &nvpc_signal.unlisted saying why it is
 *	left out of the named signals (events/)
 *
 * Their ids stay valid in raw events; only the names are left out.
 *
 * Return: 0, or -ENOENT past the end.
 */
int nvpc_catalog_unlisted(const struct nvpc_chip_desc *chip, unsigned int idx,
			  struct nvpc_signal *sig)
{
	const struct nvpc_trailer_layout *l = nvpc_trailer_layout(chip);
	unsigned int i, n = l ? nvpc_trailer_nr_fixed(l, true) : 0;

	for (i = 0; n && i < chip->nr_domains; i++) {
		if (idx < n) {
			nvpc_trailer_fixed_signal(l, &chip->domains[i],
						  nvpc_trailer_fixed_nth(l, idx,
									 true),
						  sig);
			return 0;
		}
		idx -= n;
	}
	return -ENOENT;
}
EXPORT_SYMBOL_GPL(nvpc_catalog_unlisted);

/**
 * nvpc_catalog_signal_find() - look a named signal of a chip up
 * @chip: the chip
 * @name: the signal's name ("graph_idle", "d1_pm_trigger" ...)
 * @sig: filled in with the signal when found
 *
 * A linear search, meant for setup paths (building events/, parsing).
 *
 * Return: 0, or -ENOENT when @chip has no signal of that name.
 */
int nvpc_catalog_signal_find(const struct nvpc_chip_desc *chip,
			     const char *name, struct nvpc_signal *sig)
{
	unsigned int i;

	for (i = 0; !nvpc_catalog_signal(chip, i, sig); i++)
		if (!strcmp(sig->name, name))
			return 0;
	return -ENOENT;
}
EXPORT_SYMBOL_GPL(nvpc_catalog_signal_find);
