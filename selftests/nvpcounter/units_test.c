// SPDX-License-Identifier: GPL-2.0
/*
 * Unit sums on GF100+ (Documentation/perf.rst, "Whole-GPU counts"): a
 * GPC or partition event with config1 allunits counts its domain in
 * every present unit and returns the sum; oneunit or a nonzero unit
 * picks one unit.
 *
 * The GPU is a "gf100 gpcs=4 parts=2" (Documentation/sim.rst, create):
 * gpc0.0 .. gpc3.0 and part0.0, part1.0, all clocks at 1 MHz so that an
 * advance of N cycles of gpc0.0 is N cycles of every domain. Signal 3
 * (below the GPC domains' trailer base 0xa0, so a waveform drives it)
 * has a different waveform in each GPC (sim.rst, wave: 1 in cycle c iff
 * (c + PHASE) % PERIOD < WIDTH):
 *
 *   gpc0.0  periodic 10 1 0   1 cycle in 10
 *   gpc1.0  periodic  7 2 1   2 in 7
 *   gpc2.0  periodic  5 3 4   3 in 5
 *   gpc3.0  periodic  4 1 2   1 in 4
 *
 * A window of N = 420 consecutive cycles (a multiple of 10, 7, 5 and 4)
 * holds whole periods only, so each GPC's count over it is N * WIDTH /
 * PERIOD whatever cycle it starts at: 42, 120, 252 and 105, and the sum
 * 519. All four differ and none is 0: a unit counted twice or missed
 * changes the sum. An event opened (or enabled) with no cycle passing
 * and read after an advance of N counts exactly that window
 * (Documentation/perf.rst, Counting: the read's swap ends the period at
 * the boundary; sim.rst "Time and clocks", manual mode).
 */
#include <fcntl.h>
#include <sys/ioctl.h>

#include "kselftest_harness.h"
#include "nvpc_perf.h"

#define GPU		6	/* the sim GPU id of this test */
#define SIG		3
#define N		420
#define NR_GPCS		4
#define NR_PARTS	2

/* N * WIDTH / PERIOD per GPC, see above */
static const unsigned long long gpc_want[NR_GPCS] = { 42, 120, 252, 105 };
#define SUM_WANT	(42 + 120 + 252 + 105)	/* 519 */

static const struct nvpc_wave gpc_wave[NR_GPCS] = {
	WAVE_PERIODIC(10, 1, 0), WAVE_PERIODIC(7, 2, 1),
	WAVE_PERIODIC(5, 3, 4), WAVE_PERIODIC(4, 1, 2),
};

#define ALLUNITS	NVPC_CFG1_ALLUNITS
#define ONEUNIT		NVPC_CFG1_ONEUNIT
#define GPC_SUM		(CFG1_DOM(1, 0, 0) | ALLUNITS)
#define PART_SUM	(CFG1_DOM(2, 0, 0) | ALLUNITS)

FIXTURE(units) {
	int type;
	char pmu[PATH_MAX];
	int created;
};

FIXTURE_SETUP(units)
{
	self->created = 0;
}

FIXTURE_TEARDOWN(units)
{
	if (self->created)
		sim_gpu_remove(GPU);
}

static int setup_gpu(struct _test_data_units *self, const char *args)
{
	int ret = sim_gpu_create(GPU, args);

	if (ret)
		return ret;
	self->created = 1;
	ret = sim_cmd(GPU, "clocks", "all 1000000");
	if (ret)
		return ret;
	self->type = nvpc_pmu_find(GPU, self->pmu, sizeof(self->pmu));
	return self->type < 0 ? -ENOENT : 0;
}

/* the GF100 of the header, its four waveforms set */
static int setup_gf100(struct _test_data_units *self)
{
	char dom[16];
	int u, ret;

	ret = setup_gpu(self, "gf100 gpcs=4 parts=2");
	for (u = 0; u < NR_GPCS && !ret; u++) {
		snprintf(dom, sizeof(dom), "gpc%d.0", u);
		ret = sim_wave(GPU, dom, SIG, gpc_wave[u]);
	}
	return ret;
}

static int open_attr(struct _test_data_units *self, __u64 config,
		     __u64 config1, int pinned, int group)
{
	return nvpc_ev_open_pinned(self->type, config, config1, 0, pinned,
				   group);
}

