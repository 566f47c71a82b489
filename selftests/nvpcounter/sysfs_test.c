// SPDX-License-Identifier: GPL-2.0
/*
 * domains/ and events/ of the nvpcounter PMUs on simulated GPUs
 * (Documentation/ABI/testing/sysfs-bus-event_source-devices-nvpcounter).
 *
 * The expected domain lists come from the documents: the clock of each
 * counter set from envytools' pcounter/nv40.txt ("Other NV84+ define the
 * following on top of NV40": 0 host, 1 core, 2 geometry, 3 shader, 4
 * memory, 5 core (misc), 6 video decoding, 7 core (VM)); trailer bases from
 * the chip's "trailer base" lines or, failing those, from nouveau's first
 * trailer signal (ZERO, base + 0x0c on G84:GF100, envytools'
 * pcounter/intro.rst "Trailer signals"): G84 "ec"/"8c" -> 0xe0/0x80, GT215
 * "ec"/"cc" -> 0xe0/0xc0; the NV84 list's host signal 0x2c puts G84's host
 * base at 0x40. A domain's signals end with its trailer: count = base +
 * 0x20. Domains no document sizes keep the 0x20 of nouveau's PM domain
 * tables (nvkm/engine/pm/). GF100: nvkm/engine/pm/gf100.c's gpc 0 and
 * part 0 0xe0, the GF100+ trailer (USER at base + 0x27 .. FLAG at base +
 * 0x3f) ending there: base 0xa0.
 */
#include <pthread.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "nvpc_perf.h"

struct dom_want {
	const char *dir;
	unsigned int signals;
	unsigned int trailer_base;
};

static const struct dom_want g84_doms[] = {
	{ "main.0", 0x60, 0x40 },
	{ "main.1", 0x100, 0xe0 },
	{ "main.2", 0xa0, 0x80 },
	{ "main.3", 0x20, 0x00 },
	{ "main.4", 0x20, 0x00 },
	{ "main.5", 0x20, 0x00 },
	{ "main.6", 0x20, 0x00 },
	{ "main.7", 0x20, 0x00 },
	{ NULL },
};

static const struct dom_want gt215_doms[] = {
	{ "main.0", 0x20, 0x00 },
	{ "main.1", 0x100, 0xe0 },
	{ "main.2", 0xe0, 0xc0 },
	{ "main.3", 0x20, 0x00 },
	{ "main.4", 0x20, 0x00 },
	{ "main.5", 0x20, 0x00 },
	{ "main.6", 0x20, 0x00 },
	{ "main.7", 0x20, 0x00 },
	{ NULL },
};

/* gpcs=2 parts=1: GPC 0, GPC 1, partition 0; GF100 has no hub domain */
static const struct dom_want gf100_doms[] = {
	{ "gpc0.0", 0xe0, 0xa0 },
	{ "gpc1.0", 0xe0, 0xa0 },
	{ "part0.0", 0xe0, 0xa0 },
	{ NULL },
};

static const char * const dom_attrs[] = {
	"clock", "clock_hz", "nominal_hz", "signals", "trailer_base", "mode",
	"ctr_mode", "single_state", "quad_state", "slots", "lost_periods",
	"saturations", "stragglers", "not_responding", "samples", "status",
	"zero",
	NULL,
};

FIXTURE(sysfs) {
	int gpu;
	int type;
	char pmu[PATH_MAX];
};

FIXTURE_SETUP(sysfs)
{
	self->gpu = -1;
}

FIXTURE_TEARDOWN(sysfs)
{
	if (self->gpu >= 0)
		sim_gpu_remove(self->gpu);
}

static int setup_gpu(struct _test_data_sysfs *self, const char *args)
{
	int ret = sim_gpu_create(2, args);

	if (ret)
		return ret;
	self->gpu = 2;
	self->type = nvpc_pmu_find(self->gpu, self->pmu, sizeof(self->pmu));
	return self->type < 0 ? -ENOENT : 0;
}

