/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvpcounter core internals shared by the registry, the perf glue, the
 * domain engine and the generation ops.
 */
#ifndef _NVPC_CORE_H
#define _NVPC_CORE_H

#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <linux/perf_event.h>
#include <linux/spinlock.h>

#include <nvpcounter/catalog.h>
#include <nvpcounter/device.h>
#include <nvpcounter/regs.h>
#include <uapi/linux/nvpcounter.h>

/* dev_dbg() on the GPU's device: every rejection names its reason */
#define nvpc_dbg(core, fmt, ...) \
	dev_dbg((core)->dev, fmt, ##__VA_ARGS__)

/* event->hw.flags: added, not yet committed to the hardware */
#define NVPC_HW_FRESH		BIT(0)
/*
 * event->hw.flags: deleted, its last counts are folded in at the commit
 * (quad mode: the commit's one swap ends the period of every event leaving
 * and starts the one of every event arriving)
 */
#define NVPC_HW_LEAVING		BIT(1)
/* event->hw.flags: one unit of a unit sum (struct nvpc_unit, units.c) */
#define NVPC_HW_UNIT		BIT(2)

/* event->hw.idx of an event added after its GPU went away: no counter */
#define NVPC_IDX_DETACHED	(-1)

/*
 * The perf ABI's slots are the hardware's inputs, numbered as the SRC/OP
 * register pairs (pcounter.rst, Input selection), and its counter modes
 * are the CTR_MODE values (Control registers): the engine and the
 * generation ops use one for the other.
 */
static_assert(NVPC_SLOT_PRE == NVPC_INPUT_PRE);
static_assert(NVPC_SLOT_START == NVPC_INPUT_START);
static_assert(NVPC_SLOT_EVENT == NVPC_INPUT_EVENT);
static_assert(NVPC_SLOT_STOP == NVPC_INPUT_STOP);
static_assert(NVPC_MODE_SIMPLE == NVPC_CTR_MODE_SIMPLE);
static_assert(NVPC_MODE_EVENT_B4 == NVPC_CTR_MODE_EVENT_B4);
static_assert(NVPC_MODE_EVENT_B6 == NVPC_CTR_MODE_EVENT_B6);
static_assert(NVPC_MODE_EXTRA_B4 == NVPC_CTR_MODE_EXTRA_B4);
static_assert(NVPC_MODE_EXTRA_B6 == NVPC_CTR_MODE_EXTRA_B6_EVENT_B2);

/* the counters read per domain: the four slots and CTR_CYCLES */
#define NVPC_CTR_CYCLES		NVPC_NR_SLOTS
#define NVPC_NR_CTRS		(NVPC_NR_SLOTS + 1)

extern struct dentry *nvpc_debugfs_root;
struct nvpc_core;

/**
 * struct nvpc_slots - what occupies a domain's four inputs
 * @ev: the event claiming each slot, or NULL
 * @mode: the counter mode the domain's events need (NVPC_MODE_*)
 *
 * The live tables and group validation's throwaway copies have this same
 * shape, so that one allocator serves both.
 */
struct nvpc_slots {
	struct perf_event *ev[NVPC_NR_SLOTS];
	u8 mode;
};

/**
 * struct nvpc_single_prog - a single event mode program (pcounter.rst
 *	"Single event mode")
 * @src: PRE_SRC, START_SRC, EVENT_SRC, STOP_SRC
 * @op: the four _OP values; PRE_OP is written last and starts the process
 * @pre: CTR_PRE initial value: @pre + 1 PRE pulses before START counts
 * @stop: CTR_STOP initial value: @stop + 1 counting periods
 * @threshold: THRESHOLD
 * @event_all: CTRL EVENT_CTR_PERIOD = ALL (CTR_EVENT sums every period)
 */
struct nvpc_single_prog {
	u32 src[NVPC_NR_SLOTS];
	u32 op[NVPC_NR_SLOTS];
	u32 pre;
	u32 stop;
	u32 threshold;
	bool event_all;
};

/**
 * struct nvpc_single_ctrs - a single event mode process as read
 * @event: CTR_EVENT (40 bits on NV10:NV30, else 32)
 * @start: CTR_START (periods that ended with CTR_EVENT >= THRESHOLD; 40
 *	bits on NV10:NV30)
 * @pre: CTR_PRE (PRE pulses still wanted, while WAIT_FOR_PRE)
 * @stop: CTR_STOP (periods left after the current one)
 * @state: SINGLE_STATE (NVPC_SINGLE_*)
 */
struct nvpc_single_ctrs {
	u64 event;
	u64 start;
	u32 pre;
	u32 stop;
	u8 state;
};

/**
 * struct nvpc_window - a domain's single event mode program (window.c)
 * @on: the hardware runs it
 * @thr: the EVENT input counts periods that reached THRESHOLD (ONE)
 * @endless: 0 periods: restarted before a counter could saturate
 * @pre_live: the running process counts PRE pulses (a restart after its
 *	PRE pulses were seen takes PRE as always true and counts none)
 * @pending: no read has seen the last start land yet
 * @done: a restart found the process at its end (its last window cut):
 *	nothing runs, nothing more is folded
 * @old: the process as read just before that start
 * @seen: the process as read at the last sample
 * @prog: the registers of the program its members describe
 * @cur: the registers of the process running (@prog, or a restart's)
 * @last: the live values (NVPC_SLOT_* order) at the last sample
 */
struct nvpc_window {
	bool on;
	bool thr;
	bool endless;
	bool pre_live;
	bool pending;
	bool done;
	struct nvpc_single_ctrs old;
	struct nvpc_single_ctrs seen;
	struct nvpc_single_prog prog;
	struct nvpc_single_prog cur;
	u64 last[NVPC_NR_SLOTS];
};

/**
 * struct nvpc_domain - one counter domain as the engine runs it
 * @desc: the catalogue's description
 * @name: the domain's one name, in sysfs, the log and the sim's debugfs:
 *	"main.I" (before GF100), "hub.I", "gpcG.I" or "partP.I"
 * @dset: NVPC_DSET_ID_* of the domain's set
 * @unit: GPC or partition number (0 for hub/main domains)
 * @index: domain index inside its set
 * @base: GF100+: MMIO base of the domain's registers
 * @slots: the domain's live slot table (in &nvpc_core.slots)
 * @src: shadow of the four _SRC registers
 * @op: shadow of the four _OP registers
 * @hw_src: the _SRC values last written to the hardware
 * @hw_op: the _OP values last written to the hardware
 * @ctr_mode: the counter mode programmed (NVPC_MODE_* = CTR_MODE value)
 * @nr_cycles: events counting this domain's cycles
 * @dirty: slots whose registers wait for the transaction's commit
 * @dirty_mode: the domain's mode or running state waits for the commit
 * @acc: 64-bit accumulated counts of the four slots and CTR_CYCLES
 * @last: single-event program: the live counters at the last sample
 * @restarts: @single generations: restarts of the counting process,
 *	numbered in CTR_STOP
 * @sample_ns: when the domain was last sampled
 * @sampled_txn: the number of the commit closing the transaction in which
 *	the domain was last sampled (0: outside one): one sample serves
 *	every del of a transaction
 * @commit_seq: the number of the commit that last ended the domain's
 *	period for its new events
 * @clock_hz: the clock measured from CTR_CYCLES over at least a second of
 *	counting, 0 until measured
 * @period_hz: the clock measured over the last sample period
 * @clock_win_ns: start of the current clock measurement window (0: none)
 * @clock_win_cycles: cycles counted in it
 * @samples: periods read
 * @lost_periods: swaps seen in OVERFLOW state: counts lost for a period
 * @saturations: counter readings at their saturation value, left out of
 *	the sums
 * @stragglers: samples in which the domain's swap had not landed at its
 *	first poll (polled again within the sample's NVPC_SWAP_POLLS)
 * @not_responding: swaps that never showed up in QUAD_STATE
 * @running: the domain runs the engine's program
 * @leaving: counters (BIT(hw.idx)) of events deleted since the last
 *	commit, read at the commit
 * @swapped: a sample or the commit swapped the domain and has not read
 *	it yet
 * @nr_events: counting events initialised on the domain (a record event
 *	excludes them, and they it)
 * @nr_window: those of them in single event mode (window.c): they and
 *	quad-mode counting events exclude each other
 * @win: the single event mode program the domain runs (window.c)
 * @win_restarts: single event processes restarted: an endless one
 *	before a counter could saturate, any one after a write of the
 *	shared CTRL (NV10:NV40) for another domain aborted it
 * @win_cuts: those restarts that had to end a window early
 * @rec: the domain's record event's session, NULL if none
 * @rec_state: NVPC_REC_* (sysfs record_state)
 * @rec_packets: record packets published into AUX areas
 * @rec_gaps: record restarts that lost counts (window top, consumer too
 *	slow)
 * @rec_stalls: times the hardware stopped because the AUX area was full
 * @rec_faults: VM faults of record packet writes
 */
struct nvpc_domain {
	const struct nvpc_domain_desc *desc;
	char name[16];
	u8 dset;
	u8 unit;
	u8 index;
	u32 base;
	struct nvpc_slots *slots;
	u32 src[NVPC_NR_SLOTS];
	u32 op[NVPC_NR_SLOTS];
	u32 hw_src[NVPC_NR_SLOTS];
	u32 hw_op[NVPC_NR_SLOTS];
	u8 ctr_mode;
	unsigned int nr_cycles;
	u8 dirty;
	bool dirty_mode;
	u64 acc[NVPC_NR_CTRS];
	u64 last[NVPC_NR_CTRS];
	u32 restarts;
	u64 sample_ns;
	u64 sampled_txn;
	u64 commit_seq;
	u64 clock_hz;
	u64 period_hz;
	u64 clock_win_ns;
	u64 clock_win_cycles;
	u64 samples;
	u64 lost_periods;
	u64 saturations;
	u64 stragglers;
	u64 not_responding;
	bool running;
	u8 leaving;
	bool swapped;
	unsigned int nr_events;
	unsigned int nr_window;
	struct nvpc_window win;
	u64 win_restarts;
	u64 win_cuts;
	struct nvpc_record *rec;
	u8 rec_state;
	u64 rec_packets;
	u64 rec_gaps;
	u64 rec_stalls;
	u64 rec_faults;
};

/* &nvpc_domain.rec_state */
enum nvpc_rec_state {
	NVPC_REC_IDLE,
	NVPC_REC_RECORDING,
	NVPC_REC_STALLED,
	NVPC_REC_FAULTED,
	NVPC_REC_GONE,
};

/**
 * struct nvpc_record_prog - the registers of a record session
 *	(pcounter.rst "Record mode setup")
 * @src: PRE_SRC, START_SRC, EVENT_SRC (arguments 0-3 of each: the
 *	signals of record counters 0-11) and STOP_SRC
 * @stop_op: STOP_OP
 * @periodic: CTRL PERIODIC_PERIOD (0 off)
 * @periodic_stop: STOP is the PERIODIC signal: the packet rate is known
 * @short_fmt: 16-byte packets (CTRL RECORD_FORMAT)
 * @pkt: the packet size, 16 or 32
 * @chan: RECORD_CHAN channel of the bind
 * @dma: RECORD_DMA object of the bind
 * @addr_high: RECORD_ADDRESS_HIGH (G92+)
 * @start: RECORD_START
 * @limit: RECORD_LIMIT
 */
struct nvpc_record_prog {
	u32 src[NVPC_NR_SLOTS];
	u32 stop_op;
	u8 periodic;
	bool periodic_stop;
	bool short_fmt;
	u32 pkt;
	u32 chan;
	u32 dma;
	u32 addr_high;
	u32 start;
	u32 limit;
};

/**
 * struct nvpc_rec_buf - an AUX area as the GPU sees it
 * @core: the GPU
 * @dom: the domain whose window maps it
 * @va: GPU virtual address of the window
 * @window: the window's size: the AUX pages repeat across it
 * @size: the AUX area's size (a power of 2)
 * @mapped: the GPU mapping is in place (under &nvpc_core.lock)
 * @owner: the session of the record event that mapped it, while that
 *	event lives (under &nvpc_core.lock)
 * @node: in &nvpc_core.rec_bufs
 */
struct nvpc_rec_buf {
	struct nvpc_core *core;
	struct nvpc_domain *dom;
	struct nvpc_record *owner;
	u64 va;
	u64 window;
	u64 size;
	bool mapped;
	struct list_head node;
};

/**
 * struct nvpc_record - a record event's session state (record.c)
 * @core: the GPU
 * @dom: the domain it owns
 * @event: the record event
 * @prog: its registers
 * @handle: the open AUX handle while @active
 * @timer: the drain
 * @buf: the AUX area of the session
 * @active: a session runs (a handle is open); under &nvpc_core.lock
 * @parked: deleted inside a perf transaction with the hardware left
 *	running and the handle open: an add in the same transaction takes
 *	the session back, the transaction's end halts it
 * @hw_on: the domain is in record mode for this session (counts in
 *	&nvpc_core.nr_rec_hw)
 * @stalled: the AUX area was full: the hardware waits at LIMIT until
 *	the consumer frees room; under &nvpc_core.lock
 * @gap: the next published data follows a restart (PERF_AUX_FLAG_PARTIAL)
 * @sessions: sessions started
 * @owned: AUX areas the event mapped itself (under &nvpc_core.lock): only
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
 * @moved_ns: when the position last moved (watchdog)
 */
struct nvpc_record {
	struct nvpc_core *core;
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
};

/* &nvpc_gen_ops.record: how a generation records */
enum nvpc_rec_kind {
	NVPC_REC_NONE,
	NVPC_REC_LOW4G,		/* G84:G92: per domain, 32-bit addresses */
	NVPC_REC_DOMAIN,	/* G92:GF100: per domain, ADDRESS_HIGH */
	NVPC_REC_MAIN,		/* GF100+: one MAIN buffer for all domains */
};

/* a domain's counting mode as sysfs shows it */
#define NVPC_DOM_MODE_HALTED	0
#define NVPC_DOM_MODE_SINGLE	1
#define NVPC_DOM_MODE_QUAD	2
#define NVPC_DOM_MODE_RECORD	3

/* STATUS words of a domain: one bit per signal id (256 signals) */
#define NVPC_NR_STATUS		8

/**
 * struct nvpc_domain_state - a domain's control state read from CTRL
 * @mode: NVPC_DOM_MODE_*
 * @ctr_mode: the CTR_MODE field (NVPC_MODE_* values)
 * @single: SINGLE_STATE (NVPC_SINGLE_*)
 * @quad: QUAD_STATE (NVPC_QUAD_*)
 */
struct nvpc_domain_state {
	u8 mode;
	u8 ctr_mode;
	u8 single;
	u8 quad;
};

/**
 * struct nvpc_reg_range - registers at absolute BAR0 addresses
 * @start: the first
 * @end: the first address after the range
 * @name: what the range holds, for the log (may be NULL)
 */
struct nvpc_reg_range {
	u32 start;
	u32 end;
	const char *name;
};

/* the ranges of &nvpc_gen_ops.windows */
#define NVPC_GEN_NR_WINDOWS	2

/**
 * struct nvpc_gen_ops - what differs between hardware generations
 * @name: generation name
 * @opbits: the _OP bits 16-20 this generation implements, per slot
 * @slots: the slots the engine's program counts (bit per NVPC_SLOT_*)
 * @modes: the counter modes the generation has (bit per NVPC_MODE_*)
 * @single: no quad mode: the engine runs a continuous single-event
 *	program and reads live counters (NV10:NV30)
 * @live_bits: @single: width of the part of a live counter that wraps
 * @shared_ctrl: one CTRL register (and counter mode) for all domains
 *	(NV10:NV40)
 * @global_swap: one swap trigger serves every domain (PGRAPH PM_TRIGGER)
 * @unit_sets: the domains are in a hub set, one set per GPC and one per
 *	memory partition (GF100+); else in the one MAIN set
 * @pmc_enable: PCOUNTER is held in reset while PMC.ENABLE bit 28 is clear
 *	(GF100+)
 * @windows: every register the ops access is in these ranges (a backend
 *	that maps ranges of BAR0 maps them); unused entries are zero
 * @setup: per-domain set-up at registration (e.g. GF100 base address)
 * @start: put a domain in the engine's counting mode and clear its state
 * @stop: take a domain out of counting
 * @program: write a slot's _SRC and _OP registers from the shadows; on
 *	@single generations this restarts the domain's counting process
 * @trigger_swap: make the domain's counters visible (may swap every domain if
 *	@global_swap)
 * @read: read the counters in @used (bits NVPC_SLOT_*, NVPC_CTR_CYCLES);
 *	returns QUAD_STATE (@single: NVPC_QUAD_VALID, or NVPC_QUAD_EMPTY
 *	while a restart has not landed)
 * @ack: acknowledge one counter set
 * @state: decode the domain's CTRL
 * @status_reg: the address of the domain's STATUS word @j (signals
 *	32 * @j to 32 * @j + 31), @j < NVPC_NR_STATUS
 * @dump_range: the generation's PCOUNTER registers, as the debugfs regs
 *	file shows them: fills @r with range @n (16-byte aligned), counting
 *	from 0; false past the last
 * @record: NVPC_REC_*: record mode and where its buffer is
 * @record_bind: bind the channel and DMA object of the record buffer
 *	(global for all domains: once per GPU while any domain records)
 * @record_setup: program a domain for record mode, in the documented
 *	order (addresses, sources, LIMIT, CTRL, then START)
 * @record_restart: write LIMIT then START (resets the record counters)
 * @record_limit: write LIMIT
 * @record_status: RECORD_STATUS (MAIN POS): position, FAULT bit 0
 * @single_start: put a domain in single event mode and start @p's
 *	process (its PRE_OP last); NULL: the generation has no single event
 *	mode events (window.c)
 * @single_read: read a single event mode process
 */
struct nvpc_gen_ops {
	const char *name;
	u32 opbits[NVPC_NR_SLOTS];
	u8 slots;
	u8 modes;
	bool single;
	u8 live_bits;
	bool shared_ctrl;
	bool global_swap;
	bool unit_sets;
	bool pmc_enable;
	struct nvpc_reg_range windows[NVPC_GEN_NR_WINDOWS];
	void (*setup)(struct nvpc_core *core, struct nvpc_domain *dom);
	void (*start)(struct nvpc_core *core, struct nvpc_domain *dom);
	void (*stop)(struct nvpc_core *core, struct nvpc_domain *dom);
	void (*program)(struct nvpc_core *core, struct nvpc_domain *dom,
			unsigned int slot);
	void (*trigger_swap)(struct nvpc_core *core, struct nvpc_domain *dom);
	u32 (*read)(struct nvpc_core *core, struct nvpc_domain *dom,
		    unsigned long used, u64 ctr[NVPC_NR_CTRS]);
	void (*ack)(struct nvpc_core *core, struct nvpc_domain *dom);
	void (*state)(struct nvpc_core *core, struct nvpc_domain *dom,
		      struct nvpc_domain_state *st);
	u32 (*status_reg)(const struct nvpc_domain *dom, unsigned int j);
	bool (*dump_range)(struct nvpc_core *core, unsigned int n,
			   struct nvpc_reg_range *r);
	u8 record;
	void (*record_bind)(struct nvpc_core *core,
			    const struct nvpc_record_prog *p);
	void (*record_setup)(struct nvpc_core *core, struct nvpc_domain *dom,
			     const struct nvpc_record_prog *p);
	void (*record_restart)(struct nvpc_core *core, struct nvpc_domain *dom,
			       const struct nvpc_record_prog *p);
	void (*record_limit)(struct nvpc_core *core, struct nvpc_domain *dom,
			     u32 limit);
	u32 (*record_status)(struct nvpc_core *core, struct nvpc_domain *dom);
	void (*single_start)(struct nvpc_core *core, struct nvpc_domain *dom,
			     const struct nvpc_single_prog *p);
	void (*single_read)(struct nvpc_core *core, struct nvpc_domain *dom,
			    struct nvpc_single_ctrs *c);
};

/*
 * The _OP bits 16-20 a generation implements (pcounter.rst, Input
 * selection), for PRE/START (PS) and for EVENT/STOP (ES): the delay bits
 * everywhere, SETFLAG as argument 3 of EVENT/STOP from NV30 on, the
 * delayed-source replace bits from G92 on.
 */
#define NVPC_OPBITS_NV10	(NVPC_OP_DELAY0 | NVPC_OP_DELAY1)
#define NVPC_OPBITS_NV30_ES	(NVPC_OPBITS_NV10 | NVPC_OP_ES_ARG3_SETFLAG)
#define NVPC_OPBITS_G92_PS	(NVPC_OPBITS_NV10 | \
				 NVPC_OP_ARG2_DELAYED_SRC0 | \
				 NVPC_OP_ARG3_DELAYED_SRC1)
