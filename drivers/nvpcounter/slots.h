/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The slot allocator (slots.c): which of a domain's four inputs an event
 * takes, the checks of a counting event's config, and the _SRC/_OP
 * shadows it wants. Pure bookkeeping on slot tables and shadows: the live
 * tables of the engine and group validation's throwaway copies alike.
 * Sees the engine and its domains only by pointer.
 */
#ifndef _NVPC_SLOTS_H
#define _NVPC_SLOTS_H

#include "gen.h"

struct nvpc_domain;
struct nvpc_engine;
struct perf_event;

/**
 * struct nvpc_slots - what occupies a domain's four inputs
 * @ev: the event claiming each slot, or NULL
 * @mode: the counter mode the domain's events need (NVPC_MODE_*)
 *
 * The live tables and group validation's throwaway copies have this same
 * shape, so that one allocator serves both.
 */
struct nvpc_slots {
	struct perf_event *ev[NVPC_NR_SLOTS];
	u8 mode;
};

int nvpc_engine_check(struct nvpc_engine *eng, struct nvpc_domain *dom,
		      struct perf_event *event);
int nvpc_check_sigs(struct nvpc_engine *eng, struct nvpc_domain *dom,
		    u64 config);
int nvpc_slot_alloc(struct nvpc_engine *eng, struct nvpc_slots *tables,
		    struct nvpc_domain *dom, struct perf_event *event,
		    unsigned long *claimed, unsigned long prefer);
void nvpc_slot_free(struct nvpc_slots *t, struct perf_event *event);
void nvpc_slot_regs(struct nvpc_engine *eng, struct nvpc_domain *dom,
		    struct perf_event *event);
u8 nvpc_ctr_mode(struct nvpc_engine *eng, struct nvpc_domain *dom);
bool nvpc_slots_programmed(struct nvpc_domain *dom, unsigned long claims);
bool nvpc_slot_sets_mode(struct perf_event *event);

#endif /* _NVPC_SLOTS_H */
