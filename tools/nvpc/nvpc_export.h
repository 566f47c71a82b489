/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvpc export: the counts of every GPU as Prometheus metrics
 * (Documentation/monitoring.rst "Prometheus"). export.c counts and
 * serves; export_page.c writes the page from what was read, so the host
 * tests give it counts of their own.
 */
#ifndef NVPC_EXPORT_H
#define NVPC_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "nvpc_live.h"

#define NVPC_EXP_MAX_GPUS	16

/* the driver's loss and sample counts of a domain (sysfs domains/<d>/) */
enum nvpc_exp_loss {
	NVPC_EXP_LOST_PERIODS,
	NVPC_EXP_SATURATIONS,
	NVPC_EXP_STRAGGLERS,
	NVPC_EXP_NOT_RESPONDING,
	NVPC_EXP_SAMPLES,
	NVPC_EXP_NR_LOSS,
};

/* the sysfs file of each loss count, in enum nvpc_exp_loss's order */
extern const char *const nvpc_exp_loss_file[NVPC_EXP_NR_LOSS];

/* the driver's loss counts of a group's domain, where sysfs has them */
struct nvpc_exp_losses {
	bool have[NVPC_EXP_NR_LOSS];
	uint64_t v[NVPC_EXP_NR_LOSS];
};

/*
 * A GPU exported: its groups (nvpc_live.h), counted since they opened,
 * each group's domain name, cycles, time enabled and running, and its
 * signals' names and counts as last read
 */
struct nvpc_exp_gpu {
	struct nvpc_live_gpu lg;	/* its PMU (lg.g) and groups */
	bool up;			/* counting; false: gone or refused, up 0 */
	bool refused;			/* its events would not open: retried */
	double gone_at;			/* when it went or was refused (monotonic s) */
	bool have_deferred;
	uint64_t reads_deferred;
	struct nvpc_exp_losses loss[NVPC_LIVE_MAX_GROUPS];	/* lg.grp[]'s */
};

/*
 * The page (Prometheus text format 0.0.4) of nr GPUs as last read: each
 * family's HELP and TYPE, then its series. 0, or -errno of the stream.
 */
int nvpc_export_page(FILE *o, const struct nvpc_exp_gpu *const *gpu,
		     unsigned int nr);

/* a label value as the text format quotes it (\\, \", \n) */
void nvpc_export_label(FILE *o, const char *v);

/*
 * The URL of the page for --listen's ADDR:PORT, one a reader can paste:
 * a wildcard (":9089", "*:9089", "0.0.0.0:9089", "[::]:9089") takes
 * host (this host's name; 127.0.0.1 when NULL or empty) for ADDR
 */
void nvpc_export_url(char *buf, size_t len, const char *listen,
		     const char *host);

#endif /* NVPC_EXPORT_H */
