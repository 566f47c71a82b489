/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvpc: record-mode capture and report for the nvpcounter PMUs
 * (Documentation/nvpc.rst). The commands' entry points, which nvpc.c
 * dispatches to, and what one command hands another (top runs record).
 * Only commands include it; the library parts of the tool do not.
 */
#ifndef NVPC_H
#define NVPC_H

#include <getopt.h>

#define NVPC_DEFAULT_OUTPUT	"nvpc.data"

/* the subcommands: exit status */
int nvpc_record(int argc, char **argv);
int nvpc_report(int argc, char **argv);
int nvpc_plot(int argc, char **argv);
int nvpc_list(int argc, char **argv);
int nvpc_top(int argc, char **argv);
int nvpc_export(int argc, char **argv);
int nvpc_doctor(int argc, char **argv);
/* nvpc doctor --hardware (firstlight.c): argv as nvpc_doctor()'s */
int nvpc_doctor_hardware(int argc, char **argv);
int nvpc_scan(int argc, char **argv);

/* nvpc top with no -d: every GPU's engines (engines.c) */
int nvpc_top_engines(int argc, char **argv);

/* record's long options; the first NVPC_RECORD_SHARED are top's too */
#define NVPC_RECORD_SHARED	11
extern const struct option nvpc_record_options[];

#endif /* NVPC_H */
