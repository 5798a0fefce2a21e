/* duel-device-mounts.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "engine/duel-block-node.h"
#include "duel-device-mounts.h"
#include "duel-device-private.h"
#include "duel-error.h"
#include "engine/duel-udisks.h"

struct _DuelDeviceMounts
{
  GArray  *mounts;   /* DuelDeviceMount */
  GArray  *swaps;    /* DuelDeviceSwap */
  gboolean live;     /* root is "/": swap names can be stat()ed */
};

static void
mount_clear (gpointer data)
{
  DuelDeviceMount *mount = data;

  g_clear_pointer (&mount->root, g_free);
  g_clear_pointer (&mount->mount_point, g_free);
  g_clear_pointer (&mount->fstype, g_free);
  g_clear_pointer (&mount->source, g_free);
  g_clear_pointer (&mount->options, g_free);
}

static void
swap_clear (gpointer data)
{
  DuelDeviceSwap *swap = data;

  g_clear_pointer (&swap->filename, g_free);
}

char *
duel_device_mounts_unescape (const char *text)
{
  GString *out;

  g_return_val_if_fail (text != NULL, NULL);

  out = g_string_sized_new (strlen (text));
  for (const char *p = text; *p != '\0'; p++)
    {
      if (p[0] == '\\' &&
          p[1] >= '0' && p[1] <= '3' &&
          p[2] >= '0' && p[2] <= '7' &&
          p[3] >= '0' && p[3] <= '7')
        {
          g_string_append_c (out, (char) (((p[1] - '0') << 6) | ((p[2] - '0') << 3) | (p[3] - '0')));
          p += 3;
        }
      else
        g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* One mountinfo line: ID PARENT MAJ:MIN ROOT MOUNT_POINT OPTIONS [OPTIONAL…] - FSTYPE SOURCE SUPER_OPTIONS */
static gboolean
parse_mountinfo_line (const char      *line,
                      DuelDeviceMount *out_mount)
{
  g_auto(GStrv) fields = g_strsplit (line, " ", -1);
  guint n_fields = g_strv_length (fields);
  guint separator = 0;
  guint major, minor;
  g_autofree char *options = NULL;

  if (n_fields < 10)
    return FALSE;
  if (sscanf (fields[2], "%u:%u", &major, &minor) != 2)
    return FALSE;
  for (guint i = 6; i < n_fields; i++)
    {
      if (strcmp (fields[i], "-") == 0)
        {
          separator = i;
          break;
        }
    }
  if (separator == 0 || separator + 2 >= n_fields)
    return FALSE;
  /* Per-mount options, then the superblock's (where btrfs keeps compress=). */
  options = separator + 3 < n_fields ? g_strconcat (fields[5], ",", fields[separator + 3], NULL)
                                     : g_strdup (fields[5]);

  *out_mount = (DuelDeviceMount) {
    .major = major,
    .minor = minor,
    .root = duel_device_mounts_unescape (fields[3]),
    .mount_point = duel_device_mounts_unescape (fields[4]),
    .fstype = duel_device_mounts_unescape (fields[separator + 1]),
    .source = duel_device_mounts_unescape (fields[separator + 2]),
    .options = duel_device_mounts_unescape (options),
  };
  return TRUE;
}

/* A sandbox's mountinfo lists only what it was given: the host's mounts
 * come from UDisks, so that a device's mount points and the system disk
 * are the host's. Without an answer there are none; the safety rules then
 * ask UDisks themselves and refuse (duel-safety.c). */
static void
add_foreign_mounts (DuelDeviceMounts *mounts)
{
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GError) error = NULL;

  found = duel_udisks_get_mounts (NULL, &error);
  if (found == NULL)
    {
      g_debug ("No host mounts from UDisks: %s", error->message);
      return;
    }
  for (guint i = 0; i < found->len; i++)
    {
      const DuelUDisksUse *use = g_ptr_array_index (found, i);

      for (guint j = 0; use->mount_points[j] != NULL; j++)
        {
          DuelDeviceMount mount = {
            .major = use->major,
            .minor = use->minor,
            .root = g_strdup ("/"),
            .mount_point = g_strdup (use->mount_points[j]),
            .fstype = g_strdup (use->fstype != NULL ? use->fstype : ""),
            .source = g_strdup_printf ("/dev/%s", use->name),
            .options = g_strdup (""),
            .foreign = TRUE,
          };

          g_array_append_val (mounts->mounts, mount);
        }
    }
}

static DuelDeviceMounts *
load_table (const char  *root,
            gboolean     with_foreign,
            GError     **error)
{
  g_autoptr(DuelDeviceMounts) mounts = NULL;
  g_autofree char *root_real = NULL;
  g_autofree char *mountinfo_path = NULL;
  g_autofree char *swaps_path = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GError) local_error = NULL;
  g_auto(GStrv) lines = NULL;

  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  root_real = _duel_device_root_real (root, error);
  if (root_real == NULL)
    return NULL;

  mounts = g_new0 (DuelDeviceMounts, 1);
  mounts->mounts = g_array_new (FALSE, TRUE, sizeof (DuelDeviceMount));
  g_array_set_clear_func (mounts->mounts, mount_clear);
  mounts->swaps = g_array_new (FALSE, TRUE, sizeof (DuelDeviceSwap));
  g_array_set_clear_func (mounts->swaps, swap_clear);
  mounts->live = _duel_device_root_is_live (root_real);

  mountinfo_path = g_build_filename (root_real, "proc", "self", "mountinfo", NULL);
  if (!g_file_get_contents (mountinfo_path, &contents, NULL, &local_error))
    {
      g_set_error (error, DUEL_ERROR, DUEL_ERROR_FAILED,
                   _("Cannot read the mount table: %s"), local_error->message);
      return NULL;
    }
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      DuelDeviceMount mount;

      if (parse_mountinfo_line (lines[i], &mount))
        g_array_append_val (mounts->mounts, mount);
    }
  g_clear_pointer (&lines, g_strfreev);
  g_clear_pointer (&contents, g_free);
  if (with_foreign && mounts->live && duel_block_node_sandboxed ())
    add_foreign_mounts (mounts);

  /* No swaps file (a kernel without swap, a capture without it): no swap. */
  swaps_path = g_build_filename (root_real, "proc", "swaps", NULL);
  if (g_file_get_contents (swaps_path, &contents, NULL, NULL))
    {
      lines = g_strsplit (contents, "\n", -1);
      /* The first line is the header. */
      for (guint i = 1; lines[0] != NULL && lines[i] != NULL; i++)
        {
          g_auto(GStrv) fields = g_strsplit_set (lines[i], " \t", -1);
          const char *name = NULL;
          const char *type = NULL;
          DuelDeviceSwap swap;

          for (guint j = 0; fields[j] != NULL; j++)
            {
              if (fields[j][0] == '\0')
                continue;
              if (name == NULL)
                name = fields[j];
              else
                {
                  type = fields[j];
                  break;
                }
            }
          if (name == NULL)
            continue;
          swap.filename = duel_device_mounts_unescape (name);
          swap.is_partition = g_strcmp0 (type, "partition") == 0;
          g_array_append_val (mounts->swaps, swap);
        }
    }

  return g_steal_pointer (&mounts);
}

