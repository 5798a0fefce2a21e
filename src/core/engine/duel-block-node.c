/* duel-block-node.c — a block device by its /dev path, seen or not
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "duel-block-node.h"

/* The device number the kernel gives the block device NAME, from sysfs
 * ("259:0\n"); FALSE when it has none. */
static gboolean
read_sysfs_devnum (const char *name,
                   dev_t      *out_devnum)
{
  g_autofree char *file = g_build_filename ("/sys/class/block", name, "dev", NULL);
  g_autofree char *text = NULL;
  guint major_number, minor_number;
  char end;

  if (!g_file_get_contents (file, &text, NULL, NULL) ||
      sscanf (text, "%u:%u%c", &major_number, &minor_number, &end) != 3 || end != '\n')
    return FALSE;
  *out_devnum = makedev (major_number, minor_number);
  return TRUE;
}

int
duel_block_node_stat (const char  *path,
                      struct stat *st,
                      gboolean    *out_hidden)
{
  const char *name;
  dev_t devnum;

  g_return_val_if_fail (path != NULL, -1);
  g_return_val_if_fail (st != NULL, -1);

  if (out_hidden != NULL)
    *out_hidden = FALSE;
  if (stat (path, st) == 0)
    return 0;
  if (errno != ENOENT || !g_str_has_prefix (path, "/dev/"))
    return -1;

  /* Only a kernel name right under /dev: /dev/disk/by-id/… links are
   * udev's, and a name with "." or ".." is no device's. */
  name = path + strlen ("/dev/");
  if (*name == '\0' || strchr (name, '/') != NULL || name[0] == '.' || !read_sysfs_devnum (name, &devnum))
    {
      errno = ENOENT;
      return -1;
    }

  memset (st, 0, sizeof *st);
  st->st_mode = S_IFBLK;
  st->st_rdev = devnum;
  if (out_hidden != NULL)
    *out_hidden = TRUE;
  return 0;
}

gboolean
duel_block_node_sandboxed (void)
{
  return g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS);
}
