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

#include "nvpc_file.h"

#define NVPC_EXP_MAX_GPUS	16
#define NVPC_EXP_MAX_DOMS	64	/* domains counted per GPU */
#define NVPC_EXP_PER_GROUP	4	/* a quad-mode domain's inputs */

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

struct nvpc_exp_sig {
	char name[64];		/* the events/ name: graph_idle */
	char engine[64];	/* graph; "" for an -e event */
	unsigned int id;
	int fd;			/* its event in the group; -1 not open */
	uint64_t count;		/* cycles at 1 since the group opened */
};

/* a domain counted: one perf group, its cycles leading its signals */
struct nvpc_exp_dom {
	char name[NVPC_FILE_NAME_LEN];	/* main.1 */
	unsigned int dset, dom, unit;
	int fd;				/* the leader; -1 not open */
	unsigned int nr;
	struct nvpc_exp_sig sig[NVPC_EXP_PER_GROUP];
	/* the last read: totals since the group opened */
	uint64_t cycles, enabled_ns, running_ns;
	bool have_loss[NVPC_EXP_NR_LOSS];
	uint64_t loss[NVPC_EXP_NR_LOSS];
};

struct nvpc_exp_gpu {
	char pmu[64];			/* nvpcounter_1 */
	char dir[512];			/* its sysfs directory */
	char chip[NVPC_FILE_NAME_LEN];
	char bus[NVPC_FILE_NAME_LEN];
	uint32_t type;
	int cpu;
	bool up;			/* counting; false: gone or refused, up 0 */
	bool refused;			/* its events would not open: retried */
	double gone_at;			/* when it went or was refused (monotonic s) */
	bool have_deferred;
	uint64_t reads_deferred;
	unsigned int nr;
	struct nvpc_exp_dom dom[NVPC_EXP_MAX_DOMS];
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
