// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc report: what a capture holds, as a summary (text or JSON), one CSV
 * row per packet, or a Chrome/Perfetto counter trace (the JSON trace
 * event format's "C" events). Documentation/nvpc.rst, "Report".
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>

#include "nvpc.h"
#include "nvpc_decode.h"
#include "nvpc_report.h"

enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON, FMT_TRACE };

struct trace_state {
	const struct nvpc_header *h;
	bool first;
};

int nvpc_capture_open(const char *path, uint64_t clock_hz, FILE **f,
		      struct nvpc_header *h, uint64_t *hz)
{
	char err[256];

	*f = fopen(path, "re");
	if (!*f) {
		nvpc_err("cannot open %s: %s", path, strerror(errno));
		return -errno;
	}
	if (nvpc_file_read_header(*f, h, err, sizeof(err))) {
		nvpc_err("%s: %s", path, err);
		fclose(*f);
		*f = NULL;
		return -EINVAL;
	}
	*hz = clock_hz ? clock_hz : h->clock_hz;
	if (!*hz) {
		nvpc_err("%s records no clock for %s: give --clock HZ",
			 path, h->domain);
		fclose(*f);
		*f = NULL;
		return -EINVAL;
	}
	return 0;
}

int nvpc_capture_decode(const char *path, FILE *f,
			const struct nvpc_header *h, uint64_t hz,
			nvpc_packet_fn fn, void *arg, struct nvpc_stats *st)
{
	char err[256];
	int ret = nvpc_decode(f, h, hz, fn, arg, st, err, sizeof(err));
	int status = NVPC_EXIT_OK;

	if (ret == -ENOMEM) {
		nvpc_err("%s: out of memory", path);
		return NVPC_EXIT_ERROR;
	}
	if (ret) {
		nvpc_err("%s: %s; the packets before it are reported", path,
			 err);
		status = NVPC_EXIT_DAMAGED;
	}
	if (!st->have_end) {
		nvpc_err("%s has no end record: the recording did not finish (killed?); the packets in it are reported",
			 path);
		status = NVPC_EXIT_DAMAGED;
	}
	return status;
}

static void csv_packet(const struct nvpc_packet *p, void *arg)
{
	(void)arg;
	printf("%u,%llu,%llu,%llu,%u,%u", p->segment,
	       (unsigned long long)p->time_ns, (unsigned long long)p->cycles,
	       (unsigned long long)p->delta, p->stop,
	       __builtin_popcount(p->saturated));
	for (unsigned int i = 0; i < p->nr; i++)
		printf(",%u", p->ctr[i]);
	printf("\n");
}

/* a trace timestamp: microseconds with the nanoseconds kept */
static void trace_ts(uint64_t ns)
{
	printf("%llu.%03llu", (unsigned long long)(ns / 1000),
	       (unsigned long long)(ns % 1000));
}

static void trace_sep(struct trace_state *t)
{
	printf("%s\n", t->first ? "" : ",");
	t->first = false;
}

static void trace_values(struct trace_state *t, uint64_t ns,
			 const struct nvpc_packet *p)
{
	for (unsigned int i = 0; i < t->h->nr_signals; i++) {
		double busy = p && p->delta ? 100.0 * p->ctr[i] / p->delta : 0;

		trace_sep(t);
		printf("{\"name\":\"%s\",\"ph\":\"C\",\"pid\":1,\"ts\":",
		       t->h->signals[i].name);
		trace_ts(ns);
		printf(",\"args\":{\"busy %%\":%.3f}}", busy);
	}
}

static void trace_packet(const struct nvpc_packet *p, void *arg)
{
	struct trace_state *t = arg;

	if (p->after_gap) {
		trace_values(t, p->gap_from_ns, NULL);
		trace_sep(t);
		printf("{\"name\":\"gap\",\"ph\":\"i\",\"s\":\"p\",\"pid\":1,\"tid\":1,\"ts\":");
		trace_ts(p->gap_from_ns);
		printf(",\"args\":{\"until_us\":");
		trace_ts(p->start_ns);
		printf("}}");
	}
	trace_values(t, p->start_ns, p);
}

