/* eta-calibrate.c — the time-left range's factors, from fills of known truth
 *
 *   eta-calibrate [--check] [--shapes N] [--drives N]
 *
 * The range DuelRunEta gives is a middle times two factors read by the
 * running step's kind (one pass; the first pass of two before a fall or
 * after one; the second pass before GC shows or after; each with a probe
 * before the fill or without) and its progress (duel-run-eta-private.h),
 * for the step's time left and for each of its two passes. This tool
 * makes them: it replays fills whose end is known through the estimator
 * as a live run would see them — generated fill shapes (tests/fill-shapes.c,
 * a 2x fill and its first pass alone, no probe) and random drives of the
 * FTL model over wide settings (ssd_wide_drive(): the probe, the discard,
 * the fill, in the model's time; and the first pass alone, no probe) —
 * and at each progress point takes the ratio of the real time left to the
 * middle. The low factor is the QUANTILE_LOW quantile of those ratios, the
 * high one the QUANTILE_HIGH: an 80 % interval. Where both populations
 * fall in a cell (one pass), each the wider of the two. The seeds are not
 * the tests' (test-eta-shapes, test-eta-virtual) nor the campaign's
 * (tests/bench/eta-drives.c): they hold the table to fills it was not made
 * from.
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

#include "run/duel-run-eta-private.h"
#include "eta-replay-core.h"
#include "fill-shapes.h"
#include "ssd-virtual-fill.h"

/* Far from the tests' seeds (1 up) and the campaign's (2 000 001 up). */
#define FIRST_SEED     1000001
/* An 80 % interval, a little wider (a cell's quantiles are read between
 * knots and for fills it was not made from): the narrowest that holds this
 * share of a cell's ratios, in steps of STEP_SHARE. */
#define COVER          0.82
#define STEP_SHARE     0.005
/* A cell's quantiles need this many ratios; with fewer, its neighbours'
 * knots are pooled in until there are. */
#define MIN_CELL       40
#define PROBE_MIN_MS   2000
#define DISCARD_MS     500

enum { SHAPES, DRIVES, N_POPULATIONS };
enum { PART_FIRST, PART_SECOND, PART_TOTAL, N_PARTS };

typedef struct
{
  GArray *ratios[DUEL_RUN_ETA_N_RANGES][DUEL_RUN_ETA_N_KNOTS][N_PARTS][N_POPULATIONS];
} Cells;

static void
add_ratio (Cells  *cells,
           guint   range,
           guint   k,
           guint   part,
           guint   population,
           double  actual,
           double  middle)
{
  double ratio;

  if (!(middle > 0) || !(actual > 0) || !isfinite (middle))
    return;
  ratio = actual / middle;
  g_array_append_val (cells->ratios[range][k][part][population], ratio);
}

