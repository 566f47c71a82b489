/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What part of a capture an output shows (Documentation/nvpc.rst,
 * "Choosing what to show"): its signals by name or id (-s), a time range
 * (--from, --to), the time base (relative to the start, or
 * CLOCK_MONOTONIC with --monotonic). The decoder hands every packet to
 * nvpc_view_packet(), which keeps the ones in range, reorders their
 * counters into the selection and passes them on to the output.
 */
#ifndef NVPC_VIEW_H
#define NVPC_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "nvpc_decode.h"

/* the sums of the packets shown */
struct nvpc_interval {
	uint64_t packets;
	uint64_t cycles;	/* cycles its packets cover */
	uint64_t covered_ns;	/* time its packets cover */
	unsigned int segment;	/* of its last packet */
	uint64_t count[NVPC_FILE_MAX_SIGNALS];
	uint64_t saturated[NVPC_FILE_MAX_SIGNALS];
};

struct nvpc_view {
	/* the choice */
	unsigned int nr;		/* signals shown */
	unsigned int idx[NVPC_FILE_MAX_SIGNALS]; /* counter of each */
	uint64_t base_ns;		/* added to every time shown */
	uint64_t from_ns, to_ns;	/* packets starting in [from, to) */

	/* the output */
	nvpc_packet_fn fn;		/* each packet shown */
	void *arg;

	/* what it showed */
	struct nvpc_interval all;	/* the sums of every packet shown */
	uint64_t first_ns;		/* the start of the first one */
	uint64_t last_ns;		/* the end of the last one */
};

/*
 * v for h: every signal, the whole capture, relative time. fn and arg
 * are set by the caller.
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
 * A time for --from, --to, --interval: a number with the unit s (the
 * default), ms, us or ns, e.g. 1.5, 250ms, 10us. 0 or -EINVAL.
 */
int nvpc_parse_time(const char *s, uint64_t *ns);

/* the decoder's callback: arg is the view */
void nvpc_view_packet(const struct nvpc_packet *p, void *arg);

/* h with the view's signals, in its order */
void nvpc_view_header(const struct nvpc_view *v, const struct nvpc_header *h,
		      struct nvpc_header *vh);

/* a time of the output (base_ns added, saturating) */
uint64_t nvpc_view_time(const struct nvpc_view *v, uint64_t ns);

#endif /* NVPC_VIEW_H */
