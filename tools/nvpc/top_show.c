// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc top's views of an interval (nvpc_report.h): the table redrawn on a
 * terminal and the line per interval otherwise. Apart from top.c so the
 * host fuzzer runs them on every capture it makes.
 */
#include <stdio.h>

#include "nvpc_escape.h"
#include "nvpc_interval.h"
#include "nvpc_top.h"

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


/* a table's rows of one domain (several: the domain column) */
static void table_rows(FILE *o, const struct nvpc_out *out,
		       const struct nvpc_interval *iv)
{
	const struct nvpc_header *h = out->h;
	unsigned int order[NVPC_FILE_MAX_SIGNALS];
	char b1[128], b2[128], rate[32];

	sort_signals(iv, h->nr_signals, order);
	for (unsigned int k = 0; k < h->nr_signals; k++) {
		unsigned int i = order[k];

		fprintf(o, "%8.2f%% %11s%s  0x%02x   %-16s %s\n",
			busy_of(iv, i),
			si(rate, sizeof(rate),
			   nvpc_rate(iv->count[i], iv->cycles, iv->covered_ns,
				     out->rate_hz)),
			iv->saturated[i] ? ">" : " ", h->signals[i].id & 0xff,
			nvpc_printable(b2, sizeof(b2), h->domain),
			nvpc_printable(b1, sizeof(b1), h->signals[i].name));
	}
}

/* the table of several domains: a line per domain, then their rows */
static void group_table(struct nvpc_top_group *g, const struct nvpc_top_slot *t)
{
	const struct nvpc_header *h0 = g->out[0].h;
	char b1[128], b2[128], b3[256];
	FILE *o = g->o;

	fprintf(o, "\033[H\033[2J");
	fprintf(o, "nvpc top - %s %s, %u domains; q quits\n",
		nvpc_printable(b1, sizeof(b1), h0->chip),
		nvpc_printable(b2, sizeof(b2), h0->bus), g->nr);
	for (unsigned int s = 0; s < g->nr; s++) {
		const struct nvpc_out *out = &g->out[s];
		const struct nvpc_interval *iv = &t->iv[s];

		fprintf(o, "%s: %llu Hz, STOP %s; ",
			nvpc_printable(b1, sizeof(b1), out->h->domain),
			(unsigned long long)out->hz,
			nvpc_printable(b3, sizeof(b3), out->h->stop));
		if (!t->have[s]) {
			fprintf(o, "no packet in this interval\n");
			continue;
		}
		fprintf(o, "%.3f s: %llu packets in %.3g ms, %llu cycles; %llu packets, %llu gaps in all%s\n",
			nvpc_interval_start(out, iv) / 1e9,
			(unsigned long long)iv->packets,
			out->interval_ns / 1e6, (unsigned long long)iv->cycles,
			(unsigned long long)t->packets[s],
			(unsigned long long)g->gaps[s],
			iv->gap ? "; a gap in this interval" : "");
	}
	fprintf(o, "\n%9s %12s  %-6s %-16s %s\n", "BUSY", "EVENTS/S", "ID",
		"DOMAIN", "SIGNAL");
	for (unsigned int s = 0; s < g->nr; s++)
		if (t->have[s])
			table_rows(o, &g->out[s], &t->iv[s]);
}

/* the line of several domains: each domain's signals, "<domain> <signal>" */
static void group_line(struct nvpc_top_group *g, const struct nvpc_top_slot *t)
{
	char dom[128], name[128];
	bool time = false;

	for (unsigned int s = 0; s < g->nr; s++) {
		const struct nvpc_header *h = g->out[s].h;
		const struct nvpc_interval *iv = &t->iv[s];

		if (!t->have[s])
			continue;
		if (!time)
			fprintf(g->o, "%.3f",
				nvpc_interval_start(&g->out[s], iv) / 1e9);
		time = true;
		nvpc_printable(dom, sizeof(dom), h->domain);
		for (unsigned int i = 0; i < h->nr_signals; i++)
			fprintf(g->o, "  %s %s %.2f%%", dom,
				nvpc_printable(name, sizeof(name),
					       h->signals[i].name),
				busy_of(iv, i));
		if (iv->gap)
			fprintf(g->o, "  %s gap", dom);
	}
	fprintf(g->o, "\n");
}

