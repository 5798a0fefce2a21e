/* test-analysis.c — every formula of duel-analysis against hand-computed fixtures
 *
 * The fixtures in tests/data/analysis/ are small series and histograms with
 * the derivation of every expected value written in their header; the test
 * reads "# param" and "# expect" lines from there, so a fixture states its
 * own answer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "analysis/duel-analysis.h"
#include "analysis/duel-comparison.h"
#include "duel-error.h"
#include "duel-number.h"
#include "result/duel-result.h"
#include "long-records.h"
#include "test-locale.h"

typedef struct
{
  char       *name;
  DuelSeries *series;
  GHashTable *params;    /* char * → double * */
  GHashTable *expect;    /* char * → double * (NAN for "nan") */
  GHashTable *tolerance; /* char * → double *: "VALUE +- TOL" expectations */
  GArray     *hist;      /* latency_ns, count pairs (guint64) for .hist files */
} Fixture;

static void
fixture_free (Fixture *fixture)
{
  g_free (fixture->name);
  g_clear_pointer (&fixture->series, duel_series_free);
  g_hash_table_unref (fixture->params);
  g_hash_table_unref (fixture->expect);
  g_hash_table_unref (fixture->tolerance);
  g_array_unref (fixture->hist);
  g_free (fixture);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Fixture, fixture_free)

static double
parse_double (const char *text)
{
  char *end = NULL;
  double value;

  if (g_ascii_strcasecmp (text, "nan") == 0)
    return NAN;
  value = g_ascii_strtod (text, &end);
  g_assert_true (end != text && *end == '\0');
  return value;
}

static double
param (Fixture    *fixture,
       const char *name,
       double      fallback)
{
  double *value = g_hash_table_lookup (fixture->params, name);

  return value != NULL ? *value : fallback;
}

static Fixture *
fixture_load (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "analysis", name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  Fixture *fixture;
  guint32 block_size;
  gboolean header_seen = FALSE;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  fixture = g_new0 (Fixture, 1);
  fixture->name = g_strdup (name);
  fixture->series = duel_series_new ();
  fixture->params = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  fixture->expect = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  fixture->tolerance = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  fixture->hist = g_array_new (FALSE, TRUE, sizeof (guint64));

  /* Parameters come first in the header; the rows need the block size. */
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      GHashTable *table = NULL;

      if (g_str_has_prefix (line, "# param "))
        {
          table = fixture->params;
          line += strlen ("# param ");
        }
      else if (g_str_has_prefix (line, "# expect "))
        {
          table = fixture->expect;
          line += strlen ("# expect ");
        }
      if (table != NULL)
        {
          g_auto(GStrv) kv = g_strsplit (line, "=", 2);

          g_auto(GStrv) tol = NULL;

          g_assert_nonnull (kv[1]);
          g_strstrip (kv[0]);
          /* "VALUE +- TOL": a figure located on a grid, not computed to the last digit. */
          tol = g_strsplit (kv[1], "+-", 2);
          g_strstrip (tol[0]);
          g_hash_table_insert (table, g_strdup (kv[0]), g_memdup2 ((double[]) { parse_double (tol[0]) }, sizeof (double)));
          if (tol[1] != NULL)
            {
              g_assert_true (table == fixture->expect);
              g_strstrip (tol[1]);
              g_hash_table_insert (fixture->tolerance, g_strdup (kv[0]),
                                   g_memdup2 ((double[]) { parse_double (tol[1]) }, sizeof (double)));
            }
        }
    }

  block_size = (guint32) param (fixture, "block_size", 4096);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) cols = NULL;

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      if (!header_seen)
        {
          header_seen = TRUE;    /* the column names */
          continue;
        }
      cols = g_strsplit (lines[i], ",", -1);
      if (g_str_has_suffix (name, ".hist"))
        {
          guint64 pair[2];

          g_assert_cmpuint (g_strv_length (cols), ==, 2);
          pair[0] = g_ascii_strtoull (cols[0], NULL, 10);
          pair[1] = g_ascii_strtoull (cols[1], NULL, 10);
          g_array_append_vals (fixture->hist, pair, 2);
        }
      else
        {
          DuelSeriesRow row = { .temperature_c = NAN };

          g_assert_cmpuint (g_strv_length (cols), ==, 5);
          row.t_ms = g_ascii_strtoull (cols[0], NULL, 10);
          row.ops[DUEL_DIRECTION_READ] = g_ascii_strtoull (cols[1], NULL, 10);
          row.ops[DUEL_DIRECTION_WRITE] = g_ascii_strtoull (cols[2], NULL, 10);
          row.bytes[DUEL_DIRECTION_READ] = row.ops[DUEL_DIRECTION_READ] * block_size;
          row.bytes[DUEL_DIRECTION_WRITE] = row.ops[DUEL_DIRECTION_WRITE] * block_size;
          row.lat_max_ns[DUEL_DIRECTION_READ] = g_ascii_strtoull (cols[3], NULL, 10) * 1000;
          row.lat_max_ns[DUEL_DIRECTION_WRITE] = g_ascii_strtoull (cols[4], NULL, 10) * 1000;
          duel_series_append (fixture->series, &row);
        }
    }

  g_assert_cmpuint (g_hash_table_size (fixture->expect), >, 0);
  return fixture;
}

/* Every expectation of the fixture must be among @names, and match. */
typedef struct
{
  const char *name;
  double      value;
} Actual;

static void
check_expectations (Fixture      *fixture,
                    const Actual *actual,
                    guint         n_actual)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, fixture->expect);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      double expected = *(double *) value;
      double *tolerance = g_hash_table_lookup (fixture->tolerance, key);
      gboolean found = FALSE;

      for (guint i = 0; i < n_actual; i++)
        {
          if (strcmp (actual[i].name, key) != 0)
            continue;
          found = TRUE;
          if (isnan (expected))
            {
              if (!isnan (actual[i].value))
                g_error ("%s: %s is %.17g, expected nan", fixture->name, (char *) key, actual[i].value);
            }
          else if (tolerance != NULL)
            {
              if (!(fabs (actual[i].value - expected) <= *tolerance + 1e-9))
                g_error ("%s: %s is %.17g, expected %.17g ± %g", fixture->name, (char *) key,
                         actual[i].value, expected, *tolerance);
            }
          else if (!(fabs (actual[i].value - expected) <= 1e-9 * MAX (1.0, fabs (expected))))
            g_error ("%s: %s is %.17g, expected %.17g", fixture->name, (char *) key, actual[i].value, expected);
        }
      if (!found)
        g_error ("%s: the fixture expects “%s”, which the test does not compute", fixture->name, (char *) key);
    }
}

/* ---- Consistency ---------------------------------------------------------- */

static void
check_consistency (const char *name)
{
  g_autoptr(Fixture) f = fixture_load (name);
  DuelConsistency c;

  duel_analysis_consistency (f->series, (guint) param (f, "interval_ms", 1000),
                             (guint) param (f, "queue_depth", 32), &c);
  {
    Actual actual[] = {
      { "n_intervals", c.n_intervals },
      { "partial_excluded", c.partial_excluded },
      { "few_intervals", c.few_intervals },
      { "mean_iops", c.mean_iops },
      { "mean_read_iops", c.mean_read_iops },
      { "mean_write_iops", c.mean_write_iops },
      { "slowest_rank", c.slowest_rank },
      { "slowest_iops", c.slowest_iops },
      { "ratio", c.ratio },
      { "stddev_iops", c.stddev_iops },
      { "mean_over_stddev", c.mean_over_stddev },
      { "worst_case_iops_min", c.worst_case_iops_min },
      { "read_share", c.read_share },
    };
    check_expectations (f, actual, G_N_ELEMENTS (actual));
  }
}

static void
test_consistency_n10 (void)
{
  check_consistency ("consistency-n10.csv");
}

static void
test_consistency_n1000 (void)
{
  check_consistency ("consistency-n1000.csv");
}

static void
test_consistency_n2001 (void)
{
  check_consistency ("consistency-n2001.csv");
}

/* ---- Write saturation and SNIA steady state --------------------------------- */

