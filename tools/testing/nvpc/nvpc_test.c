// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of tools/nvpc: captures written through the tool's own
 * writer (nvpc_file.c) with packets derived by hand, read back by the
 * built tool (nvpc report/plot, $NVPC_BIN), and the record command's
 * argument checks against a fake sysfs tree ($NVPC_SYSFS).
 *
 * Clock 1 MHz everywhere: one cycle is 1000 ns.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/nvpcounter.h>

#include "nvpc_file.h"
#include "packet.h"
#include "test_util.h"

/* TEST() wrappers of kselftest_harness.h leave parameters unused. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"

#define HZ		1000000ULL
#define NS		1000ULL		/* per cycle at HZ */
#define MAX_ROWS	64
#define C48		(1ULL << 48)

struct cap {
	FILE *f;
	char path[128];
	struct nvpc_header h;
	uint64_t aux_off;
};

struct row {
	unsigned int seg, stop, sat;
	unsigned long long time_ns, cycles, delta;
	unsigned long long ctr[12];
};

static void cap_begin(struct cap *c, const char *name, unsigned int pkt,
		      unsigned int nr)
{
	memset(c, 0, sizeof(*c));
	tmp_path(c->path, sizeof(c->path), name);
	c->f = fopen(c->path, "w");
	c->h.packet_size = pkt;
	c->h.nr_signals = nr;
	c->h.clock_hz = HZ;
	c->h.nominal_hz = 575000000;
	c->h.period_cycles = 1000;
	c->h.start_realtime_ns = 1700000000ULL * 1000000000ULL;
	strcpy(c->h.chip, "G84");
	strcpy(c->h.bus, "sim.0");
	strcpy(c->h.pmu, "nvpcounter");
	strcpy(c->h.domain, "main.1");
	strcpy(c->h.stop, "test");
	for (unsigned int i = 0; i < nr; i++) {
		c->h.signals[i].id = 0x10 + i;
		snprintf(c->h.signals[i].name, sizeof(c->h.signals[i].name),
			 "s%u", i);
	}
	nvpc_file_write_header(c->f, &c->h);
}

/* the header again, after changes to c->h (before any chunk) */
static void cap_header(struct cap *c)
{
	rewind(c->f);
	nvpc_file_write_header(c->f, &c->h);
}

static void cap_aux(struct cap *c, uint32_t flags, uint64_t t_ns,
		    const uint8_t *data, uint32_t len)
{
	struct nvpc_chunk k = {
		.type = NVPC_CHUNK_AUX, .flags = flags, .offset = c->aux_off,
		.time_ns = t_ns, .size = len,
	};

	nvpc_file_write_chunk(c->f, &k, data);
	c->aux_off += len;
}

static void cap_restart(struct cap *c, uint64_t t_ns)
{
	struct nvpc_chunk k = { .type = NVPC_CHUNK_RESTART, .time_ns = t_ns };

	nvpc_file_write_chunk(c->f, &k, NULL);
}

static void cap_end(struct cap *c, uint64_t end_ns)
{
	struct nvpc_end e = {
		.end_ns = end_ns, .reason = NVPC_END_COMMAND, .status = 0,
		.hw_packets = -1, .hw_gaps = -1,
	};

	nvpc_file_write_end(c->f, 0, end_ns, &e);
	fclose(c->f);
}

/* the exit status of the last csv() */
static int csv_status;

/*
 * nvpc report --csv: the rows after the header line; -1 when it reported
 * nothing (exit 1 or 2)
 */
static int csv(const char *path, struct row *rows, char *header, size_t hlen)
{
	static char out[1 << 16];
	char cmd[512], *line, *save;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "%s report --csv %s", bin(), path);
	csv_status = run(cmd, out, sizeof(out));
	if (csv_status < 0 || csv_status == 1 || csv_status == 2)
		return -1;
	line = strtok_r(out, "\n", &save);
	if (!line)
		return -1;
	if (header)
		snprintf(header, hlen, "%s", line);
	while ((line = strtok_r(NULL, "\n", &save)) && n < MAX_ROWS) {
		struct row *r = &rows[n++];
		char *f = line;

		memset(r, 0, sizeof(*r));
		r->seg = strtoul(f, &f, 10);
		r->time_ns = strtoull(f + 1, &f, 10);
		r->cycles = strtoull(f + 1, &f, 10);
		r->delta = strtoull(f + 1, &f, 10);
		r->stop = strtoul(f + 1, &f, 10);
		r->sat = strtoul(f + 1, &f, 10);
		for (int i = 0; *f == ',' && i < 12; i++)
			r->ctr[i] = strtoull(f + 1, &f, 10);
	}
	return n;
}

/* a "key": value of nvpc report --json, as an unsigned number */
static long long json_num(const char *json, const char *key)
{
	char k[64];
	const char *p;

	snprintf(k, sizeof(k), "\"%s\": ", key);
	p = strstr(json, k);
	return p ? strtoll(p + strlen(k), NULL, 10) : -1;
}

static int json(const char *path, char *out, size_t len)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "%s report --json %s", bin(), path);
	return run(cmd, out, len);
}

/*
 * STOP every 1000 cycles, signal 0 high 3 of every 10 cycles (300 per
 * packet), signal 1 always (1000), signal 2 never; the ten packets come
 * in two records, the second starting in the middle of packet 4.
 */
TEST(periodic_counts)
{
	uint8_t buf[10 * 32];
	struct row rows[MAX_ROWS];
	char hdr[256], js[8192];
	struct cap c;
	int n;

	cap_begin(&c, "periodic", 32, 3);
	for (int k = 1; k <= 10; k++)
		pkt(buf + (k - 1) * 32, 32, 1000 * k, 1,
		    (uint16_t[]){ 300, 1000, 0 }, 3);
	cap_aux(&c, 0, 4000 * NS, buf, 3 * 32 + 10);
	cap_aux(&c, 0, 10000 * NS, buf + 3 * 32 + 10, 7 * 32 - 10);
	cap_end(&c, 10000 * NS);

	n = csv(c.path, rows, hdr, sizeof(hdr));
	ASSERT_EQ(10, n);
	EXPECT_STREQ("segment,time_ns,cycles,delta,stop,saturated,s0,s1,s2", hdr);
	for (int k = 1; k <= 10; k++) {
		struct row *r = &rows[k - 1];

		EXPECT_EQ(0, r->seg);
		EXPECT_EQ(1000ULL * k * NS, r->time_ns);
		EXPECT_EQ(1000ULL * k, r->cycles);
		EXPECT_EQ(1000, r->delta);
		EXPECT_EQ(1, r->stop);
		EXPECT_EQ(0, r->sat);
		EXPECT_EQ(300, r->ctr[0]);
		EXPECT_EQ(1000, r->ctr[1]);
		EXPECT_EQ(0, r->ctr[2]);
	}

	ASSERT_EQ(0, json(c.path, js, sizeof(js)));
	EXPECT_EQ(10, json_num(js, "packets"));
	EXPECT_EQ(0, json_num(js, "gaps"));
	EXPECT_EQ(10000, json_num(js, "cycles"));
	EXPECT_EQ(10000000, json_num(js, "covered_ns"));
	EXPECT_EQ(10, json_num(js, "stop_pulses"));
	EXPECT_EQ(0, json_num(js, "torn_bytes"));
	/* 300 of 1000 cycles at 1 MHz: 300000 events/s, 30% busy */
	EXPECT_NE(NULL, strstr(js, "\"name\": \"s0\", \"id\": 16, \"count\": 3000, \"events_per_s\": 300000.000000, \"busy_pct\": 30.000000"));
	EXPECT_NE(NULL, strstr(js, "\"name\": \"s1\", \"id\": 17, \"count\": 10000, \"events_per_s\": 1000000.000000, \"busy_pct\": 100.000000"));
	unlink(c.path);
}

/*
 * A sampled capture (format version 2): each sample's counts since the
 * previous one in 64 bits (above a packet's 16), its time the clock
 * leader's, a sample of 0 cycles kept (a stopped clock is real), the
 * header's kind, period and width in the JSON. The samples: 1 ms
 * 575000 cycles (s0 a quarter: 143750, s1 all, s2 none), at 2.5 ms
 * 862500 more (215625, 862500, 0), at 3 ms 0 cycles and counts.
 */
TEST(sampled_capture)
{
	struct row rows[MAX_ROWS];
	char hdr[256], js[8192];
	struct cap c;
	int n;

	cap_begin(&c, "sampled", 0, 3);
	c.h.kind = NVPC_KIND_SAMPLED;
	c.h.counter_bits = 64;
	c.h.sample_period_ns = 1000000;
	c.h.period_cycles = 0;
	c.h.clock_hz = 575000000;
	cap_header(&c);
	nvpc_file_write_sample(c.f, 0, 1000000, 575000,
			       (uint64_t[]){ 143750, 575000, 0 }, 3);
	nvpc_file_write_sample(c.f, 0, 2500000, 862500,
			       (uint64_t[]){ 215625, 862500, 0 }, 3);
	nvpc_file_write_sample(c.f, 0, 3000000, 0, (uint64_t[]){ 0, 0, 0 }, 3);
	cap_end(&c, 3100000);

	n = csv(c.path, rows, hdr, sizeof(hdr));
	ASSERT_EQ(3, n);
	EXPECT_STREQ("segment,time_ns,cycles,delta,stop,saturated,s0,s1,s2", hdr);
	EXPECT_EQ(1000000, rows[0].time_ns);
	EXPECT_EQ(575000, rows[0].cycles);
	EXPECT_EQ(575000, rows[0].delta);
	EXPECT_EQ(143750, rows[0].ctr[0]);
	EXPECT_EQ(575000, rows[0].ctr[1]);
	EXPECT_EQ(2500000, rows[1].time_ns);
	EXPECT_EQ(1437500, rows[1].cycles);
	EXPECT_EQ(862500, rows[1].delta);
	EXPECT_EQ(215625, rows[1].ctr[0]);
	EXPECT_EQ(862500, rows[1].ctr[1]);
	EXPECT_EQ(0, rows[1].ctr[2]);
	EXPECT_EQ(3000000, rows[2].time_ns);
	EXPECT_EQ(0, rows[2].delta);
	EXPECT_EQ(0, rows[2].ctr[1]);

	ASSERT_EQ(0, json(c.path, js, sizeof(js)));
	EXPECT_NE(NULL, strstr(js, "\"kind\": \"sampled\""));
	EXPECT_EQ(1000000, json_num(js, "sample_period_ns"));
	EXPECT_EQ(64, json_num(js, "counter_bits"));
	EXPECT_EQ(2, json_num(js, "version"));
	EXPECT_EQ(1437500, json_num(js, "cycles"));
	EXPECT_EQ(3000000, json_num(js, "covered_ns"));
	EXPECT_EQ(0, json_num(js, "impossible_packets"));
	EXPECT_EQ(3, json_num(js, "packets"));
	/* a quarter of 1437500 cycles in 3 ms: 25% busy */
	EXPECT_NE(NULL, strstr(js, "\"name\": \"s0\", \"id\": 16, \"count\": 359375,"));
	EXPECT_NE(NULL, strstr(js, "\"busy_pct\": 25.000000"));
	/*
	 * rates from the samples' times, not from the recorded clock
	 * (575 MHz; these samples ran 1437500 cycles in 3 ms, 479 MHz):
	 * 359375 in 3 ms, not 359375 * 575 MHz / 1437500 = 143750000/s
	 */
	EXPECT_NE(NULL, strstr(js, "\"count\": 359375, \"events_per_s\": 119791666.666667,"));
	unlink(c.path);
}

/*
 * Record captures stay format version 1 with the 1088-byte header, so
 * older tools read them; a sampled header cut inside its version 2
 * fields, a kind, a width or a period out of range, and a version 3
 * are refused with the reason.
 */
TEST(capture_versions)
{
	static const struct { unsigned int off, len; uint64_t v; const char *why; } bad[] = {
		{ 8, 4, 4, "capture format version 4" },
		/* version 3 reads nr_streams where version 2 has 0 */
		{ 8, 4, 3, "0 streams (1 to 64)" },
		{ 1088, 4, 2, "capture of kind 2" },
		{ 1092, 4, 65, "65-bit counters" },
		{ 1092, 4, 0, "0-bit counters" },
		{ 1096, 8, 0, "sample period of 0 ns" },
	};
	struct nvpc_header h;
	char err[256];
	uint8_t b[1200];
	struct cap c;
	size_t n;
	FILE *f;

	cap_begin(&c, "v1", 32, 2);
	cap_end(&c, 1000);
	f = fopen(c.path, "r");
	ASSERT_NE(NULL, f);
	n = fread(b, 1, sizeof(b), f);
	fclose(f);
	EXPECT_EQ(1088 + 32 + 64, n);
	EXPECT_EQ(1, b[8]);
	EXPECT_EQ(1088 & 0xff, b[12]);
	EXPECT_EQ(1088 >> 8, b[13]);
	EXPECT_EQ(NVPC_CHUNK_END, b[1088]);
	unlink(c.path);

	cap_begin(&c, "v2", 0, 2);
	c.h.kind = NVPC_KIND_SAMPLED;
	c.h.counter_bits = 64;
	c.h.sample_period_ns = 1000;
	cap_header(&c);
	fclose(c.f);
	f = fopen(c.path, "r");
	ASSERT_NE(NULL, f);
	n = fread(b, 1, sizeof(b), f);
	fclose(f);
	ASSERT_EQ(1120, n);
	EXPECT_EQ(2, b[8]);
	f = fmemopen(b, n, "r");
	ASSERT_EQ(0, nvpc_file_read_header(f, &h, err, sizeof(err)));
	fclose(f);
	EXPECT_EQ(NVPC_KIND_SAMPLED, h.kind);
	EXPECT_EQ(64, h.counter_bits);
	EXPECT_EQ(1000, h.sample_period_ns);
	f = fmemopen(b, 1100, "r");
	EXPECT_EQ(-EINVAL, nvpc_file_read_header(f, &h, err, sizeof(err)));
	fclose(f);
	EXPECT_NE(NULL, strstr(err, "truncated header: the file ends after 1100 of its 1120 bytes"));
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint8_t m[1120];

		memcpy(m, b, sizeof(m));
		for (unsigned int k = 0; k < bad[i].len; k++)
			m[bad[i].off + k] = bad[i].v >> (8 * k);
		f = fmemopen(m, sizeof(m), "r");
		EXPECT_EQ(-EINVAL, nvpc_file_read_header(f, &h, err, sizeof(err)));
		fclose(f);
		EXPECT_NE(NULL, strstr(err, bad[i].why)) TH_LOG("%s", err);
	}
	unlink(c.path);
}


/*
 * Format version 3: two domains in one capture. The file's header is
 * stream 0's (main.0) with nr_streams 2, a STREAM chunk holds stream 1's
 * (main.1, other signals and clock), and the chunks of both interleave,
 * each naming its stream. Read back: both headers, the file left at the
 * first chunk after them, every chunk with its stream. Then what a
 * reader must refuse: a missing or repeated stream header, a stream
 * index out of range, and a header that is not stream 0's.
 */
TEST(capture_streams)
{
	static struct nvpc_capture cap;
	struct nvpc_header h0 = { 0 }, h1;
	struct nvpc_chunk k;
	unsigned int per[2] = { 0 }, ends[2] = { 0 };
	uint8_t pk[32];
	char path[128], err[256];
	void *p;
	int ret;
	FILE *f;

	tmp_path(path, sizeof(path), "streams");
	h0.packet_size = 32;
	h0.nr_signals = 2;
	h0.clock_hz = HZ;
	h0.nr_streams = 2;
	strcpy(h0.chip, "G84");
	strcpy(h0.domain, "main.0");
	h0.signals[0].id = 0x10;
	h0.signals[1].id = 0x11;
	h1 = h0;
	h1.stream = 1;
	h1.nr_signals = 1;
	h1.clock_hz = 2 * HZ;
	strcpy(h1.domain, "main.1");
	strcpy(h1.signals[0].name, "graph_idle");

	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, nvpc_file_write_header(f, &h0));
	ASSERT_EQ(0, nvpc_file_write_stream(f, &h1));
	EXPECT_EQ(-EINVAL, nvpc_file_write_stream(f, &h0));	/* stream 0 */
	for (int i = 0; i < 6; i++) {
		struct nvpc_chunk a = {
			.type = NVPC_CHUNK_AUX, .time_ns = i, .size = 32,
			.stream = i % 2,
		};

		pkt(pk, 32, 1000 * (i + 1), 1, (uint16_t[]){ 1, 2 }, 2);
		ASSERT_EQ(0, nvpc_file_write_chunk(f, &a, pk));
	}
	for (uint32_t st = 0; st < 2; st++)
		ASSERT_EQ(0, nvpc_file_write_end(f, st, 10,
			&(struct nvpc_end){ .hw_packets = -1, .hw_gaps = -1 }));
	fclose(f);

	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, nvpc_file_read_capture(f, &cap, err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_EQ(2, cap.nr);
	EXPECT_EQ(3, cap.h[0].version);
	EXPECT_EQ(1120, cap.h[0].header_size);
	EXPECT_EQ(1120 + 32 + 1120, cap.data_offset);
	EXPECT_STREQ("main.0", cap.h[0].domain);
	EXPECT_STREQ("main.1", cap.h[1].domain);
	EXPECT_EQ(0, cap.h[0].stream);
	EXPECT_EQ(1, cap.h[1].stream);
	EXPECT_EQ(2, cap.h[0].nr_signals);
	EXPECT_EQ(1, cap.h[1].nr_signals);
	EXPECT_EQ(2 * HZ, cap.h[1].clock_hz);
	EXPECT_STREQ("graph_idle", cap.h[1].signals[0].name);
	while ((ret = nvpc_file_read_chunk(f, &k, &p, err, sizeof(err))) > 0) {
		ASSERT_LT(k.stream, 2);
		if (k.type == NVPC_CHUNK_AUX)
			per[k.stream]++;
		else if (k.type == NVPC_CHUNK_END)
			ends[k.stream]++;
		free(p);
	}
	EXPECT_EQ(0, ret);
	EXPECT_EQ(3, per[0]);
	EXPECT_EQ(3, per[1]);
	EXPECT_EQ(1, ends[0]);
	EXPECT_EQ(1, ends[1]);
	fclose(f);

	/* a capture of one domain is still version 1, one stream */
	f = fopen(path, "w");
	h0.nr_streams = 1;
	ASSERT_EQ(0, nvpc_file_write_header(f, &h0));
	fclose(f);
	f = fopen(path, "r");
	ASSERT_EQ(0, nvpc_file_read_capture(f, &cap, err, sizeof(err)));
	EXPECT_EQ(1, cap.h[0].version);
	EXPECT_EQ(1, cap.nr);
	EXPECT_EQ(1088, cap.data_offset);
	fclose(f);

	/* refused */
	h0.nr_streams = 3;
	h1.nr_streams = 3;
	for (int bad = 0; bad < 4; bad++) {
		static const char * const why[] = {
			"3 streams, but the header of stream 2 is not there",
			"stream 1: a second header",
			"stream 2: its header says stream 1 of 2, the capture has 3",
			"the file's header is stream 1's",
		};
		struct nvpc_header x = h1;

		f = fopen(path, "w");
		if (bad == 3) {
			ASSERT_EQ(0, nvpc_file_write_header(f, &h1));
		} else {
			ASSERT_EQ(0, nvpc_file_write_header(f, &h0));
			ASSERT_EQ(0, nvpc_file_write_stream(f, &h1));
		}
		if (bad == 1)
			ASSERT_EQ(0, nvpc_file_write_stream(f, &h1));
		if (bad == 2) {
			/* stream 2's chunk holding a header of 2 streams */
			x.stream = 2;
			x.nr_streams = 3;
			ASSERT_EQ(0, nvpc_file_write_stream(f, &x));
			fclose(f);
			/* patch its nr_streams (chunk at 1120 + 32 + 1120) */
			f = fopen(path, "r+");
			fseek(f, 1120 + 32 + 1120 + 32 + 1104, SEEK_SET);
			fputc(2, f);
			fseek(f, 1120 + 32 + 1120 + 32 + 1108, SEEK_SET);
			fputc(1, f);
		}
		fclose(f);
		f = fopen(path, "r");
		EXPECT_EQ(-EINVAL, nvpc_file_read_capture(f, &cap, err,
							   sizeof(err)));
		EXPECT_NE(NULL, strstr(err, why[bad])) TH_LOG("%d: %s", bad, err);
		fclose(f);
	}
	unlink(path);
}
/* --- captures of several domains (format version 3) ------------------ */

