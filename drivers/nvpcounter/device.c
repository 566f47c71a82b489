// SPDX-License-Identifier: GPL-2.0
/*
 * The device registry: backends (sim, pci) register GPUs here; each
 * registered GPU gets a PMU and a debugfs directory.
 */

#include <linux/debugfs.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "core.h"

static DEFINE_MUTEX(nvpc_registry_lock);
static LIST_HEAD(nvpc_registry);
static DEFINE_IDA(nvpc_ids);

/**
 * nvpc_device_register() - hand a GPU to the core
 * @ndev: the device, filled in by the backend (see &struct nvpc_device)
 *
 * Context: process context; may sleep.
 * Return: 0, or -errno (-EINVAL for an incomplete @ndev).
 */
int nvpc_device_register(struct nvpc_device *ndev)
{
	struct nvpc_core *core;
	int ret;

	if (!ndev || !ndev->dev || !ndev->chip ||
	    (!ndev->mmio && (!ndev->ops || !ndev->ops->rd32 ||
			     !ndev->ops->wr32)))
		return -EINVAL;

	core = kzalloc(sizeof(*core), GFP_KERNEL);
	if (!core)
		return -ENOMEM;
	core->ndev = ndev;

	ret = ida_alloc(&nvpc_ids, GFP_KERNEL);
	if (ret < 0)
		goto err_free;
	core->id = ret;
	if (core->id)
		snprintf(core->name, sizeof(core->name), "nvpcounter_%d",
			 core->id);
	else
		strscpy(core->name, "nvpcounter", sizeof(core->name));

	ndev->core = core;
	core->debugfs = debugfs_create_dir(core->name, nvpc_debugfs_root);

	mutex_lock(&nvpc_registry_lock);
	list_add_tail(&core->node, &nvpc_registry);
	mutex_unlock(&nvpc_registry_lock);

	dev_info(ndev->dev, "%s: %s (chipset 0x%02x) at %s\n", core->name,
		 ndev->chip->name, ndev->chip->chipset,
		 ndev->bus_id ? ndev->bus_id : dev_name(ndev->dev));
	return 0;

err_free:
	kfree(core);
	return ret;
}
EXPORT_SYMBOL_GPL(nvpc_device_register);

/**
 * nvpc_device_gone() - the hardware vanished (surprise removal, all-ones
 *	reads): stop touching registers
 * @ndev: a registered device
 *
 * Open events stay open and read their last value. The backend still calls
 * nvpc_device_unregister() later.
 *
 * Context: any; does not sleep.
 */
void nvpc_device_gone(struct nvpc_device *ndev)
{
	if (ndev && ndev->core)
		WRITE_ONCE(ndev->core->gone, true);
}
EXPORT_SYMBOL_GPL(nvpc_device_gone);

/**
 * nvpc_device_unregister() - take a GPU away from the core
 * @ndev: a registered device
 *
 * After return the core no longer accesses @ndev's registers.
 *
 * Context: process context; may sleep.
 */
void nvpc_device_unregister(struct nvpc_device *ndev)
{
	struct nvpc_core *core;

	if (!ndev || !ndev->core)
		return;
	core = ndev->core;

	mutex_lock(&nvpc_registry_lock);
	list_del(&core->node);
	mutex_unlock(&nvpc_registry_lock);

	WRITE_ONCE(core->gone, true);
	debugfs_remove_recursive(core->debugfs);
	ida_free(&nvpc_ids, core->id);
	ndev->core = NULL;
	kfree(core);
}
EXPORT_SYMBOL_GPL(nvpc_device_unregister);

static int nvpc_devices_show(struct seq_file *m, void *unused)
{
	struct nvpc_core *core;

	mutex_lock(&nvpc_registry_lock);
	list_for_each_entry(core, &nvpc_registry, node)
		seq_printf(m, "%s %s 0x%02x %s%s\n", core->name,
			   core->ndev->chip->name, core->ndev->chip->chipset,
			   core->ndev->bus_id ? core->ndev->bus_id :
			   dev_name(core->ndev->dev),
			   READ_ONCE(core->gone) ? " gone" : "");
	mutex_unlock(&nvpc_registry_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nvpc_devices);

/**
 * nvpc_registry_init() - create the registry's debugfs file
 */
void nvpc_registry_init(void)
{
	debugfs_create_file("devices", 0400, nvpc_debugfs_root, NULL,
			    &nvpc_devices_fops);
}
