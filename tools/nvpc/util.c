// SPDX-License-Identifier: GPL-2.0
/*
 * Messages and small parsers shared by nvpc's commands.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nvpc_util.h"

int nvpc_verbose;
FILE *nvpc_msg_file;
volatile sig_atomic_t nvpc_stop_signal;

static void on_stop_signal(int sig)
{
	nvpc_stop_signal = sig;
}

void nvpc_stop_signals(sigset_t *waitmask)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_stop_signal };
	sigset_t block;
	unsigned int i;

	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		sigaction(sigs[i], &sa, NULL);
		sigaddset(&block, sigs[i]);
	}
	sigprocmask(SIG_BLOCK, &block, waitmask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigdelset(waitmask, sigs[i]);
}

void nvpc_take_signals(const sigset_t *waitmask)
{
	sigset_t cur;

	/* delivered on the return of the first call, to their handlers */
	sigprocmask(SIG_SETMASK, waitmask, &cur);
	sigprocmask(SIG_SETMASK, &cur, NULL);
}

uint64_t nvpc_now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

int nvpc_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -EIO;
		p += n;
		len -= n;
	}
	return 0;
}

void nvpc_err(const char *fmt, ...)
{
	FILE *o = nvpc_msg_file ? nvpc_msg_file : stderr;
	va_list ap;

	fflush(stdout);
	fputs("nvpc: ", o);
	va_start(ap, fmt);
	vfprintf(o, fmt, ap);
	va_end(ap);
	fputc('\n', o);
}

void nvpc_dbg(const char *fmt, ...)
{
	va_list ap;

	if (!nvpc_verbose)
		return;
	fputs("nvpc: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void nvpc_strlcpy(char *dst, const char *src, size_t len)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

int nvpc_format_once(int *seen, int c)
{
	if (*seen && *seen != c) {
		nvpc_err("-%c and -%c both choose the output's format: give one",
			 *seen, c);
		return -1;
	}
	*seen = c;
	return 0;
}

int nvpc_list_append(char **list, const char *item)
{
	char *grown;

	if (!*list) {
		*list = strdup(item);
		return *list ? 0 : -ENOMEM;
	}
	if (asprintf(&grown, "%s,%s", *list, item) < 0)
		return -ENOMEM;
	free(*list);
	*list = grown;
	return 0;
}

int nvpc_parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ?
		      16 : 10);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

pid_t nvpc_fork_pipe(int p[2])
{
	pid_t pid;

	if (pipe2(p, O_CLOEXEC)) {
		nvpc_err("pipe: %s", strerror(errno));
		return -1;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		nvpc_err("fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
	}
	return pid;
}

bool nvpc_in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	if (!list)
		return true;
	for (const char *p = list; p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return true;
	}
	return false;
}
