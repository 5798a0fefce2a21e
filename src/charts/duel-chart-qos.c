/* duel-chart-qos.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-chart-private.h"
#include "duel-chart-qos.h"

typedef struct
{
  DuelTestRecord *record;                     /* the test the curve comes from */
  DuelChartLine  *curve;                      /* x: percentile, y: latency in ns */
  guint64         samples;
  double          marks_ns[DUEL_QOS_N_PERCENTILES];   /* NAN without enough samples */
} Curve;

typedef struct
{
  gboolean published;
  Curve    curves[DUEL_N_DIRECTIONS];
} Drive;

struct _DuelChartQos
{
  DuelChart parent_instance;

  guint     queue_depth;      /* as asked; 0 = automatic */
  gboolean  mixed;
  guint     shown_depth;      /* what was found */
  Drive     drives[DUEL_COMPARISON_MAX_DRIVES];
  guint     n_drives;
};

struct _DuelChartQosClass
{
  DuelChartClass parent_class;
};

G_DEFINE_FINAL_TYPE (DuelChartQos, duel_chart_qos, DUEL_TYPE_CHART)

enum {
  PROP_0,
  PROP_QUEUE_DEPTH,
  PROP_MIXED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
drive_clear (Drive *drive)
{
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      g_clear_pointer (&drive->curves[d].curve, duel_chart_line_free);
      drive->curves[d].record = NULL;
    }
}

static gboolean
pure_direction (const DuelTestRecord *record,
                DuelDirection         direction)
{
  return direction == DUEL_DIRECTION_READ ? !duel_workload_writes (&record->workload)
                                          : !duel_workload_reads (&record->workload);
}

static gboolean
is_mixed (const DuelTestRecord *record)
{
  return duel_workload_is_mixed (&record->workload);
}

static guint64
direction_samples (const DuelTestRecord *record,
                   DuelDirection         direction)
{
  return record->latency[direction] ? record->latency[direction]->count : 0;
}

/* The record whose @direction histogram the chart shows for one drive. */
static DuelTestRecord *
pick_record (GPtrArray     *tests,
             DuelDirection  direction,
             gboolean       mixed,
             guint          queue_depth,
             gboolean       published)
{
  for (guint pass = 0; pass < 2; pass++)
    {
      for (guint i = 0; i < tests->len; i++)
        {
          DuelTestRecord *record = g_ptr_array_index (tests, i);

          if (queue_depth != 0 && record->workload.queue_depth != queue_depth)
            continue;
          if (mixed ? !is_mixed (record) : !pure_direction (record, direction))
            continue;
          if (!published && direction_samples (record, direction) == 0)
            continue;
          return record;
        }
      /* Imported runs are rarely split by direction: any test with samples. */
      if (pass == 0 && !published)
        {
          for (guint i = 0; i < tests->len; i++)
            {
              DuelTestRecord *record = g_ptr_array_index (tests, i);

              if ((queue_depth == 0 || record->workload.queue_depth == queue_depth) &&
                  direction_samples (record, direction) > 0 && !mixed)
                return record;
            }
        }
      break;
    }
  return NULL;
}

static guint
choose_depth (DuelChartQos *self,
              GPtrArray    *all_tests[],
              guint         n_drives)
{
  guint deepest = 0;
  gboolean has_32 = FALSE;

  if (self->queue_depth != 0)
    return self->queue_depth;
  for (guint d = 0; d < n_drives; d++)
    {
      for (guint i = 0; i < all_tests[d]->len; i++)
        {
          const DuelTestRecord *record = g_ptr_array_index (all_tests[d], i);

          if (self->mixed != is_mixed (record))
            continue;
          deepest = MAX (deepest, record->workload.queue_depth);
          has_32 |= record->workload.queue_depth == 32;
        }
    }
  return has_32 ? 32 : deepest;
}

