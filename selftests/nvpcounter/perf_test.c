// SPDX-License-Identifier: GPL-2.0
/*
 * perf counts on simulated GPUs, exact to the cycle.
 *
 * Every GPU runs in manual clock mode with known waveforms; the expected
 * counts are computed here from the documents' semantics
 * (envytools' pcounter.rst: "Input selection" for the truth table
 * and the delay bits, "Special counter modes" for B4/B6, "Quad event mode"
 * and "Single event mode"), never read back from the sim.
 *
 * Timeline of a manual-mode test: the events are opened at cycle C0 (no
 * cycle passes while perf_event_open() programs the domain and swaps),
 * the register writes are seen from cycle C0 on (Documentation/sim.rst,
 * "Time and clocks"), the test advances N cycles and reads: the read's swap
 * lands at the boundary, so a quad-mode event counts cycles [C0, C0 + N).
 */
#include <math.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <time.h>

#include "kselftest_harness.h"
#include "nvpc_perf.h"

#define MAX_FDS		32

/* One counter input as pcounter.rst "Input selection" computes it. */
struct input {
	struct nvpc_wave sig[4];
	__u16 op;
	__u8 opbits;		/* NVPC_CFG_OPBITS: bits 16-20 of _OP */
};

static int arg_at(const struct input *in, int j, __s64 c)
{
	/* bit 16/17: argument 0/1 is SRC[0]/SRC[1] of the previous cycle */
	if (j < 2 && (in->opbits & (1 << j)))
		return nvpc_wave_at(&in->sig[j], c - 1);
	/* G92+ PRE/START bit 18/19: argument 2/3 is SRC[0]/SRC[1] delayed */
	if (j >= 2 && (in->opbits & (1 << j)))
		return nvpc_wave_at(&in->sig[j - 2], c - 1);
	return nvpc_wave_at(&in->sig[j], c);
}

static int input_at(const struct input *in, __s64 c)
{
	int idx = 0, j;

	for (j = 0; j < 4; j++)
		idx |= arg_at(in, j, c) << j;
	return (in->op >> idx) & 1;
}

/* Cycles in [from, to) in which the input is 1. */
static __u64 expect_input(const struct input *in, __s64 from, __s64 to)
{
	__u64 n = 0;
	__s64 c;

	for (c = from; c < to; c++)
		n += input_at(in, c);
	return n;
}

/* The integer of a counter mode: bsig waves, low bit first. */
static unsigned int bint_at(const struct nvpc_wave *b, int nb, __s64 c)
{
	unsigned int v = 0;
	int j;

	for (j = 0; j < nb; j++)
		v |= nvpc_wave_at(&b[j], c) << j;
	return v;
}

/* Sum of the integer over [from, to), on the cycles @in is 1 if given. */
static __u64 expect_bsum(const struct nvpc_wave *b, int nb,
			 const struct input *in, __s64 from, __s64 to)
{
	__u64 n = 0;
	__s64 c;

	for (c = from; c < to; c++)
		if (!in || input_at(in, c))
			n += bint_at(b, nb, c);
	return n;
}

static __u64 input_config(const struct input *in, const int sig[4])
{
	return CFG_SIG(0, sig[0]) | CFG_SIG(1, sig[1]) | CFG_SIG(2, sig[2]) |
	       CFG_SIG(3, sig[3]) | CFG_OP(in->op) | CFG_OPBITS(in->opbits);
}

FIXTURE(perf) {
	int gpu;
	int gpu2;		/* a second GPU, or -1 */
	int type;
	char pmu[PATH_MAX];
	int fd[MAX_FDS];
	int nfd;
};

FIXTURE_SETUP(perf)
{
	int i;

	self->gpu = -1;
	self->gpu2 = -1;
	self->nfd = 0;
	for (i = 0; i < MAX_FDS; i++)
		self->fd[i] = -1;
}

FIXTURE_TEARDOWN(perf)
{
	int i;

	for (i = 0; i < self->nfd; i++)
		if (self->fd[i] >= 0)
			close(self->fd[i]);
	if (self->gpu >= 0)
		sim_gpu_remove(self->gpu);
	if (self->gpu2 >= 0)
		sim_gpu_remove(self->gpu2);
}

/* Create the GPU, every clock at 1 MHz so domains advance together. */
static int setup_gpu(struct _test_data_perf *self, const char *args)
{
	int ret;

	ret = sim_gpu_create(1, args);
	if (ret)
		return ret;
	self->gpu = 1;
	ret = sim_cmd(self->gpu, "clocks", "all 1000000");
	if (ret)
		return ret;
	self->type = nvpc_pmu_find(self->gpu, self->pmu, sizeof(self->pmu));
	return self->type < 0 ? -ENOENT : 0;
}

static int ev(struct _test_data_perf *self, __u64 config, __u64 config1,
	      __u64 config2, int group)
{
	int fd = nvpc_ev_open(self->type, config, config1, config2, group);

	if (fd >= 0 && self->nfd < MAX_FDS)
		self->fd[self->nfd++] = fd;
	return fd;
}

