/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_event_open() as every command that opens nvpcounter events calls
 * it (perf.c): the config fields of the uapi header, the call itself,
 * and the one explanation of a privilege refusal with its fixes.
 */
#ifndef NVPC_PERF_H
#define NVPC_PERF_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* a value placed in a GENMASK field of the uapi header */
#define NVPC_FIELD(mask, v)	(((uint64_t)(v) << __builtin_ctzll(mask)) & (mask))

/* perf_event_open(a, pid -1, cpu, group, FD_CLOEXEC): an fd, or -1 and errno */
int nvpc_perf_open(struct perf_event_attr *a, int cpu, int group);

/* kernel.perf_event_paranoid, INT_MIN where it cannot be read */
int nvpc_perf_paranoid(void);

/* this program's path (/proc/self/exe), "" where it cannot be read */
void nvpc_self_exe(char *buf, size_t len);

/*
 * nvpc_perf_privilege() - say that a privilege refused @pmu's events
 * @pmu: the PMU
 * @err: perf_event_open()'s errno (EACCES or EPERM)
 * @needs: why and what the command needs, up to "CAP_PERFMON ..."
 *
 * "<pmu>: <error>: <needs>, root, or kernel.perf_event_paranoid of 0 or
 * less (it is N). Fix one of: sudo setcap cap_perfmon+ep <nvpc>; sudo
 * sysctl kernel.perf_event_paranoid=0; run as root"
 */
void nvpc_perf_privilege(const char *pmu, int err, const char *needs);

#endif /* NVPC_PERF_H */
