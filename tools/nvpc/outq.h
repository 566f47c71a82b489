/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capture's writer: a stdio stream whose bytes a thread of their own
 * writes to a file descriptor, through a ring in memory (outq.c).
 */
#ifndef NVPC_OUTQ_H
#define NVPC_OUTQ_H

#include <stdint.h>
#include <stdio.h>

/* the ring's default and limits (nvpc record --write-buffer) */
#define NVPC_OUTQ_DEFAULT	(64ULL << 20)
#define NVPC_OUTQ_MIN		(64ULL << 10)
#define NVPC_OUTQ_MAX		(16ULL << 30)

/*
 * What the writer saw. The producer's fields (queued, peak, waits,
 * wait_ns) are the stream user's own and may be read at any time from
 * its thread; written and write_max_ns are final once the stream is
 * closed.
 */
struct nvpc_outq_stats {
	uint64_t size;		/* the ring, bytes */
	uint64_t queued;	/* bytes put into the ring */
	uint64_t peak;		/* the most bytes waiting at once */
	uint64_t waits;		/* writes into the stream that found it full */
	uint64_t wait_ns;	/* how long they waited for room, in all */
	uint64_t written;	/* bytes the thread wrote */
	uint64_t write_max_ns;	/* its longest write(2) */
};

/*
 * nvpc_outq_open() - a stream for writing to @fd through a ring of @size
 * bytes and a writer thread. The stream owns @fd: fclose() waits until
 * everything queued is written (or a write failed), closes @fd and fails
 * with the first write error in errno. A write into the stream blocks
 * while the ring is full; after a write error it fails with that error.
 * The thread blocks every signal (a closed pipe is EPIPE, not SIGPIPE).
 * @st is filled as documented above and must outlive the stream.
 * NULL with errno on failure (@fd is then not closed).
 */
FILE *nvpc_outq_open(int fd, uint64_t size, struct nvpc_outq_stats *st);

#endif
