/* test-passes.c — the CrystalDiskMark set and tests run in passes
 *
 * The truth here is written down by hand: CrystalDiskMark's two profiles as
 * a table of workloads, and each pass's figure recomputed from the record's
 * own totals (ops and bytes over its runtime) rather than from the summary
 * the analysis wrote. The comparison must give the best pass (the highest;
 * the lowest for a latency), the mean and the spread of exactly those. One
 * synthetic result with fixed series (no random numbers, no timing), and one
 * real run of the preset on a file: its records, its checkpoints and
 * journal, the file it saves, `analyze` on that file, and the comparison
 * of what was saved against what was measured.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "analysis/duel-cdm-grid.h"
#include "duel-chart-standard.h"
#include "result/duel-checkpointer.h"
#include "analysis/duel-comparison.h"
#include "duel-error.h"
#include "result/duel-journal-private.h"
#include "duel-json.h"
#include "run/duel-preset.h"
#include "test-analyze-cli.h"
#include "test-run-plan.h"

#define MIB (G_GUINT64_CONSTANT (1) << 20)

/* ---- the profiles, as CrystalDiskMark 8 names them ------------------------------ */

typedef struct
{
  const char *name;
  DuelPattern pattern;
  guint32     block_size;
  guint32     queue_depth;
  guint       numjobs;
  guint       read_percent;
} Expected;

/* Each test writes, then reads (a fresh file has data to read). */
static const Expected default_profile[] = {
  { "cdm-seq1m-q8t1-write",   DUEL_PATTERN_SEQUENTIAL, 1048576, 8,  1,  0 },
  { "cdm-seq1m-q8t1-read",    DUEL_PATTERN_SEQUENTIAL, 1048576, 8,  1,  100 },
  { "cdm-seq1m-q1t1-write",   DUEL_PATTERN_SEQUENTIAL, 1048576, 1,  1,  0 },
  { "cdm-seq1m-q1t1-read",    DUEL_PATTERN_SEQUENTIAL, 1048576, 1,  1,  100 },
  { "cdm-rnd4k-q32t16-write", DUEL_PATTERN_RANDOM,     4096,    32, 16, 0 },
  { "cdm-rnd4k-q32t16-read",  DUEL_PATTERN_RANDOM,     4096,    32, 16, 100 },
  { "cdm-rnd4k-q1t1-write",   DUEL_PATTERN_RANDOM,     4096,    1,  1,  0 },
  { "cdm-rnd4k-q1t1-read",    DUEL_PATTERN_RANDOM,     4096,    1,  1,  100 },
};

static const Expected nvme_profile[] = {
  { "cdm-seq1m-q8t1-write",    DUEL_PATTERN_SEQUENTIAL, 1048576, 8,  1,  0 },
  { "cdm-seq1m-q8t1-read",     DUEL_PATTERN_SEQUENTIAL, 1048576, 8,  1,  100 },
  { "cdm-seq128k-q32t1-write", DUEL_PATTERN_SEQUENTIAL, 131072,  32, 1,  0 },
  { "cdm-seq128k-q32t1-read",  DUEL_PATTERN_SEQUENTIAL, 131072,  32, 1,  100 },
  { "cdm-rnd4k-q32t16-write",  DUEL_PATTERN_RANDOM,     4096,    32, 16, 0 },
  { "cdm-rnd4k-q32t16-read",   DUEL_PATTERN_RANDOM,     4096,    32, 16, 100 },
  { "cdm-rnd4k-q1t1-write",    DUEL_PATTERN_RANDOM,     4096,    1,  1,  0 },
  { "cdm-rnd4k-q1t1-read",     DUEL_PATTERN_RANDOM,     4096,    1,  1,  100 },
};

static void
assert_workload (const DuelWorkload *w,
                 const Expected     *e)
{
  g_assert_cmpint (w->pattern, ==, e->pattern);
  g_assert_cmpuint (w->block_size, ==, e->block_size);
  g_assert_cmpuint (w->queue_depth, ==, e->queue_depth);
  g_assert_cmpuint (w->numjobs, ==, e->numjobs);
  g_assert_cmpuint (w->read_percent, ==, e->read_percent);
  g_assert_cmpfloat (w->size_multiple, ==, 0);
}

/* The steps of @preset_name with @passes (0: its default), against @profile
 * and @expected_passes per step, without I/O. */
static void
check_steps (const char     *preset_name,
             guint           passes,
             const Expected *profile,
             guint           n_profile,
             guint           expected_passes,
             guint64         expected_runtime_ms)
{
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(GError) error = NULL;
  DuelPresetOptions options;

  duel_preset_options_init (&options);
  options.passes = passes;
  preset = duel_preset_new (preset_name, &options, &error);
  g_assert_no_error (error);
  /* CrystalDiskMark's 1 GiB test file: the span on a larger target. */
  duel_preset_prepare_for_size (preset, G_GUINT64_CONSTANT (4) << 30, 512, "4 GiB", &error);
  g_assert_no_error (error);

  g_assert_cmpuint (duel_preset_get_n_steps (preset), ==, n_profile * expected_passes);
  for (guint i = 0; i < duel_preset_get_n_steps (preset); i++)
    {
      const DuelPresetStep *step = duel_preset_get_step (preset, i);
      const Expected *e = &profile[i / expected_passes];

      g_assert_cmpint (step->kind, ==, DUEL_PRESET_STEP_TEST);
      g_assert_cmpstr (step->name, ==, e->name);
      g_assert_cmpint (step->analysis, ==, DUEL_ANALYSIS_STANDARD);
      g_assert_cmpuint (step->pass, ==, i % expected_passes + 1);
      g_assert_cmpuint (step->passes, ==, expected_passes);
      g_assert_cmpuint (step->workload.runtime_ms, ==, expected_runtime_ms);
      g_assert_cmpuint (step->workload.span_offset, ==, 0);
      g_assert_cmpuint (step->workload.span_length, ==, G_GUINT64_CONSTANT (1) << 30);
      g_assert_cmpint (step->info->live_view, ==, DUEL_LIVE_VIEW_BARS);
      assert_workload (&step->workload, e);
    }
}

static void
test_profiles (void)
{
  /* CrystalDiskMark's defaults: 5 passes of 5 s. */
  check_steps ("crystaldiskmark", 0, default_profile, G_N_ELEMENTS (default_profile), 5, 5000);
  check_steps ("crystaldiskmark-nvme", 0, nvme_profile, G_N_ELEMENTS (nvme_profile), 5, 5000);
  check_steps ("crystaldiskmark", 3, default_profile, G_N_ELEMENTS (default_profile), 3, 5000);
  check_steps ("crystaldiskmark-nvme", 1, nvme_profile, G_N_ELEMENTS (nvme_profile), 1, 5000);
  g_assert_cmpuint (duel_preset_default_runtime_ms ("crystaldiskmark", "cdm-rnd4k-q1t1-read"), ==, 5000);
}

