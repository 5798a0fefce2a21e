/* test-chart.c — the chart drawings: axes, decimation, both drives on every chart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "duel-chart.h"
#include "duel-chart-export.h"
#include "duel-chart-consistency.h"
#include "duel-chart-pts-iops.h"
#include "duel-chart-pts-latency.h"
#include "duel-chart-pts-throughput.h"
#include "duel-chart-recovery.h"
#include "duel-chart-qos.h"
#include "duel-chart-rounds.h"
#include "duel-chart-sequential-write.h"
#include "duel-chart-standard.h"
#include "duel-chart-table.h"
#include "duel-chart-write-curve.h"
#include "test-chart-helpers.h"
#include "test-rounds-records.h"
#include "test-seqw-records.h"

/* ---- Helpers -------------------------------------------------------------- */

static cairo_surface_t *
render (DuelChart *chart,
        double     width,
        double     height,
        double     scale)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                                         (int) (width * scale), (int) (height * scale));
  cairo_t *cr = cairo_create (surface);

  cairo_scale (cr, scale, scale);
  duel_chart_draw (chart, cr, width, height);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* Pixels within a small distance of @color inside @rect (user units × @scale). */
static guint
count_color (cairo_surface_t      *surface,
             const DuelChartRect  *rect,
             double                scale,
             const DuelChartColor *color)
{
  int stride = cairo_image_surface_get_stride (surface);
  int w = cairo_image_surface_get_width (surface);
  int h = cairo_image_surface_get_height (surface);
  const guint8 *data = cairo_image_surface_get_data (surface);
  int x0 = CLAMP ((int) (rect->x * scale), 0, w), x1 = CLAMP ((int) ((rect->x + rect->width) * scale), 0, w);
  int y0 = CLAMP ((int) (rect->y * scale), 0, h), y1 = CLAMP ((int) ((rect->y + rect->height) * scale), 0, h);
  int r = (int) (color->red * 255), g = (int) (color->green * 255), b = (int) (color->blue * 255);
  guint n = 0;

  for (int y = y0; y < y1; y++)
    {
      const guint32 *row = (const guint32 *) (gconstpointer) (data + y * stride);

      for (int x = x0; x < x1; x++)
        {
          guint32 p = row[x];
          int pr = (p >> 16) & 0xff, pg = (p >> 8) & 0xff, pb = p & 0xff;

          if (ABS (pr - r) <= 12 && ABS (pg - g) <= 12 && ABS (pb - b) <= 12)
            n++;
        }
    }
  return n;
}

static DuelComparison *
make_comparison (void)
{
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;
  g_autoptr(GError) error = NULL;
  DuelComparison *comparison;

  test_make_pair (&a, &b);
  comparison = duel_comparison_new (a, b, &error);
  g_assert_no_error (error);
  return comparison;
}

/* ---- Axes ---------------------------------------------------------------------- */

static void
test_axes_linear (void)
{
  DuelChartAxis axis;
  g_autoptr(GArray) ticks = NULL;

  duel_chart_axis_init (&axis, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, 1);
  duel_chart_axis_fit (&axis, 0, 112540, TRUE);
  g_assert_cmpfloat (axis.min, ==, 0);
  g_assert_cmpfloat (axis.max, ==, 125000);
  ticks = duel_chart_axis_get_ticks (&axis);
  g_assert_cmpuint (ticks->len, ==, 6);
  g_assert_cmpfloat (g_array_index (ticks, double, 1), ==, 25000);

  axis.start = 100;
  axis.end = 600;
  g_assert_cmpfloat_with_epsilon (duel_chart_axis_map (&axis, 62500), 350, 1e-9);

  {
    g_autofree char *label = duel_chart_axis_format (&axis, 25000);
    g_autofree char *number = duel_chart_format_number (112540, 0);
    g_autofree char *negative = duel_chart_format_number (-1234567.25, 1);

    g_assert_cmpstr (label, ==, "25k");
    g_assert_cmpstr (number, ==, "112,540");
    g_assert_cmpstr (negative, ==, "-1,234,567.2");
  }
}

/* One rule for numbers people read: under C.UTF-8 the comparison table's
 * text and the write curve's value label print the fill's start alike,
 * grouped ("112,540 IOPS" and "112,540"). */
static void
test_table_and_chart_numbers_agree (void)
{
  g_autofree char *saved = g_strdup (setlocale (LC_NUMERIC, NULL));
  g_autoptr(DuelComparison) comparison = NULL;
  const DuelComparisonRow *row = NULL;
  g_autofree char *label = NULL;
  g_autofree char *with_unit = NULL;

  if (setlocale (LC_NUMERIC, "C.UTF-8") == NULL)
    {
      g_test_skip ("the C.UTF-8 locale is not installed");
      return;
    }
  /* Texts are made when the comparison is. */
  comparison = make_comparison ();
  for (guint i = 0; i < duel_comparison_get_n_rows (comparison); i++)
    if (g_strcmp0 (duel_comparison_get_row (comparison, i)->key, "iops_at_0pct") == 0)
      row = duel_comparison_get_row (comparison, i);
  g_assert_nonnull (row);
  g_assert_true (row->has_value[0] && row->value[0] >= 1000);

  label = duel_chart_format_number (row->value[0], 0);
  with_unit = g_strconcat (label, " IOPS", NULL);
  g_test_message ("table: %s, chart: %s", row->text[0], label);
  g_assert_nonnull (strchr (label, ','));
  g_assert_cmpstr (row->text[0], ==, with_unit);
  setlocale (LC_NUMERIC, saved);
}

static void
test_axes_log_and_nines (void)
{
  DuelChartAxis axis;
  g_autoptr(GArray) ticks = NULL;
  g_autoptr(GArray) nines = NULL;
  g_autofree char *label = NULL;

  duel_chart_axis_init (&axis, DUEL_CHART_SCALE_LOG, DUEL_CHART_FORMAT_DURATION_NS, 1, 10);
  duel_chart_axis_fit (&axis, 37000, 4100000, FALSE);
  g_assert_cmpfloat (axis.min, ==, 10000);
  g_assert_cmpfloat (axis.max, ==, 10000000);
  ticks = duel_chart_axis_get_ticks (&axis);
  g_assert_cmpuint (ticks->len, ==, 4);
  label = duel_chart_axis_format (&axis, 1e6);
  g_assert_cmpstr (label, ==, "1 ms");

  /* Every nine is one step on a percentile axis. */
  duel_chart_axis_init (&axis, DUEL_CHART_SCALE_NINES, DUEL_CHART_FORMAT_NINES, 90, 99.999);
  axis.start = 0;
  axis.end = 400;
  g_assert_cmpfloat_with_epsilon (duel_chart_axis_map (&axis, 99), 100, 1e-6);
  g_assert_cmpfloat_with_epsilon (duel_chart_axis_map (&axis, 99.9), 200, 1e-6);
  g_assert_cmpfloat_with_epsilon (duel_chart_axis_map (&axis, 99.99), 300, 1e-6);
  nines = duel_chart_axis_get_ticks (&axis);
  g_assert_cmpuint (nines->len, ==, 5);
  g_assert_cmpfloat (g_array_index (nines, double, 4), ==, 99.999);
}

/* ---- Decimation ------------------------------------------------------------------ */

static void
test_line_spike_survives (void)
{
  g_autoptr(DuelChartLine) line = duel_chart_line_new ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 400, 200);
  cairo_t *cr = cairo_create (surface);
  DuelChartAxis x, y;
  DuelChartRect plot = { 0, 0, 400, 200 };
  const guint32 *row;
  guint spike_column, found = 0;

  /* A flat million points with one sample far above the rest. */
  for (guint i = 0; i < 1000000; i++)
    duel_chart_line_append (line, i, i == 612345 ? 1000 : 100);

  duel_chart_axis_init (&x, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, 1000000);
  duel_chart_axis_init (&y, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, 1000);
  x.start = 0;
  x.end = 400;
  y.start = 200;
  y.end = 0;

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  duel_chart_line_append_path (line, cr, &x, &y, &plot);
  cairo_set_source_rgb (cr, 0, 0, 0);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
  cairo_surface_flush (surface);

  /* The spike's column is dark near the top; the others are not. */
  spike_column = 612345 * 400 / 1000000;
  for (int yy = 0; yy < 20; yy++)
    {
      row = (const guint32 *) (gconstpointer) (cairo_image_surface_get_data (surface) +
                                               yy * cairo_image_surface_get_stride (surface));
      for (guint xx = 0; xx < 400; xx++)
        {
          if ((row[xx] & 0xff) < 128)
            {
              g_assert_cmpuint (xx, ==, spike_column);
              found++;
            }
        }
    }
  g_assert_cmpuint (found, >, 10);

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
test_line_queries (void)
{
  g_autoptr(DuelChartLine) line = duel_chart_line_new ();
  double x0, x1, y0, y1, pos;

  duel_chart_line_append (line, 0, 0);
  duel_chart_line_append (line, 10, 100);
  duel_chart_line_append (line, 20, NAN);
  duel_chart_line_append (line, 30, 50);

  g_assert_true (duel_chart_line_get_extent (line, &x0, &x1, &y0, &y1, &pos));
  g_assert_cmpfloat (x0, ==, 0);
  g_assert_cmpfloat (x1, ==, 30);
  g_assert_cmpfloat (y0, ==, 0);
  g_assert_cmpfloat (y1, ==, 100);
  g_assert_cmpfloat (pos, ==, 50);
  g_assert_cmpfloat_with_epsilon (duel_chart_line_value_at (line, 5), 50, 1e-9);
  g_assert_true (isnan (duel_chart_line_value_at (line, 40)));
  g_assert_cmpfloat_with_epsilon (duel_chart_line_mean_between (line, 0, 30), 50, 1e-9);
}

