/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A host backend for the generation code (drivers/nvpcounter/gen*.c): a
 * struct nvpc_device whose register accesses go to the sim model's
 * register file, the hardware part (struct nvpc_hw) the engine would set
 * up for it, and a trace of every access the generation ops make.
 */
#ifndef _GEN_HOST_H
#define _GEN_HOST_H

#include <linux/device.h>

#include "gen.h"
#include "sim_model.h"

/* the accesses one test looks at, at the most */
#define HOST_TRACE_MAX		256

/**
 * struct host_access - one register access of the generation ops
 * @addr: BAR0 address
 * @val: the value read or written
 * @write: a write
 * @modelled: the sim knows the register (not absent, not only stored)
 */
struct host_access {
	u32 addr;
	u32 val;
	bool write;
	bool modelled;
};

/**
 * struct host_gpu - a simulated GPU seen through the generation ops
 * @sim: the sim model
 * @dev: the device the ops log on
 * @ndev: the backend's device, its register access the sim's
 * @hw: the hardware part, its domains enumerated by nvpc_hw_domains_init()
 * @trace: the accesses since host_trace_reset()
 * @nr_trace: entries in @trace
 * @lost: accesses beyond HOST_TRACE_MAX (a test that sees any fails)
 * @logged: messages the ops logged (dev_info())
 */
struct host_gpu {
	struct nvpc_sim *sim;
	struct device dev;
	struct nvpc_device ndev;
	struct nvpc_hw hw;
	struct host_access trace[HOST_TRACE_MAX];
	unsigned int nr_trace;
	unsigned int lost;
	unsigned int logged;
};

int host_gpu_init(struct host_gpu *g, const struct nvpc_chip_desc *chip,
		  u8 nr_gpc, u8 nr_part);
void host_gpu_fini(struct host_gpu *g);
struct nvpc_hw_domain *host_domain(struct host_gpu *g, const char *name);
int host_sim_domain(struct host_gpu *g, const struct nvpc_hw_domain *dom);
void host_trace_reset(struct host_gpu *g);
int host_last_write(const struct host_gpu *g, u32 addr);
int host_first_write(const struct host_gpu *g, u32 addr);
unsigned int host_writes_to(const struct host_gpu *g, u32 addr);
u32 host_rd(struct host_gpu *g, u32 addr);

#endif /* _GEN_HOST_H */
