/* test-cli-paused.c — a run whose process is paused (SIGSTOP), then resumed
 *
 * A real run of the built CLI on a file, stopped by the test for a few
 * seconds once it has rows, then continued (issue 34): the pause is
 * recorded at least as long as the stop, no row covers the paused time
 * (no run of empty rows as long as the stop), the figures are those
 * recomputed from the series without the rows it touched, and the run says
 * so in one sentence, at its end and in analyze. With one job and with two.
 * The verdict does not depend on the machine's speed: the test controls the
 * stop, and asserts lengths at least what it caused, never a wall-clock
 * bound. Runs $DRIVEDUEL_CLI in English.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/duel-analysis.h"
#include "result/duel-result.h"
#include "test-cli-spawn.h"
#include "test-cli.h"
#include "test-dir.h"

#define STOP_US (3 * G_USEC_PER_SEC)

/* Whether every thread of @pid is stopped ('T' in /proc/PID/task/N/stat). */
static gboolean
all_stopped (GPid pid)
{
  g_autofree char *tasks = g_strdup_printf ("/proc/%d/task", (int) pid);
  g_autoptr(GDir) dir = g_dir_open (tasks, 0, NULL);
  const char *name;
  guint n = 0;

  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (tasks, name, "stat", NULL);
      g_autofree char *text = NULL;
      const char *paren;

      if (!g_file_get_contents (path, &text, NULL, NULL) || (paren = strrchr (text, ')')) == NULL ||
          paren[1] != ' ' || (paren[2] != 'T' && paren[2] != 't'))
        return FALSE;
      n++;
    }
  return n > 0;
}