/* ---- Every chart shows both drives ------------------------------------------------- */

static void
check_drives (DuelChart            *chart,
              const DuelChartStyle *style,
              double                scale,
              guint                 n_drives);

static void
check_both_drives (DuelChart            *chart,
                   const DuelChartStyle *style,
                   double                scale)
{
  check_drives (chart, style, scale, 2);
}

static void
check_drives (DuelChart            *chart,
              const DuelChartStyle *style,
              double                scale,
              guint                 n_drives)
{
  /* The table is drawn at its full height, as it is exported. */
  cairo_surface_t *surface = render (chart, 1200, duel_chart_export_height_for (chart, 1200, 675), scale);
  DuelChartRect plot;
  const char *id = duel_chart_get_id (chart);

  g_assert_true (duel_chart_has_data (chart));
  g_assert_true (duel_chart_get_plot_rect (chart, &plot));
  g_assert_cmpfloat (plot.width, >, 300);
  g_assert_cmpfloat (plot.height, >, 100);

  for (guint d = 0; d < n_drives; d++)
    {
      guint n = count_color (surface, &plot, scale, duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN));
      if (n < 40)
        g_error ("%s: drive %u has %u pixels of its colour in the plot", id, d, n);
    }
  cairo_surface_destroy (surface);
}

/* Split into reads and writes, a drive is drawn in two colours: reads in its
 * main one, writes in its second. In this comparison every interval is half
 * reads and half writes, so each drive's read dots lie under its write dots
 * and the main colour shows only in the read levels' labels, whose pixels
 * depend on the font rasteriser (69 on Debian 12, 33 with cairo 1.18 and
 * FreeType 2.14): the drive's pixels are those of both colours, and its
 * read labels must be there. */
static void
check_both_drives_split (DuelChart            *chart,
                         const DuelChartStyle *style)
{
  cairo_surface_t *surface = render (chart, 1200, duel_chart_export_height_for (chart, 1200, 675), 1);
  DuelChartRect plot;
  const char *id = duel_chart_get_id (chart);

  g_assert_true (duel_chart_get_plot_rect (chart, &plot));
  for (guint d = 0; d < 2; d++)
    {
      guint reads = count_color (surface, &plot, 1, duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN));
      guint writes = count_color (surface, &plot, 1, duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_SECOND));

      if (reads == 0 || reads + writes < 40)
        g_error ("%s: drive %u has %u pixels of its read colour and %u of its write colour in the plot",
                 id, d, reads, writes);
    }
  cairo_surface_destroy (surface);
}

static void
test_charts_draw_both_drives (gconstpointer data)
{
  DuelChartTheme theme = GPOINTER_TO_INT (data);
  g_autoptr(DuelComparison) comparison = make_comparison ();
  g_autoptr(DuelChartStyle) style = duel_chart_style_new (theme);
  g_autoptr(GPtrArray) charts = duel_chart_new_all (comparison, style);

  g_assert_cmpuint (charts->len, ==, g_strv_length ((char **) duel_chart_get_kind_ids ()));
  for (guint i = 0; i < charts->len; i++)
    {
      /* The steady-state chart: no test in rounds here (test_rounds_chart()). */
      if (!duel_chart_has_data (g_ptr_array_index (charts, i)))
        continue;
      check_both_drives (g_ptr_array_index (charts, i), style, 1);
      /* Any scale: the same drawing on a denser surface. */
      check_both_drives (g_ptr_array_index (charts, i), style, 2);
    }
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 gpointer    user_data)
{
  (*(guint *) user_data)++;
}

static void
test_chart_options (void)
{
  g_autoptr(DuelComparison) comparison = make_comparison ();
  g_autoptr(DuelChartStyle) style = duel_chart_style_new (DUEL_CHART_THEME_LIGHT);
  g_autoptr(DuelChart) curve = duel_chart_write_curve_new (comparison);
  g_autoptr(DuelChart) consistency = duel_chart_consistency_new (comparison);
  g_autoptr(DuelChart) qos = duel_chart_qos_new (comparison);
  guint notified = 0;

  g_signal_connect (curve, "notify", G_CALLBACK (count_notify_cb), &notified);

  duel_chart_write_curve_set_log_scale (DUEL_CHART_WRITE_CURVE (curve), TRUE);
  duel_chart_write_curve_set_log_scale (DUEL_CHART_WRITE_CURVE (curve), TRUE);
  g_assert_cmpuint (notified, ==, 1);
  check_both_drives (curve, style, 1);
  duel_chart_write_curve_set_time_axis (DUEL_CHART_WRITE_CURVE (curve), TRUE);
  g_assert_cmpuint (notified, ==, 2);
  check_both_drives (curve, style, 1);

  duel_chart_consistency_set_split_directions (DUEL_CHART_CONSISTENCY (consistency), TRUE);
  check_both_drives_split (consistency, style);

  duel_chart_qos_set_queue_depth (DUEL_CHART_QOS (qos), 1);
  check_both_drives (qos, style, 1);
  duel_chart_qos_set_mixed (DUEL_CHART_QOS (qos), TRUE);
  duel_chart_qos_set_queue_depth (DUEL_CHART_QOS (qos), 32);
  check_both_drives (qos, style, 1);

  g_object_set (curve, "style", style, NULL);
  g_assert_cmpuint (notified, ==, 3);
}

/* The same charts, but the second drive never ran the consistency test:
 * its colour must not appear there (the pixel check can fail). */
static void
test_chart_missing_drive (void)
{
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;
  g_autoptr(DuelResult) b_partial = duel_result_new ();
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(DuelChartStyle) style = duel_chart_style_new (DUEL_CHART_THEME_LIGHT);
  g_autoptr(DuelChart) chart = NULL;
  GPtrArray *tests;
  cairo_surface_t *surface;
  DuelChartRect plot;

  test_make_pair (&a, &b);
  duel_result_set_name (b_partial, "Beta SSD");
  duel_result_set_device (b_partial, duel_result_get_device (b));
  tests = duel_result_get_tests (b);
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      if (g_strcmp0 (record->name, DUEL_TEST_CONSISTENCY) != 0)
        duel_result_add_test (b_partial, record);
    }

  comparison = duel_comparison_new (a, b_partial, NULL);
  chart = duel_chart_consistency_new (comparison);
  surface = render (chart, 1200, 675, 1);
  g_assert_true (duel_chart_get_plot_rect (chart, &plot));
  g_assert_cmpuint (count_color (surface, &plot, 1, duel_chart_style_get_drive_color (style, 0, DUEL_CHART_ROLE_MAIN)), >, 40);
  g_assert_cmpuint (count_color (surface, &plot, 1, duel_chart_style_get_drive_color (style, 1, DUEL_CHART_ROLE_MAIN)), ==, 0);
  cairo_surface_destroy (surface);
}

/* ---- Published references ----------------------------------------------------------- */

