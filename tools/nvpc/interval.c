// SPDX-License-Identifier: GPL-2.0
/*
 * The capture library's interval writers (nvpc_interval.h): rates and
 * busy shares, the CSV columns of several streams, and an interval as a
 * CSV row or a JSON element, as report -I and top -c/-J write them.
 * Every string from the capture is quoted for its output (nvpc_escape.h).
 */
#include <stdio.h>
#include <stdint.h>

#include "nvpc_escape.h"
#include "nvpc_file.h"
#include "nvpc_interval.h"
#include "nvpc_view.h"

void nvpc_csv_domain(const struct nvpc_out *t)
{
	if (!t->domain)
		return;
	nvpc_csv_field(t->o, t->h->domain);
	fputc(',', t->o);
}

void nvpc_csv_empty(FILE *o, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		fputc(',', o);
}

/* "<domain>:<signal><what>" as a CSV header field after a comma */
static void csv_qualified(FILE *o, const struct nvpc_header *h,
			  unsigned int i, const char *what)
{
	char buf[NVPC_FILE_NAME_LEN + NVPC_FILE_SIGNAME_LEN + 16];

	snprintf(buf, sizeof(buf), "%.*s:%.*s%s", NVPC_FILE_NAME_LEN - 1,
		 h->domain, NVPC_FILE_SIGNAME_LEN - 1, h->signals[i].name,
		 what);
	fputc(',', o);
	nvpc_csv_field(o, buf);
}

void nvpc_csv_streams_header(FILE *o, const struct nvpc_streams *s,
			     bool monotonic)
{
	fprintf(o, "domain,segment,%s,cycles,delta,stop,saturated",
		monotonic ? "monotonic_ns" : "time_ns");
	for (unsigned int k = 0; k < s->cap.nr; k++)
		for (unsigned int i = 0; i < s->vh[k].nr_signals; i++)
			csv_qualified(o, &s->vh[k], i, "");
	fputc('\n', o);
}

void nvpc_csv_streams_interval_header(FILE *o, const struct nvpc_header *vh,
				      unsigned int nr)
{
	fprintf(o, "domain,start_ns,monotonic_ns,packets,cycles,gap");
	for (unsigned int k = 0; k < nr; k++)
		for (unsigned int i = 0; i < vh[k].nr_signals; i++) {
			csv_qualified(o, &vh[k], i, " count");
			csv_qualified(o, &vh[k], i, " events/s");
			csv_qualified(o, &vh[k], i, " busy %");
		}
	fputc('\n', o);
}

void nvpc_csv_streams_pad(struct nvpc_out *out, const struct nvpc_header *vh,
			  unsigned int nr, unsigned int i, unsigned int per)
{
	out->domain = true;
	out->csv_before = 0;
	out->csv_after = 0;
	for (unsigned int k = 0; k < nr; k++) {
		if (k < i)
			out->csv_before += per * vh[k].nr_signals;
		else if (k > i)
			out->csv_after += per * vh[k].nr_signals;
	}
}

double nvpc_rate(uint64_t count, uint64_t cycles, uint64_t ns, uint64_t hz)
{
	if (!hz)
		return ns ? count * 1e9 / ns : 0;
	return cycles ? (double)count * hz / cycles : 0;
}

uint64_t nvpc_rate_hz(const struct nvpc_header *h, uint64_t hz)
{
	return h->kind == NVPC_KIND_SAMPLED && hz == h->clock_hz ? 0 : hz;
}

double nvpc_busy(uint64_t count, uint64_t cycles)
{
	return cycles ? 100.0 * count / cycles : 0;
}

/* an interval's start: since the recording began, and CLOCK_MONOTONIC */
uint64_t nvpc_interval_start(const struct nvpc_out *t,
			       const struct nvpc_interval *iv)
{
	unsigned __int128 ns = (unsigned __int128)iv->index * t->interval_ns;

	return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

uint64_t nvpc_monotonic(const struct nvpc_header *h, uint64_t ns)
{
	return h->start_monotonic_ns + ns < ns ? UINT64_MAX :
	       h->start_monotonic_ns + ns;
}

/* a CSV header field: name and what follows it */
static void csv_named(FILE *o, const char *name, const char *what)
{
	char buf[NVPC_FILE_SIGNAME_LEN + 16];

	snprintf(buf, sizeof(buf), "%.*s %s", NVPC_FILE_SIGNAME_LEN - 1,
		 name, what);
	fputc(',', o);
	nvpc_csv_field(o, buf);
}

void nvpc_csv_interval_header(FILE *o, const struct nvpc_header *h)
{
	fprintf(o, "start_ns,monotonic_ns,packets,cycles,gap");
	for (unsigned int i = 0; i < h->nr_signals; i++) {
		csv_named(o, h->signals[i].name, "count");
		csv_named(o, h->signals[i].name, "events/s");
		csv_named(o, h->signals[i].name, "busy %");
	}
	fputc('\n', o);
}

void nvpc_csv_interval(const struct nvpc_interval *iv, void *arg)
{
	struct nvpc_out *t = arg;
	uint64_t start = nvpc_interval_start(t, iv);

	nvpc_csv_domain(t);
	fprintf(t->o, "%llu,%llu,%llu,%llu,%d", (unsigned long long)start,
		(unsigned long long)nvpc_monotonic(t->h, start),
		(unsigned long long)iv->packets,
		(unsigned long long)iv->cycles, iv->gap);
	nvpc_csv_empty(t->o, t->csv_before);
	for (unsigned int i = 0; i < t->h->nr_signals; i++)
		fprintf(t->o, ",%llu,%.6f,%.6f",
			(unsigned long long)iv->count[i],
			nvpc_rate(iv->count[i], iv->cycles, iv->covered_ns,
				  t->rate_hz),
			nvpc_busy(iv->count[i], iv->cycles));
	nvpc_csv_empty(t->o, t->csv_after);
	fputc('\n', t->o);
}

/* one element of the JSON's "intervals" */
void nvpc_json_interval(const struct nvpc_interval *iv, void *arg)
{
	struct nvpc_out *t = arg;
	uint64_t start = nvpc_interval_start(t, iv);

	fprintf(t->o, "%s\n    {", t->first ? "" : ",");
	if (t->domain) {
		fprintf(t->o, "\"domain\": ");
		nvpc_json_str(t->o, t->h->domain);
		fprintf(t->o, ", ");
	}
	fprintf(t->o, "\"start_ns\": %llu, \"monotonic_ns\": %llu, \"packets\": %llu, \"cycles\": %llu, \"gap\": %s, \"signals\": [",
		(unsigned long long)start,
		(unsigned long long)nvpc_monotonic(t->h, start),
		(unsigned long long)iv->packets,
		(unsigned long long)iv->cycles, iv->gap ? "true" : "false");
	t->first = false;
	for (unsigned int i = 0; i < t->h->nr_signals; i++)
		fprintf(t->o, "%s{\"count\": %llu, \"events_per_s\": %.6f, \"busy_pct\": %.6f}",
			i ? ", " : "", (unsigned long long)iv->count[i],
			nvpc_rate(iv->count[i], iv->cycles, iv->covered_ns,
				  t->rate_hz),
			nvpc_busy(iv->count[i], iv->cycles));
	fprintf(t->o, "]}");
}
