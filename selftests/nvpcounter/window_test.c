// SPDX-License-Identifier: GPL-2.0
/*
 * Single event mode events (perf.rst "Windows and thresholds") on a
 * simulated G84 (NV40:GF100 register layout), NV20 (NV10:NV30: 40-bit
 * counters, one CTRL for both domains) and NV34 (NV30:NV40: the shared
 * CTRL also holds the quad mode bits), counted exactly against the
 * documents; the same program gives the same counts on each.
 *
 * pcounter.rst "Single event mode", the pseudo-code, as it applies here:
 * the group's program is written (PRE_OP last) between cycles C0 - 1 and
 * C0 of main.1 (the test advances to C0, then opens every member without
 * advancing: each open restarts the program, all before cycle C0). Cycle
 * C0 is the start's cycle (INACTIVE -> WAIT_FOR_PRE); from C0 + 1 each
 * PRE pulse counts CTR_PRE down, and the pulse that finds it 0 moves to
 * WAIT_FOR_START (without a PRE member, PRE is always true and pre is 0:
 * at C0 + 1). A START pulse in WAIT_FOR_START opens a window in COUNTING;
 * that cycle counts nothing. Every COUNTING cycle counts, the STOP cycle
 * included, and STOP then closes the window (WAIT_FOR_START from the next
 * cycle). So a window opened by START at s and closed by STOP at e counts
 * the cycles s + 1 .. e.
 *
 * Waveforms (Documentation/sim.rst "Waveforms"): periodic P W PH is 1 in
 * cycle c iff (c + PH) % P < W. The windows of most tests: START (sig 1)
 * at c = 10 mod 100 (phase 90), STOP (sig 2) at c = 40 mod 100 (phase
 * 60): windows count c = 11..40 mod 100, 30 cycles each.
 */
#include <sys/ioctl.h>

#include "kselftest_harness.h"
#include "nvpc_perf.h"

#define GPU		5
#define DOM		"main.1"
#define CFG1		CFG1_DOM(0, 0, 1)

#define SIG_START	1
#define SIG_STOP	2
#define SIG_EVENT	3
#define SIG_PRE		4
#define SIG_START2	5

#define C0		1000ULL

#define MODE_S		CFG_MODE(NVPC_MODE_SINGLE)
#define SARG(v)		NVPC_FIELD(NVPC_CFG2_SARG, v)
#define M_PRE		(MODE_S | CFG_SLOT(NVPC_SLOT_PRE) | CFG_SIG(0, SIG_PRE))
#define M_START		(MODE_S | CFG_SLOT(NVPC_SLOT_START) | \
			 CFG_SIG(0, SIG_START))
#define M_EVENT		(MODE_S | CFG_SLOT(NVPC_SLOT_EVENT) | \
			 CFG_SIG(0, SIG_EVENT))
#define M_STOP		(MODE_S | CFG_SLOT(NVPC_SLOT_STOP) | \
			 CFG_SIG(0, SIG_STOP))
#define M_CYCLES	(MODE_S | CFG_CYCLES)

#define TWO(n)		(1ULL << (n))
/* a pulse at cycle c only (for the test's span): period 2^31 */
#define PULSE_AT(c)	WAVE_PERIODIC(TWO(31), 1, TWO(31) - (c) % TWO(31))

FIXTURE(win) {
	int type;
	char pmu[PATH_MAX];
	int fd[8];
	int n;
};

/*
 * @shared: one CTRL for both domains (NV10:NV40): a write of it for one
 * domain aborts the other's process; @quad_shared: quad mode's start and
 * stop write it too (NV30:NV40).
 */
FIXTURE_VARIANT(win) {
	const char *chip;
	bool shared;
	bool quad_shared;
};

FIXTURE_VARIANT_ADD(win, g84) {
	.chip = "g84",
};

FIXTURE_VARIANT_ADD(win, nv20) {
	.chip = "nv20",
	.shared = true,
};

