/* test-rounds.c — tests in rounds to steady state (SNIA PTS): the plan, the runner, the report
 *
 * The plan's rounds and the matrix a person chooses, against hand counts;
 * the runner on a real file target, with limits that make every window
 * pass (it must stop at the first window) or none (it must run to the
 * most rounds); the report on records whose figures are set by hand, so
 * that the steady round and each cell's mean are known before it runs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>

#include "duel-error.h"
#include "duel-json.h"
#include "run/duel-preset.h"
#include "analysis/duel-comparison.h"
#include "analysis/duel-rounds.h"
#include "run/duel-run-steps.h"
#include "review/duel-review-test.h"
#include "test-rounds-records.h"
#include "test-run-plan.h"

#define MIB (G_GUINT64_CONSTANT (1) << 20)

static DuelPreset *
new_pts (guint         max_rounds,
         double        data_limit,
         const guint32 *sizes,
         guint          n_sizes,
         const guint   *mixes,
         guint          n_mixes,
         GError       **error)
{
  DuelPresetOptions options;

  duel_preset_options_init (&options);
  options.max_rounds = max_rounds;
  options.data_limit = data_limit;
  options.slope_limit = data_limit;
  options.runtime_ms = 200;
  options.interval_ms = 100;
  for (guint i = 0; i < n_sizes; i++)
    options.matrix_block_sizes[options.n_matrix_block_sizes++] = sizes[i];
  for (guint i = 0; i < n_mixes; i++)
    options.matrix_read_percents[options.n_matrix_read_percents++] = mixes[i];
  return duel_preset_new ("pts-iops", &options, error);
}

/* The whole matrix: 8 block sizes x 7 mixes, SNIA's 25 rounds; the 512 B
 * cells left out on a drive of 4 KiB sectors. */
