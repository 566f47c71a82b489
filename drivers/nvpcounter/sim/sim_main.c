// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter_sim: simulated GPUs for nvpcounter, backed by the PCOUNTER
 * model in model/, controlled through debugfs (Documentation/sim.rst).
 * This file keeps the list of GPUs and the top-level create/remove/list
 * files; sim_gpu.c builds a GPU, sim_debugfs.c holds its control files.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <nvpcounter/catalog.h>
#include <nvpcounter/regs.h>

#include "sim.h"

#define NVPC_SIMDEV_CMD_MAX	128

static struct dentry *nvpc_simdev_root;
/* the GPUs, by creation; protects the list and id allocation */
static LIST_HEAD(nvpc_simdev_list);
static DEFINE_MUTEX(nvpc_simdev_list_lock);

static struct nvpc_simdev *nvpc_simdev_find(int id)
{
	struct nvpc_simdev *sd;

	list_for_each_entry(sd, &nvpc_simdev_list, node)
		if (sd->id == id)
			return sd;
	return NULL;
}

/* A chipset: a catalogue name or alt_name (any case), or a number. */
static const struct nvpc_chip_desc *nvpc_simdev_chip_parse(const char *s)
{
	const struct nvpc_chip_desc *chip;
	unsigned int i;
	u16 id;

	for (i = 0; i < nvpc_catalog_nr_chips(); i++) {
		chip = nvpc_catalog_chip(i);
		if (!strcasecmp(s, chip->name) ||
		    (chip->alt_name && !strcasecmp(s, chip->alt_name)))
			return chip;
	}
	if (kstrtou16(s, 0, &id))
		return NULL;
	return nvpc_catalog_find(id);
}

static int nvpc_simdev_opt_uint(const char *s, unsigned int max,
				unsigned int *v)
{
	if (kstrtouint(s, 0, v) || *v < 1 || *v > max) {
		pr_debug("option value \"%s\" not in 1..%u\n", s, max);
		return -EINVAL;
	}
	return 0;
}

static int nvpc_simdev_parse_create(char *buf, struct nvpc_simdev_opts *o)
{
	char *w, *val;
	int nw = 0;

	memset(o, 0, sizeof(*o));
	o->id = -1;
	while ((w = strsep(&buf, " \t\n"))) {
		if (!*w)
			continue;
		if (!nw++) {
			o->chip = nvpc_simdev_chip_parse(w);
			if (!o->chip) {
				pr_debug("no chipset \"%s\" in the catalogue\n",
					 w);
				return -EINVAL;
			}
			continue;
		}
		val = strchr(w, '=');
		if (!val) {
			pr_debug("option \"%s\" is not KEY=VALUE\n", w);
			return -EINVAL;
		}
		*val++ = '\0';
		if (!strcmp(w, "gpcs") || !strcmp(w, "parts")) {
			bool gpc = w[0] == 'g';

			if (o->chip->gen < NVPC_GEN_GF100) {
				pr_debug("%s= needs a GF100+ chip\n", w);
				return -EINVAL;
			}
			if (nvpc_simdev_opt_uint(val, gpc ? NVPC_GF100_MAX_GPC :
						 NVPC_GF100_MAX_PART,
						 gpc ? &o->nr_gpc :
						 &o->nr_part))
				return -EINVAL;
		} else if (!strcmp(w, "clock")) {
			if (!strcmp(val, "realtime")) {
				o->realtime = true;
			} else if (strcmp(val, "manual")) {
				pr_debug("clock=%s: manual or realtime\n", val);
				return -EINVAL;
			}
		} else if (!strcmp(w, "gctrl")) {
			if (o->chip->gen < NVPC_GEN_G84) {
				pr_debug("gctrl= needs a G84+ chip\n");
				return -EINVAL;
			}
			if (kstrtou32(val, 0, &o->gctrl)) {
				pr_debug("gctrl=%s: not a 32-bit number\n", val);
				return -EINVAL;
			}
			o->gctrl_set = true;
		} else if (!strcmp(w, "id")) {
			unsigned int id;

			if (kstrtouint(val, 0, &id) ||
			    id >= NVPC_SIMDEV_MAX_GPUS) {
				pr_debug("id=%s not in 0..%d\n", val,
					 NVPC_SIMDEV_MAX_GPUS - 1);
				return -EINVAL;
			}
			o->id = id;
		} else {
			pr_debug("unknown option \"%s\"\n", w);
			return -EINVAL;
		}
	}
	if (!o->chip) {
		pr_debug("create: no chipset given\n");
		return -EINVAL;
	}
	return 0;
}

