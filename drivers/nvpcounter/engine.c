// SPDX-License-Identifier: GPL-2.0
/*
 * The domain engine: the domains of a GPU, the claim that gives each one
 * mode at a time (struct nvpc_mode_ops: quad.c, live.c, window.c,
 * record.c), perf transactions (one commit per pmu_disable..pmu_enable),
 * the poll, and the 64-bit sums an event's count is the growth of.
 *
 * A mode decides what its domains do; the engine decides when: a sample
 * asks each running domain's mode to fold what it counted (or to end its
 * period, which the engine's collect then reads), a commit starts, stops
 * and reprograms the domains a transaction changed.
 */

#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/slab.h>

#include <nvpcounter/regs.h>

#include "engine.h"
#include "slots.h"

static void nvpc_poll_work(struct work_struct *work);
static void nvpc_poll_update(struct nvpc_engine *eng);

/*
 * The shortest poll period: 2^31 cycles take 1 s at 2 GHz, so only a
 * clock above 200 GHz (a sim's manual clock) would ask for less, and a
 * poll must leave the CPU time to do anything else.
 */
#define NVPC_POLL_MIN_NS	(10 * NSEC_PER_MSEC)
/* the longest: slow clocks still get their clock measured now and then */
#define NVPC_POLL_MAX_NS	(10 * NSEC_PER_SEC)

/* engine locks each CPU holds or is taking, and its holds so far */
DEFINE_PER_CPU(unsigned int, nvpc_lock_depth);
EXPORT_PER_CPU_SYMBOL_GPL(nvpc_lock_depth);
DEFINE_PER_CPU(unsigned long, nvpc_lock_seq);
EXPORT_PER_CPU_SYMBOL_GPL(nvpc_lock_seq);
/* and the perf transactions it is in: one interrupts-off section */
DEFINE_PER_CPU(unsigned int, nvpc_irqoff_txn);

/**
 * nvpc_engine_init() - set up the engine and build the domain table of a GPU
 * @eng: the GPU's engine, zeroed; its hardware part's device and chip set
 *
 * The lock, the lists and @eng->active_lock are set up whatever the
 * generation: the registry takes them on a GPU that cannot count too.
 *
 * Return: 0, -EOPNOTSUPP if the generation cannot count yet, -ENOMEM.
 */
int nvpc_engine_init(struct nvpc_engine *eng)
{
	struct nvpc_hw *hw = &eng->hw;
	const struct nvpc_backend_ops *ops = hw->ndev->ops;
	unsigned int i, n;

	raw_spin_lock_init(&eng->lock);
	mutex_init(&eng->active_lock);
	INIT_LIST_HEAD(&eng->fresh);
	INIT_LIST_HEAD(&eng->rec_bufs);
	eng->rec_max_pages = ops->record_map ?
			     hw->ndev->record_max_pages ?: U32_MAX : 0;
	hw->gen = nvpc_gen_ops_of(hw->chip);
	if (!hw->gen)
		return -EOPNOTSUPP;
	INIT_DELAYED_WORK(&eng->poll_work, nvpc_poll_work);
	eng->poll_ns = NVPC_POLL_MAX_NS;
	/* the one place a generation's counting mode is chosen */
	eng->modes[NVPC_CLAIM_COUNT] = hw->gen->single ? &nvpc_mode_live :
							  &nvpc_mode_quad;
	eng->modes[NVPC_CLAIM_WINDOW] = &nvpc_mode_window;

	n = nvpc_hw_nr_domains(hw);
	hw->domains = kcalloc(n, sizeof(*hw->domains), GFP_KERNEL);
	eng->domains = kcalloc(n, sizeof(*eng->domains), GFP_KERNEL);
	eng->slots = kcalloc(n, sizeof(*eng->slots), GFP_KERNEL);
	if (!hw->domains || !eng->domains || !eng->slots) {
		nvpc_engine_fini(eng);
		return -ENOMEM;
	}
	nvpc_hw_domains_init(hw);
	for (i = 0; i < hw->nr_domains; i++) {
		eng->domains[i].hw = &hw->domains[i];
		eng->domains[i].slots = &eng->slots[i];
	}
	/* no event yet, nothing else touches the registers */
	if (hw->gen->init)
		hw->gen->init(hw);
	return 0;
}

/**
 * nvpc_engine_stop_poll() - wait for the poll to end
 * @eng: the GPU's engine, marked gone or without events (under its lock)
 *
 * A poll that runs now sees @gone or no event and does not queue itself
 * again, so none runs after this returns.
 *
 * Context: process context; may sleep.
 */
void nvpc_engine_stop_poll(struct nvpc_engine *eng)
{
	if (eng->hw.gen)
		cancel_delayed_work_sync(&eng->poll_work);
}

/**
 * nvpc_engine_fini() - stop polling and free the domain table
 * @eng: the GPU's engine, no event left
 *
 * Context: process context; may sleep.
 */
