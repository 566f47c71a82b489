// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter_sim: the GPU virtual memory that record-mode packets are
 * written through (Documentation/sim.rst "Record-mode memory"): the
 * backend ops record_bind, record_map and record_unmap
 * (<nvpcounter/device.h>), and the resolution of a packet's GPU address
 * for the model's memory-write callback.
 *
 * A mapping is a range and a page array, the pages repeated across the
 * range (a ring): GPU address va + x is in pages[(x / PAGE_SIZE) %
 * nr_pages]. Lookups and changes of the table are under the GPU's raw
 * lock, which the model also holds when it writes a packet, so a mapping
 * removed under it receives nothing more. Everything that may sleep or
 * allocate (the page arrays, their DMA mappings) is done outside it; the
 * arrays of a removed mapping are freed by a work item, as record_unmap
 * may be called with interrupts off (also on PREEMPT_RT, where freeing
 * memory there is not allowed).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/iommu.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "sim.h"

#define nvpc_simdev_vm_dbg(sd, fmt, ...) \
	dev_dbg(&(sd)->pdev->dev, "record vm: " fmt, ##__VA_ARGS__)

/* A page's struct page, whether in the linear map or vmalloc'd. */
static struct page *nvpc_simdev_vm_page(void *addr)
{
	return is_vmalloc_addr(addr) ? vmalloc_to_page(addr) :
				       virt_to_page(addr);
}

static void nvpc_simdev_vm_dma_unmap(struct nvpc_simdev *sd,
				     struct nvpc_simdev_vm_map *m,
				     unsigned int n)
{
	while (n--)
		dma_unmap_page(&sd->pdev->dev, m->dma[n], PAGE_SIZE,
			       DMA_FROM_DEVICE);
}

/*
 * The memory a device write to @dma reaches: a DMA address that is not
 * the page's physical address, with no IOMMU and no DMA offset, is a
 * bounce buffer (swiotlb), which only dma_sync_single_for_cpu() copies
 * to the page; else the page itself.
 */
static void *nvpc_simdev_vm_bus(struct nvpc_simdev *sd, void *addr,
				dma_addr_t dma)
{
	struct device *dev = &sd->pdev->dev;
	phys_addr_t phys = page_to_phys(nvpc_simdev_vm_page(addr));

	if (dma != phys && !dev->dma_range_map &&
	    !iommu_get_domain_for_dev(dev) && pfn_valid(PHYS_PFN(dma)))
		return phys_to_virt(dma);
	return addr;
}

static void nvpc_simdev_vm_free_map(struct nvpc_simdev_vm_map *m)
{
	kvfree(m->dma);
	kvfree(m->bus);
	kvfree(m->pages);
	kfree(m);
}

/*
 * Process context: undo the DMA mappings of what record_unmap removed and
 * free their arrays. The pages may be freed already: the GPU writes
 * nothing more into them, and no CPU sync may touch them.
 */
static void nvpc_simdev_vm_free_work(struct work_struct *work)
{
	struct nvpc_simdev *sd = container_of(work, struct nvpc_simdev,
					      vm_free_work);
	struct nvpc_simdev_vm_map *m, *t;
	struct llist_node *list = llist_del_all(&sd->vm_free);
	unsigned int n;

	llist_for_each_entry_safe(m, t, list, free_node) {
		for (n = 0; n < m->nr_pages; n++) {
			dma_unmap_page_attrs(&sd->pdev->dev, m->dma[n],
					     PAGE_SIZE, DMA_FROM_DEVICE,
					     DMA_ATTR_SKIP_CPU_SYNC);
			if (!(n % 1024))
				cond_resched();
		}
		nvpc_simdev_vm_free_map(m);
	}
}

/**
 * nvpc_simdev_vm_init() - set up the GPU VM of a new GPU
 * @sd: the GPU, its platform device registered
 *
 * The platform device gets a DMA mask of 40 bits (the GPU's virtual and
 * physical address width of pcounter.rst "Record mode setup"), so that
 * record_map's DMA mappings are real ones, checked by DMA_API_DEBUG.
 *
 * Return: 0 or the DMA layer's error.
 */
int nvpc_simdev_vm_init(struct nvpc_simdev *sd)
{
	int ret;

	init_llist_head(&sd->vm_free);
	INIT_WORK(&sd->vm_free_work, nvpc_simdev_vm_free_work);
	ret = dma_set_mask_and_coherent(&sd->pdev->dev, DMA_BIT_MASK(40));
	if (ret)
		dev_dbg(&sd->pdev->dev, "no 40-bit DMA mask: %d\n", ret);
	return ret;
}

/**
 * nvpc_simdev_vm_fini() - drop what is left of the GPU VM
 * @sd: the GPU, unregistered from the core
 *
 * Mappings the core left (it should not) and the test mapping are
 * removed; freed arrays are waited for. Process context.
 */
void nvpc_simdev_vm_fini(struct nvpc_simdev *sd)
{
	unsigned int i;

	if (sd->vm_test)
		nvpc_simdev_vm_test(sd, 0, 0, 0);
	for (i = 0; i < NVPC_SIMDEV_VM_MAX; i++)
		if (sd->vm[i])
			nvpc_simdev_record_unmap(sd, sd->vm[i]->va);
	flush_work(&sd->vm_free_work);
}

/**
 * nvpc_simdev_record_bind() - the record_bind backend op
 * @priv: the GPU
 * @chan: out: the channel for RECORD_CHAN
 * @dma: out: the DMA object for RECORD_DMA
 *
 * The sim has one VM; its channel and DMA object are the numbers of
 * Documentation/sim.rst "Record-mode memory" (any number binds it: the
 * model only checks the order of the writes, model/sim_regs.c "DOC:
 * record bind").
 *
 * Return: 0, or -EOPNOTSUPP before G84 (no record mode).
 */
int nvpc_simdev_record_bind(void *priv, u32 *chan, u32 *dma)
{
	struct nvpc_simdev *sd = priv;

	if (sd->chip->gen < NVPC_GEN_G84) {
		nvpc_simdev_vm_dbg(sd, "no record mode before G84\n");
		return -EOPNOTSUPP;
	}
	*chan = NVPC_SIMDEV_RECORD_CHAN;
	*dma = NVPC_SIMDEV_RECORD_DMA;
	return 0;
}

/*
 * Lock held: the slot of a mapping of exactly [va, va + size) (which the
 * new one replaces), else a free slot; -EBUSY if [va, va + size) overlaps
 * a mapping, -ENOMEM if the table is full (the op's contract has no other
 * errno)
 */
static int nvpc_simdev_vm_slot(struct nvpc_simdev *sd, u64 va, u64 size)
{
	int i, slot = -ENOMEM;

	for (i = 0; i < NVPC_SIMDEV_VM_MAX; i++) {
		const struct nvpc_simdev_vm_map *m = sd->vm[i];

		if (!m) {
			if (slot < 0)
				slot = i;
			continue;
		}
		if (m->va == va && m->size == size)
			return i;
		if (va < m->va + m->size && m->va < va + size)
			return -EBUSY;
	}
	return slot;
}

static bool nvpc_simdev_vm_args_ok(struct nvpc_simdev *sd, u64 va, u64 size,
				   void **pages, unsigned int nr_pages)
{
	u64 ring = (u64)nr_pages * PAGE_SIZE, rem_size = 1, rem_va = 1;
	unsigned int i;

	if (!pages || !nr_pages || nr_pages > NVPC_SIMDEV_VM_MAX_PAGES) {
		nvpc_simdev_vm_dbg(sd, "%u pages (1..%u)\n", nr_pages,
				   NVPC_SIMDEV_VM_MAX_PAGES);
		return false;
	}
	/* <nvpcounter/device.h>: a whole number of rings, va aligned */
	div64_u64_rem(size, ring, &rem_size);
	div64_u64_rem(va, ring, &rem_va);
	if (!size || rem_size || rem_va) {
		nvpc_simdev_vm_dbg(sd, "%#llx+%#llx is not %u-page aligned\n",
				   va, size, nr_pages);
		return false;
	}
	/*
	 * pcounter.rst "Record mode setup": 40-bit GPU addresses, the
	 * position wraps at 4 GiB, so no buffer crosses a 4 GiB boundary
	 */
	if (va + size > BIT_ULL(40) || va + size < va ||
	    (va >> 32) != ((va + size - 1) >> 32)) {
		nvpc_simdev_vm_dbg(sd, "%#llx+%#llx crosses 4 GiB or 2^40\n",
				   va, size);
		return false;
	}
	for (i = 0; i < nr_pages; i++) {
		if (!pages[i] || !PAGE_ALIGNED(pages[i]) ||
		    (!is_vmalloc_addr(pages[i]) && !virt_addr_valid(pages[i]))) {
			nvpc_simdev_vm_dbg(sd, "page %u is not a kernel page\n",
					   i);
			return false;
		}
	}
	return true;
}

/**
 * nvpc_simdev_record_map() - the record_map backend op
 * @priv: the GPU
 * @va: GPU virtual address of the window
 * @size: its size, a multiple of @nr_pages * PAGE_SIZE
 * @pages: kernel addresses of the pages (copied; the caller keeps them
 *	until nvpc_simdev_record_unmap())
 * @nr_pages: their number
 *
 * GPU address @va + x is then in @pages[(x / PAGE_SIZE) % @nr_pages].
 * Each page is DMA-mapped for the platform device (DMA_FROM_DEVICE), as
 * for a real GPU; the model writes through the kernel addresses. A
 * mapping of exactly @va and @size is replaced at once, under the lock
 * the model writes packets under: a packet lands in its pages or in
 * @pages, never in nothing; its DMA mappings are undone as
 * nvpc_simdev_record_unmap() does. Process context.
 *
 * Return: 0; -EINVAL for bad arguments (see the checks), -EBUSY if the
 * window overlaps a mapping other than one of exactly @va and @size,
 * -EOPNOTSUPP before G84, -ENOMEM (also when NVPC_SIMDEV_VM_MAX mappings
 * exist).
 */
int nvpc_simdev_record_map(void *priv, u64 va, u64 size, void **pages,
			   unsigned int nr_pages)
{
	struct nvpc_simdev *sd = priv;
	struct nvpc_simdev_vm_map *m, *old = NULL;
	unsigned long flags;
	unsigned int i;
	int ret, slot;

	if (sd->chip->gen < NVPC_GEN_G84) {
		nvpc_simdev_vm_dbg(sd, "no record mode before G84\n");
		return -EOPNOTSUPP;
	}
	if (!nvpc_simdev_vm_args_ok(sd, va, size, pages, nr_pages))
		return -EINVAL;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->pages = kvmalloc_array(nr_pages, sizeof(*m->pages), GFP_KERNEL);
	m->dma = kvmalloc_array(nr_pages, sizeof(*m->dma), GFP_KERNEL);
	m->bus = kvmalloc_array(nr_pages, sizeof(*m->bus), GFP_KERNEL);
	if (!m->pages || !m->dma || !m->bus) {
		nvpc_simdev_vm_free_map(m);
		return -ENOMEM;
	}
	memcpy(m->pages, pages, nr_pages * sizeof(*pages));
	m->va = va;
	m->size = size;
	m->nr_pages = nr_pages;
	for (i = 0; i < nr_pages; i++) {
		m->dma[i] = dma_map_page(&sd->pdev->dev,
					 nvpc_simdev_vm_page(pages[i]), 0,
					 PAGE_SIZE, DMA_FROM_DEVICE);
		if (dma_mapping_error(&sd->pdev->dev, m->dma[i])) {
			nvpc_simdev_vm_dbg(sd, "DMA mapping of page %u failed\n",
					   i);
			nvpc_simdev_vm_dma_unmap(sd, m, i);
			nvpc_simdev_vm_free_map(m);
			return -ENOMEM;
		}
		m->bus[i] = nvpc_simdev_vm_bus(sd, pages[i], m->dma[i]);
	}

	nvpc_simdev_lock(sd, &flags);
	slot = nvpc_simdev_vm_slot(sd, va, size);
	if (slot >= 0) {
		/* a packet lands in the old pages or in the new ones */
		old = sd->vm[slot];
		sd->vm[slot] = m;
		sd->seq++;	/* a copy's packets resolve anew */
	}
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	if (old) {
		llist_add(&old->free_node, &sd->vm_free);
		schedule_work(&sd->vm_free_work);
	}
	if (slot < 0) {
		ret = slot;
		nvpc_simdev_vm_dbg(sd, "%#llx+%#llx: %s\n", va, size,
				   ret == -EBUSY ? "overlaps a mapping" :
						   "no free mapping slot");
		nvpc_simdev_vm_dma_unmap(sd, m, nr_pages);
		nvpc_simdev_vm_free_map(m);
		return ret;
	}
	return 0;
}

/**
 * nvpc_simdev_record_unmap() - the record_unmap backend op
 * @priv: the GPU
 * @va: the address a nvpc_simdev_record_map() was given
 *
 * The mapping leaves the table under the GPU's raw lock, which the model
 * holds while it writes a packet: nothing is written into the pages once
 * this returns. The DMA mappings are undone, and the arrays freed, by a
 * work item: this costs the same for every size. Any context; does not
 * sleep. An unknown @va is ignored (with a dev_dbg).
 */
void nvpc_simdev_record_unmap(void *priv, u64 va)
{
	struct nvpc_simdev *sd = priv;
	struct nvpc_simdev_vm_map *m = NULL;
	unsigned long flags;
	unsigned int i;

	nvpc_simdev_lock(sd, &flags);
	for (i = 0; i < NVPC_SIMDEV_VM_MAX; i++) {
		if (sd->vm[i] && sd->vm[i]->va == va) {
			m = sd->vm[i];
			sd->vm[i] = NULL;
			sd->seq++;	/* no copy's packet lands here */
			break;
		}
	}
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	if (!m) {
		nvpc_simdev_vm_dbg(sd, "unmap of %#llx: not mapped\n", va);
		return;
	}
	llist_add(&m->free_node, &sd->vm_free);
	schedule_work(&sd->vm_free_work);
}

/**
 * nvpc_simdev_record_sync() - the record_sync backend op
 * @priv: the GPU
 * @va: the address a nvpc_simdev_record_map() was given
 * @x: offset in the window of the first byte
 * @len: bytes
 * @for_cpu: to the CPU (dma_sync_single_for_cpu()), else to the GPU
 *
 * Syncs each page of the ring the bytes lie in, at most once. Any
 * context; does not sleep.
 */
void nvpc_simdev_record_sync(void *priv, u64 va, u64 x, u64 len, bool for_cpu)
{
	struct nvpc_simdev *sd = priv;
	struct nvpc_simdev_vm_map *m = NULL;
	unsigned long flags;
	u64 first, nr, i;
	u32 page;

	nvpc_simdev_lock(sd, &flags);
	for (i = 0; i < NVPC_SIMDEV_VM_MAX; i++)
		if (sd->vm[i] && sd->vm[i]->va == va)
			m = sd->vm[i];
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	/* the caller keeps the mapping until record_unmap */
	if (!m || !len)
		return;
	first = x >> PAGE_SHIFT;
	nr = min_t(u64, ((x + len - 1) >> PAGE_SHIFT) - first + 1,
		   m->nr_pages);
	for (i = 0; i < nr; i++) {
		div_u64_rem(first + i, m->nr_pages, &page);
		if (for_cpu)
			dma_sync_single_for_cpu(&sd->pdev->dev, m->dma[page],
						PAGE_SIZE, DMA_FROM_DEVICE);
		else
			dma_sync_single_for_device(&sd->pdev->dev,
						   m->dma[page], PAGE_SIZE,
						   DMA_FROM_DEVICE);
	}
}

/* Lock held: where the GPU's write of GPU address @va lands, or NULL. */
static u8 *nvpc_simdev_vm_resolve(struct nvpc_simdev *sd, u64 va, u32 *room,
				  struct nvpc_simdev_vm_map **map)
{
	struct nvpc_simdev_vm_map *m;
	unsigned int i;
	u32 page;
	u64 x;

	for (i = 0; i < NVPC_SIMDEV_VM_MAX; i++) {
		m = sd->vm[i];
		if (!m || va < m->va || va - m->va >= m->size)
			continue;
		x = va - m->va;
		div_u64_rem(x >> PAGE_SHIFT, m->nr_pages, &page);
		*room = PAGE_SIZE - offset_in_page(x);
		*map = m;
		return (u8 *)m->bus[page] + offset_in_page(x);
	}
	return NULL;
}

/**
 * nvpc_simdev_vm_mapped() - every byte of a packet is mapped
 * @sd: the GPU, its lock held
 * @va: the packet's GPU virtual address
 * @len: its length (at most a page)
 *
 * Return: true if nvpc_simdev_vm_write() of it would succeed.
 */
bool nvpc_simdev_vm_mapped(struct nvpc_simdev *sd, u64 va, u32 len)
{
	struct nvpc_simdev_vm_map *m;
	u32 room;

	if (!nvpc_simdev_vm_resolve(sd, va, &room, &m))
		return false;
	return len <= room || nvpc_simdev_vm_resolve(sd, va + room, &room, &m);
}

/**
 * nvpc_simdev_vm_write() - write a record packet through the mappings
 * @sd: the GPU, its lock held
 * @va: the packet's GPU virtual address
 * @buf: the packet
 * @len: its length (16 or 32)
 *
 * A packet that straddles two pages (a 16-byte aligned position with
 * 32-byte packets) is written in two parts, each resolved on its own;
 * if any part is unmapped nothing is written.
 *
 * Return: 0, or -EFAULT if some byte of the packet is unmapped.
 */
int nvpc_simdev_vm_write(struct nvpc_simdev *sd, u64 va, const void *buf,
			 u32 len)
{
	struct nvpc_simdev_vm_map *m[2];
	u8 *dst[2];
	u32 n[2], room;
	unsigned int parts = 0;

	while (len && parts < 2) {
		dst[parts] = nvpc_simdev_vm_resolve(sd, va, &room, &m[parts]);
		if (!dst[parts])
			return -EFAULT;
		n[parts] = min(len, room);
		va += n[parts];
		len -= n[parts];
		parts++;
	}
	if (len)
		return -EFAULT;
	memcpy(dst[0], buf, n[0]);
	if (parts > 1)
		memcpy(dst[1], (const u8 *)buf + n[0], n[1]);
	/* a packet counts in the mapping of its first byte */
	m[0]->packets++;
	return 0;
}

/**
 * nvpc_simdev_vm_test() - the debugfs test mapping ("vm_test" file)
 * @sd: the GPU, @sd->ctl held
 * @va: GPU virtual address, as record_map's
 * @size: window size, 0 to remove the test mapping
 * @nr_pages: pages of the ring, allocated here (zeroed)
 *
 * Exercises nvpc_simdev_record_map() and nvpc_simdev_record_unmap() as
 * the core calls them, with pages the sim owns, so that the tests can
 * read what the model wrote ("vm_test_mem").
 *
 * Return: 0, -EBUSY if a test mapping exists (or the window overlaps a
 * mapping), or record_map's errors.
 */
int nvpc_simdev_vm_test(struct nvpc_simdev *sd, u64 va, u64 size,
			unsigned int nr_pages)
{
	struct nvpc_simdev_vm_test *t = sd->vm_test;
	unsigned int i;
	int ret;

	if (!size) {
		if (!t)
			return 0;
		nvpc_simdev_record_unmap(sd, t->va);
		for (i = 0; i < t->nr_pages; i++)
			free_page((unsigned long)t->pages[i]);
		kfree(t->pages);
		kfree(t);
		sd->vm_test = NULL;
		return 0;
	}
	if (t) {
		nvpc_simdev_vm_dbg(sd, "a test mapping exists\n");
		return -EBUSY;
	}
	if (!nr_pages || nr_pages > NVPC_SIMDEV_VM_TEST_PAGES) {
		nvpc_simdev_vm_dbg(sd, "test mapping of %u pages (1..%u)\n",
				   nr_pages, NVPC_SIMDEV_VM_TEST_PAGES);
		return -EINVAL;
	}
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->pages = kcalloc(nr_pages, sizeof(*t->pages), GFP_KERNEL);
	if (!t->pages) {
		kfree(t);
		return -ENOMEM;
	}
	for (i = 0; i < nr_pages; i++) {
		t->pages[i] = (void *)get_zeroed_page(GFP_KERNEL);
		if (!t->pages[i]) {
			ret = -ENOMEM;
			goto err;
		}
	}
	t->va = va;
	t->nr_pages = nr_pages;
	ret = nvpc_simdev_record_map(sd, va, size, t->pages, nr_pages);
	if (ret)
		goto err;
	sd->vm_test = t;
	return 0;
err:
	for (i = 0; i < nr_pages; i++)
		if (t->pages[i])
			free_page((unsigned long)t->pages[i]);
	kfree(t->pages);
	kfree(t);
	return ret;
}
