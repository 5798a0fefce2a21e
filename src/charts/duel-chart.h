/* duel-chart.h — the base of every chart: one cairo drawing at any size and scale
 *
 * A chart takes a comparison (one or two results), builds its series once
 * (off the draw path), and draws itself with duel_chart_draw() on any cairo
 * context: the GTK app through gtk_snapshot_append_cairo(), the exporters on
 * PNG, SVG and PDF surfaces. The chart is a GObject so that a widget can
 * watch its "style" and options; subclasses (one file each) supply the plot.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib-object.h>

#include "duel-chart-axes.h"
#include "duel-chart-legend.h"
#include "duel-chart-line.h"
#include "duel-chart-style.h"
#include "duel-comparison.h"

G_BEGIN_DECLS

#define DUEL_TYPE_CHART (duel_chart_get_type ())

G_DECLARE_DERIVABLE_TYPE (DuelChart, duel_chart, DUEL, CHART, GObject)

struct _DuelChartClass
{
  GObjectClass parent_class;

  /* The file-name stem: "write-curve". */
  const char *id;

  /* Rebuilds the chart's data from the comparison and its options; called at
   * construction and when an option changes, never while drawing. */
  void      (*rebuild)      (DuelChart       *self);
  /* Translated title and an optional subtitle (the test's parameters). */
  char     *(*get_title)    (DuelChart       *self);
  char     *(*get_subtitle) (DuelChart       *self);
  gboolean  (*has_data)     (DuelChart       *self);
  void      (*fill_legend)  (DuelChart       *self,
                             DuelChartLegend *legend);
  /* Draws the plot (axes included) into @area; the frame is done. */
  void      (*draw_content) (DuelChart       *self,
                             cairo_t         *cr,
                             const DuelChartRect *area);
  /* Every series as CSV, a header line first. */
  void      (*write_csv)    (DuelChart       *self,
                             GString         *csv);
};

DuelComparison       *duel_chart_get_comparison (DuelChart            *self);
const DuelChartStyle *duel_chart_get_style      (DuelChart            *self);
void                  duel_chart_set_style      (DuelChart            *self,
                                                 const DuelChartStyle *style);
const char           *duel_chart_get_id         (DuelChart            *self);
char                 *duel_chart_get_title      (DuelChart            *self);
char                 *duel_chart_get_subtitle   (DuelChart            *self);
/* FALSE when the results hold nothing this chart can show. */
gboolean              duel_chart_has_data       (DuelChart            *self);
/* Draws the whole chart (background, title, legend, plot) into the
 * rectangle (0, 0, width, height) of @cr's user space. */
void                  duel_chart_draw           (DuelChart            *self,
                                                 cairo_t              *cr,
                                                 double                width,
                                                 double                height);
char                 *duel_chart_to_csv         (DuelChart            *self);
/* Where the last duel_chart_draw() put the plot (user units): for hit tests
 * in a widget and for tests. FALSE before the first draw or without data. */
gboolean              duel_chart_get_plot_rect  (DuelChart            *self,
                                                 DuelChartRect        *out_rect);

/* The five charts of a comparison, in report order. */
GPtrArray            *duel_chart_new_all        (DuelComparison       *comparison,
                                                 const DuelChartStyle *style);

/* For subclasses. */
void                  duel_chart_rebuild        (DuelChart            *self);
/* Records a plot area of this draw (several areas are joined). */
void                  duel_chart_add_plot_rect  (DuelChart            *self,
                                                 const DuelChartRect  *rect);
/* "Drive (published)" for a reference result. */
char                 *duel_chart_dup_drive_label(DuelChart            *self,
                                                 guint                 drive);
void                  duel_chart_draw_message   (DuelChart            *self,
                                                 cairo_t              *cr,
                                                 const DuelChartRect  *area,
                                                 const char           *message);
/* "4 KiB random write, QD32, to 2× the span": a test's setup in a subtitle. */
char                 *duel_chart_describe_workload (const DuelTestRecord *record);
/* A figure of @record's summary; NAN when it is missing or null. */
double                duel_chart_record_figure  (const DuelTestRecord *record,
                                                 const char           *key);
/* The object member @member of @object, or NULL (any other type is NULL too). */
JsonObject           *duel_chart_json_object    (JsonObject           *object,
                                                 const char           *member);
/* summary.details of @record without creating it; NULL when absent. */
JsonObject           *duel_chart_record_details (const DuelTestRecord *record);
/* A CSV field, quoted when needed. */
void                  duel_chart_csv_append_field (GString            *csv,
                                                   const char         *text);

G_END_DECLS