void nvpc_engine_fini(struct nvpc_engine *eng)
{
	unsigned int i;

	nvpc_engine_stop_poll(eng);
	/* a mode's state the last unclaim left to a running domain */
	for (i = 0; eng->domains && i < eng->hw.nr_domains; i++)
		if (eng->domains[i].mode && eng->domains[i].mode->setup)
			kfree(eng->domains[i].priv);
	kfree(eng->domains);
	kfree(eng->slots);
	kfree(eng->hw.domains);
	eng->domains = NULL;
	eng->slots = NULL;
	eng->hw.domains = NULL;
	eng->hw.nr_domains = 0;
}

/**
 * nvpc_domain_find() - the domain a config1 value names
 * @eng: the GPU's engine
 * @config1: perf_event_attr.config1
 *
 * Return: the domain, or NULL if reserved bits are set or it is absent.
 */
struct nvpc_domain *nvpc_domain_find(struct nvpc_engine *eng, u64 config1)
{
	u8 dset = FIELD_GET(NVPC_CFG1_DSET, config1);
	u8 unit = FIELD_GET(NVPC_CFG1_UNIT, config1);
	u8 index = FIELD_GET(NVPC_CFG1_DOM, config1);
	unsigned int i;

	if (config1 & NVPC_CFG1_RESERVED)
		return NULL;
	for (i = 0; i < eng->hw.nr_domains; i++) {
		struct nvpc_domain *dom = &eng->domains[i];

		if (dom->hw->dset == dset && dom->hw->unit == unit &&
		    dom->hw->index == index)
			return dom;
	}
	return NULL;
}

/**
 * nvpc_event_domain() - the domain an event's config1 names, as its
 *	pmu_private
 * @eng: the GPU's engine
 * @event: the event
 *
 * Return: 0, or -EINVAL with a dev_dbg reason.
 */
int nvpc_event_domain(struct nvpc_engine *eng, struct perf_event *event)
{
	struct nvpc_domain *dom = nvpc_domain_find(eng, event->attr.config1);

	if (!dom) {
		nvpc_dbg(eng, "config1 0x%llx: no such domain\n",
			 event->attr.config1);
		return -EINVAL;
	}
	event->pmu_private = dom;
	return 0;
}

/**
 * nvpc_domain_used() - the counters a domain's events use
 * @dom: the domain
 *
 * Return: BIT(counter) of its slots' events, and CTR_CYCLES (for the
 * clock).
 */
unsigned long nvpc_domain_used(struct nvpc_domain *dom)
{
	unsigned long used = BIT(NVPC_CTR_CYCLES);
	unsigned int s;

	for (s = 0; s < NVPC_NR_SLOTS; s++) {
		struct perf_event *ev = dom->slots->ev[s];

		if (ev)
			used |= BIT(ev->hw.idx);
	}
	return used;
}

/*
 * @cycles per @ns in Hz, saturated at U64_MAX: a 40-bit count over a few
 * milliseconds of a sim's manual clock would overflow cycles * 10^9, and
 * on x86 mul_u64_u64_div_u64() traps on a quotient beyond 64 bits.
 */
static u64 nvpc_rate_hz(u64 cycles, u64 ns)
{
	if (!ns)
		return 0;
	/* the quotient fits when cycles / ns < 2^64 / 10^9 */
	if (div64_u64(cycles, ns) >= div64_u64(U64_MAX, NSEC_PER_SEC))
		return U64_MAX;
	return mul_u64_u64_div_u64(cycles, NSEC_PER_SEC, ns);
}

/**
 * nvpc_clock_measure() - the domain's clock from its cycle counter
 * @dom: the domain
 * @cycles: the cycles of the period that ended at @now
 * @now: ktime_get_ns() of its end
 *
 * Over windows of at least a second for clock_hz (what sysfs shows), over
 * the last period for the poll period (which must follow a clock that
 * just went up).
 */
void nvpc_clock_measure(struct nvpc_domain *dom, u64 cycles, u64 now)
{
	/* short periods say little (and nothing on a sim's manual clock) */
	if (now > dom->sample_ns + NVPC_POLL_MIN_NS && dom->sample_ns)
		dom->period_hz = nvpc_rate_hz(cycles, now - dom->sample_ns);
	if (!dom->clock_win_ns) {
		/* the window starts at this sample: this period is before */
		dom->clock_win_ns = now;
		dom->clock_win_cycles = 0;
		return;
	}
	dom->clock_win_cycles += cycles;
	if (now - dom->clock_win_ns >= NSEC_PER_SEC) {
		WRITE_ONCE(dom->clock_hz,
			   nvpc_rate_hz(dom->clock_win_cycles,
					now - dom->clock_win_ns));
		dom->clock_win_ns = now;
		dom->clock_win_cycles = 0;
	}
}

/*
 * Read the periods a sample or commit ended in the domains of [@first,
 * @end) (&nvpc_mode_ops.collect: quad mode's swaps)
 */
