/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Live counting (live.c): a GPU's domains opened as perf groups on the
 * PMU's CPU, each domain's cycles leading up to four of its signals (a
 * quad-mode domain's inputs), read like perf stat -I. The driver reads
 * a group's members in one swap, so a signal's count and the cycles
 * beside it cover the same cycles. nvpc top (engines.c), nvpc export
 * and nvpc scan count through it.
 */
#ifndef NVPC_LIVE_H
#define NVPC_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "nvpc_gpu.h"

#define NVPC_LIVE_PER_GROUP	4	/* a quad-mode domain's inputs */
#define NVPC_LIVE_MAX_GROUPS	64	/* groups per GPU */
#define NVPC_LIVE_NAME_LEN	64	/* an events/ name */

/* a signal counted in a group */
struct nvpc_live_sig {
	char name[NVPC_LIVE_NAME_LEN];	/* events/ name: graph_idle; "" none */
	char engine[NVPC_LIVE_NAME_LEN];/* graph for graph_idle; "" none */
	unsigned int id;
	uint64_t config;		/* its event's config: sig0=id, or scan's */
	int fd;				/* its event; -1 not open */
	uint64_t count;			/* cycles at 1 since the group opened */
	uint64_t delta;			/* what the last read added */
};

/* a domain counted: one perf group, its cycles leading its signals */
struct nvpc_live_group {
	char name[NVPC_FILE_NAME_LEN];	/* the domain: main.1 */
	unsigned int dset, dom, unit;
	bool allunits;			/* a unit sum: every GPC's (partition's) */
	int fd;				/* the leader; -1 not open */
	unsigned int nr;
	struct nvpc_live_sig sig[NVPC_LIVE_PER_GROUP];
	/* totals since the group opened, as last read */
	uint64_t cycles, enabled_ns, running_ns;
	/* what the last read added to them */
	uint64_t d_cycles, d_enabled_ns, d_running_ns;
};

/* a GPU's groups */
struct nvpc_live_gpu {
	struct nvpc_gpu g;
	unsigned int nr;
	struct nvpc_live_group grp[NVPC_LIVE_MAX_GROUPS];
};

/*
 * nvpc_live_group_of() - the group of domain @d in @lg, a new one if it
 * has none
 * @spill: a full group (four signals) of @d gets a second one beside it
 * (nvpc top), else the domain's only group is returned full
 *
 * NULL: @lg has NVPC_LIVE_MAX_GROUPS groups already.
 */
struct nvpc_live_group *nvpc_live_group_of(struct nvpc_live_gpu *lg,
					   const struct nvpc_domain *d,
					   bool spill);

/*
 * nvpc_live_domain_of() - the domain of domains/ with set @dset and
 * index @dom (its unit 0 where it has units), as events/ names one
 * 0, or -ENOENT
 */
int nvpc_live_domain_of(const struct nvpc_gpu *g, unsigned int dset,
			unsigned int dom, struct nvpc_domain *d);

/*
 * nvpc_live_add() - signal @name (events/, may be "") of id @sig into
 * its domain @d's group
 * @engine: it is an engine's <engine>_idle (its engine is named)
 *
 * The signal, or NULL and errno: E2BIG no room (a fifth signal without
 * @spill, or no group left). A signal the group counts already is
 * returned as it is.
 */
struct nvpc_live_sig *nvpc_live_add(struct nvpc_live_gpu *lg,
				    const struct nvpc_domain *d,
				    const char *name, unsigned int sig,
				    bool engine, bool spill);

/*
 * nvpc_live_engines() - every <engine>_idle signal of @lg's events/
 * into its domain's group (Documentation/monitoring.rst)
 *
 * How many, or -errno said (-E2BIG: more than the groups hold).
 */
int nvpc_live_engines(struct nvpc_live_gpu *lg, bool spill);

/*
 * nvpc_live_clocks() - a group of the cycles alone for every domain of
 * domains/ (a GPU without an engine shows its clocks)
 *
 * How many domains did not fit (not counted), or -errno said.
 */
int nvpc_live_clocks(struct nvpc_live_gpu *lg);

/*
 * nvpc_live_open() - open every group of @lg, each disabled and then
 * enabled whole (PERF_IOC_FLAG_GROUP on its leader), so that its cycles
 * and its signals count from the same cycle
 * @needs: what a privilege refusal says the command needs
 * (nvpc_perf_privilege())
 *
 * 0, or -errno said, nothing left open.
 */
int nvpc_live_open(struct nvpc_live_gpu *lg, const char *needs);

/* nvpc_live_close() - close every group of @lg (members first) */
void nvpc_live_close(struct nvpc_live_gpu *lg);

/*
 * nvpc_live_read() - every group's totals and what they grew since the
 * last read (the first read: since the group opened)
 *
 * 0; -EIO a read came short; -ENODATA a read gave 0 bytes (the PMU's
 * event stopped: the GPU gone).
 */
int nvpc_live_read(struct nvpc_live_gpu *lg);

#endif /* NVPC_LIVE_H */
