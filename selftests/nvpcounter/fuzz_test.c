// SPDX-License-Identifier: GPL-2.0
/*
 * A perf_event_open() fuzzer against simulated GPUs of every generation.
 *
 * Each call gets a random or mutated attr (config bits, the configs of the
 * PMUs' events/ mutated through their format/ fields, flags, sampling,
 * read_format), a pid/cpu choice, a group (none, a GPU event, a software
 * event, a bad fd) and open flags. The result must be success or the errno
 * that the input calls for, predicted here from the documents and never
 * from the driver:
 *
 * - the perf core's order of checks (perf_event_open(2) and
 *   kernel/events/core.c: open flags, attr copy, sampling frequency,
 *   group fd, pid, cpu, then the PMU's event_init, then the group rules);
 * - Documentation/perf.rst, "Errors", for the PMU, with the domains and
 *   signal counts the sim documents (Documentation/sim.rst, gpu<ID>/domains)
 *   and the generations' features in "Event fields".
 *
 * Where validity depends on deep semantics (delay/replace bits per slot,
 * whether a group fits the inputs), the errno must be in the documented set
 * for that class (success or EINVAL). Every event that opens is enabled,
 * read (exact size, count never going backwards), disabled and closed.
 *
 * On PREEMPT_RT the calls are shared by four worker processes, each with
 * its own GPUs (worker w of n: gpus[w], gpus[w + n], ...) and its own
 * events, so that each one's predictions see all that its GPUs hold
 * while the driver serves them all at once. There every close() of a
 * perf event waits for an RCU grace period in the perf core, whatever its
 * PMU (15.8 ms in a 6.1-rt guest under TCG, against 0.01-0.06 ms on
 * 6.1): one process spent 233 s waiting, four wait side by side, 61 s.
 * Elsewhere the calls are CPU work and one process makes them all: four
 * under the debug kernel took 198 s against one's 88. Each worker's
 * sequence follows from the seed alone.
 *
 *   NVPC_FUZZ_SEED=<n>    replay a run (the seed is printed first)
 *   NVPC_FUZZ_CALLS=<n>   calls per run, all workers together
 *                         (default and minimum 100000)
 *   NVPC_FUZZ_WORKERS=<n> worker processes, 1 .. MAX_WORKERS (default
 *                         4 on PREEMPT_RT, else 1)
 */
#include <inttypes.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest.h"
#include "nvpc_perf.h"

#define NR_CALLS	100000
#define MAX_DOMS	64
#define MAX_EVENTS	512
#define MAX_OPEN	24
#define MAX_MISMATCH	20
#define MAX_ERRNO	134
#define MAX_WORKERS	8

/* One simulated GPU per generation (Documentation/events.rst). */
static const char * const fuzz_chips[] = {
	"nv10", "nv15", "nv20", "nv30", "nv40", "g84", "g92", "gt215",
	"gf100 gpcs=2 parts=2", "nv20 realtime", "g84 realtime",
};

#define NR_GPUS	ARRAY_SIZE(fuzz_chips)

/* Generations in order, as the sim's info file names them. */
enum gen { GEN_NV10, GEN_NV15, GEN_NV20, GEN_NV30, GEN_NV40, GEN_G84,
	   GEN_G92, GEN_GT215, GEN_GF100 };
static const char * const gen_names[] = {
	"NV10", "NV15", "NV20", "NV30", "NV40", "G84", "G92", "GT215", "GF100",
};

struct fuzz_dom {
	unsigned int dset, unit, idx;
	unsigned int nr_signals;
};

struct fuzz_gpu {
	int id;
	int type;
	int cpu;		/* the PMU's cpumask */
	enum gen gen;
	char chip[48];
	char pmu[PATH_MAX];
	struct fuzz_dom dom[MAX_DOMS];
	int nr_doms;
	__u64 ev[MAX_EVENTS][3];	/* config, config1, config2 of events/ */
	int nr_ev;
};

/* An open event. */
struct fuzz_fd {
	int fd;
	int gpu;		/* -1: a software event */
	int leader;		/* index of the leader in open_ev[], or -1 */
	int members;
	int cpu;		/* a software event's CPU */
	int pinned;
	int inherit;
	int dom;		/* index in its GPU's dom[], -1: none */
	int record;		/* a record event (owns its domain) */
	int sum;		/* a unit sum: its domain in every unit */
	int window;		/* a single event mode event */
	__u64 read_format;
	__u64 last;
};

static struct fuzz_gpu gpus[NR_GPUS];
static struct fuzz_fd open_ev[MAX_OPEN];
static int nr_cpus;		/* nr_cpu_ids: /sys/devices/system/cpu/possible */
static __u64 max_sample_rate;
static __u64 rng, seed;
static int worker, nr_workers;	/* share: gpus[worker + k * nr_workers] */

/* What a worker did, sent to the parent at its end. */
struct fuzz_result {
	unsigned long hist[MAX_ERRNO + 1];
	unsigned long calls, opened, mismatches, read_errors;
	double t_fail, t_open, t_use;	/* seconds in failed/good opens, use */
	double secs;
};

static struct fuzz_result res;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* xorshift64*: a run is replayed from its seed */
static __u64 rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static unsigned int rnd_below(unsigned int n)
{
	return n ? rnd() % n : 0;
}

/* true with probability pct/100 */
static int chance(unsigned int pct)
{
	return rnd_below(100) < pct;
}

static __u64 field_get(__u64 v, __u64 mask)
{
	return (v & mask) >> __builtin_ctzll(mask);
}

/* --- the GPUs and their documented domains ---------------------------- */

