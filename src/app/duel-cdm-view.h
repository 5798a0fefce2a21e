/* duel-cdm-view.h — the CrystalDiskMark set as CrystalDiskMark shows it
 *
 * The grid of duel-cdm-grid.h: a row per step in CrystalDiskMark's notation,
 * a Read and a Write column per drive, each value in big figures with its
 * best-of-N line under it; a units switch (MB/s, IOPS, µs, as
 * CrystalDiskMark 8's) and "Copy as Text" / "Copy as Markdown" for a forum.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "analysis/duel-cdm-grid.h"
#include "analysis/duel-comparison.h"
#include "duel-types.h"

G_BEGIN_DECLS

#define DUEL_TYPE_CDM_VIEW (duel_cdm_view_get_type ())

G_DECLARE_FINAL_TYPE (DuelCdmView, duel_cdm_view, DUEL, CDM_VIEW, GtkWidget)

/* NULL when no drive of @comparison ran a step of the set. */
GtkWidget   *duel_cdm_view_new       (DuelComparison *comparison);
DuelCdmGrid *duel_cdm_view_get_grid  (DuelCdmView    *self);
DuelCdmUnit  duel_cdm_view_get_unit  (DuelCdmView    *self);
void         duel_cdm_view_set_unit  (DuelCdmView    *self,
                                      DuelCdmUnit     unit);

G_END_DECLS
