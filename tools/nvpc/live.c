// SPDX-License-Identifier: GPL-2.0
/*
 * Live counting: a GPU's domains as perf groups (nvpc_live.h), what
 * nvpc top without -d, nvpc export and nvpc scan count with.
 *
 * Each group is a domain's cycles leading up to four of its signals on
 * the PMU's CPU (pid -1), read with PERF_FORMAT_GROUP, time_enabled and
 * time_running. A group is opened disabled and enabled whole: a leader
 * counting while its members were added one by one held hundreds of
 * cycles no signal saw, and a total read once (a textfile collector, a
 * since-start figure) showed an idle GPU busy.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <linux/perf_event.h>
#include <linux/nvpcounter.h>

#include "nvpc_live.h"
#include "nvpc_perf.h"
#include "nvpc_util.h"

static int visible(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

struct nvpc_live_group *nvpc_live_group_of(struct nvpc_live_gpu *lg,
					   const struct nvpc_domain *d,
					   bool spill)
{
	struct nvpc_live_group *gr;

	for (unsigned int i = 0; i < lg->nr; i++)
		if (!strcmp(lg->grp[i].name, d->name) &&
		    (!spill || lg->grp[i].nr < NVPC_LIVE_PER_GROUP))
			return &lg->grp[i];
	if (lg->nr == NVPC_LIVE_MAX_GROUPS)
		return NULL;
	gr = &lg->grp[lg->nr++];
	memset(gr, 0, sizeof(*gr));
	nvpc_strlcpy(gr->name, d->name, sizeof(gr->name));
	gr->dset = d->dset;
	gr->dom = d->dom;
	gr->unit = d->unit;
	gr->fd = -1;
	return gr;
}

int nvpc_live_domain_of(const struct nvpc_gpu *g, unsigned int dset,
			unsigned int dom, struct nvpc_domain *d)
{
	struct dirent **doms = NULL;
	char dir[600];
	int nd, ret = -ENOENT;

	snprintf(dir, sizeof(dir), "%s/domains", g->dir);
	nd = scandir(dir, &doms, visible, versionsort);
	for (int j = 0; j < nd; j++) {
		if (ret && !nvpc_domain_open(g, doms[j]->d_name, d) &&
		    d->dset == dset && d->dom == dom && !d->unit)
			ret = 0;
		free(doms[j]);
	}
	free(doms);
	return ret;
}

struct nvpc_live_sig *nvpc_live_add(struct nvpc_live_gpu *lg,
				    const struct nvpc_domain *d,
				    const char *name, unsigned int sig,
				    bool engine, bool spill)
{
	struct nvpc_live_group *gr = NULL;
	struct nvpc_live_sig *s;

	/* one counted already (an engine given to export -e too) */
	for (unsigned int i = 0; i < lg->nr; i++)
		for (unsigned int j = 0; j < lg->grp[i].nr; j++)
			if (!strcmp(lg->grp[i].name, d->name) &&
			    lg->grp[i].sig[j].id == sig)
				return &lg->grp[i].sig[j];
	gr = nvpc_live_group_of(lg, d, spill);
	if (!gr || gr->nr == NVPC_LIVE_PER_GROUP) {
		errno = E2BIG;
		return NULL;
	}
	s = &gr->sig[gr->nr++];
	memset(s, 0, sizeof(*s));
	nvpc_strlcpy(s->name, name, sizeof(s->name));
	if (engine) {
		size_t n = strlen(name) - strlen("_idle");

		memcpy(s->engine, name, n);
		s->engine[n] = '\0';
	}
	s->id = sig;
	s->config = NVPC_FIELD(NVPC_CFG_SIG0, sig);
	s->fd = -1;
	return s;
}

