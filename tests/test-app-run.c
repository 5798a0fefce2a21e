/* test-app-run.c — runs from the window on a file target: complete, history, cancel, kill -9
 *
 * The real engine writes to a file in the build tree; the window starts the
 * run as the Start button does (win.start-run) and stops it as Stop does.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "duel-app-test.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "duel-chart-consistency.h"
#include "duel-chart-qos.h"
#include "duel-chart-standard.h"
#include "duel-chart-write-curve.h"
#include "duel-cdm-view.h"
#include "duel-confirm-dialog.h"

#include "duel-comparison-view.h"
#include "duel-drive-item.h"
#include "duel-drives-view.h"
#include "duel-history.h"
#include "duel-presets-view.h"
#include "run/duel-run.h"
#include "duel-run-view.h"
#include "analysis/duel-rounds.h"
#include "duel-error.h"
#include "duel-number.h"
#include "duel-size.h"

static DuelApplication *app;
static char *scratch_dir;
static char *test_program;

typedef struct
{
  DuelRun *task;
  guint        n_progress;
  gboolean     finished;
  double       last_fraction;
  gboolean     fraction_went_back;
  gboolean     saw_rows;
  gint64       cancelled_us;
  gint64       finished_us;
} Watch;

static void
progress_cb (DuelRun *task,
             Watch       *watch)
{
  const DuelRunStatus *status = duel_run_get_status (task);
  DuelTestRecord *record = duel_run_get_live_record (task);

  /* Progress reaches the main thread: we are in it. */
  g_assert_true (g_main_context_is_owner (g_main_context_default ()));
  watch->n_progress++;
  if (status->fraction_done + 1e-9 < watch->last_fraction)
    watch->fraction_went_back = TRUE;
  watch->last_fraction = status->fraction_done;
  g_assert_cmpfloat (status->fraction_done, >=, 0.0);
  g_assert_cmpfloat (status->fraction_done, <=, 1.0);
  if (record != NULL && duel_series_get_length (record->series) > 0)
    watch->saw_rows = TRUE;
}

static gboolean
run_finished (gpointer user_data)
{
  DuelWindow *window = user_data;
  DuelRun *task = duel_window_get_run_task (window);

  return task != NULL && !duel_run_is_running (task) && duel_run_get_result (task) != NULL;
}

static gboolean
run_measuring (gpointer user_data)
{
  Watch *watch = user_data;
  const DuelRunStatus *status = duel_run_get_status (watch->task);

  /* Some intervals into the consistency test itself, the live chart drawn from them. */
  return watch->saw_rows && status->state == DUEL_RUN_STATE_RUNNING && status->engine.n_intervals >= 8;
}

/* The Run page as drawn: title, step line, progress text, time left, Stop;
 * no fill's passes in these runs. */
static void
assert_run_page (DuelWindow *window,
                 const char *title_prefix,
                 const char *step,
                 const char *progress_prefix,
                 const char *left,
                 gboolean    stop_shown)
{
  g_autofree char *text = duel_run_view_describe (duel_window_get_run_view (window));
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  g_test_message ("Run page: %s", text);
  g_assert_cmpuint (g_strv_length (lines), ==, 6);
  g_assert_true (g_str_has_prefix (lines[0], title_prefix));
  if (step != NULL)
    g_assert_cmpstr (lines[1], ==, step);
  g_assert_true (g_str_has_prefix (lines[2], progress_prefix));
  if (left != NULL)
    g_assert_cmpstr (lines[3], ==, left);
  g_assert_cmpstr (lines[4], ==, "");
  g_assert_cmpstr (lines[5], ==, stop_shown ? "stop" : "no stop");
}

static gboolean
has_message_dialog (void)
{
  return duel_alert_find_any_shown () != NULL;
}

static DuelAlert *
find_message_dialog (void)
{
  return duel_alert_find_any_shown ();
}

static gboolean
message_dialog_shown (gpointer user_data)
{
  return find_message_dialog () != NULL;
}

static gboolean
run_started_or_refused (gpointer user_data)
{
  return duel_window_get_run_task (DUEL_WINDOW (user_data)) != NULL || has_message_dialog ();
}

typedef struct
{
  DuelWindow *window;
  DuelRun    *before;
} NewRun;

/* A run other than @before started, or a dialog says why not. */
static gboolean
new_run_started_or_refused (gpointer user_data)
{
  NewRun *new_run = user_data;
  DuelRun *task = duel_window_get_run_task (new_run->window);

  return (task != NULL && task != new_run->before) || has_message_dialog ();
}

/* The width of the next window prepare_window() makes, 0 for its own. */
static int next_window_width;

static DuelWindow *
prepare_window (const char              *target_name,
                const char              *preset,
                const DuelPresetOptions *options)
{
  DuelWindow *window;
  g_autofree char *target = g_build_filename (scratch_dir, target_name, NULL);
  DuelDriveItem *drive;

  duel_app_test_forget_state (app);
  window = duel_window_new (app);
  if (next_window_width > 0)
    {
      gtk_window_set_default_size (GTK_WINDOW (window), next_window_width, 700);
      /* Narrower than libadwaita's threshold the view switcher moves to
       * a bar at the bottom, and GTK 4.8's GtkActionBar allocates its
       * revealer's box at width 0, height -1 for a frame: a warning of
       * theirs (structured, so no test log handler sees it). Criticals
       * stay fatal for this window. */
      g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
    }
  next_window_width = 0;
  gtk_window_present (GTK_WINDOW (window));
  duel_app_test_wait (duel_app_test_not_busy, window, 30, "the window to load");

  /* As a user would: add a file target, pick the preset, set its parameters. */
  drive = duel_drives_view_add_file (duel_window_get_drives_view (window), target);
  g_assert_nonnull (drive);
  g_assert_true (duel_drives_view_get_selected (duel_window_get_drives_view (window)) == drive);
  g_assert_true (duel_presets_view_set_preset_name (duel_window_get_presets_view (window), preset));
  duel_presets_view_set_options (duel_window_get_presets_view (window), options);
  return window;
}

static Watch *
start_run (DuelWindow *window)
{
  Watch *watch = g_new0 (Watch, 1);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.start-run", NULL));
  /* The safety rules are checked in a worker first. */
  duel_app_test_wait (run_started_or_refused, window, 10, "the run to start");
  watch->task = duel_window_get_run_task (window);
  if (watch->task == NULL)
    {
      DuelAlert *alert = duel_alert_find_shown (GTK_WINDOW (window));

      /* Say why: the window explains a refusal in a message dialog. */
      if (alert != NULL)
        g_test_message ("%s: %s", duel_alert_get_heading (alert), duel_alert_get_body (alert));
    }
  g_assert_nonnull (watch->task);
  g_assert_true (duel_run_is_running (watch->task));
  g_signal_connect (watch->task, "progress", G_CALLBACK (progress_cb), watch);
  g_assert_cmpstr (duel_window_get_page (window), ==, "run");
  /* Suspend is held off while the run goes. */
  g_assert_true (duel_application_is_inhibited (app));
  return watch;
}

static void
test_run_completes_into_history (void)
{
  DuelPresetOptions options;
  DuelWindow *window;
  Watch *watch;
  DuelHistory *history = duel_application_get_history (app);
  guint n_before;
  g_autoptr(DuelResultItem) item = NULL;
  g_autoptr(DuelResult) reloaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  DuelResultItem *chosen[DUEL_COMPARISON_MAX_DRIVES];
  guint free_slot = DUEL_COMPARISON_MAX_DRIVES;
  DuelComparisonView *compare;
  DuelResult *result;
  GPtrArray *tests;

  duel_app_test_small_options (&options);
  window = prepare_window ("run-target.img", "quick", &options);
  compare = duel_window_get_comparison_view (window);
  n_before = g_list_model_get_n_items (duel_history_get_model (history));
  /* What the Compare page shows before: the reference drives, the places
   * after them free. */
  for (guint slot = 0; slot < DUEL_COMPARISON_MAX_DRIVES; slot++)
    {
      chosen[slot] = duel_comparison_view_get_item (compare, slot);
      if (chosen[slot] != NULL)
        g_object_ref (chosen[slot]);
      else if (free_slot == DUEL_COMPARISON_MAX_DRIVES)
        free_slot = slot;
    }
  g_assert_cmpuint (free_slot, <, DUEL_COMPARISON_MAX_DRIVES);
  watch = start_run (window);

  duel_app_test_wait (run_finished, window, 300, "the quick review to finish");

  /* The engine reported through the coalesced idle, never backwards, and the
   * live chart was redrawn from the growing record. (How often the main
   * loop ran that idle is the scheduler's: a loaded host may coalesce a
   * whole step into one.) */
  g_assert_cmpuint (watch->n_progress, >, 0);
  g_assert_false (watch->fraction_went_back);
  g_assert_true (watch->saw_rows);
  g_assert_cmpuint (duel_run_view_get_n_chart_updates (duel_window_get_run_view (window)), >, 0);
  g_assert_false (duel_application_is_inhibited (app));

  /* Every test of the preset completed, with its summary. */
  result = duel_run_get_result (watch->task);
  tests = duel_result_get_tests (result);
  g_assert_cmpuint (tests->len, >=, 4);
  for (guint i = 0; i < tests->len; i++)
    {
      DuelTestRecord *record = g_ptr_array_index (tests, i);

      g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_COMPLETE);
      g_assert_cmpuint (duel_series_get_length (record->series), >, 0);
    }
  /* The drive's identity was recorded. */
  g_assert_nonnull (duel_result_get_device (result));

  /* It landed in the history, on disk, and in the comparison: in the first
   * free place, every drive shown before left where it was. */
  g_assert_cmpuint (g_list_model_get_n_items (duel_history_get_model (history)), ==, n_before + 1);
  item = g_list_model_get_item (duel_history_get_model (history), 0);
  g_assert_true (duel_result_item_get_result (item) == result);
  path = g_file_get_path (duel_result_item_get_file (item));
  g_assert_true (g_str_has_prefix (path, duel_history_get_directory (history)));
  reloaded = duel_result_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (duel_result_get_tests (reloaded)->len, ==, tests->len);
  for (guint slot = 0; slot < DUEL_COMPARISON_MAX_DRIVES; slot++)
    {
      if (slot == free_slot)
        g_assert_true (duel_comparison_view_get_item (compare, slot) == item);
      else
        g_assert_true (duel_comparison_view_get_item (compare, slot) == chosen[slot]);
      g_clear_object (&chosen[slot]);
    }
  g_assert_nonnull (duel_comparison_view_get_comparison (compare));
  g_assert_false (duel_run_is_running (watch->task));

  /* The Run page says it finished, and keeps saying so. */
  g_assert_cmpint (duel_run_get_state (watch->task), ==, DUEL_RUN_STATE_FINISHED);
  assert_run_page (window, "Finished on", "Every step ran; the result is in the history.", "Finished", "–", FALSE);
  /* No step of CrystalDiskMark's set: no grid under the figures. */
  g_assert_null (duel_run_view_get_summary_cdm (duel_window_get_run_view (window)));
  duel_app_test_spin (1500);
  assert_run_page (window, "Finished on", "Every step ran; the result is in the history.", "Finished", "–", FALSE);

  g_free (watch);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A run of CrystalDiskMark's set ends with its grid on the Run page, as
 * CrystalDiskMark ends with its window of figures: the same cells as the
 * grid made from the saved result (the quick review has none). */
