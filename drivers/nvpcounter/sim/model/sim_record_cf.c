// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter sim: the fast engine's record mode in closed form
 * (sim_fast.h): a record-mode domain whose orbit repeats every
 * hyperperiod writes the packets of whole periods from a template.
 */
#include "sim_fast.h"

/*
 * DOC: record mode in closed form
 *
 * A record-mode domain whose sources are constant or periodic (the
 * waveforms, the PERIODIC trailer, its own FLAG: fa_hyperperiod()) and
 * which reads no other domain's signals nor its own EVENT runs through the
 * same states every hyperperiod l once its pipeline (delays, FLAG, the
 * outgoing packet) has filled: pcounter.rst "Record mode" makes a packet
 * a function of the counters, which restart after every packet, and the
 * 48-bit cycle counter, which only grows. So every period writes the same
 * packets as the one before, each with a cycle field l larger, each at
 * the position after the last one. The engine runs one period cycle by
 * cycle after a warm-up and keeps it (&nvpc_sim_fa_plan.rec_steady) if
 * the state at its end is the state at its start (&struct nvpc_sim_fa_rec)
 * and it wrote at most NVPC_SIM_FA_REC_TPL packets, as a template. Later
 * runs go cycle by cycle to the next start of a period, check that the
 * state is the one measured, and write m periods' packets from the
 * template (fa_rec_write()): the record counters, the position and count
 * move on as m periods move them. m keeps every packet below LIMIT
 * ("Record mode setup": the packet at or beyond LIMIT ends the buffer;
 * the cycle model writes that one) and leaves a tail run cycle by cycle,
 * which refills the synchroniser history as fa_hyper() does.
 *
 * A packet write that faults (a VM fault: "Record mode setup") wedges
 * the domain in that packet's cycle: the domain is put back at the start
 * of that period and runs it cycle by cycle, its earlier packets of the
 * period replayed as written (fa_rec_replay()), so that it wedges in the
 * state the cycle model leaves. Record runs that the template cannot give
 * (RECORD_RESET, an injected fault, no bind, a pending bogus packet or
 * write effect, other waveforms, more packets per period) go cycle by
 * cycle: sim_oracle.c is the reference for both.
 */

/* record packets written in closed form per unit of work (the estimate) */
#define FA_REC_PKTS_PER_WORK	4

static u64 fa_rec_get48(const u8 *p)
{
	return (u64)p[0] | (u64)p[1] << 8 | (u64)p[2] << 16 |
	       (u64)p[3] << 24 | (u64)p[4] << 32 | (u64)p[5] << 40;
}

static void fa_rec_put48(u8 *p, u64 v)
{
	unsigned int i;

	for (i = 0; i < 6; i++)
		p[i] = v >> (8 * i);
}

/* a record-mode domain whose run may write packets in closed form */
bool fa_rec_mode(struct nvpc_sim *sim, const struct nvpc_sim_dom *d,
		 unsigned int lim)
{
	const struct nvpc_sim_hw *hw = &d->hw;

	return lim == 64 && !sim->record_cycle &&
	       hw->mode == NVPC_SIM_MODE_RECORD &&
	       !hw->rec_wedged && !hw->rec_fault_inject && !hw->rec_bogus &&
	       !(nvpc_sim_set_ctrl(sim, d) & NVPC_GCTRL_RECORD_RESET) &&
	       (!sim->facts->record_bind || sim->record_bound);
}

bool fa_rec_steady(const struct nvpc_sim *sim,
		   const struct nvpc_sim_dom *d)
{
	return d->fa.rec_steady && d->fa.rec_gen == sim->cfg_gen;
}

static void fa_rec_snap(const struct nvpc_sim_dom *d, u64 l,
			struct nvpc_sim_fa_rec *s)
{
	const struct nvpc_sim_hw *hw = &d->hw;

	memset(s, 0, sizeof(*s));
	memcpy(s->ev, hw->rec_ev, sizeof(s->ev));
	s->stop = hw->rec_stop;
	s->out = hw->rec_out;
	s->latch = hw->latch;
	s->latch_d1 = hw->latch_d1;
	s->prev_event = hw->prev_event;
	s->prev_raw = hw->prev_raw;
	s->periodic_g = hw->periodic_g % l;
	if (hw->rec_out) {
		s->due = hw->rec_due - d->cycle;
		memcpy(s->pkt, hw->rec_pkt, sizeof(s->pkt));
		fa_rec_put48(s->pkt, (fa_rec_get48(hw->rec_pkt) -
				      hw->rec_cycles) &
				     NVPC_RECORD_CYCLES_MASK);
	}
}

