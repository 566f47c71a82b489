// SPDX-License-Identifier: GPL-2.0
/*
 * nvpcounter_sim: the one libgcc helper the model needs. The freestanding
 * model counts bits with __builtin_popcountll(), which gcc turns into a
 * call to __popcountdi2 when the kernel's flags do not allow the POPCNT
 * instruction; the kernel has no libgcc, so the module brings its own.
 */

#include <linux/bitops.h>
#include <linux/types.h>

int __popcountdi2(unsigned long long x);

/**
 * __popcountdi2() - number of bits set in a 64-bit value
 * @x: the value
 *
 * Return: the population count of @x.
 */
int __popcountdi2(unsigned long long x)
{
	return hweight64(x);
}
