// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc scan: which of a GPU's signals move under a workload
 * (Documentation/nvpc.rst "nvpc scan"), the way envytools' nvacounter
 * maps PCOUNTER's inputs, beside the GPU's driver, through the PMU.
 *
 * Two passes over every selected domain at once:
 *
 * - sampled: the domains' STATUS registers (sysfs domains/<d>/status,
 *   pcounter.rst "The STATUS registers": every signal's level at one
 *   instant) read as fast as they come during one run of the workload:
 *   each signal's share of samples at 1 and its level changes. A
 *   sampled share is an estimate: its bound is sample_bound()'s.
 * - counted: live.c's groups, as many rounds as the inputs need, each
 *   round a fresh run of the command or a slice of -t. A signal takes
 *   two inputs: its level (sig0, "count sig0") and its rising edges,
 *   the truth table 0x2222 (argument 0 and not argument 1) on the
 *   signal and itself delayed by one cycle (opbits 2: argument 1 is
 *   SRC[1] of the previous cycle, pcounter.rst "Input selection",
 *   NV10 onwards). Both counts are exact, over the cycles of the
 *   domain's cycle counter in the same group.
 *
 * Saved scans (-J) are compared by --diff; --match N lists the signals
 * whose count over the workload is N, N - 1 or N + 1.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include <linux/nvpcounter.h>

#include "nvpc.h"
#include "nvpc_escape.h"
#include "nvpc_gpu.h"
#include "nvpc_live.h"
#include "nvpc_out.h"
#include "nvpc_perf.h"
#include "nvpc_util.h"

#define SCAN_MAX_DOMS	NVPC_LIVE_MAX_GROUPS
#define SCAN_SIGS	256		/* a domain's STATUS bits */
#define SCAN_MAX_UNITS	32		/* GPCs (partitions) in a unit sum */
#define SCAN_OP_EDGE	0x2222		/* arg 0 and not arg 1 */
#define SCAN_OPBITS_D1	2		/* argument 1 delayed a cycle */
#define SCAN_WARMUP_S	0.001		/* inputs set, before the window */
#define SCAN_NEEDS "counting a GPU is system-wide (one CPU, every task), which needs CAP_PERFMON"

enum scan_fmt { SCAN_TABLE, SCAN_JSON, SCAN_CSV };

/* what was learnt of one signal */
struct scan_sig {
	bool wanted;
	/* sampled */
	uint64_t s_ones, s_changes;
	/* counted: the level, its round's cycles and time; the edges, theirs */
	bool counted_level, counted_edges;
	uint64_t level, level_cycles, level_ns;
	uint64_t edges, edge_cycles, edge_ns;
	char name[NVPC_LIVE_NAME_LEN];
};

struct scan_dom {
	struct nvpc_domain d;		/* a unit sum: gpc*.N, unit 0 */
	bool sum;			/* --units sum: every unit's domain */
	unsigned int units;		/* the units sampled (1 unless sum) */
	char udir[SCAN_MAX_UNITS][sizeof(((struct nvpc_domain *)0)->dir)];
	unsigned int nsig;		/* signals of the domain */
	unsigned int inputs;		/* inputs a round may use */
	int status_fd[SCAN_MAX_UNITS];
	uint32_t last[SCAN_MAX_UNITS][SCAN_SIGS / 32];
	struct scan_sig sig[SCAN_SIGS];
	unsigned int next;		/* the next item to count: sig * 2 + edge */
	bool no_cycles_said;		/* a round of no cycles said */
};

struct scan {
	const char *pmu;
	const char *doms;		/* -d's comma list, NULL every domain */
	bool want[SCAN_SIGS];		/* --signals' ids, or every one */
	double secs;			/* -t */
	char **cmd;			/* -- CMD */
	bool all, no_sample, warmup;
	bool sum_units;			/* --units sum */
	enum scan_fmt fmt;
	const char *out;
	struct nvpc_gpu g;
	unsigned int nr;
	struct scan_dom *dom;		/* [SCAN_MAX_DOMS] */
	uint64_t samples;
	double sample_secs;
	unsigned int rounds, rounds_min;
	double count_secs;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int visible(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* --signals: "0x10-0x1f,0x40" into want[]; -EINVAL said */
static int parse_signals(const char *spec, bool *want)
{
	char *copy = strdup(spec), *tok, *save;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		uint64_t a, b;

		if (dash)
			*dash = '\0';
		if (nvpc_parse_u64(tok, &a) ||
		    (dash ? nvpc_parse_u64(dash + 1, &b) : (b = a, 0)) ||
		    a > b || b >= SCAN_SIGS) {
			nvpc_err("--signals %s: ids or ranges (0x10-0x1f) below %d, comma separated",
				 spec, SCAN_SIGS);
			ret = -EINVAL;
			break;
		}
		for (uint64_t i = a; i <= b; i++)
			want[i] = true;
	}
	free(copy);
	return ret;
}

/* the inputs a round may use on d: its free ones in slots (4 or 1) */
static unsigned int free_inputs(const struct nvpc_domain *d)
{
	char path[700], buf[256];
	unsigned int n = 0;

	snprintf(path, sizeof(path), "%s/slots", d->dir);
	if (nvpc_sysfs_read(path, buf, sizeof(buf)) <= 0)
		return NVPC_LIVE_PER_GROUP;
	for (char *p = buf; (p = strstr(p, "=free")); p++)
		n++;
	return n;
}

/* the catalogue's names of the selected domains' signals */
static void names(struct scan *s)
{
	struct dirent **evs = NULL;
	char dir[600], path[1400];
	int ne;

	snprintf(dir, sizeof(dir), "%s/events", s->g.dir);
	ne = scandir(dir, &evs, visible, versionsort);
	for (int i = 0; i < ne; i++) {
		unsigned int dset, dom, sig;

		snprintf(path, sizeof(path), "%s/%s", dir, evs[i]->d_name);
		if (!nvpc_event_parse(path, &dset, &dom, &sig) &&
		    sig < SCAN_SIGS)
			for (unsigned int k = 0; k < s->nr; k++)
				if (s->dom[k].d.dset == dset &&
				    s->dom[k].d.dom == dom &&
				    !s->dom[k].sig[sig].name[0])
					nvpc_strlcpy(s->dom[k].sig[sig].name,
						     evs[i]->d_name,
						     NVPC_LIVE_NAME_LEN);
		free(evs[i]);
	}
	free(evs);
}

/* a GPC's or partition's domain gpc3.1, part0.2: its sum's name gpc*.1 */
static bool sum_name(const char *name, char *out, size_t len)
{
	size_t p = !strncmp(name, "gpc", 3) ? 3 : !strncmp(name, "part", 4) ? 4 : 0;
	const char *dot = strchr(name, '.');

	if (!p || !dot)
		return false;
	snprintf(out, len, "%.*s*%s", (int)p, name, dot);
	return true;
}

/*
 * Is domains/ entry @j selected by -d? With --units sum a GPC or
 * partition domain is its sum's: selected whole, by the sum's name
 * (gpc*.0) or by any of its units' (gpc1.0).
 */
static bool selected(const struct scan *s, struct dirent **doms, int nd, int j)
{
	char sn[NVPC_FILE_NAME_LEN], other[NVPC_FILE_NAME_LEN];

	if (!s->sum_units || !sum_name(doms[j]->d_name, sn, sizeof(sn)))
		return nvpc_in_list(s->doms, doms[j]->d_name);
	if (nvpc_in_list(s->doms, sn))
		return true;
	for (int i = 0; i < nd; i++)
		if (sum_name(doms[i]->d_name, other, sizeof(other)) &&
		    !strcmp(other, sn) && nvpc_in_list(s->doms, doms[i]->d_name))
			return true;
	return false;
}

/* the scan's domain of d: a new one, or its unit sum's; NULL too many said */
static struct scan_dom *scan_dom_of(struct scan *s, const struct nvpc_domain *d)
{
	char sn[NVPC_FILE_NAME_LEN];
	bool sum = s->sum_units && sum_name(d->name, sn, sizeof(sn));
	struct scan_dom *sd;

