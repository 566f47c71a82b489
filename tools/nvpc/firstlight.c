// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc doctor --hardware: first light on a GPU (Documentation/nvpc.rst
 * "First light on a real GPU"). With no workload, reading only counters,
 * it checks the documented behaviours the driver relies on, domain by
 * domain, all domains of the GPU at once:
 *
 *  - swap-lands: every swap the driver asks for shows in QUAD_STATE
 *    (pcounter.rst "Quad event mode"; the domain's not_responding stays);
 *  - no-lost-swaps: at idle no period is lost (lost_periods) and no
 *    counter saturates (saturations);
 *  - clock: the cycles counted per second of perf's running time against
 *    the catalogue's clock (nominal_hz), within a factor of 2;
 *  - one-swap: a group of the cycle counter and every input the
 *    generation counts, each input's truth table 0xffff (1 on every
 *    cycle, pcounter.rst "Input selection"): each counter's count equals
 *    the cycles of the same periods, exactly (a swap copies and clears
 *    every counter at once);
 *  - each-counter: each such input alone with the cycle counter, equal
 *    the same way;
 *  - status-zero: where the catalogue names a ZERO trailer signal
 *    (NV40:GF100, 0 by definition), its STATUS bit reads 0 and its count
 *    is 0 (pcounter.rst "The STATUS registers");
 *  - record: whether the PMU takes a record event (a note, not a check).
 *
 * The report (text, or JSON with -J; -o FILE writes the JSON as well)
 * names the GPU, its PMC.BOOT_0, and for every check what was expected
 * and what was measured. Exit status: 0 every check passed, 1 a check
 * failed or the checks could not run, 2 usage.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>

#include <linux/nvpcounter.h>

#include "nvpc.h"
#include "nvpc_escape.h"
#include "nvpc_gpu.h"
#include "nvpc_out.h"
#include "nvpc_perf.h"
#include "nvpc_util.h"

#define FL_MAX_DOMS	256
#define FL_MAX_CHECKS	(FL_MAX_DOMS * 8 + 8)
#define FL_STATUS_READS	20
/* the clock check's bounds: a factor of 2 either way of the catalogue's */
#define FL_CLOCK_LOW	0.5
#define FL_CLOCK_HIGH	2.0
/* live counters (NV10:NV30): a count within 1/FL_LIVE_DIV of the cycles */
#define FL_LIVE_DIV	100
/* ... in one of FL_LIVE_TRIES steps: a late read is a one-off */
#define FL_LIVE_TRIES	3

static const char * const fl_slot_name[NVPC_NR_SLOTS] = {
	"pre", "start", "event", "stop",
};

/* the loss counters of a domain (sysfs), before and after */
enum { FL_LOST, FL_NRESP, FL_SAT, FL_STRAG, FL_SAMPLES, FL_NR_STATS };
static const char * const fl_stat_file[FL_NR_STATS] = {
	"lost_periods", "not_responding", "saturations", "stragglers",
	"samples",
};

/* what one group counted: the cycles and each member, perf's times */
struct fl_count {
	bool done;		/* opened, counted and read */
	int err;		/* else the errno that stopped it */
	uint64_t enabled, running;
	uint64_t cycles;
	uint64_t v[NVPC_NR_SLOTS];
	/* live counters: steps counted again (fl_again()), the first's miss */
	struct {
		unsigned int n;
		uint64_t v, cycles;
	} again;
};

struct fl_dom {
	struct nvpc_domain d;
	int zero;			/* ZERO's id, -1: none named */
	unsigned int slots;		/* bit s: slot s+1 takes 0xffff */
	int probe_err[NVPC_NR_SLOTS];	/* why a slot did not */
	uint64_t stat0[FL_NR_STATS], stat1[FL_NR_STATS];
	struct fl_count grp;			/* one-swap (and clock) */
	struct fl_count alone[NVPC_NR_SLOTS];	/* each-counter */
	struct fl_count zc;			/* status-zero's count */
	unsigned int status_reads, status_ones;
	int status_err;
};

struct fl_check {
	char dom[NVPC_FILE_NAME_LEN];
	const char *name;
	const char *result;	/* ok, FAIL, skip, note */
	const char *doc;	/* the behaviour, where it is documented */
	char expected[160];
	char measured[256];
};

struct fl {
	struct nvpc_gpu g;
	char boot0[32];
	double secs;
	const char *out;
	bool json;
	struct fl_dom dom[FL_MAX_DOMS];
	unsigned int nr;
	struct fl_check chk[FL_MAX_CHECKS];
	unsigned int nr_chk, failed;
	char record[160];
};