/*
 * The sum of the four GPCs equals the four GPCs counted one at a time,
 * each alone on the GPU for its own window of N cycles; the summed
 * cycle counters count N per unit (4N = 1680 for the GPCs, 2N = 840 for
 * the two partitions).
 */
TEST_F_TIMEOUT(units, sum_is_the_units_alone, 60)
{
	unsigned long long alone[NR_GPCS], total = 0;
	int fd, fc, fp, u;

	ASSERT_EQ(0, setup_gf100(self));

	fd = open_attr(self, CFG_SIG(0, SIG), GPC_SUM, 0, -1);
	ASSERT_LE(0, fd);
	fc = open_attr(self, CFG_CYCLES, GPC_SUM, 0, -1);
	ASSERT_LE(0, fc);
	fp = open_attr(self, CFG_CYCLES, PART_SUM, 0, -1);
	ASSERT_LE(0, fp);
	ASSERT_EQ(0, sim_advance(GPU, N, "gpc0.0"));
	EXPECT_EQ(SUM_WANT, nvpc_ev_count(fd));
	EXPECT_EQ(NR_GPCS * N, nvpc_ev_count(fc));
	EXPECT_EQ(NR_PARTS * N, nvpc_ev_count(fp));
	close(fd);
	close(fc);
	close(fp);

	for (u = 0; u < NR_GPCS; u++) {
		fd = open_attr(self, CFG_SIG(0, SIG), CFG1_DOM(1, u, 0), 0, -1);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, sim_advance(GPU, N, "gpc0.0"));
		alone[u] = nvpc_ev_count(fd);
		close(fd);
		EXPECT_EQ(gpc_want[u], alone[u]) {
			TH_LOG("gpc%d.0 alone", u);
		}
		total += alone[u];
	}
	EXPECT_EQ(SUM_WANT, total);
	TH_LOG("gpc sum %d = %llu + %llu + %llu + %llu", SUM_WANT, alone[0],
	       alone[1], alone[2], alone[3]);
}

/*
 * One window, side by side: the sum (519), GPC 2 picked by unit=2 with
 * allunits set as a named event has it (252), GPC 0 picked by oneunit
 * (42), and GPC 0 by a raw event without the flags (42: raw events
 * count the unit they name, as before).
 */
TEST_F_TIMEOUT(units, explicit_unit_picks_one, 60)
{
	int fs, f2, f0, fr;

	ASSERT_EQ(0, setup_gf100(self));
	fs = open_attr(self, CFG_SIG(0, SIG), GPC_SUM, 0, -1);
	ASSERT_LE(0, fs);
	f2 = open_attr(self, CFG_SIG(0, SIG), CFG1_DOM(1, 2, 0) | ALLUNITS,
		       0, -1);
	ASSERT_LE(0, f2);
	f0 = open_attr(self, CFG_SIG(0, SIG), GPC_SUM | ONEUNIT, 0, -1);
	ASSERT_LE(0, f0);
	fr = open_attr(self, CFG_SIG(0, SIG), CFG1_DOM(1, 0, 0), 0, -1);
	ASSERT_LE(0, fr);
	ASSERT_EQ(0, sim_advance(GPU, N, "gpc0.0"));
	EXPECT_EQ(SUM_WANT, nvpc_ev_count(fs));
	EXPECT_EQ(gpc_want[2], nvpc_ev_count(f2));
	EXPECT_EQ(gpc_want[0], nvpc_ev_count(f0));
	EXPECT_EQ(gpc_want[0], nvpc_ev_count(fr));
	close(fs);
	close(f2);
	close(f0);
	close(fr);
}

/*
 * events/: the named events of GPC and partition domains carry
 * allunits (perf.rst, "Whole-GPU counts"); format/ has both flags at
 * config1 bits 13 and 14.
 */
/* <pmu>/<rel> is @want (plus a newline) */
static void expect_pmu_file(struct __test_metadata *_metadata,
			    struct _test_data_units *self, const char *rel,
			    const char *want)
{
	char path[PATH_MAX], got[128] = "";

	snprintf(path, sizeof(path), "%s/%s", self->pmu, rel);
	if (nvpc_read_file(path, got, sizeof(got)) > 0)
		got[strcspn(got, "\n")] = '\0';
	EXPECT_STREQ(want, got) {
		TH_LOG("%s", rel);
	}
}

/* domains/<dom>/slots is @want */
static void expect_slots(struct __test_metadata *_metadata,
			 struct _test_data_units *self, const char *dom,
			 const char *want)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "domains/%s/slots", dom);
	expect_pmu_file(_metadata, self, rel, want);
}