/* an AUX chunk of stream st at AUX offset *off */
static void cap_aux_stream(struct cap *c, uint32_t st, uint64_t *off,
			   uint64_t t_ns, const uint8_t *data, uint32_t len)
{
	struct nvpc_chunk k = {
		.type = NVPC_CHUNK_AUX, .offset = *off, .time_ns = t_ns,
		.size = len, .stream = st,
	};

	nvpc_file_write_chunk(c->f, &k, data);
	*off += len;
}

/*
 * Two domains of the G84, CLOCK_MONOTONIC 5 s at the start:
 *   stream 0, main.0: 32-byte packets at 1 MHz, every 1000 cycles,
 *     s0 (0x10) 250 (25%, 250000 events/s), s1 (0x11) 1000 (100%);
 *   stream 1, main.1: 16-byte packets at 2 MHz, every 2000 cycles (1 ms
 *     too), graph_idle (0xbd) 1500 (75%, 1.5M events/s), s0 (0x10) 100
 *     (5%, 100000 events/s).
 * Four packets each, ending at 1, 2, 3, 4 ms; stream 1's first two come
 * before stream 0's, its last two after; both end at 4 ms.
 */
enum {
	TWO_NO_END1 = 1,	/* main.1 has no END chunk */
	TWO_ZERO0 = 2,		/* main.0's packet 3 repeats packet 2's cycles */
};

static void cap_two_ex(struct cap *c, const char *name, unsigned int flags)
{
	uint8_t a[4 * 32], b[4 * 16];
	struct nvpc_end e = {
		.end_ns = 4000 * NS, .reason = NVPC_END_COMMAND,
		.hw_packets = -1, .hw_gaps = -1,
	};
	struct nvpc_header h1;
	uint64_t off0 = 0, off1 = 0;

	cap_begin(c, name, 32, 2);
	c->h.start_monotonic_ns = 5000000000ULL;
	c->h.nr_streams = 2;
	strcpy(c->h.domain, "main.0");
	cap_header(c);
	h1 = c->h;
	h1.stream = 1;
	h1.packet_size = 16;
	h1.clock_hz = 2 * HZ;
	h1.period_cycles = 2000;
	strcpy(h1.domain, "main.1");
	h1.signals[0].id = 0xbd;
	strcpy(h1.signals[0].name, "graph_idle");
	h1.signals[1].id = 0x10;
	strcpy(h1.signals[1].name, "s0");
	nvpc_file_write_stream(c->f, &h1);
	for (int k = 0; k < 4; k++) {
		pkt(a + 32 * k, 32, 1000 * (k + 1 - (k == 2 &&
						    (flags & TWO_ZERO0))), 1,
		    (uint16_t[]){ 250, 1000 }, 2);
		pkt(b + 16 * k, 16, 2000 * (k + 1), 1,
		    (uint16_t[]){ 1500, 100 }, 2);
	}
	cap_aux_stream(c, 1, &off1, 2000 * NS, b, 32);
	cap_aux_stream(c, 0, &off0, 4000 * NS, a, sizeof(a));
	cap_aux_stream(c, 1, &off1, 4000 * NS, b + 32, 32);
	nvpc_file_write_end(c->f, 0, 4000 * NS, &e);
	if (!(flags & TWO_NO_END1))
		nvpc_file_write_end(c->f, 1, 4000 * NS, &e);
	fclose(c->f);
}

static void cap_two(struct cap *c, const char *name)
{
	cap_two_ex(c, name, 0);
}

/* defined with the tests of names and outputs, below */
static const char *shq(char *buf, size_t len, const char *s);
static int report_to(const char *args, const char *path, const char *out,
		     char *err, size_t len);
static int trace_py(const char *args, const char *path, const char *expr,
		    char *out, size_t len);
static bool have_py(void);
static int py_names(const char *kind, const char *path, char *out,
		    size_t len);

/* nvpc ARGS PATH (a shell command line), stdout and stderr into out */
static int nvpc_cmd(const char *args, const char *path, char *out, size_t len)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "%s %s %s 2>&1", bin(), args, path);
	return run(cmd, out, len);
}

/*
 * Crafted captures the reader refuses or flags (nvpc.rst "Chunks"): two
 * streams of one domain (record never writes that): exit 1; a second
 * STREAM chunk among the packets: a corrupt chunk, the packets before it
 * reported, exit 3; packets covering more time at the clock than the
 * recording lasted (4 ms of cycles at 1 MHz in a recording of 0.5 ms,
 * 800%), the clock too low or the capture damaged: exit 3.
 */
TEST(crafted_streams_and_times)
{
	struct nvpc_header h1;
	uint8_t buf[4 * 32];
	char out[8192];
	struct cap c;

	/* a capture of two streams whose headers both name main.0 */
	cap_begin(&c, "samedom", 32, 2);
	c.h.nr_streams = 2;
	strcpy(c.h.domain, "main.0");
	cap_header(&c);
	h1 = c.h;
	h1.stream = 1;
	nvpc_file_write_stream(c.f, &h1);
	for (int k = 0; k < 4; k++)
		pkt(buf + 32 * k, 32, 1000 * (k + 1), 1,
		    (uint16_t[]){ 250, 500 }, 2);
	cap_aux(&c, 0, 4000 * NS, buf, sizeof(buf));
	cap_end(&c, 4000 * NS);
	EXPECT_EQ(1, nvpc_cmd("report", c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "streams 0 and 1 are of the same domain"))
		TH_LOG("%s", out);
	unlink(c.path);

	/* stream 1's header again after stream 0's packets */
	cap_begin(&c, "restream", 32, 2);
	c.h.nr_streams = 2;
	strcpy(c.h.domain, "main.0");
	cap_header(&c);
	h1 = c.h;
	h1.stream = 1;
	strcpy(h1.domain, "main.1");
	nvpc_file_write_stream(c.f, &h1);
	cap_aux(&c, 0, 4000 * NS, buf, sizeof(buf));
	nvpc_file_write_stream(c.f, &h1);
	cap_end(&c, 4000 * NS);
	EXPECT_EQ(3, nvpc_cmd("report --csv", c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "a second header of stream 1, among the packets"))
		TH_LOG("%s", out);
	/* the packets before it */
	EXPECT_NE(NULL, strstr(out, "main.0,0,4000000,4000,1000,1,0,250,500"))
		TH_LOG("%s", out);
	unlink(c.path);

	/*
	 * 4000 cycles at 1 MHz in a recording that lasted 0.5 ms: at the
	 * clock the driver measured, damaged (exit 3); at a clock never
	 * measured (a sim's manual clock runs the cycles it is told) said,
	 * exit 0
	 */
	cap_begin(&c, "toolong", 32, 2);
	c.h.measured_hz = HZ;
	cap_header(&c);
	cap_aux(&c, 0, 500 * NS, buf, sizeof(buf));
	cap_end(&c, 500 * NS);
	EXPECT_EQ(3, nvpc_cmd("report", c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "(800.0%)")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "its packets cover 0.004000 s at 1000000 Hz, more than the 0.000500 s the recording lasted: the capture is damaged"))
		TH_LOG("%s", out);
	unlink(c.path);
	cap_begin(&c, "toolong", 32, 2);
	cap_aux(&c, 0, 500 * NS, buf, sizeof(buf));
	cap_end(&c, 500 * NS);
	EXPECT_EQ(0, nvpc_cmd("report", c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "the clock was not measured and is too low for them (give --clock)"))
		TH_LOG("%s", out);
	/* as much time as the recording: 100%, exit 0 */
	unlink(c.path);
	cap_begin(&c, "justright", 32, 2);
	cap_aux(&c, 0, 4000 * NS, buf, sizeof(buf));
	cap_end(&c, 4000 * NS);
	EXPECT_EQ(0, nvpc_cmd("report", c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "(100.0%)")) TH_LOG("%s", out);
	unlink(c.path);
}

/*
 * The summary of each domain in turn after a line naming them; -I: each
 * domain's intervals under a line naming it (2 ms: packets 1, 2 and 3,
 * 4; main.0 500 of 2000 cycles, main.1 3000 of 4000)
 */
TEST(streams_report_text)
{
	char out[16384], first[512];
	struct cap c;
	char *m0, *m1;

	cap_two(&c, "two");
	ASSERT_EQ(0, nvpc_cmd("report", c.path, out, sizeof(out)));
	snprintf(first, sizeof(first),
		 "%s: nvpc capture of 2 domains: main.0, main.1\n\n%s: nvpc capture, format version 3\n",
		 c.path, c.path);
	EXPECT_EQ(0, strncmp(out, first, strlen(first))) TH_LOG("%s", out);
	m0 = strstr(out, "  domain     main.0, clock 1000000 Hz (recorded;");
	m1 = strstr(out, "  domain     main.1, clock 2000000 Hz (recorded;");
	ASSERT_NE(NULL, m0);
	ASSERT_NE(NULL, m1);
	EXPECT_LT(m0, m1);
	EXPECT_NE(NULL, strstr(m0, "  recorded   4 packets in 1 segment, covering 0.004000 s of 0.004000 s (100.0%)\n"));
	EXPECT_NE(NULL, strstr(m0, "  packets    32 bytes, STOP test\n"));
	EXPECT_NE(NULL, strstr(m1, "  packets    16 bytes, STOP test\n"));
	EXPECT_NE(NULL, strstr(m0, "  s0                         0x10           1000           250000   25.000%         0\n"
				   "  s1                         0x11           4000            1e+06  100.000%         0\n\n"));
	EXPECT_NE(NULL, strstr(m1, "  cycles     8000 (0 wraps of the 48-bit counter)\n"));
	EXPECT_NE(NULL, strstr(m1, "  graph_idle                 0xbd           6000          1.5e+06   75.000%         0\n"
				   "  s0                         0x10            400           100000    5.000%         0\n"));

	ASSERT_EQ(0, nvpc_cmd("report -I 2", c.path, out, sizeof(out)));
	m0 = strstr(out, "\n# domain main.0\n#     time (s)");
	m1 = strstr(out, "\n\n# domain main.1\n#     time (s)");
	ASSERT_NE(NULL, m0);
	ASSERT_NE(NULL, m1);
	EXPECT_LT(m0, m1);
	EXPECT_NE(NULL, strstr(m0, "      0.002000          5.002000000        2         2000  s0                                500         250000   25.000%\n"));
	EXPECT_NE(NULL, strstr(m1, "      0.002000          5.002000000        2         4000  graph_idle                       3000        1.5e+06   75.000%\n"
				   "      0.002000          5.002000000        2         4000  s0                                200         100000    5.000%\n"));
	unlink(c.path);
}

/*
 * CSV of several domains: one table. The domain first, the columns of
 * a capture of one domain, then each domain's signals as
 * "<domain>:<signal>"; a row fills its own domain's columns and leaves
 * the others' empty. Rows of main.0 first, then main.1's.
 */
TEST(streams_report_csv)
{
	char out[16384], file[160], names[4096], err[1024];
	struct cap c;

	cap_two(&c, "twocsv");
	ASSERT_EQ(0, nvpc_cmd("report --csv", c.path, out, sizeof(out)));
	EXPECT_STREQ("domain,segment,time_ns,cycles,delta,stop,saturated,main.0:s0,main.0:s1,main.1:graph_idle,main.1:s0\n"
		     "main.0,0,1000000,1000,1000,1,0,250,1000,,\n"
		     "main.0,0,2000000,2000,1000,1,0,250,1000,,\n"
		     "main.0,0,3000000,3000,1000,1,0,250,1000,,\n"
		     "main.0,0,4000000,4000,1000,1,0,250,1000,,\n"
		     "main.1,0,1000000,2000,2000,1,0,,,1500,100\n"
		     "main.1,0,2000000,4000,2000,1,0,,,1500,100\n"
		     "main.1,0,3000000,6000,2000,1,0,,,1500,100\n"
		     "main.1,0,4000000,8000,2000,1,0,,,1500,100\n", out);

	ASSERT_EQ(0, nvpc_cmd("report --csv -I 2", c.path, out, sizeof(out)));
	EXPECT_STREQ("domain,start_ns,monotonic_ns,packets,cycles,gap,"
		     "main.0:s0 count,main.0:s0 events/s,main.0:s0 busy %,"
		     "main.0:s1 count,main.0:s1 events/s,main.0:s1 busy %,"
		     "main.1:graph_idle count,main.1:graph_idle events/s,main.1:graph_idle busy %,"
		     "main.1:s0 count,main.1:s0 events/s,main.1:s0 busy %\n"
		     "main.0,0,5000000000,2,2000,0,500,250000.000000,25.000000,2000,1000000.000000,100.000000,,,,,,\n"
		     "main.0,2000000,5002000000,2,2000,0,500,250000.000000,25.000000,2000,1000000.000000,100.000000,,,,,,\n"
		     "main.1,0,5000000000,2,4000,0,,,,,,,3000,1500000.000000,75.000000,200,100000.000000,5.000000\n"
		     "main.1,2000000,5002000000,2,4000,0,,,,,,,3000,1500000.000000,75.000000,200,100000.000000,5.000000\n",
		     out);
	if (!have_py())
		SKIP(goto done, "no python3 to parse the CSV");
	/* every row the header's width (Python's csv module, strict) */
	tmp_path(file, sizeof(file), "twocsv.out");
	ASSERT_EQ(0, report_to("--csv", c.path, file, err, sizeof(err)));
	ASSERT_EQ(0, py_names("csv", file, names, sizeof(names)));
	EXPECT_STREQ("saturated\nmain.0:s0\nmain.0:s1\nmain.1:graph_idle\nmain.1:s0\n",
		     names);
	unlink(file);
done:
	unlink(c.path);
}

/* nvpc report --json ARGS PATH read by Python, which prints expr of d */
static int json_py(const char *args, const char *path, const char *expr,
		   char *out, size_t len)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "%s report --json %s %s | python3 -c 'import json,sys; d=json.load(sys.stdin); print(*(%s,))'",
		 bin(), args, path, expr);
	return run(cmd, out, len);
}

/*
 * JSON: {"domains": [each domain's summary]}; a trace: one process,
 * a track per domain and signal, otherData's "domains" (Python parses
 * both)
 */
TEST(streams_report_json_trace)
{
	char out[4096];
	struct cap c;

	if (!have_py())
		SKIP(return, "no python3 to parse the outputs");
	cap_two(&c, "twojson");
	ASSERT_EQ(0, json_py("", c.path,
			     "list(d), [(x[\"domain\"], x[\"clock_hz\"], x[\"packets\"], x[\"cycles\"], [(s[\"name\"], s[\"count\"], s[\"busy_pct\"]) for s in x[\"signals\"]]) for x in d[\"domains\"]]",
			     out, sizeof(out)));
	EXPECT_STREQ("['domains'] "
		     "[('main.0', 1000000, 4, 4000, [('s0', 1000, 25.0), ('s1', 4000, 100.0)]), "
		     "('main.1', 2000000, 4, 8000, [('graph_idle', 6000, 75.0), ('s0', 400, 5.0)])]\n",
		     out);
	ASSERT_EQ(0, json_py("-I 2", c.path,
			     "[[(i[\"start_ns\"], i[\"cycles\"], i[\"signals\"][0][\"count\"]) for i in x[\"intervals\"]] for x in d[\"domains\"]]",
			     out, sizeof(out)));
	EXPECT_STREQ("[[(0, 2000, 500), (2000000, 2000, 500)], [(0, 4000, 3000), (2000000, 4000, 3000)]]\n",
		     out);

	/* 4 packets and the end's 0: 5 events per track */
	ASSERT_EQ(0, trace_py("", c.path,
			      "sorted(set(x[\"pid\"] for x in e)).__len__(), [(n, len([x for x in c if x[\"name\"] == n])) for n in sorted(set(x[\"name\"] for x in c))], [(x[\"domain\"], x[\"clock_hz\"], x[\"interval_ns\"]) for x in d[\"otherData\"][\"domains\"]]",
			      out, sizeof(out)));
	EXPECT_STREQ("1 [('main.0 s0', 5), ('main.0 s1', 5), ('main.1 graph_idle', 5), ('main.1 s0', 5)] [('main.0', 1000000, 0), ('main.1', 2000000, 0)]\n",
		     out);
	/* main.1's first event: 75% at 0; its last, 0 at 4 ms */
	ASSERT_EQ(0, trace_py("", c.path,
			      "[(x[\"ts\"], x[\"args\"][\"busy %\"]) for x in c if x[\"name\"] == \"main.1 graph_idle\"]",
			      out, sizeof(out)));
	EXPECT_STREQ("[(0.0, 75.0), (1000.0, 75.0), (2000.0, 75.0), (3000.0, 75.0), (4000.0, 0.0)]\n",
		     out);
	unlink(c.path);
}

/*
 * -s over several domains: an unqualified name in every domain that has
 * it, "domain:signal" in that domain only; a domain with nothing
 * selected is left out; a name no domain has is refused with each
 * domain's signals. --from, --to apply to every domain.
 */
