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

#include "core.h"

static void nvpc_poll_work(struct work_struct *work);
static void nvpc_poll_update(struct nvpc_core *core);

/*
 * The shortest poll period: 2^31 cycles take 1 s at 2 GHz, so only a
 * clock above 200 GHz (a sim's manual clock) would ask for less, and a
 * poll must leave the CPU time to do anything else.
 */
#define NVPC_POLL_MIN_NS	(10 * NSEC_PER_MSEC)
/* the longest: slow clocks still get their clock measured now and then */
#define NVPC_POLL_MAX_NS	(10 * NSEC_PER_SEC)

/*
 * A swap lands on the domain's next cycle, well within one MMIO read on a
 * GPU: a sample polls each swapped domain's counters and QUAD_STATE once.
 * The domains whose swap has not landed yet (stragglers, counted) share
 * this many more polls per sample, which cover a simulated clock of
 * 100 kHz; a bound, so that a sample is a bounded number of register
 * accesses however many domains it swaps.
 */
#define NVPC_SWAP_POLLS		8

/* Each mode's state of each domain, where the mode keeps one. */
static int nvpc_modes_setup(struct nvpc_core *core)
{
	unsigned int i, m;
	int ret;

	for (i = 0; i < core->hw.nr_domains; i++) {
		for (m = 0; m < NVPC_NR_CLAIMS; m++) {
			if (!core->modes[m]->setup)
				continue;
			ret = core->modes[m]->setup(core, &core->domains[i]);
			if (ret) {
				nvpc_engine_fini(core);
				return ret;
			}
		}
	}
	return 0;
}

/**
 * nvpc_engine_init() - build the domain table of a GPU
 * @core: the GPU
 *
 * Return: 0, -EOPNOTSUPP if the generation cannot count yet, -ENOMEM.
 */
int nvpc_engine_init(struct nvpc_core *core)
{
	struct nvpc_hw *hw = &core->hw;
	unsigned int i, n;

	hw->gen = nvpc_gen_ops_of(hw->chip);
	if (!hw->gen)
		return -EOPNOTSUPP;
	INIT_DELAYED_WORK(&core->poll_work, nvpc_poll_work);
	core->poll_ns = NVPC_POLL_MAX_NS;
	/* the one place a generation's counting mode is chosen */
	core->modes[NVPC_CLAIM_COUNT] = hw->gen->single ? &nvpc_mode_live :
							  &nvpc_mode_quad;
	core->modes[NVPC_CLAIM_WINDOW] = &nvpc_mode_window;
	core->modes[NVPC_CLAIM_RECORD] = &nvpc_mode_record;

	n = nvpc_hw_nr_domains(hw);
	hw->domains = kcalloc(n, sizeof(*hw->domains), GFP_KERNEL);
	core->domains = kcalloc(n, sizeof(*core->domains), GFP_KERNEL);
	core->slots = kcalloc(n, sizeof(*core->slots), GFP_KERNEL);
	if (!hw->domains || !core->domains || !core->slots) {
		nvpc_engine_fini(core);
		return -ENOMEM;
	}
	nvpc_hw_domains_init(hw);
	for (i = 0; i < hw->nr_domains; i++) {
		core->domains[i].hw = &hw->domains[i];
		core->domains[i].slots = &core->slots[i];
	}
	/* no event yet, nothing else touches the registers */
	if (hw->gen->init)
		hw->gen->init(hw);
	return nvpc_modes_setup(core);
}

/**
 * nvpc_engine_fini() - stop polling and free the domain table
 * @core: the GPU, no event left
 *
 * Context: process context; may sleep.
 */
void nvpc_engine_fini(struct nvpc_core *core)
{
	unsigned int i, m;

	if (core->hw.gen)
		cancel_delayed_work_sync(&core->poll_work);
	for (i = 0; i < core->hw.nr_domains; i++)
		for (m = 0; m < NVPC_NR_CLAIMS; m++)
			if (core->modes[m]->teardown)
				core->modes[m]->teardown(&core->domains[i]);
	kfree(core->domains);
	kfree(core->slots);
	kfree(core->hw.domains);
	core->domains = NULL;
	core->slots = NULL;
	core->hw.domains = NULL;
	core->hw.nr_domains = 0;
}