static void
test_refused (void)
{
  static const char * const fills[] = { "write-saturation", "review", "quick" };
  DuelPresetOptions options;

  for (guint i = 0; i < G_N_ELEMENTS (fills); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DuelPreset) preset = NULL;

      duel_preset_options_init (&options);
      options.passes = 2;
      preset = duel_preset_new (fills[i], &options, &error);
      g_assert_null (preset);
      g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "fills the drive"));
    }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DuelPreset) preset = NULL;

    duel_preset_options_init (&options);
    options.passes = DUEL_PRESET_MAX_PASSES + 1;
    preset = duel_preset_new ("crystaldiskmark", &options, &error);
    g_assert_null (preset);
    g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  }
  /* One pass of a fill is what it always was. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DuelPreset) preset = NULL;

    duel_preset_options_init (&options);
    options.passes = 1;
    preset = duel_preset_new ("quick", &options, &error);
    g_assert_no_error (error);
  }
}

/* ---- the truth, by hand ------------------------------------------------------------ */

/* A standard figure of one pass from the record's own totals: "…_iops" is
 * ops per second, "…_mbps" bytes per second / 1e6, of the one direction
 * the test moves. */
static double
by_hand (DuelTestRecord *record,
         const char     *key)
{
  DuelDirection d = record->workload.read_percent == 100 ? DUEL_DIRECTION_READ : DUEL_DIRECTION_WRITE;
  double seconds = record->runtime_ns / 1e9;

  g_assert_cmpuint (record->workload.read_percent % 100, ==, 0);
  g_assert_cmpfloat (seconds, >, 0);
  if (g_str_has_suffix (key, "_iops"))
    return duel_test_record_get_ops (record, d) / seconds;
  g_assert_true (g_str_has_suffix (key, "_mbps"));
  return duel_test_record_get_bytes (record, d) / seconds / 1e6;
}

static gboolean
close_to (double a,
          double b)
{
  return fabs (a - b) <= 1e-9 * MAX (fabs (a), fabs (b));
}

/* Every figure row of @comparison's tests that ran in passes on @drive
 * against the hand-made figures of its records; returns how many rows. */
static guint
check_rows_by_hand (DuelComparison *comparison,
                    guint           drive)
{
  DuelResult *result = duel_comparison_get_result (comparison, drive);
  GPtrArray *tests = duel_result_get_tests (result);
  guint checked = 0;

  for (guint r = 0; r < duel_comparison_get_n_rows (comparison); r++)
    {
      const DuelComparisonRow *row = duel_comparison_get_row (comparison, r);
      double best = NAN, low = INFINITY, high = -INFINITY, sum = 0;
      guint n = 0;

      if (row->kind != DUEL_COMPARISON_ROW_FIGURE ||
          (!g_str_has_suffix (row->key, "_iops") && !g_str_has_suffix (row->key, "_mbps")))
        continue;
      for (guint i = 0; i < tests->len; i++)
        {
          DuelTestRecord *record = g_ptr_array_index (tests, i);
          double value;

          if (g_strcmp0 (record->name, row->test) != 0)
            continue;
          value = by_hand (record, row->key);
          low = MIN (low, value);
          high = MAX (high, value);
          sum += value;
          n++;
        }
      if (n < 2)
        {
          g_assert_cmpuint (row->n_passes[drive], ==, 0);
          continue;
        }
      best = row->better == DUEL_BETTER_LOWER ? low : high;
      g_assert_cmpint (row->better, ==, DUEL_BETTER_HIGHER);
      g_assert_cmpuint (row->n_passes[drive], ==, n);
      if (!close_to (row->value[drive], best) || !close_to (row->pass_mean[drive], sum / n) ||
          !close_to (row->pass_min[drive], low) || !close_to (row->pass_max[drive], high))
        g_error ("%s %s: best %.17g mean %.17g spread %.17g–%.17g; by hand %.17g, %.17g, %.17g–%.17g",
                 row->test, row->key, row->value[drive], row->pass_mean[drive], row->pass_min[drive],
                 row->pass_max[drive], best, sum / n, low, high);
      checked++;
    }
  return checked;
}

/* ---- a synthetic result ------------------------------------------------------------- */

/* One pass of 1 s: @ops I/Os of the workload's block size in one interval. */
static DuelTestRecord *
synthetic_pass (const char *name,
                guint       pass,
                guint       passes,
                guint32     block_size,
                guint32     queue_depth,
                guint       read_percent,
                guint64     ops)
{
  DuelWorkload workload;
  DuelTestRecord *record;
  DuelDirection d = read_percent == 100 ? DUEL_DIRECTION_READ : DUEL_DIRECTION_WRITE;
  DuelSeriesRow row = { .t_ms = 1000, .temperature_c = NAN };
  g_autoptr(DuelSummary) summary = NULL;
  JsonObject *details;

  duel_workload_init (&workload);
  workload.pattern = DUEL_PATTERN_SEQUENTIAL;
  workload.block_size = block_size;
  workload.queue_depth = queue_depth;
  workload.read_percent = read_percent;
  workload.runtime_ms = 1000;
  record = duel_test_record_new (name, &workload);
  record->preset = g_strdup ("crystaldiskmark");
  record->status = DUEL_TEST_STATUS_COMPLETE;
  record->runtime_ns = G_GUINT64_CONSTANT (1000000000);
  row.ops[d] = ops;
  row.bytes[d] = ops * block_size;
  duel_series_append (record->series, &row);

  summary = duel_analysis_summarize (record, DUEL_ANALYSIS_STANDARD, NULL);
  duel_analysis_apply (record, DUEL_ANALYSIS_STANDARD, NULL, summary);
  details = duel_test_record_get_details (record);
  json_object_set_string_member (details, "section", "crystaldiskmark");
  if (passes > 1)
    {
      json_object_set_int_member (details, "pass", pass);
      json_object_set_int_member (details, "passes", passes);
    }
  return record;
}

/* A latency test with its figure stored: lower is better. */
static DuelTestRecord *
latency_pass (double p99_us)
{
  DuelWorkload workload;
  DuelTestRecord *record;

  duel_workload_init (&workload);
  record = duel_test_record_new ("qos-read-qd1", &workload);
  record->status = DUEL_TEST_STATUS_COMPLETE;
  duel_test_record_set_figure (record, "qos_read_qd1_p99_us", p99_us, "us", DUEL_BETTER_LOWER);
  return record;
}

static const DuelComparisonRow *
find_row (DuelComparison *comparison,
          const char     *test,
          const char     *key)
{
  for (guint i = 0; i < duel_comparison_get_n_rows (comparison); i++)
    {
      const DuelComparisonRow *row = duel_comparison_get_row (comparison, i);

      if (g_strcmp0 (row->test, test) == 0 && g_strcmp0 (row->key, key) == 0)
        return row;
    }
  g_error ("no row %s %s", test, key);
  return NULL;
}

