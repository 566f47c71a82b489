// SPDX-License-Identifier: GPL-2.0
/*
 * Record packet decoding (nvpc_decode.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/nvpcounter.h>

#include "nvpc_decode.h"

#define CYCLES_MASK	((1ULL << NVPC_PKT_CYCLES_BITS) - 1)
#define NSEC_PER_SEC	1000000000ULL

_Static_assert(NVPC_PKT_LONG <= NVPC_DECODE_CARRY, "a packet fits the carry");


uint64_t nvpc_cycles_to_ns(uint64_t cycles, uint64_t hz)
{
	unsigned __int128 ns;

	/* a 64-bit division where the product fits (18 s at 1 GHz) */
	if (cycles <= UINT64_MAX / NSEC_PER_SEC)
		return cycles * NSEC_PER_SEC / hz;
	ns = (unsigned __int128)cycles * NSEC_PER_SEC / hz;

	return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

static uint16_t word(const uint8_t *p, unsigned int w)
{
	return p[2 * w] | p[2 * w + 1] << 8;
}

static uint64_t raw_cycles(const uint8_t *p)
{
	return (uint64_t)word(p, NVPC_PKT_W_CYCLES) |
	       (uint64_t)word(p, NVPC_PKT_W_CYCLES + 1) << 16 |
	       (uint64_t)word(p, NVPC_PKT_W_CYCLES + 2) << 32;
}

/*
 * A gap: the hardware was restarted (its cycle counter starts from 0
 * again) or data is missing. Several reasons for the same gap (the tool's
 * restart and the PARTIAL flag of the record after it) count once.
 */
static void raise_gap(struct nvpc_decoder *d, bool have_hint, uint64_t hint_ns)
{
	if (!d->gap_pending)
		d->st->gaps++;
	d->gap_pending = true;
	if (have_hint && !d->hint_valid) {
		d->hint_valid = true;
		d->hint_ns = hint_ns;
	}
}

static void start_segment(struct nvpc_decoder *d)
{
	uint64_t origin = d->end_ns;

	if (d->hint_valid && d->hint_ns > origin)
		origin = d->hint_ns;
	if (d->seg_packets)
		d->segment++;
	d->st->gap_ns += origin - d->end_ns;
	d->origin_ns = origin;
	d->prev_raw = 0;
	d->cycles = 0;
	d->cycles_ns = 0;
	d->seg_packets = 0;
	d->gap_pending = false;
	d->hint_valid = false;
	d->after_gap = true;
}

/*
 * Whether a segment can have run for this many cycles: not for longer
 * than the capture had lasted when the tool read the record holding the
 * packet, at the fastest clock the capture or --clock names, twice over
 * and 1 s more for a clock that is off. A backwards step of the 48-bit
 * counter is a wrap only if the wrapped count passes this (2^48 cycles
 * take 78 hours at 1 GHz). Documentation/nvpc.rst, "Impossible packets".
 */
static bool cycles_plausible(const struct nvpc_decoder *d, unsigned __int128 cycles)
{
	return cycles <= d->limit_cycles;
}

/*
 * The record read at @read_ns: the most cycles cycles_plausible() takes
 * from then on, once per record rather than a division per packet.
 * floor(c * 10^9 / hz) <= R holds exactly for c < (R + 1) * hz / 10^9,
 * that is c <= ((R + 1) * hz - 1) / 10^9; at most 2^64 - 1 (a product
 * past 128 bits takes every 64-bit count, as the division did).
 */