static void nvpc_modes_collect(struct nvpc_engine *eng, unsigned int first,
			       unsigned int end, u64 now)
{
	unsigned int m;

	for (m = 0; m < NVPC_NR_MODES; m++)
		if (eng->modes[m]->collect)
			eng->modes[m]->collect(eng, first, end, now);
}

/**
 * nvpc_engine_sample() - fold what running domains counted into their sums
 * @eng: the GPU's engine (lock held)
 * @dom: the domain, or NULL for every running domain
 *
 * A swap that reaches every domain (PGRAPH PM_TRIGGER, @global_swap)
 * samples them all, so that no domain loses a period; a generation with
 * one swap trigger per domain samples only the domain asked for. Work
 * under the lock: one domain's accesses, or those of the at most 8
 * domains of a @global_swap generation.
 */
void nvpc_engine_sample(struct nvpc_engine *eng, struct nvpc_domain *dom)
{
	unsigned int i, first = 0, end = eng->hw.nr_domains;
	u64 now;

	lockdep_assert_held(&eng->lock);
	if (READ_ONCE(eng->gone))
		return;
	if (dom && !eng->hw.gen->global_swap) {
		if (!dom->run)
			return;
		first = dom - eng->domains;
		end = first + 1;
	}
	now = ktime_get_ns();
	for (i = first; i < end; i++) {
		struct nvpc_domain *d = &eng->domains[i];

		if (!d->run)
			continue;
		d->run->sample(eng, d, now);
		d->sampled_txn = eng->txn ? eng->txn_seq + 1 : 0;
	}
	nvpc_modes_collect(eng, first, end, now);
}

/*
 * Add what the event's counter counted up to @now since the event's last
 * update (to the unit sum's count for a unit of one).
 */
static void nvpc_event_fold_to(struct perf_event *event, u64 now)
{
	u64 prev = local64_xchg(&event->hw.prev_count, now);

	local64_add(now - prev, &nvpc_count_owner(event)->count);
}

/**
 * nvpc_event_fold() - add what an event counted since its last update
 * @event: the event
 * @idx: the counter whose sum (&nvpc_domain.acc) it counts up to
 *
 * To the unit sum's count for a unit of one. &nvpc_engine.lock held.
 */
void nvpc_event_fold(struct perf_event *event, int idx)
{
	struct nvpc_domain *dom = event->pmu_private;

	nvpc_event_fold_to(event, dom->acc[idx]);
}

/*
 * Stamp what a group read's sample of @dom collected: @dom, and on a
 * @global_swap generation every running domain, since its one swap
 * sampled them all. The group's members of any of those domains then
 * count up to this sample without another swap: one swap per group read.
 */
static void nvpc_engine_snap(struct nvpc_engine *eng, struct nvpc_domain *dom)
{
	unsigned int i;

	dom->snap = eng->snap;
	memcpy(dom->snap_acc, dom->acc, sizeof(dom->acc));
	/* one swap per domain elsewhere: no walk over every domain */
	if (!eng->hw.gen->global_swap)
		return;
	for (i = 0; i < eng->hw.nr_domains; i++) {
		struct nvpc_domain *d = &eng->domains[i];

		if (d == dom || !d->run)
			continue;
		d->snap = eng->snap;
		memcpy(d->snap_acc, d->acc, sizeof(d->acc));
	}
}

/**
 * nvpc_engine_update() - sample the GPU and bring an event up to date
 * @eng: the GPU's engine
 * @event: an added event
 * @fold: add what the event's slot counted since its last update to its
 *	count (false when restarting a stopped event: those counts are not
 *	the event's)
 */
void nvpc_engine_update(struct nvpc_engine *eng, struct perf_event *event,
			bool fold)
{
	struct nvpc_domain *dom = event->pmu_private;
	unsigned long flags;

	/* added after its GPU went away: nothing counts, nothing changes */
	if (event->hw.idx == NVPC_IDX_DETACHED)
		return;
	nvpc_lock(eng, flags);
	/*
	 * One sample of a domain serves a whole group read (pmu.c): its
	 * members count up to the sums of that sample (@snap_acc), not to
	 * what a poll on another CPU sampled between their reads. A member
	 * already past that sample (moved since by a path that is not a
	 * group read) gets a fresh one: a count never goes back.
	 */
	if (!eng->snap || dom->snap != eng->snap ||
	    (!(event->hw.flags & NVPC_HW_FRESH) &&
	     local64_read(&event->hw.prev_count) >
	     dom->snap_acc[event->hw.idx])) {
		nvpc_engine_sample(eng, dom);
		nvpc_engine_snap(eng, dom);
	}
	/* not counting before the transaction's commit */
	if (!(event->hw.flags & NVPC_HW_FRESH)) {
		u64 now = dom->snap_acc[event->hw.idx];

		if (fold)
			nvpc_event_fold_to(event, now);
		else
			local64_set(&event->hw.prev_count, now);
	}
	nvpc_unlock(eng, flags);
}