static int set_input_waves(struct _test_data_perf *self, const char *dom,
			   const struct input *in, const int sig[4])
{
	int j, ret;

	for (j = 0; j < 4; j++) {
		if (!sig[j])
			continue;
		ret = sim_wave(self->gpu, dom, sig[j], in->sig[j]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * G84, graph domain (main.1): one event on each of PRE/START/EVENT/STOP
 * with non-default truth tables and a delay bit, plus CTR_CYCLES.
 */
static void slots_exact(struct __test_metadata *_metadata,
			struct _test_data_perf *self, const char *chip,
			const char *dom, __u64 config1)
{
	/* signal 0 stays constant 0: the SRC registers' reset selection */
	static const int sig[4][4] = {
		{ 1, 0, 0, 0 }, { 2, 3, 0, 0 }, { 1, 2, 0, 0 }, { 3, 0, 0, 0 },
	};
	struct input in[4] = {
		/* PRE: signal 1, default table 0xaaaa = argument 0 */
		{ .sig = { WAVE_PERIODIC(7, 3, 2) }, .op = 0xaaaa },
		/* START: 2 AND 3: index bits 0 and 1 set -> 0x8888 */
		{ .sig = { WAVE_PERIODIC(10, 5, 0), WAVE_PERIODIC(3, 1, 0) },
		  .op = 0x8888 },
		/* EVENT: 1 XOR 2: index 1, 2 (mod 4) -> 0x6666 */
		{ .sig = { WAVE_PERIODIC(7, 3, 2), WAVE_PERIODIC(10, 5, 0) },
		  .op = 0x6666 },
		/* STOP: signal 3 delayed one cycle (bit 16) */
		{ .sig = { WAVE_PERIODIC(3, 1, 0) }, .op = 0xaaaa,
		  .opbits = 1 },
	};
	const __s64 c0 = 6, n1 = 100003, n2 = 77777;
	int fds[5], s;

	ASSERT_EQ(0, setup_gpu(self, chip));
	for (s = 0; s < 4; s++)
		ASSERT_EQ(0, set_input_waves(self, dom, &in[s], sig[s]));
	/*
	 * Warm up to cycle 6 so that "the previous cycle" of the delayed
	 * argument exists; signal 3 is 0 in cycle 5 (5 % 3 != 0), as is
	 * signal 0, selected before the program.
	 */
	ASSERT_EQ(0, sim_advance(self->gpu, c0, dom));
	for (s = 0; s < 4; s++) {
		fds[s] = ev(self, input_config(&in[s], sig[s]) | CFG_SLOT(s),
			    config1, 0, -1);
		ASSERT_LE(0, fds[s]);
	}
	fds[4] = ev(self, CFG_CYCLES, config1, 0, -1);
	ASSERT_LE(0, fds[4]);

	ASSERT_EQ(0, sim_advance(self->gpu, n1, dom));
	for (s = 0; s < 4; s++)
		EXPECT_EQ(expect_input(&in[s], c0, c0 + n1),
			  nvpc_ev_count(fds[s]));
	EXPECT_EQ((__u64)n1, nvpc_ev_count(fds[4]));

	/* counting goes on across reads */
	ASSERT_EQ(0, sim_advance(self->gpu, n2, dom));
	for (s = 0; s < 4; s++)
		EXPECT_EQ(expect_input(&in[s], c0, c0 + n1 + n2),
			  nvpc_ev_count(fds[s]));
	EXPECT_EQ((__u64)(n1 + n2), nvpc_ev_count(fds[4]));
}

TEST_F(perf, g84_slots_exact)
{
	slots_exact(_metadata, self, "g84", "main.1", CFG1_DOM(0, 0, 1));
}

TEST_F(perf, nv40_slots_exact)
{
	slots_exact(_metadata, self, "nv40", "main.0", CFG1_DOM(0, 0, 0));
}

TEST_F(perf, nv30_slots_exact)
{
	slots_exact(_metadata, self, "nv30", "main.1", CFG1_DOM(0, 0, 1));
}

TEST_F(perf, gt215_slots_exact)
{
	slots_exact(_metadata, self, "gt215", "main.1", CFG1_DOM(0, 0, 1));
}

TEST_F(perf, gf100_gpc_slots_exact)
{
	slots_exact(_metadata, self, "gf100 gpcs=2 parts=1", "gpc1.0",
		    CFG1_DOM(NVPC_DSET_ID_GPC, 1, 0));
}

/*
 * GT215 (G92+): bit 18 of PRE/START_OP makes argument 2 SRC[0] of the
 * previous cycle; the table 0xf0f0 counts argument 2 alone. Bit 17 delays
 * argument 1 on EVENT, table 0xcccc counts argument 1 alone.
 */
TEST_F(perf, gt215_replace_and_delay_bits)
{
	static const int s_start[4] = { 1, 0, 0, 0 }, s_event[4] = { 0, 2 };
	struct input start = { .sig = { WAVE_PERIODIC(5, 2, 0) },
			       .op = 0xf0f0, .opbits = 1 << 2 };
	struct input event = { .sig = { WAVE_CONST(0), WAVE_PERIODIC(9, 4, 0) },
			       .op = 0xcccc, .opbits = 1 << 1 };
	const __s64 c0 = 14, n = 50000;
	int fs, fe;

	ASSERT_EQ(0, setup_gpu(self, "gt215"));
	ASSERT_EQ(0, set_input_waves(self, "main.1", &start, s_start));
	ASSERT_EQ(0, set_input_waves(self, "main.1", &event, s_event));
	/*
	 * Both delayed signals are 0 in cycle 13 (13 % 5 = 3 >= 2,
	 * 13 % 9 = 4 >= 4), as is signal 0 that the inputs selected before:
	 * the first counted cycle sees 0 whichever selection it delays.
	 */
	ASSERT_EQ(0, sim_advance(self->gpu, c0, "main.1"));
	fs = ev(self, input_config(&start, s_start) | CFG_SLOT(NVPC_SLOT_START),
		CFG1_DOM(0, 0, 1), 0, -1);
	ASSERT_LE(0, fs);
	fe = ev(self, input_config(&event, s_event) | CFG_SLOT(NVPC_SLOT_EVENT),
		CFG1_DOM(0, 0, 1), 0, -1);
	ASSERT_LE(0, fe);
	ASSERT_EQ(0, sim_advance(self->gpu, n, "main.1"));
	EXPECT_EQ(expect_input(&start, c0, c0 + n), nvpc_ev_count(fs));
	EXPECT_EQ(expect_input(&event, c0, c0 + n), nvpc_ev_count(fe));
}

/*
 * NV20 has single-event mode only: the engine's endless program counts
 * from the third cycle after it is written (PRE_OP write, WAIT_FOR_PRE,
 * WAIT_FOR_START take cycles C0, C0 + 1, C0 + 2).
 */
TEST_F(perf, nv20_single_event_exact)
{
	static const int s0[4] = { 1 }, s1[4] = { 2 };
	struct input in0 = { .sig = { WAVE_PERIODIC(5, 2, 1) }, .op = 0xaaaa };
	struct input in1 = { .sig = { WAVE_CONST(1) }, .op = 0xaaaa };
	const __s64 c0 = 4, n1 = 20000, n2 = 3001;
	int f0, f1, fc0, fc1;

	ASSERT_EQ(0, setup_gpu(self, "nv20"));
	ASSERT_EQ(0, set_input_waves(self, "main.0", &in0, s0));
	ASSERT_EQ(0, set_input_waves(self, "main.1", &in1, s1));
	ASSERT_EQ(0, sim_advance(self->gpu, c0, "main.0"));
	f0 = ev(self, input_config(&in0, s0), CFG1_DOM(0, 0, 0), 0, -1);
	ASSERT_LE(0, f0);
	fc0 = ev(self, CFG_CYCLES, CFG1_DOM(0, 0, 0), 0, -1);
	ASSERT_LE(0, fc0);
	f1 = ev(self, input_config(&in1, s1), CFG1_DOM(0, 0, 1), 0, -1);
	ASSERT_LE(0, f1);
	fc1 = ev(self, CFG_CYCLES, CFG1_DOM(0, 0, 1), 0, -1);
	ASSERT_LE(0, fc1);

	ASSERT_EQ(0, sim_advance(self->gpu, n1, "main.0"));
	EXPECT_EQ(expect_input(&in0, c0 + 3, c0 + n1), nvpc_ev_count(f0));
	EXPECT_EQ((__u64)(n1 - 3), nvpc_ev_count(fc0));
	EXPECT_EQ((__u64)(n1 - 3), nvpc_ev_count(f1));
	EXPECT_EQ((__u64)(n1 - 3), nvpc_ev_count(fc1));
	ASSERT_EQ(0, sim_advance(self->gpu, n2, "main.0"));
	EXPECT_EQ(expect_input(&in0, c0 + 3, c0 + n1 + n2), nvpc_ev_count(f0));
	EXPECT_EQ((__u64)(n1 + n2 - 3), nvpc_ev_count(fc0));
	/* only one input per domain: explicit other slots are refused */
	EXPECT_EQ(-EINVAL, ev(self, CFG_SIG(0, 1) | CFG_SLOT(NVPC_SLOT_PRE),
			      CFG1_DOM(0, 0, 0), 0, -1));
	/* no counter modes before NV30 (START_SRC is no integer there) */
	EXPECT_EQ(-EINVAL, ev(self, CFG_SIG(0, 1) | CFG_MODE(NVPC_MODE_EVENT_B4),
			      CFG1_DOM(0, 0, 0), CFG2_BSIG(0, 1), -1));
}

/*
 * Counter modes on G84 (pcounter.rst, Special counter modes), one per
 * domain: B4 = bsig0..3, B6 = B4 + bsig4 << 4 + bsig5 << 5.
 */
TEST_F(perf, g84_counter_modes)
{
	static const struct nvpc_wave b[6] = {
		WAVE_CONST(1), WAVE_PERIODIC(2, 1, 0), WAVE_PERIODIC(5, 3, 1),
		WAVE_PERIODIC(3, 2, 1), WAVE_PERIODIC(7, 1, 3),
		WAVE_PERIODIC(4, 3, 0),
	};
	static const int bsig[6] = { 2, 3, 4, 5, 6, 7 }, evsig[4] = { 1 };
	struct input evin = { .sig = { WAVE_PERIODIC(4, 2, 1) }, .op = 0xaaaa };
	struct input simple = { .sig = { WAVE_PERIODIC(6, 1, 0) },
				.op = 0xaaaa };
	static const int simsig[4] = { 8 };
	static const char * const dom[4] = {
		"main.3", "main.4", "main.5", "main.6",
	};
	static const int mode[4] = {
		NVPC_MODE_EVENT_B4, NVPC_MODE_EVENT_B6, NVPC_MODE_EXTRA_B4,
		NVPC_MODE_EXTRA_B6,
	};
	const __s64 n = 40000;
	__u64 config2 = 0;
	int d, j, fd[4], fsimple;

	ASSERT_EQ(0, setup_gpu(self, "g84"));
	for (j = 0; j < 6; j++)
		config2 |= CFG2_BSIG(j, bsig[j]);
	for (d = 0; d < 4; d++) {
		for (j = 0; j < 6; j++)
			ASSERT_EQ(0, sim_wave(self->gpu, dom[d], bsig[j], b[j]));
		ASSERT_EQ(0, sim_wave(self->gpu, dom[d], 1, evin.sig[0]));
	}
	for (d = 0; d < 4; d++) {
		bool event_mode = mode[d] <= NVPC_MODE_EVENT_B6;
		int nb = mode[d] == NVPC_MODE_EVENT_B4 ||
			 mode[d] == NVPC_MODE_EXTRA_B4 ? 4 : 6;

		fd[d] = ev(self, (event_mode ? input_config(&evin, evsig) : 0) |
			   CFG_MODE(mode[d]), CFG1_DOM(0, 0, 3 + d),
			   config2 & ((1ULL << (8 * nb)) - 1), -1);
		ASSERT_LE(0, fd[d]);
	}
	/* EXTRA_B4 leaves CTR_EVENT simple: a plain event shares main.5 */
	ASSERT_EQ(0, set_input_waves(self, "main.5", &simple, simsig));
	fsimple = ev(self, input_config(&simple, simsig), CFG1_DOM(0, 0, 5), 0,
		     -1);
	ASSERT_LE(0, fsimple);
	/* EVENT_B4 and EXTRA_B4 both need START: not in one group */
	EXPECT_EQ(-EINVAL, ({
		int g = ev(self, CFG_SIG(0, 1) | CFG_MODE(NVPC_MODE_EVENT_B4),
			   CFG1_DOM(0, 0, 7), config2 & 0xffffffff, -1);
		ev(self, CFG_MODE(NVPC_MODE_EXTRA_B4), CFG1_DOM(0, 0, 7),
		   config2 & 0xffffffff, g);
	}));

	ASSERT_EQ(0, sim_advance(self->gpu, n, "main.3"));
	EXPECT_EQ(expect_bsum(b, 4, &evin, 0, n), nvpc_ev_count(fd[0]));
	EXPECT_EQ(expect_bsum(b, 6, &evin, 0, n), nvpc_ev_count(fd[1]));
	EXPECT_EQ(expect_bsum(b, 4, NULL, 0, n), nvpc_ev_count(fd[2]));
	EXPECT_EQ(expect_bsum(b, 6, NULL, 0, n), nvpc_ev_count(fd[3]));
	EXPECT_EQ(expect_input(&simple, 0, n), nvpc_ev_count(fsimple));
}

/* NV30: EVENT_B4 through the shared CTRL, while domain 1 counts PRE. */
TEST_F(perf, nv30_event_b4_shared_ctrl)
{
	static const struct nvpc_wave b[4] = {
		WAVE_PERIODIC(2, 1, 1), WAVE_CONST(1), WAVE_PERIODIC(3, 1, 0),
		WAVE_PERIODIC(8, 5, 2),
	};
	static const int evsig[4] = { 1 }, presig[4] = { 6 };
	struct input evin = { .sig = { WAVE_PERIODIC(3, 2, 0) }, .op = 0xaaaa };
	struct input pre = { .sig = { WAVE_PERIODIC(4, 1, 0) }, .op = 0xaaaa };
	const __s64 n = 30000;
	__u64 config2 = 0;
	int j, fb, fp;

	ASSERT_EQ(0, setup_gpu(self, "nv30"));
	for (j = 0; j < 4; j++) {
		config2 |= CFG2_BSIG(j, 2 + j);
		ASSERT_EQ(0, sim_wave(self->gpu, "main.0", 2 + j, b[j]));
	}
	ASSERT_EQ(0, set_input_waves(self, "main.0", &evin, evsig));
	ASSERT_EQ(0, set_input_waves(self, "main.1", &pre, presig));
	fb = ev(self, input_config(&evin, evsig) | CFG_MODE(NVPC_MODE_EVENT_B4),
		CFG1_DOM(0, 0, 0), config2, -1);
	ASSERT_LE(0, fb);
	fp = ev(self, input_config(&pre, presig) | CFG_SLOT(NVPC_SLOT_PRE),
		CFG1_DOM(0, 0, 1), 0, -1);
	ASSERT_LE(0, fp);
	/* the other domain's EVENT would count B4 too: it stays empty */
	EXPECT_EQ(-EINVAL, ({
		int g = ev(self, input_config(&evin, evsig) |
			   CFG_MODE(NVPC_MODE_EVENT_B4), CFG1_DOM(0, 0, 1),
			   config2, -1);
		ev(self, CFG_SIG(0, 1) | CFG_SLOT(NVPC_SLOT_EVENT),
		   CFG1_DOM(0, 0, 0), 0, g);
	}));
	/* EVENT_B6 is NV40+ */
	EXPECT_EQ(-EINVAL, ev(self, CFG_SIG(0, 1) | CFG_MODE(NVPC_MODE_EVENT_B6),
			      CFG1_DOM(0, 0, 1), config2, -1));
	ASSERT_EQ(0, sim_advance(self->gpu, n, "main.0"));
	EXPECT_EQ(expect_bsum(b, 4, &evin, 0, n), nvpc_ev_count(fb));
	EXPECT_EQ(expect_input(&pre, 0, n), nvpc_ev_count(fp));
}

/* All eight G84 domains at once, each with an input and its cycles. */
TEST_F(perf, g84_eight_domains)
{
	struct input in[8];
	static const int sig[4] = { 1 };
	const __s64 n = 65537;
	int d, fd[8], fc[8];
	char name[16];

	ASSERT_EQ(0, setup_gpu(self, "g84"));
	for (d = 0; d < 8; d++) {
		in[d] = (struct input){ .sig = { WAVE_PERIODIC(d + 2, 1, d) },
					.op = 0xaaaa };
		snprintf(name, sizeof(name), "main.%d", d);
		ASSERT_EQ(0, set_input_waves(self, name, &in[d], sig));
	}
	for (d = 0; d < 8; d++) {
		fd[d] = ev(self, input_config(&in[d], sig), CFG1_DOM(0, 0, d),
			   0, -1);
		ASSERT_LE(0, fd[d]);
		fc[d] = ev(self, CFG_CYCLES, CFG1_DOM(0, 0, d), 0, -1);
		ASSERT_LE(0, fc[d]);
	}
	ASSERT_EQ(0, sim_advance(self->gpu, n, "main.0"));
	for (d = 0; d < 8; d++) {
		EXPECT_EQ(expect_input(&in[d], 0, n), nvpc_ev_count(fd[d]));
		EXPECT_EQ((__u64)n, nvpc_ev_count(fc[d]));
	}
}

/*
 * 2^36 cycles, 16 times what a 32-bit counter holds: advanced in periods
 * of 2^31 cycles, each ended by a read. Signal 1 is 1 on every cycle,
 * signal 2 on cycles divisible by 3: floor((2^36 - 1) / 3) + 1 of them.
 * Every domain counts its cycles (all eight in quad mode, which the sim
 * advances in constant time for periodic sources).
 */
TEST_F_TIMEOUT(perf, g84_exact_past_2_36, 600)
{
	const __u64 total = 1ULL << 36, step = 1ULL << 31;
	__u64 done;
	int f1, f2, fc[8], d;

	ASSERT_EQ(0, setup_gpu(self, "g84"));
	ASSERT_EQ(0, sim_wave(self->gpu, "main.0", 1, WAVE_CONST(1)));
	ASSERT_EQ(0, sim_wave(self->gpu, "main.0", 2, WAVE_PERIODIC(3, 1, 0)));
	f1 = ev(self, CFG_SIG(0, 1), CFG1_DOM(0, 0, 0), 0, -1);
	ASSERT_LE(0, f1);
	f2 = ev(self, CFG_SIG(0, 2), CFG1_DOM(0, 0, 0), 0, -1);
	ASSERT_LE(0, f2);
	for (d = 0; d < 8; d++) {
		fc[d] = ev(self, CFG_CYCLES, CFG1_DOM(0, 0, d), 0, -1);
		ASSERT_LE(0, fc[d]);
	}
	/*
	 * A read samples its own domain (G84 swaps each domain on its own):
	 * read every domain within 2^32 cycles, as the poll does in real
	 * time, so that none saturates
	 */
	for (done = 0; done < total; done += step) {
		ASSERT_EQ(0, sim_advance(self->gpu, step, "main.0"));
		nvpc_ev_count(f1);
		for (d = 1; d < 8; d++)
			nvpc_ev_count(fc[d]);
	}
	EXPECT_EQ(total, nvpc_ev_count(f1));
	EXPECT_EQ((total - 1) / 3 + 1, nvpc_ev_count(f2));
	for (d = 0; d < 8; d++)
		EXPECT_EQ(total, nvpc_ev_count(fc[d]));
	EXPECT_EQ(0, nvpc_pmu_num(self->pmu, "domains/main.0/saturations"));
}

/* A period over 2^32 - 1 cycles saturates: counted, never added. */
TEST_F_TIMEOUT(perf, g84_saturation_shown_not_counted, 300)
{
	const __u64 n = (1ULL << 32) + 5;
	int f1, d;

	ASSERT_EQ(0, setup_gpu(self, "g84"));
	ASSERT_EQ(0, sim_wave(self->gpu, "main.0", 1, WAVE_CONST(1)));
	f1 = ev(self, CFG_SIG(0, 1), CFG1_DOM(0, 0, 0), 0, -1);
	ASSERT_LE(0, f1);
	/* the other domains in quad mode too: the sim skips through them */
	for (d = 1; d < 8; d++)
		ASSERT_LE(0, ev(self, CFG_CYCLES, CFG1_DOM(0, 0, d), 0, -1));
	ASSERT_EQ(0, sim_advance(self->gpu, 1000, "main.0"));
	EXPECT_EQ(1000, nvpc_ev_count(f1));
	ASSERT_EQ(0, sim_advance(self->gpu, n, "main.0"));
	/* the 0xffffffff period is left out: still 1000 */
	EXPECT_EQ(1000, nvpc_ev_count(f1));
	/* the event's counter and CTR_CYCLES both read 0xffffffff */
	EXPECT_EQ(2, nvpc_pmu_num(self->pmu, "domains/main.0/saturations"));
	ASSERT_EQ(0, sim_advance(self->gpu, 10, "main.0"));
	EXPECT_EQ(1010, nvpc_ev_count(f1));
}

/* Injected lost swaps (QUAD_STATE OVERFLOW) are counted in sysfs. */
TEST_F(perf, g84_lost_swaps_exposed)
{
	int f1, i;

	ASSERT_EQ(0, setup_gpu(self, "g84"));
	ASSERT_EQ(0, sim_wave(self->gpu, "main.0", 1, WAVE_PERIODIC(2, 1, 0)));
	f1 = ev(self, CFG_SIG(0, 1), CFG1_DOM(0, 0, 0), 0, -1);
	ASSERT_LE(0, f1);
	EXPECT_EQ(0, nvpc_pmu_num(self->pmu,
				  "domains/main.0/lost_periods"));
	ASSERT_EQ(0, sim_cmd(self->gpu, "fault", "lost_swaps main.0 3"));
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(0, sim_advance(self->gpu, 100, "main.0"));
		/*
		 * OVERFLOW says the set before the visible one was lost;
		 * the visible one is the newest period and still counts
		 */
		EXPECT_EQ((__u64)(i + 1) * 50, nvpc_ev_count(f1));
	}
	EXPECT_EQ(3, nvpc_pmu_num(self->pmu, "domains/main.0/lost_periods"));
	EXPECT_EQ(0, nvpc_pmu_num(self->pmu,
				  "domains/main.0/not_responding"));
}

/* "reads N" of the sim's register access counts (Documentation/sim.rst) */
static long long sim_reads(int gpu)
{
	char path[PATH_MAX], buf[4096], *p;

	snprintf(path, sizeof(path), NVPC_SIM_DIR "/gpu%d/stats", gpu);
	if (nvpc_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, "reads ", 6))
			return strtoll(p + 6, NULL, 0);
	return -1;
}

/*
 * A swap that has not landed when its domain is first polled is a
 * straggler, counted in domains/X/stragglers; the stragglers of one
 * sample share 8 more polls. With QUAD_STATE stuck at EMPTY in all five
 * domains of an NV40 (one PM_TRIGGER pulse swaps them all), a read costs
 * 5 + 8 polls of CTR_CYCLES and CTRL (it was 8 polls per domain: 80
 * reads), and the periods that never showed up are not_responding.
 */
TEST_F(perf, nv40_stragglers_share_bounded_polls)
{
	char file[64];
	long long r0, r1;
	int fd[5], i;

	ASSERT_EQ(0, setup_gpu(self, "nv40"));
	for (i = 0; i < 5; i++) {
		fd[i] = ev(self, CFG_CYCLES, CFG1_DOM(0, 0, i), 0, -1);
		ASSERT_LE(0, fd[i]);
	}
	/* swaps land at once (manual clock): no straggler */
	ASSERT_EQ(0, sim_advance(self->gpu, 100, "main.0"));
	EXPECT_EQ(100, nvpc_ev_count(fd[0]));
	for (i = 0; i < 5; i++) {
		snprintf(file, sizeof(file), "domains/main.%d/stragglers", i);
		EXPECT_EQ(0, nvpc_pmu_num(self->pmu, file));
		/* CTRL[i] reads QUAD mode, QUAD_STATE EMPTY from now on */
		ASSERT_EQ(0, sim_cmd(self->gpu, "fault", "stuck 0x%x 0x1",
				     0xa7c0 + 4 * i));
	}
	r0 = sim_reads(self->gpu);
	ASSERT_LE(0, r0);
	EXPECT_EQ(100, nvpc_ev_count(fd[0]));
	r1 = sim_reads(self->gpu);
	TH_LOG("one read with five stragglers: %lld register reads", r1 - r0);
	EXPECT_GE(2 * (5 + 8), r1 - r0);
	for (i = 0; i < 5; i++) {
		snprintf(file, sizeof(file), "domains/main.%d/stragglers", i);
		EXPECT_EQ(1, nvpc_pmu_num(self->pmu, file));
		snprintf(file, sizeof(file), "domains/main.%d/not_responding",
			 i);
		EXPECT_EQ(1, nvpc_pmu_num(self->pmu, file));
	}
	ASSERT_EQ(0, sim_cmd(self->gpu, "fault", "unstick"));
}

/*
 * A domain that enters quad mode right after a PGRAPH PM_TRIGGER pulse
 * (NV30:G84: one pulse swaps every domain, seen at each domain's next
 * cycle, pcounter.rst "Quad event mode") may be swapped by that pulse
 * once it is in quad mode: its first read finds OVERFLOW, though none of
 * its events had counted yet. That is no lost period. On a fresh GPU at
 * its catalogue's clocks in real time (domains of other clocks, whose
 * next cycle comes later), each domain's cycles opened one after the
 * other (each open a pulse), five times: every domain counts, and
 * lost_periods stays 0 in each (before: main.1 of an NV30 counted one
 * in 7 of 7 such starts; nvpc doctor --hardware saw it on the last
 * domain of a fresh NV30 and NV40). The manual clock does not show it:
 * its swaps land at the access that looks.
 */
static void global_swap_start(struct _test_data_perf *self,
			      struct __test_metadata *_metadata,
			      const char *chip, int nr)
{
	char args[64], file[64];
	int fd[5], i, k;
	long long lost;

	snprintf(args, sizeof(args), "%s clock=realtime", chip);
	for (k = 0; k < 5; k++) {
		ASSERT_EQ(0, sim_gpu_create(1, args));
		self->gpu = 1;
		self->type = nvpc_pmu_find(self->gpu, self->pmu,
					   sizeof(self->pmu));
		ASSERT_LE(0, self->type);
		for (i = 0; i < nr; i++) {
			fd[i] = nvpc_ev_open(self->type, CFG_CYCLES,
					     CFG1_DOM(0, 0, i), 0, -1);
			ASSERT_LE(0, fd[i]);
		}
		usleep(100000);
		for (i = 0; i < nr; i++) {
			EXPECT_LT(0, nvpc_ev_count(fd[i]));
			close(fd[i]);
			snprintf(file, sizeof(file),
				 "domains/main.%d/lost_periods", i);
			lost = nvpc_pmu_num(self->pmu, file);
			if (lost)
				TH_LOG("%s start %d: main.%d lost %lld", chip,
				       k, i, lost);
			EXPECT_EQ(0, lost);
		}
		ASSERT_EQ(0, sim_gpu_remove(self->gpu));
		self->gpu = -1;
	}
}

TEST_F(perf, nv30_start_after_pulse_no_lost_period)
{
	global_swap_start(self, _metadata, "nv30", 2);
}

TEST_F(perf, nv40_start_after_pulse_no_lost_period)
{
	global_swap_start(self, _metadata, "nv40", 5);
}

/*
 * NV30:G84 have one swap trigger for every domain (PGRAPH PM_TRIGGER,
 * pcounter.rst "Quad event mode"): the sample a group read takes for its
 * first member swaps and collects all five domains of an NV40, and the
 * members of the other four count up to that same sample. 50 reads of a
 * cpu-clock-led group of the five domains' cycles are 50 swaps (a poll
 * may add a few), not 250; and each member counts exactly the 100 cycles
 * advanced before each read.
 */
TEST_F(perf, nv40_group_read_one_global_swap)
{
	struct perf_event_attr clock = {
		.size = sizeof(clock),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.read_format = PERF_FORMAT_GROUP,
	};
	struct { __u64 nr, v[6]; } r;
	long long s0, s1;
	int lead, i, k, cpu;

	ASSERT_EQ(0, setup_gpu(self, "nv40"));
	cpu = nvpc_pmu_num(self->pmu, "cpumask");
	lead = syscall(__NR_perf_event_open, &clock, -1, cpu, -1, 0);
	ASSERT_LE(0, lead);
	self->fd[self->nfd++] = lead;
	for (i = 0; i < 5; i++)
		ASSERT_LE(0, ev(self, CFG_CYCLES, CFG1_DOM(0, 0, i), 0, lead));
	s0 = nvpc_pmu_num(self->pmu, "domains/main.3/samples");
	for (k = 1; k <= 50; k++) {
		ASSERT_EQ(0, sim_advance(self->gpu, 100, "main.0"));
		ASSERT_EQ(sizeof(r), read(lead, &r, sizeof(r)));
		ASSERT_EQ(6, r.nr);
		for (i = 1; i <= 5; i++)
			ASSERT_EQ(100 * k, r.v[i]) TH_LOG("read %d member %d", k, i);
	}
	s1 = nvpc_pmu_num(self->pmu, "domains/main.3/samples");
	TH_LOG("50 group reads of 5 domains: %lld samples of main.3", s1 - s0);
	EXPECT_LE(50, s1 - s0);
	EXPECT_GT(100, s1 - s0);
}

/*
 * A group a GPU event leads, read with PERF_FORMAT_GROUP (perf stat's
 * groups, nvpc top's idle/cycles): perf reads the leader, then each
 * member, in one call; members of one domain are one snapshot
 * (perf.rst "Sampling"). On the real-time clock (1 MHz, cycles running
 * between register accesses) a signal held at 1 counts exactly the
 * cycles beside it, a signal held at 0 nothing, and one high 1 of 4
 * cycles a quarter of them to within one period: at 20 reads 50 ms
 * apart. Read one by one each member would be its own swap, and the
 * counts of a running clock would part.
 */
TEST_F(perf, gpu_led_group_one_snapshot)
{
	struct { __u64 nr, v[4]; } r;
	__u64 prev[4] = { 0 };
	struct perf_event_attr a = {
		.size = sizeof(a),
		.read_format = PERF_FORMAT_GROUP,
		.config = CFG_CYCLES,
		.config1 = CFG1_DOM(0, 0, 1),
	};
	int lead, k;

	ASSERT_EQ(0, setup_gpu(self, "g84"));
	ASSERT_EQ(0, sim_wave(self->gpu, "main.1", 0x10, WAVE_CONST(1)));
	ASSERT_EQ(0, sim_wave(self->gpu, "main.1", 0x11, WAVE_CONST(0)));
	ASSERT_EQ(0, sim_wave(self->gpu, "main.1", 0x12,
			      WAVE_PERIODIC(4, 1, 0)));
	a.type = self->type;
	lead = nvpc_attr_open(&a, -1, nvpc_pmu_num(self->pmu, "cpumask"));
	ASSERT_LE(0, lead);
	self->fd[self->nfd++] = lead;
	a.read_format = 0;
	a.config = CFG_SIG(0, 0x10);
	ASSERT_LE(0, syscall(__NR_perf_event_open, &a, -1,
			     nvpc_pmu_num(self->pmu, "cpumask"), lead, 0));
	a.config = CFG_SIG(0, 0x11);
	ASSERT_LE(0, syscall(__NR_perf_event_open, &a, -1,
			     nvpc_pmu_num(self->pmu, "cpumask"), lead, 0));
	a.config = CFG_SIG(0, 0x12);
	ASSERT_LE(0, syscall(__NR_perf_event_open, &a, -1,
			     nvpc_pmu_num(self->pmu, "cpumask"), lead, 0));
	ASSERT_EQ(0, sim_cmd(self->gpu, "clock", "realtime"));
	for (k = 0; k < 20; k++) {
		__u64 d[4];
		int i;

		usleep(50000);
		ASSERT_EQ(sizeof(r), read(lead, &r, sizeof(r)));
		ASSERT_EQ(4, r.nr);
		for (i = 0; i < 4; i++) {
			d[i] = r.v[i] - prev[i];
			prev[i] = r.v[i];
		}
		EXPECT_EQ(d[0], d[1])
			TH_LOG("read %d: %llu cycles, %llu of signal 0x10", k,
			       d[0], d[1]);
		EXPECT_EQ(0, d[2]);
		EXPECT_GE(1, d[0] / 4 > d[3] ? d[0] / 4 - d[3] :
			     d[3] - d[0] / 4) TH_LOG("read %d: %llu of %llu", k,
						      d[3], d[0]);
	}
	EXPECT_LT(100000, prev[0]);
	ASSERT_EQ(0, sim_cmd(self->gpu, "clock", "manual"));
}

/* A group needing five slots of one domain is refused at open. */
TEST_F(perf, group_of_five_slots_refused)
{
	int lead, s, fd;

	ASSERT_EQ(0, setup_gpu(self, "g84"));
	lead = ev(self, CFG_SIG(0, 1), CFG1_DOM(0, 0, 1), 0, -1);
	ASSERT_LE(0, lead);
	for (s = 0; s < 3; s++) {
		fd = ev(self, CFG_SIG(0, 2 + s), CFG1_DOM(0, 0, 1), 0, lead);
		ASSERT_LE(0, fd);
	}
	/* cycles need no slot: a group of four inputs plus cycles fits */
	fd = ev(self, CFG_CYCLES, CFG1_DOM(0, 0, 1), 0, lead);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EINVAL, ev(self, CFG_SIG(0, 6), CFG1_DOM(0, 0, 1), 0, lead));
	/* the same in another domain fits */
	EXPECT_LE(0, ev(self, CFG_SIG(0, 6), CFG1_DOM(0, 0, 2), 0, lead));
}

