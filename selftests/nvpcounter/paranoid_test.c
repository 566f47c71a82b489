// SPDX-License-Identifier: GPL-2.0
/*
 * Unprivileged use of the GPU PMU at each perf_event_paranoid level, as
 * Documentation/perf.rst "Unprivileged use" states it.
 *
 * The rules are the perf core's (kernel/events/core.c and
 * include/linux/perf_event.h of Debian's 6.1 and 6.12): perf_event_open()
 * refuses everything to a caller without CAP_SYS_ADMIN at level 3 and above
 * (Debian's perf_paranoid_any()); an event that counts the kernel
 * (exclude_kernel = 0, which every event of this PMU must be: it cannot
 * exclude anything) needs level <= 1 or CAP_PERFMON (perf_allow_kernel());
 * a CPU-wide event, the only kind this PMU has, needs level <= 0 or
 * CAP_PERFMON (perf_allow_cpu(), from find_get_context()). EACCES for each.
 *
 * Root creates the GPU; a forked child drops to uid/gid 65534 (with no
 * capability, or keeping CAP_PERFMON alone) and opens, enables, reads.
 */
#include <grp.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "kselftest_harness.h"
#include "nvpc_perf.h"

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define NOBODY		65534
#define GPU		2
#define CYCLES		1000

#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif

/* What a child reports through its pipe. */
struct paranoid_res {
	int err;		/* 0 or the open's errno */
	int uid;		/* its effective uid, to prove the drop */
	__u64 count;		/* the cycles it read after the parent advanced */
};

/* Drop to NOBODY, keeping CAP_PERFMON alone if @perfmon. */
static int drop_privileges(int perfmon)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};

	if (perfmon && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
		return -1;
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		return -1;
	if (perfmon) {
		data[CAP_PERFMON / 32].effective = 1U << (CAP_PERFMON % 32);
		data[CAP_PERFMON / 32].permitted = 1U << (CAP_PERFMON % 32);
	}
	/* without KEEPCAPS setuid() cleared them all already */
	return syscall(__NR_capset, &hdr, data) ? -1 : 0;
}

/*
 * In a child: drop privileges, open the cycles of main.0 CPU-wide, tell
 * the parent, wait for it to advance the GPU, read and report.
 */