static int read_gen(struct fuzz_gpu *g)
{
	char path[128], buf[1024], *p;
	unsigned int i;

	snprintf(path, sizeof(path), NVPC_SIM_DIR "/gpu%d/info", g->id);
	if (nvpc_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	p = strstr(buf, "\ngen ");
	if (!p)
		return -1;
	p += 5;
	for (i = 0; i < ARRAY_SIZE(gen_names); i++) {
		size_t n = strlen(gen_names[i]);

		if (!strncmp(p, gen_names[i], n) && p[n] == '\n') {
			g->gen = i;
			return 0;
		}
	}
	return -1;
}

/* Documentation/sim.rst: FLAT NAME CATNAME HZ CYCLES NR_SIGNALS TRAILER */
static int read_domains(struct fuzz_gpu *g)
{
	char path[128], name[32], line[256];
	unsigned int flat, nr, a, b;
	FILE *f;

	snprintf(path, sizeof(path), NVPC_SIM_DIR "/gpu%d/domains", g->id);
	f = fopen(path, "r");
	if (!f)
		return -1;
	g->nr_doms = 0;
	while (fgets(line, sizeof(line), f) && g->nr_doms < MAX_DOMS) {
		struct fuzz_dom *d = &g->dom[g->nr_doms];

		if (sscanf(line, "%u %31s %*s %*s %*s %i", &flat, name, &nr) != 3)
			continue;
		d->nr_signals = nr;
		if (sscanf(name, "main.%u", &a) == 1 ||
		    sscanf(name, "hub.%u", &a) == 1) {
			d->dset = NVPC_DSET_ID_HUB;
			d->unit = 0;
			d->idx = a;
		} else if (sscanf(name, "gpc%u.%u", &a, &b) == 2) {
			d->dset = NVPC_DSET_ID_GPC;
			d->unit = a;
			d->idx = b;
		} else if (sscanf(name, "part%u.%u", &a, &b) == 2) {
			d->dset = NVPC_DSET_ID_PART;
			d->unit = a;
			d->idx = b;
		} else {
			continue;
		}
		g->nr_doms++;
	}
	fclose(f);
	return g->nr_doms ? 0 : -1;
}

/* format/<name> is "configN:lo-hi" or "configN:bit" */
static int format_field(const char *pmu, const char *name, int *word,
			__u64 *mask)
{
	char path[PATH_MAX], buf[64];
	unsigned int lo, hi;
	char *colon;

	if (!strcmp(name, "config") || !strcmp(name, "config1") ||
	    !strcmp(name, "config2")) {
		*word = name[6] ? name[6] - '0' : 0;
		*mask = ~0ULL;
		return 0;
	}
	snprintf(path, sizeof(path), "%s/format/%s", pmu, name);
	if (nvpc_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	colon = strchr(buf, ':');
	if (!colon)
		return -1;
	*colon = '\0';
	*word = buf[6] ? buf[6] - '0' : 0;
	if (sscanf(colon + 1, "%u-%u", &lo, &hi) != 2) {
		lo = atoi(colon + 1);
		hi = lo;
	}
	if (*word > 2 || hi > 63 || lo > hi)
		return -1;
	*mask = (~0ULL << lo) & (~0ULL >> (63 - hi));
	return 0;
}

/* The events/ of the PMU as config words, through format/. */
static int read_events(struct fuzz_gpu *g)
{
	char path[PATH_MAX], buf[256], *tok, *save;
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/events", g->pmu);
	d = opendir(path);
	if (!d)
		return -1;
	g->nr_ev = 0;
	while ((de = readdir(d)) && g->nr_ev < MAX_EVENTS) {
		__u64 *cfg = g->ev[g->nr_ev];
		int bad = 0;

		if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", g->pmu,
			 de->d_name);
		if (nvpc_read_file(path, buf, sizeof(buf)) <= 0)
			continue;
		memset(cfg, 0, sizeof(g->ev[0]));
		for (tok = strtok_r(buf, ",\n", &save); tok;
		     tok = strtok_r(NULL, ",\n", &save)) {
			char *eq = strchr(tok, '=');
			__u64 v = 1, mask;
			int word;

			if (eq) {
				*eq = '\0';
				v = strtoull(eq + 1, NULL, 0);
			}
			if (format_field(g->pmu, tok, &word, &mask)) {
				bad = 1;
				break;
			}
			cfg[word] |= (v << __builtin_ctzll(mask)) & mask;
		}
		if (!bad)
			g->nr_ev++;
	}
	closedir(d);
	return g->nr_ev ? 0 : -1;
}

static const char *setup_gpu(struct fuzz_gpu *g, int id, const char *chip)
{
	char args[48], *rt;

	g->id = id;
	snprintf(g->chip, sizeof(g->chip), "%s", chip);
	snprintf(args, sizeof(args), "%s", chip);
	rt = strstr(args, " realtime");
	if (rt)
		*rt = '\0';
	errno = -sim_gpu_create(id, args);
	if (errno)
		return "create";
	/*
	 * Real time at 10 kHz: the counts move and the polls run, and the
	 * model's catching up stays cheap under TCG.
	 */
	if (rt) {
		errno = -sim_cmd(id, "clocks", "all 10000");
		if (!errno)
			errno = -sim_cmd(id, "clock", "realtime");
		if (errno)
			return "set real time at 10 kHz";
	}
	g->type = nvpc_pmu_find(id, g->pmu, sizeof(g->pmu));
	if (g->type < 0)
		return "find its PMU";
	if (read_gen(g))
		return "read its generation from info";
	if (read_domains(g))
		return "read its domains";
	if (read_events(g))
		return "read its events/";
	g->cpu = nvpc_pmu_num(g->pmu, "cpumask");
	return g->cpu < 0 ? "read its cpumask" : NULL;
}

/* --- the oracle -------------------------------------------------------- */

/* allowed results: bit 0 success, bit e errno e (below 128) */
#define fuzz_set	unsigned __int128
#define OK		((fuzz_set)1)
#define E(e)		((fuzz_set)1 << (e))

static const struct fuzz_dom *find_dom(const struct fuzz_gpu *g, __u64 c1)
{
	unsigned int set = field_get(c1, NVPC_CFG1_DSET);
	unsigned int unit = field_get(c1, NVPC_CFG1_UNIT);
	unsigned int idx = field_get(c1, NVPC_CFG1_DOM);
	int i;

	for (i = 0; i < g->nr_doms; i++)
		if (g->dom[i].dset == set && g->dom[i].unit == unit &&
		    g->dom[i].idx == idx)
			return &g->dom[i];
	return NULL;
}

/*
 * A record event's fields (record.rst "A record event"): G84+; no slot,
 * cycles or mode; every signal id in range; short packets have rsig0-3
 * only; a STOP input or a PERIODIC period. Whether the domain is free is
 * the caller's (domain_busy()).
 */
static fuzz_set expect_record(const struct fuzz_gpu *g,
			      const struct fuzz_dom *d, const __u64 cfg[3])
{
	__u64 c = cfg[0], c1 = cfg[1], c2 = cfg[2];
	__u64 input = NVPC_CFG_SIG0 | NVPC_CFG_SIG1 | NVPC_CFG_SIG2 |
		      NVPC_CFG_SIG3 | NVPC_CFG_OP | NVPC_CFG_OPBITS;
	int nr = (c & NVPC_CFG_SHORT) ? 4 : 12, j;

	if (g->gen < GEN_G84)
		return E(EOPNOTSUPP);
	if (c & (NVPC_CFG_SLOT | NVPC_CFG_CYCLES | NVPC_CFG_MODE))
		return E(EINVAL);
	for (j = 0; j < 12; j++) {
		unsigned int sig = j < 4 ? (c1 >> (32 + 8 * j)) & 0xff :
					   (c2 >> (8 * (j - 4))) & 0xff;

		if ((j >= nr && sig) || sig >= d->nr_signals)
			return E(EINVAL);
	}
	for (j = 0; j < 4; j++)
		if (field_get(c, 0xffULL << (8 * j)) >= d->nr_signals)
			return E(EINVAL);
	if (!(c & input) && !field_get(c1, NVPC_CFG1_PERIOD))
		return E(EINVAL);
	/* opbits: per generation */
	return field_get(c, NVPC_CFG_OPBITS) ? OK | E(EINVAL) : OK;
}

/*
 * A unit sum (perf.rst "Whole-GPU counts"): allunits without oneunit or
 * a unit number counts its domain in every unit.
 */
static int is_unit_sum(const __u64 cfg[3])
{
	return !(cfg[0] & NVPC_CFG_RECORD) && (cfg[1] & NVPC_CFG1_ALLUNITS) &&
	       !(cfg[1] & (NVPC_CFG1_ONEUNIT | NVPC_CFG1_UNIT));
}

/* Do two events (a unit sum: in every unit) share a domain? */
static int same_domain(const struct fuzz_gpu *g, int a, int a_sum, int b,
		       int b_sum)
{
	if (a == b)
		return 1;
	if (!a_sum && !b_sum)
		return 0;
	return g->dom[a].dset == g->dom[b].dset &&
	       g->dom[a].idx == g->dom[b].idx;
}

/*
 * A single event mode event (perf.rst "Windows and thresholds"): NV10:GF100
 * only (EOPNOTSUPP on GF100+), and on NV10 (no EVENT_CTR_PERIOD) neither
 * cycles nor an EVENT input without a threshold (EOPNOTSUPP, checked
 * before the fields); no record field or counter-mode signal;
 * cycles with no slot, input or argument, else a slot naming its input,
 * signal ids in range, no argument on START. Opbits: per slot.
 */
static fuzz_set expect_window(const struct fuzz_gpu *g,
			      const struct fuzz_dom *d, const __u64 cfg[3])
{
	__u64 c = cfg[0], c1 = cfg[1], c2 = cfg[2];
	__u64 input = NVPC_CFG_SIG0 | NVPC_CFG_SIG1 | NVPC_CFG_SIG2 |
		      NVPC_CFG_SIG3 | NVPC_CFG_OP | NVPC_CFG_OPBITS;
	unsigned int slot = field_get(c, NVPC_CFG_SLOT);
	unsigned int sarg = field_get(c2, NVPC_CFG2_SARG), j;

	if (g->gen >= GEN_GF100)
		return E(EOPNOTSUPP);
	if (g->gen == GEN_NV10 && ((c & NVPC_CFG_CYCLES) ||
				   (slot == NVPC_SLOT_EVENT + 1 && !sarg)))
		return E(EOPNOTSUPP);
	if ((c & NVPC_CFG_SHORT) || (c1 & NVPC_CFG1_RECORD_FIELDS) ||
	    (c2 & ~NVPC_CFG2_SARG))
		return E(EINVAL);
	if (c & NVPC_CFG_CYCLES)
		return slot || (c & input) || sarg ? E(EINVAL) : OK;
	if (!slot || slot > NVPC_NR_SLOTS)
		return E(EINVAL);
	for (j = 0; j < 4; j++)
		if (field_get(c, 0xffULL << (8 * j)) >= d->nr_signals)
			return E(EINVAL);
	if (slot == NVPC_SLOT_START + 1 && sarg)
		return E(EINVAL);
	return field_get(c, NVPC_CFG_OPBITS) ? OK | E(EINVAL) : OK;
}

static int is_window(const __u64 cfg[3])
{
	return !(cfg[0] & NVPC_CFG_RECORD) &&
	       field_get(cfg[0], NVPC_CFG_MODE) == NVPC_MODE_SINGLE;
}

/*
 * A record event and counting events exclude each other on a domain, a
 * record event excludes another on it, and on GF100+ on any domain;
 * single event mode and quad-mode counting events exclude each other on a
 * domain.
 */
static int domain_busy(int gpu, int dom, int record, int sum, int window)
{
	int i;

	for (i = 0; i < MAX_OPEN; i++) {
		const struct fuzz_fd *e = &open_ev[i];

		if (e->fd < 0 || e->gpu != gpu)
			continue;
		if (same_domain(&gpus[gpu], e->dom, e->sum, dom, sum) &&
		    (record || e->record))
			return 1;
		if (e->dom == dom && !record && window != e->window)
			return 1;
		if (record && e->record && gpus[gpu].gen >= GEN_GF100)
			return 1;
	}
	return 0;
}

/*
 * What event_init must answer for a config (perf.rst "Event fields" and
 * "Errors"): OK, E(EINVAL), or OK | E(EINVAL) where the answer depends on
 * per-slot or per-generation details the documents leave to the driver.
 */
static fuzz_set expect_config(const struct fuzz_gpu *g, const __u64 cfg[3])
{
	__u64 c = cfg[0], c1 = cfg[1], c2 = cfg[2];
	unsigned int slot = field_get(c, NVPC_CFG_SLOT);
	unsigned int mode = field_get(c, NVPC_CFG_MODE);
	unsigned int opbits = field_get(c, NVPC_CFG_OPBITS);
	unsigned int nbsig, j;
	const struct fuzz_dom *d;
	__u64 input = NVPC_CFG_SIG0 | NVPC_CFG_SIG1 | NVPC_CFG_SIG2 |
		      NVPC_CFG_SIG3 | NVPC_CFG_OP | NVPC_CFG_OPBITS;
	int deep = 0;

	/* reserved bits */
	if ((c & NVPC_CFG_RESERVED) || (c1 & NVPC_CFG1_RESERVED))
		return E(EINVAL);
	/* allunits/oneunit: counting events of GF100+ GPC/partition sets */
	if ((c1 & NVPC_CFG1_UNIT_FLAGS) &&
	    ((c & NVPC_CFG_RECORD) || g->gen < GEN_GF100 ||
	     (field_get(c1, NVPC_CFG1_DSET) != NVPC_DSET_ID_GPC &&
	      field_get(c1, NVPC_CFG1_DSET) != NVPC_DSET_ID_PART)))
		return E(EINVAL);
	/* absent domain, set or unit */
	d = find_dom(g, c1);
	if (!d)
		return E(EINVAL);
	/* record events (record.rst); record fields on a counting one */
	if (c & NVPC_CFG_RECORD)
		return expect_record(g, d, cfg);
	if (mode == NVPC_MODE_SINGLE)
		return expect_window(g, d, cfg);
	if ((c & NVPC_CFG_SHORT) || (c1 & NVPC_CFG1_RECORD_FIELDS) ||
	    (c2 & NVPC_CFG2_RESERVED))
		return E(EINVAL);
	/* slot > 4; counter modes 0-4, event_b4 NV30+, the others NV40+ */
	if (slot > NVPC_NR_SLOTS || mode > NVPC_MODE_EXTRA_B6)
		return E(EINVAL);
	if ((mode && g->gen < GEN_NV30) ||
	    (mode > NVPC_MODE_EVENT_B4 && g->gen < GEN_NV40))
		return E(EINVAL);
	if (mode && slot)
		return E(EINVAL);
	/* extra modes take no input */
	if ((mode == NVPC_MODE_EXTRA_B4 || mode == NVPC_MODE_EXTRA_B6) &&
	    (c & input))
		return E(EINVAL);
	/* a signal id at or above the domain's count */
	for (j = 0; j < 4; j++)
		if (field_get(c, 0xffULL << (8 * j)) >= d->nr_signals) {
			if (c & NVPC_CFG_CYCLES)
				deep = 1;	/* cycles take no input */
			else
				return E(EINVAL);
		}
	/* event_b6: bsig4/bsig5 are the EVENT input's arguments 2 and 3 */
	if (mode == NVPC_MODE_EVENT_B6 &&
	    (field_get(c, NVPC_CFG_SIG2) || field_get(c, NVPC_CFG_SIG3))) {
		if (field_get(c, NVPC_CFG_SIG2) !=
		    field_get(c2, NVPC_CFG2_BSIG4) ||
		    field_get(c, NVPC_CFG_SIG3) !=
		    field_get(c2, NVPC_CFG2_BSIG5))
			return E(EINVAL);
		deep = 1;
	}
	/* the counter mode's integer: B4 bsig0-3, B6 bsig0-5 */
	nbsig = mode == NVPC_MODE_EVENT_B4 || mode == NVPC_MODE_EXTRA_B4 ? 4 :
		mode ? 6 : 0;
	for (j = 0; j < nbsig; j++)
		if (field_get(c2, 0xffULL << (8 * j)) >= d->nr_signals)
			return E(EINVAL);
	if (field_get(c2, NVPC_CFG2_BSIG0 | NVPC_CFG2_BSIG1 | NVPC_CFG2_BSIG2 |
		      NVPC_CFG2_BSIG3 | NVPC_CFG2_BSIG4 | NVPC_CFG2_BSIG5) >>
	    (8 * nbsig))
		deep = 1;	/* signals the mode does not use */
	if (opbits)
		deep = 1;	/* per generation and slot */
	if ((c & NVPC_CFG_CYCLES) && (mode || slot || (c & input)))
		deep = 1;
	/* NV10:NV30 count the EVENT input only */
	if (g->gen < GEN_NV30 && slot && slot != NVPC_SLOT_EVENT + 1)
		deep = 1;
	return deep ? OK | E(EINVAL) : OK;
}

/* --- one call ------------------------------------------------------------ */

struct fuzz_call {
	struct perf_event_attr attr;
	int gpu;		/* the GPU the type names, -1: none */
	int pid, cpu, group_fd, flags;
	int group;		/* index in open_ev[] of group_fd, or -1 */
	int dom;		/* index of the domain in its GPU's dom[] */
	int record;		/* a record event */
	int sum;		/* a unit sum (is_unit_sum()) */
	int window;		/* a single event mode event */
	fuzz_set allowed;
	const char *why;	/* the class of the prediction */
};

static void random_config(const struct fuzz_gpu *g, __u64 cfg[3])
{
	const struct fuzz_dom *d = &g->dom[rnd_below(g->nr_doms)];
	unsigned int j, n, k = rnd_below(100);

	memset(cfg, 0, 3 * sizeof(*cfg));
	/*
	 * A good open costs ~30 ms under TCG (perf's cross-CPU calls,
	 * the swaps of the reads), a refused one ~40 us: mostly mutations.
	 */
	if (k < 3) {
		/* an event of events/, as is */
		memcpy(cfg, g->ev[rnd_below(g->nr_ev)], sizeof(g->ev[0]));
	} else if (k < 33) {
		/* an event of events/ with 1-3 bits flipped */
		memcpy(cfg, g->ev[rnd_below(g->nr_ev)], sizeof(g->ev[0]));
		for (n = 1 + rnd_below(3); n; n--)
			cfg[rnd_below(3)] ^= 1ULL << rnd_below(64);
	} else if (k < 48) {
		/* field by field, mostly in range */
		cfg[1] = CFG1_DOM(d->dset, d->unit, d->idx);
		if (chance(5))
			cfg[1] = NVPC_FIELD(NVPC_CFG1_DSET, rnd_below(4)) |
				 NVPC_FIELD(NVPC_CFG1_UNIT, rnd_below(32)) |
				 NVPC_FIELD(NVPC_CFG1_DOM, rnd_below(8));
		for (j = 0; j < 4; j++)
			if (chance(50))
				cfg[0] |= CFG_SIG(j, chance(90) ?
						  rnd_below(d->nr_signals) :
						  rnd_below(256));
		if (chance(60))
			cfg[0] |= CFG_OP(rnd());
		if (chance(10))
			cfg[0] |= CFG_OPBITS(rnd());
		if (chance(20))
			cfg[0] |= NVPC_FIELD(NVPC_CFG_SLOT, rnd_below(8));
		if (chance(10))
			cfg[0] |= NVPC_CFG_CYCLES;
		if (chance(15)) {
			cfg[0] |= NVPC_FIELD(NVPC_CFG_MODE, rnd_below(8));
			for (j = 0; j < 6; j++)
				if (chance(70))
					cfg[2] |= CFG2_BSIG(j, chance(95) ?
						rnd_below(d->nr_signals) :
						rnd_below(256));
			if (chance(50))
				cfg[0] &= ~(NVPC_CFG_SIG0 | NVPC_CFG_SIG1 |
					    NVPC_CFG_SIG2 | NVPC_CFG_SIG3 |
					    NVPC_CFG_OP | NVPC_CFG_OPBITS);
		}
		if (chance(3))
			cfg[rnd_below(3)] |= 1ULL << (48 + rnd_below(16));
	} else if (k < 50) {
		/* the domain's cycles */
		cfg[0] = NVPC_CFG_CYCLES;
		cfg[1] = CFG1_DOM(d->dset, d->unit, d->idx);
	} else if (k < 56) {
		/* a record event, mostly in range (record.rst) */
		cfg[0] = NVPC_CFG_RECORD;
		cfg[1] = CFG1_DOM(d->dset, d->unit, d->idx);
		if (chance(50))
			cfg[0] |= CFG_SIG(0, rnd_below(d->nr_signals));
		if (chance(40))
			cfg[1] |= NVPC_FIELD(NVPC_CFG1_PERIOD, rnd_below(8));
		if (chance(30))
			cfg[0] |= NVPC_CFG_SHORT;
		for (j = 0; j < 12; j++) {
			__u64 sig = chance(97) ? rnd_below(d->nr_signals) :
						 rnd_below(256);

			if (!chance(40))
				continue;
			if (j < 4)
				cfg[1] |= sig << (32 + 8 * j);
			else
				cfg[2] |= sig << (8 * (j - 4));
		}
		if (chance(5))
			cfg[0] |= NVPC_FIELD(NVPC_CFG_SLOT, rnd_below(8));
		if (chance(5))
			cfg[0] |= CFG_OPBITS(rnd());
	} else {
		/* anything */
		cfg[0] = rnd();
		cfg[1] = chance(50) ? rnd() : rnd_below(1 << 13);
		cfg[2] = chance(50) ? rnd() : 0;
	}
}

/* An fd number that is not open, for EBADF. */
static int closed_fd(void)
{
	int fd = 900 + rnd_below(100);

	while (fcntl(fd, F_GETFD) >= 0)
		fd++;
	return fd;
}

static int nr_open(void)
{
	int i, n = 0;

	for (i = 0; i < MAX_OPEN; i++)
		n += open_ev[i].fd >= 0;
	return n;
}

static int pick_open(void)
{
	int i, n = nr_open(), k;

	if (!n)
		return -1;
	k = rnd_below(n);
	for (i = 0; i < MAX_OPEN; i++)
		if (open_ev[i].fd >= 0 && !k--)
			return i;
	return -1;
}

/*
 * Build a call and predict its result. The perf core's checks come first,
 * in its order; the PMU's event_init (perf.rst "Errors") after them.
 */
static void make_group_call(struct fuzz_call *fc, struct perf_event_attr *a,
			    int busy);

static void make_call(struct fuzz_call *fc, int null_fd)
{
	struct perf_event_attr *a = &fc->attr;
	struct fuzz_gpu *g = &gpus[worker + nr_workers *
				   rnd_below((NR_GPUS - worker + nr_workers - 1) /
					     nr_workers)];
	fuzz_set pmu_ok;
	int busy;
	__u64 cfg[3];
	int sampling = 0, per_task = 0, exclude = 0;
	int k;

	memset(fc, 0, sizeof(*fc));
	a->size = sizeof(*a);
	fc->gpu = g - gpus;
	a->type = g->type;
	random_config(g, cfg);
	a->config = cfg[0];
	a->config1 = cfg[1];
	a->config2 = cfg[2];
	a->disabled = chance(50);
	a->read_format = rnd() & (PERF_FORMAT_TOTAL_TIME_ENABLED |
				  PERF_FORMAT_TOTAL_TIME_RUNNING |
				  PERF_FORMAT_ID | PERF_FORMAT_GROUP |
				  PERF_FORMAT_LOST);
	a->pinned = chance(3);
	a->exclusive = chance(3);
	a->inherit = chance(2);
	if (chance(2))
		a->sample_type = rnd() & (PERF_SAMPLE_IP | PERF_SAMPLE_TID |
					  PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
					  PERF_SAMPLE_PERIOD);
	if (chance(12)) {
		exclude = 1;
		switch (rnd_below(6)) {
		case 0:
			a->exclude_user = 1;
			break;
		case 1:
			a->exclude_kernel = 1;
			break;
		case 2:
			a->exclude_hv = 1;
			break;
		case 3:
			a->exclude_idle = 1;
			break;
		case 4:
			a->exclude_host = 1;
			break;
		default:
			a->exclude_guest = 1;
			break;
		}
	}
	k = rnd_below(100);
	if (k < 4) {
		a->sample_period = 1 + rnd_below(1000000);
		sampling = 1;
	} else if (k < 6) {
		a->freq = 1;
		a->sample_freq = 1 + rnd_below(max_sample_rate);
		sampling = 1;
	}
	if (chance(3))
		a->type = 0x40000000 + rnd_below(1 << 20);	/* no such PMU */
	fc->pid = -1;
	fc->cpu = rnd_below(nr_cpus);
	fc->group_fd = -1;
	fc->group = -1;
	fc->flags = chance(50) ? PERF_FLAG_FD_CLOEXEC : 0;

	/* the perf core, in perf_event_open()'s order */
	k = rnd_below(100);
	if (k < 2) {
		fc->flags |= 1U << (4 + rnd_below(28));
		fc->allowed = E(EINVAL);
		fc->why = "unknown open flag";
		return;
	}
	if (k < 3) {
		a->read_format |= 1ULL << (5 + rnd_below(59));
		fc->allowed = E(EINVAL);
		fc->why = "unknown read_format bit";
		return;
	}
	if (k < 4) {
		a->freq = 1;
		a->sample_freq = max_sample_rate + 1 + rnd_below(1000);
		fc->allowed = E(EINVAL);
		fc->why = "sample_freq above perf_event_max_sample_rate";
		return;
	}
	if (k < 5) {
		a->freq = 0;
		a->sample_period = (1ULL << 63) | rnd();
		fc->allowed = E(EINVAL);
		fc->why = "sample_period bit 63";
		return;
	}
	if (k < 6) {
		fc->flags |= PERF_FLAG_PID_CGROUP;
		if (chance(50))
			fc->cpu = -1;
		fc->allowed = E(EINVAL);
		fc->why = "cgroup flag with pid or cpu -1";
		return;
	}
	/* the group fd */
	k = rnd_below(100);
	if (k < 3) {
		fc->group_fd = chance(50) ? closed_fd() : null_fd;
		fc->allowed = E(EBADF);
		fc->why = "group_fd not a perf event";
		return;
	}
	if (k < 18 && nr_open()) {
		fc->group = pick_open();
		fc->group_fd = open_ev[fc->group].fd;
		if (chance(10)) {
			fc->flags |= PERF_FLAG_FD_NO_GROUP;
			fc->group = -1;
		}
	}
	/* pid and cpu */
	k = rnd_below(100);
	if (k < 2) {
		fc->pid = 0x3ffffff0;		/* above pid_max */
		fc->allowed = E(ESRCH);
		fc->why = "no such pid";
		return;
	}
	if (k < 4) {
		fc->cpu = k < 3 ? -1 : nr_cpus + rnd_below(4096);
		fc->allowed = E(EINVAL);
		fc->why = "cpu -1 without a task, or >= nr_cpu_ids";
		return;
	}
	if (k < 7) {
		fc->pid = 0;
		per_task = 1;
		if (chance(50))
			fc->cpu = -1;
	}
	/*
	 * perf_event_open() compares a task event's inherit bit with its
	 * group leader's before it looks for the PMU (kernel/events/core.c,
	 * 6.1 and 6.12)
	 */
	if (fc->pid != -1 && fc->group >= 0 &&
	    open_ev[fc->group].inherit != a->inherit) {
		fc->allowed = E(EINVAL);
		fc->why = "task event and group leader differ in inherit";
		return;
	}
	if (a->type != (__u32)g->type) {
		fc->allowed = E(ENOENT);
		fc->why = "type of no PMU";
		return;
	}

	/* the PMU (perf.rst "Errors"), in event_init's order */
	if (sampling) {
		/* a newer core may refuse the task context first */
		fc->allowed = E(EOPNOTSUPP) | (per_task ? E(EINVAL) : 0);
		fc->why = "sampling";
		return;
	}
	if (per_task) {
		fc->allowed = E(EINVAL);
		fc->why = "per-task";
		return;
	}
	pmu_ok = expect_config(g, cfg);
	fc->why = pmu_ok == OK ? "valid config" :
		  pmu_ok & OK ? "config with deep rules" : "invalid config";
	if (!(pmu_ok & OK)) {
		fc->allowed = pmu_ok;
		return;
	}
	/* event_init refuses a busy domain before perf sees exclude_* */
	fc->record = !!(cfg[0] & NVPC_CFG_RECORD);
	/* a sum's unit 0: the sim's units are 0 .. N-1 */
	fc->dom = find_dom(g, cfg[1]) - g->dom;
	fc->sum = is_unit_sum(cfg);
	fc->window = is_window(cfg);
	busy = domain_busy(fc->gpu, fc->dom, fc->record, fc->sum,
			   fc->window);
	if (busy && fc->group < 0) {
		fc->allowed = (pmu_ok & ~OK) | E(EBUSY);
		fc->why = fc->record ? "record event on a busy domain" :
			  "counting on a domain that records or counts in the other mode";
		return;
	}
	if (fc->record && fc->group >= 0) {
		fc->allowed = E(EINVAL);
		fc->why = "record event in a group";
		return;
	}
	if (exclude) {
		fc->allowed = E(EINVAL) | (busy ? E(EBUSY) : 0);
		fc->why = "exclude_* bit";
		return;
	}
	/* a standalone valid event opens; groups have their own rules */
	fc->allowed = pmu_ok;
	if (fc->group < 0)
		return;
	make_group_call(fc, a, busy);
}

/*
 * A valid counting event joining a group: perf's group rules, or, if its
 * domain records, EBUSY from event_init, which runs before them.
 */
static void make_group_call(struct fuzz_call *fc, struct perf_event_attr *a,
			    int busy)
{
	int leader_gpu;

	leader_gpu = open_ev[fc->group].gpu;
	if (open_ev[fc->group].leader >= 0) {
		fc->allowed = E(EINVAL);
		fc->why = "group_fd is not a group leader";
	} else if (a->pinned || a->exclusive) {
		fc->allowed = E(EINVAL);
		fc->why = "pinned or exclusive group member";
	} else if (leader_gpu >= 0 && leader_gpu != fc->gpu) {
		fc->allowed = E(EINVAL);
		fc->why = "group leader on another PMU";
	} else if (leader_gpu < 0 &&
		   gpus[fc->gpu].cpu != open_ev[fc->group].cpu) {
		fc->allowed = E(EINVAL);
		fc->why = "software group leader on another CPU";
	} else {
		/* fits the domain's inputs, or not */
		fc->allowed = OK | E(EINVAL);
		fc->why = "group member";
	}
	if (busy)
		fc->allowed |= E(EBUSY);
}

/* --- what opened ------------------------------------------------------- */

static size_t read_size(const struct fuzz_fd *e)
{
	__u64 rf = e->read_format;
	size_t n = 1, per = 8, hdr = 0;
	const struct fuzz_fd *l = e->leader >= 0 ? &open_ev[e->leader] : e;

	hdr += rf & PERF_FORMAT_TOTAL_TIME_ENABLED ? 8 : 0;
	hdr += rf & PERF_FORMAT_TOTAL_TIME_RUNNING ? 8 : 0;
	per += rf & PERF_FORMAT_ID ? 8 : 0;
	per += rf & PERF_FORMAT_LOST ? 8 : 0;
	if (!(rf & PERF_FORMAT_GROUP))
		return hdr + per;
	n += l->members;
	return 8 + hdr + n * per;
}

/* Read an open GPU event: the exact size, its count never going back. */
static void check_read(struct fuzz_fd *e, const char *when)
{
	__u64 buf[64];
	size_t want = read_size(e);
	ssize_t n = read(e->fd, buf, sizeof(buf));
	int pinned = e->pinned ||
		     (e->leader >= 0 && open_ev[e->leader].pinned);
	__u64 count;

	/* a pinned group that could not be scheduled reads EOF */
	if (n == 0 && pinned)
		return;
	if (n != (ssize_t)want) {
		if (res.read_errors++ < MAX_MISMATCH)
			ksft_print_msg("read %s: %zd bytes, want %zu (%s; gpu %d, 0x%llx, %d)\n",
				       when, n, want,
				       n < 0 ? strerror(errno) : "size", e->gpu,
				       (unsigned long long)e->read_format,
				       e->leader);
		return;
	}
	if (e->gpu < 0)
		return;
	/* the event's own value: first, or its slot in the group */
	count = buf[e->read_format & PERF_FORMAT_GROUP ? 1 +
		!!(e->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		!!(e->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING) : 0];
	if (e->read_format & PERF_FORMAT_GROUP && e->leader >= 0)
		return;		/* the leader's value comes first */
	if (count < e->last && res.read_errors++ < MAX_MISMATCH)
		ksft_print_msg("read %s: count went back from %llu to %llu\n",
			       when, (unsigned long long)e->last,
			       (unsigned long long)count);
	e->last = count;
}

static void close_ev(int i)
{
	int j;

	if (open_ev[i].fd < 0)
		return;
	/* members first: the group's layout stays what read_size() says */
	for (j = 0; j < MAX_OPEN; j++)
		if (open_ev[j].fd >= 0 && open_ev[j].leader == i)
			close_ev(j);
	if (open_ev[i].leader >= 0)
		open_ev[open_ev[i].leader].members--;
	close(open_ev[i].fd);
	open_ev[i].fd = -1;
}

static int free_slot(void)
{
	int i;

	for (i = 0; i < MAX_OPEN; i++)
		if (open_ev[i].fd < 0)
			return i;
	close_ev(pick_open());
	for (i = 0; i < MAX_OPEN; i++)
		if (open_ev[i].fd < 0)
			return i;
	return -1;
}

/* A software event on a random CPU: leaders and members of mixed groups. */
static void open_sw(void)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_SOFTWARE,
		.config = chance(50) ? PERF_COUNT_SW_CPU_CLOCK :
				       PERF_COUNT_SW_DUMMY,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED,
	};
	int i = free_slot(), cpu = rnd_below(nr_cpus), fd;

	if (i < 0)
		return;
	fd = syscall(__NR_perf_event_open, &a, -1, cpu, -1, 0);
	if (fd < 0)
		return;
	open_ev[i] = (struct fuzz_fd){ .fd = fd, .gpu = -1, .leader = -1,
				       .dom = -1,
				       .read_format = a.read_format,
				       .cpu = cpu };
}

