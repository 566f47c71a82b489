// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc plot: each signal's busy share over time, drawn by gnuplot (SVG,
 * PNG or PDF by the output's extension). Packets are merged into at most
 * PLOT_POINTS time bins (a bin's share is its counts over its cycles);
 * the curves break at gaps.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "nvpc.h"
#include "nvpc_report.h"

#define PLOT_POINTS	2000

struct bins {
	FILE *out;
	unsigned int nr;
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
	fprintf(b->out, "%.9f", (b->from_ns + b->to_ns) / 2e9);
	for (unsigned int i = 0; i < b->nr; i++)
		fprintf(b->out, " %.4f",
			b->cycles ? 100.0 * b->count[i] / b->cycles : 0.0);
	fprintf(b->out, "\n");
	b->open = false;
}

static void bin_packet(const struct nvpc_packet *p, void *arg)
{
	struct bins *b = arg;
	uint64_t index = p->start_ns / b->width_ns;

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

/* a gnuplot single-quoted string */
static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
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

static void usage(FILE *f)
{
	fprintf(f,
"usage: nvpc plot [-o OUT] [--clock HZ] [FILE]\n"
"\n"
"Plot each signal's busy share over time from an nvpc capture (default\n"
NVPC_DEFAULT_OUTPUT ") with gnuplot. OUT ends in .svg, .png or .pdf\n"
"(default: FILE with .svg).\n");
}

int nvpc_plot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "clock", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = NVPC_DEFAULT_OUTPUT, *term;
	char *out = NULL, *gp_out = NULL;
	struct nvpc_header h;
	struct nvpc_stats st;
	struct bins b = { 0 };
	uint64_t clock = 0, hz;
	int c, p[2], status, ret = 1;
	struct stat sb;
	FILE *f, *gp;
	pid_t pid;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'C':
			if (nvpc_parse_u64(optarg, &clock) || !clock) {
				nvpc_err("--clock %s: the domain's clock in Hz, above 0",
					 optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind + 1 < argc) {
		nvpc_err("plot reads one capture, not %d", argc - optind);
		return 2;
	}
	if (optind < argc)
		path = argv[optind];
	if (!out) {
		const char *dot = strrchr(path, '.');
		size_t n = dot && !strchr(dot, '/') ? (size_t)(dot - path) :
			   strlen(path);

		gp_out = malloc(n + 5);
		if (!gp_out)
			return 1;
		memcpy(gp_out, path, n);
		strcpy(gp_out + n, ".svg");
		out = gp_out;
	}
	term = terminal_of(out);
	if (!term) {
		nvpc_err("-o %s: the plot's format comes from its extension: .svg, .png or .pdf",
			 out);
		free(gp_out);
		return 2;
	}

	/* the span first, for the bin width */
	if (nvpc_capture_open(path, clock, &f, &h, &hz))
		goto out;
	nvpc_capture_decode(path, f, &h, hz, NULL, NULL, &st);
	fclose(f);
	if (!st.packets) {
		nvpc_err("%s holds no packet: nothing to plot", path);
		goto out;
	}

	if (pipe(p)) {
		nvpc_err("pipe: %s", strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		nvpc_err("fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		goto out;
	}
	if (pid == 0) {
		dup2(p[0], STDIN_FILENO);
		close(p[0]);
		close(p[1]);
		execlp("gnuplot", "gnuplot", (char *)NULL);
		_exit(127);
	}
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	gp = fdopen(p[1], "w");
	if (!gp) {
		close(p[1]);
		waitpid(pid, NULL, 0);
		goto out;
	}

	fprintf(gp, "set terminal %s noenhanced\nset output ", term);
	gp_str(gp, out);
	fprintf(gp, "\nset title ");
	{
		char title[256];

		snprintf(title, sizeof(title), "%s %s %s: busy share per signal (STOP %s, %llu Hz)",
			 h.chip, h.bus, h.domain, h.stop,
			 (unsigned long long)hz);
		gp_str(gp, title);
	}
	fprintf(gp, "\nset xlabel 'time (s)'\nset ylabel 'busy (%% of cycles)'\n"
		"set yrange [0:105]\nset grid\nset key outside right top\n"
		"set datafile missing '?'\n$d << EOD\n");
	b.out = gp;
	b.nr = h.nr_signals;
	b.width_ns = st.last_ns / PLOT_POINTS + 1;
	if (nvpc_capture_open(path, clock, &f, &h, &hz) == 0) {
		struct nvpc_stats st2;
		char err[256];

		nvpc_decode(f, &h, hz, bin_packet, &b, &st2, err, sizeof(err));
		flush_bin(&b);
		fclose(f);
	}
	fprintf(gp, "EOD\nplot ");
	for (unsigned int i = 0; i < h.nr_signals; i++) {
		fprintf(gp, "%s$d using 1:%u with lines title ", i ? ", " : "",
			i + 2);
		gp_str(gp, h.signals[i].name);
	}
	fprintf(gp, "\n");
	if (fclose(gp))
		nvpc_err("writing to gnuplot: %s", strerror(errno));
	if (waitpid(pid, &status, 0) != pid) {
		nvpc_err("waiting for gnuplot: %s", strerror(errno));
		goto out;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		nvpc_err("cannot run gnuplot: install it (Debian: gnuplot-nox, or make deps)");
		goto out;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		nvpc_err("gnuplot failed (its message is above)");
		goto out;
	}
	if (stat(out, &sb) || !sb.st_size) {
		nvpc_err("gnuplot wrote no %s", out);
		goto out;
	}
	ret = 0;
out:
	free(gp_out);
	return ret;
}
