// SPDX-License-Identifier: GPL-2.0
/*
 * The nvpc capture file: encoding and decoding (layout in nvpc_file.h and
 * Documentation/nvpc.rst, "File format").
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "nvpc_file.h"

/* header field offsets (Documentation/nvpc.rst, "Header") */
enum {
	HDR_MAGIC = 0,
	HDR_VERSION = 8,
	HDR_HEADER_SIZE = 12,
	HDR_PACKET_SIZE = 16,
	HDR_NR_SIGNALS = 20,
	HDR_CLOCK_HZ = 24,
	HDR_NOMINAL_HZ = 32,
	HDR_MEASURED_HZ = 40,
	HDR_START_REALTIME = 48,
	HDR_START_MONOTONIC = 56,
	HDR_CONFIG = 64,
	HDR_CONFIG1 = 72,
	HDR_CONFIG2 = 80,
	HDR_PMU_TYPE = 88,
	HDR_PERIOD = 92,
	HDR_STOP_SIGNAL = 96,
	HDR_DSET = 100,
	HDR_DOM = 104,
	HDR_UNIT = 108,
	HDR_AUX_PAGES = 112,
	HDR_DATA_PAGES = 116,
	HDR_CHIP = 120,
	HDR_BUS = 152,
	HDR_PMU = 184,
	HDR_DOMAIN = 216,
	HDR_STOP = 248,
	HDR_SIGNALS = 320,	/* 12 x (u32 id, char name[60]) */
	HDR_SIGNAL_SIZE = 64,
	/* version 2 */
	HDR_KIND = 1088,
	HDR_COUNTER_BITS = 1092,
	HDR_SAMPLE_PERIOD = 1096,
	/* version 3 */
	HDR_NR_STREAMS = 1104,
	HDR_STREAM = 1108,		/* then 8 reserved bytes (0) */
};

/* chunk header and END payload offsets */
enum {
	CHK_TYPE = 0,
	CHK_FLAGS = 4,
	CHK_OFFSET = 8,
	CHK_TIME = 16,
	CHK_SIZE = 24,
	CHK_STREAM = 28,
	END_NS = 0,
	END_REASON = 8,
	END_STATUS = 12,
	END_STALLS = 16,
	END_LOST = 24,
	END_HW_PACKETS = 32,
	END_HW_GAPS = 40,
	END_AUX_BYTES = 48,
	END_TRUNCATED = 56,
};

/* the largest chunk payload a reader accepts (a corrupt size is refused) */
#define NVPC_FILE_MAX_PAYLOAD	(256u << 20)
/* the first allocation for a payload: it grows only as bytes arrive */
#define NVPC_FILE_READ_STEP	(64u << 10)

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = v >> (8 * i);
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = v >> (8 * i);
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* a NUL-terminated string in a fixed field (truncated to fit) */
static void putstr(uint8_t *p, const char *s, size_t len)
{
	size_t n = strnlen(s, len - 1);

	memcpy(p, s, n);
	memset(p + n, 0, len - n);
}

static void getstr(char *s, const uint8_t *p, size_t len)
{
	memcpy(s, p, len);
	s[len - 1] = '\0';
}

static int write_all(FILE *f, const void *buf, size_t len)
{
	if (len && fwrite(buf, 1, len, f) != len)
		return errno ? -errno : -EIO;
	return 0;
}

