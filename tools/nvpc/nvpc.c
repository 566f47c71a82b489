// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc: record-mode capture and report for the nvpcounter PMUs.
 *
 *   nvpc record -d main.1 -s graph_idle,0x10 --every 1024 -o run.nvpc -- sleep 5
 *   nvpc report run.nvpc
 *   nvpc report --csv run.nvpc > run.csv
 *   nvpc report --trace run.nvpc > run.json
 *   nvpc plot run.nvpc -o run.svg
 *   nvpc top -d main.1 -s graph_idle,0x10
 *   nvpc list
 *   nvpc export --listen 127.0.0.1:9089
 *   nvpc doctor
 *
 * Documentation/nvpc.rst is the manual.
 */
#include <stdio.h>
#include <string.h>

#include "nvpc.h"
#include "nvpc_file.h"
#include "nvpc_util.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: nvpc COMMAND [options]\n"
"\n"
"Record-mode capture of NVIDIA PCOUNTER domains through the nvpcounter\n"
"perf PMUs, and its reports.\n"
"\n"
"  record   capture a domain's record packets to a file\n"
"  report   summary, --csv, --json or --trace of a capture\n"
"  plot     the signals' busy share over time (gnuplot: .svg, .png, .pdf)\n"
"  top      each signal's busy share, live (a table on a terminal, q quits)\n"
"  list     the GPUs, their domains, clocks and named signals\n"
"  export   every GPU's counters for Prometheus (HTTP /metrics, textfile)\n"
"  doctor   why there are no counts, and what to type\n"
"\n"
"nvpc COMMAND --help for its options; nvpc --version; man nvpc (or\n"
"Documentation/nvpc.rst) is the manual.\n");
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(cmd, "record"))
		return nvpc_record(argc - 1, argv + 1);
	if (!strcmp(cmd, "report"))
		return nvpc_report(argc - 1, argv + 1);
	if (!strcmp(cmd, "plot"))
		return nvpc_plot(argc - 1, argv + 1);
	if (!strcmp(cmd, "list"))
		return nvpc_list(argc - 1, argv + 1);
	if (!strcmp(cmd, "top"))
		return nvpc_top(argc - 1, argv + 1);
	if (!strcmp(cmd, "export"))
		return nvpc_export(argc - 1, argv + 1);
	if (!strcmp(cmd, "doctor"))
		return nvpc_doctor(argc - 1, argv + 1);
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		printf("nvpc %s (nvpcounter), capture format version %d\n",
		       NVPC_VERSION, NVPC_FILE_VERSION);
		return 0;
	}
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") ||
	    !strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	nvpc_err("unknown command '%s': record, report, plot, top, list, export or doctor",
		 cmd);
	return 2;
}
