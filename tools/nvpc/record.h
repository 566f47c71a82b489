/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvpc record's parts: record.c the command, record_open.c the perf
 * events and their rings, record_drain.c the rings' records into the
 * capture. What the recording of one domain is; included by these three
 * and the drain test (tools/testing/nvpc/drain_test.c) alone.
 */
#ifndef NVPC_RECORD_H
#define NVPC_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/perf_event.h>

#include "nvpc_file.h"
#include "nvpc_gpu.h"
#include "outq.h"

/* with --stop the packet rate is unknown: 256 KiB */
#define DEFAULT_AUX_PAGES	64
/*
 * The sizing rule of Documentation/record.rst "Sizing": the packets of
 * AUX_HOLD_MS, the longest the tool may go without reading an area
 * (scheduling, page faults, a loaded machine), in a power of two of
 * pages; where the user's locked-memory limits refuse that, down to
 * AUX_DRAIN_HOLD of the driver's longest drain periods, below which the
 * hardware stalls between drains whatever the tool does.
 */
#define AUX_HOLD_MS		250
#define AUX_DRAIN_MS		10
#define AUX_DRAIN_HOLD		4
#define AUX_MIN_PAGES		16
#define AUX_MAX_PAGES		65536

struct rec_opts {
	const char *pmu;
	const char *domain;	/* the recording's domain (one rec's) */
	char *signals;		/* its -s, comma-separated */
	/* every -d, and the -s given after each (before any: the first's) */
	unsigned int nr_domains;
	const char *domains[NVPC_FILE_MAX_STREAMS];
	char *domain_signals[NVPC_FILE_MAX_STREAMS];
	const char *stop;
	const char *output;
	uint64_t every;		/* cycles, 0: not given */
	uint64_t every_ns;	/* --every with a time or Hz unit, 0: not */
	enum { MODE_AUTO, MODE_RECORD, MODE_SAMPLE } mode;
	bool data_pages_given;
	uint64_t clock_hz;	/* --clock, 0: from sysfs */
	uint64_t aux_pages;	/* 0: chosen from the packet rate */
	uint64_t data_pages;
	double duration;	/* seconds, 0: none */
	bool short_pkt;
	bool quiet;
	uint64_t write_buffer;	/* the capture's ring in memory, bytes */
	char **cmd;
};

/* what the domains of one recording share */
struct session {
	FILE *out;		/* the capture, through its writer (outq.c) */
	struct nvpc_outq_stats outq;
	uint64_t unread_max_ns;	/* the longest from one read of the rings to the next */
	uint64_t start_ns;	/* CLOCK_MONOTONIC at the first enable */
	bool progress;		/* stdout is a terminal */
	bool to_stdout;		/* -o -: the capture goes to stdout */
	bool write_error;
	bool exec_failed;	/* the command could not run */
};

/* the recording of one domain: a stream of the capture */
struct rec {
	struct rec_opts o;
	struct session *s;
	uint32_t stream;
	struct nvpc_gpu gpu;
	struct nvpc_domain dom;
	struct nvpc_header hdr;
	struct perf_event_attr attr;
	int fd;
	struct perf_event_mmap_page *up;
	uint8_t *data;		/* the data ring */
	uint64_t data_size;
	uint8_t *aux;		/* the AUX area */
	uint64_t aux_size;
	uint64_t aux_floor;	/* pages an automatic area may shrink to */

	/* sampled mode: the group {cpu-clock, cycles, signals...} */
	bool sampled;
	int member_fd[1 + NVPC_FILE_MAX_SIGNALS];	/* cycles, signals */
	uint64_t member_id[1 + NVPC_FILE_MAX_SIGNALS];
	uint64_t last[1 + NVPC_FILE_MAX_SIGNALS];	/* cumulative counts */

	/* what happened */
	struct nvpc_end end;
	uint64_t packets;
	bool faulted, gone, hup;
	uint64_t hw_packets0, hw_gaps0, stalls0;
	bool have_hw_packets, have_hw_gaps, have_stalls;
};

/*
 * rec_open_event() - open @r's record event on its PMU's CPU and map its
 * data ring and AUX area (sized by the domain's packet rate unless
 * --aux-pages gave it)
 * @r: a domain looked up, its signals in r->hdr
 *
 * Return: 0, or -errno with a message saying why and what to do.
 */
int rec_open_event(struct rec *r);

/*
 * rec_open_sampled() - open @r's sampled group (no record mode here) and
 * map its data ring
 * @r: a domain looked up, its signals in r->hdr, r->o.every_ns its period
 *
 * Return: 0, or -errno with a message.
 */
int rec_open_sampled(struct rec *r);

/*
 * rec_explain_open() - say why perf_event_open() failed with @err for
 * @r's event (r->attr) and what to do about it
 */
void rec_explain_open(struct rec *r, int err);

/*
 * rec_drain() - read every record of @r's data ring: AUX bytes and lost
 * records into the capture, samples into SAMPLE chunks; aux_tail and
 * data_tail moved on
 *
 * Return: true if the event stopped for a stall and wants an enable
 * (rec_reenable()); a fault or a GPU gone sets r->faulted or r->gone.
 */
bool rec_drain(struct rec *r);

/* rec_reenable() - enable @r's event again after a stall, marked in the capture */
void rec_reenable(struct rec *r);

/*
 * rec_record_state() - the domain's record_state ("gone" where the GPU
 * is, "unknown" where it cannot be read), in @buf of @len or a constant
 */
const char *rec_record_state(struct rec *r, char *buf, size_t len);

/* rec_domain_u64() - the number in the domain's sysfs file @attr: found */
bool rec_domain_u64(struct rec *r, const char *attr, uint64_t *v);

#endif /* NVPC_RECORD_H */
