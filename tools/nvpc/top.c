// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc top: each signal's busy share of a domain, live, as intel_gpu_top
 * shows its engines. It is nvpc record and nvpc report -I joined by a
 * pipe: a child records the domain to its stdout (record -o -), and this
 * process decodes that stream as it comes, summing the packets per
 * interval (nvpc_view.h), and shows each interval: a refreshing table
 * sorted by busy share on a terminal (q quits), else one line per
 * interval, or -J JSON / -c CSV streams (report -I's intervals).
 *
 * The keyboard is read where the pipe is: the capture stream's read
 * function polls both, and q (or -n intervals) asks the child to stop
 * with SIGINT; it then writes its end record and the stream ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <sys/wait.h>

#include "nvpc.h"
#include "nvpc_capture.h"
#include "nvpc_escape.h"
#include "nvpc_interval.h"
#include "nvpc_top.h"
#include "nvpc_util.h"

#define TOP_DEFAULT_MS		1000
#define TOP_DEFAULT_EVERY	"65536"
#define TOP_MAX_ARGS		64
#define ARRAY_LEN(a)		(sizeof(a) / sizeof((a)[0]))

struct top;

/* a stream's view calls back with its interval: which stream it is */
struct top_stream {
	struct top *t;
	unsigned int i;
};

struct top {
	enum nvpc_top_fmt fmt;
	uint64_t max_intervals;		/* -n, 0: until q or SIGINT */
	pid_t child;			/* nvpc record -o - */
	int pipe_fd;
	bool keyboard;			/* stdin is a terminal in raw mode */
	bool stopping;			/* SIGINT sent to the child */
	sigset_t waitmask;		/* the signal mask while ppoll() waits */
	struct termios saved;
	/* the recording's streams (domains), each decoded as it comes */
	struct nvpc_capture cap;
	struct nvpc_view v[NVPC_FILE_MAX_STREAMS];
	struct nvpc_header vh[NVPC_FILE_MAX_STREAMS];
	struct nvpc_out out[NVPC_FILE_MAX_STREAMS];
	struct nvpc_stats st[NVPC_FILE_MAX_STREAMS];
	struct nvpc_decoder d[NVPC_FILE_MAX_STREAMS];
	struct top_stream ts[NVPC_FILE_MAX_STREAMS];
	struct nvpc_top_group g;	/* the intervals shown together */
};

static void top_stop(struct top *t)
{
	if (!t->stopping && t->child > 0)
		kill(t->child, SIGINT);
	t->stopping = true;
}

/* the capture stream's read: the pipe, and q on the keyboard meanwhile */
static ssize_t top_read(void *arg, char *buf, size_t len)
{
	struct top *t = arg;
	struct pollfd pfd[2] = {
		{ .fd = t->pipe_fd, .events = POLLIN },
		{ .fd = STDIN_FILENO, .events = POLLIN },
	};

	for (;;) {
		/*
		 * The signals are blocked but while ppoll() waits: one that
		 * comes after this check ends the wait at once.
		 */
		if (nvpc_stop_signal)
			top_stop(t);
		if (ppoll(pfd, t->keyboard ? 2 : 1, NULL, &t->waitmask) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		/* one that came while the pipe had data: seen above, next */
		nvpc_take_signals(&t->waitmask);
		if (t->keyboard && (pfd[1].revents & POLLIN)) {
			char c;

			if (read(STDIN_FILENO, &c, 1) == 1 &&
			    (c == 'q' || c == 'Q'))
				top_stop(t);
		}
		if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			ssize_t n = read(t->pipe_fd, buf, len);

			if (n < 0 && errno == EINTR)
				continue;
			return n;
		}
	}
}

static void top_interval(const struct nvpc_interval *iv, void *arg)
{
	struct top_stream *ts = arg;
	struct top *t = ts->t;

	nvpc_top_group_add(&t->g, ts->i, iv, t->v[ts->i].all.packets);
	if (t->max_intervals && t->g.shown >= t->max_intervals)
		top_stop(t);
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: nvpc top -d DOMAIN -s SIGNALS [-d DOMAIN -s SIGNALS ...] [-I MS]\n"
"                [-n COUNT] [-J | -c] [record options]\n"
"\n"
"Each signal's busy share and rate, live: nvpc record's packets summed per\n"
"interval. On a terminal a table sorted by busy share, redrawn each\n"
"interval (q quits); otherwise one line per interval. Several -d (each\n"
"-s for the -d before it) show each domain's signals, the domain named.\n"
"\n"
"  -I, --interval MS   the interval (default %d ms), or a time with its unit\n"
"  -n, --count N       stop after N intervals\n"
"  -J, --json          a JSON array, an element per interval (report -I's)\n"
"  -c, --csv           CSV, a row per interval (report -I --csv's)\n"
"\n"
"Record options (nvpc record --help): -g, -d, -s, --every (default %s\n"
"here), --stop, --short, --clock, --duration, --aux-pages, --data-pages,\n"
"--mode (record, sample or auto: sampled where record mode cannot be had).\n"
"Exit status: 0, 1 when the recording failed, 2 bad arguments.\n",
		TOP_DEFAULT_MS, TOP_DEFAULT_EVERY);
}