/* The text of <pmu>/<rel> without its newline, or "" */
static const char *pmu_str(struct _test_data_sysfs *self, const char *rel)
{
	static char buf[512];
	char path[PATH_MAX];
	int n;

	snprintf(path, sizeof(path), "%s/%s", self->pmu, rel);
	n = nvpc_read_file(path, buf, sizeof(buf));
	if (n <= 0)
		return "";
	if (buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return buf;
}

static int count_dirs(const char *path)
{
	struct dirent *de;
	int n = 0;
	DIR *d = opendir(path);

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static void check_domains(struct __test_metadata *_metadata,
			  struct _test_data_sysfs *self,
			  const struct dom_want *want)
{
	char rel[128], path[PATH_MAX];
	int n;

	for (n = 0; want[n].dir; n++) {
		snprintf(rel, sizeof(rel), "domains/%s/signals", want[n].dir);
		EXPECT_EQ(want[n].signals, nvpc_pmu_num(self->pmu, rel));
		snprintf(rel, sizeof(rel), "domains/%s/trailer_base",
			 want[n].dir);
		EXPECT_EQ(want[n].trailer_base, nvpc_pmu_num(self->pmu, rel));
	}
	snprintf(path, sizeof(path), "%s/domains", self->pmu);
	EXPECT_EQ(n, count_dirs(path));
}

TEST_F(sysfs, g84_domains_as_documented)
{
	ASSERT_EQ(0, setup_gpu(self, "g84"));
	check_domains(_metadata, self, g84_doms);
	EXPECT_STREQ("core", pmu_str(self, "domains/main.1/clock"));
	EXPECT_STREQ("G84 sim.2", pmu_str(self, "identifier"));
}

TEST_F(sysfs, gt215_domains_as_documented)
{
	ASSERT_EQ(0, setup_gpu(self, "gt215"));
	check_domains(_metadata, self, gt215_doms);
}

TEST_F(sysfs, gf100_domains_as_documented)
{
	ASSERT_EQ(0, setup_gpu(self, "gf100 gpcs=2 parts=1"));
	check_domains(_metadata, self, gf100_doms);
}

/*
 * The live bitmap: signal 0x10 of main.1 held at 1 is bit 16 of word 0,
 * 0x11 held at 0 is bit 17; the trailer's ZERO (base 0xe0 + 0x0c = 0xec,
 * word 7 bit 12) is always 0.
 */
TEST_F(sysfs, g84_status_bitmap)
{
	unsigned int w[8];
	int n;

	ASSERT_EQ(0, setup_gpu(self, "g84"));
	ASSERT_EQ(0, sim_wave(self->gpu, "main.1", 0x10, WAVE_CONST(1)));
	ASSERT_EQ(0, sim_wave(self->gpu, "main.1", 0x11, WAVE_CONST(0)));
	ASSERT_EQ(0, sim_wave(self->gpu, "main.1", 0x42, WAVE_CONST(1)));
	ASSERT_EQ(0, sim_advance(self->gpu, 10, "main.1"));
	n = sscanf(pmu_str(self, "domains/main.1/status"),
		   "%x %x %x %x %x %x %x %x", &w[0], &w[1], &w[2], &w[3], &w[4],
		   &w[5], &w[6], &w[7]);
	ASSERT_EQ(8, n);
	EXPECT_EQ(1, (w[0] >> 16) & 1);
	EXPECT_EQ(0, (w[0] >> 17) & 1);
	/* 0x42: word 2, bit 2 */
	EXPECT_EQ(1, (w[2] >> 2) & 1);
	EXPECT_EQ(0, (w[7] >> 12) & 1);
	/* nothing else is set: every other source is constant 0 */
	EXPECT_EQ(1U << 16, w[0] & ~0U);
}

/*
 * Quad state and lost periods follow the faults: a swap the driver did
 * not make (a PRE_OP write, pcounter.rst "Quad event mode") leaves
 * VALID, with "lost_swaps" it leaves OVERFLOW; the next read sees
 * OVERFLOW, counts one lost period and acks back to EMPTY.
 */
TEST_F(sysfs, g84_quad_state_and_lost_periods)
{
	long long pre_op;
	char buf[64], path[128];
	int fd;

	ASSERT_EQ(0, setup_gpu(self, "g84"));
	EXPECT_STREQ("single", pmu_str(self, "domains/main.0/mode"));
	fd = nvpc_ev_open(self->type, CFG_SIG(0, 1), CFG1_DOM(0, 0, 0), 0, -1);
	ASSERT_LE(0, fd);
	EXPECT_STREQ("quad", pmu_str(self, "domains/main.0/mode"));
	EXPECT_STREQ("empty", pmu_str(self, "domains/main.0/quad_state"));
	EXPECT_STREQ("pre=free start=free event=simple stop=free cycles=0",
		     pmu_str(self, "domains/main.0/slots"));

	/* PRE_OP[0] at 0xa420: rewrite its value, which swaps on G84+ */
	snprintf(path, sizeof(path), NVPC_SIM_DIR "/gpu%d/reg", self->gpu);
	ASSERT_EQ(0, sim_cmd(self->gpu, "reg", "0xa420"));
	ASSERT_LT(0, nvpc_read_file(path, buf, sizeof(buf)));
	pre_op = strtoll(buf, NULL, 0);
	ASSERT_EQ(0, sim_advance(self->gpu, 5, "main.0"));
	ASSERT_EQ(0, sim_cmd(self->gpu, "reg", "0xa420 0x%llx", pre_op));
	ASSERT_EQ(0, sim_advance(self->gpu, 5, "main.0"));
	EXPECT_STREQ("valid", pmu_str(self, "domains/main.0/quad_state"));
	/* our read swaps again: VALID -> OVERFLOW, a period really lost */
	nvpc_ev_count(fd);
	EXPECT_EQ(1, nvpc_pmu_num(self->pmu, "domains/main.0/lost_periods"));
	EXPECT_STREQ("empty", pmu_str(self, "domains/main.0/quad_state"));

	ASSERT_EQ(0, sim_cmd(self->gpu, "fault", "lost_swaps main.0 1"));
	ASSERT_EQ(0, sim_cmd(self->gpu, "reg", "0xa420 0x%llx", pre_op));
	ASSERT_EQ(0, sim_advance(self->gpu, 5, "main.0"));
	EXPECT_STREQ("overflow",
		     pmu_str(self, "domains/main.0/quad_state"));
	nvpc_ev_count(fd);
	EXPECT_EQ(2, nvpc_pmu_num(self->pmu, "domains/main.0/lost_periods"));
	EXPECT_STREQ("empty", pmu_str(self, "domains/main.0/quad_state"));
	EXPECT_EQ(0, nvpc_pmu_num(self->pmu,
				  "domains/main.0/not_responding"));
	close(fd);
	EXPECT_STREQ("single", pmu_str(self, "domains/main.0/mode"));
}

/*
 * The measured clock: in real time at 100 kHz (Documentation/sim.rst:
 * the model keeps up at that clock under TCG), within 1% after a few
 * seconds of counting.
 */
TEST_F_TIMEOUT(sysfs, g84_measured_clock, 60)
{
	long long hz;
	int fd, i;

	ASSERT_EQ(0, setup_gpu(self, "g84"));
	ASSERT_EQ(0, sim_cmd(self->gpu, "clocks", "all 100000"));
	ASSERT_EQ(0, sim_cmd(self->gpu, "clock", "realtime"));
	fd = nvpc_ev_open(self->type, CFG_CYCLES, CFG1_DOM(0, 0, 1), 0, -1);
	ASSERT_LE(0, fd);
	for (i = 0; i < 35; i++) {
		usleep(100000);
		nvpc_ev_count(fd);
	}
	hz = nvpc_pmu_num(self->pmu, "domains/main.1/clock_hz");
	TH_LOG("measured %lld Hz, sim clock 100000 Hz", hz);
	EXPECT_LT(99000, hz);
	EXPECT_GT(101000, hz);
	EXPECT_EQ(575000000, nvpc_pmu_num(self->pmu,
					  "domains/main.1/nominal_hz"));
	close(fd);
}

/* Parse "dset=S,dom=D,sig0=0xNN" of an events/ file into config/config1 */
static int parse_event(const char *s, __u64 *config, __u64 *config1)
{
	unsigned int dset, dom, sig;

	if (sscanf(s, "dset=%u,dom=%u,sig0=%x", &dset, &dom, &sig) != 3)
		return -1;
	*config = CFG_SIG(0, sig);
	*config1 = CFG1_DOM(dset, 0, dom);
	return 0;
}

/*
 * graph_idle is 0xbd in domain 1 on G84 (nouveau's PM signal names):
 * events/ says so, and the named form counts what the raw form counts.
 * pcrypt_idle (NV98 list, domain 5) is no G84 signal: absent.
 */
TEST_F(sysfs, g84_named_event_is_raw_event)
{
	__u64 config, config1;
	int fn, fr;
	struct stat st;
	char path[PATH_MAX];

	ASSERT_EQ(0, setup_gpu(self, "g84"));
	EXPECT_STREQ("dset=0,dom=1,sig0=0xbd",
		     pmu_str(self, "events/graph_idle"));
	EXPECT_STREQ("dset=0,dom=1,cycles", pmu_str(self, "events/d1_cycles"));
	snprintf(path, sizeof(path), "%s/events/pcrypt_idle", self->pmu);
	EXPECT_NE(0, stat(path, &st));
	ASSERT_EQ(0, parse_event(pmu_str(self, "events/graph_idle"), &config,
				 &config1));
	ASSERT_EQ(0, sim_wave(self->gpu, "main.1", 0xbd,
			      WAVE_PERIODIC(10, 3, 0)));
	fn = nvpc_ev_open(self->type, config, config1, 0, -1);
	ASSERT_LE(0, fn);
	fr = nvpc_ev_open(self->type, CFG_SIG(0, 0xbd), CFG1_DOM(0, 0, 1), 0,
			  -1);
	ASSERT_LE(0, fr);
	ASSERT_EQ(0, sim_advance(self->gpu, 1000, "main.1"));
	/* 3 of every 10 cycles */
	EXPECT_EQ(300, nvpc_ev_count(fn));
	EXPECT_EQ(300, nvpc_ev_count(fr));
	close(fn);
	close(fr);
}

/* Sorted names of the entries of a directory (no dot entries), or -1 */
static int list_dir(const char *path, char names[][64], int max)
{
	struct dirent *de;
	int n = 0, i, j;
	DIR *d = opendir(path);

	if (!d)
		return -1;
	while ((de = readdir(d)) && n < max) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(names[n++], 64, "%s", de->d_name);
	}
	closedir(d);
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			char t[64];

			memcpy(t, names[j], 64);
			memcpy(names[j], names[j - 1], 64);
			memcpy(names[j - 1], t, 64);
		}
	return n;
}