#define SLOTS(dom, want)	expect_slots(_metadata, self, dom, want)

TEST_F(units, events_and_format)
{
	ASSERT_EQ(0, setup_gf100(self));
	expect_pmu_file(_metadata, self, "events/gpc_d0_cycles",
			"dset=1,dom=0,cycles,allunits");
	expect_pmu_file(_metadata, self, "events/part_d0_cycles",
			"dset=2,dom=0,cycles,allunits");
	/* USER_1: trailer base 0xa0 + 0x28 (events.rst, GF100) */
	expect_pmu_file(_metadata, self, "events/gpc_d0_user_1",
			"dset=1,dom=0,sig0=0xc8,allunits");
	expect_pmu_file(_metadata, self, "format/allunits", "config1:13");
	expect_pmu_file(_metadata, self, "format/oneunit", "config1:14");
}

/*
 * domains/<name>/slots: a unit of a sum shows "+sum". A single event on
 * gpc1.0 is added first and takes EVENT (the allocator's first choice,
 * perf.rst "Event fields": slot 0 any free input), so the sum's unit
 * there takes START, the next in the allocator's order; in the other
 * GPCs it takes EVENT. The summed cycles event counts once per domain.
 */
TEST_F(units, slots_show_the_units)
{
	int fe, fs, fc;

	ASSERT_EQ(0, setup_gf100(self));
	fe = open_attr(self, CFG_SIG(0, SIG), CFG1_DOM(1, 1, 0), 0, -1);
	ASSERT_LE(0, fe);
	fs = open_attr(self, CFG_SIG(0, SIG), GPC_SUM, 0, -1);
	ASSERT_LE(0, fs);
	fc = open_attr(self, CFG_CYCLES, GPC_SUM, 0, -1);
	ASSERT_LE(0, fc);
	SLOTS("gpc0.0", "pre=free start=free event=simple+sum stop=free cycles=1");
	SLOTS("gpc1.0", "pre=free start=simple+sum event=simple stop=free cycles=1");
	SLOTS("gpc2.0", "pre=free start=free event=simple+sum stop=free cycles=1");
	SLOTS("gpc3.0", "pre=free start=free event=simple+sum stop=free cycles=1");
	SLOTS("part0.0", "pre=free start=free event=free stop=free cycles=0");
	ASSERT_EQ(0, sim_advance(GPU, N, "gpc0.0"));
	EXPECT_EQ(gpc_want[1], nvpc_ev_count(fe));
	EXPECT_EQ(SUM_WANT, nvpc_ev_count(fs));
	EXPECT_EQ(NR_GPCS * N, nvpc_ev_count(fc));
	close(fs);
	close(fc);
	SLOTS("gpc1.0", "pre=free start=free event=simple stop=free cycles=0");
	SLOTS("gpc2.0", "pre=free start=free event=free stop=free cycles=0");
	close(fe);
}

/*
 * perf's times (time_enabled, time_running) are perf_clock(), that is
 * local_clock(). When the guest's TSCs are unsynchronized (TCG: "Marking
 * TSC unstable"), local_clock() never runs more than one tick
 * (TICK_NSEC) past the CPU's last sched_clock_tick() (kernel/sched/
 * clock.c, sched_clock_local()), so an open and a read a few
 * milliseconds apart within a late tick can see the same time: sleep
 * for two ticks at HZ=100, waking the CPU from idle (which ticks the
 * clock), before a read whose times are checked.
 */
static void perf_clock_tick(void)
{
	usleep(20000);
}

/*
 * All or nothing: four pinned events hold every input of gpc2.0 (slot
 * 1..4) and a pinned one holds EVENT of gpc0.0. Pinned events are
 * scheduled before the others and never rotated out, so the sum (not
 * pinned) cannot go on: it does not run (time_running 0, count 0) and
 * none of its units holds a slot, in gpc0.0, gpc1.0 or gpc3.0 either,
 * however often perf tries it meanwhile (it multiplexes: a rotation
 * every few ms); the pinned events count their windows exactly (gpc2.0
 * 252 each, gpc0.0 42). Once gpc2.0 is free, a disable and enable puts
 * the sum on (perf schedules an enabled event at once): it counts the
 * next window, 519.
 */
