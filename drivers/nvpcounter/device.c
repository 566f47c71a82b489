// SPDX-License-Identifier: GPL-2.0
/*
 * The device registry: backends (sim, pci) register GPUs here; each
 * registered GPU gets a PMU and a debugfs directory.
 *
 * Lifetime (Documentation/internals.rst, perf.rst "Removal"): the
 * registry holds one reference on a GPU's core and every perf event one
 * more, taken in event_init under @active_lock together with the check
 * that the GPU is still there; removal sets @gone under that lock before
 * it drops the registry's reference. When the GPU's last event closes,
 * a watch (@idle_work) takes over its reference and keeps it until
 * perf's per-CPU contexts of the PMU hold nothing: perf before 6.15
 * still uses them just after ->destroy(), and a group leader of another
 * PMU (a cpu-clock) that perf moved into our context stays there after
 * our members closed, holding no reference on us while perf calls our
 * PMU's callbacks for it. A watch that finds them busy after its first
 * poll also holds the module; module exit waits for a watch that had no
 * time to. So the last reference drops only with the contexts idle, the
 * PMU is unregistered and the core freed at once, and module exit never
 * releases a PMU itself. An
 * open that found the PMU just before perf_pmu_unregister() may still
 * call its event_init afterwards, so the struct pmu waits in a graveyard
 * until the next unregistration (or module exit) has waited for such
 * opens.
 */

#include <linux/debugfs.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include "core.h"

static DEFINE_MUTEX(nvpc_registry_lock);
static LIST_HEAD(nvpc_registry);
/* released cores perf may still reach (see above), under the lock */
static LIST_HEAD(nvpc_graveyard);
static DEFINE_IDA(nvpc_ids);

static struct workqueue_struct *nvpc_release_wq;
/* watches running (nvpc_core_idle_work()), and module exit waiting */
static atomic_t nvpc_watches = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(nvpc_watches_wait);

/*
 * How long the watch of a GPU whose last event closed polls perf's
 * contexts before it logs that something else holds them and goes on
 * checking once a second (nvpc_core_idle_work()).
 */
static unsigned int nvpc_release_wait_ms = MSEC_PER_SEC;
module_param_named(release_wait_ms, nvpc_release_wait_ms, uint, 0644);
MODULE_PARM_DESC(release_wait_ms,
		 "ms perf's contexts are polled after a GPU's last event before they are checked once a second (default 1000)");

static void nvpc_core_idle_work(struct work_struct *work);
static void nvpc_core_release(struct kref *kref);

/*
 * The PMU number: the backend's stable index of the GPU, unless a removed
 * GPU's PMU that open events still hold has that name.
 */
static int nvpc_id_alloc(struct nvpc_device *ndev)
{
	int id = -ENOSPC;

	if (ndev->index >= 0)
		id = ida_alloc_range(&nvpc_ids, ndev->index, ndev->index,
				     GFP_KERNEL);
	if (id == -ENOSPC) {
		id = ida_alloc(&nvpc_ids, GFP_KERNEL);
		if (id >= 0)
			dev_info(ndev->dev, "the name of GPU index %d is held by open events of a removed GPU; this one is number %d\n",
				 ndev->index, id);
	}
	return id;
}

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
	struct nvpc_engine *eng;
	int ret;

	if (!ndev || !ndev->dev || !ndev->chip || !ndev->ops ||
	    !ndev->ops->rd32 || !ndev->ops->wr32)
		return -EINVAL;

	core = kzalloc(sizeof(*core), GFP_KERNEL);
	if (!core)
		return -ENOMEM;
	eng = &core->eng;
	eng->hw.ndev = ndev;
	eng->hw.chip = ndev->chip;
	eng->hw.name = core->name;
	eng->hw.dev = get_device(ndev->dev);
	strscpy(core->bus_id, ndev->bus_id ? ndev->bus_id : dev_name(ndev->dev),
		sizeof(core->bus_id));
	/* for first-light reports (the PMU's boot0): the chip as it says */
	core->boot0 = nvpc_rd32(ndev, NVPC_PMC_BOOT_0);
	kref_init(&core->refs);
	INIT_DELAYED_WORK(&core->idle_work, nvpc_core_idle_work);

	/*
	 * a removed GPU's PMU whose last event just closed: let it go first
	 * (the watch's first run polls for at most release_wait_ms)
	 */
	flush_workqueue(nvpc_release_wq);
	ret = nvpc_id_alloc(ndev);
	if (ret < 0)
		goto err_free;
	core->id = ret;
	if (core->id)
		snprintf(core->name, sizeof(core->name), "nvpcounter_%d",
			 core->id);
	else
		strscpy(core->name, "nvpcounter", sizeof(core->name));

	ret = nvpc_engine_init(eng);
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

	dev_info(eng->hw.dev, "%s: %s (chipset 0x%02x) at %s\n", core->name,
		 ndev->chip->name, ndev->chip->chipset, core->bus_id);
	return 0;

