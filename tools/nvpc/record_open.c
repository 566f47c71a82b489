// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc record's perf events (record.h): a domain's record event, or its
 * sampled group where record mode cannot be had, opened on the PMU's CPU
 * and mapped (the data ring, the AUX area sized by Documentation/
 * record.rst "Sizing"), and every refusal explained.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include <linux/nvpcounter.h>

#include "nvpc_gpu.h"
#include "nvpc_perf.h"
#include "nvpc_util.h"
#include "record.h"

static void build_attr(struct rec *r)
{
	struct perf_event_attr *a = &r->attr;
	const struct nvpc_signal *s = r->hdr.signals;
	uint64_t cfg = NVPC_CFG_RECORD, cfg1, cfg2 = 0;
	unsigned int i;

	if (r->o.short_pkt)
		cfg |= NVPC_CFG_SHORT;
	if (r->o.stop)
		cfg |= NVPC_FIELD(NVPC_CFG_SIG0, r->hdr.stop_signal);
	cfg1 = NVPC_FIELD(NVPC_CFG1_DOM, r->dom.dom) |
	       NVPC_FIELD(NVPC_CFG1_DSET, r->dom.dset) |
	       NVPC_FIELD(NVPC_CFG1_UNIT, r->dom.unit);
	if (r->o.every)	/* 1024 << (code - 1) cycles */
		cfg1 |= NVPC_FIELD(NVPC_CFG1_PERIOD,
			      __builtin_ctzll(r->o.every) - 9);
	for (i = 0; i < r->hdr.nr_signals; i++) {
		static const uint64_t rsig[4] = {
			NVPC_CFG1_RSIG0, NVPC_CFG1_RSIG1,
			NVPC_CFG1_RSIG2, NVPC_CFG1_RSIG3,
		};

		if (i < 4)
			cfg1 |= NVPC_FIELD(rsig[i], s[i].id);
		else
			cfg2 |= NVPC_FIELD(NVPC_CFG2_RSIG(i), s[i].id);
	}
	memset(a, 0, sizeof(*a));
	a->type = r->gpu.type;
	a->size = sizeof(*a);
	a->config = cfg;
	a->config1 = cfg1;
	a->config2 = cfg2;
	a->disabled = 1;
	/* the driver pins record events anyway (record.rst) */
	a->pinned = 1;
	/* a wakeup for every record: the packets' latency is the driver's */
	a->watermark = 1;
	a->wakeup_watermark = 1;
}

/* why perf_event_open() failed, and what to do about it */
void rec_explain_open(struct rec *r, int err)
{
	char self[PATH_MAX];
	int level = nvpc_perf_paranoid();
	const char *what = strerror(err);

	nvpc_self_exe(self, sizeof(self));
	switch (err) {
	case EACCES:
	case EPERM:
		if (level == INT_MIN)
			nvpc_err("perf_event_open: %s: a record event is system-wide (one CPU, every task), which needs CAP_PERFMON or root; /proc/sys/kernel/perf_event_paranoid is unreadable",
				 what);
		else if (level <= 0)
			nvpc_err("perf_event_open: %s although kernel.perf_event_paranoid is %d (system-wide events allowed): a security module (lockdown, SELinux, AppArmor) refuses perf events; run as root",
				 what, level);
		else if (level <= 2)
			nvpc_err("perf_event_open: %s: kernel.perf_event_paranoid is %d, and a record event is system-wide (one CPU, every task), which needs a level of 0 or less, CAP_PERFMON or root. Fix one of: run as root; sudo sysctl kernel.perf_event_paranoid=0; sudo setcap cap_perfmon+ep %s",
				 what, level, self);
		else
			nvpc_err("perf_event_open: %s: kernel.perf_event_paranoid is %d: at 3 and above (Debian) only CAP_SYS_ADMIN (root) opens perf events, and a record event is system-wide. Fix one of: run as root; sudo sysctl kernel.perf_event_paranoid=0; or sudo sysctl kernel.perf_event_paranoid=2 and sudo setcap cap_perfmon+ep %s",
				 what, level, self);
		break;
	case EOPNOTSUPP:
		nvpc_err("%s (%s %s) cannot record on %s: %s. Record mode needs a G84 or later chip and a backend that maps memory for the GPU (the sim does; the PCI backend does not)",
			 r->gpu.pmu, r->gpu.chip, r->gpu.bus, r->dom.name, what);
		break;
	case EBUSY:
		nvpc_err("%s of %s is busy: %s. Counting events (perf stat) or another record event use that domain; end them or record another domain%s",
			 r->dom.name, r->gpu.pmu, what,
			 r->stream ? ". On GF100 and later one domain of a GPU records at a time: its record buffer (MAIN) is one for all (Documentation/record.rst)" :
			 "");
		break;
	case EINVAL:
		nvpc_err("%s refused the event (config=0x%llx config1=0x%llx config2=0x%llx): %s. The driver logs why: echo 'module nvpcounter +p' > /sys/kernel/debug/dynamic_debug/control; then dmesg | tail",
			 r->gpu.pmu, (unsigned long long)r->attr.config,
			 (unsigned long long)r->attr.config1,
			 (unsigned long long)r->attr.config2, what);
		break;
	case ENODEV:
		nvpc_err("the GPU of %s (%s %s) is gone: %s", r->gpu.pmu,
			 r->gpu.chip, r->gpu.bus, what);
		break;
	case ENOENT:
		nvpc_err("perf_event_open: %s: no PMU of type %u any more (module unloaded?)",
			 what, r->gpu.type);
		break;
	default:
		nvpc_err("perf_event_open on %s (cpu %d): %s", r->gpu.pmu,
			 r->gpu.cpu, what);
	}
}

