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

G_END_DECLS