	for (unsigned int k = 0; sum && k < s->nr; k++) {
		sd = &s->dom[k];
		if (!sd->sum || strcmp(sd->d.name, sn))
			continue;
		if (sd->units == SCAN_MAX_UNITS) {
			nvpc_err("%s %s: more than %d units", s->g.pmu, sn,
				 SCAN_MAX_UNITS);
			return NULL;
		}
		nvpc_strlcpy(sd->udir[sd->units++], d->dir, sizeof(sd->udir[0]));
		return sd;
	}
	if (s->nr == SCAN_MAX_DOMS) {
		nvpc_err("%s: more than %d domains: choose some with -d",
			 s->g.pmu, SCAN_MAX_DOMS);
		return NULL;
	}
	sd = &s->dom[s->nr++];
	sd->d = *d;
	sd->sum = sum;
	if (sum) {
		nvpc_strlcpy(sd->d.name, sn, sizeof(sd->d.name));
		sd->d.unit = 0;
	}
	nvpc_strlcpy(sd->udir[0], d->dir, sizeof(sd->udir[0]));
	sd->units = 1;
	sd->inputs = NVPC_LIVE_PER_GROUP;
	sd->nsig = d->signals && d->signals < SCAN_SIGS ? d->signals : SCAN_SIGS;
	for (unsigned int u = 0; u < SCAN_MAX_UNITS; u++)
		sd->status_fd[u] = -1;
	for (unsigned int i = 0; i < sd->nsig; i++)
		sd->sig[i].wanted = s->want[i];
	return sd;
}

/* the GPU's domains, -d's or every one: 0 or -errno said */
static int domains(struct scan *s)
{
	struct dirent **doms = NULL;
	char dir[600];
	int nd, ret = 0;

	snprintf(dir, sizeof(dir), "%s/domains", s->g.dir);
	nd = scandir(dir, &doms, visible, versionsort);
	for (int j = 0; j < nd && !ret; j++) {
		struct scan_dom *sd;
		struct nvpc_domain d;
		unsigned int in;

		if (!selected(s, doms, nd, j) ||
		    nvpc_domain_open(&s->g, doms[j]->d_name, &d))
			continue;
		sd = scan_dom_of(s, &d);
		if (!sd) {
			ret = -E2BIG;
			break;
		}
		/* a unit sum takes an input in every unit's domain */
		in = free_inputs(&d);
		if (in < sd->inputs)
			sd->inputs = in;
		if (!sd->inputs) {
			nvpc_err("%s %s: no free input (another user's events hold them all)",
				 s->g.pmu, d.name);
			ret = -EBUSY;
		}
	}
	for (int j = 0; j < nd; j++)
		free(doms[j]);
	free(doms);
	if (!ret && !s->nr) {
		nvpc_err("%s: no domain %s in %s", s->g.pmu,
			 s->doms ? s->doms : "at all", dir);
		ret = -ENOENT;
	}
	if (!ret)
		names(s);
	return ret;
}

/* the workload once: CMD to its end, or -t's slice; 0 or -1 said */
static pid_t start_cmd(struct scan *s)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execvp(s->cmd[0], s->cmd);
		fprintf(stderr, "nvpc: %s: %s\n", s->cmd[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0)
		nvpc_err("fork: %s", strerror(errno));
	return pid;
}

static int end_cmd(struct scan *s, pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		nvpc_err("the workload (%s) failed (%s %d)", s->cmd[0],
			 WIFEXITED(st) ? "exit" : "signal",
			 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		return -1;
	}
	return 0;
}

static void sleep_secs(double secs)
{
	struct timespec ts;

	if (secs <= 0)
		return;
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR && !nvpc_stop_signal)
		;
}

/* one STATUS read of sd's unit u into words: 0 or -errno */
static int status_read(struct scan_dom *sd, unsigned int u, uint32_t *w)
{
	char buf[128];
	ssize_t n = pread(sd->status_fd[u], buf, sizeof(buf) - 1, 0);
	char *p = buf;

	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	buf[n] = '\0';
	for (unsigned int i = 0; i < SCAN_SIGS / 32; i++) {
		char *end;

		w[i] = strtoul(p, &end, 16);
		if (end == p)
			return -EIO;
		p = end;
	}
	return 0;
}

