/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvpcounter sim: a register-level model of PCOUNTER written from
 * envytools' pcounter.rst and its later revision, and for GF100+ the
 * facts of nouveau's PM engine (nvkm/engine/pm).
 *
 * DOC: time and clocks
 *
 * Every domain d has a clock of f_d Hz. The sim keeps one global time T
 * counted in ticks of a master clock of tick_hz = lcm(f_0, f_1, ...) Hz, so
 * that one cycle of domain d lasts exactly p_d = tick_hz / f_d ticks: no
 * rounding, no drift. Cycle k of domain d starts at tick k * p_d. A cycle
 * is processed once time has passed its start: after the sim reached time
 * T, domain d has processed cycles 0 .. ceil(T / p_d) - 1. Processing is
 * in global start tick order (ties: lower flat domain index first).
 *
 *  - nvpc_sim_advance(sim, r, n): T += n * p_r. Domain r processes exactly
 *    n more cycles, every other domain the cycles that started meanwhile.
 *  - nvpc_sim_advance_ns(sim, ns): T += ns * tick_hz / 1e9, the fraction of
 *    a tick carried to the next call (no drift). As cycles start on whole
 *    ticks, each domain processes exactly the cycles that start before the
 *    exact rational time.
 *
 * tick_hz is at most NVPC_SIM_MAX_TICK_HZ (2^48: T lasts at least 18 hours
 * of simulated time); clocks whose lcm is larger are refused (-ERANGE), as
 * are advances that would overflow T (-EINVAL). The ratio of the slowest
 * to the fastest clock of a domain set is limited to
 * NVPC_SIM_MAX_CLOCK_RATIO, so that the synchroniser history fits.
 *
 * nvpc_sim_advance_bounded() goes as far towards a time as a budget of
 * engine work allows (the engine estimates its cost beforehand), so that
 * a caller holding a lock with interrupts off does bounded work whatever
 * the span and the clocks.
 *
 * Register accesses act "between cycles": a write is seen by the next cycle
 * of each domain (the "written this cycle" of the documents' pseudo-code),
 * and STATUS/SRC_STATUS read the signal values of that next cycle.
 *
 * Cross-domain imports (pcounter.rst "The EVENT and FLAG signals"): the
 * DOM[x] signal seen by domain y in its cycle k is, in CONTINUOUS mode, the
 * signal of x in x's cycle J(k) = floor((k - 2) * p_y / p_x) (the state
 * "as of two domain y clocks ago"; 0 for k < 2). In PULSE mode it is 1 iff
 * x had a 0-to-1 transition in one of its cycles J(k-1)+1 .. J(k).
 * The domain's own EVENT trailer signal is its EVENT input of the previous
 * cycle (the documents leave the combinational loop undefined; a register
 * stage breaks it). The FLAG signal of cycle k is the flag latch as updated
 * by cycle k - 2 (pcounter.rst "The flag": SETFLAG at X, FLAG at X+2).
 *
 * Lazy domains: a domain whose cycles change nothing that can be observed
 * but its cycle count and the state its own later cycles read (FLAG and
 * EVENT histories, last-cycle source values) does not run with the others:
 * its cycle count stays behind the model time. It is brought to the model
 * time, exactly as if it had run all along, before anything observes or
 * changes it (sim_sched.c "DOC: lazy domains" lists the conditions and the
 * observation points). nvpc_sim_cycles() and every register access see a
 * domain up to date; &struct nvpc_sim itself may hold lazy domains behind
 * until nvpc_sim_catch_up().
 *
 * Reads of absent or reserved addresses return NVPC_SIM_RD_ABSENT; writes
 * to them are dropped. Both are counted in &struct nvpc_sim_stats and
 * passed to the trace callback. Reads of write-only registers return 0.
 */
#ifndef _NVPC_SIM_MODEL_H
#define _NVPC_SIM_MODEL_H

#include <nvpcounter/compat.h>
#include <nvpcounter/chip.h>

/* Value read from absent/reserved addresses. */
#define NVPC_SIM_RD_ABSENT		0x00000000
/* Value read from GF100+ PCOUNTER while PMC.ENABLE bit 28 is clear. */
#define NVPC_SIM_RD_DISABLED		0xbadf5040
/* Value read from everything while the device is removed. */
#define NVPC_SIM_RD_REMOVED		0xffffffff

