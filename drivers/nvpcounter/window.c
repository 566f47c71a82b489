// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: single event mode events (windows and thresholds)
 *
 * pcounter.rst "Single event mode": a domain counts its EVENT input only
 * inside counting periods ("windows") that START opens and STOP closes,
 * once (CTR_PRE + 1) PRE pulses have been seen, for (CTR_STOP + 1)
 * periods; CTR_START counts the periods that ended with CTR_EVENT >=
 * THRESHOLD. It is a mode of the whole domain: the events of one domain
 * in it (NVPC_MODE_SINGLE) are the inputs of one program, each naming its
 * input by its slot, all members of one perf group (a second group on the
 * domain waits for the first: ENOSPC, perf multiplexes), and no quad-mode
 * counting or record event may be open on the domain meanwhile (EBUSY).
 *
 * What each member counts (64-bit sums, a sample at every read and poll;
 * Documentation/perf.rst "Windows and thresholds"): PRE its pulses until
 * START is recognised, START the windows opened, STOP the windows closed,
 * EVENT its cycles inside windows (EVENT_CTR_PERIOD = ALL) or, with a
 * threshold, the windows that reached it (CTR_START, ONE), cycles the
 * cycles inside windows (an always-true EVENT input: CTR_CYCLES holds one
 * window only).
 *
 * 0 periods means until the event is closed: CTR_STOP starts at
 * 0xffffffff and the driver restarts the process before a counter can
 * saturate (a sample comes at least every 2^31 cycles): outside a window
 * once a counter passed 2^30, inside one once it passed 2^31 (the window
 * then counted closed, in window_cuts). The restart takes PRE as always
 * true: a START pulse in its first two cycles is not seen.
 *
 * A start lands on the domain's next cycle; a read equal to the one just
 * before the start, in every counter and SINGLE_STATE, is the start not
 * landed yet (counted in stragglers). Assumption (the documents are
 * silent): a landed process never reads exactly as the one before it.
 * GF100+ has no documented single event mode setup (pcounter.rst: "figure
 * out how single event mode is supposed to be used on NVC0+"): refused
 * there (EOPNOTSUPP).
 *
 * NV10:NV40's shared CTRL: a CTRL write for one domain aborts the other's
 * process ("Single event mode"); the engine folds it just before and this
 * file starts it again from there (nvpc_window_aborted(): the periods
 * left, the PRE pulses still wanted, an open window cut). NV10 has no
 * EVENT_CTR_PERIOD (CTR_EVENT restarts with every window): an EVENT
 * member without a threshold, and the window cycles, are EOPNOTSUPP
 * there. NV10:NV30 count CTR_EVENT and CTR_START in 40 bits, bit 39
 * sticky ("Counters").
 */

#include <linux/bitfield.h>
#include <linux/slab.h>

#include <nvpcounter/regs.h>

#include "engine.h"
#include "slots.h"

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

static void nvpc_window_sample(struct nvpc_engine *eng,
			       struct nvpc_domain *dom);

/* the restart points of an endless process (see the DOC above) */
#define NVPC_WIN_RESTART_IDLE	BIT_ULL(30)
#define NVPC_WIN_RESTART_FORCE	BIT_ULL(31)

/*
 * CTR_EVENT and CTR_START read at or past this saturated: NV30+ stop at
 * 0xffffffff, NV10:NV30 keep bit 39 once set (pcounter.rst "Counters")
 */
static u64 nvpc_window_sat(const struct nvpc_engine *eng)
{
	const struct nvpc_gen_ops *gen = eng->hw.gen;

	return gen->single ? BIT_ULL(gen->live_bits) : U32_MAX;
}

/*
 * The program of the domain's members; an input no member describes is
 * PRE always true (one pulse), START always true (a window opens on the
 * cycle after it closed), EVENT and STOP never true (one endless window).
 */
static void nvpc_window_build(struct nvpc_domain *dom,
			      struct nvpc_single_prog *p, bool *thr,
			      bool *endless)
{
	unsigned int s;

	memset(p, 0, sizeof(*p));
	p->op[NVPC_SLOT_PRE] = NVPC_OP_ALWAYS;
	p->op[NVPC_SLOT_START] = NVPC_OP_ALWAYS;
	p->op[NVPC_SLOT_EVENT] = NVPC_OP_NEVER;
	p->op[NVPC_SLOT_STOP] = NVPC_OP_NEVER;
	p->stop = U32_MAX;
	p->event_all = true;
	*thr = false;
	*endless = true;
	for (s = 0; s < NVPC_NR_SLOTS; s++) {
		struct perf_event *ev = dom->slots->ev[s];
		u32 sarg;

		if (!ev)
			continue;
		sarg = FIELD_GET(NVPC_CFG2_SARG, ev->attr.config2);
		p->src[s] = dom->hw->src[s];
		p->op[s] = dom->hw->op[s];
		if (s == NVPC_SLOT_PRE) {
			p->pre = sarg;
		} else if (s == NVPC_SLOT_STOP && sarg) {
			p->stop = sarg - 1;
			*endless = false;
		} else if (s == NVPC_SLOT_EVENT && sarg) {
			/* CTR_START per period needs CTR_EVENT per period */
			p->threshold = sarg;
			p->event_all = false;
			*thr = true;
		}
	}
}

static bool nvpc_window_same(const struct nvpc_single_ctrs *a,
			     const struct nvpc_single_ctrs *b)
{
	return a->event == b->event && a->start == b->start &&
	       a->pre == b->pre && a->stop == b->stop && a->state == b->state;
}

/* Start a process; @old: the process as just read, NULL to read it. */
static void nvpc_window_start(struct nvpc_engine *eng, struct nvpc_domain *dom,
			      const struct nvpc_single_prog *p,
			      const struct nvpc_single_ctrs *old)
{
	struct nvpc_window *w = dom->priv;

	if (old)
		w->old = *old;
	else
		eng->hw.gen->single_read(&eng->hw, dom->hw, &w->old);
	w->cur = *p;
	nvpc_shared_ctrl_begin(eng, dom);
	eng->hw.gen->single_start(&eng->hw, dom->hw, p);
	nvpc_shared_ctrl_end(eng, dom);
	w->pending = true;
	/* a new process counts from 0 (CTR_PRE and CTR_STOP from init) */
	memset(w->last, 0, sizeof(w->last));
	dom->sample_ns = ktime_get_ns();
}

/*
 * (Re)start the domain's program after its members changed (the commit;
 * lock held). The counts of the running process are folded first; a
 * program equal to the running one (perf put the same group back) keeps
 * running.
 */
static void nvpc_window_program(struct nvpc_engine *eng,
				struct nvpc_domain *dom)
{
	struct nvpc_window *w = dom->priv;
	struct nvpc_single_prog p;
	bool thr, endless;
	unsigned int s;

	lockdep_assert_held(&eng->lock);
	nvpc_window_build(dom, &p, &thr, &endless);
	if (w->on && !memcmp(&p, &w->prog, sizeof(p)))
		return;
	if (w->on)
		nvpc_window_sample(eng, dom);
	w->prog = p;
	w->thr = thr;
	w->endless = endless;
	w->pre_live = true;
	w->done = false;
	nvpc_window_start(eng, dom, &p, NULL);
	w->on = true;
	/* the first read of it, in this same hold */
	nvpc_window_sample(eng, dom);
	for (s = 0; s < NVPC_NR_SLOTS; s++) {
		dom->hw->hw_src[s] = dom->hw->src[s];
		dom->hw->hw_op[s] = dom->hw->op[s];
	}
}

/*
 * Start the process again from where @c found it (an endless one before a
 * counter saturates, any one after a shared CTRL write aborted it): same
 * inputs; the PRE pulses still wanted, or once they were seen PRE always
 * true (none counted); the periods left (an endless process: 0xffffffff
 * again). Inside a window, the window ends here: counted closed as it was
 * counted opened, and if it was the last period nothing is started
 * (@done). @old: the process as read now, NULL to read it.
 */
static void nvpc_window_restart(struct nvpc_engine *eng,
				struct nvpc_domain *dom,
				const struct nvpc_single_ctrs *c,
				const struct nvpc_single_ctrs *old)
{
	struct nvpc_window *w = dom->priv;
	struct nvpc_single_prog p = w->cur;

	if (c->state == NVPC_SINGLE_INACTIVE) {
		/* it ran its last period: its counts are final */
		w->done = true;
		return;
	}
	if (c->state == NVPC_SINGLE_COUNTING) {
		dom->acc[NVPC_SLOT_STOP]++;
		/* as STOP there would have compared it (ONE: this window) */
		if (w->thr && c->event < nvpc_window_sat(eng) &&
		    c->event >= p.threshold)
			dom->acc[NVPC_SLOT_EVENT]++;
		dom->stats.window_cuts++;
	}
	if (!w->endless) {
		/* CTR_STOP: the periods left after the current one */
		if (c->state == NVPC_SINGLE_COUNTING && !c->stop) {
			w->done = true;
			return;
		}
		p.stop = c->stop - (c->state == NVPC_SINGLE_COUNTING);
	}
	if (c->state == NVPC_SINGLE_WAIT_PRE) {
		p.pre = c->pre;
	} else {
		p.src[NVPC_SLOT_PRE] = 0;
		p.op[NVPC_SLOT_PRE] = NVPC_OP_ALWAYS;
		p.pre = 0;
		w->pre_live = false;
	}
	nvpc_window_start(eng, dom, &p, old);
	dom->stats.single_restarts++;
}

/*
 * A write of the shared CTRL for another domain aborted the process
 * (NV10:NV40): start it again from where the sample just before the
 * write found it.
 */
static void nvpc_window_aborted(struct nvpc_engine *eng,
				struct nvpc_domain *dom)
{
	struct nvpc_window *w = dom->priv;

	lockdep_assert_held(&eng->lock);
	if (!w->on || w->done || READ_ONCE(eng->gone))
		return;
	if (w->pending)
		/* not seen landed: nothing of it was counted, start it anew */
		nvpc_window_start(eng, dom, &w->cur, NULL);
	else
		nvpc_window_restart(eng, dom, &w->seen, NULL);
}

/*
 * Fold a single event mode process's growth (lock held). The live values
 * are lower bounds of the process's counts at the read (CTR_STOP is read
 * before SINGLE_STATE, so a window that closes between the reads is not
 * counted twice); each sum only grows. An endless process is restarted
 * here when one of its counters has to be.
 */
static void nvpc_window_sample(struct nvpc_engine *eng,
			       struct nvpc_domain *dom)
{
	struct nvpc_window *w = dom->priv;
	const struct nvpc_single_prog *p = &w->cur;
	struct nvpc_single_ctrs c;
	u64 live[NVPC_NR_SLOTS], top, ev;
	unsigned int s;

	lockdep_assert_held(&eng->lock);
	if (!w->on || w->done || READ_ONCE(eng->gone))
		return;
	eng->hw.gen->single_read(&eng->hw, dom->hw, &c);
	if (READ_ONCE(eng->gone))
		return;
	if (w->pending) {
		if (nvpc_window_same(&c, &w->old)) {
			dom->stats.stragglers++;
			return;
		}
		w->pending = false;
	}
	w->seen = c;
	/* the process ends INACTIVE after its last period (assumption: the
	 * start has landed, see the DOC above)
	 */
	live[NVPC_SLOT_STOP] = c.state == NVPC_SINGLE_INACTIVE ?
			       (u64)p->stop + 1 : (u64)(p->stop - min(c.stop, p->stop));
	live[NVPC_SLOT_START] = live[NVPC_SLOT_STOP] +
				(c.state == NVPC_SINGLE_COUNTING);
	if (!w->pre_live)
		live[NVPC_SLOT_PRE] = 0;
	else if (c.state == NVPC_SINGLE_WAIT_PRE)
		live[NVPC_SLOT_PRE] = p->pre - min(c.pre, p->pre);
	else
		live[NVPC_SLOT_PRE] = (u64)p->pre + 1;
	ev = w->thr ? c.start : c.event;
	if (ev >= nvpc_window_sat(eng)) {
		/* the true count is unknown: never add it */
		dom->stats.saturations++;
		dev_warn_ratelimited(eng->hw.dev,
				     "%s: domain %s: single event mode %s saturated, left out\n",
				     eng->hw.name, dom->hw->name,
				     w->thr ? "CTR_START" : "CTR_EVENT");
		live[NVPC_SLOT_EVENT] = w->last[NVPC_SLOT_EVENT];
	} else {
		live[NVPC_SLOT_EVENT] = ev;
	}
	for (s = 0; s < NVPC_NR_SLOTS; s++) {
		live[s] = max(live[s], w->last[s]);
		dom->acc[s] += live[s] - w->last[s];
		w->last[s] = live[s];
	}
	dom->sample_ns = ktime_get_ns();
	dom->stats.samples++;
	if (!w->endless)
		return;
	top = max3(c.event, c.start, live[NVPC_SLOT_STOP]);
	if (top >= NVPC_WIN_RESTART_FORCE ||
	    (top >= NVPC_WIN_RESTART_IDLE && c.state != NVPC_SINGLE_COUNTING))
		nvpc_window_restart(eng, dom, &c, &c);
}

/**
 * nvpc_window_use() - what a single event mode event counts, for sysfs
 * @event: the event
 *
 * Return: "window" (its input's count inside windows, or the windows for
 * START/STOP, the pulses for PRE), "threshold" or "wcycles".
 */
const char *nvpc_window_use(struct perf_event *event)
{
	if (event->attr.config & NVPC_CFG_CYCLES)
		return "wcycles";
	if (FIELD_GET(NVPC_CFG_SLOT, event->attr.config) ==
	    NVPC_SLOT_EVENT + 1 && FIELD_GET(NVPC_CFG2_SARG, event->attr.config2))
		return "threshold";
	return "window";
}

/* the state of a domain's program, at its first input's claim */
static void *nvpc_window_setup(struct nvpc_engine *eng)
{
	return kzalloc(sizeof(struct nvpc_window), GFP_KERNEL);
}

static void nvpc_window_update(struct nvpc_engine *eng,
			       struct nvpc_domain *dom, unsigned long dirty)
{
	nvpc_window_program(eng, dom);
}

static void nvpc_window_stop(struct nvpc_engine *eng, struct nvpc_domain *dom)
{
	struct nvpc_window *w = dom->priv;

	if (eng->hw.gen->single_stop)
		eng->hw.gen->single_stop(&eng->hw, dom->hw);
	else
		eng->hw.gen->stop(&eng->hw, dom->hw);
	w->on = false;
}

static void nvpc_window_sample_op(struct nvpc_engine *eng,
				  struct nvpc_domain *dom, u64 now)
{
	nvpc_window_sample(eng, dom);
}

/* window.c's restarts want a sample every 2^31 cycles */
static unsigned int nvpc_window_width(struct nvpc_engine *eng)
{
	return 32;
}

/* single event mode inputs (window.c runs their program) */
#define NVPC_WIN_INPUT	(NVPC_CFG_SIG0 | NVPC_CFG_SIG1 | NVPC_CFG_SIG2 | \
			 NVPC_CFG_SIG3 | NVPC_CFG_OP | NVPC_CFG_OPBITS)

