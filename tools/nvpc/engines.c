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
 * perf stat -I (live.c, shared with export and scan): the driver reads
 * a group's members in one swap, so the share is exact. Counting works on every generation and backend. A GPU
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
#include "nvpc_live.h"
#include "nvpc_out.h"
#include "nvpc_perf.h"
#include "nvpc_util.h"
#include "nvpc_view.h"

#define ENG_MAX_GPUS	16
#define ENG_DEFAULT_MS	1000
#define ENG_BAR		20	/* the table's bar, in characters */

enum eng_fmt { ENG_TABLE, ENG_LINES, ENG_JSON, ENG_CSV };

/* an engine: its idle signal in its domain's group */
struct eng_one {
	struct nvpc_live_group *gr;
	struct nvpc_live_sig *s;
	const char *label;	/* graph (PGRAPH) */
};

struct eng_gpu {
	struct nvpc_live_gpu lg;
	/* the engines as events/ names them, in its (alphabetical) order */
	unsigned int nr_eng;
	struct eng_one eng[NVPC_LIVE_MAX_GROUPS * NVPC_LIVE_PER_GROUP];
	bool engines;		/* the groups are engine groups, else clocks */
	unsigned int more;	/* domains beyond the groups, not shown */
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

/* the engine's name as the catalogue's sources name the unit */
static const char *eng_label(const char *engine)
{
	for (unsigned int i = 0; i < sizeof(eng_labels) / sizeof(eng_labels[0]); i++)
		if (!strcmp(eng_labels[i].engine, engine))
			return eng_labels[i].label;
	return engine;
}

static int eng_cmp(const void *a, const void *b)
{
	return strverscmp(((const struct eng_one *)a)->s->name,
			  ((const struct eng_one *)b)->s->name);
}

/*
 * The GPU's engines from its events/ and domains/: every *_idle signal
 * in its domain's group; without one, a group of the cycles alone per
 * domain (the clocks). Then every group opened. 0, or -errno said.
 */
static int gpu_scan(struct eng_gpu *eg)
{
	struct nvpc_live_gpu *lg = &eg->lg;
	int n = nvpc_live_engines(lg, true);

	if (n < 0)
		return n;
	eg->engines = n > 0;
	if (!eg->engines) {
		n = nvpc_live_clocks(lg);
		if (n < 0)
			return n;
		eg->more = n;
	}
	for (unsigned int i = 0; i < lg->nr; i++)
		for (unsigned int j = 0; j < lg->grp[i].nr; j++) {
			struct eng_one *e = &eg->eng[eg->nr_eng++];

			e->gr = &lg->grp[i];
			e->s = &lg->grp[i].sig[j];
			e->label = eng_label(e->s->engine);
		}
	/* in events/' order, as scandir()'s versionsort gives it */
	qsort(eg->eng, eg->nr_eng, sizeof(eg->eng[0]), eng_cmp);
	return nvpc_live_open(lg, "counting a GPU is system-wide (one CPU, every task), which needs CAP_PERFMON");
}

/* busy %, or NAN without cycles (the clock stood, or not scheduled) */
static double busy_pct(const struct nvpc_live_group *gr, const struct nvpc_live_sig *s)
{
	if (!gr->d_cycles || s->delta > gr->d_cycles)
		return NAN;
	return 100.0 * (1.0 - (double)s->delta / gr->d_cycles);
}

/*
 * The domain's clock over the interval: its cycles over the time perf
 * counted them (running, read with them in one call: the tool's own
 * clock around all the reads is off by however late each read ran)
 */
static double clock_hz(const struct nvpc_live_group *gr, double secs)
{
	if (gr->d_running_ns)
		return gr->d_cycles * 1e9 / gr->d_running_ns;
	return secs > 0 ? gr->d_cycles / secs : 0;
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

		fprintf(o, "\n%s %s (%s)\n", nvpc_printable(b1, sizeof(b1), eg->lg.g.chip),
			nvpc_printable(b2, sizeof(b2), eg->lg.g.bus), eg->lg.g.pmu);
		if (!eg->engines) {
			fprintf(o, "  no busy figure: %s; domain clocks:\n",
				ENG_WHY_NONE);
			for (unsigned int i = 0; i < eg->lg.nr; i++)
				fprintf(o, "  %-10s %10.1f MHz\n",
					nvpc_printable(b1, sizeof(b1),
						       eg->lg.grp[i].name),
					clock_hz(&eg->lg.grp[i], secs) / 1e6);
			if (eg->more)
				fprintf(o, "  (%u more domains)\n", eg->more);
			continue;
		}
		fprintf(o, "  %-30s %8s  %-*s  %s\n", "ENGINE", "BUSY", ENG_BAR + 2,
			"", "DOMAIN");
		for (unsigned int i = 0; i < eg->nr_eng; i++) {
			struct nvpc_live_group *gr = eg->eng[i].gr;
			struct nvpc_live_sig *sg = eg->eng[i].s;
			double b = busy_pct(gr, sg);
			char bar[ENG_BAR + 1];
			int n = isnan(b) ? 0 : (int)(b * ENG_BAR / 100 + 0.5);

			for (int c = 0; c < ENG_BAR; c++)
				bar[c] = c < n ? '#' : ' ';
			bar[ENG_BAR] = '\0';
			if (isnan(b))
				fprintf(o, "  %-30s %8s  |%s|  %s (no cycles)\n",
					eg->eng[i].label, "-", bar, gr->name);
			else
				fprintf(o, "  %-30s %7.2f%%  |%s|  %s %.1f MHz\n",
					eg->eng[i].label, b, bar, gr->name,
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

		fprintf(o, "%.3f  %s %s", t, eg->lg.g.pmu,
			nvpc_printable(b, sizeof(b), eg->lg.g.chip));
		for (unsigned int i = 0; !eg->engines && i < eg->lg.nr; i++)
			fprintf(o, "  %s %.1f MHz",
				nvpc_printable(b, sizeof(b), eg->lg.grp[i].name),
				clock_hz(&eg->lg.grp[i], secs) / 1e6);
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
		    const struct nvpc_live_group *gr, const struct nvpc_live_sig *sg,
		    double secs)
{
	double v = sg ? busy_pct(gr, sg) : NAN;

	fprintf(o, "%.3f,", t);
	nvpc_csv_field(o, eg->lg.g.pmu);
	fputc(',', o);
	nvpc_csv_field(o, eg->lg.g.chip);
	fputc(',', o);
	nvpc_csv_field(o, eg->lg.g.bus);
	fputc(',', o);
	nvpc_csv_field(o, gr->name);
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
	fprintf(o, ",%llu,%.0f\n", (unsigned long long)gr->d_cycles,
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
		for (unsigned int i = 0; !eg->engines && i < eg->lg.nr; i++)
			csv_row(o, t, eg, &eg->lg.grp[i], NULL, secs);
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
		nvpc_json_str(o, eg->lg.g.pmu);
		fprintf(o, ", \"chip\": ");
		nvpc_json_str(o, eg->lg.g.chip);
		fprintf(o, ", \"bus\": ");
		nvpc_json_str(o, eg->lg.g.bus);
		if (!eg->engines) {
			fprintf(o, ", \"no_engines\": ");
			nvpc_json_str(o, ENG_WHY_NONE);
		}
		fprintf(o, ", \"%s\": [", eg->engines ? "engines" : "domains");
		for (unsigned int i = 0; !eg->engines && i < eg->lg.nr; i++) {
			struct nvpc_live_group *gr = &eg->lg.grp[i];

			fprintf(o, "%s{\"domain\": ", first ? "" : ", ");
			nvpc_json_str(o, gr->name);
			fprintf(o, ", \"cycles\": %llu, \"clock_hz\": %.0f}",
				(unsigned long long)gr->d_cycles,
				clock_hz(gr, secs));
			first = false;
		}
		for (unsigned int i = 0; i < eg->nr_eng; i++) {
			const struct nvpc_live_group *gr = eg->eng[i].gr;
			const struct nvpc_live_sig *sg = eg->eng[i].s;
			double v = busy_pct(gr, sg);

			fprintf(o, "%s{\"engine\": ", first ? "" : ", ");
			nvpc_json_str(o, sg->engine);
			fprintf(o, ", \"signal\": ");
			nvpc_json_str(o, sg->name);
			fprintf(o, ", \"domain\": ");
			nvpc_json_str(o, gr->name);
			if (isnan(v))
				fprintf(o, ", \"busy_pct\": null");
			else
				fprintf(o, ", \"busy_pct\": %.6f", v);
			fprintf(o, ", \"idle_cycles\": %llu, \"cycles\": %llu, \"clock_hz\": %.0f}",
				(unsigned long long)sg->delta,
				(unsigned long long)gr->d_cycles,
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
		if (nvpc_gpu_open(e->pmu, &e->gpu[0].lg.g))
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
			    !nvpc_gpu_open(pmus[i]->d_name, &e->gpu[e->nr].lg.g))
				e->nr++;
			free(pmus[i]);
		}
		free(pmus);
		if (!e->nr)
			return 1;
	}
	for (unsigned int k = 0; k < e->nr && !ret; k++)
		if (gpu_scan(&e->gpu[k]))
			ret = 1;
	return ret;
}

static void close_all(struct eng *e)
{
	for (unsigned int k = 0; k < e->nr; k++)
		nvpc_live_close(&e->gpu[k].lg);
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
		nvpc_live_read(&e->gpu[k].lg);
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
			if (nvpc_live_read(&e->gpu[k].lg)) {
				nvpc_err("%s: reading its counters failed (the GPU gone?)",
					 e->gpu[k].lg.g.pmu);
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
