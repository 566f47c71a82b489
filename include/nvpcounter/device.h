/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device registry: how a backend (sim, pci) hands a GPU to the
 * nvpcounter core, and the register accessors every layer uses.
 */
#ifndef _NVPCOUNTER_DEVICE_H
#define _NVPCOUNTER_DEVICE_H

#include <linux/compiler.h>
#include <linux/percpu.h>
#include <linux/types.h>

#include <nvpcounter/chip.h>

struct device;
struct nvpc_core;

/**
 * struct nvpc_backend_ops - a backend's register access and services
 * @rd32: read the 32-bit register at absolute BAR0 address @addr
 * @wr32: write the 32-bit register at absolute BAR0 address @addr
 * @active_get: optional: the GPU gets its first open event; keep it awake
 *	(e.g. a runtime-PM reference). Process context, may sleep; an error
 *	fails the perf_event_open() with it.
 * @active_put: optional: undoes @active_get when the last event closes, or
 *	at nvpc_device_unregister() if events are still open. Process
 *	context.
 * @record_bind: optional, record mode (G84+): the channel and DMA object
 *	whose VM record packets are written through; the core binds them
 *	with RECORD_DMA then RECORD_CHAN (pcounter.rst "Record mode setup").
 *	Process context. Without it (or on an error) record events fail
 *	with -EOPNOTSUPP.
 * @record_map: optional, record mode: make the @nr_pages pages at the
 *	kernel addresses @pages (PAGE_SIZE each, a perf AUX area) visible to
 *	the GPU at the virtual addresses [@va, @va + @size), repeated: GPU
 *	address @va + x is in page @pages[(x / PAGE_SIZE) % @nr_pages].
 *	@size is a multiple of @nr_pages * PAGE_SIZE, @va is aligned to it
 *	and the window does not cross a 4 GiB boundary. The GPU only writes.
 *	A mapping of exactly @va and @size is replaced at once: a GPU write
 *	lands in its pages or in @pages, never faults. Process context, may
 *	sleep. Return: 0, -EBUSY if the range overlaps another mapping,
 *	-EOPNOTSUPP, -ENOMEM.
 * @record_unmap: optional, record mode: undo the @record_map at @va.
 *	When it returns the GPU writes nothing more into those pages. Any
 *	context; must not sleep, and its cost must not grow with the
 *	mapping's size (the core calls it with interrupts off): defer what
 *	does to process context.
 * @record_sync: optional, record mode: hand the bytes [@x, @x + @len) of
 *	the window of the @record_map at @va to the CPU (@for_cpu: before
 *	the core publishes packets the GPU wrote there) or back to the GPU
 *	(before the core lets the GPU write there again), as
 *	dma_sync_single_for_cpu() and _for_device() do. Any context; the
 *	core keeps @len to a few hundred pages.
 *
 * @rd32 and @wr32 may be called from any context the core uses for
 * register access: process context and perf callbacks (hard irq, or
 * interrupts disabled). They must not sleep, and one access should be
 * short: the core bounds the number of accesses under its raw lock, not
 * their cost.
 */
struct nvpc_backend_ops {
	u32 (*rd32)(void *priv, u32 addr);
	void (*wr32)(void *priv, u32 addr, u32 val);
	int (*active_get)(void *priv);
	void (*active_put)(void *priv);
	int (*record_bind)(void *priv, u32 *chan, u32 *dma);
	int (*record_map)(void *priv, u64 va, u64 size, void **pages,
			  unsigned int nr_pages);
	void (*record_unmap)(void *priv, u64 va);
	void (*record_sync)(void *priv, u64 va, u64 x, u64 len, bool for_cpu);
};

/**
 * struct nvpc_device - one GPU as the core sees it
 * @dev: the backend's device: parent of the PMU, target of dev_dbg()
 * @chip: the chip description from the catalogue
 * @bus_id: where the GPU is, shown in the PMU's identifier ("sim.0",
 *	"0000:01:00.0")
 * @index: the backend's stable number of the GPU (the sim's GPU id, the
 *	PCI discovery order): its PMU is "nvpcounter" for 0 and
 *	"nvpcounter_<index>" otherwise, unless a removed GPU's PMU, still
 *	held by open events, has that name (then the lowest free one)
 * @gpc_mask: GF100+: GPCs present (bit per GPC), 0 before GF100
 * @part_mask: GF100+: memory partitions present (bit per partition)
 * @record_max_pages: the most pages one @record_map of the backend takes
 *	(0: as many as the window holds)
 * @ops: register access (the PCI backend checks each address against
 *	the ranges it mapped, the sim runs its model)
 * @priv: the backend's cookie for @ops
 * @core: owned by the core from nvpc_device_register() on
 *
 * The backend fills everything but @core, calls nvpc_device_register(),
 * and before it frees the registers calls nvpc_device_unregister().
 */
struct nvpc_device {
	struct device *dev;
	const struct nvpc_chip_desc *chip;
	const char *bus_id;
	int index;
	u32 gpc_mask;
	u32 record_max_pages;
	u32 part_mask;
	const struct nvpc_backend_ops *ops;
	void *priv;
	struct nvpc_core *core;
};

/**
 * DOC: engine lock holds
 *
 * nvpc_lock_depth is the number of a core's engine locks this CPU holds
 * or is taking (interrupts off throughout); nvpc_lock_seq numbers this
 * CPU's holds, one more at each nvpc_lock(). A backend's rd32 or wr32
 * that finds nvpc_lock_depth nonzero is inside the hold numbered by
 * nvpc_lock_seq, with interrupts off: the sim counts the accesses of
 * each hold that way (Documentation/sim.rst, ``irqoff_max``). Read them
 * with interrupts off (__this_cpu_read()).
 */
DECLARE_PER_CPU(unsigned int, nvpc_lock_depth);
DECLARE_PER_CPU(unsigned long, nvpc_lock_seq);

int nvpc_device_register(struct nvpc_device *ndev);
void nvpc_device_unregister(struct nvpc_device *ndev);
void nvpc_device_gone(struct nvpc_device *ndev);

/**
 * nvpc_rd32() - read a PCOUNTER register
 * @ndev: the device
 * @addr: absolute BAR0 address (0x00a7c0, 0x1b009c, ...)
 *
 * Return: the register value; 0xffffffff when the device is gone.
 */
static inline u32 nvpc_rd32(struct nvpc_device *ndev, u32 addr)
{
	return ndev->ops->rd32(ndev->priv, addr);
}

/**
 * nvpc_wr32() - write a PCOUNTER register
 * @ndev: the device
 * @addr: absolute BAR0 address
 * @val: value
 */
static inline void nvpc_wr32(struct nvpc_device *ndev, u32 addr, u32 val)
{
	ndev->ops->wr32(ndev->priv, addr, val);
}

#endif /* _NVPCOUNTER_DEVICE_H */
