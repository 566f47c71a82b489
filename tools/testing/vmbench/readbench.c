// SPDX-License-Identifier: GPL-2.0
/*
 * Run inside the VM by guest-bench.sh: the cost of read() on an
 * nvpcounter event beside a software event, measured side by side, and
 * the register accesses one read makes, counted from the sim's trace
 * (Documentation/sim.rst, "Register window and trace").
 */
#include <time.h>

#include "../../../selftests/nvpcounter/nvpc_perf.h"

#define ROUNDS		10
#define READS		2000

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Mean ns of one read() over READS reads. */
static double read_cost(int fd)
{
	struct nvpc_val v;
	double t0 = now_ns();
	int i;

	for (i = 0; i < READS; i++)
		if (nvpc_ev_read(fd, &v))
			return -1;
	return (now_ns() - t0) / READS;
}

/* Register writes and reads of one read() of @fd, from the trace. */
static int trace_one_read(int fd, int *w, int *r)
{
	char buf[65536], *line;
	struct nvpc_val v;
	int n;

	if (sim_cmd(0, "trace", "clear") || sim_cmd(0, "trace", "on"))
		return -1;
	nvpc_ev_read(fd, &v);
	if (sim_cmd(0, "trace", "off"))
		return -1;
	n = nvpc_read_file(NVPC_SIM_DIR "/gpu0/trace", buf, sizeof(buf));
	if (n <= 0)
		return -1;
	*w = *r = 0;
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		*w += line[0] == 'W';
		*r += line[0] == 'R';
	}
	return 0;
}

int main(void)
{
	struct perf_event_attr sw = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	double nv = 0, sc = 0, rt = 0, a, b, c;
	char pmu[PATH_MAX];
	int type, type_rt, fnv, frt, fsw, i, w, r, fds[6];

	if (sim_gpu_create(0, "g84")) {
		printf("cannot create a simulated G84\n");
		return 1;
	}
	type = nvpc_pmu_find(0, pmu, sizeof(pmu));
	fnv = nvpc_ev_open(type, CFG_SIG(0, 1), CFG1_DOM(0, 0, 1), 0, -1);
	fsw = nvpc_attr_open(&sw, -1, 0);
	/* a second G84 on the real-time clock, at its catalogue clocks */
	if (sim_gpu_create(1, "g84 clock=realtime")) {
		printf("cannot create a real-time G84\n");
		return 1;
	}
	type_rt = nvpc_pmu_find(1, pmu, sizeof(pmu));
	frt = nvpc_ev_open(type_rt, CFG_SIG(0, 1), CFG1_DOM(0, 0, 1), 0, -1);
	if (type < 0 || fnv < 0 || fsw < 0 || type_rt < 0 || frt < 0) {
		printf("cannot open the events (%d %d %d %d %d)\n", type, fnv,
		       fsw, type_rt, frt);
		return 1;
	}
	/* alternate the three so that all see the same machine state */
	read_cost(fnv);
	read_cost(frt);
	read_cost(fsw);
	for (i = 0; i < ROUNDS; i++) {
		a = read_cost(fnv);
		c = read_cost(frt);
		b = read_cost(fsw);
		nv += a;
		rt += c;
		sc += b;
	}
	nv /= ROUNDS;
	rt /= ROUNDS;
	sc /= ROUNDS;
	printf("read() latency, %d x %d reads each, interleaved:\n", ROUNDS, READS);
	printf("  nvpcounter event, G84 manual clock     %9.0f ns\n", nv);
	printf("  nvpcounter event, G84 real-time clock  %9.0f ns\n", rt);
	printf("  software event (cpu-clock)             %9.0f ns\n", sc);
	printf("  ratio real-time / manual               %9.2f\n", rt / nv);
	printf("  ratio manual / software                %9.2f\n", nv / sc);
	close(frt);
	sim_gpu_remove(1);

	printf("register accesses per read() (target: 1 swap write, 5 reads, 1 ack per domain):\n");
	if (!trace_one_read(fnv, &w, &r))
		printf("  1 domain, 1 event:                %d writes, %d reads\n", w, r);
	for (i = 0; i < 4; i++)
		fds[i] = nvpc_ev_open(type, CFG_SIG(0, 2 + i), CFG1_DOM(0, 0, 2),
				      0, -1);
	fds[4] = nvpc_ev_open(type, CFG_CYCLES, CFG1_DOM(0, 0, 2), 0, -1);
	close(fnv);
	if (!trace_one_read(fds[0], &w, &r))
		printf("  1 domain, 4 events + cycles:      %d writes, %d reads\n", w, r);
	fds[5] = nvpc_ev_open(type, CFG_SIG(0, 1), CFG1_DOM(0, 0, 3), 0, -1);
	if (!trace_one_read(fds[0], &w, &r))
		printf("  2 domains, 6 events:              %d writes, %d reads\n", w, r);
	return 0;
}