static void
test_chart_published_markers (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", "intel-ssd-750-400gb.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) reference = duel_result_load (path, &error);
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(DuelChart) curve = NULL;
  g_autoptr(DuelChartStyle) style = duel_chart_style_new (DUEL_CHART_THEME_LIGHT);
  g_autofree char *csv = NULL;
  g_auto(GStrv) lines = NULL;
  guint published = 0, measured = 0;

  g_assert_no_error (error);
  g_assert_true (duel_result_is_published (reference));

  test_make_pair (&a, &b);
  comparison = duel_comparison_new (a, reference, &error);
  g_assert_no_error (error);
  curve = duel_chart_write_curve_new (comparison);
  check_both_drives (curve, style, 1);

  /* The reference is three markers (0 %, 50 %, the end), never a curve. */
  csv = duel_chart_to_csv (curve);
  lines = g_strsplit (csv, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "drive,source,percent_written,time_s,write_iops");
  for (guint i = 1; lines[i] && *lines[i]; i++)
    {
      if (g_str_has_prefix (lines[i], "Intel SSD 750 400GB,published,"))
        published++;
      else if (g_str_has_prefix (lines[i], "Alpha SSD,measured,"))
        measured++;
      else
        g_error ("unexpected CSV line: %s", lines[i]);
    }
  g_assert_cmpuint (published, ==, 3);
  g_assert_cmpuint (measured, ==,
                    duel_series_get_length (duel_result_find_test (a, DUEL_TEST_WSAT_FILL)->series));
  g_assert_nonnull (strstr (csv, "Intel SSD 750 400GB,published,0,,112540\n"));
  g_assert_nonnull (strstr (csv, "Intel SSD 750 400GB,published,50,,83061\n"));
  g_assert_nonnull (strstr (csv, "Intel SSD 750 400GB,published,200,,15885\n"));
}

/* ---- CSV columns follow the series ---------------------------------------------------- */

static guint
count_fields (const char *line)
{
  guint n = 1;
  gboolean quoted = FALSE;

  for (const char *p = line; *p; p++)
    {
      if (*p == '"')
        quoted = !quoted;
      else if (*p == ',' && !quoted)
        n++;
    }
  return n;
}

static void
test_chart_csv (void)
{
  g_autoptr(DuelComparison) comparison = make_comparison ();
  g_autoptr(GPtrArray) charts = duel_chart_new_all (comparison, NULL);
  DuelResult *a = duel_comparison_get_result (comparison, 0);

  for (guint i = 0; i < charts->len; i++)
    {
      DuelChart *chart = g_ptr_array_index (charts, i);
      g_autofree char *csv = duel_chart_to_csv (chart);
      g_auto(GStrv) lines = g_strsplit (csv, "\n", -1);
      guint columns = count_fields (lines[0]);
      guint rows_a = 0;
      const char *id = duel_chart_get_id (chart);

      g_assert_cmpuint (columns, >=, 4);
      for (guint l = 1; lines[l] && *lines[l]; l++)
        {
          g_assert_cmpuint (count_fields (lines[l]), ==, columns);
          rows_a += g_str_has_prefix (lines[l], "Alpha SSD,");
        }

      /* One CSV row per point the chart drew for the first drive. */
      if (g_str_equal (id, "write-curve"))
        g_assert_cmpuint (rows_a, ==, duel_series_get_length (duel_result_find_test (a, DUEL_TEST_WSAT_FILL)->series));
      else if (g_str_equal (id, "consistency"))
        g_assert_cmpuint (rows_a, ==, duel_series_get_length (duel_result_find_test (a, DUEL_TEST_CONSISTENCY)->series));
      else if (g_str_equal (id, "standard"))
        g_assert_cmpuint (rows_a, ==, 6);
      else if (g_str_equal (id, "qos"))
        g_assert_cmpuint (rows_a, >, 100);
      else if (g_str_equal (id, "summary"))
        {
          guint n_headline = 0, headline_lines = 0;

          /* The headline rows first, then every row once. */
          duel_comparison_get_headline (comparison, &n_headline);
          for (guint l = 1; lines[l] != NULL && g_str_has_prefix (lines[l], "headline,"); l++)
            headline_lines++;
          g_assert_cmpuint (n_headline, >, 0);
          g_assert_cmpuint (headline_lines, ==, n_headline);
          g_assert_cmpuint (g_strv_length (lines) - 2, ==, n_headline + duel_comparison_get_n_rows (comparison));
        }
    }
}

/* ---- The table pages through all its lines -------------------------------------------- */

static void
test_table_paging (void)
{
  g_autoptr(DuelComparison) comparison = make_comparison ();
  g_autoptr(DuelChart) table = duel_chart_table_new (comparison);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 800, 400);
  cairo_t *cr = cairo_create (surface);
  guint line = 0, pages = 0, n = duel_chart_table_get_n_lines (DUEL_CHART_TABLE (table));
  double tall = duel_chart_table_get_natural_height (DUEL_CHART_TABLE (table), 1200);

  g_assert_cmpuint (n, >, 40);
  g_assert_cmpfloat (tall, >, 675);
  while (line < n)
    {
      guint next = duel_chart_table_draw_page (DUEL_CHART_TABLE (table), cr, 800, 400, line);
      g_assert_cmpuint (next, >, line);
      line = next;
      pages++;
    }
  g_assert_cmpuint (pages, >, 1);
  g_assert_cmpuint (pages, <, n);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static guint check_label_boxes (DuelChart *chart,
                               double     width,
                               double     height);

/* Four drives in every chart, each in its own colour, in both styles; the
 * colours differ from each other and from the ground. */
static void
test_charts_draw_four_drives (gconstpointer data)
{
  DuelChartTheme theme = GPOINTER_TO_INT (data);
  g_autoptr(DuelChartStyle) style = duel_chart_style_new (theme);
  static const double speeds[4] = { 1.0, 0.6, 1.4, 0.8 };
  TestDrive drives[4];
  DuelResult *results[4];
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(GPtrArray) charts = NULL;

  for (guint d = 0; d < 4; d++)
    {
      test_drive_init (&drives[d], d == 0 ? "Alpha SSD" : d == 1 ? "Beta SSD" : d == 2 ? "Gamma SSD" : "Delta SSD",
                       speeds[d], 30 + d);
      drives[d].cliff_pct = 40 + 15 * d;
      results[d] = test_make_result (&drives[d]);
    }
  comparison = duel_comparison_new_for_results (results, 4, NULL);
  for (guint d = 0; d < 4; d++)
    g_object_unref (results[d]);
  g_assert_nonnull (comparison);

  for (guint d = 0; d < 4; d++)
    for (guint e = 0; e < d; e++)
      {
        const DuelChartColor *cd = duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN);
        const DuelChartColor *ce = duel_chart_style_get_drive_color (style, e, DUEL_CHART_ROLE_MAIN);

        g_assert_true (fabs (cd->red - ce->red) + fabs (cd->green - ce->green) + fabs (cd->blue - ce->blue) > 0.3);
      }

  charts = duel_chart_new_all (comparison, style);
  g_assert_cmpuint (charts->len, ==, g_strv_length ((char **) duel_chart_get_kind_ids ()));
  for (guint i = 0; i < charts->len; i++)
    {
      DuelChart *chart = g_ptr_array_index (charts, i);

      /* The table names the drives in their colours in its header only. */
      if (g_strcmp0 (duel_chart_get_id (chart), "summary") == 0 || !duel_chart_has_data (chart))
        continue;
      check_drives (chart, style, 1, 4);
      check_label_boxes (chart, 1200, 675);
    }
}

/* ---- Drive colours stay apart --------------------------------------------------------- */

