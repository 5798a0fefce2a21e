/* duel-block-node.h — a block device by its /dev path, seen or not
 *
 * A sandbox (Flatpak, bubblewrap) has a /dev of its own without the host's
 * disks, and a mount namespace that shows only the host mounts it was given,
 * while /sys is the host's. Such a device is still named by its kernel name
 * (/dev/sdb, /dev/nvme0n1) and opened through UDisks (duel-udisks.h); these
 * calls find it, and say when mounts must be asked of UDisks too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <sys/stat.h>

G_BEGIN_DECLS

/* stat(2), except that a /dev/NAME this process cannot see, while the
 * kernel has a block device NAME (/sys/class/block/NAME/dev), gives a
 * block device with that number (S_IFBLK, st_rdev, nothing else filled in)
 * and *@out_hidden TRUE. Returns 0, or -1 with errno as stat() set it.
 * @out_hidden may be NULL. */
int      duel_block_node_stat       (const char  *path,
                                     struct stat *st,
                                     gboolean    *out_hidden);
/* TRUE in a Flatpak (/.flatpak-info exists): this mount namespace is not
 * the host's, so what is mounted must be asked of UDisks as well. */
gboolean duel_block_node_sandboxed  (void);

G_END_DECLS
