// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: perf glue
 *
 * One perf PMU per GPU: "nvpcounter" for the first, "nvpcounter_<n>" for
 * the next ones. System-wide counting only, on one designated CPU that
 * moves when that CPU goes offline::
 *
 *   perf stat -a -e nvpcounter/dom=1,sig0=0xcb/,nvpcounter/dom=1,cycles/
 *   perf stat -a -e nvpcounter/graph_idle/ -I 1000
 *   perf list nvpcounter
 *
 * format/ is printed from the uapi masks (include/uapi/linux/nvpcounter.h);
 * events/ holds a cycles event per domain and the catalogue's named
 * signals, built with the same domain lookup event_init uses.
 */

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/slab.h>

#include "core.h"
#include "slots.h"

static enum cpuhp_state nvpc_cpuhp_state;

struct nvpc_format_attr {
	struct device_attribute attr;
	const char *field;
	u64 mask;
};

static ssize_t nvpc_format_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct nvpc_format_attr *fa =
		container_of(attr, struct nvpc_format_attr, attr);
	int lo = __ffs64(fa->mask), hi = fls64(fa->mask) - 1;

	if (lo == hi)
		return sysfs_emit(buf, "%s:%d\n", fa->field, lo);
	return sysfs_emit(buf, "%s:%d-%d\n", fa->field, lo, hi);
}

#define NVPC_FORMAT(_name, _field, _mask)				\
	(&((struct nvpc_format_attr[]) {{				\
		.attr = __ATTR(_name, 0444, nvpc_format_show, NULL),	\
		.field = _field,					\
		.mask = _mask,						\
	}})[0].attr.attr)

static struct attribute *nvpc_format_attrs[] = {
	NVPC_FORMAT(sig0, "config", NVPC_CFG_SIG0),
	NVPC_FORMAT(sig1, "config", NVPC_CFG_SIG1),
	NVPC_FORMAT(sig2, "config", NVPC_CFG_SIG2),
	NVPC_FORMAT(sig3, "config", NVPC_CFG_SIG3),
	NVPC_FORMAT(op, "config", NVPC_CFG_OP),
	NVPC_FORMAT(opbits, "config", NVPC_CFG_OPBITS),
	NVPC_FORMAT(slot, "config", NVPC_CFG_SLOT),
	NVPC_FORMAT(cycles, "config", NVPC_CFG_CYCLES),
	NVPC_FORMAT(mode, "config", NVPC_CFG_MODE),
	NVPC_FORMAT(record, "config", NVPC_CFG_RECORD),
	NVPC_FORMAT(short, "config", NVPC_CFG_SHORT),
	NVPC_FORMAT(dom, "config1", NVPC_CFG1_DOM),
	NVPC_FORMAT(dset, "config1", NVPC_CFG1_DSET),
	NVPC_FORMAT(unit, "config1", NVPC_CFG1_UNIT),
	NVPC_FORMAT(allunits, "config1", NVPC_CFG1_ALLUNITS),
	NVPC_FORMAT(oneunit, "config1", NVPC_CFG1_ONEUNIT),
	NVPC_FORMAT(period, "config1", NVPC_CFG1_PERIOD),
	NVPC_FORMAT(rsig0, "config1", NVPC_CFG1_RSIG0),
	NVPC_FORMAT(rsig1, "config1", NVPC_CFG1_RSIG1),
	NVPC_FORMAT(rsig2, "config1", NVPC_CFG1_RSIG2),
	NVPC_FORMAT(rsig3, "config1", NVPC_CFG1_RSIG3),
	NVPC_FORMAT(bsig0, "config2", NVPC_CFG2_BSIG0),
	NVPC_FORMAT(bsig1, "config2", NVPC_CFG2_BSIG1),
	NVPC_FORMAT(bsig2, "config2", NVPC_CFG2_BSIG2),
	NVPC_FORMAT(bsig3, "config2", NVPC_CFG2_BSIG3),
	NVPC_FORMAT(bsig4, "config2", NVPC_CFG2_BSIG4),
	NVPC_FORMAT(bsig5, "config2", NVPC_CFG2_BSIG5),
	NVPC_FORMAT(pre, "config2", NVPC_CFG2_PRE),
	NVPC_FORMAT(periods, "config2", NVPC_CFG2_PERIODS),
	NVPC_FORMAT(thr, "config2", NVPC_CFG2_THR),
	NVPC_FORMAT(rsig4, "config2", NVPC_CFG2_RSIG(4)),
	NVPC_FORMAT(rsig5, "config2", NVPC_CFG2_RSIG(5)),
	NVPC_FORMAT(rsig6, "config2", NVPC_CFG2_RSIG(6)),
	NVPC_FORMAT(rsig7, "config2", NVPC_CFG2_RSIG(7)),
	NVPC_FORMAT(rsig8, "config2", NVPC_CFG2_RSIG(8)),
	NVPC_FORMAT(rsig9, "config2", NVPC_CFG2_RSIG(9)),
	NVPC_FORMAT(rsig10, "config2", NVPC_CFG2_RSIG(10)),
	NVPC_FORMAT(rsig11, "config2", NVPC_CFG2_RSIG(11)),
	NULL,
};

