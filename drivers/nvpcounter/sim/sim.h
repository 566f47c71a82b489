/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvpcounter_sim: one simulated GPU (struct nvpc_simdev), shared by the
 * GPU life cycle (sim_gpu.c) and its debugfs control files (sim_debugfs.c).
 * The interface is documented in Documentation/sim.rst.
 */
#ifndef _NVPC_SIMDEV_H
#define _NVPC_SIMDEV_H

#include <linux/limits.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <nvpcounter/device.h>

#include "model/sim_model.h"

struct dentry;
struct platform_device;

/* GPU ids are 0 .. NVPC_SIMDEV_MAX_GPUS - 1 */
#define NVPC_SIMDEV_MAX_GPUS		16
/* register access trace ring, entries */
#define NVPC_SIMDEV_TRACE_LEN		4096
/* nvpc_simdev_set_clock(): every domain */
#define NVPC_SIMDEV_ALL_DOMAINS		UINT_MAX
/* largest record-mode memory window */
#define NVPC_SIMDEV_MEM_MAX		SZ_1M

/*
 * The GPU VM of record mode (sim_vm.c): mappings per GPU (one per
 * recording domain, at least), pages of one mapping's ring, pages of the
 * debugfs test mapping, and the channel and DMA object record_bind gives
 * (Documentation/sim.rst "Record-mode memory")
 */
#define NVPC_SIMDEV_VM_MAX		32
#define NVPC_SIMDEV_VM_MAX_PAGES	(SZ_1G >> PAGE_SHIFT)
#define NVPC_SIMDEV_VM_TEST_PAGES	256
#define NVPC_SIMDEV_RECORD_CHAN		0x1
#define NVPC_SIMDEV_RECORD_DMA		0xbeef
/* largest record_latency (cycles): the model's latency field is 32 bits */
#define NVPC_SIMDEV_LATENCY_MAX		U32_MAX
/* largest record_latency in nanoseconds (one second) */
#define NVPC_SIMDEV_LATENCY_NS_MAX	NSEC_PER_SEC
/*
 * The record write latency under the real-time clock unless set: a
 * memory write of a GPU completes in hundreds of nanoseconds (an
 * assumption; no document gives a figure), Documentation/sim.rst "Memory
 * write latency"
 */
#define NVPC_SIMDEV_LATENCY_RT_NS	500

/*
 * Every lock hold that runs the model is bounded by a budget of engine
 * work (nvpc_sim_advance_bounded()) worth about this much time, from the
 * measured cost of a unit (ns_per_work, a moving average over holds of
 * at least CALIBRATE_MIN_WORK units, starting at NS_PER_WORK_INIT): a
 * real-time register access RT_ACCESS_NS, the worker and debugfs advance
 * HOLD_NS per hold. The lock is raw and held with interrupts off.
 */
#define NVPC_SIMDEV_RT_ACCESS_NS	(50 * NSEC_PER_USEC)
#define NVPC_SIMDEV_HOLD_NS		(50 * NSEC_PER_USEC)
#define NVPC_SIMDEV_NS_PER_WORK_INIT	2000
#define NVPC_SIMDEV_NS_PER_WORK_MAX	(10 * NSEC_PER_USEC)
#define NVPC_SIMDEV_CALIBRATE_MIN_WORK	8
/*
 * A run on a copy (interrupts on) grows its budget up to COPY_GROW_MAX
 * times to make progress; the real-time worker's lock holds only up to
 * RT_GROW_MAX times (200 us): what does not fit waits for a copy run, or
 * is skipped as a lag (RT_MAX_LAG_NS)
 */
#define NVPC_SIMDEV_COPY_GROW_MAX	1024
#define NVPC_SIMDEV_RT_GROW_MAX		4
/*
 * Long runs (debugfs advance, the real-time worker) run on a copy of the
 * model without the lock, in slices of this much wall time each, and
 * commit it with a pointer swap: no interrupts-off stretch grows with the
 * work (e.g. a hyperperiod skip of every domain of a chip).
 */
