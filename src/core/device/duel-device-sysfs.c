/* duel-device-sysfs.c — small readers for sysfs attributes under a root
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

#include "duel-device-private.h"
#include "duel-error.h"

/* sysfs attributes are at most a page; identity strings are far shorter. */
#define MAX_ATTR_BYTES 4096

char *
_duel_device_sysfs_read (const char *dir,
                         const char *attr)
{
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_assert (dir != NULL);
  g_assert (attr != NULL);

  path = g_build_filename (dir, attr, NULL);
  if (!g_file_get_contents (path, &contents, &length, NULL))
    return NULL;
  if (length > MAX_ATTR_BYTES)
    contents[MAX_ATTR_BYTES] = '\0';
  /* Embedded NULs (binary VPD pages) end the string there. */
  g_strstrip (contents);
  if (contents[0] == '\0')
    return NULL;
  return g_steal_pointer (&contents);
}

gboolean
_duel_device_sysfs_read_u64 (const char *dir,
                             const char *attr,
                             guint64    *out_value)
{
  g_autofree char *text = _duel_device_sysfs_read (dir, attr);
  char *end = NULL;
  guint64 value;

  if (text == NULL)
    return FALSE;
  errno = 0;
  value = g_ascii_strtoull (text, &end, 0);
  if (errno != 0 || end == text)
    return FALSE;
  *out_value = value;
  return TRUE;
}

char *
_duel_device_root_real (const char  *root,
                        GError     **error)
{
  char *real;

  g_assert (root != NULL);

  real = realpath (root, NULL);
  if (real == NULL)
    {
      int saved_errno = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot use “%s” as the system root: %s"), root, g_strerror (saved_errno));
      return NULL;
    }
  /* g_free and free are the same allocator since GLib 2.46. */
  return real;
}

gboolean
_duel_device_root_is_live (const char *root_real)
{
  return g_strcmp0 (root_real, "/") == 0;
}

char *
_duel_device_resolve (const char *root_real,
                      const char *path)
{
  g_autofree char *joined = NULL;
  char *real;
  gsize root_len;

  g_assert (root_real != NULL);
  g_assert (path != NULL);

  if (_duel_device_root_is_live (root_real))
    joined = g_strdup (path);
  else if (g_str_has_prefix (path, root_real))
    joined = g_strdup (path);
  else
    joined = g_build_filename (root_real, path, NULL);

  real = realpath (joined, NULL);
  if (real == NULL)
    return NULL;
  if (_duel_device_root_is_live (root_real))
    return real;

  /* A link that leaves a captured tree points at nothing we captured. */
  root_len = strlen (root_real);
  if (strncmp (real, root_real, root_len) != 0 || (real[root_len] != '/' && real[root_len] != '\0'))
    {
      free (real);
      return NULL;
    }
  return real;
}

const char *
_duel_device_strip_root (const char *root_real,
                         const char *path)
{
  gsize root_len;

  if (_duel_device_root_is_live (root_real))
    return path;
  root_len = strlen (root_real);
  if (strncmp (path, root_real, root_len) == 0 && path[root_len] == '/')
    return path + root_len;
  return path;
}

gboolean
_duel_device_is_pci_address (const char *name)
{
  /* DDDD:BB:DD.F */
  static const char pattern[] = "hhhh:hh:hh.h";

  if (strlen (name) != sizeof pattern - 1)
    return FALSE;
  for (gsize i = 0; pattern[i] != '\0'; i++)
    {
      if (pattern[i] == 'h' ? !g_ascii_isxdigit (name[i]) : name[i] != pattern[i])
        return FALSE;
    }
  return TRUE;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

GPtrArray *
_duel_device_list_dir (const char *dir)
{
  g_autoptr(GDir) handle = NULL;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  handle = g_dir_open (dir, 0, NULL);
  if (handle == NULL)
    return names;
  while ((name = g_dir_read_name (handle)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  return names;
}