static void
test_run_page_crystaldiskmark_grid (void)
{
  DuelPresetOptions options;
  DuelWindow *window;
  Watch *watch;
  DuelCdmView *view;
  DuelCdmGrid *shown;
  g_autoptr(DuelCdmGrid) expected = NULL;

  duel_app_test_small_options (&options);
  window = prepare_window ("cdm-target.img", "crystaldiskmark", &options);
  watch = start_run (window);
  duel_app_test_wait (run_finished, window, 300, "the CrystalDiskMark set to finish");
  g_assert_cmpint (duel_run_get_state (watch->task), ==, DUEL_RUN_STATE_FINISHED);

  view = duel_run_view_get_summary_cdm (duel_window_get_run_view (window));
  g_assert_nonnull (view);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));
  shown = duel_cdm_view_get_grid (view);
  expected = duel_cdm_grid_new_for_result (duel_run_get_result (watch->task));
  g_assert_nonnull (expected);
  g_assert_cmpuint (duel_cdm_grid_get_n_drives (shown), ==, 1);
  g_assert_cmpuint (duel_cdm_grid_get_n_rows (shown), ==, 4);
  g_assert_cmpuint (duel_cdm_grid_get_n_rows (expected), ==, 4);
  for (guint row = 0; row < 4; row++)
    for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
      {
        const DuelCdmCell *a = duel_cdm_grid_get_cell (shown, 0, row, d);
        const DuelCdmCell *b = duel_cdm_grid_get_cell (expected, 0, row, d);

        g_assert_cmpuint (a->n_passes, >, 0);
        g_assert_cmpuint (a->bytes, ==, b->bytes);
        g_assert_cmpuint (a->ops, ==, b->ops);
        g_assert_cmpfloat (a->best[DUEL_CDM_UNIT_MB_S], ==, b->best[DUEL_CDM_UNIT_MB_S]);
      }

  g_free (watch);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_cancel_keeps_partial_result (void)
{
  DuelPresetOptions options;
  DuelWindow *window;
  Watch *watch;
  DuelHistory *history = duel_application_get_history (app);
  guint n_before;
  g_autoptr(DuelResultItem) item = NULL;
  g_autoptr(DuelResult) reloaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  DuelTestRecord *record;
  gint64 cancelled_us, stopped_us;
  int percent_at_stop;
  DuelComparisonView *compare;
  DuelResultItem *chosen[DUEL_COMPARISON_MAX_DRIVES];
  DuelAlert *dialog;

  /* The consistency test alone, for a minute: long enough to stop it midway. */
  duel_app_test_small_options (&options);
  options.runtime_ms = 60000;
  window = prepare_window ("cancel-target.img", "consistency", &options);
  /* Every place on the Compare page taken by a drive the person chose. */
  compare = duel_window_get_comparison_view (window);
  g_assert_nonnull (duel_comparison_view_get_item (compare, 0));
  for (guint slot = 0; slot < DUEL_COMPARISON_MAX_DRIVES; slot++)
    {
      /* (B may be empty too: the newest run may be one with nothing to pair.) */
      if (duel_comparison_view_get_item (compare, slot) == NULL)
        duel_comparison_view_set_item (compare, slot, duel_comparison_view_get_item (compare, 0));
      chosen[slot] = g_object_ref (duel_comparison_view_get_item (compare, slot));
    }
  /* The window read the history folder again as it opened. */
  n_before = g_list_model_get_n_items (duel_history_get_model (history));
  watch = start_run (window);

  duel_app_test_wait (run_measuring, watch, 60, "the run to measure a few intervals");
  /* The run page as it is drawn live, the chart from the growing record. */
  g_assert_cmpuint (duel_run_view_get_n_chart_updates (duel_window_get_run_view (window)), >, 0);
  g_free (duel_app_test_screenshot (window, "run"));

  /* While it runs: its step, a time left once the rate is known, Stop. */
  assert_run_page (window, "Running on", NULL, "", NULL, TRUE);

  /* The bar as the run shows it at the stop: where "Stopped at" stays
   * (no main-loop turn comes between this and the stop). */
  {
    g_autofree char *text = duel_run_view_describe (duel_window_get_run_view (window));
    g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

    percent_at_stop = (int) g_ascii_strtoll (lines[2], NULL, 10);
  }
  cancelled_us = g_get_monotonic_time ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-run", NULL));
  g_assert_cmpint (duel_run_get_state (watch->task), ==, DUEL_RUN_STATE_STOPPING);
  assert_run_page (window, "Stopping the run on", "Stopping — the I/O in flight is finishing…", "", "–", TRUE);
  duel_app_test_wait (run_finished, window, 10, "the cancelled run to end");
  stopped_us = g_get_monotonic_time ();

  /* Nothing measured was lost. How fast the stop is, is logged, not
   * asserted: a wall-clock bound would make the verdict depend on the load. */
  g_test_message ("Cancel took %.0f ms", (stopped_us - cancelled_us) / 1000.0);
  record = g_ptr_array_index (duel_result_get_tests (duel_run_get_result (watch->task)), 0);
  /* Stopped by the cancel, not by the end of its minute: "cancelled" is
   * only set when the engine saw the cancel before its runtime ended. */
  g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_CANCELLED);
  g_assert_cmpuint (duel_series_get_length (record->series), >=, 3);

  /* The Run page says it stopped, with no time left, and stays so. */
  g_assert_cmpint (duel_run_get_state (watch->task), ==, DUEL_RUN_STATE_STOPPED);
  assert_run_page (window, "Stopped on", "Stopped; what was measured is kept.", "Stopped at", "–", FALSE);
  /* At the percentage it showed, not the estimate of the whole asked again
   * at the stop (it jumped from 9 % to 34 %). */
  {
    g_autofree char *text = duel_run_view_describe (duel_window_get_run_view (window));
    g_autofree char *expected = g_strdup_printf ("Stopped at %d %%", percent_at_stop);

    g_assert_nonnull (strstr (text, expected));
  }
  duel_app_test_spin (1500);
  assert_run_page (window, "Stopped on", "Stopped; what was measured is kept.", "Stopped at", "–", FALSE);

  g_assert_cmpuint (g_list_model_get_n_items (duel_history_get_model (history)), ==, n_before + 1);
  item = g_list_model_get_item (duel_history_get_model (history), 0);
  path = g_file_get_path (duel_result_item_get_file (item));
  reloaded = duel_result_load (path, &error);
  g_assert_no_error (error);
  record = g_ptr_array_index (duel_result_get_tests (reloaded), 0);
  g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_CANCELLED);
  g_assert_cmpuint (duel_series_get_length (record->series), >=, 3);
  g_assert_false (duel_application_is_inhibited (app));

  /* The stopped run took no one's place; Compare asks whose it takes. */
  for (guint slot = 0; slot < DUEL_COMPARISON_MAX_DRIVES; slot++)
    g_assert_true (duel_comparison_view_get_item (compare, slot) == chosen[slot]);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.compare-run", NULL));
  duel_app_test_wait (message_dialog_shown, NULL, 10, "the question which drive to replace");
  dialog = find_message_dialog ();
  g_assert_true (duel_alert_has_response (dialog, "3"));
  duel_alert_respond (dialog, "3");
  for (guint slot = 0; slot + 1 < DUEL_COMPARISON_MAX_DRIVES; slot++)
    g_assert_true (duel_comparison_view_get_item (compare, slot) == chosen[slot]);
  g_assert_true (duel_result_item_get_result (duel_comparison_view_get_item (compare, 3)) ==
                 duel_run_get_result (watch->task));
  g_assert_cmpstr (duel_window_get_page (window), ==, "compare");
  for (guint slot = 0; slot < DUEL_COMPARISON_MAX_DRIVES; slot++)
    g_clear_object (&chosen[slot]);

  /* Run again repeats this run's plan, not what the Presets page shows now. */
  {
    NewRun new_run = { window, watch->task };
    DuelPreset *again;
    const DuelPresetOptions *again_options;

    g_assert_true (duel_presets_view_set_preset_name (duel_window_get_presets_view (window), "quick"));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run-again", NULL));
    duel_app_test_wait (new_run_started_or_refused, &new_run, 10, "the run to start again");
    again = duel_run_get_preset (duel_window_get_run_task (window));
    g_assert_nonnull (again);
    g_assert_cmpstr (duel_preset_get_name (again), ==, "consistency");
    again_options = duel_preset_get_options (again);
    g_assert_cmpuint (again_options->runtime_ms, ==, 60000);
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-run", NULL));
    duel_app_test_wait (run_finished, window, 10, "the second run to stop");
  }

  g_free (watch);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* --- the live view follows the step ----------------------------------------- */

