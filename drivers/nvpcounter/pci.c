// SPDX-License-Identifier: GPL-2.0
/*
 * The PCI backend: NVIDIA GPUs found on the PCI bus, counted beside the
 * driver that owns them (usually nouveau) without binding to them.
 *
 * Only the registers the core needs are mapped, each as its own range of
 * BAR0 (Documentation/pci.rst "What is mapped"): PMC.BOOT_0 (read only),
 * the PCOUNTER window, and PGRAPH PM_TRIGGER on NV30:G84. Every access the
 * core makes goes through the range table, so that a stray address is
 * refused instead of hitting the owner's registers, and an all-ones read
 * is checked against PMC.BOOT_0 to tell a vanished GPU from a saturated
 * counter.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": pci: " fmt
/* the device is not ours: say who speaks */
#define dev_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pci.h>
#include <linux/pm_runtime.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <nvpcounter/catalog.h>
#include <nvpcounter/device.h>
#include <nvpcounter/regs.h>

#include "gen.h"
#include "pci.h"

#define NVPC_PCI_MAX_IDS	8
/* PMC.BOOT_0 and the generation's windows */
#define NVPC_PCI_MAX_RANGES	(1 + NVPC_GEN_NR_WINDOWS)
#define NVPC_PCI_BOOT_0_ABSENT	0xffffffff

/**
 * struct nvpc_pci_id - one entry of the pci_ids module parameter
 * @vendor: PCI vendor id
 * @device: PCI device id
 * @bar: the BAR that holds the GPU's registers (BAR0 of a real GPU)
 */
struct nvpc_pci_id {
	u16 vendor;
	u16 device;
	u8 bar;
};

static struct nvpc_pci_id nvpc_pci_ids[NVPC_PCI_MAX_IDS];
static unsigned int nvpc_pci_nr_ids;

static bool nvpc_pci_enable_pcounter;
module_param_named(pci_enable_pcounter, nvpc_pci_enable_pcounter, bool, 0444);
MODULE_PARM_DESC(pci_enable_pcounter,
		 "GF100+: set PMC.ENABLE bit 28 (PCOUNTER) when it is clear instead of refusing the GPU (default: refuse)");

/**
 * struct nvpc_pci_range - one mapped register range of a GPU
 * @start: first absolute BAR address
 * @end: first address after the range
 * @writable: the core may write it (PMC.BOOT_0 is read only)
 * @io: the mapping of @start
 * @name: what the range is, for the log
 */
struct nvpc_pci_range {
	u32 start;
	u32 end;
	bool writable;
	void __iomem *io;
	const char *name;
};

/**
 * struct nvpc_pci_seen - one device the backend looked at, and its verdict
 * @node: entry in nvpc_pci_seen_list
 * @pdev: reference on the device (kept: the verdict outlives its use)
 * @bar: the BAR looked at
 * @boot0: PMC.BOOT_0 as read, valid with @have_boot0
 * @have_boot0: PMC.BOOT_0 was read
 * @chip: the catalogue's chip, or NULL
 * @state: one word of Documentation/pci.rst "Which GPUs were looked at":
 *	"used", a refusal ("unknown_chipset", ...) or, after use,
 *	"removed" or "unbound"
 * @gpu: the GPU while it is registered, else NULL
 *
 * Kept from module load to unload, under nvpc_pci_lock, for the debugfs
 * file ``pci`` that ``nvpc doctor`` reads: why a GPU has no PMU, without
 * parsing the kernel log.
 */
struct nvpc_pci_seen {
	struct list_head node;
	struct pci_dev *pdev;
	int bar;
	u32 boot0;
	bool have_boot0;
	const struct nvpc_chip_desc *chip;
	const char *state;
	struct nvpc_pci_gpu *gpu;
};

/* &nvpc_pci_gpu.flags */
#define NVPC_PCI_GONE		0	/* PMC.BOOT_0 read all-ones */
#define NVPC_PCI_REFUSED	1	/* an access out of the ranges was logged */