/*
 * The poll: in process context, one domain per lock hold (all of them at
 * once only where one swap reaches them all), so that interrupts stay
 * off for one domain's register accesses at a time however many domains
 * run. It stops when the last event goes or the device is gone.
 */
static void nvpc_poll_work(struct work_struct *work)
{
	struct nvpc_engine *eng = container_of(to_delayed_work(work),
					       struct nvpc_engine, poll_work);
	unsigned long flags;
	unsigned int i;
	bool more;

	for (i = 0; i < eng->hw.nr_domains; i++) {
		nvpc_lock(eng, flags);
		/* perf is between adds and dels: sample at the next poll */
		if (!eng->txn)
			nvpc_engine_sample(eng, eng->hw.gen->global_swap ?
					   NULL : &eng->domains[i]);
		nvpc_unlock(eng, flags);
		if (eng->hw.gen->global_swap)
			break;
		cond_resched();
	}
	nvpc_lock(eng, flags);
	nvpc_poll_update(eng);
	more = eng->nr_active && !READ_ONCE(eng->gone);
	nvpc_unlock(eng, flags);
	if (more)
		queue_delayed_work(system_unbound_wq, &eng->poll_work,
				   nsecs_to_jiffies(eng->poll_ns));
}

/*
 * The poll period keeps the fastest running domain's counters at most
 * half full: 2^31 cycles (2^38 for 40-bit live counters) at the larger of
 * its nominal and its measured clock, within 10 ms .. 10 s. No running
 * domain, or any clock from 1 Hz to a saturated measurement, gives a
 * period in that range without overflow.
 */
static void nvpc_poll_update(struct nvpc_engine *eng)
{
	unsigned int bits = 64;
	u64 half, hz = 0, ns;
	unsigned int i;

	for (i = 0; i < eng->hw.nr_domains; i++) {
		struct nvpc_domain *dom = &eng->domains[i];

		if (!dom->run)
			continue;
		bits = min(bits, dom->run->width(eng));
		hz = max3(hz, (u64)dom->hw->desc->clock_hz,
			  max(dom->clock_hz, dom->period_hz));
	}
	half = BIT_ULL(bits - 1);
	/*
	 * half / hz >= 10 means a period of 10 s or more; below it
	 * half < 11 * hz and half * 10^9 / hz < 1.1 * 10^10 fits
	 */
	if (!hz || div64_u64(half, hz) >= NVPC_POLL_MAX_NS / NSEC_PER_SEC)
		ns = NVPC_POLL_MAX_NS;
	else
		ns = mul_u64_u64_div_u64(half, NSEC_PER_SEC, hz);
	eng->poll_ns = clamp_t(u64, ns, NVPC_POLL_MIN_NS, NVPC_POLL_MAX_NS);
}

/**
 * nvpc_domain_program() - write a domain's whole counting program
 * @eng: the GPU's engine (lock held)
 * @dom: the domain
 *
 * Its counter mode and all four inputs, from the shadows.
 */
void nvpc_domain_program(struct nvpc_engine *eng, struct nvpc_domain *dom)
{
	unsigned int s;

	dom->hw->ctr_mode = nvpc_ctr_mode(eng, dom);
	eng->hw.gen->start(&eng->hw, dom->hw);
	for (s = 0; s < NVPC_NR_SLOTS; s++)
		if (eng->hw.gen->slots & BIT(s))
			eng->hw.gen->program(&eng->hw, dom->hw, s);
	memcpy(dom->hw->hw_src, dom->hw->src, sizeof(dom->hw->src));
	memcpy(dom->hw->hw_op, dom->hw->op, sizeof(dom->hw->op));
	dom->sample_ns = ktime_get_ns();
	dom->clock_win_ns = 0;
}

/**
 * nvpc_domain_set_ctr_mode() - write a changed counter mode
 * @eng: the GPU's engine (lock held)
 * @dom: a running counting domain
 *
 * A shared CTRL (NV10:NV40) is written only if the GPU's mode changed.
 */
void nvpc_domain_set_ctr_mode(struct nvpc_engine *eng, struct nvpc_domain *dom)
{
	u8 mode = nvpc_ctr_mode(eng, dom);

	if (eng->hw.gen->shared_ctrl && dom->hw->ctr_mode == mode)
		return;
	dom->hw->ctr_mode = mode;
	eng->hw.gen->start(&eng->hw, dom->hw);
}

/**
 * nvpc_shared_ctrl_begin() - a generation op that may write the shared
 *	CTRL (NV10:NV40) for @self follows
 * @eng: the GPU's engine (lock held)
 * @self: the domain the op is for
 *
 * A CTRL write aborts the single event process of every domain
 * (pcounter.rst "Single event mode"): the other running domains' modes
 * fold theirs now (&nvpc_mode_ops.ctrl_before) and, if the op wrote CTRL,
 * start it again at nvpc_shared_ctrl_end(). Calls nest; the outermost
 * pair acts.
 */