static double rate(uint64_t count, uint64_t cycles, uint64_t hz)
{
	return cycles ? (double)count * hz / cycles : 0;
}

static double busy(uint64_t count, uint64_t cycles)
{
	return cycles ? 100.0 * count / cycles : 0;
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

static void text_summary(const char *path, const struct nvpc_header *h,
			 uint64_t hz, const struct nvpc_stats *st)
{
	char when[64];
	uint64_t wall = st->have_end ? st->end.end_ns : st->last_ns;

	start_time(h, when, sizeof(when));
	printf("%s: nvpc capture, format version %u\n", path, h->version);
	printf("  GPU        %s %s (PMU %s)\n", h->chip, h->bus, h->pmu);
	printf("  domain     %s, clock %llu Hz (%s; nominal %llu Hz, measured %llu Hz)\n",
	       h->domain, (unsigned long long)hz,
	       hz != h->clock_hz ? "--clock" : "recorded",
	       (unsigned long long)h->nominal_hz,
	       (unsigned long long)h->measured_hz);
	printf("  packets    %u bytes, STOP %s\n", h->packet_size, h->stop);
	printf("  started    %s\n", when);
	if (st->have_end) {
		printf("  ended      %s", nvpc_end_reason_name(st->end.reason));
		print_status(stdout, st, false);
		printf(" after %.6f s\n", st->end.end_ns / 1e9);
	} else {
		printf("  ended      unknown: no end record (killed?)\n");
	}
	printf("  recorded   %llu packets in %u segment%s, covering %.6f s of %.6f s (%.1f%%)\n",
	       (unsigned long long)st->packets, st->segments,
	       st->segments == 1 ? "" : "s", st->covered_ns / 1e9, wall / 1e9,
	       wall ? 100.0 * st->covered_ns / wall : 0.0);
	printf("  gaps       %llu (hardware restarted, counts lost): %llu PARTIAL, %llu re-enables by the tool, %llu AUX discontinuities; about %.6f s not covered\n",
	       (unsigned long long)st->gaps, (unsigned long long)st->partial,
	       (unsigned long long)st->restarts,
	       (unsigned long long)st->discontinuities, st->gap_ns / 1e9);
	printf("  lost       %llu perf records lost, %llu bytes of torn packets, %llu truncated records\n",
	       (unsigned long long)st->lost_records,
	       (unsigned long long)st->torn_bytes,
	       (unsigned long long)st->truncated);
	if (st->have_end && (st->end.hw_packets >= 0 || st->end.hw_gaps >= 0))
		printf("  driver     %lld packets, %lld gaps, %llu stalls on a full AUX area (record_packets, record_gaps, record_stalls)\n",
		       (long long)st->end.hw_packets,
		       (long long)st->end.hw_gaps,
		       (unsigned long long)st->end.stalls);
	printf("  STOP       %llu pulses; %llu packets with STOP > 1 (%llu pulses merged into them); %llu early packets (a counter reached 0xf000, STOP 0)\n",
	       (unsigned long long)st->stop_pulses,
	       (unsigned long long)st->merged,
	       (unsigned long long)st->merged_pulses,
	       (unsigned long long)st->early);
	printf("  saturated  %llu counter readings at 0xffff (their rates are lower bounds)\n",
	       (unsigned long long)st->saturated);
	printf("  cycles     %llu (%llu wraps of the 48-bit counter)\n\n",
	       (unsigned long long)st->cycles, (unsigned long long)st->wraps);
	printf("  %-24s %6s %14s %16s %9s %9s\n", "signal", "id", "count",
	       "events/s", "busy", "saturated");
	for (unsigned int i = 0; i < h->nr_signals; i++) {
		const struct nvpc_signal_stats *s = &st->sig[i];

		char id[8];

		snprintf(id, sizeof(id), "0x%02x", h->signals[i].id & 0xff);
		printf("  %-24s %6s %14llu %s%15.6g %8.3f%% %9llu\n",
		       h->signals[i].name, id,
		       (unsigned long long)s->count, s->saturated ? ">" : " ",
		       rate(s->count, st->cycles, hz),
		       busy(s->count, st->cycles),
		       (unsigned long long)s->saturated);
	}
}

static void json_str(const char *key, const char *s, bool comma)
{
	printf("  \"%s\": \"", key);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	printf("\"%s\n", comma ? "," : "");
}

static void json_u64(const char *key, uint64_t v)
{
	printf("  \"%s\": %llu,\n", key, (unsigned long long)v);
}

static void json_summary(const char *path, const struct nvpc_header *h,
			 uint64_t hz, const struct nvpc_stats *st)
{
	printf("{\n");
	json_str("file", path, true);
	json_u64("version", h->version);
	json_str("chip", h->chip, true);
	json_str("bus", h->bus, true);
	json_str("pmu", h->pmu, true);
	json_str("domain", h->domain, true);
	json_u64("clock_hz", hz);
	json_u64("nominal_hz", h->nominal_hz);
	json_u64("measured_hz", h->measured_hz);
	json_u64("packet_size", h->packet_size);
	json_str("stop", h->stop, true);
	json_u64("period_cycles", h->period_cycles);
	json_u64("start_realtime_ns", h->start_realtime_ns);
	printf("  \"config\": \"0x%llx\",\n  \"config1\": \"0x%llx\",\n  \"config2\": \"0x%llx\",\n",
	       (unsigned long long)h->config, (unsigned long long)h->config1,
	       (unsigned long long)h->config2);
	printf("  \"complete\": %s,\n", st->have_end ? "true" : "false");
	json_str("end_reason", st->have_end ?
		 nvpc_end_reason_name(st->end.reason) : "unknown", true);
	printf("  \"command_status\": ");
	print_status(stdout, st, true);
	printf(",\n");
	json_u64("wall_ns", st->have_end ? st->end.end_ns : st->last_ns);
	json_u64("packets", st->packets);
	json_u64("segments", st->segments);
	json_u64("covered_ns", st->covered_ns);
	json_u64("cycles", st->cycles);
	json_u64("wraps", st->wraps);
	json_u64("gaps", st->gaps);
	json_u64("gap_ns", st->gap_ns);
	json_u64("partial", st->partial);
	json_u64("restarts", st->restarts);
	json_u64("discontinuities", st->discontinuities);
	json_u64("truncated", st->truncated);
	json_u64("lost_records", st->lost_records);
	json_u64("torn_bytes", st->torn_bytes);
	json_u64("stop_pulses", st->stop_pulses);
	json_u64("merged_packets", st->merged);
	json_u64("merged_pulses", st->merged_pulses);
	json_u64("early_packets", st->early);
	json_u64("saturated", st->saturated);
	printf("  \"driver_packets\": %lld,\n  \"driver_gaps\": %lld,\n  \"stalls\": %lld,\n",
	       (long long)(st->have_end ? st->end.hw_packets : -1),
	       (long long)(st->have_end ? st->end.hw_gaps : -1),
	       (long long)(st->have_end ? (int64_t)st->end.stalls : -1));
	printf("  \"signals\": [\n");
	for (unsigned int i = 0; i < h->nr_signals; i++) {
		const struct nvpc_signal_stats *s = &st->sig[i];

		printf("    {\"name\": \"%s\", \"id\": %u, \"count\": %llu, \"events_per_s\": %.6f, \"busy_pct\": %.6f, \"saturated\": %llu}%s\n",
		       h->signals[i].name, h->signals[i].id,
		       (unsigned long long)s->count,
		       rate(s->count, st->cycles, hz),
		       busy(s->count, st->cycles),
		       (unsigned long long)s->saturated,
		       i + 1 < h->nr_signals ? "," : "");
	}
	printf("  ]\n}\n");
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: nvpc report [--csv | --json | --trace] [--clock HZ] [FILE]\n"
"\n"
"Decode an nvpc capture (default " NVPC_DEFAULT_OUTPUT ").\n"
"\n"
"  (none)       summary: packets, time covered, gaps and losses, STOP\n"
"               merges, early packets, saturated counters, and per signal\n"
"               its rate in events/s and %% busy\n"
"  -c, --csv    one row per packet: segment, time_ns, cycles, delta,\n"
"               stop, saturated, then each signal's count\n"
"  -J, --json   the summary as JSON\n"
"  -t, --trace  a Chrome/Perfetto JSON trace: a counter track per signal\n"
"               (busy %%), an instant event per gap\n"
"  --clock HZ   convert cycles with HZ instead of the recorded clock\n"
"\n"
"Exit status: 0 a complete capture; 1 nothing reported (not a capture,\n"
"a corrupt header, a write error); 2 bad arguments; 3 an unfinished or\n"
"damaged capture (no end record, a torn or corrupt chunk: the packets\n"
"before it are reported).\n");
}

