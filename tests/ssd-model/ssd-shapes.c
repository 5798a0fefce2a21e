/* ssd-shapes.c — the simulated SSD's named shapes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "ssd-shapes.h"

static const SsdShape shapes[] = {
  { "falls", "Intel SSD 750-like: high start from the write cache, cliff when it is used up, "
             "GC plateau after about one capacity",
    { "falls", 256 << 20, 12.0, 64, 4, 60000, 700000, 250000, 3000000, 0, 2, 0.0, 2000000,
      SSD_INITIAL_FRESH }, 20.0 },
  { "rises", "Plextor M8PeG-like: a used, trimmed drive; the erase backlog holds early writes "
             "back, they speed up when it is gone, then fall with GC",
    { "rises", 256 << 20, 7.0, 64, 4, 60000, 250000, 250000, 2000000, 0, 2, 29.0, 2000000,
      SSD_INITIAL_TRIMMED_USED }, 0.0 },
  { "flat", "No cache, no backlog, plenty of spare area: nearly flat",
    { "flat", 256 << 20, 100.0, 64, 4, 60000, 500000, 500000, 3000000, 0, 2, 0.0, 2000000,
      SSD_INITIAL_FRESH }, 0.0 },
  /* At real drives' speeds (docs/ssd-model.md): for the sustained
   * sequential write in virtual time, faster than FUSE serves here. */
  { "slc-tlc", "TLC drive with a pseudo-SLC cache: 3.3 GB/s in the cache (a third of the free space, "
               "30 % of capacity at most), 1.3 GB/s after it, 0.8 GB/s while folding",
    { "slc-tlc", 1u << 30, 12.0, 64, 8, 8000, 25000, 10000, 1000000, 0, 2, 0.0, 2000000,
      SSD_INITIAL_FRESH, 3, 0, 0, TRUE }, 0.0, 1.0, 30.0 },
  { "slc-qlc", "QLC drive with a pseudo-SLC cache: 1.8 GB/s in the cache (a quarter of the free space, "
               "20 % of capacity at most), 130 MB/s after it, under 100 MB/s while folding",
    { "slc-qlc", 1u << 30, 12.0, 64, 8, 15000, 250000, 18000, 3000000, 0, 2, 0.0, 2000000,
      SSD_INITIAL_FRESH, 4, 0, 0, TRUE }, 0.0, 1.0, 20.0 },
};

guint
ssd_shape_count (void)
{
  return G_N_ELEMENTS (shapes);
}

const SsdShape *
ssd_shape_get (guint index)
{
  g_return_val_if_fail (index < G_N_ELEMENTS (shapes), NULL);

  return &shapes[index];
}

const SsdShape *
ssd_shape_lookup (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    if (strcmp (shapes[i].name, name) == 0)
      return &shapes[i];
  return NULL;
}

void
ssd_shape_config (const SsdShape *shape,
                  guint64         capacity_bytes,
                  SsdConfig      *out)
{
  *out = shape->config;
  out->capacity_bytes = capacity_bytes;
  out->cache_bytes = (guint64) (capacity_bytes * shape->cache_pct / 100.0) / SSD_PAGE_SIZE * SSD_PAGE_SIZE;
  out->slc_static_bytes = (guint64) (capacity_bytes * shape->slc_static_pct / 100.0) / SSD_PAGE_SIZE * SSD_PAGE_SIZE;
  out->slc_dynamic_bytes = (guint64) (capacity_bytes * shape->slc_dynamic_pct / 100.0) / SSD_PAGE_SIZE * SSD_PAGE_SIZE;
}