/* The sim's statistics that tell how real time went (sim.rst "stats"). */
static void log_rt_stats(struct __test_metadata *_metadata, int gpu)
{
	static const char *const keys[] = {
		"rt_behind", "rt_behind_max_ns", "rt_access_max_ns",
		"rt_skipped_ns", "posted_writes", "work", "ns_per_work",
	};
	char path[PATH_MAX], buf[1024], *line, *save;
	unsigned int k;

	snprintf(path, sizeof(path), NVPC_SIM_DIR "/gpu%d/stats", gpu);
	if (nvpc_read_file(path, buf, sizeof(buf)) <= 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		for (k = 0; k < ARRAY_SIZE(keys); k++)
			if (!strncmp(line, keys[k], strlen(keys[k])) &&
			    line[strlen(keys[k])] == ' ')
				TH_LOG("sim stats: %s", line);
}

/*
 * Six events in one domain share four slots: perf multiplexes them at its
 * default rotation interval (a new PMU's perf_event_mux_interval_ms, not
 * set here: 4 ms) and scales by time_enabled / time_running. Each event
 * counts a steady periodic signal of main.0 whose share of the cycles is
 * known from its waveform (Documentation/sim.rst "Waveforms": 1 iff
 * (c + PHASE) % PERIOD < WIDTH, so WIDTH / PERIOD of the cycles), all
 * different, so that counts landing on another event show; a pinned
 * cycles event of main.0 (CTR_CYCLES needs no slot, a pinned event is
 * never rotated out) counts the domain's cycles over the same time. Each
 * scaled count must be within 1% of share x cycles, as perf stat -I shows
 * it: the 15 s are read as five 3 s segments, and the median of an
 * event's five segment errors must be within the bound. The median, not
 * the worst: the arriving event counts the leaving one's signal between a
 * rotation's swap and its input writes (Documentation/sim.rst "Known
 * limit"), tens of microseconds under TCG, but as long as the host keeps
 * the emulator's vCPU off its CPU there; one such stall of 50 ms after
 * the 1/1 event left moves the 3/8 event's count 0.8% over 10 s of
 * running time. A defect of the driver's scaling or swaps shows in every
 * segment; the host's scheduling in one. Every segment's error and the
 * whole run's are logged. The sim runs in real time, on two GPUs at once
 * (multiplex_six_within_one_percent). A rotation's register accesses take
 * about 1 ms of the 4 ms under TCG: the one swap of a commit ends the
 * events leaving and starts those arriving, so none of that time is lost
 * (with a swap for each, the scaled counts of a constant signal were
 * 2.5-4.5% low).
 */
/*
 * The bound on a scaled multiplexed count (issue 12): 1% on the target
 * kernels. The debug kernel (tools/testing/debugkernel, release
 * "*-nvpc-debug") is a checker, not a target: KASAN and lockdep make every
 * register access and every rotation about ten times slower under TCG
 * (1.4% measured once), so there it only checks that scaling works: 3%.
 */
static double mux_bound(void)
{
	struct utsname u;
	size_t n;

	if (uname(&u))
		return 0.01;
	n = strlen(u.release);
	if (n > 11 && !strcmp(u.release + n - 11, "-nvpc-debug"))
		return 0.03;
	return 0.01;
}

/* Scaled count of @v against the truth from the pinned cycles @vc. */
static double mux_err(const struct nvpc_val *v, const struct nvpc_val *vc,
		      int width, int period)
{
	double scaled, truth;

	scaled = (double)v->count * v->enabled / v->running;
	/* share x the cycles over this event's own enabled time */
	truth = (double)vc->count * v->enabled / vc->enabled * width / period;
	return (scaled - truth) / truth;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define MUX_SEGS	5
#define MUX_SEG_S	3

/* One GPU of multiplex_six(): its clocks, events and readings. */
struct mux_gpu {
	int gpu;
	const char *hz;		/* every clock at hz, or NULL: the catalogue's */
	int type;
	char pmu[PATH_MAX];
	int fc, fd[6];
	struct nvpc_val v[6][MUX_SEGS + 1], vc[MUX_SEGS + 1];
};

static const struct { int period, width; } mux_wv[6] = {
	{ 2, 1 }, { 4, 1 }, { 5, 2 }, { 8, 3 }, { 10, 7 }, { 1, 1 },
};

static void mux_setup(struct __test_metadata *_metadata,
		      struct _test_data_perf *self, struct mux_gpu *m)
{
	struct perf_event_attr attr = {
		.config = CFG_CYCLES, .config1 = CFG1_DOM(0, 0, 0),
		.pinned = 1, .read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
					    PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	char mux[PATH_MAX], ms[32];
	int i;

	ASSERT_EQ(0, sim_gpu_create(m->gpu, "g84"));
	if (self->gpu < 0)
		self->gpu = m->gpu;
	else
		self->gpu2 = m->gpu;
	if (m->hz)
		ASSERT_EQ(0, sim_cmd(m->gpu, "clocks", "all %s", m->hz));
	m->type = nvpc_pmu_find(m->gpu, m->pmu, sizeof(m->pmu));
	ASSERT_LE(0, m->type);
	TH_LOG("gpu %d main.0 nominal_hz %lld (%s)", m->gpu,
	       nvpc_pmu_num(m->pmu, "domains/main.0/nominal_hz"),
	       m->hz ? "every clock set" : "the catalogue's clocks");
	snprintf(mux, sizeof(mux), "%s/perf_event_mux_interval_ms", m->pmu);
	ASSERT_LT(0, nvpc_read_file(mux, ms, sizeof(ms)));
	TH_LOG("gpu %d rotation interval %d ms (perf's default)", m->gpu,
	       atoi(ms));
	for (i = 0; i < 6; i++)
		ASSERT_EQ(0, sim_wave(m->gpu, "main.0", 1 + i,
				      WAVE_PERIODIC(mux_wv[i].period,
						    mux_wv[i].width, 0)));
	ASSERT_EQ(0, sim_cmd(m->gpu, "clock", "realtime"));
	attr.type = m->type;
	m->fc = nvpc_attr_open(&attr, -1, 0);
	ASSERT_LE(0, m->fc);
	self->fd[self->nfd++] = m->fc;
	self->type = m->type;
	for (i = 0; i < 6; i++) {
		m->fd[i] = ev(self, CFG_SIG(0, 1 + i) | CFG_OP(0xaaaa),
			      CFG1_DOM(0, 0, 0), 0, -1);
		ASSERT_LE(0, m->fd[i]);
	}
}

static void mux_check(struct __test_metadata *_metadata, struct mux_gpu *m)
{
	struct nvpc_val d, dc;
	double err, seg[MUX_SEGS], worst = 0;
	int i, k;

	ASSERT_EQ(m->vc[MUX_SEGS].enabled, m->vc[MUX_SEGS].running);
	ASSERT_LT(100000, m->vc[MUX_SEGS].count);
	TH_LOG("gpu %d main.0 measured clock_hz %lld", m->gpu,
	       nvpc_pmu_num(m->pmu, "domains/main.0/clock_hz"));
	for (i = 0; i < 6; i++) {
		for (k = 0; k < MUX_SEGS; k++) {
			d.count = m->v[i][k + 1].count - m->v[i][k].count;
			d.enabled = m->v[i][k + 1].enabled - m->v[i][k].enabled;
			d.running = m->v[i][k + 1].running - m->v[i][k].running;
			dc.count = m->vc[k + 1].count - m->vc[k].count;
			dc.enabled = m->vc[k + 1].enabled - m->vc[k].enabled;
			ASSERT_LT(0, d.running);
			ASSERT_LT(0, dc.enabled);
			/* multiplexed: it did not run all the time */
			EXPECT_LT(d.running, d.enabled);
			seg[k] = fabs(mux_err(&d, &dc, mux_wv[i].width,
					      mux_wv[i].period));
		}
		err = mux_err(&m->v[i][MUX_SEGS], &m->vc[MUX_SEGS],
			      mux_wv[i].width, mux_wv[i].period);
		TH_LOG("gpu %d ev %d (%d/%d): %llu en %llu run %llu: %.3f%%",
		       m->gpu, i, mux_wv[i].width, mux_wv[i].period,
		       m->v[i][MUX_SEGS].count, m->v[i][MUX_SEGS].enabled,
		       m->v[i][MUX_SEGS].running, 100 * err);
		TH_LOG("gpu %d ev %d segments %.3f %.3f %.3f %.3f %.3f%%",
		       m->gpu, i, 100 * seg[0], 100 * seg[1], 100 * seg[2],
		       100 * seg[3], 100 * seg[4]);
		qsort(seg, MUX_SEGS, sizeof(seg[0]), cmp_double);
		EXPECT_GT(mux_bound(), seg[MUX_SEGS / 2]) {
			TH_LOG("gpu %d ev %d: median segment error %.3f%%",
			       m->gpu, i, 100 * seg[MUX_SEGS / 2]);
		}
		worst = fabs(err) > fabs(worst) ? err : worst;
	}
	TH_LOG("gpu %d worst over the whole run %.3f%%", m->gpu, 100 * worst);
	log_rt_stats(_metadata, m->gpu);
}

/*
 * Two G84s multiplex at once, each on its own PMU with its own rotation
 * timer: GPU 1 with every clock at 100 kHz, GPU 2 at the catalogue's
 * clocks, as the demo and users run a simulated G84 (main.0 at 100 MHz),
 * where every rotation reprograms main.0's inputs and the sim's
 * real-time accesses must still keep the model at the wall time
 * (sim_fast.c "DOC: memoryless quad-mode domains"). Both are read at the
 * start and the end of every segment, as perf stat -I reads its events.
 */
TEST_F_TIMEOUT(perf, multiplex_six_within_one_percent, 120)
{
	static struct mux_gpu m[2] = {
		{ .gpu = 1, .hz = "100000" }, { .gpu = 2, .hz = NULL },
	};
	int g, i, k;

	for (g = 0; g < 2; g++)
		mux_setup(_metadata, self, &m[g]);
	for (k = 0; k <= MUX_SEGS; k++) {
		if (k)
			sleep(MUX_SEG_S);
		for (g = 0; g < 2; g++) {
			ASSERT_EQ(0, nvpc_ev_read(m[g].fc, &m[g].vc[k]));
			for (i = 0; i < 6; i++)
				ASSERT_EQ(0, nvpc_ev_read(m[g].fd[i],
							  &m[g].v[i][k]));
		}
	}
	for (g = 0; g < 2; g++) {
		for (i = 0; i < 6; i++)
			ioctl(m[g].fd[i], PERF_EVENT_IOC_DISABLE, 0);
		ioctl(m[g].fc, PERF_EVENT_IOC_DISABLE, 0);
	}
	for (g = 0; g < 2; g++)
		mux_check(_metadata, &m[g]);
}

/*
 * perf leaves a PMU's multiplexing hrtimers armed after a write of
 * perf_event_mux_interval_ms; removing the GPU right after must wait for
 * them (the runner fails the run on any oops in the guest log).
 */
TEST_F(perf, remove_right_after_mux_interval_write)
{
	char mux[PATH_MAX];
	struct stat st;

	ASSERT_EQ(0, setup_gpu(self, "gt215"));
	snprintf(mux, sizeof(mux), "%s/perf_event_mux_interval_ms", self->pmu);
	/* armed for a second; the shorter interval does not re-arm them */
	ASSERT_EQ(0, nvpc_write(mux, "1000"));
	ASSERT_EQ(0, nvpc_write(mux, "30"));
	ASSERT_EQ(0, sim_gpu_remove(self->gpu));
	self->gpu = -1;
	usleep(300000);
	EXPECT_NE(0, stat(self->pmu, &st));
	/* a new GPU's PMU may reuse the freed per-CPU memory */
	ASSERT_EQ(0, setup_gpu(self, "gt215"));
	usleep(1200000);
}

/* Armed multiplexing hrtimers of every PMU, from /proc/timer_list. */
static int mux_timers_armed(void)
{
	FILE *f = fopen("/proc/timer_list", "r");
	char line[512];
	int n = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "perf_mux_hrtimer_handler"))
			n++;
	fclose(f);
	return n;
}

/*
 * Why nvpc_pmu_cancel_mux_timers() reaches into perf's contexts: a write
 * of perf_event_mux_interval_ms arms the PMU's multiplexing hrtimer on
 * every online CPU although no event is open, and perf_pmu_unregister()
 * (6.1, 6.12) would free them armed. Here they expire within 1000 s; right
 * after the GPU's removal none of them is left.
 */
TEST_F(perf, mux_interval_write_arms_timers_removal_cancels_them)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int base, armed, after, ms;
	char mux[PATH_MAX];
	struct stat st;

	ASSERT_EQ(0, setup_gpu(self, "gt215"));
	base = mux_timers_armed();
	if (base < 0)
		SKIP(return, "no /proc/timer_list (%d)", base);
	snprintf(mux, sizeof(mux), "%s/perf_event_mux_interval_ms", self->pmu);
	ASSERT_EQ(0, nvpc_write(mux, "1000000"));
	armed = mux_timers_armed();
	TH_LOG("mux hrtimers armed: %d before the write, %d after (%ld CPUs)",
	       base, armed, cpus);
	EXPECT_LE(base + cpus, armed);
	ASSERT_EQ(0, sim_gpu_remove(self->gpu));
	self->gpu = -1;
	for (ms = 0; ms < 1000 && !stat(self->pmu, &st); ms += 10)
		usleep(10000);
	after = mux_timers_armed();
	TH_LOG("after the removal: %d", after);
	EXPECT_GE(armed - cpus, after);
}

