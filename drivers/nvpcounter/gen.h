/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generation interface (DESIGN layer 3): one table of functions per
 * hardware generation computing addresses and bitfields, what the tables
 * take and give, and the hardware part of a GPU they work on (struct
 * nvpc_hw, struct nvpc_hw_domain). Sees nothing of the layers above.
 */
#ifndef _NVPC_GEN_H
#define _NVPC_GEN_H

#include <linux/bitops.h>
#include <linux/build_bug.h>

#include <nvpcounter/catalog.h>
#include <nvpcounter/device.h>
#include <nvpcounter/regs.h>
#include <uapi/linux/nvpcounter.h>

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

/**
 * struct nvpc_hw_domain - one counter domain's hardware: which it is,
 *	where its registers are and what they are to hold
 * @desc: the catalogue's description
 * @name: the domain's one name, in sysfs, the log and the sim's debugfs:
 *	"main.I" (before GF100), "hub.I", "gpcG.I" or "partP.I"
 * @dset: NVPC_DSET_ID_* of the domain's set
 * @unit: GPC or partition number (0 for hub/main domains)
 * @index: domain index inside its set
 * @base: GF100+: MMIO base of the domain's registers
 * @restarts: NV10:NV30: the generation's restarts of the counting
 *	process, numbered in CTR_STOP
 * @src: shadow of the four _SRC registers
 * @op: shadow of the four _OP registers
 * @hw_src: the _SRC values last written to the hardware
 * @hw_op: the _OP values last written to the hardware
 * @ctr_mode: the counter mode to program (NVPC_MODE_* = CTR_MODE value)
 *
 * nvpc_hw_domains_init() fills in the identity and @base; the engine sets
 * @src, @op and @ctr_mode for the generation ops to write, and keeps
 * @hw_src and @hw_op; the ops keep @restarts.
 */
struct nvpc_hw_domain {
	const struct nvpc_domain_desc *desc;
	char name[16];
	u8 dset;
	u8 unit;
	u8 index;
	u32 base;
	u32 restarts;
	u32 src[NVPC_NR_SLOTS];
	u32 op[NVPC_NR_SLOTS];
	u32 hw_src[NVPC_NR_SLOTS];
	u32 hw_op[NVPC_NR_SLOTS];
	u8 ctr_mode;
};

struct nvpc_gen_ops;

/**
 * struct nvpc_hw - one GPU's hardware as the generation ops see it
 * @ndev: the backend's device, through which every register is accessed
 * @dev: the backend's struct device, for the log (the registry holds a
 *	reference while events outlive @ndev)
 * @name: the GPU's name in the log (its PMU's name)
 * @chip: the chip (catalogue data, lives as long as the module)
 * @gen: the generation's ops, NULL if its generation cannot count yet
 * @domains: every domain of the GPU (nvpc_hw_domains_init())
 * @nr_domains: entries in @domains
 * @ctrl: @gen->shared_ctrl: shadow of the shared CTRL register
 * @ctrl_writes: writes of the shared CTRL so far (the generation counts
 *	them; the engine compares, nvpc_shared_ctrl_end())
 *
 * The generation ops touch this and the domains they are given, nothing
 * else; the caller serialises them (the engine's lock).
 */
