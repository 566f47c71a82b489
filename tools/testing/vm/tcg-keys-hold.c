// SPDX-License-Identifier: GPL-2.0
/*
 * Holds the guest kernel's perf static keys on for a whole VM run, so
 * that no test turns one on or off while the other vCPU runs its site.
 *
 * Under QEMU's multi-threaded TCG a guest kernel has hung in its own
 * text patching (Documentation/testing.rst "Guest kernels under TCG"):
 * a vCPU kept taking the int3 of a rewrite that had already ended. The
 * first perf event of a tracepoint, of a software event kind, or bound
 * to a task turns a static key on (the tracepoint's, perf_swevent_enabled
 * of the kind, perf_sched_events), and the last one's close turns it off:
 * each is a rewrite of every site of the key. A disabled event of each,
 * opened once at the guest's start (before any module of ours loads)
 * and never closed, takes those rewrites out of the tests.
 *
 * Started by guest_hold_keys (guest-lib.sh; a child of the guest
 * script's shell, which guest_clean spares), which waits, the rest of
 * the guest quiet, until it has opened its events and said how many on
 * stdout; then it sleeps until the guest ends. Not a test.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <linux/perf_event.h>

#include "nvpc_ksft.h"	/* selftests/nvpcounter: nvpc_tracepoint_id() */

/* the tracepoints the tests open (group_test.c's sampling leaders) */
static const char * const tracepoints[][2] = {
	{ "sched", "sched_waking" },
	{ "timer", "hrtimer_cancel" },
	{ "printk", "console" },
	{ "irq", "softirq_entry" },
};

/* and the software kinds (group_test.c's, and perf stat's defaults) */
static const unsigned int sw_kinds[] = {
	PERF_COUNT_SW_CONTEXT_SWITCHES,
	PERF_COUNT_SW_CPU_MIGRATIONS,
	PERF_COUNT_SW_PAGE_FAULTS,
	PERF_COUNT_SW_BPF_OUTPUT,
};

static int open_event(struct perf_event_attr *a, int pid, int cpu)
{
	a->size = sizeof(*a);
	a->disabled = 1;
	return syscall(__NR_perf_event_open, a, pid, cpu, -1, 0);
}

int main(void)
{
	struct perf_event_attr a;
	int held = 0, failed = 0;
	unsigned int i;
	long id;

	/* the software kinds the tests open (the clocks have no key) */
	for (i = 0; i < sizeof(sw_kinds) / sizeof(sw_kinds[0]); i++) {
		memset(&a, 0, sizeof(a));
		a.type = PERF_TYPE_SOFTWARE;
		a.config = sw_kinds[i];
		open_event(&a, -1, 0) >= 0 ? held++ : failed++;
	}
	for (i = 0; i < sizeof(tracepoints) / sizeof(tracepoints[0]); i++) {
		id = nvpc_tracepoint_id(tracepoints[i][0], tracepoints[i][1]);
		memset(&a, 0, sizeof(a));
		a.type = PERF_TYPE_TRACEPOINT;
		a.config = id;
		id >= 0 && open_event(&a, -1, 0) >= 0 ? held++ : failed++;
	}
	/* an event bound to a task: perf_sched_events (the context switch) */
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	open_event(&a, 0, -1) >= 0 ? held++ : failed++;

	printf("tcg-keys-hold: %d events held, %d could not be opened\n",
	       held, failed);
	fflush(stdout);
	for (;;)
		pause();
	return 0;
}