typedef enum
{
  LIVE_TRIM,
  LIVE_WRITE_CURVE,
  LIVE_INTERVALS,
  LIVE_QOS,
  LIVE_STANDARD,
  N_LIVE
} LiveKind;

typedef struct
{
  DuelRun        *task;
  DuelRunView    *view;
  /* What the last "progress" showed, checked when its step ends. */
  guint           index;
  char           *name;
  DuelTestRecord *record;     /* the step's live record (a ref); NULL for a trim */
  gboolean        seen;
  guint           n_checked[N_LIVE];
  guint           n_with_data[N_LIVE];
  guint           n_passes;   /* snapshots that showed a fill's two passes */
} LiveWatch;

/* The test's own table, from the record names the quick review gives: the
 * app must get the same from the step descriptors. */
static LiveKind
expected_kind (const char *name,
               gboolean    trim)
{
  if (trim)
    return LIVE_TRIM;
  if (g_strcmp0 (name, "wsat-fill") == 0)
    return LIVE_WRITE_CURVE;
  if (g_str_has_prefix (name, "qos-"))
    return LIVE_QOS;
  if (g_str_has_prefix (name, "std-"))
    return LIVE_STANDARD;
  return LIVE_INTERVALS;   /* the read score, consistency */
}

static gboolean
histograms_empty (const DuelTestRecord *record)
{
  return record->latency[DUEL_DIRECTION_READ]->count == 0 && record->latency[DUEL_DIRECTION_WRITE]->count == 0;
}

/* The Run page as the step @watch saw last ends: its chart is the step's
 * kind, and never an empty one. */
static void
check_live_view (LiveWatch *watch,
                 const char *when)
{
  DuelChart *chart = duel_run_view_get_chart (watch->view);
  gboolean shown = duel_run_view_get_chart_shown (watch->view);
  LiveKind kind = expected_kind (watch->name, watch->record == NULL);
  guint rows = watch->record != NULL ? duel_series_get_length (watch->record->series) : 0;
  g_autofree char *title = chart != NULL ? duel_chart_get_title (chart) : NULL;

  g_test_message ("%s: step %u %s, %u rows: chart “%s”, %s", when, watch->index + 1, watch->name, rows,
                  title != NULL ? title : "(none)", shown ? "shown" : "waiting line");

  /* Shown means it has data: "These results hold no data" never appears. */
  if (shown)
    {
      g_assert_nonnull (chart);
      g_assert_true (duel_chart_has_data (chart));
    }
  watch->n_checked[kind]++;
  if (kind == LIVE_TRIM)
    return;

  /* The tiles belong to the step. */
  {
    g_autofree char *step_title = duel_review_describe_record (watch->name);
    g_assert_cmpstr (duel_run_view_get_stats_title (watch->view), ==, step_title);
  }

  g_assert_nonnull (chart);
  switch (kind)
    {
    case LIVE_WRITE_CURVE:
      g_assert_true (DUEL_IS_CHART_WRITE_CURVE (chart));
      g_assert_cmpstr (title, ==, "4K random write: IOPS while filling the drive");
      break;
    case LIVE_INTERVALS:
      g_assert_true (DUEL_IS_CHART_CONSISTENCY (chart));
      g_assert_cmpstr (title, ==, "IOPS per interval");
      break;
    case LIVE_QOS:
      g_assert_true (DUEL_IS_CHART_QOS (chart));
      g_assert_cmpstr (title, ==, "Quality of service: latency by percentile");
      /* At the step's own queue depth, mixed for the mix. */
      g_assert_cmpuint (duel_chart_qos_get_queue_depth (DUEL_CHART_QOS (chart)), ==,
                        watch->record->workload.queue_depth);
      g_assert_true (duel_chart_qos_get_mixed (DUEL_CHART_QOS (chart)) ==
                     duel_workload_is_mixed (&watch->record->workload));
      break;
    case LIVE_STANDARD:
      g_assert_true (DUEL_IS_CHART_STANDARD (chart));
      g_assert_true (g_str_has_prefix (title, "Standard set: sequential "));
      break;
    case LIVE_TRIM:
    case N_LIVE:
    default:
      g_assert_not_reached ();
    }

  /* Two intervals in, the chart has data and shows it: a QoS step's too,
   * whose live record carries the latencies so far (the run copies its
   * histograms into the snapshot at each closed interval). */
  if (rows >= 2)
    {
      if (kind == LIVE_QOS)
        g_assert_false (histograms_empty (watch->record));
      g_assert_true (shown);
      g_assert_true (duel_chart_has_data (chart));
      watch->n_with_data[kind]++;
    }
}

static void
live_step_started_cb (DuelRun    *task,
                      guint       index,
                      guint       n_steps,
                      const char *name,
                      double      fraction,
                      LiveWatch  *watch)
{
  /* The page has not seen this snapshot yet: it still shows the step before. */
  if (watch->seen)
    check_live_view (watch, "Step ended");
}

static void
live_progress_cb (DuelRun   *task,
                  LiveWatch *watch)
{
  const DuelRunStatus *status = duel_run_get_status (task);
  DuelPreset *preset = duel_run_get_preset (task);
  DuelChart *chart = duel_run_view_get_chart (watch->view);
  gboolean trim;

  /* Between steps as well: a chart shown is never an empty one. */
  if (duel_run_view_get_chart_shown (watch->view))
    g_assert_true (chart != NULL && duel_chart_has_data (chart));
  /* A fill's two passes under the bar, in the words the CLI prints. */
  {
    g_autofree char *page = duel_run_view_describe (watch->view);
    g_auto(GStrv) lines = g_strsplit (page, "\n", -1);
    g_autofree char *passes = status->state == DUEL_RUN_STATE_RUNNING && status->eta_seconds >= 0 &&
                              status->has_passes ? duel_run_format_passes (&status->passes) : NULL;

    g_assert_cmpuint (g_strv_length (lines), ==, 6);
    g_assert_cmpstr (lines[4], ==, passes != NULL ? passes : "");
    watch->n_passes += passes != NULL;
  }
  if (status->state != DUEL_RUN_STATE_RUNNING)
    return;

  trim = duel_preset_get_step (preset, status->test_index)->kind == DUEL_PRESET_STEP_DISCARD;
  watch->index = status->test_index;
  g_free (watch->name);
  watch->name = g_strdup (status->test_name);
  g_clear_pointer (&watch->record, duel_test_record_unref);
  if (!trim && duel_run_get_live_record (task) != NULL)
    watch->record = duel_test_record_ref (duel_run_get_live_record (task));
  watch->seen = TRUE;
}

static gboolean
summary_shown (gpointer user_data)
{
  g_autofree char *summary = duel_run_view_describe_summary (DUEL_RUN_VIEW (user_data));

  return summary != NULL;
}