/*
 * every domain's STATUS once (a unit sum's in each unit: its share is
 * of samples x units, its changes those of every unit)
 */
static void sample_once(struct scan *s)
{
	for (unsigned int k = 0; k < s->nr; k++) {
		struct scan_dom *sd = &s->dom[k];

		for (unsigned int u = 0; u < sd->units; u++) {
			uint32_t w[SCAN_SIGS / 32];

			if (status_read(sd, u, w))
				memcpy(w, sd->last[u], sizeof(w));
			for (unsigned int i = 0; i < sd->nsig; i++) {
				uint32_t bit = 1u << (i % 32);
				struct scan_sig *sg = &sd->sig[i];

				sg->s_ones += !!(w[i / 32] & bit);
				if (s->samples &&
				    ((w[i / 32] ^ sd->last[u][i / 32]) & bit))
					sg->s_changes++;
			}
			memcpy(sd->last[u], w, sizeof(w));
		}
	}
	s->samples++;
}

/* unit u's STATUS of sd opened and read once: 0 or -errno said */
static int status_open(struct scan *s, struct scan_dom *sd, unsigned int u)
{
	char path[700];
	int err = 0;

	snprintf(path, sizeof(path), "%s/status", sd->udir[u]);
	sd->status_fd[u] = open(path, O_RDONLY | O_CLOEXEC);
	if (sd->status_fd[u] < 0)
		err = errno;
	else
		err = -status_read(sd, u, sd->last[u]);
	if (err == EACCES || err == EPERM)
		nvpc_perf_privilege(s->g.pmu, err,
				    "reading the STATUS registers (domains/*/status) needs CAP_PERFMON");
	else if (err)
		nvpc_err("%s: %s: %s", s->g.pmu, path, strerror(err));
	return -err;
}

/* the sampled pass: one run of the workload; 0 or -errno said */
static int sample_pass(struct scan *s)
{
	double t0, end;
	pid_t pid = -1;
	int ret = 0;

	for (unsigned int k = 0; k < s->nr; k++)
		for (unsigned int u = 0; u < s->dom[k].units; u++) {
			ret = status_open(s, &s->dom[k], u);
			if (ret)
				goto out;
		}
	t0 = now();
	end = t0 + s->secs;
	if (s->cmd) {
		pid = start_cmd(s);
		if (pid < 0) {
			ret = -ECHILD;
			goto out;
		}
	}
	for (;;) {
		sample_once(s);
		if (nvpc_stop_signal)
			break;
		if (s->cmd) {
			if (waitpid(pid, NULL, WNOHANG) == pid) {
				pid = -1;
				break;
			}
		} else if (now() >= end) {
			break;
		}
	}
	sample_once(s);
	s->sample_secs = now() - t0;
	if (pid > 0)
		waitpid(pid, NULL, 0);
out:
	for (unsigned int k = 0; k < s->nr; k++)
		for (unsigned int u = 0; u < s->dom[k].units; u++)
			if (s->dom[k].status_fd[u] >= 0)
				close(s->dom[k].status_fd[u]);
	return ret;
}

/* the STATUS words a signal of sd was seen in: samples x units */
static uint64_t seen_in(const struct scan *s, const struct scan_dom *sd)
{
	return s->samples * sd->units;
}

/* does sg still want counting: wanted, and moved in the samples (or --all) */
static bool to_count(const struct scan *s, const struct scan_dom *sd,
		     const struct scan_sig *sg)
{
	return sg->wanted &&
	       (s->all || s->no_sample || sg->s_changes ||
		(sg->s_ones && sg->s_ones != seen_in(s, sd)));
}

/* the items (signal * 2 + edge) of sd still to count, from its next */
static unsigned int items_left(const struct scan *s, const struct scan_dom *sd)
{
	unsigned int n = 0;

	for (unsigned int it = sd->next; it < sd->nsig * 2; it++)
		n += to_count(s, sd, &sd->sig[it / 2]);
	return n;
}

/* the next round's events of every domain into lg: how many */
static unsigned int round_fill(struct scan *s, struct nvpc_live_gpu *lg,
			       unsigned int *item)
{
	unsigned int n = 0;

	lg->nr = 0;
	for (unsigned int k = 0; k < s->nr; k++) {
		struct scan_dom *sd = &s->dom[k];
		struct nvpc_live_group *gr = NULL;

		while (sd->next < sd->nsig * 2) {
			unsigned int it = sd->next, id = it / 2;
			struct nvpc_live_sig *sig;

			if (!to_count(s, sd, &sd->sig[id])) {
				sd->next++;
				continue;
			}
			if (!gr) {
				gr = nvpc_live_group_of(lg, &sd->d, false);
				if (!gr)
					break;
				gr->allunits = sd->sum;
			}
			if (gr->nr == sd->inputs)
				break;
			sig = &gr->sig[gr->nr++];
			memset(sig, 0, sizeof(*sig));
			sig->fd = -1;
			sig->id = id;
			sig->config = NVPC_FIELD(NVPC_CFG_SIG0, id);
			if (it & 1)
				sig->config |= NVPC_FIELD(NVPC_CFG_SIG1, id) |
					NVPC_FIELD(NVPC_CFG_OP, SCAN_OP_EDGE) |
					NVPC_FIELD(NVPC_CFG_OPBITS, SCAN_OPBITS_D1);
			item[(gr - lg->grp) * NVPC_LIVE_PER_GROUP + gr->nr - 1] = it;
			sd->next++;
			n++;
		}
	}
	return n;
}

