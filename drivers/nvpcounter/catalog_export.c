// SPDX-License-Identifier: GPL-2.0
/*
 * The chip catalogue (catalog/) is freestanding code shared with the host
 * tests; the modules reach it through these exports.
 */

#include <linux/export.h>

#include <nvpcounter/catalog.h>

EXPORT_SYMBOL_GPL(nvpc_catalog_nr_chips);
EXPORT_SYMBOL_GPL(nvpc_catalog_chip);
EXPORT_SYMBOL_GPL(nvpc_catalog_find);
EXPORT_SYMBOL_GPL(nvpc_catalog_gen_name);
EXPORT_SYMBOL_GPL(nvpc_catalog_dset_name);
EXPORT_SYMBOL_GPL(nvpc_catalog_nr_domains);
EXPORT_SYMBOL_GPL(nvpc_catalog_domain);
EXPORT_SYMBOL_GPL(nvpc_catalog_trailer_id);
EXPORT_SYMBOL_GPL(nvpc_catalog_nr_signals);
EXPORT_SYMBOL_GPL(nvpc_catalog_signal);
EXPORT_SYMBOL_GPL(nvpc_catalog_signal_find);