int nvpc_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'J' },
		{ "trace", no_argument, NULL, 't' },
		{ "clock", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = NVPC_DEFAULT_OUTPUT;
	struct trace_state t = { .first = true };
	enum fmt fmt = FMT_TEXT;
	struct nvpc_header h;
	struct nvpc_stats st;
	uint64_t clock = 0, hz;
	FILE *f;
	int c, status;

	optind = 1;
	while ((c = getopt_long(argc, argv, "cJth", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			fmt = FMT_CSV;
			break;
		case 'J':
			fmt = FMT_JSON;
			break;
		case 't':
			fmt = FMT_TRACE;
			break;
		case 'C':
			if (nvpc_parse_u64(optarg, &clock) || !clock) {
				nvpc_err("--clock %s: the domain's clock in Hz, above 0",
					 optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind + 1 < argc) {
		nvpc_err("report reads one capture, not %d", argc - optind);
		return 2;
	}
	if (optind < argc)
		path = argv[optind];
	if (nvpc_capture_open(path, clock, &f, &h, &hz))
		return 1;

	switch (fmt) {
	case FMT_CSV:
		printf("segment,time_ns,cycles,delta,stop,saturated");
		for (unsigned int i = 0; i < h.nr_signals; i++)
			printf(",%s", h.signals[i].name);
		printf("\n");
		status = nvpc_capture_decode(path, f, &h, hz, csv_packet, NULL,
					     &st);
		break;
	case FMT_TRACE:
		t.h = &h;
		printf("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"chip\":\"%s\",\"bus\":\"%s\",\"domain\":\"%s\",\"clock_hz\":%llu},\"traceEvents\":[",
		       h.chip, h.bus, h.domain, (unsigned long long)hz);
		trace_sep(&t);
		printf("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"%s %s %s\"}}",
		       h.chip, h.bus, h.domain);
		status = nvpc_capture_decode(path, f, &h, hz, trace_packet, &t,
					     &st);
		if (st.packets)
			trace_values(&t, st.last_ns, NULL);
		printf("\n]}\n");
		break;
	case FMT_JSON:
		status = nvpc_capture_decode(path, f, &h, hz, NULL, NULL, &st);
		json_summary(path, &h, hz, &st);
		break;
	default:
		status = nvpc_capture_decode(path, f, &h, hz, NULL, NULL, &st);
		text_summary(path, &h, hz, &st);
		break;
	}
	fclose(f);
	if (fflush(stdout)) {
		nvpc_err("writing the report: %s", strerror(errno));
		return NVPC_EXIT_ERROR;
	}
	return status;
}
