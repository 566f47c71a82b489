// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc top with no -d: how busy each GPU's engines are, as intel_gpu_top
 * lists its engines (Documentation/monitoring.rst).
 *
 * An engine is a signal the PMU's events/ names <engine>_idle (the
 * catalogue's graph_idle on G80:GF100, the video engines' pbsp_idle,
 * pvp_idle, pppp_idle, pcrypt_idle where named): busy is 1 - its share
 * of the domain's cycles. Each domain with engines is one perf group on
 * the PMU's CPU, the domain's cycles leading its idle signals (at most
 * four a group, a quad-mode domain's inputs), read every interval like
 * perf stat -I: the driver reads a group's members in one swap, so the
 * share is exact. Counting works on every generation and backend. A GPU
 * whose catalogue names no such signal shows its domains' clocks (their
 * cycles over the interval) and says why it has no busy figure.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <linux/perf_event.h>
#include <linux/nvpcounter.h>

#include "nvpc.h"
#include "nvpc_capture.h"
#include "nvpc_escape.h"
#include "nvpc_gpu.h"
#include "nvpc_out.h"
#include "nvpc_perf.h"
#include "nvpc_util.h"
#include "nvpc_view.h"

#define ENG_MAX_GPUS	16
#define ENG_MAX_DOMS	64	/* domains shown per GPU */
#define ENG_PER_GROUP	4	/* a quad-mode domain's inputs */
#define ENG_DEFAULT_MS	1000
#define ENG_BAR		20	/* the table's bar, in characters */

enum eng_fmt { ENG_TABLE, ENG_LINES, ENG_JSON, ENG_CSV };

struct eng_sig {
	char name[64];		/* events/ name: graph_idle */
	char label[64];		/* graph (PGRAPH) */
	char engine[64];	/* graph */
	unsigned int id;
	uint64_t prev, delta;
};

/* one perf group: a domain's cycles and up to four idle signals */
struct eng_group {
	struct nvpc_domain d;
	int fd;			/* the leader, cycles */
	unsigned int nr;
	struct eng_sig sig[ENG_PER_GROUP];
	uint64_t prev_cycles, prev_enabled, prev_running;
	uint64_t cycles, enabled, running;	/* this interval's */
};

struct eng_gpu {
	struct nvpc_gpu g;
	unsigned int nr;
	struct eng_group grp[ENG_MAX_DOMS];
	/* the engines as events/ names them, in its (alphabetical) order */
	unsigned int nr_eng;
	struct { struct eng_group *gr; struct eng_sig *s; } eng[ENG_MAX_DOMS];
	bool engines;		/* grp[] are engine groups, else clocks */
	unsigned int more;	/* domains beyond ENG_MAX_DOMS, not shown */
};

struct eng {
	enum eng_fmt fmt;
	uint64_t interval_ns, max_intervals, shown;
	const char *pmu;	/* -g, or every GPU */
	const char *out;
	struct nvpc_ofile o;
	unsigned int nr;
	struct eng_gpu gpu[ENG_MAX_GPUS];
	bool keyboard;
	struct termios saved;
	sigset_t waitmask;
	double t0;
};