/* sRGB to linear light (IEC 61966-2-1). */
static double
linear_channel (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

/* WCAG 2 relative luminance and contrast ratio (1 to 21). */
static double
relative_luminance (const DuelChartColor *c)
{
  return 0.2126 * linear_channel (c->red) + 0.7152 * linear_channel (c->green) +
         0.0722 * linear_channel (c->blue);
}

static double
contrast_ratio (const DuelChartColor *a,
                const DuelChartColor *b)
{
  double la = relative_luminance (a), lb = relative_luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

/* CIELAB under D65. */
static double
lab_f (double t)
{
  const double d = 6.0 / 29.0;

  return t > d * d * d ? cbrt (t) : t / (3 * d * d) + 4.0 / 29.0;
}

static void
to_lab (const DuelChartColor *c,
        double                lab[3])
{
  double r = linear_channel (c->red), g = linear_channel (c->green), b = linear_channel (c->blue);
  double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;

  lab[0] = 116 * lab_f (y) - 16;
  lab[1] = 500 * (lab_f (x) - lab_f (y));
  lab[2] = 200 * (lab_f (y) - lab_f (z));
}

static double
radians (double degrees)
{
  return degrees * G_PI / 180;
}

/* CIEDE2000 colour difference between two CIELAB colours (Sharma, Wu and
 * Dalal 2005). */
static double
delta_e_2000_lab (const double lab1[3],
                  const double lab2[3])
{
  double c_mean, g, a1, a2, cp1, cp2, hp1, hp2, dhp, dlp, dcp, dhhp, lp_mean, cp_mean, hp_mean;
  double t, d_theta, rc, sl, sc, sh, rt, c7;

  c_mean = (hypot (lab1[1], lab1[2]) + hypot (lab2[1], lab2[2])) / 2;
  c7 = pow (c_mean, 7);
  g = 0.5 * (1 - sqrt (c7 / (c7 + pow (25, 7))));
  a1 = (1 + g) * lab1[1];
  a2 = (1 + g) * lab2[1];
  cp1 = hypot (a1, lab1[2]);
  cp2 = hypot (a2, lab2[2]);
  hp1 = cp1 == 0 ? 0 : fmod (atan2 (lab1[2], a1) * 180 / G_PI + 360, 360);
  hp2 = cp2 == 0 ? 0 : fmod (atan2 (lab2[2], a2) * 180 / G_PI + 360, 360);

  dlp = lab2[0] - lab1[0];
  dcp = cp2 - cp1;
  dhp = hp2 - hp1;
  if (cp1 * cp2 == 0)
    dhp = 0;
  else if (dhp > 180)
    dhp -= 360;
  else if (dhp < -180)
    dhp += 360;
  dhhp = 2 * sqrt (cp1 * cp2) * sin (radians (dhp / 2));

  lp_mean = (lab1[0] + lab2[0]) / 2;
  cp_mean = (cp1 + cp2) / 2;
  if (cp1 * cp2 == 0)
    hp_mean = hp1 + hp2;
  else if (fabs (hp1 - hp2) <= 180)
    hp_mean = (hp1 + hp2) / 2;
  else
    hp_mean = (hp1 + hp2 + (hp1 + hp2 < 360 ? 360 : -360)) / 2;

  t = 1 - 0.17 * cos (radians (hp_mean - 30)) + 0.24 * cos (radians (2 * hp_mean)) +
      0.32 * cos (radians (3 * hp_mean + 6)) - 0.20 * cos (radians (4 * hp_mean - 63));
  d_theta = 30 * exp (-pow ((hp_mean - 275) / 25, 2));
  c7 = pow (cp_mean, 7);
  rc = 2 * sqrt (c7 / (c7 + pow (25, 7)));
  sl = 1 + 0.015 * pow (lp_mean - 50, 2) / sqrt (20 + pow (lp_mean - 50, 2));
  sc = 1 + 0.045 * cp_mean;
  sh = 1 + 0.015 * cp_mean * t;
  rt = -sin (radians (2 * d_theta)) * rc;

  return sqrt (pow (dlp / sl, 2) + pow (dcp / sc, 2) + pow (dhhp / sh, 2) + rt * (dcp / sc) * (dhhp / sh));
}

static double
delta_e_2000 (const DuelChartColor *c1,
              const DuelChartColor *c2)
{
  double lab1[3], lab2[3];

  to_lab (c1, lab1);
  to_lab (c2, lab2);
  return delta_e_2000_lab (lab1, lab2);
}

/* The formula against pairs of Sharma, Wu and Dalal's test data, and the
 * sRGB to CIELAB step against its ends: the measure the colour test uses. */
static void
test_delta_e_2000 (void)
{
  static const struct { double lab1[3]; double lab2[3]; double delta; } pairs[] = {
    { { 50, 2.6772, -79.7751 }, { 50, 0, -82.7485 }, 2.0425 },
    { { 50, 0, 0 }, { 50, -1, 2 }, 2.3669 },
    { { 50, 2.5, 0 }, { 61, -5, 29 }, 22.8977 },
    { { 50, 2.5, 0 }, { 73, 25, -18 }, 27.1492 },
    { { 50, 2.5, 0 }, { 56, -27, -3 }, 31.9030 },
  };
  DuelChartColor black = { 0, 0, 0, 1 }, white = { 1, 1, 1, 1 };

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_assert_cmpfloat_with_epsilon (delta_e_2000_lab (pairs[i].lab1, pairs[i].lab2), pairs[i].delta, 1e-4);
      g_assert_cmpfloat_with_epsilon (delta_e_2000_lab (pairs[i].lab2, pairs[i].lab1), pairs[i].delta, 1e-4);
    }
  g_assert_cmpfloat_with_epsilon (delta_e_2000 (&black, &white), 100, 0.01);
  g_assert_cmpfloat_with_epsilon (contrast_ratio (&black, &white), 21, 1e-9);
}

/* Between any two drives, in either style: CIEDE2000 at least this far
 * apart. A drive's own two colours (blue and sky blue, vermillion and
 * orange) are about 22 apart: a pair meant to be read as one family. Two
 * drives must be a clear step further; the light style's closest pair
 * (bluish green and sky blue) is 34.7. */
#define DRIVES_MIN_DELTA_E 30.0
/* WCAG 2's 3:1 for graphical objects, each drive's main colour on the ground. */
#define DRIVES_MIN_CONTRAST 3.0

/* The four drives' colours, in both styles: each main colour an Okabe–Ito
 * one (colour-blind safe) that stands out from the ground; any two drives'
 * main colours apart, and a drive's second colour (its other direction,
 * drawn in the same plot) apart from every other drive's main one. */
static void
test_style_drive_colors (gconstpointer data)
{
  DuelChartTheme theme = GPOINTER_TO_INT (data);
  g_autoptr(DuelChartStyle) style = duel_chart_style_new (theme);
  guint too_close = 0;

  for (guint d = 0; d < DUEL_CHART_MAX_DRIVES; d++)
    {
      const DuelChartColor *main_color = duel_chart_style_get_drive_color (style, d, DUEL_CHART_ROLE_MAIN);
      g_autofree char *name = duel_chart_color_to_string (main_color);
      gboolean in_palette = FALSE;
      double ratio = contrast_ratio (main_color, &style->background);

      for (guint p = 0; p < DUEL_CHART_PALETTE_N_COLORS; p++)
        {
          DuelChartColor entry;
          g_autofree char *entry_name = NULL;

          duel_chart_palette_get (p, &entry);
          entry_name = duel_chart_color_to_string (&entry);
          in_palette |= g_str_equal (name, entry_name);
        }
      if (!in_palette)
        g_error ("drive %u's colour %s is not an Okabe–Ito one", d, name);
      if (ratio < DRIVES_MIN_CONTRAST)
        g_error ("drive %u's colour %s has a contrast of %.2f:1 on the ground, under %.0f:1",
                 d, name, ratio, DRIVES_MIN_CONTRAST);
    }

  for (guint d = 0; d < DUEL_CHART_MAX_DRIVES; d++)
    for (guint e = 0; e < DUEL_CHART_MAX_DRIVES; e++)
      for (DuelChartRole role = DUEL_CHART_ROLE_MAIN; role < DUEL_CHART_N_ROLES; role++)
        {
          const DuelChartColor *cd = duel_chart_style_get_drive_color (style, d, role);
          const DuelChartColor *ce = duel_chart_style_get_drive_color (style, e, DUEL_CHART_ROLE_MAIN);
          double delta;

          /* Main against main once per pair; a second against every other drive. */
          if (d == e || (role == DUEL_CHART_ROLE_MAIN && e > d))
            continue;
          delta = delta_e_2000 (cd, ce);
          if (delta < DRIVES_MIN_DELTA_E)
            {
              g_autofree char *a = duel_chart_color_to_string (cd);
              g_autofree char *b = duel_chart_color_to_string (ce);

              g_test_message ("drive %u's %s colour %s and drive %u's main colour %s are only %.1f apart (ΔE00)",
                              d, role == DUEL_CHART_ROLE_MAIN ? "main" : "second", a, e, b, delta);
              too_close++;
            }
        }
  g_assert_cmpuint (too_close, ==, 0);
}

/* ---- Value labels never overlap and never leave the plot ---------------------------- */

/* Every label box the last draw placed lies inside the plot and clear of
 * every other; returns how many were left out. */
static guint
check_label_boxes (DuelChart *chart,
                   double     width,
                   double     height)
{
  cairo_surface_t *surface = render (chart, width, height, 1);
  DuelChartRect plot;
  guint n = 0, dropped = 0;
  const DuelChartRect *boxes = duel_chart_get_label_boxes (chart, &n, &dropped);
  const double eps = 1e-6;

  g_assert_true (duel_chart_get_plot_rect (chart, &plot));
  for (guint i = 0; i < n; i++)
    {
      const DuelChartRect *a = &boxes[i];

      if (a->x < plot.x - eps || a->y < plot.y - eps ||
          a->x + a->width > plot.x + plot.width + eps || a->y + a->height > plot.y + plot.height + eps)
        g_error ("%s at %.0fx%.0f: label %u (%.1f,%.1f %.1fx%.1f) leaves the plot (%.1f,%.1f %.1fx%.1f)",
                 duel_chart_get_id (chart), width, height, i, a->x, a->y, a->width, a->height,
                 plot.x, plot.y, plot.width, plot.height);
      for (guint j = i + 1; j < n; j++)
        {
          const DuelChartRect *b = &boxes[j];

          if (a->x < b->x + b->width - eps && b->x < a->x + a->width - eps &&
              a->y < b->y + b->height - eps && b->y < a->y + a->height - eps)
            g_error ("%s at %.0fx%.0f: labels %u and %u overlap", duel_chart_get_id (chart), width, height, i, j);
        }
    }
  g_test_message ("%s at %.0fx%.0f: %u labels placed, %u left out", duel_chart_get_id (chart), width, height,
                  n, dropped);
  /* To look at them: DUEL_TEST_CHART_DIR=/some/dir. */
  if (g_getenv ("DUEL_TEST_CHART_DIR") != NULL)
    {
      g_autofree char *name = g_strdup_printf ("labels-%s-%.0fx%.0f.png", duel_chart_get_id (chart), width, height);
      g_autofree char *path = g_build_filename (g_getenv ("DUEL_TEST_CHART_DIR"), name, NULL);

      g_assert_cmpint (cairo_surface_write_to_png (surface, path), ==, CAIRO_STATUS_SUCCESS);
    }
  cairo_surface_destroy (surface);
  return dropped;
}

static void
test_chart_labels (void)
{
  /* Two drives a whisker apart: every mark, plateau, cliff and level of
   * one sits on the other's. */
  static const double sizes[][2] = { { 1200, 675 }, { 800, 450 }, { 560, 320 }, { 400, 240 } };
  TestDrive a, b;
  g_autoptr(DuelResult) ra = NULL;
  g_autoptr(DuelResult) rb = NULL;
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(GPtrArray) charts = NULL;
  guint placed_at_full = 0;

  test_drive_init (&a, "Alpha SSD", 1.0, 11);
  a.cliff_pct = 70;
  a.rated = TRUE;
  test_drive_init (&b, "Beta SSD", 1.01, 12);
  b.cliff_pct = 71;
  b.rated = TRUE;
  ra = test_make_result (&a);
  rb = test_make_result (&b);
  comparison = duel_comparison_new (ra, rb, NULL);
  charts = duel_chart_new_all (comparison, NULL);
  for (guint i = 0; i < charts->len; i++)
    for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
      {
        DuelChart *chart = g_ptr_array_index (charts, i);
        guint dropped;

        if (!duel_chart_has_data (chart))
          continue;
        dropped = check_label_boxes (chart, sizes[k][0], sizes[k][1]);

        /* At the export's size every label finds a place. */
        if (k == 0)
          {
            guint n = 0;

            g_assert_cmpuint (dropped, ==, 0);
            duel_chart_get_label_boxes (chart, &n, NULL);
            placed_at_full += n;
          }
      }
  /* Marks, plateaus, cliffs, levels, bar values and ceilings were labelled. */
  g_assert_cmpuint (placed_at_full, >=, 20);

  /* Where there is room, a label sits by its point, not off on a leader:
   * the write curve's 0 % mark is labelled just above or below it. */
  {
    DuelChart *curve = g_ptr_array_index (charts, 0);
    const DuelChartRect *boxes;
    guint n = 0;

    g_assert_cmpstr (duel_chart_get_id (curve), ==, "write-curve");
    check_label_boxes (curve, 1200, 675);
    boxes = duel_chart_get_label_boxes (curve, &n, NULL);
    g_assert_cmpuint (n, >=, 8);
    g_assert_cmpfloat (boxes[0].height, <, 30);
  }
}

/* A title longer than a narrow chart ends with "…" inside the margin:
 * the right margin beside the title and subtitle stays the ground's colour. */
static void
test_chart_title_fits (void)
{
  g_autoptr(DuelComparison) comparison = make_comparison ();
  g_autoptr(DuelChartStyle) style = duel_chart_style_new (DUEL_CHART_THEME_LIGHT);
  g_autoptr(GPtrArray) charts = duel_chart_new_all (comparison, style);
  const double width = 360, height = 240, pad = style->font_size * 1.25;

  for (guint i = 0; i < charts->len; i++)
    {
      cairo_surface_t *surface = render (g_ptr_array_index (charts, i), width, height, 1);
      DuelChartRect margin = { width - pad + 1, 0, pad - 1, pad + 2 * style->font_size * 1.6 };
      guint area = (guint) (margin.width) * (guint) margin.height;
      guint ground = count_color (surface, &margin, 1, &style->background);

      if (ground < area)
        g_error ("%s at %.0f px: %u pixels drawn in the right margin beside the title",
                 duel_chart_get_id (g_ptr_array_index (charts, i)), width, area - ground);
      cairo_surface_destroy (surface);
    }
}

static gboolean
same_number (double a,
             double b)
{
  if (isnan (a) || isnan (b))
    return isnan (a) && isnan (b);
  return fabs (a - b) <= 1e-9 * MAX (fabs (a), fabs (b));
}

/* The write-curve chart reads a fill's summary typed, as the analysis made
 * it, when the record was summarised in this process, and from the JSON
 * only for a loaded file: both must say the same, field by field. */
static void
test_fill_summary_typed_and_loaded (void)
{
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;
  DuelResult *results[2];
  g_autofree char *dir = g_dir_make_tmp ("duel-typed-XXXXXX", NULL);

  test_make_pair (&a, &b);
  results[0] = a;
  results[1] = b;
  for (guint r = 0; r < 2; r++)
    {
      g_autofree char *path = g_strdup_printf ("%s/%u.json", dir, r);
      g_autoptr(DuelResult) loaded = NULL;
      g_autoptr(GError) error = NULL;
      DuelTestRecord *made = duel_result_find_test (results[r], "wsat-fill");
      DuelTestRecord *read;
      DuelSaturationSummary typed, from_file;

      g_assert_nonnull (made->typed_summary);
      duel_saturation_summary_from_record (made, &typed);
      g_assert_true (duel_result_save (results[r], path, &error));
      g_assert_no_error (error);
      loaded = duel_result_load (path, &error);
      g_assert_no_error (error);
      read = duel_result_find_test (loaded, "wsat-fill");
      g_assert_null (read->typed_summary);
      duel_saturation_summary_from_record (read, &from_file);

      /* A cliff and its fall, so that the falls are compared too. */
      g_assert_cmpuint (typed.n_falls, >=, 1);
      g_assert_cmpuint (typed.n_falls, ==, from_file.n_falls);
      for (guint i = 0; i < 4; i++)
        g_assert_true (same_number (typed.iops_at_pct[i], from_file.iops_at_pct[i]));
      g_assert_true (same_number (typed.written_pct, from_file.written_pct));
      g_assert_true (same_number (typed.plateau_iops, from_file.plateau_iops));
      g_assert_true (same_number (typed.plateau_lo_pct, from_file.plateau_lo_pct));
      g_assert_true (same_number (typed.plateau_hi_pct, from_file.plateau_hi_pct));
      g_assert_true (same_number (typed.cliff_pct, from_file.cliff_pct));
      for (guint i = 0; i < typed.n_falls; i++)
        {
          g_assert_true (same_number (typed.falls[i].knee_pct, from_file.falls[i].knee_pct));
          g_assert_true (same_number (typed.falls[i].resolution_pct, from_file.falls[i].resolution_pct));
          g_assert_true (same_number (typed.falls[i].before_iops, from_file.falls[i].before_iops));
          g_assert_true (same_number (typed.falls[i].after_iops, from_file.falls[i].after_iops));
        }
      g_unlink (path);
    }
  g_rmdir (dir);
}

/* ---- Steady state of a test in rounds ------------------------------------------------ */

/* A result of a test in rounds whose tracked figure is @tracked[r] in
 * round r + 1, and a second cell beside it. */
static DuelResult *
make_rounds_result (const char   *name,
                    const double *tracked,
                    guint         n_rounds)
{
  DuelResult *result = duel_result_new ();

  duel_result_set_name (result, name);
  for (guint r = 1; r <= n_rounds; r++)
    {
      test_add_round_cell (result, "pts-iops-4k-r0", 4096, 0, r, tracked[r - 1], NAN);
      test_add_round_cell (result, "pts-iops-64k-r100", 65536, 100, r, 9000, NAN);
    }
  return result;
}

/* Two drives: A steady in round 6 (window 2–6), B never within its limits
 * in 7 rounds. Both drawn in their colours; the CSV has every round, the
 * window marked, the verdict per drive. */
static void
test_rounds_chart (void)
{
  static const double a[] = { 90000, 53000, 52000, 50000, 51000, 49000 };
  static const double b[] = { 80000, 40000, 70000, 30000, 60000, 35000, 65000 };
  g_autoptr(DuelResult) ra = make_rounds_result ("Alpha SSD", a, G_N_ELEMENTS (a));
  g_autoptr(DuelResult) rb = make_rounds_result ("Beta SSD", b, G_N_ELEMENTS (b));
  g_autoptr(DuelComparison) comparison = duel_comparison_new (ra, rb, NULL);
  g_autoptr(DuelChartStyle) style = duel_chart_style_new (DUEL_CHART_THEME_LIGHT);
  g_autoptr(DuelChart) chart = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *title = NULL;
  g_auto(GStrv) lines = NULL;

  chart = g_object_new (DUEL_TYPE_CHART_ROUNDS, "comparison", comparison, "style", style, NULL);
  g_assert_true (duel_chart_has_data (chart));
  title = duel_chart_get_title (chart);
  g_assert_nonnull (strstr (title, "SNIA IOPS"));
  check_both_drives (chart, style, 1);

  csv = duel_chart_to_csv (chart);
  lines = g_strsplit (csv, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "drive,test,round,tracked_step,tracked_key,value,in_window,steady");
  /* Six rounds of A, seven of B, and the empty line after the last. */
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 6 + 7 + 1);
  /* A: rounds 1–5 fail (range 40 000 > 0.2 x 59 200), 2–6 pass (range
   * 4 000 ≤ 0.2 x 51 000; slope −900 a round, 3 600 ≤ 0.1 x 51 000). B:
   * no window passes; its last, 3–7, is the one marked. */
  g_assert_cmpstr (lines[1], ==, "Alpha SSD,pts-iops,1,pts-iops-4k-r0,iops,90000,false,true");
  g_assert_cmpstr (lines[6], ==, "Alpha SSD,pts-iops,6,pts-iops-4k-r0,iops,49000,true,true");
  g_assert_cmpstr (lines[7], ==, "Beta SSD,pts-iops,1,pts-iops-4k-r0,iops,80000,false,false");
  g_assert_cmpstr (lines[13], ==, "Beta SSD,pts-iops,7,pts-iops-4k-r0,iops,65000,true,false");

  /* SNIA's window plot: only the window, its mean and bands, the fitted line. */
  {
    g_autoptr(DuelComparison) alone = duel_comparison_new (ra, NULL, NULL);
    g_autoptr(DuelChart) window = g_object_new (DUEL_TYPE_CHART_ROUNDS, "comparison", alone, "style", style,
                                                "window-only", TRUE, NULL);
    g_autofree char *window_title = duel_chart_get_title (window);
    g_autofree char *window_subtitle = duel_chart_get_subtitle (window);
    cairo_surface_t *surface;
    DuelChartRect plot;

    g_assert_nonnull (strstr (window_title, "window"));
    /* Rounds 2–6, mean 51 000, slope −900 a round (worked out above). */
    g_assert_nonnull (strstr (window_subtitle, "rounds 2–6"));
    g_assert_nonnull (strstr (window_subtitle, "51,000"));
    g_assert_nonnull (strstr (window_subtitle, "-900"));
    surface = render (window, 1200, 675, 1);
    g_assert_true (duel_chart_get_plot_rect (window, &plot));
    cairo_surface_destroy (surface);
  }
}


