/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvpc's small helpers (util.c): messages, strings, times, writes and
 * numbers. Every part of the tool may include it; it includes no other
 * header of the tool.
 */
#ifndef NVPC_UTIL_H
#define NVPC_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <time.h>
#include <sys/types.h>

extern int nvpc_verbose;
/* where nvpc_err() writes: NULL for stderr (the host fuzzer's own stream) */
extern FILE *nvpc_msg_file;

/* "nvpc: <message>" on stderr (nvpc_msg_file if set) */
void nvpc_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* the same, only with -v */
void nvpc_dbg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* copy src into dst of len bytes, cut to fit, always NUL-terminated */
void nvpc_strlcpy(char *dst, const char *src, size_t len);

/* *list (malloc()ed or NULL) with ",item" appended: 0 or -ENOMEM */
int nvpc_list_append(char **list, const char *item);

/* @name is an item of the comma list @list (NULL: every name is) */
bool nvpc_in_list(const char *list, const char *name);

/*
 * a command's output format option @c (-J, -c ...) after *@seen, the
 * one given before (0: none): 0, or -1 with a message when another one
 * came before (two formats are bad arguments, not the last one wins)
 */
int nvpc_format_once(int *seen, int c);

/* "-" names stdin or stdout */
static inline bool nvpc_is_stdio(const char *path)
{
	return path[0] == '-' && !path[1];
}

/*
 * pipe2(O_CLOEXEC) into p, stdout flushed, then fork(): the child's 0,
 * the parent's child pid, or -1 with a message (no pipe left open)
 */
pid_t nvpc_fork_pipe(int p[2]);

/* clk's time in nanoseconds */
uint64_t nvpc_now_ns(clockid_t clk);

/* all of len bytes to fd (EINTR retried): 0, or -errno (-EIO: wrote 0) */
int nvpc_write_all(int fd, const void *buf, size_t len);

/* the last of SIGINT, SIGTERM or SIGHUP received, 0 before one */
extern volatile sig_atomic_t nvpc_stop_signal;

/*
 * nvpc_stop_signals() - SIGINT, SIGTERM and SIGHUP set nvpc_stop_signal
 * (top and its engines end on them as on q); they stay blocked but
 * while the caller waits in ppoll() with *waitmask, the mask before
 * less these three, so that a signal never slips in between a check of
 * nvpc_stop_signal and the wait.
 */
void nvpc_stop_signals(sigset_t *waitmask);

/*
 * nvpc_take_signals() - deliver now the signals pending that *waitmask
 * lets through, then block them again. Call it after each ppoll(): one
 * that finds a descriptor ready returns at once and restores the mask
 * without delivering a pending signal (ppoll(2)), so a loop that always
 * has data to read (an output slower than the recording) never saw its
 * SIGTERM: 10 to 60 s of recording more in the VM test.
 */
void nvpc_take_signals(const sigset_t *waitmask);

/* a decimal or 0x number that fills the whole string; 0 or -EINVAL */
int nvpc_parse_u64(const char *s, uint64_t *v);

#endif /* NVPC_UTIL_H */
