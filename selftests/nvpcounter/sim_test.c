// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter_sim: simulated GPUs driven through the debugfs interface of
 * Documentation/sim.rst, with expected counter values worked out by hand
 * from envytools' pcounter.rst.
 */
#include <stdarg.h>
#include <stdint.h>
#include <time.h>

#include "kselftest_harness.h"
#include "nvpc_perf.h"

#define SIM_DIR		NVPC_SIM_DIR

/* G84 (NV40:GF100 layout, pcounter.rst "MMIO registers"), domain 0 */
#define G84_EVENT_SRC0	0x00a480	/* 0xa400 + EVENT(2) * 0x40 */
#define G84_EVENT_OP0	0x00a4a0	/* 0xa420 + EVENT(2) * 0x40 */
#define G84_PRE_OP0	0x00a420
#define G84_CTR_CYCLES0	0x00a600
#define G84_CTR_EVENT0	0x00a680
#define G84_CTRL0	0x00a7c0
#define G84_QUAD_ACK0	0x00a7e0
#define CTRL_MODE_QUAD	1
#define QUAD_STATE(ctrl)	(((ctrl) >> 24) & 3)
/* record mode [G84:GF100] (pcounter.rst "Record mode setup") */
#define G84_PRE_SRC0	0x00a400
#define G84_STOP_SRC0	0x00a4c0	/* 0xa400 + STOP(3) * 0x40 */
#define G84_STOP_OP0	0x00a4e0
#define G84_REC_STATUS0	0x00a6e0
#define G84_REC_LIMIT0	0x00a720
#define G84_REC_START0	0x00a760
#define G84_REC_CHAN	0x00a7a0
#define G84_REC_DMA	0x00a7a4
#define REC_CHAN_VALID	0x80000000
#define CTRL_MODE_RECORD	2

static int gpu_read(int gpu, const char *file, char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), SIM_DIR "/gpu%d/%s", gpu, file);
	return nvpc_read_file(path, buf, len);
}

/* Value of "key N" in a key/value file, or -1. */
static long long gpu_key(int gpu, const char *file, const char *key)
{
	char buf[4096], *p;
	size_t kl = strlen(key);

	if (gpu_read(gpu, file, buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, kl) && p[kl] == ' ')
			return strtoll(p + kl + 1, NULL, 0);
	return -1;
}

/* A register through the "reg" window; -1 if the window failed. */
static long long reg_rd(int gpu, uint32_t addr)
{
	char buf[64];

	if (sim_cmd(gpu, "reg", "0x%x", addr) ||
	    gpu_read(gpu, "reg", buf, sizeof(buf)) <= 0)
		return -1;
	return strtoll(buf, NULL, 0);
}

static int reg_wr(int gpu, uint32_t addr, uint32_t val)
{
	return sim_cmd(gpu, "reg", "0x%x 0x%x", addr, val);
}