FIXTURE_VARIANT_ADD(win, nv34) {
	.chip = "nv34",
	.shared = true,
	.quad_shared = true,
};

FIXTURE_SETUP(win)
{
	self->n = 0;
	ASSERT_EQ(0, sim_gpu_create(GPU, variant->chip));
	self->type = nvpc_pmu_find(GPU, self->pmu, sizeof(self->pmu));
	ASSERT_LT(0, self->type);
	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_START, WAVE_PERIODIC(100, 1, 90)));
	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_STOP, WAVE_PERIODIC(100, 1, 60)));
	ASSERT_EQ(0, sim_advance(GPU, C0, DOM));
}

FIXTURE_TEARDOWN(win)
{
	while (self->n)
		close(self->fd[--self->n]);
	sim_gpu_remove(GPU);
}

/* Open a member of the group led by fd[0] (the leader itself first). */
static int win_open(struct _test_data_win *self, __u64 config, __u64 config2)
{
	int fd = nvpc_ev_open(self->type, config, CFG1, config2,
			      self->n ? self->fd[0] : -1);

	if (fd >= 0)
		self->fd[self->n++] = fd;
	return fd;
}

static long long dom_num(struct _test_data_win *self, const char *attr)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "domains/" DOM "/%s", attr);
	return nvpc_pmu_num(self->pmu, rel);
}

static int dom_str(struct _test_data_win *self, const char *attr, char *buf,
		   size_t len)
{
	char path[PATH_MAX + 64];
	int n;

	snprintf(path, sizeof(path), "%s/domains/" DOM "/%s", self->pmu,
		 attr);
	n = nvpc_read_file(path, buf, len);
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return n;
}

/*
 * EVENT (sig 3) 1 in every 4th cycle (c = 0 mod 4): a window c = 11..40
 * mod 100 holds 12, 16, ..., 40 mod 100: 8 of them (100 = 0 mod 4).
 * Cycles C0 .. C0 + 999 (1000 .. 1999): START at 1010, 1110, ..., 1910
 * (the first at or after C0 + 2), STOP at 1040, ..., 1940: 10 windows
 * opened and closed, 80 events; WAIT_FOR_START at the end. 25 cycles
 * more (2000 .. 2024): START at 2010, counting 2011 .. 2024, events at
 * 2012, 2016, 2020, 2024: 11 opened, 10 closed, 84 events, COUNTING.
 */
