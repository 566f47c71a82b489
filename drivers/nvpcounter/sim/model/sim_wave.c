// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter sim: the waveforms the non-trailer signals follow (constant,
 * periodic, random by a bit-sliced generator), bit by bit for the oracle
 * and by words for the fast engine, the ground truth computed from them
 * in closed form, and the history rings of FLAG and EVENT that the
 * synchronisers read.
 */
#include "sim_internal.h"

/* ---- waveforms ---- */

/*
 * Random sources: r(c), the 16-bit value of cycle c, has as its bit j the
 * bit c % 64 of plane(key, c / 64, j), a multiply-xorshift hash; the
 * source is 1 iff r(c) < density. A block of 64 cycles is then 16 hashes
 * at most, compared bit-sliced from the top plane down, and usually far
 * fewer: the comparison stops once every cycle is decided or the
 * remaining bits of the density are 0. One cycle alone costs 2 hashes on
 * average (each plane decides it with probability 1/2).
 */
static u64 nvpc_sim_xmx(u64 z)
{
	z ^= z >> 32;
	z *= 0xd6e8feb86659fd93ULL;
	return z ^ (z >> 32);
}

/**
 * nvpc_sim_rand_key() - hash key of a random source
 * @seed: its seed
 *
 * Return: the key passed to nvpc_sim_rand_block().
 */
u64 nvpc_sim_rand_key(u32 seed)
{
	return (seed + 1ULL) * 0xd1b54a32d192ed03ULL;
}

static u64 nvpc_sim_plane(u64 key, u64 q, unsigned int j)
{
	return nvpc_sim_xmx(key ^ (q << 4 | j) * 0x9e3779b97f4a7c15ULL);
}

/**
 * nvpc_sim_rand_block() - 64 cycles of a random source
 * @key: nvpc_sim_rand_key() of its seed
 * @density: 0..65536
 * @q: block: cycles 64 * @q .. 64 * @q + 63
 *
 * Return: bit i is the value in cycle 64 * @q + i.
 */
u64 nvpc_sim_rand_block(u64 key, u32 density, u64 q)
{
	u64 lt = 0, eq = ~0ULL, p;
	int j;

	if (density >= 0x10000)
		return ~0ULL;
	for (j = 15; j >= 0 && eq && (density & ((2U << j) - 1)); j--) {
		p = nvpc_sim_plane(key, q, j);
		if (density & (1U << j)) {
			lt |= eq & ~p;
			eq &= p;
		} else {
			eq &= ~p;
		}
	}
	return lt;
}

/* r(c) < density, one cycle, the top plane first */
static int nvpc_sim_rand_bit(const struct nvpc_sim_wave *w, u64 cycle)
{
	u64 key = nvpc_sim_rand_key(w->seed);
	int j, b, dbit;

	if (w->density >= 0x10000)
		return 1;
	for (j = 15; j >= 0; j--) {
		if (!(w->density & ((2U << j) - 1)))
			return 0;	/* r >= what is left of density */
		b = (nvpc_sim_plane(key, cycle / 64, j) >> (cycle % 64)) & 1;
		dbit = (w->density >> j) & 1;
		if (b != dbit)
			return b < dbit;
	}
	return 0;	/* r == density */
}

/**
 * nvpc_sim_wave_bit() - value of a waveform in one cycle
 * @w: the waveform
 * @cycle: absolute domain cycle
 *
 * Return: 0 or 1.
 */
int nvpc_sim_wave_bit(const struct nvpc_sim_wave *w, u64 cycle)
{
	switch (w->kind) {
	case NVPC_SIM_WAVE_PERIODIC:
		return (cycle % w->period + w->phase % w->period) % w->period <
		       w->width;
	case NVPC_SIM_WAVE_RANDOM:
		return nvpc_sim_rand_bit(w, cycle);
	default:
		return w->value & 1;
	}
}

/**
 * nvpc_sim_periodic_runs() - n cycles of a periodic source, run by run
 * @pos: (first cycle + phase) % period
 * @period: the period
 * @width: cycles at 1 per period
 * @n: number of cycles, 1..64
 *
 * Return: bit i is the value in the first cycle + i; bits >= @n are 0.
 */
u64 nvpc_sim_periodic_runs(u32 pos, u32 period, u32 width, unsigned int n)
{
	unsigned int i, run;
	u64 out = 0;

	for (i = 0; i < n; i += run) {
		if (pos < width) {
			run = width - pos;
			if (run > n - i)
				run = n - i;
			out |= (run >= 64 ? ~0ULL : (1ULL << run) - 1) << i;
		} else {
			run = period - pos;
			if (run > n - i)
				run = n - i;
		}
		pos += run;
		if (pos >= period)
			pos = 0;
	}
	return out;
}

/**
 * nvpc_sim_wave_word() - values of a waveform in n consecutive cycles
 * @w: the waveform
 * @cycle: first cycle, bit 0 of the result
 * @n: number of cycles, 1..64
 *
 * Return: bit i is the value in cycle @cycle + i; bits >= @n are 0.
 */