err_engine:
	nvpc_engine_fini(eng);
err_ida:
	ida_free(&nvpc_ids, core->id);
err_free:
	put_device(eng->hw.dev);
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

	if (!core || xchg(&core->eng.gone, true))
		return;
	dev_warn(core->eng.hw.dev, "%s: device gone: %u events stop counting and keep their last value\n",
		 core->name, nvpc_nr_counting(&core->eng));
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
	struct nvpc_engine *eng;
	unsigned long flags;
	struct nvpc_core *core;
	unsigned int active;
	bool was_gone;

	if (!ndev || !ndev->core)
		return;
	core = ndev->core;
	eng = &core->eng;

	mutex_lock(&nvpc_registry_lock);
	list_del(&core->node);
	mutex_unlock(&nvpc_registry_lock);

	/*
	 * Under @active_lock: no event_init takes a reference after this;
	 * under the engine lock: no register access is in flight after this
	 */
	mutex_lock(&eng->active_lock);
	nvpc_lock(eng, flags);
	/* the GPU writes no more into AUX pages perf will free */
	if (eng->hw.gen)
		nvpc_record_detach(eng);
	was_gone = xchg(&eng->gone, true);
	active = nvpc_nr_counting(eng);
	nvpc_unlock(eng, flags);
	/* the backend is not called after this: give back what events hold */
	if (core->active_held && ndev->ops && ndev->ops->active_put)
		ndev->ops->active_put(ndev->priv);
	core->active_held = false;
	mutex_unlock(&eng->active_lock);

	if (active && !was_gone)
		dev_info(eng->hw.dev, "%s: device removed: %u events stop counting and keep their last value\n",
			 core->name, active);
	nvpc_engine_stop_poll(eng);
	debugfs_remove_recursive(core->debugfs);
	core->debugfs = NULL;
	if (core->pmu_registered)
		nvpc_pmu_detach(core);
	ndev->core = NULL;
	/*
	 * Open events, and the watch after the last of them, keep the PMU
	 * (and this struct) until perf is done with it; events read their
	 * last value meanwhile. The backend's ndev is not used after this
	 * point. Without them the PMU goes now.
	 */
	kref_put(&core->refs, nvpc_core_release);
}
EXPORT_SYMBOL_GPL(nvpc_device_unregister);

static void nvpc_core_free(struct nvpc_core *core)
{
	put_device(core->eng.hw.dev);
	kfree(core);
}

/*
 * After the last reference, in process context (the remover or the
 * watch): perf's contexts of the PMU are idle (see the lifetime note
 * above), so unregister the PMU, free what perf cannot reach and bury
 * the rest.
 */