static void
test_live_view_follows_step (void)
{
  DuelPresetOptions options;
  DuelWindow *window;
  Watch *watch;
  LiveWatch live = { 0 };
  g_autofree char *summary = NULL;
  g_auto(GStrv) lines = NULL;
  GtkWidget *compare, *again;

  duel_app_test_small_options (&options);
  /* A fill of two passes (16 MiB each), whose passes the page shows. */
  options.capacity_multiple = 2.0;
  /* As narrow as the window goes (it was seen at 676 px, where the tiles'
   * captions lost their ends): it takes its smallest width, 666 px here. */
  next_window_width = 360;
  window = prepare_window ("live-target.img", "quick", &options);
  /* Every step, the trim's instant too, reaches the page as the current
   * one: under load the main loop can miss a short step otherwise (the
   * gate failed so once, a kind with no step checked). */
  duel_window_set_show_every_step (window, TRUE);
  watch = start_run (window);
  live.task = watch->task;
  live.view = duel_window_get_run_view (window);
  /* After the page's own handlers: at "progress" it has drawn the snapshot. */
  g_signal_connect (watch->task, "step-started", G_CALLBACK (live_step_started_cb), &live);
  g_signal_connect (watch->task, "progress", G_CALLBACK (live_progress_cb), &live);

  duel_app_test_wait (run_finished, window, 300, "the quick review to finish");
  duel_app_test_wait (summary_shown, live.view, 30, "the run's summary");
  g_assert_cmpint (duel_run_get_state (watch->task), ==, DUEL_RUN_STATE_FINISHED);

  /* The last step, drawn again from the run's result. */
  check_live_view (&live, "After the run");
  g_assert_true (duel_run_view_get_chart_shown (live.view));

  /* Every kind of live view was walked through, the fill's trim too. */
  for (guint k = 0; k < N_LIVE; k++)
    {
      g_test_message ("Live view %u: %u steps checked, %u with data", k, live.n_checked[k], live.n_with_data[k]);
      g_assert_cmpuint (live.n_checked[k], >, 0);
    }
  g_assert_cmpuint (live.n_with_data[LIVE_WRITE_CURVE] + live.n_with_data[LIVE_INTERVALS] +
                    live.n_with_data[LIVE_STANDARD], >, 0);
  /* The latency view drew a live distribution at least once. */
  g_assert_cmpuint (live.n_with_data[LIVE_QOS], >, 0);
  /* The fill showed its two passes, unless its file is in memory (no
   * garbage collection to come). */
  g_test_message ("The fill's passes were shown in %u snapshots", live.n_passes);
  if (duel_run_eta_device_is_flash (duel_result_get_device (duel_run_get_result (watch->task))))
    g_assert_cmpuint (live.n_passes, >, 0);

  /* The run in the narrowest window the page allows (checked by the
   * narrow-window test); the captions' layout there is not asserted: a
   * caption read right after its text changed can still hold the old
   * allocation, and the gate failed on that once. */
  gtk_test_widget_wait_for_draw (GTK_WIDGET (window));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 700);

  /* After Finish: the headline figures and the way on. */
  summary = duel_run_view_describe_summary (live.view);
  g_test_message ("Summary:\n%s", summary);
  lines = g_strsplit (summary, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >=, 2);
  g_assert_nonnull (strchr (lines[0], '\t'));
  compare = duel_run_view_get_compare_button (live.view);
  again = duel_run_view_get_run_again_button (live.view);
  g_assert_true (gtk_widget_is_visible (compare) && gtk_widget_is_sensitive (compare));
  g_assert_true (gtk_widget_is_visible (again) && gtk_widget_is_sensitive (again));

  /* Compare opens the run on the Compare page. */
  g_assert_true (gtk_widget_activate_action (compare, "win.compare-run", NULL));
  g_assert_cmpstr (duel_window_get_page (window), ==, "compare");

  g_signal_handlers_disconnect_by_data (watch->task, &live);
  g_clear_pointer (&live.record, duel_test_record_unref);
  g_free (live.name);
  g_free (watch);
  gtk_window_destroy (GTK_WINDOW (window));
  /* Warnings fatal again, as G_DEBUG=fatal-warnings has them. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
}

/* --- a destructive run on a loop device (root only) ------------------------ */

/* The confirmation shown, other than one already answered (an AdwDialog
 * stays while its closing animation runs). */
static DuelConfirmDialog *answered;

static DuelConfirmDialog *
find_confirm_dialog (void)
{
  GtkWidget *found = duel_dialog_find_shown (DUEL_TYPE_CONFIRM_DIALOG);

  return found != NULL && (gpointer) found != (gpointer) answered ? DUEL_CONFIRM_DIALOG (found) : NULL;
}

static gboolean
confirm_dialog_shown (gpointer user_data)
{
  return find_confirm_dialog () != NULL;
}

typedef struct
{
  DuelDrivesView *view;
  const char     *path;
} FindDrive;

static DuelDriveItem *
lookup_drive (DuelDrivesView *view,
              const char     *path)
{
  GListModel *model = duel_drives_view_get_model (view);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(DuelDriveItem) item = g_list_model_get_item (model, i);

      if (g_strcmp0 (duel_drive_item_get_path (item), path) == 0)
        return item;
    }
  return NULL;
}

static gboolean
drive_listed (gpointer user_data)
{
  FindDrive *find = user_data;

  return lookup_drive (find->view, find->path) != NULL;
}

/* Confirms @dialog by typing what it asks for, as a user would. */
static void
type_and_confirm (DuelConfirmDialog *dialog)
{
  GtkEditable *entry = duel_confirm_dialog_get_entry (dialog);

  g_assert_false (duel_alert_get_response_enabled (DUEL_ALERT (dialog), DUEL_CONFIRM_RESPONSE_ERASE));
  gtk_editable_set_text (entry, duel_confirm_dialog_get_expected_text (dialog));
  g_assert_true (duel_alert_get_response_enabled (DUEL_ALERT (dialog), DUEL_CONFIRM_RESPONSE_ERASE));
  /* Weak: the answered dialog is gone at once before libadwaita 1.6. */
  g_set_weak_pointer (&answered, dialog);
  g_signal_emit_by_name (entry, "activate");
}

/* The child process: the GUI part, on the loop device the parent set up. */
static void
destructive_run_child (const char *device,
                       gboolean    with_signature)
{
  DuelPresetOptions options;
  DuelWindow *window = duel_window_new (app);
  DuelDrivesView *drives = duel_window_get_drives_view (window);
  g_autofree char *name = g_path_get_basename (device);
  FindDrive find = { drives, device };
  DuelConfirmDialog *dialog;
  const char *body;
  Watch *watch;

  gtk_window_present (GTK_WINDOW (window));
  duel_app_test_wait (duel_app_test_not_busy, window, 30, "the window to load");
  duel_app_test_wait (drive_listed, &find, 10, "the loop device in the drives list");
  duel_drives_view_set_selected (drives, lookup_drive (drives, device));

  duel_app_test_small_options (&options);
  g_assert_true (duel_presets_view_set_preset_name (duel_window_get_presets_view (window), "quick"));
  duel_presets_view_set_options (duel_window_get_presets_view (window), &options);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.start-run", NULL));
  duel_app_test_wait (confirm_dialog_shown, NULL, 20, "the confirmation");

  /* The first confirmation names the device and what is erased: the whole
   * drive, its serial number (a file's wording is for files alone). */
  dialog = find_confirm_dialog ();
  body = duel_alert_get_body (DUEL_ALERT (dialog));
  g_assert_nonnull (strstr (body, device));
  g_assert_nonnull (strstr (body, "writes over the whole drive"));
  g_assert_nonnull (strstr (body, "partitions and filesystems"));
  g_assert_nonnull (strstr (body, "Serial number: "));
  g_assert_nonnull (strstr (body, "type the device name"));
  g_assert_null (strstr (body, "this file"));
  g_assert_cmpstr (duel_confirm_dialog_get_expected_text (dialog), ==, name);
  g_assert_null (duel_window_get_run_task (window));
  type_and_confirm (dialog);

  if (with_signature)
    {
      /* A filesystem is there: a second, explicit confirmation naming it. */
      duel_app_test_wait (confirm_dialog_shown, NULL, 20, "the second confirmation");
      dialog = find_confirm_dialog ();
      g_assert_nonnull (strstr (duel_alert_get_body (DUEL_ALERT (dialog)), "ext4"));
      g_assert_null (duel_window_get_run_task (window));
      /* Declining it starts nothing. */
      duel_alert_respond (DUEL_ALERT (dialog), DUEL_CONFIRM_RESPONSE_CANCEL);
      duel_app_test_spin (300);
      g_assert_null (duel_window_get_run_task (window));
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }

  duel_app_test_wait (run_started_or_refused, window, 20, "the run to start");
  g_assert_nonnull (duel_window_get_run_task (window));
  watch = g_new0 (Watch, 1);
  watch->task = duel_window_get_run_task (window);
  duel_app_test_wait (run_finished, window, 300, "the run on the loop device");
  {
    DuelResult *result = duel_run_get_result (watch->task);
    DuelTestRecord *record = g_ptr_array_index (duel_result_get_tests (result), 0);
    JsonObject *identity = duel_result_get_device (result);

    g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_COMPLETE);
    g_assert_cmpint (duel_result_get_target (result)->kind, ==, DUEL_TARGET_KIND_BLOCK);
    g_assert_nonnull (identity);
    g_assert_cmpstr (json_object_get_string_member_with_default (identity, "device_name", ""), ==, name);
  }
  g_free (watch);
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
run_command (const char  *command,
             char       **out_stdout)
{
  int status = -1;

  if (!g_spawn_command_line_sync (command, out_stdout, NULL, &status, NULL))
    return FALSE;
  return g_spawn_check_wait_status (status, NULL);
}

/* An existing file as a target, smaller than the size for new files: it is
 * shown with its own size, the run asks before writing over what it holds,
 * and the file keeps its size (it used to grow to the preference). */
