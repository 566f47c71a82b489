// SPDX-License-Identifier: GPL-2.0
/*
 * Which events may share a group with a GPU event (Documentation/perf.rst
 * "Sampling", "Groups"): perf reads every member of a group at each
 * sample of any member that samples, from where that sample is taken.
 * Only a clock (cpu-clock, task-clock) samples from a context that can
 * never be inside the driver's own lock holds; every other sampler is
 * refused, as leader or member (EINVAL), and a sampler that joins after
 * the GPU event opened keeps the group from ever being scheduled, so it
 * never fires. All of it on the PMU's CPU, while readers of the domain's
 * sysfs status (register reads under the engine lock) and the poll run
 * on that same CPU: a stuck CPU would end the test by its time bound and
 * the kernel's lockup and lockdep reports would fail the VM run.
 *
 * The GPU runs on the manual clock: a cycles event counts exactly the
 * cycles the test advances while it is scheduled.
 */
#include <pthread.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <sys/stat.h>
#include <linux/hw_breakpoint.h>

#include "kselftest_harness.h"
#include "nvpc_perf.h"

#define GPU		4
#define RING_PAGES	8

/* written by the test, watched by a breakpoint leader */
static int bp_target;

static void *hammer_fn(void *arg);

/* a line in the kernel log: where the test was if the guest stops */
static void log_step(const char *fmt, const char *what)
{
	nvpc_write("/dev/kmsg", fmt, what);
}

/* A dynamic PMU's type (kprobe, uprobe), or -1. */
static int pmu_type(const char *name)
{
	char path[PATH_MAX], buf[32];

	snprintf(path, sizeof(path), NVPC_PMU_DIR "/%s/type", name);
	return nvpc_read_file(path, buf, sizeof(buf)) > 0 ? atoi(buf) : -1;
}

/* The file offset of @fn in this executable (for a uprobe), or 0. */
static __u64 exe_offset(const void *fn)
{
	unsigned long start, end, off, addr = (unsigned long)fn;
	char line[512], perms[8];
	__u64 ret = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s %lx", &start, &end, perms,
			   &off) != 4)
			continue;
		if (addr >= start && addr < end && perms[2] == 'x') {
			ret = addr - start + off;
			break;
		}
	}
	fclose(f);
	return ret;
}

/* one kind of group leader that samples */
struct leader_kind {
	const char *name;
	int (*fill)(struct perf_event_attr *attr, char *path);
};

static int fill_tp(struct perf_event_attr *a, const char *sys,
		   const char *name)
{
	long id = nvpc_tracepoint_id(sys, name);

	if (id < 0)
		return -1;
	a->type = PERF_TYPE_TRACEPOINT;
	a->config = id;
	return 0;
}

static int tp_waking(struct perf_event_attr *a, char *p)
{
	return fill_tp(a, "sched", "sched_waking");
}

static int tp_hrtimer_cancel(struct perf_event_attr *a, char *p)
{
	return fill_tp(a, "timer", "hrtimer_cancel");
}

static int tp_console(struct perf_event_attr *a, char *p)
{
	return fill_tp(a, "printk", "console");
}

static int tp_irq(struct perf_event_attr *a, char *p)
{
	return fill_tp(a, "irq", "softirq_entry");
}

/*
 * A kprobe on a function nothing in the guest runs while the test opens
 * and closes it (sync(2)'s): arming a kprobe on a function another CPU
 * is executing (vfs_read, which the readers call at 2 kHz) oopses the
 * 6.1-rt guest under QEMU TCG, a jump to address 0 from the function's
 * entry, with none of our modules loaded (a 40-line reproducer in
 * Documentation/testing.rst "Guest kernels under TCG"). The refusal is
 * decided at open, before the probe ever fires.
 */
static int kprobe(struct perf_event_attr *a, char *p)
{
	int type = pmu_type("kprobe");

	a->type = type;
	strcpy(p, "ksys_sync");
	a->config1 = (__u64)(unsigned long)p;	/* kprobe_func */
	return type < 0 ? -1 : 0;
}