/* The field @column (0-based) of the CSV line starting with @prefix. */
static char *
csv_field (const char *csv,
           const char *prefix,
           guint       column)
{
  g_auto(GStrv) lines = g_strsplit (csv, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      {
        g_auto(GStrv) fields = g_strsplit (lines[i], ",", -1);

        g_assert_cmpuint (g_strv_length (fields), ==, 10);
        return g_strdup (fields[column]);
      }
  g_error ("no CSV line starts with %s", prefix);
  return NULL;
}

/* SNIA's IOPS plot from hand-made records: four cells in six rounds, the
 * tracked 4 KiB write steady in round 6 (window 2–6). Each cell's figure
 * in the CSV is its mean over rounds 2–6, worked out by hand; the round
 * before the window is left out (its outlier would show). One drive: the
 * lines by block size; two: the 4 KiB bars side by side. */
static void
test_pts_matrix_chart (void)
{
  static const double tracked[] = { 90000, 53000, 52000, 50000, 51000, 49000 };
  g_autoptr(DuelResult) a = duel_result_new ();
  g_autoptr(DuelResult) b = NULL;
  g_autoptr(DuelComparison) one = NULL;
  g_autoptr(DuelComparison) two = NULL;
  g_autoptr(DuelChartStyle) style = duel_chart_style_new (DUEL_CHART_THEME_LIGHT);
  g_autoptr(DuelChart) chart = NULL;
  g_autoptr(DuelChart) latency = NULL;
  g_autoptr(DuelChart) compared = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *title = NULL;
  g_autofree char *compared_title = NULL;
  g_auto(GStrv) lines = NULL;

  duel_result_set_name (a, "Alpha SSD");
  for (guint r = 1; r <= 6; r++)
    {
      test_add_round_cell (a, "pts-iops-4k-r0", 4096, 0, r, tracked[r - 1], NAN);
      /* 101 000 … 106 000: rounds 2–6 average 104 000. */
      test_add_round_cell (a, "pts-iops-4k-r100", 4096, 100, r, 100000 + r * 1000, NAN);
      /* 5 000 … 10 000: rounds 2–6 average 8 000; the longest I/O of the
       * window is round 6's 600 µs, round 1's 5 000 µs is before it. */
      test_add_round_cell (a, "pts-iops-64k-r0", 65536, 0, r, 4000 + r * 1000, r == 1 ? 5000 : r * 100);
      test_add_round_cell (a, "pts-iops-64k-r100", 65536, 100, r, 9000, NAN);
    }
  one = duel_comparison_new (a, NULL, NULL);
  chart = g_object_new (DUEL_TYPE_CHART_PTS_IOPS, "comparison", one, "style", style, NULL);
  g_assert_true (duel_chart_has_data (chart));
  g_assert_false (duel_chart_shows_without_data (chart));
  g_assert_cmpstr (duel_chart_get_id (chart), ==, "pts-iops");
  title = duel_chart_get_title (chart);
  g_assert_nonnull (strstr (title, "by block size"));

  csv = duel_chart_to_csv (chart);
  lines = g_strsplit (csv, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "drive,test,block_size,read_percent,window_rounds,iops,mbps,"
                                 "latency_mean_us,latency_p9999_us,latency_max_us");
  /* Four cells and the empty line after the last; block sizes ascending, 100/0 first. */
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 4 + 1);
  g_assert_true (g_str_has_prefix (lines[1], "Alpha SSD,pts-iops,4096,100,5,"));
  g_assert_true (g_str_has_prefix (lines[4], "Alpha SSD,pts-iops,65536,0,5,"));
  {
    g_autofree char *w4 = csv_field (csv, "Alpha SSD,pts-iops,4096,0,", 5);
    g_autofree char *r4 = csv_field (csv, "Alpha SSD,pts-iops,4096,100,", 5);
    g_autofree char *w64 = csv_field (csv, "Alpha SSD,pts-iops,65536,0,", 5);
    g_autofree char *w64_max = csv_field (csv, "Alpha SSD,pts-iops,65536,0,", 9);
    g_autofree char *r64 = csv_field (csv, "Alpha SSD,pts-iops,65536,100,", 5);

    /* (53 000 + 52 000 + 50 000 + 51 000 + 49 000) / 5 */
    g_assert_cmpstr (w4, ==, "51000");
    g_assert_cmpstr (r4, ==, "104000");
    g_assert_cmpstr (w64, ==, "8000");
    g_assert_cmpstr (w64_max, ==, "600");
    g_assert_cmpstr (r64, ==, "9000");
  }
  {
    cairo_surface_t *surface = render (chart, 1200, 675, 1);
    DuelChartRect plot;

    g_assert_true (duel_chart_get_plot_rect (chart, &plot));
    cairo_surface_destroy (surface);
  }

  /* Asked for a block size no drive ran: the smallest that ran, said in the title. */
  {
    g_autoptr(DuelChart) at_8k = g_object_new (DUEL_TYPE_CHART_PTS_IOPS, "comparison", one, "block-size", 8192, NULL);

    g_assert_cmpuint (duel_chart_matrix_get_block_size (DUEL_CHART_MATRIX (at_8k)), ==, 4096);
  }

  /* Not the latency or the throughput test: those charts have nothing. */
  latency = g_object_new (DUEL_TYPE_CHART_PTS_LATENCY, "comparison", one, "style", style, NULL);
  g_assert_false (duel_chart_has_data (latency));
  {
    g_autoptr(DuelChart) throughput = g_object_new (DUEL_TYPE_CHART_PTS_THROUGHPUT, "comparison", one, NULL);

    g_assert_false (duel_chart_has_data (throughput));
  }

  /* Two drives: the 4 KiB cells side by side, each drive's own means. */
  b = duel_result_new ();
  duel_result_set_name (b, "Beta SSD");
  for (guint r = 1; r <= 6; r++)
    {
      test_add_round_cell (b, "pts-iops-4k-r0", 4096, 0, r, 30000, NAN);
      test_add_round_cell (b, "pts-iops-4k-r100", 4096, 100, r, 60000, NAN);
    }
  two = duel_comparison_new (a, b, NULL);
  compared = g_object_new (DUEL_TYPE_CHART_PTS_IOPS, "comparison", two, "style", style, NULL);
  compared_title = duel_chart_get_title (compared);
  g_assert_nonnull (strstr (compared_title, "4 KiB"));
  check_both_drives (compared, style, 1);
  {
    g_autofree char *csv_two = duel_chart_to_csv (compared);
    g_autofree char *beta = csv_field (csv_two, "Beta SSD,pts-iops,4096,0,", 5);

    /* Beta steady in round 5 at a flat 30 000: rounds 1–5. */
    g_assert_cmpstr (beta, ==, "30000");
  }
}