static void
test_synthetic (void)
{
  /* Drive A: three passes of SEQ1M Q8T1 read, 1000, 1500 and 1200 MiB in
   * 1 s; drive B one run of 1400 MiB. A's best beats B, its mean does not. */
  static const guint64 a_ops[] = { 1000, 1500, 1200 };
  static const double a_p99[] = { 120, 95, 140 };
  g_autoptr(DuelResult) a = duel_result_new ();
  g_autoptr(DuelResult) b = duel_result_new ();
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(DuelChart) chart = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *words = NULL;
  g_autofree char *expected_line = NULL;
  const DuelComparisonRow *row;
  double mb[3];

  duel_result_set_name (a, "A");
  duel_result_set_name (b, "B");
  for (guint i = 0; i < G_N_ELEMENTS (a_ops); i++)
    {
      g_autoptr(DuelTestRecord) record = synthetic_pass ("cdm-seq1m-q8t1-read", i + 1, 3, 1048576, 8, 100, a_ops[i]);
      g_autoptr(DuelTestRecord) latency = latency_pass (a_p99[i]);

      duel_result_add_test (a, record);
      duel_result_add_test (a, latency);
      mb[i] = a_ops[i] * 1048576.0 / 1e6;
    }
  {
    g_autoptr(DuelTestRecord) record = synthetic_pass ("cdm-seq1m-q8t1-read", 1, 1, 1048576, 8, 100, 1400);
    g_autoptr(DuelTestRecord) latency = latency_pass (100);

    duel_result_add_test (b, record);
    duel_result_add_test (b, latency);
  }

  comparison = duel_comparison_new (a, b, &error);
  g_assert_no_error (error);

  row = find_row (comparison, "cdm-seq1m-q8t1-read", "seq_read_mbps");
  g_assert_cmpuint (row->n_passes[0], ==, 3);
  g_assert_cmpuint (row->n_passes[1], ==, 0);
  g_assert_true (close_to (row->value[0], mb[1]));
  g_assert_true (close_to (row->pass_mean[0], (mb[0] + mb[1] + mb[2]) / 3));
  g_assert_true (close_to (row->pass_min[0], mb[0]));
  g_assert_true (close_to (row->pass_max[0], mb[1]));
  g_assert_true (close_to (row->value[1], 1400 * 1048576.0 / 1e6));
  g_assert_true (isnan (row->pass_mean[1]));
  /* Decided on the best pass, as CrystalDiskMark reports. */
  g_assert_cmpint (row->winner, ==, DUEL_WINNER_A);
  g_assert_cmpuint (check_rows_by_hand (comparison, 0), ==, 1);

  /* The mean and the spread in rows of their own, for every table and
   * export; neither has a winner, and B, run once, has neither. */
  {
    const DuelComparisonRow *mean_row = find_row (comparison, "cdm-seq1m-q8t1-read", "seq_read_mbps.passes_mean");
    const DuelComparisonRow *spread_row = find_row (comparison, "cdm-seq1m-q8t1-read", "seq_read_mbps.passes_spread");
    g_autofree char *low = duel_figure_format ("seq_read_mbps", mb[0]);
    g_autofree char *high = duel_figure_format ("seq_read_mbps", mb[1]);

    g_assert_nonnull (mean_row);
    g_assert_nonnull (spread_row);
    g_assert_true (close_to (mean_row->value[0], (mb[0] + mb[1] + mb[2]) / 3));
    g_assert_false (mean_row->has_value[1]);
    g_assert_cmpuint (mean_row->winners, ==, 0);
    g_assert_cmpuint (spread_row->winners, ==, 0);
    g_assert_true (g_str_has_prefix (spread_row->text[0], low));
    g_assert_nonnull (strstr (spread_row->text[0], high));
    g_assert_nonnull (strstr (spread_row->text[0], "(41 %)"));
    g_assert_cmpstr (spread_row->text[1], ==, "–");
  }

  /* (1572.864 − 1048.576) / 1293.2437… = 40.5 % of the mean. */
  words = duel_comparison_row_format_passes (row, 0);
  g_test_message ("%s", words);
  g_assert_true (g_str_has_prefix (words, "best "));
  g_assert_true (g_str_has_suffix (words, " (41 %)"));
  g_free (words);
  words = duel_comparison_row_format_passes (row, 1);
  g_assert_cmpstr (words, ==, "");

  /* A latency: the lowest pass is the best; B's one run beats A's mean,
   * A's best beats B. */
  row = find_row (comparison, "qos-read-qd1", "qos_read_qd1_p99_us");
  g_assert_cmpint (row->better, ==, DUEL_BETTER_LOWER);
  g_assert_cmpuint (row->n_passes[0], ==, 3);
  g_assert_cmpfloat (row->value[0], ==, 95);
  g_assert_true (close_to (row->pass_mean[0], (120.0 + 95 + 140) / 3));
  g_assert_cmpfloat (row->pass_min[0], ==, 95);
  g_assert_cmpfloat (row->pass_max[0], ==, 140);
  g_assert_cmpint (row->winner, ==, DUEL_WINNER_A);

  /* Three passes against one is said. */
  {
    gboolean said = FALSE;

    for (const char * const *w = duel_comparison_get_warnings (comparison); *w != NULL; w++)
      said |= strstr (*w, "best of 3 passes on A is set against the best of 1 on B") != NULL;
    g_assert_true (said);
  }

  /* The bar chart: the best as the bar, the lowest and highest pass as its whisker. */
  chart = duel_chart_standard_new (comparison);
  csv = duel_chart_to_csv (chart);
  g_test_message ("%s", csv);
  g_assert_true (g_str_has_prefix (csv, "drive,test,pattern,direction,block_size,queue_depth,numjobs,value,unit,rated,passes,lowest,highest\n"));
  expected_line = g_strdup_printf ("A,cdm-seq1m-q8t1-read,sequential,read,1048576,8,1,%.6g,MB/s,,3,%.6g,%.6g\n",
                                   mb[1], mb[0], mb[1]);
  g_assert_nonnull (strstr (csv, expected_line));
  g_free (expected_line);
  expected_line = g_strdup_printf ("B,cdm-seq1m-q8t1-read,sequential,read,1048576,8,1,%.6g,MB/s,,1,%.6g,%.6g\n",
                                   1400 * 1048576.0 / 1e6, 1400 * 1048576.0 / 1e6, 1400 * 1048576.0 / 1e6);
  g_assert_nonnull (strstr (csv, expected_line));
}


/* ---- the CrystalDiskMark grid ----------------------------------------------------------- */

/* One pass in CrystalDiskMark's three units, by hand from the record's
 * totals: bytes and I/Os over its runtime, the latencies' exact sum over
 * their count. */
static void
cdm_by_hand (const DuelTestRecord *record,
             DuelDirection         d,
             double                out[DUEL_CDM_N_UNITS])
{
  double seconds = record->runtime_ns / 1e9;

  out[DUEL_CDM_UNIT_MB_S] = duel_test_record_get_bytes (record, d) / seconds / 1e6;
  out[DUEL_CDM_UNIT_IOPS] = duel_test_record_get_ops (record, d) / seconds;
  out[DUEL_CDM_UNIT_US] = record->latency[d]->count > 0
                          ? (double) record->latency[d]->sum_ns / record->latency[d]->count / 1e3 : NAN;
}

static gboolean
same_or_nan (double a,
             double b)
{
  return (isnan (a) && isnan (b)) || close_to (a, b);
}

/* Every cell of @grid for @drive against its records by hand: the best
 * pass the highest MB/s, the mean and spread of every pass, unit by unit;
 * the pass the comparison keeps. Returns the cells that ran. */
