/* duel-engine.h — one workload on one target through io_uring
 *
 * The engine runs in the calling thread (a GTask worker in the GUI, the main
 * thread in the CLI) and creates its ring there. With numjobs > 1 each job
 * runs in a thread of its own with its own ring, and the calling thread
 * merges what they measure into the one record; it alone touches the record
 * and calls back.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "duel-target.h"
#include "duel-test-record.h"

G_BEGIN_DECLS

/* A consistent snapshot, taken in the calling thread between batches. With
 * several jobs, ops and bytes add what each job last told, at most 200 ms
 * ago, and never less than the record's rows hold. */
typedef struct
{
  guint64 elapsed_ns;
  guint64 ops[DUEL_N_DIRECTIONS];
  guint64 bytes[DUEL_N_DIRECTIONS];
  guint64 byte_limit;              /* 0: none */
  guint64 runtime_limit_ns;        /* 0: none */
  double  fraction_done;           /* 0..1 against the nearer limit */
  double  interval_iops;           /* the last complete interval, both directions */
  double  interval_bytes_per_second;
  guint   n_intervals;
  gboolean interval_closed;        /* a series row was appended since the last call */
} DuelProgress;

/* Called in the calling thread at least every 250 ms and whenever an interval
 * closes (with several jobs: once every job closed it). The record may be
 * read (e.g. checkpointed) but not changed. */
typedef void (*DuelProgressFunc) (const DuelProgress *progress,
                                  DuelTestRecord     *record,
                                  gpointer            user_data);

/* Runs record->workload on @target, filling the record's series, histograms,
 * runtime and status. On an I/O error or a cancel, returns FALSE with @error
 * set, and the record keeps everything measured up to that point. */
gboolean duel_engine_run (DuelTarget         *target,
                          DuelTestRecord     *record,
                          GCancellable       *cancellable,
                          DuelProgressFunc    progress_func,
                          gpointer            progress_data,
                          GError            **error);

/* A stop lets the I/O in flight finish (a device answers or fails it)
 * before the run ends. With a device that does not answer, that wait has
 * no end; these say what it waits for, and end it. Any thread.
 *
 * While an engine run with @cancellable stops: the I/Os it waits for (all
 * its jobs') and the time since the device last answered one. FALSE when
 * none waits. */
gboolean duel_engine_get_drain        (GCancellable *cancellable,
                                       guint        *out_in_flight,
                                       guint64      *out_unanswered_ns);
/* Every engine run with @cancellable, once stopping, stops waiting: it
 * asks the kernel to cancel its I/O in flight, leaves it to the kernel and
 * returns as cancelled (within 50 ms). */
void     duel_engine_give_up          (GCancellable *cancellable);
/* The I/Os given up on (left in flight) by engine runs with @cancellable:
 * their target may still be busy, and memory they use is not freed. */
guint    duel_engine_get_abandoned    (GCancellable *cancellable);

/* A stop of the caller's own, for a run that its own rule may end before
 * the workload does (the probe, a write until its rate falls): cancelled
 * by @cancellable (NULL: none) too, and one run with it to
 * duel_engine_get_drain(), _give_up() and _get_abandoned(), so that the
 * person's stop of a hung device is said and given up on there as well.
 * Freed (and let go of @cancellable) by duel_engine_own_stop_free(). */
GCancellable *duel_engine_own_stop_new  (GCancellable *cancellable);
void          duel_engine_own_stop_free (GCancellable *stop);

G_END_DECLS