/* A cell of SNIA's latency test in round @round: mean latency @mean_us and
 * the longest @max_us, under the test's own rules (4 KiB write tracked). */
static void
add_latency_cell (DuelResult *result,
                  const char *name,
                  guint32     block_size,
                  guint       read_percent,
                  guint       round,
                  double      mean_us,
                  double      max_us)
{
  g_autoptr(DuelSummary) summary = duel_summary_new ();
  g_autoptr(DuelTestRecord) record = NULL;
  JsonObject *details, *rules;
  DuelWorkload workload;

  duel_workload_init (&workload);
  workload.block_size = block_size;
  workload.read_percent = read_percent;
  workload.queue_depth = 1;
  record = duel_test_record_new (name, &workload);
  record->status = DUEL_TEST_STATUS_COMPLETE;
  duel_summary_add (summary, "latency_mean_us", mean_us);
  duel_summary_add (summary, "latency_max_us", max_us);
  duel_analysis_apply (record, DUEL_ANALYSIS_MATRIX_CELL, NULL, summary);
  details = duel_test_record_get_details (record);
  json_object_set_string_member (details, "section", "pts-latency");
  json_object_set_int_member (details, "round", round);
  rules = json_object_new ();
  json_object_set_int_member (rules, "max_rounds", 25);
  json_object_set_int_member (rules, "window", 5);
  json_object_set_double_member (rules, "data_limit", 0.2);
  json_object_set_double_member (rules, "slope_limit", 0.1);
  json_object_set_string_member (rules, "tracked_step", "pts-lat-4k-r0");
  json_object_set_string_member (rules, "tracked_key", "latency_mean_us");
  json_object_set_object_member (details, "rounds", rules);
  duel_result_add_test (result, record);
}

