/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What part of a capture an output shows (Documentation/nvpc.rst,
 * "Choosing what to show"): its signals by name or id (-s), a time range
 * (--from, --to), the time base (relative to the start, or
 * CLOCK_MONOTONIC with --monotonic), and per-interval sums (--interval).
 * The decoder hands every packet to nvpc_view_packet(), which keeps the
 * ones in range, reorders their counters into the selection and passes
 * them on to the output, or sums them per interval first: a packet
 * counts in the interval its own interval starts in.
 */
#ifndef NVPC_VIEW_H
#define NVPC_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "nvpc_decode.h"

/* the sums of the packets of one interval (or of all shown) */
struct nvpc_interval {
	uint64_t index;		/* its start (since the recording) / interval */
	uint64_t first_ns;	/* its first packet's start (output time) */
	uint64_t last_ns;	/* its last packet's end (output time) */
	bool gap;		/* a gap begins or ends in it */
	bool after_gap;		/* a gap ends in it, */
	uint64_t gap_from_ns;	/* ... which began here (output time) */
	uint64_t packets;
	uint64_t cycles;	/* cycles its packets cover */
	uint64_t covered_ns;	/* time its packets cover */
	unsigned int segment;	/* of its last packet */
	uint64_t count[NVPC_FILE_MAX_SIGNALS];
	uint64_t saturated[NVPC_FILE_MAX_SIGNALS];
};

typedef void (*nvpc_interval_fn)(const struct nvpc_interval *iv, void *arg);

struct nvpc_view {
	/* the choice */
	unsigned int nr;		/* signals shown */
	unsigned int idx[NVPC_FILE_MAX_SIGNALS]; /* counter of each */
	uint64_t base_ns;		/* added to every time shown */
	uint64_t from_ns, to_ns;	/* packets starting in [from, to) */
	uint64_t interval_ns;		/* 0: every packet */

	/* the output */
	nvpc_packet_fn fn;		/* each packet (interval_ns 0) */
	nvpc_interval_fn ifn;		/* each interval with packets */
	void *arg;

	/* what it showed */
	struct nvpc_interval all;	/* the sums of every packet shown */
	struct nvpc_interval cur;	/* the interval being summed */
	bool cur_open;
	uint64_t intervals;		/* intervals passed to ifn */
};

/*
 * v for h: every signal, the whole capture, relative time, no interval.
 * fn, ifn and arg are set by the caller.
 */
void nvpc_view_init(struct nvpc_view *v, const struct nvpc_header *h);

/*
 * -s LIST: comma-separated names or ids (0x10, 16) of the capture's
 * signals, in the order shown; 0, or -EINVAL with a message naming the
 * capture's signals.
 */
int nvpc_view_signals(struct nvpc_view *v, const struct nvpc_header *h,
		      const char *list);

/*
 * -s LIST over the n streams of a capture (each v[s] initialised for
 * h[s]): an item "DOMAIN:SIGNAL" selects in that domain, an item
 * without a domain in every stream that has it; a stream with nothing
 * selected gets nr 0 (it is left out). 0, or -EINVAL with a message
 * naming each domain's signals for an item no stream has.
 */
int nvpc_view_streams(struct nvpc_view *v, const struct nvpc_header *h,
		      unsigned int nr, const char *list);

/*
 * A time for --from, --to, --interval: a number with the unit s (the
 * default), ms, us or ns, e.g. 1.5, 250ms, 10us. 0 or -EINVAL.
 */
int nvpc_parse_time(const char *s, uint64_t *ns);

/* the decoder's callback: arg is the view */
void nvpc_view_packet(const struct nvpc_packet *p, void *arg);

/* the last interval, after the decoder returned */
void nvpc_view_flush(struct nvpc_view *v);

/*
 * The interval a trace uses by default: 0 (every packet) for up to max
 * packets, else the shortest 1, 2 or 5 x 10^k ns that cuts span_ns
 * into at most max intervals.
 */
uint64_t nvpc_view_auto_interval(uint64_t packets, uint64_t span_ns,
				 uint64_t max);

/* h with the view's signals, in its order */
void nvpc_view_header(const struct nvpc_view *v, const struct nvpc_header *h,
		      struct nvpc_header *vh);

/* a time of the output (base_ns added, saturating) */
uint64_t nvpc_view_time(const struct nvpc_view *v, uint64_t ns);

#endif /* NVPC_VIEW_H */
