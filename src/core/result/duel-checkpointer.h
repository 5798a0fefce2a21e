/* duel-checkpointer.h — keeping a running result on disk without saving it whole
 *
 * Saving the whole result costs O(rows); doing it every few seconds from the
 * engine thread stalls the I/O queue and adds up to O(rows²) over a long
 * run. A checkpointer instead takes copies of what changed (new series rows,
 * a test's description, now and then its runtime and histograms) and hands
 * them to its own writer thread, which appends them to a journal beside the
 * result, "<result>.journal", and folds them into a shadow copy of the
 * result. When the journal outgrows max(1 MiB, the last full save), the
 * writer saves the shadow whole (atomically) and starts a fresh journal, so
 * the work stays O(1) per interval, amortised, and the journal bounded.
 * duel_result_load() folds a journal it finds back in: a run killed at any
 * moment loses at most what the engine had not handed over yet.
 *
 * Threads: new(), start(), finish() in the caller's thread; update() in the
 * engine thread only; get_stats() and dup_error() from any thread.
 *
 * Memory: constant per interval apart from the rows themselves; the writer's
 * shadow holds a second copy of every row (about 64 bytes each).
 *
 * Rows are copied when update() first sees them: a change to a row already
 * handed over (a temperature stamped late) is not journalled, only saved by
 * finish(). A record's series may only grow; if it shrinks (a record run
 * again), its later rows are left to finish().
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "duel-file-writer.h"
#include "duel-result.h"

G_BEGIN_DECLS

#define DUEL_TYPE_CHECKPOINTER (duel_checkpointer_get_type ())

G_DECLARE_FINAL_TYPE (DuelCheckpointer, duel_checkpointer, DUEL, CHECKPOINTER, GObject)

typedef struct
{
  guint64 checkpoints;          /* journal syncs: a period's lines made durable */
  guint64 compactions;          /* full saves of the shadow, each with a fresh journal */
  guint64 update_max_ns;        /* the longest duel_checkpointer_update() */
  guint64 update_total_ns;      /* all duel_checkpointer_update() calls together */
  guint64 updates;              /* duel_checkpointer_update() calls */
  guint64 writer_passes;        /* times the writer woke and wrote (or synced) */
  guint64 writer_total_ns;      /* its time outside compactions: lines, shadow, write, sync */
  guint64 writer_max_ns;        /* its longest pass outside compactions */
  guint64 compaction_total_ns;
  guint64 compaction_max_ns;
  guint64 journal_bytes;        /* the current journal's size */
  guint64 errors;               /* failed writes, syncs and compactions */
} DuelCheckpointerStats;

/* @result_path: where the result is saved (duel_result_save() rules: a new
 * file, or over a Drive Duel result or an empty file, never through a
 * link). The journal lives beside it at "<result_path>.journal". Over an
 * existing file, both are first "<result_path>.new" (or .new-2, … the
 * first name free for both) and its journal, renamed over the old ones
 * once a checkpoint with rows is on disk — over a finished result, once
 * they are at least as many rows as it holds. finish() with no row
 * measured removes them and fails, the old file left as it was; finish()
 * of a run stopped with fewer rows than a finished result keeps that one
 * and saves this run as RESULT.stopped-DATE-TIME.json
 * (duel_checkpointer_get_kept_name()). */
DuelCheckpointer *duel_checkpointer_new             (const char            *result_path);
/* The same for @name in @folder, opened by the caller (who may have locked
 * and checked it there); @result_flags say what may be replaced at @name
 * (DUEL_WRITE_REPLACE_ANY once the person agreed). */
DuelCheckpointer *duel_checkpointer_new_in          (DuelFolder            *folder,
                                                     const char            *name,
                                                     DuelWriteFlags         result_flags);
const char       *duel_checkpointer_get_result_path (DuelCheckpointer      *self);
/* After finish(): the name (in the result's folder) this run was saved
 * under beside a finished result it did not replace; NULL otherwise. */
const char       *duel_checkpointer_get_kept_name   (DuelCheckpointer      *self);
/* NULL before duel_checkpointer_start(). */
const char       *duel_checkpointer_get_journal_path (DuelCheckpointer     *self);
/* Caller's thread (before the run): a full save of @result (its header: target,
 * device, name, tests so far) and a fresh journal; starts the writer thread.
 * FALSE + error when the file cannot be written. @result itself is not
 * changed; the saved copy carries the journal's id. Temporary files that
 * killed writers left in the folder, and that no live writer holds
 * (duel-folder.h), are removed first. */
gboolean          duel_checkpointer_start           (DuelCheckpointer      *self,
                                                     DuelResult            *result,
                                                     GError               **error);
/* Engine thread, whenever a series interval closed or a test started/finished
 * (@test_finished TRUE after a test got its status/summary). O(new rows) plus
 * O(1) per test (the two histograms of a changing test at most once per
 * period of 2 s, and on @test_finished); never waits on I/O or on the
 * writer (a short mutex hands over the copies); never touches @result after
 * returning. Reads @result's tests (the engine thread is the only one
 * changing them, and is between batches while calling). Only between a
 * successful start() and finish(). */
void              duel_checkpointer_update          (DuelCheckpointer      *self,
                                                     DuelResult            *result,
                                                     gboolean               test_finished);
/* Caller's thread, after the engine stopped: stops the writer thread, writes the
 * whole @result with duel_result_save() and removes the journal. @result's
 * journal id is cleared first: a finished file names no journal. FALSE +
 * error when the final save fails (the journal is then kept, synced, so
 * nothing measured is lost). */
gboolean          duel_checkpointer_finish          (DuelCheckpointer      *self,
                                                     DuelResult            *result,
                                                     GError               **error);
/* After finish(): removes the file this run saved, when it made it (a run
 * stopped before its first test; an old result replaced is gone anyway). */
void              duel_checkpointer_discard         (DuelCheckpointer      *self);
/* Counters for the benchmark and tests. */
void              duel_checkpointer_get_stats       (DuelCheckpointer      *self,
                                                     DuelCheckpointerStats *out);
/* The writer's first failure (a write, a sync or a compaction), or NULL.
 * The writer retries with a full save now and then, but a run stops at
 * the first failure (duel-run.c): a run whose rows are no longer kept
 * would go on writing the target for nothing. */
GError           *duel_checkpointer_dup_error       (DuelCheckpointer      *self);
/* Whether dup_error() would return one; cheap, for the engine thread. */
gboolean          duel_checkpointer_has_failed      (DuelCheckpointer      *self);
/* A warning (one sentence) when the result's filesystem is about to run
 * out of room, given once; NULL otherwise. Any thread. */
char             *duel_checkpointer_take_warning    (DuelCheckpointer      *self);

G_END_DECLS
