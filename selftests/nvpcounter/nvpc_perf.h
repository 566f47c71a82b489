/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the perf kselftests: a simulated GPU driven through the
 * debugfs interface of Documentation/sim.rst, its PMU found in sysfs, and
 * perf_event_open() on it.
 */
#ifndef NVPC_PERF_H
#define NVPC_PERF_H

#include <stdarg.h>
#include <dirent.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <linux/nvpcounter.h>

#include "nvpc_ksft.h"

#define NVPC_SIM_DIR	"/sys/kernel/debug/nvpcounter_sim"
#define NVPC_PMU_DIR	"/sys/bus/event_source/devices"

/* Write one command to a file; 0 or -errno. */
static inline int nvpc_vwrite(const char *path, const char *fmt, va_list ap)
{
	char buf[256];
	ssize_t n;
	int fd, len;

	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	n = n < 0 ? -errno : (n == len ? 0 : -EIO);
	close(fd);
	return n;
}

static inline int nvpc_write(const char *path, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = nvpc_vwrite(path, fmt, ap);
	va_end(ap);
	return ret;
}

/* A command to gpu<ID>/<file>. */
static inline int sim_cmd(int gpu, const char *file, const char *fmt, ...)
{
	char path[128];
	va_list ap;
	int ret;

	snprintf(path, sizeof(path), NVPC_SIM_DIR "/gpu%d/%s", gpu, file);
	va_start(ap, fmt);
	ret = nvpc_vwrite(path, fmt, ap);
	va_end(ap);
	return ret;
}

/* A register through GPU @gpu's "reg" file (sim.rst); ~0 if it failed. */
static inline __u64 sim_reg(int gpu, unsigned int addr)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), NVPC_SIM_DIR "/gpu%d/reg", gpu);
	if (sim_cmd(gpu, "reg", "0x%x", addr) ||
	    nvpc_read_file(path, buf, sizeof(buf)) <= 0)
		return ~0ULL;
	return strtoull(buf, NULL, 16);
}

/* Load both modules (if needed) and create GPU @id from @args. */
static inline int sim_gpu_create(int id, const char *args)
{
	int ret;

	if (!nvpc_mod_loaded("nvpcounter")) {
		ret = nvpc_mod_load("nvpcounter", NULL);
		if (ret)
			return ret;
	}
	if (!nvpc_mod_loaded("nvpcounter_sim")) {
		ret = nvpc_mod_load("nvpcounter_sim", NULL);
		if (ret)
			return ret;
	}
	return nvpc_write(NVPC_SIM_DIR "/create", "%s id=%d", args, id);
}

static inline int nvpc_pmu_find(int id, char *dir, size_t len);

/*
 * Remove GPU @id and wait (up to 5 s) until its PMU is gone from sysfs:
 * the core unregisters it from a work item once no event holds it, and a
 * new GPU with the same id must not find the old PMU.
 */
static inline int sim_gpu_remove(int id)
{
	char dir[PATH_MAX];
	int ret, i;

	ret = nvpc_write(NVPC_SIM_DIR "/remove", "%d", id);
	for (i = 0; !ret && i < 500 && nvpc_pmu_find(id, dir, sizeof(dir)) >= 0;
	     i++)
		usleep(10000);
	return ret;
}

/*
 * The PMU directory of simulated GPU @id: the one whose identifier ends
 * in "sim.<id>". Fills @dir (a path) and returns the PMU type, or -1.
 */
static inline int nvpc_pmu_find(int id, char *dir, size_t len)
{
	char path[PATH_MAX], buf[128], want[32];
	struct dirent *de;
	int type = -1;
	DIR *d;

	snprintf(want, sizeof(want), " sim.%d\n", id);
	d = opendir(NVPC_PMU_DIR);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "nvpcounter", 10))
			continue;
		snprintf(path, sizeof(path), NVPC_PMU_DIR "/%s/identifier",
			 de->d_name);
		if (nvpc_read_file(path, buf, sizeof(buf)) <= 0)
			continue;
		if (strlen(buf) < strlen(want) ||
		    strcmp(buf + strlen(buf) - strlen(want), want))
			continue;
		snprintf(path, sizeof(path), NVPC_PMU_DIR "/%s/type",
			 de->d_name);
		if (nvpc_read_file(path, buf, sizeof(buf)) > 0)
			type = atoi(buf);
		snprintf(dir, len, NVPC_PMU_DIR "/%s", de->d_name);
		break;
	}
	closedir(d);
	return type;
}