static void
check_saturation (const char *name)
{
  g_autoptr(Fixture) f = fixture_load (name);
  DuelAnalysisParams params;
  DuelSaturation s;
  DuelSteadyState snia;
  const DuelSteadyStateWindow *w;
  double round_1 = NAN, round_2 = NAN;

  duel_analysis_params_init (&params);
  params.round_ms = (guint64) param (f, "round_ms", (double) params.round_ms);
  duel_analysis_saturation (f->series, (guint64) param (f, "span_blocks", 0) * 4096, &params, &s);
  w = &s.steady_state.last;
  if (s.steady_state.rounds->len > 0)
    round_1 = g_array_index (s.steady_state.rounds, double, 0);
  if (s.steady_state.rounds->len > 1)
    round_2 = g_array_index (s.steady_state.rounds, double, 1);
  /* The plain SNIA search over the same rounds, from round n on. */
  duel_analysis_steady_state ((const double *) (gpointer) s.steady_state.rounds->data,
                              s.steady_state.rounds->len, &params, &snia);

  {
    Actual actual[] = {
      { "written_pct", s.written_pct },
      { "write_iops_mean", s.write_iops_mean },
      { "iops_at_0pct", s.at_0.iops },
      { "iops_at_50pct", s.at_50.iops },
      { "iops_at_100pct", s.at_100.iops },
      { "iops_at_end", s.at_end.iops },
      { "plateau_iops", s.plateau.iops },
      { "cliff_found", s.cliff_found },
      { "cliff_row", s.cliff_found ? s.cliff_row : NAN },
      { "cliff_pct", s.cliff_pct },
      { "cliff_gb", s.cliff_gb },
      { "ss_rounds", s.steady_state.rounds->len },
      { "round_1", round_1 },
      { "round_2", round_2 },
      { "ss_complete", w->complete },
      { "ss_first_round", w->first_round },
      { "ss_mean", w->mean },
      { "ss_slope", w->slope },
      { "ss_intercept", w->intercept },
      { "ss_data_excursion", w->data_excursion },
      { "ss_data_limit", w->data_limit },
      { "ss_slope_excursion", w->slope_excursion },
      { "ss_slope_excursion_tkperf", w->slope_excursion_tkperf },
      { "ss_slope_limit", w->slope_limit },
      { "ss_data_ok", w->data_ok },
      { "ss_slope_ok", w->slope_ok },
      { "ss_slope_ok_tkperf", w->slope_ok_tkperf },
      { "ss_steady", w->steady },
      { "ss_searched", s.steady_state.searched },
      { "ss_search_from_round", s.steady_state.searched ? s.steady_state.search_from_round : NAN },
      { "ss_found", s.steady_state.found },
      { "ss_first_steady_round", s.steady_state.found ? s.steady_state.first_steady_round : NAN },
      { "snia_found", snia.found },
      { "snia_first_steady_round", snia.found ? snia.first_steady_round : NAN },
      { "pre_cliff_iops", s.pre_cliff_iops },
      { "fall_end_pct", s.fall_end_pct },
    };
    check_expectations (f, actual, G_N_ELEMENTS (actual));
  }
  duel_steady_state_clear (&snia);
  duel_saturation_clear (&s);
}

static void
test_saturation_windows (void)
{
  check_saturation ("saturation-windows.csv");
}

static void
test_saturation_knee (void)
{
  check_saturation ("saturation-knee.csv");
}

static void
test_saturation_dip (void)
{
  check_saturation ("saturation-dip.csv");
}

static void
test_saturation_spike (void)
{
  check_saturation ("saturation-spike.csv");
}

static void
test_steady_state_pass (void)
{
  check_saturation ("steady-state-pass.csv");
}

static void
test_steady_state_fail_excursion (void)
{
  check_saturation ("steady-state-fail-excursion.csv");
}

static void
test_steady_state_fail_slope (void)
{
  check_saturation ("steady-state-fail-slope.csv");
}

static void
test_steady_state_tkperf (void)
{
  check_saturation ("steady-state-tkperf.csv");
}

static void
test_steady_state_short (void)
{
  check_saturation ("steady-state-short.csv");
}

static void
test_rounds_split (void)
{
  check_saturation ("rounds-split.csv");
}

/* The window rule must not depend on the interval: the same constant-rate
 * run cut into 1 s or 100 ms rows gives the same points. */
static void
test_saturation_interval_independent (void)
{
  g_autoptr(DuelSeries) coarse = duel_series_new ();
  g_autoptr(DuelSeries) fine = duel_series_new ();
  DuelAnalysisParams params;
  DuelSaturation a, b;

  for (guint i = 1; i <= 100; i++)
    {
      /* 1000 IOPS for 50 s, then 250 IOPS */
      guint64 ops = i <= 50 ? 1000 : 250;
      DuelSeriesRow row = { .t_ms = i * 1000, .ops[1] = ops, .bytes[1] = ops * 4096 };

      duel_series_append (coarse, &row);
      for (guint k = 1; k <= 10; k++)
        {
          DuelSeriesRow part = { .t_ms = (i - 1) * 1000 + k * 100, .ops[1] = ops / 10, .bytes[1] = ops / 10 * 4096 };

          duel_series_append (fine, &part);
        }
    }

  duel_analysis_params_init (&params);
  duel_analysis_saturation (coarse, 25000 * 4096, &params, &a);
  duel_analysis_saturation (fine, 25000 * 4096, &params, &b);
  g_assert_cmpfloat_with_epsilon (a.at_0.iops, b.at_0.iops, 1e-6);
  g_assert_cmpfloat_with_epsilon (a.at_50.iops, b.at_50.iops, 1e-6);
  g_assert_cmpfloat_with_epsilon (a.at_100.iops, b.at_100.iops, 1e-6);
  g_assert_cmpfloat_with_epsilon (a.at_end.iops, b.at_end.iops, 1e-6);
  g_assert_cmpfloat_with_epsilon (a.plateau.iops, b.plateau.iops, 1e-6);
  g_assert_cmpfloat_with_epsilon (a.at_0.iops, 1000, 1e-9);
  g_assert_cmpfloat_with_epsilon (a.at_end.iops, 250, 1e-9);
  {
    g_autoptr(GArray) pct = duel_analysis_written_pct (coarse, DUEL_DIRECTION_WRITE, 25000 * 4096);

    /* 1000 blocks of 25000 per second: 4 % a row, 200 % after 50 rows, 250 % at the end. */
    g_assert_cmpuint (pct->len, ==, 100);
    g_assert_cmpfloat_with_epsilon (g_array_index (pct, double, 0), 4, 1e-9);
    g_assert_cmpfloat_with_epsilon (g_array_index (pct, double, 49), 200, 1e-9);
    g_assert_cmpfloat_with_epsilon (g_array_index (pct, double, 99), 250, 1e-9);
  }
  /* 50000 blocks at 1000 IOPS = 200 % of 25000: the knee is at 200 %, and
   * the two cuttings of the run agree within the resolution stated. The 1 s
   * rows are 4 % wide, so the knee is placed inside them from their rates
   * (exactly, for a step on a row's border) and the resolution stated is
   * a row's share; on 100 ms rows it is half the point of capacity the
   * throughput is read over. */
  g_assert_true (a.cliff_found && b.cliff_found);
  g_assert_cmpfloat (fabs (a.cliff_pct - 200), <=, 1e-6);
  g_assert_cmpfloat_with_epsilon (a.cliff_resolution_pct, 5, 1e-9);   /* the first slow row (1 %) and the fast one before it (4 %) */
  g_assert_cmpfloat (fabs (b.cliff_pct - 200), <=, b.cliff_resolution_pct);
  g_assert_cmpfloat (fabs (a.cliff_pct - b.cliff_pct), <=, b.cliff_resolution_pct + 1e-9);
  duel_saturation_clear (&a);
  duel_saturation_clear (&b);
}

/* Coarse rows: a 128 MiB target in 100 ms rows, each fast row 6 % of
 * capacity, with a step from 19 660 to 5 000 IOPS at @step_pct. The row
 * that straddles the step is written exactly (its time is the fast part's
 * plus the slow part's), so the knee is placed inside it from its rate
 * against its neighbours, where spreading it over its bytes put a step at
 * 85 % at 77.75–82.25 %. */
static void
check_coarse_step (double step_pct)
{
  g_autoptr(DuelSeries) series = duel_series_new ();
  const double pages = 32768, fast = 19660, slow = 5000;
  double written = 0, t = 0;
  DuelAnalysisParams params;
  DuelSaturation s;

  while (written < 2 * pages - 0.5)
    {
      double step = step_pct / 100 * pages, ops, secs = 0.1;
      DuelSeriesRow row = { .temperature_c = NAN };

      if (written + fast * secs <= step)
        ops = fast * secs;
      else if (written >= step)
        ops = slow * secs;
      else
        ops = (step - written) + slow * (secs - (step - written) / fast);
      ops = MIN (floor (ops + 0.5), 2 * pages - written);
      t += secs;
      row.t_ms = (guint64) llround (t * 1000);
      row.ops[DUEL_DIRECTION_WRITE] = (guint64) ops;
      row.bytes[DUEL_DIRECTION_WRITE] = (guint64) ops * 4096;
      duel_series_append (series, &row);
      written += ops;
    }
  duel_analysis_params_init (&params);
  duel_analysis_saturation (series, (guint64) pages * 4096, &params, &s);
  g_test_message ("step at %.2f %%: knee at %.2f %% (± %.2f)", step_pct, s.cliff_pct, s.cliff_resolution_pct);
  g_assert_cmpuint (s.falls.falls->len, ==, 1);
  g_assert_cmpfloat (s.cliff_resolution_pct, >=, 5.9);
  g_assert_cmpfloat (fabs (s.cliff_pct - step_pct), <=, 0.5);
  duel_saturation_clear (&s);
}

static void
test_saturation_coarse_rows (void)
{
  check_coarse_step (60);
  check_coarse_step (85);
  check_coarse_step (62.5);
}

/* A run stopped before 100 % has no 100 % point: NAN, never a guess. */
static void
test_saturation_unreached (void)
{
  g_autoptr(DuelSeries) series = duel_series_new ();
  DuelAnalysisParams params;
  DuelSaturation s;

  for (guint i = 1; i <= 10; i++)
    {
      DuelSeriesRow row = { .t_ms = i * 1000, .ops[1] = 1000, .bytes[1] = 1000 * 4096 };

      duel_series_append (series, &row);
    }
  duel_analysis_params_init (&params);
  duel_analysis_saturation (series, 20000 * 4096, &params, &s);   /* 50 % written */
  g_assert_cmpfloat_with_epsilon (s.written_pct, 50, 1e-9);
  g_assert_true (isnan (s.at_50.iops));    /* the window reaches 51 % */
  g_assert_true (isnan (s.at_100.iops));
  g_assert_cmpfloat_with_epsilon (s.at_0.iops, 1000, 1e-9);
  g_assert_cmpfloat_with_epsilon (s.at_end.iops, 1000, 1e-9);
  duel_saturation_clear (&s);
}

