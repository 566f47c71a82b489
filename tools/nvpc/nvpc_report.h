/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening and decoding a capture, shared by report and plot.
 */
#ifndef NVPC_REPORT_H
#define NVPC_REPORT_H

#include <stdio.h>

#include "nvpc_decode.h"

/* exit statuses of report (Documentation/nvpc.rst, "Exit status") */
enum {
	NVPC_EXIT_OK = 0,
	NVPC_EXIT_ERROR = 1,		/* nothing reported (see the message) */
	NVPC_EXIT_USAGE = 2,
	NVPC_EXIT_DAMAGED = 3,		/* unfinished, torn or corrupt chunk */
};

/*
 * Open path and read its header; *hz is clock_hz if nonzero, else the
 * recorded clock. Prints why on failure and returns -errno.
 */
int nvpc_capture_open(const char *path, uint64_t clock_hz, FILE **f,
		      struct nvpc_header *h, uint64_t *hz);

/*
 * Decode the chunks; warns about an unfinished, torn or corrupt capture.
 * Returns NVPC_EXIT_OK or _DAMAGED, or _ERROR for want of memory.
 */
int nvpc_capture_decode(const char *path, FILE *f,
			const struct nvpc_header *h, uint64_t hz,
			nvpc_packet_fn fn, void *arg, struct nvpc_stats *st);

#endif /* NVPC_REPORT_H */