TEST_F_TIMEOUT(units, add_is_all_or_nothing, 60)
{
	struct nvpc_val v;
	int full[4], f0, fs, s;

	ASSERT_EQ(0, setup_gf100(self));
	for (s = 0; s < 4; s++) {
		full[s] = open_attr(self, CFG_SIG(0, SIG) | CFG_SLOT(s),
				    CFG1_DOM(1, 2, 0), 1, -1);
		ASSERT_LE(0, full[s]);
	}
	f0 = open_attr(self, CFG_SIG(0, SIG), CFG1_DOM(1, 0, 0), 1, -1);
	ASSERT_LE(0, f0);
	fs = open_attr(self, CFG_SIG(0, SIG), GPC_SUM, 0, -1);
	ASSERT_LE(0, fs);

	SLOTS("gpc0.0", "pre=free start=free event=simple stop=free cycles=0");
	SLOTS("gpc1.0", "pre=free start=free event=free stop=free cycles=0");
	SLOTS("gpc2.0", "pre=simple start=simple event=simple stop=simple cycles=0");
	SLOTS("gpc3.0", "pre=free start=free event=free stop=free cycles=0");
	ASSERT_EQ(0, sim_advance(GPU, N, "gpc0.0"));
	for (s = 0; s < 4; s++)
		EXPECT_EQ(gpc_want[2], nvpc_ev_count(full[s]));
	EXPECT_EQ(gpc_want[0], nvpc_ev_count(f0));
	perf_clock_tick();
	ASSERT_EQ(0, nvpc_ev_read(fs, &v));
	EXPECT_EQ(0, v.count);
	EXPECT_EQ(0, v.running);
	EXPECT_LT(0, v.enabled);
	SLOTS("gpc1.0", "pre=free start=free event=free stop=free cycles=0");
	SLOTS("gpc3.0", "pre=free start=free event=free stop=free cycles=0");

	for (s = 0; s < 4; s++)
		close(full[s]);
	ASSERT_EQ(0, ioctl(fs, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(fs, PERF_EVENT_IOC_ENABLE, 0));
	SLOTS("gpc0.0", "pre=free start=simple+sum event=simple stop=free cycles=0");
	SLOTS("gpc2.0", "pre=free start=free event=simple+sum stop=free cycles=0");
	ASSERT_EQ(0, sim_advance(GPU, N, "gpc0.0"));
	perf_clock_tick();
	ASSERT_EQ(0, nvpc_ev_read(fs, &v));
	EXPECT_EQ(SUM_WANT, v.count);
	EXPECT_LT(0, v.running);
	EXPECT_EQ(2 * gpc_want[0], nvpc_ev_count(f0));
	close(fs);
	close(f0);
}

/*
 * Group validation runs the allocator per unit (perf.rst, Errors: a
 * group that does not fit one domain's inputs, EINVAL): a sum leads,
 * three events of gpc1.0 join (its unit there and three: four inputs),
 * a fourth is refused. A sum joining a group that already fills
 * gpc3.0's four inputs is refused too; two sums in one group fit.
 */
TEST_F(units, group_validation_per_unit)
{
	int fds[16], nr = 0, lead, g, i;

	ASSERT_EQ(0, setup_gf100(self));
	lead = open_attr(self, CFG_SIG(0, SIG), GPC_SUM, 0, -1);
	ASSERT_LE(0, lead);
	fds[nr++] = lead;
	for (i = 0; i < 3; i++) {
		fds[nr] = open_attr(self, CFG_SIG(0, SIG), CFG1_DOM(1, 1, 0), 0,
				    lead);
		ASSERT_LE(0, fds[nr++]);
	}
	EXPECT_EQ(-EINVAL, open_attr(self, CFG_SIG(0, SIG), CFG1_DOM(1, 1, 0),
				     0, lead));
	fds[nr] = open_attr(self, CFG_CYCLES, GPC_SUM, 0, lead);
	EXPECT_LE(0, fds[nr++]);
	EXPECT_EQ(-EINVAL, open_attr(self, CFG_SIG(0, 2), GPC_SUM, 0, lead));

	g = open_attr(self, CFG_SIG(0, SIG), CFG1_DOM(1, 3, 0), 0, -1);
	ASSERT_LE(0, g);
	fds[nr++] = g;
	for (i = 0; i < 3; i++) {
		fds[nr] = open_attr(self, CFG_SIG(0, SIG), CFG1_DOM(1, 3, 0), 0,
				    g);
		ASSERT_LE(0, fds[nr++]);
	}
	EXPECT_EQ(-EINVAL, open_attr(self, CFG_SIG(0, SIG), GPC_SUM, 0, g));

	g = open_attr(self, CFG_SIG(0, SIG), PART_SUM, 0, -1);
	ASSERT_LE(0, g);
	fds[nr++] = g;
	fds[nr] = open_attr(self, CFG_SIG(0, 4), PART_SUM, 0, g);
	EXPECT_LE(0, fds[nr++]);
	while (nr--)
		if (fds[nr] >= 0)
			close(fds[nr]);
}

/*
 * Refusals (perf.rst, Errors): allunits or oneunit where there are no
 * units (a G84; a GK104's hub domain) or on a record event, EINVAL; a
 * sum of an absent domain index, or one unit that is absent, EINVAL; a
 * sum and a record event on one of its domains exclude each other,
 * EBUSY.
 */
TEST_F(units, refusals)
{
	struct perf_event_attr rec = {
		.size = sizeof(rec),
		.disabled = 1,
	};
	int fs, fr;

	ASSERT_EQ(0, setup_gpu(self, "g84"));
	EXPECT_LE(0, fs = open_attr(self, CFG_SIG(0, SIG), CFG1_DOM(0, 0, 1),
				    0, -1));
	close(fs);
	EXPECT_EQ(-EINVAL, open_attr(self, CFG_SIG(0, SIG),
				     CFG1_DOM(0, 0, 1) | ALLUNITS, 0, -1));
	EXPECT_EQ(-EINVAL, open_attr(self, CFG_SIG(0, SIG),
				     CFG1_DOM(0, 0, 1) | ONEUNIT, 0, -1));
	ASSERT_EQ(0, sim_gpu_remove(GPU));
	self->created = 0;

	/* GK104: hub.0 has no units; its GPC domains do */
	ASSERT_EQ(0, setup_gpu(self, "gk104 gpcs=2 parts=1"));
	EXPECT_LE(0, fs = open_attr(self, CFG_SIG(0, SIG), CFG1_DOM(0, 0, 0),
				    0, -1));
	close(fs);
	EXPECT_EQ(-EINVAL, open_attr(self, CFG_SIG(0, SIG),
				     CFG1_DOM(0, 0, 0) | ALLUNITS, 0, -1));
	EXPECT_LE(0, fs = open_attr(self, CFG_SIG(0, SIG), GPC_SUM, 0, -1));
	close(fs);
	ASSERT_EQ(0, sim_gpu_remove(GPU));
	self->created = 0;

	ASSERT_EQ(0, setup_gf100(self));
	/* a GF100's GPCs have domain 0 only (events.rst) */
	EXPECT_EQ(-EINVAL, open_attr(self, CFG_SIG(0, SIG),
				     CFG1_DOM(1, 0, 1) | ALLUNITS, 0, -1));
	/* GPC 4 is absent, as is partition 2 */
	EXPECT_EQ(-EINVAL, open_attr(self, CFG_SIG(0, SIG),
				     CFG1_DOM(1, 4, 0) | ALLUNITS, 0, -1));
	EXPECT_EQ(-EINVAL, open_attr(self, CFG_SIG(0, SIG),
				     CFG1_DOM(2, 2, 0) | ONEUNIT, 0, -1));
	/* a record event (STOP = signal 2) names one domain */
	rec.type = self->type;
	rec.config = NVPC_CFG_RECORD | CFG_SIG(0, 2);
	rec.config1 = GPC_SUM;
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&rec, -1, 0));
	rec.config1 = CFG1_DOM(1, 0, 0) | ONEUNIT;
	EXPECT_EQ(-EINVAL, nvpc_attr_open(&rec, -1, 0));

	/* a sum claims every unit's domain: no record event on gpc3.0 */
	fs = open_attr(self, CFG_SIG(0, SIG), GPC_SUM, 0, -1);
	ASSERT_LE(0, fs);
	rec.config1 = CFG1_DOM(1, 3, 0);
	EXPECT_EQ(-EBUSY, nvpc_attr_open(&rec, -1, 0));
	close(fs);
	/* ... and no sum while gpc2.0 records */
	rec.config1 = CFG1_DOM(1, 2, 0);
	fr = nvpc_attr_open(&rec, -1, 0);
	ASSERT_LE(0, fr);
	EXPECT_EQ(-EBUSY, open_attr(self, CFG_SIG(0, SIG), GPC_SUM, 0, -1));
	/* the partitions are other domains */
	fs = open_attr(self, CFG_SIG(0, SIG), PART_SUM, 0, -1);
	EXPECT_LE(0, fs);
	close(fs);
	close(fr);
}