static void
test_existing_file_keeps_size (void)
{
  const gsize size = 256 * 1024 * 1024;
  g_autofree char *path = g_build_filename (scratch_dir, "existing-256m.img", NULL);
  /* In the unit it was made in. */
  const char *shown = "256\u00a0MiB";
  g_autofree char *data = g_strnfill (1024 * 1024, 'x');
  DuelPresetOptions options;
  DuelDriveItem *drive;
  DuelConfirmDialog *dialog;
  DuelWindow *window;
  GStatBuf st;
  int fd;

  /* Someone's data at its start, then a hole to 256 MiB. */
  fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, data, strlen (data)), ==, (gssize) strlen (data));
  g_assert_cmpint (ftruncate (fd, size), ==, 0);
  g_assert_true (g_close (fd, NULL));

  duel_app_test_small_options (&options);
  window = prepare_window ("existing-256m.img", "consistency", &options);
  drive = duel_drives_view_get_selected (duel_window_get_drives_view (window));
  g_assert_cmpuint (duel_drive_item_get_size_bytes (drive), ==, size);
  g_assert_cmpuint (duel_drive_item_get_create_size (drive), ==, 0);
  g_assert_nonnull (strstr (duel_drive_item_get_subtitle (drive), shown));
  /* The filesystem as the mount table (findmnt) names it: "ext4", not GIO's "ext3/ext4". */
  {
    g_autofree char *target = g_build_filename (scratch_dir, "existing-256m.img", NULL);
    const char *argv[] = { "findmnt", "-n", "-o", "FSTYPE", "-T", target, NULL };
    g_autofree char *fstype = NULL;
    int status = 0;

    if (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                      &fstype, NULL, &status, NULL) && status == 0)
      {
        g_autofree char *expected = g_strdup_printf (" · %s · ", g_strstrip (fstype));

        g_test_message ("%s", duel_drive_item_get_subtitle (drive));
        g_assert_nonnull (strstr (duel_drive_item_get_subtitle (drive), expected));
      }
  }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.start-run", NULL));
  duel_app_test_wait (confirm_dialog_shown, NULL, 20, "the confirmation to write over the file");
  dialog = find_confirm_dialog ();
  g_assert_null (duel_window_get_run_task (window));
  /* It speaks of the file: its contents are lost, its path and size, its name to type. */
  {
    const char *body = duel_alert_get_body (DUEL_ALERT (dialog));

    g_test_message ("%s", body);
    g_assert_nonnull (strstr (body, "writes over the contents of this file"));
    g_assert_nonnull (strstr (body, path));
    g_assert_nonnull (strstr (body, shown));
    g_assert_nonnull (strstr (body, "type the file name"));
    g_assert_null (strstr (body, "drive and destroys"));
    g_assert_null (strstr (body, "partitions"));
    g_assert_null (strstr (body, "Device"));
    g_assert_null (strstr (body, "Serial number"));
    g_assert_cmpstr (duel_confirm_dialog_get_expected_text (dialog), ==, "existing-256m.img");
  }
  type_and_confirm (dialog);
  duel_app_test_wait (run_started_or_refused, window, 20, "the run to start");
  g_assert_nonnull (duel_window_get_run_task (window));
  duel_app_test_wait (run_finished, window, 120, "the run on the existing file");
  g_assert_cmpint (duel_run_get_state (duel_window_get_run_task (window)), ==, DUEL_RUN_STATE_FINISHED);

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpuint (st.st_size, ==, size);
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
}

static void
test_destructive_loop_device (gconstpointer data)
{
  gboolean with_signature = GPOINTER_TO_INT (data);
  g_autofree char *image = NULL;
  g_autofree char *command = NULL;
  g_autofree char *device = NULL;
  g_autofree char *child_path = NULL;
  g_autofree char *losetup = NULL;
  g_autofree char *mkfs = NULL;

  if (g_test_subprocess ())
    {
      destructive_run_child (g_getenv ("DRIVEDUEL_TEST_LOOP"), with_signature);
      return;
    }

  losetup = g_find_program_in_path ("losetup");
  mkfs = g_find_program_in_path ("mkfs.ext4");
  if (geteuid () != 0 || losetup == NULL)
    {
      g_test_skip ("needs root and losetup for a loop device");
      return;
    }
  if (with_signature && mkfs == NULL)
    {
      g_test_skip ("needs mkfs.ext4");
      return;
    }

  image = g_build_filename (scratch_dir, with_signature ? "loop-ext4.img" : "loop.img", NULL);
  command = g_strdup_printf ("truncate -s 48M '%s'", image);
  g_assert_true (run_command (command, NULL));
  if (with_signature)
    {
      g_free (command);
      command = g_strdup_printf ("mkfs.ext4 -q -F '%s'", image);
      g_assert_true (run_command (command, NULL));
    }
  g_free (command);
  command = g_strdup_printf ("losetup --find --show '%s'", image);
  if (!run_command (command, &device))
    {
      g_test_skip ("no free loop device");
      return;
    }
  g_strstrip (device);

  /* The GUI runs in a child, so the device is detached whatever happens there. */
  g_setenv ("DRIVEDUEL_TEST_LOOP", device, TRUE);
  child_path = g_strdup_printf ("%s/subprocess", g_test_get_path ());
  g_test_trap_subprocess (NULL, 600 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDOUT |
                                                      G_TEST_SUBPROCESS_INHERIT_STDERR);

  g_free (command);
  command = g_strdup_printf ("losetup -d '%s'", device);
  run_command (command, NULL);
  g_unlink (image);
  g_test_trap_assert_passed ();
}

/* --- Stop on a device that does not answer ---------------------------------- */

static gboolean
widget_is_row_titled (GtkWidget  *widget,
                      const char *title)
{
  return ADW_IS_PREFERENCES_ROW (widget) &&
         g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0;
}