/* the counted rounds: 0 or -errno said */
static int count_pass(struct scan *s)
{
	struct nvpc_live_gpu *lg = calloc(1, sizeof(*lg));
	unsigned int item[NVPC_LIVE_MAX_GROUPS * NVPC_LIVE_PER_GROUP];
	double t0 = now();
	int ret = 0;

	if (!lg)
		return -ENOMEM;
	lg->g = s->g;
	/* the fewest rounds the inputs allow: the busiest domain's */
	s->rounds_min = 0;
	for (unsigned int k = 0; k < s->nr; k++) {
		unsigned int n = items_left(s, &s->dom[k]);
		unsigned int r = (n + s->dom[k].inputs - 1) / s->dom[k].inputs;

		if (r > s->rounds_min)
			s->rounds_min = r;
	}
	while (!ret && !nvpc_stop_signal && round_fill(s, lg, item)) {
		double slice = s->rounds_min ? s->secs / s->rounds_min : 0;
		pid_t pid = -1;

		ret = nvpc_live_open(lg, SCAN_NEEDS);
		if (ret)
			break;
		/*
		 * the window starts a cycle after the inputs changed: the
		 * first cycle's delayed argument is SRC[1] of the cycle
		 * before, which was the input's previous selection
		 */
		sleep_secs(SCAN_WARMUP_S);
		/* --warmup: a clock that stands while idle runs in a whole run */
		if (s->warmup && s->cmd) {
			pid = start_cmd(s);
			if (pid < 0 || end_cmd(s, pid))
				ret = -ECHILD;
		}
		if (!ret)
			ret = nvpc_live_read(lg);
		if (!ret && s->cmd) {
			pid = start_cmd(s);
			if (pid < 0 || end_cmd(s, pid))
				ret = -ECHILD;
		} else if (!ret) {
			sleep_secs(slice);
		}
		if (ret != -ECHILD && (ret || nvpc_live_read(lg))) {
			nvpc_err("%s: reading its counters failed (the GPU gone?)",
				 s->g.pmu);
			ret = -EIO;
		}
		for (unsigned int i = 0; !ret && i < lg->nr; i++) {
			struct nvpc_live_group *gr = &lg->grp[i];
			struct scan_dom *sd = NULL;

			for (unsigned int k = 0; k < s->nr; k++)
				if (!strcmp(s->dom[k].d.name, gr->name))
					sd = &s->dom[k];
			if (sd && !gr->d_cycles && !sd->no_cycles_said) {
				nvpc_err("%s %s: no cycles counted in a round (%.3f s running): the domain's clock stood or its swaps did not land (domains/%s/not_responding): its counts say nothing",
					 s->g.pmu, gr->name,
					 gr->d_running_ns / 1e9,
					 strrchr(sd->udir[0], '/') + 1);
				sd->no_cycles_said = true;
			}
			for (unsigned int j = 0; sd && j < gr->nr; j++) {
				unsigned int it = item[i * NVPC_LIVE_PER_GROUP + j];
				struct scan_sig *sg = &sd->sig[it / 2];

				if (it & 1) {
					sg->counted_edges = true;
					sg->edges = gr->sig[j].delta;
					sg->edge_cycles = gr->d_cycles;
					sg->edge_ns = gr->d_running_ns;
				} else {
					sg->counted_level = true;
					sg->level = gr->sig[j].delta;
					sg->level_cycles = gr->d_cycles;
					sg->level_ns = gr->d_running_ns;
				}
			}
		}
		nvpc_live_close(lg);
		s->rounds++;
	}
	s->count_secs = now() - t0;
	free(lg);
	return ret;
}

/* one signal's figures as the output shows them */
struct scan_row {
	const struct scan_dom *sd;
	unsigned int id;
	const struct scan_sig *sg;
	bool counted;		/* else sampled only */
	double share;		/* of the domain's cycles (or samples) at 1 */
	double edges_s;		/* rising edges a second, counted; NAN sampled */
	double activity;	/* the ranking's key */
	/* 0 or 1: constant at that level; -1 moved; -2 no cycles counted */
	int constant;
};

static void row_of(const struct scan *s, const struct scan_dom *sd,
		   unsigned int id, struct scan_row *r)
{
	const struct scan_sig *sg = &sd->sig[id];

	memset(r, 0, sizeof(*r));
	r->sd = sd;
	r->id = id;
	r->sg = sg;
	r->counted = sg->counted_level && sg->counted_edges;
	r->edges_s = NAN;
	if (r->counted && (!sg->level_cycles || !sg->edge_cycles)) {
		/* the clock stood or no swap landed: the counts say nothing */
		r->share = NAN;
		r->constant = -2;
	} else if (r->counted) {
		r->share = (double)sg->level / sg->level_cycles;
		if (sg->edge_ns)
			r->edges_s = sg->edges * 1e9 / sg->edge_ns;
		r->activity = sg->edge_cycles ?
			      (double)sg->edges / sg->edge_cycles : 0;
		/*
		 * by the level alone: at 1 (or 0) in every cycle of the
		 * window, the signal made no edge but maybe in the first
		 * cycle, which compares with the cycle before it
		 */
		r->constant = !sg->level ? 0 :
			      sg->level == sg->level_cycles ? 1 : -1;
	} else {
		uint64_t n = seen_in(s, sd);

		r->share = n ? (double)sg->s_ones / n : NAN;
		r->activity = n ? (double)sg->s_changes / n : 0;
		r->constant = sg->s_changes || (sg->s_ones && sg->s_ones != n) ?
			      -1 : sg->s_ones ? 1 : 0;
	}
}

static int row_cmp(const void *a, const void *b)
{
	const struct scan_row *x = a, *y = b;

	if (x->activity != y->activity)
		return x->activity < y->activity ? 1 : -1;
	if (x->sd != y->sd)
		return x->sd < y->sd ? -1 : 1;
	return (int)x->id - (int)y->id;
}

/* --match: a count over the workload within one of n */
static bool matches(const struct scan_sig *sg, uint64_t n)
{
	return (sg->counted_level && sg->level + 1 >= n && sg->level <= n + 1) ||
	       (sg->counted_edges && sg->edges + 1 >= n && sg->edges <= n + 1);
}

