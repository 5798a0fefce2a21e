/* test-ssd-virtual.c — the fill's analysis on the simulated SSD, in virtual time
 *
 * The deterministic half of the SSD-model tests. The FTL model (ssd-ftl.c)
 * is driven as the write-saturation preset drives a drive: a discard of the
 * whole span, then 4 KiB random writes (the engine's own offset generator)
 * at queue depth 32 until twice the capacity is written. But the host here
 * runs on the model's clock, not the wall clock: a write is issued the
 * instant the one before it completes, and the completions are counted into
 * 100 ms intervals of that clock. The series goes to the analysis a run
 * uses (duel_analysis_saturation()), and what it finds is held against the
 * model's own account:
 *
 *  - the cliff within 3 points of capacity written of the event that causes
 *    it (the cache running out; with no cache, GC beginning);
 *  - the plateau against the rate computed from every completion's time,
 *    within what prorating 100 ms intervals at the window's two edges can
 *    move it;
 *  - the first steady-state window after the model's GC began;
 *  - a shape without a cliff: none reported.
 *
 * No FUSE, no threads, no wall clock: the same series, bit for bit, on any
 * host and under a sanitizer. test-ssd-analysis.sh runs the same cases
 * through FUSE and the real engine, where a busy host can reshape the curve.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "duel-analysis.h"
#include "duel-offsets.h"
#include "ssd-shapes.h"

#define NSEC          G_GUINT64_CONSTANT (1000000000)
#define MSEC          G_GUINT64_CONSTANT (1000000)
#define QUEUE_DEPTH   32
#define INTERVAL_MS   100
#define ROUND_MS      1000
#define FILL_MULTIPLE 2
#define SEED          0x5eed

/* The cases of test-ssd-analysis.sh: the shapes of docs/ssd-model.md and
 * one change each. A negative or zero field keeps the shape's value. */
typedef struct
{
  const char *name;
  const char *shape;
  double      cache_pct;
  double      op_pct;
  guint       units;
  double      t_prog_cache_us;
  double      t_prog_us;
  gboolean    has_cliff;
} Case;

static const Case cases[] = {
  { "falls",       "falls", -1, -1, 0, 0, 0, TRUE },
  { "small-cache", "falls", 10, -1, 0, 0, 0, TRUE },
  { "more-op",     "falls", -1, 28, 0, 0, 0, TRUE },
  { "two-units",   "falls", -1, -1, 2, 125, 350, TRUE },
  { "rises",       "rises", -1, -1, 0, 0, 0, TRUE },
  { "flat",        "flat",  -1, -1, 0, 0, 0, FALSE },
};

typedef struct
{
  DuelSeries  *series;
  GArray      *done_ns;    /* guint64: when the k-th completed write completed, from the start */
  SsdCounters  counters;   /* the model's account at the end */
  guint64      n_pages;
} Fill;

static void
fill_clear (Fill *fill)
{
  g_clear_pointer (&fill->series, duel_series_free);
  g_clear_pointer (&fill->done_ns, g_array_unref);
}

static void
case_config (const Case *c,
             SsdConfig  *cfg)
{
  const SsdShape *shape = ssd_shape_lookup (c->shape);

  g_assert_nonnull (shape);
  ssd_shape_config (shape, shape->config.capacity_bytes, cfg);
  if (c->cache_pct >= 0)
    cfg->cache_bytes = (guint64) (cfg->capacity_bytes * c->cache_pct / 100.0) / SSD_PAGE_SIZE * SSD_PAGE_SIZE;
  if (c->op_pct >= 0)
    cfg->op_pct = c->op_pct;
  if (c->units > 0)
    cfg->units = c->units;
  if (c->t_prog_cache_us > 0)
    cfg->t_prog_cache_ns = (guint64) (c->t_prog_cache_us * 1000);
  if (c->t_prog_us > 0)
    cfg->t_prog_ns = (guint64) (c->t_prog_us * 1000);
  g_assert_true (ssd_config_check (cfg, NULL));
}

/* Closes the interval rows up to (not including) the one holding @t. */
static void
close_rows (Fill          *fill,
            DuelSeriesRow *row,
            guint64        t)
{
  while (t >= row->t_ms * MSEC)
    {
      duel_series_append (fill->series, row);
      memset (row, 0, sizeof *row);
      row->t_ms = duel_series_get_length (fill->series) * (guint64) INTERVAL_MS + INTERVAL_MS;
      row->temperature_c = NAN;
    }
}

/* The preset's fill on the model, in the model's time (t = 0 at the first
 * write; the discard just before it). */
