// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug under a sampled group and under nvpc record
 * (Documentation/perf.rst "Sampling"; issue 33 item 3).
 *
 * A simulated G84 is created from CPU 1, so its PMU's cpumask is 1 (the
 * PMU's CPU is the one that registered the GPU). CPU 1 then goes offline
 * and comes back while a group or a recording runs on it.
 *
 * What perf does (kernel/events/core.c, 6.1 and 6.12): an nvpcounter
 * event joining a cpu-clock leader moves the whole group into the
 * nvpcounter PMU's context (move_group: the clock is a software event
 * with PERF_EV_CAP_SOFTWARE), so the driver's offline callback
 * (drivers/nvpcounter/pmu.c nvpc_cpu_offline(), CPUHP_AP_ONLINE_DYN,
 * torn down before perf's own CPUHP_AP_PERF_ONLINE) takes the clock
 * leader along in perf_pmu_migrate_context(): every event is removed on
 * CPU 1 (del with a final read), and installed on CPU 0, members first,
 * then the leader, whose hrtimer starts again there. The driver has no
 * online callback: when CPU 1 comes back nothing moves, the cpumask
 * stays 0 and the group samples on CPU 0.
 *
 * The GPU runs on the manual clock (Documentation/sim.rst): no cycle
 * passes but those the test advances, none while a CPU goes away, so
 *
 * - the sampled group: main.1's cycles and signal 0x11, held at 1, count
 *   every cycle advanced while the group is enabled: 3 phases (before the
 *   offline, offline, online again) of 20 x 1000 cycles, 60000 in all, in
 *   the final read(), each member alike. Each sample's counts are
 *   cumulative: the two members are equal in every sample (one snapshot
 *   of the domain), never go backwards, and never fall below the cycles
 *   advanced by the advances that had returned before the sample's time
 *   (CLOCK_MONOTONIC, as the test's own clock): a count lost in the move
 *   would. Samples taken before the offline carry CPU 1, those after it
 *   CPU 0, and each phase has samples (the clock moved with the group).
 *   No PERF_RECORD_LOST (the ring holds about 12 s of samples and is read
 *   after every step) and main.1's lost_periods stays 0.
 * - nvpc record --mode sample: the same group from the tool; 3 phases of
 *   8 x 65536 cycles: the capture's rows sum to 1572864 cycles, and 0x11
 *   equals the cycles in every row (the counts are cumulative, the last
 *   sample comes after the last advance).
 * - nvpc record (record mode, a packet every 1024 cycles): the record
 *   event moves as a lone event; its del on CPU 1 (inside perf's
 *   pmu_disable, so parked) is not followed by an add there, so the
 *   transaction's end halts the session (nvpc_record_txn_end()), and the
 *   add on CPU 0 starts a new one (nvpc_record_start()):
 *   one gap (record_gaps + 1, the next AUX record PARTIAL), a second
 *   segment. The first session's packets are all there: 8 x 65536 cycles
 *   are 512 packets. The new session starts on probation ("DOC: the
 *   outgoing packet" in drivers/nvpcounter/record.c: the halt never saw a
 *   packet leave, so the one packet that lands at START is dropped and
 *   START written again), so the test advances 1024 cycles (that packet)
 *   and waits for the drain before the rest: the second segment holds the
 *   remaining 8 x 65536 - 1024 + 8 x 65536 cycles, 1023 packets. Every
 *   packet is
 *   1024 cycles, STOP 1, 0x11 = 1024; no impossible packet; the tool
 *   exits 0.
 *
 * Nothing may hang: each test has its time bound, and the VM runner fails
 * the run on any WARN, lockdep or RCU report in the kernel log.
 */
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "nvpc_perf.h"

#define GPU		1
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"
#define RING_PAGES	256	/* 1 MiB: about 12 s of 96-byte samples at 1 kHz */
#define MAX_STEPS	64
#define MAX_SAMPLES	200000

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* CPU 1's online file reads @want */
static int cpu1_online_is(int want)
{
	char buf[8];

	return nvpc_read_file(CPU1_ONLINE, buf, sizeof(buf)) > 0 &&
	       atoi(buf) == want;
}

FIXTURE(hotplug) {
	int type;
	char pmu[PATH_MAX];
	int created;
	pid_t child;	/* nvpc record, while it runs */
};

FIXTURE_SETUP(hotplug)
{
	self->created = 0;
	self->child = 0;
	if (access(CPU1_ONLINE, W_OK) || !cpu1_online_is(1))
		SKIP(return, "CPU 1 cannot go offline here");
	/* created from CPU 1: the PMU's CPU is 1 */
	ASSERT_EQ(0, pin_to(1));
	ASSERT_EQ(0, sim_gpu_create(GPU, "g84"));
	self->created = 1;
	/* nothing of the test runs on CPU 1 while it goes */
	ASSERT_EQ(0, pin_to(0));
	ASSERT_EQ(0, sim_cmd(GPU, "clocks", "all 1000000"));
	self->type = nvpc_pmu_find(GPU, self->pmu, sizeof(self->pmu));
	ASSERT_LE(0, self->type);
	ASSERT_EQ(1, nvpc_pmu_num(self->pmu, "cpumask"));
	ASSERT_EQ(0, sim_wave(GPU, "main.1", 0x11, WAVE_CONST(1)));
}

FIXTURE_TEARDOWN(hotplug)
{
	if (self->child > 0) {
		kill(self->child, SIGKILL);
		waitpid(self->child, NULL, 0);
	}
	if (!cpu1_online_is(1))
		nvpc_write(CPU1_ONLINE, "1");
	if (self->created)
		sim_gpu_remove(GPU);
}

/* CPU 1 offline or online (@on); the time it took, in ms, or -1 */
static long cpu1_set(int on)
{
	__u64 t0 = now_ns();

	if (nvpc_write(CPU1_ONLINE, on ? "1" : "0"))
		return -1;
	return (now_ns() - t0) / 1000000;
}

/* ---- the sampled group, parsed from its ring ---- */

struct step {
	__u64 t0, t1;	/* CLOCK_MONOTONIC around the advance */
	__u64 cum;	/* cycles advanced by the end of it */
};

struct sample {
	__u64 time;
	__u32 cpu;
	__u64 cyc, sig;
};

struct ring {
	struct perf_event_mmap_page *pg;
	char *data;
	__u64 size;
	__u64 ids[3];		/* leader, cycles, signal */
	struct sample *s;
	unsigned int ns;
	unsigned int lost, throttled, other, bad;
};

static void ring_copy(struct ring *r, __u64 off, void *dst, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		((char *)dst)[i] = r->data[(off + i) & (r->size - 1)];
}

/* the sample's fields; -1 if it is not the group's three members */
static int parse_sample(struct ring *r, const __u64 *w, size_t nw,
			struct sample *s)
{
	unsigned int j;

	/* time, cpu|res, nr, enabled, running, {value, id} x 3 */
	if (nw < 11 || w[2] != 3)
		return -1;
	s->time = w[0];
	s->cpu = (__u32)w[1];
	for (j = 0; j < 3; j++)
		if (w[5 + 2 * j + 1] != r->ids[j])
			return -1;
	s->cyc = w[7];
	s->sig = w[9];
	return 0;
}

static void ring_drain(struct ring *r)
{
	__u64 head = __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = r->pg->data_tail;

	while (tail < head) {
		struct perf_event_header h;
		__u64 w[64];
		size_t nw;

		ring_copy(r, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		nw = (h.size - sizeof(h)) / 8;
		if (nw > 64)
			nw = 64;
		ring_copy(r, tail + sizeof(h), w, nw * 8);
		switch (h.type) {
		case PERF_RECORD_SAMPLE:
			if (r->ns < MAX_SAMPLES &&
			    !parse_sample(r, w, nw, &r->s[r->ns]))
				r->ns++;
			else
				r->bad++;
			break;
		case PERF_RECORD_LOST:
			r->lost += w[1];
			break;
		case PERF_RECORD_THROTTLE:
		case PERF_RECORD_UNTHROTTLE:
			r->throttled++;
			break;
		default:
			r->other++;
		}
		tail += h.size;
	}
	__atomic_store_n(&r->pg->data_tail, tail, __ATOMIC_RELEASE);
}

static int open_member(int type, int lead, int signal)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = type,
		.config = signal ? CFG_SIG(0, 0x11) : CFG_CYCLES,
		.config1 = CFG1_DOM(0, 0, 1),
		.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			       PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
	};
	int fd = syscall(__NR_perf_event_open, &a, -1, 1, lead, 0);

	return fd < 0 ? -errno : fd;
}

/*
 * The phases: 20 steps of 1000 cycles each, 5 ms apart, with the ring
 * read after each; returns the cycles advanced so far or 0 on an error.
 */
static __u64 phase(struct ring *r, struct step *st, unsigned int *nst,
		   __u64 cum)
{
	unsigned int i;

	for (i = 0; i < 20 && *nst < MAX_STEPS; i++) {
		struct step *s = &st[(*nst)++];

		s->t0 = now_ns();
		if (sim_advance(GPU, 1000, "main.1"))
			return 0;
		s->t1 = now_ns();
		cum += 1000;
		s->cum = cum;
		usleep(5000);
		ring_drain(r);
	}
	return cum;
}

TEST_F_TIMEOUT(hotplug, sampled_group_moves_exact, 120)
{
	struct perf_event_attr c = {
		.size = sizeof(c),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1000000,	/* 1 ms */
		.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_CPU,
		.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			       PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
		.disabled = 1,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
	};
	struct { __u64 nr, enabled, running, v[3][2]; } rd;
	struct step st[MAX_STEPS];
	unsigned int nst = 0, i, k, bad_pair = 0, backwards = 0, short_of = 0;
	unsigned int on_cpu[3][2] = { { 0 } }, phase_n[3] = { 0 };
	long psz = sysconf(_SC_PAGESIZE), ms_off, ms_on;
	__u64 cum = 0, t_off0, t_off1, t_on0, t_on1, prev = 0;
	long long lost0, deferred0, strag0;
	struct ring r = { 0 };
	int lead, cyc, sig;

	lost0 = nvpc_pmu_num(self->pmu, "domains/main.1/lost_periods");
	deferred0 = nvpc_pmu_num(self->pmu, "reads_deferred");
	strag0 = nvpc_pmu_num(self->pmu, "domains/main.1/stragglers");
	r.s = calloc(MAX_SAMPLES, sizeof(*r.s));
	ASSERT_NE(NULL, r.s);
	lead = syscall(__NR_perf_event_open, &c, -1, 1, -1, 0);
	ASSERT_LE(0, lead) TH_LOG("cpu-clock on CPU 1: %s", strerror(errno));
	cyc = open_member(self->type, lead, 0);
	ASSERT_LE(0, cyc);
	sig = open_member(self->type, lead, 1);
	ASSERT_LE(0, sig);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ID, &r.ids[0]));
	ASSERT_EQ(0, ioctl(cyc, PERF_EVENT_IOC_ID, &r.ids[1]));
	ASSERT_EQ(0, ioctl(sig, PERF_EVENT_IOC_ID, &r.ids[2]));
	r.size = RING_PAGES * psz;
	r.pg = mmap(NULL, (RING_PAGES + 1) * psz, PROT_READ | PROT_WRITE,
		    MAP_SHARED, lead, 0);
	ASSERT_NE(MAP_FAILED, r.pg);
	r.data = (char *)r.pg + psz;
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));

	cum = phase(&r, st, &nst, cum);
	ASSERT_EQ(20000, cum);

	t_off0 = now_ns();
	ms_off = cpu1_set(0);
	t_off1 = now_ns();
	ASSERT_LE(0, ms_off);
	EXPECT_EQ(0, nvpc_pmu_num(self->pmu, "cpumask"));
	/* nothing ran meanwhile: the move lost nothing */
	ASSERT_LT(0, read(lead, &rd, sizeof(rd)));
	EXPECT_EQ(20000, rd.v[1][0]);
	EXPECT_EQ(20000, rd.v[2][0]);
	ring_drain(&r);

	cum = phase(&r, st, &nst, cum);
	ASSERT_EQ(40000, cum);

	t_on0 = now_ns();
	ms_on = cpu1_set(1);
	t_on1 = now_ns();
	ASSERT_LE(0, ms_on);
	/* no online callback: the PMU stays where it went */
	EXPECT_EQ(0, nvpc_pmu_num(self->pmu, "cpumask"));
	ring_drain(&r);

	cum = phase(&r, st, &nst, cum);
	ASSERT_EQ(60000, cum);
	usleep(20000);
	ring_drain(&r);

	ASSERT_LT(0, read(lead, &rd, sizeof(rd)));
	ASSERT_EQ(3, rd.nr);
	TH_LOG("offline %ld ms, online %ld ms; final: cycles %llu 0x11 %llu, en %llu run %llu",
	       ms_off, ms_on, rd.v[1][0], rd.v[2][0], rd.enabled, rd.running);
	/* every cycle advanced while enabled, in each member alike */
	EXPECT_EQ(60000, rd.v[1][0]);
	EXPECT_EQ(60000, rd.v[2][0]);
	EXPECT_LT(0, rd.running);

	for (i = 0; i < r.ns; i++) {
		const struct sample *s = &r.s[i];
		__u64 done = 0;
		int p = s->time < t_off0 ? 0 : s->time > t_off1 &&
			s->time < t_on0 ? 1 : s->time > t_on1 ? 2 : -1;

		if (s->cyc != s->sig)
			bad_pair++;
		if (s->cyc < prev)
			backwards++;
		prev = s->cyc;
		/* the advances that had returned before the sample */
		for (k = 0; k < nst && st[k].t1 < s->time; k++)
			done = st[k].cum;
		if (s->cyc < done || s->cyc > 60000) {
			if (short_of++ < 5) {
				TH_LOG("sample %u at %llu CPU %u: %llu of %llu",
				       i, s->time, s->cpu, s->cyc, done);
				TH_LOG("  advance %llu..%llu; next %llu +%lld",
				       k ? st[k - 1].t0 : 0, k ? st[k - 1].t1 : 0,
				       i + 1 < r.ns ? r.s[i + 1].cyc : 0,
				       i + 1 < r.ns ?
				       (long long)(r.s[i + 1].time - s->time) : 0);
			}
		}
		if (p >= 0) {
			phase_n[p]++;
			if (s->cpu <= 1)
				on_cpu[p][s->cpu]++;
		}
	}
	TH_LOG("%u samples (%u/%u on CPU1, %u/%u off, %u/%u on), last %llu; lost %u thr %u bad %u",
	       r.ns, phase_n[0], on_cpu[0][1], phase_n[1], on_cpu[1][0],
	       phase_n[2], on_cpu[2][0], r.ns ? r.s[r.ns - 1].cyc : 0,
	       r.lost, r.throttled, r.bad);
	TH_LOG("reads_deferred %lld -> %lld, stragglers %lld -> %lld",
	       deferred0, nvpc_pmu_num(self->pmu, "reads_deferred"), strag0,
	       nvpc_pmu_num(self->pmu, "domains/main.1/stragglers"));
	EXPECT_EQ(0, bad_pair);
	EXPECT_EQ(0, backwards);
	EXPECT_EQ(0, short_of);
	EXPECT_EQ(0, r.lost);
	EXPECT_EQ(0, r.bad);
	/* the clock sampled in each phase, on CPU 1, then on CPU 0 */
	EXPECT_LT(0, phase_n[0]);
	EXPECT_LT(0, phase_n[1]);
	EXPECT_LT(0, phase_n[2]);
	EXPECT_EQ(phase_n[0], on_cpu[0][1]);
	EXPECT_EQ(phase_n[1], on_cpu[1][0]);
	EXPECT_EQ(phase_n[2], on_cpu[2][0]);
	/* the last sample came after the last advance: all of it */
	EXPECT_EQ(60000, r.ns ? r.s[r.ns - 1].cyc : 0);
	EXPECT_EQ(lost0, nvpc_pmu_num(self->pmu, "domains/main.1/lost_periods"));

	munmap(r.pg, (RING_PAGES + 1) * psz);
	close(sig);
	close(cyc);
	close(lead);
	free(r.s);
}