static const char *errname(int e)
{
	static char buf[16];

	switch (e) {
	case 0: return "success";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EBADF: return "EBADF";
	case ESRCH: return "ESRCH";
	case ENODEV: return "ENODEV";
	case ENOSPC: return "ENOSPC";
	case E2BIG: return "E2BIG";
	case EACCES: return "EACCES";
	case EBUSY: return "EBUSY";
	}
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

/* Append to a message buffer. */
static void cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

static void report_mismatch(const struct fuzz_call *fc, int err)
{
	const struct perf_event_attr *a = &fc->attr;
	char want[128] = "", msg[512] = "";
	int e;

	if (res.mismatches++ >= MAX_MISMATCH)
		return;
	for (e = 0; e < 128; e++)
		if (fc->allowed & E(e))
			cat(want, sizeof(want), "%s%s", want[0] ? "|" : "",
			    errname(e));
	cat(msg, sizeof(msg), "worker %d call %lu on %s (%s): got %s, want %s;",
	    worker, res.calls, gpus[fc->gpu].chip, fc->why, errname(err), want);
	cat(msg, sizeof(msg), " type %u config 0x%llx/0x%llx/0x%llx", a->type,
	    (unsigned long long)a->config, (unsigned long long)a->config1,
	    (unsigned long long)a->config2);
	cat(msg, sizeof(msg), " disabled %d pinned %d exclusive %d inherit %d",
	    a->disabled, a->pinned, a->exclusive, a->inherit);
	cat(msg, sizeof(msg), " exclude u%d k%d hv%d idle%d host%d guest%d",
	    a->exclude_user, a->exclude_kernel, a->exclude_hv,
	    a->exclude_idle, a->exclude_host, a->exclude_guest);
	cat(msg, sizeof(msg), " period %llu freq %d read_format 0x%llx",
	    (unsigned long long)a->sample_period, a->freq,
	    (unsigned long long)a->read_format);
	cat(msg, sizeof(msg), " pid %d cpu %d group_fd %d flags 0x%x",
	    fc->pid, fc->cpu, fc->group_fd, fc->flags);
	ksft_print_msg("%s\n", msg);
}

static void one_call(int null_fd)
{
	struct fuzz_call fc;
	struct fuzz_fd *e;
	int fd, err, i;
	double t;

	/* room first: make_call() may pick any open event as the leader */
	i = free_slot();
	make_call(&fc, null_fd);
	t = now();
	fd = syscall(__NR_perf_event_open, &fc.attr, fc.pid, fc.cpu,
		     fc.group_fd, fc.flags);
	err = fd < 0 ? errno : 0;
	t = now() - t;
	if (fd < 0)
		res.t_fail += t;
	else
		res.t_open += t;
	res.calls++;
	res.hist[err > MAX_ERRNO ? MAX_ERRNO : err]++;
	if (err > 127 || !(fc.allowed & E(err)))
		report_mismatch(&fc, err);
	if (fd < 0)
		return;
	res.opened++;
	e = &open_ev[i];
	*e = (struct fuzz_fd){ .fd = fd, .gpu = fc.gpu, .leader = fc.group,
			       /* the driver pins record events (record.rst) */
			       .pinned = fc.attr.pinned || fc.record,
			       .inherit = fc.attr.inherit,
			       .dom = fc.dom, .record = fc.record,
			       .sum = fc.sum,
			       .window = fc.window,
			       .read_format = fc.attr.read_format };
	/* a member of a software leader's group reads in that group */
	if (e->leader >= 0)
		open_ev[e->leader].members++;
	t = now();
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) && res.read_errors++ < MAX_MISMATCH)
		ksft_print_msg("enable: %s\n", strerror(errno));
	check_read(e, "enabled");
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) &&
	    res.read_errors++ < MAX_MISMATCH)
		ksft_print_msg("disable: %s\n", strerror(errno));
	check_read(e, "disabled");
	/* most close at once; some stay as leaders and to multiplex */
	if (chance(60))
		close_ev(i);
	else if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) &&
		 res.read_errors++ < MAX_MISMATCH)
		ksft_print_msg("enable: %s\n", strerror(errno));
	res.t_use += now() - t;
}

