/* test-sequential-write.c — the sustained sequential write's analysis on hand-made rows of known truth
 *
 * Each series is built from stretches of a known length (GB) and speed
 * (MB/s), written out in rows of one interval with a fixed per-row noise
 * (a seeded GRand: the same rows on every host), in whole 1 MiB writes.
 * What it was built from is the truth: where the cache runs out, the
 * speeds either side, the folding stretch; a flat drive must have no fall
 * invented. The figures a result stores must come back exactly from its
 * rows after a save and a load.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "analysis/duel-analysis.h"
#include "analysis/duel-comparison.h"
#include "analysis/duel-sequential-write.h"
#include "result/duel-result.h"
#include "test-seqw-records.h"

static DuelSummary *
analyse (DuelTestRecord *record)
{
  DuelSummary *summary = duel_analysis_summarize (record, DUEL_ANALYSIS_SEQUENTIAL_WRITE, NULL);

  duel_analysis_apply (record, DUEL_ANALYSIS_SEQUENTIAL_WRITE, NULL, summary);
  return summary;
}

static double
figure (const DuelSummary *summary,
        const char        *key)
{
  double value = NAN;

  g_assert_true (duel_summary_lookup (summary, key, &value));
  return value;
}

static void
assert_near (double      value,
             double      truth,
             double      tolerance,
             const char *what)
{
  g_test_message ("%s: %.4g (truth %.4g, tolerance %.3g)", what, value, truth, tolerance);
  if (!(fabs (value - truth) <= tolerance))
    g_error ("%s: %.6g is not within %.3g of %.6g", what, value, tolerance, truth);
}

/* The knee within what the analysis says it may be off, and never more than
 * 2 % of the span (the bar for the simulated drive). */
static void
assert_knee (const DuelSummary *summary,
             const char        *key,
             double             resolution_gb,
             double             truth_gb,
             double             span_gb)
{
  double found = figure (summary, key);

  g_assert_true (isfinite (resolution_gb) && resolution_gb >= 0);
  assert_near (found, truth_gb, MIN (MAX (resolution_gb, 0.01 * span_gb), 0.02 * span_gb), key);
}

static char **
sentences (const DuelSummary *summary)
{
  return duel_sequential_write_dup_text (duel_summary_get_details ((DuelSummary *) summary));
}

/* 300 GB at 6,000 MB/s, then 1,500 MB/s to the end of a 1 TB drive. */
static void
test_cache_then_slower (void)
{
  static const TestStretch shape[] = { { 300, 6000 }, { 700, 1500 } };
  g_autoptr(DuelTestRecord) record = test_seqw_make_record (shape, G_N_ELEMENTS (shape), 1000, 0.1, 1);
  g_autoptr(DuelSummary) summary = analyse (record);
  g_auto(GStrv) lines = sentences (summary);

  assert_knee (summary, "seqw_cache_gb", figure (summary, "seqw_cache_resolution_gb"), 300, 1000);
  assert_near (figure (summary, "seqw_cache_mbps"), 6000, 0.05 * 6000, "speed in the cache");
  assert_near (figure (summary, "seqw_after_cache_mbps"), 1500, 0.05 * 1500, "speed after the cache");
  g_assert_true (isnan (figure (summary, "seqw_fold_gb")));
  g_assert_true (isnan (figure (summary, "seqw_fold_mbps")));
  /* The whole write: 300 GB in 50 s and 700 GB in 466.7 s, whatever the noise. */
  assert_near (figure (summary, "seqw_time_s"), 517, 1.0, "time to write the drive");
  assert_near (figure (summary, "seqw_mean_mbps"), 1e12 / 516.7 / 1e6, 0.03 * 1935, "mean over the write");
  g_assert_cmpfloat (figure (summary, "seqw_written_gb"), ==, record->span_length / 1e9);
  g_assert_cmpfloat (figure (summary, "seqw_mean_mbps"), ==,
                     record->span_length / figure (summary, "seqw_time_s") / 1e6);

  g_assert_cmpuint (g_strv_length (lines), ==, 1);
  g_test_message ("%s", lines[0]);
  g_assert_true (g_str_has_prefix (lines[0], "The cache ran out after 3"));
  g_assert_nonnull (strstr (lines[0], " GB (± "));
  g_assert_true (g_str_has_suffix (lines[0], " MB/s."));
}

/* A cache, a slower level after it, then a third, slower stretch while it
 * is folded: 200 GB at 6,000, 300 GB at 2,000, the rest at 800 MB/s. */
