/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in for the kernel's <linux/kernel.h>: snprintf(). */
#ifndef _GEN_HOST_LINUX_KERNEL_H
#define _GEN_HOST_LINUX_KERNEL_H

#include <stdio.h>

#endif /* _GEN_HOST_LINUX_KERNEL_H */