TEST_F(win, events_per_window)
{
	char buf[128];

	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_EVENT, WAVE_PERIODIC(4, 1, 0)));
	ASSERT_LE(0, win_open(self, M_EVENT, 0));
	ASSERT_LE(0, win_open(self, M_START, 0));
	ASSERT_LE(0, win_open(self, M_STOP, 0));
	ASSERT_EQ(0, sim_advance(GPU, 1000, DOM));
	EXPECT_EQ(80, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(10, nvpc_ev_count(self->fd[1]));
	EXPECT_EQ(10, nvpc_ev_count(self->fd[2]));
	ASSERT_LT(0, dom_str(self, "single_state", buf, sizeof(buf)));
	EXPECT_STREQ("wait_start", buf);
	ASSERT_EQ(0, sim_advance(GPU, 25, DOM));
	EXPECT_EQ(84, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(11, nvpc_ev_count(self->fd[1]));
	EXPECT_EQ(10, nvpc_ev_count(self->fd[2]));
	ASSERT_LT(0, dom_str(self, "single_state", buf, sizeof(buf)));
	EXPECT_STREQ("counting", buf);
	ASSERT_LT(0, dom_str(self, "mode", buf, sizeof(buf)));
	EXPECT_STREQ("single", buf);
	ASSERT_LT(0, dom_str(self, "slots", buf, sizeof(buf)));
	EXPECT_STREQ("pre=free start=window event=window stop=window cycles=0",
		     buf);
	EXPECT_EQ(0, dom_num(self, "single_restarts"));
}

/*
 * cycles takes the EVENT input, always true: 30 cycles per window, 300
 * over the 10 windows of C0 .. C0 + 999, and 14 more (2011 .. 2024) after
 * 25 cycles: the average window length is cycles / STOP = 30.
 */
TEST_F(win, cycles_per_window)
{
	char buf[128];

	ASSERT_LE(0, win_open(self, M_CYCLES, 0));
	ASSERT_LE(0, win_open(self, M_STOP, 0));
	ASSERT_LE(0, win_open(self, M_START, 0));
	ASSERT_EQ(0, sim_advance(GPU, 1000, DOM));
	EXPECT_EQ(300, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(10, nvpc_ev_count(self->fd[1]));
	ASSERT_EQ(0, sim_advance(GPU, 25, DOM));
	EXPECT_EQ(314, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(10, nvpc_ev_count(self->fd[1]));
	EXPECT_EQ(11, nvpc_ev_count(self->fd[2]));
	ASSERT_LT(0, dom_str(self, "slots", buf, sizeof(buf)));
	EXPECT_STREQ("pre=free start=window event=wcycles stop=window cycles=0",
		     buf);
}

/*
 * EVENT (sig 3) 1 iff c % 200 < 50: the windows of c = 1011 .. 1040 mod
 * 200 = 11 .. 40 hold 30 events, those of 1111 .. 1140 (111 .. 140) none:
 * 30, 0, 30, 0, ... With thr = 30 (EVENT_CTR_PERIOD = ONE, CTR_START
 * counts the windows ending with CTR_EVENT >= 30), half of the 10 windows
 * of C0 .. C0 + 999 reach it: 5. With thr = 31 none does: 0.
 */
TEST_F(win, threshold_half_the_windows)
{
	char buf[128];

	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_EVENT,
			      WAVE_PERIODIC(200, 50, 0)));
	ASSERT_LE(0, win_open(self, M_EVENT, SARG(30)));
	ASSERT_LE(0, win_open(self, M_STOP, 0));
	ASSERT_LE(0, win_open(self, M_START, 0));
	ASSERT_LT(0, dom_str(self, "slots", buf, sizeof(buf)));
	EXPECT_STREQ("pre=free start=window event=threshold stop=window cycles=0",
		     buf);
	ASSERT_EQ(0, sim_advance(GPU, 1000, DOM));
	EXPECT_EQ(5, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(10, nvpc_ev_count(self->fd[1]));
	while (self->n)
		close(self->fd[--self->n]);

	/* from C0 + 1000 = 2000, the same pattern (2000 = 0 mod 200) */
	ASSERT_LE(0, win_open(self, M_EVENT, SARG(31)));
	ASSERT_LE(0, win_open(self, M_STOP, 0));
	ASSERT_LE(0, win_open(self, M_START, 0));
	ASSERT_EQ(0, sim_advance(GPU, 1000, DOM));
	EXPECT_EQ(0, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(10, nvpc_ev_count(self->fd[1]));
}

/*
 * PRE (sig 4) pulses at c = 0 mod 50; pre = 2: three pulses open the
 * process. From C0 + 1 = 1001: 1050 (CTR_PRE 2 -> 1), 1100 (1 -> 0), 1150
 * (WAIT_FOR_START). After C0 .. C0 + 119: PRE 2 (1050, 1100), nothing
 * opened. periods = 3: windows at 1210-1240, 1310-1340, 1410-1440 (8
 * events each), then INACTIVE: after C0 .. C0 + 999, PRE 3, START 3, STOP
 * 3, EVENT 24, and so forever after.
 */
TEST_F(win, pre_count_and_periods)
{
	char buf[128];

	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_EVENT, WAVE_PERIODIC(4, 1, 0)));
	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_PRE, WAVE_PERIODIC(50, 1, 0)));
	ASSERT_LE(0, win_open(self, M_EVENT, 0));
	ASSERT_LE(0, win_open(self, M_PRE, SARG(2)));
	ASSERT_LE(0, win_open(self, M_START, 0));
	ASSERT_LE(0, win_open(self, M_STOP, SARG(3)));
	ASSERT_EQ(0, sim_advance(GPU, 120, DOM));
	EXPECT_EQ(2, nvpc_ev_count(self->fd[1]));
	EXPECT_EQ(0, nvpc_ev_count(self->fd[2]));
	ASSERT_LT(0, dom_str(self, "single_state", buf, sizeof(buf)));
	EXPECT_STREQ("wait_pre", buf);
	ASSERT_EQ(0, sim_advance(GPU, 880, DOM));
	EXPECT_EQ(24, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(3, nvpc_ev_count(self->fd[1]));
	EXPECT_EQ(3, nvpc_ev_count(self->fd[2]));
	EXPECT_EQ(3, nvpc_ev_count(self->fd[3]));
	ASSERT_LT(0, dom_str(self, "single_state", buf, sizeof(buf)));
	EXPECT_STREQ("inactive", buf);
	ASSERT_EQ(0, sim_advance(GPU, 1000, DOM));
	EXPECT_EQ(24, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(3, nvpc_ev_count(self->fd[3]));
	ASSERT_LT(0, dom_str(self, "slots", buf, sizeof(buf)));
	EXPECT_STREQ("pre=window start=window event=window stop=window cycles=0",
		     buf);
}

/*
 * 0 periods: the driver restarts the process before a 32-bit counter
 * could saturate (perf.rst "Windows and thresholds"). START = sig 1 OR
 * sig 5 (op 0xeeee), STOP = sig 2, cycles counted.
 *
 * A: START const 1, STOP const 0 from C0: START at C0 + 2, one window
 * counting from C0 + 3. After N1 = 2^30 + 10 cycles: N1 - 3 cycles
 * counted, below 2^31: inside a window there is no restart yet.
 * B: STOP const 1, START 0, one cycle (t1 = C0 + N1): it counts and
 * closes the window (N1 - 2 cycles in all), WAIT_FOR_START. A sample now
 * (any sample after t1: the read, or a poll) finds 2^30 + 8 >= 2^30
 * outside a window: restart before cycle t2 = t1 + 1, no cut.
 * C: the restarted process's PRE is always true: t2 is the start's
 * cycle, t2 + 1 the WAIT_FOR_PRE cycle; START is seen from t2 + 2. sig 1
 * pulses at t2 + 1 (not seen), sig 5 at t2 + 2 (opens), STOP at t2 + 12:
 * 10 more cycles (11 had the pulse at t2 + 1 opened it). After t2 ..
 * t2 + 19: N1 - 2 + 10 cycles, 2 windows.
 * D: START const 1, STOP const 0 from t3 = t2 + 20 (WAIT_FOR_START):
 * START at t3, counting from t3 + 1. The process's CTR_EVENT (ALL) holds
 * the 10 of C too: after K cycles, 9 + K. K = 2^31 - 10 (2^31 - 11 more
 * cycles counted) leaves it at 2^31 - 1, inside a window: no restart, by
 * any sample during the advance either. One cycle more: 2^31, and the
 * sample after it restarts inside the window: cut, counted closed.
 * E: the restart's three cycles (its start, WAIT_FOR_PRE, START with
 * START const 1) count nothing: 100 cycles later 97 more, a 4th window.
 */
TEST_F_TIMEOUT(win, endless_restarts, 600)
{
	const __u64 n1 = TWO(30) + 10, t1 = C0 + n1, t2 = t1 + 1;
	__u64 want;

	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_START, WAVE_CONST(1)));
	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_START2, WAVE_CONST(0)));
	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_STOP, WAVE_CONST(0)));
	ASSERT_LE(0, win_open(self, M_CYCLES, 0));
	ASSERT_LE(0, win_open(self, M_START | CFG_SIG(1, SIG_START2) |
				    CFG_OP(0xeeee), 0));
	ASSERT_LE(0, win_open(self, M_STOP, 0));
	/* A */
	ASSERT_EQ(0, sim_advance(GPU, n1, DOM));
	EXPECT_EQ(n1 - 3, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(1, nvpc_ev_count(self->fd[1]));
	EXPECT_EQ(0, dom_num(self, "single_restarts"));
	/* B */
	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_STOP, WAVE_CONST(1)));
	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_START, WAVE_CONST(0)));
	ASSERT_EQ(0, sim_advance(GPU, 1, DOM));
	EXPECT_EQ(n1 - 2, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(1, nvpc_ev_count(self->fd[2]));
	EXPECT_EQ(1, dom_num(self, "single_restarts"));
	EXPECT_EQ(0, dom_num(self, "window_cuts"));
	/* C */
	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_START, PULSE_AT(t2 + 1)));
	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_START2, PULSE_AT(t2 + 2)));
	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_STOP, PULSE_AT(t2 + 12)));
	ASSERT_EQ(0, sim_advance(GPU, 20, DOM));
	want = n1 - 2 + 10;
	EXPECT_EQ(want, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(2, nvpc_ev_count(self->fd[1]));
	EXPECT_EQ(2, nvpc_ev_count(self->fd[2]));
	/* D */
	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_START, WAVE_CONST(1)));
	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_START2, WAVE_CONST(0)));
	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_STOP, WAVE_CONST(0)));
	ASSERT_EQ(0, sim_advance(GPU, TWO(31) - 10, DOM));
	want += TWO(31) - 11;
	EXPECT_EQ(want, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(1, dom_num(self, "single_restarts"));
	EXPECT_EQ(3, nvpc_ev_count(self->fd[1]));
	EXPECT_EQ(2, nvpc_ev_count(self->fd[2]));
	ASSERT_EQ(0, sim_advance(GPU, 1, DOM));
	want += 1;
	EXPECT_EQ(want, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(2, dom_num(self, "single_restarts"));
	EXPECT_EQ(1, dom_num(self, "window_cuts"));
	EXPECT_EQ(3, nvpc_ev_count(self->fd[1]));
	EXPECT_EQ(3, nvpc_ev_count(self->fd[2]));
	/* E */
	ASSERT_EQ(0, sim_advance(GPU, 100, DOM));
	EXPECT_EQ(want + 97, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(4, nvpc_ev_count(self->fd[1]));
	EXPECT_EQ(0, dom_num(self, "saturations"));
}

/*
 * Another domain's CTRL writes (pcounter.rst "Control registers": NV10:NV40
 * have one CTRL, and a CTRL write aborts the single event process of
 * each domain, "Single event mode"), with the windows of
 * events_per_window on main.1.
 *
 * 1. At 2025, inside the window opened at 2010 (4 events in it), a window
 * program starts on main.0 (a STOP member alone: EVENT_CTR_PERIOD = ALL
 * for main.0, a CTRL write on NV20 and NV34). There main.1's process is
 * sampled (84 events, 11 opened, 10 closed), aborted, and started again
 * from there: the open window counted closed (window_cuts 1), PRE always
 * true, so 2025 is the start's cycle and START is seen from 2027; the
 * next window is 2111 .. 2140. Until 3000: 9 more windows, 72 events:
 * 156, 20, 20. Without a shared CTRL (G84) nothing is cut: 160, 20, 20.
 * 2. At 3000 (WAIT_FOR_START) the main.0 window closes (an input write
 * there, no CTRL write) and a quad-mode event opens on main.0: on NV34
 * its quad mode bit is a CTRL write, a restart without a cut (START seen
 * from 3002, the next at 3010 as before); NV20 (no quad mode) and G84 do
 * not write the shared CTRL. Until 4000: 10 more windows, 80 events.
 */
TEST_F(win, shared_ctrl_writes)
{
	int other, quad;

	ASSERT_EQ(0, sim_wave(GPU, DOM, SIG_EVENT, WAVE_PERIODIC(4, 1, 0)));
	ASSERT_LE(0, win_open(self, M_EVENT, 0));
	ASSERT_LE(0, win_open(self, M_START, 0));
	ASSERT_LE(0, win_open(self, M_STOP, 0));
	ASSERT_EQ(0, sim_advance(GPU, 1025, DOM));
	other = nvpc_ev_open(self->type, M_STOP, CFG1_DOM(0, 0, 0), 0, -1);
	ASSERT_LE(0, other);
	ASSERT_EQ(0, sim_advance(GPU, 975, DOM));
	EXPECT_EQ(variant->shared ? 156 : 160, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(20, nvpc_ev_count(self->fd[1]));
	EXPECT_EQ(20, nvpc_ev_count(self->fd[2]));
	EXPECT_EQ(variant->shared, dom_num(self, "single_restarts"));
	EXPECT_EQ(variant->shared, dom_num(self, "window_cuts"));
	close(other);
	quad = nvpc_ev_open(self->type, CFG_SIG(0, 1), CFG1_DOM(0, 0, 0), 0,
			    -1);
	ASSERT_LE(0, quad);
	ASSERT_EQ(0, sim_advance(GPU, 1000, DOM));
	EXPECT_EQ(variant->shared ? 236 : 240, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(30, nvpc_ev_count(self->fd[1]));
	EXPECT_EQ(30, nvpc_ev_count(self->fd[2]));
	EXPECT_EQ(variant->shared + variant->quad_shared,
		  dom_num(self, "single_restarts"));
	EXPECT_EQ(variant->shared, dom_num(self, "window_cuts"));
	close(quad);
}

/*
 * A counter mode on the other domain (pcounter.rst "Special counter
 * modes"; on NV30:NV40 CTR_MODE is a field of the shared CTRL): START and
 * STOP members only on main.1 (EVENT never true, so an EVENT_B4 CTR_MODE
 * changes nothing there), 10 windows by 2000; an event_b4 event opens on
 * main.0. The NV34 writes CTRL (main.0's quad mode bit and CTR_MODE):
 * main.1 is restarted outside a window (single_restarts 1, the window at
 * 2010 opens as before) and stays in single event mode; the G84 has a
 * CTRL per domain; the NV20 has no counter modes (EINVAL). By 3000 20
 * windows on each.
 */
TEST_F(win, other_domain_counter_mode)
{
	char buf[32];
	int b4;

	ASSERT_LE(0, win_open(self, M_START, 0));
	ASSERT_LE(0, win_open(self, M_STOP, 0));
	ASSERT_EQ(0, sim_advance(GPU, 1000, DOM));
	EXPECT_EQ(10, nvpc_ev_count(self->fd[1]));
	b4 = nvpc_ev_open(self->type, CFG_SIG(0, 1) |
			  CFG_MODE(NVPC_MODE_EVENT_B4), CFG1_DOM(0, 0, 0),
			  CFG2_BSIG(0, 2), -1);
	/* opens, except on the NV20: EINVAL */
	ASSERT_EQ(variant->shared && !variant->quad_shared ? -EINVAL : 0,
		  b4 < 0 ? b4 : 0);
	ASSERT_EQ(0, sim_advance(GPU, 1000, DOM));
	EXPECT_EQ(20, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(20, nvpc_ev_count(self->fd[1]));
	EXPECT_EQ(variant->quad_shared, dom_num(self, "single_restarts"));
	ASSERT_LT(0, dom_str(self, "mode", buf, sizeof(buf)));
	EXPECT_STREQ("single", buf);
	if (b4 >= 0)
		close(b4);
}

/* the errno of opening one event alone on @chip */
static int open_on(const char *chip, __u64 config, __u64 config1,
		   __u64 config2)
{
	char pmu[PATH_MAX];
	int type, fd;

	if (sim_gpu_create(GPU + 1, chip))
		return -1000;
	type = nvpc_pmu_find(GPU + 1, pmu, sizeof(pmu));
	fd = type > 0 ? nvpc_ev_open(type, config, config1, config2, -1) :
			-1000;
	if (fd >= 0)
		close(fd);
	sim_gpu_remove(GPU + 1);
	return fd >= 0 ? 0 : fd;
}

FIXTURE(ref) {
	int type;
	char pmu[PATH_MAX];
};

FIXTURE_SETUP(ref)
{
	ASSERT_EQ(0, sim_gpu_create(GPU, "g84"));
	self->type = nvpc_pmu_find(GPU, self->pmu, sizeof(self->pmu));
	ASSERT_LT(0, self->type);
}

FIXTURE_TEARDOWN(ref)
{
	sim_gpu_remove(GPU);
}

/*
 * Refused (perf.rst "Errors"): GF100+ has no documented single event
 * mode setup, NV10 no EVENT_CTR_PERIOD (an EVENT member without a
 * threshold, window cycles): EOPNOTSUPP; quad counting, record and single
 * event mode exclude each other on a domain: EBUSY; bad fields: EINVAL.
 */
TEST_F(ref, refusals)
{
	struct perf_event_attr rec = {
		.type = self->type,
		.config = NVPC_CFG_RECORD | CFG_SIG(0, SIG_STOP),
		.config1 = CFG1,
		.disabled = 1,
	};
	int fd, wfd;

	/* GF100 has no hub domain: GPC 0's domain 0 */
	EXPECT_EQ(-EOPNOTSUPP, open_on("gf100", M_STOP, CFG1_DOM(1, 0, 0), 0));
	EXPECT_EQ(-EOPNOTSUPP, open_on("nv10", M_EVENT, CFG1_DOM(0, 0, 0), 0));
	EXPECT_EQ(-EOPNOTSUPP, open_on("nv10", M_CYCLES, CFG1_DOM(0, 0, 0), 0));
	EXPECT_EQ(0, open_on("nv10", M_EVENT, CFG1_DOM(0, 0, 0), SARG(1)));
	EXPECT_EQ(0, open_on("nv10", M_STOP, CFG1_DOM(0, 0, 0), 0));
	EXPECT_EQ(0, open_on("nv15", M_EVENT, CFG1_DOM(0, 0, 0), 0));
	EXPECT_EQ(0, open_on("nv30", M_CYCLES, CFG1_DOM(0, 0, 0), 0));
	EXPECT_EQ(0, open_on("nv40", M_STOP, CFG1_DOM(0, 0, 0), 0));

	/* fields */
	EXPECT_EQ(-EINVAL, nvpc_ev_open(self->type, MODE_S | CFG_SIG(0, 1),
					CFG1, 0, -1));	/* no slot */
	EXPECT_EQ(-EINVAL, nvpc_ev_open(self->type, M_CYCLES |
					CFG_SLOT(NVPC_SLOT_EVENT), CFG1, 0,
					-1));
	EXPECT_EQ(-EINVAL, nvpc_ev_open(self->type, M_CYCLES, CFG1, SARG(1),
					-1));
	EXPECT_EQ(-EINVAL, nvpc_ev_open(self->type, M_START, CFG1, SARG(1),
					-1));
	EXPECT_EQ(-EINVAL, nvpc_ev_open(self->type, M_EVENT, CFG1,
					CFG2_BSIG(0, 1), -1));
	/* main.0 has 0x60 signals */
	EXPECT_EQ(-EINVAL, nvpc_ev_open(self->type, MODE_S |
					CFG_SLOT(NVPC_SLOT_EVENT) |
					CFG_SIG(1, 0x60), CFG1_DOM(0, 0, 0), 0,
					-1));
	/* delayed-source replace bits are G92+ */
	EXPECT_EQ(-EINVAL, nvpc_ev_open(self->type, M_PRE | CFG_OPBITS(4),
					CFG1, 0, -1));
	EXPECT_EQ(-EINVAL, nvpc_ev_open(self->type, M_STOP | NVPC_CFG_SHORT,
					CFG1, 0, -1));
	EXPECT_EQ(-EINVAL, nvpc_ev_open(self->type, CFG_MODE(6) |
					CFG_SLOT(NVPC_SLOT_STOP), CFG1, 0, -1));

	/* busy: a quad-mode event, then single event mode, then record */
	fd = nvpc_ev_open(self->type, CFG_SIG(0, 1), CFG1, 0, -1);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EBUSY, nvpc_ev_open(self->type, M_STOP, CFG1, 0, -1));
	close(fd);
	wfd = nvpc_ev_open(self->type, M_STOP, CFG1, 0, -1);
	ASSERT_LE(0, wfd);
	EXPECT_EQ(-EBUSY, nvpc_ev_open(self->type, CFG_SIG(0, 1), CFG1, 0,
				       -1));
	EXPECT_EQ(-EBUSY, nvpc_ev_open(self->type, CFG_CYCLES, CFG1, 0, -1));
	EXPECT_EQ(-EBUSY, nvpc_attr_open(&rec, -1, 0));
	/* another domain is free */
	fd = nvpc_ev_open(self->type, CFG_SIG(0, 1), CFG1_DOM(0, 0, 2), 0, -1);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
	close(wfd);
	fd = nvpc_attr_open(&rec, -1, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EBUSY, nvpc_ev_open(self->type, M_STOP, CFG1, 0, -1));
	close(fd);
}

/*
 * NV10 (no EVENT_CTR_PERIOD: CTR_EVENT counts the current window only)
 * sums a threshold: its one domain main.0 with the waveforms of
 * threshold_half_the_windows, 5 of 10 windows reach 30 events; and a
 * counting event waits (EBUSY) while the domain runs the program.
 */
FIXTURE(nv10) {
	int type;
	char pmu[PATH_MAX];
	int fd[4];
	int n;
};

FIXTURE_SETUP(nv10)
{
	self->n = 0;
	ASSERT_EQ(0, sim_gpu_create(GPU, "nv10"));
	self->type = nvpc_pmu_find(GPU, self->pmu, sizeof(self->pmu));
	ASSERT_LT(0, self->type);
	ASSERT_EQ(0, sim_wave(GPU, "main.0", SIG_START,
			      WAVE_PERIODIC(100, 1, 90)));
	ASSERT_EQ(0, sim_wave(GPU, "main.0", SIG_STOP,
			      WAVE_PERIODIC(100, 1, 60)));
	ASSERT_EQ(0, sim_wave(GPU, "main.0", SIG_EVENT,
			      WAVE_PERIODIC(200, 50, 0)));
	ASSERT_EQ(0, sim_advance(GPU, C0, "main.0"));
}

FIXTURE_TEARDOWN(nv10)
{
	while (self->n)
		close(self->fd[--self->n]);
	sim_gpu_remove(GPU);
}

TEST_F(nv10, threshold)
{
	static const __u64 cfg[] = { M_EVENT, M_STOP, M_START };
	unsigned int i;
	int fd;

	for (i = 0; i < 3; i++) {
		fd = nvpc_ev_open(self->type, cfg[i], CFG1_DOM(0, 0, 0),
				  i ? 0 : SARG(30), self->n ? self->fd[0] : -1);
		ASSERT_LE(0, fd);
		self->fd[self->n++] = fd;
	}
	EXPECT_EQ(-EBUSY, nvpc_ev_open(self->type, CFG_SIG(0, 1),
				       CFG1_DOM(0, 0, 0), 0, -1));
	ASSERT_EQ(0, sim_advance(GPU, 1000, "main.0"));
	EXPECT_EQ(5, nvpc_ev_count(self->fd[0]));
	EXPECT_EQ(10, nvpc_ev_count(self->fd[1]));
	EXPECT_EQ(10, nvpc_ev_count(self->fd[2]));
}

TEST_HARNESS_MAIN
