/* duel-chart-axes.h — scales, ticks, grid and axis labels shared by the charts
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
  DUEL_CHART_SCALE_LINEAR,
  DUEL_CHART_SCALE_LOG,      /* base 10; the range must be positive */
  DUEL_CHART_SCALE_NINES,    /* percentiles: 90, 99, 99.9 … equally spaced */
} DuelChartScale;

typedef enum
{
  DUEL_CHART_FORMAT_NUMBER,       /* 500, 20k, 1.5M */
  DUEL_CHART_FORMAT_PERCENT,      /* 50 % */
  DUEL_CHART_FORMAT_NINES,        /* 99.99 % */
  DUEL_CHART_FORMAT_DURATION_NS,  /* 80 µs, 1.5 ms */
} DuelChartFormat;

typedef struct
{
  double x;
  double y;
  double width;
  double height;
} DuelChartRect;

typedef struct
{
  DuelChartScale  scale;
  DuelChartFormat format;
  double          min;       /* data value at start */
  double          max;       /* data value at end */
  double          start;     /* pixel of min: left edge, or bottom edge for a y axis */
  double          end;       /* pixel of max */
} DuelChartAxis;

void     duel_chart_axis_init        (DuelChartAxis   *axis,
                                      DuelChartScale   scale,
                                      DuelChartFormat  format,
                                      double           min,
                                      double           max);
/* Widens [data_min, data_max] to round tick values; a linear axis may be
 * asked to start at zero, a log axis snaps to decades. */
void     duel_chart_axis_fit         (DuelChartAxis   *axis,
                                      double           data_min,
                                      double           data_max,
                                      gboolean         include_zero);
/* 0 at min, 1 at max; values outside give numbers outside [0, 1]. */
double   duel_chart_axis_normalize   (const DuelChartAxis *axis,
                                      double               value);
double   duel_chart_axis_map         (const DuelChartAxis *axis,
                                      double               value);
/* Major tick values, smallest first. */
GArray  *duel_chart_axis_get_ticks   (const DuelChartAxis *axis);
char    *duel_chart_axis_format      (const DuelChartAxis *axis,
                                      double               value);

/* Text for numbers in labels and tables: "112,540", "2.5", "83.1 %". */
char    *duel_chart_format_number    (double               value,
                                      int                  decimals);
char    *duel_chart_format_compact   (double               value);
char    *duel_chart_format_duration_ns (double             value_ns);

/* Lays out the plot rectangle inside @area, leaving room for tick labels and
 * axis titles, and sets both axes' pixel ranges. @x may be NULL (categories). */
void     duel_chart_axes_layout      (cairo_t              *cr,
                                      const DuelChartStyle *style,
                                      DuelChartAxis        *x,
                                      DuelChartAxis        *y,
                                      const char           *x_title,
                                      const char           *y_title,
                                      const DuelChartRect  *area,
                                      DuelChartRect        *out_plot);
/* The light grid, drawn before the series. */
void     duel_chart_axes_draw_grid   (cairo_t              *cr,
                                      const DuelChartStyle *style,
                                      const DuelChartAxis  *x,
                                      const DuelChartAxis  *y,
                                      const DuelChartRect  *plot);
/* Axis lines, tick labels and titles, drawn after the series. */
void     duel_chart_axes_draw        (cairo_t              *cr,
                                      const DuelChartStyle *style,
                                      const DuelChartAxis  *x,
                                      const DuelChartAxis  *y,
                                      const char           *x_title,
                                      const char           *y_title,
                                      const DuelChartRect  *plot);

/* Rounds a user-space coordinate to the middle of a device pixel, so that
 * 1-pixel lines stay crisp at any scale. */
double   duel_chart_snap_x           (cairo_t              *cr,
                                      double                x);
double   duel_chart_snap_y           (cairo_t              *cr,
                                      double                y);
/* Draws text with its top-left corner at (x, y), or aligned by @xalign and
 * @yalign (0 left/top, 0.5 centre, 1 right/bottom). Returns the layout's
 * size in @out_width and @out_height when not NULL. */
void     duel_chart_draw_text        (cairo_t              *cr,
                                      const DuelChartStyle *style,
                                      DuelChartTextRole     role,
                                      const DuelChartColor *color,
                                      const char           *text,
                                      double                x,
                                      double                y,
                                      double                xalign,
                                      double                yalign);
/* One line of text in @box, ended with "…" where it is wider: placed by
 * @xalign (0 left, 0.5 centre, 1 right) and, within the box's height, by
 * @yalign (0 top; a box of height 0 puts the line's top at its y). Returns
 * the line's height. */
double   duel_chart_draw_text_in     (cairo_t              *cr,
                                      const DuelChartStyle *style,
                                      DuelChartTextRole     role,
                                      const DuelChartColor *color,
                                      const char           *text,
                                      const DuelChartRect  *box,
                                      double                xalign,
                                      double                yalign);
/* The same, wrapped over at most @max_lines lines (the last one ended with
 * "…" if the text needs more); returns their height. */
double   duel_chart_draw_lines_in    (cairo_t              *cr,
                                      const DuelChartStyle *style,
                                      DuelChartTextRole     role,
                                      const DuelChartColor *color,
                                      const char           *text,
                                      const DuelChartRect  *box,
                                      double                xalign,
                                      double                yalign,
                                      guint                 max_lines);
void     duel_chart_measure_text     (cairo_t              *cr,
                                      const DuelChartStyle *style,
                                      DuelChartTextRole     role,
                                      const char           *text,
                                      double               *out_width,
                                      double               *out_height);

G_END_DECLS