static void
fill_run (const SsdConfig *cfg,
          Fill            *fill)
{
  SsdFtl *ftl = ssd_ftl_new (cfg);
  guint64 n_pages = ssd_ftl_n_pages (ftl), total = FILL_MULTIPLE * n_pages, issued = 0, end = 0;
  guint64 origin = NSEC;   /* the model's clock may not start at 0 */
  guint64 done[QUEUE_DEPTH], issued_at[QUEUE_DEPTH];
  DuelSeriesRow row = { .t_ms = INTERVAL_MS, .temperature_c = NAN };
  DuelOffsets offsets;
  g_autoptr(GError) error = NULL;

  memset (fill, 0, sizeof *fill);
  fill->series = duel_series_new ();
  fill->done_ns = g_array_sized_new (FALSE, FALSE, sizeof (guint64), (guint) total);
  fill->n_pages = n_pages;
  duel_offsets_init (&offsets, DUEL_PATTERN_RANDOM, 0, n_pages * SSD_PAGE_SIZE, SSD_PAGE_SIZE, 0, SEED);

  ssd_ftl_trim (ftl, 0, n_pages, origin);
  for (guint i = 0; i < QUEUE_DEPTH; i++)
    {
      issued_at[i] = origin;
      done[i] = ssd_ftl_write (ftl, duel_offsets_next (&offsets) / SSD_PAGE_SIZE, 1, origin);
      issued++;
    }
  for (guint64 n = 0; n < total; n++)
    {
      guint m = 0;
      guint64 t;

      for (guint i = 1; i < QUEUE_DEPTH; i++)
        if (done[i] < done[m])
          m = i;
      t = done[m] - origin;
      close_rows (fill, &row, t);
      row.ops[DUEL_DIRECTION_WRITE]++;
      row.bytes[DUEL_DIRECTION_WRITE] += SSD_PAGE_SIZE;
      row.lat_max_ns[DUEL_DIRECTION_WRITE] = MAX (row.lat_max_ns[DUEL_DIRECTION_WRITE], done[m] - issued_at[m]);
      g_array_append_val (fill->done_ns, t);
      end = t;
      if (issued < total)
        {
          issued_at[m] = done[m];
          done[m] = ssd_ftl_write (ftl, duel_offsets_next (&offsets) / SSD_PAGE_SIZE, 1, issued_at[m]);
          issued++;
        }
      else
        done[m] = G_MAXUINT64;
    }
  /* The last interval ends with the last write, as the engine's does. */
  row.t_ms = (end + MSEC - 1) / MSEC;
  duel_series_append (fill->series, &row);

  ssd_ftl_counters (ftl, &fill->counters);
  if (!ssd_ftl_check (ftl, &error))
    g_error ("the model is inconsistent: %s", error->message);
  ssd_ftl_free (ftl);
}

static void
params_init (DuelAnalysisParams *params)
{
  duel_analysis_params_init (params);
  params->round_ms = ROUND_MS;
}

/* The rate of the writes that completed while the k-th to the l-th byte of
 * capacity was written, from the completions themselves. */
static double
rate_between_pct (const Fill *fill,
                  double      lo_pct,
                  double      hi_pct)
{
  guint64 lo = (guint64) ceil (lo_pct / 100 * fill->n_pages);
  guint64 hi = MIN ((guint64) floor (hi_pct / 100 * fill->n_pages), fill->done_ns->len);
  guint64 t_lo, t_hi;

  g_assert_cmpuint (lo, >, 0);
  g_assert_cmpuint (hi, >, lo);
  t_lo = g_array_index (fill->done_ns, guint64, lo - 1);
  t_hi = g_array_index (fill->done_ns, guint64, hi - 1);
  return (double) (hi - lo) * NSEC / (double) (t_hi - t_lo);
}

/* Bytes written by @ms of the fill. */
static double
pct_written_by (const Fill *fill,
                guint64     ms)
{
  guint lo = 0, hi = fill->done_ns->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (fill->done_ns, guint64, mid) < ms * MSEC)
        lo = mid + 1;
      else
        hi = mid;
    }
  return 100.0 * lo / fill->n_pages;
}

/* SNIA's steady-state excursions, written here from the definition, over
 * the last @n complete rounds of the model's completions: (max − min) and
 * |slope| x (n − 1) of the least-squares line, as fractions of the mean. */
static void
last_rounds_excursions (const Fill *fill,
                        guint       n,
                        double     *out_data,
                        double     *out_slope)
{
  guint64 end = g_array_index (fill->done_ns, guint64, fill->done_ns->len - 1);
  guint full = (guint) (end / (ROUND_MS * MSEC));
  g_autofree double *iops = g_new0 (double, n);
  double mean = 0, lo = G_MAXDOUBLE, hi = 0, sxy = 0, sxx = 0;

  g_assert_cmpuint (full, >=, n);
  for (guint k = 0; k < fill->done_ns->len; k++)
    {
      guint64 round = g_array_index (fill->done_ns, guint64, k) / (ROUND_MS * MSEC);

      if (round >= full - n && round < full)
        iops[round - (full - n)] += 1000.0 / ROUND_MS;
    }
  for (guint i = 0; i < n; i++)
    {
      mean += iops[i] / n;
      lo = MIN (lo, iops[i]);
      hi = MAX (hi, iops[i]);
    }
  for (guint i = 0; i < n; i++)
    {
      sxy += (i - (n - 1) / 2.0) * (iops[i] - mean);
      sxx += (i - (n - 1) / 2.0) * (i - (n - 1) / 2.0);
    }
  *out_data = (hi - lo) / mean;
  *out_slope = fabs (sxy / sxx) * (n - 1) / mean;
}

