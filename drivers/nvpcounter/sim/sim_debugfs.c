// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter_sim: the debugfs files of one simulated GPU,
 * /sys/kernel/debug/nvpcounter_sim/gpu<id>/. Formats and errors are the
 * ones Documentation/sim.rst gives; keep the two in step.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include <nvpcounter/catalog.h>

#include "sim.h"

#define NVPC_SIMDEV_CMD_MAX	128
#define NVPC_SIMDEV_MAX_ARGS	8
/* cycles per lock hold when counting ground truth */
#define NVPC_SIMDEV_TRUTH_CHUNK	BIT_ULL(16)

typedef int (*nvpc_simdev_cmd_t)(struct nvpc_simdev *sd, int argc,
				 char **argv);

#define nvpc_simdev_dbg(sd, fmt, ...) \
	dev_dbg(&(sd)->pdev->dev, fmt, ##__VA_ARGS__)

/* Split a command line into words; -EINVAL for too many. */
static int nvpc_simdev_split(char *buf, char **argv)
{
	char *w;
	int argc = 0;

	while ((w = strsep(&buf, " \t\n"))) {
		if (!*w)
			continue;
		if (argc == NVPC_SIMDEV_MAX_ARGS)
			return -EINVAL;
		argv[argc++] = w;
	}
	return argc;
}

/* One command per write(); the whole command in one buffer. */
static ssize_t nvpc_simdev_write(struct file *file, const char __user *ubuf,
				 size_t len, nvpc_simdev_cmd_t fn)
{
	struct seq_file *m = file->private_data;
	struct nvpc_simdev *sd = m->private;
	char buf[NVPC_SIMDEV_CMD_MAX], *argv[NVPC_SIMDEV_MAX_ARGS];
	int argc, ret;

	if (!len || len >= sizeof(buf)) {
		nvpc_simdev_dbg(sd, "command of %zu bytes\n", len);
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	argc = nvpc_simdev_split(buf, argv);
	if (argc <= 0) {
		nvpc_simdev_dbg(sd, "empty or overlong command\n");
		return -EINVAL;
	}
	mutex_lock(&sd->ctl);
	ret = fn(sd, argc, argv);
	mutex_unlock(&sd->ctl);
	return ret ? ret : len;
}

static int nvpc_simdev_u64(struct nvpc_simdev *sd, const char *s, u64 *v)
{
	if (kstrtou64(s, 0, v)) {
		nvpc_simdev_dbg(sd, "not a number: \"%s\"\n", s);
		return -EINVAL;
	}
	return 0;
}

static int nvpc_simdev_u32(struct nvpc_simdev *sd, const char *s, u32 *v)
{
	if (kstrtou32(s, 0, v)) {
		nvpc_simdev_dbg(sd, "not a 32-bit number: \"%s\"\n", s);
		return -EINVAL;
	}
	return 0;
}

/* a count, size or rate where 0 means nothing: refused as @what */
static int nvpc_simdev_u32_nz(struct nvpc_simdev *sd, const char *s, u32 *v,
			      const char *what)
{
	if (nvpc_simdev_u32(sd, s, v))
		return -EINVAL;
	if (!*v) {
		nvpc_simdev_dbg(sd, "%s of 0\n", what);
		return -EINVAL;
	}
	return 0;
}

static int nvpc_simdev_dom(struct nvpc_simdev *sd, const char *s,
			   unsigned int *dom)
{
	int d = nvpc_simdev_dom_parse(sd, s);

	if (d < 0) {
		nvpc_simdev_dbg(sd, "no domain \"%s\"\n", s);
		return -EINVAL;
	}
	*dom = d;
	return 0;
}

/* A signal id of the domain: below the catalogue's signal count. */
static int nvpc_simdev_sig(struct nvpc_simdev *sd, unsigned int dom,
			   const char *s, unsigned int *sig)
{
	u32 v;

	if (nvpc_simdev_u32(sd, s, &v))
		return -EINVAL;
	if (v >= sd->mdoms[sd->doms[dom].desc].nr_signals) {
		nvpc_simdev_dbg(sd, "signal %#x beyond domain %u's %u\n", v,
				dom, sd->mdoms[sd->doms[dom].desc].nr_signals);
		return -EINVAL;
	}
	*sig = v;
	return 0;
}

static u32 nvpc_simdev_read_reg(struct nvpc_simdev *sd, u32 addr)
{
	return sd->ndev.ops->rd32(sd, addr);
}

/*
 * Files are seq_files; DEFINE_NVPC_SIMDEV_FILE(x) makes nvpc_simdev_x_fops
 * from nvpc_simdev_x_show() and, if not NULL, nvpc_simdev_x_cmd().
 */
#define DEFINE_NVPC_SIMDEV_FILE(x, cmd)					\
static int nvpc_simdev_##x##_open(struct inode *inode, struct file *file) \
{									\
	return single_open(file, nvpc_simdev_##x##_show, inode->i_private); \
}									\
static ssize_t nvpc_simdev_##x##_write(struct file *file,		\
				       const char __user *ubuf,		\
				       size_t len, loff_t *ppos)	\
{									\
	nvpc_simdev_cmd_t fn = cmd;					\
									\
	if (!fn)							\
		return -EINVAL;						\
	return nvpc_simdev_write(file, ubuf, len, fn);			\
}									\
static const struct file_operations nvpc_simdev_##x##_fops = {		\
	.owner = THIS_MODULE,						\
	.open = nvpc_simdev_##x##_open,					\
	.read = seq_read,						\
	.write = nvpc_simdev_##x##_write,				\
	.llseek = seq_lseek,						\
	.release = single_release,					\
}

/* Write-only files read as empty. */
/* ---- info, domains, stats ---- */

static int nvpc_simdev_info_show(struct seq_file *m, void *unused)
{
	struct nvpc_simdev *sd = m->private;

	mutex_lock(&sd->ctl);
	seq_printf(m, "id %d\n", sd->id);
	seq_printf(m, "chipset 0x%02x\n", sd->chip->chipset);
	seq_printf(m, "name %s\n", sd->chip->name);
	seq_printf(m, "alt_name %s\n",
		   sd->chip->alt_name ? sd->chip->alt_name : "-");
	seq_printf(m, "gen %s\n", nvpc_catalog_gen_name(sd->chip->gen));
	seq_printf(m, "bus_id %s\n", sd->bus_id);
	seq_printf(m, "device %s\n", dev_name(&sd->pdev->dev));
	seq_printf(m, "gpcs %u\n", sd->nr_gpc);
	seq_printf(m, "parts %u\n", sd->nr_part);
	seq_printf(m, "gpc_mask 0x%x\n", sd->ndev.gpc_mask);
	seq_printf(m, "part_mask 0x%x\n", sd->ndev.part_mask);
	seq_printf(m, "domains %u\n", sd->nr_dom);
	seq_printf(m, "tick_hz %llu\n", nvpc_sim_tick_hz(sd->sim));
	seq_printf(m, "clock %s\n", sd->realtime ? "realtime" : "manual");
	seq_printf(m, "registered %d\n", sd->registered);
	seq_printf(m, "gone %d\n", sd->gone);
	mutex_unlock(&sd->ctl);
	return 0;
}

DEFINE_NVPC_SIMDEV_FILE(info, NULL);

static int nvpc_simdev_domains_show(struct seq_file *m, void *unused)
{
	struct nvpc_simdev *sd = m->private;
	const struct nvpc_domain_desc *dd;
	unsigned long flags;
	unsigned int i;
	char name[24];
	u64 cycles;
	u32 hz;

	mutex_lock(&sd->ctl);
	for (i = 0; i < sd->nr_dom; i++) {
		dd = &sd->mdoms[sd->doms[i].desc];
		nvpc_simdev_lock(sd, &flags);
		cycles = nvpc_sim_cycles(sd->sim, i);
		hz = nvpc_sim_clock_hz(sd->sim, i);
		raw_spin_unlock_irqrestore(&sd->lock, flags);
		seq_printf(m, "%u %s %s %u %llu %u 0x%02x\n", i,
			   nvpc_simdev_dom_name(sd, i, name, sizeof(name)),
			   dd->name ? dd->name : "-", hz, cycles,
			   dd->nr_signals, dd->trailer_base);
	}
	mutex_unlock(&sd->ctl);
	return 0;
}

DEFINE_NVPC_SIMDEV_FILE(domains, NULL);

static int nvpc_simdev_stats_show(struct seq_file *m, void *unused)
{
	struct nvpc_simdev *sd = m->private;
	struct nvpc_sim_stats st;
	unsigned long flags;
	u64 skipped, lost, mw, mf, work, npw, behind, behind_max, amax;
	u64 vw, vf, cp, pw, ans, wns;
	u32 imax, iaddr;

	nvpc_simdev_lock(sd, &flags);
	nvpc_sim_get_stats(sd->sim, &st);
	work = nvpc_sim_work(sd->sim);
	npw = sd->ns_per_work;
	skipped = sd->rt_skipped_ns;
	behind = sd->rt_behind;
	behind_max = sd->rt_behind_max_ns;
	amax = sd->rt_access_max_ns;
	lost = sd->trace_lost;
	mw = sd->mem_writes;
	mf = sd->mem_faults;
	vw = sd->vm_writes;
	vf = sd->vm_faults;
	cp = sd->copy_packets;
	pw = sd->posted_writes;
	ans = sd->access_ns;
	wns = sd->worker_ns;
	imax = sd->irqoff_max;
	iaddr = sd->irqoff_max_addr;
	raw_spin_unlock_irqrestore(&sd->lock, flags);

	seq_printf(m, "reads %llu\n", st.reads);
	seq_printf(m, "writes %llu\n", st.writes);
	seq_printf(m, "absent_reads %llu\n", st.absent_reads);
	seq_printf(m, "absent_writes %llu\n", st.absent_writes);
	seq_printf(m, "stored_accesses %llu\n", st.stored_accesses);
	seq_printf(m, "last_unmodelled 0x%06x\n", st.last_unmodelled);
	seq_printf(m, "history_misses %llu\n", st.history_misses);
	seq_printf(m, "rt_skipped_ns %llu\n", skipped);
	seq_printf(m, "rt_behind %llu\n", behind);
	seq_printf(m, "rt_behind_max_ns %llu\n", behind_max);
	seq_printf(m, "rt_access_max_ns %llu\n", amax);
	seq_printf(m, "posted_writes %llu\n", pw);
	seq_printf(m, "trace_lost %llu\n", lost);
	seq_printf(m, "mem_writes %llu\n", mw);
	seq_printf(m, "mem_faults %llu\n", mf);
	seq_printf(m, "vm_writes %llu\n", vw);
	seq_printf(m, "vm_faults %llu\n", vf);
	seq_printf(m, "unbound_faults %llu\n", st.unbound_faults);
	seq_printf(m, "copy_packets %llu\n", cp);
	seq_printf(m, "record_cycle_packets %llu\n", st.record_cycle_packets);
	seq_printf(m, "record_fast_packets %llu\n", st.record_fast_packets);
	seq_printf(m, "record_fast_runs %llu\n", st.record_fast_runs);
	seq_printf(m, "record_last_path %s\n",
		   !st.record_cycle_packets && !st.record_fast_packets ? "none" :
		   st.record_last_fast ? "fast" : "cycle");
	seq_printf(m, "work %llu\n", work);
	seq_printf(m, "ns_per_work %llu\n", npw);
	seq_printf(m, "access_ns %llu\n", ans);
	seq_printf(m, "worker_ns %llu\n", wns);
	seq_printf(m, "irqoff_max %u\n", imax);
	seq_printf(m, "irqoff_max_addr 0x%06x\n", iaddr);
	return 0;
}

/* "irqoff_reset": the longest engine lock hold starts over */
static int nvpc_simdev_stats_cmd(struct nvpc_simdev *sd, int argc,
				 char **argv)
{
	unsigned long flags;

	if (argc != 1 || strcmp(argv[0], "irqoff_reset")) {
		nvpc_simdev_dbg(sd, "stats: irqoff_reset only\n");
		return -EINVAL;
	}
	nvpc_simdev_lock(sd, &flags);
	sd->irqoff_max = 0;
	sd->irqoff_max_addr = 0;
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	return 0;
}

DEFINE_NVPC_SIMDEV_FILE(stats, nvpc_simdev_stats_cmd);

/* ---- clock mode, clocks, advance ---- */

static int nvpc_simdev_clock_show(struct seq_file *m, void *unused)
{
	struct nvpc_simdev *sd = m->private;

	seq_printf(m, "%s\n", READ_ONCE(sd->realtime) ? "realtime" : "manual");
	return 0;
}

static int nvpc_simdev_clock_cmd(struct nvpc_simdev *sd, int argc,
				 char **argv)
{
	if (argc == 1 && !strcmp(argv[0], "manual")) {
		nvpc_simdev_set_realtime(sd, false);
		return 0;
	}
	if (argc == 1 && !strcmp(argv[0], "realtime")) {
		nvpc_simdev_set_realtime(sd, true);
		return 0;
	}
	nvpc_simdev_dbg(sd, "clock mode is manual or realtime\n");
	return -EINVAL;
}

DEFINE_NVPC_SIMDEV_FILE(clock, nvpc_simdev_clock_cmd);

static int nvpc_simdev_clocks_show(struct seq_file *m, void *unused)
{
	struct nvpc_simdev *sd = m->private;
	unsigned long flags;
	unsigned int i;
	char name[24];
	u32 hz;

	mutex_lock(&sd->ctl);
	for (i = 0; i < sd->nr_dom; i++) {
		nvpc_simdev_lock(sd, &flags);
		hz = nvpc_sim_clock_hz(sd->sim, i);
		raw_spin_unlock_irqrestore(&sd->lock, flags);
		seq_printf(m, "%u %s %u\n", i,
			   nvpc_simdev_dom_name(sd, i, name, sizeof(name)), hz);
	}
	mutex_unlock(&sd->ctl);
	return 0;
}

static int nvpc_simdev_clocks_cmd(struct nvpc_simdev *sd, int argc,
				  char **argv)
{
	unsigned int dom;
	u32 hz;

	if (argc != 2) {
		nvpc_simdev_dbg(sd, "clocks: DOM HZ or all HZ\n");
		return -EINVAL;
	}
	if (!strcmp(argv[0], "all"))
		dom = NVPC_SIMDEV_ALL_DOMAINS;
	else if (nvpc_simdev_dom(sd, argv[0], &dom))
		return -EINVAL;
	if (nvpc_simdev_u32_nz(sd, argv[1], &hz, "a clock (Hz)"))
		return -EINVAL;
	return nvpc_simdev_set_clock(sd, dom, hz);
}

DEFINE_NVPC_SIMDEV_FILE(clocks, nvpc_simdev_clocks_cmd);

static int nvpc_simdev_advance_cmd(struct nvpc_simdev *sd, int argc,
				   char **argv)
{
	unsigned int dom = 0;
	u64 n;

	if (argc == 2 && !strcmp(argv[0], "ns")) {
		if (nvpc_simdev_u64(sd, argv[1], &n))
			return -EINVAL;
		return nvpc_simdev_advance(sd, 0, n, true);
	}
	if (argc < 1 || argc > 2) {
		nvpc_simdev_dbg(sd, "advance: N [DOM] or ns N\n");
		return -EINVAL;
	}
	if (nvpc_simdev_u64(sd, argv[0], &n))
		return -EINVAL;
	if (argc == 2 && nvpc_simdev_dom(sd, argv[1], &dom))
		return -EINVAL;
	return nvpc_simdev_advance(sd, dom, n, false);
}

/* ---- waveforms and ground truth ---- */

static int nvpc_simdev_wave_cmd(struct nvpc_simdev *sd, int argc,
				char **argv)
{
	struct nvpc_sim_wave w = { };
	unsigned int dom, sig, i, want;
	unsigned long flags;
	u32 arg[3];
	bool wave;
	int ret;

	if (argc < 3) {
		nvpc_simdev_dbg(sd, "wave: DOM SIG KIND ARGS...\n");
		return -EINVAL;
	}
	if (nvpc_simdev_dom(sd, argv[0], &dom) ||
	    nvpc_simdev_sig(sd, dom, argv[1], &sig))
		return -EINVAL;
	if (!strcmp(argv[2], "const")) {
		w.kind = NVPC_SIM_WAVE_CONST;
		want = 1;
	} else if (!strcmp(argv[2], "periodic")) {
		w.kind = NVPC_SIM_WAVE_PERIODIC;
		want = 3;
	} else if (!strcmp(argv[2], "random")) {
		w.kind = NVPC_SIM_WAVE_RANDOM;
		want = 2;
	} else {
		nvpc_simdev_dbg(sd, "no waveform kind \"%s\"\n", argv[2]);
		return -EINVAL;
	}
	if (argc != 3 + want) {
		nvpc_simdev_dbg(sd, "%s takes %u arguments\n", argv[2], want);
		return -EINVAL;
	}
	for (i = 0; i < want; i++)
		if (nvpc_simdev_u32(sd, argv[3 + i], &arg[i]))
			return -EINVAL;
	switch (w.kind) {
	case NVPC_SIM_WAVE_CONST:
		if (arg[0] > 1) {
			nvpc_simdev_dbg(sd, "const is 0 or 1\n");
			return -EINVAL;
		}
		w.value = arg[0];
		break;
	case NVPC_SIM_WAVE_PERIODIC:
		if (!arg[0] || arg[1] > arg[0]) {
			nvpc_simdev_dbg(sd, "periodic: PERIOD >= 1, WIDTH <= PERIOD\n");
			return -EINVAL;
		}
		w.period = arg[0];
		w.width = arg[1];
		w.phase = arg[2];
		break;
	default:
		if (arg[1] > 65536) {
			nvpc_simdev_dbg(sd, "random: DENSITY <= 65536\n");
			return -EINVAL;
		}
		w.seed = arg[0];
		w.density = arg[1];
		break;
	}
	nvpc_simdev_lock(sd, &flags);
	wave = nvpc_sim_sig_has_wave(sd->sim, dom, sig);
	ret = wave ? nvpc_sim_set_wave(sd->sim, dom, sig, &w) : -EINVAL;
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	if (!wave)
		nvpc_simdev_dbg(sd, "signal %#x is a trailer signal the model computes: it takes no waveform\n",
				sig);
	else if (ret)
		nvpc_simdev_dbg(sd, "model refused the waveform: %d\n", ret);
	return ret;
}

static int nvpc_simdev_truth_show(struct seq_file *m, void *unused)
{
	struct nvpc_simdev *sd = m->private;
	unsigned long flags;
	u64 from, to, step, n = 0;

	mutex_lock(&sd->ctl);
	nvpc_simdev_lock(sd, &flags);
	from = sd->truth_from;
	to = sd->truth_to;
	if (to == U64_MAX)
		to = nvpc_sim_cycles(sd->sim, sd->truth_dom);
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	/* random waveforms are counted cycle by cycle: slice the interval */
	while (from < to) {
		step = min(to - from, NVPC_SIMDEV_TRUTH_CHUNK);
		nvpc_simdev_lock(sd, &flags);
		n += nvpc_sim_truth(sd->sim, sd->truth_dom, sd->truth_sig,
				    from, from + step);
		raw_spin_unlock_irqrestore(&sd->lock, flags);
		from += step;
		cond_resched();
	}
	mutex_unlock(&sd->ctl);
	seq_printf(m, "%llu\n", n);
	return 0;
}

static int nvpc_simdev_truth_cmd(struct nvpc_simdev *sd, int argc,
				 char **argv)
{
	unsigned int dom, sig;
	u64 from = 0, to = U64_MAX;

	if (argc != 2 && argc != 4) {
		nvpc_simdev_dbg(sd, "truth: DOM SIG [FROM TO]\n");
		return -EINVAL;
	}
	if (nvpc_simdev_dom(sd, argv[0], &dom) ||
	    nvpc_simdev_sig(sd, dom, argv[1], &sig))
		return -EINVAL;
	if (argc == 4 && (nvpc_simdev_u64(sd, argv[2], &from) ||
			  nvpc_simdev_u64(sd, argv[3], &to)))
		return -EINVAL;
	if (argc == 4 && (from > to || to == U64_MAX)) {
		nvpc_simdev_dbg(sd, "truth: FROM <= TO < 2^64-1\n");
		return -EINVAL;
	}
	sd->truth_dom = dom;
	sd->truth_sig = sig;
	sd->truth_from = from;
	sd->truth_to = to;
	return 0;
}

DEFINE_NVPC_SIMDEV_FILE(truth, nvpc_simdev_truth_cmd);

/* ---- register window, trace ---- */

static int nvpc_simdev_reg_show(struct seq_file *m, void *unused)
{
	struct nvpc_simdev *sd = m->private;

	seq_printf(m, "0x%08x\n",
		   nvpc_simdev_read_reg(sd, READ_ONCE(sd->reg_addr)));
	return 0;
}

static int nvpc_simdev_reg_cmd(struct nvpc_simdev *sd, int argc, char **argv)
{
	u32 addr, val;

	if (argc < 1 || argc > 2) {
		nvpc_simdev_dbg(sd, "reg: ADDR [VALUE]\n");
		return -EINVAL;
	}
	if (nvpc_simdev_u32(sd, argv[0], &addr))
		return -EINVAL;
	if ((addr & 3) || addr >= SZ_16M) {
		nvpc_simdev_dbg(sd, "reg: %#x is not a 32-bit BAR0 register\n",
				addr);
		return -EINVAL;
	}
	if (argc == 1) {
		WRITE_ONCE(sd->reg_addr, addr);
		return 0;
	}
	if (nvpc_simdev_u32(sd, argv[1], &val))
		return -EINVAL;
	WRITE_ONCE(sd->reg_addr, addr);
	sd->ndev.ops->wr32(sd, addr, val);
	return 0;
}

DEFINE_NVPC_SIMDEV_FILE(reg, nvpc_simdev_reg_cmd);

static int nvpc_simdev_trace_show(struct seq_file *m, void *unused)
{
	struct nvpc_simdev *sd = m->private;
	struct nvpc_simdev_trace_ent *snap, *e;
	unsigned int i, n, first;
	unsigned long flags;
	bool on;
	u64 lost;

	snap = kvmalloc_array(NVPC_SIMDEV_TRACE_LEN, sizeof(*snap),
			      GFP_KERNEL);
	if (!snap)
		return -ENOMEM;
	nvpc_simdev_lock(sd, &flags);
	n = sd->trace_count;
	first = (sd->trace_head + NVPC_SIMDEV_TRACE_LEN - n) %
		NVPC_SIMDEV_TRACE_LEN;
	for (i = 0; i < n; i++)
		snap[i] = sd->trace[(first + i) % NVPC_SIMDEV_TRACE_LEN];
	lost = sd->trace_lost;
	on = sd->trace_on;
	raw_spin_unlock_irqrestore(&sd->lock, flags);

	seq_printf(m, "# %s entries %u lost %llu\n", on ? "on" : "off", n,
		   lost);
	for (i = 0; i < n; i++) {
		e = &snap[i];
		seq_printf(m, "%c 0x%06x 0x%08x\n", e->write ? 'W' : 'R',
			   e->addr, e->val);
	}
	kvfree(snap);
	return 0;
}

static int nvpc_simdev_trace_cmd(struct nvpc_simdev *sd, int argc,
				 char **argv)
{
	unsigned long flags;

	if (argc != 1 || (strcmp(argv[0], "on") && strcmp(argv[0], "off") &&
			  strcmp(argv[0], "clear"))) {
		nvpc_simdev_dbg(sd, "trace: on, off or clear\n");
		return -EINVAL;
	}
	nvpc_simdev_lock(sd, &flags);
	if (!strcmp(argv[0], "clear")) {
		sd->trace_head = 0;
		sd->trace_count = 0;
		sd->trace_lost = 0;
	} else {
		sd->trace_on = !strcmp(argv[0], "on");
	}
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	return 0;
}

DEFINE_NVPC_SIMDEV_FILE(trace, nvpc_simdev_trace_cmd);

/* ---- fault injection, PM_TRIGGER ---- */

static int nvpc_simdev_fault_show(struct seq_file *m, void *unused)
{
	struct nvpc_simdev *sd = m->private;

	mutex_lock(&sd->ctl);
	seq_printf(m, "all_ones %d\n", sd->all_ones);
	seq_printf(m, "stuck %u\n", sd->stuck);
	seq_printf(m, "removed %d\n", sd->gone);
	mutex_unlock(&sd->ctl);
	return 0;
}

enum nvpc_simdev_fault {
	NVPC_SIMDEV_UNSTICK, NVPC_SIMDEV_ALL_ONES, NVPC_SIMDEV_RECORD,
	NVPC_SIMDEV_LOST_SWAPS, NVPC_SIMDEV_STUCK, NVPC_SIMDEV_KEEP,
	NVPC_SIMDEV_NO_SWAP,
};

/* "fault WHAT ARGS": parsed first, then applied in one locked section */
static int nvpc_simdev_fault_cmd(struct nvpc_simdev *sd, int argc,
				 char **argv)
{
	static const struct { const char *name; int argc; } cmds[] = {
		[NVPC_SIMDEV_UNSTICK] = { "unstick", 1 },
		[NVPC_SIMDEV_ALL_ONES] = { "all_ones", 2 },
		[NVPC_SIMDEV_RECORD] = { "record", 2 },
		[NVPC_SIMDEV_LOST_SWAPS] = { "lost_swaps", 3 },
		[NVPC_SIMDEV_STUCK] = { "stuck", 3 },
		[NVPC_SIMDEV_KEEP] = { "keep", 3 },
		[NVPC_SIMDEV_NO_SWAP] = { "no_swap", 3 },
	};
	const char *what = argv[0];
	unsigned int dom = 0;
	unsigned long flags;
	u32 a = 0, b = 0;
	int cmd, ret = 0;

	if (!strcmp(what, "remove") && argc == 1) {
		nvpc_simdev_remove_hw(sd);
		return 0;
	}
	for (cmd = 0; cmd < ARRAY_SIZE(cmds); cmd++)
		if (!strcmp(what, cmds[cmd].name) && argc == cmds[cmd].argc)
			break;
	switch (cmd) {
	case NVPC_SIMDEV_ALL_ONES:
		if (strcmp(argv[1], "on") && strcmp(argv[1], "off"))
			goto bad;
		a = !strcmp(argv[1], "on");
		break;
	case NVPC_SIMDEV_RECORD:
	case NVPC_SIMDEV_LOST_SWAPS:
		if (nvpc_simdev_dom(sd, argv[1], &dom) ||
		    (argc > 2 && nvpc_simdev_u32(sd, argv[2], &a)))
			return -EINVAL;
		break;
	case NVPC_SIMDEV_STUCK:
		if (nvpc_simdev_u32(sd, argv[1], &a) ||
		    nvpc_simdev_u32(sd, argv[2], &b))
			return -EINVAL;
		if (a & 3) {
			nvpc_simdev_dbg(sd, "stuck: unaligned %#x\n", a);
			return -EINVAL;
		}
		break;
	case NVPC_SIMDEV_KEEP:
		if (nvpc_simdev_dom(sd, argv[1], &dom))
			return -EINVAL;
		if (strcmp(argv[2], "off")) {
			ret = nvpc_sim_ctr_mask(argv[2]);
			if (ret < 0)
				goto bad;
			a = ret;
			ret = 0;
		}
		break;
	case NVPC_SIMDEV_NO_SWAP:
		if (nvpc_simdev_dom(sd, argv[1], &dom) ||
		    (strcmp(argv[2], "on") && strcmp(argv[2], "off")))
			goto bad;
		a = !strcmp(argv[2], "on");
		break;
	case NVPC_SIMDEV_UNSTICK:
		break;
	default:
		goto bad;
	}

	nvpc_simdev_lock(sd, &flags);
	switch (cmd) {
	case NVPC_SIMDEV_UNSTICK:
		nvpc_sim_fault_clear_stuck(sd->sim);
		break;
	case NVPC_SIMDEV_ALL_ONES:
		nvpc_sim_fault_all_ones(sd->sim, a);
		break;
	case NVPC_SIMDEV_RECORD:
		nvpc_sim_fault_record(sd->sim, dom);
		break;
	case NVPC_SIMDEV_LOST_SWAPS:
		nvpc_sim_fault_lost_swaps(sd->sim, dom, a);
		break;
	case NVPC_SIMDEV_STUCK:
		ret = nvpc_sim_fault_stuck(sd->sim, a, b);
		break;
	case NVPC_SIMDEV_KEEP:
		nvpc_sim_fault_keep(sd->sim, dom, a);
		break;
	case NVPC_SIMDEV_NO_SWAP:
		nvpc_sim_fault_no_swap(sd->sim, dom, a);
		break;
	}
	raw_spin_unlock_irqrestore(&sd->lock, flags);

	if (cmd == NVPC_SIMDEV_UNSTICK)
		sd->stuck = 0;
	else if (cmd == NVPC_SIMDEV_ALL_ONES)
		sd->all_ones = a;
	else if (cmd == NVPC_SIMDEV_STUCK && ret)
		nvpc_simdev_dbg(sd, "stuck: %d addresses already\n",
				NVPC_SIM_MAX_STUCK);
	else if (cmd == NVPC_SIMDEV_STUCK)
		sd->stuck++;
	return ret;
bad:
	nvpc_simdev_dbg(sd, "fault: unknown or malformed \"%s\"\n", what);
	return -EINVAL;
}

DEFINE_NVPC_SIMDEV_FILE(fault, nvpc_simdev_fault_cmd);

static int nvpc_simdev_pm_trigger_cmd(struct nvpc_simdev *sd, int argc,
				      char **argv)
{
	unsigned long flags;

	if (argc != 1 || strcmp(argv[0], "1")) {
		nvpc_simdev_dbg(sd, "pm_trigger: write 1\n");
		return -EINVAL;
	}
	nvpc_simdev_lock(sd, &flags);
	nvpc_sim_pm_trigger(sd->sim);
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	return 0;
}

/* ---- record-mode memory window ---- */

static int nvpc_simdev_mem_ctl_show(struct seq_file *m, void *unused)
{
	struct nvpc_simdev *sd = m->private;
	unsigned long flags;
	u64 va, w, f;
	u32 size;

	nvpc_simdev_lock(sd, &flags);
	va = sd->mem_va;
	size = sd->mem_size;
	w = sd->mem_writes;
	f = sd->mem_faults;
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	seq_printf(m, "va 0x%010llx size %u writes %llu faults %llu\n", va,
		   size, w, f);
	return 0;
}

static int nvpc_simdev_mem_ctl_cmd(struct nvpc_simdev *sd, int argc,
				   char **argv)
{
	u64 va;
	u32 size;

	if (argc == 1 && !strcmp(argv[0], "off"))
		return nvpc_simdev_set_mem(sd, 0, 0);
	if (argc != 2) {
		nvpc_simdev_dbg(sd, "mem_ctl: VA SIZE or off\n");
		return -EINVAL;
	}
	if (nvpc_simdev_u64(sd, argv[0], &va) ||
	    nvpc_simdev_u32_nz(sd, argv[1], &size, "mem_ctl: SIZE (use off)"))
		return -EINVAL;
	return nvpc_simdev_set_mem(sd, va, size);
}

DEFINE_NVPC_SIMDEV_FILE(mem_ctl, nvpc_simdev_mem_ctl_cmd);

/*
 * A binary file read in page-sized pieces through a bounce buffer: @fill
 * copies up to a page at @pos into it, under the sim's locks, and returns
 * the bytes copied (0 past the end).
 */
typedef size_t (*nvpc_simdev_fill_t)(struct nvpc_simdev *sd, void *bounce,
				     size_t len, loff_t pos);

static ssize_t nvpc_simdev_bounce_read(struct file *file, char __user *ubuf,
				       size_t len, loff_t *ppos,
				       nvpc_simdev_fill_t fill)
{
	struct nvpc_simdev *sd = file->private_data;
	loff_t pos = *ppos;
	void *bounce;
	size_t n;

	if (pos < 0)
		return -EINVAL;
	bounce = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!bounce)
		return -ENOMEM;
	mutex_lock(&sd->ctl);
	n = fill(sd, bounce, min_t(size_t, len, PAGE_SIZE), pos);
	mutex_unlock(&sd->ctl);
	if (n && copy_to_user(ubuf, bounce, n)) {
		kfree(bounce);
		return -EFAULT;
	}
	kfree(bounce);
	*ppos = pos + n;
	return n;
}