static void nvpc_core_release(struct kref *kref)
{
	struct nvpc_core *core = container_of(kref, struct nvpc_core, refs);
	struct nvpc_core *old, *tmp;
	LIST_HEAD(buried);

	mutex_lock(&nvpc_registry_lock);
	list_splice_init(&nvpc_graveyard, &buried);
	mutex_unlock(&nvpc_registry_lock);
	if (core->pmu_registered) {
		/* waits for every open that began before: those of @buried */
		nvpc_pmu_unregister(core);
		list_for_each_entry_safe(old, tmp, &buried, node)
			nvpc_core_free(old);
		INIT_LIST_HEAD(&buried);
		list_add(&core->node, &buried);
	}
	nvpc_record_release(&core->eng);
	nvpc_engine_fini(&core->eng);
	ida_free(&nvpc_ids, core->id);
	mutex_lock(&nvpc_registry_lock);
	list_splice(&buried, &nvpc_graveyard);
	mutex_unlock(&nvpc_registry_lock);
	if (!core->pmu_registered)
		nvpc_core_free(core);
}

/*
 * The watch of a GPU whose last event closed: it holds that event's
 * reference on the core until perf's contexts of the PMU are idle or an
 * event of ours is open again (whose close starts a new watch). Its
 * first run polls for release_wait_ms (perf's last few instructions
 * after ->destroy()); past that the contexts hold an event of another
 * PMU (a clock leader whose GPU members closed): the watch takes a
 * reference on the module (perf calls our callbacks for that event:
 * rmmod is refused meanwhile), the log says so once, and one check a
 * second follows until it closes. The PMU keeps its name meanwhile.
 */
static void nvpc_core_idle_work(struct work_struct *work)
{
	struct nvpc_core *core = container_of(to_delayed_work(work),
					      struct nvpc_core, idle_work);
	unsigned int ms = READ_ONCE(nvpc_release_wait_ms);
	bool idle, pinned;

	if (!core->pmu_registered)
		idle = true;
	else
		idle = nvpc_pmu_wait_idle(core, core->idle_tries ? 0 : ms);

	mutex_lock(&core->eng.active_lock);
	if (!idle && !core->nr_open) {
		if (!core->idle_tries++) {
			/* fails only while module exit waits for us */
			core->module_held = try_module_get(THIS_MODULE);
			dev_info(core->eng.hw.dev, "%s: perf's contexts of the PMU still hold an event of another PMU (a group leader) %u ms after the GPU's last event: the PMU, and the module, stay until it closes\n",
				 core->name, ms);
		}
		mutex_unlock(&core->eng.active_lock);
		queue_delayed_work(nvpc_release_wq, &core->idle_work, HZ);
		return;
	}
	core->watching = false;
	pinned = core->module_held;
	core->module_held = false;
	mutex_unlock(&core->eng.active_lock);
	if (core->idle_tries)
		dev_info(core->eng.hw.dev, "%s: perf's contexts of the PMU are free again after %u checks\n",
			 core->name, core->idle_tries + 1);
	kref_put(&core->refs, nvpc_core_release);
	if (atomic_dec_and_test(&nvpc_watches))
		wake_up(&nvpc_watches_wait);
	/*
	 * last: module exit destroys the workqueue, which waits for this
	 * function to return
	 */
	if (pinned)
		module_put(THIS_MODULE);
}

/**
 * nvpc_core_open() - an event of the GPU opens: take its reference on the
 *	core, wake the GPU for the first
 * @core: the GPU
 *
 * Context: process context (event_init); may sleep.
 * Return: 0, -ENODEV when the device is gone, or the backend's error.
 */
int nvpc_core_open(struct nvpc_core *core)
{
	struct nvpc_engine *eng = &core->eng;
	const struct nvpc_backend_ops *ops;
	int ret = 0;

	mutex_lock(&eng->active_lock);
	if (READ_ONCE(eng->gone)) {
		nvpc_dbg(eng, "device is gone\n");
		ret = -ENODEV;
		goto out;
	}
	ops = eng->hw.ndev->ops;
	if (!core->nr_open && ops && ops->active_get) {
		ret = ops->active_get(eng->hw.ndev->priv);
		if (ret) {
			nvpc_dbg(eng, "the backend cannot wake the GPU: %d\n",
				 ret);
			goto out;
		}
		core->active_held = true;
	}
	core->nr_open++;
	/* the event's reference, taken while @gone cannot be set */
	kref_get(&core->refs);
out:
	mutex_unlock(&eng->active_lock);
	return ret;
}