#define NVPC_OPBITS_G92_ES	(NVPC_OPBITS_NV30_ES | \
				 NVPC_OP_ES_ARG2_DELAYED_SRC0 | \
				 NVPC_OP_ES_ARG3_DELAYED_SRC1)

/* &nvpc_gen_ops.windows: the PCOUNTER window of NV10:GF100 and the swap trigger of NV30:G84 */
#define NVPC_NV10_WINDOW	{ NVPC_NV10_MMIO_START, NVPC_NV10_MMIO_END, \
				  "PCOUNTER" }
#define NVPC_PM_TRIGGER_WINDOW	{ NVPC_PGRAPH_PM_TRIGGER, \
				  NVPC_PGRAPH_PM_TRIGGER + 4, \
				  "PGRAPH.PM_TRIGGER" }

extern const struct nvpc_gen_ops nvpc_gen_nv10;
extern const struct nvpc_gen_ops nvpc_gen_nv30;
extern const struct nvpc_gen_ops nvpc_gen_nv40;
extern const struct nvpc_gen_ops nvpc_gen_g84;
extern const struct nvpc_gen_ops nvpc_gen_g92;
extern const struct nvpc_gen_ops nvpc_gen_gf100;

const struct nvpc_gen_ops *nvpc_gen_ops_of(const struct nvpc_chip_desc *chip);
void nvpc_gen_read_ctrs(struct nvpc_core *core, const u32 reg[NVPC_NR_CTRS],
			u32 offset, unsigned long used, u64 ctr[NVPC_NR_CTRS]);