TEST(streams_signals_and_range)
{
	char out[8192];
	struct cap c;

	cap_two(&c, "twosel");
	ASSERT_EQ(0, nvpc_cmd("report --csv -s s0", c.path, out, sizeof(out)));
	EXPECT_STREQ("domain,segment,time_ns,cycles,delta,stop,saturated,main.0:s0,main.1:s0\n"
		     "main.0,0,1000000,1000,1000,1,0,250,\n"
		     "main.0,0,2000000,2000,1000,1,0,250,\n"
		     "main.0,0,3000000,3000,1000,1,0,250,\n"
		     "main.0,0,4000000,4000,1000,1,0,250,\n"
		     "main.1,0,1000000,2000,2000,1,0,,100\n"
		     "main.1,0,2000000,4000,2000,1,0,,100\n"
		     "main.1,0,3000000,6000,2000,1,0,,100\n"
		     "main.1,0,4000000,8000,2000,1,0,,100\n", out);
	/* main.1 only; 0xbd is graph_idle's id; --from, --to: packets 2, 3 */
	ASSERT_EQ(0, nvpc_cmd("report --csv -s main.1:s0,0xbd --from 1ms --to 3ms",
			      c.path, out, sizeof(out)));
	EXPECT_STREQ("domain,segment,time_ns,cycles,delta,stop,saturated,main.1:s0,main.1:graph_idle\n"
		     "main.1,0,2000000,4000,2000,1,0,100,1500\n"
		     "main.1,0,3000000,6000,2000,1,0,100,1500\n", out);
	ASSERT_EQ(0, nvpc_cmd("report -s graph_idle", c.path, out,
			      sizeof(out)));
	EXPECT_EQ(NULL, strstr(out, "main.0, clock"));
	EXPECT_NE(NULL, strstr(out, "main.1, clock"));
	EXPECT_NE(NULL, strstr(out, "nvpc capture of 2 domains: main.0, main.1\n"));
	/* the same range in every domain: packets 2 and 3 of each */
	ASSERT_EQ(0, nvpc_cmd("report --from 1ms --to 3ms", c.path, out,
			      sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "  shown      2 packets starting from 0.001000 s before 0.003000 s, 2000 cycles (--from, --to)\n"));
	EXPECT_NE(NULL, strstr(out, "  shown      2 packets starting from 0.001000 s before 0.003000 s, 4000 cycles (--from, --to)\n"));

	EXPECT_EQ(2, nvpc_cmd("report -s nosuch", c.path, out, sizeof(out)));
	EXPECT_STREQ("nvpc: -s nosuch: no such signal in any domain of the capture; the capture's signals: main.0: s0 (0x10), s1 (0x11); main.1: graph_idle (0xbd), s0 (0x10)\n",
		     out);
	EXPECT_EQ(2, nvpc_cmd("report -s main.0:graph_idle", c.path, out,
			      sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "-s main.0:graph_idle: no such signal in domain main.0; the capture's signals: main.0: s0"));
	unlink(c.path);
}

/*
 * Domains of two kinds: main.0 record-mode (2 packets of 1000 cycles,
 * s0 250), main.1 sampled (3 samples a millisecond apart, 1000 cycles
 * each, s0 400: 40% busy, 400000 events/s from the samples' times)
 */
TEST(streams_record_and_sampled)
{
	char out[16384];
	struct nvpc_header h1;
	uint64_t off = 0, count = 400;
	uint8_t buf[2 * 32];
	struct cap c;

	cap_begin(&c, "twokinds", 32, 1);
	c.h.nr_streams = 2;
	strcpy(c.h.domain, "main.0");
	cap_header(&c);
	h1 = c.h;
	h1.stream = 1;
	h1.kind = NVPC_KIND_SAMPLED;
	h1.packet_size = 0;
	h1.period_cycles = 0;
	h1.counter_bits = 64;
	h1.sample_period_ns = 1000000;
	strcpy(h1.domain, "main.1");
	strcpy(h1.stop, "sampled every 1000000 ns (cpu-clock)");
	nvpc_file_write_stream(c.f, &h1);
	for (int k = 1; k <= 3; k++)
		nvpc_file_write_sample(c.f, 1, k * 1000 * NS, 1000, &count, 1);
	pkt(buf, 32, 1000, 1, (uint16_t[]){ 250 }, 1);
	pkt(buf + 32, 32, 2000, 1, (uint16_t[]){ 250 }, 1);
	cap_aux_stream(&c, 0, &off, 2000 * NS, buf, sizeof(buf));
	nvpc_file_write_end(c.f, 1, 3000 * NS,
			    &(struct nvpc_end){ .end_ns = 3000 * NS,
						.hw_packets = -1,
						.hw_gaps = -1 });
	cap_end(&c, 2000 * NS);

	ASSERT_EQ(0, nvpc_cmd("report --csv", c.path, out, sizeof(out)));
	EXPECT_STREQ("domain,segment,time_ns,cycles,delta,stop,saturated,main.0:s0,main.1:s0\n"
		     "main.0,0,1000000,1000,1000,1,0,250,\n"
		     "main.0,0,2000000,2000,1000,1,0,250,\n"
		     "main.1,0,1000000,1000,1000,1,0,,400\n"
		     "main.1,0,2000000,2000,1000,1,0,,400\n"
		     "main.1,0,3000000,3000,1000,1,0,,400\n", out);
	ASSERT_EQ(0, nvpc_cmd("report", c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "  packets    32 bytes, STOP test\n"));
	EXPECT_NE(NULL, strstr(out, "  sampled    every 1000000 ns by a cpu-clock leading a perf group"));
	EXPECT_NE(NULL, strstr(out, "  s0                         0x10            500           250000   25.000%         0\n"));
	EXPECT_NE(NULL, strstr(out, "  s0                         0x10           1200           400000   40.000%         0\n"));
	unlink(c.path);
}

/*
 * The exit status is the worst over the domains: main.0 with a packet
 * of 0 cycles (4: impossible packets) and main.1 without its end (3:
 * unfinished); each message names its domain
 */
TEST(streams_exit_status)
{
	char out[8192];
	struct cap c;

	cap_two_ex(&c, "twostatus", TWO_ZERO0);
	EXPECT_EQ(4, nvpc_cmd("report --csv", c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "twostatus (domain main.0): 1 impossible packets, left out of the counts and rates\n"));
	EXPECT_EQ(NULL, strstr(out, "(domain main.1)"));
	EXPECT_NE(NULL, strstr(out, "main.0,0,4000000,4000,2000,1,0,250,1000,,\n"));
	unlink(c.path);

	cap_two_ex(&c, "twostatus", TWO_ZERO0 | TWO_NO_END1);
	EXPECT_EQ(3, nvpc_cmd("report --json", c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "twostatus (domain main.1) has no end record: the recording did not finish (killed?); the packets in it are reported\n"));
	EXPECT_NE(NULL, strstr(out, "\"complete\": false"));
	EXPECT_NE(NULL, strstr(out, "\"complete\": true"));
	unlink(c.path);

	cap_two_ex(&c, "twostatus", TWO_NO_END1);
	EXPECT_EQ(3, nvpc_cmd("report --trace", c.path, out, sizeof(out)));
	unlink(c.path);
}

/*
 * plot of several domains: a track per domain and signal, labelled
 * "<domain> <signal>"; domain names that would be gnuplot commands are
 * labels too (none runs, the SVG parses)
 */
TEST(streams_plot)
{
	static const char * const marks[] = { "pwn8", "pwn9", "pwn10" };
	char svg[256], cmd[1024], out[8192], q[256];
	struct nvpc_header h1;
	uint8_t buf[4 * 32];
	struct stat sb;
	struct cap c;

	if (!have("gnuplot"))
		SKIP(return, "no gnuplot (Debian gnuplot-nox, make deps)");
	cap_two(&c, "twoplot");
	tmp_path(svg, sizeof(svg), "twoplot.svg");
	snprintf(cmd, sizeof(cmd), "%s plot -o %s %s 2>&1", bin(), svg, c.path);
	ASSERT_EQ(0, run(cmd, out, sizeof(out))) TH_LOG("%s", out);
	if (have_py()) {
		ASSERT_EQ(0, py_names("svg", svg, out, sizeof(out)));
		EXPECT_NE(NULL, strstr(out, "\nG84 sim.0, 2 domains: busy share per domain and signal\nmain.0: STOP test, 1000000 Hz\nmain.1: STOP test, 2000000 Hz\n"));
		EXPECT_NE(NULL, strstr(out, "\nmain.0 s0\nmain.0 s1\nmain.1 graph_idle\nmain.1 s0\n"))
			TH_LOG("%s", out);
	}
	/* -s graph_idle: main.0 is left out */
	snprintf(cmd, sizeof(cmd), "%s plot -s graph_idle -o %s %s 2>&1",
		 bin(), svg, c.path);
	ASSERT_EQ(0, run(cmd, out, sizeof(out))) TH_LOG("%s", out);
	if (have_py()) {
		ASSERT_EQ(0, py_names("svg", svg, out, sizeof(out)));
		EXPECT_NE(NULL, strstr(out, "\nmain.1 graph_idle\n"));
		EXPECT_EQ(NULL, strstr(out, "\nmain.0 s0\n"));
	}
	unlink(c.path);

	for (unsigned int i = 0; i < 3; i++)
		unlink(marks[i]);
	cap_begin(&c, "twohostile", 32, 2);
	c.h.nr_streams = 2;
	strcpy(c.h.domain, "\nsystem \"touch pwn8\"\n");
	cap_header(&c);
	h1 = c.h;
	h1.stream = 1;
	strcpy(h1.domain, "'.system('touch pwn9').'");
	strcpy(h1.signals[0].name, "'\n!touch pwn10\n'");
	nvpc_file_write_stream(c.f, &h1);
	for (int k = 0; k < 4; k++)
		pkt(buf + 32 * k, 32, 1000 * (k + 1), 1,
		    (uint16_t[]){ 250, 500 }, 2);
	cap_aux(&c, 0, 4000 * NS, buf, sizeof(buf));
	{
		struct nvpc_chunk k = {
			.type = NVPC_CHUNK_AUX, .time_ns = 4000 * NS,
			.size = sizeof(buf), .stream = 1,
		};

		nvpc_file_write_chunk(c.f, &k, buf);
	}
	nvpc_file_write_end(c.f, 1, 4000 * NS,
			    &(struct nvpc_end){ .end_ns = 4000 * NS,
						.hw_packets = -1, .hw_gaps = -1 });
	cap_end(&c, 4000 * NS);
	snprintf(cmd, sizeof(cmd), "%s plot -o %s %s 2>&1", bin(),
		 shq(q, sizeof(q), svg), c.path);
	EXPECT_EQ(0, run(cmd, out, sizeof(out))) TH_LOG("%s", out);
	for (unsigned int i = 0; i < 3; i++) {
		if (!stat(marks[i], &sb))
			TH_LOG("the command making %s ran", marks[i]);
		EXPECT_NE(0, stat(marks[i], &sb));
	}
	if (have_py()) {
		EXPECT_EQ(0, py_names("svg", svg, out, sizeof(out)));
		EXPECT_NE(NULL, strstr(out, "\n<5c>x0asystem \"touch pwn8\"<5c>x0a s0\n"))
			TH_LOG("%s", out);
		EXPECT_NE(NULL, strstr(out, "\n<5c>x27.system(<5c>x27touch pwn9<5c>x27).<5c>x27 <5c>x27<5c>x0a!touch pwn10<5c>x0a<5c>x27\n"))
			TH_LOG("%s", out);
	}
	for (unsigned int i = 0; i < 3; i++)
		unlink(marks[i]);
	unlink(svg);
	unlink(c.path);
}

/*
 * nvpc top WHAT ARGS, the capture at path replayed as its recording
 * ($NVPC_TOP_REPLAY), under timeout(1) for secs seconds unless 0; stdout
 * (and stderr) in out
 */
static int top_replay(const char *path, unsigned int secs, const char *what,
		      const char *args, char *out, size_t len)
{
	char cmd[2048], bound[32] = "";

	if (secs)
		snprintf(bound, sizeof(bound), "timeout %u ", secs);
	snprintf(cmd, sizeof(cmd), "NVPC_TOP_REPLAY=%s %s%s top %s %s 2>&1",
		 path, bound, bin(), what, args);
	return run(cmd, out, len);
}

/* nvpc top of several domains, the capture replayed ($NVPC_TOP_REPLAY) */
static int top_two(const char *path, const char *args, char *out, size_t len)
{
	return top_replay(path, 20,
			  "-d main.0 -s s0,s1 -d main.1 -s graph_idle,s0",
			  args, out, len);
}

/*
 * top of two domains: each interval of both on one line ("<domain>
 * <signal>"), -c report -I --csv's rows of several domains, -J an
 * element per domain and interval with its "domain". main.1's first
 * two packets come before main.0's, its last two after them: the
 * intervals of one time are still shown together, in order. 1 ms
 * intervals, -n 3: the fourth ends only with the stream.
 */
TEST(streams_top_lines_csv_json)
{
	char out[8192];
	struct cap c;

	cap_two(&c, "twotop");
	ASSERT_EQ(0, top_two(c.path, "-I 1 -n 3", out, sizeof(out)));
	EXPECT_STREQ("0.000  main.0 s0 25.00%  main.0 s1 100.00%  main.1 graph_idle 75.00%  main.1 s0 5.00%\n"
		     "0.001  main.0 s0 25.00%  main.0 s1 100.00%  main.1 graph_idle 75.00%  main.1 s0 5.00%\n"
		     "0.002  main.0 s0 25.00%  main.0 s1 100.00%  main.1 graph_idle 75.00%  main.1 s0 5.00%\n",
		     out);
	ASSERT_EQ(0, top_two(c.path, "-I 2 -n 1 -c", out, sizeof(out)));
	EXPECT_STREQ("domain,start_ns,monotonic_ns,packets,cycles,gap,"
		     "main.0:s0 count,main.0:s0 events/s,main.0:s0 busy %,"
		     "main.0:s1 count,main.0:s1 events/s,main.0:s1 busy %,"
		     "main.1:graph_idle count,main.1:graph_idle events/s,main.1:graph_idle busy %,"
		     "main.1:s0 count,main.1:s0 events/s,main.1:s0 busy %\n"
		     "main.0,0,5000000000,2,2000,0,500,250000.000000,25.000000,2000,1000000.000000,100.000000,,,,,,\n"
		     "main.1,0,5000000000,2,4000,0,,,,,,,3000,1500000.000000,75.000000,200,100000.000000,5.000000\n",
		     out);
	ASSERT_EQ(0, top_two(c.path, "-I 1 -n 3 -J", out, sizeof(out)));
	EXPECT_EQ(0, strncmp(out, "[\n    {\"domain\": \"main.0\", \"start_ns\": 0, \"monotonic_ns\": 5000000000, \"packets\": 1, \"cycles\": 1000,", 96))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "},\n    {\"domain\": \"main.1\", \"start_ns\": 2000000, \"monotonic_ns\": 5002000000, \"packets\": 1, \"cycles\": 2000, \"gap\": false, \"signals\": [{\"count\": 1500, \"events_per_s\": 1500000.000000, \"busy_pct\": 75.000000}, {\"count\": 100, \"events_per_s\": 100000.000000, \"busy_pct\": 5.000000}]}\n]\n"))
		TH_LOG("%s", out);
	unlink(c.path);
}

/* on a terminal: the table of both domains, a line per domain */
TEST(streams_top_table)
{
	char cmd[2048], out[1 << 14], q[256];
	struct cap c;
	char *last;

	if (!have("script"))
		SKIP(return, "no script(1) (util-linux)");
	cap_two(&c, "twotoptty");
	snprintf(cmd, sizeof(cmd), "(sleep 1; printf q) | NVPC_TOP_REPLAY=%s timeout 20 script -qec '%s top -d main.0 -d main.1 -I 2' /dev/null | tr -d '\\r'",
		 shq(q, sizeof(q), c.path), bin());
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	last = strrchr(out, '\033');
	ASSERT_NE(NULL, last);
	EXPECT_NE(NULL, strstr(last, "Jnvpc top - G84 sim.0, 2 domains; q quits\n"
			       "main.0: 1000000 Hz, STOP test; 0.002 s: 2 packets in 2 ms, 2000 cycles; 4 packets, 0 gaps in all\n"
			       "main.1: 2000000 Hz, STOP test; 0.002 s: 2 packets in 2 ms, 4000 cycles; 4 packets, 0 gaps in all\n\n"
			       "     BUSY     EVENTS/S  ID     DOMAIN           SIGNAL\n"
			       "  100.00%        1.0M   0x11   main.0           s1\n"
			       "   25.00%      250.0k   0x10   main.0           s0\n"
			       "   75.00%        1.5M   0xbd   main.1           graph_idle\n"
			       "    5.00%      100.0k   0x10   main.1           s0\n"))
		TH_LOG("%s", last);
	unlink(c.path);
}

/*
 * The 48-bit cycle counter wraps between the second and third packet, 2^48
 * cycles (8.9 years at 1 MHz) into the recording: the tool read them then.
 */
TEST(cycles_wrap_48)
{
	const uint64_t raw[4] = { C48 - 1500, C48 - 500, 500, 1500 };
	struct row rows[MAX_ROWS];
	uint8_t buf[4 * 32];
	char js[8192];
	struct cap c;

	cap_begin(&c, "wrap", 32, 1);
	for (int k = 0; k < 4; k++)
		pkt(buf + k * 32, 32, raw[k], 1, (uint16_t[]){ 100 }, 1);
	cap_aux(&c, 0, (C48 + 2000) * NS, buf, sizeof(buf));
	cap_end(&c, (C48 + 2000) * NS);

	ASSERT_EQ(4, csv(c.path, rows, NULL, 0));
	EXPECT_EQ(0, csv_status);
	EXPECT_EQ(C48 - 1500, rows[0].cycles);
	EXPECT_EQ(C48 - 1500, rows[0].delta);
	EXPECT_EQ(C48 - 500, rows[1].cycles);
	EXPECT_EQ(1000, rows[1].delta);
	EXPECT_EQ(C48 + 500, rows[2].cycles);
	EXPECT_EQ(1000, rows[2].delta);
	EXPECT_EQ(C48 + 1500, rows[3].cycles);
	EXPECT_EQ(1000, rows[3].delta);
	EXPECT_EQ((C48 + 1500) * NS, rows[3].time_ns);
	for (int k = 0; k < 4; k++)
		EXPECT_EQ(0, rows[k].seg);
	ASSERT_EQ(0, json(c.path, js, sizeof(js)));
	EXPECT_EQ(1, json_num(js, "wraps"));
	EXPECT_EQ(0, json_num(js, "gaps"));
	unlink(c.path);
}

/*
 * A PARTIAL record: the hardware restarted before it, so its packets
 * count cycles from 0 again in a new segment. The restart is estimated
 * from the time the record was read (20 ms) less its last packet's
 * cycles (2000 = 2 ms): 18 ms.
 */
static void cap_partial(struct cap *c, const char *name)
{
	uint8_t buf[5 * 32];

	cap_begin(c, name, 32, 1);
	for (int k = 0; k < 3; k++)
		pkt(buf + k * 32, 32, 1000 * (k + 1), 1, (uint16_t[]){ 300 }, 1);
	pkt(buf + 3 * 32, 32, 1000, 1, (uint16_t[]){ 500 }, 1);
	pkt(buf + 4 * 32, 32, 2000, 1, (uint16_t[]){ 500 }, 1);
	cap_aux(c, 0, 5000000, buf, 3 * 32);
	cap_aux(c, NVPC_AUX_PARTIAL, 20000000, buf + 3 * 32, 2 * 32);
	cap_end(c, 21000000);
}

TEST(partial_gap)
{
	struct row rows[MAX_ROWS];
	char js[8192];
	struct cap c;

	cap_partial(&c, "partial");

	ASSERT_EQ(5, csv(c.path, rows, NULL, 0));
	EXPECT_EQ(0, rows[2].seg);
	EXPECT_EQ(3000000, rows[2].time_ns);
	EXPECT_EQ(1, rows[3].seg);
	EXPECT_EQ(1000, rows[3].cycles);
	EXPECT_EQ(1000, rows[3].delta);
	EXPECT_EQ(19000000, rows[3].time_ns);
	EXPECT_EQ(1, rows[4].seg);
	EXPECT_EQ(2000, rows[4].cycles);
	EXPECT_EQ(20000000, rows[4].time_ns);
	EXPECT_EQ(500, rows[4].ctr[0]);

	ASSERT_EQ(0, json(c.path, js, sizeof(js)));
	EXPECT_EQ(1, json_num(js, "gaps"));
	EXPECT_EQ(1, json_num(js, "partial"));
	EXPECT_EQ(0, json_num(js, "discontinuities"));
	EXPECT_EQ(2, json_num(js, "segments"));
	EXPECT_EQ(15000000, json_num(js, "gap_ns"));
	EXPECT_EQ(5000000, json_num(js, "covered_ns"));
	unlink(c.path);
}

