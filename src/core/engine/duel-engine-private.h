/* duel-engine-private.h — the engine's loop and its jobs (numjobs > 1)
 *
 * duel-engine.c is the entry; duel-engine-jobs.c starts a thread per job
 * and merges what they measure into the one record; duel-engine-ring.c
 * runs one job's loop, alone or in each job's thread;
 * duel-engine-jobs-shared.c holds the calls a job's thread makes to reach
 * the others; duel-engine-watchdog.c is the run's thread that tells a
 * pause of the process from a loop held in a call. Each calls only files
 * after it in that list. The calls below are how they meet; each says
 * which thread makes it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <time.h>

#include "duel-engine.h"

G_BEGIN_DECLS

#define NS_PER_MS         G_GUINT64_CONSTANT (1000000)
#define NS_PER_SEC        G_GUINT64_CONSTANT (1000000000)
/* Progress at least this often (duel-engine.h promises 250 ms). */
#define PROGRESS_EVERY_NS (200 * NS_PER_MS)
/* The shortest pause of the process recorded: forty times the longest wait
 * of a loop (50 ms). A loaded machine's scheduler runs a runnable thread
 * within tens of milliseconds (CFS's latency target), and valgrind's thread
 * lock within its time slices, far below it. */
#define PAUSE_MIN_NS      (2 * NS_PER_SEC)

/* The one clock of every job and of the intervals. */
static inline guint64
_duel_engine_now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * NS_PER_SEC + (guint64) ts.tv_nsec;
}

/* The progress snapshot of @elapsed_ns into a run: totals @ops and @bytes,
 * the fraction against the nearer limit, and the rates of the last of the
 * @series' rows. Both the one-job loop and the jobs' coordinator fill it
 * (duel-engine-ring.c). */
void     _duel_engine_fill_progress      (DuelProgress       *progress,
                                          guint64             elapsed_ns,
                                          const guint64       ops[DUEL_N_DIRECTIONS],
                                          const guint64       bytes[DUEL_N_DIRECTIONS],
                                          guint64             byte_limit,
                                          guint64             runtime_limit_ns,
                                          const DuelSeries   *series,
                                          gboolean            interval_closed);

/* What the stops of the engine runs with one cancellable wait for
 * (duel-engine-drain.c): each loop, once stopping, adds its I/Os in flight
 * and takes them off as the device answers. Lives as long as the
 * cancellable; any thread. */
typedef struct _DuelDrain DuelDrain;

DuelDrain *_duel_drain_get               (GCancellable       *cancellable);
/* A loop begins to stop. */
void     _duel_drain_begin               (DuelDrain          *drain,
                                          guint64             now_ns);
/* Its I/Os in flight changed by @delta; @answered: the device answered. */
void     _duel_drain_update              (DuelDrain          *drain,
                                          gint                delta,
                                          gboolean            answered,
                                          guint64             now_ns);
/* The loop ended (its I/Os taken off first), leaving @abandoned in flight
 * (0 unless given up). */
void     _duel_drain_end                 (DuelDrain          *drain,
                                          guint               abandoned);
/* duel_engine_give_up() was called. Cheap: read once per pass. */
gboolean _duel_drain_given_up            (DuelDrain          *drain);

typedef struct _DuelEngineJobs DuelEngineJobs;
typedef struct _DuelEngineWatchdog DuelEngineWatchdog;

/* A stretch of CLOCK_MONOTONIC time, in ns. */
typedef struct
{
  guint64 from;
  guint64 to;
} DuelEngineSpan;

/* The caller's thread, from duel_engine_run(), in duel-engine-ring.c: runs
 * record->workload as one job, the span, byte limit and record already
 * resolved and reset; sets record->started once the ring is set up. TRUE
 * when the run completed; else FALSE with @error set (a setup or I/O
 * error) or @out_cancelled TRUE and no error. */
gboolean _duel_engine_ring_run           (DuelTarget         *target,
                                          DuelTestRecord     *record,
                                          gboolean            reads,
                                          gboolean            writes,
                                          DuelEngineWatchdog *watchdog,
                                          GCancellable       *cancellable,
                                          DuelProgressFunc    progress_func,
                                          gpointer            progress_data,
                                          gboolean           *out_cancelled,
                                          GError            **error);

/* The caller's thread, from duel_engine_run(): runs record->workload as
 * numjobs jobs at once, the span, byte limit and record already resolved
 * and reset; sets record->started before the jobs start. TRUE when the run
 * completed; else FALSE with @error set (an I/O error) or @out_cancelled
 * TRUE and no error. */
gboolean _duel_engine_jobs_run           (DuelTarget         *target,
                                          DuelTestRecord     *record,
                                          gboolean            reads,
                                          gboolean            writes,
                                          DuelEngineWatchdog *watchdog,
                                          GCancellable       *cancellable,
                                          DuelProgressFunc    progress_func,
                                          gpointer            progress_data,
                                          gboolean           *out_cancelled,
                                          GError            **error);