/*
 * A sampled share's bound: 2/sqrt(n) for n independent samples, four
 * standard deviations of a share near one half. Samples are independent
 * of the signal only as far as it changes between them: a signal seen
 * to change C times in S samples counts as min(S, C + 1) (a slow one,
 * sampled many times in each of its runs, is known no better than its
 * runs are). At most 1.
 */
static double sample_bound(const struct scan *s, const struct scan_sig *sg)
{
	double n = s->samples;

	if (sg && sg->s_changes + 1 < n)
		n = sg->s_changes + 1;
	return n > 4 ? 2 / sqrt(n) : 1;
}

/* what each counted signal saw of the workload */
static double seen(const struct scan *s, const struct scan_sig *sg)
{
	if (s->cmd)
		return 1;	/* a whole run of CMD */
	return s->count_secs > 0 ? sg->level_ns / 1e9 / s->count_secs : 0;
}

static void json_row(FILE *o, const struct scan *s, const struct scan_row *r,
		     bool first)
{
	const struct scan_sig *sg = r->sg;

	fprintf(o, "%s\n    {\"domain\": ", first ? "" : ",");
	nvpc_json_str(o, r->sd->d.name);
	if (r->sd->sum)
		fprintf(o, ", \"units\": %u", r->sd->units);
	fprintf(o, ", \"signal\": %u, \"name\": ", r->id);
	if (sg->name[0])
		nvpc_json_str(o, sg->name);
	else
		fputs("null", o);
	fprintf(o, ", \"how\": \"%s\"", r->counted ? "counted" : "sampled");
	fprintf(o, ", \"constant\": %s", r->constant < 0 ? "null" :
		r->constant ? "1" : "0");
	if (r->constant == -2)
		fputs(", \"no_cycles\": true", o);
	if (isnan(r->share))
		fputs(", \"share\": null", o);
	else
		fprintf(o, ", \"share\": %.9f", r->share);
	if (r->counted) {
		fprintf(o, ", \"level\": %llu, \"level_cycles\": %llu, \"edges\": %llu, \"edge_cycles\": %llu",
			(unsigned long long)sg->level,
			(unsigned long long)sg->level_cycles,
			(unsigned long long)sg->edges,
			(unsigned long long)sg->edge_cycles);
		if (isnan(r->edges_s))
			fputs(", \"edges_per_s\": null", o);
		else
			fprintf(o, ", \"edges_per_s\": %.3f", r->edges_s);
		fprintf(o, ", \"seen\": %.6f", seen(s, sg));
	}
	if (s->samples)
		fprintf(o, ", \"sampled_share\": %.9f, \"sampled_bound\": %.6f, \"sampled_changes\": %llu",
			(double)sg->s_ones / seen_in(s, r->sd),
			sample_bound(s, sg),
			(unsigned long long)sg->s_changes);
	fputc('}', o);
}

static void csv_row(FILE *o, const struct scan *s, const struct scan_row *r)
{
	const struct scan_sig *sg = r->sg;

	nvpc_csv_field(o, r->sd->d.name);
	fprintf(o, ",%u,", r->id);
	nvpc_csv_field(o, sg->name);
	fprintf(o, ",%s,%s,", r->counted ? "counted" : "sampled",
		r->constant < 0 ? "" : r->constant ? "1" : "0");
	if (!isnan(r->share))
		fprintf(o, "%.9f", r->share);
	if (r->counted)
		fprintf(o, ",%llu,%llu,%llu,%llu,%.3f,%.6f",
			(unsigned long long)sg->level,
			(unsigned long long)sg->level_cycles,
			(unsigned long long)sg->edges,
			(unsigned long long)sg->edge_cycles,
			isnan(r->edges_s) ? 0 : r->edges_s, seen(s, sg));
	else
		fputs(",,,,,,", o);
	if (s->samples)
		fprintf(o, ",%.9f,%.6f,%llu\n",
			(double)sg->s_ones / seen_in(s, r->sd),
			sample_bound(s, sg), (unsigned long long)sg->s_changes);
	else
		fputs(",,,\n", o);
}

/* "0x00-0x0f,0x11" of the ids of d folded at level v */
static void fold_list(FILE *o, const struct scan_row *rows, unsigned int n,
		      const struct scan_dom *sd, int v)
{
	int start = -1, last = -2;
	bool first = true;

	for (unsigned int i = 0; i <= SCAN_SIGS; i++) {
		bool in = false;

		for (unsigned int j = 0; i < SCAN_SIGS && j < n; j++)
			if (rows[j].sd == sd && rows[j].id == i &&
			    rows[j].constant == v)
				in = true;
		if (in && last == (int)i - 1 && start >= 0) {
			last = i;
			continue;
		}
		if (start >= 0) {
			fprintf(o, "%s0x%02x", first ? "" : ",", start);
			if (last > start)
				fprintf(o, "-0x%02x", last);
			first = false;
			start = -1;
		}
		if (in)
			start = last = i;
	}
}