/*
 * The tool re-enabled a stopped event (a RESTART at 10 ms) and the next
 * record says PARTIAL too: one gap, timed by the restart.
 */
TEST(restart_after_stall)
{
	struct row rows[MAX_ROWS];
	uint8_t buf[2 * 32];
	char js[8192];
	struct cap c;

	cap_begin(&c, "restart", 32, 1);
	pkt(buf, 32, 1000, 1, (uint16_t[]){ 1 }, 1);
	pkt(buf + 32, 32, 1000, 1, (uint16_t[]){ 2 }, 1);
	cap_aux(&c, NVPC_AUX_TRUNCATED, 2000000, buf, 32);
	cap_restart(&c, 10000000);
	cap_aux(&c, NVPC_AUX_PARTIAL, 30000000, buf + 32, 32);
	cap_end(&c, 30000000);

	ASSERT_EQ(2, csv(c.path, rows, NULL, 0));
	EXPECT_EQ(1000000, rows[0].time_ns);
	EXPECT_EQ(1, rows[1].seg);
	EXPECT_EQ(11000000, rows[1].time_ns);
	ASSERT_EQ(0, json(c.path, js, sizeof(js)));
	EXPECT_EQ(1, json_num(js, "gaps"));
	EXPECT_EQ(1, json_num(js, "restarts"));
	EXPECT_EQ(1, json_num(js, "partial"));
	EXPECT_EQ(1, json_num(js, "truncated"));
	EXPECT_EQ(9000000, json_num(js, "gap_ns"));
	unlink(c.path);
}

/*
 * STOP every 65536 cycles, a signal always 1: its counter reaches 0xf000
 * at cycle 61440 and forces a packet with STOP 0; the STOP packet at
 * 65536 then holds the 4096 cycles since.
 */
TEST(early_packet_0xf000)
{
	struct row rows[MAX_ROWS];
	uint8_t buf[2 * 16];
	char js[8192];
	struct cap c;

	cap_begin(&c, "early", 16, 1);
	pkt(buf, 16, 0xf000, 0, (uint16_t[]){ 0xf000 }, 1);
	pkt(buf + 16, 16, 0x10000, 1, (uint16_t[]){ 0x1000 }, 1);
	cap_aux(&c, 0, 0x10000 * NS, buf, sizeof(buf));
	cap_end(&c, 0x10000 * NS);

	ASSERT_EQ(2, csv(c.path, rows, NULL, 0));
	EXPECT_EQ(0, rows[0].stop);
	EXPECT_EQ(0xf000, rows[0].ctr[0]);
	EXPECT_EQ(0xf000, rows[0].delta);
	EXPECT_EQ(1, rows[1].stop);
	EXPECT_EQ(0x1000, rows[1].delta);
	EXPECT_EQ(0x1000, rows[1].ctr[0]);
	ASSERT_EQ(0, json(c.path, js, sizeof(js)));
	EXPECT_EQ(1, json_num(js, "early_packets"));
	EXPECT_EQ(1, json_num(js, "stop_pulses"));
	EXPECT_NE(NULL, strstr(js, "\"busy_pct\": 100.000000"));
	unlink(c.path);
}

/*
 * Three STOP pulses merged into one packet (STOP 3); a saturated counter
 * in a packet of 100000 cycles (STOP held 0 that long, its early packet
 * not written in time).
 */
TEST(stop_merge_and_saturation)
{
	struct row rows[MAX_ROWS];
	uint8_t buf[3 * 32];
	char js[8192];
	struct cap c;

	cap_begin(&c, "merge", 32, 2);
	pkt(buf, 32, 1000, 1, (uint16_t[]){ 300, 7 }, 2);
	pkt(buf + 32, 32, 4000, 3, (uint16_t[]){ 900, 7 }, 2);
	pkt(buf + 64, 32, 104000, 1, (uint16_t[]){ 30000, 0xffff }, 2);
	cap_aux(&c, 0, 104000 * NS, buf, sizeof(buf));
	cap_end(&c, 104000 * NS);

	ASSERT_EQ(3, csv(c.path, rows, NULL, 0));
	EXPECT_EQ(0, csv_status);
	EXPECT_EQ(3, rows[1].stop);
	EXPECT_EQ(3000, rows[1].delta);
	EXPECT_EQ(900, rows[1].ctr[0]);
	EXPECT_EQ(0, rows[1].sat);
	EXPECT_EQ(100000, rows[2].delta);
	EXPECT_EQ(1, rows[2].sat);
	EXPECT_EQ(0xffff, rows[2].ctr[1]);
	ASSERT_EQ(0, json(c.path, js, sizeof(js)));
	EXPECT_EQ(1, json_num(js, "merged_packets"));
	EXPECT_EQ(2, json_num(js, "merged_pulses"));
	EXPECT_EQ(5, json_num(js, "stop_pulses"));
	EXPECT_EQ(1, json_num(js, "saturated"));
	EXPECT_EQ(0, json_num(js, "impossible_packets"));
	EXPECT_NE(NULL, strstr(js, "\"name\": \"s0\", \"id\": 16, \"count\": 31200, \"events_per_s\": 300000.000000, \"busy_pct\": 30.000000, \"saturated\": 0"));
	EXPECT_NE(NULL, strstr(js, "\"saturated\": 1}"));
	unlink(c.path);
}

/* short packets: four counters, 16 bytes */
TEST(short_packets)
{
	struct row rows[MAX_ROWS];
	uint8_t buf[2 * 16];
	char hdr[256];
	struct cap c;

	cap_begin(&c, "short", 16, 4);
	pkt(buf, 16, 1024, 1, (uint16_t[]){ 1, 2, 3, 4 }, 4);
	pkt(buf + 16, 16, 2048, 1, (uint16_t[]){ 5, 6, 7, 8 }, 4);
	cap_aux(&c, 0, 0, buf, sizeof(buf));
	cap_end(&c, 0);

	ASSERT_EQ(2, csv(c.path, rows, hdr, sizeof(hdr)));
	EXPECT_STREQ("segment,time_ns,cycles,delta,stop,saturated,s0,s1,s2,s3", hdr);
	EXPECT_EQ(4, rows[0].ctr[3]);
	EXPECT_EQ(8, rows[1].ctr[3]);
	EXPECT_EQ(1024, rows[1].delta);
	EXPECT_EQ(2048000, rows[1].time_ns);
	unlink(c.path);
}

/* --clock converts with another clock */
TEST(clock_override)
{
	struct row rows[MAX_ROWS];
	uint8_t buf[32];
	char cmd[512], out[4096];
	struct cap c;

	cap_begin(&c, "clock", 32, 1);
	pkt(buf, 32, 1000, 1, (uint16_t[]){ 1 }, 1);
	cap_aux(&c, 0, 0, buf, sizeof(buf));
	cap_end(&c, 0);
	ASSERT_EQ(1, csv(c.path, rows, NULL, 0));
	EXPECT_EQ(1000000, rows[0].time_ns);
	snprintf(cmd, sizeof(cmd), "%s report --csv --clock 2000000 %s",
		 bin(), c.path);
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "\n0,500000,1000,1000,1,0,1\n"));
	unlink(c.path);
}

/* a capture cut short (no END chunk, a torn chunk) still reports its packets */
TEST(unfinished_capture)
{
	struct row rows[MAX_ROWS];
	uint8_t buf[2 * 32];
	char cmd[512], out[4096];
	struct cap c;

	cap_begin(&c, "torn", 32, 1);
	pkt(buf, 32, 1000, 1, (uint16_t[]){ 1 }, 1);
	pkt(buf + 32, 32, 2000, 1, (uint16_t[]){ 1 }, 1);
	cap_aux(&c, 0, 0, buf, 32);
	cap_aux(&c, 0, 0, buf + 32, 32);
	fclose(c.f);
	ASSERT_EQ(0, truncate(c.path, NVPC_FILE_HEADER_SIZE + 32 + 32 + 32 + 10));
	ASSERT_EQ(1, csv(c.path, rows, NULL, 0));
	EXPECT_EQ(3, csv_status);
	snprintf(cmd, sizeof(cmd), "%s report %s 2>&1", bin(), c.path);
	ASSERT_EQ(3, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "torn chunk"));
	EXPECT_NE(NULL, strstr(out, "no end record"));
	unlink(c.path);
}

TEST(not_a_capture)
{
	char path[128], cmd[512], out[4096];
	FILE *f;

	tmp_path(path, sizeof(path), "junk");
	f = fopen(path, "w");
	fputs("this is not a capture, it is text\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s report %s 2>&1", bin(), path);
	EXPECT_EQ(1, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "not an nvpc capture"));
	unlink(path);
}

/* the JSON summary and the trace are valid JSON; the trace has C events */
TEST(json_and_trace_parse)
{
	uint8_t buf[3 * 32];
	char cmd[512], out[1 << 14];
	struct cap c;

	if (!have("python3"))
		SKIP(return, "no python3 to parse JSON");
	cap_begin(&c, "trace", 32, 2);
	pkt(buf, 32, 1000, 1, (uint16_t[]){ 300, 1 }, 2);
	pkt(buf + 32, 32, 1000, 1, (uint16_t[]){ 300, 1 }, 2);
	pkt(buf + 64, 32, 2000, 1, (uint16_t[]){ 300, 1 }, 2);
	cap_aux(&c, 0, 1000000, buf, 32);
	cap_aux(&c, NVPC_AUX_PARTIAL, 9000000, buf + 32, 64);
	cap_end(&c, 9000000);

	snprintf(cmd, sizeof(cmd),
		 "%s report --json %s | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[\"packets\"], d[\"signals\"][1][\"busy_pct\"])'",
		 bin(), c.path);
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_STREQ("3 0.1\n", out);
	snprintf(cmd, sizeof(cmd),
		 "%s report --trace %s | python3 -c 'import json,sys; e=json.load(sys.stdin)[\"traceEvents\"]; c=[x for x in e if x[\"ph\"]==\"C\" and x[\"name\"]==\"main.1 s0\"]; print(len(c), c[0][\"ts\"], c[0][\"args\"][\"busy %%\"], len([x for x in e if x[\"ph\"]==\"i\"]))'",
		 bin(), c.path);
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	/* 3 packets, a 0 at the gap and at the end; the first at 0 us, 30% */
	EXPECT_STREQ("5 0.0 30.0 1\n", out);
	unlink(c.path);
}

TEST(plot_svg)
{
	char svg[160], cmd[512];
	uint8_t buf[50 * 32];
	struct stat st;
	struct cap c;

	if (!have("gnuplot"))
		SKIP(return, "no gnuplot (Debian gnuplot-nox, make deps)");
	cap_begin(&c, "plot", 32, 2);
	for (int k = 0; k < 50; k++)
		pkt(buf + k * 32, 32, 1000 * (k + 1), 1,
		    (uint16_t[]){ 10 * k, 1000 - 10 * k }, 2);
	cap_aux(&c, 0, 0, buf, sizeof(buf));
	cap_end(&c, 50000000);
	tmp_path(svg, sizeof(svg), "plot.svg");
	snprintf(cmd, sizeof(cmd), "%s plot -o %s %s 2>&1", bin(), svg, c.path);
	ASSERT_EQ(0, run(cmd, NULL, 0));
	ASSERT_EQ(0, stat(svg, &st));
	EXPECT_GT(st.st_size, 1000);
	snprintf(cmd, sizeof(cmd), "grep -q '<svg' %s", svg);
	EXPECT_EQ(0, run(cmd, NULL, 0));
	snprintf(cmd, sizeof(cmd), "%s plot -o %s.gif %s 2>&1", bin(), svg, c.path);
	EXPECT_EQ(2, run(cmd, NULL, 0));
	unlink(svg);
	unlink(c.path);
}

/* --- exit status, damaged and killed captures (nvpc.rst "Exit status") -- */

/* s as one shell word: single-quoted, a quote as '\'' */
static const char *shq(char *buf, size_t len, const char *s)
{
	size_t n = 0;

	buf[n++] = '\'';
	for (; *s && n + 6 < len; s++) {
		if (*s == '\'') {
			memcpy(buf + n, "'\\''", 4);
			n += 4;
		} else {
			buf[n++] = *s;
		}
	}
	buf[n++] = '\'';
	buf[n] = '\0';
	return buf;
}

/* nvpc report ARGS PATH, stdout into the file out, stderr into err */
static int report_to(const char *args, const char *path, const char *out,
		     char *err, size_t len)
{
	char cmd[1024], p[256], o[256];

	snprintf(cmd, sizeof(cmd), "%s report %s %s 2>&1 > %s", bin(), args,
		 shq(p, sizeof(p), path), shq(o, sizeof(o), out));
	return run(cmd, err, len);
}

/* nvpc report ARGS PATH, stdout and stderr into out */
static int report_msg(const char *args, const char *path, char *out,
		      size_t len)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "%s report %s %s 2>&1", bin(), args, path);
	return run(cmd, out, len);
}

/*
 * nvpc report --trace ARGS PATH read by Python, which prints expr: d is
 * the trace, e its events, c its counter events. Its exit status.
 */
static int trace_py(const char *args, const char *path, const char *expr,
		    char *out, size_t len)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "%s report --trace %s %s | python3 -c 'import json,sys; d=json.load(sys.stdin); e=d[\"traceEvents\"]; c=[x for x in e if x[\"ph\"]==\"C\"]; print(%s)'",
		 bin(), args, path, expr);
	return run(cmd, out, len);
}

/* a one-signal capture of n packets of 1000 cycles, read at n ms */
static void cap_simple(struct cap *c, const char *name, int n, bool end)
{
	uint8_t buf[32];

	cap_begin(c, name, 32, 1);
	for (int k = 1; k <= n; k++) {
		pkt(buf, 32, 1000 * k, 1, (uint16_t[]){ 250 }, 1);
		cap_aux(c, 0, 1000 * k * NS, buf, 32);
	}
	if (end)
		cap_end(c, 1000 * n * NS);
	else
		fclose(c->f);
}

static bool have_py(void)
{
	return have("python3");
}

/*
 * tools/testing/nvpc/outputs.py: the output parsed by Python (json, csv,
 * xml), its names printed; its exit status
 */
static int py_names(const char *kind, const char *path, char *out, size_t len)
{
	const char *dir = getenv("NVPC_TESTS");
	char cmd[1024], p[256];

	snprintf(cmd, sizeof(cmd), "python3 %s/outputs.py %s %s 2>&1",
		 dir ? dir : ".", kind, shq(p, sizeof(p), path));
	return run(cmd, out, len);
}

/* a killed recording: no END chunk, or a torn one; JSON says null */
TEST(killed_capture_json)
{
	char js[8192], out[160], err[4096];
	struct cap c;
	struct stat sb;

	if (!have_py())
		SKIP(return, "no python3 to parse JSON");
	tmp_path(out, sizeof(out), "killed.json");
	cap_simple(&c, "killed", 3, false);
	EXPECT_EQ(3, report_to("--json", c.path, out, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "no end record"));
	ASSERT_EQ(0, py_names("json", out, js, sizeof(js)));
	EXPECT_EQ(3, json(c.path, js, sizeof(js)));
	EXPECT_NE(NULL, strstr(js, "\"command_status\": null,"));
	EXPECT_NE(NULL, strstr(js, "\"complete\": false,"));

	/* the END chunk cut in the middle of its payload */
	cap_simple(&c, "killed", 3, true);
	ASSERT_EQ(0, stat(c.path, &sb));
	ASSERT_EQ(0, truncate(c.path, sb.st_size - 20));
	EXPECT_EQ(3, report_to("--json", c.path, out, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "torn chunk"));
	ASSERT_EQ(0, py_names("json", out, js, sizeof(js)));
	EXPECT_EQ(3, json(c.path, js, sizeof(js)));
	EXPECT_NE(NULL, strstr(js, "\"command_status\": null,"));
	EXPECT_EQ(3, json_num(js, "packets"));
	unlink(out);
	unlink(c.path);
}

/* the 32-bit field at offset off of the file replaced by v */
static void patch32(const char *path, long off, uint32_t v)
{
	uint8_t b[4] = { v, v >> 8, v >> 16, v >> 24 };
	FILE *f = fopen(path, "r+");

	fseek(f, off, SEEK_SET);
	fwrite(b, 1, 4, f);
	fclose(f);
}

#define HDR_HEADER_SIZE	12	/* nvpc.rst "Header" */
#define CHK_SIZE	24	/* nvpc.rst: the chunk's size */

/* a header_size past the file's end is a cut header, not a killed recording */
TEST(header_size_past_end)
{
	char out[160], err[4096];
	struct cap c;

	tmp_path(out, sizeof(out), "hdr.txt");
	cap_simple(&c, "hdr", 2, true);
	patch32(c.path, HDR_HEADER_SIZE, 8192);
	EXPECT_EQ(1, report_to("", c.path, out, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "truncated header: header_size 8192"));
	EXPECT_EQ(NULL, strstr(err, "no end record"));
	patch32(c.path, HDR_HEADER_SIZE, 1u << 30);
	EXPECT_EQ(1, report_to("--json", c.path, out, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "corrupt header: header_size 1073741824"));
	patch32(c.path, HDR_HEADER_SIZE, 100);
	EXPECT_EQ(1, report_to("--csv", c.path, out, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "corrupt header: header_size 100"));
	/* a later revision's longer header is skipped */
	cap_begin(&c, "hdr", 32, 1);
	fwrite((uint8_t[16]){ 0xff }, 1, 16, c.f);
	cap_restart(&c, 0);
	cap_end(&c, 0);
	patch32(c.path, HDR_HEADER_SIZE, NVPC_FILE_HEADER_SIZE + 16);
	EXPECT_EQ(0, report_to("--json", c.path, out, err, sizeof(err)));
	EXPECT_STREQ("", err);
	unlink(out);
	unlink(c.path);
}

/* 0 complete, 1 nothing reported, 3 unfinished or damaged, 4 impossible */
TEST(report_exit_status)
{
	static const char * const modes[] = { "", "--csv", "--json", "--trace" };
	uint8_t junk[32] = { 0 };
	char out[160], err[4096];
	struct cap c;
	FILE *f;

	tmp_path(out, sizeof(out), "status.txt");
	for (int m = 0; m < 4; m++) {
		cap_simple(&c, "status", 2, true);
		EXPECT_EQ(0, report_to(modes[m], c.path, out, err, sizeof(err)));
		cap_simple(&c, "status", 2, false);
		EXPECT_EQ(3, report_to(modes[m], c.path, out, err, sizeof(err)));
		/* a chunk whose size runs past the end of the file */
		cap_simple(&c, "status", 2, false);
		f = fopen(c.path, "a");
		nvpc_file_write_chunk(f, &(struct nvpc_chunk){ .type = 1, .size = 32 }, junk);
		fclose(f);
		ASSERT_EQ(0, truncate(c.path, NVPC_FILE_HEADER_SIZE + 2 * 64 + 40));
		EXPECT_EQ(3, report_to(modes[m], c.path, out, err, sizeof(err)));
		EXPECT_NE(NULL, strstr(err, "torn chunk at the end (8 of 32 bytes)"));
		/* a corrupt chunk size in the middle */
		cap_begin(&c, "status", 32, 1);
		cap_restart(&c, 0);
		cap_end(&c, 0);
		patch32(c.path, NVPC_FILE_HEADER_SIZE + CHK_SIZE, 0x7fffffff);
		EXPECT_EQ(3, report_to(modes[m], c.path, out, err, sizeof(err)));
		EXPECT_NE(NULL, strstr(err, "corrupt file"));
		unlink(c.path);
		EXPECT_EQ(1, report_to(modes[m], c.path, out, err, sizeof(err)));
	}
	unlink(out);
}

