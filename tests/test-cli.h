/* test-cli.h — running the built driveduel-cli from a test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdarg.h>
#include <sys/wait.h>

/* The CLI's cache folder (its scratch file) for the runs that follow, when a
 * test sets one; NULL leaves the environment's. */
static const char *test_cli_cache_home;
/* TRUE: the runs that follow speak the test's own language (LANGUAGE,
 * LC_ALL as meson set them) instead of English. */
static gboolean test_cli_keep_language;

/* Runs $DRIVEDUEL_CLI with the arguments up to NULL, in English whatever the
 * caller's locale (unless test_cli_keep_language); returns its exit code,
 * with stdout and stderr. Without a CLI the test is skipped and -1 returned. */
static inline int
run_cli (char       **out,
         char       **err,
         const char  *first,
         ...)
{
  const char *cli = g_getenv ("DRIVEDUEL_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) envp = g_get_environ ();
  va_list args;
  int status;

  if (cli == NULL || !g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("DRIVEDUEL_CLI is not set (run through meson test)");
      return -1;
    }
  g_ptr_array_add (argv, (char *) cli);
  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  if (!test_cli_keep_language)
    {
      envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
      envp = g_environ_unsetenv (envp, "LANGUAGE");
    }
  if (test_cli_cache_home != NULL)
    envp = g_environ_setenv (envp, "XDG_CACHE_HOME", test_cli_cache_home, TRUE);
  /* A caller that runs the CLI again with the same strings leaks none. */
  if (out != NULL)
    g_clear_pointer (out, g_free);
  if (err != NULL)
    g_clear_pointer (err, g_free);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               out, err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}
