/* duel-chart-sequential-write.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "duel-chart-private.h"
#include "duel-chart-sequential-write.h"
#include "duel-json.h"

#define MAX_FALLS 4

typedef struct
{
  DuelTestRecord *record;        /* borrowed from the comparison's result */
  DuelChartLine  *line;          /* x: GB written, y: MB/s */
  GArray         *seconds;       /* double: each point's time from the start, for the CSV */
  guint           n_falls;
  double          fall_gb[MAX_FALLS];
  double          fall_resolution_gb[MAX_FALLS];
} Drive;

struct _DuelChartSequentialWrite
{
  DuelChart parent_instance;

  Drive     drives[DUEL_COMPARISON_MAX_DRIVES];
  guint     n_drives;
  /* One record charted as the first drive's, whatever its analysis (the
   * Run page: the write as it grows, a cache after idle); NULL: each
   * drive's sequential write. */
  DuelTestRecord *test;
};

enum
{
  PROP_0,
  PROP_TEST,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

struct _DuelChartSequentialWriteClass
{
  DuelChartClass parent_class;
};

G_DEFINE_FINAL_TYPE (DuelChartSequentialWrite, duel_chart_sequential_write, DUEL_TYPE_CHART)

static void
drive_clear (Drive *drive)
{
  g_clear_pointer (&drive->line, duel_chart_line_free);
  g_clear_pointer (&drive->seconds, g_array_unref);
  drive->record = NULL;
  drive->n_falls = 0;
}

static double
member_or_nan (JsonObject *object,
               const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NAN;
  return json_node_get_double (node);
}

static void
build_drive (DuelChartSequentialWrite *self,
             guint                     index)
{
  DuelComparison *comparison = duel_chart_get_comparison (DUEL_CHART (self));
  Drive *drive = &self->drives[index];
  DuelTestRecord *record = self->test != NULL ? (index == 0 ? self->test : NULL)
                           : duel_comparison_find_test (comparison, index, DUEL_ANALYSIS_SEQUENTIAL_WRITE);
  JsonObject *write;
  JsonArray *falls;
  const DuelSeriesRow *rows;
  double cumulative = 0;
  guint n;

  drive->line = duel_chart_line_new ();
  drive->seconds = g_array_new (FALSE, FALSE, sizeof (double));
  drive->record = record;
  if (record == NULL || record->series == NULL)
    return;

  n = duel_series_get_length (record->series);
  rows = duel_series_get_rows (record->series);
  for (guint i = 0; rows != NULL && i < n; i++)
    {
      double ms = (double) duel_series_row_duration_ms (record->series, i);
      double bytes = (double) rows[i].bytes[DUEL_DIRECTION_WRITE];
      double mbps = ms > 0 ? bytes / 1e6 / (ms / 1e3) : NAN;
      double middle_s = (rows[i].t_ms - ms / 2) / 1e3;

      /* Each row at the middle of what it wrote; one a pause of the
       * process touched is not the drive's speed. */
      if (duel_test_record_row_paused (record, i))
        mbps = NAN;
      duel_chart_line_append (drive->line, (cumulative + bytes / 2) / 1e9, mbps);
      g_array_append_val (drive->seconds, middle_s);
      cumulative += bytes;
    }
  duel_chart_line_prepare (drive->line);

  /* The falls as the analysis stored them. */
  write = duel_json_get_object (duel_json_get_object (record->summary, "details"), "sequential_write");
  falls = write != NULL ? duel_json_get_array (write, "falls") : NULL;
  for (guint f = 0; falls != NULL && f < json_array_get_length (falls) && drive->n_falls < MAX_FALLS; f++)
    {
      JsonObject *fall = json_array_get_object_element (falls, f);

      drive->fall_gb[drive->n_falls] = member_or_nan (fall, "knee_bytes") / 1e9;
      drive->fall_resolution_gb[drive->n_falls] = member_or_nan (fall, "resolution_bytes") / 1e9;
      drive->n_falls++;
    }
}

static void
duel_chart_sequential_write_rebuild (DuelChart *chart)
{
  DuelChartSequentialWrite *self = DUEL_CHART_SEQUENTIAL_WRITE (chart);
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
  return drive->record != NULL && duel_chart_line_get_length (drive->line) > 0;
}

static gboolean
duel_chart_sequential_write_has_data (DuelChart *chart)
{
  DuelChartSequentialWrite *self = DUEL_CHART_SEQUENTIAL_WRITE (chart);

  for (guint d = 0; d < self->n_drives; d++)
    if (drive_has_data (&self->drives[d]))
      return TRUE;
  return FALSE;
}

static char *
duel_chart_sequential_write_get_title (DuelChart *chart)
{
  return g_strdup (_("Sustained sequential write: MB/s while writing the drive"));
}

static char *
duel_chart_sequential_write_get_subtitle (DuelChart *chart)
{
  DuelChartSequentialWrite *self = DUEL_CHART_SEQUENTIAL_WRITE (chart);

  for (guint d = 0; d < self->n_drives; d++)
    if (self->drives[d].record != NULL)
      return duel_chart_describe_workload (self->drives[d].record);
  return NULL;
}

static void
duel_chart_sequential_write_fill_legend (DuelChart       *chart,
                                         DuelChartLegend *legend)
{
  DuelChartSequentialWrite *self = DUEL_CHART_SEQUENTIAL_WRITE (chart);
  const DuelChartStyle *style = duel_chart_get_style (chart);
  gboolean any_fall = FALSE;

  for (guint d = 0; d < self->n_drives; d++)
    {
      g_autofree char *label = duel_chart_dup_drive_label (chart, d);

      if (!drive_has_data (&self->drives[d]))
        continue;
      duel_chart_legend_add (legend, DUEL_CHART_MARK_LINE,
                             duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN), label);
      any_fall |= self->drives[d].n_falls > 0;
    }
  if (any_fall)
    /* TRANSLATORS: the chart's legend: dashed lines mark where the write
     * cache ran out, and where folding slowed the write again */
    duel_chart_legend_add (legend, DUEL_CHART_MARK_DASH, &style->guide, _("Cache ran out; folding"));
}