/* The events/ names of the PMU ending in @suffix, joined by spaces */
static const char *events_ending(struct _test_data_sysfs *self,
				 const char *suffix)
{
	static char names[1024][64], out[4096];
	char path[PATH_MAX];
	size_t ls = strlen(suffix), l;
	int n, i;

	snprintf(path, sizeof(path), "%s/events", self->pmu);
	n = list_dir(path, names, 1024);
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		l = strlen(names[i]);
		if (l >= ls && !strcmp(names[i] + l - ls, suffix))
			snprintf(out + strlen(out), sizeof(out) - strlen(out),
				 "%s ", names[i]);
	}
	return n < 0 ? "(no events/)" : out;
}

/*
 * Documentation/events.rst, "Left out of events/": no event counts the
 * driver's own swap trigger (PGRAPH PM_TRIGGER on NV30:G84, USER_0 on
 * GF100+), PERIODIC (disabled, G84+) or ZERO (NV40+); PM_TRIGGER stays an
 * event where the driver does not pulse it (NV20:NV30, G84:GF100). The ids,
 * by hand from the trailer tables (envytools' pcounter/intro.rst, Trailer
 * signals): NV20 PM_TRIGGER base 0 + 0x1d; G80 graph (base 0xe0, NV50 list)
 * ZERO 0xee, PM_TRIGGER 0xef, PGRAPH_IDLE 0xc8; G84 graph (base 0xe0) ZERO
 * 0xec, PERIODIC 0xed, PM_TRIGGER 0xef, graph idle 0xbd;
 * GF100 gpc 0 (base 0xa0) USER_0 0xc7, USER_1 0xc8, PERIODIC 0xce.
 */