static const struct attribute_group nvpc_format_group = {
	.name = "format",
	.attrs = nvpc_format_attrs,
};

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct nvpc_core *core = to_nvpc_core(dev_get_drvdata(dev));

	return cpumap_print_to_pagebuf(true, buf,
				       cpumask_of(READ_ONCE(core->cpu)));
}
static DEVICE_ATTR_RO(cpumask);

static ssize_t identifier_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct nvpc_core *core = to_nvpc_core(dev_get_drvdata(dev));

	return sysfs_emit(buf, "%s %s\n", core->eng.hw.chip->name, core->bus_id);
}
static DEVICE_ATTR_RO(identifier);

/* PMC.BOOT_0 as read at registration: what a first-light report names */
static ssize_t boot0_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct nvpc_core *core = to_nvpc_core(dev_get_drvdata(dev));

	return sysfs_emit(buf, "0x%08x\n", core->boot0);
}
static DEVICE_ATTR_RO(boot0);

/* reads answered with the last count (nvpc_event_read()) */
static ssize_t reads_deferred_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct nvpc_core *core = to_nvpc_core(dev_get_drvdata(dev));

	return sysfs_emit(buf, "%lld\n", atomic64_read(&core->reads_deferred));
}
static DEVICE_ATTR_RO(reads_deferred);

static struct attribute *nvpc_common_attrs[] = {
	&dev_attr_cpumask.attr,
	&dev_attr_identifier.attr,
	&dev_attr_boot0.attr,
	&dev_attr_reads_deferred.attr,
	NULL,
};

static const struct attribute_group nvpc_common_group = {
	.attrs = nvpc_common_attrs,
};

/**
 * struct nvpc_event_kind - what the perf callbacks do with a kind of event
 * @init: event_init past the checks every kind shares: find and claim
 *	what the event counts on (its domain, a unit sum's units)
 * @release: give that back
 * @fit: place the event on group validation's throwaway slot tables;
 *	NULL: it has its domain alone and joins no group
 * @add: pmu::add
 * @del: pmu::del
 * @start: pmu::start
 * @stop: pmu::stop
 * @txn_end: after the outermost perf transaction closed (pmu_enable)
 * @engine_add: a counting kind's add in the engine (-ENOSPC: perf
 *	multiplexes)
 * @engine_del: a counting kind's del (@fold: its last counts are its own)
 * @update: bring a counting event's count up to date (@fold: add what
 *	its counter counted since its last update); NULL: the event counts
 *	as its drain publishes (record)
 *
 * Three kinds: counting (one domain's slot: quad, NV10:NV30's live
 * program or a window input, as its domain's mode has it), unit sum (one
 * slot on each GPC or partition, units.c) and record (record.c: the
 * event claims its domain alone and runs it through these callbacks).
 */
struct nvpc_event_kind {
	int (*init)(struct nvpc_engine *eng, struct perf_event *event);
	void (*release)(struct nvpc_engine *eng, struct perf_event *event);
	int (*fit)(struct nvpc_engine *eng, struct nvpc_slots *fake,
		   struct perf_event *event);
	int (*add)(struct nvpc_engine *eng, struct perf_event *event,
		   int flags);
	void (*del)(struct nvpc_engine *eng, struct perf_event *event,
		    int flags);
	void (*start)(struct nvpc_engine *eng, struct perf_event *event,
		      int flags);
	void (*stop)(struct nvpc_engine *eng, struct perf_event *event,
		     int flags);
	void (*txn_end)(struct nvpc_engine *eng);
	int (*engine_add)(struct nvpc_engine *eng, struct perf_event *event);
	void (*engine_del)(struct nvpc_engine *eng, struct perf_event *event,
			   bool fold);
	void (*update)(struct nvpc_engine *eng, struct perf_event *event,
		       bool fold);
};

static const struct nvpc_event_kind nvpc_kind_count, nvpc_kind_unit_sum,
	nvpc_kind_record;

/* the GPU of an engine */
static struct nvpc_core *nvpc_core_of(struct nvpc_engine *eng)
{
	return container_of(eng, struct nvpc_core, eng);
}

/* the one place an event's kind is told from its attr */
static const struct nvpc_event_kind *nvpc_kind(struct perf_event *event)
{
	if (nvpc_is_record(event))
		return &nvpc_kind_record;
	if (nvpc_is_unit_sum(event))
		return &nvpc_kind_unit_sum;
	return &nvpc_kind_count;
}

static bool nvpc_is_timer(const struct perf_event *event);

/*
 * Which events may share a group with ours (Documentation/perf.rst
 * "Sampling"). perf reads every member of a group, ours among them, at
 * each sample of any member that samples, from where that member's
 * sample is taken. A clock's sample comes from its hrtimer interrupt,
 * which never lands inside an engine lock hold (interrupts are off
 * there) nor in NMI. Any other sampler's may: a tracepoint, kprobe or
 * uprobe fires wherever its code runs (inside our own lock holds
 * included), a breakpoint in the debug exception, a context switch
 * under the runqueue lock, a hardware counter in NMI, a bpf-output
 * event wherever its program runs. So a group with one of our events
 * holds no event that samples but a clock. A sampler that joins the
 * group later (its own event_init, not ours) is caught by add(): the
 * group never schedules, so the sampler never fires.
 */
