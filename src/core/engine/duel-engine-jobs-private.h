/* duel-engine-jobs-private.h — what the jobs of one run share (numjobs > 1)
 *
 * The calling thread (duel-engine-jobs.c) sets it up, starts the jobs and
 * merges their rows; the jobs' threads reach it only through the
 * _duel_engine_jobs_*() calls of duel-engine-private.h
 * (duel-engine-jobs-shared.c). Only those two files include this header.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "duel-engine-private.h"

G_BEGIN_DECLS

/* Intervals handed over but not yet merged: how far one job may run ahead
 * of the slowest before it waits (0.8 s at the shortest interval). */
#define N_PENDING         8

typedef struct
{
  DuelSeriesRow row;
  DuelHistogram hist[DUEL_N_DIRECTIONS];
} PendingRow;

typedef struct
{
  DuelEngineJobs *owner;
  guint           index;
  GThread        *thread;
  gboolean        ready;               /* set up, or failed to */
  gboolean        ended;
  guint64         n_closed;            /* rows handed over */
  guint64         ops[DUEL_N_DIRECTIONS];    /* published totals */
  guint64         bytes[DUEL_N_DIRECTIONS];
  guint64         last_ns;
  gboolean        cancelled;
  GError         *error;
} Job;

struct _DuelEngineJobs
{
  /* Read-only while the jobs run. */
  DuelTarget     *target;
  DuelTestRecord *record;              /* the workload and span only, outside the calling thread */
  gboolean        reads;
  gboolean        writes;
  DuelEngineWatchdog *watchdog;        /* the run's; may be NULL */
  GCancellable   *cancellable;
  guint           n_jobs;
  gboolean        has_budget;

  GMutex          budget_lock;
  guint64         budget_blocks;       /* not taken yet */

  int             stop;                /* atomic: a job failed */

  GMutex          lock;
  GCond           changed;             /* for the calling thread: a job is ready, a row came, a job ended */
  GCond           advanced;            /* for the jobs: the start, or a pending row freed */
  gboolean        go;
  gboolean        abort;
  guint64         t0;
  int             first_failed;        /* the job whose error the run reports, or -1 */
  Job            *jobs;
  PendingRow     *pending;             /* row k at k % N_PENDING, for next_row <= k < next_row + N_PENDING */
  guint64         next_row;            /* the first row not yet merged */
  DuelSeriesRow   tail;                /* what becomes the last row */
  DuelHistogram  *tail_hist;
  guint           n_ended;

  /* Pauses of the process, as the jobs saw them, merged: each job's view of
   * one pause overlaps the others' (all threads stop together). */
  GArray         *pauses;              /* DuelPause, at most DUEL_TEST_RECORD_MAX_PAUSES */
  DuelEngineSpan  windows[DUEL_TEST_RECORD_MAX_PAUSES];   /* pause i's, raw CLOCK_MONOTONIC */
  guint64         shifts[DUEL_TEST_RECORD_MAX_PAUSES];    /* pause i's part of @shift */
  guint64         shift;               /* the clock time all pauses took */
  guint           pauses_copied;       /* the calling thread's: @pauses_changes it copied */
  guint64         shift_copied;        /* the calling thread's: @shift when it copied them */
  guint           pauses_changes;
  int             shift_changes;       /* atomic */
};

/* A job's row into a merged one: sums, lat_max the largest. */
static inline void
_duel_engine_jobs_row_add (DuelSeriesRow       *into,
                           const DuelSeriesRow *from)
{
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      into->ops[d] += from->ops[d];
      into->bytes[d] += from->bytes[d];
      into->lat_max_ns[d] = MAX (into->lat_max_ns[d], from->lat_max_ns[d]);
    }
}

G_END_DECLS