static const struct {
	const char *chip;
	const char *absent[3];		/* no events/ name ends so */
	const char *name, *config;	/* an event that stays */
} unlisted_want[] = {
	{ "nv20", { "_zero", "_periodic" }, "d0_pm_trigger",
	  "dset=0,dom=0,sig0=0x1d" },
	{ "nv34", { "_pm_trigger" }, "d1_dom0_flag",
	  "dset=0,dom=1,sig0=0x1f" },
	{ "g80", { "_pm_trigger", "_zero" }, "graph_idle",
	  "dset=0,dom=1,sig0=0xc8" },
	{ "g84", { "_periodic", "_zero" }, "d1_pm_trigger",
	  "dset=0,dom=1,sig0=0xef" },
	{ "g84", { NULL }, "graph_idle", "dset=0,dom=1,sig0=0xbd" },
	{ "gf100", { "_user_0", "_periodic" }, "gpc_d0_user_1",
	  "dset=1,dom=0,sig0=0xc8,allunits" },
};

TEST_F(sysfs, events_leave_out_swap_and_constant_signals)
{
	char rel[128];
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(unlisted_want); i++) {
		ASSERT_EQ(0, setup_gpu(self, unlisted_want[i].chip));
		for (j = 0; j < 3 && unlisted_want[i].absent[j]; j++) {
			const char *sfx = unlisted_want[i].absent[j];

			EXPECT_STREQ("", events_ending(self, sfx)) {
				TH_LOG("%s", unlisted_want[i].chip);
			}
		}
		snprintf(rel, sizeof(rel), "events/%s", unlisted_want[i].name);
		EXPECT_STREQ(unlisted_want[i].config, pmu_str(self, rel)) {
			TH_LOG("%s", unlisted_want[i].chip);
		}
		ASSERT_EQ(0, sim_gpu_remove(self->gpu));
		self->gpu = -1;
	}
}