#define NVPC_SIM_MAX_CLOCK_RATIO	256
#define NVPC_SIM_MAX_TICK_HZ		BIT_ULL(48)
/* nvpc_sim_advance_bounded(): @dom for a span in nanoseconds */
#define NVPC_SIM_NS			(~0U)
#define NVPC_SIM_MAX_STUCK		8

struct nvpc_sim;
struct nvpc_sim_dom;

/**
 * enum nvpc_sim_wave_kind - kinds of signal source
 * @NVPC_SIM_WAVE_CONST: constant &nvpc_sim_wave.value (0 or 1)
 * @NVPC_SIM_WAVE_PERIODIC: 1 iff (cycle + phase) % period < width
 * @NVPC_SIM_WAVE_RANDOM: 1 iff r(seed, cycle) < density, r a pseudo-random
 *	16-bit value whose bit j is bit (cycle % 64) of hash(seed, cycle / 64,
 *	j) (sim_wave.c)
 */
enum nvpc_sim_wave_kind {
	NVPC_SIM_WAVE_CONST,
	NVPC_SIM_WAVE_PERIODIC,
	NVPC_SIM_WAVE_RANDOM,
};

/**
 * struct nvpc_sim_wave - waveform of one signal of one domain
 * @kind: &enum nvpc_sim_wave_kind
 * @value: CONST: the value
 * @period: PERIODIC: period in domain cycles, >= 1
 * @width: PERIODIC: cycles at 1 per period, <= @period
 * @phase: PERIODIC: phase offset in cycles
 * @seed: RANDOM: seed
 * @density: RANDOM: probability of a 1, in units of 1/65536 (0..65536)
 *
 * Every waveform is a pure function of the absolute domain cycle number,
 * which gives exact ground truth (nvpc_sim_truth()).
 */
struct nvpc_sim_wave {
	u8 kind;
	u8 value;
	u32 period;
	u32 width;
	u32 phase;
	u32 seed;
	u32 density;
};

/**
 * typedef nvpc_sim_mem_write_t - record-mode memory write
 * @ctx: caller's context
 * @gpu_va: 40-bit GPU virtual address of the packet
 * @buf: the packet
 * @len: 16 or 32 bytes
 *
 * Return: 0 on success, nonzero for a VM fault (wedges the domain).
 */
typedef int (*nvpc_sim_mem_write_t)(void *ctx, u64 gpu_va, const void *buf,
				    u32 len);

/**
 * typedef nvpc_sim_trace_t - register access trace
 * @ctx: caller's context
 * @addr: BAR0 address
 * @val: value read or written
 * @write: true for a write
 * @modelled: false if the address is absent or only stored
 */
typedef void (*nvpc_sim_trace_t)(void *ctx, u32 addr, u32 val, bool write,
				 bool modelled);

/**
 * struct nvpc_sim_engine - a cycle engine: the fast model or the oracle
 * @name: "fast" or "oracle"
 * @run: process every cycle that starts before the tick @until
 * @signal: value of signal @sig of flat domain @dom in its next cycle
 * @settle: perform now the quad-mode swaps of every domain's next cycle
 *	(see nvpc_sim_settle())
 * @land: write the outgoing packet of a domain now (see
 *	nvpc_sim_land_outgoing())
 * @cost_prepare: decode what @cost needs from the registers (before a
 *	series of @cost calls with no register access in between)
 * @cost: an upper estimate of the work units (&nvpc_sim.work) that @run
 *	to the tick @until would take (lazy domains, which @run skips, cost 0)
 * @catch_up: bring flat domain @dom to the model time if it is a lazy
 *	domain left behind (NULL: the engine has no lazy domains)
 * @catch_up_cost: after @cost_prepare, an upper estimate of the work of
 *	@catch_up of @dom once the model time is @until (0 if @dom is not
 *	lazy: @cost counts it); NULL with @catch_up
 */
struct nvpc_sim_engine {
	const char *name;
	void (*run)(struct nvpc_sim *sim, u64 until);
	int (*signal)(struct nvpc_sim *sim, unsigned int dom, unsigned int sig);
	void (*settle)(struct nvpc_sim *sim);
	void (*land)(struct nvpc_sim *sim, struct nvpc_sim_dom *d);
	void (*cost_prepare)(struct nvpc_sim *sim);
	u64 (*cost)(struct nvpc_sim *sim, u64 until);
	void (*catch_up)(struct nvpc_sim *sim, unsigned int dom);
	u64 (*catch_up_cost)(struct nvpc_sim *sim, unsigned int dom,
			     u64 until);
};

