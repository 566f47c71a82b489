// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter_sim: a simulated GPU's clocks and the work they cost
 * (Documentation/sim.rst "Time and clocks"). Every lock hold that runs
 * the model gets a budget of engine work from the measured cost of a
 * unit; in real-time mode the model follows the wall clock at each
 * register access and in a worker, and the core's register writes are
 * posted and applied at the wall time of their issue; long runs (the
 * worker, debugfs advance) run on a copy of the model off the lock and
 * commit it with a pointer swap, its record packets written first. The
 * record latency follows the clock mode. The backend's register ops are
 * in sim_gpu.c.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "sim.h"

/**
 * nvpc_simdev_budget() - work the model may do in one lock hold
 * @sd: the GPU
 * @hold_ns: the hold's length
 *
 * In engine work units (nvpc_sim_advance_bounded()), from the measured
 * cost of a unit: the lock is a raw spinlock held with interrupts off.
 *
 * Return: the budget, at least 1.
 */
u64 nvpc_simdev_budget(const struct nvpc_simdev *sd, u64 hold_ns)
{
	return max_t(u64, 1, div64_u64(hold_ns, sd->ns_per_work));
}

/* Learn the cost of a work unit from one lock hold (moving average). */
static void nvpc_simdev_calibrate(struct nvpc_simdev *sd, u64 took_ns,
				  u64 work)
{
	u64 ns;

	if (work < NVPC_SIMDEV_CALIBRATE_MIN_WORK)
		return;
	ns = clamp_t(u64, div64_u64(took_ns, work), 1,
		     NVPC_SIMDEV_NS_PER_WORK_MAX);
	sd->ns_per_work = (3 * sd->ns_per_work + ns) / 4;
}

/*
 * Real-time mode: run the model towards the wall time @to for at most
 * about @hold_ns (Documentation/sim.rst "Time and clocks"). Never past
 * @to; what does not fit is left for later. Lock held.
 */
static bool nvpc_simdev_rt_run(struct nvpc_simdev *sd, u64 to, u64 hold_ns,
			       u64 grow)
{
	u64 n, w0, t0;

	if (to <= sd->rt_last)
		return true;
	n = to - sd->rt_last;
	w0 = nvpc_sim_work(sd->sim);
	t0 = ktime_get_ns();
	if (nvpc_sim_advance_bounded(sd->sim, NVPC_SIM_NS, &n,
				     grow * nvpc_simdev_budget(sd, hold_ns))) {
		/* the model's time would overflow: it stops, and says so */
		sd->rt_skipped_ns += to - sd->rt_last;
		sd->rt_last = to;
		return true;
	}
	sd->rt_last += n;
	nvpc_simdev_calibrate(sd, ktime_get_ns() - t0,
			      nvpc_sim_work(sd->sim) - w0);
	return n != 0;
}

/**
 * nvpc_simdev_rt_access() - real time: the model to the wall time first
 * @sd: the GPU
 * @now: the wall time of the access
 * @budget: work units left for the access, reduced by the work done
 * @addr: the register accessed
 * @write: the access is a write
 * @val: its value
 *
 * Before a register access in real-time mode: bring the model to the wall
 * time @now (read at the access, or when a posted write was issued) if
 * that fits the work left in @budget (the access runs with interrupts
 * off; an access and the posted writes it applies share one
 * NVPC_SIMDEV_RT_ACCESS_NS), else leave it to the worker: a part of the
 * span is not worth the search for it. The estimate counts the domains
 * that run (lazy ones, which nothing observes, stay behind) and the
 * catch-up of the lazy domains that the access at @addr observes
 * (nvpc_sim_advance_access()); steady periodic sources skip whole
 * hyperperiods in constant work. Lock held.
 */