static struct paranoid_res open_as_nobody(int type, int perfmon,
					  int exclude_kernel)
{
	struct paranoid_res res = { .err = -1 };
	int to_parent[2], to_child[2];
	pid_t pid;
	char c;

	if (pipe(to_parent) || pipe(to_child))
		return res;
	pid = fork();
	if (pid == 0) {
		struct perf_event_attr attr = {
			.type = type,
			.config = CFG_CYCLES,
			.config1 = CFG1_DOM(0, 0, 0),
			.exclude_kernel = exclude_kernel,
			.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				       PERF_FORMAT_TOTAL_TIME_RUNNING,
		};
		int fd = -1;

		res.err = drop_privileges(perfmon) ? ECHILD : 0;
		res.uid = geteuid();
		if (!res.err) {
			fd = nvpc_attr_open(&attr, -1, 0);
			res.err = fd < 0 ? -fd : 0;
		}
		if (write(to_parent[1], &res, sizeof(res)) != sizeof(res))
			_exit(1);
		if (!res.err) {
			/* the parent advances the GPU in between */
			if (read(to_child[0], &c, 1) != 1)
				_exit(1);
			res.count = nvpc_ev_count(fd);
			if (write(to_parent[1], &res, sizeof(res)) !=
			    sizeof(res))
				_exit(1);
		}
		_exit(0);
	}
	close(to_parent[1]);
	close(to_child[0]);
	if (pid < 0 || read(to_parent[0], &res, sizeof(res)) != sizeof(res)) {
		res.err = -1;
	} else if (!res.err) {
		/* a quad-mode event counts the cycles [open, open + N) */
		if (sim_advance(GPU, CYCLES, "main.0") ||
		    write(to_child[1], "g", 1) != 1 ||
		    read(to_parent[0], &res, sizeof(res)) != sizeof(res))
			res.err = -1;
	}
	close(to_parent[0]);
	close(to_child[1]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return res;
}

/*
 * In a child dropped to NOBODY (keeping CAP_PERFMON alone if @perfmon):
 * read each of @files under @dir; @err[i] gets 0 or the read's errno.
 */
static int read_as_nobody(const char *dir, const char * const *files,
			  unsigned int n, int perfmon, int *err)
{
	int to_parent[2], ret = -1;
	pid_t pid;

	if (pipe(to_parent))
		return -1;
	pid = fork();
	if (pid == 0) {
		int res[16] = {};
		char path[PATH_MAX], buf[256];
		unsigned int i;

		if (drop_privileges(perfmon) || geteuid() != NOBODY)
			_exit(1);
		for (i = 0; i < n && i < ARRAY_SIZE(res); i++) {
			int r;

			snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
			r = nvpc_read_file(path, buf, sizeof(buf));
			res[i] = r < 0 ? -r : 0;
		}
		if (write(to_parent[1], res, sizeof(res)) != sizeof(res))
			_exit(1);
		_exit(0);
	}
	close(to_parent[1]);
	if (pid > 0) {
		int res[16];

		if (read(to_parent[0], res, sizeof(res)) == sizeof(res)) {
			memcpy(err, res, n * sizeof(*err));
			ret = 0;
		}
		waitpid(pid, NULL, 0);
	}
	close(to_parent[0]);
	return ret;
}

FIXTURE(paranoid) {
	int type;
	char saved[32];
	char pmu[PATH_MAX];
};

FIXTURE_SETUP(paranoid)
{
	ASSERT_LT(0, nvpc_read_file(PARANOID, self->saved,
				    sizeof(self->saved)));
	ASSERT_EQ(0, sim_gpu_create(GPU, "g84"));
	ASSERT_EQ(0, sim_cmd(GPU, "clocks", "all 1000000"));
	self->type = nvpc_pmu_find(GPU, self->pmu, sizeof(self->pmu));
	ASSERT_LE(0, self->type);
}

FIXTURE_TEARDOWN(paranoid)
{
	nvpc_write(PARANOID, "%s", self->saved);
	sim_gpu_remove(GPU);
	nvpc_mod_unload_all();
}

/*
 * One row of perf.rst's table: the level, and what an unprivileged
 * caller, one with CAP_PERFMON alone, and one asking exclude_kernel get.
 */
struct paranoid_row {
	int level;
	int nobody, perfmon, exclude_kernel;
};

static const struct paranoid_row paranoid_table[] = {
	{ -1, 0,      0,      EINVAL },
	{  0, 0,      0,      EINVAL },
	{  1, EACCES, 0,      EINVAL },
	{  2, EACCES, 0,      EINVAL },
	{  3, EACCES, EACCES, EACCES },
	{  4, EACCES, EACCES, EACCES },
};

TEST_F_TIMEOUT(paranoid, levels, 300)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(paranoid_table); i++) {
		const struct paranoid_row *row = &paranoid_table[i];
		struct paranoid_res r;

		ASSERT_EQ(0, nvpc_write(PARANOID, "%d", row->level));
		TH_LOG("perf_event_paranoid %d", row->level);

		r = open_as_nobody(self->type, 0, 0);
		EXPECT_EQ(NOBODY, r.uid);
		EXPECT_EQ(row->nobody, r.err);
		if (!r.err)
			EXPECT_EQ(CYCLES, r.count);

		r = open_as_nobody(self->type, 1, 0);
		EXPECT_EQ(NOBODY, r.uid);
		EXPECT_EQ(row->perfmon, r.err);
		if (!r.err)
			EXPECT_EQ(CYCLES, r.count);

		/* exclude_* is refused (EINVAL) unless the level refuses all */
		r = open_as_nobody(self->type, 0, 1);
		EXPECT_EQ(NOBODY, r.uid);
		EXPECT_EQ(row->exclude_kernel, r.err);
	}
}