/**
 * nvpc_core_close() - undo nvpc_core_open() (event destroy); drops the
 *	event's reference, so @core may be gone after it
 * @core: the GPU
 *
 * Context: process context; may sleep.
 */
void nvpc_core_close(struct nvpc_core *core)
{
	struct nvpc_engine *eng = &core->eng;

	mutex_lock(&eng->active_lock);
	if (!--core->nr_open) {
		if (core->active_held) {
			eng->hw.ndev->ops->active_put(eng->hw.ndev->priv);
			core->active_held = false;
		}
		/*
		 * the watch (nvpc_core_idle_work()) takes over the event's
		 * reference
		 */
		if (!core->watching) {
			core->watching = true;
			core->idle_tries = 0;
			atomic_inc(&nvpc_watches);
			queue_delayed_work(nvpc_release_wq, &core->idle_work, 0);
			mutex_unlock(&eng->active_lock);
			return;
		}
	}
	mutex_unlock(&eng->active_lock);
	/* never the last: another event or the watch holds one */
	kref_put(&core->refs, nvpc_core_release);
}

/**
 * nvpc_registry_exit() - free the graveyard (module exit)
 *
 * Every GPU is unregistered by now. A watch still running did not hold
 * the module (its first poll had not ended when the unload began): wait
 * for it, however long perf's contexts stay busy, since perf would call
 * this module's code for what is in them.
 */
void nvpc_registry_exit(void)
{
	struct nvpc_core *core, *tmp;

	if (!wait_event_timeout(nvpc_watches_wait,
				!atomic_read(&nvpc_watches),
				msecs_to_jiffies(READ_ONCE(nvpc_release_wait_ms)) + HZ)) {
		pr_info("nvpcounter: unload waits until perf's contexts of a removed GPU's PMU hold no event of another PMU (a group leader still open)\n");
		wait_event(nvpc_watches_wait, !atomic_read(&nvpc_watches));
	}
	destroy_workqueue(nvpc_release_wq);
	/*
	 * No open can be inside a buried PMU's event_init now: it holds
	 * our module (try_module_get()), and the module is going
	 */
	list_for_each_entry_safe(core, tmp, &nvpc_graveyard, node)
		nvpc_core_free(core);
}

static int nvpc_devices_show(struct seq_file *m, void *unused)
{
	struct nvpc_core *core;

	mutex_lock(&nvpc_registry_lock);
	list_for_each_entry(core, &nvpc_registry, node)
		seq_printf(m, "%s %s 0x%02x %s%s\n", core->name,
			   core->eng.hw.chip->name, core->eng.hw.chip->chipset,
			   core->bus_id,
			   READ_ONCE(core->eng.gone) ? " gone" : "");
	mutex_unlock(&nvpc_registry_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nvpc_devices);

/*
 * A test hook (Documentation/perf.rst "Removal"): a write of N makes
 * perf's contexts of every PMU read busy for N ms from now, as if perf
 * still held them, so that the watch after a GPU's last event can be
 * seen holding the PMU and the module.
 */
static int nvpc_release_hold_set(void *data, u64 ms)
{
	if (ms > 60 * MSEC_PER_SEC)
		return -EINVAL;
	WRITE_ONCE(nvpc_pmu_hold_until_ns,
		   ms ? ktime_get_ns() + ms * NSEC_PER_MSEC : 0);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(nvpc_release_hold_fops, NULL, nvpc_release_hold_set,
			 "%llu\n");

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
	debugfs_create_file_unsafe("release_hold_ms", 0200, nvpc_debugfs_root,
				   NULL, &nvpc_release_hold_fops);
	return 0;
}
