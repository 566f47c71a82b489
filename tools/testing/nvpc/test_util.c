// SPDX-License-Identifier: GPL-2.0
/*
 * What the host tests of tools/nvpc share (test_util.h): the tool under
 * test, temporary paths, shell commands, files, and a fake sysfs tree.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

const char *bin(void)
{
	const char *b = getenv("NVPC_BIN");

	return b ? b : "nvpc";
}


void tmp_path(char *buf, size_t len, const char *what)
{
	const char *dir = getenv("TMPDIR");

	snprintf(buf, len, "%s/nvpc-test-%d-%s", dir ? dir : "/tmp",
		 (int)getpid(), what);
}


/* run a shell command, its stdout into out; returns its exit status */
int run(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0;
	int st;

	if (!p)
		return -1;
	if (out) {
		n = fread(out, 1, len - 1, p);
		out[n] = '\0';
	} else {
		char sink[4096];

		while (fread(sink, 1, sizeof(sink), p) > 0)
			;
	}
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}


bool have(const char *prog)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
	return system(cmd) == 0;
}


/* a file's bytes (up to len - 1, NUL-terminated); -1 if it cannot be read */
long slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return n;
}


/* write text to path: 0 or -1 */
int put_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f) ? -1 : 0;
}


void put(const char *root, const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname %s)\"", path);
	if (system(cmd))
		return;
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", text);
		fclose(f);
	}
}


/* a G84 with main.0 and main.1, its PMU type one no kernel has */
void fake_sysfs(char *root, size_t len)
{
	tmp_path(root, len, "sysfs");
	put(root, "nvpcounter/type", "2000000000");
	put(root, "nvpcounter/cpumask", "0");
	put(root, "nvpcounter/identifier", "G84 sim.0");
	put(root, "nvpcounter/domains/main.0/signals", "96");
	put(root, "nvpcounter/domains/main.0/nominal_hz", "100000000");
	put(root, "nvpcounter/domains/main.0/clock", "host");
	put(root, "nvpcounter/domains/main.0/record_aux_max", "0");
	put(root, "nvpcounter/domains/main.1/signals", "256");
	put(root, "nvpcounter/domains/main.1/clock_hz", "0");
	put(root, "nvpcounter/domains/main.1/nominal_hz", "575000000");
	put(root, "nvpcounter/domains/main.1/clock", "graph");
	put(root, "nvpcounter/domains/main.1/record_aux_max", "268435456");
	put(root, "nvpcounter/events/graph_idle", "dset=0,dom=1,sig0=0xbd");
	put(root, "nvpcounter/events/zcull_00", "dset=0,dom=1,sig0=0x07");
	put(root, "nvpcounter/events/ptimer_time_b12", "dset=0,dom=0,sig0=0x2c");
	put(root, "nvpcounter/events/d1_cycles", "dom=1,cycles");
}

/* is path a symbolic link to target? */
bool is_link_to(const char *path, const char *target)
{
	char buf[512];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);

	if (n < 0)
		return false;
	buf[n] = '\0';
	return !strcmp(buf, target);
}

