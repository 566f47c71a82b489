/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvpcounter sim: state shared by the register front end (sim_model.c,
 * sim_regs.c) and the two cycle engines (the fast one of sim_fast.h,
 * sim_oracle.c). The engines share no behaviour code with each other but
 * the record packets (sim_record.c): only this state layout, the register
 * map and the waveform generator.
 */
#ifndef _NVPC_SIM_INTERNAL_H
#define _NVPC_SIM_INTERNAL_H

#ifdef __KERNEL__
#include <linux/errno.h>
#else
#include <errno.h>
#endif
#include <nvpcounter/regs.h>
#include "sim_model.h"

#define NVPC_SIM_NR_SIGNALS	256
#define NVPC_SIM_HIST		1024	/* synchroniser history, cycles */
#define NVPC_SIM_HIST_WORDS	(NVPC_SIM_HIST / 64)

/* Counter indices ("Counters") */
enum nvpc_sim_ctr {
	NVPC_SIM_CTR_CYCLES,
	NVPC_SIM_CTR_CYCLES_ALT,
	NVPC_SIM_CTR_EVENT,
	NVPC_SIM_CTR_START,
	NVPC_SIM_CTR_PRE,
	NVPC_SIM_CTR_STOP,
	NVPC_SIM_NR_CTRS,
};

/* Counting mode of a domain, decoded from its CTRL */
enum nvpc_sim_mode {
	NVPC_SIM_MODE_SINGLE,
	NVPC_SIM_MODE_QUAD,
	NVPC_SIM_MODE_RECORD,
	NVPC_SIM_MODE_HALTED,	/* GF100 MODE 0, and undocumented modes */
};

/*
 * Signal kinds, one byte per signal id: kind << 4 | argument. Built once
 * from the trailer tables of pcounter.rst "Trailer signals".
 */
enum nvpc_sim_sig_kind {
	NVPC_SIM_SIG_WAVE,	/* waveform source */
	NVPC_SIM_SIG_ZERO,	/* ZERO, absent or undocumented trailer */
	NVPC_SIM_SIG_FLAG,	/* own FLAG */
	NVPC_SIM_SIG_EVENT,	/* own EVENT */
	NVPC_SIM_SIG_IMP_FLAG,	/* DOM[arg].FLAG, arg = index in the set */
	NVPC_SIM_SIG_IMP_EVENT,	/* DOM[arg].EVENT */
	NVPC_SIM_SIG_PM_TRIGGER,
	NVPC_SIM_SIG_PERIODIC,
	NVPC_SIM_SIG_USER,	/* USER_arg */
};

#define NVPC_SIM_SIG(kind, arg)	((u8)((kind) << 4 | (arg)))
#define NVPC_SIM_SIG_KIND(s)	((s) >> 4)
#define NVPC_SIM_SIG_ARG(s)	((s) & 0xf)

/**
 * struct nvpc_sim_rbuf - a record buffer (pcounter.rst "Record mode setup")
 * @start: RECORD_START (G84:GF100 per domain; GF100+ MAIN START)
 * @limit: RECORD_LIMIT (MAIN LIMIT)
 * @pos: the position, address of the next packet (RECORD_STATUS bits 4-31;
 *	MAIN POS)
 * @addr_high: RECORD_ADDRESS_HIGH (MAIN ADDRESS_HIGH)
 * @count: packets written since START was written (GF100+ MAIN COUNT)
 * @valid: the internal "buffer valid" flag
 * @fault: the FAULT status bit (RECORD_STATUS bit 0; MAIN POS bit 0)
 *
 * G84:GF100 have one per domain (&nvpc_sim_hw.rbuf); GF100+ one for every
 * domain, in the MAIN block (&nvpc_sim.gf_rec). nvpc_sim_rbuf() picks it.
 */
struct nvpc_sim_rbuf {
	u32 start;
	u32 limit;
	u32 pos;
	u32 addr_high;
	u32 count;
	u8 valid;
	u8 fault;
};

