/* duel-filesystem-note.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/duel-block-node.h"
#include "duel-device-mounts.h"
#include "duel-filesystem-note.h"

/* Types as /proc/self/mountinfo names them; a name ending in "." matches
 * every subtype ("fuse." covers fuse.sshfs, fuse.gvfsd-fuse, …). */
static const struct
{
  const char *type;
  const char *note;
} notes[] = {
  /* TRANSLATORS: said of a file target before a run and beside its result */
  { "tmpfs",   N_("The file is in memory (tmpfs): this measures RAM, not a drive.") },
  /* TRANSLATORS: said of a file target before a run and beside its result */
  { "ramfs",   N_("The file is in memory (ramfs): this measures RAM, not a drive.") },
  /* TRANSLATORS: said of a file target; ARC is ZFS's read cache in memory */
  { "zfs",     N_("The file is on ZFS, which caches reads in memory (ARC) and may compress: "
                  "the figures can exceed what the drive can do.") },
  /* TRANSLATORS: said of a file target; ntfs-3g is a program, keep its name */
  { "fuseblk", N_("The file is reached through FUSE (e.g. ntfs-3g): the figures include "
                  "the cost of a filesystem running as a program, not the drive alone.") },
  { "fuse",    N_("The file is reached through FUSE (e.g. ntfs-3g): the figures include "
                  "the cost of a filesystem running as a program, not the drive alone.") },
  { "fuse.",   N_("The file is reached through FUSE (e.g. ntfs-3g): the figures include "
                  "the cost of a filesystem running as a program, not the drive alone.") },
  /* TRANSLATORS: said of a file target on a network share */
  { "nfs",     N_("The file is on a network share (NFS): this measures the network and the server, not a local drive.") },
  { "nfs4",    N_("The file is on a network share (NFS): this measures the network and the server, not a local drive.") },
  /* TRANSLATORS: said of a file target on a network share */
  { "cifs",    N_("The file is on a network share (SMB): this measures the network and the server, not a local drive.") },
  { "smb3",    N_("The file is on a network share (SMB): this measures the network and the server, not a local drive.") },
  /* TRANSLATORS: said of a file target; an overlay stacks layers, as containers do */
  { "overlay", N_("The file is on an overlay filesystem (as in a container): the figures are those of "
                  "the layers beneath it, with the overlay’s own cost.") },
};

/* TRUE when a btrfs mount's options turn compression on: compress,
 * compress=zstd:3, compress-force=lzo; not compress=no. */
static gboolean
btrfs_compresses (const char *mount_options)
{
  g_auto(GStrv) options = NULL;

  if (mount_options == NULL)
    return FALSE;
  options = g_strsplit (mount_options, ",", -1);
  for (guint i = 0; options[i] != NULL; i++)
    {
      const char *value;

      if (strcmp (options[i], "compress") == 0 || strcmp (options[i], "compress-force") == 0)
        return TRUE;
      if (g_str_has_prefix (options[i], "compress="))
        value = options[i] + strlen ("compress=");
      else if (g_str_has_prefix (options[i], "compress-force="))
        value = options[i] + strlen ("compress-force=");
      else
        continue;
      if (value[0] != '\0' && strcmp (value, "no") != 0 && strcmp (value, "none") != 0)
        return TRUE;
    }
  return FALSE;
}

const char *
duel_filesystem_note (const char *type,
                      const char *mount_options)
{
  if (type == NULL)
    return NULL;
  if (strcmp (type, "btrfs") == 0)
    /* TRANSLATORS: said of a file target; compress= is a mount option, keep it */
    return btrfs_compresses (mount_options) ? _("The file is on btrfs mounted with compress=: random data may write "
                                                "faster or slower than the drive, and data that compresses well much faster.")
                                            : NULL;
  for (guint i = 0; i < G_N_ELEMENTS (notes); i++)
    {
      gsize length = strlen (notes[i].type);

      if (notes[i].type[length - 1] == '.' ? g_str_has_prefix (type, notes[i].type) && type[length] != '\0'
                                           : strcmp (type, notes[i].type) == 0)
        return _(notes[i].note);
    }
  return NULL;
}

char *
duel_filesystem_note_for_path (const char *path)
{
  g_autoptr(DuelDeviceMounts) mounts = NULL;
  g_autofree char *real = NULL;
  const DuelDeviceMount *mount;
  struct stat st;

  g_return_val_if_fail (path != NULL, NULL);

  /* A device, even one whose node this sandbox hides, is no file. */
  if (duel_block_node_stat (path, &st, NULL) == 0 && !S_ISREG (st.st_mode))
    return NULL;
  real = realpath (path, NULL);
  if (real == NULL)
    {
      g_autofree char *dir = g_path_get_dirname (path);

      real = realpath (dir, NULL);
    }
  if (real == NULL)
    return NULL;
  mounts = duel_device_mounts_load_here ("/", NULL);
  if (mounts == NULL)
    return NULL;
  mount = duel_device_mounts_find_for_path (mounts, real);
  if (mount == NULL)
    return NULL;
  return g_strdup (duel_filesystem_note (mount->fstype, mount->options));
}
