/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interval writers of the capture library (interval.c): an output
 * stream with what each row needs, rates and busy shares, the CSV
 * columns of several streams and the CSV rows and JSON elements of
 * intervals that report -I and top -c/-J write alike.
 */
#ifndef NVPC_INTERVAL_H
#define NVPC_INTERVAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "nvpc_capture.h"
#include "nvpc_file.h"
#include "nvpc_view.h"

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

/* several streams: a CSV row's domain first (out->domain), and a comma */
void nvpc_csv_domain(const struct nvpc_out *out);
/* n empty CSV fields */
void nvpc_csv_empty(FILE *o, unsigned int n);

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

#endif /* NVPC_INTERVAL_H */
