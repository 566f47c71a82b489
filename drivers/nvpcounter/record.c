// SPDX-License-Identifier: GPL-2.0
/*
 * Record mode (pcounter.rst "Record mode", "Record mode setup"): a record
 * event owns its domain and streams the domain's packets into the event's
 * perf AUX area.
 *
 * DOC: record mode through the perf AUX area
 *
 * The GPU writes packets straight into the AUX pages: setup_aux maps them
 * for the GPU (a backend op) repeatedly across the domain's window of GPU
 * virtual addresses, so that window offset x is AUX offset x mod the AUX
 * size. RECORD_START is written once per session, at the window offset of
 * perf's aux_head; from then on the position only grows, and RECORD_LIMIT
 * (the last packet the hardware may write before it stops) is moved up as
 * perf's aux_tail frees space, never past unread data. The hardware has no
 * interrupt: an hrtimer drains it (reads RECORD_STATUS, publishes the new
 * packets with perf_aux_output_end(), takes the next handle and moves
 * LIMIT). Nothing in steady state rewrites RECORD_START, which would reset
 * the record counters. It is rewritten (a restart) only when the hardware
 * stopped: at the top of the window (every 256 MiB on G84, whose addresses
 * are 32-bit, every 2 GiB after it) or because the consumer fell behind.
 * Every restart is a gap: counts since the last packet are lost and the
 * cycle counter restarts; the next PERF_RECORD_AUX carries
 * PERF_AUX_FLAG_PARTIAL and the domain's record_gaps counts it.
 *
 * A full AUX area is a stall, not an end: the hardware waits at LIMIT,
 * record_state says "stalled", record_stalls counts it, and the drain
 * restarts the hardware as soon as the consumer has freed a packet's room.
 * It never ends a handle TRUNCATED for it nor fills the area to the last
 * byte: perf disables an AUX event that does either, differently on 6.1
 * and 6.12 (Documentation/record.rst "Losses"). A VM fault wedges the
 * domain until the GPU is reset: the output ends TRUNCATED, record_state
 * says "faulted", the log says why.
 *
 * DOC: the outgoing packet
 *
 * "Each domain has place for one outgoing packet" (envytools'
 * pcounter.rst "Record mode"): a packet formed before the halt may still
 * be written after it, and nothing gives the write's latency or says that
 * a packet is outgoing. The halt reads the position for a short while;
 * if it moved, the one packet landed and the window is quiet. Else a
 * packet may still come, at the position the halt read, whenever:
 *
 *  - it must not fault: when the AUX pages go (free_aux) the window is
 *    mapped, in the same step, to the window's scratch page (a page of
 *    the driver's, DMA-mapped by the backend's record_map), until a new
 *    AUX area replaces it or the GPU goes;
 *  - it must not open the next session: a session armed while the window
 *    is not known quiet (the position still where the halt read it) is
 *    on probation: LIMIT at START lets exactly one packet land (a packet
 *    at or after LIMIT clears "buffer valid", pcounter.rst "Record mode
 *    setup"), which is the old one or the session's first: they cannot
 *    be told apart, so the drain drops it and writes START again, which
 *    resets the record counters. The session's data begin there. The old
 *    packet keeps the format it was formed with, which may not be the
 *    session's (a G84 domain recorded before with the other one, or on
 *    GF100+ another domain into MAIN): on probation the position may be
 *    START plus either packet size, and the drain looks every
 *    NVPC_REC_PERIOD_START_NS.
 */

#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>

#include <nvpcounter/regs.h>

#include "engine.h"

/* the drain's period bounds: often enough, never a storm */
#define NVPC_REC_PERIOD_MIN_NS	(100 * NSEC_PER_USEC)
#define NVPC_REC_PERIOD_MAX_NS	(10 * NSEC_PER_MSEC)
/* the first period of a session, before a rate is known, and of a probation */
#define NVPC_REC_PERIOD_START_NS (1 * NSEC_PER_MSEC)
/* the most a LIMIT may run ahead of what is published (DMA syncs) */
#define NVPC_REC_STEP_MAX	SZ_1M
/*
 * A halted domain's position is read for up to NVPC_REC_QUIET_NS (at most
 * NVPC_REC_QUIET_READS reads, whatever one read costs) for its one
 * outgoing packet to land, so that it is published; no wait makes the
 * domain quiet, see "DOC: the outgoing packet".
 */
#define NVPC_REC_QUIET_NS	(2 * NSEC_PER_USEC)
#define NVPC_REC_QUIET_READS	32
/*
 * On probation the packet that lands at START may be an earlier
 * session's, of either format (a G84 domain recorded with the other
 * one, or on GF100+ another domain into MAIN): as long as a long one
 */
#define NVPC_REC_PROBATION_END	NVPC_PKT_LONG
/* the watchdog: packet periods without a packet, and a floor */
#define NVPC_REC_WATCHDOG_PULSES 64
#define NVPC_REC_WATCHDOG_MIN_NS (500 * NSEC_PER_MSEC)

/* G84:G92: 32-bit addresses: a window per domain in the top 2 GiB */
#define NVPC_REC_G84_BASE	0x80000000ULL
#define NVPC_REC_G84_WINDOW	SZ_256M
/* G92+: a 4 GiB block per domain (RECORD_ADDRESS_HIGH), its low half */
#define NVPC_REC_HIGH_WINDOW	SZ_2G

/**
 * struct nvpc_rec_buf - an AUX area as the GPU sees it
 * @eng: the GPU's engine
 * @dom: the domain whose window maps it
 * @va: GPU virtual address of the window
 * @window: the window's size: the AUX pages repeat across it
 * @size: the AUX area's size (a power of 2)
 * @mapped: the GPU mapping is in place (under &nvpc_engine.lock)
 * @owner: the session of the record event that mapped it, while that
 *	event lives (under &nvpc_engine.lock)
 * @node: in &nvpc_engine.rec_bufs
 * @scratch: not an AUX area: the window's quiet state and scratch page
 *	("DOC: the outgoing packet"), one per window, kept (device-managed)
 *	as long as the GPU's device
 * @unquiet: @scratch: a packet may still land in the window (under
 *	&nvpc_engine.lock)
 * @halt_pos: @scratch: RECORD_STATUS's position after the last halt
 * @page: @scratch: the scratch page the window maps while @unquiet and
 *	no AUX area is there (@mapped)
 */
struct nvpc_rec_buf {
	struct nvpc_engine *eng;
	struct nvpc_domain *dom;
	struct nvpc_record *owner;
	u64 va;
	u64 window;
	u64 size;
	bool mapped;
	struct list_head node;
	bool scratch;
	bool unquiet;
	u32 halt_pos;
	void *page;
};

/**
 * struct nvpc_record - a record event's session state (record.c)
 * @eng: the GPU's engine
 * @dom: the domain it owns
 * @event: the record event
 * @prog: its registers
 * @handle: the open AUX handle while @active
 * @timer: the drain
 * @buf: the AUX area of the session
 * @active: a session runs (a handle is open); under &nvpc_engine.lock
 * @parked: deleted inside a perf transaction with the hardware left
 *	running and the handle open: an add in the same transaction takes
 *	the session back, the transaction's end halts it
 * @hw_on: the domain is in record mode for this session (counts in
 *	&nvpc_engine.nr_rec_hw)
 * @stalled: the AUX area was full: the hardware waits at LIMIT until
 *	the consumer frees room; under &nvpc_engine.lock
 * @gap: the next published data follows a restart (PERF_AUX_FLAG_PARTIAL)
 * @sessions: sessions started
 * @owned: AUX areas the event mapped itself (under &nvpc_engine.lock): only
 *	then does it take AUX handles (an event whose output perf redirected
 *	into another event's area never does, so no two events nest on one)
 * @win_off: window offset of RECORD_START
 * @x_pub: bytes since RECORD_START published to perf
 * @x_max: offset from RECORD_START of the last packet RECORD_LIMIT allows
 * @x_suspect: a position where the hardware may have stopped at the
 *	previous LIMIT while it was raised (0: none)
 * @bytes: bytes drained in the session
 * @last_bytes: @bytes at the last drain
 * @last_ns: time of the last drain
 * @x_watch: the position after a packet that may have been in flight at
 *	the old LIMIT when LIMIT was raised (0: none; watchdog)
 * @moved_ns: when the position last moved (watchdog), or the session was
 *	armed (a probation's drain period)
 * @start_ns: when the session started (watchdog)
 * @quiet: the quiet state of the domain's window (&nvpc_rec_buf.scratch)
 * @probation: LIMIT is at START: the one packet that lands there is
 *	dropped ("DOC: the outgoing packet")
 */
