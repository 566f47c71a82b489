// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter sim: the generations' facts, construction, time, and the
 * inputs, callbacks and faults besides the registers. The waveforms are
 * sim_wave.c's, the register front end sim_regs.c's; the per-cycle
 * behaviour lives in the engines (sim_fast.h, sim_oracle.c).
 */
#include "sim_internal.h"

#define NVPC_SIM_NS_HZ		1000000000ULL

/* ---- generations ---- */

/*
 * The facts of each generation the model tests (struct nvpc_sim_facts):
 * pcounter.rst names the generation ranges ("[NV30:G84]", ...) of every
 * register and behaviour; a generation has what it lists.
 */
const struct nvpc_sim_facts nvpc_sim_facts[NVPC_GEN_COUNT] = {
	[NVPC_GEN_NV10] = {
		.max_dom = 1,
		.flag_own_src = true, .ctr40 = true, .shared_ctrl = true,
		.pre_op_start = true,
	},
	[NVPC_GEN_NV15] = {
		.max_dom = 1,
		.flag_own_src = true, .ctr40 = true, .event_ctr_period = true,
		.shared_ctrl = true, .pre_op_start = true,
	},
	[NVPC_GEN_NV20] = {
		.max_dom = 2,
		.flag_own_src = true, .ctr40 = true, .event_ctr_period = true,
		.shared_ctrl = true, .pm_trigger = true, .pre_op_start = true,
	},
	[NVPC_GEN_NV30] = {
		.max_dom = 2,
		.event_ctr_period = true, .quad = true, .shared_ctrl = true,
		.pm_trigger = true, .pm_swap = true, .pre_op_start = true,
	},
	[NVPC_GEN_NV40] = {
		.max_dom = 8,
		.event_ctr_period = true, .quad = true, .pm_trigger = true,
		.pm_swap = true, .import_pulse = true, .pre_op_start = true,
	},
	[NVPC_GEN_G84] = {
		.max_dom = 8,
		.event_ctr_period = true, .quad = true, .pm_trigger = true,
		.import_pulse = true, .spec_src = true, .write_swap = true,
		.pre_op_start = true, .record = true, .record_bind = true,
		.gctrl = true, .periodic = true,
	},
	[NVPC_GEN_G92] = {
		.max_dom = 8,
		.event_ctr_period = true, .quad = true, .pm_trigger = true,
		.import_pulse = true, .spec_src = true, .write_swap = true,
		.pre_op_start = true, .record = true, .record_bind = true,
		.gctrl = true, .periodic = true, .delayed_args = true,
		.rec_addr_high = true,
	},
	[NVPC_GEN_GT215] = {
		.max_dom = 8,
		.event_ctr_period = true, .quad = true, .pm_trigger = true,
		.import_pulse = true, .spec_src = true, .write_swap = true,
		.pre_op_start = true, .record = true, .record_bind = true,
		.gctrl = true, .periodic = true, .delayed_args = true,
		.rec_addr_high = true, .user = true,
	},
	[NVPC_GEN_GF100] = {
		.max_dom = 0,
		.event_ctr_period = true, .quad = true, .import_pulse = true,
		.spec_src = true, .record = true, .periodic = true,
		.delayed_args = true, .rec_addr_high = true, .user = true,
		.gf100_layout = true,
	},
};

/* ---- construction ---- */