static const char * const nvpc_win_slot_names[NVPC_NR_SLOTS] = {
	[NVPC_SLOT_PRE] = "pre",
	[NVPC_SLOT_START] = "start",
	[NVPC_SLOT_EVENT] = "event",
	[NVPC_SLOT_STOP] = "stop",
};

/**
 * nvpc_window_check() - validate a single event mode event
 * @eng: the GPU's engine
 * @dom: its domain
 * @event: the event (NVPC_MODE_SINGLE, reserved config bits clear)
 *
 * Return: 0; -EOPNOTSUPP where the generation has no single event mode
 * events; -EINVAL with a dev_dbg reason for a bad field.
 */
static int nvpc_window_check(struct nvpc_engine *eng, struct nvpc_domain *dom,
			     struct perf_event *event)
{
	u64 c = event->attr.config, c1 = event->attr.config1;
	u64 c2 = event->attr.config2;
	unsigned int slot = FIELD_GET(NVPC_CFG_SLOT, c);
	u32 sarg = FIELD_GET(NVPC_CFG2_SARG, c2);
	u32 opbits = FIELD_PREP(NVPC_OP_BITS, FIELD_GET(NVPC_CFG_OPBITS, c));

	if (!eng->hw.gen->single_start) {
		nvpc_dbg(eng, "single event mode: not on a %s (GF100+ has no documented single event mode setup)\n",
			 eng->hw.gen->name);
		return -EOPNOTSUPP;
	}
	/* NV10 lacks EVENT_CTR_PERIOD: CTR_EVENT holds one window */
	if (!eng->hw.gen->event_ctr_period &&
	    ((c & NVPC_CFG_CYCLES) ||
	     (slot == NVPC_SLOT_EVENT + 1 && !sarg))) {
		nvpc_dbg(eng, "single event mode: a NV10 has no EVENT_CTR_PERIOD: CTR_EVENT counts one window, only a threshold (thr) is summed\n");
		return -EOPNOTSUPP;
	}
	if ((c & NVPC_CFG_SHORT) || (c1 & NVPC_CFG1_RECORD_FIELDS)) {
		nvpc_dbg(eng, "single event mode: record fields set\n");
		return -EINVAL;
	}
	if (c2 & ~NVPC_CFG2_SARG) {
		nvpc_dbg(eng, "single event mode: config2 0x%llx: only bits 48-63 (pre/periods/thr)\n",
			 c2);
		return -EINVAL;
	}
	if (c & NVPC_CFG_CYCLES) {
		if (slot || (c & NVPC_WIN_INPUT) || sarg) {
			nvpc_dbg(eng, "single event mode cycles: no slot, input or argument\n");
			return -EINVAL;
		}
		return 0;
	}
	if (!slot || slot > NVPC_NR_SLOTS) {
		nvpc_dbg(eng, "single event mode: slot %u: name the input, 1-4 (pre/start/event/stop)\n",
			 slot);
		return -EINVAL;
	}
	if (nvpc_check_sigs(eng, dom, c))
		return -EINVAL;
	if (opbits & ~eng->hw.gen->opbits[slot - 1]) {
		nvpc_dbg(eng, "op bits 0x%x: not on the %s input of a %s\n",
			 (u32)FIELD_GET(NVPC_OP_BITS, opbits),
			 nvpc_win_slot_names[slot - 1], eng->hw.gen->name);
		return -EINVAL;
	}
	if (slot - 1 == NVPC_SLOT_START && sarg) {
		nvpc_dbg(eng, "single event mode: START takes no argument (0x%x)\n",
			 sarg);
		return -EINVAL;
	}
	return 0;
}

