/* duel-chart.h — the base of every chart: one cairo drawing at any size and scale
 *
 * A chart takes a comparison (one or two results), builds its series once
 * (off the draw path), and draws itself with duel_chart_draw() on any cairo
 * context: the GTK app through gtk_snapshot_append_cairo(), the exporters on
 * PNG, SVG and PDF surfaces. The chart is a GObject so that a widget can
 * watch its "style" and options; subclasses (one file each) supply the plot
 * through duel-chart-private.h.
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
#include "analysis/duel-comparison.h"

G_BEGIN_DECLS

#define DUEL_TYPE_CHART (duel_chart_get_type ())

G_DECLARE_DERIVABLE_TYPE (DuelChart, duel_chart, DUEL, CHART, GObject)

/* G_DECLARE_FINAL_TYPE for a chart, without its class struct, which needs
 * DuelChartClass (duel-chart-private.h): the file defines
 * struct _ModuleObjNameClass { DuelChartClass parent_class; }. */
#define DUEL_DECLARE_CHART_TYPE(ModuleObjName, module_obj_name, MODULE, OBJ_NAME)                        \
  GType module_obj_name##_get_type (void);                                                             \
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS                                                                     \
  typedef struct _##ModuleObjName ModuleObjName;                                                       \
  typedef struct _##ModuleObjName##Class ModuleObjName##Class;                                         \
  _GLIB_DEFINE_AUTOPTR_CHAINUP (ModuleObjName, DuelChart)                                              \
  G_GNUC_UNUSED static inline ModuleObjName *MODULE##_##OBJ_NAME (gpointer ptr) {                      \
    return G_TYPE_CHECK_INSTANCE_CAST (ptr, module_obj_name##_get_type (), ModuleObjName); }           \
  G_GNUC_UNUSED static inline gboolean MODULE##_IS_##OBJ_NAME (gpointer ptr) {                         \
    return G_TYPE_CHECK_INSTANCE_TYPE (ptr, module_obj_name##_get_type ()); }                          \
  G_GNUC_END_IGNORE_DEPRECATIONS

DuelComparison       *duel_chart_get_comparison (DuelChart            *self);
const DuelChartStyle *duel_chart_get_style      (DuelChart            *self);
void                  duel_chart_set_style      (DuelChart            *self,
                                                 const DuelChartStyle *style);
const char           *duel_chart_get_id         (DuelChart            *self);
char                 *duel_chart_get_title      (DuelChart            *self);
/* The chart's tab in the app, translated: "Write Curve". */
const char           *duel_chart_get_tab_title  (DuelChart            *self);
/* Whether a view shows this chart even with nothing to draw (saying so);
 * FALSE for a chart of tests few results hold, left out then. */
gboolean              duel_chart_shows_without_data (DuelChart      *self);
/* The ids of every kind of chart, in the report's order; NULL-terminated. */
const char * const   *duel_chart_get_kind_ids   (void);
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
/* The boxes of the value labels the last draw placed (inside the plot, none
 * over another; see duel-chart-labels.h) and how many it left out. */
const DuelChartRect  *duel_chart_get_label_boxes (DuelChart           *self,
                                                  guint               *out_n_boxes,
                                                  guint               *out_n_dropped);

/* Every chart of a comparison, in report order. */
GPtrArray            *duel_chart_new_all        (DuelComparison       *comparison,
                                                 const DuelChartStyle *style);
/* The charts of an export and the PDF: as duel_chart_new_all(), with the QoS
 * chart at QD1 and at QD32 ("qos-qd1", "qos-qd32") where those were measured. */
GPtrArray            *duel_chart_new_report     (DuelComparison       *comparison,
                                                 const DuelChartStyle *style);

/* "4 KiB random write, QD32, to 2× the span": a test's setup in a subtitle. */
char                 *duel_chart_describe_workload (const DuelTestRecord *record);

G_END_DECLS
