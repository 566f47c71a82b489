// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter core: the device registry that the backends (sim, pci)
 * register GPUs into, and the module's debugfs root.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/module.h>

#include "core.h"

struct dentry *nvpc_debugfs_root;

static int __init nvpc_core_init(void)
{
	/* debugfs is optional: without it the driver still works */
	nvpc_debugfs_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	nvpc_registry_init();
	pr_debug("loaded\n");
	return 0;
}

static void __exit nvpc_core_exit(void)
{
	debugfs_remove_recursive(nvpc_debugfs_root);
	pr_debug("unloaded\n");
}

module_init(nvpc_core_init);
module_exit(nvpc_core_exit);

MODULE_DESCRIPTION("NVIDIA PCOUNTER performance counters as perf PMUs");
MODULE_LICENSE("GPL");
