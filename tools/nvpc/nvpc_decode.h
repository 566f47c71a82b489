/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding record packets (pcounter.rst, "Record mode"; the uapi
 * NVPC_PKT_* layout) from an nvpc capture: 48-bit cycles extended across
 * wraps, segments split at the gaps the capture flags, time from the
 * recorded clock. Documentation/nvpc.rst, "Loss and gaps", says what each
 * count means.
 */
#ifndef NVPC_DECODE_H
#define NVPC_DECODE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "nvpc_file.h"

/* one decoded packet */
struct nvpc_packet {
	uint64_t index;		/* packet number in the capture, from 0 */
	unsigned int segment;	/* gaps passed before it */
	uint64_t raw_cycles;	/* the packet's 48-bit cycle counter */
	uint64_t cycles;	/* cycles since its segment began (no wrap) */
	uint64_t delta;		/* cycles since the previous packet */
	uint64_t start_ns;	/* the interval it counts: start .. */
	uint64_t time_ns;	/* .. and end, since the recording began */
	unsigned int stop;	/* STOP count: 0 early, > 1 merged */
	unsigned int nr;	/* counters in use (the header's signals) */
	uint64_t ctr[NVPC_FILE_MAX_SIGNALS];	/* 16 bits; 64 sampled */
	uint32_t saturated;	/* bit i: counter i read 0xffff */
	bool after_gap;		/* first packet after a gap */
	uint64_t gap_from_ns;	/* after_gap: end of the data before it */
};

struct nvpc_signal_stats {
	uint64_t count;		/* sum of the counter (signal cycles) */
	uint64_t saturated;	/* packets where it read 0xffff */
};

struct nvpc_stats {
	uint64_t packets;	/* impossible ones included */
	unsigned int segments;	/* runs of packets without a gap */
	uint64_t gaps;		/* PARTIAL, restarts, AUX discontinuities */
	uint64_t partial;	/* records flagged PARTIAL */
	uint64_t restarts;	/* the tool re-enabled a stopped event */
	uint64_t discontinuities; /* AUX offsets that skipped bytes */
	uint64_t truncated;	/* records flagged TRUNCATED */
	uint64_t collisions;	/* records flagged COLLISION */
	uint64_t lost_records;	/* PERF_RECORD_LOST sums */
	uint64_t aux_bytes;
	uint64_t torn_bytes;	/* bytes of a packet cut by a gap */
	uint64_t wraps;		/* 48-bit cycle counter wraps */
	uint64_t samples;	/* SAMPLE chunks (a sampled capture) */
	uint64_t impossible;	/* packets left out: the three below */
	uint64_t bad_cycles;	/* cycle counter backwards (no wrap) or ahead */
	uint64_t zero_cycles;	/* 0 cycles since the previous packet */
	uint64_t counts_above;	/* a counter or STOP above the packet's cycles */
	uint64_t early;		/* STOP 0: a counter reached 0xf000 */
	uint64_t merged;	/* packets with STOP > 1 */
	uint64_t merged_pulses;	/* the pulses those merged (STOP - 1) */
	uint64_t stop_pulses;	/* sum of STOP counts */
	uint64_t saturated;	/* counter readings of 0xffff */
	uint64_t cycles;	/* cycles the packets cover */
	uint64_t covered_ns;	/* time the packets cover */
	uint64_t gap_ns;	/* estimated time between segments */
	uint64_t last_ns;	/* end of the last packet */
	bool have_end;		/* the capture has its END chunk */
	struct nvpc_end end;
	struct nvpc_signal_stats sig[NVPC_FILE_MAX_SIGNALS];
};

typedef void (*nvpc_packet_fn)(const struct nvpc_packet *p, void *arg);

/*
 * Decode the chunks of f (after its header h) at clock_hz, calling fn for
 * each packet that is not impossible (nvpc.rst, "Impossible packets");
 * fills st. Returns 0, or -errno with a message in err (the
 * packets before the error were delivered and counted).
 */
int nvpc_decode(FILE *f, const struct nvpc_header *h, uint64_t clock_hz,
		nvpc_packet_fn fn, void *arg, struct nvpc_stats *st,
		char *err, size_t errlen);

/*
 * The decoder of one stream, chunk by chunk: for a capture of several
 * streams read in one pass (a pipe: nvpc top), a decoder per stream.
 * init: 0, or -EINVAL without a clock (err says so); finish after the
 * last chunk (a packet cut at the end counts as torn bytes).
 */
#define NVPC_DECODE_CARRY	32	/* the longest packet */

struct nvpc_decoder {
	const struct nvpc_header *h;
	uint64_t hz;
	uint64_t check_hz;	/* the fastest clock named: cycles_plausible() */
	nvpc_packet_fn fn;
	void *arg;
	struct nvpc_stats *st;

	unsigned int segment;
	uint64_t seg_packets;	/* packets in the current segment */
	uint64_t origin_ns;	/* the current segment's cycle 0 */
	uint64_t prev_raw;	/* last packet's 48-bit cycles */
	uint64_t cycles;	/* extended cycles of the last packet */
	uint64_t cycles_ns;	/* @cycles in ns at @hz */
	uint64_t end_ns;	/* end of the last packet */
	uint64_t read_ns;	/* when the tool read the current record */
	uint64_t limit_cycles;	/* the most cycles plausible at @read_ns */

	bool gap_pending;	/* the next data starts a new segment */
	bool after_gap;		/* the next packet is the first after one */
	bool hint_valid;
	uint64_t hint_ns;	/* estimated time of the restart */

	bool expect_valid;
	uint64_t expect_offset;	/* AUX offset the next record should have */

	uint8_t carry[NVPC_DECODE_CARRY];
	unsigned int carry_len;
};

int nvpc_decoder_init(struct nvpc_decoder *d, const struct nvpc_header *h,
		      uint64_t clock_hz, nvpc_packet_fn fn, void *arg,
		      struct nvpc_stats *st, char *err, size_t errlen);
void nvpc_decoder_chunk(struct nvpc_decoder *d, const struct nvpc_chunk *c,
			const void *payload);
void nvpc_decoder_finish(struct nvpc_decoder *d);

/*
 * Every stream of a capture in one pass: each chunk to d[its stream]
 * (chunks of a stream past nr are skipped); 0 at the end of the file,
 * or -errno with a message in err. Every decoder is finished.
 */
int nvpc_decode_streams(FILE *f, struct nvpc_decoder *d, unsigned int nr,
			char *err, size_t errlen);

/* cycles -> nanoseconds at hz (exact to the nanosecond, no overflow) */
uint64_t nvpc_cycles_to_ns(uint64_t cycles, uint64_t hz);

#endif /* NVPC_DECODE_H */