/*
 * The part of a domain that PMC.ENABLE (GF100+) resets: registers and
 * counting state. Reset value: all zero.
 */
struct nvpc_sim_hw {
	/* registers: SRC/OP by NVPC_INPUT_*; src[4..5]: NV10:NV30 only */
	u32 src[NVPC_NR_INPUTS];
	u32 op[NVPC_NR_INPUTS];
	u32 ctrl;		/* NV40+: stored CTRL bits */
	u32 spec_src;		/* SPEC_SRC / SWAP_SRC */
	u32 user_value;		/* current USER signal values */
	u32 user_pulse;		/* pulse-mode bits as written */
	u64 threshold;
	u32 pre_init;
	u32 stop_init;
	struct nvpc_sim_rbuf rbuf;	/* G84:GF100 record buffer */
	u32 gf_store[8];	/* GF100 stored-only registers */

	/* decoded configuration */
	u8 mode;
	u8 ctr_mode;
	u8 event_ctr_all;
	u8 event_import_pulse;
	u8 flag_import_pulse;
	u8 periodic_sel;
	u8 rec_short;

	/* counting state */
	u64 ctr[NVPC_SIM_NR_CTRS];	/* visible counters */
	u64 shadow[NVPC_SIM_NR_CTRS];	/* quad mode shadow counters */
	u8 single_state;
	u8 quad_state;
	u8 latch;		/* flag latch after the last cycle */
	u8 latch_d1;		/* flag latch one cycle earlier */
	u8 prev_event;		/* EVENT input of the last cycle */
	u32 prev_raw;		/* SRC signals of the last cycle, 4 per input */

	/* pending effects of register writes, consumed by the next cycle */
	u8 pend_abort;
	u8 pend_start;
	u8 pend_swap;
	u8 pend_pm;
	u8 pend_user_clear;
	u8 swap_settled;	/* nvpc_sim_settle() did the next cycle's swap */
	u8 start_settled;	/* nvpc_sim_settle() did the next cycle's
				 * single event mode start (its state change)
				 */
	u64 periodic_g;

	/* record mode */
	u64 rec_cycles;
	u16 rec_ev[NVPC_RECORD_NR_EVENTS];
	u16 rec_stop;
	u8 rec_wedged;
	u8 rec_out;
	u8 rec_len;
	u8 rec_fault_inject;
	u8 rec_bogus;		/* sim_regs.c "DOC: bogus record packet" */
	u64 rec_due;
	u8 rec_pkt[NVPC_RECORD_PACKET_LONG];

	/* history of FLAG and EVENT signals for the synchronisers */
	u64 hist_flag[NVPC_SIM_HIST_WORDS];
	u64 hist_event[NVPC_SIM_HIST_WORDS];
};

/* number of SRC bytes of a domain: 4 per input, NV10:NV30 has 6 inputs */
#define NVPC_SIM_NR_SLOTS	(NVPC_NR_INPUTS * 4)
/* fast engine: longest period kept as a bit pattern */
#define NVPC_SIM_FA_PATTERN	256

/**
 * struct nvpc_sim_fa_slot - fast engine: one decoded signal source
 * @kind: FA_SL_* of sim_chunk.c
 * @sig: the signal id
 * @pos: periodic: (cycle + phase) % period at &nvpc_sim_fa_plan.cycle
 * @period: periodic: period
 * @width: periodic: width
 * @step: periodic: 64 % period
 * @density: random: density
 * @key: random: nvpc_sim_rand_key() of the seed
 * @word: constant: the word in @word[0]; periodic up to
 *	NVPC_SIM_FA_PATTERN: cycles 0 .. period + 63 from position 0
 */
struct nvpc_sim_fa_slot {
	u8 kind;
	u8 sig;
	u32 pos;
	u32 period;
	u32 width;
	u32 step;
	u32 density;
	u64 key;
	u64 word[NVPC_SIM_FA_PATTERN / 64 + 2];
};