static guint
check_grid_by_hand (DuelCdmGrid    *grid,
                    DuelComparison *comparison,
                    guint           drive)
{
  GPtrArray *tests = duel_result_get_tests (duel_comparison_get_result (comparison, drive));
  guint checked = 0;

  for (guint r = 0; r < duel_cdm_grid_get_n_rows (grid); r++)
    for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
      {
        const char *test = duel_cdm_grid_get_row_test (grid, r, d);
        const DuelCdmCell *cell = duel_cdm_grid_get_cell (grid, drive, r, d);
        double best[DUEL_CDM_N_UNITS], low[DUEL_CDM_N_UNITS], high[DUEL_CDM_N_UNITS], sum[DUEL_CDM_N_UNITS];
        guint n = 0, best_pass = 0;

        for (guint u = 0; u < DUEL_CDM_N_UNITS; u++)
          {
            best[u] = NAN;
            low[u] = INFINITY;
            high[u] = -INFINITY;
            sum[u] = 0;
          }
        for (guint i = 0; i < tests->len; i++)
          {
            DuelTestRecord *record = g_ptr_array_index (tests, i);
            double v[DUEL_CDM_N_UNITS];

            if (g_strcmp0 (record->name, test) != 0)
              continue;
            n++;
            cdm_by_hand (record, d, v);
            if (best_pass == 0 || v[DUEL_CDM_UNIT_MB_S] > best[DUEL_CDM_UNIT_MB_S])
              {
                best_pass = n;
                memcpy (best, v, sizeof best);
                g_assert_cmpuint (cell->bytes, >=, 0);
              }
            for (guint u = 0; u < DUEL_CDM_N_UNITS; u++)
              {
                low[u] = MIN (low[u], v[u]);
                high[u] = MAX (high[u], v[u]);
                sum[u] += v[u];
              }
          }
        g_assert_cmpuint (cell->n_passes, ==, n);
        if (n == 0)
          continue;
        g_assert_cmpuint (cell->best_pass, ==, best_pass);
        for (guint u = 0; u < DUEL_CDM_N_UNITS; u++)
          if (!same_or_nan (cell->best[u], best[u]) || !same_or_nan (cell->mean[u], sum[u] / n) ||
              !same_or_nan (cell->min[u], low[u]) || !same_or_nan (cell->max[u], high[u]))
            g_error ("%s unit %u: best %.17g mean %.17g spread %.17g–%.17g; by hand %.17g, %.17g, %.17g–%.17g",
                     test, u, cell->best[u], cell->mean[u], cell->min[u], cell->max[u],
                     best[u], sum[u] / n, low[u], high[u]);
        /* The pass the comparison's table shows. */
        for (guint i = 0; i < duel_comparison_get_n_rows (comparison); i++)
          {
            const DuelComparisonRow *row = duel_comparison_get_row (comparison, i);

            if (row->kind == DUEL_COMPARISON_ROW_FIGURE && g_strcmp0 (row->test, test) == 0 && n > 1 &&
                strstr (row->key, ".passes_") == NULL)
              g_assert_cmpuint (row->best_pass[drive], ==, cell->best_pass);
          }
        checked++;
      }
  return checked;
}

/* A step of the set: @passes passes of @ops[p] I/Os of @block_size in 1 s,
 * each I/O taking @latency_us[p] µs, added to @result. */
static void
add_cdm_step (DuelResult    *result,
              const char    *name,
              guint32        block_size,
              guint          read_percent,
              guint          passes,
              const guint64 *ops,
              const guint64 *latency_us)
{
  DuelDirection d = read_percent == 100 ? DUEL_DIRECTION_READ : DUEL_DIRECTION_WRITE;

  for (guint p = 0; p < passes; p++)
    {
      g_autoptr(DuelTestRecord) record = synthetic_pass (name, p + 1, passes, block_size, 8, read_percent, ops[p]);

      record->span_length = G_GUINT64_CONSTANT (1) << 30;
      record->workload.runtime_ms = 5000;
      /* Two I/Os around the mean: the mean is the sum over the count, not a bucket. */
      duel_histogram_add (record->latency[d], latency_us[p] * 1000 - 250);
      duel_histogram_add (record->latency[d], latency_us[p] * 1000 + 250);
      duel_result_add_test (result, record);
    }
}