/* SNIA's latency plot: a flat 4 KiB write (steady in round 5, rounds 1–5)
 * and a 512 B read whose mean climbs 10 µs a round: the CSV has its mean
 * over rounds 1–5 (120 µs) and the longest of them (round 5's 900 µs, not
 * round 6's 5 000, which ran after the window). */
static void
test_pts_latency_chart (void)
{
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(DuelChart) chart = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *mean = NULL;
  g_autofree char *max = NULL;
  g_autofree char *write_mean = NULL;
  cairo_surface_t *surface;
  DuelChartRect plot;

  duel_result_set_name (result, "Alpha SSD");
  for (guint r = 1; r <= 6; r++)
    {
      add_latency_cell (result, "pts-lat-4k-r0", 4096, 0, r, 50, 400);
      add_latency_cell (result, "pts-lat-512-r100", 512, 100, r, 100 + r * 10 - 10, r == 6 ? 5000 : 500 + r * 80);
    }
  comparison = duel_comparison_new (result, NULL, NULL);
  chart = g_object_new (DUEL_TYPE_CHART_PTS_LATENCY, "comparison", comparison, NULL);
  g_assert_true (duel_chart_has_data (chart));
  csv = duel_chart_to_csv (chart);
  /* (100 + 110 + 120 + 130 + 140) / 5 */
  mean = csv_field (csv, "Alpha SSD,pts-latency,512,100,", 7);
  max = csv_field (csv, "Alpha SSD,pts-latency,512,100,", 9);
  write_mean = csv_field (csv, "Alpha SSD,pts-latency,4096,0,", 7);
  g_assert_cmpstr (mean, ==, "120");
  g_assert_cmpstr (max, ==, "900");
  g_assert_cmpstr (write_mean, ==, "50");
  surface = render (chart, 1200, 675, 1);
  g_assert_true (duel_chart_get_plot_rect (chart, &plot));
  cairo_surface_destroy (surface);
}

/* ---- The sustained sequential write ------------------------------------------ */

/* Results of @n drives holding the sequential write alone: drive d's cache
 * of 100 + 100 d GB at 6,000 MB/s, then 1,500 − 300 d MB/s to 1 TB. */
static DuelComparison *
make_seqw_comparison (guint n)
{
  static const char * const names[4] = { "Alpha SSD", "Beta SSD", "Gamma SSD", "Delta SSD" };
  DuelResult *results[4];
  DuelComparison *comparison;

  for (guint d = 0; d < n; d++)
    {
      TestStretch shape[2] = { { 100 + 100.0 * d, 6000 }, { 900 - 100.0 * d, 1500 - 300.0 * d } };
      DuelTestRecord *record = test_seqw_make_record (shape, 2, 1000, 0.1, 20 + d);
      DuelTargetInfo target = { (char *) "/dev/nvme0n1", DUEL_TARGET_KIND_BLOCK, record->span_length, 512, 4096 };
      g_autoptr(DuelSummary) summary = duel_analysis_summarize (record, DUEL_ANALYSIS_SEQUENTIAL_WRITE, NULL);

      duel_analysis_apply (record, DUEL_ANALYSIS_SEQUENTIAL_WRITE, NULL, summary);
      results[d] = duel_result_new ();
      duel_result_set_target (results[d], &target);
      duel_result_set_name (results[d], names[d]);
      duel_result_add_test (results[d], record);
      duel_test_record_unref (record);
    }
  comparison = duel_comparison_new_for_results (results, n, NULL);
  for (guint d = 0; d < n; d++)
    g_object_unref (results[d]);
  g_assert_nonnull (comparison);
  return comparison;
}

/* MB/s against GB written for one drive and for four, each in its colour,
 * a label at each cache's end; its CSV holds every row of every drive;
 * the other charts of these results have nothing to draw, the write curve
 * included (the sequential write is not the random fill). */
static void
test_sequential_write_chart (void)
{
  g_autoptr(DuelChartStyle) style = duel_chart_style_new (DUEL_CHART_THEME_LIGHT);

  for (guint n = 1; n <= 4; n += 3)
    {
      g_autoptr(DuelComparison) comparison = make_seqw_comparison (n);
      g_autoptr(DuelChart) chart = duel_chart_sequential_write_new (comparison);
      g_autoptr(DuelChart) curve = duel_chart_write_curve_new (comparison);
      g_autoptr(GPtrArray) all = duel_chart_new_all (comparison, style);
      g_autofree char *csv = NULL;
      g_autofree char *title = duel_chart_get_title (chart);
      g_auto(GStrv) lines = NULL;
      guint boxes, with_data = 0;

      duel_chart_set_style (chart, style);
      g_assert_cmpstr (duel_chart_get_id (chart), ==, "sequential-write");
      g_assert_false (duel_chart_shows_without_data (chart));
      g_assert_nonnull (strstr (title, "MB/s"));
      check_drives (chart, style, 1, n);
      check_drives (chart, style, 2, n);
      /* A fall label per drive, none dropped at the export's size. */
      duel_chart_get_label_boxes (chart, &boxes, NULL);
      g_assert_cmpuint (boxes, ==, n);
      g_assert_cmpuint (check_label_boxes (chart, 1200, 675), ==, 0);
      g_assert_false (duel_chart_has_data (curve));

      csv = duel_chart_to_csv (chart);
      lines = g_strsplit (g_strstrip (csv), "\n", -1);
      g_assert_cmpstr (lines[0], ==, "drive,gb_written,time_s,write_mbps");
      {
        guint rows = 0;

        for (guint d = 0; d < n; d++)
          rows += duel_series_get_length (duel_comparison_find_test (comparison, d, DUEL_ANALYSIS_SEQUENTIAL_WRITE)->series);
        g_assert_cmpuint (g_strv_length (lines), ==, rows + 1);
      }
      g_assert_true (g_str_has_prefix (lines[1], "Alpha SSD,"));

      /* Among every chart, this one and the table have data. */
      for (guint i = 0; i < all->len; i++)
        with_data += duel_chart_has_data (g_ptr_array_index (all, i));
      g_assert_cmpuint (with_data, ==, 2);
    }
}