static void
test_three_levels (void)
{
  static const TestStretch shape[] = { { 200, 6000 }, { 300, 2000 }, { 500, 800 } };
  g_autoptr(DuelTestRecord) record = test_seqw_make_record (shape, G_N_ELEMENTS (shape), 1000, 0.1, 2);
  g_autoptr(DuelSummary) summary = analyse (record);
  g_auto(GStrv) lines = sentences (summary);
  JsonObject *write = json_object_get_object_member (duel_summary_get_details (summary), "sequential_write");
  JsonObject *fold = json_array_get_object_element (json_object_get_array_member (write, "falls"), 1);

  assert_knee (summary, "seqw_cache_gb", figure (summary, "seqw_cache_resolution_gb"), 200, 1000);
  assert_near (figure (summary, "seqw_cache_mbps"), 6000, 0.05 * 6000, "speed in the cache");
  assert_near (figure (summary, "seqw_after_cache_mbps"), 2000, 0.05 * 2000, "speed after the cache");
  assert_knee (summary, "seqw_fold_gb", json_object_get_double_member (fold, "resolution_bytes") / 1e9, 500, 1000);
  assert_near (figure (summary, "seqw_fold_mbps"), 800, 0.05 * 800, "speed while folding");

  g_assert_cmpuint (g_strv_length (lines), ==, 2);
  g_assert_true (g_str_has_prefix (lines[0], "The cache ran out after "));
  g_assert_true (g_str_has_prefix (lines[1], "Folding slowed it again after "));
}

/* No cache: 2,500 MB/s ± 10 % from start to end. No fall is invented, and
 * the sentence says the speed held. */
static void
test_flat_noise (void)
{
  static const TestStretch shape[] = { { 1000, 2500 } };

  for (guint32 seed = 1; seed <= 20; seed++)
    {
      g_autoptr(DuelTestRecord) record = test_seqw_make_record (shape, G_N_ELEMENTS (shape), 1000, 0.2, seed);
      g_autoptr(DuelSummary) summary = analyse (record);
      g_auto(GStrv) lines = sentences (summary);

      g_assert_true (isnan (figure (summary, "seqw_cache_gb")));
      g_assert_true (isnan (figure (summary, "seqw_cache_mbps")));
      g_assert_true (isnan (figure (summary, "seqw_after_cache_mbps")));
      g_assert_true (isnan (figure (summary, "seqw_fold_gb")));
      assert_near (figure (summary, "seqw_mean_mbps"), 2500, 0.03 * 2500, "mean of a flat write");
      g_assert_cmpuint (g_strv_length (lines), ==, 1);
      g_assert_true (g_str_has_prefix (lines[0], "No fall: the write held 2,"));
      g_assert_true (g_str_has_suffix (lines[0], " MB/s throughout."));
    }
}

/* Rows of 5 s (30 GB each at the cache's speed, 3 % of the span): the cache
 * runs out 70.5 s in, half way through a row. The knee is placed within
 * the resolution it states, and the sentence states it. */
static void
test_inside_interval (void)
{
  static const TestStretch shape[] = { { 423, 6000 }, { 577, 1500 } };
  g_autoptr(DuelTestRecord) record = test_seqw_make_record (shape, G_N_ELEMENTS (shape), 5000, 0.05, 3);
  g_autoptr(DuelSummary) summary = analyse (record);
  g_auto(GStrv) lines = sentences (summary);
  double resolution = figure (summary, "seqw_cache_resolution_gb");

  g_test_message ("cache %.2f GB ± %.2f GB", figure (summary, "seqw_cache_gb"), resolution);
  /* At least the grid's step, and the cache's true end within it. */
  g_assert_cmpfloat (resolution, >=, 2.5);
  assert_knee (summary, "seqw_cache_gb", resolution, 423, 1000);
  assert_near (figure (summary, "seqw_after_cache_mbps"), 1500, 0.05 * 1500, "speed after the cache");
  g_assert_cmpuint (g_strv_length (lines), ==, 1);
  g_test_message ("%s", lines[0]);
  g_assert_nonnull (strstr (lines[0], " GB (± "));
}

/* The figures a result stores come back exactly from its rows: saved,
 * loaded and summarised again, every figure and sentence is the same. */