static int nvpc_group_samplers(struct nvpc_core *core,
			       struct perf_event *ev)
{
	bool bpf_output = ev->attr.type == PERF_TYPE_SOFTWARE &&
			  ev->attr.config == PERF_COUNT_SW_BPF_OUTPUT;

	if (ev->pmu == &core->pmu || nvpc_is_timer(ev) ||
	    (!is_sampling_event(ev) && !bpf_output))
		return 0;
	nvpc_dbg(&core->eng, "a group with a GPU event samples only from cpu-clock or task-clock: a %s event of type %u samples in it\n",
		 bpf_output ? "bpf-output" : "sampling", ev->attr.type);
	return -EINVAL;
}

/* nvpc_group_samplers() over the leader and every sibling of @event's group */
static int nvpc_group_check_samplers(struct nvpc_core *core,
				     struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sib;
	int ret = nvpc_group_samplers(core, leader);

	for_each_sibling_event(sib, leader) {
		if (ret)
			break;
		ret = nvpc_group_samplers(core, sib);
	}
	return ret;
}

/* Place one group member on the throwaway slot tables. */
static int nvpc_validate_member(struct nvpc_core *core,
				struct nvpc_slots *fake,
				struct perf_event *member)
{
	struct nvpc_engine *eng = &core->eng;
	const struct nvpc_event_kind *kind = nvpc_kind(member);

	if (!kind->fit) {
		nvpc_dbg(eng, "a record event has its domain alone: no group\n");
		return -EINVAL;
	}
	if (kind->fit(eng, fake, member) < 0) {
		nvpc_dbg(eng, "group does not fit: more than %d slots, or counter modes that exclude each other, in a domain\n",
			 NVPC_NR_SLOTS);
		return -EINVAL;
	}
	return 0;
}

/*
 * A group must fit the hardware on its own: run the allocator add() uses
 * over a throwaway copy of every domain's slots.
 */
static int nvpc_validate_group(struct nvpc_core *core,
			       struct perf_event *event)
{
	struct nvpc_engine *eng = &core->eng;
	struct perf_event *leader = event->group_leader, *sib;
	struct nvpc_slots *fake;
	int ret = 0;

	/*
	 * An event on its own fits if its config does (checked). perf
	 * holds the leader's context mutex, which the sibling list needs,
	 * only when the event joins a group.
	 */
	if (event == leader)
		return 0;
	if (leader->pmu == event->pmu && !nvpc_kind(leader)->fit) {
		nvpc_dbg(eng, "a record event has its domain alone: no group\n");
		return -EINVAL;
	}
	ret = nvpc_group_check_samplers(core, event);
	if (ret)
		return ret;
	fake = kcalloc(eng->hw.nr_domains, sizeof(*fake), GFP_KERNEL);
	if (!fake)
		return -ENOMEM;
	if (leader->pmu == event->pmu)
		ret = nvpc_validate_member(core, fake, leader);
	for_each_sibling_event(sib, leader) {
		if (ret)
			break;
		if (sib->pmu == event->pmu)
			ret = nvpc_validate_member(core, fake, sib);
	}
	if (!ret)
		ret = nvpc_validate_member(core, fake, event);
	kfree(fake);
	return ret;
}

static void nvpc_event_destroy(struct perf_event *event)
{
	struct nvpc_core *core = to_nvpc_core(event->pmu);

	nvpc_kind(event)->release(&core->eng, event);
	nvpc_core_close(core);
}

/* A counting event: its config, its group, its domain claimed. */
static int nvpc_count_init(struct nvpc_engine *eng, struct perf_event *event)
{
	int ret = nvpc_event_domain(eng, event);

	if (!ret)
		ret = nvpc_engine_check(eng, event->pmu_private, event);
	if (!ret)
		ret = nvpc_validate_group(nvpc_core_of(eng), event);
	if (!ret)
		ret = nvpc_domain_claim(eng, event->pmu_private,
					nvpc_is_window(event) ?
					NVPC_CLAIM_WINDOW : NVPC_CLAIM_COUNT);
	return ret;
}

static void nvpc_count_release(struct nvpc_engine *eng,
			       struct perf_event *event)
{
	nvpc_domain_unclaim(eng, event->pmu_private);
}

static int nvpc_count_fit(struct nvpc_engine *eng, struct nvpc_slots *fake,
			  struct perf_event *event)
{
	unsigned long claimed;

	return nvpc_slot_alloc(eng, fake, event->pmu_private, event,
			       &claimed, 0);
}

/* A unit sum: its units, the group with them, their domains claimed. */
static int nvpc_unit_sum_init(struct nvpc_engine *eng,
			      struct perf_event *event)
{
	int ret;

	ret = nvpc_units_init(eng, event);
	if (!ret)
		ret = nvpc_validate_group(nvpc_core_of(eng), event);
	if (!ret)
		ret = nvpc_units_claim(eng, event);
	if (ret)
		nvpc_units_destroy(eng, event);
	return ret;
}

