/* ssd-shapes.h — the simulated SSD's named shapes (docs/ssd-model.md)
 *
 * One table for the FUSE server (duel-ssd-model --shape) and the
 * virtual-time test (test-ssd-virtual), so both run the same drives.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ssd-ftl.h"

G_BEGIN_DECLS

typedef struct
{
  const char *name;
  const char *what;
  SsdConfig   config;      /* cache_bytes is 0 here: cache_pct sets it */
  double      cache_pct;   /* of capacity */
  double      slc_static_pct;   /* the pseudo-SLC cache's parts, of capacity (config.slc_bits > 0) */
  double      slc_dynamic_pct;
} SsdShape;

guint           ssd_shape_count  (void);
const SsdShape *ssd_shape_get    (guint       index);
/* NULL when there is no shape called @name. */
const SsdShape *ssd_shape_lookup (const char *name);
/* The shape's configuration at @capacity_bytes, its caches sized from the percentages. */
void            ssd_shape_config (const SsdShape *shape,
                                  guint64         capacity_bytes,
                                  SsdConfig      *out);

G_END_DECLS