/* Cycles processed by flat domain dom (the "domains" file, 5th column). */
static long long dom_cycles(int gpu, int dom)
{
	char buf[8192], *line;
	int idx;
	unsigned long long hz, cyc;

	if (gpu_read(gpu, "domains", buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		if (sscanf(line, "%d %*s %*s %llu %llu", &idx, &hz, &cyc) == 3 &&
		    idx == dom)
			return cyc;
	return -1;
}

/* Flat index of a named domain ("domains" file, 2nd column), or -1. */
static int dom_index(int gpu, const char *name)
{
	char buf[8192], *line, n[32];
	int idx;

	if (gpu_read(gpu, "domains", buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		if (sscanf(line, "%d %31s", &idx, n) == 2 && !strcmp(n, name))
			return idx;
	return -1;
}

/* Clock of flat domain dom (the "domains" file, 4th column). */
static long long dom_hz(int gpu, int dom)
{
	char buf[8192], *line;
	unsigned long long hz;
	int idx;

	if (gpu_read(gpu, "domains", buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		if (sscanf(line, "%d %*s %*s %llu", &idx, &hz) == 2 &&
		    idx == dom)
			return hz;
	return -1;
}

static int nr_domains(int gpu)
{
	return gpu_key(gpu, "info", "domains");
}

static int sim_create(const char *cmd)
{
	return nvpc_write(SIM_DIR "/create", "%s", cmd);
}

FIXTURE(sim) {
	int unused;
};

FIXTURE_SETUP(sim)
{
	nvpc_mod_unload_all();
	ASSERT_EQ(0, nvpc_mod_load("nvpcounter", NULL));
	ASSERT_EQ(0, nvpc_mod_load("nvpcounter_sim", NULL));
	ASSERT_TRUE(nvpc_is_dir(SIM_DIR));
}

FIXTURE_TEARDOWN(sim)
{
	nvpc_mod_unload_all();
}

/* Every generation: created, BOOT_0 shows its chipset, removed. */
TEST_F(sim, create_generations)
{
	static const struct { const char *cmd; unsigned int chipset; } c[] = {
		{ "nv10", 0x10 }, { "NV20", 0x20 }, { "nv40", 0x40 },
		{ "g84", 0x84 }, { "0xa3", 0xa3 }, { "gf100 gpcs=2 parts=1", 0xc0 },
	};
	char path[128];
	unsigned int i;
	long long boot0;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		ASSERT_EQ(0, sim_create(c[i].cmd)) TH_LOG("%s", c[i].cmd);
		snprintf(path, sizeof(path), SIM_DIR "/gpu0");
		ASSERT_TRUE(nvpc_is_dir(path));
		EXPECT_EQ(c[i].chipset, gpu_key(0, "info", "chipset"));
		EXPECT_LT(0, nr_domains(0));
		/* PMC.BOOT_0 bits 20-28: the chipset */
		boot0 = reg_rd(0, 0x000000);
		EXPECT_EQ(c[i].chipset, (boot0 >> 20) & 0x1ff)
			TH_LOG("%s: BOOT_0 0x%08llx", c[i].cmd, boot0);
		/* the platform device that parents the PMU */
		EXPECT_TRUE(nvpc_is_dir("/sys/bus/platform/devices/nvpcounter_sim.0"));
		EXPECT_EQ(0, nvpc_write(SIM_DIR "/remove", "0"));
		EXPECT_FALSE(nvpc_is_dir(path));
		EXPECT_FALSE(nvpc_is_dir("/sys/bus/platform/devices/nvpcounter_sim.0"));
	}
}

TEST_F(sim, gf100_units)
{
	char buf[8192];

	ASSERT_EQ(0, sim_create("gf100 gpcs=3 parts=2 id=5"));
	EXPECT_EQ(3, gpu_key(5, "info", "gpcs"));
	EXPECT_EQ(2, gpu_key(5, "info", "parts"));
	EXPECT_EQ(0x7, gpu_key(5, "info", "gpc_mask"));
	EXPECT_EQ(0x3, gpu_key(5, "info", "part_mask"));
	ASSERT_LT(0, gpu_read(5, "domains", buf, sizeof(buf)));
	/* GF100 has no hub domain in the catalogue; GPC 0 comes first */
	EXPECT_EQ(0, strncmp(buf, "0 gpc0.0 ", 9)) TH_LOG("%s", buf);
	EXPECT_NE(NULL, strstr(buf, " gpc2.0 "));
	EXPECT_EQ(NULL, strstr(buf, " gpc3.0 "));
	EXPECT_NE(NULL, strstr(buf, " part1.0 "));
	EXPECT_EQ(NULL, strstr(buf, " part2.0 "));
	/* the named form and the flat index address the same domain */
	EXPECT_EQ(0, sim_cmd(5, "advance", "10 gpc1.0"));
	EXPECT_EQ(10, dom_cycles(5, dom_index(5, "gpc1.0")));
	EXPECT_EQ(0, nvpc_write(SIM_DIR "/remove", "5"));
}

TEST_F(sim, list_and_ids)
{
	char buf[1024];

	ASSERT_EQ(0, sim_create("g84"));
	ASSERT_EQ(0, sim_create("nv40"));
	EXPECT_EQ(-EEXIST, sim_create("nv10 id=1"));
	ASSERT_LT(0, nvpc_read_file(SIM_DIR "/list", buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "0 0x84 "));
	EXPECT_NE(NULL, strstr(buf, "1 0x40 "));
	EXPECT_NE(NULL, strstr(buf, " sim.1 manual"));
	EXPECT_EQ(0, nvpc_write(SIM_DIR "/remove", "0"));
	EXPECT_EQ(-ENOENT, nvpc_write(SIM_DIR "/remove", "0"));
	ASSERT_LT(0, nvpc_read_file(SIM_DIR "/list", buf, sizeof(buf)));
	EXPECT_EQ(NULL, strstr(buf, "0 0x84 "));
	/* GPUs left behind go with the module (teardown unloads it) */
}

TEST_F(sim, bad_input_einval)
{
	static const char * const bad_create[] = {
		"nosuchchip", "0x1234", "g84 gpcs=2", "gf100 gpcs=0",
		"gf100 gpcs=99", "gf100 parts=17", "g84 clock=fast", "g84 foo=1",
		"g84 id=99", "g84 gpcs", " ",
	};
	static const struct { const char *file, *cmd; } bad[] = {
		{ "wave", "0 2 square 1" }, { "wave", "0 2 const 2" },
		{ "wave", "0 2 periodic 10 11 0" }, { "wave", "0 2 periodic 0 0 0" },
		{ "wave", "0 2 random 1 65537" }, { "wave", "0 0x1000 const 1" },
		{ "wave", "9 2 const 1" }, { "wave", "gpc0.0 2 const 1" },
		{ "wave", "0 2 const" }, { "advance", "abc" },
		{ "advance", "10 main.9" }, { "advance", "ns" },
		{ "reg", "0xa7c1" }, { "reg", "0xa7c0 0x100000000" },
		{ "reg", " " }, { "clock", "fast" }, { "clocks", "0 0" },
		{ "truth", "0" }, { "truth", "0 2 10 5" }, { "trace", "maybe" },
		{ "fault", "stuck 0xa7c1 1" }, { "fault", "lost_swaps 0" },
		{ "fault", "explode" }, { "pm_trigger", "2" },
		{ "mem_ctl", "0x1000 0" }, { "mem_ctl", "0x1001 4096" },
		{ "mem_ctl", "0x1000 100" }, { "mem_ctl", "0x1000 0x200000" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad_create); i++)
		EXPECT_EQ(-EINVAL, sim_create(bad_create[i]))
			TH_LOG("create #%u", i);
	ASSERT_EQ(0, sim_create("g84"));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(-EINVAL, sim_cmd(0, bad[i].file, "%s", bad[i].cmd))
			TH_LOG("bad command #%u", i);
	/* and the good forms of the same files work */
	EXPECT_EQ(0, sim_cmd(0, "wave", "main.0 2 const 1"));
	EXPECT_EQ(0, sim_cmd(0, "advance", "10 main.1"));
	EXPECT_EQ(0, sim_cmd(0, "truth", "0 2 0 5"));
	EXPECT_EQ(-EINVAL, nvpc_write(SIM_DIR "/remove", "zero"));
}

/*
 * sim.rst "wave": a trailer signal the model computes takes no waveform
 * (EINVAL, not accepted without effect). GK104 gpc3.2 has 0x40 signals,
 * its trailer base 0 (catalog/gf100.c): 0x21 is a ZERO of the GF100+
 * trailer (base + 0x1f .. base + 0x2f), 0x27 USER_0; signal 2 is a
 * source.
 */
TEST_F(sim, wave_refused_on_trailer)
{
	ASSERT_EQ(0, sim_create("gk104"));
	EXPECT_EQ(-EINVAL, sim_cmd(0, "wave", "gpc3.2 0x21 const 1"));
	EXPECT_EQ(-EINVAL, sim_cmd(0, "wave", "gpc3.2 0x27 periodic 10 1 0"));
	EXPECT_EQ(0, sim_cmd(0, "wave", "gpc3.2 2 const 1"));
}

/*
 * Quad mode on G84 domain 0 with signal 2 held at 1 (pcounter.rst "Quad
 * event mode"): the visible counters hold the previous period; a PRE_OP
 * write swaps (G84:GF100) before the next cycle counts.
 */
TEST_F(sim, g84_quad_manual)
{
	long long ctrl;

	ASSERT_EQ(0, sim_create("g84"));
	ASSERT_EQ(0, sim_cmd(0, "wave", "0 2 const 1"));
	ASSERT_EQ(0, reg_wr(0, G84_CTRL0, CTRL_MODE_QUAD));
	ASSERT_EQ(0, reg_wr(0, G84_EVENT_SRC0, 2));	   /* SRC[0] = sig 2 */
	ASSERT_EQ(0, reg_wr(0, G84_EVENT_OP0, 0xaaaa));   /* out = SRC[0] */
	EXPECT_EQ(0, QUAD_STATE(reg_rd(0, G84_CTRL0)));   /* EMPTY */

	/* swap 1 at the start of cycle 0: nothing to copy, EMPTY -> VALID */
	ASSERT_EQ(0, reg_wr(0, G84_PRE_OP0, 0));
	/* period 1 = cycles 0..999: 1000 cycles, EVENT 1 in each */
	ASSERT_EQ(0, sim_cmd(0, "advance", "1000"));
	EXPECT_EQ(1000, dom_cycles(0, 0));
	ctrl = reg_rd(0, G84_CTRL0);
	EXPECT_EQ(1, QUAD_STATE(ctrl));
	/* visible: the empty period before swap 1 */
	EXPECT_EQ(0, reg_rd(0, G84_CTR_EVENT0));
	EXPECT_EQ(0, reg_rd(0, G84_CTR_CYCLES0));
	/* ack: VALID -> EMPTY */
	ASSERT_EQ(0, reg_wr(0, G84_QUAD_ACK0, 1));
	EXPECT_EQ(0, QUAD_STATE(reg_rd(0, G84_CTRL0)));

	/* swap 2 at the start of cycle 1000: period 1 becomes visible */
	ASSERT_EQ(0, reg_wr(0, G84_PRE_OP0, 0));
	ASSERT_EQ(0, sim_cmd(0, "advance", "1"));
	EXPECT_EQ(1000, reg_rd(0, G84_CTR_EVENT0));
	EXPECT_EQ(1000, reg_rd(0, G84_CTR_CYCLES0));
	EXPECT_EQ(1, QUAD_STATE(reg_rd(0, G84_CTRL0)));
	ASSERT_EQ(0, reg_wr(0, G84_QUAD_ACK0, 1));

	/* a lost swap: the next swap bumps twice, EMPTY -> OVERFLOW (3) */
	ASSERT_EQ(0, sim_cmd(0, "fault", "lost_swaps 0 1"));
	ASSERT_EQ(0, reg_wr(0, G84_PRE_OP0, 0));
	ASSERT_EQ(0, sim_cmd(0, "advance", "1"));
	EXPECT_EQ(3, QUAD_STATE(reg_rd(0, G84_CTRL0)));
	/* period 2 = cycle 1000 alone */
	EXPECT_EQ(1, reg_rd(0, G84_CTR_EVENT0));
	/* ack: OVERFLOW -> VALID -> EMPTY */
	ASSERT_EQ(0, reg_wr(0, G84_QUAD_ACK0, 1));
	EXPECT_EQ(1, QUAD_STATE(reg_rd(0, G84_CTRL0)));
	ASSERT_EQ(0, reg_wr(0, G84_QUAD_ACK0, 1));
	EXPECT_EQ(0, QUAD_STATE(reg_rd(0, G84_CTRL0)));
}

/*
 * Periodic waveform: 1 iff (cycle + 4) % 10 < 3. Over cycles 0..1006,
 * cycle + 4 runs 4..1010; the values with v % 10 in {0,1,2} are
 * 10,11,12 .. 1000,1001,1002 (100 decades, 300) and 1010: 301.
 */
TEST_F(sim, truth_periodic)
{
	char buf[64];

	ASSERT_EQ(0, sim_create("g84"));
	ASSERT_EQ(0, sim_cmd(0, "wave", "0 3 periodic 10 3 4"));
	ASSERT_EQ(0, reg_wr(0, G84_CTRL0, CTRL_MODE_QUAD));
	ASSERT_EQ(0, reg_wr(0, G84_EVENT_SRC0, 3));
	ASSERT_EQ(0, reg_wr(0, G84_EVENT_OP0, 0xaaaa));
	ASSERT_EQ(0, reg_wr(0, G84_PRE_OP0, 0));	/* period starts at 0 */
	ASSERT_EQ(0, sim_cmd(0, "advance", "1007"));
	ASSERT_EQ(0, sim_cmd(0, "truth", "0 3"));
	ASSERT_LT(0, gpu_read(0, "truth", buf, sizeof(buf)));
	EXPECT_EQ(301, strtoll(buf, NULL, 10));
	/* an explicit interval: cycles 0..9 hold v = 4..13: 10,11,12 */
	ASSERT_EQ(0, sim_cmd(0, "truth", "main.0 3 0 10"));
	ASSERT_LT(0, gpu_read(0, "truth", buf, sizeof(buf)));
	EXPECT_EQ(3, strtoll(buf, NULL, 10));
	/* the counter agrees with the ground truth */
	ASSERT_EQ(0, reg_wr(0, G84_PRE_OP0, 0));
	ASSERT_EQ(0, sim_cmd(0, "advance", "1"));
	EXPECT_EQ(301, reg_rd(0, G84_CTR_EVENT0));
	EXPECT_EQ(1007, reg_rd(0, G84_CTR_CYCLES0));
}

TEST_F(sim, faults)
{
	char buf[256];

	ASSERT_EQ(0, sim_create("g84"));
	ASSERT_EQ(0, reg_wr(0, G84_CTRL0, CTRL_MODE_QUAD));
	EXPECT_EQ(CTRL_MODE_QUAD, reg_rd(0, G84_CTRL0) & 3);

	EXPECT_EQ(0, sim_cmd(0, "fault", "all_ones on"));
	EXPECT_EQ(0xffffffffu, reg_rd(0, G84_CTRL0));
	EXPECT_EQ(0xffffffffu, reg_rd(0, 0x000000));
	EXPECT_EQ(1, gpu_key(0, "fault", "all_ones"));
	EXPECT_EQ(0, sim_cmd(0, "fault", "all_ones off"));
	EXPECT_EQ(CTRL_MODE_QUAD, reg_rd(0, G84_CTRL0) & 3);

	EXPECT_EQ(0, sim_cmd(0, "fault", "stuck 0xa680 0x1234"));
	EXPECT_EQ(0x1234, reg_rd(0, G84_CTR_EVENT0));
	EXPECT_EQ(1, gpu_key(0, "fault", "stuck"));
	EXPECT_EQ(0, sim_cmd(0, "fault", "unstick"));
	EXPECT_EQ(0, reg_rd(0, G84_CTR_EVENT0));

	EXPECT_EQ(0, sim_cmd(0, "fault", "record 0"));
	EXPECT_EQ(0, sim_cmd(0, "pm_trigger", "1"));

	/* removal: reads all-ones from now on, the core was told */
	EXPECT_EQ(0, sim_cmd(0, "fault", "remove"));
	EXPECT_EQ(0xffffffffu, reg_rd(0, 0x000000));
	EXPECT_EQ(1, gpu_key(0, "info", "gone"));
	EXPECT_EQ(1, gpu_key(0, "fault", "removed"));
	ASSERT_LT(0, nvpc_read_file(SIM_DIR "/list", buf, sizeof(buf)));
	EXPECT_EQ(0, nvpc_write(SIM_DIR "/remove", "0"));
}

TEST_F(sim, trace)
{
	char buf[16384];

	ASSERT_EQ(0, sim_create("g84"));
	ASSERT_EQ(0, sim_cmd(0, "trace", "on"));
	ASSERT_EQ(0, reg_wr(0, G84_CTRL0, CTRL_MODE_QUAD));
	EXPECT_EQ(CTRL_MODE_QUAD, reg_rd(0, G84_CTRL0));
	ASSERT_EQ(0, sim_cmd(0, "trace", "off"));
	reg_rd(0, G84_CTR_EVENT0);	/* not traced */
	ASSERT_LT(0, gpu_read(0, "trace", buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "# off entries 2 lost 0\n")) TH_LOG("%s", buf);
	EXPECT_NE(NULL, strstr(buf, "W 0x00a7c0 0x00000001\n"));
	EXPECT_NE(NULL, strstr(buf, "R 0x00a7c0 0x00000001\n"));
	EXPECT_EQ(NULL, strstr(buf, "0x00a680"));
	ASSERT_EQ(0, sim_cmd(0, "trace", "clear"));
	ASSERT_LT(0, gpu_read(0, "trace", buf, sizeof(buf)));
	EXPECT_STREQ("# off entries 0 lost 0\n", buf);
	/* the ring keeps the newest 4096 and counts the rest as lost */
	ASSERT_EQ(0, sim_cmd(0, "trace", "on"));
	for (int i = 0; i < 4100; i++)
		ASSERT_EQ(0, reg_wr(0, 0x00a400, i));
	ASSERT_EQ(0, sim_cmd(0, "trace", "off"));
	EXPECT_EQ(4, gpu_key(0, "stats", "trace_lost"));
}

TEST_F(sim, stats_absent)
{
	long long before;

	ASSERT_EQ(0, sim_create("g84"));
	before = gpu_key(0, "stats", "absent_reads");
	ASSERT_LE(0, before);
	reg_rd(0, 0x00b000);	/* nothing at 0xb000 on G84 */
	EXPECT_EQ(before + 1, gpu_key(0, "stats", "absent_reads"));
	EXPECT_EQ(0xb000, gpu_key(0, "stats", "last_unmodelled"));
	EXPECT_LE(1, gpu_key(0, "stats", "reads"));
}

TEST_F(sim, mem_window)
{
	char buf[8192];
	int fd, n, i, nz = 0;

	ASSERT_EQ(0, sim_create("g84"));
	ASSERT_EQ(0, sim_cmd(0, "mem_ctl", "0x100000 4096"));
	EXPECT_EQ(4096, gpu_key(0, "mem_ctl", "va 0x0000100000 size"));
	fd = open(SIM_DIR "/gpu0/mem", O_RDONLY);
	ASSERT_LE(0, fd);
	n = read(fd, buf, sizeof(buf));
	close(fd);
	EXPECT_EQ(4096, n);
	for (i = 0; i < n; i++)
		nz += buf[i] != 0;
	EXPECT_EQ(0, nz);
	ASSERT_EQ(0, sim_cmd(0, "mem_ctl", "off"));
	EXPECT_EQ(0, gpu_key(0, "mem_ctl", "va 0x0000000000 size"));
}

/*
 * Record mode on G84 domain 0 (pcounter.rst "Record mode"): STOP is
 * signal 2, 1 iff (c + 1) % 100 < 1, i.e. in cycles 99, 199, ...; EVENT_SRC[0]
 * is signal 3, always 1. Each STOP pulse writes a 32-byte long packet:
 * the cycle counter counts cycles since RECORD_START (0..99: 100, then
 * 0..199: 200), STOP = 1, and the EVENT_SRC[0] counter the cycles since
 * the last packet (100 each time).
 */
/* A 16-bit little-endian packet word */
static int le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

/*
 * The bind of pcounter.rst "Record mode setup": RECORD_DMA first, then
 * RECORD_CHAN with VALID (bit 31). Any numbers bind the sim's one VM
 * (Documentation/sim.rst "Record-mode memory").
 */
static int rec_bind(int gpu)
{
	if (reg_wr(gpu, G84_REC_DMA, 0xbeef))
		return -1;
	return reg_wr(gpu, G84_REC_CHAN, REC_CHAN_VALID | 1);
}

TEST_F(sim, record_packets)
{
	unsigned char pkt[64];
	int fd, n;

	ASSERT_EQ(0, sim_create("g84"));
	ASSERT_EQ(0, sim_cmd(0, "mem_ctl", "0x100000 4096"));
	ASSERT_EQ(0, rec_bind(0));
	ASSERT_EQ(0, sim_cmd(0, "wave", "0 2 periodic 100 1 1"));
	ASSERT_EQ(0, sim_cmd(0, "wave", "0 3 const 1"));
	ASSERT_EQ(0, reg_wr(0, G84_CTRL0, 2));		/* MODE = RECORD */
	ASSERT_EQ(0, reg_wr(0, 0x00a4c0, 2));		/* STOP_SRC[0] */
	ASSERT_EQ(0, reg_wr(0, 0x00a4e0, 0xaaaa));	/* STOP_OP[0] */
	ASSERT_EQ(0, reg_wr(0, G84_EVENT_SRC0, 3));
	ASSERT_EQ(0, reg_wr(0, 0x00a720, 0x100000 + 4096 - 32)); /* LIMIT */
	ASSERT_EQ(0, reg_wr(0, 0x00a760, 0x100000));	/* RECORD_START */
	ASSERT_EQ(0, sim_cmd(0, "advance", "200"));
	EXPECT_EQ(2, gpu_key(0, "stats", "mem_writes"));
	EXPECT_EQ(0, gpu_key(0, "stats", "mem_faults"));
	/* RECORD_STATUS: position after two packets, no fault */
	EXPECT_EQ(0x100040, reg_rd(0, 0x00a6e0));

	fd = open(SIM_DIR "/gpu0/mem", O_RDONLY);
	ASSERT_LE(0, fd);
	n = read(fd, pkt, sizeof(pkt));
	close(fd);
	ASSERT_EQ(64, n);
	EXPECT_EQ(100, le16(pkt + 0x00));		/* cycles, low */
	EXPECT_EQ(0, le16(pkt + 0x02));
	EXPECT_EQ(1, le16(pkt + 0x06) & 0xfff);	/* STOP */
	EXPECT_EQ(100, le16(pkt + 0x18));		/* EVENT_SRC[0] */
	EXPECT_EQ(0, le16(pkt + 0x1a));
	EXPECT_EQ(200, le16(pkt + 32 + 0x00));
	EXPECT_EQ(1, le16(pkt + 32 + 0x06) & 0xfff);
	EXPECT_EQ(100, le16(pkt + 32 + 0x18));

	/* an injected VM fault: RECORD_STATUS.FAULT, nothing written */
	ASSERT_EQ(0, sim_cmd(0, "fault", "record 0"));
	ASSERT_EQ(0, sim_cmd(0, "advance", "100"));
	EXPECT_EQ(1, reg_rd(0, 0x00a6e0) & 1);
	EXPECT_EQ(2, gpu_key(0, "stats", "mem_writes"));
}

/*
 * GF100+ record mode (Documentation/sim.rst "GF100+ record mode", its
 * example): gpc0.0 (MODE 3, long packets) and gpc1.0 (MODE 5, short) share
 * the MAIN buffer. STOP = signal 3: gpc0.0 at cycles 9, 19 (period 10,
 * phase 1), gpc1.0 at 3, 7, 11, 15, 19 (period 4, phase 1); gpc1.0 counts
 * signal 1 (const 1) on PRE_SRC[0]. By pcounter.rst "Record mode" each
 * packet has the cycles since START and STOP = 1; PRE0 counts the cycles
 * since the domain's last packet. In buffer order (cycle 19: gpc0.0, the
 * lower flat index, first):
 *   +0x00 gpc1.0 16 B cycles 4  PRE0 4    +0x10 gpc1.0 cycles 8  PRE0 4
 *   +0x20 gpc0.0 32 B cycles 10 PRE0 0    +0x40 gpc1.0 cycles 12
 *   +0x50 gpc1.0 cycles 16               +0x60 gpc0.0 32 B cycles 20
 *   +0x80 gpc1.0 cycles 20 PRE0 4
 * POS = 0x100000 + 0x90, COUNT 7. Then a VM fault of gpc1.0's next write
 * (cycle 23) wedges gpc1.0 and sets POS bit 0; gpc0.0 writes its cycle 29
 * packet at +0x90 (cycles 30, PRE0 0 -- its STOP counter is 1).
 */
#define GF_MAIN_START	0x1b4074
#define GF_MAIN_LIMIT	0x1b407c
#define GF_MAIN_POS	0x1b4080
#define GF_MAIN_COUNT	0x1b4084

TEST_F(sim, gf100_record_shared_buffer)
{
	static const struct { int off, len, cycles, pre0; } exp[] = {
		{ 0x00, 16, 4, 4 }, { 0x10, 16, 8, 4 }, { 0x20, 32, 10, 0 },
		{ 0x40, 16, 12, 4 }, { 0x50, 16, 16, 4 }, { 0x60, 32, 20, 0 },
		{ 0x80, 16, 20, 4 }, { 0x90, 32, 30, 0 },
	};
	unsigned char mem[0xc0];
	unsigned int i;
	int fd, n;

	ASSERT_EQ(0, sim_create("gf100 gpcs=2 parts=1"));
	ASSERT_EQ(0, sim_cmd(0, "mem_ctl", "0x100000 4096"));
	ASSERT_EQ(0, sim_cmd(0, "wave", "gpc0.0 3 periodic 10 1 1"));
	ASSERT_EQ(0, sim_cmd(0, "wave", "gpc1.0 3 periodic 4 1 1"));
	ASSERT_EQ(0, sim_cmd(0, "wave", "gpc1.0 1 const 1"));
	ASSERT_EQ(0, reg_wr(0, 0x18009c, 3));		/* CTRL: MODE 3 */
	ASSERT_EQ(0, reg_wr(0, 0x180058, 3));		/* STOP_SRC */
	ASSERT_EQ(0, reg_wr(0, 0x18005c, 0xaaaa));	/* STOP_OP */
	ASSERT_EQ(0, reg_wr(0, 0x18109c, 5));		/* CTRL: MODE 5 */
	ASSERT_EQ(0, reg_wr(0, 0x181058, 3));
	ASSERT_EQ(0, reg_wr(0, 0x18105c, 0xaaaa));
	ASSERT_EQ(0, reg_wr(0, 0x181040, 1));		/* PRE_SRC[0] */
	ASSERT_EQ(0, reg_wr(0, GF_MAIN_LIMIT, 0x100ff0));
	ASSERT_EQ(0, reg_wr(0, GF_MAIN_START, 0x100000));
	EXPECT_EQ(0x100000, reg_rd(0, GF_MAIN_POS));
	ASSERT_EQ(0, sim_cmd(0, "advance", "20 gpc0.0"));
	EXPECT_EQ(0x100090, reg_rd(0, GF_MAIN_POS));
	EXPECT_EQ(7, reg_rd(0, GF_MAIN_COUNT));
	EXPECT_EQ(7, gpu_key(0, "stats", "mem_writes"));

	ASSERT_EQ(0, sim_cmd(0, "fault", "record gpc1.0"));
	ASSERT_EQ(0, sim_cmd(0, "advance", "10 gpc0.0"));
	EXPECT_EQ(0x1000b1, reg_rd(0, GF_MAIN_POS));
	EXPECT_EQ(8, reg_rd(0, GF_MAIN_COUNT));

	fd = open(SIM_DIR "/gpu0/mem", O_RDONLY);
	ASSERT_LE(0, fd);
	n = read(fd, mem, sizeof(mem));
	close(fd);
	ASSERT_EQ((int)sizeof(mem), n);
	for (i = 0; i < ARRAY_SIZE(exp); i++) {
		const unsigned char *p = mem + exp[i].off;

		EXPECT_EQ(exp[i].cycles, le16(p)) TH_LOG("packet %u", i);
		EXPECT_EQ(0, le16(p + 2));
		EXPECT_EQ(1, le16(p + 6) & 0xfff) TH_LOG("packet %u", i);
		EXPECT_EQ(exp[i].pre0, le16(p + 8)) TH_LOG("packet %u", i);
	}
	/* a short packet is 16 bytes: the next packet follows at once */
	EXPECT_EQ(8, le16(mem + 0x10));
	/* nothing beyond the last long packet */
	for (i = 0x90 + 32; i < sizeof(mem); i++)
		EXPECT_EQ(0, mem[i]);
}

/*
 * Real time at 100 kHz on every domain: about 10^5 cycles a second. (At
 * 1 MHz on 8 domains the model does not keep up under TCG.)
 */
TEST_F(sim, realtime_clock)
{
	struct timespec t0, t1;
	long long c0, c1;
	double secs, rate;
	char buf[64];
	int i, n;

	ASSERT_EQ(0, sim_create("g84"));
	n = nr_domains(0);
	ASSERT_LT(0, n);
	/* one at a time would break the model's clock ratio limit */
	ASSERT_EQ(-ERANGE, sim_cmd(0, "clocks", "0 100000"));
	ASSERT_EQ(0, sim_cmd(0, "clocks", "all 100000"));
	for (i = 0; i < n; i++)
		EXPECT_EQ(100000, dom_hz(0, i));
	EXPECT_EQ(0, sim_cmd(0, "advance", "ns 1000000"));
	EXPECT_EQ(100, dom_cycles(0, 0));	/* 1 ms at 100 kHz */
	ASSERT_EQ(0, sim_cmd(0, "clock", "realtime"));
	ASSERT_LT(0, gpu_read(0, "clock", buf, sizeof(buf)));
	EXPECT_STREQ("realtime\n", buf);
	c0 = dom_cycles(0, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	sleep(1);
	c1 = dom_cycles(0, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ASSERT_EQ(0, sim_cmd(0, "clock", "manual"));
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	rate = (c1 - c0) / secs;
	TH_LOG("%.0f cycles/s, skipped %lld ns", rate,
	       gpu_key(0, "stats", "rt_skipped_ns"));
	/*
	 * Tests never fail on a timing: under TCG the sim may fall behind
	 * (and then skips time, counted in rt_skipped_ns), so only assert
	 * that time moves and never runs ahead of the clock it was given.
	 */
	EXPECT_LT(0, c1 - c0);
	EXPECT_GT(1.5e5, rate);
	/* manual again: time stands still */
	c0 = dom_cycles(0, 0);
	usleep(100000);
	EXPECT_EQ(c0, dom_cycles(0, 0));
}

/*
 * NV40 (NV30:G84): PGRAPH PM_TRIGGER is the quad-mode SWAP (pcounter.rst
 * "Input selection": SWAP hardwired to PM_TRIGGER). The pulse is seen by
 * the next cycle: EMPTY -> VALID after one cycle, not before.
 */
TEST_F(sim, pm_trigger_swaps_nv40)
{
	ASSERT_EQ(0, sim_create("nv40"));
	ASSERT_EQ(0, reg_wr(0, G84_CTRL0, CTRL_MODE_QUAD)); /* same on NV40 */
	ASSERT_EQ(0, sim_cmd(0, "advance", "10"));
	EXPECT_EQ(0, QUAD_STATE(reg_rd(0, G84_CTRL0)));
	ASSERT_EQ(0, sim_cmd(0, "pm_trigger", "1"));
	/* manual clock: the read settles the swap of cycle 10 */
	EXPECT_EQ(1, QUAD_STATE(reg_rd(0, G84_CTRL0)));
	/* period = cycles 0..9 */
	EXPECT_EQ(10, reg_rd(0, G84_CTR_CYCLES0));
	/* cycle 10 does not swap again */
	ASSERT_EQ(0, sim_cmd(0, "advance", "1"));
	EXPECT_EQ(1, QUAD_STATE(reg_rd(0, G84_CTRL0)));
	EXPECT_EQ(10, reg_rd(0, G84_CTR_CYCLES0));
}

/*
 * Manual clock (Documentation/sim.rst "clock"): a read right after a swap
 * trigger sees the swap. G84, EVENT = constant 1: 25 cycles, PRE_OP write,
 * read: VALID with 25 and 25. A second PRE_OP write with no advance in
 * between swaps the empty shadow: OVERFLOW, visible 0. Then 5 cycles and
 * a third swap: VALID after two acks, 5 and 5.
 */
TEST_F(sim, manual_swap_settles_on_read)
{
	ASSERT_EQ(0, sim_create("g84"));
	ASSERT_EQ(0, sim_cmd(0, "wave", "0 2 const 1"));
	ASSERT_EQ(0, reg_wr(0, G84_CTRL0, CTRL_MODE_QUAD));
	ASSERT_EQ(0, reg_wr(0, G84_EVENT_SRC0, 2));
	ASSERT_EQ(0, reg_wr(0, G84_EVENT_OP0, 0xaaaa));
	ASSERT_EQ(0, sim_cmd(0, "advance", "25"));
	ASSERT_EQ(0, reg_wr(0, G84_PRE_OP0, 0));
	EXPECT_EQ(1, QUAD_STATE(reg_rd(0, G84_CTRL0)));
	EXPECT_EQ(25, reg_rd(0, G84_CTR_EVENT0));
	EXPECT_EQ(25, reg_rd(0, G84_CTR_CYCLES0));
	ASSERT_EQ(0, reg_wr(0, G84_PRE_OP0, 0));
	EXPECT_EQ(3, QUAD_STATE(reg_rd(0, G84_CTRL0)));
	EXPECT_EQ(0, reg_rd(0, G84_CTR_EVENT0));
	EXPECT_EQ(0, reg_rd(0, G84_CTR_CYCLES0));
	ASSERT_EQ(0, reg_wr(0, G84_QUAD_ACK0, 1));
	ASSERT_EQ(0, reg_wr(0, G84_QUAD_ACK0, 1));
	ASSERT_EQ(0, sim_cmd(0, "advance", "5"));
	ASSERT_EQ(0, reg_wr(0, G84_PRE_OP0, 0));
	EXPECT_EQ(1, QUAD_STATE(reg_rd(0, G84_CTRL0)));
	EXPECT_EQ(5, reg_rd(0, G84_CTR_EVENT0));
	EXPECT_EQ(5, reg_rd(0, G84_CTR_CYCLES0));
}

/* A GF100 clock belongs to the domain description: every GPC follows. */
TEST_F(sim, gf100_clock_shared)
{
	int g0, g1, p0;

	ASSERT_EQ(0, sim_create("gf100 gpcs=2 parts=1"));
	g0 = dom_index(0, "gpc0.0");
	g1 = dom_index(0, "gpc1.0");
	p0 = dom_index(0, "part0.0");
	ASSERT_LE(0, g0);
	ASSERT_LE(0, g1);
	ASSERT_LE(0, p0);
	ASSERT_EQ(0, sim_cmd(0, "clocks", "gpc1.0 600000000"));
	EXPECT_EQ(600000000, dom_hz(0, g0));
	EXPECT_EQ(600000000, dom_hz(0, g1));
	EXPECT_NE(600000000, dom_hz(0, p0));
	/* 1 us: 600 cycles of each GPC domain */
	ASSERT_EQ(0, sim_cmd(0, "advance", "ns 1000"));
	EXPECT_EQ(600, dom_cycles(0, g0));
	EXPECT_EQ(600, dom_cycles(0, g1));
}

/*
 * "advance N DOM": DOM runs N cycles, the others what started meanwhile
 * (sim_model.h: at time T a domain has processed ceil(T / period) cycles).
 * G84 main.0 is 100 MHz, main.3 1.35 GHz, main.6 400 MHz: 100 cycles of
 * main.0 take T = 1 us: main.3 ceil(1350) = 1350, main.6 400 (cycle 100
 * of main.0 starts at exactly T, not yet processed). One more main.3
 * cycle: T = 1 us + 1/1.35 ns, main.3 1351, main.0 ceil(100.07) = 101,
 * main.6 ceil(400.3) = 401.
 */
TEST_F(sim, advance_cross_domain)
{
	ASSERT_EQ(0, sim_create("g84"));
	ASSERT_EQ(0, sim_cmd(0, "advance", "100 main.0"));
	EXPECT_EQ(100, dom_cycles(0, 0));
	EXPECT_EQ(1350, dom_cycles(0, 3));
	EXPECT_EQ(400, dom_cycles(0, 6));
	ASSERT_EQ(0, sim_cmd(0, "advance", "1 3"));
	EXPECT_EQ(1351, dom_cycles(0, 3));
	EXPECT_EQ(101, dom_cycles(0, 0));
	EXPECT_EQ(401, dom_cycles(0, 6));
}

/* A random waveform counted by a quad counter equals the ground truth. */
TEST_F(sim, truth_random_matches_counter)
{
	char buf[64];
	long long truth;

	ASSERT_EQ(0, sim_create("g84"));
	ASSERT_EQ(0, sim_cmd(0, "wave", "0 4 random 7 16384"));
	ASSERT_EQ(0, reg_wr(0, G84_CTRL0, CTRL_MODE_QUAD));
	ASSERT_EQ(0, reg_wr(0, G84_EVENT_SRC0, 4));
	ASSERT_EQ(0, reg_wr(0, G84_EVENT_OP0, 0xaaaa));
	ASSERT_EQ(0, reg_wr(0, G84_PRE_OP0, 0));
	ASSERT_EQ(0, sim_cmd(0, "advance", "100000"));
	ASSERT_EQ(0, reg_wr(0, G84_PRE_OP0, 0));
	ASSERT_EQ(0, sim_cmd(0, "advance", "1"));
	ASSERT_EQ(0, sim_cmd(0, "truth", "0 4 0 100000"));
	ASSERT_LT(0, gpu_read(0, "truth", buf, sizeof(buf)));
	truth = strtoll(buf, NULL, 10);
	/* density 1/4: about 25000 */
	EXPECT_LT(20000, truth);
	EXPECT_GT(30000, truth);
	EXPECT_EQ(truth, reg_rd(0, G84_CTR_EVENT0));
	EXPECT_EQ(100000, reg_rd(0, G84_CTR_CYCLES0));
}

/* Removing a GPU while one of its files is open: the fd fails, no crash. */
TEST_F(sim, remove_with_open_file)
{
	char buf[256];
	int fd;

	ASSERT_EQ(0, sim_create("g84"));
	fd = open(SIM_DIR "/gpu0/info", O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, nvpc_write(SIM_DIR "/remove", "0"));
	EXPECT_GT(0, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(EIO, errno);
	close(fd);
	EXPECT_FALSE(nvpc_is_dir(SIM_DIR "/gpu0"));
}

TEST_F(sim, remove_and_unload)
{
	ASSERT_EQ(0, sim_create("g84"));
	ASSERT_EQ(0, sim_create("gf100"));
	ASSERT_EQ(0, sim_create("nv10 clock=realtime"));
	EXPECT_EQ(0, nvpc_write(SIM_DIR "/remove", "1"));
	EXPECT_FALSE(nvpc_is_dir(SIM_DIR "/gpu1"));
	EXPECT_TRUE(nvpc_is_dir(SIM_DIR "/gpu0"));
	/* unloading with GPUs present removes them */
	EXPECT_EQ(0, nvpc_mod_unload("nvpcounter_sim"));
	EXPECT_FALSE(nvpc_is_dir(SIM_DIR));
	EXPECT_EQ(0, nvpc_mod_unload("nvpcounter"));
}

/*
 * GK104 at its catalogue clocks (hub 500 MHz, GPC 1006 MHz, partition
 * 1502 MHz): the master clock is their lcm (Documentation/sim.rst "Time
 * and clocks"): 1e6 * lcm(500, 1006, 1502) = 1e6 * 2^2 * 5^3 * 503 * 751
 * = 188876500000000 Hz. 1000 cycles of gpc0.0 last T = 1000 / 1.006e9 s:
 * hub ceil(1000 * 500 / 1006) = ceil(497.02) = 498 cycles, partitions
 * ceil(1000 * 1502 / 1006) = ceil(1493.04) = 1494. A pinned perf cycles
 * event of gpc1.0 opened before counts exactly the 1000 cycles; then
 * "ns 1000000" (1 ms) adds 1006000 cycles of it.
 */
TEST_F(sim, gk104_catalogue_clocks_exact)
{
	int g0, g1, h0, p0, type, fd;
	char pmu[PATH_MAX];

	ASSERT_EQ(0, sim_create("gk104 gpcs=2 parts=1"));
	EXPECT_EQ(188876500000000LL, gpu_key(0, "info", "tick_hz"));
	g0 = dom_index(0, "gpc0.0");
	g1 = dom_index(0, "gpc1.0");
	h0 = dom_index(0, "hub.0");
	p0 = dom_index(0, "part0.0");
	ASSERT_LE(0, g0);
	ASSERT_LE(0, g1);
	ASSERT_LE(0, h0);
	ASSERT_LE(0, p0);
	EXPECT_EQ(1006000000, dom_hz(0, g0));
	EXPECT_EQ(500000000, dom_hz(0, h0));
	EXPECT_EQ(1502000000, dom_hz(0, p0));
	type = nvpc_pmu_find(0, pmu, sizeof(pmu));
	ASSERT_LE(0, type);
	fd = nvpc_ev_open(type, CFG_CYCLES, CFG1_DOM(NVPC_DSET_ID_GPC, 1, 0),
			  0, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, sim_cmd(0, "advance", "1000 gpc0.0"));
	EXPECT_EQ(1000, dom_cycles(0, g0));
	EXPECT_EQ(1000, dom_cycles(0, g1));
	EXPECT_EQ(498, dom_cycles(0, h0));
	EXPECT_EQ(1494, dom_cycles(0, p0));
	EXPECT_EQ(1000, nvpc_ev_count(fd));
	ASSERT_EQ(0, sim_cmd(0, "advance", "ns 1000000"));
	EXPECT_EQ(1000 + 1006000, nvpc_ev_count(fd));
	close(fd);
}

/*
 * Record mode on G84 domain 0 as in record_packets (STOP at cycles 99,
 * 199, ...), the channel and DMA object not bound (sim.rst "Record-mode
 * memory", the bind): the packet formed at cycle 99 is a VM fault
 * (RECORD_STATUS = 0x100000 | FAULT), nothing reaches the window, and the
 * domain stays wedged after a bind and a new RECORD_START. The same with
 * RECORD_CHAN written before RECORD_DMA (the wrong order).
 */
TEST_F(sim, record_needs_bind)
{
	int k;

	for (k = 0; k < 2; k++) {
		ASSERT_EQ(0, sim_create("g84"));
		ASSERT_EQ(0, sim_cmd(0, "mem_ctl", "0x100000 4096"));
		if (k) {
			ASSERT_EQ(0, reg_wr(0, G84_REC_CHAN, REC_CHAN_VALID | 1));
			ASSERT_EQ(0, reg_wr(0, G84_REC_DMA, 0xbeef));
		}
		ASSERT_EQ(0, sim_cmd(0, "wave", "0 2 periodic 100 1 1"));
		ASSERT_EQ(0, reg_wr(0, G84_CTRL0, CTRL_MODE_RECORD));
		ASSERT_EQ(0, reg_wr(0, G84_STOP_SRC0, 2));
		ASSERT_EQ(0, reg_wr(0, G84_STOP_OP0, 0xaaaa));
		ASSERT_EQ(0, reg_wr(0, G84_REC_LIMIT0, 0x100fe0));
		ASSERT_EQ(0, reg_wr(0, G84_REC_START0, 0x100000));
		ASSERT_EQ(0, sim_cmd(0, "advance", "100"));
		EXPECT_EQ(0x100001, reg_rd(0, G84_REC_STATUS0));
		EXPECT_EQ(1, gpu_key(0, "stats", "unbound_faults"));
		EXPECT_EQ(0, gpu_key(0, "stats", "mem_writes"));
		ASSERT_EQ(0, rec_bind(0));
		ASSERT_EQ(0, reg_wr(0, G84_REC_START0, 0x100000));
		ASSERT_EQ(0, sim_cmd(0, "advance", "200"));
		EXPECT_EQ(0, gpu_key(0, "stats", "mem_writes"));
		ASSERT_EQ(0, nvpc_write(SIM_DIR "/remove", "0"));
	}
}

/* The test mapping's pages, in ring order; bytes read or -1. */
static int read_vm_test_mem(int gpu, unsigned char *buf, size_t len)
{
	char path[128];
	size_t got = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), SIM_DIR "/gpu%d/vm_test_mem", gpu);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	while (got < len && (n = read(fd, buf + got, len - got)) > 0)
		got += n;
	close(fd);
	return got;
}

/*
 * The GPU VM (sim.rst "Record-mode memory"): a test mapping of a ring of
 * 2 pages (P0, P1) over the window [0x200000, 0x204000): GPU address
 * 0x200000 + x is in page (x / 4096) % 2. G84 domain 0, long packets,
 * STOP at cycles 99, 199 (signal 2), EVENT_SRC[0] = signal 3 (const 1),
 * RECORD_START 0x200ff0 (16-byte aligned, 16 bytes before a page end):
 *  - packet 1 (cycle 99: cycles 100, STOP 1, EVENT_SRC[0] 100) at
 *    0x200ff0 straddles P0 and P1: its words 0-7 (cycles 100, 0, 0,
 *    STOP 1, PRE_SRC[0..3] 0) are P0 bytes 0xff0..0xfff, words 8-15
 *    (START_SRC[0..3] 0, EVENT_SRC[0..3] 100, 0, 0, 0) P1 bytes
 *    0x000..0x00f;
 *  - packet 2 (cycle 199: cycles 200) at 0x201010: P1 bytes 0x10..0x2f;
 *  - RECORD_START 0x202000 in record mode (counters reset): packet 3 at
 *    cycle 299 (cycles 100) at 0x202000, the ring's second turn: P0
 *    bytes 0x000..0x01f.
 * Then the mapping is removed: the next packet (cycle 399) is a VM fault.
 */
TEST_F(sim, vm_ring_mapping)
{
	static unsigned char mem[8192];
	char buf[256];

	ASSERT_EQ(0, sim_create("g84"));
	/* bad mappings: va not aligned to the ring, size not a whole
	 * number of rings, a window across 4 GiB, no pages
	 */
	EXPECT_EQ(-EINVAL, sim_cmd(0, "vm_test", "map 0x201000 0x4000 2"));
	EXPECT_EQ(-EINVAL, sim_cmd(0, "vm_test", "map 0x200000 0x3000 2"));
	EXPECT_EQ(-EINVAL, sim_cmd(0, "vm_test", "map 0xfffff000 0x2000 1"));
	EXPECT_EQ(-EINVAL, sim_cmd(0, "vm_test", "map 0x200000 0x4000 0"));
	ASSERT_EQ(0, sim_cmd(0, "vm_test", "map 0x200000 0x4000 2"));
	EXPECT_EQ(-EBUSY, sim_cmd(0, "vm_test", "map 0x300000 0x1000 1"));
	ASSERT_LT(0, gpu_read(0, "vm", buf, sizeof(buf)));
	EXPECT_STREQ("va 0x0000200000 size 0x4000 pages 2 packets 0\n", buf);

	ASSERT_EQ(0, rec_bind(0));
	ASSERT_EQ(0, sim_cmd(0, "wave", "0 2 periodic 100 1 1"));
	ASSERT_EQ(0, sim_cmd(0, "wave", "0 3 const 1"));
	ASSERT_EQ(0, reg_wr(0, G84_CTRL0, CTRL_MODE_RECORD));
	ASSERT_EQ(0, reg_wr(0, G84_STOP_SRC0, 2));
	ASSERT_EQ(0, reg_wr(0, G84_STOP_OP0, 0xaaaa));
	ASSERT_EQ(0, reg_wr(0, G84_EVENT_SRC0, 3));
	ASSERT_EQ(0, reg_wr(0, G84_REC_LIMIT0, 0x203fe0));
	ASSERT_EQ(0, reg_wr(0, G84_REC_START0, 0x200ff0));
	ASSERT_EQ(0, sim_cmd(0, "advance", "200"));
	EXPECT_EQ(0x201030, reg_rd(0, G84_REC_STATUS0));
	ASSERT_EQ(0, reg_wr(0, G84_REC_START0, 0x202000));
	ASSERT_EQ(0, sim_cmd(0, "advance", "100"));
	EXPECT_EQ(0x202020, reg_rd(0, G84_REC_STATUS0));
	EXPECT_EQ(3, gpu_key(0, "stats", "vm_writes"));
	EXPECT_EQ(0, gpu_key(0, "stats", "vm_faults"));
	ASSERT_LT(0, gpu_read(0, "vm", buf, sizeof(buf)));
	EXPECT_STREQ("va 0x0000200000 size 0x4000 pages 2 packets 3\n", buf);

	ASSERT_EQ(8192, read_vm_test_mem(0, mem, sizeof(mem)));
	/* packet 1, first half in P0 */
	EXPECT_EQ(100, le16(mem + 0xff0));
	EXPECT_EQ(0, le16(mem + 0xff2));
	EXPECT_EQ(1, le16(mem + 0xff6) & 0xfff);
	/* packet 1, second half at the start of P1: START_SRC[0] (packet
	 * byte 0x10) 0, EVENT_SRC[0] (packet byte 0x18) 100
	 */
	EXPECT_EQ(0, le16(mem + 4096 + 0x00));
	EXPECT_EQ(100, le16(mem + 4096 + 0x08));
	EXPECT_EQ(0, le16(mem + 4096 + 0x0a));
	/* packet 2 in P1 */
	EXPECT_EQ(200, le16(mem + 4096 + 0x10));
	EXPECT_EQ(1, le16(mem + 4096 + 0x16) & 0xfff);
	EXPECT_EQ(100, le16(mem + 4096 + 0x10 + 0x18));
	/* packet 3, the second turn of the ring, at the start of P0 */
	EXPECT_EQ(100, le16(mem + 0x00));
	EXPECT_EQ(1, le16(mem + 0x06) & 0xfff);
	EXPECT_EQ(100, le16(mem + 0x18));

	/* unmapped: the next packet faults and wedges the domain */
	ASSERT_EQ(0, sim_cmd(0, "vm_test", "unmap"));
	EXPECT_EQ(0, gpu_read(0, "vm", buf, sizeof(buf)));
	ASSERT_EQ(0, sim_cmd(0, "advance", "100"));
	EXPECT_EQ(0x202021, reg_rd(0, G84_REC_STATUS0));
	EXPECT_EQ(1, gpu_key(0, "stats", "vm_faults"));
	EXPECT_EQ(3, gpu_key(0, "stats", "vm_writes"));
}

/*
 * STOP counts above 1 (pcounter.rst "Record mode": "each domain has place
 * for one outgoing packet"). record_latency 5 (50 ns at main.0's
 * 100 MHz): a packet formed in cycle c is written in cycle c + 5, the next
 * can form from c + 6. G84 domain 0,
 * STOP = signal 2 in the odd cycles ((c + 1) % 2 == 0), PRE_SRC[0] =
 * signal 3 (const 1):
 *   c = 1: packet A (cycles 2, STOP 1, PRE0 2), written in c = 6;
 *   c = 3, 5: STOP counts 2 meanwhile; c = 6 PRE0 5;
 *   c = 7: packet B (cycles 8, STOP 3, PRE0 6), written in c = 12;
 *   c = 13: packet C (cycles 14, STOP 3, PRE0 6), written in c = 18.
 * After 18 cycles (c = 0..17) two packets are in memory, after 19 three,
 * at 0x100000, 0x100020, 0x100040. The clock stays manual until the
 * packets are checked: a spell of the real-time clock before the set-up
 * would move the domain's cycles by however long it lasted (one cycle
 * under the debug kernel put every packet a cycle early).
 */
TEST_F(sim, record_latency_stop_counts)
{
	static const int want[3][3] = { { 2, 1, 2 }, { 8, 3, 6 }, { 14, 3, 6 } };
	static const struct {
		const char *file, *arg, *reads;
	} set[] = {
		{ "record_latency", "5", "5\n" },
		{ "record_latency", "50ns", "50ns\n" },
		{ "record_latency", "default", "0\n" },
		{ "clock", "realtime", "500ns\n" },
		{ "clock", "manual", "0\n" },
	};
	unsigned char pkt[96];
	char buf[32];
	int fd, i;

	ASSERT_EQ(0, sim_create("g84"));
	/* the default on the manual clock, before any write */
	ASSERT_LT(0, gpu_read(0, "record_latency", buf, sizeof(buf)));
	EXPECT_STREQ("0\n", buf);
	/* 50 ns at main.0's 100 MHz: the 5 cycles below */
	ASSERT_EQ(0, sim_cmd(0, "record_latency", "50ns"));
	ASSERT_EQ(0, sim_cmd(0, "mem_ctl", "0x100000 4096"));
	ASSERT_EQ(0, rec_bind(0));
	ASSERT_EQ(0, sim_cmd(0, "wave", "0 2 periodic 2 1 1"));
	ASSERT_EQ(0, sim_cmd(0, "wave", "0 3 const 1"));
	ASSERT_EQ(0, reg_wr(0, G84_CTRL0, CTRL_MODE_RECORD));
	ASSERT_EQ(0, reg_wr(0, G84_STOP_SRC0, 2));
	ASSERT_EQ(0, reg_wr(0, G84_STOP_OP0, 0xaaaa));
	ASSERT_EQ(0, reg_wr(0, G84_PRE_SRC0, 3));
	ASSERT_EQ(0, reg_wr(0, G84_REC_LIMIT0, 0x100fe0));
	ASSERT_EQ(0, reg_wr(0, G84_REC_START0, 0x100000));
	ASSERT_EQ(0, sim_cmd(0, "advance", "18"));
	EXPECT_EQ(2, gpu_key(0, "stats", "mem_writes"));
	ASSERT_EQ(0, sim_cmd(0, "advance", "1"));
	EXPECT_EQ(3, gpu_key(0, "stats", "mem_writes"));
	EXPECT_EQ(0x100060, reg_rd(0, G84_REC_STATUS0));
	fd = open(SIM_DIR "/gpu0/mem", O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(96, read(fd, pkt, sizeof(pkt)));
	close(fd);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(want[i][0], le16(pkt + 32 * i + 0x00));
		EXPECT_EQ(want[i][1], le16(pkt + 32 * i + 0x06) & 0xfff);
		EXPECT_EQ(want[i][2], le16(pkt + 32 * i + 0x08));
	}
	/* what record_latency reads after each write (the default follows
	 * the clock mode; a time is up to a second)
	 */
	for (i = 0; i < (int)ARRAY_SIZE(set); i++) {
		ASSERT_EQ(0, sim_cmd(0, set[i].file, set[i].arg));
		ASSERT_LT(0, gpu_read(0, "record_latency", buf, sizeof(buf)));
		EXPECT_STREQ(set[i].reads, buf);
	}
	EXPECT_EQ(-EINVAL, sim_cmd(0, "record_latency", "4294967296"));
	EXPECT_EQ(-EINVAL, sim_cmd(0, "record_latency", "5 6"));
	EXPECT_EQ(-EINVAL, sim_cmd(0, "record_latency", "1000000001ns"));
	EXPECT_EQ(-EINVAL, sim_cmd(0, "record_latency", "ns"));
}

/*
 * Numbers at and past the documented limits (Documentation/sim.rst): a
 * limit is accepted, one past it, 2^64 - 1, a negative number, an empty
 * or oversized write fail with EINVAL (or the documented errno) and
 * change nothing (the file's or the GPU's state reads the same after).
 */
TEST_F(sim, limits_and_overflow)
{
	static const struct { const char *file, *cmd; int err; } c[] = {
		{ "clocks", "all 4294967296", -EINVAL },
		{ "clocks", "all 18446744073709551615", -EINVAL },
		{ "clocks", "all -1", -EINVAL },
		{ "clocks", "all 0", -EINVAL },
		{ "clocks", "", -EINVAL },
		{ "advance", "18446744073709551615", -EINVAL },
		{ "advance", "ns 18446744073709551615", -EINVAL },
		{ "advance", "18446744073709551616", -EINVAL },
		{ "advance", "-1", -EINVAL },
		{ "advance", "ns -1", -EINVAL },
		{ "wave", "0 2 periodic 4294967296 1 0", -EINVAL },
		{ "wave", "0 2 periodic 4294967295 4294967296 0", -EINVAL },
		{ "wave", "0 2 random 18446744073709551615 1", -EINVAL },
		{ "wave", "0 2 random 1 -1", -EINVAL },
		{ "wave", "0 18446744073709551615 const 1", -EINVAL },
		{ "reg", "0x1000000", -EINVAL },
		{ "reg", "0xa7c0 -1", -EINVAL },
		{ "reg", "18446744073709551615", -EINVAL },
		{ "truth", "0 2 0 18446744073709551616", -EINVAL },
		{ "fault", "lost_swaps 0 4294967296", -EINVAL },
		{ "mem_ctl", "0x100000 1048592", -EINVAL },
		{ "mem_ctl", "0xfffffff000 8192", -EINVAL },
		{ "mem_ctl", "18446744073709551615 16", -EINVAL },
	};
	char before[4096], after[4096], big[300];
	unsigned int i;

	ASSERT_EQ(0, sim_create("g84"));
	/* the limit itself: 2^32 - 1 Hz, read back exactly */
	ASSERT_EQ(0, sim_cmd(0, "clocks", "all 4294967295"));
	EXPECT_EQ(4294967295LL, dom_hz(0, 0));
	EXPECT_EQ(4294967295LL, dom_hz(0, 7));
	EXPECT_EQ(4294967295LL, gpu_key(0, "info", "tick_hz"));
	EXPECT_EQ(0, sim_cmd(0, "advance", "1000"));
	EXPECT_EQ(0, sim_cmd(0, "wave", "0 2 periodic 4294967295 4294967295 4294967295"));
	EXPECT_EQ(0, sim_cmd(0, "wave", "0 3 random 4294967295 65536"));
	EXPECT_EQ(0, sim_cmd(0, "reg", "0xfffffc 0xffffffff"));
	EXPECT_EQ(0, sim_cmd(0, "mem_ctl", "0xffff000000 1048576"));
	memset(big, '1', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (i = 0; i < ARRAY_SIZE(c) + 1; i++) {
		const char *file = i < ARRAY_SIZE(c) ? c[i].file : "advance";

		ASSERT_LT(0, gpu_read(0, "domains", before, sizeof(before)));
		if (i < ARRAY_SIZE(c)) {
			EXPECT_EQ(c[i].err, sim_cmd(0, file, "%s", c[i].cmd))
				TH_LOG("%s: \"%s\"", file, c[i].cmd);
		} else {
			EXPECT_EQ(-EINVAL, sim_cmd(0, file, "%s", big));
		}
		ASSERT_LT(0, gpu_read(0, "domains", after, sizeof(after)));
		EXPECT_STREQ(before, after) TH_LOG("%s #%u", file, i);
	}
	EXPECT_EQ(4294967295LL, dom_hz(0, 0));
	/* the model time would overflow after 2^64 / (2^32 - 1) s */
	EXPECT_EQ(-EINVAL, sim_cmd(0, "advance", "ns 18446744073709551615"));
	EXPECT_EQ(-EINVAL, nvpc_write(SIM_DIR "/remove", "18446744073709551615"));
	EXPECT_EQ(-EINVAL, nvpc_write(SIM_DIR "/create", "gf100 gpcs=33"));
	EXPECT_EQ(-EINVAL, nvpc_write(SIM_DIR "/create", "gf100 parts=17"));
	EXPECT_EQ(-EINVAL, nvpc_write(SIM_DIR "/create", "g84 id=16"));
	EXPECT_EQ(-EINVAL, nvpc_write(SIM_DIR "/create", "g84 id=-1"));
	EXPECT_EQ(0, nvpc_write(SIM_DIR "/create", "gf100 gpcs=32 parts=16 id=15"));
}

TEST_HARNESS_MAIN
