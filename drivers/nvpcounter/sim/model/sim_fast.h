/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvpcounter sim: the fast engine's own header, shared by its files only:
 *
 *  sim_chunk.c      the chunk engine: signals as words, the plan, one chunk
 *                   of up to 64 cycles per quad/single/record mode
 *  sim_hyper.c      hyperperiod extrapolation (quad, single event, halted)
 *  sim_record_cf.c  record mode in closed form (packets from a template)
 *  sim_sched.c      runs: scheduling of domains and sets, lazy domains and
 *                   their catch-up, the cost estimate, the engine table
 *
 * The engine processes a domain in chunks of up to 64 cycles, one machine
 * word per signal: truth tables are evaluated as a mux tree over words,
 * delays are shifts, the FLAG latch is a segmented scan, quad counters are
 * popcounts split at the swap positions. Chunks shrink to 2 or 1 cycles
 * where a signal feeds back into itself (own FLAG into SETFLAG/CLRFLAG or
 * single-event control, own EVENT, synchronised imports from other
 * domains), and domain sets with live imports are interleaved in global
 * time order. With only periodic/constant live inputs, one hyperperiod is
 * measured and the rest of the span is extrapolated, so that 10^12 cycles
 * cost as much as 10^6.
 *
 * Registers cannot change during a run, so each run first decodes the
 * domain's sources and ops into a plan (struct nvpc_sim_fa_plan): constant
 * words, periodic sources as precomputed bit patterns with a position that
 * moves by the chunk (no division per chunk), random sources as 64-cycle
 * blocks of the bit-sliced generator (chunks are aligned to those blocks),
 * truth tables reduced to the arguments they depend on and unrolled.
 *
 * Semantics are those of sim_model.h and pcounter.rst; sim_oracle.c is the
 * naive reference the tests compare these files against. The fa_ prefix is
 * the fast engine's; nothing here is seen outside the model.
 */
#ifndef _NVPC_SIM_FAST_H
#define _NVPC_SIM_FAST_H

#include "sim_internal.h"

/*
 * what a run that measures a record orbit costs beyond its chunks: the
 * span split at the pending cycle and at two periods (a chunk each), and
 * the closed-form write's own unit after it (sim_record_cf.c)
 */
#define FA_REC_MEASURE_COST	8

/**
 * struct fa_chunk - the words of one chunk of a domain (sim_chunk.c)
 * @k: first cycle
 * @n: cycles, 1..64
 * @mask: the low @n bits
 * @raw: SRC bytes (input * 4 + j), then the SWAP source
 * @in: the inputs PRE, START, EVENT, STOP, SETFLAG, CLRFLAG
 * @swap: the SWAP input
 * @flagsig: own FLAG signal
 * @latchw: bit i: latch after cycle k + i
 * @flag_patch: raw bytes that are own FLAG
 * @flag_bytes: bit i: raw[i] is own FLAG
 */
struct fa_chunk {
	u64 k;
	unsigned int n;
	u64 mask;
	u64 raw[NVPC_SIM_NR_SLOTS + 1];
	u64 in[NVPC_NR_INPUTS];
	u64 swap;
	u64 flagsig;
	u64 latchw;
	u8 flag_patch;
	u32 flag_bytes;
};

/* what a domain's sources select, fa_refs() */
enum {
	FA_REF_FLAG = 1,	/* own FLAG */
	FA_REF_EVENT = 2,	/* own EVENT */
	FA_REF_IMPORT = 4,	/* another domain's FLAG or EVENT */
	FA_REF_FLAG_SC = 8,	/* own FLAG feeds SETFLAG/CLRFLAG */
};

static inline unsigned int fa_pop(u64 x)
{
	return nvpc_sim_popcount(x);
}

/* n low bits set, all for n >= 64 (without a branch) */
static inline u64 fa_mask(unsigned int n)
{
	return ((1ULL << (n & 63)) - 1) | -(u64)(n >= 64);
}

/**
 * fa_plain_chunks() - chunks of a span run without a skip
 * @c: its first cycle
 * @todo: its cycles
 * @lim: the chunk limit
 *
 * fa_plain() makes chunks of 64 on 64-cycle blocks; fa_run_set() and
 * fa_run_global() make at most that many in their order.
 *
 * Return: the number of chunks.
 */
static inline u64 fa_plain_chunks(u64 c, u64 todo, unsigned int lim)
{
	u64 first = 64 - c % 64;

	if (!todo)
		return 0;
	if (lim != 64)
		return (todo + lim - 1) / lim;
	if (todo <= first)
		return 1;
	return 1 + (todo - first + 63) / 64;
}

/**
 * fa_max_chunks() - the most chunks fa_plain() makes of a span
 * @n: its cycles, wherever they start
 *
 * Return: the number of chunks.
 */
static inline u64 fa_max_chunks(u64 n)
{
	return n ? 1 + (n + 62) / 64 : 0;
}

/* sim_chunk.c: the chunk engine */

