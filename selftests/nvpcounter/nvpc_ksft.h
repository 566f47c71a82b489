/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the nvpcounter kselftests: loading and unloading the
 * modules under test, and small sysfs/debugfs readers.
 *
 * The VM runner puts the modules built for the running kernel in the
 * directory named by $NVPC_MODULE_DIR.
 */
#ifndef NVPC_KSFT_H
#define NVPC_KSFT_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef ARRAY_SIZE	/* kselftest.h's, for a user without the harness */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Load <name>.ko from $NVPC_MODULE_DIR; returns 0 or -errno. */
static inline int nvpc_mod_load(const char *name, const char *params)
{
	const char *dir = getenv("NVPC_MODULE_DIR");
	char path[PATH_MAX];
	int fd, ret;

	if (!dir)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%s.ko", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(__NR_finit_module, fd, params ? params : "", 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

/* Unload a module; returns 0 or -errno. */
static inline int nvpc_mod_unload(const char *name)
{
	return syscall(__NR_delete_module, name, O_NONBLOCK) ? -errno : 0;
}

static inline int nvpc_mod_loaded(const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/module/%s", name);
	return stat(path, &st) == 0;
}

/* Unload the modules in reverse dependency order, ignoring absent ones. */
static inline void nvpc_mod_unload_all(void)
{
	nvpc_mod_unload("nvpcounter_sim");
	nvpc_mod_unload("nvpcounter");
}

/*
 * How much slower than an idle machine the test VM runs now:
 * $NVPC_TIME_SCALE, at least 1 (tools/testing/vm/guest-lib.sh measures it,
 * Documentation/testing.rst "A busy machine"). A bound on a wait for
 * something to happen is multiplied by it, never a duration a test
 * measures.
 */
static inline double nvpc_time_scale(void)
{
	const char *s = getenv("NVPC_TIME_SCALE");
	double f = s ? strtod(s, NULL) : 1.0;

	return f > 1.0 ? f : 1.0;
}

/*
 * kselftest_harness.h bounds each test with alarm(t->timeout) in
 * __wait_for_test() (TEST_TIMEOUT_DEFAULT, 30 s, or TEST_F_TIMEOUT's
 * figure). A test program is one translation unit, so this definition is
 * the alarm() the harness calls: its bound, scaled (rounded up).
 */
unsigned int alarm(unsigned int seconds)
{
	double f = seconds * nvpc_time_scale();

	return syscall(__NR_alarm, (unsigned int)(f + 0.999));
}

static inline int nvpc_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Read a small text file into buf (NUL-terminated); returns length or -errno. */
static inline int nvpc_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	buf[n] = '\0';
	close(fd);
	return n;
}

/*
 * A tracepoint's id ("sched", "sched_waking") from tracefs, mounted at
 * /sys/kernel/tracing if neither place has it; -1 if none.
 */
static inline long nvpc_tracepoint_id(const char *sys, const char *name)
{
	static const char * const roots[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char path[PATH_MAX], buf[32];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		snprintf(path, sizeof(path), "%s/events/%s/%s/id", roots[i],
			 sys, name);
		if (nvpc_read_file(path, buf, sizeof(buf)) > 0)
			return strtol(buf, NULL, 10);
	}
	if (mount("tracefs", roots[0], "tracefs", 0, NULL))
		return -1;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", roots[0], sys, name);
	return nvpc_read_file(path, buf, sizeof(buf)) > 0 ?
	       strtol(buf, NULL, 10) : -1;
}

#endif /* NVPC_KSFT_H */
