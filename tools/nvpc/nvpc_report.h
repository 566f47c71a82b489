/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening and decoding a capture, shared by report and plot, and their
 * outputs as functions of streams (the host fuzzer calls them).
 */
#ifndef NVPC_REPORT_H
#define NVPC_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "nvpc_decode.h"
#include "nvpc_view.h"

/* exit statuses of report and plot (Documentation/nvpc.rst, "Exit status") */
enum {
	NVPC_EXIT_OK = 0,
	NVPC_EXIT_ERROR = 1,		/* nothing reported (see the message) */
	NVPC_EXIT_USAGE = 2,
	NVPC_EXIT_DAMAGED = 3,		/* unfinished, torn or corrupt chunk */
	NVPC_EXIT_IMPOSSIBLE = 4,	/* impossible packets left out */
};

enum nvpc_report_fmt {
	NVPC_REPORT_TEXT,
	NVPC_REPORT_CSV,
	NVPC_REPORT_JSON,
	NVPC_REPORT_TRACE,
};

/*
 * Read the header of f (path names it in messages); *hz is clock_hz if
 * nonzero, else the recorded clock. Prints why on failure: -EINVAL.
 */
int nvpc_capture_header(const char *path, FILE *f, uint64_t clock_hz,
			struct nvpc_header *h, uint64_t *hz);

/*
 * Decode the chunks; warns about an unfinished, torn or corrupt capture
 * and about impossible packets. Returns NVPC_EXIT_OK, _DAMAGED or
 * _IMPOSSIBLE (_DAMAGED wins), or _ERROR for want of memory.
 */
int nvpc_capture_decode(const char *path, FILE *f,
			const struct nvpc_header *h, uint64_t hz,
			nvpc_packet_fn fn, void *arg, struct nvpc_stats *st);

/* what nvpc report writes (its options) */
struct nvpc_report_opts {
	enum nvpc_report_fmt fmt;
	uint64_t clock_hz;		/* --clock, 0: the recorded clock */
	char *signals;			/* -s, NULL: every signal */
	uint64_t from_ns, to_ns;	/* --from, --to (0: none) */
	uint64_t interval_ns;		/* -I, --interval (0: none) */
	bool monotonic;			/* --monotonic: CLOCK_MONOTONIC times */
	bool full;			/* --full: a trace of every packet */
};

/* an output and what it needs to write each packet or interval */
struct nvpc_out {
	FILE *o;
	const struct nvpc_header *h;	/* the view's */
	uint64_t hz;
	uint64_t rate_hz;		/* the clock of rates, 0: by time */
	uint64_t interval_ns;
	unsigned int pid;		/* the GPU's process in a trace */
	bool first;			/* nothing written yet */
};

/*
 * events/s: count * hz / cycles, or with hz 0 count per second of ns (a
 * sampled capture's samples are timed by the clock leader, their cycles
 * counted: no clock needed); 0 without cycles or time
 */
double nvpc_rate(uint64_t count, uint64_t cycles, uint64_t ns, uint64_t hz);
/*
 * the clock for nvpc_rate() where hz converts cycles: 0 (by time) for a
 * sampled capture unless --clock gave another clock than the recorded
 */
uint64_t nvpc_rate_hz(const struct nvpc_header *h, uint64_t hz);
/* count / cycles (% busy); 0 without cycles */
double nvpc_busy(uint64_t count, uint64_t cycles);

/* an interval's start since the recording began; that in CLOCK_MONOTONIC */
uint64_t nvpc_interval_start(const struct nvpc_out *t,
			     const struct nvpc_interval *iv);
uint64_t nvpc_monotonic(const struct nvpc_header *h, uint64_t ns);

/*
 * report -I's CSV (a header, a row per interval) and the elements of its
 * JSON "intervals" (arg: a struct nvpc_out), also nvpc top's -c and -J
 */
void nvpc_csv_interval_header(FILE *o, const struct nvpc_header *h);
void nvpc_csv_interval(const struct nvpc_interval *iv, void *arg);
void nvpc_json_interval(const struct nvpc_interval *iv, void *arg);

/*
 * nvpc top's table of an interval (the screen cleared first, signals by
 * busy share; packets and gaps so far) and its line per interval
 */
void nvpc_top_table(FILE *o, const struct nvpc_out *out,
		    const struct nvpc_interval *iv, uint64_t packets,
		    uint64_t gaps);
void nvpc_top_line(FILE *o, const struct nvpc_out *out,
		   const struct nvpc_interval *iv);

/*
 * The view of h that ro asks for (nvpc_view.h); -EINVAL with a message
 * for a -s that names no signal of the capture.
 */
int nvpc_report_view(const struct nvpc_report_opts *ro,
		     const struct nvpc_header *h, struct nvpc_view *v);

/* getopt codes of the view's long options, shared by report and plot */
enum {
	NVPC_OPT_FROM = 300,
	NVPC_OPT_TO,
	NVPC_OPT_MONOTONIC,
	NVPC_OPT_FULL,
};

/*
 * report's and plot's options for the view (-s, --from, --to) into ro:
 * true if c was one of them, *bad set when its argument is wrong.
 */
bool nvpc_view_option(int c, const char *arg, struct nvpc_report_opts *ro,
		      bool *bad);

/* nvpc report of the capture f as ro says to o: an exit status */
int nvpc_report_write(FILE *f, const char *path,
		      const struct nvpc_report_opts *ro, FILE *o);

/*
 * The capture at path for reading, "-" for stdin; a stream that cannot
 * seek (a pipe) is spooled to a temporary file ($TMPDIR, else /tmp)
 * first, so the reader may read it twice. NULL with a message.
 */
FILE *nvpc_capture_open(const char *path);

/* in copied to a temporary file, rewound: NULL with a message */
FILE *nvpc_capture_spool(FILE *in, const char *path);

/* -o OUT for writing ("-" or NULL: stdout): NULL with a message */
FILE *nvpc_output_open(const char *out);


/*
 * nvpc plot's gnuplot script for the capture f (read twice: f must
 * seek) to o: terminal term, the plot on gnuplot's stdout; ro's clock
 * and view (fmt unused). An exit status; NVPC_EXIT_ERROR (and a
 * message) when f holds no packet to plot.
 */
int nvpc_plot_script(FILE *f, const char *path, const char *term,
		     const struct nvpc_report_opts *ro, FILE *o);

#endif /* NVPC_REPORT_H */