/**
 * fa_refs() - which of its own and other domains' signals a domain reads
 * @sim: the model
 * @d: the domain
 *
 * Decoded from its SRC and SPEC_SRC bytes, kept while &nvpc_sim.cfg_gen
 * stays (every access asks).
 *
 * Return: FA_REF_* bits.
 */
unsigned int fa_refs(struct nvpc_sim *sim, struct nvpc_sim_dom *d);

/**
 * fa_limit() - the longest chunk a domain may run
 * @d: the domain
 * @refs: its fa_refs()
 *
 * Return: 1 where it reads its own EVENT, 2 where a FLAG or an import
 * feeds back within two cycles, else 64.
 */
unsigned int fa_limit(struct nvpc_sim_dom *d, unsigned int refs);

/**
 * fa_input() - one input over a chunk ("Input selection")
 * @hw: the domain's hardware state (the delayed sources)
 * @c: the chunk, its raw words filled
 * @op: the input's decoded op
 *
 * Return: the input's word, bit i for cycle c->k + i.
 */
u64 fa_input(const struct nvpc_sim_hw *hw, const struct fa_chunk *c,
	     const struct nvpc_sim_fa_op *op);

/**
 * fa_latch_scan() - the FLAG latch after each cycle ("The flag")
 * @set: SETFLAG word
 * @clr: CLRFLAG word
 * @l0: the latch before the first cycle
 * @mask: the chunk's cycles
 *
 * Return: bit i: the latch after cycle i (a segmented scan).
 */
u64 fa_latch_scan(u64 set, u64 clr, int l0, u64 mask);

/**
 * fa_quad_inc() - what a quad-mode chunk adds to each counter
 * @hw: the domain's hardware state (the counter mode)
 * @c: the chunk, its inputs evaluated
 * @m: the cycles of the chunk to count
 * @inc: NVPC_SIM_NR_CTRS increments, filled
 */
void fa_quad_inc(const struct nvpc_sim_hw *hw, const struct fa_chunk *c,
		 u64 m, u64 *inc);

/**
 * fa_rec_outgoing() - a packet on its way to memory outside record mode
 * @hw: the domain's hardware state
 *
 * Return: true if a packet formed in record mode lands in a later chunk.
 */
bool fa_rec_outgoing(const struct nvpc_sim_hw *hw);

/**
 * fa_plan_sync() - the plan's periodic positions for the next cycle
 * @d: the domain
 */
void fa_plan_sync(struct nvpc_sim_dom *d);

/**
 * fa_plan() - decode a domain's registers for a run
 * @sim: the model
 * @d: the domain
 *
 * The decoding is kept while &nvpc_sim.cfg_gen stays (registers and
 * waveforms); only the periodic positions move with time. One unit of
 * &nvpc_sim.work.
 */
void fa_plan(struct nvpc_sim *sim, struct nvpc_sim_dom *d);

/**
 * fa_chunk_words() - the words of a chunk's sources
 * @sim: the model
 * @d: the domain, planned
 * @c: the chunk (@c->n, @c->mask, @c->flagsig set)
 * @nslot: SRC bytes in use
 * @flag_known: own FLAG is known before the latch scan
 *
 * Slots 0 .. @nslot - 1 and the SWAP source; periodic positions move on
 * by the chunk. If own FLAG is not known yet, it reads 0 and is marked in
 * &fa_chunk.flag_bytes for the patch after the scan.
 */
void fa_chunk_words(struct nvpc_sim *sim, struct nvpc_sim_dom *d,
		    struct fa_chunk *c, unsigned int nslot, bool flag_known);

/**
 * fa_chunk() - run one chunk of a domain
 * @sim: the model
 * @d: the domain, planned
 * @n: cycles, 1..64, within its fa_limit()
 * @last: the last chunk of the run (keep every source's last value)
 */
void fa_chunk(struct nvpc_sim *sim, struct nvpc_sim_dom *d, unsigned int n,
	      bool last);

/**
 * fa_plain() - run a span of a domain chunk by chunk, without a skip
 * @sim: the model
 * @d: the domain, planned
 * @todo: cycles
 * @limit: the chunk limit; chunks of 64 stay on 64-cycle blocks
 */
void fa_plain(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 todo,
	      unsigned int limit);

/**
 * fa_engine_signal() - &nvpc_sim_engine.signal of the fast engine
 * @sim: the model
 * @dom: flat domain index
 * @sig: signal id
 *
 * Return: the signal in the domain's next cycle.
 */
int fa_engine_signal(struct nvpc_sim *sim, unsigned int dom, unsigned int sig);

/**
 * fa_settle() - &nvpc_sim_engine.settle of the fast engine
 * @sim: the model
 *
 * Bit 0 of every quad-mode domain's next SWAP word, done now.
 */
void fa_settle(struct nvpc_sim *sim);

/* sim_hyper.c: hyperperiod extrapolation */

