/* test-comparison.c — two results side by side: rows, winners, warnings, references
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "duel-chart-qos.h"
#include "duel-chart-export.h"
#include "analysis/duel-comparison.h"
#include "duel-json.h"
#include "duel-error.h"
#include "test-chart-helpers.h"
#include "test-locale.h"

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
  return NULL;
}

/* Whether the headline holds the row of @key. */
static gboolean
headline_has (DuelComparison *comparison,
              const char     *key)
{
  guint n = 0;
  const guint *headline = duel_comparison_get_headline (comparison, &n);

  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (duel_comparison_get_row (comparison, headline[i])->key, key) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
has_line_prefix (char      **lines,
                 const char *prefix)
{
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      return TRUE;
  return FALSE;
}

static char *
reference_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "reference", name, NULL);
}

static void
test_rows_and_winners (void)
{
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(GError) error = NULL;
  const DuelComparisonRow *row;
  const char * const *tests;
  double va, vb;

  test_make_pair (&a, &b);
  comparison = duel_comparison_new (a, b, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (duel_comparison_get_n_drives (comparison), ==, 2);
  g_assert_cmpstr (duel_comparison_get_drive_name (comparison, 0), ==, "Alpha SSD");

  /* Every test both hold, in A's order. */
  tests = duel_comparison_get_tests (comparison);
  g_assert_cmpuint (g_strv_length ((char **) tests), ==, duel_result_get_tests (a)->len);
  g_assert_cmpstr (tests[0], ==, DUEL_TEST_WSAT_FILL);

  /* Higher is better: A writes faster at the start. */
  row = find_row (comparison, DUEL_TEST_WSAT_FILL, "iops_at_0pct");
  g_assert_nonnull (row);
  g_assert_true (duel_test_record_get_figure (duel_result_find_test (a, DUEL_TEST_WSAT_FILL), "iops_at_0pct", &va));
  g_assert_true (duel_test_record_get_figure (duel_result_find_test (b, DUEL_TEST_WSAT_FILL), "iops_at_0pct", &vb));
  g_assert_cmpfloat (row->value[0], ==, va);
  g_assert_cmpfloat (row->value[1], ==, vb);
  g_assert_cmpfloat_with_epsilon (row->difference_pct, (vb - va) / va * 100, 1e-9);
  g_assert_cmpint (row->winner, ==, DUEL_WINNER_A);
  g_assert_cmpint (row->better, ==, DUEL_BETTER_HIGHER);
  g_assert_cmpstr (row->unit, ==, "IOPS");

  /* A figure that is a percentage gets no relative difference: the cliff
   * at 35 % against 70 % is not "-50 %". */
  row = find_row (comparison, DUEL_TEST_WSAT_FILL, "cliff_pct");
  g_assert_nonnull (row);
  g_assert_cmpstr (row->unit, ==, "%");
  g_assert_true (row->has_value[0] && row->has_value[1]);
  g_assert_true (isnan (row->difference_pct));

  /* Lower is better: A's latencies are shorter, so A wins with the smaller value. */
  row = find_row (comparison, "qos-read-qd32", "qos_read_qd32_p99_us");
  g_assert_nonnull (row);
  g_assert_cmpint (row->better, ==, DUEL_BETTER_LOWER);
  g_assert_cmpfloat (row->value[0], <, row->value[1]);
  g_assert_cmpint (row->winner, ==, DUEL_WINNER_A);

  /* No better direction, no winner. */
  row = find_row (comparison, DUEL_TEST_WSAT_FILL, "written_gb");
  g_assert_nonnull (row);
  g_assert_cmpint (row->winner, ==, DUEL_WINNER_NONE);

  /* Identity from the device objects. */
  row = find_row (comparison, NULL, "model");
  g_assert_nonnull (row);
  g_assert_cmpint (row->kind, ==, DUEL_COMPARISON_ROW_IDENTITY);
  g_assert_cmpstr (row->text[1], ==, "Beta SSD");
  row = find_row (comparison, NULL, "interface");
  g_assert_cmpstr (row->text[0], ==, "NVMe, PCIe 3.0 x4");
  row = find_row (comparison, NULL, "ceiling");
  g_assert_cmpstr (row->text[0], ==, "3,938 MB/s");

  /* A carries ratings: its standard rows show them, rated against measured. */
  g_assert_true (duel_comparison_has_rated (comparison));
  row = find_row (comparison, "std-seq-read", "seq_read_mbps");
  g_assert_true (row->has_rated[0]);
  g_assert_false (row->has_rated[1]);
  g_assert_cmpfloat (row->rated[0], ==, 2000);
  row = find_row (comparison, "std-rand-read-qd32", "rand_read_qd32_iops");
  g_assert_true (row->has_rated[0]);
  row = find_row (comparison, "std-rand-read-qd1", "rand_read_qd1_iops");
  g_assert_false (row->has_rated[0]);   /* vendors rate the deepest queue */
  /* A "Rated" column for A alone, in every table: B's would stay empty. */
  {
    guint rated[DUEL_COMPARISON_MAX_DRIVES];
    g_autofree char *md = duel_chart_export_markdown (comparison);
    g_autofree char *rated_a = g_strdup_printf ("Rated (%s)", duel_comparison_get_drive_name (comparison, 0));
    g_autofree char *rated_b = g_strdup_printf ("Rated (%s)", duel_comparison_get_drive_name (comparison, 1));

    g_assert_cmpuint (duel_comparison_get_rated_drives (comparison, rated), ==, 1);
    g_assert_cmpuint (rated[0], ==, 0);
    g_assert_nonnull (strstr (md, rated_a));
    g_assert_null (strstr (md, rated_b));
  }

  /* The runs were set up alike. */
  g_assert_null (duel_comparison_get_warnings (comparison)[0]);
}

static void
test_decide (void)
{
  g_assert_cmpint (duel_comparison_decide (2, 1, DUEL_BETTER_HIGHER), ==, DUEL_WINNER_A);
  g_assert_cmpint (duel_comparison_decide (2, 1, DUEL_BETTER_LOWER), ==, DUEL_WINNER_B);
  g_assert_cmpint (duel_comparison_decide (5, 5, DUEL_BETTER_LOWER), ==, DUEL_WINNER_TIE);
  g_assert_cmpint (duel_comparison_decide (5, NAN, DUEL_BETTER_LOWER), ==, DUEL_WINNER_NONE);
  g_assert_cmpint (duel_comparison_decide (5, 6, DUEL_BETTER_NONE), ==, DUEL_WINNER_NONE);
}

static void
test_fairness_warnings (void)
{
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;
  g_autoptr(DuelComparison) comparison = NULL;
  TestDrive da, db;
  DuelTestRecord *fill;

  test_drive_init (&da, "Alpha SSD", 1.0, 1);
  test_drive_init (&db, "Beta SSD", 0.8, 2);
  db.fill_block_size = 8192;
  db.fill_queue_depth = 16;
  db.fill_trimmed = FALSE;
  a = test_make_result (&da);
  b = test_make_result (&db);

  /* B's fill covered half its target and went to 3x. */
  fill = duel_result_find_test (b, DUEL_TEST_WSAT_FILL);
  fill->span_length /= 2;
  fill->workload.size_multiple = 3;
  /* and its consistency run lasted longer, with two jobs */
  duel_result_find_test (b, DUEL_TEST_CONSISTENCY)->workload.runtime_ms = 600000;
  duel_result_find_test (b, DUEL_TEST_CONSISTENCY)->workload.numjobs = 2;
  /* and its consistency run read 70 % */
  duel_result_find_test (b, DUEL_TEST_CONSISTENCY)->workload.read_percent = 70;

  comparison = duel_comparison_new (a, b, NULL);
  /* Sizes and accesses in the figures' words, never bytes or fio's names. */
  g_assert_true (test_has_warning (comparison, "block sizes differ (4 KiB on Alpha SSD, 8 KiB on Beta SSD)"));
  g_assert_true (test_has_warning (comparison, "access patterns differ (random 50/50 read/write on Alpha SSD, "
                                               "random 70/30 read/write on Beta SSD)"));
  g_assert_false (test_has_warning (comparison, "randrw"));
  g_assert_true (test_has_warning (comparison, "queue depths differ"));
  g_assert_true (test_has_warning (comparison, "trimmed"));
  g_assert_true (test_has_warning (comparison, "span covers 100 % of Alpha SSD but 50 % of Beta SSD"));
  g_assert_true (test_has_warning (comparison, "3×"));
  g_assert_true (test_has_warning (comparison, "run lengths differ"));
  g_assert_true (test_has_warning (comparison, "numbers of jobs differ (1 on Alpha SSD, 2 on Beta SSD)"));
  /* Each warning names its test as people know it, never by its record name. */
  for (guint i = 0; duel_comparison_get_warnings (comparison)[i]; i++)
    {
      const char *w = duel_comparison_get_warnings (comparison)[i];
      g_assert_true (g_str_has_prefix (w, "Write saturation: ") || g_str_has_prefix (w, "Performance consistency: "));
      g_assert_null (strstr (w, DUEL_TEST_WSAT_FILL));
    }
}

/* What matters most is compared too: the span's size where its share of
 * each target is the same, a fill stopped early against one that reached
 * what both asked, the interval, and a file against a block device. */
static void
test_fairness_span_and_reach (void)
{
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(DuelComparison) alike = NULL;
  DuelTargetInfo file = { (char *) "/srv/b.img", DUEL_TARGET_KIND_FILE, 0, 512, 4096 };
  DuelTestRecord *fill;
  g_autofree char *reached = NULL;

  test_make_pair (&a, &b);
  alike = duel_comparison_new (a, b, NULL);
  g_assert_null (duel_comparison_get_warnings (alike)[0]);

  /* B: a file target of a quarter the size, its whole span a quarter too
   * (100 % of each target). */
  file.size_bytes = duel_result_get_target (a)->size_bytes / 4;
  duel_result_set_target (b, &file);
  for (guint i = 0; i < duel_result_get_tests (b)->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (duel_result_get_tests (b), i);

      if (record->span_length > 0)
        record->span_length = file.size_bytes;
    }
  /* Its fill stopped at 146.8 % of the 200 % it asked for. */
  fill = duel_result_find_test (b, DUEL_TEST_WSAT_FILL);
  fill->byte_limit = 2 * fill->span_length;
  {
    g_autoptr(GString) cut_text = NULL;
    DuelSeries *cut = duel_series_new ();
    guint64 written = 0;

    for (guint r = 0; r < duel_series_get_length (fill->series) && written < 1.468 * fill->span_length; r++)
      {
        duel_series_append (cut, duel_series_get_row (fill->series, r));
        written += duel_series_get_row (fill->series, r)->bytes[DUEL_DIRECTION_WRITE];
      }
    reached = g_strdup_printf ("the run on Beta SSD %.0f %%.", 100.0 * written / fill->span_length);
    duel_series_free (fill->series);
    fill->series = cut;
  }
  fill->status = DUEL_TEST_STATUS_CANCELLED;
  /* Its consistency run, at 100 ms. */
  duel_result_find_test (b, DUEL_TEST_CONSISTENCY)->workload.interval_ms = 100;

  comparison = duel_comparison_new (a, b, NULL);
  for (guint i = 0; duel_comparison_get_warnings (comparison)[i]; i++)
    g_test_message ("%s", duel_comparison_get_warnings (comparison)[i]);
  {
    g_autofree char *big = duel_format_size (duel_result_get_target (a)->size_bytes);
    g_autofree char *small = duel_format_size (file.size_bytes);
    g_autofree char *expected = g_strdup_printf ("Write saturation: the spans differ (%s on Alpha SSD, %s on Beta SSD).",
                                                 big, small);

    g_assert_true (test_has_warning (comparison, expected));
  }
  /* Not as a share: both cover their whole target. */
  g_assert_false (test_has_warning (comparison, "span covers"));
  g_assert_true (test_has_warning (comparison, "Write saturation: the run on Alpha SSD reached 200 % of its span, the run on Beta SSD"));
  g_assert_true (test_has_warning (comparison, reached));
  g_assert_true (test_has_warning (comparison, "Performance consistency: the intervals differ (1000 ms on Alpha SSD, 100 ms on Beta SSD)."));
  g_assert_true (test_has_warning (comparison, "Beta SSD was measured through a file and Alpha SSD as a block device"));
  /* The capacity beside a file's run is the drive's that holds it, said so. */
  {
    const DuelComparisonRow *row = find_row (comparison, NULL, "capacity");

    g_assert_null (strstr (row->text[0], "holding"));
    g_assert_true (g_str_has_suffix (row->text[1], " (the drive holding the file)"));
  }

  /* Two whole drives of different sizes: the review's method, no warning
   * about the spans. */
  {
    g_autoptr(DuelComparison) drives = NULL;

    file.path = (char *) "/dev/sdb";
    file.kind = DUEL_TARGET_KIND_BLOCK;
    duel_result_set_target (b, &file);
    drives = duel_comparison_new (a, b, NULL);
    g_assert_false (test_has_warning (drives, "spans differ"));
    g_assert_false (test_has_warning (drives, "as a block device"));
  }
}

/* Sets what every test of @result's latencies measure. */
static void
set_latency_kind (DuelResult      *result,
                  DuelLatencyKind  kind)
{
  GPtrArray *tests = duel_result_get_tests (result);

  for (guint i = 0; i < tests->len; i++)
    ((DuelTestRecord *) g_ptr_array_index (tests, i))->latency_kind = kind;
}

static void
assert_qos_subtitle (DuelComparison *comparison,
                     const char     *latency)
{
  g_autoptr(DuelChart) chart = duel_chart_qos_new (comparison);
  g_autofree char *subtitle = duel_chart_get_subtitle (chart);

  g_test_message ("%s", subtitle);
  g_assert_true (g_str_has_suffix (subtitle, latency));
}

/* fio's completion latency (clat, a plain json+ import) set against a
 * total latency is warned about, once as a cause; two completion
 * latencies compare without a warning, their rows saying what they are. */
static void
test_latency_kinds (void)
{
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;
  g_autoptr(DuelComparison) mixed = NULL;
  g_autoptr(DuelComparison) both = NULL;
  g_autoptr(DuelComparison) same = NULL;
  g_auto(GStrv) lines = NULL;
  const DuelComparisonRow *row;

  test_locale_reset ();
  test_make_pair (&a, &b);
  same = duel_comparison_new (a, b, NULL);
  g_assert_false (test_has_warning (same, "latency measured differently"));
  /* The QoS chart's subtitle says what its curves hold, as their legend
   * does: not "from submission to completion" over fio's clat (read now:
   * the records are changed below). */
  assert_qos_subtitle (same, "latency from submission to completion");
  row = find_row (same, "qos-read-qd1", "qos_read_qd1_p99_us");
  g_assert_nonnull (row);
  g_assert_null (strstr (row->label, "completion"));

  set_latency_kind (b, DUEL_LATENCY_COMPLETION);
  mixed = duel_comparison_new (a, b, NULL);
  assert_qos_subtitle (mixed, "latency from submission to completion, or completion latency where a curve says so");
  g_assert_true (test_has_warning (mixed, "Quality of service: 4K random read QD1: latency measured differently: "
                                     "completion latency (fio clat) on Beta SSD, total on Alpha SSD."));
  /* One cause, one line, whichever tests it concerns. */
  lines = duel_comparison_dup_warning_lines (mixed);
  g_assert_true (has_line_prefix (lines, "The latencies are measured differently"));
  row = find_row (mixed, "qos-read-qd1", "qos_read_qd1_p99_us");
  g_assert_null (strstr (row->label, "completion"));

  set_latency_kind (a, DUEL_LATENCY_COMPLETION);
  both = duel_comparison_new (a, b, NULL);
  g_assert_false (test_has_warning (both, "latency measured differently"));
  assert_qos_subtitle (both, "completion latency (fio’s clat, the submission left out)");
  row = find_row (both, "qos-read-qd1", "qos_read_qd1_p99_us");
  g_assert_nonnull (strstr (row->label, "(completion latency)"));
  /* Not a latency: as it was. */
  row = find_row (both, DUEL_TEST_CONSISTENCY, "consistency_mean_iops");
  g_assert_null (strstr (row->label, "completion"));
}

/* Grouped warning lines, on configurations no one chose: for fixed seeds, a
 * random subset of B's timed tests runs longer and another random subset
 * uses 8 KiB blocks. The truth is the generator's: one line per cause that
 * met two tests or more, naming their number; a cause met once keeps its
 * sentence; no sentence is lost from the full list. */
static void
test_warning_lines (void)
{
  static const char * const timed[] = {
    "qos-read-qd1", "qos-write-qd1", "qos-read-qd32", "qos-write-qd32", "qos-mix-qd32",
    "std-rand-read-qd1", "std-rand-write-qd1", "std-rand-read-qd32", "std-rand-write-qd32",
  };

  for (guint seed = 1; seed <= 40; seed++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
      g_autoptr(DuelResult) a = NULL;
      g_autoptr(DuelResult) b = NULL;
      g_autoptr(DuelComparison) comparison = NULL;
      g_auto(GStrv) lines = NULL;
      TestDrive da, db;
      guint n_longer = 0, n_blocks = 0, n_expected = 0;
      const char * const *warnings;

      test_drive_init (&da, "Alpha SSD", 1.0, 1);
      test_drive_init (&db, "Beta SSD", 0.8, 2);
      a = test_make_result (&da);
      b = test_make_result (&db);
      for (guint i = 0; i < G_N_ELEMENTS (timed); i++)
        {
          DuelTestRecord *record = duel_result_find_test (b, timed[i]);

          g_assert_nonnull (record);
          if (g_rand_boolean (rand))
            {
              record->workload.runtime_ms += 1000 * g_rand_int_range (rand, 1, 60);
              n_longer++;
            }
          if (g_rand_int_range (rand, 0, 4) == 0)
            {
              record->workload.block_size = 8192;
              n_blocks++;
            }
        }

      comparison = duel_comparison_new (a, b, NULL);
      warnings = duel_comparison_get_warnings (comparison);
      lines = duel_comparison_dup_warning_lines (comparison);
      g_assert_cmpuint (g_strv_length ((char **) warnings), ==, n_longer + n_blocks);

      if (n_longer >= 2)
        {
          g_autofree char *want = g_strdup_printf ("The run lengths differ on %u tests: ", n_longer);

          g_assert_true (has_line_prefix (lines, want));
          n_expected++;
        }
      else
        n_expected += n_longer;
      if (n_blocks >= 2)
        {
          g_autofree char *want = g_strdup_printf ("The block sizes differ on %u tests: ", n_blocks);

          g_assert_true (has_line_prefix (lines, want));
          n_expected++;
        }
      else
        n_expected += n_blocks;
      g_assert_cmpuint (g_strv_length (lines), ==, n_expected);
      /* A warning alone of its cause is a line as it is. */
      for (guint i = 0; warnings[i] != NULL; i++)
        if ((n_longer == 1 && strstr (warnings[i], "run lengths differ") != NULL) ||
            (n_blocks == 1 && strstr (warnings[i], "block sizes differ") != NULL))
          g_assert_true (g_strv_contains ((const char * const *) lines, warnings[i]));
      /* A line names at most three tests, then how many more. */
      for (guint i = 0; lines[i] != NULL; i++)
        if (strstr (lines[i], " tests: ") != NULL)
          {
            guint n = 0, listed;
            const char *more = strstr (lines[i], " and ");

            g_assert_cmpint (sscanf (strstr (lines[i], " on ") + 4, "%u", &n), ==, 1);
            listed = more != NULL ? 3 : n;
            if (more != NULL)
              g_assert_nonnull (strstr (lines[i], " more."));
            g_assert_cmpuint (listed, <=, 3);
            g_assert_cmpuint (n, >, 1);
          }
    }
}

/* Four drives: every drive's value on each row, the best marked (several
 * when they tie), no B-vs-A difference, a title naming all of them, the
 * fairness warnings for each against the first, and a test one drive
 * skipped still compared among the others. */
static void
test_four_drives (void)
{
  TestDrive drives[4];
  DuelResult *results[4];
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;
  g_autofree char *heading = NULL;
  const DuelComparisonRow *row;
  static const double speeds[4] = { 1.0, 0.6, 1.4, 0.8 };
  static const char * const names[4] = { "Alpha SSD", "Beta SSD", "Alpha SSD", "Delta SSD" };

  for (guint d = 0; d < 4; d++)
    {
      test_drive_init (&drives[d], names[d], speeds[d], 10 + d);
      drives[d].cliff_pct = 40 + 10 * d;
    }
  drives[3].fill_queue_depth = 16;
  for (guint d = 0; d < 4; d++)
    results[d] = test_make_result (&drives[d]);
  /* Beta did not run the consistency test. */
  {
    GPtrArray *tests = duel_result_get_tests (results[1]);

    for (guint i = 0; i < tests->len; i++)
      if (g_strcmp0 (((DuelTestRecord *) g_ptr_array_index (tests, i))->name, DUEL_TEST_CONSISTENCY) == 0)
        g_ptr_array_remove_index (tests, i);
  }

  comparison = duel_comparison_new_for_results (results, 4, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (duel_comparison_get_n_drives (comparison), ==, 4);
  g_assert_cmpstr (duel_comparison_get_drive_name (comparison, 2), ==, "Alpha SSD (2)");
  title = duel_comparison_dup_title (comparison);
  g_assert_cmpstr (title, ==, "Alpha SSD vs Beta SSD vs Alpha SSD (2) vs Delta SSD");
  heading = duel_comparison_dup_difference_heading (comparison);
  g_assert_cmpstr (heading, ==, "");

  /* The fastest drive holds the best mean write IOPS; only it is marked. */
  row = find_row (comparison, DUEL_TEST_WSAT_FILL, "write_iops_mean");
  g_assert_nonnull (row);
  for (guint d = 0; d < 4; d++)
    {
      g_assert_true (row->has_value[d]);
      g_assert_cmpint (duel_comparison_row_is_best (row, d), ==, d == 2);
    }
  g_assert_true (isnan (row->difference_pct));
  g_assert_cmpint (row->winner, ==, DUEL_WINNER_NONE);
  /* A lower-is-better figure: the fastest drive's latency wins. */
  row = find_row (comparison, "qos-read-qd1", "qos_read_qd1_p99_us");
  g_assert_nonnull (row);
  g_assert_true (duel_comparison_row_is_best (row, 2));
  g_assert_cmpuint (row->winners, ==, 1u << 2);

  /* Consistency, skipped by Beta: compared among the three that ran it. */
  row = find_row (comparison, DUEL_TEST_CONSISTENCY, "consistency_mean_iops");
  g_assert_nonnull (row);
  g_assert_false (row->has_value[1]);
  g_assert_cmpstr (row->text[1], ==, "–");
  g_assert_true (row->has_value[0] && row->has_value[2] && row->has_value[3]);
  g_assert_true (test_has_warning (comparison, "Performance consistency was not run on Beta SSD"));
  /* Delta's fill at QD16, against the first drive's. */
  g_assert_true (test_has_warning (comparison, "queue depths differ (32 on Alpha SSD, 16 on Delta SSD)"));

  /* Ties: two drives with the same value share the mark. */
  {
    DuelResult *pair[3] = { results[0], results[0], results[1] };
    g_autoptr(DuelComparison) tied = duel_comparison_new_for_results (pair, 3, NULL);

    row = find_row (tied, DUEL_TEST_WSAT_FILL, "write_iops_mean");
    g_assert_nonnull (row);
    g_assert_cmpuint (row->winners, ==, 0x3);
  }

  for (guint d = 0; d < 4; d++)
    g_object_unref (results[d]);
}

static void
test_single_drive (void)
{
  TestDrive d;
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelComparison) comparison = NULL;
  guint figures = 0;

  test_drive_init (&d, "Alpha SSD", 1.0, 3);
  a = test_make_result (&d);
  comparison = duel_comparison_new (a, NULL, NULL);
  g_assert_cmpuint (duel_comparison_get_n_drives (comparison), ==, 1);
  for (guint i = 0; i < duel_comparison_get_n_rows (comparison); i++)
    {
      const DuelComparisonRow *row = duel_comparison_get_row (comparison, i);

      figures += row->kind == DUEL_COMPARISON_ROW_FIGURE;
      g_assert_cmpint (row->winner, ==, DUEL_WINNER_NONE);
      g_assert_true (isnan (row->difference_pct));
    }
  g_assert_cmpuint (figures, >, 50);
  g_assert_nonnull (duel_comparison_find_test (comparison, 0, DUEL_ANALYSIS_QOS));
}

static void
test_references (void)
{
  g_autofree char *ssd750 = reference_path ("intel-ssd-750-400gb.json");
  g_autofree char *m8peg = reference_path ("plextor-m8peg-512gb.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelComparison) comparison = duel_comparison_new_for_paths (ssd750, m8peg, &error);
  const DuelComparisonRow *row;

  g_assert_no_error (error);
  g_assert_true (duel_comparison_is_published (comparison, 0));
  g_assert_true (duel_comparison_is_published (comparison, 1));

  /* The article's numbers, as printed. */
  row = find_row (comparison, DUEL_TEST_WSAT_FILL, "iops_at_0pct");
  g_assert_cmpfloat (row->value[0], ==, 112540);
  g_assert_cmpfloat (row->value[1], ==, 33578);
  g_assert_cmpint (row->winner, ==, DUEL_WINNER_A);
  g_assert_cmpfloat_with_epsilon (row->difference_pct, -70.163, 1e-3);
  row = find_row (comparison, DUEL_TEST_WSAT_FILL, "iops_at_50pct");
  g_assert_cmpfloat (row->value[0], ==, 83061);
  g_assert_cmpfloat (row->value[1], ==, 47061);
  row = find_row (comparison, DUEL_TEST_WSAT_FILL, "iops_at_end");
  g_assert_cmpfloat (row->value[0], ==, 15885);
  g_assert_cmpfloat (row->value[1], ==, 9087);
  /* The script's scores, as scores: the review does not say how they are
   * computed, so they are not a mean over the run or a read score. Two of
   * them, from the same script, compare with each other. */
  row = find_row (comparison, DUEL_TEST_WSAT_FILL, "review_write_score_iops");
  g_assert_cmpfloat (row->value[0], ==, 29752);
  g_assert_cmpfloat (row->value[1], ==, 18363);
  g_assert_cmpint (row->winner, ==, DUEL_WINNER_A);
  g_assert_cmpstr (row->label, ==, "The review’s 4K write score (method not stated)");
  row = find_row (comparison, DUEL_TEST_WSAT_READ, "review_read_score_iops");
  g_assert_cmpfloat (row->value[0], ==, 253262);
  g_assert_cmpfloat (row->value[1], ==, 262899);
  g_assert_cmpint (row->winner, ==, DUEL_WINNER_B);
  g_assert_null (find_row (comparison, DUEL_TEST_WSAT_FILL, "write_iops_mean"));
  g_assert_null (find_row (comparison, DUEL_TEST_WSAT_READ, "read_score_iops"));
  g_assert_true (headline_has (comparison, "review_write_score_iops"));
  g_assert_true (headline_has (comparison, "review_read_score_iops"));
  row = find_row (comparison, DUEL_TEST_CONSISTENCY, "consistency_slowest_iops");
  g_assert_cmpfloat (row->value[0], ==, 12263);
  g_assert_cmpfloat (row->value[1], ==, 16164);
  /* The article prints no 100 % point: none is invented. */
  g_assert_null (find_row (comparison, DUEL_TEST_WSAT_FILL, "iops_at_100pct"));

  /* Vendor ratings, rated against (nothing) measured. */
  g_assert_true (duel_comparison_has_rated (comparison));
  row = find_row (comparison, DUEL_COMPARISON_RATED_SECTION, "seq_read_mb_s");
  g_assert_cmpfloat (row->rated[0], ==, 2200);
  g_assert_cmpfloat (row->rated[1], ==, 2300);
  g_assert_false (row->has_value[0]);
  row = find_row (comparison, DUEL_COMPARISON_RATED_SECTION, "rand_write_iops");
  g_assert_cmpfloat (row->rated[0], ==, 230000);
  g_assert_cmpfloat (row->rated[1], ==, 250000);

  /* Identity: form factor and link as the article describes them. */
  row = find_row (comparison, NULL, "form_factor");
  g_assert_cmpstr (row->text[0], ==, "add-in card (AIC)");
  g_assert_nonnull (strstr (row->text[1], "M.2"));
  row = find_row (comparison, NULL, "interface");
  g_assert_cmpstr (row->text[1], ==, "NVMe, PCIe 3.0 x4");
  row = find_row (comparison, NULL, "capacity");
  g_assert_cmpstr (row->text[0], ==, "400 GB");
  g_assert_cmpstr (row->text[1], ==, "512 GB");
}

/* A measured run (A) beside the SSD 750's reference (B): the review's
 * scores and the run's mean over the run and read score are in rows of
 * their own, each with one value, so no winner and no difference between
 * a score and a measurement; the headline holds all four. */
static void
check_scores_apart (DuelComparison *comparison)
{
  static const struct { const char *test; const char *key; guint holder; double value; } rows[] = {
    { DUEL_TEST_WSAT_FILL, "write_iops_mean",         0, NAN },
    { DUEL_TEST_WSAT_FILL, "review_write_score_iops", 1, 29752 },
    { DUEL_TEST_WSAT_READ, "read_score_iops",         0, NAN },
    { DUEL_TEST_WSAT_READ, "review_read_score_iops",  1, 253262 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      const DuelComparisonRow *row = find_row (comparison, rows[i].test, rows[i].key);

      g_assert_nonnull (row);
      g_assert_true (row->has_value[rows[i].holder]);
      g_assert_false (row->has_value[1 - rows[i].holder]);
      g_assert_cmpstr (row->text[1 - rows[i].holder], ==, "–");
      if (!isnan (rows[i].value))
        g_assert_cmpfloat (row->value[rows[i].holder], ==, rows[i].value);
      g_assert_cmpint (row->winner, ==, DUEL_WINNER_NONE);
      g_assert_cmpuint (row->winners, ==, 0);
      g_assert_true (isnan (row->difference_pct));
      g_assert_true (headline_has (comparison, rows[i].key));
    }
}

/* A measured run beside a reference: the reference's ratings meet the run's
 * standard set, and tests the reference lacks are named in warnings. */
static void
test_measured_against_reference (void)
{
  g_autofree char *ssd750 = reference_path ("intel-ssd-750-400gb.json");
  g_autoptr(DuelResult) reference = duel_result_load (ssd750, NULL);
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelComparison) comparison = NULL;
  const DuelComparisonRow *row;
  TestDrive d;

  test_drive_init (&d, "Alpha SSD", 1.0, 4);
  a = test_make_result (&d);
  comparison = duel_comparison_new (a, reference, NULL);

  row = find_row (comparison, DUEL_COMPARISON_RATED_SECTION, "seq_read_mb_s");
  g_assert_nonnull (row);
  g_assert_true (row->has_value[0]);      /* A's measured sequential read */
  g_assert_false (row->has_rated[0]);
  g_assert_true (row->has_rated[1]);      /* the SSD 750's rating */
  g_assert_cmpfloat (row->rated[1], ==, 2200);
  /* One sentence names every test only the run has. */
  g_assert_true (test_has_warning (comparison, "Standard set: 128K sequential read QD32, Standard set: 4K random read QD1"));
  g_assert_true (test_has_warning (comparison, "were run on Alpha SSD only"));
  g_assert_cmpuint (g_strv_length ((char **) duel_comparison_get_warnings (comparison)), ==, 1);

  /* A figure only the measured run has is left out beside a reference. */
  g_assert_null (find_row (comparison, DUEL_TEST_WSAT_FILL, "ss_rounds"));
  g_assert_null (find_row (comparison, DUEL_TEST_WSAT_READ, "read_score_mbps"));
  g_assert_nonnull (find_row (comparison, DUEL_TEST_WSAT_FILL, "iops_at_50pct"));

  check_scores_apart (comparison);
}

/* A reference file from before the review's scores had keys of their own
 * (they were write_iops_mean and read_score_iops) loads with them as the
 * scores they are, and compares as the current file does. */
static void
test_old_reference_file (void)
{
  g_autofree char *ssd750 = reference_path ("intel-ssd-750-400gb.json");
  g_autofree char *text = NULL;
  g_autofree char *old_text = NULL;
  g_autoptr(DuelResult) reference = NULL;
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(GError) error = NULL;
  DuelTestRecord *fill, *read;
  double value;
  TestDrive d;

  g_assert_true (g_file_get_contents (ssd750, &text, NULL, &error));
  g_assert_no_error (error);
  {
    g_auto(GStrv) parts = g_strsplit (text, "\"review_write_score_iops\"", -1);
    g_autofree char *joined = g_strjoinv ("\"write_iops_mean\"", parts);
    g_auto(GStrv) parts2 = g_strsplit (joined, "\"review_read_score_iops\"", -1);

    g_assert_cmpuint (g_strv_length (parts), ==, 2);
    g_assert_cmpuint (g_strv_length (parts2), ==, 2);
    old_text = g_strjoinv ("\"read_score_iops\"", parts2);
  }
  reference = duel_result_load_from_data (old_text, strlen (old_text), "old.json", &error);
  g_assert_no_error (error);
  fill = duel_result_find_test (reference, DUEL_TEST_WSAT_FILL);
  read = duel_result_find_test (reference, DUEL_TEST_WSAT_READ);
  g_assert_false (duel_test_record_get_figure (fill, "write_iops_mean", &value));
  g_assert_true (duel_test_record_get_figure (fill, "review_write_score_iops", &value));
  g_assert_cmpfloat (value, ==, 29752);
  g_assert_false (duel_test_record_get_figure (read, "read_score_iops", &value));
  g_assert_true (duel_test_record_get_figure (read, "review_read_score_iops", &value));
  g_assert_cmpfloat (value, ==, 253262);

  test_drive_init (&d, "Alpha SSD", 1.0, 4);
  a = test_make_result (&d);
  comparison = duel_comparison_new (a, reference, NULL);
  check_scores_apart (comparison);

  /* Only a published result's keys are read so: the same file, not
   * published, keeps them. */
  {
    /* The first is the top level's; the others are in the tests' details. */
    g_auto(GStrv) parts = g_strsplit (old_text, "\"published\": true", 2);
    g_autofree char *measured_text = g_strjoinv ("\"published\": false", parts);
    g_autoptr(DuelResult) measured = NULL;

    g_assert_cmpuint (g_strv_length (parts), ==, 2);
    measured = duel_result_load_from_data (measured_text, strlen (measured_text), "measured.json", &error);
    g_assert_no_error (error);
    fill = duel_result_find_test (measured, DUEL_TEST_WSAT_FILL);
    g_assert_true (duel_test_record_get_figure (fill, "write_iops_mean", &value));
    g_assert_cmpfloat (value, ==, 29752);
    g_assert_false (duel_test_record_get_figure (fill, "review_write_score_iops", &value));
  }
}

/* Ends @result's consistency run with a last interval of @last_ms, as when
 * the run stops inside it, and analyses it again. */
static void
cut_consistency_short (DuelResult *result,
                       guint       last_ms)
{
  DuelTestRecord *record = duel_result_find_test (result, DUEL_TEST_CONSISTENCY);
  guint n = duel_series_get_length (record->series);
  DuelSeriesRow row = *duel_series_get_row (record->series, n - 1);

  row.t_ms += last_ms;
  duel_series_append (record->series, &row);
  record->runtime_ns = row.t_ms * G_GUINT64_CONSTANT (1000000);
  test_analyse (record);
}

/* A consistency run whose last interval was cut short gets a note under its
 * rows, naming the drive and both lengths; the other drive and the other
 * tests get none. */
static void
test_partial_interval_notes (void)
{
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(DuelComparison) alone = NULL;
  const char * const *notes;
  const DuelComparisonRow *row;

  test_locale_reset ();
  test_make_pair (&a, &b);
  cut_consistency_short (b, 400);
  comparison = duel_comparison_new (a, b, NULL);

  notes = duel_comparison_get_notes (comparison, DUEL_TEST_CONSISTENCY);
  g_assert_cmpuint (g_strv_length ((char **) notes), ==, 1);
  g_assert_cmpstr (notes[0], ==, "Beta SSD: The last interval (0.4 s) was shorter than 1 s "
                                 "and is not counted in the consistency figures.");
  /* The figures beside it leave that interval out. */
  row = find_row (comparison, DUEL_TEST_CONSISTENCY, "consistency_intervals");
  g_assert_cmpfloat (row->value[0], ==, 1200);
  g_assert_cmpfloat (row->value[1], ==, 1200);
  /* The fill's notes are its falls, a sentence each, under each drive's name. */
  {
    const char * const *fill = duel_comparison_get_notes (comparison, DUEL_TEST_WSAT_FILL);
    DuelResult *drives[] = { a, b };
    const char *names[] = { "Alpha SSD", "Beta SSD" };
    guint k = 0;

    for (guint d = 0; d < 2; d++)
      {
        DuelTestRecord *record = duel_result_find_test (drives[d], DUEL_TEST_WSAT_FILL);
        g_auto(GStrv) falls = duel_saturation_dup_falls_text (duel_json_get_object (record->summary, "details"));

        for (guint i = 0; falls[i] != NULL; i++, k++)
          {
            g_autofree char *want = g_strdup_printf ("%s: %s", names[d], falls[i]);

            g_assert_nonnull (fill[k]);
            g_assert_cmpstr (fill[k], ==, want);
          }
      }
    g_assert_null (fill[k]);
    g_assert_cmpuint (k, >, 0);
  }
  g_assert_cmpuint (g_strv_length ((char **) duel_comparison_get_notes (comparison, "qos-mix-qd32")), ==, 0);
  g_assert_cmpuint (g_strv_length ((char **) duel_comparison_get_notes (comparison, "no-such-test")), ==, 0);
  g_assert_cmpuint (g_strv_length ((char **) duel_comparison_get_notes (comparison, NULL)), ==, 0);

  /* One drive alone: the sentence without a name. */
  alone = duel_comparison_new (b, NULL, NULL);
  notes = duel_comparison_get_notes (alone, DUEL_TEST_CONSISTENCY);
  g_assert_cmpuint (g_strv_length ((char **) notes), ==, 1);
  g_assert_true (g_str_has_prefix (notes[0], "The last interval (0.4 s)"));
}

/* The tests a drive did not run make one grouped line naming that drive
 * and how many (they were a line each: 22 for two reviews' references);
 * each warning is still there on its own. */
static void
test_missing_grouped (void)
{
  TestDrive drives[3];
  DuelResult *results[3];
  g_autoptr(DuelComparison) comparison = NULL;
  g_auto(GStrv) lines = NULL;
  static const char * const names[3] = { "Alpha SSD", "Beta SSD", "Gamma SSD" };
  GPtrArray *tests;
  guint n_missing = 0, n_lines = 0;
  g_autofree char *start = NULL;

  for (guint d = 0; d < 3; d++)
    {
      test_drive_init (&drives[d], names[d], 1.0 - 0.2 * d, 30 + d);
      results[d] = test_make_result (&drives[d]);
    }
  /* B keeps its first test only; A and C ran them all. */
  tests = duel_result_get_tests (results[1]);
  while (tests->len > 1)
    {
      g_ptr_array_remove_index (tests, tests->len - 1);
      n_missing++;
    }
  g_assert_cmpuint (n_missing, >=, 2);
  comparison = duel_comparison_new_for_results (results, 3, NULL);
  g_assert_nonnull (comparison);
  start = g_strdup_printf ("Beta SSD has no results on %u tests: ", n_missing);
  lines = duel_comparison_dup_warning_lines (comparison);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_test_message ("%s", lines[i]);
      if (g_str_has_prefix (lines[i], start))
        n_lines++;
      g_assert_null (strstr (lines[i], "was not run on"));
    }
  g_assert_cmpuint (n_lines, ==, 1);
  g_assert_true (test_has_warning (comparison, "was not run on Beta SSD"));
  for (guint d = 0; d < 3; d++)
    g_object_unref (results[d]);
}

/* What was measured: a file target says so beside the capacity of the
 * drive holding it ("256 MiB file on ext4"); a device was itself, and
 * two devices need no such row. */
static void
test_tested_on (void)
{
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;
  g_autoptr(DuelComparison) both_devices = NULL;
  g_autoptr(DuelComparison) file_and_device = NULL;
  DuelTargetInfo file = { (char *) "/srv/test.img", DUEL_TARGET_KIND_FILE, G_GUINT64_CONSTANT (256) << 20, 4096, 4096 };
  JsonObject *filesystem = json_object_new ();
  const DuelComparisonRow *row;

  test_make_pair (&a, &b);
  both_devices = duel_comparison_new (a, b, NULL);
  g_assert_null (find_row (both_devices, NULL, "target"));

  duel_result_set_target (a, &file);
  json_object_set_string_member (filesystem, "type", "ext4");
  json_object_set_object_member (duel_result_get_device (a), "filesystem", filesystem);
  file_and_device = duel_comparison_new (a, b, NULL);
  row = find_row (file_and_device, NULL, "target");
  g_assert_nonnull (row);
  g_assert_cmpint (row->kind, ==, DUEL_COMPARISON_ROW_IDENTITY);
  g_assert_cmpstr (row->text[0], ==, "256\u00a0MiB file on ext4");
  g_assert_cmpstr (row->text[1], ==, "the device itself");
}

static void
test_refuses_empty_and_bad_files (void)
{
  g_autoptr(DuelResult) empty = duel_result_new ();
  g_autoptr(DuelResult) a = NULL;
  g_autoptr(DuelResult) b = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("duel-comparison-XXXXXX", NULL);
  g_autofree char *good = g_build_filename (dir, "good.json", NULL);
  g_autofree char *truncated = g_build_filename (dir, "truncated.json", NULL);
  g_autofree char *foreign = g_build_filename (dir, "foreign.json", NULL);
  g_autofree char *text = NULL;
  gsize length;

  test_make_pair (&a, &b);
  g_assert_null (duel_comparison_new (a, empty, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
  g_clear_error (&error);

  g_assert_true (duel_result_save (a, good, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (good, &text, &length, NULL));
  g_assert_true (g_file_set_contents (truncated, text, length / 2, NULL));
  g_assert_true (g_file_set_contents (foreign, "{\"jobs\": [], \"fio version\": \"fio-3.33\"}", -1, NULL));

  g_assert_null (duel_comparison_new_for_paths (good, truncated, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "truncated.json"));
  g_clear_error (&error);

  g_assert_null (duel_comparison_new_for_paths (foreign, good, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "foreign.json"));
  g_assert_nonnull (strstr (error->message, "not a Drive Duel result"));
  g_clear_error (&error);

  /* What was saved compares like the original. */
  {
    g_autoptr(DuelComparison) comparison = duel_comparison_new_for_paths (good, good, &error);
    const DuelComparisonRow *row;

    g_assert_no_error (error);
    g_assert_cmpstr (duel_comparison_get_drive_name (comparison, 1), ==, "Alpha SSD (2)");
    row = find_row (comparison, DUEL_TEST_CONSISTENCY, "consistency_mean_iops");
    g_assert_cmpint (row->winner, ==, DUEL_WINNER_TIE);
    g_assert_cmpfloat (row->difference_pct, ==, 0);
  }

  g_unlink (good);
  g_unlink (truncated);
  g_unlink (foreign);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/comparison/rows-and-winners", test_rows_and_winners);
  g_test_add_func ("/duel/comparison/decide", test_decide);
  g_test_add_func ("/duel/comparison/fairness-warnings", test_fairness_warnings);
  g_test_add_func ("/duel/comparison/fairness-span-and-reach", test_fairness_span_and_reach);
  g_test_add_func ("/duel/comparison/latency-kinds", test_latency_kinds);
  g_test_add_func ("/duel/comparison/warning-lines", test_warning_lines);
  g_test_add_func ("/duel/comparison/single-drive", test_single_drive);
  g_test_add_func ("/duel/comparison/four-drives", test_four_drives);
  g_test_add_func ("/duel/comparison/references", test_references);
  g_test_add_func ("/duel/comparison/measured-against-reference", test_measured_against_reference);
  g_test_add_func ("/duel/comparison/old-reference-file", test_old_reference_file);
  g_test_add_func ("/duel/comparison/refuses-bad-files", test_refuses_empty_and_bad_files);
  g_test_add_func ("/duel/comparison/partial-interval-notes", test_partial_interval_notes);
  g_test_add_func ("/duel/comparison/tested-on", test_tested_on);
  g_test_add_func ("/duel/comparison/missing-grouped", test_missing_grouped);

  return g_test_run ();
}