static void
test_recompute_from_file (void)
{
  static const TestStretch shape[] = { { 200, 6000 }, { 300, 2000 }, { 500, 800 } };
  g_autoptr(DuelTestRecord) record = test_seqw_make_record (shape, G_N_ELEMENTS (shape), 1000, 0.1, 4);
  g_autoptr(DuelSummary) summary = analyse (record);
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(DuelSummary) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "seqw.json", NULL);
  DuelTargetInfo target = { (char *) "/dev/nvme0n1", DUEL_TARGET_KIND_BLOCK, record->span_length, 512, 4096 };
  DuelAnalysisKind kind;
  DuelTestRecord *stored;
  g_auto(GStrv) before = sentences (summary);
  g_auto(GStrv) after = NULL;

  duel_result_set_target (result, &target);
  duel_result_set_name (result, "Hand-made drive");
  duel_result_add_test (result, record);
  g_assert_true (duel_result_save (result, path, &error));
  g_assert_no_error (error);
  loaded = duel_result_load (path, &error);
  g_assert_no_error (error);
  stored = duel_result_find_test (loaded, "seqw-fill");
  g_assert_nonnull (stored);
  g_assert_cmpint (duel_analysis_kind_of_record (stored), ==, DUEL_ANALYSIS_SEQUENTIAL_WRITE);

  again = duel_analysis_resummarize (stored, &kind, &error);
  g_assert_no_error (error);
  g_assert_cmpint (kind, ==, DUEL_ANALYSIS_SEQUENTIAL_WRITE);
  g_assert_cmpuint (duel_summary_get_n_figures (again), ==, duel_summary_get_n_figures (summary));
  g_assert_cmpuint (duel_summary_get_n_figures (again), ==, 9);
  for (guint i = 0; i < duel_summary_get_n_figures (again); i++)
    {
      const char *key = duel_summary_get_key (again, i);
      double value = duel_summary_get_value (again, i), kept;

      g_assert_true (duel_test_record_get_figure (stored, key, &kept));
      if (isnan (value))
        g_assert_true (isnan (kept));
      else
        g_assert_cmpfloat (value, ==, kept);
    }
  after = duel_sequential_write_dup_text (json_object_get_object_member (stored->summary, "details"));
  g_assert_true (g_strv_equal ((const char * const *) before, (const char * const *) after));
  g_unlink (path);
}

static const DuelComparisonRow *
find_row (DuelComparison *comparison,
          const char     *key)
{
  for (guint i = 0; i < duel_comparison_get_n_rows (comparison); i++)
    {
      const DuelComparisonRow *row = duel_comparison_get_row (comparison, i);

      if (row->kind == DUEL_COMPARISON_ROW_FIGURE && g_strcmp0 (row->key, key) == 0)
        return row;
    }
  g_error ("no row %s", key);
  return NULL;
}

/* Four drives side by side: the larger cache, the faster write after it,
 * the higher mean and the shorter time win, each drive's sentence is
 * among the test's notes. Drive C has the largest cache but the slowest
 * write after it; drive D has none at all (no fall). */
static void
test_comparison_winners (void)
{
  static const TestStretch shapes[4][2] = {
    { { 300, 6000 }, { 700, 1500 } },
    { { 100, 5000 }, { 900, 2200 } },
    { { 450, 7000 }, { 550, 600 } },
    { { 1000, 2500 }, { 0, 0 } },
  };
  static const char * const names[4] = { "Alpha", "Beta", "Gamma", "Delta" };
  DuelResult *results[4];
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(GError) error = NULL;
  const DuelComparisonRow *row;
  const char * const *notes;

  for (guint d = 0; d < 4; d++)
    {
      DuelTestRecord *record = test_seqw_make_record (shapes[d], d == 3 ? 1 : 2, 1000, 0.1, 10 + d);
      DuelTargetInfo target = { (char *) "/dev/nvme0n1", DUEL_TARGET_KIND_BLOCK, record->span_length, 512, 4096 };
      g_autoptr(DuelSummary) summary = analyse (record);

      results[d] = duel_result_new ();
      duel_result_set_target (results[d], &target);
      duel_result_set_name (results[d], names[d]);
      duel_result_add_test (results[d], record);
      duel_test_record_unref (record);
    }
  comparison = duel_comparison_new_for_results (results, 4, &error);
  g_assert_no_error (error);
  for (guint d = 0; d < 4; d++)
    g_object_unref (results[d]);

  row = find_row (comparison, "seqw_cache_gb");
  g_assert_cmpuint (row->winners, ==, 1u << 2);
  g_assert_true (isnan (row->value[3]));
  row = find_row (comparison, "seqw_after_cache_mbps");
  g_assert_cmpuint (row->winners, ==, 1u << 1);
  /* Delta held 2,500 MB/s throughout: the best mean and the shortest time. */
  row = find_row (comparison, "seqw_mean_mbps");
  g_assert_cmpuint (row->winners, ==, 1u << 3);
  row = find_row (comparison, "seqw_time_s");
  g_assert_cmpuint (row->winners, ==, 1u << 3);

  notes = duel_comparison_get_notes (comparison, "seqw-fill");
  g_assert_nonnull (notes);
  {
    g_autofree char *all = g_strjoinv ("\n", (char **) notes);

    g_test_message ("%s", all);
    g_assert_nonnull (strstr (all, "The cache ran out after 450"));
    g_assert_nonnull (strstr (all, "No fall: the write held 2,"));
  }
}

