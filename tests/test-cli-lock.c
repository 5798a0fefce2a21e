/* test-cli-lock.c — one run at a time on a target
 *
 * While a run holds a target (a file; a loop device as root), a second run
 * on it, read or write, is refused with one sentence that names the first
 * run's process, exit 1, and writes nothing: not the target's bytes, not
 * its made-by mark, no result. The kernel drops the lock with the first
 * run, ended or killed with SIGKILL, and the next run proceeds. Runs
 * $DRIVEDUEL_CLI in English.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "result/duel-result.h"
#include "test-cli-spawn.h"
#include "test-cli.h"
#include "test-devices.h"
#include "test-dir.h"

/* What a refused run could have touched: the target's bytes and its mark. */
static char *
target_state (const char *target)
{
  g_autofree char *data = NULL;
  g_autofree char *digest = NULL;
  char mark[512] = "";
  gsize length = 0;
  ssize_t n;

  g_assert_true (g_file_get_contents (target, &data, &length, NULL));
  digest = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) data, length);
  n = getxattr (target, "user.driveduel.made", mark, sizeof mark - 1);
  mark[MAX (n, 0)] = '\0';
  return g_strdup_printf ("%" G_GSIZE_FORMAT " bytes, sha256 %s, mark “%s”", length, digest, mark);
}

/* A second run on @target, while the run @holder holds it: refused in one
 * sentence naming @holder, exit 1, nothing written. */
static void
assert_refused (GPid         holder,
                const char  *target,
                const char  *dir,
                const char  *rw,
                gboolean     block)
{
  g_autofree char *output = g_build_filename (dir, "second.json", NULL);
  g_autofree char *before = target_state (target);
  g_autofree char *after = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *expected = g_strdup_printf ("driveduel-cli: “%s” is in use by another Drive Duel run (pid %d); "
                                               "wait for it to finish or stop it.\n", target, (int) holder);
  g_autoptr(GDir) listing = NULL;
  const char *name;
  int code;

  if (block)
    code = run_cli (&out, &err, "run", "--rw", rw, "--runtime", "2", "--destructive", "-o", output, target, NULL);
  else
    code = run_cli (&out, &err, "run", "--rw", rw, "--runtime", "2", "-o", output, target, NULL);
  g_test_message ("second run (%s): exit %d: %s", rw, code, err);
  g_assert_cmpint (code, ==, 1);
  g_assert_cmpstr (err, ==, expected);
  after = target_state (target);
  g_assert_cmpstr (after, ==, before);
  /* No result, and nothing beside where it would have been. */
  listing = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (listing)) != NULL)
    g_assert_false (g_str_has_prefix (name, "second.json"));
}

/* A file: a read run holds it; a write and a read run are refused; the
 * first is killed; the next run proceeds, and the one after it. */
static void
test_file (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *target = NULL;
  g_autofree char *first = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  GPid pid;
  int code;

  if (run_cli (&out, &err, "--version", NULL) < 0)
    return;
  dir = test_dir_make_direct_io ("duel-cli-lock");
  if (dir == NULL)
    {
      g_test_skip ("no folder here supports direct I/O");
      return;
    }
  target = g_build_filename (dir, "scratch.img", NULL);
  first = g_build_filename (dir, "first.json", NULL);

  /* Made by Drive Duel, with its mark. */
  g_clear_pointer (&err, g_free);
  code = run_cli (&out, &err, "run", "--rw", "randwrite", "--runtime", "1", "--span", "4m", target, NULL);
  g_assert_cmpint (code, ==, 0);

  pid = test_cli_spawn_run (NULL, "--rw", "randread", "--runtime", "600", "--interval-ms", "100", "-o", first,
                            target, NULL);
  test_cli_wait_for_rows (pid, first, 1);
  assert_refused (pid, target, dir, "randwrite", FALSE);
  assert_refused (pid, target, dir, "randread", FALSE);
  test_cli_kill_run (pid);

  /* The kernel let go with the killed process. */
  g_clear_pointer (&err, g_free);
  code = run_cli (&out, &err, "run", "--rw", "randwrite", "--runtime", "1", target, NULL);
  g_test_message ("after the kill: exit %d: %s", code, err);
  g_assert_cmpint (code, ==, 0);
  /* And with a run that ended. */
  g_clear_pointer (&err, g_free);
  code = run_cli (&out, &err, "run", "--rw", "randread", "--runtime", "1", target, NULL);
  g_assert_cmpint (code, ==, 0);
  test_dir_remove (dir);
}