static void
test_plan_matrix (void)
{
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(GError) error = NULL;
  guint tests = 0, optional = 0, last_round = 0;

  preset = new_pts (0, 0, NULL, 0, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_true (duel_preset_prepare_for_size (preset, 256 * MIB, 512, "drive", &error));
  g_assert_no_error (error);
  /* The trim, the preconditioning, 25 rounds of 56 cells. */
  g_assert_cmpuint (duel_preset_get_n_steps (preset), ==, 2 + 25 * 56);
  g_assert_cmpint (duel_preset_get_step (preset, 0)->kind, ==, DUEL_PRESET_STEP_DISCARD);
  g_assert_true (duel_preset_step_is_fill (duel_preset_get_step (preset, 1)));
  g_assert_false (duel_preset_step_is_random_fill (duel_preset_get_step (preset, 1)));
  for (guint i = 2; i < duel_preset_get_n_steps (preset); i++)
    {
      const DuelPresetStep *step = duel_preset_get_step (preset, i);

      tests++;
      optional += step->optional;
      g_assert_cmpuint (step->round, >=, last_round);
      last_round = step->round;
      g_assert_cmpuint (step->max_rounds, ==, 25);
      /* The rounds past the first window of five may be skipped. */
      g_assert_cmpint (step->optional, ==, step->round > 5);
      g_assert_cmpuint (step->workload.queue_depth, ==, 32);
    }
  g_assert_cmpuint (tests, ==, 25 * 56);
  g_assert_cmpuint (optional, ==, 20 * 56);

  /* 4 KiB sectors: no 512 B cell, and the parameters say what ran. */
  g_assert_true (duel_preset_prepare_for_size (preset, 256 * MIB, 4096, "drive", &error));
  g_assert_cmpuint (duel_preset_get_n_steps (preset), ==, 2 + 25 * 49);
  {
    g_autoptr(JsonObject) rounds = duel_preset_get_rounds_parameters (preset, duel_review_test_find ("pts-iops"));
    JsonArray *sizes = duel_json_get_array (rounds, "block_sizes");

    g_assert_cmpuint (json_array_get_length (sizes), ==, 7);
    g_assert_cmpuint (json_array_get_length (duel_json_get_array (rounds, "read_percents")), ==, 7);
    g_assert_cmpstr (duel_json_get_string (rounds, "tracked_step"), ==, "pts-iops-4k-r0");
  }
}

static void
test_plan_refusals (void)
{
  const guint32 no_4k[] = { 8192 };
  const guint32 not_in_matrix[] = { 4096, 12288 };
  const guint reads_only[] = { 100 };
  const guint not_a_mix[] = { 0, 70 };
  DuelPresetOptions options;
  GError *error = NULL;

  /* Steady state is judged on 4 KiB writes: the subset must keep them. */
  g_assert_null (new_pts (0, 0, no_4k, 1, NULL, 0, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (new_pts (0, 0, NULL, 0, reads_only, 1, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (new_pts (0, 0, not_in_matrix, 2, NULL, 0, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (new_pts (0, 0, NULL, 0, not_a_mix, 2, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  /* Fewer rounds than the window could never judge one. */
  g_assert_null (new_pts (4, 0, NULL, 0, NULL, 0, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (new_pts (0, 11, NULL, 0, NULL, 0, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* A preset without rounds takes none of their options. */
  duel_preset_options_init (&options);
  options.max_rounds = 6;
  g_assert_null (duel_preset_new ("consistency", &options, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  duel_preset_options_init (&options);
  options.n_matrix_read_percents = 1;
  g_assert_null (duel_preset_new ("standard", &options, &error));
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
}


typedef struct
{
  guint started;
  guint skipped;
} Counts;

static void
count_cb (const DuelRunStepsProgress *progress,
          DuelTestRecord             *record,
          gpointer                    user_data)
{
  Counts *counts = user_data;

  if (progress->skipped)
    {
      g_assert_true (progress->step_done);
      g_assert_true (progress->step->optional);
      counts->skipped++;
    }
  else if (progress->engine == NULL && !progress->step_done)
    counts->started++;
}

/* The rounds of @result's tracked cell, in order. */
static guint
count_rounds (DuelResult *result)
{
  GPtrArray *tests = duel_result_get_tests (result);
  guint rounds = 0;

  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);
      double round;

      if (g_strcmp0 (record->name, "pts-iops-4k-r0") != 0)
        continue;
      g_assert_true (duel_json_get_number (duel_test_record_get_details (record), "round", &round));
      g_assert_cmpfloat (round, ==, ++rounds);
    }
  return rounds;
}

/* Limits of 10 times the mean: every window passes, so the runner stops
 * at the first one, after round 5, and skips the rest; limits of a
 * billionth of it: none does, so it runs every round it may. */
static void
test_runner_stops_at_window (gconstpointer data)
{
  double limit = *(const double *) data;
  const guint32 sizes[] = { 4096, 65536 };
  const guint mixes[] = { 0, 100 };
  g_autoptr(DuelTarget) target = test_open_scratch ("rounds.img", 32 * MIB);
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(DuelRunSteps) steps = NULL;
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelRoundsReport) report = NULL;
  g_autoptr(GError) error = NULL;
  Counts counts = { 0 };
  gboolean every_window = limit > 1;
  guint expected_rounds = every_window ? 5 : 7;

  preset = new_pts (7, limit, sizes, 2, mixes, 2, &error);
  g_assert_no_error (error);
  steps = duel_run_steps_new (preset);
  duel_run_steps_set_callbacks (steps, count_cb, NULL, &counts);
  g_assert_true (duel_run_steps_run (steps, target, result, NULL, &error));
  g_assert_no_error (error);

  /* The trim, the preconditioning, then 4 cells a round. */
  g_assert_cmpuint (counts.started, ==, 2 + expected_rounds * 4);
  g_assert_cmpuint (counts.skipped, ==, (7 - expected_rounds) * 4);
  g_assert_cmpuint (duel_result_get_tests (result)->len, ==, 1 + expected_rounds * 4);
  g_assert_cmpuint (count_rounds (result), ==, expected_rounds);

  /* The report, from the records alone, agrees with the runner. */
  report = duel_rounds_report_new (result, NULL);
  g_assert_nonnull (report);
  g_assert_cmpstr (report->section, ==, "pts-iops");
  g_assert_cmpuint (report->n_rounds, ==, expected_rounds);
  g_assert_cmpuint (report->max_rounds, ==, 7);
  g_assert_cmpint (report->steady, ==, every_window);
  g_assert_cmpuint (report->steady_round, ==, every_window ? 5 : 0);
  g_assert_cmpuint (report->cells->len, ==, 4);
  /* A file: SNIA's purge is a hole punched over it, and said so. */
  g_assert_cmpstr (report->purge_method, ==, "punch-hole");
  g_assert_null (report->purge_refused);
  g_assert_nonnull (duel_rounds_describe_purge (report->purge_method));
  for (guint i = 0; i < report->cells->len; i++)
    {
      const DuelRoundsCell *cell = g_ptr_array_index (report->cells, i);

      g_assert_cmpuint (cell->n_rounds, ==, 5);
      g_assert_true (isfinite (cell->iops) && cell->iops > 0);
    }
}

/* Rounds whose tracked values are set by hand: 1000, 800, 600 (falling),
 * then 500, 520, 480, 510, 490. The windows of rounds 1–5, 2–6 and 3–7
 * fail (ranges 500, 320 and 120 against limits of 136.8, 116 and 104.4),
 * the window 4–8 passes: range 40 ≤ 0.2 x 500 = 100, slope −3 a round,
 * 4 x 3 = 12 ≤ 0.1 x 500 = 50.
 * The other cell's mean over rounds 4–8 is (40 + 41 + 42 + 43 + 44) / 5. */
static void
test_report_by_hand (void)
{
  const double tracked[] = { 1000, 800, 600, 500, 520, 480, 510, 490 };
  g_autoptr(DuelResult) result = duel_result_new ();
  g_autoptr(DuelRoundsReport) report = NULL;
  const DuelRoundsCell *cell;

  for (guint r = 1; r <= G_N_ELEMENTS (tracked); r++)
    {
      test_add_round_cell (result, "pts-iops-1m-r100", 1 << 20, 100, r, 39.0 + r - 3, 100.0 * r);
      test_add_round_cell (result, "pts-iops-4k-r0", 4096, 0, r, tracked[r - 1], 100.0 * r);
    }
  report = duel_rounds_report_new (result, "pts-iops");
  g_assert_nonnull (report);
  g_assert_cmpuint (report->n_rounds, ==, 8);
  g_assert_true (report->steady);
  g_assert_cmpuint (report->steady_round, ==, 8);
  g_assert_cmpuint (report->measured.first_round, ==, 4);
  g_assert_cmpfloat_with_epsilon (report->measured.mean, 500.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (report->measured.data_excursion, 40.0, 1e-9);
  /* Least squares over (4, 500) … (8, 490): Σdx·dy = −30 over Σdx² = 10. */
  g_assert_cmpfloat_with_epsilon (report->measured.slope, -3.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (report->measured.slope_excursion, 12.0, 1e-9);

  cell = duel_rounds_report_find_cell (report, 1 << 20, 100);
  g_assert_nonnull (cell);
  g_assert_cmpuint (cell->n_rounds, ==, 5);
  g_assert_cmpfloat_with_epsilon (cell->iops, 42.0, 1e-9);
  /* The longest of the window's rounds, not their mean. */
  g_assert_cmpfloat_with_epsilon (cell->latency_max_us, 800.0, 1e-9);
  g_assert_true (isnan (cell->mbps));
  g_assert_null (duel_rounds_report_find_cell (report, 8192, 100));

  /* No record in rounds: no report. */
  {
    g_autoptr(DuelResult) plain = duel_result_new ();

    g_assert_null (duel_rounds_report_new (plain, NULL));
  }
}

/* Two drives' rounds compared: the cell the rounds are judged by says
 * which rounds each drive's figures are the mean of, with no winner, and
 * its figure is that mean. */
static void
test_comparison_says_rounds (void)
{
  const double steady[] = { 1000, 800, 600, 500, 520, 480, 510, 490 };
  const double drifting[] = { 1000, 300, 1000, 300, 1000, 300, 1000, 300 };
  g_autoptr(DuelResult) a = duel_result_new ();
  g_autoptr(DuelResult) b = duel_result_new ();
  g_autoptr(DuelComparison) comparison = NULL;
  g_autoptr(GError) error = NULL;
  const DuelComparisonRow *rounds = NULL, *iops = NULL;
  guint n_rounds_rows = 0;

  for (guint r = 1; r <= G_N_ELEMENTS (steady); r++)
    {
      test_add_round_cell (a, "pts-iops-1m-r100", 1 << 20, 100, r, 40, NAN);
      test_add_round_cell (a, "pts-iops-4k-r0", 4096, 0, r, steady[r - 1], NAN);
      test_add_round_cell (b, "pts-iops-1m-r100", 1 << 20, 100, r, 40, NAN);
      test_add_round_cell (b, "pts-iops-4k-r0", 4096, 0, r, drifting[r - 1], NAN);
    }
  comparison = duel_comparison_new (a, b, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < duel_comparison_get_n_rows (comparison); i++)
    {
      const DuelComparisonRow *row = duel_comparison_get_row (comparison, i);

      if (g_strcmp0 (row->key, "steady_state_rounds") == 0)
        {
          rounds = row;
          n_rounds_rows++;
        }
      else if (g_strcmp0 (row->test, "pts-iops-4k-r0") == 0 && g_strcmp0 (row->key, "iops") == 0)
        iops = row;
    }
  /* Once, at the judged cell, not at each of the matrix's. */
  g_assert_cmpuint (n_rounds_rows, ==, 1);
  g_assert_cmpstr (rounds->test, ==, "pts-iops-4k-r0");
  g_assert_cmpstr (rounds->text[0], ==, "reached, rounds 4–8");
  g_assert_cmpstr (rounds->text[1], ==, "not reached, rounds 4–8");
  g_assert_cmpint (rounds->winner, ==, DUEL_WINNER_NONE);
  g_assert_nonnull (iops);
  g_assert_cmpfloat_with_epsilon (iops->value[0], 500.0, 1e-9);
  /* Rounds 4–8: 300, 1000, 300, 1000, 300. */
  g_assert_cmpfloat_with_epsilon (iops->value[1], 580.0, 1e-9);
}

int
main (int    argc,
      char **argv)
{
  static const double every = 10, none = 1e-9;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/rounds/plan/matrix", test_plan_matrix);
  g_test_add_func ("/duel/rounds/plan/refusals", test_plan_refusals);
  g_test_add_data_func ("/duel/rounds/runner/every-window-passes", &every, test_runner_stops_at_window);
  g_test_add_data_func ("/duel/rounds/runner/no-window-passes", &none, test_runner_stops_at_window);
  g_test_add_func ("/duel/rounds/report/by-hand", test_report_by_hand);
  g_test_add_func ("/duel/rounds/comparison", test_comparison_says_rounds);

  return g_test_run ();
}
