// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter sim: record mode's packets, one place for both engines (the
 * fast one of sim_fast.h and sim_oracle.c): forming a packet from the
 * record counters and writing it to the buffer (pcounter.rst "Record
 * mode", "Record mode setup"). The engines differ only in when they call
 * these: cycle by cycle, or from a chunk's cycle.
 */
#include "sim_internal.h"

/**
 * nvpc_sim_record_form() - form a domain's record packet
 * @d: the domain, with no packet outgoing and a valid buffer
 * @cycle: the domain cycle in which the packet forms
 *
 * "Record mode": the packet holds the 48-bit cycle counter, the STOP
 * counter and the event counters, 16 little-endian half-words; the event
 * and STOP counters restart. It is on its way to memory for
 * &nvpc_sim_dom.rec_latency cycles, then nvpc_sim_record_write() lands it.
 */
void nvpc_sim_record_form(struct nvpc_sim_dom *d, u64 cycle)
{
	struct nvpc_sim_hw *hw = &d->hw;
	unsigned int i;
	u16 w[16];

	w[0] = hw->rec_cycles;
	w[1] = hw->rec_cycles >> 16;
	w[2] = hw->rec_cycles >> 32;
	w[3] = hw->rec_stop;
	for (i = 0; i < NVPC_RECORD_NR_EVENTS; i++)
		w[4 + i] = hw->rec_ev[i];
	for (i = 0; i < 16; i++) {
		hw->rec_pkt[2 * i] = w[i] & 0xff;
		hw->rec_pkt[2 * i + 1] = w[i] >> 8;
	}
	memset(hw->rec_ev, 0, sizeof(hw->rec_ev));
	hw->rec_stop = 0;
	hw->rec_len = hw->rec_short ? NVPC_RECORD_PACKET_SHORT :
				      NVPC_RECORD_PACKET_LONG;
	hw->rec_out = 1;
	hw->rec_due = cycle + d->rec_latency;
}

/**
 * nvpc_sim_record_write() - write a domain's outgoing record packet
 * @sim: the model
 * @d: the domain, its packet due
 *
 * Also &nvpc_sim_engine.land of both engines. A write that faults wedges
 * the domain for good; a packet written at or beyond LIMIT ends the
 * buffer.
 */
void nvpc_sim_record_write(struct nvpc_sim *sim, struct nvpc_sim_dom *d)
{
	struct nvpc_sim_hw *hw = &d->hw;
	struct nvpc_sim_rbuf *b = nvpc_sim_rbuf(sim, d);
	u64 va = b->pos;
	int fault;

	/* GF100+ (sim_regs.c "GF100+ record mode"): another domain's packet
	 * hit LIMIT while this one was outgoing: "all further writes will be
	 * ignored" (pcounter.rst "Record mode setup"). Unreachable before
	 * GF100: a domain's own buffer only goes invalid by its own write.
	 */
	if (!b->valid) {
		hw->rec_out = 0;
		return;
	}
	/* "Record mode setup": 32-bit position, high 8 bits from G92 on */
	if (sim->facts->rec_addr_high)
		va |= (u64)b->addr_high << 32;
	fault = hw->rec_fault_inject;
	hw->rec_fault_inject = 0;
	/* "Record mode setup": the VM of the bound channel, if any
	 * (sim_regs.c "DOC: record bind")
	 */
	if (!fault && nvpc_sim_record_unbound(sim))
		fault = 1;
	if (!fault && sim->mem_write)
		fault = sim->mem_write(sim->mem_ctx, va, hw->rec_pkt,
				       hw->rec_len);
	if (fault) {
		/* the domain hangs for good: the packet never leaves */
		b->fault = 1;
		hw->rec_wedged = 1;
		return;
	}
	hw->rec_out = 0;
	if (b->pos >= b->limit)
		b->valid = 0;
	b->pos += hw->rec_len;
	b->count++;
	sim->stats.record_cycle_packets++;
}