/**
 * struct nvpc_pci_gpu - one GPU handed to the core
 * @node: entry in nvpc_pci_gpus
 * @pdev: reference on the PCI device
 * @bar: the BAR of the registers
 * @ranges: mapped ranges; [0] is PMC.BOOT_0
 * @nr_ranges: entries in @ranges
 * @flags: NVPC_PCI_* bits
 * @seen: the device's verdict, filled in as it is looked at
 * @ndev: what the core sees
 */
struct nvpc_pci_gpu {
	struct list_head node;
	struct pci_dev *pdev;
	int bar;
	struct nvpc_pci_range ranges[NVPC_PCI_MAX_RANGES];
	unsigned int nr_ranges;
	unsigned long flags;
	struct nvpc_pci_seen *seen;
	struct nvpc_device ndev;
};

/* serialises attach/detach, the notifier and module init/exit */
static DEFINE_MUTEX(nvpc_pci_lock);
static LIST_HEAD(nvpc_pci_gpus);
static LIST_HEAD(nvpc_pci_seen_list);
static bool nvpc_pci_active;

/* ---- the pci_ids parameter ------------------------------------------- */

/* "VVVV:DDDD" or "VVVV:DDDD:B": four hex digits each, BAR 0-5 */
static int nvpc_pci_parse_id(const char *s, struct nvpc_pci_id *id)
{
	size_t len = strlen(s);
	u32 vendor = 0, device = 0;
	unsigned int i;

	if (len != 9 && len != 11)
		goto bad;
	for (i = 0; i < 9; i++) {
		if (i == 4) {
			if (s[i] != ':')
				goto bad;
			continue;
		}
		if (hex_to_bin(s[i]) < 0)
			goto bad;
		if (i < 4)
			vendor = vendor << 4 | hex_to_bin(s[i]);
		else
			device = device << 4 | hex_to_bin(s[i]);
	}
	id->vendor = vendor;
	id->device = device;
	id->bar = 0;
	if (len == 9)
		return 0;
	if (s[9] != ':' || s[10] < '0' || s[10] > '0' + PCI_STD_RESOURCE_END) {
		pr_err("pci_ids: '%s': the BAR is one digit 0-5\n", s);
		return -EINVAL;
	}
	id->bar = s[10] - '0';
	return 0;
bad:
	pr_err("pci_ids: '%s' is not VVVV:DDDD[:BAR] (vendor and device: 4 hex digits)\n",
	       s);
	return -EINVAL;
}