static void show(struct scan *s, FILE *o, uint64_t match, bool have_match)
{
	unsigned int n = 0, moved = 0;
	struct scan_row *rows = calloc(s->nr * SCAN_SIGS, sizeof(*rows));
	char b1[256], b2[256];
	bool first = true;

	if (!rows) {
		nvpc_err("out of memory");
		return;
	}
	for (unsigned int k = 0; k < s->nr; k++)
		for (unsigned int i = 0; i < s->dom[k].nsig; i++)
			if (s->dom[k].sig[i].wanted &&
			    (!have_match || matches(&s->dom[k].sig[i], match)))
				row_of(s, &s->dom[k], i, &rows[n++]);
	qsort(rows, n, sizeof(rows[0]), row_cmp);
	for (unsigned int i = 0; i < n; i++)
		moved += rows[i].constant == -1;
	if (s->fmt == SCAN_JSON) {
		fprintf(o, "{\"gpu\": ");
		nvpc_json_str(o, s->g.pmu);
		fputs(", \"chip\": ", o);
		nvpc_json_str(o, s->g.chip);
		fputs(", \"bus\": ", o);
		nvpc_json_str(o, s->g.bus);
		if (s->cmd) {
			fputs(", \"command\": [", o);
			for (char **a = s->cmd; *a; a++) {
				fputs(a == s->cmd ? "" : ", ", o);
				nvpc_json_str(o, *a);
			}
			fputc(']', o);
		} else {
			fprintf(o, ", \"seconds\": %.3f", s->secs);
		}
		fprintf(o, ", \"samples\": %llu, \"sample_seconds\": %.3f",
			(unsigned long long)s->samples, s->sample_secs);
		fprintf(o, ", \"rounds\": %u, \"rounds_min\": %u, \"count_seconds\": %.3f",
			s->rounds, s->rounds_min, s->count_secs);
		if (have_match)
			fprintf(o, ", \"match\": %llu", (unsigned long long)match);
		fputs(", \"signals\": [", o);
		for (unsigned int i = 0; i < n; i++) {
			json_row(o, s, &rows[i], first);
			first = false;
		}
		fputs("\n  ]}\n", o);
	} else if (s->fmt == SCAN_CSV) {
		fputs("domain,signal,name,how,constant,share,level,level_cycles,edges,edge_cycles,edges_per_s,seen,sampled_share,sampled_bound,sampled_changes\n",
		      o);
		for (unsigned int i = 0; i < n; i++)
			csv_row(o, s, &rows[i]);
	} else {
		fprintf(o, "nvpc scan: %s (%s %s), %u domain%s\n", s->g.pmu,
			nvpc_printable(b1, sizeof(b1), s->g.chip),
			nvpc_printable(b2, sizeof(b2), s->g.bus), s->nr,
			s->nr == 1 ? "" : "s");
		for (unsigned int k = 0; k < s->nr; k++)
			if (s->dom[k].sum)
				fprintf(o, "%s: the sum of %u unit%s' domains (allunits): shares of their summed cycles, edges of every unit\n",
					nvpc_printable(b1, sizeof(b1), s->dom[k].d.name),
					s->dom[k].units,
					s->dom[k].units == 1 ? "" : "s");
		if (s->samples)
			fprintf(o, "sampled: %llu STATUS samples in %.2f s: each share within 2/sqrt(its level changes + 1), %.4f at best\n",
				(unsigned long long)s->samples, s->sample_secs,
				sample_bound(s, NULL));
		fprintf(o, "counted: %u round%s (the inputs allow %u at the fewest), each %s: shares and edges exact\n",
			s->rounds, s->rounds == 1 ? "" : "s", s->rounds_min,
			s->cmd ? "a whole run of the command" : "a slice of -t");
		if (have_match)
			fprintf(o, "--match %llu: signals that counted %llu, one less or one more\n",
				(unsigned long long)match,
				(unsigned long long)match);
		fprintf(o, "%-10s %-6s %-24s %-8s %12s %8s %14s %12s %12s %7s\n",
			"DOMAIN", "SIGNAL", "NAME", "HOW", "SHARE", "BOUND",
			"EDGES/S", "EDGES", "CYCLES", "SEEN");
		for (unsigned int i = 0; i < n; i++) {
			const struct scan_row *r = &rows[i];
			char id[16];

			if (r->constant >= 0 && !have_match)
				continue;
			snprintf(id, sizeof(id), "0x%02x", r->id);
			fprintf(o, "%-10s %-6s %-24s %-8s",
				nvpc_printable(b1, sizeof(b1), r->sd->d.name), id,
				r->sg->name[0] ? r->sg->name : "-",
				r->counted ? "counted" : "sampled");
			if (r->constant == -2)
				fprintf(o, " %12s %8s %14s %12llu %12llu %7s\n",
					"-", "no-cyc", "-",
					(unsigned long long)r->sg->edges,
					(unsigned long long)r->sg->edge_cycles,
					"-");
			else if (r->counted)
				fprintf(o, " %11.4f%% %8s %14.1f %12llu %12llu %6.1f%%\n",
					100 * r->share, "exact",
					r->edges_s,
					(unsigned long long)r->sg->edges,
					(unsigned long long)r->sg->edge_cycles,
					100 * seen(s, r->sg));
			else
				fprintf(o, " %11.4f%% %7.4f%% %14s %12s %12s %7s\n",
					100 * r->share,
					100 * sample_bound(s, r->sg), "-", "-",
					"-", "-");
		}
		for (unsigned int k = 0; !have_match && k < s->nr; k++)
			for (int v = 0; v <= 1; v++) {
				unsigned int c = 0;

				for (unsigned int i = 0; i < n; i++)
					c += rows[i].sd == &s->dom[k] &&
					     rows[i].constant == v;
				if (!c)
					continue;
				fprintf(o, "%s constant %d (%u signal%s): ",
					nvpc_printable(b1, sizeof(b1), s->dom[k].d.name),
					v, c, c == 1 ? "" : "s");
				fold_list(o, rows, n, &s->dom[k], v);
				fputc('\n', o);
			}
		fprintf(o, "%u of %u signals moved\n", moved, n);
	}
	free(rows);
}

/* --- --diff: two saved scans (-J) ----------------------------------- */

struct diff_sig {
	char domain[NVPC_FILE_NAME_LEN];
	char name[NVPC_LIVE_NAME_LEN];
	unsigned int id;
	int constant;		/* 0, 1, or -1 toggling */
	double share, rate;	/* rate: edges per cycle, or changes per sample */
};

struct diff_scan {
	unsigned int nr;
	struct diff_sig *sig;
};

/* the value after "key": in line, as text; NULL if absent */
static const char *json_field(const char *line, const char *key)
{
	char k[64];
	const char *p;

	snprintf(k, sizeof(k), "\"%s\": ", key);
	p = strstr(line, k);
	return p ? p + strlen(k) : NULL;
}

static double json_double(const char *line, const char *key)
{
	const char *p = json_field(line, key);

	return p && strncmp(p, "null", 4) ? strtod(p, NULL) : NAN;
}