static void
test_cdm_grid (void)
{
  static const guint64 seq_ops[] = { 1000, 1500, 1200 };
  static const guint64 seq_lat[] = { 2400, 2000, 2100 };
  static const guint64 rnd_ops[] = { 400000, 380000, 410000 };
  static const guint64 rnd_lat[] = { 1300, 1400, 1250 };
  static const guint64 one_ops[] = { 2000 };
  static const guint64 one_lat[] = { 500 };
  g_autoptr(DuelResult) a = duel_result_new ();
  g_autoptr(DuelResult) b = duel_result_new ();
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(DuelCdmGrid) grid = NULL;
  g_autoptr(DuelCdmGrid) alone = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *markdown = NULL;
  g_autofree char *iops_text = NULL;
  static const char * const labels[] = { "SEQ1M Q8T1", "SEQ1M Q1T1", "SEQ128K Q32T1", "RND4K Q32T16", "RND4K Q1T1" };
  const DuelCdmCell *cell;

  /* A: the default profile, 3 passes of each step; B: the NVMe profile's
   * SEQ128K Q32T1 read and RND4K Q32T16 read, once each. */
  duel_result_set_name (a, "A");
  duel_result_set_name (b, "B");
  add_cdm_step (a, "cdm-seq1m-q8t1-write", 1048576, 0, 3, seq_ops, seq_lat);
  add_cdm_step (a, "cdm-seq1m-q8t1-read", 1048576, 100, 3, seq_ops, seq_lat);
  add_cdm_step (a, "cdm-seq1m-q1t1-write", 1048576, 0, 3, seq_ops, seq_lat);
  add_cdm_step (a, "cdm-seq1m-q1t1-read", 1048576, 100, 3, seq_ops, seq_lat);
  add_cdm_step (a, "cdm-rnd4k-q32t16-write", 4096, 0, 3, rnd_ops, rnd_lat);
  add_cdm_step (a, "cdm-rnd4k-q32t16-read", 4096, 100, 3, rnd_ops, rnd_lat);
  add_cdm_step (a, "cdm-rnd4k-q1t1-write", 4096, 0, 3, rnd_ops, rnd_lat);
  add_cdm_step (a, "cdm-rnd4k-q1t1-read", 4096, 100, 3, rnd_ops, rnd_lat);
  add_cdm_step (b, "cdm-seq128k-q32t1-read", 131072, 100, 1, one_ops, one_lat);
  add_cdm_step (b, "cdm-rnd4k-q32t16-read", 4096, 100, 1, one_ops, one_lat);

  /* One drive: its profile's four rows, in CrystalDiskMark's order, T16 kept. */
  alone = duel_cdm_grid_new_for_result (a);
  g_assert_nonnull (alone);
  g_assert_cmpuint (duel_cdm_grid_get_n_rows (alone), ==, 4);
  g_assert_cmpstr (duel_cdm_grid_get_row_label (alone, 0), ==, "SEQ1M Q8T1");
  g_assert_cmpstr (duel_cdm_grid_get_row_label (alone, 1), ==, "SEQ1M Q1T1");
  g_assert_cmpstr (duel_cdm_grid_get_row_label (alone, 2), ==, "RND4K Q32T16");
  g_assert_cmpstr (duel_cdm_grid_get_row_label (alone, 3), ==, "RND4K Q1T1");
  g_assert_false (duel_cdm_grid_is_nvme (alone, 0));

  comparison = duel_comparison_new (a, b, &error);
  g_assert_no_error (error);
  grid = duel_cdm_grid_new (comparison);
  g_assert_nonnull (grid);
  g_assert_cmpuint (duel_cdm_grid_get_n_drives (grid), ==, 2);
  g_assert_cmpuint (duel_cdm_grid_get_n_rows (grid), ==, 5);
  for (guint r = 0; r < G_N_ELEMENTS (labels); r++)
    g_assert_cmpstr (duel_cdm_grid_get_row_label (grid, r), ==, labels[r]);
  g_assert_true (duel_cdm_grid_is_nvme (grid, 1));
  g_assert_cmpuint (check_grid_by_hand (grid, comparison, 0), ==, 8);
  g_assert_cmpuint (check_grid_by_hand (grid, comparison, 1), ==, 2);

  /* SEQ1M Q8T1 read on A: pass 2, 1500 MiB in 1 s = 1,572.864 MB/s, 1,500
   * IOPS, 2,000 µs; the passes 1,048.576, 1,572.864 and 1,258.2912 MB/s. */
  cell = duel_cdm_grid_get_cell (grid, 0, 0, DUEL_DIRECTION_READ);
  g_assert_cmpuint (cell->best_pass, ==, 2);
  g_assert_cmpuint (cell->bytes, ==, 1500 * G_GUINT64_CONSTANT (1048576));
  g_assert_cmpuint (cell->runtime_ns, ==, G_GUINT64_CONSTANT (1000000000));
  g_assert_true (close_to (cell->best[DUEL_CDM_UNIT_MB_S], 1572.864));
  g_assert_true (close_to (cell->best[DUEL_CDM_UNIT_IOPS], 1500));
  g_assert_true (close_to (cell->best[DUEL_CDM_UNIT_US], 2000));
  g_assert_true (close_to (cell->min[DUEL_CDM_UNIT_US], 2000));
  g_assert_true (close_to (cell->max[DUEL_CDM_UNIT_US], 2400));
  /* RND4K Q32T16 write on A: pass 3, 410,000 IOPS of 4 KiB, 1,250 µs. */
  cell = duel_cdm_grid_get_cell (grid, 0, 3, DUEL_DIRECTION_WRITE);
  g_assert_cmpuint (cell->best_pass, ==, 3);
  g_assert_true (close_to (cell->best[DUEL_CDM_UNIT_MB_S], 410000 * 4096 / 1e6));
  /* B did not run SEQ1M Q8T1; A not SEQ128K Q32T1. */
  g_assert_cmpuint (duel_cdm_grid_get_cell (grid, 1, 0, DUEL_DIRECTION_READ)->n_passes, ==, 0);
  g_assert_cmpuint (duel_cdm_grid_get_cell (grid, 0, 2, DUEL_DIRECTION_READ)->n_passes, ==, 0);

  /* Copy text: CrystalDiskMark's lines, the best-of-N line under each. */
  text = duel_cdm_grid_to_text (alone, DUEL_CDM_UNIT_MB_S, DUEL_CDM_TEXT_PLAIN);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "[Read]\n  SEQ1M Q8T1       1,572.86 MB/s [    1,500.0 IOPS] <  2,000.00 µs>\n"
                                  "               best of 3 (pass 2), mean 1,293.24, spread 1,048.58–1,572.86 MB/s (41 %)\n"));
  g_assert_nonnull (strstr (text, "  RND4K Q32T16     1,679.36 MB/s [  410,000.0 IOPS] <  1,250.00 µs>\n"));
  g_assert_nonnull (strstr (text, "\n[Write]\n"));
  g_assert_nonnull (strstr (text, "Profile: Default, best of 3 passes of 5 s, 1.0\xc2\xa0GiB\n"));
  g_assert_null (strstr (text, "SEQ128K"));
  iops_text = duel_cdm_grid_to_text (alone, DUEL_CDM_UNIT_IOPS, DUEL_CDM_TEXT_PLAIN);
  g_assert_nonnull (strstr (iops_text, "best of 3 (pass 2), mean 1,233.3, spread 1,000.0–1,500.0 IOPS (41 %)\n"));

  /* Markdown: a column pair per drive; "–" where a drive did not run a step. */
  markdown = duel_cdm_grid_to_text (grid, DUEL_CDM_UNIT_MB_S, DUEL_CDM_TEXT_MARKDOWN);
  g_test_message ("%s", markdown);
  g_assert_nonnull (strstr (markdown, "| MB/s | A Read | A Write | B Read | B Write |\n|:--|--:|--:|--:|--:|\n"));
  g_assert_nonnull (strstr (markdown, "| SEQ1M Q8T1 | **1,572.86** | **1,572.86** | – | – |\n"));
  g_assert_nonnull (strstr (markdown, "| SEQ128K Q32T1 | – | – | **262.14** | – |\n"));
  g_assert_nonnull (strstr (markdown, "| RND4K Q32T16 | pass 3; mean 1,624.75; 1,556.48–1,679.36 |"));
  g_assert_nonnull (strstr (markdown, "- B: NVMe SSD, 1 pass of 5 s, 1.0\xc2\xa0GiB\n"));

  /* No step of the set: no grid. */
  {
    g_autoptr(DuelResult) other = duel_result_new ();
    g_autoptr(DuelTestRecord) latency = latency_pass (100);

    duel_result_add_test (other, latency);
    g_assert_null (duel_cdm_grid_new_for_result (other));
  }
}

/* ---- a real run on a file ------------------------------------------------------------- */

/* `analyze` (as people read it) prints @expected, the grid, whole. */
static void
test_analyze_prints (const char *path,
                     const char *expected)
{
  const char *cli = g_getenv ("DRIVEDUEL_CLI");
  const char *argv[] = { cli, "analyze", path, NULL };
  g_auto(GStrv) envp = g_get_environ ();
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if (cli == NULL || !g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("driveduel-cli is not built: its grid is not checked");
      return;
    }
  /* The numbers as this process writes them. */
  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
  envp = g_environ_unsetenv (envp, "LANGUAGE");
  g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_spawn_check_wait_status (status, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (out, expected));
}

static void
checkpoint_cb (DuelResult *result,
               gboolean    test_finished,
               gpointer    user_data)
{
  duel_checkpointer_update (user_data, result, test_finished);
}