static int nvpc_event_init(struct perf_event *event)
{
	struct nvpc_core *core = to_nvpc_core(event->pmu);
	struct nvpc_engine *eng = &core->eng;
	int ret;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	/*
	 * perf_pmu_register() (before Linux 6.13) publishes the PMU's type,
	 * and its sysfs directory, before it allocates the PMU's per-CPU
	 * contexts: an open in that window would take a reference on
	 * memory that is not there yet. Not before it returned.
	 */
	if (!smp_load_acquire(&core->pmu_live)) {
		nvpc_dbg(eng, "the PMU is still being registered\n");
		return -ENODEV;
	}
	if (READ_ONCE(eng->gone)) {
		nvpc_dbg(eng, "device is gone\n");
		return -ENODEV;
	}
	/*
	 * a driver emits a sample through perf_event_overflow() or
	 * perf_event_output(), and the kernel exports neither to modules: a
	 * clock leader samples the group instead
	 */
	if (is_sampling_event(event)) {
		nvpc_dbg(eng, "no sample period of its own: sample with a clock leader, perf record -e '{cpu-clock,EVENT}:S'\n");
		return -EOPNOTSUPP;
	}
	if (event->cpu < 0 || (event->attach_state & PERF_ATTACH_TASK)) {
		nvpc_dbg(eng, "per-task counting is not supported (use -a)\n");
		return -EINVAL;
	}
	ret = nvpc_units_check(eng, event);
	if (!ret)
		ret = nvpc_kind(event)->init(eng, event);
	/*
	 * a GPU removed while the event was being set up answers with the
	 * documented ENODEV, whatever refusal its going led to
	 */
	if (ret)
		return READ_ONCE(eng->gone) ? -ENODEV : ret;
	/*
	 * the event's reference on the GPU, unless it is going away; the
	 * first open event keeps it awake (backend's choice)
	 */
	ret = nvpc_core_open(core);
	if (ret) {
		nvpc_kind(event)->release(eng, event);
		return ret;
	}
	/* the designated CPU counts every event of the GPU */
	event->cpu = READ_ONCE(core->cpu);
	event->destroy = nvpc_event_destroy;
	return 0;
}

/* counting kinds: counts while stopped are not the event's */
static void nvpc_count_start(struct nvpc_engine *eng, struct perf_event *event,
			     int flags)
{
	nvpc_kind(event)->update(eng, event, false);
	event->hw.state = 0;
}