/* the header's bytes into b (NVPC_FILE_HEADER_SIZE_V2): its size */
static size_t encode_header(uint8_t *b, const struct nvpc_header *h)
{
	bool sampled = h->kind == NVPC_KIND_SAMPLED;
	bool streams = h->nr_streams > 1;
	size_t size = sampled || streams ? NVPC_FILE_HEADER_SIZE_V2 :
		      NVPC_FILE_HEADER_SIZE;

	memset(b, 0, NVPC_FILE_HEADER_SIZE_V2);
	memcpy(b + HDR_MAGIC, NVPC_FILE_MAGIC, sizeof(NVPC_FILE_MAGIC));
	/* a record capture of one domain stays version 1: older tools read it */
	put32(b + HDR_VERSION, streams ? NVPC_FILE_VERSION_STREAMS :
		sampled ? NVPC_FILE_VERSION_SAMPLED :
		NVPC_FILE_VERSION_RECORD);
	put32(b + HDR_HEADER_SIZE, size);
	put32(b + HDR_PACKET_SIZE, h->packet_size);
	put32(b + HDR_NR_SIGNALS, h->nr_signals);
	put64(b + HDR_CLOCK_HZ, h->clock_hz);
	put64(b + HDR_NOMINAL_HZ, h->nominal_hz);
	put64(b + HDR_MEASURED_HZ, h->measured_hz);
	put64(b + HDR_START_REALTIME, h->start_realtime_ns);
	put64(b + HDR_START_MONOTONIC, h->start_monotonic_ns);
	put64(b + HDR_CONFIG, h->config);
	put64(b + HDR_CONFIG1, h->config1);
	put64(b + HDR_CONFIG2, h->config2);
	put32(b + HDR_PMU_TYPE, h->pmu_type);
	put32(b + HDR_PERIOD, h->period_cycles);
	put32(b + HDR_STOP_SIGNAL, h->stop_signal);
	put32(b + HDR_DSET, h->dset);
	put32(b + HDR_DOM, h->dom);
	put32(b + HDR_UNIT, h->unit);
	put32(b + HDR_AUX_PAGES, h->aux_pages);
	put32(b + HDR_DATA_PAGES, h->data_pages);
	putstr(b + HDR_CHIP, h->chip, NVPC_FILE_NAME_LEN);
	putstr(b + HDR_BUS, h->bus, NVPC_FILE_NAME_LEN);
	putstr(b + HDR_PMU, h->pmu, NVPC_FILE_NAME_LEN);
	putstr(b + HDR_DOMAIN, h->domain, NVPC_FILE_NAME_LEN);
	putstr(b + HDR_STOP, h->stop, NVPC_FILE_STOP_LEN);
	for (unsigned int i = 0; i < NVPC_FILE_MAX_SIGNALS; i++) {
		uint8_t *s = b + HDR_SIGNALS + i * HDR_SIGNAL_SIZE;

		if (i >= h->nr_signals)
			break;
		put32(s, h->signals[i].id);
		putstr(s + 4, h->signals[i].name, NVPC_FILE_SIGNAME_LEN);
	}
	if (size == NVPC_FILE_HEADER_SIZE_V2) {
		put32(b + HDR_KIND, h->kind);
		put32(b + HDR_COUNTER_BITS, h->counter_bits);
		put64(b + HDR_SAMPLE_PERIOD, h->sample_period_ns);
	}
	if (streams) {
		put32(b + HDR_NR_STREAMS, h->nr_streams);
		put32(b + HDR_STREAM, h->stream);
	}
	return size;
}

int nvpc_file_write_header(FILE *f, const struct nvpc_header *h)
{
	uint8_t b[NVPC_FILE_HEADER_SIZE_V2];
	size_t size = encode_header(b, h);

	return write_all(f, b, size);
}

int nvpc_file_write_stream(FILE *f, const struct nvpc_header *h)
{
	uint8_t b[NVPC_FILE_HEADER_SIZE_V2];
	struct nvpc_chunk c = {
		.type = NVPC_CHUNK_STREAM,
		.stream = h->stream,
	};

	if (h->nr_streams < 2 || !h->stream || h->stream >= h->nr_streams)
		return -EINVAL;
	c.size = encode_header(b, h);
	return nvpc_file_write_chunk(f, &c, b);
}

int nvpc_file_write_chunk(FILE *f, const struct nvpc_chunk *c,
			  const void *payload)
{
	return nvpc_file_write_chunk_split(f, c, payload, c->size, NULL);
}

int nvpc_file_write_chunk_split(FILE *f, const struct nvpc_chunk *c,
				const void *head, uint32_t head_size,
				const void *rest)
{
	uint8_t b[NVPC_FILE_CHUNK_SIZE] = { 0 };
	int ret;

	if (head_size > c->size)
		return -EINVAL;

	put32(b + CHK_TYPE, c->type);
	put32(b + CHK_FLAGS, c->flags);
	put64(b + CHK_OFFSET, c->offset);
	put64(b + CHK_TIME, c->time_ns);
	put32(b + CHK_SIZE, c->size);
	put32(b + CHK_STREAM, c->stream);
	ret = write_all(f, b, sizeof(b));
	if (!ret)
		ret = write_all(f, head, head_size);
	if (!ret && c->size > head_size)
		ret = write_all(f, rest, c->size - head_size);
	return ret;
}