#define NVPC_SIMDEV_COPY_SLICE_NS	(2 * NSEC_PER_MSEC)
/*
 * work units of one step on the copy, between two cond_resched(): at
 * most COPY_WORK, and at most a slice's worth at the measured cost of a
 * unit
 */
#define NVPC_SIMDEV_COPY_WORK		1024
/*
 * record packets a run on a copy may collect (a 2 ms slice of a 575 MHz
 * domain with a packet every 1024 cycles makes 1123); they are written
 * when it commits, COPY_FLUSH per hold of the lock (about 0.1 us each
 * natively)
 */
#define NVPC_SIMDEV_COPY_PKTS		8192
#define NVPC_SIMDEV_COPY_FLUSH		128
/*
 * Real-time mode: the worker's period and its budget per run; it catches
 * up with what the accesses left, and skips a lag longer than
 * RT_MAX_LAG_NS when the model cannot run at its clocks.
 */
#define NVPC_SIMDEV_RT_PERIOD_MS	5
/* a lag the worker leaves (its copy runs cost about this much) */
#define NVPC_SIMDEV_RT_MIN_LAG_NS	(500 * NSEC_PER_USEC)
#define NVPC_SIMDEV_RT_BUDGET_NS	(4 * NSEC_PER_MSEC)
/* wall time the model may lag behind before the lag is skipped */
#define NVPC_SIMDEV_RT_MAX_LAG_NS	(500 * NSEC_PER_MSEC)
/* real-time: posted register writes held until the next access */
#define NVPC_SIMDEV_POSTED		16

/**
 * struct nvpc_simdev_dom - where a flat model domain comes from
 * @dset: &enum nvpc_dset
 * @unit: GPC or partition number (GF100+), else 0
 * @index: domain index inside its set
 * @desc: index of its description in the chip's domain array
 */
struct nvpc_simdev_dom {
	u8 dset;
	u8 unit;
	u8 index;
	u8 desc;
};

/**
 * struct nvpc_simdev_trace_ent - one traced register access
 * @addr: BAR0 address
 * @val: value read or written
 * @write: true for a write
 */
struct nvpc_simdev_trace_ent {
	u32 addr;
	u32 val;
	bool write;
};

/**
 * struct nvpc_simdev_vm_map - one record_map of the GPU VM
 * @va: GPU virtual address of the window
 * @size: its size, a whole number of rings
 * @nr_pages: pages of the ring
 * @pages: their kernel addresses
 * @dma: their DMA addresses for the platform device
 * @bus: where the GPU's writes to each page land: the page, or its
 *	swiotlb bounce buffer
 * @packets: record packets written into the window (first byte in it)
 * @free_node: in &nvpc_simdev.vm_free once unmapped
 */
struct nvpc_simdev_vm_map {
	u64 va;
	u64 size;
	unsigned int nr_pages;
	void **pages;
	dma_addr_t *dma;
	void **bus;
	u64 packets;
	struct llist_node free_node;
};

/**
 * struct nvpc_simdev_copy_pkt - a record packet a run on a copy wrote
 * @va: its GPU virtual address
 * @len: its length (16 or 32)
 * @data: its bytes
 */
struct nvpc_simdev_copy_pkt {
	u64 va;
	u32 len;
	u8 data[32];
};

/**
 * struct nvpc_simdev_vm_test - the debugfs test mapping and its pages
 * @va: its GPU virtual address
 * @nr_pages: pages of its ring
 * @pages: their kernel addresses (owned by the sim)
 */
struct nvpc_simdev_vm_test {
	u64 va;
	unsigned int nr_pages;
	void **pages;
};