/* packets the buffer takes before one is written at or beyond LIMIT */
u64 fa_rec_room(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	const struct nvpc_sim_rbuf *b = nvpc_sim_rbuf(sim, d);
	u32 len = d->hw.rec_short ? NVPC_RECORD_PACKET_SHORT :
				    NVPC_RECORD_PACKET_LONG;

	if (!b->valid || b->pos >= b->limit)
		return 0;
	return ((u64)b->limit - b->pos + len - 1) / len;
}

/* a memory write callback that watches or replays the cycle model's */
struct fa_rec_cap {
	nvpc_sim_mem_write_t fn;
	void *ctx;
	struct nvpc_sim_dom *d;
	u64 va0;	/* capture: the address of the first packet */
	u32 len;
	u32 n;		/* packets seen */
	u32 skip;	/* replay: packets already written */
	int ret;	/* replay: what the write after them returned */
	bool bad;	/* capture: more packets, or not in a row */
};

static int fa_rec_capture(void *ctx, u64 va, const void *buf, u32 len)
{
	struct fa_rec_cap *cap = ctx;
	int ret = cap->fn ? cap->fn(cap->ctx, va, buf, len) : 0;

	if (ret)
		return ret;
	/* one domain writes the buffer: its packets follow each other */
	if (cap->n >= NVPC_SIM_FA_REC_TPL || len != cap->len ||
	    va != ((cap->va0 & ~0xffffffffULL) |
		   (u32)(cap->va0 + cap->n * len)))
		cap->bad = true;
	else
		memcpy(cap->d->fa.rec_tpl[cap->n], buf, len);
	cap->n++;
	return 0;
}

static int fa_rec_replay(void *ctx, u64 va, const void *buf, u32 len)
{
	struct fa_rec_cap *cap = ctx;

	if (cap->n < cap->skip) {
		cap->n++;
		return 0;
	}
	if (cap->n++ == cap->skip)
		return cap->ret;
	return cap->fn ? cap->fn(cap->ctx, va, buf, len) : 0;
}

/* the address of the buffer's next packet */
static u64 fa_rec_va(struct nvpc_sim *sim, const struct nvpc_sim_rbuf *b)
{
	return b->pos | (sim->facts->rec_addr_high ?
			 (u64)b->addr_high << 32 : 0);
}

/* m periods of the orbit without running them: time and counters move */
static void fa_rec_move(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 m)
{
	struct nvpc_sim_hw *hw = &d->hw;
	struct nvpc_sim_rbuf *b = nvpc_sim_rbuf(sim, d);
	u64 c = m * d->fa.rec_period;
	u32 len = hw->rec_short ? NVPC_RECORD_PACKET_SHORT :
				  NVPC_RECORD_PACKET_LONG;

	d->cycle += c;
	if (!(nvpc_sim_set_ctrl(sim, d) & NVPC_GCTRL_PERIODIC_RESET))
		hw->periodic_g += c;
	hw->rec_cycles = (hw->rec_cycles + c) & NVPC_RECORD_CYCLES_MASK;
	b->pos += (u32)(m * d->fa.rec_npkt * len);
	b->count += (u32)(m * d->fa.rec_npkt);
	if (hw->rec_out) {
		hw->rec_due += c;
		fa_rec_put48(hw->rec_pkt, (fa_rec_get48(hw->rec_pkt) + c) &
					  NVPC_RECORD_CYCLES_MASK);
	}
}

/*
 * Write the packets of @m periods from the template. Return the periods
 * written in full; on a fault, *@fault_at the packets of the next period
 * written before it and *@ret the fault (else *@ret 0).
 */
static u64 fa_rec_write(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 m,
			u32 *fault_at, int *ret)
{
	const struct nvpc_sim_fa_plan *fa = &d->fa;
	const struct nvpc_sim_hw *hw = &d->hw;
	const struct nvpc_sim_rbuf *b = nvpc_sim_rbuf(sim, d);
	u32 len = hw->rec_short ? NVPC_RECORD_PACKET_SHORT :
				  NVPC_RECORD_PACKET_LONG;
	u64 va = fa_rec_va(sim, b), hi = va & ~0xffffffffULL, base;
	u32 pos = b->pos, i;
	u8 pkt[NVPC_RECORD_PACKET_LONG];
	u64 j;

	*ret = 0;
	for (j = 0; j < m; j++) {
		base = hw->rec_cycles + j * fa->rec_period;
		for (i = 0; i < fa->rec_npkt; i++) {
			memcpy(pkt, fa->rec_tpl[i], len);
			fa_rec_put48(pkt, (base + fa_rec_get48(pkt)) &
					  NVPC_RECORD_CYCLES_MASK);
			*ret = sim->mem_write ?
			       sim->mem_write(sim->mem_ctx, hi | pos, pkt,
					      len) : 0;
			if (*ret) {
				*fault_at = i;
				return j;
			}
			pos += len;
		}
	}
	return m;
}