/* nvpc_simdev_x_fops: a read-only binary file filled by @fill */
#define DEFINE_NVPC_SIMDEV_BFILE(x, fill)				\
static ssize_t nvpc_simdev_##x##_read(struct file *file,		\
				      char __user *ubuf, size_t len,	\
				      loff_t *ppos)			\
{									\
	return nvpc_simdev_bounce_read(file, ubuf, len, ppos, fill);	\
}									\
static const struct file_operations nvpc_simdev_##x##_fops = {		\
	.owner = THIS_MODULE,						\
	.open = simple_open,						\
	.read = nvpc_simdev_##x##_read,					\
	.llseek = default_llseek,					\
}

/* The window's bytes. */
static size_t nvpc_simdev_mem_fill(struct nvpc_simdev *sd, void *bounce,
				   size_t len, loff_t pos)
{
	unsigned long flags;
	size_t n = 0;

	nvpc_simdev_lock(sd, &flags);
	if (sd->mem && pos < sd->mem_size) {
		n = min_t(size_t, len, sd->mem_size - pos);
		memcpy(bounce, sd->mem + pos, n);
	}
	raw_spin_unlock_irqrestore(&sd->lock, flags);
	return n;
}

DEFINE_NVPC_SIMDEV_BFILE(mem, nvpc_simdev_mem_fill);