/* "cache 42.3 GB ± 0.4", "cache 0.33 GB ± 0.05", "folding 60.1 GB". */
static char *
fall_label (guint  fall,
            double gb,
            double resolution_gb)
{
  guint decimals = gb >= 10 ? 1 : 2;
  g_autofree char *at = duel_chart_format_number (gb, decimals);

  /* The ± as precise as the place: "0.33 GB ± 0.05", not "± 0.1"; none
   * where it rounds to nothing. */
  if (isfinite (resolution_gb) && resolution_gb >= 0.5 * pow (10, -(double) decimals))
    {
      g_autofree char *within = duel_chart_format_number (resolution_gb, decimals);

      /* TRANSLATORS: chart labels at the falls of the sequential write: where
       * the cache ran out (then where folding began, then any further fall),
       * in GB written, ± how far off that may be */
      return fall == 0 ? g_strdup_printf (_("cache %s GB ± %s"), at, within)
           : fall == 1 ? g_strdup_printf (_("folding %s GB ± %s"), at, within)
                       : g_strdup_printf (_("fall %s GB ± %s"), at, within);
    }
  /* TRANSLATORS: chart labels at the falls of the sequential write, in GB written */
  return fall == 0 ? g_strdup_printf (_("cache %s GB"), at)
       : fall == 1 ? g_strdup_printf (_("folding %s GB"), at)
                   : g_strdup_printf (_("fall %s GB"), at);
}