/* The first widget under @root, @root included, of @type or titled @title. */
static GtkWidget *
find_under (GtkWidget  *root,
            GType       type,
            const char *title)
{
  if ((title != NULL && widget_is_row_titled (root, title)) ||
      (title == NULL && G_TYPE_CHECK_INSTANCE_TYPE (root, type)))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_under (child, type, title);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The Run page's step line (what a stop waits for). */
static char *
run_page_step_line (DuelWindow *window)
{
  g_autofree char *text = duel_run_view_describe (duel_window_get_run_view (window));
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  return g_strdup (g_strv_length (lines) > 1 ? lines[1] : "");
}

static gboolean
says_device_waits (gpointer user_data)
{
  g_autofree char *line = run_page_step_line (user_data);

  return g_str_has_prefix (line, "The device has not answered ");
}

static gboolean
run_ended (gpointer user_data)
{
  DuelRun *task = duel_window_get_run_task (user_data);

  return task != NULL && !duel_run_is_running (task);
}

/* The model that holds this process's I/O: killed should the test die
 * (an assertion, a timeout's TERM), or its exit would wait for ever on the
 * answer to closing the served file. */
static volatile pid_t hung_model_pid;

static void
kill_hung_model_cb (int sig)
{
  if (hung_model_pid > 0)
    kill (hung_model_pid, SIGKILL);
  signal (sig, SIG_DFL);
  raise (sig);
}

/* Serves the simulated SSD ($DUEL_SSD_MODEL, $DUEL_SSD_MODEL_SH) at
 * @mount with the model's @options, killed should the test die; its pid,
 * or 0 with the test skipped where it was not built or FUSE is not here. */
static GPid
model_start (const char *mount,
             const char *options)
{
  const char *model = g_getenv ("DUEL_SSD_MODEL");
  const char *script = g_getenv ("DUEL_SSD_MODEL_SH");
  g_autofree char *pid_file = g_strconcat (mount, ".pid", NULL);
  g_autofree char *command = NULL;
  g_autofree char *pid_text = NULL;

  if (model == NULL || *model == '\0' || script == NULL)
    {
      g_test_skip ("the simulated SSD was not built (no libfuse3)");
      return 0;
    }
  command = g_strdup_printf ("'%s' have-fuse", script);
  if (!run_command (command, NULL))
    {
      g_test_skip ("no FUSE here");
      return 0;
    }
  g_free (command);
  command = g_strdup_printf ("env DUEL_SSD_MODEL='%s' '%s' start '%s' %s", model, script, mount, options);
  g_assert_true (run_command (command, NULL));
  g_assert_true (g_file_get_contents (pid_file, &pid_text, NULL, NULL));
  hung_model_pid = (GPid) g_ascii_strtoll (pid_text, NULL, 10);
  g_assert_cmpint (hung_model_pid, >, 0);
  signal (SIGABRT, kill_hung_model_cb);
  signal (SIGTRAP, kill_hung_model_cb);
  signal (SIGTERM, kill_hung_model_cb);
  signal (SIGSEGV, kill_hung_model_cb);
  return hung_model_pid;
}

/* Ends the model at @mount with ssd-model.sh's @how: "stop" (unmounted,
 * then stopped) or "abandon" (detached lazily, stopped at once: a file
 * this process keeps open). */
static void
model_end (const char *mount,
           const char *how)
{
  g_autofree char *command = g_strdup_printf ("env DUEL_SSD_MODEL='%s' '%s' %s '%s'", g_getenv ("DUEL_SSD_MODEL"),
                                              g_getenv ("DUEL_SSD_MODEL_SH"), how, mount);

  g_assert_true (run_command (command, NULL));
  hung_model_pid = 0;
  signal (SIGABRT, SIG_DFL);
  signal (SIGTRAP, SIG_DFL);
  signal (SIGTERM, SIG_DFL);
  signal (SIGSEGV, SIG_DFL);
}

/* Whether the model holds at least one request of the run (its --hold-file). */
static gboolean
model_holds_requests (gpointer user_data)
{
  g_autofree char *text = NULL;

  return g_file_get_contents (user_data, &text, NULL, NULL) && g_ascii_strtoull (text, NULL, 10) > 0;
}

/* The simulated SSD served through FUSE ($DUEL_SSD_MODEL,
 * $DUEL_SSD_MODEL_SH) stops answering mid-run (SIGUSR1: it takes every
 * request and completes none, a drive that hangs; a stopped process would
 * leave requests the kernel had not handed over yet for the stop to
 * cancel, so what the test saw would depend on the host's load): Stop
 * waits for the I/O in flight; once the device has not answered for 2 s
 * the Run page says so and Stop can be pressed again, which ends the wait
 * at once, the run stopped and what it measured kept. */
static void
test_stop_hung_device (void)
{
  g_autofree char *mount = g_build_filename (scratch_dir, "hung", NULL);
  g_autofree char *hold_file = g_strconcat (mount, ".held", NULL);
  g_autofree char *options_text = NULL;
  g_autofree char *line = NULL;
  DuelPresetOptions options;
  DuelTestRecord *record;
  DuelWindow *window;
  Watch *watch;
  GPid model_pid;
  guint rows;

  options_text = g_strdup_printf ("--shape flat --capacity 64m --hold-file '%s'", hold_file);
  model_pid = model_start (mount, options_text);
  if (model_pid == 0)
    return;

  /* Reads only: the served file holds data Drive Duel did not write. */
  duel_app_test_small_options (&options);
  options.span_bytes = 0;
  options.runtime_ms = 600000;
  window = prepare_window ("hung/ssd.img", "custom", &options);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (find_under (find_under (GTK_WIDGET (duel_window_get_presets_view (window)),
                                                                      G_TYPE_NONE, "_Reads (%)"),
                                                          GTK_TYPE_SPIN_BUTTON, NULL)),
                             100);
  watch = start_run (window);
  duel_app_test_wait (run_measuring, watch, 60, "the run to measure a few intervals");

  g_assert_cmpint (kill (model_pid, SIGUSR1), ==, 0);
  /* Stop once the device holds some of the run's I/O. */
  duel_app_test_wait (model_holds_requests, hold_file, 60, "the model to hold the run's requests");
  rows = duel_series_get_length (duel_run_get_live_record (watch->task)->series);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-run", NULL));
  g_assert_cmpint (duel_run_get_state (watch->task), ==, DUEL_RUN_STATE_STOPPING);
  /* A cap only for a hung test: the line comes 2 s after the last answer. */
  duel_app_test_wait (says_device_waits, window, 120, "the Run page to say what the stop waits for");
  line = run_page_step_line (window);
  g_test_message ("Run page: %s", line);
  g_assert_nonnull (strstr (line, "Stop again to stop without waiting"));

  /* Stop again: the wait ends with the server still stopped. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-run", NULL));
  duel_app_test_wait (run_ended, window, 120, "the run to stop without waiting");
  g_assert_cmpint (duel_run_get_state (watch->task), ==, DUEL_RUN_STATE_STOPPED);
  g_assert_cmpuint (duel_run_get_abandoned (watch->task), >, 0);
  record = g_ptr_array_index (duel_result_get_tests (duel_run_get_result (watch->task)), 0);
  g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_CANCELLED);
  g_assert_cmpuint (duel_series_get_length (record->series), >=, rows);
  assert_run_page (window, "Stopped on", "Stopped; what was measured is kept.", "Stopped at", "–", FALSE);

  /* The run kept its descriptor, so the mount stays busy while this process
   * lives: detached lazily, the model stopped at once. */
  model_end (mount, "abandon");
  g_free (watch);
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
confirm_or_started (gpointer user_data)
{
  return find_confirm_dialog () != NULL || run_started_or_refused (user_data);
}

static gboolean
rows_at_least_20 (gpointer user_data)
{
  DuelRun *task = user_data;
  DuelTestRecord *live = duel_run_get_live_record (task);

  return !duel_run_is_running (task) ||
         (live != NULL && g_str_equal (live->name, "seqw-fill") && duel_series_get_length (live->series) >= 20);
}

/* The sustained sequential write from the window on the simulated SSD
 * through FUSE: a TLC drive of 256 MiB with a pseudo-SLC cache, its times
 * x30 (about 110 MB/s in the cache, 45 after it, slower while folding; a
 * few seconds in all), written once after the confirmation to write over
 * the served file. The live chart is drawn from the growing record (a
 * screenshot once it has 20 rows), and the finished write finds the cache
 * running out. */
static void
test_run_sequential_write_on_model (void)
{
  g_autofree char *mount = g_build_filename (scratch_dir, "seqw", NULL);
  DuelPresetOptions options;
  DuelTestRecord *record;
  DuelWindow *window;
  Watch *watch;
  double cache_gb, cache_mbps, after_mbps;

  if (model_start (mount, "--shape slc-tlc --capacity 256m --t-prog-cache-us 300 --t-prog-us 750 "
                          "--t-read-us 240 --t-erase-us 30000") == 0)
    return;

  duel_app_test_small_options (&options);
  options.span_bytes = 0;
  options.interval_ms = 1000;
  window = prepare_window ("seqw/ssd.img", "sequential-write", &options);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.start-run", NULL));
  /* The served file reads as zeros until written: no data to confirm the
   * loss of, or a confirmation where the window finds some. */
  duel_app_test_wait (confirm_or_started, window, 20, "the run to start or a confirmation");
  if (find_confirm_dialog () != NULL)
    {
      type_and_confirm (find_confirm_dialog ());
      duel_app_test_wait (run_started_or_refused, window, 20, "the run to start");
    }
  watch = g_new0 (Watch, 1);
  watch->task = duel_window_get_run_task (window);
  if (watch->task == NULL && find_message_dialog () != NULL)
    g_test_message ("%s: %s", duel_alert_get_heading (DUEL_ALERT (find_message_dialog ())),
                    duel_alert_get_body (DUEL_ALERT (find_message_dialog ())));
  g_assert_nonnull (watch->task);

  duel_app_test_wait (rows_at_least_20, watch->task, 120, "20 rows of the sequential write");
  g_assert_true (duel_run_is_running (watch->task));
  g_assert_cmpuint (duel_run_view_get_n_chart_updates (duel_window_get_run_view (window)), >, 0);
  g_free (duel_app_test_screenshot (window, "run-sequential-write"));

  duel_app_test_wait (run_finished, window, 300, "the sequential write to finish");
  g_assert_cmpint (duel_run_get_state (watch->task), ==, DUEL_RUN_STATE_FINISHED);
  record = duel_result_find_test (duel_run_get_result (watch->task), "seqw-fill");
  g_assert_nonnull (record);
  /* Rows of 100 ms, whatever the interval asked (1 s). */
  g_assert_cmpuint (record->workload.interval_ms, ==, 100);
  cache_gb = duel_test_record_get_figure_value (record, "seqw_cache_gb");
  cache_mbps = duel_test_record_get_figure_value (record, "seqw_cache_mbps");
  after_mbps = duel_test_record_get_figure_value (record, "seqw_after_cache_mbps");
  g_test_message ("the cache ran out after %.3f GB: %.0f MB/s, then %.0f MB/s", cache_gb, cache_mbps, after_mbps);
  g_assert_true (isfinite (cache_gb) && cache_gb > 0);
  g_assert_cmpfloat (after_mbps, <, 0.75 * cache_mbps);

  g_free (watch);
  gtk_window_destroy (GTK_WINDOW (window));
  model_end (mount, "stop");
}

/* --- kill -9 of the GUI mid-run ------------------------------------------- */

#define KILL_CHILD_PATH "/duel/app/run/kill-9-child"

static gboolean
never (gpointer user_data)
{
  return FALSE;
}

/* The child: the window runs the consistency test for ten minutes, longer
 * than the child waits for its SIGKILL, so that what the parent finds is
 * always a run in progress, and says where its checkpoint and history
 * are; the parent kills it with SIGKILL. */
static void
test_kill_child (void)
{
  const char *report = g_getenv ("DRIVEDUEL_TEST_KILL_REPORT");
  DuelPresetOptions options;
  DuelWindow *window;
  Watch *watch;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  duel_app_test_small_options (&options);
  options.runtime_ms = 600000;
  window = prepare_window ("kill-target.img", "consistency", &options);
  watch = start_run (window);
  text = g_strdup_printf ("%s\n%s\n%s\n", duel_run_get_result_path (watch->task),
                          duel_history_get_directory (duel_application_get_history (app)),
                          scratch_dir);
  g_file_set_contents (report, text, -1, &error);
  g_assert_no_error (error);
  duel_app_test_wait (never, NULL, 480, "the parent's SIGKILL");
}

static gboolean
wait_for_rows (const char *path,
               guint       min_rows,
               guint       seconds)
{
  gint64 end = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < end)
    {
      g_autoptr(DuelResult) result = duel_result_load (path, NULL);

      if (result != NULL && duel_result_get_tests (result)->len > 0)
        {
          DuelTestRecord *record = g_ptr_array_index (duel_result_get_tests (result), 0);

          if (duel_series_get_length (record->series) >= min_rows)
            return TRUE;
        }
      g_usleep (100 * 1000);
    }
  return FALSE;
}

static void
history_reloaded_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  *(gboolean *) user_data = TRUE;
  duel_history_reload_finish (DUEL_HISTORY (object), result, &error);
  g_assert_no_error (error);
}