u64 nvpc_sim_wave_word(const struct nvpc_sim_wave *w, u64 cycle,
		       unsigned int n)
{
	u64 mask = n >= 64 ? ~0ULL : (1ULL << n) - 1;
	u64 out, key;
	unsigned int b;
	u32 pos;

	switch (w->kind) {
	case NVPC_SIM_WAVE_PERIODIC:
		pos = (cycle % w->period + w->phase % w->period) % w->period;
		return nvpc_sim_periodic_runs(pos, w->period, w->width, n);
	case NVPC_SIM_WAVE_RANDOM:
		key = nvpc_sim_rand_key(w->seed);
		b = cycle % 64;
		out = nvpc_sim_rand_block(key, w->density, cycle / 64) >> b;
		if (b && b + n > 64)
			out |= nvpc_sim_rand_block(key, w->density,
						   cycle / 64 + 1) << (64 - b);
		return out & mask;
	default:
		return (w->value & 1) ? mask : 0;
	}
}

static u64 nvpc_sim_periodic_ones(const struct nvpc_sim_wave *w, u64 y)
{
	u64 r = y % w->period;

	return y / w->period * w->width + (r < w->width ? r : w->width);
}

/**
 * nvpc_sim_truth() - ground truth: cycles a signal source was 1
 * @sim: the sim
 * @dom: flat domain index
 * @sig: signal id (a waveform source; trailer signals give 0)
 * @from: first cycle
 * @to: end cycle (exclusive)
 *
 * Constant and periodic sources are counted in closed form, random ones
 * 64 cycles at a time.
 *
 * Return: number of cycles in [@from, @to) in which the source was 1.
 */
u64 nvpc_sim_truth(const struct nvpc_sim *sim, unsigned int dom,
		   unsigned int sig, u64 from, u64 to)
{
	const struct nvpc_sim_wave *w;
	u64 n = 0, c, ph, k;

	if (!nvpc_sim_sig_has_wave(sim, dom, sig) || to <= from)
		return 0;
	w = &sim->dom[dom].wave[sig];
	switch (w->kind) {
	case NVPC_SIM_WAVE_PERIODIC:
		ph = w->phase % w->period;
		return nvpc_sim_periodic_ones(w, to + ph) -
		       nvpc_sim_periodic_ones(w, from + ph);
	case NVPC_SIM_WAVE_RANDOM:
		for (c = from; c < to; c += k) {
			k = to - c < 64 ? to - c : 64;
			n += nvpc_sim_popcount(nvpc_sim_wave_word(w, c, k));
		}
		return n;
	default:
		return (w->value & 1) ? to - from : 0;
	}
}

/**
 * nvpc_sim_sig_has_wave() - whether a signal's source is a waveform
 * @sim: the sim
 * @dom: flat domain index
 * @sig: signal id
 *
 * Return: true for a signal of the domain the model takes from its
 * waveform; false for a trailer signal the model computes itself (FLAG,
 * EVENT, imports, PERIODIC, USER, PM_TRIGGER, ZERO: pcounter.rst "Trailer
 * signals"), an id beyond the domain's signals, or no such domain.
 */
bool nvpc_sim_sig_has_wave(const struct nvpc_sim *sim, unsigned int dom,
			   unsigned int sig)
{
	return dom < sim->nr_dom && sig < NVPC_SIM_NR_SIGNALS &&
	       NVPC_SIM_SIG_KIND(sim->dom[dom].sig[sig]) == NVPC_SIM_SIG_WAVE;
}

/**
 * nvpc_sim_set_wave() - program the waveform of a signal source
 * @sim: the sim
 * @dom: flat domain index
 * @sig: signal id
 * @w: the waveform (copied)
 *
 * A waveform on a signal it could not drive (nvpc_sim_sig_has_wave()) is
 * refused rather than stored without effect.
 *
 * Return: 0, or -EINVAL for a bad domain, signal or waveform.
 */
int nvpc_sim_set_wave(struct nvpc_sim *sim, unsigned int dom,
		      unsigned int sig, const struct nvpc_sim_wave *w)
{
	if (!nvpc_sim_sig_has_wave(sim, dom, sig))
		return -EINVAL;
	if (w->kind > NVPC_SIM_WAVE_RANDOM)
		return -EINVAL;
	if (w->kind == NVPC_SIM_WAVE_PERIODIC &&
	    (!w->period || w->width > w->period))
		return -EINVAL;
	if (w->kind == NVPC_SIM_WAVE_RANDOM && w->density > 0x10000)
		return -EINVAL;
	nvpc_sim_catch_up_range(sim, dom, 1);
	sim->dom[dom].wave[sig] = *w;
	sim->cfg_gen++;
	return 0;
}

/* ---- history rings ---- */

/**
 * nvpc_sim_hist_bit() - read a synchroniser history bit
 * @hist: ring of NVPC_SIM_HIST bits
 * @cycle: the cycle
 *
 * Return: the bit stored for @cycle.
 */
int nvpc_sim_hist_bit(const u64 *hist, u64 cycle)
{
	u32 i = cycle % NVPC_SIM_HIST;

	return (hist[i / 64] >> (i % 64)) & 1;
}

/**
 * nvpc_sim_hist_set() - store a synchroniser history bit
 * @hist: ring of NVPC_SIM_HIST bits
 * @cycle: the cycle
 * @v: the bit
 */
void nvpc_sim_hist_set(u64 *hist, u64 cycle, int v)
{
	u32 i = cycle % NVPC_SIM_HIST;

	if (v)
		hist[i / 64] |= 1ULL << (i % 64);
	else
		hist[i / 64] &= ~(1ULL << (i % 64));
}
