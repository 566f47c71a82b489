// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: domains/ in sysfs
 *
 * Each PMU directory has a domains/ directory with one directory per
 * counter domain, named by its place (main.1, hub.0, gpc1.2, part0.0 ...:
 * the same names as in the log and the sim's debugfs; the clock's name is
 * the clock attribute), each with read-only attributes
 * (Documentation/ABI/testing/sysfs-bus-event_source-devices-nvpcounter)::
 *
 *   cat /sys/bus/event_source/devices/nvpcounter/domains/main.1/status
 *   grep . /sys/bus/event_source/devices/nvpcounter/domains/ * /lost_periods
 *
 * Hardware state (mode, states, the live signal bitmap) is read from the
 * registers under the engine lock; once the device is gone those read
 * ENODEV while the engine's counters keep their last values.
 *
 * Who may read the hardware: what the GPU is doing now is what this
 * PMU's events show, so those files answer only a reader perf would let
 * open one, and the driver touches registers with interrupts off only for
 * them. perf asks CAP_PERFMON (or CAP_SYS_ADMIN) of a CPU-wide event at
 * perf_event_paranoid > 0; a module cannot read that sysctl
 * (sysctl_perf_event_paranoid is not exported), so these files ask it at
 * every level: EACCES otherwise. The driver's own statistics and
 * bookkeeping (counters, slots, record_state, clocks) stay world-readable.
 */

#include <linux/capability.h>
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include <nvpcounter/regs.h>

#include "core.h"
#include "slots.h"

/**
 * struct nvpc_domain_kobj - the sysfs directory of one domain
 * @kobj: the directory
 * @eng: the GPU's engine
 * @dom: the domain
 */
struct nvpc_domain_kobj {
	struct kobject kobj;
	struct nvpc_engine *eng;
	struct nvpc_domain *dom;
};

#define to_nvpc_dk(k) container_of(k, struct nvpc_domain_kobj, kobj)

static const char * const nvpc_mode_names[] = {
	[NVPC_DOM_MODE_HALTED] = "halted",
	[NVPC_DOM_MODE_SINGLE] = "single",
	[NVPC_DOM_MODE_QUAD] = "quad",
	[NVPC_DOM_MODE_RECORD] = "record",
};

static const char * const nvpc_single_names[] = {
	[NVPC_SINGLE_INACTIVE] = "inactive",
	[NVPC_SINGLE_WAIT_PRE] = "wait_pre",
	[NVPC_SINGLE_WAIT_START] = "wait_start",
	[NVPC_SINGLE_COUNTING] = "counting",
};

static const char * const nvpc_quad_names[] = {
	[NVPC_QUAD_EMPTY] = "empty",
	[NVPC_QUAD_VALID] = "valid",
	[2] = "unknown",
	[NVPC_QUAD_OVERFLOW] = "overflow",
};

static const char * const nvpc_ctr_mode_names[] = {
	[NVPC_MODE_SIMPLE] = "simple",
	[NVPC_MODE_EVENT_B4] = "event_b4",
	[NVPC_MODE_EVENT_B6] = "event_b6",
	[NVPC_MODE_EXTRA_B4] = "extra_b4",
	[NVPC_MODE_EXTRA_B6] = "extra_b6",
};

static const char * const nvpc_slot_names[NVPC_NR_SLOTS] = {
	[NVPC_SLOT_PRE] = "pre",
	[NVPC_SLOT_START] = "start",
	[NVPC_SLOT_EVENT] = "event",
	[NVPC_SLOT_STOP] = "stop",
};

/* Read the hardware state of a domain; -ENODEV once the device is gone. */
static int nvpc_domain_hw(struct nvpc_domain_kobj *dk,
			  struct nvpc_domain_state *st, u32 *status)
{
	struct nvpc_engine *eng = dk->eng;
	unsigned long flags;
	int ret = 0;

	if (!perfmon_capable()) {
		nvpc_dbg(eng, "domains/%s: the hardware's state is for CAP_PERFMON\n",
			 dk->dom->hw->name);
		return -EACCES;
	}
	nvpc_lock(eng, flags);
	if (READ_ONCE(eng->gone))
		ret = -ENODEV;
	else if (st)
		eng->hw.gen->state(&eng->hw, dk->dom->hw, st);
	else
		nvpc_gen_read_status(&eng->hw, dk->dom->hw, status);
	nvpc_unlock(eng, flags);
	return ret;
}

