/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvpc report's and plot's outputs as functions of streams (report.c,
 * plot.c), which the host fuzzer calls; what they read with is the
 * capture library (nvpc_capture.h).
 */
#ifndef NVPC_REPORT_H
#define NVPC_REPORT_H

#include <stdio.h>

#include "nvpc_capture.h"

/* nvpc report of the capture f as ro says to o: an exit status */
int nvpc_report_write(FILE *f, const char *path,
		      const struct nvpc_report_opts *ro, FILE *o);

/*
 * nvpc plot's gnuplot script for the capture f (read twice: f must
 * seek) to o: terminal term, the plot on gnuplot's stdout; ro's clock
 * and view (fmt unused). An exit status; NVPC_EXIT_ERROR (and a
 * message) when f holds no packet to plot.
 */
int nvpc_plot_script(FILE *f, const char *path, const char *term,
		     const struct nvpc_report_opts *ro, FILE *o);

#endif /* NVPC_REPORT_H */
