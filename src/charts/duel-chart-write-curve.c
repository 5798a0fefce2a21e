/* duel-chart-write-curve.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-chart-private.h"
#include "duel-chart-write-curve.h"

enum {
  MARK_0,
  MARK_50,
  MARK_100,
  MARK_END,
  N_MARKS
};

typedef struct
{
  DuelTestRecord *record;        /* borrowed from the comparison's result */
  gboolean        published;
  DuelChartLine  *by_pct;        /* x: % of capacity written */
  DuelChartLine  *by_time;       /* x: seconds from the start */
  GArray         *pct_at_end;    /* double: % written at each row's end, for time lookups */
  GArray         *s_at_end;      /* double: seconds at each row's end */
  double          mark_pct[N_MARKS];
  double          mark_iops[N_MARKS];
  double          plateau_iops;
  double          plateau_lo_pct;
  double          plateau_hi_pct;
  double          cliff_pct;
  guint           n_falls;       /* every fall the analysis reported; the last is the cliff */
  double          fall_pct[DUEL_SATURATION_MAX_FALLS];
  double          fall_resolution_pct[DUEL_SATURATION_MAX_FALLS];
} Drive;

struct _DuelChartWriteCurve
{
  DuelChart parent_instance;

  gboolean  log_scale;
  gboolean  time_axis;
  Drive     drives[DUEL_COMPARISON_MAX_DRIVES];
  guint     n_drives;
};

struct _DuelChartWriteCurveClass
{
  DuelChartClass parent_class;
};

G_DEFINE_FINAL_TYPE (DuelChartWriteCurve, duel_chart_write_curve, DUEL_TYPE_CHART)

enum {
  PROP_0,
  PROP_LOG_SCALE,
  PROP_TIME_AXIS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
drive_clear (Drive *drive)
{
  g_clear_pointer (&drive->by_pct, duel_chart_line_free);
  g_clear_pointer (&drive->by_time, duel_chart_line_free);
  g_clear_pointer (&drive->pct_at_end, g_array_unref);
  g_clear_pointer (&drive->s_at_end, g_array_unref);
  drive->record = NULL;
}

static guint64
record_span (DuelComparison       *comparison,
             guint                 index,
             const DuelTestRecord *record)
{
  const DuelTargetInfo *target;

  if (record->span_length > 0)
    return record->span_length;
  if (record->workload.span_length > 0)
    return record->workload.span_length;
  target = duel_result_get_target (duel_comparison_get_result (comparison, index));
  return target ? target->size_bytes : 0;
}

static void
build_drive (DuelChartWriteCurve *self,
             guint                index)
{
  DuelComparison *comparison = duel_chart_get_comparison (DUEL_CHART (self));
  Drive *drive = &self->drives[index];
  DuelTestRecord *record = duel_comparison_find_test (comparison, index, DUEL_ANALYSIS_SATURATION);
  const DuelSeriesRow *rows;
  double span, cumulative = 0, written_pct;
  guint n;
  DuelSaturationSummary summary;

  drive->published = duel_comparison_is_published (comparison, index);
  drive->by_pct = duel_chart_line_new ();
  drive->by_time = duel_chart_line_new ();
  drive->pct_at_end = g_array_new (FALSE, FALSE, sizeof (double));
  drive->s_at_end = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint m = 0; m < N_MARKS; m++)
    drive->mark_pct[m] = drive->mark_iops[m] = NAN;
  drive->plateau_iops = drive->plateau_lo_pct = drive->plateau_hi_pct = drive->cliff_pct = NAN;
  drive->n_falls = 0;

  drive->record = record;
  if (record == NULL)
    return;

  span = (double) record_span (comparison, index, record);
  n = duel_series_get_length (record->series);
  rows = duel_series_get_rows (record->series);

