/* test-analysis-memory.c — loading and analysing a long run stay within the loader's bound
 *
 * docs/result-format.md (#memory) promises that loading a file of S bytes
 * and analysing every test in it (what `driveduel-cli analyze` and the
 * app's history do) take at most 3 x S (16 MiB at least, 104 KiB more a
 * test). The load keeps to it by its own estimate; the analysis keeps to
 * it by what it holds beside the series: the fill's curve of its rows
 * (24 bytes a row at most), the consistency's slowest thousandth, and no
 * more than a fixed amount elsewhere, while the file's text (at least 32
 * bytes a row in any file the loader accepts) is freed before it runs.
 *
 * A record whose run was paused (SIGSTOP, a suspend) is held to the same
 * bound: its figures leave the rows the pauses touched out, read through
 * a view of its series (duel_test_record_get_figure_series()), not a copy
 * of the rest (64 bytes a row, which broke the bound).
 *
 * Each check runs in a subprocess whose data segment is limited
 * (tests/test-memory.h): an allocation past the bound fails and the
 * subprocess aborts, the same way every time. Records are made from a
 * fixed seed (tests/long-records.h), about 7 MB of file a case.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>

#include "analysis/duel-analysis.h"
#include "result/duel-result.h"
#include "long-records.h"
#include "test-memory.h"

/* Rows of the long records: a fill of 200 000 rows is a 7.0 MB file, its
 * series 12.8 MB in memory. */
#define FILL_ROWS        200000
#define CONSISTENCY_ROWS 200000
/* The many-test file: tests of a few hundred rows. */
#define MANY_TESTS       300
#define MANY_ROWS        300
/* What the analysis of a fill may hold beside its series, a row. */
#define FILL_BYTES_A_ROW 32
/* For everything else the analysis and GLib allocate: the grid of the
 * falls (4 000 points at most), the summary's JSON. */
#define ANALYSIS_SLACK   (G_GUINT64_CONSTANT (1) << 20)

typedef enum
{
  CASE_FILL,
  CASE_CONSISTENCY,
  CASE_MANY_TESTS,
  CASE_FILL_PAUSED,
  CASE_CONSISTENCY_PAUSED,
} Case;

/* A pause of the process that touched @n_rows rows from @row on, as the
 * engine records one. */
static void
add_pause (DuelTestRecord *record,
           guint           row,
           guint           n_rows)
{
  guint n = duel_series_get_length (record->series);
  DuelPause pause = {
    .at_ms = row > 0 ? duel_series_get_row (record->series, row - 1)->t_ms : 0,
    .row = row,
    .rows = n_rows,
    .fraction = (double) row / n,
    .length_ns = 60 * G_GUINT64_CONSTANT (1000000000),
  };

  duel_test_record_add_pause (record, &pause);
}

static DuelTestRecord *
make_record (Case   which,
             GRand *rand)
{
  DuelTestRecord *record;

  switch (which)
    {
    case CASE_FILL:
    case CASE_FILL_PAUSED:        record = long_record_fill (FILL_ROWS, rand); break;
    case CASE_CONSISTENCY:
    case CASE_CONSISTENCY_PAUSED: record = long_record_consistency (CONSISTENCY_ROWS, rand); break;
    case CASE_MANY_TESTS:
    default:                      record = long_record_fill (MANY_ROWS, rand); break;
    }
  /* Three pauses: one at the start, one across a row's end (two rows), one late. */
  if (which == CASE_FILL_PAUSED || which == CASE_CONSISTENCY_PAUSED)
    {
      guint n = duel_series_get_length (record->series);

      add_pause (record, 0, 1);
      add_pause (record, n / 2, 2);
      add_pause (record, n / 10 * 9, 1);
    }
  return record;
}

/* The result of @which, summarised as a run summarises each step. */
static DuelResult *
make_result (Case which)
{
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  DuelTargetInfo target = {
    .path = (char *) "/dev/nvme0n1",
    .kind = DUEL_TARGET_KIND_BLOCK,
    .size_bytes = LONG_RECORD_TARGET_BYTES,
    .logical_block_size = 512,
    .physical_block_size = 4096,
  };
  guint n_tests = which == CASE_MANY_TESTS ? MANY_TESTS : 1;

  duel_result_set_name (result, "Long run");
  for (guint i = 0; i < n_tests; i++)
    {
      g_autoptr(DuelTestRecord) record = make_record (which, rand);
      DuelAnalysisKind kind = duel_analysis_kind_for_test_name (record->name);
      g_autoptr(DuelSummary) summary = duel_analysis_summarize (record, kind, NULL);

      duel_analysis_apply (record, kind, NULL, summary);
      target.size_bytes = MAX (target.size_bytes, record->span_length);
      duel_result_add_test (result, record);
    }
  duel_result_set_target (result, &target);
  return g_steal_pointer (&result);
}

static const char * const case_names[] = { "fill", "consistency", "many-tests", "fill-paused", "consistency-paused" };

/* Figures of @record that differ from those it stores. */
static guint
count_differences (const DuelTestRecord *record,
                   const DuelSummary    *summary)
{
  guint differences = 0;

  for (guint i = 0; i < duel_summary_get_n_figures (summary); i++)
    {
      double stored, value = duel_summary_get_value (summary, i);

      g_assert_true (duel_test_record_get_figure (record, duel_summary_get_key (summary, i), &stored));
      if (isnan (stored) != isnan (value) || (!isnan (value) && stored != value))
        differences++;
    }
  return differences;
}