static int uprobe(struct perf_event_attr *a, char *p)
{
	ssize_t n = readlink("/proc/self/exe", p, PATH_MAX - 1);
	int type = pmu_type("uprobe");

	a->type = type;
	if (n <= 0 || type < 0)
		return -1;
	p[n] = '\0';
	a->config1 = (__u64)(unsigned long)p;	/* uprobe_path */
	/* a function of this binary: the sysfs readers' thread */
	a->config2 = exe_offset(hammer_fn);
	return a->config2 ? 0 : -1;
}

static int breakpoint(struct perf_event_attr *a, char *p)
{
	a->type = PERF_TYPE_BREAKPOINT;
	a->bp_type = HW_BREAKPOINT_W;
	a->bp_addr = (__u64)(unsigned long)&bp_target;
	a->bp_len = HW_BREAKPOINT_LEN_4;
	return 0;
}

static int sw(struct perf_event_attr *a, __u64 config)
{
	a->type = PERF_TYPE_SOFTWARE;
	a->config = config;
	return 0;
}

static int ctx_switches(struct perf_event_attr *a, char *p)
{
	return sw(a, PERF_COUNT_SW_CONTEXT_SWITCHES);
}

static int page_faults(struct perf_event_attr *a, char *p)
{
	return sw(a, PERF_COUNT_SW_PAGE_FAULTS);
}

static int bpf_output(struct perf_event_attr *a, char *p)
{
	return sw(a, PERF_COUNT_SW_BPF_OUTPUT);
}

static const struct leader_kind samplers[] = {
	{ "sched:sched_waking", tp_waking },
	{ "timer:hrtimer_cancel", tp_hrtimer_cancel },
	{ "printk:console", tp_console },
	{ "irq:softirq_entry", tp_irq },
	{ "kprobe ksys_sync", kprobe },
	{ "uprobe in this binary", uprobe },
	{ "hardware breakpoint", breakpoint },
	{ "context-switches", ctx_switches },
	{ "page-faults", page_faults },
	{ "bpf-output", bpf_output },
};

/* readers of the domain's live status on the PMU's CPU, and wakeups */
struct hammer {
	char path[PATH_MAX];
	int cpu;
	int stop;		/* __atomic */
	unsigned long reads;
};

static void *hammer_fn(void *arg)
{
	struct hammer *h = arg;
	char buf[128];
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(h->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	while (!__atomic_load_n(&h->stop, __ATOMIC_RELAXED)) {
		if (nvpc_read_file(h->path, buf, sizeof(buf)) > 0)
			h->reads++;
		__atomic_fetch_add(&bp_target, 1, __ATOMIC_RELAXED);
		/* 2 kHz in all: a busy CPU, not a storm of timers under TCG */
		usleep(1000);
	}
	return NULL;
}

FIXTURE(group) {
	int type;
	int cpu;
	char pmu[PATH_MAX];
	struct hammer h[2];
	pthread_t th[2];
	int nth;
	int keep[ARRAY_SIZE(samplers)];
};

/*
 * The first event of a tracepoint, kprobe or software event kind turns a
 * static key or a kprobe on, and its last one turns it off again: the
 * kernel rewrites its own code (text_poke_bp(): an int3 first, then the
 * new instruction) while the other CPU runs it. Under QEMU's TCG with a
 * thread per CPU, a CPU was seen to run the int3 again and again after
 * the rewrite had ended (the new jmp in memory, no rewrite in progress,
 * the CPU trapping at try_to_wake_up's sched_waking site with a task's
 * pi_lock held, the other CPU spinning on that lock): the guest hung in
 * one run of 20 or so under the debug kernel. A disabled event of each
 * kind, opened before the readers start and closed after they stop,
 * holds those keys on for the whole test, so that no case rewrites code
 * while it runs (Documentation/testing.rst "Guest kernels under TCG").
 */
static void keep_keys_on(int *keep)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(samplers); i++) {
		struct perf_event_attr a = { .size = sizeof(a), .disabled = 1 };
		char path[PATH_MAX];

		keep[i] = -1;
		if (samplers[i].fill == breakpoint || samplers[i].fill == uprobe ||
		    samplers[i].fill(&a, path))
			continue;
		keep[i] = syscall(__NR_perf_event_open, &a, -1, 0, -1, 0);
	}
}

