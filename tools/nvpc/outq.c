// SPDX-License-Identifier: GPL-2.0
/*
 * The capture's writer (Documentation/nvpc.rst, nvpc record
 * --write-buffer). nvpc record reads the AUX areas in one loop; were that
 * loop to write the capture itself, every write that blocks (a file
 * system throttling writeback, a network file system, a pipe whose reader
 * is behind) would leave the AUX areas unread, and at a real GPU's rate
 * (18 MB/s a domain) a 4 MiB area is full in a quarter of a second: a
 * stall, and the counts since the last packet lost. So the loop's writes
 * go into a ring in memory and a thread of their own writes the ring to
 * the file: the AUX areas wait only when the ring is full, and the
 * summary then says that the output, not the driver, fell behind.
 *
 * The stream is a glibc cookie stream (fopencookie): the capture's
 * writers (nvpc_file.c) stay plain stdio.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nvpc_util.h"
#include "outq.h"

/* at most this much in one write(2): the ring frees as it goes */
#define OUTQ_WRITE_MAX		(1U << 20)
/* the stream's own buffer in front of the ring */
#define OUTQ_STDIO_BUF		(64U << 10)

struct outq {
	pthread_mutex_t lock;
	pthread_cond_t more;	/* bytes queued, or closing */
	pthread_cond_t room;	/* bytes written, or a write failed */
	pthread_t thread;
	int fd;
	uint8_t *buf;
	uint64_t size;
	uint64_t head;		/* bytes queued since the open */
	uint64_t tail;		/* bytes written (or dropped after an error) */
	uint64_t base;		/* the count at the ring's start */
	int err;		/* the first write error */
	bool closing;
	struct nvpc_outq_stats *st;
};

static void *writer(void *arg)
{
	struct outq *q = arg;

	pthread_mutex_lock(&q->lock);
	for (;;) {
		uint64_t pos, len, t0, took;
		int ret = 0;

		while (q->head == q->tail && !q->closing)
			pthread_cond_wait(&q->more, &q->lock);
		if (q->head == q->tail)
			break;	/* closing, and everything written */
		pos = (q->tail - q->base) % q->size;
		len = q->head - q->tail;
		if (len > q->size - pos)
			len = q->size - pos;
		if (len > OUTQ_WRITE_MAX)
			len = OUTQ_WRITE_MAX;
		if (!q->err) {
			/* the producer only appends: these bytes stay put */
			pthread_mutex_unlock(&q->lock);
			t0 = nvpc_now_ns(CLOCK_MONOTONIC);
			ret = nvpc_write_all(q->fd, q->buf + pos, len);
			took = nvpc_now_ns(CLOCK_MONOTONIC) - t0;
			pthread_mutex_lock(&q->lock);
			if (took > q->st->write_max_ns)
				q->st->write_max_ns = took;
			if (ret)
				q->err = -ret;
			else
				q->st->written += len;
		}
		/* after an error the rest is dropped: fclose reports it */
		q->tail += len;
		pthread_cond_signal(&q->room);
	}
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

/* the thread writes what is queued and ends */
static void stop_writer(struct outq *q)
{
	pthread_mutex_lock(&q->lock);
	q->closing = true;
	pthread_cond_signal(&q->more);
	pthread_mutex_unlock(&q->lock);
	pthread_join(q->thread, NULL);
}

/* the thread ended: what nvpc_outq_open() made */
static void outq_free(struct outq *q)
{
	pthread_cond_destroy(&q->more);
	pthread_cond_destroy(&q->room);
	pthread_mutex_destroy(&q->lock);
	free(q->buf);
	free(q);
}

static ssize_t outq_write(void *cookie, const char *buf, size_t n)
{
	struct outq *q = cookie;
	size_t done = 0;
	bool waited = false;

	pthread_mutex_lock(&q->lock);
	while (done < n && !q->err) {
		uint64_t used = q->head - q->tail, pos, len = n - done;

		if (used == q->size) {
			uint64_t t0 = nvpc_now_ns(CLOCK_MONOTONIC);

			if (!waited)
				q->st->waits++;
			waited = true;
			pthread_cond_wait(&q->room, &q->lock);
			q->st->wait_ns += nvpc_now_ns(CLOCK_MONOTONIC) - t0;
			continue;
		}
		/*
		 * empty (the thread kept up): start again at the ring's
		 * start, so a writer that keeps up reuses the same few
		 * pages, in the cache, rather than walk all of the ring
		 */
		if (!used)
			q->base = q->head;
		pos = (q->head - q->base) % q->size;
		if (len > q->size - used)
			len = q->size - used;
		if (len > q->size - pos)
			len = q->size - pos;
		/* room past head: the thread does not touch it */
		pthread_mutex_unlock(&q->lock);
		memcpy(q->buf + pos, buf + done, len);
		pthread_mutex_lock(&q->lock);
		q->head += len;
		done += len;
		q->st->queued += len;
		if (q->head - q->tail > q->st->peak)
			q->st->peak = q->head - q->tail;
		pthread_cond_signal(&q->more);
	}
	if (done < n) {
		errno = q->err;
		pthread_mutex_unlock(&q->lock);
		return done ? (ssize_t)done : -1;
	}
	pthread_mutex_unlock(&q->lock);
	return n;
}

static int outq_close(void *cookie)
{
	struct outq *q = cookie;
	int err;

	stop_writer(q);
	err = q->err;
	if (close(q->fd) && !err)
		err = errno;	/* a network file system says it here */
	outq_free(q);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

FILE *nvpc_outq_open(int fd, uint64_t size, struct nvpc_outq_stats *st)
{
	cookie_io_functions_t io = { .write = outq_write, .close = outq_close };
	sigset_t all, old;
	struct outq *q;
	FILE *f;
	int ret;

	if (size < NVPC_OUTQ_MIN || size > NVPC_OUTQ_MAX) {
		errno = EINVAL;
		return NULL;
	}
	q = calloc(1, sizeof(*q));
	if (!q)
		return NULL;
	q->buf = malloc(size);
	if (!q->buf) {
		free(q);
		errno = ENOMEM;
		return NULL;
	}
	memset(st, 0, sizeof(*st));
	st->size = size;
	q->st = st;
	q->size = size;
	q->fd = fd;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->more, NULL);
	pthread_cond_init(&q->room, NULL);
	/* the thread takes no signal: the caller's thread handles them */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&q->thread, NULL, writer, q);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!ret) {
		f = fopencookie(q, "w", io);
		if (f) {
			setvbuf(f, NULL, _IOFBF, OUTQ_STDIO_BUF);
			return f;
		}
		ret = errno;
		stop_writer(q);
	}
	outq_free(q);
	errno = ret;
	return NULL;
}