/* Every rejection of DESIGN.md's table, with its errno. */
TEST_F(perf, errors)
{
	struct perf_event_attr attr;
	int fd;

	ASSERT_EQ(0, setup_gpu(self, "gf100 gpcs=2 parts=1"));
#define ATTR(c, c1, c2) (attr = (struct perf_event_attr){ .type = self->type, \
	.config = (c), .config1 = (c1), .config2 = (c2) })

	/* a type no PMU has */
	ATTR(CFG_CYCLES, CFG1_DOM(1, 0, 0), 0);
	attr.type = 0x7fffff00;
	EXPECT_EQ(-ENOENT, nvpc_attr_open(&attr, -1, 0));
	/* sampling */
	ATTR(CFG_CYCLES, CFG1_DOM(1, 0, 0), 0);
	attr.sample_period = 1000;
	EXPECT_EQ(-EOPNOTSUPP, nvpc_attr_open(&attr, -1, 0));
	/* per-task */
	ATTR(CFG_CYCLES, CFG1_DOM(1, 0, 0), 0);
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, 0, -1));
	/* exclude_* bits */
	ATTR(CFG_CYCLES, CFG1_DOM(1, 0, 0), 0);
	attr.exclude_user = 1;
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, -1, 0));
	/* a domain the chip lacks: hub (GF100 has none), GPC 2 of 2 */
	ATTR(CFG_CYCLES, CFG1_DOM(0, 0, 0), 0);
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, -1, 0));
	ATTR(CFG_CYCLES, CFG1_DOM(1, 2, 0), 0);
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, -1, 0));
	ATTR(CFG_CYCLES, CFG1_DOM(3, 0, 0), 0);
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, -1, 0));
	/* signal ids at and past the domain's count (gpc0.0: 0xe0) */
	ATTR(CFG_SIG(0, 0xe0), CFG1_DOM(1, 0, 0), 0);
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, -1, 0));
	ATTR(CFG_SIG(3, 0xff), CFG1_DOM(1, 0, 0), 0);
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, -1, 0));
	ATTR(CFG_MODE(NVPC_MODE_EXTRA_B4), CFG1_DOM(1, 0, 0),
	     CFG2_BSIG(2, 0xe5));
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, -1, 0));
	/* reserved bits */
	ATTR(CFG_SIG(0, 1) | (1ULL << 63), CFG1_DOM(1, 0, 0), 0);
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, -1, 0));
	ATTR(CFG_SIG(0, 1), CFG1_DOM(1, 0, 0) | (1ULL << 40), 0);
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, -1, 0));
	ATTR(CFG_SIG(0, 1), CFG1_DOM(1, 0, 0), 1ULL << 60);
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, -1, 0));
	/* config2 signals a SIMPLE event does not use */
	ATTR(CFG_SIG(0, 1), CFG1_DOM(1, 0, 0), CFG2_BSIG(0, 1));
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, -1, 0));
	/* slot 5 does not exist; _OP bit 20 is on EVENT/STOP only */
	ATTR(CFG_SIG(0, 1) | NVPC_FIELD(NVPC_CFG_SLOT, 5), CFG1_DOM(1, 0, 0), 0);
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, -1, 0));
	ATTR(CFG_SIG(0, 1) | CFG_SLOT(NVPC_SLOT_PRE) | CFG_OPBITS(1 << 4),
	     CFG1_DOM(1, 0, 0), 0);
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, -1, 0));
	/*
	 * counter mode 6 does not exist; 5 is single event mode, which
	 * GF100+ has no documented setup for (perf.rst "Windows and
	 * thresholds"); modes choose their own slots
	 */
	ATTR(CFG_SIG(0, 1) | CFG_MODE(6), CFG1_DOM(1, 0, 0), 0);
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, -1, 0));
	ATTR(CFG_SIG(0, 1) | CFG_MODE(NVPC_MODE_SINGLE) |
	     CFG_SLOT(NVPC_SLOT_EVENT), CFG1_DOM(1, 0, 0), 0);
	EXPECT_EQ(-EOPNOTSUPP, nvpc_attr_open(&attr, -1, 0));
	ATTR(CFG_SIG(0, 1) | CFG_MODE(1) | CFG_SLOT(2), CFG1_DOM(1, 0, 0), 0);
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, -1, 0));
	/* EXTRA modes take no input; cycles take nothing */
	ATTR(CFG_SIG(0, 1) | CFG_MODE(NVPC_MODE_EXTRA_B4), CFG1_DOM(1, 0, 0), 0);
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, -1, 0));
	ATTR(CFG_CYCLES | CFG_SIG(0, 1), CFG1_DOM(1, 0, 0), 0);
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&attr, -1, 0));
	/* a valid event opens */
	ATTR(CFG_SIG(0, 1), CFG1_DOM(1, 1, 0), 0);
	fd = nvpc_attr_open(&attr, -1, 0);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
	/* device gone: ENODEV */
	ASSERT_EQ(0, sim_cmd(self->gpu, "fault", "remove"));
	ATTR(CFG_SIG(0, 1), CFG1_DOM(1, 1, 0), 0);
	EXPECT_EQ(-ENODEV, nvpc_attr_open(&attr, -1, 0));
