// SPDX-License-Identifier: GPL-2.0
/*
 * A read from inside the driver's own lock hold (Documentation/perf.rst
 * "Sampling", "Reads from inside the driver"): a BPF program on a kprobe
 * reads a GPU event with bpf_perf_event_read_value(), and the kprobe sits
 * on nvpc_gen_read_ctrs(), which the driver calls only inside a hold of
 * its engine lock (it reads a domain's counters there). perf.rst: such a
 * read takes no lock and touches no register; the event keeps its last
 * count, the next read collects what it left, and ``reads_deferred``
 * counts it. Without the deferral the read would spin on the lock its
 * own CPU holds: the guest would stop and the test end by its bound.
 *
 * A simulated G84 on the manual clock: a cycles event of main.1 counts
 * exactly the cycles the test advances (sim.rst "Time and clocks"). At
 * each round the test advances 1000 cycles and reads the event: the
 * read's hold reads the counters (the kprobe fires there), so the BPF
 * program reads the event inside it and sees the count before this
 * read's update: 1000 (k - 1) in round k, or 1000 k if the driver's poll
 * collected the round's cycles first; the read itself returns 1000 k.
 * Every BPF read of the event (its CPU is the PMU's) is one deferred
 * read: ``reads_deferred`` grows by exactly the number of them.
 *
 * The kprobe is armed before any event counts, so no CPU runs the
 * function while it is armed (group_test.c: arming a kprobe on a
 * function that runs oopses the 6.1-rt guest under TCG).
 */
#include <sys/ioctl.h>
#include <linux/bpf.h>

#include "kselftest_harness.h"
#include "nvpc_perf.h"

#define GPU		6
#define ROUNDS		5
#define NCPU_MAX	64

/* what the BPF program keeps: one array element */
struct result {
	__u64 hits;	/* reads of the GPU event that returned 0 */
	__u64 last;	/* the count the last of them saw */
	__u64 errs;	/* reads that failed (another CPU: EINVAL) */
};

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int map_create(enum bpf_map_type type, __u32 vsize, __u32 n)
{
	union bpf_attr a = {
		.map_type = type,
		.key_size = 4,
		.value_size = vsize,
		.max_entries = n,
	};

	return sys_bpf(BPF_MAP_CREATE, &a);
}

static int map_update(int map, __u32 key, const void *val)
{
	union bpf_attr a = {
		.map_fd = map,
		.key = (__u64)(unsigned long)&key,
		.value = (__u64)(unsigned long)val,
	};

	return sys_bpf(BPF_MAP_UPDATE_ELEM, &a);
}

static int map_lookup(int map, __u32 key, void *val)
{
	union bpf_attr a = {
		.map_fd = map,
		.key = (__u64)(unsigned long)&key,
		.value = (__u64)(unsigned long)val,
	};

	return sys_bpf(BPF_MAP_LOOKUP_ELEM, &a);
}

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })
/* a map's fd as a 64-bit immediate: this, then LD_HIGH */
#define LD_MAP(d, fd)	INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd)
#define LD_HIGH()	INSN(0, 0, 0, 0, 0)
#define MOV64_REG(d, s)	INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV64_IMM(d, i)	INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV32_IMM(d, i)	INSN(BPF_ALU | BPF_MOV | BPF_K, d, 0, 0, i)
#define ADD64_IMM(d, i)	INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define LDX64(d, s, o)	INSN(BPF_LDX | BPF_MEM | BPF_DW, d, s, o, 0)
#define STX64(d, s, o)	INSN(BPF_STX | BPF_MEM | BPF_DW, d, s, o, 0)
#define ST32_IMM(d, o, i) INSN(BPF_ST | BPF_MEM | BPF_W, d, 0, o, i)
#define CALL(f)		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define JEQ_IMM(d, i, o) INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
#define JNE_IMM(d, i, o) INSN(BPF_JMP | BPF_JNE | BPF_K, d, 0, o, i)
#define JA(o)		INSN(BPF_JMP | BPF_JA, 0, 0, o, 0)
#define EXIT()		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

/*
 * The kprobe's program: read the event at this CPU's index of @events
 * (BPF_F_CURRENT_CPU) and count the outcome in element 0 of @res.
 */
static int prog_load(int events, int res, char *log, size_t loglen)
{
	struct bpf_insn insn[] = {
		/* r0 = bpf_perf_event_read_value(events, CURRENT_CPU, fp-24, 24) */
		LD_MAP(1, events),
		LD_HIGH(),
		MOV32_IMM(2, -1),		/* BPF_F_CURRENT_CPU */
		MOV64_REG(3, 10),
		ADD64_IMM(3, -24),
		MOV64_IMM(4, 24),
		CALL(BPF_FUNC_perf_event_read_value),
		MOV64_REG(6, 0),
		/* r0 = &res[0] */
		ST32_IMM(10, -28, 0),
		LD_MAP(1, res),
		LD_HIGH(),
		MOV64_REG(2, 10),
		ADD64_IMM(2, -28),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(0, 0, 10),		/* -> exit */
		JNE_IMM(6, 0, 6),		/* -> err */
		LDX64(1, 10, -24),		/* the counter */
		STX64(0, 1, 8),			/* last */
		LDX64(1, 0, 0),
		ADD64_IMM(1, 1),
		STX64(0, 1, 0),			/* hits++ */
		JA(3),				/* -> exit */
		/* err: */
		LDX64(1, 0, 16),
		ADD64_IMM(1, 1),
		STX64(0, 1, 16),		/* errs++ */
		/* exit: */
		MOV64_IMM(0, 0),
		EXIT(),
	};
	union bpf_attr a = {
		.prog_type = BPF_PROG_TYPE_KPROBE,
		.insns = (__u64)(unsigned long)insn,
		.insn_cnt = ARRAY_SIZE(insn),
		.license = (__u64)(unsigned long)"GPL",
		.log_buf = (__u64)(unsigned long)log,
		.log_size = loglen,
		.log_level = 1,
	};

	return sys_bpf(BPF_PROG_LOAD, &a);
}