static void
build_curve (Curve          *curve,
             DuelTestRecord *record,
             DuelDirection   direction,
             gboolean        published,
             gboolean        mixed,
             guint           depth)
{
  const DuelHistogram *hist;
  const double *percentiles = duel_analysis_qos_percentiles ();
  guint64 cumulative = 0;
  DuelQos qos;

  curve->record = record;
  for (guint p = 0; p < DUEL_QOS_N_PERCENTILES; p++)
    curve->marks_ns[p] = NAN;
  if (record == NULL)
    return;

  if (published)
    {
      /* Published figures: only the datasheet points, from the summary. */
      for (guint p = 0; p < DUEL_QOS_N_PERCENTILES; p++)
        {
          g_autofree char *key = duel_analysis_qos_key (direction, depth, mixed, p);
          double us = duel_test_record_get_figure_value (record, key);

          curve->marks_ns[p] = isfinite (us) ? us * 1e3 : NAN;
        }
      return;
    }

  hist = record->latency[direction];
  curve->samples = hist->count;
  if (hist->count == 0)
    return;

  /* The cumulative share up to each non-empty bucket: the curve is exactly
   * the distribution fio's percentiles are read from. */
  for (guint i = 0; i < DUEL_HISTOGRAM_N_BUCKETS; i++)
    {
      guint64 value;

      if (hist->buckets[i] == 0)
        continue;
      cumulative += hist->buckets[i];
      value = CLAMP (duel_histogram_bucket_midpoint_ns (i), hist->min_ns, hist->max_ns);
      duel_chart_line_append (curve->curve, 100.0 * (double) cumulative / (double) hist->count, (double) value);
    }

  duel_analysis_qos (hist, &qos);
  for (guint p = 0; p < DUEL_QOS_N_PERCENTILES; p++)
    {
      g_assert (qos.points[p].percentile == percentiles[p]);
      if (qos.points[p].enough)
        curve->marks_ns[p] = (double) qos.points[p].value_ns;
    }
}

static void
duel_chart_qos_rebuild (DuelChart *chart)
{
  DuelChartQos *self = DUEL_CHART_QOS (chart);
  DuelComparison *comparison = duel_chart_get_comparison (chart);
  GPtrArray *tests[DUEL_COMPARISON_MAX_DRIVES] = { NULL, };

  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    drive_clear (&self->drives[d]);
  self->n_drives = duel_comparison_get_n_drives (comparison);

  for (guint d = 0; d < self->n_drives; d++)
    tests[d] = duel_comparison_find_tests (comparison, d, DUEL_ANALYSIS_QOS);
  self->shown_depth = choose_depth (self, tests, self->n_drives);

  for (guint d = 0; d < self->n_drives; d++)
    {
      Drive *drive = &self->drives[d];

      drive->published = duel_comparison_is_published (comparison, d);
      for (guint dir = 0; dir < DUEL_N_DIRECTIONS; dir++)
        {
          DuelTestRecord *record = pick_record (tests[d], dir, self->mixed, self->shown_depth, drive->published);

          /* Imported runs may not match the depth: fall back to any. */
          if (record == NULL && self->queue_depth == 0 && !drive->published)
            record = pick_record (tests[d], dir, self->mixed, 0, FALSE);
          drive->curves[dir].curve = duel_chart_line_new ();
          build_curve (&drive->curves[dir], record, dir, drive->published, self->mixed, self->shown_depth);
        }
      g_ptr_array_unref (tests[d]);
    }
}

static gboolean
curve_has_data (const Curve *curve)
{
  if (curve->record == NULL)
    return FALSE;
  if (duel_chart_line_get_length (curve->curve) > 0)
    return TRUE;
  for (guint p = 0; p < DUEL_QOS_N_PERCENTILES; p++)
    if (isfinite (curve->marks_ns[p]))
      return TRUE;
  return FALSE;
}

static gboolean
duel_chart_qos_has_data (DuelChart *chart)
{
  DuelChartQos *self = DUEL_CHART_QOS (chart);

  for (guint d = 0; d < self->n_drives; d++)
    for (guint dir = 0; dir < DUEL_N_DIRECTIONS; dir++)
      if (curve_has_data (&self->drives[d].curves[dir]))
        return TRUE;
  return FALSE;
}

static char *
duel_chart_qos_get_title (DuelChart *chart)
{
  return g_strdup (_("Quality of service: latency by percentile"));
}

/* What the curves' latencies are, as their legend says: from submission
 * to completion (the engine's), fio's completion latency (an import of
 * its default output), or both, each curve marked. */
