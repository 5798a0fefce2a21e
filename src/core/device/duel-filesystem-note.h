/* duel-filesystem-note.h — what a file target's filesystem does to its figures
 *
 * A file on tmpfs measures memory, one on NFS the network, one on ZFS the
 * ARC as much as the drive: figures that can be faster than the drive, or
 * slower for reasons that are not the drive's. One sentence says so before
 * the run and beside the result.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A translated sentence on what a file on a filesystem of TYPE (as the mount
 * table names it: "tmpfs", "fuse.sshfs", "btrfs") measures, or NULL when it
 * measures the drive beneath (ext4, xfs, an uncompressed btrfs).
 * MOUNT_OPTIONS ("rw,compress=zstd:3,…", may be NULL) tell a compressing
 * btrfs from one that is not. */
const char *duel_filesystem_note          (const char *type,
                                           const char *mount_options);
/* The note for a file target at PATH (a file that does not exist yet lives
 * in its folder's filesystem), from the running system's mount table; NULL
 * for a block device, a filesystem with nothing to say, or when the mount
 * table cannot be read. */
char       *duel_filesystem_note_for_path (const char *path);

G_END_DECLS
