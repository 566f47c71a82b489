/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Record packets for the host tests of tools/nvpc, written by hand.
 */
#ifndef NVPC_TEST_PACKET_H
#define NVPC_TEST_PACKET_H

#include <stdint.h>

#include <linux/nvpcounter.h>

/* one packet of len bytes: the uapi layout, 16-bit little-endian words */
static inline void pkt(uint8_t *b, unsigned int len, uint64_t cycles,
		       unsigned int stop, const uint16_t *ctr, unsigned int n)
{
	uint16_t w[16] = {
		cycles & 0xffff, (cycles >> 16) & 0xffff,
		(cycles >> 32) & 0xffff, stop & NVPC_PKT_STOP_MASK,
	};

	for (unsigned int i = 0; i < n; i++)
		w[NVPC_PKT_W_CTR0 + i] = ctr[i];
	for (unsigned int i = 0; i < len / 2; i++) {
		b[2 * i] = w[i] & 0xff;
		b[2 * i + 1] = w[i] >> 8;
	}
}

#endif /* NVPC_TEST_PACKET_H */
