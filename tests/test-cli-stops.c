/* test-cli-stops.c — how a run of the built CLI stops and starts
 *
 * A result on a small tmpfs that fills up mid-run: the run stops at the
 * failed checkpoint, exit 1 with one sentence, the rows so far kept, and
 * it warned of the room first (root, for the mount; the tmpfs is mounted
 * in this process and unmounted whatever the checks, run in a subprocess,
 * did). SIGHUP stops a run as SIGTERM does. A save's temporary file left by
 * a run killed mid-compaction is removed by the next run on that path.
 * Runs $DRIVEDUEL_CLI in English.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/duel-analysis.h"
#include "result/duel-result.h"
#include "test-cli-spawn.h"
#include "test-cli.h"
#include "test-dir.h"

static int
wait_exit (GPid pid)
{
  int status = 0;

  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_spawn_close_pid (pid);
  return status;
}

static gboolean
have_cli (void)
{
  const char *cli = g_getenv ("DRIVEDUEL_CLI");

  if (cli == NULL || !g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("DRIVEDUEL_CLI is not set (run through meson test)");
      return FALSE;
    }
  return TRUE;
}

static void
assert_one_sentence (const char *line)
{
  const char *stop = strstr (line, ". ");

  g_assert_null (stop);
}

/* --- a full disk ------------------------------------------------------------- */

#define TMPFS_SIZE "4m"

/* The subprocess: the run's result on the tmpfs at $DUEL_TEST_TMPFS, its
 * target in a folder with direct I/O. */