/* ---- the GPU VM of record mode (sim_vm.c) ---- */

static int nvpc_simdev_vm_list_show(struct seq_file *m, void *unused)
{
	struct nvpc_simdev *sd = m->private;
	const struct nvpc_simdev_vm_map *v;
	u64 va, size, packets;
	unsigned long flags;
	unsigned int i, pages;

	/* slot by slot: the mapping may go meanwhile (record_unmap) */
	for (i = 0; i < NVPC_SIMDEV_VM_MAX; i++) {
		nvpc_simdev_lock(sd, &flags);
		v = sd->vm[i];
		if (v) {
			va = v->va;
			size = v->size;
			pages = v->nr_pages;
			packets = v->packets;
		}
		raw_spin_unlock_irqrestore(&sd->lock, flags);
		if (v)
			seq_printf(m, "va 0x%010llx size 0x%llx pages %u packets %llu\n",
				   va, size, pages, packets);
	}
	return 0;
}

DEFINE_NVPC_SIMDEV_FILE(vm_list, NULL);

static int nvpc_simdev_vm_test_show(struct seq_file *m, void *unused)
{
	struct nvpc_simdev *sd = m->private;

	mutex_lock(&sd->ctl);
	if (sd->vm_test)
		seq_printf(m, "va 0x%010llx pages %u\n", sd->vm_test->va,
			   sd->vm_test->nr_pages);
	mutex_unlock(&sd->ctl);
	return 0;
}

