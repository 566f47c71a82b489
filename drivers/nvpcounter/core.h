/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvpcounter core internals shared by the registry, the perf glue, the
 * domain engine and the generation ops.
 */
#ifndef _NVPC_CORE_H
#define _NVPC_CORE_H

#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/workqueue.h>
#include <linux/perf_event.h>
#include <linux/spinlock.h>

#include <nvpcounter/catalog.h>
#include <nvpcounter/device.h>
#include <uapi/linux/nvpcounter.h>

/* dev_dbg() on the GPU's device: every rejection names its reason */
#define nvpc_dbg(core, fmt, ...) \
	dev_dbg((core)->dev, fmt, ##__VA_ARGS__)

/* the counters read per domain: the four slots and CTR_CYCLES */
#define NVPC_CTR_CYCLES		NVPC_NR_SLOTS
#define NVPC_NR_CTRS		(NVPC_NR_SLOTS + 1)

extern struct dentry *nvpc_debugfs_root;
struct nvpc_core;

/**
 * struct nvpc_domain - one counter domain as the engine runs it
 * @desc: the catalogue's description
 * @dset: NVPC_DSET_ID_* of the domain's set
 * @unit: GPC or partition number (0 for hub/main domains)
 * @index: domain index inside its set
 * @base: GF100+: MMIO base of the domain's registers
 * @src: shadow of the four _SRC registers
 * @op: shadow of the four _OP registers
 * @slot: the event counting on each slot, or NULL
 * @nr_cycles: events counting this domain's cycles
 * @acc: 64-bit accumulated counts of the four slots and CTR_CYCLES
 * @lost_periods: swaps seen in OVERFLOW state: counts lost for a period
 * @saturations: readings of a counter at its saturation value
 * @not_responding: swaps that never showed up in QUAD_STATE
 * @running: the domain is in quad mode
 */
struct nvpc_domain {
	const struct nvpc_domain_desc *desc;
	u8 dset;
	u8 unit;
	u8 index;
	u32 base;
	u32 src[NVPC_NR_SLOTS];
	u32 op[NVPC_NR_SLOTS];
	struct perf_event *slot[NVPC_NR_SLOTS];
	unsigned int nr_cycles;
	u64 acc[NVPC_NR_CTRS];
	u64 lost_periods;
	u64 saturations;
	u64 not_responding;
	bool running;
};

/**
 * struct nvpc_gen_ops - what differs between hardware generations
 * @name: generation name
 * @opbits: the _OP bits 16-20 this generation implements, per slot
 * @setup: per-domain set-up at registration (e.g. GF100 base address)
 * @start: put a domain in quad mode and clear its state
 * @stop: take a domain out of quad mode
 * @program: write a slot's _SRC and _OP registers from the shadows
 * @trigger_swap: make the domain's counters visible (may swap every domain if
 *	@global_swap)
 * @read: read the four slot counters and CTR_CYCLES; returns QUAD_STATE
 * @ack: acknowledge one counter set
 * @global_swap: one swap trigger serves every domain (PGRAPH PM_TRIGGER)
 */
struct nvpc_gen_ops {
	const char *name;
	u32 opbits[NVPC_NR_SLOTS];
	void (*setup)(struct nvpc_core *core, struct nvpc_domain *dom);
	void (*start)(struct nvpc_core *core, struct nvpc_domain *dom);
	void (*stop)(struct nvpc_core *core, struct nvpc_domain *dom);
	void (*program)(struct nvpc_core *core, struct nvpc_domain *dom,
			unsigned int slot);
	void (*trigger_swap)(struct nvpc_core *core, struct nvpc_domain *dom);
	u32 (*read)(struct nvpc_core *core, struct nvpc_domain *dom,
		    u32 ctr[NVPC_NR_CTRS]);
	void (*ack)(struct nvpc_core *core, struct nvpc_domain *dom);
	bool global_swap;
};

extern const struct nvpc_gen_ops nvpc_gen_nv40;
extern const struct nvpc_gen_ops nvpc_gen_g84;
extern const struct nvpc_gen_ops nvpc_gen_g92;
extern const struct nvpc_gen_ops nvpc_gen_gf100;

/**
 * struct nvpc_core - the core's state for one registered GPU
 * @ndev: the backend's device; not touched once @gone is set
 * @dev: reference on the backend's struct device, for dev_dbg() while
 *	events outlive @ndev
 * @chip: the chip (catalogue data, lives as long as the module)
 * @bus_id: copy of &nvpc_device.bus_id
 * @refs: the registry's reference plus one per open event
 * @release_work: unregisters the PMU and frees everything after the last
 *	reference, outside perf's event teardown
 * @node: entry in the registry list
 * @id: registry index: PMU "nvpcounter" for 0, "nvpcounter_<id>" otherwise
 * @name: the PMU name
 * @gone: set once the hardware vanished or was unregistered: no more
 *	register access, no new events
 * @pmu_registered: nvpc_pmu_register() succeeded (undone at release)
 * @debugfs: the device's debugfs directory
 * @gen: the generation's ops, NULL if counting is not supported
 * @lock: serialises the engine and the register sequences; @gone is set
 *	under it when the device is unregistered
 * @domains: every domain of the GPU
 * @nr_domains: entries in @domains
 * @nr_active: events added (counting) on the GPU
 * @timer: poll timer, runs while @nr_active > 0
 * @poll_ns: poll period
 * @cpu: the CPU events are counted on
 * @cpuhp_node: CPU hotplug instance
 * @pmu: the perf PMU
 * @attr_groups: the PMU's sysfs attribute groups
 * @events_group: the events/ group, built per chip
 * @events_attr_mem: storage of the events/ attributes
 */
struct nvpc_core {
	struct nvpc_device *ndev;
	struct device *dev;
	const struct nvpc_chip_desc *chip;
	char bus_id[32];
	struct kref refs;
	struct work_struct release_work;
	struct list_head node;
	int id;
	char name[32];
	bool gone;
	bool pmu_registered;
	struct dentry *debugfs;
	const struct nvpc_gen_ops *gen;
	raw_spinlock_t lock;
	struct nvpc_domain *domains;
	unsigned int nr_domains;
	unsigned int nr_active;
	struct hrtimer timer;
	u64 poll_ns;
	int cpu;
	struct hlist_node cpuhp_node;
	struct pmu pmu;
	const struct attribute_group *attr_groups[5];
	struct attribute_group events_group;
	struct perf_pmu_events_attr *events_attr_mem;
};

int nvpc_registry_init(void);
void nvpc_registry_exit(void);
u8 nvpc_dset_id_of(enum nvpc_dset dset);

int nvpc_engine_init(struct nvpc_core *core);
void nvpc_engine_fini(struct nvpc_core *core);
struct nvpc_domain *nvpc_domain_find(struct nvpc_core *core, u64 config1);
int nvpc_engine_check(struct nvpc_core *core, struct nvpc_domain *dom,
		      u64 config);
int nvpc_slot_alloc(struct nvpc_domain *dom, struct perf_event **slots,
		    u64 config);
int nvpc_engine_add(struct nvpc_core *core, struct perf_event *event);
void nvpc_engine_del(struct nvpc_core *core, struct perf_event *event,
		     bool fold);
void nvpc_engine_update(struct nvpc_core *core, struct perf_event *event,
			bool fold);

void nvpc_core_put(struct nvpc_core *core);
int nvpc_pmu_module_init(void);
void nvpc_pmu_module_exit(void);
int nvpc_pmu_register(struct nvpc_core *core);
void nvpc_pmu_unregister(struct nvpc_core *core);

#endif /* _NVPC_CORE_H */
