/* duel-history-folder.c — where runs are kept when nobody names a file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "duel-history-folder.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

char *
duel_history_folder_get_default (void)
{
  return g_build_filename (g_get_user_data_dir (), "driveduel", "history", NULL);
}

/* "Samsung 970 EVO!" → "samsung-970-evo": lower-case ASCII letters and
 * digits, one dash between words, at most 40 characters, a name any file
 * system and shell takes as it is. */
static char *
slugify (const char *text)
{
  g_autofree char *ascii = g_str_to_ascii (text != NULL ? text : "", "C");
  GString *slug = g_string_new (NULL);

  for (const char *p = ascii; *p != '\0' && slug->len < 40; p++)
    {
      if (g_ascii_isalnum (*p))
        g_string_append_c (slug, g_ascii_tolower (*p));
      else if (slug->len > 0 && slug->str[slug->len - 1] != '-')
        g_string_append_c (slug, '-');
    }
  while (slug->len > 0 && slug->str[slug->len - 1] == '-')
    g_string_truncate (slug, slug->len - 1);
  if (slug->len == 0)
    g_string_append (slug, "run");
  return g_string_free (slug, FALSE);
}

char *
duel_history_folder_new_path (const char  *directory,
                              const char  *hint,
                              GError     **error)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *slug = slugify (hint);

  g_return_val_if_fail (directory != NULL, NULL);

  if (g_mkdir_with_parents (directory, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not create the history folder %s: %s"),
                   directory, g_strerror (saved_errno));
      return NULL;
    }

  for (guint n = 0; n < 1000; n++)
    {
      g_autofree char *name = n == 0 ? g_strdup_printf ("%s-%s.json", stamp, slug)
                                     : g_strdup_printf ("%s-%s-%u.json", stamp, slug, n);
      g_autofree char *path = g_build_filename (directory, name, NULL);

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        return g_steal_pointer (&path);
    }

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
               _("Could not find a free file name in %s."), directory);
  return NULL;
}
