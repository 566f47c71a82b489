/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The domain engine and its modes (DESIGN layer 2): one GPU's engine
 * (struct nvpc_engine: its lock, domains, slots, modes, transactions and
 * poll, around its hardware part), and what the perf glue calls to count,
 * sum units, run windows and record.
 */
#ifndef _NVPC_ENGINE_H
#define _NVPC_ENGINE_H

#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "gen.h"

struct nvpc_engine;
struct nvpc_slots;

/* event->hw.flags: added, not yet committed to the hardware */
#define NVPC_HW_FRESH		BIT(0)
/*
 * event->hw.flags: deleted, its mode's del left its last counts to the
 * commit (quad mode: the commit's one swap ends the period of every event
 * leaving and starts the one of every event arriving); an add before the
 * commit gives it back to the mode (&nvpc_mode_ops.back)
 */
#define NVPC_HW_LEAVING		BIT(1)
/* event->hw.flags: one unit of a unit sum (struct nvpc_unit, units.c) */
#define NVPC_HW_UNIT		BIT(2)

/* event->hw.idx of an event added after its GPU went away: no counter */
#define NVPC_IDX_DETACHED	(-1)

/**
 * struct nvpc_domain_stats - a domain's counts in sysfs (domains/<name>/,
 *	one file each, by these names), over every mode the domain ran
 * @samples: periods read
 * @lost_periods: quad mode swaps seen in OVERFLOW state: counts lost for
 *	a period
 * @saturations: counter readings at their saturation value, left out of
 *	the sums
 * @stragglers: samples in which the domain's swap or start had not landed
 *	at its first poll
 * @not_responding: swaps that never showed up in QUAD_STATE
 * @record_packets: record packets published into AUX areas
 * @record_gaps: record restarts that lost counts (window top, consumer
 *	too slow)
 * @record_stalls: times the hardware stopped because the AUX area was
 *	full
 * @record_faults: VM faults of record packet writes
 * @record_drains: runs of the record drain (its hrtimer)
 * @record_drain_ns: the time those runs took, register accesses and
 *	all (with the sim, its model's catch-up at those accesses too)
 * @single_restarts: single event processes restarted: an endless one
 *	before a counter could saturate, any one after a write of the
 *	shared CTRL (NV10:NV40) for another domain aborted it
 * @window_cuts: those restarts that had to end a window early
 */
struct nvpc_domain_stats {
	u64 samples;
	u64 lost_periods;
	u64 saturations;
	u64 stragglers;
	u64 not_responding;
	u64 record_packets;
	u64 record_gaps;
	u64 record_stalls;
	u64 record_faults;
	u64 record_drains;
	u64 record_drain_ns;
	u64 single_restarts;
	u64 window_cuts;
};

/**
 * struct nvpc_domain - one counter domain as the engine runs it
 * @hw: its hardware part: identity, register addresses and shadows (in
 *	&nvpc_hw.domains)
 * @mode: the mode the domain is claimed for (its events' mode); NULL for a
 *	record event's claim
 * @run: the mode the hardware runs, NULL while the domain is stopped
 * @nr_claims: events holding the claim on @mode
 * @slots: the domain's live slot table (in &nvpc_engine.slots)
 * @nr_cycles: events counting this domain's cycles
 * @dirty: slots whose registers wait for the transaction's commit
 * @dirty_mode: the domain's counter mode or running state waits for the
 *	commit
 * @acc: 64-bit accumulated counts of the four slots and CTR_CYCLES
 * @sample_ns: when the domain was last sampled
 * @sampled_txn: the number of the commit closing the transaction in which
 *	the domain was last sampled (0: outside one): one sample serves
 *	every del of a transaction
 * @commit_seq: the number of the commit that last ended the domain's
 *	period for its new events
 * @snap: the group read (&nvpc_engine.snap) the domain was last sampled
 *	for
 * @snap_acc: @acc at that sample: what the members of that group read
 *	count up to, however much the poll (on any CPU) samples the
 *	domain between their reads
 * @clock_hz: the clock measured from CTR_CYCLES over at least a second of
 *	counting, 0 until measured
 * @period_hz: the clock measured over the last sample period
 * @clock_win_ns: start of the current clock measurement window (0: none)
 * @clock_win_cycles: cycles counted in it
 * @priv: the state of the mode the domain is claimed for, private to the
 *	mode's file: made by its &nvpc_mode_ops.setup at the first claim,
 *	freed at the last unclaim; a record event's session (record.c)
 *	while one has the domain
 * @rec_state: NVPC_REC_* (sysfs record_state)
 * @stats: the counts sysfs shows
 */
