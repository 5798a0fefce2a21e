/* duel-preflight.h — checks made before a run writes its first byte
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "duel-folder.h"

G_BEGIN_DECLS

/* Room a result file may need at the end of a run of unknown length (a 2x
 * fill of a large drive makes about 10^5 rows at 1 s), with the old copy
 * that the atomic save keeps until the rename. */
#define DUEL_PREFLIGHT_RESULT_ROOM (64 * 1024 * 1024)

/* Beside an existing result, a run writes its own as RESULT.new (or the
 * first free RESULT.new-N) until it has something to replace the old one
 * with (duel-checkpointer.c); two runs are kept from one result path by a
 * lock on RESULT.lock; a running result's rows go to RESULT.journal
 * between its saves. */
#define DUEL_PREFLIGHT_STAGING_SUFFIX ".new"
#define DUEL_PREFLIGHT_LOCK_SUFFIX    ".lock"
#define DUEL_PREFLIGHT_JOURNAL_SUFFIX ".journal"

guint64  duel_preflight_result_room (guint64      runtime_ms,
                                     guint        interval_ms);
/* The result's folder is checked the way the save uses it (a file of its
 * own written, synced, named, renamed and removed: duel_file_writer_probe())
 * and for room. The target's safety and duel_safety_check_output() come
 * first. */
gboolean duel_preflight_output (DuelFolder  *folder,
                                guint64      room_bytes,
                                GError     **error);
/* The names a run writes or replaces for the result @name: the result, its
 * journal, the lock. (The new result beside an old one takes a name that
 * is free, so it is never one of these.) */
GStrv    duel_preflight_output_names (const char *name);

/* A lock (flock) on RESULT.lock (duel_folder_lock(): a file holding
 * DUEL_LOCK_FORMAT, anything else at that name is refused), held by the
 * run from before its first write to after its final save: a second run
 * on the same result is refused. The kernel drops it when the process
 * dies, so a run killed with SIGKILL leaves nothing that blocks the next
 * one. @result_path names the result in sentences. */
typedef struct _DuelOutputLock DuelOutputLock;

DuelOutputLock *duel_output_lock_acquire (DuelFolder     *folder,
                                          const char     *name,
                                          const char     *result_path,
                                          GError        **error);
/* Removes RESULT.lock and lets go; NULL is fine. */
void            duel_output_lock_release (DuelOutputLock *lock);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelOutputLock, duel_output_lock_release)

G_END_DECLS
