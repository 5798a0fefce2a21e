/* duel-engine-jobs.c — numjobs > 1: one engine per job, one record
 *
 * Each job is the loop of duel-engine-ring.c in a thread of its own: its own
 * ring, slots, buffers, offsets (from a seed of its own) and histograms. The
 * calling thread coordinates them and is the only one that touches the
 * record, so the progress callback sees it as it does with one job. This
 * file is the calling thread's side; the calls a job's thread makes are in
 * duel-engine-jobs-shared.c, and what both touch, under its locks, in
 * duel-engine-jobs-private.h.
 *
 * One clock: the jobs set up, then wait; the calling thread takes the start
 * time t0 and lets them go. Every job closes its intervals at t0 + k *
 * interval, so row k of every job covers the same time; the merged row k is
 * their sum (lat_max the largest), appended when the last job closes it.
 * Jobs hand rows over into a few shared pending rows rather than a queue of
 * their own, so memory does not grow with the run; a job that gets that many
 * intervals ahead of another waits for it.
 *
 * One byte budget: with a byte limit, jobs take blocks from a shared count
 * as they issue (a few at a time, see job_sync() in duel-engine-ring.c), so
 * the total is exactly the limit however the jobs' speeds differ.
 *
 * One stop: a cancel is seen by every job on its own; an I/O error in one job
 * raises a flag the others read once per pass (they wake at least every
 * 50 ms). Once a job stops, it closes no more intervals: its open interval
 * takes the drain, as with one job. From the first interval that a stopped
 * job did not close, the rows of all jobs and their open intervals become
 * the record's last row, which ends at the last completion.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "duel-engine-jobs-private.h"
#include "duel-error.h"
#include "duel-system.h"

static void
pending_reset (PendingRow *pending)
{
  memset (&pending->row, 0, sizeof pending->row);
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    duel_histogram_init (&pending->hist[d]);
}

static void
append_row (DuelEngineJobs *self,
            DuelSeriesRow  *row,
            DuelHistogram  *hist,
            guint64         t_ms)
{
  DuelTestRecord *record = self->record;

  row->t_ms = t_ms;
  row->temperature_c = NAN;
  duel_series_append (record->series, row);
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    duel_histogram_merge (record->latency[d], &hist[d]);
}

/* The pauses the jobs saw, into the record (the calling thread's alone).
 * Under the lock. */
static void
copy_pauses (DuelEngineJobs *self)
{
  DuelTestRecord *record = self->record;

  if (self->pauses_copied == self->pauses_changes)
    return;
  self->pauses_copied = self->pauses_changes;
  self->shift_copied = self->shift;
  g_clear_pointer (&record->pauses, g_array_unref);
  record->pauses = g_array_copy (self->pauses);
  /* A job knows its share of the byte budget only: the fraction by bytes
   * is the rows' before the pause (rare: once per pause). */
  for (guint i = 0; record->byte_limit > 0 && i < record->pauses->len; i++)
    {
      DuelPause *pause = &g_array_index (record->pauses, DuelPause, i);
      guint n = MIN (pause->row, duel_series_get_length (record->series));
      guint64 done = 0;

      for (guint r = 0; r < n; r++)
        {
          const DuelSeriesRow *row = duel_series_get_row (record->series, r);

          done += row->bytes[0] + row->bytes[1];
        }
      pause->fraction = MAX (pause->fraction, MIN ((double) done / (double) record->byte_limit, 1.0));
    }
}

/* Merges the rows every job has closed into the record, in order, and those
 * that a stopped job never will into the last row. Under the lock. TRUE
 * when a row was appended. */
static gboolean
merge_rows (DuelEngineJobs *self)
{
  gboolean appended = FALSE;

  copy_pauses (self);

  for (;;)
    {
      guint64 k = self->next_row;
      PendingRow *pending = &self->pending[k % N_PENDING];
      gboolean complete = TRUE, lost = FALSE, any = FALSE;

      for (guint j = 0; j < self->n_jobs; j++)
        {
          const Job *job = &self->jobs[j];

          if (job->n_closed > k)
            any = TRUE;
          else if (job->ended)
            lost = TRUE;
          else
            complete = FALSE;
        }

      if (lost && any)
        {
          /* So are all later rows: the stopped job closes none. Jobs still
           * running add theirs to the last row directly. */
          _duel_engine_jobs_row_add (&self->tail, &pending->row);
          for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
            duel_histogram_merge (&self->tail_hist[d], &pending->hist[d]);
        }
      else if (complete && !lost)
        {
          append_row (self, &pending->row, pending->hist,
                      (k + 1) * self->record->workload.interval_ms);
          appended = TRUE;
        }
      else
        break;

      pending_reset (pending);
      self->next_row++;
      g_cond_broadcast (&self->advanced);
    }
  return appended;
}

