// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter_sim: the life cycle of one simulated GPU. The model
 * (model/sim_model.h) is wrapped in a raw spinlock and handed to the core
 * as backend register ops; in real-time mode the model's time follows the
 * wall clock (Documentation/sim.rst "Time and clocks").
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/platform_device.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>

#include <nvpcounter/regs.h>

#include "sim.h"

/*
 * Work the model may do in one lock hold, in engine work units
 * (nvpc_sim_advance_bounded()), from the measured cost of a unit: the
 * lock is a raw spinlock held with interrupts off.
 */
static u64 nvpc_simdev_budget(const struct nvpc_simdev *sd, u64 hold_ns)
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

/*
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
static void nvpc_simdev_rt_access(struct nvpc_simdev *sd, u64 now,
				  u64 *budget, u32 addr, bool write, u32 val)
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

/* Apply the posted writes at their times, sharing @budget. Lock held. */
static void nvpc_simdev_flush_budget(struct nvpc_simdev *sd, u64 *budget)
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
 * The register accesses of this CPU's current hold of a core's engine
 * lock: the hold's number (nvpc_lock_seq), the GPU, the accesses so far
 * and the address of the first.
 */
struct nvpc_simdev_irqoff_run {
	unsigned long seq;
	const struct nvpc_simdev *sd;
	u32 len;
	u32 addr;
};

static DEFINE_PER_CPU(struct nvpc_simdev_irqoff_run, nvpc_simdev_irqoff);

/*
 * An access at @addr: if this CPU is inside an engine lock hold
 * (nvpc_lock_depth), count it in that hold's run and keep the longest
 * run of @sd (Documentation/sim.rst, stats: irqoff_max). A new hold
 * number starts a new run. @sd->lock held, interrupts off.
 */
static void nvpc_simdev_irqoff_count(struct nvpc_simdev *sd, u32 addr)
{
	struct nvpc_simdev_irqoff_run *run = this_cpu_ptr(&nvpc_simdev_irqoff);
	unsigned long seq = __this_cpu_read(nvpc_lock_seq);

	if (!__this_cpu_read(nvpc_lock_depth))
		return;
	if (run->seq != seq || run->sd != sd) {
		run->seq = seq;
		run->sd = sd;
		run->len = 0;
		run->addr = addr;
	}
	if (++run->len > sd->irqoff_max) {
		sd->irqoff_max = run->len;
		sd->irqoff_max_addr = run->addr;
	}
}

static u32 nvpc_simdev_rd32(void *priv, u32 addr)
{
	struct nvpc_simdev *sd = priv;
	u64 budget, lag, t0 = ktime_get_ns();
	unsigned long flags;
	u32 v, ns;

	raw_spin_lock_irqsave(&sd->lock, flags);
	sd->seq++;
	nvpc_simdev_irqoff_count(sd, addr);
	budget = nvpc_simdev_budget(sd, NVPC_SIMDEV_RT_ACCESS_NS);
	/* a read is not passed by the writes before it (PCIe ordering) */
	nvpc_simdev_flush_budget(sd, &budget);
	nvpc_simdev_rt_access(sd, ktime_get_ns(), &budget, addr, false, 0);
	/*
	 * Manual clock: no cycle runs between a swap trigger and the
	 * driver's poll of QUAD_STATE; do the swap of the next cycle now
	 * (Documentation/sim.rst "Time and clocks"). Real time: the same
	 * while the model lags the wall clock by a cycle of its slowest
	 * domain, as every domain's next cycle has then begun.
	 */
	lag = ktime_get_ns() - sd->rt_last;
	if (!sd->realtime || lag >= sd->settle_lag_ns)
		nvpc_sim_settle(sd->sim);
	/*
	 * Real time, the latency a time: lagging by more than it, the model
	 * is behind the writes of the packets still outgoing, which the wall
	 * time has completed (Documentation/sim.rst "Memory write latency")
	 */
	ns = sd->realtime ? nvpc_simdev_latency_ns(sd) : 0;
	if (ns && lag >= ns)
		nvpc_sim_land_outgoing(sd->sim);
	v = nvpc_sim_rd32(sd->sim, addr);
	sd->access_ns += ktime_get_ns() - t0;
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	return v;
}

