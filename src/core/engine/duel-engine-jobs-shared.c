/* duel-engine-jobs-shared.c — numjobs > 1: the calls a job's thread makes
 *
 * Each job's loop (duel-engine-ring.c) reaches the others only through
 * these: the shared start, the byte budget, the stop flag, and the rows and
 * totals it hands to the calling thread (duel-engine-jobs.c), which merges
 * them. They are apart from the calling thread's side because that side
 * starts the loops: the loop calls down to these, never back up to it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "duel-engine-jobs-private.h"
#include "duel-rng.h"

guint64
_duel_engine_jobs_seed (guint64 seed,
                        guint   index)
{
  guint64 state = index;

  if (index == 0)
    return seed;
  /* splitmix64 of the index: distinct for every index, and far apart. */
  return seed ^ duel_rng_splitmix64 (&state);
}

gboolean
_duel_engine_jobs_ready (DuelEngineJobs *self,
                         guint           index,
                         GError         *setup_error,
                         guint64        *out_t0)
{
  Job *job = &self->jobs[index];
  gboolean go;

  g_mutex_lock (&self->lock);
  job->ready = TRUE;
  job->error = setup_error;
  g_cond_signal (&self->changed);
  while (!self->go && !self->abort)
    g_cond_wait (&self->advanced, &self->lock);
  go = self->go && setup_error == NULL;
  if (out_t0 != NULL)
    *out_t0 = self->t0;
  g_mutex_unlock (&self->lock);
  return go;
}

gboolean
_duel_engine_jobs_has_budget (DuelEngineJobs *self)
{
  return self->has_budget;
}

guint64
_duel_engine_jobs_take_blocks (DuelEngineJobs *self,
                               guint64         wanted)
{
  guint64 taken;

  g_mutex_lock (&self->budget_lock);
  taken = MIN (wanted, self->budget_blocks);
  self->budget_blocks -= taken;
  g_mutex_unlock (&self->budget_lock);
  return taken;
}

void
_duel_engine_jobs_fail (DuelEngineJobs *self,
                        guint           index)
{
  g_mutex_lock (&self->lock);
  if (self->first_failed < 0)
    self->first_failed = (int) index;
  g_mutex_unlock (&self->lock);
  g_atomic_int_set (&self->stop, 1);
}

gboolean
_duel_engine_jobs_should_stop (DuelEngineJobs *self)
{
  return g_atomic_int_get (&self->stop) != 0;
}

static void
publish_locked (Job           *job,
                const guint64  ops[DUEL_N_DIRECTIONS],
                const guint64  bytes[DUEL_N_DIRECTIONS])
{
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    {
      job->ops[d] = ops[d];
      job->bytes[d] = bytes[d];
    }
}

void
_duel_engine_jobs_add_row (DuelEngineJobs      *self,
                           guint                index,
                           const DuelSeriesRow *row,
                           DuelHistogram * const hist[DUEL_N_DIRECTIONS],
                           const guint64        ops[DUEL_N_DIRECTIONS],
                           const guint64        bytes[DUEL_N_DIRECTIONS])
{
  Job *job = &self->jobs[index];
  guint64 k;

  g_mutex_lock (&self->lock);
  k = job->n_closed;
  while (k >= self->next_row + N_PENDING)
    g_cond_wait (&self->advanced, &self->lock);

  if (k < self->next_row)
    {
      /* Merged already without this job, which cannot happen to a full row:
       * a stopped job did not close it, so it belongs to the last row. */
      _duel_engine_jobs_row_add (&self->tail, row);
      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        duel_histogram_merge (&self->tail_hist[d], hist[d]);
    }
  else
    {
      PendingRow *pending = &self->pending[k % N_PENDING];

      _duel_engine_jobs_row_add (&pending->row, row);
      for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
        duel_histogram_merge (&pending->hist[d], hist[d]);
    }
  job->n_closed++;
  publish_locked (job, ops, bytes);
  g_cond_signal (&self->changed);
  g_mutex_unlock (&self->lock);
}

void
_duel_engine_jobs_publish (DuelEngineJobs *self,
                           guint           index,
                           const guint64   ops[DUEL_N_DIRECTIONS],
                           const guint64   bytes[DUEL_N_DIRECTIONS])
{
  g_mutex_lock (&self->lock);
  publish_locked (&self->jobs[index], ops, bytes);
  g_mutex_unlock (&self->lock);
}

