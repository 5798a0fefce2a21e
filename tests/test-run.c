/* test-run.c — DuelRun: its states in order, preflight before any write, stop
 *
 * Real runs on files in a scratch folder: the states and steps the owner
 * sees, the result on disk, and that nothing touches the target when the
 * result could not be kept.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "duel-error.h"
#include "run/duel-run.h"
#include "test-dir.h"

typedef struct
{
  char *dir;
} Fixture;

typedef struct
{
  GMainLoop *loop;
  GString   *states;     /* "preparing running finished" */
  GString   *steps;      /* "0/1:randwrite " */
  guint      n_progress;
  gboolean   ok;
  GError    *error;
  guint      cancel_after_rows;
} Watch;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("driveduel-run-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  test_dir_remove (fixture->dir);
  g_free (fixture->dir);
}

static void
state_cb (DuelRun    *run,
          GParamSpec *pspec,
          Watch      *watch)
{
  g_string_append_printf (watch->states, "%s%s", watch->states->len ? " " : "",
                          duel_run_state_to_string (duel_run_get_state (run)));
}

static void
step_cb (DuelRun    *run,
         guint       index,
         guint       n_steps,
         const char *name,
         double      fraction_done,
         Watch      *watch)
{
  g_string_append_printf (watch->steps, "%u/%u:%s ", index, n_steps, name);
}

static void
progress_cb (DuelRun *run,
             Watch   *watch)
{
  DuelTestRecord *live = duel_run_get_live_record (run);

  watch->n_progress++;
  if (watch->cancel_after_rows > 0 && live != NULL &&
      duel_series_get_length (live->series) >= watch->cancel_after_rows)
    {
      watch->cancel_after_rows = 0;
      duel_run_cancel (run);
      g_assert_cmpint (duel_run_get_state (run), ==, DUEL_RUN_STATE_STOPPING);
    }
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Watch *watch = user_data;

  watch->ok = duel_run_run_finish (DUEL_RUN (object), result, &watch->error);
  g_main_loop_quit (watch->loop);
}

static void
run_to_end (DuelRun *run,
            Watch   *watch)
{
  watch->loop = g_main_loop_new (NULL, FALSE);
  watch->states = g_string_new (NULL);
  watch->steps = g_string_new (NULL);
  g_signal_connect (run, "notify::state", G_CALLBACK (state_cb), watch);
  g_signal_connect (run, "step-started", G_CALLBACK (step_cb), watch);
  g_signal_connect (run, "progress", G_CALLBACK (progress_cb), watch);
  duel_run_run_async (run, NULL, done_cb, watch);
  g_main_loop_run (watch->loop);
  g_signal_handlers_disconnect_by_data (run, watch);
  g_test_message ("states: %s; steps: %s", watch->states->str, watch->steps->str);
}

static void
watch_clear (Watch *watch)
{
  g_clear_pointer (&watch->loop, g_main_loop_unref);
  g_string_free (watch->states, TRUE);
  g_string_free (watch->steps, TRUE);
  g_clear_error (&watch->error);
}

static void
timed_workload (DuelWorkload *workload,
                const char   *rw)
{
  g_autoptr(GError) error = NULL;

  duel_workload_init (workload);
  g_assert_true (duel_workload_set_rw_name (workload, rw, &error));
  workload->runtime_ms = 1500;
  workload->interval_ms = 100;
  workload->queue_depth = 8;
}

/* Two plain workloads on a new file: every state and step once, in order,
 * and the result on disk is the one in memory. */
