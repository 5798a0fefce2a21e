/* duel-chart-legend.h — the key of a chart: a mark and a label per entry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "duel-chart-style.h"

G_BEGIN_DECLS

typedef enum
{
  DUEL_CHART_MARK_LINE,      /* a measured curve */
  DUEL_CHART_MARK_DASH,      /* a level: mean, 99.9 % slowest, ceiling */
  DUEL_CHART_MARK_MARKER,    /* published sparse points */
  DUEL_CHART_MARK_DOT,       /* a scatter */
  DUEL_CHART_MARK_BOX,       /* a bar */
} DuelChartMark;

typedef struct _DuelChartLegend DuelChartLegend;

DuelChartLegend *duel_chart_legend_new      (void);
void             duel_chart_legend_free     (DuelChartLegend      *legend);
void             duel_chart_legend_add      (DuelChartLegend      *legend,
                                             DuelChartMark         mark,
                                             const DuelChartColor *color,
                                             const char           *label);
guint            duel_chart_legend_get_n_entries (DuelChartLegend *legend);
/* The height the entries take when wrapped to @max_width. */
double           duel_chart_legend_measure  (DuelChartLegend      *legend,
                                             cairo_t              *cr,
                                             const DuelChartStyle *style,
                                             double                max_width);
/* Draws the entries in rows, centred within [x, x + max_width]. */
void             duel_chart_legend_draw     (DuelChartLegend      *legend,
                                             cairo_t              *cr,
                                             const DuelChartStyle *style,
                                             double                x,
                                             double                y,
                                             double                max_width);
/* One mark, also used for points on the plot. */
void             duel_chart_draw_mark       (cairo_t              *cr,
                                             const DuelChartStyle *style,
                                             DuelChartMark         mark,
                                             const DuelChartColor *color,
                                             double                cx,
                                             double                cy,
                                             double                size);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelChartLegend, duel_chart_legend_free)

G_END_DECLS
