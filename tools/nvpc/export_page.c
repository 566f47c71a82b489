// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc export's page: what export.c read, in Prometheus' text format
 * 0.0.4 (what promtool check metrics reads). A family's HELP and TYPE,
 * then its series, every family once; only GPUs that count have
 * counters, a gone one keeps its nvpc_gpu_up 0 a while, a refused one
 * has it while it is refused (export.c). Every series names its GPU by
 * bus (the PMU's identifier: the PCI bus id, or the sim's), which does
 * not depend on probe order, and by gpu (the PMU's name), which does.
 * Documentation/monitoring.rst lists the metrics.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "nvpc_export.h"

const char *const nvpc_exp_loss_file[NVPC_EXP_NR_LOSS] = {
	[NVPC_EXP_LOST_PERIODS] = "lost_periods",
	[NVPC_EXP_SATURATIONS] = "saturations",
	[NVPC_EXP_STRAGGLERS] = "stragglers",
	[NVPC_EXP_NOT_RESPONDING] = "not_responding",
	[NVPC_EXP_SAMPLES] = "samples",
};

static const char *const loss_help[NVPC_EXP_NR_LOSS] = {
	[NVPC_EXP_LOST_PERIODS] = "Swaps of the domain that found QUAD_STATE in OVERFLOW: a period's counts were lost (the driver's, since the GPU was registered).",
	[NVPC_EXP_SATURATIONS] = "Counter readings of the domain at 0xffffffff, not added to the events (the driver's, since the GPU was registered).",
	[NVPC_EXP_STRAGGLERS] = "Samples of the domain whose swap had not landed at the first read and were read again (the driver's, since the GPU was registered).",
	[NVPC_EXP_NOT_RESPONDING] = "Swaps of the domain that never showed up in QUAD_STATE: no counts were read (the driver's, since the GPU was registered).",
	[NVPC_EXP_SAMPLES] = "Periods of the domain the driver read (since the GPU was registered).",
};

void nvpc_export_label(FILE *o, const char *v)
{
	fputc('"', o);
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fprintf(o, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", o);
		else
			fputc(*v, o);
	}
	fputc('"', o);
}

static void family(FILE *o, const char *name, const char *type,
		   const char *help)
{
	fprintf(o, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

void nvpc_export_url(char *buf, size_t len, const char *listen,
		     const char *host)
{
	const char *colon = strrchr(listen, ':');
	size_t hl = colon ? (size_t)(colon - listen) : 0;
	static const char *const any[] = { "", "*", "0.0.0.0", "[::]",
					   "[0:0:0:0:0:0:0:0]" };
	bool wild = !colon;

	for (unsigned int i = 0; colon && i < sizeof(any) / sizeof(any[0]); i++)
		wild |= hl == strlen(any[i]) && !strncasecmp(listen, any[i], hl);
	if (!wild) {
		snprintf(buf, len, "http://%s/metrics", listen);
		return;
	}
	if (!host || !*host)
		host = "127.0.0.1";
	/* an IPv6 literal in a URL is bracketed (RFC 3986) */
	snprintf(buf, len, strchr(host, ':') ? "http://[%s]%s/metrics" :
		 "http://%s%s/metrics", host, colon ? colon : "");
}

/* name{gpu="..",bus="..",chip=".." and, with d, domain=".." */
static void series(FILE *o, const char *name, const struct nvpc_exp_gpu *g,
		   const struct nvpc_live_group *d)
{
	fprintf(o, "%s{gpu=", name);
	nvpc_export_label(o, g->lg.g.pmu);
	fputs(",bus=", o);
	nvpc_export_label(o, g->lg.g.bus);
	fputs(",chip=", o);
	nvpc_export_label(o, g->lg.g.chip);
	if (d) {
		fputs(",domain=", o);
		nvpc_export_label(o, d->name);
	}
}

/* a count in seconds from nanoseconds, exactly */
static void seconds(FILE *o, uint64_t ns)
{
	fprintf(o, "%llu.%09llu\n", (unsigned long long)(ns / 1000000000ULL),
		(unsigned long long)(ns % 1000000000ULL));
}

int nvpc_export_page(FILE *o, const struct nvpc_exp_gpu *const *gpu,
		     unsigned int nr)
{
	unsigned int up = 0;
	bool any;

	for (unsigned int k = 0; k < nr; k++)
		up += gpu[k]->up;
	family(o, "nvpc_gpus", "gauge",
	       "GPUs (nvpcounter PMUs) whose counters nvpc export reads.");
	fprintf(o, "nvpc_gpus %u\n", up);
	if (!nr)
		goto out;

	family(o, "nvpc_gpu_up", "gauge",
	       "1 while the GPU's counters are read; 0 while its events are refused, and for a while after it went away (its other series end then).");
	for (unsigned int k = 0; k < nr; k++) {
		series(o, "nvpc_gpu_up", gpu[k], NULL);
		fprintf(o, "} %d\n", gpu[k]->up);
	}
	family(o, "nvpc_gpu_state", "gauge",
	       "The GPU's state, 1 for the one it is in: counting, refused (its events would not open; tried again at each look for GPUs) or gone.");
	for (unsigned int k = 0; k < nr; k++) {
		static const char *const state[] = { "counting", "refused",
						     "gone" };
		unsigned int now = gpu[k]->up ? 0 : gpu[k]->refused ? 1 : 2;

		for (unsigned int s = 0; s < 3; s++) {
			series(o, "nvpc_gpu_state", gpu[k], NULL);
			fprintf(o, ",state=\"%s\"} %d\n", state[s], s == now);
		}
	}
	family(o, "nvpc_gpu_info", "gauge",
	       "The GPU's PMU, bus id (the PMU's identifier) and chip; always 1.");
	for (unsigned int k = 0; k < nr; k++) {
		if (!gpu[k]->up)
			continue;
		series(o, "nvpc_gpu_info", gpu[k], NULL);
		fputs("} 1\n", o);
	}
	if (!up)
		goto out;

	family(o, "nvpc_domain_cycles_total", "counter",
	       "Cycles of the domain's clock counted (rate() is the clock in Hz while its group runs).");
	for (unsigned int k = 0; k < nr; k++)
		for (unsigned int i = 0; gpu[k]->up && i < gpu[k]->lg.nr; i++) {
			const struct nvpc_live_group *d = &gpu[k]->lg.grp[i];

			series(o, "nvpc_domain_cycles_total", gpu[k], d);
			fprintf(o, "} %llu\n", (unsigned long long)d->cycles);
		}

	any = false;
	for (unsigned int k = 0; k < nr; k++)
		for (unsigned int i = 0; gpu[k]->up && i < gpu[k]->lg.nr; i++)
			any |= gpu[k]->lg.grp[i].nr > 0;
	if (any)
		family(o, "nvpc_signal_cycles_total", "counter",
		       "Cycles of the domain's clock the signal was at 1, counted in one perf group with nvpc_domain_cycles_total (busy = 1 - the ratio of their rates, for an engine's idle signal).");
	for (unsigned int k = 0; k < nr; k++)
		for (unsigned int i = 0; gpu[k]->up && i < gpu[k]->lg.nr; i++) {
			const struct nvpc_live_group *d = &gpu[k]->lg.grp[i];

			for (unsigned int j = 0; j < d->nr; j++) {
				series(o, "nvpc_signal_cycles_total", gpu[k], d);
				fputs(",signal=", o);
				nvpc_export_label(o, d->sig[j].name);
				if (d->sig[j].engine[0]) {
					fputs(",engine=", o);
					nvpc_export_label(o, d->sig[j].engine);
				}
				fprintf(o, "} %llu\n",
					(unsigned long long)d->sig[j].count);
			}
		}

	family(o, "nvpc_domain_enabled_seconds_total", "counter",
	       "Time the domain's perf group was enabled (perf's time_enabled).");
	for (unsigned int k = 0; k < nr; k++)
		for (unsigned int i = 0; gpu[k]->up && i < gpu[k]->lg.nr; i++) {
			series(o, "nvpc_domain_enabled_seconds_total", gpu[k],
			       &gpu[k]->lg.grp[i]);
			fputs("} ", o);
			seconds(o, gpu[k]->lg.grp[i].enabled_ns);
		}
	family(o, "nvpc_domain_running_seconds_total", "counter",
	       "Time the domain's perf group counted (perf's time_running; below enabled when perf multiplexed it).");
	for (unsigned int k = 0; k < nr; k++)
		for (unsigned int i = 0; gpu[k]->up && i < gpu[k]->lg.nr; i++) {
			series(o, "nvpc_domain_running_seconds_total", gpu[k],
			       &gpu[k]->lg.grp[i]);
			fputs("} ", o);
			seconds(o, gpu[k]->lg.grp[i].running_ns);
		}

	for (unsigned int l = 0; l < NVPC_EXP_NR_LOSS; l++) {
		char name[64];

		snprintf(name, sizeof(name), "nvpc_domain_%s_total",
			 nvpc_exp_loss_file[l]);
		any = false;
		for (unsigned int k = 0; k < nr; k++)
			for (unsigned int i = 0; gpu[k]->up && i < gpu[k]->lg.nr; i++) {
				const struct nvpc_live_group *d = &gpu[k]->lg.grp[i];

				if (!gpu[k]->loss[i].have[l])
					continue;
				if (!any)
					family(o, name, "counter", loss_help[l]);
				any = true;
				series(o, name, gpu[k], d);
				fprintf(o, "} %llu\n",
					(unsigned long long)gpu[k]->loss[i].v[l]);
			}
	}

	any = false;
	for (unsigned int k = 0; k < nr; k++) {
		if (!gpu[k]->up || !gpu[k]->have_deferred)
			continue;
		if (!any)
			family(o, "nvpc_reads_deferred_total", "counter",
			       "Event reads of the GPU that found their CPU inside the driver's lock or in NMI and read no register (the next read collected the rest).");
		any = true;
		series(o, "nvpc_reads_deferred_total", gpu[k], NULL);
		fprintf(o, "} %llu\n",
			(unsigned long long)gpu[k]->reads_deferred);
	}
out:
	return ferror(o) ? -EIO : 0;
}
