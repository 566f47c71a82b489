// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of nvpc record's perf ring handling (tools/nvpc/record_drain.c,
 * linked with its rec_drain()): a user page, data ring and AUX
 * area in plain memory, filled as the kernel would, with records and
 * AUX bytes that wrap around the end of their rings. Checks what lands
 * in the capture, how far aux_tail and data_tail move, and what a
 * TRUNCATED record leads to for each record_state.
 */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "nvpc_file.h"
#include "record.h"
#include "kselftest_harness.h"

#define PAGE		4096
#define DATA_PAGES	1
#define AUX_PAGES	1

struct ring {
	struct rec r;
	struct session s;
	uint8_t *mem;
	char dir[128];
	char path[160];
};

static void ring_init(struct ring *t, const char *state)
{
	char cmd[300];
	FILE *f;

	memset(t, 0, sizeof(*t));
	t->mem = aligned_alloc(PAGE, PAGE * (1 + DATA_PAGES + AUX_PAGES));
	memset(t->mem, 0, PAGE * (1 + DATA_PAGES + AUX_PAGES));
	t->r.up = (struct perf_event_mmap_page *)t->mem;
	t->r.data = t->mem + PAGE;
	t->r.data_size = DATA_PAGES * PAGE;
	t->r.aux = t->mem + PAGE * (1 + DATA_PAGES);
	t->r.aux_size = AUX_PAGES * PAGE;
	t->r.hdr.packet_size = 32;
	t->r.fd = -1;
	t->r.s = &t->s;
	snprintf(t->dir, sizeof(t->dir), "%s/nvpc-drain-%d",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", t->dir);
	if (system(cmd))
		return;
	snprintf(t->r.gpu.dir, sizeof(t->r.gpu.dir), "%s", t->dir);
	snprintf(t->r.dom.dir, sizeof(t->r.dom.dir), "%s", t->dir);
	snprintf(t->path, sizeof(t->path), "%s/record_state", t->dir);
	f = fopen(t->path, "w");
	fprintf(f, "%s\n", state);
	fclose(f);
	snprintf(t->path, sizeof(t->path), "%s/capture", t->dir);
	t->s.out = fopen(t->path, "w+");
	t->r.o.output = t->path;
}

static void ring_free(struct ring *t)
{
	char cmd[300];

	fclose(t->s.out);
	free(t->mem);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", t->dir);
	if (system(cmd))
		return;
}

/* bytes into a ring at an absolute offset, wrapping as the kernel does */
static void ring_put(uint8_t *ring, uint64_t size, uint64_t off,
		     const void *src, uint64_t len)
{
	for (uint64_t i = 0; i < len; i++)
		ring[(off + i) & (size - 1)] = ((const uint8_t *)src)[i];
}

/* a PERF_RECORD_AUX at data_head, and its AUX bytes (byte i = seed + i) */
static void put_aux(struct ring *t, uint64_t off, uint64_t size,
		    uint64_t flags, uint8_t seed)
{
	struct {
		struct perf_event_header h;
		uint64_t off, size, flags;
	} rec = {
		.h = { .type = PERF_RECORD_AUX, .size = sizeof(rec) },
		.off = off, .size = size, .flags = flags,
	};

	for (uint64_t i = 0; i < size; i++) {
		uint8_t b = seed + i;

		ring_put(t->r.aux, t->r.aux_size, off + i, &b, 1);
	}
	ring_put(t->r.data, t->r.data_size, t->r.up->data_head, &rec,
		 sizeof(rec));
	t->r.up->data_head += sizeof(rec);
}

static void put_lost(struct ring *t, uint64_t lost)
{
	struct {
		struct perf_event_header h;
		uint64_t id, lost;
	} rec = {
		.h = { .type = PERF_RECORD_LOST, .size = sizeof(rec) },
		.lost = lost,
	};

	ring_put(t->r.data, t->r.data_size, t->r.up->data_head, &rec,
		 sizeof(rec));
	t->r.up->data_head += sizeof(rec);
}

/* the next chunk of the capture; its payload checked against seed */
static int next_chunk(struct ring *t, struct nvpc_chunk *c, uint8_t seed)
{
	char err[128];
	void *p;
	int ok = 1;

	if (nvpc_file_read_chunk(t->s.out, c, &p, err, sizeof(err)) != 1)
		return -1;
	for (uint32_t i = 0; i < c->size; i++)
		if (((uint8_t *)p)[i] != (uint8_t)(seed + i))
			ok = 0;
	free(p);
	return ok;
}

/*
 * Records that start near the end of the data ring (one wraps), AUX
 * bytes that wrap the end of the AUX area, a LOST record.
 */
TEST(records_and_bytes_wrap)
{
	struct nvpc_chunk c;
	struct ring t;

	ring_init(&t, "recording");
	t.r.up->data_head = t.r.up->data_tail = PAGE - 40;
	put_aux(&t, 0, 3 * 32, 0, 1);
	put_aux(&t, 3 * 32, PAGE - 3 * 32 - 32, 0, 2);
	ASSERT_FALSE(rec_drain(&t.r));
	EXPECT_EQ(t.r.up->data_head, t.r.up->data_tail);
	EXPECT_EQ(PAGE - 32, t.r.up->aux_tail);
	/* 96 bytes that cross the AUX area's end */
	put_aux(&t, PAGE - 32, 96, PERF_AUX_FLAG_PARTIAL, 3);
	put_lost(&t, 5);
	ASSERT_FALSE(rec_drain(&t.r));
	EXPECT_EQ(PAGE + 64, t.r.up->aux_tail);
	EXPECT_EQ(t.r.up->data_head, t.r.up->data_tail);
	EXPECT_EQ(PAGE + 64, t.r.end.aux_bytes);
	EXPECT_EQ(5, t.r.end.lost);
	EXPECT_EQ(PAGE / 32 + 2, t.r.packets);

	fflush(t.s.out);
	rewind(t.s.out);
	ASSERT_EQ(1, next_chunk(&t, &c, 1));
	EXPECT_EQ(NVPC_CHUNK_AUX, c.type);
	EXPECT_EQ(0, c.offset);
	EXPECT_EQ(96, c.size);
	ASSERT_EQ(1, next_chunk(&t, &c, 2));
	EXPECT_EQ(96, c.offset);
	ASSERT_EQ(1, next_chunk(&t, &c, 3));
	EXPECT_EQ(PAGE - 32, c.offset);
	EXPECT_EQ(96, c.size);
	EXPECT_EQ(PERF_AUX_FLAG_PARTIAL, c.flags);
	ASSERT_LE(0, next_chunk(&t, &c, 0));
	EXPECT_EQ(NVPC_CHUNK_LOST, c.type);
	EXPECT_EQ(5, c.offset);
	ring_free(&t);
}

/* TRUNCATED, the domain neither faulted nor gone: enable again */
TEST(truncated_stalled)
{
	struct ring t;

	ring_init(&t, "stalled");
	put_aux(&t, 0, 64, PERF_AUX_FLAG_TRUNCATED, 7);
	EXPECT_TRUE(rec_drain(&t.r));
	EXPECT_FALSE(t.r.faulted);
	EXPECT_EQ(1, t.r.end.truncated);
	EXPECT_EQ(64, t.r.up->aux_tail);
	ring_free(&t);
}

/* TRUNCATED with record_state "faulted": stop, no enable */
TEST(truncated_faulted)
{
	struct ring t;

	ring_init(&t, "faulted");
	put_aux(&t, 0, 32, PERF_AUX_FLAG_TRUNCATED, 7);
	EXPECT_FALSE(rec_drain(&t.r));
	EXPECT_TRUE(t.r.faulted);
	ring_free(&t);
}

TEST_HARNESS_MAIN