void nvpc_gen_read_status(struct nvpc_core *core, struct nvpc_domain *dom,
			  u32 st[NVPC_NR_STATUS]);
void nvpc_nv30_trigger_swap(struct nvpc_core *core, struct nvpc_domain *dom);

/**
 * struct nvpc_core - the core's state for one registered GPU
 * @ndev: the backend's device; not touched once @gone is set
 * @dev: reference on the backend's struct device, for dev_dbg() while
 *	events outlive @ndev
 * @chip: the chip (catalogue data, lives as long as the module)
 * @bus_id: copy of &nvpc_device.bus_id
 * @refs: the registry's reference plus one per open event (taken under
 *	@active_lock while not @gone)
 * @release_work: unregisters the PMU and frees everything after the last
 *	event's reference, outside perf's event teardown
 * @node: entry in the registry list, or in the graveyard once released
 * @id: registry index: PMU "nvpcounter" for 0, "nvpcounter_<id>" otherwise
 * @name: the PMU name
 * @gone: set once the hardware vanished or was unregistered: no more
 *	register access, no new events
 * @active_lock: serialises @nr_open and the backend's active_get/put
 * @nr_open: open events (initialised, not yet destroyed)
 * @active_held: the backend's active_get() is held
 * @pmu_registered: nvpc_pmu_register() succeeded (undone at release)
 * @pmu_live: perf_pmu_register() has returned: events may open
 * @debugfs: the device's debugfs directory
 * @gen: the generation's ops, NULL if counting is not supported
 * @lock: serialises the engine and the register sequences; @gone is set
 *	under it when the device is unregistered. A raw lock taken in perf
 *	callbacks with interrupts off (also on PREEMPT_RT), so every hold is
 *	bounded by a count of register accesses, whatever one access costs.
 *	A poll of a domain is one read pass (at most 5 counters and
 *	QUAD_STATE) and an ack or two: at most 8 accesses. A sample swaps
 *	one domain, or every domain of a @gen->global_swap generation (at
 *	most 8) with one pulse, polls each swapped domain once and its
 *	stragglers NVPC_SWAP_POLLS more times in all: one domain at most
 *	1 + 9 * 8 = 73 accesses, a global swap at most 1 + (8 + 8) * 8 =
 *	129 (it was 8 polls per domain, up to 64 read passes). A commit
 *	programs the domains a perf transaction changed (at most 12 writes
 *	each), swaps them and collects them the same way, then samples the
 *	domains of its new events once each. The poll takes it once per
 *	domain per tick (once per tick in all for a @gen->global_swap
 *	generation), and never waits for a straggler beyond its polls.
 * @domains: every domain of the GPU
 * @slots: the live slot tables, one per domain
 * @ctrl: @gen->shared_ctrl: shadow of the shared CTRL register
 * @nr_domains: entries in @domains
 * @nr_active: events added (counting) on the GPU, each unit of a unit
 *	sum one event
 * @nr_unit_extra: the units of unit sums added beyond each sum's first:
 *	@nr_active less these is the perf events counting
 * @txn: depth of open perf transactions (pmu_disable without pmu_enable)
 * @fresh: events added since the last commit (linked by active_entry)
 * @leaving: events deleted since the last commit whose last counts the
 *	commit folds in (quad mode; linked by active_entry)
 * @txn_seq: commits so far; an event deleted inside a transaction is
 *	tagged (hw.last_tag) with the number of the commit that closes it
 * @poll_work: the poll, queued while @nr_active > 0 and not @gone
 * @poll_ns: poll period
 * @cpu: the CPU events are counted on
 * @cpuhp_node: CPU hotplug instance
 * @pmu: the perf PMU
 * @attr_groups: the PMU's sysfs attribute groups
 * @events_group: the events/ group, built per chip
 * @events_attr_mem: storage of the events/ attributes
 * @domains_kobj: the PMU's domains/ directory
 * @domain_kobjs: the directories in it, one per domain
 * @rec_bufs: AUX areas mapped for the GPU (under @lock)
 * @nr_rec_hw: domains in record mode; the record buffer is bound while
 *	there is one (under @lock)
 * @rec_max_pages: the most AUX pages the backend maps (0: no record_map)
 */