static void fl_sleep(double secs)
{
	struct timespec ts = {
		.tv_sec = (time_t)secs,
		.tv_nsec = (long)((secs - (time_t)secs) * 1e9),
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static uint64_t fl_cfg1(const struct nvpc_domain *d)
{
	return NVPC_FIELD(NVPC_CFG1_DOM, d->dom) |
	       NVPC_FIELD(NVPC_CFG1_DSET, d->dset) |
	       NVPC_FIELD(NVPC_CFG1_UNIT, d->unit);
}

/* the input of slot @s (0-3) on 1 every cycle */
static uint64_t fl_ones(unsigned int s)
{
	return NVPC_FIELD(NVPC_CFG_OP, 0xffff) | NVPC_FIELD(NVPC_CFG_SLOT, s + 1);
}

/*
 * NV10:NV30 have no quad mode (perf.rst "Counting"): the driver reads the
 * live CTR_EVENT and CTR_CYCLES one register after the other, so they
 * differ by the cycles between two reads. Such a domain counts the EVENT
 * input only, which is how it is known here.
 */
static bool fl_live(const struct fl_dom *fd)
{
	return fd->slots == 1u << NVPC_SLOT_EVENT;
}

/* a count against the cycles: equal, or on live counters within 1% */
static bool fl_close(const struct fl_dom *fd, uint64_t v, uint64_t cycles)
{
	uint64_t d = v > cycles ? v - cycles : cycles - v;

	return fl_live(fd) ? d * FL_LIVE_DIV <= cycles : !d;
}

static bool fl_privilege(const struct fl *fl, int err)
{
	if (err != EACCES && err != EPERM)
		return false;
	nvpc_perf_privilege(fl->g.pmu, err,
			    "counting a GPU is system-wide (one CPU, every task), which needs CAP_PERFMON");
	return true;
}

/*
 * A group on @d: the cycle counter leading, then a member per config in
 * @cfg; disabled. The leader's fd, or -errno (every fd of it closed).
 */
static int fl_group_open(const struct fl *fl, const struct nvpc_domain *d,
			 const uint64_t *cfg, unsigned int n, int *fds)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = fl->g.type,
		.config = NVPC_CFG_CYCLES,
		.config1 = fl_cfg1(d),
		.read_format = PERF_FORMAT_GROUP |
			       PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
		.disabled = 1,
	};
	unsigned int i;
	int err;

	fds[0] = nvpc_perf_open(&a, fl->g.cpu, -1);
	if (fds[0] < 0)
		return -errno;
	a.disabled = 0;
	for (i = 0; i < n; i++) {
		a.config = cfg[i];
		fds[1 + i] = nvpc_perf_open(&a, fl->g.cpu, fds[0]);
		if (fds[1 + i] < 0) {
			err = errno;
			while (i--)
				close(fds[1 + i]);
			close(fds[0]);
			return -err;
		}
	}
	return fds[0];
}