/*
 * A domain wedged by a VM fault ("Record mode setup"), at a start of a
 * period of its orbit: its record state stands still, and the rest (FLAG
 * latch, delayed sources, PERIODIC) follows the sources alone, as at
 * every start of a period: skip whole periods, then the tail.
 */
static void fa_rec_wedged(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
			  u64 todo)
{
	u64 l = d->fa.rec_period, m;
	u32 tail = fa_hyper_tail(sim, d);

	m = todo > tail ? (todo - tail) / l : 0;
	d->cycle += m * l;
	if (!(nvpc_sim_set_ctrl(sim, d) & NVPC_GCTRL_PERIODIC_RESET))
		d->hw.periodic_g += m * l;
	fa_plain(sim, d, todo - m * l, 64);
}

/*
 * From a start of a period of the orbit: skip m periods (at most those
 * that fit @todo less the tail, and below LIMIT), writing their packets.
 * Return the cycles done.
 */
static u64 fa_rec_skip(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
		       u64 todo)
{
	struct nvpc_sim_fa_plan *fa = &d->fa;
	u64 l = fa->rec_period, m, done, pk, room;
	u32 tail = fa_hyper_tail(sim, d), at = 0;
	struct fa_rec_cap cap = { };
	int ret;

	m = (todo - tail) / l;
	if (fa->rec_npkt) {
		room = fa_rec_room(sim, d);
		m = m < room / fa->rec_npkt ? m : room / fa->rec_npkt;
	}
	if (!m)
		return 0;
	done = fa_rec_write(sim, d, m, &at, &ret);
	pk = done * fa->rec_npkt;
	sim->work += (pk + at + FA_REC_PKTS_PER_WORK - 1) /
		     FA_REC_PKTS_PER_WORK + 1;
	sim->stats.record_fast_packets += pk;
	fa_rec_move(sim, d, done);
	if (!ret)
		return m * l;
	/*
	 * the write of packet @at of the next period faulted: that period
	 * runs cycle by cycle, its first @at packets taken as written, so
	 * that the domain wedges as the cycle model has it
	 */
	cap.fn = sim->mem_write;
	cap.ctx = sim->mem_ctx;
	cap.skip = at;
	cap.ret = ret;
	sim->mem_write = fa_rec_replay;
	sim->mem_ctx = &cap;
	fa_plain(sim, d, l, 64);
	sim->mem_write = cap.fn;
	sim->mem_ctx = cap.ctx;
	fa_rec_wedged(sim, d, todo - (done + 1) * l);
	return todo;
}

/* cycles from the next cycle to the next start of a period of the orbit */
static u64 fa_rec_to_start(const struct nvpc_sim_dom *d)
{
	u64 l = d->fa.rec_period;

	return (l - (d->cycle - d->fa.rec_ref) % l) % l;
}

/*
 * Work of a run of @todo cycles of a domain in its measured orbit that
 * writes in closed form (fa_rec_run()), ~0 if it would not; from the
 * room below LIMIT at fa_cost_prepare(), less what the cycles to the
 * period's start may write. Never less for a longer span.
 */
u64 fa_rec_cost(const struct nvpc_sim_dom *d, u64 todo)
{
	const struct nvpc_sim_fa_plan *fa = &d->fa;
	u64 l = fa->rec_period, b = fa_rec_to_start(d), m, rem, room;
	u32 tail = fa->tail;

	if (todo < b + l + tail)
		return ~0ULL;
	m = (todo - b - tail) / l;
	if (fa->rec_npkt) {
		room = fa->rec_room > fa->rec_npkt + 1 ?
		       fa->rec_room - fa->rec_npkt - 1 : 0;
		m = m < room / fa->rec_npkt ? m : room / fa->rec_npkt;
	}
	if (!m)
		return ~0ULL;
	rem = todo - b - m * l;
	if (rem < l + tail - 1)
		rem = l + tail - 1;
	/*
	 * the plan, the unit of the write, the chunks around it, and a
	 * period cycle by cycle if a write faults (fa_rec_skip())
	 */
	return 3 + fa_max_chunks(b) + fa_max_chunks(l) +
	       (m * fa->rec_npkt + FA_REC_PKTS_PER_WORK - 1) /
	       FA_REC_PKTS_PER_WORK + fa_max_chunks(rem);
}

/*
 * Measure the orbit (its period @l, @todo cycles left, at least
 * 2 * l + 2 more than the tail): a warm-up of l + 2 cycles, then one
 * period with its packets captured. The domain is in its steady state if
 * that period ends as it began. Return the cycles run.
 */
