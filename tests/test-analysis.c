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

#include "duel-analysis.h"
#include "duel-error.h"
#include "duel-result.h"

typedef struct
{
  char       *name;
  DuelSeries *series;
  GHashTable *params;    /* char * → double * */
  GHashTable *expect;    /* char * → double * (NAN for "nan") */
  GArray     *hist;      /* latency_ns, count pairs (guint64) for .hist files */
} Fixture;

static void
fixture_free (Fixture *fixture)
{
  g_free (fixture->name);
  g_clear_pointer (&fixture->series, duel_series_free);
  g_hash_table_unref (fixture->params);
  g_hash_table_unref (fixture->expect);
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

          g_assert_nonnull (kv[1]);
          g_strstrip (kv[0]);
          g_strstrip (kv[1]);
          g_hash_table_insert (table, g_strdup (kv[0]), g_memdup2 ((double[]) { parse_double (kv[1]) }, sizeof (double)));
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
      { "ss_found", s.steady_state.found },
      { "ss_first_steady_round", s.steady_state.found ? s.steady_state.first_steady_round : NAN },
    };
    check_expectations (f, actual, G_N_ELEMENTS (actual));
  }
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
  /* 50000 blocks at 1000 IOPS = 200 % of 25000: the cliff is at 200 %. */
  g_assert_true (a.cliff_found && b.cliff_found);
  g_assert_cmpfloat_with_epsilon (a.cliff_pct, 200, 1e-9);
  g_assert_cmpfloat_with_epsilon (b.cliff_pct, 200, 1e-9);
  duel_saturation_clear (&a);
  duel_saturation_clear (&b);
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
  params.cliff_fraction = 0.4;

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

static void
test_params_json (void)
{
  DuelAnalysisParams params, back;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *object;

  duel_analysis_params_init (&params);
  params.round_ms = 1234;
  params.cliff_smooth_rows = 7;
  params.ss_slope_limit = 0.05;
  node = duel_analysis_params_to_json (&params);
  g_assert_true (duel_analysis_params_from_json (json_node_get_object (node), &back, &error));
  g_assert_no_error (error);
  /* Field by field: the struct has padding. */
  g_assert_cmpfloat (back.point_window_pct, ==, params.point_window_pct);
  g_assert_cmpfloat (back.edge_window_pct, ==, params.edge_window_pct);
  g_assert_cmpfloat (back.plateau_fraction, ==, params.plateau_fraction);
  g_assert_cmpfloat (back.cliff_fraction, ==, params.cliff_fraction);
  g_assert_cmpuint (back.cliff_smooth_rows, ==, 7);
  g_assert_cmpuint (back.round_ms, ==, 1234);
  g_assert_cmpuint (back.ss_window_rounds, ==, params.ss_window_rounds);
  g_assert_cmpfloat (back.ss_data_limit, ==, params.ss_data_limit);
  g_assert_cmpfloat (back.ss_slope_limit, ==, 0.05);

  object = json_node_get_object (node);
  json_object_set_double_member (object, "cliff_fraction", 3);
  g_assert_false (duel_analysis_params_from_json (object, &back, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
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
  g_test_add_func ("/duel/analysis/summary/file-roundtrip", test_summary_roundtrip);
  g_test_add_func ("/duel/analysis/params/json", test_params_json);

  return g_test_run ();
}