/* A burst of recovery after idle, as the run records it: its figures and
 * what they were measured against. */
static void
add_recovery_burst (DuelResult *result,
                    const char *name,
                    double      idle_s,
                    double      iops,
                    double      fresh,
                    double      dirty)
{
  g_autoptr(DuelSummary) summary = duel_summary_new ();
  g_autoptr(DuelTestRecord) record = NULL;
  JsonObject *recovery = json_object_new ();
  DuelWorkload workload;

  duel_workload_init (&workload);
  workload.read_percent = 0;
  record = duel_test_record_new (name, &workload);
  record->status = DUEL_TEST_STATUS_COMPLETE;
  duel_summary_add (summary, "recovery_iops", iops);
  duel_summary_add (summary, "recovery_fresh_pct", 100 * iops / fresh);
  duel_analysis_apply (record, DUEL_ANALYSIS_RECOVERY, NULL, summary);
  json_object_set_string_member (duel_test_record_get_details (record), "section", "recovery");
  json_object_set_int_member (recovery, "idle_planned_ms", (gint64) (idle_s * 1000));
  json_object_set_double_member (recovery, "fresh_iops", fresh);
  json_object_set_double_member (recovery, "dirty_iops", dirty);
  json_object_set_object_member (duel_test_record_get_details (record), "recovery", recovery);
  duel_result_add_test (result, record);
}

/* The field @column of the recovery chart's CSV line starting with @prefix. */
static char *
recovery_csv_field (const char *csv,
                    const char *prefix,
                    guint       column)
{
  g_auto(GStrv) lines = g_strsplit (csv, "\n", -1);

  g_assert_true (g_str_has_prefix (csv, "drive,test,idle_s,write_iops,fresh_pct,dirty_pct\n"));
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      {
        g_auto(GStrv) fields = g_strsplit (lines[i], ",", -1);

        g_assert_cmpuint (g_strv_length (fields), ==, 6);
        return g_strdup (fields[column]);
      }
  g_error ("no CSV line starts with %s", prefix);
  return NULL;
}

/* Recovery after idle: each burst's share of its own drive's fresh speed
 * and where the fill left it, grouped by idle period. */
static void
test_recovery_chart (void)
{
  g_autoptr(DuelResult) alpha = duel_result_new ();
  g_autoptr(DuelResult) beta = duel_result_new ();
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(DuelChart) chart = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *share = NULL;
  g_autofree char *dirty = NULL;
  g_autofree char *late = NULL;
  cairo_surface_t *surface;
  DuelChartRect plot;

  duel_result_set_name (alpha, "Alpha SSD");
  duel_result_set_name (beta, "Beta SSD");
  /* The burst on the fresh drive: the reference, no group of its own. */
  {
    g_autoptr(DuelSummary) summary = duel_summary_new ();
    g_autoptr(DuelTestRecord) fresh = NULL;
    DuelWorkload workload;

    duel_workload_init (&workload);
    fresh = duel_test_record_new ("recovery-fresh", &workload);
    fresh->status = DUEL_TEST_STATUS_COMPLETE;
    duel_summary_add (summary, "recovery_iops", 200000);
    duel_analysis_apply (fresh, DUEL_ANALYSIS_RECOVERY, NULL, summary);
    duel_result_add_test (alpha, fresh);
  }
  add_recovery_burst (alpha, "recovery-burst-1", 300, 60000, 200000, 20000);
  add_recovery_burst (alpha, "recovery-burst-2", 1800, 150000, 200000, 20000);
  add_recovery_burst (beta, "recovery-burst-1", 300, 30000, 100000, 25000);
  comparison = duel_comparison_new (alpha, beta, NULL);
  chart = g_object_new (DUEL_TYPE_CHART_RECOVERY, "comparison", comparison, NULL);
  g_assert_true (duel_chart_has_data (chart));
  csv = duel_chart_to_csv (chart);
  /* 60 000 of 200 000; 25 000 of 100 000 after the fill; 150 000 of 200 000. */
  share = recovery_csv_field (csv, "Alpha SSD,recovery-burst-1,", 4);
  dirty = recovery_csv_field (csv, "Beta SSD,recovery-burst-1,", 5);
  late = recovery_csv_field (csv, "Alpha SSD,recovery-burst-2,", 4);
  g_assert_cmpstr (share, ==, "30");
  g_assert_cmpstr (dirty, ==, "25");
  g_assert_cmpstr (late, ==, "75");
  /* Beta ran no second burst: no row for it. */
  g_assert_null (strstr (csv, "Beta SSD,recovery-burst-2"));
  g_assert_null (strstr (csv, "recovery-fresh"));
  surface = render (chart, 1200, 675, 1);
  g_assert_true (duel_chart_get_plot_rect (chart, &plot));
  cairo_surface_destroy (surface);
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/chart/axes/linear", test_axes_linear);
  g_test_add_func ("/duel/chart/axes/log-and-nines", test_axes_log_and_nines);
  g_test_add_func ("/duel/chart/numbers/table-and-chart-agree", test_table_and_chart_numbers_agree);
  g_test_add_func ("/duel/chart/line/spike-survives", test_line_spike_survives);
  g_test_add_func ("/duel/chart/line/queries", test_line_queries);
  g_test_add_data_func ("/duel/chart/both-drives/light", GINT_TO_POINTER (DUEL_CHART_THEME_LIGHT),
                        test_charts_draw_both_drives);
  g_test_add_data_func ("/duel/chart/both-drives/dark", GINT_TO_POINTER (DUEL_CHART_THEME_DARK),
                        test_charts_draw_both_drives);
  g_test_add_data_func ("/duel/chart/four-drives/light", GINT_TO_POINTER (DUEL_CHART_THEME_LIGHT),
                        test_charts_draw_four_drives);
  g_test_add_data_func ("/duel/chart/four-drives/dark", GINT_TO_POINTER (DUEL_CHART_THEME_DARK),
                        test_charts_draw_four_drives);
  g_test_add_func ("/duel/chart/style/delta-e", test_delta_e_2000);
  g_test_add_data_func ("/duel/chart/style/drive-colors/light", GINT_TO_POINTER (DUEL_CHART_THEME_LIGHT),
                        test_style_drive_colors);
  g_test_add_data_func ("/duel/chart/style/drive-colors/dark", GINT_TO_POINTER (DUEL_CHART_THEME_DARK),
                        test_style_drive_colors);
  g_test_add_func ("/duel/chart/options", test_chart_options);
  g_test_add_func ("/duel/chart/missing-drive", test_chart_missing_drive);
  g_test_add_func ("/duel/chart/published-markers", test_chart_published_markers);
  g_test_add_func ("/duel/chart/csv", test_chart_csv);
  g_test_add_func ("/duel/chart/rounds", test_rounds_chart);
  g_test_add_func ("/duel/chart/pts-matrix", test_pts_matrix_chart);
  g_test_add_func ("/duel/chart/pts-latency", test_pts_latency_chart);
  g_test_add_func ("/duel/chart/recovery", test_recovery_chart);
  g_test_add_func ("/duel/chart/sequential-write", test_sequential_write_chart);
  g_test_add_func ("/duel/chart/fill-summary-typed-and-loaded", test_fill_summary_typed_and_loaded);
  g_test_add_func ("/duel/chart/table-paging", test_table_paging);
  g_test_add_func ("/duel/chart/labels", test_chart_labels);
  g_test_add_func ("/duel/chart/title-fits", test_chart_title_fits);

  return g_test_run ();
}