static const char *
latency_words (DuelChartQos *self)
{
  gboolean total = FALSE, completion = FALSE;

  for (guint d = 0; d < self->n_drives; d++)
    for (guint dir = 0; dir < DUEL_N_DIRECTIONS; dir++)
      {
        const Curve *curve = &self->drives[d].curves[dir];

        if (!curve_has_data (curve) || curve->record == NULL)
          continue;
        if (curve->record->latency_kind == DUEL_LATENCY_COMPLETION)
          completion = TRUE;
        else
          total = TRUE;
      }
  if (completion && !total)
    return _("completion latency (fio’s clat, the submission left out)");
  if (completion)
    return _("latency from submission to completion, or completion latency where a curve says so");
  return _("latency from submission to completion");
}

static char *
duel_chart_qos_get_subtitle (DuelChart *chart)
{
  DuelChartQos *self = DUEL_CHART_QOS (chart);
  g_autofree char *what = NULL;

  /* Published figures with no depth of their own: no "QD0". */
  if (self->shown_depth == 0)
    what = g_strdup (self->mixed ? _("Mixed read/write") : _("Random read and random write"));
  else if (self->mixed)
    what = g_strdup_printf (_("Mixed read/write at QD%u"), self->shown_depth);
  else
    what = g_strdup_printf (_("Random read and random write at QD%u"), self->shown_depth);
  /* TRANSLATORS: what was measured, then what the latencies are:
   * "Mixed read/write at QD32; I/O percentiles (count-based), latency from submission to completion" */
  return g_strdup_printf (_("%s; I/O percentiles (count-based), %s"), what, latency_words (self));
}

static const DuelChartColor *
curve_color (const DuelChartStyle *style,
             guint                 drive,
             DuelDirection         direction)
{
  return duel_chart_style_get_drive_color (style, drive,
                                           direction == DUEL_DIRECTION_WRITE ? DUEL_CHART_ROLE_SECOND
                                                                             : DUEL_CHART_ROLE_MAIN);
}

static void
duel_chart_qos_fill_legend (DuelChart       *chart,
                            DuelChartLegend *legend)
{
  DuelChartQos *self = DUEL_CHART_QOS (chart);
  const DuelChartStyle *style = duel_chart_get_style (chart);

  for (guint d = 0; d < self->n_drives; d++)
    {
      g_autofree char *name = duel_chart_dup_drive_label (chart, d);

      for (guint dir = 0; dir < DUEL_N_DIRECTIONS; dir++)
        {
          const Curve *curve = &self->drives[d].curves[dir];
          g_autofree char *label = NULL;
          DuelChartMark mark;

          if (!curve_has_data (curve))
            continue;
          label = g_strdup_printf (dir == DUEL_DIRECTION_READ ? _("%s, read") : _("%s, write"), name);
          if (curve->record != NULL && curve->record->latency_kind == DUEL_LATENCY_COMPLETION)
            {
              g_autofree char *plain = g_steal_pointer (&label);

              /* TRANSLATORS: a curve of fio's completion latency (clat, the
               * submission left out): "Drive A, read (completion latency)" */
              label = g_strdup_printf (_("%s (completion latency)"), plain);
            }
          if (duel_chart_line_get_length (curve->curve) == 0)
            mark = DUEL_CHART_MARK_MARKER;
          else
            mark = dir == DUEL_DIRECTION_READ ? DUEL_CHART_MARK_LINE : DUEL_CHART_MARK_DASH;
          duel_chart_legend_add (legend, mark, curve_color (style, d, dir), label);
        }
    }
}

