/* duel-chart-line.h — one data series of a chart, reduced to pixels off the draw path
 *
 * Points are appended in order of x. Drawing reduces them to one column per
 * device pixel (first, minimum, maximum and last value of the column), so a
 * million points cost a few thousand path segments and no spike is lost. The
 * reduction is cached and only redone when the x range or the width changes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "duel-chart-axes.h"

G_BEGIN_DECLS

typedef struct _DuelChartLine DuelChartLine;

DuelChartLine *duel_chart_line_new           (void);
void           duel_chart_line_free          (DuelChartLine       *line);
/* @x must not decrease; a NAN @y leaves a gap. */
void           duel_chart_line_append        (DuelChartLine       *line,
                                              double               x,
                                              double               y);
guint          duel_chart_line_get_length    (const DuelChartLine *line);
/* Pre-reduces a long series once all points are in (call it where the data
 * is built, not while drawing): later draws of the whole extent at any width
 * then cost a pass over 65536 buckets instead of every point. */
void           duel_chart_line_prepare       (DuelChartLine       *line);
const double  *duel_chart_line_get_x         (const DuelChartLine *line);
const double  *duel_chart_line_get_y         (const DuelChartLine *line);
/* The extent of the finite points; FALSE when there are none. A positive
 * @out_y_min_positive helps log axes. */
gboolean       duel_chart_line_get_extent    (const DuelChartLine *line,
                                              double              *out_x_min,
                                              double              *out_x_max,
                                              double              *out_y_min,
                                              double              *out_y_max,
                                              double              *out_y_min_positive);
/* The y value at @x, interpolated between neighbours; NAN outside. */
double         duel_chart_line_value_at      (const DuelChartLine *line,
                                              double               x);
/* The mean of the finite y values whose x lies in [x_from, x_to]. */
double         duel_chart_line_mean_between  (const DuelChartLine *line,
                                              double               x_from,
                                              double               x_to);

/* Appends the reduced polyline to @cr's path (the caller strokes), one
 * vertical run per device-pixel column. Points outside @x's range are skipped. */
void           duel_chart_line_append_path   (DuelChartLine       *line,
                                              cairo_t             *cr,
                                              const DuelChartAxis *x,
                                              const DuelChartAxis *y,
                                              const DuelChartRect *plot);
/* Draws the line in the current source at @line_width: a stroke (which
 * honours a dash) while few pixel columns hold several points, else per
 * column a filled bar from its minimum to its maximum joined to the next
 * column, as one filled path: stroking thousands of overlapping segments is
 * far slower than filling them. */
void           duel_chart_line_draw          (DuelChartLine       *line,
                                              cairo_t             *cr,
                                              const DuelChartAxis *x,
                                              const DuelChartAxis *y,
                                              const DuelChartRect *plot,
                                              double               line_width);
/* Appends one square dot of @dot_size (user units) per occupied dot-sized
 * cell, so overlapping points of a dense scatter cost one rectangle. */
void           duel_chart_line_append_scatter(DuelChartLine       *line,
                                              cairo_t             *cr,
                                              const DuelChartAxis *x,
                                              const DuelChartAxis *y,
                                              const DuelChartRect *plot,
                                              double               dot_size);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelChartLine, duel_chart_line_free)

G_END_DECLS
