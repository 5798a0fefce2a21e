/* duel-comparison-view.h — drive A against drive B: a tab per chart and the table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "analysis/duel-comparison.h"
#include "duel-result-item.h"
#include "duel-types.h"

G_BEGIN_DECLS

#define DUEL_TYPE_COMPARISON_VIEW (duel_comparison_view_get_type ())

G_DECLARE_FINAL_TYPE (DuelComparisonView, duel_comparison_view, DUEL, COMPARISON_VIEW, AdwBin)

/* DuelResultItem to choose drive A and B from. */
void            duel_comparison_view_set_sources       (DuelComparisonView *self,
                                                        GListModel         *sources);
void            duel_comparison_view_set_settings      (DuelComparisonView *self,
                                                        GSettings          *settings);
/* @slot: 0 for drive A, 1 for B, 2 and 3 for the optional C and D; @item may be NULL. */
void            duel_comparison_view_set_item          (DuelComparisonView *self,
                                                        guint               slot,
                                                        DuelResultItem     *item);
DuelResultItem *duel_comparison_view_get_item          (DuelComparisonView *self,
                                                        guint               slot);
void            duel_comparison_view_swap              (DuelComparisonView *self);
/* NULL while no drive is chosen. */
DuelComparison *duel_comparison_view_get_comparison    (DuelComparisonView *self);
/* The tab: a chart id ("write-curve", "consistency", "qos", "standard") or "table". */
void            duel_comparison_view_set_visible_tab   (DuelComparisonView *self,
                                                        const char         *name);
const char     *duel_comparison_view_get_visible_tab   (DuelComparisonView *self);
/* The charts shown, in tab order (DuelChart). */
GPtrArray      *duel_comparison_view_get_charts        (DuelComparisonView *self);
/* Rows of the table as shown (for tests): figure rows with a winner. */
guint           duel_comparison_view_get_n_winner_rows (DuelComparisonView *self);
/* Rows of the headline above the table: the review's own figures. */
guint           duel_comparison_view_get_n_headline_rows (DuelComparisonView *self);

G_END_DECLS