/**
 * struct nvpc_sim_fa_op - fast engine: one decoded logic op
 * @table: truth table over the @nargs arguments it depends on
 * @nargs: 0..4
 * @arg: per argument: slot index, | 0x80 delayed, or 0x40 SETFLAG
 */
struct nvpc_sim_fa_op {
	u16 table;
	u8 nargs;
	u8 arg[4];
};

/* fast engine: most packets per hyperperiod a record template holds */
#define NVPC_SIM_FA_REC_TPL	16

/**
 * struct nvpc_sim_fa_rec - fast engine: a record-mode domain's state at the
 *	start of a hyperperiod of its orbit (sim_record_cf.c "DOC: record mode in
 *	closed form"), without what grows from period to period (the cycle
 *	counters, the buffer position and count)
 * @ev: the 12 event counters
 * @stop: the STOP counter
 * @out: a packet is outgoing
 * @latch: the FLAG latch after the last cycle
 * @latch_d1: the one before
 * @prev_event: EVENT input of the last cycle
 * @prev_raw: SRC signals of the last cycle
 * @due: @out: its completion cycle minus the domain's next cycle
 * @periodic_g: the PERIODIC generator's count modulo the hyperperiod
 * @pkt: @out: the outgoing packet, its cycle field made relative to the
 *	record cycle counter
 */
struct nvpc_sim_fa_rec {
	u16 ev[NVPC_RECORD_NR_EVENTS];
	u16 stop;
	u8 out;
	u8 latch;
	u8 latch_d1;
	u8 prev_event;
	u32 prev_raw;
	u64 due;
	u64 periodic_g;
	u8 pkt[NVPC_RECORD_PACKET_LONG];
};

/**
 * struct nvpc_sim_fa_plan - fast engine: a domain's decoded sources and
 *	ops, built at the start of each run (registers cannot change during
 *	a run) and carried from chunk to chunk
 * @cycle: the cycle the periodic positions are for
 * @nr_periodic: periodic slots
 * @nr_const: constant slots
 * @nr_other: random, own FLAG and other slots
 * @delayed: slots that ops use delayed (bit per slot)
 * @periodic: indices in @slot of the periodic slots
 * @cnst: of the constant ones
 * @other: of the others
 * @slot: the SRC bytes by input * 4 + j, then the SWAP source
 * @op: the logic ops by input
 * @limit: chunk limit of the current run (fa_run_global()), or of the
 *	next one (cost estimate)
 * @moves: single event state changes so far (hyperperiod check)
 * @hyper: cost estimate: the hyperperiod of the next run, 0 if none
 * @tail: cycles run after a hyperperiod skip (fa_hyper_tail())
 * @skips: cost estimate: the next run may skip hyperperiods
 * @dry: cost estimate: the next run evaluates a period of a memoryless
 *	domain instead of measuring it (sim_hyper.c "DOC: memoryless quad-mode
 *	domains")
 * @lazy: the domain is lazy (sim_sched.c "DOC: lazy domains"): runs skip
 *	it; decided at the start of each run and by the cost estimate
 * @lazy_config: its registers and waveforms allow it to be lazy, as of
 *	&nvpc_sim.lazy_gen
 * @lazy_hyper: fa_hyperperiod_after() as of &nvpc_sim.lazy_gen (the cost
 *	estimate of a lazy domain's catch-up, without decoding it again)
 * @plan_gen: &nvpc_sim.cfg_gen when @slot, @op and the slot lists were
 *	decoded (fa_plan() keeps them while it stays)
 * @refs_gen: &nvpc_sim.cfg_gen when @refs was decoded
 * @refs: the FLAG, EVENT and import references of its SRC bytes
 *	(fa_refs() of sim_chunk.c)
 * @tail_clk: fa_hyper_tail(), from the clocks (0: not computed yet)
 * @steady: quad mode: the domain's state is on the orbit measured by the
 *	last hyperperiod skip (period @st_period, counter increments
 *	@st_inc per period), valid while &nvpc_sim.cfg_gen is @st_gen
 * @st_gen: &nvpc_sim.cfg_gen when @steady was measured
 * @st_period: the measured hyperperiod
 * @st_inc: shadow counter increments per hyperperiod
 * @rec_skips: cost estimate: the next run may write record packets in
 *	closed form (@rec_steady holds)
 * @rec_room: cost estimate: packets the buffer takes before LIMIT
 * @rec_measures: cost estimate: the next run may measure the orbit
 * @rec_steady: record mode: the orbit below was measured, valid while
 *	&nvpc_sim.cfg_gen is @rec_gen
 * @rec_gen: &nvpc_sim.cfg_gen when it was measured
 * @rec_period: its hyperperiod, cycles
 * @rec_ref: a cycle at which a period of the orbit starts
 * @rec_npkt: packets written per period (at most NVPC_SIM_FA_REC_TPL)
 * @rec_s0: the state at the start of a period
 * @rec_tpl: the packets of a period in their order, each cycle field
 *	relative to the record cycle counter at the period's start
 */