struct nvpc_core {
	struct nvpc_device *ndev;
	struct device *dev;
	const struct nvpc_chip_desc *chip;
	char bus_id[32];
	struct kref refs;
	struct work_struct release_work;
	struct list_head node;
	int id;
	char name[32];
	bool gone;
	struct mutex active_lock;	/* see @active_lock above */
	unsigned int nr_open;
	bool active_held;
	bool pmu_registered;
	bool pmu_live;
	struct dentry *debugfs;
	const struct nvpc_gen_ops *gen;
	raw_spinlock_t lock;
	struct nvpc_domain *domains;
	struct nvpc_slots *slots;
	u32 ctrl;
	unsigned int nr_domains;
	unsigned int nr_active;
	unsigned int nr_unit_extra;
	unsigned int txn;
	struct list_head fresh;
	struct list_head leaving;
	u64 txn_seq;
	struct delayed_work poll_work;
	u64 poll_ns;
	int cpu;
	struct hlist_node cpuhp_node;
	struct pmu pmu;
	const struct attribute_group *attr_groups[5];
	struct attribute_group events_group;
	struct perf_pmu_events_attr *events_attr_mem;
	struct kobject *domains_kobj;
	struct kobject **domain_kobjs;
	struct list_head rec_bufs;
	unsigned int nr_rec_hw;
	u32 rec_max_pages;
};