  /* A published reference is drawn from its figures alone. */
  if (!drive->published && span > 0)
    {
      for (guint i = 0; i < n; i++)
        {
          double ms = (double) duel_series_row_duration_ms (record->series, i);
          double bytes = (double) rows[i].bytes[DUEL_DIRECTION_WRITE];
          double iops = ms > 0 ? rows[i].ops[DUEL_DIRECTION_WRITE] / (ms / 1e3) : NAN;
          double end_pct, end_s;

          /* Each row sits at the middle of what it wrote and of its time;
           * one a pause of the process touched is not the drive's rate. */
          if (duel_test_record_row_paused (record, i))
            iops = NAN;
          duel_chart_line_append (drive->by_pct, (cumulative + bytes / 2) / span * 100.0, iops);
          duel_chart_line_append (drive->by_time, (rows[i].t_ms - ms / 2) / 1e3, iops);
          cumulative += bytes;
          end_pct = cumulative / span * 100.0;
          end_s = rows[i].t_ms / 1e3;
          g_array_append_val (drive->pct_at_end, end_pct);
          g_array_append_val (drive->s_at_end, end_s);
        }
      duel_chart_line_prepare (drive->by_pct);
      duel_chart_line_prepare (drive->by_time);
    }

  duel_saturation_summary_from_record (record, &summary);
  for (guint m = 0; m < N_MARKS; m++)
    drive->mark_iops[m] = summary.iops_at_pct[m];
  written_pct = summary.written_pct;
  if (!isfinite (written_pct) && !drive->published && span > 0)
    written_pct = cumulative / span * 100.0;
  drive->mark_pct[MARK_0] = 0;
  drive->mark_pct[MARK_50] = 50;
  drive->mark_pct[MARK_100] = 100;
  drive->mark_pct[MARK_END] = written_pct;
  /* The 100 % point of a run that stopped short is no point. */
  for (guint m = 0; m < N_MARKS; m++)
    if (isfinite (written_pct) && drive->mark_pct[m] > written_pct + 1e-9)
      drive->mark_iops[m] = NAN;

  drive->plateau_iops = summary.plateau_iops;
  drive->cliff_pct = summary.cliff_pct;
  drive->n_falls = summary.n_falls;
  for (guint f = 0; f < summary.n_falls; f++)
    {
      drive->fall_pct[f] = summary.falls[f].knee_pct;
      drive->fall_resolution_pct[f] = summary.falls[f].resolution_pct;
    }
  /* The plateau's window as the analysis took it. */
  drive->plateau_lo_pct = summary.plateau_lo_pct;
  drive->plateau_hi_pct = summary.plateau_hi_pct;
  if (!isfinite (drive->plateau_lo_pct) && isfinite (written_pct))
    {
      DuelAnalysisParams params;

      duel_analysis_params_init (&params);
      drive->plateau_lo_pct = written_pct * (1.0 - params.plateau_fraction);
      drive->plateau_hi_pct = written_pct;
    }
}

static void
duel_chart_write_curve_rebuild (DuelChart *chart)
{
  DuelChartWriteCurve *self = DUEL_CHART_WRITE_CURVE (chart);
  DuelComparison *comparison = duel_chart_get_comparison (chart);

  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    drive_clear (&self->drives[d]);
  self->n_drives = duel_comparison_get_n_drives (comparison);
  for (guint d = 0; d < self->n_drives; d++)
    build_drive (self, d);
}

/* Seconds at which @pct of the capacity had been written; NAN when unknown. */
static double
pct_to_seconds (const Drive *drive,
                double       pct)
{
  const double *pcts = (const double *) (gpointer) drive->pct_at_end->data;
  const double *secs = (const double *) (gpointer) drive->s_at_end->data;
  double prev_pct = 0, prev_s = 0;

  if (!isfinite (pct))
    return NAN;
  for (guint i = 0; i < drive->pct_at_end->len; i++)
    {
      if (pcts[i] >= pct - 1e-9)
        {
          if (pcts[i] == prev_pct)
            return secs[i];
          return prev_s + (secs[i] - prev_s) * (pct - prev_pct) / (pcts[i] - prev_pct);
        }
      prev_pct = pcts[i];
      prev_s = secs[i];
    }
  return NAN;
}