void nvpc_shared_ctrl_begin(struct nvpc_engine *eng, struct nvpc_domain *self)
{
	unsigned int i;

	if (!eng->hw.gen->shared_ctrl || eng->ctrl_nest++)
		return;
	eng->ctrl_seq = eng->hw.ctrl_writes;
	for (i = 0; i < eng->hw.nr_domains; i++) {
		struct nvpc_domain *o = &eng->domains[i];

		if (o != self && o->run && o->run->ctrl_before)
			o->run->ctrl_before(eng, o);
	}
}

/**
 * nvpc_shared_ctrl_end() - the op nvpc_shared_ctrl_begin() announced ran
 * @eng: the GPU's engine (lock held)
 * @self: the domain it was for
 */
void nvpc_shared_ctrl_end(struct nvpc_engine *eng, struct nvpc_domain *self)
{
	unsigned int i;

	if (!eng->hw.gen->shared_ctrl)
		return;
	/* the outermost end, and the op wrote CTRL */
	if (eng->ctrl_nest == 1 && eng->hw.ctrl_writes != eng->ctrl_seq) {
		for (i = 0; i < eng->hw.nr_domains; i++) {
			struct nvpc_domain *o = &eng->domains[i];

			if (o != self && o->run && o->run->ctrl_after)
				o->run->ctrl_after(eng, o);
		}
	}
	eng->ctrl_nest--;
}

/*
 * A counter mode change: on a shared CTRL every running domain takes the
 * new mode, elsewhere only @dom. Modes without one (windows, whose CTRL
 * fields are window.c's) are left alone.
 */
static void nvpc_mode_update(struct nvpc_engine *eng, struct nvpc_domain *dom)
{
	unsigned int i;

	for (i = 0; i < eng->hw.nr_domains; i++) {
		struct nvpc_domain *d = &eng->domains[i];

		if ((d != dom && !eng->hw.gen->shared_ctrl) || !d->run ||
		    !d->run->set_ctr_mode)
			continue;
		nvpc_shared_ctrl_begin(eng, d);
		d->run->set_ctr_mode(eng, d);
		nvpc_shared_ctrl_end(eng, d);
	}
}

/**
 * nvpc_event_program() - write the slots in @claims whose shadows changed
 * @eng: the GPU's engine (lock held)
 * @dom: the domain
 * @claims: slots (BIT(NVPC_SLOT_*))
 *
 * Return: the slots written.
 */
unsigned long nvpc_event_program(struct nvpc_engine *eng,
				 struct nvpc_domain *dom, unsigned long claims)
{
	unsigned long written = 0;
	unsigned int s;

	for_each_set_bit(s, &claims, NVPC_NR_SLOTS) {
		if (nvpc_slots_programmed(dom, BIT(s)))
			continue;
		eng->hw.gen->program(&eng->hw, dom->hw, s);
		dom->hw->hw_src[s] = dom->hw->src[s];
		dom->hw->hw_op[s] = dom->hw->op[s];
		written |= BIT(s);
	}
	return written;
}

static bool nvpc_domain_busy(struct nvpc_domain *dom)
{
	return dom->nr_cycles || dom->slots->ev[0] || dom->slots->ev[1] ||
	       dom->slots->ev[2] || dom->slots->ev[3];
}

/* Read the period a commit's swap ended in @dom, if not read yet. */
static void nvpc_commit_read(struct nvpc_engine *eng, struct nvpc_domain *dom,
			     u64 now)
{
	unsigned int i = dom - eng->domains;

	if (dom->run->collect)
		dom->run->collect(eng, i, i + 1, now);
}

/* Start, stop or reprogram a domain a transaction changed. */
static void nvpc_domain_commit(struct nvpc_engine *eng, struct nvpc_domain *dom,
			       u64 now)
{
	bool gone = READ_ONCE(eng->gone), busy = nvpc_domain_busy(dom);

	nvpc_shared_ctrl_begin(eng, dom);
	if (busy && !dom->run) {
		if (!gone)
			dom->mode->start(eng, dom);
		dom->run = dom->mode;
		nvpc_poll_update(eng);
	} else if (!busy && dom->run) {
		nvpc_commit_read(eng, dom, now);
		if (!gone)
			dom->run->stop(eng, dom);
		dom->run = NULL;
	} else if (busy && !gone) {
		dom->run->update(eng, dom, dom->dirty);
	}
	nvpc_shared_ctrl_end(eng, dom);
	if (dom->dirty_mode && !gone)
		nvpc_mode_update(eng, dom);
	dom->dirty = 0;
	dom->dirty_mode = false;
}