/*
 * Documentation/perf.rst "Whole-GPU counts", its worked example through
 * the perf tool: the sum 519, gpc_d0_cycles (allunits in events/) 4N =
 * 1680, unit=2 alone 252, and gpc_d0_cycles,oneunit GPC 0's N cycles.
 */
TEST_F_TIMEOUT(units, perf_tool_worked_example, 120)
{
	unsigned long long sum = ~0ULL, cyc = ~0ULL, u2 = ~0ULL, u0 = ~0ULL;
	char cmd[1024], line[512];
	const char *pmu;
	FILE *p;

	ASSERT_EQ(0, setup_gf100(self));
	pmu = strrchr(self->pmu, '/') + 1;
	snprintf(cmd, sizeof(cmd),
		 "perf stat -a -x, -e %s/dset=1,dom=0,sig0=3,allunits/ -e %s/gpc_d0_cycles/ -e %s/dset=1,dom=0,sig0=3,unit=2/ -e %s/gpc_d0_cycles,oneunit/ -- sh -c 'echo \"%d gpc0.0\" > %s/gpu%d/advance' 2>&1",
		 pmu, pmu, pmu, pmu, N, NVPC_SIM_DIR, GPU);
	p = popen(cmd, "r");
	ASSERT_NE(NULL, p);
	while (fgets(line, sizeof(line), p)) {
		unsigned long long v = strtoull(line, NULL, 10);

		TH_LOG("%s", line);
		if (strstr(line, "allunits"))
			sum = v;
		else if (strstr(line, "unit=2"))
			u2 = v;
		else if (strstr(line, "oneunit"))
			u0 = v;
		else if (strstr(line, "gpc_d0_cycles"))
			cyc = v;
	}
	EXPECT_EQ(0, pclose(p));
	EXPECT_EQ(SUM_WANT, sum);
	EXPECT_EQ(NR_GPCS * N, cyc);
	EXPECT_EQ(gpc_want[2], u2);
	EXPECT_EQ(N, u0);
}