static void
test_fill (gconstpointer user_data)
{
  const Case *c = user_data;
  SsdConfig cfg;
  Fill fill;
  DuelAnalysisParams params;
  DuelSaturation sat;
  double truth_cliff, gc_pct, exact, margin, window_s;

  case_config (c, &cfg);
  fill_run (&cfg, &fill);
  params_init (&params);
  duel_analysis_saturation (fill.series, cfg.capacity_bytes, &params, &sat);

  gc_pct = fill.counters.gc_first_at < 0 ? NAN : 100.0 * fill.counters.gc_first_at / fill.n_pages;
  truth_cliff = cfg.cache_bytes > 0
                ? (fill.counters.cache_exhausted_at < 0 ? NAN : 100.0 * fill.counters.cache_exhausted_at / fill.n_pages)
                : gc_pct;
  g_test_message ("%s: %u intervals, %.1f s of model time; start %.0f, plateau %.0f IOPS; "
                  "cliff %.1f %% (model: %s at %.1f %%), GC from %.1f %%",
                  c->name, duel_series_get_length (fill.series),
                  g_array_index (fill.done_ns, guint64, fill.done_ns->len - 1) / 1e9,
                  sat.at_0.iops, sat.plateau.iops, sat.cliff_pct,
                  cfg.cache_bytes > 0 ? "cache ran out" : "GC began", truth_cliff, gc_pct);

  g_assert_cmpfloat (sat.written_pct, ==, 100.0 * FILL_MULTIPLE);

  /* The plateau: the analysis prorates whole intervals at the window's
   * edges, which moves it by at most one interval's share at each end. */
  exact = rate_between_pct (&fill, sat.plateau.lo_pct, sat.plateau.hi_pct);
  window_s = sat.plateau.seconds;
  margin = 2.0 * INTERVAL_MS / 1e3 / window_s;
  g_test_message ("%s: plateau %.1f IOPS, %.1f from the completions (within %.2f %%)",
                  c->name, sat.plateau.iops, exact, 100 * margin);
  g_assert_cmpfloat (fabs (sat.plateau.iops / exact - 1), <=, margin);

  if (!c->has_cliff)
    {
      g_assert_false (sat.cliff_found);
      g_assert_true (isnan (sat.cliff_pct));
      duel_saturation_clear (&sat);
      fill_clear (&fill);
      return;
    }

  g_assert_true (sat.cliff_found);
  g_assert_true (isfinite (truth_cliff));
  g_assert_cmpfloat (fabs (sat.cliff_pct - truth_cliff), <=, 3.0);

  /* The drive is in its steady state only once GC runs. */
  if (sat.steady_state.found)
    {
      double start_pct = pct_written_by (&fill, (sat.steady_state.first_steady_round - params.ss_window_rounds)
                                                * (guint64) ROUND_MS);

      g_test_message ("%s: first steady window ends at round %u, starts at %.1f %% written",
                      c->name, sat.steady_state.first_steady_round, start_pct);
      g_assert_cmpfloat (start_pct, >=, gc_pct);
    }
  else
    {
      double data, slope;

      /* None found: the model's last rounds must fail SNIA's test too. */
      last_rounds_excursions (&fill, params.ss_window_rounds, &data, &slope);
      g_test_message ("%s: no steady-state window after the fall; the model's last %u rounds: "
                      "data excursion %.1f %%, slope excursion %.1f %% of the mean",
                      c->name, params.ss_window_rounds, 100 * data, 100 * slope);
      g_assert_true (data > params.ss_data_limit || slope > params.ss_slope_limit);
    }

  duel_saturation_clear (&sat);
  fill_clear (&fill);
}

/* The model's time is the only clock: two fills give the same series. */
static void
test_repeatable (void)
{
  SsdConfig cfg;
  Fill a, b;

  case_config (&cases[0], &cfg);
  fill_run (&cfg, &a);
  fill_run (&cfg, &b);
  g_assert_cmpuint (duel_series_get_length (a.series), ==, duel_series_get_length (b.series));
  g_assert_cmpmem (duel_series_get_rows (a.series), duel_series_get_length (a.series) * sizeof (DuelSeriesRow),
                   duel_series_get_rows (b.series), duel_series_get_length (b.series) * sizeof (DuelSeriesRow));
  fill_clear (&a);
  fill_clear (&b);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/ssd-virtual/fill/%s", cases[i].name);

      g_test_add_data_func (path, &cases[i], test_fill);
    }
  g_test_add_func ("/ssd-virtual/repeatable", test_repeatable);
  return g_test_run ();
}