static void
duel_chart_qos_draw_content (DuelChart           *chart,
                             cairo_t             *cr,
                             const DuelChartRect *area)
{
  DuelChartQos *self = DUEL_CHART_QOS (chart);
  const DuelChartStyle *style = duel_chart_get_style (chart);
  const double *percentiles = duel_analysis_qos_percentiles ();
  DuelChartAxis x_axis, y_axis;
  DuelChartRect plot;
  double y_min = INFINITY, y_max = 0, x_max = 99.999;
  double dashes[] = { 7, 4 };

  for (guint d = 0; d < self->n_drives; d++)
    {
      for (guint dir = 0; dir < DUEL_N_DIRECTIONS; dir++)
        {
          const Curve *curve = &self->drives[d].curves[dir];
          double y0, y1, pos;

          if (curve->record == NULL)
            continue;
          if (duel_chart_line_get_extent (curve->curve, NULL, NULL, &y0, &y1, &pos))
            {
              y_min = MIN (y_min, pos);
              y_max = MAX (y_max, y1);
            }
          for (guint p = 0; p < DUEL_QOS_N_PERCENTILES; p++)
            {
              if (!isfinite (curve->marks_ns[p]))
                continue;
              y_min = MIN (y_min, curve->marks_ns[p]);
              y_max = MAX (y_max, curve->marks_ns[p]);
            }
          /* A million I/Os resolve the sixth nine. */
          if (curve->samples >= 1000000)
            x_max = 99.9999;
        }
    }

  duel_chart_axis_init (&x_axis, DUEL_CHART_SCALE_NINES, DUEL_CHART_FORMAT_NINES, 0, x_max);
  duel_chart_axis_fit (&x_axis, 0, x_max, FALSE);
  duel_chart_axis_init (&y_axis, DUEL_CHART_SCALE_LOG, DUEL_CHART_FORMAT_DURATION_NS, 1, 10);
  duel_chart_axis_fit (&y_axis, isfinite (y_min) ? y_min : 1000, MAX (y_max, 1), FALSE);

  duel_chart_axes_layout (cr, style, &x_axis, &y_axis, _("Percentile of I/Os"), _("Latency"), area, &plot);
  duel_chart_axes_draw_grid (cr, style, &x_axis, &y_axis, &plot);
  duel_chart_add_plot_rect (chart, &plot);

  cairo_save (cr);
  cairo_rectangle (cr, plot.x, plot.y, plot.width, plot.height);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint d = 0; d < self->n_drives; d++)
    {
      for (guint dir = 0; dir < DUEL_N_DIRECTIONS; dir++)
        {
          const Curve *curve = &self->drives[d].curves[dir];

          if (curve->record == NULL || duel_chart_line_get_length (curve->curve) == 0)
            continue;
          duel_chart_set_source_color (cr, curve_color (style, d, dir));
          if (dir == DUEL_DIRECTION_WRITE)
            cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
          else
            cairo_set_dash (cr, NULL, 0, 0);
          duel_chart_line_draw (curve->curve, cr, &x_axis, &y_axis, &plot, style->line_width * 1.2);
        }
    }
  cairo_restore (cr);

  /* The datasheet points. */
  for (guint d = 0; d < self->n_drives; d++)
    {
      for (guint dir = 0; dir < DUEL_N_DIRECTIONS; dir++)
        {
          const Curve *curve = &self->drives[d].curves[dir];

          if (curve->record == NULL)
            continue;
          for (guint p = 0; p < DUEL_QOS_N_PERCENTILES; p++)
            {
              if (!isfinite (curve->marks_ns[p]) || percentiles[p] > x_axis.max + 1e-9)
                continue;
              duel_chart_draw_mark (cr, style, DUEL_CHART_MARK_MARKER, curve_color (style, d, dir),
                                    duel_chart_axis_map (&x_axis, percentiles[p]),
                                    duel_chart_axis_map (&y_axis, curve->marks_ns[p]),
                                    self->drives[d].published ? 13 : 9);
            }
        }
    }

  duel_chart_axes_draw (cr, style, &x_axis, &y_axis, _("Percentile of I/Os"), _("Latency"), &plot);
}

static void
duel_chart_qos_write_csv (DuelChart *chart,
                          GString   *csv)
{
  DuelChartQos *self = DUEL_CHART_QOS (chart);
  DuelComparison *comparison = duel_chart_get_comparison (chart);
  const double *percentiles = duel_analysis_qos_percentiles ();

  g_string_append (csv, "drive,test,direction,source,percentile,latency_ns\n");
  for (guint d = 0; d < self->n_drives; d++)
    {
      const char *name = duel_comparison_get_drive_name (comparison, d);

      for (guint dir = 0; dir < DUEL_N_DIRECTIONS; dir++)
        {
          const Curve *curve = &self->drives[d].curves[dir];
          const char *dir_name = dir == DUEL_DIRECTION_READ ? "read" : "write";
          const double *x = duel_chart_line_get_x (curve->curve);
          const double *y = duel_chart_line_get_y (curve->curve);

          if (curve->record == NULL)
            continue;
          for (guint i = 0; i < duel_chart_line_get_length (curve->curve); i++)
            {
              duel_chart_csv_append_field (csv, name);
              g_string_append_c (csv, ',');
              duel_chart_csv_append_field (csv, curve->record->name);
              g_string_append_printf (csv, ",%s,histogram,", dir_name);
              duel_chart_csv_append_number (csv, "%.8g", x[i]);
              g_string_append_c (csv, ',');
              duel_chart_csv_append_number (csv, "%.0f", y[i]);
              g_string_append_c (csv, '\n');
            }
          for (guint p = 0; p < DUEL_QOS_N_PERCENTILES; p++)
            {
              if (!isfinite (curve->marks_ns[p]))
                continue;
              duel_chart_csv_append_field (csv, name);
              g_string_append_c (csv, ',');
              duel_chart_csv_append_field (csv, curve->record->name);
              g_string_append_printf (csv, ",%s,%s,", dir_name, self->drives[d].published ? "published" : "qos-point");
              duel_chart_csv_append_number (csv, "%.8g", percentiles[p]);
              g_string_append_c (csv, ',');
              duel_chart_csv_append_number (csv, "%.0f", curve->marks_ns[p]);
              g_string_append_c (csv, '\n');
            }
        }
    }
}

