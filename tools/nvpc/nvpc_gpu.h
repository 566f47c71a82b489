/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The nvpcounter PMUs, domains and signals as sysfs shows them (gpu.c,
 * Documentation/ABI/testing/sysfs-bus-event_source-devices-nvpcounter):
 * what record, list, top and export look up before they open anything.
 */
#ifndef NVPC_GPU_H
#define NVPC_GPU_H

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>

#include "nvpc_file.h"

#define NVPC_DEFAULT_PMU	"nvpcounter"

/* what a PMU is */
struct nvpc_gpu {
	char pmu[64];
	char dir[512];		/* its sysfs directory */
	uint32_t type;
	int cpu;		/* the first CPU of its cpumask */
	char chip[NVPC_FILE_NAME_LEN];
	char bus[NVPC_FILE_NAME_LEN];
};

struct nvpc_domain {
	char name[NVPC_FILE_NAME_LEN];	/* main.1, gpc0.2 ... */
	char dir[640];
	unsigned int dset, dom, unit;
	unsigned int signals;		/* ids below this are valid, 0 unknown */
	uint64_t clock_hz;		/* measured, 0 before a measurement */
	uint64_t nominal_hz;
};

/*
 * the root of the PMUs in sysfs ($NVPC_SYSFS for tests, ignored with
 * more rights than the user's: secure_getenv(3))
 */
const char *nvpc_sysfs_root(void);
/* read a small sysfs file, trailing newline cut: length or -errno */
int nvpc_sysfs_read(const char *path, char *buf, size_t len);
int nvpc_sysfs_u64(const char *path, uint64_t *v);

/*
 * The nvpcounter PMUs in sysfs, in version order (nvpcounter,
 * nvpcounter_1, ..., nvpcounter_10), as scandir() gives them: how many
 * (each entry and *pmus free()d by the caller), or -1 and errno.
 */
int nvpc_pmu_scan(struct dirent ***pmus);
/* the message for a scan that found none: is the module loaded? */
void nvpc_pmu_none(void);

/* Each prints what is wrong and what is valid, and returns -errno. */
int nvpc_gpu_open(const char *pmu, struct nvpc_gpu *g);
int nvpc_domain_open(const struct nvpc_gpu *g, const char *name,
		     struct nvpc_domain *d);
int nvpc_signal_lookup(const struct nvpc_gpu *g, const struct nvpc_domain *d,
		       const char *spec, struct nvpc_signal *s);

/*
 * An events/ file of one signal ("dset=D,dom=N,sig0=0xNN"): 0 and its
 * fields, -EINVAL for any other (cycles, a unit sum ...)
 */
int nvpc_event_parse(const char *path, unsigned int *dset, unsigned int *dom,
		     unsigned int *sig);

/*
 * The named signals of d in g's events/, sorted, as "name 0xNN, ..."
 * into out: how many, or -ENOMEM.
 */
int nvpc_domain_events(const struct nvpc_gpu *g, const struct nvpc_domain *d,
		       char *out, size_t len);

#endif /* NVPC_GPU_H */