/* Loads the file and analyses every test, each summary dropped before the
 * next as analyze does, under the documented bound. */
static void
test_load_and_analyse (gconstpointer data)
{
  Case which = GPOINTER_TO_UINT (data);
  g_autofree char *variable = g_strdup_printf ("DRIVEDUEL_TEST_ANALYSIS_MEMORY_%u", which);

  if (g_test_subprocess ())
    {
      const char *path = g_getenv (variable);
      g_autoptr(GError) error = NULL;
      g_autoptr(DuelResult) result = NULL;
      GPtrArray *tests;
      guint differences = 0, figures = 0;
      GStatBuf st;

      g_assert_nonnull (path);
      g_assert_cmpint (g_stat (path, &st), ==, 0);
      g_assert_true (test_memory_limit (test_memory_documented_bound ((guint64) st.st_size,
                                                                      which == CASE_MANY_TESTS ? MANY_TESTS : 1),
                                        2 << 20));
      result = duel_result_load (path, &error);
      g_assert_no_error (error);
      tests = duel_result_get_tests (result);
      for (guint i = 0; i < tests->len; i++)
        {
          DuelTestRecord *record = g_ptr_array_index (tests, i);
          g_autoptr(DuelSummary) summary = duel_analysis_resummarize (record, NULL, &error);

          g_assert_no_error (error);
          figures += duel_summary_get_n_figures (summary);
          differences += count_differences (record, summary);
        }
      printf ("analysed %u tests, %u figures, %u differ\n", tests->len, figures, differences);
      fflush (stdout);
      return;
    }

  if (!test_memory_can_limit_or_skip ())
    return;
  {
    g_autoptr(DuelResult) result = make_result (which);
    g_autoptr(GError) error = NULL;
    g_autofree char *dir = g_dir_make_tmp ("test-analysis-memory-XXXXXX", NULL);
    g_autofree char *path = NULL;
    g_autofree char *expected = NULL;
    GStatBuf st;

    g_assert_nonnull (dir);
    path = g_build_filename (dir, "long.json", NULL);
    g_assert_true (duel_result_save (result, path, &error));
    g_assert_no_error (error);
    g_assert_cmpint (g_stat (path, &st), ==, 0);
    g_test_message ("%s: %" G_GUINT64_FORMAT " bytes", case_names[which], (guint64) st.st_size);
    g_clear_object (&result);
    g_setenv (variable, path, TRUE);

    g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
    g_unlink (path);
    g_rmdir (dir);
    g_test_trap_assert_passed ();
    g_test_trap_assert_stdout (which == CASE_MANY_TESTS ? "analysed 300 tests, * figures, 0 differ*"
                                                        : "analysed 1 tests, * figures, 0 differ*");
  }
}

/* The analysis alone, on a record in memory: what it holds beside the
 * series is FILL_BYTES_A_ROW a row for a fill, nothing a row for a
 * consistency run (its slowest thousandth: 1.6 KB here), and the slack. */
static void
test_analysis_alone (gconstpointer data)
{
  Case which = GPOINTER_TO_UINT (data);

  if (g_test_subprocess ())
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (42);
      g_autoptr(DuelTestRecord) record = make_record (which, rand);
      g_autoptr(DuelSummary) summary = NULL;
      guint64 rows = duel_series_get_length (record->series);
      gboolean fill = which == CASE_FILL || which == CASE_FILL_PAUSED;
      guint64 bound = fill ? FILL_BYTES_A_ROW * rows : rows / 1000 * sizeof (double);

      g_assert_true (test_memory_limit (bound, ANALYSIS_SLACK));
      summary = duel_analysis_summarize (record, duel_analysis_kind_for_test_name (record->name), NULL);
      printf ("%u figures from %" G_GUINT64_FORMAT " rows\n", duel_summary_get_n_figures (summary), rows);
      fflush (stdout);
      return;
    }

  if (!test_memory_can_limit_or_skip ())
    return;
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("* figures from * rows*");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (case_names); i++)
    {
      g_autofree char *path = g_strdup_printf ("/duel/analysis-memory/load-and-analyse/%s", case_names[i]);

      g_test_add_data_func (path, GUINT_TO_POINTER (i), test_load_and_analyse);
    }
  g_test_add_data_func ("/duel/analysis-memory/analysis-alone/fill", GUINT_TO_POINTER (CASE_FILL),
                        test_analysis_alone);
  g_test_add_data_func ("/duel/analysis-memory/analysis-alone/consistency", GUINT_TO_POINTER (CASE_CONSISTENCY),
                        test_analysis_alone);
  g_test_add_data_func ("/duel/analysis-memory/analysis-alone/fill-paused", GUINT_TO_POINTER (CASE_FILL_PAUSED),
                        test_analysis_alone);
  g_test_add_data_func ("/duel/analysis-memory/analysis-alone/consistency-paused",
                        GUINT_TO_POINTER (CASE_CONSISTENCY_PAUSED), test_analysis_alone);
  return g_test_run ();
}