FIXTURE_SETUP(group)
{
	int i;

	self->nth = 0;
	keep_keys_on(self->keep);
	ASSERT_EQ(0, sim_gpu_create(GPU, "g84"));
	ASSERT_EQ(0, sim_cmd(GPU, "clocks", "all 1000000"));
	self->type = nvpc_pmu_find(GPU, self->pmu, sizeof(self->pmu));
	ASSERT_LE(0, self->type);
	self->cpu = nvpc_pmu_num(self->pmu, "cpumask");
	ASSERT_LE(0, self->cpu);
	ASSERT_EQ(0, sim_wave(GPU, "main.1", 0x11, WAVE_CONST(1)));
	for (i = 0; i < 2; i++) {
		snprintf(self->h[i].path, sizeof(self->h[i].path),
			 "%s/domains/main.%d/status", self->pmu, i);
		self->h[i].cpu = self->cpu;
		self->h[i].stop = 0;
		self->h[i].reads = 0;
		ASSERT_EQ(0, pthread_create(&self->th[i], NULL, hammer_fn,
					    &self->h[i]));
		self->nth++;
	}
}

FIXTURE_TEARDOWN(group)
{
	int i;

	for (i = 0; i < self->nth; i++) {
		__atomic_store_n(&self->h[i].stop, 1, __ATOMIC_RELAXED);
		pthread_join(self->th[i], NULL);
	}
	for (i = 0; i < (int)ARRAY_SIZE(samplers); i++)
		if (self->keep[i] >= 0)
			close(self->keep[i]);
	sim_gpu_remove(GPU);
}

/* a sampler on the PMU's CPU, period 1, reading its group; fd or -errno */
static int open_sampler(const struct leader_kind *k, int cpu, int period,
			int group_fd, char *path)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.sample_period = period,
		.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_TIME,
		.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			       PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
		.wakeup_events = 1,
	};
	int fd;

	if (k->fill(&a, path))
		return -ENOENT;
	fd = syscall(__NR_perf_event_open, &a, -1, cpu, group_fd, 0);
	return fd < 0 ? -errno : fd;
}

/* a cpu-clock leader sampling every 100 us, reading its group; fd or -errno */
static int open_clock(int cpu)
{
	struct perf_event_attr c = {
		.size = sizeof(c),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100000,
		.sample_type = PERF_SAMPLE_READ,
		.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			       PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	int fd = syscall(__NR_perf_event_open, &c, -1, cpu, -1, 0);

	return fd < 0 ? -errno : fd;
}

/* main.1's cycles (or signal 0x11, held at 1) in a group; fd or -errno */
static int open_gpu(int type, int cpu, int group_fd, int signal)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = type,
		.config = signal ? CFG_SIG(0, 0x11) : CFG_CYCLES,
		.config1 = CFG1_DOM(0, 0, 1),
		.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			       PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
		.sample_type = PERF_SAMPLE_READ,
	};
	int fd = syscall(__NR_perf_event_open, &a, -1, cpu, group_fd, 0);

	return fd < 0 ? -errno : fd;
}

/*
 * Every sampler kind leading, at sample period 1 on the PMU's CPU: the GPU
 * event joining it is refused (EINVAL). The same kind not sampling
 * (period 0, a perf stat group) takes the GPU event: the refusal is the
 * sampling, nothing else about the leader.
 */
TEST_F_TIMEOUT(group, sampling_leaders_refused, 120)
{
	unsigned int i, tried = 0;

	for (i = 0; i < ARRAY_SIZE(samplers); i++) {
		char path[PATH_MAX];
		int lead, fd;

		log_step("group_test: %s leads, sampling\n", samplers[i].name);
		lead = open_sampler(&samplers[i], self->cpu, 1, -1, path);
		if (lead == -ENOENT || lead == -EOPNOTSUPP) {
			TH_LOG("%s: not on this kernel (%d)", samplers[i].name,
			       lead);
			continue;
		}
		ASSERT_LE(0, lead) TH_LOG("%s: %d", samplers[i].name, lead);
		fd = open_gpu(self->type, self->cpu, lead, 0);
		TH_LOG("%s leads at period 1: %d", samplers[i].name, fd);
		EXPECT_EQ(-EINVAL, fd);
		if (fd >= 0)
			close(fd);
		close(lead);

		log_step("group_test: %s leads, not sampling\n", samplers[i].name);
		lead = open_sampler(&samplers[i], self->cpu, 0, -1, path);
		ASSERT_LE(0, lead);
		fd = open_gpu(self->type, self->cpu, lead, 0);
		/* a bpf-output event writes samples whatever its period */
		if (samplers[i].fill == bpf_output) {
			EXPECT_EQ(-EINVAL, fd);
		} else {
			EXPECT_LE(0, fd) TH_LOG("%s leads, not sampling: %d",
						samplers[i].name, fd);
		}
		if (fd >= 0)
			close(fd);
		close(lead);
		tried++;
	}
	/* the tracepoints, kprobes, breakpoints and software events at least */
	EXPECT_LE(8, tried);
	EXPECT_LT(0, self->h[0].reads);
}