#define to_nvpc_core(p)	container_of(p, struct nvpc_core, pmu)

/* a record event: its domain in record mode, packets into its AUX area */
static inline bool nvpc_is_record(struct perf_event *event)
{
	return event->attr.config & NVPC_CFG_RECORD;
}

/**
 * struct nvpc_unit - one unit of a unit sum (units.c)
 * @ev: the engine's event on the unit's domain, a copy of the sum's attr
 *	naming that one domain; perf never sees it. Its hw.flags carry
 *	NVPC_HW_UNIT.
 * @sum: the unit sum's perf event, whose count the unit's counts go to
 */
struct nvpc_unit {
	struct perf_event ev;
	struct perf_event *sum;
};

/* the perf event whose count an engine event's counts go to */
static inline struct perf_event *nvpc_count_owner(struct perf_event *event)
{
	if (event->hw.flags & NVPC_HW_UNIT)
		return container_of(event, struct nvpc_unit, ev)->sum;
	return event;
}

/*
 * a unit sum: a GF100+ GPC or partition event counting every present
 * unit (config1 allunits, without oneunit or a unit number)
 */
static inline bool nvpc_is_unit_sum(struct perf_event *event)
{
	u64 c1 = event->attr.config1;

	return !nvpc_is_record(event) && (c1 & NVPC_CFG1_ALLUNITS) &&
	       !(c1 & (NVPC_CFG1_ONEUNIT | NVPC_CFG1_UNIT));
}

