/* test-app-startup.c — what driveduel does before it opens a display
 *
 * Without its settings schema the app says so in one sentence and exits 1
 * (g_settings_new() would abort); under `meson devenv`, which runs commands
 * in the build folder, it goes back to the shell's folder so that relative
 * file arguments mean what the user typed. Runs the built app
 * ($DRIVEDUEL_APP) without a display; needs none.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "duel-application.h"

/* The schema the test environment points at (GSETTINGS_SCHEMA_DIR, the
 * build's data folder) is found. */
static void
test_schema_found (void)
{
  g_autofree char *message = NULL;

  g_assert_true (duel_application_check_schema (&message));
  g_assert_null (message);
}

/* @envp with no display, in English, outside a devenv; were the app to run
 * its headless review anyway, it would not find the CLI. */
static char **
without_display (char **envp)
{
  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
  envp = g_environ_unsetenv (envp, "LANGUAGE");
  envp = g_environ_unsetenv (envp, "DISPLAY");
  envp = g_environ_unsetenv (envp, "WAYLAND_DISPLAY");
  envp = g_environ_unsetenv (envp, "DRIVEDUEL_DEVENV_BUILD_ROOT");
  return g_environ_setenv (envp, "DRIVEDUEL_CLI", "/nonexistent/driveduel-cli", TRUE);
}

/* Where no schema is installed at all (no GSETTINGS_SCHEMA_DIR, no
 * glib-2.0/schemas under the data folders): exit 1 with one sentence that
 * names the schema and the ways out, not an abort, before any display is
 * looked for (there is none: without the check it would run the headless
 * review instead). */
static void
test_schema_missing (void)
{
  const char *app = g_getenv ("DRIVEDUEL_APP");
  g_autofree char *empty = NULL;
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *argv[] = { app, NULL };
  int status;

  if (app == NULL || !g_file_test (app, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("DRIVEDUEL_APP is not set (run through meson test)");
      return;
    }
  empty = g_dir_make_tmp ("duel-no-schema-XXXXXX", &error);
  g_assert_no_error (error);

  envp = g_environ_setenv (envp, "GSETTINGS_SCHEMA_DIR", empty, TRUE);
  envp = g_environ_setenv (envp, "XDG_DATA_DIRS", empty, TRUE);
  envp = g_environ_setenv (envp, "XDG_DATA_HOME", empty, TRUE);
  envp = without_display (envp);

  g_assert_true (g_spawn_sync (empty, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("%s", err);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_cmpstr (out, ==, "");
  g_assert_true (g_str_has_prefix (err, "driveduel: "));
  g_assert_nonnull (strstr (err, APP_ID));
  g_assert_nonnull (strstr (err, " is not installed"));
  g_assert_nonnull (strstr (err, "GSETTINGS_SCHEMA_DIR"));
  g_assert_nonnull (strstr (err, "meson devenv"));
  g_assert_null (strstr (err, "no display"));
  /* One sentence, one line. */
  g_assert_true (g_str_has_suffix (err, ".\n"));
  g_assert_cmpstr (strchr (err, '\n'), ==, "\n");
  g_rmdir (empty);
}

/* No display, and files to open: one sentence and exit 1. The headless
 * quick review stands in for the plain command only, never for files or a
 * screenshot someone asked a window for. */
static void
test_no_display_with_files (void)
{
  const char *app = g_getenv ("DRIVEDUEL_APP");
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *argv[] = { app, "a.json", NULL };
  int status;

  if (app == NULL || !g_file_test (app, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("DRIVEDUEL_APP is not set (run through meson test)");
      return;
    }
  envp = without_display (envp);

  g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("%s", err);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "driveduel: no display to open a window on.\n"));
  g_assert_null (strstr (err, "headless"));
}

/* --help says what the app compares: up to four drives (it said two). */
static void
test_help_summary (void)
{
  const char *app = g_getenv ("DRIVEDUEL_APP");
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *argv[] = { app, "--help", NULL };
  int status;

  if (app == NULL || !g_file_test (app, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("DRIVEDUEL_APP is not set (run through meson test)");
      return;
    }
  envp = without_display (envp);
  envp = g_environ_setenv (envp, "LANGUAGE", "C", TRUE);

  g_assert_true (g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_nonnull (strstr (out, "Compare up to four drives"));
  g_assert_null (strstr (out, "two drives"));
}

/* meson devenv runs the app in the build folder with $PWD still the
 * shell's: the app's folder is $PWD then, and only then. */
static void
test_devenv_launch_dir (void)
{
  g_autofree char *saved = g_get_current_dir ();
  g_autofree char *build = g_dir_make_tmp ("duel-devenv-build-XXXXXX", NULL);
  g_autofree char *shell = g_dir_make_tmp ("duel-devenv-shell-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (shell, "gone", NULL);
  g_autofree char *launch = NULL;
  g_autofree char *file = g_build_filename (shell, "a.json", NULL);
  g_autoptr(GFile) resolved = NULL;
  g_autoptr(GFile) expected = NULL;

  g_assert_cmpint (g_chdir (build), ==, 0);

  /* Started in the build folder from elsewhere: back to the shell's. */
  launch = duel_application_get_devenv_launch_dir (build, shell);
  g_assert_cmpstr (launch, ==, shell);
  /* Once there, a relative argument is the shell's file (what GApplication
   * makes of it, relative to the process's folder). */
  g_assert_cmpint (g_chdir (launch), ==, 0);
  resolved = g_file_new_for_commandline_arg ("a.json");
  expected = g_file_new_for_path (file);
  g_assert_true (g_file_equal (resolved, expected));
  g_clear_pointer (&launch, g_free);

  /* Already in the shell's folder (an interactive devenv shell), or run
   * with -w elsewhere: nothing to do. */
  g_assert_null (duel_application_get_devenv_launch_dir (build, shell));
  g_assert_cmpint (g_chdir (build), ==, 0);
  g_assert_null (duel_application_get_devenv_launch_dir (build, build));
  /* Not under the devenv, or no usable $PWD. */
  g_assert_null (duel_application_get_devenv_launch_dir (NULL, shell));
  g_assert_null (duel_application_get_devenv_launch_dir ("", shell));
  g_assert_null (duel_application_get_devenv_launch_dir (build, NULL));
  g_assert_null (duel_application_get_devenv_launch_dir (build, "relative/dir"));
  g_assert_null (duel_application_get_devenv_launch_dir (build, missing));

  g_assert_cmpint (g_chdir (saved), ==, 0);
  g_rmdir (build);
  g_rmdir (shell);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/duel/app-startup/schema-found", test_schema_found);
  g_test_add_func ("/duel/app-startup/schema-missing", test_schema_missing);
  g_test_add_func ("/duel/app-startup/no-display-with-files", test_no_display_with_files);
  g_test_add_func ("/duel/app-startup/devenv-launch-dir", test_devenv_launch_dir);
  g_test_add_func ("/duel/app-startup/help-summary", test_help_summary);
  return g_test_run ();
}