static gboolean
drive_has_data (const Drive *drive)
{
  if (drive->record == NULL)
    return FALSE;
  if (duel_chart_line_get_length (drive->by_pct) > 0)
    return TRUE;
  for (guint m = 0; m < N_MARKS; m++)
    if (isfinite (drive->mark_iops[m]))
      return TRUE;
  return FALSE;
}

static gboolean
duel_chart_write_curve_has_data (DuelChart *chart)
{
  DuelChartWriteCurve *self = DUEL_CHART_WRITE_CURVE (chart);

  for (guint d = 0; d < self->n_drives; d++)
    if (drive_has_data (&self->drives[d]))
      return TRUE;
  return FALSE;
}

static char *
duel_chart_write_curve_get_title (DuelChart *chart)
{
  return g_strdup (_("4K random write: IOPS while filling the drive"));
}

static char *
duel_chart_write_curve_get_subtitle (DuelChart *chart)
{
  DuelChartWriteCurve *self = DUEL_CHART_WRITE_CURVE (chart);

  for (guint d = 0; d < self->n_drives; d++)
    {
      if (self->drives[d].record != NULL && !self->drives[d].published)
        return duel_chart_describe_workload (self->drives[d].record);
    }
  for (guint d = 0; d < self->n_drives; d++)
    if (self->drives[d].record != NULL)
      return duel_chart_describe_workload (self->drives[d].record);
  return NULL;
}

static void
duel_chart_write_curve_fill_legend (DuelChart       *chart,
                                    DuelChartLegend *legend)
{
  DuelChartWriteCurve *self = DUEL_CHART_WRITE_CURVE (chart);
  const DuelChartStyle *style = duel_chart_get_style (chart);
  gboolean any_plateau = FALSE, any_cliff = FALSE, any_fall = FALSE;

  for (guint d = 0; d < self->n_drives; d++)
    {
      const Drive *drive = &self->drives[d];
      g_autofree char *label = duel_chart_dup_drive_label (chart, d);

      if (!drive_has_data (drive))
        continue;
      duel_chart_legend_add (legend, drive->published ? DUEL_CHART_MARK_MARKER : DUEL_CHART_MARK_LINE,
                             duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN), label);
      any_plateau |= isfinite (drive->plateau_iops) && !self->time_axis;
      any_cliff |= drive->n_falls > 0;
      any_fall |= drive->n_falls > 1;
    }
  if (any_plateau)
    duel_chart_legend_add (legend, DUEL_CHART_MARK_DASH, &style->guide, _("Plateau (last 10 % written)"));
  if (any_cliff)
    duel_chart_legend_add (legend, DUEL_CHART_MARK_DASH, &style->guide,
                           /* TRANSLATORS: the chart's legend: dashed lines mark where
                            * the curve falls; the last fall is the write cliff */
                           any_fall ? _("Falls; the last is the write cliff") : _("Write cliff"));
}

/* The x of a point given as % written, on either axis; NAN when unplaceable. */
static double
mark_x (DuelChartWriteCurve *self,
        const Drive         *drive,
        double               pct,
        double               time_divisor)
{
  if (!self->time_axis)
    return pct;
  return pct_to_seconds (drive, pct) / time_divisor;
}