static void nvpc_count_stop(struct nvpc_engine *eng, struct perf_event *event,
			    int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	if (flags & PERF_EF_UPDATE)
		nvpc_kind(event)->update(eng, event, true);
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int nvpc_count_add(struct nvpc_engine *eng, struct perf_event *event,
			  int flags)
{
	struct nvpc_core *core = nvpc_core_of(eng);
	int ret;

	/*
	 * the group as it is now, a sampler that joined after event_init
	 * included (nvpc_group_samplers()); and GPU counters are
	 * system-wide: perf refuses a cgroup event of a PMU without a task
	 * context before event_init, this says it where it would matter
	 */
	ret = nvpc_group_check_samplers(core, event);
#ifdef CONFIG_CGROUP_PERF
	if (!ret && event->cgrp) {
		nvpc_dbg(eng, "GPU counters are system-wide: no cgroup events\n");
		ret = -EINVAL;
	}
#endif
	if (!ret)
		ret = nvpc_kind(event)->engine_add(eng, event);
	if (ret)
		return ret;
	event->hw.state = flags & PERF_EF_START ? 0 :
			  PERF_HES_STOPPED | PERF_HES_UPTODATE;
	return 0;
}

static void nvpc_count_del(struct nvpc_engine *eng, struct perf_event *event,
			   int flags)
{
	nvpc_kind(event)->engine_del(eng, event,
				     !(event->hw.state & PERF_HES_STOPPED));
	event->hw.state |= PERF_HES_STOPPED;
}

static void *nvpc_pmu_setup_aux(struct perf_event *event, void **pages,
				int nr_pages, bool overwrite)
{
	return nvpc_record_setup_aux(&to_nvpc_core(event->pmu)->eng, event,
				     pages, nr_pages, overwrite);
}

static const struct nvpc_event_kind nvpc_kind_count = {
	.init = nvpc_count_init,
	.release = nvpc_count_release,
	.fit = nvpc_count_fit,
	.add = nvpc_count_add,
	.del = nvpc_count_del,
	.start = nvpc_count_start,
	.stop = nvpc_count_stop,
	.engine_add = nvpc_engine_add,
	.engine_del = nvpc_engine_del,
	.update = nvpc_engine_update,
};

static const struct nvpc_event_kind nvpc_kind_unit_sum = {
	.init = nvpc_unit_sum_init,
	.release = nvpc_units_destroy,
	.fit = nvpc_units_validate,
	.add = nvpc_count_add,
	.del = nvpc_count_del,
	.start = nvpc_count_start,
	.stop = nvpc_count_stop,
	.engine_add = nvpc_units_add,
	.engine_del = nvpc_units_del,
	.update = nvpc_units_update,
};

static const struct nvpc_event_kind nvpc_kind_record = {
	.init = nvpc_record_init,
	.release = nvpc_record_destroy,
	.add = nvpc_record_add,
	.del = nvpc_record_del,
	.start = nvpc_record_start,
	.stop = nvpc_record_stop,
	.txn_end = nvpc_record_txn_end,
};

static const struct nvpc_event_kind *const nvpc_kinds[] = {
	&nvpc_kind_count, &nvpc_kind_unit_sum, &nvpc_kind_record,
};

static void nvpc_event_start(struct perf_event *event, int flags)
{
	nvpc_kind(event)->start(&to_nvpc_core(event->pmu)->eng, event, flags);
}

static void nvpc_event_stop(struct perf_event *event, int flags)
{
	nvpc_kind(event)->stop(&to_nvpc_core(event->pmu)->eng, event, flags);
}

static int nvpc_event_add(struct perf_event *event, int flags)
{
	return nvpc_kind(event)->add(&to_nvpc_core(event->pmu)->eng, event,
				     flags);
}

static void nvpc_event_del(struct perf_event *event, int flags)
{
	nvpc_kind(event)->del(&to_nvpc_core(event->pmu)->eng, event, flags);
}

/*
 * perf brackets a rotation's dels and adds: program the hardware once.
 * perf holds its context lock, interrupts off, from before pmu_disable to
 * after pmu_enable: the driver cannot turn them on in between, so the
 * whole transaction is one interrupts-off section (perf.rst
 * "Interrupts-off holds"), counted as one by the sim.
 */
static void nvpc_pmu_disable(struct pmu *pmu)
{
	nvpc_irqoff_txn_begin();
	nvpc_engine_txn(&to_nvpc_core(pmu)->eng, true);
}

/* then what a kind left to the transaction's end (record: parked sessions) */
static void nvpc_pmu_enable(struct pmu *pmu)
{
	struct nvpc_engine *eng = &to_nvpc_core(pmu)->eng;
	unsigned int k;

	if (nvpc_engine_txn(eng, false))
		for (k = 0; k < ARRAY_SIZE(nvpc_kinds); k++)
			if (nvpc_kinds[k]->txn_end)
				nvpc_kinds[k]->txn_end(eng);
	nvpc_irqoff_txn_end();
}

/*
 * a software clock: perf's timer for sampling a group that has no timer.
 * Newer kernels (6.12) make cpu-clock and task-clock PMUs of their own
 * ("cpu_clock", "task_clock") and give the event their type in place of
 * PERF_TYPE_SOFTWARE.
 */
static bool nvpc_is_timer(const struct perf_event *event)
{
	const char *name = event->pmu->name;

	if (event->attr.config != PERF_COUNT_SW_CPU_CLOCK &&
	    event->attr.config != PERF_COUNT_SW_TASK_CLOCK)
		return false;
	return event->attr.type == PERF_TYPE_SOFTWARE ||
	       (name && (!strcmp(name, "cpu_clock") ||
			 !strcmp(name, "task_clock")));
}

/*
 * The GPU member before @event in its group's sibling list, or the
 * leader if a GPU event leads and none is, or NULL (perf's sibling list
 * is stable here: a read runs on the events' CPU with interrupts off,
 * where perf changes the list)
 */
static const struct perf_event *nvpc_prev_member(const struct perf_event *event)
{
	const struct perf_event *sib, *prev = NULL;

	if (event->group_leader->pmu == event->pmu)
		prev = event->group_leader;

	list_for_each_entry(sib, &event->group_leader->sibling_list,
			    sibling_list) {
		if (sib == event)
			return prev;
		if (sib->pmu == event->pmu)
			prev = sib;
	}
	return NULL;
}

/*
 * perf stat -e '{nvpcounter/...,nvpcounter/...}' (a GPU event leads) and
 * perf record -e '{cpu-clock,nvpcounter/...}:S': at each sample of the
 * clock leader perf reads the leader, then every member in the order of
 * the group's sibling list, in one interrupt on the GPU's CPU (where
 * every read of its events runs). Members of one domain read in one
 * group read share one sample of it, so that they are one snapshot
 * (Documentation/perf.rst "Sampling"). A read continues the last group
 * read only if it is of the next GPU member of the same group and the
 * leader's count (its clock in ns) has not moved; any other read
 * samples afresh. The clock's count alone does not name a group read:
 * a guest's local_clock() can stand still for most of a tick (an
 * unstable sched_clock is clamped to the tick), and two samples with
 * the same count once shared the first one's snapshot (hotplug_test).
 */
static void nvpc_group_read(struct nvpc_core *core, struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	bool ours = leader->pmu == event->pmu;
	u64 clock;

	/*
	 * A GPU event leading (perf stat's groups, read(2) of
	 * PERF_FORMAT_GROUP): perf reads the leader, then each member in
	 * sibling order, in one call on the PMU's CPU; the leader's read
	 * starts the snapshot its members continue, in that order.
	 */
	if (ours) {
		if (leader == event || core->snap_leader != leader ||
		    !core->snap_last ||
		    nvpc_prev_member(event) != core->snap_last) {
			core->snap_seq++;
			core->snap_leader = leader;
		}
		core->snap_last = event;
		core->eng.snap = core->snap_seq;
		return;
	}
	if (leader == event || !nvpc_is_timer(leader)) {
		core->eng.snap = 0;
		core->snap_last = NULL;
		return;
	}
	clock = local64_read(&leader->count);
	/* @snap_last is compared, never followed: it may be closed since */
	if (core->snap_leader != leader || core->snap_clock != clock ||
	    !core->snap_last || nvpc_prev_member(event) != core->snap_last) {
		core->snap_seq++;
		core->snap_leader = leader;
		core->snap_clock = clock;
	}
	core->snap_last = event;
	core->eng.snap = core->snap_seq;
}

static void nvpc_event_read(struct perf_event *event)
{
	const struct nvpc_event_kind *kind = nvpc_kind(event);
	struct nvpc_core *core = to_nvpc_core(event->pmu);

	/* a record event counts its packets as its drain publishes them */
	if ((event->hw.state & PERF_HES_STOPPED) || !kind->update)
		return;
	/*
	 * Never spin on a lock this CPU may hold: a read from an NMI, or
	 * from a kprobe, tracepoint or BPF program that fired inside an
	 * engine lock hold (nvpc_lock()), keeps the last count. The next
	 * read collects what it left: counts stay cumulative and exact.
	 */
	if (nvpc_lock_nested()) {
		atomic64_inc(&core->reads_deferred);
		return;
	}
	nvpc_group_read(core, event);
	kind->update(&core->eng, event, true);
	core->eng.snap = 0;
}

static void nvpc_events_free(struct nvpc_core *core)
{
	struct attribute **attrs = core->events_group.attrs;
	unsigned int i;

	for (i = 0; attrs && attrs[i]; i++) {
		struct perf_pmu_events_attr *pa = container_of(attrs[i],
			struct perf_pmu_events_attr, attr.attr);

		kfree(pa->attr.attr.name);
		kfree(pa->event_str);
	}
	kfree(core->events_group.attrs);
	kfree(core->events_attr_mem);
	core->events_group.attrs = NULL;
}

static int nvpc_event_attr_add(struct nvpc_core *core, unsigned int *n,
			       const char *name, const char *str)
{
	struct perf_pmu_events_attr *pa = &core->events_attr_mem[*n];

	sysfs_attr_init(&pa->attr.attr);
	pa->attr.attr.name = kstrdup(name, GFP_KERNEL);
	pa->event_str = kstrdup(str, GFP_KERNEL);
	if (!pa->attr.attr.name || !pa->event_str) {
		kfree(pa->attr.attr.name);
		kfree(pa->event_str);
		return -ENOMEM;
	}
	pa->attr.attr.mode = 0444;
	pa->attr.show = perf_event_sysfs_show;
	core->events_group.attrs[(*n)++] = &pa->attr.attr;
	return 0;
}

static const char * const nvpc_dset_prefix[] = {
	[NVPC_DSET_ID_HUB] = "hub_",
	[NVPC_DSET_ID_GPC] = "gpc_",
	[NVPC_DSET_ID_PART] = "part_",
};

/* the named events of GPC and partition domains count every unit */
static const char *nvpc_event_units(struct nvpc_core *core, u8 dset)
{
	return core->eng.hw.gen->unit_sets && dset != NVPC_DSET_ID_HUB ?
	       ",allunits" : "";
}

/*
 * events/: a cycles event per domain (of unit 0, every unit for GF100+
 * GPC and partition domains) and the named signals
 */
static int nvpc_events_build(struct nvpc_core *core)
{
	const struct nvpc_hw *hw = &core->eng.hw;
	const struct nvpc_chip_desc *chip = hw->chip;
	unsigned int nsig = nvpc_catalog_nr_signals(chip);
	unsigned int max = hw->nr_domains + nsig, n = 0, i;
	char name[64], str[96];
	int ret;

	core->events_attr_mem = kcalloc(max, sizeof(*core->events_attr_mem),
					GFP_KERNEL);
	core->events_group.attrs = kcalloc(max + 1, sizeof(struct attribute *),
					   GFP_KERNEL);
	core->events_group.name = "events";
	if (!core->events_attr_mem || !core->events_group.attrs)
		return -ENOMEM;

	for (i = 0; i < hw->nr_domains; i++) {
		const struct nvpc_hw_domain *dom = &hw->domains[i];

		if (dom->unit)
			continue;
		snprintf(name, sizeof(name), "%sd%u_cycles",
			 hw->gen->unit_sets ? nvpc_dset_prefix[dom->dset] : "",
			 dom->index);
		snprintf(str, sizeof(str), "dset=%u,dom=%u,cycles%s", dom->dset,
			 dom->index, nvpc_event_units(core, dom->dset));
		ret = nvpc_event_attr_add(core, &n, name, str);
		if (ret)
			return ret;
	}
	for (i = 0; i < nsig; i++) {
		struct nvpc_signal sig;
		u64 config1;

		if (nvpc_catalog_signal(chip, i, &sig))
			continue;
		config1 = FIELD_PREP(NVPC_CFG1_DSET, nvpc_dset_id_of(sig.dset)) |
			  FIELD_PREP(NVPC_CFG1_DOM, sig.domain);
		/* the same lookup event_init does */
		if (!nvpc_domain_find(&core->eng, config1))
			continue;
		snprintf(str, sizeof(str), "dset=%u,dom=%u,sig0=0x%02x%s",
			 nvpc_dset_id_of(sig.dset), sig.domain, sig.id,
			 nvpc_event_units(core, nvpc_dset_id_of(sig.dset)));
		ret = nvpc_event_attr_add(core, &n, sig.name, str);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The PMU's CPU goes offline (hotplug callbacks run one at a time, and
 * not at all outside the instance's registration, under the hotplug
 * lock). The instance is added before perf_pmu_register() so that no
 * offline is missed: until the PMU is live (no event can exist yet, and
 * on 6.1 its per-CPU contexts are not allocated) only the CPU moves.
 * Then the CPU is written before the events move, so that cpumask and
 * every open from here on name the CPU the events are moving to; an
 * open whose event_init read the old CPU and that perf installs after
 * perf_pmu_migrate_context() stays on the old CPU, a window in the perf
 * core every uncore PMU shares (perf.rst "CPU hotplug").
 */
static int nvpc_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct nvpc_core *core = hlist_entry_safe(node, struct nvpc_core,
						  cpuhp_node);
	unsigned int target;

	if (cpu != core->cpu)
		return 0;
	target = cpumask_any_but(cpu_online_mask, cpu);
	if (target >= nr_cpu_ids)
		return 0;
	WRITE_ONCE(core->cpu, target);
	/* pairs with nvpc_pmu_register()'s store: its contexts exist */
	if (smp_load_acquire(&core->pmu_live))
		perf_pmu_migrate_context(&core->pmu, cpu, target);
	return 0;
}

/**
 * nvpc_pmu_register() - build and register the PMU of a GPU
 * @core: the GPU, its engine initialised
 *
 * Return: 0 or -errno.
 */
int nvpc_pmu_register(struct nvpc_core *core)
{
	int ret;

	core->cpu = raw_smp_processor_id();

	ret = nvpc_events_build(core);
	if (ret)
		goto err_events;

	core->attr_groups[0] = &nvpc_format_group;
	core->attr_groups[1] = &nvpc_common_group;
	core->attr_groups[2] = &core->events_group;
	core->pmu = (struct pmu) {
		.module = THIS_MODULE,
		.task_ctx_nr = perf_invalid_context,
		.capabilities = PERF_PMU_CAP_NO_EXCLUDE,
		.attr_groups = core->attr_groups,
		.pmu_enable = nvpc_pmu_enable,
		.pmu_disable = nvpc_pmu_disable,
		.event_init = nvpc_event_init,
		.add = nvpc_event_add,
		.del = nvpc_event_del,
		.start = nvpc_event_start,
		.stop = nvpc_event_stop,
		.read = nvpc_event_read,
		.setup_aux = nvpc_pmu_setup_aux,
		.free_aux = nvpc_record_free_aux,
	};

	/*
	 * before the PMU registers: an offline of @cpu from here on moves
	 * it (nvpc_cpu_offline())
	 */
	ret = cpuhp_state_add_instance_nocalls(nvpc_cpuhp_state,
					       &core->cpuhp_node);
	if (ret)
		goto err_events;
	/*
	 * and one before it went unseen (the callbacks cannot run under
	 * the read lock; the _cpuslocked add is not exported)
	 */
	cpus_read_lock();
	if (!cpu_online(core->cpu))
		WRITE_ONCE(core->cpu, cpumask_first(cpu_online_mask));
	cpus_read_unlock();
	/*
	 * Not pmu.parent (6.7+): the PMU's directory would go with the
	 * GPU's device at removal, while perf.rst promises it stays until
	 * the last event closes. A "device" link to the GPU instead, on
	 * every kernel, removed with the GPU (nvpc_pmu_detach()).
	 */
	ret = perf_pmu_register(&core->pmu, core->name, -1);
	if (ret)
		goto err_cpuhp;
	ret = sysfs_create_link(&core->pmu.dev->kobj, &core->eng.hw.dev->kobj,
				"device");
	if (ret)
		goto err_pmu;
	ret = nvpc_sysfs_domains_add(core);
	if (ret)
		goto err_link;
	/* pairs with nvpc_event_init(): perf's contexts exist now */
	smp_store_release(&core->pmu_live, true);
	return 0;

err_link:
	sysfs_remove_link(&core->pmu.dev->kobj, "device");
err_pmu:
	/* not live: the callback did not migrate, the instance goes first */
	cpuhp_state_remove_instance_nocalls(nvpc_cpuhp_state,
					    &core->cpuhp_node);
	perf_pmu_unregister(&core->pmu);
	goto err_events;
err_cpuhp:
	cpuhp_state_remove_instance_nocalls(nvpc_cpuhp_state,
					    &core->cpuhp_node);
err_events:
	nvpc_events_free(core);
	return ret;
}

/*
 * The PMU's context on one CPU in perf: struct perf_cpu_pmu_context on
 * 6.2+, struct perf_cpu_context on 6.1 (Kbuild tells which); both hold
 * the multiplexing hrtimer. Busy: it holds an event (6.2+: attached to
 * the CPU's context, set by the first event and cleared by the last
 * put_pmu_ctx(); its refcount is not 0 on a fresh PMU. 6.1: more than
 * the context's own reference).
 */
#ifdef NVPC_HAVE_CPU_PMU_CONTEXT
#define nvpc_pmu_cpu_ctx(pmu, cpu)	per_cpu_ptr((pmu)->cpu_pmu_context, cpu)
#define nvpc_pmu_cpu_ctx_busy(c)	(!!READ_ONCE((c)->epc.ctx))
#else
#define nvpc_pmu_cpu_ctx(pmu, cpu)	per_cpu_ptr((pmu)->pmu_cpu_context, cpu)
#define nvpc_pmu_cpu_ctx_busy(c)	(refcount_read(&(c)->ctx.refcount) > 1)
#endif

/*
 * Works around a perf core defect (6.1 to 6.15 at least): a write of
 * perf_event_mux_interval_ms arms every CPU's mux hrtimer of the PMU's
 * context, event or not, and perf_pmu_unregister() frees the contexts
 * without cancelling them. The upstream fix: free_pmu_context() (6.15+:
 * perf_pmu_free()) should hrtimer_cancel() each CPU's mux timer before
 * free_percpu(). Until then, cancel them here just before
 * perf_pmu_unregister(); a root write between here and its device_del()
 * remains the one window. perf_test
 * mux_interval_write_arms_timers_removal_cancels_them shows both.
 */
static void nvpc_pmu_cancel_mux_timers(struct pmu *pmu)
{
	int cpu;

	for_each_possible_cpu(cpu)
		hrtimer_cancel(&nvpc_pmu_cpu_ctx(pmu, cpu)->hrtimer);
}

/*
 * perf before Linux 6.15 cannot unregister a PMU that events still use,
 * and _free_event() drops an event's reference on the PMU's per-CPU
 * context (6.1: its perf_cpu_context; 6.2+: the embedded
 * perf_event_pmu_context) after ->destroy(), which dropped our last core
 * reference: perf_pmu_unregister() would free that memory under it.
 * And a group leader of another PMU (a cpu-clock) that perf moved into
 * our context keeps it busy after our members closed, while perf still
 * calls our PMU's callbacks for it. Wait until no CPU's context is busy.
 */
/* until then (ktime ns) the PMUs' contexts read busy (a test hook) */
u64 nvpc_pmu_hold_until_ns;

static bool nvpc_pmu_contexts_idle(struct pmu *pmu)
{
	int cpu;

	/* the test hook of debugfs release_hold_ms: perf "holds" them */
	if (ktime_get_ns() < READ_ONCE(nvpc_pmu_hold_until_ns))
		return false;
	for_each_possible_cpu(cpu)
		if (nvpc_pmu_cpu_ctx_busy(nvpc_pmu_cpu_ctx(pmu, cpu)))
			return false;
	return true;
}

/**
 * nvpc_pmu_wait_idle() - wait, a bounded time, for perf to be done with
 *	the PMU's per-CPU contexts after the GPU's last event
 * @core: the GPU, no event left
 * @ms: the bound
 *
 * The last event's _free_event() is a few instructions from done when
 * this is first called, so the wait is normally a single check. A
 * context still busy after @ms holds an event of another PMU: the
 * caller keeps the PMU and the module and asks again later (device.c,
 * nvpc_core_idle_work(); @ms 0: a single check).
 *
 * Context: process context; sleeps.
 * Return: true when no CPU's context is busy, false after @ms.
 */
bool nvpc_pmu_wait_idle(struct nvpc_core *core, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	if (!ms)
		return nvpc_pmu_contexts_idle(&core->pmu);
	while (!nvpc_pmu_contexts_idle(&core->pmu)) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(1000, 2000);
	}
	return true;
}