/* ---- Crafted fill curves: the knee, the plateau, steady state after the cliff -- */

/* A fill built from a curve of the review's kind: IOPS as a piecewise-linear
 * function of % of capacity written (the knots), written in 1 s intervals
 * of 4 KiB writes until twice the capacity, optionally with noise from a
 * fixed-seed generator, so every run of the test sees the same series. */
typedef struct
{
  double pct;
  double iops;
} Knot;

typedef enum
{
  NOISE_NONE,
  NOISE_JITTER,       /* ±15 % per interval, GC stalls (2 %), spikes (0.5 %) */
} Noise;

typedef struct
{
  const char *name;
  guint64     span_bytes;
  Knot        knots[8];
  guint       n_knots;
  double      dip_pct;       /* a single deep dip of 1 % of capacity at 15 % of the level; 0: none */
  guint       n_falls;       /* the falls built in (docs/analysis.md) … */
  double      knee_pct;      /* … the last (the cliff) at this % written */
  double      first_knee_pct; /* … with two, the first at this % */
  double      plateau_iops;  /* the built-in level of the last 10 % */
  gboolean    decline;       /* without a fall: a decline is reported */
} Curve;

/* Knuth's MMIX LCG; the top 53 bits as a double in [0, 1). */
static double
lcg_next (guint64 *state)
{
  *state = *state * G_GUINT64_CONSTANT (6364136223846793005) + G_GUINT64_CONSTANT (1442695040888963407);
  return (double) (*state >> 11) / 9007199254740992.0;
}

static double
curve_iops_at (const Curve *curve,
               double       pct)
{
  const Knot *k = curve->knots;

  if (pct <= k[0].pct)
    return k[0].iops;
  for (guint i = 1; i < curve->n_knots; i++)
    {
      if (pct <= k[i].pct)
        return k[i - 1].iops + (k[i].iops - k[i - 1].iops) * (pct - k[i - 1].pct) / (k[i].pct - k[i - 1].pct);
    }
  return k[curve->n_knots - 1].iops;
}

static DuelSeries *
curve_series (const Curve *curve,
              Noise        noise,
              guint64      seed)
{
  DuelSeries *series = duel_series_new ();
  guint64 state = seed, written = 0;
  double span = (double) curve->span_bytes;

  for (guint64 t = 1000; written < 2 * curve->span_bytes; t += 1000)
    {
      double pct = written / span * 100.0;
      double iops = curve_iops_at (curve, pct);
      DuelSeriesRow row = { .t_ms = t, .temperature_c = NAN };
      guint64 ops;

      if (curve->dip_pct > 0 && pct >= curve->dip_pct && pct < curve->dip_pct + 1)
        iops *= 0.15;
      if (noise == NOISE_JITTER)
        {
          double u = lcg_next (&state), v = lcg_next (&state);

          iops *= 0.85 + 0.3 * u;
          if (v < 0.02)
            iops *= 0.3 + 0.3 * lcg_next (&state);     /* a garbage-collection stall */
          else if (v > 0.995)
            iops *= 2 + lcg_next (&state);             /* a burst */
        }
      ops = (guint64) llround (iops);
      row.ops[DUEL_DIRECTION_WRITE] = ops;
      row.bytes[DUEL_DIRECTION_WRITE] = ops * 4096;
      row.lat_max_ns[DUEL_DIRECTION_WRITE] = 2000000;
      duel_series_append (series, &row);
      written += ops * 4096;
    }
  return series;
}

/* The time (ms) at which @series had written @bytes. */
static double
series_time_at_bytes (DuelSeries *series,
                      guint64     bytes)
{
  guint64 cum = 0, prev_t = 0;

  for (guint i = 0; i < duel_series_get_length (series); i++)
    {
      const DuelSeriesRow *row = duel_series_get_row (series, i);
      guint64 b = row->bytes[DUEL_DIRECTION_WRITE];

      if (cum + b > bytes)
        return prev_t + (double) (row->t_ms - prev_t) * (double) (bytes - cum) / (double) b;
      cum += b;
      prev_t = row->t_ms;
    }
  return prev_t;
}

#define PLEXTOR_SPAN G_GUINT64_CONSTANT (512000000000)
#define INTEL_SPAN   G_GUINT64_CONSTANT (400000000000)

#define KNOTS(...) .knots = { __VA_ARGS__ }, .n_knots = G_N_ELEMENTS (((Knot[]) { __VA_ARGS__ }))

static const Curve crafted_curves[] = {
  /* The Intel SSD 750: fastest at the start, slowing down all the way to the
   * knee (112 540 at 0 %, 83 061 at 50 %), then the fall to 15 885. */
  { "intel-750", INTEL_SPAN, KNOTS ({ 0, 112540 }, { 50, 83061 }, { 65, 74217 }, { 70, 15885 }, { 200, 15885 }),
    .n_falls = 1, .knee_pct = 65, .plateau_iops = 15885 },
  /* Through all of the SSD 750's published figures (112 540 at 0 %, 83 061
   * at 50 %, 15 885 at the end) with the knee as late as 113 %: the same
   * decline carried on, then the fall (the halfway rule said 81.5 %). */
  { "intel-750-late-knee", INTEL_SPAN,
    KNOTS ({ 0, 112540 }, { 50, 83061 }, { 113, 45917 }, { 116, 15885 }, { 200, 15885 }),
    .n_falls = 1, .knee_pct = 113, .plateau_iops = 15885 },
  /* A drive that falls from the first byte, within 12 points: the knee is
   * at 0 %. */
  { "falls-from-start", INTEL_SPAN, KNOTS ({ 0, 112540 }, { 12, 15885 }, { 200, 15885 }),
    .n_falls = 1, .knee_pct = 0, .plateau_iops = 15885 },
  /* The Plextor M8PeG: speeds up from 33 578 to 47 061 at 50 %, knee at 75 %,
   * down to 9 087 (the old rule said 83 %). */
  { "rise-knee-75", PLEXTOR_SPAN, KNOTS ({ 0, 33578 }, { 50, 47061 }, { 75, 47061 }, { 78, 9087 }, { 200, 9087 }),
    .n_falls = 1, .knee_pct = 75, .plateau_iops = 9087 },
  /* A TLC drive: its SLC cache runs out at 25 %, garbage collection begins
   * at 100 %. Two falls; the cliff is the second, into the plateau. */
  { "tlc-two-falls", PLEXTOR_SPAN,
    KNOTS ({ 0, 90000 }, { 25, 90000 }, { 26, 30000 }, { 100, 30000 }, { 104, 12000 }, { 200, 12000 }),
    .n_falls = 2, .knee_pct = 100, .first_knee_pct = 25, .plateau_iops = 12000 },
  /* Level until 60 %, then a gradual fall over 60 points: too slow to be a
   * fall (20 points at most); a decline from 60 % to 120 %. */
  { "knee-60-gradual", PLEXTOR_SPAN, KNOTS ({ 0, 33578 }, { 50, 47061 }, { 60, 47061 }, { 120, 9087 }, { 200, 9087 }),
    .n_falls = 0, .plateau_iops = 9087, .decline = TRUE },
  /* The plateau stays above half the start (the old rule found no cliff). */
  { "plateau-above-half", PLEXTOR_SPAN,
    KNOTS ({ 0, 33578 }, { 50, 47061 }, { 70, 47061 }, { 74, 20000 }, { 200, 20000 }),
    .n_falls = 1, .knee_pct = 70, .plateau_iops = 20000 },
  /* A single deep dip (1 % of capacity at 15 % of the level) at 40 %, well
   * before the real knee at 75 %. */
  { "dip-before-knee", PLEXTOR_SPAN,
    KNOTS ({ 0, 33578 }, { 50, 47061 }, { 75, 47061 }, { 78, 9087 }, { 200, 9087 }),
    .dip_pct = 40, .n_falls = 1, .knee_pct = 75, .plateau_iops = 9087 },
  /* The same dip 10 points before the knee. */
  { "dip-near-knee", PLEXTOR_SPAN,
    KNOTS ({ 0, 33578 }, { 50, 47061 }, { 75, 47061 }, { 78, 9087 }, { 200, 9087 }),
    .dip_pct = 65, .n_falls = 1, .knee_pct = 75, .plateau_iops = 9087 },
  /* A flat curve: no fall. */
  { "flat", PLEXTOR_SPAN, KNOTS ({ 0, 30000 }, { 200, 30000 }), .plateau_iops = 30000 },
  /* A slow decline of 20 % without a knee: no fall, and too little for a
   * decline. */
  { "slow-decline", PLEXTOR_SPAN, KNOTS ({ 0, 30000 }, { 200, 24000 }), .plateau_iops = 24300 },
  /* A straight decline from 100 000 to 40 000 (the halfway rule said
   * "write cliff 45.75 %"): a decline, no fall. */
  { "straight-decline", PLEXTOR_SPAN, KNOTS ({ 0, 100000 }, { 200, 40000 }),
    .plateau_iops = 42931, .decline = TRUE },
  /* A flat curve with a deep dip at 40 %: a dip is not a fall. */
  { "flat-dip", PLEXTOR_SPAN, KNOTS ({ 0, 30000 }, { 200, 30000 }), .dip_pct = 40, .plateau_iops = 30000 },
};