static void
duel_chart_write_curve_draw_content (DuelChart           *chart,
                                     cairo_t             *cr,
                                     const DuelChartRect *area)
{
  DuelChartWriteCurve *self = DUEL_CHART_WRITE_CURVE (chart);
  const DuelChartStyle *style = duel_chart_get_style (chart);
  DuelChartAxis x_axis, y_axis;
  DuelChartRect plot;
  double x_max = 0, y_max = 0, y_min_pos = INFINITY, time_divisor = 1;
  const char *x_title;
  g_autofree char *time_title = NULL;
  g_autoptr(DuelChartLabels) labels = NULL;
  char *fall_label[DUEL_COMPARISON_MAX_DRIVES][DUEL_SATURATION_MAX_FALLS] = { { NULL } };
  double fall_px[DUEL_COMPARISON_MAX_DRIVES][DUEL_SATURATION_MAX_FALLS] = { { 0 } };
  double dashes[] = { 6, 4 };

  /* Extents over curves and marks. */
  for (guint d = 0; d < self->n_drives; d++)
    {
      const Drive *drive = &self->drives[d];
      DuelChartLine *line = self->time_axis ? drive->by_time : drive->by_pct;
      double lx0, lx1, ly0, ly1, lpos;

      if (drive->record == NULL)
        continue;
      if (duel_chart_line_get_extent (line, &lx0, &lx1, &ly0, &ly1, &lpos))
        {
          x_max = MAX (x_max, lx1);
          y_max = MAX (y_max, ly1);
          y_min_pos = MIN (y_min_pos, lpos);
        }
      for (guint m = 0; m < N_MARKS; m++)
        {
          if (!isfinite (drive->mark_iops[m]))
            continue;
          y_max = MAX (y_max, drive->mark_iops[m]);
          if (drive->mark_iops[m] > 0)
            y_min_pos = MIN (y_min_pos, drive->mark_iops[m]);
          if (!self->time_axis && isfinite (drive->mark_pct[m]))
            x_max = MAX (x_max, drive->mark_pct[m]);
        }
    }

  if (self->time_axis)
    {
      if (x_max > 3 * 3600)
        {
          time_divisor = 3600;
          time_title = g_strdup (_("Time (h)"));
        }
      else if (x_max > 180)
        {
          time_divisor = 60;
          time_title = g_strdup (_("Time (min)"));
        }
      else
        time_title = g_strdup (_("Time (s)"));
      x_title = time_title;
      duel_chart_axis_init (&x_axis, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, 1);
      duel_chart_axis_fit (&x_axis, 0, x_max > 0 ? x_max / time_divisor : 1, TRUE);
    }
  else
    {
      x_title = _("Capacity written (%)");
      duel_chart_axis_init (&x_axis, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_PERCENT, 0, 1);
      /* The review's frame, 0–200 %, unless a run wrote more. */
      duel_chart_axis_fit (&x_axis, 0, MAX (x_max, 200), TRUE);
    }

  if (self->log_scale)
    {
      duel_chart_axis_init (&y_axis, DUEL_CHART_SCALE_LOG, DUEL_CHART_FORMAT_NUMBER, 1, 10);
      duel_chart_axis_fit (&y_axis, isfinite (y_min_pos) ? y_min_pos : 1, MAX (y_max, 1), FALSE);
    }
  else
    {
      duel_chart_axis_init (&y_axis, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, 1);
      duel_chart_axis_fit (&y_axis, 0, MAX (y_max * 1.08, 1), TRUE);
    }

  duel_chart_axes_layout (cr, style, &x_axis, &y_axis, x_title, _("IOPS"), area, &plot);
  duel_chart_axes_draw_grid (cr, style, &x_axis, &y_axis, &plot);
  duel_chart_add_plot_rect (chart, &plot);
  labels = duel_chart_labels_new (&plot);

  cairo_save (cr);
  cairo_rectangle (cr, plot.x, plot.y, plot.width, plot.height);
  cairo_clip (cr);

  /* Curves, one path each. */
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint d = 0; d < self->n_drives; d++)
    {
      const Drive *drive = &self->drives[d];
      DuelChartLine *line = self->time_axis ? drive->by_time : drive->by_pct;

      if (drive->record == NULL || duel_chart_line_get_length (line) == 0)
        continue;
      duel_chart_set_source_color (cr, duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN));
      if (self->time_axis && time_divisor != 1)
        {
          DuelChartAxis scaled = x_axis;
          /* The lines hold seconds; the axis shows minutes or hours. */
          scaled.min *= time_divisor;
          scaled.max *= time_divisor;
          duel_chart_line_draw (line, cr, &scaled, &y_axis, &plot, style->line_width);
        }
      else
        duel_chart_line_draw (line, cr, &x_axis, &y_axis, &plot, style->line_width);
    }

  /* Plateau and cliff, dashed in the drive's colour. */
  cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
  for (guint d = 0; d < self->n_drives; d++)
    {
      const Drive *drive = &self->drives[d];
      const DuelChartColor *color = duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN);

      if (drive->record == NULL)
        continue;
      cairo_set_line_width (cr, style->line_width);
      duel_chart_set_source_color (cr, color);

      if (isfinite (drive->plateau_iops) && isfinite (drive->plateau_lo_pct) && !self->time_axis)
        {
          double py = duel_chart_snap_y (cr, duel_chart_axis_map (&y_axis, drive->plateau_iops));
          cairo_move_to (cr, duel_chart_axis_map (&x_axis, drive->plateau_lo_pct), py);
          cairo_line_to (cr, duel_chart_axis_map (&x_axis, drive->plateau_hi_pct), py);
          cairo_stroke (cr);
        }

      /* Each fall at its knee; the last is the write cliff. */
      for (guint f = 0; f < drive->n_falls; f++)
        {
          double cx = mark_x (self, drive, drive->fall_pct[f], time_divisor);
          gboolean cliff = f + 1 == drive->n_falls;
          g_autofree char *pct = NULL;
          g_autofree char *label = NULL;
          double px;

          if (!isfinite (cx))
            continue;
          pct = duel_chart_format_number (drive->fall_pct[f], 0);
          /* Coarse rows: how far off the knee may be. */
          if (drive->fall_resolution_pct[f] >= 1)
            {
              g_autofree char *within = duel_chart_format_number (drive->fall_resolution_pct[f], 0);

              /* TRANSLATORS: chart labels at the falls of the write curve:
               * where each begins, in % of capacity written, ± how far off
               * that may be; the last fall is the write cliff */
              label = cliff ? g_strdup_printf (_("cliff %s %% ± %s"), pct, within)
                            : g_strdup_printf (_("fall %s %% ± %s"), pct, within);
            }
          else
            /* TRANSLATORS: chart labels at the falls of the write curve, in % of capacity written */
            label = cliff ? g_strdup_printf (_("cliff %s %%"), pct) : g_strdup_printf (_("fall %s %%"), pct);
          px = duel_chart_snap_x (cr, duel_chart_axis_map (&x_axis, cx));
          cairo_move_to (cr, px, plot.y);
          cairo_line_to (cr, px, plot.y + plot.height);
          cairo_stroke (cr);
          fall_label[d][f] = g_steal_pointer (&label);
          fall_px[d][f] = px;
        }
    }
  cairo_set_dash (cr, NULL, 0, 0);
  cairo_restore (cr);

  /* Marks with their values, the higher drive's label above, the lower's
   * below; then each plateau's value at its left end and each cliff's
   * position by its line. The marks are drawn first: no label covers one. */
  for (guint m = 0; m < N_MARKS; m++)
    {
      for (guint d = 0; d < self->n_drives; d++)
        {
          const Drive *drive = &self->drives[d];
          const DuelChartColor *color = duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN);
          gboolean above = TRUE;
          double x, px, py;

          if (drive->record == NULL || !isfinite (drive->mark_iops[m]))
            continue;
          x = mark_x (self, drive, drive->mark_pct[m], time_divisor);
          if (!isfinite (x))
            continue;
          for (guint o = 0; o < self->n_drives; o++)
            if (o != d && isfinite (self->drives[o].mark_iops[m]) &&
                self->drives[o].mark_iops[m] > drive->mark_iops[m])
              above = FALSE;

          px = duel_chart_axis_map (&x_axis, x);
          py = duel_chart_axis_map (&y_axis, drive->mark_iops[m]);
          if (py < plot.y - 1 || py > plot.y + plot.height + 1)
            continue;
          {
            double size = drive->published ? 13 : 10;
            DuelChartRect mark = { px - size / 2, py - size / 2, size, size };
            g_autofree char *value = duel_chart_format_number (drive->mark_iops[m], 0);

            duel_chart_draw_mark (cr, style, DUEL_CHART_MARK_MARKER, color, px, py, size);
            duel_chart_labels_avoid (labels, &mark);
            duel_chart_labels_add (labels, value, color, px, py,
                                   above ? DUEL_CHART_LABEL_ABOVE : DUEL_CHART_LABEL_BELOW);
          }
        }
    }

  if (!self->time_axis)
    {
      for (guint d = 0; d < self->n_drives; d++)
        {
          const Drive *drive = &self->drives[d];
          g_autofree char *value = NULL;
          g_autofree char *label = NULL;

          if (drive->record == NULL || !isfinite (drive->plateau_iops) || !isfinite (drive->plateau_lo_pct))
            continue;
          value = duel_chart_format_number (drive->plateau_iops, 0);
          label = g_strdup_printf (_("plateau %s"), value);
          duel_chart_labels_add (labels, label, duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN),
                                 duel_chart_axis_map (&x_axis, drive->plateau_lo_pct),
                                 duel_chart_axis_map (&y_axis, drive->plateau_iops), DUEL_CHART_LABEL_LEFT);
        }
    }
  for (guint d = 0; d < self->n_drives; d++)
    for (guint f = 0; f < DUEL_SATURATION_MAX_FALLS; f++)
      {
        if (fall_label[d][f] != NULL)
          duel_chart_labels_add (labels, fall_label[d][f],
                                 duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN),
                                 fall_px[d][f], plot.y + style->font_size, DUEL_CHART_LABEL_RIGHT);
        g_free (fall_label[d][f]);
      }
  duel_chart_labels_draw (labels, cr, style);
  duel_chart_add_labels (chart, labels);

  duel_chart_axes_draw (cr, style, &x_axis, &y_axis, x_title, _("IOPS"), &plot);
}

