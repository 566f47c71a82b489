/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The core of one GPU (struct nvpc_core) and the interfaces of the
 * registry, the perf glue, sysfs and debugfs.
 */
#ifndef _NVPC_CORE_H
#define _NVPC_CORE_H

#include <linux/device.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>

#include "engine.h"

/* dev_dbg() on the GPU's device: every rejection names its reason */
#define nvpc_dbg(core, fmt, ...) \
	dev_dbg((core)->hw.dev, fmt, ##__VA_ARGS__)

extern struct dentry *nvpc_debugfs_root;

/**
 * struct nvpc_core - the core's state for one registered GPU
 * @hw: the hardware part (gen.h): the backend's device, not touched once
 *	@gone is set, the reference on its struct device, for dev_dbg()
 *	while events outlive the device, the chip, the generation's ops and
 *	the domains' registers
 * @bus_id: copy of &nvpc_device.bus_id
 * @refs: the registry's reference plus one per open event (taken under
 *	@active_lock while not @gone)
 * @release_work: unregisters the PMU and frees everything after the last
 *	event's reference, outside perf's event teardown; again every
 *	second while perf still holds the PMU's contexts
 * @release_tries: releases that found perf still holding the contexts
 * @node: entry in the registry list, or in the graveyard once released
 * @id: registry index: PMU "nvpcounter" for 0, "nvpcounter_<id>" otherwise
 * @name: the PMU name
 * @gone: set once the hardware vanished or was unregistered: no more
 *	register access, no new events
 * @active_lock: serialises @nr_open and the backend's active_get/put
 * @nr_open: open events (initialised, not yet destroyed)
 * @active_held: the backend's active_get() is held
 * @pmu_registered: nvpc_pmu_register() succeeded (undone at release)
 * @pmu_live: perf_pmu_register() has returned: events may open
 * @debugfs: the device's debugfs directory
 * @lock: serialises the engine and the register sequences; @gone is set
 *	under it when the device is unregistered. A raw lock taken in perf
 *	callbacks with interrupts off (also on PREEMPT_RT), so every hold is
 *	bounded by a count of register accesses, whatever one access costs.
 *	A poll of a domain reads QUAD_STATE, and only where the swap has
 *	landed the counters in use (at most 5) and acks once or twice: 1
 *	access not landed, at most 8 landed. A sample swaps one domain, or
 *	every domain of a global_swap generation (NV30:G84, at most
 *	5) with one pulse, polls each swapped domain once and its
 *	stragglers NVPC_SWAP_POLLS more times in all; each domain lands
 *	once: n domains at most 1 + 8 * n + NVPC_SWAP_POLLS accesses, 17
 *	for one domain, 49 for NV40's five. A commit
 *	programs the domains a perf transaction changed (at most 12 writes
 *	each), swaps them and collects them the same way, then samples the
 *	domains of its new events once each. The poll takes it once per
 *	domain per tick (once per tick in all for a global_swap
 *	generation), and never waits for a straggler beyond its polls.
 * @domains: every domain of the GPU
 * @slots: the live slot tables, one per domain
 * @ctrl_seq: &nvpc_hw.ctrl_writes at the outermost
 *	nvpc_shared_ctrl_begin()
 * @ctrl_nest: depth of nvpc_shared_ctrl_begin() without its end
 * @modes: the mode ops of each NVPC_CLAIM_* on this GPU
 * @nr_active: events added (counting) on the GPU, each unit of a unit
 *	sum one event
 * @nr_unit_extra: the units of unit sums added beyond each sum's first:
 *	@nr_active less these is the perf events counting
 * @txn: depth of open perf transactions (pmu_disable without pmu_enable)
 * @fresh: events added since the last commit (linked by active_entry)
 * @leaving: events deleted since the last commit whose last counts the
 *	commit folds in (quad mode; linked by active_entry)
 * @snap: set during a read that is part of a group read (0: a read of
 *	its own): events of one domain read in one group read share one
 *	sample of the domain (pmu.c, nvpc_group_read())
 * @snap_seq: the number of the last group read
 * @snap_leader: the timer leader of the last group read
 * @snap_clock: its count (ns) at that read
 * @snap_last: the member that read last in it: a group read goes on
 *	with the next member of the group only
 * @txn_seq: commits so far; an event deleted inside a transaction is
 *	tagged (hw.last_tag) with the number of the commit that closes it
 * @poll_work: the poll, queued while @nr_active > 0 and not @gone
 * @poll_ns: poll period
 * @cpu: the CPU events are counted on
 * @cpuhp_node: CPU hotplug instance
 * @pmu: the perf PMU
 * @attr_groups: the PMU's sysfs attribute groups
 * @events_group: the events/ group, built per chip
 * @events_attr_mem: storage of the events/ attributes
 * @domains_kobj: the PMU's domains/ directory
 * @domain_kobjs: the directories in it, one per domain
 * @rec_bufs: AUX areas mapped for the GPU (under @lock)
 * @nr_rec_hw: domains in record mode; the record buffer is bound while
 *	there is one (under @lock)
 * @rec_parked: record sessions parked by a del in the open transaction
 *	(under @lock)
 * @rec_max_pages: the most AUX pages the backend maps (0: no record_map)
 * @reads_deferred: reads that found their CPU inside a hold of an engine
 *	lock, or in NMI, and kept the event's last count (nvpc_event_read())
 */
struct nvpc_core {
	struct nvpc_hw hw;
	char bus_id[32];
	struct kref refs;
	struct delayed_work release_work;
	unsigned int release_tries;
	struct list_head node;
	int id;
	char name[32];
	bool gone;
	struct mutex active_lock;	/* see @active_lock above */
	unsigned int nr_open;
	bool active_held;
	bool pmu_registered;
	bool pmu_live;
	struct dentry *debugfs;
	raw_spinlock_t lock;
	struct nvpc_domain *domains;
	struct nvpc_slots *slots;
	u64 ctrl_seq;
	unsigned int ctrl_nest;
	const struct nvpc_mode_ops *modes[NVPC_NR_CLAIMS];
	unsigned int nr_active;
	unsigned int nr_unit_extra;
	unsigned int txn;
	struct list_head fresh;
	struct list_head leaving;
	u64 txn_seq;
	u64 snap;
	u64 snap_seq;
	const struct perf_event *snap_leader;
	u64 snap_clock;
	const struct perf_event *snap_last;
	struct delayed_work poll_work;
	u64 poll_ns;
	int cpu;
	struct hlist_node cpuhp_node;
	struct pmu pmu;
	const struct attribute_group *attr_groups[5];
	struct attribute_group events_group;
	struct perf_pmu_events_attr *events_attr_mem;
	struct kobject *domains_kobj;
	struct kobject **domain_kobjs;
	struct list_head rec_bufs;
	unsigned int nr_rec_hw;
	unsigned int rec_parked;
	u32 rec_max_pages;
	atomic64_t reads_deferred;
};

#define to_nvpc_core(p)	container_of(p, struct nvpc_core, pmu)

/**
 * nvpc_lock() - take @core's engine lock, interrupts off
 * @core: the GPU
 * @flags: unsigned long for the saved interrupt state
 *
 * The CPU's nvpc_lock_depth counts the engine locks it holds or is
 * about to hold, from before the lock is taken to after it is released,
 * with interrupts off throughout. Whatever runs on the CPU inside that
 * span without being called by it (an NMI, a kprobe or a tracepoint
 * fired there, a BPF program they run) sees the count and must not take
 * an engine lock: its CPU may hold it (nvpc_event_read()). The CPU's
 * nvpc_lock_seq numbers its holds, so that a backend can tell the
 * register accesses of one interrupts-off hold from the next (the sim's
 * irqoff_max, Documentation/sim.rst).
 */
#define nvpc_lock(core, flags)					\
	do {								\
		local_irq_save(flags);					\
		__this_cpu_inc(nvpc_lock_depth);			\
		__this_cpu_inc(nvpc_lock_seq);				\
		raw_spin_lock(&(core)->lock);				\
	} while (0)

/**
 * nvpc_unlock() - release what nvpc_lock() took
 * @core: the GPU
 * @flags: the interrupt state nvpc_lock() saved
 */
#define nvpc_unlock(core, flags)					\
	do {								\
		raw_spin_unlock(&(core)->lock);			\
		__this_cpu_dec(nvpc_lock_depth);			\
		local_irq_restore(flags);				\
	} while (0)

/* may this CPU take an engine lock here (see nvpc_lock())? */
static inline bool nvpc_lock_nested(void)
{
	return in_nmi() || this_cpu_read(nvpc_lock_depth);
}

/* the perf events counting on the GPU, for the log */
static inline unsigned int nvpc_nr_counting(struct nvpc_core *core)
{
	return READ_ONCE(core->nr_active) - READ_ONCE(core->nr_unit_extra);
}

int nvpc_registry_init(void);
void nvpc_registry_exit(void);

int nvpc_core_open(struct nvpc_core *core);
void nvpc_core_close(struct nvpc_core *core);
int nvpc_pmu_module_init(void);
void nvpc_pmu_module_exit(void);
int nvpc_pmu_register(struct nvpc_core *core);
void nvpc_pmu_detach(struct nvpc_core *core);
bool nvpc_pmu_wait_idle(struct nvpc_core *core, unsigned int ms);
void nvpc_pmu_unregister(struct nvpc_core *core);
extern u64 nvpc_pmu_hold_until_ns;
int nvpc_sysfs_domains_add(struct nvpc_core *core);
void nvpc_debugfs_add(struct nvpc_core *core);
void nvpc_sysfs_domains_remove(struct nvpc_core *core);

#endif /* _NVPC_CORE_H */