static void
test_states_in_order (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *target = g_build_filename (fixture->dir, "target.img", NULL);
  g_autofree char *output = g_build_filename (fixture->dir, "result.json", NULL);
  g_autoptr(DuelRun) run = duel_run_new (target);
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  DuelWorkload write, read;
  Watch watch = { 0 };

  timed_workload (&write, "randwrite");
  timed_workload (&read, "randread");
  duel_run_set_output (run, output);
  duel_run_set_safety (run, DUEL_SAFETY_FLAGS_NONE, 16 * 1024 * 1024);
  duel_run_add_workload (run, "w", &write);
  duel_run_add_workload (run, "r", &read);
  g_assert_cmpint (duel_run_get_state (run), ==, DUEL_RUN_STATE_READY);

  run_to_end (run, &watch);
  g_assert_no_error (watch.error);
  g_assert_true (watch.ok);
  g_assert_cmpstr (watch.states->str, ==, "preparing running finished");
  g_assert_cmpstr (watch.steps->str, ==, "0/2:w 1/2:r ");
  /* Progress is one coalesced idle: how many times the main loop ran it
   * during the run is the scheduler's (a busy host may run it once for
   * everything); that it comes, in order, is the run's. */
  g_assert_cmpuint (watch.n_progress, >=, 1);
  g_assert_false (duel_run_is_running (run));
  g_assert_cmpfloat (duel_run_get_status (run)->fraction_done, ==, 1.0);
  g_assert_null (duel_run_get_save_error (run));
  g_assert_null (duel_run_get_preset (run));

  loaded = duel_result_load (output, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (duel_result_get_tests (loaded)->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      DuelTestRecord *saved = g_ptr_array_index (duel_result_get_tests (loaded), i);
      DuelTestRecord *memory = g_ptr_array_index (duel_result_get_tests (duel_run_get_result (run)), i);

      g_assert_cmpint (saved->status, ==, DUEL_TEST_STATUS_COMPLETE);
      /* The same loop as a preset's, but no preset in the file. */
      g_assert_null (saved->preset);
      g_assert_false (json_object_has_member (duel_test_record_get_details (saved), "preset_parameters"));
      g_assert_cmpuint (duel_series_get_length (saved->series), ==, duel_series_get_length (memory->series));
      g_assert_cmpuint (duel_test_record_get_ops (saved, DUEL_DIRECTION_READ) +
                        duel_test_record_get_ops (saved, DUEL_DIRECTION_WRITE), >, 0);
      /* A plain run's step is summarised as a preset's is: its IOPS are
       * its ops over its runtime, by hand from the saved totals. */
      {
        DuelDirection d = i == 0 ? DUEL_DIRECTION_WRITE : DUEL_DIRECTION_READ;
        const char *key = i == 0 ? "rand_write_qd8_iops" : "rand_read_qd8_iops";
        double by_hand = duel_test_record_get_ops (saved, d) / (saved->runtime_ns / 1e9);
        double stored = duel_test_record_get_figure_value (saved, key);

        g_assert_cmpfloat_with_epsilon (stored, by_hand, by_hand * 1e-9);
      }
    }
  watch_clear (&watch);
}

typedef struct
{
  GMainLoop        *loop;
  DuelSafetyReport *report;
  GError           *error;
} Checked;

static void
checked_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Checked *checked = user_data;

  checked->report = duel_run_check_finish (DUEL_RUN (object), result, &checked->error);
  g_main_loop_quit (checked->loop);
}

/* The run's safety check, waited for: its verdict. */
static DuelSafetyVerdict
check_run (DuelRun *run)
{
  Checked checked = { .loop = g_main_loop_new (NULL, FALSE) };
  DuelSafetyVerdict verdict;

  duel_run_check_async (run, NULL, checked_cb, &checked);
  g_main_loop_run (checked.loop);
  g_main_loop_unref (checked.loop);
  g_assert_no_error (checked.error);
  g_assert_nonnull (checked.report);
  verdict = checked.report->verdict;
  g_test_message ("check of %s: %d (%s)", duel_run_get_target_path (run), verdict,
                  checked.report->reason != NULL ? checked.report->reason : "allowed");
  duel_safety_report_free (checked.report);
  return verdict;
}