/* the perf events counting on the GPU, for the log */
static inline unsigned int nvpc_nr_counting(struct nvpc_core *core)
{
	return READ_ONCE(core->nr_active) - READ_ONCE(core->nr_unit_extra);
}

/* one input of its domain's single event mode program (window.c) */
static inline bool nvpc_is_window(struct perf_event *event)
{
	return FIELD_GET(NVPC_CFG_MODE, event->attr.config) ==
	       NVPC_MODE_SINGLE && !nvpc_is_record(event);
}

int nvpc_window_check(struct nvpc_core *core, struct nvpc_domain *dom,
		      struct perf_event *event);
int nvpc_window_alloc(struct nvpc_slots *t, struct perf_event *event,
		      unsigned long *claimed);
void nvpc_window_regs(struct nvpc_domain *dom, struct perf_event *event);
void nvpc_window_program(struct nvpc_core *core, struct nvpc_domain *dom);
void nvpc_window_sample(struct nvpc_core *core, struct nvpc_domain *dom);
void nvpc_window_aborted(struct nvpc_core *core, struct nvpc_domain *dom);
const char *nvpc_window_use(struct perf_event *event);

int nvpc_registry_init(void);
void nvpc_registry_exit(void);
u8 nvpc_dset_id_of(enum nvpc_dset dset);

