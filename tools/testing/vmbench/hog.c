// SPDX-License-Identifier: GPL-2.0
/*
 * A CPU hog for `make bench`: spins for the given seconds and prints its
 * loop iterations per second. Pinned to the PMU's CPU beside a recording
 * and alone, the ratio of the two rates is the share of that CPU the
 * driver's drain took (it runs there, in hard irq).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0, t0 = now(), t;
	volatile unsigned long n = 0;
	unsigned long loops = 0;

	do {
		for (int i = 0; i < 100000; i++)
			n++;
		loops++;
		t = now();
	} while (t - t0 < secs);
	printf("%.0f\n", loops * 100000.0 / (t - t0));
	return 0;
}