static void
test_kill_keeps_checkpoint (void)
{
  g_autofree char *report = g_build_filename (scratch_dir, "kill-report.txt", NULL);
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "DRIVEDUEL_TEST_KILL_REPORT", report, TRUE);
  const char *argv[] = { test_program, "-p", KILL_CHILD_PATH, NULL };
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelResult) result = NULL;
  g_autoptr(DuelHistory) history = NULL;
  g_autoptr(DuelResultItem) item = NULL;
  DuelTestRecord *record;
  GPid pid;
  int status = 0;
  gboolean reloaded = FALSE;
  gint64 end;

  g_spawn_async (NULL, (char **) argv, env, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, &error);
  g_assert_no_error (error);

  /* The child says where it checkpoints once its run has started. */
  end = g_get_monotonic_time () + 180 * G_USEC_PER_SEC;
  while (!g_file_get_contents (report, &text, NULL, NULL) && g_get_monotonic_time () < end)
    {
      if (waitpid (pid, &status, WNOHANG) == pid)
        g_error ("The GUI child exited before its run started (wait status %d)", status);
      g_usleep (100 * 1000);
    }
  if (text == NULL)
    {
      kill (pid, SIGKILL);
      waitpid (pid, &status, 0);
      g_error ("The GUI child did not start its run within 180 s");
    }
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >=, 3);

  /* Killed once a checkpoint holds a few seconds of rows (100 ms each). */
  if (!wait_for_rows (lines[0], 20, 180))
    {
      kill (pid, SIGKILL);
      waitpid (pid, &status, 0);
      g_error ("No checkpoint with 20 rows in %s within 180 s", lines[0]);
    }
  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_spawn_close_pid (pid);
  g_assert_true (WIFSIGNALED (status));
  g_assert_cmpint (WTERMSIG (status), ==, SIGKILL);

  /* The checkpoint loads: the run up to it, still "running". */
  result = duel_result_load (lines[0], &error);
  g_assert_no_error (error);
  g_assert_cmpuint (duel_result_get_tests (result)->len, ==, 1);
  record = g_ptr_array_index (duel_result_get_tests (result), 0);
  g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_RUNNING);
  g_assert_cmpuint (duel_series_get_length (record->series), >=, 20);
  g_assert_nonnull (duel_result_get_device (result));

  /* The app's history, read again as at the next start, lists it as interrupted. */
  history = duel_history_new (lines[1]);
  duel_history_reload_async (history, NULL, history_reloaded_cb, &reloaded);
  duel_app_test_wait (duel_app_test_state_set, &reloaded, 30, "the history to load");
  g_assert_cmpuint (g_list_model_get_n_items (duel_history_get_model (history)), ==, 1);
  item = g_list_model_get_item (duel_history_get_model (history), 0);
  g_test_message ("History row: %s — %s", duel_result_item_get_title (item),
                  duel_result_item_get_subtitle (item));
  g_assert_nonnull (strstr (duel_result_item_get_subtitle (item), _("interrupted")));
  g_assert_cmpuint (duel_series_get_length (((DuelTestRecord *) g_ptr_array_index (
                      duel_result_get_tests (duel_result_item_get_result (item)), 0))->series), >=, 20);
  g_unlink (report);
  /* What the killed child could not clean up: its target's folder. */
  test_dir_remove (lines[2]);
}

/* --- a test in rounds (SNIA PTS) -------------------------------------------- */

#define PTS_MAX_ROUNDS 6

typedef struct
{
  DuelRunView *view;
  gboolean     round_seen[PTS_MAX_ROUNDS + 1];
  guint        n_checked;
} RoundsWatch;

/* The figures a rounds line lists: "…, by round: 1: 85.2 µs · 2: 84.9 µs". */
static guint
count_round_figures (const char *line)
{
  const char *list = strstr (line, "by round:");
  guint n = 0;

  g_assert_nonnull (list);
  if (strstr (list, "none finished yet") != NULL)
    return 0;
  for (const char *p = list; (p = strchr (p, ':')) != NULL; p++)
    n++;
  /* "by round:" itself. */
  return n - 1;
}

/* "4 KiB random, 65 % reads, 35 % writes", the size as sizes are given. */
static char *
expected_cell (const DuelWorkload *workload)
{
  g_autofree char *size = duel_format_size_as_given (workload->block_size);

  return g_strdup_printf ("%s random, %u %% reads, %u %% writes", size, workload->read_percent,
                          100 - workload->read_percent);
}