struct nvpc_record {
	struct nvpc_engine *eng;
	struct nvpc_domain *dom;
	struct perf_event *event;
	struct nvpc_record_prog prog;
	struct perf_output_handle handle;
	struct hrtimer timer;
	struct nvpc_rec_buf *buf;
	bool active;
	bool parked;
	bool hw_on;
	bool stalled;
	bool gap;
	u64 sessions;
	unsigned int owned;
	u32 win_off;
	u32 x_pub;
	u32 x_max;
	u32 x_suspect;
	u64 bytes;
	u64 last_bytes;
	u64 last_ns;
	u32 x_watch;
	u64 moved_ns;
	u64 start_ns;
	struct nvpc_rec_buf *quiet;
	bool probation;
};

static enum hrtimer_restart nvpc_record_tick(struct hrtimer *t);

/* the session of the record event that has @dom, NULL if none */
static struct nvpc_record *nvpc_record_of(struct nvpc_domain *dom)
{
	return dom->mode ? NULL : dom->priv;
}

static const char * const nvpc_rec_state_names[] = {
	[NVPC_REC_IDLE] = "idle",
	[NVPC_REC_RECORDING] = "recording",
	[NVPC_REC_STALLED] = "stalled",
	[NVPC_REC_FAULTED] = "faulted",
	[NVPC_REC_GONE] = "gone",
};

/**
 * nvpc_record_state_name() - a domain's record_state as sysfs shows it
 * @dom: the domain
 *
 * Return: "idle", "recording", "stalled", "faulted" or "gone".
 */
const char *nvpc_record_state_name(struct nvpc_domain *dom)
{
	return nvpc_rec_state_names[READ_ONCE(dom->rec_state)];
}

/* The domain's window of GPU virtual addresses (see the DOC above). */
static void nvpc_record_window(struct nvpc_engine *eng, struct nvpc_domain *dom,
			       u64 *va, u64 *size)
{
	unsigned int flat = dom - eng->domains;

	switch (eng->hw.gen->record) {
	case NVPC_REC_LOW4G:
		*va = NVPC_REC_G84_BASE + (u64)flat * NVPC_REC_G84_WINDOW;
		*size = NVPC_REC_G84_WINDOW;
		break;
	case NVPC_REC_MAIN:
		/* one buffer for every domain: one recording domain */
		*va = 1ULL << 32;
		*size = NVPC_REC_HIGH_WINDOW;
		break;
	default:
		*va = (u64)(flat + 1) << 32;
		*size = NVPC_REC_HIGH_WINDOW;
		break;
	}
}

/* The quiet state of the window at @va, @eng->lock held; NULL: none yet */
static struct nvpc_rec_buf *nvpc_record_quiet_find(struct nvpc_engine *eng,
						   u64 va)
{
	struct nvpc_rec_buf *q;

	list_for_each_entry(q, &eng->rec_bufs, node)
		if (q->scratch && q->va == va)
			return q;
	return NULL;
}

/*
 * The quiet state of @dom's window, made at its first record event. It
 * lives as long as the engine, longer than any event and than the GPU's
 * device (not device-managed: the engine's list still holds it after a
 * removal, until nvpc_record_release()). Process context,
 * @eng->active_lock held.
 */
static struct nvpc_rec_buf *nvpc_record_quiet_get(struct nvpc_engine *eng,
						  struct nvpc_domain *dom)
{
	struct nvpc_rec_buf *q;
	unsigned long flags, page;
	u64 va, window;

	nvpc_record_window(eng, dom, &va, &window);
	nvpc_lock(eng, flags);
	q = nvpc_record_quiet_find(eng, va);
	nvpc_unlock(eng, flags);
	if (q)
		return q;
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	page = __get_free_page(GFP_KERNEL | __GFP_ZERO);
	if (!q || !page) {
		kfree(q);
		free_page(page);
		return NULL;
	}
	q->eng = eng;
	q->dom = dom;
	q->va = va;
	q->window = window;
	q->size = PAGE_SIZE;
	q->scratch = true;
	q->page = (void *)page;
	nvpc_lock(eng, flags);
	list_add_tail(&q->node, &eng->rec_bufs);
	nvpc_unlock(eng, flags);
	return q;
}

/*
 * A packet may still land in @q's window: the halt did not see the
 * domain's position move and it has not moved since. A FAULT wedges the
 * domain: its packet never leaves. @eng->lock held, device present.
 */
static bool nvpc_record_unquiet(struct nvpc_engine *eng, struct nvpc_rec_buf *q,
				struct nvpc_domain *dom)
{
	u32 st;

	if (!q || !q->unquiet)
		return false;
	st = eng->hw.gen->record_status(&eng->hw, dom->hw);
	if (st != U32_MAX && ((st & NVPC_RECORD_STATUS_FAULT) ||
			      (st & NVPC_RECORD_STATUS_POS) != q->halt_pos))
		q->unquiet = false;
	return q->unquiet;
}

/**
 * nvpc_record_aux_max() - the largest AUX area of a record event of a domain
 * @eng: the GPU's engine
 * @dom: the domain
 *
 * Return: bytes, a power of 2: the domain's GPU window, or less if the
 * backend maps fewer pages; 0 without record mode.
 */
u64 nvpc_record_aux_max(struct nvpc_engine *eng, struct nvpc_domain *dom)
{
	u64 va, window;

	if (!eng->hw.gen->record || !eng->rec_max_pages)
		return 0;
	nvpc_record_window(eng, dom, &va, &window);
	return min_t(u64, window,
		     rounddown_pow_of_two((u64)eng->rec_max_pages) << PAGE_SHIFT);
}

/* the signal ids of the record counters and STOP, checked per domain */
static int nvpc_record_sig(struct nvpc_engine *eng, struct nvpc_domain *dom,
			   const char *what, unsigned int n, u32 sig)
{
	if (sig < dom->hw->desc->nr_signals)
		return 0;
	nvpc_dbg(eng, "%s%u 0x%x: domain %s has 0x%x signals\n", what, n, sig,
		 dom->hw->name, dom->hw->desc->nr_signals);
	return -EINVAL;
}

/* Validate a record event's fields and fill its program. */
static int nvpc_record_prog(struct nvpc_engine *eng, struct nvpc_domain *dom,
			    struct perf_event *event,
			    struct nvpc_record_prog *p)
{
	u64 config = event->attr.config, config1 = event->attr.config1;
	u64 config2 = event->attr.config2;
	u64 input = NVPC_CFG_SIG0 | NVPC_CFG_SIG1 | NVPC_CFG_SIG2 |
		    NVPC_CFG_SIG3 | NVPC_CFG_OP | NVPC_CFG_OPBITS;
	u32 opbits = FIELD_GET(NVPC_CFG_OPBITS, config) << 16;
	unsigned int j, nr;
	int ret;