/* NVPC_DOM_SHOW(): a read-only attribute printing one value of the domain */
#define NVPC_DOM_SHOW(_name, _fmt, _val)				\
static ssize_t _name##_show(struct kobject *kobj,			\
			    struct kobj_attribute *attr, char *buf)	\
{									\
	const struct nvpc_domain *dom = to_nvpc_dk(kobj)->dom;		\
									\
	return sysfs_emit(buf, _fmt "\n", _val);			\
}									\
static struct kobj_attribute nvpc_dom_attr_##_name = __ATTR_RO(_name)

NVPC_DOM_SHOW(clock, "%s", dom->hw->desc->clock);
NVPC_DOM_SHOW(clock_hz, "%llu", READ_ONCE(dom->clock_hz));
NVPC_DOM_SHOW(nominal_hz, "%u", dom->hw->desc->clock_hz);
NVPC_DOM_SHOW(signals, "%u", dom->hw->desc->nr_signals);
NVPC_DOM_SHOW(trailer_base, "0x%02x", dom->hw->desc->trailer_base);

/*
 * The id of the domain's ZERO trailer signal (NV40:GF100, 0 by
 * definition), "none" where the documents name no constant signal: the
 * STATUS bit a first-light check compares with a count.
 */
static ssize_t zero_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	const struct nvpc_domain_kobj *dk = to_nvpc_dk(kobj);
	int id = nvpc_catalog_trailer_id(dk->eng->hw.chip,
					 dk->dom->hw->desc, NVPC_TRAILER_ZERO, 0);

	if (id < 0)
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "0x%02x\n", id);
}

static struct kobj_attribute nvpc_dom_attr_zero = __ATTR_RO(zero);

/* a field of the domain's CTRL (struct nvpc_domain_state), by name */
struct nvpc_dom_state_attr {
	struct kobj_attribute attr;
	size_t offset;
	const char * const *names;
	unsigned int nr_names;
};

static ssize_t nvpc_dom_state_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	struct nvpc_dom_state_attr *sa =
		container_of(attr, struct nvpc_dom_state_attr, attr);
	struct nvpc_domain_state st;
	int ret = nvpc_domain_hw(to_nvpc_dk(kobj), &st, NULL);
	u8 v;

	if (ret)
		return ret;
	v = *((u8 *)&st + sa->offset);
	if (v >= sa->nr_names)
		return sysfs_emit(buf, "%u\n", v);
	return sysfs_emit(buf, "%s\n", sa->names[v]);
}

static struct nvpc_dom_state_attr nvpc_dom_states[] = {
	{ __ATTR(mode, 0444, nvpc_dom_state_show, NULL),
	  offsetof(struct nvpc_domain_state, mode),
	  nvpc_mode_names, ARRAY_SIZE(nvpc_mode_names) },
	{ __ATTR(ctr_mode, 0444, nvpc_dom_state_show, NULL),
	  offsetof(struct nvpc_domain_state, ctr_mode),
	  nvpc_ctr_mode_names, ARRAY_SIZE(nvpc_ctr_mode_names) },
	{ __ATTR(single_state, 0444, nvpc_dom_state_show, NULL),
	  offsetof(struct nvpc_domain_state, single),
	  nvpc_single_names, ARRAY_SIZE(nvpc_single_names) },
	{ __ATTR(quad_state, 0444, nvpc_dom_state_show, NULL),
	  offsetof(struct nvpc_domain_state, quad),
	  nvpc_quad_names, ARRAY_SIZE(nvpc_quad_names) },
};

/*
 * "pre=free start=simple event=event_b4+sum stop=free cycles=1": the
 * counter mode of the event on each slot, "+sum" for a unit of a unit sum
 */
