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
 *   nvpc scan -d main.1 -J -o busy.json -- ./workload
 *   nvpc doctor
 *
 * Documentation/nvpc.rst is the manual.
 */
#include <stdio.h>
#include <string.h>

#include "nvpc.h"
#include "nvpc_file.h"
#include "nvpc_util.h"

/*
 * The commands, as perf's commands[]: the dispatch, the usage and the
 * unknown command's message all come from this table.
 */
static const struct nvpc_cmd {
	const char *name;
	const char *summary;
	int (*fn)(int argc, char **argv);
} nvpc_cmds[] = {
	{ "record", "capture a domain's record packets to a file", nvpc_record },
	{ "report", "summary, --csv, --json or --trace of a capture", nvpc_report },
	{ "plot", "the signals' busy share over time (gnuplot: .svg, .png, .pdf)", nvpc_plot },
	{ "top", "each signal's busy share, live (a table on a terminal, q quits)", nvpc_top },
	{ "list", "the GPUs, their domains, clocks and named signals", nvpc_list },
	{ "export", "every GPU's counters for Prometheus (HTTP /metrics, textfile)", nvpc_export },
	{ "scan", "which signals move under a workload: shares, edges, --diff, --match", nvpc_scan },
	{ "doctor", "why there are no counts, and what to type; --hardware: first light", nvpc_doctor },
};

#define NVPC_NR_CMDS	(sizeof(nvpc_cmds) / sizeof(nvpc_cmds[0]))

static void usage(FILE *f)
{
	fprintf(f,
"usage: nvpc COMMAND [options]\n"
"\n"
"Record-mode capture of NVIDIA PCOUNTER domains through the nvpcounter\n"
"perf PMUs, and its reports.\n"
"\n");
	for (unsigned int i = 0; i < NVPC_NR_CMDS; i++)
		fprintf(f, "  %-8s %s\n", nvpc_cmds[i].name, nvpc_cmds[i].summary);
	fprintf(f,
"\n"
"nvpc COMMAND --help for its options; nvpc --version; man nvpc (or\n"
"Documentation/nvpc.rst) is the manual.\n");
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;
	char names[256];
	size_t n = 0;

	if (!cmd) {
		usage(stderr);
		return 2;
	}
	for (unsigned int i = 0; i < NVPC_NR_CMDS; i++)
		if (!strcmp(cmd, nvpc_cmds[i].name))
			return nvpc_cmds[i].fn(argc - 1, argv + 1);
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
	/* "record, report, ... or doctor" */
	names[0] = '\0';
	for (unsigned int i = 0; i < NVPC_NR_CMDS && n < sizeof(names); i++)
		n += snprintf(names + n, sizeof(names) - n, "%s%s",
			      !i ? "" : i + 1 < NVPC_NR_CMDS ? ", " : " or ",
			      nvpc_cmds[i].name);
	nvpc_err("unknown command '%s': %s", cmd, names);
	return 2;
}