static ssize_t nvpc_simdev_create_write(struct file *file,
					const char __user *ubuf, size_t len,
					loff_t *ppos)
{
	struct nvpc_simdev_opts o;
	char buf[NVPC_SIMDEV_CMD_MAX];
	struct nvpc_simdev *sd;
	int ret;

	if (!len || len >= sizeof(buf)) {
		pr_debug("create: command of %zu bytes\n", len);
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	ret = nvpc_simdev_parse_create(buf, &o);
	if (ret)
		return ret;

	mutex_lock(&nvpc_simdev_list_lock);
	if (o.id < 0) {
		for (o.id = 0; o.id < NVPC_SIMDEV_MAX_GPUS; o.id++)
			if (!nvpc_simdev_find(o.id))
				break;
		if (o.id == NVPC_SIMDEV_MAX_GPUS) {
			pr_debug("all %d GPU ids in use\n",
				 NVPC_SIMDEV_MAX_GPUS);
			ret = -ENOSPC;
			goto out;
		}
	} else if (nvpc_simdev_find(o.id)) {
		pr_debug("GPU id %d exists\n", o.id);
		ret = -EEXIST;
		goto out;
	}
	sd = nvpc_simdev_create(&o);
	if (IS_ERR(sd)) {
		ret = PTR_ERR(sd);
		goto out;
	}
	list_add_tail(&sd->node, &nvpc_simdev_list);
	nvpc_simdev_debugfs_add(sd, nvpc_simdev_root);
	pr_debug("created gpu%d: %s\n", sd->id, sd->chip->name);
out:
	mutex_unlock(&nvpc_simdev_list_lock);
	return ret ? ret : len;
}

/* Debugfs first: it waits for running handlers, then the core lets go. */
static void nvpc_simdev_remove(struct nvpc_simdev *sd)
{
	list_del(&sd->node);
	debugfs_remove_recursive(sd->dir);
	nvpc_simdev_destroy(sd);
}

static ssize_t nvpc_simdev_remove_write(struct file *file,
					const char __user *ubuf, size_t len,
					loff_t *ppos)
{
	struct nvpc_simdev *sd;
	unsigned int id;
	int ret;

	ret = kstrtouint_from_user(ubuf, len, 0, &id);
	if (ret) {
		pr_debug("remove: not a GPU id\n");
		return -EINVAL;
	}
	mutex_lock(&nvpc_simdev_list_lock);
	sd = nvpc_simdev_find(id);
	if (sd)
		nvpc_simdev_remove(sd);
	mutex_unlock(&nvpc_simdev_list_lock);
	if (!sd) {
		pr_debug("remove: no gpu%u\n", id);
		return -ENOENT;
	}
	return len;
}

static int nvpc_simdev_list_show(struct seq_file *m, void *unused)
{
	struct nvpc_simdev *sd;

	mutex_lock(&nvpc_simdev_list_lock);
	list_for_each_entry(sd, &nvpc_simdev_list, node)
		seq_printf(m, "%d 0x%02x %s %s %s\n", sd->id, sd->chip->chipset,
			   sd->chip->name, sd->bus_id,
			   READ_ONCE(sd->realtime) ? "realtime" : "manual");
	mutex_unlock(&nvpc_simdev_list_lock);
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(nvpc_simdev_list);

static const struct file_operations nvpc_simdev_create_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = nvpc_simdev_create_write,
	.llseek = noop_llseek,
};

static const struct file_operations nvpc_simdev_remove_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = nvpc_simdev_remove_write,
	.llseek = noop_llseek,
};

static int __init nvpc_simdev_init(void)
{
	nvpc_simdev_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("create", 0200, nvpc_simdev_root, NULL,
			    &nvpc_simdev_create_fops);
	debugfs_create_file("remove", 0200, nvpc_simdev_root, NULL,
			    &nvpc_simdev_remove_fops);
	debugfs_create_file("list", 0400, nvpc_simdev_root, NULL,
			    &nvpc_simdev_list_fops);
	pr_debug("loaded\n");
	return 0;
}

static void __exit nvpc_simdev_exit(void)
{
	struct nvpc_simdev *sd, *tmp;

	/* no new GPUs: the create file goes first */
	debugfs_remove_recursive(nvpc_simdev_root);
	mutex_lock(&nvpc_simdev_list_lock);
	list_for_each_entry_safe(sd, tmp, &nvpc_simdev_list, node) {
		list_del(&sd->node);
		nvpc_simdev_destroy(sd);
	}
	mutex_unlock(&nvpc_simdev_list_lock);
	pr_debug("unloaded\n");
}

module_init(nvpc_simdev_init);
module_exit(nvpc_simdev_exit);

MODULE_DESCRIPTION("Simulated NVIDIA PCOUNTER hardware for nvpcounter");
MODULE_LICENSE("GPL");