/* argv for nvpc record: -q -o - and the record options given to top */
static int parse(int argc, char **argv, struct top *t, uint64_t *interval,
		 char **rargv)
{
	static const struct option own[] = {
		{ "interval", required_argument, NULL, 'I' },
		{ "count", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'J' },
		{ "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
	};
	struct option longopts[ARRAY_LEN(own) + NVPC_RECORD_SHARED + 1] = { 0 };
	struct nvpc_report_opts ro = { 0 };
	bool bad = false, stop = false, every = false;
	int c, n = 0, idx, fmt = 0;

	memcpy(longopts, own, sizeof(own));
	memcpy(longopts + ARRAY_LEN(own), nvpc_record_options,
	       NVPC_RECORD_SHARED * sizeof(*longopts));
	rargv[n++] = "record";
	rargv[n++] = "-q";
	rargv[n++] = "-o";
	rargv[n++] = "-";
	optind = 1;
	while ((c = getopt_long(argc, argv, "I:n:Jchg:d:s:", longopts,
				&idx)) != -1) {
		switch (c) {
		case 'I':
			nvpc_view_option('I', optarg, &ro, &bad);
			if (bad)
				return -EINVAL;
			*interval = ro.interval_ns;
			continue;
		case 'n':
			if (nvpc_parse_u64(optarg, &t->max_intervals) ||
			    !t->max_intervals) {
				nvpc_err("-n %s: a count of intervals above 0",
					 optarg);
				return -EINVAL;
			}
			continue;
		case 'J':
		case 'c':
			if (nvpc_format_once(&fmt, c))
				return -EINVAL;
			t->fmt = c == 'J' ? NVPC_TOP_JSON : NVPC_TOP_CSV;
			continue;
		case 'h':
			usage(stdout);
			exit(0);
		case '?':
			usage(stderr);
			return -EINVAL;
		default:
			break;
		}
		/* a record option: as given, with its argument */
		if (n + 2 >= TOP_MAX_ARGS - 1) {
			nvpc_err("too many options");
			return -EINVAL;
		}
		stop |= c >= 256 && !strcmp(longopts[idx].name, "stop");
		every |= c >= 256 && !strcmp(longopts[idx].name, "every");
		if (c < 256) {
			static char opt[TOP_MAX_ARGS][3];

			snprintf(opt[n], sizeof(opt[n]), "-%c", c);
			rargv[n] = opt[n];
		} else {
			static char lopt[TOP_MAX_ARGS][16];

			snprintf(lopt[n], sizeof(lopt[n]), "--%s",
				 longopts[idx].name);
			rargv[n] = lopt[n];
		}
		n++;
		if (optarg)
			rargv[n++] = optarg;
	}
	if (optind < argc) {
		nvpc_err("top runs no command ('%s'): use nvpc record -- COMMAND for that",
			 argv[optind]);
		return -EINVAL;
	}
	if (!stop && !every) {
		rargv[n++] = "--every";
		rargv[n++] = TOP_DEFAULT_EVERY;
	}
	rargv[n] = NULL;
	return n;
}

static void replay_stop(int sig)
{
	(void)sig;
	_exit(0);
}

/*
 * $NVPC_TOP_REPLAY (the host tests; never with more rights than the
 * user's, start_record()): the child sends that capture as if it were
 * recording, then waits for top's SIGINT
 */
static int replay(const char *path)
{
	FILE *f = fopen(path, "re");
	char buf[4096];
	size_t n;

	signal(SIGINT, replay_stop);
	if (!f) {
		nvpc_err("NVPC_TOP_REPLAY %s: %s", path, strerror(errno));
		return 1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (fwrite(buf, 1, n, stdout) != n)
			return 1;
	fclose(f);
	fflush(stdout);
	for (;;)
		pause();
}

static pid_t start_record(int rargc, char **rargv, int *fd)
{
	/* a test hook, as $NVPC_SYSFS: none with more rights (gpu.c) */
	const char *replay_path = secure_getenv("NVPC_TOP_REPLAY");
	int p[2];
	pid_t pid;

	pid = nvpc_fork_pipe(p);
	if (pid < 0)
		return -1;
	if (pid == 0) {
		/* stdout is the capture; the keyboard is top's */
		if (dup2(p[1], STDOUT_FILENO) < 0)
			_exit(1);
		close(STDIN_FILENO);
		if (open("/dev/null", O_RDONLY) < 0)
			_exit(1);
		_exit(replay_path ? replay(replay_path) :
		      nvpc_record(rargc, rargv));
	}
	close(p[1]);
	*fd = p[0];
	return pid;
}

static void keyboard_raw(struct top *t)
{
	struct termios raw;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &t->saved))
		return;
	raw = t->saved;
	raw.c_lflag &= ~(ICANON | ECHO);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	t->keyboard = !tcsetattr(STDIN_FILENO, TCSANOW, &raw);
}