/* At each knot, the first sample at or past it: the ratios of the real
 * times left to the middles, in the cell of the range it was read from. */
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
          add_ratio (cells, s->range, k, PART_TOTAL, population, s->step_actual_s, s->step_first_s + s->step_second_s);
          if (s->range != DUEL_RUN_ETA_RANGE_ONE_PASS)
            {
              add_ratio (cells, s->range, k, PART_FIRST, population, s->actual_first_s, s->step_first_s);
              add_ratio (cells, s->range, k, PART_SECOND, population, s->actual_second_s, s->step_second_s);
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

/* The rows up to one span written. */
static DuelSeries *
first_pass (const DuelSeries *series,
            guint64           span_bytes,
            guint64          *out_bytes)
{
  DuelSeries *out = duel_series_new ();
  guint64 bytes = 0;

  for (guint i = 0; i < duel_series_get_length (series) && bytes < span_bytes; i++)
    {
      const DuelSeriesRow *row = duel_series_get_row (series, i);

      duel_series_append (out, row);
      bytes += row->bytes[DUEL_DIRECTION_WRITE];
    }
  *out_bytes = bytes;
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
      guint64 half_bytes;
      g_autoptr(DuelSeries) half = first_pass (series, truth.span_bytes, &half_bytes);
      EtaFill fill = { series, truth.span_bytes, 2, (guint) truth.interval_ms, TRUE, NULL, -1 };
      g_autoptr(GArray) samples = eta_replay_fill (&fill);
      g_autoptr(GArray) one = NULL;

      collect (cells, samples, SHAPES);
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
      guint64 half_bytes;

      ssd_wide_drive (seed, &cfg, &interval_ms, what, sizeof what);
      ssd_virtual_fill_run_probed (&cfg, 32, 2.0, interval_ms, PROBE_MIN_MS, DISCARD_MS, seed, &probe, &run);
      fill = (EtaFill) { run.series, run.n_pages * SSD_PAGE_SIZE, 2, interval_ms, TRUE, &probe, DISCARD_MS / 1e3 };
      samples = eta_replay_fill (&fill);
      collect (cells, samples, DRIVES);
      /* Its first pass as a fill of one pass, as a plain run writes it. */
      half = first_pass (run.series, run.n_pages * SSD_PAGE_SIZE, &half_bytes);
      fill = (EtaFill) { half, half_bytes, 1, interval_ms, TRUE, NULL, -1 };
      one = eta_replay_fill (&fill);
      collect (cells, one, DRIVES);
      ssd_virtual_fill_clear (&run);
    }
}

/* The range kind whose cells stand in for @range's where it has none: the
 * same state with (or without) a probe, then the state before it. */
static int
fallback_of (guint range)
{
  switch (range)
    {
    case DUEL_RUN_ETA_RANGE_FIRST_FELL:
      return DUEL_RUN_ETA_RANGE_FIRST_OPEN;
    case DUEL_RUN_ETA_RANGE_AFTER_GC:
      return DUEL_RUN_ETA_RANGE_BEFORE_GC;
    case DUEL_RUN_ETA_RANGE_PROBED_FIRST_OPEN:
      return DUEL_RUN_ETA_RANGE_FIRST_OPEN;
    case DUEL_RUN_ETA_RANGE_PROBED_FIRST_FELL:
      return DUEL_RUN_ETA_RANGE_PROBED_FIRST_OPEN;
    case DUEL_RUN_ETA_RANGE_PROBED_BEFORE_GC:
      return DUEL_RUN_ETA_RANGE_BEFORE_GC;
    case DUEL_RUN_ETA_RANGE_PROBED_AFTER_GC:
      return DUEL_RUN_ETA_RANGE_PROBED_BEFORE_GC;
    default:
      return -1;
    }
}

/* The factors of one part of one cell: each population's quantiles over
 * the cell's ratios, its neighbouring knots pooled in while it has fewer
 * than MIN_CELL; the wider of the populations. FALSE when no population
 * has a ratio in any knot of the range. */
static gboolean
cell_factors (Cells             *cells,
              guint              range,
              guint              k,
              guint              part,
              DuelRunEtaFactors *out,
              guint             *out_count)
{
  double low = INFINITY, high = 0;

  *out_count = 0;
  for (guint p = 0; p < N_POPULATIONS; p++)
    {
      g_autoptr(GArray) pool = g_array_new (FALSE, FALSE, sizeof (double));
      GArray *own = cells->ratios[range][k][part][p];

      g_array_append_vals (pool, own->data, own->len);
      *out_count += own->len;
      if (own->len == 0)
        continue;
      for (guint d = 1; pool->len < MIN_CELL && d < DUEL_RUN_ETA_N_KNOTS; d++)
        {
          if (k >= d)
            g_array_append_vals (pool, cells->ratios[range][k - d][part][p]->data,
                                 cells->ratios[range][k - d][part][p]->len);
          if (k + d < DUEL_RUN_ETA_N_KNOTS)
            g_array_append_vals (pool, cells->ratios[range][k + d][part][p]->data,
                                 cells->ratios[range][k + d][part][p]->len);
        }
      {
        double best_low = quantile (pool, 0), best_high = quantile (pool, COVER);

        /* Where the ratios bunch up on one side (a middle that is right
         * unless a cache runs out), the narrowest leaves out more of the
         * long side. Never leaving out the middle itself (1). */
        for (double p0 = STEP_SHARE; p0 + COVER <= 1 + 1e-9; p0 += STEP_SHARE)
          {
            double l = quantile (pool, p0), h = quantile (pool, MIN (p0 + COVER, 1));

            if (MAX (h, 1) / MIN (l, 1) < MAX (best_high, 1) / MIN (best_low, 1))
              {
                best_low = l;
                best_high = h;
              }
          }
        low = MIN (low, best_low);
        high = MAX (high, best_high);
      }
    }
  if (!isfinite (low))
    return FALSE;
  /* Two decimals, outwards; never narrower than the middle itself. */
  out->low = MIN (floor (low * 100) / 100, 1);
  out->high = MAX (ceil (high * 100) / 100, 1);
  return TRUE;
}

