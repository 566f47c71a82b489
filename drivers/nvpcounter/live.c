// SPDX-License-Identifier: GPL-2.0
/*
 * NV10:NV30's counting: no quad mode there (pcounter.rst "Introduction"),
 * so each domain runs one endless single event counting period (PRE and
 * START always true, STOP never; the generation's start and restart) and
 * the engine sums the growth of the live CTR_EVENT and CTR_CYCLES, whose
 * low 39 bits wrap (pcounter.rst "Counters"). Starting that program takes
 * three cycles (PRE_OP write, WAIT_FOR_PRE, WAIT_FOR_START) in which
 * nothing is counted; every input write and every write of the shared
 * CTRL restarts it, so the live values are folded before each.
 */

#include <linux/slab.h>

#include "engine.h"

/**
 * struct nvpc_live - a domain's live counting program
 * @last: the live counters at the last sample (0 after a restart)
 */
struct nvpc_live {
	u64 last[NVPC_NR_CTRS];
};

static void *nvpc_live_setup(struct nvpc_engine *eng)
{
	return kzalloc(sizeof(struct nvpc_live), GFP_KERNEL);
}

/* the program restarted: its live counters start over */
static void nvpc_live_restarted(struct nvpc_domain *dom)
{
	struct nvpc_live *live = dom->priv;

	memset(live->last, 0, sizeof(live->last));
}

/* Fold the growth of the live counters since the last sample. */
static void nvpc_live_sample(struct nvpc_engine *eng, struct nvpc_domain *dom,
			     u64 now)
{
	u64 mask = BIT_ULL(eng->hw.gen->live_bits) - 1, ctr[NVPC_NR_CTRS];
	unsigned long used = nvpc_domain_used(dom);
	struct nvpc_live *live = dom->priv;
	u64 *last = live->last, grow;
	unsigned int i;

	/* a restart that has not landed yet: nothing of it to fold */
	if (eng->hw.gen->read(&eng->hw, dom->hw, used, ctr) ==
	    NVPC_QUAD_EMPTY)
		return;
	for_each_set_bit(i, &used, NVPC_NR_CTRS) {
		grow = (ctr[i] - last[i]) & mask;
		dom->acc[i] += grow;
		last[i] = ctr[i];
		if (i == NVPC_CTR_CYCLES)
			nvpc_clock_measure(dom, grow, now);
	}
	dom->sample_ns = now;
	dom->stats.samples++;
}

static void nvpc_live_start(struct nvpc_engine *eng, struct nvpc_domain *dom)
{
	nvpc_domain_program(eng, dom);
	nvpc_live_restarted(dom);
}

static void nvpc_live_update(struct nvpc_engine *eng, struct nvpc_domain *dom,
			     unsigned long dirty)
{
	if (nvpc_event_program(eng, dom, dirty))
		nvpc_live_restarted(dom);
}

static void nvpc_live_stop(struct nvpc_engine *eng, struct nvpc_domain *dom)
{
	eng->hw.gen->stop(&eng->hw, dom->hw);
}

/* the live counters restart when reprogrammed: fold them first */
static void nvpc_live_commit_begin(struct nvpc_engine *eng, bool dirty)
{
	if (dirty)
		nvpc_engine_sample(eng, NULL);
}

/* a write of the shared CTRL for the other domain restarted the program */
static void nvpc_live_ctrl_after(struct nvpc_engine *eng,
				 struct nvpc_domain *dom)
{
	eng->hw.gen->restart(&eng->hw, dom->hw);
	nvpc_live_restarted(dom);
}

static unsigned int nvpc_live_width(struct nvpc_engine *eng)
{
	return eng->hw.gen->live_bits;
}

const struct nvpc_mode_ops nvpc_mode_live = {
	.name = "live",
	.setup = nvpc_live_setup,
	.start = nvpc_live_start,
	.update = nvpc_live_update,
	.stop = nvpc_live_stop,
	.sample = nvpc_live_sample,
	.commit_begin = nvpc_live_commit_begin,
	.ctrl_after = nvpc_live_ctrl_after,
	.del = nvpc_event_sample_out,
	.set_ctr_mode = nvpc_domain_set_ctr_mode,
	.width = nvpc_live_width,
};