void
_duel_engine_jobs_end (DuelEngineJobs      *self,
                       guint                index,
                       const DuelSeriesRow *open_row,
                       DuelHistogram * const open_hist[DUEL_N_DIRECTIONS],
                       guint64              last_ns,
                       gboolean             cancelled,
                       GError              *error)
{
  Job *job = &self->jobs[index];

  g_mutex_lock (&self->lock);
  /* The open interval starts at or after the first row it did not close,
   * where the last row starts. */
  _duel_engine_jobs_row_add (&self->tail, open_row);
  for (guint d = 0; d < DUEL_N_DIRECTIONS; d++)
    duel_histogram_merge (&self->tail_hist[d], open_hist[d]);
  job->last_ns = last_ns;
  job->cancelled = cancelled;
  job->error = error;
  job->ended = TRUE;
  self->n_ended++;
  /* A ring that failed stops the loop before it can tell the others. */
  if (error != NULL && self->first_failed < 0)
    self->first_failed = (int) index;
  g_cond_signal (&self->changed);
  g_mutex_unlock (&self->lock);
  if (error != NULL)
    g_atomic_int_set (&self->stop, 1);
}

void
_duel_engine_jobs_pause (DuelEngineJobs       *self,
                         const DuelEngineSpan *window,
                         guint64               shift_ns,
                         const DuelPause      *pause)
{
  guint i;

  g_mutex_lock (&self->lock);
  /* Another job's view of a pause already noted, most likely the last. */
  for (i = self->pauses->len; i > 0; i--)
    if (window->from < self->windows[i - 1].to && window->to > self->windows[i - 1].from)
      break;
  if (i == 0 && self->pauses->len == DUEL_TEST_RECORD_MAX_PAUSES)
    {
      /* Memory stays bounded: past the last kept, added to it; its window
       * grows to hold this one, so later views of it merge too. */
      DuelPause *last = &g_array_index (self->pauses, DuelPause, self->pauses->len - 1);
      DuelEngineSpan *last_window = &self->windows[self->pauses->len - 1];

      last->rows = MAX (last->row + last->rows, pause->row + pause->rows) - last->row;
      last->length_ns += pause->length_ns;
      last_window->from = MIN (last_window->from, window->from);
      last_window->to = MAX (last_window->to, window->to);
      self->shifts[self->pauses->len - 1] += shift_ns;
      self->shift += shift_ns;
    }
  else if (i == 0)
    {
      g_array_append_val (self->pauses, *pause);
      self->windows[self->pauses->len - 1] = *window;
      self->shifts[self->pauses->len - 1] = shift_ns;
      self->shift += shift_ns;
    }
  else
    {
      /* Their union; the longest view is the pause (each job saw it from
       * its own last clock read, all of them hold it whole). */
      DuelPause *kept = &g_array_index (self->pauses, DuelPause, i - 1);
      DuelEngineSpan *kept_window = &self->windows[i - 1];
      guint first = MIN (kept->row, pause->row);
      guint past = MAX (kept->row + kept->rows, pause->row + pause->rows);

      kept_window->from = MIN (kept_window->from, window->from);
      kept_window->to = MAX (kept_window->to, window->to);
      if (shift_ns > self->shifts[i - 1])
        {
          self->shift += shift_ns - self->shifts[i - 1];
          self->shifts[i - 1] = shift_ns;
        }
      if (pause->row < kept->row || (pause->row == kept->row && pause->at_ms < kept->at_ms))
        {
          kept->at_ms = pause->at_ms;
          kept->fraction = pause->fraction;
        }
      kept->row = first;
      kept->rows = past - first;
      kept->length_ns = MAX (kept->length_ns, pause->length_ns);
    }
  self->pauses_changes++;
  g_mutex_unlock (&self->lock);
  g_atomic_int_inc (&self->shift_changes);
}

gboolean
_duel_engine_jobs_shift_changed (DuelEngineJobs *self,
                                 guint          *seen,
                                 guint64        *out_shift)
{
  guint changes = (guint) g_atomic_int_get (&self->shift_changes);

  if (changes == *seen)
    return FALSE;
  g_mutex_lock (&self->lock);
  *out_shift = self->shift;
  g_mutex_unlock (&self->lock);
  *seen = changes;
  return TRUE;
}

void
_duel_engine_jobs_pause_left_out (DuelEngineJobs *self,
                                  guint64         n)
{
  g_mutex_lock (&self->lock);
  if (self->pauses->len > 0)
    {
      g_array_index (self->pauses, DuelPause, self->pauses->len - 1).latencies_left_out += n;
      self->pauses_changes++;
    }
  g_mutex_unlock (&self->lock);
}
