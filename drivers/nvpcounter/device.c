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

static struct workqueue_struct *nvpc_release_wq;

static void nvpc_core_release_work(struct work_struct *work);

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
	core->chip = ndev->chip;
	core->dev = get_device(ndev->dev);
	strscpy(core->bus_id, ndev->bus_id ? ndev->bus_id : dev_name(ndev->dev),
		sizeof(core->bus_id));
	raw_spin_lock_init(&core->lock);
	INIT_LIST_HEAD(&core->fresh);
	mutex_init(&core->active_lock);
	kref_init(&core->refs);
	INIT_WORK(&core->release_work, nvpc_core_release_work);

	ret = ida_alloc(&nvpc_ids, GFP_KERNEL);
	if (ret < 0)
		goto err_free;
	core->id = ret;
	if (core->id)
		snprintf(core->name, sizeof(core->name), "nvpcounter_%d",
			 core->id);
	else
		strscpy(core->name, "nvpcounter", sizeof(core->name));

	ret = nvpc_engine_init(core);
	if (ret == -EOPNOTSUPP) {
		dev_info(ndev->dev, "%s: counting on %s is not supported yet\n",
			 core->name, ndev->chip->name);
	} else if (ret) {
		goto err_ida;
	} else {
		ret = nvpc_pmu_register(core);
		if (ret)
			goto err_engine;
		core->pmu_registered = true;
	}

	ndev->core = core;
	core->debugfs = debugfs_create_dir(core->name, nvpc_debugfs_root);
	nvpc_debugfs_add(core);

	mutex_lock(&nvpc_registry_lock);
	list_add_tail(&core->node, &nvpc_registry);
	mutex_unlock(&nvpc_registry_lock);

	dev_info(core->dev, "%s: %s (chipset 0x%02x) at %s\n", core->name,
		 core->chip->name, core->chip->chipset, core->bus_id);
	return 0;

err_engine:
	nvpc_engine_fini(core);
err_ida:
	ida_free(&nvpc_ids, core->id);
err_free:
	put_device(core->dev);
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
	struct nvpc_core *core = ndev ? ndev->core : NULL;

	if (!core || xchg(&core->gone, true))
		return;
	dev_warn(core->dev, "%s: device gone: %u events stop counting and keep their last value\n",
		 core->name, READ_ONCE(core->nr_active));
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
	unsigned long flags;
	struct nvpc_core *core;
	unsigned int active;
	bool was_gone;

	if (!ndev || !ndev->core)
		return;
	core = ndev->core;

	mutex_lock(&nvpc_registry_lock);
	list_del(&core->node);
	mutex_unlock(&nvpc_registry_lock);

	/* under the lock: no register access is in flight after this */
	raw_spin_lock_irqsave(&core->lock, flags);
	was_gone = xchg(&core->gone, true);
	active = core->nr_active;
	raw_spin_unlock_irqrestore(&core->lock, flags);
	if (active && !was_gone)
		dev_info(core->dev, "%s: device removed: %u events stop counting and keep their last value\n",
			 core->name, active);
	debugfs_remove_recursive(core->debugfs);
	core->debugfs = NULL;
	/* the backend is not called after this: give back what events hold */
	mutex_lock(&core->active_lock);
	if (core->active_held && ndev->ops && ndev->ops->active_put)
		ndev->ops->active_put(ndev->priv);
	core->active_held = false;
	mutex_unlock(&core->active_lock);
	ndev->core = NULL;
	/*
	 * Open events keep the PMU (and this struct) until they close; they
	 * read their last value meanwhile. The backend's ndev is not used
	 * after this point.
	 */
	nvpc_core_put(core);
}
EXPORT_SYMBOL_GPL(nvpc_device_unregister);

static void nvpc_core_release_work(struct work_struct *work)
{
	struct nvpc_core *core = container_of(work, struct nvpc_core,
					      release_work);

	if (core->pmu_registered)
		nvpc_pmu_unregister(core);
	nvpc_engine_fini(core);
	ida_free(&nvpc_ids, core->id);
	put_device(core->dev);
	kfree(core);
}

static void nvpc_core_release(struct kref *kref)
{
	struct nvpc_core *core = container_of(kref, struct nvpc_core, refs);

	/* perf may still be inside its event teardown: unregister later */
	queue_work(nvpc_release_wq, &core->release_work);
}

/**
 * nvpc_core_open() - an event of the GPU opens: wake the GPU for the first
 * @core: the GPU
 *
 * Context: process context (event_init); may sleep.
 * Return: 0, -ENODEV when the device is gone, or the backend's error.
 */
int nvpc_core_open(struct nvpc_core *core)
{
	const struct nvpc_backend_ops *ops;
	int ret = 0;

	mutex_lock(&core->active_lock);
	if (READ_ONCE(core->gone)) {
		ret = -ENODEV;
		goto out;
	}
	ops = core->ndev->ops;
	if (!core->nr_open && ops && ops->active_get) {
		ret = ops->active_get(core->ndev->priv);
		if (ret) {
			nvpc_dbg(core, "the backend cannot wake the GPU: %d\n",
				 ret);
			goto out;
		}
		core->active_held = true;
	}
	core->nr_open++;
out:
	mutex_unlock(&core->active_lock);
	return ret;
}

/**
 * nvpc_core_close() - undo nvpc_core_open() (event destroy)
 * @core: the GPU
 *
 * Context: process context; may sleep.
 */
void nvpc_core_close(struct nvpc_core *core)
{
	mutex_lock(&core->active_lock);
	if (!--core->nr_open && core->active_held) {
		core->ndev->ops->active_put(core->ndev->priv);
		core->active_held = false;
	}
	mutex_unlock(&core->active_lock);
}

/**
 * nvpc_core_put() - drop a reference on a GPU's core state
 * @core: the GPU
 */
void nvpc_core_put(struct nvpc_core *core)
{
	kref_put(&core->refs, nvpc_core_release);
}

/**
 * nvpc_registry_exit() - wait for every deferred release (module exit)
 */
void nvpc_registry_exit(void)
{
	destroy_workqueue(nvpc_release_wq);
}

static int nvpc_devices_show(struct seq_file *m, void *unused)
{
	struct nvpc_core *core;

	mutex_lock(&nvpc_registry_lock);
	list_for_each_entry(core, &nvpc_registry, node)
		seq_printf(m, "%s %s 0x%02x %s%s\n", core->name,
			   core->chip->name, core->chip->chipset, core->bus_id,
			   READ_ONCE(core->gone) ? " gone" : "");
	mutex_unlock(&nvpc_registry_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nvpc_devices);

/**
 * nvpc_registry_init() - set up the registry and its debugfs file
 *
 * Return: 0 or -ENOMEM.
 */
int nvpc_registry_init(void)
{
	nvpc_release_wq = alloc_workqueue("nvpcounter", 0, 0);
	if (!nvpc_release_wq)
		return -ENOMEM;
	debugfs_create_file("devices", 0400, nvpc_debugfs_root, NULL,
			    &nvpc_devices_fops);
	return 0;
}
