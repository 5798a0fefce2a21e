/* duel-chart-consistency.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-chart-private.h"
#include "duel-chart-consistency.h"

/* Series index: the total, or one direction. */
enum {
  SERIES_TOTAL,
  SERIES_READ,
  SERIES_WRITE,
  N_SERIES
};

typedef struct
{
  double mean;
  double slowest;     /* the 99.9 % slowest interval */
} Levels;

typedef struct
{
  DuelTestRecord *record;
  gboolean        published;
  DuelChartLine  *points[N_SERIES];   /* x: seconds at the interval's middle */
  Levels          levels[N_SERIES];
} Drive;

struct _DuelChartConsistency
{
  DuelChart parent_instance;

  gboolean        split;
  DuelTestRecord *test;    /* the one record shown (a live run's running step); NULL: the analysis' */
  Drive           drives[DUEL_COMPARISON_MAX_DRIVES];
  guint     n_drives;
};

struct _DuelChartConsistencyClass
{
  DuelChartClass parent_class;
};

G_DEFINE_FINAL_TYPE (DuelChartConsistency, duel_chart_consistency, DUEL_TYPE_CHART)

enum {
  PROP_0,
  PROP_SPLIT_DIRECTIONS,
  PROP_TEST,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
drive_clear (Drive *drive)
{
  for (guint s = 0; s < N_SERIES; s++)
    g_clear_pointer (&drive->points[s], duel_chart_line_free);
  drive->record = NULL;
}

/* The analysis' figures for one direction: the same function on a copy of
 * the series in which the other direction did nothing. */
static void
direction_levels (const DuelTestRecord *record,
                  DuelDirection         keep,
                  Levels               *out)
{
  g_autoptr(DuelSeries) copy = duel_series_new ();
  g_autoptr(DuelSeries) unpaused = NULL;
  const DuelSeries *series = duel_test_record_get_figure_series (record, &unpaused);
  DuelSeriesIter iter;
  const DuelSeriesRow *kept;
  DuelConsistency c;

  duel_series_reserve (copy, duel_series_get_length (series));
  duel_series_iter_init (&iter, series);
  while ((kept = duel_series_iter_next (&iter)) != NULL)
    {
      DuelSeriesRow row = *kept;
      DuelDirection other = keep == DUEL_DIRECTION_READ ? DUEL_DIRECTION_WRITE : DUEL_DIRECTION_READ;

      row.ops[other] = 0;
      row.bytes[other] = 0;
      row.lat_max_ns[other] = 0;
      duel_series_append (copy, &row);
    }
  duel_analysis_consistency (copy, record->workload.interval_ms, record->workload.queue_depth, &c);
  out->mean = c.mean_iops;
  out->slowest = c.slowest_iops;
}

/* The record drawn for drive @index: the consistency test, or the one
 * record asked for when that drive's result holds it. */
static DuelTestRecord *
pick_record (DuelChartConsistency *self,
             guint                 index)
{
  DuelComparison *comparison = duel_chart_get_comparison (DUEL_CHART (self));
  GPtrArray *tests;

  if (self->test == NULL)
    return duel_comparison_find_test (comparison, index, DUEL_ANALYSIS_CONSISTENCY);
  tests = duel_result_get_tests (duel_comparison_get_result (comparison, index));
  return g_ptr_array_find (tests, self->test, NULL) ? self->test : NULL;
}

static void
build_drive (DuelChartConsistency *self,
             guint                 index)
{
  DuelComparison *comparison = duel_chart_get_comparison (DUEL_CHART (self));
  Drive *drive = &self->drives[index];
  DuelTestRecord *record = pick_record (self, index);
  g_autoptr(DuelSeries) unpaused = NULL;
  const DuelSeriesRow *rows;
  DuelConsistency c;

  drive->published = duel_comparison_is_published (comparison, index);
  for (guint s = 0; s < N_SERIES; s++)
    {
      drive->points[s] = duel_chart_line_new ();
      drive->levels[s].mean = drive->levels[s].slowest = NAN;
    }
  drive->record = record;
  if (record == NULL)
    return;

  if (drive->published)
    {
      drive->levels[SERIES_TOTAL].mean = duel_test_record_get_figure_value (record, "consistency_mean_iops");
      drive->levels[SERIES_TOTAL].slowest = duel_test_record_get_figure_value (record, "consistency_slowest_iops");
      drive->levels[SERIES_READ].mean = duel_test_record_get_figure_value (record, "consistency_read_iops");
      drive->levels[SERIES_WRITE].mean = duel_test_record_get_figure_value (record, "consistency_write_iops");
      return;
    }

  rows = duel_series_get_rows (record->series);
  for (guint i = 0; i < duel_series_get_length (record->series); i++)
    {
      double ms = (double) duel_series_row_duration_ms (record->series, i);
      double x = (rows[i].t_ms - ms / 2) / 1e3;
      double r, w;

      /* A pause of the process touched it: not the drive's. */
      if (ms <= 0 || duel_test_record_row_paused (record, i))
        continue;
      r = rows[i].ops[DUEL_DIRECTION_READ] / (ms / 1e3);
      w = rows[i].ops[DUEL_DIRECTION_WRITE] / (ms / 1e3);
      duel_chart_line_append (drive->points[SERIES_TOTAL], x, r + w);
      duel_chart_line_append (drive->points[SERIES_READ], x, r);
      duel_chart_line_append (drive->points[SERIES_WRITE], x, w);
    }

  duel_analysis_consistency (duel_test_record_get_figure_series (record, &unpaused),
                             record->workload.interval_ms, record->workload.queue_depth, &c);
  drive->levels[SERIES_TOTAL].mean = c.mean_iops;
  drive->levels[SERIES_TOTAL].slowest = c.slowest_iops;
  direction_levels (record, DUEL_DIRECTION_READ, &drive->levels[SERIES_READ]);
  direction_levels (record, DUEL_DIRECTION_WRITE, &drive->levels[SERIES_WRITE]);
}

static void
duel_chart_consistency_rebuild (DuelChart *chart)
{
  DuelChartConsistency *self = DUEL_CHART_CONSISTENCY (chart);
  DuelComparison *comparison = duel_chart_get_comparison (chart);

  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    drive_clear (&self->drives[d]);
  self->n_drives = duel_comparison_get_n_drives (comparison);
  for (guint d = 0; d < self->n_drives; d++)
    build_drive (self, d);
}

static gboolean
drive_has_data (const Drive *drive)
{
  if (drive->record == NULL)
    return FALSE;
  return duel_chart_line_get_length (drive->points[SERIES_TOTAL]) > 0 ||
         isfinite (drive->levels[SERIES_TOTAL].mean) || isfinite (drive->levels[SERIES_TOTAL].slowest);
}

static gboolean
duel_chart_consistency_has_data (DuelChart *chart)
{
  DuelChartConsistency *self = DUEL_CHART_CONSISTENCY (chart);

  for (guint d = 0; d < self->n_drives; d++)
    if (drive_has_data (&self->drives[d]))
      return TRUE;
  return FALSE;
}

static char *
duel_chart_consistency_get_title (DuelChart *chart)
{
  /* One record of any kind (a read score, a plain run) is not a consistency test. */
  if (DUEL_CHART_CONSISTENCY (chart)->test != NULL)
    return g_strdup (_("IOPS per interval"));
  return g_strdup (_("Performance consistency: IOPS per interval"));
}

static char *
duel_chart_consistency_get_subtitle (DuelChart *chart)
{
  DuelChartConsistency *self = DUEL_CHART_CONSISTENCY (chart);
  const DuelTestRecord *record = NULL;

  for (guint d = 0; d < self->n_drives && record == NULL; d++)
    if (self->drives[d].record != NULL && !self->drives[d].published)
      record = self->drives[d].record;
  for (guint d = 0; d < self->n_drives && record == NULL; d++)
    record = self->drives[d].record;
  if (record == NULL)
    return NULL;
  return duel_chart_describe_workload (record);
}

/* The series drawn for the current mode. */
static void
visible_series (DuelChartConsistency *self,
                guint                *out_first,
                guint                *out_last)
{
  *out_first = self->split ? SERIES_READ : SERIES_TOTAL;
  *out_last = self->split ? SERIES_WRITE : SERIES_TOTAL;
}

static const DuelChartColor *
series_color (const DuelChartStyle *style,
              guint                 drive,
              guint                 series)
{
  return duel_chart_style_get_drive_color (style, drive,
                                           series == SERIES_WRITE ? DUEL_CHART_ROLE_SECOND : DUEL_CHART_ROLE_MAIN);
}

static gboolean
any_level (DuelChartConsistency *self,
           guint                 first,
           guint                 last,
           gboolean              mean)
{
  for (guint d = 0; d < self->n_drives; d++)
    for (guint s = first; s <= last; s++)
      if (self->drives[d].record != NULL &&
          isfinite (mean ? self->drives[d].levels[s].mean : self->drives[d].levels[s].slowest))
        return TRUE;
  return FALSE;
}

static void
duel_chart_consistency_fill_legend (DuelChart       *chart,
                                    DuelChartLegend *legend)
{
  DuelChartConsistency *self = DUEL_CHART_CONSISTENCY (chart);
  const DuelChartStyle *style = duel_chart_get_style (chart);
  guint first, last;

  visible_series (self, &first, &last);
  for (guint d = 0; d < self->n_drives; d++)
    {
      const Drive *drive = &self->drives[d];
      g_autofree char *name = duel_chart_dup_drive_label (chart, d);

      if (!drive_has_data (drive))
        continue;
      for (guint s = first; s <= last; s++)
        {
          g_autofree char *label = NULL;

          if (s == SERIES_READ)
            label = g_strdup_printf (_("%s, read"), name);
          else if (s == SERIES_WRITE)
            label = g_strdup_printf (_("%s, write"), name);
          else
            label = g_strdup (name);
          duel_chart_legend_add (legend, drive->published ? DUEL_CHART_MARK_MARKER : DUEL_CHART_MARK_DOT,
                                 series_color (style, d, s), label);
        }
    }
  if (any_level (self, first, last, TRUE))
    duel_chart_legend_add (legend, DUEL_CHART_MARK_DASH, &style->guide, _("mean"));
  if (any_level (self, first, last, FALSE))
    duel_chart_legend_add (legend, DUEL_CHART_MARK_LINE, &style->guide, _("slowest interval (99.9 %)"));
}

static void
draw_level (cairo_t              *cr,
            const DuelChartStyle *style,
            const DuelChartColor *color,
            const DuelChartAxis  *y_axis,
            const DuelChartRect  *plot,
            double                value,
            gboolean              dashed,
            const char           *label,
            double                label_x,
            DuelChartLabels      *labels)
{
  double dashes[] = { 6, 4 };
  double py;

  if (!isfinite (value))
    return;
  py = duel_chart_snap_y (cr, duel_chart_axis_map (y_axis, value));
  if (py < plot->y || py > plot->y + plot->height)
    return;

  cairo_save (cr);
  duel_chart_set_source_color (cr, color);
  cairo_set_line_width (cr, style->line_width * (dashed ? 1.0 : 1.3));
  if (dashed)
    cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
  cairo_move_to (cr, plot->x, py);
  cairo_line_to (cr, plot->x + plot->width, py);
  cairo_stroke (cr);
  cairo_restore (cr);

  if (label != NULL)
    {
      double w, h;

      /* Above the line, ending at @label_x. */
      duel_chart_measure_text (cr, style, DUEL_CHART_TEXT_ANNOTATION, label, &w, &h);
      duel_chart_labels_add (labels, label, color, label_x - w / 2, py, DUEL_CHART_LABEL_ABOVE);
    }
}

static void
duel_chart_consistency_draw_content (DuelChart           *chart,
                                     cairo_t             *cr,
                                     const DuelChartRect *area)
{
  DuelChartConsistency *self = DUEL_CHART_CONSISTENCY (chart);
  const DuelChartStyle *style = duel_chart_get_style (chart);
  DuelChartAxis x_axis, y_axis, x_seconds;
  DuelChartRect plot;
  double x_max = 0, y_max = 0, divisor = 1;
  const char *x_title;
  guint first, last;
  guint label_slot = 0;
  gboolean has_time;
  g_autoptr(DuelChartLabels) labels = NULL;

  visible_series (self, &first, &last);
  for (guint d = 0; d < self->n_drives; d++)
    {
      const Drive *drive = &self->drives[d];

      if (drive->record == NULL)
        continue;
      for (guint s = first; s <= last; s++)
        {
          double x0, x1, y0, y1;

          if (duel_chart_line_get_extent (drive->points[s], &x0, &x1, &y0, &y1, NULL))
            {
              x_max = MAX (x_max, x1);
              y_max = MAX (y_max, y1);
            }
          if (isfinite (drive->levels[s].mean))
            y_max = MAX (y_max, drive->levels[s].mean);
          if (isfinite (drive->levels[s].slowest))
            y_max = MAX (y_max, drive->levels[s].slowest);
        }
    }

  if (x_max > 3 * 3600)
    {
      divisor = 3600;
      x_title = _("Time (h)");
    }
  else if (x_max > 180)
    {
      divisor = 60;
      x_title = _("Time (min)");
    }
  else
    x_title = _("Time (s)");

  /* Published levels alone have no time: no time axis then. */
  has_time = x_max > 0;
  if (!has_time)
    x_title = NULL;
  duel_chart_axis_init (&x_axis, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, 1);
  duel_chart_axis_fit (&x_axis, 0, has_time ? x_max / divisor : 1, TRUE);
  duel_chart_axis_init (&y_axis, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, 1);
  duel_chart_axis_fit (&y_axis, 0, MAX (y_max * 1.05, 1), TRUE);

  duel_chart_axes_layout (cr, style, has_time ? &x_axis : NULL, &y_axis, x_title, _("IOPS"), area, &plot);
  if (!has_time)
    {
      x_axis.start = plot.x;
      x_axis.end = plot.x + plot.width;
    }
  duel_chart_axes_draw_grid (cr, style, has_time ? &x_axis : NULL, &y_axis, &plot);
  duel_chart_add_plot_rect (chart, &plot);
  labels = duel_chart_labels_new (&plot);
  /* The points hold seconds; the axis may show minutes or hours. */
  x_seconds = x_axis;
  x_seconds.min *= divisor;
  x_seconds.max *= divisor;

  cairo_save (cr);
  cairo_rectangle (cr, plot.x, plot.y, plot.width, plot.height);
  cairo_clip (cr);
  for (guint d = 0; d < self->n_drives; d++)
    {
      for (guint s = first; s <= last; s++)
        {
          const Drive *drive = &self->drives[d];

          if (drive->record == NULL || duel_chart_line_get_length (drive->points[s]) == 0)
            continue;
          duel_chart_line_append_scatter (drive->points[s], cr, &x_seconds, &y_axis, &plot, 3.0);
          duel_chart_set_source_color (cr, series_color (style, d, s));
          cairo_fill (cr);
        }
    }
  cairo_restore (cr);

  /* Levels over the points, labelled at the right. */
  for (guint d = 0; d < self->n_drives; d++)
    {
      const Drive *drive = &self->drives[d];

      if (drive->record == NULL)
        continue;
      for (guint s = first; s <= last; s++)
        {
          const DuelChartColor *color = series_color (style, d, s);
          g_autofree char *mean = duel_chart_format_number (drive->levels[s].mean, 0);
          g_autofree char *slowest = duel_chart_format_number (drive->levels[s].slowest, 0);
          g_autofree char *mean_label = g_strdup_printf (_("mean %s"), mean);
          g_autofree char *slowest_label = g_strdup_printf (_("99.9 %% slowest %s"), slowest);
          /* Stagger the labels of different series so they do not sit on each other. */
          double lx = plot.x + plot.width - 4 - (label_slot % 2) * plot.width * 0.28;

          draw_level (cr, style, color, &y_axis, &plot, drive->levels[s].mean, TRUE, mean_label, lx, labels);
          draw_level (cr, style, color, &y_axis, &plot, drive->levels[s].slowest, FALSE, slowest_label, lx, labels);
          label_slot++;
          if (drive->published)
            {
              double level = isfinite (drive->levels[s].slowest) ? drive->levels[s].slowest : drive->levels[s].mean;
              if (isfinite (level))
                duel_chart_draw_mark (cr, style, DUEL_CHART_MARK_MARKER, color,
                                      plot.x + plot.width, duel_chart_axis_map (&y_axis, level), 13);
            }
        }
    }

  duel_chart_labels_draw (labels, cr, style);
  duel_chart_add_labels (chart, labels);
  duel_chart_axes_draw (cr, style, has_time ? &x_axis : NULL, &y_axis, x_title, _("IOPS"), &plot);
}

static void
duel_chart_consistency_write_csv (DuelChart *chart,
                                  GString   *csv)
{
  DuelChartConsistency *self = DUEL_CHART_CONSISTENCY (chart);
  DuelComparison *comparison = duel_chart_get_comparison (chart);

  g_string_append (csv, "drive,source,time_s,read_iops,write_iops,total_iops\n");
  for (guint d = 0; d < self->n_drives; d++)
    {
      const Drive *drive = &self->drives[d];
      const char *name = duel_comparison_get_drive_name (comparison, d);
      const double *x = duel_chart_line_get_x (drive->points[SERIES_TOTAL]);
      const double *total = duel_chart_line_get_y (drive->points[SERIES_TOTAL]);
      const double *read = duel_chart_line_get_y (drive->points[SERIES_READ]);
      const double *write = duel_chart_line_get_y (drive->points[SERIES_WRITE]);

      if (drive->record == NULL)
        continue;
      for (guint i = 0; i < duel_chart_line_get_length (drive->points[SERIES_TOTAL]); i++)
        {
          duel_chart_csv_append_field (csv, name);
          g_string_append (csv, ",measured,");
          duel_chart_csv_append_number (csv, "%.3f", x[i]);
          g_string_append_c (csv, ',');
          duel_chart_csv_append_number (csv, "%.6g", read[i]);
          g_string_append_c (csv, ',');
          duel_chart_csv_append_number (csv, "%.6g", write[i]);
          g_string_append_c (csv, ',');
          duel_chart_csv_append_number (csv, "%.6g", total[i]);
          g_string_append_c (csv, '\n');
        }
      if (drive->published && isfinite (drive->levels[SERIES_TOTAL].slowest))
        {
          duel_chart_csv_append_field (csv, name);
          g_string_append (csv, ",published-99.9%-slowest,,,,");
          duel_chart_csv_append_number (csv, "%.6g", drive->levels[SERIES_TOTAL].slowest);
          g_string_append_c (csv, '\n');
        }
    }
}

static void
duel_chart_consistency_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  DuelChartConsistency *self = DUEL_CHART_CONSISTENCY (object);

