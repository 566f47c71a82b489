// SPDX-License-Identifier: GPL-2.0
/*
 * The 40-bit live counters of NV10:NV30 counted through the driver across
 * bit 32 and bit 39, exactly.
 *
 * pcounter.rst "Counters": on NV10:NV30 CTR_CYCLES and CTR_EVENT are
 * 40-bit, read as the low 32 bits (CTR_*) and bits 32-39 (CTR_*_HI bits
 * 0-7); the low 39 bits wrap, bit 39 is sticky: 0x7fffffffff + 1 =
 * 0x8000000000, and 0xffffffffff + 1 = 0x8000000000 again, never 0. So a
 * counter that has counted V increments reads
 *
 *	raw(V) = (V >= 2^39 ? 2^39 : 0) | (V mod 2^39).
 *
 * perf.rst "Counting": the driver keeps one endless single-event program
 * per domain, whose first three cycles after the program write (PRE_OP
 * write, WAIT_FOR_PRE, WAIT_FOR_START) are not counted, and sums the
 * growth of the live counters modulo 2^39; a read samples the event's
 * domain. On the manual clock the test reads at least every 2^38 cycles,
 * so the growth between two samples is below 2^39 and no wrap is missed
 * (the driver's own poll, at most every 10 s, samples between as well).
 *
 * Events opened at cycle C0 of main.0 therefore count cycles [C0 + 3,
 * C0 + N) after N cycles: cycles K(N) = N - 3, and the EVENT input (sig0
 * = signal 1, table 0xaaaa = "count sig0") the cycles c of that span in
 * which the waveform is 1 (Documentation/sim.rst, "Waveforms": periodic
 * PERIOD WIDTH PHASE is 1 in cycle c iff (c + PHASE) % PERIOD < WIDTH).
 *
 * Each counter is read just before and just after it reaches 2^32 (the
 * carry into CTR_*_HI), 2^39 (the first wrap of the low 39 bits, bit 39
 * set) and 2^40 (the second wrap: bit 39 stays set, so a 40-bit
 * difference would add a false 2^39). At every read the driver's 64-bit
 * count equals the hand-computed V, and the raw registers equal raw(V):
 * the sticky bit is there and is not counted.
 */
#include "kselftest_harness.h"
#include "nvpc_perf.h"

#define GPU		2
#define TWO(n)		(1ULL << (n))

/* pcounter.rst "MMIO registers / NV10": domain 0's counters */
#define CTR_CYCLES	0x00a600
#define CTR_CYCLES_HI	0x00a604
#define CTR_EVENT	0x00a610
#define CTR_EVENT_HI	0x00a614

/* the EVENT input's source: 1 in 7 cycles of 8 */
#define SIG		1
#define W_PERIOD	8ULL
#define W_WIDTH		7ULL
#define W_PHASE		3ULL

/* cycles opened at, before the events; the first counted is C0 + 3 */
#define C0		5ULL
#define START_CYCLES	3ULL

/* longest step between two reads: below 2^38 cycles */
#define STEP		(TWO(38) - TWO(20))

/* Integers m in [0, y) with m % W_PERIOD < W_WIDTH. */
static __u64 ones_below(__u64 y)
{
	__u64 r = y % W_PERIOD;

	return y / W_PERIOD * W_WIDTH + (r < W_WIDTH ? r : W_WIDTH);
}

/* Cycles c in [0, x) in which the waveform is 1: c + PHASE in [PHASE, x + PHASE). */
static __u64 wave_ones(__u64 x)
{
	return ones_below(x + W_PHASE) - ones_below(W_PHASE);
}

/* EVENT count N cycles after the open: the ones in [C0 + 3, C0 + N). */
static __u64 want_event(__u64 n)
{
	return wave_ones(C0 + n) - wave_ones(C0 + START_CYCLES);
}

static __u64 want_cycles(__u64 n)
{
	return n - START_CYCLES;
}

/* The 40-bit register after @v increments (pcounter.rst, Counters). */
static __u64 raw40(__u64 v)
{
	return (v >= TWO(39) ? TWO(39) : 0) | (v & (TWO(39) - 1));
}