void nvpc_simdev_rt_access(struct nvpc_simdev *sd, u64 now, u64 *budget,
			   u32 addr, bool write, u32 val)
{
	u64 w0, t0, work;
	int ret;

	if (!sd->realtime || now <= sd->rt_last)
		return;
	w0 = nvpc_sim_work(sd->sim);
	t0 = ktime_get_ns();
	ret = nvpc_sim_advance_access(sd->sim, now - sd->rt_last, *budget, addr,
				      write, val);
	if (ret < 0) {
		/* the model's time would overflow: it stops, and says so */
		sd->rt_skipped_ns += now - sd->rt_last;
		sd->rt_last = now;
	} else if (ret) {
		sd->rt_last = now;
		t0 = ktime_get_ns() - t0;
		work = nvpc_sim_work(sd->sim) - w0;
		*budget -= min(*budget, work);
		sd->rt_access_max_ns = max(sd->rt_access_max_ns, t0);
		nvpc_simdev_calibrate(sd, t0, work);
	} else {
		sd->rt_behind++;
		sd->rt_behind_max_ns = max(sd->rt_behind_max_ns,
					   now - sd->rt_last);
		/*
		 * the worker catches up now rather than at its next period
		 * (which is whole jiffies away): the next accesses see less
		 * lag (the workqueue's and timer's locks are raw)
		 */
		if (now - sd->rt_last >= NVPC_SIMDEV_RT_MIN_LAG_NS)
			mod_delayed_work(system_wq, &sd->rt_work, 0);
	}
}

/**
 * nvpc_simdev_flush_budget() - apply the posted register writes
 * @sd: the GPU
 * @budget: work units left for the access that applies them
 *
 * Each at its time, sharing @budget (nvpc_simdev_rt_access()). Lock held.
 */
void nvpc_simdev_flush_budget(struct nvpc_simdev *sd, u64 *budget)
{
	const struct nvpc_simdev_posted *p;
	unsigned int i;

	for (i = 0; i < sd->nr_posted; i++) {
		p = &sd->posted[i];
		nvpc_simdev_rt_access(sd, p->t, budget, p->addr, true, p->val);
		nvpc_sim_wr32(sd->sim, p->addr, p->val);
	}
	sd->nr_posted = 0;
}

/**
 * nvpc_simdev_flush() - apply the posted register writes
 * @sd: the GPU
 *
 * Real-time mode posts the core's register writes (@sd->posted): as on
 * the bus, a write does not wait for the GPU, and what a later access
 * sees is the model with every earlier write applied at the wall time it
 * was issued. Whatever looks at or changes the model under @sd->lock
 * takes it with nvpc_simdev_lock(), which calls this, so that no one sees
 * the model without them. With the lock held; at most one register
 * access's budget of model work.
 */
void nvpc_simdev_flush(struct nvpc_simdev *sd)
{
	u64 budget;

	lockdep_assert_held(&sd->lock);
	if (!sd->nr_posted)
		return;
	budget = nvpc_simdev_budget(sd, NVPC_SIMDEV_RT_ACCESS_NS);
	nvpc_simdev_flush_budget(sd, &budget);
}

/*
 * Model callback on a copy (see run_copy): a packet is kept, to be
 * written when the copy commits; the copy takes the write as done. Past
 * NVPC_SIMDEV_COPY_PKTS packets the copy is spoilt (discarded).
 */
static int nvpc_simdev_mem_collect(void *ctx, u64 gpu_va, const void *buf,
				   u32 len)
{
	struct nvpc_simdev *sd = ctx;
	struct nvpc_simdev_copy_pkt *p;

	if (sd->copy_nr >= NVPC_SIMDEV_COPY_PKTS || len > sizeof(p->data)) {
		sd->copy_spoilt = true;
		return 0;
	}
	p = &sd->copy_pkts[sd->copy_nr++];
	p->va = gpu_va;
	p->len = len;
	memcpy(p->data, buf, len);
	return 0;
}