static u64 fa_rec_measure(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 l)
{
	struct nvpc_sim_fa_plan *fa = &d->fa;
	struct nvpc_sim_hw *hw = &d->hw;
	struct nvpc_sim_rbuf *b = nvpc_sim_rbuf(sim, d);
	struct nvpc_sim_fa_rec s1;
	struct fa_rec_cap cap = { };
	u64 rc0, base;
	u32 count0, i;

	fa->rec_steady = false;
	fa_plain(sim, d, l + 2, 64);
	fa_rec_snap(d, l, &fa->rec_s0);
	rc0 = hw->rec_cycles;
	count0 = b->count;
	cap.fn = sim->mem_write;
	cap.ctx = sim->mem_ctx;
	cap.d = d;
	cap.va0 = fa_rec_va(sim, b);
	cap.len = hw->rec_short ? NVPC_RECORD_PACKET_SHORT :
				  NVPC_RECORD_PACKET_LONG;
	sim->mem_write = fa_rec_capture;
	sim->mem_ctx = &cap;
	fa_plain(sim, d, l, 64);
	sim->mem_write = cap.fn;
	sim->mem_ctx = cap.ctx;
	fa_rec_snap(d, l, &s1);
	/* the same state, the same packets, and worth it (a unit of work
	 * writes FA_REC_PKTS_PER_WORK packets, or runs 64 cycles)
	 */
	if (cap.bad || hw->rec_wedged || !b->valid || b->count - count0 != cap.n ||
	    memcmp(&s1, &fa->rec_s0, sizeof(s1)) ||
	    ((hw->rec_cycles - rc0) & NVPC_RECORD_CYCLES_MASK) != l ||
	    (u64)cap.n * 64 > l * FA_REC_PKTS_PER_WORK)
		return 2 * l + 2;
	for (i = 0; i < cap.n; i++) {
		base = fa_rec_get48(fa->rec_tpl[i]);
		fa_rec_put48(fa->rec_tpl[i], (base - rc0) &
					     NVPC_RECORD_CYCLES_MASK);
	}
	fa->rec_npkt = cap.n;
	fa->rec_period = l;
	fa->rec_ref = d->cycle;
	fa->rec_gen = sim->cfg_gen;
	fa->rec_steady = true;
	return 2 * l + 2;
}

/*
 * A record-mode domain (fa_rec_mode()): packets in closed form where its
 * orbit is known ("DOC: record mode in closed form"), cycle by cycle
 * elsewhere.
 */
void fa_rec_run(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 todo)
{
	struct nvpc_sim_fa_plan *fa = &d->fa;
	struct nvpc_sim_fa_rec s;
	u64 l, n, fast = sim->stats.record_fast_packets;
	u32 tail = fa_hyper_tail(sim, d);

	if (!fa_rec_steady(sim, d)) {
		/* a register write's effect lasts one cycle: run past it */
		if (fa_pending(&d->hw)) {
			n = todo < 64 ? todo : 64;
			fa_plain(sim, d, n, 64);
			todo -= n;
		}
		l = fa_hyperperiod(sim, d);
		if (!l || todo < 3 * l + 2 + tail) {
			fa_plain(sim, d, todo, 64);
			return;
		}
		todo -= fa_rec_measure(sim, d, l);
		if (!fa->rec_steady) {
			fa_plain(sim, d, todo, 64);
			return;
		}
	}
	/* as the estimate has it: closed form only where that costs less */
	fa->tail = tail;
	fa->rec_room = fa_rec_room(sim, d);
	if (fa_rec_cost(d, todo) >= 1 + fa_plain_chunks(d->cycle, todo, 64)) {
		fa_plain(sim, d, todo, 64);
		return;
	}
	l = fa->rec_period;
	n = fa_rec_to_start(d);
	fa_plain(sim, d, n, 64);
	todo -= n;
	fa_rec_snap(d, l, &s);
	if (d->hw.rec_wedged && s.latch == fa->rec_s0.latch &&
	    s.latch_d1 == fa->rec_s0.latch_d1 &&
	    s.prev_event == fa->rec_s0.prev_event &&
	    s.prev_raw == fa->rec_s0.prev_raw &&
	    s.periodic_g == fa->rec_s0.periodic_g) {
		/* a write on the way faulted */
		fa_rec_wedged(sim, d, todo);
		return;
	}
	if (!fa_rec_mode(sim, d, 64) || memcmp(&s, &fa->rec_s0, sizeof(s))) {
		/* not on the orbit measured: measure again next time */
		fa->rec_steady = false;
		fa_plain(sim, d, todo, 64);
		return;
	}
	n = fa_rec_skip(sim, d, todo);
	fa_plain(sim, d, todo - n, 64);
	if (sim->stats.record_fast_packets != fast)
		sim->stats.record_fast_runs++;
}
