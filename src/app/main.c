/* main.c — driveduel: the GTK application
 *
 * Without a display, the app cannot open a window: it says so and runs the
 * headless quick review through driveduel-cli instead, so the README's first
 * command works on a server too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <locale.h>
#include <string.h>
#include <unistd.h>

#include "duel-application.h"
#include "duel-history.h"
#include "duel-system.h"

/* Options that never need a display. */
static gboolean
wants_no_display (int    argc,
                  char **argv)
{
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0 ||
        g_str_has_prefix (argv[i], "--help-") || strcmp (argv[i], "--version") == 0)
      return TRUE;
  return FALSE;
}

static char *
find_cli (const char *argv0)
{
  const char *env = g_getenv ("DRIVEDUEL_CLI");
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = NULL;
  g_autofree char *beside = NULL;
  g_autofree char *built = NULL;

  if (env != NULL && *env != '\0')
    return g_strdup (env);

  /* Installed side by side, or in the build tree (src/app next to src/cli). */
  dir = g_path_get_dirname (self != NULL ? self : argv0);
  beside = g_build_filename (dir, "driveduel-cli", NULL);
  if (g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&beside);
  built = g_build_filename (dir, "..", "cli", "driveduel-cli", NULL);
  if (g_file_test (built, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&built);
  return g_find_program_in_path ("driveduel-cli");
}

static int
run_headless (const char *argv0)
{
  g_autofree char *cli = find_cli (argv0);
  g_autoptr(DuelHistory) history = duel_history_new (NULL);
  /* Into the history, so the window shows the run once there is a display. */
  g_autofree char *output = duel_history_new_path (history, "scratch", NULL);
  char *args[] = { cli, (char *) "run", (char *) "--preset", (char *) "quick",
                   (char *) "--name", (char *) _("Scratch file"),
                   output != NULL ? (char *) "--output" : NULL, output, NULL };

  g_printerr ("%s\n", _("driveduel: no display to open a window on; running the headless quick review instead."));
  if (cli == NULL)
    {
      g_printerr ("%s\n", _("driveduel: driveduel-cli was not found either."));
      return 1;
    }
  execv (cli, args);
  g_printerr (_("driveduel: could not run %s: %s\n"), cli, g_strerror (errno));
  return 1;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(DuelApplication) app = NULL;
  const char *localedir = g_getenv ("DRIVEDUEL_LOCALEDIR");

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  /* Out of threads or memory inside GLib or GTK: one sentence and exit 1,
   * not an abort. */
  duel_system_install_fatal_handler ("driveduel");

  /* Under `meson devenv`, back to the folder the command was typed in, so
   * that relative file arguments (and --screenshot) mean what they said. */
  {
    g_autofree char *launch_dir = duel_application_get_devenv_launch_dir (g_getenv ("DRIVEDUEL_DEVENV_BUILD_ROOT"),
                                                                          g_getenv ("PWD"));

    if (launch_dir != NULL && chdir (launch_dir) != 0)
      g_printerr (_("driveduel: could not return to %s: %s\n"), launch_dir, g_strerror (errno));
  }

  /* Without its schema, g_settings_new() at startup would abort: say what
   * is missing instead, before any display is opened. */
  if (!wants_no_display (argc, argv))
    {
      g_autofree char *message = NULL;

      if (!duel_application_check_schema (&message))
        {
          g_printerr ("%s\n", message);
          return 1;
        }
    }

  if (!wants_no_display (argc, argv) && !gtk_init_check ())
    {
      /* The quick review stands in for the plain command only: files to
       * open or a screenshot to take were asked of a window. */
      if (argc > 1)
        {
          g_printerr ("%s\n", _("driveduel: no display to open a window on."));
          return 1;
        }
      return run_headless (argv[0]);
    }

  app = duel_application_new (G_APPLICATION_DEFAULT_FLAGS);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