/*
 * Their ids still work in raw events. G84 PERIODIC (main.1 0xed): the
 * generator is disabled (CTRL PERIODIC_PERIOD 0, pcounter.rst "The
 * PERIODIC signal": constant 0), so 1000 cycles count 0 while signal 0x10
 * held at 1 counts 1000 beside it. GF100 USER_0 (gpc0.0 0xc7) and G80
 * PM_TRIGGER (main.1 0xef) open.
 */
TEST_F(sysfs, unlisted_signals_stay_raw_events)
{
	int fp, fc;

	ASSERT_EQ(0, setup_gpu(self, "g84"));
	ASSERT_EQ(0, sim_wave(self->gpu, "main.1", 0x10, WAVE_CONST(1)));
	fp = nvpc_ev_open(self->type, CFG_SIG(0, 0xed), CFG1_DOM(0, 0, 1), 0,
			  -1);
	ASSERT_LE(0, fp);
	fc = nvpc_ev_open(self->type, CFG_SIG(0, 0x10), CFG1_DOM(0, 0, 1), 0,
			  -1);
	ASSERT_LE(0, fc);
	ASSERT_EQ(0, sim_advance(self->gpu, 1000, "main.1"));
	EXPECT_EQ(0, nvpc_ev_count(fp));
	EXPECT_EQ(1000, nvpc_ev_count(fc));
	close(fp);
	close(fc);
	ASSERT_EQ(0, sim_gpu_remove(self->gpu));
	self->gpu = -1;

	ASSERT_EQ(0, setup_gpu(self, "gf100 gpcs=1 parts=1"));
	fp = nvpc_ev_open(self->type, CFG_SIG(0, 0xc7), CFG1_DOM(1, 0, 0), 0,
			  -1);
	EXPECT_LE(0, fp);
	close(fp);
	ASSERT_EQ(0, sim_gpu_remove(self->gpu));
	self->gpu = -1;

	ASSERT_EQ(0, setup_gpu(self, "g80"));
	fp = nvpc_ev_open(self->type, CFG_SIG(0, 0xef), CFG1_DOM(0, 0, 1), 0,
			  -1);
	EXPECT_LE(0, fp);
	close(fp);
}

