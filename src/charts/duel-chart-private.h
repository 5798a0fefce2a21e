/* duel-chart-private.h — what a chart subclass implements and may call
 *
 * The class's virtual functions and the helpers every chart file shares;
 * not for the app or the exporters, which use duel-chart.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-chart.h"
#include "duel-chart-labels.h"

G_BEGIN_DECLS

struct _DuelChartClass
{
  GObjectClass parent_class;

  /* The file-name stem: "write-curve". */
  const char *id;
  /* Its tab in the app, translatable: "Write Curve". */
  const char *tab_title;
  /* A chart of tests few results hold (the SNIA tests' steady state):
   * the app shows its tab only when it has something to draw. */
  gboolean    only_with_data;

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

void                  duel_chart_rebuild        (DuelChart            *self);
/* Records what @labels placed, for duel_chart_get_label_boxes(). */
void                  duel_chart_add_labels     (DuelChart            *self,
                                                 DuelChartLabels      *labels);
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
/* A CSV field, quoted when needed. */
/* A number in CSV: @format ("%.6g") in the C locale's terms whatever the
 * reader's ("3,5" would split the field). */
void                  duel_chart_csv_append_number (GString           *csv,
                                                    const char        *format,
                                                    double             value);
void                  duel_chart_csv_append_field (GString            *csv,
                                                   const char         *text);

/* Every kind of chart, in the report's order (chart_kinds in
 * src/charts/meson.build); not to be freed. */
GType                *_duel_chart_get_types     (guint                *out_n);

G_END_DECLS