struct nvpc_sim_fa_plan {
	u64 cycle;
	u8 nr_periodic;
	u8 nr_const;
	u8 nr_other;
	u32 delayed;
	u8 periodic[NVPC_SIM_NR_SLOTS + 1];
	u8 cnst[NVPC_SIM_NR_SLOTS + 1];
	u8 other[NVPC_SIM_NR_SLOTS + 1];
	struct nvpc_sim_fa_slot slot[NVPC_SIM_NR_SLOTS + 1];
	struct nvpc_sim_fa_op op[NVPC_NR_INPUTS];
	u8 limit;
	u32 moves;
	u64 hyper;
	u32 tail;
	bool skips;
	bool dry;
	bool lazy;
	bool lazy_config;
	u64 lazy_hyper;
	u64 plan_gen;
	u64 refs_gen;
	u32 refs;
	u32 tail_clk;
	bool steady;
	u64 st_gen;
	u64 st_period;
	u64 st_inc[NVPC_SIM_NR_CTRS];
	bool rec_skips;
	u64 rec_room;
	bool rec_measures;
	bool rec_steady;
	u64 rec_gen;
	u64 rec_period;
	u64 rec_ref;
	u32 rec_npkt;
	struct nvpc_sim_fa_rec rec_s0;
	u8 rec_tpl[NVPC_SIM_FA_REC_TPL][NVPC_RECORD_PACKET_LONG];
};

/**
 * struct nvpc_sim_dom - one instantiated domain
 * @dset: &enum nvpc_dset
 * @unit: GPC or partition number (GF100+), else 0
 * @index: index inside the domain set (0..7)
 * @set_first: flat index of domain 0 of this domain set
 * @set_count: number of domains in this domain set
 * @nr_signals: signals of the domain
 * @trailer_base: signal id of the trailer base
 * @base: GF100+: MMIO base of the domain registers
 * @clock_hz: clock of the domain
 * @rec_latency: record mode: cycles from forming a packet to its memory
 *	write completing (&nvpc_sim_params.record_latency, or _ns in this
 *	domain's cycles)
 * @period: ticks per cycle
 * @cycle: cycles processed so far
 * @lost_swaps: fault injection: swaps left to double
 * @keep_ctrs: fault injection: counters (bit per &enum nvpc_sim_ctr) a
 *	swap copies but does not clear: they keep counting across it
 * @no_swap: fault injection: swaps do nothing (no copy, no clear,
 *	QUAD_STATE not bumped): a swap that never lands
 * @hw: registers and counting state
 * @fa: the fast engine's plan (scratch, not state)
 * @sig: &enum nvpc_sim_sig_kind per signal id
 * @wave: waveform per signal id
 */