/* domains/ holds exactly the directories @want (sorted) */
static void check_domain_dirs(struct __test_metadata *_metadata,
			      struct _test_data_sysfs *self,
			      const char * const *want, int n)
{
	char names[64][64], path[PATH_MAX];
	int i;

	snprintf(path, sizeof(path), "%s/domains", self->pmu);
	ASSERT_EQ(n, list_dir(path, names, 64));
	for (i = 0; i < n; i++)
		EXPECT_STREQ(want[i], names[i]);
}

/*
 * One name per domain (Documentation/events.rst, "Domain names"): the
 * domains/ directories are exactly main.0 .. main.7 on a G84 (8 domains,
 * envytools' pcounter/nv40.txt "Other NV84+") and, on a GF100 with 2 GPCs
 * and 2 partitions (one gpc and one part domain each, nouveau's
 * nvkm/engine/pm/gf100.c), gpc0.0, gpc1.0, part0.0, part1.0. The cycles
 * events of the GPCs and the partitions are gpc_d0_cycles and
 * part_d0_cycles (dset 1 and 2, every unit: allunits, perf.rst).
 */
TEST_F(sysfs, domain_names_exactly_documented)
{
	static const char * const g84[] = {
		"main.0", "main.1", "main.2", "main.3", "main.4", "main.5",
		"main.6", "main.7",
	};
	static const char * const gf100[] = {
		"gpc0.0", "gpc1.0", "part0.0", "part1.0",
	};
	ASSERT_EQ(0, setup_gpu(self, "g84"));
	check_domain_dirs(_metadata, self, g84, ARRAY_SIZE(g84));
	EXPECT_STREQ("dset=0,dom=7,cycles", pmu_str(self, "events/d7_cycles"));
	ASSERT_EQ(0, sim_gpu_remove(self->gpu));
	self->gpu = -1;

	ASSERT_EQ(0, setup_gpu(self, "gf100 gpcs=2 parts=2"));
	check_domain_dirs(_metadata, self, gf100, ARRAY_SIZE(gf100));
	EXPECT_STREQ("dset=1,dom=0,cycles,allunits",
		     pmu_str(self, "events/gpc_d0_cycles"));
	EXPECT_STREQ("dset=2,dom=0,cycles,allunits",
		     pmu_str(self, "events/part_d0_cycles"));
}

/*
 * Run a `perf stat -x,` command line; the count of the first output line
 * that holds @key_a goes to @a, else of one that holds @key_b to @b.
 * Returns the command's exit status.
 */
static int perf_stat_pair(struct __test_metadata *_metadata, const char *cmd,
			  const char *key_a, unsigned long long *a,
			  const char *key_b, unsigned long long *b)
{
	char out[4096];
	FILE *p = popen(cmd, "r");

	if (!p)
		return -1;
	while (fgets(out, sizeof(out), p)) {
		TH_LOG("%s", out);
		if (strstr(out, key_a))
			*a = strtoull(out, NULL, 10);
		else if (strstr(out, key_b))
			*b = strtoull(out, NULL, 10);
	}
	return pclose(p);
}

