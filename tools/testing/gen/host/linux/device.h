/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-in for the kernel's <linux/device.h>: a struct device and
 * dev_info(), which the host test backend (gen_host.c) collects.
 */
#ifndef _GEN_HOST_LINUX_DEVICE_H
#define _GEN_HOST_LINUX_DEVICE_H

struct device {
	const char *name;
};

void host_dev_printk(const struct device *dev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define dev_info(dev, fmt, ...)	host_dev_printk(dev, fmt, ##__VA_ARGS__)

#endif /* _GEN_HOST_LINUX_DEVICE_H */
