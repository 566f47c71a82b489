// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc top's views of an interval (nvpc_report.h): the table redrawn on a
 * terminal and the line per interval otherwise. Apart from top.c so the
 * host fuzzer runs them on every capture it makes.
 */
#include <stdio.h>

#include "nvpc.h"
#include "nvpc_escape.h"
#include "nvpc_report.h"

/* 12.3k, 575.0M: a rate in three significant digits and an SI prefix */
static const char *si(char *buf, size_t len, double v)
{
	static const char prefix[] = " kMGT";
	unsigned int i = 0;

	while (v >= 999.95 && i < sizeof(prefix) - 2) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, i ? "%.1f%c" : "%.0f", v, prefix[i]);
	return buf;
}

static double busy_of(const struct nvpc_interval *iv, unsigned int i)
{
	return nvpc_busy(iv->count[i], iv->cycles);
}

/* the signals by busy share, highest first (stable: the capture's order) */
static void sort_signals(const struct nvpc_interval *iv, unsigned int nr,
			 unsigned int *order)
{
	for (unsigned int i = 0; i < nr; i++)
		order[i] = i;
	for (unsigned int i = 1; i < nr; i++)
		for (unsigned int j = i; j && busy_of(iv, order[j]) >
					      busy_of(iv, order[j - 1]); j--) {
			unsigned int x = order[j];

			order[j] = order[j - 1];
			order[j - 1] = x;
		}
}

void nvpc_top_table(FILE *o, const struct nvpc_out *out,
		    const struct nvpc_interval *iv, uint64_t packets,
		    uint64_t gaps)
{
	const struct nvpc_header *h = out->h;
	unsigned int order[NVPC_FILE_MAX_SIGNALS];
	char b1[128], b2[128], b3[128], b4[256], rate[32];
	uint64_t start = nvpc_interval_start(out, iv);

	sort_signals(iv, h->nr_signals, order);
	/* home, clear: the table is redrawn in place */
	fprintf(o, "\033[H\033[2J");
	fprintf(o, "nvpc top - %s %s %s, %llu Hz, STOP %s; q quits\n",
		nvpc_printable(b1, sizeof(b1), h->chip),
		nvpc_printable(b2, sizeof(b2), h->bus),
		nvpc_printable(b3, sizeof(b3), h->domain),
		(unsigned long long)out->hz,
		nvpc_printable(b4, sizeof(b4), h->stop));
	fprintf(o, "%.3f s: %llu packets in %.3g ms, %llu cycles; ",
		start / 1e9, (unsigned long long)iv->packets,
		out->interval_ns / 1e6, (unsigned long long)iv->cycles);
	fprintf(o, "%llu packets, %llu gaps in all%s\n\n",
		(unsigned long long)packets, (unsigned long long)gaps,
		iv->gap ? "; a gap in this interval" : "");
	fprintf(o, "%9s %12s  %-6s %s\n", "BUSY", "EVENTS/S", "ID", "SIGNAL");
	for (unsigned int k = 0; k < h->nr_signals; k++) {
		unsigned int i = order[k];

		fprintf(o, "%8.2f%% %11s%s  0x%02x   %s\n", busy_of(iv, i),
			si(rate, sizeof(rate),
			   nvpc_rate(iv->count[i], iv->cycles, iv->covered_ns,
				     out->rate_hz)),
			iv->saturated[i] ? ">" : " ", h->signals[i].id & 0xff,
			nvpc_printable(b1, sizeof(b1), h->signals[i].name));
	}
}

/* not a terminal: one line per interval, the signals in the capture's order */
void nvpc_top_line(FILE *o, const struct nvpc_out *out,
		   const struct nvpc_interval *iv)
{
	const struct nvpc_header *h = out->h;
	uint64_t start = nvpc_interval_start(out, iv);
	char name[128];

	fprintf(o, "%.3f", start / 1e9);
	for (unsigned int i = 0; i < h->nr_signals; i++)
		fprintf(o, "  %s %.2f%%",
			nvpc_printable(name, sizeof(name), h->signals[i].name),
			busy_of(iv, i));
	fprintf(o, "%s\n", iv->gap ? "  gap" : "");
}

