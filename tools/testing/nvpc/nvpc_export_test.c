// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of nvpc export (Documentation/monitoring.rst "Prometheus"),
 * a binary of its own (nvpc_export_test, with test_util.c's helpers):
 * the page of counts given by hand (export_page.c linked in), and the
 * built tool ($NVPC_BIN) with no PMU ($NVPC_SYSFS an empty directory):
 * its HTTP side against good, hostile and many clients, its textfile,
 * its arguments and its end. promtool (Debian's prometheus package,
 * make deps) checks every page; without it these tests fail.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nvpc_export.h"
#include "test_util.h"

/* TEST() wrappers of kselftest_harness.h leave parameters unused. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"

/* all of len bytes to fd: 0, or -1 (the peer cut it) */
static int nvpc_write_all_test(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

static double exp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* a TCP port of 127.0.0.1 free a moment ago */
static int exp_free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(fd, (struct sockaddr *)&a, &len))
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

/* a connection to 127.0.0.1:port, reads bounded by secs; -1 refused */
static int exp_connect(int port, int secs)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port) };
	struct timeval tv = { .tv_sec = secs };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* what fd sends until it closes (or the read times out) into out */
static long exp_recv_all(int fd, char *out, size_t len)
{
	size_t n = 0;
	ssize_t r;

	while (n < len - 1 && (r = recv(fd, out + n, len - 1 - n, 0)) > 0)
		n += r;
	out[n] = '\0';
	return n;
}

/* req sent whole, the answer read to its end: bytes read, -1 no connection */
static long exp_http(int port, const char *req, size_t reqlen, char *out,
		     size_t len)
{
	int fd = exp_connect(port, 10);
	long n;

	if (fd < 0)
		return -1;
	if (nvpc_write_all_test(fd, req, reqlen)) {
		/* the server may cut a request it refused: read its answer */
	}
	n = exp_recv_all(fd, out, len);
	close(fd);
	return n;
}

/* the status of an HTTP answer, 0 for none */
static int exp_status(const char *resp)
{
	return strncmp(resp, "HTTP/1.", 7) ? 0 : atoi(resp + 9);
}

static const char *exp_body(const char *resp)
{
	const char *b = strstr(resp, "\r\n\r\n");

	return b ? b + 4 : "";
}

static long exp_get(int port, const char *path, char *out, size_t len)
{
	char req[256];

	snprintf(req, sizeof(req),
		 "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
		 path);
	return exp_http(port, req, strlen(req), out, len);
}

/*
 * nvpc export ARGS with $NVPC_SYSFS sysfs, stderr into err: its pid;
 * with port, once it answers there (5 s at most)
 */
