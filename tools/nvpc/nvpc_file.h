/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The nvpc capture file (Documentation/nvpc.rst, "File format"): a fixed
 * header that describes the recording, then chunks, each a 32-byte chunk
 * header and its payload. Every integer is little-endian on disk; the
 * code below encodes and decodes each field by its offset, never by
 * writing a C struct, so the format is the same on every host.
 */
#ifndef NVPC_FILE_H
#define NVPC_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define NVPC_FILE_MAGIC		"NVPCREC"	/* 8 bytes with the NUL */
/*
 * Version 1: record mode (AUX chunks of packets), a 1088-byte header.
 * Version 2: sampled (SAMPLE chunks), the header grown to 1120 bytes by
 * kind, counter_bits and sample_period_ns. Record captures are still
 * written as version 1, so older tools read them; an older tool refuses a
 * sampled capture by its version instead of showing it empty.
 * Version 3: several domains (streams) in one capture. The header is
 * stream 0's, with nr_streams; a STREAM chunk after it holds each other
 * stream's header, and every chunk names its stream. Captures of one
 * domain are still written as version 1 or 2.
 */
#define NVPC_FILE_VERSION	3	/* the newest this tool reads */
#define NVPC_FILE_VERSION_RECORD 1
#define NVPC_FILE_VERSION_SAMPLED 2
#define NVPC_FILE_VERSION_STREAMS 3
#define NVPC_FILE_MAX_STREAMS	64	/* domains in one capture */
#define NVPC_FILE_HEADER_SIZE	1088	/* version 1 */
#define NVPC_FILE_HEADER_SIZE_V2 1120
#define NVPC_FILE_MAX_HEADER	65536	/* header_size a reader accepts */
#define NVPC_FILE_CHUNK_SIZE	32
#define NVPC_FILE_END_SIZE	64
#define NVPC_FILE_MAX_SIGNALS	12
#define NVPC_FILE_NAME_LEN	32	/* chip, bus, pmu, domain */
#define NVPC_FILE_STOP_LEN	64
#define NVPC_FILE_SIGNAME_LEN	60

/* chunk types */
#define NVPC_CHUNK_AUX		1	/* AUX bytes of one PERF_RECORD_AUX */
#define NVPC_CHUNK_RESTART	2	/* the tool re-enabled a stopped event */
#define NVPC_CHUNK_LOST		3	/* PERF_RECORD_LOST: records lost */
#define NVPC_CHUNK_END		4	/* the recording ended (payload: end) */
#define NVPC_CHUNK_SAMPLE	5	/* one sample: u64 cycles, u64 count[nr] */
#define NVPC_CHUNK_STREAM	6	/* version 3: another stream's header */

/* what made the entries (the header's kind, version 2) */
#define NVPC_KIND_RECORD	0	/* record-mode packets in AUX chunks */
#define NVPC_KIND_SAMPLED	1	/* clock-led perf group samples */

/* PERF_RECORD_AUX flags, as perf_event.h gives them */
#define NVPC_AUX_TRUNCATED	0x01
#define NVPC_AUX_OVERWRITE	0x02
#define NVPC_AUX_PARTIAL	0x04
#define NVPC_AUX_COLLISION	0x08

/* why a recording ended */
enum nvpc_end_reason {
	NVPC_END_UNKNOWN = 0,
	NVPC_END_COMMAND = 1,	/* the command exited */
	NVPC_END_SIGNAL = 2,	/* SIGINT or SIGTERM */
	NVPC_END_DURATION = 3,	/* --duration elapsed */
	NVPC_END_FAULT = 4,	/* the domain hit a VM fault */
	NVPC_END_ERROR = 5,	/* an error of the tool (write, mmap ...) */
	NVPC_END_GONE = 6,	/* the GPU went away */
	NVPC_END_HUP = 7,	/* the event hung up (POLLHUP) */
};

struct nvpc_signal {
	uint32_t id;
	char name[NVPC_FILE_SIGNAME_LEN];
};