static void
assert_same_rows (DuelComparison *x,
                  DuelComparison *y)
{
  g_assert_cmpuint (duel_comparison_get_n_rows (x), ==, duel_comparison_get_n_rows (y));
  for (guint i = 0; i < duel_comparison_get_n_rows (x); i++)
    {
      const DuelComparisonRow *a = duel_comparison_get_row (x, i);
      const DuelComparisonRow *b = duel_comparison_get_row (y, i);

      g_assert_cmpstr (a->test, ==, b->test);
      g_assert_cmpstr (a->key, ==, b->key);
      if (a->kind != DUEL_COMPARISON_ROW_FIGURE)
        continue;
      for (guint d = 0; d < duel_comparison_get_n_drives (x); d++)
        {
          g_assert_cmpuint (a->n_passes[d], ==, b->n_passes[d]);
          g_assert_cmpstr (a->text[d], ==, b->text[d]);
          /* The file keeps doubles as %.17g: the same numbers. */
          g_assert_true ((isnan (a->value[d]) && isnan (b->value[d])) || a->value[d] == b->value[d]);
          g_assert_true ((isnan (a->pass_mean[d]) && isnan (b->pass_mean[d])) || close_to (a->pass_mean[d], b->pass_mean[d]));
          g_assert_true ((isnan (a->pass_min[d]) && isnan (b->pass_min[d])) || a->pass_min[d] == b->pass_min[d]);
          g_assert_true ((isnan (a->pass_max[d]) && isnan (b->pass_max[d])) || a->pass_max[d] == b->pass_max[d]);
        }
      g_assert_cmpint (a->winner, ==, b->winner);
    }
}

/* What was folded or loaded holds the run's records, in order, pass by pass. */
static void
assert_same_records (DuelResult *loaded,
                     DuelResult *measured)
{
  GPtrArray *x = duel_result_get_tests (loaded);
  GPtrArray *y = duel_result_get_tests (measured);

  g_assert_cmpuint (x->len, ==, y->len);
  for (guint i = 0; i < x->len; i++)
    {
      DuelTestRecord *a = g_ptr_array_index (x, i);
      DuelTestRecord *b = g_ptr_array_index (y, i);

      g_assert_cmpstr (a->name, ==, b->name);
      g_assert_cmpuint (a->runtime_ns, ==, b->runtime_ns);
      g_assert_cmpint (a->status, ==, b->status);
      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        {
          g_assert_cmpuint (duel_test_record_get_ops (a, d), ==, duel_test_record_get_ops (b, d));
          g_assert_cmpuint (duel_test_record_get_bytes (a, d), ==, duel_test_record_get_bytes (b, d));
        }
    }
}

/* `analyze --json` on the file: a test per record, in order, each figure as
 * the run computed it. */

static void
test_real_run (void)
{
  const guint passes = 2;
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "passes", NULL);
  g_autofree char *target_path = g_build_filename (dir, "target.img", NULL);
  g_autofree char *path = g_build_filename (dir, "result.json", NULL);
  g_autofree char *journal_path = g_build_filename (dir, "journalled.json", NULL);
  g_autofree char *journal_file = NULL;
  g_autoptr(DuelTarget) target = NULL;
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(DuelResult) folded = NULL;
  g_autoptr(DuelResult) header = duel_result_new ();
  g_autoptr(DuelCheckpointer) checkpointer = NULL;
  g_autoptr(DuelComparison) measured = NULL;
  g_autoptr(DuelComparison) reloaded = NULL;
  g_autoptr(DuelComparison) refolded = NULL;
  g_autoptr(GString) journal = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  DuelPresetOptions options;
  GPtrArray *tests;

  g_mkdir_with_parents (dir, 0700);
  target = duel_target_open (target_path, DUEL_TARGET_OPEN_WRITE | DUEL_TARGET_OPEN_CREATE, 8 * MIB, &error);
  g_assert_no_error (error);

  duel_preset_options_init (&options);
  options.runtime_ms = 200;
  options.interval_ms = 100;
  options.passes = passes;
  preset = duel_preset_new ("crystaldiskmark", &options, &error);
  g_assert_no_error (error);

  duel_result_set_target_from (result, target);
  duel_result_set_name (result, "Scratch file");
  checkpointer = duel_checkpointer_new (path);
  duel_checkpointer_start (checkpointer, result, &error);
  g_assert_no_error (error);
  test_run_plan (preset, target, result, checkpoint_cb, checkpointer, &error);
  g_assert_no_error (error);
  duel_checkpointer_finish (checkpointer, result, &error);
  g_assert_no_error (error);

  /* (a) 8 steps x N passes, each record's workload exactly the profile's. */
  tests = duel_result_get_tests (result);
  g_assert_cmpuint (tests->len, ==, G_N_ELEMENTS (default_profile) * passes);
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      JsonObject *details = duel_test_record_get_details (record);

      g_assert_cmpstr (record->name, ==, default_profile[i / passes].name);
      g_assert_cmpstr (record->preset, ==, "crystaldiskmark");
      g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_COMPLETE);
      assert_workload (&record->workload, &default_profile[i / passes]);
      g_assert_cmpuint (record->workload.runtime_ms, ==, 200);
      g_assert_cmpuint (record->span_length, ==, 8 * MIB);
      g_assert_cmpstr (json_object_get_string_member (details, "section"), ==, "crystaldiskmark");
      g_assert_cmpint (json_object_get_int_member (details, "pass"), ==, i % passes + 1);
      g_assert_cmpint (json_object_get_int_member (details, "passes"), ==, passes);
      g_assert_cmpuint (duel_test_record_get_ops (record, record->workload.read_percent == 100
                                                  ? DUEL_DIRECTION_READ : DUEL_DIRECTION_WRITE), >, 0);
      g_assert_cmpuint (duel_test_record_get_ops (record, record->workload.read_percent == 100
                                                  ? DUEL_DIRECTION_WRITE : DUEL_DIRECTION_READ), ==, 0);
    }

  /* (b) the comparison against the hand-made figures of each pass. */
  measured = duel_comparison_new (result, NULL, &error);
  g_assert_no_error (error);
  /* Sequential: MB/s; random: IOPS and MB/s. */
  g_assert_cmpuint (check_rows_by_hand (measured, 0), ==, 4 + 4 * 2);
  g_assert_cmpuint (g_strv_length ((char **) duel_comparison_get_tests (measured)), ==, 8);

  /* (c) saved (checkpointed, then finished) and loaded: the same records
   * and rows; the journal is gone. */
  g_assert_false (g_file_test (duel_checkpointer_get_journal_path (checkpointer), G_FILE_TEST_EXISTS));
  loaded = duel_result_load (path, &error);
  g_assert_no_error (error);
  assert_same_records (loaded, result);
  reloaded = duel_comparison_new (loaded, NULL, &error);
  g_assert_no_error (error);
  assert_same_rows (reloaded, measured);
  g_assert_cmpuint (check_rows_by_hand (reloaded, 0), ==, 4 + 4 * 2);

  /* A file with no tests yet and a journal of every record, as a run killed
   * before its last save leaves it: the fold keeps the passes apart. */
  duel_result_set_target_from (header, target);
  duel_result_set_name (header, "Scratch file");
  duel_result_set_journal_id (header, "01234567-89ab-4def-8123-456789abcdef");
  duel_result_save (header, journal_path, &error);
  g_assert_no_error (error);
  _duel_journal_append_header (journal, "01234567-89ab-4def-8123-456789abcdef");
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      guint rows = duel_series_get_length (record->series);

      _duel_journal_append_test (journal, i, record);
      for (guint r = 0; r < rows; r++)
        _duel_journal_append_row (journal, i, r, duel_series_get_row (record->series, r));
      _duel_journal_append_state (journal, i, rows, record->runtime_ns, record->status,
                                  record->latency[DUEL_DIRECTION_READ], record->latency[DUEL_DIRECTION_WRITE]);
    }
  journal_file = _duel_journal_path_for (journal_path);
  g_file_set_contents (journal_file, journal->str, (gssize) journal->len, &error);
  g_assert_no_error (error);
  folded = duel_result_load (journal_path, &error);
  g_assert_no_error (error);
  assert_same_records (folded, result);
  refolded = duel_comparison_new (folded, NULL, &error);
  g_assert_no_error (error);
  assert_same_rows (refolded, measured);

  /* analyze recomputes every pass from the file. */
  test_analyze_matches_run (path, result);

  /* The CrystalDiskMark grid: each cell by hand from the best pass's
   * bytes, I/Os and latencies; the saved file gives the same text, and
   * analyze prints it. */
  {
    g_autoptr(DuelCdmGrid) grid = duel_cdm_grid_new (measured);
    g_autoptr(DuelCdmGrid) saved = duel_cdm_grid_new (reloaded);
    g_autofree char *text = NULL;
    g_autofree char *saved_text = NULL;

    g_assert_nonnull (grid);
    g_assert_cmpuint (check_grid_by_hand (grid, measured, 0), ==, 8);
    g_assert_cmpuint (check_grid_by_hand (saved, reloaded, 0), ==, 8);
    text = duel_cdm_grid_to_text (grid, DUEL_CDM_UNIT_MB_S, DUEL_CDM_TEXT_PLAIN);
    saved_text = duel_cdm_grid_to_text (saved, DUEL_CDM_UNIT_MB_S, DUEL_CDM_TEXT_PLAIN);
    g_test_message ("%s", text);
    g_assert_cmpstr (text, ==, saved_text);
    g_assert_nonnull (strstr (text, "\n  RND4K Q32T16 "));
    g_assert_nonnull (strstr (text, "Profile: Default, best of 2 passes of 0.2 s, 8.0\xc2\xa0MiB\n"));
    test_analyze_prints (path, saved_text);
  }

  g_unlink (journal_file);
  g_unlink (journal_path);
  g_unlink (path);
  g_unlink (target_path);
  g_rmdir (dir);
}