/* A job's thread, in duel-engine-ring.c: sets up its own ring and buffers,
 * waits for the shared start, runs the loop and hands what is left to @jobs. */
void     _duel_engine_job_main           (DuelEngineJobs     *jobs,
                                          guint               index,
                                          DuelTarget         *target,
                                          const DuelTestRecord *record,
                                          gboolean            reads,
                                          gboolean            writes,
                                          DuelEngineWatchdog *watchdog,
                                          GCancellable       *cancellable);

/* The rest are called from the job threads (duel-engine-jobs-shared.c). */

/* The seed of job @index's offsets and data: the workload's for job 0. */
guint64  _duel_engine_jobs_seed          (guint64             seed,
                                          guint               index);
/* Once set up (@setup_error NULL) or not (transfer full): waits for the
 * others. TRUE and the shared start time, or FALSE when the run is off. */
gboolean _duel_engine_jobs_ready         (DuelEngineJobs     *jobs,
                                          guint               index,
                                          GError             *setup_error,
                                          guint64            *out_t0);
/* Up to @wanted blocks of the byte budget all jobs draw from; 0 once it is spent. */
guint64  _duel_engine_jobs_take_blocks   (DuelEngineJobs     *jobs,
                                          guint64             wanted);
/* Whether the run has a byte budget at all. */
gboolean _duel_engine_jobs_has_budget    (DuelEngineJobs     *jobs);
/* An I/O of job @index failed: every job stops. */
void     _duel_engine_jobs_fail          (DuelEngineJobs     *jobs,
                                          guint               index);
/* Another job failed. Cheap: read once per pass. */
gboolean _duel_engine_jobs_should_stop   (DuelEngineJobs     *jobs);
/* Job @index closed its next interval: the row, its latencies, and the job's
 * totals so far (for the progress the calling thread reports). May wait
 * while the job runs far ahead of another. */
void     _duel_engine_jobs_add_row       (DuelEngineJobs      *jobs,
                                          guint                index,
                                          const DuelSeriesRow *row,
                                          DuelHistogram * const hist[DUEL_N_DIRECTIONS],
                                          const guint64        ops[DUEL_N_DIRECTIONS],
                                          const guint64        bytes[DUEL_N_DIRECTIONS]);
/* A job's loop saw the process paused within @window (raw CLOCK_MONOTONIC),
 * its clock moving on by @shift_ns meanwhile (@pause as the job measured
 * it): merged with what the other jobs saw of the same pause (their windows
 * overlap, those of two pauses never do), one shift of every job's time
 * base by the longest view. */
void     _duel_engine_jobs_pause         (DuelEngineJobs      *jobs,
                                          const DuelEngineSpan *window,
                                          guint64              shift_ns,
                                          const DuelPause     *pause);
/* Whether the shared shift changed since *@seen (updated); its value in
 * *@out_shift. Cheap: an atomic read unless it changed. */
gboolean _duel_engine_jobs_shift_changed (DuelEngineJobs      *jobs,
                                          guint               *seen,
                                          guint64             *out_shift);
/* @n more I/Os completed across the last pause. */
void     _duel_engine_jobs_pause_left_out (DuelEngineJobs     *jobs,
                                           guint64             n);
/* The job's totals so far, at least every 200 ms. */
void     _duel_engine_jobs_publish       (DuelEngineJobs     *jobs,
                                          guint               index,
                                          const guint64       ops[DUEL_N_DIRECTIONS],
                                          const guint64       bytes[DUEL_N_DIRECTIONS]);
/* Job @index stopped: its open interval, its last completion (0 if it never
 * started), whether it saw the cancel, and its error (transfer full). */
void     _duel_engine_jobs_end           (DuelEngineJobs      *jobs,
                                          guint                index,
                                          const DuelSeriesRow *open_row,
                                          DuelHistogram * const open_hist[DUEL_N_DIRECTIONS],
                                          guint64              last_ns,
                                          gboolean             cancelled,
                                          GError              *error);

/* The watchdog (duel-engine-watchdog.c). */

/* duel_engine_run(), once per run: a thread that ticks every 50 ms. NULL
 * when it cannot be started (a debug message says so): then no gap of a
 * loop's clock is taken for a pause, only a suspend is. */
DuelEngineWatchdog *_duel_engine_watchdog_start (void);
/* Stops and joins it; NULL is ignored. */
void     _duel_engine_watchdog_stop      (DuelEngineWatchdog  *watchdog);
/* Any thread: the parts of [@from, @to] (raw CLOCK_MONOTONIC) in which the
 * watchdog did not run, PAUSE_MIN_NS or longer each, in order, at most
 * @max into @out. 0 for a NULL @watchdog. */
guint    _duel_engine_watchdog_silences  (DuelEngineWatchdog  *watchdog,
                                          guint64              from,
                                          guint64              to,
                                          DuelEngineSpan      *out,
                                          guint                max);

G_END_DECLS
