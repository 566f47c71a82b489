/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PCI backend (pci.c): real NVIDIA GPUs found on the PCI bus. The core
 * module starts it once its registry is up and stops it before the
 * registry goes away.
 */
#ifndef _NVPC_PCI_H
#define _NVPC_PCI_H

struct dentry;

void nvpc_pci_init(struct dentry *debugfs);
void nvpc_pci_exit(void);

#endif /* _NVPC_PCI_H */