/* four workers on PREEMPT_RT (see the top of this file), else one */
static int default_workers(void)
{
	struct utsname u;

	return !uname(&u) && strstr(u.version, "PREEMPT_RT") ? 4 : 1;
}

/*
 * One worker: its share of the calls on its share of the GPUs, from a
 * sequence of its own (the seed, mixed with its number), then every event
 * it holds closed and its result written to out.
 */
static void run_worker(int w, unsigned long want_calls, int null_fd, int out)
{
	struct timespec t0, t1;
	unsigned long share;
	unsigned int i;

	worker = w;
	rng = seed ^ (0x9e3779b97f4a7c15ULL * w);
	if (!rng)
		rng = 1;
	share = want_calls / nr_workers +
		(w < (int)(want_calls % nr_workers));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (res.calls < share) {
		if (chance(2))
			open_sw();
		one_call(null_fd);
		if (res.calls % 2000 == 0) {
			clock_gettime(CLOCK_MONOTONIC, &t1);
			ksft_print_msg("worker %d: %lu calls %lu open %.0f s: %.1f/%.1f/%.1f s\n",
				       w, res.calls, res.opened,
				       (t1.tv_sec - t0.tv_sec) +
				       (t1.tv_nsec - t0.tv_nsec) / 1e9,
				       res.t_fail, res.t_open, res.t_use);
		}
		if (res.calls % 4096 == 0)
			for (i = 0; i < MAX_OPEN; i++)
				if (open_ev[i].fd >= 0 && open_ev[i].gpu >= 0)
					check_read(&open_ev[i], "open");
	}
	for (i = 0; i < MAX_OPEN; i++)
		close_ev(i);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	res.secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (write(out, &res, sizeof(res)) != (ssize_t)sizeof(res))
		_exit(2);
	_exit(0);
}