/* A number from a file under the PMU directory, or -1. */
static inline long long nvpc_pmu_num(const char *pmudir, const char *rel)
{
	char path[PATH_MAX], buf[128];

	snprintf(path, sizeof(path), "%s/%s", pmudir, rel);
	if (nvpc_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strtoll(buf, NULL, 0);
}

/* Open a counting event, pinned or not; the fd or -errno. */
static inline int nvpc_ev_open_pinned(int type, __u64 config, __u64 config1,
				      __u64 config2, int pinned, int group_fd)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = type,
		.config = config,
		.config1 = config1,
		.config2 = config2,
		.pinned = pinned,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	int fd = syscall(__NR_perf_event_open, &attr, -1, 0, group_fd, 0);

	return fd < 0 ? -errno : fd;
}

/* Open a counting event; the fd or -errno. */
static inline int nvpc_ev_open(int type, __u64 config, __u64 config1,
			       __u64 config2, int group_fd)
{
	return nvpc_ev_open_pinned(type, config, config1, config2, 0,
				   group_fd);
}

/* Same with a whole attr (for the error cases); the fd or -errno. */
static inline int nvpc_attr_open(struct perf_event_attr *attr, int pid,
				 int cpu)
{
	int fd;

	attr->size = sizeof(*attr);
	fd = syscall(__NR_perf_event_open, attr, pid, cpu, -1, 0);
	return fd < 0 ? -errno : fd;
}

struct nvpc_val {
	__u64 count;
	__u64 enabled;
	__u64 running;
};

static inline int nvpc_ev_read(int fd, struct nvpc_val *v)
{
	return read(fd, v, sizeof(*v)) == sizeof(*v) ? 0 : -1;
}

static inline __u64 nvpc_ev_count(int fd)
{
	struct nvpc_val v;

	return nvpc_ev_read(fd, &v) ? ~0ULL : v.count;
}

/* config helpers: the fields of include/uapi/linux/nvpcounter.h */
#define NVPC_FIELD(mask, v)	(((__u64)(v) << __builtin_ctzll(mask)) & (mask))
#define CFG_SIG(j, s)		NVPC_FIELD(0xffULL << (8 * (j)), s)
#define CFG_OP(op)		NVPC_FIELD(NVPC_CFG_OP, op)
#define CFG_OPBITS(b)		NVPC_FIELD(NVPC_CFG_OPBITS, b)
#define CFG_SLOT(s)		NVPC_FIELD(NVPC_CFG_SLOT, (s) + 1)
#define CFG_MODE(m)		NVPC_FIELD(NVPC_CFG_MODE, m)
#define CFG_CYCLES		NVPC_CFG_CYCLES
#define CFG1_DOM(set, unit, dom)	(NVPC_FIELD(NVPC_CFG1_DSET, set) | \
					 NVPC_FIELD(NVPC_CFG1_UNIT, unit) | \
					 NVPC_FIELD(NVPC_CFG1_DOM, dom))
#define CFG2_BSIG(j, s)		NVPC_FIELD(0xffULL << (8 * (j)), s)

/*
 * Waveforms, as Documentation/sim.rst defines them: constant V, or 1 in
 * cycle c iff (c + PHASE) % PERIOD < WIDTH.
 */
struct nvpc_wave {
	__u64 period;	/* 0: constant */
	__u64 width;		/* constant: the value */
	__u64 phase;
};

#define WAVE_CONST(v)		((struct nvpc_wave){ 0, (v), 0 })
#define WAVE_PERIODIC(p, w, ph)	((struct nvpc_wave){ (p), (w), (ph) })

static inline int nvpc_wave_at(const struct nvpc_wave *w, __s64 c)
{
	if (!w->period)
		return w->width != 0;
	if (c < 0)
		return 0;
	return ((__u64)c + w->phase) % w->period < w->width;
}

static inline int sim_wave(int gpu, const char *dom, int sig,
			   struct nvpc_wave w)
{
	if (!w.period)
		return sim_cmd(gpu, "wave", "%s %d const %d", dom, sig,
			       (int)w.width);
	return sim_cmd(gpu, "wave", "%s %d periodic %llu %llu %llu", dom, sig,
		       w.period, w.width, w.phase);
}

static inline int sim_advance(int gpu, __u64 n, const char *dom)
{
	return sim_cmd(gpu, "advance", "%llu %s", n, dom);
}

#endif /* NVPC_PERF_H */