static void
check_crafted (const Curve *curve,
               Noise        noise)
{
  g_autoptr(DuelSeries) series = curve_series (curve, noise, 20151130);
  DuelAnalysisParams params;
  DuelSaturation s;
  const DuelSteadyState *ss;

  duel_analysis_params_init (&params);
  duel_analysis_saturation (series, curve->span_bytes, &params, &s);
  ss = &s.steady_state;

  g_test_message ("%s%s: %u rows, %.1f %% written; cliff %s at %.2f %% (built in %s %.0f %%), "
                  "pre-cliff %.0f, fall ends %.2f %%, plateau %.0f (built in %.0f, %+.2f %%); "
                  "steady from round %s%u (search from %u; cliff in round %.0f), last window %s",
                  curve->name, noise == NOISE_NONE ? "" : " (noisy)",
                  duel_series_get_length (series), s.written_pct,
                  s.cliff_found ? "found" : "not found", s.cliff_pct,
                  curve->n_falls > 0 ? "at" : "none,", curve->knee_pct,
                  s.pre_cliff_iops, s.fall_end_pct,
                  s.plateau.iops, curve->plateau_iops,
                  (s.plateau.iops / curve->plateau_iops - 1) * 100,
                  ss->found ? "" : "(not reached) ", ss->first_steady_round, ss->search_from_round,
                  s.cliff_found
                    ? floor (series_time_at_bytes (series, s.cliff_bytes) / params.round_ms) + 1
                    : NAN,
                  ss->last.steady ? "steady" : "not steady");

  /* The plateau: within 5 % of the level built in. */
  g_assert_cmpfloat (fabs (s.plateau.iops / curve->plateau_iops - 1), <=, 0.05);

  g_assert_cmpuint (s.falls.falls->len, ==, curve->n_falls);
  if (curve->n_falls == 0)
    {
      g_assert_false (s.cliff_found);
      g_assert_true (isnan (s.cliff_pct));
      /* Without a cliff there is no "first steady round" to give. */
      g_assert_false (ss->searched);
      g_assert_false (ss->found);
      g_assert_true (ss->last.complete);
      g_assert_cmpuint (s.falls.declines->len, ==, curve->decline ? 1 : 0);
      duel_saturation_clear (&s);
      return;
    }
  if (curve->n_falls == 2)
    g_assert_cmpfloat (fabs (g_array_index (s.falls.falls, DuelFall, 0).knee_pct - curve->first_knee_pct), <=, 3);

  /* The knee: within 3 points of % of capacity written. */
  g_assert_true (s.cliff_found);
  g_assert_cmpfloat (fabs (s.cliff_pct - curve->knee_pct), <=, 3);
  g_assert_cmpfloat (s.cliff_gb, ==, s.cliff_bytes / 1e9);
  g_assert_cmpfloat (s.fall_end_pct, >, s.cliff_pct);
  g_assert_cmpfloat (s.post_cliff_iops, <, 0.75 * s.pre_cliff_iops);
  /* The interval that passed the knee. */
  {
    guint64 before = 0;

    for (guint i = 0; i < s.cliff_row; i++)
      before += duel_series_get_row (series, i)->bytes[DUEL_DIRECTION_WRITE];
    g_assert_cmpuint (before, <=, s.cliff_bytes);
    g_assert_cmpuint (before + duel_series_get_row (series, s.cliff_row)->bytes[DUEL_DIRECTION_WRITE], >,
                      s.cliff_bytes);
  }

  /* Steady state: found, and its first window begins after the cliff. */
  g_assert_true (ss->searched);
  g_assert_true (ss->found);
  g_assert_cmpuint (ss->first.first_round, ==, ss->first_steady_round - params.ss_window_rounds + 1);
  g_assert_cmpfloat ((ss->first.first_round - 1) * (double) params.round_ms, >=,
                     series_time_at_bytes (series, s.cliff_bytes));
  g_assert_cmpfloat ((ss->first.first_round - 1) * (double) params.round_ms, >=, (double) s.fall_end_ms);
  /* The last-window verdict stays: these fills end on a flat plateau. */
  g_assert_true (ss->last.steady);
  duel_saturation_clear (&s);
}

static void
test_crafted_clean (gconstpointer data)
{
  check_crafted (data, NOISE_NONE);
}

static void
test_crafted_noisy (gconstpointer data)
{
  check_crafted (data, NOISE_JITTER);
}

/* The old rule's mistake, as the issue reports it: the first passing SNIA
 * window of a fill is in fresh-out-of-box rounds unless the search waits for
 * the cliff. */
static void
test_crafted_fob_not_steady (void)
{
  g_autoptr(DuelSeries) series = curve_series (&crafted_curves[3], NOISE_JITTER, 20151130);
  DuelAnalysisParams params;
  DuelSaturation s;
  DuelSteadyState plain;
  double cliff_ms;

  duel_analysis_params_init (&params);
  g_assert_cmpstr (crafted_curves[3].name, ==, "rise-knee-75");
  duel_analysis_saturation (series, crafted_curves[3].span_bytes, &params, &s);
  cliff_ms = series_time_at_bytes (series, s.cliff_bytes);

  /* Plain SNIA from round 5 passes long before the cliff … */
  duel_analysis_steady_state ((const double *) (gpointer) s.steady_state.rounds->data,
                              s.steady_state.rounds->len, &params, &plain);
  g_assert_true (plain.found);
  g_assert_cmpfloat (plain.first_steady_round * (double) params.round_ms, <, cliff_ms);
  /* … the fill's search does not. */
  g_assert_true (s.steady_state.found);
  g_assert_cmpuint (s.steady_state.first_steady_round, >, plain.first_steady_round);
  g_assert_cmpfloat ((s.steady_state.first.first_round - 1) * (double) params.round_ms, >=, cliff_ms);
  duel_steady_state_clear (&plain);
  duel_saturation_clear (&s);
}

/* ---- QoS -------------------------------------------------------------------- */

static void
check_qos (const char *name)
{
  g_autoptr(Fixture) f = fixture_load (name);
  g_autofree DuelHistogram *hist = g_new0 (DuelHistogram, 1);
  DuelQos q;

  duel_histogram_init (hist);
  for (guint i = 0; i + 1 < f->hist->len; i += 2)
    {
      guint64 value = g_array_index (f->hist, guint64, i);
      guint64 count = g_array_index (f->hist, guint64, i + 1);

      for (guint64 k = 0; k < count; k++)
        duel_histogram_add (hist, value);
    }
  duel_analysis_qos (hist, &q);
  g_assert_cmpfloat (q.points[0].percentile, ==, 99);
  g_assert_cmpfloat (q.points[3].percentile, ==, 99.999);
  {
    Actual actual[] = {
      { "samples", q.samples },
      { "p99", q.points[0].value_ns },
      { "p99_enough", q.points[0].enough },
      { "p99_9", q.points[1].value_ns },
      { "p99_9_enough", q.points[1].enough },
      { "p99_99", q.points[2].value_ns },
      { "p99_99_enough", q.points[2].enough },
      { "p99_999", q.points[3].value_ns },
      { "p99_999_enough", q.points[3].enough },
    };
    check_expectations (f, actual, G_N_ELEMENTS (actual));
  }
}

static void
test_qos_not_enough (void)
{
  check_qos ("qos-1000.hist");
}

static void
test_qos_enough (void)
{
  check_qos ("qos-100000.hist");
}

/* ---- Records: summary keys, standard set, and the round trip through a file --- */

static DuelTestRecord *
record_from_fixture (Fixture    *f,
                     const char *name)
{
  DuelWorkload workload;
  DuelTestRecord *record;
  DuelSeriesRow total;

  duel_workload_init (&workload);
  workload.block_size = (guint32) param (f, "block_size", 4096);
  workload.queue_depth = (guint32) param (f, "queue_depth", 32);
  workload.read_percent = (guint) param (f, "read_percent", 0);
  workload.pattern = param (f, "sequential", 0) != 0 ? DUEL_PATTERN_SEQUENTIAL : DUEL_PATTERN_RANDOM;
  workload.interval_ms = (guint) param (f, "interval_ms", 1000);
  workload.size_multiple = 2;

  record = duel_test_record_new (name, &workload);
  duel_series_free (record->series);
  record->series = duel_series_copy (f->series);
  record->span_length = (guint64) param (f, "span_blocks", 0) * 4096;
  duel_series_sum (record->series, &total);
  record->runtime_ns = (guint64) param (f, "runtime_ns", total.t_ms * 1e6);
  record->status = DUEL_TEST_STATUS_COMPLETE;
  return record;
}

