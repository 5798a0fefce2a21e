/* chart-bench.c — how long drawing a 10^6-point series takes
 *
 * Not a test: `meson test --benchmark chart-draw` (or run it directly) prints
 * the times. Two measures, each at 1200 × 675 on an image surface at scale 1
 * and 2:
 *   - one DuelChartLine of 10^6 points: its preparation (done once where the
 *     data is built), the first draw (which reduces to pixel columns) and
 *     later draws (the reduction is cached);
 *   - the whole write-curve chart of a run with 10^6 intervals (axes, labels,
 *     marks, legend): its data is built once, off the draw path.
 * Exits 1 when drawing the whole chart at a new size takes 50 ms or more.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "duel-chart-write-curve.h"

#define N_POINTS 1000000
#define BUDGET_MS 50.0

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (double *values,
        guint   n)
{
  qsort (values, n, sizeof (double), compare_doubles);
  return values[n / 2];
}

static void
bench_line (double scale)
{
  g_autoptr(DuelChartLine) line = duel_chart_line_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) (1200 * scale), (int) (675 * scale));
  DuelChartAxis x, y;
  DuelChartRect plot = { 60, 40, 1120, 580 };
  double value = 50000, first, prepare, times[20];

  for (guint i = 0; i < N_POINTS; i++)
    {
      value = CLAMP (value + g_rand_double_range (rand, -500, 500), 1000, 100000);
      duel_chart_line_append (line, i, g_rand_int_range (rand, 0, 20000) == 0 ? value * 3 : value);
    }
  prepare = now_ms ();
  duel_chart_line_prepare (line);
  prepare = now_ms () - prepare;
  duel_chart_axis_init (&x, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, N_POINTS);
  duel_chart_axis_init (&y, DUEL_CHART_SCALE_LINEAR, DUEL_CHART_FORMAT_NUMBER, 0, 300000);
  x.start = plot.x;
  x.end = plot.x + plot.width;
  y.start = plot.y + plot.height;
  y.end = plot.y;

  for (guint i = 0; i <= G_N_ELEMENTS (times); i++)
    {
      cairo_t *cr = cairo_create (surface);
      double start = now_ms ();

      cairo_scale (cr, scale, scale);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      cairo_set_source_rgb (cr, 0, 0.45, 0.7);
      duel_chart_line_draw (line, cr, &x, &y, &plot, 1.5);
      cairo_destroy (cr);
      cairo_surface_flush (surface);
      if (i == 0)
        first = now_ms () - start;
      else
        times[i - 1] = now_ms () - start;
    }
  printf ("line of %d points, scale %.0f: prepared once in %.2f ms; first draw %.2f ms "
          "(reduction to pixel columns included), later draws median %.2f ms\n",
          N_POINTS, scale, prepare, first, median (times, G_N_ELEMENTS (times)));
  cairo_surface_destroy (surface);
}

static double
draw_chart_ms (DuelChart       *chart,
               cairo_surface_t *surface,
               double           scale,
               double           width,
               double           height)
{
  cairo_t *cr = cairo_create (surface);
  double start = now_ms ();

  cairo_scale (cr, scale, scale);
  duel_chart_draw (chart, cr, width, height);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return now_ms () - start;
}

static gboolean
bench_chart (double scale)
{
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelTestRecord) record = NULL;
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(DuelChart) chart = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (9);
  g_autoptr(GError) error = NULL;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) (1200 * scale), (int) (675 * scale));
  DuelTargetInfo target = { (char *) "/dev/bench", DUEL_TARGET_KIND_BLOCK, G_GUINT64_CONSTANT (1) << 40, 512, 4096 };
  DuelWorkload w;
  double build, fresh, first, times[10];
  guint64 t = 0;

  duel_workload_init (&w);
  duel_workload_set_rw_name (&w, "randwrite", NULL);
  w.size_multiple = 2;
  w.interval_ms = 100;
  record = duel_test_record_new (DUEL_TEST_WSAT_FILL, &w);
  record->status = DUEL_TEST_STATUS_COMPLETE;
  record->span_length = target.size_bytes / 4096 / N_POINTS * 4096 * N_POINTS / 2;
  for (guint i = 0; i < N_POINTS; i++)
    {
      DuelSeriesRow row = { 0, };
      guint64 ops = record->span_length * 2 / 4096 / N_POINTS;

      ops = (guint64) (ops * g_rand_double_range (rand, 0.5, 1.5));
      t += 100;
      row.t_ms = t;
      row.ops[DUEL_DIRECTION_WRITE] = ops;
      row.bytes[DUEL_DIRECTION_WRITE] = ops * 4096;
      row.temperature_c = NAN;
      duel_series_append (record->series, &row);
    }
  record->runtime_ns = t * 1000000;
  duel_result_set_target (result, &target);
  duel_result_set_name (result, "bench");
  duel_result_add_test (result, record);

  build = now_ms ();
  comparison = duel_comparison_new (result, NULL, &error);
  g_assert_no_error (error);
  chart = duel_chart_write_curve_new (comparison);
  build = now_ms () - build;

  /* The first draw in this process also loads fonts and fills glyph caches;
   * a draw at a new size (a resize, or new data) redoes only the reduction. */
  fresh = draw_chart_ms (chart, surface, scale, 1200, 675);
  first = draw_chart_ms (chart, surface, scale, 1100, 620);
  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    times[i] = draw_chart_ms (chart, surface, scale, 1100, 620);
  printf ("write-curve chart of %d intervals, scale %.0f: analysis and series built once in %.0f ms; "
          "first draw in the process %.2f ms (fonts loaded), first draw at a new size %.2f ms, "
          "later draws median %.2f ms\n",
          N_POINTS, scale, build, fresh, first, median (times, G_N_ELEMENTS (times)));
  cairo_surface_destroy (surface);
  return first < BUDGET_MS;
}

int
main (int    argc,
      char **argv)
{
  gboolean ok = TRUE;

  setlocale (LC_ALL, "");
  bench_line (1);
  bench_line (2);
  ok &= bench_chart (1);
  ok &= bench_chart (2);
  if (!ok)
    printf ("over the %.0f ms budget\n", BUDGET_MS);
  return ok ? 0 : 1;
}