/**
 * struct nvpc_simdev - one simulated GPU
 * @node: in the module's list of GPUs
 * @id: GPU id (platform device id, "sim.<id>")
 * @pdev: the platform device, parent of everything the core creates
 * @ndev: what the core sees
 * @registered: @ndev is registered with the core
 * @gone: device removal was injected (nvpc_device_gone() was called)
 * @bus_id: "sim.<id>"
 * @chip: the catalogue's chip description
 * @mchip: the copy of @chip handed to the model (its clocks may differ)
 * @mdoms: the domain descriptions of @mchip
 * @nr_gpc: GF100+: GPCs instantiated
 * @nr_part: GF100+: partitions instantiated
 * @nr_dom: flat domains of the model
 * @doms: their origin, by flat index
 * @ctl: serialises the debugfs control operations that may sleep
 * @lock: protects the model and everything it calls back into; a raw lock
 *	because register access happens with interrupts off, also on RT.
 *	Worst case of an access: the budgeted run (RT_ACCESS_NS of work),
 *	then the catch-up of the lazy domains it observes to the model time,
 *	which is done even when the run did not fit: per domain at most one
 *	hyperperiod skip of a period of at most 256 cycles (about 35 work
 *	units), for one domain, its set (STATUS, SRC writes) or, for the
 *	global registers, every domain (model/sim_sched.c "DOC: lazy domains").
 *	The commit of a run on a copy writes at most NVPC_SIMDEV_COPY_FLUSH
 *	record packets per hold (each resolved in the window or up to
 *	NVPC_SIMDEV_VM_MAX mappings, twice).
 * @sim: the model (kvzalloc'd), replaced as a whole when a clock changes
 *	or a run on a copy is committed
 * @spare: a buffer of @sim_size for runs on a copy, owned by @ctl's holder
 * @sim_size: size of the model
 * @copy_pkts: record packets of the current run on a copy (owned by @ctl's
 *	holder; NVPC_SIMDEV_COPY_PKTS entries)
 * @copy_nr: packets in @copy_pkts
 * @copy_spoilt: the copy wrote more packets than @copy_pkts holds
 * @copy_work: work units of a step on a copy (halved when a copy was
 *	spoilt, back up to NVPC_SIMDEV_COPY_WORK when packets are few)
 * @copy_packets: record packets written by committed copies
 * @seq: bumped under @lock by every change of @sim that does not hold @ctl
 *	(the core's register accesses) and of where packets land (the GPU
 *	VM's mappings, the mem_ctl window): a run on a copy taken without
 *	@lock writes its packets and commits only while @seq does not move
 * @realtime: real-time clock mode (else manual)
 * @rt_last: real-time: wall time (ktime_get_ns()) the model has reached
 * @rt_skipped_ns: real-time: wall time skipped because the model lagged
 * @rt_behind: real-time: register accesses that left the model behind the
 *	wall time (the run did not fit their budget)
 * @rt_behind_max_ns: real-time: the largest such lag
 * @rt_access_max_ns: real-time: the longest model run of a register access
 * @access_ns: the time the core's register accesses took in the sim,
 *	model runs and posted writes included (the sim's share of the
 *	driver's time: make bench tells the driver's own from it)
 * @worker_ns: real-time: the time the catch-up worker ran
 * @irqoff_max: the most register accesses the core made in one hold of
 *	its engine lock (nvpc_lock(): interrupts off), since creation or the
 *	last ``irqoff_reset`` written to ``stats``
 * @irqoff_max_addr: the address of the first access of that hold
 * @posted: real-time: register writes posted, not yet applied, in their
 *	order, each with the wall time it was issued at (a write does not
 *	wait for the model, as a CPU's MMIO write does not wait for the GPU;
 *	the next access, or anything else that takes @lock, applies them at
 *	their times first: nvpc_simdev_flush())
 * @nr_posted: entries in @posted
 * @posted_writes: real-time: writes that were posted
 * @settle_lag_ns: real-time: a cycle of the slowest domain; a read settles
 *	the model (nvpc_sim_settle()) when it lags the wall time that much
 * @ns_per_work: measured cost of a unit of model work (nanoseconds)
 * @rt_work: real-time: the catch-up worker
 * @trace_on: the access trace is recording
 * @trace: the trace ring (NVPC_SIMDEV_TRACE_LEN entries)
 * @trace_head: next entry to write
 * @trace_count: valid entries
 * @trace_lost: entries overwritten since the last clear
 * @mem: record-mode memory window, NULL if none
 * @mem_va: its GPU virtual address
 * @mem_size: its size in bytes
 * @mem_writes: packets written into the window
 * @mem_faults: packet writes outside the window and every mapping (VM
 *	faults), since the window was last set
 * @vm: the GPU VM's mappings (sim_vm.c), NULL for a free slot; changed
 *	and read under @lock
 * @vm_writes: record packets written through @vm
 * @vm_faults: VM faults (no window or mapping) since creation
 * @vm_test: the debugfs test mapping, NULL if none (under @ctl)
 * @vm_free: unmapped mappings whose arrays @vm_free_work frees
 * @vm_free_work: frees them in process context
 * @record_latency: the record latency set (cycles), kept across a
 *	rebuild of the model
 * @record_latency_ns: the record latency set in nanoseconds (if not 0:
 *	each domain's cycles from its clock)
 * @latency_set: the record latency was set (record_latency file); else
 *	the default applies: %NVPC_SIMDEV_LATENCY_RT_NS under the real-time
 *	clock, 0 under the manual one
 * @reg_addr: the address selected in the "reg" file
 * @truth_dom: the domain selected in the "truth" file
 * @truth_sig: the signal selected in the "truth" file
 * @truth_from: first cycle of the "truth" interval
 * @truth_to: end of the "truth" interval, U64_MAX: cycles processed so far
 * @stuck: stuck addresses injected (for the "fault" file)
 * @all_ones: all-ones reads injected
 * @dir: the debugfs directory gpu<id>
 */