static int nvpc_simdev_vm_test_cmd(struct nvpc_simdev *sd, int argc,
				   char **argv)
{
	u64 va, size;
	u32 pages;

	if (argc == 1 && !strcmp(argv[0], "unmap"))
		return nvpc_simdev_vm_test(sd, 0, 0, 0);
	if (argc != 4 || strcmp(argv[0], "map")) {
		nvpc_simdev_dbg(sd, "vm_test: map VA SIZE PAGES, or unmap\n");
		return -EINVAL;
	}
	if (nvpc_simdev_u64(sd, argv[1], &va) ||
	    nvpc_simdev_u64(sd, argv[2], &size) ||
	    nvpc_simdev_u32(sd, argv[3], &pages))
		return -EINVAL;
	if (!size) {
		nvpc_simdev_dbg(sd, "vm_test: SIZE 0\n");
		return -EINVAL;
	}
	return nvpc_simdev_vm_test(sd, va, size, pages);
}

DEFINE_NVPC_SIMDEV_FILE(vm_test, nvpc_simdev_vm_test_cmd);

/* The test mapping's pages in ring order. */
static size_t nvpc_simdev_vm_test_fill(struct nvpc_simdev *sd, void *bounce,
				       size_t len, loff_t pos)
{
	struct nvpc_simdev_vm_test *t = sd->vm_test;
	unsigned long flags;
	size_t n = 0;

	if (t && pos < (loff_t)t->nr_pages * PAGE_SIZE) {
		n = min_t(size_t, len, PAGE_SIZE - offset_in_page(pos));
		/* the lock: no packet is half written meanwhile */
		nvpc_simdev_lock(sd, &flags);
		memcpy(bounce, (u8 *)t->pages[pos >> PAGE_SHIFT] +
		       offset_in_page(pos), n);
		raw_spin_unlock_irqrestore(&sd->lock, flags);
	}
	return n;
}