static pid_t exp_start(const char *sysfs, const char *args, const char *err,
		       int port)
{
	char cmd[1024];
	pid_t pid;

	snprintf(cmd, sizeof(cmd), "exec %s export %s 2>%s", bin(), args, err);
	fflush(NULL);
	pid = fork();
	if (!pid) {
		setenv("NVPC_SYSFS", sysfs, 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	for (double t0 = exp_now(); port > 0 && exp_now() - t0 < 5;) {
		int fd = exp_connect(port, 1);

		if (fd >= 0) {
			close(fd);
			break;
		}
		usleep(20000);
	}
	return pid;
}

/* SIGTERM to pid, its exit status within secs; -1 it did not end */
static int exp_stop(pid_t pid, int sig, double secs)
{
	int st;

	kill(pid, sig);
	for (double t0 = exp_now(); exp_now() - t0 < secs; usleep(10000))
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

/* promtool check metrics of text: its exit status, output into out */
static int exp_promtool(const char *text, char *out, size_t len)
{
	char path[160], cmd[400];
	int ret;

	tmp_path(path, sizeof(path), "page.prom");
	if (put_text(path, text))
		return -1;
	snprintf(cmd, sizeof(cmd), "promtool check metrics < %s 2>&1", path);
	ret = run(cmd, out, len);
	unlink(path);
	return ret;
}

static void exp_empty_sysfs(char *dir, size_t len)
{
	char cmd[800];

	tmp_path(dir, len, "export-sysfs");
	snprintf(cmd, sizeof(cmd), "rm -rf %s && mkdir -p %s", dir, dir);
	if (system(cmd))
		dir[0] = '\0';
}

/*
 * The page of counts given by hand: a G84 counting main.1 (graph_idle
 * 300000 of 1000000 cycles: 70% busy; zcull_00 given with -e), 2.5 s
 * enabled and 2 s running (perf multiplexed it), the driver's counts;
 * an NV40 gone a moment ago (nvpc_gpu_up 0, state gone, no other
 * series); a GT215 whose events were refused (up 0, state refused);
 * a chip name that needs quoting; every series with the GPU's bus id
 * beside its PMU. Exactly this text, and promtool takes it.
 */
TEST(export_page_of_given_counts)
{
	static struct nvpc_exp_gpu g84, nv40, gt215;
	const struct nvpc_exp_gpu *gpus[] = { &g84, &nv40, &gt215 };
	char *page = NULL, out[4096];
	size_t len = 0;
	FILE *o = open_memstream(&page, &len);
	struct nvpc_live_group *d = &g84.lg.grp[0];
	static const char want[] =
"# HELP nvpc_gpus GPUs (nvpcounter PMUs) whose counters nvpc export reads.\n"
"# TYPE nvpc_gpus gauge\n"
"nvpc_gpus 1\n"
"# HELP nvpc_gpu_up 1 while the GPU's counters are read; 0 while its events are refused, and for a while after it went away (its other series end then).\n"
"# TYPE nvpc_gpu_up gauge\n"
"nvpc_gpu_up{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84 \\\"x\\\"\\\\\"} 1\n"
"nvpc_gpu_up{gpu=\"nvpcounter_1\",bus=\"0000:02:00.0\",chip=\"NV40\"} 0\n"
"nvpc_gpu_up{gpu=\"nvpcounter_2\",bus=\"sim.2\",chip=\"GT215\"} 0\n"
"# HELP nvpc_gpu_state The GPU's state, 1 for the one it is in: counting, refused (its events would not open; tried again at each look for GPUs) or gone.\n"
"# TYPE nvpc_gpu_state gauge\n"
"nvpc_gpu_state{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84 \\\"x\\\"\\\\\",state=\"counting\"} 1\n"
"nvpc_gpu_state{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84 \\\"x\\\"\\\\\",state=\"refused\"} 0\n"
"nvpc_gpu_state{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84 \\\"x\\\"\\\\\",state=\"gone\"} 0\n"
"nvpc_gpu_state{gpu=\"nvpcounter_1\",bus=\"0000:02:00.0\",chip=\"NV40\",state=\"counting\"} 0\n"
"nvpc_gpu_state{gpu=\"nvpcounter_1\",bus=\"0000:02:00.0\",chip=\"NV40\",state=\"refused\"} 0\n"
"nvpc_gpu_state{gpu=\"nvpcounter_1\",bus=\"0000:02:00.0\",chip=\"NV40\",state=\"gone\"} 1\n"
"nvpc_gpu_state{gpu=\"nvpcounter_2\",bus=\"sim.2\",chip=\"GT215\",state=\"counting\"} 0\n"
"nvpc_gpu_state{gpu=\"nvpcounter_2\",bus=\"sim.2\",chip=\"GT215\",state=\"refused\"} 1\n"
"nvpc_gpu_state{gpu=\"nvpcounter_2\",bus=\"sim.2\",chip=\"GT215\",state=\"gone\"} 0\n"
"# HELP nvpc_gpu_info The GPU's PMU, bus id (the PMU's identifier) and chip; always 1.\n"
"# TYPE nvpc_gpu_info gauge\n"
"nvpc_gpu_info{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84 \\\"x\\\"\\\\\"} 1\n"
"# HELP nvpc_domain_cycles_total Cycles of the domain's clock counted (rate() is the clock in Hz while its group runs).\n"
"# TYPE nvpc_domain_cycles_total counter\n"
"nvpc_domain_cycles_total{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84 \\\"x\\\"\\\\\",domain=\"main.1\"} 1000000\n"
"# HELP nvpc_signal_cycles_total Cycles of the domain's clock the signal was at 1, counted in one perf group with nvpc_domain_cycles_total (busy = 1 - the ratio of their rates, for an engine's idle signal).\n"
"# TYPE nvpc_signal_cycles_total counter\n"
"nvpc_signal_cycles_total{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84 \\\"x\\\"\\\\\",domain=\"main.1\",signal=\"graph_idle\",engine=\"graph\"} 300000\n"
"nvpc_signal_cycles_total{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84 \\\"x\\\"\\\\\",domain=\"main.1\",signal=\"zcull_00\"} 18446744073709551615\n"
"# HELP nvpc_domain_enabled_seconds_total Time the domain's perf group was enabled (perf's time_enabled).\n"
"# TYPE nvpc_domain_enabled_seconds_total counter\n"
"nvpc_domain_enabled_seconds_total{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84 \\\"x\\\"\\\\\",domain=\"main.1\"} 2.500000001\n"
"# HELP nvpc_domain_running_seconds_total Time the domain's perf group counted (perf's time_running; below enabled when perf multiplexed it).\n"
"# TYPE nvpc_domain_running_seconds_total counter\n"
"nvpc_domain_running_seconds_total{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84 \\\"x\\\"\\\\\",domain=\"main.1\"} 2.000000000\n"
"# HELP nvpc_domain_lost_periods_total Swaps of the domain that found QUAD_STATE in OVERFLOW: a period's counts were lost (the driver's, since the GPU was registered).\n"
"# TYPE nvpc_domain_lost_periods_total counter\n"
"nvpc_domain_lost_periods_total{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84 \\\"x\\\"\\\\\",domain=\"main.1\"} 3\n"
"# HELP nvpc_domain_samples_total Periods of the domain the driver read (since the GPU was registered).\n"
"# TYPE nvpc_domain_samples_total counter\n"
"nvpc_domain_samples_total{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84 \\\"x\\\"\\\\\",domain=\"main.1\"} 500\n"
"# HELP nvpc_reads_deferred_total Event reads of the GPU that found their CPU inside the driver's lock or in NMI and read no register (the next read collected the rest).\n"
"# TYPE nvpc_reads_deferred_total counter\n"
"nvpc_reads_deferred_total{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84 \\\"x\\\"\\\\\"} 7\n";

	strcpy(g84.lg.g.pmu, "nvpcounter");
	strcpy(g84.lg.g.chip, "G84 \"x\"\\");
	strcpy(g84.lg.g.bus, "sim.0");
	g84.up = true;
	g84.have_deferred = true;
	g84.reads_deferred = 7;
	g84.lg.nr = 1;
	strcpy(d->name, "main.1");
	d->nr = 2;
	strcpy(d->sig[0].name, "graph_idle");
	strcpy(d->sig[0].engine, "graph");
	d->sig[0].count = 300000;
	strcpy(d->sig[1].name, "zcull_00");
	d->sig[1].count = UINT64_MAX;
	d->cycles = 1000000;
	d->enabled_ns = 2500000001ULL;
	d->running_ns = 2000000000ULL;
	g84.loss[0].have[NVPC_EXP_LOST_PERIODS] = true;
	g84.loss[0].v[NVPC_EXP_LOST_PERIODS] = 3;
	g84.loss[0].have[NVPC_EXP_SAMPLES] = true;
	g84.loss[0].v[NVPC_EXP_SAMPLES] = 500;
	strcpy(nv40.lg.g.pmu, "nvpcounter_1");
	strcpy(nv40.lg.g.chip, "NV40");
	strcpy(nv40.lg.g.bus, "0000:02:00.0");
	nv40.lg.nr = 1;
	strcpy(nv40.lg.grp[0].name, "main.0");
	nv40.lg.grp[0].cycles = 42;
	strcpy(gt215.lg.g.pmu, "nvpcounter_2");
	strcpy(gt215.lg.g.chip, "GT215");
	strcpy(gt215.lg.g.bus, "sim.2");
	gt215.refused = true;

	ASSERT_NE(NULL, o);
	EXPECT_EQ(0, nvpc_export_page(o, gpus, 3));
	fclose(o);
	EXPECT_STREQ(want, page);
	ASSERT_TRUE(have("promtool")) TH_LOG("promtool is missing: make deps installs Debian's prometheus package");
	EXPECT_EQ(0, exp_promtool(page, out, sizeof(out))) TH_LOG("%s", out);
	free(page);

	/* no GPU at all: nvpc_gpus 0 and nothing else */
	page = NULL;
	o = open_memstream(&page, &len);
	ASSERT_NE(NULL, o);
	EXPECT_EQ(0, nvpc_export_page(o, gpus, 0));
	fclose(o);
	EXPECT_STREQ("# HELP nvpc_gpus GPUs (nvpcounter PMUs) whose counters nvpc export reads.\n# TYPE nvpc_gpus gauge\nnvpc_gpus 0\n",
		     page);
	free(page);
}

/*
 * No PMU: the exporter serves nvpc_gpus 0 with the classic text
 * format's content type, promtool takes the page, HEAD has the headers
 * alone, / points to /metrics; SIGTERM ends it with 0
 */
TEST(export_serves_without_gpu)
{
	char sysfs[160], err[200], resp[8192], out[4096];
	int port = exp_free_port();
	pid_t pid;

	exp_empty_sysfs(sysfs, sizeof(sysfs));
	tmp_path(err, sizeof(err), "export.err");
	ASSERT_LT(0, port);
	snprintf(out, sizeof(out), "--listen 127.0.0.1:%d", port);
	pid = exp_start(sysfs, out, err, port);
	ASSERT_LT(0, exp_get(port, "/metrics", resp, sizeof(resp)));
	EXPECT_EQ(200, exp_status(resp));
	EXPECT_NE(NULL, strstr(resp, "\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n")) TH_LOG("%s", resp);
	EXPECT_NE(NULL, strstr(exp_body(resp), "\n# TYPE nvpc_gpus gauge\nnvpc_gpus 0\n")) TH_LOG("%s", resp);
	ASSERT_TRUE(have("promtool")) TH_LOG("promtool is missing: make deps installs Debian's prometheus package");
	EXPECT_EQ(0, exp_promtool(exp_body(resp), out, sizeof(out))) TH_LOG("%s", out);
	snprintf(out, sizeof(out), "HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
	EXPECT_LT(0, exp_http(port, out, strlen(out), resp, sizeof(resp)));
	EXPECT_EQ(200, exp_status(resp));
	EXPECT_STREQ("", exp_body(resp));
	EXPECT_LT(0, exp_get(port, "/", resp, sizeof(resp)));
	EXPECT_EQ(200, exp_status(resp));
	EXPECT_NE(NULL, strstr(exp_body(resp), "/metrics"));
	EXPECT_EQ(0, exp_stop(pid, SIGTERM, 5));
	EXPECT_LT(0, slurp(err, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "no GPU counts yet")) TH_LOG("%s", out);
	/* SIGINT too */
	pid = exp_start(sysfs, "--listen 127.0.0.1:0x1", err, 0);
	EXPECT_EQ(2, exp_stop(pid, 0, 5));
	snprintf(out, sizeof(out), "--listen 127.0.0.1:%d", port);
	pid = exp_start(sysfs, out, err, port);
	EXPECT_EQ(0, exp_stop(pid, SIGINT, 5));
	unlink(err);
	rmdir(sysfs);
}

/*
 * Hostile clients: garbage, a POST, a PUT, a body on a GET, a header
 * bigger than a connection's memory, an unknown path each get an HTTP
 * error or are cut; a client that sends half a request and stalls is
 * cut after --timeout while another client's scrape succeeds at once;
 * the exporter lives on
 */
TEST(export_hostile_clients)
{
	char sysfs[160], err[200], resp[8192], args[128];
	static char big[40000];
	int port = exp_free_port(), stall;
	double t0;
	pid_t pid;
	long n;

	exp_empty_sysfs(sysfs, sizeof(sysfs));
	tmp_path(err, sizeof(err), "export-hostile.err");
	snprintf(args, sizeof(args), "--listen 127.0.0.1:%d --timeout 1", port);
	pid = exp_start(sysfs, args, err, port);

	n = exp_http(port, "\x00\xff\x16\x03 garbage\r\n\r\n", 18, resp, sizeof(resp));
	EXPECT_TRUE(n == 0 || exp_status(resp) == 400) TH_LOG("%s", resp);
	n = exp_http(port, "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", 61, resp, sizeof(resp));
	EXPECT_EQ(405, exp_status(resp)) TH_LOG("%s", resp);
	EXPECT_NE(NULL, strstr(resp, "\r\nAllow: GET, HEAD\r\n"));
	snprintf(args, sizeof(args), "PUT /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
	exp_http(port, args, strlen(args), resp, sizeof(resp));
	EXPECT_EQ(405, exp_status(resp)) TH_LOG("%s", resp);
	snprintf(args, sizeof(args), "GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
	exp_http(port, args, strlen(args), resp, sizeof(resp));
	EXPECT_EQ(413, exp_status(resp)) TH_LOG("%s", resp);
	snprintf(args, sizeof(args), "GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
	exp_http(port, args, strlen(args), resp, sizeof(resp));
	EXPECT_EQ(413, exp_status(resp)) TH_LOG("%s", resp);
	n = snprintf(big, sizeof(big), "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: ");
	memset(big + n, 'a', sizeof(big) - n - 5);
	memcpy(big + sizeof(big) - 5, "\r\n\r\n", 5);
	exp_http(port, big, sizeof(big) - 1, resp, sizeof(resp));
	EXPECT_EQ(431, exp_status(resp)) TH_LOG("%s", resp);
	exp_get(port, "/nope", resp, sizeof(resp));
	EXPECT_EQ(404, exp_status(resp));
	exp_get(port, "/metrics?x=1", resp, sizeof(resp));
	EXPECT_EQ(200, exp_status(resp)) TH_LOG("%s", resp);

	/* half a request, then nothing: cut after about 1 s */
	stall = exp_connect(port, 10);
	ASSERT_LE(0, stall);
	EXPECT_EQ(9, send(stall, "GET /metr", 9, 0));
	t0 = exp_now();
	ASSERT_LT(0, exp_get(port, "/metrics", resp, sizeof(resp)));
	EXPECT_EQ(200, exp_status(resp));
	EXPECT_GT(0.5, exp_now() - t0) TH_LOG("a scrape took %.2f s beside a stalled client", exp_now() - t0);
	n = exp_recv_all(stall, resp, sizeof(resp));
	EXPECT_GT(4.0, exp_now() - t0) TH_LOG("the stalled client was cut after %.2f s", exp_now() - t0);
	EXPECT_GT(2, exp_status(resp) / 200) TH_LOG("%s", resp);
	close(stall);
	/* a client gone mid-request and one that never reads */
	stall = exp_connect(port, 1);
	EXPECT_EQ(0, nvpc_write_all_test(stall, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 35));
	close(stall);

	ASSERT_LT(0, exp_get(port, "/metrics", resp, sizeof(resp)));
	EXPECT_EQ(200, exp_status(resp));
	EXPECT_EQ(0, exp_stop(pid, SIGTERM, 5));
	unlink(err);
	rmdir(sysfs);
}

/* n requests on one connection, in one write: the 200 answers */
static int exp_keepalive(int port, int n, char *resp, size_t len)
{
	static char reqs[100 * 64];
	const char *p;
	size_t rl = 0;
	int fd = exp_connect(port, 10), ok = 0;

	if (fd < 0)
		return -1;
	for (int i = 0; i < n && i < 100; i++)
		rl += snprintf(reqs + rl, sizeof(reqs) - rl,
			       "GET /metrics HTTP/1.1\r\nHost: x\r\n%s\r\n",
			       i == n - 1 ? "Connection: close\r\n" : "");
	if (!nvpc_write_all_test(fd, reqs, rl))
		exp_recv_all(fd, resp, len);
	for (p = resp; (p = strstr(p, "HTTP/1.1 200 OK\r\n")); p++)
		ok++;
	close(fd);
	return ok;
}

/*
 * A flood: 200 scrapes one after another on new connections, 100 on one
 * kept-alive connection, and 32 clients at once; every one a 200 with
 * the page
 */
TEST(export_scrape_burst)
{
	char sysfs[160], err[200], args[128];
	static char resp[65536];
	int port = exp_free_port(), ok = 0, fds[32];
	pid_t pid;

	exp_empty_sysfs(sysfs, sizeof(sysfs));
	tmp_path(err, sizeof(err), "export-burst.err");
	snprintf(args, sizeof(args), "--listen 127.0.0.1:%d", port);
	pid = exp_start(sysfs, args, err, port);
	for (int i = 0; i < 200; i++)
		if (exp_get(port, "/metrics", resp, sizeof(resp)) > 0 &&
		    exp_status(resp) == 200 && strstr(resp, "nvpc_gpus 0\n"))
			ok++;
	EXPECT_EQ(200, ok);

	EXPECT_EQ(100, exp_keepalive(port, 100, resp, sizeof(resp)));

	ok = 0;
	for (int i = 0; i < 32; i++) {
		fds[i] = exp_connect(port, 10);
		if (fds[i] >= 0)
			nvpc_write_all_test(fds[i], "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 54);
	}
	for (int i = 0; i < 32; i++) {
		if (fds[i] < 0)
			continue;
		if (exp_recv_all(fds[i], resp, sizeof(resp)) > 0 &&
		    exp_status(resp) == 200)
			ok++;
		close(fds[i]);
	}
	EXPECT_EQ(32, ok);
	EXPECT_EQ(0, exp_stop(pid, SIGTERM, 5));
	unlink(err);
	rmdir(sysfs);
}

/*
 * --listen's errors: not ADDR:PORT, a port out of range, a name that
 * resolves to nothing are bad arguments (2); an address of no interface
 * and a port in use cannot be bound (1); each says why
 */
TEST(export_listen_errors)
{
	static const struct { const char *arg; int status; const char *msg; } bad[] = {
		{ "127.0.0.1", 2, "ADDR:PORT" },
		{ "127.0.0.1:", 2, "the port is a number 1..65535" },
		{ "127.0.0.1:0", 2, "the port is a number 1..65535" },
		{ "127.0.0.1:65536", 2, "the port is a number 1..65535" },
		{ "127.0.0.1:90x", 2, "the port is a number 1..65535" },
		{ "127.0.0.1:-5", 2, "the port is a number 1..65535" },
		{ "[::1:9089", 2, "[ADDR]:PORT" },
		{ "no.such.host.invalid:9089", 2, "--listen no.such.host.invalid:9089" },
		{ "192.0.2.1:9089", 1, "no interface of this host has that address" },
	};
	char sysfs[160], cmd[512], out[4096];
	int fd, port;

	exp_empty_sysfs(sysfs, sizeof(sysfs));
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=%s timeout 10 %s export --listen '%s' 2>&1",
			 sysfs, bin(), bad[i].arg);
		EXPECT_EQ(bad[i].status, run(cmd, out, sizeof(out))) TH_LOG("%s: %s", bad[i].arg, out);
		EXPECT_NE(NULL, strstr(out, bad[i].msg)) TH_LOG("%s: %s", bad[i].arg, out);
	}
	/* a port someone listens on */
	{
		struct sockaddr_in a = { .sin_family = AF_INET };
		socklen_t len = sizeof(a);

		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		fd = socket(AF_INET, SOCK_STREAM, 0);
		ASSERT_EQ(0, bind(fd, (struct sockaddr *)&a, sizeof(a)));
		ASSERT_EQ(0, listen(fd, 1));
		getsockname(fd, (struct sockaddr *)&a, &len);
		port = ntohs(a.sin_port);
	}
	snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=%s timeout 10 %s export --listen 127.0.0.1:%d 2>&1",
		 sysfs, bin(), port);
	EXPECT_EQ(1, run(cmd, out, sizeof(out))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "Address already in use")) TH_LOG("%s", out);
	close(fd);
	/* the other arguments */
	snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=%s timeout 10 %s export -I 100 2>&1",
		 sysfs, bin());
	EXPECT_EQ(2, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "--textfile's interval")) TH_LOG("%s", out);
	snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=%s timeout 10 %s export -e 'graph_idle,../x' 2>&1",
		 sysfs, bin());
	EXPECT_EQ(2, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "is not an event name")) TH_LOG("%s", out);
	snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=%s timeout 10 %s export --timeout 0 2>&1",
		 sysfs, bin());
	EXPECT_EQ(2, run(cmd, out, sizeof(out)));
	snprintf(cmd, sizeof(cmd), "NVPC_SYSFS=%s timeout 10 %s export --textfile %s/none 2>&1",
		 sysfs, bin(), sysfs);
	EXPECT_EQ(1, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "No such file or directory")) TH_LOG("%s", out);
	snprintf(cmd, sizeof(cmd), "%s --help", bin());
	EXPECT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "  export "));
	rmdir(sysfs);
}