static void
duel_chart_write_curve_write_csv (DuelChart *chart,
                                  GString   *csv)
{
  DuelChartWriteCurve *self = DUEL_CHART_WRITE_CURVE (chart);
  DuelComparison *comparison = duel_chart_get_comparison (chart);

  g_string_append (csv, "drive,source,percent_written,time_s,write_iops\n");
  for (guint d = 0; d < self->n_drives; d++)
    {
      const Drive *drive = &self->drives[d];
      const char *name = duel_comparison_get_drive_name (comparison, d);
      const double *px = duel_chart_line_get_x (drive->by_pct);
      const double *tx = duel_chart_line_get_x (drive->by_time);
      const double *y = duel_chart_line_get_y (drive->by_pct);

      if (drive->record == NULL)
        continue;
      for (guint i = 0; i < duel_chart_line_get_length (drive->by_pct); i++)
        {
          duel_chart_csv_append_field (csv, name);
          g_string_append (csv, ",measured,");
          duel_chart_csv_append_number (csv, "%.6g", px[i]);
          g_string_append_c (csv, ',');
          duel_chart_csv_append_number (csv, "%.3f", tx[i]);
          g_string_append_c (csv, ',');
          duel_chart_csv_append_number (csv, "%.6g", y[i]);
          g_string_append_c (csv, '\n');
        }
      if (drive->published)
        {
          for (guint m = 0; m < N_MARKS; m++)
            {
              if (!isfinite (drive->mark_iops[m]) || !isfinite (drive->mark_pct[m]))
                continue;
              duel_chart_csv_append_field (csv, name);
              g_string_append (csv, ",published,");
              duel_chart_csv_append_number (csv, "%.6g", drive->mark_pct[m]);
              g_string_append (csv, ",,");
              duel_chart_csv_append_number (csv, "%.6g", drive->mark_iops[m]);
              g_string_append_c (csv, '\n');
            }
        }
    }
}