static void
duel_chart_sequential_write_draw_content (DuelChart           *chart,
                                          cairo_t             *cr,
                                          const DuelChartRect *area)
{
  DuelChartSequentialWrite *self = DUEL_CHART_SEQUENTIAL_WRITE (chart);
  const DuelChartStyle *style = duel_chart_get_style (chart);
  DuelChartAxis x_axis, y_axis;
  DuelChartRect plot;
  double x_max = 0, y_max = 0;
  g_autoptr(DuelChartLabels) labels = NULL;
  double dashes[] = { 6, 4 };

  for (guint d = 0; d < self->n_drives; d++)
    {
      double lx0, lx1, ly0, ly1, lpos;

      if (drive_has_data (&self->drives[d]) &&
          duel_chart_line_get_extent (self->drives[d].line, &lx0, &lx1, &ly0, &ly1, &lpos))
        {
          x_max = MAX (x_max, lx1);
          y_max = MAX (y_max, ly1);
        }
    }

  duel_chart_axis_init (&x_axis, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, 1);
  duel_chart_axis_fit (&x_axis, 0, x_max > 0 ? x_max : 1, TRUE);
  duel_chart_axis_init (&y_axis, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, 1);
  duel_chart_axis_fit (&y_axis, 0, MAX (y_max * 1.08, 1), TRUE);

  duel_chart_axes_layout (cr, style, &x_axis, &y_axis, _("Data written (GB)"), _("MB/s"), area, &plot);
  duel_chart_axes_draw_grid (cr, style, &x_axis, &y_axis, &plot);
  duel_chart_add_plot_rect (chart, &plot);
  labels = duel_chart_labels_new (&plot);

  cairo_save (cr);
  cairo_rectangle (cr, plot.x, plot.y, plot.width, plot.height);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint d = 0; d < self->n_drives; d++)
    {
      if (!drive_has_data (&self->drives[d]))
        continue;
      duel_chart_set_source_color (cr, duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN));
      duel_chart_line_draw (self->drives[d].line, cr, &x_axis, &y_axis, &plot, style->line_width);
    }

  /* Each fall at its knee, dashed in the drive's colour. */
  cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
  cairo_set_line_width (cr, style->line_width);
  for (guint d = 0; d < self->n_drives; d++)
    {
      const Drive *drive = &self->drives[d];
      const DuelChartColor *color = duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN);

      if (!drive_has_data (drive))
        continue;
      duel_chart_set_source_color (cr, color);
      for (guint f = 0; f < drive->n_falls; f++)
        {
          g_autofree char *label = NULL;
          double px;

          if (!isfinite (drive->fall_gb[f]))
            continue;
          px = duel_chart_snap_x (cr, duel_chart_axis_map (&x_axis, drive->fall_gb[f]));
          cairo_move_to (cr, px, plot.y);
          cairo_line_to (cr, px, plot.y + plot.height);
          cairo_stroke (cr);
          label = fall_label (f, drive->fall_gb[f], drive->fall_resolution_gb[f]);
          duel_chart_labels_add (labels, label, color, px, plot.y + style->font_size * (1 + 1.5 * d),
                                 DUEL_CHART_LABEL_RIGHT);
        }
    }
  cairo_set_dash (cr, NULL, 0, 0);
  cairo_restore (cr);

  duel_chart_labels_draw (labels, cr, style);
  duel_chart_add_labels (chart, labels);
  duel_chart_axes_draw (cr, style, &x_axis, &y_axis, _("Data written (GB)"), _("MB/s"), &plot);
}