static void
full_disk_child (void)
{
  const char *mount_dir = g_getenv ("DUEL_TEST_TMPFS");
  g_autofree char *dir = NULL;
  g_autofree char *target = NULL;
  g_autofree char *output = NULL;
  g_autofree char *filler = NULL;
  g_autofree char *err_path = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *block = g_malloc0 (64 * 1024);
  gint64 filled_us, exited_us;
  guint rows_before, rows_after;
  GPid pid;
  int status, fd;

  if (mount_dir == NULL)
    return;
  dir = test_dir_make_direct_io ("duel-cli-stops");
  if (dir == NULL)
    {
      g_test_skip ("no folder here supports direct I/O");
      return;
    }
  target = g_build_filename (dir, "scratch.img", NULL);
  output = g_build_filename (mount_dir, "r.json", NULL);
  filler = g_build_filename (mount_dir, "filler", NULL);
  err_path = g_build_filename (dir, "stderr.txt", NULL);

  /* 100 ms rows, for ten minutes unless it stops. */
  pid = test_cli_spawn_run (err_path, "--rw", "randwrite", "--runtime", "600", "--interval-ms", "100",
                            "--span", "8m", "-o", output, target, NULL);
  rows_before = test_cli_wait_for_rows (pid, output, 10);

  /* Filled up to the last byte, as another program would. */
  fd = open (filler, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  g_assert_cmpint (fd, >=, 0);
  for (;;)
    {
      ssize_t n = write (fd, block, 64 * 1024);

      if (n < 0 && errno == ENOSPC)
        break;
      g_assert_cmpint (n, >, 0);
    }
  for (gsize small = 4096; small > 0; small /= 2)
    while (write (fd, block, small) > 0)
      ;
  close (fd);
  filled_us = g_get_monotonic_time ();
  /* What was on disk by now is kept, whatever the run does next. */
  rows_before = MAX (rows_before, test_cli_rows_in (output));

  status = wait_exit (pid);
  exited_us = g_get_monotonic_time ();
  g_assert_true (g_file_get_contents (err_path, &err, NULL, NULL));
  g_test_message ("stopped %.1f s after the disk was full; exit %d; stderr:\n%s",
                  (exited_us - filled_us) / 1e6, WIFEXITED (status) ? WEXITSTATUS (status) : -1, err);

  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  /* The room was warned of while there was some, then one sentence. */
  lines = g_strsplit (g_strchomp (err), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 2);
  g_assert_nonnull (strstr (lines[0], "left for the result"));
  g_assert_nonnull (strstr (lines[1], "The run stopped because a checkpoint of"));
  g_assert_nonnull (strstr (lines[1], "No space left on device"));
  assert_one_sentence (lines[1]);

  /* Room again, as after the user cleans up: every row on disk before the
   * disk filled loads. */
  g_assert_cmpint (g_unlink (filler), ==, 0);
  rows_after = test_cli_rows_in (output);
  g_test_message ("rows on disk when it filled: %u; kept: %u", rows_before, rows_after);
  g_assert_cmpuint (rows_after, >=, rows_before);
  test_dir_remove (dir);
}

static void
test_full_disk (void)
{
  g_autofree char *mount_dir = NULL;
  g_autoptr(GError) error = NULL;

  if (!have_cli ())
    return;
  mount_dir = g_dir_make_tmp ("duel-tmpfs-XXXXXX", &error);
  g_assert_no_error (error);
  if (mount ("tmpfs", mount_dir, "tmpfs", MS_NOSUID | MS_NODEV, "size=" TMPFS_SIZE) != 0)
    {
      g_autofree char *why = g_strdup_printf ("cannot mount a tmpfs: %s", g_strerror (errno));

      g_rmdir (mount_dir);
      g_test_skip (why);
      return;
    }
  g_setenv ("DUEL_TEST_TMPFS", mount_dir, TRUE);
  g_test_trap_subprocess ("/duel/cli-stops/subprocess/full-disk", 120 * G_USEC_PER_SEC,
                          G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_unsetenv ("DUEL_TEST_TMPFS");
  /* Whatever the subprocess did; lazily should a run still hold a file. */
  if (umount (mount_dir) != 0)
    g_assert_cmpint (umount2 (mount_dir, MNT_DETACH), ==, 0);
  g_assert_cmpint (g_rmdir (mount_dir), ==, 0);
  g_test_trap_assert_passed ();
}

/* --- SIGHUP ---------------------------------------------------------------------- */

/* A dropped SSH session: the run stops as with SIGTERM, exit 1, its result
 * saved as stopped, not left "running". */
static void
test_sighup (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *target = NULL;
  g_autofree char *output = NULL;
  g_autofree char *err_path = NULL;
  g_autofree char *err = NULL;
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  DuelTestRecord *record;
  GPid pid;
  int status;

  if (!have_cli ())
    return;
  dir = test_dir_make_direct_io ("duel-cli-stops");
  if (dir == NULL)
    {
      g_test_skip ("no folder here supports direct I/O");
      return;
    }
  target = g_build_filename (dir, "scratch.img", NULL);
  output = g_build_filename (dir, "r.json", NULL);
  err_path = g_build_filename (dir, "stderr.txt", NULL);

  pid = test_cli_spawn_run (err_path, "--rw", "randwrite", "--runtime", "600", "--interval-ms", "100",
                            "--span", "4m", "-o", output, target, NULL);
  test_cli_wait_for_rows (pid, output, 2);
  g_assert_cmpint (kill (pid, SIGHUP), ==, 0);
  status = wait_exit (pid);
  g_assert_true (g_file_get_contents (err_path, &err, NULL, NULL));
  g_test_message ("status %#x; stderr:\n%s", status, err);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_nonnull (strstr (err, "cancelled"));

  loaded = duel_result_load (output, &error);
  g_assert_no_error (error);
  g_assert_null (duel_result_get_journal_id (loaded));
  record = g_ptr_array_index (duel_result_get_tests (loaded), 0);
  g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_CANCELLED);
  g_assert_cmpuint (duel_series_get_length (record->series), >=, 2);
  test_dir_remove (dir);
}

/* --- the result's folder removed ------------------------------------------------- */

/* The folder of the result removed during a run: the run stops at its next
 * checkpoint with one sentence (not hours later, at the final save), exit
 * 1; its target is left as the run left it. */
static void
test_folder_removed (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *target = NULL;
  g_autofree char *output = NULL;
  g_autofree char *err_path = NULL;
  g_autofree char *err = NULL;
  GPid pid;
  int status;

  if (!have_cli ())
    return;
  dir = test_dir_make_direct_io ("duel-cli-stops");
  if (dir == NULL)
    {
      g_test_skip ("no folder here supports direct I/O");
      return;
    }
  folder = g_build_filename (dir, "results", NULL);
  target = g_build_filename (dir, "scratch.img", NULL);
  output = g_build_filename (folder, "r.json", NULL);
  err_path = g_build_filename (dir, "stderr.txt", NULL);
  g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);

  /* Ten minutes of 100 ms rows unless it stops. */
  pid = test_cli_spawn_run (err_path, "--rw", "randwrite", "--runtime", "600", "--interval-ms", "100",
                            "--span", "4m", "-o", output, target, NULL);
  test_cli_wait_for_rows (pid, output, 2);
  test_dir_remove (folder);
  g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));

  status = wait_exit (pid);
  g_assert_true (g_file_get_contents (err_path, &err, NULL, NULL));
  g_test_message ("status %#x; stderr:\n%s", status, err);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_nonnull (strstr (err, "was removed during the run; nothing of it could be kept there."));
  g_assert_null (strstr (err, "are kept"));
  test_dir_remove (dir);
}

/* --- a killed mix ----------------------------------------------------------------- */

/* A plain 50/50 mix killed (SIGKILL) mid-run is read, its journal folded,
 * as the mix over time it was (consistency), not as the QoS test the plan
 * guessed before the run had rows (issue 34). */