int nvpc_file_write_sample(FILE *f, uint32_t stream, uint64_t time_ns,
			   uint64_t cycles, const uint64_t *count,
			   unsigned int nr)
{
	uint8_t b[8 * (1 + NVPC_FILE_MAX_SIGNALS)];
	struct nvpc_chunk c = {
		.type = NVPC_CHUNK_SAMPLE,
		.stream = stream,
		.time_ns = time_ns,
		.size = 8 * (1 + nr),
	};

	if (nr > NVPC_FILE_MAX_SIGNALS)
		return -EINVAL;
	put64(b, cycles);
	for (unsigned int i = 0; i < nr; i++)
		put64(b + 8 * (1 + i), count[i]);
	return nvpc_file_write_chunk(f, &c, b);
}

int nvpc_file_decode_sample(const void *payload, uint32_t size,
			    unsigned int nr, uint64_t *cycles, uint64_t *count)
{
	const uint8_t *p = payload;

	if (nr > NVPC_FILE_MAX_SIGNALS || size != 8 * (1 + nr))
		return -EINVAL;
	*cycles = get64(p);
	for (unsigned int i = 0; i < nr; i++)
		count[i] = get64(p + 8 * (1 + i));
	return 0;
}

int nvpc_file_write_end(FILE *f, uint32_t stream, uint64_t time_ns,
			const struct nvpc_end *e)
{
	uint8_t b[NVPC_FILE_END_SIZE] = { 0 };
	struct nvpc_chunk c = {
		.type = NVPC_CHUNK_END,
		.stream = stream,
		.time_ns = time_ns,
		.size = sizeof(b),
	};

	put64(b + END_NS, e->end_ns);
	put32(b + END_REASON, e->reason);
	put32(b + END_STATUS, (uint32_t)e->status);
	put64(b + END_STALLS, e->stalls);
	put64(b + END_LOST, e->lost);
	put64(b + END_HW_PACKETS, (uint64_t)e->hw_packets);
	put64(b + END_HW_GAPS, (uint64_t)e->hw_gaps);
	put64(b + END_AUX_BYTES, e->aux_bytes);
	put64(b + END_TRUNCATED, e->truncated);
	return nvpc_file_write_chunk(f, &c, b);
}

/* read and drop len bytes: how many there were */
static size_t skip(FILE *f, size_t len)
{
	uint8_t b[4096];
	size_t done = 0, n;

	while (done < len) {
		n = len - done < sizeof(b) ? len - done : sizeof(b);
		n = fread(b, 1, n, f);
		if (!n)
			break;
		done += n;
	}
	return done;
}

/*
 * The payload of len bytes into a malloc()ed buffer, grown as the bytes
 * arrive (a corrupt size in a short file allocates no more than the file
 * holds): bytes read, *payload NULL on ENOMEM.
 */