/**
 * nvpc_window_alloc() - claim the input a single event mode event names
 * @t: its domain's slot table (live, or group validation's copy)
 * @event: the event (checked)
 * @claimed: set to the slot claimed
 *
 * The inputs of one domain's program belong to one group: a slot that is
 * taken, or any slot held by another group or a quad-mode event, makes the
 * event wait.
 *
 * Return: the counter (its slot; NVPC_SLOT_EVENT for cycles), or -ENOSPC.
 */
static int nvpc_window_alloc(struct nvpc_slots *t, struct perf_event *event,
			     unsigned long *claimed)
{
	unsigned int slot, s;

	*claimed = 0;
	slot = event->attr.config & NVPC_CFG_CYCLES ? NVPC_SLOT_EVENT :
		FIELD_GET(NVPC_CFG_SLOT, event->attr.config) - 1;
	if (t->ev[slot])
		return -ENOSPC;
	for (s = 0; s < NVPC_NR_SLOTS; s++) {
		struct perf_event *ev = t->ev[s];

		if (ev && (!nvpc_is_window(ev) ||
			   ev->group_leader != event->group_leader))
			return -ENOSPC;
	}
	t->ev[slot] = event;
	*claimed = BIT(slot);
	return slot;
}

/**
 * nvpc_window_regs() - the _SRC/_OP shadows of a single event mode event
 * @dom: its domain
 * @event: the event, placed on its slot (hw.idx)
 */