/*
 * Manual clock: the write lands now (no time passes between accesses).
 * Real time: it is posted with the wall time of its issue, to be applied
 * at that time by the next access (nvpc_simdev_flush()), so that a burst
 * of writes (a rotation's swap and the inputs it sets) is as far apart
 * in model time as the core issued them, not as far as the model's
 * catch-ups before each would put them under TCG. A full queue is
 * applied first.
 */
static void nvpc_simdev_wr32(void *priv, u32 addr, u32 val)
{
	struct nvpc_simdev *sd = priv;
	struct nvpc_simdev_posted *p;
	u64 t0 = ktime_get_ns();
	unsigned long flags;

	raw_spin_lock_irqsave(&sd->lock, flags);
	sd->seq++;
	nvpc_simdev_irqoff_count(sd, addr);
	/* nothing is posted outside real time (set_realtime() flushes) */
	if (!sd->realtime) {
		nvpc_sim_wr32(sd->sim, addr, val);
	} else {
		if (sd->nr_posted == NVPC_SIMDEV_POSTED)
			nvpc_simdev_flush(sd);
		p = &sd->posted[sd->nr_posted++];
		p->t = ktime_get_ns();
		p->addr = addr;
		p->val = val;
		sd->posted_writes++;
	}
	sd->access_ns += ktime_get_ns() - t0;
	raw_spin_unlock_irqrestore(&sd->lock, flags);
}

static const struct nvpc_backend_ops nvpc_simdev_ops = {
	.rd32 = nvpc_simdev_rd32,
	.wr32 = nvpc_simdev_wr32,
	.record_bind = nvpc_simdev_record_bind,
	.record_map = nvpc_simdev_record_map,
	.record_unmap = nvpc_simdev_record_unmap,
	.record_sync = nvpc_simdev_record_sync,
};

static int nvpc_simdev_mem_write(void *ctx, u64 gpu_va, const void *buf,
				 u32 len);

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