static void fl_group_close(int *fds, unsigned int n)
{
	for (unsigned int i = 0; i <= n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

static void fl_group_read(int leader, unsigned int n, struct fl_count *c)
{
	uint64_t r[3 + 1 + NVPC_NR_SLOTS];
	ssize_t want = (3 + 1 + n) * sizeof(r[0]);

	if (read(leader, r, want) != want || r[0] != 1 + n) {
		c->err = errno ? errno : EIO;
		return;
	}
	c->enabled = r[1];
	c->running = r[2];
	c->cycles = r[3];
	for (unsigned int i = 0; i < n; i++)
		c->v[i] = r[4 + i];
	c->done = true;
}

/* Which inputs count a 0xffff table: each in a throwaway group. */
static int fl_probe(struct fl *fl, struct fl_dom *fd)
{
	int fds[2];

	for (unsigned int s = 0; s < NVPC_NR_SLOTS; s++) {
		uint64_t cfg = fl_ones(s);
		int ret = fl_group_open(fl, &fd->d, &cfg, 1, fds);

		if (ret >= 0) {
			fd->slots |= 1u << s;
			fl_group_close(fds, 1);
		} else {
			fd->probe_err[s] = -ret;
			if (fl_privilege(fl, -ret))
				return -1;
		}
	}
	return 0;
}

static void fl_stats(const struct fl_dom *fd, uint64_t *st)
{
	char path[1024];

	for (unsigned int i = 0; i < FL_NR_STATS; i++) {
		snprintf(path, sizeof(path), "%s/%s", fd->d.dir, fl_stat_file[i]);
		if (nvpc_sysfs_u64(path, &st[i]))
			st[i] = 0;
	}
}

/*
 * One step: on every domain @pick chooses, a group of the cycle counter
 * and the configs it gives; all enabled whole, counted @secs, disabled,
 * read into the fl_count it returns. While they count, @during runs (the
 * STATUS reads). -1 on a privilege refusal (said).
 */
typedef unsigned int (*fl_pick_fn)(struct fl_dom *fd, unsigned int arg,
				   uint64_t *cfg, struct fl_count **c);

static int fl_step(struct fl *fl, fl_pick_fn pick, unsigned int arg,
		   void (*during)(struct fl *fl))
{
	static int fds[FL_MAX_DOMS][1 + NVPC_NR_SLOTS];
	unsigned int n[FL_MAX_DOMS];
	struct fl_count *cnt[FL_MAX_DOMS];
	bool open[FL_MAX_DOMS] = { false }, any = false;
	int ret = 0;

	for (unsigned int i = 0; i < fl->nr; i++) {
		uint64_t cfg[NVPC_NR_SLOTS];
		int r;

		cnt[i] = NULL;
		n[i] = pick(&fl->dom[i], arg, cfg, &cnt[i]);
		if (!cnt[i])
			continue;
		any = true;
		/* a count afresh; fl_again()'s record of the steps stays */
		memset(cnt[i], 0, offsetof(struct fl_count, again));
		r = fl_group_open(fl, &fl->dom[i].d, cfg, n[i], fds[i]);
		if (r < 0) {
			cnt[i]->err = -r;
			if (fl_privilege(fl, -r)) {
				ret = -1;
				goto out;
			}
			continue;
		}
		open[i] = true;
	}
	if (!any)
		return 0;	/* nothing to count: no need to wait */
	for (unsigned int i = 0; i < fl->nr; i++)
		if (open[i] && ioctl(fds[i][0], PERF_EVENT_IOC_ENABLE,
				     PERF_IOC_FLAG_GROUP))
			cnt[i]->err = errno;
	if (during) {
		during(fl);
	} else {
		/*
		 * a read halfway: a swap of each domain (its group is read in
		 * one), so that every step has two periods at least and a
		 * counter that a swap does not clear shows (one-swap) however
		 * seldom the driver's poll swaps
		 */
		fl_sleep(fl->secs / 2);
		for (unsigned int i = 0; i < fl->nr; i++) {
			struct fl_count mid = { 0 };

			if (open[i] && !cnt[i]->err)
				fl_group_read(fds[i][0], n[i], &mid);
		}
		fl_sleep(fl->secs / 2);
	}
	for (unsigned int i = 0; i < fl->nr; i++)
		if (open[i])
			ioctl(fds[i][0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	for (unsigned int i = 0; i < fl->nr; i++)
		if (open[i] && !cnt[i]->err)
			fl_group_read(fds[i][0], n[i], cnt[i]);
out:
	for (unsigned int i = 0; i < fl->nr; i++)
		if (open[i])
			fl_group_close(fds[i], n[i]);
	return ret;
}

/* one-swap: every input that counts, in one group */
static unsigned int fl_pick_group(struct fl_dom *fd, unsigned int arg,
				  uint64_t *cfg, struct fl_count **c)
{
	unsigned int n = 0;

	(void)arg;
	for (unsigned int s = 0; s < NVPC_NR_SLOTS; s++)
		if (fd->slots & (1u << s))
			cfg[n++] = fl_ones(s);
	*c = &fd->grp;
	return n;
}

/* each-counter: slot @arg alone */
static unsigned int fl_pick_alone(struct fl_dom *fd, unsigned int arg,
				  uint64_t *cfg, struct fl_count **c)
{
	if (!(fd->slots & (1u << arg)))
		return 0;
	cfg[0] = fl_ones(arg);
	*c = &fd->alone[arg];
	return 1;
}

/*
 * Live counters again: whether a step's count @c (its one member, the
 * EVENT input: fl_live()) was off the cycles, and if so the step counts
 * again, the first miss kept for the report. The driver reads CTR_EVENT
 * and CTR_CYCLES one after the other, so a read that something delays
 * between the two (an interrupt, a hypervisor, the simulated GPU
 * catching up with real time) makes one step miss by as many cycles,
 * once: a step counts FL_LIVE_TRIES times at most. A counter that does
 * not count every cycle misses every time.
 */
static bool fl_again(const struct fl_dom *fd, struct fl_count *c)
{
	if (!fl_live(fd) || !c->done || fl_close(fd, c->v[0], c->cycles))
		return false;
	if (!c->again.n) {
		c->again.v = c->v[0];
		c->again.cycles = c->cycles;
	}
	c->again.n++;
	return true;
}

static unsigned int fl_pick_group_again(struct fl_dom *fd, unsigned int arg,
					uint64_t *cfg, struct fl_count **c)
{
	return fl_again(fd, &fd->grp) ? fl_pick_group(fd, arg, cfg, c) : 0;
}

static unsigned int fl_pick_alone_again(struct fl_dom *fd, unsigned int arg,
					uint64_t *cfg, struct fl_count **c)
{
	return fl_again(fd, &fd->alone[arg]) ?
	       fl_pick_alone(fd, arg, cfg, c) : 0;
}

/* the first input whose each-counter step counted every cycle, or -1 */
static int fl_good_slot(const struct fl_dom *fd)
{
	for (unsigned int s = 0; s < NVPC_NR_SLOTS; s++)
		if ((fd->slots & (1u << s)) && fd->alone[s].done &&
		    fl_close(fd, fd->alone[s].v[0], fd->alone[s].cycles))
			return s;
	return -1;
}

/* status-zero: ZERO counted by an input that counts as documented */
static unsigned int fl_pick_zero(struct fl_dom *fd, unsigned int arg,
				 uint64_t *cfg, struct fl_count **c)
{
	int s = fl_good_slot(fd);

	(void)arg;
	if (fd->zero < 0 || s < 0)
		return 0;
	cfg[0] = NVPC_FIELD(NVPC_CFG_SIG0, fd->zero) |
		 NVPC_FIELD(NVPC_CFG_SLOT, s + 1);
	*c = &fd->zc;
	return 1;
}

/* while ZERO counts: its STATUS bit, FL_STATUS_READS times */
static void fl_status_reads(struct fl *fl)
{
	for (unsigned int k = 0; k < FL_STATUS_READS; k++) {
		fl_sleep(fl->secs / FL_STATUS_READS);
		for (unsigned int i = 0; i < fl->nr; i++) {
			struct fl_dom *fd = &fl->dom[i];
			char path[1024], buf[128], *p = buf;
			unsigned long w = 0;
			int ret;

			if (fd->zero < 0 || fd->status_err)
				continue;
			snprintf(path, sizeof(path), "%s/status", fd->d.dir);
			ret = nvpc_sysfs_read(path, buf, sizeof(buf));
			if (ret < 0) {
				fd->status_err = -ret;
				continue;
			}
			/* eight words, signals 0-31 first */
			for (int j = 0; j <= fd->zero / 32; j++)
				w = strtoul(p, &p, 16);
			fd->status_reads++;
			fd->status_ones += (w >> (fd->zero % 32)) & 1;
		}
	}
}

static struct fl_check *fl_check(struct fl *fl, const char *dom,
				 const char *name, const char *result,
				 const char *doc)
{
	struct fl_check *c = &fl->chk[fl->nr_chk];

	if (fl->nr_chk == FL_MAX_CHECKS - 1)
		return c;	/* (the last one is overwritten) */
	fl->nr_chk++;
	snprintf(c->dom, sizeof(c->dom), "%s", dom);
	c->name = name;
	c->result = result;
	c->doc = doc;
	if (!strcmp(result, "FAIL"))
		fl->failed++;
	return c;
}

#define FL_SET(buf, ...) snprintf(buf, sizeof(buf), __VA_ARGS__)

#define DOC_QUAD	"pcounter.rst \"Quad event mode\": a swap copies every counter and clears it, and bumps QUAD_STATE EMPTY to VALID"
#define DOC_LOST	"pcounter.rst \"Quad event mode\": a swap while VALID goes to OVERFLOW (a lost period); a counter at 0xffffffff has saturated"
#define DOC_CLOCK	"the catalogue's clock of the domain (domains/*/nominal_hz, Documentation/events.rst)"
#define DOC_ONES	"pcounter.rst \"Input selection\": a truth table of 0xffff is 1 on every cycle, so each counter counts the period's cycles"
#define DOC_LIVE	"perf.rst \"Counting\": NV10:NV30 have no quad mode; the driver reads the live CTR_EVENT and CTR_CYCLES one after the other, so a 0xffff EVENT input counts the cycles less what runs between two reads"
#define DOC_ZERO	"pcounter.rst \"The STATUS registers\" and \"Trailer signals\": ZERO (NV40:GF100) is 0 on every cycle"

static void fl_count_str(char *buf, size_t len, const struct fl_count *c)
{
	if (!c->done)
		snprintf(buf, len, "not counted: %s", strerror(c->err ? c->err : EIO));
	else
		snprintf(buf, len, "%llu cycles in %.3f s running of %.3f s",
			 (unsigned long long)c->cycles, c->running / 1e9,
			 c->enabled / 1e9);
}

/* a counter against the cycles of the same periods */
static void fl_equal(struct fl *fl, const struct fl_dom *fd, const char *name,
		     const struct fl_count *c, const unsigned int *slot,
		     unsigned int n)
{
	char diff[200] = "";
	size_t len = 0;
	struct fl_check *k;
	bool ok = true;

	for (unsigned int i = 0; i < n; i++) {
		if (fl_close(fd, c->v[i], c->cycles))
			continue;
		ok = false;
		len += snprintf(diff + len, len < sizeof(diff) ? sizeof(diff) - len : 0,
				"%s%s counted %llu", len ? ", " : "",
				fl_slot_name[slot[i]], (unsigned long long)c->v[i]);
	}
	k = fl_check(fl, fd->d.name, name, ok ? "ok" : "FAIL",
		     fl_live(fd) ? DOC_LIVE : DOC_ONES);
	if (fl_live(fd))
		FL_SET(k->expected, "the EVENT input (0xffff) within 1%% of the cycles (live counters)");
	else
		FL_SET(k->expected, "each of %u input%s (0xffff) = the cycles", n,
		       n == 1 ? "" : "s");
	if (ok && fl_live(fd) && c->again.n)
		FL_SET(k->measured, "%llu, over %llu cycles (step %u of %u: the first counted %llu over %llu cycles)",
		       (unsigned long long)c->v[0], (unsigned long long)c->cycles,
		       c->again.n + 1, FL_LIVE_TRIES,
		       (unsigned long long)c->again.v,
		       (unsigned long long)c->again.cycles);
	else if (ok && fl_live(fd))
		FL_SET(k->measured, "%llu, over %llu cycles",
		       (unsigned long long)c->v[0], (unsigned long long)c->cycles);
	else if (ok)
		FL_SET(k->measured, "%llu each, over %llu cycles",
		       (unsigned long long)c->cycles, (unsigned long long)c->cycles);
	else if (fl_live(fd))
		FL_SET(k->measured, "%s; the cycles %llu (the last of %u steps, each off)",
		       diff, (unsigned long long)c->cycles, c->again.n + 1);
	else
		FL_SET(k->measured, "%s; the cycles %llu", diff,
		       (unsigned long long)c->cycles);
}

static void fl_judge(struct fl *fl, struct fl_dom *fd)
{
	uint64_t d[FL_NR_STATS];
	struct fl_check *k;
	unsigned int slot[NVPC_NR_SLOTS], n = 0;
	char buf[160];
	bool landed;

	for (unsigned int i = 0; i < FL_NR_STATS; i++)
		d[i] = fd->stat1[i] - fd->stat0[i];
	for (unsigned int s = 0; s < NVPC_NR_SLOTS; s++)
		if (fd->slots & (1u << s))
			slot[n++] = s;

	/* swap-lands */
	landed = fd->grp.done && d[FL_SAMPLES] && !d[FL_NRESP];
	k = fl_check(fl, fd->d.name, "swap-lands", landed ? "ok" : "FAIL",
		     DOC_QUAD);
	FL_SET(k->expected, "every swap seen in QUAD_STATE: not_responding +0, periods read");
	fl_count_str(buf, sizeof(buf), &fd->grp);
	FL_SET(k->measured, "not_responding +%llu, stragglers +%llu, %llu periods read; %s",
	       (unsigned long long)d[FL_NRESP], (unsigned long long)d[FL_STRAG],
	       (unsigned long long)d[FL_SAMPLES], buf);

	/* no-lost-swaps */
	k = fl_check(fl, fd->d.name, "no-lost-swaps",
		     d[FL_LOST] || d[FL_SAT] ? "FAIL" : "ok", DOC_LOST);
	FL_SET(k->expected, "lost_periods +0, saturations +0 at idle");
	FL_SET(k->measured, "lost_periods +%llu, saturations +%llu",
	       (unsigned long long)d[FL_LOST], (unsigned long long)d[FL_SAT]);

	if (!landed) {
		static const char * const after[] = {
			"clock", "one-swap", "each-counter", "status-zero",
		};

		for (unsigned int i = 0; i < 4; i++) {
			k = fl_check(fl, fd->d.name, after[i], "skip", DOC_QUAD);
			FL_SET(k->expected, "counts of swaps that land");
			FL_SET(k->measured, "not run: no swap landed (swap-lands)");
		}
		return;
	}

	/* clock: over periods that were all read */
	if (d[FL_LOST]) {
		k = fl_check(fl, fd->d.name, "clock", "skip", DOC_CLOCK);
		FL_SET(k->expected, "%llu Hz (x%.1f to x%.1f)",
		       (unsigned long long)fd->d.nominal_hz, FL_CLOCK_LOW,
		       FL_CLOCK_HIGH);
		FL_SET(k->measured, "not judged: %llu periods lost (no-lost-swaps), their cycles with them",
		       (unsigned long long)d[FL_LOST]);
	} else {
		double hz = fd->grp.running ?
			    fd->grp.cycles * 1e9 / fd->grp.running : 0;
		double r = fd->d.nominal_hz ? hz / fd->d.nominal_hz : 0;
		bool ok = r >= FL_CLOCK_LOW && r <= FL_CLOCK_HIGH;

		k = fl_check(fl, fd->d.name, "clock", ok ? "ok" : "FAIL",
			     DOC_CLOCK);
		FL_SET(k->expected, "%llu Hz (x%.1f to x%.1f)",
		       (unsigned long long)fd->d.nominal_hz, FL_CLOCK_LOW,
		       FL_CLOCK_HIGH);
		FL_SET(k->measured, "%.0f Hz (x%.3f): %llu cycles in %.3f s running",
		       hz, r, (unsigned long long)fd->grp.cycles,
		       fd->grp.running / 1e9);
	}

	/* one-swap */
	if (!n) {
		k = fl_check(fl, fd->d.name, "one-swap", "skip", DOC_ONES);
		FL_SET(k->expected, "an input that counts a truth table");
		FL_SET(k->measured, "the PMU took no 0xffff input: %s",
		       strerror(fd->probe_err[0]));
	} else {
		fl_equal(fl, fd, "one-swap", &fd->grp, slot, n);
	}

	/* each-counter */
	for (unsigned int i = 0; i < n; i++) {
		const struct fl_count *c = &fd->alone[slot[i]];

		if (!c->done) {
			k = fl_check(fl, fd->d.name, "each-counter", "FAIL",
				     DOC_ONES);
			FL_SET(k->expected, "%s alone = the cycles",
			       fl_slot_name[slot[i]]);
			fl_count_str(k->measured, sizeof(k->measured), c);
			continue;
		}
		fl_equal(fl, fd, "each-counter", c, &slot[i], 1);
	}

	/* status-zero */
	if (fd->zero < 0) {
		k = fl_check(fl, fd->d.name, "status-zero", "skip", DOC_ZERO);
		FL_SET(k->expected, "a constant signal the documents name");
		FL_SET(k->measured, "none on this generation (domains/*/zero)");
	} else if (fl_good_slot(fd) < 0) {
		k = fl_check(fl, fd->d.name, "status-zero", "skip", DOC_ZERO);
		FL_SET(k->expected, "ZERO (0x%02x): STATUS 0, count 0", fd->zero);
		FL_SET(k->measured, "not run: no input counted as documented (each-counter)");
	} else if (fd->status_err || !fd->zc.done) {
		k = fl_check(fl, fd->d.name, "status-zero", "skip", DOC_ZERO);
		FL_SET(k->expected, "ZERO (0x%02x): STATUS 0, count 0", fd->zero);
		if (fd->status_err)
			FL_SET(k->measured, "STATUS not read: %s%s",
			       strerror(fd->status_err),
			       fd->status_err == EACCES ?
			       " (domains/*/status needs CAP_PERFMON)" : "");
		else
			fl_count_str(k->measured, sizeof(k->measured), &fd->zc);
	} else {
		bool ok = !fd->status_ones && !fd->zc.v[0];

		k = fl_check(fl, fd->d.name, "status-zero", ok ? "ok" : "FAIL",
			     DOC_ZERO);
		FL_SET(k->expected, "ZERO (0x%02x): STATUS bit 0 in %u reads, counted 0",
		       fd->zero, fd->status_reads);
		FL_SET(k->measured, "STATUS bit 1 in %u of %u reads, counted %llu of %llu cycles",
		       fd->status_ones, fd->status_reads,
		       (unsigned long long)fd->zc.v[0],
		       (unsigned long long)fd->zc.cycles);
	}
}

/* record: does the PMU take a record event on its first domain? */
static void fl_record(struct fl *fl)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = fl->g.type,
		.config = NVPC_CFG_RECORD,
		/* STOP from PERIODIC: the smallest valid record program */
		.config1 = fl_cfg1(&fl->dom[0].d) |
			   NVPC_FIELD(NVPC_CFG1_PERIOD, 7),
		.disabled = 1,
	};
	int fd = nvpc_perf_open(&a, fl->g.cpu, -1);

	if (fd >= 0) {
		close(fd);
		FL_SET(fl->record, "present: %s takes a record event (Documentation/record.rst)",
		       fl->dom[0].d.name);
	} else if (errno == EOPNOTSUPP) {
		FL_SET(fl->record, "absent: no record mode before G84, nor on the PCI backend (Documentation/record-real-gpus.rst)");
	} else {
		FL_SET(fl->record, "not known: a record event on %s: %s",
		       fl->dom[0].d.name, strerror(errno));
	}
}

static int fl_domains(struct fl *fl, const char *list)
{
	char path[1024], buf[64];
	struct dirent **ents;
	int n;

	/* each -d name must be a domain of the GPU (the message lists them) */
	for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		char name[NVPC_FILE_NAME_LEN];
		size_t len = strcspn(p, ",");

		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		if (nvpc_domain_open(&fl->g, name, &fl->dom[0].d))
			return -1;
	}

	snprintf(path, sizeof(path), "%s/domains", fl->g.dir);
	n = scandir(path, &ents, NULL, versionsort);
	if (n < 0) {
		nvpc_err("%s: no domains/ (%s): is this an nvpcounter PMU?",
			 fl->g.pmu, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct fl_dom *fd = &fl->dom[fl->nr];

		if (ents[i]->d_name[0] != '.' && fl->nr < FL_MAX_DOMS &&
		    nvpc_in_list(list, ents[i]->d_name) &&
		    !nvpc_domain_open(&fl->g, ents[i]->d_name, &fd->d)) {
			uint64_t z;

			snprintf(path, sizeof(path), "%s/zero", fd->d.dir);
			fd->zero = -1;
			if (nvpc_sysfs_read(path, buf, sizeof(buf)) > 0 &&
			    !nvpc_parse_u64(buf, &z) && z < 256)
				fd->zero = z;
			fl->nr++;
		}
		free(ents[i]);
	}
	free(ents);
	if (!fl->nr) {
		nvpc_err("%s: no domain to check", fl->g.pmu);
		return -1;
	}
	return 0;
}

static void fl_text(const struct fl *fl, FILE *o)
{
	for (unsigned int i = 0; i < fl->nr_chk; i++) {
		const struct fl_check *c = &fl->chk[i];

		fprintf(o, "%-4s  %-8s %-13s %s\n", c->result, c->dom, c->name,
			c->measured);
		/* what was expected, and where it is written, for a FAIL */
		if (strcmp(c->result, "FAIL"))
			continue;
		fprintf(o, "      expected: %s\n", c->expected);
		fprintf(o, "      documented: %s\n", c->doc);
	}
	fprintf(o, "note  record: %s\n", fl->record);
	if (fl->failed)
		fprintf(o, "%u check%s failed: this GPU differs from the documents the driver is built on; please report it with the JSON report (nvpc doctor --hardware -o report.json), Documentation/nvpc.rst \"First light on a real GPU\"\n",
			fl->failed, fl->failed == 1 ? "" : "s");
	else
		fprintf(o, "all %u checks passed: %s %s behaves as documented\n",
			fl->nr_chk, fl->g.chip, fl->g.bus);
}

static void fl_json(const struct fl *fl, FILE *o)
{
	struct utsname u;

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");
	fputs("{\"pmu\":", o);
	nvpc_json_str(o, fl->g.pmu);
	fputs(",\"chip\":", o);
	nvpc_json_str(o, fl->g.chip);
	fputs(",\"bus\":", o);
	nvpc_json_str(o, fl->g.bus);
	fputs(",\"boot0\":", o);
	nvpc_json_str(o, fl->boot0);
	fputs(",\"kernel\":", o);
	nvpc_json_str(o, u.release);
	fprintf(o, ",\"seconds_per_step\":%.3f,\"domains\":[", fl->secs);
	for (unsigned int i = 0; i < fl->nr; i++) {
		const struct fl_dom *fd = &fl->dom[i];

		fprintf(o, "%s{\"name\":", i ? "," : "");
		nvpc_json_str(o, fd->d.name);
		fprintf(o, ",\"nominal_hz\":%llu,\"inputs\":[",
			(unsigned long long)fd->d.nominal_hz);
		for (unsigned int s = 0, n = 0; s < NVPC_NR_SLOTS; s++)
			if (fd->slots & (1u << s))
				fprintf(o, "%s\"%s\"", n++ ? "," : "",
					fl_slot_name[s]);
		fputs("],\"zero\":", o);
		if (fd->zero < 0)
			fputs("null", o);
		else
			fprintf(o, "%d", fd->zero);
		fputs("}", o);
	}
	fputs("],\"checks\":[", o);
	for (unsigned int i = 0; i < fl->nr_chk; i++) {
		const struct fl_check *c = &fl->chk[i];

		fprintf(o, "%s{\"domain\":", i ? "," : "");
		nvpc_json_str(o, c->dom);
		fputs(",\"check\":", o);
		nvpc_json_str(o, c->name);
		fputs(",\"result\":", o);
		nvpc_json_str(o, c->result);
		fputs(",\"expected\":", o);
		nvpc_json_str(o, c->expected);
		fputs(",\"measured\":", o);
		nvpc_json_str(o, c->measured);
		fputs(",\"documented\":", o);
		nvpc_json_str(o, c->doc);
		fputs("}", o);
	}
	fputs("],\"record\":", o);
	nvpc_json_str(o, fl->record);
	fprintf(o, ",\"failed\":%u}\n", fl->failed);
}

static void fl_usage(FILE *f)
{
	fprintf(f,
"usage: nvpc doctor --hardware [-g GPU] [-d DOM,...] [-t SECONDS] [-J] [-o FILE]\n"
"\n"
"First light on a GPU: with no workload, reading only counters, check the\n"
"documented behaviours the driver relies on, on every domain: swaps land,\n"
"none lost at idle, the clock against the catalogue's, every counter equal\n"
"to the cycles on a truth table of 0xffff (in one group and alone), the\n"
"STATUS bit of ZERO against its count, record mode's presence.\n"
"  -g GPU       the PMU (default nvpcounter)\n"
"  -d DOM,...   these domains only (default every domain of the GPU)\n"
"  -t SECONDS   each of the six steps' length (default 0.5)\n"
"  -J           the report as JSON instead of text\n"
"  -o FILE      also write the JSON report to FILE, for a bug report\n"
"Exit status: 0 every check passed, 1 a check failed (or none could run),\n"
"2 usage.\n");
}

int nvpc_doctor_hardware(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "hardware", no_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *pmu = NVPC_DEFAULT_PMU, *doms = NULL;
	struct nvpc_ofile of;
	char path[1024], *end;
	int c, json_seen = 0;
	struct fl *fl;

	fl = calloc(1, sizeof(*fl));
	if (!fl) {
		nvpc_err("doctor --hardware: out of memory");
		return 1;
	}
	fl->secs = 0.5;
	optind = 1;
	while ((c = getopt_long(argc, argv, "g:d:t:Jo:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'H':
			break;
		case 'g':
			pmu = optarg;
			break;
		case 'd':
			doms = optarg;
			break;
		case 't':
			errno = 0;
			fl->secs = strtod(optarg, &end);
			if (errno || *end || !(fl->secs >= 0.01 && fl->secs <= 60)) {
				nvpc_err("doctor --hardware: -t %s: seconds from 0.01 to 60",
					 optarg);
				goto usage;
			}
			break;
		case 'J':
			if (nvpc_format_once(&json_seen, c))
				goto usage;
			fl->json = true;
			break;
		case 'o':
			fl->out = optarg;
			break;
		case 'h':
			fl_usage(stdout);
			free(fl);
			return 0;
		default:
			goto usage;
		}
	}
	if (optind != argc) {
		nvpc_err("doctor --hardware: takes no arguments ('%s')",
			 argv[optind]);
		goto usage;
	}
	if (nvpc_gpu_open(pmu, &fl->g) || fl_domains(fl, doms))
		goto fail;
	snprintf(path, sizeof(path), "%s/boot0", fl->g.dir);
	if (nvpc_sysfs_read(path, fl->boot0, sizeof(fl->boot0)) <= 0)
		snprintf(fl->boot0, sizeof(fl->boot0), "unknown");
	/* the report's file first: a bad -o is said before seconds of work */
	if (fl->out && nvpc_ofile_open(&of, fl->out, NULL))
		goto fail;

	for (unsigned int i = 0; i < fl->nr; i++)
		if (fl_probe(fl, &fl->dom[i]))
			goto fail_out;
	for (unsigned int i = 0; i < fl->nr; i++)
		fl_stats(&fl->dom[i], fl->dom[i].stat0);
	if (fl_step(fl, fl_pick_group, 0, NULL))
		goto fail_out;
	for (unsigned int s = 0; s < NVPC_NR_SLOTS; s++)
		if (fl_step(fl, fl_pick_alone, s, NULL))
			goto fail_out;
	/* live counters: a step that missed, once more (fl_again()) */
	for (unsigned int t = 1; t < FL_LIVE_TRIES; t++) {
		if (fl_step(fl, fl_pick_group_again, 0, NULL))
			goto fail_out;
		for (unsigned int s = 0; s < NVPC_NR_SLOTS; s++)
			if (fl_step(fl, fl_pick_alone_again, s, NULL))
				goto fail_out;
	}
	if (fl_step(fl, fl_pick_zero, 0, fl_status_reads))
		goto fail_out;
	for (unsigned int i = 0; i < fl->nr; i++)
		fl_stats(&fl->dom[i], fl->dom[i].stat1);
	for (unsigned int i = 0; i < fl->nr; i++)
		fl_judge(fl, &fl->dom[i]);
	fl_record(fl);

	if (fl->json) {
		fl_json(fl, stdout);
	} else {
		printf("nvpc doctor --hardware: %s %s (%s), PMC.BOOT_0 %s, %u domains, %.2f s a step\n",
		       fl->g.chip, fl->g.bus, fl->g.pmu, fl->boot0, fl->nr,
		       fl->secs);
		fl_text(fl, stdout);
	}
	fflush(stdout);
	if (fl->out) {
		fl_json(fl, of.f);
		if (nvpc_ofile_close(&of, true))
			goto fail;
	}
	c = fl->failed ? 1 : 0;
	free(fl);
	return c;

fail_out:
	if (fl->out)
		nvpc_ofile_close(&of, false);
fail:
	free(fl);
	return 1;
usage:
	fl_usage(stderr);
	free(fl);
	return 2;
}
