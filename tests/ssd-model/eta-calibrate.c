/* eta-calibrate.c — the time-left range's factors, from fills of known truth
 *
 *   eta-calibrate [--check] [--shapes N] [--drives N]
 *
 * The range DuelRunEta gives is its middle times two factors read by the
 * running step's kind (one pass; a random write's second pass before GC
 * shows; after it) and its progress (duel-run-eta-private.h). This tool
 * makes them: it replays fills whose end is known through the estimator as
 * a live run would see them — generated fill shapes (tests/fill-shapes.c,
 * a 2x fill and its first pass alone, no probe) and random drives of the
 * FTL model (ssd_random_drive(): the probe, the discard, the fill, in the
 * model's time) — and at each progress point takes the ratio of the real
 * time left to the middle. The low factor is the 1.25th percentile of
 * those ratios, the high one the 98.75th, each the wider of the two
 * populations'. The seeds are not the tests' (test-eta-shapes,
 * test-eta-virtual): they hold the table to fills it was not made from.
 *
 * Prints the table as C (src/core/run/duel-run-eta-table.h). With --check,
 * compares it with the table compiled in and exits 1 when they differ.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "duel-run-eta-private.h"
#include "eta-replay-core.h"
#include "fill-shapes.h"
#include "ssd-virtual-fill.h"

/* Far from the tests' seeds (1 up). */
#define FIRST_SEED     1000001
#define QUANTILE_LOW   0.0125
#define QUANTILE_HIGH  0.9875
/* A population's quantiles count with this many ratios in the cell; with
 * fewer, its lowest and highest. */
#define MIN_CELL       40
#define PROBE_MIN_MS   2000
#define DISCARD_MS     500

enum { SHAPES, DRIVES, N_POPULATIONS };

static const char * const range_names[] = { "one pass", "before GC", "after GC" };

typedef struct
{
  GArray *ratios[DUEL_RUN_ETA_N_RANGES][DUEL_RUN_ETA_N_KNOTS][N_POPULATIONS];
} Cells;

/* At each knot, the first sample at or past it: the ratio of the real time
 * left to the middle, in the cell of the range it was read from. */
