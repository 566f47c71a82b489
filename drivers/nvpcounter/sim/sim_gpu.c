// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter_sim: the life cycle of one simulated GPU. The model
 * (model/sim_model.h) is wrapped in a raw spinlock and handed to the core
 * as backend register ops; in real-time mode the model's time follows the
 * wall clock (Documentation/sim.rst "Time and clocks"): the clock, the
 * budgets of work, runs on copies and the posted writes are sim_clock.c's.
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

/**
 * nvpc_simdev_in_window() - a packet wholly inside the mem_ctl window
 * @sd: the GPU
 * @gpu_va: the packet's GPU virtual address
 * @len: its length
 *
 * Lock held.
 *
 * Return: true if the window holds the whole packet.
 */
bool nvpc_simdev_in_window(const struct nvpc_simdev *sd, u64 gpu_va, u32 len)
{
	return sd->mem && gpu_va >= sd->mem_va &&
	       gpu_va - sd->mem_va <= sd->mem_size &&
	       len <= sd->mem_size - (gpu_va - sd->mem_va);
}

/**
 * nvpc_simdev_mem_write() - the model's memory write callback
 * @ctx: the GPU
 * @gpu_va: the packet's GPU virtual address
 * @buf: the packet
 * @len: its length
 *
 * Lock held: a record-mode packet into GPU memory (Documentation/sim.rst
 * "Record-mode memory"): the mem_ctl window if the packet is wholly
 * inside it, else the record_map mappings (sim_vm.c), else a VM fault.
 *
 * Return: 0, or -EFAULT for a VM fault.
 */
int nvpc_simdev_mem_write(void *ctx, u64 gpu_va, const void *buf, u32 len)
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