static void json_text(const char *line, const char *key, char *out, size_t len)
{
	const char *p = json_field(line, key);
	size_t n = 0;

	out[0] = '\0';
	if (!p || *p != '"')
		return;
	for (p++; *p && *p != '"' && n + 1 < len; p++) {
		if (*p == '\\' && p[1])
			p++;
		out[n++] = *p;
	}
	out[n] = '\0';
}

/* a scan nvpc scan -J wrote (a signal a line): 0 or -errno said */
static int diff_load(const char *path, struct diff_scan *d)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0, alloc = 0;
	bool ours = false;

	if (!f) {
		nvpc_err("--diff %s: %s", path, strerror(errno));
		return -errno;
	}
	while (getline(&line, &cap, f) > 0) {
		struct diff_sig *x;
		double e, ec;

		if (strstr(line, "\"rounds_min\": "))
			ours = true;
		/* a signal counted over no cycles: nothing to compare */
		if (strncmp(line, "    {\"domain\": ", 15) ||
		    strstr(line, "\"no_cycles\": true"))
			continue;
		if (d->nr == alloc) {
			void *p = realloc(d->sig, (alloc = alloc * 2 + 256) *
					  sizeof(*d->sig));

			if (!p)
				break;
			d->sig = p;
		}
		x = &d->sig[d->nr++];
		json_text(line, "domain", x->domain, sizeof(x->domain));
		json_text(line, "name", x->name, sizeof(x->name));
		x->id = (unsigned int)json_double(line, "signal");
		x->share = json_double(line, "share");
		e = json_double(line, "edges");
		ec = json_double(line, "edge_cycles");
		x->rate = !isnan(e) ? (ec > 0 ? e / ec : 0) :
			  json_double(line, "sampled_changes");
		x->constant = isnan(json_double(line, "constant")) ? -1 :
			      (int)json_double(line, "constant");
	}
	free(line);
	fclose(f);
	if (!ours) {
		nvpc_err("--diff %s: not a scan nvpc scan -J wrote", path);
		return -EINVAL;
	}
	return 0;
}

static const char *diff_state(int c)
{
	return c == 0 ? "0" : c == 1 ? "1" : "toggling";
}

/* the relative change below which a toggling signal is the same */
#define SCAN_DIFF_TOL	1e-3

static int diff(const char *a, const char *b, enum scan_fmt fmt, FILE *o)
{
	struct diff_scan x = { 0 }, y = { 0 };
	unsigned int changed = 0;
	bool first = true;
	int ret = 1;

	if (diff_load(a, &x) || diff_load(b, &y))
		goto out;
	if (fmt == SCAN_JSON)
		fputs("{\"changed\": [", o);
	else if (fmt == SCAN_CSV)
		fputs("domain,signal,name,class,share_a,share_b,rate_a,rate_b\n", o);
	else
		fprintf(o, "%-10s %-6s %-24s %-24s %12s %12s\n", "DOMAIN",
			"SIGNAL", "NAME", "CLASS", "SHARE A", "SHARE B");
	for (unsigned int i = 0; i < x.nr; i++) {
		const struct diff_sig *p = &x.sig[i], *q = NULL;
		char cls[64];
		bool moved;

		for (unsigned int j = 0; j < y.nr && !q; j++)
			if (y.sig[j].id == p->id &&
			    !strcmp(y.sig[j].domain, p->domain))
				q = &y.sig[j];
		if (!q)
			continue;
		if (p->constant >= 0 || q->constant >= 0)
			moved = p->constant != q->constant;
		else
			moved = fabs(p->share - q->share) > SCAN_DIFF_TOL ||
				fabs(p->rate - q->rate) >
				SCAN_DIFF_TOL * fmax(p->rate, q->rate);
		if (!moved)
			continue;
		changed++;
		snprintf(cls, sizeof(cls), "%s -> %s", diff_state(p->constant),
			 diff_state(q->constant));
		if (fmt == SCAN_JSON) {
			fprintf(o, "%s\n  {\"domain\": ", first ? "" : ",");
			nvpc_json_str(o, p->domain);
			fprintf(o, ", \"signal\": %u, \"name\": ", p->id);
			if (p->name[0])
				nvpc_json_str(o, p->name);
			else
				fputs("null", o);
			fprintf(o, ", \"class\": \"%s\", \"share_a\": %.9f, \"share_b\": %.9f, \"rate_a\": %.9g, \"rate_b\": %.9g}",
				cls, p->share, q->share, p->rate, q->rate);
		} else if (fmt == SCAN_CSV) {
			nvpc_csv_field(o, p->domain);
			fprintf(o, ",%u,", p->id);
			nvpc_csv_field(o, p->name);
			fprintf(o, ",%s,%.9f,%.9f,%.9g,%.9g\n", cls, p->share,
				q->share, p->rate, q->rate);
		} else {
			char id[16];

			snprintf(id, sizeof(id), "0x%02x", p->id);
			fprintf(o, "%-10s %-6s %-24s %-24s %11.4f%% %11.4f%%\n",
				p->domain, id, p->name[0] ? p->name : "-", cls,
				100 * p->share, 100 * q->share);
		}
		first = false;
	}
	if (fmt == SCAN_JSON)
		fputs("\n]}\n", o);
	else if (fmt == SCAN_TABLE)
		fprintf(o, "%u signal%s changed\n", changed,
			changed == 1 ? "" : "s");
	ret = 0;
out:
	free(x.sig);
	free(y.sig);
	return ret;
}