static void
collect (Cells  *cells,
         GArray *samples,
         guint   population)
{
  guint k = 0;

  for (guint i = 0; i < samples->len && k < DUEL_RUN_ETA_N_KNOTS; i++)
    {
      const EtaSample *s = &g_array_index (samples, EtaSample, i);

      if (s->range < 0 || !(s->step_progress >= _duel_run_eta_knot (k)))
        continue;
      while (k < DUEL_RUN_ETA_N_KNOTS && s->step_progress >= _duel_run_eta_knot (k))
        {
          if (isfinite (s->estimate_s) && s->estimate_s > 0 && s->actual_s > 0)
            {
              double ratio = s->actual_s / s->estimate_s;

              g_array_append_val (cells->ratios[s->range][k][population], ratio);
            }
          k++;
        }
    }
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* Linear between order statistics. */
static double
quantile (GArray *values,
          double  q)
{
  double at;
  guint lo;

  g_array_sort (values, compare_doubles);
  at = q * (values->len - 1);
  lo = (guint) floor (at);
  if (lo + 1 >= values->len)
    return g_array_index (values, double, values->len - 1);
  return g_array_index (values, double, lo) +
         (at - lo) * (g_array_index (values, double, lo + 1) - g_array_index (values, double, lo));
}

/* The first pass alone: the rows up to one span written. */
static DuelSeries *
first_pass (const DuelSeries *series,
            guint64           span_bytes)
{
  DuelSeries *out = duel_series_new ();
  guint64 bytes = 0;

  for (guint i = 0; i < duel_series_get_length (series) && bytes < span_bytes; i++)
    {
      const DuelSeriesRow *row = duel_series_get_row (series, i);

      duel_series_append (out, row);
      bytes += row->bytes[DUEL_DIRECTION_WRITE];
    }
  return out;
}

static void
calibrate_shapes (Cells *cells,
                  guint  n)
{
  for (guint64 seed = FIRST_SEED; seed < FIRST_SEED + n; seed++)
    {
      ShapeTruth truth;
      g_autoptr(DuelSeries) series = shape_generate (seed, FALSE, 1000, 20000, &truth);
      g_autoptr(DuelSeries) half = first_pass (series, truth.span_bytes);
      EtaFill fill = { series, truth.span_bytes, 2, (guint) truth.interval_ms, TRUE, NULL, -1 };
      g_autoptr(GArray) samples = eta_replay_fill (&fill);
      g_autoptr(GArray) one = NULL;
      guint64 half_bytes = 0;

      collect (cells, samples, SHAPES);
      for (guint i = 0; i < duel_series_get_length (half); i++)
        half_bytes += duel_series_get_row (half, i)->bytes[DUEL_DIRECTION_WRITE];
      fill = (EtaFill) { half, half_bytes, 1, (guint) truth.interval_ms, TRUE, NULL, -1 };
      one = eta_replay_fill (&fill);
      collect (cells, one, SHAPES);
    }
}

static void
calibrate_drives (Cells *cells,
                  guint  n)
{
  for (guint64 seed = FIRST_SEED; seed < FIRST_SEED + n; seed++)
    {
      SsdConfig cfg;
      SsdVirtualFill run;
      DuelProbeResult probe;
      guint interval_ms;
      char what[400];
      g_autoptr(GArray) samples = NULL;
      g_autoptr(DuelSeries) half = NULL;
      g_autoptr(GArray) one = NULL;
      EtaFill fill;
      guint64 half_bytes = 0;

      ssd_random_drive (seed, &cfg, &interval_ms, what, sizeof what);
      ssd_virtual_fill_run_probed (&cfg, 32, 2.0, interval_ms, PROBE_MIN_MS, DISCARD_MS, seed, &probe, &run);
      fill = (EtaFill) { run.series, run.n_pages * SSD_PAGE_SIZE, 2, interval_ms, TRUE, &probe, DISCARD_MS / 1e3 };
      samples = eta_replay_fill (&fill);
      collect (cells, samples, DRIVES);
      /* Its first pass as a fill of one pass, as a plain run writes it. */
      half = first_pass (run.series, run.n_pages * SSD_PAGE_SIZE);
      for (guint i = 0; i < duel_series_get_length (half); i++)
        half_bytes += duel_series_get_row (half, i)->bytes[DUEL_DIRECTION_WRITE];
      fill = (EtaFill) { half, half_bytes, 1, interval_ms, TRUE, NULL, -1 };
      one = eta_replay_fill (&fill);
      collect (cells, one, DRIVES);
      ssd_virtual_fill_clear (&run);
    }
}

int
main (int    argc,
      char **argv)
{
  gboolean check = FALSE;
  gint n_shapes = 1000, n_drives = 400;
  GOptionEntry entries[] = {
    { "check", 0, 0, G_OPTION_ARG_NONE, &check, "Compare with the table compiled in", NULL },
    { "shapes", 0, 0, G_OPTION_ARG_INT, &n_shapes, "Generated shapes (1000)", "N" },
    { "drives", 0, 0, G_OPTION_ARG_INT, &n_drives, "Random drives of the model (400)", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  DuelRunEtaFactors table[DUEL_RUN_ETA_N_RANGES][DUEL_RUN_ETA_N_KNOTS];
  guint counts[DUEL_RUN_ETA_N_RANGES][DUEL_RUN_ETA_N_KNOTS][N_POPULATIONS];
  Cells cells;
  guint differ = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || n_shapes < 0 || n_drives < 0)
    {
      g_printerr ("%s\n", error != NULL ? error->message : "eta-calibrate: bad count");
      return 2;
    }
  for (guint r = 0; r < DUEL_RUN_ETA_N_RANGES; r++)
    for (guint k = 0; k < DUEL_RUN_ETA_N_KNOTS; k++)
      for (guint p = 0; p < N_POPULATIONS; p++)
        cells.ratios[r][k][p] = g_array_new (FALSE, FALSE, sizeof (double));

  calibrate_shapes (&cells, n_shapes);
  calibrate_drives (&cells, n_drives);

  for (guint r = 0; r < DUEL_RUN_ETA_N_RANGES; r++)
    {
      for (guint k = 0; k < DUEL_RUN_ETA_N_KNOTS; k++)
        {
          double low = INFINITY, high = 0;

          for (guint p = 0; p < N_POPULATIONS; p++)
            {
              GArray *v = cells.ratios[r][k][p];

              counts[r][k][p] = v->len;
              if (v->len == 0)
                continue;
              /* Too few for a quantile: all of them. */
              low = MIN (low, quantile (v, v->len >= MIN_CELL ? QUANTILE_LOW : 0));
              high = MAX (high, quantile (v, v->len >= MIN_CELL ? QUANTILE_HIGH : 1));
            }
          /* No fill there (GC seen that early): as before GC. */
          if (!isfinite (low))
            {
              g_assert (r == DUEL_RUN_ETA_RANGE_AFTER_GC);
              table[r][k] = table[DUEL_RUN_ETA_RANGE_BEFORE_GC][k];
              continue;
            }
          /* Two decimals, outwards. */
          table[r][k].low = MIN (floor (low * 100) / 100, 1);
          table[r][k].high = MAX (ceil (high * 100) / 100, 1);
        }
    }

  printf ("/* duel-run-eta-table.h — the range's factors (duel-run-eta-private.h)\n"
          " *\n"
          " * Made by tests/ssd-model/eta-calibrate from %d generated shapes and %d\n"
          " * random drives of the FTL model (docs/eta.md); the eta-calibration test\n"
          " * checks that it still is what that gives. Each entry: the low and high\n"
          " * factors at a progress point of the running step, with the fills that\n"
          " * gave them (shapes, drives).\n"
          " *\n"
          " * SPDX-License-Identifier: GPL-3.0-or-later\n"
          " */\n\n"
          "static const DuelRunEtaFactors range_table[DUEL_RUN_ETA_N_RANGES][DUEL_RUN_ETA_N_KNOTS] = {\n",
          n_shapes, n_drives);
  for (guint r = 0; r < DUEL_RUN_ETA_N_RANGES; r++)
    {
      printf ("  { /* %s */\n", range_names[r]);
      for (guint k = 0; k < DUEL_RUN_ETA_N_KNOTS; k++)
        {
          DuelRunEtaFactors compiled = _duel_run_eta_table (r, k);

          printf ("    { %.2f, %5.2f },  /* %5.1f %%: %u, %u */\n", table[r][k].low, table[r][k].high,
                  100 * _duel_run_eta_knot (k), counts[r][k][SHAPES], counts[r][k][DRIVES]);
          /* One in the last digit either way: a rounding at its edge on
           * another compiler's floating point. */
          if (fabs (compiled.low - table[r][k].low) > 0.015 || fabs (compiled.high - table[r][k].high) > 0.015)
            {
              differ++;
              if (check)
                g_printerr ("%s at %.1f %%: compiled %.2f–%.2f, calibrated %.2f–%.2f\n", range_names[r],
                            100 * _duel_run_eta_knot (k), compiled.low, compiled.high, table[r][k].low,
                            table[r][k].high);
            }
        }
      printf ("  },\n");
    }
  printf ("};\n");

  for (guint r = 0; r < DUEL_RUN_ETA_N_RANGES; r++)
    for (guint k = 0; k < DUEL_RUN_ETA_N_KNOTS; k++)
      for (guint p = 0; p < N_POPULATIONS; p++)
        g_array_unref (cells.ratios[r][k][p]);
  return check && differ > 0 ? 1 : 0;
}