/* what a recording is: the file's header */
struct nvpc_header {
	uint32_t version;
	uint32_t header_size;
	uint32_t packet_size;		/* 16 or 32 */
	uint32_t nr_signals;		/* counters in use, 1..12 */
	uint64_t clock_hz;		/* cycles -> time (report) */
	uint64_t nominal_hz;		/* domains/<dom>/nominal_hz */
	uint64_t measured_hz;		/* domains/<dom>/clock_hz at start */
	uint64_t start_realtime_ns;	/* CLOCK_REALTIME at the enable */
	uint64_t start_monotonic_ns;	/* CLOCK_MONOTONIC at the enable */
	uint64_t config, config1, config2;
	uint32_t pmu_type;
	uint32_t period_cycles;		/* STOP every N cycles, 0: a signal */
	uint32_t stop_signal;		/* STOP signal id (period 0) */
	uint32_t dset, dom, unit;
	uint32_t aux_pages, data_pages;
	char chip[NVPC_FILE_NAME_LEN];
	char bus[NVPC_FILE_NAME_LEN];
	char pmu[NVPC_FILE_NAME_LEN];
	char domain[NVPC_FILE_NAME_LEN];
	char stop[NVPC_FILE_STOP_LEN];	/* "every 1024 cycles", "graph_idle" */
	struct nvpc_signal signals[NVPC_FILE_MAX_SIGNALS];
	/* version 2 (version 1 reads as kind RECORD, 16 bits, 0 ns) */
	uint32_t kind;			/* NVPC_KIND_* */
	uint32_t counter_bits;		/* width of each count in an entry */
	uint64_t sample_period_ns;	/* SAMPLED: the clock's period */
	/* version 3 (before: one stream, 0) */
	uint32_t nr_streams;		/* domains in the capture, >= 1 */
	uint32_t stream;		/* which of them this header is */
};

struct nvpc_chunk {
	uint32_t type;
	uint32_t flags;
	uint64_t offset;	/* AUX: aux_offset; LOST: records lost */
	uint64_t time_ns;	/* monotonic, since start_monotonic_ns */
	uint32_t size;		/* payload bytes */
	uint32_t stream;	/* version 3: its stream (before: 0) */
};

/* the END chunk's payload */
struct nvpc_end {
	uint64_t end_ns;	/* since start_monotonic_ns */
	uint32_t reason;	/* enum nvpc_end_reason */
	int32_t status;		/* the command's wait status, -1 none */
	uint64_t stalls;	/* record_stalls growth: full AUX area */
	uint64_t lost;		/* PERF_RECORD_LOST records lost */
	int64_t hw_packets;	/* record_packets growth, -1 unknown */
	int64_t hw_gaps;	/* record_gaps growth, -1 unknown */
	uint64_t aux_bytes;	/* AUX bytes copied */
	uint64_t truncated;	/* records flagged TRUNCATED */
};

/*
 * Writing: each returns 0 or -errno. A header with nr_streams above 1 is
 * written as version 3 (stream 0's); each other stream's header follows
 * it as a STREAM chunk (nvpc_file_write_stream()), before any other
 * chunk.
 */
int nvpc_file_write_header(FILE *f, const struct nvpc_header *h);
int nvpc_file_write_stream(FILE *f, const struct nvpc_header *h);
int nvpc_file_write_chunk(FILE *f, const struct nvpc_chunk *c,
			  const void *payload);
/*
 * The same chunk with its c->size payload bytes in two places: head_size
 * at head, the rest at rest (the end and the start of a ring, written
 * without a copy in between). -EINVAL if head_size exceeds c->size.
 */
int nvpc_file_write_chunk_split(FILE *f, const struct nvpc_chunk *c,
				const void *head, uint32_t head_size,
				const void *rest);
/* a SAMPLE chunk: the cycles and each signal's count since the last */
int nvpc_file_write_sample(FILE *f, uint32_t stream, uint64_t time_ns,
			   uint64_t cycles, const uint64_t *count,
			   unsigned int nr);
int nvpc_file_write_end(FILE *f, uint32_t stream, uint64_t time_ns,
			const struct nvpc_end *e);

/*
 * Reading: the header (0, or -EINVAL with a message in err for a file
 * that is not an nvpc capture of a version this tool reads, or whose
 * header is corrupt or cut), then each
 * chunk: 1 with *payload a malloc()ed buffer of c->size bytes (the
 * caller frees it), 0 at the end of the file, -EINVAL for a torn or
 * corrupt chunk (err says which).
 */
int nvpc_file_read_header(FILE *f, struct nvpc_header *h,
			  char *err, size_t errlen);
int nvpc_file_read_chunk(FILE *f, struct nvpc_chunk *c, void **payload,
			 char *err, size_t errlen);
void nvpc_file_decode_end(const void *payload, uint32_t size,
			  struct nvpc_end *e);

/* a SAMPLE payload of nr counts: 0, or -EINVAL for a wrong size */
int nvpc_file_decode_sample(const void *payload, uint32_t size,
			    unsigned int nr, uint64_t *cycles, uint64_t *count);

/*
 * A whole capture's headers: the file's header, then (version 3) the
 * STREAM chunks after it; the file is left at the first other chunk,
 * whose offset is data_offset (to seek back to for each stream's pass).
 * 0, or -EINVAL with a message in err; -ENOMEM.
 */
struct nvpc_capture {
	unsigned int nr;			/* streams */
	long data_offset;
	struct nvpc_header h[NVPC_FILE_MAX_STREAMS];
};

int nvpc_file_read_capture(FILE *f, struct nvpc_capture *cap,
			   char *err, size_t errlen);

const char *nvpc_end_reason_name(uint32_t reason);

#endif /* NVPC_FILE_H */