/* --- the command -------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
"usage: nvpc scan [-g PMU] [-d DOM,...] [--signals LIST] [--all] [--no-sample]\n"
"                 [--units each|sum] [--warmup] [--match N] [-J | -c] [-o FILE]\n"
"                 (-t SECONDS | -- CMD ...)\n"
"       nvpc scan [-J | -c] [-o FILE] --diff A.json B.json\n"
"\n"
"Which of a GPU's signals move under a workload: first the domains' STATUS\n"
"registers sampled during one run (every signal at once, each share within\n"
"2/sqrt(its changes + 1)), then the signals that moved (--all: every one)\n"
"counted exactly, their level and their rising edges, in as many rounds as\n"
"the inputs need, each a whole run of CMD or a slice of -t. A table ranked\n"
"by activity, constant signals folded; -J a scan --diff compares.\n"
"\n"
"  -g, --gpu PMU         the GPU (default %s)\n"
"  -d, --domain DOM,...  these domains (default: every one)\n"
"      --units each|sum  GF100+ GPC and partition domains: each unit's own\n"
"                        (gpc1.0, the default) or every unit's summed, as\n"
"                        one domain gpc*.0 (allunits)\n"
"      --signals LIST    ids and ranges, 0x10-0x1f,0x40 (default: all)\n"
"  -t, --time SECONDS    the workload is this much time (each pass)\n"
"      --all             count every signal, not only those that moved\n"
"      --no-sample       no sampled pass: count every signal\n"
"      --warmup          run CMD once more a round before counting (clocks\n"
"                        that stand while idle: the first cycle's edge)\n"
"      --match N         only signals that counted N, N - 1 or N + 1\n"
"      --diff A B        what changed between two scans saved with -J\n"
"  -J, --json            JSON, a signal a line\n"
"  -c, --csv             CSV, a row a signal\n"
"  -o, --output FILE     write to FILE instead of stdout\n"
"\n"
"Needs CAP_PERFMON, root, or kernel.perf_event_paranoid <= 0. Exit status:\n"
"0, 1 no GPU or an error, 2 bad arguments.\n", NVPC_DEFAULT_PMU);
}

int nvpc_scan(int argc, char **argv)
{
	enum { OPT_SIGNALS = 256, OPT_ALL, OPT_NO_SAMPLE, OPT_MATCH, OPT_DIFF,
	       OPT_WARMUP, OPT_UNITS };
	static const struct option longopts[] = {
		{ "gpu", required_argument, NULL, 'g' },
		{ "domain", required_argument, NULL, 'd' },
		{ "signals", required_argument, NULL, OPT_SIGNALS },
		{ "time", required_argument, NULL, 't' },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "no-sample", no_argument, NULL, OPT_NO_SAMPLE },
		{ "warmup", no_argument, NULL, OPT_WARMUP },
		{ "units", required_argument, NULL, OPT_UNITS },
		{ "match", required_argument, NULL, OPT_MATCH },
		{ "diff", no_argument, NULL, OPT_DIFF },
		{ "json", no_argument, NULL, 'J' },
		{ "csv", no_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct scan *s = calloc(1, sizeof(*s));
	bool have_match = false, do_diff = false;
	uint64_t match = 0;
	struct nvpc_ofile of;
	sigset_t waitmask;
	int c, fmt = 0, ret = 1;

	if (!s || !(s->dom = calloc(SCAN_MAX_DOMS, sizeof(*s->dom)))) {
		nvpc_err("out of memory");
		free(s);
		return 1;
	}
	s->pmu = NVPC_DEFAULT_PMU;
	s->secs = -1;
	for (unsigned int i = 0; i < SCAN_SIGS; i++)
		s->want[i] = true;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+g:d:t:Jco:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'g':
			s->pmu = optarg;
			break;
		case 'd':
			s->doms = optarg;
			break;
		case OPT_SIGNALS:
			memset(s->want, 0, sizeof(s->want));
			if (parse_signals(optarg, s->want)) {
				ret = 2;
				goto out;
			}
			break;
		case 't': {
			char *end;

			s->secs = strtod(optarg, &end);
			if (*end || !(s->secs > 0) || s->secs > 86400) {
				nvpc_err("-t %s: seconds above 0 (up to a day)",
					 optarg);
				ret = 2;
				goto out;
			}
			break;
		}
		case OPT_ALL:
			s->all = true;
			break;
		case OPT_NO_SAMPLE:
			s->no_sample = true;
			break;
		case OPT_WARMUP:
			s->warmup = true;
			break;
		case OPT_UNITS:
			if (strcmp(optarg, "each") && strcmp(optarg, "sum")) {
				nvpc_err("--units %s: each (every GPC's or partition's own domain) or sum (allunits)",
					 optarg);
				ret = 2;
				goto out;
			}
			s->sum_units = !strcmp(optarg, "sum");
			break;
		case OPT_MATCH:
			if (nvpc_parse_u64(optarg, &match)) {
				nvpc_err("--match %s: a count", optarg);
				ret = 2;
				goto out;
			}
			have_match = true;
			break;
		case OPT_DIFF:
			do_diff = true;
			break;
		case 'J':
		case 'c':
			if (nvpc_format_once(&fmt, c)) {
				ret = 2;
				goto out;
			}
			s->fmt = c == 'J' ? SCAN_JSON : SCAN_CSV;
			break;
		case 'o':
			s->out = optarg;
			break;
		case 'h':
			usage(stdout);
			ret = 0;
			goto out;
		default:
			usage(stderr);
			ret = 2;
			goto out;
		}
	}
	if (do_diff) {
		if (argc - optind != 2) {
			nvpc_err("--diff takes two saved scans (nvpc scan -J -o A.json ...)");
			ret = 2;
			goto out;
		}
		if (nvpc_ofile_open(&of, s->out, NULL))
			goto out;
		ret = diff(argv[optind], argv[optind + 1], s->fmt, of.f);
		if (nvpc_ofile_close(&of, !ret))
			ret = 1;
		goto out;
	}
	if (optind < argc)
		s->cmd = argv + optind;
	if (!s->cmd == !(s->secs > 0)) {
		nvpc_err("scan takes a workload: -t SECONDS or -- CMD (one of them)");
		ret = 2;
		goto out;
	}
	if (nvpc_gpu_open(s->pmu, &s->g) || domains(s))
		goto out;
	nvpc_stop_signals(&waitmask);
	if (!s->no_sample && sample_pass(s))
		goto out;
	if (count_pass(s))
		goto out;
	if (nvpc_ofile_open(&of, s->out, NULL))
		goto out;
	show(s, of.f, match, have_match);
	ret = nvpc_ofile_close(&of, true) ? 1 : 0;
out:
	free(s->dom);
	free(s);
	return ret;
}
