// SPDX-License-Identifier: GPL-2.0
/*
 * Per-device debugfs: /sys/kernel/debug/nvpcounter/<pmu>/regs, a
 * root-only dump of the PCOUNTER registers of every domain, read under
 * the engine lock one line at a time.
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "core.h"

/* Print registers [@start, @end) four to a line; -ENODEV once gone. */
static int nvpc_dump_range(struct seq_file *m, struct nvpc_core *core,
			   u32 start, u32 end)
{
	struct nvpc_engine *eng = &core->eng;
	unsigned long flags;
	u32 a, v[4];
	int i;

	for (a = start; a < end; a += 16) {
		nvpc_lock(eng, flags);
		if (READ_ONCE(eng->gone)) {
			nvpc_unlock(eng, flags);
			return -ENODEV;
		}
		for (i = 0; i < 4; i++)
			v[i] = nvpc_rd32(eng->hw.ndev, a + 4 * i);
		nvpc_unlock(eng, flags);
		seq_printf(m, "%06x: %08x %08x %08x %08x\n", a, v[0], v[1],
			   v[2], v[3]);
	}
	return 0;
}

static int nvpc_regs_show(struct seq_file *m, void *unused)
{
	struct nvpc_core *core = m->private;
	const struct nvpc_hw *hw = &core->eng.hw;
	struct nvpc_reg_range r;
	unsigned int n;
	int ret = 0;

	seq_printf(m, "# %s %s %s\n", core->name, hw->chip->name, core->bus_id);
	for (n = 0; !ret && hw->gen->dump_range(hw, n, &r); n++)
		ret = nvpc_dump_range(m, core, r.start, r.end);
	return ret;
}
DEFINE_SHOW_ATTRIBUTE(nvpc_regs);

/**
 * nvpc_debugfs_add() - the device's debugfs files
 * @core: the GPU, its debugfs directory created
 */
void nvpc_debugfs_add(struct nvpc_core *core)
{
	if (core->eng.hw.gen)
		debugfs_create_file("regs", 0400, core->debugfs, core,
				    &nvpc_regs_fops);
}
