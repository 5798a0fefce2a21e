/* duel-udisks.h — open a block device through UDisks2 when the process may not
 *
 * org.freedesktop.UDisks2.Block.OpenDevice asks polkit (interactively, when
 * an agent is there to ask) and passes back a descriptor opened by the
 * daemon. duel_target_open() falls back to it on EACCES/EPERM; the GUI calls
 * the async form itself, after its confirmations.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* @open_flags: extra open(2) flags UDisks accepts (O_DIRECT, O_EXCL, O_SYNC,
 * O_CLOEXEC). Returns the descriptor (the caller closes it), or -1 with
 * @error set to one sentence that says what to do instead (run as root, join
 * the device's group, allow it in polkit). Blocks while polkit asks. */
int  duel_udisks_open_device        (const char          *device_path,
                                     gboolean             write,
                                     int                  open_flags,
                                     GCancellable        *cancellable,
                                     GError             **error);
/* The same in a worker thread. */
void duel_udisks_open_device_async  (const char          *device_path,
                                     gboolean             write,
                                     int                  open_flags,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data);
int  duel_udisks_open_device_finish (GAsyncResult        *result,
                                     GError             **error);

/* What UDisks says of a block device and its partitions, for a process
 * whose own /proc/self/mountinfo does not show the host's mounts (a
 * sandbox). */
typedef struct
{
  char     *name;          /* the kernel name, "sdb", "sdb1" */
  guint     major;
  guint     minor;
  char     *fstype;        /* what UDisks found on it, "ext4"; NULL when nothing */
  gboolean  whole;         /* the device asked about, not one of its partitions */
  GStrv     mount_points;  /* where its filesystem is mounted; never NULL */
  gboolean  swap;          /* in use as swap */
} DuelUDisksUse;

void       duel_udisks_use_free           (DuelUDisksUse       *use);
/* The block device MAJOR:MINOR first, then each partition in its partition
 * table; NULL with @error set when UDisks cannot be asked or does not know
 * the device. Blocks for at most 10 s. */
GPtrArray *duel_udisks_get_uses           (guint                major_number,
                                           guint                minor_number,
                                           GCancellable        *cancellable,
                                           GError             **error);

/* Every block device UDisks knows with a mounted filesystem; NULL with
 * @error set when UDisks cannot be asked. Blocks for at most 10 s. */
GPtrArray *duel_udisks_get_mounts         (GCancellable        *cancellable,
                                           GError             **error);

/* What UDisks (libatasmart, as root) last read of an ATA drive's SMART
 * data: org.freedesktop.UDisks2.Drive.Ata, readable by anyone. */
typedef struct
{
  gboolean  supported;
  gboolean  enabled;
  guint64   updated_s;          /* when UDisks read it (Unix time); 0 never */
  gboolean  failing;            /* SMART RETURN STATUS said a threshold was exceeded */
  double    temperature_k;      /* 0 when unknown */
  guint64   power_on_seconds;   /* 0 when unknown */
} DuelUDisksSmart;

/* The SMART data of the drive that holds block device MAJOR:MINOR; FALSE
 * with @error set when UDisks cannot be asked or knows no ATA drive there.
 * Blocks for at most 10 s. */
gboolean   duel_udisks_get_ata_smart      (guint                major_number,
                                           guint                minor_number,
                                           DuelUDisksSmart     *out_smart,
                                           GCancellable        *cancellable,
                                           GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelUDisksUse, duel_udisks_use_free)

G_END_DECLS
