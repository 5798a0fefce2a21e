/* test-cli-spawn.h — a `driveduel-cli run` in the background, and its result
 * watched while it runs (the tests of stops, locks and pauses)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <fcntl.h>
#include <glib.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "result/duel-result.h"

static inline void
test_cli_pdeathsig_setup (gpointer data)
{
  /* Should the test abort, its runs go with it. */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

/* Each run's stderr, by pid, for a run that ends before its rows come
 * to say why (test_cli_wait_for_rows()): a file given by path, or one that
 * has no name and is read through a descriptor kept here. */
static GHashTable *test_cli_err_paths;
static GHashTable *test_cli_err_fds;

static inline char *
test_cli_run_stderr (GPid pid)
{
  const char *path = test_cli_err_paths != NULL ? g_hash_table_lookup (test_cli_err_paths, GINT_TO_POINTER (pid))
                                                : NULL;
  int fd = test_cli_err_fds != NULL ? GPOINTER_TO_INT (g_hash_table_lookup (test_cli_err_fds,
                                                                            GINT_TO_POINTER (pid))) - 1 : -1;
  char text[4096];
  ssize_t n;
  char *contents = NULL;

  if (path != NULL && g_file_get_contents (path, &contents, NULL, NULL))
    return contents;
  if (fd < 0 || (n = pread (fd, text, sizeof text - 1, 0)) < 0)
    return g_strdup ("(its stderr was not kept)");
  text[n] = '\0';
  return g_strdup (text);
}

/* `driveduel-cli run ARGS...` (up to NULL) in the background, in English;
 * stdout discarded, stderr to @err_path (NULL: a file of no name, read
 * when the run fails). Reap it with waitpid() or test_cli_kill_run(). */
static inline GPid
test_cli_spawn_run (const char *err_path,
                    const char *first,
                    ...)
{
  const char *cli = g_getenv ("DRIVEDUEL_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "LC_ALL", "C.UTF-8", TRUE);
  g_autoptr(GError) error = NULL;
  int null_fd = open ("/dev/null", O_WRONLY | O_CLOEXEC);
  int err_fd = err_path != NULL ? open (err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)
                                : open (g_get_tmp_dir (), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

  /* A folder without unnamed files: the run's stderr is not kept. */
  if (err_fd < 0 && err_path == NULL)
    err_fd = open ("/dev/null", O_RDWR | O_CLOEXEC);
  va_list ap;
  GPid pid;

  g_assert_cmpint (null_fd, >=, 0);
  g_assert_cmpint (err_fd, >=, 0);
  envp = g_environ_unsetenv (envp, "LANGUAGE");
  g_ptr_array_add (argv, (char *) cli);
  g_ptr_array_add (argv, (char *) "run");
  va_start (ap, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_async_with_fds (NULL, (char **) argv->pdata, envp, G_SPAWN_DO_NOT_REAP_CHILD,
                                         test_cli_pdeathsig_setup, NULL, &pid, -1, null_fd, err_fd, &error));
  g_assert_no_error (error);
  close (null_fd);
  if (err_path != NULL)
    {
      close (err_fd);
      if (test_cli_err_paths == NULL)
        test_cli_err_paths = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      g_hash_table_replace (test_cli_err_paths, GINT_TO_POINTER (pid), g_strdup (err_path));
    }
  else
    {
      if (test_cli_err_fds == NULL)
        test_cli_err_fds = g_hash_table_new (NULL, NULL);
      g_hash_table_replace (test_cli_err_fds, GINT_TO_POINTER (pid), GINT_TO_POINTER (err_fd + 1));
    }
  return pid;
}

/* The rows of the first test of the result at @path as it loads now, 0
 * while it does not load. */
static inline guint
test_cli_rows_in (const char *path)
{
  g_autoptr(DuelResult) result = duel_result_load (path, NULL);
  GPtrArray *tests;

  if (result == NULL)
    return 0;
  tests = duel_result_get_tests (result);
  if (tests->len == 0)
    return 0;
  return duel_series_get_length (((DuelTestRecord *) g_ptr_array_index (tests, 0))->series);
}

/* Waits until the result at @path loads with at least @rows rows, and
 * returns how many it holds; fails if the run @pid ends first. */
static inline guint
test_cli_wait_for_rows (GPid        pid,
                        const char *path,
                        guint       rows)
{
  /* A bound for a stuck machine only: the rows come within seconds. */
  for (guint i = 0; i < 6000; i++)
    {
      guint have = test_cli_rows_in (path);
      int status;

      if (have >= rows)
        return have;
      if (waitpid (pid, &status, WNOHANG) == pid)
        {
          g_autofree char *err = test_cli_run_stderr (pid);

          g_error ("the run ended (status %d) before %s held %u rows: %s", status, path, rows, err);
        }
      g_usleep (20 * 1000);
    }
  g_error ("%s did not hold %u rows in 120 s", path, rows);
  return 0;
}

/* SIGKILL, then reaped. */
static inline void
test_cli_kill_run (GPid pid)
{
  int status;

  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status));
  g_spawn_close_pid (pid);
  if (test_cli_err_fds != NULL && g_hash_table_contains (test_cli_err_fds, GINT_TO_POINTER (pid)))
    {
      close (GPOINTER_TO_INT (g_hash_table_lookup (test_cli_err_fds, GINT_TO_POINTER (pid))) - 1);
      g_hash_table_remove (test_cli_err_fds, GINT_TO_POINTER (pid));
    }
  if (test_cli_err_paths != NULL)
    g_hash_table_remove (test_cli_err_paths, GINT_TO_POINTER (pid));
}