#undef ATTR
}

/* More events than slots are not an open error: perf multiplexes. */
TEST_F(perf, no_free_slot_multiplexes)
{
	struct nvpc_val v;
	int i, fd[5], partial = 0;

	ASSERT_EQ(0, setup_gpu(self, "g84"));
	for (i = 0; i < 5; i++) {
		fd[i] = ev(self, CFG_SIG(0, 1 + i), CFG1_DOM(0, 0, 2), 0, -1);
		ASSERT_LE(0, fd[i]);
	}
	usleep(300000);
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(0, nvpc_ev_read(fd[i], &v));
		partial += v.running < v.enabled;
	}
	EXPECT_LT(0, partial);
}

/* A removed GPU stops its events; they keep their last value. */
TEST_F(perf, removal_keeps_last_value)
{
	int f1;

	ASSERT_EQ(0, setup_gpu(self, "gt215"));
	ASSERT_EQ(0, sim_wave(self->gpu, "main.0", 1, WAVE_CONST(1)));
	f1 = ev(self, CFG_SIG(0, 1), CFG1_DOM(0, 0, 0), 0, -1);
	ASSERT_LE(0, f1);
	ASSERT_EQ(0, sim_advance(self->gpu, 500, "main.0"));
	EXPECT_EQ(500, nvpc_ev_count(f1));
	/* removed with the event open: the PMU stays until it closes */
	ASSERT_EQ(0, nvpc_write(NVPC_SIM_DIR "/remove", "%d", self->gpu));
	self->gpu = -1;
	EXPECT_EQ(500, nvpc_ev_count(f1));
	/* the core module is in use while the event is open */
	EXPECT_EQ(0, nvpc_mod_unload("nvpcounter_sim"));
	/* delete_module(O_NONBLOCK) of a module in use: EWOULDBLOCK */
	EXPECT_EQ(-EWOULDBLOCK, nvpc_mod_unload("nvpcounter"));
	EXPECT_EQ(500, nvpc_ev_count(f1));
	close(f1);
	self->fd[0] = -1;
	/* then it goes (the PMU is unregistered from a work item) */
	for (int i = 0; i < 50 && nvpc_mod_unload("nvpcounter"); i++)
		usleep(20000);
	EXPECT_EQ(0, nvpc_mod_loaded("nvpcounter"));
}

