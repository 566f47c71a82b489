// SPDX-License-Identifier: GPL-2.0
/*
 * The host backend of the generation tests (gen_host.h): the sim model's
 * register file behind a struct nvpc_device, as the kernel's sim backend
 * has it, without a kernel.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_host.h"

/* the sim's word on the access in flight: does it know the register? */
static bool host_modelled;

static void host_sim_trace(void *ctx, u32 addr, u32 val, bool write,
			   bool modelled)
{
	host_modelled = modelled;
}

static void host_log(struct host_gpu *g, u32 addr, u32 val, bool write)
{
	struct host_access *a;

	if (g->nr_trace == HOST_TRACE_MAX) {
		g->lost++;
		return;
	}
	a = &g->trace[g->nr_trace++];
	a->addr = addr;
	a->val = val;
	a->write = write;
	a->modelled = host_modelled;
}

static u32 host_rd32(void *priv, u32 addr)
{
	struct host_gpu *g = priv;
	u32 val = nvpc_sim_rd32(g->sim, addr);

	host_log(g, addr, val, false);
	return val;
}

static void host_wr32(void *priv, u32 addr, u32 val)
{
	struct host_gpu *g = priv;

	nvpc_sim_wr32(g->sim, addr, val);
	host_log(g, addr, val, true);
}

static const struct nvpc_backend_ops host_ops = {
	.rd32 = host_rd32,
	.wr32 = host_wr32,
};

/* <linux/device.h> stand-in: the generation ops' dev_info() */
void host_dev_printk(const struct device *dev, const char *fmt, ...)
{
	struct host_gpu *g = (struct host_gpu *)((char *)dev -
						 offsetof(struct host_gpu, dev));
	va_list ap;

	g->logged++;
	va_start(ap, fmt);
	fprintf(stderr, "# %s: ", dev->name);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/**
 * host_gpu_init() - a simulated GPU and its hardware part
 * @g: the GPU, zeroed
 * @chip: the chip
 * @nr_gpc: GF100+: GPCs (0 before GF100)
 * @nr_part: GF100+: partitions
 *
 * The hardware part is what nvpc_engine_init() makes of it: the chip's
 * generation ops and its domains, enumerated by nvpc_hw_domains_init().
 * The generation's init is not run: a test runs it when it wants it.
 *
 * Return: 0, or -1 if the sim refuses the chip or the generation has no
 * ops.
 */
int host_gpu_init(struct host_gpu *g, const struct nvpc_chip_desc *chip,
		  u8 nr_gpc, u8 nr_part)
{
	struct nvpc_sim_params p = {
		.chip = chip, .nr_gpc = nr_gpc, .nr_part = nr_part,
	};
	size_t sz = nvpc_sim_size(&p);

	g->sim = calloc(1, sz);
	if (!g->sim || nvpc_sim_init(g->sim, sz, &p))
		return -1;
	nvpc_sim_set_trace(g->sim, host_sim_trace, g);
	g->dev.name = chip->name;
	g->ndev.dev = &g->dev;
	g->ndev.chip = chip;
	g->ndev.bus_id = "host";
	g->ndev.gpc_mask = nr_gpc ? (1U << nr_gpc) - 1 : 0;
	g->ndev.part_mask = nr_part ? (1U << nr_part) - 1 : 0;
	g->ndev.ops = &host_ops;
	g->ndev.priv = g;
	g->hw.ndev = &g->ndev;
	g->hw.dev = &g->dev;
	g->hw.name = "host";
	g->hw.chip = chip;
	g->hw.gen = nvpc_gen_ops_of(chip);
	if (!g->hw.gen)
		return -1;
	g->hw.domains = calloc(nvpc_hw_nr_domains(&g->hw),
			       sizeof(*g->hw.domains));
	if (!g->hw.domains)
		return -1;
	nvpc_hw_domains_init(&g->hw);
	return 0;
}

void host_gpu_fini(struct host_gpu *g)
{
	free(g->hw.domains);
	free(g->sim);
}

/* the hardware part of the domain called @name ("main.1", "gpc1.0" ...) */
struct nvpc_hw_domain *host_domain(struct host_gpu *g, const char *name)
{
	unsigned int i;

	for (i = 0; i < g->hw.nr_domains; i++)
		if (!strcmp(g->hw.domains[i].name, name))
			return &g->hw.domains[i];
	return NULL;
}

/* the sim's flat index of @dom */
int host_sim_domain(struct host_gpu *g, const struct nvpc_hw_domain *dom)
{
	enum nvpc_dset dset = NVPC_DSET_MAIN;

	if (g->hw.gen->unit_sets)
		dset = dom->dset == NVPC_DSET_ID_GPC ? NVPC_DSET_GPC :
		       dom->dset == NVPC_DSET_ID_PART ? NVPC_DSET_PART :
		       NVPC_DSET_HUB;
	return nvpc_sim_domain_find(g->sim, dset, dom->unit, dom->index);
}

void host_trace_reset(struct host_gpu *g)
{
	g->nr_trace = 0;
	g->lost = 0;
}

/* the position of the last write to @addr in the trace, -1 if none */
int host_last_write(const struct host_gpu *g, u32 addr)
{
	int i;

	for (i = g->nr_trace - 1; i >= 0; i--)
		if (g->trace[i].write && g->trace[i].addr == addr)
			return i;
	return -1;
}

/* the position of the first write to @addr in the trace, -1 if none */
int host_first_write(const struct host_gpu *g, u32 addr)
{
	unsigned int i;

	for (i = 0; i < g->nr_trace; i++)
		if (g->trace[i].write && g->trace[i].addr == addr)
			return i;
	return -1;
}

unsigned int host_writes_to(const struct host_gpu *g, u32 addr)
{
	unsigned int i, n = 0;

	for (i = 0; i < g->nr_trace; i++)
		n += g->trace[i].write && g->trace[i].addr == addr;
	return n;
}

/* what the sim's register at @addr reads now (not traced) */
u32 host_rd(struct host_gpu *g, u32 addr)
{
	return nvpc_sim_rd32(g->sim, addr);
}
