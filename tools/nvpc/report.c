// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc report: what a capture holds, as a summary (text or JSON), one CSV
 * row per packet, or a Chrome/Perfetto counter trace (the JSON trace
 * event format's "C" events). Documentation/nvpc.rst, "Report". Every
 * string from the capture is quoted for its output (nvpc_escape.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "nvpc.h"
#include "nvpc_capture.h"
#include "nvpc_decode.h"
#include "nvpc_escape.h"
#include "nvpc_interval.h"
#include "nvpc_out.h"
#include "nvpc_report.h"
#include "nvpc_util.h"
#include "nvpc_view.h"

/* time_ns: since the recording began; monotonic_ns with --monotonic */
static void csv_header(FILE *o, const struct nvpc_header *h, bool monotonic)
{
	fprintf(o, "segment,%s,cycles,delta,stop,saturated",
		monotonic ? "monotonic_ns" : "time_ns");
	for (unsigned int i = 0; i < h->nr_signals; i++) {
		fputc(',', o);
		nvpc_csv_field(o, h->signals[i].name);
	}
	fputc('\n', o);
}

static void csv_packet(const struct nvpc_packet *p, void *arg)
{
	const struct nvpc_out *t = arg;
	FILE *o = t->o;

	nvpc_csv_domain(t);
	fprintf(o, "%u,%llu,%llu,%llu,%u,%u", p->segment,
		(unsigned long long)p->time_ns, (unsigned long long)p->cycles,
		(unsigned long long)p->delta, p->stop,
		__builtin_popcount(p->saturated));
	nvpc_csv_empty(o, t->csv_before);
	for (unsigned int i = 0; i < p->nr; i++)
		fprintf(o, ",%llu", (unsigned long long)p->ctr[i]);
	nvpc_csv_empty(o, t->csv_after);
	fputc('\n', o);
}

/* a trace timestamp: microseconds with the nanoseconds kept */
static void trace_ts(FILE *o, uint64_t ns)
{
	fprintf(o, "%llu.%03llu", (unsigned long long)(ns / 1000),
		(unsigned long long)(ns % 1000));
}

static void trace_sep(struct nvpc_out *t)
{
	fprintf(t->o, "%s\n", t->first ? "" : ",");
	t->first = false;
}

/*
 * One process per GPU: its pid from the chip and bus id (FNV-1a), so
 * captures of one GPU share it and captures of two GPUs do not, also
 * in traces merged by hand.
 */
static unsigned int trace_pid(const struct nvpc_header *h)
{
	uint32_t x = 2166136261u;

	for (const char *p = h->chip; *p; p++)
		x = (x ^ (unsigned char)*p) * 16777619u;
	x = (x ^ ' ') * 16777619u;
	for (const char *p = h->bus; *p; p++)
		x = (x ^ (unsigned char)*p) * 16777619u;
	return 1 + x % 999999;
}

/* a counter track: "<domain> <signal>", one per domain and signal */
static void trace_track(struct nvpc_out *t, unsigned int i)
{
	char name[NVPC_FILE_NAME_LEN + NVPC_FILE_SIGNAME_LEN + 2];

	snprintf(name, sizeof(name), "%.*s %.*s", NVPC_FILE_NAME_LEN - 1,
		 t->h->domain, NVPC_FILE_SIGNAME_LEN - 1,
		 t->h->signals[i].name);
	trace_sep(t);
	fprintf(t->o, "{\"name\":");
	nvpc_json_str(t->o, name);
	fprintf(t->o, ",\"ph\":\"C\",\"pid\":%u,\"ts\":", t->pid);
}

/* each signal's busy share (count / cycles), 0 without cycles */
static void trace_values(struct nvpc_out *t, uint64_t ns,
			 const uint64_t *count, uint64_t cycles)
{
	for (unsigned int i = 0; i < t->h->nr_signals; i++) {
		trace_track(t, i);
		trace_ts(t->o, ns);
		fprintf(t->o, ",\"args\":{\"busy %%\":%.3f}}",
			count && cycles ? 100.0 * count[i] / cycles : 0);
	}
}

/* at a gap: every track 0 from where the data stopped, an instant event */
static void trace_gap(struct nvpc_out *t, uint64_t from_ns, uint64_t to_ns)
{
	trace_values(t, from_ns, NULL, 0);
	trace_sep(t);
	fprintf(t->o, "{\"name\":\"gap\",\"ph\":\"i\",\"s\":\"p\",\"pid\":%u,\"tid\":%u,\"ts\":",
		t->pid, t->pid);
	trace_ts(t->o, from_ns);
	fprintf(t->o, ",\"args\":{\"domain\":");
	nvpc_json_str(t->o, t->h->domain);
	fprintf(t->o, ",\"until_us\":");
	trace_ts(t->o, to_ns);
	fprintf(t->o, "}}");
}

static void trace_packet(const struct nvpc_packet *p, void *arg)
{
	struct nvpc_out *t = arg;
	uint64_t count[NVPC_FILE_MAX_SIGNALS];

	if (p->after_gap)
		trace_gap(t, p->gap_from_ns, p->start_ns);
	for (unsigned int i = 0; i < p->nr; i++)
		count[i] = p->ctr[i];
	trace_values(t, p->start_ns, count, p->delta);
}

/* an interval's share at its first packet's start */
static void trace_interval(const struct nvpc_interval *iv, void *arg)
{
	struct nvpc_out *t = arg;

	if (iv->after_gap)
		trace_gap(t, iv->gap_from_ns, iv->first_ns);
	trace_values(t, iv->first_ns, iv->count, iv->cycles);
}

/* a process_name event for the GPU of h, pid t->pid */
static void trace_process(struct nvpc_out *t, const struct nvpc_header *h)
{
	char name[3 * NVPC_FILE_NAME_LEN + 16];

	trace_sep(t);
	snprintf(name, sizeof(name), "GPU %.*s %.*s (%.*s)",
		 NVPC_FILE_NAME_LEN - 1, h->chip, NVPC_FILE_NAME_LEN - 1,
		 h->bus, NVPC_FILE_NAME_LEN - 1, h->pmu);
	fprintf(t->o, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"args\":{\"name\":",
		t->pid);
	nvpc_json_str(t->o, name);
	fprintf(t->o, "}}");
}

/* otherData's "domains" of a capture of several: each shown stream's */
static void trace_domains(FILE *o, const struct nvpc_streams *s)
{
	bool first = true;

	if (s->cap.nr == 1)
		return;
	fprintf(o, ",\"domains\":[");
	for (unsigned int i = 0; i < s->cap.nr; i++) {
		if (!s->v[i].nr)
			continue;
		fprintf(o, "%s{\"domain\":", first ? "" : ",");
		nvpc_json_str(o, s->cap.h[i].domain);
		fprintf(o, ",\"kind\":\"%s\",\"clock_hz\":%llu,\"start_monotonic_ns\":%llu,\"interval_ns\":%llu}",
			s->cap.h[i].kind == NVPC_KIND_SAMPLED ? "sampled" :
			"record", (unsigned long long)s->hz[i],
			(unsigned long long)s->cap.h[i].start_monotonic_ns,
			(unsigned long long)s->v[i].interval_ns);
		first = false;
	}
	fprintf(o, "]");
}

/*
 * The trace's head: otherData (the first shown stream's fields, and
 * every domain's in a capture of several), then a process per GPU
 */
static void trace_begin(struct nvpc_out *t, const struct nvpc_streams *s,
			unsigned int first)
{
	const struct nvpc_header *h = &s->cap.h[first];
	const struct nvpc_view *v = &s->v[first];
	unsigned int pid[NVPC_FILE_MAX_STREAMS];

	fprintf(t->o, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"chip\":");
	nvpc_json_str(t->o, h->chip);
	fprintf(t->o, ",\"bus\":");
	nvpc_json_str(t->o, h->bus);
	fprintf(t->o, ",\"domain\":");
	nvpc_json_str(t->o, h->domain);
	fprintf(t->o, ",\"clock_hz\":%llu,\"clock\":\"%s\",\"start_monotonic_ns\":%llu,\"interval_ns\":%llu",
		(unsigned long long)s->hz[first],
		v->base_ns ? "CLOCK_MONOTONIC" : "since the recording began",
		(unsigned long long)h->start_monotonic_ns,
		(unsigned long long)v->interval_ns);
	trace_domains(t->o, s);
	fprintf(t->o, "},\"traceEvents\":[");
	for (unsigned int i = first; i < s->cap.nr; i++) {
		bool seen = false;

		pid[i] = trace_pid(&s->cap.h[i]);
		for (unsigned int k = first; k < i; k++)
			seen |= s->v[k].nr && pid[k] == pid[i];
		if (!s->v[i].nr || seen)
			continue;
		t->pid = pid[i];
		trace_process(t, &s->cap.h[i]);
	}
}

static void text_interval_header(FILE *o)
{
	fprintf(o, "#%13s %20s %8s %12s  %-24s %12s %14s %9s\n", "time (s)",
		"CLOCK_MONOTONIC (s)", "packets", "cycles", "signal", "count",
		"events/s", "busy");
}

/* perf stat -I's layout: one line per signal and interval */
static void text_interval(const struct nvpc_interval *iv, void *arg)
{
	struct nvpc_out *t = arg;
	uint64_t start = nvpc_interval_start(t, iv);
	uint64_t mono = nvpc_monotonic(t->h, start);
	char name[NVPC_NAME_BUF];

	for (unsigned int i = 0; i < t->h->nr_signals; i++)
		fprintf(t->o, "%14.6f %10llu.%09llu %8llu %12llu  %-24s %12llu %s%13.6g %8.3f%%%s\n",
			start / 1e9, (unsigned long long)(mono / 1000000000),
			(unsigned long long)(mono % 1000000000),
			(unsigned long long)iv->packets,
			(unsigned long long)iv->cycles,
			nvpc_printable(name, sizeof(name),
				       t->h->signals[i].name),
			(unsigned long long)iv->count[i],
			iv->saturated[i] ? ">" : " ",
			nvpc_rate(iv->count[i], iv->cycles, iv->covered_ns,
				  t->rate_hz),
			nvpc_busy(iv->count[i], iv->cycles),
			iv->gap ? "  gap" : "");
}

static void start_time(const struct nvpc_header *h, char *buf, size_t len)
{
	time_t s = h->start_realtime_ns / 1000000000u;
	struct tm tm;

	if (!localtime_r(&s, &tm) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M:%S %z", &tm))
		snprintf(buf, len, "?");
}

/* the command's status: JSON null without an END chunk or a command */
static void print_status(FILE *o, const struct nvpc_stats *st, bool json)
{
	const struct nvpc_end *e = &st->end;

	if (!st->have_end || e->status == -1) {
		if (json)
			fprintf(o, "null");
		return;
	}
	if (json)
		fprintf(o, "%d", WIFEXITED(e->status) ? WEXITSTATUS(e->status) :
			128 + WTERMSIG(e->status));
	else if (WIFEXITED(e->status))
		fprintf(o, " (status %d)", WEXITSTATUS(e->status));
	else if (WIFSIGNALED(e->status))
		fprintf(o, " (signal %d)", WTERMSIG(e->status));
}

/* h: the view's header (its signals); v: the sums of what it shows */
static void text_summary(FILE *o, const char *path,
			 const struct nvpc_header *h, uint64_t hz,
			 const struct nvpc_stats *st, const struct nvpc_view *v)
{
	uint64_t rate_hz = nvpc_rate_hz(h, hz);
	const struct nvpc_interval *all = &v->all;
	char when[64], b1[NVPC_NAME_BUF], b2[NVPC_NAME_BUF], b3[NVPC_NAME_BUF];
	uint64_t wall = st->have_end ? st->end.end_ns : st->last_ns;

	start_time(h, when, sizeof(when));
	fprintf(o, "%s: nvpc capture, format version %u\n",
		nvpc_printable(b1, sizeof(b1), path), h->version);
	fprintf(o, "  GPU        %s %s (PMU %s)\n",
		nvpc_printable(b1, sizeof(b1), h->chip),
		nvpc_printable(b2, sizeof(b2), h->bus),
		nvpc_printable(b3, sizeof(b3), h->pmu));
	fprintf(o, "  domain     %s, clock %llu Hz (%s; nominal %llu Hz, measured %llu Hz)\n",
		nvpc_printable(b1, sizeof(b1), h->domain),
		(unsigned long long)hz,
		hz != h->clock_hz ? "--clock" : "recorded",
		(unsigned long long)h->nominal_hz,
		(unsigned long long)h->measured_hz);
	if (h->kind == NVPC_KIND_SAMPLED) {
		fprintf(o, "  sampled    every %llu ns by a cpu-clock leading a perf group (no record mode here), %u-bit counts: %s\n",
			(unsigned long long)h->sample_period_ns,
			h->counter_bits, nvpc_printable(b1, sizeof(b1), h->stop));
		fprintf(o, "  rates      events/s %s\n",
			rate_hz ? "from the cycles at --clock" :
			"from the samples' own times (no clock needed)");
	} else {
		fprintf(o, "  packets    %u bytes, STOP %s\n", h->packet_size,
			nvpc_printable(b1, sizeof(b1), h->stop));
	}
	fprintf(o, "  started    %s (CLOCK_MONOTONIC %llu.%09llu s)\n", when,
		(unsigned long long)(h->start_monotonic_ns / 1000000000),
		(unsigned long long)(h->start_monotonic_ns % 1000000000));
	if (st->have_end) {
		fprintf(o, "  ended      %s",
			nvpc_end_reason_name(st->end.reason));
		print_status(o, st, false);
		fprintf(o, " after %.6f s\n", st->end.end_ns / 1e9);
	} else {
		fprintf(o, "  ended      unknown: no end record (killed?)\n");
	}
	fprintf(o, "  recorded   %llu packets in %u segment%s, covering %.6f s of %.6f s (%.1f%%)\n",
		(unsigned long long)st->packets, st->segments,
		st->segments == 1 ? "" : "s", st->covered_ns / 1e9, wall / 1e9,
		wall ? 100.0 * st->covered_ns / wall : 0.0);
	fprintf(o, "  gaps       %llu (hardware restarted, counts lost): %llu PARTIAL, %llu re-enables by the tool, %llu AUX discontinuities; about %.6f s not covered\n",
		(unsigned long long)st->gaps, (unsigned long long)st->partial,
		(unsigned long long)st->restarts,
		(unsigned long long)st->discontinuities, st->gap_ns / 1e9);
	fprintf(o, "  lost       %llu perf records lost, %llu bytes of torn packets, %llu truncated records\n",
		(unsigned long long)st->lost_records,
		(unsigned long long)st->torn_bytes,
		(unsigned long long)st->truncated);
	fprintf(o, "  impossible %llu packets, left out of every count below: %llu with a cycle counter that is not continuous (backwards but no 48-bit wrap, or ahead of the capture's time), %llu of 0 cycles, %llu with a count above their cycles\n",
		(unsigned long long)st->impossible,
		(unsigned long long)st->bad_cycles,
		(unsigned long long)st->zero_cycles,
		(unsigned long long)st->counts_above);
	if (st->have_end && (st->end.hw_packets >= 0 || st->end.hw_gaps >= 0))
		fprintf(o, "  driver     %lld packets, %lld gaps, %llu stalls on a full AUX area (record_packets, record_gaps, record_stalls)\n",
			(long long)st->end.hw_packets,
			(long long)st->end.hw_gaps,
			(unsigned long long)st->end.stalls);
	fprintf(o, "  STOP       %llu pulses; %llu packets with STOP > 1 (%llu pulses merged into them); %llu early packets (a counter reached 0xf000, STOP 0)\n",
		(unsigned long long)st->stop_pulses,
		(unsigned long long)st->merged,
		(unsigned long long)st->merged_pulses,
		(unsigned long long)st->early);
	fprintf(o, "  saturated  %llu counter readings at 0xffff (their rates are lower bounds)\n",
		(unsigned long long)st->saturated);
	fprintf(o, "  cycles     %llu (%llu wraps of the 48-bit counter)\n",
		(unsigned long long)st->cycles, (unsigned long long)st->wraps);
	if (v->from_ns || v->to_ns != UINT64_MAX) {
		fprintf(o, "  shown      %llu packets starting from %.6f s",
			(unsigned long long)all->packets, v->from_ns / 1e9);
		if (v->to_ns != UINT64_MAX)
			fprintf(o, " before %.6f s", v->to_ns / 1e9);
		fprintf(o, ", %llu cycles (--from, --to)\n",
			(unsigned long long)all->cycles);
	}
	fputc('\n', o);
	fprintf(o, "  %-24s %6s %14s %16s %9s %9s\n", "signal", "id", "count",
		"events/s", "busy", "saturated");
	for (unsigned int i = 0; i < h->nr_signals; i++) {
		char id[8];

		snprintf(id, sizeof(id), "0x%02x", h->signals[i].id & 0xff);
		fprintf(o, "  %-24s %6s %14llu %s%15.6g %8.3f%% %9llu\n",
			nvpc_printable(b1, sizeof(b1), h->signals[i].name), id,
			(unsigned long long)all->count[i],
			all->saturated[i] ? ">" : " ",
			nvpc_rate(all->count[i], all->cycles, all->covered_ns,
				  rate_hz),
			nvpc_busy(all->count[i], all->cycles),
			(unsigned long long)all->saturated[i]);
	}
}

static void json_str(FILE *o, const char *key, const char *s)
{
	fprintf(o, "  \"%s\": ", key);
	nvpc_json_str(o, s);
	fprintf(o, ",\n");
}

static void json_u64(FILE *o, const char *key, uint64_t v)
{
	fprintf(o, "  \"%s\": %llu,\n", key, (unsigned long long)v);
}

/* intervals: the elements of "intervals" (--interval), else NULL */
static void json_summary(FILE *o, const char *path,
			 const struct nvpc_header *h, uint64_t hz,
			 const struct nvpc_stats *st, const struct nvpc_view *v,
			 const char *intervals, const char *end)
{
	uint64_t rate_hz = nvpc_rate_hz(h, hz);
	const struct nvpc_interval *all = &v->all;

	fprintf(o, "{\n");
	json_str(o, "file", path);
	json_u64(o, "version", h->version);
	json_str(o, "chip", h->chip);
	json_str(o, "bus", h->bus);
	json_str(o, "pmu", h->pmu);
	json_str(o, "domain", h->domain);
	json_u64(o, "clock_hz", hz);
	json_u64(o, "nominal_hz", h->nominal_hz);
	json_u64(o, "measured_hz", h->measured_hz);
	json_u64(o, "packet_size", h->packet_size);
	json_str(o, "stop", h->stop);
	json_u64(o, "period_cycles", h->period_cycles);
	json_str(o, "kind", h->kind == NVPC_KIND_SAMPLED ? "sampled" : "record");
	json_u64(o, "sample_period_ns", h->sample_period_ns);
	json_u64(o, "counter_bits", h->counter_bits);
	json_u64(o, "start_realtime_ns", h->start_realtime_ns);
	json_u64(o, "start_monotonic_ns", h->start_monotonic_ns);
	fprintf(o, "  \"config\": \"0x%llx\",\n  \"config1\": \"0x%llx\",\n  \"config2\": \"0x%llx\",\n",
		(unsigned long long)h->config, (unsigned long long)h->config1,
		(unsigned long long)h->config2);
	fprintf(o, "  \"complete\": %s,\n", st->have_end ? "true" : "false");
	json_str(o, "end_reason", st->have_end ?
		 nvpc_end_reason_name(st->end.reason) : "unknown");
	fprintf(o, "  \"command_status\": ");
	print_status(o, st, true);
	fprintf(o, ",\n");
	json_u64(o, "wall_ns", st->have_end ? st->end.end_ns : st->last_ns);
	json_u64(o, "packets", st->packets);
	json_u64(o, "segments", st->segments);
	json_u64(o, "covered_ns", st->covered_ns);
	json_u64(o, "cycles", st->cycles);
	json_u64(o, "wraps", st->wraps);
	json_u64(o, "gaps", st->gaps);
	json_u64(o, "gap_ns", st->gap_ns);
	json_u64(o, "partial", st->partial);
	json_u64(o, "restarts", st->restarts);
	json_u64(o, "discontinuities", st->discontinuities);
	json_u64(o, "truncated", st->truncated);
	json_u64(o, "lost_records", st->lost_records);
	json_u64(o, "torn_bytes", st->torn_bytes);
	json_u64(o, "impossible_packets", st->impossible);
	json_u64(o, "impossible_cycles", st->bad_cycles);
	json_u64(o, "zero_cycle_packets", st->zero_cycles);
	json_u64(o, "counts_above_cycles", st->counts_above);
	json_u64(o, "stop_pulses", st->stop_pulses);
	json_u64(o, "merged_packets", st->merged);
	json_u64(o, "merged_pulses", st->merged_pulses);
	json_u64(o, "early_packets", st->early);
	json_u64(o, "saturated", st->saturated);
	fprintf(o, "  \"driver_packets\": %lld,\n  \"driver_gaps\": %lld,\n  \"stalls\": %lld,\n",
		(long long)(st->have_end ? st->end.hw_packets : -1),
		(long long)(st->have_end ? st->end.hw_gaps : -1),
		(long long)(st->have_end ? (int64_t)st->end.stalls : -1));
	fprintf(o, "  \"shown\": {\"from_ns\": %llu, \"to_ns\": ",
		(unsigned long long)v->from_ns);
	if (v->to_ns == UINT64_MAX)
		fprintf(o, "null");
	else
		fprintf(o, "%llu", (unsigned long long)v->to_ns);
	fprintf(o, ", \"packets\": %llu, \"cycles\": %llu},\n",
		(unsigned long long)all->packets,
		(unsigned long long)all->cycles);
	fprintf(o, "  \"signals\": [\n");
	for (unsigned int i = 0; i < h->nr_signals; i++) {
		fprintf(o, "    {\"name\": ");
		nvpc_json_str(o, h->signals[i].name);
		fprintf(o, ", \"id\": %u, \"count\": %llu, \"events_per_s\": %.6f, \"busy_pct\": %.6f, \"saturated\": %llu}%s\n",
			h->signals[i].id, (unsigned long long)all->count[i],
			nvpc_rate(all->count[i], all->cycles, all->covered_ns,
				  rate_hz),
			nvpc_busy(all->count[i], all->cycles),
			(unsigned long long)all->saturated[i],
			i + 1 < h->nr_signals ? "," : "");
	}
	fprintf(o, "  ]");
	if (intervals)
		fprintf(o, ",\n  \"interval_ns\": %llu,\n  \"intervals\": [%s\n  ]",
			(unsigned long long)v->interval_ns, intervals);
	fprintf(o, "%s", end);
}

/* the most points a trace has by default, all its domains' (--full: all) */
#define TRACE_MAX_POINTS	20000

/* nvpc report of one capture: its streams and where it is written */
struct report {
	FILE *f, *o;
	const char *path;
	const struct nvpc_report_opts *ro;
	struct nvpc_streams s;
	bool multi;			/* several streams */
	unsigned int first;		/* the first stream shown */
	struct nvpc_out t;
	/* a summary of several streams: every stream decoded in one pass */
	bool one_pass;
	int pass_ret;
	char pass_err[256];
	struct nvpc_stats *st;		/* one_pass: each stream's */
};

/*
 * A trace without --interval or --full: a first pass over each stream
 * counts its packets; past TRACE_MAX_POINTS in all (the whole trace's,
 * not each domain's) every stream is summed per one interval, chosen so
 * that the trace has at most that many points. Leaves f at the first
 * chunk again; -1 if it cannot.
 */
static int trace_auto_interval(struct report *r)
{
	uint64_t packets = 0, span = 0, interval;
	unsigned int i;

	for (i = 0; i < r->s.cap.nr; i++) {
		struct nvpc_view count = r->s.v[i];
		struct nvpc_stats st;
		char err[256];

		if (!count.nr || count.interval_ns)
			continue;
		if (fseek(r->f, r->s.cap.data_offset, SEEK_SET))
			return -1;
		count.fn = NULL;
		count.interval_ns = 0;
		nvpc_decode(r->f, &r->s.cap.h[i], r->s.hz[i], nvpc_view_packet,
			    &count, &st, err, sizeof(err));
		packets += count.all.packets;
		if (count.all.packets) {
			uint64_t d = count.all.last_ns - count.all.first_ns;

			span = span + d < span ? UINT64_MAX : span + d;
		}
	}
	interval = nvpc_view_auto_interval(packets, span, TRACE_MAX_POINTS);
	for (i = 0; i < r->s.cap.nr; i++)
		if (r->s.v[i].nr && !r->s.v[i].interval_ns)
			r->s.v[i].interval_ns = interval;
	return fseek(r->f, r->s.cap.data_offset, SEEK_SET) ? -1 : 0;
}

/* what comes before the streams: a CSV header, a trace's head */
static int report_begin(struct report *r)
{
	struct nvpc_view *v0 = &r->s.v[r->first];
	char b[NVPC_NAME_BUF], d[NVPC_NAME_BUF];

	switch (r->ro->fmt) {
	case NVPC_REPORT_CSV:
		if (!r->multi && v0->interval_ns)
			nvpc_csv_interval_header(r->o, &r->s.vh[0]);
		else if (!r->multi)
			csv_header(r->o, &r->s.vh[0], v0->base_ns);
		else if (v0->interval_ns)
			nvpc_csv_streams_interval_header(r->o, r->s.vh,
							 r->s.cap.nr);
		else
			nvpc_csv_streams_header(r->o, &r->s, v0->base_ns);
		break;
	case NVPC_REPORT_TRACE:
		if (!r->ro->full && trace_auto_interval(r)) {
			nvpc_err("%s: cannot read it a second time", r->path);
			return -1;
		}
		trace_begin(&r->t, &r->s, r->first);
		break;
	case NVPC_REPORT_JSON:
		if (r->multi)
			fprintf(r->o, "{\"domains\": [\n");
		break;
	default:
		if (!r->multi)
			break;
		fprintf(r->o, "%s: nvpc capture of %u domains:",
			nvpc_printable(b, sizeof(b), r->path), r->s.cap.nr);
		for (unsigned int i = 0; i < r->s.cap.nr; i++)
			fprintf(r->o, "%s %s", i ? "," : "",
				nvpc_printable(d, sizeof(d),
					       r->s.cap.h[i].domain));
		fprintf(r->o, "\n");
		break;
	}
	return 0;
}

/* the output's functions for stream i, before its pass */
static int report_setup(struct report *r, unsigned int i, char **ivs,
			size_t *ivs_len)
{
	struct nvpc_view *v = &r->s.v[i];
	struct nvpc_out *t = &r->t;
	char dom[NVPC_NAME_BUF];

	t->h = &r->s.vh[i];
	t->hz = r->s.hz[i];
	t->rate_hz = nvpc_rate_hz(&r->s.cap.h[i], t->hz);
	t->interval_ns = v->interval_ns;
	t->pid = trace_pid(&r->s.cap.h[i]);
	v->arg = t;
	switch (r->ro->fmt) {
	case NVPC_REPORT_CSV:
		if (r->multi)
			nvpc_csv_streams_pad(t, r->s.vh, r->s.cap.nr, i,
					     v->interval_ns ? 3 : 1);
		if (v->interval_ns)
			v->ifn = nvpc_csv_interval;
		else
			v->fn = csv_packet;
		break;
	case NVPC_REPORT_TRACE:
		v->fn = trace_packet;
		v->ifn = trace_interval;
		break;
	case NVPC_REPORT_JSON:
		t->first = true;
		if (v->interval_ns) {
			t->o = open_memstream(ivs, ivs_len);
			if (!t->o)
				return -1;
			v->ifn = nvpc_json_interval;
		}
		break;
	default:
		if (r->multi && v->interval_ns)
			fprintf(r->o, "%s# domain %s\n", i > r->first ? "\n" : "",
				nvpc_printable(dom, sizeof(dom),
					       r->s.cap.h[i].domain));
		if (v->interval_ns) {
			text_interval_header(r->o);
			v->ifn = text_interval;
		}
		break;
	}
	return 0;
}

/* stream i of the report: its exit status */
static int report_stream(struct report *r, unsigned int i)
{
	const struct nvpc_header *h = &r->s.cap.h[i];
	struct nvpc_view *v = &r->s.v[i];
	struct nvpc_out *t = &r->t;
	char label[NVPC_NAME_BUF + 64], *ivs = NULL;
	const char *name;
	size_t ivs_len = 0;
	struct nvpc_stats st;
	int status;

	if (!r->one_pass && r->multi &&
	    fseek(r->f, r->s.cap.data_offset, SEEK_SET)) {
		nvpc_err("%s: cannot read it a second time", r->path);
		return NVPC_EXIT_ERROR;
	}
	if (report_setup(r, i, &ivs, &ivs_len))
		return NVPC_EXIT_ERROR;
	/* the path itself for a capture of one stream */
	name = nvpc_stream_label(r->path, &r->s, i, label, sizeof(label));
	if (r->one_pass) {
		st = r->st[i];
		status = nvpc_capture_judge(name, h, t->hz, r->pass_ret,
				       r->pass_err, &st);
	} else {
		status = nvpc_capture_decode(name, r->f, h, t->hz,
					     nvpc_view_packet, v, &st);
	}
	nvpc_view_flush(v);
	switch (r->ro->fmt) {
	case NVPC_REPORT_TRACE:
		if (v->all.packets)
			trace_values(t, v->all.last_ns, NULL, 0);
		break;
	case NVPC_REPORT_JSON:
		if (t->o != r->o && fclose(t->o))
			status = NVPC_EXIT_ERROR;
		t->o = r->o;
		if (r->multi && i > r->first)
			fprintf(r->o, ",\n");
		json_summary(r->o, r->path, &r->s.vh[i], t->hz, &st, v,
			     v->interval_ns ? (ivs ? ivs : "") : NULL,
			     r->multi ? "\n}" : "\n}\n");
		free(ivs);
		break;
	case NVPC_REPORT_TEXT:
		if (r->multi && !v->interval_ns)
			fputc('\n', r->o);
		if (!v->interval_ns)
			text_summary(r->o, r->path, &r->s.vh[i], t->hz, &st, v);
		break;
	default:
		break;
	}
	return status;
}

/*
 * A summary (text or JSON, no -I) of a capture of several streams: every
 * stream decoded into its view and stats in one pass over the file, not
 * one pass per stream (64 domains were 64 reads). The views write
 * nothing while they decode there; report_stream() then writes each.
 * 0, or -1 out of memory.
 */
static int report_one_pass(struct report *r)
{
	unsigned int nr = r->s.cap.nr;
	struct nvpc_decoder *d = calloc(nr, sizeof(*d));

	r->st = calloc(nr, sizeof(*r->st));
	if (!d || !r->st) {
		free(d);
		return -1;
	}
	r->pass_ret = 0;
	for (unsigned int i = 0; i < nr && !r->pass_ret; i++)
		if (nvpc_decoder_init(&d[i], &r->s.cap.h[i], r->s.hz[i],
				      r->s.v[i].nr ? nvpc_view_packet : NULL,
				      &r->s.v[i], &r->st[i], r->pass_err,
				      sizeof(r->pass_err)))
			r->pass_ret = -EINVAL;
	if (!r->pass_ret)
		r->pass_ret = nvpc_decode_streams(r->f, d, nr, r->pass_err,
						  sizeof(r->pass_err));
	free(d);
	r->one_pass = true;
	return 0;
}

int nvpc_report_write(FILE *f, const char *path,
		      const struct nvpc_report_opts *ro, FILE *o)
{
	struct report *r = calloc(1, sizeof(*r));
	int status;

	if (!r) {
		nvpc_err("%s: out of memory", path);
		return NVPC_EXIT_ERROR;
	}
	r->f = f;
	r->o = o;
	r->path = path;
	r->ro = ro;
	r->t.o = o;
	r->t.first = true;
	status = nvpc_streams_open(path, f, ro, &r->s);
	if (status)
		goto out;
	r->multi = r->s.cap.nr > 1;
	while (r->first + 1 < r->s.cap.nr && !r->s.v[r->first].nr)
		r->first++;	/* -s: a stream with no signal shown */
	if (report_begin(r)) {
		status = NVPC_EXIT_ERROR;
		goto out;
	}
	if (r->multi && !ro->interval_ns &&
	    (ro->fmt == NVPC_REPORT_TEXT || ro->fmt == NVPC_REPORT_JSON) &&
	    report_one_pass(r)) {
		nvpc_err("%s: out of memory", path);
		status = NVPC_EXIT_ERROR;
		goto out;
	}
	for (unsigned int i = r->first; i < r->s.cap.nr; i++)
		if (r->s.v[i].nr)
			status = nvpc_exit_worst(status, report_stream(r, i));
	if (ro->fmt == NVPC_REPORT_TRACE)
		fprintf(o, "\n]}\n");
	else if (ro->fmt == NVPC_REPORT_JSON && r->multi)
		fprintf(o, "\n]}\n");
	if (fflush(o) || ferror(o)) {
		nvpc_err("writing the report: %s", strerror(errno));
		status = NVPC_EXIT_ERROR;
	}
out:
	free(r->st);
	free(r);
	return status;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: nvpc report [--csv | --json | --trace] [--clock HZ] [-o OUT]\n"
"                   [-i FILE | FILE]\n"
"\n"
"Decode an nvpc capture (default " NVPC_DEFAULT_OUTPUT "; - reads stdin).\n"
"\n"
"  (none)       summary: packets, time covered, gaps and losses, STOP\n"
"               merges, early packets, saturated counters, impossible\n"
"               packets, and per signal its rate in events/s and %% busy\n"
"  -c, --csv    one row per packet: segment, time_ns, cycles, delta,\n"
"               stop, saturated, then each signal's count\n"
"  -J, --json   the summary as JSON\n"
"  -t, --trace  a Chrome/Perfetto JSON trace: a counter track per signal\n"
"               (busy %%), an instant event per gap\n"
"  --clock HZ   convert cycles with HZ instead of the recorded clock\n"
"  -s, --signals LIST  only these signals, in this order: names or ids\n"
"               (0x10) of the capture's signals, comma-separated;\n"
"               DOMAIN:SIGNAL in a capture of several domains\n"
"  --from T, --to T    only the packets that start in [T, T): seconds\n"
"               since the recording began, or with a unit: 250ms, 10us\n"
"  -I, --interval MS   per interval of MS milliseconds (or 1s, 250us):\n"
"               counts, events/s and busy share per signal, the start\n"
"               since the recording and in CLOCK_MONOTONIC, gaps marked\n"
"  --monotonic  times in CLOCK_MONOTONIC (perf's clock: perf record -k\n"
"               mono), not since the recording began\n"
"  --full       a trace of every packet (by default a trace of more than\n"
"               20000 packets, all domains together, is summed per interval)\n"
"  -i, --input FILE   the capture (- for stdin)\n"
"  -o, --output OUT   write to OUT instead of stdout (- for stdout)\n"
"\n"
"Exit status: 0 a complete capture; 1 nothing reported (not a capture,\n"
"a corrupt header, a write error); 2 bad arguments; 3 an unfinished or\n"
"damaged capture (no end record, a torn or corrupt chunk: the packets\n"
"before it are reported); 4 impossible packets, left out of the counts.\n"
"A capture of several domains: each domain in turn (CSV: one table, a\n"
"domain column, DOMAIN:SIGNAL columns), the worst status of them.\n");
}

int nvpc_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'J' },
		{ "trace", no_argument, NULL, 't' },
		{ "clock", required_argument, NULL, 'C' },
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "signals", required_argument, NULL, 's' },
		{ "from", required_argument, NULL, NVPC_OPT_FROM },
		{ "to", required_argument, NULL, NVPC_OPT_TO },
		{ "interval", required_argument, NULL, 'I' },
		{ "monotonic", no_argument, NULL, NVPC_OPT_MONOTONIC },
		{ "full", no_argument, NULL, NVPC_OPT_FULL },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct nvpc_report_opts ro = { .fmt = NVPC_REPORT_TEXT };
	bool bad = false;
	const char *path = NULL, *out = NULL;
	struct nvpc_ofile o;
	FILE *f;
	int c, status, fmt = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "cJti:o:s:I:h", longopts,
				NULL)) != -1) {
		if (nvpc_view_option(c, optarg, &ro, &bad)) {
			if (bad)
				return NVPC_EXIT_USAGE;
			continue;
		}
		switch (c) {
		case 'c':
		case 'J':
		case 't':
			/* one format: two are bad arguments, not the last wins */
			if (nvpc_format_once(&fmt, c))
				return NVPC_EXIT_USAGE;
			ro.fmt = c == 'c' ? NVPC_REPORT_CSV :
				 c == 'J' ? NVPC_REPORT_JSON : NVPC_REPORT_TRACE;
			break;
		case 'C':
			if (nvpc_parse_u64(optarg, &ro.clock_hz) ||
			    !ro.clock_hz) {
				nvpc_err("--clock %s: the domain's clock in Hz, above 0",
					 optarg);
				return NVPC_EXIT_USAGE;
			}
			break;
		case 'i':
			path = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			usage(stdout);
			return NVPC_EXIT_OK;
		default:
			usage(stderr);
			return NVPC_EXIT_USAGE;
		}
	}
	if (optind + 1 < argc || (path && optind < argc)) {
		nvpc_err("report reads one capture, not %d",
			 argc - optind + !!path);
		return NVPC_EXIT_USAGE;
	}
	if (optind < argc)
		path = argv[optind];
	if (!path)
		path = NVPC_DEFAULT_OUTPUT;
	f = nvpc_capture_open(path);
	if (!f)
		return NVPC_EXIT_ERROR;
	if (nvpc_ofile_open(&o, out, f)) {
		fclose(f);
		return NVPC_EXIT_ERROR;
	}
	status = nvpc_report_write(f, path, &ro, o.f);
	free(ro.signals);
	/* a damaged capture's report is kept, with its message and status */
	if (nvpc_ofile_close(&o, status != NVPC_EXIT_ERROR &&
			       status != NVPC_EXIT_USAGE) && !status)
		status = NVPC_EXIT_ERROR;
	fclose(f);
	return status;
}