  switch (prop_id)
    {
    case PROP_SPLIT_DIRECTIONS:
      g_value_set_boolean (value, self->split);
      break;

    case PROP_TEST:
      g_value_set_boxed (value, self->test);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_chart_consistency_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  DuelChartConsistency *self = DUEL_CHART_CONSISTENCY (object);

  switch (prop_id)
    {
    case PROP_SPLIT_DIRECTIONS:
      duel_chart_consistency_set_split_directions (self, g_value_get_boolean (value));
      break;

    case PROP_TEST:
      self->test = g_value_dup_boxed (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_chart_consistency_finalize (GObject *object)
{
  DuelChartConsistency *self = DUEL_CHART_CONSISTENCY (object);

  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    drive_clear (&self->drives[d]);
  g_clear_pointer (&self->test, duel_test_record_unref);

  G_OBJECT_CLASS (duel_chart_consistency_parent_class)->finalize (object);
}

static void
duel_chart_consistency_class_init (DuelChartConsistencyClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  DuelChartClass *chart_class = DUEL_CHART_CLASS (klass);

  object_class->finalize = duel_chart_consistency_finalize;
  object_class->get_property = duel_chart_consistency_get_property;
  object_class->set_property = duel_chart_consistency_set_property;

  chart_class->id = "consistency";
  chart_class->tab_title = N_("Consistency");
  chart_class->rebuild = duel_chart_consistency_rebuild;
  chart_class->get_title = duel_chart_consistency_get_title;
  chart_class->get_subtitle = duel_chart_consistency_get_subtitle;
  chart_class->has_data = duel_chart_consistency_has_data;
  chart_class->fill_legend = duel_chart_consistency_fill_legend;
  chart_class->draw_content = duel_chart_consistency_draw_content;
  chart_class->write_csv = duel_chart_consistency_write_csv;

  properties[PROP_SPLIT_DIRECTIONS] =
    g_param_spec_boolean ("split-directions", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_TEST] =
    g_param_spec_boxed ("test", NULL, NULL, DUEL_TYPE_TEST_RECORD,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
duel_chart_consistency_init (DuelChartConsistency *self)
{
}

DuelChart *
duel_chart_consistency_new (DuelComparison *comparison)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), NULL);

  return g_object_new (DUEL_TYPE_CHART_CONSISTENCY, "comparison", comparison, NULL);
}

DuelChart *
duel_chart_consistency_new_for_test (DuelComparison *comparison,
                                     DuelTestRecord *test)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), NULL);
  g_return_val_if_fail (test != NULL, NULL);

  return g_object_new (DUEL_TYPE_CHART_CONSISTENCY, "test", test, "comparison", comparison, NULL);
}

gboolean
duel_chart_consistency_get_split_directions (DuelChartConsistency *self)
{
  g_return_val_if_fail (DUEL_IS_CHART_CONSISTENCY (self), FALSE);
  return self->split;
}

void
duel_chart_consistency_set_split_directions (DuelChartConsistency *self,
                                             gboolean              split)
{
  g_return_if_fail (DUEL_IS_CHART_CONSISTENCY (self));

  split = !!split;
  if (self->split == split)
    return;
  self->split = split;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPLIT_DIRECTIONS]);
}