static void
check_paused_run (const char *numjobs)
{
  const char *cli = g_getenv ("DRIVEDUEL_CLI");
  g_autofree char *dir = NULL;
  g_autofree char *target = NULL;
  g_autofree char *output = NULL;
  g_autofree char *out_path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *analyzed = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(DuelSummary) summary = NULL;
  g_autoptr(DuelSummary) expected = NULL;
  g_autoptr(DuelTestRecord) without = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "LC_ALL", "C.UTF-8", TRUE);
  DuelTestRecord *record;
  const DuelPause *pause;
  const DuelSeriesRow *rows;
  gint64 stopped_at, continued_at;
  guint n, zeros = 0, longest_zeros = 0, kept = 0;
  int out_fd, null_fd, status, code;
  GPid pid;

  if (cli == NULL || !g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("DRIVEDUEL_CLI is not set (run through meson test)");
      return;
    }
  dir = test_dir_make_direct_io ("duel-cli-paused");
  if (dir == NULL)
    {
      g_test_skip ("no folder here supports direct I/O");
      return;
    }
  target = g_build_filename (dir, "scratch.img", NULL);
  output = g_build_filename (dir, "r.json", NULL);
  out_path = g_build_filename (dir, "stdout.txt", NULL);

  /* A 50/50 mix over time: the consistency figures come from its rows. */
  envp = g_environ_unsetenv (envp, "LANGUAGE");
  for (const char *const *arg = (const char *const[]) { cli, "run", "--rw", "randrw", "--rwmixread", "50",
                                                        "--runtime", "4", "--interval-ms", "100",
                                                        "--numjobs", numjobs, "--iodepth", "8",
                                                        "--span", "8m", "-o", output, target, NULL };
       *arg != NULL; arg++)
    g_ptr_array_add (argv, (char *) *arg);
  g_ptr_array_add (argv, NULL);
  out_fd = open (out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  null_fd = open ("/dev/null", O_WRONLY | O_CLOEXEC);
  g_assert_true (g_spawn_async_with_fds (NULL, (char **) argv->pdata, envp, G_SPAWN_DO_NOT_REAP_CHILD,
                                         test_cli_pdeathsig_setup, NULL, &pid, -1, out_fd, null_fd, &error));
  g_assert_no_error (error);
  close (out_fd);
  close (null_fd);

  /* Stopped once it has rows; a bound for a stuck machine only. */
  for (guint i = 0; test_cli_rows_in (output) < 5; i++)
    {
      g_assert_cmpuint (i, <, 6000);
      g_assert_cmpint (waitpid (pid, &status, WNOHANG), ==, 0);
      g_usleep (20 * 1000);
    }
  g_assert_cmpint (kill (pid, SIGSTOP), ==, 0);
  for (guint i = 0; !all_stopped (pid); i++)
    {
      g_assert_cmpuint (i, <, 6000);
      g_usleep (10 * 1000);
    }
  /* The test's own stop: at least this long, whatever the machine does. */
  stopped_at = g_get_monotonic_time ();
  g_usleep (STOP_US);
  continued_at = g_get_monotonic_time ();
  g_assert_cmpint (kill (pid, SIGCONT), ==, 0);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_spawn_close_pid (pid);
  g_assert_true (g_file_get_contents (out_path, &out, NULL, NULL));
  g_test_message ("stdout:\n%s", out);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);

  loaded = duel_result_load (output, &error);
  g_assert_no_error (error);
  record = g_ptr_array_index (duel_result_get_tests (loaded), 0);
  g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_COMPLETE);

  /* Recorded, at least as long as the stop. */
  g_assert_cmpuint (duel_test_record_get_n_pauses (record), ==, 1);
  pause = duel_test_record_get_pause (record, 0);
  g_test_message ("pause: at %" G_GUINT64_FORMAT " ms, row %u (+%u), %.3f s, fraction %.3f, %" G_GUINT64_FORMAT " latencies left out",
                  pause->at_ms, pause->row, pause->rows, pause->length_ns / 1e9, pause->fraction,
                  pause->latencies_left_out);
  g_assert_cmpuint (pause->length_ns, >=, (guint64) (continued_at - stopped_at) * 1000);
  g_assert_cmpuint (pause->row, >=, 4);
  g_assert_cmpuint (pause->latencies_left_out, >=, 1);
  g_assert_cmpfloat (pause->fraction, >, 0);
  g_assert_cmpfloat (pause->fraction, <, 1);

  /* No row covers the paused time: the engine's clock went on as if it
   * had not passed, so the rows end at the runtime limit and no run of
   * empty rows is as long as the stop (without the fix: 30 invented ones). */
  n = duel_series_get_length (record->series);
  rows = duel_series_get_rows (record->series);
  for (guint i = 0; i < n; i++)
    {
      zeros = rows[i].ops[0] + rows[i].ops[1] == 0 ? zeros + 1 : 0;
      longest_zeros = MAX (longest_zeros, zeros);
    }
  g_test_message ("%u rows, the longest run of empty rows %u", n, longest_zeros);
  g_assert_cmpuint ((guint64) longest_zeros * 100 * 1000, <, (guint64) (continued_at - stopped_at));
  g_assert_cmpuint (rows[n - 1].t_ms, <=, 4000 + 100);
  g_assert_cmpuint (record->runtime_ns, >=, 4 * G_GUINT64_CONSTANT (1000000000));
  g_assert_cmpuint (pause->row, <, n);

  /* The figures: those of the series without the rows it touched. */
  without = duel_test_record_ref (record);
  {
    g_autoptr(DuelSeries) copy = duel_series_new ();
    guint64 moved = 0;

    for (guint i = 0; i < n; i++)
      {
        DuelSeriesRow row = rows[i];
        guint64 ms = duel_series_row_duration_ms (record->series, i);

        if (i >= pause->row && i < pause->row + pause->rows)
          {
            moved += ms;
            continue;
          }
        row.t_ms -= moved;
        duel_series_append (copy, &row);
        kept++;
      }
    g_assert_cmpuint (kept, ==, n - pause->rows);
    g_clear_pointer (&without, duel_test_record_unref);
    without = duel_test_record_new (record->name, &record->workload);
    duel_series_free (without->series);
    without->series = g_steal_pointer (&copy);
    without->runtime_ns = record->runtime_ns;
    without->status = record->status;
    for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
      memcpy (without->latency[d], record->latency[d], sizeof (DuelHistogram));
  }
  g_assert_cmpint (duel_analysis_kind_of_record (record), ==, DUEL_ANALYSIS_CONSISTENCY);
  expected = duel_analysis_summarize (without, DUEL_ANALYSIS_CONSISTENCY, NULL);
  summary = duel_analysis_resummarize (record, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (duel_summary_get_n_figures (summary), ==, duel_summary_get_n_figures (expected));
  for (guint i = 0; i < duel_summary_get_n_figures (expected); i++)
    {
      const char *key = duel_summary_get_key (expected, i);
      double want = duel_summary_get_value (expected, i);
      double stored = duel_test_record_get_figure_value (record, key);

      g_test_message ("%s: %g (stored %g)", key, want, stored);
      g_assert_cmpstr (duel_summary_get_key (summary, i), ==, key);
      g_assert_true ((isnan (want) && isnan (stored)) || want == stored);
      g_assert_true ((isnan (want) && isnan (duel_summary_get_value (summary, i))) ||
                     want == duel_summary_get_value (summary, i));
    }
  g_assert_cmpfloat (duel_test_record_get_figure_value (record, "consistency_intervals"), <, n);

  /* Said in one sentence, at the run's end and by analyze. */
  g_assert_nonnull (strstr (out, "The run was paused for "));
  g_assert_nonnull (strstr (out, "; the rows of that time are left out of the figures."));
  code = run_cli (&analyzed, &err, "analyze", output, NULL);
  g_assert_cmpint (code, ==, 0);
  g_assert_nonnull (strstr (analyzed, "The run was paused for "));
  test_dir_remove (dir);
}

static void
test_stop (void)
{
  check_paused_run ("1");
}

static void
test_stop_jobs (void)
{
  check_paused_run ("2");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/cli-paused/stop", test_stop);
  g_test_add_func ("/duel/cli-paused/stop-jobs", test_stop_jobs);

  return g_test_run ();
}