typedef struct
{
  GMainLoop          *loop;
  DuelPresetEstimate *estimate;
  GError             *error;
} Estimated;

static void
estimated_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Estimated *estimated = user_data;

  estimated->estimate = g_new0 (DuelPresetEstimate, 1);
  if (!duel_run_estimate_finish (DUEL_RUN (object), result, estimated->estimate, &estimated->error))
    g_clear_pointer (&estimated->estimate, g_free);
  g_main_loop_quit (estimated->loop);
}

/* The run's estimate, waited for: NULL with @error set when refused. */
static DuelPresetEstimate *
estimate_run (DuelRun  *run,
              guint64   probe_ms,
              GError  **error)
{
  Estimated estimated = { .loop = g_main_loop_new (NULL, FALSE) };

  duel_run_estimate_async (run, probe_ms, NULL, estimated_cb, &estimated);
  g_main_loop_run (estimated.loop);
  g_main_loop_unref (estimated.loop);
  if (estimated.error != NULL)
    g_propagate_error (error, estimated.error);
  return estimated.estimate;
}

static char *
file_sha256 (const char *path)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) contents, length);
}

/* The front half the app asks through: the check says what consent the
 * target needs, one question at a time, writes nothing while it asks, and
 * the consent given reaches the run, which checks again and writes. A
 * read plan needs none; the check creates nothing. The estimate's probe
 * keeps the same rules. */