/* The same through the perf tool (the host's perf, in the chroot). */
TEST_F_TIMEOUT(sysfs, perf_tool_named_event, 120)
{
	char cmd[512];
	unsigned long long named = 0, raw = 0;

	ASSERT_EQ(0, setup_gpu(self, "gt215"));
	ASSERT_EQ(2, self->gpu);
	/* GT215 graph idle is 0xcb (nouveau's PM signal names) */
	ASSERT_EQ(0, sim_wave(self->gpu, "main.1", 0xcb,
			      WAVE_PERIODIC(4, 1, 0)));
	/* the PMU may be nvpcounter or nvpcounter_N: use its own name */
	const char *pmu = strrchr(self->pmu, '/') + 1;

	snprintf(cmd, sizeof(cmd), "%s %s/graph_idle/ -e %s/dom=1,sig0=0xcb/ %s",
		 "perf stat -a -x, -e", pmu, pmu,
		 "-- sh -c 'echo 4000 main.1 > " NVPC_SIM_DIR "/gpu2/advance' 2>&1");
	EXPECT_EQ(0, perf_stat_pair(_metadata, cmd, "graph_idle", &named,
				    "sig0=0xcb", &raw));
	/* one cycle in four of 4000 */
	EXPECT_EQ(1000, named);
	EXPECT_EQ(1000, raw);

	/* a name the chip lacks is refused by perf */
	snprintf(cmd, sizeof(cmd),
		 "perf stat -a -e %s/pcrypt_idle/ true > /dev/null 2>&1",
		 strrchr(self->pmu, '/') + 1);
	EXPECT_NE(0, system(cmd));
}

/*
 * events.rst: a named event of a per-GPC domain counts every GPC, unit=
 * picks one, oneunit GPC 0 (perf.rst, "Whole-GPU counts"). Three
 * USER_TRIGGER writes of 0x22 (value and pulse bit of USER_1, pcounter.rst
 * "The USER signals") at gpc1.0's base 0x181000 (nouveau's
 * nvkm/engine/pm/gf100.c: 0x180000 + g * 0x1000) + 0xec, each followed by
 * 10 cycles: USER_1 of gpc1.0 is 1 in 3 cycles, that of gpc0.0 in none, so
 * the sum is 3.
 */
TEST_F_TIMEOUT(sysfs, perf_tool_unit_picks_gpc, 120)
{
	char cmd[1024];
	unsigned long long all = ~0ULL, gpc0 = ~0ULL, gpc1 = ~0ULL;
	const char *pmu;

	ASSERT_EQ(0, setup_gpu(self, "gf100 gpcs=2 parts=1"));
	pmu = strrchr(self->pmu, '/') + 1;
	snprintf(cmd, sizeof(cmd),
		 "perf stat -a -x, -e %s/gpc_d0_user_1/ -e %s/gpc_d0_user_1,unit=1/ -- sh -c 'for i in 1 2 3; do echo \"0x1810ec 0x22\" > %s/gpu2/reg; echo \"10 gpc1.0\" > %s/gpu2/advance; done' 2>&1",
		 pmu, pmu, NVPC_SIM_DIR, NVPC_SIM_DIR);
	EXPECT_EQ(0, perf_stat_pair(_metadata, cmd, "unit=1", &gpc1,
				    "gpc_d0_user_1", &all));
	EXPECT_EQ(3, all);
	EXPECT_EQ(3, gpc1);
	snprintf(cmd, sizeof(cmd),
		 "perf stat -a -x, -e %s/gpc_d0_user_1,oneunit/ -e %s/gpc_d0_user_1/ -- sh -c 'for i in 1 2 3; do echo \"0x1810ec 0x22\" > %s/gpu2/reg; echo \"10 gpc1.0\" > %s/gpu2/advance; done' 2>&1",
		 pmu, pmu, NVPC_SIM_DIR, NVPC_SIM_DIR);
	all = ~0ULL;
	EXPECT_EQ(0, perf_stat_pair(_metadata, cmd, "oneunit", &gpc0,
				    "gpc_d0_user_1", &all));
	EXPECT_EQ(0, gpc0);
	EXPECT_EQ(3, all);
}