static ssize_t slots_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	struct nvpc_domain_kobj *dk = to_nvpc_dk(kobj);
	struct nvpc_engine *eng = dk->eng;
	struct nvpc_domain *dom = dk->dom;
	const char *use[NVPC_NR_SLOTS];
	bool unit[NVPC_NR_SLOTS] = { 0 };
	unsigned int s, cycles;
	unsigned long flags;
	int len = 0;

	nvpc_lock(eng, flags);
	for (s = 0; s < NVPC_NR_SLOTS; s++) {
		struct perf_event *ev = dom->slots->ev[s];

		/* NV10:NV30 count on EVENT only, a window on all four */
		if (ev && nvpc_is_window(ev))
			use[s] = nvpc_window_use(ev);
		else if (!(eng->hw.gen->slots & BIT(s)) &&
			 !nvpc_domain_claimed(dom, &nvpc_mode_window))
			use[s] = "none";
		else if (!ev)
			use[s] = "free";
		else
			use[s] = nvpc_ctr_mode_names[FIELD_GET(NVPC_CFG_MODE,
							       ev->attr.config)];
		unit[s] = ev && (ev->hw.flags & NVPC_HW_UNIT);
	}
	cycles = dom->nr_cycles;
	nvpc_unlock(eng, flags);
	for (s = 0; s < NVPC_NR_SLOTS; s++)
		len += sysfs_emit_at(buf, len, "%s=%s%s ", nvpc_slot_names[s],
				     use[s], unit[s] ? "+sum" : "");
	len += sysfs_emit_at(buf, len, "cycles=%u\n", cycles);
	return len;
}

/* the engine's loss and sample counters, one u64 of the domain each */
struct nvpc_dom_counter_attr {
	struct kobj_attribute attr;
	size_t offset;
};

static ssize_t nvpc_dom_counter_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	struct nvpc_dom_counter_attr *ca =
		container_of(attr, struct nvpc_dom_counter_attr, attr);
	u64 *v = (void *)to_nvpc_dk(kobj)->dom + ca->offset;

	return sysfs_emit(buf, "%llu\n", READ_ONCE(*v));
}

/* a read-only u64 count of the domain, sysfs @_name: @_field */
#define NVPC_DOM_COUNTER(_name, _field)					\
	{ __ATTR(_name, 0444, nvpc_dom_counter_show, NULL),		\
	  offsetof(struct nvpc_domain, _field) }

static struct nvpc_dom_counter_attr nvpc_dom_counters[] = {
	NVPC_DOM_COUNTER(lost_periods, stats.lost_periods),
	NVPC_DOM_COUNTER(saturations, stats.saturations),
	NVPC_DOM_COUNTER(stragglers, stats.stragglers),
	NVPC_DOM_COUNTER(not_responding, stats.not_responding),
	NVPC_DOM_COUNTER(samples, stats.samples),
	NVPC_DOM_COUNTER(record_packets, stats.record_packets),
	NVPC_DOM_COUNTER(record_gaps, stats.record_gaps),
	NVPC_DOM_COUNTER(record_stalls, stats.record_stalls),
	NVPC_DOM_COUNTER(record_faults, stats.record_faults),
	NVPC_DOM_COUNTER(record_drains, stats.record_drains),
	NVPC_DOM_COUNTER(record_drain_ns, stats.record_drain_ns),
	NVPC_DOM_COUNTER(single_restarts, stats.single_restarts),
	NVPC_DOM_COUNTER(window_cuts, stats.window_cuts),
};

/* idle, recording, stalled (the consumer fell behind), faulted or gone */
static ssize_t record_state_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  nvpc_record_state_name(to_nvpc_dk(kobj)->dom));
}

/*
 * The live state of all 256 signals from the STATUS registers: eight
 * 32-bit words in hex, signals 0-31 first, bit n of a word = signal
 * 32 * word + n (pcounter.rst, The STATUS registers).
 */
static ssize_t status_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	u32 st[NVPC_NR_STATUS];
	int ret = nvpc_domain_hw(to_nvpc_dk(kobj), NULL, st);

	if (ret)
		return ret;
	return sysfs_emit(buf, "%08x %08x %08x %08x %08x %08x %08x %08x\n",
			  st[0], st[1], st[2], st[3], st[4], st[5], st[6],
			  st[7]);
}

/* the largest AUX area a record event of the domain maps, in bytes */
static ssize_t record_aux_max_show(struct kobject *kobj,
				   struct kobj_attribute *attr, char *buf)
{
	struct nvpc_domain_kobj *dk = to_nvpc_dk(kobj);

	return sysfs_emit(buf, "%llu\n", nvpc_record_aux_max(dk->eng, dk->dom));
}

static struct kobj_attribute nvpc_dom_attr_slots = __ATTR_RO(slots);
static struct kobj_attribute nvpc_dom_attr_status = __ATTR_RO(status);
static struct kobj_attribute nvpc_dom_attr_record_state =
	__ATTR_RO(record_state);