struct nvpc_domain {
	struct nvpc_hw_domain *hw;

	const struct nvpc_mode_ops *mode;
	const struct nvpc_mode_ops *run;
	unsigned int nr_claims;

	struct nvpc_slots *slots;
	unsigned int nr_cycles;
	u8 dirty;
	bool dirty_mode;

	u64 acc[NVPC_NR_CTRS];
	u64 sample_ns;
	u64 sampled_txn;
	u64 commit_seq;
	u64 snap;
	u64 snap_acc[NVPC_NR_CTRS];
	u64 clock_hz;
	u64 period_hz;
	u64 clock_win_ns;
	u64 clock_win_cycles;

	void *priv;

	u8 rec_state;
	struct nvpc_domain_stats stats;
};

/**
 * struct nvpc_mode_ops - what the hardware does with a domain (CTRL.MODE)
 * @name: for the log
 * @setup: allocate the mode's state of a domain (&nvpc_domain.priv) with
 *	kmalloc() for its first claim, NULL without memory; the last unclaim
 *	kfree()s it (process context, lock not held)
 * @start: program a stopped domain for its events and start it
 * @update: reprogram a running domain whose slots @dirty changed
 * @stop: stop a running domain (its last period already read)
 * @sample: fold what the domain counted since its last sample, or end its
 *	period for @collect to read
 * @collect: read the periods @sample or @commit_begin ended in the domains
 *	[first, end) (&nvpc_engine.domains indices), after every sample of
 *	them and at the commit
 * @commit_begin: once per commit, before any register write (@dirty: some
 *	domain's registers change)
 * @commit_end: once per commit, after every domain was committed and
 *	collected
 * @fresh: a commit's new event on the domain: make its period start in
 *	this commit
 * @del: an event leaves the running domain (@fold: its last counts are
 *	its own); the mode may leave them to the commit (NVPC_HW_LEAVING)
 * @back: an event whose del left its counts to the commit is added back
 *	before it (@kept: on counter @old_idx, programmed as before)
 * @set_ctr_mode: write a changed counter mode (B4/B6) to CTRL
 * @ctrl_before: a write of the shared CTRL (NV10:NV40) for another domain
 *	is about to abort the domain's process
 * @ctrl_after: it did
 * @width: the bits of the counters a sample must catch half full
 * @check: validate the config of an event of the mode's own kind (a
 *	single event mode input): 0, or -EINVAL/-EOPNOTSUPP with a dev_dbg
 *	reason; NULL: the counting checks of slots.c apply
 * @alloc: claim the inputs such an event takes in slot table @t (the live
 *	one, or group validation's copy): its counter and @claimed, or
 *	-ENOSPC
 * @regs: set the _SRC/_OP shadows of such an event, placed (hw.idx)
 *
 * The engine calls every function with &nvpc_engine.lock held except
 * @setup and @check (event_init); @alloc and @regs
 * also run on group validation's copies. Any may be NULL where the mode
 * has nothing to do.
 */
struct nvpc_mode_ops {
	const char *name;
	void *(*setup)(struct nvpc_engine *eng);
	void (*start)(struct nvpc_engine *eng, struct nvpc_domain *dom);
	void (*update)(struct nvpc_engine *eng, struct nvpc_domain *dom,
		       unsigned long dirty);
	void (*stop)(struct nvpc_engine *eng, struct nvpc_domain *dom);
	void (*sample)(struct nvpc_engine *eng, struct nvpc_domain *dom,
		       u64 now);
	void (*collect)(struct nvpc_engine *eng, unsigned int first,
			unsigned int end, u64 now);
	void (*commit_begin)(struct nvpc_engine *eng, bool dirty);
	void (*commit_end)(struct nvpc_engine *eng);
	void (*fresh)(struct nvpc_engine *eng, struct nvpc_domain *dom);
	void (*del)(struct nvpc_engine *eng, struct perf_event *event,
		    bool fold);
	void (*back)(struct nvpc_engine *eng, struct perf_event *event,
		     int old_idx, bool kept);
	void (*set_ctr_mode)(struct nvpc_engine *eng, struct nvpc_domain *dom);
	void (*ctrl_before)(struct nvpc_engine *eng, struct nvpc_domain *dom);
	void (*ctrl_after)(struct nvpc_engine *eng, struct nvpc_domain *dom);
	unsigned int (*width)(struct nvpc_engine *eng);
	int (*check)(struct nvpc_engine *eng, struct nvpc_domain *dom,
		     struct perf_event *event);
	int (*alloc)(struct nvpc_slots *t, struct perf_event *event,
		     unsigned long *claimed);
	void (*regs)(struct nvpc_domain *dom, struct perf_event *event);
};