/*
 * Lock held: the packets @first .. @first + @n - 1 a copy collected land
 * in the window or a mapping now, so the copy's "written" holds: write
 * them, in the order the copy made them. Else false, nothing written
 * (the copy must go: the model has to see the fault). At most
 * NVPC_SIMDEV_COPY_FLUSH packets.
 */
static bool nvpc_simdev_copy_flush(struct nvpc_simdev *sd, unsigned int first,
				   unsigned int n)
{
	const struct nvpc_simdev_copy_pkt *p;
	unsigned int i;

	for (i = first; i < first + n; i++) {
		p = &sd->copy_pkts[i];
		if (!nvpc_simdev_in_window(sd, p->va, p->len) &&
		    !nvpc_simdev_vm_mapped(sd, p->va, p->len))
			return false;
	}
	for (i = first; i < first + n; i++) {
		p = &sd->copy_pkts[i];
		nvpc_simdev_mem_write(sd, p->va, p->data, p->len);
	}
	return true;
}

/*
 * The packets of a run on a copy into memory, NVPC_SIMDEV_COPY_FLUSH per
 * hold of the lock, before the copy is put in place: the model there
 * does not show them yet (as a GPU's writes land before its position
 * moves past them). Each hold first checks that no access overtook the
 * copy (@seq): once one did, nothing more is written, and the copy is
 * discarded. The packets written before are those the model will write
 * again in its place, byte for byte, unless the access changed what it
 * does (a halt, a START write): then they lie beyond the position the
 * model reaches, in memory the driver gave the GPU and reads only below
 * that position.
 */
static bool nvpc_simdev_copy_write(struct nvpc_simdev *sd, u64 seq)
{
	unsigned long flags;
	unsigned int i, n;
	bool ok = true;

	for (i = 0; ok && i < sd->copy_nr; i += n) {
		n = min_t(unsigned int, sd->copy_nr - i,
			  NVPC_SIMDEV_COPY_FLUSH);
		nvpc_simdev_lock(sd, &flags);
		ok = sd->seq == seq && nvpc_simdev_copy_flush(sd, i, n);
		raw_spin_unlock_irqrestore(&sd->lock, flags);
	}
	return ok;
}

/*
 * Run a copy of the model @n cycles of domain @dom (or nanoseconds, @dom
 * NVPC_SIM_NS) with the lock dropped and interrupts on, for at most
 * about NVPC_SIMDEV_COPY_SLICE_NS, then commit it with a pointer swap if
 * no register access changed the model meanwhile (@sd->seq): the only
 * interrupts-off work is the swap. The copy is read without the lock
 * like a seqcount reader: a copy torn by an access fails the @seq check.
 * Record-mode packets the copy writes are collected (at most
 * NVPC_SIMDEV_COPY_PKTS; the copy stops stepping at half of that) and
 * written into memory before the commit, in bounded holds of the lock,
 * in their order (nvpc_simdev_copy_write()); if one of them would be a
 * VM fault then, or there were too many, the copy is discarded (the
 * lock holds then run the model there, the fault included) and the next
 * copies step in less work (@sd->copy_work). An access discards the
 * copy.
 * @rt: the run catches up with the wall time: move @sd->rt_last with it.
 * Called with @sd->ctl held (nothing else replaces @sd->sim or uses
 * @sd->spare).
 *
 * Return: 0 with *@n the part done and committed (0 if discarded), or
 * -EINVAL if the model time would overflow, -ENOMEM (nothing done).
 */