static u64 nvpc_sim_gcd(u64 a, u64 b)
{
	while (b) {
		u64 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static unsigned int nvpc_sim_units(const struct nvpc_chip_desc *chip,
				   u8 dset)
{
	unsigned int i, n = 0;

	for (i = 0; i < chip->nr_domains; i++)
		if (chip->domains[i].dset == dset)
			n++;
	return n;
}

/* GF100+ domain sets (a chip beyond the table is refused by init, later) */
static bool nvpc_sim_chip_sets(const struct nvpc_chip_desc *chip)
{
	return chip->gen >= NVPC_GEN_COUNT ||
	       nvpc_sim_facts[chip->gen].gf100_layout;
}

static void nvpc_sim_params_counts(const struct nvpc_sim_params *p,
				   unsigned int *gpc, unsigned int *part)
{
	*gpc = 0;
	*part = 0;
	if (!nvpc_sim_chip_sets(p->chip))
		return;
	*gpc = p->nr_gpc ? p->nr_gpc : p->chip->nr_gpc;
	*part = p->nr_part ? p->nr_part : p->chip->nr_part;
}

static unsigned int nvpc_sim_count_domains(const struct nvpc_sim_params *p)
{
	const struct nvpc_chip_desc *chip = p->chip;
	unsigned int gpc, part;

	if (!nvpc_sim_chip_sets(chip))
		return nvpc_sim_units(chip, NVPC_DSET_MAIN);
	nvpc_sim_params_counts(p, &gpc, &part);
	return nvpc_sim_units(chip, NVPC_DSET_HUB) +
	       gpc * nvpc_sim_units(chip, NVPC_DSET_GPC) +
	       part * nvpc_sim_units(chip, NVPC_DSET_PART);
}

/**
 * nvpc_sim_size() - bytes needed for a sim
 * @p: what to build
 *
 * Return: the size to allocate and pass to nvpc_sim_init(), 0 if @p is bad.
 */
size_t nvpc_sim_size(const struct nvpc_sim_params *p)
{
	if (!p || !p->chip || !p->chip->domains)
		return 0;
	return sizeof(struct nvpc_sim) +
	       nvpc_sim_count_domains(p) * sizeof(struct nvpc_sim_dom);
}

/*
 * The trailer's 16 synchronised signals of the set's domains from @base:
 * eight IMP events then eight IMP flags, each numbered downwards from the
 * domain 7 (pcounter.rst, the trailer signals: base+0x10..0x1f on
 * NV40:NVC0, base+0x30..0x3f on NVC0+). Any other @off keeps @k.
 */
static u8 nvpc_sim_imp_sig(unsigned int off, unsigned int base, u8 k)
{
	if (off < base || off >= base + 16)
		return k;
	return NVPC_SIM_SIG(off < base + 8 ? NVPC_SIM_SIG_IMP_EVENT :
					     NVPC_SIM_SIG_IMP_FLAG,
			    7 - ((off - base) & 7));
}

static void nvpc_sim_build_sigs(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	unsigned int s, off, x;
	u8 k;

	for (s = 0; s < NVPC_SIM_NR_SIGNALS; s++) {
		k = s < d->nr_signals ? NVPC_SIM_SIG(NVPC_SIM_SIG_WAVE, 0) :
					NVPC_SIM_SIG(NVPC_SIM_SIG_ZERO, 0);
		if (s < d->trailer_base) {
			d->sig[s] = k;
			continue;
		}
		off = s - d->trailer_base;
		/*
		 * pcounter.rst "Trailer signals" gives one layout per
		 * generation range: the ranges read clearer than flags
		 */
		if (sim->gen < NVPC_GEN_NV20) {
			if (off == NVPC_NV10_TRAILER_FLAG)
				k = NVPC_SIM_SIG(NVPC_SIM_SIG_FLAG, 0);
		} else if (sim->gen < NVPC_GEN_NV40) {
			if (off == NVPC_NV20_TRAILER_PM_TRIGGER)
				k = NVPC_SIM_SIG(NVPC_SIM_SIG_PM_TRIGGER, 0);
			else if (off == 0x1e || off == 0x1f)
				k = NVPC_SIM_SIG(NVPC_SIM_SIG_IMP_FLAG,
						 0x1f - off);
		} else if (sim->gen < NVPC_GEN_GF100) {
			if (off == NVPC_NV40_TRAILER_ZERO_C &&
			    sim->facts->periodic)
				k = NVPC_SIM_SIG(NVPC_SIM_SIG_ZERO, 0);
			else if (off == NVPC_NV40_TRAILER_PERIODIC &&
				 sim->facts->periodic)
				k = NVPC_SIM_SIG(NVPC_SIM_SIG_PERIODIC, 0);
			else if (off == NVPC_NV40_TRAILER_ZERO_E)
				/* ZERO [NV40:G84]; WRCACHE_FLUSH [G84:GF100]
				 * is undocumented ("write me"): held at 0
				 */
				k = NVPC_SIM_SIG(NVPC_SIM_SIG_ZERO, 0);
			else if (off == NVPC_NV40_TRAILER_PM_TRIGGER)
				k = NVPC_SIM_SIG(NVPC_SIM_SIG_PM_TRIGGER, 0);
			else
				k = nvpc_sim_imp_sig(off, 0x10, k);
		} else {
			if (off >= 0x1f && off <= 0x2f)
				k = NVPC_SIM_SIG(NVPC_SIM_SIG_ZERO, 0);
			if (off >= 0x27 && off <= 0x2a)
				k = NVPC_SIM_SIG(NVPC_SIM_SIG_USER, off - 0x27);
			else if (off == NVPC_GF100_TRAILER_PERIODIC)
				k = NVPC_SIM_SIG(NVPC_SIM_SIG_PERIODIC, 0);
			else
				k = nvpc_sim_imp_sig(off, 0x30, k);
		}
		if (NVPC_SIM_SIG_KIND(k) == NVPC_SIM_SIG_IMP_FLAG ||
		    NVPC_SIM_SIG_KIND(k) == NVPC_SIM_SIG_IMP_EVENT) {
			x = NVPC_SIM_SIG_ARG(k);
			if (x >= d->set_count)
				k = NVPC_SIM_SIG(NVPC_SIM_SIG_ZERO, 0);
			else if (x == d->index)
				/* own signals are not synchronised */
				k = NVPC_SIM_SIG(NVPC_SIM_SIG_KIND(k) ==
						 NVPC_SIM_SIG_IMP_FLAG ?
						 NVPC_SIM_SIG_FLAG :
						 NVPC_SIM_SIG_EVENT, 0);
		}
		d->sig[s] = k;
	}
}

static int nvpc_sim_add_set(struct nvpc_sim *sim, unsigned int *n,
			    u8 dset, unsigned int unit)
{
	const struct nvpc_chip_desc *chip = sim->chip;
	unsigned int i, first = *n, cnt = nvpc_sim_units(chip, dset);
	struct nvpc_sim_dom *d;

	for (i = 0; i < chip->nr_domains; i++) {
		const struct nvpc_domain_desc *dd = &chip->domains[i];

		if (dd->dset != dset)
			continue;
		d = &sim->dom[*n];
		if (dd->index >= 8 || dd->nr_signals > NVPC_SIM_NR_SIGNALS ||
		    !dd->clock_hz)
			return -EINVAL;
		d->dset = dset;
		d->unit = unit;
		d->index = dd->index;
		d->set_first = first;
		d->set_count = cnt;
		d->nr_signals = dd->nr_signals;
		d->trailer_base = dd->trailer_base;
		d->clock_hz = dd->clock_hz;
		if (dset == NVPC_DSET_GPC)
			d->base = NVPC_GF100_GPC_BASE(unit, dd->index);
		else if (dset == NVPC_DSET_PART)
			d->base = NVPC_GF100_PART_BASE(unit, dd->index);
		else if (dset == NVPC_DSET_HUB)
			d->base = NVPC_GF100_HUB_BASE(dd->index);
		(*n)++;
	}
	/* domains of a set are addressed by index: it must be 0..cnt-1 */
	for (i = first; i < *n; i++)
		if (sim->dom[i].index != i - first)
			return -EINVAL;
	return 0;
}

/* tick_hz = lcm of the clocks ("DOC: time and clocks"), exact or -ERANGE */
static int nvpc_sim_setup_clocks(struct nvpc_sim *sim)
{
	u64 l = 1, f, g, pmin, pmax;
	unsigned int i, j;

	for (i = 0; i < sim->nr_dom; i++) {
		f = sim->dom[i].clock_hz;
		g = nvpc_sim_gcd(l, f);
		if (l / g > NVPC_SIM_MAX_TICK_HZ / f)
			return -ERANGE;
		l = l / g * f;
	}
	sim->tick_hz = l;
	for (i = 0; i < sim->nr_dom; i++)
		sim->dom[i].period = l / sim->dom[i].clock_hz;
	for (i = 0; i < sim->nr_dom; i++) {
		struct nvpc_sim_dom *d = &sim->dom[i];

		pmin = d->period;
		pmax = d->period;
		for (j = d->set_first; j < d->set_first + d->set_count; j++) {
			if (sim->dom[j].period < pmin)
				pmin = sim->dom[j].period;
			if (sim->dom[j].period > pmax)
				pmax = sim->dom[j].period;
		}
		if (pmax / pmin > NVPC_SIM_MAX_CLOCK_RATIO)
			return -ERANGE;
	}
	return 0;
}

/* each domain's record write latency in its cycles (struct nvpc_sim_dom) */
static void nvpc_sim_apply_latency(struct nvpc_sim *sim)
{
	struct nvpc_sim_dom *d;
	unsigned int i;
	u64 c;

	for (i = 0; i < sim->nr_dom; i++) {
		d = &sim->dom[i];
		/* two u32 factors: the product fits; the cycles may not */
		c = (u64)sim->record_latency_ns * d->clock_hz / 1000000000ULL;
		d->rec_latency = !sim->record_latency_ns ? sim->record_latency :
				 c > 0xffffffffULL ? 0xffffffffU : (u32)c;
	}
}

/**
 * nvpc_sim_init() - build a sim in caller-allocated memory
 * @sim: memory of nvpc_sim_size() bytes
 * @size: its size
 * @p: what to build
 *
 * All registers start at 0, PMC.ENABLE at 0xffffffff, every signal source
 * is constant 0, time is 0.
 *
 * Return: 0, -EINVAL for bad parameters or -ERANGE for unusable clocks.
 */
int nvpc_sim_init(struct nvpc_sim *sim, size_t size,
		  const struct nvpc_sim_params *p)
{
	unsigned int i, n = 0, gpc, part;
	int ret;

	if (!size || size < nvpc_sim_size(p) || p->chip->gen >= NVPC_GEN_COUNT)
		return -EINVAL;
	memset(sim, 0, size);
	sim->chip = p->chip;
	sim->gen = p->chip->gen;
	sim->facts = &nvpc_sim_facts[sim->gen];
	sim->engine = p->engine ? p->engine : &nvpc_sim_engine_fast;
	sim->record_latency = p->record_latency;
	sim->record_latency_ns = p->record_latency_ns;
	sim->eager = p->eager;
	sim->record_cycle = p->record_cycle;
	sim->pmc_enable = 0xffffffff;
	nvpc_sim_params_counts(p, &gpc, &part);
	if (gpc > NVPC_GF100_MAX_GPC || part > NVPC_GF100_MAX_PART)
		return -EINVAL;
	sim->nr_gpc = gpc;
	sim->nr_part = part;
	if (!sim->facts->gf100_layout) {
		ret = nvpc_sim_add_set(sim, &n, NVPC_DSET_MAIN, 0);
		if (!ret && n > sim->facts->max_dom)
			ret = -EINVAL;
	} else {
		ret = nvpc_sim_add_set(sim, &n, NVPC_DSET_HUB, 0);
		for (i = 0; !ret && i < gpc; i++)
			ret = nvpc_sim_add_set(sim, &n, NVPC_DSET_GPC, i);
		for (i = 0; !ret && i < part; i++)
			ret = nvpc_sim_add_set(sim, &n, NVPC_DSET_PART, i);
	}
	if (ret)
		return ret;
	sim->nr_dom = n;
	if (!n)
		return -EINVAL;
	ret = nvpc_sim_setup_clocks(sim);
	if (ret)
		return ret;
	nvpc_sim_apply_latency(sim);
	for (i = 0; i < n; i++)
		nvpc_sim_build_sigs(sim, &sim->dom[i]);
	nvpc_sim_hw_reset(sim);
	return 0;
}

/* ---- time ---- */

/**
 * nvpc_sim_target() - cycles a domain must have processed at a tick
 * @d: the domain
 * @until: the tick
 *
 * Return: ceil(@until / period): cycles that start before @until.
 */
u64 nvpc_sim_target(const struct nvpc_sim_dom *d, u64 until)
{
	return until / d->period + (until % d->period ? 1 : 0);
}

/*
 * The ticks of a span: @n cycles of domain @dom, or @n nanoseconds if @dom
 * is NVPC_SIM_NS (then *@frac is the new &nvpc_sim.ns_frac). -EINVAL if
 * the model time would overflow.
 */
static int nvpc_sim_span(const struct nvpc_sim *sim, unsigned int dom, u64 n,
			 u64 *ticks, u64 *frac)
{
	u64 q = sim->tick_hz / NVPC_SIM_NS_HZ, r = sim->tick_hz % NVPC_SIM_NS_HZ;
	u64 a = n / NVPC_SIM_NS_HZ, b = n % NVPC_SIM_NS_HZ, t, x;

	*frac = sim->ns_frac;
	if (dom != NVPC_SIM_NS) {
		if (dom >= sim->nr_dom)
			return -EINVAL;
		if (n > (~0ULL - sim->now) / sim->dom[dom].period)
			return -EINVAL;
		*ticks = n * sim->dom[dom].period;
		return 0;
	}
	/* n * tick_hz / 1e9 = a * tick_hz + b * q + b * r / 1e9; b * r < 2^60 */
	if (a > (~0ULL - sim->now) / sim->tick_hz)
		return -EINVAL;
	t = a * sim->tick_hz;
	x = b * r + sim->ns_frac;
	if (b * q + x / NVPC_SIM_NS_HZ > ~0ULL - sim->now - t)
		return -EINVAL;
	*ticks = t + b * q + x / NVPC_SIM_NS_HZ;
	*frac = x % NVPC_SIM_NS_HZ;
	return 0;
}

/**
 * nvpc_sim_advance() - advance time by cycles of one domain
 * @sim: the sim
 * @dom: reference domain (flat index)
 * @cycles: cycles of @dom
 *
 * Return: 0, or -EINVAL for a bad domain or a time overflow.
 */
int nvpc_sim_advance(struct nvpc_sim *sim, unsigned int dom, u64 cycles)
{
	u64 t, f;

	if (dom == NVPC_SIM_NS || nvpc_sim_span(sim, dom, cycles, &t, &f))
		return -EINVAL;
	sim->now += t;
	sim->engine->run(sim, sim->now);
	return 0;
}

/**
 * nvpc_sim_advance_ns() - advance time by nanoseconds
 * @sim: the sim
 * @ns: nanoseconds
 *
 * Return: 0, or -EINVAL if the model time would overflow.
 */
int nvpc_sim_advance_ns(struct nvpc_sim *sim, u64 ns)
{
	u64 t, f;

	if (nvpc_sim_span(sim, NVPC_SIM_NS, ns, &t, &f))
		return -EINVAL;
	sim->now += t;
	sim->ns_frac = f;
	sim->engine->run(sim, sim->now);
	return 0;
}

/**
 * nvpc_sim_advance_bounded() - advance within a budget of engine work
 * @sim: the sim
 * @dom: reference domain (flat index), or NVPC_SIM_NS for nanoseconds
 * @n: in: the cycles of @dom (or nanoseconds) wanted; out: those done
 * @budget: work units (&nvpc_sim.work, see nvpc_sim_work()) allowed
 *
 * Goes the whole span if the engine's estimate of its cost is within
 * @budget, else the longest part of it that is (found by bisection: a
 * longer span never costs less, up to the constant of a hyperperiod
 * skip), possibly none. The time reached is a time like any other: a
 * span done in bounded parts counts exactly as in one go.
 *
 * Return: 0, or -EINVAL for a bad domain or if the whole span would
 * overflow the model time (then nothing is done).
 */
int nvpc_sim_advance_bounded(struct nvpc_sim *sim, unsigned int dom, u64 *n,
			     u64 budget)
{
	u64 lo = 0, hi = *n, mid, t, f;

	if (nvpc_sim_span(sim, dom, hi, &t, &f))
		return -EINVAL;
	sim->engine->cost_prepare(sim);
	if (hi && sim->engine->cost(sim, sim->now + t) > budget) {
		hi--;
		while (lo < hi) {
			mid = hi - (hi - lo) / 2;
			nvpc_sim_span(sim, dom, mid, &t, &f);
			if (sim->engine->cost(sim, sim->now + t) <= budget)
				lo = mid;
			else
				hi = mid - 1;
		}
		*n = lo;
		nvpc_sim_span(sim, dom, lo, &t, &f);
	}
	if (!*n)
		return 0;
	sim->now += t;
	sim->ns_frac = f;
	sim->engine->run(sim, sim->now);
	return 0;
}

/**
 * nvpc_sim_advance_within() - advance a whole span, if it fits a budget
 * @sim: the sim
 * @dom: reference domain (flat index), or NVPC_SIM_NS for nanoseconds
 * @n: the cycles of @dom (or nanoseconds)
 * @budget: work units allowed
 *
 * Like nvpc_sim_advance_bounded() without the bisection: all or nothing,
 * for callers to whom a part of the span is worth less than the cost of
 * finding it (a real-time register access; a worker does the rest).
 *
 * Return: 1 if done, 0 if the engine's estimate exceeds @budget (nothing
 * done), or -EINVAL for a bad domain or a model time overflow.
 */
int nvpc_sim_advance_within(struct nvpc_sim *sim, unsigned int dom, u64 n,
			    u64 budget)
{
	u64 t, f;

	if (nvpc_sim_span(sim, dom, n, &t, &f))
		return -EINVAL;
	if (!n)
		return 1;
	sim->engine->cost_prepare(sim);
	if (sim->engine->cost(sim, sim->now + t) > budget)
		return 0;
	sim->now += t;
	sim->ns_frac = f;
	sim->engine->run(sim, sim->now);
	return 1;
}

/**
 * nvpc_sim_advance_access() - advance before a register access, if it fits
 * @sim: the sim
 * @ns: nanoseconds to advance
 * @budget: work units allowed for the advance and the access
 * @addr: BAR0 address of the access that follows
 * @write: it is a write
 * @val: the value it writes (ignored for a read)
 *
 * nvpc_sim_advance_within() for a real-time register access: the estimate
 * covers the run of the domains that are not lazy and the catch-up of the
 * lazy domains the access will bring to the new model time (one domain for
 * most registers, its domain set or every domain for a few, see
 * nvpc_sim_access_scope()). If that does not fit, nothing is advanced; the
 * access still catches those domains up to the model time as it is.
 *
 * Return: 1 if done, 0 if over @budget (nothing done), or -EINVAL if the
 * model time would overflow.
 */
int nvpc_sim_advance_access(struct nvpc_sim *sim, u64 ns, u64 budget,
			    u32 addr, bool write, u32 val)
{
	unsigned int first, count, i;
	u64 t, f, est;

	if (nvpc_sim_span(sim, NVPC_SIM_NS, ns, &t, &f))
		return -EINVAL;
	if (!ns)
		return 1;
	sim->engine->cost_prepare(sim);
	est = sim->engine->cost(sim, sim->now + t);
	if (sim->engine->catch_up_cost) {
		nvpc_sim_access_scope(sim, addr, write, val, &first,
				      &count);
		for (i = first; i < first + count && est <= budget; i++)
			est += sim->engine->catch_up_cost(sim, i, sim->now + t);
	}
	if (est > budget)
		return 0;
	sim->now += t;
	sim->ns_frac = f;
	sim->engine->run(sim, sim->now);
	return 1;
}

/**
 * nvpc_sim_catch_up_range() - bring lazy domains to the model time
 * @sim: the sim
 * @first: flat index of the first domain
 * @count: number of domains
 *
 * Called before anything observes or changes those domains.
 */
void nvpc_sim_catch_up_range(struct nvpc_sim *sim, unsigned int first,
			     unsigned int count)
{
	unsigned int i;

	if (!sim->engine->catch_up)
		return;
	for (i = first; i < first + count && i < sim->nr_dom; i++)
		if (sim->dom[i].cycle < nvpc_sim_target(&sim->dom[i], sim->now))
			sim->engine->catch_up(sim, i);
}

/**
 * nvpc_sim_catch_up() - bring every lazy domain to the model time
 * @sim: the sim
 *
 * For callers that look at &struct nvpc_sim itself (copies compared with
 * memcmp(), state dumps): register accesses and nvpc_sim_cycles() catch up
 * what they see on their own.
 */
void nvpc_sim_catch_up(struct nvpc_sim *sim)
{
	nvpc_sim_catch_up_range(sim, 0, sim->nr_dom);
}

/**
 * nvpc_sim_work() - work done by the engine so far
 * @sim: the sim
 *
 * Return: work units, the unit of nvpc_sim_advance_bounded()'s budget.
 */
u64 nvpc_sim_work(const struct nvpc_sim *sim)
{
	return sim->work;
}

/*
 * Single event mode: the abort and the start ("PCOUNTER config register
 * written this cycle", "PRE_OP written this cycle") of a domain's next
 * cycle, done now (pcounter.rst "Single event mode"): SINGLE_STATE and the
 * counters as that cycle leaves them. The cycle itself still runs, as the
 * INACTIVE cycle it is, without a second start (its flag clears then).
 * A write catches its domain up (nvpc_sim_access_scope()), so the domain
 * is at the model time here.
 */
static void nvpc_sim_settle_single(struct nvpc_sim_hw *hw)
{
	if (hw->mode != NVPC_SIM_MODE_SINGLE)
		return;
	if (hw->pend_abort) {
		hw->single_state = NVPC_SINGLE_INACTIVE;
		hw->pend_abort = 0;
	}
	if (hw->single_state == NVPC_SINGLE_INACTIVE && hw->pend_start) {
		nvpc_sim_single_start_ctrs(hw);
		hw->single_state = NVPC_SINGLE_WAIT_PRE;
		hw->start_settled = 1;
	}
	/* a PRE_OP write outside INACTIVE starts nothing */
	hw->pend_start = 0;
}

/* kernel-doc in sim_model.h */
void nvpc_sim_settle(struct nvpc_sim *sim)
{
	unsigned int i;

	/*
	 * GF100+ PCOUNTER in reset runs no cycles, so it swaps nothing. Lazy
	 * domains are never in quad mode: a settle leaves them alone.
	 */
	if (!nvpc_sim_enabled(sim))
		return;
	for (i = 0; i < sim->nr_dom; i++)
		nvpc_sim_settle_single(&sim->dom[i].hw);
	sim->engine->settle(sim);
}

/* kernel-doc in sim_model.h */
void nvpc_sim_land_outgoing(struct nvpc_sim *sim)
{
	struct nvpc_sim_hw *hw;
	unsigned int i;

	for (i = 0; i < sim->nr_dom; i++) {
		hw = &sim->dom[i].hw;
		if (!hw->rec_out || hw->rec_wedged ||
		    hw->mode == NVPC_SIM_MODE_RECORD)
			continue;
		sim->engine->land(sim, &sim->dom[i]);
		sim->cfg_gen++;
	}
}

/**
 * nvpc_sim_cycles() - cycles processed by a domain
 * @sim: the sim
 * @dom: flat domain index
 *
 * A lazy domain is brought to the model time first.
 *
 * Return: the number of cycles, 0 for a bad domain.
 */
u64 nvpc_sim_cycles(struct nvpc_sim *sim, unsigned int dom)
{
	if (dom >= sim->nr_dom)
		return 0;
	nvpc_sim_catch_up_range(sim, dom, 1);
	return sim->dom[dom].cycle;
}

/**
 * nvpc_sim_tick_hz() - the master clock
 * @sim: the sim
 *
 * Return: ticks per second.
 */
u64 nvpc_sim_tick_hz(const struct nvpc_sim *sim)
{
	return sim->tick_hz;
}

/**
 * nvpc_sim_clock_hz() - clock of a domain (after any rounding)
 * @sim: the sim
 * @dom: flat domain index
 *
 * Return: Hz, 0 for a bad domain.
 */
u32 nvpc_sim_clock_hz(const struct nvpc_sim *sim, unsigned int dom)
{
	return dom < sim->nr_dom ? sim->dom[dom].clock_hz : 0;
}

/**
 * nvpc_sim_nr_domains() - instantiated domains
 * @sim: the sim
 *
 * Return: number of flat domain indices.
 */
unsigned int nvpc_sim_nr_domains(const struct nvpc_sim *sim)
{
	return sim->nr_dom;
}

/**
 * nvpc_sim_domain_find() - flat index of a domain
 * @sim: the sim
 * @dset: domain set kind
 * @unit: GPC or partition number (0 otherwise)
 * @index: domain index in the set
 *
 * Flat order: NV10:GF100 the domains; GF100+ hub domains, then each GPC's,
 * then each partition's.
 *
 * Return: the flat index, or -EINVAL.
 */
int nvpc_sim_domain_find(const struct nvpc_sim *sim, enum nvpc_dset dset,
			 unsigned int unit, unsigned int index)
{
	unsigned int i;

	for (i = 0; i < sim->nr_dom; i++)
		if (sim->dom[i].dset == dset && sim->dom[i].unit == unit &&
		    sim->dom[i].index == index)
			return i;
	return -EINVAL;
}

/* ---- misc inputs, callbacks, faults ---- */

/**
 * nvpc_sim_enabled() - whether PCOUNTER is out of reset
 * @sim: the sim
 *
 * Return: false on GF100+ while PMC.ENABLE bit 28 is clear.
 */
bool nvpc_sim_enabled(const struct nvpc_sim *sim)
{
	return !sim->facts->gf100_layout ||
	       (sim->pmc_enable & NVPC_PMC_ENABLE_PCOUNTER);
}

/**
 * nvpc_sim_set_ctrl() - the global/per-set control register of a domain
 * @sim: the sim
 * @d: the domain
 *
 * Return: GCTRL (G84:GF100) or the domain set's control (GF100+), else 0.
 */
u32 nvpc_sim_set_ctrl(const struct nvpc_sim *sim,
		      const struct nvpc_sim_dom *d)
{
	if (sim->facts->gctrl)
		return sim->gctrl;
	if (!sim->facts->gf100_layout)
		return 0;
	if (d->dset == NVPC_DSET_GPC)
		return sim->dset_ctrl[1];
	if (d->dset == NVPC_DSET_PART)
		return sim->dset_ctrl[2];
	return sim->dset_ctrl[0];
}

/**
 * nvpc_sim_rbuf() - the record buffer a domain writes its packets to
 * @sim: the sim
 * @d: the domain
 *
 * G84:GF100 have a buffer per domain (RECORD_START[i] ..., pcounter.rst
 * "Record mode setup"); GF100+ one buffer in the MAIN block (envytools'
 * rnndb gf100_pcounter.xml) that every domain in
 * record mode shares (see "GF100+ record mode" in sim_regs.c).
 *
 * Return: the buffer state.
 */
struct nvpc_sim_rbuf *nvpc_sim_rbuf(struct nvpc_sim *sim,
				    struct nvpc_sim_dom *d)
{
	return sim->facts->gf100_layout ? &sim->gf_rec : &d->hw.rbuf;
}

/**
 * nvpc_sim_record_unbound() - a record packet write faults for want of a bind
 * @sim: the sim
 *
 * G84:GF100 write record packets through the VM of the channel and DMA
 * object bound by RECORD_DMA then RECORD_CHAN (sim_regs.c "DOC: record
 * bind"); without a successful bind the write is a VM fault, counted in
 * &nvpc_sim_stats.unbound_faults. GF100+ need no bind (MAIN CHAN is only
 * stored). Called by the engines when a packet write completes.
 *
 * Return: true if the write faults.
 */
bool nvpc_sim_record_unbound(struct nvpc_sim *sim)
{
	if (!sim->facts->record_bind || sim->record_bound)
		return false;
	sim->stats.unbound_faults++;
	return true;
}

/**
 * nvpc_sim_pm_trigger() - raise the PGRAPH PM_TRIGGER pulse
 * @sim: the sim
 *
 * The pulse is seen for one cycle by the next cycle of every domain, as the
 * PM_TRIGGER trailer signal [NV20:GF100] and as SWAP [NV30:G84]. Also raised
 * by a write of bit 5 to PGRAPH 0x400084.
 */
void nvpc_sim_pm_trigger(struct nvpc_sim *sim)
{
	unsigned int i;

	if (!sim->facts->pm_trigger)
		return;
	nvpc_sim_catch_up(sim);	/* every domain sees the pulse */
	sim->cfg_gen++;		/* PM_TRIGGER may be a counted signal */
	for (i = 0; i < sim->nr_dom; i++) {
		sim->dom[i].hw.pend_pm = 1;
		sim->dom[i].hw.swap_settled = 0;	/* a new trigger */
	}
}

/**
 * nvpc_sim_user_signals() - current USER signal values of a domain
 * @sim: the sim
 * @dom: flat domain index
 *
 * The GT215 USER signals have no documented signal id; this shows them.
 *
 * Return: bit n = USER_n.
 */
u32 nvpc_sim_user_signals(const struct nvpc_sim *sim, unsigned int dom)
{
	/* a lazy domain has no USER pulse pending: its values stand still */
	return dom < sim->nr_dom ? sim->dom[dom].hw.user_value : 0;
}

/**
 * nvpc_sim_set_mem_write() - set the record-mode memory write callback
 * @sim: the sim
 * @fn: the callback (NULL: writes succeed and are discarded)
 * @ctx: its context
 */
void nvpc_sim_set_mem_write(struct nvpc_sim *sim, nvpc_sim_mem_write_t fn,
			    void *ctx)
{
	sim->mem_write = fn;
	sim->mem_ctx = ctx;
}

/**
 * nvpc_sim_set_record_latency() - set the record-mode memory write latency
 * @sim: the sim
 * @cycles: cycles of a domain from forming a packet to its write
 *	completing (0: the same cycle), as &nvpc_sim_params.record_latency
 *
 * Packets formed from now on complete @cycles later; a packet already
 * outgoing keeps the completion cycle it was given.
 */
void nvpc_sim_set_record_latency(struct nvpc_sim *sim, u32 cycles)
{
	sim->record_latency = cycles;
	sim->record_latency_ns = 0;
	nvpc_sim_apply_latency(sim);
	sim->cfg_gen++;
}

/**
 * nvpc_sim_set_record_latency_ns() - set the record-mode memory write
 *	latency as a time
 * @sim: the sim
 * @ns: nanoseconds from forming a packet to its write completing, in each
 *	domain's own cycles (floor(@ns * clock / 10^9): 287 at 575 MHz for
 *	500 ns, 0 below 2 MHz), as &nvpc_sim_params.record_latency_ns; 0 is
 *	nvpc_sim_set_record_latency(@sim, 0)
 *
 * Packets formed from now on complete that much later; a packet already
 * outgoing keeps the completion cycle it was given.
 */
void nvpc_sim_set_record_latency_ns(struct nvpc_sim *sim, u32 ns)
{
	sim->record_latency = 0;
	sim->record_latency_ns = ns;
	nvpc_sim_apply_latency(sim);
	sim->cfg_gen++;
}

/**
 * nvpc_sim_record_latency() - a domain's record-mode write latency
 * @sim: the sim
 * @dom: flat domain index
 *
 * Return: the cycles of @dom from forming a packet to its write
 * completing, 0 for no such domain.
 */
u32 nvpc_sim_record_latency(const struct nvpc_sim *sim, unsigned int dom)
{
	return dom < sim->nr_dom ? sim->dom[dom].rec_latency : 0;
}

/**
 * nvpc_sim_set_trace() - set the register access trace callback
 * @sim: the sim
 * @fn: the callback, NULL to disable
 * @ctx: its context
 */
void nvpc_sim_set_trace(struct nvpc_sim *sim, nvpc_sim_trace_t fn, void *ctx)
{
	sim->trace = fn;
	sim->trace_ctx = ctx;
}

/**
 * nvpc_sim_get_stats() - read the access statistics
 * @sim: the sim
 * @st: filled in
 */
void nvpc_sim_get_stats(const struct nvpc_sim *sim, struct nvpc_sim_stats *st)
{
	*st = sim->stats;
}

/**
 * nvpc_sim_fault_record() - make the next record write of a domain fault
 * @sim: the sim
 * @dom: flat domain index
 */
void nvpc_sim_fault_record(struct nvpc_sim *sim, unsigned int dom)
{
	if (dom < sim->nr_dom) {
		nvpc_sim_catch_up_range(sim, dom, 1);
		sim->dom[dom].hw.rec_fault_inject = 1;
	}
}

/**
 * nvpc_sim_fault_lost_swaps() - double the next swaps of a domain
 * @sim: the sim
 * @dom: flat domain index
 * @count: how many swaps bump QUAD_STATE twice (forcing OVERFLOW from
 *	VALID; the counter values of the first swap are kept)
 */
void nvpc_sim_fault_lost_swaps(struct nvpc_sim *sim, unsigned int dom,
			       u32 count)
{
	if (dom < sim->nr_dom) {
		nvpc_sim_catch_up_range(sim, dom, 1);
		sim->dom[dom].lost_swaps = count;
	}
}

/* the counters by the names of pcounter.rst "Quad event mode" */
static const char * const nvpc_sim_ctr_names[NVPC_SIM_NR_CTRS] = {
	[NVPC_SIM_CTR_CYCLES] = "cycles",
	[NVPC_SIM_CTR_CYCLES_ALT] = "cycles_alt",
	[NVPC_SIM_CTR_EVENT] = "event",
	[NVPC_SIM_CTR_START] = "start",
	[NVPC_SIM_CTR_PRE] = "pre",
	[NVPC_SIM_CTR_STOP] = "stop",
};

/**
 * nvpc_sim_ctr_mask() - a counter by name, for nvpc_sim_fault_keep()
 * @name: cycles, cycles_alt, pre, start, event or stop
 *
 * Return: the counter's bit, or -EINVAL for another name.
 */
int nvpc_sim_ctr_mask(const char *name)
{
	unsigned int i;

	for (i = 0; i < NVPC_SIM_NR_CTRS; i++)
		if (!strcmp(name, nvpc_sim_ctr_names[i]))
			return BIT(i);
	return -EINVAL;
}

/**
 * nvpc_sim_fault_keep() - counters a swap does not clear
 * @sim: the sim
 * @dom: flat domain index
 * @ctrs: bit per &enum nvpc_sim_ctr: a swap still copies the counter to
 *	its visible register but leaves it counting from its value (0: every
 *	counter cleared, as documented)
 */
void nvpc_sim_fault_keep(struct nvpc_sim *sim, unsigned int dom, u8 ctrs)
{
	if (dom < sim->nr_dom) {
		nvpc_sim_catch_up_range(sim, dom, 1);
		sim->dom[dom].keep_ctrs = ctrs;
	}
}

/**
 * nvpc_sim_fault_no_swap() - swaps that never land
 * @sim: the sim
 * @dom: flat domain index
 * @on: while true, a swap of the domain does nothing: the visible
 *	counters keep their values and QUAD_STATE is not bumped
 */
void nvpc_sim_fault_no_swap(struct nvpc_sim *sim, unsigned int dom, bool on)
{
	if (dom < sim->nr_dom) {
		nvpc_sim_catch_up_range(sim, dom, 1);
		sim->dom[dom].no_swap = on;
	}
}

/**
 * nvpc_sim_fault_stuck() - make reads of an address return a fixed value
 * @sim: the sim
 * @addr: BAR0 address
 * @val: the value reads return
 *
 * Return: 0, or -ENOSPC if NVPC_SIM_MAX_STUCK addresses are stuck already.
 */
int nvpc_sim_fault_stuck(struct nvpc_sim *sim, u32 addr, u32 val)
{
	unsigned int i;

	for (i = 0; i < sim->nr_stuck; i++) {
		if (sim->stuck_addr[i] == addr) {
			sim->stuck_val[i] = val;
			return 0;
		}
	}
	if (sim->nr_stuck >= NVPC_SIM_MAX_STUCK)
		return -ENOSPC;
	sim->stuck_addr[sim->nr_stuck] = addr;
	sim->stuck_val[sim->nr_stuck] = val;
	sim->nr_stuck++;
	return 0;
}

/**
 * nvpc_sim_fault_clear_stuck() - unstick every address
 * @sim: the sim
 */
void nvpc_sim_fault_clear_stuck(struct nvpc_sim *sim)
{
	sim->nr_stuck = 0;
}

/**
 * nvpc_sim_fault_all_ones() - make every read return 0xffffffff
 * @sim: the sim
 * @on: enable
 *
 * Writes keep working.
 */
void nvpc_sim_fault_all_ones(struct nvpc_sim *sim, bool on)
{
	sim->all_ones = on;
}

/**
 * nvpc_sim_fault_removed() - remove or re-insert the device
 * @sim: the sim
 * @on: removed
 *
 * While removed, reads return NVPC_SIM_RD_REMOVED and writes are dropped.
 */
void nvpc_sim_fault_removed(struct nvpc_sim *sim, bool on)
{
	sim->removed = on;
}