int nvpc_engine_init(struct nvpc_core *core);
void nvpc_engine_fini(struct nvpc_core *core);
struct nvpc_domain *nvpc_domain_find(struct nvpc_core *core, u64 config1);
int nvpc_check_sigs(struct nvpc_core *core, struct nvpc_domain *dom,
		    u64 config);
int nvpc_engine_check(struct nvpc_core *core, struct nvpc_domain *dom,
		      struct perf_event *event);
int nvpc_slot_alloc(struct nvpc_core *core, struct nvpc_slots *tables,
		    struct nvpc_domain *dom, struct perf_event *event,
		    unsigned long *claimed, unsigned long prefer);
int nvpc_engine_add(struct nvpc_core *core, struct perf_event *event);
void nvpc_engine_del(struct nvpc_core *core, struct perf_event *event,
		     bool fold);
void nvpc_engine_update(struct nvpc_core *core, struct perf_event *event,
			bool fold);
void nvpc_engine_txn(struct nvpc_core *core, bool open);

int nvpc_units_check(struct nvpc_core *core, struct perf_event *event);
int nvpc_units_init(struct nvpc_core *core, struct perf_event *event);
int nvpc_units_claim(struct nvpc_core *core, struct perf_event *event);
void nvpc_units_destroy(struct nvpc_core *core, struct perf_event *event);
int nvpc_units_validate(struct nvpc_core *core, struct nvpc_slots *tables,
			struct perf_event *event);