/* ---- nvpc record across the hotplug ---- */

#define NVPC_STEP	65536	/* 64 packets of 1024 cycles */
#define NVPC_STEPS	8

/* a number after "key": in @json, or -1 */
static long long json_num(const char *json, const char *key)
{
	char k[64];
	const char *p;

	snprintf(k, sizeof(k), "\"%s\":", key);
	p = strstr(json, k);
	if (!p)
		return -1;
	p += strlen(k);
	while (*p == ' ')
		p++;
	return strtoll(p, NULL, 10);
}

/* run @cmd, its output into @buf; its exit status, or -1 */
static int run_out(const char *cmd, char *buf, size_t len)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0, m;
	int st;

	if (!p)
		return -1;
	while (n < len - 1 && (m = fread(buf + n, 1, len - 1 - n, p)) > 0)
		n += m;
	buf[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * until @rel under the PMU reads @want (or, @want NULL, its number
 * grows past @from); 0, or -1 at the bound (10 s, scaled)
 */
static int wait_pmu(const char *pmu, const char *rel, const char *want,
		    long long from, pid_t child)
{
	char path[PATH_MAX], buf[64];
	double bound = 10.0 * nvpc_time_scale();
	int i;

	snprintf(path, sizeof(path), "%s/%s", pmu, rel);
	for (i = 0; i < bound * 100; i++) {
		if (nvpc_read_file(path, buf, sizeof(buf)) > 0) {
			if (want && !strncmp(buf, want, strlen(want)))
				return 0;
			if (!want && strtoll(buf, NULL, 0) > from)
				return 0;
		}
		if (waitpid(child, NULL, WNOHANG) == child)
			return -1;
		usleep(10000);
	}
	return -1;
}

/* the child's exit status after SIGINT, or -1 (killed at the bound) */
static int stop_child(pid_t child)
{
	double bound = 30.0 * nvpc_time_scale();
	int i, st;

	kill(child, SIGINT);
	for (i = 0; i < bound * 100; i++) {
		if (waitpid(child, &st, WNOHANG) == child)
			return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
		usleep(10000);
	}
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	return -1;
}

struct csv_sum {
	unsigned int rows, segments, bad, first_bad;
	unsigned int seg_rows[4];
	__u64 cycles, sig;
};

/* the CSV's rows: segment,time_ns,cycles,delta,stop,saturated,0x11 */
static void csv_check(const char *csv, int record, struct csv_sum *c)
{
	const char *line = strchr(csv, '\n');
	int last_seg = -1;

	memset(c, 0, sizeof(*c));
	while (line && *++line) {
		unsigned long long seg, t, cyc, delta, stop, sat, v;
		int ok;

		if (sscanf(line, "%llu,%llu,%llu,%llu,%llu,%llu,%llu", &seg,
			   &t, &cyc, &delta, &stop, &sat, &v) != 7) {
			c->bad++;
			break;
		}
		ok = v == delta && !sat && stop == 1 &&
		     (!record || delta == 1024);
		if (!ok && !c->bad++)
			c->first_bad = c->rows;
		if ((int)seg != last_seg) {
			c->segments++;
			last_seg = seg;
		}
		if (seg < 4)
			c->seg_rows[seg]++;
		c->rows++;
		c->cycles += delta;
		c->sig += v;
		line = strchr(line, '\n');
	}
}

static void nvpc_across_hotplug(struct __test_metadata *_metadata,
				FIXTURE_DATA(hotplug) * self, int record)
{
	const char *top = getenv("NVPC_TOP");
	const char *dir = getenv("NVPC_OUT");
	const char *mode = record ? "record" : "sample";
	char nvpc[PATH_MAX], cap[PATH_MAX], log[PATH_MAX];
	char cmd[3 * PATH_MAX], *out;
	const char *pmu = strrchr(self->pmu, '/') + 1;
	long long gaps0, samples0, jgaps;
	long ms_off, ms_on;
	struct csv_sum c;
	__u64 cum = 0;
	unsigned int i;
	int rc, fd, complete;
	pid_t child;

	snprintf(nvpc, sizeof(nvpc), "%s/build/nvpc/nvpc", top ? top : ".");
	if (access(nvpc, X_OK))
		SKIP(return, "no %s (make nvpc)", nvpc);
	if (!dir)
		dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(cap, sizeof(cap), "%s/hotplug_%s.nvpc", dir, mode);
	snprintf(log, sizeof(log), "%s/hotplug_%s.log", dir, mode);
	out = malloc(16 << 20);
	ASSERT_NE(NULL, out);
	gaps0 = nvpc_pmu_num(self->pmu, "domains/main.1/record_gaps");
	samples0 = nvpc_pmu_num(self->pmu, "domains/main.1/samples");

	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (record)
			execl(nvpc, "nvpc", "record", "-g", pmu, "-d",
			      "main.1", "-s", "0x11", "--mode", "record",
			      "--every", "1024", "--clock", "1000000",
			      "--duration", "300", "-o", cap, (char *)NULL);
		else
			execl(nvpc, "nvpc", "record", "-g", pmu, "-d",
			      "main.1", "-s", "0x11", "--mode", "sample",
			      "--every", "1ms", "--clock", "1000000",
			      "--duration", "300", "-o", cap, (char *)NULL);
		_exit(127);
	}
	self->child = child;
	/* recording: the session started, or the group is being read */
	if (record)
		rc = wait_pmu(self->pmu, "domains/main.1/record_state",
			      "recording", 0, child);
	else
		rc = wait_pmu(self->pmu, "domains/main.1/samples", NULL,
			      samples0, child);
	ASSERT_EQ(0, rc) TH_LOG("nvpc record --mode %s did not start (%s)",
				mode, log);

	for (i = 0; i < NVPC_STEPS; i++) {
		ASSERT_EQ(0, sim_advance(GPU, NVPC_STEP, "main.1"));
		cum += NVPC_STEP;
		usleep(20000);
	}
	ms_off = cpu1_set(0);
	ASSERT_LE(0, ms_off);
	EXPECT_EQ(0, nvpc_pmu_num(self->pmu, "cpumask"));
	if (record) {
		/* the new session's probation packet, then its drain */
		ASSERT_EQ(0, sim_advance(GPU, 1024, "main.1"));
		cum += 1024;
		usleep(200000 * nvpc_time_scale());
		ASSERT_EQ(0, sim_advance(GPU, NVPC_STEP - 1024, "main.1"));
		cum += NVPC_STEP - 1024;
		usleep(20000);
		i = 1;
	} else {
		i = 0;
	}
	for (; i < NVPC_STEPS; i++) {
		ASSERT_EQ(0, sim_advance(GPU, NVPC_STEP, "main.1"));
		cum += NVPC_STEP;
		usleep(20000);
	}
	ms_on = cpu1_set(1);
	ASSERT_LE(0, ms_on);
	EXPECT_EQ(0, nvpc_pmu_num(self->pmu, "cpumask"));
	for (i = 0; i < NVPC_STEPS; i++) {
		ASSERT_EQ(0, sim_advance(GPU, NVPC_STEP, "main.1"));
		cum += NVPC_STEP;
		usleep(20000);
	}
	/* a sample after the last advance; the last packets drained */
	usleep(200000);
	rc = stop_child(child);
	self->child = 0;
	TH_LOG("--mode %s: %llu cycles; offline %ld ms, online %ld ms; exit %d",
	       mode, cum, ms_off, ms_on, rc);
	EXPECT_EQ(0, rc) TH_LOG("see %s", log);

	snprintf(cmd, sizeof(cmd), "'%s' report --json '%s'", nvpc, cap);
	rc = run_out(cmd, out, 16 << 20);
	EXPECT_EQ(0, rc) TH_LOG("%s: exit %d", cmd, rc);
	jgaps = json_num(out, "gaps");
	complete = strstr(out, "\"complete\": true") ||
		   strstr(out, "\"complete\":true");
	TH_LOG("--mode %s: pkts %lld segs %lld gaps %lld lost %lld imp %lld drv %lld %lld-%lld %d",
	       mode, json_num(out, "packets"), json_num(out, "segments"),
	       jgaps, json_num(out, "lost_records"),
	       json_num(out, "impossible_packets"),
	       json_num(out, "driver_gaps"), gaps0,
	       nvpc_pmu_num(self->pmu, "domains/main.1/record_gaps"),
	       complete);
	EXPECT_EQ(0, json_num(out, "impossible_packets"));
	EXPECT_EQ(0, json_num(out, "lost_records"));
	EXPECT_TRUE(complete);

	snprintf(cmd, sizeof(cmd), "'%s' report --csv '%s'", nvpc, cap);
	rc = run_out(cmd, out, 16 << 20);
	EXPECT_EQ(0, rc) TH_LOG("%s: exit %d", cmd, rc);
	csv_check(out, record, &c);
	TH_LOG("--mode %s: %u rows, %u segs (%u, %u), %llu cyc, 0x11 %llu, %u bad (row %u)",
	       mode, c.rows, c.segments, c.seg_rows[0], c.seg_rows[1],
	       c.cycles, c.sig, c.bad, c.first_bad);
	EXPECT_EQ(0, c.bad);
	EXPECT_EQ(c.cycles, c.sig);
	if (record) {
		/* one gap: the move at the offline; none at the online */
		EXPECT_EQ(1, jgaps);
		EXPECT_EQ(2, c.segments);
		EXPECT_EQ(gaps0 + 1,
			  nvpc_pmu_num(self->pmu, "domains/main.1/record_gaps"));
		EXPECT_EQ(NVPC_STEPS * NVPC_STEP / 1024, c.seg_rows[0]);
		EXPECT_EQ((2 * NVPC_STEPS * NVPC_STEP - 1024) / 1024,
			  c.seg_rows[1]);
	} else {
		/* nothing lost: one segment, every cycle advanced */
		EXPECT_EQ(0, jgaps);
		EXPECT_EQ(1, c.segments);
		EXPECT_EQ(cum, c.cycles);
	}
	free(out);
}

TEST_F_TIMEOUT(hotplug, nvpc_record_across_hotplug, 180)
{
	nvpc_across_hotplug(_metadata, self, 1);
}

TEST_F_TIMEOUT(hotplug, nvpc_sample_across_hotplug, 180)
{
	nvpc_across_hotplug(_metadata, self, 0);
}

TEST_HARNESS_MAIN
