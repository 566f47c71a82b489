// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open() for nvpc's commands (nvpc_perf.h): record, top's
 * engines and export open their events and explain a privilege refusal
 * here.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "nvpc_gpu.h"
#include "nvpc_perf.h"
#include "nvpc_util.h"

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"

int nvpc_perf_open(struct perf_event_attr *a, int cpu, int group)
{
	return syscall(__NR_perf_event_open, a, -1, cpu, group,
		       PERF_FLAG_FD_CLOEXEC);
}

int nvpc_perf_paranoid(void)
{
	char buf[32];

	if (nvpc_sysfs_read(PARANOID, buf, sizeof(buf)) <= 0)
		return INT_MIN;
	return atoi(buf);
}

void nvpc_self_exe(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);

	buf[n > 0 ? n : 0] = '\0';
}

void nvpc_perf_privilege(const char *pmu, int err, const char *needs)
{
	char self[PATH_MAX], buf[32] = "";

	nvpc_self_exe(self, sizeof(self));
	nvpc_sysfs_read(PARANOID, buf, sizeof(buf));
	nvpc_err("%s: %s: %s, root, or kernel.perf_event_paranoid of 0 or less (it is %s). Fix one of: sudo setcap cap_perfmon+ep %s; sudo sysctl kernel.perf_event_paranoid=0; run as root",
		 pmu, strerror(err), needs, *buf ? buf : "unreadable", self);
}
