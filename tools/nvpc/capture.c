// SPDX-License-Identifier: GPL-2.0
/*
 * The capture library (nvpc_capture.h): a capture opened for reading (a
 * pipe spooled to a temporary file), its streams with their clocks and
 * views, each stream's chunks decoded and judged, and the view options
 * report, plot, top, engines and export share.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvpc_capture.h"
#include "nvpc_decode.h"
#include "nvpc_escape.h"
#include "nvpc_file.h"
#include "nvpc_util.h"
#include "nvpc_view.h"

int nvpc_capture_judge(const char *path, const struct nvpc_header *h,
		       uint64_t hz, int ret, const char *err,
		       const struct nvpc_stats *st)
{
	int status = NVPC_EXIT_OK;

	if (ret == -ENOMEM) {
		nvpc_err("%s: out of memory", path);
		return NVPC_EXIT_ERROR;
	}
	if (ret) {
		nvpc_err("%s: %s; the packets before it are reported", path,
			 err);
		status = NVPC_EXIT_DAMAGED;
	}
	if (!st->have_end) {
		nvpc_err("%s has no end record: the recording did not finish (killed?); the packets in it are reported",
			 path);
		status = NVPC_EXIT_DAMAGED;
	}
	/*
	 * The packets' time, from their cycles at the clock, against the
	 * recording's own length (its end record): more than 1% and 1 ms
	 * over is no rounding of a measured clock but a clock too low for
	 * them (--clock) or a damaged capture. Said always; an error
	 * where the clock is the one the driver measured (a clock never
	 * measured, the catalogue's nominal one, may simply be wrong: a
	 * simulated GPU on its manual clock runs the cycles it is told).
	 */
	if (st->have_end &&
	    st->covered_ns > st->end.end_ns + st->end.end_ns / 100 + 1000000) {
		bool measured = h->measured_hz && hz == h->clock_hz;

		nvpc_err("%s: its packets cover %.6f s at %llu Hz, more than the %.6f s the recording lasted: %s",
			 path, st->covered_ns / 1e9, (unsigned long long)hz,
			 st->end.end_ns / 1e9, measured ?
			 "the capture is damaged (the clock is the one measured)" :
			 "the clock was not measured and is too low for them (give --clock), or the capture is damaged");
		if (measured && status == NVPC_EXIT_OK)
			status = NVPC_EXIT_DAMAGED;
	}
	if (st->impossible) {
		nvpc_err("%s: %llu impossible packets, left out of the counts and rates",
			 path, (unsigned long long)st->impossible);
		if (status == NVPC_EXIT_OK)
			status = NVPC_EXIT_IMPOSSIBLE;
	}
	return status;
}

int nvpc_capture_decode(const char *path, FILE *f,
			const struct nvpc_header *h, uint64_t hz,
			nvpc_packet_fn fn, void *arg, struct nvpc_stats *st)
{
	char err[256];
	int ret = nvpc_decode(f, h, hz, fn, arg, st, err, sizeof(err));

	return nvpc_capture_judge(path, h, hz, ret, err, st);
}

/* the view of each stream: -s over every stream of several */
static int streams_view(const struct nvpc_report_opts *ro,
			struct nvpc_streams *s)
{
	struct nvpc_report_opts all = *ro;
	unsigned int nr = s->cap.nr;

	if (nr == 1)
		return nvpc_report_view(ro, &s->cap.h[0], &s->v[0]);
	all.signals = NULL;
	for (unsigned int i = 0; i < nr; i++)
		nvpc_report_view(&all, &s->cap.h[i], &s->v[i]);
	return ro->signals ? nvpc_view_streams(s->v, s->cap.h, nr,
					       ro->signals) : 0;
}

int nvpc_streams_open(const char *path, FILE *f,
		      const struct nvpc_report_opts *ro, struct nvpc_streams *s)
{
	char err[256], dom[NVPC_NAME_BUF];

	if (nvpc_file_read_capture(f, &s->cap, err, sizeof(err))) {
		nvpc_err("%s: %s", path, err);
		return NVPC_EXIT_ERROR;
	}
	for (unsigned int i = 0; i < s->cap.nr; i++) {
		const struct nvpc_header *h = &s->cap.h[i];

		s->hz[i] = ro->clock_hz ? ro->clock_hz : h->clock_hz;
		if (!s->hz[i]) {
			nvpc_err("%s records no clock for %s: give --clock HZ",
				 path, nvpc_printable(dom, sizeof(dom),
						      h->domain));
			return NVPC_EXIT_ERROR;
		}
	}
	if (streams_view(ro, s))
		return NVPC_EXIT_USAGE;
	for (unsigned int i = 0; i < s->cap.nr; i++)
		nvpc_view_header(&s->v[i], &s->cap.h[i], &s->vh[i]);
	return NVPC_EXIT_OK;
}

const char *nvpc_stream_label(const char *path, const struct nvpc_streams *s,
			      unsigned int i, char *buf, size_t len)
{
	char dom[NVPC_NAME_BUF];

	if (s->cap.nr == 1)
		return path;
	snprintf(buf, len, "%s (domain %s)", path,
		 nvpc_printable(dom, sizeof(dom), s->cap.h[i].domain));
	return buf;
}