/*
 * --textfile alone: DIR/nvpcounter.prom every interval, replaced whole
 * (a reader between the writes sees a new inode, never a part), no
 * temporary file left, promtool takes it, and no HTTP port is opened;
 * SIGTERM ends it with 0
 */
TEST(export_textfile)
{
	char sysfs[160], dir[160], err[200], args[300], path[300], cmd[800];
	static char text[8192], out[4096];
	struct stat st;
	ino_t first = 0;
	int whole = 0, inodes = 0;
	pid_t pid;

	exp_empty_sysfs(sysfs, sizeof(sysfs));
	tmp_path(dir, sizeof(dir), "textfile");
	snprintf(cmd, sizeof(cmd), "rm -rf %s && mkdir -p %s", dir, dir);
	ASSERT_EQ(0, system(cmd));
	tmp_path(err, sizeof(err), "export-textfile.err");
	snprintf(path, sizeof(path), "%s/nvpcounter.prom", dir);
	snprintf(args, sizeof(args), "--textfile %s -I 20", dir);
	pid = exp_start(sysfs, args, err, 0);
	for (double t0 = exp_now(); exp_now() - t0 < 5 && stat(path, &st); )
		usleep(10000);
	for (int i = 0; i < 200; i++) {
		if (!stat(path, &st)) {
			if (!first)
				first = st.st_ino;
			inodes += st.st_ino != first;
		}
		if (slurp(path, text, sizeof(text)) > 0 &&
		    !strncmp(text, "# HELP nvpc_gpus ", 17) &&
		    strstr(text, "\nnvpc_gpus 0\n"))
			whole++;
		usleep(2000);
	}
	EXPECT_EQ(200, whole);
	EXPECT_LT(0, inodes);
	EXPECT_EQ(0400 | 0200 | 040 | 04, st.st_mode & 0777);
	ASSERT_TRUE(have("promtool")) TH_LOG("promtool is missing: make deps installs Debian's prometheus package");
	EXPECT_EQ(0, exp_promtool(text, out, sizeof(out))) TH_LOG("%s", out);
	snprintf(cmd, sizeof(cmd), "ss -ltnp 2>/dev/null | grep -c 'pid=%d,' || true", (int)pid);
	if (have("ss")) {
		EXPECT_EQ(0, run(cmd, out, sizeof(out)));
		EXPECT_STREQ("0\n", out);
	}
	EXPECT_EQ(0, exp_stop(pid, SIGTERM, 5));
	snprintf(cmd, sizeof(cmd), "ls -A %s", dir);
	EXPECT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_STREQ("nvpcounter.prom\n", out);
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s %s", dir, sysfs, err);
	EXPECT_EQ(0, system(cmd));
}