static void
duel_chart_qos_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  DuelChartQos *self = DUEL_CHART_QOS (object);

  switch (prop_id)
    {
    case PROP_QUEUE_DEPTH:
      g_value_set_uint (value, self->queue_depth);
      break;

    case PROP_MIXED:
      g_value_set_boolean (value, self->mixed);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_chart_qos_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  DuelChartQos *self = DUEL_CHART_QOS (object);

  switch (prop_id)
    {
    case PROP_QUEUE_DEPTH:
      duel_chart_qos_set_queue_depth (self, g_value_get_uint (value));
      break;

    case PROP_MIXED:
      duel_chart_qos_set_mixed (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_chart_qos_finalize (GObject *object)
{
  DuelChartQos *self = DUEL_CHART_QOS (object);

  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    drive_clear (&self->drives[d]);

  G_OBJECT_CLASS (duel_chart_qos_parent_class)->finalize (object);
}

static void
duel_chart_qos_class_init (DuelChartQosClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  DuelChartClass *chart_class = DUEL_CHART_CLASS (klass);

  object_class->finalize = duel_chart_qos_finalize;
  object_class->get_property = duel_chart_qos_get_property;
  object_class->set_property = duel_chart_qos_set_property;

  chart_class->id = "qos";
  chart_class->tab_title = N_("QoS");
  chart_class->rebuild = duel_chart_qos_rebuild;
  chart_class->get_title = duel_chart_qos_get_title;
  chart_class->get_subtitle = duel_chart_qos_get_subtitle;
  chart_class->has_data = duel_chart_qos_has_data;
  chart_class->fill_legend = duel_chart_qos_fill_legend;
  chart_class->draw_content = duel_chart_qos_draw_content;
  chart_class->write_csv = duel_chart_qos_write_csv;

  properties[PROP_QUEUE_DEPTH] =
    g_param_spec_uint ("queue-depth", NULL, NULL, 0, DUEL_WORKLOAD_MAX_QUEUE_DEPTH, 0,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_MIXED] =
    g_param_spec_boolean ("mixed", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
duel_chart_qos_init (DuelChartQos *self)
{
}

DuelChart *
duel_chart_qos_new (DuelComparison *comparison)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), NULL);

  return g_object_new (DUEL_TYPE_CHART_QOS, "comparison", comparison, NULL);
}

guint
duel_chart_qos_get_queue_depth (DuelChartQos *self)
{
  g_return_val_if_fail (DUEL_IS_CHART_QOS (self), 0);
  return self->queue_depth;
}

void
duel_chart_qos_set_queue_depth (DuelChartQos *self,
                                guint         queue_depth)
{
  g_return_if_fail (DUEL_IS_CHART_QOS (self));

  if (self->queue_depth == queue_depth)
    return;
  self->queue_depth = queue_depth;
  duel_chart_rebuild (DUEL_CHART (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_QUEUE_DEPTH]);
}

gboolean
duel_chart_qos_get_mixed (DuelChartQos *self)
{
  g_return_val_if_fail (DUEL_IS_CHART_QOS (self), FALSE);
  return self->mixed;
}

void
duel_chart_qos_set_mixed (DuelChartQos *self,
                          gboolean      mixed)
{
  g_return_if_fail (DUEL_IS_CHART_QOS (self));

  mixed = !!mixed;
  if (self->mixed == mixed)
    return;
  self->mixed = mixed;
  duel_chart_rebuild (DUEL_CHART (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MIXED]);
}
