// SPDX-License-Identifier: GPL-2.0
/*
 * Arms and disarms a perf kprobe on vfs_read, on CPU 0, while two
 * threads on CPU 0 call read() at ~1 kHz each. Under QEMU's
 * multi-threaded TCG the 6.1-rt guest oopses within a few hundred
 * rounds ("RIP: 0010:0x0" called from ksys_read, interrupts off) with
 * none of this project's modules loaded: the guest kernel's text
 * patching, not the driver (Documentation/testing.rst "Guest kernels
 * under TCG"). Not part of make check.
 *
 *   cc -O2 -pthread -o tcg-kprobe-repro tcg-kprobe-repro.c
 *   ./tcg-kprobe-repro ROUNDS
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile int stop;

static void *reader(void *arg)
{
	cpu_set_t set;
	char buf[128];

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	while (!stop) {
		int fd = open("/proc/self/stat", O_RDONLY);

		if (fd >= 0) {
			if (read(fd, buf, sizeof(buf)) < 0)
				perror("read");
			close(fd);
		}
		usleep(1000);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1000, type, i;
	FILE *f = fopen("/sys/bus/event_source/devices/kprobe/type", "r");
	pthread_t th[2];

	if (!f || fscanf(f, "%d", &type) != 1) {
		fprintf(stderr, "no kprobe PMU\n");
		return 1;
	}
	fclose(f);
	for (i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, reader, NULL);
	for (i = 0; i < rounds; i++) {
		struct perf_event_attr a;
		int fd;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = type;
		a.config1 = (unsigned long)"vfs_read";	/* kprobe_func */
		a.sample_period = i & 1 ? 0 : 1;
		fd = syscall(__NR_perf_event_open, &a, -1, 0, -1, 0);
		if (fd < 0) {
			perror("perf_event_open");
			return 1;
		}
		usleep(40000);
		close(fd);
		usleep(40000);
		if (i % 100 == 0)
			printf("%d rounds\n", i);
	}
	stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	printf("%d rounds, no oops\n", rounds);
	return 0;
}
