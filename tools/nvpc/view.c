// SPDX-License-Identifier: GPL-2.0
/*
 * The part of a capture an output shows (nvpc_view.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nvpc_escape.h"
#include "nvpc_util.h"
#include "nvpc_view.h"

void nvpc_view_init(struct nvpc_view *v, const struct nvpc_header *h)
{
	memset(v, 0, sizeof(*v));
	v->nr = h->nr_signals;
	for (unsigned int i = 0; i < v->nr; i++)
		v->idx[i] = i;
	v->to_ns = UINT64_MAX;
}

/* the counter a -s item names: its name, else its id; -1 if none */
static int signal_index(const struct nvpc_header *h, const char *item)
{
	uint64_t id;

	for (unsigned int i = 0; i < h->nr_signals; i++)
		if (!strncmp(h->signals[i].name, item, NVPC_FILE_SIGNAME_LEN))
			return i;
	if (nvpc_parse_u64(item, &id))
		return -1;
	for (unsigned int i = 0; i < h->nr_signals; i++)
		if (h->signals[i].id == id)
			return i;
	return -1;
}

/* "name (0xNN), ..." of the capture's signals, made printable */
static void signal_names(const struct nvpc_header *h, char *out, size_t len)
{
	char name[4 * NVPC_FILE_SIGNAME_LEN];
	size_t pos = 0;

	out[0] = '\0';
	for (unsigned int i = 0; i < h->nr_signals && pos < len; i++)
		pos += snprintf(out + pos, len - pos, "%s%s (0x%02x)",
				i ? ", " : "",
				nvpc_printable(name, sizeof(name),
					       h->signals[i].name),
				h->signals[i].id & 0xff);
}

int nvpc_view_signals(struct nvpc_view *v, const struct nvpc_header *h,
		      const char *list)
{
	char *copy = strdup(list), *tok, *save, names[1024], item[256];
	unsigned int n = 0;
	int i, ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		i = signal_index(h, tok);
		if (i < 0 || n == NVPC_FILE_MAX_SIGNALS) {
			signal_names(h, names, sizeof(names));
			nvpc_err("-s %s: %s; the capture's signals: %s",
				 nvpc_printable(item, sizeof(item), tok),
				 i < 0 ? "no such signal in the capture" :
				 "more than 12 signals", names);
			ret = -EINVAL;
			break;
		}
		v->idx[n++] = i;
	}
	free(copy);
	if (!ret && !n) {
		nvpc_err("-s names no signal");
		ret = -EINVAL;
	}
	if (!ret)
		v->nr = n;
	return ret;
}

/*
 * The stream a qualified item names ("main.1:graph_idle": the text
 * before the first colon is a domain of the capture): its signal part
 * in *name; -1 for an item that is not qualified (the whole item is a
 * signal's name or id, which may hold a colon itself).
 */
static int item_domain(const struct nvpc_header *h, unsigned int nr,
		       const char *item, const char **name)
{
	const char *colon = strchr(item, ':');

	if (!colon)
		return -1;
	for (unsigned int s = 0; s < nr; s++)
		if (strlen(h[s].domain) == (size_t)(colon - item) &&
		    !strncmp(h[s].domain, item, colon - item)) {
			*name = colon + 1;
			return s;
		}
	return -1;
}

/* "main.0: s0 (0x10), s1 (0x11); main.1: ..." of every stream */
static void stream_names(const struct nvpc_header *h, unsigned int nr,
			 char *out, size_t len)
{
	char dom[4 * NVPC_FILE_NAME_LEN], names[1024];
	size_t pos = 0;

	out[0] = '\0';
	for (unsigned int s = 0; s < nr && pos < len; s++) {
		signal_names(&h[s], names, sizeof(names));
		pos += snprintf(out + pos, len - pos, "%s%s: %s",
				s ? "; " : "",
				nvpc_printable(dom, sizeof(dom), h[s].domain),
				names);
	}
}

/* one -s item into the views of every stream that has it: 0 or -EINVAL */
static int streams_item(struct nvpc_view *v, const struct nvpc_header *h,
			unsigned int nr, const char *tok)
{
	const char *name = tok;
	int only = item_domain(h, nr, tok, &name), i;
	char names[4096], item[256], dom[4 * NVPC_FILE_NAME_LEN];
	bool found = false;

	for (unsigned int s = 0; s < nr; s++) {
		if (only >= 0 && strcmp(h[s].domain, h[only].domain))
			continue;
		i = signal_index(&h[s], name);
		if (i < 0)
			continue;
		if (v[s].nr == NVPC_FILE_MAX_SIGNALS) {
			nvpc_err("-s %s: more than 12 signals of one domain",
				 nvpc_printable(item, sizeof(item), tok));
			return -EINVAL;
		}
		v[s].idx[v[s].nr++] = i;
		found = true;
	}
	if (found)
		return 0;
	stream_names(h, nr, names, sizeof(names));
	nvpc_err("-s %s: no such signal in %s%s; the capture's signals: %s",
		 nvpc_printable(item, sizeof(item), tok),
		 only >= 0 ? "domain " : "any domain of the capture",
		 only >= 0 ? nvpc_printable(dom, sizeof(dom),
					    h[only].domain) : "",
		 names);
	return -EINVAL;
}

