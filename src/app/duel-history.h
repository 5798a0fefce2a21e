/* duel-history.h — every run the app made, as result files in the user's data folder
 *
 * Runs are checkpointed into their history file while they run, so a crash or
 * a kill keeps what was measured; the list shows them as "interrupted".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "duel-result-item.h"

G_BEGIN_DECLS

#define DUEL_TYPE_HISTORY (duel_history_get_type ())

G_DECLARE_FINAL_TYPE (DuelHistory, duel_history, DUEL, HISTORY, GObject)

/* @directory: NULL for $XDG_DATA_HOME/driveduel/history. */
DuelHistory    *duel_history_new          (const char          *directory);
const char     *duel_history_get_directory(DuelHistory         *self);
/* DuelResultItem, newest first. */
GListModel     *duel_history_get_model    (DuelHistory         *self);
gboolean        duel_history_is_loaded    (DuelHistory         *self);

/* Reads every result file of the folder in a worker thread and replaces the list. */
void            duel_history_reload_async (DuelHistory         *self,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
gboolean        duel_history_reload_finish(DuelHistory         *self,
                                           GAsyncResult        *result,
                                           GError             **error);

/* A new, unused file name for a run that starts now; creates the folder. */
char           *duel_history_new_path     (DuelHistory         *self,
                                           const char          *hint,
                                           GError             **error);
/* Adds (or updates) the item for @path, which holds @result. */
DuelResultItem *duel_history_add          (DuelHistory         *self,
                                           const char          *path,
                                           DuelResult          *result);
DuelResultItem *duel_history_lookup       (DuelHistory         *self,
                                           GFile               *file);
/* Renames the run (its "name" in the file; the file itself keeps its name). */
gboolean        duel_history_rename       (DuelHistory         *self,
                                           DuelResultItem      *item,
                                           const char          *name,
                                           GError             **error);
gboolean        duel_history_delete       (DuelHistory         *self,
                                           DuelResultItem      *item,
                                           GError             **error);

G_END_DECLS