static void
check_standard (const char *fixture_name,
                const char *test_name)
{
  g_autoptr(Fixture) f = fixture_load (fixture_name);
  g_autoptr(DuelTestRecord) record = record_from_fixture (f, test_name);
  g_autoptr(DuelSummary) summary = NULL;
  g_autofree Actual *actual = NULL;
  guint n;

  g_assert_cmpint (duel_analysis_kind_for_test_name (test_name), ==, DUEL_ANALYSIS_STANDARD);
  summary = duel_analysis_summarize (record, DUEL_ANALYSIS_STANDARD, NULL);
  n = duel_summary_get_n_figures (summary);
  actual = g_new0 (Actual, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    actual[i] = (Actual) { duel_summary_get_key (summary, i), duel_summary_get_value (summary, i) };
  check_expectations (f, actual, n);
}

static void
test_standard_seq_write (void)
{
  check_standard ("standard-seq-write.csv", "std-seq-write");
}

static void
test_standard_rand_read (void)
{
  check_standard ("standard-rand-read-qd1.csv", "std-rand-read-qd1");
}

/* Every key a summary emits is documented, with a unit and a label. */
static void
test_summary_keys_documented (void)
{
  static const struct { const char *fixture; const char *test; guint read_percent; guint qd; } cases[] = {
    { "saturation-knee.csv",  DUEL_TEST_WSAT_FILL,   0,   32 },
    { "saturation-knee.csv",  DUEL_TEST_WSAT_READ,   100, 32 },
    { "consistency-n10.csv",  DUEL_TEST_CONSISTENCY, 50,  32 },
    { "consistency-n10.csv",  "qos-mix-qd32",        50,  32 },
    { "consistency-n10.csv",  "qos-read-qd1",        100, 1 },
    { "consistency-n10.csv",  "qos-write-qd32",      0,   32 },
    { "consistency-n10.csv",  "std-rand-write-qd32", 0,   32 },
  };
  guint n_all;
  const DuelFigureInfo *all = duel_figure_get_all (&n_all);

  for (guint i = 0; i < n_all; i++)
    {
      g_assert_nonnull (all[i].label);
      g_assert_cmpstr (duel_figure_get_label (all[i].key), !=, "");
      g_assert_true (duel_figure_lookup (all[i].key) == &all[i]);
      for (guint j = 0; j < i; j++)
        g_assert_cmpstr (all[i].key, !=, all[j].key);
    }
  g_assert_cmpstr (duel_figure_get_label ("no_such_key"), ==, "no_such_key");

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(Fixture) f = fixture_load (cases[c].fixture);
      g_autoptr(DuelTestRecord) record = record_from_fixture (f, cases[c].test);
      g_autoptr(DuelSummary) summary = NULL;
      DuelAnalysisKind kind = duel_analysis_kind_for_test_name (cases[c].test);

      record->workload.read_percent = cases[c].read_percent;
      record->workload.queue_depth = cases[c].qd;
      g_assert_cmpint (kind, !=, DUEL_ANALYSIS_NONE);
      summary = duel_analysis_summarize (record, kind, NULL);
      g_assert_cmpuint (duel_summary_get_n_figures (summary), >, 0);
      for (guint i = 0; i < duel_summary_get_n_figures (summary); i++)
        {
          const char *key = duel_summary_get_key (summary, i);

          if (duel_figure_lookup (key) == NULL)
            g_error ("%s emits the undocumented key “%s”", cases[c].test, key);
        }
    }
}

static double
summary_value (DuelSummary *summary,
               const char  *key)
{
  for (guint i = 0; i < duel_summary_get_n_figures (summary); i++)
    if (g_strcmp0 (duel_summary_get_key (summary, i), key) == 0)
      return duel_summary_get_value (summary, i);
  g_error ("no figure “%s”", key);
  return NAN;
}

/* With jobs, every job's queue is in flight: the worst case a slow interval
 * allows scales with all of them. */
static void
test_consistency_numjobs (void)
{
  g_autoptr(Fixture) f = fixture_load ("consistency-n10.csv");
  g_autoptr(DuelTestRecord) record = record_from_fixture (f, DUEL_TEST_CONSISTENCY);
  g_autoptr(DuelSummary) one = NULL;
  g_autoptr(DuelSummary) four = NULL;

  record->workload.read_percent = 50;
  one = duel_analysis_summarize (record, DUEL_ANALYSIS_CONSISTENCY, NULL);
  record->workload.numjobs = 4;
  four = duel_analysis_summarize (record, DUEL_ANALYSIS_CONSISTENCY, NULL);
  g_assert_cmpfloat (summary_value (one, "worst_case_iops_min"), >, 0);
  g_assert_cmpfloat (summary_value (four, "worst_case_iops_min"), ==,
                     4 * summary_value (one, "worst_case_iops_min"));
  g_assert_cmpfloat (summary_value (four, "consistency_mean_iops"), ==,
                     summary_value (one, "consistency_mean_iops"));
}

static gboolean
same_value (double a,
            double b)
{
  if (isnan (a) || isnan (b))
    return isnan (a) && isnan (b);
  return a == b;
}

/* Summaries written to a result file and recomputed after loading it agree
 * exactly: the analysis uses only what the file keeps. */
static void
test_summary_roundtrip (void)
{
  static const struct { const char *fixture; const char *test; guint read_percent; } cases[] = {
    { "saturation-knee.csv",    DUEL_TEST_WSAT_FILL,   0 },
    { "saturation-windows.csv", "wsat-fill-2",         0 },
    { "consistency-n1000.csv",  DUEL_TEST_CONSISTENCY, 50 },
    { "consistency-n10.csv",    "qos-mix-qd32",        50 },
  };
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("duel-analysis-XXXXXX", &error);
  g_autofree char *path = NULL;
  DuelTargetInfo info = { .path = (char *) "/dev/null", .kind = DUEL_TARGET_KIND_FILE,
                          .size_bytes = 1 << 30, .logical_block_size = 512, .physical_block_size = 4096 };
  GPtrArray *tests;
  DuelAnalysisParams params;

  g_assert_no_error (error);
  path = g_build_filename (dir, "result.json", NULL);
  duel_result_set_target (result, &info);

  duel_analysis_params_init (&params);
  params.round_ms = 10000;    /* stored in the details, so the reload must use it */
  params.fall_turn = 5;

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(Fixture) f = fixture_load (cases[c].fixture);
      g_autoptr(DuelTestRecord) record = record_from_fixture (f, cases[c].test);
      g_autoptr(DuelSummary) summary = NULL;
      DuelAnalysisKind kind = c == 1 ? DUEL_ANALYSIS_SATURATION : duel_analysis_kind_for_test_name (cases[c].test);

      record->workload.read_percent = cases[c].read_percent;
      /* Histograms for the QoS case: a spread of latencies in each direction. */
      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        for (guint64 k = 1; k <= 5000; k++)
          duel_histogram_add (record->latency[d], 20000 + k * k * (d + 1));
      summary = duel_analysis_summarize (record, kind, &params);
      duel_analysis_apply (record, kind, &params, summary);
      duel_result_add_test (result, record);
    }

  duel_result_save (result, path, &error);
  g_assert_no_error (error);
  loaded = duel_result_load (path, &error);
  g_assert_no_error (error);

  tests = duel_result_get_tests (loaded);
  g_assert_cmpuint (tests->len, ==, G_N_ELEMENTS (cases));
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *original = g_ptr_array_index (duel_result_get_tests (result), i);
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      g_autoptr(DuelSummary) summary = NULL;
      DuelAnalysisKind kind;

      summary = duel_analysis_resummarize (record, &kind, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (duel_summary_get_n_figures (summary), >, 0);
      for (guint k = 0; k < duel_summary_get_n_figures (summary); k++)
        {
          const char *key = duel_summary_get_key (summary, k);
          double stored, in_memory, recomputed = duel_summary_get_value (summary, k);

          g_assert_true (duel_test_record_get_figure (record, key, &stored));
          g_assert_true (duel_test_record_get_figure (original, key, &in_memory));
          if (!same_value (stored, recomputed) || !same_value (in_memory, recomputed))
            g_error ("%s: %s stored %.17g, in memory %.17g, recomputed %.17g",
                     record->name, key, stored, in_memory, recomputed);
        }
    }

  /* The parameters came back from the file: 10 s rounds on the knee give 7. */
  {
    double rounds;

    g_assert_true (duel_test_record_get_figure (g_ptr_array_index (tests, 0), "ss_rounds", &rounds));
    g_assert_cmpfloat (rounds, ==, 7);
  }

  g_unlink (path);
  g_rmdir (dir);
}

/* Every figure of @record is @value. */
static void
set_all_figures (DuelTestRecord *record,
                 double          value)
{
  JsonArray *figures = json_object_get_array_member (record->summary, "figures");

  for (guint i = 0; i < json_array_get_length (figures); i++)
    json_object_set_double_member (json_array_get_object_element (figures, i), "value", value);
}

/* Whether every figure of @record is what the analysis computes now. */
static gboolean
figures_current (DuelTestRecord *record)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelSummary) summary = duel_analysis_resummarize (record, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (duel_summary_get_n_figures (summary), >, 0);
  for (guint k = 0; k < duel_summary_get_n_figures (summary); k++)
    {
      double stored;

      if (!duel_test_record_get_figure (record, duel_summary_get_key (summary, k), &stored) ||
          !same_value (stored, duel_summary_get_value (summary, k)))
        return FALSE;
    }
  return TRUE;
}

static JsonObject *
stored_params (DuelTestRecord *record)
{
  return json_object_get_object_member (duel_test_record_get_details (record), "analysis_parameters");
}

/* A measured fill saved before the falls (the halfway rule's cliff_fraction
 * in its parameters, none of the falls') gets today's figures wherever a
 * result is read for people: the comparison, and whoever calls
 * duel_analysis_update_result() after the load; a second update changes
 * nothing, and a published result keeps its figures. */
