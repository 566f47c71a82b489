// SPDX-License-Identifier: GPL-2.0
/*
 * make bench (tools/testing/nvpc): what nvpc report costs against the
 * least any reader of the same capture must do. A capture of 10^6 long
 * packets (4 signals, AUX chunks of 1000 packets, 1 MHz) is written
 * once; then, side by side in one run, each the best of 5:
 *
 * - a minimal reader: every chunk header read, every AUX payload read
 *   and each packet's cycles and four counters summed (nvpc_file.c's
 *   chunk reader, no decoder);
 * - nvpc report (the summary), --csv to /dev/null, --trace to
 *   /dev/null and -I 100 (the tool itself, fork and exec included).
 *
 * Printed: ms per 10^6 packets of each and its ratio to the minimal
 * reader. No pass or fail: timings belong here, not in the tests.
 * "report_bench FILE" only writes the capture to FILE (for a profiler).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/nvpcounter.h>

#include "nvpc_file.h"
#include "packet.h"

#define NR_PACKETS	1000000
#define PER_CHUNK	1000
#define PKT		32
#define NR_SIG		4
#define RUNS		5

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int write_capture(const char *path)
{
	static uint8_t buf[PER_CHUNK * PKT];
	struct nvpc_header h = {
		.packet_size = PKT, .nr_signals = NR_SIG, .clock_hz = 1000000,
		.nominal_hz = 1000000, .period_cycles = 1000,
		.start_realtime_ns = 1700000000ULL * 1000000000ULL,
	};
	struct nvpc_end e = {
		.end_ns = NR_PACKETS * 1000000ULL, .reason = NVPC_END_COMMAND,
		.hw_packets = -1, .hw_gaps = -1,
	};
	uint64_t off = 0;
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	strcpy(h.chip, "G84");
	strcpy(h.bus, "sim.0");
	strcpy(h.pmu, "nvpcounter");
	strcpy(h.domain, "main.1");
	strcpy(h.stop, "every 1000 cycles");
	for (unsigned int i = 0; i < NR_SIG; i++) {
		h.signals[i].id = 0x10 + i;
		snprintf(h.signals[i].name, sizeof(h.signals[i].name), "s%u", i);
	}
	nvpc_file_write_header(f, &h);
	for (uint64_t k = 0; k < NR_PACKETS; k++) {
		uint16_t ctr[NR_SIG] = { k % 1000, 1000, 0, 500 };

		pkt(buf + (k % PER_CHUNK) * PKT, PKT, 1000 * (k + 1), 1, ctr,
		    NR_SIG);
		if (k % PER_CHUNK == PER_CHUNK - 1) {
			struct nvpc_chunk c = {
				.type = NVPC_CHUNK_AUX, .offset = off,
				.time_ns = (k + 1) * 1000000ULL,
				.size = sizeof(buf),
			};

			nvpc_file_write_chunk(f, &c, buf);
			off += sizeof(buf);
		}
	}
	nvpc_file_write_end(f, 0, e.end_ns, &e);
	return fclose(f);
}

/* the least a reader does: s, the sum of every counter */
static double minimal(const char *path, uint64_t *s)
{
	struct nvpc_header h;
	struct nvpc_chunk c;
	char err[256];
	double t = now();
	void *p;
	FILE *f = fopen(path, "r");

	*s = 0;
	if (!f || nvpc_file_read_header(f, &h, err, sizeof(err)))
		return -1;
	while (nvpc_file_read_chunk(f, &c, &p, err, sizeof(err)) > 0) {
		const uint8_t *b = p;

		if (c.type == NVPC_CHUNK_AUX)
			for (uint32_t i = 0; i + PKT <= c.size; i += PKT) {
				*s += b[i] | b[i + 1] << 8;
				for (unsigned int j = 0; j < NR_SIG; j++)
					*s += b[i + 8 + 2 * j] |
					      b[i + 9 + 2 * j] << 8;
			}
		free(p);
	}
	fclose(f);
	return now() - t;
}

static double command(const char *cmd)
{
	double t = now();

	if (system(cmd))
		return -1;
	return now() - t;
}

int main(int argc, char **argv)
{
	const char *bin = getenv("NVPC_BIN") ? getenv("NVPC_BIN") : "nvpc";
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	static const char * const what[] = {
		"", "--csv", "--trace", "-I 100",
	};
	double best[1 + 4];
	char path[256], cmd[1024];
	uint64_t sum;

	if (argc > 1)
		return write_capture(argv[1]) ? 1 : 0;
	snprintf(path, sizeof(path), "%s/report-bench-%d.nvpc", dir,
		 (int)getpid());
	if (write_capture(path)) {
		perror(path);
		return 1;
	}
	for (unsigned int i = 0; i < 5; i++)
		best[i] = 1e9;
	for (unsigned int r = 0; r < RUNS; r++) {
		double t = minimal(path, &sum);

		if (t >= 0 && t < best[0])
			best[0] = t;
		for (unsigned int i = 0; i < 4; i++) {
			snprintf(cmd, sizeof(cmd), "%s report %s %s > /dev/null",
				 bin, what[i], path);
			t = command(cmd);
			if (t >= 0 && t < best[1 + i])
				best[1 + i] = t;
		}
	}
	unlink(path);
	printf("== nvpc report: 10^6 packets of 32 bytes, 4 signals (best of %d)\n",
	       RUNS);
	printf("%-34s %10s %8s\n", "reader", "ms", "ratio");
	printf("%-34s %10.1f %8.2f\n", "minimal (chunks, sums)",
	       best[0] * 1e3, 1.0);
	for (unsigned int i = 0; i < 4; i++) {
		snprintf(cmd, sizeof(cmd), "nvpc report %s", what[i]);
		printf("%-34s %10.1f %8.2f\n", cmd, best[1 + i] * 1e3,
		       best[1 + i] / best[0]);
	}
	return 0;
}