/* each stream's view, output and decoder: 0, or -EINVAL for no clock */
static int top_streams(struct top *t, uint64_t interval, char *err,
		       size_t errlen)
{
	struct nvpc_report_opts ro = { .interval_ns = interval };
	unsigned int nr = t->cap.nr;

	for (unsigned int i = 0; i < nr; i++) {
		const struct nvpc_header *h = &t->cap.h[i];

		nvpc_report_view(&ro, h, &t->v[i]);
		nvpc_view_header(&t->v[i], h, &t->vh[i]);
		t->out[i] = (struct nvpc_out){
			.o = stdout, .h = &t->vh[i], .interval_ns = interval,
			.first = true, .hz = h->clock_hz,
			.rate_hz = nvpc_rate_hz(h, h->clock_hz),
		};
		t->ts[i] = (struct top_stream){ .t = t, .i = i };
		t->v[i].ifn = top_interval;
		t->v[i].arg = &t->ts[i];
		if (nvpc_decoder_init(&t->d[i], h, h->clock_hz,
				      nvpc_view_packet, &t->v[i], &t->st[i],
				      err, errlen)) {
			snprintf(err, errlen, "no clock (give --clock HZ)");
			return -EINVAL;
		}
	}
	for (unsigned int i = 0; nr > 1 && i < nr; i++)
		nvpc_csv_streams_pad(&t->out[i], t->vh, nr, i, 3);
	t->g = (struct nvpc_top_group){
		.o = stdout, .fmt = t->fmt, .nr = nr, .out = t->out,
		.max = t->max_intervals, .first = true,
	};
	return 0;
}

/* decode the recording's stream as it comes: 0 or -errno (err) */
static int top_run(struct top *t, FILE *f, uint64_t interval, char *err,
		   size_t errlen)
{
	int ret = top_streams(t, interval, err, errlen);

	if (ret)
		return ret;
	if (t->fmt == NVPC_TOP_JSON)
		printf("[");
	else if (t->fmt == NVPC_TOP_CSV && t->cap.nr > 1)
		nvpc_csv_streams_interval_header(stdout, t->vh, t->cap.nr);
	else if (t->fmt == NVPC_TOP_CSV)
		nvpc_csv_interval_header(stdout, &t->vh[0]);
	ret = nvpc_decode_streams(f, t->d, t->cap.nr, err, errlen);
	if (!t->max_intervals || t->g.shown < t->max_intervals) {
		for (unsigned int i = 0; i < t->cap.nr; i++)
			nvpc_view_flush(&t->v[i]);
		nvpc_top_group_flush(&t->g);
	}
	if (t->fmt == NVPC_TOP_JSON)
		printf("\n]\n");
	return ret;
}

/* -d or -s given: one recording's signals; else every GPU's engines */
static bool top_of_signals(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strncmp(argv[i], "-d", 2) || !strncmp(argv[i], "-s", 2) ||
		    !strncmp(argv[i], "--domain", 8) ||
		    !strncmp(argv[i], "--signals", 9))
			return true;
	return false;
}

int nvpc_top(int argc, char **argv)
{
	static const cookie_io_functions_t io = { .read = top_read };
	struct top *t = calloc(1, sizeof(*t));
	uint64_t interval = TOP_DEFAULT_MS * 1000000ULL;
	char *rargv[TOP_MAX_ARGS];
	char err[256];
	int rargc, status, ret;
	FILE *f;

	if (!top_of_signals(argc, argv)) {
		free(t);
		return nvpc_top_engines(argc, argv);
	}
	if (!t) {
		nvpc_err("out of memory");
		return 1;
	}
	t->fmt = isatty(STDOUT_FILENO) ? NVPC_TOP_TABLE : NVPC_TOP_LINES;
	rargc = parse(argc, argv, t, &interval, rargv);
	if (rargc < 0) {
		free(t);
		return 2;
	}
	t->child = start_record(rargc, rargv, &t->pipe_fd);
	if (t->child < 0) {
		free(t);
		return 1;
	}
	/*
	 * Ctrl-C reaches the child too: it ends the stream, and top shows
	 * it to its end. SIGINT, SIGTERM or SIGHUP sent to top alone (kill,
	 * timeout(1), a closed terminal) make top stop the child as q
	 * does, and end the same way.
	 */
	nvpc_stop_signals(&t->waitmask);
	f = fopencookie(t, "r", io);
	if (!f || nvpc_file_read_capture(f, &t->cap, err, sizeof(err))) {
		/* the child said why (the PMU, the domain, the signals ...) */
		waitpid(t->child, &status, 0);
		if (f)
			fclose(f);
		close(t->pipe_fd);
		free(t);
		return WIFEXITED(status) && WEXITSTATUS(status) ?
		       WEXITSTATUS(status) : 1;
	}
	keyboard_raw(t);
	ret = top_run(t, f, interval, err, sizeof(err));
	if (t->keyboard)
		tcsetattr(STDIN_FILENO, TCSANOW, &t->saved);
	top_stop(t);
	fclose(f);
	close(t->pipe_fd);
	waitpid(t->child, &status, 0);
	free(t);
	if (ret) {
		nvpc_err("the recording's stream: %s", err);
		return 1;
	}
	/* the recording's own status: 0 when it ended as asked */
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