DEFINE_NVPC_SIMDEV_BFILE(vm_test_mem, nvpc_simdev_vm_test_fill);

/* ---- record-mode memory write latency ---- */

static int nvpc_simdev_record_latency_show(struct seq_file *m, void *unused)
{
	struct nvpc_simdev *sd = m->private;
	u32 ns;

	mutex_lock(&sd->ctl);
	ns = nvpc_simdev_latency_ns(sd);
	if (ns)
		seq_printf(m, "%uns\n", ns);
	else
		seq_printf(m, "%u\n", sd->record_latency);
	mutex_unlock(&sd->ctl);
	return 0;
}

/* "CYCLES", "NSns" (each domain's cycles from its clock) or "default" */
static int nvpc_simdev_record_latency_cmd(struct nvpc_simdev *sd, int argc,
					  char **argv)
{
	size_t len;
	u32 v;

	if (argc != 1) {
		nvpc_simdev_dbg(sd, "record_latency: CYCLES, NSns or default\n");
		return -EINVAL;
	}
	if (!strcmp(argv[0], "default")) {
		nvpc_simdev_set_record_latency(sd, false, 0, 0);
		return 0;
	}
	len = strlen(argv[0]);
	if (len > 2 && !strcmp(argv[0] + len - 2, "ns")) {
		argv[0][len - 2] = '\0';
		if (nvpc_simdev_u32(sd, argv[0], &v))
			return -EINVAL;
		if (v > NVPC_SIMDEV_LATENCY_NS_MAX) {
			nvpc_simdev_dbg(sd, "record_latency: %u ns is more than a second\n",
					v);
			return -EINVAL;
		}
		nvpc_simdev_set_record_latency(sd, true, 0, v);
		return 0;
	}
	if (nvpc_simdev_u32(sd, argv[0], &v))
		return -EINVAL;
	nvpc_simdev_set_record_latency(sd, true, v, 0);
	return 0;
}