struct nvpc_sim_dom {
	u8 dset;
	u8 unit;
	u8 index;
	u16 set_first;
	u8 set_count;
	u16 nr_signals;
	u16 trailer_base;
	u32 base;
	u32 clock_hz;
	u32 rec_latency;
	u64 period;
	u64 cycle;
	u32 lost_swaps;
	u8 keep_ctrs;
	u8 no_swap;
	struct nvpc_sim_hw hw;
	struct nvpc_sim_fa_plan fa;
	u8 sig[NVPC_SIM_NR_SIGNALS];
	struct nvpc_sim_wave wave[NVPC_SIM_NR_SIGNALS];
};

/**
 * struct nvpc_sim - the simulated GPU
 * @chip: chip description
 * @gen: &enum nvpc_gen
 * @facts: nvpc_sim_facts[@gen]
 * @engine: the cycle engine
 * @nr_dom: instantiated domains
 * @nr_gpc: GF100+ GPCs
 * @nr_part: GF100+ partitions
 * @tick_hz: master clock
 * @now: current time in ticks
 * @ns_frac: nanoseconds advanced and not yet a whole tick, times tick_hz
 *	(the remainder of the last conversion, below 1e9)
 * @work: work units the engine has done (fast: chunks and plans;
 *	oracle: cycles), the unit of nvpc_sim_advance_bounded()'s budget
 * @cfg_gen: bumped by every change that may alter how a domain counts
 *	(register writes other than a quad-mode swap or ack, waveforms,
 *	PM_TRIGGER, reset): the fast engine's steady state is valid only
 *	within one generation
 * @lazy_gen: @cfg_gen when the fast engine last decoded which domains may
 *	be lazy (&nvpc_sim_fa_plan.lazy_config)
 * @record_latency: see &nvpc_sim_params
 * @record_latency_ns: see &nvpc_sim_params
 * @eager: see &nvpc_sim_params
 * @record_cycle: see &nvpc_sim_params
 * @pmc_enable: PMC.ENABLE
 * @ctrl_shared: NV10:NV40 shared CTRL (stored bits)
 * @gctrl: G84:GF100 GCTRL; GF100+ per set: @dset_ctrl
 * @dset_ctrl: GF100+ HUB/GPC/PART domain set control
 * @record_chan: RECORD_CHAN as written
 * @record_dma: RECORD_DMA as written
 * @record_dma_written: G84:GF100: RECORD_DMA was written since creation
 *	(sim_regs.c "DOC: record bind")
 * @record_bound: G84:GF100: a RECORD_CHAN write with VALID bound the
 *	channel and DMA object successfully (sim_regs.c "DOC: record bind")
 * @gf_main: GF100+ MAIN registers (stored; not the record registers)
 * @gf_rec: GF100+ the MAIN record buffer shared by every domain
 * @mem_write: record memory write callback
 * @mem_ctx: its context
 * @trace: access trace callback
 * @trace_ctx: its context
 * @all_ones: fault: all reads return 0xffffffff
 * @removed: fault: device removed
 * @nr_stuck: stuck register entries
 * @stuck_addr: stuck addresses
 * @stuck_val: their values
 * @stats: access statistics
 * @dom: the domains
 */
