// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc list: the nvpcounter PMUs (one per GPU), their domains with
 * their clocks and signal counts, which of them record, and the named
 * signals of each, from sysfs
 * (Documentation/ABI/testing/sysfs-bus-event_source-devices-nvpcounter).
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvpc.h"
#include "nvpc_escape.h"
#include "nvpc_gpu.h"
#include "nvpc_util.h"

#define LIST_WIDTH	78

static int domain_entry(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* "name 0xNN, ..." wrapped at LIST_WIDTH, each line after indent */
static void print_wrapped(const char *label, const char *list, int indent)
{
	const char *p = list;
	int col = printf("%*s%s", indent, "", label);
	bool first = true;

	while (*p) {
		const char *end = strstr(p, ", ");
		int n = end ? (int)(end - p) : (int)strlen(p);

		/* the item and its comma fit on this line, or a new one */
		if (!first && col + 1 + n + 1 > LIST_WIDTH) {
			printf("\n%*s", indent + 7, "");
			col = indent + 7;
		} else if (!first) {
			col += printf(" ");
		}
		col += printf("%.*s%s", n, p, end ? "," : "");
		p += n + (end ? 2 : 0);
		first = false;
	}
	putchar('\n');
}

static void list_domain(const struct nvpc_gpu *g, const char *name)
{
	char path[1024], clock[64] = "?", events[8192], buf[256];
	struct nvpc_domain d;
	uint64_t aux = 0;
	bool known;
	int n;

	if (nvpc_domain_open(g, name, &d))
		return;
	snprintf(path, sizeof(path), "%s/clock", d.dir);
	nvpc_sysfs_read(path, clock, sizeof(clock));
	snprintf(path, sizeof(path), "%s/record_aux_max", d.dir);
	known = !nvpc_sysfs_u64(path, &aux);
	printf("  %-8s %-10s %12llu %12llu %7u  %s",
	       nvpc_printable(buf, sizeof(buf), d.name),
	       nvpc_printable(path, sizeof(path), clock),
	       (unsigned long long)d.nominal_hz,
	       (unsigned long long)d.clock_hz, d.signals,
	       !known ? "?" : aux ? "yes" : "no");
	if (aux)
		printf(" (AUX area up to %llu MiB)",
		       (unsigned long long)(aux >> 20));
	putchar('\n');
	n = nvpc_domain_events(g, &d, events, sizeof(events));
	if (n > 0)
		print_wrapped("named: ", events, 4);
}

static int list_gpu(const char *pmu, const char *only_domain)
{
	struct dirent **doms;
	struct nvpc_gpu g;
	char dir[1024], b1[128], b2[128];
	int n;

	if (nvpc_gpu_open(pmu, &g))
		return -ENOENT;
	printf("%s: %s %s (perf type %u, cpu %d)\n", g.pmu,
	       nvpc_printable(b1, sizeof(b1), g.chip),
	       nvpc_printable(b2, sizeof(b2), g.bus), g.type, g.cpu);
	printf("  %-8s %-10s %12s %12s %7s  %s\n", "domain", "clock",
	       "nominal Hz", "measured Hz", "signals", "record");
	if (only_domain) {
		list_domain(&g, only_domain);
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s/domains", g.dir);
	n = scandir(dir, &doms, domain_entry, versionsort);
	for (int i = 0; i < n; i++) {
		list_domain(&g, doms[i]->d_name);
		free(doms[i]);
	}
	if (n > 0)
		free(doms);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: nvpc list [-g PMU] [-d DOMAIN]\n"
"\n"
"The nvpcounter PMUs (one per GPU: chip and bus id), each domain's clock\n"
"(its name, the catalogue's nominal Hz, the measured Hz, 0 before any\n"
"measurement), its signal ids (0 .. signals - 1), whether it records\n"
"(record mode: G84+, a backend that maps GPU memory), and its named\n"
"signals (perf's events/) with their ids. Every domain counts with perf\n"
"stat -a, and is sampled by perf record with a cpu-clock leading the group\n"
"(nvpc record --mode sample); a GPU event cannot sample on its own.\n");
}

int nvpc_list(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "gpu", required_argument, NULL, 'g' },
		{ "domain", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *pmu = NULL, *domain = NULL;
	struct dirent **pmus;
	int c, n, ret = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "g:d:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'g':
			pmu = optarg;
			break;
		case 'd':
			domain = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		nvpc_err("list takes no argument '%s' (-g PMU, -d DOMAIN)",
			 argv[optind]);
		return 2;
	}
	if (domain && !pmu)
		pmu = NVPC_DEFAULT_PMU;
	if (pmu)
		return list_gpu(pmu, domain) ? 1 : 0;
	n = nvpc_pmu_scan(&pmus);
	if (n <= 0) {
		nvpc_pmu_none();
		return 1;
	}
	for (int i = 0; i < n; i++) {
		if (i)
			putchar('\n');
		if (list_gpu(pmus[i]->d_name, NULL))
			ret = 1;
		free(pmus[i]);
	}
	free(pmus);
	return ret;
}