extern const struct nvpc_mode_ops nvpc_mode_quad;
extern const struct nvpc_mode_ops nvpc_mode_live;
extern const struct nvpc_mode_ops nvpc_mode_window;

/*
 * What a domain's events use it for, one at a time (CTRL.MODE): counting
 * (quad mode; NV10:NV30's endless program), single event mode windows, or
 * record mode. &nvpc_engine.modes maps each claim below NVPC_NR_MODES to
 * the GPU's mode ops, which the engine runs the domain with. A record
 * event's claim has no mode: the event has the domain alone and runs it
 * itself (record.c, through perf's callbacks, not the engine's commit).
 */
enum nvpc_claim {
	NVPC_CLAIM_COUNT,
	NVPC_CLAIM_WINDOW,
	NVPC_NR_MODES,
	/* no mode: the record event has the domain alone and runs it */
	NVPC_CLAIM_RECORD = NVPC_NR_MODES,
};

/**
 * struct nvpc_engine - one GPU's domain engine
 * @hw: the hardware part (gen.h): the backend's device, the reference on
 *	its struct device, for dev_dbg() while events outlive the device, the
 *	chip, the generation's ops and the domains' registers
 * @lock: serialises the engine and the register sequences; @gone is set
 *	under it when the device is unregistered. A raw lock taken in perf
 *	callbacks with interrupts off (also on PREEMPT_RT), so every hold is
 *	bounded by a count of register accesses, whatever one access costs.
 *	A poll of a domain reads QUAD_STATE, and only where the swap has
 *	landed the counters in use (at most 5) and acks once or twice: 1
 *	access not landed, at most 8 landed. A sample swaps one domain, or
 *	every domain of a global_swap generation (NV30:G84, at most 5) with
 *	one pulse, polls each swapped domain once and its stragglers
 *	NVPC_SWAP_POLLS (quad.c) more times in all; each domain lands once:
 *	n domains at most 1 + 8 * n + NVPC_SWAP_POLLS accesses, 17 for one
 *	domain, 49 for NV40's five. A commit programs the domains a perf transaction
 *	changed (at most 12 writes each), swaps them and collects them the
 *	same way, then samples the domains of its new events once each. The
 *	poll takes it once per domain per tick (once per tick in all for a
 *	global_swap generation), and never waits for a straggler beyond its
 *	polls. The commit is one hold for every domain it changes: 152
 *	accesses measured for all 8 of a G84 (perf.rst "Interrupts-off
 *	holds"), inside perf's own interrupts-off section in any case. The
 *	record drain's DMA syncs (at most 1 MiB each way) are in its hold.
 * @gone: set once the hardware vanished or was unregistered: no more
 *	register access, no new events
 * @active_lock: held around the backend's process-context ops (the
 *	registry's active_get/put, record.c's record_bind and record_map):
 *	@gone is set under it, so the backend is there while it is held and
 *	@gone is clear
 * @domains: every domain of the GPU (in the order of &nvpc_hw.domains)
 * @slots: the live slot tables, one per domain
 * @modes: the mode ops of each NVPC_CLAIM_* below NVPC_NR_MODES on this
 *	GPU
 * @ctrl_seq: &nvpc_hw.ctrl_writes at the outermost
 *	nvpc_shared_ctrl_begin()
 * @ctrl_nest: depth of nvpc_shared_ctrl_begin() without its end
 * @nr_active: events added (counting) on the GPU, each unit of a unit
 *	sum one event
 * @nr_unit_extra: the units of unit sums added beyond each sum's first:
 *	@nr_active less these is the perf events counting
 * @txn: depth of open perf transactions (pmu_disable without pmu_enable)
 * @fresh: events added since the last commit (linked by active_entry)
 * @txn_seq: commits so far; an event deleted inside a transaction is
 *	tagged (hw.last_tag) with the number of the commit that closes it
 * @snap: set by the perf glue during a read that is part of a group read
 *	(0: a read of its own): events of one domain read in one group read
 *	share one sample of the domain (pmu.c, nvpc_group_read())
 * @poll_work: the poll, queued while @nr_active > 0 and not @gone
 * @poll_ns: poll period
 * @rec_bufs: AUX areas mapped for the GPU (under @lock)
 * @nr_rec_hw: domains in record mode; the record buffer is bound while
 *	there is one (under @lock)
 * @rec_parked: record sessions parked by a del in the open transaction
 *	(under @lock)
 * @rec_max_pages: the most AUX pages the backend maps (0: no record_map)
 */