/*
 * The PMU counts on one CPU (cpumask); when that CPU goes offline its
 * events move to another and keep counting. The GPU is created from CPU 1
 * so that the PMU starts there (CPU 0 cannot go offline on x86).
 */
TEST_F(perf, cpu_hotplug_migrates)
{
	const char *online = "/sys/devices/system/cpu/cpu1/online";
	cpu_set_t set;
	int f1;

	CPU_ZERO(&set);
	CPU_SET(1, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		SKIP(return, "no CPU 1 to start the PMU on");
	ASSERT_EQ(0, setup_gpu(self, "g84"));
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	ASSERT_EQ(1, nvpc_pmu_num(self->pmu, "cpumask"));
	ASSERT_EQ(0, sim_wave(self->gpu, "main.0", 1, WAVE_CONST(1)));
	f1 = ev(self, CFG_SIG(0, 1), CFG1_DOM(0, 0, 0), 0, -1);
	ASSERT_LE(0, f1);
	ASSERT_EQ(0, sim_advance(self->gpu, 300, "main.0"));
	EXPECT_EQ(300, nvpc_ev_count(f1));
	ASSERT_EQ(0, nvpc_write(online, "0"));
	EXPECT_EQ(0, nvpc_pmu_num(self->pmu, "cpumask"));
	ASSERT_EQ(0, sim_advance(self->gpu, 200, "main.0"));
	EXPECT_EQ(500, nvpc_ev_count(f1));
	EXPECT_EQ(0, nvpc_write(online, "1"));
}

/*
 * NV20:NV30 share one CTRL between both domains, and a CTRL write aborts
 * the counting process (pcounter.rst, Single event mode). With CTR_MODE
 * left set by someone else, starting domain 1 must clear it, and the
 * write also aborts domain 0's program: the driver restarts it too.
 * Domain 0's program is aborted first by the foreign CTRL write itself;
 * its 100 cycles until domain 1 starts are lost, and each (re)start
 * costs three cycles (PRE_OP write, WAIT_FOR_PRE, WAIT_FOR_START):
 * domain 0 counts 1000 - 3 + 1000 - 3, domain 1 1000 - 3.
 */
TEST_F(perf, nv20_ctrl_write_restarts_both_domains)
{
	char path[PATH_MAX], buf[32];
	int f0, f1;

	ASSERT_EQ(0, setup_gpu(self, "nv20"));
	f0 = ev(self, CFG_CYCLES, CFG1_DOM(0, 0, 0), 0, -1);
	ASSERT_LE(0, f0);
	ASSERT_EQ(0, sim_advance(self->gpu, 1000, "main.0"));
	EXPECT_EQ(997, nvpc_ev_count(f0));
	/* CTRL (MMIO 0x00a73c on NV10:NV40, pcounter.rst) = CTR_MODE (bit 2) */
	ASSERT_EQ(0, sim_cmd(self->gpu, "reg", "0xa73c 0x4"));
	ASSERT_EQ(0, sim_advance(self->gpu, 100, "main.0"));
	f1 = ev(self, CFG_CYCLES, CFG1_DOM(0, 0, 1), 0, -1);
	ASSERT_LE(0, f1);
	ASSERT_EQ(0, sim_advance(self->gpu, 1000, "main.0"));
	EXPECT_EQ(997 + 997, nvpc_ev_count(f0));
	EXPECT_EQ(997, nvpc_ev_count(f1));
	/* the driver's program counts SIMPLE: CTR_MODE is clear again */
	ASSERT_EQ(0, sim_cmd(self->gpu, "reg", "0xa73c"));
	snprintf(path, sizeof(path), NVPC_SIM_DIR "/gpu%d/reg", self->gpu);
	ASSERT_LT(0, nvpc_read_file(path, buf, sizeof(buf)));
	EXPECT_EQ(0, strtoul(buf, NULL, 16) & 0x4);
}

TEST_HARNESS_MAIN
