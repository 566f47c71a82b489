/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in for the kernel's <linux/compiler.h>: nothing is needed. */
#ifndef _GEN_HOST_LINUX_COMPILER_H
#define _GEN_HOST_LINUX_COMPILER_H
#endif /* _GEN_HOST_LINUX_COMPILER_H */