	if (config & (NVPC_CFG_SLOT | NVPC_CFG_CYCLES | NVPC_CFG_MODE)) {
		nvpc_dbg(eng, "record events take no slot, cycles or mode\n");
		return -EINVAL;
	}
	if (opbits & ~eng->hw.gen->opbits[NVPC_SLOT_STOP]) {
		nvpc_dbg(eng, "opbits 0x%x: STOP of %s takes 0x%x\n",
			 opbits >> 16, eng->hw.gen->name,
			 eng->hw.gen->opbits[NVPC_SLOT_STOP] >> 16);
		return -EINVAL;
	}
	/*
	 * STOP_OP bit 18 makes argument 3 the SETFLAG input (envytools'
	 * pcounter.rst "Input selection"), whose SETFLAG_OP no record field
	 * gives: the record setup leaves it as it was, so STOP would be
	 * whatever an earlier user left there
	 */
	if (opbits & NVPC_OP_ES_ARG3_SETFLAG) {
		nvpc_dbg(eng, "opbits 0x%x: a record event's STOP cannot take SETFLAG (no record field programs SETFLAG_OP)\n",
			 opbits >> 16);
		return -EINVAL;
	}
	memset(p, 0, sizeof(*p));
	p->short_fmt = FIELD_GET(NVPC_CFG_SHORT, config);
	p->periodic = FIELD_GET(NVPC_CFG1_PERIOD, config1);
	nr = p->short_fmt ? NVPC_PKT_NR_CTRS_SHORT : NVPC_PKT_NR_CTRS;
	for (j = 0; j < NVPC_PKT_NR_CTRS; j++) {
		u32 sig = j < 4 ? (config1 >> (32 + 8 * j)) & 0xff :
				  (config2 >> (8 * (j - 4))) & 0xff;

		if (j >= nr && sig) {
			nvpc_dbg(eng, "rsig%u: short packets carry counters 0-3 only\n",
				 j);
			return -EINVAL;
		}
		ret = nvpc_record_sig(eng, dom, "rsig", j, sig);
		if (ret)
			return ret;
		/* counters 4j..4j+3 are the arguments of PRE/START/EVENT_SRC */
		p->src[j / 4] |= sig << (8 * (j % 4));
	}
	for (j = 0; j < 4; j++) {
		ret = nvpc_record_sig(eng, dom, "sig", j,
				      (config >> (8 * j)) & 0xff);
		if (ret)
			return ret;
	}
	if (p->periodic && !(config & input)) {
		/* STOP from the domain's PERIODIC signal */
		int id = nvpc_catalog_trailer_id(eng->hw.chip, dom->hw->desc,
						 NVPC_TRAILER_PERIODIC, 0);

		if (id < 0) {
			nvpc_dbg(eng, "domain %s has no PERIODIC signal\n",
				 dom->hw->name);
			return -EINVAL;
		}
		p->src[NVPC_SLOT_STOP] = id;
		p->stop_op = NVPC_OP_ARG0;
		p->periodic_stop = true;
	} else {
		if (!(config & input)) {
			nvpc_dbg(eng, "a record event needs a STOP input: sig0-3/op or period\n");
			return -EINVAL;
		}
		p->src[NVPC_SLOT_STOP] = config & 0xffffffff;
		p->stop_op = (FIELD_GET(NVPC_CFG_OP, config) ?: NVPC_OP_ARG0) |
			     opbits;
	}
	p->pkt = p->short_fmt ? NVPC_PKT_SHORT : NVPC_PKT_LONG;
	return 0;
}

/**
 * nvpc_record_init() - event_init of a record event
 * @eng: the GPU's engine
 * @event: the event (config has NVPC_CFG_RECORD)
 *
 * Claims the domain config1 names for the event, alone, and keeps the
 * event's session there (&nvpc_domain.priv); nvpc_record_destroy() gives
 * it back.
 *
 * Context: process context.
 * Return: 0; -EOPNOTSUPP without record mode (before G84, or a backend
 * that cannot map memory for the GPU), -EBUSY if the domain counts or
 * records (GF100+: if any domain records), -EINVAL for a bad field or an
 * absent domain, -ENOMEM.
 */
