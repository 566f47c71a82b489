// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc record's drain: the records of a domain's perf data ring into the
 * capture (record.h).
 *
 * The perf AUX protocol: the data ring (1 + 2^n pages) carries
 * PERF_RECORD_AUX records that say where new AUX bytes are (aux_offset,
 * aux_size) and what happened before and after them (flags); the tool
 * copies those bytes, then moves aux_tail and data_tail on so the driver
 * may reuse the space. A full AUX area is a stall the driver rides out on
 * its own: the hardware waits until the tool frees room, the record after
 * it is PARTIAL (a gap) and the domain's record_stalls counts it, which
 * the tool reports. A record flagged TRUNCATED means the event stopped:
 * on a VM fault ("faulted") or a GPU gone the tool stops; otherwise it
 * enables the event again and the capture marks the restart.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>

#include "nvpc_file.h"
#include "nvpc_gpu.h"
#include "nvpc_util.h"
#include "record.h"

/*
 * One PERF_RECORD_SAMPLE of the group ({time, nr, {value, id} x nr}, as
 * PERF_SAMPLE_TIME | PERF_SAMPLE_READ with PERF_FORMAT_GROUP | ID give
 * it): each member's count since the previous sample into a SAMPLE
 * chunk. The counts are cumulative, so a lost sample only makes the
 * next entry longer.
 */
static void sample_record(struct rec *r, const uint64_t *v, size_t n)
{
	unsigned int members = 1 + r->hdr.nr_signals, found = 0;
	uint64_t cur[1 + NVPC_FILE_MAX_SIGNALS], d[NVPC_FILE_MAX_SIGNALS];
	uint64_t t, nr;

	if (n < 2)
		return;
	t = v[0];
	nr = v[1];
	if (nr > (n - 2) / 2)
		return;	/* cannot be: the record is the kernel's */
	for (uint64_t j = 0; j < nr; j++)
		for (unsigned int k = 0; k < members; k++)
			if (v[3 + 2 * j] == r->member_id[k]) {
				cur[k] = v[2 + 2 * j];
				found |= 1u << k;
			}
	if (found != (1u << members) - 1)
		return;
	for (unsigned int i = 0; i < r->hdr.nr_signals; i++)
		d[i] = cur[1 + i] - r->last[1 + i];
	if (!r->s->write_error &&
	    nvpc_file_write_sample(r->s->out, r->stream,
				   t > r->s->start_ns ? t - r->s->start_ns : 0,
				   cur[0] - r->last[0], d, r->hdr.nr_signals)) {
		nvpc_err("writing %s: %s", r->o.output, strerror(errno));
		r->s->write_error = true;
	}
	memcpy(r->last, cur, sizeof(cur[0]) * members);
	r->packets++;
}

static void domain_path(struct rec *r, const char *attr, char *path,
			size_t len)
{
	snprintf(path, len, "%s/%s", r->dom.dir, attr);
}

bool rec_domain_u64(struct rec *r, const char *attr, uint64_t *v)
{
	char path[1024];

	domain_path(r, attr, path, sizeof(path));
	return !nvpc_sysfs_u64(path, v);
}

/* a chunk of this stream; an AUX chunk's bytes may wrap (rest) */
static void write_chunk_split(struct rec *r, const struct nvpc_chunk *c,
			      const void *head, uint32_t head_size,
			      const void *rest)
{
	struct nvpc_chunk k = *c;

	if (r->s->write_error)
		return;
	k.stream = r->stream;
	if (nvpc_file_write_chunk_split(r->s->out, &k, head, head_size,
					rest)) {
		nvpc_err("writing %s: %s", r->o.output, strerror(errno));
		r->s->write_error = true;
	}
}

static void write_chunk(struct rec *r, const struct nvpc_chunk *c,
			const void *payload)
{
	write_chunk_split(r, c, payload, c->size, NULL);
}

/* copy len bytes at offset off of a ring of size (a power of two) */
static void ring_copy(void *dst, const uint8_t *ring, uint64_t size,
		      uint64_t off, uint64_t len)
{
	uint64_t pos = off & (size - 1);
	uint64_t first = len < size - pos ? len : size - pos;

	memcpy(dst, ring + pos, first);
	memcpy((uint8_t *)dst + first, ring, len - first);
}

const char *rec_record_state(struct rec *r, char *buf, size_t len)
{
	char path[1024];
	int ret;

	domain_path(r, "record_state", path, sizeof(path));
	ret = nvpc_sysfs_read(path, buf, len);
	if (ret == -ENODEV || (ret == -ENOENT && access(r->gpu.dir, F_OK)))
		return "gone";
	return ret > 0 ? buf : "unknown";
}

