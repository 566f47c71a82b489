// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter_sim: simulated GPUs for nvpcounter, backed by the PCOUNTER
 * model in model/, controlled through debugfs (Documentation/sim.rst).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/module.h>

static struct dentry *nvpc_sim_debugfs_root;

static int __init nvpc_sim_init(void)
{
	nvpc_sim_debugfs_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	pr_debug("loaded\n");
	return 0;
}

static void __exit nvpc_sim_exit(void)
{
	debugfs_remove_recursive(nvpc_sim_debugfs_root);
	pr_debug("unloaded\n");
}

module_init(nvpc_sim_init);
module_exit(nvpc_sim_exit);

MODULE_DESCRIPTION("Simulated NVIDIA PCOUNTER hardware for nvpcounter");
MODULE_LICENSE("GPL");