/**
 * fa_hyperperiod() - the hyperperiod of a domain's live sources
 * @sim: the model
 * @d: the domain
 *
 * In quad mode the swap source must stay quiet over the whole span.
 *
 * Return: the lcm of the sources' periods, 0 if one is not periodic or
 * the lcm is too large to measure.
 */
u64 fa_hyperperiod(struct nvpc_sim *sim, struct nvpc_sim_dom *d);

/**
 * fa_hyperperiod_after() - fa_hyperperiod() once pending pulses are over
 * @sim: the model
 * @d: the domain (its state is left as it was)
 *
 * Return: the hyperperiod after the chunk of a pending PM_TRIGGER or USER
 * pulse, as fa_hyper() finds it.
 */
u64 fa_hyperperiod_after(struct nvpc_sim *sim, struct nvpc_sim_dom *d);

/**
 * fa_pending() - a register write's effect waits for the next cycle
 * @hw: the domain's hardware state
 *
 * Return: true if one does.
 */
bool fa_pending(const struct nvpc_sim_hw *hw);

/**
 * fa_hyper_mode() - a domain whose state repeats with its sources
 * @d: the domain
 * @lim: its chunk limit
 *
 * Quad, single event and halted modes, chunks of 64 and no packet landing
 * (record mode writes memory: sim_record_cf.c).
 *
 * Return: true if fa_hyper() may run it.
 */
bool fa_hyper_mode(const struct nvpc_sim_dom *d, unsigned int lim);

/**
 * fa_hyper_tail() - cycles run after a skip to refill the history
 * @sim: the model
 * @d: the domain
 *
 * Return: the cycles, never more than the synchroniser history.
 */
u32 fa_hyper_tail(const struct nvpc_sim *sim, struct nvpc_sim_dom *d);

/**
 * fa_hyper_worth() - a span long enough to measure a hyperperiod in
 * @l: the hyperperiod (0: none)
 * @tail: fa_hyper_tail()
 * @todo: the span
 *
 * Return: true if at least two periods would be skipped.
 */
bool fa_hyper_worth(u64 l, u32 tail, u64 todo);

/**
 * fa_steady() - a quad-mode domain in the steady state measured before
 * @sim: the model
 * @d: the domain
 *
 * Return: true if its increments per hyperperiod are still valid.
 */
bool fa_steady(const struct nvpc_sim *sim, const struct nvpc_sim_dom *d);

/**
 * fa_dry_ok() - a memoryless quad-mode domain ("DOC: memoryless quad-mode
 *	domains" in sim_hyper.c)
 * @sim: the model
 * @d: the domain
 * @l: its hyperperiod
 *
 * Return: true if one period can be evaluated without running it.
 */
bool fa_dry_ok(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 l);

/**
 * fa_dry_first() - cycles run before a memoryless domain's period
 * @d: the domain
 * @todo: the span
 *
 * Return: up to a 64-cycle block if a write's effect is pending or an op
 * may delay, else 0.
 */
u64 fa_dry_first(const struct nvpc_sim_dom *d, u64 todo);

/**
 * fa_hyper() - run a span of a domain, skipping whole hyperperiods
 * @sim: the model
 * @d: the domain (fa_hyper_mode()), planned
 * @todo: cycles
 */
void fa_hyper(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 todo);

/* sim_record_cf.c: record mode in closed form */

/**
 * fa_rec_mode() - a record-mode domain whose run may write in closed form
 * @sim: the model
 * @d: the domain
 * @lim: its chunk limit
 *
 * Return: true if fa_rec_run() may run it.
 */
bool fa_rec_mode(struct nvpc_sim *sim, const struct nvpc_sim_dom *d,
		 unsigned int lim);

/**
 * fa_rec_steady() - a record-mode domain's orbit measured and still valid
 * @sim: the model
 * @d: the domain
 *
 * Return: true if its template may be used.
 */
bool fa_rec_steady(const struct nvpc_sim *sim, const struct nvpc_sim_dom *d);

/**
 * fa_rec_room() - packets the record buffer takes before LIMIT
 * @sim: the model
 * @d: the domain
 *
 * Return: the packets written before one is written at or beyond LIMIT.
 */
u64 fa_rec_room(struct nvpc_sim *sim, struct nvpc_sim_dom *d);

/**
 * fa_rec_cost() - work of a closed-form run of a domain in its orbit
 * @d: the domain, its &nvpc_sim_fa_plan.tail and .rec_room prepared
 * @todo: cycles
 *
 * Never less for a longer span.
 *
 * Return: the work units of fa_rec_run(), ~0 if it would not write in
 * closed form.
 */
u64 fa_rec_cost(const struct nvpc_sim_dom *d, u64 todo);

/**
 * fa_rec_run() - run a record-mode domain (fa_rec_mode())
 * @sim: the model
 * @d: the domain, planned
 * @todo: cycles
 *
 * Packets in closed form where its orbit is known, cycle by cycle
 * elsewhere.
 */
void fa_rec_run(struct nvpc_sim *sim, struct nvpc_sim_dom *d, u64 todo);

#endif /* _NVPC_SIM_FAST_H */