/* A worker process; its result comes through *rd. */
static pid_t start_worker(int w, unsigned long want_calls, int null_fd,
			  int *rd)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!pid) {
		close(p[0]);
		run_worker(w, want_calls, null_fd, p[1]);
	}
	close(p[1]);
	*rd = p[0];
	return pid;
}

static int cpus_possible(void)
{
	char buf[64];
	int lo, hi;

	if (nvpc_read_file("/sys/devices/system/cpu/possible", buf,
			   sizeof(buf)) <= 0)
		return -1;
	if (sscanf(buf, "%d-%d", &lo, &hi) == 2)
		return hi + 1;
	return atoi(buf) + 1;
}

int main(void)
{
	const char *s = getenv("NVPC_FUZZ_SEED");
	unsigned long want_calls = NR_CALLS;
	struct timespec t0;
	char buf[64], line[1024];
	struct fuzz_result all;
	int pipe_fd[MAX_WORKERS], failed_workers = 0;
	pid_t pid[MAX_WORKERS];
	unsigned int i;
	int null_fd, ok, e, w, unloaded;

	/* the seed and the last lines must reach the log before any crash */
	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(4);
	if (getenv("NVPC_FUZZ_CALLS"))
		want_calls = strtoul(getenv("NVPC_FUZZ_CALLS"), NULL, 0);
	if (want_calls < NR_CALLS)
		want_calls = NR_CALLS;
	nr_workers = default_workers();
	if (getenv("NVPC_FUZZ_WORKERS"))
		nr_workers = atoi(getenv("NVPC_FUZZ_WORKERS"));
	if (nr_workers < 1 || nr_workers > MAX_WORKERS)
		ksft_exit_fail_msg("NVPC_FUZZ_WORKERS: 1 .. %d\n", MAX_WORKERS);
	clock_gettime(CLOCK_REALTIME, &t0);
	rng = s && *s ? strtoull(s, NULL, 0) :
		  (__u64)t0.tv_nsec * 0x9e3779b97f4a7c15ULL ^ getpid();
	if (!rng)
		rng = 1;
	seed = rng;
	ksft_print_msg("seed 0x%llx (replay: NVPC_FUZZ_SEED=0x%llx)\n",
		       (unsigned long long)seed, (unsigned long long)seed);
	for (i = 0; i < MAX_OPEN; i++)
		open_ev[i].fd = -1;
	nr_cpus = cpus_possible();
	if (nvpc_read_file("/proc/sys/kernel/perf_event_max_sample_rate", buf,
			   sizeof(buf)) <= 0 || nr_cpus <= 0)
		ksft_exit_fail_msg("cannot read the CPUs or the sample rate\n");
	max_sample_rate = strtoull(buf, NULL, 0);
	null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	ok = null_fd >= 0;
	for (i = 0; ok && i < NR_GPUS; i++) {
		const char *fail = setup_gpu(&gpus[i], i, fuzz_chips[i]);

		ok = !fail;
		if (fail)
			ksft_print_msg("%s: cannot %s (%s)\n", fuzz_chips[i],
				       fail, strerror(errno));
	}
	ksft_test_result(ok, "fuzz: %zu simulated GPUs, one per generation and clock mode\n",
			 NR_GPUS);
	if (!ok) {
		nvpc_mod_unload_all();
		ksft_exit_fail();
	}

	for (w = 0; w < nr_workers; w++) {
		pid[w] = start_worker(w, want_calls, null_fd, &pipe_fd[w]);
		if (pid[w] < 0)
			ksft_print_msg("worker %d: cannot start (%s)\n", w,
				       strerror(errno));
	}
	memset(&all, 0, sizeof(all));
	for (w = 0; w < nr_workers; w++) {
		struct fuzz_result r;
		int status = 0;

		/* the result first: a full pipe never holds a worker up */
		ok = pid[w] > 0 &&
		     read(pipe_fd[w], &r, sizeof(r)) == (ssize_t)sizeof(r);
		if (pid[w] > 0) {
			close(pipe_fd[w]);
			waitpid(pid[w], &status, 0);
		}
		if (!ok || !WIFEXITED(status) || WEXITSTATUS(status)) {
			ksft_print_msg("worker %d: no result (%s %d)\n", w,
				       WIFSIGNALED(status) ? "signal" : "status",
				       WIFSIGNALED(status) ? WTERMSIG(status) :
				       WEXITSTATUS(status));
			failed_workers++;
			continue;
		}
		for (e = 0; e <= MAX_ERRNO; e++)
			all.hist[e] += r.hist[e];
		all.calls += r.calls;
		all.opened += r.opened;
		all.mismatches += r.mismatches;
		all.read_errors += r.read_errors;
		if (r.secs > all.secs)
			all.secs = r.secs;
	}

	line[0] = '\0';
	for (e = 0; e <= MAX_ERRNO; e++)
		if (all.hist[e])
			snprintf(line + strlen(line), sizeof(line) - strlen(line),
				 " %s %lu", errname(e), all.hist[e]);
	ksft_print_msg("errno histogram:%s\n", line);
	ksft_test_result(!failed_workers && !all.mismatches &&
			 all.calls >= want_calls,
			 "fuzz: seed 0x%llx, %lu calls by %d worker(s) in %.1f s (%.0f/s), %lu opened, %lu unexpected results\n",
			 (unsigned long long)seed, all.calls, nr_workers,
			 all.secs, all.secs > 0 ? all.calls / all.secs : 0.0,
			 all.opened, all.mismatches);
	ksft_test_result(!failed_workers && !all.read_errors,
			 "fuzz: enable/read/disable of every opened event (%lu bad)\n",
			 all.read_errors);

	for (i = 0; i < NR_GPUS; i++)
		sim_gpu_remove(gpus[i].id);
	/* the PMUs go from a work item: give it a moment */
	for (unloaded = 0, i = 0; i < 50 && !unloaded; i++) {
		nvpc_mod_unload_all();
		unloaded = !nvpc_mod_loaded("nvpcounter_sim") &&
			   !nvpc_mod_loaded("nvpcounter");
		if (!unloaded)
			usleep(100000);
	}
	ksft_test_result(unloaded, "fuzz: both modules unload afterwards\n");
	close(null_fd);
	ksft_finished();
}