static int nvpc_pci_ids_set(const char *val, const struct kernel_param *kp)
{
	struct nvpc_pci_id ids[NVPC_PCI_MAX_IDS];
	char *buf, *p, *tok;
	unsigned int n = 0;
	int ret = 0;

	buf = kstrdup(val, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	p = strim(buf);
	while ((tok = strsep(&p, ",")) != NULL) {
		if (!*tok && !p && !n)
			break;	/* the empty string: no extra ids */
		if (n == NVPC_PCI_MAX_IDS) {
			pr_err("pci_ids: at most %d ids\n", NVPC_PCI_MAX_IDS);
			ret = -EINVAL;
			break;
		}
		ret = nvpc_pci_parse_id(tok, &ids[n]);
		if (ret)
			break;
		n++;
	}
	kfree(buf);
	if (ret)
		return ret;
	memcpy(nvpc_pci_ids, ids, n * sizeof(ids[0]));
	nvpc_pci_nr_ids = n;
	return 0;
}

static int nvpc_pci_ids_get(char *buffer, const struct kernel_param *kp)
{
	unsigned int i;
	int len = 0;

	for (i = 0; i < nvpc_pci_nr_ids; i++)
		len += scnprintf(buffer + len, PAGE_SIZE - len, "%s%04x:%04x:%u",
				 i ? "," : "", nvpc_pci_ids[i].vendor,
				 nvpc_pci_ids[i].device, nvpc_pci_ids[i].bar);
	len += scnprintf(buffer + len, PAGE_SIZE - len, "\n");
	return len;
}

static const struct kernel_param_ops nvpc_pci_ids_ops = {
	.set = nvpc_pci_ids_set,
	.get = nvpc_pci_ids_get,
};
module_param_cb(pci_ids, &nvpc_pci_ids_ops, NULL, 0444);
MODULE_PARM_DESC(pci_ids,
		 "extra PCI devices to count on, VVVV:DDDD[:BAR] (hex ids, register BAR, default 0), comma separated, at most 8");

/* ---- register access --------------------------------------------------- */

static struct nvpc_pci_range *nvpc_pci_range_of(struct nvpc_pci_gpu *gpu,
						u32 addr)
{
	unsigned int i;

	/* the PCOUNTER window is [1]: look there first */
	for (i = gpu->nr_ranges; i-- > 0;) {
		struct nvpc_pci_range *r = &gpu->ranges[i];

		if (addr >= r->start && addr < r->end && r->end - addr >= 4)
			return r;
	}
	return NULL;
}

static void nvpc_pci_refused(struct nvpc_pci_gpu *gpu, u32 addr, bool write)
{
	if (!test_and_set_bit(NVPC_PCI_REFUSED, &gpu->flags))
		dev_err(&gpu->pdev->dev,
			"%s of 0x%06x refused: not in a range mapped for this GPU (further ones not logged)\n",
			write ? "write" : "read", addr);
}

/*
 * An all-ones value is a saturated counter or a GPU that stopped answering
 * (surprise removal, powered down): PMC.BOOT_0 tells them apart.
 */
static void nvpc_pci_check_gone(struct nvpc_pci_gpu *gpu)
{
	if (readl(gpu->ranges[0].io) != NVPC_PCI_BOOT_0_ABSENT)
		return;
	if (test_and_set_bit(NVPC_PCI_GONE, &gpu->flags))
		return;
	dev_err(&gpu->pdev->dev,
		"PMC.BOOT_0 reads all-ones: the GPU is gone (removed or powered off); its events are stopped\n");
	nvpc_device_gone(&gpu->ndev);
}

static u32 nvpc_pci_rd32(void *priv, u32 addr)
{
	struct nvpc_pci_gpu *gpu = priv;
	struct nvpc_pci_range *r;
	u32 val;

	if (test_bit(NVPC_PCI_GONE, &gpu->flags))
		return NVPC_PCI_BOOT_0_ABSENT;
	r = nvpc_pci_range_of(gpu, addr);
	if (unlikely(!r)) {
		nvpc_pci_refused(gpu, addr, false);
		return NVPC_PCI_BOOT_0_ABSENT;
	}
	val = readl(r->io + (addr - r->start));
	if (unlikely(val == NVPC_PCI_BOOT_0_ABSENT))
		nvpc_pci_check_gone(gpu);
	return val;
}

static void nvpc_pci_wr32(void *priv, u32 addr, u32 val)
{
	struct nvpc_pci_gpu *gpu = priv;
	struct nvpc_pci_range *r;

	if (test_bit(NVPC_PCI_GONE, &gpu->flags))
		return;
	r = nvpc_pci_range_of(gpu, addr);
	if (unlikely(!r || !r->writable)) {
		nvpc_pci_refused(gpu, addr, true);
		return;
	}
	writel(val, r->io + (addr - r->start));
}

/*
 * A runtime-PM reference while the GPU has open events: reads never hit it
 * suspended, and it may suspend otherwise.
 */
static int nvpc_pci_active_get(void *priv)
{
	struct nvpc_pci_gpu *gpu = priv;

	return pm_runtime_resume_and_get(&gpu->pdev->dev);
}

static void nvpc_pci_active_put(void *priv)
{
	struct nvpc_pci_gpu *gpu = priv;

	pm_runtime_put(&gpu->pdev->dev);
}

static const struct nvpc_backend_ops nvpc_pci_ops = {
	.rd32 = nvpc_pci_rd32,
	.wr32 = nvpc_pci_wr32,
	.active_get = nvpc_pci_active_get,
	.active_put = nvpc_pci_active_put,
};

/* ---- discovery --------------------------------------------------------- */

/* The BAR of @pdev's registers, or -1 if nvpcounter does not look at it. */
static int nvpc_pci_match(struct pci_dev *pdev)
{
	unsigned int i;

	for (i = 0; i < nvpc_pci_nr_ids; i++)
		if (pdev->vendor == nvpc_pci_ids[i].vendor &&
		    pdev->device == nvpc_pci_ids[i].device)
			return nvpc_pci_ids[i].bar;
	if (pdev->vendor == PCI_VENDOR_ID_NVIDIA &&
	    (pdev->class >> 16) == PCI_BASE_CLASS_DISPLAY)
		return 0;
	return -1;
}

static struct nvpc_pci_gpu *nvpc_pci_find(struct pci_dev *pdev)
{
	struct nvpc_pci_gpu *gpu;

	list_for_each_entry(gpu, &nvpc_pci_gpus, node)
		if (gpu->pdev == pdev)
			return gpu;
	return NULL;
}

static int nvpc_pci_map(struct nvpc_pci_gpu *gpu, u32 start, u32 end,
			bool writable, const char *name)
{
	struct nvpc_pci_range *r = &gpu->ranges[gpu->nr_ranges];

	if (WARN_ON_ONCE(gpu->nr_ranges == NVPC_PCI_MAX_RANGES))
		return -EINVAL;
	r->io = pci_iomap_range(gpu->pdev, gpu->bar, start, end - start);
	if (!r->io) {
		dev_info(&gpu->pdev->dev, "cannot map %s (0x%06x..0x%06x) of BAR %d\n",
			 name, start, end, gpu->bar);
		return -ENOMEM;
	}
	r->start = start;
	r->end = end;
	r->writable = writable;
	r->name = name;
	gpu->nr_ranges++;
	return 0;
}

static void nvpc_pci_unmap(struct nvpc_pci_gpu *gpu)
{
	while (gpu->nr_ranges)
		pci_iounmap(gpu->pdev, gpu->ranges[--gpu->nr_ranges].io);
}

/* Read one register of the BAR through a temporary mapping (probe only). */
static int nvpc_pci_peek(struct nvpc_pci_gpu *gpu, u32 addr, u32 *val)
{
	void __iomem *io = pci_iomap_range(gpu->pdev, gpu->bar, addr, 4);

	if (!io)
		return -ENOMEM;
	*val = readl(io);
	pci_iounmap(gpu->pdev, io);
	return 0;
}

/*
 * GF100+: PCOUNTER is held in reset while PMC.ENABLE bit 28 is clear
 * (pcounter.rst, Introduction; nouveau's PM engine, nvkm/engine/pm/gf100.c
 * fini). The owner's driver sets it; nvpcounter only does so when told to
 * (pci_enable_pcounter).
 */
static int nvpc_pci_gf100_enable(struct nvpc_pci_gpu *gpu)
{
	struct device *dev = &gpu->pdev->dev;
	void __iomem *io;
	u32 enable;

	io = pci_iomap_range(gpu->pdev, gpu->bar, NVPC_PMC_ENABLE, 4);
	if (!io)
		return -ENOMEM;
	enable = readl(io);
	if (!(enable & NVPC_PMC_ENABLE_PCOUNTER)) {
		if (!nvpc_pci_enable_pcounter) {
			pci_iounmap(gpu->pdev, io);
			dev_info(dev, "PCOUNTER is disabled (PMC.ENABLE 0x%08x, bit 28 clear): not used; load with pci_enable_pcounter=1 to enable it\n",
				 enable);
			gpu->seen->state = "pcounter_disabled";
			return -ENODEV;
		}
		writel(enable | NVPC_PMC_ENABLE_PCOUNTER, io);
		dev_info(dev, "PCOUNTER was disabled: PMC.ENABLE bit 28 set (pci_enable_pcounter)\n");
	}
	pci_iounmap(gpu->pdev, io);
	return 0;
}

/*
 * One unit mask as nouveau's PM engine builds it (nvkm/engine/pm/gf100.c):
 * ((1 << count) - 1) & ~disable_a & ~disable_b
 */
static int nvpc_pci_unit_mask(struct nvpc_pci_gpu *gpu, const char *what,
			      u32 count_reg, u32 dis_a, u32 dis_b,
			      unsigned int max, u32 *mask)
{
	u32 count, a, b;

	if (nvpc_pci_peek(gpu, count_reg, &count) ||
	    nvpc_pci_peek(gpu, dis_a, &a) || nvpc_pci_peek(gpu, dis_b, &b))
		return -ENOMEM;
	if (!count || count > max) {
		dev_info(&gpu->pdev->dev, "%s count 0x%x (0x%06x) is not 1..%u: not used\n",
			 what, count, count_reg, max);
		gpu->seen->state = "unit_count";
		return -ENODEV;
	}
	*mask = GENMASK(count - 1, 0) & ~a & ~b;
	if (!*mask) {
		dev_info(&gpu->pdev->dev, "every %s is disabled (0x%06x 0x%08x, 0x%06x 0x%08x): not used\n",
			 what, dis_a, a, dis_b, b);
		gpu->seen->state = "units_disabled";
		return -ENODEV;
	}
	return 0;
}

static int nvpc_pci_gf100_units(struct nvpc_pci_gpu *gpu)
{
	int ret;

	ret = nvpc_pci_unit_mask(gpu, "GPC", NVPC_GF100_GPC_COUNT,
				 NVPC_GF100_GPC_DISABLE_A,
				 NVPC_GF100_GPC_DISABLE_B,
				 NVPC_GF100_MAX_GPC, &gpu->ndev.gpc_mask);
	if (ret)
		return ret;
	return nvpc_pci_unit_mask(gpu, "partition", NVPC_GF100_PART_COUNT,
				  NVPC_GF100_PART_DISABLE_A,
				  NVPC_GF100_PART_DISABLE_B,
				  NVPC_GF100_MAX_PART, &gpu->ndev.part_mask);
}

/* Map the generation's windows (Documentation/pci.rst). */
static int nvpc_pci_map_chip(struct nvpc_pci_gpu *gpu,
			     const struct nvpc_gen_ops *gen)
{
	const struct nvpc_reg_range *w;
	int ret = 0;

	for (w = gen->windows; !ret && w < gen->windows + NVPC_GEN_NR_WINDOWS &&
	     w->end; w++)
		ret = nvpc_pci_map(gpu, w->start, w->end, true, w->name);
	return ret;
}

/* The end of the last register the generation needs in the BAR. */
static u32 nvpc_pci_bar_needed(const struct nvpc_gen_ops *gen)
{
	u32 need = 0;
	unsigned int i;

	for (i = 0; i < NVPC_GEN_NR_WINDOWS; i++)
		need = max(need, gen->windows[i].end);
	return need;
}

/* Step 1: a memory BAR the PCI core assigned, and decoding on. */
static int nvpc_pci_usable(struct nvpc_pci_seen *seen)
{
	struct pci_dev *pdev = seen->pdev;
	int bar = seen->bar;
	u16 cmd;

	if (!(pci_resource_flags(pdev, bar) & IORESOURCE_MEM) ||
	    !pci_resource_start(pdev, bar)) {
		dev_info(&pdev->dev, "BAR %d is not an assigned memory BAR: not used\n",
			 bar);
		seen->state = "bar_unassigned";
		return -ENODEV;
	}
	pci_read_config_word(pdev, PCI_COMMAND, &cmd);
	if (!(cmd & PCI_COMMAND_MEMORY)) {
		dev_info(&pdev->dev, "memory decoding is off (no driver enabled the device): not used\n");
		seen->state = "decoding_off";
		return -ENODEV;
	}
	return 0;
}

/*
 * Step 2: the chip from PMC.BOOT_0 (mapped for good: it tells a vanished
 * GPU from a saturated counter), its generation, a BAR that holds it.
 */
static int nvpc_pci_identify(struct nvpc_pci_gpu *gpu,
			     const struct nvpc_gen_ops **gen)
{
	struct device *dev = &gpu->pdev->dev;
	const struct nvpc_chip_desc *chip;
	u32 boot0, chipset, need;
	int ret;

	ret = nvpc_pci_map(gpu, NVPC_PMC_BOOT_0, NVPC_PMC_BOOT_0 + 4, false,
			   "PMC.BOOT_0");
	if (ret)
		return ret;
	/* envytools' documentation (PMC.BOOT_0): chipset in bits 20-28 */
	boot0 = readl(gpu->ranges[0].io);
	gpu->seen->boot0 = boot0;
	gpu->seen->have_boot0 = true;
	if (boot0 == NVPC_PCI_BOOT_0_ABSENT) {
		dev_info(dev, "PMC.BOOT_0 reads all-ones (device not responding): not used\n");
		gpu->seen->state = "not_responding";
		return -ENODEV;
	}
	chipset = FIELD_GET(NVPC_PMC_BOOT_0_CHIPSET, boot0);
	chip = nvpc_catalog_find(chipset);
	*gen = chip ? nvpc_gen_ops_of(chip) : NULL;
	if (!*gen) {
		dev_info(dev, "unknown or unsupported chipset 0x%02x (PMC.BOOT_0 0x%08x): not used\n",
			 chipset, boot0);
		gpu->seen->state = "unknown_chipset";
		return -ENODEV;
	}
	gpu->seen->chip = chip;
	need = nvpc_pci_bar_needed(*gen);
	if (pci_resource_len(gpu->pdev, gpu->bar) < need) {
		dev_info(dev, "%s: BAR %d is 0x%llx bytes, registers up to 0x%06x are needed: not used\n",
			 chip->name, gpu->bar,
			 (unsigned long long)pci_resource_len(gpu->pdev, gpu->bar),
			 need);
		gpu->seen->state = "bar_too_small";
		return -ENODEV;
	}
	gpu->ndev.chip = chip;
	return 0;
}

/* Step 3 (GF100+): PCOUNTER out of reset, the GPCs and partitions there. */
static int nvpc_pci_enable_units(struct nvpc_pci_gpu *gpu,
				 const struct nvpc_gen_ops *gen)
{
	int ret = 0;

	if (gen->pmc_enable)
		ret = nvpc_pci_gf100_enable(gpu);
	if (!ret && gen->unit_sets)
		ret = nvpc_pci_gf100_units(gpu);
	return ret;
}

/* Step 5: hand the GPU to the core. */
static int nvpc_pci_register(struct nvpc_pci_gpu *gpu)
{
	struct device *dev = &gpu->pdev->dev;
	int ret;

	gpu->ndev.dev = dev;
	gpu->ndev.bus_id = pci_name(gpu->pdev);
	gpu->ndev.index = list_count_nodes(&nvpc_pci_gpus);
	gpu->ndev.ops = &nvpc_pci_ops;
	gpu->ndev.priv = gpu;
	ret = nvpc_device_register(&gpu->ndev);
	if (ret) {
		dev_info(dev, "%s: registration failed (%d)\n",
			 gpu->ndev.chip->name, ret);
		gpu->seen->state = "register_failed";
		return ret;
	}
	list_add_tail(&gpu->node, &nvpc_pci_gpus);
	gpu->seen->state = "used";
	gpu->seen->gpu = gpu;
	dev_dbg(dev, "%s: BAR %d, GPC mask 0x%x, partition mask 0x%x\n",
		gpu->ndev.chip->name, gpu->bar, gpu->ndev.gpc_mask,
		gpu->ndev.part_mask);
	return 0;
}

/*
 * Look at one device: usable -> identify -> enable units -> map ->
 * register. Any step that fails leaves the device as it was.
 */
static int nvpc_pci_attach(struct nvpc_pci_seen *seen)
{
	struct pci_dev *pdev = seen->pdev;
	const struct nvpc_gen_ops *gen;
	struct nvpc_pci_gpu *gpu;
	int ret;

	ret = nvpc_pci_usable(seen);
	if (ret)
		return ret;
	gpu = kzalloc(sizeof(*gpu), GFP_KERNEL);
	if (!gpu) {
		seen->state = "no_memory";
		return -ENOMEM;
	}
	gpu->pdev = pci_dev_get(pdev);
	gpu->bar = seen->bar;
	gpu->seen = seen;
	/* awake while its registers are looked at; events hold it later */
	ret = pm_runtime_resume_and_get(&pdev->dev);
	if (ret < 0) {
		dev_info(&pdev->dev, "cannot resume the device (%d): not used\n",
			 ret);
		seen->state = "resume_failed";
		goto err_put;
	}
	ret = nvpc_pci_identify(gpu, &gen);
	if (!ret)
		ret = nvpc_pci_enable_units(gpu, gen);
	/* step 4: the generation's windows */
	if (!ret)
		ret = nvpc_pci_map_chip(gpu, gen);
	if (!ret)
		ret = nvpc_pci_register(gpu);
	if (ret) {
		/* a step that failed without a word of its own: a mapping */
		if (!seen->state)
			seen->state = "map_failed";
		nvpc_pci_unmap(gpu);
	}
	pm_runtime_put(&pdev->dev);
	if (ret)
		goto err_put;
	return 0;

err_put:
	pci_dev_put(pdev);
	kfree(gpu);
	return ret;
}

static void nvpc_pci_detach(struct nvpc_pci_gpu *gpu, const char *why)
{
	struct device *dev = &gpu->pdev->dev;

	if (why)
		dev_info(dev, "%s: its events are stopped\n", why);
	gpu->seen->gpu = NULL;
	list_del(&gpu->node);
	nvpc_device_unregister(&gpu->ndev);
	nvpc_pci_unmap(gpu);
	pci_dev_put(gpu->pdev);
	kfree(gpu);
}

static int nvpc_pci_notify(struct notifier_block *nb, unsigned long action,
			   void *data)
{
	struct pci_dev *pdev = to_pci_dev(data);
	struct nvpc_pci_gpu *gpu;
	const char *why, *state;

	switch (action) {
	case BUS_NOTIFY_DEL_DEVICE:
		why = "device removed";
		state = "removed";
		break;
	case BUS_NOTIFY_UNBIND_DRIVER:
		why = "driver unbinding";
		state = "unbound";
		break;
	default:
		return NOTIFY_DONE;
	}
	mutex_lock(&nvpc_pci_lock);
	gpu = nvpc_pci_find(pdev);
	if (gpu) {
		gpu->seen->state = state;
		nvpc_pci_detach(gpu, why);
	}
	mutex_unlock(&nvpc_pci_lock);
	return NOTIFY_OK;
}

static struct notifier_block nvpc_pci_nb = {
	.notifier_call = nvpc_pci_notify,
};

/* One line per device looked at: Documentation/pci.rst "Which GPUs were looked at" */
static int nvpc_pci_seen_show(struct seq_file *m, void *unused)
{
	struct nvpc_pci_seen *seen;

	mutex_lock(&nvpc_pci_lock);
	list_for_each_entry(seen, &nvpc_pci_seen_list, node) {
		const char *state = seen->state;

		if (seen->gpu && test_bit(NVPC_PCI_GONE, &seen->gpu->flags))
			state = "gone";
		seq_printf(m, "%s %04x:%04x bar=%d", pci_name(seen->pdev),
			   seen->pdev->vendor, seen->pdev->device, seen->bar);
		if (seen->have_boot0)
			seq_printf(m, " boot0=0x%08x chipset=0x%02lx", seen->boot0,
				   FIELD_GET(NVPC_PMC_BOOT_0_CHIPSET, seen->boot0));
		else
			seq_puts(m, " boot0=- chipset=-");
		seq_printf(m, " chip=%s state=%s\n",
			   seen->chip ? seen->chip->name : "-", state);
	}
	mutex_unlock(&nvpc_pci_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nvpc_pci_seen);

/**
 * nvpc_pci_init() - find the GPUs on the PCI bus and register them
 * @debugfs: the module's debugfs directory (an error pointer or NULL
 *	without debugfs), where the file ``pci`` lists every device looked
 *	at with its verdict
 *
 * Every NVIDIA display-class device, and every device the pci_ids
 * parameter names, is looked at once, here; none is bound. A GPU that
 * cannot be used is logged and skipped. Without the bus notifier (removal
 * could not be seen) no GPU is used at all.
 *
 * Context: module init, process context.
 */
void nvpc_pci_init(struct dentry *debugfs)
{
	struct nvpc_pci_seen *seen;
	struct pci_dev *pdev = NULL;
	int ret, bar;

	ret = bus_register_notifier(&pci_bus_type, &nvpc_pci_nb);
	if (ret) {
		pr_err("cannot watch the PCI bus (%d): PCI GPUs not used\n",
		       ret);
		return;
	}
	mutex_lock(&nvpc_pci_lock);
	nvpc_pci_active = true;
	/* pci_get_device() holds a reference on @pdev between iterations */
	while ((pdev = pci_get_device(PCI_ANY_ID, PCI_ANY_ID, pdev))) {
		bar = nvpc_pci_match(pdev);
		if (bar < 0)
			continue;
		seen = kzalloc(sizeof(*seen), GFP_KERNEL);
		if (!seen)
			continue;
		seen->pdev = pci_dev_get(pdev);
		seen->bar = bar;
		list_add_tail(&seen->node, &nvpc_pci_seen_list);
		ret = nvpc_pci_attach(seen);
		if (ret)
			dev_dbg(&pdev->dev, "not used (%d, %s)\n", ret, seen->state);
	}
	mutex_unlock(&nvpc_pci_lock);
	debugfs_create_file("pci", 0400, debugfs, NULL, &nvpc_pci_seen_fops);
}

/**
 * nvpc_pci_exit() - unregister every PCI GPU and free the mappings
 *
 * Context: module exit, process context.
 */
void nvpc_pci_exit(void)
{
	struct nvpc_pci_seen *seen, *next;
	struct nvpc_pci_gpu *gpu, *tmp;

	mutex_lock(&nvpc_pci_lock);
	if (!nvpc_pci_active) {
		mutex_unlock(&nvpc_pci_lock);
		return;
	}
	nvpc_pci_active = false;
	list_for_each_entry_safe(gpu, tmp, &nvpc_pci_gpus, node)
		nvpc_pci_detach(gpu, NULL);
	list_for_each_entry_safe(seen, next, &nvpc_pci_seen_list, node) {
		list_del(&seen->node);
		pci_dev_put(seen->pdev);
		kfree(seen);
	}
	mutex_unlock(&nvpc_pci_lock);
	bus_unregister_notifier(&pci_bus_type, &nvpc_pci_nb);
}
