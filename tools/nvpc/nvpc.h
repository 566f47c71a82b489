/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvpc: record-mode capture and report for the nvpcounter PMUs
 * (Documentation/nvpc.rst). Shared declarations of the tool's parts.
 */
#ifndef NVPC_H
#define NVPC_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "nvpc_file.h"

#define NVPC_DEFAULT_PMU	"nvpcounter"
#define NVPC_DEFAULT_OUTPUT	"nvpc.data"

extern int nvpc_verbose;
/* where nvpc_err() writes: NULL for stderr (the host fuzzer's own stream) */
extern FILE *nvpc_msg_file;

/* "nvpc: <message>" on stderr (nvpc_msg_file if set) */
void nvpc_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* the same, only with -v */
void nvpc_dbg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* copy src into dst of len bytes, cut to fit, always NUL-terminated */
void nvpc_strlcpy(char *dst, const char *src, size_t len);

/* *list (malloc()ed or NULL) with ",item" appended: 0 or -ENOMEM */
int nvpc_list_append(char **list, const char *item);

/* "-" names stdin or stdout */
static inline bool nvpc_is_stdio(const char *path)
{
	return path[0] == '-' && !path[1];
}

/*
 * pipe2(O_CLOEXEC) into p, stdout flushed, then fork(): the child's 0,
 * the parent's child pid, or -1 with a message (no pipe left open)
 */
pid_t nvpc_fork_pipe(int p[2]);

/* clk's time in nanoseconds */
uint64_t nvpc_now_ns(clockid_t clk);

/* all of len bytes to fd (EINTR retried): 0, or -errno (-EIO: wrote 0) */
int nvpc_write_all(int fd, const void *buf, size_t len);

/* a decimal or 0x number that fills the whole string; 0 or -EINVAL */
int nvpc_parse_u64(const char *s, uint64_t *v);

/* the subcommands: exit status */
int nvpc_record(int argc, char **argv);
int nvpc_report(int argc, char **argv);
int nvpc_plot(int argc, char **argv);
int nvpc_list(int argc, char **argv);
int nvpc_top(int argc, char **argv);
int nvpc_export(int argc, char **argv);

/* record's long options; the first NVPC_RECORD_SHARED are top's too */
#define NVPC_RECORD_SHARED	11
extern const struct option nvpc_record_options[];

/* what a PMU is (sysfs, Documentation/ABI/.../sysfs-bus-event_source-devices-nvpcounter) */
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

/* the root of the PMUs in sysfs ($NVPC_SYSFS for tests) */
const char *nvpc_sysfs_root(void);
/* read a small sysfs file, trailing newline cut: length or -errno */
int nvpc_sysfs_read(const char *path, char *buf, size_t len);
int nvpc_sysfs_u64(const char *path, uint64_t *v);

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

/* nvpc top with no -d: every GPU's engines (engines.c) */
int nvpc_top_engines(int argc, char **argv);

/*
 * The named signals of d in g's events/, sorted, as "name 0xNN, ..."
 * into out: how many, or -ENOMEM.
 */
int nvpc_domain_events(const struct nvpc_gpu *g, const struct nvpc_domain *d,
		       char *out, size_t len);

#endif /* NVPC_H */
