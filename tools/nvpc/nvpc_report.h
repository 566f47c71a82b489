/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening and decoding a capture, shared by report and plot.
 */
#ifndef NVPC_REPORT_H
#define NVPC_REPORT_H

#include <stdio.h>

#include "nvpc_decode.h"

/*
 * Open path and read its header; *hz is clock_hz if nonzero, else the
 * recorded clock. Prints why on failure and returns -errno.
 */
int nvpc_capture_open(const char *path, uint64_t clock_hz, FILE **f,
		      struct nvpc_header *h, uint64_t *hz);

/* Decode the chunks; warns about a torn or unfinished capture. */
int nvpc_capture_decode(const char *path, FILE *f,
			const struct nvpc_header *h, uint64_t hz,
			nvpc_packet_fn fn, void *arg, struct nvpc_stats *st);

#endif /* NVPC_REPORT_H */