/* The custom test: the person's workload, run for its length on a real
 * file, summarised by the analysis it fits, titled in words; without a
 * workload, or with one the workload's rules refuse, one sentence. */
static void
test_custom (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "custom", NULL);
  g_autofree char *target_path = g_build_filename (dir, "target.img", NULL);
  g_autoptr(DuelTarget) target = NULL;
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;
  DuelPresetOptions options;
  DuelTestRecord *record;
  DuelAnalysisKind kind;
  JsonObject *details;

  duel_preset_options_init (&options);
  preset = duel_preset_new ("custom", &options, &error);
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_assert_null (preset);
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  duel_workload_init (&options.custom);
  options.custom.block_size = 4096;
  options.custom.queue_depth = 0;
  preset = duel_preset_new ("custom", &options, &error);
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "queue depth"));
  g_clear_error (&error);

  g_mkdir_with_parents (dir, 0700);
  target = duel_target_open (target_path, DUEL_TARGET_OPEN_WRITE | DUEL_TARGET_OPEN_CREATE, 8 * MIB, &error);
  g_assert_no_error (error);
  options.custom.pattern = DUEL_PATTERN_SEQUENTIAL;
  options.custom.block_size = 128 * 1024;
  options.custom.queue_depth = 4;
  options.custom.numjobs = 2;
  options.custom.read_percent = 70;
  options.runtime_ms = 300;
  options.interval_ms = 100;
  options.passes = 2;
  preset = duel_preset_new ("custom", &options, &error);
  g_assert_no_error (error);
  test_run_plan (preset, target, result, NULL, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (duel_result_get_tests (result)->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      record = g_ptr_array_index (duel_result_get_tests (result), i);
      g_assert_cmpint (record->workload.pattern, ==, DUEL_PATTERN_SEQUENTIAL);
      g_assert_cmpuint (record->workload.block_size, ==, 128 * 1024);
      g_assert_cmpuint (record->workload.queue_depth, ==, 4);
      g_assert_cmpuint (record->workload.numjobs, ==, 2);
      g_assert_cmpuint (record->workload.read_percent, ==, 70);
      g_assert_cmpuint (record->workload.runtime_ms, ==, 300);
      g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_COMPLETE);
      /* Both directions ran, in about the share asked for (the mix is drawn per I/O). */
      g_assert_cmpuint (duel_test_record_get_ops (record, DUEL_DIRECTION_READ), >, 0);
      g_assert_cmpuint (duel_test_record_get_ops (record, DUEL_DIRECTION_WRITE), >, 0);
      /* Summarised by the analysis its workload fits, the importer's rule. */
      details = duel_json_get_object (record->summary, "details");
      g_assert_true (duel_analysis_kind_from_string (duel_json_get_string (details, "analysis"), &kind));
      g_assert_cmpint (kind, ==, duel_analysis_guess (record));
      g_assert_cmpint (json_object_get_int_member (duel_test_record_get_details (record), "pass"), ==, i + 1);
    }
  title = duel_review_describe_record (record->name);
  g_assert_cmpstr (title, ==, "Custom test");
}

/* A pass of a 70/30 mix of 4 KiB at QD32 for 20 s: every second at @iops
 * but second 10 at @slow_iops. */
static DuelTestRecord *
mix_pass (guint   pass,
          guint64 iops,
          guint64 slow_iops)
{
  DuelWorkload workload;
  DuelTestRecord *record;
  g_autoptr(DuelSummary) summary = NULL;
  JsonObject *details;

  duel_workload_init (&workload);
  workload.pattern = DUEL_PATTERN_RANDOM;
  workload.block_size = 4096;
  workload.queue_depth = 32;
  workload.read_percent = 70;
  workload.runtime_ms = 20000;
  record = duel_test_record_new ("custom", &workload);
  record->status = DUEL_TEST_STATUS_COMPLETE;
  record->runtime_ns = G_GUINT64_CONSTANT (20000000000);
  for (guint i = 0; i < 20; i++)
    {
      DuelSeriesRow row = { .t_ms = (i + 1) * 1000, .temperature_c = NAN };
      guint64 ops = i == 9 ? slow_iops : iops;

      row.ops[DUEL_DIRECTION_READ] = ops * 7 / 10;
      row.ops[DUEL_DIRECTION_WRITE] = ops - ops * 7 / 10;
      row.bytes[DUEL_DIRECTION_READ] = row.ops[DUEL_DIRECTION_READ] * 4096;
      row.bytes[DUEL_DIRECTION_WRITE] = row.ops[DUEL_DIRECTION_WRITE] * 4096;
      duel_series_append (record->series, &row);
    }
  summary = duel_analysis_summarize (record, DUEL_ANALYSIS_CONSISTENCY, NULL);
  duel_analysis_apply (record, DUEL_ANALYSIS_CONSISTENCY, NULL, summary);
  details = duel_test_record_get_details (record);
  json_object_set_int_member (details, "pass", pass);
  json_object_set_int_member (details, "passes", 3);
  return record;
}