int nvpc_live_engines(struct nvpc_live_gpu *lg, bool spill)
{
	struct dirent **evs = NULL;
	char dir[600], path[1400];
	int ne, n = 0;

	snprintf(dir, sizeof(dir), "%s/events", lg->g.dir);
	ne = scandir(dir, &evs, visible, versionsort);
	for (int i = 0; i < ne; i++) {
		const char *name = evs[i]->d_name;
		size_t len = strlen(name);
		unsigned int dset, dom, sig;
		struct nvpc_domain d;

		if (n < 0 || len <= 5 || len >= NVPC_LIVE_NAME_LEN ||
		    strcmp(name + len - 5, "_idle"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (nvpc_event_parse(path, &dset, &dom, &sig) ||
		    nvpc_live_domain_of(&lg->g, dset, dom, &d))
			continue;
		if (nvpc_live_add(lg, &d, name, sig, true, spill)) {
			n++;
			continue;
		}
		nvpc_err("%s: %s would be the fifth signal of %s, which counts %d at once (its quad-mode inputs), or beyond %d groups",
			 lg->g.pmu, name, d.name, NVPC_LIVE_PER_GROUP,
			 NVPC_LIVE_MAX_GROUPS);
		n = -E2BIG;
	}
	for (int i = 0; i < ne; i++)
		free(evs[i]);
	free(evs);
	return n;
}

int nvpc_live_clocks(struct nvpc_live_gpu *lg)
{
	struct dirent **doms = NULL;
	char dir[600];
	int nd, more = 0;

	snprintf(dir, sizeof(dir), "%s/domains", lg->g.dir);
	nd = scandir(dir, &doms, visible, versionsort);
	for (int j = 0; j < nd; j++) {
		struct nvpc_domain d;

		if (!nvpc_domain_open(&lg->g, doms[j]->d_name, &d) &&
		    !nvpc_live_group_of(lg, &d, false))
			more++;
		free(doms[j]);
	}
	free(doms);
	if (!lg->nr) {
		nvpc_err("%s (%s %s): no domain in %s/domains", lg->g.pmu,
			 lg->g.chip, lg->g.bus, lg->g.dir);
		return -ENOENT;
	}
	return more;
}

/* why an event would not open, and the fix where it is a privilege */
static void explain(const struct nvpc_live_gpu *lg,
		    const struct nvpc_live_group *gr, int err,
		    const char *needs)
{
	if (err == EACCES || err == EPERM)
		nvpc_perf_privilege(lg->g.pmu, err, needs);
	else
		nvpc_err("%s (%s %s) %s: perf_event_open: %s", lg->g.pmu,
			 lg->g.chip, lg->g.bus, gr->name, strerror(err));
}

int nvpc_live_open(struct nvpc_live_gpu *lg, const char *needs)
{
	for (unsigned int i = 0; i < lg->nr; i++) {
		struct nvpc_live_group *gr = &lg->grp[i];
		struct perf_event_attr a = {
			.size = sizeof(a),
			.type = lg->g.type,
			.config = NVPC_CFG_CYCLES,
			.config1 = NVPC_FIELD(NVPC_CFG1_DOM, gr->dom) |
				   NVPC_FIELD(NVPC_CFG1_DSET, gr->dset) |
				   NVPC_FIELD(NVPC_CFG1_UNIT, gr->unit) |
				   (gr->allunits ? NVPC_CFG1_ALLUNITS : 0),
			.read_format = PERF_FORMAT_GROUP |
				       PERF_FORMAT_TOTAL_TIME_ENABLED |
				       PERF_FORMAT_TOTAL_TIME_RUNNING,
			.disabled = 1,
		};
		int err = 0;

		gr->fd = nvpc_perf_open(&a, lg->g.cpu, -1);
		if (gr->fd < 0)
			err = errno;
		/* the members enabled: they count when their leader does */
		a.disabled = 0;
		for (unsigned int j = 0; !err && j < gr->nr; j++) {
			a.config = gr->sig[j].config;
			gr->sig[j].fd = nvpc_perf_open(&a, lg->g.cpu, gr->fd);
			if (gr->sig[j].fd < 0)
				err = errno;
		}
		if (!err &&
		    ioctl(gr->fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP))
			err = errno;
		if (err) {
			explain(lg, gr, err, needs);
			nvpc_live_close(lg);
			return -err;
		}
		gr->cycles = gr->enabled_ns = gr->running_ns = 0;
		for (unsigned int j = 0; j < gr->nr; j++)
			gr->sig[j].count = 0;
	}
	return 0;
}

void nvpc_live_close(struct nvpc_live_gpu *lg)
{
	for (unsigned int i = 0; i < lg->nr; i++) {
		struct nvpc_live_group *gr = &lg->grp[i];

		/* the members first: a leader closed alone ungroups them */
		for (unsigned int j = 0; j < gr->nr; j++) {
			if (gr->sig[j].fd >= 0)
				close(gr->sig[j].fd);
			gr->sig[j].fd = -1;
		}
		if (gr->fd >= 0)
			close(gr->fd);
		gr->fd = -1;
	}
}

int nvpc_live_read(struct nvpc_live_gpu *lg)
{
	for (unsigned int i = 0; i < lg->nr; i++) {
		struct nvpc_live_group *gr = &lg->grp[i];
		uint64_t r[3 + 1 + NVPC_LIVE_PER_GROUP];
		ssize_t want = (3 + 1 + gr->nr) * sizeof(r[0]);
		ssize_t got = read(gr->fd, r, want);

		if (!got)
			return -ENODATA;
		if (got != want || r[0] != 1 + gr->nr)
			return -EIO;
		gr->d_enabled_ns = r[1] - gr->enabled_ns;
		gr->d_running_ns = r[2] - gr->running_ns;
		gr->d_cycles = r[3] - gr->cycles;
		gr->enabled_ns = r[1];
		gr->running_ns = r[2];
		gr->cycles = r[3];
		for (unsigned int j = 0; j < gr->nr; j++) {
			gr->sig[j].delta = r[4 + j] - gr->sig[j].count;
			gr->sig[j].count = r[4 + j];
		}
	}
	return 0;
}
