/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the host tests of tools/nvpc share (test_util.c): nvpc_test and
 * nvpc_export_test link it.
 */
#ifndef NVPC_TEST_UTIL_H
#define NVPC_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>

/* the tool under test: $NVPC_BIN, else nvpc on PATH */
const char *bin(void);
/* $TMPDIR/nvpc-test-<pid>-<what> (TMPDIR default /tmp) */
void tmp_path(char *buf, size_t len, const char *what);
/* a shell command, its stdout into out (may be NULL): its exit status */
int run(const char *cmd, char *out, size_t len);
/* prog is on PATH */
bool have(const char *prog);
/* a file's bytes (up to len - 1, NUL-terminated); -1 if it cannot be read */
long slurp(const char *path, char *buf, size_t len);
/* write text to path: 0 or -1 */
int put_text(const char *path, const char *text);
/* text and a newline into root/rel, its directories made */
void put(const char *root, const char *rel, const char *text);
/* a G84 with main.0 and main.1 under tmp_path("sysfs"), a PMU type no kernel has */
void fake_sysfs(char *root, size_t len);
/* path is a symbolic link whose text is target */
bool is_link_to(const char *path, const char *target);

#endif /* NVPC_TEST_UTIL_H */