/* --- impossible packets (nvpc.rst "Impossible packets") ----------------- */

/*
 * The cycle counter goes backwards 11 ms into a recording with no gap
 * flag: not a 48-bit wrap (that takes 8.9 years at 1 MHz). The packet is
 * left out, a new segment counts from it.
 */
TEST(impossible_backwards_cycles)
{
	const uint64_t raw[5] = { 1000, 2000, 500, 1500, 2500 };
	struct row rows[MAX_ROWS];
	uint8_t buf[5 * 32];
	char js[8192], out[160], err[8192];
	struct cap c;

	cap_begin(&c, "backwards", 32, 1);
	for (int k = 0; k < 5; k++)
		pkt(buf + k * 32, 32, raw[k], 1, (uint16_t[]){ 100 }, 1);
	cap_aux(&c, 0, 11000000, buf, sizeof(buf));
	cap_end(&c, 11000000);

	ASSERT_EQ(4, csv(c.path, rows, NULL, 0));
	EXPECT_EQ(4, csv_status);
	EXPECT_EQ(0, rows[1].seg);
	EXPECT_EQ(2000, rows[1].cycles);
	EXPECT_EQ(1, rows[2].seg);
	EXPECT_EQ(1000, rows[2].delta);
	EXPECT_EQ(1000, rows[2].cycles);
	EXPECT_EQ(3000000, rows[2].time_ns);
	EXPECT_EQ(2000, rows[3].cycles);
	ASSERT_EQ(4, json(c.path, js, sizeof(js)));
	EXPECT_EQ(5, json_num(js, "packets"));
	EXPECT_EQ(1, json_num(js, "impossible_packets"));
	EXPECT_EQ(1, json_num(js, "impossible_cycles"));
	EXPECT_EQ(0, json_num(js, "wraps"));
	EXPECT_EQ(1, json_num(js, "gaps"));
	EXPECT_EQ(2, json_num(js, "segments"));
	EXPECT_EQ(4000, json_num(js, "cycles"));
	EXPECT_EQ(4000000, json_num(js, "covered_ns"));
	EXPECT_NE(NULL, strstr(js, "\"count\": 400, \"events_per_s\": 100000.000000, \"busy_pct\": 10.000000"));
	tmp_path(out, sizeof(out), "backwards.txt");
	EXPECT_EQ(4, report_to("", c.path, out, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "1 impossible packets"));
	snprintf(js, sizeof(js), "cat '%s'", out);
	run(js, err, sizeof(err));
	EXPECT_NE(NULL, strstr(err, "impossible 1 packets, left out of every count below: 1 with a cycle counter that is not continuous"));
	EXPECT_NE(NULL, strstr(err, "covering 0.004000 s of 0.011000 s"));
	unlink(out);
	unlink(c.path);
}

/*
 * A first packet 2^47 cycles in (1.6 days at 1 GHz) read 11 ms after the
 * start, then the packets after it: the next one is no 48-bit wrap either.
 */
TEST(impossible_cycles_ahead)
{
	const uint64_t raw[4] = { 1ULL << 47, 1000, 2000, 3000 };
	struct row rows[MAX_ROWS];
	uint8_t buf[4 * 32];
	char js[8192];
	struct cap c;

	cap_begin(&c, "ahead", 32, 1);
	c.h.clock_hz = 1000000000;
	cap_header(&c);
	for (int k = 0; k < 4; k++)
		pkt(buf + k * 32, 32, raw[k], 1, (uint16_t[]){ 100 }, 1);
	cap_aux(&c, 0, 11000000, buf, sizeof(buf));
	cap_end(&c, 11000000);

	ASSERT_EQ(2, csv(c.path, rows, NULL, 0));
	EXPECT_EQ(0, rows[0].seg);
	EXPECT_EQ(1000, rows[0].delta);
	EXPECT_EQ(2000, rows[1].cycles);
	ASSERT_EQ(4, json(c.path, js, sizeof(js)));
	EXPECT_EQ(2, json_num(js, "impossible_cycles"));
	EXPECT_EQ(0, json_num(js, "wraps"));
	EXPECT_EQ(0, json_num(js, "gaps"));
	EXPECT_EQ(2000, json_num(js, "cycles"));
	unlink(c.path);
}

/*
 * A counter above its packet's cycles (6144% busy) and a packet of 0
 * cycles: left out of the counts, rates and rows; the others stand.
 */
TEST(impossible_counts_and_zero_cycles)
{
	struct row rows[MAX_ROWS];
	uint8_t buf[4 * 32];
	char js[8192], cmd[512], out[1 << 14];
	struct cap c;

	cap_begin(&c, "counts", 32, 2);
	pkt(buf, 32, 1000, 1, (uint16_t[]){ 500, 10 }, 2);
	pkt(buf + 32, 32, 2000, 1, (uint16_t[]){ 61440, 10 }, 2);
	pkt(buf + 64, 32, 2000, 1, (uint16_t[]){ 0, 0 }, 2);
	pkt(buf + 96, 32, 3000, 2000, (uint16_t[]){ 500, 10 }, 2);
	cap_aux(&c, 0, 5000000, buf, sizeof(buf));
	cap_end(&c, 5000000);

	ASSERT_EQ(1, csv(c.path, rows, NULL, 0));
	EXPECT_EQ(4, csv_status);
	EXPECT_EQ(1000, rows[0].cycles);
	ASSERT_EQ(4, json(c.path, js, sizeof(js)));
	EXPECT_EQ(3, json_num(js, "impossible_packets"));
	EXPECT_EQ(2, json_num(js, "counts_above_cycles"));
	EXPECT_EQ(1, json_num(js, "zero_cycle_packets"));
	EXPECT_EQ(1000, json_num(js, "cycles"));
	EXPECT_EQ(1, json_num(js, "stop_pulses"));
	EXPECT_NE(NULL, strstr(js, "\"name\": \"s0\", \"id\": 16, \"count\": 500, \"events_per_s\": 500000.000000, \"busy_pct\": 50.000000"));
	snprintf(cmd, sizeof(cmd), "%s report --trace %s 2>/dev/null", bin(),
		 c.path);
	EXPECT_EQ(4, run(cmd, out, sizeof(out)));
	EXPECT_EQ(NULL, strstr(out, "6144"));
	EXPECT_NE(NULL, strstr(out, "\"busy %\":50.000"));
	unlink(c.path);
}

/* --- names from the capture (nvpc.rst "Names in the outputs") ----------- */

static const char * const hostile_sig[4] = {
	"x,y", "q\"u", "n\nr\r", "\xff\xfe",
};

/* a capture whose every name holds a quote, a control character, ... */
static void cap_hostile(struct cap *c)
{
	uint8_t buf[2 * 16];

	cap_begin(c, "hostile", 16, 4);
	strcpy(c->h.chip, "G\"84\\\n\x01\xff");
	strcpy(c->h.bus, "a,b");
	strcpy(c->h.pmu, "nvpc'");
	strcpy(c->h.domain, "m\t\xc3");
	strcpy(c->h.stop, "\xe2\x82\xac caf\xc3\xa9 \xed\xa0\x80");
	for (int i = 0; i < 4; i++)
		strcpy(c->h.signals[i].name, hostile_sig[i]);
	cap_header(c);
	pkt(buf, 16, 1000, 1, (uint16_t[]){ 1, 2, 3, 4 }, 4);
	pkt(buf + 16, 16, 2000, 1, (uint16_t[]){ 5, 6, 7, 8 }, 4);
	cap_aux(c, 0, 2000000, buf, sizeof(buf));
	cap_end(c, 2000000);
}

/* JSON, trace and CSV parse (Python) and carry every name */
TEST(hostile_names_parse)
{
	char out[160], err[4096], names[4096];
	struct cap c;

	if (!have_py())
		SKIP(return, "no python3 to parse the outputs");
	tmp_path(out, sizeof(out), "hostile.out");
	cap_hostile(&c);

	ASSERT_EQ(0, report_to("--json", c.path, out, err, sizeof(err)));
	ASSERT_EQ(0, py_names("json", out, names, sizeof(names)));
	EXPECT_STREQ("G\"84<5c><a><1><fffd>\na,b\nnvpc'\nm<9><fffd>\n"
		     "<20ac> caf<e9> <fffd><fffd><fffd>\n"
		     "x,y\nq\"u\nn<a>r<d>\n<fffd><fffd>\n", names);

	ASSERT_EQ(0, report_to("--trace", c.path, out, err, sizeof(err)));
	ASSERT_EQ(0, py_names("trace", out, names, sizeof(names)));
	EXPECT_STREQ("G\"84<5c><a><1><fffd>\na,b\nm<9><fffd>\n"
		     "GPU G\"84<5c><a><1><fffd> a,b (nvpc')\n"
		     "m<9><fffd> x,y\nm<9><fffd> q\"u\nm<9><fffd> n<a>r<d>\n"
		     "m<9><fffd> <fffd><fffd>\n", names);

	/* CSV: one line per record, control bytes as the text \xNN */
	ASSERT_EQ(0, report_to("--csv", c.path, out, err, sizeof(err)));
	ASSERT_EQ(0, py_names("csv", out, names, sizeof(names)));
	EXPECT_STREQ("x,y\nq\"u\nn<5c>x0ar<5c>x0d\n<5c>xff<5c>xfe\n", names);
	snprintf(names, sizeof(names), "wc -l < '%s'", out);
	run(names, err, sizeof(err));
	EXPECT_STREQ("3\n", err);
	snprintf(names, sizeof(names), "head -1 '%s'", out);
	run(names, err, sizeof(err));
	EXPECT_STREQ("segment,time_ns,cycles,delta,stop,saturated,\"x,y\",\"q\"\"u\",n\\x0ar\\x0d,\\xff\\xfe\n",
		     err);

	ASSERT_EQ(0, report_to("", c.path, out, err, sizeof(err)));
	EXPECT_EQ(0, py_names("text", out, names, sizeof(names)));
	unlink(out);
	unlink(c.path);
}

/* names and output paths that would be gnuplot commands: none runs */
TEST(hostile_names_plot)
{
	static const char * const marks[] = {
		"pwn1", "pwn2", "pwn3", "pwn4", "pwn5", "pwn6", "pwn7",
	};
	char svg[256], cmd[1024], out[8192], q[256];
	uint8_t buf[20 * 32];
	struct stat sb;
	struct cap c;

	if (!have("gnuplot"))
		SKIP(return, "no gnuplot (Debian gnuplot-nox, make deps)");
	for (unsigned int i = 0; i < 7; i++)
		unlink(marks[i]);
	cap_begin(&c, "plothostile", 32, 4);
	strcpy(c.h.chip, "x'\nsystem 'touch pwn1'\n#");
	strcpy(c.h.bus, "`touch pwn2`");
	strcpy(c.h.domain, "\nsystem \"touch pwn3\"\n");
	strcpy(c.h.stop, "'.system('touch pwn4').'");
	strcpy(c.h.signals[0].name, "@x`touch pwn5`");
	strcpy(c.h.signals[1].name, "'\n!touch pwn6\n'");
	strcpy(c.h.signals[2].name, "<svg>&amp;\"\\");
	strcpy(c.h.signals[3].name, "\xff\x01\xc3\xa9");
	cap_header(&c);
	for (int k = 0; k < 20; k++)
		pkt(buf + k * 32, 32, 1000 * (k + 1), 1,
		    (uint16_t[]){ 10 * k, 500, 0, 1000 }, 4);
	cap_aux(&c, 0, 20000000, buf, sizeof(buf));
	cap_end(&c, 20000000);

	/* the output's name a command too */
	tmp_path(svg, sizeof(svg), "o'\nsystem 'touch pwn7'\n.svg");
	snprintf(cmd, sizeof(cmd), "%s plot -o %s %s 2>&1", bin(),
		 shq(q, sizeof(q), svg), c.path);
	EXPECT_EQ(0, run(cmd, out, sizeof(out)));
	TH_LOG("%s", out);
	for (unsigned int i = 0; i < 7; i++) {
		if (!stat(marks[i], &sb))
			TH_LOG("the command making %s ran", marks[i]);
		EXPECT_NE(0, stat(marks[i], &sb));
	}
	ASSERT_EQ(0, stat(svg, &sb));
	EXPECT_GT(sb.st_size, 1000);
	if (have_py()) {
		EXPECT_EQ(0, py_names("svg", svg, out, sizeof(out)));
		/* the names as labels, a quote as the text \x27 */
		EXPECT_NE(NULL, strstr(out, "\nx<5c>x27<5c>x0asystem <5c>x27touch pwn1<5c>x27<5c>x0a# `touch pwn2` <5c>x0asystem \"touch pwn3\"<5c>x0a: busy share per signal\nSTOP <5c>x27.system(<5c>x27touch pwn4<5c>x27).<5c>x27, 1000000 Hz\n"));
		EXPECT_NE(NULL, strstr(out, "\n@x`touch pwn5`\n<5c>x27<5c>x0a!touch pwn6<5c>x0a<5c>x27\n<svg>&amp;\"<5c>\n<5c>xff<5c>x01<e9>\n"));
	}
	for (unsigned int i = 0; i < 7; i++)
		unlink(marks[i]);
	unlink(svg);
	unlink(c.path);
}

/* -o into a missing directory: an error, nothing on stdout */
TEST(plot_missing_directory)
{
	char png[256], cmd[1024], out[8192];
	struct cap c;

	cap_simple(&c, "plotdir", 20, true);
	tmp_path(png, sizeof(png), "no-such-dir/run.png");
	snprintf(cmd, sizeof(cmd), "%s plot -o %s %s 2>/dev/null | wc -c",
		 bin(), png, c.path);
	EXPECT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_STREQ("0\n", out);
	snprintf(cmd, sizeof(cmd), "%s plot -o %s %s 2>&1 >/dev/null", bin(),
		 png, c.path);
	EXPECT_EQ(1, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "cannot create"));
	EXPECT_NE(NULL, strstr(out, "No such file or directory"));
	unlink(c.path);
}

/* make -C tools/nvpc CFLAGS=... keeps what the build needs */
TEST(make_with_cflags)
{
	const char *src = getenv("NVPC_SRC");
	char dir[160], cmd[1024], out[8192];

	if (!src)
		SKIP(return, "NVPC_SRC (tools/nvpc) not given");
	tmp_path(dir, sizeof(dir), "cflags");
	snprintf(cmd, sizeof(cmd), "make -s -C %s OUT=%s CFLAGS='-O0 -g0' 2>&1 && %s/nvpc --help",
		 src, dir, dir);
	EXPECT_EQ(0, run(cmd, out, sizeof(out))) TH_LOG("%s", out);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(0, system(cmd));
}

/* --- choosing what to show (nvpc.rst "Choosing what to show") -------- */

/* the periodic capture of periodic_counts: packet k covers [k-1, k) ms */
static void cap_periodic(struct cap *c, const char *name)
{
	uint8_t buf[10 * 32];

	cap_begin(c, name, 32, 3);
	for (int k = 1; k <= 10; k++)
		pkt(buf + (k - 1) * 32, 32, 1000 * k, 1,
		    (uint16_t[]){ 300, 1000, 0 }, 3);
	cap_aux(c, 0, 10000 * NS, buf, sizeof(buf));
	cap_end(c, 10000 * NS);
}

/* -s by name and by id, in the order given; an unknown one is refused */
TEST(report_signals_by_name)
{
	char cmd[1024], out[8192];
	struct cap c;

	cap_periodic(&c, "select");
	snprintf(cmd, sizeof(cmd), "%s report --csv -s s1,0x10 %s | head -2",
		 bin(), c.path);
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_STREQ("segment,time_ns,cycles,delta,stop,saturated,s1,s0\n"
		     "0,1000000,1000,1000,1,0,1000,300\n", out);
	/* an id in decimal, -s twice */
	snprintf(cmd, sizeof(cmd), "%s report --json -s 18 -s s0 %s", bin(),
		 c.path);
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "\"signals\": [\n    {\"name\": \"s2\", \"id\": 18, \"count\": 0, \"events_per_s\": 0.000000, \"busy_pct\": 0.000000, \"saturated\": 0},\n    {\"name\": \"s0\", \"id\": 16, \"count\": 3000, \"events_per_s\": 300000.000000, \"busy_pct\": 30.000000, \"saturated\": 0}\n  ]"));
	EXPECT_EQ(2, report_msg("-s s0,graph_idle", c.path, out, sizeof(out)));
	EXPECT_STREQ("nvpc: -s graph_idle: no such signal in the capture; the capture's signals: s0 (0x10), s1 (0x11), s2 (0x12)\n",
		     out);
	unlink(c.path);
}

/*
 * --from 3ms --to 6ms: the packets starting in [3, 6) ms, k = 4, 5, 6:
 * 3000 cycles, s0 900 of them (30%, 300000 events/s).
 */
TEST(report_time_range)
{
	char cmd[1024], out[8192];
	struct cap c;
	int n;

	cap_periodic(&c, "range");
	snprintf(cmd, sizeof(cmd), "%s report --csv --from 3ms --to 0.006 %s",
		 bin(), c.path);
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	n = 0;
	for (char *l = strchr(out, '\n'); l && l[1]; l = strchr(l + 1, '\n'))
		n++;
	EXPECT_EQ(3, n);
	EXPECT_NE(NULL, strstr(out, "\n0,4000000,4000,1000,1,0,300,1000,0\n0,5000000,5000,1000,1,0,300,1000,0\n0,6000000,6000,1000,1,0,300,1000,0\n"));
	snprintf(cmd, sizeof(cmd), "%s report --json --from 3000us --to 6000000ns %s",
		 bin(), c.path);
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "\"shown\": {\"from_ns\": 3000000, \"to_ns\": 6000000, \"packets\": 3, \"cycles\": 3000},"));
	EXPECT_NE(NULL, strstr(out, "\"name\": \"s0\", \"id\": 16, \"count\": 900, \"events_per_s\": 300000.000000, \"busy_pct\": 30.000000"));
	/* the whole capture's counts stay the capture's */
	EXPECT_EQ(10, json_num(out, "packets"));
	snprintf(cmd, sizeof(cmd), "%s report --from 3ms %s", bin(), c.path);
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "  shown      7 packets starting from 0.003000 s, 7000 cycles (--from, --to)\n"));
	/* bad times */
	EXPECT_EQ(2, report_msg("--from 2x", c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "--from 2x: a time since the recording began"));
	EXPECT_EQ(2, report_msg("--from 5ms --to 5ms", c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "--to must be after --from"));
	EXPECT_EQ(2, report_msg("--to -1", c.path, out, sizeof(out)));
	unlink(c.path);
}