/*
 * One PERF_RECORD_AUX: its bytes into the capture straight from the AUX
 * area (into the writer's ring, outq.c), then free them; after TRUNCATED
 * find out why the event stopped. *reenable is set for a stall.
 */
static void aux_record(struct rec *r, uint64_t off, uint64_t size,
		       uint64_t flags, bool *reenable)
{
	struct nvpc_chunk c = {
		.type = NVPC_CHUNK_AUX,
		.flags = flags,
		.offset = off,
		.time_ns = nvpc_now_ns(CLOCK_MONOTONIC) - r->s->start_ns,
		.size = size,
	};
	uint64_t pos, first;
	char buf[32];
	const char *state;

	if (size > r->aux_size) {	/* cannot be: the driver's bug */
		nvpc_err("AUX record of %llu bytes in a %llu-byte area",
			 (unsigned long long)size,
			 (unsigned long long)r->aux_size);
		c.size = size = 0;
	}
	pos = off & (r->aux_size - 1);
	first = size < r->aux_size - pos ? size : r->aux_size - pos;
	write_chunk_split(r, &c, r->aux + pos, first, r->aux);
	__atomic_store_n(&r->up->aux_tail, off + size, __ATOMIC_RELEASE);
	r->end.aux_bytes += size;
	r->packets += size / r->hdr.packet_size;

	if (flags & PERF_AUX_FLAG_PARTIAL)
		nvpc_dbg("gap before AUX offset %llu (PARTIAL)",
			 (unsigned long long)off);
	if (!(flags & PERF_AUX_FLAG_TRUNCATED))
		return;
	r->end.truncated++;
	state = rec_record_state(r, buf, sizeof(buf));
	nvpc_dbg("the event stopped after AUX offset %llu (TRUNCATED), record_state %s",
		 (unsigned long long)(off + size), state);
	if (!strcmp(state, "faulted"))
		r->faulted = true;
	else if (!strcmp(state, "gone"))
		r->gone = true;
	else
		*reenable = true;	/* perf stopped it: try again */
}

/* read every record of the data ring; returns true if a stall needs an enable */
bool rec_drain(struct rec *r)
{
	uint64_t head = __atomic_load_n(&r->up->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->up->data_tail;
	bool reenable = false;
	union {
		uint64_t align;
		uint8_t b[1 << 16];
	} rec;

	while (tail < head) {
		struct perf_event_header h;
		const uint64_t *v = (const uint64_t *)(rec.b + sizeof(h));

		ring_copy(&h, r->data, r->data_size, tail, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - tail)
			break;	/* cannot be: the ring is the kernel's */
		ring_copy(rec.b, r->data, r->data_size, tail, h.size);
		tail += h.size;
		switch (h.type) {
		case PERF_RECORD_SAMPLE:
			if (r->sampled)
				sample_record(r, v, (h.size - sizeof(h)) /
						    sizeof(uint64_t));
			break;
		case PERF_RECORD_AUX:
			if (h.size >= sizeof(h) + 3 * sizeof(uint64_t))
				aux_record(r, v[0], v[1], v[2], &reenable);
			break;
		case PERF_RECORD_LOST:
			if (h.size >= sizeof(h) + 2 * sizeof(uint64_t)) {
				struct nvpc_chunk c = {
					.type = NVPC_CHUNK_LOST,
					.offset = v[1],
					.time_ns = nvpc_now_ns(CLOCK_MONOTONIC) -
						   r->s->start_ns,
				};

				r->end.lost += v[1];
				write_chunk(r, &c, NULL);
			}
			break;
		default:	/* ITRACE_START and the like */
			break;
		}
	}
	__atomic_store_n(&r->up->data_tail, tail, __ATOMIC_RELEASE);
	return reenable;
}

void rec_reenable(struct rec *r)
{
	struct nvpc_chunk c = { .type = NVPC_CHUNK_RESTART };

	if (ioctl(r->fd, PERF_EVENT_IOC_ENABLE, 0)) {
		nvpc_err("enabling the event again after it stopped: %s",
			 strerror(errno));
		r->gone = errno == ENODEV;
		r->hup = true;
		return;
	}
	c.time_ns = nvpc_now_ns(CLOCK_MONOTONIC) - r->s->start_ns;
	write_chunk(r, &c, NULL);
	nvpc_dbg("the event stopped: enabled again");
}