struct nvpc_sim {
	const struct nvpc_chip_desc *chip;
	u8 gen;
	const struct nvpc_sim_facts *facts;
	const struct nvpc_sim_engine *engine;
	u32 nr_dom;
	u8 nr_gpc;
	u8 nr_part;
	u64 tick_hz;
	u64 now;
	u64 ns_frac;
	u64 work;
	u64 cfg_gen;
	u64 lazy_gen;
	u32 record_latency;
	u32 record_latency_ns;
	bool eager;
	bool record_cycle;
	u32 pmc_enable;
	u32 ctrl_shared;
	u32 gctrl;
	u32 dset_ctrl[3];
	u32 record_chan;
	u32 record_dma;
	bool record_dma_written;
	bool record_bound;
	u32 gf_main[0x100 / 4];
	struct nvpc_sim_rbuf gf_rec;
	nvpc_sim_mem_write_t mem_write;
	void *mem_ctx;
	nvpc_sim_trace_t trace;
	void *trace_ctx;
	bool all_ones;
	bool removed;
	u8 nr_stuck;
	u32 stuck_addr[NVPC_SIM_MAX_STUCK];
	u32 stuck_val[NVPC_SIM_MAX_STUCK];
	struct nvpc_sim_stats stats;
	struct nvpc_sim_dom dom[];
};

/**
 * struct nvpc_sim_facts - what a generation's PCOUNTER has, as the model
 *	uses it: one row per &enum nvpc_gen (nvpc_sim_facts[], sim_model.c),
 *	looked up once into &nvpc_sim.facts
 * @max_dom: most domains of the one domain set NV10:GF100 have (NV10 1,
 *	NV20 2, NV40 8; GF100+ 0: hub/GPC/partition sets instead)
 * @flag_own_src: NV10:NV30: SETFLAG and CLRFLAG have SRC bytes of their
 *	own (6 SRC registers); from NV30 on they take PRE's and START's
 *	(pcounter.rst "Input selection")
 * @ctr40: NV10:NV30: 40-bit counters, bit 39 sticky; else 32-bit
 *	saturating (pcounter.rst "Counters")
 * @event_ctr_period: NV15+: EVENT_CTR_PERIOD (the EVENT counter is not
 *	cleared by START in single event mode)
 * @quad: NV30+: quad mode (QUAD_STATE, QUAD_ACK) and the SETFLAG argument
 *	of the EVENT and STOP ops
 * @shared_ctrl: NV10:NV40: one CTRL register for every domain
 * @pm_trigger: NV20:GF100: the PGRAPH PM_TRIGGER pulse reaches PCOUNTER
 * @pm_swap: NV30:G84: PM_TRIGGER is the quad-mode swap
 * @import_pulse: NV40+: FLAG/EVENT imports may be PULSE (edges)
 * @spec_src: G84+: SPEC_SRC, the swap source
 * @write_swap: G84:GF100: a PRE_OP write swaps in quad mode
 * @pre_op_start: NV10:GF100: a PRE_OP write starts single event mode
 * @record: G84+: record mode (CTRL MODE record, its registers)
 * @record_bind: G84:GF100: record packets go through the VM of a channel
 *	bound with RECORD_DMA and RECORD_CHAN (sim_regs.c "DOC: record bind")
 * @gctrl: G84:GF100: the global control register GCTRL
 * @periodic: G84+: the PERIODIC trailer signal and its CTRL period
 * @delayed_args: G92+: OP bits that replace ARG2/ARG3 by delayed SRC0/SRC1
 * @rec_addr_high: G92+: RECORD_ADDRESS_HIGH, bits 32+ of a packet address
 * @user: GT215+: the USER signals and USER_TRIGGER
 * @gf100_layout: GF100+: hub/GPC/partition domain sets with a control
 *	each, the GF100 register map and CTRL layout, one record buffer in
 *	the MAIN block, PCOUNTER gated by PMC.ENABLE
 */
struct nvpc_sim_facts {
	u8 max_dom;
	bool flag_own_src;
	bool ctr40;
	bool event_ctr_period;
	bool quad;
	bool shared_ctrl;
	bool pm_trigger;
	bool pm_swap;
	bool import_pulse;
	bool spec_src;
	bool write_swap;
	bool pre_op_start;
	bool record;
	bool record_bind;
	bool gctrl;
	bool periodic;
	bool delayed_args;
	bool rec_addr_high;
	bool user;
	bool gf100_layout;
};

