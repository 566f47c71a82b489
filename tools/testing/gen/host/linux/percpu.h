/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-in for the kernel's <linux/percpu.h>: <nvpcounter/device.h>
 * declares the engine lock's per-CPU counts, which the host never uses.
 */
#ifndef _GEN_HOST_LINUX_PERCPU_H
#define _GEN_HOST_LINUX_PERCPU_H

#define DECLARE_PER_CPU(type, name)	extern type name

#endif /* _GEN_HOST_LINUX_PERCPU_H */
