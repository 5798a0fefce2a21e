/* duel-udisks.h — open a block device through UDisks2 when the process may not
 *
 * org.freedesktop.UDisks2.Block.OpenDevice asks polkit (once, interactively)
 * and passes back a descriptor opened by the daemon.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* @open_flags: extra open(2) flags UDisks accepts (O_DIRECT, O_EXCL, O_SYNC, O_CLOEXEC). */
void duel_udisks_open_device_async  (const char          *device_path,
                                     gboolean             write,
                                     int                  open_flags,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data);
/* The descriptor (the caller closes it), or -1 with @error set. */
int  duel_udisks_open_device_finish (GAsyncResult        *result,
                                     GError             **error);

G_END_DECLS
