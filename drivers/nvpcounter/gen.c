// SPDX-License-Identifier: GPL-2.0
/*
 * The generation interface (gen.h): a chip's table of functions, the
 * domains of a GPU and where their registers are, and the helpers the
 * tables share (nouveau's nv40 -> g84 reuse).
 */

#include <linux/device.h>
#include <linux/kernel.h>

#include "gen.h"

/**
 * nvpc_gen_ops_of() - the generation ops of a chip
 * @chip: the chip
 *
 * Return: the ops, NULL if the chip's generation cannot count yet.
 */
const struct nvpc_gen_ops *nvpc_gen_ops_of(const struct nvpc_chip_desc *chip)
{
	switch (chip->gen) {
	case NVPC_GEN_NV10:
		return &nvpc_gen_nv10;
	case NVPC_GEN_NV15:
	case NVPC_GEN_NV20:
		return &nvpc_gen_nv15;
	case NVPC_GEN_NV30:
		return &nvpc_gen_nv30;
	case NVPC_GEN_NV40:
		return &nvpc_gen_nv40;
	case NVPC_GEN_G84:
		return &nvpc_gen_g84;
	case NVPC_GEN_G92:
	case NVPC_GEN_GT215:
		return &nvpc_gen_g92;
	case NVPC_GEN_GF100:
		return &nvpc_gen_gf100;
	default:
		return NULL;
	}
}

/**
 * nvpc_dset_id_of() - the perf ABI's domain set id (NVPC_DSET_ID_*)
 * @dset: the catalogue's domain set
 *
 * Return: NVPC_DSET_ID_HUB for hub and pre-GF100 main domains, else the
 * GPC or partition id.
 */
u8 nvpc_dset_id_of(enum nvpc_dset dset)
{
	switch (dset) {
	case NVPC_DSET_GPC:
		return NVPC_DSET_ID_GPC;
	case NVPC_DSET_PART:
		return NVPC_DSET_ID_PART;
	default:
		return NVPC_DSET_ID_HUB;
	}
}

/**
 * nvpc_hw_nr_domains() - how many domains nvpc_hw_domains_init() may fill
 * @hw: the GPU: its @ndev, @chip and @gen set
 *
 * Return: the catalogue's main domains before GF100; GF100+ the hub
 * domains and those of every present GPC and partition.
 */
unsigned int nvpc_hw_nr_domains(const struct nvpc_hw *hw)
{
	const struct nvpc_chip_desc *chip = hw->chip;

	if (!hw->gen->unit_sets)
		return nvpc_catalog_nr_domains(chip, NVPC_DSET_MAIN);
	return nvpc_catalog_nr_domains(chip, NVPC_DSET_HUB) +
	       hweight32(hw->ndev->gpc_mask) *
	       nvpc_catalog_nr_domains(chip, NVPC_DSET_GPC) +
	       hweight32(hw->ndev->part_mask) *
	       nvpc_catalog_nr_domains(chip, NVPC_DSET_PART);
}

static void nvpc_hw_domains_add(struct nvpc_hw *hw, enum nvpc_dset dset,
				unsigned int unit)
{
	const struct nvpc_chip_desc *chip = hw->chip;
	unsigned int i, n = nvpc_catalog_nr_domains(chip, dset);

	for (i = 0; i < n; i++) {
		struct nvpc_hw_domain *dom = &hw->domains[hw->nr_domains];

		dom->desc = nvpc_catalog_domain(chip, dset, i);
		if (!dom->desc)
			continue;
		dom->dset = nvpc_dset_id_of(dset);
		dom->unit = unit;
		dom->index = dom->desc->index;
		if (dset == NVPC_DSET_MAIN || dset == NVPC_DSET_HUB)
			snprintf(dom->name, sizeof(dom->name), "%s.%u",
				 dset == NVPC_DSET_MAIN ? "main" : "hub",
				 dom->index);
		else
			snprintf(dom->name, sizeof(dom->name), "%s%u.%u",
				 dset == NVPC_DSET_GPC ? "gpc" : "part", unit,
				 dom->index);
		if (hw->gen->setup)
			hw->gen->setup(dom);
		hw->nr_domains++;
	}
}

/**
 * nvpc_hw_domains_init() - the domains of a GPU and their registers
 * @hw: the GPU: @domains zeroed, nvpc_hw_nr_domains() entries; no domain
 *	yet (@nr_domains 0)
 *
 * Before GF100 the catalogue's main domains; GF100+ the hub domains, then
 * those of each present GPC, then of each present partition, in unit
 * order. Each one's name, identity and (GF100+) register base.
 */