static void set_read_ns(struct nvpc_decoder *d, uint64_t read_ns)
{
	unsigned __int128 r = (unsigned __int128)read_ns * 2 + NSEC_PER_SEC + 1;
	unsigned __int128 lim;

	d->read_ns = read_ns;
	if (r > ~(unsigned __int128)0 / d->check_hz) {
		d->limit_cycles = UINT64_MAX;
		return;
	}
	lim = (r * d->check_hz - 1) / NSEC_PER_SEC;
	d->limit_cycles = lim > UINT64_MAX ? UINT64_MAX : (uint64_t)lim;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* a counter or the STOP count above the cycles it counted in */
static bool counts_above(const struct nvpc_packet *p)
{
	if (p->stop > p->delta)
		return true;
	for (unsigned int i = 0; i < p->nr; i++)
		if (p->ctr[i] > p->delta)
			return true;
	return false;
}

static void impossible(struct nvpc_stats *st, uint64_t *why)
{
	st->impossible++;
	(*why)++;
}

/*
 * One packet: impossible ones are counted and left out of every sum and
 * of fn (Documentation/nvpc.rst, "Impossible packets").
 */
static void packet(struct nvpc_decoder *d, const uint8_t *b)
{
	struct nvpc_stats *st = d->st;
	/*
	 * Every field set below but the counters past nr, which no reader
	 * of a packet takes (zeroing the whole packet was 40% of this
	 * function: make bench, tools/testing/nvpc/report_bench.c)
	 */
	struct nvpc_packet p;
	unsigned __int128 cycles;

	p.saturated = 0;
	p.segment = 0;
	p.cycles = 0;
	p.start_ns = 0;
	p.time_ns = 0;
	p.after_gap = false;
	p.gap_from_ns = 0;
	p.index = st->packets++;
	p.raw_cycles = raw_cycles(b);
	p.delta = (p.raw_cycles - d->prev_raw) & CYCLES_MASK;
	p.stop = word(b, NVPC_PKT_W_STOP) & NVPC_PKT_STOP_MASK;
	p.nr = d->h->nr_signals;
	for (unsigned int i = 0; i < p.nr; i++)
		p.ctr[i] = word(b, NVPC_PKT_W_CTR0 + i);

	cycles = (unsigned __int128)d->cycles + p.delta;
	if (!cycles_plausible(d, cycles)) {
		/*
		 * The counter restarted without a gap flag, or the packet
		 * is corrupt: the next packets count from this one, in a
		 * new segment if this one has packets.
		 */
		impossible(st, &st->bad_cycles);
		if (d->seg_packets) {
			st->gaps++;
			start_segment(d);
		}
		d->prev_raw = p.raw_cycles;
		return;
	}
	if (!p.delta) {
		impossible(st, &st->zero_cycles);
		return;
	}
	if (p.raw_cycles < d->prev_raw)
		st->wraps++;
	p.segment = d->segment;
	p.cycles = cycles;
	/* the previous packet's end, converted once */
	p.start_ns = add_sat(d->origin_ns, d->cycles_ns);
	d->cycles_ns = nvpc_cycles_to_ns(p.cycles, d->hz);
	p.time_ns = add_sat(d->origin_ns, d->cycles_ns);
	p.gap_from_ns = d->end_ns;
	d->prev_raw = p.raw_cycles;
	d->cycles = p.cycles;
	d->end_ns = p.time_ns;
	st->last_ns = p.time_ns;
	if (counts_above(&p)) {
		/* its interval stays in the time line, out of every sum */
		impossible(st, &st->counts_above);
		return;
	}

	for (unsigned int i = 0; i < p.nr; i++) {
		st->sig[i].count += p.ctr[i];
		if (p.ctr[i] == NVPC_PKT_CTR_MAX) {
			p.saturated |= 1u << i;
			st->sig[i].saturated++;
			st->saturated++;
		}
	}
	st->stop_pulses += p.stop;
	if (p.stop == 0)
		st->early++;
	if (p.stop > 1) {
		st->merged++;
		st->merged_pulses += p.stop - 1;
	}
	st->cycles += p.delta;
	st->covered_ns += p.time_ns - p.start_ns;

	p.after_gap = d->after_gap;
	d->after_gap = false;
	d->seg_packets++;
	if (d->seg_packets == 1)
		st->segments++;
	if (d->fn)
		d->fn(&p, d->arg);
}

/* the time the hardware started, estimated from a record read at t_ns */
static uint64_t restart_estimate(struct nvpc_decoder *d, const uint8_t *data,
				 uint32_t size, uint64_t t_ns)
{
	unsigned int len = d->h->packet_size;
	uint64_t last;

	if (size < len)
		return t_ns;
	last = nvpc_cycles_to_ns(raw_cycles(data + (size / len - 1) * len),
				 d->hz);
	return last < t_ns ? t_ns - last : 0;
}

/*
 * One sample of a sampled capture: the counts since the previous sample
 * (cumulative perf counts, so a lost sample only merges two entries),
 * timed by the clock leader's own timestamp. A sample of 0 cycles is
 * real there (a domain whose clock stands) and stays in.
 */
static void sample(struct nvpc_decoder *d, const struct nvpc_chunk *c,
		   const void *payload)
{
	struct nvpc_stats *st = d->st;
	struct nvpc_packet p = { 0 };

	if (d->h->kind != NVPC_KIND_SAMPLED)
		return;	/* not in a record capture: left out */
	st->samples++;
	p.index = st->packets++;
	p.nr = d->h->nr_signals;
	if (nvpc_file_decode_sample(payload, c->size, p.nr, &p.delta,
				    p.ctr) ||
	    c->time_ns < d->end_ns || d->cycles + p.delta < d->cycles) {
		impossible(st, &st->bad_cycles);
		return;
	}
	p.segment = d->segment;
	p.cycles = d->cycles + p.delta;
	p.raw_cycles = p.cycles;
	p.start_ns = d->end_ns;
	p.time_ns = c->time_ns;
	p.gap_from_ns = d->end_ns;
	d->cycles = p.cycles;
	d->end_ns = p.time_ns;
	st->last_ns = p.time_ns;
	if (counts_above(&p)) {
		impossible(st, &st->counts_above);
		return;
	}
	p.stop = 1;	/* one sample (after the check: 0 cycles is real) */
	for (unsigned int i = 0; i < p.nr; i++)
		st->sig[i].count = add_sat(st->sig[i].count, p.ctr[i]);
	st->stop_pulses++;
	st->cycles += p.delta;
	st->covered_ns += p.time_ns - p.start_ns;
	p.after_gap = false;
	d->seg_packets++;
	if (d->seg_packets == 1)
		st->segments++;
	if (d->fn)
		d->fn(&p, d->arg);
}

static void aux(struct nvpc_decoder *d, const struct nvpc_chunk *c,
		const uint8_t *data)
{
	unsigned int len = d->h->packet_size;
	uint32_t i = 0;

	d->st->aux_bytes += c->size;
	if (c->flags & NVPC_AUX_TRUNCATED)
		d->st->truncated++;
	if (c->flags & NVPC_AUX_COLLISION)
		d->st->collisions++;
	if (d->expect_valid && c->offset != d->expect_offset) {
		d->st->discontinuities++;
		raise_gap(d, false, 0);
	}
	d->expect_valid = true;
	d->expect_offset = c->offset + c->size;
	if (c->flags & NVPC_AUX_PARTIAL) {
		d->st->partial++;
		raise_gap(d, c->size > 0, restart_estimate(d, data, c->size,
							    c->time_ns));
	}
	if (!c->size)
		return;
	set_read_ns(d, c->time_ns);
	if (d->gap_pending) {
		d->st->torn_bytes += d->carry_len;
		d->carry_len = 0;
		start_segment(d);
	}

	if (d->carry_len) {
		uint32_t n = len - d->carry_len;

		if (n > c->size)
			n = c->size;
		memcpy(d->carry + d->carry_len, data, n);
		d->carry_len += n;
		i = n;
		if (d->carry_len < len)
			return;
		packet(d, d->carry);
		d->carry_len = 0;
	}
	for (; i + len <= c->size; i += len)
		packet(d, data + i);
	memcpy(d->carry, data + i, c->size - i);
	d->carry_len = c->size - i;
}

int nvpc_decoder_init(struct nvpc_decoder *d, const struct nvpc_header *h,
		      uint64_t clock_hz, nvpc_packet_fn fn, void *arg,
		      struct nvpc_stats *st, char *err, size_t errlen)
{
	*d = (struct nvpc_decoder){
		.h = h, .hz = clock_hz, .fn = fn, .arg = arg, .st = st,
	};
	memset(st, 0, sizeof(*st));
	if (!clock_hz) {
		snprintf(err, errlen, "no clock: the capture has none, give --clock HZ");
		return -EINVAL;
	}
	d->check_hz = clock_hz;
	if (h->clock_hz > d->check_hz)
		d->check_hz = h->clock_hz;
	if (h->nominal_hz > d->check_hz)
		d->check_hz = h->nominal_hz;
	if (h->measured_hz > d->check_hz)
		d->check_hz = h->measured_hz;
	set_read_ns(d, 0);
	return 0;
}

void nvpc_decoder_chunk(struct nvpc_decoder *d, const struct nvpc_chunk *c,
			const void *payload)
{
	struct nvpc_stats *st = d->st;

	switch (c->type) {
	case NVPC_CHUNK_AUX:
		if (d->h->kind == NVPC_KIND_RECORD)
			aux(d, c, payload);
		break;
	case NVPC_CHUNK_SAMPLE:
		sample(d, c, payload);
		break;
	case NVPC_CHUNK_RESTART:
		st->restarts++;
		raise_gap(d, true, c->time_ns);
		break;
	case NVPC_CHUNK_LOST:
		st->lost_records += c->offset;
		break;
	case NVPC_CHUNK_END:
		st->have_end = true;
		nvpc_file_decode_end(payload, c->size, &st->end);
		break;
	default:	/* a later version's chunk: skipped */
		break;
	}
}

void nvpc_decoder_finish(struct nvpc_decoder *d)
{
	d->st->torn_bytes += d->carry_len;
	d->carry_len = 0;
}

/*
 * A STREAM chunk among the data: the stream headers are all before it
 * (nvpc.rst "Chunks"), so this is a second one, a corrupt chunk; the
 * packets before it stand.
 */
static int stream_after_headers(const struct nvpc_chunk *c, char *err,
				size_t errlen)
{
	snprintf(err, errlen,
		 "a second header of stream %u, among the packets (a corrupt chunk)",
		 c->stream);
	return -EINVAL;
}

int nvpc_decode(FILE *f, const struct nvpc_header *h, uint64_t clock_hz,
		nvpc_packet_fn fn, void *arg, struct nvpc_stats *st,
		char *err, size_t errlen)
{
	struct nvpc_decoder d;
	struct nvpc_chunk c;
	void *payload;
	int ret;

	if (nvpc_decoder_init(&d, h, clock_hz, fn, arg, st, err, errlen))
		return -EINVAL;
	while ((ret = nvpc_file_read_chunk(f, &c, &payload, err, errlen)) > 0) {
		if (c.type == NVPC_CHUNK_STREAM) {
			free(payload);
			ret = stream_after_headers(&c, err, errlen);
			break;
		}
		/* another domain's, in a capture of several */
		if (c.stream == h->stream)
			nvpc_decoder_chunk(&d, &c, payload);
		free(payload);
	}
	nvpc_decoder_finish(&d);
	return ret;
}

int nvpc_decode_streams(FILE *f, struct nvpc_decoder *d, unsigned int nr,
			char *err, size_t errlen)
{
	struct nvpc_chunk c;
	void *payload;
	int ret;

	while ((ret = nvpc_file_read_chunk(f, &c, &payload, err, errlen)) > 0) {
		if (c.type == NVPC_CHUNK_STREAM) {
			free(payload);
			ret = stream_after_headers(&c, err, errlen);
			break;
		}
		/* a stream the capture does not have: skipped */
		if (c.stream < nr)
			nvpc_decoder_chunk(&d[c.stream], &c, payload);
		free(payload);
	}
	for (unsigned int i = 0; i < nr; i++)
		nvpc_decoder_finish(&d[i]);
	return ret;
}