/* plot -s and --from: only those curves; a range without packets is exit 1 */
TEST(plot_signals_and_range)
{
	char svg[160], cmd[1024], out[8192];
	struct cap c;

	if (!have("gnuplot") || !have_py())
		SKIP(return, "no gnuplot or python3");
	cap_periodic(&c, "plotsel");
	tmp_path(svg, sizeof(svg), "plotsel.svg");
	snprintf(cmd, sizeof(cmd), "%s plot -s s2 --from 2ms -o %s %s 2>&1",
		 bin(), svg, c.path);
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	ASSERT_EQ(0, py_names("svg", svg, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "\ns2\n"));
	EXPECT_EQ(NULL, strstr(out, "\ns0\n"));
	snprintf(cmd, sizeof(cmd), "%s plot --from 20ms -o %s %s 2>&1", bin(),
		 svg, c.path);
	EXPECT_EQ(1, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "no packet to plot in the time asked for"));
	unlink(svg);
	unlink(c.path);
}

/* --- intervals and absolute time (nvpc.rst "Intervals", "Absolute time") */

#define MONO0	5000000000ULL	/* start_monotonic_ns of these captures */

/*
 * Two phases: packets 1-5 (each [k-1, k) ms) s0 100 of 1000 cycles,
 * packets 6-10 900; s1 always. The recording began at CLOCK_MONOTONIC
 * 5 s.
 */
static void cap_phases(struct cap *c, const char *name)
{
	uint8_t buf[10 * 32];

	cap_begin(c, name, 32, 2);
	c->h.start_monotonic_ns = MONO0;
	cap_header(c);
	for (int k = 1; k <= 10; k++)
		pkt(buf + (k - 1) * 32, 32, 1000 * k, 1,
		    (uint16_t[]){ k <= 5 ? 100 : 900, 1000 }, 2);
	cap_aux(c, 0, 10000 * NS, buf, sizeof(buf));
	cap_end(c, 10000 * NS);
}

/*
 * --interval 2: packets k = 2i+1, 2i+2 in interval i (a packet counts
 * where it starts). Interval 0: s0 200 of 2000 cycles, 10%, 100000
 * events/s; interval 2 (packets 5, 6): 1000, 50%; interval 4: 1800, 90%.
 */
TEST(interval_csv_json_text)
{
	char cmd[1024], out[1 << 14], line[512];
	struct cap c;

	cap_phases(&c, "interval");
	snprintf(cmd, sizeof(cmd), "%s report --csv --interval 2 %s", bin(),
		 c.path);
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_STREQ("start_ns,monotonic_ns,packets,cycles,gap,s0 count,s0 events/s,s0 busy %,s1 count,s1 events/s,s1 busy %\n"
		     "0,5000000000,2,2000,0,200,100000.000000,10.000000,2000,1000000.000000,100.000000\n"
		     "2000000,5002000000,2,2000,0,200,100000.000000,10.000000,2000,1000000.000000,100.000000\n"
		     "4000000,5004000000,2,2000,0,1000,500000.000000,50.000000,2000,1000000.000000,100.000000\n"
		     "6000000,5006000000,2,2000,0,1800,900000.000000,90.000000,2000,1000000.000000,100.000000\n"
		     "8000000,5008000000,2,2000,0,1800,900000.000000,90.000000,2000,1000000.000000,100.000000\n",
		     out);
	/* a bare number is milliseconds in any form: 2e0 as 2 */
	snprintf(cmd, sizeof(cmd), "%s report --csv -I 2e0 %s | sed -n 3p",
		 bin(), c.path);
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_STREQ("2000000,5002000000,2,2000,0,200,100000.000000,10.000000,2000,1000000.000000,100.000000\n",
		     out);
	/* -I with a unit; -s; JSON */
	snprintf(cmd, sizeof(cmd), "%s report --json -I 4ms -s s0 %s", bin(),
		 c.path);
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "  \"interval_ns\": 4000000,\n  \"intervals\": [\n"
		     "    {\"start_ns\": 0, \"monotonic_ns\": 5000000000, \"packets\": 4, \"cycles\": 4000, \"gap\": false, \"signals\": [{\"count\": 400, \"events_per_s\": 100000.000000, \"busy_pct\": 10.000000}]},\n"
		     "    {\"start_ns\": 4000000, \"monotonic_ns\": 5004000000, \"packets\": 4, \"cycles\": 4000, \"gap\": false, \"signals\": [{\"count\": 2800, \"events_per_s\": 700000.000000, \"busy_pct\": 70.000000}]},\n"
		     "    {\"start_ns\": 8000000, \"monotonic_ns\": 5008000000, \"packets\": 2, \"cycles\": 2000, \"gap\": false, \"signals\": [{\"count\": 1800, \"events_per_s\": 900000.000000, \"busy_pct\": 90.000000}]}\n  ]\n}\n"));
	/* text: perf stat -I's layout, a line per signal */
	snprintf(cmd, sizeof(cmd), "%s report -I 2 %s", bin(), c.path);
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	snprintf(line, sizeof(line), "\n%14.6f %10llu.%09llu %8llu %12llu  %-24s %12llu %s%13.6g %8.3f%%\n",
		 0.004, 5ULL, 4000000ULL, 2ULL, 2000ULL, "s0", 1000ULL, " ",
		 500000.0, 50.0);
	EXPECT_NE(NULL, strstr(out, line)) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "gap"));
	/* bad intervals */
	EXPECT_EQ(2, report_msg("-I 0", c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "--interval 0: milliseconds above 0"));
	EXPECT_EQ(2, report_msg("-I 1x", c.path, out, sizeof(out)));
	EXPECT_EQ(2, report_msg("-I 18446744073709551615", c.path, out,
				sizeof(out)));
	/* a fraction of a millisecond: 1.5 ms, packets 1 and 2 in the first */
	ASSERT_EQ(0, report_msg("--csv -I 1.5", c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "\n0,5000000000,2,2000,0,200,"));
	EXPECT_NE(NULL, strstr(out, "\n1500000,5001500000,1,1000,0,100,"));
	unlink(c.path);
}

/*
 * A PARTIAL gap (partial_gap's capture): packets in [0, 3) ms, then the
 * restart at 18 ms. --interval 5: interval 0 ends at the gap, interval
 * 3 (15-20 ms) holds the packets after it: both marked.
 */
TEST(interval_gap_marked)
{
	char cmd[1024], out[8192];
	struct cap c;

	cap_partial(&c, "ivgap");
	snprintf(cmd, sizeof(cmd), "%s report --csv -I 5 %s", bin(), c.path);
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_STREQ("start_ns,monotonic_ns,packets,cycles,gap,s0 count,s0 events/s,s0 busy %\n"
		     "0,0,3,3000,1,900,300000.000000,30.000000\n"
		     "15000000,15000000,2,2000,1,1000,500000.000000,50.000000\n",
		     out);
	/* the trace: 0 at the gap's start (3 ms), the gap, the interval */
	if (have_py()) {
		ASSERT_EQ(0, trace_py("-I 5", c.path, "[(x[\"ts\"], x[\"args\"][\"busy %\"]) for x in c], [(x[\"ts\"], x[\"args\"][\"until_us\"]) for x in e if x[\"ph\"]==\"i\"]",
				      out, sizeof(out)));
		EXPECT_STREQ("[(0.0, 30.0), (3000.0, 0.0), (18000.0, 50.0), (20000.0, 0.0)] [(3000.0, 18000.0)]\n",
			     out);
	}
	unlink(c.path);
}

/* --monotonic: CLOCK_MONOTONIC in the CSV, the trace, and --from */
TEST(monotonic_times)
{
	char out[8192];
	struct cap c;

	cap_phases(&c, "mono");
	ASSERT_EQ(0, report_msg("--csv --monotonic --from 5.008", c.path, out,
				sizeof(out)));
	EXPECT_STREQ("segment,monotonic_ns,cycles,delta,stop,saturated,s0,s1\n"
		     "0,5009000000,9000,1000,1,0,900,1000\n"
		     "0,5010000000,10000,1000,1,0,900,1000\n", out);
	ASSERT_EQ(0, report_msg("", c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "(CLOCK_MONOTONIC 5.000000000 s)\n"));
	if (!have_py())
		SKIP(return, "no python3");
	ASSERT_EQ(0, trace_py("--monotonic", c.path, "d[\"otherData\"][\"clock\"], *[x[\"ts\"] for x in c if x[\"name\"]==\"main.1 s0\"][::10]",
			      out, sizeof(out)));
	/* 11 events: the packets' starts, 0 at the end */
	EXPECT_STREQ("CLOCK_MONOTONIC 5000000.0 5010000.0\n", out);
	unlink(c.path);
}

/*
 * 25000 packets of 1 ms: a trace sums them per 2 ms by default (the
 * shortest 1/2/5 x 10^k ns cutting 25 s into fewer than 20000
 * intervals: 12500, and 0 at the end); --full has every packet.
 */
TEST(trace_downsampled_by_default)
{
	enum { N = 25000, PER = 1000 };
	static uint8_t buf[PER * 32];
	char out[4096];
	struct cap c;

	if (!have_py())
		SKIP(return, "no python3");
	cap_begin(&c, "long", 32, 1);
	for (int k = 0; k < N; k++) {
		pkt(buf + (k % PER) * 32, 32, 1000ULL * (k + 1), 1,
		    (uint16_t[]){ k % 2 ? 1000 : 0 }, 1);
		if (k % PER == PER - 1)
			cap_aux(&c, 0, 1000000ULL * (k + 1), buf, sizeof(buf));
	}
	cap_end(&c, 1000000ULL * N);
	ASSERT_EQ(0, trace_py("", c.path, "d[\"otherData\"][\"interval_ns\"], len(c), c[0][\"args\"][\"busy %\"], c[1][\"ts\"]",
			      out, sizeof(out)));
	/* every 2 ms interval: one packet at 0, one at 1000 of 2000: 50% */
	EXPECT_STREQ("2000000 12501 50.0 2000.0\n", out);
	ASSERT_EQ(0, trace_py("--full", c.path, "d[\"otherData\"][\"interval_ns\"], len(c), c[0][\"args\"][\"busy %\"], c[1][\"args\"][\"busy %\"]",
			      out, sizeof(out)));
	EXPECT_STREQ("0 25001 0.0 100.0\n", out);
	unlink(c.path);
}

/*
 * The default bound is the trace's, not each domain's: two domains of
 * 12000 packets each (1000 cycles at 1 MHz, 1 ms; 12 s each) are 24000
 * packets, past 20000: both are summed per one interval, the shortest
 * 1/2/5 x 10^k ns cutting their 2 x 11.999 s into fewer than 20000:
 * 2 ms, 6000 intervals each (6001 counter events per track with the
 * last value). One domain of 12000 alone keeps every packet.
 */
TEST(trace_bound_is_the_traces)
{
	enum { N = 12000, PER = 1000 };
	static uint8_t buf[PER * 32];
	struct nvpc_end e = {
		.reason = NVPC_END_COMMAND, .hw_packets = -1, .hw_gaps = -1,
	};
	char out[4096];
	uint64_t off[2] = { 0, 0 };
	struct nvpc_header h1;
	struct cap c;

	if (!have_py())
		SKIP(return, "no python3");
	cap_begin(&c, "bound2", 32, 1);
	c.h.nr_streams = 2;
	strcpy(c.h.domain, "main.0");
	cap_header(&c);
	h1 = c.h;
	h1.stream = 1;
	strcpy(h1.domain, "main.1");
	nvpc_file_write_stream(c.f, &h1);
	for (int k = 0; k < N; k++) {
		pkt(buf + (k % PER) * 32, 32, 1000ULL * (k + 1), 1,
		    (uint16_t[]){ k % 2 ? 1000 : 0 }, 1);
		if (k % PER == PER - 1) {
			cap_aux_stream(&c, 0, &off[0], 1000000ULL * (k + 1),
				       buf, sizeof(buf));
			cap_aux_stream(&c, 1, &off[1], 1000000ULL * (k + 1),
				       buf, sizeof(buf));
		}
	}
	e.end_ns = 1000000ULL * N;
	nvpc_file_write_end(c.f, 0, e.end_ns, &e);
	nvpc_file_write_end(c.f, 1, e.end_ns, &e);
	fclose(c.f);
	ASSERT_EQ(0, trace_py("", c.path, "len(c), c[0][\"args\"][\"busy %\"]",
			      out, sizeof(out)));
	EXPECT_STREQ("12002 50.0\n", out);
	unlink(c.path);

	/* one domain of as many packets: every one */
	cap_begin(&c, "bound1", 32, 1);
	for (int k = 0; k < N; k++) {
		pkt(buf + (k % PER) * 32, 32, 1000ULL * (k + 1), 1,
		    (uint16_t[]){ k % 2 ? 1000 : 0 }, 1);
		if (k % PER == PER - 1)
			cap_aux(&c, 0, 1000000ULL * (k + 1), buf, sizeof(buf));
	}
	cap_end(&c, 1000000ULL * N);
	ASSERT_EQ(0, trace_py("", c.path, "len(c)", out, sizeof(out)));
	EXPECT_STREQ("12001\n", out);
	unlink(c.path);
}

/*
 * nvpc-perf-trace: perf script's samples beside the trace, at their
 * CLOCK_MONOTONIC time in microseconds (perf script's lines written by
 * hand in perf 6.1's layout for -F comm,pid,tid,cpu,time,event --ns).
 */
TEST(perf_samples_beside_the_trace)
{
	const char *src = getenv("NVPC_SRC");
	char cmd[2048], out[4096], perf[160], q[256];
	struct cap c;
	FILE *f;

	if (!have_py() || !src)
		SKIP(return, "no python3 or NVPC_SRC");
	cap_phases(&c, "perfalign");
	tmp_path(perf, sizeof(perf), "perf.txt");
	f = fopen(perf, "w");
	fputs("          nvpc   812/812   [000]  5.001000000: cpu-clock: \n"
	      "            sh   812/812   [001]  5.004500000: cpu-clock: \n"
	      "   kworker/0:1    33/33    [000]  5.009000001:    1001000 cpu-clock:ppp: \n"
	      "not a sample line\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s report --trace --monotonic %s > %s.json && python3 %s/perf-trace.py %s.json < %s | python3 -c 'import json,sys; d=json.load(sys.stdin); e=d[\"traceEvents\"]; print(d[\"otherData\"][\"perf_samples\"], [(x[\"name\"], x[\"pid\"], x[\"tid\"], x[\"ts\"]) for x in e if x[\"ph\"]==\"i\"], [x[\"args\"][\"name\"] for x in e if x[\"name\"]==\"thread_name\"], min(x[\"ts\"] for x in e if x[\"ph\"]==\"C\"))'",
		 bin(), c.path, shq(q, sizeof(q), perf), src, q, q);
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	/* the forked child renamed at its exec: the thread's last name */
	EXPECT_STREQ("3 [('cpu-clock', 812, 812, 5001000.0), ('cpu-clock', 812, 812, 5004500.0), ('cpu-clock:ppp', 33, 33, 5009000.001)] ['kworker/0:1', 'sh'] 5000000.0\n",
		     out);
	snprintf(cmd, sizeof(cmd), "python3 %s/perf-trace.py %s.json < /dev/null 2>&1",
		 src, q);
	EXPECT_EQ(1, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "no perf script sample"));
	snprintf(cmd, sizeof(cmd), "rm -f %s %s.json", q, q);
	EXPECT_EQ(0, system(cmd));
	unlink(c.path);
}

/* --- nvpc top, on a capture replayed as if recorded ($NVPC_TOP_REPLAY) -- */

/* nvpc top ARGS with cap_phases' capture as its recording; stdout in out */
static int top(const char *path, const char *args, char *out, size_t len)
{
	return top_replay(path, 0, "-d main.1 -s s0", args, out, len);
}

/*
 * Not a terminal: a line per interval of 2 ms (interval_csv_json_text's
 * sums: 10%, 10%, 50% busy); -c is report -I --csv's, -J a JSON array
 * of its intervals. The fifth interval ends only with the stream, so -n
 * 4 at most before top stops the replay.
 */
TEST(top_lines_csv_json)
{
	char out[8192];
	struct cap c;

	cap_phases(&c, "top");
	ASSERT_EQ(0, top(c.path, "-I 2 -n 3", out, sizeof(out)));
	EXPECT_STREQ("0.000  s0 10.00%  s1 100.00%\n0.002  s0 10.00%  s1 100.00%\n"
		     "0.004  s0 50.00%  s1 100.00%\n", out);
	ASSERT_EQ(0, top(c.path, "-I 4ms -n 1 -c", out, sizeof(out)));
	EXPECT_STREQ("start_ns,monotonic_ns,packets,cycles,gap,s0 count,s0 events/s,s0 busy %,s1 count,s1 events/s,s1 busy %\n"
		     "0,5000000000,4,4000,0,400,100000.000000,10.000000,4000,1000000.000000,100.000000\n",
		     out);
	ASSERT_EQ(0, top(c.path, "-I 2 -n 4 -J", out, sizeof(out)));
	EXPECT_EQ(0, strncmp(out, "[\n    {\"start_ns\": 0, \"monotonic_ns\": 5000000000, \"packets\": 2,", 63));
	EXPECT_NE(NULL, strstr(out, "{\"start_ns\": 6000000, \"monotonic_ns\": 5006000000, \"packets\": 2, \"cycles\": 2000, \"gap\": false, \"signals\": [{\"count\": 1800, \"events_per_s\": 900000.000000, \"busy_pct\": 90.000000}, {\"count\": 2000, \"events_per_s\": 1000000.000000, \"busy_pct\": 100.000000}]}\n]\n"));
	EXPECT_EQ(2, top(c.path, "-n 0", out, sizeof(out)));
	EXPECT_EQ(2, top(c.path, "-- sleep 1", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "top runs no command"));
	unlink(c.path);
}

/*
 * SIGTERM, SIGINT or SIGHUP sent to top alone (not its process group:
 * kill PID, timeout(1)) ends it as q does: it stops its recording, shows
 * the intervals it has (the replay's 2 ms ones, packets 1-10: five; the
 * last ends with the stream) and exits 0 at once. Measured by the
 * shell: 2 s to top's end at most (it would wait for SIGKILL at 20 s).
 */
TEST(top_ends_on_its_signals)
{
	static const char * const sigs[] = { "TERM", "INT", "HUP" };
	char cmd[2048], out[8192];
	unsigned int i;
	struct cap c;

	cap_phases(&c, "topsig");
	for (i = 0; i < 3; i++) {
		snprintf(cmd, sizeof(cmd),
			 "NVPC_TOP_REPLAY=%s %s top -d main.1 -s s0 -I 2 > %s.out 2>&1 & "
			 "p=$!; (sleep 20; kill -KILL $p) > /dev/null 2>&1 & w=$!; "
			 "sleep 0.5; t0=$(date +%%s%%N); kill -%s $p; wait $p; rc=$?; "
			 "echo \"rc $rc ms $((($(date +%%s%%N) - t0) / 1000000))\"; "
			 "kill $w; cat %s.out; rm -f %s.out",
			 c.path, bin(), c.path, sigs[i], c.path, c.path);
		ASSERT_EQ(0, run(cmd, out, sizeof(out)));
		TH_LOG("SIG%s: %s", sigs[i], out);
		EXPECT_EQ(0, strncmp(out, "rc 0 ms ", 8));
		EXPECT_GT(2000, atoi(out + 8));
		EXPECT_NE(NULL, strstr(out, "0.004  s0 50.00%"));
	}
	unlink(c.path);
}

