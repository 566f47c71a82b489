/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The core of one GPU (struct nvpc_core: its registry entry, its PMU,
 * its sysfs and debugfs, around its engine) and the interfaces of the
 * registry, the perf glue, sysfs and debugfs.
 */
#ifndef _NVPC_CORE_H
#define _NVPC_CORE_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/workqueue.h>
#include <linux/perf_event.h>

#include "engine.h"

extern struct dentry *nvpc_debugfs_root;

/**
 * struct nvpc_core - one registered GPU: registry, PMU, sysfs, debugfs
 * @eng: its engine (engine.h), and in it its hardware part (gen.h)
 * @bus_id: copy of &nvpc_device.bus_id
 * @boot0: PMC.BOOT_0 as read at registration (the PMU's boot0 file)
 * @refs: the registry's reference plus one per open event (taken under
 *	&nvpc_engine.active_lock while not &nvpc_engine.gone)
 * @idle_work: the watch after the last event closed: holds a reference
 *	(the last event's) until perf's contexts of the PMU are idle, and
 *	one on the module from its first poll that found them busy; again
 *	every second while they are (device.c)
 * @idle_tries: checks of the watch that found the contexts busy
 * @watching: @idle_work holds its reference (under
 *	&nvpc_engine.active_lock)
 * @module_held: @idle_work holds a reference on the module (under
 *	&nvpc_engine.active_lock)
 * @node: entry in the registry list, or in the graveyard once released
 * @id: registry index: PMU "nvpcounter" for 0, "nvpcounter_<id>" otherwise
 * @name: the PMU name, the GPU's name in the log (&nvpc_hw.name)
 * @nr_open: open events (initialised, not yet destroyed; under
 *	&nvpc_engine.active_lock)
 * @active_held: the backend's active_get() is held (under
 *	&nvpc_engine.active_lock)
 * @pmu_registered: nvpc_pmu_register() succeeded (undone at release)
 * @pmu_live: perf_pmu_register() has returned: events may open
 * @debugfs: the device's debugfs directory
 * @snap_seq: the number of the last group read (&nvpc_engine.snap)
 * @snap_leader: the timer leader of the last group read
 * @snap_clock: its count (ns) at that read
 * @snap_last: the member that read last in it: a group read goes on
 *	with the next member of the group only
 * @cpu: the CPU events are counted on
 * @cpuhp_node: CPU hotplug instance
 * @pmu: the perf PMU
 * @attr_groups: the PMU's sysfs attribute groups
 * @events_group: the events/ group, built per chip
 * @events_attr_mem: storage of the events/ attributes
 * @domains_kobj: the PMU's domains/ directory
 * @domain_kobjs: the directories in it, one per domain
 * @reads_deferred: reads that found their CPU inside a hold of an engine
 *	lock, or in NMI, and kept the event's last count (nvpc_event_read())
 */
struct nvpc_core {
	struct nvpc_engine eng;
	char bus_id[32];
	u32 boot0;
	struct kref refs;
	struct delayed_work idle_work;
	unsigned int idle_tries;
	bool watching;
	bool module_held;
	struct list_head node;
	int id;
	char name[32];
	unsigned int nr_open;
	bool active_held;
	bool pmu_registered;
	bool pmu_live;
	struct dentry *debugfs;
	u64 snap_seq;
	const struct perf_event *snap_leader;
	u64 snap_clock;
	const struct perf_event *snap_last;
	int cpu;
	struct hlist_node cpuhp_node;
	struct pmu pmu;
	const struct attribute_group *attr_groups[5];
	struct attribute_group events_group;
	struct perf_pmu_events_attr *events_attr_mem;
	struct kobject *domains_kobj;
	struct kobject **domain_kobjs;
	atomic64_t reads_deferred;
};

#define to_nvpc_core(p)	container_of(p, struct nvpc_core, pmu)

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