/* Smallest N with want_event(N) >= @v (want_event grows by 0 or 1). */
static __u64 event_reaches(__u64 v)
{
	__u64 lo = START_CYCLES, hi = TWO(42);

	while (lo < hi) {
		__u64 mid = lo + (hi - lo) / 2;

		if (want_event(mid) >= v)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static __u64 sim_reg40(int gpu, unsigned int lo, unsigned int hi)
{
	__u64 h = sim_reg(gpu, hi), l = sim_reg(gpu, lo);

	return h == ~0ULL || l == ~0ULL ? ~0ULL : h << 32 | l;
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

FIXTURE(nv10) {
	int fev, fcyc;
	__u64 n;		/* cycles of main.0 since the open */
	int reads;
};

FIXTURE_VARIANT(nv10) {
	const char *chip;
};

/* NV10: one domain; NV20: two, on one shared CTRL (pcounter.rst, Introduction) */
FIXTURE_VARIANT_ADD(nv10, nv10) { .chip = "nv10" };
FIXTURE_VARIANT_ADD(nv10, nv20) { .chip = "nv20" };

FIXTURE_SETUP(nv10)
{
	char pmu[PATH_MAX];
	int type;

	self->fev = -1;
	self->fcyc = -1;
	self->n = 0;
	self->reads = 0;
	/* the catalogue's clocks, manual mode: time moves by "advance" only */
	ASSERT_EQ(0, sim_gpu_create(GPU, variant->chip));
	type = nvpc_pmu_find(GPU, pmu, sizeof(pmu));
	ASSERT_LT(0, type);
	ASSERT_EQ(0, sim_wave(GPU, "main.0", SIG,
			      WAVE_PERIODIC(W_PERIOD, W_WIDTH, W_PHASE)));
	ASSERT_EQ(0, sim_advance(GPU, C0, "main.0"));
	self->fev = nvpc_ev_open(type, CFG_SIG(0, SIG), CFG1_DOM(0, 0, 0), 0,
				 -1);
	ASSERT_LE(0, self->fev);
	self->fcyc = nvpc_ev_open(type, CFG_CYCLES, CFG1_DOM(0, 0, 0), 0, -1);
	ASSERT_LE(0, self->fcyc);
}

FIXTURE_TEARDOWN(nv10)
{
	if (self->fev >= 0)
		close(self->fev);
	if (self->fcyc >= 0)
		close(self->fcyc);
	sim_gpu_remove(GPU);
}

/* Read both events and both raw registers N cycles after the open. */
static void check_at(struct __test_metadata *_metadata,
		     struct _test_data_nv10 *self)
{
	__u64 n = self->n, ev = want_event(n), cyc = want_cycles(n);

	self->reads++;
	EXPECT_EQ(cyc, nvpc_ev_count(self->fcyc)) {
		TH_LOG("cycles at N = %#llx", (unsigned long long)n);
	}
	EXPECT_EQ(ev, nvpc_ev_count(self->fev)) {
		TH_LOG("event at N = %#llx", (unsigned long long)n);
	}
	EXPECT_EQ(raw40(cyc), sim_reg40(GPU, CTR_CYCLES, CTR_CYCLES_HI)) {
		TH_LOG("CTR_CYCLES at N = %#llx", (unsigned long long)n);
	}
	EXPECT_EQ(raw40(ev), sim_reg40(GPU, CTR_EVENT, CTR_EVENT_HI)) {
		TH_LOG("CTR_EVENT at N = %#llx", (unsigned long long)n);
	}
}

/* Advance main.0 to N cycles after the open, reading every STEP cycles. */
static void walk_to(struct __test_metadata *_metadata,
		    struct _test_data_nv10 *self, __u64 n)
{
	while (self->n < n) {
		__u64 d = n - self->n < STEP ? n - self->n : STEP;

		ASSERT_EQ(0, sim_advance(GPU, d, "main.0"));
		self->n += d;
		check_at(_metadata, self);
	}
}

/*
 * Read one cycle before and one after each counter reaches each of
 * @bounds (cycles at N = B + 3, the event at event_reaches(B)).
 */
static void cross(struct __test_metadata *_metadata, struct _test_data_nv10 *self,
		  const __u64 *bounds, int nb)
{
	__u64 at[16];
	int i, na = 0;

	for (i = 0; i < nb; i++) {
		__u64 c = bounds[i] + START_CYCLES, e = event_reaches(bounds[i]);

		/* the raw values on each side are the documented ones */
		ASSERT_EQ(bounds[i] - 1, want_event(e - 1));
		ASSERT_EQ(bounds[i], want_event(e));
		at[na++] = c - 1;
		at[na++] = c + 1;
		at[na++] = e - 1;
		at[na++] = e + 1;
	}
	qsort(at, na, sizeof(at[0]), cmp_u64);
	for (i = 0; i < na; i++)
		walk_to(_metadata, self, at[i]);
}

/*
 * Bit 32: CTR_CYCLES reads HI 0 / LO 0xffffffff one cycle before it has
 * counted 2^32, HI 1 / LO 1 one cycle after; the same for CTR_EVENT.
 * E.g. cycles: raw40(2^32 - 1) = 0x00_ffffffff, raw40(2^32 + 1) =
 * 0x01_00000001.
 */
TEST_F_TIMEOUT(nv10, across_bit32, 120)
{
	static const __u64 bounds[] = { TWO(32) };

	/* first 1000 cycles: 997 counted (perf.rst), no carry yet */
	walk_to(_metadata, self, 1000);
	cross(_metadata, self, bounds, ARRAY_SIZE(bounds));
	TH_LOG("%d reads up to N = %#llx", self->reads,
	       (unsigned long long)self->n);
}

/*
 * Bit 39 and the sticky bit: through 2^39 the low 39 bits wrap and bit
 * 39 sets (raw40(2^39 + 1) = 0x80_00000001); through 2^40 they wrap
 * again and bit 39 stays (raw40(2^40 + 1) = 0x80_00000001, where a
 * 40-bit counter would read 0x00_00000001). The driver's count goes on
 * past 2^40 exactly: the sticky bit is never added as 2^39 counts.
 * CTR_EVENT (7 in 8 cycles) reaches 2^40 near N = 2^40 * 8 / 7, about
 * 1.26 * 10^12 cycles, 6283 s of main.0 at its catalogue clock.
 */
TEST_F_TIMEOUT(nv10, across_bit39_sticky, 300)
{
	static const __u64 bounds[] = { TWO(32), TWO(39), TWO(40) };

	cross(_metadata, self, bounds, ARRAY_SIZE(bounds));
	/* and on, 2^38 cycles a read */
	walk_to(_metadata, self, self->n + 4 * STEP);
	TH_LOG("%d reads up to N = %#llx", self->reads,
	       (unsigned long long)self->n);
}

TEST_HARNESS_MAIN
