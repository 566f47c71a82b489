// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc plot: each signal's busy share over time, drawn by gnuplot (SVG,
 * PNG or PDF by the output's extension). Packets are merged into at most
 * PLOT_POINTS time bins (a bin's share is its counts over its cycles);
 * the curves break at gaps.
 *
 * Nothing from the capture is code to gnuplot: its names are in
 * single-quoted strings made printable (nvpc_gp_str()), where gnuplot
 * substitutes nothing and no newline can end the command; the data are
 * numbers the tool prints. gnuplot runs without a shell (execvp) and
 * writes to its stdout, a file the tool created: the output's name never
 * reaches gnuplot either.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "nvpc.h"
#include "nvpc_capture.h"
#include "nvpc_escape.h"
#include "nvpc_out.h"
#include "nvpc_report.h"
#include "nvpc_util.h"
#include "nvpc_view.h"

#define PLOT_POINTS	2000

struct bins {
	FILE *out;
	unsigned int nr;
	uint64_t origin_ns;	/* the first bin's start */
	uint64_t width_ns;
	bool open;		/* a bin has packets */
	unsigned int segment;
	uint64_t index;		/* the open bin's number */
	uint64_t from_ns, to_ns, cycles;
	uint64_t count[NVPC_FILE_MAX_SIGNALS];
};

static void flush_bin(struct bins *b)
{
	if (!b->open)
		return;
	fprintf(b->out, "%.9f", (b->from_ns / 2 + b->to_ns / 2) / 1e9);
	for (unsigned int i = 0; i < b->nr; i++)
		fprintf(b->out, " %.4f",
			b->cycles ? 100.0 * b->count[i] / b->cycles : 0.0);
	fprintf(b->out, "\n");
	b->open = false;
}

static void bin_packet(const struct nvpc_packet *p, void *arg)
{
	struct bins *b = arg;
	uint64_t index = (p->start_ns - b->origin_ns) / b->width_ns;

	if (b->open && (p->segment != b->segment || index != b->index))
		flush_bin(b);
	if (p->after_gap)
		fprintf(b->out, "\n");	/* gnuplot breaks the line here */
	if (!b->open) {
		b->open = true;
		b->segment = p->segment;
		b->index = index;
		b->from_ns = p->start_ns;
		b->cycles = 0;
		memset(b->count, 0, sizeof(b->count));
	}
	b->to_ns = p->time_ns;
	b->cycles += p->delta;
	for (unsigned int i = 0; i < p->nr; i++)
		b->count[i] += p->ctr[i];
}

static const char *terminal_of(const char *out)
{
	const char *dot = strrchr(out, '.');

	if (!dot)
		return NULL;
	if (!strcmp(dot, ".svg"))
		return "svg size 1000,600 dynamic background rgb 'white'";
	if (!strcmp(dot, ".png"))
		return "pngcairo size 1000,600";
	if (!strcmp(dot, ".pdf"))
		return "pdfcairo size 10in,6in";
	return NULL;
}

/*
 * The first pass over stream i of s: its packets shown and their span
 * into b (PLOT_POINTS bins); its exit status, the message once
 */
static int plot_span(FILE *f, const char *path, struct nvpc_streams *s,
		     unsigned int i, struct bins *b, struct nvpc_stats *st)
{
	struct nvpc_view *v = &s->v[i];
	char label[512];
	int status;

	if (fseek(f, s->cap.data_offset, SEEK_SET)) {
		nvpc_err("%s: cannot read it a second time", path);
		return NVPC_EXIT_ERROR;
	}
	status = nvpc_capture_decode(nvpc_stream_label(path, s, i, label,
						       sizeof(label)),
				     f, &s->cap.h[i], s->hz[i],
				     nvpc_view_packet, v, st);
	b->origin_ns = v->all.first_ns;
	b->width_ns = (v->all.last_ns - v->all.first_ns) / PLOT_POINTS + 1;
	b->nr = s->vh[i].nr_signals;
	return status;
}

/* the bins of stream i (its span known) into the script's data block */
static int plot_bins(FILE *f, struct nvpc_streams *s, unsigned int i,
		     struct bins *b)
{
	struct nvpc_view *v = &s->v[i];
	struct nvpc_stats st;
	char err[256];

	if (fseek(f, s->cap.data_offset, SEEK_SET))
		return -1;
	v->fn = bin_packet;
	v->arg = b;
	nvpc_decode(f, &s->cap.h[i], s->hz[i], nvpc_view_packet, v, &st, err,
		    sizeof(err));
	flush_bin(b);
	return 0;
}

/* a title line, and the most lines: its head and one per domain */
#define NVPC_PLOT_TITLE_LEN	320
#define PLOT_TITLE_LINES	5

/*
 * The lines before the data: the terminal, the title (its lines joined
 * by gnuplot's "." with a newline of ours between the quoted strings,
 * so that a long one is not cut at the plot's edges), the axes.
 */
static void plot_head(FILE *o, const char *term,
		      char title[][NVPC_PLOT_TITLE_LEN], unsigned int lines,
		      bool monotonic)
{
	fprintf(o, "set terminal %s noenhanced\nset output\nset title ", term);
	for (unsigned int i = 0; i < lines; i++) {
		if (i)
			fprintf(o, " . \"\\n\" . ");
		nvpc_gp_str(o, title[i]);
	}
	fprintf(o, "\nset xlabel '%s'\nset ylabel 'busy (%% of cycles)'\n"
		"set yrange [0:105]\nset grid\nset key outside right top\n"
		"set datafile missing '?'\n",
		monotonic ? "CLOCK_MONOTONIC (s)" : "time (s)");
}

/* a capture of one domain: as before captures of several existed */
static int plot_one(FILE *f, const char *path, const char *term,
		    struct nvpc_streams *s, FILE *o)
{
	const struct nvpc_header *h = &s->cap.h[0], *vh = &s->vh[0];
	struct nvpc_view *v = &s->v[0];
	struct bins b = { .out = o };
	struct nvpc_stats st;
	char title[2][NVPC_PLOT_TITLE_LEN];
	int status;

	/* the span first, for the bin width; the messages once */
	status = plot_span(f, path, s, 0, &b, &st);
	if (status == NVPC_EXIT_ERROR)
		return status;
	if (!v->all.packets) {
		nvpc_err("%s holds no packet to plot%s (%llu impossible)", path,
			 st.segments ? " in the time asked for" : "",
			 (unsigned long long)st.impossible);
		return NVPC_EXIT_ERROR;
	}
	snprintf(title[0], sizeof(title[0]), "%s %s %s: busy share per signal",
		 h->chip, h->bus, h->domain);
	snprintf(title[1], sizeof(title[1]), "STOP %s, %llu Hz", h->stop,
		 (unsigned long long)s->hz[0]);
	plot_head(o, term, title, 2, v->base_ns);
	fprintf(o, "$d << EOD\n");
	if (plot_bins(f, s, 0, &b)) {
		nvpc_err("%s: cannot read it a second time", path);
		return NVPC_EXIT_ERROR;
	}
	fprintf(o, "EOD\nplot ");
	for (unsigned int i = 0; i < vh->nr_signals; i++) {
		fprintf(o, "%s$d using 1:%u with lines title ", i ? ", " : "",
			i + 2);
		nvpc_gp_str(o, vh->signals[i].name);
	}
	fprintf(o, "\n");
	return status;
}

/*
 * "G84 sim.0, 2 domains: busy share per domain and signal", then a line
 * per domain ("main.0: STOP every 1024 cycles (PERIODIC), 100000 Hz"),
 * or, past PLOT_TITLE_LINES - 1 domains, the first ones and how many
 * more. Return: the lines.
 */
static unsigned int plot_title(const struct nvpc_streams *s,
			       char title[][NVPC_PLOT_TITLE_LEN])
{
	unsigned int n = 1, i, nr = s->cap.nr;

	snprintf(title[0], NVPC_PLOT_TITLE_LEN,
		 "%s %s, %u domains: busy share per domain and signal",
		 s->cap.h[0].chip, s->cap.h[0].bus, nr);
	for (i = 0; i < nr && n < PLOT_TITLE_LINES; i++, n++) {
		if (n == PLOT_TITLE_LINES - 1 && nr - i > 1) {
			snprintf(title[n], NVPC_PLOT_TITLE_LEN,
				 "and %u more domains", nr - i);
			return n + 1;
		}
		snprintf(title[n], NVPC_PLOT_TITLE_LEN, "%s: STOP %s, %llu Hz",
			 s->cap.h[i].domain, s->cap.h[i].stop,
			 (unsigned long long)s->hz[i]);
	}
	return n;
}

/* the plot line: a track per domain and signal, "<domain> <signal>" */
static void plot_tracks(FILE *o, const struct nvpc_streams *s,
			const bool *shown)
{
	char name[NVPC_FILE_NAME_LEN + NVPC_FILE_SIGNAME_LEN + 2];
	bool first = true;

	fprintf(o, "plot ");
	for (unsigned int k = 0; k < s->cap.nr; k++) {
		const struct nvpc_header *vh = &s->vh[k];

		for (unsigned int i = 0; shown[k] && i < vh->nr_signals; i++) {
			snprintf(name, sizeof(name), "%.*s %.*s",
				 NVPC_FILE_NAME_LEN - 1, vh->domain,
				 NVPC_FILE_SIGNAME_LEN - 1,
				 vh->signals[i].name);
			fprintf(o, "%s$d%u using 1:%u with lines title ",
				first ? "" : ", ", k, i + 2);
			nvpc_gp_str(o, name);
			first = false;
		}
	}
	fprintf(o, "\n");
}

/*
 * A capture of several domains: a data block per domain ($d0, $d1 ...,
 * each in its own bins), one plot with a track per domain and signal.
 * A domain without a packet shown is left out.
 */
static int plot_streams(FILE *f, const char *path, const char *term,
			struct nvpc_streams *s, FILE *o)
{
	struct bins b[NVPC_FILE_MAX_STREAMS] = { 0 };
	bool shown[NVPC_FILE_MAX_STREAMS] = { 0 }, any = false;
	struct nvpc_stats st;
	char title[PLOT_TITLE_LINES][NVPC_PLOT_TITLE_LEN];
	unsigned int lines;
	int status = NVPC_EXIT_OK;

	for (unsigned int i = 0; i < s->cap.nr; i++) {
		if (!s->v[i].nr)
			continue;
		b[i].out = o;
		status = nvpc_exit_worst(status,
					 plot_span(f, path, s, i, &b[i], &st));
		shown[i] = s->v[i].all.packets;
		any |= shown[i];
	}
	if (status == NVPC_EXIT_ERROR)
		return status;
	if (!any) {
		nvpc_err("%s holds no packet to plot in any domain", path);
		return NVPC_EXIT_ERROR;
	}
	lines = plot_title(s, title);
	plot_head(o, term, title, lines, s->v[0].base_ns);
	for (unsigned int i = 0; i < s->cap.nr; i++) {
		if (!shown[i])
			continue;
		fprintf(o, "$d%u << EOD\n", i);
		if (plot_bins(f, s, i, &b[i])) {
			nvpc_err("%s: cannot read it a second time", path);
			return NVPC_EXIT_ERROR;
		}
		fprintf(o, "EOD\n");
	}
	plot_tracks(o, s, shown);
	return status;
}

int nvpc_plot_script(FILE *f, const char *path, const char *term,
		     const struct nvpc_report_opts *ro, FILE *o)
{
	struct nvpc_streams *s = calloc(1, sizeof(*s));
	int status;

	if (!s) {
		nvpc_err("%s: out of memory", path);
		return NVPC_EXIT_ERROR;
	}
	status = nvpc_streams_open(path, f, ro, s);
	if (!status)
		status = s->cap.nr == 1 ? plot_one(f, path, term, s, o) :
			 plot_streams(f, path, term, s, o);
	free(s);
	return status;
}

/*
 * gnuplot (execvp, no shell) reads script on its stdin and writes the
 * plot on its stdout, which is o's file (nvpc_out.h: a temporary file
 * beside OUT, renamed when the caller closes o with success). 0 or -1
 * (said why).
 */
static int run_gnuplot(const char *script, size_t len, struct nvpc_ofile *o)
{
	char *const argv[] = { "gnuplot", NULL };
	int fd = fileno(o->f), p[2], status;
	struct stat sb;
	pid_t pid;

	if (fflush(o->f)) {
		nvpc_err("writing %s: %s", o->path, strerror(errno));
		return -1;
	}
	pid = nvpc_fork_pipe(p);
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (dup2(p[0], STDIN_FILENO) < 0 || dup2(fd, STDOUT_FILENO) < 0)
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	if (nvpc_write_all(p[1], script, len))
		nvpc_err("writing to gnuplot: %s", strerror(errno));
	close(p[1]);
	if (waitpid(pid, &status, 0) != pid) {
		nvpc_err("waiting for gnuplot: %s", strerror(errno));
		return -1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		nvpc_err("cannot run gnuplot: install it (Debian: gnuplot-nox, or make deps)");
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		nvpc_err("gnuplot failed (its message is above)");
		return -1;
	}
	if (o->tmp && (fstat(fd, &sb) || !sb.st_size)) {
		nvpc_err("gnuplot wrote no %s", o->path);
		return -1;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: nvpc plot [-o OUT] [--clock HZ] [-s LIST] [--from T] [--to T]\n"
"                 [--monotonic] [-i FILE | FILE]\n"
"\n"
"Plot each signal's busy share over time from an nvpc capture (default\n"
NVPC_DEFAULT_OUTPUT "; - reads stdin) with gnuplot. OUT ends in .svg,\n"
".png or .pdf (default: FILE with .svg); - writes SVG to stdout. -s,\n"
"--from, --to, --monotonic choose signals and time as for nvpc report.\n"
"A capture of several domains: a track per domain and signal.\n"
"Exit status as nvpc report's.\n");
}

int nvpc_plot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "input", required_argument, NULL, 'i' },
		{ "clock", required_argument, NULL, 'C' },
		{ "signals", required_argument, NULL, 's' },
		{ "from", required_argument, NULL, NVPC_OPT_FROM },
		{ "to", required_argument, NULL, NVPC_OPT_TO },
		{ "monotonic", no_argument, NULL, NVPC_OPT_MONOTONIC },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct nvpc_report_opts ro = { 0 };
	bool bad = false;
	const char *path = NULL, *term;
	char *out = NULL, *gp_out = NULL, *script = NULL;
	size_t len = 0;
	int c, status = NVPC_EXIT_ERROR;
	struct nvpc_ofile of;
	FILE *f, *o;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:i:s:h", longopts, NULL)) != -1) {
		if (nvpc_view_option(c, optarg, &ro, &bad)) {
			if (bad)
				goto usage;
			continue;
		}
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'i':
			path = optarg;
			break;
		case 'C':
			if (nvpc_parse_u64(optarg, &ro.clock_hz) ||
			    !ro.clock_hz) {
				nvpc_err("--clock %s: the domain's clock in Hz, above 0",
					 optarg);
				goto usage;
			}
			break;
		case 'h':
			usage(stdout);
			free(ro.signals);
			return NVPC_EXIT_OK;
		default:
			usage(stderr);
			goto usage;
		}
	}
	if (optind + 1 < argc || (path && optind < argc)) {
		nvpc_err("plot reads one capture, not %d",
			 argc - optind + !!path);
		goto usage;
	}
	if (optind < argc)
		path = argv[optind];
	if (!path)
		path = NVPC_DEFAULT_OUTPUT;
	if (!out && nvpc_is_stdio(path)) {
		nvpc_err("plot of stdin: give -o OUT (.svg, .png, .pdf, or - for SVG on stdout)");
		goto usage;
	}
	if (!out) {
		const char *dot = strrchr(path, '.');
		size_t n = dot && !strchr(dot, '/') ? (size_t)(dot - path) :
			   strlen(path);

		gp_out = malloc(n + 5);
		if (!gp_out)
			goto out;
		memcpy(gp_out, path, n);
		strcpy(gp_out + n, ".svg");
		out = gp_out;
	}
	/* (a descriptor such as /dev/stdout has no extension: SVG) */
	term = nvpc_out_fd(out) >= 0 ? terminal_of(".svg") : terminal_of(out);
	if (!term) {
		nvpc_err("-o %s: the plot's format comes from its extension: .svg, .png or .pdf",
			 out);
		status = NVPC_EXIT_USAGE;
		goto out;
	}

	f = nvpc_capture_open(path);
	if (!f)
		goto out;
	if (nvpc_ofile_open(&of, out, f)) {
		fclose(f);
		goto out;
	}
	o = open_memstream(&script, &len);
	if (!o) {
		fclose(f);
		nvpc_ofile_close(&of, false);
		goto out;
	}
	status = nvpc_plot_script(f, path, term, &ro, o);
	fclose(f);
	if (fclose(o))
		status = NVPC_EXIT_ERROR;
	if (status != NVPC_EXIT_ERROR && status != NVPC_EXIT_USAGE &&
	    run_gnuplot(script, len, &of))
		status = NVPC_EXIT_ERROR;
	if (nvpc_ofile_close(&of, status != NVPC_EXIT_ERROR &&
			     status != NVPC_EXIT_USAGE))
		status = NVPC_EXIT_ERROR;
out:
	free(script);
	free(gp_out);
	free(ro.signals);
	return status;
usage:
	free(ro.signals);
	return NVPC_EXIT_USAGE;
}