static int nvpc_simdev_run_copy(struct nvpc_simdev *sd, unsigned int dom,
				u64 *n, bool rt)
{
	u64 seq, done = 0, step, grow = 1, t0 = ktime_get_ns();
	u64 w0, t1, took = 0, work = 0, step_work;
	struct nvpc_sim *c;
	unsigned long flags;
	bool ok;
	int ret = 0;

	if (!sd->copy_pkts) {
		sd->copy_pkts = kvmalloc_array(NVPC_SIMDEV_COPY_PKTS,
					       sizeof(*sd->copy_pkts),
					       GFP_KERNEL);
		if (!sd->copy_pkts)
			return -ENOMEM;
		sd->copy_work = NVPC_SIMDEV_COPY_WORK;
	}
	if (!sd->spare) {
		sd->spare = kvmalloc(sd->sim_size, GFP_KERNEL);
		if (!sd->spare)
			return -ENOMEM;
	}
	c = sd->spare;
	sd->copy_nr = 0;
	sd->copy_spoilt = false;
	nvpc_simdev_lock(sd, &flags);
	seq = sd->seq;
	/*
	 * a step is at most a slice of work at the measured cost of a unit:
	 * where a unit is slow (KASAN under TCG: 10 us), COPY_WORK units
	 * took 10 ms and more, and a recording's drain, which reads every
	 * 10 ms at most, overtook every copy: the model stood still
	 */
	step_work = min(sd->copy_work,
			nvpc_simdev_budget(sd, NVPC_SIMDEV_COPY_SLICE_NS));
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	memcpy(c, sd->sim, sd->sim_size);
	nvpc_sim_set_mem_write(c, nvpc_simdev_mem_collect, sd);
	while (done < *n) {
		step = *n - done;
		w0 = nvpc_sim_work(c);
		t1 = ktime_get_ns();
		ret = nvpc_sim_advance_bounded(c, dom, &step,
					       grow * step_work);
		if (ret)
			break;
		/* the cost of a unit, for the budgets of the lock holds */
		took += ktime_get_ns() - t1;
		work += nvpc_sim_work(c) - w0;
		/* as the worker's holds: bounded, so no one call runs away */
		grow = step ? 1 : min_t(u64, grow * 2,
						   NVPC_SIMDEV_COPY_GROW_MAX);
		done += step;
		if (sd->copy_spoilt || READ_ONCE(sd->seq) != seq ||
		    sd->copy_nr > NVPC_SIMDEV_COPY_PKTS / 2 ||
		    ktime_get_ns() - t0 > NVPC_SIMDEV_COPY_SLICE_NS ||
		    fatal_signal_pending(current))
			break;
		cond_resched();
	}
	nvpc_sim_set_mem_write(c, nvpc_simdev_mem_write, sd);
	/* too many packets in a step: step in less work next time */
	if (sd->copy_spoilt)
		sd->copy_work = max_t(u64, sd->copy_work / 2, 1);
	else if (sd->copy_nr < NVPC_SIMDEV_COPY_PKTS / 8)
		sd->copy_work = min_t(u64, sd->copy_work * 2,
				      NVPC_SIMDEV_COPY_WORK);
	if (ret || sd->copy_spoilt)
		done = 0;
	ok = done && nvpc_simdev_copy_write(sd, seq);
	nvpc_simdev_lock(sd, &flags);
	nvpc_simdev_calibrate(sd, took, work);
	ok = ok && sd->seq == seq;
	if (ok) {
		sd->spare = sd->sim;
		sd->sim = c;
		if (rt)
			sd->rt_last += done;
		sd->copy_packets += sd->copy_nr;
	} else {
		done = 0;
	}
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	*n = done;
	return ret;
}

/**
 * nvpc_simdev_rt_work() - the real-time worker (&nvpc_simdev.rt_work)
 * @work: its work item
 *
 * Catch-up in process context: on a copy off the lock, else in holds of
 * a budget each.
 */
