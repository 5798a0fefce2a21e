/* duel-device-mounts.h — what is mounted and what is swap, from ROOT/proc
 *
 * Reads ROOT/proc/self/mountinfo and ROOT/proc/swaps once; lookups are by
 * device number, so /dev/root, /dev/mapper/… and UUID sources all match.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

typedef struct
{
  guint  major;
  guint  minor;
  char  *root;          /* the mounted subtree of the filesystem, "/" usually */
  char  *mount_point;
  char  *fstype;
  char  *source;        /* "/dev/vda1", "tmpfs", … */
  char  *options;       /* the mount's and the filesystem's options, "rw,relatime,compress=zstd:3,…" */
  gboolean foreign;     /* the host's, from UDisks, in a sandbox: not in this
                         * mount namespace, so no path here lies under it */
} DuelDeviceMount;

typedef struct
{
  char    *filename;    /* "/dev/zram0" or a swap file */
  gboolean is_partition;/* "partition" (a block device) rather than "file" */
} DuelDeviceSwap;

typedef struct _DuelDeviceMounts DuelDeviceMounts;

/* Fails only when mountinfo cannot be read; a missing swaps file means none.
 * In a sandbox (duel_block_node_sandboxed()) the running system's table also
 * holds the host's mounts UDisks knows, marked foreign, when it answers. */
DuelDeviceMounts      *duel_device_mounts_load             (const char        *root,
                                                            GError           **error);
/* This mount namespace's table alone, for questions about paths here (which
 * filesystem holds a file), with no call to UDisks. */
DuelDeviceMounts      *duel_device_mounts_load_here        (const char        *root,
                                                            GError           **error);
void                   duel_device_mounts_free             (DuelDeviceMounts  *mounts);
guint                  duel_device_mounts_get_n_mounts     (DuelDeviceMounts  *mounts);
const DuelDeviceMount *duel_device_mounts_get_mount        (DuelDeviceMounts  *mounts,
                                                            guint              index);
guint                  duel_device_mounts_get_n_swaps      (DuelDeviceMounts  *mounts);
const DuelDeviceSwap  *duel_device_mounts_get_swap         (DuelDeviceMounts  *mounts,
                                                            guint              index);
/* Mount points of the filesystem on MAJOR:MINOR, in mountinfo order; NULL-terminated, never NULL. */
GStrv                  duel_device_mounts_find_mount_points(DuelDeviceMounts  *mounts,
                                                            guint              major,
                                                            guint              minor);
/* The mount that holds PATH (an absolute, canonical path): the longest
 * matching mount point, the last one mounted when stacked; never a foreign one. */
const DuelDeviceMount *duel_device_mounts_find_for_path    (DuelDeviceMounts  *mounts,
                                                            const char        *path);
/* The block device the running system's mount table says the filesystem
 * holding PATH is mounted from, for filesystems whose st_dev is anonymous
 * (btrfs, overlay): FALSE when it is not a block device under /dev. */
gboolean               duel_device_mounts_block_source_of  (const char        *path,
                                                            dev_t             *out_devnum);
/* TRUE when the block device NAME (e.g. "zram0") with MAJOR:MINOR is active
 * swap. On the running system swap names are also resolved through stat(). */
gboolean               duel_device_mounts_is_swap_device   (DuelDeviceMounts  *mounts,
                                                            const char        *name,
                                                            guint              major,
                                                            guint              minor);
/* TRUE when the regular file PATH is an active swap file. */
gboolean               duel_device_mounts_is_swap_file     (DuelDeviceMounts  *mounts,
                                                            const char        *path);

/* mountinfo and swaps escape space, tab, newline and backslash as \ooo. */
char                  *duel_device_mounts_unescape         (const char        *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelDeviceMounts, duel_device_mounts_free)

G_END_DECLS