/* After the page's own handler: what it shows of the round running. */
static void
rounds_progress_cb (DuelRun     *task,
                    RoundsWatch *watch)
{
  const DuelRunStatus *status = duel_run_get_status (task);
  DuelPreset *preset = duel_run_get_preset (task);
  const DuelPresetStep *step;
  g_autofree char *page = duel_run_view_describe_rounds (watch->view);
  g_auto(GStrv) lines = NULL;
  g_autofree char *cell = NULL;
  g_autofree char *expected = NULL;
  guint n_figures;

  if (status->state != DUEL_RUN_STATE_RUNNING || status->n_tests == 0)
    return;
  step = duel_preset_get_step (preset, status->test_index);
  if (step->round == 0)
    {
      /* The trim and the preconditioning come before the first round. */
      if (page != NULL)
        g_assert_true (g_str_has_prefix (page, "Before the rounds: at most 6 rounds follow."));
      return;
    }
  g_assert_nonnull (page);
  g_test_message ("Rounds: %s", page);
  lines = g_strsplit (page, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  cell = expected_cell (&step->workload);
  expected = g_strdup_printf ("Round %u of at most %u · %s", step->round, PTS_MAX_ROUNDS, cell);
  g_assert_cmpstr (lines[0], ==, expected);
  /* The figure of every round finished so far: at a round's first step,
   * exactly those before it (every step reaches the page as it begins). */
  n_figures = count_round_figures (lines[1]);
  g_assert_cmpuint (n_figures, ==, status->rounds.n_rounds);
  g_assert_cmpuint (n_figures, >=, step->round - 1);
  g_assert_cmpuint (n_figures, <=, step->round);
  if (!watch->round_seen[step->round])
    g_assert_cmpuint (n_figures, ==, step->round - 1);
  watch->round_seen[step->round] = TRUE;
  watch->n_checked++;
}

/* What the page showed while the drive rested. */
typedef struct
{
  DuelRunView *view;
  guint        idle_updates;
} IdleWatch;

/* After the page's own handler: an idle step's title counts down. */
static void
idle_progress_cb (DuelRun   *task,
                  IdleWatch *watch)
{
  const DuelRunStatus *status = duel_run_get_status (task);
  const char *title = duel_run_view_get_stats_title (watch->view);

  if (status->state != DUEL_RUN_STATE_RUNNING || status->n_tests == 0 ||
      duel_preset_get_step (duel_run_get_preset (task), status->test_index)->kind != DUEL_PRESET_STEP_IDLE ||
      status->engine.runtime_limit_ns == 0)
    return;
  g_test_message ("While idle: %s", title);
  g_assert_true (g_str_has_prefix (title, "Idle, 0:0"));
  g_assert_true (g_str_has_suffix (title, " left: no I/O while the drive recovers"));
  watch->idle_updates++;
}

static gboolean
idle_counting_down (gpointer user_data)
{
  return ((IdleWatch *) user_data)->idle_updates > 0;
}

/* Recovery after idle from the window: the periods typed on the preset's
 * page, a countdown while the drive rests, a burst after each. */
static void
test_run_recovery (void)
{
  DuelPresetOptions options, read_back;
  DuelWindow *window;
  Watch *watch;
  IdleWatch idle_watch = { 0 };
  g_autoptr(GError) error = NULL;
  DuelResult *result;
  GPtrArray *tests;

  duel_app_test_small_options (&options);
  options.n_idle = 2;
  options.idle_ms[0] = 1500;
  options.idle_ms[1] = 2500;
  window = prepare_window ("recovery-target.img", "recovery", &options);
  g_assert_true (duel_presets_view_get_options (duel_window_get_presets_view (window), &read_back, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (read_back.n_idle, ==, 2);
  g_assert_cmpuint (read_back.idle_ms[0], ==, 1500);
  g_assert_cmpuint (read_back.idle_ms[1], ==, 2500);

  duel_window_set_show_every_step (window, TRUE);
  watch = start_run (window);
  idle_watch.view = duel_window_get_run_view (window);
  g_signal_connect (watch->task, "progress", G_CALLBACK (idle_progress_cb), &idle_watch);
  /* The Run page while the drive rests, as drawn. */
  duel_app_test_wait (idle_counting_down, &idle_watch, 300, "the first idle's countdown");
  g_free (duel_app_test_screenshot (window, "run-recovery-idle"));
  duel_app_test_wait (run_finished, window, 300, "the recovery test to finish");
  g_assert_cmpint (duel_run_get_state (watch->task), ==, DUEL_RUN_STATE_FINISHED);
  g_assert_cmpuint (idle_watch.idle_updates, >, 0);

  result = duel_run_get_result (watch->task);
  tests = duel_result_get_tests (result);
  /* The fresh burst, the fill, then after each idle the sequential write
   * until it slows and a burst. */
  g_assert_cmpuint (tests->len, ==, 6);
  for (guint k = 0; k < options.n_idle; k++)
    {
      DuelTestRecord *cache = g_ptr_array_index (tests, 2 + 2 * k);
      DuelTestRecord *burst = g_ptr_array_index (tests, 3 + 2 * k);
      JsonObject *recovery = json_object_get_object_member (duel_test_record_get_details (burst), "recovery");

      g_assert_cmpint (burst->status, ==, DUEL_TEST_STATUS_COMPLETE);
      g_assert_cmpint (json_object_get_int_member (recovery, "idle_ms"), >=, options.idle_ms[k]);
      g_assert_true (isfinite (duel_test_record_get_figure_value (burst, "recovery_fresh_pct")));
      g_assert_true (g_str_has_prefix (cache->name, "recovery-cache-"));
      g_assert_cmpint (cache->status, ==, DUEL_TEST_STATUS_COMPLETE);
      g_assert_true (isfinite (duel_test_record_get_figure_value (cache, "recovery_seq_gb")));
    }
  g_free (watch);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* @data TRUE: limits so wide (1000 % of the mean) that the first window
 * passes, so the sixth round must be skipped and the page say so;
 * FALSE: SNIA's own, whatever verdict the small file gives. */
static void
test_run_pts_rounds (gconstpointer data)
{
  gboolean wide = GPOINTER_TO_INT (data);
  const guint mixes[] = { 100, 0 };
  DuelPresetOptions options, read_back;
  DuelWindow *window;
  Watch *watch;
  RoundsWatch rounds_watch = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(DuelPreset) refused = NULL;
  g_autoptr(DuelRoundsReport) report = NULL;
  g_autofree char *page = NULL;
  g_autofree char *expected = NULL;
  g_auto(GStrv) lines = NULL;
  DuelResult *result;
  GPtrArray *tests;
  guint in_rounds = 0;

  /* SNIA's three tests are presets of the list, by the names the CLI takes. */
  {
    DuelWindow *probe = duel_window_new (app);

    for (guint i = 0; i < 3; i++)
      g_assert_true (duel_presets_view_set_preset_name (duel_window_get_presets_view (probe),
                                                        (const char *[]) { "pts-iops", "pts-throughput",
                                                                           "pts-latency" }[i]));
    gtk_window_destroy (GTK_WINDOW (probe));
  }

  /* A scaled-down latency test: the 4 KiB cells at all reads and all
   * writes, 300 ms each, at most six rounds on 16 MiB. */
  duel_app_test_small_options (&options);
  options.max_rounds = PTS_MAX_ROUNDS;
  if (wide)
    options.data_limit = options.slope_limit = 10;
  options.matrix_block_sizes[options.n_matrix_block_sizes++] = 4096;
  for (guint i = 0; i < G_N_ELEMENTS (mixes); i++)
    options.matrix_read_percents[options.n_matrix_read_percents++] = mixes[i];
  window = prepare_window (wide ? "pts-steady-target.img" : "pts-target.img", "pts-latency", &options);

  /* The page reads back what it shows: the rounds and the matrix's subset. */
  g_assert_true (duel_presets_view_get_options (duel_window_get_presets_view (window), &read_back, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (read_back.max_rounds, ==, PTS_MAX_ROUNDS);
  g_assert_cmpuint (read_back.n_matrix_block_sizes, ==, 1);
  g_assert_cmpuint (read_back.matrix_block_sizes[0], ==, 4096);
  g_assert_cmpuint (read_back.n_matrix_read_percents, ==, 2);
  g_assert_cmpuint (read_back.runtime_ms, ==, options.runtime_ms);
  g_assert_cmpfloat (read_back.data_limit, ==, options.data_limit);
  g_assert_cmpfloat (read_back.slope_limit, ==, options.slope_limit);

  /* Fewer rounds than steady state is judged on: the core's one sentence. */
  options.max_rounds = 3;
  duel_presets_view_set_options (duel_window_get_presets_view (window), &options);
  refused = duel_presets_view_create_preset (duel_window_get_presets_view (window), &error);
  g_assert_null (refused);
  g_assert_error (error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "The number of rounds must be between 5 and 100, not 3.");
  g_clear_error (&error);
  options.max_rounds = PTS_MAX_ROUNDS;
  duel_presets_view_set_options (duel_window_get_presets_view (window), &options);

  duel_window_set_show_every_step (window, TRUE);
  watch = start_run (window);
  rounds_watch.view = duel_window_get_run_view (window);
  g_signal_connect (watch->task, "progress", G_CALLBACK (rounds_progress_cb), &rounds_watch);

  duel_app_test_wait (run_finished, window, 300, "the SNIA latency test to finish");
  g_assert_cmpint (duel_run_get_state (watch->task), ==, DUEL_RUN_STATE_FINISHED);
  result = duel_run_get_result (watch->task);
  report = duel_rounds_report_new (result, "pts-latency");
  g_assert_nonnull (report);
  g_test_message ("%u rounds, steady: %d (round %u); %u steps checked", report->n_rounds, report->steady,
                  report->steady_round, rounds_watch.n_checked);

  /* Each round that ran was shown as it began, none past them. */
  g_assert_cmpuint (report->n_rounds, >=, 5);
  g_assert_cmpuint (report->n_rounds, <=, PTS_MAX_ROUNDS);
  for (guint r = 1; r <= PTS_MAX_ROUNDS; r++)
    g_assert_cmpint (rounds_watch.round_seen[r], ==, r <= report->n_rounds);

  /* A record per cell and round, each with its round. */
  tests = duel_result_get_tests (result);
  for (guint r = 1; r <= report->n_rounds; r++)
    for (guint m = 0; m < G_N_ELEMENTS (mixes); m++)
      {
        g_autofree char *name = g_strdup_printf ("pts-lat-4k-r%u", mixes[m]);
        guint found = 0;

        for (guint i = 0; i < tests->len; i++)
          {
            DuelTestRecord *record = g_ptr_array_index (tests, i);

            found += g_strcmp0 (record->name, name) == 0 && duel_rounds_record_get_round (record) == r &&
                     record->status == DUEL_TEST_STATUS_COMPLETE;
          }
        g_assert_cmpuint (found, ==, 1);
      }
  for (guint i = 0; i < tests->len; i++)
    in_rounds += duel_rounds_record_in_round (g_ptr_array_index (tests, i));
  g_assert_cmpuint (in_rounds, ==, report->n_rounds * G_N_ELEMENTS (mixes));

  /* After the run the page says what the saved result's report says: the
   * rounds that ran, each one's figure, and the verdict. */
  page = duel_run_view_describe_rounds (rounds_watch.view);
  g_assert_nonnull (page);
  g_test_message ("Rounds after the run: %s", page);
  lines = g_strsplit (page, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  expected = g_strdup_printf ("%u rounds of at most %u ran.", report->n_rounds, PTS_MAX_ROUNDS);
  g_assert_cmpstr (lines[0], ==, expected);
  g_clear_pointer (&expected, g_free);
  {
    DuelWorkload tracked = { .block_size = 4096, .read_percent = 0 };
    g_autofree char *cell = expected_cell (&tracked);
    g_autofree char *prefix = g_strdup_printf ("Mean latency of %s, by round: ", cell);

    g_assert_true (g_str_has_prefix (lines[1], prefix));
  }
  g_assert_cmpuint (count_round_figures (lines[1]), ==, report->n_rounds);
  g_assert_cmpuint (report->tracked->len, ==, report->n_rounds);
  for (guint r = 0; r < report->tracked->len; r++)
    {
      double value = g_array_index (report->tracked, double, r);
      g_autofree char *number = duel_number_format (value, value >= 100 ? 0 : 1);
      g_autofree char *figure = g_strdup_printf ("%u: %s µs", r + 1, number);

      g_assert_nonnull (strstr (lines[1], figure));
    }
  if (report->steady && report->steady_round < PTS_MAX_ROUNDS)
    expected = g_strdup_printf ("Steady from round %u to %u: the remaining rounds were skipped.",
                                report->steady_round - report->window + 1, report->steady_round);
  else if (report->steady)
    expected = g_strdup_printf ("Steady from round %u to %u.", report->steady_round - report->window + 1,
                                report->steady_round);
  else
    expected = g_strdup_printf ("Not steady: rounds %u to %u, the last ones the test may run, vary beyond the limits.",
                                report->n_rounds - report->window + 1, report->n_rounds);
  g_assert_cmpstr (lines[2], ==, expected);
  /* Steady, the rest of the rounds did not run; else all of them did. */
  g_assert_cmpuint (report->n_rounds, ==, report->steady ? report->steady_round : PTS_MAX_ROUNDS);
  if (wide)
    {
      g_assert_true (report->steady);
      g_assert_cmpuint (report->steady_round, ==, report->window);
      g_assert_false (rounds_watch.round_seen[PTS_MAX_ROUNDS]);
      g_assert_cmpstr (lines[2], ==, "Steady from round 1 to 5: the remaining rounds were skipped.");
    }

  g_free (watch);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  int status;

  if (!duel_app_test_init (&argc, &argv))
    {
      g_print ("1..0 # SKIP no display\n");
      return 77;
    }

  test_program = g_canonicalize_filename (argv[0], NULL);
  app = duel_app_test_new_application ();
  scratch_dir = duel_app_test_make_dir ();

  /* Only as the child of the kill -9 test. */
  if (g_getenv ("DRIVEDUEL_TEST_KILL_REPORT") != NULL)
    g_test_add_func (KILL_CHILD_PATH, test_kill_child);
  else
    g_test_add_func ("/duel/app/run/kill-9-keeps-checkpoint", test_kill_keeps_checkpoint);

  g_test_add_func ("/duel/app/run/completes-into-history", test_run_completes_into_history);
  g_test_add_func ("/duel/app/run/crystaldiskmark-grid", test_run_page_crystaldiskmark_grid);
  g_test_add_func ("/duel/app/run/cancel-keeps-partial-result", test_cancel_keeps_partial_result);
  g_test_add_func ("/duel/app/run/live-view-follows-step", test_live_view_follows_step);
  g_test_add_data_func ("/duel/app/run/pts-rounds", GINT_TO_POINTER (FALSE), test_run_pts_rounds);
  g_test_add_data_func ("/duel/app/run/pts-rounds-steady", GINT_TO_POINTER (TRUE), test_run_pts_rounds);
  g_test_add_func ("/duel/app/run/recovery", test_run_recovery);
  g_test_add_func ("/duel/app/run/existing-file-keeps-size", test_existing_file_keeps_size);
  g_test_add_func ("/duel/app/run/stop-hung-device", test_stop_hung_device);
  g_test_add_func ("/duel/app/run/sequential-write-on-model", test_run_sequential_write_on_model);
  g_test_add_data_func ("/duel/app/run/destructive-loop-device", GINT_TO_POINTER (FALSE),
                        test_destructive_loop_device);
  g_test_add_data_func ("/duel/app/run/destructive-loop-signature", GINT_TO_POINTER (TRUE),
                        test_destructive_loop_device);

  status = g_test_run ();

  test_dir_remove (scratch_dir);
  g_clear_pointer (&scratch_dir, g_free);
  g_clear_object (&app);
  g_free (test_program);
  return status;
}