/* Like the engine's own report, from the merged rows and the totals the jobs
 * published; called without the lock, so jobs go on handing rows over. */
static void
report_progress (DuelEngineJobs   *self,
                 const guint64     ops[DUEL_N_DIRECTIONS],
                 const guint64     bytes[DUEL_N_DIRECTIONS],
                 guint64           now,
                 gboolean          interval_closed,
                 DuelProgressFunc  progress_func,
                 gpointer          progress_data)
{
  DuelTestRecord *record = self->record;
  DuelProgress progress;

  /* The time pauses took is not the test's. */
  _duel_engine_fill_progress (&progress, now > self->t0 + self->shift_copied ? now - self->t0 - self->shift_copied : 0,
                              ops, bytes, record->byte_limit,
                              record->workload.runtime_ms * NS_PER_MS, record->series, interval_closed);
  progress_func (&progress, record, progress_data);
}

static gpointer
job_thread (gpointer data)
{
  Job *job = data;
  DuelEngineJobs *self = job->owner;

  _duel_engine_job_main (self, job->index, self->target, self->record,
                         self->reads, self->writes, self->watchdog, self->cancellable);
  return NULL;
}

/* Waits for every job started to be set up (or to fail to). Under the lock. */
static void
wait_ready (DuelEngineJobs *self,
            guint           n_started)
{
  for (;;)
    {
      guint n_ready = 0;

      for (guint j = 0; j < n_started; j++)
        n_ready += self->jobs[j].ready;
      if (n_ready == n_started)
        return;
      g_cond_wait (&self->changed, &self->lock);
    }
}

/* Runs the jobs to their end, merging and reporting as they go. TRUE when
 * rows were appended since the last progress call. */
static gboolean
coordinate (DuelEngineJobs   *self,
            DuelProgressFunc  progress_func,
            gpointer          progress_data)
{
  guint64 progress_due;
  gboolean interval_closed = FALSE;

  g_mutex_lock (&self->lock);
  self->t0 = _duel_engine_now_ns ();
  self->go = TRUE;
  g_cond_broadcast (&self->advanced);
  progress_due = self->t0 + PROGRESS_EVERY_NS;

  while (self->n_ended < self->n_jobs)
    {
      guint64 now;

      interval_closed |= merge_rows (self);
      now = _duel_engine_now_ns ();
      if (progress_func != NULL && (interval_closed || now >= progress_due))
        {
          guint64 ops[DUEL_N_DIRECTIONS] = { 0, }, bytes[DUEL_N_DIRECTIONS] = { 0, };

          for (guint j = 0; j < self->n_jobs; j++)
            for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
              {
                ops[d] += self->jobs[j].ops[d];
                bytes[d] += self->jobs[j].bytes[d];
              }
          g_mutex_unlock (&self->lock);
          report_progress (self, ops, bytes, now, interval_closed, progress_func, progress_data);
          g_mutex_lock (&self->lock);
          interval_closed = FALSE;
          progress_due = now + PROGRESS_EVERY_NS;
          continue;
        }
      if (progress_func == NULL)
        g_cond_wait (&self->changed, &self->lock);
      else
        /* g_cond_wait_until() counts in g_get_monotonic_time()'s µs, the
         * same CLOCK_MONOTONIC. */
        g_cond_wait_until (&self->changed, &self->lock, (gint64) (progress_due / 1000));
    }

  /* Everything left: rows all jobs closed, and what goes to the last row. */
  interval_closed |= merge_rows (self);
  g_mutex_unlock (&self->lock);
  return interval_closed;
}

/* The last row ends at the last completion, as with one job. */
static void
finish_record (DuelEngineJobs   *self,
               gboolean          interval_closed,
               DuelProgressFunc  progress_func,
               gpointer          progress_data)
{
  DuelTestRecord *record = self->record;
  guint64 last_ns = 0;
  gboolean started = FALSE;

  for (guint j = 0; j < self->n_jobs; j++)
    if (self->jobs[j].last_ns != 0)
      {
        started = TRUE;
        last_ns = MAX (last_ns, self->jobs[j].last_ns);
      }
  if (!started)
    return;

  record->runtime_ns = last_ns > self->t0 + self->shift_copied ? last_ns - self->t0 - self->shift_copied : 0;
  if (self->tail.ops[0] + self->tail.ops[1] > 0)
    {
      guint n_rows = duel_series_get_length (record->series);
      guint64 t_ms = (record->runtime_ns + NS_PER_MS - 1) / NS_PER_MS;

      if (n_rows > 0)
        t_ms = MAX (t_ms, duel_series_get_row (record->series, n_rows - 1)->t_ms + 1);
      append_row (self, &self->tail, self->tail_hist, t_ms);
      interval_closed = TRUE;
    }

  if (progress_func != NULL)
    {
      DuelSeriesRow total;

      duel_series_sum (record->series, &total);
      report_progress (self, total.ops, total.bytes, last_ns, interval_closed, progress_func, progress_data);
    }
}