struct nvpc_hw {
	struct nvpc_device *ndev;
	struct device *dev;
	const char *name;
	const struct nvpc_chip_desc *chip;
	const struct nvpc_gen_ops *gen;
	struct nvpc_hw_domain *domains;
	unsigned int nr_domains;
	u32 ctrl;
	u64 ctrl_writes;
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
 *	(NV10:NV40); its writes are counted in &nvpc_hw.ctrl_writes, and
 *	the engine brackets every op that may write it
 * @global_swap: one swap trigger serves every domain (PGRAPH PM_TRIGGER)
 * @unit_sets: the domains are in a hub set, one set per GPC and one per
 *	memory partition (GF100+); else in the one MAIN set
 * @pmc_enable: PCOUNTER is held in reset while PMC.ENABLE bit 28 is clear
 *	(GF100+)
 * @windows: every register the ops access is in these ranges (a backend
 *	that maps ranges of BAR0 maps them); unused entries are zero
 * @init: at registration, before any event: the controls every domain
 *	shares as the driver relies on them (G84+: no RECORD_RESET, no
 *	PERIODIC_RESET), whatever an earlier owner of the GPU left there
 * @setup: per-domain set-up at registration (e.g. GF100 base address)
 * @start: put a domain in the engine's counting mode and clear its state
 * @stop: take a domain out of counting
 * @restart: @single: restart the domain's counting process (a write of
 *	the shared CTRL aborted it)
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
 * @single_stop: stop a single event mode process, where @stop does not
 * @event_ctr_period: CTRL has EVENT_CTR_PERIOD (NV15 onwards; on NV10
 *	CTR_EVENT restarts with every single event mode window)
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
	bool event_ctr_period;
	struct nvpc_reg_range windows[NVPC_GEN_NR_WINDOWS];
	void (*init)(struct nvpc_hw *hw);
	void (*setup)(struct nvpc_hw_domain *dom);
	void (*start)(struct nvpc_hw *hw, struct nvpc_hw_domain *dom);
	void (*stop)(struct nvpc_hw *hw, struct nvpc_hw_domain *dom);
	void (*restart)(struct nvpc_hw *hw, struct nvpc_hw_domain *dom);
	void (*program)(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			unsigned int slot);
	void (*trigger_swap)(struct nvpc_hw *hw, struct nvpc_hw_domain *dom);
	u32 (*read)(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
		    unsigned long used, u64 ctr[NVPC_NR_CTRS]);
	void (*ack)(struct nvpc_hw *hw, struct nvpc_hw_domain *dom);
	void (*state)(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
		      struct nvpc_domain_state *st);
	u32 (*status_reg)(const struct nvpc_hw_domain *dom, unsigned int j);
	bool (*dump_range)(const struct nvpc_hw *hw, unsigned int n,
			   struct nvpc_reg_range *r);
	u8 record;
	void (*record_bind)(struct nvpc_hw *hw,
			    const struct nvpc_record_prog *p);
	void (*record_setup)(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			     const struct nvpc_record_prog *p);
	void (*record_restart)(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			       const struct nvpc_record_prog *p);
	void (*record_limit)(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			     u32 limit);
	u32 (*record_status)(struct nvpc_hw *hw, struct nvpc_hw_domain *dom);
	void (*single_start)(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			     const struct nvpc_single_prog *p);
	void (*single_read)(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			    struct nvpc_single_ctrs *c);
	void (*single_stop)(struct nvpc_hw *hw, struct nvpc_hw_domain *dom);
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
extern const struct nvpc_gen_ops nvpc_gen_nv15;
extern const struct nvpc_gen_ops nvpc_gen_nv30;
extern const struct nvpc_gen_ops nvpc_gen_nv40;
extern const struct nvpc_gen_ops nvpc_gen_g84;
extern const struct nvpc_gen_ops nvpc_gen_g92;
extern const struct nvpc_gen_ops nvpc_gen_gf100;

const struct nvpc_gen_ops *nvpc_gen_ops_of(const struct nvpc_chip_desc *chip);
u8 nvpc_dset_id_of(enum nvpc_dset dset);
unsigned int nvpc_hw_nr_domains(const struct nvpc_hw *hw);
void nvpc_hw_domains_init(struct nvpc_hw *hw);
void nvpc_gen_read_ctrs(struct nvpc_hw *hw, const u32 reg[NVPC_NR_CTRS],
			u32 offset, unsigned long used, u64 ctr[NVPC_NR_CTRS]);
void nvpc_gen_read_status(struct nvpc_hw *hw, struct nvpc_hw_domain *dom,
			  u32 st[NVPC_NR_STATUS]);
void nvpc_gen_clear_resets(struct nvpc_hw *hw, u32 addr, const char *name);
void nvpc_nv30_trigger_swap(struct nvpc_hw *hw, struct nvpc_hw_domain *dom);

#endif /* _NVPC_GEN_H */