/*
 * A sampler that joins after the GPU event (its own event_init, not the
 * driver's): the driver's add() refuses the group, so nothing of it is
 * scheduled from then on: the sampler writes no sample and the GPU event
 * keeps the count it had, whichever of them leads. Beside it a clock-led
 * group counts exactly, and the readers never stopped.
 */
TEST_F_TIMEOUT(group, sampler_joining_later_never_schedules, 120)
{
	unsigned int i;

	for (i = 0; i < 2; i++) {
		char path[PATH_MAX];
		struct perf_event_mmap_page *pg;
		struct { __u64 nr, enabled, running, v[4][2]; } r;
		long psz = sysconf(_SC_PAGESIZE);
		int lead, tp, extra = -1;

		if (i == 0) {
			/* the GPU event leads, a sampling tracepoint joins */
			lead = open_gpu(self->type, self->cpu, -1, 0);
			ASSERT_LE(0, lead);
		} else {
			/* a clock leads, the GPU event, then the tracepoint */
			lead = open_clock(self->cpu);
			ASSERT_LE(0, lead);
			extra = open_gpu(self->type, self->cpu, lead, 0);
			ASSERT_LE(0, extra);
		}
		log_step("group_test: case %s opened\n", i ? "clock" : "gpu");
		/* scheduled: the GPU event counts the 1000 cycles */
		ASSERT_EQ(0, sim_advance(GPU, 1000, "main.1"));
		ASSERT_LT(0, read(lead, &r, sizeof(r)));
		EXPECT_EQ(1000, r.v[i][0]);

		log_step("group_test: case %s, the tracepoint joins\n",
			 i ? "clock" : "gpu");
		tp = open_sampler(&samplers[0], self->cpu, 1, lead, path);
		ASSERT_LE(0, tp) TH_LOG("the tracepoint joins: %d", tp);
		log_step("group_test: case %s, the tracepoint joined\n",
			 i ? "clock" : "gpu");
		pg = mmap(NULL, (RING_PAGES + 1) * psz, PROT_READ | PROT_WRITE,
			  MAP_SHARED, tp, 0);
		ASSERT_NE(MAP_FAILED, pg);

		ASSERT_EQ(0, sim_advance(GPU, 5000, "main.1"));
		usleep(300000);
		ASSERT_EQ(0, sim_advance(GPU, 5000, "main.1"));

		ASSERT_LT(0, read(lead, &r, sizeof(r)));
		TH_LOG("case %u: %llu members, enabled %llu running %llu, ring head %llu",
		       i, r.nr, r.enabled, r.running, pg->data_head);
		EXPECT_EQ(i ? 3 : 2, r.nr);
		/* not scheduled since the tracepoint joined */
		EXPECT_EQ(1000, r.v[i][0]);
		EXPECT_EQ(0, r.v[i + 1][0]);	/* the tracepoint's count */
		EXPECT_EQ(0, pg->data_head);	/* no sample was written */

		munmap(pg, (RING_PAGES + 1) * psz);
		close(tp);
		if (extra >= 0)
			close(extra);
		close(lead);
	}

	/* the same CPU, a clock-led group alone: scheduled, exact */
	{
		struct { __u64 nr, enabled, running, v[3][2]; } r;
		long psz = sysconf(_SC_PAGESIZE);
		long long deferred;
		void *ring;
		int lead, cyc, sig;

		log_step("group_test: %s\n", "the clock group alone");
		deferred = nvpc_pmu_num(self->pmu, "reads_deferred");
		lead = open_clock(self->cpu);
		ASSERT_LE(0, lead);
		ring = mmap(NULL, (RING_PAGES + 1) * psz,
			    PROT_READ | PROT_WRITE, MAP_SHARED, lead, 0);
		ASSERT_NE(MAP_FAILED, ring);
		cyc = open_gpu(self->type, self->cpu, lead, 0);
		ASSERT_LE(0, cyc);
		sig = open_gpu(self->type, self->cpu, lead, 1);
		ASSERT_LE(0, sig);
		for (i = 0; i < 20; i++) {
			ASSERT_EQ(0, sim_advance(GPU, 1000, "main.1"));
			usleep(2000);
		}
		ASSERT_LT(0, read(lead, &r, sizeof(r)));
		EXPECT_EQ(3, r.nr);
		EXPECT_LT(0, r.running);
		/* the clock group counts the 20 x 1000 cycles it ran */
		EXPECT_EQ(20000, r.v[1][0]);
		EXPECT_EQ(20000, r.v[2][0]);
		EXPECT_LT(0, ((struct perf_event_mmap_page *)ring)->data_head);
		/* nothing read the GPU from inside the driver's lock */
		EXPECT_EQ(deferred, nvpc_pmu_num(self->pmu, "reads_deferred"));
		munmap(ring, (RING_PAGES + 1) * psz);
		close(sig);
		close(cyc);
		close(lead);
	}
	EXPECT_LT(0, self->h[0].reads);
	EXPECT_LT(0, self->h[1].reads);
}