static void nvpc_window_regs(struct nvpc_domain *dom, struct perf_event *event)
{
	u64 c = event->attr.config;
	unsigned int s = event->hw.idx;
	u16 tt = FIELD_GET(NVPC_CFG_OP, c);

	if (c & NVPC_CFG_CYCLES) {
		/* every cycle of a window */
		dom->hw->src[s] = 0;
		dom->hw->op[s] = NVPC_OP_ALWAYS;
		return;
	}
	dom->hw->src[s] = lower_32_bits(c);
	dom->hw->op[s] = (tt ? tt : NVPC_OP_ARG0) |
		     FIELD_PREP(NVPC_OP_BITS, FIELD_GET(NVPC_CFG_OPBITS, c));
}

const struct nvpc_mode_ops nvpc_mode_window = {
	.name = "single event mode",
	.setup = nvpc_window_setup,
	.start = nvpc_window_program,
	.update = nvpc_window_update,
	.stop = nvpc_window_stop,
	.sample = nvpc_window_sample_op,
	.ctrl_before = nvpc_window_sample,
	.ctrl_after = nvpc_window_aborted,
	.del = nvpc_event_sample_out,
	.width = nvpc_window_width,
	.check = nvpc_window_check,
	.alloc = nvpc_window_alloc,
	.regs = nvpc_window_regs,
};