int nvpc_units_add(struct nvpc_core *core, struct perf_event *event);
void nvpc_units_del(struct nvpc_core *core, struct perf_event *event,
		    bool fold);
void nvpc_units_update(struct nvpc_core *core, struct perf_event *event,
		       bool fold);

int nvpc_record_init(struct nvpc_core *core, struct nvpc_domain *dom,
		     struct perf_event *event);
void nvpc_record_destroy(struct nvpc_core *core, struct perf_event *event);
void *nvpc_record_setup_aux(struct perf_event *event, void **pages,
			    int nr_pages, bool overwrite);
void nvpc_record_free_aux(void *priv);
void nvpc_record_start(struct perf_event *event);
void nvpc_record_stop(struct perf_event *event);
void nvpc_record_del(struct perf_event *event);
void nvpc_record_txn_end(struct nvpc_core *core);
void nvpc_record_detach(struct nvpc_core *core);
enum hrtimer_restart nvpc_record_tick(struct hrtimer *t);
const char *nvpc_record_state_name(struct nvpc_domain *dom);
u64 nvpc_record_aux_max(struct nvpc_core *core, struct nvpc_domain *dom);

int nvpc_core_open(struct nvpc_core *core);
void nvpc_core_close(struct nvpc_core *core);
int nvpc_pmu_module_init(void);
void nvpc_pmu_module_exit(void);
int nvpc_pmu_register(struct nvpc_core *core);
int nvpc_domain_claim(struct nvpc_core *core, struct nvpc_domain *dom);
void nvpc_domain_unclaim(struct nvpc_core *core, struct nvpc_domain *dom);
void nvpc_pmu_detach(struct nvpc_core *core);
void nvpc_pmu_unregister(struct nvpc_core *core);
int nvpc_sysfs_domains_add(struct nvpc_core *core);
void nvpc_debugfs_add(struct nvpc_core *core);
void nvpc_sysfs_domains_remove(struct nvpc_core *core);

#endif /* _NVPC_CORE_H */
