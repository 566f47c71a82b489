/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in for the kernel's <linux/build_bug.h>: static_assert(). */
#ifndef _GEN_HOST_LINUX_BUILD_BUG_H
#define _GEN_HOST_LINUX_BUILD_BUG_H

/* the kernel's form: the message is optional */
#undef static_assert
#define static_assert(expr, ...) _Static_assert(expr, #expr)

#endif /* _GEN_HOST_LINUX_BUILD_BUG_H */