/* The mem_ctl window holds the whole packet (lock held). */
static bool nvpc_simdev_in_window(const struct nvpc_simdev *sd, u64 gpu_va,
				  u32 len)
{
	return sd->mem && gpu_va >= sd->mem_va &&
	       gpu_va - sd->mem_va <= sd->mem_size &&
	       len <= sd->mem_size - (gpu_va - sd->mem_va);
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
	u64 w0, t1, took = 0, work = 0;
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
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	memcpy(c, sd->sim, sd->sim_size);
	nvpc_sim_set_mem_write(c, nvpc_simdev_mem_collect, sd);
	while (done < *n) {
		step = *n - done;
		w0 = nvpc_sim_work(c);
		t1 = ktime_get_ns();
		ret = nvpc_sim_advance_bounded(c, dom, &step,
					       grow * sd->copy_work);
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

/* Real-time catch-up in process context: off the lock, else a budget. */
static void nvpc_simdev_rt_work(struct work_struct *work)
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

/* Model callback, lock held: one register access into the trace ring. */
static void nvpc_simdev_trace(void *ctx, u32 addr, u32 val, bool write,
			      bool modelled)
{
	struct nvpc_simdev *sd = ctx;
	struct nvpc_simdev_trace_ent *e;

	if (!sd->trace_on)
		return;
	e = &sd->trace[sd->trace_head];
	e->addr = addr;
	e->val = val;
	e->write = write;
	sd->trace_head = (sd->trace_head + 1) % NVPC_SIMDEV_TRACE_LEN;
	if (sd->trace_count < NVPC_SIMDEV_TRACE_LEN)
		sd->trace_count++;
	else
		sd->trace_lost++;
}

/*
 * Model callback, lock held: a record-mode packet into GPU memory
 * (Documentation/sim.rst "Record-mode memory"): the mem_ctl window if the
 * packet is wholly inside it, else the record_map mappings (sim_vm.c),
 * else a VM fault.
 */
static int nvpc_simdev_mem_write(void *ctx, u64 gpu_va, const void *buf,
				 u32 len)
{
	struct nvpc_simdev *sd = ctx;

	if (nvpc_simdev_in_window(sd, gpu_va, len)) {
		memcpy(sd->mem + (gpu_va - sd->mem_va), buf, len);
		sd->mem_writes++;
		return 0;
	}
	if (!nvpc_simdev_vm_write(sd, gpu_va, buf, len)) {
		sd->vm_writes++;
		return 0;
	}
	sd->mem_faults++;
	sd->vm_faults++;
	return -EFAULT;
}

/**
 * nvpc_simdev_set_mem() - set up or drop the record-mode memory window
 * @sd: the GPU
 * @va: GPU virtual address of the window (16-byte aligned)
 * @size: its size in bytes, 0 to drop the window
 *
 * A new window starts zero-filled. Called with @sd->ctl held.
 *
 * Return: 0, -EINVAL for a bad window or -ENOMEM.
 */
int nvpc_simdev_set_mem(struct nvpc_simdev *sd, u64 va, u32 size)
{
	unsigned long flags;
	u8 *mem = NULL, *old;

	if (size) {
		if (size > NVPC_SIMDEV_MEM_MAX || (size & 15) || (va & 15) ||
		    va + size > BIT_ULL(40) || va + size < va) {
			dev_dbg(&sd->pdev->dev, "bad memory window %#llx+%#x\n",
				va, size);
			return -EINVAL;
		}
		mem = vzalloc(size);
		if (!mem)
			return -ENOMEM;
	}
	nvpc_simdev_lock(sd, &flags);
	old = sd->mem;
	sd->mem = mem;
	sd->mem_va = size ? va : 0;
	sd->mem_size = size;
	sd->mem_writes = 0;
	sd->mem_faults = 0;
	sd->seq++;	/* a copy's packets resolve anew */
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	vfree(old);
	return 0;
}

/* Build a model from @sd->mchip; callbacks installed, nothing shared yet. */
static struct nvpc_sim *nvpc_simdev_build(struct nvpc_simdev *sd)
{
	struct nvpc_sim_params p = {
		.chip = &sd->mchip,
		.nr_gpc = sd->nr_gpc,
		.nr_part = sd->nr_part,
		.record_latency = sd->record_latency,
		.record_latency_ns = nvpc_simdev_latency_ns(sd),
	};
	struct nvpc_sim *sim;
	size_t size;
	int ret;

	size = nvpc_sim_size(&p);
	if (!size)
		return ERR_PTR(-EINVAL);
	/* the same for every clock: the spare copy buffer stays valid */
	sd->sim_size = size;
	sim = kvzalloc(size, GFP_KERNEL);
	if (!sim)
		return ERR_PTR(-ENOMEM);
	ret = nvpc_sim_init(sim, size, &p);
	if (ret) {
		kvfree(sim);
		return ERR_PTR(ret);
	}
	nvpc_sim_set_trace(sim, nvpc_simdev_trace, sd);
	nvpc_sim_set_mem_write(sim, nvpc_simdev_mem_write, sd);
	return sim;
}

/* A cycle of the slowest domain of @sim, in nanoseconds (rounded up). */
static u64 nvpc_simdev_slowest_cycle_ns(struct nvpc_sim *sim)
{
	unsigned int i;
	u32 hz = U32_MAX;

	for (i = 0; i < nvpc_sim_nr_domains(sim); i++)
		hz = min(hz, nvpc_sim_clock_hz(sim, i));
	return DIV_ROUND_UP_ULL(NSEC_PER_SEC, hz);
}

/* Flat domain order of the model (nvpc_sim_domain_find()): set by set. */
static int nvpc_simdev_map_domains(struct nvpc_simdev *sd)
{
	static const u8 sets[] = { NVPC_DSET_HUB, NVPC_DSET_GPC,
				   NVPC_DSET_PART };
	const struct nvpc_chip_desc *chip = sd->chip;
	unsigned int s, u, i, units, n = 0;
	u8 dset;

	sd->doms = kcalloc(sd->nr_dom, sizeof(*sd->doms), GFP_KERNEL);
	if (!sd->doms)
		return -ENOMEM;
	for (s = 0; s < ARRAY_SIZE(sets); s++) {
		dset = chip->gen < NVPC_GEN_GF100 ? NVPC_DSET_MAIN : sets[s];
		units = dset == NVPC_DSET_GPC ? sd->nr_gpc :
			dset == NVPC_DSET_PART ? sd->nr_part : 1;
		for (u = 0; u < units; u++) {
			for (i = 0; i < chip->nr_domains; i++) {
				const struct nvpc_domain_desc *dd =
					&chip->domains[i];

				if (dd->dset != dset)
					continue;
				if (n >= sd->nr_dom ||
				    nvpc_sim_domain_find(sd->sim, dset, u,
							 dd->index) != n)
					return -EINVAL;
				sd->doms[n].dset = dset;
				sd->doms[n].unit = u;
				sd->doms[n].index = dd->index;
				sd->doms[n].desc = i;
				n++;
			}
		}
		if (chip->gen < NVPC_GEN_GF100)
			break;
	}
	return n == sd->nr_dom ? 0 : -EINVAL;
}

/**
 * nvpc_simdev_dom_name() - the documented name of a flat domain
 * @sd: the GPU
 * @dom: flat domain index, below @sd->nr_dom
 * @buf: where to print
 * @len: its size
 *
 * Return: @buf, holding "main.I", "hub.I", "gpcG.I" or "partP.I".
 */
const char *nvpc_simdev_dom_name(const struct nvpc_simdev *sd,
				 unsigned int dom, char *buf, size_t len)
{
	const struct nvpc_simdev_dom *d = &sd->doms[dom];

	switch (d->dset) {
	case NVPC_DSET_GPC:
		snprintf(buf, len, "gpc%u.%u", d->unit, d->index);
		break;
	case NVPC_DSET_PART:
		snprintf(buf, len, "part%u.%u", d->unit, d->index);
		break;
	case NVPC_DSET_HUB:
		snprintf(buf, len, "hub.%u", d->index);
		break;
	default:
		snprintf(buf, len, "main.%u", d->index);
		break;
	}
	return buf;
}

/**
 * nvpc_simdev_dom_parse() - parse a domain: a flat index or a name
 * @sd: the GPU
 * @s: "N" (flat index, decimal), "main.I", "hub.I", "gpcG.I" or "partP.I"
 *
 * Return: the flat domain index, or -EINVAL.
 */
int nvpc_simdev_dom_parse(const struct nvpc_simdev *sd, const char *s)
{
	char name[24];
	unsigned int i;

	if (kstrtouint(s, 10, &i) == 0)
		return i < sd->nr_dom ? i : -EINVAL;
	for (i = 0; i < sd->nr_dom; i++)
		if (!strcmp(s, nvpc_simdev_dom_name(sd, i, name, sizeof(name))))
			return i;
	return -EINVAL;
}

/**
 * nvpc_simdev_set_clock() - change the clock of a domain
 * @sd: the GPU
 * @dom: flat domain index, or NVPC_SIMDEV_ALL_DOMAINS for every domain
 * @hz: the new clock in Hz
 *
 * The clock belongs to the chip's domain description, so on GF100+ it
 * changes the domain of that index in every GPC (or partition). The model
 * is rebuilt: registers, waveforms, faults and time start over. Called
 * with @sd->ctl held.
 *
 * Return: 0, -EINVAL for a bad domain or clock, -ERANGE if the model
 * cannot run these clocks, or -ENOMEM.
 */
int nvpc_simdev_set_clock(struct nvpc_simdev *sd, unsigned int dom, u32 hz)
{
	size_t size = sd->mchip.nr_domains * sizeof(*sd->mdoms);
	struct nvpc_domain_desc *prev;
	struct nvpc_sim *sim, *old;
	unsigned long flags;
	unsigned int i;

	if ((dom >= sd->nr_dom && dom != NVPC_SIMDEV_ALL_DOMAINS) || !hz)
		return -EINVAL;
	prev = kmemdup(sd->mdoms, size, GFP_KERNEL);
	if (!prev)
		return -ENOMEM;
	for (i = 0; i < sd->mchip.nr_domains; i++)
		if (dom == NVPC_SIMDEV_ALL_DOMAINS || i == sd->doms[dom].desc)
			sd->mdoms[i].clock_hz = hz;
	sim = nvpc_simdev_build(sd);
	if (IS_ERR(sim)) {
		memcpy(sd->mdoms, prev, size);
		kfree(prev);
		dev_dbg(&sd->pdev->dev, "clock %u Hz refused by the model: %ld\n",
			hz, PTR_ERR(sim));
		return PTR_ERR(sim);
	}
	kfree(prev);
	nvpc_simdev_lock(sd, &flags);
	old = sd->sim;
	sd->sim = sim;
	sd->settle_lag_ns = nvpc_simdev_slowest_cycle_ns(sim);
	if (sd->gone)
		nvpc_sim_fault_removed(sim, true);
	sd->rt_last = ktime_get_ns();
	sd->stuck = 0;
	sd->all_ones = false;
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	kvfree(old);
	return 0;
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

/**
 * nvpc_simdev_remove_hw() - inject device removal
 * @sd: the GPU
 *
 * Reads return all-ones and writes are dropped from now on; the core is
 * told with nvpc_device_gone(). There is no way back: remove the GPU and
 * create a new one. Called with @sd->ctl held.
 */
void nvpc_simdev_remove_hw(struct nvpc_simdev *sd)
{
	unsigned long flags;

	if (sd->gone)
		return;
	nvpc_simdev_lock(sd, &flags);
	sd->gone = true;
	nvpc_sim_fault_removed(sd->sim, true);
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	if (sd->registered)
		nvpc_device_gone(&sd->ndev);
}

static void nvpc_simdev_free(struct nvpc_simdev *sd)
{
	if (!IS_ERR_OR_NULL(sd->pdev))
		platform_device_unregister(sd->pdev);
	vfree(sd->mem);
	vfree(sd->trace);
	kvfree(sd->sim);
	kvfree(sd->spare);
	kvfree(sd->copy_pkts);
	kfree(sd->doms);
	kfree(sd->mdoms);
	mutex_destroy(&sd->ctl);
	kfree(sd);
}

/**
 * nvpc_simdev_create() - build a simulated GPU and register it
 * @o: what to create; @o->id must be free (the caller keeps the list)
 *
 * Return: the GPU, or an ERR_PTR().
 */
struct nvpc_simdev *nvpc_simdev_create(const struct nvpc_simdev_opts *o)
{
	const struct nvpc_chip_desc *chip = o->chip;
	struct nvpc_simdev *sd;
	struct nvpc_sim *sim;
	int ret;

	sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return ERR_PTR(-ENOMEM);
	sd->id = o->id;
	sd->truth_to = U64_MAX;	/* "truth" default: domain 0 signal 0 so far */
	mutex_init(&sd->ctl);
	raw_spin_lock_init(&sd->lock);
	INIT_DELAYED_WORK(&sd->rt_work, nvpc_simdev_rt_work);
	sd->chip = chip;
	if (chip->gen >= NVPC_GEN_GF100) {
		sd->nr_gpc = o->nr_gpc ? o->nr_gpc : chip->nr_gpc;
		sd->nr_part = o->nr_part ? o->nr_part : chip->nr_part;
	}
	/* the model gets a copy of the chip whose clocks can be changed */
	sd->mchip = *chip;
	sd->mdoms = kmemdup(chip->domains,
			    chip->nr_domains * sizeof(*chip->domains),
			    GFP_KERNEL);
	sd->trace = vzalloc(array_size(NVPC_SIMDEV_TRACE_LEN,
				       sizeof(*sd->trace)));
	ret = -ENOMEM;
	if (!sd->mdoms || !sd->trace)
		goto err;
	sd->mchip.domains = sd->mdoms;

	sim = nvpc_simdev_build(sd);
	if (IS_ERR(sim)) {
		ret = PTR_ERR(sim);
		pr_debug("model refused chip %s: %d\n", chip->name, ret);
		goto err;
	}
	sd->sim = sim;
	sd->settle_lag_ns = nvpc_simdev_slowest_cycle_ns(sim);
	sd->ns_per_work = NVPC_SIMDEV_NS_PER_WORK_INIT;
	sd->nr_dom = nvpc_sim_nr_domains(sim);
	ret = nvpc_simdev_map_domains(sd);
	if (ret) {
		pr_debug("unexpected domain layout of chip %s\n", chip->name);
		goto err;
	}

	sd->pdev = platform_device_register_simple(KBUILD_MODNAME, sd->id,
						   NULL, 0);
	if (IS_ERR(sd->pdev)) {
		ret = PTR_ERR(sd->pdev);
		goto err;
	}
	ret = nvpc_simdev_vm_init(sd);
	if (ret)
		goto err;
	snprintf(sd->bus_id, sizeof(sd->bus_id), "sim.%d", sd->id);
	sd->ndev.dev = &sd->pdev->dev;
	sd->ndev.chip = chip;
	sd->ndev.bus_id = sd->bus_id;
	sd->ndev.index = sd->id;
	if (sd->nr_gpc)
		sd->ndev.gpc_mask = GENMASK(sd->nr_gpc - 1, 0);
	if (sd->nr_part)
		sd->ndev.part_mask = GENMASK(sd->nr_part - 1, 0);
	sd->ndev.ops = &nvpc_simdev_ops;
	sd->ndev.record_max_pages = NVPC_SIMDEV_VM_MAX_PAGES;
	sd->ndev.priv = sd;

	/* the global controls as an earlier owner of the GPU left them */
	if (o->gctrl_set) {
		if (chip->gen < NVPC_GEN_GF100) {
			nvpc_sim_wr32(sim, NVPC_G84_GCTRL, o->gctrl);
		} else {
			nvpc_sim_wr32(sim, NVPC_GF100_HUB_DSET_CTRL, o->gctrl);
			nvpc_sim_wr32(sim, NVPC_GF100_GPC_DSET_CTRL, o->gctrl);
			nvpc_sim_wr32(sim, NVPC_GF100_PART_DSET_CTRL, o->gctrl);
		}
	}
	if (o->realtime)
		nvpc_simdev_set_realtime(sd, true);
	ret = nvpc_device_register(&sd->ndev);
	if (ret) {
		dev_dbg(&sd->pdev->dev, "core refused the device: %d\n", ret);
		nvpc_simdev_set_realtime(sd, false);
		goto err;
	}
	sd->registered = true;
	return sd;

err:
	nvpc_simdev_free(sd);
	return ERR_PTR(ret);
}

/**
 * nvpc_simdev_destroy() - unregister and free a simulated GPU
 * @sd: the GPU, its debugfs directory already removed
 *
 * The core lets go of the registers before they are freed.
 */
void nvpc_simdev_destroy(struct nvpc_simdev *sd)
{
	if (sd->registered)
		nvpc_device_unregister(&sd->ndev);
	sd->registered = false;
	nvpc_simdev_set_realtime(sd, false);
	nvpc_simdev_vm_fini(sd);
	nvpc_simdev_free(sd);
}