extern const struct nvpc_sim_facts nvpc_sim_facts[NVPC_GEN_COUNT];

/* SRC registers of a domain: 6 on NV10:NV30, 4 from NV30 on */
static inline unsigned int nvpc_sim_nr_src(const struct nvpc_sim *sim)
{
	return sim->facts->flag_own_src ? NVPC_NR_INPUTS : 4;
}

/* helpers of sim_model.c and sim_regs.c used by both engines (state only) */
bool nvpc_sim_enabled(const struct nvpc_sim *sim);
u32 nvpc_sim_set_ctrl(const struct nvpc_sim *sim,
		      const struct nvpc_sim_dom *d);
u64 nvpc_sim_target(const struct nvpc_sim_dom *d, u64 until);
struct nvpc_sim_rbuf *nvpc_sim_rbuf(struct nvpc_sim *sim,
				    struct nvpc_sim_dom *d);
bool nvpc_sim_record_unbound(struct nvpc_sim *sim);
void nvpc_sim_hw_reset(struct nvpc_sim *sim);
void nvpc_sim_access_scope(const struct nvpc_sim *sim, u32 addr, bool write,
			   u32 val, unsigned int *first, unsigned int *count);
void nvpc_sim_catch_up_range(struct nvpc_sim *sim, unsigned int first,
			     unsigned int count);

/* record packets of sim_record.c, formed and written alike by both engines */
void nvpc_sim_record_form(struct nvpc_sim_dom *d, u64 cycle);
void nvpc_sim_record_write(struct nvpc_sim *sim, struct nvpc_sim_dom *d);

/* the history rings and the waveform generator of sim_wave.c, by words */
int nvpc_sim_hist_bit(const u64 *hist, u64 cycle);
void nvpc_sim_hist_set(u64 *hist, u64 cycle, int v);
u64 nvpc_sim_rand_key(u32 seed);
u64 nvpc_sim_rand_block(u64 key, u32 density, u64 q);
u64 nvpc_sim_periodic_runs(u32 pos, u32 period, u32 width, unsigned int n);

/* bits set in x (no libgcc call, no POPCNT needed) */
static inline unsigned int nvpc_sim_popcount(u64 x)
{
#ifdef __POPCNT__
	return __builtin_popcountll(x);
#else
	x -= (x >> 1) & 0x5555555555555555ULL;
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (x * 0x0101010101010101ULL) >> 56;
#endif
}

/* limits of the counters (pcounter.rst "Counters") */
static inline u64 nvpc_sim_ctr_add(u8 gen, u64 v, u64 a)
{
	u64 low, hi;

	if (!nvpc_sim_facts[gen].ctr40) {
		/* 32-bit saturating */
		v += a;
		return v > 0xffffffffULL ? 0xffffffffULL : v;
	}
	/* 40-bit: low 39 bits wrap, bit 39 sticky */
	low = (v & GENMASK_ULL(38, 0)) + a;
	hi = (v >> 39) | (low >> 39 ? 1 : 0);
	return (hi & 1) << 39 | (low & GENMASK_ULL(38, 0));
}

/*
 * pcounter.rst "Single event mode": a PRE_OP write's start clears the
 * counters but PRE and STOP, which take their initial values.
 */
static inline void nvpc_sim_single_start_ctrs(struct nvpc_sim_hw *hw)
{
	hw->ctr[NVPC_SIM_CTR_EVENT] = 0;
	hw->ctr[NVPC_SIM_CTR_START] = 0;
	hw->ctr[NVPC_SIM_CTR_CYCLES] = 0;
	hw->ctr[NVPC_SIM_CTR_CYCLES_ALT] = 0;
	hw->ctr[NVPC_SIM_CTR_PRE] = hw->pre_init;
	hw->ctr[NVPC_SIM_CTR_STOP] = hw->stop_init;
}

#endif /* _NVPC_SIM_INTERNAL_H */
