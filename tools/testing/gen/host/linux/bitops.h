/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-in for the kernel's <linux/bitops.h>: the bit helpers the
 * generation code (drivers/nvpcounter/gen*.c) uses, nothing more.
 */
#ifndef _GEN_HOST_LINUX_BITOPS_H
#define _GEN_HOST_LINUX_BITOPS_H

#include <nvpcounter/compat.h>

#define BITS_PER_LONG		(8 * (int)sizeof(long))

/* the lowest set bit of @word, which is not 0 */
static inline unsigned long __ffs(unsigned long word)
{
	return __builtin_ctzl(word);
}

static inline unsigned int hweight32(u32 w)
{
	return __builtin_popcount(w);
}

/* the first bit set in @addr at or after @bit, or @size */
static inline unsigned long host_next_bit(const unsigned long *addr,
					  unsigned long size,
					  unsigned long bit)
{
	for (; bit < size; bit++)
		if (addr[bit / BITS_PER_LONG] & (1UL << (bit % BITS_PER_LONG)))
			return bit;
	return size;
}

#define for_each_set_bit(bit, addr, size)				\
	for ((bit) = host_next_bit((addr), (size), 0); (bit) < (size);	\
	     (bit) = host_next_bit((addr), (size), (bit) + 1))

#endif /* _GEN_HOST_LINUX_BITOPS_H */
