/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Freestanding basics for code shared by the kernel modules and the host
 * unit tests (the sim model, the chip catalogue, the register map): the
 * kernel's own headers when built in the kernel, minimal equivalents with
 * the same names otherwise.
 */
#ifndef _NVPCOUNTER_COMPAT_H
#define _NVPCOUNTER_COMPAT_H

#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/bitfield.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <linux/types.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;

#ifndef BIT
#define BIT(n)			(1UL << (n))
#endif
#ifndef BIT_ULL
#define BIT_ULL(n)		(1ULL << (n))
#endif
#ifndef GENMASK
#define GENMASK(h, l)		(((~0UL) >> (63 - (h))) & ((~0UL) << (l)))
#endif
#ifndef GENMASK_ULL
#define GENMASK_ULL(h, l)	(((~0ULL) >> (63 - (h))) & ((~0ULL) << (l)))
#endif
#ifndef FIELD_GET
#define FIELD_GET(mask, reg)	\
	((typeof(mask))(((reg) & (mask)) >> __builtin_ctzll(mask)))
#endif
#ifndef FIELD_PREP
#define FIELD_PREP(mask, val)	\
	((typeof(mask))(((typeof(mask))(val) << __builtin_ctzll(mask)) & (mask)))
#endif
/* exports of shared code mean nothing outside the kernel */
#ifndef EXPORT_SYMBOL_GPL
#define EXPORT_SYMBOL_GPL(sym)	extern int nvpc_unused_export_
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif
#endif /* __KERNEL__ */

#endif /* _NVPCOUNTER_COMPAT_H */