static void explain_mmap(const char *what, uint64_t bytes, int err)
{
	char buf[32] = "?";

	if (err == EPERM || err == ENOMEM) {
		nvpc_sysfs_read("/proc/sys/kernel/perf_event_mlock_kb", buf,
				sizeof(buf));
		nvpc_err("mmap of the %s (%llu KiB): %s. Without CAP_IPC_LOCK a user locks at most kernel.perf_event_mlock_kb = %s KiB of perf buffers (plus RLIMIT_MEMLOCK): use smaller --aux-pages/--data-pages, raise the sysctl, or run as root",
			 what, (unsigned long long)bytes >> 10, strerror(err),
			 buf);
	} else {
		nvpc_err("mmap of the %s (%llu KiB): %s", what,
			 (unsigned long long)bytes >> 10, strerror(err));
	}
}

/*
 * Pages for @ms of packets at the PERIODIC rate: a power of two, at
 * least AUX_MIN_PAGES, within what the domain maps (@max, 0: unknown).
 */
static uint64_t aux_pages_for(struct rec *r, long page, uint64_t max,
			      uint64_t ms)
{
	uint64_t pkt = r->hdr.packet_size, pages = AUX_MIN_PAGES, bytes;

	bytes = r->hdr.clock_hz / r->o.every * pkt * ms / 1000;
	while (pages < AUX_MAX_PAGES && pages * page < bytes)
		pages *= 2;
	while (max && pages > 1 && pages * page > max)
		pages /= 2;
	return pages;
}

/*
 * The AUX area (Documentation/record.rst "Sizing"): AUX_HOLD_MS of
 * packets, and the smallest it may shrink to where mmap is refused
 * (*floor, AUX_DRAIN_HOLD drain periods; 0 where the rate is unknown).
 */
static uint64_t aux_pages_auto(struct rec *r, long page, uint64_t max,
			       uint64_t *floor)
{
	*floor = 0;
	if (!r->o.every || !r->hdr.clock_hz)
		return DEFAULT_AUX_PAGES;
	*floor = aux_pages_for(r, page, max, AUX_DRAIN_HOLD * AUX_DRAIN_MS);
	return aux_pages_for(r, page, max, AUX_HOLD_MS);
}

/* the AUX area's size against the domain's record_aux_max */
static int aux_size_check(struct rec *r, long page)
{
	uint64_t max = 0;
	bool known = rec_domain_u64(r, "record_aux_max", &max);

	if (known && !max) {
		nvpc_err("%s of %s has no record mode here (record_aux_max 0: record mode is G84+, and the PCI backend maps no memory for the GPU)",
			 r->dom.name, r->gpu.pmu);
		return -EOPNOTSUPP;
	}
	if (!r->o.aux_pages)
		r->o.aux_pages = aux_pages_auto(r, page, known ? max : 0,
						&r->aux_floor);
	if (known && r->o.aux_pages * page > max) {
		nvpc_err("--aux-pages %llu (%llu KiB): %s maps at most %llu KiB (record_aux_max: its GPU window, or what the backend maps); give --aux-pages %llu or less",
			 (unsigned long long)r->o.aux_pages,
			 (unsigned long long)(r->o.aux_pages * page) >> 10,
			 r->dom.name, (unsigned long long)max >> 10,
			 (unsigned long long)(max / page));
		return -EINVAL;
	}
	nvpc_dbg("AUX area %llu pages (%s)",
		 (unsigned long long)r->o.aux_pages,
		 known ? "record_aux_max known" : "no record_aux_max");
	return 0;
}

/* the user page and data ring of r->data_size bytes */
static int map_data(struct rec *r, long page)
{
	r->up = mmap(NULL, page + r->data_size, PROT_READ | PROT_WRITE,
		     MAP_SHARED, r->fd, 0);
	if (r->up == MAP_FAILED) {
		r->up = NULL;
		explain_mmap("data ring", page + r->data_size, errno);
		return -errno;
	}
	r->data = (uint8_t *)r->up + page;
	return 0;
}

/*
 * Map the AUX area, writable: perf keeps the driver behind aux_tail (no
 * overwrite). An automatic size that the user's locked-memory limits
 * refuse halves down to r->aux_floor, and the tool says so.
 */