void nvpc_hw_domains_init(struct nvpc_hw *hw)
{
	unsigned int u;

	if (!hw->gen->unit_sets) {
		nvpc_hw_domains_add(hw, NVPC_DSET_MAIN, 0);
		return;
	}
	nvpc_hw_domains_add(hw, NVPC_DSET_HUB, 0);
	for (u = 0; u < 32; u++)
		if (hw->ndev->gpc_mask & BIT(u))
			nvpc_hw_domains_add(hw, NVPC_DSET_GPC, u);
	for (u = 0; u < 32; u++)
		if (hw->ndev->part_mask & BIT(u))
			nvpc_hw_domains_add(hw, NVPC_DSET_PART, u);
}

/**
 * nvpc_gen_read_ctrs() - read a quad-mode domain's visible counters
 * @hw: the GPU
 * @reg: the generation's counter registers (NVPC_SLOT_*, NVPC_CTR_CYCLES)
 * @offset: the domain's offset from them
 * @used: the counters to read (bits of @reg's indices)
 * @ctr: the values read
 *
 * Only after QUAD_STATE has said VALID (or OVERFLOW): a swap marks the
 * visible counters available in CTRL (pcounter.rst "Quad event mode"),
 * and it lands when the domain's next cycle runs after the trigger, which
 * may be between two of these reads if they came first: some counters
 * would then be the old set's (already counted) and the others the new.
 * Once the state has said it landed, no other swap comes while the
 * driver's trigger is its only source and it holds the lock.
 */
void nvpc_gen_read_ctrs(struct nvpc_hw *hw, const u32 reg[NVPC_NR_CTRS],
			u32 offset, unsigned long used, u64 ctr[NVPC_NR_CTRS])
{
	unsigned int c;

	for_each_set_bit(c, &used, NVPC_NR_CTRS)
		ctr[c] = nvpc_rd32(hw->ndev, reg[c] + offset);
}

/**
 * nvpc_gen_read_status() - read a domain's STATUS words (signals 0-255)
 * @hw: the GPU
 * @dom: the domain
 * @st: the words, signals 0-31 first
 */
void nvpc_gen_read_status(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			  u32 st[NVPC_NR_STATUS])
{
	unsigned int j;

	for (j = 0; j < NVPC_NR_STATUS; j++)
		st[j] = nvpc_rd32(hw->ndev, hw->gen->status_reg(dom, j));
}

/**
 * nvpc_gen_clear_resets() - clear RECORD_RESET and PERIODIC_RESET of a
 *	global control register (G84:GF100 GCTRL, a GF100+ set's control)
 * @hw: the GPU, at registration
 * @addr: the register
 * @name: its name, for the log
 *
 * Set, RECORD_RESET holds the record counters of every domain it covers
 * at 0, so no packet ever forms, and PERIODIC_RESET holds every PERIODIC
 * signal at 0 (pcounter.rst "Record mode setup", GCTRL; envytools' rnndb
 * gf100_pcounter.xml for the GF100 set controls). The driver sets neither, but an earlier owner of
 * the GPU (another driver, the firmware) may have left them set: both
 * are cleared, and the bits no document names are kept as they are.
 */
void nvpc_gen_clear_resets(struct nvpc_hw *hw, u32 addr, const char *name)
{
	const u32 resets = NVPC_GCTRL_RECORD_RESET | NVPC_GCTRL_PERIODIC_RESET;
	u32 v = nvpc_rd32(hw->ndev, addr);

	if (!(v & resets))
		return;
	dev_info(hw->dev, "%s: %s 0x%08x had RECORD_RESET or PERIODIC_RESET set: cleared\n",
		 hw->name, name, v);
	nvpc_wr32(hw->ndev, addr, v & ~resets);
}

/**
 * nvpc_nv30_trigger_swap() - pulse PGRAPH PM_TRIGGER, which swaps every
 *	quad-mode domain (NV30:G84: SWAP is hardwired to it, pcounter.rst
 *	Input selection)
 * @hw: the GPU
 * @dom: the domain asked for (all of them swap)
 */
void nvpc_nv30_trigger_swap(struct nvpc_hw *hw, struct nvpc_hw_domain *dom)
{
	nvpc_wr32(hw->ndev, NVPC_PGRAPH_PM_TRIGGER,
		  NVPC_PGRAPH_PM_TRIGGER_PULSE);
}
