// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of nvpc record's capture writer (tools/nvpc/outq.c): every
 * byte arrives in order through a ring far smaller than what passes, a
 * full ring makes the writer wait (and says so in its stats), a write
 * error or a closed pipe comes back from fclose() with its errno, and a
 * ring outside the limits is refused.
 */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outq.h"
#include "kselftest_harness.h"

#define TOTAL	(8U << 20)

/* byte i of the stream */
static uint8_t pattern(uint64_t i)
{
	return (uint8_t)(i * 2654435761u >> 13);
}

struct slow_reader {
	int fd;
	uint64_t got, wrong;
};

/* reads in 4 KiB pieces with a pause every 256 KiB: the sink is slow */
static void *slow_read(void *arg)
{
	struct slow_reader *r = arg;
	uint8_t buf[4096];
	ssize_t n;

	while ((n = read(r->fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++)
			r->wrong += buf[i] != pattern(r->got + i);
		if ((r->got + n) / (256 << 10) != r->got / (256 << 10))
			usleep(5000);
		r->got += n;
	}
	return NULL;
}

TEST(slow_pipe_every_byte_in_order)
{
	struct nvpc_outq_stats st;
	struct slow_reader r = { 0 };
	pthread_t t;
	uint8_t *src = malloc(TOTAL);
	uint64_t off = 0, step = 1;
	int p[2];
	FILE *f;

	ASSERT_NE(NULL, src);
	for (uint64_t i = 0; i < TOTAL; i++)
		src[i] = pattern(i);
	ASSERT_EQ(0, pipe(p));
	r.fd = p[0];
	ASSERT_EQ(0, pthread_create(&t, NULL, slow_read, &r));
	f = nvpc_outq_open(p[1], NVPC_OUTQ_MIN, &st);
	ASSERT_NE(NULL, f);
	/* pieces of 1 byte to 512 KiB, larger than the ring too */
	while (off < TOTAL) {
		uint64_t n = step < TOTAL - off ? step : TOTAL - off;

		ASSERT_EQ(n, fwrite(src + off, 1, n, f));
		off += n;
		step = step >= (512 << 10) ? 1 : step * 3 + 1;
	}
	ASSERT_EQ(0, fclose(f));
	ASSERT_EQ(0, pthread_join(t, NULL));
	close(p[0]);
	EXPECT_EQ(TOTAL, r.got);
	EXPECT_EQ(0, r.wrong);
	EXPECT_EQ(NVPC_OUTQ_MIN, st.size);
	EXPECT_EQ(TOTAL, st.queued);
	EXPECT_EQ(TOTAL, st.written);
	/* 128 times the ring through a reader that pauses: it filled */
	EXPECT_EQ(NVPC_OUTQ_MIN, st.peak);
	EXPECT_LT(0, st.waits);
	EXPECT_LT(0, st.wait_ns);
	EXPECT_LT(0, st.write_max_ns);
	free(src);
}

TEST(ring_larger_than_the_stream_never_waits)
{
	struct nvpc_outq_stats st;
	static uint8_t buf[1 << 20];
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	FILE *f;

	ASSERT_LE(0, fd);
	f = nvpc_outq_open(fd, 4U << 20, &st);
	ASSERT_NE(NULL, f);
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(sizeof(buf), fwrite(buf, 1, sizeof(buf), f));
	ASSERT_EQ(0, fclose(f));
	EXPECT_EQ(3U << 20, st.queued);
	EXPECT_EQ(3U << 20, st.written);
	EXPECT_EQ(0, st.waits);
	EXPECT_EQ(0, st.wait_ns);
	EXPECT_GE(3U << 20, st.peak);
}

/*
 * Write @n bytes in 1 MiB pieces into a 64K ring to @fd: the thread's
 * error @err comes back from fclose(), and at a later write if @n
 * exceeds the ring; nothing counts as written.
 */
static void close_fails(struct __test_metadata *_metadata, int fd, size_t n,
			int err)
{
	static uint8_t buf[1 << 20];
	struct nvpc_outq_stats st;
	size_t failed = 0;
	FILE *f;

	ASSERT_LE(0, fd);
	f = nvpc_outq_open(fd, NVPC_OUTQ_MIN, &st);
	ASSERT_NE(NULL, f);
	for (size_t off = 0; off < n; off += sizeof(buf)) {
		size_t len = n - off < sizeof(buf) ? n - off : sizeof(buf);

		failed += fwrite(buf, 1, len, f) != len;
	}
	if (n > NVPC_OUTQ_MIN)
		EXPECT_LT(0, failed);
	errno = 0;
	EXPECT_EQ(EOF, fclose(f));
	EXPECT_EQ(err, errno);
	EXPECT_EQ(0, st.written);
}

/* /dev/full: ENOSPC from the thread, at a later write and at fclose */
TEST(write_error_comes_back)
{
	close_fails(_metadata, open("/dev/full", O_WRONLY | O_CLOEXEC),
		    8U << 20, ENOSPC);
}

/* a reader gone: EPIPE from fclose, and the process lives (no SIGPIPE) */
TEST(closed_pipe_is_epipe)
{
	int p[2];

	ASSERT_EQ(0, pipe(p));
	close(p[0]);
	close_fails(_metadata, p[1], 4096, EPIPE);
}

TEST(ring_size_limits)
{
	struct nvpc_outq_stats st;
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	ASSERT_LE(0, fd);
	errno = 0;
	EXPECT_EQ(NULL, nvpc_outq_open(fd, NVPC_OUTQ_MIN - 1, &st));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(NULL, nvpc_outq_open(fd, NVPC_OUTQ_MAX + 1, &st));
	EXPECT_EQ(EINVAL, errno);
	/* refused: the descriptor is still the caller's */
	EXPECT_EQ(0, close(fd));
}

TEST_HARNESS_MAIN