static void
test_summary_before_the_falls (void)
{
  g_autoptr(Fixture) f = fixture_load ("saturation-knee.csv");
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("duel-analysis-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autofree char *published_path = NULL;
  g_autofree char *once = NULL;
  g_autofree char *twice = NULL;
  DuelTargetInfo info = { .path = (char *) "/dev/null", .kind = DUEL_TARGET_KIND_FILE,
                          .size_bytes = 1 << 30, .logical_block_size = 512, .physical_block_size = 4096 };
  g_autoptr(DuelTestRecord) made = record_from_fixture (f, DUEL_TEST_WSAT_FILL);
  DuelTestRecord *record = made;   /* then the records read back, which their results own */
  JsonNode *node;
  g_autoptr(DuelSummary) summary = NULL;
  DuelAnalysisParams params;
  JsonObject *old;
  GList *members;

  g_assert_no_error (error);
  path = g_build_filename (dir, "old.json", NULL);
  published_path = g_build_filename (dir, "published.json", NULL);
  duel_result_set_target (result, &info);
  duel_analysis_params_init (&params);
  summary = duel_analysis_summarize (record, DUEL_ANALYSIS_SATURATION, &params);
  duel_analysis_apply (record, DUEL_ANALYSIS_SATURATION, &params, summary);
  duel_result_add_test (result, record);

  /* As written before the falls: their parameters absent, the halfway
   * rule's there, and figures that are not today's. */
  old = stored_params (record);
  members = json_object_get_members (old);
  for (GList *l = members; l != NULL; l = l->next)
    if (g_str_has_prefix (l->data, "fall_") || g_str_has_prefix (l->data, "cliff_step"))
      json_object_remove_member (old, l->data);
  g_list_free (members);
  json_object_set_double_member (old, "cliff_fraction", 0.5);
  set_all_figures (record, 1234);
  g_assert_true (duel_result_save (result, path, &error));
  g_assert_no_error (error);
  duel_result_set_published (result, TRUE);
  g_assert_true (duel_result_save (result, published_path, &error));
  g_assert_no_error (error);

  /* The comparison, as compare, chart and report read their files. */
  {
    const char *paths[] = { path };

    comparison = duel_comparison_new_for_pathv (paths, 1, &error);
    g_assert_no_error (error);
    record = g_ptr_array_index (duel_result_get_tests (duel_comparison_get_result (comparison, 0)), 0);
    g_assert_true (json_object_has_member (stored_params (record), "fall_min_drop"));
    g_assert_true (figures_current (record));
  }

  /* The loader gives what the file holds; the update brings it up to date,
   * once. */
  loaded = duel_result_load (path, &error);
  g_assert_no_error (error);
  record = g_ptr_array_index (duel_result_get_tests (loaded), 0);
  g_assert_false (json_object_has_member (stored_params (record), "fall_min_drop"));
  g_assert_false (figures_current (record));
  duel_analysis_update_result (loaded);
  g_assert_true (json_object_has_member (stored_params (record), "fall_min_drop"));
  g_assert_true (figures_current (record));
  node = duel_result_to_json (loaded);
  once = json_to_string (node, FALSE);
  g_clear_pointer (&node, json_node_unref);
  duel_analysis_update_result (loaded);
  node = duel_result_to_json (loaded);
  twice = json_to_string (node, FALSE);
  g_clear_pointer (&node, json_node_unref);
  g_assert_cmpstr (once, ==, twice);
  g_clear_object (&loaded);

  /* A published result's figures are its source's. */
  loaded = duel_result_load (published_path, &error);
  g_assert_no_error (error);
  duel_analysis_update_result (loaded);
  record = g_ptr_array_index (duel_result_get_tests (loaded), 0);
  g_assert_false (json_object_has_member (stored_params (record), "fall_min_drop"));
  g_assert_false (figures_current (record));

  g_unlink (path);
  g_unlink (published_path);
  g_rmdir (dir);
}

/* The series the figures of a paused record are computed from, made as it
 * was before it became a view: the rows the pauses touched left out, every
 * later row moved back by their time. */
static DuelSeries *
copy_without_paused (const DuelTestRecord *record)
{
  DuelSeries *kept = duel_series_new ();
  const DuelSeriesRow *rows = duel_series_get_rows (record->series);
  guint64 moved = 0, prev_t = 0;

  for (guint i = 0; i < duel_series_get_length (record->series); i++)
    {
      DuelSeriesRow row = rows[i];

      if (duel_test_record_row_paused (record, i))
        moved += row.t_ms - prev_t;
      else
        {
          row.t_ms -= moved;
          duel_series_append (kept, &row);
        }
      prev_t = rows[i].t_ms;
    }
  return kept;
}

static void
assert_same_rows (const DuelSeriesRow *a,
                  const DuelSeriesRow *b)
{
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_cmpmem (a, sizeof *a, b, sizeof *b);
}

/* @record's figures and details against those of a record whose series is
 * @expected and that was never paused. */
static void
assert_same_summary (DuelTestRecord   *record,
                     const DuelSeries *expected)
{
  g_autoptr(DuelTestRecord) plain = duel_test_record_new (record->name, &record->workload);
  DuelAnalysisKind kind = duel_analysis_kind_for_test_name (record->name);
  g_autoptr(DuelSummary) want = NULL;
  g_autoptr(DuelSummary) got = NULL;
  g_autoptr(JsonNode) want_details = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) got_details = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *want_text = NULL;
  g_autofree char *got_text = NULL;

  duel_series_free (plain->series);
  plain->series = duel_series_copy (expected);
  plain->preset = g_strdup (record->preset);
  plain->span_length = record->span_length;
  plain->byte_limit = record->byte_limit;
  plain->runtime_ns = record->runtime_ns;
  plain->status = record->status;
  want = duel_analysis_summarize (plain, kind, NULL);
  got = duel_analysis_summarize (record, kind, NULL);
  g_assert_cmpuint (duel_summary_get_n_figures (got), ==, duel_summary_get_n_figures (want));
  for (guint k = 0; k < duel_summary_get_n_figures (want); k++)
    {
      g_assert_cmpstr (duel_summary_get_key (got, k), ==, duel_summary_get_key (want, k));
      if (!same_value (duel_summary_get_value (got, k), duel_summary_get_value (want, k)))
        g_error ("%s: %s is %.17g, without the paused rows %.17g", record->name,
                 duel_summary_get_key (want, k), duel_summary_get_value (got, k),
                 duel_summary_get_value (want, k));
    }
  json_node_set_object (want_details, duel_summary_get_details (want));
  json_node_set_object (got_details, duel_summary_get_details (got));
  want_text = json_to_string (want_details, FALSE);
  got_text = json_to_string (got_details, FALSE);
  g_assert_cmpstr (got_text, ==, want_text);
}

/* A paused record's figures are read through a view of its series, not a
 * copy (docs/result-format.md#memory): the view holds exactly the rows and
 * times the copy held, read in order or by index, and every figure and
 * detail is the copy's. Pauses at the start and the end, across each
 * other, side by side, past the last row and over every row; rows of
 * uneven length, so that the times moved back differ. */