/* Figures computed from one another come from one pass: the best by the
 * test's first ranked figure (the mean IOPS), named; never the best of
 * each figure over different passes (the consistency ratio of one pass
 * beside the slowest interval and mean of another). The labels state the
 * mix the test ran, not the preset's 50/50. */
static void
test_one_pass (void)
{
  g_autoptr(DuelResult) a = duel_result_new ();
  g_autoptr(DuelResult) b = duel_result_new ();
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *words = NULL;
  const char *keys[] = { "consistency_mean_iops", "consistency_slowest_iops", "consistency_ratio" };
  DuelTestRecord *passes[3];
  double best_ratio = 0;

  duel_result_set_name (a, "A");
  duel_result_set_name (b, "B");
  /* Pass 2 is fastest on average but has the deepest dip; pass 3 is the
   * steadiest. */
  passes[0] = mix_pass (1, 20000, 15000);
  passes[1] = mix_pass (2, 24000, 6000);
  passes[2] = mix_pass (3, 21000, 20000);
  for (guint i = 0; i < 3; i++)
    {
      best_ratio = MAX (best_ratio, duel_test_record_get_figure_value (passes[i], "consistency_ratio"));
      duel_result_add_test (a, passes[i]);
    }
  {
    g_autoptr(DuelTestRecord) once = mix_pass (1, 22000, 21000);

    duel_result_add_test (b, once);
  }
  comparison = duel_comparison_new (a, b, &error);
  g_assert_no_error (error);

  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      const DuelComparisonRow *row = find_row (comparison, "custom", keys[k]);

      g_test_message ("%s: %s", row->label, row->text[0]);
      g_assert_cmpfloat (row->value[0], ==, duel_test_record_get_figure_value (passes[1], keys[k]));
      g_assert_cmpuint (row->best_pass[0], ==, 2);
      g_assert_cmpuint (row->n_runs[0], ==, 3);
      g_assert_cmpuint (row->best_pass[1], ==, 0);
    }
  /* The rule per figure would have taken pass 3's ratio. */
  g_assert_cmpfloat (find_row (comparison, "custom", "consistency_ratio")->value[0], <, best_ratio);
  /* The ratio shown is the slowest shown over the mean shown. */
  g_assert_cmpfloat_with_epsilon (find_row (comparison, "custom", "consistency_ratio")->value[0],
                                  100.0 * find_row (comparison, "custom", "consistency_slowest_iops")->value[0] /
                                  find_row (comparison, "custom", "consistency_mean_iops")->value[0], 0.01);

  words = duel_comparison_row_format_passes (find_row (comparison, "custom", "consistency_mean_iops"), 0);
  g_test_message ("%s", words);
  g_assert_nonnull (strstr (words, "(pass 2 of 3)"));

  /* The mix said as run, in the table and for one record. */
  g_assert_cmpstr (find_row (comparison, "custom", "consistency_mean_iops")->label, ==,
                   "4 KiB random 70/30 read/write, mean IOPS");
  g_assert_cmpstr (duel_figure_get_record_label ("consistency_slowest_iops", passes[0]), ==,
                   "4 KiB random 70/30 read/write, 99.9 % slowest interval");
  for (guint i = 0; i < 3; i++)
    duel_test_record_unref (passes[i]);
}

/* A label states the workload the record ran, for every figure whose table
 * label states a preset's: the mix, the block size, the access. */
static void
test_labels_state_workload (void)
{
  DuelWorkload w;
  g_autoptr(DuelTestRecord) preset_mix = NULL;
  g_autoptr(DuelTestRecord) qos8k = NULL;
  g_autoptr(DuelTestRecord) seq = NULL;
  g_autoptr(DuelTestRecord) mix = NULL;
  g_autoptr(DuelTestRecord) jobs = NULL;
  g_autofree char *described = NULL;

  duel_workload_init (&w);
  w.pattern = DUEL_PATTERN_RANDOM;
  w.block_size = 4096;
  w.queue_depth = 32;
  w.read_percent = 50;
  preset_mix = duel_test_record_new ("consistency", &w);
  /* The preset's own workload keeps the table's words. */
  g_assert_cmpstr (duel_figure_get_record_label ("consistency_mean_iops", preset_mix), ==,
                   duel_figure_get_label ("consistency_mean_iops"));
  g_assert_cmpstr (duel_figure_get_record_label ("qos_mix_read_qd32_p99_us", preset_mix), ==,
                   "Mixed 50/50 QD32, reads, 99 % latency");

  w.read_percent = 30;
  mix = duel_test_record_new ("custom", &w);
  g_assert_cmpstr (duel_figure_get_record_label ("qos_mix_write_qd32_p99_9_us", mix), ==,
                   "4 KiB random 30/70 read/write QD32, writes, 99.9 % latency");

  w.read_percent = 100;
  w.block_size = 8192;
  qos8k = duel_test_record_new ("custom", &w);
  g_assert_cmpstr (duel_figure_get_record_label ("qos_read_qd32_p99_us", qos8k), ==,
                   "8 KiB random read QD32, 99 % latency");

  w.block_size = 4096;
  w.pattern = DUEL_PATTERN_SEQUENTIAL;
  w.queue_depth = 4;
  seq = duel_test_record_new ("custom", &w);
  g_assert_cmpstr (duel_figure_get_record_label ("qos_read_qd4_p99_99_us", seq), ==,
                   "4 KiB sequential read QD4, 99.99 % latency");
  /* fio's completion latency is said after it. */
  seq->latency_kind = DUEL_LATENCY_COMPLETION;
  g_assert_cmpstr (duel_figure_get_record_label ("qos_read_qd4_p99_99_us", seq), ==,
                   "4 KiB sequential read QD4, 99.99 % latency (completion latency)");

  /* The jobs are in the subtitle. */
  w.pattern = DUEL_PATTERN_RANDOM;
  w.queue_depth = 32;
  w.numjobs = 16;
  w.runtime_ms = 5000;
  jobs = duel_test_record_new ("custom", &w);
  described = duel_chart_describe_workload (jobs);
  g_assert_cmpstr (described, ==, "4 KiB random read, QD32, 16 jobs, 5 s");
  /* And in the figures' labels: CrystalDiskMark's RND4K Q32T16 is not "QD32". */
  g_assert_cmpstr (duel_figure_get_record_label ("rand_read_qd32_iops", jobs), ==,
                   "4 KiB random read QD32 × 16 jobs");
  g_assert_cmpstr (duel_figure_get_record_label ("qos_read_qd32_p99_us", jobs), ==,
                   "4 KiB random read QD32 × 16 jobs, 99 % latency");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/passes/profiles", test_profiles);
  g_test_add_func ("/duel/passes/refused", test_refused);
  g_test_add_func ("/duel/passes/comparison/synthetic", test_synthetic);
  g_test_add_func ("/duel/passes/comparison/one-pass", test_one_pass);
  g_test_add_func ("/duel/passes/labels-state-workload", test_labels_state_workload);
  g_test_add_func ("/duel/passes/crystaldiskmark/grid", test_cdm_grid);
  g_test_add_func ("/duel/passes/crystaldiskmark/file", test_real_run);
  g_test_add_func ("/duel/passes/custom/file", test_custom);

  return g_test_run ();
}