/*
 * Bring the hardware in line with the slot tables after adds and dels:
 * start, stop or reprogram the domains they touched, and end the period
 * of the events that leave and arrive. Runs once per perf transaction
 * (pmu_disable/pmu_enable around a whole rotation), so that a rotation
 * costs one swap per domain, not one per event.
 */
static void nvpc_commit(struct nvpc_engine *eng)
{
	bool dirty = false, early = false;
	struct perf_event *event, *tmp;
	unsigned int i, m;
	u64 now;

	lockdep_assert_held(&eng->lock);
	for (i = 0; i < eng->hw.nr_domains; i++) {
		dirty |= eng->domains[i].dirty || eng->domains[i].dirty_mode;
		early |= eng->domains[i].dirty_mode;
	}
	for (m = 0; m < NVPC_NR_MODES; m++)
		if (eng->modes[m]->commit_begin)
			eng->modes[m]->commit_begin(eng, dirty);
	now = ktime_get_ns();
	/*
	 * A counter mode is written to CTRL (shared by every domain on
	 * NV30:NV40): read what the swap ended before any CTRL write
	 */
	if (early || eng->hw.gen->shared_ctrl)
		nvpc_modes_collect(eng, 0, eng->hw.nr_domains, now);
	for (i = 0; i < eng->hw.nr_domains; i++)
		if (eng->domains[i].dirty || eng->domains[i].dirty_mode)
			nvpc_domain_commit(eng, &eng->domains[i], now);
	nvpc_modes_collect(eng, 0, eng->hw.nr_domains, now);
	for (m = 0; m < NVPC_NR_MODES; m++)
		if (eng->modes[m]->commit_end)
			eng->modes[m]->commit_end(eng);
	/*
	 * A domain started by this commit, or given a new counter mode
	 * (CTRL written after the swap), begins a clean period for its new
	 * events
	 */
	for (i = 0; i < eng->hw.nr_domains && early; i++)
		eng->domains[i].commit_seq = 0;
	list_for_each_entry(event, &eng->fresh, active_entry) {
		struct nvpc_domain *dom = event->pmu_private;

		if (dom->run && dom->run->fresh)
			dom->run->fresh(eng, dom);
	}
	list_for_each_entry_safe(event, tmp, &eng->fresh, active_entry) {
		struct nvpc_domain *dom = event->pmu_private;

		local64_set(&event->hw.prev_count, dom->acc[event->hw.idx]);
		event->hw.flags &= ~NVPC_HW_FRESH;
		list_del_init(&event->active_entry);
	}
	eng->txn_seq++;
}

/*
 * Start the poll with the first active event, stop it with the last
 * (perf callbacks: neither waits).
 */
static void nvpc_poll_kick(struct nvpc_engine *eng)
{
	if (READ_ONCE(eng->nr_active) && !READ_ONCE(eng->gone))
		queue_delayed_work(system_unbound_wq, &eng->poll_work,
				   nsecs_to_jiffies(READ_ONCE(eng->poll_ns)));
	else
		cancel_delayed_work(&eng->poll_work);
}

/* a claim's name for the log: its mode's, or record's (no mode) */
static const char *nvpc_claim_name(const struct nvpc_mode_ops *mode)
{
	return mode ? mode->name : "record";
}

/**
 * nvpc_domain_claim() - claim a domain for an event's mode
 * @eng: the GPU's engine
 * @dom: the domain
 * @claim: NVPC_CLAIM_*
 *
 * A domain runs one mode at a time: counting events share it, as do the
 * inputs of one window program; a record event has it alone (no mode:
 * record.c runs it and keeps its session in &nvpc_domain.priv). The
 * mode's ops (&nvpc_engine.modes) run the domain from the next commit on,
 * and its state (&nvpc_domain.priv) is made here for the first claim.
 * nvpc_domain_unclaim() gives the claim back.
 *
 * Context: process context (event_init); takes &nvpc_engine.lock.
 * Return: 0, -EBUSY if the domain is claimed for another mode (or
 * records), or still runs another, -EIO for a counting claim on a
 * domain a record VM fault wedged, or -ENOMEM.
 */
int nvpc_domain_claim(struct nvpc_engine *eng, struct nvpc_domain *dom,
		      enum nvpc_claim claim)
{
	const struct nvpc_mode_ops *mode, *held;
	void *priv = NULL, *old = NULL;
	unsigned long flags;
	bool busy, wedged;