static void
test_killed_mix (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *target = NULL;
  g_autofree char *output = NULL;
  g_autofree char *err_path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(DuelResult) loaded = NULL;
  g_autoptr(GError) error = NULL;
  DuelTestRecord *record;
  GPid pid;
  int status, code;

  if (!have_cli ())
    return;
  dir = test_dir_make_direct_io ("duel-cli-stops");
  if (dir == NULL)
    {
      g_test_skip ("no folder here supports direct I/O");
      return;
    }
  target = g_build_filename (dir, "scratch.img", NULL);
  output = g_build_filename (dir, "r.json", NULL);
  err_path = g_build_filename (dir, "stderr.txt", NULL);

  pid = test_cli_spawn_run (err_path, "--rw", "randrw", "--rwmixread", "50", "--runtime", "600",
                            "--interval-ms", "100", "--span", "4m", "-o", output, target, NULL);
  test_cli_wait_for_rows (pid, output, 3);
  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  status = wait_exit (pid);
  g_assert_true (WIFSIGNALED (status));

  loaded = duel_result_load (output, &error);
  g_assert_no_error (error);
  record = g_ptr_array_index (duel_result_get_tests (loaded), 0);
  g_assert_cmpint (record->status, ==, DUEL_TEST_STATUS_RUNNING);
  g_assert_cmpuint (duel_series_get_length (record->series), >=, 3);
  g_assert_cmpint (duel_analysis_kind_of_record (record), ==, DUEL_ANALYSIS_CONSISTENCY);

  code = run_cli (&out, &err, "analyze", "--json", output, NULL);
  g_test_message ("analyze: exit %d\n%s%s", code, out, err);
  g_assert_cmpint (code, ==, 0);
  g_assert_nonnull (strstr (out, "\"analysis\" : \"consistency\""));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  code = run_cli (&out, &err, "analyze", output, NULL);
  g_assert_cmpint (code, ==, 0);
  g_assert_nonnull (strstr (out, "Performance consistency"));
  g_assert_null (strstr (out, "99.9 % latency"));
  test_dir_remove (dir);
}

/* --- a compaction's temporary file ---------------------------------------------- */

/* What a writer killed before putting its file in place may leave where
 * the filesystem has no unnamed files (O_TMPFILE): a temporary file of
 * Drive Duel's own pattern (.NAME.<16 random>.driveduel-tmp). The next run
 * in the folder removes those nobody holds that are plainly its own (a
 * result's or a journal's beginning, or empty); one a live writer holds,
 * one holding anything else, and other patterns (an old FILE.XXXXXX of
 * g_file_set_contents(), r.json.backup) stay. */
static void
test_compaction_leftover (void)
{
  static const struct { const char *name; const char *contents; gboolean removed; } files[] = {
    { ".r.json.abcdefghij012345.driveduel-tmp", "{\n  \"format\": \"" DUEL_RESULT_FORMAT "\",\n  \"vers", TRUE },
    { ".r.json.journal.0123456789abcdef.driveduel-tmp", "driveduel-journal 1 0f0e\n", TRUE },
    { ".other.json.zzzzzzzzzzzzzzzz.driveduel-tmp", "", TRUE },
    { ".r.json.heldheldheldheld.driveduel-tmp", "{\"format\": \"" DUEL_RESULT_FORMAT "\"", FALSE },
    { ".r.json.userfileuserfile.driveduel-tmp", "my own text\n", FALSE },
    { "r.json.Ab12Cd", "{\n  \"format\": \"" DUEL_RESULT_FORMAT "\",\n  \"vers", FALSE },
    { "r.json.backup", "{\"format\": \"" DUEL_RESULT_FORMAT "\"}", FALSE },
  };
  g_autofree char *dir = NULL;
  g_autofree char *target = NULL;
  g_autofree char *output = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int held_fd;
  int code;

  if (!have_cli ())
    return;
  dir = test_dir_make_direct_io ("duel-cli-stops");
  if (dir == NULL)
    {
      g_test_skip ("no folder here supports direct I/O");
      return;
    }
  target = g_build_filename (dir, "scratch.img", NULL);
  output = g_build_filename (dir, "r.json", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i].name, NULL);

      g_assert_true (g_file_set_contents (path, files[i].contents, -1, NULL));
    }
  /* A writer still at work holds its file. */
  {
    g_autofree char *path = g_build_filename (dir, files[3].name, NULL);

    held_fd = open (path, O_RDONLY | O_CLOEXEC);
    g_assert_cmpint (held_fd, >=, 0);
    g_assert_cmpint (flock (held_fd, LOCK_EX), ==, 0);
  }

  code = run_cli (&out, &err, "run", "--rw", "randwrite", "--runtime", "1", "--span", "4m",
                  "-o", output, target, NULL);
  g_test_message ("exit %d: %s", code, err);
  g_assert_cmpint (code, ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i].name, NULL);

      g_test_message ("%s: %s", files[i].name, g_file_test (path, G_FILE_TEST_EXISTS) ? "stays" : "removed");
      g_assert_cmpint (g_file_test (path, G_FILE_TEST_EXISTS), ==, !files[i].removed);
    }
  close (held_fd);
  test_dir_remove (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/cli-stops/full-disk", test_full_disk);
  g_test_add_func ("/duel/cli-stops/sighup", test_sighup);
  g_test_add_func ("/duel/cli-stops/compaction-leftover", test_compaction_leftover);
  g_test_add_func ("/duel/cli-stops/folder-removed", test_folder_removed);
  g_test_add_func ("/duel/cli-stops/killed-mix", test_killed_mix);
  g_test_add_func ("/duel/cli-stops/subprocess/full-disk", full_disk_child);

  return g_test_run ();
}