/* The bit-parallel model, used by the kernel backend. */
extern const struct nvpc_sim_engine nvpc_sim_engine_fast;
/* The naive per-cycle oracle (sim_oracle.c), linked only into tests. */
extern const struct nvpc_sim_engine nvpc_sim_engine_oracle;

/**
 * struct nvpc_sim_params - what to build
 * @chip: the chip description (see <nvpcounter/chip.h>)
 * @nr_gpc: GF100+: GPCs to instantiate (0: @chip's default)
 * @nr_part: GF100+: partitions to instantiate (0: @chip's default)
 * @record_latency: record mode: cycles from forming a packet to its memory
 *	write completing (0: the same cycle), in every domain
 * @record_latency_ns: if not 0, the latency is this many nanoseconds
 *	instead, in each domain's own cycles: floor(ns * clock / 10^9)
 * @engine: &nvpc_sim_engine_fast (default if NULL) or the oracle
 * @eager: no lazy domains: every run runs every domain (for comparisons;
 *	the counts are the same either way)
 * @record_cycle: the fast engine writes no record packet in closed form
 *	(for comparisons and the bench; the packets are the same either way)
 */
struct nvpc_sim_params {
	const struct nvpc_chip_desc *chip;
	u8 nr_gpc;
	u8 nr_part;
	u32 record_latency;
	u32 record_latency_ns;
	const struct nvpc_sim_engine *engine;
	bool eager;
	bool record_cycle;
};

/**
 * struct nvpc_sim_stats - access statistics
 * @absent_reads: reads of absent/reserved addresses
 * @absent_writes: writes to absent/reserved addresses (dropped)
 * @stored_accesses: accesses to registers that are only stored (the
 *	GF100+ MAIN block other than its record registers START,
 *	ADDRESS_HIGH, LIMIT, POS, COUNT; FILTER, ...) whose behaviour the
 *	documents do not give
 * @last_unmodelled: address of the last access counted above
 * @history_misses: synchroniser look-ups outside the kept history (a bug if
 *	nonzero)
 * @reads: all reads
 * @writes: all writes
 * @unbound_faults: G84:GF100 record packets that faulted because no
 *	channel and DMA object were bound (sim_regs.c "DOC: record bind");
 *	the memory write callback is not called for them
 * @record_cycle_packets: record packets the fast engine wrote cycle by
 *	cycle (and every packet of the oracle)
 * @record_fast_packets: record packets the fast engine wrote in closed
 *	form (sim_record_cf.c "DOC: record mode in closed form")
 * @record_fast_runs: runs of a domain that wrote packets in closed form
 * @record_last_fast: the last run of a record-mode domain that wrote
 *	packets wrote some in closed form
 */
struct nvpc_sim_stats {
	u64 absent_reads;
	u64 absent_writes;
	u64 stored_accesses;
	u32 last_unmodelled;
	u64 history_misses;
	u64 reads;
	u64 writes;
	u64 unbound_faults;
	u64 record_cycle_packets;
	u64 record_fast_packets;
	u64 record_fast_runs;
	bool record_last_fast;
};

size_t nvpc_sim_size(const struct nvpc_sim_params *p);
int nvpc_sim_init(struct nvpc_sim *sim, size_t size,
		  const struct nvpc_sim_params *p);

u32 nvpc_sim_rd32(struct nvpc_sim *sim, u32 addr);
void nvpc_sim_wr32(struct nvpc_sim *sim, u32 addr, u32 val);

int nvpc_sim_advance(struct nvpc_sim *sim, unsigned int dom, u64 cycles);

/**
 * nvpc_sim_settle() - perform the pending swaps at the cycle boundary
 * @sim: the sim
 *
 * A write acts on the next cycle of each domain, so in manual clock mode a
 * swap trigger (PM_TRIGGER [NV30:G84], SPEC_SRC signal or PRE_OP write
 * [G84:GF100], SWAP_SRC signal such as a USER_TRIGGER pulse [GF100-]) is
 * not visible until time advances. This performs now, in every quad-mode
 * domain, the swap that its next cycle would perform first (pcounter.rst
 * "Quad event mode": the swap happens before that cycle's counting):
 * shadow counters to the visible ones, shadow cleared, QUAD_STATE bumped
 * EMPTY->VALID->OVERFLOW. The swap is marked done: the next cycle does not
 * swap again, but still sees the trigger signal (USER_n, PM_TRIGGER ...)
 * as its input, so the counts are partitioned exactly as without the
 * settle. A new trigger write (PRE_OP [G84:GF100], PGRAPH PM_TRIGGER,
 * USER_TRIGGER) after a settle is a new swap: it swaps again, an empty
 * shadow (visible counters 0) if no cycle ran in between. Otherwise
 * idempotent; a SPEC_SRC/SWAP_SRC write only selects the source.
 */
