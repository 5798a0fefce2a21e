/* duel-chart-labels.h — value labels that never overlap and never leave the plot
 *
 * A chart adds its labels (text, colour, the point they belong to, the side
 * it prefers) and the areas they must not cover (marks), then draws them all
 * at once. Each label takes the first place, in a fixed order of candidates,
 * that lies inside the bounds and clear of everything placed before it: its
 * preferred side of the point, the opposite side, left and right, then
 * steps away from the point along the preferred side, with a leader line
 * back to it. A label that fits nowhere is left out rather than drawn over
 * another: the figure is in the table and the CSV. Deterministic: the same
 * labels in the same order give the same places.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>

#include "duel-chart-axes.h"
#include "duel-chart-style.h"

G_BEGIN_DECLS

typedef enum
{
  DUEL_CHART_LABEL_ABOVE,
  DUEL_CHART_LABEL_BELOW,
  DUEL_CHART_LABEL_LEFT,
  DUEL_CHART_LABEL_RIGHT,
} DuelChartLabelSide;

typedef struct _DuelChartLabels DuelChartLabels;

DuelChartLabels *duel_chart_labels_new    (const DuelChartRect  *bounds);
void             duel_chart_labels_free   (DuelChartLabels      *labels);
/* An area no label may cover (a mark, a legend). */
void             duel_chart_labels_avoid  (DuelChartLabels      *labels,
                                           const DuelChartRect  *area);
void             duel_chart_labels_add    (DuelChartLabels      *labels,
                                           const char           *text,
                                           const DuelChartColor *color,
                                           double                x,
                                           double                y,
                                           DuelChartLabelSide    side);
/* Places and draws every label, in the order added. */
void             duel_chart_labels_draw   (DuelChartLabels      *labels,
                                           cairo_t              *cr,
                                           const DuelChartStyle *style);
/* After drawing: the boxes of the labels drawn, and how many were left out. */
GArray          *duel_chart_labels_get_boxes     (DuelChartLabels *labels);   /* DuelChartRect */
guint            duel_chart_labels_get_n_dropped (DuelChartLabels *labels);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelChartLabels, duel_chart_labels_free)

G_END_DECLS
