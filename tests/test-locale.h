/* test-locale.h — a real locale for a test, built on the spot
 *
 * The gate's machines have only C and C.UTF-8 installed. test_locale_use()
 * compiles the named locale with localedef(1) from the sources of Debian's
 * `locales` package (build-aux/install-deps.sh) into the test's cache
 * directory (removed by G_TEST_OPTION_ISOLATE_DIRS), points LOCPATH at it
 * and switches LC_NUMERIC. Fails the test, saying why, when it cannot.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

static inline void
test_locale_reset (void)
{
  setlocale (LC_NUMERIC, "C");
}

/* @name: "de_DE.UTF-8"; sets LC_NUMERIC to it and returns TRUE. "C" needs
 * nothing built. */
static inline gboolean
test_locale_use (const char *name)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "locales", NULL);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *input = g_strndup (name, strcspn (name, "."));
  g_autofree char *err = NULL;
  int status = 0;

  if (strcmp (name, "C") == 0)
    {
      test_locale_reset ();
      return TRUE;
    }
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      const char *argv[] = { "localedef", "-i", input, "-f", "UTF-8", path, NULL };
      g_autoptr(GError) error = NULL;

      g_mkdir_with_parents (dir, 0700);
      if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                         NULL, NULL, NULL, &err, &status, &error) ||
          !g_spawn_check_wait_status (status, NULL))
        {
          g_test_message ("localedef -i %s -f UTF-8 failed (the locales package has the sources): %s",
                          input, error != NULL ? error->message : err);
          g_test_fail ();
          return FALSE;
        }
    }
  g_setenv ("LOCPATH", dir, TRUE);
  if (setlocale (LC_NUMERIC, name) == NULL)
    {
      g_test_message ("setlocale (LC_NUMERIC, \"%s\") failed with LOCPATH=%s", name, dir);
      g_test_fail ();
      return FALSE;
    }
  return TRUE;
}
