// SPDX-License-Identifier: GPL-2.0
/*
 * nvpc export's cost (make bench): the exporter started with no PMU
 * ($NVPC_SYSFS an empty directory) on a free port of 127.0.0.1, scraped
 * at 1 Hz and at 100 Hz for $NVPC_BENCH_SECONDS (10) each, a new
 * connection a scrape as a client without keep-alive makes: each
 * scrape's latency (connect to the last byte; median and p99) and the
 * exporter's CPU over the run (utime + stime of /proc/PID/stat). A
 * timing never fails: it is printed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

static double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int bench_port(void)
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

/* one scrape of /metrics: its seconds, or -1 when it failed */
static double bench_scrape(int port)
{
	static const char req[] =
		"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port) };
	struct timeval tv = { .tv_sec = 5 };
	char buf[16384];
	double t0 = bench_now();
	size_t n = 0;
	ssize_t r;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    send(fd, req, sizeof(req) - 1, MSG_NOSIGNAL) != sizeof(req) - 1) {
		close(fd);
		return -1;
	}
	while (n < sizeof(buf) - 1 && (r = recv(fd, buf + n, sizeof(buf) - 1 - n, 0)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	if (strncmp(buf, "HTTP/1.1 200 ", 13) || !strstr(buf, "nvpc_gpus"))
		return -1;
	return bench_now() - t0;
}

/* utime + stime of pid in seconds */
static double bench_cpu(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut = 0, st = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	p = strrchr(buf, ')');	/* the name may hold spaces */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / sysconf(_SC_CLK_TCK);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(void)
{
	const char *bin = getenv("NVPC_BIN");
	const char *secs_env = getenv("NVPC_BENCH_SECONDS");
	const char *tmp = getenv("TMPDIR");
	static const int rates[] = { 1, 100 };
	double secs = secs_env ? atof(secs_env) : 10;
	char sysfs[256], listen[64];
	int port = bench_port(), st;
	pid_t pid;

	if (!bin)
		bin = "nvpc";
	if (secs <= 0)
		secs = 10;
	snprintf(sysfs, sizeof(sysfs), "%s/export-bench-sysfs-%d",
		 tmp ? tmp : "/tmp", (int)getpid());
	if (mkdir(sysfs, 0755) && errno != EEXIST) {
		perror(sysfs);
		return 1;
	}
	snprintf(listen, sizeof(listen), "127.0.0.1:%d", port);
	pid = fork();
	if (!pid) {
		setenv("NVPC_SYSFS", sysfs, 1);
		if (!freopen("/dev/null", "w", stderr))
			_exit(127);
		execl(bin, bin, "export", "--listen", listen, (char *)NULL);
		_exit(127);
	}
	for (double t0 = bench_now(); bench_now() - t0 < 5; usleep(20000))
		if (bench_scrape(port) >= 0)
			break;

	printf("nvpc export, no GPU ($NVPC_SYSFS empty), %.0f s a rate, a new connection a scrape\n",
	       secs);
	printf("%-8s %8s %7s %11s %9s %12s\n", "rate", "scrapes", "failed",
	       "median ms", "p99 ms", "exporter CPU");
	for (unsigned int r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
		unsigned int max = (unsigned int)(secs * rates[r]) + 1, n = 0, bad = 0;
		double *lat = calloc(max, sizeof(*lat));
		double cpu0 = bench_cpu(pid), t0 = bench_now(), cpu1, wall;

		if (!lat)
			break;
		for (unsigned int i = 0; i < max - 1; i++) {
			double next = t0 + (double)(i + 1) / rates[r];
			double l = bench_scrape(port);

			if (l < 0)
				bad++;
			else
				lat[n++] = l;
			while (bench_now() < next)
				usleep((useconds_t)((next - bench_now()) * 1e6) + 1);
		}
		wall = bench_now() - t0;
		cpu1 = bench_cpu(pid);
		qsort(lat, n, sizeof(*lat), cmp_double);
		printf("%-8s %8u %7u %11.3f %9.3f %11.2f%%\n",
		       rates[r] == 1 ? "1 Hz" : "100 Hz", n, bad,
		       n ? lat[n / 2] * 1e3 : 0,
		       n ? lat[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1] * 1e3 : 0,
		       cpu0 >= 0 && cpu1 >= 0 ? 100 * (cpu1 - cpu0) / wall : -1);
		free(lat);
	}
	kill(pid, SIGTERM);
	waitpid(pid, &st, 0);
	printf("the exporter's exit status after SIGTERM: %d\n",
	       WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	rmdir(sysfs);
	return 0;
}