static gboolean
differs (DuelRunEtaFactors a,
         DuelRunEtaFactors b)
{
  /* One in the last digit either way: a rounding at its edge on another
   * compiler's floating point. */
  return fabs (a.low - b.low) > 0.015 || fabs (a.high - b.high) > 0.015;
}

int
main (int    argc,
      char **argv)
{
  static const char * const part_names[N_PARTS] = { "first pass", "second pass", "total" };
  gboolean check = FALSE;
  gint n_shapes = 1000, n_drives = 600;
  GOptionEntry entries[] = {
    { "check", 0, 0, G_OPTION_ARG_NONE, &check, "Compare with the table compiled in", NULL },
    { "shapes", 0, 0, G_OPTION_ARG_INT, &n_shapes, "Generated shapes (1000)", "N" },
    { "drives", 0, 0, G_OPTION_ARG_INT, &n_drives, "Random drives of the model (600)", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  static DuelRunEtaCell table[DUEL_RUN_ETA_N_RANGES][DUEL_RUN_ETA_N_KNOTS];
  static gboolean known[DUEL_RUN_ETA_N_RANGES][DUEL_RUN_ETA_N_KNOTS][N_PARTS];
  static guint counts[DUEL_RUN_ETA_N_RANGES][DUEL_RUN_ETA_N_KNOTS];
  static Cells cells;
  guint differ = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || n_shapes < 0 || n_drives < 0)
    {
      g_printerr ("%s\n", error != NULL ? error->message : "eta-calibrate: bad count");
      return 2;
    }
  for (guint r = 0; r < DUEL_RUN_ETA_N_RANGES; r++)
    for (guint k = 0; k < DUEL_RUN_ETA_N_KNOTS; k++)
      for (guint part = 0; part < N_PARTS; part++)
        for (guint p = 0; p < N_POPULATIONS; p++)
          cells.ratios[r][k][part][p] = g_array_new (FALSE, FALSE, sizeof (double));

  calibrate_shapes (&cells, n_shapes);
  calibrate_drives (&cells, n_drives);

  /* Each range in order, so that a fallback's cells are made before they
   * stand in (fallback_of() points backwards). */
  for (guint r = 0; r < DUEL_RUN_ETA_N_RANGES; r++)
    for (guint k = 0; k < DUEL_RUN_ETA_N_KNOTS; k++)
      for (guint part = 0; part < N_PARTS; part++)
        {
          DuelRunEtaFactors *f = part == PART_FIRST ? &table[r][k].first
                                 : part == PART_SECOND ? &table[r][k].second : &table[r][k].total;
          guint count;

          known[r][k][part] = cell_factors (&cells, r, k, part, f, &count);
          if (part == PART_TOTAL)
            counts[r][k] = count;
        }
  for (guint r = 0; r < DUEL_RUN_ETA_N_RANGES; r++)
    for (guint k = 0; k < DUEL_RUN_ETA_N_KNOTS; k++)
      for (guint part = 0; part < N_PARTS; part++)
        {
          DuelRunEtaFactors *f = part == PART_FIRST ? &table[r][k].first
                                 : part == PART_SECOND ? &table[r][k].second : &table[r][k].total;
          int from = r;

          /* One pass has no passes: its total stands for both. */
          if (r == DUEL_RUN_ETA_RANGE_ONE_PASS && part != PART_TOTAL)
            {
              *f = table[r][k].total;
              continue;
            }
          guint at = k;

          if (known[r][k][part])
            continue;
          /* Where no fill of the range reached: its nearest knot's (a
           * first pass past 50 % of the step, GC seen at 50 %)... */
          for (guint d = 1; d < DUEL_RUN_ETA_N_KNOTS && !known[r][at][part]; d++)
            {
              if (k >= d && known[r][k - d][part])
                at = k - d;
              else if (k + d < DUEL_RUN_ETA_N_KNOTS && known[r][k + d][part])
                at = k + d;
            }
          /* ... or where the range has none at all, another's. */
          while (!known[from][at][part] && (from = fallback_of (from)) >= 0)
            at = k;
          if (from < 0)
            f->low = f->high = 1;
          else
            *f = part == PART_FIRST ? table[from][at].first
                 : part == PART_SECOND ? table[from][at].second : table[from][at].total;
        }

  printf ("/* duel-run-eta-table.h — the range's factors (duel-run-eta-private.h)\n"
          " *\n"
          " * Made by tests/ssd-model/eta-calibrate from %d generated shapes and %d\n"
          " * random drives of the FTL model (docs/eta.md); the eta-calibration test\n"
          " * checks that it still is what that gives. Each entry: at a progress\n"
          " * point of the running step, the low and high factors of its first\n"
          " * pass, its second pass and all of it, with how many fills gave them.\n"
          " *\n"
          " * SPDX-License-Identifier: GPL-3.0-or-later\n"
          " */\n\n"
          "static const DuelRunEtaCell range_table[DUEL_RUN_ETA_N_RANGES][DUEL_RUN_ETA_N_KNOTS] = {\n",
          n_shapes, n_drives);
  for (guint r = 0; r < DUEL_RUN_ETA_N_RANGES; r++)
    {
      printf ("  { /* %s */\n", _duel_run_eta_range_name (r));
      for (guint k = 0; k < DUEL_RUN_ETA_N_KNOTS; k++)
        {
          DuelRunEtaCell compiled = _duel_run_eta_table (r, k);
          const DuelRunEtaCell *c = &table[r][k];

          printf ("    { { %.2f, %5.2f }, { %.2f, %5.2f }, { %.2f, %5.2f } },  /* %5.1f %%: %u */\n",
                  c->first.low, c->first.high, c->second.low, c->second.high, c->total.low, c->total.high,
                  100 * _duel_run_eta_knot (k), counts[r][k]);
          for (guint part = 0; part < N_PARTS; part++)
            {
              DuelRunEtaFactors a = part == PART_FIRST ? compiled.first : part == PART_SECOND ? compiled.second : compiled.total;
              DuelRunEtaFactors b = part == PART_FIRST ? c->first : part == PART_SECOND ? c->second : c->total;

              if (differs (a, b))
                {
                  differ++;
                  if (check)
                    g_printerr ("%s at %.1f %%, %s: compiled %.2f–%.2f, calibrated %.2f–%.2f\n",
                                _duel_run_eta_range_name (r), 100 * _duel_run_eta_knot (k), part_names[part],
                                a.low, a.high, b.low, b.high);
                }
            }
        }
      printf ("  },\n");
    }
  printf ("};\n");

  for (guint r = 0; r < DUEL_RUN_ETA_N_RANGES; r++)
    for (guint k = 0; k < DUEL_RUN_ETA_N_KNOTS; k++)
      for (guint part = 0; part < N_PARTS; part++)
        for (guint p = 0; p < N_POPULATIONS; p++)
          g_array_unref (cells.ratios[r][k][part][p]);
  return check && differ > 0 ? 1 : 0;
}
