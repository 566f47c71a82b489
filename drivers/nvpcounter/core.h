/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvpcounter core internals shared by the registry, the perf glue, the
 * domain engine and the generation ops.
 */
#ifndef _NVPC_CORE_H
#define _NVPC_CORE_H

#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/spinlock.h>

#include <nvpcounter/catalog.h>
#include <nvpcounter/device.h>

/* dev_dbg() on the GPU's device: every rejection names its reason */
#define nvpc_dbg(core, fmt, ...) \
	dev_dbg((core)->ndev->dev, fmt, ##__VA_ARGS__)

extern struct dentry *nvpc_debugfs_root;

void nvpc_registry_init(void);

/**
 * struct nvpc_core - the core's state for one registered GPU
 * @ndev: the backend's device
 * @node: entry in the registry list
 * @id: registry index: PMU "nvpcounter" for 0, "nvpcounter_<id>" otherwise
 * @name: the PMU name
 * @gone: set once the hardware vanished: no more register access
 * @debugfs: the device's debugfs directory
 */
struct nvpc_core {
	struct nvpc_device *ndev;
	struct list_head node;
	int id;
	char name[32];
	bool gone;
	struct dentry *debugfs;
};

#endif /* _NVPC_CORE_H */