/* A dynamic PMU's type (kprobe), or -1. */
static int pmu_type(const char *name)
{
	char path[PATH_MAX], buf[32];

	snprintf(path, sizeof(path), NVPC_PMU_DIR "/%s/type", name);
	return nvpc_read_file(path, buf, sizeof(buf)) > 0 ? atoi(buf) : -1;
}

FIXTURE(defer)
{
	char pmu[PATH_MAX];
	int type, cpu;
	int events, res, prog, probe, ev;
};

FIXTURE_SETUP(defer)
{
	self->events = -1;
	self->res = -1;
	self->prog = -1;
	self->probe = -1;
	self->ev = -1;
	sim_gpu_remove(GPU);
	ASSERT_EQ(0, sim_gpu_create(GPU, "g84"));
	self->type = nvpc_pmu_find(GPU, self->pmu, sizeof(self->pmu));
	ASSERT_LE(0, self->type);
	self->cpu = nvpc_pmu_num(self->pmu, "cpumask");
	ASSERT_LE(0, self->cpu);
}

FIXTURE_TEARDOWN(defer)
{
	/* the event first: nothing calls the probed function after it */
	if (self->ev >= 0)
		close(self->ev);
	if (self->probe >= 0)
		close(self->probe);
	if (self->prog >= 0)
		close(self->prog);
	if (self->res >= 0)
		close(self->res);
	if (self->events >= 0)
		close(self->events);
	sim_gpu_remove(GPU);
}

TEST_F(defer, read_inside_hold)
{
	static char log[65536];
	struct perf_event_attr pa = {
		.size = sizeof(pa),
		.sample_period = 1,
		.config1 = (__u64)(unsigned long)"nvpc_gen_read_ctrs",
	};
	struct result r, zero = { 0 };
	long long deferred, hits0;
	int kp = pmu_type("kprobe"), k;

	if (kp < 0)
		SKIP(return, "no kprobe PMU in this kernel");
	/* the debug kernel's config has no CONFIG_BPF_SYSCALL */
	if (access("/proc/sys/kernel/unprivileged_bpf_disabled", F_OK))
		SKIP(return, "no bpf(2) in this kernel (CONFIG_BPF_SYSCALL)");
	self->events = map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, NCPU_MAX);
	if (self->events < 0 && errno == EPERM)
		SKIP(return, "bpf(2) refused: %s", strerror(errno));
	ASSERT_LE(0, self->events);
	ASSERT_GT(NCPU_MAX, self->cpu);
	self->res = map_create(BPF_MAP_TYPE_ARRAY, sizeof(struct result), 1);
	ASSERT_LE(0, self->res);
	ASSERT_EQ(0, map_update(self->res, 0, &zero));
	self->prog = prog_load(self->events, self->res, log, sizeof(log));
	if (self->prog < 0)
		TH_LOG("verifier: %s", log);
	ASSERT_LE(0, self->prog);

	/* armed while nothing counts: nothing runs the function */
	pa.type = kp;
	self->probe = syscall(__NR_perf_event_open, &pa, -1, self->cpu, -1, 0);
	ASSERT_LE(0, self->probe) TH_LOG("kprobe: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(self->probe, PERF_EVENT_IOC_SET_BPF, self->prog));

	/* cycles of main.1, pinned: always on the PMU's CPU */
	self->ev = nvpc_ev_open_pinned(self->type, CFG_CYCLES, CFG1_DOM(0, 0, 1),
				       0, 1, -1);
	ASSERT_LE(0, self->ev);
	ASSERT_EQ(0, map_update(self->events, self->cpu, &self->ev));
	deferred = nvpc_pmu_num(self->pmu, "reads_deferred");
	ASSERT_LE(0, deferred);
	hits0 = 0;
	for (k = 1; k <= ROUNDS; k++) {
		ASSERT_EQ(0, sim_advance(GPU, 1000, "main.1"));
		EXPECT_EQ(1000ULL * k, nvpc_ev_count(self->ev));
		ASSERT_EQ(0, map_lookup(self->res, 0, &r));
		/* the read's hold read the event: one more deferred read */
		EXPECT_LT(hits0, r.hits);
		hits0 = r.hits;
		/* a count the event had: before this read's update, or
		 * after a poll that collected the round's cycles first
		 */
		if (r.last != 1000ULL * k)
			EXPECT_EQ(1000ULL * (k - 1), r.last);
	}
	ASSERT_EQ(0, map_lookup(self->res, 0, &r));
	TH_LOG("BPF reads inside the hold: %llu, failed (another CPU): %llu",
	       (unsigned long long)r.hits, (unsigned long long)r.errs);
	EXPECT_LE(ROUNDS, r.hits);
	EXPECT_EQ(deferred + (long long)r.hits,
		  nvpc_pmu_num(self->pmu, "reads_deferred"));
	/* the next read collected what the deferred reads left */
	ASSERT_EQ(0, sim_advance(GPU, 1000, "main.1"));
	EXPECT_EQ(1000ULL * (ROUNDS + 1), nvpc_ev_count(self->ev));
}

TEST_HARNESS_MAIN
