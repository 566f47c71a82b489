/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvpc top's display (top_show.c): its table and lines of intervals and
 * the group that shows several streams' intervals of one time together.
 */
#ifndef NVPC_TOP_H
#define NVPC_TOP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "nvpc_file.h"
#include "nvpc_interval.h"
#include "nvpc_view.h"

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

#endif /* NVPC_TOP_H */