void nvpc_simdev_rt_work(struct work_struct *work)
{
	struct nvpc_simdev *sd = container_of(to_delayed_work(work),
					      struct nvpc_simdev, rt_work);
	u64 start = ktime_get_ns(), now, n, grow = 1;
	unsigned long flags;
	bool again = true;

	/*
	 * The model's work on a copy, interrupts on; bounded holds only if
	 * the copy was overtaken by an access or a control file is busy.
	 */
	if (mutex_trylock(&sd->ctl)) {
		/* again while the run itself left a lag worth a run */
		do {
			nvpc_simdev_lock(sd, &flags);
			now = ktime_get_ns();
			n = sd->realtime && now > sd->rt_last ?
			    now - sd->rt_last : 0;
			raw_spin_unlock_irqrestore(&sd->lock, flags);
			if (n < NVPC_SIMDEV_RT_MIN_LAG_NS)
				break;
			nvpc_simdev_run_copy(sd, NVPC_SIM_NS, &n, true);
		} while (n && ktime_get_ns() - start < NVPC_SIMDEV_RT_BUDGET_NS);
		again = !n;
		mutex_unlock(&sd->ctl);
	}
	while (again) {
		nvpc_simdev_lock(sd, &flags);
		now = ktime_get_ns();
		/*
		 * not even the shortest step fitted the budget (whose unit
		 * cost is learnt only from work done): allow a little more,
		 * never more than RT_GROW_MAX holds' worth
		 */
		if (sd->realtime &&
		    !nvpc_simdev_rt_run(sd, now, NVPC_SIMDEV_HOLD_NS, grow))
			grow = min_t(u64, grow * 2, NVPC_SIMDEV_RT_GROW_MAX);
		else
			grow = 1;
		again = sd->realtime && now > sd->rt_last;
		raw_spin_unlock_irqrestore(&sd->lock, flags);
		if (!again || ktime_get_ns() - start > NVPC_SIMDEV_RT_BUDGET_NS)
			break;
		cond_resched();
	}

	nvpc_simdev_lock(sd, &flags);
	/* the model cannot keep up: skip rather than lag ever further */
	now = ktime_get_ns();
	if (sd->realtime && now > sd->rt_last + NVPC_SIMDEV_RT_MAX_LAG_NS) {
		sd->rt_skipped_ns += now - sd->rt_last;
		sd->rt_last = now;
	}
	again = sd->realtime;
	sd->worker_ns += ktime_get_ns() - start;
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	if (again)
		schedule_delayed_work(&sd->rt_work,
				      msecs_to_jiffies(NVPC_SIMDEV_RT_PERIOD_MS));
}

/* @sd->lock held: the record latency into the model (nvpc_simdev_latency_ns()) */
static void nvpc_simdev_apply_latency(struct nvpc_simdev *sd)
{
	u32 ns = nvpc_simdev_latency_ns(sd);

	if (ns)
		nvpc_sim_set_record_latency_ns(sd->sim, ns);
	else
		nvpc_sim_set_record_latency(sd->sim, sd->record_latency);
}

/**
 * nvpc_simdev_set_realtime() - switch between manual and real-time clocks
 * @sd: the GPU
 * @on: real-time mode
 *
 * Real-time mode starts counting wall time from now on. The record
 * latency follows the mode unless it was set (&nvpc_simdev.latency_set).
 * Called with @sd->ctl held.
 */
void nvpc_simdev_set_realtime(struct nvpc_simdev *sd, bool on)
{
	unsigned long flags;
	bool was;

	nvpc_simdev_lock(sd, &flags);
	was = sd->realtime;
	sd->realtime = on;
	if (on && !was)
		sd->rt_last = ktime_get_ns();
	if (on != was && !sd->latency_set)
		nvpc_simdev_apply_latency(sd);
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	if (on && !was)
		schedule_delayed_work(&sd->rt_work,
				      msecs_to_jiffies(NVPC_SIMDEV_RT_PERIOD_MS));
	else if (!on && was)
		cancel_delayed_work_sync(&sd->rt_work);
}