static void
test_check_then_consent (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *image = g_build_filename (fixture->dir, "disk.img", NULL);
  g_autofree char *folder = g_build_filename (fixture->dir, "scratch", NULL);
  g_autofree char *scratch = g_build_filename (folder, "target.img", NULL);
  g_autofree char *command = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *mkfs = g_find_program_in_path ("mkfs.ext4");
  g_autoptr(GError) error = NULL;
  DuelWorkload write, read;
  int status = 0;

  timed_workload (&write, "randwrite");
  timed_workload (&read, "randread");
  read.runtime_ms = write.runtime_ms = 500;

  /* A disk image: ext4 on a 32 MiB file. */
  g_assert_nonnull (mkfs);
  command = g_strdup_printf ("mkfs.ext4 -q -F '%s' 32M", image);
  g_assert_true (g_spawn_command_line_sync (command, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  before = file_sha256 (image);

  /* Reading it asks nothing. */
  {
    g_autoptr(DuelRun) run = duel_run_new (image);

    duel_run_add_workload (run, NULL, &read);
    g_assert_cmpint (check_run (run), ==, DUEL_SAFETY_ALLOWED);
  }

  /* Its estimate: two timed steps of 0.5 s, by hand; a probe, which
   * writes, is refused there without the consent, and writes nothing. */
  {
    g_autoptr(DuelRun) run = duel_run_new (image);
    g_autofree DuelPresetEstimate *estimate = NULL;
    g_autofree DuelPresetEstimate *probed = NULL;
    g_autoptr(GError) refused = NULL;

    duel_run_add_workload (run, NULL, &read);
    duel_run_add_workload (run, NULL, &write);
    estimate = estimate_run (run, 0, &error);
    g_assert_no_error (error);
    g_assert_cmpfloat (estimate->total_seconds, ==, 1.0);
    g_assert_cmpfloat (estimate->timed_seconds, ==, 1.0);
    g_assert_cmpuint (estimate->fill_bytes, ==, 0);

    duel_run_set_safety (run, DUEL_SAFETY_FLAGS_NONE, 0);
    probed = estimate_run (run, 200, &refused);
    g_assert_null (probed);
    g_assert_error (refused, DUEL_ERROR, DUEL_ERROR_REFUSED);
    after = file_sha256 (image);
    g_assert_cmpstr (after, ==, before);
    g_clear_pointer (&after, g_free);
  }

  /* Writing it: first the erase, then the signature, then allowed. */
  {
    g_autoptr(DuelRun) run = duel_run_new (image);
    Watch watch = { 0 };

    duel_run_add_workload (run, NULL, &write);
    duel_run_set_safety (run, DUEL_SAFETY_FLAGS_NONE, 0);
    g_assert_cmpint (check_run (run), ==, DUEL_SAFETY_NEEDS_DESTRUCTIVE);
    duel_run_set_consent (run, DUEL_SAFETY_DESTRUCTIVE);
    g_assert_cmpint (check_run (run), ==, DUEL_SAFETY_HAS_SIGNATURE);
    after = file_sha256 (image);
    g_assert_cmpstr (after, ==, before);
    duel_run_set_consent (run, DUEL_SAFETY_WIPE_SIGNATURES);
    g_assert_cmpint (check_run (run), ==, DUEL_SAFETY_ALLOWED);
    g_clear_pointer (&after, g_free);
    after = file_sha256 (image);
    g_assert_cmpstr (after, ==, before);

    /* The consent reaches the run: it writes. */
    run_to_end (run, &watch);
    g_assert_no_error (watch.error);
    g_assert_true (watch.ok);
    g_assert_cmpuint (duel_test_record_get_ops (g_ptr_array_index (duel_result_get_tests (duel_run_get_result (run)), 0),
                                                DUEL_DIRECTION_WRITE), >, 0);
    watch_clear (&watch);
  }

  /* A run that was not given the consent is refused when it starts, in
   * "preparing", before any write. */
  {
    g_autoptr(DuelRun) run = duel_run_new (scratch);
    g_autoptr(DuelRun) refused = NULL;
    Watch watch = { 0 };

    /* A new file needs its folder; the check creates nothing. */
    duel_run_add_workload (run, NULL, &write);
    duel_run_set_safety (run, DUEL_SAFETY_FLAGS_NONE, 16 * 1024 * 1024);
    g_assert_cmpint (check_run (run), ==, DUEL_SAFETY_UNREADABLE);
    g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
    g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
    g_assert_cmpint (check_run (run), ==, DUEL_SAFETY_ALLOWED);
    g_assert_false (g_file_test (scratch, G_FILE_TEST_EXISTS));

    g_clear_pointer (&before, g_free);
    g_free (command);
    command = g_strdup_printf ("mkfs.ext4 -q -F '%s' 32M", scratch);
    g_assert_true (g_spawn_command_line_sync (command, NULL, NULL, &status, NULL));
    before = file_sha256 (scratch);
    refused = duel_run_new (scratch);
    duel_run_add_workload (refused, NULL, &write);
    duel_run_set_safety (refused, DUEL_SAFETY_FLAGS_NONE, 0);
    duel_run_set_consent (refused, DUEL_SAFETY_DESTRUCTIVE);
    run_to_end (refused, &watch);
    g_assert_false (watch.ok);
    g_assert_error (watch.error, DUEL_ERROR, DUEL_ERROR_REFUSED);
    g_assert_cmpstr (watch.states->str, ==, "preparing failed");
    g_clear_pointer (&after, g_free);
    after = file_sha256 (scratch);
    g_assert_cmpstr (after, ==, before);
    watch_clear (&watch);
  }
}

/* The result cannot be kept (its folder is missing): the run fails in
 * "preparing" and the target is not even created, let alone written. */
static void
test_preflight_before_any_write (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autofree char *target = g_build_filename (fixture->dir, "untouched.img", NULL);
  g_autofree char *existing = g_build_filename (fixture->dir, "existing.img", NULL);
  g_autofree char *output = g_build_filename (fixture->dir, "no-such-folder", "result.json", NULL);
  g_autofree char *before = g_strnfill (64 * 1024, 'x');
  DuelWorkload write;

  timed_workload (&write, "randwrite");

  for (guint pass = 0; pass < 2; pass++)
    {
      const char *path = pass == 0 ? target : existing;
      g_autoptr(DuelRun) run = duel_run_new (path);
      g_autoptr(GError) error = NULL;
      g_autofree char *after = NULL;
      gsize length = 0;
      Watch watch = { 0 };

      if (pass == 1)
        {
          g_assert_true (g_file_set_contents (existing, before, -1, &error));
          g_assert_no_error (error);
        }
      duel_run_set_output (run, output);
      /* Consent given: only the preflight may refuse. */
      duel_run_set_safety (run, DUEL_SAFETY_DESTRUCTIVE, 0);
      duel_run_add_workload (run, NULL, &write);
      run_to_end (run, &watch);

      g_assert_false (watch.ok);
      g_assert_nonnull (watch.error);
      g_assert_cmpstr (watch.states->str, ==, "preparing failed");
      g_assert_cmpstr (watch.steps->str, ==, "");
      g_assert_null (duel_run_get_result (run));
      if (pass == 0)
        g_assert_false (g_file_test (target, G_FILE_TEST_EXISTS));
      else
        {
          g_assert_true (g_file_get_contents (existing, &after, &length, &error));
          g_assert_no_error (error);
          g_assert_cmpstr (after, ==, before);
        }
      watch_clear (&watch);
    }
}

/* What only the target can tell is checked before anything is written to
 * it, however the run opens it (the CLI's safety checks, or the flags the
 * app opens with after its confirmations): a block size its blocks do not
 * divide leaves an existing file as it was, not even extended; a limit that
 * rounds to less than a block leaves no new file behind. */
static void
test_plan_fits_before_write (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *existing = g_build_filename (fixture->dir, "existing.img", NULL);
  g_autofree char *fresh = g_build_filename (fixture->dir, "new.img", NULL);
  g_autofree char *output = g_build_filename (fixture->dir, "result.json", NULL);
  g_autofree char *before = NULL;
  g_autoptr(GError) error = NULL;
  gsize before_length = 0;
  GStatBuf st;

  {
    g_autoptr(DuelTarget) target = duel_target_open (existing, DUEL_TARGET_OPEN_WRITE | DUEL_TARGET_OPEN_CREATE,
                                                     1024 * 1024, &error);

    g_assert_no_error (error);
    if (duel_target_get_logical_block_size (target) <= 512)
      {
        g_test_skip ("this filesystem's blocks are 512 bytes");
        return;
      }
  }
  g_assert_true (g_file_get_contents (existing, &before, &before_length, NULL));

  for (guint which = 0; which < 2; which++)
    {
      const char *path = which == 0 ? existing : fresh;
      g_autoptr(DuelRun) run = duel_run_new (path);
      g_autofree char *after = NULL;
      gsize after_length = 0;
      DuelWorkload write;
      Watch watch = { 0 };

      timed_workload (&write, "randwrite");
      if (which == 0)
        write.block_size = 512;
      else
        {
          write.runtime_ms = 0;
          write.size_multiple = 1e-9;
        }
      duel_run_set_output (run, output);
      duel_run_set_safety (run, DUEL_SAFETY_FLAGS_NONE, 4 * 1024 * 1024);
      duel_run_add_workload (run, NULL, &write);
      run_to_end (run, &watch);

      g_assert_error (watch.error, DUEL_ERROR, DUEL_ERROR_INVALID_ARGUMENT);
      g_assert_cmpstr (watch.states->str, ==, "preparing failed");
      g_assert_null (duel_run_get_result (run));
      g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
      g_assert_false (g_file_test (fresh, G_FILE_TEST_EXISTS));
      g_assert_cmpint (g_stat (existing, &st), ==, 0);
      g_assert_cmpint (st.st_size, ==, 1024 * 1024);
      g_assert_true (g_file_get_contents (existing, &after, &after_length, NULL));
      g_assert_true (after_length == before_length && memcmp (after, before, after_length) == 0);
      watch_clear (&watch);
    }
}

/* Stop after a few intervals: stopping, then stopped; the partial result
 * is saved, cancelled, with the rows measured. */
static void
test_stop_keeps_result (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *target = g_build_filename (fixture->dir, "stop.img", NULL);
  g_autofree char *output = g_build_filename (fixture->dir, "stop.json", NULL);
  g_autoptr(DuelRun) run = duel_run_new (target);
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  DuelTestRecord *record;
  DuelWorkload write;
  Watch watch = { 0 };

  timed_workload (&write, "randwrite");
  write.runtime_ms = 120000;
  duel_run_set_output (run, output);
  duel_run_set_safety (run, DUEL_SAFETY_FLAGS_NONE, 16 * 1024 * 1024);
  duel_run_add_workload (run, NULL, &write);
  watch.cancel_after_rows = 5;

  run_to_end (run, &watch);
  g_assert_false (watch.ok);
  g_assert_error (watch.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpstr (watch.states->str, ==, "preparing running stopping stopped");
  g_assert_cmpint (duel_run_get_status (run)->eta_seconds, ==, -1);

  loaded = duel_result_load (output, &error);
  g_assert_no_error (error);
  record = g_ptr_array_index (duel_result_get_tests (loaded), 0);
  g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_CANCELLED);
  g_assert_cmpuint (duel_series_get_length (record->series), >=, 5);
  watch_clear (&watch);
}

/* A preset with a fill: the probe is its own state, between preparing and
 * running, and the estimate is there once it is over. */
static void
test_preset_probes (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *target = g_build_filename (fixture->dir, "preset.img", NULL);
  g_autoptr(DuelRun) run = duel_run_new (target);
  g_autoptr(DuelPreset) preset = NULL;
  g_autoptr(GError) error = NULL;
  DuelPresetOptions options;
  DuelPresetEstimate estimate;
  Watch watch = { 0 };

  duel_preset_options_init (&options);
  options.span_bytes = 8 * 1024 * 1024;
  options.runtime_ms = 300;
  options.round_ms = 300;
  options.interval_ms = 100;
  preset = duel_preset_new ("write-saturation", &options, &error);
  g_assert_no_error (error);

  duel_run_set_safety (run, DUEL_SAFETY_FLAGS_NONE, options.span_bytes);
  duel_run_set_preset (run, preset);
  duel_run_set_probe_ms (run, 300);
  run_to_end (run, &watch);

  g_assert_no_error (watch.error);
  g_assert_true (watch.ok);
  g_assert_cmpstr (watch.states->str, ==, "preparing probing running finished");
  g_assert_true (g_str_has_prefix (watch.steps->str, "0/3:discard 1/3:wsat-fill 2/3:wsat-read"));
  g_assert_true (duel_run_get_estimate (run, &estimate));
  g_assert_cmpuint (estimate.probe_ms, >=, 300); /* at least its time; how much more is the host's */
  g_assert_cmpfloat (estimate.probe_write_iops, >, 0);
  watch_clear (&watch);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/duel/run/states-in-order", Fixture, NULL, fixture_setup, test_states_in_order, fixture_teardown);
  g_test_add ("/duel/run/preflight-before-any-write", Fixture, NULL, fixture_setup,
              test_preflight_before_any_write, fixture_teardown);
  g_test_add ("/duel/run/plan-fits-before-write", Fixture, NULL, fixture_setup,
              test_plan_fits_before_write, fixture_teardown);
  g_test_add ("/duel/run/check-then-consent", Fixture, NULL, fixture_setup,
              test_check_then_consent, fixture_teardown);
  g_test_add ("/duel/run/stop-keeps-result", Fixture, NULL, fixture_setup, test_stop_keeps_result, fixture_teardown);
  g_test_add ("/duel/run/preset-probes", Fixture, NULL, fixture_setup, test_preset_probes, fixture_teardown);

  return g_test_run ();
}