int nvpc_view_streams(struct nvpc_view *v, const struct nvpc_header *h,
		      unsigned int nr, const char *list)
{
	char *copy = strdup(list), *tok, *save;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (unsigned int s = 0; s < nr; s++)
		v[s].nr = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save))
		ret = streams_item(v, h, nr, tok);
	free(copy);
	if (!ret) {
		unsigned int n = 0;

		for (unsigned int s = 0; s < nr; s++)
			n += v[s].nr;
		if (!n) {
			nvpc_err("-s names no signal");
			ret = -EINVAL;
		}
	}
	return ret;
}

int nvpc_parse_time(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "", 1e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 },
		{ "ns", 1 },
	};
	char *end;
	double v;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	v = strtod(s, &end);
	if (end == s || !isfinite(v))
		return -EINVAL;
	for (unsigned int i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		v *= units[i].ns;
		/* 2^64 ns are 584 years: past that is no time of a capture */
		if (!(v >= 0) || v >= 18446744073709549568.0)
			return -EINVAL;
		*ns = (uint64_t)(v + 0.5);
		return 0;
	}
	return -EINVAL;
}

uint64_t nvpc_view_time(const struct nvpc_view *v, uint64_t ns)
{
	return ns + v->base_ns < ns ? UINT64_MAX : ns + v->base_ns;
}

void nvpc_view_header(const struct nvpc_view *v, const struct nvpc_header *h,
		      struct nvpc_header *vh)
{
	*vh = *h;
	vh->nr_signals = v->nr;
	for (unsigned int i = 0; i < v->nr; i++)
		vh->signals[i] = h->signals[v->idx[i]];
}

/* p's counts into the sums of iv */
static void add_packet(struct nvpc_interval *iv, const struct nvpc_packet *p)
{
	if (!iv->packets)
		iv->first_ns = p->start_ns;
	iv->last_ns = p->time_ns;
	iv->packets++;
	iv->cycles += p->delta;
	iv->covered_ns += p->time_ns - p->start_ns;
	iv->segment = p->segment;
	for (unsigned int i = 0; i < p->nr; i++) {
		iv->count[i] += p->ctr[i];
		if (p->saturated & (1u << i))
			iv->saturated[i]++;
	}
}

void nvpc_view_flush(struct nvpc_view *v)
{
	if (!v->cur_open)
		return;
	v->cur_open = false;
	v->intervals++;
	if (v->ifn)
		v->ifn(&v->cur, v->arg);
}

/*
 * q (p in the output's terms) into its interval: the one its own
 * interval starts in. A gap marks the interval it begins in and the one
 * it ends in.
 */
static void interval_packet(struct nvpc_view *v, const struct nvpc_packet *p,
			    const struct nvpc_packet *q)
{
	uint64_t index = p->start_ns / v->interval_ns;

	if (v->cur_open && index != v->cur.index) {
		if (q->after_gap)
			v->cur.gap = true;
		nvpc_view_flush(v);
	}
	if (!v->cur_open) {
		memset(&v->cur, 0, sizeof(v->cur));
		v->cur.index = index;
		v->cur_open = true;
	}
	if (q->after_gap) {
		v->cur.gap = true;
		if (!v->cur.after_gap) {
			v->cur.after_gap = true;
			v->cur.gap_from_ns = q->gap_from_ns;
		}
	}
	add_packet(&v->cur, q);
}

uint64_t nvpc_view_auto_interval(uint64_t packets, uint64_t span_ns,
				 uint64_t max)
{
	uint64_t step = 1;

	if (packets <= max)
		return 0;
	for (;;) {
		static const unsigned int nice[] = { 1, 2, 5 };

		for (unsigned int i = 0; i < 3; i++)
			if (span_ns / (step * nice[i]) < max)
				return step * nice[i];
		if (step > UINT64_MAX / 100)
			return UINT64_MAX;
		step *= 10;
	}
}

void nvpc_view_packet(const struct nvpc_packet *p, void *arg)
{
	struct nvpc_view *v = arg;
	uint64_t start = nvpc_view_time(v, p->start_ns);
	struct nvpc_packet q;

	if (start < v->from_ns || start >= v->to_ns)
		return;
	/* the packet as the output shows it: its signals, its times */
	q.index = p->index;
	q.segment = p->segment;
	q.raw_cycles = p->raw_cycles;
	q.cycles = p->cycles;
	q.delta = p->delta;
	q.stop = p->stop;
	q.after_gap = p->after_gap;
	q.nr = v->nr;
	q.saturated = 0;
	for (unsigned int i = 0; i < v->nr; i++) {
		q.ctr[i] = p->ctr[v->idx[i]];
		if (p->saturated & (1u << v->idx[i]))
			q.saturated |= 1u << i;
	}
	q.start_ns = start;
	q.time_ns = nvpc_view_time(v, p->time_ns);
	q.gap_from_ns = nvpc_view_time(v, p->gap_from_ns);
	add_packet(&v->all, &q);
	if (v->interval_ns)
		interval_packet(v, p, &q);
	else if (v->fn)
		v->fn(&q, v->arg);
}