/*
 * A PMU whose events will not open (the fake sysfs's type is no
 * kernel's: ENOENT): said once, not counted, the exporter serves
 * nvpc_gpus 0 and lives on, and the page says it (nvpc_gpu_up 0, state
 * refused), for one there at the start and one that came after; a PMU
 * without its device link (a GPU gone while others' events hold its
 * PMU) is not even tried
 */
TEST(export_unopenable_gpu)
{
	char root[160], err[200], args[128], cmd[800];
	static char resp[8192], out[4096];
	int port = exp_free_port();
	pid_t pid;

	fake_sysfs(root, sizeof(root));
	snprintf(cmd, sizeof(cmd), "cp -r %s/nvpcounter %s/nvpcounter_1 && ln -s /nonexistent %s/nvpcounter/device",
		 root, root, root);
	ASSERT_EQ(0, system(cmd));
	tmp_path(err, sizeof(err), "export-unopenable.err");
	snprintf(args, sizeof(args), "--listen 127.0.0.1:%d", port);
	pid = exp_start(root, args, err, port);
	for (int i = 0; i < 3; i++) {
		ASSERT_LT(0, exp_get(port, "/metrics", resp, sizeof(resp)));
		EXPECT_EQ(200, exp_status(resp));
		EXPECT_NE(NULL, strstr(exp_body(resp), "\nnvpc_gpus 0\n")) TH_LOG("%s", resp);
		EXPECT_NE(NULL, strstr(exp_body(resp), "\nnvpc_gpu_up{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84\"} 0\n")) TH_LOG("%s", resp);
		EXPECT_NE(NULL, strstr(exp_body(resp), "\nnvpc_gpu_state{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84\",state=\"refused\"} 1\n")) TH_LOG("%s", resp);
		EXPECT_EQ(NULL, strstr(exp_body(resp), "gpu=\"nvpcounter_1\"")) TH_LOG("%s", resp);
		usleep(600000);
	}
	/* one more, after the start: on the page at the next look */
	snprintf(cmd, sizeof(cmd), "cp -r %s/nvpcounter %s/nvpcounter_2 && echo 'G84 sim.2' > %s/nvpcounter_2/identifier",
		 root, root, root);
	ASSERT_EQ(0, system(cmd));
	usleep(1100000);
	ASSERT_LT(0, exp_get(port, "/metrics", resp, sizeof(resp)));
	EXPECT_NE(NULL, strstr(exp_body(resp), "\nnvpc_gpu_state{gpu=\"nvpcounter_2\",bus=\"sim.2\",chip=\"G84\",state=\"refused\"} 1\n")) TH_LOG("%s", resp);
	EXPECT_NE(NULL, strstr(exp_body(resp), "\nnvpc_gpu_state{gpu=\"nvpcounter\",bus=\"sim.0\",chip=\"G84\",state=\"refused\"} 1\n")) TH_LOG("%s", resp);
	EXPECT_EQ(0, exp_stop(pid, SIGTERM, 5));
	EXPECT_LT(0, slurp(err, out, sizeof(out)));
	/* main.1 (graph_idle's): said at the start, not at each rescan */
	snprintf(cmd, sizeof(cmd), "grep -c 'nvpcounter (G84 sim.0) main.1: perf_event_open: No such file or directory' %s", err);
	EXPECT_EQ(0, run(cmd, out, sizeof(out)));
	EXPECT_STREQ("1\n", out);
	snprintf(cmd, sizeof(cmd), "grep -c nvpcounter_1 %s", err);
	run(cmd, out, sizeof(out));
	EXPECT_STREQ("0\n", out);
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", root, err);
	EXPECT_EQ(0, system(cmd));
}