static void
duel_chart_sequential_write_write_csv (DuelChart *chart,
                                       GString   *csv)
{
  DuelChartSequentialWrite *self = DUEL_CHART_SEQUENTIAL_WRITE (chart);
  DuelComparison *comparison = duel_chart_get_comparison (chart);

  g_string_append (csv, "drive,gb_written,time_s,write_mbps\n");
  for (guint d = 0; d < self->n_drives; d++)
    {
      const Drive *drive = &self->drives[d];
      const char *name = duel_comparison_get_drive_name (comparison, d);
      const double *x, *y;

      if (!drive_has_data (drive))
        continue;
      x = duel_chart_line_get_x (drive->line);
      y = duel_chart_line_get_y (drive->line);
      for (guint i = 0; i < duel_chart_line_get_length (drive->line); i++)
        {
          duel_chart_csv_append_field (csv, name);
          g_string_append_c (csv, ',');
          duel_chart_csv_append_number (csv, "%.6g", x[i]);
          g_string_append_c (csv, ',');
          duel_chart_csv_append_number (csv, "%.3f", g_array_index (drive->seconds, double, i));
          g_string_append_c (csv, ',');
          duel_chart_csv_append_number (csv, "%.6g", y[i]);
          g_string_append_c (csv, '\n');
        }
    }
}

static void
duel_chart_sequential_write_finalize (GObject *object)
{
  DuelChartSequentialWrite *self = DUEL_CHART_SEQUENTIAL_WRITE (object);

  for (guint d = 0; d < DUEL_COMPARISON_MAX_DRIVES; d++)
    drive_clear (&self->drives[d]);
  g_clear_pointer (&self->test, duel_test_record_unref);

  G_OBJECT_CLASS (duel_chart_sequential_write_parent_class)->finalize (object);
}

static void
duel_chart_sequential_write_get_property (GObject    *object,
                                          guint       prop_id,
                                          GValue     *value,
                                          GParamSpec *pspec)
{
  DuelChartSequentialWrite *self = DUEL_CHART_SEQUENTIAL_WRITE (object);

  switch (prop_id)
    {
    case PROP_TEST:
      g_value_set_boxed (value, self->test);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_chart_sequential_write_set_property (GObject      *object,
                                          guint         prop_id,
                                          const GValue *value,
                                          GParamSpec   *pspec)
{
  DuelChartSequentialWrite *self = DUEL_CHART_SEQUENTIAL_WRITE (object);

  switch (prop_id)
    {
    case PROP_TEST:
      self->test = g_value_dup_boxed (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
duel_chart_sequential_write_class_init (DuelChartSequentialWriteClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  DuelChartClass *chart_class = DUEL_CHART_CLASS (klass);

  object_class->finalize = duel_chart_sequential_write_finalize;
  object_class->get_property = duel_chart_sequential_write_get_property;
  object_class->set_property = duel_chart_sequential_write_set_property;

  chart_class->id = "sequential-write";
  chart_class->tab_title = N_("Sequential Write");
  /* Only results with the cache test have it: its tab shows then. */
  chart_class->only_with_data = TRUE;
  chart_class->rebuild = duel_chart_sequential_write_rebuild;
  chart_class->get_title = duel_chart_sequential_write_get_title;
  chart_class->get_subtitle = duel_chart_sequential_write_get_subtitle;
  chart_class->has_data = duel_chart_sequential_write_has_data;
  chart_class->fill_legend = duel_chart_sequential_write_fill_legend;
  chart_class->draw_content = duel_chart_sequential_write_draw_content;
  chart_class->write_csv = duel_chart_sequential_write_write_csv;

  properties[PROP_TEST] =
    g_param_spec_boxed ("test", NULL, NULL, DUEL_TYPE_TEST_RECORD,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
duel_chart_sequential_write_init (DuelChartSequentialWrite *self)
{
}

DuelChart *
duel_chart_sequential_write_new (DuelComparison *comparison)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), NULL);

  return g_object_new (DUEL_TYPE_CHART_SEQUENTIAL_WRITE, "comparison", comparison, NULL);
}

DuelChart *
duel_chart_sequential_write_new_for_test (DuelComparison *comparison,
                                          DuelTestRecord *test)
{
  g_return_val_if_fail (DUEL_IS_COMPARISON (comparison), NULL);
  g_return_val_if_fail (test != NULL, NULL);

  return g_object_new (DUEL_TYPE_CHART_SEQUENTIAL_WRITE, "test", test, "comparison", comparison, NULL);
}
