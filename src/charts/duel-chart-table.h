/* duel-chart-table.h — the comparison table as an image for articles
 *
 * Identity first, then every figure of every common test, both values, the
 * difference, and the winner's cell highlighted; vendor ratings in their own
 * columns when a result carries them; fairness warnings as notes below.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-chart.h"

G_BEGIN_DECLS

#define DUEL_TYPE_CHART_TABLE (duel_chart_table_get_type ())

DUEL_DECLARE_CHART_TYPE (DuelChartTable, duel_chart_table, DUEL, CHART_TABLE)

DuelChart *duel_chart_table_new                (DuelComparison *comparison);
/* The height the whole table needs at @width without shrinking its text. */
double     duel_chart_table_get_natural_height (DuelChartTable *self,
                                                double          width);
/* Lines of the table (section headings and rows), for paging. */
guint      duel_chart_table_get_n_lines        (DuelChartTable *self);
/* Draws lines from @first_line on, as many as fit in @height at full size
 * (the column headings repeat), and returns the first line left out. */
guint      duel_chart_table_draw_page          (DuelChartTable *self,
                                                cairo_t        *cr,
                                                double          width,
                                                double          height,
                                                guint           first_line);

G_END_DECLS
