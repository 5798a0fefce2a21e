/* duel-preflight.h — checks made before a run writes its first byte
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Room a result file may need at the end of a run of unknown length (a 2x
 * fill of a large drive makes about 10^5 rows at 1 s), with the old copy
 * that the atomic save keeps until the rename. */
#define DUEL_PREFLIGHT_RESULT_ROOM (64 * 1024 * 1024)

/* Beside an existing result, a run writes its own as RESULT.new until it
 * has something to replace the old one with (duel-checkpointer.c); two runs
 * are kept from one result path by a lock on RESULT.lock. */
#define DUEL_PREFLIGHT_STAGING_SUFFIX ".new"
#define DUEL_PREFLIGHT_LOCK_SUFFIX    ".lock"

guint64  duel_preflight_result_room (guint64      runtime_ms,
                                     guint        interval_ms);
/* Where the save will write is checked the way the save uses it (a file
 * beside it, written, synced, renamed, removed) and for room. The target's
 * safety and duel_safety_check_output() come first. */
gboolean duel_preflight_output (const char  *path,
                                guint64      room_bytes,
                                GError     **error);
/* The files a run writes for the result saved at @save_path
 * (duel_result_save_path()): the result, its journal, the new result and
 * its journal while an old one is kept, the lock. */
GStrv    duel_preflight_output_files (const char *save_path);

/* An advisory lock (flock) on RESULT.lock, held by the run from before its
 * first write to after its final save: a second run on the same result
 * path is refused. The kernel drops it when the process dies, so a run
 * killed with SIGKILL leaves nothing that blocks the next one. */
typedef struct _DuelOutputLock DuelOutputLock;

DuelOutputLock *duel_output_lock_acquire (const char     *result_path,
                                          GError        **error);
/* Removes RESULT.lock and lets go; NULL is fine. */
void            duel_output_lock_release (DuelOutputLock *lock);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DuelOutputLock, duel_output_lock_release)

G_END_DECLS