/* a connection from src (127.0.0.x) to 127.0.0.1:port; -1 refused */
static int exp_connect_from(const char *src, int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	inet_pton(AF_INET, src, &a.sin_addr);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons(port);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * n clients from 127.0.0.2, each sending a byte of a request every
 * 0.5 s for at most secs (never a whole request); a byte on ready once
 * all are connected. The exit status: how many the exporter cut (or
 * never took) before the end.
 */
static void exp_tricklers(int port, int n, double secs, int ready)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	int fd[128], cut = 0, sent = 0;
	double t0;

	for (int i = 0; i < n; i++) {
		fd[i] = exp_connect_from("127.0.0.2", port);
		if (fd[i] < 0)
			cut++;	/* refused at once */
	}
	if (write(ready, "r", 1) != 1)
		_exit(255);
	for (t0 = exp_now(); cut < n && exp_now() - t0 < secs; usleep(500000)) {
		for (int i = 0; i < n; i++) {
			char c;
			ssize_t r;

			if (fd[i] < 0)
				continue;
			r = recv(fd[i], &c, 1, MSG_DONTWAIT);
			if (r == 0 || (r < 0 && errno != EAGAIN) ||
			    send(fd[i], req + sent % (sizeof(req) - 1), 1,
				 MSG_NOSIGNAL | MSG_DONTWAIT) != 1) {
				close(fd[i]);
				fd[i] = -1;
				cut++;
			}
		}
		sent++;
	}
	_exit(cut);
}