int nvpc_record_init(struct nvpc_engine *eng, struct perf_event *event)
{
	const struct nvpc_backend_ops *ops;
	struct nvpc_domain *dom;
	struct nvpc_record *rec;
	unsigned long flags;
	unsigned int i;
	int ret;

	ret = nvpc_event_domain(eng, event);
	if (ret)
		return ret;
	dom = event->pmu_private;
	/* reserved bits first, as for counting events */
	if (event->attr.config & NVPC_CFG_RESERVED) {
		nvpc_dbg(eng, "config 0x%llx: reserved bits set\n",
			 event->attr.config);
		return -EINVAL;
	}
	if (!eng->hw.gen->record) {
		nvpc_dbg(eng, "%s has no record mode (G84+)\n",
			 eng->hw.chip->name);
		return -EOPNOTSUPP;
	}
	if (event->group_leader != event) {
		nvpc_dbg(eng, "a record event has its domain alone: no group\n");
		return -EINVAL;
	}
	/*
	 * Pinned: perf's rotation and a flexible event's arrival leave it
	 * scheduled, and no failed flexible group keeps it out. Set rather
	 * than an unpinned event refused (record.rst): no perf user asks
	 * for pinned by default, and a record event, alone in its group,
	 * has no other sensible scheduling (a rotation would halt the
	 * recording every 4 ms).
	 */
	event->attr.pinned = 1;
	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	ret = nvpc_record_prog(eng, dom, event, &rec->prog);
	if (ret)
		goto err;
	/* the backend is there while @gone is clear under @active_lock */
	mutex_lock(&eng->active_lock);
	ops = eng->gone ? NULL : eng->hw.ndev->ops;
	if (eng->gone) {
		nvpc_dbg(eng, "device is gone\n");
		ret = -ENODEV;
	} else if (!ops || !ops->record_bind || !ops->record_map ||
		   !ops->record_unmap) {
		nvpc_dbg(eng, "the backend cannot map memory for the GPU: no record mode\n");
		ret = -EOPNOTSUPP;
	} else {
		ret = ops->record_bind(eng->hw.ndev->priv, &rec->prog.chan,
				       &rec->prog.dma);
		if (ret) {
			nvpc_dbg(eng, "the backend binds no channel: %d\n",
				 ret);
			ret = -EOPNOTSUPP;
		}
	}
	if (!ret) {
		rec->quiet = nvpc_record_quiet_get(eng, dom);
		if (!rec->quiet)
			ret = -ENOMEM;
	}
	mutex_unlock(&eng->active_lock);
	if (ret)
		goto err;
	rec->eng = eng;
	rec->dom = dom;
	rec->event = event;
	hrtimer_init(&rec->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	rec->timer.function = nvpc_record_tick;

	ret = nvpc_domain_claim(eng, dom, NVPC_CLAIM_RECORD);
	if (ret)
		goto err;
	nvpc_lock(eng, flags);
	ret = -EBUSY;
	for (i = 0; i < eng->hw.nr_domains; i++) {
		if (eng->hw.gen->record == NVPC_REC_MAIN &&
		    nvpc_record_of(&eng->domains[i])) {
			nvpc_dbg(eng, "%s records: GF100+ packets carry no domain, one domain records at a time\n",
				 eng->domains[i].hw->name);
			goto err_unlock;
		}
	}
	dom->priv = rec;
	nvpc_unlock(eng, flags);
	return 0;

err_unlock:
	nvpc_unlock(eng, flags);
	nvpc_domain_unclaim(eng, dom);
err:
	kfree(rec);
	return ret;
}

/**
 * nvpc_record_destroy() - give the domain of a record event back
 * @eng: the GPU's engine
 * @event: the record event, stopped and deleted
 */
void nvpc_record_destroy(struct nvpc_engine *eng, struct perf_event *event)
{
	struct nvpc_domain *dom = event->pmu_private;
	struct nvpc_rec_buf *buf;
	struct nvpc_record *rec;
	unsigned long flags;

	nvpc_lock(eng, flags);
	rec = nvpc_record_of(dom);
	if (rec)
		dom->priv = NULL;
	if (dom->rec_state != NVPC_REC_FAULTED)
		dom->rec_state = NVPC_REC_IDLE;
	list_for_each_entry(buf, &eng->rec_bufs, node)
		if (rec && buf->owner == rec)
			buf->owner = NULL;
	nvpc_unlock(eng, flags);
	if (rec) {
		hrtimer_cancel(&rec->timer);
		nvpc_domain_unclaim(eng, dom);
	}
	kfree(rec);
}

/**
 * nvpc_record_setup_aux() - pmu::setup_aux: map an AUX area for the GPU
 * @eng: the GPU's engine
 * @event: the event the area is for
 * @pages: the area's pages (kernel addresses)
 * @nr_pages: their number, a power of 2
 * @overwrite: snapshot mode (refused: the hardware cannot overwrite)
 *
 * Context: process context (perf_mmap()), may sleep.
 * Return: the buffer, NULL on any refusal (perf then fails the mmap).
 */
void *nvpc_record_setup_aux(struct nvpc_engine *eng, struct perf_event *event,
			    void **pages, int nr_pages, bool overwrite)
{
	struct nvpc_domain *dom = event->pmu_private;
	struct nvpc_rec_buf *buf, *q;
	struct nvpc_record *rec;
	unsigned long flags;
	int ret = 0;

	if (!nvpc_is_record(event)) {
		nvpc_dbg(eng, "only record events have an AUX area\n");
		return NULL;
	}
	if (overwrite) {
		nvpc_dbg(eng, "AUX snapshot (overwrite) mode is not supported: map the AUX area writable\n");
		return NULL;
	}
	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return NULL;
	buf->eng = eng;
	buf->dom = dom;
	buf->size = (u64)nr_pages << PAGE_SHIFT;
	nvpc_record_window(eng, dom, &buf->va, &buf->window);
	if (buf->size > nvpc_record_aux_max(eng, dom)) {
		nvpc_dbg(eng, "AUX area of %llu bytes: %s takes %llu (record_aux_max: the GPU window holds %llu)\n",
			 buf->size, dom->hw->name,
			 nvpc_record_aux_max(eng, dom), buf->window);
		goto err;
	}
	mutex_lock(&eng->active_lock);
	if (READ_ONCE(eng->gone)) {
		nvpc_dbg(eng, "device is gone\n");
		goto err_unlock;
	}
	/* record_map replaces a mapping of the same window: only the scratch */
	nvpc_lock(eng, flags);
	list_for_each_entry(q, &eng->rec_bufs, node)
		if (!q->scratch && q->mapped && q->va == buf->va)
			ret = -EBUSY;
	nvpc_unlock(eng, flags);
	if (ret) {
		nvpc_dbg(eng, "another AUX area is mapped at 0x%llx\n",
			 buf->va);
		goto err_unlock;
	}
	ret = eng->hw.ndev->ops->record_map(eng->hw.ndev->priv, buf->va,
					    buf->window, pages, nr_pages);
	if (ret) {
		nvpc_dbg(eng, "the backend cannot map the AUX area at 0x%llx: %d\n",
			 buf->va, ret);
		goto err_unlock;
	}
	nvpc_lock(eng, flags);
	q = nvpc_record_quiet_find(eng, buf->va);
	if (q)
		q->mapped = false;	/* the AUX pages replaced the scratch */
	buf->mapped = true;
	rec = nvpc_record_of(dom);
	if (rec && rec->event == event) {
		buf->owner = rec;
		rec->owned++;
	}
	list_add(&buf->node, &eng->rec_bufs);
	nvpc_unlock(eng, flags);
	mutex_unlock(&eng->active_lock);
	return buf;

err_unlock:
	mutex_unlock(&eng->active_lock);
err:
	kfree(buf);
	return NULL;
}

/* Unmap @buf from the GPU, @eng->lock held. */
static void nvpc_record_unmap(struct nvpc_engine *eng, struct nvpc_rec_buf *buf)
{
	if (!buf->mapped)
		return;
	eng->hw.ndev->ops->record_unmap(eng->hw.ndev->priv, buf->va);
	buf->mapped = false;
}

/**
 * nvpc_record_free_aux() - pmu::free_aux: the GPU lets go of the pages
 * @priv: the buffer of nvpc_record_setup_aux()
 *
 * perf has stopped the event's output before; the domain is halted. The
 * GPU mapping goes before perf frees the pages; while a packet may still
 * land in the window, the window's scratch page replaces them in one step
 * ("DOC: the outgoing packet").
 *
 * Context: process context, may sleep (perf drops the last AUX reference
 * in perf_mmap_close(), after it stopped the output).
 */
void nvpc_record_free_aux(void *priv)
{
	struct nvpc_rec_buf *buf = priv;
	struct nvpc_engine *eng = buf->eng;
	struct nvpc_rec_buf *q = NULL;
	unsigned long flags;
	int ret = -ENODEV;

	/* the device stays (@gone clear) while @active_lock is held */
	mutex_lock(&eng->active_lock);
	nvpc_lock(eng, flags);
	if (buf->mapped && !eng->gone) {
		q = nvpc_record_quiet_find(eng, buf->va);
		if (!nvpc_record_unquiet(eng, q, buf->dom))
			q = NULL;
	}
	nvpc_unlock(eng, flags);
	if (q)
		ret = eng->hw.ndev->ops->record_map(eng->hw.ndev->priv, q->va,
						    q->window, &q->page, 1);
	nvpc_lock(eng, flags);
	if (q && !ret) {
		buf->mapped = false;
		q->mapped = true;
	} else if (q) {
		dev_warn_ratelimited(eng->hw.dev, "%s: %s: no scratch mapping (%d): a packet still outgoing will fault\n",
				     eng->hw.name, buf->dom->hw->name, ret);
	}
	nvpc_record_unmap(eng, buf);
	if (buf->owner)
		buf->owner->owned--;
	list_del(&buf->node);
	nvpc_unlock(eng, flags);
	mutex_unlock(&eng->active_lock);
	kfree(buf);
}

/*
 * The free space of the open handle the hardware may fill, in whole
 * packets: one byte always stays free, so the next perf_aux_output_begin()
 * never finds the area full (perf would disable the event), whatever
 * offset the consumer left aux_tail at.
 */
static u64 nvpc_record_free(struct nvpc_record *rec)
{
	if (!rec->handle.size)
		return 0;
	return rounddown(rec->handle.size - 1, rec->prog.pkt);
}

/*
 * The last packet slot (offset from START) the free space allows, at most
 * NVPC_REC_STEP_MAX past what is published: the pages a drain hands to
 * the CPU and back to the GPU stay a few hundred.
 */
static u32 nvpc_record_room(struct nvpc_record *rec)
{
	u64 room = min_t(u64, nvpc_record_free(rec), NVPC_REC_STEP_MAX);
	u64 top = rec->buf->window - rec->win_off - rec->prog.pkt;
	u64 last;

	if (room < rec->prog.pkt)
		return rec->x_max;
	last = min(rec->x_pub + room - rec->prog.pkt, top);
	return max_t(u64, last, rec->x_max);
}

/*
 * The end (from START) of the last packet LIMIT lets land: the packet at
 * @x_max, or on probation one packet at START of either format ("DOC: the
 * outgoing packet").
 */
static u32 nvpc_record_x_end(struct nvpc_record *rec)
{
	if (rec->probation)
		return max_t(u32, rec->prog.pkt, NVPC_REC_PROBATION_END);
	return rec->x_max + rec->prog.pkt;
}

/* DMA ownership of [@x, @x + @len) from START (<nvpcounter/device.h>) */
static void nvpc_record_sync(struct nvpc_engine *eng, struct nvpc_record *rec,
			     u64 x, u64 len, bool for_cpu)
{
	const struct nvpc_backend_ops *ops = eng->hw.ndev->ops;

	if (len && ops->record_sync)
		ops->record_sync(eng->hw.ndev->priv, rec->buf->va,
				 rec->win_off + x, len, for_cpu);
}

/* Enter record mode; the first recording domain binds the buffer. */
static void nvpc_record_hw_on(struct nvpc_engine *eng, struct nvpc_record *rec)
{
	if (!rec->hw_on && !eng->nr_rec_hw++)
		eng->hw.gen->record_bind(&eng->hw, &rec->prog);
	rec->hw_on = true;
	eng->hw.gen->record_setup(&eng->hw, rec->dom->hw, &rec->prog);
}

/*
 * Halt the domain (no new packet is formed); @eng->lock held. Its one
 * outgoing packet may still land, at the position read here ("DOC: the
 * outgoing packet"), unless the domain is wedged.
 */
static void nvpc_record_hw_off(struct nvpc_engine *eng, struct nvpc_record *rec)
{
	struct nvpc_rec_buf *q = rec->quiet;
	u32 st;

	if (!eng->gone) {
		eng->hw.gen->stop(&eng->hw, rec->dom->hw);
		if (rec->hw_on) {
			st = eng->hw.gen->record_status(&eng->hw, rec->dom->hw);
			q->halt_pos = st & NVPC_RECORD_STATUS_POS;
			q->unquiet = st == U32_MAX ||
				     !(st & NVPC_RECORD_STATUS_FAULT);
		}
	}
	if (rec->hw_on)
		eng->nr_rec_hw--;
	rec->hw_on = false;
}

/*
 * (Re)start the hardware at perf's aux_head: RECORD_START resets the
 * record counters and the cycle counter. A session (@full) that starts
 * while a packet of an earlier one may still land is on probation ("DOC:
 * the outgoing packet"); a restart follows a stop at LIMIT, after which
 * nothing is outgoing. @eng->lock held, handle open.
 */
static bool nvpc_record_arm(struct nvpc_engine *eng, struct nvpc_record *rec,
			    bool full)
{
	struct nvpc_rec_buf *buf = rec->buf;
	u32 base = lower_32_bits(buf->va);
	bool probation;

	probation = full && nvpc_record_unquiet(eng, rec->quiet, rec->dom);
	/*
	 * the hardware always writes one packet: there must be room, on
	 * probation for an earlier session's packet of either format
	 */
	if (nvpc_record_free(rec) < (probation ? NVPC_REC_PROBATION_END :
						 rec->prog.pkt))
		return false;
	rec->win_off = rec->handle.head & (buf->size - 1);
	rec->x_pub = 0;
	rec->x_max = 0;
	rec->x_suspect = 0;
	rec->probation = probation;
	/* on probation LIMIT is START: one packet lands, then it stops */
	if (!rec->probation)
		rec->x_max = nvpc_record_room(rec);
	rec->x_watch = 0;
	rec->moved_ns = ktime_get_ns();
	nvpc_record_sync(eng, rec, 0, nvpc_record_x_end(rec), false);
	rec->prog.start = base + rec->win_off;
	rec->prog.limit = rec->prog.start + rec->x_max;
	rec->prog.addr_high = upper_32_bits(buf->va);
	if (full || !rec->hw_on)
		nvpc_record_hw_on(eng, rec);
	else
		eng->hw.gen->record_restart(&eng->hw, rec->dom->hw, &rec->prog);
	return true;
}

/* A restart or a loss: the next record is PARTIAL, record_gaps counts it. */
static void nvpc_record_gap(struct nvpc_record *rec)
{
	rec->gap = true;
	WRITE_ONCE(rec->dom->stats.record_gaps, rec->dom->stats.record_gaps + 1);
}

/* Publish @n new bytes; @flags PERF_AUX_FLAG_*. Ends the handle. */
static void nvpc_record_publish(struct nvpc_engine *eng,
				struct nvpc_record *rec, u32 n, u64 flags)
{
	struct nvpc_domain *dom = rec->dom;

	if (rec->gap && (n || flags)) {
		flags |= PERF_AUX_FLAG_PARTIAL;
		rec->gap = false;
	}
	if (n && !eng->gone)
		nvpc_record_sync(eng, rec, rec->x_pub, n, true);
	if (flags)
		perf_aux_output_flag(&rec->handle, flags);
	perf_aux_output_end(&rec->handle, n);
	rec->x_pub += n;
	WRITE_ONCE(dom->stats.record_packets, dom->stats.record_packets + n / rec->prog.pkt);
	local64_add(n / rec->prog.pkt, &rec->event->count);
}

/* The GPU stopped answering: what it wrote since the last drain is lost. */
static void nvpc_record_gone(struct nvpc_engine *eng, struct nvpc_record *rec)
{
	nvpc_record_hw_off(eng, rec);
	nvpc_record_publish(eng, rec, 0, PERF_AUX_FLAG_TRUNCATED);
	WRITE_ONCE(rec->dom->rec_state, NVPC_REC_GONE);
}

/*
 * The domain wedged on a VM fault (pcounter.rst: until the GPU is reset).
 * @eng->lock held.
 */
static void nvpc_record_fault(struct nvpc_engine *eng, struct nvpc_record *rec,
			      u32 n)
{
	struct nvpc_domain *dom = rec->dom;

	nvpc_record_hw_off(eng, rec);
	nvpc_record_publish(eng, rec, n, PERF_AUX_FLAG_TRUNCATED);
	WRITE_ONCE(dom->stats.record_faults, dom->stats.record_faults + 1);
	WRITE_ONCE(dom->rec_state, NVPC_REC_FAULTED);
	dev_err_ratelimited(eng->hw.dev, "%s: %s: VM fault writing record packets: the domain is wedged until PCOUNTER is reset\n",
			    eng->hw.name, dom->hw->name);
}

/*
 * Where the hardware is: @x_now, its position from START. An all-ones
 * RECORD_STATUS is a GPU that stopped answering if PMC.BOOT_0 reads
 * all-ones too (or the backend said so meanwhile), not a fault.
 *
 * Return: 0, -ENODEV (gone), -EFAULT (FAULT set: @x_now is valid) or
 * -ERANGE (a position the hardware cannot be at).
 */
static int nvpc_record_pos(struct nvpc_engine *eng, struct nvpc_record *rec,
			   u32 *x_now)
{
	u32 st = eng->hw.gen->record_status(&eng->hw, rec->dom->hw);

	if (st == U32_MAX &&
	    (READ_ONCE(eng->gone) ||
	     nvpc_rd32(eng->hw.ndev, NVPC_PMC_BOOT_0) == U32_MAX))
		return -ENODEV;
	*x_now = (st & NVPC_RECORD_STATUS_POS) - rec->prog.start;
	/* the packets are in memory before the position says so */
	dma_rmb();
	if (*x_now > nvpc_record_x_end(rec) || *x_now < rec->x_pub) {
		dev_err_ratelimited(eng->hw.dev, "%s: %s: record position 0x%x outside 0x%x..0x%x\n",
				    eng->hw.name, rec->dom->hw->name, *x_now,
				    rec->x_pub, nvpc_record_x_end(rec));
		*x_now = rec->x_pub;
		return -ERANGE;
	}
	return st & NVPC_RECORD_STATUS_FAULT ? -EFAULT : 0;
}

/*
 * A position the hardware cannot be at (nvpc_record_pos() logged it): no
 * VM fault (FAULT is clear), but where the packets since the last drain
 * are is not known. The session ends there: nothing more is published,
 * the output ends TRUNCATED, record_gaps counts the loss, and the domain
 * is idle: the next enable starts anew. @eng->lock held.
 */
static void nvpc_record_lost_pos(struct nvpc_engine *eng,
				 struct nvpc_record *rec)
{
	nvpc_record_hw_off(eng, rec);
	nvpc_record_gap(rec);
	nvpc_record_publish(eng, rec, 0, PERF_AUX_FLAG_TRUNCATED);
	WRITE_ONCE(rec->dom->rec_state, NVPC_REC_IDLE);
}

/* Act on a bad nvpc_record_pos(); false: the session is over. */
static bool nvpc_record_pos_bad(struct nvpc_engine *eng,
				struct nvpc_record *rec, int ret, u32 x_now)
{
	if (ret == -ENODEV)
		nvpc_record_gone(eng, rec);
	else if (ret == -ERANGE)
		nvpc_record_lost_pos(eng, rec);
	else
		nvpc_record_fault(eng, rec, x_now - rec->x_pub);
	return false;
}

/*
 * Watchdog: LIMIT was raised while the position was at the old LIMIT's
 * slot, so that slot's packet may have been in flight and the hardware
 * may have stopped after it (@x_watch). The position has sat there for
 * NVPC_REC_WATCHDOG_PULSES packet periods (and at least
 * NVPC_REC_WATCHDOG_MIN_NS): it did. The period is PERIODIC's with
 * PERIODIC STOP; with any other STOP source the session's mean time per
 * packet until the raise (a STOP that went quiet meanwhile is taken for
 * a stop too: the restart then costs the counts since its last packet,
 * flagged as any gap).
 */
static bool nvpc_record_wedged(struct nvpc_record *rec, u32 x_now, u64 now)
{
	u64 hz = max(rec->dom->clock_hz, rec->dom->hw->desc->clock_hz), due;
	u32 pkt = rec->prog.pkt;

	if (x_now > rec->x_watch)
		rec->x_watch = 0;
	if (!rec->x_watch || x_now != rec->x_watch || x_now != rec->x_pub)
		return false;
	if (rec->prog.periodic_stop && hz)
		/* PERIODIC periods are at most 2^15 * 0x400 cycles */
		due = div64_u64((u64)NVPC_PERIODIC_CLOCKS(rec->prog.periodic) *
				NVPC_REC_WATCHDOG_PULSES * NSEC_PER_SEC, hz);
	else
		/* ns since the start (< 2^50 in 13 days) x packet size: no overflow */
		due = div64_u64((rec->moved_ns - rec->start_ns) * pkt,
				max_t(u64, rec->bytes, pkt)) *
		      NVPC_REC_WATCHDOG_PULSES;
	return now - rec->moved_ns > max_t(u64, due, NVPC_REC_WATCHDOG_MIN_NS);
}

/*
 * The end of a probation ("DOC: the outgoing packet"): the one packet
 * LIMIT let through landed at START, an earlier session's (of either
 * format) or this one's first. It is dropped, not published: START
 * written again (in record mode) resets the record counters, and the
 * session's data begin there. @eng->lock held, handle open, device
 * present.
 */
static void nvpc_record_probation_end(struct nvpc_engine *eng,
				      struct nvpc_record *rec, u64 now)
{
	/* the GPU has [0, @given) since the arm */
	u32 given = nvpc_record_x_end(rec), end;

	rec->probation = false;
	rec->quiet->unquiet = false;
	rec->x_max = nvpc_record_room(rec);
	end = rec->x_max + rec->prog.pkt;
	if (end > given)
		nvpc_record_sync(eng, rec, given, end - given, false);
	rec->prog.limit = rec->prog.start + rec->x_max;
	rec->moved_ns = now;
	eng->hw.gen->record_restart(&eng->hw, rec->dom->hw, &rec->prog);
}

/*
 * Drain the hardware: publish what it wrote, take the next handle, move
 * LIMIT or restart. @eng->lock held, handle open, device present.
 *
 * Return: true if the session goes on (a handle is open).
 */
static bool nvpc_record_drain(struct nvpc_engine *eng, struct nvpc_record *rec)
{
	const struct nvpc_gen_ops *gen = eng->hw.gen;
	struct nvpc_domain *dom = rec->dom;
	u32 x_now, n, x2, old_max;
	u64 now = ktime_get_ns();
	bool stopped, at_limit;
	int ret;

	ret = nvpc_record_pos(eng, rec, &x_now);
	if (ret)
		return nvpc_record_pos_bad(eng, rec, ret, x_now);
	if (rec->probation) {
		if (x_now)
			nvpc_record_probation_end(eng, rec, now);
		return true;
	}
	n = x_now - rec->x_pub;
	rec->bytes += n;
	/*
	 * Stopped: it wrote the packet at the LIMIT in force (the free
	 * space was used up: a stall), or at one it may have passed before
	 * the last raise (@x_suspect) and no more, or the watchdog says it
	 * stopped there: a LIMIT already raised, with room behind it, not a
	 * stall; the restart is a gap all the same.
	 */
	at_limit = x_now == rec->x_max + rec->prog.pkt;
	stopped = at_limit || (rec->x_suspect && x_now == rec->x_suspect);
	if (!stopped && nvpc_record_wedged(rec, x_now, now)) {
		nvpc_dbg(eng, "%s: no packet for long after a LIMIT raise: restarting\n",
			 dom->hw->name);
		stopped = true;
	}
	if (n)
		rec->moved_ns = now;
	nvpc_record_publish(eng, rec, n, 0);
	if (!perf_aux_output_begin(&rec->handle, rec->event))
		goto lost;
	if (stopped)
		goto restart;
	old_max = rec->x_max;
	rec->x_max = nvpc_record_room(rec);
	rec->x_suspect = 0;
	if (rec->x_max != old_max) {
		rec->moved_ns = now;
		nvpc_record_sync(eng, rec, old_max + rec->prog.pkt,
				 rec->x_max - old_max, false);
		gen->record_limit(&eng->hw, dom->hw,
				  rec->prog.start + rec->x_max);
		/* passed the old last slot: maybe before the raise */
		x2 = (gen->record_status(&eng->hw, dom->hw) &
		      NVPC_RECORD_STATUS_POS) - rec->prog.start;
		if (x2 > old_max)
			rec->x_suspect = old_max + rec->prog.pkt;
		else if (x2 == old_max)
			rec->x_watch = old_max + rec->prog.pkt;
	}
	return true;

restart:
	/* at a LIMIT below the window's top: the free space filled up */
	if (at_limit && x_now + rec->prog.pkt <= rec->buf->window - rec->win_off)
		WRITE_ONCE(dom->stats.record_stalls, dom->stats.record_stalls + 1);
	nvpc_record_gap(rec);
	if (!nvpc_record_arm(eng, rec, false)) {
		/* no packet's room: wait at LIMIT for the consumer */
		rec->stalled = true;
		WRITE_ONCE(dom->rec_state, NVPC_REC_STALLED);
	}
	return true;

lost:
	/*
	 * perf gave no handle: the area is going away, or a consumer that
	 * leaves aux_tail off a byte boundary we never fill filled it.
	 */
	nvpc_record_gap(rec);
	nvpc_record_hw_off(eng, rec);
	WRITE_ONCE(dom->rec_state, NVPC_REC_IDLE);
	return false;
}

/*
 * Stalled: the hardware waits at LIMIT, or a session that found its AUX
 * area full at its start waits with the domain not yet in record mode.
 * Take a fresh handle (perf reads aux_tail in perf_aux_output_begin())
 * and (re)start once a packet fits: the latter as a new session.
 * @eng->lock held, handle open, device present.
 *
 * Return: true if the session goes on (a handle is open).
 */
static bool nvpc_record_resume(struct nvpc_engine *eng, struct nvpc_record *rec)
{
	perf_aux_output_end(&rec->handle, 0);
	if (!perf_aux_output_begin(&rec->handle, rec->event)) {
		/* perf disables the event: the session is over */
		bool waited = rec->hw_on;

		nvpc_record_hw_off(eng, rec);
		/* stopped at LIMIT: no packet is outgoing */
		if (waited)
			rec->quiet->unquiet = false;
		WRITE_ONCE(rec->dom->rec_state, NVPC_REC_IDLE);
		return false;
	}
	if (!nvpc_record_arm(eng, rec, !rec->hw_on))
		return true;
	rec->stalled = false;
	WRITE_ONCE(rec->dom->rec_state, NVPC_REC_RECORDING);
	return true;
}

/*
 * The next drain: when about a quarter of the AUX area, and at most half
 * of NVPC_REC_STEP_MAX, may have filled.
 */
static u64 nvpc_record_period(struct nvpc_record *rec, u64 now)
{
	u64 dt = now - rec->last_ns, rate = 0, hz, period, fill;

	/* bytes per second: measured, and the PERIODIC bound if known */
	if (dt && rec->last_bytes <= rec->bytes)
		rate = div64_u64((rec->bytes - rec->last_bytes) * NSEC_PER_SEC,
				 dt);
	if (rec->prog.periodic_stop) {
		hz = max_t(u64, rec->dom->clock_hz,
			   rec->dom->hw->desc->clock_hz);
		rate = max(rate, div_u64(hz * rec->prog.pkt,
					 NVPC_PERIODIC_CLOCKS(rec->prog.periodic)));
	}
	rec->last_ns = now;
	rec->last_bytes = rec->bytes;
	if (!rate)
		return NVPC_REC_PERIOD_MAX_NS;
	fill = min_t(u64, rec->buf->size / 4, NVPC_REC_STEP_MAX / 2);
	/* fill < 2^30 and NSEC_PER_SEC < 2^30: no overflow */
	period = div64_u64(fill * NSEC_PER_SEC, rate);
	return clamp_t(u64, period, NVPC_REC_PERIOD_MIN_NS,
		       NVPC_REC_PERIOD_MAX_NS);
}

/*
 * The next drain on probation: a quarter of the wait so far, from
 * NVPC_REC_PERIOD_START_NS (the data begin within 1 ms of a packet that
 * lands at once) up to NVPC_REC_PERIOD_MAX_NS once 40 ms went by: a STOP
 * that pulses rarely costs no thousand drains a second, nor does a
 * simulated GPU that runs slower than real time, whose runs of its model
 * each drain's register read overtook (Documentation/sim.rst "Time and
 * clocks": under the debug kernel a session drained every 1 ms got no
 * packet in 2 s).
 */
static u64 nvpc_record_probation_period(struct nvpc_record *rec, u64 now)
{
	return clamp_t(u64, (now - rec->moved_ns) / 4,
		       NVPC_REC_PERIOD_START_NS, NVPC_REC_PERIOD_MAX_NS);
}

/**
 * nvpc_record_tick() - the drain's hrtimer (hard irq, the event's CPU)
 * @t: the timer of a &struct nvpc_record
 *
 * Return: HRTIMER_RESTART while the session goes on.
 */
static enum hrtimer_restart nvpc_record_tick(struct hrtimer *t)
{
	struct nvpc_record *rec = container_of(t, struct nvpc_record, timer);
	struct nvpc_engine *eng = rec->eng;
	struct nvpc_domain_stats *st = &rec->dom->stats;
	unsigned long flags;
	bool more = false;
	u64 t0 = ktime_get_ns(), now;

	nvpc_lock(eng, flags);
	if (rec->active && eng->gone)
		nvpc_record_gone(eng, rec);
	else if (rec->active && rec->stalled)
		more = nvpc_record_resume(eng, rec);
	else if (rec->active)
		more = nvpc_record_drain(eng, rec);
	rec->active = more;
	now = ktime_get_ns();
	/* what the drain costs (make bench, record.rst "Throughput") */
	WRITE_ONCE(st->record_drains, st->record_drains + 1);
	WRITE_ONCE(st->record_drain_ns, st->record_drain_ns + now - t0);
	nvpc_unlock(eng, flags);
	if (!more)
		return HRTIMER_NORESTART;
	/*
	 * on probation the hardware waits at START from the packet that
	 * landed there: the session's data begin at the next drain
	 */
	hrtimer_forward_now(t, ns_to_ktime(rec->probation ?
					   nvpc_record_probation_period(rec, now) :
					   nvpc_record_period(rec, now)));
	return HRTIMER_RESTART;
}

/*
 * A VM fault wedges a domain until PCOUNTER is reset (pcounter.rst
 * "Record mode setup"): RECORD_STATUS keeps FAULT until then, also across
 * a reload of this module. A domain whose FAULT is gone was reset.
 * @eng->lock held, device present.
 */
static bool nvpc_record_wedged_hw(struct nvpc_engine *eng,
				  struct nvpc_domain *dom)
{
	u32 st = eng->hw.gen->record_status(&eng->hw, dom->hw);

	/* all-ones: a GPU that stopped answering, not a wedge */
	if (st == U32_MAX || !(st & NVPC_RECORD_STATUS_FAULT))
		return false;
	WRITE_ONCE(dom->rec_state, NVPC_REC_FAULTED);
	return true;
}

/**
 * nvpc_record_start() - pmu::start of a record event: a session begins
 * @eng: the GPU's engine
 * @event: the record event
 * @ef: perf's PERF_EF_* flags (none changes what it does)
 *
 * Takes an AUX handle and programs the domain (pcounter.rst "Record mode
 * setup"). A session parked by a del in this perf transaction goes on
 * as it was. A session that finds its AUX area full is a stall: it
 * starts once the consumer freed a packet's room. Without an AUX area,
 * on a wedged domain or a gone device the event stays stopped.
 */
void nvpc_record_start(struct nvpc_engine *eng, struct perf_event *event,
		       int ef)
{
	struct nvpc_domain *dom = event->pmu_private;
	struct nvpc_record *rec = nvpc_record_of(dom);
	struct nvpc_rec_buf *buf;
	unsigned long flags;
	const char *why;

	nvpc_lock(eng, flags);
	if (rec->parked) {
		/* the hardware ran on, the handle is open: nothing lost */
		rec->parked = false;
		eng->rec_parked--;
		nvpc_unlock(eng, flags);
		event->hw.state = 0;
		return;
	}
	why = !eng->gone && nvpc_record_wedged_hw(eng, dom) ?
	      "wedged by a VM fault: no record until PCOUNTER is reset" : NULL;
	nvpc_unlock(eng, flags);
	event->hw.state = PERF_HES_STOPPED;
	if (why) {
		nvpc_dbg(eng, "%s: %s\n", dom->hw->name, why);
		return;
	}
	if (!READ_ONCE(rec->owned)) {
		nvpc_dbg(eng, "%s: the event mapped no AUX area of its own\n",
			 dom->hw->name);
		return;
	}
	buf = perf_aux_output_begin(&rec->handle, event);
	if (!buf)
		return;
	nvpc_lock(eng, flags);
	if (eng->gone || !buf->mapped || buf->dom != dom) {
		why = "no GPU mapping of this AUX area";
		goto refuse;
	}
	rec->buf = buf;
	/* a restart after a pause or a stall: the cycle counter restarts */
	if (rec->sessions++)
		nvpc_record_gap(rec);
	rec->active = true;
	rec->bytes = 0;
	rec->last_bytes = 0;
	rec->last_ns = ktime_get_ns();
	rec->start_ns = rec->last_ns;
	/* no packet's room: wait for the consumer, as mid-session */
	rec->stalled = !nvpc_record_arm(eng, rec, true);
	if (rec->stalled)
		WRITE_ONCE(dom->stats.record_stalls, dom->stats.record_stalls + 1);
	WRITE_ONCE(dom->rec_state, rec->stalled ? NVPC_REC_STALLED :
						  NVPC_REC_RECORDING);
	nvpc_unlock(eng, flags);
	event->hw.state = 0;
	hrtimer_start(&rec->timer, ns_to_ktime(NVPC_REC_PERIOD_START_NS),
		      HRTIMER_MODE_REL_PINNED_HARD);
	return;

refuse:
	nvpc_unlock(eng, flags);
	nvpc_dbg(eng, "%s: %s\n", dom->hw->name, why);
	perf_aux_output_flag(&rec->handle, PERF_AUX_FLAG_TRUNCATED);
	perf_aux_output_end(&rec->handle, 0);
}

/*
 * End the session: halt the domain first, then read its position for a
 * while, for its one outgoing packet to land (it did if the position
 * moved: the window is then quiet), and publish everything that landed.
 * What lands later is not published ("DOC: the outgoing packet").
 * @eng->lock held, session active.
 */
static void nvpc_record_halt(struct nvpc_engine *eng, struct nvpc_record *rec)
{
	struct nvpc_domain *dom = rec->dom;
	bool was_on = rec->hw_on;
	u32 x_now, x_last;
	unsigned int i;
	u64 since;
	int ret;

	rec->active = false;
	if (rec->parked)
		eng->rec_parked--;
	rec->parked = false;
	if (eng->gone) {
		nvpc_record_gone(eng, rec);
		return;
	}
	nvpc_record_hw_off(eng, rec);
	if (rec->stalled) {
		/*
		 * it waits at LIMIT (or never started): nothing new since its
		 * drain, nothing due
		 */
		rec->stalled = false;
		if (was_on)
			rec->quiet->unquiet = false;
		nvpc_record_publish(eng, rec, 0, 0);
		WRITE_ONCE(dom->rec_state, NVPC_REC_IDLE);
		return;
	}
	/* where nvpc_record_hw_off() found it */
	x_last = rec->quiet->halt_pos - rec->prog.start;
	ret = nvpc_record_pos(eng, rec, &x_now);
	since = local_clock();
	for (i = 0; !ret && x_now == x_last && i < NVPC_REC_QUIET_READS &&
	     local_clock() - since < NVPC_REC_QUIET_NS; i++)
		ret = nvpc_record_pos(eng, rec, &x_now);
	if (ret) {
		nvpc_record_pos_bad(eng, rec, ret, x_now);
		return;
	}
	/*
	 * One outgoing packet per domain: once the position moved, or the
	 * packet at LIMIT landed (no other is sent after it; on probation
	 * LIMIT is START, and the packet there may be of either format),
	 * none is due
	 */
	if (x_now != x_last ||
	    (rec->probation ? x_now : x_now == rec->x_max + rec->prog.pkt))
		rec->quiet->unquiet = false;
	if (rec->probation) {
		/* its one packet is not the session's: dropped */
		rec->probation = false;
		x_now = rec->x_pub;
	}
	nvpc_record_publish(eng, rec, x_now - rec->x_pub, 0);
	WRITE_ONCE(dom->rec_state, NVPC_REC_IDLE);
}

/**
 * nvpc_record_stop() - pmu::stop of a record event: halt and drain
 * @eng: the GPU's engine
 * @event: the record event
 * @ef: perf's PERF_EF_* flags (the drain publishes as it goes: the
 *	count is always up to date)
 */
void nvpc_record_stop(struct nvpc_engine *eng, struct perf_event *event,
		      int ef)
{
	struct nvpc_domain *dom = event->pmu_private;
	struct nvpc_record *rec = nvpc_record_of(dom);
	unsigned long flags;

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	hrtimer_cancel(&rec->timer);
	nvpc_lock(eng, flags);
	if (rec->active)
		nvpc_record_halt(eng, rec);
	nvpc_unlock(eng, flags);
}

/**
 * nvpc_record_add() - pmu::add of a record event
 * @eng: the GPU's engine
 * @event: the record event, its domain its own since event_init
 * @ef: perf's PERF_EF_* flags: PERF_EF_START starts a session
 *
 * Return: 0.
 */
int nvpc_record_add(struct nvpc_engine *eng, struct perf_event *event,
		    int ef)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (ef & PERF_EF_START)
		nvpc_record_start(eng, event, 0);
	return 0;
}