gboolean
_duel_engine_jobs_run (DuelTarget         *target,
                       DuelTestRecord     *record,
                       gboolean            reads,
                       gboolean            writes,
                       DuelEngineWatchdog *watchdog,
                       GCancellable       *cancellable,
                       DuelProgressFunc    progress_func,
                       gpointer            progress_data,
                       gboolean           *out_cancelled,
                       GError            **error)
{
  g_autoptr(GError) local_error = NULL;
  DuelEngineJobs *self;
  guint n_started = 0;
  gboolean interval_closed = FALSE;
  gboolean ok = FALSE;

  g_return_val_if_fail (record->workload.numjobs > 1, FALSE);

  record->started = g_date_time_new_now_utc ();

  self = g_new0 (DuelEngineJobs, 1);
  self->target = target;
  self->record = record;
  self->reads = reads;
  self->writes = writes;
  self->watchdog = watchdog;
  self->cancellable = cancellable;
  self->n_jobs = record->workload.numjobs;
  self->has_budget = record->byte_limit > 0;
  /* The limit is whole blocks (duel_workload_resolve()). */
  self->budget_blocks = record->byte_limit / record->workload.block_size;
  self->first_failed = -1;
  self->jobs = g_new0 (Job, self->n_jobs);
  self->pending = g_new0 (PendingRow, N_PENDING);
  self->tail_hist = g_new0 (DuelHistogram, DUEL_N_DIRECTIONS);
  self->pauses = g_array_new (FALSE, FALSE, sizeof (DuelPause));
  self->tail.temperature_c = NAN;
  g_mutex_init (&self->budget_lock);
  g_mutex_init (&self->lock);
  g_cond_init (&self->changed);
  g_cond_init (&self->advanced);

  for (guint j = 0; j < self->n_jobs; j++)
    {
      g_autofree char *name = g_strdup_printf ("duel-job-%u", j);
      Job *job = &self->jobs[j];

      job->owner = self;
      job->index = j;
      job->thread = duel_thread_try_new (name, job_thread, job, &local_error);
      if (job->thread == NULL)
        break;
      n_started++;
    }

  g_mutex_lock (&self->lock);
  wait_ready (self, n_started);
  for (guint j = 0; j < n_started && local_error == NULL; j++)
    local_error = g_steal_pointer (&self->jobs[j].error);
  if (local_error != NULL)
    {
      /* Nothing was measured: every job leaves before its loop. */
      self->abort = TRUE;
      g_cond_broadcast (&self->advanced);
      g_mutex_unlock (&self->lock);
    }
  else
    {
      g_mutex_unlock (&self->lock);
      interval_closed = coordinate (self, progress_func, progress_data);
    }

  for (guint j = 0; j < n_started; j++)
    g_thread_join (self->jobs[j].thread);

  if (!self->abort)
    {
      finish_record (self, interval_closed, progress_func, progress_data);

      /* The error of the job that stopped the others; any other error is
       * what followed from it (the same device, gone). */
      if (self->first_failed >= 0)
        local_error = g_steal_pointer (&self->jobs[self->first_failed].error);
      for (guint j = 0; j < self->n_jobs && local_error == NULL; j++)
        local_error = g_steal_pointer (&self->jobs[j].error);
      for (guint j = 0; j < self->n_jobs; j++)
        *out_cancelled |= self->jobs[j].cancelled;
      ok = local_error == NULL && !*out_cancelled;
    }

  for (guint j = 0; j < self->n_jobs; j++)
    g_clear_error (&self->jobs[j].error);
  g_cond_clear (&self->advanced);
  g_cond_clear (&self->changed);
  g_mutex_clear (&self->lock);
  g_mutex_clear (&self->budget_lock);
  g_free (self->tail_hist);
  g_array_unref (self->pauses);
  g_free (self->pending);
  g_free (self->jobs);
  g_free (self);
  if (local_error != NULL)
    g_propagate_error (error, g_steal_pointer (&local_error));
  return ok;
}