/* A small drive as the simulated SSD serves one here: 1 GiB, a cache of
 * 0.17 GB at 325 MB/s, 0.16 GB at 128 MB/s, then 80 MB/s, in rows of
 * 100 ms of a handful of 1 MiB writes each. Rows were once taken together
 * until they held 100 writes (a tenth of the drive), which hid every
 * fall: each is found, within its resolution and 2 % of the drive, the
 * speeds within 5 % and the one write a row counts more or less. */
static void
test_small_drive_few_writes_per_row (void)
{
  static const TestStretch shape[] = { { 0.17, 325 }, { 0.16, 128 }, { 0.744, 80 } };
  const double span_gb = 1.074;
  /* A row counts whole writes: one more or less is 10.5 MB/s in 100 ms. */
  const double one_write = TEST_SEQW_MIB / 0.1 / 1e6;

  for (guint32 seed = 1; seed <= 10; seed++)
    {
      g_autoptr(DuelTestRecord) record = test_seqw_make_record (shape, G_N_ELEMENTS (shape), 100, 0.1, seed);
      g_autoptr(DuelSummary) summary = analyse (record);
      JsonObject *write = json_object_get_object_member (duel_summary_get_details (summary), "sequential_write");
      JsonObject *fold = json_array_get_object_element (json_object_get_array_member (write, "falls"), 1);

      assert_knee (summary, "seqw_cache_gb", figure (summary, "seqw_cache_resolution_gb"), 0.17, span_gb);
      assert_near (figure (summary, "seqw_cache_mbps"), 325, 0.05 * 325 + one_write, "speed in the cache");
      assert_near (figure (summary, "seqw_after_cache_mbps"), 128, 0.05 * 128 + one_write, "speed after the cache");
      g_assert_nonnull (fold);
      assert_knee (summary, "seqw_fold_gb", json_object_get_double_member (fold, "resolution_bytes") / 1e9,
                   0.33, span_gb);
      assert_near (figure (summary, "seqw_fold_mbps"), 80, 0.05 * 80 + one_write, "speed while folding");
    }
}

/* Rows of 1 s on that drive: the cache is written within the first row.
 * Whatever the analysis finds, it never says the write held one speed
 * when most of its rows range over more than a fall. */
static void
test_coarse_rows_never_held (void)
{
  static const TestStretch shape[] = { { 0.32, 320 }, { 0.754, 80 } };

  for (guint32 seed = 1; seed <= 10; seed++)
    {
      g_autoptr(DuelTestRecord) record = test_seqw_make_record (shape, G_N_ELEMENTS (shape), 1000, 0.1, seed);
      g_autoptr(DuelSummary) summary = analyse (record);
      JsonObject *write = json_object_get_object_member (duel_summary_get_details (summary), "sequential_write");
      g_auto(GStrv) lines = sentences (summary);
      g_autofree char *all = g_strjoinv ("\n", lines);

      g_test_message ("%s", all);
      g_assert_null (strstr (all, "held"));
      g_assert_false (json_object_get_boolean_member (write, "held"));
      if (json_array_get_length (json_object_get_array_member (write, "falls")) == 0)
        g_assert_true (g_str_has_prefix (lines[0], "No fall was found, but the speed varied: 90 % of the "
                                                   "intervals between "));
    }
}

int
main (int    argc,
      char **argv)
{
  /* Numbers grouped as in English: "2,500". */
  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/sequential-write/cache-then-slower", test_cache_then_slower);
  g_test_add_func ("/duel/sequential-write/three-levels", test_three_levels);
  g_test_add_func ("/duel/sequential-write/flat-noise", test_flat_noise);
  g_test_add_func ("/duel/sequential-write/inside-interval", test_inside_interval);
  g_test_add_func ("/duel/sequential-write/small-drive-few-writes-per-row", test_small_drive_few_writes_per_row);
  g_test_add_func ("/duel/sequential-write/coarse-rows-never-held", test_coarse_rows_never_held);
  g_test_add_func ("/duel/sequential-write/recompute-from-file", test_recompute_from_file);
  g_test_add_func ("/duel/sequential-write/comparison-winners", test_comparison_winners);

  return g_test_run ();
}