struct reader {
	const char *pmu;
	int stop;
	long reads;
	long errors;
};

static void *read_all_attrs(void *arg)
{
	struct reader *r = arg;
	char path[PATH_MAX], buf[512];
	struct dirent *de;
	int i;

	while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
		DIR *d;

		snprintf(path, sizeof(path), "%s/domains", r->pmu);
		d = opendir(path);
		if (!d) {
			r->errors++;
			return NULL;
		}
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			for (i = 0; dom_attrs[i]; i++) {
				snprintf(path, sizeof(path), "%s/domains/%s/%s",
					 r->pmu, de->d_name, dom_attrs[i]);
				if (nvpc_read_file(path, buf, sizeof(buf)) <= 0)
					r->errors++;
				r->reads++;
			}
		}
		closedir(d);
	}
	return NULL;
}

/* Reading every attribute in a loop disturbs neither counts nor reads. */
TEST_F_TIMEOUT(sysfs, reads_while_counting, 120)
{
	struct reader r = { 0 };
	pthread_t t;
	int fd, fc, i;

	ASSERT_EQ(0, setup_gpu(self, "g84"));
	ASSERT_EQ(0, sim_wave(self->gpu, "main.2", 5, WAVE_PERIODIC(6, 5, 2)));
	fd = nvpc_ev_open(self->type, CFG_SIG(0, 5), CFG1_DOM(0, 0, 2), 0, -1);
	ASSERT_LE(0, fd);
	fc = nvpc_ev_open(self->type, CFG_CYCLES, CFG1_DOM(0, 0, 2), 0, -1);
	ASSERT_LE(0, fc);
	r.pmu = self->pmu;
	ASSERT_EQ(0, pthread_create(&t, NULL, read_all_attrs, &r));
	for (i = 1; i <= 200; i++) {
		ASSERT_EQ(0, sim_advance(self->gpu, 600, "main.2"));
		/* 5 of every 6 cycles */
		ASSERT_EQ((__u64)i * 500, nvpc_ev_count(fd));
		ASSERT_EQ((__u64)i * 600, nvpc_ev_count(fc));
	}
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELAXED);
	pthread_join(t, NULL);
	TH_LOG("%ld attribute reads, %ld errors", r.reads, r.errors);
	EXPECT_LT(0, r.reads);
	EXPECT_EQ(0, r.errors);
	close(fd);
	close(fc);
}

/* The register dump is root-only and shows what the driver wrote. */
TEST_F(sysfs, debugfs_regs)
{
	char path[PATH_MAX], buf[65536];
	struct stat st;
	int fd;

	ASSERT_EQ(0, setup_gpu(self, "g84"));
	fd = nvpc_ev_open(self->type, CFG_SIG(0, 0x12) | CFG_SLOT(NVPC_SLOT_STOP),
			  CFG1_DOM(0, 0, 3), 0, -1);
	ASSERT_LE(0, fd);
	snprintf(path, sizeof(path), "/sys/kernel/debug/nvpcounter/%s/regs",
		 strrchr(self->pmu, '/') + 1);
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(0400, st.st_mode & 0777);
	ASSERT_LT(0, nvpc_read_file(path, buf, sizeof(buf)));
	/*
	 * STOP_SRC[3] = 0x12 at 0xa4c0 + 3 * 4 = 0xa4cc: the line of 0xa4c0,
	 * fourth word; CTRL[3] at 0xa7cc = quad mode (1)
	 */
	EXPECT_NE(NULL, strstr(buf, "00a4c0: 00000000 00000000 00000000 00000012"));
	EXPECT_NE(NULL, strstr(buf, "00a7c0: "));
	close(fd);
}

TEST_HARNESS_MAIN