/* One hold of about NVPC_SIMDEV_HOLD_NS of work under the lock. */
static int nvpc_simdev_advance_hold(struct nvpc_simdev *sd, unsigned int dom,
				    u64 *n, u64 grow)
{
	unsigned long flags;
	u64 w0, t0;
	int ret;

	nvpc_simdev_lock(sd, &flags);
	w0 = nvpc_sim_work(sd->sim);
	t0 = ktime_get_ns();
	ret = nvpc_sim_advance_bounded(sd->sim, dom, n,
				       grow * nvpc_simdev_budget(sd,
						NVPC_SIMDEV_HOLD_NS));
	if (!ret)
		nvpc_simdev_calibrate(sd, ktime_get_ns() - t0,
				      nvpc_sim_work(sd->sim) - w0);
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	return ret;
}

/**
 * nvpc_simdev_advance() - advance the model's time from process context
 * @sd: the GPU
 * @dom: reference domain (flat index) when counting cycles
 * @n: cycles of @dom, or nanoseconds
 * @ns: @n counts nanoseconds
 *
 * Runs a copy of the model without the lock in slices
 * (nvpc_simdev_run_copy()), each committed by a pointer swap; a slice
 * discarded because the core accessed a register meanwhile is replaced by
 * one lock hold of about NVPC_SIMDEV_HOLD_NS of model work
 * (nvpc_sim_advance_bounded(): whatever the clocks of the domain sets),
 * or of about twice the smallest step the model can take if that is more.
 * Called with @sd->ctl held.
 *
 * Return: 0, -EINVAL for a bad domain or if the model time would overflow
 * (nothing done), -EINTR on a fatal signal.
 */
int nvpc_simdev_advance(struct nvpc_simdev *sd, unsigned int dom, u64 n,
			bool ns)
{
	unsigned int ref = ns ? NVPC_SIM_NS : dom;
	u64 step, grow = 1;
	int ret;

	if (dom >= sd->nr_dom)
		return -EINVAL;
	while (n) {
		step = n;
		ret = nvpc_simdev_run_copy(sd, ref, &step, false);
		if (ret != -EINVAL && !step) {
			/* copy discarded or no memory: one bounded hold */
			step = n;
			ret = nvpc_simdev_advance_hold(sd, ref, &step, grow);
			/*
			 * Not even the smallest step fitted (every domain's
			 * fixed cost, e.g. a hyperperiod measurement): allow
			 * twice as much for the rest of the span, so a hold
			 * is at most about twice that cost
			 */
			if (!step)
				grow *= 2;
		}
		if (ret == -EINVAL)
			return ret;
		n -= step;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

/**
 * nvpc_simdev_latency_ns() - the record latency in nanoseconds
 * @sd: the GPU
 *
 * Return: what the model takes as &nvpc_sim_params.record_latency_ns: the
 * latency set in nanoseconds, or unset the default under the real-time
 * clock, else 0 (the cycles of @sd->record_latency apply).
 */
u32 nvpc_simdev_latency_ns(const struct nvpc_simdev *sd)
{
	if (sd->latency_set)
		return sd->record_latency_ns;
	return sd->realtime ? NVPC_SIMDEV_LATENCY_RT_NS : 0;
}

/**
 * nvpc_simdev_set_record_latency() - set the record-mode write latency
 * @sd: the GPU
 * @set: false: back to the default (@cycles and @ns unused)
 * @cycles: cycles of every domain from forming a packet to its memory
 *	write completing (&nvpc_sim_params.record_latency), if @ns is 0
 * @ns: else the latency in nanoseconds, each domain's cycles from its
 *	clock (&nvpc_sim_params.record_latency_ns)
 *
 * Kept when a clock change rebuilds the model. Called with @sd->ctl held.
 */
void nvpc_simdev_set_record_latency(struct nvpc_simdev *sd, bool set,
				    u32 cycles, u32 ns)
{
	unsigned long flags;

	nvpc_simdev_lock(sd, &flags);
	sd->latency_set = set;
	sd->record_latency = set && !ns ? cycles : 0;
	sd->record_latency_ns = set ? ns : 0;
	nvpc_simdev_apply_latency(sd);
	raw_spin_unlock_irqrestore(&sd->lock, flags);
}