/**
 * nvpc_pmu_detach() - the GPU's device goes away: drop the PMU's link to it
 * @core: the GPU; its PMU stays while events hold it
 */
void nvpc_pmu_detach(struct nvpc_core *core)
{
	sysfs_remove_link(&core->pmu.dev->kobj, "device");
}

/**
 * nvpc_pmu_unregister() - take the PMU of a GPU away
 * @core: the GPU, no event left, its contexts idle (nvpc_pmu_wait_idle())
 */
void nvpc_pmu_unregister(struct nvpc_core *core)
{
	nvpc_sysfs_domains_remove(core);
	/*
	 * The hotplug instance goes first (upstream PMUs unregister first):
	 * an offline after perf_pmu_unregister() would migrate in contexts
	 * it freed (6.1: per_cpu_ptr(pmu->pmu_cpu_context)). This waits for
	 * a hotplug in progress; none calls us after it. No event is left
	 * to move, and the GPU is gone (opens fail), whatever CPU cpumask
	 * names from here on.
	 */
	cpuhp_state_remove_instance_nocalls(nvpc_cpuhp_state,
					    &core->cpuhp_node);
	nvpc_pmu_cancel_mux_timers(&core->pmu);
	/*
	 * its synchronize_rcu() also outlasts the rest of the last event's
	 * _free_event() after the context was put (a few loads; the struct
	 * pmu itself lives on in the graveyard, device.c)
	 */
	perf_pmu_unregister(&core->pmu);
	nvpc_events_free(core);
}

/**
 * nvpc_pmu_module_init() - set up CPU hotplug handling for all PMUs
 *
 * Return: 0 or -errno.
 */
int nvpc_pmu_module_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN,
				      "perf/nvpcounter:online", NULL,
				      nvpc_cpu_offline);
	if (ret < 0)
		return ret;
	nvpc_cpuhp_state = ret;
	return 0;
}

/**
 * nvpc_pmu_module_exit() - undo nvpc_pmu_module_init()
 */
void nvpc_pmu_module_exit(void)
{
	cpuhp_remove_multi_state(nvpc_cpuhp_state);
}
