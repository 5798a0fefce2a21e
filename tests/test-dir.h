/* test-dir.h — removing a test's scratch folder with everything in it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <linux/magic.h>
#include <sys/vfs.h>
#include <unistd.h>

/* Removes @path and what it holds, folders included; a missing @path is fine. */
static inline void
test_dir_remove (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        test_dir_remove (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

/* Whether files in @dir can be opened with O_DIRECT (tmpfs and ramfs cannot). */
static inline gboolean
test_dir_supports_direct_io (const char *dir)
{
  g_autofree char *probe = g_build_filename (dir, "probe", NULL);
  struct statfs sfs;
  int fd;

  if (statfs (dir, &sfs) != 0 || sfs.f_type == TMPFS_MAGIC || sfs.f_type == RAMFS_MAGIC)
    return FALSE;
  fd = open (probe, O_CREAT | O_RDWR | O_DIRECT | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      g_unlink (probe);
      return FALSE;
    }
  close (fd);
  g_unlink (probe);
  return TRUE;
}

/* A new scratch folder "@prefix-XXXXXX" where O_DIRECT works: /tmp may be
 * tmpfs, the build directory is on a real filesystem. NULL when neither is. */
static inline char *
test_dir_make_direct_io (const char *prefix)
{
  const char *bases[] = { g_get_tmp_dir (), g_test_get_dir (G_TEST_BUILT) };

  for (guint i = 0; i < G_N_ELEMENTS (bases); i++)
    {
      g_autofree char *name = g_strdup_printf ("%s-XXXXXX", prefix);
      g_autofree char *template = g_build_filename (bases[i], name, NULL);

      if (g_mkdtemp (template) == NULL)
        continue;
      if (test_dir_supports_direct_io (template))
        return g_steal_pointer (&template);
      g_rmdir (template);
    }
  return NULL;
}