/**
 * nvpc_record_del() - pmu::del of a record event
 * @eng: the GPU's engine
 * @event: the record event
 * @ef: perf's PERF_EF_* flags (none changes what it does)
 *
 * perf deletes every event of a context, the record event included, to
 * reschedule it (another event opens, is enabled, or a pinned one is
 * added), inside a transaction (pmu_disable), and adds it back before the
 * transaction ends. The session is parked: the hardware runs on, the
 * handle stays open (no munmap can run in between: the transaction runs
 * with interrupts off on the event's CPU), and the add takes it back, so
 * the recording has no gap. Without an add, the transaction's end
 * (nvpc_record_txn_end()) halts it. Outside a transaction, del is a stop.
 */
void nvpc_record_del(struct nvpc_engine *eng, struct perf_event *event,
		     int ef)
{
	struct nvpc_domain *dom = event->pmu_private;
	struct nvpc_record *rec = nvpc_record_of(dom);
	unsigned long flags;
	bool parked = false;

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	nvpc_lock(eng, flags);
	if (eng->txn && rec->active && !eng->gone && !rec->parked) {
		rec->parked = true;
		eng->rec_parked++;
		parked = true;
	}
	nvpc_unlock(eng, flags);
	if (parked)
		event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	else
		nvpc_record_stop(eng, event, 0);
}