struct nvpc_simdev {
	struct list_head node;
	int id;
	struct platform_device *pdev;
	struct nvpc_device ndev;
	bool registered;
	bool gone;
	char bus_id[16];
	const struct nvpc_chip_desc *chip;
	struct nvpc_chip_desc mchip;
	struct nvpc_domain_desc *mdoms;
	unsigned int nr_gpc;
	unsigned int nr_part;
	unsigned int nr_dom;
	struct nvpc_simdev_dom *doms;

	struct mutex ctl;	/* see the kernel-doc above */
	raw_spinlock_t lock;
	struct nvpc_sim *sim;
	struct nvpc_sim *spare;
	size_t sim_size;
	struct nvpc_simdev_copy_pkt *copy_pkts;
	unsigned int copy_nr;
	bool copy_spoilt;
	u64 copy_work;
	u64 copy_packets;
	u64 seq;

	bool realtime;
	u64 rt_last;
	u64 rt_skipped_ns;
	u64 rt_behind;
	u64 rt_behind_max_ns;
	u64 rt_access_max_ns;
	u64 access_ns;
	u64 worker_ns;
	u32 irqoff_max;
	u32 irqoff_max_addr;
	struct nvpc_simdev_posted {
		u64 t;
		u32 addr;
		u32 val;
	} posted[NVPC_SIMDEV_POSTED];
	unsigned int nr_posted;
	u64 posted_writes;
	u64 settle_lag_ns;
	u64 ns_per_work;
	struct delayed_work rt_work;

	bool trace_on;
	struct nvpc_simdev_trace_ent *trace;
	unsigned int trace_head;
	unsigned int trace_count;
	u64 trace_lost;

	u8 *mem;
	u64 mem_va;
	u32 mem_size;
	u64 mem_writes;
	u64 mem_faults;
	struct nvpc_simdev_vm_map *vm[NVPC_SIMDEV_VM_MAX];
	u64 vm_writes;
	u64 vm_faults;
	struct nvpc_simdev_vm_test *vm_test;
	struct llist_head vm_free;
	struct work_struct vm_free_work;
	u32 record_latency;
	u32 record_latency_ns;
	bool latency_set;

	u32 reg_addr;
	unsigned int truth_dom;
	unsigned int truth_sig;
	u64 truth_from;
	u64 truth_to;
	unsigned int stuck;
	bool all_ones;

	struct dentry *dir;
};