/**
 * nvpc_domain_find() - the domain a config1 value names
 * @core: the GPU
 * @config1: perf_event_attr.config1
 *
 * Return: the domain, or NULL if reserved bits are set or it is absent.
 */
struct nvpc_domain *nvpc_domain_find(struct nvpc_core *core, u64 config1)
{
	u8 dset = FIELD_GET(NVPC_CFG1_DSET, config1);
	u8 unit = FIELD_GET(NVPC_CFG1_UNIT, config1);
	u8 index = FIELD_GET(NVPC_CFG1_DOM, config1);
	unsigned int i;

	if (config1 & NVPC_CFG1_RESERVED)
		return NULL;
	for (i = 0; i < core->hw.nr_domains; i++) {
		struct nvpc_domain *dom = &core->domains[i];

		if (dom->hw->dset == dset && dom->hw->unit == unit &&
		    dom->hw->index == index)
			return dom;
	}
	return NULL;
}

/**
 * nvpc_domain_used() - the counters a domain's events use
 * @dom: the domain
 *
 * Return: BIT(counter) of its slots' events and events leaving, and
 * CTR_CYCLES (for the clock).
 */
unsigned long nvpc_domain_used(struct nvpc_domain *dom)
{
	unsigned long used = BIT(NVPC_CTR_CYCLES) | dom->leaving;
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
 * @end) marked @swapped (quad mode's swaps): each is polled once, and the
 * stragglers (not landed at their first poll, counted) are polled again in turn, NVPC_SWAP_POLLS
 * polls for all of them together. At most (end - first) + NVPC_SWAP_POLLS
 * polls, however many straggle; a domain still waiting after them did
 * not respond: its period is not read.
 */
static void nvpc_domains_collect(struct nvpc_core *core, unsigned int first,
				 unsigned int end, u64 now)
{
	unsigned int i, polls = NVPC_SWAP_POLLS;
	bool waiting = false;

	for (i = first; i < end; i++) {
		struct nvpc_domain *d = &core->domains[i];

		if (!d->swapped)
			continue;
		d->sampled_txn = core->txn ? core->txn_seq + 1 : 0;
		d->swapped = d->run->poll(core, d, now);
		if (d->swapped)
			d->stats.stragglers++;
		waiting |= d->swapped;
	}
	while (waiting && polls) {
		waiting = false;
		for (i = first; i < end && polls; i++) {
			struct nvpc_domain *d = &core->domains[i];

			if (!d->swapped)
				continue;
			polls--;
			d->swapped = d->run->poll(core, d, now);
			waiting |= d->swapped;
		}
	}
	for (i = first; i < end; i++) {
		struct nvpc_domain *d = &core->domains[i];

		if (!d->swapped)
			continue;
		d->swapped = false;
		d->stats.not_responding++;
		dev_warn_ratelimited(core->hw.dev,
				     "%s: domain %s: swap did not land within the sample's polls, no counts read\n",
				     core->name, d->hw->name);
	}
}

/**
 * nvpc_engine_sample() - fold what running domains counted into their sums
 * @core: the GPU (lock held)
 * @dom: the domain, or NULL for every running domain
 *
 * A swap that reaches every domain (PGRAPH PM_TRIGGER, @global_swap)
 * samples them all, so that no domain loses a period; a generation with
 * one swap trigger per domain samples only the domain asked for. Work
 * under the lock: one domain's accesses, or those of the at most 8
 * domains of a @global_swap generation.
 */
void nvpc_engine_sample(struct nvpc_core *core, struct nvpc_domain *dom)
{
	unsigned int i, first = 0, end = core->hw.nr_domains;
	u64 now;

	lockdep_assert_held(&core->lock);
	if (READ_ONCE(core->gone))
		return;
	if (dom && !core->hw.gen->global_swap) {
		if (!dom->run)
			return;
		first = dom - core->domains;
		end = first + 1;
	}
	now = ktime_get_ns();
	for (i = first; i < end; i++) {
		struct nvpc_domain *d = &core->domains[i];

		if (!d->run)
			continue;
		d->run->sample(core, d, now);
		d->sampled_txn = core->txn ? core->txn_seq + 1 : 0;
	}
	nvpc_domains_collect(core, first, end, now);
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

/* the same, up to counter @idx's current sum */
static void nvpc_event_fold(struct perf_event *event, int idx)
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
static void nvpc_engine_snap(struct nvpc_core *core, struct nvpc_domain *dom)
{
	unsigned int i;

	dom->snap = core->snap;
	memcpy(dom->snap_acc, dom->acc, sizeof(dom->acc));
	/* one swap per domain elsewhere: no walk over every domain */
	if (!core->hw.gen->global_swap)
		return;
	for (i = 0; i < core->hw.nr_domains; i++) {
		struct nvpc_domain *d = &core->domains[i];

		if (d == dom || !d->run)
			continue;
		d->snap = core->snap;
		memcpy(d->snap_acc, d->acc, sizeof(d->acc));
	}
}

/**
 * nvpc_engine_update() - sample the GPU and bring an event up to date
 * @core: the GPU
 * @event: an added event
 * @fold: add what the event's slot counted since its last update to its
 *	count (false when restarting a stopped event: those counts are not
 *	the event's)
 */
void nvpc_engine_update(struct nvpc_core *core, struct perf_event *event,
			bool fold)
{
	struct nvpc_domain *dom = event->pmu_private;
	unsigned long flags;

	/* added after its GPU went away: nothing counts, nothing changes */
	if (event->hw.idx == NVPC_IDX_DETACHED)
		return;
	nvpc_lock(core, flags);
	/*
	 * One sample of a domain serves a whole group read (pmu.c): its
	 * members count up to the sums of that sample (@snap_acc), not to
	 * what a poll on another CPU sampled between their reads. A member
	 * already past that sample (moved since by a path that is not a
	 * group read) gets a fresh one: a count never goes back.
	 */
	if (!core->snap || dom->snap != core->snap ||
	    (!(event->hw.flags & NVPC_HW_FRESH) &&
	     local64_read(&event->hw.prev_count) >
	     dom->snap_acc[event->hw.idx])) {
		nvpc_engine_sample(core, dom);
		nvpc_engine_snap(core, dom);
	}
	/* not counting before the transaction's commit */
	if (!(event->hw.flags & NVPC_HW_FRESH)) {
		u64 now = dom->snap_acc[event->hw.idx];

		if (fold)
			nvpc_event_fold_to(event, now);
		else
			local64_set(&event->hw.prev_count, now);
	}
	nvpc_unlock(core, flags);
}

/*
 * The poll: in process context, one domain per lock hold (all of them at
 * once only where one swap reaches them all), so that interrupts stay
 * off for one domain's register accesses at a time however many domains
 * run. It stops when the last event goes or the device is gone.
 */
static void nvpc_poll_work(struct work_struct *work)
{
	struct nvpc_core *core = container_of(to_delayed_work(work),
					      struct nvpc_core, poll_work);
	unsigned long flags;
	unsigned int i;
	bool more;

	for (i = 0; i < core->hw.nr_domains; i++) {
		nvpc_lock(core, flags);
		/* perf is between adds and dels: sample at the next poll */
		if (!core->txn)
			nvpc_engine_sample(core, core->hw.gen->global_swap ?
					   NULL : &core->domains[i]);
		nvpc_unlock(core, flags);
		if (core->hw.gen->global_swap)
			break;
		cond_resched();
	}
	nvpc_lock(core, flags);
	nvpc_poll_update(core);
	more = core->nr_active && !READ_ONCE(core->gone);
	nvpc_unlock(core, flags);
	if (more)
		queue_delayed_work(system_unbound_wq, &core->poll_work,
				   nsecs_to_jiffies(core->poll_ns));
}

/*
 * The poll period keeps the fastest running domain's counters at most
 * half full: 2^31 cycles (2^38 for 40-bit live counters) at the larger of
 * its nominal and its measured clock, within 10 ms .. 10 s. No running
 * domain, or any clock from 1 Hz to a saturated measurement, gives a
 * period in that range without overflow.
 */
static void nvpc_poll_update(struct nvpc_core *core)
{
	unsigned int bits = 64;
	u64 half, hz = 0, ns;
	unsigned int i;

	for (i = 0; i < core->hw.nr_domains; i++) {
		struct nvpc_domain *dom = &core->domains[i];

		if (!dom->run)
			continue;
		bits = min(bits, dom->run->width(core));
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
	core->poll_ns = clamp_t(u64, ns, NVPC_POLL_MIN_NS, NVPC_POLL_MAX_NS);
}

/**
 * nvpc_domain_program() - write a domain's whole counting program
 * @core: the GPU (lock held)
 * @dom: the domain
 *
 * Its counter mode and all four inputs, from the shadows.
 */
void nvpc_domain_program(struct nvpc_core *core, struct nvpc_domain *dom)
{
	unsigned int s;

	dom->hw->ctr_mode = nvpc_ctr_mode(core, dom);
	core->hw.gen->start(&core->hw, dom->hw);
	for (s = 0; s < NVPC_NR_SLOTS; s++)
		if (core->hw.gen->slots & BIT(s))
			core->hw.gen->program(&core->hw, dom->hw, s);
	memcpy(dom->hw->hw_src, dom->hw->src, sizeof(dom->hw->src));
	memcpy(dom->hw->hw_op, dom->hw->op, sizeof(dom->hw->op));
	dom->sample_ns = ktime_get_ns();
	dom->clock_win_ns = 0;
}

/**
 * nvpc_domain_set_ctr_mode() - write a changed counter mode
 * @core: the GPU (lock held)
 * @dom: a running counting domain
 *
 * A shared CTRL (NV10:NV40) is written only if the GPU's mode changed.
 */
void nvpc_domain_set_ctr_mode(struct nvpc_core *core, struct nvpc_domain *dom)
{
	u8 mode = nvpc_ctr_mode(core, dom);

	if (core->hw.gen->shared_ctrl && dom->hw->ctr_mode == mode)
		return;
	dom->hw->ctr_mode = mode;
	core->hw.gen->start(&core->hw, dom->hw);
}

/**
 * nvpc_shared_ctrl_begin() - a generation op that may write the shared
 *	CTRL (NV10:NV40) for @self follows
 * @core: the GPU (lock held)
 * @self: the domain the op is for
 *
 * A CTRL write aborts the single event process of every domain
 * (pcounter.rst "Single event mode"): the other running domains' modes
 * fold theirs now (&nvpc_mode_ops.ctrl_before) and, if the op wrote CTRL,
 * start it again at nvpc_shared_ctrl_end(). Calls nest; the outermost
 * pair acts.
 */
void nvpc_shared_ctrl_begin(struct nvpc_core *core, struct nvpc_domain *self)
{
	unsigned int i;

	if (!core->hw.gen->shared_ctrl || core->ctrl_nest++)
		return;
	core->ctrl_seq = core->hw.ctrl_writes;
	for (i = 0; i < core->hw.nr_domains; i++) {
		struct nvpc_domain *o = &core->domains[i];

		if (o != self && o->run && o->run->ctrl_before)
			o->run->ctrl_before(core, o);
	}
}

/**
 * nvpc_shared_ctrl_end() - the op nvpc_shared_ctrl_begin() announced ran
 * @core: the GPU (lock held)
 * @self: the domain it was for
 */
void nvpc_shared_ctrl_end(struct nvpc_core *core, struct nvpc_domain *self)
{
	unsigned int i;

	if (!core->hw.gen->shared_ctrl)
		return;
	/* the outermost end, and the op wrote CTRL */
	if (core->ctrl_nest == 1 && core->hw.ctrl_writes != core->ctrl_seq) {
		for (i = 0; i < core->hw.nr_domains; i++) {
			struct nvpc_domain *o = &core->domains[i];

			if (o != self && o->run && o->run->ctrl_after)
				o->run->ctrl_after(core, o);
		}
	}
	core->ctrl_nest--;
}

/*
 * A counter mode change: on a shared CTRL every running domain takes the
 * new mode, elsewhere only @dom. Modes without one (windows, whose CTRL
 * fields are window.c's) are left alone.
 */
static void nvpc_mode_update(struct nvpc_core *core, struct nvpc_domain *dom)
{
	unsigned int i;

	for (i = 0; i < core->hw.nr_domains; i++) {
		struct nvpc_domain *d = &core->domains[i];

		if ((d != dom && !core->hw.gen->shared_ctrl) || !d->run ||
		    !d->run->set_ctr_mode)
			continue;
		nvpc_shared_ctrl_begin(core, d);
		d->run->set_ctr_mode(core, d);
		nvpc_shared_ctrl_end(core, d);
	}
}

/**
 * nvpc_event_program() - write the slots in @claims whose shadows changed
 * @core: the GPU (lock held)
 * @dom: the domain
 * @claims: slots (BIT(NVPC_SLOT_*))
 *
 * Return: the slots written.
 */
unsigned long nvpc_event_program(struct nvpc_core *core,
				 struct nvpc_domain *dom, unsigned long claims)
{
	unsigned long written = 0;
	unsigned int s;

	for_each_set_bit(s, &claims, NVPC_NR_SLOTS) {
		if (nvpc_slots_programmed(dom, BIT(s)))
			continue;
		core->hw.gen->program(&core->hw, dom->hw, s);
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
static void nvpc_commit_read(struct nvpc_core *core, struct nvpc_domain *dom,
			     u64 now)
{
	unsigned int i = dom - core->domains;

	nvpc_domains_collect(core, i, i + 1, now);
}

/* Start, stop or reprogram a domain a transaction changed. */
static void nvpc_domain_commit(struct nvpc_core *core, struct nvpc_domain *dom,
			       u64 now)
{
	bool gone = READ_ONCE(core->gone), busy = nvpc_domain_busy(dom);

	nvpc_shared_ctrl_begin(core, dom);
	if (busy && !dom->run) {
		if (!gone)
			dom->mode->start(core, dom);
		dom->run = dom->mode;
		nvpc_poll_update(core);
	} else if (!busy && dom->run) {
		nvpc_commit_read(core, dom, now);
		if (!gone)
			dom->run->stop(core, dom);
		dom->run = NULL;
	} else if (busy && !gone) {
		dom->run->update(core, dom, dom->dirty);
	}
	nvpc_shared_ctrl_end(core, dom);
	if (dom->dirty_mode && !gone)
		nvpc_mode_update(core, dom);
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
static void nvpc_commit(struct nvpc_core *core)
{
	bool dirty = false, early = false;
	struct perf_event *event, *tmp;
	unsigned int i, m;
	u64 now;

	lockdep_assert_held(&core->lock);
	for (i = 0; i < core->hw.nr_domains; i++) {
		dirty |= core->domains[i].dirty || core->domains[i].dirty_mode;
		early |= core->domains[i].dirty_mode;
	}
	for (m = 0; m < NVPC_NR_CLAIMS; m++)
		if (core->modes[m]->commit_begin)
			core->modes[m]->commit_begin(core, dirty);
	now = ktime_get_ns();
	/*
	 * A counter mode is written to CTRL (shared by every domain on
	 * NV30:NV40): read what the swap ended before any CTRL write
	 */
	if (early || core->hw.gen->shared_ctrl)
		nvpc_domains_collect(core, 0, core->hw.nr_domains, now);
	for (i = 0; i < core->hw.nr_domains; i++)
		if (core->domains[i].dirty || core->domains[i].dirty_mode)
			nvpc_domain_commit(core, &core->domains[i], now);
	nvpc_domains_collect(core, 0, core->hw.nr_domains, now);
	list_for_each_entry_safe(event, tmp, &core->leaving, active_entry) {
		nvpc_event_fold(event, event->hw.idx);
		event->hw.flags &= ~NVPC_HW_LEAVING;
		list_del_init(&event->active_entry);
	}
	for (i = 0; i < core->hw.nr_domains; i++)
		core->domains[i].leaving = 0;
	/*
	 * A domain started by this commit, or given a new counter mode
	 * (CTRL written after the swap), begins a clean period for its new
	 * events
	 */
	for (i = 0; i < core->hw.nr_domains && early; i++)
		core->domains[i].commit_seq = 0;
	list_for_each_entry(event, &core->fresh, active_entry) {
		struct nvpc_domain *dom = event->pmu_private;

		if (dom->run && dom->run->fresh)
			dom->run->fresh(core, dom);
	}
	list_for_each_entry_safe(event, tmp, &core->fresh, active_entry) {
		struct nvpc_domain *dom = event->pmu_private;

		local64_set(&event->hw.prev_count, dom->acc[event->hw.idx]);
		event->hw.flags &= ~NVPC_HW_FRESH;
		list_del_init(&event->active_entry);
	}
	core->txn_seq++;
}

/*
 * Start the poll with the first active event, stop it with the last
 * (perf callbacks: neither waits).
 */
static void nvpc_poll_kick(struct nvpc_core *core)
{
	if (READ_ONCE(core->nr_active) && !READ_ONCE(core->gone))
		queue_delayed_work(system_unbound_wq, &core->poll_work,
				   nsecs_to_jiffies(READ_ONCE(core->poll_ns)));
	else
		cancel_delayed_work(&core->poll_work);
}

/**
 * nvpc_domain_claim() - claim a domain for an event's mode
 * @core: the GPU
 * @dom: the domain
 * @claim: NVPC_CLAIM_*
 *
 * A domain runs one mode at a time: counting events share it, as do the
 * inputs of one window program; a record event has it alone. The mode's
 * ops (&nvpc_core.modes) run the domain from the next commit on.
 * nvpc_domain_unclaim() gives the claim back.
 *
 * Context: any; takes &nvpc_core.lock.
 * Return: 0, -EBUSY if the domain is claimed for another mode (or
 * records), or still runs another, or -EIO for a counting claim on a
 * domain a record VM fault wedged.
 */
int nvpc_domain_claim(struct nvpc_core *core, struct nvpc_domain *dom,
		      enum nvpc_claim claim)
{
	const struct nvpc_mode_ops *mode = core->modes[claim], *held;
	unsigned long flags;
	bool busy, wedged;

	nvpc_lock(core, flags);
	/*
	 * A record VM fault wedges the domain until PCOUNTER is reset
	 * (pcounter.rst "Record mode setup"): nothing counts on it. Its
	 * RECORD_STATUS says whether a reset came since (FAULT gone).
	 */
	wedged = claim != NVPC_CLAIM_RECORD &&
		 READ_ONCE(dom->rec_state) == NVPC_REC_FAULTED &&
		 !READ_ONCE(core->gone);
	if (wedged) {
		u32 st = core->hw.gen->record_status(&core->hw, dom->hw);

		wedged = st != U32_MAX && (st & NVPC_RECORD_STATUS_FAULT);
		if (!wedged)
			WRITE_ONCE(dom->rec_state, NVPC_REC_IDLE);
	}
	held = dom->nr_claims ? dom->mode : dom->run;
	busy = !wedged &&
	       ((dom->nr_claims && (held != mode || mode->alone)) ||
		(dom->run && dom->run != mode));
	if (!busy && !wedged) {
		dom->mode = mode;
		dom->nr_claims++;
	}
	nvpc_unlock(core, flags);
	if (wedged) {
		nvpc_dbg(core, "domain %s is wedged by a record VM fault until PCOUNTER is reset (record_state faulted): no %s event on it\n",
			 dom->hw->name, mode->name);
		return -EIO;
	}
	if (!busy)
		return 0;
	nvpc_dbg(core, "domain %s is claimed for %s: no %s event on it\n",
		 dom->hw->name, held->name, mode->name);
	return -EBUSY;
}

/**
 * nvpc_domain_unclaim() - give back one nvpc_domain_claim()
 * @core: the GPU
 * @dom: the domain
 */
void nvpc_domain_unclaim(struct nvpc_core *core, struct nvpc_domain *dom)
{
	unsigned long flags;

	nvpc_lock(core, flags);
	if (dom->nr_claims)
		dom->nr_claims--;
	nvpc_unlock(core, flags);
}

/**
 * nvpc_engine_txn() - open or close a perf transaction (pmu_disable and
 *	pmu_enable)
 * @core: the GPU
 * @open: true to open, false to close
 *
 * Adds and dels inside a transaction only update the slot tables; closing
 * the outermost one programs the hardware once.
 */
void nvpc_engine_txn(struct nvpc_core *core, bool open)
{
	unsigned long flags;

	unsigned int m;

	nvpc_lock(core, flags);
	if (open)
		core->txn++;
	else if (core->txn && !--core->txn)
		nvpc_commit(core);
	nvpc_unlock(core, flags);
	if (open || core->txn)
		return;
	nvpc_poll_kick(core);
	for (m = 0; m < NVPC_NR_CLAIMS; m++)
		if (core->modes[m]->txn_end)
			core->modes[m]->txn_end(core);
}

/*
 * Deleted earlier in this same transaction (perf rotating): an add may
 * take it back as it was. Read once; the tag is cleared.
 */
static bool nvpc_event_rotating(struct nvpc_core *core,
				struct perf_event *event)
{
	bool rotating = core->txn && event->hw.last_tag == core->txn_seq + 1;

	event->hw.last_tag = 0;
	return rotating;
}

/* Put the event on counter @idx, its slots @claimed, in the shadows. */
static void nvpc_event_place(struct nvpc_core *core, struct nvpc_domain *dom,
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
		nvpc_slot_regs(core, dom, event);
		dom->dirty |= claimed;
	}
	if (nvpc_slot_sets_mode(event))
		dom->dirty_mode = true;
}

/*
 * Back before the commit that was to fold its last counts. Where it
 * counted before (@kept) nothing is lost; elsewhere they are folded now,
 * with a swap of its own, from @old_idx.
 */
static void nvpc_event_unleave(struct nvpc_core *core,
			       struct perf_event *event, int old_idx,
			       bool kept)
{
	list_del_init(&event->active_entry);
	event->hw.flags &= ~NVPC_HW_LEAVING;
	if (!kept) {
		nvpc_engine_sample(core, event->pmu_private);
		nvpc_event_fold(event, old_idx);
	}
}

/**
 * nvpc_engine_add() - start counting an event
 * @core: the GPU
 * @event: an initialised event
 *
 * Steps: is it rotating back, allocate its counter, place it in the
 * shadows, keep its count if it is back where it counted, and otherwise
 * start it fresh at the commit.
 *
 * Return: 0, or -ENOSPC when the domain has no free slot (perf then
 * multiplexes), -ENODEV when the device is gone.
 */
int nvpc_engine_add(struct nvpc_core *core, struct perf_event *event)
{
	struct nvpc_domain *dom = event->pmu_private;
	unsigned long flags, claimed;
	bool rotating, kept;
	int idx, old_idx;

	nvpc_lock(core, flags);
	rotating = nvpc_event_rotating(core, event);
	if (READ_ONCE(core->gone)) {
		/*
		 * Deleted earlier in this transaction (perf's ctx_resched()
		 * dels and adds every event of the context when one opens)
		 * while the GPU was there: the commit would fold its last
		 * counts from hw.idx, which is overwritten below. Fold them
		 * now, without a sample: nothing reads the hardware once the
		 * GPU is gone, so the sums already hold all it counted.
		 */
		if (event->hw.flags & NVPC_HW_LEAVING) {
			list_del_init(&event->active_entry);
			event->hw.flags &= ~NVPC_HW_LEAVING;
			nvpc_event_fold(event, event->hw.idx);
		}
		/*
		 * The GPU went away: the event stays in perf's schedule
		 * (a pinned one would otherwise go to its error state and
		 * read nothing) and keeps its last value (perf.rst)
		 */
		event->hw.idx = NVPC_IDX_DETACHED;
		event->hw.config_base = 0;
		nvpc_unlock(core, flags);
		return 0;
	}
	idx = nvpc_slot_alloc(core, core->slots, dom, event, &claimed,
			      rotating ? event->hw.config_base : 0);
	if (idx < 0) {
		nvpc_unlock(core, flags);
		nvpc_dbg(core, "domain %s: no free slot\n", dom->hw->name);
		return idx;
	}
	old_idx = event->hw.idx;
	kept = rotating && idx == old_idx && claimed == event->hw.config_base;
	nvpc_event_place(core, dom, event, idx, claimed);
	/*
	 * Kept: back on the same counter, programmed as before, so the
	 * hardware never stopped counting it and it keeps its count across
	 * the rotation (perf accounts the rotation as running time of the
	 * events it puts back)
	 */
	kept = kept && dom->run && nvpc_slots_programmed(dom, claimed);
	if (event->hw.flags & NVPC_HW_LEAVING)
		nvpc_event_unleave(core, event, old_idx, kept);
	if (!kept) {
		event->hw.flags |= NVPC_HW_FRESH;
		list_add_tail(&event->active_entry, &core->fresh);
	}
	core->nr_active++;
	if (!core->txn)
		nvpc_commit(core);
	nvpc_unlock(core, flags);
	if (!core->txn)
		nvpc_poll_kick(core);
	return 0;
}

/**
 * nvpc_event_leave() - an event leaves a quad mode domain
 * @core: the GPU (lock held)
 * @event: the event, committed
 * @fold: its last counts are its own
 *
 * The commit's swap ends its period, the same swap that starts the events
 * added in this transaction; the commit folds its last counts.
 */
void nvpc_event_leave(struct nvpc_core *core, struct perf_event *event,
		      bool fold)
{
	struct nvpc_domain *dom = event->pmu_private;

	if (!fold)
		return;
	event->hw.flags |= NVPC_HW_LEAVING;
	list_add_tail(&event->active_entry, &core->leaving);
	dom->leaving |= BIT(event->hw.idx);
}

/**
 * nvpc_event_sample_out() - an event leaves a domain whose counts are
 *	live (NV10:NV30's program, a window): fold them now
 * @core: the GPU (lock held)
 * @event: the event, committed
 * @fold: its last counts are its own
 *
 * One sample of the domain serves every del of a transaction.
 */
void nvpc_event_sample_out(struct nvpc_core *core, struct perf_event *event,
			   bool fold)
{
	struct nvpc_domain *dom = event->pmu_private;

	if (!core->txn || dom->sampled_txn != core->txn_seq + 1)
		nvpc_engine_sample(core, dom);
	if (fold)
		nvpc_event_fold(event, event->hw.idx);
	else
		local64_set(&event->hw.prev_count, dom->acc[event->hw.idx]);
}

/**
 * nvpc_engine_del() - stop counting an event and free its slots
 * @core: the GPU
 * @event: an added event
 * @fold: fold in its last counts (false for a stopped event)
 */
void nvpc_engine_del(struct nvpc_core *core, struct perf_event *event,
		     bool fold)
{
	struct nvpc_domain *dom = event->pmu_private;
	unsigned long claims = event->hw.config_base, flags;
	unsigned int s;

	if (event->hw.idx == NVPC_IDX_DETACHED)
		return;
	nvpc_lock(core, flags);
	if (event->hw.flags & NVPC_HW_FRESH) {
		/* added and deleted in one transaction: it never counted */
		event->hw.flags &= ~NVPC_HW_FRESH;
		list_del_init(&event->active_entry);
	} else {
		dom->mode->del(core, event, fold);
		/* an add in this transaction may take it back as it was */
		event->hw.last_tag = core->txn && fold ? core->txn_seq + 1 : 0;
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
	core->nr_active--;
	if (!core->txn)
		nvpc_commit(core);
	nvpc_unlock(core, flags);
	if (!core->txn)
		nvpc_poll_kick(core);
}