/* the engines' names, as the catalogue's sources name the units */
static const struct {
	const char *engine, *label;
} eng_labels[] = {
	{ "graph", "graph (PGRAPH)" },
	{ "pbsp", "video bitstream (PBSP)" },
	{ "pbsp_fifo", "video bitstream FIFO (PBSP)" },
	{ "pvp", "video processor (PVP)" },
	{ "pvp_vuc", "video processor VUC (PVP)" },
	{ "pppp", "video post-processing (PPPP)" },
	{ "pcrypt", "video crypto (PCRYPT)" },
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int domain_entry(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

static void eng_label(struct eng_sig *s)
{
	size_t n = strlen(s->name) - strlen("_idle");

	if (n >= sizeof(s->engine))
		n = sizeof(s->engine) - 1;
	memcpy(s->engine, s->name, n);
	s->engine[n] = '\0';
	memcpy(s->label, s->engine, n + 1);
	for (unsigned int i = 0; i < sizeof(eng_labels) / sizeof(eng_labels[0]); i++)
		if (!strcmp(eng_labels[i].engine, s->engine))
			snprintf(s->label, sizeof(s->label), "%s",
				 eng_labels[i].label);
}

/* the group of domain d in g, a new one if none has room; NULL: full */
static struct eng_group *group_of(struct eng_gpu *g, const struct nvpc_domain *d)
{
	for (unsigned int i = 0; i < g->nr; i++)
		if (!strcmp(g->grp[i].d.name, d->name) &&
		    g->grp[i].nr < ENG_PER_GROUP)
			return &g->grp[i];
	if (g->nr == ENG_MAX_DOMS)
		return NULL;
	g->grp[g->nr].d = *d;
	g->grp[g->nr].fd = -1;
	return &g->grp[g->nr++];
}

/*
 * The GPU's engines from its events/ and domains/: every *_idle signal
 * in its domain's group; without one, a group of the cycles alone per
 * domain (the clocks). 0, or -errno said.
 */
static int gpu_scan(struct eng_gpu *eg)
{
	struct dirent **doms = NULL, **evs = NULL;
	char dir[1024], path[1400];
	int nd, ne, ret = 0;

	snprintf(dir, sizeof(dir), "%s/domains", eg->g.dir);
	nd = scandir(dir, &doms, domain_entry, versionsort);
	snprintf(dir, sizeof(dir), "%s/events", eg->g.dir);
	ne = scandir(dir, &evs, domain_entry, versionsort);
	for (int i = 0; i < ne; i++) {
		const char *name = evs[i]->d_name;
		size_t len = strlen(name);
		unsigned int dset, dom, sig;

		if (len <= 5 || len >= sizeof(((struct eng_sig *)0)->name) ||
		    strcmp(name + len - 5, "_idle"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (nvpc_event_parse(path, &dset, &dom, &sig))
			continue;
		/* its domain: the one of domains/ with that set and index */
		for (int j = 0; j < nd; j++) {
			struct nvpc_domain d;
			struct eng_group *gr;
			struct eng_sig *s;

			if (nvpc_domain_open(&eg->g, doms[j]->d_name, &d) ||
			    d.dset != dset || d.dom != dom || d.unit)
				continue;
			gr = group_of(eg, &d);
			if (!gr)
				break;
			if (eg->nr_eng == ENG_MAX_DOMS)
				break;
			s = &gr->sig[gr->nr++];
			memcpy(s->name, name, len + 1);
			s->id = sig;
			eng_label(s);
			eg->eng[eg->nr_eng].gr = gr;
			eg->eng[eg->nr_eng++].s = s;
			eg->engines = true;
			break;
		}
	}
	if (!eg->engines) {
		for (int j = 0; j < nd; j++) {
			struct nvpc_domain d;

			if (nvpc_domain_open(&eg->g, doms[j]->d_name, &d))
				continue;
			if (eg->nr == ENG_MAX_DOMS) {
				eg->more++;
				continue;
			}
			eg->grp[eg->nr].d = d;
			eg->grp[eg->nr++].fd = -1;
		}
		if (!eg->nr) {
			nvpc_err("%s (%s %s): no domain in %s/domains",
				 eg->g.pmu, eg->g.chip, eg->g.bus, eg->g.dir);
			ret = -ENOENT;
		}
	}
	for (int i = 0; i < nd; i++)
		free(doms[i]);
	for (int i = 0; i < ne; i++)
		free(evs[i]);
	free(doms);
	free(evs);
	return ret;
}

/* why an event would not open, and the fix where it is a privilege */
static void explain(const struct eng_gpu *eg, const struct eng_group *gr,
		    int err)
{
	if (err == EACCES || err == EPERM)
		nvpc_perf_privilege(eg->g.pmu, err,
				    "counting a GPU is system-wide (one CPU, every task), which needs CAP_PERFMON");
	else
		nvpc_err("%s (%s %s) %s: %s", eg->g.pmu, eg->g.chip, eg->g.bus,
			 gr->d.name, strerror(err));
}

/*
 * open the GPU's groups, each disabled and then enabled whole
 * (PERF_IOC_FLAG_GROUP on its leader), so that its cycles and its
 * signals count from the same cycle (export.c's gpu_open()); -errno said
 */
static int gpu_open(struct eng_gpu *eg)
{
	for (unsigned int i = 0; i < eg->nr; i++) {
		struct eng_group *gr = &eg->grp[i];
		uint64_t cfg1 = NVPC_FIELD(NVPC_CFG1_DOM, gr->d.dom) |
				NVPC_FIELD(NVPC_CFG1_DSET, gr->d.dset) |
				NVPC_FIELD(NVPC_CFG1_UNIT, gr->d.unit);
		struct perf_event_attr a = {
			.size = sizeof(a),
			.type = eg->g.type,
			.config = NVPC_CFG_CYCLES,
			.config1 = cfg1,
			.read_format = PERF_FORMAT_GROUP |
				       PERF_FORMAT_TOTAL_TIME_ENABLED |
				       PERF_FORMAT_TOTAL_TIME_RUNNING,
			.disabled = 1,
		};

		gr->fd = nvpc_perf_open(&a, eg->g.cpu, -1);
		if (gr->fd < 0) {
			explain(eg, gr, errno);
			return -errno;
		}
		a.disabled = 0;	/* the members count when their leader does */
		for (unsigned int j = 0; j < gr->nr; j++) {
			a.config = NVPC_FIELD(NVPC_CFG_SIG0, gr->sig[j].id);
			if (nvpc_perf_open(&a, eg->g.cpu, gr->fd) < 0) {
				explain(eg, gr, errno);
				return -errno;
			}
		}
		if (ioctl(gr->fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP)) {
			explain(eg, gr, errno);
			return -errno;
		}
	}
	return 0;
}

/* every group's counts since the last read; false: a read failed */
static bool gpu_read(struct eng_gpu *eg)
{
	for (unsigned int i = 0; i < eg->nr; i++) {
		struct eng_group *gr = &eg->grp[i];
		uint64_t r[3 + 1 + ENG_PER_GROUP];
		ssize_t want = (3 + 1 + gr->nr) * sizeof(r[0]);

		if (read(gr->fd, r, want) != want || r[0] != 1 + gr->nr)
			return false;
		gr->enabled = r[1] - gr->prev_enabled;
		gr->running = r[2] - gr->prev_running;
		gr->cycles = r[3] - gr->prev_cycles;
		gr->prev_enabled = r[1];
		gr->prev_running = r[2];
		gr->prev_cycles = r[3];
		for (unsigned int j = 0; j < gr->nr; j++) {
			gr->sig[j].delta = r[4 + j] - gr->sig[j].prev;
			gr->sig[j].prev = r[4 + j];
		}
	}
	return true;
}

/* busy %, or NAN without cycles (the clock stood, or not scheduled) */
static double busy_pct(const struct eng_group *gr, const struct eng_sig *s)
{
	if (!gr->cycles || s->delta > gr->cycles)
		return NAN;
	return 100.0 * (1.0 - (double)s->delta / gr->cycles);
}

/*
 * The domain's clock over the interval: its cycles over the time perf
 * counted them (running, read with them in one call: the tool's own
 * clock around all the reads is off by however late each read ran)
 */
static double clock_hz(const struct eng_group *gr, double secs)
{
	if (gr->running)
		return gr->cycles * 1e9 / gr->running;
	return secs > 0 ? gr->cycles / secs : 0;
}

/* a GPU without an engine signal: why there is no busy figure */
#define ENG_WHY_NONE "the catalogue names no engine idle or busy signal for this chip (graph_idle and the video engines' are named on G80:GF100 only; NV40's signals are unnamed)"

static void show_table(struct eng *e, FILE *o, double t, double secs)
{
	char b1[256], b2[256];

	fprintf(o, "\033[H\033[2Jnvpc top - %u GPU%s, every %.0f ms, %.1f s (q quits)\n",
		e->nr, e->nr == 1 ? "" : "s", e->interval_ns / 1e6, t);
	for (unsigned int k = 0; k < e->nr; k++) {
		struct eng_gpu *eg = &e->gpu[k];

		fprintf(o, "\n%s %s (%s)\n", nvpc_printable(b1, sizeof(b1), eg->g.chip),
			nvpc_printable(b2, sizeof(b2), eg->g.bus), eg->g.pmu);
		if (!eg->engines) {
			fprintf(o, "  no busy figure: %s; domain clocks:\n",
				ENG_WHY_NONE);
			for (unsigned int i = 0; i < eg->nr; i++)
				fprintf(o, "  %-10s %10.1f MHz\n",
					nvpc_printable(b1, sizeof(b1),
						       eg->grp[i].d.name),
					clock_hz(&eg->grp[i], secs) / 1e6);
			if (eg->more)
				fprintf(o, "  (%u more domains)\n", eg->more);
			continue;
		}
		fprintf(o, "  %-30s %8s  %-*s  %s\n", "ENGINE", "BUSY", ENG_BAR + 2,
			"", "DOMAIN");
		for (unsigned int i = 0; i < eg->nr_eng; i++) {
			struct eng_group *gr = eg->eng[i].gr;
			struct eng_sig *sg = eg->eng[i].s;
			double b = busy_pct(gr, sg);
			char bar[ENG_BAR + 1];
			int n = isnan(b) ? 0 : (int)(b * ENG_BAR / 100 + 0.5);

			for (int c = 0; c < ENG_BAR; c++)
				bar[c] = c < n ? '#' : ' ';
			bar[ENG_BAR] = '\0';
			if (isnan(b))
				fprintf(o, "  %-30s %8s  |%s|  %s (no cycles)\n",
					sg->label, "-", bar, gr->d.name);
			else
				fprintf(o, "  %-30s %7.2f%%  |%s|  %s %.1f MHz\n",
					sg->label, b, bar, gr->d.name,
					clock_hz(gr, secs) / 1e6);
		}
	}
	fflush(o);
}

static void show_lines(struct eng *e, FILE *o, double t, double secs)
{
	for (unsigned int k = 0; k < e->nr; k++) {
		struct eng_gpu *eg = &e->gpu[k];
		char b[256];

		fprintf(o, "%.3f  %s %s", t, eg->g.pmu,
			nvpc_printable(b, sizeof(b), eg->g.chip));
		for (unsigned int i = 0; !eg->engines && i < eg->nr; i++)
			fprintf(o, "  %s %.1f MHz",
				nvpc_printable(b, sizeof(b), eg->grp[i].d.name),
				clock_hz(&eg->grp[i], secs) / 1e6);
		for (unsigned int i = 0; i < eg->nr_eng; i++) {
			double v = busy_pct(eg->eng[i].gr, eg->eng[i].s);

			if (isnan(v))
				fprintf(o, "  %s -", eg->eng[i].s->engine);
			else
				fprintf(o, "  %s %.2f%%", eg->eng[i].s->engine,
					v);
		}
		if (!eg->engines)
			fprintf(o, "  (no engine signal)");
		fputc('\n', o);
	}
	fflush(o);
}

/* one CSV row: an engine (sg), or a domain's clock (sg NULL) */
static void csv_row(FILE *o, double t, const struct eng_gpu *eg,
		    const struct eng_group *gr, const struct eng_sig *sg,
		    double secs)
{
	double v = sg ? busy_pct(gr, sg) : NAN;

	fprintf(o, "%.3f,", t);
	nvpc_csv_field(o, eg->g.pmu);
	fputc(',', o);
	nvpc_csv_field(o, eg->g.chip);
	fputc(',', o);
	nvpc_csv_field(o, eg->g.bus);
	fputc(',', o);
	nvpc_csv_field(o, gr->d.name);
	fputc(',', o);
	if (sg)
		nvpc_csv_field(o, sg->engine);
	fputc(',', o);
	if (sg)
		nvpc_csv_field(o, sg->name);
	fputc(',', o);
	if (!isnan(v))
		fprintf(o, "%.6f", v);
	fputc(',', o);
	if (sg)
		fprintf(o, "%llu", (unsigned long long)sg->delta);
	fprintf(o, ",%llu,%.0f\n", (unsigned long long)gr->cycles,
		clock_hz(gr, secs));
}

static void show_csv(struct eng *e, FILE *o, double t, double secs)
{
	if (!e->shown)
		fprintf(o, "time_s,gpu,chip,bus,domain,engine,signal,busy_pct,idle_cycles,cycles,clock_hz\n");
	for (unsigned int k = 0; k < e->nr; k++) {
		const struct eng_gpu *eg = &e->gpu[k];

		for (unsigned int i = 0; eg->engines && i < eg->nr_eng; i++)
			csv_row(o, t, eg, eg->eng[i].gr, eg->eng[i].s, secs);
		for (unsigned int i = 0; !eg->engines && i < eg->nr; i++)
			csv_row(o, t, eg, &eg->grp[i], NULL, secs);
	}
	fflush(o);
}

static void show_json(struct eng *e, FILE *o, double t, double secs)
{
	fprintf(o, "%s\n  {\"time_s\": %.3f, \"gpus\": [", e->shown ? "," : "[",
		t);
	for (unsigned int k = 0; k < e->nr; k++) {
		struct eng_gpu *eg = &e->gpu[k];
		bool first = true;

		fprintf(o, "%s\n    {\"gpu\": ", k ? "," : "");
		nvpc_json_str(o, eg->g.pmu);
		fprintf(o, ", \"chip\": ");
		nvpc_json_str(o, eg->g.chip);
		fprintf(o, ", \"bus\": ");
		nvpc_json_str(o, eg->g.bus);
		if (!eg->engines) {
			fprintf(o, ", \"no_engines\": ");
			nvpc_json_str(o, ENG_WHY_NONE);
		}
		fprintf(o, ", \"%s\": [", eg->engines ? "engines" : "domains");
		for (unsigned int i = 0; !eg->engines && i < eg->nr; i++) {
			struct eng_group *gr = &eg->grp[i];

			fprintf(o, "%s{\"domain\": ", first ? "" : ", ");
			nvpc_json_str(o, gr->d.name);
			fprintf(o, ", \"cycles\": %llu, \"clock_hz\": %.0f}",
				(unsigned long long)gr->cycles,
				clock_hz(gr, secs));
			first = false;
		}
		for (unsigned int i = 0; i < eg->nr_eng; i++) {
			const struct eng_group *gr = eg->eng[i].gr;
			const struct eng_sig *sg = eg->eng[i].s;
			double v = busy_pct(gr, sg);

			fprintf(o, "%s{\"engine\": ", first ? "" : ", ");
			nvpc_json_str(o, sg->engine);
			fprintf(o, ", \"signal\": ");
			nvpc_json_str(o, sg->name);
			fprintf(o, ", \"domain\": ");
			nvpc_json_str(o, gr->d.name);
			if (isnan(v))
				fprintf(o, ", \"busy_pct\": null");
			else
				fprintf(o, ", \"busy_pct\": %.6f", v);
			fprintf(o, ", \"idle_cycles\": %llu, \"cycles\": %llu, \"clock_hz\": %.0f}",
				(unsigned long long)sg->delta,
				(unsigned long long)gr->cycles,
				clock_hz(gr, secs));
			first = false;
		}
		fprintf(o, "]}");
	}
	fprintf(o, "\n  ]}");
	fflush(o);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: nvpc top [-g PMU] [-I MS] [-n COUNT] [-J | -c] [-o FILE]\n"
"       nvpc top -d DOMAIN -s SIGNALS ... (nvpc top --help with -d)\n"
"\n"
"How busy each GPU's engines are, as intel_gpu_top shows them: every\n"
"nvpcounter PMU (or -g's), each engine whose idle signal the catalogue\n"
"names (graph_idle; the video engines' on G80:GF100), busy = 1 - idle's\n"
"share of its domain's cycles, counted like perf stat -I. A GPU without\n"
"such a signal shows its domains' clocks and says why. On a terminal a\n"
"table (q quits); otherwise a line per GPU and interval.\n"
"\n"
"  -g, --gpu PMU        only this GPU (default: every one)\n"
"  -I, --interval MS    the interval (default %d ms), or a time with its unit\n"
"  -n, --count N        stop after N intervals\n"
"  -J, --json           a JSON array, an element per interval\n"
"  -c, --csv            CSV, a row per engine (or domain) and interval\n"
"  -o, --output FILE    write to FILE instead of stdout\n"
"\n"
"Needs CAP_PERFMON, root, or kernel.perf_event_paranoid <= 0 (the GPU's\n"
"counters are system-wide). Exit status: 0, 1 no GPU or an error, 2 bad\n"
"arguments.\n", ENG_DEFAULT_MS);
}

static int parse(int argc, char **argv, struct eng *e)
{
	static const struct option longopts[] = {
		{ "gpu", required_argument, NULL, 'g' },
		{ "interval", required_argument, NULL, 'I' },
		{ "count", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'J' },
		{ "csv", no_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct nvpc_report_opts ro = { 0 };
	bool bad = false;
	int c, fmt = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "g:I:n:Jco:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'g':
			e->pmu = optarg;
			break;
		case 'I':
			nvpc_view_option('I', optarg, &ro, &bad);
			if (bad)
				return -EINVAL;
			e->interval_ns = ro.interval_ns;
			break;
		case 'n':
			if (nvpc_parse_u64(optarg, &e->max_intervals) ||
			    !e->max_intervals) {
				nvpc_err("-n %s: a count of intervals above 0",
					 optarg);
				return -EINVAL;
			}
			break;
		case 'J':
		case 'c':
			if (nvpc_format_once(&fmt, c))
				return -EINVAL;
			e->fmt = c == 'J' ? ENG_JSON : ENG_CSV;
			break;
		case 'o':
			e->out = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		nvpc_err("top takes no argument ('%s')", argv[optind]);
		return -EINVAL;
	}
	return 0;
}

/* every GPU (or -g's), scanned and opened: 0, or 1 said */
static int gpus(struct eng *e)
{
	struct dirent **pmus = NULL;
	int n, ret = 0;

	if (e->pmu) {
		if (nvpc_gpu_open(e->pmu, &e->gpu[0].g))
			return 1;
		e->nr = 1;
	} else {
		n = nvpc_pmu_scan(&pmus);
		if (n <= 0) {
			nvpc_pmu_none();
			return 1;
		}
		for (int i = 0; i < n; i++) {
			if (e->nr < ENG_MAX_GPUS &&
			    !nvpc_gpu_open(pmus[i]->d_name, &e->gpu[e->nr].g))
				e->nr++;
			free(pmus[i]);
		}
		free(pmus);
		if (!e->nr)
			return 1;
	}
	for (unsigned int k = 0; k < e->nr && !ret; k++)
		if (gpu_scan(&e->gpu[k]) || gpu_open(&e->gpu[k]))
			ret = 1;
	return ret;
}

static void close_all(struct eng *e)
{
	for (unsigned int k = 0; k < e->nr; k++)
		for (unsigned int i = 0; i < e->gpu[k].nr; i++)
			if (e->gpu[k].grp[i].fd >= 0)
				close(e->gpu[k].grp[i].fd);
}

/* wait until t (monotonic s), q on the keyboard or a signal: false to end */
static bool wait_until(struct eng *e, double t)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };

	for (;;) {
		double left = t - now();
		struct timespec ts;
		int ready;

		if (nvpc_stop_signal)
			return false;
		if (left <= 0)
			return true;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
		ready = ppoll(&pfd, e->keyboard ? 1 : 0, &ts, &e->waitmask);
		/* one that came while a key was waiting: now */
		nvpc_take_signals(&e->waitmask);
		if (ready > 0 && (pfd.revents & POLLIN)) {
			char c;

			if (read(STDIN_FILENO, &c, 1) == 1 &&
			    (c == 'q' || c == 'Q'))
				return false;
		}
	}
}

int nvpc_top_engines(int argc, char **argv)
{
	struct eng *e = calloc(1, sizeof(*e));
	double prev, t, next;
	int ret = 0;
	FILE *o;

	if (!e) {
		nvpc_err("out of memory");
		return 1;
	}
	e->interval_ns = ENG_DEFAULT_MS * 1000000ULL;
	if (parse(argc, argv, e)) {
		free(e);
		return 2;
	}
	if (gpus(e)) {
		close_all(e);
		free(e);
		return 1;
	}
	if (nvpc_ofile_open(&e->o, e->out, NULL)) {
		close_all(e);
		free(e);
		return 1;
	}
	o = e->o.f;
	if (e->fmt == ENG_TABLE && (o != stdout || !isatty(STDOUT_FILENO)))
		e->fmt = ENG_LINES;
	nvpc_stop_signals(&e->waitmask);
	if (e->fmt == ENG_TABLE && isatty(STDIN_FILENO) &&
	    !tcgetattr(STDIN_FILENO, &e->saved)) {
		struct termios raw = e->saved;

		raw.c_lflag &= ~(ICANON | ECHO);
		e->keyboard = !tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	}
	e->t0 = now();
	for (unsigned int k = 0; k < e->nr; k++)
		gpu_read(&e->gpu[k]);
	prev = e->t0;
	next = e->t0;
	for (;;) {
		bool more;

		next += e->interval_ns / 1e9;
		more = wait_until(e, next);
		/* q or a signal: the interval cut short is not shown */
		if (!more)
			break;
		t = now();
		for (unsigned int k = 0; k < e->nr; k++)
			if (!gpu_read(&e->gpu[k])) {
				nvpc_err("%s: reading its counters failed (the GPU gone?)",
					 e->gpu[k].g.pmu);
				ret = 1;
			}
		if (ret)
			break;
		switch (e->fmt) {
		case ENG_TABLE:
			show_table(e, o, t - e->t0, t - prev);
			break;
		case ENG_LINES:
			show_lines(e, o, t - e->t0, t - prev);
			break;
		case ENG_CSV:
			show_csv(e, o, t - e->t0, t - prev);
			break;
		case ENG_JSON:
			show_json(e, o, t - e->t0, t - prev);
			break;
		}
		e->shown++;
		prev = t;
		if (e->max_intervals && e->shown >= e->max_intervals)
			break;
	}
	if (e->fmt == ENG_JSON)
		fprintf(o, "%s\n", e->shown ? "\n]" : "[]");
	if (e->keyboard)
		tcsetattr(STDIN_FILENO, TCSANOW, &e->saved);
	close_all(e);
	if (nvpc_ofile_close(&e->o, !ret))
		ret = 1;
	free(e);
	return ret;
}
