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
#include "nvpc_file.h"
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
	/*
	 * several streams: CSV rows and top's JSON name the domain first;
	 * a CSV row has the empty fields of the signal columns of the
	 * streams before and after its own
	 */
	bool domain;
	unsigned int csv_before, csv_after;
};

/* a capture of one or more streams (domains) as report, plot, top see it */
struct nvpc_streams {
	struct nvpc_capture cap;
	uint64_t hz[NVPC_FILE_MAX_STREAMS];		/* each stream's clock */
	struct nvpc_view v[NVPC_FILE_MAX_STREAMS];	/* nr 0: left out */
	struct nvpc_header vh[NVPC_FILE_MAX_STREAMS];	/* each view's header */
};

/*
 * The headers of f (path names it in messages), each stream's clock
 * (--clock for all, else its recorded one) and the view ro asks for:
 * NVPC_EXIT_OK, _ERROR (a header or clock missing) or _USAGE (a -s
 * no stream has), with a message.
 */
int nvpc_streams_open(const char *path, FILE *f,
		      const struct nvpc_report_opts *ro, struct nvpc_streams *s);

/* the name of stream i in messages: path, with its domain if several */
const char *nvpc_stream_label(const char *path, const struct nvpc_streams *s,
			      unsigned int i, char *buf, size_t len);

/* the worse of two exit statuses: _ERROR, _DAMAGED, _IMPOSSIBLE, _OK */
int nvpc_exit_worst(int a, int b);

/*
 * CSV headers of several streams: the domain, the columns of one
 * stream, then each shown signal as "<domain>:<signal>" (per packet) or
 * its three interval columns (report -I, top -c)
 */
void nvpc_csv_streams_header(FILE *o, const struct nvpc_streams *s,
			     bool monotonic);
void nvpc_csv_streams_interval_header(FILE *o, const struct nvpc_header *vh,
				      unsigned int nr);
/* out's csv_before and csv_after for stream i of vh (per signal: per) */
void nvpc_csv_streams_pad(struct nvpc_out *out, const struct nvpc_header *vh,
			  unsigned int nr, unsigned int i, unsigned int per);

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
 * nvpc top of the streams of a capture: the streams' intervals of one
 * time are shown together, once every stream has given that interval
 * or a later one (a view gives an interval when its next one begins),
 * or once a stream is NVPC_TOP_WINDOW intervals ahead of it; a domain
 * without a packet in it is left out of it. An interval that comes after
 * its time was shown is shown on its own. With one stream that is each
 * interval as it comes, as nvpc_top_table(), nvpc_top_line(),
 * nvpc_csv_interval() and nvpc_json_interval() show it.
 */
#define NVPC_TOP_WINDOW		4

enum nvpc_top_fmt {
	NVPC_TOP_TABLE, NVPC_TOP_LINES, NVPC_TOP_JSON, NVPC_TOP_CSV,
};

/* the streams' intervals of one time */
struct nvpc_top_slot {
	bool open;			/* it holds an interval */
	uint64_t index;
	bool have[NVPC_FILE_MAX_STREAMS];
	struct nvpc_interval iv[NVPC_FILE_MAX_STREAMS];
	uint64_t packets[NVPC_FILE_MAX_STREAMS];	/* so far */
};

struct nvpc_top_group {
	FILE *o;
	enum nvpc_top_fmt fmt;
	unsigned int nr;		/* streams */
	struct nvpc_out *out;		/* each stream's output (nr) */
	uint64_t max;			/* times to show at most, 0: all */
	uint64_t shown;			/* times shown */
	bool first;			/* JSON: no element yet */
	bool started;
	uint64_t base;			/* the first time not shown */
	struct nvpc_top_slot slot[NVPC_TOP_WINDOW];	/* by index */
	struct nvpc_top_slot late;	/* one that came after its time */
	bool seen[NVPC_FILE_MAX_STREAMS];	/* the stream gave one */
	uint64_t last[NVPC_FILE_MAX_STREAMS];	/* its last interval */
	uint64_t gaps[NVPC_FILE_MAX_STREAMS];	/* so far */
};

/* stream i's interval iv (packets: the stream's so far) */
void nvpc_top_group_add(struct nvpc_top_group *g, unsigned int i,
			const struct nvpc_interval *iv, uint64_t packets);
/* every interval held, at the end */
void nvpc_top_group_flush(struct nvpc_top_group *g);

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


/*
 * nvpc plot's gnuplot script for the capture f (read twice: f must
 * seek) to o: terminal term, the plot on gnuplot's stdout; ro's clock
 * and view (fmt unused). An exit status; NVPC_EXIT_ERROR (and a
 * message) when f holds no packet to plot.
 */
int nvpc_plot_script(FILE *f, const char *path, const char *term,
		     const struct nvpc_report_opts *ro, FILE *o);

#endif /* NVPC_REPORT_H */