/*
 * On a terminal (script(1) gives top a pty): the table, redrawn each
 * interval, sorted by busy share; q quits, and the interval that was
 * still open (packets 9, 10: s0 90%) is shown last.
 */
TEST(top_table_on_a_pty)
{
	char cmd[2048], out[1 << 14], q[256];
	struct cap c;
	char *last;

	if (!have("script"))
		SKIP(return, "no script(1) (util-linux)");
	cap_phases(&c, "toptty");
	snprintf(cmd, sizeof(cmd), "(sleep 1; printf q) | NVPC_TOP_REPLAY=%s timeout 20 script -qec '%s top -d main.1 -I 2' /dev/null | tr -d '\\r'",
		 shq(q, sizeof(q), c.path), bin());
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	last = strrchr(out, '\033');
	ASSERT_NE(NULL, last);
	/* 1 MHz: s1 1000000 events/s, s0 900000 */
	EXPECT_NE(NULL, strstr(last, "\n     BUSY     EVENTS/S  ID     SIGNAL\n"
			       "  100.00%        1.0M   0x11   s1\n"
			       "   90.00%      900.0k   0x10   s0\n"))
		TH_LOG("%s", last);
	EXPECT_NE(NULL, strstr(out, "nvpc top - G84 sim.0 main.1, 1000000 Hz, STOP test; q quits\n"));
	EXPECT_NE(NULL, strstr(last, "0.008 s: 2 packets in 2 ms, 2000 cycles; 10 packets, 0 gaps in all\n"));
	unlink(c.path);
}

/* --- perf-like conventions (nvpc.rst "Input and output") -------------- */

/* - reads stdin (a pipe is spooled), -i FILE, -o OUT; the same rows */
TEST(stdin_and_output_file)
{
	char cmd[1024], out[4096], file[160], q[256];
	struct cap c;

	cap_simple(&c, "stdin", 3, true);
	tmp_path(file, sizeof(file), "stdin.csv");
	/* 3 packets of 1000 cycles at 1 MHz, 250 each */
	snprintf(cmd, sizeof(cmd), "cat %s | %s report --csv -", c.path, bin());
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_STREQ("segment,time_ns,cycles,delta,stop,saturated,s0\n"
		     "0,1000000,1000,1000,1,0,250\n0,2000000,2000,1000,1,0,250\n"
		     "0,3000000,3000,1000,1,0,250\n", out);
	snprintf(cmd, sizeof(cmd), "%s report --csv -i - < %s", bin(), c.path);
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "0,3000000,3000,1000,1,0,250\n"));
	snprintf(cmd, sizeof(cmd), "%s report --csv -i %s -o %s", bin(),
		 c.path, shq(q, sizeof(q), file));
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_STREQ("", out);
	snprintf(cmd, sizeof(cmd), "tail -1 %s", q);
	run(cmd, out, sizeof(out));
	EXPECT_STREQ("0,3000000,3000,1000,1,0,250\n", out);
	/* two captures, a directory that is not there */
	snprintf(cmd, sizeof(cmd), "-i %.200s", c.path);
	EXPECT_EQ(2, report_msg(cmd, c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "one capture, not 2"));
	EXPECT_EQ(1, report_msg("-o /nonexistent/x", c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "cannot create /nonexistent/x"));
	/* not a capture on stdin: exit 1 as for a file */
	snprintf(cmd, sizeof(cmd), "echo hello | %s report - 2>&1", bin());
	EXPECT_EQ(1, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "not an nvpc capture"));
	unlink(file);
	unlink(c.path);
}

/*
 * -o never costs the user a file (nvpc.rst "Output files"): report -o
 * naming the capture it reads (by its name, a symlink or stdin), or any
 * other capture, is refused with exit 1 and both stay byte for byte; a
 * report that fails leaves an old OUT as it was; one that succeeds
 * replaces it whole, with its permissions; /dev/null stays a device;
 * plot refuses the capture as its output too.
 */
TEST(output_never_loses_a_file)
{
	char cmd[1024], out[4096], before[8192], after[8192], rep[160];
	char other[160], link[160], q[256];
	struct stat sb;
	long n;
	struct cap c;

	cap_simple(&c, "keep", 3, true);
	n = slurp(c.path, before, sizeof(before));
	ASSERT_LT(0, n);
	tmp_path(other, sizeof(other), "keep-other.nvpc");
	tmp_path(link, sizeof(link), "keep-link.txt");
	tmp_path(rep, sizeof(rep), "keep.txt");
	snprintf(cmd, sizeof(cmd), "cp %s %s && ln -sf %s %s", c.path, other,
		 c.path, link);
	ASSERT_EQ(0, system(cmd));

	/* the capture itself, as a text report and as CSV */
	snprintf(cmd, sizeof(cmd), "-o %s", c.path);
	EXPECT_EQ(1, report_msg(cmd, c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "the capture being read")) TH_LOG("%s", out);
	snprintf(cmd, sizeof(cmd), "--csv -o %s", c.path);
	EXPECT_EQ(1, report_msg(cmd, c.path, out, sizeof(out)));
	/* through a symlink, and read from stdin */
	snprintf(cmd, sizeof(cmd), "-o %s", link);
	EXPECT_EQ(1, report_msg(cmd, c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "the capture being read"));
	snprintf(cmd, sizeof(cmd), "%s report -o %s - < %s 2>&1", bin(),
		 c.path, c.path);
	EXPECT_EQ(1, run(cmd, out, sizeof(out)));
	/* another capture */
	snprintf(cmd, sizeof(cmd), "-o %s", other);
	EXPECT_EQ(1, report_msg(cmd, c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "an nvpc capture is there")) TH_LOG("%s", out);
	EXPECT_EQ(n, slurp(c.path, after, sizeof(after)));
	EXPECT_EQ(0, memcmp(before, after, n));
	EXPECT_EQ(n, slurp(other, after, sizeof(after)));
	EXPECT_EQ(0, memcmp(before, after, n));

	/* a report that fails (no such capture) leaves OUT as it was */
	ASSERT_EQ(0, put_text(rep, "the user's notes\n"));
	ASSERT_EQ(0, chmod(rep, 0640));
	snprintf(cmd, sizeof(cmd), "-o %s", shq(q, sizeof(q), rep));
	EXPECT_EQ(1, report_msg(cmd, "/nonexistent.nvpc", out, sizeof(out)));
	EXPECT_LT(0, slurp(rep, after, sizeof(after)));
	EXPECT_STREQ("the user's notes\n", after);
	/* one that succeeds replaces it whole, keeping its mode */
	EXPECT_EQ(0, report_msg(cmd, c.path, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_LT(0, slurp(rep, after, sizeof(after)));
	EXPECT_EQ(NULL, strstr(after, "the user's notes"));
	EXPECT_NE(NULL, strstr(after, "nvpc capture, format version"));
	ASSERT_EQ(0, stat(rep, &sb));
	EXPECT_EQ(0640, sb.st_mode & 07777);
	/* no temporary file is left beside it */
	snprintf(cmd, sizeof(cmd), "ls %s.* 2>/dev/null | wc -l", q);
	run(cmd, out, sizeof(out));
	EXPECT_STREQ("0\n", out);
	/* /dev/null is written in place, not replaced */
	EXPECT_EQ(0, report_msg("-o /dev/null", c.path, out, sizeof(out)));
	ASSERT_EQ(0, stat("/dev/null", &sb));
	EXPECT_TRUE(S_ISCHR(sb.st_mode));

	if (have("gnuplot")) {
		char svg[160];

		/* a capture named .svg would be plot's default output */
		tmp_path(svg, sizeof(svg), "keep.svg");
		snprintf(cmd, sizeof(cmd), "cp %s %s", c.path, svg);
		ASSERT_EQ(0, system(cmd));
		snprintf(cmd, sizeof(cmd), "%s plot %s 2>&1", bin(), svg);
		EXPECT_EQ(1, run(cmd, out, sizeof(out)));
		EXPECT_NE(NULL, strstr(out, "the capture being read")) TH_LOG("%s", out);
		EXPECT_EQ(n, slurp(svg, after, sizeof(after)));
		EXPECT_EQ(0, memcmp(before, after, n));
		unlink(svg);
	}
	unlink(rep);
	unlink(link);
	unlink(other);
	unlink(c.path);
}

/* how many files path.* there are (temporary files left beside path) */
static int leftovers(const char *path)
{
	char cmd[512], out[64];

	snprintf(cmd, sizeof(cmd), "ls -d %s.* 2>/dev/null | wc -l", path);
	run(cmd, out, sizeof(out));
	return atoi(out);
}

/*
 * -o never replaces a link or a special file (nvpc.rst "Output files"):
 * a link to a regular file, or a link to that link, stays a link and
 * its target gets the report (the temporary file beside the target, its
 * permissions kept); a link to nothing is refused; a named pipe and a
 * link to one are written in place; /dev/fd/1, /proc/self/fd/1 and a
 * link to one are stdout, whatever stdout is (here a regular file: the
 * old code made a temporary file beside the name and renamed it over);
 * a descriptor that is not open is refused. /dev/stdout itself is
 * selftests/nvpcounter/out_test.sh's, in a mount namespace of the VM:
 * never this host's /dev.
 */
TEST(output_through_links_and_pipes)
{
	char cmd[4096], arg[400], out[8192], dir[160], target[200], link[160];
	char chain[160], dangling[160], fifo[160], flink[160], got[160];
	char txt[160], fdlink[160];
	struct stat sb;
	struct cap c;

	cap_simple(&c, "olink", 3, true);
	tmp_path(dir, sizeof(dir), "olink-dir");
	tmp_path(link, sizeof(link), "olink-link.txt");
	tmp_path(chain, sizeof(chain), "olink-chain.txt");
	tmp_path(dangling, sizeof(dangling), "olink-dangling.txt");
	tmp_path(fifo, sizeof(fifo), "olink-fifo");
	tmp_path(flink, sizeof(flink), "olink-fifo-link");
	tmp_path(got, sizeof(got), "olink-got.txt");
	tmp_path(txt, sizeof(txt), "olink-stdout.txt");
	tmp_path(fdlink, sizeof(fdlink), "olink-fd1");
	snprintf(target, sizeof(target), "%s/target.txt", dir);
	/* (chain: a relative link, to the link beside it) */
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s %s %s %s %s %s && mkdir %s && ln -s %s %s && ln -s %s %s && ln -s %s/none %s && mkfifo %s && ln -s %s %s && ln -s /proc/self/fd/1 %s",
		 dir, link, chain, dangling, fifo, flink, fdlink, dir, target,
		 link, strrchr(link, '/') + 1, chain, dir, dangling, fifo, fifo,
		 flink, fdlink);
	ASSERT_EQ(0, system(cmd));

	/* a link to a regular file, and a link to that link */
	ASSERT_EQ(0, put_text(target, "the user's notes\n"));
	ASSERT_EQ(0, chmod(target, 0640));
	snprintf(arg, sizeof(arg), "-o %s", link);
	EXPECT_EQ(0, report_msg(arg, c.path, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_TRUE(is_link_to(link, target));
	EXPECT_LT(0, slurp(target, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "nvpc capture, format version")) TH_LOG("%s", out);
	ASSERT_EQ(0, stat(target, &sb));
	EXPECT_EQ(0640, sb.st_mode & 07777);
	ASSERT_EQ(0, put_text(target, "the user's notes\n"));
	snprintf(arg, sizeof(arg), "--csv -o %s", chain);
	EXPECT_EQ(0, report_msg(arg, c.path, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_TRUE(is_link_to(chain, strrchr(link, '/') + 1));
	EXPECT_TRUE(is_link_to(link, target));
	EXPECT_LT(0, slurp(target, out, sizeof(out)));
	EXPECT_EQ(0, strncmp(out, "segment,time_ns,", 16)) TH_LOG("%s", out);
	EXPECT_EQ(0, leftovers(target));
	EXPECT_EQ(0, leftovers(link));
	EXPECT_EQ(0, leftovers(chain));

	/* a link to nothing: refused, the link stays, nothing created */
	snprintf(arg, sizeof(arg), "-o %s", dangling);
	EXPECT_EQ(1, report_msg(arg, c.path, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "which is not there")) TH_LOG("%s", out);
	EXPECT_EQ(0, lstat(dangling, &sb));
	EXPECT_TRUE(S_ISLNK(sb.st_mode));
	EXPECT_EQ(0, leftovers(dangling));

	/* a named pipe, and a link to it: written in place */
	snprintf(cmd, sizeof(cmd), "(timeout 20 cat %s > %s &) ; %s report -o %s %s 2>&1",
		 fifo, got, bin(), flink, c.path);
	EXPECT_EQ(0, run(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_TRUE(is_link_to(flink, fifo));
	ASSERT_EQ(0, lstat(fifo, &sb));
	EXPECT_TRUE(S_ISFIFO(sb.st_mode));
	usleep(200000);
	EXPECT_LT(0, slurp(got, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "nvpc capture, format version")) TH_LOG("%s", out);

	/* descriptors: stdout is a regular file here */
	static const char *const fd1[] = { "/dev/fd/1", "/proc/self/fd/1", NULL };

	for (int i = 0; i < 3; i++) {
		const char *name = fd1[i] ? fd1[i] : fdlink;

		unlink(txt);
		snprintf(cmd, sizeof(cmd), "%s report -o %s %s 2>&1 > %s",
			 bin(), name, c.path, txt);
		EXPECT_EQ(0, run(cmd, out, sizeof(out))) TH_LOG("-o %s: %s", name, out);
		EXPECT_LT(0, slurp(txt, out, sizeof(out)));
		EXPECT_NE(NULL, strstr(out, "nvpc capture, format version")) TH_LOG("-o %s: %s", name, out);
	}
	EXPECT_TRUE(is_link_to(fdlink, "/proc/self/fd/1"));
	EXPECT_EQ(0, leftovers(fdlink));
	snprintf(cmd, sizeof(cmd), "%s report -o /dev/fd/7 %s 2>&1", bin(),
		 c.path);
	EXPECT_EQ(1, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "descriptor 7 is not open")) TH_LOG("%s", out);

	if (have("gnuplot")) {
		char svg[160], slink[160];

		/* plot: the same rules (it always renamed before) */
		tmp_path(svg, sizeof(svg), "olink-fifo.svg");
		tmp_path(slink, sizeof(slink), "olink-link.svg");
		snprintf(cmd, sizeof(cmd), "rm -f %s %s && echo old > %s.svg && mkfifo %s && ln -s %s.svg %s",
			 svg, slink, target, svg, target, slink);
		ASSERT_EQ(0, system(cmd));
		unlink(got);
		snprintf(cmd, sizeof(cmd), "(timeout 10 cat %s > %s &) ; %s plot -o %s %s 2>&1",
			 svg, got, bin(), svg, c.path);
		EXPECT_EQ(0, run(cmd, out, sizeof(out))) TH_LOG("%s", out);
		ASSERT_EQ(0, lstat(svg, &sb));
		EXPECT_TRUE(S_ISFIFO(sb.st_mode));
		usleep(200000);
		EXPECT_LT(0, slurp(got, out, sizeof(out)));
		EXPECT_NE(NULL, strstr(out, "<svg")) TH_LOG("%.200s", out);
		snprintf(cmd, sizeof(cmd), "%s plot -o %s %s 2>&1", bin(),
			 slink, c.path);
		EXPECT_EQ(0, run(cmd, out, sizeof(out))) TH_LOG("%s", out);
		snprintf(cmd, sizeof(cmd), "%s.svg", target);
		EXPECT_TRUE(is_link_to(slink, cmd));
		EXPECT_LT(0, slurp(cmd, out, sizeof(out)));
		EXPECT_NE(NULL, strstr(out, "<svg")) TH_LOG("%.200s", out);
		EXPECT_EQ(0, leftovers(slink));
		unlink(txt);
		snprintf(cmd, sizeof(cmd), "%s plot -o /dev/fd/1 %s 2>&1 > %s",
			 bin(), c.path, txt);
		EXPECT_EQ(0, run(cmd, out, sizeof(out))) TH_LOG("%s", out);
		EXPECT_LT(0, slurp(txt, out, sizeof(out)));
		EXPECT_NE(NULL, strstr(out, "<svg")) TH_LOG("%.200s", out);
		unlink(svg);
		unlink(slink);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s %s %s %s %s %s %s %s",
		 dir, link, chain, dangling, fifo, flink, fdlink, got, txt);
	EXPECT_EQ(0, system(cmd));
	unlink(c.path);
}

/*
 * report: two of -c, -J and --trace are bad arguments (exit 2, said),
 * not the last one wins; one of them given twice is still one format
 */
TEST(report_two_formats)
{
	char cmd[1024], out[4096];
	struct cap c;

	cap_simple(&c, "repfmt", 3, true);
	snprintf(cmd, sizeof(cmd), "%s report -c -J %s 2>&1", bin(), c.path);
	EXPECT_EQ(2, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "-c and -J both choose the output's format")) TH_LOG("%s", out);
	snprintf(cmd, sizeof(cmd), "%s report --json --trace %s 2>&1", bin(),
		 c.path);
	EXPECT_EQ(2, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "-J and -t both choose the output's format")) TH_LOG("%s", out);
	snprintf(cmd, sizeof(cmd), "%s report -c --csv %s 2>&1", bin(), c.path);
	EXPECT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_EQ(0, strncmp(out, "segment,time_ns,", 16)) TH_LOG("%s", out);
	unlink(c.path);
}

/* top: -J and -c both given are bad arguments, not the last one wins */
TEST(top_two_formats)
{
	char out[4096];
	struct cap c;

	cap_simple(&c, "twofmt", 3, true);
	EXPECT_EQ(2, top_replay(c.path, 20, "-d main.1 -s s0", "-n 1 -J -c",
				out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "-J and -c both choose the output's format")) TH_LOG("%s", out);
	EXPECT_EQ(2, top_replay(c.path, 20, "-d main.1 -s s0", "-n 1 --csv --json",
				out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "-c and -J both")) TH_LOG("%s", out);
	/* the same one twice is no conflict */
	EXPECT_EQ(0, top_replay(c.path, 20, "-d main.1 -s s0", "-I 1 -n 1 -J -J",
				out, sizeof(out))) TH_LOG("%s", out);
	unlink(c.path);
}

/*
 * top with no -d (every GPU's engines, engines.c): -J and -c both given
 * are refused before any PMU is looked at, as with -d
 */
TEST(top_engines_two_formats)
{
	char cmd[1024], out[4096];

	snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=/nonexistent %s top -n 1 -J -c 2>&1",
		 bin());
	EXPECT_EQ(2, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "-J and -c both choose the output's format")) TH_LOG("%s", out);
	snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=/nonexistent %s top -n 1 --csv --json 2>&1",
		 bin());
	EXPECT_EQ(2, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "-c and -J both")) TH_LOG("%s", out);
}