/*
 * Slow clients (issue 40 item 2): 70 clients from 127.0.0.2 that each
 * trickle a request a byte every 0.5 s hold no more than the exporter's
 * per-address limit, and each is cut --timeout (2 s) after it connected
 * however it trickles (libmicrohttpd's own timeout is an idle one): all
 * are cut before they would stop (14 s, longer than the scrape may
 * take), and meanwhile a scrape from 127.0.0.1 gets its page within
 * Prometheus' default scrape timeout (10 s, the connection's receive
 * bound)
 */
TEST(export_trickling_clients)
{
	char sysfs[160], err[200], args[128];
	static char resp[65536];
	int port = exp_free_port(), pipefd[2], st;
	struct pollfd pfd;
	pid_t pid, kid;
	char c;

	exp_empty_sysfs(sysfs, sizeof(sysfs));
	tmp_path(err, sizeof(err), "export-trickle.err");
	snprintf(args, sizeof(args), "--listen 127.0.0.1:%d --timeout 2", port);
	pid = exp_start(sysfs, args, err, port);
	ASSERT_EQ(0, pipe(pipefd));
	fflush(NULL);
	kid = fork();
	if (!kid) {
		close(pipefd[0]);
		exp_tricklers(port, 70, 14, pipefd[1]);
	}
	close(pipefd[1]);
	pfd.fd = pipefd[0];
	pfd.events = POLLIN;
	EXPECT_EQ(1, poll(&pfd, 1, 10000));
	EXPECT_EQ(1, read(pipefd[0], &c, 1));
	close(pipefd[0]);
	usleep(500000);
	EXPECT_LT(0, exp_get(port, "/metrics", resp, sizeof(resp)));
	EXPECT_EQ(200, exp_status(resp)) TH_LOG("a scrape beside 70 trickling clients: %.200s", resp);
	EXPECT_NE(NULL, strstr(exp_body(resp), "\nnvpc_gpus 0\n"));
	ASSERT_EQ(kid, waitpid(kid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st));
	EXPECT_EQ(70, WEXITSTATUS(st)) TH_LOG("trickling clients cut before they stopped");
	/* and the exporter takes scrapes from that address again */
	EXPECT_EQ(1, exp_keepalive(port, 1, resp, sizeof(resp)));
	EXPECT_EQ(0, exp_stop(pid, SIGTERM, 5));
	/*
	 * the clients it held (its per-address limit) cut, and said (the
	 * first tick's count: their deadlines may fall in two ticks)
	 */
	EXPECT_LT(0, slurp(err, resp, sizeof(resp)));
	EXPECT_NE(NULL, strstr(resp, "export: http: cut ")) TH_LOG("%s", resp);
	EXPECT_NE(NULL, strstr(resp, " that sent no whole request in 2 s (")) TH_LOG("%s", resp);
	unlink(err);
	rmdir(sysfs);
}