void nvpc_sim_settle(struct nvpc_sim *sim);

/**
 * nvpc_sim_land_outgoing() - complete the writes still outgoing from
 *	domains that left record mode
 * @sim: the sim
 *
 * A packet formed in record mode is written its latency later, also when
 * the domain left record mode meanwhile (&nvpc_sim_params.record_latency).
 * This writes such packets now, at the model's time, for a backend whose
 * model lags the wall clock by more than the latency: their writes are
 * due in the wall time already gone. Packets of domains still in record
 * mode keep their completion cycle.
 */
void nvpc_sim_land_outgoing(struct nvpc_sim *sim);
int nvpc_sim_advance_ns(struct nvpc_sim *sim, u64 ns);
int nvpc_sim_advance_bounded(struct nvpc_sim *sim, unsigned int dom, u64 *n,
			     u64 budget);
int nvpc_sim_advance_within(struct nvpc_sim *sim, unsigned int dom, u64 n,
			    u64 budget);
int nvpc_sim_advance_access(struct nvpc_sim *sim, u64 ns, u64 budget,
			    u32 addr, bool write, u32 val);
void nvpc_sim_catch_up(struct nvpc_sim *sim);
u64 nvpc_sim_work(const struct nvpc_sim *sim);
u64 nvpc_sim_cycles(struct nvpc_sim *sim, unsigned int dom);
u64 nvpc_sim_tick_hz(const struct nvpc_sim *sim);
u32 nvpc_sim_clock_hz(const struct nvpc_sim *sim, unsigned int dom);

unsigned int nvpc_sim_nr_domains(const struct nvpc_sim *sim);
int nvpc_sim_domain_find(const struct nvpc_sim *sim, enum nvpc_dset dset,
			 unsigned int unit, unsigned int index);

bool nvpc_sim_sig_has_wave(const struct nvpc_sim *sim, unsigned int dom,
			   unsigned int sig);
int nvpc_sim_set_wave(struct nvpc_sim *sim, unsigned int dom,
		      unsigned int sig, const struct nvpc_sim_wave *w);
u64 nvpc_sim_truth(const struct nvpc_sim *sim, unsigned int dom,
		   unsigned int sig, u64 from, u64 to);
int nvpc_sim_wave_bit(const struct nvpc_sim_wave *w, u64 cycle);
u64 nvpc_sim_wave_word(const struct nvpc_sim_wave *w, u64 cycle,
		       unsigned int n);

void nvpc_sim_pm_trigger(struct nvpc_sim *sim);
u32 nvpc_sim_user_signals(const struct nvpc_sim *sim, unsigned int dom);

void nvpc_sim_set_mem_write(struct nvpc_sim *sim, nvpc_sim_mem_write_t fn,
			    void *ctx);
void nvpc_sim_set_trace(struct nvpc_sim *sim, nvpc_sim_trace_t fn, void *ctx);
void nvpc_sim_set_record_latency(struct nvpc_sim *sim, u32 cycles);
void nvpc_sim_set_record_latency_ns(struct nvpc_sim *sim, u32 ns);
u32 nvpc_sim_record_latency(const struct nvpc_sim *sim, unsigned int dom);
void nvpc_sim_get_stats(const struct nvpc_sim *sim,
			struct nvpc_sim_stats *st);

void nvpc_sim_fault_record(struct nvpc_sim *sim, unsigned int dom);
void nvpc_sim_fault_lost_swaps(struct nvpc_sim *sim, unsigned int dom,
			       u32 count);
int nvpc_sim_ctr_mask(const char *name);
void nvpc_sim_fault_keep(struct nvpc_sim *sim, unsigned int dom, u8 ctrs);
void nvpc_sim_fault_no_swap(struct nvpc_sim *sim, unsigned int dom, bool on);
int nvpc_sim_fault_stuck(struct nvpc_sim *sim, u32 addr, u32 val);
void nvpc_sim_fault_clear_stuck(struct nvpc_sim *sim);
void nvpc_sim_fault_all_ones(struct nvpc_sim *sim, bool on);
void nvpc_sim_fault_removed(struct nvpc_sim *sim, bool on);

#endif /* _NVPC_SIM_MODEL_H */