/* the CSV rows or JSON elements of a time */
static void group_records(struct nvpc_top_group *g,
			  const struct nvpc_top_slot *t)
{
	for (unsigned int s = 0; s < g->nr; s++) {
		if (!t->have[s])
			continue;
		g->out[s].first = g->first;
		if (g->fmt == NVPC_TOP_JSON)
			nvpc_json_interval(&t->iv[s], &g->out[s]);
		else
			nvpc_csv_interval(&t->iv[s], &g->out[s]);
		g->first = false;
	}
}

/* the intervals of a time, in the output's format; the slot emptied */
static void group_show(struct nvpc_top_group *g, struct nvpc_top_slot *t)
{
	if (!t->open || (g->max && g->shown >= g->max))
		goto done;	/* nothing, or top is stopping */
	if (g->nr == 1 && g->fmt == NVPC_TOP_TABLE)
		nvpc_top_table(g->o, &g->out[0], &t->iv[0], t->packets[0],
			       g->gaps[0]);
	else if (g->nr == 1 && g->fmt == NVPC_TOP_LINES)
		nvpc_top_line(g->o, &g->out[0], &t->iv[0]);
	else if (g->fmt == NVPC_TOP_TABLE)
		group_table(g, t);
	else if (g->fmt == NVPC_TOP_LINES)
		group_line(g, t);
	else
		group_records(g, t);
	fflush(g->o);
	g->shown++;
done:
	t->open = false;
	for (unsigned int s = 0; s < g->nr; s++)
		t->have[s] = false;
}

/* every stream gave the interval of time g->base, or a later one */
static bool base_complete(const struct nvpc_top_group *g)
{
	for (unsigned int s = 0; s < g->nr; s++)
		if (!g->seen[s] || g->last[s] < g->base)
			return false;
	return true;
}

/* the times before index, in order (past the window only empty ones) */
static void show_before(struct nvpc_top_group *g, uint64_t index)
{
	uint64_t end = index - g->base > NVPC_TOP_WINDOW ?
		       g->base + NVPC_TOP_WINDOW : index;

	for (; g->base < end; g->base++)
		group_show(g, &g->slot[g->base % NVPC_TOP_WINDOW]);
	if (g->base < index)
		g->base = index;
}

void nvpc_top_group_flush(struct nvpc_top_group *g)
{
	if (g->started)
		show_before(g, g->base + NVPC_TOP_WINDOW);
}

static void slot_put(struct nvpc_top_slot *t, unsigned int i,
		     const struct nvpc_interval *iv, uint64_t packets)
{
	t->open = true;
	t->index = iv->index;
	t->have[i] = true;
	t->iv[i] = *iv;
	t->packets[i] = packets;
}

void nvpc_top_group_add(struct nvpc_top_group *g, unsigned int i,
			const struct nvpc_interval *iv, uint64_t packets)
{
	if (iv->gap)
		g->gaps[i]++;
	if (!g->started) {
		g->started = true;
		g->base = iv->index;
	}
	if (iv->index < g->base) {
		/* its time was shown already: on its own */
		slot_put(&g->late, i, iv, packets);
		group_show(g, &g->late);
		return;
	}
	if (iv->index - g->base >= NVPC_TOP_WINDOW)
		show_before(g, iv->index - NVPC_TOP_WINDOW + 1);
	slot_put(&g->slot[iv->index % NVPC_TOP_WINDOW], i, iv, packets);
	g->seen[i] = true;
	g->last[i] = iv->index;	/* a view's intervals come in order */
	while (base_complete(g)) {
		group_show(g, &g->slot[g->base % NVPC_TOP_WINDOW]);
		g->base++;
	}
}