	mode = claim < NVPC_NR_MODES ? eng->modes[claim] : NULL;
	/* the mode's state, in case this is the first claim */
	if (mode && mode->setup) {
		priv = mode->setup(eng);
		if (!priv)
			return -ENOMEM;
	}
	nvpc_lock(eng, flags);
	/*
	 * A record VM fault wedges the domain until PCOUNTER is reset
	 * (pcounter.rst "Record mode setup"): nothing counts on it. Its
	 * RECORD_STATUS says whether a reset came since (FAULT gone).
	 */
	wedged = claim != NVPC_CLAIM_RECORD &&
		 READ_ONCE(dom->rec_state) == NVPC_REC_FAULTED &&
		 !READ_ONCE(eng->gone);
	if (wedged) {
		u32 st = eng->hw.gen->record_status(&eng->hw, dom->hw);

		wedged = st != U32_MAX && (st & NVPC_RECORD_STATUS_FAULT);
		if (!wedged)
			WRITE_ONCE(dom->rec_state, NVPC_REC_IDLE);
	}
	held = dom->nr_claims ? dom->mode : dom->run;
	busy = !wedged &&
	       ((dom->nr_claims && (held != mode || !mode)) ||
		(dom->run && dom->run != mode));
	if (!busy && !wedged) {
		/* a state another mode left (its domain ran on) goes */
		if (!dom->nr_claims && dom->mode != mode) {
			old = dom->mode && dom->mode->setup ? dom->priv : NULL;
			dom->priv = NULL;
		}
		if (priv && !dom->priv) {
			dom->priv = priv;
			priv = NULL;
		}
		dom->mode = mode;
		dom->nr_claims++;
	}
	nvpc_unlock(eng, flags);
	kfree(priv);
	kfree(old);
	if (wedged) {
		nvpc_dbg(eng, "domain %s is wedged by a record VM fault until PCOUNTER is reset (record_state faulted): no %s event on it\n",
			 dom->hw->name, nvpc_claim_name(mode));
		return -EIO;
	}
	if (!busy)
		return 0;
	nvpc_dbg(eng, "domain %s is claimed for %s: no %s event on it\n",
		 dom->hw->name, nvpc_claim_name(held), nvpc_claim_name(mode));
	return -EBUSY;
}

/**
 * nvpc_domain_unclaim() - give back one nvpc_domain_claim()
 * @eng: the GPU's engine
 * @dom: the domain
 *
 * The last claim frees the mode's state, unless the domain still runs
 * (then the next claim or nvpc_engine_fini() does).
 *
 * Context: process context; takes &nvpc_engine.lock.
 */
void nvpc_domain_unclaim(struct nvpc_engine *eng, struct nvpc_domain *dom)
{
	unsigned long flags;
	void *priv = NULL;

	nvpc_lock(eng, flags);
	if (dom->nr_claims)
		dom->nr_claims--;
	if (!dom->nr_claims && !dom->run && dom->mode && dom->mode->setup) {
		priv = dom->priv;
		dom->priv = NULL;
	}
	nvpc_unlock(eng, flags);
	kfree(priv);
}

/**
 * nvpc_engine_txn() - open or close a perf transaction (pmu_disable and
 *	pmu_enable)
 * @eng: the GPU's engine
 * @open: true to open, false to close
 *
 * Adds and dels inside a transaction only update the slot tables; closing
 * the outermost one programs the hardware once.
 *
 * Return: true when this closed the outermost transaction.
 */
bool nvpc_engine_txn(struct nvpc_engine *eng, bool open)
{
	unsigned long flags;

	nvpc_lock(eng, flags);
	if (open)
		eng->txn++;
	else if (eng->txn && !--eng->txn)
		nvpc_commit(eng);
	nvpc_unlock(eng, flags);
	if (open || eng->txn)
		return false;
	nvpc_poll_kick(eng);
	return true;
}

/*
 * Deleted earlier in this same transaction (perf rotating): an add may
 * take it back as it was. Read once; the tag is cleared.
 */
static bool nvpc_event_rotating(struct nvpc_engine *eng,
				struct perf_event *event)
{
	bool rotating = eng->txn && event->hw.last_tag == eng->txn_seq + 1;

	event->hw.last_tag = 0;
	return rotating;
}

/* Put the event on counter @idx, its slots @claimed, in the shadows. */
static void nvpc_event_place(struct nvpc_engine *eng, struct nvpc_domain *dom,
			     struct perf_event *event, int idx,
			     unsigned long claimed)
{
	event->hw.idx = idx;
	event->hw.config_base = claimed;
	if (idx == NVPC_CTR_CYCLES) {
		dom->nr_cycles++;
		/* a domain that starts needs a program */
		dom->dirty_mode |= !dom->run;
	} else {
		nvpc_slot_regs(eng, dom, event);
		dom->dirty |= claimed;
	}
	if (nvpc_slot_sets_mode(event))
		dom->dirty_mode = true;
}

/**
 * nvpc_engine_add() - start counting an event
 * @eng: the GPU's engine
 * @event: an initialised event
 *
 * Steps: is it rotating back, allocate its counter, place it in the
 * shadows, keep its count if it is back where it counted, and otherwise
 * start it fresh at the commit.
 *
 * Return: 0, or -ENOSPC when the domain has no free slot (perf then
 * multiplexes), -ENODEV when the device is gone.
 */