DuelDeviceMounts *
duel_device_mounts_load (const char  *root,
                         GError     **error)
{
  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return load_table (root, TRUE, error);
}

DuelDeviceMounts *
duel_device_mounts_load_here (const char  *root,
                              GError     **error)
{
  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return load_table (root, FALSE, error);
}

void
duel_device_mounts_free (DuelDeviceMounts *mounts)
{
  if (mounts == NULL)
    return;
  g_array_unref (mounts->mounts);
  g_array_unref (mounts->swaps);
  g_free (mounts);
}

guint
duel_device_mounts_get_n_mounts (DuelDeviceMounts *mounts)
{
  g_return_val_if_fail (mounts != NULL, 0);
  return mounts->mounts->len;
}

const DuelDeviceMount *
duel_device_mounts_get_mount (DuelDeviceMounts *mounts,
                              guint             index)
{
  g_return_val_if_fail (mounts != NULL, NULL);
  g_return_val_if_fail (index < mounts->mounts->len, NULL);
  return &g_array_index (mounts->mounts, DuelDeviceMount, index);
}

guint
duel_device_mounts_get_n_swaps (DuelDeviceMounts *mounts)
{
  g_return_val_if_fail (mounts != NULL, 0);
  return mounts->swaps->len;
}

const DuelDeviceSwap *
duel_device_mounts_get_swap (DuelDeviceMounts *mounts,
                             guint             index)
{
  g_return_val_if_fail (mounts != NULL, NULL);
  g_return_val_if_fail (index < mounts->swaps->len, NULL);
  return &g_array_index (mounts->swaps, DuelDeviceSwap, index);
}