/*
 * Two Content-Length fields of different values (or a list of them, or
 * one that is not a number) make the framing invalid: 400 (RFC 9112
 * 6.3), never the page; the same length twice is one
 */
TEST(export_content_length_twice)
{
	static const struct { const char *hdrs; int status; } req[] = {
		{ "Content-Length: 0\r\nContent-Length: 5\r\n", 400 },
		{ "Content-Length: 5\r\nContent-Length: 0\r\n", 400 },
		{ "Content-Length: 0, 5\r\n", 400 },
		{ "Content-Length: 0x0\r\n", 400 },
		{ "Content-Length: 0 5\r\n", 400 },
		{ "Content-Length: 0\r\nContent-Length: 0\r\n", 200 },
		{ "Content-Length: 0\r\n", 200 },
	};
	char sysfs[160], err[200], args[256];
	static char resp[65536];
	int port = exp_free_port();
	pid_t pid;

	exp_empty_sysfs(sysfs, sizeof(sysfs));
	tmp_path(err, sizeof(err), "export-cl.err");
	snprintf(args, sizeof(args), "--listen 127.0.0.1:%d", port);
	pid = exp_start(sysfs, args, err, port);
	for (unsigned int i = 0; i < sizeof(req) / sizeof(req[0]); i++) {
		snprintf(args, sizeof(args),
			 "GET /metrics HTTP/1.1\r\nHost: x\r\n%sConnection: close\r\n\r\n%s",
			 req[i].hdrs, req[i].status == 400 ? "hello" : "");
		exp_http(port, args, strlen(args), resp, sizeof(resp));
		EXPECT_EQ(req[i].status, exp_status(resp)) TH_LOG("%s: %.300s", req[i].hdrs, resp);
	}
	EXPECT_EQ(0, exp_stop(pid, SIGTERM, 5));
	unlink(err);
	rmdir(sysfs);
}

/* the URL the exporter logs is one a reader can paste */
TEST(export_url_to_paste)
{
	static const struct { const char *listen, *host, *url; } u[] = {
		{ ":9089", "gpuhost", "http://gpuhost:9089/metrics" },
		{ ":9089", NULL, "http://127.0.0.1:9089/metrics" },
		{ "*:9089", "", "http://127.0.0.1:9089/metrics" },
		{ "0.0.0.0:9089", "gpuhost", "http://gpuhost:9089/metrics" },
		{ "[::]:9089", "gpuhost", "http://gpuhost:9089/metrics" },
		{ "127.0.0.1:9089", "gpuhost", "http://127.0.0.1:9089/metrics" },
		{ "[::1]:9089", "gpuhost", "http://[::1]:9089/metrics" },
		{ "localhost:9089", "gpuhost", "http://localhost:9089/metrics" },
	};
	char url[300], sysfs[160], err[200], cmd[800], out[4096];
	int port = exp_free_port();

	for (unsigned int i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		nvpc_export_url(url, sizeof(url), u[i].listen, u[i].host);
		EXPECT_STREQ(u[i].url, url) TH_LOG("--listen %s", u[i].listen);
	}
	/* the tool, on every address of a network namespace of its own */
	ASSERT_TRUE(have("unshare")) TH_LOG("unshare (util-linux) is missing");
	exp_empty_sysfs(sysfs, sizeof(sysfs));
	tmp_path(err, sizeof(err), "export-url.err");
	snprintf(cmd, sizeof(cmd),
		 "NVPC_SYSFS=%s timeout -s TERM 2 unshare -rn %s export --listen :%d 2>%s; cat %s",
		 sysfs, bin(), port, err, err);
	run(cmd, out, sizeof(out));
	snprintf(url, sizeof(url), ":%d/metrics (every address; on this host http://127.0.0.1:%d/metrics)", port, port);
	EXPECT_NE(NULL, strstr(out, url)) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "http://:")) TH_LOG("%s", out);
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", sysfs, err);
	EXPECT_EQ(0, system(cmd));
}