/**
 * nvpc_record_txn_end() - the outermost perf transaction closed
 * @eng: the GPU's engine
 *
 * Halt the sessions parked in it that perf did not add back, one lock
 * hold per domain (a halt's accesses each), not one for all of them.
 *
 * Context: perf's pmu_enable, after nvpc_engine_txn() closed the
 * outermost transaction; interrupts off, the events' CPU.
 */
void nvpc_record_txn_end(struct nvpc_engine *eng)
{
	unsigned long flags;
	unsigned int i;

	/* most transactions park nothing: no lock, no scan */
	for (i = 0; i < eng->hw.nr_domains && READ_ONCE(eng->rec_parked);
	     i++) {
		struct nvpc_record *rec;

		nvpc_lock(eng, flags);
		rec = nvpc_record_of(&eng->domains[i]);
		if (!eng->txn && rec && rec->parked) {
			hrtimer_try_to_cancel(&rec->timer);
			nvpc_record_halt(eng, rec);
		}
		nvpc_unlock(eng, flags);
	}
}

/**
 * nvpc_record_release() - free the windows' quiet states and scratch pages
 * @eng: the GPU's engine, released: no event and no AUX area is left
 */
void nvpc_record_release(struct nvpc_engine *eng)
{
	struct nvpc_rec_buf *q, *tmp;

	/* (an AUX area's entry went with its free_aux) */
	list_for_each_entry_safe(q, tmp, &eng->rec_bufs, node) {
		if (!q->scratch)
			continue;
		list_del(&q->node);
		free_page((unsigned long)q->page);
		kfree(q);
	}
}

/**
 * nvpc_record_detach() - the GPU goes: halt every recording domain and
 *	unmap every AUX area from the GPU
 * @eng: the GPU's engine, @eng->lock held, before @eng->gone is set
 *
 * The open handles stay with their events; their stop ends them.
 */
void nvpc_record_detach(struct nvpc_engine *eng)
{
	struct nvpc_rec_buf *buf;
	unsigned int i;

	for (i = 0; i < eng->hw.nr_domains; i++) {
		struct nvpc_record *rec = nvpc_record_of(&eng->domains[i]);

		if (rec && rec->hw_on && !eng->gone)
			nvpc_record_hw_off(eng, rec);
	}
	list_for_each_entry(buf, &eng->rec_bufs, node)
		nvpc_record_unmap(eng, buf);
}