static size_t read_payload(FILE *f, uint32_t len, void **payload)
{
	size_t cap = len < NVPC_FILE_READ_STEP ? len : NVPC_FILE_READ_STEP;
	uint8_t *p = malloc(cap ? cap : 1), *grown;
	size_t done = 0, n;

	while (p && done < len) {
		if (done == cap) {
			cap = cap * 2 < len ? cap * 2 : len;
			grown = realloc(p, cap);
			if (!grown) {
				free(p);
				p = NULL;
				break;
			}
			p = grown;
		}
		n = fread(p + done, 1, cap - done, f);
		if (!n)
			break;
		done += n;
	}
	*payload = p;
	return done;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int decode_fields(const uint8_t *b, struct nvpc_header *h,
			 char *err, size_t errlen);

int nvpc_file_read_header(FILE *f, struct nvpc_header *h,
			  char *err, size_t errlen)
{
	uint8_t b[NVPC_FILE_HEADER_SIZE_V2] = { 0 };
	size_t n = fread(b, 1, NVPC_FILE_HEADER_SIZE, f);
	size_t want;

	memset(h, 0, sizeof(*h));
	if (n < HDR_HEADER_SIZE + 4 ||
	    memcmp(b, NVPC_FILE_MAGIC, sizeof(NVPC_FILE_MAGIC)))
		return fail(err, errlen,
			    "not an nvpc capture (no \"%s\" magic)",
			    NVPC_FILE_MAGIC);
	h->version = get32(b + HDR_VERSION);
	h->header_size = get32(b + HDR_HEADER_SIZE);
	if (h->version < NVPC_FILE_VERSION_RECORD ||
	    h->version > NVPC_FILE_VERSION)
		return fail(err, errlen,
			    "capture format version %u, this nvpc reads versions 1 to %u",
			    h->version, NVPC_FILE_VERSION);
	want = h->version >= NVPC_FILE_VERSION_SAMPLED ?
	       NVPC_FILE_HEADER_SIZE_V2 : NVPC_FILE_HEADER_SIZE;
	if (n == NVPC_FILE_HEADER_SIZE && want > n)
		n += fread(b + n, 1, want - n, f);
	if (n < want)
		return fail(err, errlen,
			    "truncated header: the file ends after %zu of its %zu bytes",
			    n, want);
	if (h->header_size < want || h->header_size > NVPC_FILE_MAX_HEADER)
		return fail(err, errlen,
			    "corrupt header: header_size %u (%zu to %d)",
			    h->header_size, want, NVPC_FILE_MAX_HEADER);
	/* a later minor revision may append fields: skip them */
	n = skip(f, h->header_size - want);
	if (n < h->header_size - want)
		return fail(err, errlen,
			    "truncated header: header_size %u, the file ends after %zu bytes",
			    h->header_size, want + n);
	if (decode_fields(b, h, err, errlen))
		return -EINVAL;
	if (h->stream)
		return fail(err, errlen,
			    "corrupt header: the file's header is stream %u's, not stream 0's",
			    h->stream);
	return 0;
}

/*
 * The fields of a header whose magic, version and size were checked (b
 * holds NVPC_FILE_HEADER_SIZE_V2 bytes, zeros past a version 1 header's
 * end): 0 or -EINVAL.
 */
static int decode_fields(const uint8_t *b, struct nvpc_header *h,
			 char *err, size_t errlen)
{
	h->packet_size = get32(b + HDR_PACKET_SIZE);
	h->nr_signals = get32(b + HDR_NR_SIGNALS);
	h->clock_hz = get64(b + HDR_CLOCK_HZ);
	h->nominal_hz = get64(b + HDR_NOMINAL_HZ);
	h->measured_hz = get64(b + HDR_MEASURED_HZ);
	h->start_realtime_ns = get64(b + HDR_START_REALTIME);
	h->start_monotonic_ns = get64(b + HDR_START_MONOTONIC);
	h->config = get64(b + HDR_CONFIG);
	h->config1 = get64(b + HDR_CONFIG1);
	h->config2 = get64(b + HDR_CONFIG2);
	h->pmu_type = get32(b + HDR_PMU_TYPE);
	h->period_cycles = get32(b + HDR_PERIOD);
	h->stop_signal = get32(b + HDR_STOP_SIGNAL);
	h->dset = get32(b + HDR_DSET);
	h->dom = get32(b + HDR_DOM);
	h->unit = get32(b + HDR_UNIT);
	h->aux_pages = get32(b + HDR_AUX_PAGES);
	h->data_pages = get32(b + HDR_DATA_PAGES);
	getstr(h->chip, b + HDR_CHIP, NVPC_FILE_NAME_LEN);
	getstr(h->bus, b + HDR_BUS, NVPC_FILE_NAME_LEN);
	getstr(h->pmu, b + HDR_PMU, NVPC_FILE_NAME_LEN);
	getstr(h->domain, b + HDR_DOMAIN, NVPC_FILE_NAME_LEN);
	getstr(h->stop, b + HDR_STOP, NVPC_FILE_STOP_LEN);
	h->kind = NVPC_KIND_RECORD;
	h->counter_bits = 16;
	if (h->version >= NVPC_FILE_VERSION_SAMPLED) {
		h->kind = get32(b + HDR_KIND);
		h->counter_bits = get32(b + HDR_COUNTER_BITS);
		h->sample_period_ns = get64(b + HDR_SAMPLE_PERIOD);
	}
	if (h->kind == NVPC_KIND_SAMPLED) {
		if (h->counter_bits < 1 || h->counter_bits > 64)
			return fail(err, errlen,
				    "sampled capture with %u-bit counters (1 to 64)",
				    h->counter_bits);
		if (!h->sample_period_ns)
			return fail(err, errlen,
				    "sampled capture with a sample period of 0 ns");
		if (h->nr_signals < 1 ||
		    h->nr_signals > NVPC_FILE_MAX_SIGNALS)
			return fail(err, errlen, "%u signals (1 to %d)",
				    h->nr_signals, NVPC_FILE_MAX_SIGNALS);
	} else if (h->kind != NVPC_KIND_RECORD) {
		return fail(err, errlen, "capture of kind %u (0 record, 1 sampled)",
			    h->kind);
	} else if (h->packet_size != 16 && h->packet_size != 32) {
		return fail(err, errlen, "packet size %u (16 or 32 expected)",
			    h->packet_size);
	} else if (h->nr_signals < 1 ||
		   h->nr_signals > (h->packet_size == 16 ? 4u : 12u)) {
		return fail(err, errlen, "%u signals in %u-byte packets",
			    h->nr_signals, h->packet_size);
	}
	for (unsigned int i = 0; i < h->nr_signals; i++) {
		const uint8_t *s = b + HDR_SIGNALS + i * HDR_SIGNAL_SIZE;

		h->signals[i].id = get32(s);
		getstr(h->signals[i].name, s + 4, NVPC_FILE_SIGNAME_LEN);
	}
	h->nr_streams = 1;
	h->stream = 0;
	if (h->version >= NVPC_FILE_VERSION_STREAMS) {
		h->nr_streams = get32(b + HDR_NR_STREAMS);
		h->stream = get32(b + HDR_STREAM);
		if (h->nr_streams < 1 ||
		    h->nr_streams > NVPC_FILE_MAX_STREAMS)
			return fail(err, errlen, "%u streams (1 to %d)",
				    h->nr_streams, NVPC_FILE_MAX_STREAMS);
		if (h->stream >= h->nr_streams)
			return fail(err, errlen, "stream %u of %u",
				    h->stream, h->nr_streams);
	}
	return 0;
}

/* a STREAM chunk's header (the stream's fields, as the file's header) */
static int decode_stream(const struct nvpc_chunk *c, const uint8_t *p,
			 const struct nvpc_header *h0, struct nvpc_header *h,
			 char *err, size_t errlen)
{
	uint8_t b[NVPC_FILE_HEADER_SIZE_V2];

	memset(h, 0, sizeof(*h));
	if (c->size < NVPC_FILE_HEADER_SIZE_V2 ||
	    memcmp(p, NVPC_FILE_MAGIC, sizeof(NVPC_FILE_MAGIC)))
		return fail(err, errlen,
			    "stream %u: a corrupt STREAM chunk (%u bytes)",
			    c->stream, c->size);
	memcpy(b, p, sizeof(b));
	h->version = get32(b + HDR_VERSION);
	h->header_size = get32(b + HDR_HEADER_SIZE);
	if (h->version != NVPC_FILE_VERSION_STREAMS)
		return fail(err, errlen,
			    "stream %u: header of version %u in a version %u capture",
			    c->stream, h->version, h0->version);
	if (decode_fields(b, h, err, errlen))
		return -EINVAL;
	if (h->stream != c->stream || h->nr_streams != h0->nr_streams)
		return fail(err, errlen,
			    "stream %u: its header says stream %u of %u, the capture has %u",
			    c->stream, h->stream, h->nr_streams,
			    h0->nr_streams);
	return 0;
}

int nvpc_file_read_capture(FILE *f, struct nvpc_capture *cap,
			   char *err, size_t errlen)
{
	uint64_t seen = 1;

	cap->nr = 0;
	if (nvpc_file_read_header(f, &cap->h[0], err, errlen))
		return -EINVAL;
	for (unsigned int i = 1; i < cap->h[0].nr_streams; i++) {
		struct nvpc_header h;
		struct nvpc_chunk c;
		void *p;
		int ret = nvpc_file_read_chunk(f, &c, &p, err, errlen);

		if (ret < 0)
			return ret;
		if (!ret || c.type != NVPC_CHUNK_STREAM) {
			free(p);
			return fail(err, errlen,
				    "%u streams, but the header of stream %u is not there",
				    cap->h[0].nr_streams, i);
		}
		ret = decode_stream(&c, p, &cap->h[0], &h, err, errlen);
		free(p);
		if (ret)
			return ret;
		if (!h.stream || (seen & (1ULL << h.stream)))
			return fail(err, errlen, "stream %u: a second header",
				    h.stream);
		seen |= 1ULL << h.stream;
		cap->h[h.stream] = h;
	}
	/* record refuses a domain given twice: a capture never has one */
	for (unsigned int i = 1; i < cap->h[0].nr_streams; i++)
		for (unsigned int j = 0; j < i; j++)
			if (!strncmp(cap->h[i].domain, cap->h[j].domain,
				     sizeof(cap->h[i].domain)))
				return fail(err, errlen,
					    "streams %u and %u are of the same domain",
					    j, i);
	cap->nr = cap->h[0].nr_streams;
	cap->data_offset = ftell(f);
	return 0;
}

int nvpc_file_read_chunk(FILE *f, struct nvpc_chunk *c, void **payload,
			 char *err, size_t errlen)
{
	uint8_t b[NVPC_FILE_CHUNK_SIZE];
	size_t n = fread(b, 1, sizeof(b), f);
	void *p;

	*payload = NULL;
	if (n == 0 && feof(f))
		return 0;
	if (n < sizeof(b))
		return fail(err, errlen, "torn chunk header at the end (%zu of %d bytes)",
			    n, NVPC_FILE_CHUNK_SIZE);
	c->type = get32(b + CHK_TYPE);
	c->flags = get32(b + CHK_FLAGS);
	c->offset = get64(b + CHK_OFFSET);
	c->time_ns = get64(b + CHK_TIME);
	c->size = get32(b + CHK_SIZE);
	c->stream = get32(b + CHK_STREAM);
	if (c->size > NVPC_FILE_MAX_PAYLOAD)
		return fail(err, errlen, "chunk of %u bytes (corrupt file?)",
			    c->size);
	n = read_payload(f, c->size, &p);
	if (!p)
		return -ENOMEM;
	if (n < c->size) {
		free(p);
		return fail(err, errlen, "torn chunk at the end (%zu of %u bytes)",
			    n, c->size);
	}
	*payload = p;
	return 1;
}

void nvpc_file_decode_end(const void *payload, uint32_t size,
			  struct nvpc_end *e)
{
	uint8_t b[NVPC_FILE_END_SIZE] = { 0 };

	memcpy(b, payload, size < sizeof(b) ? size : sizeof(b));
	e->end_ns = get64(b + END_NS);
	e->reason = get32(b + END_REASON);
	e->status = (int32_t)get32(b + END_STATUS);
	e->stalls = get64(b + END_STALLS);
	e->lost = get64(b + END_LOST);
	e->hw_packets = (int64_t)get64(b + END_HW_PACKETS);
	e->hw_gaps = (int64_t)get64(b + END_HW_GAPS);
	e->aux_bytes = get64(b + END_AUX_BYTES);
	e->truncated = get64(b + END_TRUNCATED);
}

const char *nvpc_end_reason_name(uint32_t reason)
{
	static const char * const names[] = {
		[NVPC_END_UNKNOWN] = "unknown",
		[NVPC_END_COMMAND] = "command exited",
		[NVPC_END_SIGNAL] = "interrupted",
		[NVPC_END_DURATION] = "duration elapsed",
		[NVPC_END_FAULT] = "domain faulted",
		[NVPC_END_ERROR] = "error",
		[NVPC_END_GONE] = "GPU gone",
		[NVPC_END_HUP] = "event hung up",
	};

	if (reason < sizeof(names) / sizeof(names[0]))
		return names[reason];
	return "unknown";
}