static struct kobj_attribute nvpc_dom_attr_record_aux_max =
	__ATTR_RO(record_aux_max);

static struct attribute *nvpc_domain_attrs[] = {
	&nvpc_dom_attr_clock.attr,
	&nvpc_dom_attr_clock_hz.attr,
	&nvpc_dom_attr_nominal_hz.attr,
	&nvpc_dom_attr_signals.attr,
	&nvpc_dom_attr_trailer_base.attr,
	&nvpc_dom_attr_zero.attr,
	&nvpc_dom_states[0].attr.attr,
	&nvpc_dom_states[1].attr.attr,
	&nvpc_dom_states[2].attr.attr,
	&nvpc_dom_states[3].attr.attr,
	&nvpc_dom_attr_slots.attr,
	&nvpc_dom_counters[0].attr.attr,
	&nvpc_dom_counters[1].attr.attr,
	&nvpc_dom_counters[2].attr.attr,
	&nvpc_dom_counters[3].attr.attr,
	&nvpc_dom_counters[4].attr.attr,
	&nvpc_dom_counters[5].attr.attr,
	&nvpc_dom_counters[6].attr.attr,
	&nvpc_dom_counters[7].attr.attr,
	&nvpc_dom_counters[8].attr.attr,
	&nvpc_dom_counters[9].attr.attr,
	&nvpc_dom_counters[10].attr.attr,
	&nvpc_dom_counters[11].attr.attr,
	&nvpc_dom_counters[12].attr.attr,
	&nvpc_dom_attr_record_state.attr,
	&nvpc_dom_attr_record_aux_max.attr,
	&nvpc_dom_attr_status.attr,
	NULL,
};
ATTRIBUTE_GROUPS(nvpc_domain);
/* every counter above is listed in nvpc_domain_attrs */
static_assert(ARRAY_SIZE(nvpc_dom_counters) == 13);

static void nvpc_domain_kobj_release(struct kobject *kobj)
{
	kfree(to_nvpc_dk(kobj));
}

static const struct kobj_type nvpc_domain_ktype = {
	.release = nvpc_domain_kobj_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = nvpc_domain_groups,
};

/**
 * nvpc_sysfs_domains_add() - create domains/ under the PMU's directory
 * @core: the GPU, its PMU registered
 *
 * Return: 0 or -errno.
 */
int nvpc_sysfs_domains_add(struct nvpc_core *core)
{
	unsigned int i;
	int ret;

	core->domains_kobj = kobject_create_and_add("domains",
						    &core->pmu.dev->kobj);
	if (!core->domains_kobj)
		return -ENOMEM;
	core->domain_kobjs = kcalloc(core->eng.hw.nr_domains,
				     sizeof(*core->domain_kobjs), GFP_KERNEL);
	if (!core->domain_kobjs) {
		ret = -ENOMEM;
		goto err;
	}
	for (i = 0; i < core->eng.hw.nr_domains; i++) {
		struct nvpc_domain *dom = &core->eng.domains[i];
		struct nvpc_domain_kobj *dk;

		dk = kzalloc(sizeof(*dk), GFP_KERNEL);
		if (!dk) {
			ret = -ENOMEM;
			goto err;
		}
		dk->eng = &core->eng;
		dk->dom = dom;
		ret = kobject_init_and_add(&dk->kobj, &nvpc_domain_ktype,
					   core->domains_kobj, "%s",
					   dom->hw->name);
		core->domain_kobjs[i] = &dk->kobj;
		if (ret)
			goto err;
	}
	return 0;
err:
	nvpc_sysfs_domains_remove(core);
	return ret;
}

/**
 * nvpc_sysfs_domains_remove() - remove domains/ (waits for readers)
 * @core: the GPU
 */
void nvpc_sysfs_domains_remove(struct nvpc_core *core)
{
	unsigned int i;

	for (i = 0; core->domain_kobjs && i < core->eng.hw.nr_domains; i++)
		if (core->domain_kobjs[i])
			kobject_put(core->domain_kobjs[i]);
	kfree(core->domain_kobjs);
	core->domain_kobjs = NULL;
	kobject_put(core->domains_kobj);
	core->domains_kobj = NULL;
}