/* The subprocess: the loop device at $DUEL_TEST_LOOP, its folder at
 * $DUEL_TEST_DIR. A read run holding it refuses a write and a read; a
 * write run (which opens it exclusively) refuses both too. */
static void
loop_child (void)
{
  const char *device = g_getenv ("DUEL_TEST_LOOP");
  const char *dir = g_getenv ("DUEL_TEST_DIR");
  g_autofree char *first = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  GPid pid;
  int code;

  if (device == NULL || dir == NULL)
    return;
  first = g_build_filename (dir, "first.json", NULL);

  pid = test_cli_spawn_run (NULL, "--rw", "randread", "--runtime", "600", "--interval-ms", "100", "-o", first,
                            device, NULL);
  test_cli_wait_for_rows (pid, first, 1);
  assert_refused (pid, device, dir, "randwrite", TRUE);
  assert_refused (pid, device, dir, "randread", TRUE);
  test_cli_kill_run (pid);

  g_unlink (first);
  pid = test_cli_spawn_run (NULL, "--rw", "randwrite", "--destructive", "--runtime", "600", "--interval-ms", "100",
                            "-o", first, device, NULL);
  test_cli_wait_for_rows (pid, first, 1);
  test_cli_kill_run (pid);
  code = run_cli (&out, &err, "run", "--rw", "randread", "--runtime", "1", device, NULL);
  /* A subprocess's messages do not reach the log: its failure says why. */
  if (code != 0)
    g_error ("after the kill: exit %d: %s", code, err);

  /* A write run holding it exclusively: the second is refused by its
   * lock, in the same words, whether it asks to write or to read. */
  g_unlink (first);
  pid = test_cli_spawn_run (NULL, "--rw", "randwrite", "--destructive", "--runtime", "600", "--interval-ms", "100",
                            "-o", first, device, NULL);
  test_cli_wait_for_rows (pid, first, 1);
  {
    g_autofree char *output = g_build_filename (dir, "second.json", NULL);
    g_autofree char *expected = g_strdup_printf ("driveduel-cli: “%s” is in use by another Drive Duel run (pid %d); "
                                                 "wait for it to finish or stop it.\n", device, (int) pid);
    const char *rws[] = { "randwrite", "randread" };

    for (guint i = 0; i < G_N_ELEMENTS (rws); i++)
      {
        g_clear_pointer (&err, g_free);
        code = run_cli (&out, &err, "run", "--rw", rws[i], "--destructive", "--runtime", "1", "-o", output,
                        device, NULL);
        g_test_message ("second run (%s) beside a write run: exit %d: %s", rws[i], code, err);
        g_assert_cmpint (code, ==, 1);
        g_assert_cmpstr (err, ==, expected);
        g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
      }
  }
  test_cli_kill_run (pid);
}

static void
test_loop (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *backing = NULL;
  g_autofree char *device = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  if (run_cli (&out, &err, "--version", NULL) < 0)
    return;
  if (geteuid () != 0)
    {
      g_test_skip ("needs root for a loop device");
      return;
    }
  dir = test_dir_make_direct_io ("duel-cli-lock");
  if (dir == NULL)
    {
      g_test_skip ("no folder here supports direct I/O");
      return;
    }
  backing = g_build_filename (dir, "backing.img", NULL);
  device = test_loop_attach (backing, 16 << 20);
  if (device == NULL)
    {
      test_dir_remove (dir);
      g_test_skip ("no loop device");
      return;
    }
  g_setenv ("DUEL_TEST_LOOP", device, TRUE);
  g_setenv ("DUEL_TEST_DIR", dir, TRUE);
  g_test_trap_subprocess ("/duel/cli-lock/subprocess/loop", 300 * G_USEC_PER_SEC,
                          G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_unsetenv ("DUEL_TEST_LOOP");
  g_unsetenv ("DUEL_TEST_DIR");
  /* Whatever the subprocess did (its runs died with it). */
  test_loop_detach (device);
  test_dir_remove (dir);
  g_test_trap_assert_passed ();
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/duel/cli-lock/file", test_file);
  g_test_add_func ("/duel/cli-lock/loop", test_loop);
  g_test_add_func ("/duel/cli-lock/subprocess/loop", loop_child);

  return g_test_run ();
}