GStrv
duel_device_mounts_find_mount_points (DuelDeviceMounts *mounts,
                                      guint             major,
                                      guint             minor)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (mounts != NULL, NULL);

  /* Device 0:N is an anonymous filesystem (tmpfs, proc, overlay): never a block device. */
  if (major != 0)
    {
      for (guint i = 0; i < mounts->mounts->len; i++)
        {
          const DuelDeviceMount *mount = &g_array_index (mounts->mounts, DuelDeviceMount, i);

          if (mount->major == major && mount->minor == minor)
            g_strv_builder_add (builder, mount->mount_point);
        }
    }
  return g_strv_builder_end (builder);
}

static gboolean
path_is_under (const char *path,
               const char *mount_point)
{
  gsize len = strlen (mount_point);

  if (strcmp (mount_point, "/") == 0)
    return path[0] == '/';
  return strncmp (path, mount_point, len) == 0 && (path[len] == '/' || path[len] == '\0');
}

const DuelDeviceMount *
duel_device_mounts_find_for_path (DuelDeviceMounts *mounts,
                                  const char       *path)
{
  const DuelDeviceMount *best = NULL;
  gsize best_len = 0;

  g_return_val_if_fail (mounts != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  for (guint i = 0; i < mounts->mounts->len; i++)
    {
      const DuelDeviceMount *mount = &g_array_index (mounts->mounts, DuelDeviceMount, i);
      gsize len = strlen (mount->mount_point);

      /* ">=": a later mount on the same point hides the earlier one. */
      if (!mount->foreign && path_is_under (path, mount->mount_point) && (best == NULL || len >= best_len))
        {
          best = mount;
          best_len = len;
        }
    }
  return best;
}

gboolean
duel_device_mounts_block_source_of (const char *path,
                                    dev_t      *out_devnum)
{
  g_autoptr(DuelDeviceMounts) mounts = duel_device_mounts_load_here ("/", NULL);
  g_autofree char *real = realpath (path, NULL);
  const DuelDeviceMount *mount = NULL;
  struct stat source;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (out_devnum != NULL, FALSE);

  if (mounts != NULL && real != NULL)
    mount = duel_device_mounts_find_for_path (mounts, real);
  if (mount == NULL || !g_str_has_prefix (mount->source, "/dev/") ||
      stat (mount->source, &source) != 0 || !S_ISBLK (source.st_mode))
    return FALSE;
  *out_devnum = source.st_rdev;
  return TRUE;
}

gboolean
duel_device_mounts_is_swap_device (DuelDeviceMounts *mounts,
                                   const char       *name,
                                   guint             dev_major,
                                   guint             dev_minor)
{
  g_return_val_if_fail (mounts != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  for (guint i = 0; i < mounts->swaps->len; i++)
    {
      const DuelDeviceSwap *swap = &g_array_index (mounts->swaps, DuelDeviceSwap, i);
      g_autofree char *base = NULL;
      struct stat st;

      if (!swap->is_partition)
        continue;
      base = g_path_get_basename (swap->filename);
      if (strcmp (base, name) == 0)
        return TRUE;
      /* /dev/mapper/NAME and /dev/disk/by-… are links to the real node. */
      if (mounts->live && stat (swap->filename, &st) == 0 && S_ISBLK (st.st_mode) &&
          major (st.st_rdev) == dev_major && minor (st.st_rdev) == dev_minor)
        return TRUE;
    }
  return FALSE;
}

gboolean
duel_device_mounts_is_swap_file (DuelDeviceMounts *mounts,
                                 const char       *path)
{
  struct stat target;

  g_return_val_if_fail (mounts != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!mounts->live || stat (path, &target) != 0)
    return FALSE;
  for (guint i = 0; i < mounts->swaps->len; i++)
    {
      const DuelDeviceSwap *swap = &g_array_index (mounts->swaps, DuelDeviceSwap, i);
      struct stat st;

      if (!swap->is_partition && stat (swap->filename, &st) == 0 &&
          st.st_dev == target.st_dev && st.st_ino == target.st_ino)
        return TRUE;
    }
  return FALSE;
}