int nvpc_exit_worst(int a, int b)
{
	static const int rank[] = {
		[NVPC_EXIT_OK] = 0, [NVPC_EXIT_IMPOSSIBLE] = 1,
		[NVPC_EXIT_DAMAGED] = 2, [NVPC_EXIT_ERROR] = 3,
		[NVPC_EXIT_USAGE] = 4,
	};

	return rank[b] > rank[a] ? b : a;
}

int nvpc_report_view(const struct nvpc_report_opts *ro,
		     const struct nvpc_header *h, struct nvpc_view *v)
{
	nvpc_view_init(v, h);
	if (ro->signals && nvpc_view_signals(v, h, ro->signals))
		return -EINVAL;
	v->from_ns = ro->from_ns;
	v->to_ns = ro->to_ns ? ro->to_ns : UINT64_MAX;
	v->interval_ns = ro->interval_ns;
	if (ro->monotonic)
		v->base_ns = h->start_monotonic_ns;
	return 0;
}

bool nvpc_view_option(int c, const char *arg, struct nvpc_report_opts *ro,
		      bool *bad)
{
	uint64_t *t = c == NVPC_OPT_FROM ? &ro->from_ns : &ro->to_ns;

	switch (c) {
	case 's':
		if (nvpc_list_append(&ro->signals, arg))
			*bad = true;
		return true;
	case 'I': {
		/*
		 * milliseconds as perf stat -I, a bare number in any form
		 * (1.5, 1e3), or a time with its unit
		 */
		char ms[64], *end;
		bool number;

		errno = 0;
		(void)strtod(arg, &end);
		number = end != arg && !*end && !errno;

		snprintf(ms, sizeof(ms), "%.40s%s", arg, number ? "ms" : "");
		if (strlen(arg) > 40 || nvpc_parse_time(ms, &ro->interval_ns))
			ro->interval_ns = 0;
		if (!ro->interval_ns) {
			nvpc_err("--interval %s: milliseconds above 0 (100), or a time with its unit (1s, 250us)",
				 arg);
			*bad = true;
		}
		return true;
	}
	case NVPC_OPT_MONOTONIC:
		ro->monotonic = true;
		return true;
	case NVPC_OPT_FULL:
		ro->full = true;
		return true;
	case NVPC_OPT_FROM:
	case NVPC_OPT_TO:
		if (nvpc_parse_time(arg, t) || (c == NVPC_OPT_TO && !*t)) {
			nvpc_err("--%s %s: a time since the recording began, in seconds or with a unit (1.5, 250ms, 10us, 100ns)%s",
				 c == NVPC_OPT_FROM ? "from" : "to", arg,
				 c == NVPC_OPT_TO ? ", above 0" : "");
			*bad = true;
		}
		if (!*bad && ro->to_ns && ro->to_ns <= ro->from_ns) {
			nvpc_err("--to must be after --from");
			*bad = true;
		}
		return true;
	default:
		return false;
	}
}

/* an unlinked temporary file in $TMPDIR (else /tmp): NULL and errno */
static FILE *spool_file(const char *dir)
{
	char *tmp;
	FILE *f;
	int fd;

	if (asprintf(&tmp, "%s/nvpc-stdin-XXXXXX", dir) < 0)
		return NULL;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd >= 0)
		unlink(tmp);
	free(tmp);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w+");
	if (!f)
		close(fd);
	return f;
}

FILE *nvpc_capture_spool(FILE *in, const char *path)
{
	/*
	 * (with more rights than the user's, /tmp: glibc drops TMPDIR
	 * from such a process's environment, and this says so here)
	 */
	const char *dir = secure_getenv("TMPDIR");
	char buf[1 << 16];
	size_t n;
	FILE *t;

	if (!dir || !*dir)
		dir = "/tmp";
	t = spool_file(dir);
	if (!t) {
		nvpc_err("reading %s: no temporary file for it in %s: %s (TMPDIR names another directory)",
			 path, dir, strerror(errno));
		return NULL;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
		if (fwrite(buf, 1, n, t) != n) {
			nvpc_err("reading %s into a temporary file: %s", path,
				 strerror(errno));
			fclose(t);
			return NULL;
		}
	}
	if (ferror(in) || fflush(t)) {
		nvpc_err("reading %s: %s", path, strerror(errno));
		fclose(t);
		return NULL;
	}
	rewind(t);
	return t;
}

FILE *nvpc_capture_open(const char *path)
{
	FILE *f;

	FILE *t;

	if (!nvpc_is_stdio(path)) {
		f = fopen(path, "re");
		if (!f) {
			nvpc_err("cannot open %s: %s", path, strerror(errno));
			return NULL;
		}
	} else {
		f = stdin;
	}
	/*
	 * A file seeks; a pipe (stdin, a named pipe, a process
	 * substitution) is read to its end first: a capture is read more
	 * than once.
	 */
	if (!fseek(f, 0, SEEK_CUR))
		return f;
	t = nvpc_capture_spool(f, nvpc_is_stdio(path) ? "stdin" : path);
	if (f != stdin)
		fclose(f);
	return t;
}
