/* duel-folder-lock.h — a lock file in a folder
 *
 * A file that says who writes beside it (a result being written: RESULT.lock,
 * duel-preflight.h), made through the file writer like every file Drive Duel
 * writes, and locked with flock(), so the kernel lets go of it when the
 * process that holds it dies.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "duel-folder.h"

G_BEGIN_DECLS

/* A lock file @name in the folder, holding DUEL_LOCK_FORMAT: created new,
 * or, when it exists, opened only if it is one (a file that is anything
 * else is not touched: DUEL_ERROR_REFUSED), then flock()ed exclusively
 * without waiting. Busy: G_IO_ERROR_BUSY. Returns the descriptor holding
 * the lock, or -1. */
int         duel_folder_lock          (DuelFolder   *self,
                                       const char   *name,
                                       GError      **error);
/* Removes the lock file (while it is still the one @fd holds) and closes @fd. */
void        duel_folder_unlock        (DuelFolder   *self,
                                       const char   *name,
                                       int           fd);

G_END_DECLS