/* plot -o - writes SVG to stdout; plot of stdin needs -o */
TEST(plot_stdout)
{
	char cmd[1024], out[1 << 16];
	struct cap c;

	if (!have("gnuplot"))
		SKIP(return, "no gnuplot (Debian gnuplot-nox, make deps)");
	cap_simple(&c, "plotstdout", 20, true);
	snprintf(cmd, sizeof(cmd), "cat %s | %s plot -o - - | head -c 5000 | grep -c '<svg'",
		 c.path, bin());
	EXPECT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_STREQ("1\n", out);
	snprintf(cmd, sizeof(cmd), "%s plot - < %s 2>&1", bin(), c.path);
	EXPECT_EQ(2, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "give -o OUT"));
	unlink(c.path);
}

/*
 * nvpc.c's command table drives the usage, the dispatch and the unknown
 * command's message: every command nvpc --help lists answers its own
 * --help with 0, and an unknown command is refused (exit 2) naming each
 */
TEST(command_table)
{
	char cmd[1024], out[8192], err[8192], *save, *line;
	unsigned int n = 0;

	snprintf(cmd, sizeof(cmd), "%s bogus 2>&1", bin());
	EXPECT_EQ(2, run(cmd, err, sizeof(err)));
	snprintf(cmd, sizeof(cmd), "%s --help", bin());
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[32];

		/* "  record   capture a domain's ..." */
		if (strncmp(line, "  ", 2) || line[2] == ' ' ||
		    sscanf(line, " %31s", name) != 1)
			continue;
		n++;
		snprintf(cmd, sizeof(cmd), "%s %s --help >/dev/null 2>&1",
			 bin(), name);
		EXPECT_EQ(0, run(cmd, NULL, 0)) TH_LOG("nvpc %s --help", name);
		EXPECT_NE(NULL, strstr(err, name)) TH_LOG("%s not in '%s'", name, err);
	}
	EXPECT_EQ(8, n);
}

/*
 * nvpc scan --diff on two scans written by hand in -J's layout (a
 * signal a line, Documentation/nvpc.rst "nvpc scan"): each class of
 * change once, a toggling signal whose share moved 0.05% (below the
 * 0.1% that --diff calls a change) and one whose edge rate doubled;
 * a file that is not a scan is refused
 */
TEST(scan_diff_classes)
{
	static const char *const head = "{\"gpu\": \"nvpcounter\", \"chip\": \"G84\", \"bus\": \"sim.0\", \"seconds\": 1.000, \"samples\": 0, \"sample_seconds\": 0.000, \"sample_bound\": 1.000000, \"rounds\": 1, \"rounds_min\": 1, \"count_seconds\": 1.000, \"signals\": [";
	static const char *const sig = "%s\n    {\"domain\": \"main.1\", \"signal\": %d, \"name\": null, \"how\": \"counted\", \"constant\": %s, \"share\": %s, \"level\": 0, \"level_cycles\": 1000, \"edges\": %d, \"edge_cycles\": 1000, \"edges_per_s\": 0.000, \"seen\": 1.000000}";
	/* id, constant, share, edges: before, after */
	static const struct { int id; const char *c0, *s0; int e0; const char *c1, *s1; int e1; } w[] = {
		{ 1, "0", "0.0", 0, "1", "1.0", 0 },		/* 0 -> 1 */
		{ 2, "1", "1.0", 0, "0", "0.0", 0 },		/* 1 -> 0 */
		{ 3, "0", "0.0", 0, "null", "0.3", 100 },	/* 0 -> toggling */
		{ 4, "1", "1.0", 0, "null", "0.7", 100 },	/* 1 -> toggling */
		{ 5, "null", "0.3", 100, "0", "0.0", 0 },	/* toggling -> 0 */
		{ 6, "null", "0.3", 100, "1", "1.0", 0 },	/* toggling -> 1 */
		{ 7, "null", "0.3", 100, "null", "0.3", 200 },	/* edges doubled */
		{ 8, "null", "0.3", 100, "null", "0.3005", 100 },	/* the same */
		{ 9, "0", "0.0", 0, "0", "0.0", 0 },		/* the same */
	};
	char a[160], b[160], cmd[1024], out[8192];
	FILE *fa, *fb;

	tmp_path(a, sizeof(a), "scan-a.json");
	tmp_path(b, sizeof(b), "scan-b.json");
	fa = fopen(a, "w");
	fb = fopen(b, "w");
	ASSERT_NE(NULL, fa);
	ASSERT_NE(NULL, fb);
	fputs(head, fa);
	fputs(head, fb);
	for (unsigned int i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		fprintf(fa, sig, i ? "," : "", w[i].id, w[i].c0, w[i].s0, w[i].e0);
		fprintf(fb, sig, i ? "," : "", w[i].id, w[i].c1, w[i].s1, w[i].e1);
	}
	fputs("\n  ]}\n", fa);
	fputs("\n  ]}\n", fb);
	fclose(fa);
	fclose(fb);
	snprintf(cmd, sizeof(cmd), "%s scan --diff -c %s %s", bin(), a, b);
	EXPECT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_STREQ("domain,signal,name,class,share_a,share_b,rate_a,rate_b\n"
		     "main.1,1,,0 -> 1,0.000000000,1.000000000,0,0\n"
		     "main.1,2,,1 -> 0,1.000000000,0.000000000,0,0\n"
		     "main.1,3,,0 -> toggling,0.000000000,0.300000000,0,0.1\n"
		     "main.1,4,,1 -> toggling,1.000000000,0.700000000,0,0.1\n"
		     "main.1,5,,toggling -> 0,0.300000000,0.000000000,0.1,0\n"
		     "main.1,6,,toggling -> 1,0.300000000,1.000000000,0.1,0\n"
		     "main.1,7,,toggling -> toggling,0.300000000,0.300000000,0.1,0.2\n",
		     out);
	snprintf(cmd, sizeof(cmd), "%s scan --diff %s /dev/null 2>&1", bin(), a);
	EXPECT_EQ(1, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "not a scan nvpc scan -J wrote"));
	snprintf(cmd, sizeof(cmd), "%s scan -t 1 -- true 2>&1", bin());
	EXPECT_EQ(2, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "-t SECONDS or -- CMD (one of them)"));
	/* bad arguments before any GPU is looked at: exit 2 */
	snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=/nonexistent %s scan --signals 0x100 -t 1 2>&1", bin());
	EXPECT_EQ(2, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "--signals 0x100: ids or ranges"));
	snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=/nonexistent %s scan --signals 0x10-0x1 -t 1 2>&1", bin());
	EXPECT_EQ(2, run(cmd, out, sizeof(out)));
	unlink(a);
	unlink(b);
}

/* --version; make install puts nvpc and nvpc.1, which groff reads cleanly */
TEST(version_and_install)
{
	const char *src = getenv("NVPC_SRC");
	char dir[160], cmd[1024], out[8192];

	snprintf(cmd, sizeof(cmd), "%s --version", bin());
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_STREQ("nvpc 0.1 (nvpcounter), capture format version 3\n", out);
	if (!src)
		SKIP(return, "NVPC_SRC (tools/nvpc) not given");
	tmp_path(dir, sizeof(dir), "install");
	snprintf(cmd, sizeof(cmd), "make -s -C %s/../.. install DESTDIR=%s PREFIX=/usr >/dev/null 2>&1 && cd %s/usr && ls bin/nvpc bin/nvpc-perf-trace share/man/man1/nvpc.1",
		 src, dir, dir);
	EXPECT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_STREQ("bin/nvpc\nbin/nvpc-perf-trace\nshare/man/man1/nvpc.1\n", out);
	if (have("groff")) {
		snprintf(cmd, sizeof(cmd), "groff -man -Tutf8 -ww -z %s/nvpc.1 2>&1",
			 src);
		EXPECT_EQ(0, run(cmd, out, sizeof(out)));
		EXPECT_STREQ("", out);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(0, system(cmd));
}

/* --- nvpc record's checks, on a fake sysfs tree ------------------------ */

static int record(const char *root, const char *args, char *out, size_t len)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=%s %s record -o %s/out.nvpc %s 2>&1",
		 root, bin(), root, args);
	return run(cmd, out, len);
}

TEST(record_argument_errors)
{
	static const char *const bad_sizes[] = {
		"65535", "17G", "16385M", "8T", "1MB", "-64M",
		"99999999999999999999K",
	};
	char root[128], out[8192], cmd[256];

	fake_sysfs(root, sizeof(root));

	EXPECT_EQ(2, record(root, "-d main.1 -s graph_idle --every 1000", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "1024, 2048, 4096, 8192, 16384, 32768 or 65536"));
	EXPECT_EQ(2, record(root, "-d main.1 -s graph_idle --every 0x3000", out, sizeof(out)));
	EXPECT_EQ(2, record(root, "-d main.1 -s graph_idle --every 131072", out, sizeof(out)));
	EXPECT_EQ(2, record(root, "-d main.1 -s graph_idle --every 1024 --stop graph_idle", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "give one"));
	EXPECT_EQ(2, record(root, "-s graph_idle", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "needs a domain"));
	EXPECT_EQ(2, record(root, "-d main.1 -s graph_idle --aux-pages 3", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "power of two"));
	/* the capture's ring: 64K .. 16G, K/M/G or bytes, nothing clamped */
	for (size_t i = 0; i < ARRAY_SIZE(bad_sizes); i++) {
		char args[128], want[160];

		snprintf(args, sizeof(args), "-d main.1 -s 1 --write-buffer %s",
			 bad_sizes[i]);
		EXPECT_EQ(2, record(root, args, out, sizeof(out)));
		snprintf(want, sizeof(want), "--write-buffer %s: bytes, or a number with K, M or G, from 64K to 16G",
			 bad_sizes[i]);
		EXPECT_NE(NULL, strstr(out, want));
	}
	/* in range: past the arguments, to the perf_event_open that fails */
	EXPECT_EQ(1, record(root, "-d main.1 -s 1 --write-buffer 64K", out, sizeof(out)));
	EXPECT_EQ(NULL, strstr(out, "--write-buffer"));
	EXPECT_EQ(1, record(root, "-d main.1 -s 1 --write-buffer 16G", out, sizeof(out)));
	EXPECT_EQ(NULL, strstr(out, "--write-buffer"));

	EXPECT_EQ(2, record(root, "-d main.1 -s bogus", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "unknown signal 'bogus'"));
	EXPECT_NE(NULL, strstr(out, "graph_idle, zcull_00"));
	EXPECT_EQ(NULL, strstr(out, "d1_cycles"));
	EXPECT_EQ(NULL, strstr(out, "ptimer_time_b12"));
	EXPECT_NE(NULL, strstr(out, "0x00..0xff (main.1 has 256 signals)"));

	EXPECT_EQ(2, record(root, "-d main.1 -s ptimer_time_b12", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "another domain"));
	EXPECT_EQ(2, record(root, "-d main.0 -s 0x60", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "0x00..0x5f (main.0 has 96 signals)"));
	EXPECT_EQ(2, record(root, "-d main.5 -s 1", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "no domain main.5; its domains: main.0, main.1"));
	EXPECT_EQ(2, record(root, "-d core -s 1", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "not a domain name"));
	EXPECT_EQ(1, record(root, "-g nvpcounter_3 -d main.1 -s 1", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "nvpcounter PMUs: nvpcounter"));
	EXPECT_EQ(2, record(root, "--short -d main.1 -s 1,2,3,4,5", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "more than 4 signals"));
	EXPECT_EQ(2, record(root, "-d main.1 -s 1,2,3,4,5,6,7,8,9,10,11,12,13", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "more than 12 signals"));

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	EXPECT_EQ(0, system(cmd));
}

/* nvpc list: every PMU, each domain's clock, signals, record mode, names */
TEST(list_gpus)
{
	char root[128], cmd[512], out[8192];

	fake_sysfs(root, sizeof(root));
	snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=%s %s list", root, bin());
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_STREQ("nvpcounter: G84 sim.0 (perf type 2000000000, cpu 0)\n"
		     "  domain   clock        nominal Hz  measured Hz signals  record\n"
		     "  main.0   host          100000000            0      96  no\n"
		     "    named: ptimer_time_b12 0x2c\n"
		     "  main.1   graph         575000000            0     256  yes (AUX area up to 256 MiB)\n"
		     "    named: graph_idle 0xbd, zcull_00 0x07\n", out);
	snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=%s %s list -d main.0 | tail -2",
		 root, bin());
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_STREQ("  main.0   host          100000000            0      96  no\n"
		     "    named: ptimer_time_b12 0x2c\n", out);
	/* 40 names: wrapped at 78 columns under "named: ", no trailing space */
	for (int i = 0; i < 40; i++) {
		char ev[64], def[64];

		snprintf(ev, sizeof(ev), "nvpcounter/events/sig_%02d", i);
		snprintf(def, sizeof(def), "dset=0,dom=0,sig0=0x%02x", 0x30 + i);
		put(root, ev, def);
	}
	snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=%s %s list -d main.0 | awk 'NR > 4 && (length($0) > 78 || / $/ || !/^           sig_/) { bad++ } END { print NR, bad + 0 }'",
		 root, bin());
	ASSERT_EQ(0, run(cmd, out, sizeof(out)));
	/*
	 * "    named: " and 21 columns of "ptimer_time_b12 0x2c,", then 13 a
	 * "sig_NN 0xNN,": 3 of them on the first line (col 71), 5 on each
	 * next one (11 + 12 + 4 x 13 = 75): 37 in 8 lines, 12 in all
	 */
	EXPECT_STREQ("12 0\n", out);
	snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=%s %s list -g nvpcounter_2 2>&1",
		 root, bin());
	EXPECT_EQ(1, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "no PMU nvpcounter_2"));
	snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=%s/none %s list 2>&1", root,
		 bin());
	EXPECT_EQ(1, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "is the nvpcounter module loaded"));
	/* record and top say the same with the same status */
	snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=%s %s record -g nvpcounter_2 -d main.0 -s 0 -o /dev/null 2>&1",
		 root, bin());
	EXPECT_EQ(1, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "no PMU nvpcounter_2")) TH_LOG("%s", out);
	snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=%s/none %s top -d main.0 -s 0 2>&1",
		 root, bin());
	EXPECT_EQ(1, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "is the nvpcounter module loaded")) TH_LOG("%s", out);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	EXPECT_EQ(0, system(cmd));
}

/*
 * The event's fields (-v prints them before perf_event_open(), which then
 * fails on the fake PMU type): include/uapi/linux/nvpcounter.h.
 */
TEST(record_event_fields)
{
	char root[128], out[8192], cmd[256];

	fake_sysfs(root, sizeof(root));
	/* RECORD; main.1; PERIOD 1 (1024); rsig0 0xbd, rsig1 0x10, rsig2 0x07 */
	EXPECT_EQ(1, record(root, "-v -d main.1 -s graph_idle,0x10,zcull_00 --every 1024", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "config=0x1000000000000000 config1=0x710bd00010001 config2=0x0 cpu=0"));
	/* SHORT, STOP = signal 0xbd; PERIOD 0 */
	EXPECT_EQ(1, record(root, "-v --short -d main.1 -s 1 --stop graph_idle", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "config=0x30000000000000bd config1=0x100000001 config2=0x0"));
	/* 65536 is PERIOD 7, the default; rsig4..rsig11 in config2 */
	EXPECT_EQ(1, record(root, "-v -d main.1 -s 0,1,2,3,4,5,6,7,8,9,10,11", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "config=0x1000000000000000 config1=0x302010000070001 config2=0xb0a090807060504"));
	/* the capture was not created for an event that did not open */
	snprintf(cmd, sizeof(cmd), "test ! -e %s/out.nvpc", root);
	EXPECT_EQ(0, system(cmd));

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	EXPECT_EQ(0, system(cmd));
}

/* -s more than once adds to the signals (counter i is the i-th named) */
TEST(record_signals_repeated)
{
	char root[128], out[8192], cmd[256];

	fake_sysfs(root, sizeof(root));
	EXPECT_EQ(1, record(root, "-v -d main.1 -s graph_idle -s 0x10 -s zcull_00 --every 1024", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "config=0x1000000000000000 config1=0x710bd00010001 config2=0x0 cpu=0"));
	EXPECT_EQ(2, record(root, "-d main.1 -s 1,2,3 -s 4,5,6,7,8,9,10,11,12,13", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "more than 12 signals"));

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	EXPECT_EQ(0, system(cmd));
}

/*
 * Several domains in one recording: each -s counts in the -d before it
 * (before any -d: the first's), a domain given twice or without signals
 * is refused, and every domain's arguments are checked before an event
 * is opened (main.1's bogus signal is reported although main.0 comes
 * first). graph_idle is main.1's: after -d main.0 it is another
 * domain's.
 */
TEST(record_several_domains)
{
	char root[128], out[8192], cmd[256];

	fake_sysfs(root, sizeof(root));
	EXPECT_EQ(2, record(root, "-d main.0 -s 0x10 -d main.0 -s 0x11", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "-d main.0 given twice"));
	EXPECT_EQ(2, record(root, "-d main.0 -s 0x10 -d main.1", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "-d main.1 has no signals"));
	EXPECT_EQ(2, record(root, "-d main.0 -s graph_idle -d main.1 -s 0x10", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "another domain"));
	EXPECT_EQ(2, record(root, "-d main.0 -s 0x10 -d main.1 -s bogus", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "unknown signal 'bogus'"));
	EXPECT_EQ(NULL, strstr(out, "perf_event_open"));
	/*
	 * 0x10 before any -d is main.0's. The fake main.0 has no record
	 * mode (record_aux_max 0), main.1 has: auto mode samples one and
	 * records the other; main.0 is opened first, its cpu-clock leader
	 * (type 1, config 0) then its cycles (0x0100... with dom 0)
	 */
	EXPECT_EQ(1, record(root, "-v -s 0x10 -d main.0 -d main.1 -s graph_idle --every 1024", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "nvpc: sampled mode (--mode auto, record_aux_max 0)\nnvpc: record mode (--mode auto, record_aux_max 268435456)\nnvpc: perf_event_open type=1 config=0x0 config1=0x0 cpu=0 group=-1\nnvpc: perf_event_open type=2000000000 config=0x100000000000000 config1=0x0 cpu=0 group=3\n")) TH_LOG("%s", out);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	EXPECT_EQ(0, system(cmd));
}

/*
 * A GF100's named GPC signals carry allunits (perf.rst "Whole-GPU
 * counts"): their id still names a signal of the GPC domain recorded.
 * RECORD; config1 DSET 1 (0x10), UNIT 1 (0x100), PERIOD 1 (0x10000),
 * rsig0 0xc8 (0xc8 << 32).
 */
TEST(record_gf100_named_signal)
{
	char root[128], out[8192], cmd[256];

	tmp_path(root, sizeof(root), "sysfs-gf100");
	put(root, "nvpcounter/type", "2000000000");
	put(root, "nvpcounter/cpumask", "0");
	put(root, "nvpcounter/identifier", "GF100 sim.0");
	put(root, "nvpcounter/domains/gpc0.0/signals", "224");
	put(root, "nvpcounter/domains/gpc1.0/signals", "224");
	put(root, "nvpcounter/events/gpc_d0_user_1",
	    "dset=1,dom=0,sig0=0xc8,allunits");
	put(root, "nvpcounter/events/gpc_d0_cycles",
	    "dset=1,dom=0,cycles,allunits");
	EXPECT_EQ(1, record(root, "-v -d gpc1.0 -s gpc_d0_user_1 --every 1024", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "config=0x1000000000000000 config1=0xc800010110 config2=0x0"));

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	EXPECT_EQ(0, system(cmd));
}

TEST_HARNESS_MAIN