DEFINE_NVPC_SIMDEV_FILE(record_latency, nvpc_simdev_record_latency_cmd);

/* write-only command files: an empty show */
#define DEFINE_NVPC_SIMDEV_WFILE(x, cmd)				\
static int nvpc_simdev_##x##_show(struct seq_file *m, void *unused)	\
{									\
	return 0;							\
}									\
DEFINE_NVPC_SIMDEV_FILE(x, cmd)

DEFINE_NVPC_SIMDEV_WFILE(pm_trigger, nvpc_simdev_pm_trigger_cmd);
DEFINE_NVPC_SIMDEV_WFILE(wave_w, nvpc_simdev_wave_cmd);
DEFINE_NVPC_SIMDEV_WFILE(advance_w, nvpc_simdev_advance_cmd);

/**
 * nvpc_simdev_debugfs_add() - create the gpu<id> directory of a GPU
 * @sd: the GPU
 * @root: /sys/kernel/debug/nvpcounter_sim
 */
void nvpc_simdev_debugfs_add(struct nvpc_simdev *sd, struct dentry *root)
{
	static const struct {
		const char *name;
		umode_t mode;
		const struct file_operations *fops;
	} files[] = {
		{ "info", 0400, &nvpc_simdev_info_fops },
		{ "domains", 0400, &nvpc_simdev_domains_fops },
		{ "stats", 0600, &nvpc_simdev_stats_fops },
		{ "clock", 0600, &nvpc_simdev_clock_fops },
		{ "clocks", 0600, &nvpc_simdev_clocks_fops },
		{ "advance", 0200, &nvpc_simdev_advance_w_fops },
		{ "wave", 0200, &nvpc_simdev_wave_w_fops },
		{ "truth", 0600, &nvpc_simdev_truth_fops },
		{ "reg", 0600, &nvpc_simdev_reg_fops },
		{ "trace", 0600, &nvpc_simdev_trace_fops },
		{ "fault", 0600, &nvpc_simdev_fault_fops },
		{ "pm_trigger", 0200, &nvpc_simdev_pm_trigger_fops },
		{ "mem_ctl", 0600, &nvpc_simdev_mem_ctl_fops },
		{ "mem", 0400, &nvpc_simdev_mem_fops },
		{ "vm", 0400, &nvpc_simdev_vm_list_fops },
		{ "vm_test", 0600, &nvpc_simdev_vm_test_fops },
		{ "vm_test_mem", 0400, &nvpc_simdev_vm_test_mem_fops },
		{ "record_latency", 0600, &nvpc_simdev_record_latency_fops },
	};
	char name[16];
	int i;

	snprintf(name, sizeof(name), "gpu%d", sd->id);
	sd->dir = debugfs_create_dir(name, root);
	for (i = 0; i < ARRAY_SIZE(files); i++)
		debugfs_create_file(files[i].name, files[i].mode, sd->dir, sd,
				    files[i].fops);
}