static void
duel_chart_write_curve_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  DuelChartWriteCurve *self = DUEL_CHART_WRITE_CURVE (object);

  switch (prop_id)
    {
    case PROP_LOG_SCALE:
      g_value_set_boolean (value, self->log_scale);
      break;

    case PROP_TIME_AXIS:
      g_value_set_boolean (value, self->time_axis);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_chart_write_curve_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  DuelChartWriteCurve *self = DUEL_CHART_WRITE_CURVE (object);

  switch (prop_id)
    {
    case PROP_LOG_SCALE:
      duel_chart_write_curve_set_log_scale (self, g_value_get_boolean (value));
      break;

    case PROP_TIME_AXIS:
      duel_chart_write_curve_set_time_axis (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_chart_write_curve_finalize (GObject *object)
{
  DuelChartWriteCurve *self = DUEL_CHART_WRITE_CURVE (object);

  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    drive_clear (&self->drives[d]);

  G_OBJECT_CLASS (duel_chart_write_curve_parent_class)->finalize (object);
}

static void
duel_chart_write_curve_class_init (DuelChartWriteCurveClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  DuelChartClass *chart_class = DUEL_CHART_CLASS (klass);

  object_class->finalize = duel_chart_write_curve_finalize;
  object_class->get_property = duel_chart_write_curve_get_property;
  object_class->set_property = duel_chart_write_curve_set_property;

  chart_class->id = "write-curve";
  chart_class->tab_title = N_("Write Curve");
  chart_class->rebuild = duel_chart_write_curve_rebuild;
  chart_class->get_title = duel_chart_write_curve_get_title;
  chart_class->get_subtitle = duel_chart_write_curve_get_subtitle;
  chart_class->has_data = duel_chart_write_curve_has_data;
  chart_class->fill_legend = duel_chart_write_curve_fill_legend;
  chart_class->draw_content = duel_chart_write_curve_draw_content;
  chart_class->write_csv = duel_chart_write_curve_write_csv;

  properties[PROP_LOG_SCALE] =
    g_param_spec_boolean ("log-scale", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_TIME_AXIS] =
    g_param_spec_boolean ("time-axis", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
duel_chart_write_curve_init (DuelChartWriteCurve *self)
{
}

DuelChart *
duel_chart_write_curve_new (DuelComparison *comparison)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), NULL);

  return g_object_new (DUEL_TYPE_CHART_WRITE_CURVE, "comparison", comparison, NULL);
}

gboolean
duel_chart_write_curve_get_log_scale (DuelChartWriteCurve *self)
{
  g_return_val_if_fail (DUEL_IS_CHART_WRITE_CURVE (self), FALSE);
  return self->log_scale;
}

void
duel_chart_write_curve_set_log_scale (DuelChartWriteCurve *self,
                                      gboolean             log_scale)
{
  g_return_if_fail (DUEL_IS_CHART_WRITE_CURVE (self));

  log_scale = !!log_scale;
  if (self->log_scale == log_scale)
    return;
  self->log_scale = log_scale;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOG_SCALE]);
}

gboolean
duel_chart_write_curve_get_time_axis (DuelChartWriteCurve *self)
{
  g_return_val_if_fail (DUEL_IS_CHART_WRITE_CURVE (self), FALSE);
  return self->time_axis;
}

void
duel_chart_write_curve_set_time_axis (DuelChartWriteCurve *self,
                                      gboolean             time_axis)
{
  g_return_if_fail (DUEL_IS_CHART_WRITE_CURVE (self));

  time_axis = !!time_axis;
  if (self->time_axis == time_axis)
    return;
  self->time_axis = time_axis;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_AXIS]);
}