struct nvpc_engine {
	struct nvpc_hw hw;
	raw_spinlock_t lock;
	bool gone;
	struct mutex active_lock;	/* see @active_lock above */
	struct nvpc_domain *domains;
	struct nvpc_slots *slots;
	const struct nvpc_mode_ops *modes[NVPC_NR_MODES];
	u64 ctrl_seq;
	unsigned int ctrl_nest;
	unsigned int nr_active;
	unsigned int nr_unit_extra;
	unsigned int txn;
	struct list_head fresh;
	u64 txn_seq;
	u64 snap;
	struct delayed_work poll_work;
	u64 poll_ns;
	struct list_head rec_bufs;
	unsigned int nr_rec_hw;
	unsigned int rec_parked;
	u32 rec_max_pages;
};

/* dev_dbg() on the GPU's device: every rejection names its reason */
#define nvpc_dbg(eng, fmt, ...) \
	dev_dbg((eng)->hw.dev, fmt, ##__VA_ARGS__)

/* perf transactions this CPU is in (nvpc_irqoff_txn_begin()) */
DECLARE_PER_CPU(unsigned int, nvpc_irqoff_txn);

/**
 * nvpc_lock() - take @eng's lock, interrupts off
 * @eng: the GPU's engine
 * @flags: unsigned long for the saved interrupt state
 *
 * The CPU's nvpc_lock_depth counts the engine locks it holds or is
 * about to hold, from before the lock is taken to after it is released,
 * with interrupts off throughout. Whatever runs on the CPU inside that
 * span without being called by it (an NMI, a kprobe or a tracepoint
 * fired there, a BPF program they run) sees the count and must not take
 * an engine lock: its CPU may hold it (nvpc_event_read()). The CPU's
 * nvpc_lock_seq numbers its interrupts-off sections, so that a backend
 * can tell the register accesses of one from the next (the sim's
 * irqoff_max, Documentation/sim.rst): a hold, or every hold of one perf
 * transaction, which perf's own section keeps with interrupts off
 * between them (nvpc_irqoff_txn_begin()).
 */
#define nvpc_lock(eng, flags)						\
	do {								\
		local_irq_save(flags);					\
		__this_cpu_inc(nvpc_lock_depth);			\
		if (!__this_cpu_read(nvpc_irqoff_txn))			\
			__this_cpu_inc(nvpc_lock_seq);			\
		raw_spin_lock(&(eng)->lock);				\
	} while (0)

/**
 * nvpc_unlock() - release what nvpc_lock() took
 * @eng: the GPU's engine
 * @flags: the interrupt state nvpc_lock() saved
 */
#define nvpc_unlock(eng, flags)						\
	do {								\
		raw_spin_unlock(&(eng)->lock);				\
		__this_cpu_dec(nvpc_lock_depth);			\
		local_irq_restore(flags);				\
	} while (0)

/**
 * nvpc_irqoff_txn_begin() - a perf transaction (pmu_disable) begins
 *
 * perf calls pmu_disable .. pmu_enable inside its context lock, with
 * interrupts off from before the first to after the last (its adds, dels
 * and the commit): the driver's holds in between are one interrupts-off
 * section, numbered as one (nvpc_lock()). Context: interrupts off.
 */
static inline void nvpc_irqoff_txn_begin(void)
{
	lockdep_assert_irqs_disabled();
	/* the outermost: a new section */
	if (!__this_cpu_read(nvpc_irqoff_txn))
		__this_cpu_inc(nvpc_lock_seq);
	__this_cpu_inc(nvpc_irqoff_txn);
}

/**
 * nvpc_irqoff_txn_end() - the perf transaction nvpc_irqoff_txn_begin()
 *	began ends (pmu_enable, after its commit and its txn_end work)
 */
static inline void nvpc_irqoff_txn_end(void)
{
	lockdep_assert_irqs_disabled();
	if (__this_cpu_read(nvpc_irqoff_txn))
		__this_cpu_dec(nvpc_irqoff_txn);
}

/* may this CPU take an engine lock here (see nvpc_lock())? */
static inline bool nvpc_lock_nested(void)
{
	return in_nmi() || this_cpu_read(nvpc_lock_depth);
}

/* the perf events counting on the GPU, for the log */
static inline unsigned int nvpc_nr_counting(struct nvpc_engine *eng)
{
	return READ_ONCE(eng->nr_active) - READ_ONCE(eng->nr_unit_extra);
}

int nvpc_domain_claim(struct nvpc_engine *eng, struct nvpc_domain *dom,
		      enum nvpc_claim mode);
void nvpc_domain_unclaim(struct nvpc_engine *eng, struct nvpc_domain *dom);

/* the domain is claimed for @mode (&nvpc_engine.lock held, or a hint) */
static inline bool nvpc_domain_claimed(const struct nvpc_domain *dom,
				       const struct nvpc_mode_ops *mode)
{
	return dom->nr_claims && dom->mode == mode;
}

/* &nvpc_domain.rec_state */
enum nvpc_rec_state {
	NVPC_REC_IDLE,
	NVPC_REC_RECORDING,
	NVPC_REC_STALLED,
	NVPC_REC_FAULTED,
	NVPC_REC_GONE,
};

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

/* one input of its domain's single event mode program (window.c) */
static inline bool nvpc_is_window(struct perf_event *event)
{
	return FIELD_GET(NVPC_CFG_MODE, event->attr.config) ==
	       NVPC_MODE_SINGLE && !nvpc_is_record(event);
}

const char *nvpc_window_use(struct perf_event *event);

int nvpc_engine_init(struct nvpc_engine *eng);
void nvpc_engine_fini(struct nvpc_engine *eng);
void nvpc_engine_stop_poll(struct nvpc_engine *eng);
struct nvpc_domain *nvpc_domain_find(struct nvpc_engine *eng, u64 config1);
int nvpc_engine_add(struct nvpc_engine *eng, struct perf_event *event);
void nvpc_engine_del(struct nvpc_engine *eng, struct perf_event *event,
		     bool fold);
void nvpc_engine_update(struct nvpc_engine *eng, struct perf_event *event,
			bool fold);
bool nvpc_engine_txn(struct nvpc_engine *eng, bool open);
int nvpc_event_domain(struct nvpc_engine *eng, struct perf_event *event);

/* for the modes */
void nvpc_engine_sample(struct nvpc_engine *eng, struct nvpc_domain *dom);
unsigned long nvpc_domain_used(struct nvpc_domain *dom);
void nvpc_clock_measure(struct nvpc_domain *dom, u64 cycles, u64 now);
void nvpc_domain_program(struct nvpc_engine *eng, struct nvpc_domain *dom);
unsigned long nvpc_event_program(struct nvpc_engine *eng,
				 struct nvpc_domain *dom, unsigned long claims);
void nvpc_domain_set_ctr_mode(struct nvpc_engine *eng, struct nvpc_domain *dom);
void nvpc_event_fold(struct perf_event *event, int idx);
void nvpc_event_sample_out(struct nvpc_engine *eng, struct perf_event *event,
			   bool fold);
void nvpc_shared_ctrl_begin(struct nvpc_engine *eng, struct nvpc_domain *self);
void nvpc_shared_ctrl_end(struct nvpc_engine *eng, struct nvpc_domain *self);

int nvpc_units_check(struct nvpc_engine *eng, struct perf_event *event);
int nvpc_units_init(struct nvpc_engine *eng, struct perf_event *event);
int nvpc_units_claim(struct nvpc_engine *eng, struct perf_event *event);
void nvpc_units_destroy(struct nvpc_engine *eng, struct perf_event *event);
int nvpc_units_validate(struct nvpc_engine *eng, struct nvpc_slots *tables,
			struct perf_event *event);
int nvpc_units_add(struct nvpc_engine *eng, struct perf_event *event);
void nvpc_units_del(struct nvpc_engine *eng, struct perf_event *event,
		    bool fold);
void nvpc_units_update(struct nvpc_engine *eng, struct perf_event *event,
		       bool fold);

int nvpc_record_init(struct nvpc_engine *eng, struct perf_event *event);
void nvpc_record_destroy(struct nvpc_engine *eng, struct perf_event *event);
int nvpc_record_add(struct nvpc_engine *eng, struct perf_event *event,
		    int ef);
void nvpc_record_del(struct nvpc_engine *eng, struct perf_event *event,
		     int ef);
void nvpc_record_start(struct nvpc_engine *eng, struct perf_event *event,
		       int ef);
void nvpc_record_stop(struct nvpc_engine *eng, struct perf_event *event,
		      int ef);
void nvpc_record_txn_end(struct nvpc_engine *eng);
void *nvpc_record_setup_aux(struct nvpc_engine *eng, struct perf_event *event,
			    void **pages, int nr_pages, bool overwrite);
void nvpc_record_free_aux(void *priv);
void nvpc_record_detach(struct nvpc_engine *eng);
void nvpc_record_release(struct nvpc_engine *eng);
const char *nvpc_record_state_name(struct nvpc_domain *dom);
u64 nvpc_record_aux_max(struct nvpc_engine *eng, struct nvpc_domain *dom);

#endif /* _NVPC_ENGINE_H */