/*
 * cgroup events: GPU counters are system-wide. perf refuses a cgroup
 * event of a PMU without a task context (EINVAL) before the driver sees
 * it; checked here on a real cgroup of the PMU's CPU.
 */
TEST_F_TIMEOUT(group, cgroup_event_refused, 60)
{
	static const char * const roots[] = { "/sys/fs/cgroup" };
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = self->type,
		.config = CFG_CYCLES,
		.config1 = CFG1_DOM(0, 0, 1),
	};
	struct statfs sf;
	int cg = -1, fd;

	/* the unified hierarchy (cgroup2), mounted if the guest has none */
	if (statfs(roots[0], &sf) || sf.f_type != 0x63677270)
		ASSERT_EQ(0, mount("cgroup2", roots[0], "cgroup2", 0, NULL));
	cg = open(roots[0], O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, cg) TH_LOG("no cgroup hierarchy to open");
	fd = syscall(__NR_perf_event_open, &a, cg, self->cpu, -1,
		     PERF_FLAG_PID_CGROUP);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	if (fd >= 0)
		close(fd);
	/* the perf tool's perf stat -G on a cgroup of the hierarchy */
	{
		char cmd[PATH_MAX + 256], dir[PATH_MAX];
		const char *name = strrchr(self->pmu, '/') + 1;
		int st;

		snprintf(dir, sizeof(dir), "%s/nvpc_xa", roots[0]);
		ASSERT_TRUE(!mkdir(dir, 0755) || errno == EEXIST);
		char out[4096] = "";
		FILE *p;
		size_t n;

		snprintf(cmd, sizeof(cmd),
			 "perf stat -a -C %d -e %s/cycles,dom=1/ -G nvpc_xa -- sleep 0.2 2>&1",
			 self->cpu, name);
		p = popen(cmd, "r");
		ASSERT_NE(NULL, p);
		n = fread(out, 1, sizeof(out) - 1, p);
		out[n] = '\0';
		st = pclose(p);
		TH_LOG("%s: exit %d: %s", cmd, WEXITSTATUS(st), out);
		/*
		 * perf stat shows an event the kernel refused to open as
		 * "<not supported>" (and exits 0): no count is shown
		 */
		EXPECT_NE(NULL, strstr(out, "<not supported>"));
		rmdir(dir);
	}
	/* the same event without the cgroup opens */
	fd = syscall(__NR_perf_event_open, &a, -1, self->cpu, -1, 0);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
	close(cg);
}

TEST_HARNESS_MAIN