static void
test_paused_figure_series (void)
{
  static const struct { guint row, rows; } layouts[][3] = {
    { { 0, 1 } },
    { { 0, 3 }, { 2, 5 } },
    { { 500, 2 }, { 502, 1 } },
    { { 900, 10 }, { 903, 2 }, { 905, 40 } },
    { { 1, 1 }, { 1200, 4 }, { G_MAXUINT - 1, 5 } },
    { { 0, G_MAXUINT } },
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  DuelTestRecord *records[] = { long_record_fill (3000, rand), long_record_consistency (1500, rand) };

  for (guint r = 0; r < G_N_ELEMENTS (records); r++)
    {
      DuelTestRecord *record = records[r];
      g_autoptr(DuelSeries) uneven = duel_series_new ();
      guint n = duel_series_get_length (record->series);
      guint64 t = 0;

      for (guint i = 0; i < n; i++)
        {
          DuelSeriesRow row = *duel_series_get_row (record->series, i);

          t += g_rand_int_range (rand, 1, 3) * record->workload.interval_ms / 2 + g_rand_int_range (rand, 0, 7);
          row.t_ms = t;
          duel_series_append (uneven, &row);
        }
      duel_series_free (record->series);
      record->series = g_steal_pointer (&uneven);

      for (guint l = 0; l < G_N_ELEMENTS (layouts); l++)
        {
          g_autoptr(DuelSeries) owned = NULL;
          g_autoptr(DuelSeries) expected = NULL;
          g_autoptr(DuelSeries) copy = NULL;
          const DuelSeries *view;
          DuelSeriesIter iter;
          const DuelSeriesRow *row;
          DuelSeriesRow got, want;
          guint k = 0;

          g_clear_pointer (&record->pauses, g_array_unref);
          for (guint p = 0; p < G_N_ELEMENTS (layouts[l]) && layouts[l][p].rows > 0; p++)
            {
              DuelPause pause = { .row = MIN (layouts[l][p].row, n - 1), .rows = layouts[l][p].rows };

              duel_test_record_add_pause (record, &pause);
            }
          expected = copy_without_paused (record);
          view = duel_test_record_get_figure_series (record, &owned);
          g_assert_true (view == owned);
          g_test_message ("%s, layout %u: %u rows of %u", record->name, l, duel_series_get_length (view), n);

          g_assert_cmpuint (duel_series_get_length (view), ==, duel_series_get_length (expected));
          duel_series_iter_init (&iter, view);
          while ((row = duel_series_iter_next (&iter)) != NULL)
            {
              g_assert_cmpuint (k, <, duel_series_get_length (expected));
              assert_same_rows (row, duel_series_get_row (expected, k));
              g_assert_true (duel_series_read_row (view, k, &got));
              assert_same_rows (&got, duel_series_get_row (expected, k));
              g_assert_cmpuint (duel_series_row_duration_ms (view, k), ==,
                                duel_series_row_duration_ms (expected, k));
              k++;
            }
          g_assert_cmpuint (k, ==, duel_series_get_length (expected));
          g_assert_false (duel_series_read_row (view, k, &got));
          duel_series_sum (view, &got);
          duel_series_sum (expected, &want);
          assert_same_rows (&got, &want);
          copy = duel_series_copy (view);
          g_assert_cmpuint (duel_series_get_length (copy), ==, k);
          if (k > 0)
            g_assert_cmpmem (duel_series_get_rows (copy), k * sizeof (DuelSeriesRow),
                             duel_series_get_rows (expected), k * sizeof (DuelSeriesRow));

          assert_same_summary (record, expected);
        }
      duel_test_record_unref (record);
    }
}

static void
test_params_json (void)
{
  DuelAnalysisParams params, back;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *object;

  duel_analysis_params_init (&params);
  params.round_ms = 1234;
  params.cliff_smooth_pct = 3;
  params.fall_min_drop = 0.2;
  params.ss_slope_limit = 0.05;
  node = duel_analysis_params_to_json (&params);
  g_assert_true (duel_analysis_params_from_json (json_node_get_object (node), &back, &error));
  g_assert_no_error (error);
  /* Field by field: the struct has padding. */
  g_assert_cmpfloat (back.point_window_pct, ==, params.point_window_pct);
  g_assert_cmpfloat (back.edge_window_pct, ==, params.edge_window_pct);
  g_assert_cmpfloat (back.plateau_fraction, ==, params.plateau_fraction);
  g_assert_cmpfloat (back.cliff_smooth_pct, ==, 3);
  g_assert_cmpfloat (back.cliff_step_pct, ==, params.cliff_step_pct);
  g_assert_cmpfloat (back.fall_min_drop, ==, 0.2);
  g_assert_cmpfloat (back.fall_max_pct, ==, params.fall_max_pct);
  g_assert_cmpfloat (back.fall_turn, ==, params.fall_turn);
  g_assert_cmpfloat (back.fall_trend_pct, ==, params.fall_trend_pct);
  g_assert_cmpfloat (back.fall_hold_pct, ==, params.fall_hold_pct);
  g_assert_cmpuint (back.round_ms, ==, 1234);
  g_assert_cmpuint (back.ss_window_rounds, ==, params.ss_window_rounds);
  g_assert_cmpfloat (back.ss_data_limit, ==, params.ss_data_limit);
  g_assert_cmpfloat (back.ss_slope_limit, ==, 0.05);

  object = json_node_get_object (node);
  json_object_set_double_member (object, "fall_turn", 0.5);
  g_assert_false (duel_analysis_params_from_json (object, &back, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
  g_clear_error (&error);

  /* A file from before the falls: the halfway rule's cliff_fraction is
   * accepted (and still checked), the falls' parameters take their
   * defaults. */
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    DuelAnalysisParams defaults;

    duel_analysis_params_init (&defaults);
    g_assert_true (json_parser_load_from_data (parser,
                                               "{\"point_window_pct\": 1, \"edge_window_pct\": 2,"
                                               " \"plateau_fraction\": 0.1, \"cliff_fraction\": 0.5,"
                                               " \"cliff_smooth_rows\": 5, \"round_ms\": 60000,"
                                               " \"ss_window_rounds\": 5, \"ss_data_limit\": 0.2,"
                                               " \"ss_slope_limit\": 0.1}", -1, &error));
    g_assert_no_error (error);
    g_assert_true (duel_analysis_params_from_json (json_node_get_object (json_parser_get_root (parser)),
                                                   &back, &error));
    g_assert_no_error (error);
    g_assert_cmpfloat (back.cliff_smooth_pct, ==, defaults.cliff_smooth_pct);
    g_assert_cmpfloat (back.cliff_step_pct, ==, defaults.cliff_step_pct);
    g_assert_cmpfloat (back.fall_min_drop, ==, defaults.fall_min_drop);
    g_assert_cmpfloat (back.fall_max_pct, ==, defaults.fall_max_pct);
    g_assert_cmpuint (back.round_ms, ==, 60000);

    g_assert_true (json_parser_load_from_data (parser, "{\"cliff_smooth_rows\": 0}", -1, &error));
    g_assert_false (duel_analysis_params_from_json (json_node_get_object (json_parser_get_root (parser)),
                                                    &back, &error));
    g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
    g_clear_error (&error);
    g_assert_true (json_parser_load_from_data (parser, "{\"cliff_step_pct\": 0.001}", -1, &error));
    g_assert_false (duel_analysis_params_from_json (json_node_get_object (json_parser_get_root (parser)),
                                                    &back, &error));
    g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
  }
}

/* One fits() rule per analysis, and the importer's guess from them: a
 * random write past the span is the fill, a mix with rows the consistency
 * test, a mix without rows its latencies, anything else the standard set. */
static DuelTestRecord *
fits_record (const char *rw,
             guint       read_percent,
             guint       rows,
             guint64     byte_limit)
{
  DuelWorkload w;
  DuelTestRecord *record;

  duel_workload_init (&w);
  g_assert_true (duel_workload_set_rw_name (&w, rw, NULL));
  w.read_percent = read_percent;
  record = duel_test_record_new ("imported", &w);
  record->span_length = 1 << 20;
  record->byte_limit = byte_limit;
  record->status = DUEL_TEST_STATUS_COMPLETE;
  for (guint i = 0; i < rows; i++)
    {
      DuelSeriesRow row = { .t_ms = (i + 1) * 1000, .temperature_c = NAN };

      row.ops[DUEL_DIRECTION_WRITE] = 10;
      row.bytes[DUEL_DIRECTION_WRITE] = 40960;
      duel_series_append (record->series, &row);
    }
  duel_histogram_add (record->latency[DUEL_DIRECTION_WRITE], 1000);
  return record;
}

static void
test_fits_and_guess (void)
{
  static const struct {
    const char *rw;
    guint read_percent, rows;
    guint64 byte_limit;
    DuelAnalysisKind guess;
    gboolean consistency, read_score;
  } cases[] = {
    { "randwrite", 0, 5, 2 << 20, DUEL_ANALYSIS_SATURATION, FALSE, FALSE },
    { "randwrite", 0, 5, 1 << 19, DUEL_ANALYSIS_STANDARD, FALSE, FALSE },   /* under the span */
    { "randwrite", 0, 1, 2 << 20, DUEL_ANALYSIS_STANDARD, FALSE, FALSE },   /* one row: no curve */
    { "write", 0, 5, 2 << 20, DUEL_ANALYSIS_STANDARD, FALSE, FALSE },       /* sequential */
    { "randrw", 70, 5, 0, DUEL_ANALYSIS_CONSISTENCY, TRUE, FALSE },
    { "randrw", 70, 1, 0, DUEL_ANALYSIS_QOS, FALSE, FALSE },
    { "randread", 100, 5, 0, DUEL_ANALYSIS_STANDARD, FALSE, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DuelTestRecord) record = fits_record (cases[i].rw, cases[i].read_percent, cases[i].rows,
                                                      cases[i].byte_limit);

      g_test_message ("case %u: %s %u %% read, %u rows", i, cases[i].rw, cases[i].read_percent, cases[i].rows);
      g_assert_cmpint (duel_analysis_guess (record), ==, cases[i].guess);
      g_assert_cmpint (duel_analysis_fits (record, DUEL_ANALYSIS_SATURATION), ==,
                       cases[i].guess == DUEL_ANALYSIS_SATURATION);
      g_assert_cmpint (duel_analysis_fits (record, DUEL_ANALYSIS_CONSISTENCY), ==, cases[i].consistency);
      g_assert_cmpint (duel_analysis_fits (record, DUEL_ANALYSIS_READ_SCORE), ==, cases[i].read_score);
      g_assert_true (duel_analysis_fits (record, DUEL_ANALYSIS_QOS));
      g_assert_true (duel_analysis_fits (record, DUEL_ANALYSIS_STANDARD));
      g_assert_false (duel_analysis_fits (record, DUEL_ANALYSIS_NONE));
    }
  /* The names round-trip through the modules' ops. */
  for (DuelAnalysisKind kind = DUEL_ANALYSIS_NONE; kind <= DUEL_ANALYSIS_STANDARD; kind++)
    {
      DuelAnalysisKind back = DUEL_ANALYSIS_STANDARD + 1;

      g_assert_true (duel_analysis_kind_from_string (duel_analysis_kind_to_string (kind), &back));
      g_assert_cmpint (back, ==, kind);
    }
  g_assert_false (duel_analysis_kind_from_string ("cliff", NULL));
}

/* How a figure reads in a table: counts with their word, in the plural
 * they take; the steady-state verdict as yes or no; latencies in the unit
 * that keeps them short. */
static void
test_figure_format (void)
{
  static const struct { const char *key; double value; const char *text; } cases[] = {
    { "ss_rounds", 7, "7 rounds" },
    { "ss_rounds", 1, "1 round" },
    { "consistency_intervals", 150, "150 intervals" },
    { "qos_read_qd1_samples", 1, "1 I/O" },
    { "qos_read_qd1_samples", 25000, "25,000 I/Os" },
    { "ss_steady", 1, "yes" },
    { "ss_steady", 0, "no" },
    { "write_iops_mean", 12345.4, "12,345 IOPS" },
    { "ss_rounds", NAN, "n/a" },
    /* Latencies in µs below 10 ms, in ms from there. */
    { "qos_read_qd1_p99_99_us", 85.25, "85.2 µs" },
    { "qos_read_qd1_p99_99_us", 9999.94, "9,999.9 µs" },
    { "qos_write_qd32_p99_99_us", 10000, "10.0 ms" },
    { "qos_write_qd32_p99_99_us", 111673.3, "111.7 ms" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = duel_figure_format (cases[i].key, cases[i].value);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

/* Figures as the reader's locale writes numbers; a locale without a
 * separator of its own (C, C.UTF-8) groups by threes with "," as the charts
 * do. Scripts read --json, not these. */
static void
test_figure_format_locale (void)
{
  static const struct { const char *locale; const char *key; double value; const char *text; } cases[] = {
    { "en_US.UTF-8", "write_iops_mean", 112540.4, "112,540 IOPS" },
    { "en_US.UTF-8", "seq_read_mbps", 3938.46, "3,938.5 MB/s" },
    { "en_US.UTF-8", "qos_read_qd1_samples", 25000, "25,000 I/Os" },
    { "en_US.UTF-8", "write_iops_mean", 999.4, "999 IOPS" },
    { "en_US.UTF-8", "write_iops_mean", 1234567, "1,234,567 IOPS" },
    { "de_DE.UTF-8", "write_iops_mean", 112540.4, "112.540 IOPS" },
    { "de_DE.UTF-8", "seq_read_mbps", 3938.46, "3.938,5 MB/s" },
    { "de_DE.UTF-8", "consistency_ratio", 83.14, "83,1 %" },
    { "zh_TW.UTF-8", "write_iops_mean", 112540.4, "112,540 IOPS" },
    { "C", "write_iops_mean", 112540.4, "112,540 IOPS" },
    { "C", "seq_read_mbps", 3938.46, "3,938.5 MB/s" },
    { "C", "write_iops_mean", 999.4, "999 IOPS" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = NULL;

      if (!test_locale_use (cases[i].locale))
        return;
      text = duel_figure_format (cases[i].key, cases[i].value);
      g_test_message ("%s: %s = %s", cases[i].locale, cases[i].key, text);
      g_assert_cmpstr (text, ==, cases[i].text);
    }
  test_locale_reset ();
}

/* Rates in the reader's unit: stored in MB/s, shown in MB/s, MiB/s or GB/s;
 * other units untouched. */
static void
test_figure_format_rate_units (void)
{
  static const struct { DuelRateUnit unit; const char *key; double value; const char *text; } cases[] = {
    { DUEL_RATE_UNIT_MB_S,  "seq_read_mbps", 3938.46, "3,938.5 MB/s" },
    /* 3938.46e6 / 2^20 = 3756.01 */
    { DUEL_RATE_UNIT_MIB_S, "seq_read_mbps", 3938.46, "3,756.0 MiB/s" },
    { DUEL_RATE_UNIT_GB_S,  "seq_read_mbps", 3938.46, "3.94 GB/s" },
    { DUEL_RATE_UNIT_GB_S,  "write_iops_mean", 12345.4, "12,345 IOPS" },
    { DUEL_RATE_UNIT_MIB_S, "seq_read_mbps", NAN, "n/a" },
  };
  DuelRateUnit unit;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = NULL;

      duel_set_rate_unit (cases[i].unit);
      text = duel_figure_format (cases[i].key, cases[i].value);
      g_assert_cmpstr (text, ==, cases[i].text);
    }
  duel_set_rate_unit (DUEL_RATE_UNIT_MB_S);

  g_assert_true (duel_rate_unit_from_nick ("mib", &unit));
  g_assert_cmpint (unit, ==, DUEL_RATE_UNIT_MIB_S);
  g_assert_cmpstr (duel_rate_unit_to_nick (DUEL_RATE_UNIT_GB_S), ==, "gb");
  g_assert_false (duel_rate_unit_from_nick ("MiB", &unit));
  g_assert_false (duel_rate_unit_from_nick ("kb", &unit));
}

/* The number formatter's edges: grouping by the locale's own pattern, by
 * threes with "," where the locale has no separator (C), no "-0". */
static void
test_number_format (void)
{
  static const struct { const char *locale; double value; int decimals; const char *text; } cases[] = {
    { "C", -0.04, 1, "0.0" },
    { "C", -1234567.25, 2, "-1,234,567.25" },
    { "C", -1234567.25, 1, "-1,234,567.2" },
    { "C", 999, 0, "999" },
    { "C", 1000, 0, "1,000" },
    { "C", -999.5, 1, "-999.5" },
    { "C", 0.123456789, 9, "0.123456789" },
    { "C", INFINITY, 0, "–" },
    { "C", NAN, 2, "–" },
    { "en_IN.UTF-8", 12345678, 0, "1,23,45,678" },
    { "de_DE.UTF-8", -1234567.25, 2, "-1.234.567,25" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = NULL;

      if (!test_locale_use (cases[i].locale))
        return;
      text = duel_number_format (cases[i].value, cases[i].decimals);
      g_assert_cmpstr (text, ==, cases[i].text);
    }
  test_locale_reset ();
}

/* One rule for every text people read: grouped in every locale, with the
 * locale's own separator where it has one, else "," by threes. C.UTF-8
 * (what the gate and many containers run) printed "112540" in the table
 * and "112,540" in the charts before. */
static void
test_number_format_one_rule (void)
{
  g_autofree char *plain = NULL;
  g_autofree char *figure = NULL;
  g_autofree char *rate = NULL;
  g_autofree char *german = NULL;
  g_autofree char *localedef = NULL;

  if (setlocale (LC_NUMERIC, "C.UTF-8") == NULL)
    {
      g_test_skip ("the C.UTF-8 locale is not installed");
      return;
    }
  plain = duel_number_format (112540, 0);
  g_assert_cmpstr (plain, ==, "112,540");
  figure = duel_figure_format ("iops_at_0pct", 112540.4);
  g_assert_cmpstr (figure, ==, "112,540 IOPS");
  rate = duel_rate_format (3938.46);
  g_assert_cmpstr (rate, ==, "3,938.5 MB/s");

  /* de_DE: installed, or built from the locales package's sources as
   * test-locale.h does; skipped where neither can be had. */
  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL)
    {
      localedef = g_find_program_in_path ("localedef");
      if (localedef == NULL || !g_file_test ("/usr/share/i18n/locales/de_DE", G_FILE_TEST_EXISTS))
        {
          test_locale_reset ();
          g_test_skip ("the de_DE.UTF-8 locale is neither installed nor buildable");
          return;
        }
      if (!test_locale_use ("de_DE.UTF-8"))
        return;
    }
  german = duel_number_format (112540, 0);
  g_assert_cmpstr (german, ==, "112.540");
  test_locale_reset ();
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/analysis/consistency/n10", test_consistency_n10);
  g_test_add_func ("/duel/analysis/consistency/n1000", test_consistency_n1000);
  g_test_add_func ("/duel/analysis/consistency/n2001", test_consistency_n2001);
  g_test_add_func ("/duel/analysis/saturation/windows", test_saturation_windows);
  g_test_add_func ("/duel/analysis/saturation/knee", test_saturation_knee);
  g_test_add_func ("/duel/analysis/saturation/dip", test_saturation_dip);
  g_test_add_func ("/duel/analysis/saturation/spike", test_saturation_spike);
  g_test_add_func ("/duel/analysis/saturation/interval-independent", test_saturation_interval_independent);
  g_test_add_func ("/duel/analysis/saturation/unreached", test_saturation_unreached);
  g_test_add_func ("/duel/analysis/saturation/coarse-rows", test_saturation_coarse_rows);
  for (guint i = 0; i < G_N_ELEMENTS (crafted_curves); i++)
    {
      g_autofree char *clean = g_strdup_printf ("/duel/analysis/crafted/%s", crafted_curves[i].name);
      g_autofree char *noisy = g_strdup_printf ("/duel/analysis/crafted/%s-noisy", crafted_curves[i].name);

      g_test_add_data_func (clean, &crafted_curves[i], test_crafted_clean);
      g_test_add_data_func (noisy, &crafted_curves[i], test_crafted_noisy);
    }
  g_test_add_func ("/duel/analysis/crafted/fob-not-steady", test_crafted_fob_not_steady);
  g_test_add_func ("/duel/analysis/steady-state/pass", test_steady_state_pass);
  g_test_add_func ("/duel/analysis/steady-state/fail-excursion", test_steady_state_fail_excursion);
  g_test_add_func ("/duel/analysis/steady-state/fail-slope", test_steady_state_fail_slope);
  g_test_add_func ("/duel/analysis/steady-state/tkperf", test_steady_state_tkperf);
  g_test_add_func ("/duel/analysis/steady-state/short", test_steady_state_short);
  g_test_add_func ("/duel/analysis/rounds/split", test_rounds_split);
  g_test_add_func ("/duel/analysis/qos/not-enough-samples", test_qos_not_enough);
  g_test_add_func ("/duel/analysis/qos/enough-samples", test_qos_enough);
  g_test_add_func ("/duel/analysis/standard/seq-write", test_standard_seq_write);
  g_test_add_func ("/duel/analysis/standard/rand-read", test_standard_rand_read);
  g_test_add_func ("/duel/analysis/summary/keys-documented", test_summary_keys_documented);
  g_test_add_func ("/duel/analysis/consistency/numjobs", test_consistency_numjobs);
  g_test_add_func ("/duel/analysis/summary/file-roundtrip", test_summary_roundtrip);
  g_test_add_func ("/duel/analysis/summary/before-the-falls", test_summary_before_the_falls);
  g_test_add_func ("/duel/analysis/paused/figure-series", test_paused_figure_series);
  g_test_add_func ("/duel/analysis/params/json", test_params_json);
  g_test_add_func ("/duel/analysis/fits-and-guess", test_fits_and_guess);
  g_test_add_func ("/duel/analysis/figure-format", test_figure_format);
  g_test_add_func ("/duel/analysis/figure-format-locale", test_figure_format_locale);
  g_test_add_func ("/duel/analysis/number-format", test_number_format);
  g_test_add_func ("/duel/analysis/number-format-one-rule", test_number_format_one_rule);
  g_test_add_func ("/duel/analysis/figure-format-rate-units", test_figure_format_rate_units);

  return g_test_run ();
}
