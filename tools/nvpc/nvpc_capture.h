/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capture library (capture.c): a capture opened (a pipe spooled),
 * its streams' headers, clocks and views, its chunks decoded and judged,
 * and the exit statuses of the commands that read it. report, plot and
 * top read captures through it; the view options are theirs and
 * engines' and export's (-s, --from, --to).
 */
#ifndef NVPC_CAPTURE_H
#define NVPC_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nvpc_decode.h"
#include "nvpc_file.h"
#include "nvpc_view.h"

/* a capture's name made printable: 4 bytes per byte at the most */
#define NVPC_NAME_BUF	(4 * NVPC_FILE_STOP_LEN)

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

/*
 * A stream's decode judged (nvpc_capture_decode() does it; report's one
 * pass over several streams judges each afterwards): its messages,
 * labelled with path, and exit status from ret and err (nvpc_decode()'s)
 * and what st counted.
 */
int nvpc_capture_judge(const char *path, const struct nvpc_header *h,
		       uint64_t hz, int ret, const char *err,
		       const struct nvpc_stats *st);

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

/*
 * The capture at path for reading, "-" for stdin; a stream that cannot
 * seek (a pipe) is spooled to a temporary file ($TMPDIR, else /tmp)
 * first, so the reader may read it twice. NULL with a message.
 */
FILE *nvpc_capture_open(const char *path);

/* in copied to a temporary file, rewound: NULL with a message */
FILE *nvpc_capture_spool(FILE *in, const char *path);


#endif /* NVPC_CAPTURE_H */