int nvpc_engine_add(struct nvpc_engine *eng, struct perf_event *event)
{
	struct nvpc_domain *dom = event->pmu_private;
	unsigned long flags, claimed;
	bool rotating, kept;
	int idx, old_idx;

	nvpc_lock(eng, flags);
	rotating = nvpc_event_rotating(eng, event);
	if (READ_ONCE(eng->gone)) {
		/*
		 * Deleted earlier in this transaction (perf's ctx_resched()
		 * dels and adds every event of the context when one opens)
		 * while the GPU was there: the commit would fold its last
		 * counts from hw.idx, which is overwritten below. Its mode
		 * folds them now, without a sample: nothing reads the
		 * hardware once the GPU is gone, so the sums already hold all
		 * it counted.
		 */
		if (event->hw.flags & NVPC_HW_LEAVING)
			dom->mode->back(eng, event, event->hw.idx, false);
		/*
		 * The GPU went away: the event stays in perf's schedule
		 * (a pinned one would otherwise go to its error state and
		 * read nothing) and keeps its last value (perf.rst)
		 */
		event->hw.idx = NVPC_IDX_DETACHED;
		event->hw.config_base = 0;
		nvpc_unlock(eng, flags);
		return 0;
	}
	idx = nvpc_slot_alloc(eng, eng->slots, dom, event, &claimed,
			      rotating ? event->hw.config_base : 0);
	if (idx < 0) {
		nvpc_unlock(eng, flags);
		nvpc_dbg(eng, "domain %s: no free slot\n", dom->hw->name);
		return idx;
	}
	old_idx = event->hw.idx;
	kept = rotating && idx == old_idx && claimed == event->hw.config_base;
	nvpc_event_place(eng, dom, event, idx, claimed);
	/*
	 * Kept: back on the same counter, programmed as before, so the
	 * hardware never stopped counting it and it keeps its count across
	 * the rotation (perf accounts the rotation as running time of the
	 * events it puts back)
	 */
	kept = kept && dom->run && nvpc_slots_programmed(dom, claimed);
	if (event->hw.flags & NVPC_HW_LEAVING)
		dom->mode->back(eng, event, old_idx, kept);
	if (!kept) {
		event->hw.flags |= NVPC_HW_FRESH;
		list_add_tail(&event->active_entry, &eng->fresh);
	}
	eng->nr_active++;
	if (!eng->txn)
		nvpc_commit(eng);
	nvpc_unlock(eng, flags);
	if (!eng->txn)
		nvpc_poll_kick(eng);
	return 0;
}

/**
 * nvpc_event_sample_out() - an event leaves a domain whose counts are
 *	live (NV10:NV30's program, a window): fold them now
 * @eng: the GPU's engine (lock held)
 * @event: the event, committed
 * @fold: its last counts are its own
 *
 * One sample of the domain serves every del of a transaction.
 */
void nvpc_event_sample_out(struct nvpc_engine *eng, struct perf_event *event,
			   bool fold)
{
	struct nvpc_domain *dom = event->pmu_private;

	if (!eng->txn || dom->sampled_txn != eng->txn_seq + 1)
		nvpc_engine_sample(eng, dom);
	if (fold)
		nvpc_event_fold(event, event->hw.idx);
	else
		local64_set(&event->hw.prev_count, dom->acc[event->hw.idx]);
}

/**
 * nvpc_engine_del() - stop counting an event and free its slots
 * @eng: the GPU's engine
 * @event: an added event
 * @fold: fold in its last counts (false for a stopped event)
 */
void nvpc_engine_del(struct nvpc_engine *eng, struct perf_event *event,
		     bool fold)
{
	struct nvpc_domain *dom = event->pmu_private;
	unsigned long claims = event->hw.config_base, flags;
	unsigned int s;

	if (event->hw.idx == NVPC_IDX_DETACHED)
		return;
	nvpc_lock(eng, flags);
	if (event->hw.flags & NVPC_HW_FRESH) {
		/* added and deleted in one transaction: it never counted */
		event->hw.flags &= ~NVPC_HW_FRESH;
		list_del_init(&event->active_entry);
	} else {
		dom->mode->del(eng, event, fold);
		/* an add in this transaction may take it back as it was */
		event->hw.last_tag = eng->txn && fold ? eng->txn_seq + 1 : 0;
	}
	nvpc_slot_free(dom->slots, event);
	if (event->hw.idx == NVPC_CTR_CYCLES) {
		dom->nr_cycles--;
		dom->dirty_mode |= !nvpc_domain_busy(dom);
	}
	for_each_set_bit(s, &claims, NVPC_NR_SLOTS) {
		dom->hw->src[s] = 0;
		dom->hw->op[s] = 0;
	}
	dom->dirty |= claims;
	if (nvpc_slot_sets_mode(event))
		dom->dirty_mode = true;
	eng->nr_active--;
	if (!eng->txn)
		nvpc_commit(eng);
	nvpc_unlock(eng, flags);
	if (!eng->txn)
		nvpc_poll_kick(eng);
}
