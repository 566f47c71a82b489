// SPDX-License-Identifier: GPL-2.0
/*
 * The nvpcounter module's init and exit: CPU hotplug state, the device
 * registry the backends (sim, pci) register GPUs into, the debugfs root.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/module.h>

#include "core.h"
#include "pci.h"

struct dentry *nvpc_debugfs_root;

static int __init nvpc_module_init(void)
{
	int ret;

	ret = nvpc_pmu_module_init();
	if (ret)
		return ret;
	/* debugfs is optional: without it the driver still works */
	nvpc_debugfs_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	ret = nvpc_registry_init();
	if (ret) {
		debugfs_remove_recursive(nvpc_debugfs_root);
		nvpc_pmu_module_exit();
		return ret;
	}
	nvpc_pci_init(nvpc_debugfs_root);
	pr_debug("loaded\n");
	return 0;
}

/* backends depend on this module: every GPU is unregistered by now */
static void __exit nvpc_module_exit(void)
{
	nvpc_pci_exit();
	nvpc_registry_exit();
	nvpc_pmu_module_exit();
	debugfs_remove_recursive(nvpc_debugfs_root);
	pr_debug("unloaded\n");
}

module_init(nvpc_module_init);
module_exit(nvpc_module_exit);

MODULE_DESCRIPTION("NVIDIA PCOUNTER performance counters as perf PMUs");
MODULE_LICENSE("GPL");