/*
 * Who may read the GPU through sysfs (the ABI file, perf.rst "The
 * domains/ directory"): the files that read registers (a domain's
 * status, mode, ctr_mode, single_state, quad_state) answer EACCES to a
 * caller without CAP_PERFMON at every paranoid level, and touch no
 * register doing so (the sim's access trace stays empty); the driver's
 * own statistics stay readable by anyone. main.1 holds signal 0x11 at 1,
 * so a status a caller could read would show it.
 */
static const char * const hw_files[] = {
	"status", "mode", "ctr_mode", "single_state", "quad_state",
};

static const char * const stat_files[] = {
	"lost_periods", "samples", "record_gaps", "slots", "record_state",
	"clock_hz", "signals", "record_aux_max",
};

TEST_F_TIMEOUT(paranoid, sysfs_hardware_state, 120)
{
	static const int levels[] = { 2, -1 };
	char dir[PATH_MAX + 32], trace[4096];
	int err[16];
	unsigned int i, j;

	ASSERT_EQ(0, sim_wave(GPU, "main.1", 0x11, WAVE_CONST(1)));
	snprintf(dir, sizeof(dir), "%s/domains/main.1", self->pmu);
	for (i = 0; i < ARRAY_SIZE(levels); i++) {
		ASSERT_EQ(0, nvpc_write(PARANOID, "%d", levels[i]));
		TH_LOG("perf_event_paranoid %d", levels[i]);

		ASSERT_EQ(0, sim_cmd(GPU, "trace", "clear"));
		ASSERT_EQ(0, sim_cmd(GPU, "trace", "on"));
		ASSERT_EQ(0, read_as_nobody(dir, hw_files,
					    ARRAY_SIZE(hw_files), 0, err));
		ASSERT_EQ(0, sim_cmd(GPU, "trace", "off"));
		for (j = 0; j < ARRAY_SIZE(hw_files); j++) {
			TH_LOG("nobody reads %s: errno %d", hw_files[j],
			       err[j]);
			EXPECT_EQ(EACCES, err[j]);
		}
		snprintf(trace, sizeof(trace), NVPC_SIM_DIR "/gpu%d/trace",
			 GPU);
		ASSERT_LT(0, nvpc_read_file(trace, trace, sizeof(trace)));
		/* "# on entries 0 lost 0": not one register touched */
		EXPECT_NE(NULL, strstr(trace, " entries 0 lost 0"));

		ASSERT_EQ(0, read_as_nobody(dir, stat_files,
					    ARRAY_SIZE(stat_files), 0, err));
		for (j = 0; j < ARRAY_SIZE(stat_files); j++)
			EXPECT_EQ(0, err[j]);

		ASSERT_EQ(0, read_as_nobody(self->pmu,
					    (const char * const[]){
						"reads_deferred", "cpumask" },
					    2, 0, err));
		EXPECT_EQ(0, err[0]);
		EXPECT_EQ(0, err[1]);

		/* CAP_PERFMON reads them all */
		ASSERT_EQ(0, read_as_nobody(dir, hw_files,
					    ARRAY_SIZE(hw_files), 1, err));
		for (j = 0; j < ARRAY_SIZE(hw_files); j++)
			EXPECT_EQ(0, err[j]);
	}
	/* and root sees the signal held at 1: bit 17 of the first word */
	{
		char path[PATH_MAX + 64], buf[128];
		unsigned long w0;

		snprintf(path, sizeof(path), "%s/status", dir);
		ASSERT_LT(0, nvpc_read_file(path, buf, sizeof(buf)));
		w0 = strtoul(buf, NULL, 16);
		EXPECT_EQ(1UL << 0x11, w0 & (1UL << 0x11));
	}
}

TEST_HARNESS_MAIN