/*
 * -g with a name no PMU has: said, with the PMUs -g leaves out; the
 * exporter serves on (the GPU may come)
 */
TEST(export_gpu_typo)
{
	char root[160], err[200], args[128], cmd[800];
	static char out[4096];
	int port = exp_free_port();
	pid_t pid;

	fake_sysfs(root, sizeof(root));
	tmp_path(err, sizeof(err), "export-typo.err");
	snprintf(args, sizeof(args), "--listen 127.0.0.1:%d -g nvpcountr", port);
	pid = exp_start(root, args, err, port);
	EXPECT_LT(0, exp_get(port, "/metrics", out, sizeof(out)));
	EXPECT_EQ(200, exp_status(out));
	EXPECT_EQ(0, exp_stop(pid, SIGTERM, 5));
	EXPECT_LT(0, slurp(err, out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "-g nvpcountr: no PMU nvpcountr in ")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "nvpcounter PMUs, left out by -g: nvpcounter)")) TH_LOG("%s", out);
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", root, err);
	EXPECT_EQ(0, system(cmd));
}

/*
 * nvpc-export.service does not restart a command line the tool refuses
 * (exit 2, usage) forever: RestartPreventExitStatus= names that status
 */
TEST(export_unit_no_restart_on_usage)
{
	const char *src = getenv("NVPC_SRC");
	char path[600], cmd[800];
	static char text[8192], out[4096];
	const char *l;
	int status;

	ASSERT_NE(NULL, src) TH_LOG("NVPC_SRC (tools/nvpc) not given");
	snprintf(cmd, sizeof(cmd), "%s export --no-such-option 2>&1", bin());
	status = run(cmd, out, sizeof(out));
	EXPECT_EQ(2, status) TH_LOG("%s", out);
	snprintf(path, sizeof(path), "%s/nvpc-export.service", src);
	ASSERT_LT(0, slurp(path, text, sizeof(text)));
	l = strstr(text, "\nRestartPreventExitStatus=");
	ASSERT_NE(NULL, l) TH_LOG("no RestartPreventExitStatus= in %s", path);
	l += strlen("\nRestartPreventExitStatus=");
	snprintf(cmd, sizeof(cmd), "%d", status);
	EXPECT_TRUE(!strncmp(l, cmd, strlen(cmd)) &&
		    (l[strlen(cmd)] == '\n' || l[strlen(cmd)] == ' ')) TH_LOG("%.40s", l);
}

/*
 * --textfile's DIR/nvpcounter.prom follows -o's rules (nvpc.rst "Output
 * files"): a symbolic link there stays, the file it leads to (in
 * another directory) gets the page, no temporary file is left beside
 * either; before, the rename replaced the link
 */
TEST(export_textfile_through_a_link)
{
	char sysfs[160], dir[160], other[160], err[200], args[300];
	char path[300], target[300], cmd[2048];
	static char text[8192];
	pid_t pid;

	exp_empty_sysfs(sysfs, sizeof(sysfs));
	tmp_path(dir, sizeof(dir), "textlink");
	tmp_path(other, sizeof(other), "textlink-target");
	tmp_path(err, sizeof(err), "export-textlink.err");
	snprintf(path, sizeof(path), "%s/nvpcounter.prom", dir);
	snprintf(target, sizeof(target), "%s/gpu.prom", other);
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s && mkdir -p %s %s && echo old > %s && ln -s %s %s",
		 dir, other, dir, other, target, target, path);
	ASSERT_EQ(0, system(cmd));
	snprintf(args, sizeof(args), "--textfile %s -I 20", dir);
	pid = exp_start(sysfs, args, err, 0);
	for (double t0 = exp_now(); exp_now() - t0 < 5; usleep(10000))
		if (slurp(target, text, sizeof(text)) > 0 &&
		    strstr(text, "\nnvpc_gpus 0\n"))
			break;
	usleep(100000);
	EXPECT_EQ(0, exp_stop(pid, SIGTERM, 5));
	EXPECT_TRUE(is_link_to(path, target));
	EXPECT_LT(0, slurp(target, text, sizeof(text)));
	EXPECT_NE(NULL, strstr(text, "\nnvpc_gpus 0\n")) TH_LOG("%.200s", text);
	snprintf(cmd, sizeof(cmd), "ls -A %s %s", dir, other);
	EXPECT_EQ(0, run(cmd, text, sizeof(text)));
	snprintf(cmd, sizeof(cmd), "%s:\nnvpcounter.prom\n\n%s:\ngpu.prom\n",
		 dir, other);
	EXPECT_STREQ(cmd, text);
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s %s %s", dir, other, sysfs, err);
	EXPECT_EQ(0, system(cmd));
}

TEST_HARNESS_MAIN