static int map_aux(struct rec *r, long page)
{
	uint64_t want = r->o.aux_pages;
	int err;

	for (;;) {
		r->aux_size = r->o.aux_pages * page;
		r->up->aux_offset = page + r->data_size;
		r->up->aux_size = r->aux_size;
		r->aux = mmap(NULL, r->aux_size, PROT_READ | PROT_WRITE,
			      MAP_SHARED, r->fd, r->up->aux_offset);
		if (r->aux != MAP_FAILED)
			break;
		err = errno;
		r->aux = NULL;
		if ((err != EPERM && err != ENOMEM) ||
		    r->o.aux_pages <= r->aux_floor) {
			explain_mmap("AUX area", r->aux_size, err);
			return -err;
		}
		nvpc_dbg("mmap of a %llu-page AUX area: %s; trying %llu pages",
			 (unsigned long long)r->o.aux_pages, strerror(err),
			 (unsigned long long)r->o.aux_pages / 2);
		r->o.aux_pages /= 2;
	}
	if (r->o.aux_pages < want && !r->o.quiet) {
		char kb[32] = "?";

		nvpc_sysfs_read("/proc/sys/kernel/perf_event_mlock_kb", kb,
				sizeof(kb));
		fprintf(stderr, "nvpc: %s: an AUX area of %llu pages, not the %llu that hold %d ms of packets: this user may lock no more (kernel.perf_event_mlock_kb %s KiB a CPU, then RLIMIT_MEMLOCK). A loaded machine may stall it; CAP_IPC_LOCK, root or a higher limit lift that\n",
			r->dom.name, (unsigned long long)r->o.aux_pages,
			(unsigned long long)want, AUX_HOLD_MS, kb);
	}
	return 0;
}

int rec_open_event(struct rec *r)
{
	long page = sysconf(_SC_PAGESIZE);
	int ret = aux_size_check(r, page);

	if (ret)
		return ret;

	build_attr(r);
	nvpc_dbg("perf_event_open type=%u config=0x%llx config1=0x%llx config2=0x%llx cpu=%d",
		 r->attr.type, (unsigned long long)r->attr.config,
		 (unsigned long long)r->attr.config1,
		 (unsigned long long)r->attr.config2, r->gpu.cpu);
	r->fd = nvpc_perf_open(&r->attr, r->gpu.cpu, -1);
	if (r->fd < 0) {
		rec_explain_open(r, errno);
		return -errno;
	}

	r->data_size = r->o.data_pages * page;
	ret = map_data(r, page);
	return ret ? ret : map_aux(r, page);
}

/* one perf_event_open, its failure explained with attr */
static int open_one(struct rec *r, struct perf_event_attr *a, int group)
{
	int fd;

	nvpc_dbg("perf_event_open type=%u config=0x%llx config1=0x%llx cpu=%d group=%d",
		 a->type, (unsigned long long)a->config,
		 (unsigned long long)a->config1, r->gpu.cpu, group);
	fd = nvpc_perf_open(a, r->gpu.cpu, group);
	if (fd < 0) {
		int err = errno;

		r->attr = *a;
		rec_explain_open(r, err);
		errno = err;
	}
	return fd;
}

/*
 * Sampled mode (Documentation/perf.rst "Sampling"): a group led by
 * cpu-clock on the PMU's CPU, sampling every every_ns with the group's
 * counts (PERF_SAMPLE_READ of a PERF_FORMAT_GROUP leader), the domain's
 * cycles and one counting event per signal as members. The driver reads
 * the members of one domain as one snapshot, so the counts of a sample
 * belong to the same cycles.
 */
int rec_open_sampled(struct rec *r)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr lead = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(lead),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = r->o.every_ns,
		.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_TIME,
		.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID,
		.disabled = 1,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
		.watermark = 1,
	};
	uint64_t cfg1 = NVPC_FIELD(NVPC_CFG1_DOM, r->dom.dom) |
			NVPC_FIELD(NVPC_CFG1_DSET, r->dom.dset) |
			NVPC_FIELD(NVPC_CFG1_UNIT, r->dom.unit);
	unsigned int i;

	r->data_size = r->o.data_pages * page;
	lead.wakeup_watermark = r->data_size / 2;
	r->fd = open_one(r, &lead, -1);
	if (r->fd < 0)
		return -errno;
	for (i = 0; i <= r->hdr.nr_signals; i++) {
		struct perf_event_attr a = {
			.type = r->gpu.type,
			.size = sizeof(a),
			.config = i ? NVPC_FIELD(NVPC_CFG_SIG0,
					    r->hdr.signals[i - 1].id) :
				      NVPC_CFG_CYCLES,
			.config1 = cfg1,
			.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID,
			/* perf refuses a member on another clock (EINVAL) */
			.use_clockid = 1,
			.clockid = CLOCK_MONOTONIC,
		};

		r->member_fd[i] = open_one(r, &a, r->fd);
		if (r->member_fd[i] < 0)
			return -errno;
		if (ioctl(r->member_fd[i], PERF_EVENT_IOC_ID,
			  &r->member_id[i])) {
			nvpc_err("PERF_EVENT_IOC_ID: %s", strerror(errno));
			return -errno;
		}
		if (!i)	/* the header's config: the cycles event's */
			r->attr = a;
	}
	return map_data(r, page);
}