/* The number in the first "N events stop counting" line of /dev/kmsg. */
static int kmsg_events_stopped(int kfd)
{
	char rec[1024];
	ssize_t n;
	char *p;

	while ((n = read(kfd, rec, sizeof(rec) - 1)) > 0 || errno == EPIPE) {
		if (n <= 0)
			continue;
		rec[n] = '\0';
		p = strstr(rec, " events stop counting");
		if (!p)
			continue;
		while (p > rec && p[-1] >= '0' && p[-1] <= '9')
			p--;
		return atoi(p);
	}
	return -1;
}

/*
 * GPU removal with two sums open (perf.rst, Removal): each keeps the
 * count it had (519, and 4N = 1680 cycles), reads it unchanged after
 * the removal, and the log counts two events, not their eight units.
 */
TEST_F_TIMEOUT(units, removal_keeps_the_sum, 60)
{
	int fs, fc, kfd;

	ASSERT_EQ(0, setup_gf100(self));
	fs = open_attr(self, CFG_SIG(0, SIG), GPC_SUM, 0, -1);
	ASSERT_LE(0, fs);
	fc = open_attr(self, CFG_CYCLES, GPC_SUM, 0, -1);
	ASSERT_LE(0, fc);
	ASSERT_EQ(0, sim_advance(GPU, N, "gpc0.0"));
	EXPECT_EQ(SUM_WANT, nvpc_ev_count(fs));
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, kfd);
	ASSERT_LE(0, lseek(kfd, 0, SEEK_END));
	ASSERT_EQ(0, sim_gpu_remove(GPU));
	self->created = 0;
	EXPECT_EQ(2, kmsg_events_stopped(kfd));
	close(kfd);
	EXPECT_EQ(SUM_WANT, nvpc_ev_count(fs));
	EXPECT_EQ(NR_GPCS * N, nvpc_ev_count(fc));
	/* disabled and enabled again: still the last value */
	ASSERT_EQ(0, ioctl(fs, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(fs, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(SUM_WANT, nvpc_ev_count(fs));
	close(fs);
	close(fc);
}

TEST_HARNESS_MAIN
