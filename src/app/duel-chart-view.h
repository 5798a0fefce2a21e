/* duel-chart-view.h — a widget that draws one DuelChart, the exporters' own drawing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "duel-chart.h"
#include "duel-types.h"

G_BEGIN_DECLS

#define DUEL_TYPE_CHART_VIEW (duel_chart_view_get_type ())

G_DECLARE_FINAL_TYPE (DuelChartView, duel_chart_view, DUEL, CHART_VIEW, GtkWidget)

GtkWidget *duel_chart_view_new          (void);
DuelChart *duel_chart_view_get_chart    (DuelChartView *self);
void       duel_chart_view_set_chart    (DuelChartView *self,
                                         DuelChart     *chart);
/* "auto" follows the desktop's dark mode with the theme's colours; "light"
 * and "dark" are the export styles as they are. */
void       duel_chart_view_set_settings (DuelChartView *self,
                                         GSettings     *settings);
/* Drops the cached drawing: call after the chart's data or options changed. */
void       duel_chart_view_invalidate   (DuelChartView *self);
/* The style the chart is drawn with now (for exports "as shown"). */
const DuelChartStyle *duel_chart_view_get_style (DuelChartView *self);

G_END_DECLS
