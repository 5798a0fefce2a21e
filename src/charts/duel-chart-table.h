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
/* The heading of the first test's figures, after the headline and the
 * drives' identity (0 when there is none such). */
guint      duel_chart_table_get_first_figure_line (DuelChartTable *self);
/* Draws lines from @first_line on, as many as fit in @height at full size
 * (the column headings repeat), and returns the first line left out. */
guint      duel_chart_table_draw_page          (DuelChartTable *self,
                                                cairo_t        *cr,
                                                double          width,
                                                double          height,
                                                guint           first_line);
/* As duel_chart_table_draw_page(); @out_used_height gets the height it
 * filled (the units of @cr), notes included when the last line was drawn. */
guint      duel_chart_table_draw_page_full     (DuelChartTable *self,
                                                cairo_t        *cr,
                                                double          width,
                                                double          height,
                                                guint           first_line,
                                                double         *out_used_height);

/* Where to split the table into images of at most @max_height each at
 * @width, framed as duel_chart_draw() frames it (title and column headings
 * on every part, the notes under the last): the first line of each part,
 * then the number of lines. Parts end before a section heading where one
 * is near enough. Free with g_array_unref(). */
GArray    *duel_chart_table_split              (DuelChartTable *self,
                                                double          width,
                                                double          max_height);
/* From now on, duel_chart_draw(), the natural height and the title are those
 * of part @part (from 0) of @n_parts, lines @first_line to @end_line
 * (excluded); @n_parts 0 or 1 is the whole table again. */
void       duel_chart_table_set_part           (DuelChartTable *self,
                                                guint           part,
                                                guint           n_parts,
                                                guint           first_line,
                                                guint           end_line);

G_END_DECLS