/**
 * struct nvpc_simdev_opts - what to create
 * @chip: the chip
 * @id: wanted GPU id, -1 for the lowest free one
 * @nr_gpc: GF100+: GPCs, 0 for the catalogue's default
 * @nr_part: GF100+: partitions, 0 for the catalogue's default
 * @realtime: start in real-time clock mode
 * @gctrl_set: @gctrl given: write it before registration
 * @gctrl: G84:GF100 GCTRL, GF100+ each domain set's control, as an
 *	earlier owner of the GPU left them (sim.rst "create")
 */
struct nvpc_simdev_opts {
	const struct nvpc_chip_desc *chip;
	int id;
	unsigned int nr_gpc;
	unsigned int nr_part;
	bool realtime;
	bool gctrl_set;
	u32 gctrl;
};

struct nvpc_simdev *nvpc_simdev_create(const struct nvpc_simdev_opts *o);
void nvpc_simdev_destroy(struct nvpc_simdev *sd);
void nvpc_simdev_flush(struct nvpc_simdev *sd);

/*
 * Take @sd->lock (irqsave into *@flags) with the posted register writes
 * applied: every holder but the register accessors themselves takes it so.
 */
static inline void nvpc_simdev_lock(struct nvpc_simdev *sd,
				    unsigned long *flags)
	__acquires(&sd->lock)
{
	raw_spin_lock_irqsave(&sd->lock, *flags);
	nvpc_simdev_flush(sd);
}

int nvpc_simdev_set_clock(struct nvpc_simdev *sd, unsigned int dom, u32 hz);
int nvpc_simdev_mem_write(void *ctx, u64 gpu_va, const void *buf, u32 len);
bool nvpc_simdev_in_window(const struct nvpc_simdev *sd, u64 gpu_va, u32 len);

/* sim_clock.c: the clock, the budgets of work, copies, posted writes */
u64 nvpc_simdev_budget(const struct nvpc_simdev *sd, u64 hold_ns);
void nvpc_simdev_rt_access(struct nvpc_simdev *sd, u64 now, u64 *budget,
			   u32 addr, bool write, u32 val);
void nvpc_simdev_flush_budget(struct nvpc_simdev *sd, u64 *budget);
void nvpc_simdev_rt_work(struct work_struct *work);
void nvpc_simdev_set_realtime(struct nvpc_simdev *sd, bool on);
int nvpc_simdev_advance(struct nvpc_simdev *sd, unsigned int dom, u64 n,
			bool ns);
int nvpc_simdev_set_mem(struct nvpc_simdev *sd, u64 va, u32 size);
void nvpc_simdev_remove_hw(struct nvpc_simdev *sd);
void nvpc_simdev_set_record_latency(struct nvpc_simdev *sd, bool set,
				    u32 cycles, u32 ns);
u32 nvpc_simdev_latency_ns(const struct nvpc_simdev *sd);

int nvpc_simdev_vm_init(struct nvpc_simdev *sd);
void nvpc_simdev_vm_fini(struct nvpc_simdev *sd);
int nvpc_simdev_record_bind(void *priv, u32 *chan, u32 *dma);
int nvpc_simdev_record_map(void *priv, u64 va, u64 size, void **pages,
			   unsigned int nr_pages);
void nvpc_simdev_record_unmap(void *priv, u64 va);
void nvpc_simdev_record_sync(void *priv, u64 va, u64 x, u64 len, bool for_cpu);
int nvpc_simdev_vm_write(struct nvpc_simdev *sd, u64 va, const void *buf,
			 u32 len);
bool nvpc_simdev_vm_mapped(struct nvpc_simdev *sd, u64 va, u32 len);
int nvpc_simdev_vm_test(struct nvpc_simdev *sd, u64 va, u64 size,
			unsigned int nr_pages);
const char *nvpc_simdev_dom_name(const struct nvpc_simdev *sd,
				 unsigned int dom, char *buf, size_t len);
int nvpc_simdev_dom_parse(const struct nvpc_simdev *sd, const char *s);

void nvpc_simdev_debugfs_add(struct nvpc_simdev *sd, struct dentry *root);

#endif /* _NVPC_SIMDEV_H */
